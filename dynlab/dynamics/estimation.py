"""Identification's last steps: an exciting trajectory (:func:`exciting_trajectory`), the
measurements a lab takes along it (:func:`measure`), the base parameters estimated by least
squares with their standard deviations (:func:`estimate_base_parameters`), and a physically
consistent set of standard parameters (:func:`consistent_estimate`).

The trajectory is a finite Fourier series per joint (Swevers, Ganseman, Tukel, De Schutter &
Van Brussel (1997), "Optimal robot excitation and identification", IEEE Trans. Robotics and
Automation 13(5)), its coefficients chosen to minimise the condition number of the
stacked base regressor (Gautier & Khalil (1992), "Exciting trajectories for the identification
of base inertial parameters of robots", IJRR 11(4)).  The estimates follow Gautier & Poignet
(2001), "Extended Kalman filtering and weighted least squares dynamic identification of robot",
Control Engineering Practice 9, Sec. 3; the consistent one Wensing, Kim & Slotine (2017),
"Linear matrix inequalities for physically consistent inertial parameter identification",
IEEE RA-L 3(1): each link's pseudo-inertia positive semi-definite.

>>> import numpy as np
>>> path = FourierTrajectory(1.0, [0.0], [[1.0]], [[0.0]])    # q = sin t
>>> q, qd, qdd = path.at([np.pi / 2])
>>> float(q[0, 0]), round(float(qd[0, 0]), 12), float(qdd[0, 0])
(1.0, 0.0, -1.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.optimize
import scipy.signal

from dynlab.dynamics.identification import (
    RANK_TOLERANCE,
    BaseParameters,
    parameter_names,
    torque_regressor,
)
from dynlab.dynamics.inverse import inverse_dynamics
from dynlab.model.checks import count, number
from dynlab.model.robot import Robot


# -- the exciting trajectory ----------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class FourierTrajectory:
    """``q_i(t) = q0_i + sum_l a_il / (w l) sin(w l t) - b_il / (w l) cos(w l t)``, ``l = 1..L``
    (Swevers et al. (1997)), ``w`` the :attr:`frequency` in rad/s; periodic with
    :attr:`period` ``2 pi / w``.  ``q0`` has one entry per joint, ``a`` and ``b`` shape ``(n,
    L)``."""

    frequency: float
    q0: np.ndarray
    a: np.ndarray
    b: np.ndarray

    def __post_init__(self):
        object.__setattr__(self, "frequency", number(self.frequency, "frequency",
                                                     unit=" of rad/s"))
        q0, a, b = (np.array(v, dtype=float) for v in (self.q0, self.a, self.b))
        if q0.ndim != 1 or a.shape != b.shape or a.shape[:1] != q0.shape or a.ndim != 2:
            raise ValueError(f"FourierTrajectory takes q0 of n entries and a, b of shape (n, L), "
                             f"got shapes {q0.shape}, {a.shape}, {b.shape}")
        for name, value in (("q0", q0), ("a", a), ("b", b)):
            if not np.all(np.isfinite(value)):
                raise ValueError(f"FourierTrajectory: {name} must be finite, got {value}")
        for name, value in (("q0", q0), ("a", a), ("b", b)):
            object.__setattr__(self, name, value)

    @property
    def period(self) -> float:
        return 2 * math.pi / self.frequency

    def at(self, t) -> tuple:
        """``(q, qd, qdd)`` at the times ``t``, each ``(N, n)``: the series and its two
        derivatives term by term (``qd = sum a cos + b sin``, ``qdd = sum w l (b cos - a sin)``)."""
        t = np.atleast_1d(np.asarray(t, dtype=float))
        if t.ndim != 1 or not np.all(np.isfinite(t)):
            raise ValueError(f"t must be a finite vector of times, got shape {t.shape}")
        wl = self.frequency * np.arange(1, self.a.shape[1] + 1)          # (L,)
        s, c = np.sin(np.outer(t, wl)), np.cos(np.outer(t, wl))          # (N, L)
        q = self.q0 + (s / wl) @ self.a.T - (c / wl) @ self.b.T
        qd = c @ self.a.T + s @ self.b.T
        qdd = (c * wl) @ self.b.T - (s * wl) @ self.a.T
        return q, qd, qdd

    def times(self, samples: int, periods: int = 1) -> np.ndarray:
        """``samples`` equally spaced times a period over ``periods`` whole periods."""
        samples = count(samples, "FourierTrajectory", "samples", 1)
        periods = count(periods, "FourierTrajectory", "periods", 1)
        return np.arange(samples * periods) * (self.period / samples)


def _vector(value, n: int, name: str) -> np.ndarray:
    array = np.broadcast_to(np.asarray(value, dtype=float), (n,)) if np.ndim(value) == 0 \
        else np.asarray(value, dtype=float)
    if array.shape != (n,) or not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be a finite number or {n} of them (one per joint), got "
                         f"{value!r}")
    return array


def _generator(rng) -> None:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")


def condition_number(base: BaseParameters, trajectory: FourierTrajectory, samples: int = 50):
    """The 2-norm condition number of ``Y_b`` stacked over ``samples`` times of a period."""
    Y = base.regressor(*trajectory.at(trajectory.times(samples)))
    return float(np.linalg.cond(Y))


@dataclass(frozen=True, eq=False)
class Excitation:
    """An optimised :attr:`trajectory` and the seeded :attr:`start` it came from, with the
    condition numbers of ``Y_b`` along each."""

    trajectory: FourierTrajectory
    start: FourierTrajectory
    condition: float
    start_condition: float


def exciting_trajectory(base: BaseParameters, *, lower, upper, speed, acceleration, rng,
                        harmonics: int = 5, frequency: float = 2 * math.pi / 10,
                        samples: int = 50, maxiter: int = 100) -> Excitation:
    """A :class:`FourierTrajectory` with ``harmonics`` terms per joint whose stacked ``Y_b``
    (``samples`` times a period) has a small condition number, found by SLSQP from a random
    start drawn from ``rng`` (a ``numpy.random.Generator``).  It stays within ``lower <= q <=
    upper``, ``|qd| <= speed``, ``|qdd| <= acceleration`` (numbers or one per joint) at every
    time: harmonic ``l`` has amplitudes ``r_l / (w l)``, ``r_l``, ``r_l w l`` in ``q``, ``qd``,
    ``qdd`` (``r_l = |(a_l, b_l)|``) and their sums bound each, as constraints; SLSQP stopped
    by ``maxiter`` outside them is scaled back in, and the start kept if that is no better."""
    n = base.robot.n
    _generator(rng)
    harmonics = count(harmonics, "exciting_trajectory", "harmonics", 1)
    maxiter = count(maxiter, "exciting_trajectory", "maxiter", 1)
    frequency = number(frequency, "frequency", unit=" of rad/s")
    if count(samples, "exciting_trajectory", "samples", 1) * n < base.count:
        raise ValueError(f"exciting_trajectory: samples must be at least {-(-base.count // n)} "
                         f"for {base.count} base parameters of {n} joints, got {samples}")
    lower, upper = _vector(lower, n, "lower"), _vector(upper, n, "upper")
    speed, acceleration = _vector(speed, n, "speed"), _vector(acceleration, n, "acceleration")
    if np.any(lower >= upper) or np.any(speed <= 0) or np.any(acceleration <= 0):
        raise ValueError("the limits need lower < upper and positive speed and acceleration")
    wl = frequency * np.arange(1, harmonics + 1)
    half = (upper - lower) / 2

    def unpack(x):                                # x = (q0, a, b)
        return x[:n], *x[n:].reshape(2, n, harmonics)

    def margins(x):                   # >= 0 inside the limits
        q0, a, b = unpack(x)
        r = np.sqrt(a**2 + b**2 + 1e-18)             # 1e-18: r differentiable at 0
        reach = r @ (1 / wl)
        return np.concatenate([upper - q0 - reach, q0 - lower - reach, speed - r.sum(1),
                               acceleration - r @ wl])

    def margins_jacobian(x):
        q0, a, b = unpack(x)
        r = np.sqrt(a**2 + b**2 + 1e-18)
        J = np.zeros((4 * n, x.size))
        J[:n, :n], J[n:2 * n, :n] = -np.eye(n), np.eye(n)
        for k, weights in enumerate((-1 / wl, -1 / wl, -np.ones(harmonics), -wl)):
            for i in range(n):
                a_columns = n + i * harmonics + np.arange(harmonics)
                J[k * n + i, a_columns] = weights * a[i] / r[i]
                J[k * n + i, a_columns + n * harmonics] = weights * b[i] / r[i]
        return J

    def trajectory(x):
        return FourierTrajectory(frequency, *unpack(x))

    def objective(x):
        return math.log(condition_number(base, trajectory(x), samples))

    def inside(x, most, fraction):    # each joint's (a, b) scaled by min(most, fraction * the
        q0, a, b = unpack(x)          # ratio of its tightest limit to its bound), q0 moved in
        r = np.sqrt(a**2 + b**2)
        ratios = np.min([half / (r @ (1 / wl)), speed / r.sum(1), acceleration / (r @ wl)], 0)
        scale = np.minimum(most, fraction * ratios)[:, None]
        reach = (scale * r) @ (1 / wl)
        q0 = np.clip(q0, lower + reach, upper - reach)
        return np.concatenate([q0, (a * scale).ravel(), (b * scale).ravel()])

    x0 = inside(np.concatenate([(lower + upper) / 2, rng.standard_normal(2 * n * harmonics)]),
                np.inf, 0.9)
    result = scipy.optimize.minimize(
        objective, x0, method="SLSQP", options={"maxiter": maxiter},
        constraints={"type": "ineq", "fun": margins, "jac": margins_jacobian})
    x = inside(result.x, 1.0, 1 - 1e-9)          # SLSQP stopped early may be slightly outside
    if objective(x) > objective(x0):
        x = x0
    return Excitation(trajectory(x), trajectory(x0), math.exp(objective(x)),
                      math.exp(objective(x0)))


# -- measurements ---------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Measurements:
    """Times ``t`` (N,) and ``q, qd, qdd, tau`` (N, n), as :func:`measure` takes them."""

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray


def filtered_derivatives(q, dt: float, window: int = 21, polyorder: int = 4) -> tuple:
    """``(qd, qdd)`` of positions ``q`` (N or (N, n), sampled every ``dt`` over whole periods):
    a Savitzky-Golay filter, a polynomial of degree ``polyorder`` fitted over ``window``
    samples and differentiated once and twice (Savitzky & Golay (1964), Anal. Chem. 36(8)),
    wrapped around the period (``mode="wrap"``: no edge effects on a periodic motion)."""
    q = np.asarray(q, dtype=float)
    if not np.all(np.isfinite(q)):
        raise ValueError("q must be finite")
    return tuple(scipy.signal.savgol_filter(q, window, polyorder, deriv=k, delta=dt, axis=0,
                                            mode="wrap") for k in (1, 2))


def measure(robot: Robot, trajectory: FourierTrajectory, *, rng, torque_noise,
            counts_per_revolution: int | None, samples: int = 1000, periods: int = 1,
            window: int = 21, polyorder: int = 4) -> Measurements:
    """What a lab records along ``trajectory``, ``samples`` times a period over ``periods``
    periods: the torques of :func:`inverse_dynamics` (no tool) plus Gaussian noise of standard
    deviation ``torque_noise`` (a number or one per joint), positions rounded to an encoder's
    ``counts_per_revolution`` (counts per metre on a prismatic joint; ``None``: exact), and
    velocities and accelerations from :func:`filtered_derivatives` of those positions, not the
    exact ones.  Every draw comes from ``rng``, a ``numpy.random.Generator``."""
    _generator(rng)
    n = robot.n
    if trajectory.q0.shape != (n,):
        raise ValueError(f"trajectory has {trajectory.q0.size} joints, {robot.name} has {n}")
    sigma = _vector(torque_noise, n, "torque_noise")
    t = trajectory.times(samples, periods)
    q, qd, qdd = trajectory.at(t)
    tau = np.array([inverse_dynamics(robot, *state, tip_wrench=False)
                    for state in zip(q, qd, qdd)], dtype=float)
    tau += rng.standard_normal(tau.shape) * sigma
    if counts_per_revolution is not None:
        number(counts_per_revolution, "counts_per_revolution")
        step = np.array([2 * math.pi if link.is_revolute else 1.0 for link in robot.links])
        step /= counts_per_revolution
        q = np.round(q / step) * step
    qd, qdd = filtered_derivatives(q, t[1] - t[0], window, polyorder)
    return Measurements(t, q, qd, qdd, tau)


# -- least squares --------------------------------------------------------------------------------
class UnidentifiableError(ValueError):
    """The data leave some base parameters undetermined; :attr:`names` lists them."""

    def __init__(self, names: tuple, rank: int, count: int):
        self.names = names
        super().__init__(f"the data determine {rank} of the {count} base parameters: "
                         f"{', '.join(names)} cannot be identified from them (the stacked "
                         f"regressor's columns of these are zero or dependent); excite them")


@dataclass(frozen=True, eq=False)
class Estimate:
    """Base parameters :attr:`values` (in :attr:`names`' order), their standard deviations
    :attr:`std` (``sqrt(diag(sigma^2 (Y^T Y)^-1))``) and relative ones :attr:`relative_std`
    (``std / |value|``); :attr:`joint_sigma` the residual's standard deviation per joint and
    :attr:`residual` the norm of ``tau - Y_b pi_b`` (unweighted)."""

    names: tuple
    values: np.ndarray
    std: np.ndarray
    relative_std: np.ndarray
    joint_sigma: np.ndarray
    residual: float


def _torques(tau, rows: int, n: int) -> np.ndarray:
    tau = np.asarray(tau, dtype=float)
    if tau.ndim == 1 and n == 1:
        tau = tau[:, None]
    if tau.shape != (rows, n):
        raise ValueError(f"tau must have shape ({rows}, {n}), one torque per joint for each of "
                         f"the {rows} samples of q, got shape {tau.shape}")
    if not np.all(np.isfinite(tau)):
        sample, joint = np.argwhere(~np.isfinite(tau))[0]
        raise ValueError(f"tau must be finite, got {tau[sample, joint]} at sample {sample}, "
                         f"joint {joint + 1}")
    return tau


def _check_identifiable(Y, names) -> None:
    """Raise :class:`UnidentifiableError` naming the parameters whose unit vector is not in the
    row space of ``Y`` (a component in its null space), rank read as in ``base_parameters``."""
    norms = np.linalg.norm(Y, axis=0)
    scaled = Y / np.where(norms > 0, norms, 1)
    _, s, Vt = np.linalg.svd(np.linalg.qr(scaled, mode="r"))     # R: the same s and V
    s = np.concatenate([s, np.zeros(Y.shape[1] - s.size)])
    rank = int((s > RANK_TOLERANCE * max(s[0], 1e-300)).sum()) if norms.max() > 0 else 0
    if rank < Y.shape[1]:
        null = Vt[rank:]
        bad = np.flatnonzero(np.linalg.norm(null, axis=0) > 1e-6)
        raise UnidentifiableError(tuple(names[k] for k in bad), rank, Y.shape[1])


def estimate_base_parameters(base: BaseParameters, q, qd, qdd, tau, *,
                             weighted: bool = False) -> Estimate:
    """``pi_b`` fitted to torques ``tau`` measured at ``q, qd, qdd`` (each ``(N, n)``) by
    ordinary least squares, or with ``weighted`` each joint's rows divided by its residual's
    standard deviation ``sigma_j`` from the least squares of that joint's rows alone (Gautier &
    Poignet (2001), Sec. 3).  ``sigma^2 = |rho|^2 / (rows - p_b)``, ``rho`` the
    (weighted) residual, gives the covariance ``sigma^2 (Y^T Y)^-1``.  Raises
    :class:`UnidentifiableError` (a ``ValueError``) naming the base parameters the data
    cannot determine rather than returning numbers for them."""
    Y = base.regressor(q, qd, qdd)
    n = base.robot.n
    N = Y.shape[0] // n
    tau = _torques(tau, N, n).ravel()
    names = tuple(str(s) for s in base.symbols)
    _check_identifiable(Y, names)
    sigma = np.ones(n)
    for j in range(n):                         # each joint's own subsystem
        Yj, tj = Y[j::n], tau[j::n]
        solution, _, rank, _ = np.linalg.lstsq(Yj, tj, rcond=None)
        sigma[j] = np.linalg.norm(tj - Yj @ solution) / math.sqrt(max(N - rank, 1))
    weights = np.tile(1 / sigma, N) if weighted else np.ones(N * n)
    if weighted and not np.all(np.isfinite(weights)):
        raise ValueError("a joint's torques are fitted exactly: its weight would be infinite; "
                         "use weighted=False")
    Yw, tw = Y * weights[:, None], tau * weights
    values = np.linalg.lstsq(Yw, tw, rcond=None)[0]
    rho = tw - Yw @ values
    variance = rho @ rho / max(Yw.shape[0] - Yw.shape[1], 1)
    std = np.sqrt(variance * np.diag(np.linalg.inv(Yw.T @ Yw)))
    with np.errstate(divide="ignore"):
        relative = std / np.abs(values)
    return Estimate(names, values, std, relative, sigma, float(np.linalg.norm(tau - Y @ values)))


# -- a physically consistent estimate -------------------------------------------------------------
def pseudo_inertia(parameters) -> np.ndarray:
    """A link's 4x4 pseudo-inertia ``J = [[S, h], [h^T, m]]``, ``S = tr(I)/2 1 - I`` (Wensing,
    Kim & Slotine (2017)) from its 10 parameters (``LINK_PARAMETERS``' order): ``J =
    integral of [x; 1][x; 1]^T dm`` about the frame's origin, positive semi-definite for every
    real body.

    >>> pseudo_inertia([1.0, 0, 0, 0, 2, 0, 2, 0, 0, 2]).diagonal().tolist()   # I = 2 * 1
    [1.0, 1.0, 1.0, 1.0]
    """
    m, hx, hy, hz, xx, xy, yy, xz, yz, zz = np.asarray(parameters, dtype=float)
    inertia = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    J = np.zeros((4, 4))
    J[:3, :3] = np.trace(inertia) / 2 * np.eye(3) - inertia
    J[:3, 3] = J[3, :3] = hx, hy, hz
    J[3, 3] = m
    return J


def _link_parameters(J) -> np.ndarray:
    """The inverse of :func:`pseudo_inertia`: ``I = tr(S) 1 - S`` (``tr S = tr(I) / 2``)."""
    S = J[:3, :3]
    inertia = np.trace(S) * np.eye(3) - S
    return np.array([J[3, 3], *J[:3, 3], inertia[0, 0], inertia[0, 1], inertia[1, 1],
                     inertia[0, 2], inertia[1, 2], inertia[2, 2]])


@dataclass(frozen=True, eq=False)
class ConsistentEstimate:
    """Standard :attr:`parameters` (``parameter_names``' order) whose links' :attr:`pseudo_
    inertias` are positive semi-definite; :attr:`residual` ``|Y pi - tau|`` and the smallest
    one without the constraint, :attr:`unconstrained_residual`."""

    names: tuple
    parameters: np.ndarray
    pseudo_inertias: np.ndarray
    residual: float
    unconstrained_residual: float


_LOWER = np.tril_indices(4)


def consistent_estimate(robot: Robot, q, qd, qdd, tau, *, rotor: bool = False,
                        friction: bool = False) -> ConsistentEstimate:
    """Standard parameters minimising ``|Y pi - tau|`` subject to each link's pseudo-inertia
    ``J_i`` being positive semi-definite (Wensing, Kim & Slotine (2017), without a prior), with
    SciPy alone: ``J_i = L_i L_i^T``, ``L_i`` lower triangular (10 free entries), fitted by
    ``scipy.optimize.least_squares`` (the rotor and friction parameters free; at most 200
    evaluations).  With a full factor, a local minimum in ``L`` is a global one of the convex
    problem in ``J`` (Burer & Monteiro (2005), Math. Programming 103).  Started from the
    minimum-norm least squares solution, each ``J_i`` with its negative eigenvalues raised to a
    small positive one."""
    Y = torque_regressor(robot, q, qd, qdd, rotor=rotor, friction=friction)
    n = robot.n
    N = Y.shape[0] // n
    tau = _torques(tau, N, n).ravel()
    per_link = Y.shape[1] // n
    Q, R = np.linalg.qr(Y)            # |Y pi - tau|^2 = |R pi - Q^T tau|^2 + |tau - Q Q^T tau|^2
    target = Q.T @ tau
    free = per_link - 10                          # rotor and friction: after the 10 of a link
    unconstrained = np.linalg.lstsq(Y, tau, rcond=None)[0]

    def parameters(x):
        pi = np.empty(Y.shape[1])
        for i in range(n):
            chunk = x[i * per_link:(i + 1) * per_link]
            L = np.zeros((4, 4))
            L[_LOWER] = chunk[:10]
            pi[i * per_link:i * per_link + 10] = _link_parameters(L @ L.T)
            pi[i * per_link + 10:(i + 1) * per_link] = chunk[10:]
        return pi

    def jacobian(x):                              # d(L L^T) = E L^T + L E^T per entry E of L
        D = np.zeros((Y.shape[1], x.size))
        for i in range(n):
            start = i * per_link
            L = np.zeros((4, 4))
            L[_LOWER] = x[start:start + 10]
            for k, (r, c) in enumerate(zip(*_LOWER)):
                dJ = np.zeros((4, 4))
                dJ[r] += L[:, c]
                dJ[:, r] += L[:, c]
                D[start:start + 10, start + k] = _link_parameters(dJ)
            D[start + 10:start + per_link, start + 10:start + per_link] = np.eye(free)
        return R @ D

    x0 = []
    for i in range(n):
        link = unconstrained[i * per_link:(i + 1) * per_link]
        values, vectors = np.linalg.eigh(pseudo_inertia(link[:10]))
        floor = 1e-6 * max(values.max(), 1e-6)
        J = (vectors * np.maximum(values, floor)) @ vectors.T
        x0 += [*np.linalg.cholesky(J)[_LOWER], *link[10:]]
    result = scipy.optimize.least_squares(lambda x: R @ parameters(x) - target, np.array(x0),
                                          jac=jacobian, method="trf", tr_solver="lsmr",
                                          max_nfev=200)
    pi = parameters(result.x)
    J = np.array([pseudo_inertia(pi[i * per_link:i * per_link + 10]) for i in range(n)])
    return ConsistentEstimate(parameter_names(n, rotor, friction), pi, J,
                              float(np.linalg.norm(Y @ pi - tau)),
                              float(np.linalg.norm(Y @ unconstrained - tau)))
