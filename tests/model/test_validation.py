"""Bad input gets a clear ValueError/TypeError naming the link (or robot) and the parameter."""

import math

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import dynlab
from dynlab import (
    Link,
    Robot,
    equations_of_motion,
    forward_dynamics,
    inverse_dynamics,
    joint_friction,
    joint_symbols,
    rod_inertia,
)
from dynlab.dynamics.codegen import generate
from dynlab.dynamics.forward import inertia_and_bias
from dynlab.model.checks import NotFiniteError
from dynlab.model.kinematics import link_jacobians, link_transform, tool_pose
from dynlab.model.robots import cartesian, pendulum, planar_2r, puma560, scara
from tests.support.arms import ALL_FORMULATIONS
from tests.support.strategies import chains


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

I = sympy.Symbol("I", positive=True)
BAD_LINKS += [
    ("a small link's inertia not symmetric (relative tolerance)",
     lambda: good_link(inertia=[[1e-10, 5e-10, 0], [0, 1e-10, 0], [0, 0, 1e-10]]), ValueError,
     ["elbow", "not symmetric", "inertia[0][1]"]),
    ("a large link's inertia not positive semi-definite (relative tolerance)",
     lambda: good_link(inertia=[[1e6, 2e6, 0], [2e6, 1e6, 0], [0, 0, 1e6]]), ValueError,
     ["elbow", "positive semi-definite"]),
    ("symbolic inertia with a negative 2x2 principal minor",
     lambda: good_link(inertia=sympy.Matrix([[I, 2 * I, 0], [2 * I, I, 0], [0, 0, I]])),
     ValueError, ["elbow", "positive semi-definite", "minor", "-3*I**2"]),
    ("symbolic inertia violating the triangle inequality",
     lambda: good_link(inertia=(I, I, 3 * I)), ValueError,
     ["elbow", "triangle inequality", "Izz", "lumped_inertia"]),
    ("lumped_inertia given as text", lambda: good_link(lumped_inertia="no"), TypeError,
     ["elbow", "lumped_inertia", "True or False", "str"]),
    ("mass beyond the float range", lambda: good_link(mass=10**400), ValueError,
     ["elbow", "mass", "finite", "too large"]),
    ("inertia entries whose check overflows", lambda: good_link(inertia=(1e200, 1e200, 1e200)),
     ValueError, ["elbow", "inertia", "too large"]),
    ("rod inertia of a boolean mass", lambda: rod_inertia(True, 1), TypeError,
     ["rod_inertia", "mass", "boolean"]),
    ("rod inertia about an axis given as a list", lambda: rod_inertia(1, 1, ["x"]), TypeError,
     ["rod_inertia", "axis", "list"]),
]

BAD_ROBOTS += [
    ("source not a string", lambda: two_link(source=3), TypeError, ["arm", "source", "int"]),
    ("link index given as a boolean", lambda: two_link().replace_link(True, mass=1.0), TypeError,
     ["arm", "link index", "boolean"]),
    ("joint symbols of a boolean count", lambda: joint_symbols(True), TypeError,
     ["joint_symbols", "n", "boolean"]),
]

# the robot builders: flags must be booleans, counts whole numbers, parameters numbers
BAD_BUILDERS = [
    ("PUMA with joints=True", lambda: puma560(joints=True), TypeError,
     ["puma560", "joints", "boolean"]),
    ("PUMA with joints=2.0", lambda: puma560(joints=2.0), TypeError,
     ["puma560", "joints", "whole number", "float"]),
    ("PUMA with symbolic as text", lambda: puma560(symbolic="no"), TypeError,
     ["puma560", "symbolic", "str"]),
    ("pendulum with symbolic as text", lambda: pendulum(symbolic="yes"), TypeError,
     ["pendulum", "symbolic", "True or False"]),
    ("SCARA with symbolic=1", lambda: scara(symbolic=1), TypeError, ["scara", "symbolic", "int"]),
    ("two-link arm with symbolic as text", lambda: planar_2r(symbolic="no"), TypeError,
     ["planar_2r", "symbolic"]),
    ("two-link arm's variant as a list", lambda: planar_2r(["fu"]), TypeError,
     ["planar_2r", "variant", "list"]),
    ("two-link arm's m1 as a boolean", lambda: planar_2r(m1=True), TypeError,
     ["planar_2r", "m1", "boolean"]),
    ("pendulum's m1 as text", lambda: pendulum(m1="abc"), TypeError, ["pendulum", "m1", "str"]),
    ("pendulum's m1 beyond the float range", lambda: pendulum(m1=10**400), ValueError,
     ["pendulum", "m1", "too large"]),
    ("SCARA's g as text", lambda: scara(g="9.8"), TypeError, ["scara", "g", "str"]),
    ("Cartesian arm's m1 as text", lambda: cartesian(m1="abc"), TypeError,
     ["cartesian", "m1", "str"]),
]

FLAGS = [(inverse_dynamics, "inverse_dynamics", name, value) for name, value in (
    ("gravity", "no"), ("friction", 1), ("tip_wrench", None), ("trace", "yes"),
    ("compiled", "no"), ("simplify", "auto"))] + \
    [(equations_of_motion, "equations_of_motion", name, value) for name, value in (
        ("simplify", 1), ("progress", "yes"))] + \
    [(forward_dynamics, "forward_dynamics", name, value) for name, value in (
        ("gravity", "no"), ("friction", "off"), ("tip_wrench", 0), ("compiled", "no"),
        ("simplify", "yes"))] + \
    [(inertia_and_bias, "inertia_and_bias", "gravity", "no"),
     (generate, "generate", "gravity", "no"), (generate, "generate", "share", "no")]


def call_with_flag(function, name, value):
    arm = two_link()
    if function in (inverse_dynamics, forward_dynamics):
        return function(arm, *STATE, **{name: value})
    if function is equations_of_motion:
        return function(arm, *STATE[:2], **{name: value})
    if function is inertia_and_bias:
        return function(arm, *STATE[:2], **{name: value})
    return function(arm, **{name: value})


BAD_CALLS += [(f"{where}({name}={value!r})",
               lambda f=function, n=name, v=value: call_with_flag(f, n, v), TypeError,
               [where, name, "True", type(value).__name__])
              for function, where, name, value in FLAGS]

HUGE = ([0.3, 0.4], [1e200, 1e200], [0.0, 0.0])
BAD_CALLS += [
    ("method given as a list", lambda: inverse_dynamics(two_link(), *STATE,
                                                        method=["newton_euler"]),
     TypeError, ["method", "newton_euler", "list"]),
    ("variant given as a number", lambda: inverse_dynamics(two_link(), *STATE, variant=1),
     TypeError, ["variant", "link", "int"]),
    ("method given as a list to generate", lambda: generate(two_link(), method=["dalembert"]),
     TypeError, ["method", "list"]),
    ("output of generate given as a list", lambda: generate(two_link(), ["inverse_dynamics"]),
     TypeError, ["what", "inverse_dynamics", "list"]),
    # overflow: the inputs are finite, the result is not
    ("inverse dynamics overflowing", lambda: inverse_dynamics(planar_2r(), *HUGE), NotFiniteError,
     ["tau1 of two-link arm", "not finite (overflow)", "qd = (1e+200, 1e+200)"]),
    ("inverse dynamics step by step overflowing",
     lambda: inverse_dynamics(planar_2r(), *HUGE, method="lagrange_euler", compiled=False),
     NotFiniteError, ["tau1", "not finite (overflow)"]),
    ("forward dynamics overflowing in the bias",
     lambda: forward_dynamics(planar_2r(), *HUGE), NotFiniteError,
     ["qdd1 of two-link arm", "not finite (overflow)", "qd = (1e+200, 1e+200)"]),
    ("forward dynamics overflowing in the solution",
     lambda: forward_dynamics(planar_2r(), [0, 0], [0, 0], [1e308, -1e308]), NotFiniteError,
     ["qdd", "not finite (overflow)", "tau = (1e+308, -1e+308)"]),
    ("forward dynamics step by step overflowing",
     lambda: forward_dynamics(planar_2r(), *HUGE, compiled=False), NotFiniteError,
     ["bias1", "not finite (overflow)"]),
    ("evaluated equations of motion overflowing",
     lambda: equations_of_motion(planar_2r(), *HUGE[:2]), NotFiniteError,
     ["h1 of two-link arm", "not finite (overflow)"]),
    ("probed equations of motion overflowing",
     lambda: equations_of_motion(planar_2r(), *HUGE[:2], method="newton_euler"),
     NotFiniteError, ["of two-link arm", "not finite (overflow)", "qd = (1e+200, 1e+200)"]),
    ("D and bias overflowing", lambda: inertia_and_bias(planar_2r(), *HUGE[:2]),
     NotFiniteError, ["bias1", "not finite (overflow)"]),
    ("inertia matrix of huge links overflowing",
     lambda: forward_dynamics(Robot([good_link(a=1e200, mass=1e200, com=(-0.5e200, 0, 0))],
                                    gravity=(0, -9.8, 0)), [0.1], [0.0], [0.0]),
     NotFiniteError, ["D11", "not finite (overflow)"]),
    ("friction overflowing", lambda: joint_friction(pendulum(viscous=1e300), [1e300]),
     NotFiniteError, ["b1", "not finite (overflow)"]),
    ("generated code called with NaN", lambda: generate(planar_2r())([0, np.nan], [0, 0], [0, 0]),
     ValueError, ["inverse_dynamics", "q[1]", "finite", "nan"]),
    ("generated code called with a boolean",
     lambda: generate(planar_2r())([True, 0], [0, 0], [0, 0]), TypeError, ["q[0]", "bool"]),
    ("generated code overflowing", lambda: generate(planar_2r())(*HUGE), NotFiniteError,
     ["tau1", "inverse_dynamics", "not finite (overflow)"]),
    ("vectorized generated code called with inf",
     lambda: generate(planar_2r()).vectorized([[np.inf, 0]], [[0, 0]], [[0, 0]]), ValueError,
     ["q[0][0]", "finite", "inf"]),
    ("vectorized generated code overflowing",
     lambda: generate(planar_2r()).vectorized([HUGE[0]], [HUGE[1]], [HUGE[2]]), NotFiniteError,
     ["tau1", "not finite (overflow)"]),
    ("Newton-Euler trace indexed by a boolean",
     lambda: inverse_dynamics(two_link(), *STATE, trace=True)[1][True], IndexError,
     ["link number", "1..2"]),
]

ALL_CASES = BAD_LINKS + BAD_ROBOTS + BAD_BUILDERS + BAD_CALLS


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


# -- the state given to equations_of_motion is honoured by every method ----------------------------
SYMPY_STATE = ([sympy.pi / 4, sympy.Rational(1, 10)], [0, 0.5])


@pytest.mark.parametrize("method, variant", ALL_FORMULATIONS,
                         ids=[f"{m}-{v}" for m, v in ALL_FORMULATIONS])
def test_every_method_evaluates_at_a_state_of_sympy_numbers(method, variant):
    eom = equations_of_motion(planar_2r(), *SYMPY_STATE, method=method, variant=variant)
    floats = equations_of_motion(planar_2r(), [math.pi / 4, 0.1], [0.0, 0.5],
                                 method="newton_euler")
    assert not eom.symbolic
    for name in ("D", "h", "c", "friction"):
        np.testing.assert_allclose(getattr(eom, name), getattr(floats, name), rtol=1e-12,
                                   atol=1e-12, err_msg=name)
    # Fu, Gonzalez & Lee, Sec. 3.2.6 at q2 = 0.1: D11 = (m1/3 + 4 m2/3 + m2 C2) l^2 = 2/3 + 4/3 +
    # cos(0.1)
    assert eom.D[0, 0] == pytest.approx(2 + math.cos(0.1), rel=1e-14)


@pytest.mark.parametrize("method, variant", ALL_FORMULATIONS,
                         ids=[f"{m}-{v}" for m, v in ALL_FORMULATIONS])
def test_every_method_keeps_a_partly_symbolic_state(method, variant):
    x = sympy.Symbol("x", real=True)
    eom = equations_of_motion(planar_2r(), [x, sympy.Rational(1, 10)], [0, 0.5], method=method,
                              variant=variant)
    assert eom.symbolic and eom.D.free_symbols <= {x} and x in eom.c.free_symbols
    at = equations_of_motion(planar_2r(), [math.pi / 4, 0.1], [0.0, 0.5])
    for name in ("D", "h", "c"):
        value = np.array(getattr(eom, name).subs(x, sympy.pi / 4).evalf(), dtype=float)
        value = value.reshape(np.shape(getattr(at, name)))
        np.testing.assert_allclose(value, getattr(at, name), rtol=1e-12, atol=1e-12)


def test_the_newton_euler_result_at_a_symbolic_robot_state_matches_lagrange_euler():
    arm = planar_2r(symbolic=True)
    probed = equations_of_motion(arm, [0.1, 0.2], [0.3, -0.4], method="newton_euler")
    closed = equations_of_motion(arm, [0.1, 0.2], [0.3, -0.4], method="lagrange_euler")
    assert probed.symbolic and closed.symbolic
    for name in ("D", "h", "c"):
        difference = (getattr(probed, name) - getattr(closed, name)).applyfunc(sympy.expand)
        assert all(abs(float(coefficient)) < 1e-12 for element in difference
                   for coefficient in sympy.Poly(element, *arm.free_symbols).coeffs()), name


# -- properties that hold for every arm and every scale --------------------------------------------
@settings(max_examples=30, deadline=None)
@given(chains(max_joints=4), st.integers(0, 300), st.integers(0, 2**32 - 1))
def test_results_are_finite_or_an_overflow_is_named(robot, exponent, seed):
    rng = np.random.default_rng(seed)
    q, qd, qdd = rng.uniform(-1, 1, (3, robot.n))
    qd = qd * 10.0**exponent
    for call in (lambda: inverse_dynamics(robot, q, qd, qdd),
                 lambda: inverse_dynamics(robot, q, qd, qdd, compiled=False),
                 lambda: forward_dynamics(robot, q, qd, qdd)):
        try:
            result = call()
        except NotFiniteError as error:
            assert "not finite (overflow)" in str(error) and robot.name in str(error)
        else:
            assert np.isfinite(result).all()


@settings(max_examples=60, deadline=None)
@given(st.integers(-150, 150), st.floats(0.01, 1.0), st.floats(0.01, 1.0), st.floats(0.01, 1.0))
def test_inertia_checks_do_not_depend_on_the_scale(exponent, a, b, c):
    """Second moments ``a, b, c`` (>= 0) give the rigid-body inertia ``diag(b + c, a + c, a + b)``
    (Lynch & Park, the rotational inertia matrix of a rigid body): accepted at any scale; the
    same with an off-diagonal entry on one side only, refused at any scale."""
    scale = 10.0**exponent
    moments = [scale * (b + c), scale * (a + c), scale * (a + b)]
    assert good_link(inertia=moments).inertia[0][0] == moments[0]
    lopsided = [[moments[0], 0.1 * scale, 0], [0, moments[1], 0], [0, 0, moments[2]]]
    with pytest.raises(ValueError, match="not symmetric"):
        good_link(inertia=lopsided)
    stretched = (moments[0], moments[1], 1.01 * (moments[0] + moments[1]))
    with pytest.raises(ValueError, match="triangle inequality"):
        good_link(inertia=stretched)


def test_a_symbolic_inertia_that_may_be_positive_semi_definite_is_accepted():
    a, b = sympy.symbols("a b", positive=True)
    link = good_link(inertia=sympy.Matrix([[a, b, 0], [b, a, 0], [0, 0, 2 * a]]))
    assert link.inertia[0][1] == b        # a**2 - b**2 has no sign SymPy can decide


def test_flags_accept_numpy_booleans():
    assert inverse_dynamics(two_link(), *STATE, gravity=np.bool_(False))[0] == 0.0


def test_the_top_level_functions_refuse_a_list_of_methods_alike():
    for function in (dynlab.inverse_dynamics, dynlab.forward_dynamics):
        with pytest.raises(TypeError, match="method must be a string"):
            function(two_link(), *STATE, method=["newton_euler"])


# -- raw errors made clear: each names what is wrong ----------------------------------------
def test_a_parameter_whose_products_overflow_is_named():
    """planar_2r(l=1e200) used to raise OverflowError (34, 'Numerical result out of range') from
    the rod's m l^2 / 12."""
    with pytest.raises(ValueError, match=r"^planar_2r: l = 1e\+200 is too large: products of "
                                         r"three parameters \(m l\^2\) would exceed"):
        planar_2r(l=1e200)
    with pytest.raises(ValueError, match=r"^pendulum: m1 = -1e\+200 is too large"):
        pendulum(m1=-1e200)
    assert planar_2r(l=1e30).links[0].a == 1e30


@pytest.mark.parametrize("robot, entries", [(pendulum(), 1), (planar_2r("fu"), 2)])
def test_a_zero_dimensional_array_is_one_joint_value(robot, entries):
    """A 0-d array as q used to raise "'float' object is not iterable"."""
    q = np.array(0.1)
    if entries == 1:
        assert inverse_dynamics(robot, q, [0.0], [0.0]) == pytest.approx(
            inverse_dynamics(robot, [0.1], [0.0], [0.0]), rel=1e-15)
        with pytest.raises(TypeError, match=r"q\[0\] must be a real number .* got the boolean"):
            inverse_dynamics(robot, np.array(True), [0.0], [0.0])
    else:
        with pytest.raises(ValueError, match=r": q must have 2 entries \(one per joint\), got 1$"):
            inverse_dynamics(robot, q, [0.0, 0.0], [0.0, 0.0])


def test_subs_needs_a_mapping():
    """robot.subs([1, 2]) used to return the robot unchanged."""
    arm = planar_2r("fu", symbolic=True)
    with pytest.raises(TypeError, match=r": subs needs a mapping \{symbol: value\} \(or "
                                        r"\(symbol, value\) pairs\), got list \[1, 2\]$"):
        arm.subs([1, 2])
    l = next(s for s in arm.free_symbols if s.name == "l")
    assert arm.subs([(l, 2)]).links[0].a == arm.subs({l: 2}).links[0].a == 2


def test_equations_text_needs_equations_of_motion():
    """equations_text('x') used to raise "'str' object has no attribute 'symbolic'"."""
    from dynlab.dynamics.equations import equations_text
    with pytest.raises(TypeError, match=r"^equations_text: eom must be an EquationsOfMotion "
                                        r"\(from dynlab.equations_of_motion\), got str 'x'$"):
        equations_text("x")
    with pytest.raises(TypeError, match=r"^equations_text: progress must be a function"):
        equations_text(equations_of_motion(pendulum(symbolic=True)), progress="yes")
