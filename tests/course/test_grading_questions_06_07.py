"""The graded questions of solutions/06_dalembert_newton_euler_and_simulation and
solutions/07_modern_form: each right answer, written here in plain closed form (or computed by
hand, not by dynlab), passes in under 2 s, and each typical wrong answer gets its specific
feedback.  The same checks as tests/grading/test_grading.py's table, on these questions."""

import math
import re
from pathlib import Path

import numpy as np
import pytest
import sympy
from scipy.special import ellipk
from sympy import Matrix, cos, sin, zeros

from dynlab.grading import Feedback, check, keys, questions, variant

from .by_hand.recursions import mistakes as recursion_mistakes
from .by_hand.recursions import right as recursion_right

#: grading one answer (a student's shift-enter) must take less than this (issue 5)
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
# N.1's arm has joint 2 twisted about x1 by the student's alpha1 (variant("N.1"), degrees):
# Eqs. (3.3-50), (3.3-51) with 1R0 z0 = (0, sin alpha1, cos alpha1), turned by 2R1 = Rz(q2)^T
_TWIST = sympy.pi * sympy.Rational(repr(variant("N.1")["alpha1"])) / 180
OMEGA2 = Matrix([sin(_TWIST) * qd1 * S2, sin(_TWIST) * qd1 * C2, cos(_TWIST) * qd1 + qd2])
OMEGA_DOT2 = Matrix([sin(_TWIST) * (qdd1 * S2 + qd1 * qd2 * C2),
                     sin(_TWIST) * (qdd1 * C2 - qd1 * qd2 * S2), cos(_TWIST) * qdd1 + qdd2])
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
# D.1, D.2, S.1 and S.2 have givens drawn per student (dynlab.grading.variants): the tests run as
# the student "student" (conftest.py), whose values these are
LOADS, SPEED, SWING, ROD = variant("D.1"), variant("D.2"), variant("S.1"), variant("S.2")
M2, MP = LOADS["m2"], LOADS["Mp"]
C1_LOADED = G0 * ((2.0 / 2 + M2 + MP) * math.cos(math.pi / 3) + (M2 / 2 + MP) * 1.0)
H2_FAST = 1.0 * math.sin(-math.pi / 3) * SPEED["qd1"]**2 / 2    # m2 l^2 S2 qd1^2 / 2
# the pendulum (a = 0.5 m): period at 45 degrees (chapter 07's exact formula), Euler by hand
A_PEND = 0.5
T0 = 2 * math.pi * math.sqrt(2 * A_PEND / (3 * G0))
T45 = T0 * 2 / math.pi * ellipk(math.sin(math.radians(SWING["amplitude"] / 2))**2)


def euler_energy_gain(h=0.01, seconds=2.0, a=A_PEND, m=ROD["m1"]):
    """Lynch & Park, Sec. 8.5's Euler steps on the pendulum released at rest from q = 0:
    qdd = -3 g cos q / (2 a), E = m a^2 qd^2 / 6 + m g (a/2) sin q."""
    q, qd = 0.0, 0.0
    for _ in range(round(seconds / h)):
        qdd = -3 * G0 * math.cos(q) / (2 * a)
        q, qd = q + h * qd, qd + h * qdd
    return m * a**2 * qd**2 / 6 + m * G0 * a / 2 * math.sin(q)


# -- Lynch & Park: a rod in another frame (Sec. 8.2), the 2R arm of Sec. 8.1.1 --------------------
m, theta = sympy.Symbol("m", positive=True), sympy.Symbol("theta", real=True)
L1, L2 = sympy.symbols("L1 L2", positive=True)


def skew(p):
    return Matrix([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])


# T.1 to T.4 have givens drawn per student too: where the rod's joint sits (d l from its centre)
# and where mass 2 sits on link 2 (rho L2 from joint 2, each question its own rho)
PIVOT, R2, R3, R4 = variant("T.1")["d"], *(variant(q)["rho"] * L2 for q in ("T.2", "T.3", "T.4"))
R_AB = Matrix([[cos(theta), -sin(theta), 0], [sin(theta), cos(theta), 0], [0, 0, 1]])
CENTRE = R_AB * Matrix([PIVOT * l, 0, 0])
I_ROD = R_AB * sympy.diag(0, m * l**2 / 12, m * l**2 / 12) * R_AB.T
G_A = Matrix(sympy.BlockMatrix([[I_ROD + m * skew(CENTRE) * skew(CENTRE).T, m * skew(CENTRE)],
                                [m * skew(CENTRE).T, m * sympy.eye(3)]]))


def twist_lp(r):
    """V_2, Vdot_2 of the 2R arm of Sec. 8.1.1 with mass 2 (and frame {2}) at r from joint 2."""
    return (Matrix([0, 0, qd1 + qd2, L1 * S2 * qd1, L1 * C2 * qd1 + r * (qd1 + qd2), 0]),
            Matrix([0, 0, qdd1 + qdd2, L1 * C2 * qd1 * qd2 + L1 * S2 * qdd1 + g * S12,
                    -L1 * S2 * qd1 * qd2 + L1 * C2 * qdd1 + r * (qdd1 + qdd2) + g * C12, 0]))


V2, VDOT2 = twist_lp(R2)
# the wrench on link 2 at its mass (no moment about it) and tau_2 = F_2^T A_2 (Sec. 8.1.1's tau_2
# with R3 for L2), at T.3's rho
V2_3, VDOT2_3 = twist_lp(R3)
ACC2 = VDOT2_3[3:, 0] + V2_3[:3, 0].cross(V2_3[3:, 0])  # the mass's acceleration: vdot + w x v
F2_LP = Matrix([0, 0, 0, m2 * ACC2[0], m2 * ACC2[1], 0])
TAU2_LP = m2 * (L1 * R3 * C2 + R3**2) * qdd1 + m2 * R3**2 * qdd2 + m2 * L1 * R3 * S2 * qd1**2 \
    + m2 * g * R3 * C12
# at T.4's rho
A_STACK = Matrix([[0, 0], [0, 0], [1, 0], [0, 0], [L1, 0], [0, 0],
                  [0, 0], [0, 0], [0, 1], [0, 0], [0, R4], [0, 0]])
LA = Matrix([[0, 0], [0, 0], [1, 0], [0, 0], [L1, 0], [0, 0],
             [0, 0], [0, 0], [1, 1], [L1 * S2, 0], [L1 * C2 + R4, R4], [0, 0]])
M_LP = Matrix([[m1 * L1**2 + m2 * (L1**2 + 2 * L1 * R4 * C2 + R4**2), m2 * (L1 * R4 * C2 + R4**2)],
               [m2 * (L1 * R4 * C2 + R4**2), m2 * R4**2]])

RIGHT = {
    # G.1, G.2, N.2, N.3 and N.4 ask about the student's own arm (link 2 lam times link 1, the
    # cable at phi): written by hand in tests/course/by_hand/recursions.py, at the values of
    # the student "student"
    **{q: recursion_right(q, variant(q)) for q in ("G.1", "G.2", "N.2", "N.3", "N.4")},
    "N.1": (OMEGA2, OMEGA_DOT2),
    "D.1": C1_LOADED,
    "D.2": H2_FAST,
    "S.1": T45,
    "S.2": euler_energy_gain(),
    "T.1": G_A,
    "T.2": (V2, VDOT2),
    "T.3": (F2_LP, TAU2_LP),
    "T.4": (LA, M_LP),
}

# the wrong models behind the typical mistakes, written out
D_TRAN_TIPS = Matrix([[(m1 + m2) * l**2 + m2 * l**2 + 2 * m2 * l**2 * C2, m2 * l**2 * (1 + C2)],
                      [m2 * l**2 * (1 + C2), m2 * l**2]])          # masses at the rods' tips
H_TRAN_TIPS = Matrix([-m2 * l**2 * S2 * (2 * qd1 * qd2 + qd2**2), m2 * l**2 * S2 * qd1**2])
R21 = Matrix([[C2, S2, 0], [-S2, C2, 0], [0, 0, 1]])
V_DOT1 = Matrix([-l * qd1**2 + g * S1, l * qdd1 + g * C1, 0])       # Sec. 3.3.7, 1R0 v_dot_1
V_DOT2_UNROTATED = V_DOT2 - R21 * V_DOT1 + V_DOT1
N2_ALONE = Matrix([0, 0, m2 * l**2 / 12 * (qdd1 + qdd2)])
# s_2 x F_2 with s_2 = (-l/2, 0, 0)
N2_ABOUT_TIP = N2_ALONE + Matrix([0, 0, -l / 2 * F2[1]])
WEIGHT = Matrix([0, F, 0])
LEVER = Matrix([0, 0, F * a1 * C1])

# the dashboard's total tau_1 at the same state: D qdd + h + c of the arm with m2 = 2 kg and the
# payload Mp = 0.3 kg at the tip (its point-mass terms as in the thesis appendix, App. B)
_state = {m1: 2, m2: M2, l: 1, g: G0, q1: math.pi / 3, q2: -math.pi / 3, qd1: 1, qd2: 0.5,
          qdd1: 1, qdd2: -1}
_TIP = Matrix([l * C1 + l * C12, l * S1 + l * S12])
_J = _TIP.jacobian([q1, q2])
_qd, _qdd = Matrix([qd1, qd2]), Matrix([qdd1, qdd2])
_H_FU = Matrix([-m2 * l**2 * S2 * (qd1 * qd2 + qd2**2 / 2), m2 * l**2 * S2 * qd1**2 / 2])
_C_FU = Matrix([g * l * (m1 / 2 + m2) * C1 + g * l * m2 / 2 * C12, g * l * m2 / 2 * C12])
_payload = MP * (_J.T * _J * _qdd + _J.T * (_J.diff(q1) * qd1 + _J.diff(q2) * qd2) * _qd
                  + Matrix([g * _TIP[1].diff(v) for v in (q1, q2)]))
TOTAL_LOADED = [float(v) for v in (D_FU * _qdd + _H_FU + _C_FU + _payload).subs(_state)]
assert math.isclose(float(_C_FU[0].subs(_state) + _payload.subs(
    {qd1: 0, qd2: 0, qdd1: 0, qdd2: 0}).subs(_state)[0]), C1_LOADED)


def adjoint(R, p):
    """[Ad_T] for T = (R, p) (the adjoint representation, Lynch & Park, Sec. 3.3.2):
    [[R, 0], [[p] R, R]]."""
    return Matrix(sympy.BlockMatrix([[R, zeros(3, 3)], [skew(p) * R, R]]))


G_B = sympy.diag(0, m * l**2 / 12, m * l**2 / 12, m, m, m)
AD_AB = adjoint(R_AB, CENTRE)
AD_BA = adjoint(R_AB.T, -R_AB.T * CENTRE)

# question, answer, words the feedback must contain, status
WRONG = [
    # G-D, Fu, Gonzalez & Lee, Sec. 3.4.2, and the Newton-Euler passes of Table 3.3 and of
    # Schilling's Algorithm 6-8-1, on the student's own arm: each typical slip at their values
    *[(q, answer, words, "incorrect") for q in ("G.1", "G.2", "N.2", "N.3", "N.4")
      for answer, words in recursion_mistakes(q, variant(q))],
    ("G.1", RIGHT["G.1"][::-1], "D_rot and D_tran are swapped", "incorrect"),
    ("G.2", RIGHT["G.2"][::-1], "h_rot and h_tran are swapped", "incorrect"),
    ("G.2", (zeros(2, 1), -RIGHT["G.2"][1]), "h_tran has the wrong sign", "incorrect"),
    ("N.1", (Matrix([0, 0, qd2]), OMEGA_DOT2), "ABSOLUTE angular velocity", "incorrect"),
    ("N.1", (OMEGA2, Matrix([0, 0, qdd2])), "carries link 1's over", "incorrect"),
    ("N.1", (OMEGA2, Matrix([0, 0, qdd1 + qdd2])), "that is the planar arm's", "incorrect"),
    ("N.1", (OMEGA2, OMEGA_DOT2 + Matrix([0, 0, qd1 * qd2])),
     "omega_dot2[2] has a qd1*qd2 (Coriolis) term that does not belong there", "incorrect"),
    ("N.3", (RIGHT["N.3"][0], RIGHT["N.3"][1] + Matrix([0, 0, m2 * sympy.Symbol("C12")])),
     "unknown symbols C12 in n2; the expected symbols are", "not graded"),
    ("N.4", RIGHT["N.4"][:2], "This question has 3 parts: give them as a tuple (f1, n1, tau1)",
     "not graded"),
    # the dashboard of chapter 02
    ("D.1", TOTAL_LOADED[0], "that is the total tau_1", "incorrect"),
    ("D.1", G0 * (M2 / 2 + MP), "that is joint 2's gravity torque", "incorrect"),
    ("D.1", G0 * ((1.0 + M2) * 0.5 + M2 / 2), "the payload at the tip is missing", "incorrect"),
    ("D.1", G0 * (2.0 * 0.5 + 0.5), "set m2 and the payload to your values first",
     "incorrect"),
    ("D.1", "twenty", "numbers are asked here, but the answer contains the symbols twenty",
     "not graded"),
    ("D.2", 1.0 * math.sin(-math.pi / 3) / 2, "that is the reading at the opening state",
     "incorrect"),
    ("D.2", -H2_FAST, "D.2  ✗ 0/1 points", "incorrect"),
    # simulation
    ("S.1", T0, "that is the small-angle period", "incorrect"),
    ("S.1", 2 * math.pi * math.sqrt(A_PEND / G0), "the pendulum is a uniform rod", "incorrect"),
    ("S.1", T45 / 2, "that is half a period", "incorrect"),
    ("S.2", 0.0, "that is the exact motion's energy change", "incorrect"),
    ("S.2", -euler_energy_gain(), "Euler's method ADDS energy", "incorrect"),
    ("S.2", euler_energy_gain(h=0.001), "that is Euler with a step of 1 ms", "incorrect"),
    # Lynch & Park
    ("T.1", G_A.subs(theta, 0), "that is the spatial inertia for theta = 0", "incorrect"),
    ("T.1", sympy.diag(G_A[:3, :3], m * sympy.eye(3)), "the off-diagonal blocks m [p] are missing",
     "incorrect"),
    ("T.1", AD_AB.T * G_B * AD_AB, "not [Ad_{T_ab}]", "incorrect"),
    ("T.1", AD_BA * G_B * AD_BA.T, "(transpose on the left)", "incorrect"),
    ("T.1", G_A[:3, :3], "wrong shape: G_a should be a 6x6 matrix, but the answer is a 3x3 matrix",
     "not graded"),
    ("T.2", (Matrix([0, 0, qd1 + qd2, 0, L1 * qd1 + R2 * qd2, 0]), VDOT2),
     "bring V_1 into frame {2} with Ad_{T_21}", "incorrect"),
    ("T.2", (V2, VDOT2.subs(g, -g)), "the printed initialisation (0, g)", "incorrect"),
    ("T.2", (V2, VDOT2.subs(g, 0)), "the recursion starts from Vdot_0", "incorrect"),
    ("T.3", (Matrix([0, 0, 0, m2 * VDOT2_3[3], m2 * VDOT2_3[4], 0]), TAU2_LP),
     "the term -ad^T_{V_2}(G_2 V_2) is missing", "incorrect"),
    ("T.3", (2 * Matrix([0, 0, 0, m2 * VDOT2_3[3], m2 * VDOT2_3[4], 0]) - F2_LP, TAU2_LP),
     "the bias term enters with a minus sign", "incorrect"),
    ("T.3", (F2_LP, TAU2_LP - m2 * L1 * R3 * S2 * (qd1**2 + qd1 * qd2)),
     "and with it the centrifugal torque", "incorrect"),
    ("T.4", (A_STACK, M_LP), "LA: that is A alone", "incorrect"),
    ("T.4", (LA, sympy.diag(m1 * L1**2, m2 * R4**2)), "that is A^T G A, without L", "incorrect"),
    ("T.4", (LA, M_LP.subs(C2, -C2)), "M: M[0, 1] is wrong: a term is missing or wrong",
     "incorrect"),
]


def test_the_table_covers_every_question_of_the_two_notebooks():
    mine = {q for notebook in NOTEBOOKS for q in questions(notebook)}
    assert set(RIGHT) == mine and len(mine) == 14
    assert {row[0] for row in WRONG} == mine
    assert len([row for row in WRONG if row[3] == "incorrect"]) >= 2 * len(mine)


def test_points_add_up_per_notebook():
    totals = {}
    for question in RIGHT:
        key = keys()[question]
        assert key["points"] == int(key["points"]) >= 1
        totals[key["notebook"]] = totals.get(key["notebook"], 0) + key["points"]
    assert totals == {NOTEBOOKS[0]: 19, NOTEBOOKS[1]: 8}


@pytest.mark.parametrize("question", sorted(RIGHT))
def test_a_right_answer_passes(question):
    feedback = check(question, RIGHT[question])
    assert feedback.correct, str(feedback)
    assert feedback.status == "correct" and feedback.points == keys()[question]["points"]
    assert str(feedback).startswith(f"{question}  ✓")


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


def test_a_reading_within_the_tolerance_is_right_and_one_beyond_it_is_not():
    """A dashboard shows three decimals and a bar: a reading within 0.5 % of the largest value
    is right (D.1, D.2); the simulated numbers allow 0.2 % (S.1) and 1e-4 (S.2), less than the
    gap to every typical mistake."""
    assert check("D.1", round(C1_LOADED, 2)).correct
    assert check("D.1", C1_LOADED * 1.004).correct
    assert not check("D.1", C1_LOADED * 1.01).correct
    assert check("D.2", round(H2_FAST, 3)).correct
    assert check("S.1", round(T45, 3)).correct
    assert not check("S.1", T45 * 1.01).correct
    assert check("S.2", round(euler_energy_gain(), 4)).correct
    assert not check("S.2", euler_energy_gain() * 1.01).correct


def test_the_euler_key_is_the_hand_iteration():
    """S.2's key comes from dynlab.simulate; the hand iteration here (Lynch & Park, Sec. 8.5,
    on Schilling's one-axis arm) gives the same number, and halving the step halves the gain
    (first order)."""
    assert check("S.2", euler_energy_gain()).correct
    ratio = euler_energy_gain(h=0.005) / euler_energy_gain(h=0.01)
    assert 0.4 < ratio < 0.6


def test_equivalent_forms_are_accepted():
    # G-D parts as nested lists, the twist as a flat tuple, M expanded
    D_rot, D_tran = RIGHT["G.1"]
    assert check("G.1", (D_rot.tolist(), D_tran.applyfunc(sympy.expand).tolist())).correct
    assert check("T.2", (tuple(V2), VDOT2.applyfunc(sympy.expand_trig))).correct
    assert check("T.4", (LA, M_LP.applyfunc(sympy.expand))).correct
    assert check("T.1", G_A.applyfunc(lambda e: sympy.expand(sympy.expand_trig(e)))).correct
    assert check("D.1", np.float64(C1_LOADED)).correct
    f1, n1, tau1 = RIGHT["N.4"]
    assert check("N.4", {"f1": f1, "n1": n1, "tau1": sympy.expand(tau1)}).correct


#: text of the two solution notebooks that states an answer: none of it may reach an exercise
ANSWER_TEXTS = [
    r"\frac{l^2}{12}\begin{bmatrix} m_1 + \lambda^2 m_2",                          # G.1
    r"$\mathbf h^{\rm rot} = \mathbf 0$",                                           # G.2
    r"\tfrac13 m_2 l_2^2 (\ddot q_1 + \ddot q_2) + \tfrac12 m_2 l l_2 (C_2\ddot q_1",  # N.3
    r"\tfrac13 m_1a_1^2\ddot q_1 + \tfrac12 m_1ga_1C_1 + Fa_1\sin(q_1 + \varphi)",  # N.4
    r"(m_1/2 + m_2 + M_p)C_1 + (m_2/2 + M_p)C_{12}]$ with",                          # D.1
    r"h_2 = \tfrac12 m_2 l^2 S_2 \dot q_1^2 = \tfrac12 \sin(-\pi/3)\,\dot q_1^2$",        # D.2
    r"$T = T_0\,\tfrac{2}{\pi}K(\sin^2(\theta_0/2))$",                                # S.1
    r"$\Delta E \approx +1.05$ J",                                                  # S.2
    r"R_z(\theta)\,\mathcal I_b\,R_z(\theta)^T + m[c]^T[c]",                       # T.1
    r"L_1 S_2\dot q_1,\ L_1C_2\dot q_1 + \rho L_2(\dot q_1 + \dot q_2)",          # T.2
    r"m_2(L_1rC_2 + r^2)\ddot q_1 + m_2r^2\ddot q_2",                              # T.3
    r"$M_{22} = m_2r^2$",                                                           # T.4
]


def _text_of(folder, notebook):
    import nbformat
    path = Path(__file__).resolve().parents[2] / folder / f"{notebook}.ipynb"
    return "\n".join(cell.source for cell in nbformat.read(path, as_version=4).cells)


def test_the_exercises_state_no_answer_and_the_takeaways_do():
    """The answers are stated in the takeaways (the NOTES of tools/answer_keys/<notebook>.py,
    sealed into the keys and shown by check() once an answer is right), never in the released
    notebooks or the keys."""
    import sys
    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root / "tools"))
    import make_answer_keys
    takeaways = "\n".join(texts.get("takeaway", "") for notebook in NOTEBOOKS
                          for texts in make_answer_keys.notes(notebook).values())
    released = "\n".join(_text_of(folder, notebook) for notebook in NOTEBOOKS
                          for folder in ("solutions", "exercises"))
    keys = "\n".join((root / "dynlab" / "answer_keys" / f"{notebook}.json").read_text()
                      for notebook in NOTEBOOKS)
    assert [text for text in ANSWER_TEXTS if text not in takeaways] == []
    assert [text for text in ANSWER_TEXTS if text in released] == []
    assert [text for text in ANSWER_TEXTS if text in keys] == []


# -- a number's feedback does not give the number away --------------------------------------------
def _numbers_in(text: str) -> list:
    """The numbers a feedback text prints (``1/2`` as 0.5), not the digits of names such as
    ``c1``, ``D12``, ``g_LE[3]`` nor of the header line ``D.1  ✗ 0/1 points``."""
    body = text.split("\n", 1)[1] if "\n" in text else ""
    found = []
    for match in re.finditer(r"(?<![\w.\[])(\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?:/(\d+))?"
                             r"(?![\w\]])", body):
        value = float(match.group(0).split("/")[0])
        found.append(value / float(match.group(2)) if match.group(2) else value)
    return found


def _revealing(answers, rights) -> list:
    """What would give the right numbers away: each right number, and each ratio of a right
    number to the answer's (either way round)."""
    result = []
    for answer, right in zip(np.ravel(answers).astype(float), np.ravel(rights).astype(float)):
        if right != 0:
            result.append(abs(right))
            if answer != 0:
                result += [abs(right / answer), abs(answer / right)]
    return result


def _numeric_right_answers() -> dict:
    from dynlab.grading.keys import reference
    def at_variant(question):                      # the key's expressions at our givens
        given = dict(variant(question))
        return {part: np.array([float(sympy.sympify(x).subs(given)) for x in values])
                for part, values in reference(keys()[question]).items() if isinstance(part, str)}
    puma, ceiling = at_variant("3.11"), at_variant("3.13a")
    return {"D.1": C1_LOADED, "D.2": H2_FAST, "S.1": T45, "S.2": euler_energy_gain(),
            "3.11": (np.reshape(puma["D"], (3, 3)), puma["h"], puma["c"]),
            "3.13a": (ceiling["g_LE"], ceiling["v_dot0_NE"]),
            # a symbolic key whose entries are numbers: the student's own (kx, ky, 0)
            "3.2": np.array([variant("3.2")["kx"], variant("3.2")["ky"], 0.0])}


#: factors that are no typical slip (none of -1, 2, 1/2, 3, 1/3, degrees) and not within 1 %
ARBITRARY_FACTORS = (0.967911, 1.3, 1.5, 0.8, 4 / 3, 1.05, 7.0, -0.3, 0.1, 10.0, 0.6180339, 2.5)


def _scaled(question, right, factor, where):
    """The right answer with ``factor`` applied to the whole (``where`` None) or to one part."""
    if not isinstance(right, tuple):
        return right * factor
    return tuple(part * factor if where in (None, index) else part
                 for index, part in enumerate(right))


@pytest.mark.parametrize("question", ["D.1", "D.2", "S.1", "S.2", "3.11", "3.13a", "3.2"])
def test_the_feedback_on_a_wrong_number_does_not_give_the_right_number_away(question):
    """A numeric key (and a symbolic key whose entries are numbers): "c1 is 0.967911 times the
    right value" would give c1 itself (the answer divided by 0.967911), and with it every
    guess would be one step from the points. So no wrong answer that is not a named slip gets a
    number from which a right one follows: no ratio either way, no right value."""
    right = _numeric_right_answers()[question]
    wheres = [None] + (list(range(len(right))) if isinstance(right, tuple) else [])
    for factor in ARBITRARY_FACTORS:
        for where in wheres:
            answer = _scaled(question, right, factor, where)
            feedback = check(question, [a.tolist() for a in answer]
                             if isinstance(answer, tuple) else
                             answer.tolist() if isinstance(answer, np.ndarray) else answer)
            text = str(feedback)
            assert not feedback.correct and feedback.status == "incorrect", text
            flat_answer = np.concatenate([np.ravel(a) for a in answer]) \
                if isinstance(answer, tuple) else np.ravel(answer)
            flat_right = np.concatenate([np.ravel(r) for r in right]) \
                if isinstance(right, tuple) else np.ravel(right)
            for shown in _numbers_in(text):
                for secret in _revealing(flat_answer, flat_right):
                    assert abs(shown - secret) > 1e-3 * secret, (factor, where, shown, text)
            assert "times the right value" not in text, text
    # a guess that is no multiple of the key either
    if not isinstance(right, tuple) and np.ndim(right) == 0:
        for guess in (1.0, 42.0, -3.7, 1e6):
            text = str(check(question, guess))
            assert "times the right value" not in text and "wrong" in text, text


@pytest.mark.parametrize("question, answer, words", [
    # the slips that are named, at the key's tolerance (a dashboard reading 2x, 0.3 % off)
    ("D.1", lambda r: -r, "c1 has the wrong sign"),
    ("D.1", lambda r: 2 * r * 1.003, "c1 is 2 times the right value (a missing 1/2?)"),
    ("D.2", lambda r: r / 2, "h2 is 1/2 times the right value (an extra 1/2?)"),
    ("S.1", lambda r: 3 * r, "T is 3 times the right value"),
    ("S.1", lambda r: r / 3, "T is 1/3 times the right value"),
    ("D.1", lambda r: r * math.pi / 180,
     "c1 is (pi/180) times the right value (angles or rates in degrees?)"),
    ("S.2", lambda r: r * (180 / math.pi) ** 2,
     "dE is (180/pi)^2 times the right value (angles or rates in degrees?)"),
    ("D.2", lambda r: round(r * 1.008, 3), "h2 is close but not equal (within 1 %): a rounded "
                                           "constant, such as g with too few digits?"),
    # the key's own typical mistakes
    ("S.1", lambda r: r / 2, "that is half a period"),
    ("S.2", lambda r: -r, "Euler's method ADDS energy"),
    ("3.13a", lambda r: ([round(r[0][0] * 1.003, 2)] + r[0][1:].tolist(), r[1].tolist()),
     "g_LE[0] is close but not equal (within 1 %)"),
    ("3.13a", lambda r: ((-r[0]).tolist(), r[1].tolist()),
     "in L-E, g is the acceleration of gravity"),
    ("3.11", lambda r: (r[0].tolist(), (-r[1]).tolist(), r[2].tolist()), "h has the wrong sign"),
    ("3.2", lambda r: (2 * r).tolist(), "acceleration is 2 times the right value (a missing 1/2?)"),
])
def test_the_named_slips_of_a_number_are_still_diagnosed(question, answer, words):
    feedback = check(question, answer(_numeric_right_answers()[question]))
    assert not feedback.correct and words in str(feedback), str(feedback)


def test_a_numeric_answer_is_asked_for_as_a_number():
    for question in ("D.1", "D.2", "S.1", "S.2"):
        text = str(check(question, ...))
        assert "replace the ... by your answer (a number)" in text, text
    assert "wrong shape: c1 should be a number, but the answer is a 3-vector" in \
        str(check("D.1", [1.0, 2.0, 3.0]))
    assert "(a single expression)" in str(check("C.3", ...))          # a symbolic one is not
