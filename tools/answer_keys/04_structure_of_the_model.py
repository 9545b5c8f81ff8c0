"""The answer keys of ``solutions/04_structure_of_the_model``: the structure of the model: passivity
and the task space (Lynch & Park), the coupling and the payload (Tourassis & Neuman), the
regressor.
"""

from __future__ import annotations

import math

import numpy as np
import sympy
from answer_keys.common import JOINTS2, SPLIT2, check_mistakes, positive, q, q1, q2, qd, qdd

from dynlab import equations_of_motion, inverse_dynamics
from dynlab.grading import make_key
from dynlab.grading.keys import parameter_symbol
from dynlab.grading.variants import grid_values
from dynlab.model.edits import with_payload
from dynlab.model.kinematics import tool_jacobian
from dynlab.model.link import G
from dynlab.model.robots import planar_2r
from dynlab.model.symbolic import compact, is_zero

NOTEBOOK = "04_structure_of_the_model"

#: Each question's notes, sealed into its key: the hint a student asks for with hint(), and the
#: takeaway check() shows once the answer is right (Markdown, $...$ for mathematics; a hint says
#: where to start, never the answer).  A takeaway keeps its line breaks, long lines and all (a
#: noqa for E501 at its end): solutions/' stored outputs show it line by line, so rewrapping one
#: means refreshing them (tools/refresh_notebooks.py)
NOTES = {
    "9.1": {
        "hint": r"""
Put your arm's $L_2$ = `given["ratio"]` $L_1$ into $\mathbf M$ first. Build $\mathbf C$ of Sec. 8.4
(draft Eq. (9.87)) from the Christoffel symbols of Sec. 8.4 (draft Eq. (9.86)), then differentiate
$\mathbf M$ along the motion: $\dot M_{ij} = \sum_k \partial
M_{ij}/\partial\theta_k\,\dot\theta_k$.""",
        "takeaway": r"""
$\mathbf N$ has zeros on its diagonal and $N_{21} = -N_{12}$: for any $\dot\theta$,
$\dot\theta^T(\dot{\mathbf M} - 2\mathbf C)\dot\theta = 0$, the passivity property behind many
controllers. It holds for *this* $\mathbf C$; other matrices with the same product $\mathbf C\dot\theta$
exist, and for them it generally fails (the checker tells you if you found one).""",  # noqa: E501
    },
    "9.98": {
        "hint": r"""
Differentiate the tip position by the joint angles for $\mathbf J$, with your arm's $L_2$ =
`given["ratio"]` $L_1$ put in, and $m_2$ = `given["mu"]` $m_1$ in $\mathbf M$, then use Sec. 8.6
(draft Eq. (9.98)): $\boldsymbol\Lambda = \mathbf J^{-T}\mathbf M\mathbf J^{-1}$.""",
        "takeaway": r"""
$\boldsymbol\Lambda$ has $\sin\theta_2$ in its denominators: at $\theta_2 = 0$ or $\pi$ (arm stretched
out or folded) $\mathbf J$ is singular, and along the arm the tip feels an infinite inertia: no joint
torque can push it that way.""",  # noqa: E501
    },
    "k12": {
        "hint": r"""
Eqs. (32)-(34) of Tourassis & Neuman give the coefficient from the entries $d_{11}$, $d_{12}$,
$d_{22}$ of $\mathbf D$; write them for the two-link arm first, with $m_2 = \mu\,m_1$
(`given["mu"] * m1`).""",
        "takeaway": r"""
$k_{12}$ lies between 0 and 1 because $\mathbf D$ is positive definite ($d_{12}^2 < d_{11} d_{22}$).
It vanishes where $d_{12} = m_2 l^2 (1/3 + \cos\theta_2/2)$ does, at $\cos\theta_2 = -2/3$: in that
posture the two joints are inertially decoupled. A light second link (small LF) decouples them
everywhere, design guideline 3 of Tourassis & Neuman.""",
    },
    "Mp": {
        "hint": r"""
A point payload at $\mathbf x_p$ adds $\frac12 M_p|\dot{\mathbf x}_p|^2 = \frac12 M_p
\dot{\mathbf q}^T \mathbf J_p^T\mathbf J_p\dot{\mathbf q}$ to the kinetic energy and
$M_p g\,y_p$ to the potential energy; write $\mathbf x_p$ first, with the payload
`given["rho"] * l2` from joint 2 along link 2.""",
        "takeaway": r"""
The payload's share is exactly that of the point mass $m_2$ of the 2R arm above, at $\rho\,l_2$
from joint 2 instead of $L_2$: the inertia joint 2 alone feels grows as $\rho^2$, the payload's
gravity torque on joint 2 as $\rho$. dynlab folds a payload into link 2 instead (one body per link, with a shifted centre of mass and the parallel-axis theorem):
`with_payload(arm, Mp, at=(-(1 - rho) * l2, 0, 0))` puts it at your place in frame 2 (whose origin
is the tip), and the D of the loaded arm minus that of the bare one is your `dD`.""",  # noqa: E501
    },
    "Y": {
        "hint": r"""
Write the torques from `M_matrix` (the velocity terms by the Christoffel symbols, as in question 1)
plus the gravity torques of your tilted plane: the derivatives of the potential energy
$g\sin\beta\,(m_1 y_1 + m_2 y_2)$, with $y_1$, $y_2$ the heights of the masses up the slope. Then
put them in terms of $\pi_1, \pi_2, \pi_3$: solve the three definitions for the three unknown
physical parameters $m_1, m_2, L_2$ and substitute; your $L_1$ is known. Column $j$ of $\mathbf Y$
is $\partial\boldsymbol\tau/\partial\pi_j$.""",
        "takeaway": r"""
Three columns for the three unknowns: with your $L_1$ known, the $\pi_j$ give the rest back,
$m_1 + m_2 = \pi_1/L_1^2$, $L_2 = L_1\pi_3/\pi_2$ and $m_2 = \pi_2^2/(L_1^2\pi_3)$, so a motion
that excites all three columns identifies $m_1$, $m_2$ and $L_2$ through $\pi_1, \pi_2, \pi_3$. Gravity needs
no column of its own: with $g' = g\sin\beta$ along the plane, $(m_1 + m_2) g' L_1 C_1$ is $\pi_1$ times
$g'/L_1$, and $m_2 g' L_2 C_{12}$ is $\pi_2$ times $g'/L_1$, so the known length and the tilt sit in
$\mathbf Y$, as numbers. That is why identification fits base parameters: stack $\mathbf Y$ at many measured states into one tall
matrix $\mathbf W$ and solve $\mathbf W\boldsymbol\pi = $ the measured torques by least squares.""",  # noqa: E501
    },
}


#: The given of k12, drawn per student: link 2's mass over link 1's (below 1: a mass ratio of 1
#: would make the loading factor of the wrong masses right; and no 0.8, whose loading factor,
#: 2/3, is a number the feedback prints: cos q2 = -2/3, where d12 changes sign)
COUPLING = {"mu": {"low": 0.2, "high": 0.7, "step": 0.1, "unit": "",
                   "text": "the mass of link 2 over the mass of link 1, m2/m1"}}


#: The given of Mp, drawn per student (:mod:`dynlab.grading.variants`): where along link 2 the
#: payload is clamped (neither the middle, 1/2, nor the tip, 1: those are typical mistakes)
PAYLOAD = {"rho": {"low": 0.6, "high": 0.9, "step": 0.05, "unit": "",
                   "text": "the payload's distance from joint 2, as a fraction of l2"}}


#: The given of 9.1 on the 2R arm of Lynch & Park, Sec. 8.1.1: how long link 2 is, as a multiple
#: of link 1 (the book leaves L2 free).  9.98 adds how heavy the tip mass is, as a multiple of the
#: elbow's: the task-space inertia of this arm of point masses is the same for every L2/L1
FOREARM = {"ratio": {"low": 0.5, "high": 0.9, "step": 0.1, "unit": "",
                     "text": "the length of link 2 over the length of link 1, L2/L1"}}


TASK_SPACE = {**FOREARM,
              "mu": {"low": 0.2, "high": 0.7, "step": 0.1, "unit": "",
                     "text": "the mass at the tip over the mass at the elbow, m2/m1"}}


def _assert_forearm(C, Mdot, J, Lam, ratio, mu) -> None:
    """``C``, ``Mdot`` (9.1), ``J`` and ``Lam`` (9.98), expressions in the givens ``ratio`` =
    L2/L1 and (``Lam``) ``mu`` = m2/m1, equal dynlab's numbers for the 2R arm of Lynch & Park
    with those lengths and masses, at two grid points: the Coriolis matrix and the partial
    derivatives of M of its Christoffel form (Sec. 8.1.2), the tip rows of its Jacobian, and
    J^-T M J^-1 (Sec. 8.6)."""
    posture, rates = [0.4, -1.3], [0.6, -0.9]
    names = {str(s): s for e in (C, Mdot, J, Lam) for s in e.free_symbols}
    for end in ("low", "high"):
        values = {name: float(spec[end]) for name, spec in TASK_SPACE.items()}
        for masses, checked in (((1.2, 0.8), ("C", "Mdot", "J")),
                                ((1.2, 1.2 * values["mu"]), ("Lambda",))):
            arm = planar_2r("lynch_park", m1=masses[0], m2=masses[1], L1=0.7,
                            L2=0.7 * values["ratio"])
            eom = equations_of_motion(arm, posture, rates, method="lagrange_euler",
                                      variant="christoffel")
            numbers = {"m1": masses[0], "m2": masses[1], "L1": 0.7, "q1": posture[0],
                       "q2": posture[1], "qd1": rates[0], "qd2": rates[1]}
            at = {symbol: numbers[name] for name, symbol in names.items() if name in numbers}
            at.update({ratio: values["ratio"], mu: values["mu"]})
            jacobian = np.array(tool_jacobian(arm, posture), dtype=float)[:2, :]
            inverse = np.linalg.inv(jacobian)
            expected = {"C": np.array(eom.terms["C"], dtype=float),
                        "Mdot": np.array(eom.terms["dD_dq"], dtype=float) @ rates,  # [i][j][k]
                        "J": jacobian,
                        "Lambda": inverse.T @ np.array(eom.D, dtype=float) @ inverse}
            ours = {"C": C, "Mdot": Mdot, "J": J, "Lambda": Lam}
            for name in checked:
                number = np.array(ours[name].xreplace(at), dtype=float)
                assert np.allclose(number, expected[name], rtol=1e-12, atol=1e-12), (name, end)


def _assert_coupling(k12, LF, mu) -> None:
    """``k12`` and ``LF`` equal Eqs. (32) and (34) on dynlab's numeric inertia matrix of the
    two-link arm of Fu, Gonzalez & Lee with ``m2 = mu m1``, at two grid points of ``mu``."""
    posture = [0.3, 2.4]                                      # cos q2 < -2/3: d12 < 0
    names = {str(s): s for s in k12.free_symbols | LF.free_symbols}
    for values in [{"mu": float(COUPLING["mu"][end])} for end in ("low", "high")]:
        arm = planar_2r("fu", m1=1.5, m2=1.5 * values["mu"], l=0.8)
        D = np.array(equations_of_motion(arm, posture, [0.0, 0.0]).D, dtype=float)
        numbers = {"m1": 1.5, "l": 0.8, "q1": posture[0], "q2": posture[1]}
        at = {symbol: numbers[name] for name, symbol in names.items() if name in numbers}
        at[mu] = values["mu"]
        expected = abs(D[0, 1]) / np.sqrt(D[0, 0] * D[1, 1])
        assert abs(float(k12.xreplace(at)) - expected) <= 1e-12, (values, expected)
        moved = [float(link.mass) for link in arm.links]
        assert abs(float(LF.xreplace(at)) - np.sqrt(moved[1] / sum(moved))) <= 1e-14


def _assert_payload(dD, dc, rho) -> None:
    """``dD``, ``dc`` equal what dynlab's own model gains from the payload at two grid points of
    ``rho``: the numeric arm of the thesis appendix without its payload, then with a point mass
    folded into link 2 at ``rho l2`` from joint 2 (:func:`dynlab.model.edits.with_payload`, at
    ``x = -(1 - rho) l2`` in frame 2, whose origin is the tip), at a posture."""
    bare = planar_2r("macsyma", payload=0.0)
    mass, posture = 0.5, [0.7, -1.9]
    lengths = [float(link.a) for link in bare.links]
    names = {str(s): s for s in dD.free_symbols | dc.free_symbols}
    numbers = {names["Mp"]: mass, names["l1"]: lengths[0], names["l2"]: lengths[1],
               names["g"]: float(-bare.gravity[1]), names["q1"]: posture[0],
               names["q2"]: posture[1]}
    empty = equations_of_motion(bare, posture, [0.0, 0.0])
    for values in [{"rho": float(PAYLOAD["rho"][end])} for end in ("low", "high")]:
        loaded = with_payload(bare, mass, at=(-(1 - values["rho"]) * lengths[1], 0.0, 0.0))
        eom = equations_of_motion(loaded, posture, [0.0, 0.0])
        at = {**numbers, rho: values["rho"]}
        ours_D = np.array(dD.xreplace(at), dtype=float)
        ours_c = np.array(dc.xreplace(at), dtype=float).ravel()
        expected_D = np.array(eom.D, dtype=float) - np.array(empty.D, dtype=float)
        expected_c = (np.array(eom.c, dtype=float) - np.array(empty.c, dtype=float)).ravel()
        assert np.allclose(ours_D, expected_D, rtol=1e-12, atol=1e-12), (values, ours_D,
                                                                        expected_D)
        assert np.allclose(ours_c, expected_c, rtol=1e-12, atol=1e-12), (values, ours_c,
                                                                        expected_c)


def keys():
    keys = []
    lp = planar_2r("lynch_park", symbolic=True)
    m1, m2, L1, L2 = positive("m1", "m2", "L1", "L2")
    # 9.1 and 9.98 on the student's arm of the family L2 = ratio L1 (ratio: each student's own)
    ratio = parameter_symbol("ratio", FOREARM["ratio"])
    mine = {L2: ratio * L1}
    ch = equations_of_motion(lp, method="lagrange_euler", variant="christoffel")
    n = 2
    M = ch.D.subs(mine).applyfunc(compact)
    C = ch.terms["C"].subs(mine).applyfunc(compact)          # Sec. 8.4 (draft Eq. (9.87))
    Mdot = sum((M.diff(q[k]) * qd[k] for k in range(n)), sympy.zeros(n, n)).applyfunc(compact)
    N = (Mdot - 2 * C).applyfunc(compact)
    assert is_zero(N + N.T)                                  # Prop. 8.1
    symbols = {"m1": "positive", "m2": "positive", "L1": "positive",
               "q1": "real", "q2": "real", "qd1": "real", "qd2": "real"}
    # another factorisation of c = C qd (the mistake): move qd1*qd2 from C12 into C11
    c = C * sympy.Matrix(qd)
    other = sympy.Matrix(C)
    s = sympy.sin(q2)
    other[0, 0] = -2 * L1 * ratio * L1 * m2 * s * qd[1]
    other[0, 1] = -L1 * ratio * L1 * m2 * s * qd[1]
    assert is_zero(other * sympy.Matrix(qd) - c) and not is_zero(other - C)
    partial = sum((M.diff(q[k]) for k in range(n)), sympy.zeros(n, n))
    keys.append(make_key(
        "9.1", notebook=NOTEBOOK,
        title="Lynch & Park, Prop. 8.1: Mdot - 2C is skew-symmetric (2R arm)",
        points=3, symbols=symbols, angles=("q1", "q2"), split=("qd1", "qd2"),
        parameters=FOREARM,
        parts=[{"name": "C", "value": C},
               {"name": "Mdot", "value": Mdot, "structure": "symmetric"},
               {"name": "N", "value": N, "structure": "skew"}],
        products=[{"part": "C", "vector": ["qd1", "qd2"],
                   "message": "your C gives the right c = C*qd, but it is not the Christoffel "
                              "form Sec. 8.4 (draft Eq. (9.87)): C is not unique, and Mdot - 2C "
                              "is skew-symmetric only for C_ij = sum_k Gamma_ijk qd_k"}],
        mistakes=[{"part": "Mdot", "value": partial,
                   "message": "Mdot = sum_k (dM/dtheta_k) * thetad_k (chain rule): multiply "
                              "each partial derivative by its joint velocity"},
                  {"part": "N", "value": Mdot - C,
                   "message": "Prop. 8.1 is about Mdot - 2C (twice the Coriolis matrix)"}]))
    # task-space inertia Sec. 8.6 (draft Eq. (9.98)) for the 2R arm, with the planar tip Jacobian
    # 9.98 on the arm with L2 = ratio L1 and m2 = mu m1 (both givens: each student's own)
    mu = parameter_symbol("mu", TASK_SPACE["mu"])
    M = ch.D.subs({**mine, m2: mu * m1}).applyfunc(compact)
    J = tool_jacobian(lp, list(q))[:2, :]
    J = J.subs(mine).applyfunc(compact)
    Jinv = J.inv()
    Lam = (Jinv.T * M * Jinv).applyfunc(sympy.simplify)
    _assert_forearm(C, Mdot, J, Lam, ratio, mu)
    symbols = {"m1": "positive", "L1": "positive", "q1": "real", "q2": "real"}
    keys.append(make_key(
        "9.98", notebook=NOTEBOOK,
        title="Lynch & Park, Sec. 8.6 (draft Eq. (9.98)): task-space inertia of the 2R arm",
        points=2, symbols=symbols, angles=("q1", "q2"), parameters=TASK_SPACE,
        parts=[{"name": "J", "value": J}, {"name": "Lambda", "value": Lam,
                                           "structure": "symmetric"}],
        mistakes=[{"part": "Lambda", "value": J * M * J.T,
                   "message": "Lambda = J^-T M J^-1 (Sec. 8.6 (draft Eq. (9.98))): the inverse "
                              "Jacobian, not J M J^T"},
                  {"part": "Lambda", "value": Jinv * M * Jinv.T,
                   "message": "the order is J^-T M J^-1 (transpose of the inverse on the left)"},
                  {"part": "Lambda", "value": J * M.inv() * J.T,     # only its values matter
                   "message": "that is Lambda^-1 = J M^-1 J^T; invert it"}]))
    # Tourassis & Neuman, Eq. (32)-(34): coefficient of coupling of the two-link arm of Fu,
    # Gonzalez & Lee, Sec. 3.2.6, whose link 2 weighs mu times link 1 (mu: each student's own)
    fu = planar_2r("fu", symbolic=True)
    fm1, fm2, l = positive("m1", "m2", "l")
    mu = parameter_symbol("mu", COUPLING["mu"])
    D = equations_of_motion(fu, method="lagrange_euler").D.subs(fm2, mu * fm1)
    k12 = sympy.Abs(D[0, 1]) / sympy.sqrt(D[0, 0] * D[1, 1])           # Eq. (32)
    masses = [fm1, mu * fm1]
    LF = sympy.sqrt(sum(masses[1:]) / (masses[0] + sum(masses[1:])))   # Eq. (34), i=1, j=2
    KF = k12 / LF                                                      # Eq. (33)
    _assert_coupling(k12, LF, mu)
    symbols = {"m1": "positive", "l": "positive", "q1": "real", "q2": "real"}
    keys.append(make_key(
        "k12", notebook=NOTEBOOK,
        title="Tourassis & Neuman, Eqs. (32)-(34): coefficient of coupling of the two-link arm",
        points=2, symbols=symbols, angles=("q1", "q2"), parameters=COUPLING,
        parts=[{"name": "k12", "value": k12}, {"name": "LF", "value": LF},
               {"name": "KF", "value": KF}],
        mistakes=[{"part": "k12", "value": D[0, 1] / sympy.sqrt(D[0, 0] * D[1, 1]),
                   "message": "Eq. (32) takes the absolute value |d12|: d12 changes sign where "
                              "cos q2 < -2/3"},
                  {"part": "k12", "value": D[0, 1]**2 / (D[0, 0] * D[1, 1]),
                   "message": "that is k12 squared: take the square root (Eq. (32))"},
                  {"part": "LF", "value": sympy.sqrt(masses[0] / (masses[0] + masses[1])),
                   "message": "the loading factor is the square root of the mass moved by joint "
                              "j = 2 over the mass moved by joint i = 1 (Eq. (34))"},
                  {"part": "LF", "value": masses[1] / (masses[0] + masses[1]),
                   "message": "Eq. (34) takes the square root of the mass ratio"}]))
    # the payload Mp of the thesis appendix, App. B, clamped at rho l2 from joint 2 along link 2
    # (rho: each student's own; the appendix's is at the tip, rho = 1): a point mass adds
    # Mp J_p^T J_p to D (its kinetic energy Mp |J_p qd|^2 / 2, Lynch & Park, Sec. 8.1) and the
    # gradient of Mp g y_p to c
    Mp = sympy.Symbol("Mp", positive=True)
    l1, l2, g = positive("l1", "l2", "g")
    rho = parameter_symbol("rho", PAYLOAD["rho"])

    def point_mass(at):
        """(dD, dc) of a point mass Mp at distance ``at`` from joint 2 along link 2."""
        place = sympy.Matrix([l1 * sympy.cos(q1) + at * sympy.cos(q1 + q2),
                              l1 * sympy.sin(q1) + at * sympy.sin(q1 + q2)])
        jacobian = place.jacobian(list(q))
        inertia = (Mp * jacobian.T * jacobian).applyfunc(compact)
        return inertia, sympy.Matrix([compact(sympy.diff(Mp * g * place[1], v)) for v in q])

    dD, dc = point_mass(rho * l2)
    _assert_payload(dD, dc, rho)
    tip_D, tip_c = point_mass(l2)
    middle_D, _ = point_mass(l2 / 2)
    symbols = {"M1": "positive", "M2": "positive", "Mp": "positive", "l1": "positive",
               "l2": "positive", "I1": "positive", "I2": "positive", "g": "positive",
               "q1": "real", "q2": "real"}
    keys.append(make_key(
        "Mp", notebook=NOTEBOOK, title="the thesis appendix, App. B: how a payload Mp changes "
        "D and c", points=2, symbols=symbols, angles=("q1", "q2"), parameters=PAYLOAD,
        parts=[{"name": "dD", "value": dD, "structure": "symmetric"},
               {"name": "dc", "value": dc}],
        mistakes=[{"part": "dD", "value": tip_D,
                   "message": "that is the payload at the tip (distance l2 from joint 2, as in "
                              "the thesis appendix); yours is clamped at rho*l2, with your "
                              "rho = given[\"rho\"]"},
                  {"part": "dc", "value": tip_c,
                   "message": "that is the payload at the tip (distance l2 from joint 2, as in "
                              "the thesis appendix); yours is clamped at rho*l2, with your "
                              "rho = given[\"rho\"]"},
                  {"part": "dD", "value": middle_D,
                   "message": "that is the payload at the middle of link 2 (l2/2 from joint "
                              "2); yours is clamped at rho*l2, with your rho = given[\"rho\"]"},
                  {"part": "dc", "value": -dc,
                   "message": "gravity points along -y0 (the thesis appendix's potential "
                              "+M g^T x with g = (0, gravity, 0)): the payload's weight pulls the "
                              "arm down"}] + [
                  {"part": "dc", "value": sign * sympy.Matrix(
                      [sympy.diff(Mp * g * (l1 * sympy.cos(q1) + rho * l2 * sympy.cos(q1 + q2)), v)
                       for v in q]),
                   "message": "gravity acts along the wrong axis (sines and cosines swapped): "
                              "it points along -y0, so the payload's potential energy is "
                              "Mp*g*y_p"} for sign in (1, -1)]))
    keys.append(regressor_key(lp))
    return keys


#: The givens of Y, drawn per student: the length of link 1, which the identification takes as
#: known (the masses and L2 are what it fits), and the tilt of the plane the arm moves in (0: a
#: horizontal plane, where gravity does no work; 90: the vertical plane of Sec. 8.1.1), so that
#: gravity's pull along the plane, g sin(beta), enters the torques.  The grids leave out 0 and 90
#: degrees (the horizontal and the vertical arm), 45 (where sin and cos agree) and L1 = 1 m (where
#: g L1 and g/L1 agree)
TILTED_ARM = {"L1": {"low": 0.35, "high": 0.65, "step": 0.05, "unit": "m",
                     "text": "the length of link 1, known; m1, m2 and L2 are not"},
              "beta": {"low": 20, "high": 70, "step": 10, "unit": "degrees",
                       "text": "the tilt of the arm's plane from the horizontal"}}


def tilted_arm(lp, tilt):
    """The 2R arm ``lp`` of Lynch & Park, Sec. 8.1.1 moving in a plane tilted by ``tilt`` (an
    angle in radians) from the horizontal, about x0: y0 points up the slope, so gravity is
    (0, -g sin(tilt), -g cos(tilt)) in frame 0; the part along z0 meets the joints' axes and
    does no work."""
    g = -lp.gravity[1]
    return lp.replace(gravity=(0, -g * sympy.sin(tilt), -g * sympy.cos(tilt)))


def _assert_tilted(Y, pi, lengths, tilt) -> None:
    """``Y * pi`` equals dynlab's inverse dynamics (Newton-Euler, numeric) of the tilted arm at a
    state, with numbers for the masses and L2, at both ends of the grids."""
    m1, m2, L1, L2, g = positive("m1", "m2", "L1", "L2", "g")
    state = ([0.4, -1.1], [0.7, -0.3], [1.2, 0.5])
    numbers = {m1: 1.3, m2: 0.6, L2: 0.45, g: G}
    at_state = {q1: state[0][0], q2: state[0][1], qd[0]: state[1][0], qd[1]: state[1][1],
                qdd[0]: state[2][0], qdd[1]: state[2][1]}
    for end in (0, -1):
        length, degrees = (grid_values(TILTED_ARM[name])[end] for name in ("L1", "beta"))
        values = {**numbers, L1: length}
        arm = tilted_arm(planar_2r("lynch_park", symbolic=True), math.radians(degrees))
        tau = inverse_dynamics(arm.subs(values), *state, method="newton_euler")
        ours = (Y * sympy.Matrix(pi)).xreplace({**values, **at_state, lengths: length,
                                               tilt: degrees})
        assert np.allclose(np.array(ours.evalf(), dtype=float).ravel(),
                           np.asarray(tau, dtype=float).ravel(), rtol=1e-12, atol=1e-12), \
            (length, degrees)


def regressor_key(lp):
    """Linear in the parameters: the regressor Y of the 2R arm of Lynch & Park, Sec. 8.1.1, in a
    plane tilted by the student's beta, with the student's known L1: tau = Y (pi1, pi2, pi3) with
    pi = ((m1 + m2) L1^2, m2 L1 L2, m2 L2^2), Y made of the motion, g and the student's numbers."""
    from dynlab.dynamics.regressor import regressor
    m1, m2, L1, L2, g = positive("m1", "m2", "L1", "L2", "g")
    pi = positive("pi1", "pi2", "pi3")
    lengths = parameter_symbol("L1", TILTED_ARM["L1"])
    assert lengths == L1                                 # the same symbol: L1 is a given here
    beta = parameter_symbol("beta", TILTED_ARM["beta"])
    # derived with the tilt as an angle symbol of its own, then written in beta's degrees
    angle, radians = sympy.Symbol("psi", real=True), sympy.pi * beta / 180
    base = {pi[0]: (m1 + m2) * L1**2, pi[1]: m2 * L1 * L2, pi[2]: m2 * L2**2}

    def of(arm):
        eom = equations_of_motion(arm, method="lagrange_euler")
        tau = eom.D * sympy.Matrix(qdd) + eom.h + eom.c
        Y = regressor(tau, base, solve_for=(m1, m2, L2))   # L1 known: m1, m2, L2 eliminated
        assert is_zero(Y * sympy.Matrix(list(base.values())) - tau)
        return Y.applyfunc(lambda e: compact(e).xreplace({angle: radians}))
    Y = of(tilted_arm(lp, angle))
    flat = of(lp.replace(gravity=(0, 0, 0)))                  # a horizontal plane: no gravity
    gravity = (Y - flat).applyfunc(compact)
    c1, c12 = sympy.cos(q1), sympy.cos(q1 + q2)
    # by hand (Sec. 8.1.1's gravity torques with g sin(beta)): (m1 + m2) g L1 c1 = pi1 g/L1 c1,
    # m2 g L2 c12 = pi2 g/L1 c12
    pull = g * sympy.sin(radians) / L1
    assert is_zero(gravity - pull * sympy.Matrix([[c1, c12, 0], [0, c12, 0]]))
    _assert_tilted(Y, list(base.values()), lengths, beta)
    s2, c2 = sympy.sin(q2), sympy.cos(q2)
    # the preliminary draft's tau_2 velocity term, -m2 L1 L2 qd1 qd2 sin q2 (corrected in print)
    draft = sympy.Matrix(Y)
    draft[1, 1] = c2 * qdd[0] - s2 * qd[0] * qd[1] + gravity[1, 1]
    once = sympy.Matrix(Y)
    once[0, 1] = Y[0, 1] + s2 * qd[0] * qd[1]                  # the Coriolis term counted once
    yours = "your beta = given[\"beta\"], in degrees"
    mistakes = [
        {"part": "Y", "value": draft,
         "message": "the elbow's velocity term is +m2*L1*L2*qd1**2*sin(q2), the centrifugal "
                    "pull of the spinning shoulder (Christoffel symbol c_211 = -(1/2) dM11/dq2): "
                    "the preliminary draft of Lynch & Park prints -m2*L1*L2*qd1*qd2*sin(q2) "
                    "there, corrected in the published book"},
        {"part": "Y", "value": once,
         "message": "the Coriolis term qd1*qd2 of tau_1 comes twice, as (j, k) = (1, 2) and "
                    "(2, 1) in sum_jk c_1jk qd_j qd_k: -2*pi2*sin(q2)*qd1*qd2"},
        {"part": "Y", "value": Y[:, [2, 1, 0]],
         "message": "the columns go with pi1, pi2, pi3 in this order: column j is "
                    "d tau / d pi_j"},
        {"part": "Y", "value": flat,
         "message": "gravity is missing: that is the arm in a horizontal plane; yours moves in "
                    "a plane tilted by beta from the horizontal, so gravity's component "
                    "g*sin(beta) along the plane pulls the links down the slope (" + yours + ")"},
        {"part": "Y", "value": (flat + gravity.xreplace({beta: 90})).applyfunc(compact),
         "message": "that is the arm in a vertical plane (beta = 90 degrees, Sec. 8.1.1); "
                    "yours is tilted by beta from the horizontal, and only g*sin(beta) of "
                    "gravity acts along its plane (" + yours + ")"},
        {"part": "Y", "value": (flat + gravity.xreplace({sympy.sin(radians): sympy.cos(
            radians)})).applyfunc(compact),
         "message": "beta is the tilt from the HORIZONTAL: gravity's component along the "
                    "plane is g*sin(beta), not g*cos(beta)"},
        {"part": "Y", "value": (flat - gravity).applyfunc(compact),
         "message": "the gravity terms have the wrong sign: y0 points up the slope, so the "
                    "potential energy grows with the heights L1*sin(q1), ... (Sec. 8.1.1)"},
        {"part": "Y", "value": (flat + gravity * L1**2).applyfunc(compact),
         "message": "the gravity torque (m1 + m2)*g*L1*cos(q1) written in pi1 = (m1 + m2)*L1**2 "
                    "is pi1 times g/L1, not times g*L1: the known L1 divides"}]
    check_mistakes("Y", TILTED_ARM, {"Y": Y}, mistakes,
                   [{q1: 0.4, q2: 2.3, qd[0]: 0.7, qd[1]: -1.2, qdd[0]: 0.9, qdd[1]: -0.5,
                     g: 9.8},
                    {q1: -1.3, q2: 0.8, qd[0]: -0.4, qd[1]: 0.6, qdd[0]: -1.1, qdd[1]: 0.3,
                     g: 3.7}])
    return make_key(
        "Y", notebook=NOTEBOOK, title="Linear in the parameters: the regressor of the 2R arm",
        points=2, symbols={**JOINTS2, "g": "positive"}, angles=("q1", "q2"), split=SPLIT2,
        parameters=TILTED_ARM, parts=[{"name": "Y", "value": Y}], mistakes=mistakes)
