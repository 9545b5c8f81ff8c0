"""Exercises 10, identifying an arm (chapter 12): I.1 to I.4 by hand, not from the keys and not
from dynlab's identification (``torque_regressor``, ``base_parameters``, ``estimate_base_
parameters``, ``condition_number``):

- I.1 counts by Khalil & Dombre's rules (2002, Ch. 12; Gautier & Khalil (1990)): a planar link
  keeps ZZ, MX, MY (its mass groups into ZZ and MX of its own link and the links before it),
  joint 1's rotor groups into ZZ1, friction adds Fv, Fc a joint;
- I.2 from the rods' standard parameters about frame 1's origin at the elbow (a rod about its end,
  m a^2/3; its centre at x1 = -a1/2) and the grouping ZZ1R = ZZ1 - (M1 + M2) a1^2, MX1R = MX1 +
  (M1 + M2) a1, read off the Lagrangian below;
- I.3 and I.4 with the base regressor of the two-link arm derived here by Lagrange's equations
  (Lynch & Park (2017), Sec. 8.1) from each link's kinetic energy ``1/2 M |v_O|^2 + v_O . (w x h)
  + 1/2 ZZ w^2`` and potential ``g (M y_O + h_y)`` about its frame's origin, and least squares by
  a QR factorisation; the data set is the one the question's notebook draws (dynlab's
  ``measure`` along the question's trajectory, seeded by round(100 m2)).
"""

from __future__ import annotations

import functools
import math

import numpy as np
import scipy.linalg
import sympy

from dynlab.dynamics.estimation import FourierTrajectory, measure
from dynlab.model.robots import planar_2r

#: the question's numbers: Schilling's arm (m1 = 2 kg, a2 = 0.4 m; I.3's a1 = 0.5 m), g of
#: planar_2r, the trajectory (period 8 s for I.3), the lab (noise, encoder, samples)
M1, A2, A1_DATA, G = 2.0, 0.4, 0.5, 9.8062
Q0 = [0.3, 0.8]
A = [[0.6, -0.3, 0.2], [-0.5, 0.4, 0.3]]
B = [[0.2, 0.5, -0.2], [0.4, -0.3, 0.2]]
PERIOD, NOISE, COUNTS, SAMPLES = 8.0, 0.05, 4096, 400
#: the base parameters' names, in the question's order
BASE = ("ZZ1", "MX1", "MY1", "ZZ2", "MX2", "MY2")
AT = {}


# -- the two-link arm's regressor by Lagrange's equations ------------------------------------------
@functools.cache
def _lagrange_regressor():
    """A function ``(q, qd, qdd, a1, a2) -> Y_b`` (arrays over samples): the torques' derivatives
    by each parameter of BASE, of Lagrange's equations tau = d/dt dL/dqd - dL/dq."""
    q1, q2, qd1, qd2, qdd1, qdd2, a1, a2 = sympy.symbols("q1 q2 qd1 qd2 qdd1 qdd2 a1 a2")
    params = sympy.symbols("M1 MX1 MY1 ZZ1 M2 MX2 MY2 ZZ2")
    m1, mx1, my1, zz1, m2, mx2, my2, zz2 = params
    q, qd, qdd = (q1, q2), (qd1, qd2), (qdd1, qdd2)
    lagrangian = 0
    origin = sympy.Matrix([0, 0])
    for angle, rate, length, (mass, mx, my, zz) in (
            (q1, qd1, a1, (m1, mx1, my1, zz1)), (q1 + q2, qd1 + qd2, a2, (m2, mx2, my2, zz2))):
        origin = origin + length * sympy.Matrix([sympy.cos(angle), sympy.sin(angle)])
        velocity = sympy.Matrix([sum(sympy.diff(x, qk) * vk for qk, vk in zip(q, qd))
                                 for x in origin])
        h = sympy.Matrix([[sympy.cos(angle), -sympy.sin(angle)],
                          [sympy.sin(angle), sympy.cos(angle)]]) * sympy.Matrix([mx, my])
        w_cross_h = rate * sympy.Matrix([-h[1], h[0]])
        kinetic = (mass * velocity.dot(velocity) / 2 + velocity.dot(w_cross_h)
                   + zz * rate**2 / 2)
        lagrangian += kinetic - G * (mass * origin[1] + h[1])
    torques = []
    for k in range(2):
        p = sympy.diff(lagrangian, qd[k])
        dt = sum(sympy.diff(p, q[j]) * qd[j] + sympy.diff(p, qd[j]) * qdd[j] for j in range(2))
        torques.append(sympy.expand(dt - sympy.diff(lagrangian, q[k])))
    chosen = {"ZZ1": zz1, "MX1": mx1, "MY1": my1, "ZZ2": zz2, "MX2": mx2, "MY2": my2}
    columns = [[sympy.diff(t, chosen[name]) for name in BASE] for t in torques]
    return sympy.lambdify((q1, q2, qd1, qd2, qdd1, qdd2, a1, a2), columns, "numpy")


def base_regressor(q, qd, qdd, a1=A1_DATA, a2=A2) -> np.ndarray:
    """Y_b stacked sample by sample, joint 1 then joint 2 (rows), BASE's columns."""
    q, qd, qdd = (np.atleast_2d(np.asarray(x, dtype=float)) for x in (q, qd, qdd))
    rows = _lagrange_regressor()(q[:, 0], q[:, 1], qd[:, 0], qd[:, 1], qdd[:, 0], qdd[:, 1],
                                 a1, a2)
    Y = np.zeros((q.shape[0], 2, len(BASE)))
    for i, row in enumerate(rows):
        for c, value in enumerate(row):
            Y[:, i, c] = value
    return Y.reshape(-1, len(BASE))


def least_squares(Y, tau) -> np.ndarray:
    """``min |Y x - tau|`` by a QR factorisation (Y = Q R, R x = Q^T tau)."""
    Q, R = np.linalg.qr(Y)
    return scipy.linalg.solve_triangular(R, Q.T @ tau)


def trajectory(period: float) -> FourierTrajectory:
    return FourierTrajectory(2 * math.pi / period, Q0, A, B)


@functools.cache
def data_set(m2: float):
    """The question's data set of the student with ``m2``, as the notebook draws it."""
    arm = planar_2r("schilling", m2=m2)
    return measure(arm, trajectory(PERIOD), rng=np.random.default_rng(round(100 * m2)),
                   torque_noise=NOISE, counts_per_revolution=COUNTS, samples=SAMPLES)


# -- the answers and their typical mistakes -------------------------------------------------------
def count(n: int, rotor=True, friction=True, first_rotor=False, gravity_shows=True,
          masses=False) -> int:
    """Khalil & Dombre's count for the planar arm of ``n`` joints."""
    links = 3 * n - (0 if gravity_shows else 2) + (n if masses else 0)
    return links + rotor * (n - 1 + first_rotor) + friction * 2 * n


def grouping(a1: float, m2: float, about_centre=False, outward=False, plus=False,
             with_m2=True) -> tuple:
    """(ZZ1R, MX1R) of Schilling's arm: the rod's ZZ1 and MX1 about frame 1's origin, at the
    elbow (about its centre with ``about_centre``; its centre at +a1/2 with ``outward``), the
    masses grouped with the sign of frames at the far ends (the other with ``plus``)."""
    grouped = M1 + (m2 if with_m2 else 0.0)
    ZZ1 = M1 * a1**2 / 12 if about_centre else M1 * a1**2 / 3
    MX1 = 0.0 if about_centre else (M1 if outward else -M1) * a1 / 2
    return (ZZ1 + (1 if plus else -1) * grouped * a1**2, MX1 + grouped * a1)


def estimates(m2: float) -> dict:
    """I.3's least squares on the data set, and the numbers of its typical mistakes."""
    data = data_set(m2)
    Y = base_regressor(data.q, data.qd, data.qdd)
    tau = data.tau.ravel()
    exact = trajectory(PERIOD).at(data.t)
    sigma = []                     # each joint's residual alone (Gautier & Poignet, Sec. 3)
    for j in range(2):
        fit, _, rank, _ = np.linalg.lstsq(Y[j::2], data.tau[:, j], rcond=None)
        sigma.append(np.linalg.norm(data.tau[:, j] - Y[j::2] @ fit) / math.sqrt(SAMPLES - rank))
    weights = np.tile(1 / np.array(sigma), SAMPLES)
    truth = [-(2 * M1 / 3 + m2) * A1_DATA**2, (M1 / 2 + m2) * A1_DATA, 0.0, -2 * m2 * A2**2 / 3,
             m2 * A2 / 2, 0.0]
    return {"right": least_squares(Y, tau), "truth": np.array(truth),
            "by joint": least_squares(Y, data.tau.T.ravel()),
            "exact rates": least_squares(base_regressor(data.q, exact[1], exact[2]), tau),
            "weighted": least_squares(Y * weights[:, None], tau * weights)}


def condition(T: float, samples=None, frequency=None, squared=False, scaled=False) -> float:
    """I.4: the ratio of the largest singular value of the stacked Y_b to its smallest."""
    path = FourierTrajectory(frequency or 2 * math.pi / T, Q0, A, B)
    times = path.times(50) if samples is None else samples
    Y = base_regressor(*path.at(times))
    if scaled:
        Y = Y / np.linalg.norm(Y, axis=0)
    if squared:
        Y = Y.T @ Y
    s = np.linalg.svd(Y, compute_uv=False)
    return float(s[0] / s[-1])


def right(question: str, given: dict):
    """The right answer of ``question`` at the givens ``given``, as its check cell hands it in."""
    if question == "I.1":
        return count(int(given["n"]))
    if question == "I.2":
        return grouping(given["a1"], given["m2"])
    if question == "I.3":
        return estimates(given["m2"])["right"]
    return condition(given["T"])


def mistakes(question: str, given: dict) -> list:
    """``[(wrong answer, words its feedback must hold)]`` at the givens ``given``."""
    if question == "I.1":
        n = int(given["n"])
        return [(13 * n, "the number of standard parameters"),
                (count(n, first_rotor=True), "it groups into ZZ1R"),
                (count(n, friction=False), "Fv and Fc, each seen on its own"),
                (count(n, rotor=False), "the rotors of joints 2 to n"),
                (count(n, gravity_shows=False), "gravity shows MX1 and MY1"),
                (count(n, masses=True), "a link keeps ZZ, MX and MY"),
                (count(n, rotor=False, friction=False), "the rotors and the friction")]
    if question == "I.2":
        a1, m2 = given["a1"], given["m2"]
        ZZ1R, MX1R = right(question, given)
        alone, centre = grouping(a1, m2, with_m2=False), grouping(a1, m2, about_centre=True)
        return [((alone[0], MX1R), "link 2's mass groups into link 1's"),
                ((ZZ1R, alone[1]), "link 2's mass groups into link 1's"),
                ((centre[0], MX1R), "ZZ1 = m1 a1^2/3"), ((ZZ1R, centre[1]), "MX1 = -m1 a1/2"),
                ((ZZ1R, grouping(a1, m2, outward=True)[1]), "lies at x1 = -a1/2"),
                ((grouping(a1, m2, plus=True)[0], MX1R), "the parallel axes the other way"),
                # the rod about its end and m2 at the elbow: the inertia about the shoulder
                ((M1 * a1**2 / 3 + m2 * a1**2, MX1R), "inertia about the shoulder")]
    if question == "I.3":
        found = estimates(given["m2"])
        return [(found["truth"], "the arm's own base parameters"),
                (found["by joint"], "sample by sample (tau.ravel())"),
                (found["exact rates"], "filtered velocities and accelerations"),
                (found["weighted"], "the weighted least squares estimate")]
    T = given["T"]
    return [(condition(T, squared=True), "the square of Y_b's"),
            (condition(T, scaled=True), "columns scaled to norm 1"),
            (condition(T, samples=np.linspace(0.0, T, 50)), "repeats t = 0 at t = T"),
            (condition(T, frequency=T), "2 pi / T, not T")]
