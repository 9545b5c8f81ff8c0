"""The equations of motion are linear in the inertial parameters: ``tau = Y(q, qd, qdd) pi``.

Why they are.  In Fu, Gonzalez & Lee's Lagrange-Euler form every term is linear in a link's mass
data: ``D_ik = sum_j Tr(U_jk J_j U_ji^T)`` (Eq. (3.2-31)) and ``h_ikm`` (Eq. (3.2-33)) are linear in
the pseudo-inertia ``J_j``, whose entries are the second moments ``int x^2 dm, int x y dm, ...``,
the first moments ``m_j r_j`` and the mass ``m_j`` (Eqs. (3.2-17), (3.2-18)); the gravity terms
``c_i = sum_j -m_j g U_ji r_j`` (Eq. (3.2-34)) are linear in the first moments ``m_j r_j``.  The
kinematics (``U_jk``, ``U_jkm``, ``g``) holds everything else.  So the torques are a matrix
``Y`` that depends on the motion and the known geometry, times a column ``pi`` of inertial
parameters.  Not every one of them shows in the torques on its own: only some combinations do,
the *base parameters* (for the planar two-link arm, ``I_1 + m_1 d_1^2 + m_2 l_1^2`` is all that
link 1's inertia, its mass and link 2's mass at the elbow contribute to the shoulder's inertia).

:func:`regressor` takes torques derived by any formulation, in the arm's physical parameters,
and a definition of the base parameters ``pi_j = expression``; it rewrites the torques in the
``pi_j`` (solving the definitions for as many physical parameters, ``solve_for``), and
differentiates them: ``Y_ij = d tau_i / d pi_j``.  It proves what it returns: ``Y`` is free of
the ``pi_j`` and of the eliminated parameters, and ``tau - Y pi`` is identically zero; otherwise
it says which of these fails.

>>> import sympy
>>> q1, qd1, qdd1, g, m, d, I = sympy.symbols("q1 qd1 qdd1 g m d I")
>>> tau = [(I + m * d**2) * qdd1 + m * g * d * sympy.cos(q1)]     # a pendulum about its joint
>>> p1, p2 = sympy.symbols("p1 p2")
>>> regressor(tau, {p1: I + m * d**2, p2: m * d}, solve_for=(I, m))
Matrix([[qdd1, g*cos(q1)]])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import sympy

from dynlab.model.symbolic import compact, is_zero


def _column(torques) -> sympy.Matrix:
    """``torques`` as a SymPy column: a sequence of expressions or a SymPy matrix."""
    if isinstance(torques, sympy.MatrixBase):
        if torques.cols != 1 and torques.rows != 1:
            raise ValueError(f"torques must be a column of torques, not a {torques.rows}x"
                             f"{torques.cols} matrix")
        return sympy.Matrix(list(torques))
    if isinstance(torques, (str, bytes)) or not isinstance(torques, Sequence) or not torques:
        raise TypeError(f"torques must be a non-empty sequence of SymPy expressions (one per "
                        f"joint) or a SymPy column, not {type(torques).__name__}")
    column = []
    for i, value in enumerate(torques):
        if isinstance(value, str) or not isinstance(value, (sympy.Basic, int, float)):
            raise TypeError(f"torques[{i}] must be a SymPy expression, not "
                            f"{type(value).__name__}")
        column.append(sympy.sympify(value))
    return sympy.Matrix(column)


def regressor(torques, base_parameters: Mapping, solve_for: Sequence) -> sympy.Matrix:
    """``Y`` with ``torques == Y * pi`` identically, ``pi`` the keys of ``base_parameters``.

    ``torques``: the joint torques ``tau_i`` of an arm (SymPy expressions in the joint variables,
    rates and accelerations and in the arm's physical parameters, e.g.
    ``equations_of_motion(arm).torque(qdd)``).  ``base_parameters``: ``{pi_j: expression}``,
    each ``pi_j`` a new SymPy symbol defined as a combination of the physical parameters.
    ``solve_for``: as many physical parameters (symbols) as there are ``pi_j``, which the
    definitions determine; they are replaced by their solution, so that the torques are written in
    the ``pi_j`` and the remaining symbols (the motion and the known geometry).  Then
    ``Y_ij = d tau_i / d pi_j``.

    A ``ValueError`` says what is wrong when the torques are not linear in the ``pi_j``, when
    an eliminated parameter is left over (the ``pi_j`` do not absorb it: they are not base
    parameters of these torques), or when the definitions cannot be solved for ``solve_for``.

    The pendulum's inertia ``I`` about its centre of mass is in no base parameter here:

    >>> import sympy
    >>> q1, qdd1, m, d, g, I = sympy.symbols("q1 qdd1 m d g I")
    >>> p = sympy.Symbol("p")
    >>> regressor([(I + m * d**2) * qdd1 + m * g * d * sympy.cos(q1)], {p: m * d}, solve_for=[m])
    Traceback (most recent call last):
    ...
    ValueError: the torques are not Y * pi: a part of them does not depend on the base parameters (a physical parameter that no base parameter holds)
    >>> regressor([m * qdd1], {p: m}, solve_for="m")
    Traceback (most recent call last):
    ...
    TypeError: solve_for must be a sequence of SymPy symbols (the physical parameters to eliminate), not str
    """
    tau = _column(torques)
    if not isinstance(base_parameters, Mapping) or not base_parameters:
        raise TypeError(f"base_parameters must be a non-empty mapping {{symbol: expression}}, "
                        f"not {type(base_parameters).__name__}")
    pi = list(base_parameters)
    for name in pi:
        if not isinstance(name, sympy.Symbol):
            raise TypeError(f"base_parameters: each key must be a SymPy symbol (the new "
                            f"parameter), not {name!r}")
    if isinstance(solve_for, (str, bytes)) or not isinstance(solve_for, Sequence):
        raise TypeError(f"solve_for must be a sequence of SymPy symbols (the physical parameters "
                        f"to eliminate), not {type(solve_for).__name__}")
    eliminated = list(solve_for)
    if not all(isinstance(s, sympy.Symbol) for s in eliminated):
        raise TypeError("solve_for must hold SymPy symbols only")
    if len(eliminated) != len(pi):
        raise ValueError(f"solve_for names {len(eliminated)} parameters for {len(pi)} base "
                         f"parameters: give one physical parameter per base parameter")
    clash = set(pi) & (tau.free_symbols | {s for e in base_parameters.values()
                                           for s in sympy.sympify(e).free_symbols})
    if clash:
        raise ValueError(f"base_parameters: the new symbols {sorted(map(str, clash))} already "
                         f"occur in the torques or the definitions; choose new names")
    solutions = sympy.solve([p - sympy.sympify(e) for p, e in base_parameters.items()],
                            eliminated, dict=True)
    if len(solutions) != 1 or set(solutions[0]) != set(eliminated):
        raise ValueError(f"the definitions of the base parameters do not determine "
                         f"{', '.join(map(str, eliminated))} uniquely ({len(solutions)} "
                         f"solutions): choose other parameters to solve for")
    rewritten = tau.subs(solutions[0]).applyfunc(lambda e: compact(sympy.cancel(e)))
    Y = rewritten.jacobian(pi).applyfunc(compact)
    left = sorted(map(str, Y.free_symbols & (set(pi) | set(eliminated))))
    if left:
        raise ValueError(f"the torques are not linear in the base parameters: Y still holds "
                         f"{', '.join(left)} (a base parameter times another, or a missing one)")
    if not is_zero(rewritten, -Y * sympy.Matrix(pi)):
        raise ValueError("the torques are not Y * pi: a part of them does not depend on the base "
                         "parameters (a physical parameter that no base parameter holds)")
    return Y
