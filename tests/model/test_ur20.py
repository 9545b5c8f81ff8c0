"""The UR20 shipped as a URDF file: the same arm as the maker's DH table, and as Pinocchio
loading the same file (its RNEA, CRBA and ABA, every formulation of the registry, and its
Jacobian against the screw axes read from the file)."""

import numpy as np
import pytest
import sympy

from dynlab import equations_of_motion, forward_dynamics, inverse_dynamics
from dynlab.formulations.registry import every_variant
from dynlab.model.robots import ARM_SPECS, from_urdf, read_urdf, ur20_values
from dynlab.model.robots.universal_robots import UR20_URDF, ur20, ur20_table
from dynlab.teaching.arm_table import dh_tables_side_by_side
from dynlab.teaching.side_by_side import inertias_side_by_side

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


def _pinocchio():
    model = pin.buildModelFromUrdf(UR20_URDF)
    model.gravity.linear = np.array([0, 0, -9.81])
    return model, model.createData()


def test_pinocchio_loads_the_same_arm():
    """Pinocchio's own URDF parser and Featherstone's algorithms on the same file: RNEA, CRBA
    (the mass matrix, its upper triangle filled in) and ABA agree with dynlab's numbers."""
    arm = ur20()
    model, data = _pinocchio()
    for q, qd, qdd in _states(21):
        np.testing.assert_allclose(inverse_dynamics(arm, q, qd, qdd),
                                   pin.rnea(model, data, q, qd, qdd), rtol=1e-10, atol=1e-10)
        M = pin.crba(model, data, q)
        M = np.triu(M) + np.triu(M, 1).T
        np.testing.assert_allclose(equations_of_motion(arm, q, qd).D, M, rtol=0, atol=1e-10)
        tau = qdd * 10
        np.testing.assert_allclose(forward_dynamics(arm, q, qd, tau),
                                   pin.aba(model, data, q, qd, tau), rtol=1e-8, atol=1e-8)


def test_every_formulation_agrees_with_pinocchio():
    """Chapter 10's claim: every formulation of the registry, not only the default one, gives
    Pinocchio's torques and mass matrix on the file."""
    arm = ur20()
    model, data = _pinocchio()
    for q, qd, qdd in _states(22, count=3):
        tau = pin.rnea(model, data, q, qd, qdd)
        M = pin.crba(model, data, q)
        M = np.triu(M) + np.triu(M, 1).T
        for method, variant in every_variant("numeric"):
            np.testing.assert_allclose(
                inverse_dynamics(arm, q, qd, qdd, method=method, variant=variant), tau,
                rtol=0, atol=1e-9, err_msg=f"{method} ({variant})")
        table = inertias_side_by_side(arm, q, show=False)
        for label, D in table.matrices.items():
            np.testing.assert_allclose(D, M, rtol=0, atol=1e-10, err_msg=label)


def test_the_screw_axes_are_pinocchios_space_jacobian():
    """read_urdf's Slist is Lynch & Park's space Jacobian at home (Sec. 5.1.1: J_si = S_i at
    theta = 0), which Pinocchio gives as each joint's column in the world frame, ordered
    (v, omega); at another pose, column 3 is S_3 carried by joints 1 and 2."""
    model, data = _pinocchio()
    chain = read_urdf(UR20_URDF)
    home = np.zeros(6)
    J = pin.computeJointJacobians(model, data, home)
    np.testing.assert_allclose(chain.Slist, np.vstack([J[3:], J[:3]]), rtol=0, atol=1e-12)
    # the upper arm raised straight up (q2 = -pi/2): the elbow's axis is 1.0983 m up
    raised = np.array([0, -np.pi / 2, 0, 0, 0, 0])
    J = pin.computeJointJacobians(model, data, raised)
    np.testing.assert_allclose(np.r_[J[3:, 2], J[:3, 2]], [0, -1, 0, 0.2363 + 0.862, 0, 0],
                               rtol=0, atol=1e-12)


def test_the_joint_table_is_the_files():
    chain = read_urdf(UR20_URDF)
    assert [j.type for j in chain.joints] == ["revolute"] * 6 + ["fixed"]
    assert chain.joints[1].rpy == (np.pi / 2, 0.0, 0.0) and chain.joints[2].xyz == (-0.862, 0, 0)
    table = chain.joint_table().splitlines()
    assert len(table) == 9 and table[-1].startswith("| flange_joint | fixed |")
    assert "| elbow_joint | (0, -1, 0) | (0.2363, 0, 0.862) |" in chain.screw_table()
    arm = from_urdf(UR20_URDF)
    assert [link.name for link in arm.links] == list(chain.names)


def test_the_makers_numbers_fill_in_the_tables_letters():
    """ur20_values puts the maker's figures into an expression derived in the table's letters:
    the symbolic table at those numbers is the numeric one."""
    values = ur20_values()
    letters, numbers = ur20_table(symbolic=True), ur20_table()
    assert set(values) == letters.free_symbols
    for named, link in zip(letters.links, numbers.links):
        assert float(sympy.sympify(named.a).subs(values)) == link.a
        assert [float(sympy.sympify(c).subs(values)) for c in named.com] == list(link.com)


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


def test_the_makers_letters_by_name():
    """ur20_table(symbolic=True)'s symbols by name are those its expressions are in: the maker's
    a2 = -0.862 m, m2 = 29.632 kg and rx2 = 0.5226 m (the published table) substitute into the
    moment m2 (a2 + rx2) that the shoulder's gravity torque has at home."""
    letters = ur20_table(symbolic=True)
    a2, m2, rx2, g = letters.symbols("a2, m2 rx2 g")
    moment = letters.links[1].mass * (letters.links[1].a + letters.links[1].com[0])
    assert sympy.expand(moment - m2 * (a2 + rx2)) == 0
    assert moment.subs(ur20_values()) == pytest.approx(29.632 * (-0.862 + 0.5226), abs=1e-12)
    assert letters.symbols("g") == g and g.is_positive
    with pytest.raises(ValueError, match=r"no parameter named 'a7'; its symbols are .*a2"):
        letters.symbols("a2 a7")
    with pytest.raises(ValueError, match="its symbols are none"):
        ur20_table().symbols("a2")
    with pytest.raises(TypeError, match="one string"):
        letters.symbols(["a2"])


def test_the_two_tables_side_by_side():
    """The maker's table (alpha_1 = pi/2, a_2 = -0.862, a_3 = -0.7287, alpha_5 = -pi/2, no
    offsets) beside the one found from the file (the x axes along the common normals towards
    the arm: positive lengths, alpha_1 and alpha_5 of the other sign, offsets of pi on joints
    4 and 5); the d's agree and share one column."""
    rows = [line.split(" | ") for line in dh_tables_side_by_side(
        ur20_table(), ur20(), ("maker's", "ours")).data.splitlines()]
    header, body = rows[0], rows[2:]
    assert header[1:] == [r"$\theta_i$, maker's", r"$\theta_i$, ours", "$d_i$ (both)",
                          "$a_i$, maker's", "$a_i$, ours", r"$\alpha_i$, maker's",
                          r"$\alpha_i$, ours |"]
    column = {name: [row[k].strip(" |$") for row in body] for k, name in enumerate(header)}
    assert column["$d_i$ (both)"] == ["0.2363", "0", "0", "0.201", "0.1593", "0.1543"]
    assert column["$a_i$, maker's"] == ["0", "-0.862", "-0.7287", "0", "0", "0"]
    assert column["$a_i$, ours"] == ["0", "0.862", "0.7287", "0", "0", "0"]
    half = r"\frac{\pi}{2}"
    assert column[r"$\alpha_i$, maker's"] == [half, "0", "0", half, "- " + half, "0"]
    assert column[r"$\alpha_i$, ours |"] == ["- " + half, "0", "0", half, half, "0"]
    assert column[r"$\theta_i$, ours"][3:5] == [r"q_{4} - \pi", r"q_{5} + \pi"]
    assert column[r"$\theta_i$, maker's"] == [f"q_{{{k}}}" for k in range(1, 7)]
