"""The answer keys of ``solutions/02_two_link_arm_on_the_ceiling``: the two-link arm hanging from
the ceiling: Fu, Gonzalez & Lee's Probs. 3.16, 3.17 and 3.13.
"""

from __future__ import annotations

import math

import numpy as np
import sympy
from answer_keys.common import JOINTS2, SPLIT2, check_mistakes, positive, q, q1, q2, qd, qdd, shift

from dynlab import Link, Robot, equations_of_motion, inverse_dynamics
from dynlab.formulations.lagrange_euler import pseudo_inertia
from dynlab.grading import make_choice_key, make_key
from dynlab.grading.keys import parameter_symbol
from dynlab.model.kinematics import link_offset_in_own_frame, link_transform, rotations
from dynlab.model.link import G
from dynlab.model.robots import puma560

NOTEBOOK = "02_two_link_arm_on_the_ceiling"

#: Each question's notes, sealed into its key: the hint a student asks for with hint(), and the
#: takeaway check() shows once the answer is right (Markdown, $...$ for mathematics; a hint says
#: where to start, never the answer).  A takeaway keeps its line breaks, long lines and all (a
#: noqa for E501 at its end): solutions/' stored outputs show it line by line, so rewrapping one
#: means refreshing them (tools/refresh_notebooks.py)
NOTES = {
    "3.16a": {
        "hint": r"""
Read the Denavit-Hartenberg parameters of each link off the arm's geometry and put them into
Eq. (3.2-5): a link length is an $a_i$, and an offset along the joint axis $z_{i-1}$ is a $d_i$.""",
        "takeaway": r"""
The offset $e$ of joint 2 is a translation along $z_1$: it sits in the third entry of the last
column of ${}^1\mathbf A_2$ and nowhere else. Since both joint axes point along $z$, the offset moves
link 2 out of link 1's plane without changing how it swings: it will not appear in $\mathbf D$,
$\mathbf h$, $\mathbf c$ or the torques.""",  # noqa: E501
    },
    "3.16b": {
        "hint": r"""
Eq. (3.2-17) with a link's mass at one point, then spread along $z_i$ by the rod: where is that
point in the link's own frame, whose origin is the far end of the link, and what does the rod add
to $\int z^2\,dm$?""",
    },
    "3.16c": {
        "hint": r"""
Follow the recipe of Sec. 3.2: $\mathbf U_{ij}$ (Eq. (3.2-11)) and $\mathbf U_{ijk}$ (Eq. (3.2-13))
from the matrices of part (a), the gravity row vector of Eq. (3.2-22) along $+x_0$ (the gravity the
arm feels in the lift), then $\mathbf D$, $\mathbf h$ and $\mathbf c$ of Eq. (3.2-26).""",
        "takeaway": r"""
With the mass $m_2$ at $\rho_2 d_2$ from joint 2, $D_{22} = m_2 \rho_2^2 d_2^2$ is the inertia of a point
mass at that distance, and $D_{11}$ adds $m_1 \rho_1^2 d_1^2$ and $m_2$ times the squared distance of
$m_2$ from joint 1, $d_1^2 + \rho_2^2 d_2^2 + 2 \rho_2 d_1 d_2 \cos\theta_2$. The gravity terms are
$g + a_\text{lift}$ times the moment arms $\sin\theta$ measured from the vertical: zero when the arm
hangs straight down. The lift scales the gravity terms only; $\mathbf D$ and $\mathbf h$ do not feel it.""",  # noqa: E501
    },
    "3.17a": {
        "hint": r"""
The base does not turn, but it accelerates with the lift; gravity enters the recursion as an
acceleration of the base too (Algorithm 3.1): which way does each point, with $x_0$ pointing
down?""",
    },
    "3.17b": {
        "hint": r"""
A thin rod along $z_i$, about its centre: which axes does its mass lie away from, and by how much
on average ($\int z^2\,dm$ over the rod)?""",
        "takeaway": r"""
The rod along the joint axis has the moments $m w^2/12$ about $x_i$ and $y_i$, and none about $z_i$,
the only axis this planar arm turns about: it changes $\mathbf J_i$ and $\mathbf I_i$ but not
$\mathbf D$, $\mathbf h$, $\mathbf c$ or the torques (in Eq. (3.3-55), $\mathbf I_i\boldsymbol\omega_i = \mathbf 0$
for $\boldsymbol\omega_i$ along $z_i$). A rod lying across the joint axis would have
$I_{zz} = m w^2/12$, and that would enter $\mathbf D$.""",  # noqa: E501
    },
    "3.17c": {
        "hint": r"""
Eq. (3.3-59) gives $\mathbf p_i^*$ from the link's parameters $(a_i, d_i, \alpha_i)$; for
$\bar{\mathbf s}_i$, where is the mass in frame $i$, whose origin is the far end of link $i$?""",
    },
    "3.17d": {
        "hint": r"""
Run the recursion of Table 3.3 (Eqs. (3.3-50) to (3.3-58)): the forward equations from the base out,
then the backward equations from the tip in; each torque is a component of $\mathbf n_i$.""",
    },
    "3.13a": {
        "hint": r"""
L-E writes gravity itself in the potential energy (Eq. (3.2-21)); N-E gives the base an acceleration
instead. Which way does each point? Under a level ceiling gravity is $(g, 0, 0)$ in frame 0; under
yours, write the room's downward direction in the turned frame 0 (and mind radians).""",
    },
    "3.13b": {
        "hint": r"""
Do the two formulations give different torques, or the same torques written two ways?""",
    },
}


#: The givens of Probs. 3.16 and 3.17, one set per student for the whole arm (every part of both
#: problems asks about the same arm, so the seven questions share them: ``variant("3.16")``): where
#: each lumped mass sits along its link, rho_i d_i from joint i (the printed problem's masses are
#: at the link ends, rho = 1; and no 1/2, the uniform rod's centre), the upward acceleration of the
#: lift whose ceiling the arm hangs from (0 in print), which the base's acceleration v_dot0 carries
#: into the recursion, how far link 2 hangs beside link 1 along the joint axis z1 (the offset of
#: joint 2, Denavit-Hartenberg's d of 1A2; 0 in print, both links in one plane), and the length of
#: the thin rod along the joint axis z_i that each mass is (0 in print: points)
CEILING_ARM = {
    "rho1": {"low": 0.6, "high": 0.9, "step": 0.05, "unit": "",
             "text": "where the mass m1 sits: its distance from joint 1 over d1"},
    "rho2": {"low": 0.6, "high": 0.9, "step": 0.05, "unit": "",
             "text": "where the mass m2 sits: its distance from joint 2 over d2"},
    "a_lift": {"low": 0.5, "high": 2.0, "step": 0.25, "unit": "m/s^2",
               "text": "the upward acceleration of the lift whose ceiling the arm hangs from"},
    "e": {"low": 0.05, "high": 0.2, "step": 0.05, "unit": "m",
          "text": "how far link 2 hangs beside link 1, along the joint axis z1, toward you"},
    "w": {"low": 0.1, "high": 0.4, "step": 0.1, "unit": "m",
          "text": "the length of the thin rod each mass is, along its joint axis z_i"}}


#: The name the seven questions on the arm share their givens under
CEILING_SHARED = "3.16"


def thin_rod_along_z(mass, length):
    """The inertia tensor about its centre of a thin uniform rod of ``length`` along z: m l^2/12
    about the axes across it, none about its own axis (the tensor I_jk = int [delta_jk |r|^2 -
    x_j x_k] dm of the text before Fu, Gonzalez & Lee's Eq. (3.2-18), with x = y = 0 on the rod
    and int z^2 dm = m l^2/12)."""
    z = sympy.Symbol("z", real=True)
    second_moment = sympy.integrate(z**2 * mass / length, (z, -length / 2, length / 2))
    return sympy.diag(second_moment, second_moment, 0)


def ceiling_arm(g_value=None, rods=False, gravity_sign=1, axis=0, rho=(1, 1), lift=0, offset=0,
                rod=0):
    """Prob. 3.16's arm: joints about horizontal z axes at the ceiling, x0 pointing down (to the
    floor), so gravity is (g, 0, 0); each link's mass lumped at ``rho_i d_i`` from joint i, that
    is ``-(1 - rho_i) d_i`` along x_i from the origin of frame i (the far end of link i; the
    printed problem: rho = 1, at the ends; ``rods=True``: uniform rods instead, the mistake).
    In a lift accelerating upward by ``lift`` the arm moves as under the gravity g + lift
    (d'Alembert: the base's acceleration enters as gravity does, Fu, Gonzalez & Lee,
    Eq. (3.3-46)).  Link 2 hangs ``offset`` beside link 1 along z1 (the DH parameter d of joint
    2, Eq. (3.2-5)), and each mass is a thin rod of length ``rod`` along its joint axis z_i
    (:func:`thin_rod_along_z`; 0: a point)."""
    m1, m2, d1, d2, g = positive("m1", "m2", "d1", "d2", "g")
    g = g if g_value is None else g_value
    links = []
    for k, (m, d, r) in enumerate(((m1, d1, rho[0]), (m2, d2, rho[1])), start=1):
        beside = offset if k == 2 else 0
        if rods:
            links.append(Link("R", a=d, d=beside, mass=m, com=(-d / 2, 0, 0),
                              inertia=sympy.diag(0, m * d**2 / 12, m * d**2 / 12),
                              name=f"link {k}"))
        else:
            links.append(Link("R", a=d, d=beside, mass=m, com=(-(1 - r) * d, 0, 0),
                              inertia=thin_rod_along_z(m, rod) if rod != 0 else None,
                              name=f"link {k}"))
    gravity = [0, 0, 0]
    gravity[axis] = gravity_sign * (g + lift)   # axis=1: along y0, the wrong axis (the mistake)
    return Robot(links, gravity=tuple(gravity), name="two-link arm on the ceiling")


def _assert_ceiling_arm(parts: dict, rho, lift, offset, rod) -> None:
    """The keys of Probs. 3.16 and 3.17 (``parts``: A, J, D, h, c, v_dot0, I, s, p, tau as
    expressions in the symbols and the givens) equal dynlab's numbers for the arm at two corners
    of the grids: its link transformation matrices, the pseudo-inertia matrices and inertia
    tensors of its links, its numeric L-E equations at a posture, the base acceleration its N-E
    recursion starts link 1 from, and its N-E torques at a state."""
    m1, m2, d1, d2, g = positive("m1", "m2", "d1", "d2", "g")
    numbers = {m1: 1.5, m2: 0.7, d1: 0.4, d2: 0.3, g: G}
    posture, rates, accelerations = [0.7, -1.9], [0.6, -1.1], [0.4, 0.9]
    state = {**numbers, q1: posture[0], q2: posture[1], qd[0]: rates[0], qd[1]: rates[1],
             qdd[0]: accelerations[0], qdd[1]: accelerations[1]}
    for end in ("low", "high"):
        values = {name: float(spec[end]) for name, spec in CEILING_ARM.items()}
        at = {**state, rho[0]: values["rho1"], rho[1]: values["rho2"], lift: values["a_lift"],
              offset: values["e"], rod: values["w"]}
        arm = ceiling_arm(G + values["a_lift"], rho=(values["rho1"], values["rho2"]),
                          offset=values["e"], rod=values["w"]).subs(numbers)

        def number(expr):
            return np.array(sympy.Matrix(expr).xreplace(at), dtype=float)
        for k, link in enumerate(arm.numeric()[0]):
            assert np.allclose(number(parts["A"][k]),
                               np.array(link_transform(arm, posture, k + 1), dtype=float),
                               atol=1e-12), (values, k)
            assert np.allclose(number(parts["J"][k]), np.array(pseudo_inertia(link), dtype=float),
                               atol=1e-12), (values, k)
            assert np.allclose(number(parts["I"][k]), np.asarray(link.inertia, dtype=float),
                               atol=1e-12), (values, k)
            assert np.allclose(number(parts["s"][k]).ravel(), np.asarray(link.com, dtype=float),
                               atol=1e-12)
            assert np.allclose(number(parts["p"][k]).ravel(),
                               np.asarray(link_offset_in_own_frame(link, posture[k]),
                                          dtype=float), atol=1e-12)
        eom = equations_of_motion(arm, posture, rates)
        for name in ("D", "h", "c"):
            assert np.allclose(number(parts[name]).ravel(),
                               np.array(getattr(eom, name), dtype=float).ravel(),
                               rtol=1e-12, atol=1e-12), (values, name)
        tau = inverse_dynamics(arm, posture, rates, accelerations, method="newton_euler")
        assert np.allclose(number(parts["tau"]).ravel(), np.asarray(tau, dtype=float).ravel(),
                           rtol=1e-12, atol=1e-12), values
        _, trace = inverse_dynamics(arm, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], variant="link",
                                    trace=True)
        assert np.allclose(np.asarray(trace[1]["v_dot"], dtype=float).ravel(),
                           number(parts["v_dot0"]).ravel(), atol=1e-12), values


#: The given of Prob. 3.13(b), drawn per student: the four explanations (in the key's order A to
#: D) are shown to each student turned by this many places (dynlab.grading.variants.turned), so
#: the right one stands under a letter of the student's own, and under another letter at the
#: graded value (every turn puts it elsewhere)
EXPLANATIONS_TURN = {"turn": {"low": 0, "high": 3, "step": 1, "unit": "places",
                              "text": "how far your list of explanations is turned"}}


def keys():
    keys = []
    m1, m2, d1, d2, g = positive("m1", "m2", "d1", "d2", "g")
    symbols = {"m1": "positive", "m2": "positive", "d1": "positive", "d2": "positive",
               "g": "positive", **JOINTS2}
    # the student's arm: masses at rho_i d_i from joint i, in a lift accelerating up by a_lift,
    # link 2 hanging e beside link 1, each mass a thin rod of length w along its joint axis
    rho = tuple(parameter_symbol(n, CEILING_ARM[n]) for n in ("rho1", "rho2"))
    lift = parameter_symbol("a_lift", CEILING_ARM["a_lift"])
    offset = parameter_symbol("e", CEILING_ARM["e"])
    rod = parameter_symbol("w", CEILING_ARM["w"])
    given = {"parameters": CEILING_ARM, "shared": CEILING_SHARED}
    yours = "given[\"rho1\"], given[\"rho2\"]"
    arm = ceiling_arm(rho=rho, lift=lift, offset=offset, rod=rod)
    # Prob. 3.16(a): the link transformation matrices (Eq. (3.2-5)) of the student's arm
    A = [link_transform(arm, list(q), i) for i in (1, 2)]
    printed = [link_transform(ceiling_arm(), list(q), i) for i in (1, 2)]
    other_side = [link_transform(ceiling_arm(offset=-offset), list(q), i) for i in (1, 2)]
    a_mistakes = [
        {"part": "A", "value": [a.T for a in A],
         "message": "each A_i is transposed: the columns of the rotation part are the new axes "
                    "x_i, y_i, z_i in frame i-1, and the position sits in the last column (Fu, "
                    "Gonzalez & Lee, Eq. (3.2-5))"},
        {"part": "A", "value": printed,
         "message": "that is the printed arm, both links in one plane; your link 2 hangs "
                    "e = given[\"e\"] beside link 1 along z1: the offset d of joint 2, the "
                    "translation along z_{i-1} in Eq. (3.2-5)"},
        {"part": "A", "value": other_side,
         "message": "link 2 hangs on the +z1 side of link 1 (toward you): the offset is +e"},
        {"part": "A", "value": [printed[0] + (A[1] - printed[1]), printed[1]],
         "message": "the offset belongs to joint 2: it is the d of 1A2, along z1 from frame 1 "
                    "(frame 1 lies in link 1's plane)"}]
    keys.append(make_key(
        "3.16a", notebook=NOTEBOOK, title="Prob. 3.16(a): link transformation matrices",
        points=1, symbols=symbols, angles=("q1", "q2"),
        parts=[{"name": "A", "value": [A[0], A[1]]}], mistakes=a_mistakes, **given))
    at_ends = ceiling_arm(lift=lift, offset=offset, rod=rod)       # the printed rho = 1
    from_far_end = ceiling_arm(rho=(1 - rho[0], 1 - rho[1]), lift=lift, offset=offset, rod=rod)
    rods_arm = ceiling_arm(rods=True, lift=lift, offset=offset)
    data = arm.symbolic()[0]

    def pseudo(robot):
        return [sympy.Matrix(pseudo_inertia(link)) for link in robot.symbolic()[0]]
    J = pseudo(arm)
    ahead = [sympy.Matrix(pseudo_inertia(Link("R", a=d, mass=m, com=((1 - r) * d, 0, 0),
                                              inertia=thin_rod_along_z(m, rod))))
             for m, d, r in ((m1, d1, rho[0]), (m2, d2, rho[1]))]
    points_arm = ceiling_arm(rho=rho, lift=lift, offset=offset)         # the rods forgotten
    # the tensor's moments written into J where Eq. (3.2-18) has the second moments
    moments_in_J = [j + sympy.diag(*thin_rod_along_z(m, rod).diagonal(), 0)
                    for j, m in zip(pseudo(points_arm), (m1, m2))]
    rod_moment = "m_i w**2/12 with w = given[\"w\"]"
    j_mistakes = [
        {"part": "J", "value": pseudo(at_ends),
         "message": "those are the masses at the link ends, at the origins of frames 1 and 2 "
                    "(the printed problem, rho = 1); yours sit at rho_i d_i from joint i, "
                    + yours},
        {"part": "J", "value": pseudo(rods_arm),
         "message": "those are the uniform rods of Fu, Gonzalez & Lee, Sec. 3.2.6; here each "
                    "mass is lumped at one point of its link"},
        {"part": "J", "value": pseudo(from_far_end),
         "message": "rho_i is measured from joint i, at the near end of link i: the mass is "
                    "rho_i d_i from joint i, so (1 - rho_i) d_i from the origin of frame i at the "
                    "far end"},
        {"part": "J", "value": ahead,
         "message": "the centre of mass lies between joint i and the origin of frame i (the "
                    "far end of link i): on the -x_i side of that origin"},
        {"part": "J", "value": pseudo(points_arm),
         "message": "those are point masses; each of yours is a thin rod along its joint axis "
                    f"z_i, so J_i's int z**2 dm (Eq. (3.2-17)) is {rod_moment}"},
        {"part": "J", "value": moments_in_J,
         "message": "the diagonal of J_i holds the second moments int x**2 dm, int y**2 dm, "
                    "int z**2 dm (Eq. (3.2-17)), not the moments of inertia: J_11 = (-I_xx + "
                    "I_yy + I_zz)/2 + m x_bar**2 (Eq. (3.2-18))"}]
    keys.append(make_key(
        "3.16b", notebook=NOTEBOOK, title="Prob. 3.16(b): pseudo-inertia matrices", points=1,
        symbols=symbols, parts=[{"name": "J", "value": [J[0], J[1]]}], mistakes=j_mistakes,
        **given))
    le = equations_of_motion(arm, method="lagrange_euler")
    wrong = {"ends": equations_of_motion(at_ends, method="lagrange_euler"),
             "rods": equations_of_motion(rods_arm, method="lagrange_euler"),
             "far": equations_of_motion(from_far_end, method="lagrange_euler")}
    up = equations_of_motion(ceiling_arm(rho=rho, lift=lift, gravity_sign=-1),
                             method="lagrange_euler")
    still = equations_of_motion(ceiling_arm(rho=rho), method="lagrange_euler")
    falling = equations_of_motion(ceiling_arm(rho=rho, lift=-lift), method="lagrange_euler")
    sideways = [equations_of_motion(ceiling_arm(rho=rho, lift=lift, gravity_sign=sign, axis=1),
                                    method="lagrange_euler") for sign in (1, -1)]
    numeric_g = le.c.subs(g, sympy.Float(G))
    why = {"ends": "those are the masses at the link ends (the printed problem, rho = 1); "
                   f"yours sit at rho_i d_i from joint i, {yours}",
           "rods": "that is for uniform rods; here each mass is lumped at one point of its link",
           "far": "rho_i is measured from joint i: the mass sits rho_i d_i from joint i, not "
                  "from the far end of the link"}
    lift_words = ("the arm hangs in a lift that accelerates UP: in its frame every mass also "
                  "feels the inertial force -m a_base, so gravity counts as g + a_lift, with "
                  "a_lift = given[\"a_lift\"]")
    c_mistakes = [
        {"part": "c", "value": up.c,
         "message": "gravity points the wrong way: x0 points DOWN (to the floor), so "
                    "g = (g + a_lift, 0, 0, 0) in Eq. (3.2-22); the arm hangs at q = (0, 0)"},
        {"part": "c", "value": still.c, "message": "that is c on a ceiling at rest; " + lift_words},
        {"part": "c", "value": falling.c,
         "message": "the lift's acceleration has the wrong sign: it accelerates UP, which adds "
                    "to gravity (g + a_lift), as for a person standing in it"},
        {"part": "c", "value": numeric_g,
         "message": "keep gravity as the symbol g (the checker tries many values of it), not "
                    "9.8062"}] + [
        {"part": "c", "value": turned.c,
         "message": "gravity acts along the wrong axis (sines and cosines swapped): it acts "
                    "along +x0 here, since x0 points DOWN, to the floor; the arm hangs at "
                    "q = (0, 0)"} for turned in sideways]
    lagrange_mistakes = [{"part": part, "value": getattr(wrong[kind], part),
                          "message": why[kind]}
                         for kind in ("ends", "rods", "far") for part in ("D", "h", "c")]
    keys.append(make_key(
        "3.16c", notebook=NOTEBOOK, title="Prob. 3.16(c): D, h and c by Lagrange-Euler",
        points=3, symbols=symbols, angles=("q1", "q2"), split=SPLIT2,
        parts=[{"name": "D", "value": le.D, "structure": "symmetric"},
               {"name": "h", "value": le.h},
               {"name": "c", "value": le.c,
                "hints": {"sign": "gravity points along +x0 here (x0 points down, to the "
                                  "floor), so the L-E row vector is g = (g + a_lift, 0, 0, 0)"}}],
        mistakes=lagrange_mistakes + c_mistakes, **given))
    # Prob. 3.17: Newton-Euler
    zero = sympy.Matrix([0, 0, 0])
    v_dot0 = -sympy.Matrix(arm.gravity)                # Eq. (3.3-46): the base accelerates
    v_mistakes = [
        {"part": "v_dot0", "value": sympy.Matrix(arm.gravity),
         "message": "Fu's N-E gives the base the acceleration OPPOSITE to gravity, v_dot0 = -g "
                    "(Eq. (3.3-46), Prob. 3.13): with x0 pointing down, (-g, 0, 0) on a ceiling "
                    "at rest"},
        {"part": "v_dot0", "value": sympy.Matrix([-g, 0, 0]),
         "message": "that is the base of an arm at rest; yours accelerates with the lift, up "
                    "(along -x0) by a_lift = given[\"a_lift\"], and -g adds to that"},
        {"part": "v_dot0", "value": sympy.Matrix([-g + lift, 0, 0]),
         "message": "the lift accelerates UP, along -x0 (x0 points down): its acceleration "
                    "(-a_lift, 0, 0) adds to -g"},
        {"part": "v_dot0", "value": sympy.Matrix([0, 0, g + lift]),
         "message": "(0, 0, |g|) is the level system with z0 up; here x0 points down, along "
                    "gravity"}]
    keys.append(make_key(
        "3.17a", notebook=NOTEBOOK, title="Prob. 3.17(a): initial conditions of the N-E "
        "recursion", points=1, symbols=symbols,
        parts=[{"name": "omega0", "value": zero},
               {"name": "omega_dot0", "value": zero},
               {"name": "v_dot0", "value": v_dot0}],
        mistakes=v_mistakes, **given))
    # Prob. 3.17(b): each mass is a thin rod along z_i, whose tensor about its centre, in the
    # axes of frame i, is the same at every posture (the text after Eq. (3.3-59))
    I = [sympy.Matrix(link.inertia) for link in data]
    along_link = [sympy.diag(0, m * rod**2 / 12, m * rod**2 / 12) for m in (m1, m2)]
    parallel = [I[k] + shift(m, link.com) for k, (m, link) in enumerate(zip((m1, m2), data))]
    i_mistakes = [
        {"part": "I", "value": [sympy.zeros(3, 3), sympy.zeros(3, 3)],
         "message": "a point mass has no inertia about itself, but each of yours is a thin rod "
                    f"of length w along its joint axis z_i: {rod_moment} about the axes across "
                    "it"},
        {"part": "I", "value": along_link,
         "message": "that is a rod along the link (x_i); yours lies along the joint axis z_i, "
                    "about which a thin rod has no inertia"},
        {"part": "I", "value": [sympy.diag(m * rod**2 / 3, m * rod**2 / 3, 0) for m in (m1, m2)],
         "message": "m w**2/3 is a rod's moment about its END; I_i is about the centre of mass "
                    "(Eq. (3.3-55))"},
        {"part": "I", "value": parallel,
         "message": "that is the tensor about the origin of frame i; Eq. (3.3-55) takes it "
                    "about the centre of mass, which the rod's centre is"},
        {"part": "I", "value": [sympy.diag(0, m * d**2 / 12, m * d**2 / 12)
                                for m, d in ((m1, d1), (m2, d2))],
         "message": "those are uniform links; the masses are thin rods of length w along z_i"},
        {"part": "I", "value": [sympy.diag(0, 0, m * rod**2 / 12) for m in (m1, m2)],
         "message": "that is the 3x3 block of J_i, the second moments; the inertia tensor is "
                    "tr(S)*E - S of that block"}]
    keys.append(make_key(
        "3.17b", notebook=NOTEBOOK, title="Prob. 3.17(b): inertia tensors iR0 I_i 0R_i",
        points=1, symbols=symbols, parts=[{"name": "I", "value": I}], mistakes=i_mistakes,
        **given))
    s = [sympy.Matrix(link.com) for link in data]
    p = [sympy.Matrix(link_offset_in_own_frame(link, qi)) for link, qi in zip(data, q)]
    s_mistakes = []
    for k, (d, r) in enumerate(((d1, rho[0]), (d2, rho[1]))):
        name = f"s{k + 1}"
        s_mistakes += [
            {"part": name, "value": zero,
             "message": "s_i = 0 puts the mass at the origin of frame i, the far end of link i "
                        "(the printed problem, rho = 1); yours sits at rho_i d_i from joint i, "
                        + yours},
            {"part": name, "value": sympy.Matrix([-d / 2, 0, 0]),
             "message": "that is the middle of the link (a uniform rod); the mass sits at "
                        "rho_i d_i from joint i"},
            {"part": name, "value": sympy.Matrix([-r * d, 0, 0]),
             "message": "s_i is measured from the origin of frame i, at the FAR end of link i; "
                        "rho_i d_i is measured from joint i, at the near end"},
            {"part": name, "value": -s[k],
             "message": "the mass lies between joint i and the origin of frame i: on the -x_i "
                        "side of that origin"},
            {"part": name, "value": sympy.Matrix([r * d, 0, 0]),
             "message": "s_i points from the origin of frame i, at the far end of link i, back "
                        "to the mass: along -x_i, by (1 - rho_i) d_i"}]
    p_mistakes = [
        {"part": "p1", "value": A[0][:3, 3],
         "message": "iR0 p*_i is expressed in frame i's own axes: "
                    "(a_i, d_i sin(alpha_i), d_i cos(alpha_i)) (Eq. (3.3-59)), a "
                    "constant; (d1 cos q1, d1 sin q1, 0) is p*_1 in frame 0"},
        {"part": "p2", "value": A[1][:3, 3],
         "message": "iR0 p*_i is expressed in frame i's own axes: "
                    "(a_i, d_i sin(alpha_i), d_i cos(alpha_i)) (Eq. (3.3-59)), a "
                    "constant; (d2 cos q2, d2 sin q2, e) is p*_2 in frame 1"},
        {"part": "p2", "value": sympy.Matrix([d2, 0, 0]),
         "message": "that is p*_2 of the printed arm, both links in one plane; your link 2 "
                    "hangs e = given[\"e\"] beside link 1, the offset d_2 of joint 2 in "
                    "(a_i, d_i sin(alpha_i), d_i cos(alpha_i)) (Eq. (3.3-59))"},
        {"part": "p2", "value": sympy.Matrix([d2, 0, -offset]),
         "message": "link 2 hangs on the +z1 side of link 1 (toward you): the offset is +e"}]
    keys.append(make_key(
        "3.17c", notebook=NOTEBOOK, title="Prob. 3.17(c): the constant vectors iR0 s_i and "
        "iR0 p*_i", points=1, symbols=symbols, angles=("q1", "q2"),
        parts=[{"name": "s1", "value": s[0]},
               {"name": "s2", "value": s[1]},
               {"name": "p1", "value": p[0]},
               {"name": "p2", "value": p[1]}],
        mistakes=s_mistakes + p_mistakes, **given))
    tau = inverse_dynamics(arm, list(q), list(qd), list(qdd), method="newton_euler")
    assert le.compare(equations_of_motion(arm, method="newton_euler"))
    torques = {kind: inverse_dynamics(robot, list(q), list(qd), list(qdd)) for kind, robot in (
        ("up", ceiling_arm(rho=rho, lift=lift, gravity_sign=-1)), ("ends", at_ends),
        ("rods", rods_arm), ("far", from_far_end), ("still", ceiling_arm(rho=rho)),
        ("falling", ceiling_arm(rho=rho, lift=-lift)))}
    tau_mistakes = [
        {"part": "tau", "value": torques["up"],
         "message": "gravity enters the wrong way: v_dot0 = -(g + a_lift, 0, 0) with x0 "
                    "pointing down (Eq. (3.3-46))"},
        {"part": "tau", "value": torques["ends"],
         "message": "those are the torques for masses at the link ends (the printed problem, "
                    f"rho = 1); yours sit at rho_i d_i from joint i, {yours}"},
        {"part": "tau", "value": torques["rods"],
         "message": "those are the torques for uniform rods; the masses are lumped points here"},
        {"part": "tau", "value": torques["far"],
         "message": "rho_i is measured from joint i: the mass sits rho_i d_i from joint i, not "
                    "from the far end of the link"},
        {"part": "tau", "value": torques["still"],
         "message": "those are the torques on a ceiling at rest: start the recursion from the "
                    "lift's acceleration too, v_dot0 = -(g + a_lift, 0, 0)"},
        {"part": "tau", "value": torques["falling"],
         "message": "the lift's acceleration has the wrong sign: it accelerates UP, so "
                    "v_dot0 = -(g + a_lift, 0, 0)"}]
    keys.append(make_key(
        "3.17d", notebook=NOTEBOOK, title="Prob. 3.17(d): the joint torques by Newton-Euler",
        points=2, symbols=symbols, angles=("q1", "q2"), split=SPLIT2,
        parts=[{"name": "tau", "value": tau}], mistakes=tau_mistakes, **given))
    # every expression is dynlab's number at the grids' ends, and every typical mistake differs
    # from its answer at every student's values
    _assert_ceiling_arm({"A": A, "J": J, "D": le.D, "h": le.h, "c": le.c, "v_dot0": v_dot0,
                         "I": I, "s": s, "p": p, "tau": tau}, rho, lift, offset, rod)
    generic = [{m1: 1.3, m2: 0.8, d1: 0.45, d2: 0.35, g: 9.7, q1: 0.4, q2: 2.2, qd[0]: 0.7,
                qd[1]: -1.3, qdd[0]: 0.9, qdd[1]: -0.6},
               {m1: 0.6, m2: 1.9, d1: 0.25, d2: 0.6, g: 10.3, q1: -1.1, q2: 0.8, qd[0]: -0.5,
                qd[1]: 0.9, qdd[0]: -0.4, qdd[1]: 1.2}]
    # (J's rod term, m w**2/12, is at least 1/1200 of its mass entry m)
    for question, answer, mistakes in (
            ("3.16a", {"A": A}, a_mistakes), ("3.16b", {"J": J}, j_mistakes),
            ("3.17b", {"I": I}, i_mistakes),
            ("3.16c", {"D": le.D, "h": le.h, "c": le.c}, lagrange_mistakes + c_mistakes),
            ("3.17a", {"v_dot0": v_dot0}, v_mistakes),
            ("3.17c", {"s1": s[0], "s2": s[1], "p1": p[0], "p2": p[1]}, s_mistakes + p_mistakes),
            ("3.17d", {"tau": tau}, tau_mistakes)):
        check_mistakes(question, CEILING_ARM, answer, mistakes, generic)
    keys.append(sloping_ceiling_key())
    keys.append(make_choice_key(
        "3.13b", notebook=NOTEBOOK, title="Prob. 3.13(b): why the signs differ", points=1,
        options=("A", "B", "C", "D"), answer="B", parameters=EXPLANATIONS_TURN,
        messages={"A": "no sign error: both formulations give the same torques (your torques "
                       "of Prob. 3.17(d) are graded against keys derived by both)",
                  "C": "both formulations use the same base frame, z0 up",
                  "D": "transposing a vector does not change the sign of its entries",
                  "B": "L-E writes gravity itself into the potential energy, N-E accelerates the "
                       "base by -g: the same gravity torques either way"}))
    return keys


#: The givens of Prob. 3.13(a) on this arm, drawn per student (:mod:`dynlab.grading.variants`):
#: the local acceleration of gravity (9.78 m/s^2 at the equator to 9.83 at the poles) and the
#: slope of the ceiling the arm hangs from
SLOPING_CEILING = {
    "g": {"low": 9.78, "high": 9.83, "step": 0.01, "unit": "m/s^2",
          "text": "the acceleration of gravity where the arm hangs"},
    "tilt": {"low": 5, "high": 45, "step": 5, "unit": "degrees",
             "text": "the slope of the ceiling: frame 0 turned this far about z0"}}


def sloping_ceiling_gravity(g, tilt):
    """Gravity in frame 0 of the arm hanging from a ceiling that slopes by ``tilt`` (radians):
    frame 0 is the level ceiling's frame (x0 straight down) turned by ``tilt`` about z0,
    R = Rz(tilt) (the rotation of one DH link, Fu, Gonzalez & Lee, Eq. (3.2-5)), so the
    gravity (g, 0, 0) of the level frame reads R^T (g, 0, 0) in it."""
    R = sympy.Matrix(rotations(Robot([Link("R", name="ceiling")]), [tilt])[1])
    return list(R.T * sympy.Matrix([g, 0, 0]))


def sloping_ceiling_key():
    """Prob. 3.13(a) on the arm of Prob. 3.16 hanging from a sloping ceiling, at the student's
    local g and slope: L-E's row vector g (Eq. (3.2-22)) and N-E's v_dot0 = -g (Eq. (3.3-46))."""
    g, tilt = sympy.symbols("g tilt")                 # the givens (read by name)
    gravity = sloping_ceiling_gravity(g, sympy.pi * tilt / 180)
    g_row = gravity + [0]                             # Eq. (3.2-22): (gx, gy, gz, 0)
    v0 = [-x for x in gravity]                        # Eq. (3.3-46): the base accelerates up
    # dynlab's arm on that ceiling, at both ends of the grids: it hangs at rest straight down,
    # theta = (-tilt, 0), and N-E starts link 1 (at theta1 = 0, at rest) from v_dot0
    for values in ({"g": 9.78, "tilt": 5.0}, {"g": 9.83, "tilt": 45.0}):
        here = [float(x.subs(values)) for x in gravity]
        arm = ceiling_arm().replace(gravity=tuple(here))
        c = equations_of_motion(arm, method="lagrange_euler").c
        m1, m2, d1, d2 = positive("m1", "m2", "d1", "d2")
        hanging = {q1: -math.radians(values["tilt"]), q2: 0, m1: 1.5, m2: 0.7, d1: 0.4, d2: 0.3}
        assert all(abs(float(x.subs(hanging))) < 1e-9 for x in c)
        _, trace = inverse_dynamics(arm, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], variant="link",
                                    trace=True)
        assert np.allclose(np.asarray(trace[1]["v_dot"], dtype=float).ravel(),
                           [float(x.subs(values)) for x in v0], atol=1e-12)
    level = sloping_ceiling_gravity(g, 0)
    turned = sloping_ceiling_gravity(g, -sympy.pi * tilt / 180)     # R g instead of R^T g
    in_radians = sloping_ceiling_gravity(g, tilt)
    standard = sloping_ceiling_gravity(sympy.Float(G), sympy.pi * tilt / 180)
    text_level = list(puma560(joints=1).gravity)      # the text's level system, z0 up
    text_level = [x / G * g for x in text_level]
    mistakes = [
        {"part": "g_LE", "value": [-x for x in g_row],
         "message": "in L-E, g is the acceleration of gravity itself, pointing DOWN: the "
                    "potential energy P = -m g r (Eq. (3.2-21)) must grow with height"},
        {"part": "v_dot0_NE", "value": [-x for x in v0],
         "message": "N-E accelerates the base UPWARD, opposite to gravity: v_dot0 = -g "
                    "(Eq. (3.3-46))"},
        *both_vectors(level, "that is the level ceiling's gravity: on your sloping ceiling frame "
                     "0 is turned about z0, so gravity has a y0 component too",
                     "that is the level ceiling's: on your sloping ceiling frame 0 is turned "
                     "about z0, so the base's acceleration has a y0 component too"),
        *both_vectors(turned, "the y0 component has the wrong sign: frame 0 is turned by +tilt "
                      "about z0, so gravity, fixed in the room, is turned by -tilt in it (R^T g, "
                      "not R g)",
                      "the y0 component has the wrong sign: frame 0 is turned by +tilt about "
                      "z0, so the room's vertical is turned by -tilt in it (R^T, not R)"),
        *both_vectors(in_radians, "the slope was used in degrees where radians belong: convert "
                      "it (math.radians) before taking sines and cosines"),
        *both_vectors(standard, "that is standard gravity, 9.8062 m/s^2; use your local g, "
                      "given[\"g\"]"),
        *both_vectors(text_level, "that is the level system of the text, z0 up; here x0 points "
                      "away from the ceiling, which slopes")]
    # every typical mistake is told from the answer wherever a student's values fall (standard
    # gravity is at least 0.039 % from a local g of the grid)
    check_mistakes("3.13a", SLOPING_CEILING, {"g_LE": g_row, "v_dot0_NE": v0}, mistakes)
    return make_key(
        "3.13a", notebook=NOTEBOOK, title="Prob. 3.13(a): the gravity vectors of L-E and N-E "
        "for the arm on a sloping ceiling", points=1, kind="numeric",
        parameters=SLOPING_CEILING,
        parts=[{"name": "g_LE", "value": g_row}, {"name": "v_dot0_NE", "value": v0}],
        mistakes=mistakes)


def both_vectors(gravity, message: str, base_message: str | None = None) -> list:
    """The same slip in both parts of 3.13a: ``gravity`` as L-E's row vector g (with its 0) and,
    negated, as N-E's base acceleration v_dot0 = -g (``base_message``, else ``message``)."""
    return [{"part": "g_LE", "value": list(gravity) + [0], "message": message},
            {"part": "v_dot0_NE", "value": [-x for x in gravity],
             "message": base_message or message}]
