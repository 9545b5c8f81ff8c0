"""Variants of chapter 03's last three questions (issue 24, item 5): Fu, Gonzalez & Lee, Probs.
3.12 and 3.18, and Schilling's Exercise 6-4-1.

- Prob. 3.12: each student's arm has its own number of joints ``n``, and its Newton-Euler routine
  is the one Fu, Gonzalez & Lee count in Table 3.5 (132n multiplications and 111n - 4 additions a
  call); the answer is the student's own two counts, numbers.
- Prob. 3.18: on each student's theta-d arm the mass m2 sits its own distance ``e`` beyond the
  inner end of the sliding link 2, at d + e from the axis (the book's: e = 0, at d).
- Exercise 6-4-1: each student's one-axis link has its own twist ``alpha`` (degrees); d, a, the
  mass, the centre of mass and the inertia tensor stay general.

The right answers are written by hand here.  Prob. 3.12: probing D with qd = 0 and gravity off
takes one call per column of D, n calls, so n times the printed cost of a call.  Prob. 3.18: the
two point masses at r1 (cos q1, sin q1) and (q2 + e) (cos q1, sin q1), y0 up, in Lagrange's
equations (3.2-1).  Exercise 6-4-1: the joint axis z0 is (0, sin alpha, cos alpha) in frame 1's
axes, so D11 = z0^T I z0 + m (distance of the centre of mass from z0)^2, and c = 0.

The part no given changes, 6-4-1's c (zero for every one-axis arm: the point of the exercise),
is the same for every student; a copied answer earns exactly its share.
"""

from __future__ import annotations

import math

import sympy
from sympy import Matrix, cos, sin

m1, m2, r1, g = sympy.symbols("m1 m2 r1 g", positive=True)
q1, q2, qd1, qd2, qdd1, qdd2 = sympy.symbols("q1 q2 qd1 qd2 qdd1 qdd2", real=True)
m = sympy.Symbol("m", positive=True)
a, d, rx, ry, rz = sympy.symbols("a d rx ry rz", real=True)
Ixx, Iyy, Izz = sympy.symbols("Ixx Iyy Izz", positive=True)
Ixy, Ixz, Iyz = sympy.symbols("Ixy Ixz Iyz", real=True)
INERTIA = Matrix([[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]])
#: A point of the symbols at which answers are compared by hand here
AT = {m1: 1.3, m2: 0.8, r1: 0.45, g: 9.7, q1: 0.4, q2: 0.35, qd1: 0.7, qd2: -1.3, qdd1: 0.9,
      qdd2: -0.6, m: 1.7, a: 0.4, d: 0.25, rx: 0.13, ry: -0.21, rz: 0.17, Ixx: 0.11,
      Iyy: 0.06, Izz: 0.09, Ixy: 0.02, Ixz: -0.015, Iyz: 0.03}


# -- the right answers and the typical mistakes, by hand ------------------------------------------
def table_3_5(n: int) -> tuple:
    """One call of the Newton-Euler routine, as Fu, Gonzalez & Lee count it in Table 3.5:
    (multiplications, additions)."""
    return 132 * n, 111 * n - 4


def theta_d(e, sign=1, gravity="y"):
    """(D, h, c) of the theta-d arm with m1 at r1 and m2 at q2 + sign*e from the axis, along
    (cos q1, sin q1), written out: K = m1 r1^2 qd1^2 / 2 + m2 (qd2^2 + R^2 qd1^2) / 2 with
    R = q2 + sign*e, P = g y (y0 up); ``gravity="x"``: gravity along -x0 (the wrong axis);
    ``gravity=None``: none in the plane (the horizontal arm)."""
    R = q2 + sign * e
    D = Matrix([[m1 * r1**2 + m2 * R**2, 0], [0, m2]])
    h = Matrix([2 * m2 * R * qd1 * qd2, -m2 * R * qd1**2])
    if gravity is None:
        return D, h, Matrix([0, 0])
    if gravity == "x":
        return D, h, Matrix([-g * (m1 * r1 + m2 * R) * sin(q1), g * m2 * cos(q1)])
    return D, h, Matrix([g * (m1 * r1 + m2 * R) * cos(q1), g * m2 * sin(q1)])


def one_axis(twist: float, parallel_axis: bool = True):
    """D11 of the one-axis link twisted by ``twist`` radians: the joint axis z0 is
    (0, sin twist, cos twist) in frame 1's axes (A_1 = Rz(q1) Tz(d) Tx(a) Rx(twist)), the inertia
    about it z0^T I z0, plus m times the squared distance of the centre of mass (a + rx, ry, rz)
    in frame 1 from z0."""
    axis = Matrix([0, math.sin(twist), math.cos(twist)])
    distance2 = (a + rx)**2 + (ry * math.cos(twist) - rz * math.sin(twist))**2
    return (axis.T * INERTIA * axis)[0] + (m * distance2 if parallel_axis else 0)


def right(question: str, given: dict):
    """The answer for these givens (read as a student's code reads them: floats)."""
    if question == "3.12":
        n = int(given["n"])
        multiplications, additions = table_3_5(n)
        return n * multiplications, n * additions
    if question == "3.18":
        return theta_d(given["e"])
    return one_axis(math.radians(given["alpha"])), Matrix([0])


def mistakes(question: str, given: dict) -> list:
    """``[(answer, words of the feedback)]``: each typical slip, at these givens."""
    if question == "3.12":
        n = int(given["n"])
        N, M = table_3_5(n)
        return [(((n + 1) * N, n * M), "no call for c is needed"),
                ((n * N, (n + 1) * M + n**2), "no call for c and no subtractions"),
                ((n**2 * N, n**2 * M), "one call gives a whole column of D"),
                ((N, M), "that is what one call of the recursion costs")]
    if question == "3.18":
        e = given["e"]
        D, h, c = theta_d(e)
        printed, inward = theta_d(0), theta_d(e, sign=-1)
        return [((printed[0], h, c), "those are the printed arm's"),
                ((D, printed[1], c), "those are the printed arm's"),
                ((D, h, printed[2]), "those are the printed arm's"),
                ((inward[0], h, c), "not d - e"),
                ((D, h, theta_d(e, gravity=None)[2]), "the arm moves in a VERTICAL plane"),
                ((D, h, theta_d(e, gravity="x")[2]), "gravity acts along the wrong axis")]
    twist = math.radians(given["alpha"])
    zero = Matrix([0])
    return [((one_axis(twist, parallel_axis=False), zero), "squared distance of the centre"),
            ((one_axis(0.0), zero), "the link's own z axis is tilted by alpha"),
            ((one_axis(given["alpha"]), zero), "the twist was used in degrees"),
            ((one_axis(-twist), zero), "the twist turns the wrong way")]
