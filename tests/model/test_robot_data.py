"""A Robot never changes once built, and what dynlab keeps for it (``robot.data``) is its own:
a changed arm is a new Robot, which every cached path answers for anew, while the old arm keeps
its own answers."""

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dynlab
import dynlab.model.edits
from dynlab import Link, Robot, equations_of_motion, forward_dynamics, inverse_dynamics
from dynlab.dynamics.codegen import generate
from dynlab.dynamics.simulation import simulate
from dynlab.engine.short_cut import OPTIMIZE_AFTER
from dynlab.model.robot import RobotIsImmutable
from dynlab.model.robot_data import RobotData
from dynlab.model.robots import planar_2r
from dynlab.teaching.dashboards.arm import Dashboard
from tests.support.strategies import chain_and_state

Q, QD, QDD, TAU = [0.3, -0.7], [0.5, -0.2], [0.4, 0.9], [1.0, -0.5]


# -- the robot cannot be changed -----------------------------------------------------------------
NEW_VALUES = {"links": (Link("R", a=2.0, mass=1.0, name="link 1"),), "gravity": (0, 0, 0),
              "tip_force": (1, 2, 3), "tip_moment": (0, 0, 1), "name": "other",
              "source": "elsewhere"}


@pytest.mark.parametrize("attribute", [*NEW_VALUES, "data", "n", "cache", "anything"])
def test_assigning_to_a_robot_raises_and_names_the_ways_to_a_changed_arm(attribute):
    arm = planar_2r("fu")
    gravity, links = arm.gravity, arm.links
    for change in (lambda: setattr(arm, attribute, NEW_VALUES.get(attribute, 1)),
                   lambda: delattr(arm, attribute)):
        with pytest.raises(RobotIsImmutable) as raised:
            change()
        message = str(raised.value)
        assert isinstance(raised.value, AttributeError)
        assert f"cannot {'assign to' if 'assign' in message else 'delete'} {attribute}" in message
        for way in ("robot.replace(", "robot.replace_link(", "dynlab.model.edits.with_mass",
                    "with_payload"):
            assert way in message, message
        if attribute in NEW_VALUES:
            assert f"robot.replace({attribute}=...)" in message
    assert arm.gravity == gravity and arm.links is links
    # the ways named exist and give a changed arm
    assert callable(dynlab.model.edits.with_mass) and callable(dynlab.model.edits.with_payload)
    assert dynlab.model.edits.with_mass(arm, 2, 3.0).links[1].mass == 3.0
    assert dynlab.model.edits.with_payload(arm, 0.5).links[1].mass == arm.links[1].mass + 0.5
    if attribute in NEW_VALUES:
        changed = arm.replace(**{attribute: NEW_VALUES[attribute]})
        assert getattr(changed, attribute) == getattr(Robot(
            NEW_VALUES["links"], **{k: v for k, v in NEW_VALUES.items() if k != "links"}),
            attribute)
        assert getattr(arm, attribute) != getattr(changed, attribute)


def test_replace_checks_as_the_constructor_does():
    arm = planar_2r("fu")
    with pytest.raises(ValueError, match="gravity must be a 3-vector"):
        arm.replace(gravity=(0, -9.8))
    with pytest.raises(ValueError, match=r"tip_force\[0\] must be finite"):
        arm.replace(tip_force=(float("nan"), 0, 0))
    with pytest.raises(ValueError, match="at least one link"):
        arm.replace(links=[])
    with pytest.raises(TypeError, match="link 2 must be a Link"):
        arm.replace(links=[arm.links[0], "elbow"])
    with pytest.raises(TypeError, match="robot name must be a string"):
        arm.replace(name=5)
    with pytest.raises(TypeError, match=r"got mass .*replace_link"):
        arm.replace(mass=2.0)
    same = arm.replace()
    assert same is not arm and same.data is not arm.data
    assert (same.links, same.gravity, same.name, same.source) == (arm.links, arm.gravity,
                                                                  arm.name, arm.source)


def test_a_copy_or_a_pickled_robot_has_data_of_its_own():
    arm = planar_2r("fu")
    inverse_dynamics(arm, Q, QD, QDD)
    for other in (copy.copy(arm), copy.deepcopy(arm), pickle.loads(pickle.dumps(arm))):
        assert other.data is not arm.data and other.data.default_inverse is None
        assert (other.gravity, other.name, other.n) == (arm.gravity, arm.name, arm.n)
        np.testing.assert_array_equal(inverse_dynamics(other, Q, QD, QDD),
                                      inverse_dynamics(arm, Q, QD, QDD))
        with pytest.raises(RobotIsImmutable):
            other.gravity = (0, 0, 0)


def test_the_data_is_the_robots_own_and_takes_no_key_of_a_callers_choosing():
    arm = planar_2r("fu")
    assert isinstance(arm.data, RobotData)
    inverse_dynamics(arm, Q, QD, QDD)
    forward_dynamics(arm, Q, QD, TAU)
    assert arm.data.default_inverse is arm.data.inverse_short_cut("newton_euler", None,
                                                                  True, True, True)
    assert arm.data.forward_short_cut("newton_euler", None, True, True, True) is not None
    new = arm.replace(gravity=(0, 0, 0))
    assert new.data is not arm.data and repr(new.data) == repr(RobotData())
    with pytest.raises(AttributeError):
        arm.data.cache = {}                           # no free-form store
    with pytest.raises(TypeError, match="quantity's name"):
        arm.data.traced("inverse_dynamics", lambda: None)


# -- every cached path answers for the new arm, and the old arm keeps its own ----------------------
def repeated(call, times=3):
    """``call()`` ``times`` times (a first, checked call stores a short cut; the second compiles
    it; the third runs it), the last result."""
    for _ in range(times):
        result = call()
    return result


def stepwise_torques(arm):
    return inverse_dynamics(arm, Q, QD, QDD, compiled=False)


def stepwise_accelerations(arm):
    return forward_dynamics(arm, Q, QD, TAU, compiled=False)


def stepwise_motion(arm):
    motion = simulate(arm, Q, QD, torque=TAU, t_span=0.2, compiled=False)
    return np.concatenate([motion.q[-1], motion.qd[-1]])


def symbolic_torques(arm):
    equations = equations_of_motion(arm)
    return np.array(equations.torque(Q, QD, QDD), dtype=float).ravel()


#: name -> (the path, run on an arm (its second argument: a temporary directory), the
#: step-by-step computation it must agree with)
PATHS = {
    "inverse_dynamics short cut": (
        lambda arm, _: repeated(lambda: inverse_dynamics(arm, Q, QD, QDD)), stepwise_torques),
    "inverse_dynamics short cut, optimised": (
        lambda arm, _: repeated(lambda: inverse_dynamics(arm, Q, QD, QDD),
                                OPTIMIZE_AFTER + 2), stepwise_torques),
    "inverse_dynamics short cut with options": (
        lambda arm, _: repeated(lambda: inverse_dynamics(arm, Q, QD, QDD, method="dalembert",
                                                         friction=False)),
        lambda arm: inverse_dynamics(arm, Q, QD, QDD, method="dalembert", friction=False,
                                     compiled=False)),
    "inverse_dynamics compiled=False": (
        lambda arm, _: repeated(lambda: stepwise_torques(arm)), stepwise_torques),
    "forward_dynamics short cut": (
        lambda arm, _: repeated(lambda: forward_dynamics(arm, Q, QD, TAU)),
        stepwise_accelerations),
    "forward_dynamics compiled=False": (
        lambda arm, _: repeated(lambda: stepwise_accelerations(arm)), stepwise_accelerations),
    "equations_of_motion at a state": (
        lambda arm, _: repeated(lambda: equations_of_motion(arm, Q, QD).torque(QDD), 2),
        stepwise_torques),
    "equations_of_motion in symbols": (
        lambda arm, _: repeated(lambda: symbolic_torques(arm), 2), stepwise_torques),
    "simulate": (
        lambda arm, _: repeated(lambda: np.concatenate(
            [(m := simulate(arm, Q, QD, torque=TAU, t_span=0.2)).q[-1], m.qd[-1]]), 2),
        stepwise_motion),
    "codegen.generate in memory": (
        lambda arm, _: repeated(lambda: generate(arm, cache=False)(Q, QD, QDD), 2),
        stepwise_torques),
    "codegen.generate on disk": (
        lambda arm, folder: repeated(lambda: generate(arm, cache=folder)(Q, QD, QDD), 2),
        stepwise_torques),
    "dashboard (generalized d'Alembert)": (
        lambda arm, _: Dashboard(arm, q=Q, qd=QD, qdd=QDD, render=False).tau,
        stepwise_torques),
    "dashboard (Newton-Euler)": (
        lambda arm, _: Dashboard(arm, q=Q, qd=QD, qdd=QDD, render=False,
                                 engine="newton_euler").tau, stepwise_torques),
}

CHANGES = {
    "gravity": lambda arm: arm.replace(gravity=(0, 0, 0)),
    "tip_force": lambda arm: arm.replace(tip_force=(3.0, -2.0, 0.0)),
    "link": lambda arm: arm.replace_link(2, mass=2.5, viscous=0.3),
}


def built_anew(arm: Robot) -> Robot:
    """The same arm built from its parameters (nothing computed for it yet)."""
    return Robot([Link(**link.parameters()) for link in arm.links], gravity=arm.gravity,
                 tip_force=arm.tip_force, tip_moment=arm.tip_moment, name=arm.name,
                 source=arm.source)


@pytest.mark.parametrize("change", CHANGES)
@pytest.mark.parametrize("path", PATHS)
def test_a_changed_arm_gets_its_own_answers_and_the_old_arm_keeps_its_own(path, change,
                                                                          tmp_path):
    run, stepwise = PATHS[path]
    tolerance = dict(rtol=1e-6, atol=1e-9) if "simulate" in path else dict(rtol=1e-10,
                                                                            atol=1e-10)
    old = planar_2r("fu")
    before = run(old, tmp_path)                       # every cache of the old arm filled
    np.testing.assert_allclose(before, stepwise(built_anew(old)), **tolerance)
    new = CHANGES[change](old)
    expected = stepwise(built_anew(new))
    assert not np.allclose(expected, before, rtol=1e-3, atol=1e-3)   # the change shows here
    np.testing.assert_allclose(run(new, tmp_path), expected, **tolerance)
    np.testing.assert_allclose(run(old, tmp_path), before, rtol=1e-12, atol=1e-12)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(chain_and_state(max_joints=4), st.tuples(*[st.floats(-10, 10)] * 3))
def test_every_arm_with_new_gravity_gets_its_own_short_cut(arm_and_state, gravity):
    arm, q, qd, qdd = arm_and_state
    for _ in range(3):
        before = inverse_dynamics(arm, q, qd, qdd)
    new = arm.replace(gravity=gravity)
    for _ in range(3):
        after = inverse_dynamics(new, q, qd, qdd)
    np.testing.assert_allclose(after, inverse_dynamics(built_anew(new), q, qd, qdd,
                                                       compiled=False), rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(inverse_dynamics(arm, q, qd, qdd), before)
