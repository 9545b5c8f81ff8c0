"""Operation counts of dynlab's formulations, measured by running them on :class:`Counted`
scalars: every operation as executed (the algorithm as written, Fu, Gonzalez & Lee, Tables
3.1, 3.4, 3.5), less those on exact 0 or +-1 and between constants (the tape's folding
rules).  The generated code's count is :func:`dynlab.dynamics.codegen.generate`'s; the printed
counts are in :mod:`dynlab.teaching.textbook.printed_counts`.

>>> count_operations(generic_chain(3), "newton_euler")      # 123 n - 62 and 97 n - 54
{'mul': 307, 'add': 237, 'div': 0, 'call': 6}
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numpy as np

from dynlab.engine.tracing import Tape, backend_for
from dynlab.formulations import registry as formulations
from dynlab.formulations.featherstone import articulated_body, composite_rigid_body
from dynlab.formulations.twist_wrench import spatial_newton_euler
from dynlab.model import vectors as V
from dynlab.model.ldl import ldl_solve
from dynlab.model.link import Link
from dynlab.model.robot import Robot

KINDS = ("mul", "add", "div", "call")


class OpCounter:
    """A tally of executed operations (``mul``, ``add``, ``div``, ``call``)."""

    __slots__ = ("tally",)

    def __init__(self):
        self.tally = dict.fromkeys(KINDS, 0)

    def counts(self) -> dict:
        return dict(self.tally)


def _is_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


class Counted:
    """A run-time scalar that has no value, only a :class:`OpCounter` it reports to."""

    __slots__ = ("counter",)

    def __init__(self, counter: OpCounter):
        self.counter = counter

    def _new(self, kind: str) -> Counted:
        self.counter.tally[kind] += 1
        return Counted(self.counter)

    def _binary(self, op: str, a, b):
        # the folding rules of dynlab.engine.tracing.Tape.binary, without the sharing
        a_num, b_num = _is_number(a), _is_number(b)
        if op == "+":
            if (a_num and a == 0):
                return b
            if b_num and b == 0:
                return a
            return self._new("add")
        if op == "-":
            if b_num and b == 0:
                return a
            return self._new("add")          # 0 - b is a negation: one addition
        if op == "*":
            if (a_num and a == 0) or (b_num and b == 0):
                return 0.0
            if (a_num and a == 1):
                return b
            if b_num and b == 1:
                return a
            if (a_num and a == -1) or (b_num and b == -1):
                return self._new("add")      # a negation
            return self._new("mul")
        if b_num and b == 1:
            return a
        if a_num and a == 0:
            return 0.0
        return self._new("div")

    def __add__(self, other):
        return self._binary("+", self, other)

    def __radd__(self, other):
        return self._binary("+", other, self)

    def __sub__(self, other):
        return self._binary("-", self, other)

    def __rsub__(self, other):
        return self._binary("-", other, self)

    def __mul__(self, other):
        return self._binary("*", self, other)

    def __rmul__(self, other):
        return self._binary("*", other, self)

    def __truediv__(self, other):
        return self._binary("/", self, other)

    def __rtruediv__(self, other):
        return self._binary("/", other, self)

    def __neg__(self):
        return self._new("add")

    def __pos__(self):
        return self


def counting_backend(counter: OpCounter) -> V.Backend:
    """A :class:`~dynlab.model.vectors.Backend` whose functions count one call on a run-time value
    (and compute on constants, as the tape does)."""
    def function(name, numeric):
        def call(x):
            if isinstance(x, Counted):
                counter.tally["call"] += 1
                return Counted(counter)
            return numeric(x)
        return call
    return V.Backend("counting", function("sin", math.sin), function("cos", math.cos),
                     function("sign", V.NUMERIC.sign), function("exp", math.exp),
                     function("abs", abs))


def count_operations(robot: Robot, method: str = "newton_euler", variant: str | None = None,
                     *, gravity: bool = True, friction: bool = True,
                     tip_wrench: bool = True) -> dict:
    """Operations of one ``tau(q, qd, qdd)`` of ``robot`` by ``method``/``variant`` as written; for
    the closed forms the whole ``tau = D qdd + h + c`` (Fu, Gonzalez & Lee, Eq. (3.2-26)).

    >>> from dynlab.model.robots import puma560
    >>> count_operations(puma560(), "newton_euler", "link")
    {'mul': 288, 'add': 244, 'div': 0, 'call': 12}
    """
    _, variant = formulations.require(method, variant, "numeric", "count_operations")
    recursion = formulations.torque_recursion(method, variant)
    links, grav, tip_f, tip_m = robot.numeric()
    counter = OpCounter()
    q, qd, qdd = ([Counted(counter) for _ in range(robot.n)] for _ in range(3))
    # a zero tool wrench is no load (Fu, Gonzalez & Lee, Algorithm 3.1, step N4: f_{n+1} =
    # n_{n+1} = 0): the rotation that brings a wrench into frame n is not part of the algorithm
    use_tip = bool(tip_wrench) and any(v != 0 for v in (*tip_f, *tip_m))
    recursion(links, q, qd, qdd, grav, tip_f, tip_m, counting_backend(counter),
              use_gravity=bool(gravity), use_friction=bool(friction), use_tip=use_tip)
    return counter.counts()


# -- generic chains --------------------------------------------------------------------------------
def generic_chain(n: int, seed: int = 0, joints: str | None = None) -> Robot:
    """An ``n``-joint chain (``joints``: ``"R"``/``"P"``) whose parameters are all non-zero and
    generic (seeded by ``seed``): nothing folds away, so counts on it are the general case.

    >>> arm = generic_chain(4)
    >>> arm.n, arm.joint_types[0], arm.name
    (4, 'revolute', 'generic 4-joint chain')
    """
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"generic_chain: n must be a positive integer, got {n!r}")
    joints = "R" * n if joints is None else joints
    if len(joints) != n or set(joints) - {"R", "P"}:
        raise ValueError(f"generic_chain: joints must be {n} letters R or P, got {joints!r}")
    rng = np.random.default_rng(seed)
    links = []
    for k, joint in enumerate(joints, start=1):
        a, d, offset = rng.uniform(0.1, 0.5, 3)
        alpha = rng.uniform(0.2, 1.3) * rng.choice((-1, 1))
        mass = rng.uniform(1.0, 5.0)
        com = tuple(rng.uniform(-0.2, 0.2, 3))
        moments = rng.uniform(0.01, 0.05, 3) * mass          # second moments (S_xx, ...)
        principal = np.diag([moments[1] + moments[2], moments[0] + moments[2],
                             moments[0] + moments[1]])
        angles = rng.uniform(-math.pi, math.pi, 3)
        ca, sa = np.cos(angles), np.sin(angles)
        rz = np.array([[ca[0], -sa[0], 0], [sa[0], ca[0], 0], [0, 0, 1]])
        ry = np.array([[ca[1], 0, sa[1]], [0, 1, 0], [-sa[1], 0, ca[1]]])
        rx = np.array([[1, 0, 0], [0, ca[2], -sa[2]], [0, sa[2], ca[2]]])
        rotation = rz @ ry @ rx
        inertia = rotation @ principal @ rotation.T
        inertia = ((inertia + inertia.T) / 2).tolist()
        extra = {"d": float(d)} if joint == "R" else {"theta": float(rng.uniform(0.2, 1.3))}
        links.append(Link(joint, a=float(a), alpha=float(alpha), offset=float(offset),
                          mass=float(mass), com=tuple(map(float, com)), inertia=inertia,
                          name=f"link {k}", **extra))
    gravity = tuple(float(g) for g in rng.uniform(-6.0, 6.0, 3))
    return Robot(links, gravity=gravity, name=f"generic {n}-joint chain",
                 source="dynlab.engine.opcount.generic_chain (random, for operation counts)")


def fit_exponent(ns, values) -> float:
    """Slope ``p`` of the least-squares line through ``(log n, log value)``: ``value ~ n^p``.

    >>> round(fit_exponent([2, 4, 8], [12, 48, 192]), 6)
    2.0
    """
    ns, values = np.asarray(ns, dtype=float), np.asarray(values, dtype=float)
    if ns.shape != values.shape or ns.size < 2:
        raise ValueError("fit_exponent needs two or more (n, value) pairs of equal length")
    if (ns <= 0).any() or (values <= 0).any():
        raise ValueError("fit_exponent needs positive n and values (a log-log fit)")
    slope, _ = np.polyfit(np.log(ns), np.log(values), 1)
    return float(slope)


def polynomial_law(ns, values, confirm: int = 2):
    """``(coefficients, n0)``: the exact polynomial (Fractions, low order first) the counts over
    consecutive ``ns`` follow from ``n0`` on, by finite differences confirmed on ``confirm`` more
    points; ``None`` when there is none.

    >>> polynomial_law(range(1, 8), [3 * n**2 + 1 for n in range(1, 8)])
    ([Fraction(1, 1), Fraction(0, 1), Fraction(3, 1)], 1)
    """
    ns, values = list(ns), [Fraction(v) for v in values]
    if any(b - a != 1 for a, b in zip(ns, ns[1:])):
        raise ValueError("polynomial_law needs consecutive n")
    for start in range(len(ns)):
        row = values[start:]
        for degree in range(len(row)):
            if len(row) >= 1 + confirm and all(v == row[0] for v in row):
                points = list(zip(ns[start:start + degree + 1], values[start:start + degree + 1]))
                return _interpolate(points), ns[start]
            row = [b - a for a, b in zip(row, row[1:])]
            if len(row) < 1 + confirm:
                break
    return None


def _interpolate(points) -> list:
    """Coefficients (low order first) of the polynomial through ``points``, exactly."""
    size = len(points)
    matrix = [[Fraction(n) ** k for k in range(size)] + [Fraction(v)] for n, v in points]
    for column in range(size):
        pivot = next(r for r in range(column, size) if matrix[r][column] != 0)
        matrix[column], matrix[pivot] = matrix[pivot], matrix[column]
        for r in range(size):
            if r != column and matrix[r][column] != 0:
                ratio = matrix[r][column] / matrix[column][column]
                matrix[r] = [a - ratio * b for a, b in zip(matrix[r], matrix[column])]
    return [matrix[k][size] / matrix[k][k] for k in range(size)]


def polynomial_terms(coefficients) -> list:
    """The non-zero terms of ``[c0, c1, ...]``, highest power first, as ``(sign, |c_k|, k)``
    with the magnitude a ``Fraction``: what :func:`polynomial_text` and
    :func:`dynlab.teaching.cost_tables.polynomial_latex` write.

    >>> polynomial_terms([Fraction(-62), 0, Fraction(1, 2)])
    [('+', Fraction(1, 2), 2), ('-', Fraction(62, 1), 0)]
    """
    terms = []
    for k in range(len(coefficients) - 1, -1, -1):
        c = Fraction(coefficients[k])
        if c != 0:
            terms.append(("-" if c < 0 else "+", abs(c), k))
    return terms


def polynomial_text(coefficients) -> str:
    """``[c0, c1, ...]`` as ``c_d n^d + ... + c0``.

    >>> polynomial_text([Fraction(-62), Fraction(123)])
    '123n - 62'
    """
    parts = []
    for sign, magnitude, k in polynomial_terms(coefficients):
        number = "" if magnitude == 1 and k else str(magnitude)
        power = "" if k == 0 else ("n" if k == 1 else f"n^{k}")
        space = " " if power and magnitude.denominator != 1 else ""
        parts.append((sign, f"{number}{space}{power}"))
    if not parts:
        return "0"
    text = ("-" if parts[0][0] == "-" else "") + parts[0][1]
    for sign, body in parts[1:]:
        text += f" {sign} {body}"
    return text


# -- Featherstone's spatial algorithms, counted ---------------------------------------------------
def _run_counted(robot, run, traced: bool) -> dict:
    """Operations of ``run(links, grav, tip_f, tip_m, q, qd, third, backend)`` on ``robot``'s
    numbers: as written (:class:`Counted`) or, ``traced``, of the tape's straight-line program."""
    links, grav, tip_f, tip_m = robot.numeric()
    if traced:
        tape = Tape()
        inputs = [tape.inputs(stem, robot.n) for stem in ("q", "qd", "u")]
        tape.outputs(run(links, grav, tip_f, tip_m, *inputs, backend_for(tape)))
        return tape.counts()
    counter = OpCounter()
    inputs = [[Counted(counter) for _ in range(robot.n)] for _ in range(3)]
    run(links, grav, tip_f, tip_m, *inputs, counting_backend(counter))
    return counter.counts()


def count_articulated_body(robot, *, traced: bool = False) -> dict:
    """Operations of one ``qdd(q, qd, tau)`` by the articulated body algorithm (gravity, no
    tool wrench, no friction); ``traced``: the compiled program's.

    >>> from dynlab.model.robots import puma560
    >>> count_articulated_body(puma560()), count_articulated_body(puma560(), traced=True)
    ({'mul': 905, 'add': 742, 'div': 10, 'call': 12}, {'mul': 692, 'add': 584, 'div': 10, 'call':
    10})
    """
    return _run_counted(robot, lambda links, g, f, m, q, qd, tau, backend: articulated_body(
        links, q, qd, tau, g, f, m, backend, use_tip=False)[0], traced)


def count_composite_rigid_body(robot, *, traced: bool = False) -> dict:
    """Operations of ``D(q)`` by :func:`dynlab.formulations.featherstone.composite_rigid_body`.

    >>> count_composite_rigid_body(generic_chain(1), traced=True)   # D_11 is a constant
    {'mul': 0, 'add': 0, 'div': 0, 'call': 0}
    >>> count_composite_rigid_body(generic_chain(2))
    {'mul': 145, 'add': 134, 'div': 0, 'call': 4}
    """
    def run(links, g, f, m, q, qd, unused, backend):
        D = composite_rigid_body(links, q, backend)
        return [D[i][j] for i in range(len(links)) for j in range(i, len(links))]
    return _run_counted(robot, run, traced)


def count_spatial_newton_euler(robot, *, traced: bool = False) -> dict:
    """Operations of one inverse dynamics ``tau(q, qd, qdd)`` by Featherstone's spatial recursive
    Newton-Euler algorithm (:func:`dynlab.formulations.twist_wrench.spatial_newton_euler`; gravity
    on, no tool wrench, no friction): :func:`count_operations` of
    ``("twist_wrench", "featherstone")`` when not ``traced``."""
    return _run_counted(robot, lambda links, g, f, m, q, qd, qdd, backend: spatial_newton_euler(
        links, q, qd, qdd, g, f, m, backend, use_friction=False, use_tip=False)[0], traced)


def count_inertia_forward_dynamics(robot, *, traced: bool = False) -> dict:
    """Operations of one forward dynamics that forms ``D`` (composite rigid body algorithm), the
    bias by the spatial RNEA and solves ``D qdd = tau - bias`` by ``L D L^T``.

    >>> forward_dynamics_operations(6)     # its total against the articulated body algorithm's
    {'ABA': 3330, 'CRBA + RNEA + LDL^T': 3806}
    """

    def run(links, g, f, m, q, qd, tau, backend):
        n = len(links)
        D = composite_rigid_body(links, q, backend)
        bias, _ = spatial_newton_euler(links, q, qd, [0] * n, g, f, m, backend,
                                       use_friction=False, use_tip=False)
        qdd, _ = ldl_solve(D, [tau[i] - bias[i] for i in range(n)])
        return qdd
    return _run_counted(robot, run, traced)


def forward_dynamics_operations(n: int) -> dict:
    """Multiplications, additions and divisions of one forward dynamics of :func:`generic_chain`
    ``(n)`` by the articulated body algorithm and by :func:`count_inertia_forward_dynamics`."""
    chain = generic_chain(n)
    return {label: counts["mul"] + counts["add"] + counts["div"] for label, counts in
            (("ABA", count_articulated_body(chain)),
             ("CRBA + RNEA + LDL^T", count_inertia_forward_dynamics(chain)))}


#: the spatial algorithms whose cost :func:`operation_laws` states, with a counter for each
COUNTERS = {"spatial RNEA, tau(q, qd, qdd)": count_spatial_newton_euler,
            "CRBA, D(q)": count_composite_rigid_body,
            "ABA, qdd(q, qd, tau)": count_articulated_body,
            "CRBA + RNEA + LDL^T, qdd(q, qd, tau)": count_inertia_forward_dynamics}


def operation_laws(ns=range(1, 10), *, traced: bool = False) -> dict:
    """The exact laws in ``n`` of :data:`COUNTERS` on generic chains of ``n`` in ``ns``:
    ``{label: {"mul": (coefficients, n0), "add": ..., "n = 6": counts}}`` (:func:`polynomial_law`).

    >>> laws = operation_laws()
    >>> polynomial_text(laws["ABA, qdd(q, qd, tau)"]["mul"][0])
    '379n - 475'
    >>> [len(laws[k]["mul"][0]) - 1 for k in laws]           # the degrees
    [1, 2, 1, 3]
    """
    ns = list(ns)
    laws = {}
    for label, count in COUNTERS.items():
        values = {n: count(generic_chain(n), traced=traced) for n in ns}
        laws[label] = {kind: polynomial_law(ns, [values[n][kind] for n in ns])
                       for kind in ("mul", "add")}
        if 6 in values:
            laws[label]["n = 6"] = values[6]
    return laws


def operation_law_rows(ns=range(1, 10), *, traced: bool = False) -> list:
    """:func:`operation_laws` as rows of text ``[algorithm, multiplications, additions]``, a
    law such as ``"379n - 475 (n >= 2)"`` in each cell, for a table in a chapter.

    >>> operation_law_rows()[0][0]
    'spatial RNEA, tau(q, qd, qdd)'
    """
    rows = []
    for label, law in operation_laws(ns, traced=traced).items():
        cells = ["no law" if law[kind] is None else
                 f"{polynomial_text(law[kind][0])} (n >= {law[kind][1]})"
                 for kind in ("mul", "add")]
        rows.append([label, *cells])
    return rows
