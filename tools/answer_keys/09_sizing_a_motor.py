"""The answer keys of ``solutions/09_sizing_a_motor.ipynb``: sizing the PUMA 560's motors
(Lynch & Park, *Modern Robotics*, Sec. 8.9).

Each student has their own givens (:mod:`dynlab.grading.variants`): joint 3's rotor inertia
(A.1), the waist's gear ratio (A.2), the duration of the shoulder's raise and lowering in
chapter 11's cycle (A.3), the duration of the move the candidate motor must do (A.4), and for
the questions worked by hand the duration of the waist's moves (A.5), how long the arm is held
(A.6) and the payload of a link (A.7).  Each answer is a strictly monotone
function of its one given, so no two values of a grid share an answer (two givens that trade off,
such as a gear ratio and a rotor inertia, which enter only as G^2 I_rotor, would).  The
references are expressions in them, computed by dynlab's inverse dynamics and
:mod:`dynlab.dynamics.motor_sizing` (with finer sampling than a student needs), each asserted
equal to dynlab's number at grid points:

- A.1 and A.2 in closed form, the inertia-matching ratio ``G* = sqrt(D_33 / I_rotor)`` and the
  apparent inertia ``D_11 + G^2 I_rotor`` (Lynch & Park, Sec. 8.9.2) with dynlab's ``D(q)``;
- A.3 in closed form in the duration: only joint 2 moves, so its torque is ``D_22 qdd + c_2(q)``
  (``D_22`` does not depend on ``q_2``, so no velocity term), and the quintic's ``qdd`` scales as
  ``1/T^2`` at the same fraction of the move; the motor torque is ``a/T^2 + b`` sample by sample,
  and the squared RMS over the raise is ``alpha/T^4 + beta/T^2 + gamma``, whose three numbers are
  fitted from three durations and asserted at two more; the lowering is the raise backwards
  (same squares), and the cycle's RMS is asserted equal to dynlab's over the whole cycle;
- A.4 (a root of the line margin, which no closed form gives) as dynlab's root at each value the
  duration can take, a table over the grid.
- A.5-A.7 in closed form by hand (chapter 11, sections 5, 6 and 9), each asserted against a
  second route: dynlab's motor torque at the waist, SciPy's integration of the winding's
  model, SciPy's minimum of ``J/G + G I_rotor``.

The typical mistakes are computed the same way from a wrong reading of the question.
"""

import math

import numpy as np
import sympy
from scipy.integrate import solve_ivp
from scipy.optimize import brentq, minimize_scalar

from dynlab import inverse_dynamics
from dynlab.dynamics.forward import inertia_and_bias
from dynlab.dynamics.motor_sizing import (
    CANDIDATE_MOTOR,
    PUMA560_GEAR_RATIOS,
    PUMA560_ROTOR_INERTIAS,
    SHOULDER_START,
    apparent_inertia,
    joint_torques,
    motor_side,
    reflected_inertia,
    rms,
    sample_move,
    shoulder_cycle,
    shoulder_move,
    size_motor,
)
from dynlab.grading import make_key
from dynlab.grading.variants import grid_values
from dynlab.model.link import rod_inertia
from dynlab.model.robots import PUMA560_POSES, puma560

NOTEBOOK = "09_sizing_a_motor"

#: Each question's notes, sealed into its key: the hint a student asks for with hint(), and the
#: takeaway check() shows once the answer is right (Markdown, $...$ for mathematics; a hint says
#: where to start, never the answer)
NOTES = {
    "A.1": {
        "hint": r"""
The reflected inertia is $G^2 I_\text{rotor}$ (Lynch & Park, Sec. 8.9.2); set it equal to
$D_{33}$ at $q_s$ (from `inertia_and_bias`) and solve for $G$, with your rotor's inertia.""",
        "takeaway": r"""
$G^* = \sqrt{D_{33}/I_\text{rotor}}$ is the ratio that *matches* the load to the motor: it makes
the inertial motor torque $(D_{33}/G + G I_\text{rotor})\ddot q$ smallest. A lighter rotor asks
for a larger ratio, as $1/\sqrt{I_\text{rotor}}$. With the PUMA's own rotor ($200\times10^{-6}$
kg m²) it is about 42.5, 21 % below joint 3's published $G = 53.7$: the published ratio is not
the matching one (the gravity torque, divided by $G$, and the motor's speed weigh in too).""",
    },
    "A.2": {
        "hint": r"""
The apparent inertia is the arm's $D_{11}(q)$ plus the reflected rotor $G_1^2 I_{\text{rotor},1}$;
evaluate it at both poses with your $G_1$ and the published $I_{\text{rotor},1}$.""",
        "takeaway": r"""
The arm's own $D_{11}$ changes by a factor of 2.74 between the two poses; the rotor's constant
$G_1^2 I_{\text{rotor},1}$, added at both, brings the ratio towards 1, the more the larger it
is. Gearing makes a joint's load more alike over the workspace, which is why fixed joint gains
work better on a geared arm than on a direct-drive one.""",
    },
    "A.3": {
        "hint": r"""
The cycle that repeats is the raise, the hold at the top, the lowering and the rest at the
bottom (`shoulder_cycle`). The heat adds up as $\int \tau^2 dt$ over all four legs: a move's
part is $T\,\tau_\text{rms,move}^2$, a hold's its duration times the gravity torque there
(divided by $G$) squared. Divide the sum by the cycle's duration and take the root.""",
        "takeaway": r"""
Gravity helps on the way back with energy, not with heat: the lowering's torques are the raise's
in reverse order ($\tau_2 = D_{22}\ddot q_2 + c_2(q)$, no velocity term), so it heats the motor
exactly as much. The holds cost the gravity torque $c_2(q)/G$ and fill the cycle between the
moves; the cycle's RMS lies between the moves' RMS and the holding torque, and averaging RMS
values instead of their squares underestimates it. A faster move costs more than its shorter
time saves (its inertial torque grows as $1/T^2$), and below about 1.2 s this motor cannot make
the move at all: a point of it crosses the speed-torque line.""",
    },
    "A.4": {
        "hint": r"""
`size_motor(...).line_margin` is negative when some operating point lies above the speed-torque
line. Scan the gear ratio to find where it changes sign at the low end, then narrow it down (a
finer scan, or bisection such as `scipy.optimize.brentq`).""",
        "takeaway": r"""
Below $G_\text{min}$ the motor is too weak: near the start of the move it would need more torque
than its line gives at that speed. The window under the line closes again at a larger ratio,
where the motor runs out of speed; a slower move widens the window at both ends. The continuous
rating asks for a larger ratio still (from about 85 to 96 over these durations): for this
shoulder, which mostly holds the arm against gravity, heat decides before the line does.""",
    },
    "A.5": {
        "hint": r"""
At the motor the waist's torque is $J\ddot q_1$ with the constant $J = D_{11}/G_1 +
G_1 I_{\text{rotor},1}$ (chapter 11, section 5). The profile accelerates at $a$ for $T/3$, coasts
for $T/3$ and brakes at $-a$ for $T/3$: write the angle it covers in $a$ and $T$ to find $a$. Then
add $\tau^2\,dt$ over the whole cycle, both moves and both dwells, and divide by its duration.""",
        "takeaway": r"""
With thirds, $\theta = a\,\tfrac T3\cdot\tfrac{2T}3$, so $a = 9\theta/(2T^2)$, and the torque
$\pm Ja$ lasts two thirds of each move: $\tau_\text{rms,move} = \sqrt{2/3}\,Ja \approx
3.67\,J\theta/T^2$, less than the quintic's $4.14$ and the bang-bang's $4$ (chapter 11). The
waist has no gravity to hold, so the move back heats the motor as much as the move out, and
the dwells cost nothing: they only spread the heat over a longer cycle.""",
    },
    "A.6": {
        "hint": r"""
The holding torque at the motor is $c_2(q)/G_2$ at the top (45° above the horizontal). The
winding's heat is $P = R\,i^2$ with $i = \tau/k_t$; in chapter 11's one-body model
$\tau_\text{th}\dot\vartheta = R_\text{th}P - \vartheta$, solved from $\vartheta(0) = 0$.""",
        "takeaway": r"""
The winding warms as $R_\text{th}P\,(1 - e^{-t/\tau_\text{th}})$: after one time constant it
has 63 % of its final rise, after three 95 %. Over chapter 11's 5 s cycle it moves only
$1 - e^{-5/30} \approx 15\,\%$ of the way towards each leg's own level, so it feels the
cycle's mean heat, and the RMS rule holds; a hold of a minute or more is a leg of its own,
judged by its torque against the continuous rating.""",
    },
    "A.7": {
        "hint": r"""
The load's inertia about the joint is the rod's about its end plus the payload's,
$m_p L^2$ (parallel axes for the rod: $mL^2/12 + m(L/2)^2$). Then $G^*$ makes the reflected
rotor $G^2 I_\text{rotor}$ equal to it (chapter 11, section 9).""",
        "takeaway": r"""
$G^* = \sqrt{(mL^2/3 + m_pL^2)/I_\text{rotor}}$ minimizes the inertial motor torque
$(J/G + G I_\text{rotor})\ddot q$; a heavier payload asks for a larger ratio, but only as the
square root of the load. Near $G^*$ the minimum is flat: a ratio 20 % off costs little more
torque (about 2 %), so a catalogue's nearest gearhead will do.""",
    },
}
#: samples of a move in the keys (a student's 201 agree to far below the tolerances)
FINE = 2001

#: A.1's given: the rotor inertia of joint 3's motor (the PUMA's own, 200e-6 kg m^2, is not on
#: the grid: the takeaway quotes its answer)
ROTOR3 = {"I_rotor": {"low": 110e-6, "high": 290e-6, "step": 20e-6, "unit": "kg m^2",
                      "text": "the rotor inertia of joint 3's motor"}}
#: A.2's given: the waist's gear ratio (the PUMA's is 62.6111)
WAIST = {"G1": {"low": 40, "high": 100, "step": 5, "unit": "",
                "text": "the gear ratio of joint 1, the waist"}}
#: A.3's given: the duration of the shoulder's 90 degree raise and of its lowering.  Behind the
#: PUMA's gear the candidate motor crosses its speed-torque line below 1.15 s (chapter 11,
#: section 9: at 1 s for every ratio), so the grid starts at 1.2 s, where it makes the cycle; it
#: ends at 1.8 s, where neighbouring durations' answers still differ by 0.4 % (the inertial
#: share, which tells them apart, fades as 1/T^2)
CYCLE = {"T": {"low": 1.2, "high": 1.8, "step": 0.1, "unit": "s",
               "text": "the duration of the 90 degree raise, and of the lowering"}}
#: A.3's hold at the top and rest at the bottom, s (chapter 11's cycle, section 6)
HOLD, REST = 1.0, 1.0
#: A.4's given: the duration of the shoulder's 100 degree move
LINE = {"T": {"low": 1.3, "high": 2.0, "step": 0.1, "unit": "s",
              "text": "the duration of the 100 degree move"}}


#: A.5's given: the duration of each of the waist's two 90 degree moves, out and back, each
#: followed by a dwell of DWELL s
BY_HAND = {"T": {"low": 0.8, "high": 1.6, "step": 0.1, "unit": "s",
                 "text": "the duration of each of the waist's two 90 degree moves"}}
DWELL = 0.5
#: A.6's given: how long the shoulder's motor holds the arm at the top, from cold; the winding's
#: thermal resistance to the air is ours, R_TH K/W (the continuous torque, 0.45 N m, then
#: settles at about 100 K above the air, a winding's usual limit)
HEATING = {"t_hold": {"low": 5, "high": 60, "step": 5, "unit": "s",
                      "text": "how long the motor holds the arm at the top, from cold"}}
R_TH = 1.2
#: A.7: a slender uniform link, ROD_MASS kg and ROD_LENGTH m, turning about its end in a
#: horizontal plane, with the given payload at its tip, behind the candidate motor
ROD_MASS, ROD_LENGTH = 3.0, 0.6
PAYLOAD = {"m_p": {"low": 0.5, "high": 4.0, "step": 0.5, "unit": "kg",
                   "text": "the payload, a point mass at the link's tip"}}


def pose(name):
    return np.array([float(v) for v in PUMA560_POSES[name]])


def rounded(expr):
    """``expr`` with its numbers to 7 significant digits: the key stays the same on every
    machine, far below the tolerances here (1e-3 and up)."""
    expr = sympy.sympify(expr)
    return expr.xreplace({f: sympy.Float(f"{float(f):.7g}") for f in expr.atoms(sympy.Float)})


def at(expr, values):
    """The number ``expr`` (in the givens) takes at ``values`` ({name: value})."""
    return float(sympy.sympify(expr).xreplace({sympy.Symbol(k): v for k, v in values.items()})
                 .evalf(30))


def numeric(question, *, title, points, tolerance, name, value, mistakes, parameters):
    """A key answered by one number, an expression in the givens ``parameters``; each mistake
    at least 3 tolerances away from it at every value of the grid (one given)."""
    (given, spec), = parameters.items()
    for x in grid_values(spec):
        right = at(value, {given: x})
        for wrong, message in mistakes:
            assert abs(at(wrong, {given: x}) - right) > 3 * tolerance * abs(right), (
                question, x, message)
    return make_key(question, notebook=NOTEBOOK, title=title, points=points, kind="numeric",
                    tolerance=tolerance, parameters=parameters,
                    parts=[{"name": name, "value": [rounded(value)], "shape": []}],
                    mistakes=[{"part": name, "value": [rounded(v)], "message": m}
                              for v, m in mistakes])


def matching_ratio_key(arm):
    """A.1: the gear ratio whose reflected rotor inertia equals joint 3's D_33 at q_s."""
    D = inertia_and_bias(arm, pose("qs"), np.zeros(6))[0]
    D33, D22 = sympy.Float(float(D[2, 2])), sympy.Float(float(D[1, 1]))
    I = sympy.Symbol("I_rotor")
    matching = sympy.sqrt(D33 / I)                      # G^2 I_rotor = D_33
    for value in (ROTOR3["I_rotor"]["low"], ROTOR3["I_rotor"]["high"]):
        G = at(matching, {"I_rotor": value})
        assert math.isclose(reflected_inertia(value, G), float(D[2, 2]), rel_tol=1e-12)
    return numeric(
        "A.1", title="The gear ratio that matches joint 3's rotor to its load", points=1,
        tolerance=1e-3, name="G_match", value=matching, parameters=ROTOR3,
        mistakes=[(D33 / I, "G^2 I_rotor = D_33 gives G^2 = D_33 / I_rotor: take the square "
                            "root"),
                  (sympy.sqrt(D22 / I), "that is joint 2's D_22; the question is about joint 3"),
                  (D33 / I / PUMA560_GEAR_RATIOS[2], "the reflected inertia is G^2 I_rotor, "
                                                     "not G I_rotor")])


def waist_spread_key(arm):
    """A.2: the waist's apparent inertia at q_s over that at q_r."""
    G, I = sympy.Symbol("G1"), sympy.Float(PUMA560_ROTOR_INERTIAS[0])
    own = {n: sympy.Float(float(inertia_and_bias(arm, pose(n), np.zeros(6))[0][0, 0]))
           for n in ("qs", "qr")}
    seen = {n: own[n] + G**2 * I for n in own}           # D_11 + G^2 I_rotor
    ratio = seen["qs"] / seen["qr"]
    for values in ({"G1": WAIST["G1"]["low"]}, {"G1": WAIST["G1"]["high"]}):
        exact = [apparent_inertia(arm, pose(n), 1, rotor_inertia=PUMA560_ROTOR_INERTIAS[0],
                                  gear_ratio=values["G1"]) for n in ("qs", "qr")]
        assert math.isclose(at(ratio, values), exact[0] / exact[1], rel_tol=1e-12)
    return numeric(
        "A.2", title="How much the waist's apparent inertia changes with the pose", points=1,
        tolerance=1e-3, name="ratio", value=ratio, parameters=WAIST,
        mistakes=[(own["qs"] / own["qr"], "that is the ratio of the arm's own D_11; the "
                                          "apparent inertia adds the reflected rotor G^2 "
                                          "I_rotor at both poses"),
                  (1 / ratio, "the ratio the other way up: q_s over q_r"),
                  ((own["qs"] + G * I) / (own["qr"] + G * I),
                   "the reflected inertia is G^2 I_rotor, not G I_rotor")])


def raise_numbers(arm, T, rotor=True):
    """dynlab's numbers of A.3's raise of ``T`` s: the motor's RMS torque over it (without the
    rotor's own torque when ``rotor`` is False) and its torques holding the arm at the top and
    at the bottom."""
    G, I = PUMA560_GEAR_RATIOS[1], PUMA560_ROTOR_INERTIAS[1]
    move = shoulder_move(math.radians(90.0), T)
    t, q, qd, qdd = sample_move(move, FINE)
    tau = joint_torques(arm, q, qd, qdd)[:, 1]
    _, torque = motor_side(qd[:, 1], qdd[:, 1], tau, gear_ratio=G, rotor_inertia=I)
    top, bottom = (inverse_dynamics(arm, q[k], np.zeros(6), np.zeros(6))[1] / G for k in (-1, 0))
    return rms(t, torque if rotor else tau / G), float(top), float(bottom)


def squared_rms(arm, rotor=True):
    """The squared RMS motor torque over the raise as ``alpha/T^4 + beta/T^2 + gamma`` (the
    motor torque is ``a/T^2 + b`` at each fraction of the move): fitted through three durations
    of the grid and asserted at two more, so it is dynlab's number at every duration."""
    T = sympy.Symbol("T")
    fit, held = (1.2, 1.5, 1.8), (1.3, 1.7)
    matrix = np.array([[1 / d**4, 1 / d**2, 1.0] for d in fit])
    values = np.array([raise_numbers(arm, d, rotor)[0]**2 for d in fit])
    alpha, beta, gamma = np.linalg.solve(matrix, values)
    expr = sympy.Float(alpha) / T**4 + sympy.Float(beta) / T**2 + sympy.Float(gamma)
    for d in held:
        assert math.isclose(at(expr, {"T": d}), raise_numbers(arm, d, rotor)[0]**2,
                            rel_tol=1e-9)
    return expr


def duty_cycle_key(arm):
    """A.3: the shoulder motor's RMS torque over chapter 11's cycle: the 90 degree raise in T,
    a hold of HOLD s at the top, the lowering in T, a rest of REST s at the bottom."""
    G = PUMA560_GEAR_RATIOS[1]
    T = sympy.Symbol("T")
    raise_rms2, bare_rms2 = squared_rms(arm), squared_rms(arm, rotor=False)
    _, top, bottom = (sympy.Float(v) for v in raise_numbers(arm, 1.5))   # gravity: any T
    holds = HOLD * top**2 + REST * bottom**2
    period = 2 * T + HOLD + REST

    def cycle(squared, moves=2):
        """The RMS over the cycle: the squares add up, weighted by time (Sec. 8.9.1); the
        lowering is the raise played backwards, with the same squared torques."""
        return sympy.sqrt((moves * T * squared + holds) / period)

    durations = [round(d, 1) for d in grid_values(CYCLE["T"])]
    # the key holds the number at each duration (a table: its scale is the answer itself)
    value = table({d: at(cycle(raise_rms2), {"T": d}) for d in durations}, "T")
    raise_rms = sympy.sqrt(raise_rms2)
    mistakes = [
        (raise_rms, "that is the RMS over the raise alone; the cycle that repeats is the raise, "
                    "the hold at the top, the lowering and the rest at the bottom"),
        (sympy.sqrt((T * raise_rms2 + holds) / (T + HOLD + REST)),
         "the lowering is missing: the arm must come down before it can rise again, and the "
         "cycle lasts 2T + 2 s"),
        (cycle(raise_rms2, moves=1),
         "the lowering heats the motor as much as the raise: gravity gives back energy on the "
         "way down, but the heat goes with tau^2, and the motor still holds the arm up"),
        (cycle(bare_rms2), "the rotor's own torque G I_rotor qdd is missing from the motor "
                           "torque"),
        ((2 * T * raise_rms + HOLD * top + REST * bottom) / period,
         "RMS values do not average: add the squares, weighted by time, then take the root"),
        (cycle(raise_rms2) * G, "that is at the joint; the motor gives 1/G of the joint torque")]
    for d in durations:                 # dynlab's cycle: its RMS, and the motor can make it
        sized = size_motor(arm, shoulder_cycle(math.radians(90.0), d, hold=HOLD, rest=REST), 2,
                           CANDIDATE_MOTOR, G, samples=2 * FINE)
        assert sized.line_ok and math.isclose(at(value, {"T": d}), sized.rms_torque,
                                              rel_tol=1e-5)
        for wrong, _ in mistakes:       # each mistake well away from the right answer
            assert abs(at(wrong, {"T": d}) / at(value, {"T": d}) - 1) > 3e-3
    assert not size_motor(arm, shoulder_cycle(math.radians(90.0), 1.1), 2, CANDIDATE_MOTOR, G,
                          samples=FINE).line_ok                 # below the grid it cannot
    return numeric(
        "A.3", title="The shoulder motor's RMS torque over a cycle out and back", points=2,
        tolerance=1e-3, name="tau_rms", value=value, parameters=CYCLE, mistakes=mistakes)


def line_ratios(arm, T):
    """dynlab's gear ratios of A.4's move of ``T`` s: the smallest and the largest under the
    candidate motor's speed-torque line, and the smallest within its continuous rating."""
    move = shoulder_move(math.radians(100.0), T)
    _, q, qd, qdd = sample_move(move, FINE)
    tau = joint_torques(arm, q, qd, qdd)

    def sized(G):
        return size_motor(arm, move, 2, CANDIDATE_MOTOR, G, samples=FINE, torques=tau)

    ratios = np.arange(20.0, 300.0, 4.0)
    fitting = [G for G in ratios if sized(G).line_ok]
    low, high = fitting[0], fitting[-1]
    assert low > ratios[0] and high < ratios[-1]
    assert fitting == [G for G in ratios if low <= G <= high]              # one interval
    smallest = brentq(lambda G: sized(G).line_margin, low - 4.0, low, xtol=1e-9)
    largest = brentq(lambda G: sized(G).line_margin, high, high + 4.0, xtol=1e-9)
    cool = brentq(lambda G: CANDIDATE_MOTOR.continuous_torque - sized(G).rms_torque,
                  20.0, 300.0, xtol=1e-9)
    return smallest, largest, cool


def table(values: dict, name: str):
    """``values`` ({grid value: number}) as an expression in the given ``name``: a Piecewise
    that takes each number on its grid value (switching halfway between neighbours)."""
    x = sympy.Symbol(name)
    points = sorted(values)
    pieces = [(sympy.Float(values[a]), x < (a + b) / 2) for a, b in zip(points, points[1:])]
    return sympy.Piecewise(*pieces, (sympy.Float(values[points[-1]]), True))


def smallest_ratio_key(arm):
    """A.4: the smallest gear ratio keeping a 100 degree move under the line."""
    durations = [round(d, 1) for d in grid_values(LINE["T"])]
    found = {d: line_ratios(arm, d) for d in durations}
    smallest, largest, cool = (table({d: found[d][k] for d in durations}, "T")
                               for k in range(3))
    for d in (durations[0], durations[-1]):
        assert at(smallest, {"T": d}) == found[d][0]
        sized = size_motor(arm, shoulder_move(math.radians(100.0), d), 2, CANDIDATE_MOTOR,
                           found[d][0], samples=FINE)
        assert abs(sized.line_margin) < 1e-9                # on the line
    D22 = inertia_and_bias(arm, shoulder_move(1.0, 1.0)(0.0)[0], np.zeros(6))[0][1, 1]
    return numeric(
        "A.4", title="The smallest gear ratio that keeps a move under the speed-torque line",
        points=2, tolerance=2e-3, name="G_min", value=smallest, parameters=LINE,
        mistakes=[(largest, "that is the LARGEST ratio under the line (beyond it the motor runs "
                            "out of speed); the question asks for the smallest"),
                  (cool, "that is the smallest ratio whose RMS torque is within the continuous "
                         "rating; the question asks about the speed-torque line"),
                  (sympy.Float(math.sqrt(D22 / CANDIDATE_MOTOR.rotor_inertia)),
                   "that is the inertia-matching ratio sqrt(D_22 / I_rotor), not the limit of "
                   "the line")])


def by_hand_rms_key(arm):
    """A.5: the waist's RMS motor torque over two 90 degree moves of thirds (accelerate, coast,
    brake), out and back, each followed by a dwell of DWELL s."""
    G1, I1 = PUMA560_GEAR_RATIOS[0], PUMA560_ROTOR_INERTIAS[0]
    start = np.array(SHOULDER_START)
    D11 = float(inertia_and_bias(arm, start, np.zeros(6))[0][0, 0])
    T, theta = sympy.Symbol("T"), sympy.pi / 2
    J = sympy.Float(D11 / G1 + G1 * I1)                  # at the motor (chapter 11, section 5)
    a = 9 * theta / (2 * T**2)                          # theta = a (T/3) (2T/3)
    period = 2 * T + 2 * DWELL

    def over_cycle(torque, on=sympy.Rational(2, 3), moves=2):
        """The RMS of a torque +-``torque`` for ``on`` of each move, 0 otherwise."""
        return sympy.sqrt(moves * on * T * torque**2 / period)

    value = over_cycle(J * a)
    # dynlab's motor torque while accelerating (any speed: D_11 does not depend on q_1) is J a
    for d in (BY_HAND["T"]["low"], BY_HAND["T"]["high"]):
        acceleration = at(a, {"T": d})
        tau = inverse_dynamics(arm, start, [0.8, 0, 0, 0, 0, 0], [acceleration, 0, 0, 0, 0, 0])
        _, torque = motor_side(0.8, acceleration, tau[0], gear_ratio=G1, rotor_inertia=I1)
        assert math.isclose(float(torque), at(J * a, {"T": d}), rel_tol=1e-9)
    return numeric(
        "A.5", title="The waist motor's RMS torque over a cycle out and back, by hand", points=2,
        tolerance=1e-3, name="tau_rms", value=value, parameters=BY_HAND,
        mistakes=[(sympy.sqrt(sympy.Rational(2, 3)) * J * a,
                   "that is the RMS over one move (or over the moves without the dwells): the "
                   "cycle is both moves and both dwells, 2T + 1 s"),
                  (over_cycle(J * a, moves=1),
                   "the move back asks the same torques as the move out (the waist has no "
                   "gravity to help or hinder): count both"),
                  (over_cycle(J * 9 * theta / T**2),
                   "the acceleration: in thirds the profile covers theta = a (T/3)(2T/3), so "
                   "a = 9 theta / (2 T^2), not theta / (T/3)^2"),
                  (over_cycle(sympy.Float(D11 / G1) * a),
                   "the rotor's own torque G_1 I_rotor qdd is missing: J = D_11/G_1 + G_1 "
                   "I_rotor"),
                  (over_cycle(J * 4 * theta / T**2, on=1),
                   "that is a bang-bang move (accelerate, then brake, with no coasting); this "
                   "profile coasts for the middle third"),
                  (over_cycle(J * a) * G1, "that is at the joint; the motor gives 1/G_1 of the "
                                           "joint torque"),
                  (over_cycle(J * a) * 180 / sympy.pi,
                   "your angle is in degrees: 90 degrees is pi/2 rad")])


def heating_key(arm):
    """A.6: the winding's temperature rise after holding the arm at the top for t_hold s, from
    cold (chapter 11's one-body model, section 6)."""
    motor, G2 = CANDIDATE_MOTOR, PUMA560_GEAR_RATIOS[1]
    _, top, _ = raise_numbers(arm, 1.5)                   # gravity at the top, at the motor
    heat = motor.resistance * (top / motor.torque_constant)**2        # R i^2, i = tau / k_t
    assert math.isclose(heat, float(motor.copper_loss(top)), rel_tol=1e-12)
    t, lag = sympy.Symbol("t_hold"), motor.thermal_time_constant
    P, steady = sympy.Float(heat), sympy.Float(R_TH * heat)
    value = steady * (1 - sympy.exp(-t / lag))
    # the same by integrating tau_th theta' = R_th P - theta (SciPy), at two grid values
    for d in (HEATING["t_hold"]["low"], HEATING["t_hold"]["high"]):
        solved = solve_ivp(lambda _, theta: (R_TH * heat - theta) / lag, (0.0, d), [0.0],
                           rtol=1e-10, atol=1e-10)
        assert math.isclose(solved.y[0, -1], at(value, {"t_hold": d}), rel_tol=1e-6)
    return numeric(
        "A.6", title="How warm the winding gets holding the arm", points=2, tolerance=1e-3,
        name="rise", value=value, parameters=HEATING,
        mistakes=[(steady, "that is where the winding settles after many time constants; "
                           "after your hold it has got 1 - exp(-t/tau_th) of the way"),
                  (steady * sympy.exp(-t / lag),
                   "exp(-t/tau_th) is the part still to come: the rise from cold is "
                   "R_th P (1 - exp(-t/tau_th))"),
                  (steady * t / lag, "that is the first instant's rate kept up: the rise slows "
                                     "as the winding nears R_th P"),
                  (P * (1 - sympy.exp(-t / lag)), "that is in W: the rise is R_th times the "
                                                  "heat"),
                  (value * G2**2, "the current is the MOTOR's torque over k_t: divide the "
                                  "joint's gravity torque by G_2 first")])


def optimal_ratio_key():
    """A.7: G* of a slender link turning about its end with a payload at its tip."""
    m, L, I = ROD_MASS, ROD_LENGTH, CANDIDATE_MOTOR.rotor_inertia
    payload = sympy.Symbol("m_p")
    centre = float(rod_inertia(m, L, "x")[1, 1])          # m L^2 / 12, about the rod's centre
    J = sympy.Float(centre + m * (L / 2)**2) + payload * L**2        # parallel axes, + m_p L^2
    value = sympy.sqrt(J / I)
    for load in (PAYLOAD["m_p"]["low"], PAYLOAD["m_p"]["high"]):  # G* minimizes J/G + G I
        inertia = at(J, {"m_p": load})
        best = minimize_scalar(lambda G: inertia / G + G * I, bounds=(1.0, 1000.0),
                               method="bounded", options={"xatol": 1e-9})
        assert math.isclose(best.x, at(value, {"m_p": load}), rel_tol=1e-6)
    return numeric(
        "A.7", title="The optimal gear ratio of a link with a payload, by hand", points=1,
        tolerance=1e-3, name="G_star", value=value, parameters=PAYLOAD,
        mistakes=[(sympy.sqrt((centre + payload * L**2) / I),
                   "m L^2/12 is the rod's inertia about its centre; it turns about its end: "
                   "m L^2/3"),
                  (sympy.sqrt(sympy.Float(m * L**2 / 3) / I), "the payload at the tip is "
                                                               "missing: add m_p L^2"),
                  (J / I, "G^2 I_rotor = J gives G^2 = J / I_rotor: take the square root"),
                  (sympy.sqrt((m * L**2 + payload * L**2) / I),
                   "m L^2 puts the whole rod at its tip; a uniform rod about its end has "
                   "m L^2/3"),
                  (sympy.sqrt(I / J), "the ratio the other way up: G^* = sqrt(J / I_rotor)")])


def keys() -> list:
    arm = puma560()
    return [matching_ratio_key(arm), waist_spread_key(arm), duty_cycle_key(arm),
            smallest_ratio_key(arm), by_hand_rms_key(arm), heating_key(arm),
            optimal_ratio_key()]
