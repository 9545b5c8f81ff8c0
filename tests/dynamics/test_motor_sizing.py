"""Sizing a motor (dynlab.dynamics.motor_sizing; Lynch & Park, Sec. 8.9), each number against a
hand value (the pendulum's closed form, the quintic's peaks, a square wave's heat, the payload's
lever arm) or a second method, and the errors a bad input gets."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dynlab import inverse_dynamics
from dynlab.dynamics.inverse import probe
from dynlab.dynamics.motor_sizing import (
    CANDIDATE_MOTOR,
    MOTOR_CATALOGUE,
    PUMA560_GEAR_RATIOS,
    PUMA560_ROTOR_INERTIAS,
    SHOULDER_START,
    Motor,
    apparent_inertia,
    heating_torque,
    joint_torques,
    motor_side,
    reflected_inertia,
    rms,
    sample_move,
    shoulder_cycle,
    shoulder_move,
    size_motor,
)
from dynlab.dynamics.trajectory import QuinticPath, quintic
from dynlab.model.edits import with_payload
from dynlab.model.kinematics import frame_origins
from dynlab.model.robots import pendulum, planar_2r, puma560
from dynlab.teaching.dashboards.motor_sizing import MotorSizingDashboard
from tests.support.refusals import assert_refused, refusals

finite = dict(allow_nan=False, allow_infinity=False)
positive = st.floats(1e-3, 1e3, **finite)

# the pendulum of Schilling, Sec. 6-9 as dynlab builds it: a rod of m = 1 kg, a = 0.5 m about one
# end, D = m a^2 / 3, gravity torque m g a / 2 cos q with g = 9.8062
ROD_D = 1.0 * 0.5**2 / 3
ROD_GRAVITY = 1.0 * 9.8062 * 0.5 / 2


# -- reflected and apparent inertia ---------------------------------------------------------------
def test_the_shoulder_reflects_its_rotor_by_hand():
    # 107.815^2 = 11624.074..., times 200e-6 kg m^2
    assert reflected_inertia(200e-6, 107.815) == pytest.approx(2.3248149, abs=1e-7)


@given(positive, positive, st.floats(0.1, 10.0, **finite))
def test_the_reflected_inertia_scales_as_the_square_of_the_ratio(inertia, ratio, k):
    assert reflected_inertia(inertia, k * ratio) == pytest.approx(
        k**2 * reflected_inertia(inertia, ratio), rel=1e-12)
    assert reflected_inertia(2 * inertia, ratio) == pytest.approx(
        2 * reflected_inertia(inertia, ratio), rel=1e-12)


def test_the_apparent_inertia_of_the_pendulum_is_its_own_plus_the_rotors():
    for q in (0.0, 1.0, -2.5):                    # D of a rod about its end has no pose in it
        assert apparent_inertia(pendulum(), [q], 1, rotor_inertia=3e-4, gear_ratio=50.0) == \
            pytest.approx(ROD_D + 50.0**2 * 3e-4, rel=1e-12)


def test_the_apparent_inertia_of_the_puma_adds_the_rotor_to_the_diagonal():
    arm = puma560()
    q = [0.3, -0.4, 0.7, 0.1, -0.2, 0.5]
    D = probe(arm, q=q, qd=[0.0] * 6).D          # D by probing Newton-Euler with unit qdd
    for joint, (G, I) in enumerate(zip(PUMA560_GEAR_RATIOS, PUMA560_ROTOR_INERTIAS), start=1):
        assert apparent_inertia(arm, q, joint, rotor_inertia=I, gear_ratio=G) == pytest.approx(
            float(D[joint - 1, joint - 1]) + G**2 * I, rel=1e-12)


# -- the motor's side of the gear -----------------------------------------------------------------
def test_motor_side_by_hand():
    speed, torque = motor_side([2.0, -1.0], [5.0, -3.0], [40.0, -10.0], gear_ratio=80.0,
                               rotor_inertia=1e-4)
    assert speed.tolist() == [160.0, -80.0]
    assert torque.tolist() == pytest.approx([40 / 80 + 80 * 1e-4 * 5, -10 / 80 - 80 * 1e-4 * 3])


@given(st.floats(-5, 5, **finite), st.floats(-50, 50, **finite), st.floats(-100, 100, **finite),
       st.floats(1.0, 300.0, **finite))
def test_power_passes_the_gear_unchanged_apart_from_the_rotor(qd, qdd, tau, ratio):
    # tau_motor * omega_motor = tau_joint * qd + (rotor's power G^2 I qdd qd)
    speed, torque = motor_side(qd, qdd, tau, gear_ratio=ratio, rotor_inertia=2e-4)
    assert float(speed * torque) == pytest.approx(tau * qd + ratio**2 * 2e-4 * qdd * qd,
                                                  rel=1e-9, abs=1e-9)


def test_the_speed_torque_line():
    motor = Motor(stall_torque=2.0, no_load_speed=300.0, continuous_torque=0.5)
    assert motor.torque_limit([0.0, 150.0, -150.0, 300.0, 450.0]).tolist() == \
        [2.0, 1.0, 1.0, 0.0, 0.0]


# -- RMS and peak ---------------------------------------------------------------------------------
def test_rms_by_hand():
    # a step 1 then 3, each for 1 s, sampled finely: sqrt((1 + 9) / 2)
    assert rms([0.0, 1.0, 2.0], [2.0, 2.0, 2.0]) == 2.0
    t = np.linspace(0.0, 1.0, 100001)
    assert rms(t, t) == pytest.approx(1 / math.sqrt(3), rel=1e-9)     # integral t^2 = 1/3


# torques as a motor has them: zero, or not so small that their squares lose digits (subnormal)
torques = st.floats(-1e3, 1e3, **finite).filter(lambda v: v == 0 or abs(v) > 1e-100)


@given(st.lists(torques, min_size=2, max_size=40),
       st.floats(-10.0, 10.0, **finite).filter(lambda k: k == 0 or abs(k) > 1e-6))
def test_rms_never_exceeds_the_peak_and_scales_with_the_torque(values, k):
    t = np.arange(len(values), dtype=float)
    values = np.array(values)
    assert rms(t, values) <= np.abs(values).max() * (1 + 1e-12)
    assert rms(t, k * values) == pytest.approx(abs(k) * rms(t, values), rel=1e-9, abs=1e-9)


def test_the_pendulum_swing_against_its_closed_form():
    # quintic 0 -> 1 rad in 1 s: tau = D qdd + (m g a / 2) cos q; at the motor tau/G + G I qdd
    motor = Motor(stall_torque=0.2, no_load_speed=500.0, continuous_torque=0.05,
                  rotor_inertia=1e-4)
    sized = size_motor(pendulum(), quintic([0.0], [1.0], 1.0), 1, motor, 20.0, samples=2001)
    x = sized.t
    s = 10 * x**3 - 15 * x**4 + 6 * x**5
    qdd = 60 * x * (1 - x) * (1 - 2 * x)
    by_hand = (ROD_D * qdd + ROD_GRAVITY * np.cos(s)) / 20.0 + 20.0 * 1e-4 * qdd
    assert np.allclose(sized.motor_torque, by_hand, rtol=0, atol=1e-12)
    assert sized.peak_speed == pytest.approx(20.0 * 15 / 8, rel=1e-12)      # G * 15/8 |dq| / T
    assert sized.peak_torque == pytest.approx(np.abs(by_hand).max(), rel=1e-12)
    assert sized.rms_torque == pytest.approx(math.sqrt(np.trapezoid(by_hand**2, x)), rel=1e-12)
    # the motor's continuous rating (0.05 N m) is below the RMS torque: the verdict says so
    assert not sized.continuous_ok and "RMS torque" in sized.verdict()


def test_the_shoulder_move_of_the_chapter():
    arm = puma560()
    sized = size_motor(arm, shoulder_move(math.pi / 2, 1.5), 2, CANDIDATE_MOTOR,
                       PUMA560_GEAR_RATIOS[1])
    assert sized.fits and sized.verdict() == "the motor does the move"
    # at rest at the start the motor holds the arm's gravity torque alone, divided by G
    from dynlab import inverse_dynamics
    start = [0.0, -math.pi / 4, -math.pi / 2, 0.0, 0.0, 0.0]
    assert sized.motor_torque[0] == pytest.approx(
        inverse_dynamics(arm, start, [0.0] * 6, [0.0] * 6)[1] / PUMA560_GEAR_RATIOS[1],
        rel=1e-12)
    faster = size_motor(arm, shoulder_move(math.pi / 2, 1.0), 2, CANDIDATE_MOTOR,
                        PUMA560_GEAR_RATIOS[1])
    assert not faster.line_ok and faster.line_margin < 0


def test_given_torques_skip_the_inverse_dynamics_and_give_the_same_sizing():
    arm, move = planar_2r("fu"), quintic([0.0, 0.5], [1.0, -0.5], 1.2)
    _, q, qd, qdd = sample_move(move, 51)
    torques = joint_torques(arm, q, qd, qdd)
    motor = Motor(5.0, 400.0, 1.0, 1e-4)
    a = size_motor(arm, move, 1, motor, 30.0, samples=51)
    b = size_motor(arm, move, 1, motor, 30.0, samples=51, torques=torques)
    assert np.array_equal(a.motor_torque, b.motor_torque)


# -- the dashboard --------------------------------------------------------------------------------
def test_the_dashboard_recomputes_the_arm_only_when_the_move_changes(monkeypatch):
    import dynlab.teaching.dashboards.motor_sizing as sizing
    board = MotorSizingDashboard(render=False)
    calls = []
    original = sizing.joint_torques
    monkeypatch.setattr(sizing, "joint_torques", lambda *a: calls.append(1) or original(*a))
    board.set(gear_ratio=150.0)
    assert calls == [] and board.sizing.gear_ratio == 150.0
    board.set(duration=1.2)
    assert calls == [1]


def test_the_dashboard_draws_one_frame_per_slider_move(monkeypatch):
    board = MotorSizingDashboard()
    frames = []
    monkeypatch.setattr(board, "_png", lambda: frames.append(1) or b"")
    board.controls["gear_ratio"].value = 120.0           # as a reader drags it
    board.set(duration=2.0, amplitude=60.0)              # two controls, one frame
    assert frames == [1, 1]
    assert board.status.value.startswith("<span>ok:")


def test_the_dashboard_refuses_a_value_outside_a_slider_and_keeps_its_state():
    board = MotorSizingDashboard(render=False)
    before = board.sizing.rms_torque
    with pytest.raises(ValueError, match="gear_ratio must be from 20 to 300"):
        board.set(duration=2.0, gear_ratio=1000.0)
    with pytest.raises(TypeError, match="duration must be a number"):
        board.set(duration="fast")
    with pytest.raises(ValueError, match="payload must be from 0 to 5"):
        board.set(payload=6.0)
    with pytest.raises(ValueError, match="no control 'voltage'"):
        board.set(voltage=1.0)
    assert board.controls["duration"].value == 1.5 and board.sizing.rms_torque == before


def test_the_readout_holds_the_numbers_of_the_sizing_shown():
    import re
    board = MotorSizingDashboard(render=False).set(duration=1.0)
    values = dict(re.findall(r'data-part="(\w+)" data-value="([^"]+)"', board.readout.value))
    assert float(values["rms"]) == board.sizing.rms_torque
    assert float(values["margin"]) == board.sizing.line_margin < 0
    assert "<b>over</b>" in board.readout.value


def test_a_blitted_frame_is_the_frame_a_fresh_dashboard_draws():
    # the kept background must hold nothing of an earlier move: away (new limits too) and back
    board = MotorSizingDashboard()
    board.set(duration=0.5, amplitude=120.0, gear_ratio=300.0)    # beyond the no-load speed
    assert board.sizing.peak_speed > board.motor.no_load_speed
    board.set(duration=1.2, amplitude=90.0, gear_ratio=150.0)
    board.set(duration=1.5, gear_ratio=107.815)
    assert board.image.value == MotorSizingDashboard().image.value


@given(st.floats(1e-3, 1e3), st.floats(5e-324, 1e8, allow_subnormal=True))
def test_a_short_move_either_has_finite_operating_points_or_is_refused(amplitude, duration):
    """Every duration: the shoulder's move is sized with finite numbers, or refused by name."""
    try:
        move = shoulder_move(amplitude, duration)
    except ValueError as refused:
        assert "duration T" in str(refused)
        return
    t, q, qd, qdd = sample_move(move, samples=5)
    for values in (q, qd, qdd):
        assert np.all(np.isfinite(values))
    try:
        speed, torque = motor_side(qd[:, 1], qdd[:, 1], np.ones(5), gear_ratio=100.0,
                                   rotor_inertia=2e-4)
    except ValueError as refused:
        assert "beyond floating point" in str(refused)
        return
    assert np.all(np.isfinite(speed)) and np.all(np.isfinite(torque))


# -- the DC motor's winding (Lynch & Park, Sec. 8.9.1) ---------------------------------------------
def test_the_winding_gives_the_line_by_hand():
    # V = R i + k_t omega, tau = k_t i: stall (omega = 0) k_t V / R, no load (i = 0) V / k_t
    motor = Motor.from_winding(0.05, 0.5, 24.0, 0.3, 1e-5)
    assert motor.stall_torque == pytest.approx(0.05 * 24.0 / 0.5, rel=1e-15)      # 2.4 N m
    assert motor.no_load_speed == pytest.approx(24.0 / 0.05, rel=1e-15)          # 480 rad/s
    assert float(motor.copper_loss(0.3)) == pytest.approx(0.5 * (0.3 / 0.05)**2)  # 18 W
    # the candidate: 48 V over k_t = 0.096 N m/A is 500 rad/s; 0.096 * 48 / 3.84 = 1.2 N m
    assert CANDIDATE_MOTOR.torque_constant * 500.0 == pytest.approx(48.0)
    assert CANDIDATE_MOTOR.torque_constant * 48.0 / CANDIDATE_MOTOR.resistance == \
        pytest.approx(CANDIDATE_MOTOR.stall_torque)


@given(st.floats(0.01, 1.0, **finite), st.floats(0.1, 10.0, **finite),
       st.floats(1.0, 100.0, **finite), st.floats(0.0, 1.0, **finite))
def test_the_speed_torque_line_is_the_windings_at_every_speed(k_t, R, V, fraction):
    motor = Motor.from_winding(k_t, R, V, 0.1 * k_t * V / R, 1e-4)
    omega = fraction * V / k_t
    current = (V - k_t * omega) / R                        # V = R i + k_t omega
    assert float(motor.torque_limit(omega)) == pytest.approx(k_t * current, rel=1e-9, abs=1e-12)


@given(st.floats(-5.0, 5.0, **finite), st.floats(0.0, 10.0, **finite))
def test_the_windings_heat_goes_as_the_square_of_the_torque(torque, k):
    motor = CANDIDATE_MOTOR
    assert float(motor.copper_loss(k * torque)) == pytest.approx(
        k**2 * float(motor.copper_loss(torque)), rel=1e-12, abs=1e-300)


#: what maxon's data sheets print for the two motors of the catalogue, 48 V windings: name ->
#: (torque constant mN m/A, terminal resistance ohm, stall torque N m, no-load speed rpm, nominal
#: torque N m, rotor inertia g cm^2, thermal time constant of the winding s); the RE 40 is order
#: number 148867, the RE 65 353297 (what of them was re-checked: MOTOR_CATALOGUE's comment)
DATA_SHEETS = {"maxon RE 40, 48 V": (60.3, 1.13, 2.56, 7590.0, 0.187, 137.0, 41.5),
               "maxon RE 65, 48 V": (123.0, 0.365, 16.1, 3670.0, 0.800, 1340.0, 123.0)}


def test_the_catalogues_motors_are_their_data_sheets():
    # the winding and the ratings are the data sheet's own; the line from the winding
    # (k_t V / R, V / k_t) lies within 2 % of the data sheet's stall torque and no-load speed,
    # which the motor does not store
    assert [motor.name for motor in MOTOR_CATALOGUE] == list(DATA_SHEETS)
    for motor in MOTOR_CATALOGUE:
        k_t, R, stall, no_load_rpm, nominal, rotor_g_cm2, thermal = DATA_SHEETS[motor.name]
        assert (motor.torque_constant, motor.resistance) == pytest.approx((k_t * 1e-3, R),
                                                                         rel=1e-12)
        assert motor.stall_torque == pytest.approx(stall, rel=0.02)
        assert motor.no_load_speed * 30 / math.pi == pytest.approx(no_load_rpm, rel=0.02)
        assert (motor.continuous_torque, motor.rotor_inertia, motor.thermal_time_constant) == \
            pytest.approx((nominal, rotor_g_cm2 * 1e-7, thermal), rel=1e-12)


# -- the gear's efficiency ---------------------------------------------------------------------
@given(st.floats(-5, 5, **finite).filter(lambda v: abs(v) > 1e-3),
       st.floats(-100, 100, **finite).filter(lambda v: abs(v) > 1e-3),
       st.floats(0.3, 1.0, **finite), st.floats(1.0, 300.0, **finite))
def test_losses_raise_the_torque_driving_and_lower_it_back_driven(qd, tau, eta, ratio):
    # no acceleration, so the rotor takes nothing: the power at the motor against the joint's
    speed, torque = motor_side(qd, 0.0, tau, gear_ratio=ratio, rotor_inertia=2e-4,
                               efficiency=eta)
    _, ideal = motor_side(qd, 0.0, tau, gear_ratio=ratio, rotor_inertia=2e-4)
    motor_power, joint_power = float(speed * torque), tau * qd
    if joint_power > 0:              # the motor drives the arm: it gives the losses as well
        assert abs(float(torque)) >= abs(float(ideal)) * (1 - 1e-12)
        assert eta * motor_power == pytest.approx(joint_power, rel=1e-9)
    else:                            # the arm back-drives the motor: the losses come out of it
        assert abs(float(torque)) <= abs(float(ideal)) * (1 + 1e-12)
        assert motor_power == pytest.approx(eta * joint_power, rel=1e-9)


@given(st.floats(-5, 5, **finite), st.floats(-50, 50, **finite), st.floats(-100, 100, **finite))
def test_a_gear_without_losses_is_the_ideal_gear(qd, qdd, tau):
    assert motor_side(qd, qdd, tau, gear_ratio=80.0, rotor_inertia=1e-4, efficiency=1.0)[1] == \
        motor_side(qd, qdd, tau, gear_ratio=80.0, rotor_inertia=1e-4)[1]


# -- the heat of a cycle: a first-order thermal model -------------------------------------
def test_the_heating_torque_of_a_square_wave_by_hand():
    # tau^2 = A for P/2, 0 for P/2: the periodic solution of tau_th theta' = tau^2 - theta
    # peaks at the end of the on-time, theta = A (1 - e) / (1 - e^2) = A / (1 + e),
    # e = exp(-P / (2 tau_th))
    P, A, eps = 2.0, 0.81, 1e-9
    t, values = [0.0, P / 2, P / 2 + eps, P], np.sqrt([A, A, 0.0, 0.0])
    for tau_th in (0.05, 1.0, 20.0):
        by_hand = math.sqrt(A / (1 + math.exp(-P / (2 * tau_th))))
        assert heating_torque(t, values, tau_th) == pytest.approx(by_hand, rel=1e-7)


@given(st.floats(-10, 10, **finite), st.floats(1e-3, 1e4, **finite))
def test_a_constant_torque_heats_as_itself(torque, tau_th):
    assert heating_torque([0.0, 0.3, 1.0, 2.5], [torque] * 4, tau_th) == pytest.approx(
        abs(torque), rel=1e-9, abs=1e-12)


@given(st.lists(st.floats(-3, 3, **finite), min_size=2, max_size=30),
       st.floats(1e-2, 1e3, **finite))
def test_the_heating_torque_lies_between_the_rms_and_the_peak(values, tau_th):
    t = np.arange(len(values), dtype=float)
    heat = heating_torque(t, values, tau_th)
    assert rms(t, values) * (1 - 1e-9) - 1e-12 <= heat <= np.abs(values).max() * (1 + 1e-9)


def test_a_long_time_constant_gives_the_rms_and_a_short_one_the_peak():
    t = np.linspace(0.0, 5.0, 501)
    torque = 0.3 + 0.5 * np.sin(2 * np.pi * t / 5.0)**3
    assert heating_torque(t, torque, 1e6) == pytest.approx(rms(t, torque), rel=1e-5)
    assert heating_torque(t, torque, 1e-5) == pytest.approx(np.abs(torque).max(), rel=1e-6)


# -- paths and the shoulder's cycle -------------------------------------------------------
def test_a_path_is_its_legs_one_after_another():
    path = QuinticPath([0.0, 1.0], [([1.0, 0.0], 2.0), ([1.0, 0.0], 0.5), ([0.0, 1.0], 1.0)],
                       t0=1.0)
    assert path.T == 3.5 and path.t0 == 1.0
    first, back = quintic([0.0, 1.0], [1.0, 0.0], 2.0, 1.0), quintic([1.0, 0.0], [0.0, 1.0],
                                                                     1.0, 3.5)
    for t in (0.0, 1.7, 2.9, 3.0, 3.2, 3.5, 3.9, 4.5, 9.0):
        expected = first(t) if t <= 3.0 else back(t) if t >= 3.5 else ([1.0, 0.0], [0.0] * 2,
                                                                         [0.0] * 2)
        for got, want in zip(path(t), expected):
            assert np.allclose(got, want, rtol=0, atol=1e-15)


def test_lowering_the_arm_asks_the_raises_torques_played_backwards():
    # only joint 2 moves and D_22 does not depend on q_2, so tau_2 = D_22 qdd_2 + c_2(q): the
    # lowering move at t is the raise at T - t, with the same qdd; without losses, the same RMS
    arm, G = puma560(), PUMA560_GEAR_RATIOS[1]
    raise_ = size_motor(arm, shoulder_move(math.pi / 2, 1.5), 2, CANDIDATE_MOTOR, G)
    start = np.array(SHOULDER_START)
    goal = start + [0.0, math.pi / 2, 0.0, 0.0, 0.0, 0.0]
    lower = size_motor(arm, quintic(goal, start, 1.5), 2, CANDIDATE_MOTOR, G)
    assert np.allclose(lower.motor_torque, raise_.motor_torque[::-1], rtol=1e-9, atol=1e-12)
    # with losses the lowering asks less: the arm back-drives the gear
    lossy = [size_motor(arm, move, 2, CANDIDATE_MOTOR, G, efficiency=0.8).rms_torque
             for move in (shoulder_move(math.pi / 2, 1.5), quintic(goal, start, 1.5))]
    assert lossy[1] < raise_.rms_torque < lossy[0]


def test_the_cycles_rms_adds_the_legs_squares_weighted_by_time():
    arm, G = puma560(), PUMA560_GEAR_RATIOS[1]
    cycle = shoulder_cycle(math.pi / 2, 1.5, hold=1.0, rest=2.0)
    whole = size_motor(arm, cycle, 2, CANDIDATE_MOTOR, G, samples=6001).rms_torque
    legs = [size_motor(arm, leg, 2, CANDIDATE_MOTOR, G, samples=2001).rms_torque
            for leg in cycle.legs]
    by_legs = math.sqrt(sum(leg.T * r**2 for leg, r in zip(cycle.legs, legs)) / cycle.T)
    assert whole == pytest.approx(by_legs, rel=1e-6)
    # the holds are gravity alone, c_2(q) / G
    top = inverse_dynamics(arm, cycle.legs[1].q0, [0.0] * 6, [0.0] * 6)[1] / G
    assert legs[1] == pytest.approx(abs(top), rel=1e-12)


def test_the_payload_at_the_flange_weighs_on_the_shoulder_by_its_lever_arm():
    # a second method: statics.  2.5 kg at the origin of frame 6 adds m g times its horizontal
    # distance from the shoulder's axis to c_2 (the axis is horizontal, along y_1 at q1 = 0)
    arm = puma560()
    q = np.array(SHOULDER_START)
    origins = frame_origins(arm, q)
    lever = float(origins[6][0] - origins[1][0])            # x of the flange from the axis
    bare = inverse_dynamics(arm, q, [0.0] * 6, [0.0] * 6)[1]
    loaded = inverse_dynamics(with_payload(arm, 2.5), q, [0.0] * 6, [0.0] * 6)[1]
    assert abs(loaded - bare) == pytest.approx(2.5 * 9.8062 * abs(lever), rel=1e-9)


def test_the_waist_rms_by_hand():
    # joint 1 alone: tau_1 = D_11 qdd_1 (no gravity about a vertical axis, D_11 constant), so
    # tau_motor = (D_11/G + G I) qdd, and the quintic's qdd^2 integrates to 120/7 theta^2/T^3
    arm, G, I = puma560(), PUMA560_GEAR_RATIOS[0], PUMA560_ROTOR_INERTIAS[0]
    q = np.array(SHOULDER_START)
    D11 = float(probe(arm, q=q, qd=[0.0] * 6).D[0, 0])
    theta, T = math.pi / 2, 1.2
    move = quintic(q, q + [theta, 0, 0, 0, 0, 0], T)
    motor = Motor(5.0, 500.0, 1.0, I)
    sized = size_motor(arm, move, 1, motor, G, samples=4001)
    assert sized.rms_torque == pytest.approx(
        (D11 / G + G * I) * math.sqrt(120 / 7) * theta / T**2, rel=1e-6)


def test_the_dashboard_sizes_the_whole_cycle_with_its_payload_and_gear():
    board = MotorSizingDashboard(render=False).set(payload=2.5, efficiency=0.8)
    cycle = shoulder_cycle(math.pi / 2, 1.5, board.HOLD, board.REST)
    sized = size_motor(with_payload(puma560(), 2.5), cycle, 2, CANDIDATE_MOTOR,
                       PUMA560_GEAR_RATIOS[1], samples=401, efficiency=0.8)
    assert board.sizing.rms_torque == sized.rms_torque
    assert np.array_equal(board.sizing.motor_torque, sized.motor_torque)
    assert not board.sizing.fits and board.sizing.rms_torque > CANDIDATE_MOTOR.continuous_torque


def test_the_dashboards_payload_weighs_on_the_shoulder_by_statics():
    # a second method: at the cycle's rests (qd = qdd = 0) the part at the flange adds m |g|
    # times the flange's horizontal distance from the shoulder's axis to the joint's torque, at
    # the bottom (t = 0) and at the top (the hold after the raise)
    board = MotorSizingDashboard(render=False)
    bare = board.sizing.joint_torque.copy()
    loaded = board.set(payload=2.5).sizing.joint_torque
    t, raise_ = board.sizing.t, shoulder_move(math.pi / 2, 1.5)
    top = int(np.argmin(np.abs(t - (raise_.T + board.HOLD / 2))))
    weight = 2.5 * float(np.linalg.norm(puma560().gravity))
    for k, q in ((0, raise_.q0), (top, raise_.q1)):
        origins = frame_origins(puma560(), q)
        lever = abs(float(origins[6][0] - origins[1][0]))   # the shoulder's axis is along y_1
        assert loaded[k] - bare[k] == pytest.approx(weight * lever, rel=1e-9)


# -- errors ---------------------------------------------------------------------------------------
SWING = quintic([0.0], [1.0], 1.0)


def _motor_side(qd=1.0, qdd=1.0, tau=1.0, ratio=10.0, rotor=1e-4, **options):
    return lambda: motor_side(qd, qdd, tau, gear_ratio=ratio, rotor_inertia=rotor, **options)


@refusals(*[row for ratio in (0.0, -5.0, math.nan, math.inf) for row in (
    (lambda ratio=ratio: reflected_inertia(200e-6, ratio), ValueError,
     "gear_ratio must be a positive finite number"),
    (_motor_side(ratio=ratio), ValueError, "gear_ratio"),
    (lambda ratio=ratio: size_motor(pendulum(), SWING, 1, CANDIDATE_MOTOR, ratio), ValueError,
     "gear_ratio"))],
    *[(lambda ratio=ratio: reflected_inertia(200e-6, ratio), TypeError,
       "gear_ratio must be a number") for ratio in ("100", None, True, [100.0])],
    *[(_motor_side(efficiency=eta), ValueError, "efficiency")
      for eta in (0.0, -0.5, 1.5, math.nan)],
    (lambda: size_motor(puma560(), quintic([0.0, 0.0], [1.0, 1.0], 1.0), 2, CANDIDATE_MOTOR,
                        100.0), ValueError, "the move is for 2 joints; PUMA 560 has 6"),
    (lambda: joint_torques(pendulum(), np.zeros((3, 2)), np.zeros((3, 1)), np.zeros((3, 1))),
     ValueError, r"q must have shape \(3, 1\)"),
    (lambda: joint_torques(pendulum(), np.zeros((3, 1)), np.zeros((3, 1)), np.zeros(3)),
     ValueError, "qdd must have shape"),
    (lambda: size_motor(pendulum(), SWING, 1, CANDIDATE_MOTOR, 10.0, torques=np.zeros((5, 1))),
     ValueError, "torques must have shape"),
    (_motor_side([1.0, 2.0], [1.0], [1.0, 2.0]), ValueError, "one shape"),
    (lambda: rms([0.0, 1.0, 2.0], [1.0, 2.0]), ValueError, "one length"),
    (lambda: rms([0.0, 0.0, 1.0], [1.0, 2.0, 3.0]), ValueError, "increasing"),
    (lambda: sample_move(lambda t: ([0.0], [0.0], [0.0])), TypeError, "point-to-point move"),
    (lambda: apparent_inertia(puma560(), [0.0] * 6, 7, rotor_inertia=1e-4, gear_ratio=10.0),
     ValueError, "joint"),
    (lambda: apparent_inertia(pendulum(symbolic=True), [0.0], 1, rotor_inertia=1e-4,
                              gear_ratio=10.0), TypeError, "symbolic"),
    (lambda: size_motor(pendulum(), SWING, 1, "big motor", 10.0), TypeError,
     "motor must be a Motor"),
    (lambda: Motor(stall_torque=-1.0, no_load_speed=100.0, continuous_torque=0.5), ValueError,
     "stall_torque must be a positive finite number"),
    (lambda: Motor(stall_torque=1.0, no_load_speed=100.0, continuous_torque=1.5), ValueError,
     "must not exceed the stall_torque"),
    (lambda: shoulder_move(1.0, 0.0), ValueError, "duration"),
    (lambda: Motor(1.2, 500.0, 0.45, torque_constant=0.1, resistance=3.84), ValueError,
     "is not k_t V / R"),
    (lambda: Motor(1.2, 500.0, 0.45, torque_constant=0.096), ValueError,
     "both torque_constant and resistance"),
    (lambda: Motor(1.2, 500.0, 0.45).copper_loss(0.1), ValueError, "its heat is not known"),
    (lambda: Motor.from_winding(0.1, 0.0, 48.0, 0.5, 1e-4), ValueError,
     "resistance must be a positive"),
    (lambda: QuinticPath([0.0], [([1.0], 1.0), [1.0]]), ValueError,
     "leg 2 of the path must be a pair"),
    (lambda: QuinticPath([0.0], [([1.0, 2.0], 1.0)]), ValueError,
     "leg 1 of the path: .*has 2 entries"),
    (lambda: QuinticPath([0.0], []), ValueError, "at least one leg"),
    (lambda: shoulder_cycle(1.0, 1.0, hold=-1.0), ValueError, "hold must be a non-negative"),
    # issue 39: an OverflowError, a ZeroDivisionError and an RMS of nan, now named
    (lambda: reflected_inertia(2e-4, 1e300), ValueError,
     r"G\*\*2 I_rotor is beyond floating point \(inf\) for gear_ratio = 1e\+300 and "
     r"rotor_inertia = 0.0002"),
    (lambda: apparent_inertia(pendulum(), [0.0], 1, rotor_inertia=1e-4, gear_ratio=1e300),
     ValueError, r"gear_ratio = 1e\+300"),
    (lambda: shoulder_move(1, 1e-300), ValueError, r"T = 1e-300 s is beyond floating point"),
    (lambda: quintic([0.0], [0.0], 1e-300), ValueError, r"T = 1e-300 s"),
    (lambda: size_motor(pendulum(), SWING, 1, Motor(0.2, 500.0, 0.05, 1e-4), 20.0, samples=5,
                        torques=np.full((5, 1), np.nan)), ValueError, "torques must be finite"),
    (_motor_side([1.0], [1.0], [math.nan]), ValueError, "joint_torque must be finite"),
    (_motor_side([1.0], [1e300], [1.0], 1e200, 1.0), ValueError,
     r"motor torque .* gear_ratio = 1e\+200"),
    (lambda: rms([0.0, 1.0], [math.nan, 1.0]), ValueError, "values must be finite"),
    (lambda: rms([0.0, 1.0], [1e200, 1e200]), ValueError,
     r"RMS of values is beyond floating point"))
def test_bad_input_is_named(call, error, words):
    assert_refused(call, error, words)
