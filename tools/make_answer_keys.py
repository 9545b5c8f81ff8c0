"""Build the answer keys of the graded exercises from dynlab's own derivations (no answer is typed
here: each reference is derived, and the typical mistakes are derived the same way from a wrong
model or a wrong procedure): the instructor's keys, ``solutions/answer_keys/*.json``, whose
references are formulas in each question's givens, and the keys shipped with dynlab,
``dynlab/answer_keys/*.json``, the same keys at the practice values only
(:func:`dynlab.grading.variants.at_practice`).

    python tools/make_answer_keys.py            # rewrite both
    python tools/make_answer_keys.py --check    # exit 1 if grading would differ with the
                                                # committed keys (key_differences)
    python tools/make_answer_keys.py 02_two_link_arm_on_the_ceiling   # one notebook's keys
    python tools/make_answer_keys.py --out course/keys   # the instructor's keys and the course
                                                         # secret, for marks

The keys store each reference sealed (:mod:`dynlab.grading.keys`); the checker evaluates it at points
drawn fresh at every check.  One JSON file per notebook of ``solutions/`` (and ``exercises/``).
Each key also gets its question's hint and takeaway from ``tools/question_notes.md`` (or, for a
notebook still in the older form, the takeaway from the ``solution_only`` markdown cell after its
check cell), sealed the same way.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
import sympy

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from dynlab import Link, Robot, equations_of_motion, inverse_dynamics  # noqa: E402
from dynlab.model import vectors as V  # noqa: E402
from dynlab.dynamics.inverse import probe  # noqa: E402
from dynlab.engine.opcount import generic_chain  # noqa: E402
from dynlab.teaching.textbook.printed_counts import table_3_5  # noqa: E402
from dynlab.grading import KEY_DIRECTORY, make_choice_key, make_key, write_keys  # noqa: E402
from dynlab.grading.keys import FORMATIVE, SUMMATIVE  # noqa: E402
from dynlab.grading.variants import at_practice  # noqa: E402
from dynlab.grading.keys import (NUMERIC_TOLERANCE, TOLERANCE, fresh_points,  # noqa: E402
                                 parameter_symbol)
from dynlab.grading.authoring import seal_notes  # noqa: E402
from dynlab.grading.sealing import unseal  # noqa: E402
from dynlab.model.kinematics import (link_offset_in_own_frame, link_transform,  # noqa: E402
                                     rotations, tool_jacobian)
from dynlab.formulations.lagrange_euler import pseudo_inertia  # noqa: E402
from dynlab.model.link import G  # noqa: E402
from dynlab.model.robot import joint_symbols  # noqa: E402
from dynlab.model.robots import planar_2r, puma560  # noqa: E402
from dynlab.model.symbolic import compact, is_zero  # noqa: E402
from library_answers import with_refusals  # noqa: E402  (tools/library_answers.py)

#: The installed package (the instructor's keys are never written inside it).
PACKAGE = KEY_DIRECTORY.parent
#: The instructor's keys of the workbook (no course secret): outside the package, with the
#: solutions (the students' image and the wheel hold neither).
INSTRUCTOR_KEYS = ROOT / "solutions" / "answer_keys"

FRAMES = "01_frames_and_inertia"
CEILING = "02_two_link_arm_on_the_ceiling"
PROBING = "03_probing_and_other_arms"
STRUCTURE = "04_structure_of_the_model"

q, qd, qdd = joint_symbols(2)
q1, q2 = q
JOINTS2 = {"q1": "real", "q2": "real", "qd1": "real", "qd2": "real", "qdd1": "real",
           "qdd2": "real"}
SPLIT2 = ("qd1", "qd2", "qdd1", "qdd2")


def positive(*names):
    return tuple(sympy.Symbol(n, positive=True) for n in names)


def matrix(rows):
    return sympy.Matrix(rows)


# -- 01: moving frames and inertia tensors --------------------------------------------------------
def box_inertia_about_centre(M, a, b, c):
    """Fu, Gonzalez & Lee's inertia tensor I_jk = int [delta_jk |r|^2 - x_j x_k] dm (text before Eq. (3.2-18))
    of a uniform block of sides 2a, 2b, 2c about its centre, by integration."""
    x, y, z = sympy.symbols("x y z", real=True)
    density = M / (8 * a * b * c)
    r = (x, y, z)
    tensor = sympy.zeros(3, 3)
    for j in range(3):
        for k in range(3):
            integrand = (sum(v**2 for v in r) if j == k else 0) - r[j] * r[k]
            tensor[j, k] = sympy.integrate(integrand * density, (x, -a, a), (y, -b, b),
                                           (z, -c, c))
    return tensor


def inertia_about_frame_origin(link_data):
    """The inertia tensor about the origin of frame i from dynlab's pseudo-inertia J_i
    (Fu, Gonzalez & Lee, Eqs. (3.2-17), (3.2-18)): with S the 3x3 block (int r r^T dm), I = tr(S) E - S."""
    J = sympy.Matrix(pseudo_inertia(link_data))
    S = J[:3, :3]
    return sympy.expand(S.trace() * sympy.eye(3) - S)


#: The givens of Probs. 3.5 to 3.8, one placement per student for the cube and the block (the
#: four questions ask about the same two bodies, placed the same way, so they share the values:
#: ``variant("3.5")``): where the body's centre of mass sits in (x0, y0, z0), counted in
#: half-sides, at (dx*a, dy*a, dz*a) for the cube and (dx*a, dy*b, dz*c) for the block.  The
#: book's body has its corner O at the origin and fills the positive octant, (1, 1, 1), which is
#: never drawn: each student's body is slid along x0, away from the origin (dx >= 2), and lies on
#: the side of the planes x0z0 and x0y0 that the signs of dy and dz say (the signs of the
#: products of inertia are a classic slip)
PLACEMENT = {
    "dx": {"low": 2, "high": 5, "step": 1, "unit": "half-sides",
           "text": "where the centre of mass sits along x0: x = dx*a"},
    "dy": {"low": -3, "high": 3, "step": 2, "unit": "half-sides",
           "text": "along y0: y = dy*a (cube), dy*b (block); negative: on the -y0 side"},
    "dz": {"low": -3, "high": 3, "step": 2, "unit": "half-sides",
           "text": "along z0: z = dz*a (cube), dz*c (block); negative: on the -z0 side"}}
#: The name the four questions on the cube and the block share their givens under
PLACEMENT_SHARED = "3.5"


def shift(mass, d):
    """The parallel-axis term M(|d|^2 E - d d^T) (the parallel-axis theorem, which Lynch & Park
    state as Steiner's theorem, Sec. 8.2.1): what the tensor about a point O adds to the one
    about the centre of mass, d from O to the centre."""
    d = sympy.Matrix(d)
    return mass * ((d.T * d)[0] * sympy.eye(3) - d * d.T)


def placed_body(cube: bool) -> dict:
    """The cube (side 2a) or the block (sides 2a, 2b, 2c) of Probs. 3.5 and 3.6 at the student's
    placement: its tensor about its centre by integration (the definition before Fu, Gonzalez &
    Lee's Eq. (3.2-18)), about the origin O of (x0, y0, z0) from dynlab's pseudo-inertia of a
    link that carries the body (Eqs. (3.2-17), (3.2-18)), checked equal to the definition
    integrated over the body's own box; and the book's body, its corner at O."""
    M, a = positive("M", "a")
    b, c = (a, a) if cube else positive("b", "c")
    dx, dy, dz = (parameter_symbol(name, PLACEMENT[name]) for name in ("dx", "dy", "dz"))
    centre = box_inertia_about_centre(M, a, b, c)
    d = (dx * a, dy * b, dz * c)                      # from O to the centre of mass

    def about_origin(com):
        link = Robot([Link("R", mass=M, com=com, inertia=centre, name="body")])
        return inertia_about_frame_origin(link.symbolic()[0][0])
    about_O = about_origin(d)
    x, y, z = sympy.symbols("x y z", real=True)
    direct = sympy.Matrix(3, 3, lambda j, k: sympy.integrate(
        ((x**2 + y**2 + z**2) if j == k else 0) - (x, y, z)[j] * (x, y, z)[k],
        (x, (dx - 1) * a, (dx + 1) * a), (y, (dy - 1) * b, (dy + 1) * b),
        (z, (dz - 1) * c, (dz + 1) * c)) * M / (8 * a * b * c))
    assert is_zero(direct - about_O)
    symbols = {"M": "positive", "a": "positive"} if cube else \
        {"M": "positive", "a": "positive", "b": "positive", "c": "positive"}
    return {"M": M, "a": a, "b": b, "c": c, "d": d, "centre": centre, "about_O": about_O,
            "book": about_origin((a, b, c)), "symbols": symbols, "at": (dx, dy, dz)}


def _box_by_quadrature(mass, low, high, turn=np.eye(3)) -> np.ndarray:
    """The inertia tensor about the origin of a uniform box ``low <= r <= high`` (body axes),
    turned by the rotation matrix ``turn``: the definition int (|r|^2 E - r r^T) dm summed by
    Gauss-Legendre quadrature over the box (3 points a side: exact for the quadratic integrand),
    every point carried into the reference axes by ``turn`` first."""
    nodes, weights = np.polynomial.legendre.leggauss(3)
    low, high = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
    tensor = np.zeros((3, 3))
    for i, j, k in itertools.product(range(3), repeat=3):
        r = turn @ (low + (high - low) * (nodes[[i, j, k]] + 1) / 2)
        tensor += weights[i] * weights[j] * weights[k] / 8 * (r @ r * np.eye(3) - np.outer(r, r))
    return mass * tensor


def _assert_placed(body: dict, turned, alpha, theta) -> None:
    """The keys of Probs. 3.5 to 3.8 (the tensor about O, and turned) equal the definition summed
    by quadrature over the body's box, at the student's placement (three points of the grids:
    both ends and one between, every sign), with numbers for the mass, the sides and the angles;
    the turn is Rz(alpha) Rx(theta) written out here in numbers."""
    numbers = {body["M"]: 1.3, body["a"]: 0.4}
    if body["b"] != body["a"]:                        # the block: its own b and c
        numbers.update({body["b"]: 0.7, body["c"]: 0.25})
    angles = {alpha: 0.7, theta: -1.1}
    ca, sa, ct, st = np.cos(0.7), np.sin(0.7), np.cos(-1.1), np.sin(-1.1)
    turn = np.array([[ca, -sa, 0], [sa, ca, 0], [0, 0, 1]]) @ \
        np.array([[1, 0, 0], [0, ct, -st], [0, st, ct]])
    half = np.array([float(side.xreplace(numbers)) for side in (body["a"], body["b"], body["c"])])
    for place in ((2.0, -3.0, -3.0), (5.0, 3.0, 3.0), (3.0, -1.0, 1.0)):
        centre = np.array(place) * half
        at = {**numbers, **dict(zip(body["at"], place)), **angles}
        for matrix, rotation in ((body["about_O"], np.eye(3)), (turned, turn)):
            ours = np.array(matrix.xreplace(at), dtype=float)
            expected = _box_by_quadrature(1.3, centre - half, centre + half, rotation)
            assert np.allclose(ours, expected, rtol=1e-12, atol=1e-14), (place, ours, expected)


def block_keys(question, title, points, cube):
    body = placed_body(cube)
    M, a, b, c, d = body["M"], body["a"], body["b"], body["c"], body["d"]
    centre, about_O, book = body["centre"], body["about_O"], body["book"]
    dx, dy, dz = body["at"]
    what = "cube" if cube else "block"
    yours = "(dx*a, dy*a, dz*a)" if cube else "(dx*a, dy*b, dz*c)"
    products = about_O - 2 * sympy.diag(*about_O.diagonal())    # off-diagonal signs flipped
    half_sides = centre.subs({a: a / 2, b: b / 2, c: c / 2}, simultaneous=True)
    parts = [{"name": "I_O", "value": about_O, "structure": "symmetric"},
             {"name": "I_centre", "value": centre, "structure": "symmetric"}]
    mistakes = [
        {"part": "I_O", "value": -products,
         "message": "the off-diagonal entries have the wrong sign: the tensor holds the NEGATED "
                    "product integrals, I_xy = -int x*y dm (Fu, Gonzalez & Lee's definition of "
                    "I_ij just before Eq. (3.2-18))"},
        {"part": "I_O", "value": book,
         "message": f"that is the book's {what}, with its corner at the origin and filling the "
                    f"positive octant; yours sits elsewhere, its centre of mass at {yours} with "
                    f"your given[\"dx\"], given[\"dy\"], given[\"dz\"]"},
        {"part": "I_O", "value": centre,
         "message": "that is the tensor about the centre: about O add the parallel-axis terms "
                    "M*(|d|**2*E - d*d^T), with d from O to the centre"},
        {"part": "I_O", "value": centre + shift(M, (d[0], -d[1], d[2])),
         "message": "the products of inertia with y, I_xy and I_yz, have the wrong sign: the "
                    "sign of your dy says on which side of the x0z0 plane the body lies, and "
                    "it goes into -int x*y dm and -int y*z dm"},
        {"part": "I_O", "value": centre + shift(M, (d[0], d[1], -d[2])),
         "message": "the products of inertia with z, I_xz and I_yz, have the wrong sign: the "
                    "sign of your dz says on which side of the x0y0 plane the body lies, and "
                    "it goes into -int x*z dm and -int y*z dm"},
        {"part": "I_O", "value": centre + shift(M, (d[0], -d[1], -d[2])),
         "message": "the products of inertia I_xy and I_xz have the wrong sign: the signs of "
                    "your dy and dz say in which quarter around x0 the body lies, and they go "
                    "into -int x*y dm and -int x*z dm"},
        {"part": "I_O", "value": centre + M * (d[0]**2 + d[1]**2 + d[2]**2) * sympy.eye(3),
         "message": "the parallel-axis term is M*(|d|**2*E - d*d^T), not M*|d|**2*E: about the "
                    "x0 axis only the distance from that axis counts (y**2 + z**2), and moving "
                    "the point also brings products of inertia"},
        {"part": "I_O", "value": centre - shift(M, d),
         "message": "the parallel-axis term has the wrong sign: the tensor about the centre of "
                    "mass is the smallest, so about O it is I_c + M*(|d|**2*E - d*d^T)"},
    ]
    centre_mistakes = [
        {"part": "I_centre", "value": half_sides,
         "message": f"the {'edges are' if cube else 'sides are'} "
                    f"{'2a' if cube else '2a, 2b, 2c'}, not {'a' if cube else 'a, b, c'}: "
                    f"integrate from -a to a"},
        {"part": "I_centre", "value": about_O,
         "message": "that is the tensor about O, not about the centre of mass"},
        {"part": "I_centre", "value": book,
         "message": f"that is the book's {what} about its corner, not the tensor about the "
                    f"centre of mass"},
    ]
    told_apart_symbolic(PLACEMENT, {"I_O": about_O, "I_centre": centre},
                        mistakes + centre_mistakes,
                        [{M: 1.3, a: 0.4, b: 0.7, c: 0.25}, {M: 0.6, a: 1.1, b: 0.3, c: 0.8}])
    return make_key(question, notebook=FRAMES, title=title, points=points, parts=parts,
                    symbols=body["symbols"], mistakes=mistakes + centre_mistakes,
                    parameters=PLACEMENT, shared=PLACEMENT_SHARED)


def rotated_block_key(question, title, points, cube):
    body = placed_body(cube)
    M, a, b, c, d = body["M"], body["a"], body["b"], body["c"], body["d"]
    centre, about_O = body["centre"], body["about_O"]
    alpha, theta = sympy.symbols("alpha theta", real=True)
    # first alpha about z0, then theta about the moved u axis: R = Rz(alpha) Rx(theta), which is
    # the rotation of one DH link with joint angle alpha and twist theta (Fu, Gonzalez & Lee,
    # Eq. (3.2-5)); the body is fixed in (u, v, w), which turns about O, so the tensor about O of
    # Prob. 3.5(a) (in body axes) reads R I R^T in (x0, y0, z0)
    turn = Robot([Link("R", alpha=theta, name="turn")])
    R = rotations(turn, [alpha])[1]
    reference = (R * about_O * R.T).applyfunc(compact)
    _assert_placed(body, reference, alpha, theta)
    fixed_axes = rotations(Robot([Link("R", alpha=theta, name="x")]), [0])[1] * \
        rotations(Robot([Link("R", name="z")]), [alpha])[1]    # Rx(theta) Rz(alpha)
    symbols = {**body["symbols"], "alpha": "real", "theta": "real"}
    what = "cube" if cube else "block"
    mistakes = [
        {"part": "I0", "value": fixed_axes * about_O * fixed_axes.T,
         "message": "the second turn is about u, the body's own axis (already turned by "
                    "alpha): rotations about moving axes multiply on the right, "
                    "R = Rz(alpha)*Rx(theta), not Rx(theta)*Rz(alpha)"},
        {"part": "I0", "value": R.T * about_O * R,
         "message": "the tensor in (x0, y0, z0) is R*I*R^T (R the body's orientation), "
                    "not R^T*I*R"},
        {"part": "I0", "value": R * centre * R.T,
         "message": "the turns carry the body about O: turn the tensor about O "
                    "(Prob. 3.5(a)), not the one about the centre"},
        {"part": "I0", "value": R * body["book"] * R.T,
         "message": f"that is the book's {what}, with its corner at O, turned; turn the tensor "
                    f"about O of yours (Prob. 3.5(a)), placed by your given[\"dx\"], "
                    f"given[\"dy\"], given[\"dz\"]"},
        {"part": "I0", "value": R * centre * R.T + shift(M, d),
         "message": "the centre of mass turns with the body: after the turns it sits at R*d, "
                    "so the parallel-axis term takes R*d, not d (or turn the whole tensor "
                    "about O of Prob. 3.5(a))"},
    ]
    told_apart_symbolic(PLACEMENT, {"I0": reference}, mistakes,
                        [{M: 1.3, a: 0.4, b: 0.7, c: 0.25, alpha: 0.7, theta: -1.1},
                         {M: 0.6, a: 1.1, b: 0.3, c: 0.8, alpha: 2.3, theta: 0.4}])
    return make_key(question, notebook=FRAMES, title=title, points=points,
                    parts=[{"name": "I0", "value": reference, "structure": "symmetric"}],
                    symbols=symbols, angles=("alpha", "theta"), mistakes=mistakes,
                    parameters=PLACEMENT, shared=PLACEMENT_SHARED)


#: The givens of Prob. 3.2, drawn per student (:mod:`dynlab.grading.variants`): the rates at
#: which the translating frame's velocity grows along i and j (the book's are 3t i + 2t j), so
#: the velocity is kx t i + ky t j + 4 k
TRANSLATING = {"kx": {"low": 4, "high": 9, "step": 1, "unit": "m/s^2",
                      "text": "the frame's velocity grows by kx*t along i"},
               "ky": {"low": -5, "high": -1, "step": 1, "unit": "m/s^2",
                      "text": "the frame's velocity grows by ky*t along j"}}
#: The given of Prob. 3.3: how fast the starred frame turns about z (the book's omega is 1 rad/s)
TURNING = {"w": {"low": 1.5, "high": 3, "step": 0.5, "unit": "rad/s",
                 "text": "the starred frame turns about z at w, omega = (0, 0, w)"}}


def _assert_frames(acceleration, centripetal, kx, ky, w, t) -> None:
    """The accelerations equal dynlab's frame arithmetic (:mod:`dynlab.model.vectors`) at two
    grid points: Prob. 3.2 by differencing the particle's position twice numerically, Prob. 3.3
    as omega x (omega x r) with numbers."""
    for end in ("low", "high"):
        a_x, a_y = float(TRANSLATING["kx"][end]), float(TRANSLATING["ky"][end])
        rate, when, step = float(TURNING["w"][end]), 0.7, 1e-3

        def place(time):                       # h(t) + r1, h the integral of the velocity
            return np.array([a_x * time**2 / 2 - 1, a_y * time**2 / 2 + 1, 4 * time + 2])
        numeric = (place(when + step) - 2 * place(when) + place(when - step)) / step**2
        ours = np.array(acceleration.xreplace({kx: a_x, ky: a_y, t: when}), dtype=float)
        assert np.allclose(ours.ravel(), numeric, atol=1e-6), (end, ours, numeric)
        omega, r = (0.0, 0.0, rate), (3 * when, 2 * when, 4.0)
        expected = np.array(V.cross(omega, V.cross(omega, r)), dtype=float)
        ours = np.array(centripetal.xreplace({w: rate, t: when}), dtype=float).ravel()
        assert np.allclose(ours, expected, rtol=1e-14), (end, ours, expected)


def frames_keys():
    t = sympy.Symbol("t", positive=True)
    keys = []
    # Prob. 3.2: frame 1 translates with velocity v_h(t); the particle is fixed in it at r1
    # (the velocity's rates kx, ky: each student's own; the book's are 3 and 2)
    kx, ky = (parameter_symbol(name, TRANSLATING[name]) for name in ("kx", "ky"))
    v_h = sympy.Matrix([kx * t, ky * t, 4])
    r1 = sympy.Matrix([-1, 1, 2])
    h = v_h.integrate(t)                                   # the origin of frame 1 (h(0) = 0)
    position = h + r1                                      # Eq. (3.3-15)
    acceleration = position.diff(t, 2)                     # Eq. (3.3-18): a = a* + a_h, a* = 0
    keys.append(make_key(
        "3.2", notebook=FRAMES, title="Prob. 3.2: acceleration of a particle in a translating "
        "frame", points=1, symbols={"t": "positive"}, parameters=TRANSLATING,
        parts=[{"name": "acceleration", "value": acceleration}],
        mistakes=[{"part": "acceleration", "value": position.diff(t),
                   "message": "that is the velocity (Eq. (3.3-16)); the acceleration is its "
                              "time derivative (Eq. (3.3-18))"},
                  {"part": "acceleration", "value": acceleration + r1,
                   "message": "the particle's position in frame 1 is constant: it adds nothing "
                              "to the acceleration (Eq. (3.3-18): a = a* + a_h with a* = 0)"}]))
    # Prob. 3.3: at rest in the starred frame, which only rotates with omega = (0, 0, w) (w:
    # each student's own; the book's is 1 rad/s)
    w = parameter_symbol("w", TURNING["w"])
    omega = (0, 0, w)
    r = (3 * t, 2 * t, 4)
    starred_velocity = (0, 0, 0)                           # d*r/dt = 0: at rest in the frame
    coriolis = sympy.Matrix(V.scale(2, V.cross(omega, starred_velocity)))  # Eq. (3.3-14)
    centripetal = sympy.Matrix(V.cross(omega, V.cross(omega, r)))      # Eq. (3.3-14)
    _assert_frames(acceleration, centripetal, kx, ky, w, t)
    velocity = sympy.Matrix(r).diff(t)
    keys.append(make_key(
        "3.3", notebook=FRAMES, title="Prob. 3.3: Coriolis and centripetal accelerations",
        points=2, symbols={"t": "positive"}, parameters=TURNING,
        parts=[{"name": "coriolis", "value": coriolis},
               {"name": "centripetal", "value": centripetal,
                "hints": {"sign": "omega x (omega x r) points toward the axis of rotation "
                                  "(centripetal), here toward the z axis"}}],
        mistakes=[{"part": "coriolis",
                   "value": sympy.Matrix(V.scale(2, V.cross(omega, tuple(velocity)))),
                   "message": "the Coriolis term 2*omega x (d*r/dt) of Eq. (3.3-14) takes the "
                              "velocity RELATIVE TO THE STARRED FRAME, which is zero for a "
                              "particle at rest in it; dr/dt = 3i + 2j is the velocity in the "
                              "reference frame"},
                  {"part": "centripetal", "value": sympy.Matrix(V.cross(omega, r)),
                   "message": "omega x r is the velocity the rotation gives the particle "
                              "(Eq. (3.3-13)); the centripetal acceleration is "
                              "omega x (omega x r)"}]))
    keys.append(block_keys("3.5", "Prob. 3.5: inertia tensor of a cube about the origin and "
                           "about its centre", 2, cube=True))
    keys.append(block_keys("3.6", "Prob. 3.6: inertia tensor of a block about the origin and "
                           "about its centre", 2, cube=False))
    keys.append(rotated_block_key("3.7", "Prob. 3.7: the cube turned by alpha about z0, then "
                                  "theta about u", 2, cube=True))
    keys.append(rotated_block_key("3.8", "Prob. 3.8: the block turned by alpha about z0, then "
                                  "theta about u", 2, cube=False))
    keys.append(pseudo_inertia_key())
    return keys


#: The givens of Prob. 3.14, drawn per student: the entries of the student's own link's
#: pseudo-inertia J_i (Eqs. (3.2-17), (3.2-18)), in frame i's axes.  The link is symmetric about
#: its x_i y_i plane and its centre of mass lies on x_i, behind the origin of frame i (as the
#: book's links, whose origin is the far joint): J13 = J23 = J24 = J34 = 0, the six others drawn.
#: No grid holds 0 (a product of inertia or a first moment of 0 would make a sign slip or the
#: tensor about the origin right) or a mass of 1 kg (where m r and r coincide), and every
#: combination is a rigid body's: J_i is positive definite (:func:`_assert_bodies`)
PSEUDO = {
    "J11": {"low": 0.5, "high": 0.8, "step": 0.1, "unit": "kg m^2",
            "text": "J11 = int x^2 dm, the second moment along x_i"},
    "J22": {"low": 0.02, "high": 0.05, "step": 0.01, "unit": "kg m^2",
            "text": "J22 = int y^2 dm, the second moment along y_i"},
    "J33": {"low": 0.01, "high": 0.04, "step": 0.01, "unit": "kg m^2",
            "text": "J33 = int z^2 dm, the second moment along z_i"},
    "J12": {"low": 0.004, "high": 0.016, "step": 0.004, "unit": "kg m^2",
            "text": "J12 = J21 = int x*y dm, the product integral (J13 = J23 = 0)"},
    "J14": {"low": -0.9, "high": -0.3, "step": 0.2, "unit": "kg m",
            "text": "J14 = J41 = int x dm = m*x_c, the first moment (J24 = J34 = 0: the centre "
                    "of mass on x_i)"},
    "J44": {"low": 2, "high": 5, "step": 0.5, "unit": "kg",
            "text": "J44 = int dm = m, the link's mass"}}


def pseudo_of(values) -> sympy.Matrix:
    """The 4x4 J_i of Prob. 3.14's link from its givens (``{name: value or symbol}``): the six
    drawn entries, J13 = J23 = J24 = J34 = 0."""
    return sympy.Matrix(4, 4, lambda r, c: values.get(f"J{min(r, c) + 1}{max(r, c) + 1}", 0))


def _assert_bodies(about_origin, about_centre, symbols) -> None:
    """Every combination of Prob. 3.14's grids is a rigid body's J_i (positive definite, Wensing,
    Kim & Slotine (2018): the mass positive and S - (m r)(m r)^T/m positive definite, which the
    triangle inequalities of the tensor about the centre of mass follow from), by Gershgorin's
    bound on each row with the grids' worst ends; and at the grids' corners and a middle point the
    key equals dynlab's numbers: the link with that mass, centre of mass (J14/J44, 0, 0) and the
    key's tensor about the centre (which dynlab's Link accepts only for a rigid body: symmetric,
    positive definite, the triangle inequality) has dynlab's pseudo-inertia equal to the given
    J_i, and its tensor about the origin of frame i is the key's."""
    from dynlab.grading.variants import _grid
    ends = {name: (min(map(abs, _grid(spec))), max(map(abs, _grid(spec))))
            for name, spec in PSEUDO.items()}
    worst_shift = ends["J14"][1] ** 2 / ends["J44"][0]          # (m x_c)^2 / m at its largest
    rows = [ends["J11"][0] - worst_shift - ends["J12"][1],     # S - h h^T/m, row by row
            ends["J22"][0] - ends["J12"][1], ends["J33"][0]]
    assert min(rows) > 0, rows
    corners = [{name: float(spec[end]) for name, spec in PSEUDO.items()}
               for end in ("low", "high")]
    corners.append({name: _grid(spec)[len(_grid(spec)) // 2] for name, spec in PSEUDO.items()})
    corners.append({**corners[0], "J12": PSEUDO["J12"]["high"], "J44": PSEUDO["J44"]["low"],
                    "J14": PSEUDO["J14"]["low"]})                # the thinnest margins
    for values in corners:
        at = {symbols[name]: value for name, value in values.items()}
        centre = np.array(about_centre.xreplace(at), dtype=float)
        mass = values["J44"]
        link = Robot([Link("R", mass=mass, com=(values["J14"] / mass, 0.0, 0.0),
                           inertia=centre, name="l")]).numeric()[0][0]
        assert np.allclose(np.array(pseudo_inertia(link), dtype=float),
                           np.array(pseudo_of(values), dtype=float), rtol=0, atol=1e-12), values
        assert np.allclose(np.array(about_origin.xreplace(at), dtype=float),
                           np.array(inertia_about_frame_origin(link), dtype=float), rtol=0,
                           atol=1e-12), values


def pseudo_inertia_key():
    """Prob. 3.14: the inertia tensor (about the origin of frame i and about the centre of mass)
    of the student's own link, from its pseudo-inertia J_i (each student's entries, ``PSEUDO``):
    the general relation I = tr(S) E - S (S the 3x3 block, the definition before Eq. (3.2-18))
    and the parallel-axis theorem, put in the student's numbers; checked against dynlab's J_i of
    random links and of the student's links at points of the grids."""
    names = [f"J{r}{c}" for r in range(1, 5) for c in range(r, 5)]
    Js = {name: sympy.Symbol(name, real=True) for name in names}
    J = sympy.Matrix(4, 4, lambda r, c: Js[f"J{min(r, c) + 1}{max(r, c) + 1}"])

    def tensors(J):
        S, mr, m = J[:3, :3], J[:3, 3], J[3, 3]
        about_origin = S.trace() * sympy.eye(3) - S                    # I = tr(S) E - S
        shift = ((mr.T * mr)[0] * sympy.eye(3) - mr * mr.T) / m          # m(|r|^2 E - r r^T)
        return S, mr, m, about_origin, about_origin - shift
    S, mr, m, about_origin, about_centre = tensors(J)
    rng = np.random.default_rng(314)
    checks = 0
    while checks < 6:
        mass = rng.uniform(0.5, 3.0)
        com = rng.uniform(-1.0, 1.0, 3)
        A = rng.uniform(-0.3, 0.3, (3, 3))
        inertia = A @ A.T + np.diag(rng.uniform(0.05, 0.3, 3))
        moments = np.linalg.eigvalsh(inertia)
        if moments.max() > moments.sum() - moments.max():
            continue                                          # not a rigid body's tensor
        link = Robot([Link("R", mass=mass, com=com, inertia=inertia, name="l")]).numeric()[0][0]
        Jn = np.array(pseudo_inertia(link), dtype=float)
        point = {Js[f"J{r + 1}{c + 1}"]: Jn[r, c] for r in range(4) for c in range(r, 4)}
        # the general relation gives back dynlab's inertia about the centre of mass
        assert np.allclose(np.array(about_centre.subs(point), dtype=float), inertia)
        checks += 1
    # the student's link: the relation with the student's entries put in
    given = {name: parameter_symbol(name, spec) for name, spec in PSEUDO.items()}
    S, mr, m, about_origin, about_centre = tensors(pseudo_of(given))
    _assert_bodies(about_origin, about_centre, given)
    flipped = sympy.Matrix(3, 3, lambda r, c: about_origin[r, c] if r == c else S[r, c])
    shift = ((mr.T * mr)[0] * sympy.eye(3) - mr * mr.T) / m
    mistakes = [
        {"part": "I_origin", "value": S,
         "message": "the 3x3 block of J_i holds the second moments int x*x dm, int x*y dm, ... "
                    "(Eq. (3.2-17)); the inertia tensor is tr(S)*E - S"},
        {"part": "I_origin", "value": flipped,
         "message": "the products of inertia have the wrong sign: I_xy = -int x*y dm, so the "
                    "off-diagonal entries of I are -J12, -J13, -J23 (Fu, Gonzalez & Lee prints "
                    "I_xy where Eq. (3.2-17) has int x*y dm)"},
        {"part": "I_centre", "value": about_origin,
         "message": "that is the inertia about the origin of frame i; about the centre of mass "
                    "subtract m*(|r|**2*E - r*r^T), with m*r the last column of J_i"},
        {"part": "I_centre", "value": about_origin + shift,
         "message": "the parallel-axis term has the wrong sign: the inertia about the centre "
                    "of mass is the smallest, I_c = I_o - m*(|r|**2*E - r*r^T)"},
        {"part": "I_centre", "value": about_origin - m**2 * shift,
         "message": "the last column of J_i is m*r, the first moment (Eq. (3.2-18)), not the "
                    "centre of mass r itself: divide it by J44 = m first"},
    ]
    _assert_apart_on_grid_numeric(PSEUDO, {"I_origin": about_origin, "I_centre": about_centre},
                                  mistakes)
    return make_key("3.14", notebook=FRAMES, title="Prob. 3.14: inertia tensor from the "
                    "pseudo-inertia matrix", points=2, kind="numeric", parameters=PSEUDO,
                    parts=[{"name": "I_origin", "value": about_origin, "structure": "symmetric"},
                           {"name": "I_centre", "value": about_centre, "structure": "symmetric"}],
                    mistakes=mistakes)


def _assert_apart_on_grid_numeric(parameters: dict, parts: dict, mistakes: list) -> None:
    """Every typical mistake of a numeric key with givens differs from its part by more than
    1e-6 of the part's largest entry at every point of the givens' grids (evaluated in arrays
    over the whole grid at once)."""
    from dynlab.grading.variants import _grid
    names = list(parameters)
    grid = np.array(list(itertools.product(*(_grid(spec) for spec in parameters.values()))),
                    dtype=float).T
    symbols = [parameter_symbol(name, spec) for name, spec in parameters.items()]

    def values(expr):
        function = sympy.lambdify(symbols, list(sympy.Matrix(expr)), "numpy")
        return np.array([np.broadcast_to(np.asarray(v, dtype=float), grid.shape[1:])
                         for v in function(*grid)])
    right = {name: values(expr) for name, expr in parts.items()}
    for mistake in mistakes:
        reference = right[mistake["part"]]
        gaps = np.max(np.abs(values(mistake["value"]) - reference), axis=0)
        assert np.all(gaps > 1e-6 * np.max(np.abs(reference), axis=0)), (names,
                                                                           mistake["message"])


# -- 02: the two-link arm hanging from the ceiling (Probs. 3.16, 3.17, 3.13) ----------------------
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


def told_apart_symbolic(parameters: dict, parts: dict, mistakes: list,
                        points: list, gap: float = 1e-3) -> None:
    """Assert that every typical mistake of a symbolic key differs from its part by more than
    ``gap`` (relative to the part's largest entry) at one of ``points`` (values of the
    question's symbols) at every point of the givens' grids."""
    names = list(parameters)
    grids = [np.arange(spec["low"], spec["high"] + spec["step"] / 2, spec["step"])
             for spec in parameters.values()]
    grid = np.array(list(itertools.product(*grids)), dtype=float).T

    def values(expr, point):
        flat = list(sympy.Matrix(expr)) if not isinstance(expr, list) else [
            x for item in expr for x in sympy.Matrix(item)]
        flat = [sympy.sympify(x).xreplace(point) for x in flat]
        function = sympy.lambdify([parameter_symbol(n, spec) for n, spec in parameters.items()],
                                  flat, "numpy")
        return np.array([np.broadcast_to(np.asarray(v, dtype=float), grid.shape[1:])
                         for v in function(*grid)])
    for point in points:
        assert all(str(s) in names for expr in parts.values()
                   for x in (expr if isinstance(expr, list) else [expr])
                   for s in sympy.Matrix(x).xreplace(point).free_symbols), point
    apart = {index: np.zeros(grid.shape[1], dtype=bool) for index in range(len(mistakes))}
    for point in points:
        right = {name: values(expr, point) for name, expr in parts.items()}
        for index, mistake in enumerate(mistakes):
            reference = right[mistake["part"]]
            scale = np.max(np.abs(reference), axis=0)
            gaps = np.max(np.abs(values(mistake["value"], point) - reference), axis=0)
            apart[index] |= gaps > gap * scale
    for index, mistake in enumerate(mistakes):
        assert np.all(apart[index]), mistake["message"]


#: The given of Prob. 3.13(b), drawn per student: the four explanations (in the key's order A to
#: D) are shown to each student turned by this many places (dynlab.grading.variants.turned), so
#: the right one stands under a letter of the student's own, and under another letter at the
#: graded value (every turn puts it elsewhere)
EXPLANATIONS_TURN = {"turn": {"low": 0, "high": 3, "step": 1, "unit": "places",
                              "text": "how far your list of explanations is turned"}}


def ceiling_keys():
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
        "3.16a", notebook=CEILING, title="Prob. 3.16(a): link transformation matrices",
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
        "3.16b", notebook=CEILING, title="Prob. 3.16(b): pseudo-inertia matrices", points=1,
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
        "3.16c", notebook=CEILING, title="Prob. 3.16(c): D, h and c by Lagrange-Euler",
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
        "3.17a", notebook=CEILING, title="Prob. 3.17(a): initial conditions of the N-E "
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
        "3.17b", notebook=CEILING, title="Prob. 3.17(b): inertia tensors iR0 I_i 0R_i",
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
        "3.17c", notebook=CEILING, title="Prob. 3.17(c): the constant vectors iR0 s_i and "
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
        "3.17d", notebook=CEILING, title="Prob. 3.17(d): the joint torques by Newton-Euler",
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
    for answer, mistakes, gap in (({"A": A}, a_mistakes, 1e-3),
                                  ({"J": J}, j_mistakes, 5e-4),
                                  ({"I": I}, i_mistakes, 1e-3),
                                  ({"D": le.D, "h": le.h, "c": le.c},
                                   lagrange_mistakes + c_mistakes, 1e-3),
                                  ({"v_dot0": v_dot0}, v_mistakes, 1e-3),
                                  ({"s1": s[0], "s2": s[1], "p1": p[0], "p2": p[1]},
                                   s_mistakes + p_mistakes, 1e-3),
                                  ({"tau": tau}, tau_mistakes, 1e-3)):
        told_apart_symbolic(CEILING_ARM, answer, mistakes, generic, gap=gap)
    keys.append(sloping_ceiling_key())
    keys.append(make_choice_key(
        "3.13b", notebook=CEILING, title="Prob. 3.13(b): why the signs differ", points=1,
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
    told_apart(SLOPING_CEILING, {"g_LE": g_row, "v_dot0_NE": v0}, mistakes, gap=3e-4)
    return make_key(
        "3.13a", notebook=CEILING, title="Prob. 3.13(a): the gravity vectors of L-E and N-E "
        "for the arm on a sloping ceiling", points=1, kind="numeric",
        parameters=SLOPING_CEILING,
        parts=[{"name": "g_LE", "value": g_row}, {"name": "v_dot0_NE", "value": v0}],
        mistakes=mistakes)


# -- 03: probing, operation counts, the theta-d arm, the one-axis arm -----------------------------
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
    told_apart(PUMA_STATE, {"D": D, "h": h, "c": c}, mistakes)
    return make_key(
        "3.11", notebook=PROBING, title="Prob. 3.11: D, h and c of the PUMA 560 (3 joints) by "
        "probing Newton-Euler", points=3, kind="numeric", parameters=PUMA_STATE,
        parts=[{"name": "D", "value": D}, {"name": "h", "value": h}, {"name": "c", "value": c}],
        mistakes=mistakes)


def both_vectors(gravity, message: str, base_message: str | None = None) -> list:
    """The same slip in both parts of 3.13a: ``gravity`` as L-E's row vector g (with its 0) and,
    negated, as N-E's base acceleration v_dot0 = -g (``base_message``, else ``message``)."""
    return [{"part": "g_LE", "value": list(gravity) + [0], "message": message},
            {"part": "v_dot0_NE", "value": [-x for x in gravity],
             "message": base_message or message}]


def told_apart(parameters: dict, parts: dict, mistakes: list, gap: float = 1e-3) -> None:
    """Assert that every typical mistake differs from its part by more than ``gap`` (relative to
    the part's largest entry) at every point of the givens' grids: the feedback names it at
    every student's values, and no mistake is the answer for some of them."""
    names = list(parameters)
    symbols = [sympy.Symbol(n) for n in names]
    grids = [np.arange(spec["low"], spec["high"] + spec["step"] / 2, spec["step"])
             for spec in parameters.values()]
    points = np.array(list(itertools.product(*grids)), dtype=float).T

    def values(expr):
        flat = list(sympy.Matrix(expr)) if not isinstance(expr, list) else expr
        function = sympy.lambdify(symbols, flat, "numpy")
        return np.array([np.broadcast_to(np.asarray(v, dtype=float), points.shape[1:])
                         for v in function(*points)])
    right = {name: values(expr) for name, expr in parts.items()}
    for mistake in mistakes:
        reference = right[mistake["part"]]
        scale = np.max(np.abs(reference), axis=0)
        apart = np.max(np.abs(values(mistake["value"]) - reference), axis=0)
        assert np.all(apart > gap * scale), mistake["message"]


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
    told_apart(PROBED_ARM, {"multiplications": [multiplications], "additions": [additions]},
               [{**mistake, "value": [mistake["value"]]} for mistake in mistakes])
    return make_key(
        "3.12", notebook=PROBING, title="Prob. 3.12: the cost of probing D", points=1,
        kind="numeric", parameters=PROBED_ARM,
        parts=[{"name": "multiplications", "value": multiplications},
               {"name": "additions", "value": additions}],
        mistakes=mistakes)


def probing_keys():
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
    told_apart_symbolic(THETA_D, {"D": le.D, "h": le.h, "c": le.c}, mistakes, generic)
    return make_key(
        "3.18", notebook=PROBING, title="Prob. 3.18: the theta-d arm by Lagrange-Euler",
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
    told_apart_symbolic(ONE_AXIS, {"D11": sympy.Matrix([D11]), "c": c},
                        [{**mistake, "value": sympy.Matrix([mistake["value"]])}
                         for mistake in mistakes], generic)
    return make_key(
        "6-4-1", notebook=PROBING, title="Schilling Exercise 6-4-1: the one-axis robot", points=2,
        symbols=symbols, angles=("q1",), split=("qd1", "qdd1"), parameters=ONE_AXIS,
        parts=[{"name": "D11", "value": D11}, {"name": "c", "value": c}],
        mistakes=mistakes)


# -- 04: passivity, task space, coupling, payload -------------------------------------------------
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
    from dynlab.model.edits import with_payload
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


def structure_keys():
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
        "9.1", notebook=STRUCTURE, title="Lynch & Park, Prop. 8.1: Mdot - 2C is skew-symmetric (2R arm)",
        points=3, symbols=symbols, angles=("q1", "q2"), split=("qd1", "qd2"),
        parameters=FOREARM,
        parts=[{"name": "C", "value": C},
               {"name": "Mdot", "value": Mdot, "structure": "symmetric"},
               {"name": "N", "value": N, "structure": "skew"}],
        products=[{"part": "C", "vector": ["qd1", "qd2"],
                   "message": "your C gives the right c = C*qd, but it is not the Christoffel "
                              "form Sec. 8.4 (draft Eq. (9.87)): C is not unique, and Mdot - 2C is skew-symmetric "
                              "only for C_ij = sum_k Gamma_ijk qd_k"}],
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
        "9.98", notebook=STRUCTURE, title="Lynch & Park, Sec. 8.6 (draft Eq. (9.98)): task-space inertia of the 2R arm",
        points=2, symbols=symbols, angles=("q1", "q2"), parameters=TASK_SPACE,
        parts=[{"name": "J", "value": J}, {"name": "Lambda", "value": Lam,
                                           "structure": "symmetric"}],
        mistakes=[{"part": "Lambda", "value": J * M * J.T,
                   "message": "Lambda = J^-T M J^-1 (Sec. 8.6 (draft Eq. (9.98))): the inverse Jacobian, not "
                              "J M J^T"},
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
        "k12", notebook=STRUCTURE, title="Tourassis & Neuman, Eqs. (32)-(34): coefficient of coupling of the "
        "two-link arm", points=2, symbols=symbols, angles=("q1", "q2"), parameters=COUPLING,
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
        "Mp", notebook=STRUCTURE, title="the thesis appendix, App. B: how a payload Mp changes "
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
                   "message": "gravity points along -y0 (the thesis appendix's potential +M g^T x with "
                              "g = (0, gravity, 0)): the payload's weight pulls the arm down"}] + [
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
    from dynlab.grading.variants import _grid
    m1, m2, L1, L2, g = positive("m1", "m2", "L1", "L2", "g")
    state = ([0.4, -1.1], [0.7, -0.3], [1.2, 0.5])
    numbers = {m1: 1.3, m2: 0.6, L2: 0.45, g: G}
    at_state = {q1: state[0][0], q2: state[0][1], qd[0]: state[1][0], qd[1]: state[1][1],
                qdd[0]: state[2][0], qdd[1]: state[2][1]}
    for end in (0, -1):
        length, degrees = (_grid(TILTED_ARM[name])[end] for name in ("L1", "beta"))
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
    told_apart_symbolic(TILTED_ARM, {"Y": Y}, mistakes,
                        [{q1: 0.4, q2: 2.3, qd[0]: 0.7, qd[1]: -1.2, qdd[0]: 0.9,
                          qdd[1]: -0.5, g: 9.8},
                         {q1: -1.3, q2: 0.8, qd[0]: -0.4, qd[1]: 0.6, qdd[0]: -1.1,
                          qdd[1]: 0.3, g: 3.7}])
    return make_key(
        "Y", notebook=STRUCTURE, title="Linear in the parameters: the regressor of the 2R arm",
        points=2, symbols={**JOINTS2, "g": "positive"}, angles=("q1", "q2"), split=SPLIT2,
        parameters=TILTED_ARM, parts=[{"name": "Y", "value": Y}], mistakes=mistakes)


# -- 05: control ------------------------------------------------------------------------------------
CONTROL = "05_control"


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
    from dynlab.model.edits import with_payload
    arm, posture = planar_2r("fu"), [0.7, -1.9]
    names = {str(s): s for s in c.free_symbols}
    numbers = {"m1": float(arm.links[0].mass), "m2": float(arm.links[1].mass),
               "l": float(arm.links[0].a), "g": float(-arm.gravity[1]), "q1": posture[0],
               "q2": posture[1]}
    for values in _grid_points(GRIPPER):
        loaded = with_payload(arm, values["Mp"])
        expected = np.array(equations_of_motion(loaded, posture, [0.0, 0.0]).c,
                            dtype=float).ravel()
        at = {names[n]: v for n, v in {**numbers, **values}.items() if n in names}
        ours = np.array(c.xreplace(at), dtype=float).ravel()
        assert np.abs(ours - expected).max() <= 1e-12 * np.abs(expected).max(), (values, ours)


def _assert_apart_on_grid(parameters: dict, right, mistakes: list) -> None:
    """Every typical mistake differs from ``right`` at every value of the givens' grids (at a
    point of the other symbols): the feedback names it for every student, and no grid value
    makes it the answer."""
    from dynlab.grading.variants import _grid
    point = {"m1": 1.3, "m2": 0.7, "l": 0.8, "g": 9.8, "q1": 0.4, "q2": 2.3}
    names = list(parameters)
    for combination in itertools.product(*(_grid(spec) for spec in parameters.values())):
        values = {**point, **dict(zip(names, combination))}

        def number(expr):
            return np.array(expr.xreplace({s: values[str(s)] for s in expr.free_symbols}),
                            dtype=float)
        for mistake in mistakes:
            assert np.abs(number(mistake["value"]) - number(right)).max() > 1e-6, \
                (combination, mistake["message"])


def _grid_points(spec: dict) -> list:
    """Two values of each given's grid (its ends), as ``[{name: value}, ...]``."""
    return [{name: float(s[end]) for name, s in spec.items()} for end in ("low", "high")]


def _assert_computed_torque(law, gains, state) -> None:
    """The law equals dynlab's computed-torque controller (:func:`dynlab.dynamics.control.
    computed_torque`, numeric pendulum) at two grid points of the gains, at a state."""
    from dynlab.dynamics.control import computed_torque
    from dynlab.model.robots import pendulum
    arm = pendulum()
    m1, a1, g = positive("m1", "a1", "g")
    numbers = {m1: float(arm.links[0].mass), a1: float(arm.links[0].a),
               g: float(-arm.gravity[1])}
    qa, qda, qr, qdr, qddr = state
    at = {qa: 0.4, qda: -0.7, qr: 1.1, qdr: 0.3, qddr: -0.5}
    for values in _grid_points(GAINS):
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
    from dynlab.model.robots import pendulum
    arm = pendulum()
    m1, a1 = positive("m1", "a1")
    numbers = {m1: float(arm.links[0].mass), a1: float(arm.links[0].a), Kp: 10.0}
    inertia = float(equations_of_motion(arm, [0.0], [0.0]).D[0, 0])
    for values in _grid_points(DAMPING):
        omega_n = float(np.sqrt(10.0 / inertia))
        expected = float(matched_gains(arm, [0.0], omega_n, values["zeta"])[1][0])
        ours = float(Kd.xreplace({**numbers, zeta: values["zeta"]}))
        assert abs(ours - expected) <= 1e-12 * expected, (values, ours, expected)
        roots = np.roots([inertia, ours, 10.0])               # D s^2 + Kd s + Kp
        assert abs(-roots[0].real / abs(roots[0]) - values["zeta"]) <= 1e-12


def control_keys():
    """Three laws of chapter 08: gravity compensation, computed torque with the student's gains,
    PD plus gravity compensation tuned for the student's damping ratio."""
    from dynlab.model.robots import pendulum
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
    _assert_apart_on_grid(GRIPPER, c, mistakes)
    keys.append(make_key(
        "C.1", notebook=CONTROL, title="Gravity compensation of the two-link arm with a payload",
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
        "C.2", notebook=CONTROL, title="The computed-torque law of the pendulum", points=2,
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
        "C.3", notebook=CONTROL, title="A damping ratio for PD plus gravity compensation "
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


BUILDERS = {FRAMES: frames_keys, CEILING: ceiling_keys, PROBING: probing_keys,
            STRUCTURE: structure_keys, CONTROL: control_keys}

# -- 06 and 07: G-D, the Newton-Euler passes, dashboards, simulation; the modern form ---------------
# (their keys are built in tools/answer_keys_06_07.py)
from answer_keys_06_07 import BUILDERS as BUILDERS_06_07  # noqa: E402

BUILDERS.update(BUILDERS_06_07)

#: One small file per notebook, as the alternative to a builder here: ``tools/answer_keys/
#: <notebook>.py`` defining ``keys()`` (a list of make_key / make_choice_key results);
#: ``tools/answer_keys/_template.py`` is the template (files starting with _ are skipped).
KEY_FILES = ROOT / "tools" / "answer_keys"


def _key_files() -> dict:
    import importlib.util
    builders = {}
    for path in sorted(KEY_FILES.glob("[!_]*.py")):
        spec = importlib.util.spec_from_file_location(f"answer_keys_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        builders[path.stem] = module.keys
    return builders


BUILDERS.update(_key_files())


def with_notes(notebook: str, keys: list) -> list:
    """The keys with their hints and takeaways sealed in (tools/question_notes.md first, then a
    takeaway still in the solution notebook)."""
    sys.path.insert(0, str(ROOT / "tools"))
    import make_exercises
    import question_notes
    notes = question_notes.read()
    path = ROOT / "solutions" / f"{notebook}.ipynb"
    in_notebook = make_exercises.takeaways_in(path) if path.exists() else {}
    for key in keys:
        texts = dict(notes.get(key["id"], {}))
        if not texts.get("takeaway") and key["id"] in in_notebook:
            texts["takeaway"] = in_notebook[key["id"]]
        seal_notes(key, hint=texts.get("hint"), takeaway=texts.get("takeaway"))
    return keys


#: Where the keys go by default: the instructor's, and the shipped ones made from them.
TARGETS = ((INSTRUCTOR_KEYS, SUMMATIVE), (KEY_DIRECTORY, FORMATIVE))


def build(targets=TARGETS, only=()) -> list:
    """Build the keys of every notebook (or of the notebooks named in ``only``) once and write
    them into each ``(directory, route)`` of ``targets`` (:data:`SUMMATIVE`: as built, the
    instructor's, outside the package; :data:`FORMATIVE`: at the practice values, the package's);
    returns the paths written."""
    unknown = sorted(set(only) - set(BUILDERS))
    if unknown:
        raise SystemExit(f"make_answer_keys: no notebook {', '.join(unknown)}; the notebooks "
                         f"are {', '.join(BUILDERS)}")
    paths = []
    for notebook, builder in BUILDERS.items():
        if only and notebook not in only:
            continue
        start = time.perf_counter()
        built = with_refusals(with_notes(notebook, builder()))
        shipped = [at_practice(key) for key in built]
        paths += [write_keys(notebook, shipped if route == FORMATIVE else built, directory, route)
                  for directory, route in targets]
        print(f"{time.perf_counter() - start:7.1f} s  {notebook}", flush=True)
    return paths


def _sample_values(key: dict, count: int = 8) -> list:
    """``count`` points ``{symbol name: value}`` for a key's expressions: its symbols at fresh
    points of their typical ranges (a fixed generator: the same points for both keys compared)
    and each given spread over its grid, ends included."""
    symbols = [name for name, _ in key.get("symbols", [])] if key["kind"] == "symbolic" else []
    points = fresh_points(key, np.random.default_rng(0))[:count] if symbols else [[]] * count
    grids = {name: np.arange(spec["low"], spec["high"] + spec["step"] / 2, spec["step"])
             for name, spec in key.get("parameters", {}).items()}
    return [{**dict(zip(symbols, map(float, point))),
             **{name: float(grid[(k * (len(grid) - 1)) // max(1, count - 1)])
                for name, grid in grids.items()}}
            for k, point in enumerate(points)]


def _values_agree(key: dict, committed: list, rebuilt: list) -> bool:
    """Whether two sealed value lists (texts, one per entry) grade alike: equal texts, or equal
    numbers at sample points (:func:`_sample_values`) to the key's own tolerance, relative to
    ``max(1, |value|)`` (the grader's scale is never smaller)."""
    if committed == rebuilt:
        return True
    if len(committed) != len(rebuilt):
        return False
    tolerance = key.get("tolerance", TOLERANCE if key["kind"] == "symbolic"
                        else NUMERIC_TOLERANCE)
    samples = _sample_values(key)
    for old, new in zip(committed, rebuilt):
        if old == new:
            continue
        old, new = sympy.sympify(old), sympy.sympify(new)
        for point in samples:
            values = [complex(expr.subs({s: point[str(s)] for s in expr.free_symbols}))
                      for expr in (old, new)]
            if abs(values[0] - values[1]) > tolerance * max(1.0, abs(values[0])):
                return False
    return True


def key_differences(committed: dict, rebuilt: dict) -> list:
    """What grading would do differently with the ``rebuilt`` key file than with the
    ``committed`` one: each reference's and typical mistake's values are compared as numbers
    at sample points, to the key's tolerance (:func:`_values_agree`; the last digits of a
    derivation's floats may differ between machines); everything else the grader reads, its
    texts (messages, hints, takeaways), names, shapes, points and grids, must be equal.

    >>> key = make_key("demo", notebook="demo", title="demo", points=1, kind="numeric",
    ...                tolerance=1e-4, parts=[{"name": "E", "value": [2.0]}])
    >>> near = make_key("demo", notebook="demo", title="demo", points=1, kind="numeric",
    ...                 tolerance=1e-4, parts=[{"name": "E", "value": [2.0 + 1e-9]}])
    >>> key_differences({"questions": [key]}, {"questions": [near]})
    []
    >>> far = dict(near, title="Demo")
    >>> key_differences({"questions": [key]}, {"questions": [far]})
    ['demo: title']
    """
    found = []
    if {k: v for k, v in committed.items() if k != "questions"} != \
            {k: v for k, v in rebuilt.items() if k != "questions"}:
        found.append("the file's header")
    old_ids = [key["id"] for key in committed["questions"]]
    new_ids = [key["id"] for key in rebuilt["questions"]]
    if old_ids != new_ids:
        return found + [f"the questions: {old_ids} became {new_ids}"]
    for old, new in zip(committed["questions"], rebuilt["questions"]):
        question = old["id"]
        sealed = [(f"{question}|{p['name']}", p, q, "reference")
                  for p, q in zip(old.get("parts", []), new.get("parts", []))]
        sealed += [(f"{question}|mistake{i}", m, n, "value")
                   for i, (m, n) in enumerate(zip(old.get("mistakes", []),
                                                  new.get("mistakes", [])))]
        for where, a, b, field in sealed:
            if a.get(field) != b.get(field) and not _values_agree(
                    old, json.loads(unseal(a[field], where)), json.loads(unseal(b[field], where))):
                found.append(f"{question}: the values of {where.split('|')[1]}")

        def readable(key):              # the key without the values compared above
            text = json.loads(json.dumps(key))
            for entry in text.get("parts", []):
                entry.pop("reference", None)
            for entry in text.get("mistakes", []):
                entry.pop("value", None)
            return text
        old_text, new_text = readable(old), readable(new)
        found += [f"{question}: {field}" for field in sorted(set(old_text) | set(new_text))
                  if old_text.get(field) != new_text.get(field)]
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*",
                        help="only these notebooks' keys (file stems; default: all)")
    parser.add_argument("--check", action="store_true",
                        help="compare with the committed keys (what grading reads: values to the "
                             "key's tolerance, texts exactly) instead of writing them")
    parser.add_argument("--out", default=None, metavar="FOLDER",
                        help="write the instructor's keys into FOLDER instead: summative keys "
                             "and the course secret (kept if there), for dynlab grade --keys "
                             "and nbgrader's ScoreExportedAnswers.key_directory; keep FOLDER "
                             "outside the package and out of the students' reach")
    args = parser.parse_args(argv)
    if args.out is not None:
        from dynlab.grading.authoring import write_course_secret
        out = Path(args.out)
        if out.resolve() == PACKAGE.resolve() or PACKAGE.resolve() in out.resolve().parents:
            raise SystemExit(f"make_answer_keys: {out} is inside the dynlab package, which every "
                             f"student installs; write the instructor's keys outside it")
        out.mkdir(parents=True, exist_ok=True)
        for path in build([(out, SUMMATIVE)], args.notebooks):
            print(f"wrote {path}")
        print(f"course secret in {write_course_secret(out)} (keep it; the graded values of "
              f"every student are drawn from it)")
        return 0
    if not args.check:
        for path in build(only=args.notebooks):
            print(f"wrote {path.relative_to(ROOT)}")
        return 0
    import tempfile
    with tempfile.TemporaryDirectory() as scratch:
        stale = []
        scratches = {directory: Path(scratch) / route for directory, route in TARGETS}
        for path in build([(scratches[d], route) for d, route in TARGETS], args.notebooks):
            committed = next(d for d, s in scratches.items() if s == path.parent) / path.name
            name = committed.relative_to(ROOT)
            if not committed.exists():
                stale.append(f"{name} (not committed)")
                continue
            differences = key_differences(json.loads(committed.read_text()),
                                          json.loads(path.read_text()))
            if differences:
                stale.append(f"{name} ({'; '.join(differences)})")
    if stale:
        print("out of date: " + ", ".join(stale) + " (run python tools/make_answer_keys.py)")
        return 1
    print("answer keys are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
