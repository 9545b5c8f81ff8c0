"""Forward dynamics: ``qdd`` from ``D(q) qdd = tau - bias``, ``bias = h + c + b + J^T w`` (Fu,
Gonzalez & Lee, Eq. (3.2-26), Sec. 3.1; Schilling, Sec. 6-7; Lynch & Park, Sec. 8.5 (draft
Eq. (9.89))), never forming ``D^-1``.  ``"newton_euler"``: Lynch & Park's *GetJointAccel* (``D``
probed, Walker & Orin's method 1; compiled, by composite bodies, method 3; from
:data:`ARTICULATED_FROM` joints Featherstone's articulated body algorithm); the closed forms
use their own ``D``, ``h``, ``c``.  On numbers traced once into straight-line code with an
``L D L^T`` solve (the short cut of :mod:`dynlab.engine.short_cut`); on symbols ``LUsolve`` or
Cramer's rule in compact form.

>>> import sympy
>>> from dynlab import joint_symbols
>>> from dynlab.model.robots import pendulum
>>> (q1,), (qd1,), _ = joint_symbols(1)
>>> forward_dynamics(pendulum(symbolic=True), [q1], [qd1], [sympy.Symbol("tau1")])[0]
3*(-a1*g*m1*cos(q1) + 2*tau1)/(2*a1**2*m1)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import sympy

from dynlab.dynamics.inverse import DEFAULT_METHOD
from dynlab.engine import short_cut
from dynlab.engine.tracing import compile_joint_function
from dynlab.formulations import featherstone
from dynlab.formulations import registry as formulations
from dynlab.model import vectors as V
from dynlab.model.checks import check_finite, flag, not_finite, plain_float_vectors
from dynlab.model.friction import link_friction
from dynlab.model.kinematics import resolve
from dynlab.model.ldl import ZeroPivot, ldl_solve, singular_pivot
from dynlab.model.robot import Robot
from dynlab.model.robot_data import ShortCut
from dynlab.model.symbolic import compact

#: From this many joints on, compiled forward dynamics by a variant whose ``D`` the registry lets
#: it find by a cheaper algorithm (``Formulation.forward_inertia``: Newton-Euler in link frames,
#: the default) runs Featherstone's articulated body algorithm instead (Featherstone (2008),
#: Table 7.1; :func:`dynlab.formulations.featherstone.articulated_body`): the same ``qdd`` in
#: ``O(n)`` operations, where composite bodies and ``L D L^T`` take ``O(n^2)`` and ``O(n^3)``.
#: Traced on chains in general position it takes fewer operations from about 10 joints on (5,307
#: against 5,489 at 10 joints, 11,564 against 17,919 at 20); on the PUMA 560 it takes more (1,296
#: against 990).
ARTICULATED_FROM = 12

def _accelerations_recursion(get_terms):
    """Traced form of the whole forward dynamics: ``(q, qd, net) -> qdd + pivots + diagonal
    of D``, where ``net = tau - friction`` arrives in the ``qdd`` slot of the traced signature."""
    def accelerations(links, q, qd, net, gravity, tip_force, tip_moment, backend=V.NUMERIC):
        D, bias = get_terms(links, q, qd, None, gravity, tip_force, tip_moment, backend)
        # Sec. 8.5 (draft Eq. (9.89))
        x, d = ldl_solve(D, [net[i] - bias[i] for i in range(len(links))])
        return list(x) + list(d) + [D[i][i] for i in range(len(links))]
    return accelerations


def _terms_outputs(get_terms):
    def outputs(links, q, qd, qdd, gravity, tip_force, tip_moment, backend=V.NUMERIC):
        D, bias = get_terms(links, q, qd, qdd, gravity, tip_force, tip_moment, backend)
        n = len(links)
        return [D[i][j] for i in range(n) for j in range(i, n)] + list(bias)
    return outputs


def compiled_accelerations(robot: Robot, method: str = DEFAULT_METHOD, variant: str | None = None,
                           gravity: bool = True, tip_wrench: bool = True, *,
                           with_tape: bool = False):
    """The compiled ``f(q, qd, net) -> (qdd_1..n, d_1..n, D_11..nn)`` of a numeric robot for
    ``net = tau - friction``: accelerations, the solve's pivots and ``D``'s diagonal (for
    :func:`dynlab.model.ldl.singular_pivot`), traced once per robot and method; ``with_tape``
    also returns the tape."""
    formulation, variant = formulations.require(method, variant, "numeric", "forward dynamics")
    key = ("forward_dynamics", method, variant, bool(gravity), bool(tip_wrench))
    own = formulation.accelerations.get(variant)       # e.g. Featherstone's O(n) ABA
    if own is None and variant in formulation.forward_inertia and robot.n >= ARTICULATED_FROM:
        own = featherstone.accelerations_and_pivots     # a long chain: O(n), the same qdd
    switches = dict(use_gravity=bool(gravity), use_tip=bool(tip_wrench))
    try:
        function, tape = compile_joint_function(
            robot, key, (lambda *args: own(*args, **switches)) if own else
            _accelerations_recursion(formulations.inertia_and_bias_function(
                method, variant, **switches, own_inertia=True)))
    except ZeroPivot as error:
        raise ValueError(f"{robot.name}: the inertia matrix D is singular at every q (pivot "
                         f"{error.joint} is 0): joint {error.joint} moves no mass or inertia "
                         f"that the joints before it do not already move; give its links mass "
                         f"and inertia") from None
    return (function, tape) if with_tape else function


def compiled_terms(robot: Robot, method: str = DEFAULT_METHOD, variant: str | None = None,
                   gravity: bool = True, tip_wrench: bool = True):
    """The compiled ``f(q, qd, unused) -> (D upper triangle row by row, bias without friction)``
    (``unused``: any n floats)."""
    _, variant = formulations.require(method, variant, "numeric", "forward dynamics")
    key = ("forward_dynamics terms", method, variant, bool(gravity), bool(tip_wrench))
    function, _ = compile_joint_function(
        robot, key, _terms_outputs(formulations.inertia_and_bias_function(
            method, variant, use_gravity=bool(gravity), use_tip=bool(tip_wrench))))
    return function


def _friction(links, qd, use_friction: bool) -> list:
    """Schilling, Eq. (6-3-3) for every joint (``sgn 0 = 0``), floats."""
    return [link_friction(link, v, V.NUMERIC) if use_friction and link.has_friction else 0.0
            for link, v in zip(links, qd)]


def check_pivots(robot: Robot, D, q) -> None:
    """Raise a ValueError naming the first joint at which ``D`` (NumPy) stops being positive
    definite: its ``L D L^T`` pivot is not above :data:`dynlab.model.ldl.SINGULAR_PIVOT` times
    its own diagonal element (:func:`dynlab.model.ldl.singular_pivot`)."""
    D = np.asarray(D, dtype=float)
    if not np.isfinite(D).all():      # an overflow, not a singular D
        raise not_finite("D", D, robot.name, {"q": q})
    diagonal, pivots = np.diag(D), []
    for j in range(len(D)):
        if not diagonal[j] > 0:
            pivots.append(float(diagonal[j]))
            break
        # pivot j = D_jj - d^T A^-1 d, A the leading block (positive definite so far), found
        # with D scaled to a unit diagonal: pivot j / D_jj, whatever the units of each joint
        scale = 1 / np.sqrt(diagonal[:j + 1])
        leading = D[:j + 1, :j + 1] * np.outer(scale, scale)
        share = 1.0 if j == 0 else 1.0 - leading[-1, :-1] @ np.linalg.solve(
            leading[:-1, :-1], leading[-1, :-1])
        pivots.append(float(share * diagonal[j]))
    found = singular_pivot(pivots, diagonal)
    if found is not None:
        joint, measured = found
        raise ValueError(f"{robot.name}: the inertia matrix D is singular at q = "
                         f"{[round(float(v), 6) for v in q]} ({measured}): joint {joint} moves "
                         f"no mass or inertia that the joints before it do not already move; "
                         f"give its links mass and inertia")


def inertia_and_bias(robot: Robot, q: Sequence, qd: Sequence, *, method: str = DEFAULT_METHOD,
                     variant: str | None = None, gravity: bool = True, friction: bool = True,
                     tip_wrench: bool = True, compiled: bool = True):
    """``(D, bias)`` at a numeric state: ``tau = D qdd + bias`` with ``bias = h + c + b +
    J^T w`` (Lynch & Park's ``M`` and ``h``, Sec. 8.1; the draft wrote ``b``).  NumPy arrays;
    SymPy robots are refused.

    >>> from dynlab.model.robots import pendulum
    >>> D, bias = inertia_and_bias(pendulum(), [0.0], [0.0])
    >>> D, bias                               # m a^2 / 3, m g a / 2
    (array([[0.08333333]]), array([2.45155]))
    """
    _, variant = formulations.require(method, variant, "numeric", "inertia_and_bias")
    gravity, friction, tip_wrench, compiled = _flags("inertia_and_bias", gravity, friction,
                                                     tip_wrench, compiled)
    symbolic, _, (links, grav, tip_f, tip_m), vec = resolve(robot, q=q, qd=qd)
    if symbolic:
        raise TypeError(f"{robot.name}: inertia_and_bias works on numbers; for symbols use "
                        f"dynlab.equations_of_motion")
    n = robot.n
    if compiled:
        values = compiled_terms(robot, method, variant, gravity, tip_wrench)(
            vec["q"], vec["qd"], (0.0,) * n)
        D = np.empty((n, n))
        D[np.triu_indices(n)] = values[:n * (n + 1) // 2]
        D = np.triu(D) + np.triu(D, 1).T
        bias = np.array(values[n * (n + 1) // 2:])
    else:
        rows, bias = formulations.inertia_and_bias_function(
            method, variant, use_gravity=bool(gravity), use_tip=bool(tip_wrench))(
            links, vec["q"], vec["qd"], None, grav, tip_f, tip_m, V.NUMERIC)
        D, bias = np.array(rows, dtype=float), np.array(bias, dtype=float)
    bias = bias + np.array(_friction(links, vec["qd"], friction))
    check_finite("D", D, robot.name, vec)
    return D, check_finite("bias", bias, robot.name, vec)


def _stored(robot, method, variant, gravity, friction, tip_wrench, compiled, simplify):
    """The :class:`dynlab.model.robot_data.ShortCut` that an earlier, fully checked call of
    :func:`forward_dynamics` with these very arguments stored, or None.  Only exact booleans and
    strings take this path (``1`` for ``True`` would otherwise find ``True``'s entry)."""
    if (compiled is not True or simplify is not None or type(method) is not str
            or not (variant is None or type(variant) is str) or type(gravity) is not bool
            or type(friction) is not bool or type(tip_wrench) is not bool
            or not isinstance(robot, Robot)):
        return None
    return robot.data.forward_short_cut(method, variant, gravity, friction, tip_wrench)


def _accelerations_quickly(robot, stored, q, qd, tau):
    """``qdd`` by the stored short cut (:mod:`dynlab.engine.short_cut`: ``qdd``, the ``L D L^T``
    pivots and ``D``'s diagonal) when the state is plain finite floats and no pivot shows ``D``
    singular; None sends the call the checked way."""
    n = robot.n
    if not stored.frictionless:       # the program takes tau - friction (Schilling (6-3-3))
        floats = plain_float_vectors(q, qd, tau, n)
        if floats is None:
            return None
        q, qd, tau = floats
        tau = [t - f for t, f in zip(tau, _friction(robot.numeric()[0], qd, True))]
    values = short_cut.run(stored, robot, q, qd, tau)
    if values is None:
        return None
    floats = values.tolist()          # (a loop over floats is quicker than over an array)
    if singular_pivot(floats[n:2 * n], floats[2 * n:]) is not None:
        return None
    return values[:n]


def _flags(where: str, *values) -> tuple:
    """``gravity``, ``friction``, ``tip_wrench``, ``compiled`` checked to be booleans."""
    return tuple(flag(value, where, name) for value, name in
                 zip(values, ("gravity", "friction", "tip_wrench", "compiled")))


def forward_dynamics(robot: Robot, q: Sequence, qd: Sequence, tau: Sequence, *,
                     method: str = DEFAULT_METHOD, variant: str | None = None,
                     gravity: bool = True, friction: bool = True, tip_wrench: bool = True,
                     compiled: bool = True, simplify: bool | None = None):
    """Joint accelerations ``qdd`` that ``tau`` produces at ``(q, qd)``: the solution of
    ``D(q) qdd = tau - h - c - b - J^T w`` (Lynch & Park, Sec. 8.5).  ``method``, ``variant``,
    ``gravity``, ``friction``, ``tip_wrench`` as for :func:`dynlab.inverse_dynamics`;
    ``compiled=False`` solves step by step with Cholesky; ``simplify`` (symbols) uses Cramer's
    rule.  A singular ``D`` raises a ValueError naming the joint.

    >>> import numpy as np
    >>> from dynlab import inverse_dynamics
    >>> from dynlab.model.robots import pendulum, puma560
    >>> forward_dynamics(pendulum(), [0.0], [0.0], [0.0], method="lagrange_euler")  # -3g/(2a)
    array([-29.4186])
    >>> arm, q, qd, tau = puma560(), [0.1, -0.5, 0.3, 0.2, 0.4, -0.1], [0.5] * 6, [1.0] * 6
    >>> qdd = forward_dynamics(arm, q, qd, tau)
    >>> bool(np.allclose(inverse_dynamics(arm, q, qd, qdd), tau, rtol=0, atol=1e-10))
    True
    """
    fast = _stored(robot, method, variant, gravity, friction, tip_wrench, compiled, simplify)
    if fast is not None:
        qdd = _accelerations_quickly(robot, fast, q, qd, tau)
        if qdd is not None:
            return qdd
        # anything else (other types, inf or NaN, a pivot near 0) goes the checked way below
    switches = (method, variant, gravity, friction, tip_wrench)
    _, variant = formulations.lookup(method, variant)
    gravity, friction, tip_wrench, compiled = _flags("forward_dynamics", gravity, friction,
                                                     tip_wrench, compiled)
    simplify = flag(simplify, "forward_dynamics", "simplify", allow_none=True)
    symbolic, backend, (links, grav, tip_f, tip_m), vec = resolve(robot, q=q, qd=qd, tau=tau)
    formulations.require(method, variant, "symbolic" if symbolic else "numeric",
                         "forward_dynamics")
    n = robot.n
    if symbolic:
        return _symbolic_forward_dynamics(robot, links, vec, grav, tip_f, tip_m, method,
                                          variant, gravity, friction, tip_wrench, simplify)
    net = [t - f for t, f in zip(vec["tau"], _friction(links, vec["qd"], friction))]
    if compiled:
        function, tape = compiled_accelerations(robot, method, variant, gravity, tip_wrench,
                                                with_tape=True)
        try:
            values = function(vec["q"], vec["qd"], net)
        except ZeroDivisionError:
            values = (0.0,) * (3 * n)
        if singular_pivot(values[n:2 * n], values[2 * n:]) is not None:
            D, _ = inertia_and_bias(robot, vec["q"], vec["qd"], method=method, variant=variant,
                                    gravity=gravity, friction=friction, tip_wrench=tip_wrench,
                                    compiled=False)
            check_pivots(robot, D, vec["q"])
        result = np.array(values[:n])
        if not np.isfinite(result).all():      # one check of the outputs: an overflow
            check_finite("qdd", result, robot.name, vec)
        frictionless = not (friction and any(link.has_friction for link in links))
        robot.data.keep_forward_short_cut(*switches, ShortCut(None, tape, frictionless))
        return result
    import scipy.linalg
    rows, bias = formulations.inertia_and_bias_function(
        method, variant, use_gravity=bool(gravity), use_tip=bool(tip_wrench))(
        links, vec["q"], vec["qd"], None, grav, tip_f, tip_m, V.NUMERIC)
    D = np.array(rows, dtype=float)
    rhs = np.array(net) - np.array(bias, dtype=float)  # Lynch & Park GetJointAccel: c = tau - gamma
    check_pivots(robot, D, vec["q"])
    check_finite("bias", rhs, robot.name, vec)
    factor = scipy.linalg.cho_factor(D)
    return check_finite("qdd", scipy.linalg.cho_solve(factor, rhs),     # "solve A x = c"
                        robot.name, vec)


def _symbolic_forward_dynamics(robot, links, vec, grav, tip_f, tip_m, method, variant, gravity,
                               friction, tip_wrench, simplify):
    rows, bias = formulations.inertia_and_bias_function(
        method, variant, use_gravity=bool(gravity), use_tip=bool(tip_wrench))(
        links, vec["q"], vec["qd"], None, grav, tip_f, tip_m, V.SYMBOLIC)
    friction_terms = [link_friction(link, v, V.SYMBOLIC) if friction and link.has_friction else 0
                      for link, v in zip(links, vec["qd"])]
    D = sympy.Matrix(rows)
    for j in range(robot.n):
        if D[j, j] == 0:
            raise ValueError(f"{robot.name}: the inertia matrix D is singular (D_{j + 1}{j + 1} "
                             f"= 0): joint {j + 1} moves no mass or inertia; give its links "
                             f"mass and inertia")
    rhs = sympy.Matrix([t - b - f for t, b, f in zip(vec["tau"], bias, friction_terms)])
    if not (simplify or (simplify is None and robot.n <= 2)):
        return D.LUsolve(rhs)
    # compact form by Cramer's rule, qdd_i = det(D with column i replaced by rhs) / det(D):
    # numerator and denominator are polynomials in sines and cosines, which compact() reduces
    # (LUsolve's nested quotients are not); common factors of exact polynomials cancel (the
    # SCARA's qdd3 = g + t3/m3)
    determinant = compact(D.det())
    result = []
    for i in range(robot.n):
        numerator, denominator = compact(_column_replaced(D, i, rhs).det()), determinant
        common = 1
        if not any(e.atoms(sympy.Float) or e.has(sympy.exp, sympy.sign, sympy.Abs)
                   for e in (numerator, denominator)):
            try:
                common = sympy.gcd(numerator, denominator)
            except sympy.PolynomialError:
                pass
        if common != 1:
            numerator = sympy.cancel(numerator / common)
            denominator = sympy.cancel(denominator / common)
        result.append(sympy.factor_terms(numerator, clear=True)
                      / sympy.factor_terms(denominator, clear=True))
    return sympy.Matrix(result)


def _column_replaced(D, i, column):
    result = D.copy()
    result[:, i] = column
    return result
