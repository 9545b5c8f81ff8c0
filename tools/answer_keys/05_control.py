"""The answer keys of ``solutions/05_control``: control: the payload's gravity torque, the computed-
torque law, PD plus gravity compensation.
"""

from __future__ import annotations

import numpy as np
import sympy
from answer_keys.common import check_mistakes, grid_ends, positive, q1, q2

from dynlab import equations_of_motion
from dynlab.grading import make_key
from dynlab.grading.keys import parameter_symbol
from dynlab.model.edits import with_payload
from dynlab.model.robot import joint_symbols
from dynlab.model.robots import pendulum, planar_2r
from dynlab.model.symbolic import compact

NOTEBOOK = "05_control"

#: Each question's notes, sealed into its key: the hint a student asks for with hint(), and the
#: takeaway check() shows once the answer is right (Markdown, $...$ for mathematics; a hint says
#: where to start, never the answer)
NOTES = {
    "C.1": {
        "hint": r"""
The compensation is the gravity vector of the model: write the potential energy of the two rods
(each mass at the middle of its link) and of the payload (at the tip, your `given["Mp"]`), and
differentiate by each joint angle.""",
        "takeaway": r"""
Gravity compensation cancels exactly the torque of Eq. (3.2-34), with the payload's weight, at
every posture, so only the PD terms are left to pull the arm to its set point; the energy-like
function of chapter 08 then cannot grow. The payload adds $M_p g l (C_1 + C_{12})$ to joint 1 and
$M_p g l C_{12}$ to joint 2: a controller tuned for the empty gripper lets the arm sag under a
load.""",
    },
    "C.2": {
        "hint": r"""
Computed torque commands an acceleration, $\ddot q_r + K_d\dot e + K_p e$ (your gains:
`given["Kp"]`, `given["Kd"]`), and asks the model which torque gives it.""",
        "takeaway": r"""
The feedback goes through the inertia: the law commands an *acceleration*
$\ddot q_r + K_d \dot e + K_p e$ and the model turns it into a torque. With the exact model the
arm's own dynamics cancel and the error equation is linear, the same at every posture.""",
    },
    "C.3": {
        "hint": r"""
Compare $D\ddot e + K_d\dot e + K_p e = 0$ with $\ddot e + 2\zeta\omega_n\dot e + \omega_n^2 e = 0$
and put in your $\zeta$, `given["zeta"]`.""",
        "takeaway": r"""
A damping ratio $\zeta$ needs $K_d^2 = 4 \zeta^2 K_p D$ ($\zeta = 1$: critical damping). Under
computed torque the inertia is divided out and $K_d = 2\zeta\sqrt{K_p}$; under PD plus gravity
compensation the same gains damp a heavier arm less, which is why independent-joint PD is tuned
per joint and per load.""",
    },
}


#: The givens of C.2 and C.3, drawn per student (:mod:`dynlab.grading.variants`): the gains of
#: the computed-torque law, and the damping ratio PD plus gravity compensation is tuned for
#: (below 1: no grid value makes a typical mistake right, as zeta = 1/2 or 1 would; the gains'
#: grids do not meet, so swapped gains are never right)
GAINS = {"Kp": {"low": 20, "high": 100, "step": 10, "unit": "1/s^2",
                "text": "the proportional gain of the error equation e'' + Kd e' + Kp e = 0"},
         "Kd": {"low": 4, "high": 18, "step": 2, "unit": "1/s",
                "text": "the derivative gain of the error equation e'' + Kd e' + Kp e = 0"}}


DAMPING = {"zeta": {"low": 0.6, "high": 0.9, "step": 0.05, "unit": "",
                    "text": "the damping ratio of the error equation D e'' + Kd e' + Kp e = 0"}}


#: The given of C.1, drawn per student: the payload in the gripper (Fu, Gonzalez & Lee's arm
#: carries none; no value of the grid is twice another)
GRIPPER = {"Mp": {"low": 0.6, "high": 1.1, "step": 0.1, "unit": "kg",
                  "text": "the payload in the gripper, a point mass at the tip of link 2"}}


def _assert_gripper(c) -> None:
    """``c`` equals dynlab's gravity torques of the numeric two-link arm of Fu, Gonzalez & Lee
    carrying the payload (:func:`dynlab.model.edits.with_payload`, at the tool point), at two
    grid points of ``Mp``, at a posture."""
    arm, posture = planar_2r("fu"), [0.7, -1.9]
    names = {str(s): s for s in c.free_symbols}
    numbers = {"m1": float(arm.links[0].mass), "m2": float(arm.links[1].mass),
               "l": float(arm.links[0].a), "g": float(-arm.gravity[1]), "q1": posture[0],
               "q2": posture[1]}
    for values in grid_ends(GRIPPER):
        loaded = with_payload(arm, values["Mp"])
        expected = np.array(equations_of_motion(loaded, posture, [0.0, 0.0]).c,
                            dtype=float).ravel()
        at = {names[n]: v for n, v in {**numbers, **values}.items() if n in names}
        ours = np.array(c.xreplace(at), dtype=float).ravel()
        assert np.abs(ours - expected).max() <= 1e-12 * np.abs(expected).max(), (values, ours)


def _assert_computed_torque(law, gains, state) -> None:
    """The law equals dynlab's computed-torque controller (:func:`dynlab.dynamics.control.
    computed_torque`, numeric pendulum) at two grid points of the gains, at a state."""
    from dynlab.dynamics.control import computed_torque
    arm = pendulum()
    m1, a1, g = positive("m1", "a1", "g")
    numbers = {m1: float(arm.links[0].mass), a1: float(arm.links[0].a),
               g: float(-arm.gravity[1])}
    qa, qda, qr, qdr, qddr = state
    at = {qa: 0.4, qda: -0.7, qr: 1.1, qdr: 0.3, qddr: -0.5}
    for values in grid_ends(GAINS):
        controller = computed_torque(arm, Kp=values["Kp"], Kd=values["Kd"],
                                     reference=lambda t: ([1.1], [0.3], [-0.5]))
        expected = float(controller(0.0, [0.4], [-0.7])[0])
        ours = float(law.xreplace({**numbers, **at, gains[0]: values["Kp"],
                                   gains[1]: values["Kd"]}))
        assert abs(ours - expected) <= 1e-12 * max(1.0, abs(expected)), (values, ours, expected)


def _assert_damping(Kd, Kp, zeta) -> None:
    """Kd equals dynlab's :func:`dynlab.dynamics.control.matched_gains` for the pendulum (its
    derivative gain for omega_n = sqrt(Kp/D) and zeta), and the closed loop's eigenvalues have
    that damping ratio, at two grid points of zeta."""
    from dynlab.dynamics.control import matched_gains
    arm = pendulum()
    m1, a1 = positive("m1", "a1")
    numbers = {m1: float(arm.links[0].mass), a1: float(arm.links[0].a), Kp: 10.0}
    inertia = float(equations_of_motion(arm, [0.0], [0.0]).D[0, 0])
    for values in grid_ends(DAMPING):
        omega_n = float(np.sqrt(10.0 / inertia))
        expected = float(matched_gains(arm, [0.0], omega_n, values["zeta"])[1][0])
        ours = float(Kd.xreplace({**numbers, zeta: values["zeta"]}))
        assert abs(ours - expected) <= 1e-12 * expected, (values, ours, expected)
        roots = np.roots([inertia, ours, 10.0])               # D s^2 + Kd s + Kp
        assert abs(-roots[0].real / abs(roots[0]) - values["zeta"]) <= 1e-12


def keys():
    """Three laws of chapter 08: gravity compensation, computed torque with the student's gains,
    PD plus gravity compensation tuned for the student's damping ratio."""
    keys = []
    # the torque PD + gravity compensation adds: the model's c(q) (Fu, Gonzalez & Lee,
    # Sec. 3.2.6) with the student's payload Mp in the gripper, a point mass at the tip of link 2
    # folded into link 2 (its mass m2 + Mp, its centre of mass moved towards the tip), derived
    # here from the arm itself
    m1, m2, l, g = positive("m1", "m2", "l", "g")
    Mp = parameter_symbol("Mp", GRIPPER["Mp"])
    fu = planar_2r("fu", symbolic=True)

    def gravity_torques(arm):
        return sympy.Matrix([compact(v) for v in equations_of_motion(arm).c])

    centre = fu.links[1].com[0]                                   # -l/2 in frame 2
    c = gravity_torques(fu.replace_link(2, mass=m2 + Mp, com=(m2 * centre / (m2 + Mp), 0, 0)))
    _assert_gripper(c)
    bare = gravity_torques(fu)
    tip = sympy.Matrix([g * l * (sympy.cos(q1) + sympy.cos(q1 + q2)), g * l * sympy.cos(q1 + q2)])
    rods_at_the_tip = sympy.Matrix([compact(g * l * ((m1 + m2 + Mp) * sympy.cos(q1)
                                                     + (m2 + Mp) * sympy.cos(q1 + q2))),
                                    compact(g * l * (m2 + Mp) * sympy.cos(q1 + q2))])
    mistakes = [{"part": "c", "value": -c,
                 "message": "the motors must hold the arm up: add +c(q), the torque gravity "
                            "takes away, not -c(q)"},
                {"part": "c", "value": rods_at_the_tip,
                 "message": "each link's mass sits at its middle, l/2 from its joint, not at "
                            "its tip"},
                {"part": "c", "value": bare,
                 "message": "the payload is missing: the gripper holds your Mp = "
                            "given[\"Mp\"], whose weight both motors hold"},
                {"part": "c", "value": (bare + Mp * sympy.Matrix([0, tip[1]])).applyfunc(compact),
                 "message": "the payload loads joint 1 too: its lever arm about joint 1 reaches "
                            "the tip, l C1 + l C12"},
                {"part": "c", "value": (bare + Mp * tip / 2).applyfunc(compact),
                 "message": "the payload sits at the TIP of link 2, l from joint 2, not at the "
                            "link's middle"}]
    check_mistakes("C.1", GRIPPER, {"c": c}, mistakes,
                   [{"m1": 1.3, "m2": 0.7, "l": 0.8, "g": 9.8, "q1": 0.4, "q2": 2.3}])
    keys.append(make_key(
        "C.1", notebook=NOTEBOOK, title="Gravity compensation of the two-link arm with a payload",
        points=2, symbols={"m1": "positive", "m2": "positive", "l": "positive",
                           "g": "positive", "q1": "real", "q2": "real"},
        angles=("q1", "q2"), parameters=GRIPPER, parts=[{"name": "c", "value": c}],
        mistakes=mistakes))
    # computed torque (inverse-dynamics control) on the pendulum: tau = D (qdd_r + Kd e' + Kp e)
    # + h + c (Lynch & Park, the computed-torque law of the control chapter), with each
    # student's own gains Kp, Kd (givens, numbers in the answer)
    arm = equations_of_motion(pendulum(symbolic=True))
    (qa,), (qda,), _ = joint_symbols(1)
    Kp, Kd = (parameter_symbol(name, spec) for name, spec in GAINS.items())
    qr, qdr, qddr = sympy.symbols("qr qdr qddr", real=True)
    D, h, cc = arm.D[0, 0], arm.h[0], arm.c[0]
    law = D * (qddr + Kd * (qdr - qda) + Kp * (qr - qa)) + h + cc
    _assert_computed_torque(law, (Kp, Kd), (qa, qda, qr, qdr, qddr))
    symbols = {"m1": "positive", "a1": "positive", "g": "positive", "q1": "real", "qd1": "real",
               "qr": "real", "qdr": "real", "qddr": "real"}
    keys.append(make_key(
        "C.2", notebook=NOTEBOOK, title="The computed-torque law of the pendulum", points=2,
        symbols=symbols, angles=("q1",), parts=[{"name": "tau", "value": sympy.expand(law)}],
        parameters=GAINS,
        mistakes=[{"part": "tau", "value": sympy.expand(qddr + Kd * (qdr - qda) + Kp * (qr - qa)
                                                        + h + cc),
                   "message": "the commanded acceleration qdd_r + Kd e' + Kp e goes through the "
                              "inertia D(q) = m1 a1^2/3: tau = D (qdd_r + Kd e' + Kp e) + h + c"},
                  {"part": "tau", "value": sympy.expand(law - cc),
                   "message": "the model's gravity c(q) is missing: without it the arm sags"},
                  {"part": "tau", "value": sympy.expand(D * (qddr + Kd * (qda - qdr)
                                                             + Kp * (qa - qr)) + h + cc),
                   "message": "the error is e = q_r - q (reference minus actual): the feedback "
                              "has the wrong sign"},
                  {"part": "tau", "value": sympy.expand(D * (qddr + Kp * (qdr - qda)
                                                             + Kd * (qr - qa)) + h + cc),
                   "message": "Kp multiplies the error e and Kd its rate e': your gains are "
                              "swapped"}]))
    # a damping ratio for PD plus gravity compensation on the pendulum (chapter 08):
    # D e'' + Kd e' + Kp e = 0 at a set point, zeta = Kd / (2 sqrt(Kp D)), each student's own zeta
    inertia = D
    Kp = sympy.Symbol("Kp", positive=True)
    zeta = parameter_symbol("zeta", DAMPING["zeta"])
    Kd_zeta = 2 * zeta * sympy.sqrt(Kp * inertia)
    _assert_damping(Kd_zeta, Kp, zeta)
    keys.append(make_key(
        "C.3", notebook=NOTEBOOK, title="A damping ratio for PD plus gravity compensation "
        "on the pendulum", points=1,
        symbols={"m1": "positive", "a1": "positive", "Kp": "positive"},
        parts=[{"name": "Kd", "value": Kd_zeta}], parameters=DAMPING,
        mistakes=[{"part": "Kd", "value": 2 * zeta * sympy.sqrt(Kp),
                   "message": "that is the gain for a unit inertia (computed torque); PD plus "
                              "gravity compensation sees the pendulum's inertia m1 a1^2/3"},
                  {"part": "Kd", "value": zeta * sympy.sqrt(Kp * inertia),
                   "message": "the damping ratio is zeta = Kd / (2 sqrt(Kp D)): a factor of 2 "
                              "is missing"},
                  {"part": "Kd", "value": 2 * sympy.sqrt(Kp * inertia),
                   "message": "that is critical damping (zeta = 1); give the gain for your own "
                              "damping ratio, given[\"zeta\"]"},
                  {"part": "Kd", "value": 2 * sympy.sqrt(Kp * inertia) / zeta,
                   "message": "the damping ratio is zeta = Kd / (2 sqrt(Kp D)), so Kd grows "
                              "with zeta: multiply by zeta, do not divide"}]))
    return keys
