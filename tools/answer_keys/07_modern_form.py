"""The answer keys of ``solutions/07_modern_form``: the modern form (Lynch & Park, Ch. 8): the
twist-wrench recursion and the closed form M = A^T L^T G L A.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import sympy
from answer_keys.common import (
    SPLIT2,
    check_mistakes,
    column,
    grid_ends,
    positive,
    q,
    q1,
    q2,
    qd,
    qd1,
    qd2,
    qdd,
    qdd1,
    qdd2,
)

from dynlab import equations_of_motion, inverse_dynamics
from dynlab.formulations.twist_wrench import closed_form
from dynlab.grading import make_key
from dynlab.grading.keys import parameter_symbol
from dynlab.model import spatial as S
from dynlab.model.robots import planar_2r
from dynlab.model.symbolic import compact, is_zero

NOTEBOOK = "07_modern_form"

#: Each question's notes, sealed into its key: the hint a student asks for with hint(), and the
#: takeaway check() shows once the answer is right (Markdown, $...$ for mathematics; a hint says
#: where to start, never the answer).  A takeaway keeps its line breaks, long lines and all (a
#: noqa for E501 at its end): solutions/' stored outputs show it line by line, so rewrapping one
#: means refreshing them (tools/refresh_notebooks.py)
NOTES = {
    "T.1": {
        "hint": r"""
Build $[\mathrm{Ad}_{T_{ba}}]$ with the set-up cell's `Ad` from $T_{ba} = T_{ab}^{-1} = (R^T,
-R^T p)$, with $p = d\,l\,(\cos\theta, \sin\theta, 0)$ and your `given["d"]`, then the product of
Lynch & Park, Sec. 8.2. A check: the $zz$ entry of the upper-left block is the rod's moment of
inertia about the joint's axis, at every $\theta$.""",
        "takeaway": r"""
The upper-left block is the rod's inertia tensor about the joint in $\{a\}$'s axes,
$R_z(\theta)\,\mathcal I_b\,R_z(\theta)^T + m[c]^T[c]$ (Steiner's theorem; its $zz$ entry is
$m l^2/12 + m d^2 l^2$ at every $\theta$, $\tfrac13 m l^2$ for a joint at the rod's end); the
off-diagonal blocks $m[c]$, with $c = d\,l\,(\cos\theta, \sin\theta, 0)$ the centre of mass in
$\{a\}$, couple spin and translation: seen from a point that is not the centre of mass, a pure spin
moves the mass.""",
    },
    "T.2": {
        "hint": r"""
Sec. 8.3 (draft Eqs. (9.54) and (9.55)) of Lynch & Park twice: link 1 from $\mathcal V_0 = 0$ and
$\dot{\mathcal V}_0 = (0, 0, 0, 0, g, 0)$ with $T_{10} = T_{01}^{-1}$, then link 2 with
$T_{21} = T_{12}^{-1}$, where $\rho L_2$ (your `given["rho"]` times `L2`) takes the place of $L_2$.
The bracket $[\mathcal V_i, \mathcal A_i]$ is `ad(V) * A` of the set-up cell.""",
        "takeaway": r"""
$\mathcal V_2 = (0, 0, \dot q_1 + \dot q_2,\ L_1 S_2\dot q_1,\ L_1C_2\dot q_1 + \rho L_2(\dot q_1 + \dot q_2),\ 0)$:
the velocity of mass 2 in link 2's own axes; only its distance $\rho L_2$ from joint 2 enters.
$\dot{\mathcal V}_2$ is the rate of change of those *coordinates*; its linear part plus
$\omega_2 \times v_2$ is the acceleration of the mass (with the base's upward $g$ in it): the
classical $\dot v$ of Luh's recursion. The preliminary draft's
initialisation, $\dot{\mathcal V}_0 = (0, \mathfrak g)$, would put gravity the wrong way; the
published Sec. 8.3 gives the base the acceleration $-\mathfrak g$, $\dot{\mathcal V}_0 = (0, -\mathfrak g)$.""",  # noqa: E501
    },
    "T.3": {
        "hint": r"""
Sec. 8.3 (draft Eq. (9.56)) of Lynch & Park at $i = 2$ with $\mathcal F_3 = 0$: only
$\mathcal G_2\dot{\mathcal V}_2 - \mathrm{ad}^T_{\mathcal V_2}(\mathcal G_2\mathcal V_2)$ is left,
with $\mathrm{ad}^T_{\mathcal V}$ the transpose of the set-up cell's `ad(V)`, and $\mathcal V_2$,
$\dot{\mathcal V}_2$ from question 2's pass at this question's `given["rho"]`. Then Sec. 8.3 (draft
Eq. (9.57)), $\tau_2 = \mathcal F_2^T\mathcal A_2$.""",
        "takeaway": r"""
$\mathcal F_2 = (0, 0, 0,\ m_2(\dot v_2 + \omega_2 \times v_2))$: no moment about the mass itself,
and the force that gives it its acceleration (the base's upward $g$ included). The bias term
$-\mathrm{ad}^T_{\mathcal V_2}(\mathcal G_2\mathcal V_2)$ is what turns the rate of the twist's
coordinates into that acceleration. $\tau_2$ is the lever $r = \rho L_2$ times the force's $y$
component: $m_2(L_1rC_2 + r^2)\ddot q_1 + m_2r^2\ddot q_2 + m_2L_1rS_2\dot q_1^2 + m_2grC_{12}$,
the $\tau_2$ of Sec. 8.1.1 with $r$ in place of $L_2$.""",
    },
    "T.4": {
        "hint": r"""
Assemble $\mathcal A$ (draft Eq. (9.64) of Lynch & Park, 12x2), $\mathcal G$ (Sec. 8.4 (draft Eq.
(9.65))) and $\mathcal L$ (Sec. 8.4 (draft Eq. (9.76))) with $[\mathrm{Ad}_{T_{21}}]$ from question
2 (`sympy.diag` and `sympy.BlockMatrix` build block matrices), then Sec. 8.4 (draft Eq. (9.82)), all
at this question's `given["rho"]`. A check: $M_{22}$ is the inertia of mass 2 about joint 2.""",
        "takeaway": r"""
The second block of $\mathcal L\mathcal A$, $\big(\mathrm{Ad}_{T_{21}}\mathcal A_1,\ \mathcal A_2\big)$, is
link 2's body Jacobian: how each joint moves mass 2, seen in frame $\{2\}$. $M$ comes out as the
mass matrix of Sec. 8.1.1, found there from the Lagrangian, with $r = \rho L_2$ in place of $L_2$:
$M_{11} = m_1L_1^2 + m_2(L_1^2 + 2L_1rC_2 + r^2)$, $M_{12} = m_2(L_1rC_2 + r^2)$,
$M_{22} = m_2r^2$. Without $\mathcal L$ each joint would move only its own link.""",  # noqa: E501
    },
}


def square(rows):
    return sympy.Matrix(rows).applyfunc(lambda e: compact(sympy.sympify(e)))


#: The given of T.1, drawn per student: where on the rod its joint, frame {a}, sits.  Sec. 8.2's
#: frame is at the rod's end, d = 1/2 (a typical answer, so not on the grid), and no value is
#: twice another (a classmate's off-diagonal blocks m [p] are then no factor the feedback names)
PIVOT = {"d": {"low": 0.25, "high": 0.45, "step": 0.05, "unit": "",
               "text": "the joint's (frame {a}'s) distance from the rod's centre, as a "
                       "fraction of l"}}


#: The given of T.2, T.3 and T.4, each drawn per student: where mass 2 sits on link 2.  The arm of
#: Sec. 8.1.1 has it at the end of the link (rho = 1) and a uniform rod's centre is at its middle
#: (1/2): both typical answers, so neither is on the grid, and no value is twice another
MASS_PLACE = {"rho": {"low": 0.6, "high": 0.9, "step": 0.05, "unit": "",
                      "text": "the distance of mass 2 from joint 2, as a fraction of L2"}}


#: A state of the 2R arm at which the keys are compared with dynlab's numbers
LP_STATE = ([0.4, -1.1], [0.7, -0.3], [1.2, 0.5])


def pivot_inertia(m, l, theta, d):
    """Lynch & Park, Sec. 8.2: ``G_a = [Ad_{T_ba}]^T G_b [Ad_{T_ba}]`` of a thin rod of mass ``m``
    and length ``l`` whose frame {a} sits on the rod, ``d l`` from its centre, turned by
    ``theta``: ``T_ab = (Rz(theta), d l (cos theta, sin theta, 0))``.  Symbolic or numeric (the
    change of frame of :func:`dynlab.model.spatial.change_frame`)."""
    trig = (sympy.cos, sympy.sin) if isinstance(theta, sympy.Basic) else (math.cos, math.sin)
    c, s = trig[0](theta), trig[1](theta)
    rod = ((0, 0, 0), (0, m * l**2 / 12, 0), (0, 0, m * l**2 / 12))
    G_b = S.spatial_inertia_at_com(m, rod)                         # Sec. 8.2 (draft Eq. (9.23))
    T_ab = (((c, -s, 0), (s, c, 0), (0, 0, 1)), (d * l * c, d * l * s, 0))   # {b} seen from {a}
    return G_b, T_ab, S.change_frame(G_b, S.inverse(T_ab))


def rod_inertia_key():
    """Lynch & Park, Sec. 8.2: a rod's spatial inertia in a frame on it, ``d l`` from its centre
    (``d``: each student's own; the section's frame is at the end, d = 1/2), turned by theta,
    ``G_a = [Ad_{T_ba}]^T G_b [Ad_{T_ba}]`` (the kinetic energy Sec. 8.2 (draft Eq. (9.24)) is
    the same in either frame, and ``V_b = Ad_{T_ba}(V_a)``)."""
    m, l = positive("m", "l")
    theta = sympy.Symbol("theta", real=True)
    d = parameter_symbol("d", PIVOT["d"])
    G_b, T_ab, G_a = pivot_inertia(m, l, theta, d)
    G_a = square(G_a)
    # the same by Steiner's theorem with the centre at R_ab (d l, 0, 0) and I_b turned by R_ab
    R = sympy.Matrix(T_ab[0])
    rod = sympy.Matrix([[0, 0, 0], [0, m * l**2 / 12, 0], [0, 0, m * l**2 / 12]])
    turned = R * rod * R.T
    assert is_zero(G_a - sympy.Matrix(S.spatial_inertia(m, tuple(R * sympy.Matrix([d * l, 0, 0])),
                                                        turned.tolist())))
    # and dynlab's number at both ends of the grid
    numbers = {"m": 1.3, "l": 0.7, "theta": 0.4}
    for values in grid_ends(PIVOT):
        exact = np.array(pivot_inertia(1.3, 0.7, 0.4, values["d"])[2], dtype=float)
        ours = np.array(G_a.xreplace({m: 1.3, l: 0.7, theta: 0.4, d: values["d"]}), dtype=float)
        assert np.abs(ours - exact).max() <= 1e-12
    T_ba = S.inverse(T_ab)
    Ad = sympy.Matrix(S.Ad_matrix(T_ba))
    Gb = sympy.Matrix(G_b)
    wrong_frame = square(S.change_frame(G_b, T_ab))
    flipped = (Ad * Gb * Ad.T).applyfunc(compact)
    unturned = square(S.change_frame(G_b, S.translation((-d * l, 0, 0))))
    steiner_only = sympy.diag(sympy.Matrix(G_a[:3, :3]), m * sympy.eye(3))
    at_end = square(pivot_inertia(m, l, theta, sympy.Rational(1, 2))[2])
    mistakes = [{"part": "G_a", "value": wrong_frame,
                 "message": "G_a = [Ad_{T_ba}]^T G_b [Ad_{T_ba}] takes the map of twists from {a} "
                            "to {b} (T_ba: frame {a} seen from {b}), not [Ad_{T_ab}]"},
                {"part": "G_a", "value": flipped,
                 "message": "the order is [Ad_{T_ba}]^T G_b [Ad_{T_ba}] (transpose on the "
                            "left), which keeps the kinetic energy (1/2) V^T G V the same in "
                            "both frames"},
                {"part": "G_a", "value": unturned,
                 "message": "that is the spatial inertia for theta = 0: the rod is turned by "
                            "theta about z_a, so [Ad_{T_ba}] holds R_ba = Rz(-theta)"},
                {"part": "G_a", "value": steiner_only,
                 "message": "the off-diagonal blocks m [p] are missing: away from the centre "
                            "of mass a spin also moves the mass, so rotation and translation "
                            "couple"},
                {"part": "G_a", "value": at_end,
                 "message": "that is the rod seen from its END (l/2 from the centre, as in "
                            "Sec. 8.2); your frame {a} sits d*l from the centre, with your d = "
                            "given[\"d\"]"}]
    check_mistakes("T.1", PIVOT, {"G_a": G_a}, mistakes, [numbers])
    return make_key(
        "T.1", notebook=NOTEBOOK, title="Lynch & Park, Sec. 8.2: a rod's spatial inertia in a "
        "frame on it", points=2, symbols={"m": "positive", "l": "positive", "theta": "real"},
        angles=("theta",), parameters=PIVOT,
        parts=[{"name": "G_a", "value": G_a, "structure": "symmetric"}], mistakes=mistakes)


def lynch_park_arm(rho, symbolic=True, **changes):
    """The 2R arm of Lynch & Park, Sec. 8.1.1, with mass 2 at ``rho L2`` from joint 2 (at
    ``((rho - 1) L2, 0, 0)`` in DH frame 2, whose origin is the link's end; Sec. 8.1.1 has
    rho = 1), so that frame {2} of the twist-wrench recursion, at the centre of mass (Sec. 8.3),
    sits there; ``changes`` replace fields of the robot (a wrong model for a typical mistake)."""
    arm = planar_2r("lynch_park", symbolic=symbolic)
    arm = arm.replace_link(2, com=((rho - 1) * arm.links[1].a, 0, 0))
    return arm.replace(**changes) if changes else arm


def lp_trace(robot, state=None):
    """``(tau, trace)`` of the twist-wrench recursion (Lynch & Park, Sec. 8.3) on ``robot``, at
    the joint symbols or at a numeric ``state``."""
    q_, qd_, qdd_ = (list(q), list(qd), list(qdd)) if state is None else state
    return inverse_dynamics(robot, q_, qd_, qdd_, method="twist_wrench", variant="poe",
                            trace=True)


#: The joint variables and the lengths of the 2R arm, by name, at :data:`LP_STATE`
LP_NUMBERS = dict(zip(("q1", "q2", "qd1", "qd2", "qdd1", "qdd2"),
                      itertools.chain(*LP_STATE)))


def lp_numbers(arm) -> dict:
    """``{name: number}`` of the numeric 2R arm ``planar_2r("lynch_park")`` and the state."""
    return {"m1": float(arm.links[0].mass), "m2": float(arm.links[1].mass),
            "L1": float(arm.links[0].a), "L2": float(arm.links[1].a),
            "g": float(-arm.gravity[1]), **LP_NUMBERS}


def at_numbers(expr, numbers: dict, given: dict) -> np.ndarray:
    """``expr`` (a matrix or an expression) at ``numbers`` and the givens ``given`` (by name)."""
    expr = sympy.Matrix([expr]) if not isinstance(expr, sympy.MatrixBase) else expr
    values = {**numbers, **given}
    return np.array(expr.xreplace({s: values[str(s)] for s in expr.free_symbols}), dtype=float)


def book_arm_mistake(part, value):
    return {"part": part, "value": value,
            "message": "that is the arm of Sec. 8.1.1, mass 2 at the END of link 2 (L2 from "
                       "joint 2); yours sits at rho*L2, with your rho = given[\"rho\"], and so "
                       "does frame {2}"}


def twist_keys():
    """Lynch & Park, Sec. 8.3 (draft Eqs. (9.53)-(9.55)) on the 2R arm of Sec. 8.1.1 with mass 2
    at rho L2 (rho: each student's own): the twist of link 2 and its rate, in frame {2} at the
    mass m2."""
    g = sympy.Symbol("g", positive=True)
    rho = parameter_symbol("rho", MASS_PLACE["rho"])
    arm = lynch_park_arm(rho)
    L1, L2 = arm.links[0].a, arm.links[1].a

    def run(robot):
        _, trace = lp_trace(robot)
        return column(trace[2]["V"]), column(trace[2]["V_dot"]), trace

    V2, Vdot2, trace = run(arm)
    S2, C2 = sympy.sin(q2), sympy.cos(q2)
    assert is_zero(V2 - sympy.Matrix([0, 0, qd1 + qd2, L1 * S2 * qd1,
                                      L1 * C2 * qd1 + rho * L2 * (qd1 + qd2), 0]))
    numeric = planar_2r("lynch_park")
    for values in grid_ends(MASS_PLACE):         # dynlab's numbers at both ends of the grid
        _, exact = lp_trace(lynch_park_arm(values["rho"], symbolic=False), LP_STATE)
        for ours, record in ((V2, "V"), (Vdot2, "V_dot")):
            assert np.abs(at_numbers(ours, lp_numbers(numeric), values).ravel()
                          - np.array(exact[2][record], dtype=float)).max() <= 1e-12
    _, Vdot_printed, _ = run(arm.replace(gravity=(0, g, 0)))     # Vdot_0 = (0, +g) as printed
    _, Vdot_still, _ = run(arm.replace(gravity=(0, 0, 0)))
    A2 = sympy.Matrix(trace[2]["V"]).subs({qd1: 0, qd2: 1})        # A_2 = V_2 at qd = (0, 1)
    no_bracket = (Vdot2 - qd2 * sympy.Matrix(S.ad(tuple(V2), tuple(A2)))).applyfunc(compact)
    A1 = sympy.Matrix(trace[1]["V"]).subs({qd1: 1})
    summed = (A1 * qd1 + A2 * qd2).applyfunc(compact)
    V_end, Vdot_end, _ = run(lynch_park_arm(1))
    symbols = {"L1": "positive", "L2": "positive", "g": "positive", "q1": "real",
               "q2": "real", "qd1": "real", "qd2": "real", "qdd1": "real", "qdd2": "real"}
    mistakes = [{"part": "V2", "value": summed,
                 "message": "A_1 thetadot_1 is a twist in frame {1}: bring V_1 into frame {2} "
                            "with Ad_{T_21} before adding A_2 thetadot_2 (Sec. 8.3 (draft Eq. "
                            "(9.54)))"},
                {"part": "Vdot2", "value": Vdot_printed,
                 "message": "gravity enters as the base accelerating UPWARD, Vdot_0 = "
                            "(0, 0, 0, 0, g, 0) with y up (the printed initialisation "
                            "(0, g) with g = (0, -g, 0) is a misprint: the text gives the "
                            "base the acceleration -g)"},
                {"part": "Vdot2", "value": Vdot_still,
                 "message": "the recursion starts from Vdot_0 = (0, 0, 0, 0, g, 0), not 0: "
                            "that is how gravity reaches the links"},
                {"part": "Vdot2", "value": no_bracket,
                 "message": "the term [V_2, A_2] thetadot_2 = ad_{V_2}(A_2) thetadot_2 of "
                            "Sec. 8.3 (draft Eq. (9.55)) is missing: the joint's screw turns "
                            "with the link"},
                book_arm_mistake("V2", V_end), book_arm_mistake("Vdot2", Vdot_end)]
    check_mistakes("T.2", MASS_PLACE, {"V2": V2, "Vdot2": Vdot2},
                   mistakes, [lp_numbers(numeric)])
    return make_key(
        "T.2", notebook=NOTEBOOK, title="Lynch & Park, Sec. 8.3 (draft Eqs. (9.53)-(9.55)): one "
        "forward pass of the 2R arm (V_2, Vdot_2)", points=2, symbols=symbols,
        angles=("q1", "q2"), split=SPLIT2, parameters=MASS_PLACE,
        parts=[{"name": "V2", "value": V2},
               {"name": "Vdot2", "value": Vdot2}], mistakes=mistakes)


def backward_key():
    """Lynch & Park, Sec. 8.3 (draft Eqs. (9.56)-(9.57)) on the 2R arm with mass 2 at rho L2
    (rho: each student's own): the wrench on link 2 and tau_2 (no tip wrench, F_3 = 0)."""
    m2 = sympy.Symbol("m2", positive=True)
    rho = parameter_symbol("rho", MASS_PLACE["rho"])
    arm = lynch_park_arm(rho)
    L1, L2, g = arm.links[0].a, arm.links[1].a, -arm.gravity[1]
    tau, trace = lp_trace(arm)
    V2, Vdot2 = tuple(trace[2]["V"]), tuple(trace[2]["V_dot"])
    F2, tau2 = column(trace[2]["wrench"]), compact(sympy.sympify(tau[1]))
    G2 = sympy.diag(0, 0, 0, m2, m2, m2)
    GV = tuple(G2 * sympy.Matrix(V2))
    GVdot = G2 * sympy.Matrix(Vdot2)
    assert is_zero(F2 - GVdot + sympy.Matrix(S.ad_transpose(V2, GV)))   # Sec. 8.3 (Eq. (9.56))
    S2, C2, C12 = sympy.sin(q2), sympy.cos(q2), sympy.cos(q1 + q2)
    r = rho * L2                                    # the lever of mass 2 about joint 2
    assert is_zero(tau2 - m2 * r * (L1 * C2 * qdd1 + r * (qdd1 + qdd2) + L1 * S2 * qd1**2
                                    + g * C12))
    numeric = planar_2r("lynch_park")
    for values in grid_ends(MASS_PLACE):         # dynlab's numbers at both ends of the grid
        torques, exact = lp_trace(lynch_park_arm(values["rho"], symbolic=False), LP_STATE)
        assert np.abs(at_numbers(F2, lp_numbers(numeric), values).ravel()
                      - np.array(exact[2]["wrench"], dtype=float)).max() <= 1e-12
        assert abs(at_numbers(tau2, lp_numbers(numeric), values).item()
                   - float(torques[1])) <= 1e-12
    plus = (GVdot + sympy.Matrix(S.ad_transpose(V2, GV))).applyfunc(compact)
    no_bias = GVdot.applyfunc(compact)
    A2 = sympy.Matrix([0, 0, 1, 0, r, 0])
    at_end, end_trace = lp_trace(lynch_park_arm(1))
    symbols = {"m2": "positive", "L1": "positive", "L2": "positive", "g": "positive",
               "q1": "real", "q2": "real", "qd1": "real", "qd2": "real", "qdd1": "real",
               "qdd2": "real"}
    mistakes = [{"part": "F2", "value": plus,
                 "message": "the bias term enters with a minus sign: F_i = ... + G_i Vdot_i "
                            "- ad^T_{V_i}(G_i V_i) (Sec. 8.3 (draft Eq. (9.56)))"},
                {"part": "F2", "value": no_bias,
                 "message": "the term -ad^T_{V_2}(G_2 V_2) is missing: Vdot_2 is the rate of "
                            "the twist's coordinates in the moving frame {2}, so the mass's "
                            "acceleration also has omega_2 x v_2 (Sec. 8.3 (draft Eq. "
                            "(9.56)))"},
                {"part": "tau2", "value": compact((no_bias.T * A2)[0]),
                 "message": "the term -ad^T_{V_2}(G_2 V_2) of Sec. 8.3 (draft Eq. (9.56)) is "
                            "missing from F_2, and with it the centrifugal torque of the "
                            "shoulder's spin, in qd1^2"},
                book_arm_mistake("F2", column(end_trace[2]["wrench"])),
                book_arm_mistake("tau2", compact(sympy.sympify(at_end[1])))]
    check_mistakes("T.3", MASS_PLACE, {"F2": F2, "tau2": tau2},
                   mistakes, [lp_numbers(numeric)])
    return make_key(
        "T.3", notebook=NOTEBOOK, title="Lynch & Park, Sec. 8.3 (draft Eqs. (9.56)-(9.57)): one "
        "backward step of the 2R arm (F_2, tau_2)", points=2, symbols=symbols,
        angles=("q1", "q2"), split=SPLIT2, parameters=MASS_PLACE,
        parts=[{"name": "F2", "value": F2},
               {"name": "tau2", "value": tau2}], mistakes=mistakes)


def closed_form_key():
    """Lynch & Park, Sec. 8.4 (draft Eqs. (9.64)-(9.82)) on the 2R arm with mass 2 at rho L2
    (rho: each student's own): L A and M = A^T L^T G L A."""
    rho = parameter_symbol("rho", MASS_PLACE["rho"])

    def stacked(robot):
        terms = closed_form(robot, list(q), list(qd))
        A, L, G = (sympy.Matrix(terms[k]) for k in ("A", "L", "G"))
        LA = (L * A).applyfunc(compact)
        return A, L, G, LA, (LA.T * G * LA).applyfunc(compact)

    arm = lynch_park_arm(rho)
    A, L, G, LA, M = stacked(arm)
    assert is_zero(M - equations_of_motion(arm, method="lagrange_euler").D)
    numeric = planar_2r("lynch_park")
    for values in grid_ends(MASS_PLACE):         # dynlab's numbers at both ends of the grid
        robot = lynch_park_arm(values["rho"], symbolic=False)
        terms = closed_form(robot, LP_STATE[0], LP_STATE[1])
        exact = np.array(terms["L"], dtype=float) @ np.array(terms["A"], dtype=float)
        assert np.abs(at_numbers(LA, lp_numbers(numeric), values) - exact).max() <= 1e-12
        D = np.array(equations_of_motion(robot, LP_STATE[0], [0.0, 0.0]).D, dtype=float)
        assert np.abs(at_numbers(M, lp_numbers(numeric), values) - D).max() <= 1e-12
    no_L = (A.T * G * A).applyfunc(compact)
    transposed = (L.T * A).applyfunc(compact)
    _, _, _, LA_end, M_end = stacked(lynch_park_arm(1))
    symbols = {"m1": "positive", "m2": "positive", "L1": "positive", "L2": "positive",
               "q1": "real", "q2": "real"}
    mistakes = [{"part": "LA", "value": A,
                 "message": "that is A alone; L = (I - Gamma)^-1 (Sec. 8.4 (draft Eq. (9.76))) "
                            "carries joint 1's screw into frame {2}: the lower-left block of L "
                            "is [Ad_{T_21}]"},
                {"part": "LA", "value": transposed,
                 "message": "L is block LOWER triangular (Sec. 8.4 (draft Eq. (9.76))): joint 1 "
                            "moves link 2, joint 2 does not move link 1; that is L^T A"},
                {"part": "M", "value": no_L,
                 "message": "that is A^T G A, without L: each joint then moves only its own "
                            "link; M = A^T L^T G L A (Sec. 8.4 (draft Eq. (9.82)))"},
                book_arm_mistake("LA", LA_end), book_arm_mistake("M", M_end)]
    check_mistakes("T.4", MASS_PLACE, {"LA": LA, "M": M},
                   mistakes, [lp_numbers(numeric)])
    return make_key(
        "T.4", notebook=NOTEBOOK, title="Lynch & Park, Sec. 8.4 (draft Eq. (9.82)): M = A^T L^T G "
        "L A for the 2R arm", points=2, symbols=symbols, angles=("q1", "q2"),
        parameters=MASS_PLACE,
        parts=[{"name": "LA", "value": LA},
               {"name": "M", "value": M, "structure": "symmetric"}], mistakes=mistakes)


def keys():
    return [rod_inertia_key(), twist_keys(), backward_key(), closed_form_key()]
