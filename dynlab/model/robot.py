"""The robot model: links described by standard Denavit-Hartenberg parameters and inertial data.

Conventions (README, "Conventions"; Fu, Gonzalez & Lee, Sec. 2.2 and Schilling, Sec. 2-6):

* ``A_i = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i)``; frame ``i`` sits at the distal end of link ``i``
  and joint ``i`` moves about (revolute) or along (prismatic) ``z_{i-1}``.
* The joint variable ``q_i`` is ``theta_i = q_i + offset_i`` for a revolute joint and
  ``d_i = q_i + offset_i`` for a prismatic one; the other of the two is a constant.
* The centre of mass of link ``i`` and its inertia tensor about the centre of mass are given in
  frame ``i`` (Fu, Gonzalez & Lee's ``r_bar_i`` and ``I_i``).  Every other form (Fu's pseudo-inertia ``J_i``,
  base-frame inertia, ...) is computed from these, never typed twice.
* ``gravity`` is the gravitational acceleration in base coordinates, e.g. ``(0, 0, -9.8062)`` when
  ``z_0`` points up.  Fu, Gonzalez & Lee and Schilling write the same physics with the opposite sign in N-E (the base is
  given the acceleration ``-gravity``, Eq. (3.3-46)); see Fu, Gonzalez & Lee, Prob. 3.13.
* ``tip_force`` and ``tip_moment`` are the force and moment the end effector exerts *on* its
  environment (Fu, Gonzalez & Lee, Algorithm 3.1 step N4: ``f_{n+1}``, ``n_{n+1}``), in base coordinates, the
  moment taken about the origin of frame ``n``.
* Friction of joint ``k`` is Schilling, Eq. (6-3-3): viscous ``b_v``, dynamic (Coulomb) ``b_d`` and static
  ``b_s`` with the small positive ``epsilon``; all zero by default.

Every parameter may be a float or a SymPy expression.  Bad input raises a ``ValueError`` or
``TypeError`` that names the link and the parameter.

>>> from dynlab.model.robot import Link, Robot
>>> arm = Robot([Link("revolute", a=1.0, mass=2.0, com=(-0.5, 0, 0), name="link 1")],
...             gravity=(0, -9.8062, 0), name="pendulum")
>>> arm.n, arm.joint_types, arm.is_symbolic
(1, ('revolute',), False)
>>> Link("revolute", mass=-1.0, name="link 1")
Traceback (most recent call last):
...
ValueError: link 1: mass must be non-negative, got -1.0
"""

from __future__ import annotations

import math
import numbers
import sys
from dataclasses import FrozenInstanceError, dataclass
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import sympy

from dynlab.model.checks import choice, count, flag
from dynlab.model.robot_data import RobotData
from dynlab.model.vectors import SYMBOLIC

#: Gravitational acceleration used by Fu, Gonzalez & Lee (Eq. (3.3-46)) and Schilling, in m/s^2.
G = 9.8062

REVOLUTE = "revolute"
PRISMATIC = "prismatic"
_JOINT_ALIASES = {"revolute": REVOLUTE, "r": REVOLUTE, "rotational": REVOLUTE,
                  "prismatic": PRISMATIC, "p": PRISMATIC, "translational": PRISMATIC}

# Relative tolerance of the numeric checks of an inertia tensor (symmetry, definiteness, triangle).
_INERTIA_RTOL = 1e-9


def _is_sympy(value: Any) -> bool:
    return isinstance(value, sympy.Basic)


def scalar(value: Any, where: str, param: str, *, nonnegative: bool = False,
           positive: bool = False):
    """Return ``value`` as a float or a SymPy expression, or raise naming ``where`` and ``param``.

    Plain numbers become ``float``; SymPy expressions are kept (so ``pi/2`` stays exact).

    >>> scalar(3, "link 1", "a")
    3.0
    >>> scalar(sympy.pi / 2, "link 1", "alpha")
    pi/2
    >>> scalar(float("nan"), "link 2", "mass")
    Traceback (most recent call last):
    ...
    ValueError: link 2: mass must be finite, got nan
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{where}: {param} must be a real number or a SymPy expression, "
                        f"got the boolean {value!r}")
    if isinstance(value, numbers.Real):
        try:
            number = float(value)
        except OverflowError:      # an integer (or fraction) beyond the float range
            raise ValueError(f"{where}: {param} must be finite, got a number too large for "
                             f"a float (beyond {sys.float_info.max:.3g})") from None
        if not math.isfinite(number):
            raise ValueError(f"{where}: {param} must be finite, got {number!r}")
        if positive and number <= 0:
            raise ValueError(f"{where}: {param} must be positive, got {number!r}")
        if nonnegative and number < 0:
            raise ValueError(f"{where}: {param} must be non-negative, got {number!r}")
        return number
    if _is_sympy(value):
        if not isinstance(value, sympy.Expr):
            raise TypeError(f"{where}: {param} must be a SymPy expression, "
                            f"got {type(value).__name__} {value!r}")
        if value.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
            raise ValueError(f"{where}: {param} must be finite, got {value}")
        if value.is_real is False:
            raise ValueError(f"{where}: {param} must be real, got {value}")
        if positive and value.is_positive is False:
            raise ValueError(f"{where}: {param} must be positive, got {value}")
        if nonnegative and value.is_negative:
            raise ValueError(f"{where}: {param} must be non-negative, got {value}")
        return value
    if isinstance(value, numbers.Complex):
        raise ValueError(f"{where}: {param} must be real, got the complex number {value!r}")
    raise TypeError(f"{where}: {param} must be a real number or a SymPy expression, "
                    f"got {type(value).__name__} {value!r}")


def vector3(value: Any, where: str, param: str) -> tuple:
    """Return a 3-vector as a tuple of scalars, or raise naming the parameter.

    >>> vector3([0, 0, -9.8062], "robot", "gravity")
    (0.0, 0.0, -9.8062)
    >>> vector3([1, 2], "link 1", "com")
    Traceback (most recent call last):
    ...
    ValueError: link 1: com must be a 3-vector, got 2 entries
    """
    entries = _entries(value, where, param)
    if any(_is_sequence(e) for e in entries):
        raise ValueError(f"{where}: {param} must be a 3-vector, got a nested sequence")
    if len(entries) != 3:
        raise ValueError(f"{where}: {param} must be a 3-vector, got {len(entries)} entries")
    return tuple(scalar(e, where, f"{param}[{k}]") for k, e in enumerate(entries))


def _is_sequence(value: Any) -> bool:
    return isinstance(value, (list, tuple, np.ndarray, sympy.MatrixBase))


def _entries(value: Any, where: str, param: str) -> list:
    if isinstance(value, sympy.MatrixBase):
        if 1 in value.shape:
            return list(value)
        return [list(value.row(r)) for r in range(value.rows)]
    if isinstance(value, np.ndarray):
        if value.ndim == 0:                    # a 0-d array is its one number
            return [value.item()]
        return value.tolist() if value.dtype != object else list(value)
    if isinstance(value, (list, tuple)):
        return list(value)
    raise TypeError(f"{where}: {param} must be a sequence (list, tuple, NumPy array or SymPy "
                    f"Matrix), got {type(value).__name__} {value!r}")


def inertia_tensor(Ixx=0, Iyy=0, Izz=0, Ixy=0, Ixz=0, Iyz=0) -> sympy.Matrix:
    """The symmetric inertia tensor from its moments and products of inertia (Fu, Gonzalez & Lee, Eq. (3.2-17)).

    The products are the tensor's off-diagonal entries (``I[0][1] = Ixy``), that is the negatives
    of the product integrals ``int x y dm`` of Fu, Gonzalez & Lee, Eq. (3.2-18).

    >>> inertia_tensor(1, 2, 3, Ixy=-0.5)
    Matrix([
    [   1, -0.5, 0],
    [-0.5,    2, 0],
    [   0,    0, 3]])
    """
    return sympy.Matrix([[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]])


def rod_inertia(mass, length, axis: str = "x") -> sympy.Matrix:
    """Inertia tensor about its centre of a uniform slender rod lying along ``axis``.

    >>> rod_inertia(3, 2, "x")
    Matrix([
    [0, 0, 0],
    [0, 1, 0],
    [0, 0, 1]])
    """
    scalar(mass, "rod_inertia", "mass", nonnegative=True)
    scalar(length, "rod_inertia", "length")
    moment = sympy.sympify(mass) * sympy.sympify(length) ** 2 / 12
    diagonal = {"x": (0, moment, moment), "y": (moment, 0, moment), "z": (moment, moment, 0)}
    choice(axis, diagonal, "rod_inertia", "axis")
    return sympy.diag(*diagonal[axis])


def _inertia(value: Any, where: str) -> tuple:
    """Normalise an inertia tensor to a 3x3 tuple of tuples and check it (numeric checks only)."""
    if value is None:
        return ((0.0,) * 3,) * 3
    entries = _entries(value, where, "inertia")
    if len(entries) == 3 and not any(_is_sequence(e) for e in entries):
        entries = [[entries[0], 0, 0], [0, entries[1], 0], [0, 0, entries[2]]]
    if len(entries) != 3 or not all(_is_sequence(row) and len(row) == 3 for row in entries):
        raise ValueError(f"{where}: inertia must be a 3x3 matrix (or the 3 principal moments "
                         f"Ixx, Iyy, Izz), got shape {np.shape(np.array(entries, dtype=object))}")
    rows = tuple(tuple(scalar(e, where, f"inertia[{r}][{c}]") for c, e in enumerate(row))
                 for r, row in enumerate(entries))
    return rows


def _check_inertia(rows: tuple, where: str, lumped: bool) -> None:
    """A rigid body's inertia about its centre of mass is symmetric and positive
    semi-definite, and its principal moments obey the triangle inequality (Lynch & Park,
    "Dynamics of Open Chains", the rotational inertia matrix of a single rigid body: from its
    integrals, ``Ixx + Iyy - Izz = 2 int z^2 dm >= 0`` and alike).  Numbers are checked to a
    tolerance relative to the largest entry; symbolic entries where SymPy can decide."""
    symbolic = any(_is_sympy(e) and e.free_symbols for row in rows for e in row)
    if not symbolic:
        matrix = np.array(rows, dtype=float)
        scale = float(np.abs(matrix).max())
        with np.errstate(over="ignore", invalid="ignore"):
            squares_overflow = not np.isfinite(matrix @ matrix).all()
        if squares_overflow:
            raise ValueError(f"{where}: inertia entries up to {scale:.3g} are too large to "
                             f"compute with (the check of definiteness overflows)")
    for r, c in ((0, 1), (0, 2), (1, 2)):
        upper, lower = rows[r][c], rows[c][r]
        if symbolic:
            same = sympy.simplify(sympy.sympify(upper) - lower) == 0
        else:   # relative: a small link's inertia has small entries
            same = abs(float(upper) - float(lower)) <= _INERTIA_RTOL * scale
        if not same:
            raise ValueError(f"{where}: inertia is not symmetric: inertia[{r}][{c}] = {upper} "
                             f"but inertia[{c}][{r}] = {lower}")
    if symbolic:
        _check_symbolic_inertia(rows, where, lumped)
        return
    scale = max(1e-300, scale)
    moments = np.linalg.eigvalsh(matrix)
    if moments[0] < -_INERTIA_RTOL * scale:
        raise ValueError(f"{where}: inertia is not positive semi-definite: its principal moments "
                         f"are {np.round(moments, 12).tolist()}")
    if not lumped:
        for k in range(3):
            others = moments.sum() - moments[k]
            if moments[k] > others + _INERTIA_RTOL * scale:
                raise ValueError(
                    f"{where}: inertia violates the triangle inequality: principal moment "
                    f"{moments[k]:.6g} exceeds the sum {others:.6g} of the other two, which no "
                    f"rigid body can have (pass lumped_inertia=True for a lumped rotor inertia)")


def _check_symbolic_inertia(rows: tuple, where: str, lumped: bool) -> None:
    """Refuse a symbolic inertia that can never be positive semi-definite, or a rigid body's
    that can never satisfy the triangle inequality, where SymPy decides it; accept the rest."""
    names = ("Ixx", "Iyy", "Izz")
    I = [[sympy.sympify(e) for e in row] for row in rows]  # noqa: E741
    for k in range(3):
        if I[k][k].is_negative:
            raise ValueError(f"{where}: inertia is not positive semi-definite: {names[k]} = "
                             f"{I[k][k]} is negative")
    for r, c in ((0, 1), (0, 2), (1, 2)):
        if I[r][c] == 0:
            continue
        minor = sympy.expand(I[r][r] * I[c][c] - I[r][c] ** 2)
        if minor.is_negative:   # a 2x2 principal minor of a PSD matrix is >= 0
            raise ValueError(f"{where}: inertia is not positive semi-definite: the principal "
                             f"minor {names[r]} {names[c]} - inertia[{r}][{c}]^2 = {minor} is "
                             f"negative")
    if lumped:
        return
    for k in range(3):
        excess = sympy.expand(I[k][k] - sum(I[j][j] for j in range(3) if j != k))
        if excess.is_positive:
            others = " + ".join(names[j] for j in range(3) if j != k)
            raise ValueError(
                f"{where}: inertia violates the triangle inequality: {names[k]} exceeds "
                f"{others} by {excess}, which no rigid body can have (pass "
                f"lumped_inertia=True for a lumped rotor inertia)")


@dataclass(frozen=True, eq=False, init=False, repr=False)
class Link:
    """One link and the joint that moves it: DH parameters, inertial data and friction.

    ``joint`` is ``"revolute"`` or ``"prismatic"`` (``"R"``/``"P"`` accepted).  The parameter that
    the joint moves (``theta`` for revolute, ``d`` for prismatic) is the joint variable; give its
    constant part as ``offset``.  ``com`` is the centre of mass in frame ``i``; ``inertia`` the 3x3
    inertia tensor about the centre of mass with axes parallel to frame ``i`` (3 numbers are read as
    the principal moments).  ``viscous``, ``coulomb``, ``static`` and ``epsilon`` are Schilling,
    Eq. (6-3-3)'s ``b_v``, ``b_d``, ``b_s`` and ``epsilon``.  ``lumped_inertia=True`` skips the
    triangle inequality for an inertia that stands for a lumped rotor rather than a rigid body
    (the PUMA 560's link 1 in the published set).

    >>> link = Link("P", theta=0, alpha=0, mass=1.5, name="slide")
    >>> link.joint, link.is_prismatic
    ('prismatic', True)
    >>> Link("revolute", theta=0.3, name="elbow")
    Traceback (most recent call last):
    ...
    ValueError: elbow: theta is the joint variable of a revolute joint; give its constant part as offset
    """

    joint: str
    theta: Any
    d: Any
    a: Any
    alpha: Any
    offset: Any
    mass: Any
    com: tuple
    inertia: tuple
    viscous: Any
    coulomb: Any
    static: Any
    epsilon: Any
    name: str
    lumped_inertia: bool

    def __init__(self, joint: str = REVOLUTE, *, theta=0, d=0, a=0, alpha=0, offset=0, mass=0,
                 com=(0, 0, 0), inertia=None, viscous=0, coulomb=0, static=0, epsilon=0.01,
                 name: str | None = None, lumped_inertia: bool = False):
        if name is not None and not isinstance(name, str):
            raise TypeError(f"link name must be a string, got {type(name).__name__} {name!r}")
        where = name or "link"
        if not isinstance(joint, str):
            raise TypeError(f"{where}: joint must be 'revolute' or 'prismatic', "
                            f"got {type(joint).__name__} {joint!r}")
        kind = _JOINT_ALIASES.get(joint.strip().lower())
        if kind is None:
            raise ValueError(f"{where}: unknown joint type {joint!r}; use 'revolute' or "
                             f"'prismatic' ('R' or 'P')")
        variable = "theta" if kind == REVOLUTE else "d"
        given = theta if kind == REVOLUTE else d
        if not (isinstance(given, numbers.Real) and not isinstance(given, bool) and given == 0):
            raise ValueError(f"{where}: {variable} is the joint variable of a {kind} joint; "
                             f"give its constant part as offset")
        values = {
            "joint": kind,
            "theta": scalar(theta, where, "theta"),
            "d": scalar(d, where, "d"),
            "a": scalar(a, where, "a"),
            "alpha": scalar(alpha, where, "alpha"),
            "offset": scalar(offset, where, "offset"),
            "mass": scalar(mass, where, "mass", nonnegative=True),
            "com": vector3(com, where, "com"),
            "inertia": _inertia(inertia, where),
            "viscous": scalar(viscous, where, "viscous", nonnegative=True),
            "coulomb": scalar(coulomb, where, "coulomb", nonnegative=True),
            "static": scalar(static, where, "static", nonnegative=True),
            "epsilon": scalar(epsilon, where, "epsilon", positive=True),
            "name": name or "",
            "lumped_inertia": flag(lumped_inertia, where, "lumped_inertia"),
        }
        _check_inertia(values["inertia"], where, values["lumped_inertia"])
        for key, value in values.items():
            object.__setattr__(self, key, value)

    # -- derived facts ------------------------------------------------------------------------
    @property
    def is_revolute(self) -> bool:
        return self.joint == REVOLUTE

    @property
    def is_prismatic(self) -> bool:
        return self.joint == PRISMATIC

    @property
    def has_friction(self) -> bool:
        """True unless every friction coefficient is (exactly) zero."""
        return any(not (isinstance(v, float) and v == 0.0)
                   for v in (self.viscous, self.coulomb, self.static))

    def parameters(self) -> dict:
        """The constructor arguments, so ``Link(**link.parameters())`` rebuilds the link."""
        return {"joint": self.joint, "theta": self.theta, "d": self.d, "a": self.a,
                "alpha": self.alpha, "offset": self.offset, "mass": self.mass, "com": self.com,
                "inertia": self.inertia, "viscous": self.viscous, "coulomb": self.coulomb,
                "static": self.static, "epsilon": self.epsilon, "name": self.name or None,
                "lumped_inertia": self.lumped_inertia}

    def replace(self, **changes) -> "Link":
        """A copy with some parameters changed (links are immutable).

        >>> Link("R", a=1.0, name="l1").replace(a=2.0).a
        2.0
        """
        values = self.parameters()
        unknown = set(changes) - set(values)
        if unknown:
            raise TypeError(f"{self.name or 'link'}: unknown parameter(s) {sorted(unknown)}")
        values.update(changes)
        return Link(**values)

    def free_symbols(self) -> set:
        found = set()
        for value in (self.theta, self.d, self.a, self.alpha, self.offset, self.mass,
                      self.viscous, self.coulomb, self.static, self.epsilon, *self.com,
                      *(e for row in self.inertia for e in row)):
            if _is_sympy(value):
                found |= value.free_symbols
        return found

    def __repr__(self) -> str:
        return (f"Link({self.joint!r}, theta={self.theta}, d={self.d}, a={self.a}, "
                f"alpha={self.alpha}, offset={self.offset}, mass={self.mass}, com={self.com}, "
                f"name={self.name!r})")


def _float(value) -> float:
    return float(value)


def exact(value):
    """Integral floats as SymPy integers (a typed ``2`` or ``0.0`` stays exact in derivations)."""
    if isinstance(value, float) and value.is_integer():
        return sympy.Integer(int(value))
    return value


@dataclass(frozen=True)
class LinkData:
    """A link's parameters ready for a recursion: all floats (numeric path, no SymPy inside) or
    all exact SymPy-compatible values (symbolic path), with ``sin``/``cos`` of ``alpha`` done."""

    revolute: bool
    theta: float
    d: float
    a: float
    sin_alpha: float
    cos_alpha: float
    offset: float
    mass: float
    com: tuple
    inertia: tuple
    viscous: float
    coulomb: float
    static: float
    epsilon: float
    has_friction: bool


class RobotIsImmutable(FrozenInstanceError):
    """Raised on assigning to (or deleting) an attribute of a :class:`Robot`, which never
    changes once built; its message names the ways to a changed arm.  An ``AttributeError``,
    as assigning to a :class:`Link` raises."""


class Robot:
    """A serial arm: a sequence of :class:`Link`, gravity, and the end effector's external wrench.

    A robot never changes once built, as its links do not: what dynlab computes from it (traced
    programs, short cuts, generated code) is kept in its :attr:`data`
    (:class:`dynlab.model.robot_data.RobotData`) and stays true.  A changed arm is a new robot:
    :meth:`replace`, :meth:`replace_link`, :meth:`subs`, or :func:`dynlab.model.edits.with_mass`
    and :func:`dynlab.model.edits.with_payload`.

    >>> arm = Robot([Link("R", a=1.0, mass=1.0, name="link 1")], name="rod")
    >>> arm.gravity = (0, 0, 0)
    Traceback (most recent call last):
    ...
    dynlab.model.robot.RobotIsImmutable: rod: cannot assign to gravity: a Robot does not change once built; make a changed arm with robot.replace(gravity=...), robot.replace_link(index, ...) for a link's parameters, or dynlab.model.edits.with_mass / with_payload
    >>> arm.replace(gravity=(0, 0, 0)).gravity
    (0.0, 0.0, 0.0)

    >>> import sympy
    >>> m, l, g = sympy.symbols("m l g", positive=True)
    >>> rod = Robot([Link("R", a=l, mass=m, com=(-l / 2, 0, 0), name="link 1")],
    ...             gravity=(0, -g, 0))
    >>> rod.is_symbolic, sorted(map(str, rod.free_symbols))
    (True, ['g', 'l', 'm'])
    >>> rod.subs({m: 2, l: 1, g: 9.8062}).is_symbolic
    False
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
            if _is_sympy(value):
                found |= value.free_symbols
        return found

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
    def replace(self, **changes) -> "Robot":
        """A new robot with some of ``links``, ``gravity``, ``tip_force``, ``tip_moment``,
        ``name`` and ``source`` changed (as :func:`dataclasses.replace` does), checked as the
        constructor checks them; this robot stays as it is.

        >>> arm = Robot([Link("R", a=1.0, mass=1.0, name="link 1")], name="rod")
        >>> arm.replace(gravity=(0, -9.8, 0), name="hanging rod").gravity
        (0.0, -9.8, 0.0)
        >>> arm.gravity
        (0.0, 0.0, -9.8062)
        >>> arm.replace(mass=2.0)
        Traceback (most recent call last):
        ...
        TypeError: rod: replace() takes links, gravity, tip_force, tip_moment, name, source; got mass (a link's parameters change with replace_link)
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

    def replace_link(self, index: int, **changes) -> "Robot":
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

    def subs(self, mapping: Mapping) -> "Robot":
        """Substitute values for parameter symbols, returning a new robot.  ``mapping``: a
        dict ``{symbol: value}`` (or ``(symbol, value)`` pairs).

        >>> Robot([Link("R", a=1.0)]).subs([1, 2])
        Traceback (most recent call last):
        ...
        TypeError: robot: subs needs a mapping {symbol: value} (or (symbol, value) pairs), got list [1, 2]
        """
        if not isinstance(mapping, Mapping):
            try:
                mapping = dict(mapping)
            except (TypeError, ValueError):
                raise TypeError(f"{self.name}: subs needs a mapping {{symbol: value}} (or "
                                f"(symbol, value) pairs), got {type(mapping).__name__} "
                                f"{mapping!r}") from None

        def sub(value):
            return value.subs(mapping) if _is_sympy(value) else value

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
        """``(links, gravity, tip_force, tip_moment)`` as floats, cached; raises if symbolic.

        ``links`` is a tuple of :class:`LinkData`.  Nothing in it is a SymPy object, so the
        numeric recursions that read it stay plain float arithmetic.
        """
        data = self.data
        if data.numeric is None:
            symbols = self.free_symbols
            if symbols:
                raise TypeError(
                    f"{self.name}: this operation needs numeric parameters, but the robot has "
                    f"symbolic ones ({', '.join(sorted(map(str, symbols)))}); substitute values "
                    f"with robot.subs({{symbol: value, ...}}) first")
            data.numeric = self._link_data(_float, _exact_sin, _exact_cos)
        return data.numeric

    def symbolic(self) -> tuple:
        """``(links, gravity, tip_force, tip_moment)`` for derivations: exact SymPy values.

        Integral floats become SymPy integers and other floats stay floats; ``alpha``'s sine and
        cosine are exact for multiples of pi/2 (a typed ``np.pi/2`` gives ``cos = 0``, not 6e-17).
        """
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
            diagonal = all(is_zero(inertia[r][c]) for r in range(3) for c in range(3) if r != c)
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

    def table_latex(self, number=None) -> str:
        """The arm's table as a LaTeX ``array``: link ``i``, joint type, ``theta``, ``d``,
        ``a``, ``alpha``, mass, centre of mass and inertia tensor about it (both in frame
        ``i``), the joint variable in the row of its joint.  ``number`` writes each parameter
        (default: whole numbers and multiples of pi/12 exact, anything else as it is)."""
        number = _exact if number is None else number
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


def is_zero(value) -> bool:
    return value == 0


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
    if is_zero(offset):
        return q
    text = _fmt(offset)
    return f"{q} - {text[1:]}" if text.startswith("-") else f"{q} + {text}"


def _snap_quarter_turn(alpha: float):
    """Multiples of pi/2 (to 1e-12) as an integer count of quarter turns, else None."""
    turns = alpha / (math.pi / 2)
    nearest = round(turns)
    return nearest % 4 if abs(turns - nearest) < 1e-12 else None


def _exact_sin(alpha) -> float:
    """sin(alpha) as a float, exactly 0 or +-1 for multiples of pi/2 (no 6e-17 residue)."""
    value = float(alpha)
    quarter = _snap_quarter_turn(value)
    return (0.0, 1.0, 0.0, -1.0)[quarter] if quarter is not None else math.sin(value)


def _exact_cos(alpha) -> float:
    value = float(alpha)
    quarter = _snap_quarter_turn(value)
    return (1.0, 0.0, -1.0, 0.0)[quarter] if quarter is not None else math.cos(value)


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
    """Validate a joint-space vector (``q``, ``qd``, ``qdd`` or ``tau``) of ``robot``.

    Returns a tuple of floats when every entry is a number, else of floats and SymPy expressions.

    >>> arm = Robot([Link("R", a=1.0, name="l1"), Link("R", a=1.0, name="l2")], name="2R")
    >>> joint_vector(arm, [0.1, 2], "q")
    (0.1, 2.0)
    >>> joint_vector(arm, [0.1], "qd")
    Traceback (most recent call last):
    ...
    ValueError: 2R: qd must have 2 entries (one per joint), got 1
    """
    if isinstance(values, numbers.Number) or (_is_sympy(values)
                                              and not isinstance(values, sympy.MatrixBase)):
        values = [values]
    entries = _entries(values, robot.name, name)
    if any(_is_sequence(e) for e in entries):
        raise ValueError(f"{robot.name}: {name} must be a flat vector of {robot.n} entries, "
                         f"got a nested sequence")
    if len(entries) != robot.n:
        raise ValueError(f"{robot.name}: {name} must have {robot.n} entries (one per joint), "
                         f"got {len(entries)}")
    return tuple(scalar(e, robot.name, f"{name}[{k}]") for k, e in enumerate(entries))


def joint_vector_is_numeric(values: Sequence) -> bool:
    return all(isinstance(v, float) or (_is_sympy(v) and not v.free_symbols) for v in values)
