"""A variant per student for three questions that asked a formula the same for everyone (issue 24,
item 4): each now puts the student's own numbers into it.

- Prob. 3.14 (Fu, Gonzalez & Lee, Eqs. (3.2-17), (3.2-18)): the student's own link, its
  pseudo-inertia J_i given as numbers (J11, J22, J33, J12, J14 = m x_c, J44 = m; J13 = J23 = J24 =
  J34 = 0), and the answer its inertia tensor about the origin of frame i and about its centre of
  mass, in numbers.  Every combination of the grids is a rigid body's J_i.
- Y (Lynch & Park, Sec. 8.1.1): the 2R arm in a plane tilted by the student's beta from the
  horizontal, with the student's known L1: gravity's pull g sin(beta) along the plane puts
  g sin(beta)/L1 into the regressor's first two columns.
- N.1 (Fu, Gonzalez & Lee, Table 3.3, Eqs. (3.3-50), (3.3-51)): the two-link arm whose joint 2 is
  twisted by the student's alpha1 about x1, so omega_2 tips off z2 and the cross term
  omega_1 x z0 qd2 no longer vanishes.

Each right answer here is written out by hand from the printed formulas, not read from a key, and
checked against dynlab's numbers at the students' values (the pseudo-inertia of a link with that
mass, centre of mass and tensor; Newton-Euler torques of the tilted arm; Luh's recursion on the
twisted arm).  For each question: the right answer scores full points for alice and for bob at
their practice values, alice's answer scores 0 for bob, for marks (a course secret) the
practice-value answer scores 0 and the graded-value answer full, and every typical mistake is still
named at other students' values.
"""

from __future__ import annotations

import math

import numpy as np
import sympy
from sympy import Matrix, cos, sin

g = sympy.Symbol("g", positive=True)
q1, q2, qd1, qd2, qdd1, qdd2 = sympy.symbols("q1 q2 qd1 qd2 qdd1 qdd2", real=True)
S2, C2, C1, C12 = sin(q2), cos(q2), cos(q1), cos(q1 + q2)
#: A point of the symbols at which symbolic answers are compared here
AT = {g: 9.8, q1: 0.4, q2: 2.3, qd1: 0.7, qd2: -1.2, qdd1: 0.9, qdd2: -0.5}

def exact(value) -> sympy.Rational:
    """A given as the exact decimal it is written as (0.35 as 7/20)."""
    return sympy.Rational(repr(float(value)))


def radians(degrees) -> sympy.Expr:
    return sympy.pi * exact(degrees) / 180


# -- the right answers, by hand -------------------------------------------------------------------
def tensors(given: dict) -> tuple:
    """Prob. 3.14: I about the origin of frame i is tr(S) E - S (the definition before Eq.
    (3.2-18): moments on the diagonal, the negated product integrals off it), written out for this
    link's S = [[J11, J12, 0], [J12, J22, 0], [0, 0, J33]]; about the centre of mass, at (x_c, 0, 0)
    with x_c = J14/J44, the parallel-axis theorem takes m x_c^2 = J14^2/J44 from I_yy and I_zz."""
    J11, J22, J33, J12, J14, J44 = (exact(given[n]) for n in
                                    ("J11", "J22", "J33", "J12", "J14", "J44"))
    origin = Matrix([[J22 + J33, -J12, 0], [-J12, J11 + J33, 0], [0, 0, J11 + J22]])
    shift = J14**2 / J44
    return origin, origin - sympy.diag(0, shift, shift)


def regressor(given: dict, pull=None) -> Matrix:
    """Y of the 2R arm (point masses at the link ends, Sec. 8.1.1) in the base parameters
    pi = ((m1 + m2) L1^2, m2 L1 L2, m2 L2^2): the horizontal arm's columns, plus gravity's
    (m1 + m2) g' L1 C1 = pi1 g'/L1 C1 and m2 g' L2 C12 = pi2 g'/L1 C12, with g' = g sin(beta)
    (``pull``: g'/L1 in its place)."""
    if pull is None:
        pull = g * sin(radians(given["beta"])) / exact(given["L1"])
    return Matrix([[qdd1 + pull * C1,
                    2 * C2 * qdd1 + C2 * qdd2 - S2 * (2 * qd1 * qd2 + qd2**2) + pull * C12,
                    qdd1 + qdd2],
                   [0, C2 * qdd1 + S2 * qd1**2 + pull * C12, qdd1 + qdd2]])


def rates(given: dict, angle=None) -> tuple:
    """N.1: Eqs. (3.3-50), (3.3-51) written out.  1R0 z0 = (0, sin a, cos a) (0R1 = Rz(q1) Rx(a),
    Eq. (3.2-5)), so omega_1 = (0, s qd1, c qd1), omega_1 x z0 qd2 = (s qd1 qd2, 0, 0), and link 2's
    quantities are those turned by 2R1 = Rz(q2)^T."""
    a = radians(given["alpha1"]) if angle is None else angle
    s, c = sin(a), cos(a)
    omega = Matrix([s * qd1 * S2, s * qd1 * C2, c * qd1 + qd2])
    omega_dot = Matrix([s * (qdd1 * S2 + qd1 * qd2 * C2), s * (qdd1 * C2 - qd1 * qd2 * S2),
                        c * qdd1 + qdd2])
    return omega, omega_dot


def right(question: str, given: dict):
    """The answer for these givens, by hand: the parts as a tuple, or Y alone."""
    if question == "3.14":
        return tensors(given)
    if question == "Y":
        return regressor(given)
    return rates(given)


def mistakes(question: str, given: dict) -> list:
    """``[(answer, words of the feedback)]``: each typical slip, at these givens."""
    if question == "3.14":
        origin, centre = tensors(given)
        J11, J22, J33, J12, J14, J44 = (exact(given[n]) for n in
                                        ("J11", "J22", "J33", "J12", "J14", "J44"))
        S = Matrix([[J11, J12, 0], [J12, J22, 0], [0, 0, J33]])
        flipped = Matrix(3, 3, lambda i, j: origin[i, j] if i == j else -origin[i, j])
        wrong_r = origin - J44 * sympy.diag(0, J14**2, J14**2)       # m (|h|^2 E - h h^T)
        return [((S, centre), "the inertia tensor is tr(S)*E - S"),
                ((flipped, centre), "the products of inertia have the wrong sign"),
                ((origin, origin), "that is the inertia about the origin of frame i"),
                ((origin, 2 * origin - centre), "the parallel-axis term has the wrong sign"),
                ((origin, wrong_r), "not the centre of mass r itself")]
    if question == "Y":
        Y = regressor(given)
        L1, beta = exact(given["L1"]), radians(given["beta"])
        draft, once = Matrix(Y), Matrix(Y)
        draft[1, 1] = C2 * qdd1 - S2 * qd1 * qd2 + g * sin(beta) / L1 * C12
        once[0, 1] = Y[0, 1] + S2 * qd1 * qd2
        return [(draft, "preliminary draft"), (once, "comes twice"),
                (Y[:, [2, 1, 0]], "the columns go with pi1, pi2, pi3"),
                (regressor(given, 0), "gravity is missing"),
                (regressor(given, g / L1), "that is the arm in a vertical plane"),
                (regressor(given, g * cos(beta) / L1), "beta is the tilt from the HORIZONTAL"),
                (regressor(given, -g * sin(beta) / L1), "the gravity terms have the wrong sign"),
                (regressor(given, g * sin(beta) * L1), "not times g*L1")]
    omega, omega_dot = rates(given)
    a = radians(given["alpha1"])
    planar = (Matrix([0, 0, qd1 + qd2]), Matrix([0, 0, qdd1 + qdd2]))
    in_frame_1 = Matrix([0, sin(a) * qd1, cos(a) * qd1 + qd2])
    no_cross = Matrix([sin(a) * qdd1 * S2, sin(a) * qdd1 * C2, cos(a) * qdd1 + qdd2])
    as_radians = rates(given, exact(given["alpha1"]))
    return [((Matrix([0, 0, qd2]), omega_dot), "ABSOLUTE angular velocity"),
            ((omega, Matrix([0, 0, qdd2])), "carries link 1's over"),
            ((planar[0], omega_dot), "that is the planar arm's"),
            ((omega, planar[1]), "that is the planar arm's"),
            ((omega, no_cross), "(1R0 omega_1) x z0 qd2 of Eq. (3.3-51) is missing"),
            ((in_frame_1, omega_dot), "that is omega_2 in frame 1"),
            ((rates(given, -a)[0], omega_dot), "the twist turns the wrong way"),
            ((as_radians[0], omega_dot), "is in degrees"),
            ((omega, as_radians[1]), "is in degrees")]


def in_floats(question: str, given: dict) -> list:
    """What a student's code gives from ``given`` in floats (``math.radians(given["beta"])``,
    ``Matrix`` entries that are Python floats)."""
    if question == "3.14":
        return [tuple(Matrix(np.array(part.evalf(), dtype=float)) for part in tensors(given))]
    if question == "Y":
        return [regressor(given, g * math.sin(math.radians(given["beta"])) / given["L1"])]
    return [rates(given, sympy.Float(math.radians(given["alpha1"])))]
