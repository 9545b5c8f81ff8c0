"""The answer keys of the graded notebooks ``06_dalembert_newton_euler_and_simulation`` and
``07_modern_form``, derived by dynlab (imported by ``tools/make_answer_keys.py``).

As there, no answer is typed: each reference comes from dynlab's own derivation (Lee's G-D terms,
the traces of Luh's and Schilling's recursions and of Lynch & Park's twist-wrench recursion, the
closed form ``M = A^T L^T G L A``, the dashboard's arm, :func:`dynlab.simulate`), and each
typical mistake is derived the same way from a wrong model or a wrong procedure (a rod's mass at
its tip, gravity the wrong way, the printed initialisation of Lynch & Park's algorithm, ...).
Where a closed form is short enough to write by hand, it is asserted equal to the derivation.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import sympy

from dynlab import equations_of_motion, inverse_dynamics, simulate
from dynlab.model import spatial as S
from dynlab.model import vectors as V
from dynlab.grading import make_key
from dynlab.grading.keys import parameter_symbol
from dynlab.model.robot import joint_symbols
from dynlab.model.robots import pendulum, planar_2r
from dynlab.model.robots.parameters import rod_inertia
from dynlab.model.symbolic import compact, is_zero
from dynlab.formulations.twist_wrench import closed_form
from dynlab.model.edits import with_mass, with_payload

RECURSIONS = "06_dalembert_newton_euler_and_simulation"
MODERN = "07_modern_form"

q, qd, qdd = joint_symbols(2)
q1, q2 = q
qd1, qd2 = qd
qdd1, qdd2 = qdd
TWO_LINK = {"m1": "positive", "m2": "positive", "l": "positive", "g": "positive",
            "q1": "real", "q2": "real", "qd1": "real", "qd2": "real", "qdd1": "real",
            "qdd2": "real"}
SPLIT = ("qd1", "qd2", "qdd1", "qdd2")


def numeric_key(question, *, parts, mistakes, **options):
    """:func:`make_key` of a question answered by one number (a part of shape ``()``), the
    reference and the mistakes to 7 significant digits: the key stays the same on every machine
    (the last bits of a long integration differ), far below any tolerance here (1e-4 and up).
    With ``parameters=``, each value is an expression in them (its floats rounded the same way),
    evaluated at each student's values (:mod:`dynlab.grading.variants`)."""
    def rounded(values):
        if options.get("parameters"):
            return [sympy.sympify(x).xreplace({f: sympy.Float(f"{float(f):.7g}")
                                              for f in sympy.sympify(x).atoms(sympy.Float)})
                    for x in values]
        return [float(f"{float(x):.7g}") for x in values]
    return make_key(question, kind="numeric",
                    parts=[dict(p, value=rounded(p["value"]), shape=[]) for p in parts],
                    mistakes=[dict(m, value=rounded(m["value"])) for m in mistakes], **options)


def fitted(reading, parameters: dict, degrees: dict, checks: int = 2):
    """``reading(**values)`` (a number dynlab computes) as the polynomial in the parameters it
    is, of the given degree in each (tau is linear in the masses and quadratic in a joint rate,
    Fu, Gonzalez & Lee, Eq. (3.2-26)): fitted through points of each parameter's grid and
    asserted at ``checks`` points at the far end of the grids, so the expression is dynlab's number wherever a student's
    values fall.  Parameter symbols carry no assumptions (the key is read by name)."""
    names = list(parameters)
    symbols = [sympy.Symbol(n) for n in names]
    grids = [np.arange(spec["low"], spec["high"] + spec["step"] / 2, spec["step"])
             for spec in parameters.values()]
    monomials = [sympy.Mul(*(s**e for s, e in zip(symbols, exps))) for exps in
                 itertools.product(*(range(degrees[n] + 1) for n in names))]
    # a tensor grid of the first values of each grid (its matrix is invertible), then the last
    fit = list(itertools.product(*(g[:degrees[n] + 1] for g, n in zip(grids, names))))
    held = [tuple(g[-1 - k] for g in grids) for k in range(checks)]
    matrix = np.array([[float(m.subs(dict(zip(symbols, p)))) for m in monomials] for p in fit])
    values = np.array([reading(**dict(zip(names, map(float, p)))) for p in fit])
    coefficients = np.linalg.solve(matrix, values)
    coefficients[np.abs(coefficients) < 1e-9 * np.max(np.abs(coefficients))] = 0.0   # round-off
    expr = sum(sympy.Float(float(c)) * m for c, m in zip(coefficients, monomials))
    for p in held:
        exact = reading(**dict(zip(names, map(float, p))))
        assert abs(float(expr.subs(dict(zip(symbols, p)))) - exact) <= 1e-9 * max(1, abs(exact))
    return expr


def positive(*names):
    return tuple(sympy.Symbol(n, positive=True) for n in names)


def column(values):
    """A 3- or 6-vector as a SymPy column, each entry in book form."""
    return sympy.Matrix([compact(sympy.sympify(v)) for v in values])


def square(rows):
    return sympy.Matrix(rows).applyfunc(lambda e: compact(sympy.sympify(e)))


#: The given of G.1, G.2, N.2 and N.3, drawn per student: link 2 is ``lam`` times as long as
#: link 1, both uniform rods still.  Fu, Gonzalez & Lee's rods are equal (lam = 1), which the grid
#: leaves out; so are 1/2 and 2, where a rod's mass put at its tip (a typical mistake) sits where
#: the centre of the book's rod is
LENGTHS = {"lam": {"low": 0.6, "high": 0.9, "step": 0.05, "unit": "",
                   "text": "the length of link 2 over the length of link 1, l2/l"}}
#: The symbol of that given in the keys' expressions
LAM = parameter_symbol("lam", LENGTHS["lam"])


def fu_arm(lam=1, **changes):
    """Fu, Gonzalez & Lee's two-link arm (Sec. 3.2.6, Fig. 3.2), symbolic, with link 2 ``lam``
    times as long as link 1 (a uniform rod of length ``lam l``: its centre half-way, its inertia
    ``m2 (lam l)^2/12`` about the centre; ``lam = 1`` is the book's arm); ``changes`` replace
    fields of both links (a wrong model for a typical mistake; a callable gets the link's
    index)."""
    l, m2 = positive("l", "m2")
    arm = planar_2r("fu", symbolic=True)
    if lam != 1:
        arm = arm.replace_link(2, a=lam * l, com=(-lam * l / 2, 0, 0),
                               inertia=rod_inertia(m2, lam * l))
    for index in (1, 2):
        if changes:
            arm = arm.replace_link(index, **{k: v(index) if callable(v) else v
                                             for k, v in changes.items()})
    return arm


def _assert_longer_link2(lam_terms, reading) -> None:
    """``lam_terms`` (``{name: SymPy matrix in the symbols and lam}``) equal dynlab's numbers on
    the numeric arm of uniform rods of lengths 0.8 m and lam 0.8 m (Schilling's version of the
    arm, Sec. 6-5: ``planar_2r("schilling")``), at a state, at both ends of lam's grid:
    ``reading(arm, q, qd, qdd)`` gives dynlab's ``{name: array}``."""
    state = ([0.7, -1.9], [0.6, -1.3], [0.4, 0.9])
    numbers = {"m1": 1.3, "m2": 0.7, "l": 0.8, "g": 9.8062, "q1": state[0][0], "q2": state[0][1],
               "qd1": state[1][0], "qd2": state[1][1], "qdd1": state[2][0], "qdd2": state[2][1]}
    for lam in (LENGTHS["lam"]["low"], LENGTHS["lam"]["high"]):
        arm = planar_2r("schilling", m1=1.3, m2=0.7, a1=0.8, a2=0.8 * lam, g=9.8062)
        expected = reading(arm, *state)
        for name, expr in lam_terms.items():
            at = {s: numbers[s.name] for s in expr.free_symbols if s.name in numbers}
            ours = np.array(expr.xreplace({**at, LAM: lam}), dtype=float).ravel()
            assert np.allclose(ours, np.asarray(expected[name], dtype=float).ravel(),
                               rtol=1e-12, atol=1e-12), (name, lam, ours, expected[name])


def luh_trace(arm):
    """Luh's link-frame recursion (Fu, Gonzalez & Lee, Table 3.3) on ``arm`` at the joint
    symbols: the per-link records."""
    _, trace = inverse_dynamics(arm, list(q), list(qd), list(qdd), variant="link", trace=True)
    return trace


# -- 06: G-D, the Newton-Euler passes, dashboards, simulation ------------------------------------
def gd_terms(arm) -> dict:
    """Lee's G-D terms of ``arm`` (Fu, Gonzalez & Lee, Eqs. (3.4-25)-(3.4-27)), each in book
    form."""
    terms = equations_of_motion(arm, method="dalembert").terms
    return {k: terms[k].applyfunc(compact) for k in ("D_rot", "D_tran", "h_rot", "h_tran")}


def _gd_numbers(arm, q_, qd_, qdd_) -> dict:
    return equations_of_motion(arm, q_, qd_, method="dalembert").terms


def dalembert_keys():
    """Fu, Gonzalez & Lee, Sec. 3.4.2: the rotational and translational parts of D and h, of the
    two-link arm whose link 2 is ``lam`` times as long as link 1 (each student's own lam)."""
    arm = fu_arm(LAM)
    gd = gd_terms(arm)
    m1, m2, l = positive("m1", "m2", "l")
    l2 = LAM * l
    D_rot, D_tran, h_rot, h_tran = (gd[k] for k in ("D_rot", "D_tran", "h_rot", "h_tran"))
    # by hand, Eq. (3.4-25): the rods' spins about z (I_zz = m l^2/12 of each rod's own length)
    assert is_zero(D_rot - sympy.Matrix([[m1 * l**2 / 12 + m2 * l2**2 / 12, m2 * l2**2 / 12],
                                         [m2 * l2**2 / 12, m2 * l2**2 / 12]]))
    assert is_zero(h_rot)
    _assert_longer_link2(gd, _gd_numbers)
    # the mistakes, derived from wrong models: the inertia about the joint end in D_rot (the
    # parallel-axis part counted twice), the masses at the tips, link 2 left out of D_rot's sum,
    # the book's arm of equal links
    about_end = fu_arm(LAM, inertia=lambda i: sympy.diag(0, 1, 1) * arm.links[i - 1].mass
                       * arm.links[i - 1].a**2 / 3)
    end_rot = gd_terms(about_end)["D_rot"]
    tips = gd_terms(fu_arm(LAM, com=(0, 0, 0), inertia=sympy.zeros(3, 3)))
    own_link_only = sympy.Matrix([[m1 * l**2 / 12, m2 * l2**2 / 12],
                                  [m2 * l2**2 / 12, m2 * l2**2 / 12]])
    book = gd_terms(fu_arm())
    equal = ("that is the book's arm, whose two links are equally long; your link 2 is lam "
             "times as long as link 1, l2 = lam*l with your lam = given[\"lam\"]: its centre "
             "lies l2/2 beyond joint 2 and its spin is m2 l2^2/12")
    keys = [make_key(
        "G.1", notebook=RECURSIONS, title="Fu, Gonzalez & Lee, Sec. 3.4.2, Eq. (3.4-25): the "
        "rotational and translational parts of D (two-link arm)", points=2,
        symbols={k: TWO_LINK[k] for k in ("m1", "m2", "l", "q1", "q2")}, angles=("q1", "q2"),
        parameters=LENGTHS,
        parts=[{"name": "D_rot", "value": D_rot, "structure": "symmetric"},
               {"name": "D_tran", "value": D_tran, "structure": "symmetric"}],
        mistakes=[{"part": "D_rot", "value": end_rot,
                   "message": "D^rot takes each rod's inertia tensor I_s about its CENTRE OF "
                              "MASS (m l_s^2/12 about z, l_s the rod's length); the "
                              "parallel-axis part m (l_s/2)^2 is the centre's motion, which "
                              "D^tran already counts"},
                  {"part": "D_rot", "value": own_link_only,
                   "message": "the sum in Eq. (3.4-25) runs over every link s >= max(i, j): "
                              "joint 1 turns link 2 too, so D^rot_11 = I_zz1 + I_zz2"},
                  {"part": "D_rot", "value": book["D_rot"], "message": equal},
                  {"part": "D_tran", "value": tips["D_tran"],
                   "message": "each rod's mass sits at its middle, half its length from its "
                              "joint (r_s - p_{j-1} reaches the centre of mass), not at its "
                              "tip"},
                  {"part": "D_tran", "value": book["D_tran"], "message": equal}])]
    keys.append(make_key(
        "G.2", notebook=RECURSIONS, title="Fu, Gonzalez & Lee, Sec. 3.4.2, Eqs. (3.4-26), "
        "(3.4-27): the translational and rotational parts of h (two-link arm)", points=2,
        symbols={k: TWO_LINK[k] for k in ("m1", "m2", "l", "q1", "q2", "qd1", "qd2")},
        angles=("q1", "q2"), split=("qd1", "qd2"), parameters=LENGTHS,
        parts=[{"name": "h_rot", "value": h_rot},
               {"name": "h_tran", "value": h_tran}],
        mistakes=[{"part": "h_tran", "value": tips["h_tran"],
                   "message": "each rod's mass sits at its middle, half its length from its "
                              "joint, not at its tip: the centripetal and Coriolis "
                              "accelerations of Eq. (3.4-26) are those of the centre of mass"},
                  {"part": "h_tran", "value": book["h_tran"], "message": equal}]))
    return keys


def _luh_numbers(arm, q_, qd_, qdd_) -> dict:
    """Link 2's record of Luh's recursion on a numeric ``arm`` at a state."""
    _, trace = inverse_dynamics(arm, q_, qd_, qdd_, variant="link", trace=True)
    return trace[2]


#: The given of N.1, drawn per student: the twist alpha_1 of link 1 (Denavit-Hartenberg), the
#: angle about x_1 from joint 1's axis z0 to joint 2's axis z1.  The book's arm has parallel
#: axes (alpha_1 = 0), where omega_2 = (0, 0, qd1 + qd2) for every arm; the grid leaves out 0, 90
#: degrees (where the twisted arm's terms in cos alpha_1 vanish) and 45 (where sin and cos agree)
TWIST = {"alpha1": {"low": 20, "high": 70, "step": 10, "unit": "degrees",
                    "text": "the twist of link 1: joint 2's axis z1 is turned by alpha1 about "
                            "x1 from joint 1's axis z0"}}


def twisted_arm(twist):
    """Fu, Gonzalez & Lee's two-link arm (Sec. 3.2.6) whose link 1 has the twist ``twist``
    (radians, or an angle symbol): joint 2's axis turned about x1 from z0."""
    return fu_arm().replace_link(1, alpha=twist)


def _assert_twist(omega, omega_dot, alpha1) -> None:
    """``omega``, ``omega_dot`` (2R0 omega_2, 2R0 omega_dot_2 in the joint symbols and the
    twist alpha1 in degrees) equal dynlab's numbers (Luh's recursion on the numeric twisted
    arm) at a state, at both ends of the grid."""
    state = ([0.7, -1.9], [0.6, -1.3], [0.4, 0.9])
    at = {q1: state[0][0], q2: state[0][1], qd1: state[1][0], qd2: state[1][1],
          qdd1: state[2][0], qdd2: state[2][1]}
    for degrees in (TWIST["alpha1"]["low"], TWIST["alpha1"]["high"]):
        arm = planar_2r("fu", m1=1.3, m2=0.7, l=0.8).replace_link(1, alpha=math.radians(degrees))
        record = _luh_numbers(arm, *state)
        for ours, name in ((omega, "omega"), (omega_dot, "omega_dot")):
            value = np.array(ours.xreplace({**at, alpha1: degrees}).evalf(), dtype=float).ravel()
            assert np.allclose(value, np.asarray(record[name], dtype=float).ravel(), rtol=1e-12,
                               atol=1e-12), (degrees, name, value, record[name])


def twist_key():
    """Fu, Gonzalez & Lee, Table 3.3, Eqs. (3.3-50), (3.3-51): link 2's angular velocity and
    acceleration in frame 2 on the two-link arm whose joint 2 is twisted by the student's
    alpha_1 (in degrees), derived by dynlab's recursion (Luh's link-frame form) with the twist as
    an angle symbol, then written in the given's degrees."""
    alpha1 = parameter_symbol("alpha1", TWIST["alpha1"])
    angle, radians = sympy.Symbol("psi", real=True), sympy.pi * alpha1 / 180

    def link2(arm):
        record = luh_trace(arm)[2]
        return tuple(column(record[name]).xreplace({angle: radians})
                     for name in ("omega", "omega_dot"))
    omega, omega_dot = link2(twisted_arm(angle))
    # by hand, Eqs. (3.3-50), (3.3-51) with 1R0 z0 = (0, sin alpha1, cos alpha1): omega_1 =
    # (0, s qd1, c qd1), omega_1 x z0 qd2 = (s qd1 qd2, 0, 0), then turned by 2R1 = Rz(q2)^T
    s, c, S2, C2 = sympy.sin(radians), sympy.cos(radians), sympy.sin(q2), sympy.cos(q2)
    R21 = sympy.Matrix([[C2, S2, 0], [-S2, C2, 0], [0, 0, 1]])
    w1, wd1 = sympy.Matrix([0, s * qd1, c * qd1]), sympy.Matrix([0, s * qdd1, c * qdd1])
    z0 = sympy.Matrix([0, 0, 1])
    assert is_zero(omega - R21 * (w1 + z0 * qd2))
    assert is_zero(omega_dot - R21 * (wd1 + z0 * qdd2 + w1.cross(z0 * qd2)))
    _assert_twist(omega, omega_dot, alpha1)
    planar = link2(fu_arm())                                  # parallel axes: the book's arm
    flipped = link2(twisted_arm(-angle))                      # 0R1 taken for 1R0
    in_radians = tuple(v.xreplace({alpha1: alpha1 * 180 / sympy.pi}) for v in (omega, omega_dot))
    twisted = "your joint 2 is twisted by alpha1 = given[\"alpha1\"] degrees about x1"
    mistakes = [
        {"part": "omega2", "value": sympy.Matrix([0, 0, qd2]),
         "message": "omega_2 is link 2's ABSOLUTE angular velocity: Eq. (3.3-50) adds joint "
                    "2's rate to link 1's, omega_2 = 2R1 (omega_1 + z0 qd2)"},
        {"part": "omega_dot2", "value": sympy.Matrix([0, 0, qdd2]),
         "message": "omega_dot_2 is link 2's absolute angular acceleration: Eq. (3.3-51) "
                    "carries link 1's over"},
        {"part": "omega2", "value": planar[0],
         "message": "that is the planar arm's, whose joint axes are parallel; " + twisted +
                    ", so 1R0 = (0R1)^T carries the twist Rx(alpha1) of the matrix 0A1 "
                    "(Eq. (3.2-5))"},
        {"part": "omega_dot2", "value": planar[1],
         "message": "that is the planar arm's, whose joint axes are parallel; " + twisted},
        {"part": "omega_dot2", "value": (R21 * (wd1 + z0 * qdd2)).applyfunc(compact),
         "message": "the term (1R0 omega_1) x z0 qd2 of Eq. (3.3-51) is missing: it vanishes "
                    "only when the joint axes are parallel, and yours are twisted"},
        {"part": "omega2", "value": (w1 + z0 * qd2).applyfunc(compact),
         "message": "that is omega_2 in frame 1: turn it into frame 2 with 2R1, the transpose "
                    "of the rotation of 1A2 (Eq. (3.3-50))"},
        {"part": "omega2", "value": flipped[0],
         "message": "the twist turns the wrong way: 1R0 is the TRANSPOSE of the rotation of "
                    "0A1, so 1R0 z0 = (0, sin(alpha1), cos(alpha1))"},
        {"part": "omega2", "value": in_radians[0],
         "message": "given[\"alpha1\"] is in degrees, and sin and cos take radians: "
                    "multiply by pi/180 first"},
        {"part": "omega_dot2", "value": in_radians[1],
         "message": "given[\"alpha1\"] is in degrees, and sin and cos take radians: "
                    "multiply by pi/180 first"}]
    distinct_on_grid(TWIST, {"omega2": omega, "omega_dot2": omega_dot}, mistakes,
                     {"q1": 0.7, "q2": -1.9, "qd1": 0.6, "qd2": -1.3, "qdd1": 0.4,
                      "qdd2": 0.9})
    return make_key(
        "N.1", notebook=RECURSIONS, title="Fu, Gonzalez & Lee, Table 3.3, Eqs. (3.3-50), "
        "(3.3-51): the angular velocity and acceleration of link 2", points=2,
        symbols={"q2": "real", "qd1": "real", "qd2": "real", "qdd1": "real", "qdd2": "real"},
        angles=("q2",), split=("qd1", "qd2", "qdd1", "qdd2"), parameters=TWIST,
        parts=[{"name": "omega2", "value": omega},
               {"name": "omega_dot2", "value": omega_dot}],
        mistakes=mistakes)


def newton_euler_keys():
    """Fu, Gonzalez & Lee, Sec. 3.3.7 (Table 3.3): link 2's forward and backward quantities (its
    accelerations and forces on the arm whose link 2 is ``lam`` times as long as link 1, each
    student's own lam), and Schilling's Algorithm 6-8-1 on the one-axis arm carrying a load
    (Sec. 6-9)."""
    m1, m2, l, g = positive("m1", "m2", "l", "g")
    l2 = LAM * l
    link2 = luh_trace(fu_arm(LAM))[2]
    omega, omega_dot = column(link2["omega"]), column(link2["omega_dot"])
    v_dot, a_bar = column(link2["v_dot"]), column(link2["a_bar"])
    f, n = column(link2["f"]), column(link2["n"])
    # by hand, from the text's Sec. 3.3.7 with p*_2 = (l2, 0, 0): the forward quantities of link
    # 2 in frame 2
    S2, C2, S12, C12 = sympy.sin(q2), sympy.cos(q2), sympy.sin(q1 + q2), sympy.cos(q1 + q2)
    assert is_zero(omega - sympy.Matrix([0, 0, qd1 + qd2]))
    assert is_zero(v_dot - sympy.Matrix([
        l * (S2 * qdd1 - C2 * qd1**2) - l2 * (qd1 + qd2)**2 + g * S12,
        l * (C2 * qdd1 + S2 * qd1**2) + l2 * (qdd1 + qdd2) + g * C12, 0]))
    assert is_zero(n[2] - (m2 * l2**2 / 3 * (qdd1 + qdd2)
                           + m2 * l * l2 / 2 * (C2 * qdd1 + S2 * qd1**2)
                           + m2 * g * l2 * C12 / 2))
    _assert_longer_link2({"omega": omega, "omega_dot": omega_dot, "v_dot": v_dot,
                          "a_bar": a_bar, "f": f, "n": n}, _luh_numbers)
    forward = {k: TWO_LINK[k] for k in TWO_LINK if k not in ("m1", "m2")}
    keys = [twist_key()]
    # the mistakes of the linear accelerations, from wrong procedures and wrong arms
    up = luh_trace(fu_arm(LAM).replace(gravity=(0, g, 0)))[2]        # v_dot_0 = (0, -g, 0)
    still = luh_trace(fu_arm(LAM).replace(gravity=(0, 0, 0)))[2]     # gravity left out
    flipped = luh_trace(fu_arm(LAM, com=lambda i: (l / 2 if i == 1 else l2 / 2, 0, 0)))[2]
    book = luh_trace(fu_arm())[2]                                     # the book's equal links
    link1 = luh_trace(fu_arm(LAM))[1]
    R21 = sympy.Matrix([[C2, S2, 0], [-S2, C2, 0], [0, 0, 1]])        # 2R1
    p2 = sympy.Matrix([l2, 0, 0])
    unrotated = (sympy.Matrix(link2["omega_dot"]).cross(p2)
                 + omega.cross(omega.cross(p2)) + sympy.Matrix(link1["v_dot"]))
    assert is_zero(unrotated - v_dot - (sympy.eye(3) - R21) * sympy.Matrix(link1["v_dot"]))
    equal = ("that is the book's arm, whose two links are equally long; your link 2 is lam "
             "times as long as link 1, so 2R0 p*_2 = (l2, 0, 0) and 2R0 s_2 = (-l2/2, 0, 0) "
             "with l2 = lam*l, your lam = given[\"lam\"]")
    keys.append(make_key(
        "N.2", notebook=RECURSIONS, title="Fu, Gonzalez & Lee, Table 3.3, Eqs. (3.3-52), "
        "(3.3-53): the acceleration of link 2's origin and of its centre of mass", points=2,
        symbols=forward, angles=("q1", "q2"), split=SPLIT, parameters=LENGTHS,
        parts=[{"name": "v_dot2", "value": v_dot},
               {"name": "a_bar2", "value": a_bar}],
        mistakes=[{"part": "v_dot2", "value": column(up["v_dot"]),
                   "message": "gravity enters as an UPWARD acceleration of the base, "
                              "v_dot_0 = (0, g, 0) with y0 up (Sec. 3.3.7): the arm must hold "
                              "itself up against it"},
                  {"part": "v_dot2", "value": column(still["v_dot"]),
                   "message": "the recursion starts from v_dot_0 = (0, g, 0), not 0: that is "
                              "how gravity reaches every link (Eq. (3.3-46))"},
                  {"part": "v_dot2", "value": unrotated.applyfunc(compact),
                   "message": "1R0 v_dot_1 is in frame 1: turn it into frame 2 with 2R1 "
                              "before adding it (Eq. (3.3-52))"},
                  {"part": "v_dot2", "value": column(book["v_dot"]), "message": equal},
                  {"part": "a_bar2", "value": column(up["a_bar"]),
                   "message": "gravity enters as an UPWARD acceleration of the base, "
                              "v_dot_0 = (0, g, 0) with y0 up (Sec. 3.3.7)"},
                  {"part": "a_bar2", "value": column(still["a_bar"]),
                   "message": "a_bar_2 carries gravity through v_dot_2 (v_dot_0 = (0, g, 0)): "
                              "it is what F_2 = m2 a_bar_2 needs"},
                  {"part": "a_bar2", "value": column(flipped["a_bar"]),
                   "message": "the centre of mass of link 2 lies HALF A LINK BEHIND the "
                              "origin of frame 2 (at the tip): 2R0 s_2 = (-l2/2, 0, 0)"},
                  {"part": "a_bar2", "value": v_dot,
                   "message": "that is v_dot_2, the acceleration of the origin of frame 2 (the "
                              "tip); the centre of mass adds omega_dot x s + omega x (omega x "
                              "s) with 2R0 s_2 = (-l2/2, 0, 0) (Eq. (3.3-53))"},
                  {"part": "a_bar2", "value": column(book["a_bar"]), "message": equal}]))
    # backward: f_2 and n_2 (about the origin of frame 1, i.e. joint 2)
    F2 = m2 * a_bar
    s2 = sympy.Matrix([-l2 / 2, 0, 0])
    N2 = n - (p2 + s2).cross(F2)
    about_tip = (s2.cross(F2) + N2).applyfunc(compact)
    keys.append(make_key(
        "N.3", notebook=RECURSIONS, title="Fu, Gonzalez & Lee, Table 3.3, Eqs. (3.3-56), "
        "(3.3-57): the force and moment on link 2", points=2,
        symbols={k: TWO_LINK[k] for k in TWO_LINK if k != "m1"}, angles=("q1", "q2"),
        split=SPLIT, parameters=LENGTHS,
        parts=[{"name": "f2", "value": f},
               {"name": "n2", "value": n}],
        mistakes=[{"part": "f2", "value": column(up["f"]),
                   "message": "gravity enters as an UPWARD acceleration of the base, "
                              "v_dot_0 = (0, g, 0) with y0 up: link 1 must push link 2 up"},
                  {"part": "f2", "value": column(still["f"]),
                   "message": "f_2 = m2 a_bar_2 with gravity inside a_bar_2 (v_dot_0 = "
                              "(0, g, 0)): link 1 also carries link 2's weight"},
                  {"part": "f2", "value": column(book["f"]), "message": equal},
                  {"part": "n2", "value": about_tip,
                   "message": "n_2 is the moment about the origin of frame 1 (joint 2): the "
                              "lever arm of F_2 is p*_2 + s_2 = (l2/2, 0, 0), from the joint "
                              "to the centre of mass (Eq. (3.3-57)), not s_2 from the tip"},
                  {"part": "n2", "value": (n + sympy.Matrix([0, 0, m2 * l2**2 * (qdd1 + qdd2)
                                                             / 6])).applyfunc(compact),
                   "message": "that is the slip of the tau_2 printed at the end of Sec. 3.3.7, "
                              "m2 l2^2/2 where the recursion gives m2 l2^2/3 (a rod about its "
                              "end: m l2^2/12 + m l2^2/4); the book's own 2R0 n_2, just "
                              "before it, has 1/3"},
                  {"part": "n2", "value": N2.applyfunc(compact),
                   "message": "that is N_2 alone, the rate of change of the angular momentum "
                              "about the centre of mass; add the moment of F_2 about joint 2, "
                              "(p*_2 + s_2) x F_2"},
                  {"part": "n2", "value": column(book["n"]), "message": equal}]))
    keys.append(schilling_key())
    return keys


#: The given of N.4, drawn per student: the angle below the horizontal x0 at which the cable
#: pulls the tool (a load hung straight down, 90 degrees, and 45 degrees, where the angle taken
#: from the vertical gives the same force, are not on the grid)
CABLE = {"phi": {"low": 50, "high": 80, "step": 5, "unit": "degrees",
                 "text": "the angle of the cable below the horizontal x0; the load pulls the "
                         "tool with the force F along it"}}


def _assert_cable(f1, n1, tau1, phi) -> None:
    """``f1``, ``n1``, ``tau1`` equal dynlab's numbers (Schilling's base-frame recursion on the
    numeric ``pendulum``, the tool's force on the cable ``-f^tool`` as its ``tip_force``) at a
    state, at both ends of phi's grid."""
    mass, length, force, state = 1.3, 0.7, 4.5, (0.8, -1.1, 0.6)
    numbers = {"m1": mass, "a1": length, "g": 9.8062, "F": force, "q1": state[0],
               "qd1": state[1], "qdd1": state[2]}
    for degrees in (CABLE["phi"]["low"], CABLE["phi"]["high"]):
        angle = math.radians(degrees)
        arm = pendulum(m1=mass, a1=length).replace(
            tip_force=(-force * math.cos(angle), force * math.sin(angle), 0.0))
        tau, trace = inverse_dynamics(arm, [state[0]], [state[1]], [state[2]], variant="base",
                                      trace=True)
        at = {**{sympy.Symbol(k, positive=True): v for k, v in numbers.items()
                 if k in ("m1", "a1", "g", "F")},
              **{sympy.Symbol(k, real=True): v for k, v in numbers.items()
                 if k in ("q1", "qd1", "qdd1")}, phi: degrees}
        for ours, theirs in ((f1, trace[1]["f"]), (n1, trace[1]["n"]), (tau1, tau[0])):
            value = np.array(sympy.Matrix([ours]).xreplace(at).evalf(), dtype=float).ravel()
            assert np.allclose(value, np.asarray(theirs, dtype=float).ravel(), rtol=1e-12,
                               atol=1e-12), (degrees, value, theirs)


def schilling_key():
    """Schilling, Algorithm 6-8-1 on the one-axis arm (Sec. 6-9) carrying a load: a cable from
    the tool pulls it with the force F, ``phi`` below the horizontal (each student's own phi), so
    f^tool = F (cos phi, -sin phi, 0) and f^2 = -f^tool (step 1)."""
    m1, a1, g, F = positive("m1", "a1", "g", "F")
    (qa,), (qda,), (qdda,) = joint_symbols(1)
    phi = parameter_symbol("phi", CABLE["phi"])
    # derived with the cable's angle as an angle symbol of its own (so that the terms come out
    # in book form), then written in phi's degrees
    angle, radians = sympy.Symbol("psi", real=True), sympy.pi * phi / 180

    def run(tip):
        arm = pendulum(symbolic=True).replace(tip_force=tip)
        tau, trace = inverse_dynamics(arm, [qa], [qda], [qdda], variant="base", trace=True)
        record = trace[1]
        return tuple(value.xreplace({angle: radians}) for value in (
            column(record["f"]), column(record["n"]), compact(sympy.sympify(tau[0]))))

    def pulled(direction):
        """dynlab's tip_force is the tool's force ON its environment, Schilling's f^{n+1} =
        -f^tool: for a load pulling the tool with F along ``direction``, -F direction."""
        return tuple(-F * c for c in direction)

    cable = (sympy.cos(angle), -sympy.sin(angle), 0)
    f1, n1, tau1 = run(pulled(cable))
    # by hand: the load's moment about the joint is a1 u1 x F (-cos phi, sin phi, 0), along z
    assert is_zero((tau1 - (m1 * a1**2 / 3 * qdda + m1 * g * a1 * sympy.cos(qa) / 2
                            + F * a1 * sympy.sin(qa + radians))).xreplace({radians: angle}))
    _assert_cable(f1, n1, tau1, phi)
    wrong = run(tuple(-c for c in pulled(cable)))               # f^{n+1} = +f^tool
    free = run((0, 0, 0))                                       # the load forgotten
    hanging = run(pulled((0, -1, 0)))                           # straight down, phi = 90 deg
    swapped = run(pulled((sympy.sin(angle), -sympy.cos(angle), 0)))   # phi from the vertical
    symbols = {"m1": "positive", "a1": "positive", "g": "positive", "F": "positive",
               "q1": "real", "qd1": "real", "qdd1": "real"}
    messages = [
        "the backward pass starts from f^2 = -f^tool (Algorithm 6-8-1, step 1): the cable pulls "
        "the tool with f^tool = F (cos phi, -sin phi, 0), so the arm pulls the cable the "
        "opposite way",
        "the load is missing: the backward pass starts from f^2 = -f^tool, not 0",
        "that is a load hanging straight down (phi = 90 degrees); your cable pulls phi below "
        "the horizontal, with your phi = given[\"phi\"] in degrees: f^tool = "
        "F (cos phi, -sin phi, 0)",
        "phi is measured from the HORIZONTAL x0, not from the vertical: f^tool = "
        "F (cos phi, -sin phi, 0)"]
    mistakes = [{"part": name, "value": model[index], "message": message}
                for model, message in zip((wrong, free, hanging, swapped), messages)
                for index, name in enumerate(("f1", "n1", "tau1"))]
    return make_key(
        "N.4", notebook=RECURSIONS, title="Schilling, Algorithm 6-8-1 (Sec. 6-9): the one-axis "
        "arm carrying a load", points=3, symbols=symbols, angles=("q1",),
        split=("qd1", "qdd1"), parameters=CABLE,
        parts=[{"name": "f1", "value": f1},
               {"name": "n1", "value": n1},
               {"name": "tau1", "value": tau1}],
        mistakes=mistakes)


#: the state of the two-link dashboard the questions read (its opening state: Schilling's home
#: position q = (pi/3, -pi/3), qd = (1, 0.5), qdd = (1, -1)), and the parameters they set
DASHBOARD_STATE = ([math.pi / 3, -math.pi / 3], [1.0, 0.5], [1.0, -1.0])


def dashboard_parts(arm, q_, qd_, qdd_):
    """The parts of tau the dashboard shows (Fu, Gonzalez & Lee, Eq. (3.2-26)), by dynlab's G-D
    terms at the state."""
    eom = equations_of_motion(arm, q_, qd_, method="dalembert")
    return {"inertial": np.asarray(eom.D, dtype=float) @ np.asarray(qdd_, dtype=float),
            "coriolis": np.asarray(eom.h, dtype=float).ravel(),
            "gravity": np.asarray(eom.c, dtype=float).ravel()}


#: The givens of the dashboard readings, drawn per student (:mod:`dynlab.grading.variants`)
LOADS = {"m2": {"low": 1.5, "high": 3.0, "step": 0.5, "unit": "kg", "text": "the mass of link 2"},
         "Mp": {"low": 0.1, "high": 0.5, "step": 0.1, "unit": "kg",
                "text": "the payload at the tip of link 2"}}
SPEEDS = {"qd1": {"low": 1.5, "high": 3.0, "step": 0.5, "unit": "rad/s",
                  "text": "the speed of joint 1"}}


def dashboard_keys():
    """Two readings of chapter 02's dashboard of the two-link arm (Fu, Gonzalez & Lee,
    Sec. 3.2.6): the gravity part of tau_1 with the student's mass of link 2 and payload, and the
    Coriolis/centrifugal part of tau_2 at the student's speed of joint 1."""
    keys = []
    q_, qd_, qdd_ = DASHBOARD_STATE
    arm = planar_2r("fu")

    def loaded(m2, Mp):
        return dashboard_parts(with_payload(with_mass(arm, 2, m2), Mp), q_, qd_, qdd_)

    g, l = 9.8062, 1.0
    c1 = fitted(lambda m2, Mp: loaded(m2, Mp)["gravity"][0], LOADS, {"m2": 1, "Mp": 1})
    # by hand, Eq. (3.2-34): c1 = g l [(m1/2 + m2 + Mp) C1 + (m2/2 + Mp) C12], m1 = 2 kg
    m2_, Mp_ = sympy.symbols("m2 Mp")
    by_hand = g * l * ((1.0 + m2_ + Mp_) * math.cos(q_[0]) + (m2_ / 2 + Mp_) * math.cos(q_[0]
                                                                                     + q_[1]))
    assert abs(float((c1 - by_hand).subs({m2_: 2.5, Mp_: 0.3}))) < 1e-9
    keys.append(numeric_key(
        "D.1", notebook=RECURSIONS, title="Reading the dashboard: the gravity part of tau_1",
        points=1, tolerance=5e-3, parameters=LOADS,
        parts=[{"name": "c1", "value": [c1]}],
        mistakes=[{"part": "c1", "value": [fitted(lambda m2, Mp: sum(loaded(m2, Mp).values())[0],
                                                  LOADS, {"m2": 1, "Mp": 1})],
                   "message": "that is the total tau_1 (the dark bar); the gravity part is the "
                              "green bar, c(q)"},
                  {"part": "c1", "value": [fitted(lambda m2, Mp: loaded(m2, Mp)["gravity"][1],
                                                  LOADS, {"m2": 1, "Mp": 1})],
                   "message": "that is joint 2's gravity torque; read joint 1's"},
                  {"part": "c1", "value": [fitted(
                      lambda m2, Mp: dashboard_parts(with_mass(arm, 2, m2), q_, qd_, qdd_)[
                          "gravity"][0], LOADS, {"m2": 1, "Mp": 0})],
                   "message": "the payload at the tip is missing (the payload slider)"},
                  {"part": "c1", "value": [dashboard_parts(arm, q_, qd_, qdd_)["gravity"][0]],
                   "message": "that is the gravity torque with the dashboard's own masses: set "
                              "m2 and the payload to your values first"}]))

    def fast(qd1):
        return dashboard_parts(arm, q_, [qd1, qd_[1]], qdd_)

    h2 = fitted(lambda qd1: fast(qd1)["coriolis"][1], SPEEDS, {"qd1": 2})
    # by hand, the worked example of Sec. 3.2.6 (h_ikm of Eq. (3.2-33) for n = 2): h2 = m2 l^2 S2 qd1^2 / 2
    assert abs(float(h2.subs("qd1", 2.0)) - 1.0 * math.sin(q_[1]) * 4.0 / 2) < 1e-9
    slow = dashboard_parts(arm, q_, qd_, qdd_)
    keys.append(numeric_key(
        "D.2", notebook=RECURSIONS, title="Reading the dashboard: the Coriolis/centrifugal part "
        "of tau_2", points=1, tolerance=5e-3, parameters=SPEEDS,
        parts=[{"name": "h2", "value": [h2]}],
        mistakes=[{"part": "h2", "value": [fitted(lambda qd1: fast(qd1)["coriolis"][0], SPEEDS,
                                                  {"qd1": 2})],
                   "message": "that is joint 1's Coriolis/centrifugal torque; read joint 2's"},
                  {"part": "h2", "value": [slow["coriolis"][1]],
                   "message": "that is the reading at the opening state, qd1 = 1 rad/s; set "
                              "qd1 to your value first"},
                  {"part": "h2", "value": [fitted(lambda qd1: sum(fast(qd1).values())[1],
                                                  SPEEDS, {"qd1": 2})],
                   "message": "that is the total tau_2; the Coriolis/centrifugal part is the "
                              "orange bar, h(q, qd)"}]))
    return keys


HANGING = -math.pi / 2          # the pendulum's lowest position (gravity along -y0)
#: The given of the large swing, drawn per student: how far from its lowest position it starts
SWINGS = {"amplitude": {"low": 30, "high": 70, "step": 5, "unit": "degrees",
                        "text": "released from rest this far from the lowest position"}}


def swing_period(amplitude_degrees, arm=None):
    """The period of the pendulum released from rest ``amplitude_degrees`` from its lowest
    position, measured on a simulated swing (:meth:`dynlab.dynamics.simulation.Trajectory.period`)."""
    arm = pendulum() if arm is None else arm
    start = HANGING + math.radians(amplitude_degrees)
    swing = simulate(arm, [start], [0.0], t_span=8.0, dt=1e-3)
    return swing.period(level=HANGING)


def simulation_keys():
    """The pendulum's period at 45 degrees, and the energy Euler's method adds."""
    keys = []
    arm = pendulum()
    a, g = float(arm.links[0].a), 9.8062
    period = swing_period(45.0)
    small = 2 * math.pi * math.sqrt(2 * a / (3 * g))       # T0 of the rod (chapter 07)
    from scipy.special import ellipk
    assert abs(period / (small * 2 / math.pi * ellipk(math.sin(math.radians(22.5))**2)) - 1) \
        < 1e-6
    amplitude = sympy.Symbol("amplitude")

    def exact_period(degrees):
        """Chapter 07's exact period of the rod released ``degrees`` from its lowest position:
        T = T0 (2/pi) K(sin^2(theta0/2)) (K the complete elliptic integral of the first kind)."""
        return small * 2 / sympy.pi * sympy.elliptic_k(sympy.sin(degrees * sympy.pi / 360)**2)

    for degrees in (30, 70):                 # the formula is the simulated swing's period
        assert abs(swing_period(float(degrees)) / float(exact_period(degrees)) - 1) < 1e-5
    keys.append(numeric_key(
        "S.1", notebook=RECURSIONS, title="Simulation: the period of the pendulum's large swing",
        points=2, tolerance=2e-3, parameters=SWINGS,
        parts=[{"name": "T", "value": [exact_period(amplitude)]}],
        mistakes=[{"part": "T", "value": [small],
                   "message": "that is the small-angle period 2 pi sqrt(2a/(3g)); a large swing "
                              "is slower: measure it on the simulated swing"},
                  {"part": "T", "value": [2 * math.pi * math.sqrt(a / g)],
                   "message": "that is the period of a point mass on a string of length a; the "
                              "pendulum is a uniform rod, D = m a^2/3 (its small-angle period "
                              "is 2 pi sqrt(2a/(3g)))"},
                  {"part": "T", "value": [exact_period(amplitude) / 2],
                   "message": "that is half a period: measure between successive passes through "
                              "the lowest position IN THE SAME DIRECTION"},
                  {"part": "T", "value": [exact_period(amplitude + 90)],
                   "message": "the amplitude is measured from the LOWEST position, q1 = -pi/2; "
                              "q1 = amplitude starts the swing 90 degrees further from it"}]))
    keys.append(euler_key())
    return keys


#: The given of Euler's energy gain, drawn per student: the mass of the rod (1 kg in pendulum()).
#: The gain is proportional to it, so no two masses of the grid are 2 or 3 times one another: a
#: classmate's number is then never one the feedback names as a factor off
RODS = {"m1": {"low": 1.5, "high": 2.9, "step": 0.1, "unit": "kg", "text": "the mass of the rod"}}


def euler_gain(m1=1.0, dt=0.01, integrator="euler", reading="gain"):
    """E(2 s) - E(0) of ``pendulum(m1=m1)`` released from rest at q1 = 0 (horizontal), simulated
    by dynlab (Lynch & Park's Euler iteration, Sec. 8.5, with ``integrator="euler"``); with
    ``reading="drift"``, the trajectory's ``energy_drift()`` instead."""
    options = {} if integrator is None else {"integrator": integrator, "dt": dt}
    run = simulate(pendulum(m1=m1), [0.0], [0.0], t_span=2.0, **options)
    return run.energy_drift() if reading == "drift" else float(run.total[-1] - run.total[0])


def euler_key():
    """The energy Euler's method adds to the pendulum of the student's mass.  The motion does not
    depend on the mass (q1'' = -3 g C1 / (2 a1), Schilling, Eq. (6-9-22)) and E = K + P is
    proportional to it, so the gain is linear in m1: :func:`fitted` of degree 1, asserted at the
    far end of the grid."""
    gain = fitted(lambda m1: euler_gain(m1), RODS, {"m1": 1})
    assert gain.coeff(sympy.Symbol("m1")) > 0.5 and \
        abs(euler_gain(1.0) - float(gain.subs("m1", 1.0))) < 1e-9   # +1.05 J for 1 kg
    # The exact motion keeps E = K + P: d(K + P)/dt = qd^T tau (the passivity property, Lynch
    # & Park, Prop. 8.1), and tau = 0 with no friction.  So its change is 0 exactly, on every
    # machine; an accurate integration shows only round-off, which the processor's vectorised
    # loops move (a key that sealed it differed between machines)
    exact = sympy.Integer(0)
    for m1 in (RODS["m1"]["low"], RODS["m1"]["high"]):
        assert abs(euler_gain(m1, integrator=None)) < 1e-6 * m1
    key = numeric_key(
        "S.2", notebook=RECURSIONS, title="Simulation: the energy Euler's method adds to the "
        "pendulum", points=2, tolerance=1e-4, parameters=RODS,
        parts=[{"name": "dE", "value": [gain]}],
        mistakes=[{"part": "dE", "value": [exact],
                   "message": "that is the exact motion's energy change (none: no friction, no "
                              "torque); integrate with integrator=\"euler\", dt=0.01"},
                  {"part": "dE", "value": [fitted(lambda m1: euler_gain(m1, dt=0.001), RODS,
                                                  {"m1": 1})],
                   "message": "that is Euler with a step of 1 ms; the question takes h = 0.01 s"},
                  {"part": "dE", "value": [-gain],
                   "message": "E(2 s) - E(0): Euler's method ADDS energy (the wrong sign)"},
                  {"part": "dE", "value": [fitted(lambda m1: euler_gain(m1, reading="drift"),
                                                  RODS, {"m1": 0})],
                   "message": "that is energy_drift(), the largest change RELATIVE to the "
                              "energy scale; the question asks for E(2 s) - E(0) in joules"},
                  {"part": "dE", "value": [euler_gain(1.0)],
                   "message": "that is the gain of pendulum()'s own rod, 1 kg; give the rod "
                              "your mass first"}])
    # every typical mistake is told from the answer at every mass of the grid
    from dynlab.grading.keys import reference
    unsealed = reference(key)
    for m1 in np.arange(RODS["m1"]["low"], RODS["m1"]["high"] + 0.05, RODS["m1"]["step"]):
        right = float(unsealed["dE"][0].subs("m1", m1))
        for index in range(len(key["mistakes"])):
            wrong = float(sympy.sympify(unsealed[("mistake", index)][0]).subs("m1", m1))
            assert abs(wrong - right) > 100 * key["tolerance"] * abs(right)
    return key


def recursions_keys():
    return dalembert_keys() + newton_euler_keys() + dashboard_keys() + simulation_keys()


# -- 07: the modern form (Lynch & Park, Ch. 8) -------------------------------------------------
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


def grid_ends(parameters: dict) -> list:
    """The lowest and the highest value of each given's grid, as ``[{name: value}, ...]``."""
    return [{name: float(spec[end]) for name, spec in parameters.items()}
            for end in ("low", "high")]


def distinct_on_grid(parameters: dict, parts: dict, mistakes: list, at: dict) -> None:
    """Assert that at every value of the givens' grids each typical mistake differs from its part
    at the point ``at`` of the symbols (``{name: number}``): the feedback names it at every
    student's values, and no grid value makes a mistake the answer."""
    from dynlab.grading.variants import _grid
    names = list(parameters)
    for combination in itertools.product(*(_grid(spec) for spec in parameters.values())):
        values = {**at, **dict(zip(names, combination))}

        def number(expr):
            expr = sympy.Matrix([expr]) if not isinstance(expr, sympy.MatrixBase) else expr
            return np.array(expr.xreplace({s: values[str(s)] for s in expr.free_symbols}),
                            dtype=float)
        for mistake in mistakes:
            right, wrong = number(parts[mistake["part"]]), number(mistake["value"])
            assert np.abs(wrong - right).max() > 1e-6 * max(1.0, np.abs(right).max()), \
                (combination, mistake["message"])


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
    distinct_on_grid(PIVOT, {"G_a": G_a}, mistakes, numbers)
    return make_key(
        "T.1", notebook=MODERN, title="Lynch & Park, Sec. 8.2: a rod's spatial inertia in a "
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
    distinct_on_grid(MASS_PLACE, {"V2": V2, "Vdot2": Vdot2}, mistakes, lp_numbers(numeric))
    return make_key(
        "T.2", notebook=MODERN, title="Lynch & Park, Sec. 8.3 (draft Eqs. (9.53)-(9.55)): one "
        "forward pass of the 2R arm (V_2, Vdot_2)", points=2, symbols=symbols,
        angles=("q1", "q2"), split=SPLIT, parameters=MASS_PLACE,
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
    distinct_on_grid(MASS_PLACE, {"F2": F2, "tau2": tau2}, mistakes, lp_numbers(numeric))
    return make_key(
        "T.3", notebook=MODERN, title="Lynch & Park, Sec. 8.3 (draft Eqs. (9.56)-(9.57)): one "
        "backward step of the 2R arm (F_2, tau_2)", points=2, symbols=symbols,
        angles=("q1", "q2"), split=SPLIT, parameters=MASS_PLACE,
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
    distinct_on_grid(MASS_PLACE, {"LA": LA, "M": M}, mistakes, lp_numbers(numeric))
    return make_key(
        "T.4", notebook=MODERN, title="Lynch & Park, Sec. 8.4 (draft Eq. (9.82)): M = A^T L^T G "
        "L A for the 2R arm", points=2, symbols=symbols, angles=("q1", "q2"),
        parameters=MASS_PLACE,
        parts=[{"name": "LA", "value": LA},
               {"name": "M", "value": M, "structure": "symmetric"}], mistakes=mistakes)


def modern_keys():
    return [rod_inertia_key(), twist_keys(), backward_key(), closed_form_key()]


BUILDERS = {RECURSIONS: recursions_keys, MODERN: modern_keys}
