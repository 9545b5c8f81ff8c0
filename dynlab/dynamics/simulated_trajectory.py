"""A simulated motion (:class:`Trajectory`): what :func:`~dynlab.dynamics.simulation.simulate`
returns, with the energies, torques and tool positions along the way, and how it plays (its
frames, an animation, a player).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from dynlab.model import checks
from dynlab.model.robot import Robot

#: The most frames :meth:`Trajectory.frames` (and so :meth:`Trajectory.animate` and
#: :meth:`Trajectory.player`) draws.  A player embeds every frame as a picture: at the default
#: 60 dpi a frame is about 14 kB for the two-link arm and 26 kB for the PUMA 560, so 1000
#: frames reach Matplotlib's ``animation.embed_limit`` of 20 MB (and take minutes to draw);
#: 30 are the default.
MAX_FRAMES = 1000


@dataclass
class Trajectory:
    """A simulated motion at times ``t``: ``q``, ``qd``, ``qdd``, ``tau``, ``friction`` (Schilling,
    Eq. (6-3-3), or a stuck joint's holding torque), ``stuck``, energies ``kinetic``,
    ``potential``, ``total`` (Lynch & Park, Sec. 8.1 (draft Eq. (9.10)); Schilling, Eq. (6-2-17)),
    ``tool`` (origin of frame ``n``), ``events`` (stick-slip switches ``(t, joint, kind)``),
    ``nfev`` and ``steps``."""

    robot: Robot
    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray
    friction: np.ndarray
    stuck: np.ndarray
    kinetic: np.ndarray
    potential: np.ndarray
    tool: np.ndarray
    integrator: str
    method: str
    variant: str
    nfev: int = 0
    events: list = field(default_factory=list)
    steps: int = 0

    @property
    def total(self) -> np.ndarray:
        """Kinetic plus potential energy."""
        return self.kinetic + self.potential

    def __len__(self) -> int:
        return len(self.t)

    def energy_drift(self) -> float:
        """``max |E(t) - E(0)|`` relative to ``max(|E(0)|, max K)``: zero for an exact solution
        of a conservative arm (no torque, friction or tip wrench)."""
        total = self.total
        scale = max(abs(float(total[0])), float(np.max(self.kinetic)), 1e-300)
        return float(np.max(np.abs(total - total[0]))) / scale

    def crossings(self, joint: int = 1, level: float | None = None, direction: int = 1):
        """Times at which ``q_joint`` crosses ``level`` (default: its mean) going up
        (``direction=1``) or down (``-1``), by linear interpolation between samples."""
        if not isinstance(joint, int) or not 1 <= joint <= self.q.shape[1]:
            raise ValueError(f"joint must be 1..{self.q.shape[1]}, got {joint!r}")
        if direction not in (1, -1):
            raise ValueError(f"direction must be 1 (up) or -1 (down), got {direction!r}")
        x = self.q[:, joint - 1]
        if level is not None and not (checks.real_number(level) and math.isfinite(level)):
            raise (TypeError if not checks.real_number(level) else ValueError)(
                f"level must be a finite number (the value of q{joint} whose crossings are "
                f"timed) or None (the mean of the motion), got {level!r}")
        level = float(np.mean(x)) if level is None else float(level)
        y = direction * (x - level)
        found = np.nonzero((y[:-1] < 0) & (y[1:] >= 0))[0]
        fraction = -y[found] / (y[found + 1] - y[found])
        return self.t[found] + fraction * (self.t[found + 1] - self.t[found])

    def period(self, joint: int = 1, level: float | None = None) -> float:
        """Mean time between successive upward crossings of ``level`` (default: the mean of the
        motion) by ``q_joint``: the period of a free oscillation."""
        times = self.crossings(joint, level)
        if len(times) < 2:
            raise ValueError(f"joint {joint} does not complete a swing in "
                             f"{self.t[-1] - self.t[0]:g} s; simulate longer")
        return float(np.mean(np.diff(times)))

    def frames(self, count: int) -> np.ndarray:
        """Indices of ``count`` samples evenly spaced in time (for an animation), at most
        :data:`MAX_FRAMES` of them.

        >>> from dynlab.model.robots import pendulum
        >>> from dynlab.dynamics.simulation import simulate
        >>> simulate(pendulum(), [0.3], t_span=1.0, dt=0.25).frames(3).tolist()
        [0, 2, 4]
        >>> simulate(pendulum(), [0.3], t_span=1.0, dt=0.25).frames(10 ** 9)
        Traceback (most recent call last):
        ...
        ValueError: Trajectory.frames: count must be a whole number from 1 to 1000, got 1000000000
        """
        count = checks.count(count, "Trajectory.frames", "count", 1, MAX_FRAMES)
        wanted = np.linspace(self.t[0], self.t[-1], count)
        return np.unique(np.clip(np.searchsorted(self.t, wanted), 0, len(self.t) - 1))

    def animate(self, frames: int = 30, *, ax=None, dpi: float = 60, interval=None,
                **drawing):
        """A :class:`matplotlib.animation.FuncAnimation` of the motion (:func:`draw_arm` at
        ``frames`` instants, the tool's path), without a display; ``interval`` defaults to real
        time."""
        return self._animation(frames, ax=ax, dpi=dpi, interval=interval, **drawing)[0]

    def _animation(self, frames, *, ax=None, dpi=60, interval=None, **drawing):
        """``(FuncAnimation, its figure)``: :meth:`animate`'s work."""
        from matplotlib import animation

        from dynlab.model.drawing import draw_arm  # matplotlib: loaded when drawn
        index = self.frames(frames)
        options = dict(frames=False, labels=False, figsize=(4, 4), title=self.robot.name)
        options.update(drawing)
        arm = draw_arm(self.robot, self.q[index[-1]], ax=ax, **options)
        title = arm.ax.get_title()
        tool = []
        for i in index:                                 # the tool's path, as drawn
            tool.append(arm.update(self.q[i]).plotted("origins")[-1])
        tool = np.array(tool)
        (path,) = arm.ax.plot(*tool[:1].T, "-", lw=1.5, color="tab:orange", zorder=1)
        arm.figure.set_dpi(dpi)

        def draw(k):
            arm.update(self.q[index[k]])
            path.set_data(tool[:k + 1, 0], tool[:k + 1, 1])
            if tool.shape[1] == 3:
                path.set_3d_properties(tool[:k + 1, 2])
            arm.ax.set_title(f"{title}   t = {self.t[index[k]]:.2f} s", fontsize=10)
            return [*arm.artists(), path]

        if interval is None:
            interval = 1000 * (self.t[-1] - self.t[0]) / max(len(index) - 1, 1)
        return animation.FuncAnimation(arm.figure, draw, frames=len(index), interval=interval,
                                       blit=False), arm.figure

    def player(self, frames: int = 30, *, dpi: float = 60, **drawing):
        """The motion as a notebook player (IPython ``HTML``) of :meth:`animate`'s frames, with
        Matplotlib's buttons but no request to a web server for their icons.

        >>> from dynlab.model.robots import pendulum
        >>> from dynlab.dynamics.simulation import simulate
        >>> run = simulate(pendulum(), [0.3], [0.0], t_span=(0.0, 0.5))
        >>> html = run.player(frames=3, dpi=20).data
        >>> "<script" in html, "https://" in html
        (True, False)
        """
        import re

        from IPython.display import HTML
        from matplotlib import pyplot
        animation, figure = self._animation(frames, dpi=dpi, **drawing)
        html = animation.to_jshtml()
        pyplot.close(figure)
        return HTML(re.sub(r'<link rel="stylesheet"\s+href="https://[^"]*">\s*', "", html))

    def __repr__(self) -> str:
        return (f"Trajectory({self.robot.name!r}, {len(self)} samples over t = "
                f"{self.t[0]:g}..{self.t[-1]:g} s, {self.integrator}, {self.method}/"
                f"{self.variant}, {self.nfev} evaluations, {len(self.events)} stick-slip events)")
