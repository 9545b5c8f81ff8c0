"""A variant per student for the numeric questions of exercises 08 and 09: U.1 and U.2 (the
UR20's screw axes at a pose, its holding torques with a payload), U.3 (the student's own
two-link arm), A.1 to A.7 (sizing the PUMA 560's motors; A.3, A.5 to A.7 worked by hand in
tests/course/test_grading_questions_09.py, U.3 in _08.py).

Each right answer here is computed by a route independent of the keys: by hand from the file's
joint table and the maker's table (U.1, Rodrigues' formula; A.4, the quintic's closed form and a
bisection, from tests/course/test_grading_questions_08.py and _09.py), or by dynlab's numeric calls
at the student's givens (U.2, A.1 to A.3), where the keys hold expressions in the givens.  For each
question: the right answer scores full points for two students at their own practice values; one
student's number scores 0 for the other; with the instructor's keys and course secret, the
practice-value answer scores 0 at the graded values and the graded-value answer full; and each
typical mistake, made at another student's values, still gets its feedback.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from dynlab import inverse_dynamics
from dynlab.dynamics.forward import inertia_and_bias
from dynlab.dynamics.motor_sizing import (
    CANDIDATE_MOTOR,
    PUMA560_GEAR_RATIOS,
    PUMA560_ROTOR_INERTIAS,
    apparent_inertia,
    shoulder_move,
)
from dynlab.model.edits import with_payload
from dynlab.model.robots import PUMA560_POSES, UR20_URDF, from_urdf, puma560

from ..test_grading_questions_08 import MINE_L, MINE_M, MINE_R, own_arm, screw_axes
from ..test_grading_questions_08 import G as GRAVITY
from ..test_grading_questions_09 import (
    PUMA_G,
    duty_cycle,
    line_ends,
    optimal_ratio,
    shoulder,
    waist_cycle,
    winding_rise,
)

CLASS = [f"s{number:03d}" for number in range(40)]


def _key(given) -> tuple:
    return tuple(sorted(dict(given).items()))


# -- the right answers, not from the keys ---------------------------------------------------------
@functools.cache
def ur20():
    return from_urdf(UR20_URDF)


@functools.cache
def puma():
    return puma560()


def pose(name):
    return np.array([float(v) for v in PUMA560_POSES[name]])


@functools.cache
def diagonal(name):
    return np.diag(inertia_and_bias(puma(), pose(name), np.zeros(6))[0])


def held_by_dynlab(payload, q2):
    """The torques of joints 2 and 3 holding ``payload`` at rest, the arm straight at ``q2``
    degrees: dynlab's inverse dynamics of the loaded arm (Fu, Gonzalez & Lee, Eq. (3.2-26) with
    qd = qdd = 0)."""
    rest = [0.0] * 6
    tau = inverse_dynamics(with_payload(ur20(), payload),
                           [0.0, math.radians(q2), 0.0, 0.0, 0.0, 0.0], rest, rest)
    return float(tau[1]), float(tau[2])


@functools.cache
def ratios(T):
    """The smallest and largest gear ratios under the line (by hand, _09's bisection) and the
    smallest within the continuous rating, by our own bisection of the RMS torque (Simpson's
    rule), for A.4's 100 degree move in ``T`` s."""
    from scipy.integrate import simpson
    smallest, largest = line_ends(T)
    t, _, qdd2, tau2 = shoulder(100, T)
    rotor = CANDIDATE_MOTOR.rotor_inertia

    def over(G):                       # the RMS torque above the continuous rating
        return math.sqrt(simpson((tau2 / G + G * rotor * qdd2)**2, x=t) / T) \
            - CANDIDATE_MOTOR.continuous_torque
    out, under = 20.0, 300.0
    assert over(out) > 0 >= over(under)
    while under - out > 1e-6:
        middle = (out + under) / 2
        out, under = (middle, under) if over(middle) > 0 else (out, middle)
    return smallest, largest, under


def right(question, given):
    """The right answer of ``question`` at the givens ``given``."""
    return _right(question, _key(given))


@functools.cache
def _right(question, items):
    given = dict(items)
    if question == "U.1":
        return screw_axes(given["q2"], given["q3"])
    if question == "U.2":
        return held_by_dynlab(given["payload"], given["q2"])
    if question == "A.1":                                # G^2 I_rotor = D_33
        return math.sqrt(diagonal("qs")[2] / given["I_rotor"])
    if question == "A.2":
        seen = [apparent_inertia(puma(), pose(n), 1, rotor_inertia=PUMA560_ROTOR_INERTIAS[0],
                                 gear_ratio=given["G1"]) for n in ("qs", "qr")]
        return seen[0] / seen[1]
    if question == "A.3":
        return duty_cycle(given["T"])["right"]
    if question == "A.5":
        return waist_cycle(given["T"])["right"]
    if question == "A.6":
        return winding_rise(given["t_hold"])["right"]
    if question == "A.7":
        return optimal_ratio(given["m_p"])["right"]
    if question == "U.3":
        return np.array(own_arm(given["q1"], given["q2"]))
    return ratios(given["T"])[0]


def mistakes(question, given) -> list:
    """``[(wrong answer, words its feedback must hold)]`` at the givens ``given``."""
    if question == "U.1":
        J3, J5 = right(question, given)
        home3, home5 = screw_axes(0.0, 0.0)

        def flip(S):
            return np.r_[S[:3], -S[3:]]
        return [((flip(J3), J5), "v = -omega x p"), ((J3, flip(J5)), "v = -omega x p"),
                ((home3, J5), "that is the elbow's screw axis at home"),
                ((J3, home5), "that is the screw axis at home"),
                (screw_axes(-given["q2"], given["q3"]), "joint 2 turned the wrong way"),
                ((J3, screw_axes(given["q2"], 0.0)[1]), "the elbow's turn is missing"),
                (screw_axes(math.degrees(given["q2"]), math.degrees(given["q3"])),
                 "your angles are in degrees")]
    if question == "U.2":
        c2, c3 = right(question, given)
        bare = held_by_dynlab(0.0, given["q2"])
        return [((-c2, c3), "the motor holds the arm with the opposite torque"),
                ((c2, -c3), "the motor holds the arm with the opposite torque"),
                ((c2, bare[1]), "the payload at the flange is missing"),
                (bare, "the payload at the flange is missing"),
                (held_by_dynlab(given["payload"], 0.0), "that is the arm held horizontal"),
                (held_by_dynlab(given["payload"], math.degrees(given["q2"])),
                 "your angle is in degrees")]
    if question == "A.1":
        D = diagonal("qs")
        return [(D[2] / given["I_rotor"], "take the square root"),
                (math.sqrt(D[1] / given["I_rotor"]), "the question is about joint 3"),
                (D[2] / given["I_rotor"] / PUMA560_GEAR_RATIOS[2], "not G I_rotor")]
    if question == "A.2":
        s, r = diagonal("qs")[0], diagonal("qr")[0]
        G, I = given["G1"], PUMA560_ROTOR_INERTIAS[0]
        return [(s / r, "the ratio of the arm's own D_11"),
                (1 / right(question, given), "the other way up"),
                ((s + G * I) / (r + G * I), "not G I_rotor")]
    if question == "A.3":
        duty = duty_cycle(given["T"])
        return [(duty["raise alone"], "the RMS over the raise alone"),
                (duty["no lowering"], "the lowering is missing"),
                (duty["free lowering"], "the lowering heats the motor as much"),
                (duty["no rotor"], "the rotor's own torque"),
                (duty["averaged"], "RMS values do not average"),
                (duty["right"] * PUMA560_GEAR_RATIOS[1], "that is at the joint")]
    if question == "A.5":
        waist = waist_cycle(given["T"])
        return [(waist["one move"], "the RMS over one move"),
                (waist["one way"], "the move back asks the same torques"),
                (waist["no coasting"], "that is a bang-bang move"),
                (waist["no rotor"], "the rotor's own torque G_1 I_rotor qdd"),
                (waist["acceleration"], "a = 9 theta / (2 T^2)"),
                (waist["degrees"], "your angle is in degrees"),
                (waist["right"] * PUMA_G[0], "that is at the joint")]
    if question == "A.6":
        rise = winding_rise(given["t_hold"])
        return [(rise["steady"], "after many time constants"),
                (rise["exp"], "the part still to come"),
                (rise["linear"], "the first instant's rate"),
                (rise["watts"], "that is in W"),
                (rise["at the joint"], "divide the joint's gravity torque by G_2")]
    if question == "A.7":
        star = optimal_ratio(given["m_p"])
        return [(star["centre"], "inertia about its centre"),
                (star["no payload"], "the payload at the tip is missing"),
                (star["no root"], "take the square root"),
                (star["rod at tip"], "puts the whole rod at its tip"),
                (star["upside down"], "the other way up")]
    if question == "U.3":
        q1, q2 = given["q1"], given["q2"]
        own = np.array(own_arm(q1, q2))
        return [(-own, "the motors hold the arm up"),
                (np.array(own_arm(math.degrees(q1), math.degrees(q2))),
                 "your angles are in degrees"),
                (np.array(own_arm(q1, q2, *MINE_L)), "not at the link's end"),
                (np.array(own_arm(q1, q2, absolute=True)), "q2 is measured from link 1"),
                (np.array([GRAVITY * MINE_M[0] * MINE_R[0] * math.cos(math.radians(q1)),
                           own[1]]),
                 "the shoulder holds link 2 as well")]
    _, largest, cool = ratios(given["T"])
    start = shoulder_move(1.0, 1.0)(0.0)[0]
    D22 = inertia_and_bias(puma(), start, np.zeros(6))[0][1, 1]
    return [(largest, "LARGEST ratio under the line"),
            (cool, "within the continuous rating"),
            (math.sqrt(D22 / CANDIDATE_MOTOR.rotor_inertia), "inertia-matching ratio")]
