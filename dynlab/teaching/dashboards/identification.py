"""Chapter 12's dashboard: an arm identified from data (:class:`IdentificationDashboard`).  The
sliders change the exciting trajectory (its amplitude and period) and the lab's measurements
(the torque noise, the encoder's resolution); the figure shows the trajectory and each base
parameter's estimate against the truth, the title the condition number of the base regressor.
The numbers are those of :mod:`dynlab.dynamics.estimation` (Swevers et al. (1997); Gautier &
Khalil (1990)).
"""

from __future__ import annotations

import math

import numpy as np

from dynlab.dynamics.estimation import (
    FourierTrajectory,
    condition_number,
    estimate_base_parameters,
    exciting_trajectory,
    measure,
)
from dynlab.dynamics.identification import base_parameters, standard_parameters
from dynlab.model import checks
from dynlab.model.robot import Robot
from dynlab.model.robots.two_link import planar_2r
from dynlab.teaching.dashboards.common import Blitter, NamedControls, figure_readout_status


class IdentificationDashboard(NamedControls):
    """The base parameters of ``robot`` estimated by ordinary least squares from a lab's
    measurements (:func:`~dynlab.dynamics.estimation.measure`: noisy torques, an encoder's
    positions, filtered derivatives) along ``trajectory`` with its Fourier coefficients scaled
    by ``amplitude`` and its period set to ``period``.  Every move draws the noise from the same
    seed, so what changes on the figure is what the sliders change.  ``estimate`` and
    ``condition`` hold the result; ``set(...)`` moves the controls.

    >>> path = FourierTrajectory(2 * math.pi / 10, [0.0, 0.0], [[0.5, 0.3], [0.4, -0.6]],
    ...                          [[-0.2, 0.4], [0.3, 0.5]])
    >>> board = IdentificationDashboard(trajectory=path, render=False)
    >>> bool(board.set(noise=0.0, encoder_bits=20).errors().max() < 0.01)
    True
    """

    #: the range and step of each slider, as a reader sets it
    RANGES = {"amplitude": (0.1, 1.5, 0.05), "period": (4.0, 20.0, 0.5),
              "noise": (0.0, 2.0, 0.05), "encoder_bits": (8.0, 20.0, 1.0)}
    LABELS = {"amplitude": "amplitude ×", "period": "period (s)",
              "noise": "torque noise σ (N m)", "encoder_bits": "encoder (bits a turn)"}

    def __init__(self, robot: Robot | None = None, trajectory: FourierTrajectory | None = None,
                 *, amplitude: float = 1.0, period: float | None = None, noise: float = 0.1,
                 encoder_bits: int = 14, samples: int = 400, seed: int = 0, render: bool = True):
        import ipywidgets as widgets
        self.robot = planar_2r("fu") if robot is None else robot
        if not isinstance(self.robot, Robot) or self.robot.is_symbolic:
            raise TypeError(f"robot must be a numeric dynlab Robot, got {self.robot!r}")
        self.base = base_parameters(self.robot)
        self.truth = self.base.values(standard_parameters(self.robot))
        self.seed = checks.count(seed, "IdentificationDashboard", "seed", 0)
        if trajectory is None:                      # the chapter's limits, a seeded start
            trajectory = exciting_trajectory(
                self.base, lower=-2.5, upper=2.5, speed=2.0, acceleration=6.0,
                rng=np.random.default_rng(self.seed), maxiter=60).trajectory
        if not isinstance(trajectory, FourierTrajectory) or trajectory.q0.size != self.robot.n:
            raise TypeError(f"trajectory must be a FourierTrajectory of {self.robot.n} joints, "
                            f"got {trajectory!r}")
        self.trajectory = trajectory
        self.render = checks.flag(render, "IdentificationDashboard", "render")
        self.samples = checks.count(samples, "IdentificationDashboard", "samples", 50)
        period = trajectory.period if period is None else period
        wanted = {name: self._checked(name, value) for name, value in
                  (("amplitude", amplitude), ("period", period), ("noise", noise),
                   ("encoder_bits", encoder_bits))}
        self.controls = {}
        for name, value in wanted.items():
            low, high, step = self.RANGES[name]
            control = widgets.FloatSlider(
                value=value, min=low, max=high, step=step, description=self.LABELS[name],
                readout_format=".2f" if step < 0.1 else ".1f" if step < 1 else ".0f",
                continuous_update=False, style={"description_width": "initial"},
                layout=widgets.Layout(width="330px"))
            control.add_class("dynlab-slider")
            control.add_class(f"dynlab-param-{name}")
            self.controls[name] = control
        self.image, self.readout, self.status = figure_readout_status("820px")
        rows = [widgets.HBox([self.controls[name] for name in names]) for names in
                (("amplitude", "period"), ("noise", "encoder_bits"))]
        self.widget = widgets.VBox([*rows, self.image, self.readout, self.status])
        self.widget.add_class("dynlab-dashboard")
        self._figure = None
        self._update()
        self._watch()

    @property
    def path(self) -> FourierTrajectory:
        """The trajectory the sliders describe: ``a`` and ``b`` times the amplitude, the period
        set (``q`` reaches ``a / (w l)``: a longer period also swings farther)."""
        values = self.values()
        return FourierTrajectory(2 * math.pi / values["period"], self.trajectory.q0,
                                 values["amplitude"] * self.trajectory.a,
                                 values["amplitude"] * self.trajectory.b)

    def errors(self) -> np.ndarray:
        """``|estimate - truth|`` of each base parameter."""
        return np.abs(self.estimate.values - self.truth)

    def _update(self) -> None:
        values, path = self.values(), self.path
        self.condition = condition_number(self.base, path)
        self.data = measure(self.robot, path, rng=np.random.default_rng(self.seed),
                            torque_noise=values["noise"],
                            counts_per_revolution=2 ** int(values["encoder_bits"]),
                            samples=self.samples)
        self.estimate = estimate_base_parameters(self.base, self.data.q, self.data.qd,
                                                 self.data.qdd, self.data.tau)
        if self.render:
            self.image.value = self._png()
        self.readout.value = self._table()
        self.status.value = (f"<span>ok: condition number {self.condition:.3g}, residual σ "
                             f"{', '.join(f'{s:.3g}' for s in self.estimate.joint_sigma)} N m"
                             f"</span>")

    def _report(self, error: Exception) -> None:
        """A slider never raises into the notebook: the error goes to the status line."""
        self.status.value = f"<span>error: {type(error).__name__}: {error}</span>"

    def _table(self) -> str:
        """The readout: each base parameter's truth, estimate, standard deviation and error in
        standard deviations; value cells carry ``data-part`` and the unrounded ``data-value``."""
        estimate = self.estimate
        cells = "".join(
            f'<tr><td>{name}</td><td>{true:.4f}</td><td class="dynlab-value" '
            f'data-part="{name}" data-value="{value!r}">{value:.4f}</td><td>{std:.2g}</td>'
            f'<td>{(value - true) / std:+.1f}</td></tr>'
            for name, true, value, std in zip(estimate.names, self.truth, estimate.values,
                                              estimate.std))
        return ('<table style="font-size: 90%; border-spacing: 12px 0"><tr><th>base parameter</th>'
                '<th>true</th>'
                '<th>estimate</th><th>std</th><th>error / std</th></tr>' + cells + '</table>')

    def _png(self) -> bytes:
        """The figure, as a PNG.  Made once; a frame moves its lines, error bars and title and,
        while the axes' limits stay (they move in steps of 1, 2, 5 times a power of ten), draws
        only those over the kept background (blitting); a limit moves only when what it shows
        leaves it or fills less than a fifth of it (:func:`_kept_limit`)."""
        if self._figure is None:
            self._make_figure()
        figure, motion, bars, title = self._figure
        phase = np.linspace(0.0, 1.0, 200)
        q = np.degrees(self.path.at(phase * self.path.period)[0])
        for line, column in zip(motion["lines"], q.T):
            line.set_data(phase, column)
        reach = _kept_limit(motion["ax"].get_ylim()[1], np.abs(q).max())
        motion["ax"].set_ylim(-reach, reach)
        error = self.estimate.values - self.truth
        x = np.arange(error.size)
        bars["points"].set_data(x, error)
        bars["spans"].set_segments([[(k, e - 2 * s), (k, e + 2 * s)] for k, e, s in
                                    zip(x, error, self.estimate.std)])
        height = _kept_limit(bars["ax"].get_ylim()[1],
                             np.abs(error).max() + 2 * self.estimate.std.max())
        bars["ax"].set_ylim(-height, height)
        title.set_text(f"condition number {self.condition:.3g}; largest error "
                       f"{np.abs(error).max():.2g}")
        limits = (motion["ax"].get_ylim(), bars["ax"].get_ylim())
        return self._blitter.png(limits)

    def _make_figure(self) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.collections import LineCollection
        from matplotlib.figure import Figure
        figure = Figure(figsize=(10, 3.4), dpi=72)
        FigureCanvasAgg(figure)
        left, right = figure.subplots(1, 2, gridspec_kw={"width_ratios": (1.2, 1)})
        figure.subplots_adjust(left=0.07, right=0.98, bottom=0.17, top=0.86, wspace=0.25)
        lines = [left.plot([], [], label=f"$q_{k + 1}$")[0] for k in range(self.robot.n)]
        left.set_xlim(0.0, 1.0)
        left.set_xlabel("time over one period (t / T)")
        left.set_ylabel("joint angle (deg)")
        left.legend(loc="upper right", fontsize=8)
        right.axhline(0.0, color="0.5", lw=0.8)
        spans = LineCollection([], color="tab:blue", lw=2, label="±2 std")
        right.add_collection(spans)
        (points,) = right.plot([], [], "o", color="tab:blue", ms=4, label="estimate − truth")
        right.set_xlim(-0.5, self.base.count - 0.5)
        right.set_xticks(range(self.base.count), self.estimate.names, fontsize=8)
        right.legend(loc="upper right", fontsize=8)
        self._figure = (figure, {"ax": left, "lines": lines},
                        {"ax": right, "points": points, "spans": spans},
                        figure.suptitle("", fontsize=10))
        self._blitter = Blitter(figure, [*lines, points, spans, self._figure[3]])

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={control.value:g}" for name, control in self.controls.items())
        return (f"IdentificationDashboard({values}: condition number {self.condition:.3g}, "
                f"largest error {self.errors().max():.2g})")


def _kept_limit(limit: float, needed: float) -> float:
    """``limit`` while it holds ``needed`` and ``needed`` fills at least a fifth of it, else
    :func:`_step_above` ``needed``: an axis that a slider's small moves leave alone.

    >>> _kept_limit(0.05, 0.03), _kept_limit(0.05, 0.06), _kept_limit(0.05, 0.004)
    (0.05, 0.1, 0.005)
    """
    return limit if needed <= limit <= 5 * needed else _step_above(needed)


def _step_above(value: float) -> float:
    """The smallest of 1, 2, 5 times a power of ten above ``value`` (an axis limit that stays
    while a value moves a little).

    >>> _step_above(0.03), _step_above(120.0), _step_above(0.0)
    (0.05, 200.0, 0.001)
    """
    value = max(float(value), 1e-3)
    power = 10.0 ** math.floor(math.log10(value))
    return next(k * power for k in (1, 2, 5, 10) if k * power >= value)
