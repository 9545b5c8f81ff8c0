"""Chapter 11's dashboard: sizing the PUMA 560's shoulder motor (joint 2) for a cycle, out and
back, with a payload at the flange (:class:`MotorSizingDashboard`), and its two figures, the
torque-speed plane (:func:`draw_torque_speed_plane`) and the RMS and peak torques against the
ratings (:func:`draw_ratings`).  The numbers are those of :mod:`dynlab.dynamics.motor_sizing`
(Lynch & Park, Sec. 8.9).
"""

from __future__ import annotations

import math

import numpy as np

from dynlab.dynamics.motor_sizing import (
    CANDIDATE_MOTOR,
    PUMA560_GEAR_RATIOS,
    Motor,
    Sizing,
    joint_torques,
    sample_move,
    shoulder_cycle,
    size_motor,
)
from dynlab.model import checks
from dynlab.model.edits import with_payload
from dynlab.model.robot import Robot
from dynlab.model.robots.puma import puma560
from dynlab.teaching.dashboards.common import Blitter, NamedControls, figure_readout_status


class MotorSizingDashboard(NamedControls):
    """Sizing the PUMA 560's shoulder motor for a repeating cycle
    (:func:`~dynlab.dynamics.motor_sizing.shoulder_cycle`): sliders for the moves, a payload, the
    gear ratio and efficiency; the torque-speed plane and the RMS and peak torques against the
    ratings, the verdict in the title (``sizing``).  ``set(...)`` moves the controls.

    >>> board = MotorSizingDashboard(render=False)
    >>> board.sizing.fits, round(board.sizing.rms_torque, 3)
    (True, 0.354)
    >>> board.set(payload=2.5).sizing.fits              # 2.5 kg: too much for this motor
    False
    """

    #: the range and step of each slider, as a reader sets it
    RANGES = {"duration": (0.5, 3.0, 0.1), "amplitude": (10.0, 120.0, 5.0),
              "payload": (0.0, 5.0, 0.1), "gear_ratio": (20.0, 300.0, 0.005),
              "efficiency": (0.5, 1.0, 0.01)}
    LABELS = {"duration": "raise and lower in T (s)", "amplitude": "amplitude (deg)",
              "payload": "payload (kg)", "gear_ratio": "gear ratio G",
              "efficiency": "gear efficiency η"}
    #: the cycle's hold at the top and rest at the bottom, s
    HOLD, REST = 1.0, 1.0

    def __init__(self, robot: Robot | None = None, *, motor: Motor = CANDIDATE_MOTOR,
                 duration: float = 1.5, amplitude: float = 90.0, payload: float = 0.0,
                 gear_ratio: float = PUMA560_GEAR_RATIOS[1], efficiency: float = 1.0,
                 samples: int = 401, render: bool = True):
        import ipywidgets as widgets
        self.robot = puma560() if robot is None else robot
        if not isinstance(self.robot, Robot):
            raise TypeError(f"robot must be a dynlab Robot, got {type(self.robot).__name__}")
        if self.robot.n != 6:
            raise ValueError(f"the dashboard moves the PUMA 560's six joints; {self.robot.name} "
                             f"has {self.robot.n}")
        if not isinstance(motor, Motor):
            raise TypeError(f"motor must be a Motor, got {type(motor).__name__}")
        self.motor = motor
        self.render = checks.flag(render, "MotorSizingDashboard", "render")
        self.samples = checks.count(samples, "MotorSizingDashboard", "samples", 3)
        wanted = {name: self._checked(name, value) for name, value in
                  (("duration", duration), ("amplitude", amplitude), ("payload", payload),
                   ("gear_ratio", gear_ratio), ("efficiency", efficiency))}
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
        self.image, self.readout, self.status = figure_readout_status("820px")
        rows = [widgets.HBox([self.controls[name] for name in names]) for names in
                (("duration", "amplitude", "payload"), ("gear_ratio", "efficiency"))]
        self.widget = widgets.VBox([*rows, self.image, self.readout, self.status])
        self.widget.add_class("dynlab-dashboard")
        self._torques = {}       # (duration, amplitude, payload) -> the cycle's joint torques
        self._figure = None                  # (figure, plane's artists, bars' artists, title)
        self._update()
        self._watch()

    @property
    def move(self):
        """The cycle the sliders describe."""
        values = self.values()
        return shoulder_cycle(math.radians(values["amplitude"]), values["duration"],
                              self.HOLD, self.REST)

    @property
    def arm(self) -> Robot:
        """The arm with the payload the slider gives at its flange."""
        return with_payload(self.robot, self.values()["payload"])

    def _update(self) -> None:
        values = self.values()
        key = (values["duration"], values["amplitude"], values["payload"])
        move = self.move
        if key not in self._torques:
            _, q, qd, qdd = sample_move(move, self.samples)
            self._torques = {key: joint_torques(self.arm, q, qd, qdd)}
        self.sizing = size_motor(self.robot, move, 2, self.motor, values["gear_ratio"],
                                 samples=self.samples, torques=self._torques[key],
                                 efficiency=values["efficiency"])
        if self.render:
            self.image.value = self._png()
        self.readout.value = self._table()
        self.status.value = f"<span>ok: {self.sizing.verdict()}</span>"

    def _report(self, error: Exception) -> None:
        """A slider never raises into the notebook: the error goes to the status line."""
        self.status.value = f"<span>error: {type(error).__name__}: {error}</span>"

    def _table(self) -> str:
        """The readout: each demand of the move against the motor's rating.  Value cells are
        ``<td class="dynlab-value" data-part="rms" data-value="0.385...">0.385</td>`` (parts
        ``rms``, ``peak``, ``speed``, ``margin``), the text rounded to 3 decimals (the speed to
        1)."""
        sizing, motor = self.sizing, self.motor
        rows = (("rms", "RMS torque over the cycle (N m)", sizing.rms_torque, 3,
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
        if self._figure is None:
            self._make_figure()
        figure, plane, bars, title = self._figure
        update_torque_speed_plane(plane, self.sizing)
        update_ratings(bars, self.sizing)
        title.set_text(f"G = {self.sizing.gear_ratio:g}, payload "
                       f"{self.values()['payload']:g} kg: {self.sizing.verdict()}")
        title.set_color("black" if self.sizing.fits else "firebrick")
        limits = (plane["ax"].get_xlim(), plane["ax"].get_ylim(), bars["ax"].get_ylim())
        return self._blitter.png(limits)

    def _make_figure(self) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        figure = Figure(figsize=(10, 3.6), dpi=72)
        FigureCanvasAgg(figure)
        plane, bars = figure.subplots(1, 2, gridspec_kw={"width_ratios": (2.2, 1)})
        figure.subplots_adjust(left=0.07, right=0.98, bottom=0.14, top=0.88, wspace=0.22)
        self._figure = (figure, draw_torque_speed_plane(plane, self.sizing),
                        draw_ratings(bars, self.sizing), figure.suptitle("", fontsize=10))
        self._blitter = Blitter(figure, [self._figure[1]["move"], self._figure[1]["over"],
                                         *self._figure[2]["bars"], *self._figure[2]["labels"],
                                         self._figure[3]])

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
