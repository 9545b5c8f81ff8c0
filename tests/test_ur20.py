"""The UR20 shipped as a URDF file: the same arm as the maker's DH table, and as Pinocchio
loading the same file."""

import numpy as np
import pytest

from dynlab import equations_of_motion, forward_dynamics, inverse_dynamics
from dynlab.model.robots import ARM_SPECS
from dynlab.model.robots.universal_robots import UR20_URDF, ur20, ur20_table

pin = pytest.importorskip("pinocchio")


def _states(seed, count=10):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-np.pi, np.pi, (3, 6)) for _ in range(count)]


def test_the_file_is_the_makers_table():
    loaded, table = ur20(), ur20_table()
    for q, qd, qdd in _states(20):
        np.testing.assert_allclose(inverse_dynamics(loaded, q, qd, qdd),
                                   inverse_dynamics(table, q, qd, qdd), rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(equations_of_motion(loaded, q, qd).D,
                                   equations_of_motion(table, q, qd).D, rtol=1e-10, atol=1e-12)


def test_pinocchio_loads_the_same_arm():
    arm = ur20()
    model = pin.buildModelFromUrdf(UR20_URDF)
    model.gravity.linear = np.array([0, 0, -9.81])
    data = model.createData()
    for q, qd, qdd in _states(21):
        np.testing.assert_allclose(inverse_dynamics(arm, q, qd, qdd),
                                   pin.rnea(model, data, q, qd, qdd), rtol=1e-10, atol=1e-10)
        tau = qdd * 10
        np.testing.assert_allclose(forward_dynamics(arm, q, qd, tau),
                                   pin.aba(model, data, q, qd, tau), rtol=1e-8, atol=1e-8)


def test_the_symbolic_ur20_is_the_table_in_letters():
    arm = ur20(symbolic=True)
    assert {"a2", "a3", "d1", "m6", "Ixz2", "g"} <= set(map(str, arm.free_symbols))


def test_it_is_a_registered_arm():
    assert ARM_SPECS["ur20"].build().name == "UR20"


def test_the_command_line_takes_a_urdf_file():
    from dynlab.cli import CommandError, build_arm
    assert build_arm(UR20_URDF).name == "UR20"
    assert build_arm(UR20_URDF + ":tip=wrist_2_link").n == 5
    with pytest.raises(CommandError, match=r"tip 'hand' is not a link of the file"):
        build_arm(UR20_URDF + ":tip=hand")
    with pytest.raises(CommandError, match=r"takes the option tip=LINK, got 'joints=3'"):
        build_arm(UR20_URDF + ":joints=3")
    with pytest.raises(CommandError, match=r"missing.urdf: cannot read the URDF file"):
        build_arm("missing.urdf")


def test_dynlab_torque_on_the_file_prints_the_registered_arms_torques():
    import subprocess
    import sys

    def torque(arm):
        done = subprocess.run([sys.executable, "-m", "dynlab", "torque", arm, "--q",
                               "0.1,-1.2,1.5,-0.3,0.8,0.2", "--qd", "0.5,0.5,0.5,0.5,0.5,0.5"],
                              capture_output=True, text=True, check=True)
        return done.stdout
    assert "tau2" in torque("ur20") and torque(UR20_URDF) == torque("ur20")
