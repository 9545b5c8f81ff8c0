"""Variants of the two questions of chapter 04 on the 2R arm of Lynch & Park, Sec. 8.1.1 (point
masses m1 at the elbow and m2 at the tip): each student's arm has its own link ratio
``ratio = L2/L1`` (9.1, Prop. 8.1: C, Mdot and N = Mdot - 2C) and, for the task-space inertia
(9.98, Sec. 8.6: J and Lambda = J^-T M J^-1, which for this arm does not depend on the lengths at
all), its own mass ratio ``mu = m2/m1`` too.

Each right answer here is written by hand from the arm's mass matrix (Sec. 8.1.1), not read from
a key: with h = m2 L1 L2 sin(q2), C = [[-h qd2, -h (qd1 + qd2)], [h qd1, 0]] (the Christoffel
form of Sec. 8.4), Mdot = [[-2 h qd2, -h qd2], [-h qd2, 0]] and N = [[0, h (2 qd1 + qd2)],
[-h (2 qd1 + qd2), 0]].
"""

from __future__ import annotations

import numpy as np
import sympy
from sympy import Matrix, cos, sin

m1, L1 = sympy.symbols("m1 L1", positive=True)
q1, q2, qd1, qd2 = sympy.symbols("q1 q2 qd1 qd2", real=True)


def exact(value: float) -> sympy.Rational:
    """A given as the exact decimal it is (0.6 is 3/5)."""
    return sympy.Rational(repr(float(value)))


def arm(given: dict):
    """(M, J): the mass matrix and the tip Jacobian of the 2R arm with L2 = ratio L1 and, when
    ``given`` has ``mu``, m2 = mu m1 (else m2 stays a symbol), by hand from Sec. 8.1.1."""
    L2 = exact(given["ratio"]) * L1
    m2 = exact(given["mu"]) * m1 if "mu" in given else sympy.Symbol("m2", positive=True)
    c2 = cos(q2)
    M = Matrix([[m1 * L1**2 + m2 * (L1**2 + 2 * L1 * L2 * c2 + L2**2), m2 * (L1 * L2 * c2 + L2**2)],
                [m2 * (L1 * L2 * c2 + L2**2), m2 * L2**2]])
    J = Matrix([[-L1 * sin(q1) - L2 * sin(q1 + q2), -L2 * sin(q1 + q2)],
                [L1 * cos(q1) + L2 * cos(q1 + q2), L2 * cos(q1 + q2)]])
    return M, J, m2 * L1 * L2 * sin(q2)


def right(question: str, given: dict) -> tuple:
    M, J, h = arm(given)
    if question == "9.1":
        C = Matrix([[-h * qd2, -h * (qd1 + qd2)], [h * qd1, 0]])
        Mdot = Matrix([[-2 * h * qd2, -h * qd2], [-h * qd2, 0]])
        return C, Mdot, Mdot - 2 * C
    inverse = J.adjugate() / J.det()          # the 2x2 inverse in closed form
    return J, inverse.T * M * inverse


def mistakes(question: str, given: dict) -> list:
    """``[(answer, words of the feedback)]``: each typical slip, at these givens."""
    M, J, h = arm(given)
    if question == "9.1":
        C, Mdot, N = right(question, given)
        partial = M.diff(q1) + M.diff(q2)
        # another factorisation of the same c = C qd: qd1 qd2 moved from C12 into C11
        other = Matrix([[-2 * h * qd2, -h * qd2], [h * qd1, 0]])
        return [((C, partial, N), "multiply each partial derivative by its joint velocity"),
                ((C, Mdot, Mdot - C), "Prop. 8.1 is about Mdot - 2C"),
                ((other, Mdot, Mdot - 2 * other), "your C gives the right c = C*qd")]
    inverse = J.adjugate() / J.det()          # the 2x2 inverse in closed form
    return [((J, J * M * J.T), "the inverse Jacobian, not J M J^T"),
            ((J, inverse * M * inverse.T), "transpose of the inverse on the left"),
            ((J, J * (M.adjugate() / M.det()) * J.T), "that is Lambda^-1")]


AT = {m1: 1.3, L1: 0.8, sympy.Symbol("m2", positive=True): 0.7, q1: 0.4, q2: 2.2, qd1: 0.3,
      qd2: -1.1}


def at_the_point(question: str, given: dict) -> tuple:
    """(right, [mistakes]) as numbers at :data:`AT`: the arm's matrices are put in numbers
    before anything is inverted (fast enough for every combination of the grids)."""
    M_, J_, h_ = arm(given)
    M, J = (np.array(x.xreplace(AT), dtype=float) for x in (M_, J_))
    if question == "9.1":
        h = float(h_.xreplace(AT))
        a, b = float(AT[qd1]), float(AT[qd2])
        C = np.array([[-h * b, -h * (a + b)], [h * a, 0.0]])
        Mdot = np.array([[-2 * h * b, -h * b], [-h * b, 0.0]])
        partial = np.array((M_.diff(q1) + M_.diff(q2)).xreplace(AT), dtype=float)
        other = np.array([[-2 * h * b, -h * b], [h * a, 0.0]])
        flat = lambda *parts: np.concatenate([p.ravel() for p in parts])  # noqa: E731
        return flat(C, Mdot, Mdot - 2 * C), [flat(C, partial, Mdot - 2 * C),
                                              flat(C, Mdot, Mdot - C),
                                              flat(other, Mdot, Mdot - 2 * other)]
    inverse = np.linalg.inv(J)
    flat = lambda lam: np.concatenate([J.ravel(), lam.ravel()])  # noqa: E731
    return flat(inverse.T @ M @ inverse), [flat(J @ M @ J.T), flat(inverse @ M @ inverse.T),
                                           flat(J @ np.linalg.inv(M) @ J.T)]
