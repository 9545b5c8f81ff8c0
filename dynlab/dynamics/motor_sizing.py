"""Sizing a joint's motor and gearhead (Lynch & Park, Sec. 8.9): through a gear of ratio ``G``
the motor turns at ``G qd`` and gives ``tau_motor = tau / G + G I_rotor qdd`` (reflected
inertia ``G**2 I_rotor``, Sec. 8.9.2; gyroscopic coupling left out); every operating point
must lie under the speed-torque line ``tau_stall (1 - |omega| / omega_0)`` (all four
quadrants), and the RMS torque within the continuous rating (Sec. 8.9.1); a DC winding gives
``tau_stall = k_t V / R``, ``omega_0 = V / k_t``; a gear of efficiency ``eta`` asks
``tau / (eta G)`` driving and ``eta tau / G`` back-driven.  Numeric only.

>>> reflected_inertia(200e-6, 100.0)             # G**2 I_rotor, kg m^2
2.0
>>> motor = Motor(stall_torque=1.0, no_load_speed=400.0, continuous_torque=0.4)
>>> float(motor.torque_limit(200.0))              # half the no-load speed: half the stall torque
0.5
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from dynlab.dynamics.forward import inertia_and_bias
from dynlab.dynamics.inverse import inverse_dynamics
from dynlab.dynamics.trajectory import QuinticPath, as_reference, joint_array, quintic
from dynlab.model import checks
from dynlab.model.robot import Robot

#: The PUMA 560's gear ratios, joints 1-6 (sign dropped: it says which way the motor turns),
#: and its motors' rotor (armature) inertias in kg m^2, as published by Corke &
#: Armstrong-Helouvry, "A search for consensus among model parameters reported for the PUMA
#: 560 robot" (ICRA 1994), the set of Armstrong, Khatib & Burdick (1986) and others.
PUMA560_GEAR_RATIOS = (62.6111, 107.815, 53.7063, 76.0364, 71.923, 76.686)
PUMA560_ROTOR_INERTIAS = (200e-6, 200e-6, 200e-6, 33e-6, 33e-6, 33e-6)


def _joint(robot: Robot, joint) -> int:
    """The 1-based joint number ``joint`` of ``robot``, checked."""
    if not isinstance(robot, Robot):
        raise TypeError(f"robot must be a dynlab Robot, got {type(robot).__name__}")
    if robot.is_symbolic:
        raise TypeError(f"{robot.name}: has symbolic parameters; sizing a motor needs numbers")
    return checks.count(joint, "motor sizing", "joint", 1, robot.n)


def reflected_inertia(rotor_inertia: float, gear_ratio: float) -> float:
    """The rotor's inertia seen from the joint through a gearhead of ratio ``G``:
    ``G**2 I_rotor`` (Lynch & Park, Sec. 8.9.2).

    >>> round(reflected_inertia(200e-6, 107.815), 6)     # the PUMA 560's joint 2
    2.324815
    >>> reflected_inertia(200e-6, 0.0)
    Traceback (most recent call last):
    ...
    ValueError: gear_ratio must be a positive finite number, got 0.0
    >>> reflected_inertia(200e-6, 1e300)                 # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the reflected inertia G**2 I_rotor is beyond floating point (inf) for ...
    """
    G = checks.number(gear_ratio, "gear_ratio")
    inertia = checks.number(rotor_inertia, "rotor_inertia")
    return _finite(G * G * inertia, "the reflected inertia G**2 I_rotor", gear_ratio=G,
                   rotor_inertia=inertia)


def _finite(values, what: str, **arguments):
    """``values`` (a number or an array) when every entry is finite, else a ValueError saying
    that ``what`` is beyond floating point for these ``arguments`` (inputs that are finite and
    checked: an overflow)."""
    if not np.all(np.isfinite(values)):
        given = " and ".join(f"{name} = {value:g}" if isinstance(value, float) else
                             f"{name} = {value}" for name, value in arguments.items())
        found = values if np.ndim(values) == 0 else np.asarray(values)[~np.isfinite(values)][0]
        raise ValueError(f"{what} is beyond floating point ({found}) for {given}")
    return values


def apparent_inertia(robot: Robot, q, joint: int, *, rotor_inertia: float,
                     gear_ratio: float) -> float:
    """The inertia joint ``joint`` (1-based) feels at pose ``q``: the arm's own ``D_ii(q)``
    (Fu, Gonzalez & Lee, Eq. (3.2-31); Lynch & Park's ``M_ii``) plus the reflected rotor inertia
    ``G**2 I_rotor`` (Lynch & Park, Sec. 8.9.2).

    >>> from dynlab.model.robots import pendulum                # a rod: D = m a^2 / 3 = 1/12
    >>> round(apparent_inertia(pendulum(), [0.0], 1, rotor_inertia=1e-4, gear_ratio=10.0), 6)
    0.093333
    """
    i = _joint(robot, joint)
    q = joint_array(q, "q", robot.n)
    D, _ = inertia_and_bias(robot, q, np.zeros(robot.n))
    return float(D[i - 1, i - 1]) + reflected_inertia(rotor_inertia, gear_ratio)


@dataclass(frozen=True)
class Motor:
    """A DC motor's ratings (Lynch & Park, Sec. 8.9.1): stall torque (N m), no-load speed (rad/s),
    continuous torque (N m), rotor inertia (kg m^2); optionally ``k_t`` (N m/A) and ``R`` (ohm),
    which must agree (``tau_stall = k_t**2 omega_0 / R``), and the thermal time constant (s).

    >>> Motor(stall_torque=1.0, no_load_speed=400.0, continuous_torque=2.0)
    Traceback (most recent call last):
    ...
    ValueError: continuous_torque (2 N m) must not exceed the stall_torque (1 N m)
    >>> Motor(1.0, 400.0, 0.5, torque_constant=0.1, resistance=1.0)
    Traceback (most recent call last):
    ...
    ValueError: motor: the stall torque 1 N m is not k_t V / R = k_t^2 omega_0 / R = 4 N m
    """

    stall_torque: float
    no_load_speed: float
    continuous_torque: float
    rotor_inertia: float = 200e-6
    name: str = "motor"
    torque_constant: float | None = None
    resistance: float | None = None
    thermal_time_constant: float | None = None

    def __post_init__(self):
        for name in ("stall_torque", "no_load_speed", "continuous_torque", "rotor_inertia",
                     "torque_constant", "resistance", "thermal_time_constant"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, checks.number(getattr(self, name), name))
        if self.continuous_torque > self.stall_torque:
            raise ValueError(f"continuous_torque ({self.continuous_torque:g} N m) must not "
                             f"exceed the stall_torque ({self.stall_torque:g} N m)")
        if (self.torque_constant is None) != (self.resistance is None):
            raise ValueError(f"{self.name}: give both torque_constant and resistance, or "
                             f"neither")
        if self.torque_constant is not None:
            line = self.torque_constant**2 * self.no_load_speed / self.resistance
            if not math.isclose(line, self.stall_torque, rel_tol=1e-9):
                raise ValueError(f"{self.name}: the stall torque {self.stall_torque:g} N m is "
                                 f"not k_t V / R = k_t^2 omega_0 / R = {line:g} N m")

    @classmethod
    def from_winding(cls, torque_constant: float, resistance: float, voltage: float,
                     continuous_torque: float, rotor_inertia: float, *,
                     thermal_time_constant: float | None = None, name: str = "motor"):
        """The motor of torque constant ``k_t`` (N m/A), winding resistance ``R`` (ohm) on
        ``voltage`` ``V``: stall torque ``k_t V / R``, no-load speed ``V / k_t`` (Lynch & Park,
        Sec. 8.9.1: ``V = R i + k_t omega`` at steady speed with ``i = tau / k_t``).

        >>> m = Motor.from_winding(0.1, 2.0, 40.0, 0.5, 1e-4)
        >>> m.stall_torque, m.no_load_speed                  # 0.1 * 40 / 2, 40 / 0.1
        (2.0, 400.0)
        """
        k_t = checks.number(torque_constant, "torque_constant")
        R = checks.number(resistance, "resistance")
        V = checks.number(voltage, "voltage")
        return cls(k_t * V / R, V / k_t, continuous_torque, rotor_inertia, name, k_t, R,
                   thermal_time_constant)

    def copper_loss(self, torque):
        """The heat the winding makes at ``torque`` (N m, a number or an array), in W:
        ``R i**2`` with ``i = tau / k_t``.

        >>> float(Motor.from_winding(0.1, 2.0, 40.0, 0.5, 1e-4).copper_loss(0.5))   # 2 * 5^2
        50.0
        """
        if self.torque_constant is None:
            raise ValueError(f"{self.name}: its winding (torque_constant, resistance) is not "
                             f"given, so its heat is not known")
        return self.resistance * (np.asarray(torque, dtype=float) / self.torque_constant)**2

    def torque_limit(self, speed):
        """The largest torque the motor gives at ``speed`` (rad/s, either sign): the
        speed-torque line ``tau_stall (1 - |omega| / omega_0)``, zero beyond the no-load speed.

        >>> Motor(1.0, 400.0, 0.4).torque_limit([0.0, -100.0, 500.0]).tolist()
        [1.0, 0.75, 0.0]
        """
        speed = np.abs(np.asarray(speed, dtype=float))
        return self.stall_torque * np.clip(1.0 - speed / self.no_load_speed, 0.0, None)


def sample_move(move, samples: int = 201):
    """``(t, q, qd, qdd)`` of a rest-to-rest move (a :func:`dynlab.dynamics.trajectory.quintic`
    or a :class:`~dynlab.dynamics.trajectory.QuinticPath`) at ``samples`` equally spaced times
    from its start ``t0`` to its end ``t0 + T``, the joint arrays of shape ``(samples, n)``.

    >>> t, q, qd, qdd = sample_move(quintic([0.0], [1.0], 2.0), samples=5)
    >>> t.tolist(), q[:, 0].tolist()
    ([0.0, 0.5, 1.0, 1.5, 2.0], [0.0, 0.103515625, 0.5, 0.896484375, 1.0])
    """
    if not (hasattr(move, "t0") and hasattr(move, "T") and callable(move)):
        raise TypeError(f"move must be a point-to-point move with a start t0 and a duration T "
                        f"(dynlab.dynamics.trajectory.quintic), got {type(move).__name__}")
    samples = checks.count(samples, "sample_move", "samples", 3)
    t = move.t0 + np.linspace(0.0, move.T, samples)
    rows = [move(float(k)) for k in t]
    q, qd, qdd = (np.array([row[k] for row in rows], dtype=float) for k in range(3))
    return t, q, qd, qdd


def _move_arrays(robot: Robot, t, q, qd, qdd):
    """The sampled move checked: ``t`` increasing of length N, ``q``, ``qd``, ``qdd`` of shape
    ``(N, n)``, all finite."""
    t = np.asarray(t, dtype=float)
    if t.ndim != 1 or len(t) < 2 or not np.all(np.isfinite(t)) or np.any(np.diff(t) <= 0):
        raise ValueError(f"t must be increasing finite times (at least two), got shape "
                         f"{t.shape}")
    arrays = []
    for name, values in (("q", q), ("qd", qd), ("qdd", qdd)):
        values = np.asarray(values, dtype=float)
        if values.shape != (len(t), robot.n):
            raise ValueError(f"{name} must have shape ({len(t)}, {robot.n}) (one row per time, "
                             f"one column per joint of {robot.name}), got {values.shape}")
        if not np.all(np.isfinite(values)):
            raise ValueError(f"{name} must be finite")
        arrays.append(values)
    return (t, *arrays)


def joint_torques(robot: Robot, q, qd, qdd) -> np.ndarray:
    """The joint torques of the arm's inverse dynamics (Newton-Euler, compiled) at each row of
    ``q``, ``qd``, ``qdd`` (arrays of shape ``(N, n)``), as an ``(N, n)`` array.

    >>> from dynlab.model.robots import pendulum
    >>> joint_torques(pendulum(), [[0.0], [0.0]], [[0.0], [0.0]], [[0.0], [12.0]]).tolist()
    [[2.45155], [3.45155]]
    """
    q = np.asarray(q, dtype=float)
    t = np.arange(len(q)) if q.ndim == 2 and len(q) > 1 else np.arange(2)
    _, q, qd, qdd = _move_arrays(robot, t, q, qd, qdd)
    return np.array([inverse_dynamics(robot, *row) for row in zip(q, qd, qdd)])


def motor_side(joint_speed, joint_acceleration, joint_torque, *, gear_ratio: float,
               rotor_inertia: float, efficiency: float = 1.0):
    """``(omega_motor, tau_motor) = (G qd, tau / G + G I_rotor qdd)`` (Lynch & Park, Secs.
    8.9.1-8.9.2); with ``efficiency`` ``eta``: ``tau / (eta G)`` driving (``tau qd >= 0``),
    ``eta tau / G`` back-driven.

    >>> w, tau = motor_side([1.0], [10.0], [50.0], gear_ratio=100.0, rotor_inertia=200e-6)
    >>> w.tolist(), tau.tolist()                  # 50/100 + 100 * 200e-6 * 10
    ([100.0], [0.7])
    >>> motor_side([1.0, -1.0], [0.0, 0.0], [50.0, 50.0], gear_ratio=100.0,
    ...            rotor_inertia=200e-6, efficiency=0.8)[1].tolist()   # raising, lowering
    [0.625, 0.4]
    """
    G = checks.number(gear_ratio, "gear_ratio")
    inertia = checks.number(rotor_inertia, "rotor_inertia")
    eta = checks.number(efficiency, "efficiency")
    if eta > 1.0:
        raise ValueError(f"efficiency must be at most 1 (a gear loses power), got {efficiency!r}")
    arrays = [np.asarray(v, dtype=float) for v in (joint_speed, joint_acceleration, joint_torque)]
    if len({a.shape for a in arrays}) != 1:
        raise ValueError(f"joint_speed, joint_acceleration and joint_torque must have one "
                         f"shape, got {[a.shape for a in arrays]}")
    for name, values in zip(("joint_speed", "joint_acceleration", "joint_torque"), arrays):
        if not np.all(np.isfinite(values)):
            raise ValueError(f"{name} must be finite, got {values.tolist()}")
    qd, qdd, tau = arrays
    losses = np.where(tau * qd >= 0.0, 1.0 / eta, eta)     # driving or back-driven
    with np.errstate(over="ignore", invalid="ignore"):      # an overflow is said below
        speed, torque = G * qd, losses * tau / G + G * inertia * qdd
    return (_finite(speed, "the motor speed G qd", gear_ratio=G),
            _finite(torque, "the motor torque tau/G + G I_rotor qdd", gear_ratio=G,
                    rotor_inertia=inertia))


def rms(t, values) -> float:
    """The root mean square of ``values`` sampled at times ``t`` over ``[t[0], t[-1]]``,
    ``sqrt((1/T) integral values**2 dt)`` by the trapezoidal rule (Lynch & Park, Sec. 8.9.1's
    RMS torque).

    >>> rms([0.0, 1.0, 2.0], [3.0, 3.0, 3.0])
    3.0
    >>> round(rms(np.linspace(0, 2 * np.pi, 2001), np.sin(np.linspace(0, 2 * np.pi, 2001))), 6)
    0.707107
    """
    t = np.asarray(t, dtype=float)
    values = np.asarray(values, dtype=float)
    if t.ndim != 1 or values.shape != t.shape or len(t) < 2:
        raise ValueError(f"t and values must be vectors of one length (at least 2), got shapes "
                         f"{t.shape} and {values.shape}")
    if np.any(np.diff(t) <= 0):
        raise ValueError("t must be increasing")
    if not (np.all(np.isfinite(t)) and np.all(np.isfinite(values))):
        raise ValueError(f"t and values must be finite, got {t.tolist()} and {values.tolist()}")
    with np.errstate(over="ignore", invalid="ignore"):      # an overflow is said below
        mean_square = np.trapezoid(values**2, t) / (t[-1] - t[0])
    return _finite(float(math.sqrt(mean_square)), "the RMS of values",
                   **{"the largest |value|": float(np.abs(values).max())})


def heating_torque(t, torque, time_constant: float) -> float:
    """The constant torque that heats the winding as hot as the hottest instant of the cycle
    ``torque(t)`` repeated, in a first-order thermal model ``tau_th theta' = c tau(t)**2 - theta``:
    ``sqrt(max theta / c)`` of the periodic solution, between the RMS and the peak torque.

    >>> t = np.linspace(0.0, 4.0, 401)
    >>> burst = np.where(t < 1.0, 1.0, 0.0)             # 1 N m for 1 s in 4
    >>> [round(heating_torque(t, burst, tau), 2) for tau in (0.01, 4.0, 400.0)]
    [1.0, 0.59, 0.5]
    """
    rms(t, torque)                                   # the same checks, named
    time_constant = checks.number(time_constant, "time_constant", unit=" of seconds")
    t, u = np.asarray(t, dtype=float), np.asarray(torque, dtype=float)**2
    h, du = np.diff(t), np.diff(u)
    r = h / time_constant
    decay, rise = np.exp(-r), -np.expm1(-r)          # over a step: e^(-h/tau), 1 - e^(-h/tau)
    ramp = np.where(r < 1e-3, r / 2 - r * r / 6 + r**3 / 24,     # 1 - tau (1 - e^(-h/tau)) / h
                    1.0 - rise / np.maximum(r, 1e-3))
    settle = -math.expm1(-(t[-1] - t[0]) / time_constant)
    if settle == 0.0:
        raise ValueError(f"time_constant = {time_constant:g} s is beyond floating point "
                         f"against the cycle of {t[-1] - t[0]:g} s")

    def run(start):
        theta = np.empty(len(u))
        theta[0] = start
        for k in range(len(h)):                      # exact for u linear over the step
            theta[k + 1] = decay[k] * theta[k] + rise[k] * u[k] + ramp[k] * du[k]
        return theta

    theta = run(run(0.0)[-1] / settle)               # the periodic solution: theta(T) = theta(0)
    # inside a step theta = u - s_u tau + (theta_k - u_k + s_u tau) e^(-s/tau), s_u = du/h: it
    # turns where it meets u, at e^(-s/tau) = 1 - d, d = (theta_k - u_k) / (theta_k - u_k + s_u tau)
    slope, gap = du / h, theta[:-1] - u[:-1]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        d = gap / (gap + slope * time_constant)
        s = -time_constant * np.log1p(-d)
        turns = u[:-1] + slope * s
    inside = (d > 0) & (d < 1) & (s > 0) & (s < h)
    hottest = max(float(theta.max()), float(turns[inside].max(initial=0.0)))
    return math.sqrt(max(hottest, 0.0))


@dataclass
class Sizing:
    """A motor and gear on one joint over a move: ``t``, ``motor_speed``, ``motor_torque``,
    ``joint_torque``, ``rms_torque``, ``peak_torque``, ``continuous_ok`` (RMS within the rating),
    ``line_ok`` (every point under the speed-torque line) and ``fits`` (both)."""

    motor: Motor
    gear_ratio: float
    joint: int
    t: np.ndarray
    joint_speed: np.ndarray
    joint_torque: np.ndarray
    motor_speed: np.ndarray
    motor_torque: np.ndarray
    rms_torque: float = field(init=False)
    peak_torque: float = field(init=False)

    def __post_init__(self):
        self.rms_torque = rms(self.t, self.motor_torque)
        self.peak_torque = float(np.abs(self.motor_torque).max())

    @property
    def peak_speed(self) -> float:
        return float(np.abs(self.motor_speed).max())

    @property
    def line_margin(self) -> float:
        """The smallest ``limit - |tau|`` over the move (N m): negative where a point lies above
        the speed-torque line."""
        return float((self.motor.torque_limit(self.motor_speed)
                      - np.abs(self.motor_torque)).min())

    @property
    def line_ok(self) -> bool:
        return self.line_margin >= 0.0

    @property
    def continuous_ok(self) -> bool:
        return self.rms_torque <= self.motor.continuous_torque

    @property
    def fits(self) -> bool:
        return self.line_ok and self.continuous_ok

    def verdict(self) -> str:
        """One sentence: does the motor do the move, and if not, why not."""
        if self.fits:
            return "the motor does the move"
        reasons = []
        if not self.line_ok:
            reasons.append("some operating points lie above the speed-torque line")
        if not self.continuous_ok:
            reasons.append(f"the RMS torque {self.rms_torque:.3f} N m exceeds the continuous "
                           f"rating {self.motor.continuous_torque:g} N m")
        return "the motor does not do the move: " + " and ".join(reasons)


def size_motor(robot: Robot, move, joint: int, motor: Motor, gear_ratio: float, *,
               samples: int = 201, torques=None, efficiency: float = 1.0) -> Sizing:
    """``motor`` with a gear of ``gear_ratio`` on joint ``joint`` (1-based) of ``robot`` for
    ``move`` (a quintic or a :class:`~dynlab.dynamics.trajectory.QuinticPath`): operating points at
    ``samples`` times, RMS and peak torques and the verdict (:class:`Sizing`); ``torques`` skips the
    inverse dynamics.

    >>> from dynlab.model.robots import pendulum
    >>> swing = quintic([0.0], [1.0], 1.0)
    >>> sized = size_motor(pendulum(), swing, 1, Motor(0.2, 500.0, 0.05, 1e-4), 20.0)
    >>> round(sized.rms_torque, 4), round(sized.peak_torque, 4), sized.fits
    (0.1102, 0.1579, False)
    """
    i = _joint(robot, joint)
    if not isinstance(motor, Motor):
        raise TypeError(f"motor must be a Motor, got {type(motor).__name__}")
    G = checks.number(gear_ratio, "gear_ratio")
    if getattr(move, "n", robot.n) != robot.n:
        raise ValueError(f"the move is for {move.n} joints; {robot.name} has {robot.n}")
    as_reference(move, robot.n)                 # a move of this arm's joints, or a clear error
    t, q, qd, qdd = sample_move(move, samples)
    if torques is None:
        torques = joint_torques(robot, q, qd, qdd)
    torques = np.asarray(torques, dtype=float)
    if torques.shape != q.shape:
        raise ValueError(f"torques must have shape {q.shape}, got {torques.shape}")
    if not np.all(np.isfinite(torques)):
        raise ValueError(f"torques must be finite (the joint torques of the move, "
                         f"joint_torques), got {torques[~np.isfinite(torques)][0]}")
    speed, torque = motor_side(qd[:, i - 1], qdd[:, i - 1], torques[:, i - 1], gear_ratio=G,
                               rotor_inertia=motor.rotor_inertia, efficiency=efficiency)
    return Sizing(motor, G, i, t, qd[:, i - 1], torques[:, i - 1], speed, torque)


# -- the PUMA 560's shoulder: a candidate motor and its move ---------------------------------------

#: A candidate motor for the PUMA 560's shoulder (joint 2), for the chapter and its exercises:
#: the rotor inertia is the published one (:data:`PUMA560_ROTOR_INERTIAS`); the stall torque,
#: no-load speed, continuous rating, winding (48 V: k_t = 48 V / 500 rad/s, R = k_t^2 omega_0 /
#: tau_stall) and thermal time constant are ours, of the size of a motor for that joint, not
#: Unimation's data.
CANDIDATE_MOTOR = Motor(stall_torque=1.2, no_load_speed=500.0, continuous_torque=0.45,
                        rotor_inertia=PUMA560_ROTOR_INERTIAS[1], name="candidate motor",
                        torque_constant=0.096, resistance=3.84, thermal_time_constant=30.0)

#: A small catalogue of real motors for the shoulder: two of maxon's brushed DC motors with
#: ironless winding, each with its 48 V winding, as maxon's data sheets print them (torque
#: constant, terminal resistance, nominal voltage, nominal torque = "max. continuous torque",
#: rotor inertia, "thermal time constant winding"): the RE 40 (Ø40 mm, graphite brushes, 150 W,
#: order number 148867; 60.3 mN m/A, 1.13 ohm, 187 mN m, 137 g cm^2, 41.5 s; the whole motor's
#: thermal time constant 809 s) and the RE 65 (Ø65 mm, graphite brushes, 250 W, order number
#: 353297; 123 mN m/A, 0.365 ohm, 800 mN m, 1340 g cm^2, 123 s; the whole motor's 1060 s).
#: maxon revises these figures between catalogue editions. Checked against copies found online:
#: every RE 40 figure above, with its stall torque 2560 mN m and no-load speed 7590 rpm, is on a
#: copy of its data sheet ("values at nominal voltage"; that copy does not print the order
#: number); of the RE 65 only the winding (123 mN m/A, 0.365 ohm) was found again, the other
#: figures and its stall torque 16100 mN m and no-load speed 3670 rpm are as first transcribed,
#: not re-checked. The line follows from the winding (k_t V / R, V / k_t); the printed stall
#: torques lie within 0.5 % of it, the no-load speeds 0.15 % (RE 40) and 1.5 % (RE 65) below it,
#: for the friction the no-load current overcomes (the RE 65's 1.5 % would need some 2 A of it).
MOTOR_CATALOGUE = (
    Motor.from_winding(0.0603, 1.13, 48.0, 0.187, 137e-7, thermal_time_constant=41.5,
                       name="maxon RE 40, 48 V"),
    Motor.from_winding(0.123, 0.365, 48.0, 0.800, 1340e-7, thermal_time_constant=123.0,
                       name="maxon RE 65, 48 V"),
)

#: The pose the shoulder moves from with the other joints held: the PUMA 560 stretched out
#: (the literature's ``qs``, joint 3 at -90 degrees) with the upper arm 45 degrees below the
#: horizontal; the move raises joint 2 by the dashboard's amplitude.
SHOULDER_START = (0.0, -math.pi / 4, -math.pi / 2, 0.0, 0.0, 0.0)


def shoulder_move(amplitude: float, duration: float, start=SHOULDER_START):
    """The quintic rest-to-rest move raising joint 2 of the PUMA 560 by ``amplitude`` radians in
    ``duration`` seconds from ``start``, the other joints held
    (:func:`dynlab.dynamics.trajectory.quintic`).

    >>> move = shoulder_move(math.pi / 2, 1.5)
    >>> [round(math.degrees(v), 1) for v in move(1.5)[0][:3]]
    [0.0, 45.0, -90.0]
    """
    start = joint_array(start, "start", 6)
    if not checks.real_number(amplitude) or not math.isfinite(amplitude):
        raise TypeError(f"amplitude must be a number of radians, got {amplitude!r}")
    goal = start.copy()
    goal[1] += float(amplitude)
    return quintic(start, goal, checks.number(duration, "duration"))


def shoulder_cycle(amplitude: float, duration: float, hold: float = 1.0, rest: float = 1.0,
                   start=SHOULDER_START) -> QuinticPath:
    """A cycle that can repeat: :func:`shoulder_move` raising joint 2 by ``amplitude`` radians
    in ``duration`` s, a ``hold`` of that many seconds at the goal, the same move back down,
    and a ``rest`` at the start (a hold or rest of 0 s is left out).

    >>> cycle = shoulder_cycle(math.pi / 2, 1.5, hold=1.0, rest=2.0)
    >>> cycle.T, [round(math.degrees(cycle(t)[0][1])) for t in (0.0, 2.0, 3.25, 5.0)]
    (6.0, [-45, 45, 0, -45])
    """
    up = shoulder_move(amplitude, duration, start)
    legs = [(up.q1, up.T), (up.q1, checks.number(hold, "hold", positive=False)),
            (up.q0, up.T), (up.q0, checks.number(rest, "rest", positive=False))]
    return QuinticPath(up.q0, [leg for leg in legs if leg[1] > 0])
