"""The answer keys of ``solutions/01_frames_and_inertia``: Fu, Gonzalez & Lee's Probs. 3.2 and 3.3
(moving frames), 3.5 to 3.8 (the inertia tensors of a cube and a block, placed and turned) and
3.14 (a link's pseudo-inertia).
"""

from __future__ import annotations

import itertools

import numpy as np
import sympy
from answer_keys.common import check_mistakes, positive, shift

from dynlab import Link, Robot
from dynlab.formulations.lagrange_euler import pseudo_inertia
from dynlab.grading import make_key
from dynlab.grading.keys import parameter_symbol
from dynlab.grading.variants import grid_values
from dynlab.model import vectors as V
from dynlab.model.kinematics import rotations
from dynlab.model.symbolic import compact, is_zero

NOTEBOOK = "01_frames_and_inertia"

#: Each question's notes, sealed into its key: the hint a student asks for with hint(), and the
#: takeaway check() shows once the answer is right (Markdown, $...$ for mathematics; a hint says
#: where to start, never the answer).  A takeaway keeps its line breaks, long lines and all (a
#: noqa for E501 at its end): solutions/' stored outputs show it line by line, so rewrapping one
#: means refreshing them (tools/refresh_notebooks.py)
NOTES = {
    "3.2": {
        "hint": r"""
Write the particle's position in the fixed frame as the moving origin plus the position in the
moving frame, and differentiate twice; the moving frame does not rotate.""",
        "takeaway": r"""
The particle's own position $(-1, 1, 2)$ does not enter: it is constant in a frame that does not
rotate, so it adds nothing to the velocity or the acceleration.""",
    },
    "3.3": {
        "hint": r"""
Evaluate the terms of Eq. (3.3-14) of Fu, Gonzalez & Lee: the Coriolis term is
$2\boldsymbol\omega \times$ the velocity relative to the rotating frame, the centripetal term
$\boldsymbol\omega \times (\boldsymbol\omega \times \mathbf r)$.""",
        "takeaway": r"""
The Coriolis term needs a velocity *relative to the rotating frame*, and the particle has none. The
centripetal acceleration $-w^2(3t, 2t, 0)$ points from the particle straight toward the axis of
rotation $z$, as its name says, and grows with the square of the turning rate.""",
    },
    "3.5": {
        "hint": r"""
About the centre, use the symmetry of the cube; then move to $O$ with the parallel-axis theorem,
$\mathbf I_O = \mathbf I_{centre} + M(|\mathbf d|^2 \mathbf E - \mathbf d \mathbf d^T)$, with
$\mathbf d$ from $O$ to your cube's centre, signs and all.""",
        "takeaway": r"""
About the centre the three axes are alike and no product survives: $\frac{2}{3}Ma^2$ times the unit
matrix, wherever the cube sits. About $O$ the parallel-axis theorem adds $M(|\mathbf{d}|^2 \mathbf{E} -
\mathbf{d}\mathbf{d}^T)$: on the diagonal $M$ times the squared distance of the centre from that axis,
off it $-M d_x d_y a^2$ and its like, whose signs are those of the centre's coordinates (a cube on the
$-y_0$ side has an $I_{xy}$ of the other sign). The book's cube, its corner at $O$ ($\mathbf{d} = (a,
a, a)$), has $\frac{8}{3}Ma^2$ on the diagonal and $-Ma^2$ off it.""",  # noqa: E501
    },
    "3.6": {
        "hint": r"""
As for the cube: the centre first (a block's principal axes are its edges), then the parallel-axis
theorem with $\mathbf d = (d_x a, d_y b, d_z c)$ from $O$ to the centre.""",
    },
    "3.7": {
        "hint": r"""
A tensor turns as $\mathbf R \mathbf I \mathbf R^T$, with $\mathbf R$ the product of the two
rotations in the order they are made (about the fixed $z_0$ first, then about $\mathbf u$). The body
turns about $O$, so turn its tensor about $O$, that of your cube in Prob. 3.5(a).""",
        "takeaway": r"""
The body turns about $O$ with its frame $(u, v, w)$, so its tensor about $O$ turns as a whole,
$\mathbf R \mathbf I_O \mathbf R^T$, parallel-axis part and all: the centre of mass moves to
$\mathbf R \mathbf d$, and the tensor about the centre turns with it.""",
    },
    "3.8": {
        "hint": r"""
The same two rotations as Prob. 3.7, applied to your block's tensor about $O$: $\mathbf R \mathbf I
\mathbf R^T$.""",
    },
    "3.14": {
        "hint": r"""
Eq. (3.2-18) gives $\mathbf J$ from the tensor; read it the other way round: the diagonal of
$\mathbf J$ holds $\int x^2 dm$, ..., and its off-diagonal entries the product integrals. Write the
relation once in the symbols $J_{11}, \dots, J_{44}$, then put in your link's numbers from
`given`.""",
        "takeaway": r"""
Read the other way, Eq. (3.2-18) is the same relation: $J_{11} = (-I_{xx} + I_{yy} + I_{zz})/2$ is
$\int x^2 dm$, and the off-diagonal $J_{12} = \int xy\,dm$ is the product integral *without* the minus
sign that the tensor carries. Your link's centre of mass lies on $x_i$, at $J_{14}/J_{44}$ from the
origin, so moving to it changes only $I_{yy}$ and $I_{zz}$, each by $J_{14}^2/J_{44}$; and its tensor
about the centre of mass passes the test of a real body, the triangle inequality of its principal
moments, because your $\mathbf J_i$ is positive definite.""",  # noqa: E501
    },
}


def box_inertia_about_centre(M, a, b, c):
    """Fu, Gonzalez & Lee's inertia tensor I_jk = int [delta_jk |r|^2 - x_j x_k] dm (text before
    Eq. (3.2-18)) of a uniform block of sides 2a, 2b, 2c about its centre, by integration."""
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
    (Fu, Gonzalez & Lee, Eqs. (3.2-17), (3.2-18)): with S the 3x3 block (int r r^T dm),
    I = tr(S) E - S."""
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
    check_mistakes(question, PLACEMENT, {"I_O": about_O, "I_centre": centre},
                   mistakes + centre_mistakes,
                   [{M: 1.3, a: 0.4, b: 0.7, c: 0.25}, {M: 0.6, a: 1.1, b: 0.3, c: 0.8}])
    return make_key(question, notebook=NOTEBOOK, title=title, points=points, parts=parts,
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
    check_mistakes(question, PLACEMENT, {"I0": reference}, mistakes,
                   [{M: 1.3, a: 0.4, b: 0.7, c: 0.25, alpha: 0.7, theta: -1.1},
                    {M: 0.6, a: 1.1, b: 0.3, c: 0.8, alpha: 2.3, theta: 0.4}])
    return make_key(question, notebook=NOTEBOOK, title=title, points=points,
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


def keys():
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
        "3.2", notebook=NOTEBOOK, title="Prob. 3.2: acceleration of a particle in a translating "
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
        "3.3", notebook=NOTEBOOK, title="Prob. 3.3: Coriolis and centripetal accelerations",
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
    ends = {name: (min(map(abs, grid_values(spec))), max(map(abs, grid_values(spec))))
            for name, spec in PSEUDO.items()}
    worst_shift = ends["J14"][1] ** 2 / ends["J44"][0]          # (m x_c)^2 / m at its largest
    rows = [ends["J11"][0] - worst_shift - ends["J12"][1],     # S - h h^T/m, row by row
            ends["J22"][0] - ends["J12"][1], ends["J33"][0]]
    assert min(rows) > 0, rows
    corners = [{name: float(spec[end]) for name, spec in PSEUDO.items()}
               for end in ("low", "high")]
    corners.append({name: grid_values(spec)[len(grid_values(spec)) // 2]
                    for name, spec in PSEUDO.items()})
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
    check_mistakes("3.14", PSEUDO, {"I_origin": about_origin, "I_centre": about_centre}, mistakes)
    return make_key("3.14", notebook=NOTEBOOK, title="Prob. 3.14: inertia tensor from the "
                    "pseudo-inertia matrix", points=2, kind="numeric", parameters=PSEUDO,
                    parts=[{"name": "I_origin", "value": about_origin, "structure": "symmetric"},
                           {"name": "I_centre", "value": about_centre, "structure": "symmetric"}],
                    mistakes=mistakes)
