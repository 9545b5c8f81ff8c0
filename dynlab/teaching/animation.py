"""A motion of an arm simulated once and played back frame by frame (the dashboards' Play):
:func:`motion_frames` samples :func:`dynlab.simulate` at ``t_k = k / fps`` and splits each
frame's torque ``D qdd + h + c + b`` (Fu, Gonzalez & Lee, Eq. (3.2-26)).  :data:`MOTIONS`:
``"free"`` (no torque), ``"hold"`` (PD plus gravity at the start pose, ``omega = 4 rad/s``
critically damped on ``D_ii(q0)``), ``"home"`` (computed torque along a quintic to ``q = 0``
in 60 % of the duration, ``Kp = 100``, ``Kd = 20``).

>>> from dynlab.model.robots import pendulum
>>> frames = motion_frames(pendulum(), [0.5], [0.0], motion="free", duration=1.0, fps=4)
>>> frames.t.tolist()
[0.0, 0.25, 0.5, 0.75, 1.0]
>>> bool(abs(frames.parts["total"]).max() < 1e-9)       # no torque: the parts cancel
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from dynlab.dynamics import control
from dynlab.dynamics.inverse import equations_of_motion, torque_parts
from dynlab.dynamics.simulation import simulate
from dynlab.dynamics.trajectory import quintic
from dynlab.model.robot import Robot

#: name -> what the motion is, for the dashboard's menu.
MOTIONS = {"free": "free swing (no torque)",
           "hold": "PD + gravity: hold the start pose",
           "home": "computed torque: to q = 0"}
#: The natural frequency of the "hold" motion's PD loop, rad/s.
HOLD_OMEGA = 4.0
#: The gains of the "home" motion's computed-torque loop (critically damped).
HOME_KP, HOME_KD = 100.0, 20.0


@dataclass
class MotionFrames:
    """A motion sampled at the frame times: ``t`` (``N``), ``q``, ``qd``, ``qdd`` (``N x n``),
    ``parts`` (part name -> ``N x n`` torques), ``trajectory`` (the
    :class:`~dynlab.dynamics.simulation.Trajectory` they come from) and the ``motion``'s name."""

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    parts: dict
    trajectory: object
    motion: str

    def __len__(self) -> int:
        return len(self.t)

    def state(self, k: int) -> tuple:
        """``(q, qd, qdd)`` at frame ``k`` (``0 .. len - 1``)."""
        if not isinstance(k, (int, np.integer)) or not 0 <= k < len(self.t):
            raise IndexError(f"frame must be 0..{len(self.t) - 1}, got {k!r}")
        return self.q[k], self.qd[k], self.qdd[k]

    def parts_at(self, k: int) -> dict:
        """Part name -> the joints' torques at frame ``k``."""
        self.state(k)
        return {part: values[k] for part, values in self.parts.items()}


def motion_torque(robot: Robot, motion: str, q0: Sequence, duration: float):
    """The torque law of ``motion`` (see the module) for :func:`dynlab.simulate` from
    ``q0``: ``None`` for a free swing, else a controller ``f(t, q, qd)``.

    >>> from dynlab.model.robots import pendulum
    >>> law = motion_torque(pendulum(), "hold", [0.0], 2.0)
    >>> law(0.0, [0.0], [0.0])            # at the set point: the gravity torque m g a / 2
    array([2.45155])
    >>> motion_torque(pendulum(), "dance", [0.0], 2.0)
    Traceback (most recent call last):
    ...
    ValueError: unknown motion 'dance'; choose one of free, hold, home
    """
    if motion not in MOTIONS:
        raise ValueError(f"unknown motion {motion!r}; choose one of {', '.join(MOTIONS)}")
    q0 = np.asarray(q0, dtype=float)
    if motion == "free":
        return None
    if motion == "hold":
        inertia = np.diag(np.asarray(equations_of_motion(robot, q0, np.zeros(robot.n),
                                                         method="dalembert").D, dtype=float))
        return control.pd_gravity(robot, Kp=HOLD_OMEGA ** 2 * inertia,
                                  Kd=2 * HOLD_OMEGA * inertia, reference=q0)
    return control.computed_torque(robot, Kp=HOME_KP, Kd=HOME_KD,
                                   reference=quintic(q0, np.zeros(robot.n), 0.6 * duration))


def motion_frames(robot: Robot, q0: Sequence, qd0: Sequence, *, motion: str = "free",
                  duration: float = 5.0, fps: float = 20.0,
                  parts_at: Callable | None = None) -> MotionFrames:
    """``motion`` from ``(q0, qd0)`` simulated (RK45, ``rtol = 1e-8``) for ``duration`` s at ``fps``
    frames a second, each frame's torque split by ``parts_at`` (default
    :func:`dynlab.dynamics.inverse.torque_parts` with the G-D terms)."""
    if not isinstance(robot, Robot):
        raise TypeError(f"expected a dynlab Robot, got {type(robot).__name__}")
    for name, value in (("duration", duration), ("fps", fps)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value) or value <= 0:
            raise ValueError(f"{name} must be a positive number, got {value!r}")
    count = int(math.floor(duration * fps + 1e-9)) + 1
    if count < 2:
        raise ValueError(f"duration * fps must give at least one frame after the first, got "
                         f"{duration!r} s at {fps!r} frames/s")
    torque = motion_torque(robot, motion, q0, duration)
    t = np.arange(count) / float(fps)
    trajectory = simulate(robot, q0, qd0, torque=torque, t_span=(0.0, float(t[-1])),
                          t_eval=t, rtol=1e-8, atol=1e-9)
    if parts_at is None:
        def parts_at(q, qd, qdd):
            return torque_parts(robot, q, qd, qdd, method="dalembert")
    split = [parts_at(q, qd, qdd) for q, qd, qdd in
             zip(trajectory.q, trajectory.qd, trajectory.qdd)]
    parts = {part: np.array([frame[part] for frame in split], dtype=float)
             for part in split[0]}
    return MotionFrames(np.asarray(trajectory.t, dtype=float), np.asarray(trajectory.q),
                        np.asarray(trajectory.qd), np.asarray(trajectory.qdd), parts,
                        trajectory, motion)
