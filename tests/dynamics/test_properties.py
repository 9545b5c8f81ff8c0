"""dynlab.dynamics.structure: Tourassis & Neuman (1985) by hand on small arms, Table 3 with each
difference pinned to its assumption, their properties (22), (36)-(40), Table 1 and Lynch &
Park's passivity (Prop. 8.1) on random chains, and the structure dashboard."""

import math
import re
from collections import Counter
from itertools import combinations, permutations

import numpy as np
import pytest
import sympy
from hypothesis import given, settings

from dynlab import Link, Robot, equations_of_motion
from dynlab.dynamics.structure.coefficients import (
    coriolis_coefficient,
    gravity_coefficients,
    gravity_coefficients_dh,
    non_interacting_residual,
    reflective_coupling_residual,
    simplified_christoffel_symbols,
)
from dynlab.dynamics.structure.counts import (
    COLUMNS,
    TABLE3_PRINTED,
    independent_coefficients,
    sparsity_formula,
    table2_counts,
)
from dynlab.dynamics.structure.coupling import coupling, coupling_coefficients, loading_factors
from dynlab.dynamics.structure.exact import coefficient_expression, model_structure
from dynlab.dynamics.structure.inertia import (
    check_inertia_matrix,
    inertia_matrix_22,
    inertia_matrix_in_joint_frames,
    table1_dependence,
)
from dynlab.dynamics.structure.passivity import passivity_residual, task_space_dynamics
from dynlab.model.robot import joint_symbols
from dynlab.model.robots import (
    TOURASSIS_NEUMAN_ARMS,
    articulated,
    cartesian,
    cylindrical,
    planar_2r,
    spherical,
)
from dynlab.teaching.dashboards.structure import structure_dashboard
from tests.support.strategies import chain_and_state

G0 = 9.8062


def box(m, x, y, z):
    """Principal moments of a uniform box about its centre (hand formula)."""
    return m * (y * y + z * z) / 12, m * (x * x + z * z) / 12, m * (x * x + y * y) / 12


# -- Tourassis & Neuman, Sec. 2.1 and Table 1 ------------------------------------------------------
def test_inertia_matrix_check_flags_each_property():
    assert check_inertia_matrix([[2.0, 1.0], [1.0, 1.0]])
    singular = check_inertia_matrix([[1.0, 1.0], [1.0, 1.0]])
    assert not singular and singular.symmetric and not singular.cauchy
    assert not check_inertia_matrix([[1.0, 0.5], [0.4, 1.0]]).symmetric
    indefinite = check_inertia_matrix([[1.0, 0.0], [0.0, -1.0]])
    assert not indefinite.positive_definite and indefinite.smallest_eigenvalue == -1.0
    with pytest.raises(TypeError, match="symbolic"):
        check_inertia_matrix(sympy.Matrix([[sympy.Symbol("m")]]))


def test_table1_dependence_by_joint_types():
    # Tourassis & Neuman, Table 1: d_ij's variables for j > i by the joint types; d_ii's
    types = ("prismatic", "revolute", "prismatic", "revolute")
    assert table1_dependence(types, 1, 3) == {2}                    # T-T (26)
    assert table1_dependence(types, 1, 2) == {2, 3, 4}              # T-R (27)
    assert table1_dependence(types, 2, 3) == {4}                    # R-T (30): not q3
    assert table1_dependence(types, 2, 4) == {3, 4}                 # R-R (31)
    assert table1_dependence(types, 3, 3) == set()                  # (25)
    assert table1_dependence(types, 2, 2) == {3, 4}                 # (29)
    assert table1_dependence(types, 4, 2) == table1_dependence(types, 2, 4)
    with pytest.raises(ValueError):
        table1_dependence(types, 0, 2)


# -- Tourassis & Neuman, Eqs. (32)-(35) by hand ----------------------------------------------------
def test_loading_factors_of_the_cylindrical_arm_by_hand():
    # masses 20, 10, 5: M1 = 35, M2 = 15, M3 = 5; LF_ij = sqrt(M_j / M_i) (34)
    LF = loading_factors(cylindrical(symbolic=False))
    expected = [[1, math.sqrt(15 / 35), math.sqrt(5 / 35)],
                [math.sqrt(15 / 35), 1, math.sqrt(5 / 15)],
                [math.sqrt(5 / 35), math.sqrt(5 / 15), 1]]
    assert np.allclose(LF, expected, rtol=1e-14)


def test_coupling_of_the_articulated_arm_by_hand():
    # joints 2, 3 form a planar 2R arm (z1 || z2): a2 = 0.4, centres of mass 0.2 m behind each
    # frame on x, boxes 0.4 x 0.08 x 0.08 (10 kg) and 0.4 x 0.06 x 0.06 (5 kg), q3 = 1
    m2, m3, a2, r = 10.0, 5.0, 0.4, 0.2
    I2 = box(m2, 0.4, 0.08, 0.08)[2]
    I3 = box(m3, 0.4, 0.06, 0.06)[2]
    c3 = math.cos(1.0)
    d22 = I2 + m2 * r**2 + I3 + m3 * (a2**2 + r**2 + 2 * a2 * r * c3)
    d23 = I3 + m3 * (r**2 + a2 * r * c3)
    d33 = I3 + m3 * r**2
    k23 = d23 / math.sqrt(d22 * d33)
    assert round(k23, 4) == 0.6549
    arm = articulated(symbolic=False)
    c = coupling(arm, [0.0, 0.5, 1.0])
    assert c.k[1, 2] == pytest.approx(k23, rel=1e-12)
    # (34): LF = sqrt(M3 / M2); (35), R-R: |K_23| / (K_22 K_33), K_23 = d23 / M3 (Eq. (21)
    # with links j..N), K_22^2 = d22 / M2, K_33^2 = d33 / M3
    assert c.loading[1, 2] == pytest.approx(math.sqrt(5 / 15), rel=1e-14)
    KF = (d23 / m3) / (math.sqrt(d22 / (m2 + m3)) * math.sqrt(d33 / m3))
    assert c.kinematic[1, 2] == pytest.approx(KF, rel=1e-12)
    assert np.allclose(c.k, c.loading * c.kinematic, rtol=1e-12)
    # with the masses in the guidelines' decreasing order, the coupling of joints 1 and 2/3 is
    # zero here: the arm lies in a vertical plane through z0 (d12 = d13 = 0)
    assert c.k[0, 1] == pytest.approx(0.0, abs=1e-15) and c.k[0, 2] == pytest.approx(0, abs=1e-15)


def test_coupling_of_a_translational_and_a_rotational_joint_by_hand():
    # cylindrical arm, radial arm's centre of mass moved sideways by rx3 = 0.05 (x3 is the
    # horizontal tangent): d13 = M3 (z2 x z0) . p_1 = m3 rx3 (30); q3 = 0.1, rz3 = -0.3
    arm = cylindrical(symbolic=False, rx3=0.05)
    q = [0.7, 0.3, 0.1]
    d11 = (box(20, 0.2, 0.2, 0.5)[2]                         # column about its axis
           + box(10, 0.2, 0.2, 0.3)[1] + 10 * 0.1**2         # carriage: y2 is -z0, 0.1 out
           + box(5, 0.08, 0.08, 0.6)[1] + 5 * (0.05**2 + (0.1 - 0.3)**2))   # radial arm
    d13, d33 = 5 * 0.05, 5.0
    D = equations_of_motion(arm, q, [0.0] * 3).D
    assert D[0, 0] == pytest.approx(d11, rel=1e-12)
    assert D[0, 2] == pytest.approx(d13, rel=1e-12)
    assert D[2, 2] == pytest.approx(d33, rel=1e-14)
    c = coupling(arm, q)
    assert c.k[0, 2] == pytest.approx(d13 / math.sqrt(d11 * d33), rel=1e-12)
    # (35), R-T: |(z2 x z0) . p_1| / K_11, K_11 = sqrt(d11 / M1)
    assert c.kinematic[0, 2] == pytest.approx(0.05 / math.sqrt(d11 / 35), rel=1e-12)
    assert c.loading[0, 2] == pytest.approx(math.sqrt(5 / 35), rel=1e-14)


def test_kinematic_factor_can_exceed_one():
    # Tourassis & Neuman, Sec. 3.5 states 0 <= KF <= 1; only k < 1 holds, so KF < 1 / LF.  A heavy
    # first link
    # with its mass on the axis, a light outstretched second one: k12 ~ 1, LF = sqrt(1/101)
    links = [Link("R", a=1.0, mass=100.0, com=(-1.0, 0, 0), inertia=np.diag([1e-3] * 3),
                  name="hub"),
             Link("R", a=1.0, mass=1.0, com=(-0.5, 0, 0), inertia=np.diag([1e-5, 1e-3, 1e-3]),
                  name="rod")]
    arm = Robot(links, gravity=(0, 0, 0))
    J11 = 1e-3 + 1e-3 + 1.0 * 1.5**2
    J22 = 1e-3 + 0.5**2
    J12 = 1e-3 + 0.5 * 1.5
    c = coupling(arm, [0.0, 0.0])
    assert c.k[0, 1] == pytest.approx(J12 / math.sqrt(J11 * J22), rel=1e-12) and c.k[0, 1] < 1
    assert c.loading[0, 1] == pytest.approx(math.sqrt(1 / 101), rel=1e-14)
    assert c.kinematic[0, 1] > 9.9


def test_coupling_coefficients_reject_a_non_positive_diagonal():
    assert coupling_coefficients([[4.0, -1.0], [-1.0, 1.0]]).tolist() == [[1.0, 0.5], [0.5, 1.0]]
    with pytest.raises(ValueError, match="positive"):
        coupling_coefficients([[0.0, 0.0], [0.0, 1.0]])


# -- Tourassis & Neuman, Eqs. (12), (36)-(40) by hand ----------------------------------------------
def test_coriolis_coefficients_of_the_two_link_arm():
    # Fu, Gonzalez & Lee, Sec. 3.2.6: D12 = m2 l^2 (1/3 + C2/2), D22 = m2 l^2/3, D11 = ... + m2 l^2
    # C2;
    # (36): c22(1) = dD12/dq2 = -m2 l^2 S2/2 and c11(2) = -(1/2) dD11/dq2 = m2 l^2 S2/2
    arm = planar_2r("fu", symbolic=True)
    eom = equations_of_motion(arm, variant="christoffel")
    names = {str(s): s for s in arm.free_symbols}
    m2, l = names["m2"], names["l"]
    S2 = sympy.sin(joint_symbols(2)[0][1])
    Gamma = eom.terms["Gamma"]
    expected = {(2, 2, 1): -m2 * l**2 * S2 / 2, (1, 1, 2): m2 * l**2 * S2 / 2,
                (1, 2, 1): -m2 * l**2 * S2 / 2,                   # c12(1) = (1/2) dD11/dq2
                (1, 1, 1): 0, (2, 2, 2): 0, (1, 2, 2): 0}        # c_jj(j) = 0; (38)
    for (j, m, i), value in expected.items():
        assert sympy.simplify(coriolis_coefficient(Gamma, j, m, i) - value) == 0, (j, m, i)
    with pytest.raises(ValueError):
        coriolis_coefficient(Gamma, 3, 1, 1)


def test_gravity_coefficients_of_the_cylindrical_arm():
    # (40), sign corrected: the column turns about the vertical (G1 = 0), the carriage lifts
    # m2 + m3 = 15 kg (G2 = 15 g), the radial arm slides horizontally (G3 = 0)
    arm = cylindrical(symbolic=False)
    G = gravity_coefficients(arm, [0.2, 0.3, 0.1])
    assert G.tolist() == pytest.approx([0.0, 15 * G0, 0.0], abs=1e-12)
    assert all(math.copysign(1, x) == 1 for x in (G[0], G[2]))          # no -0.0 shown
    assert np.allclose(G, equations_of_motion(arm, [0.2, 0.3, 0.1], [0.0] * 3).c, atol=1e-12)


def test_task_space_inertia_of_the_cartesian_arm():
    # J permutes (qd1, qd2, qd3) -> (vz, vx, vy), D = diag(35, 15, 5): Lambda = diag(15, 5, 35)
    task = task_space_dynamics(cartesian(symbolic=False), [0.1, 0.2, 0.3], [0.4, 0.5, 0.6])
    assert np.allclose(task.Lambda, np.diag([15.0, 5.0, 35.0]), atol=1e-12)
    assert np.allclose(task.eta, [0.0, 0.0, 35 * G0], atol=1e-9)        # holding up 35 kg


def test_task_space_dynamics_reproduce_joint_torques():
    # Lynch & Park Sec. 8.6 (draft Eqs. (9.97)-(9.99)): J^-T tau = Lambda Vdot + eta with V = J qd,
    # Vdot = J qdd + Jdot qd
    arm = articulated(symbolic=False)
    q, qd, qdd = [0.3, 0.6, -0.9], [0.5, -0.4, 0.8], [0.2, 0.7, -0.3]
    task = task_space_dynamics(arm, q, qd)
    eom = equations_of_motion(arm, q, qd)
    tau = eom.D @ qdd + eom.h + eom.c + eom.friction
    Vdot = task.J @ qdd + task.Jdot @ qd
    assert np.allclose(np.linalg.solve(task.J.T, tau), task.Lambda @ Vdot + task.eta,
                       rtol=1e-10, atol=1e-10)
    with pytest.raises(ValueError, match="singular"):
        task_space_dynamics(arm, [0.0, 0.0, 0.0], qd)                    # stretched elbow


# -- Tourassis & Neuman, Tables 2 and 3 ------------------------------------------------------------
def test_table2_counts_and_labels():
    # a second method: count Tourassis & Neuman's index sets one by one (d_ij i < j, c_jj(i)
    # i != j, two Coriolis coefficients per triple a < b < c by (38)-(39))
    for n in range(1, 8):
        joints = range(1, n + 1)
        by_enumeration = {"d_ii": n, "d_ij": len(list(combinations(joints, 2))),
                          "c_jj(i)": len(list(permutations(joints, 2))),
                          "c_jm(i)": 2 * len(list(combinations(joints, 3))), "G_i": n}
        counts = table2_counts(n)
        assert {c: counts[c] for c in COLUMNS} == by_enumeration
        listed = Counter(c for c, _, _ in independent_coefficients(n))
        assert {c: listed[c] for c in COLUMNS} == by_enumeration
        assert counts["total"] == sum(by_enumeration.values()) == n * (2 * n * n + 3 * n + 7) // 6
    # by hand for the six-joint arm: 6, 6*5/2, 6*5, 2*C(6,3) = 2*20, 6; 97 in all
    assert table2_counts(6) == {"d_ii": 6, "d_ij": 15, "c_jj(i)": 30, "c_jm(i)": 40, "G_i": 6,
                                "total": 97}


def printed(name):
    return TABLE3_PRINTED[name]


def matches_printed(structure, name) -> bool:
    row = printed(name)
    for column, (nonzero, constant) in row.counts.items():
        got = structure.counts()[column]
        if got[0] != nonzero or (constant is not None and got[1] != constant):
            return False
    return structure.total == row.total and round(structure.sparsity, 3) == row.sparsity


@pytest.mark.parametrize("name", ["cartesian", "cylindrical", "spherical"])
def test_table3_reproduced_with_links_along_their_lines(name):
    # centres of mass on the line each link extends along, principal axes along the frame:
    # the printed rows (counts, constants and sparsity) exactly
    assert matches_printed(model_structure(TOURASSIS_NEUMAN_ARMS[name](inertia="axial")), name)


def test_table3_cartesian_at_every_inertia_level():
    for level in ("general", "principal", "axial"):
        s = model_structure(cartesian(inertia=level))
        assert matches_printed(s, "cartesian")
        assert s.labels("non-zero") == ["d11", "d22", "d33", "G1"]


def test_table3_cylindrical_differs_only_by_a_sideways_radial_arm():
    general = model_structure(cylindrical(inertia="general"))
    assert general.row()["total"] == 6 and general.counts()["d_ij"] == (1, 1)
    assert general.status("d13") == "constant"
    assert str(coefficient_expression(general, "d13")) == "m3*rx3"       # (30): M3 (z2 x z0) . p
    # the one parameter: rx3 = 0 (radial arm's centre of mass in the vertical plane of the
    # column's axis) gives the printed row, whatever the products of inertia
    assert matches_printed(model_structure(cylindrical(rx3=0)), "cylindrical")


def test_table3_spherical_needs_links_two_and_three_symmetric():
    general = model_structure(spherical(inertia="general"))
    assert general.row()["total"] == 13
    assert set(general.labels("non-zero")) - set(
        model_structure(spherical(inertia="axial")).labels("non-zero")) == {
        "d12", "d13", "d23", "c22(1)", "c23(1)"}
    # the centre of mass of the boom off its line (ry3) alone brings d12, d13, c22(1), c23(1)
    zeros = {f"I{a}{k}": 0 for k in (1, 2, 3) for a in ("xy", "xz", "yz")}
    off = model_structure(spherical(rx1=0, rz1=0, rx2=0, ry2=0, rx3=0, **zeros))
    assert off.row()["total"] == 12
    assert set(off.labels("non-zero")) - set(
        model_structure(spherical(inertia="axial")).labels("non-zero")) == {
        "d12", "d13", "c22(1)", "c23(1)"}


def test_table3_articulated_coriolis_count_is_one_for_every_mass_distribution():
    # Tourassis & Neuman prints 2 Coriolis coefficients (total 16, sparsity 0.941); with z1 || z2,
    # c12(3) = -c13(2) vanishes identically (pure polynomial identity, general inertia)
    for level in ("general", "principal", "axial"):
        s = model_structure(articulated(inertia=level))
        assert s.status("c12(3)") == "zero"
        assert s.counts()["c_jm(i)"][0] == (1 if level != "axial" else 0)
    general = model_structure(articulated(inertia="general"))
    assert general.row() == {"d_ii": (3, 1), "d_ij": (3, 0), "c_jj(i)": (6, 0),
                             "c_jm(i)": (1, 0), "G_i": (2, 0), "total": 15}
    assert not matches_printed(general, "articulated")
    assert general.sparsity == pytest.approx(15 / 17)          # of Table 2's 17 coefficients
    # every other printed count needs link 3 (or 2) off the arm's plane: axial gives 10
    axial = model_structure(articulated(inertia="axial"))
    assert axial.row()["total"] == 10
    assert set(general.labels("non-zero")) - set(axial.labels("non-zero")) == {
        "d12", "d13", "c22(1)", "c33(1)", "c23(1)"}


def test_table3_six_joint_arms_with_links_along_their_lines():
    stanford = model_structure(TOURASSIS_NEUMAN_ARMS["stanford"](inertia="axial"))
    assert stanford.row() == {"d_ii": (6, 2), "d_ij": (12, 0), "c_jj(i)": (19, 0),
                              "c_jm(i)": (25, 0), "G_i": (4, 0), "total": 66}
    assert stanford.labels("constant") == ["d33", "d66"]      # printed 6(1): d33 is (25)
    puma = model_structure(TOURASSIS_NEUMAN_ARMS["puma"](inertia="axial"))
    assert puma.row() == {"d_ii": (6, 1), "d_ij": (14, 0), "c_jj(i)": (25, 0),
                          "c_jm(i)": (39, 0), "G_i": (4, 0), "total": 88}
    # (36): c_jj(i) = dd_ij/dq_j for i < j, so each zero d_ij forces a zero centrifugal
    # coefficient: Tourassis & Neuman's 14 d_ij with all 30 c_jj(i) cannot both hold
    for s in (stanford, puma):
        for _, label, (i, j, _m) in independent_coefficients(6):
            if label.startswith("d") and i < j and s.status(label) == "zero":
                assert s.status(f"c{j}{j}({i})") == "zero"


def test_sparsity_formula():
    assert sparsity_formula(3, 0) == 0.235
    assert round(sparsity_formula(3, 3), 3) == 0.94
    assert sparsity_formula(6, 6) == pytest.approx(0.94)
    with pytest.raises(ValueError):
        sparsity_formula(3, 4)


# -- random chains: Tourassis & Neuman, Sec. 2.1, (22), (36)-(40), Table 1; Lynch & Park, Prop. 8.1
# ---------------------------
@settings(max_examples=25, deadline=None)
@given(chain_and_state(max_joints=5))
def test_inertia_matrix_properties_on_random_chains(case):
    robot, q, qd, _ = case
    D = equations_of_motion(robot, q, qd).D
    check = check_inertia_matrix(D, tolerance=1e-9)
    assert check.symmetric and check.positive_definite and check.cauchy
    scale = np.abs(D).max()
    assert np.allclose(inertia_matrix_22(robot, q), D, rtol=1e-9, atol=1e-9 * scale)
    links = robot.numeric()[0]
    assert np.allclose(inertia_matrix_in_joint_frames(links, list(q)), D, rtol=1e-9,
                       atol=1e-9 * scale)


@settings(max_examples=25, deadline=None)
@given(chain_and_state(max_joints=5))
def test_christoffel_properties_on_random_chains(case):
    robot, q, qd, _ = case
    eom = equations_of_motion(robot, q, qd, variant="christoffel")
    Gamma = np.asarray(eom.terms["Gamma"], dtype=float)
    scale = max(1.0, float(np.abs(Gamma).max()))
    assert non_interacting_residual(Gamma) <= 1e-9 * scale                    # (38)
    assert reflective_coupling_residual(Gamma) <= 1e-9 * scale                # (39)
    assert np.allclose(simplified_christoffel_symbols(eom.terms["dD_dq"]), Gamma,
                       atol=1e-9 * scale)                                  # (36)-(37)
    N = (np.asarray(eom.terms["dD_dq"]) @ np.asarray(qd)) - 2 * np.asarray(eom.terms["C"])
    # Lynch & Park, Prop. 8.1
    assert passivity_residual(eom) <= 1e-9 * max(1.0, float(np.abs(N).max()))


@settings(max_examples=25, deadline=None)
@given(chain_and_state(max_joints=5))
def test_coupling_and_gravity_on_random_chains(case):
    robot, q, qd, _ = case
    eom = equations_of_motion(robot, q, qd)
    c = coupling(robot, q)
    off = ~np.eye(robot.n, dtype=bool)
    assert np.all(c.k[off] < 1)                                               # (32)
    assert np.allclose(c.k, c.loading * c.kinematic, rtol=1e-8, atol=1e-12)   # (33)
    scale = max(1.0, float(np.abs(eom.c).max()))
    assert np.allclose(gravity_coefficients(robot, q), eom.c, atol=1e-9 * scale)      # (40)
    assert np.allclose(gravity_coefficients_dh(robot, q), eom.c, atol=1e-9 * scale)   # (B-3)


@settings(max_examples=20, deadline=None)
@given(chain_and_state(min_joints=2, max_joints=4))
def test_table1_dependence_on_random_chains(case):
    # moving a joint that Table 1 says d_ij does not depend on leaves d_ij unchanged
    robot, q, qd, _ = case
    D = equations_of_motion(robot, q, qd).D
    scale = np.abs(D).max()
    for k in range(1, robot.n + 1):
        moved = list(q)
        moved[k - 1] += 0.7
        D2 = equations_of_motion(robot, moved, qd).D
        for i in range(1, robot.n + 1):
            for j in range(i, robot.n + 1):
                if k not in table1_dependence(robot.joint_types, i, j):
                    assert D2[i - 1, j - 1] == pytest.approx(D[i - 1, j - 1], abs=1e-9 * scale)


# -- the dashboard ---------------------------------------------------------------------------------
def shown(board, pair, part) -> float:
    match = re.search(rf"data-pair='{pair}' data-part='{part}' data-value='([^']+)'",
                      board.readout.value)
    return float(match.group(1))


def shown_count(board, column) -> str:
    return re.search(rf"data-column='{re.escape(column)}'>([^<]+)<", board.counts.value).group(1)


def test_structure_dashboard_follows_the_sliders():
    board = structure_dashboard("articulated", q=[0.0, 0.5, 1.0])
    assert shown(board, "23", "k") == pytest.approx(0.6549, abs=5e-5)
    assert shown(board, "23", "loading") == pytest.approx(math.sqrt(1 / 3), rel=1e-12)
    assert shown_count(board, "total") == "10" and shown_count(board, "d_ij") == "1(0)"
    # guideline 3: a heavier outer link raises the loading factor sqrt(M3 / M2)
    board.sliders["m3"].value = 10.0
    assert shown(board, "23", "loading") == pytest.approx(math.sqrt(10 / 20), rel=1e-12)
    assert board.structure.total == 10
    # a centre of mass off the arm's plane: d12, d13 and three velocity coefficients appear
    board.sliders["rz3"].value = 0.05
    assert shown_count(board, "total") == "15" and shown_count(board, "c_jm(i)") == "1(0)"
    assert shown(board, "13", "k") > 0
    assert f"{15 / 17:.3f}" in board.counts.value
    # moving a joint recomputes k only; the structure stays
    board.sliders["q3"].value = 0.0
    assert board.q == [0.0, 0.5, 0.0]
    assert shown(board, "23", "k") == pytest.approx(coupling(board.robot, board.q).k[1, 2],
                                                    rel=1e-12)
    assert board.message.startswith("ok:")
    # back to the plane: 10 again
    board.sliders["rz3"].value = 0.0
    assert shown_count(board, "total") == "10"


def test_structure_dashboard_reports_errors_and_keeps_the_last_arm():
    board = structure_dashboard("cylindrical", q=[0.0, 0.3, 0.1])
    assert shown_count(board, "total") == "5"
    before = board.readout.value
    board.sliders["q3"].value = float("nan")
    assert board.message.startswith("error:")
    assert board.readout.value == before
    with pytest.raises(ValueError):
        structure_dashboard("stanford")


def test_structure_dashboard_explains_its_figure_in_degrees_and_plain_numbers():
    board = structure_dashboard("articulated", q=[0.0, 0.5, 1.0])
    texts = board.legend_texts()
    for term in ("coefficient of coupling", "(32)", "loading factor (34)",
                 "kinematic factor (35)", "undefined"):
        assert any(term in text for text in texts), (term, texts)
    assert board.axes.get_ylabel() == "dimensionless"
    assert [t.get_text() for t in board.axes.get_xticklabels()] == ["12", "13", "23"]
    # the bars are the readout's numbers; the stored picture is the figure, legend inside it
    for quantity in ("k", "loading", "kinematic"):
        heights = [patch.get_height() for patch in board.bars[quantity]]
        assert heights == pytest.approx([shown(board, p, quantity) for p in ("12", "13", "23")],
                                        abs=1e-12)
    assert board._repr_mimebundle_()["image/png"]
    board.sliders["rz3"].value = 0.05                 # the blitted picture is the full one
    blitted = np.asarray(board.figure.canvas.buffer_rgba()).copy()
    for artist in [p for patches in board.bars.values() for p in patches] + [board.summary]:
        artist.set_animated(False)
    board.figure.canvas.draw()
    assert np.array_equal(blitted, np.asarray(board.figure.canvas.buffer_rgba()))
    assert "15 non-zero coefficients" in board.summary.get_text()
    board.sliders["rz3"].value = 0.0
    renderer = board.figure.canvas.get_renderer()
    box = board.legend.get_window_extent(renderer)
    assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= board.figure.bbox.x1 \
        and box.y1 <= board.figure.bbox.y1
    # joint sliders in degrees: q keeps its radians, 90 deg is pi/2
    assert board.sliders["q3"].value == 57.3 and board.q == [0.0, 0.5, 1.0]
    assert "deg" in board.sliders["q3"].tooltip
    board.sliders["q3"].value = 90.0
    assert board.q == [0.0, 0.5, math.pi / 2]
    assert shown(board, "23", "k") == pytest.approx(
        coupling(board.robot, [0.0, 0.5, math.pi / 2]).k[1, 2], rel=1e-12)
    # clean slider ends, room to double the masses
    for name, widget in board.sliders.items():
        assert widget.min == float(f"{widget.min:.3g}") and widget.max == float(f"{widget.max:.3g}")
        if name.startswith("m"):
            assert widget.min <= 0.5 * widget.value and widget.max >= 2 * widget.value
    # messages print plain numbers
    board.sliders["q2"].value = np.float64("nan")
    assert board.message == "error: ValueError: q2 must be a finite number, got nan"
    assert "np." not in board.status.value and "float64" not in repr(board)
