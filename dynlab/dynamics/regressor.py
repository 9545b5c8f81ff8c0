"""The equations of motion are linear in the inertial parameters, ``tau = Y(q, qd, qdd) pi``:
Fu, Gonzalez & Lee's Eqs. (3.2-31), (3.2-33), (3.2-34) are linear in the pseudo-inertias
``J_j`` (Eqs. (3.2-17), (3.2-18)); only combinations, the base parameters, show."""

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
    """``Y`` with ``torques == Y * pi`` identically, ``pi`` the keys of ``base_parameters``
    (``{pi_j: expression in the physical parameters}``): the torques rewritten in the ``pi_j`` by
    eliminating ``solve_for`` (as many physical parameters), then ``Y_ij = d tau_i / d pi_j``; a
    ``ValueError`` says which check (linear, nothing left over, solvable) fails.

    >>> import sympy
    >>> q1, qd1, qdd1, g, m, d, I = sympy.symbols("q1 qd1 qdd1 g m d I")
    >>> tau = [(I + m * d**2) * qdd1 + m * g * d * sympy.cos(q1)]     # a pendulum about its joint
    >>> p1, p2 = sympy.symbols("p1 p2")
    >>> regressor(tau, {p1: I + m * d**2, p2: m * d}, solve_for=(I, m))
    Matrix([[qdd1, g*cos(q1)]])
    >>> regressor(tau, {p2: m * d}, solve_for=[m])
    Traceback (most recent call last):
    ...
    ValueError: the torques are not Y * pi: a part of them does not depend on the base parameters (a
    physical parameter that no base parameter holds)
    >>> regressor([m * qdd1], {p1: m}, solve_for="m")
    Traceback (most recent call last):
    ...
    TypeError: solve_for must be a sequence of SymPy symbols (the physical parameters to eliminate),
    not str
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
