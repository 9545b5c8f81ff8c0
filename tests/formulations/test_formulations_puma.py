"""The formulations agree on the PUMA 560: numerically on six joints (200 states, 1e-9) and
symbolically on the first three (apart from test_formulations.py for the workers' load)."""

import numpy as np
import pytest

from dynlab import equations_of_motion, inverse_dynamics
from dynlab.dynamics.inverse import PARTS, torque_parts
from dynlab.model.edits import with_viscous
from dynlab.model.robots import puma560
from tests.support.arms import ALL_FORMULATIONS as ALL
from tests.support.arms import REFERENCE


def test_puma_all_formulations_agree_at_200_random_states():
    robot = puma560()
    rng = np.random.default_rng(200)
    for _ in range(200):
        q, qd, qdd = (rng.uniform(-np.pi, np.pi, 6), rng.uniform(-2, 2, 6),
                      rng.uniform(-4, 4, 6))
        reference = inverse_dynamics(robot, q, qd, qdd)
        for method, variant in ALL:
            tau = inverse_dynamics(robot, q, qd, qdd, method=method, variant=variant)
            assert np.max(np.abs(tau - reference)) < 1e-9, (method, variant)


def test_puma_coefficients_agree_and_torque_is_consistent():
    robot = puma560()
    rng = np.random.default_rng(7)
    for _ in range(5):
        q, qd, qdd = (rng.uniform(-2, 2, 6) for _ in range(3))
        reference = equations_of_motion(robot, q, qd, method="newton_euler")
        for method, variant in ALL:
            eom = equations_of_motion(robot, q, qd, method=method, variant=variant)
            assert eom.compare(reference), (method, variant)
            np.testing.assert_allclose(eom.torque(qdd), inverse_dynamics(robot, q, qd, qdd),
                                       atol=1e-9)


@pytest.mark.slow
def test_puma_first_three_joints_agree_symbolically_with_symbolic_parameters():
    robot = puma560(symbolic=True, joints=3)
    reference = equations_of_motion(robot, method="newton_euler", simplify=False)
    assert {"m2", "Izz2", "a2", "g"} <= {str(s) for s in robot.free_symbols}
    for method, variant in ALL:
        if (method, variant) == REFERENCE:
            continue
        eom = equations_of_motion(robot, method=method, variant=variant, simplify=False)
        assert eom.compare(reference), (method, variant)


def test_puma_torque_parts_by_every_formulation_are_its_equations_of_motion():
    """``torque_parts`` (one call: the terms at the state, or the probes on one tape) against
    Lagrange-Euler's ``D``, ``h``, ``c`` (Fu, Gonzalez & Lee, Eqs. (3.2-31)-(3.2-34)), for every
    numeric formulation, with friction and a tool's wrench on the arm."""
    robot = with_viscous(puma560(), 0.3).replace(tip_force=(5.0, -2.0, 1.0),
                                                tip_moment=(0.1, 0.0, -0.2))
    rng = np.random.default_rng(41)
    for _ in range(3):
        q, qd, qdd = (rng.uniform(-2, 2, 6) for _ in range(3))
        eom = equations_of_motion(robot, q, qd, method="lagrange_euler")
        expected = {"inertial": eom.D @ qdd, "coriolis": eom.h, "gravity": eom.c,
                    "friction": eom.friction, "tip": eom.tip}
        for method, variant in ALL:
            parts = torque_parts(robot, q, qd, qdd, method=method, variant=variant)
            for part in PARTS:
                np.testing.assert_allclose(parts[part], expected[part], rtol=0, atol=1e-9,
                                           err_msg=f"{method} {variant} {part}")
            np.testing.assert_allclose(parts["total"], inverse_dynamics(robot, q, qd, qdd),
                                       rtol=0, atol=1e-9)
        assert np.abs(expected["tip"]).max() > 0.1 and np.abs(expected["friction"]).max() > 0.1
