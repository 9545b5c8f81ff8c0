"""The robot model: a chain of links with standard DH parameters and inertial data.

Conventions (docs/using.md; Fu, Gonzalez & Lee, Sec. 2.2; Schilling, Sec. 2-6):
``A_i = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i)``, joint ``i`` about or along ``z_{i-1}``,
``theta_i`` (or ``d_i``) ``= q_i + offset_i``; centre of mass and inertia about it in frame
``i``; ``gravity`` in base coordinates (N-E gives the base ``-gravity``, Fu, Gonzalez & Lee,
Eq. (3.3-46), Prob. 3.13); ``tip_force``/``tip_moment`` the wrench the tool exerts on its
environment, in base coordinates about the origin of frame ``n`` (Fu, Gonzalez & Lee,
Algorithm 3.1 step N4); friction Schilling, Eq. (6-3-3).

>>> from dynlab.model.link import Link
>>> arm = Robot([Link("revolute", a=1.0, mass=2.0, com=(-0.5, 0, 0), name="link 1")],
...             gravity=(0, -9.8062, 0), name="pendulum")
>>> arm.n, arm.joint_types, arm.is_symbolic
(1, ('revolute',), False)
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import FrozenInstanceError
from typing import Any

import numpy as np
import sympy

from dynlab.model.checks import count
from dynlab.model.link import (
    G,
    Link,
    LinkData,
    exact,
    is_sequence,
    is_sympy,
    scalar,
    value_entries,
    vector3,
)
from dynlab.model.robot_data import RobotData
from dynlab.model.vectors import SYMBOLIC


class RobotIsImmutable(FrozenInstanceError):
    """Raised on assigning to (or deleting) an attribute of a :class:`Robot`, which never
    changes once built; its message names the ways to a changed arm.  An ``AttributeError``,
    as assigning to a :class:`Link` raises."""


class Robot:
    """A serial arm: :class:`Link` records, gravity and the tool's wrench.  It never changes once
    built (what is computed from it is kept in :attr:`data`); a changed arm is a new robot.

    >>> arm = Robot([Link("R", a=1.0, mass=1.0, name="link 1")], name="rod")
    >>> arm.gravity = (0, 0, 0)
    Traceback (most recent call last):
    ...
    dynlab.model.robot.RobotIsImmutable: rod: cannot assign to gravity: a Robot does not change once
    built; make a changed arm with robot.replace(gravity=...), robot.replace_link(index, ...) for a
    link's parameters, or dynlab.model.edits.with_mass / with_payload
    >>> import sympy
    >>> m, l, g = sympy.symbols("m l g", positive=True)
    >>> rod = Robot([Link("R", a=l, mass=m, com=(-l / 2, 0, 0), name="link 1")],
    ...             gravity=(0, -g, 0))
    >>> rod.is_symbolic, rod.subs({m: 2, l: 1, g: 9.8062}).is_symbolic
    (True, False)
    """

    def __init__(self, links: Iterable[Link], *, gravity=(0, 0, -G), tip_force=(0, 0, 0),
                 tip_moment=(0, 0, 0), name: str = "robot", source: str = ""):
        if not isinstance(name, str):
            raise TypeError(f"robot name must be a string, got {type(name).__name__}")
        if not isinstance(source, str):
            raise TypeError(f"{name}: source must be a string, got {type(source).__name__} "
                            f"{source!r}")
        if isinstance(links, Link):
            raise TypeError(f"{name}: links must be a sequence of Link, got a single Link; "
                            f"wrap it in a list")
        try:
            links = tuple(links)
        except TypeError:
            raise TypeError(f"{name}: links must be a sequence of Link, "
                            f"got {type(links).__name__}") from None
        if not links:
            raise ValueError(f"{name}: a robot needs at least one link")
        for k, link in enumerate(links, start=1):
            if not isinstance(link, Link):
                raise TypeError(f"{name}: link {k} must be a Link, got {type(link).__name__}")
        values = {"links": links, "name": name, "source": source,
                  "gravity": vector3(gravity, name, "gravity"),
                  "tip_force": vector3(tip_force, name, "tip_force"),
                  "tip_moment": vector3(tip_moment, name, "tip_moment"),
                  #: what is computed from this robot and kept (dynlab.model.robot_data)
                  "data": RobotData()}
        for key, value in values.items():
            object.__setattr__(self, key, value)

    __slots__ = ("links", "name", "source", "gravity", "tip_force", "tip_moment", "data")

    def __setattr__(self, attribute: str, value) -> None:
        raise RobotIsImmutable(self._unchangeable(attribute, "assign to"))

    def __delattr__(self, attribute: str) -> None:
        raise RobotIsImmutable(self._unchangeable(attribute, "delete"))

    def _unchangeable(self, attribute: str, verb: str) -> str:
        change = f"{attribute}=..." if attribute in _REPLACEABLE else "..."
        return (f"{self.name}: cannot {verb} {attribute}: a Robot does not change once built; "
                f"make a changed arm with robot.replace({change}), "
                f"robot.replace_link(index, ...) for a link's parameters, or "
                f"dynlab.model.edits.with_mass / with_payload")

    def __reduce__(self):
        """A copy (``copy``, ``pickle``) is the same description with data of its own."""
        return (_rebuilt_robot, (self.links, self.gravity, self.tip_force, self.tip_moment,
                                 self.name, self.source))

    # -- basic facts ----------------------------------------------------------------------------
    @property
    def n(self) -> int:
        """Number of joints."""
        return len(self.links)

    def __len__(self) -> int:
        return len(self.links)

    @property
    def joint_types(self) -> tuple:
        return tuple(link.joint for link in self.links)

    @property
    def free_symbols(self) -> set:
        """The parameter symbols (computed once: a robot does not change)."""
        data = self.data
        if data.free_symbols is None:
            data.free_symbols = frozenset(self._find_free_symbols())
        return set(data.free_symbols)

    def _find_free_symbols(self) -> set:
        found = set()
        for link in self.links:
            found |= link.free_symbols()
        for value in (*self.gravity, *self.tip_force, *self.tip_moment):
            if is_sympy(value):
                found |= value.free_symbols
        return found

    def symbols(self, names: str):
        """The robot's own parameter symbols (assumptions included) named in ``names``, as
        :func:`sympy.symbols` reads them.

        >>> m, l, g = sympy.symbols("m l g", positive=True)
        >>> rod = Robot([Link("R", a=l, mass=m, com=(-l / 2, 0, 0))], gravity=(0, -g, 0))
        >>> rod.symbols("l, m") == (l, m), rod.symbols("g") == g
        (True, True)
        >>> rod.symbols("m2")
        Traceback (most recent call last):
        ...
        ValueError: robot: no parameter named 'm2'; its symbols are g, l, m
        """
        if not isinstance(names, str):
            raise TypeError(f"{self.name}: symbols takes the names in one string, such as "
                            f"'a2 m2', got {type(names).__name__} {names!r}")
        by_name = {symbol.name: symbol for symbol in self.free_symbols}
        wanted = names.replace(",", " ").split()
        missing = [name for name in wanted if name not in by_name]
        if missing or not wanted:
            known = ", ".join(sorted(by_name)) or "none (it is numeric)"
            unknown = missing[0] if missing else names
            raise ValueError(f"{self.name}: no parameter named {unknown!r}; its symbols are "
                             f"{known}")
        found = tuple(by_name[name] for name in wanted)
        return found[0] if len(found) == 1 else found

    @property
    def is_symbolic(self) -> bool:
        """True when some parameter is a SymPy expression with free symbols."""
        if self.data.free_symbols is None:
            self.free_symbols
        return bool(self.data.free_symbols)

    @property
    def has_friction(self) -> bool:
        return any(link.has_friction for link in self.links)

    @property
    def has_tip_wrench(self) -> bool:
        return any(not (isinstance(v, float) and v == 0.0)
                   for v in (*self.tip_force, *self.tip_moment))

    # -- new robots from this one ---------------------------------------------------------------
    def replace(self, **changes) -> Robot:
        """A new robot with some of ``links``, ``gravity``, ``tip_force``, ``tip_moment``, ``name``,
        ``source`` changed, checked as the constructor checks them.

        >>> arm = Robot([Link("R", a=1.0, mass=1.0, name="link 1")], name="rod")
        >>> arm.replace(gravity=(0, -9.8, 0), name="hanging rod").gravity, arm.gravity
        ((0.0, -9.8, 0.0), (0.0, 0.0, -9.8062))
        >>> arm.replace(mass=2.0)
        Traceback (most recent call last):
        ...
        TypeError: rod: replace() takes links, gravity, tip_force, tip_moment, name, source; got
        mass (a link's parameters change with replace_link)
        """
        values = {"links": self.links, "gravity": self.gravity, "tip_force": self.tip_force,
                  "tip_moment": self.tip_moment, "name": self.name, "source": self.source}
        unknown = [key for key in changes if key not in values]
        if unknown:
            raise TypeError(f"{self.name}: replace() takes {', '.join(values)}; got "
                            f"{', '.join(map(str, unknown))} (a link's parameters change with "
                            f"replace_link)")
        values.update(changes)
        return Robot(values.pop("links"), **values)

    def replace_link(self, index: int, **changes) -> Robot:
        """A copy with link ``index`` (1-based, as in the books) changed.

        >>> arm = Robot([Link("R", a=1.0, mass=1.0, name="link 1")])
        >>> arm.replace_link(1, mass=3.0).links[0].mass
        3.0
        """
        if isinstance(index, numbers.Integral) and not isinstance(index, (bool, np.bool_)) \
                and not 1 <= index <= self.n:
            raise ValueError(f"{self.name}: link index must be 1..{self.n}, got {index!r}")
        index = count(index, self.name, "link index", 1, self.n)
        links = list(self.links)
        links[index - 1] = links[index - 1].replace(**changes)
        return self.replace(links=links)

    def subs(self, mapping: Mapping) -> Robot:
        """Substitute values for parameter symbols, returning a new robot.  ``mapping``: a
        dict ``{symbol: value}`` (or ``(symbol, value)`` pairs).

        >>> Robot([Link("R", a=1.0)]).subs([1, 2])
        Traceback (most recent call last):
        ...
        TypeError: robot: subs needs a mapping {symbol: value} (or (symbol, value) pairs), got list
        [1, 2]
        """
        if not isinstance(mapping, Mapping):
            try:
                mapping = dict(mapping)
            except (TypeError, ValueError):
                raise TypeError(f"{self.name}: subs needs a mapping {{symbol: value}} (or "
                                f"(symbol, value) pairs), got {type(mapping).__name__} "
                                f"{mapping!r}") from None

        def sub(value):
            return value.subs(mapping) if is_sympy(value) else value

        links = []
        for link in self.links:
            values = link.parameters()
            for key in ("theta", "d", "a", "alpha", "offset", "mass", "viscous", "coulomb",
                        "static", "epsilon"):
                values[key] = sub(values[key])
            values["com"] = tuple(sub(v) for v in values["com"])
            values["inertia"] = tuple(tuple(sub(v) for v in row) for row in values["inertia"])
            links.append(Link(**values))
        return self.replace(links=links, gravity=tuple(map(sub, self.gravity)),
                            tip_force=tuple(map(sub, self.tip_force)),
                            tip_moment=tuple(map(sub, self.tip_moment)))

    # -- the numeric view -----------------------------------------------------------------------
    def numeric(self) -> tuple:
        """``(links, gravity, tip_force, tip_moment)`` as floats (:class:`LinkData`), cached; raises
        if symbolic."""
        data = self.data
        if data.numeric is None:
            symbols = self.free_symbols
            if symbols:
                raise TypeError(
                    f"{self.name}: this operation needs numeric parameters, but the robot has "
                    f"symbolic ones ({', '.join(sorted(map(str, symbols)))}); substitute values "
                    f"with robot.subs({{symbol: value, ...}}) first")
            data.numeric = self._link_data(float, _exact_sin, _exact_cos)
        return data.numeric

    def symbolic(self) -> tuple:
        """``(links, gravity, tip_force, tip_moment)`` as exact SymPy values (integral floats become
        integers; ``alpha``'s sine and cosine exact at multiples of pi/2)."""
        data = self.data
        if data.symbolic is None:
            data.symbolic = self._link_data(exact, SYMBOLIC.sin, SYMBOLIC.cos)
        return data.symbolic

    def _link_data(self, value, sin, cos) -> tuple:
        links = tuple(LinkData(
            revolute=link.is_revolute, theta=value(link.theta), d=value(link.d),
            a=value(link.a), sin_alpha=sin(link.alpha), cos_alpha=cos(link.alpha),
            offset=value(link.offset), mass=value(link.mass),
            com=tuple(map(value, link.com)),
            inertia=tuple(tuple(map(value, row)) for row in link.inertia),
            viscous=value(link.viscous), coulomb=value(link.coulomb),
            static=value(link.static), epsilon=value(link.epsilon),
            has_friction=link.has_friction) for link in self.links)
        return (links, tuple(map(value, self.gravity)), tuple(map(value, self.tip_force)),
                tuple(map(value, self.tip_moment)))

    # -- display -------------------------------------------------------------------------------
    def table_rows(self) -> list:
        """One row of strings per link: the DH and inertial table shown by ``repr`` and HTML."""
        rows = []
        for k, link in enumerate(self.links, start=1):
            q = f"q{k}"
            theta = _with_variable(q, link.offset) if link.is_revolute else _fmt(link.theta)
            d = _with_variable(q, link.offset) if link.is_prismatic else _fmt(link.d)
            inertia = link.inertia
            diagonal = all(inertia[r][c] == 0 for r in range(3) for c in range(3) if r != c)
            inertia_text = (f"diag({', '.join(_fmt(inertia[r][r]) for r in range(3))})"
                            if diagonal else
                            "[" + "; ".join(", ".join(_fmt(e) for e in row) for row in inertia)
                            + "]")
            rows.append([str(k), link.name, "R" if link.is_revolute else "P", theta, d,
                         _fmt(link.a), _angle_text(link.alpha), _fmt(link.mass),
                         "(" + ", ".join(_fmt(c) for c in link.com) + ")", inertia_text])
        return rows

    _HEADER = ["i", "name", "joint", "theta", "d", "a", "alpha", "mass", "centre of mass (frame i)",
               "inertia about CoM (frame i)"]

    def _footer(self) -> list:
        lines = ["gravity = (" + ", ".join(_fmt(v) for v in self.gravity) + ")"]
        if self.has_tip_wrench:
            lines.append("tip force = (" + ", ".join(_fmt(v) for v in self.tip_force) + "), "
                         "tip moment = (" + ", ".join(_fmt(v) for v in self.tip_moment) + ")")
        for k, link in enumerate(self.links, start=1):
            if link.has_friction:
                lines.append(f"friction {k}: viscous {_fmt(link.viscous)}, coulomb "
                             f"{_fmt(link.coulomb)}, static {_fmt(link.static)}, "
                             f"epsilon {_fmt(link.epsilon)}")
        if self.source:
            lines.append(f"source: {self.source}")
        return lines

    def __repr__(self) -> str:
        rows = [self._HEADER] + self.table_rows()
        widths = [max(len(row[c]) for row in rows) for c in range(len(self._HEADER))]
        lines = [f"Robot {self.name!r} with {self.n} joint(s)"]
        for r, row in enumerate(rows):
            lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
            if r == 0:
                lines.append("  ".join("-" * w for w in widths))
        return "\n".join(lines + self._footer())

    def _repr_html_(self) -> str:
        import html
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self._HEADER)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                       for row in self.table_rows())
        foot = "".join(f"<br>{html.escape(line)}" for line in self._footer())
        return (f"<div><b>{html.escape(self.name)}</b> ({self.n} joints)"
                f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
                f"<small>{foot[4:]}</small></div>")

    def _repr_latex_(self) -> str:
        return f"$${self.table_latex()}$$"

    def table_latex(self, number=None, digits: int | None = None) -> str:
        """The arm's table as a LaTeX ``array`` (DH, mass, centre of mass, inertia, the joint
        variable in its row); ``number`` writes a parameter, ``digits`` rounds first.

        >>> arm = Robot([Link("R", mass=1.0, com=(0.0003000000000000483, 0, 0))])
        >>> "0.000300000000000048" in arm.table_latex(), "0.0003 & 0" in arm.table_latex(digits=6)
        (True, True)
        """
        _check_digits(digits, "table_latex")
        plain = number

        def number(value):
            return table_entry(value, digits, plain)
        cols = ["i", r"\text{joint}", r"\theta", "d", "a", r"\alpha", "m", r"\bar r",
                r"I_{\bar r}"]
        lines = []
        for k, link in enumerate(self.links, start=1):
            q = sympy.Symbol(f"q_{k}")
            theta = q + number(link.offset) if link.is_revolute else link.theta
            d = q + number(link.offset) if link.is_prismatic else link.d
            cells = [str(k), "R" if link.is_revolute else "P",
                     *(sympy.latex(number(v)) for v in (theta, d, link.a, link.alpha, link.mass)),
                     sympy.latex(sympy.Matrix([[number(c) for c in link.com]])),
                     sympy.latex(sympy.Matrix([[number(e) for e in row]
                                               for row in link.inertia]))]
            lines.append(" & ".join(cells))
        return (r"\begin{array}{" + "c" * len(cols) + "}" + " & ".join(cols) + r"\\ \hline "
                + r" \\ ".join(lines) + r"\end{array}")


#: What :meth:`Robot.replace` changes.
_REPLACEABLE = ("links", "gravity", "tip_force", "tip_moment", "name", "source")


def _rebuilt_robot(links, gravity, tip_force, tip_moment, name, source) -> Robot:
    return Robot(links, gravity=gravity, tip_force=tip_force, tip_moment=tip_moment, name=name,
                 source=source)


def _exact(value):
    """A whole-number float as an exact integer (a table prints ``0``, not ``0.0``), a multiple
    of pi/12 as one (``pi/2``, not ``1.5707963267949``); anything else unchanged.

    >>> _exact(0.0), _exact(2.0), _exact(0.5), _exact(-math.pi / 2)
    (0, 2, 0.5, -pi/2)
    >>> type(_exact(0.0)).__name__
    'Zero'
    """
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        return sympy.Integer(int(value))
    if isinstance(value, float) and math.isfinite(value):
        # an angle typed as math.pi / 2 prints as the book's pi/2 (multiples of pi/12)
        twelfths = value / (math.pi / 12)
        if abs(twelfths - round(twelfths)) < 1e-9 and abs(twelfths) <= 48:
            return sympy.Rational(round(twelfths), 12) * sympy.pi
    return value


def _check_digits(digits, where: str) -> None:
    if digits is not None and (not isinstance(digits, int) or isinstance(digits, bool)
                               or digits < 1):
        raise ValueError(f"{where}: digits must be a positive whole number, got {digits!r}")


def table_entry(value, digits: int | None = None, number=None):
    """A parameter as an arm's table writes it: ``number(value)`` (default: whole numbers and
    multiples of pi/12 exact, anything else as it is), a float left over rounded to ``digits``
    significant digits first when given (the round-off of a table found from a file).

    >>> table_entry(-math.pi / 2), table_entry(0.8620000000000001, 6), table_entry(2.0)
    (-pi/2, 0.862, 2)
    """
    number = _exact if number is None else number
    _check_digits(digits, "table_entry")
    shown = number(value)                             # pi/2 stays pi/2, not 1.5708
    if digits is not None and isinstance(shown, float) and math.isfinite(shown):
        shown = number(float(f"{shown:.{digits}g}"))
    return shown


def _angle_text(value) -> str:
    """A twist angle as the tables print it: a multiple of pi/12 exactly (``pi/2``), else as
    :func:`_fmt` writes numbers.

    >>> _angle_text(math.pi / 2), _angle_text(-math.pi / 2), _angle_text(0.0), _angle_text(0.3)
    ('pi/2', '-pi/2', '0', '0.3')
    """
    exact = _exact(value)
    return str(exact) if isinstance(exact, sympy.Basic) else _fmt(value)


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _with_variable(q: str, offset) -> str:
    if offset == 0:
        return q
    text = _fmt(offset)
    return f"{q} - {text[1:]}" if text.startswith("-") else f"{q} + {text}"


def _exact_sin(alpha, function=math.sin, shift: int = 0) -> float:
    """sin(alpha) (``function`` of it) as a float, exactly 0 or +-1 at multiples of pi/2 (to
    1e-12; no 6e-17 residue): cos(alpha) is sin(alpha + pi/2), one quarter turn on."""
    value = float(alpha)
    turns = value / (math.pi / 2)
    if abs(turns - round(turns)) < 1e-12:
        return (0.0, 1.0, 0.0, -1.0)[(round(turns) + shift) % 4]
    return function(value)


def _exact_cos(alpha) -> float:
    return _exact_sin(alpha, math.cos, 1)


def joint_symbols(n: int) -> tuple:
    """SymPy symbols ``(q, qd, qdd)`` for an ``n``-joint arm: ``q1..qn``, ``qd1..``, ``qdd1..``.

    >>> q, qd, qdd = joint_symbols(2)
    >>> q, qd, qdd
    ((q1, q2), (qd1, qd2), (qdd1, qdd2))
    """
    n = count(n, "joint_symbols", "n", 1)
    return tuple(tuple(sympy.Symbol(f"{stem}{k}", real=True) for k in range(1, n + 1))
                 for stem in ("q", "qd", "qdd"))


def joint_vector(robot: Robot, values: Any, name: str) -> tuple:
    """A joint-space vector of ``robot`` checked, as floats (or SymPy expressions).

    >>> arm = Robot([Link("R", a=1.0, name="l1"), Link("R", a=1.0, name="l2")], name="2R")
    >>> joint_vector(arm, [0.1, 2], "q")
    (0.1, 2.0)
    >>> joint_vector(arm, [0.1], "qd")
    Traceback (most recent call last):
    ...
    ValueError: 2R: qd must have 2 entries (one per joint), got 1
    """
    if isinstance(values, numbers.Number) or (is_sympy(values)
                                              and not isinstance(values, sympy.MatrixBase)):
        values = [values]
    entries = value_entries(values, robot.name, name)
    if any(is_sequence(e) for e in entries):
        raise ValueError(f"{robot.name}: {name} must be a flat vector of {robot.n} entries, "
                         f"got a nested sequence")
    if len(entries) != robot.n:
        raise ValueError(f"{robot.name}: {name} must have {robot.n} entries (one per joint), "
                         f"got {len(entries)}")
    return tuple(scalar(e, robot.name, f"{name}[{k}]") for k, e in enumerate(entries))


def joint_vector_is_numeric(values: Sequence) -> bool:
    return all(isinstance(v, float) or (is_sympy(v) and not v.free_symbols) for v in values)
