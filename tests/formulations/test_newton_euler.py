"""Recursive Newton-Euler: both recursions agree, on symbols and on numbers, and with physics."""

import numpy as np
import pytest
import sympy
from hypothesis import given, settings

from dynlab import inverse_dynamics, joint_symbols
from dynlab.dynamics.inverse import _torques_only
from dynlab.engine.tracing import compile_joint_function
from dynlab.formulations.newton_euler import base_frame, link_frame
from dynlab.model.kinematics import link_jacobians, tool_jacobian
from dynlab.model.robots import puma560
from dynlab.model.symbolic import is_zero
from tests.support.arms import b1, g, l1, m1, symbolic_arms
from tests.support.strategies import chain_and_state


@pytest.mark.slow
@pytest.mark.parametrize("robot", symbolic_arms(), ids=lambda r: r.name)
def test_base_and_link_frame_recursions_agree_symbolically(robot):
    q, qd, qdd = joint_symbols(robot.n)
    link = inverse_dynamics(robot, q, qd, qdd, variant="link")
    base = inverse_dynamics(robot, q, qd, qdd, variant="base")
    assert is_zero(link - base)


@pytest.mark.parametrize("robot", symbolic_arms(), ids=lambda r: r.name)
def test_symbolic_result_at_numbers_equals_numeric_result(robot):
    values = {s: v for s, v in zip(sorted(robot.free_symbols, key=str),
                                   np.linspace(0.3, 1.7, len(robot.free_symbols)))}
    numeric_robot = robot.subs(values)
    q, qd, qdd = joint_symbols(robot.n)
    state = {**dict(zip(q, [0.3, -0.7, 0.4])), **dict(zip(qd, [1.1, 0.5, -0.9])),
             **dict(zip(qdd, [-0.4, 2.0, 0.6]))}
    derived = inverse_dynamics(robot, q, qd, qdd).subs(values).subs(state)
    numbers = inverse_dynamics(numeric_robot, [state[s] for s in q], [state[s] for s in qd],
                               [state[s] for s in qdd])
    np.testing.assert_allclose(np.array(derived, dtype=float).ravel(), numbers, rtol=1e-12)


def test_puma_recursions_agree_at_100_random_states():
    robot = puma560()
    rng = np.random.default_rng(560)
    for _ in range(100):
        q, qd, qdd = rng.uniform(-np.pi, np.pi, 6), rng.uniform(-3, 3, 6), rng.uniform(-5, 5, 6)
        link = inverse_dynamics(robot, q, qd, qdd, variant="link")
        base = inverse_dynamics(robot, q, qd, qdd, variant="base")
        assert np.max(np.abs(link - base)) < 1e-10


def test_pendulum_closed_form_with_viscous_friction():
    """Schilling, Sec. 6-9: tau = (m a^2/3) qdd + g m a C1 / 2 (+ b qd); here with a uniform rod."""
    (q,), (qd,), (qdd,) = joint_symbols(1)
    tau = inverse_dynamics(symbolic_arms()[0], [q], [qd], [qdd])[0]
    assert is_zero(tau - (m1 * l1**2 / 3 * qdd + g * m1 * l1 * sympy.cos(q) / 2 + b1 * qd))


def test_tip_wrench_is_carried_by_the_jacobian_transpose():
    """At rest and without gravity, tau = J^T (f, m): the statics of the tool's wrench."""
    wrench = np.array([3.0, -2.0, 5.0, 0.4, -0.1, 0.7])
    robot = puma560().replace(tip_force=wrench[:3], tip_moment=wrench[3:])
    rng = np.random.default_rng(1)
    for _ in range(10):
        q = rng.uniform(-np.pi, np.pi, 6)
        expected = tool_jacobian(robot, q).T @ wrench
        for variant in ("link", "base"):
            tau = inverse_dynamics(robot, q, np.zeros(6), np.zeros(6), gravity=False,
                                   variant=variant)
            np.testing.assert_allclose(tau, expected, atol=1e-12)


def test_gravity_torque_is_the_gradient_of_potential_energy():
    """At rest, tau = dP/dq = sum_i m_i (-gravity) . A^i (Schilling, Eqs. (6-2-17), (6-4-7)): an
    independent check of how the recursions bring in gravity as a base acceleration."""
    robot = puma560()
    rng = np.random.default_rng(4)
    zero = np.zeros(6)
    for _ in range(10):
        q = rng.uniform(-np.pi, np.pi, 6)
        expected = sum(link.mass * (-np.array(robot.gravity)) @ jac_linear
                       for link, (jac_linear, _) in zip(robot.links, link_jacobians(robot, q)))
        for variant in ("link", "base"):
            np.testing.assert_allclose(inverse_dynamics(robot, q, zero, zero, variant=variant),
                                       expected, atol=1e-12)
            assert np.allclose(inverse_dynamics(robot, q, zero, zero, gravity=False,
                                                variant=variant), 0)


def test_trace_quantities_obey_newtons_laws():
    robot = puma560()
    rng = np.random.default_rng(2)
    q, qd, qdd = (rng.uniform(-1, 1, 6) for _ in range(3))
    for variant in ("link", "base"):
        tau, trace = inverse_dynamics(robot, q, qd, qdd, variant=variant, trace=True)
        np.testing.assert_allclose(tau, inverse_dynamics(robot, q, qd, qdd, variant=variant))
        assert len(trace) == 6 and trace.frame == variant
        for i in range(1, 7):
            np.testing.assert_allclose(trace[i]["F"], robot.links[i - 1].mass * trace[i]["a_bar"])
            assert trace[i]["tau"] == pytest.approx(tau[i - 1])
    # in base coordinates the base carries every link's inertial force: f_1 = sum F_i
    np.testing.assert_allclose(trace[1]["f"], sum(trace[i]["F"] for i in range(1, 7)))
    assert "forward pass" in trace._repr_html_() and "omega_dot" in repr(trace)


def test_numeric_path_builds_no_sympy_objects(sympy_objects_created):
    robot = puma560()  # built before counting; the call itself must create no SymPy object
    sympy_objects_created.clear()
    for variant in ("link", "base"):
        for trace in (False, True):
            inverse_dynamics(robot, np.full(6, 0.3), [0.1] * 6, [0.2] * 6, variant=variant,
                             trace=trace)
    assert sympy_objects_created == []


def test_compiled_path_matches_the_float_recursion_and_counts_operations():
    robot = puma560()
    rng = np.random.default_rng(3)
    links, gravity, force, moment = robot.numeric()
    for recursion in (link_frame, base_frame):
        function, tape = compile_joint_function(robot, ("test", recursion.__name__),
                                                _torques_only(recursion))
        for _ in range(20):
            q, qd, qdd = (tuple(rng.uniform(-2, 2, 6)) for _ in range(3))
            expected, _ = recursion(links, q, qd, qdd, gravity, force, moment)
            np.testing.assert_allclose(function(q, qd, qdd), expected, rtol=1e-13, atol=1e-13)
    counts = compile_joint_function(robot, ("test", "link_frame"), None)[1].counts()
    # Fu, Gonzalez & Lee, Table 3.4 gives 117n-24 = 678 multiplications for a general 6-joint arm;
    # the PUMA's
    # zeros and right angles fold away many of them.  Gravity along z0 never meets link 1's
    # rotation (R1^T (0, 0, g) does not depend on q1), so sin q1 and cos q1 are dead code.
    assert 0 < counts["mul"] < 678 and counts["call"] == 10


@settings(max_examples=60, deadline=None)
@given(chain_and_state())
def test_random_chains_both_recursions_agree(case):
    robot, q, qd, qdd = case
    link = inverse_dynamics(robot, q, qd, qdd, variant="link")
    base = inverse_dynamics(robot, q, qd, qdd, variant="base")
    scale = max(1.0, float(np.max(np.abs(link))))
    assert np.max(np.abs(link - base)) <= 1e-9 * scale
