"""Sizing a joint's motor and gearhead: reflected and apparent inertia, the speed-torque line,
and the RMS and peak torques of a move (Lynch & Park, *Modern Robotics*, Sec. 8.9 "Actuation,
Gearing, and Friction").

A motor drives joint ``i`` through a gearhead of ratio ``G`` (``G > 0``; the motor turns ``G``
times as fast as the joint).  An ideal gearhead (no losses, no backlash) multiplies torque by
``G`` and divides speed by ``G`` (Sec. 8.9.1)::

    omega_motor = G qd_i,        tau_joint = G tau_gear,

and the rotor, spinning ``G`` times as fast as the joint, stores ``G**2`` times the kinetic
energy it would at the joint's speed: seen from the joint, its inertia is the **reflected
inertia** ``G**2 I_rotor`` (Sec. 8.9.2).  Added to the arm's own ``D_ii(q)`` it gives the
**apparent inertia** of the joint, ``D_ii(q) + G**2 I_rotor`` (Lynch & Park's ``M`` is
Fu, Gonzalez & Lee's ``D``; the rotors' gyroscopic coupling, which Sec. 8.9.3 keeps, is left
out here).  The motor must therefore give

    tau_motor = tau_i / G + G I_rotor qdd_i,

``tau_i`` the joint torque of the arm's inverse dynamics.  A DC motor's torque falls along its
**speed-torque line** from the stall torque at rest to zero at the no-load speed (Sec. 8.9.1),

    |tau_motor| <= tau_stall (1 - |omega_motor| / omega_0),

every operating point of a move must lie under it (the intermittent limit; this module applies
the line in all four quadrants, the cautious reading: a motor braking against its motion can do
more), and the **RMS torque** over the move,

    tau_rms = sqrt( (1/T) integral_0^T tau_motor(t)**2 dt ),

must not exceed the motor's continuous (rated) torque, or the windings overheat (Sec. 8.9.1).
The peak torque ``max |tau_motor|`` is the intermittent demand.

Everything here is numeric (NumPy floats, the arm's compiled inverse dynamics): no SymPy object
is built, so a dashboard slider recomputes a move in milliseconds.

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

from dynlab.model import checks
from dynlab.dynamics.inverse import inverse_dynamics
from dynlab.dynamics.forward import inertia_and_bias
from dynlab.model.robot import Robot
from dynlab.dynamics.trajectory import as_reference, joint_array, quintic

#: The PUMA 560's gear ratios, joints 1-6 (sign dropped: it says which way the motor turns),
#: and its motors' rotor (armature) inertias in kg m^2, as published by Corke &
#: Armstrong-Helouvry, "A search for consensus among model parameters reported for the PUMA
#: 560 robot" (ICRA 1994), the set of Armstrong, Khatib & Burdick (1986) and others.
PUMA560_GEAR_RATIOS = (62.6111, 107.815, 53.7063, 76.0364, 71.923, 76.686)
PUMA560_ROTOR_INERTIAS = (200e-6, 200e-6, 200e-6, 33e-6, 33e-6, 33e-6)


def _positive(value, name: str) -> float:
    """``value`` as a positive finite float, else an error naming ``name``."""
    if not checks.real_number(value):
        raise TypeError(f"{name} must be a positive number, got {type(value).__name__} "
                        f"{value!r}")
    value = float(value)
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    return value


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
    ValueError: gear_ratio must be a positive number, got 0.0
    """
    return _positive(gear_ratio, "gear_ratio") ** 2 * _positive(rotor_inertia, "rotor_inertia")


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
    """A DC motor's ratings: stall torque (N m), no-load speed (rad/s), continuous (rated)
    torque (N m) and rotor inertia (kg m^2); Lynch & Park, Sec. 8.9.1.

    >>> Motor(stall_torque=1.0, no_load_speed=400.0, continuous_torque=2.0)
    Traceback (most recent call last):
    ...
    ValueError: continuous_torque (2 N m) must not exceed the stall_torque (1 N m)
    """

    stall_torque: float
    no_load_speed: float
    continuous_torque: float
    rotor_inertia: float = 200e-6
    name: str = "motor"

    def __post_init__(self):
        for name in ("stall_torque", "no_load_speed", "continuous_torque", "rotor_inertia"):
            object.__setattr__(self, name, _positive(getattr(self, name), name))
        if self.continuous_torque > self.stall_torque:
            raise ValueError(f"continuous_torque ({self.continuous_torque:g} N m) must not "
                             f"exceed the stall_torque ({self.stall_torque:g} N m)")

    def torque_limit(self, speed):
        """The largest torque the motor gives at ``speed`` (rad/s, either sign): the
        speed-torque line ``tau_stall (1 - |omega| / omega_0)``, zero beyond the no-load speed.

        >>> Motor(1.0, 400.0, 0.4).torque_limit([0.0, -100.0, 500.0]).tolist()
        [1.0, 0.75, 0.0]
        """
        speed = np.abs(np.asarray(speed, dtype=float))
        return self.stall_torque * np.clip(1.0 - speed / self.no_load_speed, 0.0, None)


def sample_move(move, samples: int = 201):
    """``(t, q, qd, qdd)`` of a rest-to-rest move (a :func:`dynlab.dynamics.trajectory.quintic`) at
    ``samples`` equally spaced times from its start ``t0`` to its end ``t0 + T``, the joint
    arrays of shape ``(samples, n)``.

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
               rotor_inertia: float):
    """``(omega_motor, tau_motor)``: the motor's speed ``G qd`` and torque
    ``tau / G + G I_rotor qdd`` (Lynch & Park, Sec. 8.9.1-8.9.2) for one joint's speed,
    acceleration and torque (numbers or equal-length arrays).

    >>> w, tau = motor_side([1.0], [10.0], [50.0], gear_ratio=100.0, rotor_inertia=200e-6)
    >>> w.tolist(), tau.tolist()                  # 50/100 + 100 * 200e-6 * 10
    ([100.0], [0.7])
    """
    G = _positive(gear_ratio, "gear_ratio")
    inertia = _positive(rotor_inertia, "rotor_inertia")
    arrays = [np.asarray(v, dtype=float) for v in (joint_speed, joint_acceleration, joint_torque)]
    if len({a.shape for a in arrays}) != 1:
        raise ValueError(f"joint_speed, joint_acceleration and joint_torque must have one "
                         f"shape, got {[a.shape for a in arrays]}")
    qd, qdd, tau = arrays
    return G * qd, tau / G + G * inertia * qdd


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
    return float(math.sqrt(np.trapezoid(values**2, t) / (t[-1] - t[0])))


@dataclass
class Sizing:
    """A motor and gearhead on one joint over a move: the operating points and the verdict.

    ``t`` the sample times, ``motor_speed`` and ``motor_torque`` the operating points (rad/s,
    N m), ``joint_torque`` the arm's torque at the joint; ``rms_torque`` and ``peak_torque`` the
    motor's RMS and largest torque; ``continuous_ok`` whether the RMS torque is within the
    continuous rating, ``line_ok`` whether every operating point lies under the speed-torque
    line, ``fits`` both.
    """

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
               samples: int = 201, torques=None) -> Sizing:
    """Put ``motor`` with a gearhead of ``gear_ratio`` on joint ``joint`` (1-based) of
    ``robot`` for ``move`` (a :func:`dynlab.dynamics.trajectory.quintic` of all the joints): the
    operating points ``(G qd, tau/G + G I_rotor qdd)`` at ``samples`` times, their RMS and
    peak torques and the verdict (:class:`Sizing`).  ``torques`` (the ``(samples, n)`` joint
    torques of the move, from :func:`joint_torques`) skips the inverse dynamics when only the
    motor or the gear ratio changes.

    >>> from dynlab.model.robots import pendulum
    >>> swing = quintic([0.0], [1.0], 1.0)
    >>> sized = size_motor(pendulum(), swing, 1, Motor(0.2, 500.0, 0.05, 1e-4), 20.0)
    >>> round(sized.rms_torque, 4), round(sized.peak_torque, 4), sized.fits
    (0.1102, 0.1579, False)
    """
    i = _joint(robot, joint)
    if not isinstance(motor, Motor):
        raise TypeError(f"motor must be a Motor, got {type(motor).__name__}")
    G = _positive(gear_ratio, "gear_ratio")
    if getattr(move, "n", robot.n) != robot.n:
        raise ValueError(f"the move is for {move.n} joints; {robot.name} has {robot.n}")
    as_reference(move, robot.n)                 # a move of this arm's joints, or a clear error
    t, q, qd, qdd = sample_move(move, samples)
    if torques is None:
        torques = joint_torques(robot, q, qd, qdd)
    torques = np.asarray(torques, dtype=float)
    if torques.shape != q.shape:
        raise ValueError(f"torques must have shape {q.shape}, got {torques.shape}")
    speed, torque = motor_side(qd[:, i - 1], qdd[:, i - 1], torques[:, i - 1], gear_ratio=G,
                               rotor_inertia=motor.rotor_inertia)
    return Sizing(motor, G, i, t, qd[:, i - 1], torques[:, i - 1], speed, torque)


# -- the PUMA 560's shoulder: a candidate motor and a dashboard -------------------------------

#: A candidate motor for the PUMA 560's shoulder (joint 2), for the chapter and its exercises:
#: the rotor inertia is the published one (:data:`PUMA560_ROTOR_INERTIAS`); the stall torque,
#: no-load speed and continuous rating are ours, of the size of a motor for that joint, not
#: Unimation's data.
CANDIDATE_MOTOR = Motor(stall_torque=1.2, no_load_speed=500.0, continuous_torque=0.45,
                        rotor_inertia=PUMA560_ROTOR_INERTIAS[1], name="candidate motor")

#: The pose the shoulder moves from with the other joints held: the PUMA 560 stretched out
#: (the literature's ``qs``, joint 3 at -90 degrees) with the upper arm 45 degrees below the
#: horizontal; the move raises joint 2 by the dashboard's amplitude.
SHOULDER_START = (0.0, -math.pi / 4, -math.pi / 2, 0.0, 0.0, 0.0)


def shoulder_move(amplitude: float, duration: float, start=SHOULDER_START):
    """The quintic rest-to-rest move raising joint 2 of the PUMA 560 by ``amplitude`` radians in
    ``duration`` seconds from ``start``, the other joints held (:func:`dynlab.dynamics.trajectory.quintic`).

    >>> move = shoulder_move(math.pi / 2, 1.5)
    >>> [round(math.degrees(v), 1) for v in move(1.5)[0][:3]]
    [0.0, 45.0, -90.0]
    """
    start = joint_array(start, "start", 6)
    if not checks.real_number(amplitude) or not math.isfinite(amplitude):
        raise TypeError(f"amplitude must be a number of radians, got {amplitude!r}")
    goal = start.copy()
    goal[1] += float(amplitude)
    return quintic(start, goal, _positive(duration, "duration"))


class MotorSizingDashboard:
    """Sizing the PUMA 560's shoulder motor (joint 2) for a move: sliders for the move's
    duration and amplitude (a quintic raising joint 2 from :data:`SHOULDER_START`) and for the
    gear ratio; the figure shows the torque-speed plane (the motor's speed-torque line, its
    continuous rating, the move's operating points) and the RMS and peak torques against the
    ratings, its title the verdict.

    Each slider move makes one run and one frame: the inverse dynamics only when the move
    changes (a new gear ratio re-scales the same joint torques), then one PNG rendered with Agg
    (so a notebook stored without widget state still shows it).  ``set(...)`` changes the
    controls as a reader would; a value outside a slider's range is refused, not clamped.
    ``sizing`` is the :class:`Sizing` shown.

    >>> board = MotorSizingDashboard(render=False)
    >>> board.sizing.fits, round(board.sizing.rms_torque, 3)
    (True, 0.385)
    >>> board.set(duration=1.0).sizing.line_ok          # faster: above the speed-torque line
    False
    """

    #: the range and step of each slider, as a reader sets it
    RANGES = {"duration": (0.5, 3.0, 0.1), "amplitude": (10.0, 120.0, 5.0),
              "gear_ratio": (20.0, 300.0, 0.005)}
    LABELS = {"duration": "duration T (s)", "amplitude": "amplitude (deg)",
              "gear_ratio": "gear ratio G"}

    def __init__(self, robot: Robot | None = None, *, motor: Motor = CANDIDATE_MOTOR,
                 duration: float = 1.5, amplitude: float = 90.0,
                 gear_ratio: float = PUMA560_GEAR_RATIOS[1], samples: int = 201,
                 render: bool = True):
        import ipywidgets as widgets
        from dynlab.model.robots import puma560
        self.robot = puma560() if robot is None else robot
        _joint(self.robot, 2)
        if self.robot.n != 6:
            raise ValueError(f"the dashboard moves the PUMA 560's six joints; {self.robot.name} "
                             f"has {self.robot.n}")
        if not isinstance(motor, Motor):
            raise TypeError(f"motor must be a Motor, got {type(motor).__name__}")
        self.motor = motor
        self.render = checks.flag(render, "MotorSizingDashboard", "render")
        self.samples = checks.count(samples, "MotorSizingDashboard", "samples", 3)
        wanted = {name: self._checked(name, value) for name, value in
                  (("duration", duration), ("amplitude", amplitude), ("gear_ratio", gear_ratio))}
        self.controls = {}
        for name, value in wanted.items():
            low, high, step = self.RANGES[name]
            decimals = max(0, -math.floor(math.log10(step) + 1e-9))
            control = widgets.FloatSlider(
                value=value, min=low, max=high, step=step, description=self.LABELS[name],
                readout_format=f".{decimals}f", continuous_update=False,
                style={"description_width": "initial"}, layout=widgets.Layout(width="330px"))
            control.add_class("dynlab-slider")
            control.add_class(f"dynlab-param-{name}")
            self.controls[name] = control
        self.image = widgets.Image(format="png", layout=widgets.Layout(width="100%",
                                                                        max_width="820px"))
        self.image.add_class("dynlab-figure")
        self.readout = widgets.HTML()
        self.readout.add_class("dynlab-torques")
        self.status = widgets.HTML()
        self.status.add_class("dynlab-status")
        self.widget = widgets.VBox([widgets.HBox(list(self.controls.values())), self.image,
                                    self.readout, self.status])
        self.widget.add_class("dynlab-dashboard")
        self._torques = {}                   # (duration, amplitude) -> the move's joint torques
        self._figure = None                  # (figure, plane's artists, bars' artists, title)
        self._quiet = False
        self._update()
        for control in self.controls.values():
            control.observe(self._changed, names="value")

    def _checked(self, name: str, value) -> float:
        if name not in self.RANGES:
            raise ValueError(f"MotorSizingDashboard: no control {name!r}; the controls are "
                             f"{', '.join(self.RANGES)}")
        low, high, _ = self.RANGES[name]
        if not checks.real_number(value):
            raise TypeError(f"MotorSizingDashboard: {name} must be a number from {low:g} to "
                            f"{high:g}, got {type(value).__name__} {value!r}")
        if not low <= value <= high:                  # (NaN is in no range)
            raise ValueError(f"MotorSizingDashboard: {name} must be from {low:g} to {high:g} "
                             f"(the slider's range), got {value!r}")
        return float(value)

    def set(self, **values) -> "MotorSizingDashboard":
        """Change controls by name (``duration``, ``amplitude``, ``gear_ratio``); every value is
        checked before any control moves, and the figure is made once."""
        checked = {name: self._checked(name, value) for name, value in values.items()}
        before = {name: control.value for name, control in self.controls.items()}
        self._quiet = True
        try:
            for name, value in checked.items():
                self.controls[name].value = value
            self._update(raising=True)
        except BaseException:
            for name, value in before.items():
                self.controls[name].value = value
            raise
        finally:
            self._quiet = False
        return self

    def _changed(self, change) -> None:
        if not self._quiet:
            self._update()

    @property
    def move(self):
        """The move the sliders describe."""
        values = {name: control.value for name, control in self.controls.items()}
        return shoulder_move(math.radians(values["amplitude"]), values["duration"])

    def _update(self, raising: bool = False) -> None:
        try:
            values = {name: control.value for name, control in self.controls.items()}
            key = (values["duration"], values["amplitude"])
            move = self.move
            if key not in self._torques:
                _, q, qd, qdd = sample_move(move, self.samples)
                self._torques = {key: joint_torques(self.robot, q, qd, qdd)}
            self.sizing = size_motor(self.robot, move, 2, self.motor, values["gear_ratio"],
                                     samples=self.samples, torques=self._torques[key])
            if self.render:
                self.image.value = self._png()
            self.readout.value = self._table()
            self.status.value = f"<span>ok: {self.sizing.verdict()}</span>"
        except Exception as error:                # a slider never raises into the notebook
            if raising:
                raise
            self.status.value = f"<span>error: {type(error).__name__}: {error}</span>"

    def _table(self) -> str:
        """The readout: each demand of the move against the motor's rating.  Value cells are
        ``<td class="dynlab-value" data-part="rms" data-value="0.385...">0.385</td>`` (parts
        ``rms``, ``peak``, ``speed``, ``margin``), the text rounded to 3 decimals (the speed to
        1)."""
        sizing, motor = self.sizing, self.motor
        rows = (("rms", "RMS torque (N m)", sizing.rms_torque, 3,
                 f"continuous rating {motor.continuous_torque:g}", sizing.continuous_ok),
                ("peak", "peak torque (N m)", sizing.peak_torque, 3,
                 f"stall torque {motor.stall_torque:g}", sizing.peak_torque <= motor.stall_torque),
                ("speed", "peak speed (rad/s)", sizing.peak_speed, 1,
                 f"no-load speed {motor.no_load_speed:g}",
                 sizing.peak_speed <= motor.no_load_speed),
                ("margin", "least margin under the line (N m)", sizing.line_margin, 3,
                 "must not be negative", sizing.line_ok))
        cells = "".join(
            f'<tr><td>{label}</td><td class="dynlab-value" data-part="{part}" '
            f'data-value="{value!r}">{value:.{digits}f}</td><td>{limit}</td>'
            f'<td>{"ok" if ok else "<b>over</b>"}</td></tr>'
            for part, label, value, digits, limit, ok in rows)
        return ('<table style="font-size: 90%"><tr><th></th><th>the move</th>'
                f'<th>the motor</th><th></th></tr>{cells}</table>')

    def _png(self) -> bytes:
        """The figure of the sizing shown, as a PNG.  The figure is made once; a frame moves
        its artists (the move's curve, the bars, the title) and, while the axes' limits stay,
        draws only those over the kept background (blitting), then encodes the pixels."""
        import io

        from PIL import Image
        if self._figure is None:
            self._make_figure()
        figure, plane, bars, title = self._figure
        update_torque_speed_plane(plane, self.sizing)
        update_ratings(bars, self.sizing)
        title.set_text(f"G = {self.sizing.gear_ratio:g}: {self.sizing.verdict()}")
        title.set_color("black" if self.sizing.fits else "firebrick")
        limits = (plane["ax"].get_xlim(), plane["ax"].get_ylim(), bars["ax"].get_ylim())
        canvas = figure.canvas
        if limits != self._limits:                   # new axes: draw all but the moving parts
            canvas.draw()
            self._background, self._limits = canvas.copy_from_bbox(figure.bbox), limits
        else:
            canvas.restore_region(self._background)
        for artist in self._moving:
            artist.axes.draw_artist(artist) if artist.axes else figure.draw_artist(artist)
        image = Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba())
        buffer = io.BytesIO()
        image.convert("RGB").save(buffer, format="png", compress_level=1)
        return buffer.getvalue()

    def _make_figure(self) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        figure = Figure(figsize=(10, 3.6), dpi=72)
        FigureCanvasAgg(figure)
        plane, bars = figure.subplots(1, 2, gridspec_kw={"width_ratios": (2.2, 1)})
        figure.subplots_adjust(left=0.07, right=0.98, bottom=0.14, top=0.88, wspace=0.22)
        self._figure = (figure, draw_torque_speed_plane(plane, self.sizing),
                        draw_ratings(bars, self.sizing), figure.suptitle("", fontsize=10))
        self._moving = [self._figure[1]["move"], self._figure[1]["over"],
                        *self._figure[2]["bars"], *self._figure[2]["labels"], self._figure[3]]
        for artist in self._moving:
            artist.set_animated(True)                # left out of the background
        self._limits = self._background = None

    def _repr_mimebundle_(self, **kwargs):
        """The live widget, with the figure as a PNG and a one-line text as fallbacks."""
        import base64
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = repr(self)
        if self.render:
            bundle["image/png"] = base64.b64encode(bytes(self.image.value)).decode("ascii")
        return bundle

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={control.value:g}" for name, control in self.controls.items())
        return (f"MotorSizingDashboard({values}: RMS {self.sizing.rms_torque:.3f} N m, peak "
                f"{self.sizing.peak_torque:.3f} N m; {self.sizing.verdict()})")


def draw_torque_speed_plane(ax, sizing: Sizing) -> dict:
    """Draw the motor's speed-torque line (all four quadrants), its continuous rating and the
    move's operating points ``(omega_motor, tau_motor)`` on the Matplotlib axes ``ax``; points
    above the line are marked in red.  Returns the artists :func:`update_torque_speed_plane`
    moves to show another sizing with the same motor."""
    motor = sizing.motor
    w0, ts, tc = motor.no_load_speed, motor.stall_torque, motor.continuous_torque
    ax.fill([w0, 0, -w0, 0], [0, ts, 0, -ts], color="0.92", label="under the speed-torque line")
    ax.plot([w0, 0, -w0, 0, w0], [0, ts, 0, -ts, 0], color="0.4", lw=1)
    ax.axhspan(-tc, tc, color="tab:green", alpha=0.12, label="continuous rating")
    (move,) = ax.plot([], [], color="tab:blue", lw=1.8, label="the move")
    (over,) = ax.plot([], [], "o", color="firebrick", ms=3, label="above the line")
    ax.axhline(0.0, color="0.6", lw=0.6)
    ax.axvline(0.0, color="0.6", lw=0.6)
    ax.set_xlabel("motor speed ω (rad/s)")
    ax.set_ylabel("motor torque τ (N m)")
    ax.legend(loc="lower left", fontsize=8)
    artists = {"ax": ax, "move": move, "over": over}
    update_torque_speed_plane(artists, sizing)
    return artists


def update_torque_speed_plane(artists: dict, sizing: Sizing) -> None:
    """Show ``sizing``'s operating points on a plane drawn by :func:`draw_torque_speed_plane`."""
    motor, ax = sizing.motor, artists["ax"]
    artists["move"].set_data(sizing.motor_speed, sizing.motor_torque)
    over = np.abs(sizing.motor_torque) > motor.torque_limit(sizing.motor_speed)
    artists["over"].set_data(sizing.motor_speed[over], sizing.motor_torque[over])
    reach = max(motor.no_load_speed, sizing.peak_speed) * 1.08
    height = 1.15 * max(motor.stall_torque, sizing.peak_torque)
    ax.set_xlim(-reach, reach)
    ax.set_ylim(-height, height)


def draw_ratings(ax, sizing: Sizing) -> dict:
    """Bars of the move's RMS and peak motor torques against the continuous rating and the
    stall torque on the Matplotlib axes ``ax``.  Returns the artists :func:`update_ratings`
    moves to show another sizing with the same motor."""
    motor = sizing.motor
    limits = (motor.continuous_torque, motor.stall_torque)
    bars = ax.bar([0, 1], [0.0, 0.0], width=0.5)
    for x, limit, name in zip((0, 1), limits, ("continuous", "stall")):
        ax.plot([x - 0.35, x + 0.35], [limit, limit], color="black", lw=1.5)
        ax.annotate(f"{name} {limit:g}", (x, limit), xytext=(0, 3),
                    textcoords="offset points", ha="center", fontsize=8)
    labels = [ax.text(x, 0.0, "", ha="center", color="white", fontsize=9) for x in (0, 1)]
    ax.set_xticks([0, 1], ["RMS torque", "peak torque"])
    ax.set_ylabel("N m")
    artists = {"ax": ax, "bars": bars, "labels": labels}
    update_ratings(artists, sizing)
    return artists


def update_ratings(artists: dict, sizing: Sizing) -> None:
    """Show ``sizing``'s RMS and peak torques on bars drawn by :func:`draw_ratings`."""
    motor = sizing.motor
    values = (sizing.rms_torque, sizing.peak_torque)
    limits = (motor.continuous_torque, motor.stall_torque)
    for bar, label, value, limit in zip(artists["bars"], artists["labels"], values, limits):
        bar.set_height(value)
        bar.set_color("tab:blue" if value <= limit else "firebrick")
        label.set_text(f"{value:.3f}")
        label.set_position((label.get_position()[0], value / 2))
    artists["ax"].set_ylim(0, 1.2 * max(*values, *limits))
