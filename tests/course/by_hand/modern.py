"""Variants of chapter 07's questions (issue 24, item 5): Lynch & Park's modern form
(*Modern Robotics*, Ch. 8) with givens of each student's own, and chapter 05's first question.

- T.1, a thin rod's spatial inertia in a frame {a} on the rod, ``d l`` from its centre
  (Sec. 8.2 takes the rod's end, d = 1/2);
- T.2, T.3, T.4, the forward pass, the backward step and ``M = A^T L^T G L A`` of the 2R arm of
  Sec. 8.1.1 whose mass 2 (and frame {2}) sits at ``rho L2`` from joint 2 (the book's at the end,
  rho = 1); each question draws its own rho;
- C.1, the gravity compensation of the two-link arm of Fu, Gonzalez & Lee (Sec. 3.2.6) whose
  gripper holds a payload ``Mp`` at the tip of link 2 (the book's arm carries none).

Each right answer here is written by hand from the printed formulas (Steiner's theorem for the
rod; the point mass's velocity and acceleration in link 2's axes, its torque about joint 2 and
the Lagrangian mass matrix of Sec. 8.1.1 with ``rho L2`` for ``L2``; the gradient of the potential
energy of the rods and the payload), never read from a key.
Shown: (a) the right answer at a student's practice values earns full points, for two students;
(b) one student's answer earns 0 for the other; (c) under a course secret, the answer at the
practice values earns 0 and the one at the graded values full points; (d) every typical mistake
is still named at other students' values.
"""

from __future__ import annotations

import sympy
from sympy import Matrix, cos, sin, zeros

m, l, m1, m2, L1, L2, g = sympy.symbols("m l m1 m2 L1 L2 g", positive=True)
theta, q1, q2, qd1, qd2, qdd1, qdd2 = sympy.symbols("theta q1 q2 qd1 qd2 qdd1 qdd2", real=True)
S2, C2, S12, C12 = sin(q2), cos(q2), sin(q1 + q2), cos(q1 + q2)


def skew(p):
    return Matrix([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])


def adjoint(R, p):
    """[Ad_T] of T = (R, p) (Lynch & Park, Sec. 3.3.2): [[R, 0], [[p] R, R]]."""
    return Matrix(sympy.BlockMatrix([[R, zeros(3, 3)], [skew(p) * R, R]]))


def rz(angle):
    return Matrix([[cos(angle), -sin(angle), 0], [sin(angle), cos(angle), 0], [0, 0, 1]])


G_ROD = sympy.diag(0, m * l**2 / 12, m * l**2 / 12, m, m, m)     # Sec. 8.2, at the centre


def rod(d):
    """The rod's G_a by Steiner's theorem: the centre c = d l (cos theta, sin theta, 0) in {a},
    the inertia about it turned by Rz(theta), and the blocks [[I_c + m [c][c]^T, m [c]],
    [m [c]^T, m 1]]."""
    c = rz(theta) * Matrix([d * l, 0, 0])
    inertia = rz(theta) * sympy.diag(0, m * l**2 / 12, m * l**2 / 12) * rz(theta).T
    return Matrix(sympy.BlockMatrix([[inertia + m * skew(c) * skew(c).T, m * skew(c)],
                                     [m * skew(c).T, m * sympy.eye(3)]]))


def twist(r):
    """V_2 and Vdot_2 of the 2R arm with mass 2 at r from joint 2, in frame {2} (x along link 2):
    the point's velocity (L1 S2 qd1, L1 C2 qd1 + r (qd1 + qd2)) in link 2's axes, and the rate of
    those coordinates with the base's upward g, Vdot_0 = (0, 0, 0, 0, g, 0)."""
    V2 = Matrix([0, 0, qd1 + qd2, L1 * S2 * qd1, L1 * C2 * qd1 + r * (qd1 + qd2), 0])
    Vdot2 = Matrix([0, 0, qdd1 + qdd2, L1 * C2 * qd1 * qd2 + L1 * S2 * qdd1 + g * S12,
                    -L1 * S2 * qd1 * qd2 + L1 * C2 * qdd1 + r * (qdd1 + qdd2) + g * C12, 0])
    return V2, Vdot2


def wrench(r):
    """F_2 (no moment about the point mass, the force m2 (vdot + omega x v)) and tau_2 = r times
    its y component: the tau_2 of Sec. 8.1.1 with r for L2."""
    V2, Vdot2 = twist(r)
    acceleration = Vdot2[3:, 0] + V2[:3, 0].cross(V2[3:, 0])
    F2 = Matrix([0, 0, 0, m2 * acceleration[0], m2 * acceleration[1], 0])
    tau2 = m2 * (L1 * r * C2 + r**2) * qdd1 + m2 * r**2 * qdd2 + m2 * L1 * r * S2 * qd1**2 \
        + m2 * g * r * C12
    return F2, tau2


def stacked(r):
    """L A (the links' body Jacobians) and the Lagrangian mass matrix of Sec. 8.1.1 with mass 2
    at r from joint 2."""
    LA = Matrix([[0, 0], [0, 0], [1, 0], [0, 0], [L1, 0], [0, 0],
                 [0, 0], [0, 0], [1, 1], [L1 * S2, 0], [L1 * C2 + r, r], [0, 0]])
    M = Matrix([[m1 * L1**2 + m2 * (L1**2 + 2 * L1 * r * C2 + r**2), m2 * (L1 * r * C2 + r**2)],
                [m2 * (L1 * r * C2 + r**2), m2 * r**2]])
    return LA, M


def gravity(payload):
    """c = dP/dq of Fu, Gonzalez & Lee's arm (rods of length l, centres at their middles, y0 up)
    with a point payload at the tip of link 2: P = m1 g (l/2) S1 + m2 g (l S1 + (l/2) S12)
    + Mp g (l S1 + l S12)."""
    P = m1 * g * l / 2 * sin(q1) + m2 * g * (l * sin(q1) + l / 2 * S12) \
        + payload * g * l * (sin(q1) + S12)
    return Matrix([P.diff(q1), P.diff(q2)])


def right(question: str, given: dict):
    """The answer for these givens, by hand."""
    if question == "C.1":
        return gravity(given["Mp"])
    if question == "T.1":
        return rod(given["d"])
    r = given["rho"] * L2
    return {"T.2": twist, "T.3": wrench, "T.4": stacked}[question](r)


def mistakes(question: str, given: dict) -> list:
    """``[(answer, words of the feedback)]``: each typical slip, at these givens."""
    if question == "C.1":
        Mp = given["Mp"]
        c, tip = gravity(Mp), Matrix([g * l * (cos(q1) + C12), g * l * C12])
        at_the_tips = Matrix([g * l * ((m1 + m2 + Mp) * cos(q1) + (m2 + Mp) * C12),
                              g * l * (m2 + Mp) * C12])
        return [(-c, "add +c(q), the torque gravity takes away"),
                (at_the_tips, "each link's mass sits at its middle"),
                (gravity(0), "the payload is missing"),
                (gravity(0) + Mp * Matrix([0, g * l * C12]), "the payload loads joint 1 too"),
                (c - Mp * tip / 2, "the payload sits at the TIP of link 2")]
    if question == "T.1":
        d = given["d"]
        G_a = rod(d)
        c = rz(theta) * Matrix([d * l, 0, 0])
        ad_ab, ad_ba = adjoint(rz(theta), c), adjoint(rz(theta).T, -rz(theta).T * c)
        return [(ad_ab.T * G_ROD * ad_ab, "not [Ad_{T_ab}]"),
                (ad_ba * G_ROD * ad_ba.T, "(transpose on the left)"),
                (G_a.subs(theta, 0), "that is the spatial inertia for theta = 0"),
                (sympy.diag(G_a[:3, :3], m * sympy.eye(3)),
                 "the off-diagonal blocks m [p] are missing"),
                (rod(sympy.Rational(1, 2)), "that is the rod seen from its END")]
    r = given["rho"] * L2
    book = "that is the arm of Sec. 8.1.1, mass 2 at the END of link 2"
    if question == "T.2":
        V2, Vdot2 = twist(r)
        A2 = Matrix([0, 0, 1, 0, r, 0])
        bracket = Matrix(sympy.BlockMatrix([[skew(V2[:3, 0]), zeros(3, 3)],
                                            [skew(V2[3:, 0]), skew(V2[:3, 0])]])) * A2 * qd2
        V_end, Vdot_end = twist(L2)
        return [((Matrix([0, 0, qd1 + qd2, 0, L1 * qd1 + r * qd2, 0]), Vdot2),
                 "bring V_1 into frame {2} with Ad_{T_21}"),
                ((V2, Vdot2.subs(g, -g)), "the printed initialisation (0, g)"),
                ((V2, Vdot2.subs(g, 0)), "the recursion starts from Vdot_0"),
                ((V2, Vdot2 - bracket), "the joint's screw turns with the link"),
                ((V_end, Vdot2), book), ((V2, Vdot_end), book)]
    if question == "T.3":
        F2, tau2 = wrench(r)
        _, Vdot2 = twist(r)
        no_bias = Matrix([0, 0, 0, m2 * Vdot2[3], m2 * Vdot2[4], 0])
        F_end, tau_end = wrench(L2)
        return [((no_bias, tau2), "the term -ad^T_{V_2}(G_2 V_2) is missing"),
                ((2 * no_bias - F2, tau2), "the bias term enters with a minus sign"),
                ((F2, r * no_bias[4]), "and with it the centrifugal torque"),
                ((F_end, tau2), book), ((F2, tau_end), book)]
    LA, M = stacked(r)
    A = Matrix([[0, 0], [0, 0], [1, 0], [0, 0], [L1, 0], [0, 0],
                [0, 0], [0, 0], [0, 1], [0, 0], [0, r], [0, 0]])
    Ad21 = adjoint(rz(q2).T, Matrix([-r, 0, 0]))              # T_21 = T_12^-1
    L_transposed = Matrix(sympy.BlockMatrix([[sympy.eye(6), Ad21.T], [zeros(6, 6), sympy.eye(6)]]))
    LA_end, M_end = stacked(L2)
    return [((A, M), "LA: that is A alone"),
            ((L_transposed * A, M), "L is block LOWER triangular"),
            ((LA, sympy.diag(m1 * L1**2, m2 * r**2)), "that is A^T G A, without L"),
            ((LA_end, M), book), ((LA, M_end), book)]


#: A point of the symbols at which answers are compared by hand here
AT = {m: 1.3, l: 0.7, m1: 1.1, m2: 0.6, L1: 0.9, L2: 0.5, g: 9.8, theta: 0.4, q1: 0.3,
      q2: 2.2, qd1: 0.7, qd2: -1.3, qdd1: 0.8, qdd2: -0.4}
