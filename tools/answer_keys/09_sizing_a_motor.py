"""The answer keys of ``solutions/09_sizing_a_motor.ipynb``: sizing the PUMA 560's motors
(Lynch & Park, *Modern Robotics*, Sec. 8.9).  Every reference is computed here by dynlab's
inverse dynamics and :mod:`dynlab.dynamics.motor_sizing`, with finer sampling than a student needs; the
typical mistakes are computed the same way from a wrong reading of the question."""

import math

import numpy as np
from scipy.optimize import brentq

from dynlab import inverse_dynamics
from dynlab.dynamics.forward import inertia_and_bias
from dynlab.grading import make_key
from dynlab.dynamics.motor_sizing import (CANDIDATE_MOTOR, PUMA560_GEAR_RATIOS, PUMA560_ROTOR_INERTIAS,
                                 apparent_inertia, joint_torques, motor_side, rms, sample_move,
                                 shoulder_move, size_motor)
from dynlab.model.robots import PUMA560_POSES, puma560

NOTEBOOK = "09_sizing_a_motor"
#: samples of a move in the keys (a student's 201 agree to far below the tolerances)
FINE = 2001


def pose(name):
    return np.array([float(v) for v in PUMA560_POSES[name]])


def numeric(question, *, title, points, tolerance, name, value, mistakes):
    """A key answered by one number (7 significant digits, the same on every machine)."""
    def rounded(x):
        return [float(f"{float(x):.7g}")]
    return make_key(question, notebook=NOTEBOOK, title=title, points=points, kind="numeric",
                    tolerance=tolerance, parts=[{"name": name, "value": rounded(value),
                                                 "shape": []}],
                    mistakes=[{"part": name, "value": rounded(v), "message": m}
                              for v, m in mistakes])


def matching_ratio_key(arm):
    """A.1: the gear ratio whose reflected rotor inertia equals joint 3's D_33 at q_s."""
    D33 = inertia_and_bias(arm, pose("qs"), np.zeros(6))[0][2, 2]
    D22 = inertia_and_bias(arm, pose("qs"), np.zeros(6))[0][1, 1]
    I = PUMA560_ROTOR_INERTIAS[2]
    return numeric(
        "A.1", title="The gear ratio that matches joint 3's rotor to its load", points=1,
        tolerance=1e-3, name="G_match", value=math.sqrt(D33 / I),
        mistakes=[(D33 / I, "G^2 I_rotor = D_33 gives G^2 = D_33 / I_rotor: take the square "
                            "root"),
                  (math.sqrt(D22 / I), "that is joint 2's D_22; the question is about joint 3"),
                  (D33 / I / PUMA560_GEAR_RATIOS[2], "the reflected inertia is G^2 I_rotor, "
                                                     "not G I_rotor")])


def waist_spread_key(arm):
    """A.2: the waist's apparent inertia at q_s over that at q_r."""
    G, I = PUMA560_GEAR_RATIOS[0], PUMA560_ROTOR_INERTIAS[0]
    seen = {n: apparent_inertia(arm, pose(n), 1, rotor_inertia=I, gear_ratio=G)
            for n in ("qs", "qr")}
    own = {n: inertia_and_bias(arm, pose(n), np.zeros(6))[0][0, 0] for n in ("qs", "qr")}
    return numeric(
        "A.2", title="How much the waist's apparent inertia changes with the pose", points=1,
        tolerance=1e-3, name="ratio", value=seen["qs"] / seen["qr"],
        mistakes=[(own["qs"] / own["qr"], "that is the ratio of the arm's own D_11; the "
                                          "apparent inertia adds the reflected rotor G^2 "
                                          "I_rotor at both poses"),
                  (seen["qr"] / seen["qs"], "the ratio the other way up: q_s over q_r"),
                  ((own["qs"] + G * I) / (own["qr"] + G * I),
                   "the reflected inertia is G^2 I_rotor, not G I_rotor")])


def duty_cycle_key(arm):
    """A.3: the shoulder motor's RMS torque over a 90 degree move in 1.2 s and a 2 s hold."""
    G, I = PUMA560_GEAR_RATIOS[1], PUMA560_ROTOR_INERTIAS[1]
    move = shoulder_move(math.radians(90.0), 1.2)
    t, q, qd, qdd = sample_move(move, FINE)
    tau = joint_torques(arm, q, qd, qdd)[:, 1]
    _, torque = motor_side(qd[:, 1], qdd[:, 1], tau, gear_ratio=G, rotor_inertia=I)
    hold = inverse_dynamics(arm, q[-1], np.zeros(6), np.zeros(6))[1] / G
    T, rest = move.T, 2.0

    def cycle(move_rms, hold_torque):
        return math.sqrt((T * move_rms**2 + rest * hold_torque**2) / (T + rest))

    move_rms = rms(t, torque)
    return numeric(
        "A.3", title="The shoulder motor's RMS torque over a move and a hold", points=2,
        tolerance=1e-3, name="tau_rms", value=cycle(move_rms, hold),
        mistakes=[(move_rms, "that is the RMS over the move alone; the cycle goes on for 1 s "
                             "more, holding the arm at the goal"),
                  (cycle(rms(t, tau / G), hold), "the rotor's own torque G I_rotor qdd is "
                                                  "missing from the motor torque"),
                  ((T * move_rms + rest * hold) / (T + rest),
                   "RMS values do not average: add the squares, weighted by time, then take "
                   "the root"),
                  (cycle(move_rms, hold) * G, "that is at the joint; the motor gives 1/G of "
                                              "the joint torque"),
                  (cycle(move_rms, hold) * math.sqrt((T + rest) / T),
                   "the cycle lasts T + 2 s: divide the integral of tau^2 by the whole cycle's "
                   "duration, not by the move's")])


def smallest_ratio_key(arm):
    """A.4: the smallest gear ratio keeping a 100 degree move in 1.5 s under the line."""
    move = shoulder_move(math.radians(100.0), 1.5)
    _, q, qd, qdd = sample_move(move, FINE)
    tau = joint_torques(arm, q, qd, qdd)

    def sized(G):
        return size_motor(arm, move, 2, CANDIDATE_MOTOR, G, samples=FINE, torques=tau)

    ratios = np.arange(20.0, 300.0, 2.0)
    fitting = [G for G in ratios if sized(G).line_ok]
    low, high = fitting[0], fitting[-1]
    assert all(sized(G).line_ok for G in np.arange(low, high + 0.5, 2.0))   # one interval
    smallest = brentq(lambda G: sized(G).line_margin, low - 2.0, low, xtol=1e-9)
    largest = brentq(lambda G: sized(G).line_margin, high, high + 2.0, xtol=1e-9)
    cool = brentq(lambda G: CANDIDATE_MOTOR.continuous_torque - sized(G).rms_torque,
                  20.0, 300.0, xtol=1e-9)
    D22 = inertia_and_bias(arm, q[0], np.zeros(6))[0][1, 1]
    return numeric(
        "A.4", title="The smallest gear ratio that keeps a move under the speed-torque line",
        points=2, tolerance=2e-3, name="G_min", value=smallest,
        mistakes=[(largest, "that is the LARGEST ratio under the line (beyond it the motor runs "
                            "out of speed); the question asks for the smallest"),
                  (cool, "that is the smallest ratio whose RMS torque is within the continuous "
                         "rating; the question asks about the speed-torque line"),
                  (math.sqrt(D22 / CANDIDATE_MOTOR.rotor_inertia),
                   "that is the inertia-matching ratio sqrt(D_22 / I_rotor), not the limit of "
                   "the line")])


def keys() -> list:
    arm = puma560()
    return [matching_ratio_key(arm), waist_spread_key(arm), duty_cycle_key(arm),
            smallest_ratio_key(arm)]
