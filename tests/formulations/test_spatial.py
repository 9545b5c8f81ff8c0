"""The twist-wrench form (Lynch & Park, Secs. 8.2-8.4) and Featherstone's algorithms agree with
every other formulation, with SymPy's Kane's method and with Lynch & Park's own code library."""

import html

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from dynlab import equations_of_motion, forward_dynamics, inverse_dynamics
from dynlab.dynamics.forward import inertia_and_bias
from dynlab.formulations.featherstone import (
    articulated_body_accelerations,
    articulated_inertias,
    composite_rigid_body_inertia,
)
from dynlab.formulations.twist_wrench import (
    TRACE_QUANTITIES,
    VARIANTS,
    _ad_blocks,
    closed_form,
    screw_chain,
)
from dynlab.model import spatial as S
from dynlab.model.kinematics import tool_pose
from dynlab.model.link import Link
from dynlab.model.robot import Robot, joint_symbols
from dynlab.model.robots import planar_2r, puma560, scara
from tests.support.arms import ALL_FORMULATIONS as ALL
from tests.support.arms import symbolic_arms
from tests.support.strategies import chain_and_state

finite = dict(allow_nan=False, allow_infinity=False)
OURS = [("twist_wrench", v) for v in VARIANTS]


def _close(a, b, tol=1e-9):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return np.abs(a - b).max() <= tol * max(1.0, np.abs(b).max())


# -- the single rigid body, Sec. 8.2 (draft Eqs. (9.21)-(9.33)) ------------------------------------
vectors6 = st.tuples(*[st.floats(-3, 3, **finite)] * 6)
angles = st.tuples(*[st.floats(-np.pi, np.pi, **finite)] * 3)
points = st.tuples(*[st.floats(-2, 2, **finite)] * 3)


def _rotation(a):
    from tests.support.strategies import random_rotation
    return tuple(map(tuple, random_rotation(a).tolist()))


@settings(max_examples=60, deadline=None)
@given(vectors6, vectors6, angles, points)
def test_the_adjoint_maps_keep_brackets_power_and_energy(V1, V2, a, p):
    T = (_rotation(a), p)
    # the Lie bracket is antisymmetric, Sec. 8.2 (draft Eq. (9.28)), and Ad_T is a Lie algebra map
    assert _close(S.ad(V1, V2), [-x for x in S.ad(V2, V1)], 1e-12)
    assert _close(S.Ad(T, S.ad(V1, V2)), S.ad(S.Ad(T, V1), S.Ad(T, V2)), 1e-11)
    # a wrench and a twist carried by the same T do the same power (the rule behind Sec. 8.3 (draft
    # Eq. (9.56)))
    assert abs(S.dot6(S.Ad_transpose(T, V2), V1) - S.dot6(V2, S.Ad(T, V1))) < 1e-10
    # [ad_V]^T F of Sec. 8.2 (draft Eq. (9.31)) is the transpose of the matrix of Sec. 8.2 (draft
    # Eq. (9.29)); [Ad_T] of the same T
    assert _close(S.ad_transpose(V1, V2), np.array(S.ad_matrix(V1), float).T @ V2, 1e-12)
    assert _close(S.Ad(T, V1), np.array(S.Ad_matrix(T), float) @ V1, 1e-12)
    # the inverse undoes T
    assert _close(S.Ad(S.inverse(T), S.Ad(T, V1)), V1, 1e-11)


@settings(max_examples=40, deadline=None)
@given(st.floats(0.1, 10, **finite), st.tuples(*[st.floats(0.01, 1, **finite)] * 3), angles,
       points, angles, points, vectors6)
def test_a_spatial_inertia_in_another_frame_gives_the_same_kinetic_energy(
        mass, moments, a, com, b, p, twist):
    R = np.array(_rotation(a))
    inertia = tuple(map(tuple, (R @ np.diag(moments) @ R.T).tolist()))
    G_c = S.spatial_inertia_at_com(mass, inertia)             # Sec. 8.2 (draft Eq. (9.23))
    G_a = S.spatial_inertia(mass, com, inertia)                            # c.o.m. at com
    assert _close(G_a, S.change_frame(G_c, S.translation([-x for x in com])), 1e-12)
    T = (_rotation(b), p)                                                  # T_ba
    G_b = S.change_frame(G_a, S.inverse(T))             # the same body seen from frame b
    # Sec. 8.2 (draft Eq. (9.24)): (1/2) V_a^T G_a V_a = (1/2) V_b^T G_b V_b with V_b = Ad_{T_ba}
    # V_a
    assert abs(S.kinetic_energy(G_a, twist) - S.kinetic_energy(
        G_b, S.Ad(T, twist))) < 1e-9 * max(1.0, S.kinetic_energy(G_a, twist))
    assert np.all(np.linalg.eigvalsh(np.array(G_b, float)) > 0)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-3, 3, **finite), min_size=21, max_size=21), angles, points)
def test_the_change_of_frame_in_blocks_is_ad_transpose_g_ad(entries, a, p):
    """The 3x3-block form of :func:`dynlab.model.spatial.change_frame` is [Ad_T]^T G [Ad_T] for any
    symmetric G (an articulated inertia need not be a rigid body's)."""
    G = np.zeros((6, 6))
    G[np.triu_indices(6)] = entries
    G = G + np.triu(G, 1).T
    T = (_rotation(a), p)
    Ad = np.array(S.Ad_matrix(T), float)
    assert _close(S.change_frame(tuple(map(tuple, G.tolist())), T), Ad.T @ G @ Ad, 1e-12)


def test_the_rigid_body_equation_is_newton_and_euler():
    """Sec. 8.2 (draft Eq. (9.33)) splits into Sec. 8.2 (draft Eqs. (9.17) and (9.20)) at the centre
    of mass: m (v_dot + w x v) and I w_dot + w x I w."""
    m, Ixx, Iyy, Izz = sympy.symbols("m I_xx I_yy I_zz", positive=True)
    w, v = sympy.symbols("w1:4"), sympy.symbols("v1:4")
    wd, vd = sympy.symbols("wd1:4"), sympy.symbols("vd1:4")
    I = sympy.diag(Ixx, Iyy, Izz)
    G = S.spatial_inertia_at_com(m, tuple(map(tuple, I.tolist())))
    F = sympy.Matrix(S.body_wrench(G, (*wd, *vd), (*w, *v)))
    W, Wd, Vv, Vd = map(sympy.Matrix, (w, wd, v, vd))
    assert sympy.expand(F[:3, 0] - (I * Wd + W.cross(I * W))) == sympy.zeros(3, 1)
    assert sympy.expand(F[3:, 0] - m * (Vd + W.cross(Vv))) == sympy.zeros(3, 1)


# -- every formulation agrees ----------------------------------------------------------------------
def _puma_with_load():
    return puma560().replace(tip_force=(5.0, -3.0, 10.0), tip_moment=(0.4, -0.2, 0.7))


def test_all_formulations_agree_on_200_puma_states():
    arm = _puma_with_load()
    rng = np.random.default_rng(16)
    states = [rng.uniform(-2, 2, (3, 6)) for _ in range(200)]
    for method, variant in OURS:
        for q, qd, qdd in states:
            mine = inverse_dynamics(arm, q, qd, qdd, method=method, variant=variant)
            for other, other_variant in ALL:
                if other == method:
                    continue
                theirs = inverse_dynamics(arm, q, qd, qdd, method=other, variant=other_variant)
                assert _close(mine, theirs), (variant, other, other_variant, q, qd, qdd)


@settings(max_examples=30, deadline=None)
@given(chain_and_state(), st.tuples(*[st.floats(-5, 5, **finite)] * 6))
def test_the_recursions_agree_with_luhs_pass_by_pass_on_random_chains(chain, wrench):
    robot, q, qd, qdd = chain
    robot = robot.replace(tip_force=wrench[:3], tip_moment=wrench[3:])
    reference, luh = inverse_dynamics(robot, q, qd, qdd, trace=True)
    for variant in VARIANTS:
        tau, trace = inverse_dynamics(robot, q, qd, qdd, method="twist_wrench",
                                      variant=variant, trace=True)
        assert _close(tau, reference), variant
        for i in range(1, robot.n + 1):
            for key in TRACE_QUANTITIES[:9]:       # Luh's quantities, DH frame i
                assert _close(trace[i][key], luh[i][key]), (variant, i, key)


@settings(max_examples=30, deadline=None)
@given(chain_and_state())
def test_crba_closed_form_and_aba_agree_with_the_equations_of_motion(chain):
    robot, q, qd, tau = chain
    D, bias = inertia_and_bias(robot, q, qd, friction=False, tip_wrench=False, compiled=False)
    assert _close(composite_rigid_body_inertia(robot, q), D)               # Table 6.2
    terms = closed_form(robot, q, qd)                 # Sec. 8.4 (draft Eqs. (9.82)-(9.84))
    assert _close(terms["M"], D)
    assert _close(terms["c_velocity"] + terms["g"], bias)
    # M = sum J_ib^T G_i J_ib Sec. 8.4 (draft Eq. (9.61)): L A stacks the body Jacobians
    LA = terms["L"] @ terms["A"]
    assert _close(LA.T @ terms["G"] @ LA, D)
    # ABA (Table 7.1) equals the L D L^T solution of D qdd = tau - bias, and simulate's path
    reference = forward_dynamics(robot, q, qd, tau, compiled=False)
    assert _close(articulated_body_accelerations(robot, q, qd, tau), reference)
    assert _close(forward_dynamics(robot, q, qd, tau, method="twist_wrench",
                                   variant="featherstone"), reference)


def test_the_printed_sign_of_the_coriolis_term_would_give_another_c():
    """Sec. 8.4 (draft Eq. (9.83)) as printed (``+ G L [ad_{A thetadot}] Gamma``) differs from the
    recursion; with the sign that Sec. 8.3 (draft Eq. (9.55)) gives it agrees (the module's
    note)."""
    arm = puma560()
    q, qd = [0.1, -0.5, 0.3, 0.2, 0.4, -0.1], [0.5, -1.0, 0.8, 0.3, -0.6, 1.2]
    t = closed_form(arm, q, qd)
    A, G, L, Gamma, V = (t[k] for k in ("A", "G", "L", "Gamma", "V"))
    ad_Aqd = np.array(_ad_blocks(list(A @ qd), 6), float)
    ad_V = np.array(_ad_blocks(list(V), 6), float)
    printed = A.T @ L.T @ (G @ L @ ad_Aqd @ Gamma - ad_V.T @ G) @ L @ A @ qd
    derived = -A.T @ L.T @ (G @ L @ ad_Aqd @ Gamma + ad_V.T @ G) @ L @ A @ qd
    h = inverse_dynamics(arm, q, qd, [0.0] * 6, gravity=False, friction=False)
    assert _close(derived, h) and _close(t["c_velocity"], h)
    assert not _close(printed, h, 1e-3)
    # the evidence of the correction: the authors' library computes the corrected c
    mr = pytest.importorskip("modern_robotics")
    Mlist, Glist, Slist = _modern_robotics_model(arm)
    library = mr.VelQuadraticForces(q, qd, Mlist, Glist, Slist)
    assert _close(library, derived) and not _close(library, printed, 1e-3)
    from dynlab.teaching.errata import errata_table
    corrected = {e.place for e in errata_table("lynch_park", kind="corrected")}
    assert {"Sec. 8.4, the stacked accelerations (draft Eqs. (9.73), (9.78))",
            "Sec. 8.4, c(theta, thetadot) (draft Eq. (9.83))"} <= corrected


def test_the_second_acceleration_form_carries_v_by_ad_t_i_i_minus_1():
    """Draft Eqs. (9.47), (9.58) print the bracket ``[Ad_{T_{i-1,i}}(V_{i-1}), A_i]``; the
    sentence after (9.47) and the authors' library (``ad(V_i) A_i``) carry ``V_{i-1}`` into
    frame {i} with ``Ad_{T_{i,i-1}}``.  On the PUMA 560, link by link, only that form gives the
    library's velocity-product term."""
    mr = pytest.importorskip("modern_robotics")
    from dynlab.teaching.errata import errata_table
    Mlist, Glist, Slist = _modern_robotics_model(puma560())
    rng = np.random.default_rng(47)
    q, qd = rng.uniform(-2, 2, (2, 6))
    V, Mi = np.zeros(6), np.eye(4)
    for i in range(6):
        Mi = Mi @ Mlist[i]
        A = mr.Adjoint(mr.TransInv(Mi)) @ Slist[:, i]                  # the library's A_i
        T_back = mr.MatrixExp6(mr.VecTose3(-A * q[i])) @ mr.TransInv(Mlist[i])    # T_{i,i-1}
        V_next = mr.Adjoint(T_back) @ V + A * qd[i]
        library = mr.ad(V_next) @ A * qd[i]                            # InverseDynamics' term
        corrected = mr.ad(mr.Adjoint(T_back) @ V) @ A * qd[i]
        printed = mr.ad(mr.Adjoint(mr.TransInv(T_back)) @ V) @ A * qd[i]
        assert _close(corrected, library)
        if i > 0:                                  # V_0 = 0: the two agree at the first link
            assert not _close(printed, library, 1e-3), i
        V = V_next
    assert ("Sec. 8.3, the second form of the acceleration recursion (draft Eqs. (9.47), (9.58))"
            in {e.place for e in errata_table("lynch_park", kind="corrected")})


def test_the_joint_screw_lives_in_frame_i_as_the_library_builds_it():
    """Draft text after Eq. (9.35) puts A_i in frame {i-1}; the library builds
    ``A_i = Ad_{M_i^-1}(S_i)``, joint i's screw in frame {i}, and its torques then agree with
    dynlab's recursion; the screw in frame {i-1} (``Ad_{M_{i-1}^-1}(S_i)``) is another twist."""
    mr = pytest.importorskip("modern_robotics")
    from dynlab.engine.opcount import generic_chain
    from dynlab.teaching.errata import errata_table
    arm = generic_chain(4, joints="RPRR")       # centres of mass off every axis
    Mlist, Glist, Slist = _modern_robotics_model(arm)
    chain = screw_chain(arm.numeric()[0])
    Mi = np.eye(4)
    for i in range(arm.n):
        in_previous = mr.Adjoint(mr.TransInv(Mi)) @ Slist[:, i]        # frame {i-1}
        Mi = Mi @ Mlist[i]
        in_own = mr.Adjoint(mr.TransInv(Mi)) @ Slist[:, i]             # frame {i}
        assert _close(in_own, chain.screws[i])
        assert not _close(in_previous, chain.screws[i], 1e-3), i
    q, qd, qdd = [0.3, -0.2, 0.5, 0.1], [0.4] * 4, [-0.3] * 4
    g = np.array(arm.gravity, float)
    assert _close(mr.InverseDynamics(q, qd, qdd, g, np.zeros(6), Mlist, Glist, Slist),
                  inverse_dynamics(arm, q, qd, qdd, method="twist_wrench", friction=False))
    corrected = {e.place for e in errata_table("lynch_park", kind="corrected")}
    assert "Sec. 8.3, the joint screw A_i (draft: text after Eq. (9.35))" in corrected


def test_the_tip_wrench_is_the_one_the_end_effector_applies():
    """The library's ``Ftip`` is the wrench the end-effector applies to its environment: the
    joints hold it with ``tau = J_b^T F_tip`` (body Jacobian of frame {n+1}), the sign of
    dynlab's ``tip_force``/``tip_moment``.  The draft's "applied to link n" would be ``-J^T F``."""
    mr = pytest.importorskip("modern_robotics")
    from dynlab.teaching.errata import errata_table
    arm = puma560()
    Mlist, Glist, Slist = _modern_robotics_model(arm)
    q = np.array([0.3, -0.2, 0.5, 0.1, -0.4, 0.2])
    home = np.eye(4)
    for M in Mlist:
        home = home @ M
    Blist = np.array([mr.Adjoint(mr.TransInv(home)) @ Slist[:, i] for i in range(6)]).T
    F = np.array([0.5, -1.0, 2.0, 10.0, -20.0, 30.0])
    holding = mr.JacobianBody(Blist, q).T @ F
    assert _close(mr.EndEffectorForces(q, F, Mlist, Glist, Slist), holding)
    R = np.asarray(tool_pose(arm, q), float)[:3, :3]
    pushing = arm.replace(tip_force=tuple(R @ F[3:]), tip_moment=tuple(R @ F[:3]),
                          gravity=(0, 0, 0))
    zero = [0.0] * 6
    assert _close(inverse_dynamics(pushing, q, zero, zero, friction=False), holding)
    assert "Sec. 8.3, F_tip in the algorithm's preliminaries (draft: before Eq. (9.53))" in {
        e.place for e in errata_table("lynch_park", kind="corrected")}


def test_the_body_screw_is_ad_of_m_i_inverse_not_m_i_minus_1_inverse():
    """Lynch & Park's erratum of Sec. 8.3 (draft Eq. (9.51)): joint i moving alone at q = 0 gives
    link i's frame {i} (at its centre of mass, DH axes) the body twist A_i = Ad_{M_i^-1}(S_i) of
    Sec. 8.3 (draft Eq. (9.40)), found here by differentiating the DH poses; the printed
    Ad_{M_{i-1}^-1}(S_i) is another twist."""
    from dynlab.engine.opcount import generic_chain
    from dynlab.model.kinematics import transforms
    from dynlab.teaching.errata import errata_table
    arm = generic_chain(4, joints="RPRR")       # centres of mass off every axis
    chain = screw_chain(arm.numeric()[0])
    home = [np.eye(4)]
    step = 1e-6
    for i in range(arm.n):
        def pose(qi):
            q = [qi if k == i else 0.0 for k in range(arm.n)]
            return _com_frame(transforms(arm, q)[i + 1], arm.links[i].com)
        T, dT = pose(0.0), (pose(step) - pose(-step)) / (2 * step)
        body = np.linalg.inv(T) @ dT                               # [V_b] = T^-1 dT/dtheta_i
        twist = (body[2, 1], body[0, 2], body[1, 0], *body[:3, 3])
        # Sec. 8.3 (draft Eq. (9.40)), corrected Sec. 8.3 (draft Eq. (9.51))
        assert _close(chain.screws[i], twist, 1e-8)
        home.append(T)
        S_i = S.Ad(_pair(home[i + 1]), chain.screws[i])            # the space screw axis
        printed = S.Ad(S.inverse(_pair(home[i])), S_i)             # Ad_{M_{i-1}^-1}(S_i)
        if i > 0:                                    # M_0 = 1: the two agree for i = 1
            assert not _close(printed, twist, 1e-3)
    places = [e.place for e in errata_table("lynch_park")]
    assert "Sec. 8.3, A_i in the algorithm's preliminaries (draft Eq. (9.51))" in places
    # the evidence of the correction: the authors' library forms A_i = Ad_{M_i^-1}(S_i)
    test_the_joint_screw_lives_in_frame_i_as_the_library_builds_it()


def _com_frame(T, com):
    T = np.array(T, dtype=float)
    T[:3, 3] = T[:3, 3] + T[:3, :3] @ np.asarray(com, float)
    return T


def _pair(T):
    return tuple(map(tuple, T[:3, :3].tolist())), tuple(T[:3, 3].tolist())


def test_the_printed_base_acceleration_reverses_gravity():
    """Lynch & Park's initialization prints Vdot_0 = (0, g); the base must accelerate by -g
    (the paragraph before the algorithm): with +g every gravity torque changes sign."""
    from dynlab.formulations.twist_wrench import product_of_exponentials
    from dynlab.teaching.errata import errata_table
    arm = puma560()
    links, grav, tip_f, tip_m = arm.numeric()
    q, zero = [0.1, -0.5, 0.3, 0.2, 0.4, -0.1], [0.0] * 6
    holding = inverse_dynamics(arm, q, zero, zero, friction=False)        # Luh: gravity only
    derived, _ = product_of_exponentials(links, q, zero, zero, grav, tip_f, tip_m,
                                         use_friction=False)
    printed, _ = product_of_exponentials(links, q, zero, zero, [-g for g in grav], tip_f,
                                         tip_m, use_friction=False)      # Vdot_0 = (0, +g)
    assert _close(derived, holding) and _close(printed, -holding)
    assert np.abs(holding).max() > 1.0
    assert "Sec. 8.3, the algorithm's initialization (draft: before Eq. (9.53))" in [
        e.place for e in errata_table("lynch_park")]


@pytest.mark.parametrize("robot", symbolic_arms()[1:], ids=lambda r: r.name)
def test_crba_and_the_closed_form_are_symbolically_lagrange_eulers(robot):
    eom = equations_of_motion(robot, method="lagrange_euler")
    q, qd, _ = joint_symbols(robot.n)
    D = composite_rigid_body_inertia(robot, q)
    assert sympy.simplify(D - eom.D) == sympy.zeros(robot.n, robot.n)
    terms = closed_form(robot, q, qd)
    assert sympy.simplify(terms["M"] - eom.D) == sympy.zeros(robot.n, robot.n)
    assert sympy.simplify(terms["c_velocity"] - eom.h) == sympy.zeros(robot.n, 1)
    assert sympy.simplify(terms["g"] - eom.c) == sympy.zeros(robot.n, 1)


# -- independent oracles ---------------------------------------------------------------------------
def _kane_torques(robot):
    """``tau = -(F_r + F_r*)`` by SymPy's Kane's method, the chain built from the DH table
    with ``sympy.physics.mechanics`` (no dynlab code), in dynlab's joint symbols."""
    from sympy.physics import mechanics as me
    n = robot.n
    qs, us = me.dynamicsymbols(f"q1:{n + 1}"), me.dynamicsymbols(f"u1:{n + 1}")
    N = me.ReferenceFrame("N")
    origin = me.Point("O")
    origin.set_vel(N, 0)
    frame, point = N, origin
    bodies, loads = [], []
    for k, (link, qk) in enumerate(zip(robot.links, qs), start=1):
        theta = qk + link.offset if link.is_revolute else link.theta
        d = link.d if link.is_revolute else qk + link.offset
        turned = frame.orientnew(f"Z{k}", "Axis", (theta, frame.z))
        moved = point.locatenew(f"D{k}", d * frame.z)
        frame = turned.orientnew(f"F{k}", "Axis", (link.alpha, turned.x))
        point = moved.locatenew(f"O{k}", link.a * turned.x)
        centre = point.locatenew(f"P{k}", sum((c * e for c, e in zip(link.com, frame)),
                                              sympy.S(0) * frame.x))
        centre.set_vel(N, centre.pos_from(origin).dt(N))
        I = link.inertia
        dyadic = me.inertia(frame, I[0][0], I[1][1], I[2][2], I[0][1], I[1][2], I[2][0])
        bodies.append(me.RigidBody(f"B{k}", centre, frame, link.mass, (dyadic, centre)))
        loads.append((centre, link.mass * sum((g * e for g, e in zip(robot.gravity, N)),
                                              sympy.S(0) * N.x)))
    kane = me.KanesMethod(N, q_ind=qs, u_ind=us,
                          kd_eqs=[q.diff() - u for q, u in zip(qs, us)])
    fr, frstar = kane.kanes_equations(bodies, loads)
    q, qd, qdd = joint_symbols(n)
    t = me.dynamicsymbols._t
    subs = {**{u.diff(t): a for u, a in zip(us, qdd)}, **{u: v for u, v in zip(us, qd)}}
    tau = -(fr + frstar).subs(subs).subs({qk: s for qk, s in zip(qs, q)})
    return tau, (q, qd, qdd)


@pytest.mark.slow
@pytest.mark.parametrize("robot", [planar_2r("fu", symbolic=True), scara(symbolic=True)],
                         ids=lambda r: r.name)
def test_kanes_method_gives_the_same_torques(robot):
    kane, (q, qd, qdd) = _kane_torques(robot)
    for variant in VARIANTS:
        tau = inverse_dynamics(robot, q, qd, qdd, method="twist_wrench", variant=variant)
        assert sympy.simplify(tau - kane) == sympy.zeros(robot.n, 1), variant


def _modern_robotics_model(robot):
    """``Mlist``, ``Glist``, ``Slist`` of the Modern Robotics library built by dynlab: the
    home configurations and screw axes of :func:`screw_chain`."""
    links = robot.numeric()[0]
    chain = screw_chain(links)

    def matrix(T):
        R, p = T
        return np.block([[np.array(R, float), np.array(p, float)[:, None]],
                         [np.zeros((1, 3)), np.ones((1, 1))]])
    Mlist = [matrix(T) for T in chain.home] + [matrix(chain.dh[-1])]   # tool: DH frame n
    Glist = [np.array(G, float) for G in chain.inertias]
    M, Slist = np.eye(4), []
    for T, A in zip(chain.home, chain.screws):
        M = M @ matrix(T)
        R, p = M[:3, :3], M[:3, 3]
        Slist.append(S.Ad((tuple(map(tuple, R)), tuple(p)), A))
    return Mlist, Glist, np.array(Slist, float).T


def test_the_modern_robotics_library_agrees_on_the_puma():
    mr = pytest.importorskip("modern_robotics")
    arm = _puma_with_load()
    rng = np.random.default_rng(9)
    Mlist, Glist, Slist = _modern_robotics_model(arm)
    g = np.array(arm.gravity, float)
    for _ in range(20):
        q, qd, qdd = rng.uniform(-2, 2, (3, 6))
        R = np.asarray(tool_pose(arm, q), float)[:3, :3]
        Ftip = np.r_[R.T @ np.array(arm.tip_moment, float), R.T @ np.array(arm.tip_force, float)]
        theta = q                                # the home M_i (q = 0) hold the DH offsets
        tau = mr.InverseDynamics(theta, qd, qdd, g, Ftip, Mlist, Glist, Slist)
        assert _close(inverse_dynamics(arm, q, qd, qdd, method="twist_wrench"), tau)
        assert _close(composite_rigid_body_inertia(arm, q),
                      mr.MassMatrix(theta, Mlist, Glist, Slist))
        forces = rng.uniform(-20, 20, 6)
        assert _close(articulated_body_accelerations(arm, q, qd, forces),
                      mr.ForwardDynamics(theta, qd, forces, g, Ftip, Mlist, Glist, Slist))


# -- the numeric path and bad input ---------------------------------------------------------------
def test_the_numeric_path_builds_no_sympy_object(sympy_objects_created):
    arm = _puma_with_load()
    arm.numeric()
    q, qd, qdd = [0.1] * 6, [0.2] * 6, [0.3] * 6
    sympy_objects_created.clear()
    for variant in VARIANTS:
        inverse_dynamics(arm, q, qd, qdd, method="twist_wrench", variant=variant, compiled=False)
        inverse_dynamics(arm, q, qd, qdd, method="twist_wrench", variant=variant, trace=True)
    composite_rigid_body_inertia(arm, q)
    articulated_body_accelerations(arm, q, qd, qdd)
    closed_form(arm, q, qd)
    assert sympy_objects_created == []


def test_a_joint_that_moves_no_mass_is_named():
    arm = Robot([Link("R", a=1.0, mass=1.0, com=(-0.5, 0, 0), inertia=(0, 0.1, 0.1),
                      name="link 1"),
                 Link("R", a=0.0, mass=0.0, name="link 2")], gravity=(0, -9.8062, 0))
    with pytest.raises(ValueError, match="joint 2"):
        articulated_body_accelerations(arm, [0.1, 0.2], [0.0, 0.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="q must"):
        articulated_body_accelerations(arm, [0.1], [0.0, 0.0], [1.0, 1.0])


def test_a_trace_names_its_formulation_and_variant():
    arm, state = planar_2r("lynch_park"), ([0.1, 0.2], [0.3, 0.4], [0.5, 0.6])
    headers = {}
    for method, variant in [("newton_euler", "link"), *OURS]:
        _, trace = inverse_dynamics(arm, *state, method=method, variant=variant, trace=True)
        headers[variant] = repr(trace).splitlines()[0]
        assert f"({html.escape(trace.variant_label)})" in trace._repr_html_()
    assert headers["link"] == "Newton-Euler trace (link frame, 2 links)"
    assert headers["poe"] == ("twist-wrench trace (Lynch & Park's product of exponentials, "
                              "2 links)")
    assert headers["featherstone"] == ("twist-wrench trace (Featherstone's spatial RNEA, "
                                       "2 links)")
    assert all("poe frame" not in h and "matrix frame" not in h for h in headers.values())


# -- the composite rigid body algorithm as a formulation's own D ----------------------------------
def test_equations_of_motion_take_d_from_the_composite_rigid_body_algorithm():
    """``Formulation.inertias``: the Featherstone variant's D is the CRBA's (not n probes of the
    recursion), and it agrees with every other D."""
    from dynlab.formulations import registry as formulations
    arm = puma560()
    q, qd = [0.1, -0.5, 0.3, 0.2, 0.4, -0.1], [0.5, -1.0, 0.8, 0.3, -0.6, 1.2]
    formulation, _ = formulations.lookup("twist_wrench", "featherstone")
    assert set(formulation.inertias) == {"featherstone"}
    eom = equations_of_motion(arm, q, qd, method="twist_wrench", variant="featherstone")
    crba = composite_rigid_body_inertia(arm, q)
    assert np.array_equal(eom.D, crba)                       # the very CRBA numbers
    for method, variant in [("newton_euler", "link"), ("lagrange_euler", None),
                            ("twist_wrench", "poe")]:
        other = equations_of_motion(arm, q, qd, method=method, variant=variant)
        assert _close(eom.D, other.D) and _close(eom.h, other.h) and _close(eom.c, other.c)
    D, _ = inertia_and_bias(arm, q, qd, method="twist_wrench", variant="featherstone",
                            compiled=False)
    assert np.array_equal(D, crba)


def test_a_formulations_own_inertia_replaces_probing(monkeypatch):
    """The hook itself: a variant's ``inertias`` entry is what ``equations_of_motion``,
    ``inertia_function`` and ``inertia_and_bias_function`` return as D."""
    import dataclasses

    from dynlab.formulations import registry as formulations
    original = formulations.FORMULATIONS["twist_wrench"]
    marked = [[7.0, 1.0], [1.0, 5.0]]
    toy = dataclasses.replace(original, inertias={"featherstone": lambda *args: marked})
    monkeypatch.setitem(formulations.FORMULATIONS, "twist_wrench", toy)
    arm = planar_2r("lynch_park")
    eom = equations_of_motion(arm, [0.1, 0.2], [0.3, 0.4], method="twist_wrench",
                              variant="featherstone")
    assert eom.D.tolist() == marked
    links, grav, tip_f, tip_m = arm.numeric()
    assert formulations.inertia_function("twist_wrench", "featherstone")(
        links, [0.1, 0.2], grav) == marked
    D, _ = formulations.inertia_and_bias_function("twist_wrench", "featherstone")(
        links, [0.1, 0.2], [0.3, 0.4], None, grav, tip_f, tip_m)
    assert D == marked
    with pytest.raises(ValueError, match="inertias of 'nope'"):
        dataclasses.replace(original, inertias={"nope": lambda *args: marked})


@pytest.mark.parametrize("robot", [planar_2r(symbolic=True), *symbolic_arms()[2:]],
                         ids=lambda r: r.name)
def test_the_symbolic_d_by_crba_is_lagrange_eulers_through_equations_of_motion(robot):
    """Exact parameters, revolute and prismatic: equations_of_motion's CRBA D and probed h, c."""
    crba = equations_of_motion(robot, method="twist_wrench", variant="featherstone")
    reference = equations_of_motion(robot, method="lagrange_euler")
    n = robot.n
    assert sympy.simplify(crba.D - reference.D) == sympy.zeros(n, n)
    assert sympy.simplify(crba.h - reference.h) == sympy.zeros(n, 1)
    assert sympy.simplify(crba.c - reference.c) == sympy.zeros(n, 1)


# -- operation counts of Featherstone's algorithms ----------------------------------------------
def test_the_operation_laws_are_linear_quadratic_and_cubic_as_the_algorithms_promise():
    """The RNEA and the ABA cost a n + b, the CRBA a n^2 + ..., forming and solving D a n^3/6 +
    ...; counted as written and as traced, on generic chains n = 1..9."""
    from fractions import Fraction

    from dynlab.engine.opcount import (
        count_operations,
        count_spatial_newton_euler,
        generic_chain,
        operation_laws,
    )
    for traced in (False, True):
        laws = operation_laws(traced=traced)
        degrees = {label: len(law["mul"][0]) - 1 for label, law in laws.items()}
        assert list(degrees.values()) == [1, 2, 1, 3]
        cubic = laws["CRBA + RNEA + LDL^T, qdd(q, qd, tau)"]["mul"][0]
        assert cubic[3] == Fraction(1, 6)                           # L D L^T: n^3 / 6
        for label, law in laws.items():
            assert law["mul"][1] <= 3                              # the law holds from n = 3
    # the counter of the spatial RNEA is count_operations of its registry entry
    arm = generic_chain(5)
    assert count_spatial_newton_euler(arm) == count_operations(
        arm, "twist_wrench", "featherstone", friction=False, tip_wrench=False)


def _schur_complements(D):
    """``D_ii - D_i,>i D_>i,>i^-1 D_>i,i`` for each i: what joint i feels when the joints
    after it are free (their rows of ``D qdd = tau`` with zero torque solved for their qdd)."""
    n = len(D)
    return [D[i, i] - (D[i, i + 1:] @ np.linalg.solve(D[i + 1:, i + 1:], D[i + 1:, i])
                       if i + 1 < n else 0.0) for i in range(n)]


@settings(max_examples=30, deadline=None)
@given(chain_and_state())
def test_the_articulated_inertias_are_what_each_joint_feels_with_the_later_ones_free(chain):
    """Featherstone (2008), Table 7.1's pivots ``S_i^T I^A_i S_i`` against the Schur complements
    of the inertia matrix that Lagrange-Euler gives (a second method: linear algebra on ``D``)."""
    robot, q, _, _ = chain
    D = np.array(equations_of_motion(robot, q, [0.0] * robot.n, method="lagrange_euler").D,
                 dtype=float)
    assert _close(articulated_inertias(robot, q), _schur_complements(D))


def test_the_two_link_arms_articulated_inertia_by_hand():
    """Fu, Gonzalez & Lee's two-link arm (Sec. 3.2.6): from the book's D, joint 1 with joint 2
    free feels D11 - D12^2/D22 = m1 l^2/3 + m2 l^2 (1 - 3/4 cos^2 q2): a quarter of m2 at
    the elbow stretched out (a free rod pushed sideways at its end), all of it at a right
    angle (pushed along its length); joint 2 feels D22 = m2 l^2/3."""
    m1, m2, l = sympy.symbols("m1 m2 l", positive=True)
    q1, q2 = sympy.symbols("q1 q2")
    C2 = sympy.cos(q2)
    book = sympy.Matrix([[m1 * l**2 / 3 + sympy.Rational(4, 3) * m2 * l**2 + m2 * C2 * l**2,
                          m2 * l**2 / 3 + m2 * l**2 * C2 / 2],
                         [m2 * l**2 / 3 + m2 * l**2 * C2 / 2, m2 * l**2 / 3]])
    by_hand = m1 * l**2 / 3 + m2 * l**2 * (1 - sympy.Rational(3, 4) * C2**2)
    assert sympy.simplify(book[0, 0] - book[0, 1]**2 / book[1, 1] - by_hand) == 0
    arm = planar_2r("fu", symbolic=True)
    assert arm.symbols("m1 m2 l") == (m1, m2, l)          # the arm's letters are the book's
    found = articulated_inertias(arm, [q1, q2])
    assert sympy.simplify(found[0] - by_hand) == 0
    assert sympy.simplify(found[1] - book[1, 1]) == 0
    numbers = articulated_inertias(planar_2r("fu"), [0.3, np.pi / 2])    # m1 = 2, m2 = 1, l = 1
    assert _close(numbers, [2 / 3 + 1, 1 / 3])


def test_a_joint_that_moves_nothing_has_no_articulated_inertia():
    arm = Robot([Link("R", a=1.0, mass=1.0, name="arm"), Link("R", name="empty")], name="arm")
    with pytest.raises(ValueError, match="articulated inertia of joint 2 is 0"):
        articulated_inertias(arm, [0.0, 0.0])
