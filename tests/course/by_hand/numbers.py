"""Numeric questions with givens, each answer by a route of its own, not from the key:

- Prob. 3.13(a) on a sloping ceiling (the local g and the slope), by hand: gravity turned into the
  ceiling's frame;
- Prob. 3.11 at a state of the PUMA 560 (q2, q3 and the joint speeds): dynlab's Newton-Euler
  routine probed at the student's state;
- D.1, D.2: Fu, Gonzalez & Lee, Eq. (3.2-34) and the worked example of Sec. 3.2.6 at the
  dashboard's opening posture (q = (pi/3, -pi/3), l = 1 m, m1 = 2 kg), with the student's m2 and
  payload Mp, and qd1;
- S.1: chapter 07's exact period of the rod (a = 0.5 m) at the student's amplitude;
- S.2: the energy Lynch & Park's Euler steps (Sec. 8.5) add to Schilling's one-axis rod of the
  student's mass.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy.special import ellipk

from dynlab import inverse_dynamics, simulate
from dynlab.model.robots import pendulum, puma560

G0 = 9.8062                 # standard gravity (dynlab's g)
A_ROD = 0.5                 # the pendulum's length, m


# -- the right answers and the typical mistakes, each by a route of its own -----------------------
def ceiling_gravity(g: float, tilt_radians: float) -> np.ndarray:
    """Gravity in frame 0 of the sloping ceiling: (g, 0, 0) in the level ceiling's frame (x0
    down), read in that frame turned by Rz(tilt): Rz(tilt)^T (g, 0, 0)."""
    c, s = math.cos(tilt_radians), math.sin(tilt_radians)
    return np.array([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]]) @ np.array([g, 0.0, 0.0])


def gravity_vectors(gravity) -> tuple:
    """L-E's row vector (gravity itself, Fu, Gonzalez & Lee, Eq. (3.2-22)) and N-E's v_dot0 = -g
    (Eq. (3.3-46))."""
    gravity = np.asarray(gravity, dtype=float)
    return np.append(gravity, 0.0), -gravity


@functools.cache
def puma_3():
    """The PUMA 560's first three joints, built once (dynlab keeps what it derives of a robot,
    and a new one derives it anew)."""
    return puma560(joints=3)


def probed(given: dict, velocities=False, gravity_in_D=False, gravity_in_h=False,
           velocities_in_c=False, degrees=False) -> tuple:
    """D, h, c of the PUMA 560's first three joints at (30 deg, q2, q3), (qd1, qd2, qd3) by
    calls of dynlab's Newton-Euler routine (Fu, Gonzalez & Lee, Prob. 3.11); the switches make
    the probing slips (velocities left on for D, gravity left on for D or h, velocities left on
    for c, the angles in degrees)."""
    arm = puma_3()
    q = np.array([30.0, given["q2"], given["q3"]])
    q = q if degrees else np.radians(q)
    qd = np.array([given["qd1"], given["qd2"], given["qd3"]])
    zero = np.zeros(3)
    c = inverse_dynamics(arm, q, qd if velocities_in_c else zero, zero)
    h = inverse_dynamics(arm, q, qd, zero, gravity=gravity_in_h)
    D = np.column_stack([inverse_dynamics(arm, q, qd if velocities else zero, e,
                                          gravity=gravity_in_D) for e in np.eye(3)])
    return D, h, c


def euler_gain(m1: float, h: float = 0.01) -> float:
    """E(2 s) - E(0) of Lynch & Park's Euler steps (Sec. 8.5) on the uniform rod (a = 0.5 m)
    released at rest from q = 0: qdd = -3 g cos q / (2 a) (Schilling, Eq. (6-9-22)),
    E = m a^2 qd^2 / 6 + m g (a/2) sin q."""
    q, qd = 0.0, 0.0
    for _ in range(round(2.0 / h)):
        q, qd = q + h * qd, qd + h * (-3 * G0 * math.cos(q) / (2 * A_ROD))
    return m1 * A_ROD**2 * qd**2 / 6 + m1 * G0 * A_ROD / 2 * math.sin(q)


def computed(question: str, given: dict):
    if question == "D.1":
        return G0 * ((1.0 + given["m2"] + given["Mp"]) * math.cos(math.pi / 3)
                     + (given["m2"] / 2 + given["Mp"]) * math.cos(0.0))
    if question == "D.2":
        return 1.0 * math.sin(-math.pi / 3) * given["qd1"]**2 / 2
    if question == "S.1":
        small = 2 * math.pi * math.sqrt(2 * A_ROD / (3 * G0))
        return small * 2 / math.pi * ellipk(math.sin(math.radians(given["amplitude"]) / 2)**2)
    if question == "3.13a":
        return gravity_vectors(ceiling_gravity(given["g"], math.radians(given["tilt"])))
    if question == "3.11":
        return probed(given)
    return euler_gain(given["m1"])


def slips(question: str, given: dict) -> list:
    """``[(wrong answer, words its feedback must hold)]``: the typical mistakes at ``given``."""
    if question == "3.13a":
        g, tilt = given["g"], math.radians(given["tilt"])
        g_LE, v0 = computed(question, given)
        return [((-g_LE, v0), "in L-E, g is the acceleration of gravity itself"),
                ((g_LE, -v0), "N-E accelerates the base UPWARD"),
                (gravity_vectors(ceiling_gravity(g, 0.0)), "that is the level ceiling's"),
                (gravity_vectors(ceiling_gravity(g, -tilt)), "the y0 component has the wrong sign"),
                (gravity_vectors(ceiling_gravity(g, given["tilt"])),
                 "the slope was used in degrees where radians belong"),
                (gravity_vectors(ceiling_gravity(G0, tilt)), "that is standard gravity"),
                (gravity_vectors([0.0, 0.0, -g]), "that is the level system of the text")]
    if question == "3.11":
        D, h, c = probed(given)
        return [(probed(given, degrees=True), "the joint angles were used in degrees"),
                (probed(given, gravity_in_D=True), "each column of D still contains the gravity"),
                ((D, h + c, c), "h still contains the gravity torques c"),
                (probed(given, velocities_in_c=True), "c still contains the velocity terms h"),
                (probed(given, velocities=True), "each column of D still contains h:"),
                (probed(given, velocities=True, gravity_in_D=True),
                 "each column of D still contains h and c")]
    if question != "S.2":
        return []
    m1 = given["m1"]
    drift = simulate(pendulum(m1=m1), [0.0], [0.0], t_span=2.0, integrator="euler",
                     dt=0.01).energy_drift()
    return [(0.0, "that is the exact motion's energy change"),
            (euler_gain(m1, h=0.001), "that is Euler with a step of 1 ms"),
            (-euler_gain(m1), "Euler's method ADDS energy"),
            (drift, "that is energy_drift()"),
            (euler_gain(1.0), "that is the gain of pendulum()'s own rod, 1 kg")]


def as_submitted(answer):
    """The answer as a notebook would hand it in: lists of floats (or a float)."""
    if isinstance(answer, tuple):
        return tuple(np.asarray(part, dtype=float).tolist() for part in answer)
    return float(answer)


def right(question: str, given: dict):
    return as_submitted(computed(question, given))


def mistakes(question: str, given: dict) -> list:
    return [(as_submitted(wrong), words) for wrong, words in slips(question, given)]
