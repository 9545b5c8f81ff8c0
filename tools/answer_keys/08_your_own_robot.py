"""The answer keys of ``solutions/08_your_own_robot``: the UR20 of chapter 10, loaded from its
URDF file (dynlab/robots/data/ur20.urdf, written from Universal Robots' published parameters).

Each student has their own givens (:mod:`dynlab.grading.variants`): for U.1 the pose (the
shoulder-lift and elbow angles) at which the two screw axes are asked, for U.2 the payload and the
shoulder-lift angle at which the arm holds it.  No answer is typed: the columns of the space
Jacobian come from dynlab's DH frames of the loaded arm (each joint's axis ``z_{i-1}`` through
``o_{i-1}``, carried into the file's base frame) with the angles as SymPy symbols, the holding
torques from its inverse dynamics with the shoulder angle as a symbol and the payload folded into
the last link (the torques are linear in the payload's mass, Fu, Gonzalez & Lee (1987),
Eq. (3.2-26)); each typical mistake is derived the same way from a wrong procedure.  Each
expression is asserted equal to dynlab's numbers at grid points of the givens, and to an answer
by another route: the screw axes by Lynch & Park's product of exponentials (2017, Sec. 5.1.1,
from the file's screw axes at home, Sec. 4.1), the holding torques at the horizontal pose by
Fu, Gonzalez & Lee, Eq. (3.4-28) with the maker's table.
"""

import math

import numpy as np
import sympy

from dynlab import inverse_dynamics
from dynlab.dynamics.inverse import probe
from dynlab.grading import make_key
from dynlab.grading.variants import grid_values
from dynlab.model import spatial
from dynlab.model.edits import with_payload
from dynlab.model.kinematics import transforms
from dynlab.model.robots import UR20_PARAMETERS, UR20_URDF, from_urdf, read_urdf

NOTEBOOK = "08_your_own_robot"

#: Each question's notes, sealed into its key: the hint a student asks for with hint(), and the
#: takeaway check() shows once the answer is right (Markdown, $...$ for mathematics; a hint says
#: where to start, never the answer).  A takeaway keeps its line breaks, long lines and all (a
#: noqa for E501 at its end): solutions/' stored outputs show it line by line, so rewrapping one
#: means refreshing them (tools/refresh_notebooks.py)
NOTES = {
    "U.1": {
        "hint": r"""
First each joint's line at home: $\omega_i$ is the joint's `axis` turned by the `rpy` of every
`<origin>` from the base down to it, $p_i$ the sum of the `xyz`s, each turned the same way. Then
carry the line by the joints before it, in your pose: joint 3's by joint 2 (its axis points along
$-y$ through $(0, 0, 0.2363)$), joint 5's by joints 2 and 3 (Lynch & Park, Sec. 5.1.1; the product
of exponentials, or the same turns as rotation matrices about those lines), with your angles in
radians, and form $(\omega, -\omega \times p)$.""",
        "takeaway": r"""
The elbow's axis keeps its direction, $\omega_3 = (0, -1, 0)$ (it is parallel to the shoulder's,
which does not turn it): only its point moves, 0.862 m along the upper arm, so only $v_3$ changes.
Wrist 2's axis, vertical at home, is turned by $q_2 + q_3$ in the vertical plane: both joints
before it turn about parallel axes, so their angles add. Carrying a line by the joints before it
is all that the space Jacobian's $\mathrm{Ad}$ does (Lynch & Park, Sec. 5.1.1).""",
    },
    "U.2": {
        "hint": r"""
At home every centre of mass beyond the shoulder lies in the arm's vertical plane, at $(x, z)$ from
the shoulder's axis: $x$ the sum of the $a$'s it hangs on plus its own $r_x$ (the maker's $a_2$,
$a_3$ are negative: the arm reaches along $-x$), $z$ from the offsets along the DH axes that point
up or down at home (the wrist's); the payload hangs at the flange, $a_2 + a_3$ out and $d_5$ below.
Raising the straight arm by $q_2$ (a turn about $-y$, in radians) puts each at
$x\cos q_2 - z\sin q_2$ out. Each weight $m g$ has the moment $m g x$ about the axis; the motor
supplies the torque that balances the sum (for the elbow, $x$ from its own axis).""",
        "takeaway": r"""
The torques are negative: the motors push towards negative $q_2$, $q_3$, which lifts. Each
kilogram at the flange costs the shoulder about $9.81 \times 1.59$ N m when the arm is
horizontal, the lever arm of the whole reach; raised by $q_2$ the lever arms shrink nearly as
$\cos q_2$ (the wrist's offsets add a small $\sin q_2$ part). Stretched out horizontal is the
arm's hardest pose to hold; that number is where choosing the shoulder's motor and gearbox starts.""",  # noqa: E501
    },
    "U.3": {
        "hint": r"""
A `<link>` per body (the base with none), each with an `<inertial>`: its `<origin xyz>` is the
centre of mass in the link's own frame, $(r_i, 0, 0)$ along the link. A `<joint>` per joint, with
its `<parent>`, `<child>`, `<axis xyz="0 -1 0">` and a `<limit>`; the elbow's `<origin xyz>` is
$(L_1, 0, 0)$ in the upper arm's frame. Load it with `from_urdf`; `probe(arm, q=..., qd=...)`
gives the torques $\mathbf c(q)$ that hold it still (your angles in radians).""",
        "takeaway": r"""
Your file and the table agree: the torques are $c_1 = g[(m_1 r_1 + m_2 L_1)\cos q_1 +
m_2 r_2\cos(q_1 + q_2)]$ and $c_2 = g\,m_2 r_2\cos(q_1 + q_2)$, the derivatives of the
potential energy $g[m_1 r_1\sin q_1 + m_2(L_1\sin q_1 + r_2\sin(q_1 + q_2))]$. A URDF
file holds exactly a DH and inertia table's numbers, arranged joint by joint in the parent's
frame: writing one for an arm you know by hand is the check that the file (its frames, its axis
signs, its centres of mass) says what you mean before you trust it on an arm you do not.""",
    },
}
G = 9.81

#: U.1's givens: the pose at which the screw axes of joints 3 and 5 are asked (the other joints
#: at zero), angles in degrees as a student sets them.  q2 on tens and q3 on fives, so q2 + q3,
#: the turn of wrist 2's axis that the takeaway points at, is never 0
POSE = {"q2": {"low": -120, "high": -60, "step": 10, "unit": "degrees",
               "text": "joint 2, the shoulder lift; -90 raises the upper arm straight up"},
        "q3": {"low": 15, "high": 85, "step": 10, "unit": "degrees",
               "text": "joint 3, the elbow"}}
#: U.2's givens: the payload at the flange and the shoulder's angle, the arm straight (q3 = 0)
HOLD = {"payload": {"low": 4, "high": 20, "step": 2, "unit": "kg",
                    "text": "the payload, a point mass at the flange; the UR20's rated payload "
                            "is 20 kg"},
        "q2": {"low": -60, "high": -10, "step": 10, "unit": "degrees",
               "text": "joint 2, the shoulder lift; 0 holds the straight arm horizontal, "
                       "negative raises it"}}


def both_columns(columns, message: str) -> list:
    """The same slip in both parts of U.1: ``columns`` = (its J3, its J5)."""
    return [{"part": "J3", "value": columns[0], "message": message},
            {"part": "J5", "value": columns[1], "message": message}]


def rounded(expr):
    """``expr`` with its coefficients to 7 significant digits and round-off below 1e-12 as 0:
    the key stays the same on every machine (the last bits of a rotation differ), far below the
    numeric tolerance (1e-5 of the largest entry)."""
    expr = sympy.expand(sympy.sympify(expr))
    floats = {f: (sympy.Integer(0) if abs(float(f)) < 1e-12 else
                  sympy.Float(f"{float(f):.7g}")) for f in expr.atoms(sympy.Float)}
    return sympy.expand(expr.xreplace(floats))


def at(expr, values):
    """The number ``expr`` (in the givens) takes at ``values`` ({name: value})."""
    return float(sympy.sympify(expr).xreplace({sympy.Symbol(k): v for k, v in values.items()})
                 .evalf(30))


def radians(name):
    """A given in degrees, as the joint angle in radians."""
    return sympy.pi * sympy.Symbol(name) / 180


def space_column(arm, base, q, joint):
    """Column ``joint`` (1-based) of Lynch & Park's space Jacobian at ``q`` (Sec. 5.1.1): the
    joint's screw axis ``(omega, -omega x p)`` in the file's base frame, with the axis
    ``z_{i-1}`` of DH frame ``i-1`` through its origin ``o_{i-1}``; numbers or SymPy
    expressions, as ``q`` is."""
    T = sympy.Matrix(base) * sympy.Matrix(transforms(arm, q)[joint - 1])
    omega, point = T[:3, 2], T[:3, 3]
    return [rounded(v) for v in list(omega) + list(-omega.cross(point))]


def product_of_exponentials(Slist, q, joint):
    """The same column by Lynch & Park's formula (Sec. 5.1.1): the screw axis at home carried by
    the joints before it, ``Ad_{e^[S_1]q_1 ... e^[S_{i-1}]q_{i-1}}(S_i)``."""
    T = spatial.translation((0.0, 0.0, 0.0))
    for k in range(joint - 1):
        T = spatial.compose(T, spatial.exp_twist(tuple(Slist[:, k]), q[k], True))
    return np.array(spatial.Ad(T, tuple(Slist[:, joint - 1])), dtype=float)


def screw_keys():
    chain = read_urdf(UR20_URDF)
    arm, base = from_urdf(UR20_URDF), chain.dh().base
    home = [0.0] * 6
    for joint in (3, 5):                                 # the file's screw axes at home
        assert np.allclose(np.array(space_column(arm, base, home, joint), dtype=float),
                           chain.Slist[:, joint - 1], rtol=0, atol=1e-12)
    pose = [0, radians("q2"), radians("q3"), 0, 0, 0]
    J3, J5 = (space_column(arm, base, pose, joint) for joint in (3, 5))
    # at two corners of the grid and one inner point: the expressions are dynlab's numbers and
    # Lynch & Park's product of exponentials
    for q2, q3 in ((POSE["q2"]["low"], POSE["q3"]["low"]), (POSE["q2"]["high"],
                                                            POSE["q3"]["high"]), (-90, 45)):
        q = [0.0, math.radians(q2), math.radians(q3), 0.0, 0.0, 0.0]
        for joint, column in ((3, J3), (5, J5)):
            values = [at(v, {"q2": q2, "q3": q3}) for v in column]
            assert np.allclose(values, np.array(space_column(arm, base, q, joint), dtype=float),
                               rtol=0, atol=1e-6)
            assert np.allclose(values, product_of_exponentials(chain.Slist, q, joint),
                               rtol=0, atol=1e-6)
    # by hand, the upper arm raised and the elbow straight: the elbow's axis (-y) turned up about
    # the shoulder's, 0.862 m above it
    assert np.allclose([at(v, {"q2": -90, "q3": 0}) for v in J3],
                       [0, -1, 0, 0.2363 + 0.862, 0, 0], rtol=0, atol=1e-6)
    flipped = [c[:3] + [-v for v in c[3:]] for c in (J3, J5)]       # v = omega x p
    wrong_way = [[v.xreplace({sympy.Symbol("q2"): -sympy.Symbol("q2")}) for v in c]
                 for c in (J3, J5)]
    as_radians = [space_column(arm, base, [0, sympy.Symbol("q2"), sympy.Symbol("q3"), 0, 0, 0],
                               joint) for joint in (3, 5)]
    elbow_left_out = [v.xreplace({sympy.Symbol("q3"): 0}) for v in J5]
    home_axes = [[rounded(sympy.Float(float(x))) for x in chain.Slist[:, j]] for j in (2, 4)]
    wrong = "joint 2 turned the wrong way: negative q2 raises the upper arm (joint 2 turns " \
            "about -y of the base)"
    return [make_key(
        "U.1", notebook=NOTEBOOK, title="Columns 3 and 5 of the UR20's space Jacobian at your "
        "pose (Lynch & Park, Sec. 5.1.1)", points=2, kind="numeric", parameters=POSE,
        parts=[{"name": "J3", "value": J3, "shape": [6]},
               {"name": "J5", "value": J5, "shape": [6]}],
        mistakes=[
            *both_columns(flipped, "v = -omega x p (Lynch & Park, Sec. 4.1): the cross product "
                          "in the other order flips v"),
            {"part": "J3", "value": home_axes[0],
             "message": "that is the elbow's screw axis at home: carry it with joint 2 turned "
                        "to your q2"},
            {"part": "J5", "value": home_axes[1],
             "message": "that is the screw axis at home: carry it with joints 2 and 3 turned "
                        "to your q2 and q3"},
            *both_columns(wrong_way, wrong),
            *both_columns(as_radians, "your angles are in degrees: turn them into radians "
                          "before taking their sines and cosines"),
            {"part": "J5", "value": elbow_left_out,
             "message": "the elbow's turn is missing: joint 3 moves joint 5's line too, so "
                        "carry it by q3 as well as by q2"}])]


def holding_torques(arm, payload, q2):
    """dynlab's gravity torques of joints 2 and 3 (``tau`` at rest, Fu, Gonzalez & Lee,
    Eq. (3.2-26) with qd = qdd = 0), the arm straight at shoulder angle ``q2`` (radians, a number
    or a SymPy expression), holding ``payload`` kg at the flange."""
    rest = [0.0] * 6
    tau = inverse_dynamics(with_payload(arm, payload), [0.0, q2, 0.0, 0.0, 0.0, 0.0], rest, rest)
    return list(tau[1:3])


def holding_keys():
    arm = from_urdf(UR20_URDF)
    angle, mass = radians("q2"), sympy.Symbol("payload")
    # tau is linear in the payload's mass (Eq. (3.2-26)): its value without and with 1 kg
    without = holding_torques(arm, 0.0, angle)
    per_kg = [sympy.expand(c1 - c0) for c1, c0 in zip(holding_torques(arm, 1.0, angle), without)]
    bare = [rounded(c) for c in without]
    loaded = [rounded(c + mass * k) for c, k in zip(without, per_kg)]
    for payload, q2 in ((HOLD["payload"]["low"], HOLD["q2"]["low"]),
                        (HOLD["payload"]["high"], HOLD["q2"]["high"]), (13.0, -35.0)):
        exact = holding_torques(arm, payload, math.radians(q2))
        assert np.allclose([at(c, {"payload": payload, "q2": q2}) for c in loaded], exact,
                           rtol=1e-6, atol=1e-6)
    # by hand, Eq. (3.4-28) with the arm horizontal and the maker's table (a2, a3 < 0: the arm
    # along -x); the payload and the wrist's links at a2 + a3
    (a2, _, _, m2, r2, _), (a3, _, _, m3, r3, _) = UR20_PARAMETERS[1:3]
    for payload in (HOLD["payload"]["low"], HOLD["payload"]["high"]):
        wrist = sum(p[3] for p in UR20_PARAMETERS[3:]) + payload
        c2 = G * (m2 * (a2 + r2[0]) + m3 * (a2 + a3 + r3[0]) + wrist * (a2 + a3))
        c3 = G * (m3 * (a3 + r3[0]) + wrist * a3)
        assert np.allclose([at(c, {"payload": payload, "q2": 0}) for c in loaded], [c2, c3],
                           rtol=1e-6, atol=1e-6)
    degrees = {sympy.Symbol("q2"): sympy.Symbol("q2") * 180 / sympy.pi}
    horizontal = [c.xreplace({sympy.Symbol("q2"): 0}) for c in loaded]
    mistakes = []
    for index, name in enumerate(("c2", "c3")):
        mistakes += [
            {"part": name, "value": -loaded[index],
             "message": "that is the moment of the weights about the joint's axis; the motor "
                        "holds the arm with the opposite torque"},
            {"part": name, "value": bare[index],
             "message": "the payload at the flange is missing"},
            {"part": name, "value": horizontal[index],
             "message": "that is the arm held horizontal (q2 = 0); raise it to your q2 first"},
            {"part": name, "value": rounded(loaded[index].xreplace(degrees)),
             "message": "your angle is in degrees: turn it into radians before the inverse "
                        "dynamics takes its sine and cosine"}]
    return [make_key(
        "U.2", notebook=NOTEBOOK, title="Holding your payload with the arm straight and raised: "
        "the gravity torques of the shoulder and the elbow", points=2, kind="numeric",
        parameters=HOLD,
        parts=[{"name": "c2", "value": [loaded[0]], "shape": []},
               {"name": "c3", "value": [loaded[1]], "shape": []}],
        mistakes=mistakes)]


#: U.3's table: a two-link arm in the base's vertical x-z plane, both joints about the base's -y
#: (positive q raises a link), q1 from the horizontal, q2 from link 1: per link its length
#: (joint to joint), mass, centre of mass from its joint along the link, and the inertia about
#: its centre across the link and along it, kg m^2
MY_ARM = ((0.4, 2.0, 0.2, 0.03, 0.0005), (0.3, 1.2, 0.12, 0.01, 0.0003))
#: U.3's givens: the pose, in degrees: q1 on odd fives, q2 ending in 4, so link 2 is never
#: upright (q1 + q2 != 90), cos q2 stays apart from cos(q1 + q2) (q1 is 3 or more from -2 q2),
#: a typical mistake, and q1 + q2 ends in 1 or 9: no two poses (q1, s) and (q1, -s) share their
#: holding torques (cos is even), which q2 on tens allowed: (25, -20) and (25, -30)
MY_POSE = {"q1": {"low": 15, "high": 65, "step": 10, "unit": "degrees",
                  "text": "joint 1, the shoulder, from the horizontal; positive raises"},
           "q2": {"low": -84, "high": -24, "step": 10, "unit": "degrees",
                  "text": "joint 2, the elbow, from link 1"}}


def my_urdf() -> str:
    """U.3's table written as a URDF file (the solution's, the same numbers)."""
    inertial = [f"""<inertial><origin xyz="{r} 0 0"/><mass value="{m}"/>
      <inertia ixx="{along}" ixy="0" ixz="0" iyy="{across}" iyz="0" izz="{across}"/></inertial>"""
                for _, m, r, across, along in MY_ARM]
    return f"""<robot name="my arm">
  <link name="base"/>
  <link name="upper">{inertial[0]}</link>
  <link name="fore">{inertial[1]}</link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <axis xyz="0 -1 0"/><limit lower="-3.2" upper="3.2" effort="50" velocity="3"/></joint>
  <joint name="elbow" type="revolute"><parent link="upper"/><child link="fore"/>
    <origin xyz="{MY_ARM[0][0]} 0 0"/><axis xyz="0 -1 0"/>
    <limit lower="-3.2" upper="3.2" effort="30" velocity="3"/></joint>
</robot>"""


def own_urdf_keys():
    """U.3: the holding torques of the student's own two-link arm, by hand from the table: the
    derivatives of its potential energy (the 2R arm's gravity terms of Lynch & Park, Sec. 8.1.1,
    with each mass at its r_i), asserted equal to dynlab's, from the table written as a URDF
    file, at grid points."""
    (L1, m1, r1, _, _), (_, m2, r2, _, _) = MY_ARM
    q1, q2 = radians("q1"), radians("q2")
    c1 = G * ((m1 * r1 + m2 * L1) * sympy.cos(q1) + m2 * r2 * sympy.cos(q1 + q2))
    c2 = G * m2 * r2 * sympy.cos(q1 + q2)
    arm = from_urdf(my_urdf())
    for a, b in ((15, -80), (65, -20), (35, -50)):
        held = probe(arm, q=np.radians([a, b]), qd=np.zeros(2)).c
        assert np.allclose([at(c1, {"q1": a, "q2": b}), at(c2, {"q1": a, "q2": b})],
                           np.array(held, dtype=float).ravel(), rtol=1e-9, atol=1e-9)
    as_radians = {sympy.Symbol("q1"): sympy.Symbol("q1") * 180 / sympy.pi,
                  sympy.Symbol("q2"): sympy.Symbol("q2") * 180 / sympy.pi}
    at_the_ends = {"c1": G * ((m1 * L1 + m2 * L1) * sympy.cos(q1) + m2 * MY_ARM[1][0]
                              * sympy.cos(q1 + q2)),
                   "c2": G * m2 * MY_ARM[1][0] * sympy.cos(q1 + q2)}
    absolute = {"c1": G * ((m1 * r1 + m2 * L1) * sympy.cos(q1) + m2 * r2 * sympy.cos(q2)),
                "c2": G * m2 * r2 * sympy.cos(q2)}
    right = [c1, c2]

    def both(values):
        return [rounded(v) for v in values]
    mistakes = [
        {"part": "c", "value": both([-c1, -c2]),
         "message": "the motors hold the arm up: about the table's -y a positive torque raises "
                    "a link (the opposite sign is the weights' moment, or joints about +y)"},
        {"part": "c", "value": both([v.xreplace(as_radians) for v in right]),
         "message": "your angles are in degrees: turn them into radians"},
        {"part": "c", "value": both([at_the_ends["c1"], at_the_ends["c2"]]),
         "message": "each centre of mass is r_i from its joint (the inertial origin), not at "
                    "the link's end"},
        {"part": "c", "value": both([absolute["c1"], absolute["c2"]]),
         "message": "q2 is measured from link 1: link 2 points at q1 + q2 from the horizontal "
                    "(the elbow joint rides on the upper arm)"},
        {"part": "c", "value": both([G * m1 * r1 * sympy.cos(q1), c2]),
         "message": "the shoulder holds link 2 as well: its weight at L1 and r2 beyond"}]
    for a in grid_values(MY_POSE["q1"]):          # each mistake apart at every pose
        for b in grid_values(MY_POSE["q2"]):
            values = {"q1": a, "q2": b}
            exact = np.array([at(rounded(v), values) for v in right])
            for mistake in mistakes:
                wrong = np.array([at(v, values) for v in mistake["value"]])
                assert np.max(np.abs(wrong - exact)) > 1e-3 * np.max(np.abs(exact)), (
                    a, b, mistake["message"])
    return [make_key(
        "U.3", notebook=NOTEBOOK, title="Your own arm as a URDF file: its holding torques",
        points=2, kind="numeric", parameters=MY_POSE,
        parts=[{"name": "c", "value": both(right), "shape": [2]}], mistakes=mistakes)]


def keys() -> list:
    return screw_keys() + holding_keys() + own_urdf_keys()
