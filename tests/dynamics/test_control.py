"""Controllers and references (dynlab.dynamics.control, trajectory): computed torque leaves
e'' + Kd e' + Kp e = 0; PD plus gravity makes V = qd^T D qd / 2 + e^T Kp e / 2 non-increasing
(Lynch & Park, Prop. 8.1); a wrong payload leaves the offset its gravity error predicts."""

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dynlab import equations_of_motion, inverse_dynamics, simulate
from dynlab.dynamics.control import (
    FGL_PUMA_D_PARTS,
    FGL_PUMA_H_PARTS,
    Model,
    computed_torque,
    critical_damping,
    error_dynamics,
    feedforward,
    gain_matrix,
    lyapunov_function,
    pd,
    pd_gravity,
    pid,
    steady_state,
)
from dynlab.dynamics.forward import inertia_and_bias
from dynlab.dynamics.trajectory import SetPoint, as_reference, quintic
from dynlab.model.checks import NotFiniteError
from dynlab.model.edits import with_payload
from dynlab.model.robots import pendulum, planar_2r, puma560
from tests.support.refusals import assert_refused, refusals

finite = dict(allow_nan=False, allow_infinity=False)
QN = np.array([0.0, math.pi / 4, -math.pi, 0.0, math.pi / 4, 0.0])     # the PUMA's nominal pose
MOVE = np.array([math.pi / 2, -math.pi / 4, math.pi / 2, math.pi / 2, -math.pi / 2, math.pi / 2])


def inertia_scaled_gains(robot, q, omega, zeta=1.0):
    """Kp = omega^2 D_ii(q), Kd = 2 zeta omega D_ii(q): each joint alone a second-order system
    with natural frequency omega (so the wrist's tiny inertias do not make the run stiff)."""
    D, _ = inertia_and_bias(robot, q, np.zeros(robot.n))
    return omega**2 * np.diag(D), 2 * zeta * omega * np.diag(D)


# -- the reference -------------------------------------------------------------------------------
def test_quintic_boundary_conditions_and_derivatives():
    move = quintic([0.2, -1.0], [1.4, 0.5], 1.6, t0=0.3)
    for t in (0.3, 1.9):
        q, qd, qdd = move(t)
        assert np.allclose(qd, 0, atol=1e-15) and np.allclose(qdd, 0, atol=1e-13)
    assert np.allclose(move(0.3)[0], [0.2, -1.0]) and np.allclose(move(1.9)[0], [1.4, 0.5])
    for t in (0.5, 0.9, 1.1, 1.7):          # qd, qdd are the derivatives of q (central differences)
        h = 1e-5
        assert np.allclose((move(t + h)[0] - move(t - h)[0]) / (2 * h), move(t)[1], atol=1e-8)
        assert np.allclose((move(t + h)[1] - move(t - h)[1]) / (2 * h), move(t)[2], atol=1e-6)
    samples = np.array([move(t)[1] for t in np.linspace(0.3, 1.9, 3201)])
    assert np.allclose(np.abs(samples).max(axis=0), move.peak_velocity(), rtol=1e-9)
    accelerations = np.array([move(t)[2] for t in np.linspace(0.3, 1.9, 20001)])
    assert np.allclose(np.abs(accelerations).max(axis=0), move.peak_acceleration(), rtol=1e-6)


# -- gains and inputs ----------------------------------------------------------------------------
def test_gain_matrix_forms():
    assert np.array_equal(gain_matrix(3.0, 2, "Kp"), 3.0 * np.eye(2))
    assert np.array_equal(gain_matrix([[2.0, 1.0], [1.0, 2.0]], 2, "Kp"), [[2, 1], [1, 2]])
    assert critical_damping([4.0, 9.0]).tolist() == [4.0, 6.0]
    assert isinstance(as_reference([0.1, 0.2], 2), SetPoint)


# -- the models ----------------------------------------------------------------------------------
def test_with_payload_matches_the_folded_payload_of_the_macsyma_arm():
    folded = planar_2r("macsyma", payload=0.7).links[1]
    ours = with_payload(planar_2r("macsyma", payload=0.0), 0.7).links[1]
    assert ours.mass == pytest.approx(folded.mass)
    assert np.allclose(ours.com, folded.com, atol=1e-15)
    assert np.allclose(ours.inertia, folded.inertia, atol=1e-15)


def test_simplified_model_keeps_the_named_parts():
    arm = puma560()
    q, qd, qdd = QN + 0.3, np.linspace(-1, 1, 6), np.linspace(2, -1, 6)
    gd = equations_of_motion(arm, q, qd, method="dalembert")
    parts = {"tran": "D_tran", "rot": "D_rot"}
    D = np.array([[gd.terms[parts[FGL_PUMA_D_PARTS[(min(i, j), max(i, j))]]][i - 1, j - 1]
                   if (min(i, j), max(i, j)) in FGL_PUMA_D_PARTS else gd.D[i - 1, j - 1]
                   for j in range(1, 7)] for i in range(1, 7)])
    h = np.array([{"tran": gd.terms["h_tran"], "rot": gd.terms["h_rot"]}.get(
        FGL_PUMA_H_PARTS[i], gd.h)[i - 1] for i in range(1, 7)])
    book = Model(arm, D_parts=FGL_PUMA_D_PARTS, h_parts=FGL_PUMA_H_PARTS)
    assert np.allclose(book.torque(q, qd, qdd), D @ qdd + h + gd.c, rtol=1e-12, atol=1e-12)
    assert not np.allclose(book.torque(q, qd, qdd), Model(arm).torque(q, qd, qdd), atol=1e-3)
    # keeping both parts everywhere is the exact model; "none" drops an element
    assert np.allclose(Model(arm, D_parts={}).torque(q, qd, qdd),
                       inverse_dynamics(arm, q, qd, qdd), rtol=1e-12, atol=1e-12)
    no_h = Model(arm, h_parts={i: "none" for i in range(1, 7)})
    assert np.allclose(no_h.torque(q, qd, qdd), np.asarray(gd.D, float) @ qdd + gd.c,
                       rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("method, variant", [("newton_euler", "base"),
                                             ("lagrange_euler", "christoffel"),
                                             ("dalembert", None)])
def test_any_formulation_can_be_the_model(method, variant):
    arm = puma560()
    q, qd, qdd = QN - 0.2, np.linspace(1, -1, 6), np.ones(6)
    assert np.allclose(Model(arm, method=method, variant=variant).torque(q, qd, qdd),
                       inverse_dynamics(arm, q, qd, qdd), rtol=1e-10, atol=1e-10)
    assert np.allclose(Model(arm, method=method, variant=variant).gravity(q),
                       inverse_dynamics(arm, q, np.zeros(6), np.zeros(6)), rtol=1e-10,
                       atol=1e-10)


# -- computed torque: the linear error equation --------------------------------------------------
def test_error_dynamics_matches_the_closed_forms():
    t = np.linspace(0, 2, 9)
    w = 3.0                                                     # critically damped
    assert np.allclose(error_dynamics(w**2, 2 * w, [0.5], [0.0], t)[:, 0],
                       0.5 * (1 + w * t) * np.exp(-w * t), rtol=1e-12, atol=1e-15)
    wd = math.sqrt(16.0 - 1.0)                                  # Kp = 16, Kd = 2: underdamped
    expected = np.exp(-t) * (np.cos(wd * t) + np.sin(wd * t) / wd)
    assert np.allclose(error_dynamics(16.0, 2.0, [1.0], [0.0], t)[:, 0], expected,
                       rtol=1e-12, atol=1e-14)


def test_computed_torque_error_equation_on_the_puma():
    arm = puma560()
    Kp, Kd = np.array([100.0, 100.0, 100.0, 64.0, 64.0, 49.0]), np.array([20, 20, 20, 16, 8, 14.0])
    reference = quintic(QN, QN + MOVE, 2.0, t0=0.5)
    e0 = np.array([0.05, -0.04, 0.03, 0.1, -0.08, 0.06])
    ed0 = np.array([0.2, 0.0, -0.1, 0.0, 0.3, 0.0])
    law = computed_torque(arm, Kp, Kd, reference)
    run = simulate(arm, QN - e0, -ed0, torque=law, t_span=3.0, dt=0.01, rtol=1e-10, atol=1e-12)
    e = law.tracking_error(run)
    predicted = error_dynamics(Kp, Kd, e0, ed0, run.t)
    assert np.abs(e - predicted).max() < 1e-6
    assert np.abs(e[0]).max() > 0.05 and np.abs(e[-1]).max() < 1e-3   # the error did decay


@settings(max_examples=8, deadline=None)
@given(masses=st.tuples(st.floats(0.2, 5.0, **finite), st.floats(0.2, 5.0, **finite)),
       length=st.floats(0.3, 1.5, **finite),
       omega=st.tuples(st.floats(2.0, 12.0, **finite), st.floats(2.0, 12.0, **finite)),
       zeta=st.floats(0.3, 1.5, **finite),
       e0=st.tuples(st.floats(-0.3, 0.3, **finite), st.floats(-0.3, 0.3, **finite)))
def test_computed_torque_error_equation_holds_for_every_two_link_arm(masses, length, omega,
                                                                      zeta, e0):
    arm = planar_2r("fu", m1=masses[0], m2=masses[1], l=length)
    Kp, Kd = np.array(omega) ** 2, 2 * zeta * np.array(omega)
    reference = quintic([-1.0, 0.5], [0.3, 1.2], 1.0, t0=0.2)
    law = computed_torque(arm, Kp, Kd, reference, method="lagrange_euler")
    run = simulate(arm, np.array([-1.0, 0.5]) - e0, None, torque=law, t_span=1.5, dt=0.05,
                   rtol=1e-10, atol=1e-12)
    predicted = error_dynamics(Kp, Kd, e0, [0.0, 0.0], run.t)
    assert np.abs(law.tracking_error(run) - predicted).max() < 1e-6


def test_feedforward_with_an_exact_model_tracks_from_zero_error():
    arm = planar_2r("fu")
    reference = quintic([-1.0, 0.5], [0.3, 1.2], 1.0)
    law = feedforward(arm, 25.0, 10.0, reference)
    run = simulate(arm, [-1.0, 0.5], None, torque=law, t_span=1.5, dt=0.05, rtol=1e-10,
                   atol=1e-12)
    assert np.abs(law.tracking_error(run)).max() < 1e-7
    plain = pd(arm, 25.0, 10.0, reference)                      # without it, PD lags far behind
    lag = plain.tracking_error(simulate(arm, [-1.0, 0.5], None, torque=plain, t_span=1.5,
                                        dt=0.05))
    assert np.abs(lag).max() > 0.1


# -- PD + gravity compensation: the energy-like function -----------------------------------------
def test_pd_gravity_settles_on_the_puma_and_its_energy_never_increases():
    arm = puma560()
    target = QN + np.array([0.3, -0.3, 0.4, 0.5, -0.4, 0.6])
    Kp, Kd = inertia_scaled_gains(arm, target, omega=8.0)
    law = pd_gravity(arm, Kp, Kd, target)
    run = simulate(arm, QN, np.array([0.5, -0.2, 0.0, 1.0, 0.0, -1.0]), torque=law,
                   t_span=4.0, dt=0.01)
    V = lyapunov_function(run, Kp, target)
    assert V[0] > 1.0
    assert np.diff(V).max() <= 1e-9 * V[0]                     # never increases
    assert np.all(np.diff(V)[:50] < 0)                          # and strictly while moving
    assert np.abs(run.q[-1] - target).max() < 1e-6 and np.abs(run.qd[-1]).max() < 1e-5


@settings(max_examples=8, deadline=None)
@given(masses=st.tuples(st.floats(0.2, 5.0, **finite), st.floats(0.2, 5.0, **finite)),
       kp=st.tuples(st.floats(1.0, 60.0, **finite), st.floats(1.0, 60.0, **finite)),
       kd=st.tuples(st.floats(0.2, 10.0, **finite), st.floats(0.2, 10.0, **finite)),
       target=st.tuples(st.floats(-3.0, 3.0, **finite), st.floats(-3.0, 3.0, **finite)))
def test_pd_gravity_energy_never_increases_on_any_two_link_arm(masses, kp, kd, target):
    arm = planar_2r("fu", m1=masses[0], m2=masses[1])
    law = pd_gravity(arm, kp, kd, target)
    run = simulate(arm, [-1.0, 0.4], [1.0, -1.0], torque=law, t_span=2.0, dt=0.02)
    V = lyapunov_function(run, kp, target)
    assert np.diff(V).max() <= 1e-8 * V[0]


def test_pd_without_gravity_compensation_lets_the_energy_like_function_rise():
    """The argument needs c_m = c: plain PD against gravity can raise V (the arm falls first)."""
    arm = planar_2r("fu")
    law = pd(arm, 20.0, 5.0, [0.0, 0.0])
    run = simulate(arm, [0.0, 0.0], None, torque=law, t_span=1.0, dt=0.01)
    assert np.diff(lyapunov_function(run, 20.0, [0.0, 0.0])).max() > 1e-3


# -- a wrong payload: the offset the disturbance predicts ----------------------------------------
def test_pd_gravity_with_a_wrong_payload_settles_where_kp_e_equals_the_gravity_error():
    model = puma560()
    plant = with_payload(model, 1.5)                             # the model misses 1.5 kg
    target = QN + np.array([0.3, -0.3, 0.4, 0.5, -0.4, 0.6])
    Kp, Kd = inertia_scaled_gains(model, target, omega=8.0)
    law = pd_gravity(model, Kp, Kd, target)
    q_ss = steady_state(law, plant)
    e_ss = target - q_ss
    zero = np.zeros(6)
    delta_c = inverse_dynamics(plant, q_ss, zero, zero) - inverse_dynamics(model, q_ss, zero,
                                                                           zero)
    assert np.allclose(Kp * e_ss, delta_c, rtol=1e-10, atol=1e-12)   # the fixed point
    run = simulate(plant, QN, None, torque=law, t_span=8.0, dt=0.1)
    big = np.abs(e_ss) > 1e-3 * np.abs(e_ss).max()
    assert np.abs(e_ss).max() > 0.02
    assert np.allclose((target - run.q[-1])[big], e_ss[big], rtol=0.01, atol=0)
    assert np.abs((target - run.q[-1])[~big]).max() < 1e-3 * np.abs(e_ss).max()


def test_computed_torque_with_a_wrong_payload_settles_where_the_model_predicts():
    model = planar_2r("fu")
    plant = with_payload(model, 0.4)
    law = computed_torque(model, 36.0, 12.0, [-0.5, 0.8])
    q_ss = steady_state(law, plant)
    zero = np.zeros(2)
    delta_c = inverse_dynamics(plant, q_ss, zero, zero) - inverse_dynamics(model, q_ss, zero,
                                                                           zero)
    D_m, _ = inertia_and_bias(model, q_ss, zero)
    assert np.allclose(36.0 * ([-0.5, 0.8] - q_ss), np.linalg.solve(D_m, delta_c), rtol=1e-10)
    run = simulate(plant, [-0.5, 0.8], None, torque=law, t_span=6.0, dt=0.1)
    assert np.allclose([-0.5, 0.8] - run.q[-1], [-0.5, 0.8] - q_ss, rtol=0.01, atol=0)


def test_pid_removes_the_offset_that_pd_leaves():
    arm = pendulum()
    light = pendulum(m1=0.5)
    offset = [-0.5] - steady_state(pd_gravity(light, 20.0, 5.0, [-0.5]), arm)
    assert abs(offset[0]) > 0.04
    law = pid(arm, 20.0, 5.0, 30.0, [-0.5])
    believed = Model(light)

    def pid_and_wrong_gravity(t, q, qd):
        return law(t, q, qd) + believed.gravity(q)

    run = simulate(arm, [-0.5], None, torque=pid_and_wrong_gravity, t_span=8.0,
                   integrator="euler", dt=1e-3)
    assert abs(run.q[-1, 0] + 0.5) < 1e-3


# -- the tracking dashboard of chapter 08 ----------------------------------------------------------

def test_tracking_dashboard_gains_follow_its_controls():
    from dynlab.teaching.dashboards.tracking import TrackingDashboard
    arm = planar_2r("fu")
    move = quintic([-1.2, 0.4], [0.6, 1.4], 1.5, t0=0.25)
    board = TrackingDashboard(arm, move, [-1.2, 0.4], render=False)
    board.set(controller="PD + gravity", omega_n=8.0, zeta=0.5)
    law = board.law()
    D0, _ = inertia_and_bias(arm, [-1.2, 0.4], [0.0, 0.0])
    assert np.allclose(np.diag(law.Kp), 64.0 * np.diag(D0), rtol=0, atol=1e-12)
    assert np.allclose(np.diag(law.Kd), 8.0 * np.diag(D0), rtol=0, atol=1e-12)
    board.set(controller="computed torque")
    assert np.allclose(board.law().Kp, 64.0 * np.eye(2))
    assert np.allclose(board.law().Kd, 8.0 * np.eye(2))
    # the run shown is the run of that law on the plant with the payload
    board.set(payload=0.7)
    run = simulate(with_payload(arm, 0.7), [-1.2, 0.4],
                   torque=board.law(), t_span=2.5, dt=0.01)
    assert np.allclose(board.errors, board.law().tracking_error(run), rtol=0, atol=1e-12)


# -- bad input: named, never read as something else -----------------------------------------------
BUILDERS = {"pd": lambda arm, Kp, Kd, ref, **o: pd(arm, Kp, Kd, ref),
            "pd_gravity": pd_gravity, "computed_torque": computed_torque}


@pytest.mark.parametrize("builder", BUILDERS, ids=list(BUILDERS))
@pytest.mark.parametrize("gain", ["Kp", "Kd"])
@pytest.mark.parametrize("value, found", [("10", "str"), (True, "bool"), ([True, 1.0], "bool"),
                                          (["10", 1.0], "str"), (np.bool_(True), "bool")])
def test_gains_given_as_text_or_truth_values_are_refused(builder, gain, value, found):
    """NumPy reads "10" as 10 and True as 1: pd(arm, "10", ...) used to be a working
    controller."""
    gains = dict(Kp=10.0, Kd=2.0)
    gains[gain] = value
    with pytest.raises(TypeError, match=rf"^{gain} must be a number, 2 numbers or a 2x2 matrix, "
                                        rf"got .* \(a {found}\)$"):
        BUILDERS[builder](planar_2r("fu"), gains["Kp"], gains["Kd"], [0.2, 0.3])


@pytest.mark.parametrize("builder", ["pd_gravity", "computed_torque", "Model"])
@pytest.mark.parametrize("option", ["friction", "tip_wrench"])
@pytest.mark.parametrize("value", ["no", 1, None])
def test_model_options_given_as_text_or_numbers_are_refused(builder, option, value):
    """Model(friction="no") used to be a model with friction."""
    with pytest.raises(TypeError, match=rf"^Model: {option} must be True or False, got "
                                        rf"{type(value).__name__} {re.escape(repr(value))}$"):
        if builder == "Model":
            Model(planar_2r("fu"), **{option: value})
        else:
            BUILDERS[builder](planar_2r("fu"), 10.0, 2.0, [0.2, 0.3], **{option: value})


@pytest.mark.parametrize("entry", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("vector", ["q", "qd", "qdd"])
def test_inf_or_nan_into_a_model_is_a_not_finite_error(entry, vector):
    """Model.torque used to return [nan, nan]."""
    state = dict(q=[0.1, 0.2], qd=[0.0, 0.0], qdd=[0.0, 0.0])
    state[vector] = [0.3, entry]
    with pytest.raises(NotFiniteError, match=rf"^Model.torque: {vector} must be finite, got "
                                             rf"\[0.3, -?(nan|inf)\]$"):
        Model(planar_2r("fu")).torque(**state)
    state[vector] = np.array([0.3, entry])              # the quick way in, too
    with pytest.raises(NotFiniteError, match=rf"^Model.torque: {vector} must be finite"):
        Model(planar_2r("fu")).torque(**state)
    with pytest.raises(NotFiniteError, match=r"^Model.gravity: q must be finite"):
        Model(planar_2r("fu")).gravity([0.3, entry])


def test_a_model_whose_torque_overflows_is_a_not_finite_error():
    with pytest.raises(NotFiniteError, match=r"^tau1 of the model of two-link arm .* is not "
                                             r"finite \(overflow\) at q = \(0, 0\), "
                                             r"qd = \(1e\+200, 0\), qdd = \(0, 0\)"):
        Model(planar_2r("fu")).torque([0.0, 0.0], [1e200, 0.0], [0.0, 0.0])


def test_model_vectors_of_any_real_type_are_joint_values():
    model = Model(planar_2r("fu"))
    # any real numbers are joint values
    assert np.array_equal(model.torque([0, 0], np.zeros(2, dtype=np.float32), (0.0, 0)),
                          model.torque([0.0, 0.0], [0.0, 0.0], [0.0, 0.0]))


@pytest.mark.parametrize("builder", BUILDERS, ids=list(BUILDERS))
def test_inf_or_nan_into_or_out_of_a_controller_is_a_not_finite_error(builder):
    law = BUILDERS[builder](planar_2r("fu"), 10.0, 2.0, [0.2, 0.3])
    for name, q, qd in (("q", [math.nan, 0.0], [0.0, 0.0]), ("qd", [0.0, 0.0], [0.0, math.inf])):
        with pytest.raises(NotFiniteError, match=rf"^{re.escape(law.law)} controller: {name} "
                                                 rf"must be finite"):
            law(0.0, np.array(q), np.array(qd))
    with pytest.raises(ValueError, match=r"controller: q must have 2 entries"):
        law(0.0, [0.0], [0.0, 0.0])
    with pytest.raises(TypeError, match=r"controller: qd must be 2 real numbers"):
        law(0.0, [0.0, 0.0], ["0", 0.0])
    # a state far out: the torque overflows
    huge = BUILDERS[builder](planar_2r("fu"), 1e300, 1e300, [0.2, 0.3])
    overflow = (r"^computed torque controller at t = 0: Model.torque: qdd must be finite"
                if builder == "computed_torque" else r"^tau1 of .* is not finite \(overflow\)")
    with pytest.raises(NotFiniteError, match=overflow):
        huge(0.0, np.array([-1e10, 0.0]), np.array([1e10, 0.0]))


def test_a_controller_that_meets_an_overflow_in_a_simulation_names_it():
    """The controller's own error reaches the reader through simulate."""
    law = computed_torque(planar_2r("fu"), 100.0, 20.0, [0.2, 0.3])
    with pytest.raises(NotFiniteError, match=r"^computed torque controller at t = 0: tau1 of the "
                                             r"model of two-link arm .* qd = \(1e\+155, 0\)"):
        simulate(planar_2r("fu"), [0.1, 0.2], [1e155, 0.0], torque=law, t_span=0.1)


@pytest.mark.parametrize("control, value, kind", [
    ("omega_n", 1000, ValueError), ("omega_n", 1.0, ValueError), ("payload", -1, ValueError),
    ("payload", 2.5, ValueError), ("zeta", math.nan, ValueError), ("zeta", "1", TypeError),
    ("zeta", True, TypeError), ("controller", "LQR", ValueError), ("controller", 1, TypeError)])
def test_the_tracking_dashboard_refuses_a_value_outside_its_slider_and_stays_as_it_was(
        control, value, kind):
    """omega_n=1000 used to become 30 and payload=-1 0 without a word; set(zeta=nan) raised but
    left NaN in the slider, and every later set() failed."""
    from dynlab.teaching.dashboards.tracking import TrackingDashboard
    move = quintic([-1.2, 0.4], [0.6, 1.4], 1.5, t0=0.25)
    board = TrackingDashboard(planar_2r("fu"), move, [-1.2, 0.4], render=False)
    board.set(omega_n=8.0, payload=0.5)
    before = ({name: c.value for name, c in board.controls.items()}, board.run, board.max_error)
    with pytest.raises(kind, match=rf"^TrackingDashboard: (unknown )?{control}"):
        board.set(**{"omega_n": 12.0, control: value})        # a good value with a bad one
    assert ({name: c.value for name, c in board.controls.items()}, board.run,
            board.max_error) == before
    assert round(board.set(omega_n=30.0, payload=1.0).max_error, 3) == 0.102  # (the doctest's)
    with pytest.raises(kind, match=rf"^TrackingDashboard: (unknown )?{control}"):
        TrackingDashboard(planar_2r("fu"), move, [-1.2, 0.4], render=False, **{control: value})


def test_the_tracking_dashboard_runs_once_for_several_values():
    from dynlab.teaching.dashboards.tracking import TrackingDashboard
    move = quintic([-1.2, 0.4], [0.6, 1.4], 1.5, t0=0.25)
    board = TrackingDashboard(planar_2r("fu"), move, [-1.2, 0.4], render=False)
    runs, original = [], board._update
    board._update = lambda: runs.append(1) or original()
    board.set(omega_n=12.0, zeta=0.7, payload=0.3)
    assert len(runs) == 1
    board.controls["zeta"].value = 0.9              # a reader's move: one run
    assert len(runs) == 2 and board.law().Kd[0, 0] == pytest.approx(2 * 0.9 * 12.0)


def test_matched_gains_give_pd_the_closed_loop_of_computed_torque():
    """The pendulum's inertia is the same at every pose, so PD plus gravity compensation at
    matched_gains (N m/rad) is exactly computed torque's closed loop at omega_n^2 (s^-2): the
    two runs agree, and both follow the linear error equation."""
    from dynlab.dynamics.control import matched_gains
    rod = pendulum()
    Kp, Kd = matched_gains(rod, [0.3], omega_n=6.0, zeta=0.7)
    assert np.allclose([Kp[0], Kd[0]], [36.0 / 12.0, 2 * 0.7 * 6.0 / 12.0], rtol=1e-12)
    by_pd = simulate(rod, [-0.4], torque=pd_gravity(rod, Kp, Kd, [0.2]), t_span=2.0, dt=0.01)
    by_ct = simulate(rod, [-0.4], torque=computed_torque(rod, 36.0, 8.4, [0.2]), t_span=2.0,
                     dt=0.01)
    assert np.allclose(by_pd.q, by_ct.q, rtol=0, atol=1e-9)
    linear = error_dynamics(36.0, 8.4, [0.6], [0.0], by_pd.t)[:, 0]
    assert np.allclose(0.2 - by_pd.q[:, 0], linear, rtol=0, atol=1e-6)


def _tracking(**options):
    from dynlab.teaching.dashboards.tracking import TrackingDashboard
    move = quintic([-1.2, 0.4], [0.6, 1.4], 1.5, t0=0.25)
    return TrackingDashboard(planar_2r("fu"), move, [-1.2, 0.4], **options)


def _matched(omega):
    from dynlab.dynamics.control import matched_gains
    return matched_gains(pendulum(), [0.0], omega_n=omega)


MODEL = Model(planar_2r("fu"))


@refusals(
    (lambda: quintic([0.0], [1.0, 2.0], 1.0), ValueError, "q1 has 2 entries"),
    (lambda: quintic([0.0], [1.0], 0.0), ValueError, "T must be a positive"),
    (lambda: quintic([math.nan], [1.0], 1.0), ValueError, "q0 must be finite"),
    (lambda: as_reference([0.1], 2), ValueError, "the set point has 1 entries; the arm has 2"),
    (lambda: as_reference(lambda t: ([0.0], [0.0]), 1), ValueError, "returned 2 values"),
    (lambda: as_reference(lambda t: ([0.0], [0.0], [0.0, 1.0]), 1), ValueError,
     "qdd_d at t = 0 has 2 entries"),
    (lambda: as_reference(quintic([0, 0], [1, 1], 1.0), 1), ValueError,
     "the reference is for 2 joints; the arm has 1"),
    *[(lambda value=value: gain_matrix(value, 2, "Kp"), ValueError, words) for value, words in (
        ([1.0, 2.0, 3.0], "Kp has 3 entries; the arm has 2"),
        ([1.0, 0.0], "positive on every joint"), ([[1.0, 2.0], [0.0, 1.0]], "symmetric"),
        ([[1.0, 2.0], [2.0, 1.0]], "positive definite"), (np.ones((3, 3)), "got shape"),
        (math.inf, "finite"))],
    (lambda: gain_matrix("stiff", 2, "Kp"), TypeError, "Kp must be a number"),
    (lambda: computed_torque(planar_2r("fu", symbolic=True), 1.0, 1.0, [0.0, 0.0]), TypeError,
     "needs numbers"),
    (lambda: pd("arm", 1.0, 1.0, [0.0]), TypeError, "expected a dynlab Robot or Model"),
    (lambda: Model(planar_2r("fu"), D_parts={(2, 1): "tran"}), ValueError, "no element"),
    (lambda: Model(planar_2r("fu"), h_parts={1: "translational"}), ValueError,
     "must be one of"),
    (lambda: pd_gravity(planar_2r("fu"), 1.0, 1.0, [0.0, 0.0], method="hamilton"), ValueError,
     "unknown method"),
    (lambda: with_payload(planar_2r("fu"), -1.0), ValueError, "payload mass"),
    (lambda: steady_state(pid(pendulum(), 20.0, 5.0, 30.0, [-0.5]), pendulum()), ValueError,
     "PID"),
    # Model.torque with three entries used to raise "too many values to unpack"
    (lambda: MODEL.torque([0.0, 0.0, 0.0], [0.0, 0.0], [0.0, 0.0]), ValueError,
     r": q must have 2 entries \(one per joint\), got 3$"),
    (lambda: MODEL.torque(np.zeros(2), np.zeros(2), np.zeros(1)), ValueError,
     r": qdd must have 2 entries \(one per joint\), got 1$"),
    (lambda: MODEL.gravity([0.0]), ValueError,
     r": q must have 2 entries \(one per joint\), got 1$"),
    (lambda: MODEL.torque([0.0, 0.0], [0.0, True], [0.0, 0.0]), TypeError,
     r": qd\[1\] must be a real number .* got the boolean True$"),
    (lambda: _tracking(controller="LQR", render=False), ValueError,
     "unknown controller 'LQR'; choose one of PD, PD \\+ gravity"),
    (lambda: _tracking(render=False).set(omega=3.0), ValueError, "no control 'omega'"),
    (lambda: _tracking(dt="0.1"), TypeError, "^TrackingDashboard: dt must be"),
    (lambda: _tracking(t_span=math.nan), ValueError, "^TrackingDashboard: t_span must be"),
    (lambda: _tracking(render="no"), TypeError, "^TrackingDashboard: render must be"),
    (lambda: _matched(-1.0), ValueError, "omega_n"))
def test_bad_input_is_named(call, error, words):
    assert_refused(call, error, words)
