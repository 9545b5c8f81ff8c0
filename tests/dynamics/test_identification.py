"""tau = Y(q, qd, qdd) pi for every arm: against dynlab's own inverse dynamics (shipped arms,
random chains, symbols), against Pinocchio's regressor on the UR20's URDF after the change of
frame of the parameters; the base parameters counted against hand derivations (pendulum, planar
two-link arm) and against the rank of Pinocchio's stacked regressor (SCARA, PUMA 560, UR20); the
exact groupings against the float ones and against Gautier & Khalil's rules derived by hand for
the PUMA 560."""

import re

import numpy as np
import pinocchio as pin
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from dynlab import Link, Robot
from dynlab.dynamics.identification import (
    base_parameters,
    moved_parameters,
    parameter_symbols,
    standard_parameters,
    torque_regressor,
    with_standard_parameters,
)
from dynlab.dynamics.inverse import inverse_dynamics
from dynlab.model.edits import with_payload
from dynlab.model.kinematics import transforms
from dynlab.model.robot import joint_symbols
from dynlab.model.robots import ROBOTS, UR20_URDF, pendulum, planar_2r, puma560, read_urdf, ur20
from dynlab.model.symbolic import is_zero
from tests.support.strategies import chain_and_state, chains

SHIPPED = list(ROBOTS)


def states(rng, samples, n):
    return [rng.uniform(-2.5, 2.5, (samples, n)) for _ in range(3)]


def with_friction(robot, rng):
    """The arm with viscous and Coulomb friction (static = Coulomb: no Stribeck term)."""
    for k in range(1, robot.n + 1):
        coulomb = float(rng.uniform(0.1, 1))
        robot = robot.replace_link(k, viscous=float(rng.uniform(0.1, 1)), coulomb=coulomb,
                                   static=coulomb)
    return robot


# -- the regressor --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", SHIPPED)
def test_regressor_times_parameters_is_the_inverse_dynamics_of_every_shipped_arm(name, rng):
    arm = with_friction(ROBOTS[name](), rng)
    Q, QD, QDD = states(rng, 7, arm.n)
    armature = rng.uniform(0.1, 1, arm.n)
    Y = torque_regressor(arm, Q, QD, QDD, rotor=True, friction=True)
    pi = standard_parameters(arm, rotor=True, friction=True)
    pi[10::13] = armature                       # Ia of each joint: after its link's 10
    expected = np.concatenate([
        inverse_dynamics(arm, Q[k], QD[k], QDD[k], tip_wrench=False) + armature * QDD[k]
        for k in range(len(Q))])                # Lynch & Park, Sec. 8.9.2: + G^2 I_rotor qdd
    assert Y.shape == (7 * arm.n, 13 * arm.n)
    assert np.allclose(Y @ pi, expected, rtol=1e-12, atol=1e-12 * np.abs(expected).max())


@settings(max_examples=40)
@given(chain_and_state(max_joints=6))
def test_regressor_times_parameters_is_the_inverse_dynamics_of_random_chains(case):
    arm, q, qd, qdd = case
    tau = inverse_dynamics(arm, q, qd, qdd, tip_wrench=False)
    Y = torque_regressor(arm, q, qd, qdd)
    assert np.allclose(Y @ standard_parameters(arm), tau, rtol=1e-10,
                       atol=1e-10 * max(1.0, np.abs(tau).max()))


@pytest.mark.parametrize("name", ["pendulum", "planar_2r", "scara"])
def test_the_symbolic_regressor_times_parameters_is_the_symbolic_inverse_dynamics(name):
    arm = ROBOTS[name](symbolic=True)
    q, qd, qdd = joint_symbols(arm.n)
    Y = torque_regressor(arm, q, qd, qdd)
    assert isinstance(Y, sympy.MatrixBase) and Y.shape == (arm.n, 10 * arm.n)
    assert is_zero(Y * standard_parameters(arm), -inverse_dynamics(arm, q, qd, qdd))


def test_a_batch_is_its_samples_one_under_the_other(rng):
    arm = puma560()
    Q, QD, QDD = states(rng, 4, 6)
    Y = torque_regressor(arm, Q, QD, QDD, friction=True)
    for k in range(4):
        assert np.array_equal(Y[6 * k:6 * k + 6], torque_regressor(arm, Q[k], QD[k], QDD[k],
                                                                   friction=True))


def test_the_numeric_regressor_builds_no_sympy_object(rng, sympy_objects_created):
    arm = puma560()
    arm.numeric()
    Q, QD, QDD = states(rng, 50, 6)
    sympy_objects_created.clear()
    torque_regressor(arm, Q, QD, QDD, rotor=True, friction=True)
    assert sympy_objects_created == []


def pinocchio_frames(model, data, arm, base, q):
    """Each DH frame i in Pinocchio's joint frame i at ``q`` (constant if the two agree)."""
    pin.forwardKinematics(model, data, q)
    T = transforms(arm, q)
    return [np.linalg.inv(data.oMi[k + 1].homogeneous) @ base @ np.asarray(T[k + 1], float)
            for k in range(arm.n)]


def test_the_regressor_is_pinocchios_on_the_ur20_after_the_change_of_frame(rng):
    model = pin.buildModelFromUrdf(UR20_URDF)
    data = model.createData()
    arm, base = ur20(), read_urdf(UR20_URDF).dh().base
    frames = pinocchio_frames(model, data, arm, base, rng.uniform(-3, 3, 6))
    again = pinocchio_frames(model, data, arm, base, rng.uniform(-3, 3, 6))
    assert max(np.abs(a - b).max() for a, b in zip(frames, again)) < 1e-12
    # pi_pinocchio = M pi_dynlab, link by link (moved_parameters is linear): Y = Y_pin M
    M = np.zeros((60, 60))
    for k, T in enumerate(frames):
        for c in range(10):
            M[10 * k:10 * k + 10, 10 * k + c] = moved_parameters(np.eye(10)[c], T[:3, :3],
                                                                 T[:3, 3])
    Q, QD, QDD = states(rng, 5, 6)
    Y = torque_regressor(arm, Q, QD, QDD)
    for k in range(5):
        expected = pin.computeJointTorqueRegressor(model, data, Q[k], QD[k], QDD[k]) @ M
        assert np.allclose(Y[6 * k:6 * k + 6], expected, rtol=1e-12, atol=1e-12)


def test_moving_parameters_there_and_back_gives_them_again_and_a_point_mass_moves_by_hand(rng):
    pi = standard_parameters(ur20())[10:20]
    R, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    p = rng.normal(size=3)
    assert np.allclose(moved_parameters(moved_parameters(pi, R, p), R.T, -R.T @ p), pi)
    # a point mass 2 at (1, 0, 0), seen from a frame 1 m further along x: at (2, 0, 0)
    moved = moved_parameters([2.0, 2.0, 0, 0, 0, 0, 2.0, 0, 0, 2.0], np.eye(3), [1.0, 0, 0])
    assert moved.tolist() == [2.0, 4.0, 0, 0, 0, 0, 8.0, 0, 0, 8.0]


@pytest.mark.parametrize("arguments, message", [
    (([0.1, float("nan")], [0, 0], [0, 0]), "q must be finite, got nan at sample 0, joint 2"),
    (([0.1, 0.2], [0, 0, 0], [0, 0]), "qd must have 2 entries"),
    (([0.1, 0.2], [0, 0], np.zeros((2, 2, 2))), "qdd must have 2 entries"),
    ((np.zeros((3, 2)), np.zeros((2, 2)), np.zeros((3, 2))), "q, qd and qdd must have the same"),
    ((["a", 1.0], [0, 0], [0, 0]), "q must be numbers"),
])
def test_bad_states_are_refused_by_name(arguments, message):
    with pytest.raises(ValueError, match=message):
        torque_regressor(planar_2r(), *arguments)


def test_bad_arms_and_options_are_refused_by_name():
    with pytest.raises(TypeError, match="dynlab Robot"):
        torque_regressor("puma", [0], [0], [0])
    with pytest.raises(TypeError, match="friction"):
        torque_regressor(pendulum(), [0], [0], [0], friction="yes")
    stribeck = pendulum().replace_link(1, coulomb=0.2, static=0.3)
    with pytest.raises(ValueError, match="static friction 0.3 unlike its Coulomb"):
        standard_parameters(stribeck, friction=True)
    with pytest.raises(ValueError, match="10 parameters"):
        moved_parameters(np.zeros(9), np.eye(3), np.zeros(3))


# -- base parameters ------------------------------------------------------------------------------
def coefficients(expressions, symbols) -> sympy.Matrix:
    return sympy.Matrix([[sympy.diff(e, s) for s in symbols] for e in expressions])


def same_span(expressions, hand, symbols) -> bool:
    """The two sets of linear combinations span the same space of parameters."""
    A, B = coefficients(expressions, symbols), coefficients(hand, symbols)
    return A.rank() == B.rank() == A.col_join(B).rank()


def test_the_pendulums_base_parameters_are_the_hand_derived_ones():
    # joint 1 turns about z0, the origin of frame 1 at a1 along x1 from it: the torque
    # (I qdd + gravity's moment) shows the moment of inertia about the axis, ZZ1 + 2 a1 MX1
    # + a1^2 M1 (Steiner), and the first moment about it, (MX1 + a1 M1, MY1) in frame 1's axes
    arm = pendulum(symbolic=True)
    a1 = arm.symbols("a1")
    M1, MX1, MY1, ZZ1 = sympy.symbols("M1 MX1 MY1 ZZ1", real=True)
    base = base_parameters(arm)
    hand = [ZZ1 + 2 * a1 * MX1 + a1**2 * M1, MX1 + a1 * M1, MY1]
    assert base.count == 3 and same_span(base.expressions, hand, base.standard)
    assert base_parameters(arm.replace(gravity=(0, 0, 0))).count == 1     # no moment to show
    assert base_parameters(arm, rotor=True).count == 3      # Ia1 qdd1 adds to the axis' moment
    assert base_parameters(arm, rotor=True, friction=True).count == 5     # qd1, sgn(qd1)


def test_the_planar_two_link_arms_base_parameters_are_the_hand_derived_ones():
    # link 2 about joint 2 (o1, l behind o2 along x2): moment ZZ2 + 2 l MX2 + l^2 M2, first
    # moment (MX2 + l M2, MY2); link 1 about joint 1 carries link 2's mass at l along x1:
    # ZZ1 + 2 l MX1 + l^2 (M1 + M2), (MX1 + l (M1 + M2), MY1).  Lagrange: D11 = I1 + I2 + 2 l
    # (h2x c2 - h2y s2), D12 = I2 + l (...), D22 = I2 show I1, I2, h2x, h2y; gravity in the
    # plane adds h1x, h1y: 6, without gravity 4
    arm = planar_2r(symbolic=True)
    L = arm.symbols("l")
    M1, MX1, MY1, ZZ1, M2, MX2, MY2, ZZ2 = sympy.symbols("M1 MX1 MY1 ZZ1 M2 MX2 MY2 ZZ2",
                                                         real=True)
    hand = [ZZ1 + 2 * L * MX1 + L**2 * (M1 + M2), MX1 + L * (M1 + M2), MY1,
            ZZ2 + 2 * L * MX2 + L**2 * M2, MX2 + L * M2, MY2]
    base = base_parameters(arm)
    assert base.count == 6 and same_span(base.expressions, hand, base.standard)
    assert base_parameters(arm.replace(gravity=(0, 0, 0))).count == 4
    # Ia1 qdd1 is link 1's moment's column; Ia2 qdd2 in row 2 alone is new; friction 2 a joint
    assert [base_parameters(arm, rotor=r, friction=f).count
            for r, f in ((True, False), (False, True), (True, True))] == [7, 10, 11]


def pinocchio_model(arm):
    """The DH arm as a Pinocchio model: joint i turns (or slides) about z of DH frame i-1,
    the rest of A_i, ``Rz(offset) Tz(d) Tx(a) Rx(alpha)``, fixed on it."""
    model = pin.Model()
    model.gravity.linear = np.array(arm.gravity, dtype=float)
    parent, placement = 0, pin.SE3.Identity()
    for link in arm.links:
        joint = pin.JointModelRZ() if link.is_revolute else pin.JointModelPZ()
        parent = model.addJoint(parent, joint, placement, link.name)
        theta = link.offset if link.is_revolute else link.theta
        d = link.d if link.is_revolute else link.offset
        ca, sa = np.cos(link.alpha), np.sin(link.alpha)
        R = pin.utils.rotate("z", theta) @ np.array([[1, 0, 0], [0, ca, -sa], [0, sa, ca]])
        placement = pin.SE3(R, pin.utils.rotate("z", theta) @ np.array([link.a, 0, d]))
        inertia = pin.Inertia(link.mass, np.array(link.com, float),
                              np.array(link.inertia, float))
        model.appendBodyToJoint(parent, inertia, placement)
    return model


def pinocchio_rank(model, rng, rotor, friction) -> int:
    """The rank of Pinocchio's regressor (with the joints' columns qdd, qd, sgn qd) stacked over
    random states, columns scaled, NumPy's default tolerance."""
    data, rows = model.createData(), []
    for _ in range(100):
        q, qd, qdd = (rng.uniform(-np.pi, np.pi, model.nq) for _ in range(3))
        joints = [np.diag(x) for x in (qdd,) * rotor + (qd, np.sign(qd)) * friction]
        Y = pin.computeJointTorqueRegressor(model, data, q, qd, qdd).reshape(model.nv, -1)
        rows.append(np.hstack([Y, *joints]))
    Y = np.vstack(rows)
    norms = np.linalg.norm(Y, axis=0)
    Y = Y[:, norms > 1e-10 * norms.max()]
    return np.linalg.matrix_rank(Y / np.linalg.norm(Y, axis=0))


@pytest.mark.parametrize("name", ["pendulum", "planar_2r", "scara", "puma560", "ur20"])
@pytest.mark.parametrize("rotor, friction", [(False, False), (True, False), (True, True)])
def test_base_parameter_counts_are_the_rank_of_pinocchios_regressor(name, rotor, friction, rng):
    arm = ROBOTS[name]()
    if name == "ur20":
        model = pin.buildModelFromUrdf(UR20_URDF)
    else:
        model = pinocchio_model(arm)
    base = base_parameters(arm, rotor=rotor, friction=friction)
    assert base.count == pinocchio_rank(model, rng, rotor, friction)
    assert base.gap > 1e8                        # the rank is read across a clear gap


@pytest.mark.parametrize("arm", [pendulum(symbolic=True), planar_2r(symbolic=True),
                                 ROBOTS["scara"](symbolic=True),
                                 puma560(symbolic=True, joints=3)], ids=lambda a: a.name)
def test_the_base_regressor_times_the_base_parameters_is_the_regressor_times_all(arm):
    q, qd, qdd = joint_symbols(arm.n)
    base = base_parameters(arm, friction=arm.n == 1)
    pi = sympy.Matrix(base.standard)
    full = torque_regressor(arm, q, qd, qdd, friction=arm.n == 1)
    assert is_zero(base.regressor(q, qd, qdd) * base.values(pi), -full * pi)


@pytest.mark.parametrize("name", ["puma560", "ur20"])
def test_the_base_regressor_of_six_joint_arms_gives_the_torques_at_random_states(name, rng):
    arm = with_friction(ROBOTS[name](), rng)
    base = base_parameters(arm, rotor=True, friction=True)
    pi = standard_parameters(arm, rotor=True, friction=True)
    pi[10::13] = rng.uniform(0.1, 1, 6)
    Q, QD, QDD = states(rng, 20, 6)
    full = torque_regressor(arm, Q, QD, QDD, rotor=True, friction=True) @ pi
    assert np.allclose(base.regressor(Q, QD, QDD) @ base.values(pi), full, rtol=1e-9,
                       atol=1e-9 * np.abs(full).max())
    assert len(parameter_symbols(6, True, True)) == len(base.kept + base.grouped + base.zero)


# -- an arm from its standard parameters ----------------------------------------------------------
def point_masses_parameters(masses, points) -> np.ndarray:
    """A link's 10 parameters of point masses by hand: m = sum m_k, h = sum m_k p_k, I = sum m_k
    (p.p 1 - p p^T), in LINK_PARAMETERS' order."""
    m = sum(masses)
    h = sum(mk * p for mk, p in zip(masses, points))
    inertia = sum(mk * (p @ p * np.eye(3) - np.outer(p, p)) for mk, p in zip(masses, points))
    return np.array([m, *h, inertia[0, 0], inertia[0, 1], inertia[1, 1], inertia[0, 2],
                     inertia[1, 2], inertia[2, 2]])


def test_an_arm_made_from_point_masses_carries_their_parameters(rng):
    arm = planar_2r("fu")
    pi = np.concatenate([point_masses_parameters(rng.uniform(0.2, 2.0, 4),
                                                 rng.uniform(-1.0, 1.0, (4, 3)))
                         for _ in range(arm.n)])
    made = with_standard_parameters(arm, pi)
    assert np.allclose(standard_parameters(made), pi, rtol=1e-12, atol=1e-12)
    q, qd, qdd = states(rng, 5, arm.n)
    assert np.allclose(torque_regressor(arm, q, qd, qdd) @ pi, np.concatenate(
        [inverse_dynamics(made, *state) for state in zip(q, qd, qdd)]), atol=1e-9)


def test_an_arm_from_a_payloads_parameters_moves_as_the_arm_with_the_payload(rng):
    arm = puma560()
    loaded = with_payload(arm, 2.5)                     # a point mass folded into link 6
    made = with_standard_parameters(arm, standard_parameters(loaded))
    for state in zip(*states(rng, 4, 6)):
        assert np.allclose(inverse_dynamics(made, *state), inverse_dynamics(loaded, *state),
                           atol=1e-9)


def test_parameters_of_no_arm_are_refused_by_name():
    arm = planar_2r("fu")
    pi = standard_parameters(arm)
    no_mass = np.concatenate([pi[:10], [0.0, 0.5], np.zeros(8)])      # first moments, no mass
    with pytest.raises(ValueError, match=r"link 2 has mass 0 and first moments \[0.5, 0.0, 0.0\]"):
        with_standard_parameters(arm, no_mass)
    with pytest.raises(ValueError, match="parameters must be 20 finite numbers"):
        with_standard_parameters(arm, pi[:12])
    negative = pi.copy()
    negative[9] = -1.0                                   # ZZ1 < 0: no body
    with pytest.raises(ValueError, match="link 1: inertia is not positive semi-definite"):
        with_standard_parameters(arm, negative)


# -- exact groupings of six-joint arms ------------------------------------------------------------
@pytest.fixture(scope="module")
def puma_base():
    return base_parameters(puma560(symbolic=True))


def numeric_geometry(arm, rng) -> dict:
    """Random values in [0.5, 1.5] for the symbols of ``arm``'s geometry and gravity."""
    symbols = set()
    for value in (*arm.gravity, *(getattr(link, name) for link in arm.links
                                  for name in ("a", "d", "alpha", "theta", "offset"))):
        symbols |= getattr(value, "free_symbols", set())
    symbols = sorted(symbols, key=str)
    return dict(zip(symbols, rng.uniform(0.5, 1.5, len(symbols))))


def check_exact_grouping(arm, base, rotor, friction, rng):
    """The exact grouping at random values of the arm's symbols is the float one of the arm with
    those numbers, and Y_b pi_b == Y pi at random states for random standard parameters, the
    grouped (dependent) ones included."""
    values = numeric_geometry(arm, rng)
    numeric = arm.subs(values)
    floats = base_parameters(numeric, rotor=rotor, friction=friction)
    beta = np.array(base.beta.subs(values).tolist(), dtype=float)
    assert (floats.kept, floats.grouped, floats.zero) == (base.kept, base.grouped, base.zero)
    assert np.allclose(np.array(floats.beta.tolist(), dtype=float), beta, rtol=1e-9, atol=1e-9)
    pi = rng.uniform(-1, 1, len(base.standard))
    Q, QD, QDD = states(rng, 20, arm.n)
    Y = torque_regressor(numeric, Q, QD, QDD, rotor=rotor, friction=friction)
    pi_b = pi[list(base.kept)] + beta @ pi[list(base.grouped)]
    full = Y @ pi
    assert np.allclose(Y[:, list(base.kept)] @ pi_b, full, rtol=1e-10,
                       atol=1e-10 * np.abs(full).max())


def test_the_exact_grouping_of_the_pumas_first_three_joints_is_the_float_one(rng):
    arm = puma560(symbolic=True, joints=3)
    check_exact_grouping(arm, base_parameters(arm, rotor=True, friction=True), True, True, rng)


@st.composite
def symbolic_chains(draw):
    """Random chains of 1-3 joints whose lengths a_k, d_k are symbols or 0, twists multiples of
    90 degrees, gravity -g along an axis: the geometries exact groupings take."""
    arm = draw(chains(max_joints=3))
    for k, link in enumerate(arm.links, start=1):
        changes = {"alpha": draw(st.sampled_from([0, sympy.pi / 2, -sympy.pi / 2, sympy.pi])),
                   "a": draw(st.sampled_from([0, sympy.Symbol(f"a{k}", real=True)]))}
        if link.is_revolute:
            changes["d"] = draw(st.sampled_from([0, sympy.Symbol(f"d{k}", real=True)]))
        else:
            changes["theta"] = draw(st.sampled_from([0, sympy.pi / 2]))
        arm = arm.replace_link(k, **changes)
    g = sympy.Symbol("g", positive=True)
    return arm.replace(gravity=draw(st.sampled_from([(0, 0, -g), (0, -g, 0), (-g, 0, 0)])))


@settings(max_examples=30)
@given(symbolic_chains(), st.booleans(), st.integers(0, 2**32 - 1))
def test_exact_groupings_of_random_chains_are_the_float_ones(arm, joints, seed):
    rng = np.random.default_rng(seed)
    base = base_parameters(arm, rotor=joints, friction=joints)
    check_exact_grouping(arm, base, joints, joints, rng)


@pytest.mark.parametrize("alpha, value", [(sympy.Symbol("alpha1", real=True), "sin(alpha1)"),
                                          (sympy.pi / 4, "sqrt(2)/2")])
def test_a_geometry_an_exact_grouping_cannot_take_is_refused_by_name(alpha, value):
    arm = planar_2r(symbolic=True).replace_link(1, alpha=alpha)
    with pytest.raises(ValueError, match=rf"{re.escape(value)} is not \(alpha and a prismatic"):
        base_parameters(arm)


@pytest.mark.slow
def test_the_pumas_exact_grouping_is_the_float_one_and_gives_the_torques(puma_base, rng):
    arm = puma560(symbolic=True)
    assert puma_base.beta.free_symbols <= {*arm.symbols("a2, a3, d3, d4")}
    check_exact_grouping(arm, puma_base, False, False, rng)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["puma560", "ur20"])
def test_exact_groupings_of_six_joint_arms_with_rotors_and_friction(name, rng):
    arm = ROBOTS[name](symbolic=True)
    check_exact_grouping(arm, base_parameters(arm, rotor=True, friction=True), True, True, rng)


@pytest.mark.slow
def test_the_pumas_grouping_is_the_hand_derived_one(puma_base):
    # Gautier & Khalil's (1990) grouping, derived again in our frames (DH frame j at link j's
    # far end).  Link j turns about z_{j-1} through o_{j-1}; frame j' = frame j-1 turned by
    # theta_j is fixed on link j, and frame j = j' Tz(d_j) Tx(a_j) Rx(alpha_j).  Move link j's
    # (accumulated) parameters P_j to o_{j-1} in j''s axes (Steiner, as moved_parameters: M' =
    # M, h' = R h + M r, I' = R I R^T + (2 (R h).r + M r.r) 1 - (R h) r^T - r (R h)^T - M r r^T,
    # r = (a_j, 0, d_j), R = Rx(alpha_j)).  In frame j-1's axes link j has Rz I' Rz^T and Rz h'
    # (Rz = Rz(theta_j)): YY' enters as YY' diag(1, 1, 0), a constant inertia, MZ' as a
    # constant first moment along z_{j-1}, M' as a point mass at o_{j-1}, all as if fixed on
    # link j-1 (the joint's rate adds qd_j z to the angular velocity, which diag(1, 1, 0) z = 0
    # and z x z = 0 leave out).  So XX_{j-1}, YY_{j-1} += YY', MZ_{j-1} += MZ', M_{j-1} += M',
    # and link j keeps XX' - YY', XY', XZ', YZ', ZZ', MX', MY'.  Link 1 turns about the fixed
    # z0 = y1 through o1, gravity along z0: it shows P_1's YY alone.  dynlab's PUMA 560 (Corke &
    # Armstrong-Helouvry (1994)): alpha = 90, 0, -90, 90, -90, 0 degrees, lengths a2, a3, d3,
    # d4 (and d1, which moves o1 along the fixed axis and shows nowhere).  For alpha = +-90:
    # I'_xx = I_xx, I'_yy = I_zz, I'_zz = I_yy, R h = (hx, -+hz, +-hy):
    #   link 6 (r = 0, R = 1): 7 of its own; YY6, MZ6, M6 to link 5.
    #   link 5 (r = 0, -90): YY' = ZZ5, MZ' = -MY5, M' = M5 + M6; keeps XX5 + YY6 - ZZ5, XZ5,
    #     -XY5, -YZ5, YY5 + YY6, MX5, MZ5 + MZ6.
    #   link 4 (r = (0, 0, d4), +90, M456 = M4 + M5 + M6): YY' = ZZ4 + 2 d4 MY4 + d4^2 M456,
    #     MZ' = MY4 + d4 M456; keeps XX4 + ZZ5 - ZZ4, -XZ4, XY4 - d4 MX4, -YZ4 + d4 (MZ4 -
    #     MY5), YY4 + ZZ5, MX4, MY5 - MZ4.
    #   link 3 (r = (a3, 0, d3), -90, m = M3 + M456, Y4 = YY' of link 4, Z3 = MZ3 + MZ' of link
    #     4): S = (2 (a3 MX3 - d3 MY3) + m (a3^2 + d3^2)) 1 - ...: YY' = ZZ3 + 2 a3 MX3 - 2 d3
    #     MY3 + m (a3^2 + d3^2), MZ' = m d3 - MY3; keeps XX3 + Y4 - ZZ3 - 2 a3 MX3 - m a3^2,
    #     XZ3 - a3 Z3, -XY3 - d3 MX3 + a3 MY3 - m a3 d3, -YZ3 - d3 Z3, YY3 + Y4 + 2 a3 MX3 +
    #     m a3^2, MX3 + m a3, Z3.
    #   link 2 (r = (a2, 0, 0), R = 1, m2 = M2 + m, Y3 = YY' of link 3, Z2 = MZ2 + MZ' of link
    #     3): YY' = YY2 + Y3 + 2 a2 MX2 + m2 a2^2; keeps XX2 - YY2 - 2 a2 MX2 - m2 a2^2, XY2 -
    #     a2 MY2, XZ2 - a2 Z2, YZ2, ZZ2 + 2 a2 MX2 + m2 a2^2, MX2 + m2 a2, MY2.
    #   link 1: YY1 + YY' of link 2, Khalil & Dombre's ZZ1R in our axes.
    # 1 + 5 * 7 = 36 combinations, the count Pinocchio's rank gives.
    a2, a3, d3, d4 = puma560(symbolic=True).symbols("a2, a3, d3, d4")
    P = dict(zip(map(str, puma_base.standard), puma_base.standard))
    M456 = P["M4"] + P["M5"] + P["M6"]
    m = P["M3"] + M456
    m2 = P["M2"] + m
    Y4 = P["ZZ4"] + 2 * d4 * P["MY4"] + d4**2 * M456
    Z3 = P["MZ3"] + P["MY4"] + d4 * M456
    Y3 = P["ZZ3"] + 2 * a3 * P["MX3"] - 2 * d3 * P["MY3"] + m * (a3**2 + d3**2)
    Z2 = P["MZ2"] - P["MY3"] + m * d3
    Y2 = P["YY2"] + Y3 + 2 * a2 * P["MX2"] + m2 * a2**2
    hand = [
        P["YY1"] + Y2,
        P["XX2"] - P["YY2"] - 2 * a2 * P["MX2"] - m2 * a2**2, P["XY2"] - a2 * P["MY2"],
        P["XZ2"] - a2 * Z2, P["YZ2"], P["ZZ2"] + 2 * a2 * P["MX2"] + m2 * a2**2,
        P["MX2"] + m2 * a2, P["MY2"],
        P["XX3"] + Y4 - P["ZZ3"] - 2 * a3 * P["MX3"] - m * a3**2, P["XZ3"] - a3 * Z3,
        -P["XY3"] - d3 * P["MX3"] + a3 * P["MY3"] - m * a3 * d3, -P["YZ3"] - d3 * Z3,
        P["YY3"] + Y4 + 2 * a3 * P["MX3"] + m * a3**2, P["MX3"] + m * a3, Z3,
        P["XX4"] + P["ZZ5"] - P["ZZ4"], -P["XZ4"], P["XY4"] - d4 * P["MX4"],
        -P["YZ4"] + d4 * (P["MZ4"] - P["MY5"]), P["YY4"] + P["ZZ5"], P["MX4"],
        P["MY5"] - P["MZ4"],
        P["XX5"] + P["YY6"] - P["ZZ5"], P["XZ5"], -P["XY5"], -P["YZ5"], P["YY5"] + P["YY6"],
        P["MX5"], P["MZ5"] + P["MZ6"],
        P["XX6"] - P["YY6"], P["XY6"], P["XZ6"], P["YZ6"], P["ZZ6"], P["MX6"], P["MY6"]]
    # the kept parameters: all but YY', MZ', M' of each link, in our axes (ZZ_j, MY_j, M_j for
    # alpha_j = +-90 degrees, YY_j, MZ_j, M_j for alpha_j = 0), and link 1's YY1
    grouped = {2: "YY MZ M", 3: "ZZ MY M", 4: "ZZ MY M", 5: "ZZ MY M", 6: "YY MZ M"}
    assert [str(puma_base.standard[k]) for k in puma_base.kept] == ["YY1"] + [
        f"{name}{j}" for j in range(2, 7)
        for name in ("XX", "XY", "XZ", "YY", "YZ", "ZZ", "MX", "MY", "MZ")
        if name not in grouped[j].split()]
    # each hand combination is the combination of base parameters its kept coordinates give
    # (the base parameters are pi[kept] + beta pi[grouped]): exact, in the symbols
    kept = [puma_base.standard[k] for k in puma_base.kept]
    for h in hand:
        assert sympy.expand(h - sum(sympy.diff(h, s) * e for s, e in
                                    zip(kept, puma_base.expressions))) == 0, h
    # ... and the 36 are independent (at one point, so for all but special geometries): the
    # two sets span one space, which fixes beta
    at = {a2: sympy.Rational(3, 7), a3: sympy.Rational(2, 5), d3: sympy.Rational(5, 3),
          d4: sympy.Rational(7, 4)}
    assert coefficients([h.subs(at) for h in hand], puma_base.standard).rank() == 36
    # so the first link's base parameter, whose kept coordinates are YY1's alone, is Khalil's
    # YY1 + YY' of link 2 less 2 a2 and 2 a3 times link 2's and 3's MX2 + m2 a2, MX3 + m a3
    assert sympy.expand(puma_base.expressions[0] - (hand[0] - 2 * a2 * hand[6]
                                                    - 2 * a3 * hand[13])) == 0


def test_a_small_real_grouping_coefficient_is_kept():
    """A twist of 1e-7 rad between two axes leaves grouping coefficients of order 1e-7 (gravity's
    share through the twist): they are real, and dropping them, as a threshold relative to the
    largest coefficient of all did, put 3e-10 of the torques' size into Y_b pi_b."""
    links = [Link("R", a=0.7, alpha=1e-7, mass=2.0, com=(-0.3, 0.05, 0.02),
                  inertia=(0.02, 0.03, 0.04)),
             Link("R", a=0.5, mass=1.0, com=(-0.2, 0.01, 0.03), inertia=(0.01, 0.02, 0.03))]
    arm = Robot(links, name="nearly planar")
    base, pi = base_parameters(arm), standard_parameters(arm)
    Q, QD, QDD = states(np.random.default_rng(5), 20, 2)
    full = torque_regressor(arm, Q, QD, QDD) @ pi
    assert np.allclose(base.regressor(Q, QD, QDD) @ base.values(pi), full, rtol=0,
                       atol=1e-11 * np.abs(full).max())
