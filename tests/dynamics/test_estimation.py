"""Identification from data on the two-link planar arm, the SCARA and the PUMA 560: exact
torques give back the base parameters (the groupings of ``base_parameters`` evaluated at the
arm's own values), noisy measurements give estimates within a few of their standard deviations,
the optimised trajectory is better conditioned and within its limits, data at rest name what
they cannot show, the consistent estimate has PSD pseudo-inertias, the filtered derivatives of
a quantised sine stay within a bound derived by hand."""

import math

import numpy as np
import pytest
import scipy.signal
from hypothesis import given, settings
from hypothesis import strategies as st

from dynlab.dynamics.estimation import (
    FourierTrajectory,
    UnidentifiableError,
    consistent_estimate,
    estimate_base_parameters,
    exciting_trajectory,
    filtered_derivatives,
    measure,
    pseudo_inertia,
)
from dynlab.dynamics.identification import base_parameters, standard_parameters
from dynlab.dynamics.inverse import inverse_dynamics
from dynlab.model.robots import planar_2r, puma560, scara

ARMS = {"planar_2r": planar_2r, "puma560": puma560}
#: ... and the SCARA (a prismatic joint), for the estimates from motion
MOVING = {**ARMS, "scara": scara}
INERTIA = ("XX", "XY", "XZ", "YY", "YZ", "ZZ")


def random_trajectory(rng, n, harmonics=4):
    """A Fourier trajectory, period 10 s, speeds below about 1.2 rad/s."""
    return FourierTrajectory(2 * math.pi / 10, rng.uniform(-0.5, 0.5, n),
                             rng.uniform(-0.3, 0.3, (n, harmonics)),
                             rng.uniform(-0.3, 0.3, (n, harmonics)))


def test_the_trajectory_derivatives_are_those_of_the_series(rng):
    path = random_trajectory(rng, 2)
    t, h = rng.uniform(0, 10, 5), 1e-5
    q, qd, qdd = path.at(t)
    (q_plus, qd_plus, _), (q_minus, qd_minus, _) = path.at(t + h), path.at(t - h)
    assert np.allclose(qd, (q_plus - q_minus) / (2 * h), atol=1e-8)
    assert np.allclose(qdd, (qd_plus - qd_minus) / (2 * h), atol=1e-8)
    assert np.allclose(path.at(t + path.period)[0], q)


@pytest.mark.parametrize("name", MOVING)
def test_exact_torques_give_back_the_base_parameters(name, rng):
    arm = MOVING[name]()
    base = base_parameters(arm)
    path = random_trajectory(rng, arm.n)
    q, qd, qdd = path.at(path.times(100))
    tau = np.array([inverse_dynamics(arm, *state, tip_wrench=False)
                    for state in zip(q, qd, qdd)])
    estimate = estimate_base_parameters(base, q, qd, qdd, tau)
    truth = base.values(standard_parameters(arm))
    assert np.allclose(estimate.values, truth, rtol=0, atol=1e-9 * np.abs(truth).max())
    assert estimate.residual < 1e-9 * np.linalg.norm(tau)


@pytest.mark.parametrize("name", MOVING)
@pytest.mark.parametrize("weighted", [False, True])
def test_noisy_measurements_give_estimates_within_a_few_standard_deviations(name, weighted,
                                                                               rng):
    arm = MOVING[name]()
    base = base_parameters(arm)
    path = random_trajectory(rng, arm.n)
    data = measure(arm, path, rng=rng, torque_noise=np.linspace(0.5, 0.2, arm.n),
                   counts_per_revolution=2**16, samples=1000)
    exact = path.at(data.t)
    assert not np.allclose(data.qdd, exact[2], rtol=0, atol=1e-6)       # filtered, not exact
    estimate = estimate_base_parameters(base, data.q, data.qd, data.qdd, data.tau,
                                        weighted=weighted)
    truth = base.values(standard_parameters(arm))
    # 4.5 sigma: a Gaussian estimate leaves it with probability 7e-6 per parameter
    assert np.all(np.abs(estimate.values - truth) <= 4.5 * estimate.std)
    assert np.allclose(estimate.relative_std, estimate.std / np.abs(estimate.values))
    # the residual's spread per joint is the noise put in, within a few per cent
    sigma = np.linspace(0.5, 0.2, arm.n)
    assert np.allclose(estimate.joint_sigma, sigma, rtol=0.15)
    if weighted:      # Gauss-Markov: the covariance (Y^T S^-1 Y)^-1, S the noise's covariance
        Yw = base.regressor(data.q, data.qd, data.qdd) / np.tile(sigma, len(data.t))[:, None]
        assert np.allclose(estimate.std, np.sqrt(np.diag(np.linalg.inv(Yw.T @ Yw))), rtol=0.2)


def test_the_optimised_trajectory_is_better_conditioned_and_within_its_limits(rng):
    base = base_parameters(planar_2r())
    limits = dict(lower=[-1.0, -2.0], upper=[1.5, 2.0], speed=[1.5, 2.0], acceleration=3.0)
    found = exciting_trajectory(base, rng=rng, harmonics=3, maxiter=15, **limits)
    assert found.condition < found.start_condition
    Y = base.regressor(*found.trajectory.at(found.trajectory.times(50)))
    assert np.isclose(np.linalg.cond(Y), found.condition)
    for path in (found.start, found.trajectory):
        q, qd, qdd = path.at(np.linspace(0, path.period, 4001))
        assert np.all((q >= limits["lower"]) & (q <= limits["upper"]))
        assert np.all(np.abs(qd) <= limits["speed"]) and np.all(np.abs(qdd) <= 3.0)


@pytest.mark.parametrize("name", ARMS)
def test_data_at_rest_name_the_parameters_only_motion_shows(name, rng):
    """At rest ``tau = g(q)``, linear in the masses and first moments only (Atkeson, An &
    Hollerbach (1986)): every base parameter led by an inertia entry is unidentifiable; the
    planar arm's gravity torques show MX1R, MY1R, MX2R, MY2R (by hand: ``g`` times sines
    and cosines of ``q1`` and ``q1 + q2``)."""
    arm = ARMS[name]()
    base = base_parameters(arm)
    q = rng.uniform(-math.pi, math.pi, (40, arm.n))
    rest = np.zeros_like(q)
    tau = np.array([inverse_dynamics(arm, qk, rk, rk, tip_wrench=False)
                    for qk, rk in zip(q, rest)])
    with pytest.raises(UnidentifiableError, match="cannot be identified") as error:
        estimate_base_parameters(base, q, rest, rest, tau)
    inertial = tuple(str(s) for s in base.symbols if str(s)[:2] in INERTIA)
    assert error.value.names == inertial
    if name == "planar_2r":
        assert inertial == ("ZZ1R", "ZZ2R")


@pytest.mark.parametrize("name", MOVING)
def test_the_consistent_estimate_has_psd_pseudo_inertias_and_fits(name, rng):
    arm = MOVING[name]()
    path = random_trajectory(rng, arm.n)
    data = measure(arm, path, rng=rng, torque_noise=0.3, counts_per_revolution=2**16,
                   samples=300)
    fit = consistent_estimate(arm, data.q, data.qd, data.qdd, data.tau)
    for J in fit.pseudo_inertias:
        assert np.linalg.eigvalsh(J).min() >= -1e-9 * np.abs(J).max()
    assert fit.unconstrained_residual <= fit.residual * (1 + 1e-12)
    assert fit.residual <= 1.02 * fit.unconstrained_residual
    base = base_parameters(arm)          # the same torques: its base parameters fit as well
    Yb = base.regressor(data.q, data.qd, data.qdd)
    assert np.isclose(np.linalg.norm(Yb @ base.values(fit.parameters) - data.tau.ravel()),
                      fit.residual)


def test_filtered_derivatives_of_a_quantised_sine_are_within_the_bound(rng):
    """``q = A sin(w t)`` rounded to steps ``D``: the filter's output is ``sum_k h_k q(t_k)``,
    exact on polynomials of degree ``p``; its error is at most ``sum |h_k| (D / 2)`` from the
    rounding plus ``sum |h_k| A (w |k dt|)^(p+1) / (p+1)!`` (Taylor's remainder of the sine
    about ``t``) for the first derivative, the same with ``h`` of the second."""
    A, w, samples, window, p = 1.2, 2 * math.pi / 5, 250, 31, 4      # 16-bit encoder
    dt, step = 5 / samples, 2 * math.pi / 2**16
    t = np.arange(samples) * dt
    shift = rng.uniform(0, 6)
    exact_q = A * np.sin(w * t + shift)
    q = np.round(exact_q / step) * step
    qd, qdd = filtered_derivatives(q, dt, window, p)
    k = np.abs(np.arange(window) - window // 2) * dt
    for deriv, got, exact in ((1, qd, A * w * np.cos(w * t + shift)),
                              (2, qdd, -A * w**2 * np.sin(w * t + shift))):
        h = np.abs(scipy.signal.savgol_coeffs(window, p, deriv=deriv, delta=dt))
        bound = h.sum() * step / 2 + h @ (A * (w * k) ** (p + 1) / math.factorial(p + 1))
        assert np.abs(got - exact).max() <= bound
        assert bound < 0.01 * A * w**deriv                  # and the bound says something


def test_bad_measurements_are_refused_naming_the_argument(rng):
    arm = planar_2r()
    base = base_parameters(arm)
    q, qd, qdd = random_trajectory(rng, 2).at(np.linspace(0, 10, 20))
    tau = np.ones((20, 2))
    with pytest.raises(ValueError, match="tau must have shape"):
        estimate_base_parameters(base, q, qd, qdd, tau[:-1])
    with pytest.raises(ValueError, match="tau must be finite"):
        estimate_base_parameters(base, q, qd, qdd, np.where(np.eye(20, 2) > 0, np.nan, tau))
    with pytest.raises(ValueError, match="q must be finite"):
        estimate_base_parameters(base, np.full_like(q, np.nan), qd, qdd, tau)
    with pytest.raises(ValueError, match="same shape"):
        consistent_estimate(arm, q, qd[:-1], qdd, tau)
    with pytest.raises(ValueError, match="torque_noise"):
        measure(arm, random_trajectory(rng, 2), rng=rng, torque_noise=[1, np.nan],
                counts_per_revolution=None)
    with pytest.raises(ValueError, match="counts_per_revolution"):
        measure(arm, random_trajectory(rng, 2), rng=rng, torque_noise=0.1,
                counts_per_revolution=0)
    with pytest.raises(ValueError, match="a, b of shape"):
        FourierTrajectory(1.0, [0, 0], [[1.0]], [[1.0]])
    with pytest.raises(ValueError, match="frequency"):
        FourierTrajectory(float("nan"), [0], [[1.0]], [[1.0]])
    with pytest.raises(ValueError, match="samples must be at least 3"):
        exciting_trajectory(base, lower=-1, upper=1, speed=1, acceleration=1, rng=rng,
                            samples=2)


@settings(max_examples=50)
@given(st.lists(st.tuples(st.floats(0.01, 5), *[st.floats(-1, 1)] * 3), min_size=1,
                max_size=5))
def test_the_pseudo_inertia_of_point_masses_is_the_sum_of_their_outer_products(points):
    """``J = sum_k m_k [x_k; 1][x_k; 1]^T`` (Wensing et al. (2017)) from ``m =
    sum m_k``, ``h = sum m_k x_k``, ``I = sum m_k (x_k.x_k 1 - x_k x_k^T)``."""
    m = sum(p[0] for p in points)
    h = sum(p[0] * np.array(p[1:]) for p in points)
    inertia = sum(p[0] * (np.dot(p[1:], p[1:]) * np.eye(3) - np.outer(p[1:], p[1:]))
                  for p in points)
    expected = sum(p[0] * np.outer([*p[1:], 1], [*p[1:], 1]) for p in points)
    parameters = [m, *h, inertia[0, 0], inertia[0, 1], inertia[1, 1], inertia[0, 2],
                  inertia[1, 2], inertia[2, 2]]
    assert np.allclose(pseudo_inertia(parameters), expected, atol=1e-12)
