"""The arm's dashboard (:func:`dashboard`, :class:`Dashboard`): sliders for ``q`` (degrees for a
revolute joint), ``qd``, ``qdd`` and parameters (masses, lengths, payload, viscous friction),
the arm drawn and each joint's torque in bars split as Fu, Gonzalez & Lee, Eq. (3.2-26) plus
Schilling's friction (6-3-3): ``tau = D qdd + h + c + b``; the parts by
:func:`dynlab.dynamics.inverse.torque_parts` with :data:`DEFAULT_ENGINE` (any registered
formulation).  A 3-D arm shows on an ipympl canvas; a play row animates a motion
(:mod:`dynlab.teaching.animation`).  A bad value shows in the status line, the last valid arm
stays.  The widgets' CSS classes are listed in ARCHITECTURE.md ("The dashboards' page").

>>> board = dashboard("pendulum", q=[0.0], qd=[0.0], qdd=[0.0])
>>> round(float(board.tau[0]), 6)                  # m g a/2 = 1 * 9.8062 * 0.25
2.45155
>>> board.sliders["q1"].value = 60.0                # degrees: the source's home position, pi/3
>>> round(float(board.parts["gravity"][0]), 6)      # ... times cos(pi/3)
1.225775
>>> board.sliders["q1"].value = float("nan")
>>> print(board.message)
error: ValueError: q1 must be a finite number, got nan
>>> round(float(board.parts["gravity"][0]), 6)      # the last valid state stays on screen
1.225775
"""

from __future__ import annotations

import contextlib
import html
import math
import time
from collections.abc import Sequence

import numpy as np

from dynlab.dynamics.inverse import torque_parts
from dynlab.formulations import registry as formulations
from dynlab.model import checks
from dynlab.model.robot import Robot
from dynlab.model.robots.registry import ARM_SPECS
from dynlab.teaching.dashboards.arm_figure import ArmFigure, nice_limit
from dynlab.teaching.dashboards.arm_motion import MotionPlayer
from dynlab.teaching.dashboards.common import (
    figure_readout_status,
    joint_values,
    slider_column,
    slider_value,
    widget_bundle,
)
from dynlab.teaching.dashboards.labels import PART_COLOURS, format_value, part_labels, plain
from dynlab.teaching.dashboards.parameters import Parameter, default_parameters, registered_arm
from dynlab.teaching.dashboards.sliders import degrees, on_grid, round_significant, slider

#: The formulation a dashboard splits the torques with when none is named: Lee's generalized
#: d'Alembert terms, because a parameter slider makes a new arm at every move and they cost a new
#: arm no more than the same one (nothing is traced or compiled), where Newton-Euler's compiled
#: probes are traced anew for each arm: for the PUMA 560 0.3 ms against some 20 ms a parameter
#: move, and 0.2 ms against 0.1 ms a joint move (``benchmarks/bench_dashboard.py``).
DEFAULT_ENGINE = "dalembert"

#: a joint slider's unit (revolute, prismatic): its position, velocity and acceleration
UNITS = {"q": ("deg", "m"), "qd": ("rad/s", "m/s"), "qdd": ("rad/s^2", "m/s^2")}


class Dashboard(ArmFigure, MotionPlayer):
    """Sliders, a figure (arm and torque bars) and a readout for one arm: ``sliders`` (by
    description), ``robot`` (shown) and ``base``, ``state``, ``parts``, ``tau``, ``figure``,
    ``drawing``, ``bars``, ``readout``, ``status``, ``message``, ``seconds``, ``widget``; the
    motion: ``play``, ``time_slider``, ``motion_menu``, ``clock``, ``frames``, ``frame``."""

    def __init__(self, robot: Robot, *, parameters: Sequence[Parameter] = (), q=None, qd=None,
                 qdd=None, prismatic_ranges: dict | None = None, engine: str = DEFAULT_ENGINE,
                 labels="axes", figsize=(10.0, 5.0), dpi: int = 72, render: bool = True,
                 blit: bool = True, interactive: bool | None = None,
                 wrist: Sequence[int] | None = None):
        self._check_arguments(robot, engine)
        self.wrist = self._wrist_joints(robot, wrist)
        self.engine = engine
        self.base = robot
        self.robot = robot
        self.parameters = list(parameters)
        self.render = render
        n = robot.n
        self.n = n
        self.seconds = {"compute": 0.0, "draw": 0.0}
        self.parameter_error = ""
        self._holding = 0
        self._pending = set()

        q, qd, qdd = (joint_values(robot, values, name) if values is not None else [0.0] * n
                      for values, name in ((q, "q"), (qd, "qd"), (qdd, "qdd")))
        for parameter in self.parameters:             # the starting values must be valid
            self.robot = parameter.apply(self.robot, parameter.value)
        self._make_sliders(q, qd, qdd, prismatic_ranges)
        three = self._make_figure(q, labels, figsize, dpi, blit, interactive)
        self._make_page(three)
        for widget in (*self.q_sliders, *self.qd_sliders, *self.qdd_sliders):
            widget.observe(self._on_state, names="value")
        for widget in self.parameter_sliders.values():
            widget.observe(self._on_parameter, names="value")
        self.refresh()
        if self.interactive:                           # the first picture is rendered: show
            self._show_interactive_canvas()            # it on the canvas the mouse turns

    def _check_arguments(self, robot, engine) -> None:
        """A numeric robot and a registered formulation as the engine, or a clear error."""
        if not isinstance(robot, Robot):
            raise TypeError(f"dashboard needs a dynlab Robot or an arm's name, got "
                            f"{type(robot).__name__}")
        if robot.is_symbolic:
            raise TypeError(f"{robot.name}: has symbolic parameters "
                            f"({', '.join(sorted(map(str, robot.free_symbols)))}); build it "
                            f"with numbers (symbolic=False) or substitute them")
        if not isinstance(engine, str) or engine not in formulations.FORMULATIONS:
            raise ValueError(f"engine must be one of {', '.join(formulations.methods('numeric'))}"
                             f" (the registered formulations that run on numbers), got "
                             f"{engine!r}")
        self.formulation, _ = formulations.require(engine, None, "numeric", "dashboard")

    @staticmethod
    def _wrist_joints(robot: Robot, wrist) -> tuple:
        """The joints whose bars have an axis of their own: ``wrist``, or by default joints 4
        to n of an arm with more than four joints (a wrist on a 3-joint arm)."""
        if wrist is None:
            return tuple(range(4, robot.n + 1)) if robot.n > 4 else ()
        if isinstance(wrist, (str, bytes)) or not hasattr(wrist, "__iter__"):
            raise TypeError(f"{robot.name}: wrist must be a sequence of joint numbers (1-based), "
                            f"got {wrist!r}")
        wrist = tuple(k for k in (checks.count(k, robot.name, "each joint of wrist", 1)
                                  for k in wrist) if k <= robot.n)
        if wrist and len(wrist) == robot.n:
            raise ValueError(f"{robot.name}: the wrist axis needs joints left for the arm's "
                             f"axis, got wrist = {wrist}")
        return wrist

    def joint_positions(self) -> np.ndarray:
        """``q`` as the joint sliders set it, in radians (a revolute joint's slider holds
        degrees) or metres.

        >>> board = dashboard("planar_2r", variant="fu", render=False)
        >>> board.sliders["q1"].value, board.sliders["q1"].description
        (60.0, 'q1')
        >>> bool(board.joint_positions()[0] == math.pi / 3)
        True
        """
        # a slider not moved since its angle was set shows it on its grid: the angle itself,
        # not its rounding, is the state
        return np.array([self._exact_q.get(widget.description, float(widget.value) * scale)
                         for widget, scale in zip(self.q_sliders, self.q_scale)])

    def _make_sliders(self, q, qd, qdd, prismatic_ranges) -> None:
        """The joint sliders (q, qd, qdd per joint) and the parameter sliders.  A revolute
        joint's position slider holds degrees (``q_scale``: radians per slider unit)."""
        from dynlab.model.drawing import reach_of  # matplotlib: loaded when drawn
        robot = self.base
        ranges = dict(prismatic_ranges or {})
        reach = reach_of(self.robot, q)

        self.sliders = {}
        self.q_sliders, self.qd_sliders, self.qdd_sliders = [], [], []
        self.q_scale = []
        self._exact_q = {}              # q slider -> the angle set (radians), until it moves
        for k, link in enumerate(robot.links, start=1):
            revolute = link.is_revolute
            low, high = ranges.get(k, (-math.pi, math.pi) if revolute else (-reach, reach))
            if revolute:                               # the slider in degrees, q in radians
                scale, value, step = math.pi / 180.0, degrees(q[k - 1]), 1.0
                self._exact_q[f"q{k}"] = float(q[k - 1])
                low, high = math.degrees(low), math.degrees(high)
            else:
                scale, value, step = 1.0, q[k - 1], 0.01
                low, high = round_significant(low, 2, "down"), round_significant(high, 2, "up")
            self.q_scale.append(scale)
            rate, acceleration = (3.0, 10.0) if revolute else (0.5, 2.0)
            for name, column, start, bound, grid, what in (
                    ("q", self.q_sliders, value, (low, high), step, "position"),
                    ("qd", self.qd_sliders, qd[k - 1], (-rate, rate), 0.01, "velocity"),
                    ("qdd", self.qdd_sliders, qdd[k - 1], (-acceleration, acceleration), 0.05,
                     "acceleration")):
                column.append(slider(f"{name}{k}", start, *bound, grid,
                                     (f"dynlab-{name}", f"dynlab-{name}{k}"),
                                     f"joint {k} {what} ({UNITS[name][not revolute]})"))
        self.parameter_sliders = {}
        for parameter in self.parameters:
            widget = slider(parameter.name, parameter.value, parameter.minimum,
                            parameter.maximum, parameter.step,
                            ("dynlab-parameter", f"dynlab-param-{parameter.name}"),
                            parameter.help)
            self.parameter_sliders[parameter.name] = widget
        for widget in (*self.q_sliders, *self.qd_sliders, *self.qdd_sliders,
                       *self.parameter_sliders.values()):
            if widget.description in self.sliders:
                raise ValueError(f"two sliders are called {widget.description!r}")
            self.sliders[widget.description] = widget

    def _make_page(self, three: bool) -> None:
        """The widgets around the figure: slider columns, the play row, readout and status."""
        import ipywidgets as widgets
        robot = self.base
        self.image, self.readout, self.status = figure_readout_status("900px")
        kinds = {link.is_revolute for link in robot.links}

        def units(angle, length):
            return " / ".join(u for revolute, u in ((True, angle), (False, length))
                              if revolute in kinds)
        columns = [slider_column(f"joint positions q ({units('deg', 'm')})", self.q_sliders),
                   slider_column(f"velocities qd ({units('rad/s', 'm/s')})", self.qd_sliders),
                   slider_column(f"accelerations qdd ({units('rad/s²', 'm/s²')})",
                                self.qdd_sliders)]
        if self.parameter_sliders:
            named = ", ".join(sorted({p.unit for p in self.parameters if p.unit}))
            columns.append(slider_column(f"parameters ({named}; friction N m s/rad)"
                                        if named else "parameters",
                                        list(self.parameter_sliders.values())))
        self.view_slider = None
        self.view_angle = None
        self.figure_widget = self.image               # (an interactive one: until refreshed)
        if self.interactive:
            self.view_angle = widgets.HTML()
            self.view_angle.add_class("dynlab-view-angle")
            columns[0].children += (self.view_angle,)
        if three and not self.interactive:
            self.view_slider = slider("view", -60.0, -180.0, 180.0, 5.0, ("dynlab-view",),
                                      "azimuth of the 3-D view (degrees)")
            self.view_slider.observe(self._on_view, names="value")
            columns[0].children += (self.view_slider,)
        # the slider columns wrap in a narrow notebook rather than overflow it
        sliders = widgets.HBox(columns, layout=widgets.Layout(flex_flow="row wrap"))
        self.widget = widgets.VBox([widgets.HTML(f"<b>{html.escape(robot.name)}</b>"),
                                    self.figure_widget, self._player_row(), sliders,
                                    self.readout, self.status])
        self.widget.add_class("dynlab-dashboard")

    # -- widgets --------------------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs):
        """The live widget, with a picture of its figure and a one-line text as fallbacks: a
        notebook stored without widget state (and a code host) shows the picture."""
        picture = None
        if self.render:
            if not self.interactive:
                picture = bytes(self.image.value)
            elif getattr(self.figure.canvas, "renderer", None) is None:
                picture = self._first_png              # the canvas has not rendered yet
            else:
                picture = self._png()
        return widget_bundle(self, picture, **kwargs)

    def __repr__(self) -> str:
        return (f"Dashboard({self.robot.name!r}: {len(self.sliders)} sliders, engine "
                f"{self.engine!r}, tau = {np.round(self.tau, 6).tolist()})")

    # -- callbacks: never raise into the notebook -----------------------------------------------
    def _on_state(self, change=None):
        if change is not None:                          # moved: the slider is the state
            self._exact_q.pop(change.owner.description, None)
        self._request("state")

    def _on_parameter(self, change=None):
        self._request("parameters")

    def _on_view(self, change=None):
        self._request("view")

    def _request(self, what: str):
        if self._holding:
            self._pending.add(what)
            return
        self.refresh({what})

    @contextlib.contextmanager
    def hold(self):
        """Change several sliders and update once, at the end of the ``with`` block."""
        self._holding += 1
        try:
            yield self
        finally:
            self._holding -= 1
            if not self._holding and self._pending:
                pending, self._pending = self._pending, set()
                self.refresh(pending)

    def set_state(self, q=None, qd=None, qdd=None) -> Dashboard:
        """Set joint sliders (``q`` in radians or metres, ``qd``, ``qdd``) and update once; the
        state keeps ``q`` until its slider moves.  A wrong value is reported in the status line and
        changes nothing."""
        try:
            plan = []
            for name, values, sliders in (("q", q, self.q_sliders), ("qd", qd, self.qd_sliders),
                                          ("qdd", qdd, self.qdd_sliders)):
                if values is None:
                    continue
                values = joint_values(self.robot, values, name)
                for k, (widget, value) in enumerate(zip(sliders, values)):
                    unit = self._unit(name, k)
                    exact = None
                    if name == "q" and self.q_scale[k] != 1.0:
                        value, exact = on_grid(widget, degrees(value)), value
                    if not widget.min <= value <= widget.max:
                        raise ValueError(f"{widget.description} = {plain(value)} {unit} is "
                                         f"outside the slider's range [{plain(widget.min)}, "
                                         f"{plain(widget.max)}] {unit}")
                    plan.append((widget, value, exact))
        except Exception as error:                      # noqa: BLE001 - reported, not raised
            self._report(error)
            return self
        with self.hold():
            for widget, value, exact in plan:
                widget.value = value                   # (a move forgets the angle set before)
                if exact is not None:                  # shown on the grid, kept exactly
                    self._exact_q[widget.description] = exact
            self._request("state")                     # (no change event if none moved)
        return self

    def slide(self, **values) -> dict:
        """Move the named sliders to ``values`` as a reader would (degrees, rad/s, a parameter's
        unit), update once and return :attr:`parts`; a value the slider cannot show is refused
        before any slider moves.

        >>> board = dashboard("pendulum", render=False)
        >>> parts = board.slide(q1=90.0, qd1=0.0, qdd1=0.0)     # straight up: no gravity torque
        >>> abs(float(parts["gravity"][0])) < 1e-12
        True
        >>> board.slide(q1=0.0, qd1=1e6)
        Traceback (most recent call last):
        ...
        ValueError: Dashboard: qd1 must be from -3 to 3 (the slider's range), got 1000000.0
        >>> board.slide(elbow=1.0)
        Traceback (most recent call last):
        ...
        ValueError: no slider 'elbow': the sliders are q1, qd1, qdd1, m1, a1, payload, viscous
        """
        unknown = [name for name in values if name not in self.sliders]
        if unknown:
            raise ValueError(f"no slider {unknown[0]!r}: the sliders are "
                             f"{', '.join(self.sliders)}")
        checked = {name: slider_value("Dashboard", name, value, self.sliders[name].min,
                                      self.sliders[name].max) for name, value in values.items()}
        with self.hold():
            for name, value in checked.items():
                self._exact_q.pop(name, None)          # the state is what the slider shows
                self.sliders[name].value = value
            self._request("state")                     # (no change event if none moved)
        return self.parts

    def _unit(self, name: str, k: int) -> str:
        """The unit of joint ``k``'s (0-based) slider ``name`` (``q``, ``qd``, ``qdd``)."""
        return UNITS[name][not self.base.links[k].is_revolute]

    def refresh(self, what=("parameters", "state")) -> None:
        """Recompute and redraw; any error goes to the status line."""
        try:
            if "parameters" in what or "state" in what:
                self.forget_motion()                   # the sliders are a new start
            if "parameters" in what:
                self._rebuild()
            if "parameters" in what or "state" in what:
                self._recompute()
            if "view" in what and self.view_slider is not None:
                self.drawing.ax.view_init(elev=self.drawing.ax.elev,
                                          azim=self.view_slider.value)
                self._background = None
            self._redraw()
        except Exception as error:                      # noqa: BLE001 - reported, not raised
            self._report(error)
            return
        message = (f"ok: computed in {1e3 * self.seconds['compute']:.2f} ms "
                   f"({self.formulation.label}), "
                   f"drawn in {1e3 * self.seconds['draw']:.1f} ms")
        if self.parameter_error:
            message = f"error: {self.parameter_error} (showing the last valid arm)"
        self.status.value = self._status_html(message)

    def _report(self, error: Exception) -> None:
        text = f"error: {type(error).__name__}: {error}"
        if self.parameter_error and str(error) not in self.parameter_error:
            text += f"; also {self.parameter_error}"
        self.status.value = self._status_html(text)

    def _status_html(self, message: str) -> str:
        self.message = message
        colour = "#a00" if message.startswith("error") else "#060"
        return f'<span style="color:{colour}">{html.escape(message)}</span>'

    # -- the work -------------------------------------------------------------------------------
    def _rebuild(self) -> None:
        robot = self.base
        try:
            for parameter in self.parameters:
                value = float(self.parameter_sliders[parameter.name].value)
                robot = parameter.apply(robot, value)
        except Exception as error:                      # noqa: BLE001 - kept for the status
            self.parameter_error = f"{parameter.name} = {plain(value)} {parameter.unit}: {error}"
            return
        self.parameter_error = ""
        self.robot = robot

    def _recompute(self) -> None:
        start = time.perf_counter()
        q = list(self.joint_positions())
        qd = [float(w.value) for w in self.qd_sliders]
        qdd = [float(w.value) for w in self.qdd_sliders]
        for name, values in (("q", q), ("qd", qd), ("qdd", qdd)):
            for k, value in enumerate(values, start=1):
                if not math.isfinite(value):
                    raise ValueError(f"{name}{k} must be a finite number, got {plain(value)}")
        parts = self.parts_at(q, qd, qdd)
        self.state = (np.array(q), np.array(qd), np.array(qdd))
        self.parts = parts
        self.tau = self.parts["total"]
        self.seconds["compute"] = time.perf_counter() - start

    def parts_at(self, q, qd, qdd, robot: Robot | None = None) -> dict:
        """Part -> the joints' torques at the state ``(q, qd, qdd)`` of ``robot`` (default:
        the arm shown), by the dashboard's engine (numbers only)."""
        return torque_parts(self.robot if robot is None else robot, q, qd, qdd,
                            method=self.engine)

    def _redraw(self) -> None:
        start = time.perf_counter()
        self.drawing.update(self.state[0], self.robot)
        for part in self.parts_shown:
            for patch, value in zip(self.bars[part], self.parts[part]):
                patch.set_height(value)
        # change a scale only when its bars near its edge or shrink far below it
        if self.frames is None:
            for axes, joints in self.bar_groups:
                biggest = max(abs(float(self.parts[part][k])) for part in self.parts_shown
                              for k in joints)
                limit = self._limits[axes]
                if limit is None or biggest > 0.9 * limit or biggest < 0.25 * limit:
                    self._set_limit(axes, nice_limit(1.2 * biggest))
        self.readout.value = self._table()
        if self.render:
            self.draw()
            if not self.interactive:
                self.image.value = self._png()
        self.seconds["draw"] = time.perf_counter() - start
    def _table(self) -> str:
        from matplotlib.colors import to_hex
        swatch = ('<span style="display:inline-block;width:0.8em;height:0.8em;'
                  'background:{};border:1px solid {};margin-right:0.3em"></span>')
        labels = part_labels(self.formulation, table=True)  # the legend's notation
        fill = {p: to_hex(PART_COLOURS[p]) if p != "total" else "white" for p in self.parts_shown}
        head = "".join(f"<th>{swatch.format(fill[p], to_hex(PART_COLOURS[p]))}"
                       f"{html.escape(labels[p])}</th>" for p in self.parts_shown)
        rows = []
        for k, link in enumerate(self.robot.links, start=1):
            unit = "N m" if link.is_revolute else "N"
            cells = "".join(
                f'<td class="dynlab-value" data-joint="{k}" data-part="{p}" '
                f'data-value="{float(self.parts[p][k - 1])!r}" style="text-align:right">'
                f"{format_value(self.parts[p][k - 1])}</td>" for p in self.parts_shown)
            rows.append(f"<tr><td>joint {k} ({unit})</td>{cells}</tr>")
        pose = ", ".join(
            f"q{k} = {math.degrees(q):.1f} deg" if link.is_revolute else f"q{k} = {q:.3f} m"
            for k, (link, q) in enumerate(zip(self.robot.links, self.state[0]), start=1))
        return (f'<div class="dynlab-pose">{html.escape(pose)}</div>'
                f'<table class="dynlab-torque-table"><thead><tr><th></th>{head}</tr></thead>'
                f"<tbody>{''.join(rows)}</tbody></table>")


def dashboard(robot_or_name, *, variant: str | None = None, q=None, qd=None, qdd=None,
              parameters: Sequence[Parameter] | None = None, engine: str = DEFAULT_ENGINE,
              render: bool = True, interactive: bool | None = None,
              **builder_options) -> Dashboard:
    """A slider dashboard for a registered arm (``builder_options`` go to its builder) or any
    numeric :class:`~dynlab.Robot`, from ``q``, ``qd``, ``qdd`` (default: its
    :class:`~dynlab.teaching.dashboards.specs.DashboardSpec`'s start), with ``parameters`` sliders
    and ``engine`` (a formulation's name); ``render=False`` skips the PNG.

    >>> board = dashboard("puma560")
    >>> sorted(board.sliders)[:4], len(board.q_sliders)
    (['a2', 'd4', 'm2', 'm3'], 6)
    >>> dashboard("pendulm")
    Traceback (most recent call last):
    ...
    ValueError: unknown arm 'pendulm'; choose one of pendulum, planar_2r, scara, puma560..., or pass
    a dynlab Robot
    """
    labels = "axes"
    ranges = {}
    wrist = None
    if isinstance(robot_or_name, Robot):
        if variant is not None or builder_options:
            raise TypeError("variant= and builder options apply to a named arm, not a Robot")
        robot = robot_or_name
        if robot.is_symbolic:
            raise TypeError(f"{robot.name}: has symbolic parameters; the dashboard needs "
                            f"numbers")
        defaults = default_parameters(robot)
        start = (None, None, None)
        if robot.n > 3:
            labels = "frames"
    elif isinstance(robot_or_name, str):
        spec = ARM_SPECS.get(robot_or_name)
        if variant is not None and (spec is None or spec.option != "variant"):
            owners = [repr(n) for n, s in ARM_SPECS.items() if s.option == "variant"]
            raise TypeError(f"variant= belongs to {' or '.join(owners)}, not {robot_or_name!r}")
        robot, defaults, *start, ranges, labels, wrist = registered_arm(robot_or_name, variant,
                                                             builder_options)
    else:
        raise TypeError(f"dashboard needs a dynlab Robot or an arm's name, got "
                        f"{type(robot_or_name).__name__}")
    q = start[0] if q is None else q
    qd = start[1] if qd is None else qd
    qdd = start[2] if qdd is None else qdd
    return Dashboard(robot, parameters=defaults if parameters is None else parameters, q=q,
                     qd=qd, qdd=qdd, prismatic_ranges=ranges, engine=engine, labels=labels,
                     render=render, interactive=interactive, wrist=wrist)
