"""Variants of symbolic questions (issue 24, item 5): a symbolic key may declare givens, and a
student's answer is an expression in the question's symbols with their own numbers of the givens
in it (their code reads ``given = variant(...)``).

The key's reference and its typical mistakes are expressions in the symbols and the givens; the
checker puts in the student's values (practice values in ``check()``, graded values under the
course secret in the marks routes) and compares at fresh points of the symbols, as for every
symbolic question.  Shown on four questions whose given enters the physics:

- C.2, the computed-torque law of Schilling's pendulum (Sec. 6-9), with the student's gains
  ``Kp``, ``Kd``;
- C.3, the derivative gain that gives PD plus gravity compensation on that pendulum the student's
  damping ratio ``zeta`` (chapter 08: ``zeta = Kd / (2 sqrt(Kp D))``);
- k12, Tourassis & Neuman's coefficient of coupling (Eqs. (32)-(34)) of the two-link arm of Fu,
  Gonzalez & Lee, Sec. 3.2.6, whose link 2 weighs ``mu`` times link 1;
- Mp, what a point payload adds to D and c of the arm of the thesis appendix, App. B, clamped at
  ``rho l2`` from joint 2 (the appendix's is at the tip).

Each right answer here is written by hand from the printed formula, not read from a key.
"""

from __future__ import annotations

import sympy
from sympy import Matrix, cos, sqrt

m1, a1, g, Kp, M1, M2, Mp, l, l1, l2, I1, I2 = sympy.symbols(
    "m1 a1 g Kp M1 M2 Mp l l1 l2 I1 I2", positive=True)
q1, q2, qd1, qr, qdr, qddr = sympy.symbols("q1 q2 qd1 qr qdr qddr", real=True)
#: Schilling, Sec. 6-9 (Eq. (6-9-10)): the pendulum's D = m1 a1^2/3, h = 0, c = m1 g a1 C1/2
D_PENDULUM, C_PENDULUM = m1 * a1**2 / 3, m1 * g * a1 * cos(q1) / 2


def coupling(mu) -> tuple:
    """(k12, LF, KF) of Tourassis & Neuman, Eqs. (32)-(34), for the two-link arm of Fu, Gonzalez
    & Lee, Sec. 3.2.6 (uniform rods of length l), with m2 = mu m1, by hand from its inertia matrix
    d11 = l^2 (m1/3 + m2 (4/3 + C2)), d12 = m2 l^2 (1/3 + C2/2), d22 = m2 l^2/3."""
    m2 = mu * m1
    d11 = l**2 * (m1 / 3 + m2 * (sympy.Rational(4, 3) + cos(q2)))
    d12 = m2 * l**2 * (sympy.Rational(1, 3) + cos(q2) / 2)
    d22 = m2 * l**2 / 3
    k12 = sympy.Abs(d12) / sqrt(d11 * d22)
    LF = sqrt(m2 / (m1 + m2))                     # the mass moved by joint 2 over joint 1's
    return k12, LF, k12 / LF, (d11, d12, d22)


def payload(r):
    """What a point mass Mp at distance ``r`` from joint 2 along link 2 adds to D and c, written
    out by hand: its place x_p = (l1 C1 + r C12, l1 S1 + r S12) (q2 relative to link 1, gravity
    along -y0) gives the kinetic energy Mp |xd_p|^2 / 2 and the potential energy Mp g y_p."""
    c2, c1, c12 = cos(q2), cos(q1), cos(q1 + q2)
    dD = Mp * Matrix([[l1**2 + 2 * l1 * r * c2 + r**2, r**2 + l1 * r * c2],
                      [r**2 + l1 * r * c2, r**2]])
    dc = Mp * g * Matrix([l1 * c1 + r * c12, r * c12])
    return dD, dc


def right(question: str, given: dict):
    """The answer for these givens, by hand from the printed formula."""
    if question == "C.2":                 # tau = D (qdd_r + Kd e' + Kp e) + h + c, e = q_r - q
        return D_PENDULUM * (qddr + given["Kd"] * (qdr - qd1) + given["Kp"] * (qr - q1)) \
            + C_PENDULUM
    if question == "C.3":                 # zeta = Kd / (2 sqrt(Kp D))
        return 2 * given["zeta"] * sqrt(Kp * D_PENDULUM)
    if question == "k12":
        return coupling(given["mu"])[:3]
    return payload(given["rho"] * l2)


def mistakes(question: str, given: dict) -> list:
    """``[(answer, words of the feedback)]``: each typical slip, at these givens."""
    if question == "C.2":
        Kp_, Kd_ = given["Kp"], given["Kd"]
        law = right(question, given)
        return [(qddr + Kd_ * (qdr - qd1) + Kp_ * (qr - q1) + C_PENDULUM,
                 "goes through the inertia D(q)"),
                (law - C_PENDULUM, "the model's gravity c(q) is missing"),
                (D_PENDULUM * (qddr + Kd_ * (qd1 - qdr) + Kp_ * (q1 - qr)) + C_PENDULUM,
                 "the feedback has the wrong sign"),
                (D_PENDULUM * (qddr + Kp_ * (qdr - qd1) + Kd_ * (qr - q1)) + C_PENDULUM,
                 "your gains are swapped")]
    if question == "C.3":
        zeta = given["zeta"]
        return [(2 * zeta * sqrt(Kp), "sees the pendulum's inertia m1 a1^2/3"),
                (zeta * sqrt(Kp * D_PENDULUM), "a factor of 2 is missing"),
                (2 * sqrt(Kp * D_PENDULUM), "that is critical damping (zeta = 1)"),
                (2 * sqrt(Kp * D_PENDULUM) / zeta, "multiply by zeta, do not divide")]
    if question == "k12":
        mu = given["mu"]
        k12, LF, KF, (d11, d12, d22) = coupling(mu)
        return [((d12 / sqrt(d11 * d22), LF, KF), "takes the absolute value |d12|"),
                ((k12**2, LF, KF), "that is k12 squared"),
                ((k12, sqrt(1 / (1 + mu)), KF), "the mass moved by joint j = 2"),
                ((k12, mu / (1 + mu), KF), "takes the square root of the mass ratio")]
    dD, dc = right(question, given)
    tip, middle = payload(l2), payload(l2 / 2)
    r = given["rho"] * l2
    sideways = Matrix([sympy.diff(Mp * g * (l1 * cos(q1) + r * cos(q1 + q2)), v)
                       for v in (q1, q2)])
    return [((tip[0], dc), "that is the payload at the tip"),
            ((dD, tip[1]), "that is the payload at the tip"),
            ((middle[0], dc), "that is the payload at the middle of link 2"),
            ((dD, -dc), "gravity points along -y0"),
            ((dD, sideways), "gravity acts along the wrong axis"),
            ((dD, -sideways), "gravity acts along the wrong axis")]


#: A point of the symbols at which answers are compared by hand here (cos q2 < -2/3: d12 < 0)
AT = {m1: 1.3, a1: 0.7, g: 9.8, Kp: 17.0, Mp: 0.6, l: 0.8, l1: 0.9, l2: 0.5, q1: 0.4, q2: 2.5,
      qd1: 0.3, qr: 1.2, qdr: -0.4, qddr: 0.8}
