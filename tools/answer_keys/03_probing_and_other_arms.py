"""The answer keys of ``solutions/03_probing_and_other_arms``: probing the PUMA (Prob. 3.11), the
cost of probing (Prob. 3.12), the theta-d arm (Prob. 3.18) and Schilling's one-axis arm (Exercise
6-4-1).
"""

from __future__ import annotations

import math

import numpy as np
import sympy
from answer_keys.common import JOINTS2, SPLIT2, check_mistakes, positive, q1, q2, qd, qdd

from dynlab import Link, Robot, equations_of_motion, inverse_dynamics
from dynlab.dynamics.inverse import probe
from dynlab.engine.opcount import generic_chain
from dynlab.grading import make_key
from dynlab.grading.keys import parameter_symbol
from dynlab.model.link import G
from dynlab.model.robot import joint_symbols
from dynlab.model.robots import puma560
from dynlab.model.symbolic import compact, is_zero
from dynlab.teaching.textbook.printed_counts import table_3_5

NOTEBOOK = "03_probing_and_other_arms"

#: Each question's notes, sealed into its key: the hint a student asks for with hint(), and the
#: takeaway check() shows once the answer is right (Markdown, $...$ for mathematics; a hint says
#: where to start, never the answer).  A takeaway keeps its line breaks, long lines and all (a
#: noqa for E501 at its end): solutions/' stored outputs show it line by line, so rewrapping one
#: means refreshing them (tools/refresh_notebooks.py)
NOTES = {
    "3.11": {
        "hint": r"""
What is left of $\boldsymbol\tau = \mathbf D\ddot{\mathbf q} + \mathbf h + \mathbf c$ when you
choose $\dot{\mathbf q}$, $\ddot{\mathbf q}$ and gravity well?""",
        "takeaway": r"""
Three kinds of probe: with $\dot{\mathbf q} = \ddot{\mathbf q} = \mathbf 0$ only gravity is left, so the
torques are $\mathbf c$; with gravity off and $\ddot{\mathbf q} = \mathbf 0$ they are $\mathbf h$; with
gravity off, $\dot{\mathbf q} = \mathbf 0$ and $\ddot{\mathbf q} = \mathbf e_j$ (the $j$-th unit vector)
they are the $j$-th column of $\mathbf D$. (Without a gravity switch, subtract $\mathbf c$ from the other
probes instead.) This is what `dynlab.probe` does for any inverse-dynamics routine.""",  # noqa: E501
    },
    "3.12": {
        "hint": r"""
Count what one call of the recursion costs with the inputs your probes use, then how many calls
$\mathbf D$ needs.""",
        "takeaway": r"""
Setting $\dot{\mathbf q} = \mathbf 0$ and $\mathbf g = \mathbf 0$ in the recursion (rather than
subtracting a separate gravity call) is what makes it the smallest count. Compare Table 3.1: the
Lagrange-Euler $\mathbf D$ alone grows like $n^3$ (its $\mathbf h$ like $n^4$);
probing a Newton-Euler routine costs $n$ times an $O(n)$ call, $O(n^2)$.""",
    },
    "3.18": {
        "hint": r"""
Write the kinetic and potential energies of the two masses in $\theta$ and $d$ (with $m_2$ at
$d + e$ from the axis) and apply Lagrange's equation; the prismatic joint's velocity is $\dot
d$.""",
        "takeaway": r"""
$h_1 = 2 m_2 (d + e)\,\dot\theta\dot d$ is the Coriolis torque of a mass moving outward on a turning
arm; $h_2 = -m_2 (d + e)\,\dot\theta^2$ is the centrifugal force pulling it out (with the minus sign
because $\boldsymbol\tau$ is what the actuator must supply). The inertia
$D_{11} = m_1 r_1^2 + m_2 (d + e)^2$ changes as the arm extends: the reason a prismatic joint makes
the model depend on $d$. Where the mass sits on the sliding link enters only through its distance
$d + e$ from the axis; $D_{22} = m_2$ and the gravity force $c_2$ along the slide do not depend on it.""",  # noqa: E501
    },
    "6-4-1": {
        "hint": r"""
Schilling's velocity coupling matrix $C^1$ is built from the derivatives of $D$ by the joint
variable (Eqs. (6-4-6)): what does $D_{11}$ depend on?""",
        "takeaway": r"""
$D_{11}$ does not depend on $q_1$: turning a single link about its joint axis does not change how its
mass is spread about that axis. Every term of $C^1$ is a derivative of $D_{11}$ by $q_1$, so $C^1 = 0$
and the velocity coupling vector vanishes, as Exercise 6-4-1 claims; Schilling finds the same for its
pendulum in Sec. 6-9. The twist $\alpha$ decides how the link's own moments and products mix into the
inertia about $z_0$, never whether that inertia changes with $q_1$.""",  # noqa: E501
    },
}


#: The givens of Prob. 3.11, drawn per student (:mod:`dynlab.grading.variants`): the state at
#: which D, h and c are probed (q1 stays 30 degrees)
PUMA_STATE = {
    "q2": {"low": -80, "high": -10, "step": 10, "unit": "degrees",
           "text": "the angle of joint 2"},
    "q3": {"low": 20, "high": 100, "step": 10, "unit": "degrees",
           "text": "the angle of joint 3"},
    "qd1": {"low": 0.5, "high": 2.0, "step": 0.5, "unit": "rad/s",
            "text": "the speed of joint 1"},
    "qd2": {"low": -2.0, "high": -0.5, "step": 0.5, "unit": "rad/s",
            "text": "the speed of joint 2"},
    "qd3": {"low": 0.5, "high": 2.0, "step": 0.5, "unit": "rad/s",
            "text": "the speed of joint 3"}}


#: q1 of Prob. 3.11's state, in degrees (the same for every student)
PUMA_Q1 = 30.0


def puma_probed(q_degrees, qd_):
    """D, h and c of the PUMA 560's first three joints at a state, by probing dynlab's
    Newton-Euler routine (Fu, Gonzalez & Lee, Prob. 3.11): ``inverse_dynamics`` with qd = qdd = 0
    (c), gravity off and qdd = 0 (h), gravity off, qd = 0 and qdd = e_j (column j of D)."""
    arm = puma560(joints=3)
    q_ = np.radians(np.asarray(q_degrees, dtype=float))
    zero = np.zeros(3)
    c = inverse_dynamics(arm, q_, zero, zero)
    h = inverse_dynamics(arm, q_, np.asarray(qd_, dtype=float), zero, gravity=False)
    D = np.column_stack([inverse_dynamics(arm, q_, zero, e, gravity=False) for e in np.eye(3)])
    return D, h, c


def puma_state_key():
    """Prob. 3.11 at the student's state: D, h and c of the PUMA 560's first three joints as
    expressions in the givens (angles in degrees), from dynlab's symbolic Lagrange-Euler
    derivation of the arm (Fu, Gonzalez & Lee, Eqs. (3.2-31) to (3.2-34)), asserted equal to
    the probed Newton-Euler numbers at both ends of the grids."""
    eom = equations_of_motion(puma560(joints=3), method="lagrange_euler")
    (js_q, js_qd, _) = joint_symbols(3)
    angle = {name: sympy.Symbol(name) for name in ("q2", "q3")}
    rate = {name: sympy.Symbol(name) for name in ("qd1", "qd2", "qd3")}
    degrees = {js_q[0]: sympy.pi * sympy.Integer(int(PUMA_Q1)) / 180,
               js_q[1]: sympy.pi * angle["q2"] / 180, js_q[2]: sympy.pi * angle["q3"] / 180}
    radians = {js_q[0]: sympy.Integer(int(PUMA_Q1)), js_q[1]: angle["q2"],
               js_q[2]: angle["q3"]}                   # degrees used as radians (the mistake)
    rates = dict(zip(js_qd, rate.values()))
    assert not (eom.D.free_symbols | eom.h.free_symbols | eom.c.free_symbols) - \
        set(js_q[1:]) - set(js_qd)                    # no q1: joint 1's axis is vertical

    def at(matrix, angles):
        return sympy.Matrix(matrix).xreplace({**angles, **rates})
    D, h, c = at(eom.D, degrees), at(eom.h, degrees), at(eom.c, degrees)
    D_rad, h_rad, c_rad = at(eom.D, radians), at(eom.h, radians), at(eom.c, radians)
    # the same numbers as Newton-Euler probed, at the far ends of the grids
    for values in ({"q2": -80, "q3": 20, "qd1": 0.5, "qd2": -2.0, "qd3": 0.5},
                   {"q2": -10, "q3": 100, "qd1": 2.0, "qd2": -0.5, "qd3": 2.0}):
        point = {sympy.Symbol(k): v for k, v in values.items()}
        probed = puma_probed([PUMA_Q1, values["q2"], values["q3"]],
                             [values["qd1"], values["qd2"], values["qd3"]])
        for expr, number in zip((D, h, c), probed):
            derived = np.array(expr.xreplace(point).evalf(), dtype=float).reshape(number.shape)
            assert np.allclose(derived, number, rtol=1e-12, atol=1e-12)
    C = c * sympy.ones(1, 3)                           # c in every column
    H = h * sympy.ones(1, 3)
    messages = {
        "degrees": "the joint angles were used in degrees: convert them to radians "
                   "(numpy.radians) before calling inverse_dynamics"}
    mistakes = [
        {"part": "D", "value": D_rad, "message": messages["degrees"]},
        {"part": "h", "value": h_rad, "message": messages["degrees"]},
        {"part": "c", "value": c_rad, "message": messages["degrees"]},
        {"part": "D", "value": D + C,
         "message": "each column of D still contains the gravity torques c: probe "
                    "with gravity=False (or subtract c = ID(q, 0, 0))"},
        {"part": "h", "value": h + c,
         "message": "h still contains the gravity torques c: probe with "
                    "gravity=False (or subtract c)"},
        {"part": "c", "value": c + h,
         "message": "c still contains the velocity terms h: probe c with zero joint "
                    "velocities (qd = 0) as well as zero accelerations"},
        {"part": "D", "value": D + H,
         "message": "each column of D still contains h: probe the columns of D with "
                    "zero joint velocities (qd = 0)"},
        {"part": "D", "value": D + H + C,
         "message": "each column of D still contains h and c: probe the columns of D "
                    "with qd = 0 and gravity=False"}]
    check_mistakes("3.11", PUMA_STATE, {"D": D, "h": h, "c": c}, mistakes)
    return make_key(
        "3.11", notebook=NOTEBOOK, title="Prob. 3.11: D, h and c of the PUMA 560 (3 joints) by "
        "probing Newton-Euler", points=3, kind="numeric", parameters=PUMA_STATE,
        parts=[{"name": "D", "value": D}, {"name": "h", "value": h}, {"name": "c", "value": c}],
        mistakes=mistakes)


#: The given of Prob. 3.12, drawn per student (:mod:`dynlab.grading.variants`): how many joints
#: the arm has whose D is probed; its Newton-Euler routine is the one of Fu, Gonzalez & Lee,
#: Table 3.5 (132n multiplications and 111n - 4 additions a call)
PROBED_ARM = {"n": {"low": 3, "high": 10, "step": 1, "unit": "joints",
                    "text": "the number of joints of your arm"}}


def _calls_for_D(joints: int) -> tuple:
    """(calls for D, all calls) that dynlab's ``probe`` makes of a Newton-Euler routine on a
    generic ``joints``-joint chain: a call for D is one with gravity off and a non-zero qdd."""
    arm = generic_chain(joints)
    calls = []

    def counting(q_, qd_, qdd_, **switches):
        calls.append((tuple(qd_), tuple(qdd_), switches["gravity"]))
        return inverse_dynamics(arm, q_, qd_, qdd_, **switches)
    probe(arm, counting, q=np.zeros(joints), qd=np.ones(joints))
    for_D = [call for call in calls if any(call[1]) and not call[2]]
    assert all(not any(call[0]) for call in for_D)           # and zero joint rates
    return len(for_D), len(calls)


def _law(values: dict, n, degree: int):
    """The polynomial in ``n`` of ``degree`` through the first ``degree + 1`` of ``values``
    (``{n: count}``, exact), asserted at every other one."""
    points = sorted(values.items())
    law = sympy.expand(sympy.interpolate(points[:degree + 1], n))
    assert all(law.subs(n, k) == count for k, count in points), (law, points)
    return law


def probing_cost_key():
    """Prob. 3.12 for the student's arm of n joints, with the Newton-Euler routine of Fu,
    Gonzalez & Lee, Table 3.5 (N = 132n multiplications, M = 111n - 4 additions a call): the
    smallest count that finds D is n calls with qd = 0 and gravity off, n N and n M.  The
    counts are laws in n through the printed counts times the number of calls dynlab's probe
    makes for D, counted on generic chains at every n of the grid."""
    n = sympy.Symbol("n")                               # the given (read by name)
    spec = PROBED_ARM["n"]
    grid = range(int(spec["low"]), int(spec["high"]) + 1, int(spec["step"]))
    per_D = {}
    for joints in grid:
        per_D[joints], every = _calls_for_D(joints)
        assert every == joints + 2                       # and one each for c and h
    printed = {joints: table_3_5(joints)["newton_euler"] for joints in grid}
    N = _law({k: printed[k]["mul"] for k in grid}, n, 1)        # one call: linear in n
    M = _law({k: printed[k]["add"] for k in grid}, n, 1)
    calls = _law(per_D, n, 1)                                   # one call per column of D
    multiplications = _law({k: per_D[k] * printed[k]["mul"] for k in grid}, n, 2)
    additions = _law({k: per_D[k] * printed[k]["add"] for k in grid}, n, 2)
    assert sympy.expand(multiplications - calls * N) == 0
    assert sympy.expand(additions - calls * M) == 0
    one_call = ("that is what one call of the recursion costs: each call with qd = 0, "
                "gravity off and qdd = e_j gives one column of D, and D has n columns")
    mistakes = [{"part": "multiplications", "value": (n + 1) * N,
                 "message": "with gravity switched off (g = 0 in the recursion) the probe "
                            "tau = ID(q, 0, e_j) is column j of D itself: no call for c is "
                            "needed"},
                {"part": "additions", "value": (n + 1) * M + n**2,
                 "message": "with gravity switched off (g = 0 in the recursion) the probe "
                            "tau = ID(q, 0, e_j) is column j of D itself: no call for c and "
                            "no subtractions are needed"},
                {"part": "multiplications", "value": n**2 * N,
                 "message": "one call gives a whole column of D (n elements), not one "
                            "element"},
                {"part": "additions", "value": n**2 * M,
                 "message": "one call gives a whole column of D (n elements), not one "
                            "element"},
                {"part": "multiplications", "value": N, "message": one_call},
                {"part": "additions", "value": M, "message": one_call}]
    check_mistakes("3.12", PROBED_ARM,
                   {"multiplications": multiplications, "additions": additions}, mistakes)
    return make_key(
        "3.12", notebook=NOTEBOOK, title="Prob. 3.12: the cost of probing D", points=1,
        kind="numeric", parameters=PROBED_ARM,
        parts=[{"name": "multiplications", "value": multiplications},
               {"name": "additions", "value": additions}],
        mistakes=mistakes)


def keys():
    return [puma_state_key(), probing_cost_key(), theta_d_key(), one_axis_key()]


#: The given of Prob. 3.18, drawn per student (:mod:`dynlab.grading.variants`): where the mass
#: m2 sits on the sliding link 2, e beyond its inner end (which is at d from the axis; the
#: printed arm: e = 0, the mass at d)
THETA_D = {"e": {"low": 0.05, "high": 0.4, "step": 0.05, "unit": "m",
                 "text": "where the mass m2 sits on link 2: e beyond its inner end, at d + e "
                         "from the axis"}}


def theta_d_arm(vertical=True, from_vertical=False, gravity=None, e=0):
    """Prob. 3.18's theta-d arm as the exercise states it: joint 1 turns about the horizontal
    z0 axis, theta = q1 measured from the horizontal x0 (``from_vertical``: from y0, the
    mistake), y0 up, gravity (0, -g, 0); link 2 slides along link 1 (d = q2, the distance of
    its inner end from the axis); m1 at r1 from the axis, m2 at ``e`` further out than the
    inner end of link 2, at d + e (the printed arm: e = 0).  ``vertical=False``: gravity along
    -z0 (the horizontal arm)."""
    m1, m2, r1, g = positive("m1", "m2", "r1", "g")
    offset = 0 if from_vertical else sympy.pi / 2
    links = [Link("R", alpha=sympy.pi / 2, offset=offset, mass=m1, com=(0, 0, r1),
                  name="link 1"),
             Link("P", mass=m2, com=(0, 0, e), name="link 2")]
    if gravity is None:
        gravity = (0, -g, 0) if vertical else (0, 0, -g)
    else:                                 # a direction (the mistake: along x0)
        gravity = tuple(g * component for component in gravity)
    return Robot(links, gravity=gravity, name="theta-d arm")


def _assert_theta_d(parts: dict, e) -> None:
    """Prob. 3.18's D, h and c (expressions in the symbols and the given ``e``) equal dynlab's
    numeric Lagrange-Euler equations of the arm at both ends of the grid, and D qdd + h + c its
    Newton-Euler torques (a recursion that never forms D, h or c)."""
    m1, m2, r1, g = positive("m1", "m2", "r1", "g")
    numbers = {m1: 2.5, m2: 1.2, r1: 0.3, g: G}
    posture, rates, accelerations = [0.7, 0.45], [-1.3, 0.6], [0.8, -0.5]
    for end in ("low", "high"):
        value = float(THETA_D["e"][end])
        arm = theta_d_arm(e=value).subs(numbers)
        at = {**numbers, e: value, q1: posture[0], q2: posture[1], qd[0]: rates[0],
              qd[1]: rates[1], qdd[0]: accelerations[0], qdd[1]: accelerations[1]}

        def number(expr):
            return np.array(sympy.Matrix(expr).xreplace(at), dtype=float)
        eom = equations_of_motion(arm, posture, rates)
        for name in ("D", "h", "c"):
            assert np.allclose(number(parts[name]).ravel(),
                               np.array(getattr(eom, name), dtype=float).ravel(),
                               rtol=1e-12, atol=1e-12), (value, name)
        tau = inverse_dynamics(arm, posture, rates, accelerations, method="newton_euler")
        expected = number(parts["D"]) @ np.array(accelerations) + number(parts["h"]).ravel() \
            + number(parts["c"]).ravel()
        assert np.allclose(np.asarray(tau, dtype=float).ravel(), expected, rtol=1e-12,
                           atol=1e-12), value


def theta_d_key():
    """Prob. 3.18 for the student's arm, m2 at d + e: D, h and c by dynlab's Lagrange-Euler
    (Fu, Gonzalez & Lee, Eqs. (3.2-31) to (3.2-34)) with the given e as a symbol."""
    e = parameter_symbol("e", THETA_D["e"])
    m1, m2, r1, g = positive("m1", "m2", "r1", "g")
    le = equations_of_motion(theta_d_arm(e=e), method="lagrange_euler")
    printed = equations_of_motion(theta_d_arm(), method="lagrange_euler")
    inside = equations_of_motion(theta_d_arm(e=-e), method="lagrange_euler")
    flat = equations_of_motion(theta_d_arm(vertical=False, e=e), method="lagrange_euler")
    tilted = equations_of_motion(theta_d_arm(from_vertical=True, e=e), method="lagrange_euler")
    sideways = [equations_of_motion(theta_d_arm(gravity=(sign, 0, 0), e=e),
                                    method="lagrange_euler") for sign in (-1, 1)]
    _assert_theta_d({"D": le.D, "h": le.h, "c": le.c}, e)
    symbols = {"m1": "positive", "m2": "positive", "r1": "positive", "g": "positive",
               **JOINTS2}
    yours = ("those are the printed arm's, with m2 at the inner end of link 2, at d; yours "
             "sits e further out, at d + e, with e = given[\"e\"]")
    inward = ("m2 sits e beyond the inner end of link 2, further from the axis: at d + e, not "
              "d - e")
    mistakes = [{"part": part, "value": getattr(wrong, part), "message": message}
                for wrong, message in ((printed, yours), (inside, inward))
                for part in ("D", "h", "c")] + [
        {"part": "c", "value": flat.c,
         "message": "the arm moves in a VERTICAL plane here (y0 up): gravity acts on both "
                    "joints"},
        {"part": "c", "value": tilted.c,
         "message": "theta is measured from the horizontal x0 axis here, not from the "
                    "vertical"}] + [
        {"part": "c", "value": wrong.c,
         "message": "gravity acts along the wrong axis (sines and cosines swapped): y0 points "
                    "up here, so gravity is (0, -g, 0)"} for wrong in sideways]
    generic = [{m1: 1.3, m2: 0.8, r1: 0.45, g: 9.7, q1: 0.4, q2: 0.35, qd[0]: 0.7,
                qd[1]: -1.3, qdd[0]: 0.9, qdd[1]: -0.6},
               {m1: 0.6, m2: 1.9, r1: 0.25, g: 10.3, q1: -1.1, q2: 0.8, qd[0]: -0.5,
                qd[1]: 0.9, qdd[0]: -0.4, qdd[1]: 1.2}]
    check_mistakes("3.18", THETA_D, {"D": le.D, "h": le.h, "c": le.c}, mistakes, generic)
    return make_key(
        "3.18", notebook=NOTEBOOK, title="Prob. 3.18: the theta-d arm by Lagrange-Euler",
        points=3, symbols=symbols, angles=("q1",), split=SPLIT2, parameters=THETA_D,
        parts=[{"name": "D", "value": le.D, "structure": "symmetric"},
               {"name": "h", "value": le.h}, {"name": "c", "value": le.c}],
        mistakes=mistakes)


#: The given of Schilling's Exercise 6-4-1, drawn per student (:mod:`dynlab.grading.variants`):
#: the twist of the link (neither 0 nor 90 degrees, where its tilted inertia would be one of
#: the moments about its own axes)
ONE_AXIS = {"alpha": {"low": 10, "high": 80, "step": 10, "unit": "degrees",
                      "text": "the twist of the link: its Denavit-Hartenberg angle from z0 to z1, "
                              "about x1"}}


def _one_axis_arm(alpha, numbers: dict | None = None) -> Robot:
    """Schilling's one-axis robot of Exercise 6-4-1: one revolute link with DH a, d and twist
    ``alpha``, mass m, centre of mass (rx, ry, rz) in frame 1 and a full inertia tensor about
    it in frame 1's axes (``numbers``: values of those symbols)."""
    m = sympy.Symbol("m", positive=True)
    a, d, rx, ry, rz = sympy.symbols("a d rx ry rz", real=True)
    Ixx, Iyy, Izz = positive("Ixx", "Iyy", "Izz")
    Ixy, Ixz, Iyz = sympy.symbols("Ixy Ixz Iyz", real=True)
    inertia = [[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]]
    arm = Robot([Link("R", a=a, d=d, alpha=alpha, mass=m, com=(rx, ry, rz), inertia=inertia,
                      name="link 1")], gravity=(0, 0, 0), name="one-axis arm")
    return arm if numbers is None else arm.subs(numbers)


def _assert_one_axis(D11, c, alpha) -> None:
    """6-4-1's D11 and c (expressions in the symbols and the given ``alpha``, in degrees) equal
    dynlab's numbers for the link at both ends of the grid: its numeric L-E D, and the torques
    of Newton-Euler with qdd = 1 at rest (D11) and with qdd = 0 at a speed (c)."""
    numbers = {sympy.Symbol("m", positive=True): 2.1, **{
        sympy.Symbol(name, real=True): value for name, value in (
            ("a", 0.35), ("d", 0.2), ("rx", -0.12), ("ry", 0.08), ("rz", 0.15),
            ("Ixy", 0.011), ("Ixz", -0.007), ("Iyz", 0.013))}, **{
        sympy.Symbol(name, positive=True): value for name, value in (
            ("Ixx", 0.05), ("Iyy", 0.07), ("Izz", 0.09))}}
    for end in ("low", "high"):
        degrees = float(ONE_AXIS["alpha"][end])
        arm = _one_axis_arm(math.radians(degrees), numbers)
        at = {**numbers, alpha: degrees, q1: 0.9, qd[0]: 1.7}
        key_D11 = float(sympy.sympify(D11).xreplace(at))
        eom = equations_of_motion(arm, [0.9], [1.7])
        assert abs(key_D11 - float(np.asarray(eom.D, dtype=float)[0, 0])) < 1e-12, degrees
        tau = inverse_dynamics(arm, [0.9], [0.0], [1.0], method="newton_euler", gravity=False)
        assert abs(key_D11 - float(np.asarray(tau, dtype=float)[0])) < 1e-12, degrees
        moving = inverse_dynamics(arm, [0.9], [1.7], [0.0], method="newton_euler",
                                  gravity=False)
        assert abs(float(np.asarray(moving, dtype=float)[0])) < 1e-12
        assert abs(float(sympy.Matrix(c).xreplace(at)[0])) < 1e-12


def one_axis_key():
    """Schilling Exercise 6-4-1 for a one-axis revolute arm with the student's twist alpha (in
    degrees) and every other DH parameter and the mass distribution general: D11 and the
    velocity coupling vector c = qd^T C^1 qd (Eq. (6-4-8)), by dynlab's L-E with link
    Jacobians (Schilling, Eq. (6-2-15))."""
    alpha_ = sympy.Symbol("alpha", real=True)               # the twist, in radians
    degrees = parameter_symbol("alpha", ONE_AXIS["alpha"])  # the given, in degrees
    le = equations_of_motion(_one_axis_arm(alpha_), method="lagrange_euler", variant="jacobian")
    general = compact(le.D[0, 0])
    (qs,), (qds,), _ = joint_symbols(1)
    coupling = le.terms["C_i"][0]                           # C^1, 1x1 (Eq. (6-4-6))
    c = sympy.Matrix([qds * coupling[0, 0] * qds])           # Eq. (6-4-8)
    assert general.diff(qs) == 0 and is_zero(c)
    c = c.applyfunc(sympy.simplify)                          # 0 as it is written, at any alpha
    assert c == sympy.zeros(1, 1)
    m = sympy.Symbol("m", positive=True)
    a, rx, ry, rz = sympy.symbols("a rx ry rz", real=True)
    Iyy, Izz = positive("Iyy", "Izz")
    # the same D11 without the parallel-axis part m * (distance of the CoM from z0)^2
    no_parallel_axis = compact(general - m * ((a + rx)**2 + (ry * sympy.cos(alpha_)
                                                             - rz * sympy.sin(alpha_))**2))

    def twist(expr, angle):
        return sympy.sympify(expr).xreplace({alpha_: angle})
    D11 = twist(general, sympy.pi * degrees / 180)
    _assert_one_axis(D11, c, degrees)
    symbols = {"m": "positive", "a": "real", "d": "real", "rx": "real", "ry": "real",
               "rz": "real", "Ixx": "positive", "Iyy": "positive", "Izz": "positive",
               "Ixy": "real", "Ixz": "real", "Iyz": "real", "q1": "real", "qd1": "real",
               "qdd1": "real"}
    mistakes = [{"part": "D11", "value": twist(no_parallel_axis, sympy.pi * degrees / 180),
                 "message": "D11 is the inertia about the joint axis z0: add m times the "
                            "squared distance of the centre of mass from that axis (parallel "
                            "axes)"},
                {"part": "D11", "value": Izz + m * ((a + rx)**2 + ry**2),
                 "message": "the link's own z axis is tilted by alpha from the joint axis z0 "
                            "(A_1 = Rz(q1) Tz(d) Tx(a) Rx(alpha)): the inertia about z0 "
                            "mixes Iyy, Iyz and Izz"},
                {"part": "D11", "value": twist(general, degrees),
                 "message": "the twist was used in degrees where radians belong: convert "
                            "given[\"alpha\"] (math.radians, or sympy.rad) before taking sines "
                            "and cosines"},
                {"part": "D11", "value": twist(general, -sympy.pi * degrees / 180),
                 "message": "the twist turns the wrong way: A_1 = Rz(q1) Tz(d) Tx(a) "
                            "Rx(alpha) turns z0 into z1 by +alpha about x1"}]
    generic = [{sympy.Symbol("m", positive=True): 1.7, **{
        sympy.Symbol(name, real=True): value for name, value in (
            ("a", 0.4), ("d", 0.25), ("rx", 0.13), ("ry", -0.21), ("rz", 0.17), ("Ixy", 0.02),
            ("Ixz", -0.015), ("Iyz", 0.03))}, **{
        sympy.Symbol(name, positive=True): value for name, value in (
            ("Ixx", 0.11), ("Iyy", 0.06), ("Izz", 0.09))}, q1: 0.6, qd[0]: -1.1, qdd[0]: 0.8}]
    check_mistakes("6-4-1", ONE_AXIS, {"D11": D11, "c": c}, mistakes, generic)
    return make_key(
        "6-4-1", notebook=NOTEBOOK, title="Schilling Exercise 6-4-1: the one-axis robot", points=2,
        symbols=symbols, angles=("q1",), split=("qd1", "qdd1"), parameters=ONE_AXIS,
        parts=[{"name": "D11", "value": D11}, {"name": "c", "value": c}],
        mistakes=mistakes)
