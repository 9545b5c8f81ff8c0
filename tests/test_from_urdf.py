"""dynlab.model.robots.from_urdf: small URDF files written here, loaded by dynlab and by an
independent library, Pinocchio (its own URDF parser and its RNEA, CRBA and ABA); random URDF
chains (Hypothesis, derandomized); and bad files, each named with its element and problem."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dynlab import equations_of_motion, forward_dynamics, inverse_dynamics
from dynlab.model.robots import from_urdf

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


def _compare(arm, model, rng, draws=5):
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
        np.testing.assert_allclose(forward_dynamics(arm, theta, dtheta, torque),
                                   pin.aba(model, data, q, dtheta, torque), rtol=1e-8,
                                   atol=1e-8)


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


@st.composite
def urdf_chains(draw, scaled=False):
    """A random URDF chain; ``scaled``: each link's mass and inertia times 10^k, k from -8 to
    8 (a light spindle on a heavy shoulder, issue 39)."""
    n = draw(st.integers(1, 5))
    parts = [_link("l0")]
    for k in range(1, n + 1):
        moments = np.array(draw(st.tuples(*[st.floats(0.001, 0.2, **finite)] * 3)))
        mass = draw(st.floats(0.2, 5, **finite))
        if scaled:
            mass = float(f"{mass * 10.0 ** draw(st.integers(-8, 8)):.6e}")
        parts.append(_link(f"l{k}", _inertial(
            f"{mass:.6e}" if scaled else f"{mass:.6f}",
            _triple(draw(st.tuples(numbers, numbers, numbers))),
            _triple(draw(st.tuples(angle, angle, angle))),
            tuple(mass * np.array([moments[1] + moments[2], moments[0] + moments[2],
                                   moments[0] + moments[1]])))))
        kind = draw(st.sampled_from(["revolute", "prismatic", "continuous"]))
        axis = draw(st.sampled_from(["1 0 0", "0 1 0", "0 0 1", "0 0.6 0.8", "-1 0 0"]))
        parts.append(_joint(f"j{k}", kind, f"l{k - 1}", f"l{k}",
                            _triple(draw(st.tuples(numbers, numbers, numbers))),
                            _triple(draw(st.tuples(angle, angle, angle))), axis))
        if draw(st.booleans()):            # a fixed link with its own mass, merged into l{k}
            parts.append(_link(f"extra{k}", _inertial("0.4", _triple(draw(st.tuples(
                numbers, numbers, numbers))))))
            parts.append(_joint(f"fix{k}", "fixed", f"l{k}", f"extra{k}", "0.1 0 0"))
    parts.append(_link("tip"))
    parts.append(_joint("tip", "fixed", f"l{n}", "tip",
                        _triple(draw(st.tuples(numbers, numbers, numbers)))))
    return _robot(*parts), draw(st.integers(0, 2**32 - 1))


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(urdf_chains())
def test_random_urdf_chains_agree_with_pinocchio(chain):
    """Every chain that from_urdf accepts agrees with Pinocchio; the one it refuses (two
    nearly parallel axes, whose DH frames lie kilometres away) is refused as the next test
    shows, and drawn again."""
    text, seed = chain
    try:
        arm = from_urdf(text, tip="tip")
    except ValueError as refused:
        assert "nearly parallel" in str(refused), refused
        assume(False)
    _compare(arm, _pinocchio(text), np.random.default_rng(seed), draws=2)


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(urdf_chains(scaled=True))
def test_badly_scaled_chains_are_solved_as_pinocchio_solves_them(chain):
    """Masses and inertias from 1e-8 to 1e8 times each other: forward dynamics solves what
    Pinocchio's ABA solves (issue 39: a scale-invariant test of singularity), every path."""
    text, seed = chain
    try:
        arm = from_urdf(text, tip="tip")
    except ValueError as refused:
        assert "nearly parallel" in str(refused), refused
        assume(False)
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


@pytest.mark.parametrize("text, message", [
    (_robot(_link("l0"), _link("l1"), _joint("j1", "revolute", "l0", "l1")),
     r"URDF text: joint 'j1' moves links \['l1'\], none of which has an <inertial>"),
    (_robot(_link("l0"), _link("l1", _inertial(0.0)), _joint("j1", "revolute", "l0", "l1")),
     r"link 'l1', <inertial>: the mass must be positive, got 0.0"),
    (_robot(_link("l0"), _link("l1", _inertial(1.0, moments=(0.1, 0.1, 0.1),
                                               products=(0.3, 0, 0))),
            _joint("j1", "revolute", "l0", "l1")),
     r"link 'l1', <inertial>: the inertia tensor is not positive semi-definite"),
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
     r"joint 'j2' mimics joint 'j1'"),
    ("<robot name='x'><link name='a'>", r"URDF text: .*"),
])
def test_bad_files_are_named(text, message):
    with pytest.raises(ValueError, match=message):
        from_urdf(text)


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match=r"missing.urdf: cannot read the URDF file"):
        from_urdf(tmp_path / "missing.urdf")
    with pytest.raises(ValueError, match=r"tip 'hand' is not a link of the file"):
        from_urdf(ARM, tip="hand")
    with pytest.raises(TypeError, match=r"friction must be True or False"):
        from_urdf(ARM, tip="tool", friction="yes")
    with pytest.raises(TypeError, match=r"path must be a file name or URDF text"):
        from_urdf(3)


def test_tags_for_other_programs_are_read_past():
    extra = ('<gazebo reference="wrist"><material>Gazebo/Red</material></gazebo>'
             '<transmission name="t1"><type>SimpleTransmission</type>'
             '<joint name="j1"><hardwareInterface>EffortJointInterface</hardwareInterface>'
             '</joint><actuator name="m1"><mechanicalReduction>1</mechanicalReduction>'
             '</actuator></transmission><material name="blue"><color rgba="0 0 1 1"/></material>')
    text = ARM.replace("</robot>", extra + "</robot>")
    with pytest.warns(UserWarning, match=r'URDF text: Unknown tag "vendor"'):
        arm = from_urdf(text.replace("</robot>", "<vendor/></robot>"), tip="tool")
    state = [0.1, 0.2, 0.3, 0.4], [0.1] * 4, [0.2] * 4
    np.testing.assert_array_equal(inverse_dynamics(arm, *state),
                                  inverse_dynamics(from_urdf(ARM, tip="tool"), *state))

