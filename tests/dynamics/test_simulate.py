"""Forward dynamics and simulation (issue 8): every formulation gives the same accelerations,
inverse dynamics undoes them, and the simulated arms pass the thesis appendix, B.8's checks
(free swing period, energy, rest at the static equilibrium), with static friction that sticks."""

import math
import re

import numpy as np
import pytest
import sympy
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy.special import ellipk

from dynlab import G, Link, Robot, inverse_dynamics, joint_symbols
from dynlab.dynamics.forward import forward_dynamics, inertia_and_bias, ldl_solve
from dynlab.dynamics.simulated_trajectory import Trajectory
from dynlab.dynamics.simulation import simulate
from dynlab.dynamics.statics import static_equilibrium, static_stiffness
from dynlab.model.checks import NotFiniteError
from dynlab.model.kinematics import centres_of_mass, tool_pose
from dynlab.model.robots import pendulum, planar_2r, puma560
from dynlab.model.symbolic import is_zero
from tests.support.arms import ALL_FORMULATIONS as ALL
from tests.support.refusals import assert_refused, refusals
from tests.support.strategies import chain_and_state

HANGING = -math.pi / 2          # the pendulum's (and planar arms') lowest position


def puma_with_friction_and_tool_wrench():
    robot = puma560().replace(tip_force=(3.0, -2.0, 5.0), tip_moment=(0.4, -0.1, 0.7))
    for k in range(1, 7):
        robot = robot.replace_link(k, viscous=0.1 * k, coulomb=0.05 * k, static=0.08 * k)
    return robot


def relative_error(a, b):
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b)))) / max(
        1.0, float(np.max(np.abs(b))))


# -- forward dynamics ------------------------------------------------------------------------------
def test_every_formulation_gives_the_same_accelerations_and_inverse_dynamics_undoes_them():
    robot = puma_with_friction_and_tool_wrench()
    rng = np.random.default_rng(89)
    for trial in range(20):
        q, qd, tau = (rng.uniform(-np.pi, np.pi, 6), rng.uniform(-2, 2, 6),
                      rng.uniform(-20, 20, 6))
        reference = forward_dynamics(robot, q, qd, tau)
        for method, variant in ALL:
            for compiled in ((True, False) if trial < 3 else (True,)):
                qdd = forward_dynamics(robot, q, qd, tau, method=method, variant=variant,
                                       compiled=compiled)
                assert relative_error(qdd, reference) < 1e-9, (method, variant, compiled)
            if trial < 10:
                back = inverse_dynamics(robot, q, qd, qdd, method=method, variant=variant)
                assert relative_error(back, tau) < 1e-9, (method, variant)


def test_switched_off_terms_match_inverse_dynamics_with_the_same_switches():
    robot = puma_with_friction_and_tool_wrench()
    q, qd, tau = np.full(6, 0.4), np.linspace(-1, 1, 6), np.linspace(2, -3, 6)
    for switches in (dict(gravity=False), dict(friction=False), dict(tip_wrench=False)):
        qdd = forward_dynamics(robot, q, qd, tau, **switches)
        assert relative_error(inverse_dynamics(robot, q, qd, qdd, **switches), tau) < 1e-9


def test_mass_matrix_and_bias_are_those_of_the_equations_of_motion():
    robot = puma_with_friction_and_tool_wrench()
    q, qd = np.linspace(-1, 1, 6), np.linspace(0.5, -0.5, 6)
    D, bias = inertia_and_bias(robot, q, qd)
    assert np.allclose(D, D.T, rtol=0, atol=1e-14) and np.all(np.linalg.eigvalsh(D) > 0)
    assert relative_error(bias, inverse_dynamics(robot, q, qd, np.zeros(6))) < 1e-12
    for j in range(6):
        unit = np.eye(6)[j]
        column = inverse_dynamics(robot, q, np.zeros(6), unit, gravity=False, friction=False,
                                  tip_wrench=False)
        assert relative_error(D[:, j], column) < 1e-12


def test_ldl_solve_solves_and_reports_positive_pivots():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(5, 5))
    D = A @ A.T + 5 * np.eye(5)
    b = rng.normal(size=5)
    x, pivots = ldl_solve(D.tolist(), b.tolist())
    assert np.allclose(D @ x, b, rtol=0, atol=1e-12)
    assert np.isclose(np.prod(pivots), np.linalg.det(D)) and min(pivots) > 0


@settings(max_examples=40, deadline=None)
@given(chain_and_state())
def test_random_chains_round_trip_through_forward_dynamics(case):
    robot, q, qd, tau = case
    tau = 10 * np.array(tau)
    qdd = forward_dynamics(robot, q, qd, tau)
    back = inverse_dynamics(robot, q, qd, qdd)
    scale = max(1.0, float(np.max(np.abs(inverse_dynamics(robot, q, qd, np.zeros(robot.n))))))
    assert float(np.max(np.abs(back - tau))) < 1e-9 * max(scale, float(np.max(np.abs(tau))))
    stepwise = forward_dynamics(robot, q, qd, tau, compiled=False)
    assert relative_error(qdd, stepwise) < 1e-7


def test_pendulum_closed_form_and_symbolic_round_trip():
    # Schilling, Sec. 6-9 solved for the acceleration: qdd = (tau - g m a C1/2 - b qd) 3 / (m a^2)
    b = sympy.Symbol("b", positive=True)
    robot = pendulum(symbolic=True, viscous=b)
    m, a, g = (sympy.Symbol(s, positive=True) for s in ("m1", "a1", "g"))
    (q,), (qd,), _ = joint_symbols(1)
    tau = sympy.Symbol("tau1")
    for method, variant in ALL:
        qdd = forward_dynamics(robot, [q], [qd], [tau], method=method, variant=variant)[0]
        expected = (tau - g * m * a * sympy.cos(q) / 2 - b * qd) * 3 / (m * a**2)
        assert is_zero(sympy.together(qdd - expected)), (method, variant)
        assert is_zero(sympy.together(inverse_dynamics(robot, [q], [qd], [qdd])[0] - tau))


def test_two_link_closed_form_equals_numbers_and_lusolve():
    robot = planar_2r("fu", symbolic=True)
    q, qd, _ = joint_symbols(2)
    tau = sympy.symbols("tau1 tau2")
    compact = forward_dynamics(robot, q, qd, tau)
    raw = forward_dynamics(robot, q, qd, tau, method="dalembert", simplify=False)
    numbers = planar_2r("fu")
    rng = np.random.default_rng(2)
    values = {sympy.Symbol("m1", positive=True): 2.0, sympy.Symbol("m2", positive=True): 1.0,
              sympy.Symbol("l", positive=True): 1.0, sympy.Symbol("g", positive=True): G}
    for _ in range(3):
        state = rng.uniform(-2, 2, 6)
        point = {**values, **dict(zip(q + qd + tau, state))}
        expected = forward_dynamics(numbers, state[:2], state[2:4], state[4:])
        for result in (compact, raw):
            got = np.array(result.subs(point), dtype=float).ravel()
            assert relative_error(got, expected) < 1e-12
    # the denominator is det D = l^4 m2 (4 m1 + 3 m2 + 9 m2 S2^2) / 36, up to the factor
    assert sympy.sin(q[1]) ** 2 in sympy.denom(sympy.together(compact[0])).atoms(sympy.Pow)


def test_numeric_path_builds_no_sympy_objects(sympy_objects_created):
    robot = puma_with_friction_and_tool_wrench()
    arm = planar_2r("fu", viscous=0.3, coulomb=0.1, static=0.2)
    sympy_objects_created.clear()
    q, qd, tau = np.full(6, 0.3), [0.1] * 6, [1.0] * 6
    for method, variant in ALL:
        forward_dynamics(robot, q, qd, tau, method=method, variant=variant)
        forward_dynamics(robot, q, qd, tau, method=method, variant=variant, compiled=False)
    inertia_and_bias(robot, q, qd)
    for integrator in ("rk45", "euler"):
        simulate(arm, [-1.0, 0.5], [0.0, 0.0], torque=lambda t, q, qd: -qd, t_span=0.5,
                 integrator=integrator, dt=0.01)
    static_equilibrium(arm, [1.0, 0.2], q0=[-1.0, 0.0])
    assert sympy_objects_created == []


# -- the thesis appendix, B.8: free swing, energy, static equilibrium ------------------------------
def test_pendulum_swings_with_the_small_angle_period():
    """A uniform rod about its end: T = 2 pi sqrt(2 a / (3 g)) for small swings; exactly,
    T = T0 (2/pi) K(sin^2(amplitude/2)) (complete elliptic integral of the first kind)."""
    robot = pendulum()                            # a1 = 0.5 m
    small_angle = 2 * math.pi * math.sqrt(2 * 0.5 / (3 * G))
    for degrees in (1, 30):
        amplitude = math.radians(degrees)
        swing = simulate(robot, [HANGING + amplitude], [0.0], t_span=3.0, dt=1e-3)
        period = swing.period(level=HANGING)
        if degrees == 1:
            assert abs(period / small_angle - 1) < 1e-3            # issue 8's requirement
        exact = small_angle * 2 / math.pi * ellipk(math.sin(amplitude / 2) ** 2)
        assert abs(period / exact - 1) < 1e-6
    assert abs(period / small_angle - 1) > 0.01                  # 30 degrees: 1.7 % slower


def test_frictionless_two_link_arm_conserves_energy_with_the_adaptive_integrator():
    motion = simulate(planar_2r("fu"), [-0.5, 1.0], [1.0, -1.0], t_span=10.0,
                      integrator="dop853", rtol=1e-12, atol=1e-12)
    assert motion.t[-1] == 10.0 and np.ptp(motion.kinetic) > 5.0        # it really moves
    assert motion.energy_drift() < 1e-8


def test_euler_gains_energy_in_proportion_to_its_step():
    # Lynch & Park, Sec. 8.5: explicit Euler spirals outward; the drift is first order in h
    drift = {}
    for h in (1e-3, 5e-4):
        motion = simulate(planar_2r("fu"), [-0.5, 1.0], [1.0, -1.0], t_span=5.0,
                          integrator="euler", dt=h)
        assert motion.total[-1] > motion.total[0]
        drift[h] = motion.energy_drift()
    assert drift[1e-3] > 1e-2                                 # a million times the adaptive
    assert 0.4 < drift[5e-4] / drift[1e-3] < 0.6              # halving h halves it


def test_damped_arm_comes_to_rest_at_the_static_equilibrium():
    arm = planar_2r("fu", viscous=[6.0, 2.0])
    tau = [3.0, 1.0]
    motion = simulate(arm, [0.3, 0.5], [0.0, 0.0], torque=tau, t_span=15.0)
    rest = static_equilibrium(arm, tau, q0=[0.3, 0.5])
    assert np.max(np.abs(motion.q[-1] - rest)) < 1e-3
    assert np.max(np.abs(motion.qd[-1])) < 1e-3
    # the equilibrium balances gravity: c(q) = tau, and it is stable (K positive definite)
    assert relative_error(inverse_dynamics(arm, rest, [0, 0], [0, 0]), tau) < 1e-10
    assert np.all(np.linalg.eigvalsh(static_stiffness(arm, rest)) > 0)
    # friction only dissipates: the energy never rises, apart from the work of the torque
    work = np.concatenate([[0.0], np.cumsum(np.diff(motion.q, axis=0) @ np.array(tau))])
    assert np.all(np.diff(motion.total - work) < 1e-6)


def test_static_equilibrium_of_the_pendulum():
    robot = pendulum()                          # m g a / 2 = 2.45155 N m
    assert abs(static_equilibrium(robot, q0=[0.3])[0] - HANGING) < 1e-12
    q = static_equilibrium(robot, [1.0], q0=[-1.0])[0]
    assert abs(q + math.acos(1.0 / (G * 0.5 / 2))) < 1e-12
    upright = static_equilibrium(robot, q0=[1.4], stable=False)[0]
    assert abs(upright - math.pi / 2) < 1e-12 and static_stiffness(robot, [upright])[0, 0] < 0


def test_small_oscillations_follow_the_stiffness_and_inertia():
    # K x = omega^2 D x: a small swing along the first normal mode has period 2 pi / omega_1
    import scipy.linalg
    arm = planar_2r("fu")
    rest = np.array([HANGING, 0.0])
    D, _ = inertia_and_bias(arm, rest, [0.0, 0.0])
    omega2, modes = scipy.linalg.eigh(static_stiffness(arm, rest), D)
    start = rest + 1e-3 * modes[:, 0] / np.max(np.abs(modes[:, 0]))
    swing = simulate(arm, start, [0.0, 0.0], t_span=5.0, dt=1e-3)
    assert abs(swing.period(1, level=HANGING) * math.sqrt(omega2[0]) / (2 * math.pi) - 1) < 1e-4


# -- static friction -------------------------------------------------------------------------------
def test_static_friction_holds_the_pendulum_without_stalling_the_integrator():
    robot = pendulum(static=0.08, coulomb=0.05, viscous=0.01, epsilon=0.05)
    start = HANGING + 0.02                     # gravity torque 0.049 < b_s = 0.08
    held = simulate(robot, [start], [0.0], t_span=2.0)
    assert np.all(held.q == start) and np.all(held.qd == 0) and held.stuck.all()
    assert held.events == [(0.0, 1, "stick")]
    assert np.allclose(held.friction[:, 0], -inverse_dynamics(robot, [start], [0], [0])[0])
    assert held.nfev < 200


@pytest.mark.parametrize("integrator", ["rk45", "euler"])
def test_a_released_pendulum_sticks_where_static_friction_can_hold_it(integrator):
    robot = pendulum(static=0.08, coulomb=0.05, viscous=0.01, epsilon=0.05)
    motion = simulate(robot, [HANGING + 0.5], [0.0], t_span=10.0, integrator=integrator)
    kinds = [kind for _, _, kind in motion.events]
    assert kinds[0] == "slip-" and kinds[-1] == "stick" and "slip+" in kinds
    assert motion.stuck[-1, 0] and motion.qd[-1, 0] == 0.0
    gravity = inverse_dynamics(robot, motion.q[-1], [0.0], [0.0])[0]
    assert abs(gravity) <= 0.08 and motion.friction[-1, 0] == pytest.approx(-gravity)
    if integrator == "rk45":
        assert np.all(np.diff(motion.total) < 1e-9)    # friction never adds energy
        assert motion.nfev < 20000                     # no stall at the sign changes
    assert motion.total[-1] < motion.total[0] - 0.2


def test_a_stuck_joint_breaks_away_when_the_torque_exceeds_static_friction():
    robot = pendulum(static=0.5, coulomb=0.3, epsilon=0.05)
    motion = simulate(robot, [HANGING], [0.0], torque=lambda t: [t], t_span=1.0)
    (t_stick, _, first), (t_slip, joint, second) = motion.events[:2]
    assert (t_stick, first, joint, second) == (0.0, "stick", 1, "slip+")
    assert abs(t_slip - 0.5) < 1e-9                      # tau(t) = t reaches b_s at t = 0.5
    assert np.all(motion.q[motion.t <= 0.5] == HANGING) and motion.q[-1, 0] > HANGING


def test_two_link_arm_with_static_friction_comes_to_rest_within_the_friction_band():
    static = [0.5, 0.4]
    arm = planar_2r("fu", viscous=[3.0, 1.0], coulomb=[0.3, 0.2], static=static)
    motion = simulate(arm, [-0.5, 1.0], [0.0, 0.0], t_span=8.0)
    assert motion.stuck[-1].all() and np.all(motion.qd[-1] == 0)
    gravity = inverse_dynamics(arm, motion.q[-1], [0, 0], [0, 0], friction=False)
    assert np.all(np.abs(gravity) <= static)
    assert np.allclose(motion.friction[-1], -gravity, rtol=0, atol=1e-9)


# -- the trajectory record -----------------------------------------------------------------------
def test_trajectory_records_torques_accelerations_energies_and_tool():
    arm = planar_2r("schilling", viscous=0.2)

    def torque(t, q, qd):
        return [math.sin(t) - q[0], 0.5 * math.cos(2 * t)]

    motion = simulate(arm, [-1.0, 0.4], [0.2, 0.0], torque=torque, t_span=1.0, dt=0.1)
    assert isinstance(motion, Trajectory) and len(motion) == 11
    assert np.allclose(motion.t, np.linspace(0, 1, 11), rtol=0, atol=1e-12)
    for i in range(len(motion)):
        q, qd = motion.q[i], motion.qd[i]
        assert np.allclose(motion.tau[i], torque(motion.t[i], q, qd), rtol=0, atol=1e-15)
        assert relative_error(motion.qdd[i], forward_dynamics(arm, q, qd, motion.tau[i])) < 1e-12
        assert np.allclose(motion.tool[i], tool_pose(arm, q)[:3, 3], rtol=0, atol=1e-14)
        D, _ = inertia_and_bias(arm, q, qd)          # K = qd D qd / 2: Lynch & Park, Sec. 8.1
        assert motion.kinetic[i] == pytest.approx(qd @ D @ qd / 2, rel=1e-12)
        centres = centres_of_mass(arm, q)
        potential = -sum(link.mass * np.dot(arm.gravity, c) for link, c in
                         zip(arm.links, centres))                          # Schilling (6-2-17)
        assert motion.potential[i] == pytest.approx(potential, rel=1e-12, abs=1e-12)
    assert np.allclose(motion.friction, 0.2 * motion.qd, rtol=0, atol=1e-15)
    assert np.allclose(motion.total, motion.kinetic + motion.potential)


def test_puma_falls_with_every_formulation_alike():
    robot = puma560()
    start = [0.0, 0.3, -0.5, 0.2, 0.4, 0.1]
    final = {}
    for method in ("newton_euler", "dalembert"):
        motion = simulate(robot, start, None, t_span=0.5, method=method)
        assert motion.energy_drift() < 1e-8
        final[method] = motion.q[-1]
    assert relative_error(final["dalembert"], final["newton_euler"]) < 1e-6
    assert final["newton_euler"][1] != start[1]                 # the shoulder falls


def test_animation_of_the_motion():
    motion = simulate(planar_2r("fu"), [-0.5, 1.0], [0.0, 0.0], t_span=1.0, dt=0.05)
    animation = motion.animate(frames=5)
    assert list(motion.frames(5)) == [0, 5, 10, 15, 20]
    html = animation.to_jshtml()
    assert html.count("data:image/png;base64") == 5


# -- bad input -------------------------------------------------------------------------------------
# -- bounded and clear (issue 13) ------------------------------------------------------------------
def counting_torque(n, most=10, value=0.0):
    """A constant torque that fails the test past ``most`` calls."""
    calls = []

    def torque(t):
        calls.append(t)
        assert len(calls) <= most, f"more than {most} evaluations"
        return [value] * n
    return torque, calls


FLAGS = [(simulate, ([0, 0],), name) for name in
         ("stiction", "gravity", "friction", "tip_wrench", "compiled", "progress")] + [
    (static_equilibrium, (), "stable"),
    (static_stiffness, ([0, 0],), "gravity"), (static_stiffness, ([0, 0],), "tip_wrench")]


@pytest.mark.parametrize("function, args, flag", FLAGS,
                         ids=[f"{f.__name__}-{flag}" for f, _, flag in FLAGS])
@pytest.mark.parametrize("value", ["no", 1, None])
def test_a_flag_is_true_or_false_not_a_string_or_number(function, args, flag, value):
    arm = planar_2r("fu")
    where = function.__name__
    with pytest.raises(TypeError, match=f"^{where}: {flag} must be True or False, got "
                                        f"{type(value).__name__} {value!r}$"):
        function(arm, *args, **{flag: value})


def test_numpy_truth_values_are_flags():
    arm = planar_2r("fu")
    off = simulate(arm, [0.0, 0.0], t_span=0.1, dt=0.05, gravity=np.False_)
    assert np.all(off.q == 0.0) and np.all(off.potential == 0.0)     # nothing moves it
    assert static_stiffness(arm, [0.3, 0.2], gravity=np.False_).tolist() == [[0, 0], [0, 0]]


NUMBERS = [dict(dt=True), dict(dt=True, integrator="euler"), dict(t_span=True),
           dict(t_span=(0.0, True)), dict(t_span="1.0"), dict(rtol=True), dict(atol=False),
           dict(atol=[1e-10, 1e-10, True, 1e-10]), dict(max_events=True),
           dict(max_steps=True), dict(max_step=True), dict(first_step=True),
           dict(t_eval=[False, True])]


@pytest.mark.parametrize("arguments", NUMBERS, ids=[str(a) for a in NUMBERS])
def test_a_number_is_not_a_truth_value(arguments):
    name = next(iter(arguments))
    named = "atol\\[2\\]" if name == "atol" and not isinstance(arguments[name], bool) else name
    if name in ("max_events", "max_steps"):        # counts: dynlab.model.checks.count's words
        named = f"simulate: {name}"
    with pytest.raises(TypeError, match=f"^{named} must be a"):
        simulate(planar_2r("fu"), [0, 0], **arguments)


def test_euler_refuses_a_request_beyond_max_steps_before_integrating():
    arm = planar_2r("fu")
    torque, calls = counting_torque(2)
    for request, needed in ((dict(t_span=1e9), "1e\\+12"), (dict(dt=1e-300), "1e\\+300")):
        with pytest.raises(ValueError, match=f"Euler with dt = .* needs {needed} steps, more "
                                             f"than max_steps = 1000000; use a larger dt, a "
                                             f"shorter t_span, or an adaptive integrator"):
            simulate(arm, [0, 0], torque=torque, integrator="euler", **request)
    # a request just over a given bound says how many steps it needs, and the bound lifts
    with pytest.raises(ValueError, match="needs 2000 steps, more than max_steps = 1999; .* "
                                         "max_steps=2000 \\(if you mean to wait for it\\)"):
        simulate(arm, [0, 0], torque=torque, integrator="euler", t_span=2.0, max_steps=1999)
    assert calls == []
    motion = simulate(arm, [0, 0], integrator="euler", t_span=2.0, max_steps=2000)
    assert len(motion) == 2001 and motion.t[-1] == 2.0


@settings(max_examples=60, deadline=None)
@given(st.floats(1e-300, 10.0), st.floats(1e-3, 1e12))
@example(1.0, 22.0)                  # hanging under gravity, this one diverged (one run in many)
def test_euler_takes_the_steps_that_fit_or_refuses_at_once(dt, seconds):
    # floor(span / dt) steps if within max_steps = 40, else refused before any evaluation; no
    # gravity, so that no step moves the arm (cos(-pi/2) = 6e-17 grows under long steps)
    robot = pendulum().replace(gravity=(0.0, 0.0, 0.0))
    torque, calls = counting_torque(1, most=10 ** 6)
    needed = seconds / dt * (1 + 1e-12)
    try:
        motion = simulate(robot, [HANGING], torque=torque, t_span=seconds, dt=dt,
                          integrator="euler", max_steps=40)
    except ValueError as error:
        assert calls == []
        assert ("longer than the time span" in str(error)) == (needed < 1)
        assert ("more than max_steps = 40" in str(error)) == (needed > 40)
    else:
        steps = math.floor(needed)
        assert 1 <= steps <= 40 and len(motion) == steps + 1 == motion.steps + 1
        assert motion.t[-1] == pytest.approx(steps * dt, rel=1e-12)
        assert motion.t[-1] <= seconds * (1 + 1e-11)


def test_adaptive_integration_stops_at_max_steps_naming_time_and_step():
    arm = planar_2r("fu")
    torque, calls = counting_torque(2, most=50_000, value=1e12)
    with pytest.raises(RuntimeError) as stop:
        simulate(arm, [0, 0], torque=torque, max_steps=2000)
    message = str(stop.value)
    found = re.search(r"RK45 took max_steps = 2000 steps and reached only t = (\S+) s of "
                      r"t = 0\.\.1 s; its last step was (\S+) s\.", message)
    assert found, message
    reached, step = float(found[1]), float(found[2])
    assert 0 < reached < 1e-3 and 0 < step < reached / 1000
    assert "check the torques" in message and "raise max_steps" in message


def test_the_default_step_limit_of_adaptive_integrators(monkeypatch):
    from dynlab.dynamics import simulation
    monkeypatch.setattr(simulation, "MAX_ADAPTIVE_STEPS", 300)
    with pytest.raises(RuntimeError, match="DOP853 took max_steps = 300 steps"):
        simulate(planar_2r("fu"), [0, 0], torque=[1e12, 1e12], integrator="dop853")


def test_adaptive_step_limit_counts_every_segment_between_stick_slip_switches():
    # the integrator restarts at each switch: the limit holds for the run
    robot = pendulum(static=0.08, coulomb=0.05, viscous=0.01, epsilon=0.05)
    full = simulate(robot, [HANGING + 0.5], [0.0], t_span=10.0)
    assert len([t for t, _, _ in full.events if t > 0]) >= 3 and full.steps > 3
    again = simulate(robot, [HANGING + 0.5], [0.0], t_span=10.0, max_steps=full.steps)
    assert again.steps == full.steps and np.array_equal(again.q, full.q)
    with pytest.raises(RuntimeError, match=f"RK45 took max_steps = {full.steps - 1} steps"):
        simulate(robot, [HANGING + 0.5], [0.0], t_span=10.0, max_steps=full.steps - 1)


def test_stored_samples_are_bounded_by_max_steps():
    arm = planar_2r("fu")
    motion = simulate(arm, [0, 0], t_span=0.5, t_eval=np.linspace(0, 0.5, 101), max_steps=100)
    assert len(motion) == 101 and motion.steps < 100


def test_a_diverging_euler_run_names_the_integrator_time_and_step():
    # b = 2000 N m s, h = 10 ms: each step multiplies qd by about -1 - h b / D; it stops at the
    # second step, where a joint would turn more than half a turn
    arm = planar_2r("fu", viscous=[2000.0, 2000.0])
    with pytest.raises(RuntimeError) as failure:
        simulate(arm, [-0.5, 1.0], [1.0, -1.0], t_span=1.0, integrator="euler", dt=0.01)
    message = str(failure.value)
    q, qd, h = np.array([-0.5, 1.0]), np.array([1.0, -1.0]), 0.01    # two Euler steps by hand
    for _ in range(2):
        q, qd = q + h * qd, qd + h * forward_dynamics(arm, q, qd, [0.0, 0.0])
    assert re.search(r"the Euler integration diverged: at t = 0\.02 s \(step 2 of 100, dt = "
                     rf"0\.01 s\) joint 1 would move {h * abs(qd[0]):.3g} rad in one step, more "
                     r"than half a turn", message), message
    assert "use a smaller dt, or an adaptive integrator" in message
    assert "must be finite" not in message
    # the same arm with a step it can follow
    motion = simulate(arm, [-0.5, 1.0], [1.0, -1.0], t_span=0.05, integrator="euler", dt=1e-4)
    assert np.all(np.isfinite(motion.q)) and np.max(np.abs(motion.qd[-1])) < 0.1


def test_an_adaptive_run_that_runs_away_names_the_integrator_time_and_step():
    # tau = 10 qd^3: qd' = c qd^3 blows up in finite time
    robot = pendulum()
    with pytest.raises(RuntimeError) as failure:
        simulate(robot, [0.0], [1.0], torque=lambda t, q, qd: [10 * qd[0] ** 3], t_span=2.0)
    found = re.search(r"RK45 failed at t = (\S+) s \(last step (\S+) s\): Required step size",
                      str(failure.value))
    assert found, str(failure.value)
    assert 0 < float(found[1]) < 2.0 and float(found[2]) < 1e-10


def test_progress_reports_the_time_reached_at_each_per_cent():
    arm = planar_2r("fu")
    for integrator, dt in (("euler", 1e-3), ("rk45", None)):
        seen = []
        motion = simulate(arm, [-0.5, 1.0], t_span=2.0, integrator=integrator, dt=dt,
                          progress=seen.append)
        assert seen[-1] == 2.0 and np.all(np.diff(seen) > 0) and seen[0] > 0
        assert set(seen) <= set(motion.t.tolist())             # times it reached
        if integrator == "euler":                              # every 20 steps of 2000
            assert seen == [0.02 * k for k in range(1, 101)]
        else:                                                  # its steps, at most 1 per %
            assert 10 < len(seen) <= 101 and len(seen) < motion.steps


def test_progress_is_a_bar_in_a_notebook(monkeypatch):
    import ipywidgets
    from IPython import display

    from dynlab.dynamics import simulation
    shown = []
    monkeypatch.setattr(simulation, "_in_notebook", lambda: True)
    monkeypatch.setattr(display, "display", shown.append)
    simulate(planar_2r("fu"), [-0.5, 1.0], t_span=3.0, integrator="euler", progress=True)
    (bar,) = shown
    assert isinstance(bar, ipywidgets.FloatProgress)
    assert (bar.min, bar.max, bar.value, bar.bar_style) == (0.0, 3.0, 3.0, "success")
    with pytest.raises(RuntimeError, match="max_steps = 50"):
        simulate(planar_2r("fu"), [0, 0], torque=[1e12, 1e12], max_steps=50, progress=True)
    assert shown[-1] is not bar and shown[-1].bar_style == "danger"
    assert 0.0 < shown[-1].value < 1e-3


def test_progress_is_a_line_on_a_terminal(capsys):
    simulate(planar_2r("fu"), [-0.5, 1.0], t_span=1.0, integrator="euler", progress=True)
    err = capsys.readouterr().err
    updates = err.split("\r")[1:]
    arm = "two-link arm (Fu, Gonzalez & Lee, Fig. 3.2), Euler"
    assert updates[-1] == f"{arm}: t = 1 of 1 s (100 %)\n"
    assert updates[0] == f"{arm}: t = 0.01 of 1 s (  1 %)"
    assert len(updates) == 100


@pytest.mark.parametrize("integrator", ["rk45", "rk23", "dop853", "radau", "bdf", "lsoda",
                                        "euler"])
def test_an_overflowing_start_stops_at_the_first_evaluation_naming_the_state(integrator):
    # qd0 = 1e160: qd^2 overflows at once (RK45, RK23, DOP853 used to hang, Radau and BDF to
    # raise NumPy's words)
    torque, calls = counting_torque(2, most=50)
    with pytest.raises(NotFiniteError, match=r"^simulate at t = 0 s: qdd1 of two-link arm .* is "
                                             r"not finite \(overflow\) at q = \(0\.1, 0\.2\), "
                                             r"qd = \(1e\+160, 0\)"):
        simulate(planar_2r("fu"), [0.1, 0.2], [1e160, 0.0], torque=torque, t_span=0.1,
                 integrator=integrator)
    assert len(calls) <= 2                    # the first evaluation (and settling the friction)


@pytest.mark.parametrize("compiled", [True, False])
def test_accelerations_that_overflow_later_stop_the_run_naming_the_time(compiled):
    # two Euler steps of 0.25 s from rest at q = -pi/2: qd = 2 h qdd, qdd = -3 g C1 / (2 a1)
    # (Schilling (6-9-22)), with C1 = cos(-pi/2) = 6e-17 in floating point
    qd = -2 * 0.25 * 3 * G * math.cos(HANGING) / (2 * 0.5)
    with pytest.raises(NotFiniteError, match=r"^simulate at t = 0\.5 s: qdd1 of one-axis arm "
                                             r"\(pendulum\) is not finite \(overflow\) at "
                                             rf"q = \(-1\.5708\), qd = \({qd:.6g}\)"):
        simulate(pendulum(), [HANGING], torque=lambda t: [1e308 if t >= 0.5 else 0.0],
                 integrator="euler", t_span=1.0, dt=0.25, compiled=compiled)


def test_a_diverging_computed_torque_euler_run_names_the_step():
    # kp = 1e9, dt = 1 ms: omega dt = 32; qdd = kp (0.5 - 0.1), so qd dt dt = 400 rad
    from dynlab.dynamics.control import computed_torque
    arm = planar_2r("fu")
    law = computed_torque(arm, 1e9, 2 * math.sqrt(1e9), [0.5, 0.3])
    with pytest.raises(RuntimeError, match=r"the Euler integration diverged: at t = 0\.001 s "
                                           r"\(step 1 of 1000, dt = 0\.001 s\) joint 1 would "
                                           r"move 400 rad in one step.* use a smaller dt"):
        simulate(arm, [0.1, 0.2], torque=law, integrator="euler", dt=1e-3, t_span=1.0)
    # the same law with a step it can follow settles on the set point
    motion = simulate(arm, [0.1, 0.2], torque=law, integrator="euler", dt=1e-6, t_span=1e-3)
    assert np.abs(motion.q[-1] - [0.5, 0.3]).max() < 1e-6


def test_a_prismatic_joint_diverges_when_a_step_moves_it_further_than_the_arm_is_long():
    from dynlab.model.robots import scara
    arm = scara()
    size = max(1.0, sum(abs(float(link.a)) + abs(float(link.d)) for link in arm.links))
    speed = 2.0 * size / 0.01                 # two arm lengths per 10 ms step
    with pytest.raises(RuntimeError, match=r"joint 3 would move 3\.4 m in one step, more than "
                                           r"the size of the arm"):
        simulate(arm, [0.0] * 3, [0.0, 0.0, speed], integrator="euler", dt=0.01, t_span=0.1,
                 gravity=False, friction=False)
    assert simulate(arm, [0.0] * 3, [0.0, 0.0, 0.4 * speed], integrator="euler", dt=0.01,
                    t_span=0.02, gravity=False, friction=False).t[-1] == pytest.approx(0.02)


@pytest.mark.parametrize("integrator", ["rk45", "radau", "euler"])
def test_a_step_longer_than_the_time_span_is_refused_by_every_integrator(integrator):
    torque, calls = counting_torque(2)
    with pytest.raises(ValueError, match=r"^dt = 0\.5 s is longer than the time span 0\.1 s$"):
        simulate(planar_2r("fu"), [0.1, 0.2], torque=torque, dt=0.5, t_span=0.1,
                 integrator=integrator)
    assert calls == []
    assert simulate(planar_2r("fu"), [0.1, 0.2], dt=0.1, t_span=0.1).t.tolist() == [0.0, 0.1]


@pytest.mark.parametrize("returned, kind", [
    ([1j, 0.0], TypeError), (np.array([1j, 0.0]), TypeError), (["1", "0"], TypeError),
    ([True, False], TypeError), ([1.0, True], TypeError), (np.array([True, False]), TypeError),
    ([None, 1.0], TypeError), ([1.0, math.nan], ValueError), ([1.0, 2.0, 3.0], ValueError)])
def test_a_torque_function_returns_real_numbers_not_complex_text_or_truth_values(returned,
                                                                                  kind):
    with pytest.raises(kind, match=r"^two-link arm .*: torque, the function, returned .* at "
                                   r"t = 0; it must return 2 (real|finite) numbers"):
        simulate(planar_2r("fu"), [0.1, 0.2], torque=lambda t: returned, t_span=0.1)
    # numbers of any real type are torques
    for good in ([np.float64(1.0), 2], np.array([1, 2]), (1.0, 2.0)):
        motion = simulate(planar_2r("fu"), [0.1, 0.2], torque=lambda t: good, t_span=0.01)
        assert motion.tau[-1].tolist() == [1.0, 2.0]


@pytest.mark.parametrize("level, kind", [(math.nan, ValueError), (math.inf, ValueError),
                                         ("a", TypeError), (True, TypeError)])
def test_the_level_of_a_period_is_a_finite_number(level, kind):
    swing = simulate(pendulum(), [HANGING + 0.3], t_span=3.0, dt=0.01)
    with pytest.raises(kind, match=r"^level must be a finite number"):
        swing.period(level=level)
    assert swing.period(level=HANGING) == pytest.approx(swing.period(), rel=1e-2)


def test_frames_beyond_what_can_be_drawn_are_refused_at_once():
    from dynlab.dynamics.simulated_trajectory import MAX_FRAMES
    motion = simulate(pendulum(), [0.3], t_span=1.0, dt=0.25)
    for call in (motion.frames, motion.animate, motion.player):
        with pytest.raises(ValueError, match=rf"^Trajectory.frames: count must be a whole number "
                                             rf"from 1 to {MAX_FRAMES}, got 1000000000$"):
            call(10 ** 9)
    with pytest.raises(TypeError, match="got the boolean True"):
        motion.frames(True)
    assert motion.frames(np.int64(3)).tolist() == [0, 2, 4]
    assert motion.frames(MAX_FRAMES).tolist() == [0, 1, 2, 3, 4]


def test_symbolic_forward_dynamics_keeps_a_tiny_torque():
    # Issue 39; D by hand, Fu, Gonzalez & Lee, Sec. 3.2.6; at rest without gravity qdd = D^-1 tau
    robot = planar_2r("fu", symbolic=True)
    qdd = forward_dynamics(robot, [0.3, 0.4], [0, 0], [1e-13, 0], gravity=False)
    m1, m2, l = (sympy.Symbol(s, positive=True) for s in ("m1", "m2", "l"))
    got = np.array(qdd.subs({m1: 2.0, m2: 1.5, l: 0.7}), dtype=float).ravel()
    c2, mass1, mass2, length = math.cos(0.4), 2.0, 1.5, 0.7
    D = length**2 * np.array([[mass1 / 3 + 4 * mass2 / 3 + mass2 * c2, mass2 / 3 + mass2 * c2 / 2],
                              [mass2 / 3 + mass2 * c2 / 2, mass2 / 3]])
    expected = np.linalg.solve(D, [1e-13, 0.0])
    assert np.all(expected != 0)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=0)


def _point_masses(m1, m2, r1, l1=1.0, l2=1.0):
    """A planar 2R arm with point masses: m1 at r1 from joint 1 on link 1, m2 at the end of
    link 2 (link lengths l1, l2), and its D by hand (Lynch & Park, Sec. 8.1.1 with m1 at r1):
    D11 = m1 r1^2 + m2 (l1^2 + 2 l1 l2 C2 + l2^2), D12 = m2 (l1 l2 C2 + l2^2), D22 = m2 l2^2."""
    arm = Robot([Link("R", a=l1, mass=m1, com=(r1 - l1, 0, 0), name="l1"),
                 Link("R", a=l2, mass=m2, name="l2")], gravity=(0, 0, 0), name="point masses")

    def D(q2):
        c2 = math.cos(q2)
        return np.array([[m1 * r1**2 + m2 * (l1**2 + 2 * l1 * l2 * c2 + l2**2),
                          m2 * (l1 * l2 * c2 + l2**2)],
                         [m2 * (l1 * l2 * c2 + l2**2), m2 * l2**2]])
    return arm, D


@pytest.mark.parametrize("m1, m2, r1, l1", [
    (1e300, 1.0, 0.5, 1.0),                   # a mass of 1e300 on the shoulder
    (1.0, 1.0, 1e20, 1e20),                   # the elbow 1e20 m out
    (1.0, 1.0, 1e10, 1.0),                    # the shoulder's centre of mass 1e10 m out
    (1.0, 1e-300, 0.5, 1.0),                  # a forearm of 1e-300 kg
])
def test_forward_dynamics_solves_badly_scaled_arms(m1, m2, r1, l1):
    # Issue 39: D = diag(1e40, 1) is not singular; step by step, compiled and its short cut
    arm, D = _point_masses(m1, m2, r1, l1)
    q, tau = [0.3, 0.4], np.array([1.0, 1e-9])
    expected = np.linalg.solve(D(0.4), tau)
    for compiled in (False, True, True):
        got = forward_dynamics(arm, q, [0.0, 0.0], tau, compiled=compiled)
        np.testing.assert_allclose(got, expected, rtol=1e-9, atol=0)


def test_a_light_spindle_on_a_heavy_shoulder_is_solved_and_a_massless_one_refused():
    # Issue 39: D = [[191 + J, J], [J, J]], J = 1e-10; by hand qdd1 = (tau1 - tau2) / 191,
    # qdd2 = tau2 / J - qdd1 (the spindle's centre on its axis: no velocity terms)
    J = 1e-10

    def arm(inertia):
        return Robot([Link("R", a=1.0, mass=190.0, name="shoulder"),
                      Link("R", mass=1.0, inertia=np.diag([inertia] * 3).tolist(),
                           name="spindle")], gravity=(0, 0, 0), name="spindle")
    tau = np.array([1.0, 1e-9])
    qdd1 = (tau[0] - tau[1]) / 191.0
    for compiled in (False, True, True):
        got = forward_dynamics(arm(J), [0.3, 0.4], [0.5, -2.0], tau, compiled=compiled)
        np.testing.assert_allclose(got, [qdd1, tau[1] / J - qdd1], rtol=1e-9)
        with pytest.raises(ValueError, match=r"singular at .*\(pivot 2 is 0.*\): joint 2 "
                                             r"moves no mass"):
            forward_dynamics(arm(0.0), [0.3, 0.4], [0.5, -2.0], tau, compiled=compiled)


def test_the_articulated_body_algorithm_solves_a_light_spindle_at_the_end_of_a_long_chain():
    # the compiled path runs Featherstone's ABA; Cholesky (compiled=False) the second method
    from dynlab.dynamics.forward import ARTICULATED_FROM
    links = [Link("R", a=0.3, mass=2.0, com=(-0.15, 0, 0), name=f"l{k}")
             for k in range(1, ARTICULATED_FROM)]
    links.append(Link("R", mass=1.0, inertia=np.diag([1e-14] * 3).tolist(), name="spindle"))
    arm = Robot(links, gravity=(0, -9.8, 0), name="long chain with a spindle")
    rng = np.random.default_rng(5)
    q, qd, tau = rng.uniform(-1, 1, (3, arm.n))
    reference = forward_dynamics(arm, q, qd, tau, compiled=False)
    for _ in range(2):
        np.testing.assert_allclose(forward_dynamics(arm, q, qd, tau), reference, rtol=1e-7,
                                   atol=1e-9 * np.abs(reference).max())


# -- bad input -------------------------------------------------------------------------------------
ARM = planar_2r("fu")
MASSLESS_TIP = Robot([Link("R", a=1.0, mass=1.0, com=(-0.5, 0, 0), name="l1"),
                      Link("R", a=1.0, name="l2")], name="massless tip")


def _simulate(*state, **options):
    return lambda: simulate(ARM, *(state or ([0, 0],)), **options)


@refusals(
    (lambda: forward_dynamics(ARM, [0, 0], [0, 0], [0, 0], method="kane"), ValueError,
     "unknown method"),
    (lambda: forward_dynamics(ARM, [0, 0], [0, 0], [0]), ValueError, "tau must have 2 entries"),
    (_simulate(integrator="leapfrog"), ValueError, "unknown integrator"),
    (_simulate(torque=[1.0]), ValueError, "torque must have 2 entries"),
    (_simulate(torque=lambda t, q: [0, 0]), TypeError, r"takes \(t\) or \(t, q, qd\)"),
    (_simulate(torque=lambda t: [0.0]), ValueError, "must return 2 finite numbers"),
    (lambda: simulate(planar_2r("fu", symbolic=True), [0, 0]), TypeError,
     "simulate needs numbers"),
    (_simulate(t_span=(1.0, 0.0)), ValueError, "run forward in time"),
    (_simulate(integrator="euler", dt=-0.1), ValueError, "dt must be a positive"),
    (_simulate(integrator="euler", t_eval=[0.0, 0.5]), ValueError,
     "Euler integrator takes a step dt only"),
    (lambda: forward_dynamics(MASSLESS_TIP, [0, 0], [0, 0], [0, 0]), ValueError,
     "inertia matrix D is singular.*joint 2"),
    (lambda: forward_dynamics(MASSLESS_TIP, [0, 0], [0, 0], [0, 0], compiled=False), ValueError,
     "inertia matrix D is singular.*joint 2"),
    (lambda: forward_dynamics(MASSLESS_TIP, sympy.symbols("q1 q2"), [0, 0], [0, 0]), ValueError,
     "singular"),
    (lambda: static_equilibrium(pendulum(), [3.0], q0=[0.0]), ValueError,
     "no static equilibrium"),                           # more than gravity can hold
    (lambda: static_equilibrium(pendulum(), tolerance=True), TypeError,
     "^tolerance must be a number, got True$"),
    (_simulate(dt=1e-300), ValueError, r"samples every dt = 1e-300 s over t = 0\.\.1 s are "
     r"1e\+300 samples, more than max_steps \+ 1 = 100001"),
    (_simulate(t_span=0.5, t_eval=np.linspace(0, 0.5, 102), max_steps=100), ValueError,
     r"t_eval asks for 102 samples, more than max_steps \+ 1 = 101; pass fewer times, or "
     r"max_steps=101"),
    (_simulate(dense_output=True), ValueError, "not solve_ivp's dense output"),
    (_simulate([0.1, 0.2], t_eval=[], t_span=0.1), ValueError, r"^t_eval is empty: give the times"),
    *[(lambda integrator=integrator, option=option: simulate(
        pendulum(), [0.3], t_span=0.1, integrator=integrator, **{option: 0.5}), TypeError,
       f"'{option}' that neither simulate nor the ")
      for integrator, option in [("rk45", "t_end"), ("rk45", "min_step"), ("dop853", "jac")]])
def test_bad_input_is_named(call, error, words):
    assert_refused(call, error, words)
