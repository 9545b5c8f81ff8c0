"""The graded questions of solutions/09_sizing_a_motor (Lynch & Park, Sec. 8.9): each right
answer, computed here by hand from the PUMA 560's inverse dynamics (the quintic's closed form,
Simpson's rule, our own bisection; not dynlab.dynamics.motor_sizing) or from the question's
numbers (A.5-A.7), passes, each typical wrong answer gets its specific feedback, and ``dynlab
grade`` gives a submission with the solution's answers full marks and a blank one none.  The
rotor, the gear ratio, the durations and the payload are each student's own
(dynlab.grading.variants): the tests run as the student ``student`` (conftest.py), whose
practice values ``check()`` grades."""

import math

import numpy as np
import pytest
from scipy.integrate import simpson

from dynlab import inverse_dynamics
from dynlab.dynamics.inverse import probe
from dynlab.grading import check, keys, questions, variant
from tests.support.graded_course import answered, dynlab_grade, hand_in, solution_answers

NOTEBOOK = "09_sizing_a_motor"
PUMA_G = (62.6111, 107.815, 53.7063, 76.0364, 71.923, 76.686)     # Corke & Armstrong-Helouvry
ROTOR = 200e-6                                                    # joints 1-3, kg m^2
QS = [0.0, 0.0, -math.pi / 2, 0.0, 0.0, 0.0]
QR = [0.0, math.pi / 2, -math.pi / 2, 0.0, 0.0, 0.0]
START = np.array([0.0, -math.pi / 4, -math.pi / 2, 0.0, 0.0, 0.0])
# the chapter's candidate motor: stall torque, no-load speed, continuous torque
STALL, NO_LOAD, CONTINUOUS = 1.2, 500.0, 0.45


def diagonal(q):
    from dynlab.model.robots import puma560
    return np.diag(np.asarray(probe(puma560(), q=q, qd=[0.0] * 6).D, dtype=float))


def shoulder(amplitude_degrees, T, samples=801, start=START):
    """``(t, qd2, qdd2, tau2)`` of the quintic turning joint 2 from ``start``, by its closed
    form."""
    from dynlab.model.robots import puma560
    arm = puma560()
    x = np.linspace(0.0, 1.0, samples)
    A = math.radians(amplitude_degrees)
    s = 10 * x**3 - 15 * x**4 + 6 * x**5
    qd2 = 30 * x**2 * (1 - x)**2 * A / T
    qdd2 = 60 * x * (1 - x) * (1 - 2 * x) * A / T**2
    tau2 = []
    for k in range(samples):
        q, qd, qdd = np.array(start, dtype=float), np.zeros(6), np.zeros(6)
        q[1] += s[k] * A
        qd[1], qdd[1] = qd2[k], qdd2[k]
        tau2.append(inverse_dynamics(arm, q, qd, qdd)[1])
    return x * T, qd2, qdd2, np.array(tau2)


GOAL = START + [0.0, math.pi / 2, 0.0, 0.0, 0.0, 0.0]       # 45 degrees above the horizontal


def at_motor(leg, G=PUMA_G[1]):
    """The motor's speed and torque along ``leg`` (``shoulder``'s tuple): omega = G qd,
    tau_motor = tau / G + G I_rotor qdd (Lynch & Park, Sec. 8.9.1-8.9.2)."""
    _, qd2, qdd2, tau2 = leg
    return G * qd2, tau2 / G + G * ROTOR * qdd2


def duty_cycle(T, hold=1.0, rest=1.0):
    """Over chapter 11's cycle (raise 90 degrees in ``T``, hold, lower in ``T``, rest), the
    shoulder motor's RMS torque and the numbers of its typical mistakes: the squares add up,
    weighted by time (Lynch & Park, Sec. 8.9.1); the lowering is integrated on its own."""
    from dynlab.model.robots import puma560
    G = PUMA_G[1]
    up, down = shoulder(90, T), shoulder(-90, T, start=GOAL)
    heat = [simpson(at_motor(leg)[1]**2, x=leg[0]) for leg in (up, down)]
    bare = [simpson((leg[3] / G)**2, x=leg[0]) for leg in (up, down)]
    top, bottom = (inverse_dynamics(puma560(), q, np.zeros(6), np.zeros(6))[1] / G
                   for q in (GOAL, START))
    holds = hold * top**2 + rest * bottom**2
    period = 2 * T + hold + rest
    raise_rms = math.sqrt(heat[0] / T)
    return {"right": math.sqrt((sum(heat) + holds) / period), "raise alone": raise_rms,
            "no lowering": math.sqrt((heat[0] + holds) / (T + hold + rest)),
            "free lowering": math.sqrt((heat[0] + holds) / period),
            "no rotor": math.sqrt((sum(bare) + holds) / period),
            "averaged": (2 * T * raise_rms + hold * abs(top) + rest * abs(bottom)) / period}


def line_margin(leg, G):
    """The least margin under the candidate's speed-torque line along ``leg``."""
    speed, torque = at_motor(leg, G)
    return np.min(STALL * np.clip(1 - np.abs(speed) / NO_LOAD, 0, None) - np.abs(torque))


def line_ends(T):
    """The smallest and the largest gear ratio under the line for the move of ``T`` s."""
    leg = shoulder(100, T)

    def margin(G):
        return line_margin(leg, G)

    def bisect(out, under):                  # margin(out) < 0 <= margin(under)
        assert margin(out) < 0 <= margin(under)
        while abs(under - out) > 1e-6:
            middle = (out + under) / 2
            out, under = (middle, under) if margin(middle) < 0 else (out, middle)
        return under
    # too weak at 20, under the line at 100, out of speed at 300
    return bisect(20.0, 100.0), bisect(300.0, 100.0)


def smallest_ratio(T):
    return line_ends(T)[0]


def matching(D, rotor):
    return math.sqrt(D / rotor)                          # G^2 I_rotor = D


def spread(G, rotor=ROTOR):
    return (D_QS[0] + G**2 * rotor) / (D_QR[0] + G**2 * rotor)


# the candidate's winding (chapter 11, section 3 and 6) and A.6's thermal resistance, K/W
K_T, R_WINDING, LAG, R_TH = 0.096, 3.84, 30.0, 1.2


def waist_cycle(T, dwell=0.5):
    """A.5 by hand: the waist's motor torque is J qdd1, J = D_11/G_1 + G_1 I_rotor (Lynch &
    Park, Sec. 8.9.2); the trapezoid in thirds covers 90 degrees = a (T/3)(2T/3), the torque
    +-J a lasts 2T/3 of each move, and the cycle is two moves and two dwells.  The right RMS
    and the numbers of the typical mistakes."""
    G = PUMA_G[0]
    J = diagonal(START)[0] / G + G * ROTOR
    a = (math.pi / 2) / ((T / 3) * (2 * T / 3))
    period = 2 * T + 2 * dwell

    def over_cycle(torque, on=2 / 3, moves=2):
        return math.sqrt(moves * on * T * torque**2 / period)
    return {"right": over_cycle(J * a), "one move": math.sqrt(2 / 3) * J * a,
            "one way": over_cycle(J * a, moves=1), "no coasting": over_cycle(J * 4 * (
                math.pi / 2) / T**2, on=1), "no rotor": over_cycle(diagonal(START)[0] / G * a),
            "acceleration": over_cycle(J * (math.pi / 2) / (T / 3)**2),
            "degrees": over_cycle(J * a) * 180 / math.pi}


def winding_rise(t):
    """A.6 by hand: the holding torque c_2 / G_2 at the top, the heat P = R (tau / k_t)^2, and
    tau_th theta' = R_th P - theta from theta(0) = 0: theta = R_th P (1 - exp(-t / tau_th))."""
    from dynlab.model.robots import puma560
    torque = inverse_dynamics(puma560(), GOAL, np.zeros(6), np.zeros(6))[1] / PUMA_G[1]
    heat = R_WINDING * (torque / K_T)**2
    return {"right": R_TH * heat * (1 - math.exp(-t / LAG)), "steady": R_TH * heat,
            "exp": R_TH * heat * math.exp(-t / LAG), "linear": R_TH * heat * t / LAG,
            "watts": heat * (1 - math.exp(-t / LAG)),
            "at the joint": R_TH * heat * (1 - math.exp(-t / LAG)) * PUMA_G[1]**2}


def optimal_ratio(payload, rod=3.0, length=0.6):
    """A.7 by hand: J = m L^2/3 (a uniform rod about its end) + m_p L^2, G* = sqrt(J/I_rotor)."""
    J = rod * length**2 / 3 + payload * length**2
    return {"right": math.sqrt(J / ROTOR),
            "centre": math.sqrt((rod * length**2 / 12 + payload * length**2) / ROTOR),
            "no payload": math.sqrt(rod * length**2 / 3 / ROTOR), "no root": J / ROTOR,
            "rod at tip": math.sqrt((rod + payload) * length**2 / ROTOR),
            "upside down": math.sqrt(ROTOR / J)}


D_QS, D_QR = diagonal(QS), diagonal(QR)
ROTOR3, WAIST, CYCLE, LINE, BY_HAND, HOLD, LOAD = (
    variant(q) for q in ("A.1", "A.2", "A.3", "A.4", "A.5", "A.6", "A.7"))
WAIST_CYCLE, RISE, G_STAR = (waist_cycle(BY_HAND["T"]), winding_rise(HOLD["t_hold"]),
                             optimal_ratio(LOAD["m_p"]))
DUTY = duty_cycle(CYCLE["T"])
RIGHT = {
    "A.1": matching(D_QS[2], ROTOR3["I_rotor"]),
    "A.2": spread(WAIST["G1"]),
    "A.3": DUTY["right"],
    "A.4": smallest_ratio(LINE["T"]),
    "A.5": WAIST_CYCLE["right"],
    "A.6": RISE["right"],
    "A.7": G_STAR["right"],
}
WRONG = [
    ("A.1", D_QS[2] / ROTOR3["I_rotor"], "take the square root", "incorrect"),
    ("A.1", matching(D_QS[1], ROTOR3["I_rotor"]), "the question is about joint 3", "incorrect"),
    ("A.2", D_QS[0] / D_QR[0], "the ratio of the arm's own D_11", "incorrect"),
    ("A.2", 1 / RIGHT["A.2"], "the other way up", "incorrect"),
    ("A.3", DUTY["raise alone"], "the RMS over the raise alone", "incorrect"),
    ("A.3", DUTY["no lowering"], "the lowering is missing", "incorrect"),
    ("A.3", DUTY["free lowering"], "the lowering heats the motor as much", "incorrect"),
    ("A.3", DUTY["no rotor"], "the rotor's own torque", "incorrect"),
    ("A.3", DUTY["averaged"], "RMS values do not average", "incorrect"),
    ("A.3", DUTY["right"] * PUMA_G[1], "that is at the joint", "incorrect"),
    ("A.4", line_ends(LINE["T"])[1], "LARGEST ratio under the line", "incorrect"),
    ("A.4", matching(D_QS[1], ROTOR), "inertia-matching ratio", "incorrect"),
    ("A.5", WAIST_CYCLE["one move"], "the RMS over one move", "incorrect"),
    ("A.5", WAIST_CYCLE["one way"], "the move back asks the same torques", "incorrect"),
    ("A.5", WAIST_CYCLE["no coasting"], "that is a bang-bang move", "incorrect"),
    ("A.5", WAIST_CYCLE["no rotor"], "the rotor's own torque G_1 I_rotor qdd", "incorrect"),
    ("A.5", WAIST_CYCLE["acceleration"], "a = 9 theta / (2 T^2)", "incorrect"),
    ("A.5", WAIST_CYCLE["degrees"], "your angle is in degrees", "incorrect"),
    ("A.5", WAIST_CYCLE["right"] * PUMA_G[0], "that is at the joint", "incorrect"),
    ("A.6", RISE["steady"], "after many time constants", "incorrect"),
    ("A.6", RISE["exp"], "the part still to come", "incorrect"),
    ("A.6", RISE["linear"], "the first instant's rate", "incorrect"),
    ("A.6", RISE["watts"], "that is in W", "incorrect"),
    ("A.6", RISE["at the joint"], "divide the joint's gravity torque by G_2", "incorrect"),
    ("A.7", G_STAR["centre"], "inertia about its centre", "incorrect"),
    ("A.7", G_STAR["no payload"], "the payload at the tip is missing", "incorrect"),
    ("A.7", G_STAR["no root"], "take the square root", "incorrect"),
    ("A.7", G_STAR["rod at tip"], "puts the whole rod at its tip", "incorrect"),
    ("A.7", G_STAR["upside down"], "the other way up", "incorrect"),
]


def test_the_table_covers_every_question_and_the_points_add_up():
    assert set(RIGHT) == set(questions(NOTEBOOK)) == {row[0] for row in WRONG}
    assert sum(keys()[q]["points"] for q in questions(NOTEBOOK)) == 11


def test_the_answers_by_hand_are_the_ones_the_chapter_states():
    # chapter 11 and the takeaways quote these to three digits, with the PUMA's own rotors and
    # gear ratios and the chapter's move of 1.5 s
    assert matching(D_QS[2], ROTOR) == pytest.approx(42.53, abs=0.01)
    assert spread(PUMA_G[0], ROTOR) == pytest.approx(2.155, abs=0.001)
    assert D_QS[0] / D_QR[0] == pytest.approx(2.74, abs=0.01)
    assert smallest_ratio(1.5) == pytest.approx(57.47, abs=0.01)
    assert duty_cycle(1.5)["right"] == pytest.approx(0.354, abs=5e-4)      # section 6
    assert duty_cycle(1.5)["raise alone"] == pytest.approx(0.385, abs=5e-4)


def test_the_new_questions_numbers_by_hand():
    """A.5's profile in thirds: its RMS over a move is sqrt(2/3) J a = 3.67 J theta / T^2,
    below the bang-bang's 4 and the quintic's sqrt(120/7) (chapter 11, section 5); A.6's steady
    rise at the continuous torque is R_th R (0.45 / k_t)^2, about 100 K as the question says;
    A.7's G* with a 1 kg payload is sqrt(0.72 / 200e-6) = 60."""
    T, J = 1.0, 1.0
    a = (math.pi / 2) / ((T / 3) * (2 * T / 3))
    assert math.sqrt(2 / 3) * J * a / (J * (math.pi / 2) / T**2) == pytest.approx(3.674, abs=1e-3)
    assert R_TH * R_WINDING * (0.45 / K_T)**2 == pytest.approx(101.3, abs=0.1)
    assert optimal_ratio(1.0)["right"] == pytest.approx(60.0, abs=1e-9)
    # the one-body model integrated step by step agrees with its closed form
    t, theta, dt, steady = 0.0, 0.0, 1e-3, winding_rise(1e9)["steady"]
    while t < HOLD["t_hold"] - dt / 2:
        theta += dt * (steady - theta) / LAG
        t += dt
    assert theta == pytest.approx(RISE["right"], rel=1e-4)


def test_a3s_durations_are_those_the_motor_can_make():
    """Behind the PUMA's gear the candidate motor makes the 90 degree raise (and so the
    lowering, its mirror image) at 1.2 s, the grid's shortest, but not at 1.1 s (chapter 11:
    not at 1 s for any ratio); A.3's grid holds no shorter duration."""
    assert line_margin(shoulder(90, 1.2), PUMA_G[1]) > 0 > line_margin(shoulder(90, 1.1),
                                                                         PUMA_G[1])
    assert keys()["A.3"]["parameters"]["T"]["low"] == 1.2


def test_a1s_grid_leaves_out_the_pumas_own_rotor():
    """A.1's takeaway quotes the answer for the PUMA's own rotor, 200e-6 kg m^2: no student
    draws it."""
    grid = keys()["A.1"]["parameters"]["I_rotor"]
    values = np.arange(grid["low"], grid["high"] + grid["step"] / 2, grid["step"])
    assert np.all(np.abs(values - ROTOR) > 1e-9)


@pytest.mark.parametrize("question", sorted(RIGHT))
def test_a_right_answer_passes(question):
    feedback = check(question, RIGHT[question])
    assert feedback.correct and feedback.points == keys()[question]["points"], str(feedback)


@pytest.mark.parametrize("question, answer, words, status", WRONG,
                         ids=[f"{row[0]}:{row[2][:30]}" for row in WRONG])
def test_a_wrong_answer_gets_its_specific_feedback(question, answer, words, status):
    feedback = check(question, answer)
    assert not feedback.correct and feedback.status == status, str(feedback)
    assert words in str(feedback), str(feedback)


@pytest.mark.end_to_end
def test_dynlab_grade_scores_the_solution_full_and_a_blank_exercise_zero(tmp_path):
    hand_in(tmp_path / "in", NOTEBOOK, {"alice": answered(NOTEBOOK, solution_answers(NOTEBOOK)),
                                        "bob": answered(NOTEBOOK, {})})
    rows = dynlab_grade(tmp_path / "in", tmp_path / "grades.csv")
    assert float(rows["alice"]["total"]) == 11 == float(rows["alice"]["max"])
    assert float(rows["bob"]["total"]) == 0
