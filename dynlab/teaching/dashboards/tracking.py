"""Chapter 08's dashboard: the tracking error of one move under a chosen controller
(:class:`TrackingDashboard`), its gains set by a natural frequency and a damping ratio, with a
payload at the tip that the controller's model does not know.  The controllers are those of
:mod:`dynlab.dynamics.control`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dynlab.dynamics.control import (
    Controller,
    Model,
    computed_torque,
    feedforward,
    matched_gains,
    pd,
    pd_gravity,
)
from dynlab.dynamics.simulation import simulate
from dynlab.dynamics.trajectory import as_reference, joint_array
from dynlab.model import checks
from dynlab.model.edits import with_payload
from dynlab.model.robot import Robot
from dynlab.teaching.dashboards.common import NamedControls

#: the controllers of :class:`TrackingDashboard`, in its drop-down's order
DASHBOARD_LAWS = ("PD", "PD + gravity", "feed-forward + PD", "computed torque")


class TrackingDashboard(NamedControls):
    """The tracking error of one move under a chosen controller, gains from ``omega_n`` and
    ``zeta`` (computed torque ``Kp = omega_n^2``, ``Kd = 2 zeta omega_n``; PD the same times
    ``D_ii``), the plant ``robot`` with an unknown ``payload`` at its tip; ``max_error``.

    >>> from dynlab.model.robots import planar_2r
    >>> from dynlab.dynamics.trajectory import quintic
    >>> move = quintic([-1.2, 0.4], [0.6, 1.4], 1.5, t0=0.25)
    >>> board = TrackingDashboard(planar_2r("fu"), move, [-1.2, 0.4], render=False)
    >>> board.max_error < 1e-9                   # exact computed torque, started on the reference
    True
    >>> round(board.set(payload=1.0).max_error, 3)   # a 1 kg payload the model does not know
    0.754
    >>> round(board.set(omega_n=30.0).max_error, 3)  # stiffer gains, smaller error
    0.102
    """

    #: the range of each slider, as a reader sets it (a value outside is refused, not clamped)
    RANGES = {"omega_n": (2.0, 30.0), "zeta": (0.2, 2.0), "payload": (0.0, 2.0)}
    CHOICES = {"controller": DASHBOARD_LAWS}

    def __init__(self, robot: Robot, reference, start: Sequence, *, t_span: float = 2.5,
                 dt: float = 0.01, controller: str = "computed torque", omega_n: float = 10.0,
                 zeta: float = 1.0, payload: float = 0.0, render: bool = True):
        import ipywidgets as widgets
        self.robot = robot.robot if isinstance(robot, Model) else robot
        if not isinstance(self.robot, Robot):
            raise TypeError(f"TrackingDashboard: robot must be a dynlab Robot or Model, got "
                            f"{type(robot).__name__}")
        self.render = checks.flag(render, "TrackingDashboard", "render")
        self.start = joint_array(start, "start", self.robot.n)
        self.reference = as_reference(reference, self.robot.n)
        self.t_span, self.dt = (checks.number(value, f"TrackingDashboard: {name}",
                                              unit=" of seconds")
                                for value, name in ((t_span, "t_span"), (dt, "dt")))
        self.scale = matched_gains(self.robot, self.start, omega_n=1.0)[0]   # D_ii(start)
        wanted = dict(controller=controller, omega_n=omega_n, zeta=zeta, payload=payload)
        for name, value in wanted.items():
            wanted[name] = self._checked(name, value)
        style = {"description_width": "initial"}
        self.controls = {
            "controller": widgets.Dropdown(options=DASHBOARD_LAWS, value=wanted["controller"],
                                           description="controller"),
            "omega_n": widgets.FloatSlider(value=wanted["omega_n"], step=1.0,
                                           description="ωₙ (rad/s)", style=style,
                                           **self._range("omega_n")),
            "zeta": widgets.FloatSlider(value=wanted["zeta"], step=0.1, description="ζ",
                                        style=style, **self._range("zeta")),
            "payload": widgets.FloatSlider(value=wanted["payload"], step=0.1,
                                           description="payload (kg)", style=style,
                                           **self._range("payload"))}
        self.image = widgets.Image(format="png", layout=widgets.Layout(width="100%",
                                                                        max_width="720px"))
        self.widget = widgets.VBox([widgets.HBox(list(self.controls.values())[:2]),
                                    widgets.HBox(list(self.controls.values())[2:]),
                                    self.image])
        self._update()
        self._watch()

    def law(self) -> Controller:
        """The controller the controls describe."""
        values = self.values()
        kp, kd = values["omega_n"] ** 2, 2.0 * values["zeta"] * values["omega_n"]
        name = values["controller"]
        if name == "computed torque":
            return computed_torque(self.robot, kp, kd, self.reference)
        builder = {"PD": lambda *a: pd(self.robot, *a), "PD + gravity": pd_gravity,
                   "feed-forward + PD": feedforward}[name]
        if name == "PD":
            return builder(kp * self.scale, kd * self.scale, self.reference)
        return builder(self.robot, kp * self.scale, kd * self.scale, self.reference)

    def _range(self, name: str) -> dict:
        low, high = self.RANGES[name]
        return dict(min=low, max=high)

    def _update(self):
        payload = self.controls["payload"].value
        plant = with_payload(self.robot, payload) if payload > 0 else self.robot
        law = self.law()
        run = simulate(plant, self.start, torque=law, t_span=self.t_span, dt=self.dt)
        errors = law.tracking_error(run)
        self.run, self.errors = run, errors           # only a finished run replaces the last
        self.max_error = float(np.abs(errors).max())
        if self.render:
            self.image.value = self._png()

    def _png(self) -> bytes:
        import io

        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        figure = Figure(figsize=(7, 3), dpi=72)
        FigureCanvasAgg(figure)
        ax = figure.add_subplot()
        for j in range(self.robot.n):
            ax.plot(self.run.t, self.errors[:, j], label=f"joint {j + 1}")
        ax.axhline(0.0, color="grey", lw=0.8)
        ax.set_xlabel("t (s)")
        ax.set_ylabel("tracking error e (rad)")
        values = self.values()
        largest = (f"{self.max_error:.4f} rad" if self.max_error >= 1e-4 else "< 0.0001 rad")
        ax.set_title(f"{values['controller']}, ωₙ = {values['omega_n']:g} rad/s, "
                     f"ζ = {values['zeta']:g}, payload {values['payload']:g} kg: "
                     f"max |e| {'= ' if self.max_error >= 1e-4 else ''}{largest}", fontsize=9)
        if self.max_error < 1e-3:                    # round-off: drawn as the zero it is
            ax.set_ylim(-0.01, 0.01)
        ax.legend(loc="upper right")
        figure.tight_layout()
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png")
        return buffer.getvalue()

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={control.value!r}" for name, control in self.controls.items())
        return f"TrackingDashboard({self.robot.name!r}: {values}, max |e| = {self.max_error:.4f})"
