"""The checker of the graded exercises (dynlab.grading): right answers in any equivalent form pass,
typical wrong answers get their specific feedback, nothing raises into the notebook, the keys hold
no readable answer, and grading one answer takes under 2 s."""

import importlib
import json
import math
import time

import numpy as np
import pytest
import sympy
from sympy import Matrix, Rational, cos, sin, sqrt, zeros

from dynlab import equations_of_motion, inverse_dynamics
from dynlab.grading import (
    KEY_DIRECTORY,
    Feedback,
    Session,
    check,
    fresh_points,
    keys,
    questions,
    summary,
    variant,
)
from dynlab.model.robots import planar_2r, puma560

#: grading one answer (a student's shift-enter) must take less than this (issue 5)

t = sympy.Symbol("t", positive=True)
M, a, b, c_ = sympy.symbols("M a b c", positive=True)
alpha, theta = sympy.symbols("alpha theta", real=True)
m1, m2, d1, d2, g = sympy.symbols("m1 m2 d1 d2 g", positive=True)
q1, q2, qd1, qd2, qdd1, qdd2 = sympy.symbols("q1 q2 qd1 qd2 qdd1 qdd2", real=True)
r1 = sympy.Symbol("r1", positive=True)
L1, L2 = sympy.symbols("L1 L2", positive=True)
# Prob. 3.12 asks about the student's own arm of N_3_12 joints (a given drawn per student; the
# tests run as the student "student", conftest.py), whose Newton-Euler routine costs 132n
# multiplications and 111n - 4 additions a call (Fu, Gonzalez & Lee, Table 3.5)
N_3_12 = int(variant("3.12")["n"])
CALL_3_12 = (132 * N_3_12, 111 * N_3_12 - 4)
S2, C2, S12 = sin(q2), cos(q2), sin(q1 + q2)


# -- right answers (what the solutions derive), in plain closed form ------------------------------
def rz(angle):
    return Matrix([[cos(angle), -sin(angle), 0], [sin(angle), cos(angle), 0], [0, 0, 1]])


def rx(angle):
    return Matrix([[1, 0, 0], [0, cos(angle), -sin(angle)], [0, sin(angle), cos(angle)]])


def parallel_axes(mass, d):
    d = Matrix(d)
    return mass * ((d.T * d)[0] * sympy.eye(3) - d * d.T)


# Probs. 3.5 to 3.8: each student's cube and block have their centre of mass where
# variant("3.5") puts them, (dx a, dy a, dz a) and (dx a, dy b, dz c) (the student "student")
PLACE = [Rational(variant("3.5")[name]) for name in ("dx", "dy", "dz")]
CUBE_CENTRE = Rational(2, 3) * M * a**2 * sympy.eye(3)
CUBE_O = CUBE_CENTRE + parallel_axes(M, [x * a for x in PLACE])
BLOCK_CENTRE = M / 3 * sympy.diag(b**2 + c_**2, a**2 + c_**2, a**2 + b**2)
BLOCK_O = BLOCK_CENTRE + parallel_axes(M, [x * h for x, h in zip(PLACE, (a, b, c_))])
R_TURN = rz(alpha) * rx(theta)

# Prob. 3.14 asks about the student's own link: its pseudo-inertia J_i holds the numbers of
# variant("3.14") (the student "student"), the entries it does not name 0
J_LINK = Matrix(4, 4, lambda r, c: Rational(repr(variant("3.14").get(
    f"J{min(r, c) + 1}{max(r, c) + 1}", 0))))
_S, _MR, _M = J_LINK[:3, :3], J_LINK[:3, 3], J_LINK[3, 3]
I_ORIGIN = _S.trace() * sympy.eye(3) - _S
I_CENTRE = I_ORIGIN - ((_MR.T * _MR)[0] * sympy.eye(3) - _MR * _MR.T) / _M


def dh(theta_, a_, d_=0):
    return Matrix([[cos(theta_), -sin(theta_), 0, a_ * cos(theta_)],
                   [sin(theta_), cos(theta_), 0, a_ * sin(theta_)],
                   [0, 0, 1, d_], [0, 0, 0, 1]])


# the arm on the ceiling, x0 down (Fu, Gonzalez & Lee, Probs. 3.16-3.17), with each student's
# own givens (variant("3.16"); the tests run as the student "student", conftest.py): the masses
# lumped at rho_i d_i from joint i, each a thin rod of length w along its joint axis, link 2
# hanging e beside link 1 along z1, in a lift accelerating up by a_lift (gravity g + a_lift)
ARM = variant("3.16")
A1, A2 = dh(q1, d1), dh(q2, d2, ARM["e"])
ROD = [sympy.diag(m * ARM["w"]**2 / 12, m * ARM["w"]**2 / 12, 0) for m in (m1, m2)]
R1, R2, PULL = ARM["rho1"] * d1, ARM["rho2"] * d2, g + ARM["a_lift"]
D_CEIL = Matrix([[m1 * R1**2 + m2 * (d1**2 + R2**2 + 2 * d1 * R2 * C2),
                  m2 * R2**2 + m2 * d1 * R2 * C2],
                 [m2 * R2**2 + m2 * d1 * R2 * C2, m2 * R2**2]])
H_CEIL = Matrix([-m2 * d1 * R2 * S2 * (2 * qd1 * qd2 + qd2**2), m2 * d1 * R2 * S2 * qd1**2])
C_CEIL = Matrix([PULL * (m1 * R1 * sin(q1) + m2 * (d1 * sin(q1) + R2 * S12)),
                 PULL * m2 * R2 * S12])
# the masses from the origins of their frames (the far ends of the links), and their J_i
S_CEIL = [Matrix([-(1 - ARM["rho1"]) * d1, 0, 0]), Matrix([-(1 - ARM["rho2"]) * d2, 0, 0])]
J_CEIL = [mass * Matrix([*s_, 1]) * Matrix([[*s_, 1]]) + sympy.diag(0, 0, rod[0, 0], 0)
          for mass, s_, rod in zip((m1, m2), S_CEIL, ROD)]
TAU_CEIL = D_CEIL * Matrix([qdd1, qdd2]) + H_CEIL + C_CEIL
# the theta-d arm (Fu, Gonzalez & Lee, Prob. 3.18), with m2 at the student's e beyond the inner
# end of link 2, at d + e (a given drawn per student, the student "student")
R_TD = q2 + Rational(repr(variant("3.18")["e"]))
D_TD = sympy.diag(m1 * r1**2 + m2 * R_TD**2, m2)
H_TD = Matrix([2 * m2 * R_TD * qd1 * qd2, -m2 * R_TD * qd1**2])
C_TD = Matrix([g * cos(q1) * (m1 * r1 + m2 * R_TD), m2 * g * sin(q1)])
# the 2R arm of Lynch & Park, Sec. 8.1.1
M_LP = Matrix([[m1 * L1**2 + m2 * (L1**2 + 2 * L1 * L2 * C2 + L2**2), m2 * (L1 * L2 * C2 + L2**2)],
               [m2 * (L1 * L2 * C2 + L2**2), m2 * L2**2]])
C_LP = m2 * L1 * L2 * S2 * Matrix([[-qd2, -(qd1 + qd2)], [qd1, 0]])
MDOT_LP = M_LP.diff(q1) * qd1 + M_LP.diff(q2) * qd2
J_LP = Matrix([[-L1 * sin(q1) - L2 * S12, -L2 * S12], [L1 * cos(q1) + L2 * cos(q1 + q2),
                                                      L2 * cos(q1 + q2)]])
_J_INV = J_LP.adjugate() / J_LP.det()                    # the 2x2 inverse in closed form
LAMBDA_LP = _J_INV.T * M_LP * _J_INV
# its regressor in a horizontal plane, pi = ((m1 + m2) L1^2, m2 L1 L2, m2 L2^2)
Y_LP = Matrix([[qdd1, 2 * C2 * qdd1 + C2 * qdd2 - S2 * (2 * qd1 * qd2 + qd2**2), qdd1 + qdd2],
               [0, C2 * qdd1 + S2 * qd1**2, qdd1 + qdd2]])
assert sympy.expand(Y_LP * Matrix([(m1 + m2) * L1**2, m2 * L1 * L2, m2 * L2**2])
                    - (M_LP * Matrix([qdd1, qdd2]) + C_LP * Matrix([qd1, qd2]))) == zeros(2, 1)
# the question's arm moves in a plane tilted by the student's beta, with the student's known L1
# (variant("Y")): gravity's (m1 + m2) g' L1 C1 and m2 g' L2 C12, g' = g sin(beta), are pi1 and pi2
# times g'/L1
_PULL = g * sin(sympy.pi * Rational(repr(variant("Y")["beta"])) / 180) / Rational(
    repr(variant("Y")["L1"]))
Y_TILT = Y_LP + _PULL * Matrix([[cos(q1), cos(q1 + q2), 0], [0, cos(q1 + q2), 0]])
# Probs. 3.2 and 3.3 ask about the student's own frames (givens of the student "student"): the
# frame's velocity kx t i + ky t j + 4 k, and the starred frame's turning rate w
KX, KY = (int(variant("3.2")[name]) for name in ("kx", "ky"))
W = sympy.Rational(repr(variant("3.3")["w"]))
A32 = [KX, KY, 0]
# 9.1 and 9.98 ask about the student's own arm of this family (givens of the student "student"):
# L2 = ratio L1, and for 9.98 also m2 = mu m1; a given goes in as the exact decimal it is
ARM_91, ARM_998 = variant("9.1"), variant("9.98")
MINE_91 = {L2: sympy.Rational(repr(ARM_91["ratio"])) * L1}
MINE_998 = {L2: sympy.Rational(repr(ARM_998["ratio"])) * L1,
            m2: sympy.Rational(repr(ARM_998["mu"])) * m1}
M_91, C_91, MDOT_91 = (x.subs(MINE_91) for x in (M_LP, C_LP, MDOT_LP))
J_998, M_998 = J_LP.subs(MINE_998), M_LP.subs(MINE_998)
_J_INV_998 = J_998.adjugate() / J_998.det()
LAMBDA_998 = _J_INV_998.T * M_998 * _J_INV_998
# the two-link arm of Fu, Gonzalez & Lee, Sec. 3.2.6 (rods), for Tourassis & Neuman's coefficient
# of coupling
l = sympy.Symbol("l", positive=True)
D_FU = Matrix([[m1 * l**2 / 3 + 4 * m2 * l**2 / 3 + m2 * C2 * l**2,
                m2 * l**2 / 3 + m2 * l**2 * C2 / 2],
               [m2 * l**2 / 3 + m2 * l**2 * C2 / 2, m2 * l**2 / 3]])
K12 = sympy.Abs(D_FU[0, 1]) / sqrt(D_FU[0, 0] * D_FU[1, 1])
LF = sqrt(m2 / (m1 + m2))
# k12's arm has m2 = mu m1, mu a given drawn per student (the student "student", conftest.py)
MU = {m2: variant("k12")["mu"] * m1}
# the thesis appendix's payload, clamped at rho l2 from joint 2 (rho: a given drawn per student;
# the tests run as the student "student", conftest.py)
l1, l2, Mp = sympy.symbols("l1 l2 Mp", positive=True)
RHO = variant("Mp")["rho"]


def payload_at(r):
    """(dD, dc) of a point payload Mp at distance r from joint 2 along link 2, and its place."""
    place = Matrix([l1 * cos(q1) + r * cos(q1 + q2), l1 * sin(q1) + r * sin(q1 + q2)])
    jacobian = place.jacobian([q1, q2])
    return (Mp * jacobian.T * jacobian, Matrix([Mp * g * place[1].diff(v) for v in (q1, q2)]),
            place)


DD_MP, DC_MP, PLACE = payload_at(RHO * l2)
# Schilling Exercise 6-4-1
m = sympy.Symbol("m", positive=True)
a_, d_, rx_, ry_, rz_ = sympy.symbols("a d rx ry rz", real=True)
# the link's twist is the student's (a given in degrees, drawn per student: the student "student")
al = sympy.pi * Rational(repr(variant("6-4-1")["alpha"])) / 180
Ixx, Iyy, Izz = sympy.symbols("Ixx Iyy Izz", positive=True)
Ixy, Ixz, Iyz = sympy.symbols("Ixy Ixz Iyz", real=True)
_axis = Matrix([0, sin(al), cos(al)])            # z0 in frame 1
_I = Matrix([[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]])
PARALLEL_6_4_1 = m * ((a_ + rx_)**2 + (ry_ * cos(al) - rz_ * sin(al))**2)
D11_6_4_1 = (_axis.T * _I * _axis)[0] + PARALLEL_6_4_1


# Prob. 3.11's state and Prob. 3.13(a)'s ceiling have givens drawn per student
# (dynlab.grading.variants): the tests run as the student "student" (conftest.py), whose values
# these are
PUMA_STATE = variant("3.11")
PUMA_Q = np.array([30.0, PUMA_STATE["q2"], PUMA_STATE["q3"]])
PUMA_QD = np.array([PUMA_STATE["qd1"], PUMA_STATE["qd2"], PUMA_STATE["qd3"]])
CEILING = variant("3.13a")
# Prob. 3.13(b): the letter under which the student sees each explanation of the notebook's list
# (its place k of the list, turned by their variant("3.13b")["turn"], stands under letter
# (k - turn) mod 4)
LETTER = ["ABCD"[(k - int(variant("3.13b")["turn"])) % 4] for k in range(4)]
# gravity on the sloping ceiling, in frame 0 = Rz(tilt) of the level ceiling's (x0 down)
GRAVITY_0 = [CEILING["g"] * math.cos(math.radians(CEILING["tilt"])),
             -CEILING["g"] * math.sin(math.radians(CEILING["tilt"])), 0.0]
G_LE, V0_NE = GRAVITY_0 + [0.0], [-x for x in GRAVITY_0]


def puma_terms(q_degrees_as_radians=True):
    arm = puma560(joints=3)
    q = np.radians(PUMA_Q) if q_degrees_as_radians else PUMA_Q
    qd = PUMA_QD
    zero = np.zeros(3)
    c = inverse_dynamics(arm, q, zero, zero)
    h = inverse_dynamics(arm, q, qd, zero, gravity=False)
    D = np.column_stack([inverse_dynamics(arm, q, zero, e, gravity=False) for e in np.eye(3)])
    return D, h, c


PUMA = puma_terms()
PUMA_DEGREES = puma_terms(False)


def puma_probed_moving():
    """c and D probed with the velocities left on (the probing slips of Prob. 3.11)."""
    arm = puma560(joints=3)
    q, qd, zero = np.radians(PUMA_Q), PUMA_QD, np.zeros(3)
    c = inverse_dynamics(arm, q, qd, zero)
    D = np.column_stack([inverse_dynamics(arm, q, qd, e, gravity=False) for e in np.eye(3)])
    return D, c


PUMA_D_MOVING, PUMA_C_MOVING = puma_probed_moving()

# chapter 08's laws (solutions/05_control): gravity compensation, computed torque, damping; the
# payload of C.1, the gains of C.2 and the damping ratio of C.3 are givens drawn per student (the
# student "student")
a1_, Kp_, Kd_ = sympy.symbols("a1 Kp Kd", positive=True)
GRIP, GAINS, ZETA = variant("C.1")["Mp"], variant("C.2"), variant("C.3")["zeta"]
qr_, qdr_, qddr_ = sympy.symbols("qr qdr qddr", real=True)
C_TWO = Matrix([g * l * (m1 / 2 + m2 + GRIP) * cos(q1) + g * l * (m2 / 2 + GRIP) * cos(q1 + q2),
                g * l * (m2 / 2 + GRIP) * cos(q1 + q2)])
D_PEND, C_PEND = m1 * a1_**2 / 3, m1 * g * a1_ * cos(q1) / 2
CT_LAW = D_PEND * (qddr_ + GAINS["Kd"] * (qdr_ - qd1) + GAINS["Kp"] * (qr_ - q1)) + C_PEND

RIGHT = {
    "C.1": C_TWO,
    "C.2": CT_LAW,
    "C.3": 2 * ZETA * sympy.sqrt(Kp_ * D_PEND),
    "3.2": A32,
    "3.3": ([0, 0, 0], [-3 * W**2 * t, -2 * W**2 * t, 0]),
    "3.5": (CUBE_O, CUBE_CENTRE),
    "3.6": (BLOCK_O, BLOCK_CENTRE),
    "3.7": R_TURN * CUBE_O * R_TURN.T,
    "3.8": R_TURN * BLOCK_O * R_TURN.T,
    "3.14": (I_ORIGIN, I_CENTRE),
    "3.16a": [A1, A2],
    "3.16b": J_CEIL,
    "3.16c": (D_CEIL, H_CEIL, C_CEIL),
    "3.17a": ([0, 0, 0], [0, 0, 0], [-PULL, 0, 0]),
    "3.17b": ROD,
    "3.17c": (S_CEIL[0], S_CEIL[1], [d1, 0, 0], [d2, 0, ARM["e"]]),
    "3.17d": TAU_CEIL,
    "3.13a": (G_LE, V0_NE),
    "3.13b": LETTER[1],
    "3.11": PUMA,
    "3.12": (N_3_12 * CALL_3_12[0], N_3_12 * CALL_3_12[1]),
    "3.18": (D_TD, H_TD, C_TD),
    "6-4-1": (D11_6_4_1, [0]),
    "9.1": (C_91, MDOT_91, MDOT_91 - 2 * C_91),
    "9.98": (J_998, LAMBDA_998),
    "k12": (K12.subs(MU), LF.subs(MU), (K12 / LF).subs(MU)),
    "Mp": (DD_MP, DC_MP),
    "Y": Y_TILT,
}


def replaced(matrix, index, value):
    """A copy of ``matrix`` with one element replaced."""
    result = Matrix(matrix)
    result[index] = value
    return result


class Slow:
    """An answer that takes too long to produce."""

    def __call__(self):
        time.sleep(30)


def other_factorisation():
    """A C with the right C*qd that is not the Christoffel form (Lynch & Park, Sec. 8.4 (draft
    Eq. (9.87)))."""
    k = (m2 * L1 * L2 * S2).subs(MINE_91)
    return Matrix([[-2 * k * qd2, -k * qd2], [k * qd1, 0]])


# question, answer, words the feedback must contain, status
WRONG = [
    # Fu, Gonzalez & Lee, Probs. 3.2 and 3.3: moving frames
    ("3.2", [KX * t, KY * t, 4], "that is the velocity", "incorrect"),
    ("3.2", [-KX, -KY, 0], "acceleration has the wrong sign", "incorrect"),
    ("3.2", [KX, KY],
     "wrong shape: acceleration should be a 3-vector, but the answer is a 2-vector", "not graded"),
    ("3.3", ([-4 * W, 6 * W, 0], [-3 * W**2 * t, -2 * W**2 * t, 0]),
     "RELATIVE TO THE STARRED FRAME", "incorrect"),
    ("3.3", ([0, 0, 0], [3 * W**2 * t, 2 * W**2 * t, 0]),
     "centripetal has the wrong sign: omega x (omega x r) points toward the axis", "incorrect"),
    ("3.3", ([0, 0, 0], [-2 * W * t, 3 * W * t, 0]), "omega x r is the velocity", "incorrect"),
    # Probs. 3.5-3.8: inertia tensors
    ("3.5", (2 * sympy.diag(*CUBE_O.diagonal()) - CUBE_O, CUBE_CENTRE),
     "I_O: the off-diagonal entries have the wrong sign", "incorrect"),
    ("3.5", (CUBE_O, CUBE_O), "I_centre: that is the tensor about O",
     "incorrect"),
    ("3.5", (CUBE_O, CUBE_CENTRE / 4), "the edges are 2a, not a", "incorrect"),
    ("3.5", (CUBE_O, CUBE_CENTRE * Rational(1, 2)),
     "I_centre is 1/2 times the right value", "incorrect"),
    ("3.6", (replaced(BLOCK_O, (1, 1), BLOCK_O[1, 1] - M * c_**2 / 3), BLOCK_CENTRE),
     "I_O[1, 1] is wrong: a term is missing or wrong", "incorrect"),
    ("3.6", (BLOCK_O, replaced(BLOCK_CENTRE, (0, 0), M * (b**2 + c_**2) / 2)),
     "I_centre[0, 0] is wrong: a term is missing or wrong", "incorrect"),
    ("3.6", (BLOCK_O, replaced(BLOCK_CENTRE, (0, 0), M * (b**2 - c_**2) / 3)),
     "I_centre[0, 0] is wrong: a term is missing or wrong", "incorrect"),
    ("3.7", rx(theta) * rz(alpha) * CUBE_O * (rx(theta) * rz(alpha)).T,
     "R = Rz(alpha)*Rx(theta), not Rx(theta)*Rz(alpha)", "incorrect"),
    ("3.8", R_TURN.T * BLOCK_O * R_TURN, "not R^T*I*R", "incorrect"),
    ("3.8", R_TURN * BLOCK_CENTRE * R_TURN.T, "turn the tensor about O", "incorrect"),
    # Prob. 3.14: pseudo-inertia
    ("3.14", (_S, I_CENTRE), "the inertia tensor is tr(S)*E - S", "incorrect"),
    ("3.14", (I_ORIGIN, I_ORIGIN + (I_ORIGIN - I_CENTRE)),
     "the parallel-axis term has the wrong sign", "incorrect"),
    # Probs. 3.16-3.17: the arm on the ceiling
    ("3.16a", [A1.T, A2.T], "each A_i is transposed", "incorrect"),
    ("3.16a", A1, "wrong shape: A should be a list of 2 4x4 matrices", "not graded"),
    ("3.16a", [A1.subs(q1, q1 * sympy.pi / 180), A2], "A[0][0, 0] is wrong", "incorrect"),
    ("3.16b", [sympy.diag(0, 0, rod[0, 0], mass) for rod, mass in zip(ROD, (m1, m2))],
     "those are the masses at the link ends", "incorrect"),
    ("3.16b", [J_CEIL[0], replaced(replaced(J_CEIL[1], (0, 3), -J_CEIL[1][0, 3]), (3, 0),
                                   -J_CEIL[1][3, 0])], "J[1][0, 3]", "incorrect"),
    ("3.16c", (D_CEIL, H_CEIL, -C_CEIL), "gravity points the wrong way", "incorrect"),
    ("3.16c", (D_CEIL, H_CEIL, C_CEIL.subs(g, 9.8062)), "keep gravity as the symbol g",
     "incorrect"),
    ("3.16c", (replaced(D_CEIL, (0, 0), D_CEIL[0, 0] - 2 * m2 * d1 * R2 * C2), H_CEIL, C_CEIL),
     "D[0, 0] is wrong: a term is missing or wrong", "incorrect"),
    ("3.16c", (D_CEIL, Matrix([-m2 * d1 * R2 * S2 * qd2**2, H_CEIL[1]]), C_CEIL),
     "h[0] is missing its qd1*qd2 (Coriolis) term", "incorrect"),
    ("3.16c", (D_CEIL, 2 * H_CEIL, C_CEIL), "h is 2 times the right value (a missing 1/2?)",
     "incorrect"),
    ("3.16c", (D_CEIL, H_CEIL, C_CEIL.subs(q1, sympy.Symbol("theta1"))),
     "unknown symbols theta1 in c (write q1 for theta1); the expected symbols are m1, m2, d1, "
     "d2, g, q1, q2, qd1, qd2, qdd1, qdd2", "not graded"),
    ("3.16c", (D_CEIL, H_CEIL, Matrix([C_CEIL[0] + g * m2 * d1 * cos(q2), C_CEIL[1]])),
     "c[0] has an extra term d1*g*m2*cos(q2)", "incorrect"),
    ("3.16c", (D_CEIL, H_CEIL), "This question has 3 parts: give them as a tuple (D, h, c)",
     "not graded"),
    ("3.17a", ([0, 0, 0], [0, 0, 0], [PULL, 0, 0]), "OPPOSITE to gravity", "incorrect"),
    ("3.17a", ([0, 0, 0], [0, 0, 0], [0, 0, PULL]), "the level system with z0 up", "incorrect"),
    ("3.17a", ([0, 0, 0], [0, 0, 0], [-g, 0, 0]), "that is the base of an arm at rest",
     "incorrect"),
    ("3.17b", [zeros(3, 3), zeros(3, 3)], "a point mass has no inertia about itself",
     "incorrect"),
    ("3.17c", ([-d1 / 2, 0, 0], S_CEIL[1], [d1, 0, 0], [d2, 0, ARM["e"]]),
     "s1: that is the middle of the link (a uniform rod)", "incorrect"),
    ("3.17c", (S_CEIL[0], S_CEIL[1], [d1 * cos(q1), d1 * sin(q1), 0], [d2, 0, ARM["e"]]),
     "p1: iR0 p*_i is expressed in frame i's own axes", "incorrect"),
    ("3.17d", D_CEIL * Matrix([qdd1, qdd2]) + H_CEIL - C_CEIL, "gravity enters the wrong way",
     "incorrect"),
    ("3.17d", TAU_CEIL - Matrix([0, m2 * d1 * R2 * S2 * qd1**2]),
     "tau[1] is missing its qd1**2 (centrifugal) term", "incorrect"),
    ("3.17d", Matrix([TAU_CEIL[1], TAU_CEIL[0]]), "tau[0] and tau[1] are swapped", "incorrect"),
    # Prob. 3.13: gravity signs
    ("3.13a", ([-x for x in G_LE], V0_NE), "in L-E, g is the acceleration of gravity",
     "incorrect"),
    ("3.13a", (G_LE, GRAVITY_0), "N-E accelerates the base UPWARD", "incorrect"),
    ("3.13a", ([round(G_LE[0] * 1.003, 2)] + G_LE[1:], V0_NE),
     "g_LE[0] is close but not equal (within 1 %)",
     "incorrect"),
    ("3.13b", LETTER[0], "both formulations give the same torques", "incorrect"),
    ("3.13b", "E", "'E' is not one of the options A, B, C, D", "not graded"),
    ("3.13b", 2, "Answer with one of the letters", "not graded"),
    # Probs. 3.11-3.12: probing
    ("3.11", PUMA_DEGREES, "the joint angles were used in degrees", "incorrect"),
    ("3.11", (PUMA[0] + PUMA[2][:, None], PUMA[1], PUMA[2]),
     "each column of D still contains the gravity torques c", "incorrect"),
    ("3.11", (PUMA[0], PUMA[1] + PUMA[2], PUMA[2]), "h still contains the gravity torques c",
     "incorrect"),
    ("3.11", (PUMA[0].ravel(), PUMA[1], PUMA[2]),
     "wrong shape: D should be a 3x3 matrix, but the answer is a 9-vector", "not graded"),
    ("3.11", (PUMA[0], -PUMA[1], PUMA[2]), "h has the wrong sign", "incorrect"),
    ("3.12", ((N_3_12 + 1) * CALL_3_12[0], (N_3_12 + 1) * CALL_3_12[1] + N_3_12**2),
     "no call for c", "incorrect"),
    ("3.12", (N_3_12**2 * CALL_3_12[0], N_3_12**2 * CALL_3_12[1]),
     "one call gives a whole column of D", "incorrect"),
    # Prob. 3.18 and Schilling Exercise 6-4-1
    ("3.18", (D_TD, H_TD, Matrix([0, 0])), "the arm moves in a VERTICAL plane",
     "incorrect"),
    ("3.18", (D_TD, Matrix([H_TD[0], -H_TD[1]]), C_TD), "h[1] has the wrong sign", "incorrect"),
    ("3.18", (D_TD, Matrix([H_TD[0] / 2, H_TD[1]]), C_TD),
     "h[0] is 1/2 times the right value", "incorrect"),
    ("3.18", (replaced(D_TD, (0, 1), m2 * R_TD), H_TD, C_TD),
     "D must be symmetric, but D[0, 1] = D[1, 0] does not hold", "incorrect"),
    ("6-4-1", (D11_6_4_1 - PARALLEL_6_4_1, [0]), "squared distance of the centre of mass",
     "incorrect"),
    ("6-4-1", (D11_6_4_1, [qd1**2 * sin(q1)]), "c[0] should be 0", "incorrect"),
    # Lynch & Park, Prop. 8.1 and Sec. 8.6 (draft Eq. (9.98)), Tourassis & Neuman's coupling, the
    # thesis appendix's payload
    ("9.1", (other_factorisation(), MDOT_91, MDOT_91 - 2 * other_factorisation()),
     "your C gives the right c = C*qd", "incorrect"),
    ("9.1", (C_91, M_91.diff(q1) + M_91.diff(q2), MDOT_91 - 2 * C_91), "chain rule",
     "incorrect"),
    ("9.1", (C_91, MDOT_91, MDOT_91 - C_91), "twice the Coriolis matrix", "incorrect"),
    ("9.1", (C_91.T, MDOT_91, MDOT_91 - 2 * C_91), "C is transposed", "incorrect"),
    ("9.98", (J_998, J_998 * M_998 * J_998.T), "the inverse Jacobian, not J M J^T", "incorrect"),
    ("9.98", (J_998.T, LAMBDA_998), "J is transposed", "incorrect"),
    ("k12", ((D_FU[0, 1] / sqrt(D_FU[0, 0] * D_FU[1, 1])).subs(MU), LF.subs(MU),
             (K12 / LF).subs(MU)),
     "takes the absolute value |d12|", "incorrect"),
    ("k12", (K12.subs(MU), sqrt(m1 / (m1 + m2)).subs(MU), (K12 / LF).subs(MU)),
     "the mass moved by joint j = 2",
     "incorrect"),
    ("k12", (K12, LF, K12 / LF), "unknown symbols m2 in k12", "not graded"),
    ("Mp", (payload_at(l2)[0], DC_MP), "that is the payload at the tip", "incorrect"),
    ("Mp", (DD_MP, payload_at(l2)[1]), "that is the payload at the tip", "incorrect"),
    ("Mp", (payload_at(l2 / 2)[0], DC_MP), "that is the payload at the middle of link 2",
     "incorrect"),
    ("Mp", (payload_at(sympy.Symbol("rho") * l2)[0], DC_MP), "rho is a given of this question",
     "not graded"),
    ("Mp", (DD_MP, -DC_MP), "gravity points along -y0", "incorrect"),
    ("Y", replaced(Y_TILT, (1, 1), C2 * qdd1 - S2 * qd1 * qd2 + _PULL * cos(q1 + q2)),
     "preliminary draft", "incorrect"),
    ("Y", replaced(Y_TILT, (0, 1), Y_TILT[0, 1] + S2 * qd1 * qd2), "comes twice", "incorrect"),
    ("Y", Y_LP, "gravity is missing", "incorrect"),
    # answers that cannot be graded: a message, never an exception
    ("3.16c", None, "not answered yet", "not answered"),
    ("3.16c", (D_CEIL, ..., C_CEIL), "h: not answered yet", "incorrect"),
    ("3.2", [KX, ..., 0], "not answered yet", "not answered"),
    ("3.2", lambda: 1 / 0, "Your answer raised ZeroDivisionError: division by zero",
     "not graded"),
    ("3.12", (sympy.Eq(sympy.Symbol("x"), RIGHT["3.12"][0]), RIGHT["3.12"][1]),
     "multiplications: give the expression itself, not an equation", "not graded"),
    ("3.2", [sympy.Function("f")(t), KY, 0], "the answer contains functions (f(t))",
     "not graded"),
    ("3.2", [KX, "2 +", 0], "could not read '2 +' as an expression", "not graded"),
    ("3.2", [KX, KY, sympy.zoo], "the answer contains zoo", "not graded"),
    ("3.2", object(), "acceleration: expected a 3-vector, got a value of type object",
     "not graded"),
    ("6-4-1", (object(), [0]), "expected SymPy expressions or numbers, got a value of type "
     "object", "not graded"),
    ("3.12", (object(), RIGHT["3.12"][1]), "multiplications: expected numbers, got a value of "
     "type object", "not graded"),
    ("3.11", (PUMA[0], PUMA[1], [sympy.Symbol("x")] * 3),
     "numbers are asked here, but the answer contains the symbols x", "not graded"),
    ("no such question", 1, "There is no question 'no such question'", "not graded"),
    # review findings: precise feedback
    ("9.1", (C_91, MDOT_91, 2 * C_91 - MDOT_91), "N has the wrong sign", "incorrect"),
    ("3.6", (BLOCK_O, 0.333 * M * sympy.diag(b**2 + c_**2, a**2 + c_**2, a**2 + b**2)),
     "I_centre is close but not equal (within 1 %): a constant rounded, such as a fraction "
     "written as a decimal?", "incorrect"),
    ("3.17d", TAU_CEIL - Matrix([m2 * d1 * R2 * S2 * qd1 * qd2, 0]),
     "tau[0]: a term in qd1*qd2 (Coriolis) is missing or wrong", "incorrect"),
    ("3.3", ([0, 0, 0], [-3 * W**2 * t * (180 / sympy.pi)**2, -2 * W**2 * t * (180 / sympy.pi)**2,
                     0]),
     "centripetal is (180/pi)^2 times the right value (angles or rates in degrees?)",
     "incorrect"),
    ("3.3", ([-3 * W**2 * t, -2 * W**2 * t, 0], [0, 0, 0]), "coriolis and centripetal are swapped",
     "incorrect"),
    ("3.2", sympy.Eq(sympy.Symbol("a"), Matrix(A32)),
     "the answer is the boolean False (an equation Eq(...) that SymPy evaluated?)",
     "not graded"),
    ("3.2", [sympy.Integral(sympy.Function("f")(t), t), KY, 0], "call .doit()", "not graded"),
    ("3.16c", (D_CEIL, H_CEIL.subs(qd1, sympy.Symbol("q1dot")), C_CEIL),
     "unknown symbols q1dot in h (write qd1 for q1dot)", "not graded"),
    ("3.16c", (D_CEIL, H_CEIL.subs(qd2, sympy.Symbol("dq2")), C_CEIL),
     "(write qd2 for dq2)", "not graded"),
    ("3.16c", (D_CEIL, H_CEIL, C_CEIL.subs(q1, sympy.Symbol("θ1"))), "(write q1 for θ1)",
     "not graded"),
    ("Mp", (DD_MP.subs(Mp, sympy.Symbol("M_p")), DC_MP), "(write Mp for M_p)", "not graded"),
    ("3.11", (PUMA[0], PUMA[1], PUMA_C_MOVING), "c still contains the velocity terms h",
     "incorrect"),
    ("3.11", (PUMA_D_MOVING, PUMA[1], PUMA[2]), "each column of D still contains h",
     "incorrect"),
    ("3.16c", (D_CEIL, H_CEIL, Matrix([PULL * (m1 * R1 * cos(q1) + m2 * (d1 * cos(q1)
                                                                         + R2 * cos(q1 + q2))),
                                       PULL * m2 * R2 * cos(q1 + q2)])),
     "gravity acts along the wrong axis", "incorrect"),
    ("3.18", (D_TD, H_TD, Matrix([-g * sin(q1) * (m1 * r1 + m2 * R_TD), m2 * g * cos(q1)])),
     "gravity acts along the wrong axis", "incorrect"),
    ("Mp", (DD_MP, Matrix([Mp * g * PLACE[0].diff(v) for v in (q1, q2)])),
     "gravity acts along the wrong axis", "incorrect"),
    # chapter 08's control laws
    ("C.1", -C_TWO, "add +c(q), the torque gravity takes away", "incorrect"),
    ("C.1", Matrix([g * l * ((m1 + m2 + GRIP) * cos(q1) + (m2 + GRIP) * cos(q1 + q2)),
                    g * l * (m2 + GRIP) * cos(q1 + q2)]),
     "each link's mass sits at its middle", "incorrect"),
    ("C.1", Matrix([g * l * (m1 / 2 + m2) * cos(q1) + g * l * m2 / 2 * cos(q1 + q2),
                    g * l * m2 / 2 * cos(q1 + q2)]), "the payload is missing", "incorrect"),
    ("C.2", qddr_ + GAINS["Kd"] * (qdr_ - qd1) + GAINS["Kp"] * (qr_ - q1) + C_PEND,
     "goes through the inertia D(q)", "incorrect"),
    ("C.2", CT_LAW - C_PEND, "the model's gravity c(q) is missing", "incorrect"),
    ("C.2", D_PEND * (qddr_ + GAINS["Kd"] * (qd1 - qdr_) + GAINS["Kp"] * (q1 - qr_)) + C_PEND,
     "the feedback has the wrong sign", "incorrect"),
    ("C.2", D_PEND * (qddr_ + GAINS["Kp"] * (qdr_ - qd1) + GAINS["Kd"] * (qr_ - q1)) + C_PEND,
     "your gains are swapped", "incorrect"),
    ("C.2", D_PEND * (qddr_ + GAINS["Kd"] * (qdr_ - qd1) + Kp_ * (qr_ - q1)) + C_PEND,
     "Kp is a given of this question: put in your value",
     "not graded"),
    ("C.3", 2 * ZETA * sympy.sqrt(Kp_), "PD plus gravity compensation sees the pendulum's "
     "inertia", "incorrect"),
    ("C.3", ZETA * sympy.sqrt(Kp_ * D_PEND), "a factor of 2 is missing", "incorrect"),
    ("C.3", 2 * sympy.sqrt(Kp_ * D_PEND), "that is critical damping (zeta = 1)", "incorrect"),
    ("C.3", 2 * sympy.sqrt(Kp_ * D_PEND) / ZETA, "multiply by zeta, do not divide",
     "incorrect"),
]


def course_tables(name: str) -> list:
    """The tables ``name`` (RIGHT or WRONG) of the questions of solutions/06_* to 10_*, which
    tests/course/ holds (imported here only, not when this file is collected: their module-level
    derivations take seconds, on every worker of the quick tier)."""
    from tests.course import (
        test_grading_questions_06_07,
        test_grading_questions_08,
        test_grading_questions_09,
        test_grading_questions_10,
    )
    return [getattr(module, name) for module in (test_grading_questions_06_07,
                                                 test_grading_questions_08,
                                                 test_grading_questions_09,
                                                 test_grading_questions_10)]


def test_the_table_has_at_least_30_wrong_answers_and_covers_every_question():
    assert len([row for row in WRONG if row[3] == "incorrect"]) >= 30
    assert {row[0] for table in [WRONG, *course_tables("WRONG")] for row in table} \
        >= set(questions())


@pytest.mark.parametrize("question", sorted(RIGHT))
def test_a_right_answer_passes(question):
    feedback = check(question, RIGHT[question])
    assert feedback.correct, str(feedback)
    assert feedback.status == "correct" and feedback.points == keys()[question]["points"]
    assert str(feedback).startswith(f"{question}  ✓")


def test_every_question_has_a_right_answer_in_this_file():
    assert set(RIGHT).union(*course_tables("RIGHT")) == set(questions())


@pytest.mark.parametrize("question, answer, words, status", WRONG,
                         ids=[f"{row[0]}:{row[2][:40]}" for row in WRONG])
def test_a_wrong_answer_gets_its_specific_feedback(question, answer, words, status):
    feedback = check(question, answer)
    assert isinstance(feedback, Feedback)
    assert not feedback.correct
    assert feedback.points < feedback.max_points or feedback.max_points == 0
    assert feedback.points == sum(feedback.parts.values())
    assert feedback.status == status, str(feedback)
    assert words in str(feedback), str(feedback)


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")        # np.matrix
def test_equivalent_forms_and_types_are_accepted():
    # another form of the same expressions: expanded, with angle-sum identities undone
    D = D_CEIL.applyfunc(sympy.expand)
    c = C_CEIL.applyfunc(lambda e: sympy.expand(sympy.expand_trig(e)))
    assert check("3.16c", (D, H_CEIL, c)).correct
    # a dict, an EquationsOfMotion-like object, strings, NumPy arrays and lists
    assert check("3.16c", {"D": D_CEIL, "h": H_CEIL, "c": C_CEIL}).correct
    assert check("3.2", [str(KX), str(KY), "0"]).correct
    assert check("3.2", np.array([float(KX), float(KY), 0.0])).correct
    assert check("3.2", Matrix([A32])).correct                 # a row for a vector
    assert check("3.11", tuple(x.tolist() for x in PUMA)).correct
    assert check("6-4-1", (D11_6_4_1, 0)).correct                    # 0 for a 1-vector
    assert check("3.13b", f" {LETTER[1].lower()} ").correct
    assert check("3.2", lambda: A32).correct                  # a callable
    assert check("3.2", np.matrix([A32])).correct              # np.matrix (no recursion)
    assert check("3.2", np.matrix([[KX], [KY], [0]])).correct
    assert check("3.13b", f"{LETTER[1]}.").correct
    assert check("3.13b", f"Option {LETTER[1]}").correct
    assert check("3.13b", f"option ({LETTER[1].lower()})").correct
    # an equation naming the part, and an integral SymPy evaluates
    assert check("3.16c", (sympy.Eq(sympy.MatrixSymbol("D", 2, 2), D_CEIL), H_CEIL,
                           C_CEIL)).correct
    assert check("3.2", [sympy.Integral(2 * KX * t, (t, 0, 1)), KY, 0]).correct
    # one wording for a right answer, however its equality was shown (exactly, or at the
    # points of the check, which depends on the machine's speed): stored outputs do not move
    # (the first paragraph: the takeaway follows it)
    assert str(check("3.16c", RIGHT["3.16c"])).split("\n\n")[0].endswith(
        "correct (equal to the key)")
    assert str(check("k12", RIGHT["k12"])).split("\n\n")[0].endswith(
        "correct (equal to the key)")  # |d12|


def test_a_large_right_answer_is_right_by_its_numbers():
    """A right answer holding a large identically-zero addition (sin^2 + cos^2 - 1 times a
    1365-term polynomial, whose floats cancel badly at the wide points): the points where the
    floats disagree are evaluated again with more digits, and the answer is right."""
    big = sympy.expand((sin(q1) + cos(q2) + d1 + m2)**12)
    zero = (sin(q1)**2 + cos(q1)**2 - 1) * big
    feedback = check("3.16c", (D_CEIL + zero * Matrix([[1, 1], [1, 1]]), H_CEIL, C_CEIL),
                     time_limit=30)
    assert feedback.correct, str(feedback)


def test_an_identically_zero_addition_is_accepted():
    """expand((M + a)**60) - (M + a)**60 is 0, though its floats are not (issue 14).  The
    check's limit is raised from its 5 s on the clock: on a loaded machine (a shared grader) the
    work it does could take longer, and whether it finishes is not what is tested here."""
    zero = sympy.expand((M + a)**60) - (M + a)**60
    feedback = check("3.5", (CUBE_O + zero * sympy.ones(3, 3), CUBE_CENTRE), time_limit=120)
    assert feedback.correct, str(feedback)


def test_a_polynomial_fitted_through_fixed_points_scores_0():
    """A quintic in m1 through the right values of D, h and c at six fixed points (what the
    stored sample points of the old keys allowed) fails at the points drawn at each check."""
    symbols = [m1, m2, d1, d2, g, q1, q2, qd1, qd2, qdd1, qdd2]
    rng = np.random.default_rng(6)
    points = rng.uniform(0.5, 2.0, (6, len(symbols)))

    def fitted(expr):
        values = [float(expr.subs(dict(zip(symbols, row)))) for row in points]
        return sympy.interpolate(list(zip((sympy.Float(x) for x in points[:, 0]), values)), m1)
    answer = (D_CEIL.applyfunc(fitted), H_CEIL.applyfunc(fitted), C_CEIL.applyfunc(fitted))
    for _ in range(3):                                   # fresh points each time
        feedback = check("3.16c", answer)
        assert feedback.points == 0 and feedback.status == "incorrect", str(feedback)


def test_a_piecewise_answer_equal_at_every_point_tried_scores_0():
    """Piecewise((1, M < 1e9), (0, True)) * I_O agrees with the key at any points with
    M < 1e9; the numbers cannot decide a Piecewise, so it must be shown equal exactly."""
    step = sympy.Piecewise((1, M < 10**9), (0, True))
    feedback = check("3.5", (step * CUBE_O, CUBE_CENTRE))
    assert feedback.parts == {"I_O": 0.0, "I_centre": 1.0}, str(feedback)
    assert "uses Piecewise" in str(feedback) and "I_O[0, 0]" in str(feedback)
    assert str(feedback).count("uses Piecewise") == 1                 # said once per part
    # a Piecewise that IS the key everywhere is right
    same = sympy.Piecewise((CUBE_CENTRE[0, 0], M > 0), (CUBE_CENTRE[0, 0], True))
    assert check("3.5", (CUBE_O, replaced(CUBE_CENTRE, (0, 0), same))).correct


def test_a_rounded_fraction_is_named_where_the_question_has_no_givens(monkeypatch):
    """A decimal where a fraction belongs is named, with the fraction nearest it, in a question
    without givens (in one with givens, such as 3.6, the givens are decimals by right and the
    feedback cannot name one: the row of WRONG above)."""
    from dynlab.grading import make_key
    key = make_key("rounded", notebook="demo", title="demo", points=1,
                   symbols={"M": "positive", "b": "positive"},
                   parts=[{"name": "I_centre", "value": M * b**2 / 3}])
    monkeypatch.setitem(keys(), "rounded", key)
    text = str(check("rounded", 0.333 * M * b**2))
    assert "I_centre holds a rounded decimal (0.333) where an exact fraction belongs: write " \
           "Rational(1, 3) or sympy.S(1)/3" in text, text


def test_a_common_factor_is_named_without_its_value_and_not_every_entry_should_be_0():
    """1e12 times the key in every entry: said, but not the 1e12 (the answer divided by it
    would be the key)."""
    text = str(check("3.5", (CUBE_O * 1e12, CUBE_CENTRE)))
    assert "I_O is off by one constant factor in every entry" in text, text
    assert "should be 0" not in text and "1e+12" not in text


def test_partial_credit_per_part():
    feedback = check("3.16c", (D_CEIL, H_CEIL, -C_CEIL))
    assert feedback.parts == {"D": 1.0, "h": 1.0, "c": 0.0}
    assert feedback.points == 2 and not feedback.correct
    assert str(feedback).startswith("3.16c  ✗ 2/3 points")


# -- time limits and containment ---------------------------------------------------------------
def busy():
    while True:
        pass


@pytest.mark.slow
def test_a_busy_answer_is_stopped_in_a_thread_too():
    import threading
    results = []
    thread = threading.Thread(target=lambda: results.append(check("3.2", busy, time_limit=1)))
    start = time.perf_counter()
    thread.start()
    thread.join(60)                       # busy() never ends: only the limit can end the check
    assert not thread.is_alive() and time.perf_counter() - start < 30
    assert results[0].status == "not graded" and "took longer than 1 s" in str(results[0])


@pytest.mark.slow
def test_a_check_that_waits_for_the_cpu_is_not_stopped(monkeypatch):
    """The limit is the check's CPU time, not the clock's: a checking process that gets no CPU
    for a while (a loaded machine; here it is stopped for 2 s, SIGSTOP) still finishes within a
    1 s limit, as it would on an idle machine (a check of 3.11 failed so on a starved machine)."""
    import os
    import signal
    import threading

    from dynlab.grading import limits
    children = []
    fork = os.fork

    def fork_and_note():
        pid = fork()
        if pid:
            children.append(pid)
            threading.Timer(2.0, os.kill, (pid, signal.SIGCONT)).start()
        return pid
    monkeypatch.setattr(limits.os, "fork", fork_and_note)

    def stopped_then_quick():
        os.kill(os.getpid(), signal.SIGSTOP)          # no CPU until the parent's SIGCONT
        return sum(range(1000))
    start = time.perf_counter()
    assert limits.run_limited(stopped_then_quick, 1.0) == ("done", 499500)
    assert len(children) == 1 and time.perf_counter() - start >= 2.0


@pytest.mark.slow
def test_c_level_arithmetic_is_stopped_within_the_limit():
    """Multiplying out 3**(10**8) runs for minutes in C without returning to Python (no signal
    handler can stop it): the checking process is killed at the limit."""
    def huge():
        return CUBE_O + sympy.Pow(3, 10**8, evaluate=False) * sympy.eye(3)
    start = time.perf_counter()
    feedback = check("3.5", (huge, CUBE_CENTRE), time_limit=2)
    assert time.perf_counter() - start < 30          # minutes without the limit
    assert feedback.status == "not graded" and "took longer than 2 s" in str(feedback)


def test_an_alarm_that_python_drops_rings_again():
    """Python drops an exception raised in a garbage-collector callback or a ``__del__``
    ("Exception ignored in ..."), which a limit's alarm can land in: the body must still end,
    shortly after, rather than run on past its limit (the swallowing ``except`` stands for that)."""
    from dynlab.grading.keys import ExactOutOfTime
    from dynlab.grading.limits import REPEAT, time_limit

    def spin(cpu_seconds):
        end = time.process_time() + cpu_seconds
        while time.process_time() < end:
            pass

    rang = []
    with pytest.raises(ExactOutOfTime):
        with time_limit(0.1, ExactOutOfTime, cpu=True):
            try:
                spin(30)
            except ExactOutOfTime:            # dropped, as in a gc callback
                rang.append(time.process_time())
            spin(30)
    assert rang and time.process_time() - rang[0] < 20 * REPEAT
    spin(3 * REPEAT)                          # and once left, the alarm rings no more


class Raises:
    def __init__(self, error):
        self.error = error

    def __call__(self):
        raise self.error


@pytest.mark.parametrize("error", [SystemExit(3), KeyboardInterrupt(), GeneratorExit(),
                                   RecursionError("deep"), MemoryError()])
def test_nothing_an_answer_raises_escapes_check(error):
    feedback = check("3.2", Raises(error))
    assert feedback.status == "not graded" and type(error).__name__ in str(feedback)
    assert check("3.2", A32).correct                      # and the session goes on


def test_an_answer_that_ends_the_process_ends_only_the_checking_process():
    import os
    feedback = check("3.2", lambda: os._exit(0))
    assert feedback.status == "not graded" and "without a result" in str(feedback)


def test_no_ratio_but_the_named_slips_is_given():
    """A ratio of the answer to the key that is no named slip (a sign, 2, 1/2, 3, 1/3, degrees)
    is never shown, nor a guess at the key's coefficient ("1/2 where 1/3 belongs?" told the
    student the key's 1/3): the answer divided by the ratio would be the key."""
    text = str(check("3.17d", TAU_CEIL - Matrix([m2 * d1 * R2 * S2 * qd1 * qd2, 0])))
    assert "times the right value" not in text and "1/3 belongs" not in text, text
    text = str(check("3.6", (BLOCK_O, replaced(BLOCK_CENTRE, (0, 0),
                                                    M * (b**2 + c_**2) / 2))))
    assert "times the right value" not in text and "belongs?" not in text, text
    # a named slip still is: 1/2 of an element, the sign of a whole part
    assert "h[0] is 1/2 times the right value" in str(check("3.18", (D_TD, Matrix(
        [H_TD[0] / 2, H_TD[1]]), C_TD)))
    # a skew part with a flipped sign is not called transposed; no 999/1000 ratios
    assert "transposed" not in str(check("9.1", (C_91, MDOT_91, 2 * C_91 - MDOT_91)))
    text = str(check("3.6", (BLOCK_O, 0.333 * M * sympy.diag(
        b**2 + c_**2, a**2 + c_**2, a**2 + b**2))))
    assert "999/1000" not in text
    # a probe for c with the velocities left on is not "a rounded constant"
    text = str(check("3.11", (PUMA[0], PUMA[1], PUMA[2] + PUMA[1])))
    assert "rounded constant" not in text, text


def test_the_reference_eom_object_is_accepted():
    from dynlab import Link, Robot
    arm = Robot([Link("R", a=d1, mass=m1, com=S_CEIL[0], name="1"),
                 Link("R", a=d2, mass=m2, com=S_CEIL[1], name="2")], gravity=(PULL, 0, 0))
    assert check("3.16c", equations_of_motion(arm, method="lagrange_euler")).correct


@pytest.mark.slow
def test_a_slow_answer_is_stopped_with_a_message():
    start = time.perf_counter()
    feedback = check("3.2", Slow(), time_limit=0.5)
    assert time.perf_counter() - start < 15          # Slow() takes 30 s
    assert feedback.status == "not graded"
    assert "Checking took longer than 0.5 s, so it was stopped" in str(feedback)


def test_strict_mode_raises_for_nbgrader(monkeypatch):
    from dynlab.grading import AnswerError
    monkeypatch.setenv("DYNLAB_STRICT_GRADING", "1")
    with pytest.raises(AnswerError, match="not answered"):
        check("3.2", ...)
    assert check("3.2", A32).correct


def test_summary_adds_up_the_points_of_the_session():
    session = Session()
    check("3.2", A32, session=session)
    check("3.3", None, session=session)
    check("3.5", (CUBE_CENTRE, CUBE_CENTRE), session=session)   # I_centre right: 1 of 2 points
    text = str(summary("01_frames_and_inertia", session))
    assert summary("01_frames_and_inertia").points == 0      # outside a kernel: nothing kept
    assert text.splitlines()[0] == "Score for 01_frames_and_inertia: 2/13 points"
    assert "3.2          1/1  correct" in text
    assert "3.3          0/2  not answered" in text
    assert "3.5          1/2  incorrect" in text
    assert "3.14         0/2  not checked yet" in text


def test_feedback_is_shown_as_text_and_html():
    feedback = check("3.2", [KX, KY, 1])
    assert "acceleration[2] should be 0" in str(feedback)
    assert feedback._repr_html_().startswith("<pre") and "acceleration[2] should be 0" in \
        feedback._repr_html_()


# -- the keys ----------------------------------------------------------------------------------
KEY_FIELDS = {"id", "notebook", "title", "points", "kind", "symbols", "angles", "split", "parts",
              "ranges", "tolerance", "mistakes", "products", "options", "answer", "messages",
              "hint", "takeaway", "parameters", "shared",   # the notes: sealed text (below)
              "refuses",    # the library calls refused in a graded run: dotted paths, no answer
              "practice"}   # the practice values a shipped key is sealed at (its givens' grids)
PART_FIELDS = {"name", "shape", "reference", "names", "structure", "hints"}


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


def _readable(text):
    """What the old keys' sealing gave up to anyone: base64 of zlib-compressed text."""
    import base64
    import zlib
    try:
        return zlib.decompress(base64.b64decode(text, validate=True)).decode()
    except Exception:                                      # noqa: BLE001
        return None


def test_the_keys_hold_no_values_and_no_readable_text():
    """No values at fixed points, no per-term values, no hashes of answers, no plain numbers of a
    numeric answer, no option text in the clear, nothing that base64 + zlib decodes; every option
    of a choice has a sealed message (the right one is not the one without)."""
    files = sorted(KEY_DIRECTORY.glob("*.json"))
    assert [f.stem for f in files] == ["01_frames_and_inertia", "02_two_link_arm_on_the_ceiling",
                                       "03_probing_and_other_arms", "04_structure_of_the_model",
                                       "05_control", "06_dalembert_newton_euler_and_simulation",
                                       "07_modern_form", "08_your_own_robot",
                                       "09_sizing_a_motor", "10_identifying_an_arm"]
    for path in files:
        data = json.loads(path.read_text())
        assert data["format"] == 2
        for key in data["questions"]:
            assert set(key) <= KEY_FIELDS, set(key) - KEY_FIELDS
            strings = list(_strings(key))
            assert not [text for text in strings if len(text) > 8 and _readable(text)]
            if key["kind"] == "choice":
                assert len(key["answer"]) == 24 and key["answer"] not in key["options"]
                assert set(key["messages"]) == set(key["options"])
                continue
            for part in key["parts"]:
                assert set(part) <= PART_FIELDS and isinstance(part["reference"], str)
                assert all(isinstance(n, int) for n in part["shape"])
            for mistake in key.get("mistakes", []):
                assert set(mistake) == {"part", "value", "message"}
                assert isinstance(mistake["value"], str)
            # the only numbers: points, shapes, tolerance and ranges
            assert not list(_numbers_outside(key, {"points", "shape", "tolerance", "ranges",
                                                   "parameters", "practice"})), \
                key["id"]


def _numbers_outside(value, allowed):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _numbers_outside(item, allowed)
    elif isinstance(value, dict):
        for name, item in value.items():
            if name not in allowed:
                yield from _numbers_outside(item, allowed)


@pytest.mark.slow
def test_a_key_rebuilt_from_the_shipped_files_scores_0():
    """The attack of issue 14 on the old keys: read every string of the shipped key files as
    SymPy text or as old-style sealed text, and every list of numbers as term values for a term
    search, and submit what comes out.  The keys give it nothing to build from."""
    for path in sorted(KEY_DIRECTORY.glob("*.json")):
        for key in json.loads(path.read_text())["questions"]:
            if key["kind"] == "choice":
                continue
            found = []
            for text in _strings(key):
                decoded = _readable(text)
                for candidate in (text, decoded):
                    if not candidate or len(candidate) < 3:
                        continue
                    try:
                        expr = sympy.sympify(candidate)
                    except Exception:                      # noqa: BLE001
                        continue
                    if isinstance(expr, sympy.Expr) and (expr.free_symbols or expr.is_number):
                        found.append(expr)
            for part in key["parts"]:
                shape = tuple(part["shape"]) or (1,)
                if found:
                    size = int(np.prod(shape))
                    guess = (found * size)[:size]
                    answer = sympy.Matrix(guess).reshape(*shape) if len(shape) == 2 else guess
                    other = {p["name"]: ... for p in key["parts"]}
                    other[part["name"]] = answer
                    feedback = check(key["id"], other if len(key["parts"]) > 1 else answer)
                    assert feedback.parts[part["name"]] == 0, (key["id"], str(feedback))


def test_a_key_changed_under_its_id_grades_by_its_new_reference():
    """The reference is compiled once per key text and givens (``compare.prepare``), not per
    question id: a key rebuilt under the same id with another answer grades by the new one."""
    from dynlab.grading.authoring import make_key
    from dynlab.grading.compare import grade
    x = sympy.Symbol("x", positive=True)

    def key_of(value):
        return make_key("demo", notebook="demo", title="demo", points=1,
                        symbols={"x": "positive"}, parts=[{"name": "y", "value": value}])
    assert grade(key_of(x**2), x**2)[0] == "correct"
    assert grade(key_of(x**3), x**2)[0] == "incorrect"
    assert grade(key_of(x**3), x**3)[0] == "correct"


def test_fresh_points_are_new_at_each_check_wide_and_away_from_special_values():
    key = keys()["3.16c"]
    first, second = fresh_points(key), fresh_points(key)
    assert first.shape == second.shape == (24, len(key["symbols"]))
    assert not np.any(np.isin(first, second))                     # drawn anew
    names = [name for name, _ in key["symbols"]]
    for column, name in zip(first.T, names):
        assert np.all(np.abs(column) > 0.1)
        if name in ("q1", "q2"):
            assert np.all(np.abs(np.sin(column)) > 0.1) and np.all(np.abs(np.cos(column)) > 0.1)
            typical = column[:16]                                   # strata cover (-pi, pi)
            assert (np.cos(typical) < -0.75).sum() >= 2 and (np.cos(typical) > 0.5).sum() >= 2
        else:
            assert np.max(np.abs(column)) > 5                       # wide points
    positive = [i for i, (_, role) in enumerate(key["symbols"]) if role == "positive"]
    assert np.all(first[:, positive] > 0)


def _strata(column, low, high):
    """The stratum (of 16 over ``(low, high)``) of each value, and where in it (0 to 1)."""
    place = (np.asarray(column) - low) / (high - low) * 16
    return np.floor(place).astype(int), place - np.floor(place)


@pytest.mark.parametrize("question", sorted(q for q, key in keys().items()
                                            if key["kind"] == "symbolic"))
def test_fresh_points_keep_one_point_in_every_stratum_of_every_symbol(question, rng):
    """A Latin hypercube: each symbol's 16 typical points lie one in each of its 16 strata, in
    the stratum's middle 90 %, and away from the special values, at every draw (a point too close
    to a special value is drawn again inside its own stratum, never anywhere in the range)."""
    from dynlab.grading.keys import _default_range, _well_placed
    key = keys()[question]
    for _ in range(40):
        points = fresh_points(key, rng)
        for column, (name, role) in zip(points.T, key["symbols"]):
            low, high = key.get("ranges", {}).get(name, _default_range(name, role))
            stratum, within = _strata(column[:16], low, high)
            assert sorted(stratum) == list(range(16)), (name, column[:16])
            assert np.all((within >= 0.05) & (within <= 0.95)), (name, within)
            assert all(_well_placed(name, x) for x in column), (name, column)


def test_fresh_points_redraw_a_point_inside_its_own_stratum():
    """A stratum of q2 that is mostly close to pi/2 (where terms vanish): its point is drawn
    again there until it is well placed, not moved to another stratum."""
    from dynlab.grading.keys import _stratum_value, _well_placed
    low, high = -np.pi, np.pi
    width = (high - low) / 16
    generator = np.random.default_rng(12)
    for stratum in range(16):
        values = [_stratum_value("q2", low, high, stratum, generator) for _ in range(50)]
        assert all(low + width * (stratum + 0.05) <= x <= low + width * (stratum + 0.95)
                   and _well_placed("q2", x) for x in values), stratum


@pytest.mark.parametrize("end", [0, -1])
def test_a_point_drawn_from_a_crowded_stratum_is_inside_its_middle(monkeypatch, end):
    """A stratum where every random try lands near a special value falls back to a grid of its
    well-placed values; the grid's end points, computed, could round to just outside the
    stratum's middle 90 % (a seeded run drew one at 0.0499999 of alpha's stratum)."""
    key_module = importlib.import_module("dynlab.grading.keys")

    class EndOfTheGrid:                     # a draw that takes the grid's first or last value
        def uniform(self, low, high):
            return 0.0                      # a special value: every try is refused
        def choice(self, values):
            return values[end]
    monkeypatch.setattr(key_module, "_STRATUM_TRIES", 3)
    low, high = -np.pi, np.pi
    for name in ("alpha", "q2", "m1"):
        for stratum in range(16):
            if low + (high - low) / 16 * stratum <= 0.0 <= low + (high - low) / 16 * (stratum + 1):
                continue
            x = key_module._stratum_value(name, low, high, stratum, EndOfTheGrid())
            where, within = _strata([x], low, high)
            assert where[0] == stratum and 0.05 < within[0] < 0.95, (name, stratum, within)


def test_fresh_points_refuse_a_range_with_a_stratum_of_special_values_only():
    key = {"symbols": [["q1", "real"]], "ranges": {"q1": [-0.1, 0.1]}}
    with pytest.raises(ValueError, match=r"range \(-0.1, 0.1\) of q1"):
        fresh_points(key, np.random.default_rng(1))


def test_points_are_whole_numbers_adding_up_per_notebook():
    totals = {}
    for question, key in keys().items():
        assert key["points"] == int(key["points"]) >= 1
        totals[key["notebook"]] = totals.get(key["notebook"], 0) + key["points"]
    assert totals == {"01_frames_and_inertia": 13, "02_two_link_arm_on_the_ceiling": 12,
                      "03_probing_and_other_arms": 9, "04_structure_of_the_model": 11,
                      "05_control": 5, "06_dalembert_newton_euler_and_simulation": 19,
                      "07_modern_form": 8, "08_your_own_robot": 6,
                      "09_sizing_a_motor": 11, "10_identifying_an_arm": 6}


def test_the_checker_agrees_with_dynlabs_own_derivations():
    """The keys were derived by dynlab; a fresh derivation passes them (guards against keys
    built from a different model than the exercise states)."""
    lp = planar_2r("lynch_park", symbolic=True)
    M_ = equations_of_motion(lp, method="lagrange_euler").D
    assert sympy.simplify(M_ - M_LP) == zeros(2, 2)
    fu = equations_of_motion(planar_2r("fu", symbolic=True), method="lagrange_euler").D
    assert sympy.simplify(fu - D_FU) == zeros(2, 2)
    assert math.isclose(float(K12.subs({m1: 2, m2: 1, l: 1, q2: 0.3})),
                        abs(float(D_FU[0, 1].subs({m2: 1, l: 1, q2: 0.3})))
                        / math.sqrt(float((D_FU[0, 0] * D_FU[1, 1]).subs(
                            {m1: 2, m2: 1, l: 1, q2: 0.3}))))


# -- the feedback names an entry as the student wrote it -----------------------------------------
def _checked_names() -> dict:
    """``{question: [name, ...]}``: the names each check cell of ``solutions/`` passes
    (``check("3.16c", (D, h, c))`` gives ``["D", "h", "c"]``)."""
    import ast
    from pathlib import Path

    import nbformat
    found = {}
    for path in sorted((Path(__file__).resolve().parents[2] / "solutions").glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code":
                continue
            for node in ast.walk(ast.parse(cell.source)):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "check":
                    question, value = node.args[0].value, node.args[1]
                    items = value.elts if isinstance(value, ast.Tuple) else [value]
                    found[question] = [ast.unparse(item) for item in items]
    return found


def test_every_part_is_named_as_its_check_passes_it():
    checked = _checked_names()
    for question, key in keys().items():
        if "parts" in key:
            assert [part["name"] for part in key["parts"]] == checked[question], question


def test_every_entry_name_indexes_the_checked_value_from_zero():
    from dynlab.grading.diagnosis import entry_name
    for question, key in keys().items():
        for part in key.get("parts", []):
            shape = tuple(part["shape"])
            size = int(np.prod(shape)) if shape else 1
            value = np.arange(size).reshape(shape) if shape else 0
            if len(shape) == 3:                 # a list of matrices, as the notebooks hand in
                value = [Matrix(matrix) for matrix in value]
            for flat in range(size):
                name = entry_name(part["name"], shape, flat)
                assert eval(name, {part["name"]: value}) == flat, (question, name)  # noqa: S307


def test_a_wrong_entry_is_named_by_the_students_variable_and_python_index():
    # Prob. 3.2: the acceleration is (kx, ky, 0); the student checks `acceleration`
    assert "acceleration[0] has the wrong sign" in str(check("3.2", [-KX, KY, 0]))
    text = str(check("3.16c", (D_CEIL, Matrix([H_CEIL[0], -H_CEIL[1]]), C_CEIL)))
    assert "h[1] has the wrong sign" in text and "h2" not in text
