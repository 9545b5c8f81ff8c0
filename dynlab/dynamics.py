"""The public entry points: ``inverse_dynamics`` (and, as formulations are added, more methods).

>>> from dynlab.model import Link, Robot
>>> pendulum = Robot([Link("R", a=1.0, mass=3.0, com=(-0.5, 0, 0), inertia=(0, 0.25, 0.25),
...                        name="link 1")], gravity=(0, -9.8062, 0))
>>> inverse_dynamics(pendulum, [0.0], [0.0], [1.0])   # m a^2/3 qdd + m g a/2 cos(q)
array([15.7093])
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import sympy

from dynlab import newton_euler
from dynlab.kinematics import resolve
from dynlab.model import Robot
from dynlab.symbolic import compact
from dynlab.tracing import compile_joint_function

METHODS = ("newton_euler",)
_DEFAULT_VARIANT = {"newton_euler": "link"}
_VARIANTS = {"newton_euler": newton_euler.VARIANTS}


def _check_method(method: str, variant: str | None) -> str:
    if method not in _VARIANTS:
        raise ValueError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    variant = _DEFAULT_VARIANT[method] if variant is None else variant
    if variant not in _VARIANTS[method]:
        raise ValueError(f"unknown variant {variant!r} of {method}; choose one of "
                         f"{', '.join(_VARIANTS[method])}")
    return variant


def inverse_dynamics(robot: Robot, q: Sequence, qd: Sequence, qdd: Sequence, *,
                     method: str = "newton_euler", variant: str | None = None,
                     gravity: bool = True, friction: bool = True, tip_wrench: bool = True,
                     trace: bool = False, simplify: bool | None = None):
    """Joint torques/forces ``tau`` that produce ``qdd`` at state ``(q, qd)``.

    With numbers (and a numeric robot) returns a NumPy array and builds no SymPy object; with
    SymPy symbols, or a robot with symbolic parameters, returns a SymPy column ``Matrix``.

    ``method="newton_euler"`` has the variants ``"link"`` (Luh's link-frame recursion, 000
    Table 3.3; the default and the fastest) and ``"base"`` (base-frame recursion, 000 Table 3.2,
    002 Algorithm 6-8-1).  ``gravity``, ``friction`` and ``tip_wrench`` switch those
    contributions off when ``False`` (used to pull ``D``, ``h`` and ``c`` apart by probing, 000
    Probs. 3.11-3.12).  ``trace=True`` returns ``(tau, Trace)`` with every link's intermediate
    quantities.  ``simplify`` brings a symbolic result to the books' compact form
    (:func:`dynlab.symbolic.compact`); by default it does so for arms of up to 3 joints, where it is
    quick, and leaves larger derivations as they come.

    >>> import sympy
    >>> from dynlab.model import Link, Robot, joint_symbols
    >>> m, a, g = sympy.symbols("m a g", positive=True)
    >>> (q1,), (qd1,), (qdd1,) = joint_symbols(1)
    >>> rod = Robot([Link("R", a=a, mass=m, com=(-a / 2, 0, 0),
    ...                   inertia=sympy.diag(0, m * a**2 / 12, m * a**2 / 12), name="link 1")],
    ...             gravity=(0, -g, 0))
    >>> sympy.expand(inverse_dynamics(rod, [q1], [qd1], [qdd1])[0])  # 002 Sec. 6-9
    a**2*m*qdd1/3 + a*g*m*cos(q1)/2
    """
    variant = _check_method(method, variant)
    symbolic, backend, (links, grav, tip_f, tip_m), vec = resolve(robot, q=q, qd=qd, qdd=qdd)
    recursion = _VARIANTS[method][variant]
    options = dict(use_gravity=bool(gravity), use_friction=bool(friction),
                   use_tip=bool(tip_wrench))
    if not symbolic and not trace:
        # the slider path: the recursion traced once into straight-line float code
        function, _ = compile_joint_function(
            robot, ("inverse_dynamics", method, variant, *options.values()),
            _torques_only(recursion), **options)
        return np.array(function(vec["q"], vec["qd"], vec["qdd"]))
    tau, records = recursion(links, vec["q"], vec["qd"], vec["qdd"], grav, tip_f, tip_m,
                             backend, trace=trace, **options)
    if symbolic:
        result = sympy.Matrix(tau)
        if simplify or (simplify is None and robot.n <= 3):
            result = compact(result)
    else:
        result = np.array(tau, dtype=float)
    if trace:
        return result, Trace(records, frame=variant, symbolic=symbolic)
    return result


def _torques_only(recursion):
    def torques(*args, **options):
        return recursion(*args, **options)[0]
    return torques


class Trace:
    """Every link's intermediate quantities of a Newton-Euler run, for per-link tables.

    ``trace[i]`` (1-based link number) is a dict with ``omega``, ``omega_dot``, ``v_dot``,
    ``a_bar`` (forward pass) and ``F``, ``N``, ``f``, ``n``, ``tau`` (backward pass).  Vectors are
    in link ``i``'s own frame for the link-frame recursion, in base coordinates for the
    base-frame one (``frame`` says which).
    """

    FORWARD = ("omega", "omega_dot", "v_dot", "a_bar")
    BACKWARD = ("F", "N", "f", "n", "tau")

    def __init__(self, records, frame: str, symbolic: bool):
        convert = ((lambda v: sympy.Matrix(v)) if symbolic
                   else (lambda v: np.array(v, dtype=float)))
        self.frame = frame
        self.symbolic = symbolic
        self.links = [{key: (value if key == "tau" else convert(value))
                       for key, value in record.items()} for record in records]

    def __len__(self) -> int:
        return len(self.links)

    def __getitem__(self, i: int) -> dict:
        if not isinstance(i, int) or not 1 <= i <= len(self.links):
            raise IndexError(f"link number must be 1..{len(self.links)}, got {i!r}")
        return self.links[i - 1]

    def rows(self, quantities: Sequence[str]) -> list:
        """One row per link: the link number, then each quantity as text."""
        def text(value):
            if self.symbolic:
                return str(list(value) if hasattr(value, "shape") else value)
            if np.ndim(value) == 0:
                return f"{float(value):.6g}"
            return "(" + ", ".join(f"{x:.6g}" for x in value) + ")"
        return [[str(i)] + [text(record[key]) for key in quantities]
                for i, record in enumerate(self.links, start=1)]

    def _repr_html_(self) -> str:
        import html
        parts = []
        for title, keys in (("forward pass", self.FORWARD), ("backward pass", self.BACKWARD)):
            head = "".join(f"<th>{html.escape(k)}</th>" for k in ("link",) + keys)
            body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                           for row in self.rows(keys))
            parts.append(f"<p><b>{title}</b> ({self.frame} frame)</p><table><thead><tr>{head}"
                         f"</tr></thead><tbody>{body}</tbody></table>")
        return "".join(parts)

    def __repr__(self) -> str:
        lines = [f"Newton-Euler trace ({self.frame} frame, {len(self)} links)"]
        for title, keys in (("forward", self.FORWARD), ("backward", self.BACKWARD)):
            lines.append(f"{title}: " + ", ".join(keys))
            for row in self.rows(keys):
                lines.append("  " + " | ".join(row))
        return "\n".join(lines)
