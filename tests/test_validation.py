"""Bad input gets a clear ValueError/TypeError naming the link (or robot) and the parameter."""

import math

import numpy as np
import pytest
import sympy

from dynlab import Link, Robot, inverse_dynamics
from dynlab.kinematics import link_jacobians, link_transform, tool_pose


def good_link(**changes):
    values = dict(a=1.0, mass=1.0, com=(-0.5, 0, 0), inertia=(0.01, 0.1, 0.1), name="elbow")
    values.update(changes)
    return Link("R", **values)


def two_link(**robot_changes):
    return Robot([good_link(name="link 1"), good_link(name="link 2")], name="arm",
                 **robot_changes)


# (what is wrong, how to build it, exception type, words the message must contain)
BAD_LINKS = [
    ("unknown joint type", lambda: Link("spherical", name="elbow"), ValueError,
     ["elbow", "unknown joint type", "spherical"]),
    ("joint type not a string", lambda: Link(3, name="elbow"), TypeError, ["elbow", "joint"]),
    ("theta set on a revolute joint", lambda: good_link(theta=0.2), ValueError,
     ["elbow", "theta", "joint variable", "offset"]),
    ("d set on a prismatic joint", lambda: Link("P", d=0.2, name="slide"), ValueError,
     ["slide", "d is the joint variable", "offset"]),
    ("negative mass", lambda: good_link(mass=-2.0), ValueError, ["elbow", "mass", "non-negative"]),
    ("NaN mass", lambda: good_link(mass=float("nan")), ValueError, ["elbow", "mass", "finite"]),
    ("infinite length", lambda: good_link(a=math.inf), ValueError, ["elbow", "a ", "finite"]),
    ("NaN alpha", lambda: good_link(alpha=np.nan), ValueError, ["elbow", "alpha", "finite"]),
    ("mass given as text", lambda: good_link(mass="2 kg"), TypeError, ["elbow", "mass", "str"]),
    ("mass given as a boolean", lambda: good_link(mass=True), TypeError,
     ["elbow", "mass", "boolean"]),
    ("complex length", lambda: good_link(a=1 + 2j), ValueError, ["elbow", "a ", "real"]),
    ("symbolic negative mass", lambda: good_link(mass=-sympy.Symbol("m", positive=True)),
     ValueError, ["elbow", "mass", "non-negative"]),
    ("symbolic infinite offset", lambda: good_link(offset=sympy.oo), ValueError,
     ["elbow", "offset", "finite"]),
    ("centre of mass with 2 entries", lambda: good_link(com=(0.1, 0.2)), ValueError,
     ["elbow", "com", "3-vector", "2 entries"]),
    ("centre of mass nested", lambda: good_link(com=((0, 0, 0),)), ValueError,
     ["elbow", "com", "nested"]),
    ("centre of mass with NaN", lambda: good_link(com=(0, np.nan, 0)), ValueError,
     ["elbow", "com[1]", "finite"]),
    ("centre of mass not a sequence", lambda: good_link(com=0.5), TypeError,
     ["elbow", "com", "sequence"]),
    ("inertia 2x2", lambda: good_link(inertia=[[1, 0], [0, 1]]), ValueError,
     ["elbow", "inertia", "3x3"]),
    ("inertia not symmetric",
     lambda: good_link(inertia=[[1, 0.1, 0], [0.2, 1, 0], [0, 0, 1]]), ValueError,
     ["elbow", "inertia", "not symmetric", "inertia[0][1]"]),
    ("inertia not positive semi-definite",
     lambda: good_link(inertia=[[1, 2, 0], [2, 1, 0], [0, 0, 1]]), ValueError,
     ["elbow", "inertia", "positive semi-definite"]),
    ("negative principal moment", lambda: good_link(inertia=(-1, 1, 1)), ValueError,
     ["elbow", "positive semi-definite"]),
    ("inertia violating the triangle inequality", lambda: good_link(inertia=(1, 1, 3)),
     ValueError, ["elbow", "triangle inequality", "lumped_inertia"]),
    ("inertia with NaN", lambda: good_link(inertia=(1, np.nan, 1)), ValueError,
     ["elbow", "inertia[1][1]", "finite"]),
    ("inertia with text", lambda: good_link(inertia=[[1, 0, 0], [0, "x", 0], [0, 0, 1]]),
     TypeError, ["elbow", "inertia[1][1]"]),
    ("symbolic inertia not symmetric",
     lambda: good_link(inertia=sympy.Matrix([[1, sympy.Symbol("a"), 0], [0, 1, 0], [0, 0, 1]])),
     ValueError, ["elbow", "not symmetric"]),
    ("negative viscous friction", lambda: good_link(viscous=-0.1), ValueError,
     ["elbow", "viscous", "non-negative"]),
    ("negative Coulomb friction", lambda: good_link(coulomb=-0.1), ValueError,
     ["elbow", "coulomb"]),
    ("negative static friction", lambda: good_link(static=-0.1), ValueError,
     ["elbow", "static"]),
    ("zero friction epsilon", lambda: good_link(epsilon=0.0), ValueError,
     ["elbow", "epsilon", "positive"]),
    ("link name not a string", lambda: good_link(name=5), TypeError, ["name", "string"]),
    ("unknown parameter to replace", lambda: good_link().replace(lenght=2), TypeError,
     ["elbow", "lenght"]),
]

BAD_ROBOTS = [
    ("no links", lambda: Robot([], name="arm"), ValueError, ["arm", "at least one link"]),
    ("a single Link instead of a list", lambda: Robot(good_link(), name="arm"), TypeError,
     ["arm", "wrap it in a list"]),
    ("a link that is not a Link", lambda: Robot([good_link(), {"a": 1}], name="arm"), TypeError,
     ["arm", "link 2", "dict"]),
    ("gravity with 2 entries", lambda: two_link(gravity=(0, -9.8)), ValueError,
     ["arm", "gravity", "3-vector"]),
    ("tip force with NaN", lambda: two_link(tip_force=(0, np.nan, 0)), ValueError,
     ["arm", "tip_force[1]", "finite"]),
    ("tip moment with 4 entries", lambda: two_link(tip_moment=(0, 0, 0, 1)), ValueError,
     ["arm", "tip_moment", "4 entries"]),
    ("link index 0 (indices are 1-based)", lambda: two_link().replace_link(0, mass=1.0),
     ValueError, ["arm", "link index", "1..2"]),
]

STATE = ([0.1, 0.2], [0.0, 0.0], [0.0, 0.0])

BAD_CALLS = [
    ("q too short", lambda: inverse_dynamics(two_link(), [0.1], *STATE[1:]), ValueError,
     ["arm", "q must have 2 entries", "got 1"]),
    ("qd too long", lambda: inverse_dynamics(two_link(), STATE[0], [0, 0, 0], STATE[2]),
     ValueError, ["arm", "qd must have 2 entries", "got 3"]),
    ("qdd with NaN", lambda: inverse_dynamics(two_link(), *STATE[:2], [0, np.nan]), ValueError,
     ["arm", "qdd[1]", "finite"]),
    ("q given as a matrix", lambda: inverse_dynamics(two_link(), [[0, 0], [0, 0]], *STATE[1:]),
     ValueError, ["arm", "q", "flat vector"]),
    ("q given as text", lambda: inverse_dynamics(two_link(), "0.1 0.2", *STATE[1:]), TypeError,
     ["arm", "q"]),
    ("q with an infinite NumPy entry",
     lambda: inverse_dynamics(two_link(), np.array([0.0, np.inf]), *STATE[1:]), ValueError,
     ["arm", "q[1]", "finite"]),
    ("unknown method", lambda: inverse_dynamics(two_link(), *STATE, method="kane"), ValueError,
     ["unknown method", "kane", "newton_euler"]),
    ("unknown variant", lambda: inverse_dynamics(two_link(), *STATE, variant="tool"), ValueError,
     ["unknown variant", "tool", "link", "base"]),
    ("not a robot", lambda: inverse_dynamics("puma", *STATE), TypeError, ["Robot", "str"]),
    ("link index out of range", lambda: link_transform(two_link(), [0.0, 0.0], 3), ValueError,
     ["arm", "link index", "1..2"]),
    ("kinematics with the wrong q length", lambda: tool_pose(two_link(), [0.0]), ValueError,
     ["arm", "q must have 2 entries"]),
    ("Jacobians with a complex q", lambda: link_jacobians(two_link(), [0.0, 1j]), ValueError,
     ["arm", "q[1]", "real"]),
]


def symbolic_robot_numeric_only():
    m = sympy.Symbol("m", positive=True)
    Robot([good_link(mass=m, name="link 1")], name="arm").numeric()


BAD_CALLS.append(("numeric-only operation on a symbolic robot", symbolic_robot_numeric_only,
                  TypeError, ["arm", "numeric parameters", "m", "subs"]))

ALL_CASES = BAD_LINKS + BAD_ROBOTS + BAD_CALLS


def test_at_least_25_distinct_bad_inputs():
    assert len({case[0] for case in ALL_CASES}) == len(ALL_CASES) >= 25


@pytest.mark.parametrize("what, build, error, words", ALL_CASES, ids=[c[0] for c in ALL_CASES])
def test_bad_input_raises_a_clear_error(what, build, error, words):
    with pytest.raises(error) as raised:
        build()
    message = str(raised.value)
    for word in words:
        assert word in message, f"{what}: {word!r} not in {message!r}"


def test_lumped_inertia_allows_a_published_non_rigid_inertia():
    link = good_link(inertia=(0, 0.35, 0), lumped_inertia=True)
    assert link.inertia[1][1] == 0.35


def test_exact_multiples_of_half_pi_stay_exact():
    robot = Robot([Link("R", alpha=np.pi / 2, name="l1")])
    assert robot.symbolic()[0][0].cos_alpha == 0
    assert robot.numeric()[0][0].cos_alpha == 0.0
