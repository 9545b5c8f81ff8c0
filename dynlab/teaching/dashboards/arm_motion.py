"""The play row of an arm's dashboard: a motion (:mod:`dynlab.teaching.animation`) simulated
once from the sliders' state, then shown frame by frame (the arm, the bars and the table at
each frame's state).

:class:`MotionPlayer` is the part of :class:`dynlab.teaching.dashboards.arm.Dashboard` that
plays; see there for the attributes (``play``, ``time_slider``, ``motion_menu``, ``clock``,
``frames``, ``frame``).
"""

from __future__ import annotations

import html
import time

import numpy as np

from dynlab.teaching.animation import MOTIONS, motion_frames
from dynlab.teaching.dashboards.arm_figure import nice_limit


class MotionPlayer:
    """Play, scrub and forget a motion of a :class:`~dynlab.teaching.dashboards.arm.Dashboard`."""

    # -- motion: a play control -------------------------------------------------------------------
    def _player_row(self):
        """Play, a time slider (the frame), the motion's menu and the clock."""
        import ipywidgets as widgets

        self.frames = None
        self.duration, self.fps = 5.0, 20.0
        count = int(round(self.duration * self.fps))
        self.play = widgets.Play(value=0, min=0, max=count, step=1,
                                 interval=int(round(1000 / self.fps)), description="play",
                                 show_repeat=False)
        self.play.add_class("dynlab-play")
        self.time_slider = widgets.IntSlider(value=0, min=0, max=count, step=1,
                                             description="frame", continuous_update=True,
                                             layout=widgets.Layout(width="300px"),
                                             style={"description_width": "50px"})
        self.time_slider.add_class("dynlab-time")
        widgets.jslink((self.play, "value"), (self.time_slider, "value"))
        revolute = all(link.is_revolute for link in self.robot.links)
        self.motion_menu = widgets.Dropdown(
            options=[(label, name) for name, label in MOTIONS.items()],
            value="free" if revolute else "home", description="motion",
            layout=widgets.Layout(width="330px"), style={"description_width": "55px"})
        self.motion_menu.add_class("dynlab-motion")
        self.clock = widgets.HTML()
        self.clock.add_class("dynlab-clock")
        self._show_clock(None)
        self.play.observe(self._on_frame, names="value")
        self.time_slider.observe(self._on_frame, names="value")
        self.play.observe(self._on_playing, names="playing")
        self.motion_menu.observe(self._on_motion, names="value")
        self.frame = None
        return widgets.HBox([self.play, self.time_slider, self.motion_menu, self.clock])

    def _show_clock(self, k) -> None:
        if k is None:
            text, t = "t = 0 s: the sliders' state (press play)", 0.0
        else:
            t = float(self.frames.t[k])
            text = f"t = {t:.2f} s"
        self.clock.value = (f'<span data-frame="{-1 if k is None else k}" data-t="{t!r}">'
                            f"{html.escape(text)}</span>")

    def _on_playing(self, change) -> None:
        if change["new"] and self.frames is None:       # a new motion: show where it starts
            self._guarded(lambda: self.show_frame(int(self.play.value)))

    def _on_frame(self, change) -> None:
        self._guarded(lambda: self.show_frame(int(change["new"])))

    def _on_motion(self, change=None) -> None:
        self.refresh()                                 # forgets the motion, shows the start

    def _guarded(self, call) -> None:
        try:
            call()
        except Exception as error:                      # noqa: BLE001 - reported, not raised
            self._report(error)

    def compute_motion(self):
        """Simulate the chosen motion from the sliders' state (once: every frame is computed
        here, :meth:`show_frame` then only redraws).  Returns the
        :class:`dynlab.teaching.animation.MotionFrames`."""
        if self.parameter_error:
            raise ValueError(f"no motion of an invalid arm: {self.parameter_error}")
        q = list(self.joint_positions())
        qd = [float(w.value) for w in self.qd_sliders]
        start = time.perf_counter()
        self.frames = motion_frames(self.robot, q, qd, motion=self.motion_menu.value,
                                    duration=self.duration, fps=self.fps,
                                    parts_at=lambda *state: self.parts_at(*state))
        self.seconds["simulate"] = time.perf_counter() - start
        # one bar scale for the whole motion: the bars do not jump between frames
        for axes, joints in self.bar_groups:
            biggest = max(float(np.max(np.abs(self.frames.parts[part][:, joints])))
                          for part in self.parts_shown)
            self._set_limit(axes, nice_limit(1.2 * biggest))
        return self.frames

    def show_frame(self, k: int) -> None:
        """Show frame ``k`` of the motion (computed first if it is not): the arm at ``q(t_k)``,
        the bars and the table at the torque split there; the sliders keep the start."""
        if self.frames is None:
            self.compute_motion()
        if k == self.frame:
            return
        q, qd, qdd = self.frames.state(k)
        self.state = (q.copy(), qd.copy(), qdd.copy())
        self.parts = {part: values.copy() for part, values in self.frames.parts_at(k).items()}
        self.tau = self.parts["total"]
        self.frame = k
        self._redraw()
        self._show_clock(k)
        self.status.value = self._status_html(
            f"ok: {self.motion_menu.label}, t = {self.frames.t[k]:.2f} s of "
            f"{self.frames.t[-1]:g} s (simulated in {self.seconds['simulate']:.2f} s), "
            f"drawn in {1e3 * self.seconds['draw']:.1f} ms")

    def forget_motion(self) -> None:
        """Drop the computed motion (a slider moved: the next play starts from the new
        state), stop playing and go back to frame 0."""
        if getattr(self, "play", None) is None:
            return
        had = self.frames is not None
        self.frames, self.frame = None, None
        self.play.playing = False
        for widget in (self.play, self.time_slider):
            widget.unobserve(self._on_frame, names="value")
            widget.value = 0
            widget.observe(self._on_frame, names="value")
        self._show_clock(None)
        if had:                                        # the sliders' scales again
            self._limits = {axes: None for axes, _ in self.bar_groups}
