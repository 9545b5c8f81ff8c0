"""dynlab.model.robots.from_urdf: small URDF files written here and published description
files of real arms (the PyPI package example-robot-data), loaded by dynlab and by an
independent library, Pinocchio (its own URDF parser, urdfdom's, and its RNEA, CRBA and ABA);
random URDF files (Hypothesis, derandomized): what Pinocchio accepts gives its numbers, what it
refuses dynlab refuses; and bad files, each named with its element and problem."""

import importlib.metadata
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dynlab import Link, equations_of_motion, forward_dynamics, inverse_dynamics
from dynlab.cli import main
from dynlab.model.robots import from_urdf, read_urdf
from tests.support.refusals import assert_refused, refusals

pin = pytest.importorskip("pinocchio")


def _inertial(mass, xyz="0 0 0", rpy="0 0 0", moments=(0.01, 0.02, 0.03), products=(0, 0, 0)):
    ixx, iyy, izz = moments
    ixy, ixz, iyz = products
    return (f'<inertial><origin xyz="{xyz}" rpy="{rpy}"/><mass value="{mass}"/>'
            f'<inertia ixx="{ixx}" ixy="{ixy}" ixz="{ixz}" iyy="{iyy}" iyz="{iyz}" '
            f'izz="{izz}"/></inertial>')


def _link(name, inertial=""):
    return f'<link name="{name}">{inertial}</link>'


def _joint(name, kind, parent, child, xyz="0 0 0", rpy="0 0 0", axis="0 0 1", extra=""):
    limit = ('<limit lower="-3" upper="3" effort="100" velocity="5"/>'
             if kind in ("revolute", "prismatic") else "")
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/>'
            f'<child link="{child}"/><origin xyz="{xyz}" rpy="{rpy}"/><axis xyz="{axis}"/>'
            f'{limit}{extra}</joint>')


def _robot(*parts, name="test arm"):
    return f'<?xml version="1.0"?>\n<robot name="{name}">' + "".join(parts) + "</robot>"


# an arm with everything: origins with rpy, axes off the frame's, a prismatic joint, a
# continuous one, a fixed tool with its own mass, and a two-finger gripper off the chain
ARM = _robot(
    _link("base", _inertial(5.0)),
    _link("shoulder", _inertial(3.0, "0 0.02 0.1", "0.1 0 0.2", (0.02, 0.03, 0.025),
                                (0.001, 0, -0.002))),
    _link("upper", _inertial(2.0, "0.2 0 0", moments=(0.005, 0.03, 0.03))),
    _link("slider", _inertial(1.0, "0 0 0.05", moments=(0.004, 0.004, 0.001))),
    _link("wrist", _inertial(0.5, "0 0.01 0.02", "0 0.3 0", (0.001, 0.0012, 0.0008))),
    _link("tool", _inertial(0.3, "0 0 0.04", moments=(0.0005, 0.0005, 0.0002))),
    _link("finger_a", _inertial(0.05, "0 0 0.02", moments=(1e-5, 1e-5, 1e-6))),
    _link("finger_b", _inertial(0.05, "0 0 0.02", moments=(1e-5, 1e-5, 1e-6))),
    _joint("j1", "revolute", "base", "shoulder", "0 0 0.3"),
    _joint("j2", "revolute", "shoulder", "upper", "0.05 0 0.15", "1.5707963 0 0.3", "0 0 1"),
    _joint("j3", "prismatic", "upper", "slider", "0.4 0 0", "0 0.4 0", "0.6 0 0.8"),
    _joint("j4", "continuous", "slider", "wrist", "0 0.05 0.1", "0.2 -0.1 0.5", "0 1 0"),
    _joint("flange", "fixed", "wrist", "tool", "0 0 0.08", "0 0 0.7"),
    _joint("grip_a", "prismatic", "tool", "finger_a", "0 0.02 0.05", axis="0 1 0"),
    _joint("grip_b", "prismatic", "tool", "finger_b", "0 -0.02 0.05", axis="0 -1 0"),
)


def _pinocchio(text, lock=(), gravity=(0, 0, -9.81)):
    """Pinocchio's model of the URDF text, joints ``lock`` locked at zero."""
    model = pin.buildModelFromXML(text)
    if lock:
        ids = [model.getJointId(name) for name in lock]
        model = pin.buildReducedModel(model, ids, pin.neutral(model))
    model.gravity.linear = np.array(gravity, float)
    return model


def _configuration(model, theta):
    """Pinocchio's ``q`` for joint positions ``theta``: a continuous joint is (cos, sin)."""
    q = []
    for joint, value in zip(model.joints[1:], theta):
        q += [math.cos(value), math.sin(value)] if joint.nq == 2 else [value]
    return np.array(q)


def _compare(arm, model, rng, draws=5, singular=False):
    """Inverse dynamics, the mass matrix and forward dynamics against Pinocchio's RNEA, CRBA
    and ABA at random states; ``singular``: an arm whose massless links leave two joints moving
    one thing (two slides in a row) may have a singular D, which forward dynamics refuses."""
    data = model.createData()
    for _ in range(draws):
        theta, dtheta, ddtheta = rng.uniform(-1.5, 1.5, (3, arm.n))
        q = _configuration(model, theta)
        tau = pin.rnea(model, data, q, dtheta, ddtheta)
        scale = max(1.0, np.abs(tau).max())
        np.testing.assert_allclose(inverse_dynamics(arm, theta, dtheta, ddtheta), tau,
                                   rtol=0, atol=1e-9 * scale)
        M = pin.crba(model, data, q)
        M = np.triu(M) + np.triu(M, 1).T
        np.testing.assert_allclose(equations_of_motion(arm, theta, dtheta).D, M, rtol=0,
                                   atol=1e-10 * max(1.0, np.abs(M).max()))
        torque = rng.uniform(-5, 5, arm.n)
        # solving with D loses the digits of its condition number (two nearly coaxial joints
        # with a massless link between them: 1e10): relative round-off 1e-15 times it, of the
        # whole vector (the bound of a linear solve is normwise: a small entry beside a large
        # one carries the large one's error)
        try:
            qdd = forward_dynamics(arm, theta, dtheta, torque)
        except ValueError as refused:
            assert singular and "singular" in str(refused), refused
            assert np.linalg.eigvalsh(M)[0] <= 1e-12 * np.abs(M).max()
            continue
        expected = pin.aba(model, data, q, dtheta, torque)
        rtol = max(1e-8, 1e-15 * np.linalg.cond(M))
        np.testing.assert_allclose(qdd, expected, rtol=0,
                                   atol=rtol * max(1.0, np.abs(expected).max()))


def test_an_arm_with_a_tool_and_a_gripper_agrees_with_pinocchio():
    arm = from_urdf(ARM, tip="tool")
    assert arm.n == 4 and arm.joint_types == ("revolute", "revolute", "prismatic", "revolute")
    assert [link.name for link in arm.links] == ["shoulder", "upper", "slider", "wrist"]
    _compare(arm, _pinocchio(ARM, lock=("grip_a", "grip_b")), np.random.default_rng(26))


def test_every_formulation_runs_on_a_loaded_arm():
    from dynlab.formulations.registry import every_variant
    arm = from_urdf(ARM, tip="tool")
    state = [0.3, -0.4, 0.05, 0.8], [0.2, 0.1, -0.3, 0.5]
    D = equations_of_motion(arm, *state).D
    for method, variant in every_variant():
        if method == "dalembert":            # Fu's G-D form: rotary joints only
            continue
        eom = equations_of_motion(arm, *state, method=method, variant=variant)
        np.testing.assert_allclose(eom.D, D, rtol=1e-10, atol=1e-12, err_msg=method)


def test_the_gripper_chain_is_the_only_chain_without_one_finger():
    one_finger = ARM.replace(_joint("grip_b", "prismatic", "tool", "finger_b", "0 -0.02 0.05",
                                    axis="0 -1 0"), "")
    one_finger = one_finger.replace(_link("finger_b", _inertial(
        0.05, "0 0 0.02", moments=(1e-5, 1e-5, 1e-6))), "")
    arm = from_urdf(one_finger)
    assert arm.n == 5 and arm.links[-1].name == "finger_a"
    _compare(arm, _pinocchio(one_finger), np.random.default_rng(27))


def test_a_branching_tree_needs_a_tip_and_names_the_candidates():
    with pytest.raises(ValueError, match=r"URDF text: the tree branches into several moving "
                                         r"chains; give tip=, one of \['finger_a', 'finger_b'\]"):
        from_urdf(ARM)


def test_a_file_and_gravity(tmp_path):
    path = tmp_path / "arm.urdf"
    path.write_text(ARM)
    gravity = (0.5, -9.0, -3.0)
    arm = from_urdf(path, tip="finger_a", gravity=gravity)
    assert arm.source == "URDF arm.urdf" and arm.name == "test arm"
    _compare(arm, _pinocchio(ARM, lock=("grip_b",), gravity=gravity),
             np.random.default_rng(28))


def test_friction_only_when_asked():
    text = ARM.replace('<axis xyz="0 0 1"/><limit', '<axis xyz="0 0 1"/>'
                       '<dynamics damping="0.7" friction="1.5"/><limit', 1)
    plain, rough = from_urdf(text, tip="tool"), from_urdf(text, tip="tool", friction=True)
    assert not plain.has_friction
    assert [(l.viscous, l.coulomb, l.static) for l in rough.links] == \
        [(0.7, 1.5, 1.5), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)]
    state = [0.1, 0.2, 0.0, 0.3], [0.5, 0, 0, 0], [0, 0, 0, 0]
    difference = inverse_dynamics(rough, *state) - inverse_dynamics(plain, *state)
    np.testing.assert_allclose(difference, [0.7 * 0.5 + 1.5, 0, 0, 0], atol=1e-12)


# -- random chains against Pinocchio --------------------------------------------------------------
finite = dict(allow_nan=False, allow_infinity=False)
numbers = st.floats(-0.5, 0.5, **finite)
angle = st.floats(-math.pi, math.pi, **finite)


def _triple(values):
    return " ".join(f"{v:.6f}" for v in values)


def _chain_parts(draw, n, massless=False, mimic=False, scaled=False):
    """The links and joints of a random chain l0 - j1 - l1 ... - jn - ln; ``massless``: some
    links before ln are frames (mass 0, or no <inertial>); ``mimic``: jn mimics j1;
    ``scaled``: each link's mass and inertia times 10^k, k from -8 to 8 (a light spindle on a
    heavy shoulder, issue 39)."""
    parts = [_link("l0")]
    for k in range(1, n + 1):
        moments = np.array(draw(st.tuples(*[st.floats(0.001, 0.2, **finite)] * 3)))
        mass = draw(st.floats(0.2, 5, **finite))
        if scaled:
            mass = float(f"{mass * 10.0 ** draw(st.integers(-8, 8)):.6e}")
        inertial = _inertial(
            f"{mass:.6e}" if scaled else f"{mass:.6f}",
            _triple(draw(st.tuples(numbers, numbers, numbers))),
            _triple(draw(st.tuples(angle, angle, angle))),
            tuple(mass * np.array([moments[1] + moments[2], moments[0] + moments[2],
                                   moments[0] + moments[1]])))
        if massless and k < n:
            inertial = draw(st.sampled_from([inertial, "", _inertial(0.0, moments=(0, 0, 0))]))
        parts.append(_link(f"l{k}", inertial))
        kind = draw(st.sampled_from(["revolute", "prismatic", "continuous"]))
        axis = draw(st.sampled_from(["1 0 0", "0 1 0", "0 0 1", "0 0.6 0.8", "-1 0 0"]))
        parts.append(_joint(f"j{k}", kind, f"l{k - 1}", f"l{k}",
                            _triple(draw(st.tuples(numbers, numbers, numbers))),
                            _triple(draw(st.tuples(angle, angle, angle))), axis,
                            extra='<mimic joint="j1"/>' if mimic and k == n else ""))
        if draw(st.booleans()):            # a fixed link with its own mass, merged into l{k}
            parts.append(_link(f"extra{k}", _inertial("0.4", _triple(draw(st.tuples(
                numbers, numbers, numbers))))))
            parts.append(_joint(f"fix{k}", "fixed", f"l{k}", f"extra{k}", "0.1 0 0"))
    return parts


def _tip(draw, parent):
    return [_link("tip"), _joint("tip", "fixed", parent, "tip",
                                 _triple(draw(st.tuples(numbers, numbers, numbers))))]


@st.composite
def urdf_chains(draw, scaled=False):
    n = draw(st.integers(1, 5))
    parts = _chain_parts(draw, n, scaled=scaled) + _tip(draw, f"l{n}")
    return _robot(*parts), draw(st.integers(0, 2**32 - 1))


def _sound_or_redrawn(text):
    """The arm of a drawn file, or a new draw when it is the one refusal of a sound file (two
    nearly parallel axes, whose DH frames lie kilometres away: see the test after these)."""
    try:
        return from_urdf(text, tip="tip")
    except ValueError as refused:
        assert "nearly parallel" in str(refused), refused
        assume(False)


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(urdf_chains())
def test_random_urdf_chains_agree_with_pinocchio(chain):
    """Every chain that from_urdf accepts agrees with Pinocchio; the one it refuses (two
    nearly parallel axes, whose DH frames lie kilometres away) is refused as the next test
    shows, and drawn again."""
    text, seed = chain
    arm = _sound_or_redrawn(text)
    _compare(arm, _pinocchio(text), np.random.default_rng(seed), draws=2)


#: the faults of the review's classes of bad files, each with the parts it adds and dynlab's
#: refusal; urdfdom (Pinocchio's parser) refuses the first three, reads the others
_FAULTS = {
    "two joints, one name": ([_link("box", _inertial(3.0)), _joint("j1", "fixed", "l1", "box")],
                             r"two joints are named 'j1'"),
    "two links, one name": ([_link("l1", _inertial(50.0))], r"two links are named 'l1'"),
    "an infinite angle": ([_link("bad"), _joint("fbad", "fixed", "l1", "bad", rpy="inf 0 0")],
                          r"joint 'fbad', <origin> rpy: the numbers must be finite"),
    "a loop apart": ([_link("a", _inertial(1.0)), _link("b", _inertial(1.0)),
                      _joint("ja", "revolute", "a", "b"), _joint("jb", "revolute", "b", "a")],
                     r"closed loop: the joints \['ja', 'jb'\]"),
    "a negative mass": ([_link("neg", _inertial(-1.0)), _joint("fneg", "fixed", "l1", "neg")],
                        r"link 'neg', <inertial>: the mass must not be negative"),
    "a joint moving nothing": ([_link("z")], r"joint 'jz' moves nothing"),
    "a mimic joint on the chain": ([], r"of the chain mimics joint 'j1'"),
}
PINOCCHIO_REFUSES = {"two joints, one name", "two links, one name", "an infinite angle"}


@st.composite
def urdf_files(draw, fault):
    """A random chain (some of its links massless) with the fault (``None``: none)."""
    n = draw(st.integers(2, 4))
    parts = _chain_parts(draw, n, massless=True, mimic=fault == "a mimic joint on the chain")
    extra, refusal = _FAULTS[fault] if fault else ([], None)
    tip = f"l{n}"
    if fault == "a joint moving nothing":            # a massless link at the end of the chain
        extra, tip = extra + [_joint("jz", "revolute", f"l{n}", "z")], "z"
    return (_robot(*parts, *extra, *_tip(draw, tip)), fault, refusal,
            draw(st.integers(0, 2**32 - 1)))


@pytest.mark.parametrize("fault", [None, *_FAULTS])
@settings(max_examples=10, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_dynlab_refuses_what_pinocchio_refuses_and_agrees_on_what_it_reads(fault, data):
    """Every file that Pinocchio refuses, dynlab refuses; every sound file Pinocchio reads
    (massless links among them) gives Pinocchio's numbers; the faults that urdfdom reads past
    (a loop apart from the tree, a negative mass, a joint that moves nothing, a mimic joint on
    the chain) dynlab refuses, naming them."""
    text, fault, refusal, seed = data.draw(urdf_files(fault))
    try:
        model = _pinocchio(text)
    except ValueError as refused:
        assert "does not contain a valid URDF model" in str(refused)
        model = None
    assert (model is None) == (fault in PINOCCHIO_REFUSES)
    if fault is not None:
        with pytest.raises(ValueError, match=refusal):
            from_urdf(text, tip="tip")
        return
    arm = _sound_or_redrawn(text)
    _compare(arm, model, np.random.default_rng(seed), draws=1, singular=True)


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(urdf_chains(scaled=True))
def test_badly_scaled_chains_are_solved_as_pinocchio_solves_them(chain):
    """Masses and inertias from 1e-8 to 1e8 times each other: forward dynamics solves what
    Pinocchio's ABA solves (issue 39: a scale-invariant test of singularity), every path."""
    text, seed = chain
    arm = _sound_or_redrawn(text)
    model = _pinocchio(text)
    data, rng = model.createData(), np.random.default_rng(seed)
    theta, dtheta = rng.uniform(-1.5, 1.5, (2, arm.n))
    torque = rng.uniform(-5, 5, arm.n)
    expected = pin.aba(model, data, _configuration(model, theta), dtheta, torque)
    for compiled in (False, True, True):
        got = forward_dynamics(arm, theta, dtheta, torque, compiled=compiled)
        np.testing.assert_allclose(got, expected, rtol=1e-7,
                                   atol=1e-9 * np.abs(expected).max())


def test_nearly_parallel_axes_are_refused_naming_the_joints_and_the_digits_lost():
    """A tilt of 1e-5 rad between two axes 0.5 m apart puts their common normal 50 km away: a
    DH table exists, but the torques computed in its frames lost seven digits against
    Pinocchio (found by the property above).  A tilt of 0.01 rad is kept and agrees."""
    def chain(yaw):
        return _robot(
            _link("l0"), _link("l1", _inertial("1.000000", moments=(0.17536903389353936,
                                                                     0.17536903389353936, 0.25))),
            _joint("j1", "revolute", "l0", "l1", "0 0 0", "0 0 0", "1 0 0"),
            _link("l2", _inertial("1.000000", moments=(0.25, 0.25, 0.25))),
            _joint("j2", "revolute", "l1", "l2", "0 0.5 0", f"0 0 {yaw}", "1 0 0"),
            _link("tip"), _joint("tip", "fixed", "l2", "tip", "0 0 0"))
    with pytest.raises(ValueError, match=r"URDF text: the axes of l1 and l2 are nearly parallel "
                                         r"\(1e-05 rad apart\): their common normal lies 5e\+04 m "
                                         r"from l2, .* lose about 9 of 16 significant digits"):
        from_urdf(chain(0.00001), tip="tip")
    _compare(from_urdf(chain(0.01), tip="tip"), _pinocchio(chain(0.01)),
             np.random.default_rng(0), draws=2)


# -- bad files ------------------------------------------------------------------------------------
_GOOD_LINK = _link("l1", _inertial(1.0))


_BAD_FILES = [
    (_robot(_link("l0"), _link("l1"), _joint("j1", "revolute", "l0", "l1")),
     r"URDF text: joint 'j1' moves nothing: the links it carries, \['l1'\], have no mass and "
     r"no inertia \(a link without <inertial> has none\)"),
    (_robot(_link("l0"), _link("l1", _inertial(-1.0)), _joint("j1", "revolute", "l0", "l1")),
     r"URDF text: link 'l1', <inertial>: the mass must not be negative, got -1.0"),
    (_robot(_link("l0"), _link("l1", _inertial(1.0, moments=(0.1, 0.1, 0.1),
                                               products=(0.3, 0, 0))),
            _joint("j1", "revolute", "l0", "l1")),
     r"URDF text: link 'l1', <inertial>: inertia is not positive semi-definite"),
    (_robot(_link("l0"), _GOOD_LINK, _joint("j1", "floating", "l0", "l1")),
     r"joint 'j1' is floating"),
    (_robot(_link("l0"), _GOOD_LINK, _joint("j1", "planar", "l0", "l1")),
     r"joint 'j1' is planar"),
    (_robot(_link("l0"), _GOOD_LINK, _link("l2", _inertial(1.0)),
            _joint("j1", "revolute", "l0", "l1"), _joint("j2", "revolute", "l1", "l2"),
            _joint("j3", "revolute", "l0", "l2")),
     r"closed loop: link 'l2' is the child of joints 'j2' and 'j3'"),
    (_robot(_GOOD_LINK, _link("l2", _inertial(1.0)), _joint("j1", "revolute", "l1", "l2"),
            _joint("j2", "revolute", "l2", "l1")),
     r"closed loop"),
    (_robot(_link("l0"), _GOOD_LINK, _joint("j1", "fixed", "l0", "l1")),
     r"no joint moves"),
    (_robot(_link("l0"), _GOOD_LINK, _joint("j1", "revolute", "l0", "l9")),
     r"joint 'j1' names the link 'l9', which the file does not define"),
    (_robot(_link("l0"), _GOOD_LINK, _joint("j1", "spiral", "l0", "l1")),
     r"Invalid joint type: spiral"),
    (_robot(_link("l0"), _link("l1", '<inertial><mass value="1"/></inertial>'),
            _joint("j1", "revolute", "l0", "l1")),
     r"URDF text: link 'l1', <inertial>: no <inertia>"),
    (_robot(_link("l0"), _GOOD_LINK, _joint("j1", "revolute", "l0", "l1", axis="0 0 0")),
     r"joint 'j1', <axis>: the axis is zero"),
    (_robot(_link("l0"), _GOOD_LINK, _link("l2", _inertial(1.0)),
            _joint("j1", "revolute", "l0", "l1"),
            _joint("j2", "revolute", "l1", "l2", extra='<mimic joint="j1"/>')),
     r"joint 'j2' of the chain mimics joint 'j1'"),
    ("<robot name='x'><link name='a'>", r"URDF text: not an XML file \(no element found"),
]


@refusals(
    (lambda: from_urdf(ARM, tip="hand"), ValueError, r"tip 'hand' is not a link of the file"),
    (lambda: from_urdf(ARM, tip="tool", friction="yes"), TypeError,
     r"friction must be True or False"),
    (lambda: from_urdf(3), TypeError,
     r"path must be a file name or URDF text \(a string that starts with '<'\), got int"),
    (lambda: from_urdf(ARM.replace('<axis xyz="0 0 1"/><limit', '<axis xyz="0 0 1"/>'
                                   '<dynamics damping="-0.7" friction="1.5"/><limit', 1),
                       tip="tool", friction=True), ValueError,
     r"^URDF text: joint 'j1', <dynamics>: damping and friction must not be negative, got -0.7 "
     r"and 1.5"),
    (lambda: from_urdf("<robt name='x'/>"), ValueError, r"^URDF text: the root element is <robt>"))
def test_bad_arguments(call, error, words):
    assert_refused(call, error, words)


def test_a_file_that_is_not_there_is_named(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=r"missing.urdf: cannot read the URDF file"):
        from_urdf(tmp_path / "missing.urdf")
    with pytest.raises(ValueError, match=r"^robot\.urdf: cannot read the URDF file \(No such"):
        from_urdf("robot.urdf")


def test_tags_for_other_programs_are_read_past():
    extra = ('<gazebo reference="wrist"><material>Gazebo/Red</material></gazebo>'
             '<transmission name="t1"><type>SimpleTransmission</type>'
             '<joint name="j1"><hardwareInterface>EffortJointInterface</hardwareInterface>'
             '</joint><actuator name="m1"><mechanicalReduction>1</mechanicalReduction>'
             '</actuator></transmission><material name="blue"><color rgba="0 0 1 1"/></material>')
    text = ARM.replace("</robot>", extra + "</robot>")
    with pytest.warns(UserWarning, match=r"^URDF text: ignored what dynlab does not read: tag "
                                         r"<vendor> in <robot>$"):
        arm = from_urdf(text.replace("</robot>", "<vendor/></robot>"), tip="tool")
    state = [0.1, 0.2, 0.3, 0.4], [0.1] * 4, [0.2] * 4
    np.testing.assert_array_equal(inverse_dynamics(arm, *state),
                                  inverse_dynamics(from_urdf(ARM, tip="tool"), *state))



# -- published description files (example-robot-data, PyPI) ---------------------------------------
def _published(relative):
    """A description file of example-robot-data, as the package installs it."""
    path = Path(importlib.metadata.distribution("example-robot-data").locate_file(
        f"cmeel.prefix/share/example-robot-data/robots/{relative}"))
    assert path.is_file(), path
    return path


def _locked(text, tip=None):
    """Pinocchio's joints off the chain that dynlab reads from ``tip``: to lock."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                 # what is read past: checked apart
        chain = {joint.name for joint in read_urdf(text, tip).moving}
    return [name for name in pin.buildModelFromXML(text).names[1:] if name not in chain]


@pytest.mark.parametrize("relative, tip, ignored, locked", [
    # its ee_link, base and tool0 have mass 0: frames
    ("ur_description/urdf/ur5_robot.urdf", None, None, []),
    # its fingers off the chain, one mimicking the other; its <dynamics> carry four vendor
    # attributes on seven joints (28 notes of the parser)
    ("panda_description/urdf/panda.urdf", "panda_hand",
     "attributes D, K, mu_coulomb, mu_viscous of <dynamics>",
     ["panda_finger_joint1", "panda_finger_joint2"]),
    # a massless end effector, transmissions, fixed fingers
    ("kinova_description/robots/kinova.urdf", None, None, []),
])
def test_published_description_files_load_and_agree_with_pinocchio(relative, tip, ignored,
                                                                   locked, rng):
    path = _published(relative)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        arm = from_urdf(path, tip=tip)
    assert [str(w.message) for w in caught] == (
        [f"{path}: ignored what dynlab does not read: {ignored}"] if ignored else [])
    text = path.read_text()
    assert _locked(text, tip) == locked
    _compare(arm, _pinocchio(text, lock=locked), rng)


def test_the_panda_without_a_tip_names_its_fingers():
    with pytest.raises(ValueError, match=r"branches into several moving chains; give tip=, one "
                                         r"of \['panda_leftfinger', 'panda_rightfinger'\]"), \
            pytest.warns(UserWarning, match="ignored what dynlab does not read"):
        from_urdf(_published("panda_description/urdf/panda.urdf"))


# -- massless frames, mimic joints, what is read past ----------------------------------------------
_MIDDLE = {"no <inertial>": "", "mass 0": _inertial(0.0, moments=(0, 0, 0)),
           "mass 0, an inertia": _inertial(0.0, moments=(0.01, 0.01, 0.01))}


@pytest.mark.parametrize("middle", sorted(_MIDDLE))
def test_a_massless_link_is_a_frame(middle, rng):
    """Two joints with a massless link between them (a universal joint), a massless tool."""
    text = _robot(
        _link("l0"), _link("l1", _inertial(2.0, "0.1 0 0")), _link("cross", _MIDDLE[middle]),
        _link("l3", _inertial(1.0, "0 0 0.2", "0.3 0 0")), _link("tool0", _inertial(0.0)),
        _joint("j1", "revolute", "l0", "l1", "0 0 0.3"),
        _joint("j2", "revolute", "l1", "cross", "0.4 0 0", "0 0.2 0", "1 0 0"),
        _joint("j3", "revolute", "cross", "l3", "0 0 0", axis="0 1 0"),
        _joint("flange", "fixed", "l3", "tool0", "0 0 0.3"))
    arm = from_urdf(text)
    assert [link.mass for link in arm.links] == [2.0, 0.0, 1.0]
    _compare(arm, _pinocchio(text), rng)


def test_a_joint_that_moves_nothing_is_named():
    """Pinocchio reads the file, and its mass matrix has a zero row: the joint moves nothing."""
    text = _robot(_link("l0"), _link("l1", _inertial(2.0, "0.1 0 0")), _link("l2"),
                  _link("tool0", _inertial(0.0, moments=(0, 0, 0))),
                  _joint("j1", "revolute", "l0", "l1"),
                  _joint("j2", "revolute", "l1", "l2", "0.4 0 0", axis="1 0 0"),
                  _joint("flange", "fixed", "l2", "tool0", "0 0 0.3"))
    with pytest.raises(ValueError, match=r"^URDF text: joint 'j2' moves nothing: the links it "
                                         r"carries, \['l2', 'tool0'\], have no mass and no "
                                         r"inertia"):
        from_urdf(text)
    model = _pinocchio(text)
    assert pin.crba(model, model.createData(), np.zeros(2))[1].tolist() == [0.0, 0.0]


def _gripper(extra):
    """ARM with grip_b's joint carrying ``extra`` (a <mimic> element)."""
    old = _joint("grip_b", "prismatic", "tool", "finger_b", "0 -0.02 0.05", axis="0 -1 0")
    new = _joint("grip_b", "prismatic", "tool", "finger_b", "0 -0.02 0.05", axis="0 -1 0",
                 extra=extra)
    assert old in ARM
    return ARM.replace(old, new)


def test_a_mimic_joint_off_the_chain_is_locked_with_the_hand(rng):
    text = _gripper('<mimic joint="grip_a" multiplier="1"/>')
    arm = from_urdf(text, tip="tool")
    _compare(arm, _pinocchio(text, lock=("grip_a", "grip_b")), rng)


@pytest.mark.parametrize("extra, tip, message", [
    ('<mimic joint="grip_a"/>', "finger_b",
     r"joint 'grip_b' of the chain mimics joint 'grip_a'; a coupled joint is not an "
     r"independent joint"),
    ('<mimic joint="grip_a"/>', "finger_a",
     r"joint 'grip_b', off the chain, mimics the chain's joint 'grip_a': it moves with the "
     r"chain"),
    ('<mimic joint="j2" multiplier="-1"/>', "tool",
     r"joint 'grip_b', off the chain, mimics the chain's joint 'j2'"),
    ('<mimic joint="grip_a" offset="0.01"/>', "tool",
     r"joint 'grip_b', off the chain, mimics joint 'grip_a' with the offset 0.01"),
])
def test_a_mimic_joint_the_chain_cannot_hold_is_refused(extra, tip, message):
    with pytest.raises(ValueError, match=message):
        from_urdf(_gripper(extra), tip=tip)


def test_vendor_attributes_make_one_warning_that_says_what_was_ignored():
    vendor = '<dynamics damping="0.1" D="1" K="7000" mu_coulomb="0" mu_viscous="16"/>'
    text = ARM.replace('<axis xyz="0 0 1"/>', '<axis xyz="0 0 1"/>' + vendor)
    text = text.replace("</robot>", '<vendor/><link name="spare"><box/></link></robot>')
    text = text.replace('<link name="tool">', '<link name="tool" colour="red">')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="2 root links"):       # spare hangs nowhere
            from_urdf(text, tip="tool")
    assert [str(w.message) for w in caught] == [
        "URDF text: ignored what dynlab does not read: attribute colour of <link>; attributes "
        "D, K, mu_coulomb, mu_viscous of <dynamics>; tag <box> in <link>; tag <vendor> in "
        "<robot>"]


# -- invalid files: what urdfdom (Pinocchio's parser) refuses, and a loop it drops ---------------
def _refused_by_pinocchio(text):
    with pytest.raises(ValueError, match="does not contain a valid URDF model"):
        pin.buildModelFromXML(text)


def test_two_joints_with_one_name_are_refused():
    """The branch joint 'j0' would lump the 3 kg box into body 1 (masses [4.5, 0.9]); renamed,
    it rides on body 2 ([1.5, 3.9]) and the arm agrees with Pinocchio."""
    def arm(branch):
        return _robot(_link("l0"), _link("l1", _inertial(1.5, "0.2 0 0")),
                      _link("l2", _inertial(0.9, "0.2 0 0")), _link("box", _inertial(3.0)),
                      _joint("j0", "revolute", "l0", "l1"),
                      _joint("j1", "revolute", "l1", "l2", "0.4 0 0"),
                      _joint(branch, "fixed", "l2", "box", "0.4 0 0"))
    with pytest.raises(ValueError, match=r"^URDF text: two joints are named 'j0'"):
        from_urdf(arm("j0"))
    _refused_by_pinocchio(arm("j0"))
    renamed = from_urdf(arm("box_mount"))
    assert [link.mass for link in renamed.links] == [1.5, 3.9]
    _compare(renamed, _pinocchio(arm("box_mount")), np.random.default_rng(39))


def test_two_links_with_one_name_are_refused(tmp_path):
    text = _robot(_link("l0"), _link("rod", _inertial(1.0)), _link("rod", _inertial(50.0)),
                  _joint("j1", "revolute", "l0", "rod"))
    path = tmp_path / "rods.urdf"
    path.write_text(text)
    with pytest.raises(ValueError, match=rf"^{path}: two links are named 'rod'"):
        from_urdf(path)
    _refused_by_pinocchio(text)


def test_a_closed_loop_apart_from_the_tree_is_refused():
    """urdfdom reads past such a loop (Pinocchio's model has no joint of it); dynlab refuses
    it, as the module says of every closed loop."""
    text = _robot(_link("l0"), _GOOD_LINK, _link("a", _inertial(1.0)),
                  _link("b", _inertial(1.0)), _link("c", _inertial(1.0)),
                  _joint("j1", "revolute", "l0", "l1"), _joint("ja", "revolute", "a", "b"),
                  _joint("jb", "revolute", "b", "c"), _joint("jc", "revolute", "c", "a"))
    with pytest.raises(ValueError, match=r"^URDF text: closed loop: the joints \['ja', 'jb', "
                                         r"'jc'\] lead from link 'a' back to it, apart from the "
                                         r"tree of the root link 'l0'"):
        from_urdf(text)
    assert list(pin.buildModelFromXML(text).names) == ["universe", "j1"]


# -- raw errors become named ones ------------------------------------------------------------------
_TWO = (_link("l0"), _GOOD_LINK, _link("l2", _inertial(1.0)))


@pytest.mark.parametrize("text, message", [
    *_BAD_FILES,
    (_robot(*_TWO, _joint("j1", "revolute", "l0", "l1"),
            _joint("j2", "fixed", "l1", "l2", rpy="inf 0 0")),
     r"joint 'j2', <origin> rpy: the numbers must be finite, got \[inf, 0.0, 0.0\]"),
    (_robot(*_TWO, _joint("j1", "revolute", "l0", "l1", xyz="0 nan 0"),
            _joint("j2", "fixed", "l1", "l2")),
     r"joint 'j1', <origin> xyz: the numbers must be finite"),
    (_robot(*_TWO, _joint("j1", "revolute", "l0", "l1", axis="nan 0 1"),
            _joint("j2", "fixed", "l1", "l2")),
     r"joint 'j1', <axis>: the numbers must be finite"),
    (_robot(_link("l0"), _link("l1", _inertial(1.0, rpy="0 -inf 0")),
            _joint("j1", "revolute", "l0", "l1")),
     r"link 'l1', <inertial>, <origin> rpy: the numbers must be finite"),
    (_robot(_link("l0"), _link("l1", _inertial("inf")), _joint("j1", "revolute", "l0", "l1")),
     r"link 'l1', <inertial>, <mass>: the numbers must be finite, got \[inf\]"),
    (_robot(_link("l0"), _link("l1", _inertial(1.0, moments=(1, "nan", 1))),
            _joint("j1", "revolute", "l0", "l1")),
     r"link 'l1', <inertial>, <inertia>: the numbers must be finite"),
    (_robot(_link("l0"), _link("l1", _inertial(1.0).replace('<mass value="1.0"/>', "<mass/>")),
            _joint("j1", "revolute", "l0", "l1")),
     r"^URDF text: link 'l1', <inertial><mass>: no value= attribute$"),
    (_robot(*_TWO[:2], _joint("j1", "revolute", "l0", "l1").replace('<axis xyz="0 0 1"/>',
                                                                     "<axis/>")),
     r"joint 'j1', <axis>: no xyz= attribute"),
    (_robot(*_TWO[:2], _joint("j1", "revolute", "l0", "l1").replace('<parent link="l0"/>',
                                                                     "<parent/>")),
     r"joint 'j1', <parent>: no link= attribute"),
    (_robot(*_TWO, _joint("j1", "revolute", "l0", "l1"),
            _joint("tool", "fixed", "l1", "l2", "1e155 1e155 0")),
     r"^URDF text: joint 'tool', <origin> puts a frame 1e\+155 m from the root link's; beyond "
     r"5.64e\+102 m the dynamics \(m l\^2\) overflow a float$"),
    (_robot(*_TWO, _joint("j1", "revolute", "l0", "l1"),
            _joint("tool", "fixed", "l1", "l2", "1e100 1e100 0")),
     r"^URDF text: the links that joint 'j1' moves, \['l1', 'l2'\]: inertia entries up to "
     r"1e\+200 are too large to compute with"),
    (_robot(_link("l0"), _GOOD_LINK, _link("l2", _inertial(1e300)),
            _joint("j1", "revolute", "l0", "l1"), _joint("tool", "fixed", "l1", "l2", "1e10 0 0")),
     r"^URDF text: the links that joint 'j1' moves, \['l1', 'l2'\]: their masses and "
     r"positions \(m l\) overflow a float$"),
    (_robot(_link("l0"), _link("l1", _inertial(1.0, moments=(0.5, 0.0001, 0.0208))),
            _joint("j1", "revolute", "l0", "l1")),
     r"^URDF text: link 'l1', <inertial>: inertia violates the triangle inequality: principal "
     r"moment 0.5 exceeds the sum 0.0209 of the other two, which no rigid body can have$"),
    ("<?xml version='1.0'?><link name='l1'/>",
     r"^URDF text: the root element is <link>, not <robot>: not a URDF file$"),
    (_robot(*_TWO[:2], _joint("j1", "revolute", "l0", "l1", axis="a b c")),
     r"^URDF text: joint 'j1', <axis>: xyz='a b c' is not 3 numbers$"),
    (_robot(_link("l0"), _link("l1", _inertial("heavy")), _joint("j1", "revolute", "l0", "l1")),
     r"^URDF text: link 'l1', <inertial><mass>: value='heavy' is not a number$"),
    (_robot(*_TWO[:2], _joint("j1", "revolute", "l0", "l1", rpy="${pi/2} 0 0")),
     r"^URDF text: /robot\[@name='test arm'\]/joint\[@name='j1'\]/origin\[@rpy\]: .* \(a xacro "
     r"macro: expand it with xacro first\)$"),
    ("<robot name='empty'/>", r"^URDF text: the file defines no link$"),
])
def test_each_bad_number_or_element_is_named(text, message):
    with pytest.raises(ValueError, match=message):
        from_urdf(text)


def test_the_command_line_names_a_chain_too_far_without_a_traceback(tmp_path, capsys):
    path = tmp_path / "far.urdf"
    path.write_text(_robot(*_TWO, _joint("j1", "revolute", "l0", "l1"),
                           _joint("tool", "fixed", "l1", "l2", "1e155 1e155 0")))
    status = main(["equations", str(path)])
    _, err = capsys.readouterr()
    assert status != 0 and f"{path}: joint 'tool', <origin> puts a frame 1e+155 m" in err
    assert "Traceback" not in err


def test_a_file_says_its_encoding(tmp_path):
    """A file is read as bytes: its XML declaration says how (here ISO-8859-1); URDF text is
    already characters, whatever its declaration says."""
    text = _robot(_link("Sockel"), _link("Gelenkträger", _inertial(1.0)),
                  _joint("Drehgelenk_ä", "revolute", "Sockel", "Gelenkträger"), name="Kräne")
    latin = text.replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="ISO-8859-1"?>')
    path = tmp_path / "latin.urdf"
    path.write_bytes(latin.encode("latin-1"))
    assert (from_urdf(path).name, from_urdf(path).links[0].name) == ("Kräne", "Gelenkträger")
    assert from_urdf(latin).links[0].name == "Gelenkträger"
    (tmp_path / "utf8.urdf").write_bytes(text.encode("utf-8"))
    assert from_urdf(tmp_path / "utf8.urdf").links[0].name == "Gelenkträger"


def test_a_file_that_is_not_xml_is_named(tmp_path):
    binary = tmp_path / "arm.urdf"
    binary.write_bytes(bytes(range(256)))
    with pytest.raises(ValueError, match=rf"^{binary}: not an XML file \(not well-formed"):
        from_urdf(binary)
    latin = tmp_path / "latin.urdf"          # Latin-1 bytes, no declaration: not UTF-8
    latin.write_bytes(_robot(_link("Sockel"), _link("Träger", _inertial(1.0)),
                             _joint("j1", "revolute", "Sockel", "Träger")).encode("latin-1"))
    with pytest.raises(ValueError, match=rf"^{latin}: not an XML file"):
        from_urdf(latin)


def test_text_starts_with_a_bracket_and_anything_else_is_a_file_name(tmp_path, monkeypatch):
    """A string is URDF text when it starts with '<' (after white space): a file whose name
    holds '<robot' is read as a file, and text with no '<robot' in it as text."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my<robot>.urdf").write_text(ARM)
    assert from_urdf("my<robot>.urdf", tip="tool").n == 4
    assert from_urdf("\n  " + ARM, tip="tool").n == 4


def _with_eigenvalues(moments, seed):
    """An inertia tensor with the principal ``moments`` in random axes."""
    Q, _ = np.linalg.qr(np.random.default_rng(seed).normal(size=(3, 3)))
    return Q @ np.diag(moments) @ Q.T


@pytest.mark.parametrize("size", [1e-6, 1.0, 1e3])
@pytest.mark.parametrize("deficit", [-1e-7, -1e-11])
def test_from_urdf_and_link_judge_an_inertia_alike(size, deficit):
    """One check (dynlab.model.link.check_inertia), 1e-9 relative: an eigenvalue 1e-7 of the
    largest below zero is refused by both, one 1e-11 below accepted by both, at every size."""
    I = _with_eigenvalues(size * np.array([deficit, 1.0, 1.0]), seed=int(-np.log10(size) + 9))
    text = _robot(_link("l0"), _link("l1", _inertial(
        1.0, moments=np.diag(I).tolist(), products=(I[0, 1], I[0, 2], I[1, 2]))),
        _joint("j1", "revolute", "l0", "l1"))
    verdicts = []
    for load in (lambda: Link("revolute", mass=1.0, inertia=I.tolist(), name="l1"),
                 lambda: from_urdf(text)):
        try:
            load()
            verdicts.append("accepted")
        except ValueError as refused:
            verdicts.append(str(refused))
    if deficit < -1e-9:
        assert verdicts[0].startswith("l1: inertia is not positive semi-definite")
        assert verdicts[1].startswith("URDF text: link 'l1', <inertial>: inertia is not positive "
                                      "semi-definite")
    else:
        assert verdicts == ["accepted", "accepted"]
