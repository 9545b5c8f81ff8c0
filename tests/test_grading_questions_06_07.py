"""The graded questions of solutions/06_dalembert_newton_euler_and_simulation and
solutions/07_modern_form: each right answer, written here in plain closed form (or computed by
hand, not by dynlab), passes in under 2 s, and each typical wrong answer gets its specific
feedback.  The same checks as tests/test_grading.py's table, on these questions."""

import math

import pytest
import sympy
from scipy.special import ellipk
from sympy import Matrix, cos, sin, sqrt, zeros

from dynlab.grading import Feedback, check, keys, questions, reset

#: grading one answer (a student's shift-enter) must take less than this (issue 5)
SECONDS_PER_ANSWER = 2.0
NOTEBOOKS = ("06_dalembert_newton_euler_and_simulation", "07_modern_form")

m1, m2, l, g, F, a1 = sympy.symbols("m1 m2 l g F a1", positive=True)
q1, q2, qd1, qd2, qdd1, qdd2 = sympy.symbols("q1 q2 qd1 qd2 qdd1 qdd2", real=True)
S1, C1, S2, C2 = sin(q1), cos(q1), sin(q2), cos(q2)
S12, C12 = sin(q1 + q2), cos(q1 + q2)

# -- Fu, Gonzalez & Lee's two-link arm (Sec. 3.2.6): rods of length l, y0 up ---------------------
D_FU = Matrix([[m1 * l**2 / 3 + 4 * m2 * l**2 / 3 + m2 * C2 * l**2,
                m2 * l**2 / 3 + m2 * l**2 * C2 / 2],
               [m2 * l**2 / 3 + m2 * l**2 * C2 / 2, m2 * l**2 / 3]])
D_ROT = Matrix([[(m1 + m2) * l**2 / 12, m2 * l**2 / 12], [m2 * l**2 / 12, m2 * l**2 / 12]])
D_TRAN = D_FU - D_ROT
H_TRAN = Matrix([-m2 * l**2 * S2 * (qd1 * qd2 + qd2**2 / 2), m2 * l**2 * S2 * qd1**2 / 2])
# Sec. 3.3.7, link 2 in frame 2 (v_dot_0 = (0, g, 0))
OMEGA2, OMEGA_DOT2 = Matrix([0, 0, qd1 + qd2]), Matrix([0, 0, qdd1 + qdd2])
V_DOT2 = Matrix([l * (S2 * qdd1 - C2 * qd1**2 - qd1**2 - qd2**2 - 2 * qd1 * qd2) + g * S12,
                 l * (qdd1 + qdd2 + C2 * qdd1 + S2 * qd1**2) + g * C12, 0])
A_BAR2 = Matrix([l * (S2 * qdd1 - C2 * qd1**2 - qd1**2 / 2 - qd2**2 / 2 - qd1 * qd2) + g * S12,
                 l * (C2 * qdd1 + S2 * qd1**2 + qdd1 / 2 + qdd2 / 2) + g * C12, 0])
F2 = m2 * A_BAR2
N2 = Matrix([0, 0, m2 * l**2 / 3 * (qdd1 + qdd2) + m2 * l**2 / 2 * (C2 * qdd1 + S2 * qd1**2)
             + m2 * g * l * C12 / 2])
# Schilling, Sec. 6-9-2, with the load: f^2 = -f^tool = (0, F, 0)
F1 = m1 * Matrix([-a1 * (S1 * qdd1 + C1 * qd1**2) / 2, g + a1 * (C1 * qdd1 - S1 * qd1**2) / 2, 0]) \
    + Matrix([0, F, 0])
TAU1 = m1 * a1**2 * qdd1 / 3 + g * m1 * a1 * C1 / 2 + F * a1 * C1
N1 = Matrix([0, 0, TAU1])
# the dashboard of chapter 02 at q = (pi/3, -pi/3), qd = (1, 0.5), qdd = (1, -1), l = 1 m, m1 = 2 kg
G0 = 9.8062
C1_LOADED = G0 * ((2.0 / 2 + 2.0 + 0.3) * math.cos(math.pi / 3) + (2.0 / 2 + 0.3) * 1.0)
H2_FAST = 1.0 * math.sin(-math.pi / 3) * 2.0**2 / 2            # m2 l^2 S2 qd1^2 / 2
# the pendulum (a = 0.5 m): period at 45 degrees (chapter 07's exact formula), Euler by hand
A_PEND = 0.5
T0 = 2 * math.pi * math.sqrt(2 * A_PEND / (3 * G0))
T45 = T0 * 2 / math.pi * ellipk(math.sin(math.radians(22.5))**2)


def euler_energy_gain(h=0.01, seconds=2.0, a=A_PEND, m=1.0):
    """Lynch & Park, Sec. 9.5's Euler steps on the pendulum released at rest from q = 0:
    qdd = -3 g cos q / (2 a), E = m a^2 qd^2 / 6 + m g (a/2) sin q."""
    q, qd = 0.0, 0.0
    for _ in range(round(seconds / h)):
        qdd = -3 * G0 * math.cos(q) / (2 * a)
        q, qd = q + h * qd, qd + h * qdd
    return m * a**2 * qd**2 / 6 + m * G0 * a / 2 * math.sin(q)


# -- Lynch & Park: the rod of Eq. (9.32), the 2R arm of Sec. 9.1.1 -------------------------------
m, theta = sympy.Symbol("m", positive=True), sympy.Symbol("theta", real=True)
L1, L2 = sympy.symbols("L1 L2", positive=True)


def skew(p):
    return Matrix([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])


R_AB = Matrix([[cos(theta), -sin(theta), 0], [sin(theta), cos(theta), 0], [0, 0, 1]])
CENTRE = R_AB * Matrix([l / 2, 0, 0])
I_ROD = R_AB * sympy.diag(0, m * l**2 / 12, m * l**2 / 12) * R_AB.T
G_A = Matrix(sympy.BlockMatrix([[I_ROD + m * skew(CENTRE) * skew(CENTRE).T, m * skew(CENTRE)],
                                [m * skew(CENTRE).T, m * sympy.eye(3)]]))
V2 = Matrix([0, 0, qd1 + qd2, L1 * S2 * qd1, L1 * C2 * qd1 + L2 * (qd1 + qd2), 0])
VDOT2 = Matrix([0, 0, qdd1 + qdd2, L1 * C2 * qd1 * qd2 + L1 * S2 * qdd1 + g * S12,
                -L1 * S2 * qd1 * qd2 + L1 * C2 * qdd1 + L2 * (qdd1 + qdd2) + g * C12, 0])
A_STACK = Matrix([[0, 0], [0, 0], [1, 0], [0, 0], [L1, 0], [0, 0],
                  [0, 0], [0, 0], [0, 1], [0, 0], [0, L2], [0, 0]])
LA = Matrix([[0, 0], [0, 0], [1, 0], [0, 0], [L1, 0], [0, 0],
             [0, 0], [0, 0], [1, 1], [L1 * S2, 0], [L1 * C2 + L2, L2], [0, 0]])
M_LP = Matrix([[m1 * L1**2 + m2 * (L1**2 + 2 * L1 * L2 * C2 + L2**2), m2 * (L1 * L2 * C2 + L2**2)],
               [m2 * (L1 * L2 * C2 + L2**2), m2 * L2**2]])

RIGHT = {
    "G.1": (D_ROT, D_TRAN),
    "G.2": (zeros(2, 1), H_TRAN),
    "N.1": (OMEGA2, OMEGA_DOT2),
    "N.2": (V_DOT2, A_BAR2),
    "N.3": (F2, N2),
    "N.4": (F1, N1, TAU1),
    "D.1": C1_LOADED,
    "D.2": H2_FAST,
    "S.1": T45,
    "S.2": euler_energy_gain(),
    "T.1": G_A,
    "T.2": (V2, VDOT2),
    "T.3": (LA, M_LP),
}
