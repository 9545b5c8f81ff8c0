"""Simulation: integrate the equations of motion forward in time, and find where the arm rests.

Lynch & Park, Sec. 8.5 turns ``tau = D(q) qdd + bias(q, qd)`` into the first-order system

    d/dt (q, qd) = (qd, D(q)^-1 (tau(t) - bias(q, qd)))

(``D^-1`` applied by a linear solve, :mod:`dynlab.dynamics.forward`) and integrates it.
:func:`simulate` offers Lynch & Park's explicit Euler iteration and SciPy's adaptive integrators
(:func:`scipy.integrate.solve_ivp`), returns a :class:`Trajectory` with the energies, torques and
tool positions along the way, and treats static friction as a stick-slip system (below).
:func:`static_equilibrium` finds the rest position ``c(q) + J^T w = tau`` directly.  Together
they repeat the thesis appendix, B.8's checks of a dynamic model: free swing frequency, energy conservation, and
settling at static equilibrium.

Static friction without stalling the integrator
-----------------------------------------------
Schilling, Eq. (6-3-3) makes friction jump by ``2 b_s`` where ``qd_k`` changes sign (``sgn``).  An
adaptive integrator that meets the jump inside a step rejects the step and halves it, over and
over: near a joint at rest, where ``qd_k`` hovers about zero and the sign flips at every
evaluation, it stalls (or chatters, with a fixed step).  Smoothing ``sgn`` over a small velocity
band does not cure it: inside the band friction acts like a very stiff damper (time constant
``D band / b_s``), so the steps still shrink, and a joint that should stick creeps instead.

dynlab therefore integrates friction as the hybrid stick-slip system that Eq. (6-3-3) describes:

* each joint with Coulomb or static friction is *slipping forward* (``s = +1``), *slipping
  backward* (``s = -1``) or *stuck* (``s = 0``).  While slipping, its friction is Eq. (6-3-3)
  with ``sgn(qd_k) = s``: smooth, so the integrator sees no jump;
* a stuck joint has ``qd_k = qdd_k = 0`` and its friction is whatever torque keeps it so (the
  other joints move with the reduced system ``D_FF qdd_F = tau_F - bias_F``); it stays stuck
  while that torque is within ``+-b_s``, the static friction that Schilling says is "required to
  overcome friction when motion of joint k is initiated";
* the integrator stops at the *events* where a slipping joint's velocity reaches zero or a stuck
  joint's holding torque reaches ``b_s`` (:func:`scipy.integrate.solve_ivp`'s ``events``), the
  joint's state is switched (stuck if static friction can hold it, else slipping in the
  direction the net torque pushes it), and integration restarts.

Each segment is smooth, so the steps stay long; the switches are listed in
``Trajectory.events``.  The Euler integrator applies the same switches after each step.
``stiction=False`` integrates Eq. (6-3-3) as written instead (``sgn 0 = 0``), for comparison.

A pendulum (Schilling, Sec. 6-9) swinging 10 degrees about its lowest position ``q = -pi/2``; the
small-angle period is ``2 pi sqrt(2 a / (3 g))`` = 1.158 s for ``a = 0.5 m``:

>>> import math
>>> from dynlab.model.robots import pendulum
>>> swing = simulate(pendulum(), [-math.pi / 2 + math.radians(10)], [0.0], t_span=3.0, dt=0.01)
>>> round(swing.period(level=-math.pi / 2), 3)      # the 10-degree swing is 0.2 % slower
1.161
>>> bool(swing.energy_drift() < 1e-8)
True
"""

from __future__ import annotations

import inspect
import math
import sys
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from dynlab.model import jets
from dynlab.formulations import newton_euler
from dynlab.model import checks
from dynlab.model import vectors as V
from dynlab.formulations import registry as formulations
from dynlab.dynamics.forward import (check_pivots, compiled_accelerations, compiled_terms,
                                     inertia_and_bias)
from dynlab.model.friction import link_friction
from dynlab.model.kinematics import chain
from dynlab.formulations.lagrange_euler import potential_energy, kinetic_energy
from dynlab.model.robot import Robot, joint_vector, joint_vector_is_numeric
from dynlab.engine.tracing import compile_joint_function

#: solve_ivp's methods by their lower-case names (``"rk45"``, ...).
ADAPTIVE = {"rk45": "RK45", "rk23": "RK23", "dop853": "DOP853", "radau": "Radau", "bdf": "BDF",
            "lsoda": "LSODA"}

#: The most steps :func:`simulate` takes by default: Euler steps (counted before integrating,
#: so a request that needs more is refused at once) and stored samples.  10 s of the PUMA 560 at
#: the default 1 ms step is 10,000 steps; a million Euler steps of the PUMA take about two
#: minutes here, and their Trajectory holds about 330 MB of arrays (41 numbers per sample).
MAX_STEPS = 1_000_000

#: The most steps an adaptive integrator takes by default.  An adaptive run learns only as it
#: goes how many steps it needs (a very fast or stiff motion needs ever shorter ones), and each
#: step costs 6 (RK45) to 12 (DOP853) evaluations of the accelerations, so its limit is lower:
#: reaching it takes about 10 s for a two-link arm.  10 s of the falling PUMA takes 2 737 steps.
MAX_ADAPTIVE_STEPS = 100_000

#: The most frames :meth:`Trajectory.frames` (and so :meth:`Trajectory.animate` and
#: :meth:`Trajectory.player`) draws.  A player embeds every frame as a picture: at the default
#: 60 dpi a frame is about 14 kB for the two-link arm and 26 kB for the PUMA 560, so 1000
#: frames reach Matplotlib's ``animation.embed_limit`` of 20 MB (and take minutes to draw);
#: 30 are the default.
MAX_FRAMES = 1000

#: A stuck joint whose holding torque is within this fraction of ``b_s`` of the limit when its
#: event fires is released (the event is located to round-off, on either side of the root).
RELEASE_MARGIN = 1e-9


# -- the trajectory ------------------------------------------------------------------------------
@dataclass
class Trajectory:
    """A simulated motion, sampled at times ``t`` (``N`` samples, ``n`` joints).

    ``q``, ``qd``, ``qdd``: joint positions, velocities, accelerations (``N x n``); ``tau``: the
    applied joint torques/forces; ``friction``: the friction torques acting (Schilling, Eq. (6-3-3), or
    the holding torque of a stuck joint); ``stuck``: which joints static friction holds;
    ``kinetic``, ``potential``, ``total``: energies (Lynch & Park, Sec. 8.1 (draft Eq. (9.10)); ``P = -sum m_i g . c_i``,
    Schilling, Eq. (6-2-17), zero at the base); ``tool``: origin of frame ``n`` in base coordinates
    (``N x 3``).  ``events`` lists the stick-slip switches as ``(t, joint, "stick" | "slip+" |
    "slip-")`` (joints 1-based); ``nfev`` counts right-hand-side evaluations, ``steps`` the
    integrator's steps (what ``simulate``'s ``max_steps`` bounds).
    """

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
        """A :class:`matplotlib.animation.FuncAnimation` of the motion: the arm drawn by
        :func:`dynlab.model.drawing.draw_arm` (frame axes off unless ``frames=True`` is passed in
        ``drawing``) at ``frames`` instants evenly spaced in time, and the path of the tool.
        Rendered without a display: ``anim.to_jshtml()`` is a player for a notebook (``dpi``
        keeps it small).  ``interval`` (ms between frames) defaults to real time."""
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
        """The motion as a player for a notebook (IPython ``HTML``): :meth:`animate`'s frames
        with Matplotlib's buttons (play, pause, step, speed).  Matplotlib's player asks a web
        server for its button icons; JupyterLab has those icons already, so the request is
        left out and the player works without a network.  The figure is closed.

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


# -- the model being integrated ------------------------------------------------------------------
class _Model:
    """Joint accelerations of one arm under one friction *mode* (the stick-slip state).

    ``mode[k]`` is +1 or -1 (slipping forward/backward) or 0 (stuck) for a joint with static
    friction ("sticky"); other joints keep +1 and Eq. (6-3-3) as written, which is continuous
    for them (``b_s = 0``: viscous, and ``b_d (1 - exp(-|qd|/eps))``).
    """

    def __init__(self, robot, torque, method, variant, gravity, use_friction, tip_wrench,
                 compiled, stiction):
        self.robot, self.n = robot, robot.n
        self.links = robot.numeric()[0]
        self.torque = torque
        self.options = dict(method=method, variant=variant, gravity=gravity,
                            tip_wrench=tip_wrench)
        self.use_friction = use_friction
        self.compiled = compiled
        self.accelerations = compiled_accelerations(robot, **self.options) if compiled else None
        self.terms = compiled_terms(robot, **self.options) if compiled else None
        self.upper, self.unused = np.triu_indices(self.n), (0.0,) * self.n
        # Eq. (6-3-3) jumps at qd_k = 0 by 2 b_s: only joints with static friction b_s stick
        # (with b_s = 0 the dynamic part b_d (1 - exp(-|qd|/eps)) is continuous)
        self.sticky = [k for k, link in enumerate(self.links)
                       if stiction and use_friction and link.static != 0]
        self.nfev = 0
        self.steps = 0                               # integrator steps taken

    # friction of Schilling, Eq. (6-3-3) in a mode
    def friction(self, qd, mode) -> list:
        if not self.use_friction:
            return [0.0] * self.n
        result = []
        for k, (link, v) in enumerate(zip(self.links, qd)):
            if not link.has_friction:
                result.append(0.0)
            elif k not in self.sticky:
                result.append(link_friction(link, v, V.NUMERIC))
            elif mode[k] == 0:
                result.append(0.0)                   # replaced by the holding torque
            else:
                s = mode[k]
                force = link.viscous * v + s * link.coulomb
                if link.static != link.coulomb:
                    force += s * (link.static - link.coulomb) * math.exp(-abs(v) / link.epsilon)
                result.append(force)
        return result

    def applied(self, t, q, qd) -> list:
        return self.torque(t, q, qd)

    def solve(self, t, q, qd, mode):
        """``(qdd, holding)``: accelerations, and the friction torque of each stuck joint."""
        self.nfev += 1
        tau = self.applied(t, q, qd)
        net = [a - b for a, b in zip(tau, self.friction(qd, mode))]
        stuck = [k for k in self.sticky if mode[k] == 0]
        if not stuck and self.compiled:
            values = self.accelerations(tuple(q), tuple(qd), net)
            if not min(values[self.n:]) > 0.0:
                self._singular(q)
            qdd = list(values[:self.n])
            # one addition checks them all (a sum of finite numbers that overflows is looked at
            # number by number)
            if not math.isfinite(sum(qdd)) and not checks.all_finite(qdd):
                raise self._not_finite(t, q, qd, qdd)
            return qdd, {}
        D, bias = self.inertia_and_bias(q, qd)
        rhs = np.array(net) - bias
        free = [k for k in range(self.n) if k not in stuck]
        qdd = np.zeros(self.n)
        if free:
            try:
                qdd[free] = np.linalg.solve(D[np.ix_(free, free)], rhs[free])
            except np.linalg.LinAlgError:
                self._singular(q)
        holding = rhs[stuck] - D[np.ix_(stuck, free)] @ qdd[free] if free else rhs[stuck]
        if not (np.isfinite(qdd).all() and np.isfinite(holding).all()):
            found = qdd.copy()
            found[stuck] = holding                 # a stuck joint's overflow is its holding torque
            raise self._not_finite(t, q, qd, found)
        return qdd.tolist(), dict(zip(stuck, holding.tolist()))

    def inertia_and_bias(self, q, qd):
        """``D`` and the bias without friction, as NumPy arrays."""
        if not self.compiled:
            return inertia_and_bias(self.robot, np.asarray(q, float), np.asarray(qd, float),
                                    friction=False, compiled=False, **self.options)
        n = self.n
        values = self.terms(tuple(q), tuple(qd), self.unused)
        D = np.empty((n, n))
        D[self.upper] = values[:len(self.upper[0])]
        D.T[self.upper] = values[:len(self.upper[0])]
        return D, np.array(values[len(self.upper[0]):])

    def _not_finite(self, t, q, qd, qdd) -> checks.NotFiniteError:
        """The error for accelerations that came out inf or NaN at a finite state: an
        overflow, named with the state and the time (the integrators cannot go on from it)."""
        error = checks.not_finite("qdd", qdd, self.robot.name, {"q": q, "qd": qd})
        return checks.NotFiniteError(f"simulate at t = {t:g} s: {error}")

    def _singular(self, q):
        D, _ = inertia_and_bias(self.robot, np.asarray(q, float), np.zeros(self.n),
                                friction=False, compiled=False, **self.options)
        check_pivots(self.robot, D, q)
        raise ValueError(f"{self.robot.name}: the inertia matrix is singular at q = {list(q)}")

    def settle(self, t, q, qd, mode, candidates=(), release=()):
        """The consistent mode at a switch: ``candidates`` (joints whose velocity just reached
        zero) try to stick; stuck joints whose holding torque exceeds ``b_s`` (or that are in
        ``release``, their holding torque at the limit) slip in the direction the net torque
        pushes them, one at a time, the largest excess first.  Returns ``(mode, qd, switches)``.
        """
        mode, qd = list(mode), list(qd)
        before = list(mode)
        for k in candidates:
            mode[k] = 0
        for k in self.sticky:
            if mode[k] == 0:
                qd[k] = 0.0
        for _ in range(len(self.sticky) + 1):
            _, holding = self.solve(t, q, qd, mode)
            excess = {k: abs(h) / self.links[k].static for k, h in holding.items()}
            over = {k: e for k, e in excess.items()
                    if e > 1.0 or (k in release and e >= 1.0 - RELEASE_MARGIN)}
            if not over:
                break
            k = max(over, key=over.get)
            mode[k] = 1 if holding[k] > 0 else -1
        switches = [(t, k + 1, "stick" if mode[k] == 0 else ("slip+" if mode[k] > 0 else "slip-"))
                    for k in self.sticky if mode[k] != before[k] or k in candidates]
        return tuple(mode), qd, switches

    def initial_mode(self, t, q, qd):
        mode = [1] * self.n
        candidates = []
        for k in self.sticky:
            if qd[k] > 0:
                mode[k] = 1
            elif qd[k] < 0:
                mode[k] = -1
            else:
                candidates.append(k)
        return self.settle(t, q, qd, mode, candidates)


def _torque_function(robot: Robot, torque) -> Callable:
    """``torque`` as a function ``(t, q, qd) -> list`` of ``n`` floats: ``None`` (no torque), a
    constant vector, a function of time ``f(t)`` or of the state ``f(t, q, qd)``."""
    n = robot.n
    if torque is None:
        zero = [0.0] * n
        return lambda t, q, qd: zero
    if callable(torque):
        try:
            parameters = [p for p in inspect.signature(torque).parameters.values()
                          if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                          and p.default is p.empty]
        except (TypeError, ValueError):
            raise TypeError(f"{robot.name}: cannot read the signature of torque function "
                            f"{torque!r}; pass f(t) or f(t, q, qd)") from None
        if len(parameters) == 1:
            def call(t, q, qd):
                return torque(t)
        elif len(parameters) == 3:
            def call(t, q, qd):
                return torque(t, np.asarray(q), np.asarray(qd))
        else:
            raise TypeError(f"{robot.name}: a torque function takes (t) or (t, q, qd); "
                            f"{getattr(torque, '__name__', 'it')} takes {len(parameters)} "
                            f"required arguments")

        def checked(t, q, qd):
            value = call(t, q, qd)
            values = checks.plain_floats(value, n)      # n floats: the common case, quickly
            if values is None or (not math.isfinite(sum(values))
                                  and not checks.all_finite(values)):
                values = _torque_values(robot, value, t)
            return values
        return checked
    constant = joint_vector(robot, torque, "torque")
    if not joint_vector_is_numeric(constant):
        raise TypeError(f"{robot.name}: simulate needs numeric torques, got {list(constant)}")
    constant = [float(v) for v in constant]
    return lambda t, q, qd: constant


_NOT_TORQUES = {"b": "booleans", "c": "complex numbers", "U": "text", "S": "bytes",
                "M": "dates", "m": "time spans", "V": "records"}


def _torque_values(robot: Robot, value, t) -> list:
    """What a torque function returned, as ``n`` finite floats, or an error naming ``torque``:
    a truth value, a complex number (``float(1j)`` would be ``0.0``, no torque) or text is not
    a torque."""
    n = robot.n
    said = f"{robot.name}: torque, the function, returned {value!r} at t = {t:g}"
    try:           # a list's entries one by one: NumPy would read [1.0, True] as [1.0, 1.0]
        array = np.asarray(value, dtype=object if isinstance(value, (list, tuple)) else None)
    except (TypeError, ValueError):
        array = np.asarray(None)                     # a ragged list: refused below
    kind = array.dtype.kind
    if kind in _NOT_TORQUES or (kind == "O" and not all(map(checks.real_number, array.flat))):
        found = _NOT_TORQUES.get(kind) or ", ".join(sorted({
            _kind_of(v) for v in array.flat if not checks.real_number(v)}))
        raise TypeError(f"{said}; it must return {n} real numbers (one per joint), not "
                        f"{found}")
    values = [float(v) for v in array.flat]
    if len(values) != n or not all(map(math.isfinite, values)):
        raise ValueError(f"{said}; it must return {n} finite numbers (one per joint)")
    return values


def _kind_of(value) -> str:
    """What ``value`` is, in a reader's words (for an error)."""
    for types, words in (((bool, np.bool_), "booleans"), ((complex, np.complexfloating),
                          "complex numbers"), ((str, bytes), "text")):
        if isinstance(value, types):
            return words
    return type(value).__name__


def _observables(links, q, qd, qdd, gravity, tip_force, tip_moment, backend=V.NUMERIC):
    """Kinetic energy (Lynch & Park, Sec. 8.1 (draft Eq. (9.10))), potential energy (Schilling, Eq. (6-2-17)) and the tool
    position, for tracing into one compiled function."""
    return [kinetic_energy(links, q, qd, backend), potential_energy(links, q, gravity, backend),
            *chain(links, q, backend)[1][-1]]


def _state(robot: Robot, values, name: str) -> np.ndarray:
    if values is None:
        return np.zeros(robot.n)
    entries = joint_vector(robot, values, name)
    if not joint_vector_is_numeric(entries):
        raise TypeError(f"{robot.name}: simulate needs numbers; {name} has symbols "
                        f"{list(entries)}")
    return np.array([float(v) for v in entries])


def _check_number(value, name: str, *, positive: bool = True, unit: str = "") -> float:
    """``value`` as a float if it is a finite real number (not a truth value), positive or, with
    ``positive=False``, non-negative."""
    if not checks.real_number(value):
        raise TypeError(f"{name} must be a number{unit}, got {value!r}")
    number = float(value)
    if not (math.isfinite(number) and (number > 0 if positive else number >= 0)):
        raise ValueError(f"{name} must be a {'positive' if positive else 'non-negative'} "
                         f"finite number{unit}, got {value!r}")
    return number


def _check_tolerance(value, name: str, size: int):
    """A tolerance of :func:`scipy.integrate.solve_ivp`: a non-negative number, or (``atol``)
    one per state component."""
    if checks.real_number(value):
        return _check_number(value, name, positive=False)
    entries = np.ravel(np.asarray(value, dtype=object)) if not isinstance(value, str) else None
    if entries is None or len(entries) != size:
        raise TypeError(f"{name} must be a number or {size} numbers (one per q and qd), "
                        f"got {value!r}")
    return np.array([_check_number(v, f"{name}[{k}]", positive=False)
                     for k, v in enumerate(entries)])


def _time_span(t_span) -> tuple:
    if checks.real_number(t_span):
        t_span = (0.0, t_span)
    if isinstance(t_span, (str, bytes)) or not hasattr(t_span, "__len__") or len(t_span) != 2:
        raise TypeError(f"t_span must be a final time or a pair (t0, tf), got {t_span!r}")
    for value in t_span:
        if not checks.real_number(value):
            raise TypeError(f"t_span must be a final time or a pair (t0, tf) of numbers, got "
                            f"{t_span!r}")
    t0, tf = (float(v) for v in t_span)
    if not (math.isfinite(t0) and math.isfinite(tf) and tf > t0):
        raise ValueError(f"t_span must run forward in time: got t0 = {t0}, tf = {tf}")
    return t0, tf


def simulate(robot: Robot, q0: Sequence, qd0: Sequence | None = None, *, torque=None,
             t_span=(0.0, 1.0), method: str = "newton_euler", variant: str | None = None,
             integrator: str = "rk45", dt: float | None = None, t_eval=None,
             rtol: float = 1e-9, atol: float = 1e-10, stiction: bool = True,
             gravity: bool = True, friction: bool = True, tip_wrench: bool = True,
             compiled: bool = True, max_events: int = 10000, max_steps: int | None = None,
             progress=False, **options) -> Trajectory:
    """Integrate the arm's motion from ``(q0, qd0)`` (``qd0`` defaults to rest) over ``t_span``
    (``(t0, tf)`` or just ``tf``) under joint torques ``torque``: ``None`` (none), a constant
    vector, a function of time ``f(t)``, or of the state ``f(t, q, qd)`` (feedback).

    ``integrator="euler"``: Lynch & Park, Sec. 8.5's Euler iteration ``q[k+1] = q[k] + h qd[k]``,
    ``qd[k+1] = qd[k] + h qdd[k]`` with step ``h = dt`` (default 1 ms).  Any other name is an
    adaptive method of :func:`scipy.integrate.solve_ivp` (``"rk45"``, ``"dop853"``, ``"radau"``,
    ``"lsoda"``, ...) with tolerances ``rtol``, ``atol`` and further ``options`` (``max_step``,
    ...); samples are its own steps, or every ``dt``, or the times ``t_eval``.  The joint
    accelerations come from :func:`dynlab.forward_dynamics` by ``method``/
    ``variant``; ``gravity``, ``friction`` and ``tip_wrench`` switch those terms off.  Joints
    with Coulomb or static friction are integrated as a stick-slip system (see the module
    docstring; ``stiction=False`` uses Eq. (6-3-3) as written).

    The work is bounded by ``max_steps``: the Euler steps a request needs (``t_span / dt``,
    counted before integrating; default :data:`MAX_STEPS`), the steps an adaptive integrator
    takes (default :data:`MAX_ADAPTIVE_STEPS`), and the samples kept (``t_eval``, or every
    ``dt``: at most ``max_steps + 1``).  A request beyond the bound raises an error saying
    what to change; so does a run that diverges (an Euler step that would turn a joint more
    than half a turn, or move a prismatic one further than the arm is long) and accelerations
    that come out inf or NaN (:class:`~dynlab.model.checks.NotFiniteError`, naming the state).  ``progress=True`` shows how far the simulated time has come: a bar in a notebook,
    a line on a terminal; ``progress`` may also be a function, called with the time reached
    (at each whole per cent of ``t_span``, and at the end).

    >>> from dynlab.model.robots import planar_2r
    >>> arm = planar_2r("fu")
    >>> motion = simulate(arm, [-1.2, 0.4], [0.0, 0.0], t_span=1.0, dt=0.25)
    >>> motion.t.tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> bool(motion.energy_drift() < 1e-8)    # no torque, no friction: energy is conserved
    True
    >>> simulate(arm, [-1.2, 0.4], t_span=1e9, integrator="euler", dt=1e-3)
    Traceback (most recent call last):
    ...
    ValueError: ...over t = 0..1e+09 s needs 1e+12 steps, more than max_steps = 1000000; ...
    """
    plan = _plan(robot, q0, qd0, t_span, method, variant, integrator, dt, t_eval, rtol, atol,
                 dict(stiction=stiction, gravity=gravity, friction=friction,
                      tip_wrench=tip_wrench, compiled=compiled),
                 max_events, max_steps, progress, options)
    flags = plan.flags
    model = _Model(robot, _torque_function(robot, torque), method, plan.variant,
                   flags["gravity"], flags["friction"], flags["tip_wrench"], flags["compiled"],
                   flags["stiction"])
    samples = _integrate(model, plan, progress)
    return _trajectory(model, samples, plan.integrator, method, plan.variant, flags["gravity"])


@dataclass
class _Plan:
    """A request of :func:`simulate`, checked: the integrator (lower-case name), the switches,
    the time span, the initial state and the bounds on the work; for Euler the step ``h`` and
    the number of steps, for an adaptive integrator the sample times and solve_ivp's options."""

    variant: str
    integrator: str
    flags: dict
    t0: float
    tf: float
    q0: np.ndarray
    qd0: np.ndarray
    max_events: int
    limit: int
    h: float | None = None
    steps: int = 0
    t_eval: object = None
    solver_options: dict = field(default_factory=dict)

    @property
    def euler(self) -> bool:
        return self.integrator == "euler"


def _check_robot(robot) -> None:
    if not isinstance(robot, Robot):
        raise TypeError(f"expected a dynlab Robot, got {type(robot).__name__}")
    if robot.is_symbolic:
        raise TypeError(f"{robot.name}: simulate needs numbers; substitute the symbols "
                        f"{sorted(map(str, robot.free_symbols))} first (robot.subs)")


def _check_integrator(integrator) -> str:
    """``integrator``'s lower-case name: ``"euler"`` or a key of :data:`ADAPTIVE`."""
    if not isinstance(integrator, str) or (integrator.lower() != "euler"
                                           and integrator.lower() not in ADAPTIVE):
        raise ValueError(f"unknown integrator {integrator!r}; choose 'euler' or one of "
                         f"{', '.join(ADAPTIVE)}")
    return integrator.lower()


def _plan(robot, q0, qd0, t_span, method, variant, integrator, dt, t_eval, rtol, atol, flags,
          max_events, max_steps, progress, options) -> _Plan:
    """Every argument of :func:`simulate` checked, in the order its errors are reported."""
    _check_robot(robot)
    _, variant = formulations.require(method, variant, "numeric", "simulate")
    integrator = _check_integrator(integrator)
    euler = integrator == "euler"
    flags = {name: checks.flag(value, "simulate", name) for name, value in flags.items()}
    if not callable(progress):
        checks.flag(progress, "simulate", "progress")
    t0, tf = _time_span(t_span)
    q0, qd0 = _state(robot, q0, "q0"), _state(robot, qd0, "qd0")
    if dt is not None:
        dt = _check_number(dt, "dt", unit=" of seconds")
    max_events = checks.count(max_events, "simulate", "max_events")
    limit = (MAX_STEPS if euler else MAX_ADAPTIVE_STEPS) if max_steps is None else \
        checks.count(max_steps, "simulate", "max_steps", 1)
    plan = _Plan(variant, integrator, flags, t0, tf, q0, qd0, max_events, limit)
    if euler:
        if t_eval is not None or options:
            raise ValueError(f"the Euler integrator takes a step dt only, not "
                             f"{', '.join(['t_eval'] * (t_eval is not None) + list(options))}")
        plan.h = 1e-3 if dt is None else dt
        plan.steps = _euler_steps(robot, t0, tf, plan.h, limit)
    else:
        plan.solver_options = _solver_options(robot, rtol, atol, options, integrator)
        plan.t_eval = _sample_times(robot, t0, tf, dt, t_eval, limit)
    return plan


def _solver_options(robot, rtol, atol, options, integrator: str) -> dict:
    """:func:`scipy.integrate.solve_ivp`'s tolerances and further options, checked: an option
    that the integrator's SciPy class does not take is an error (SciPy would only warn)."""
    import inspect

    from scipy import integrate
    solver = getattr(integrate, ADAPTIVE[integrator])
    taken = {name for name, p in inspect.signature(solver).parameters.items()
             if p.kind is not p.VAR_KEYWORD} - {"fun", "t0", "y0", "t_bound", "rtol", "atol"}
    unknown = sorted(set(options) - taken - {"dense_output"})
    if unknown:
        raise TypeError(f"simulate() got option(s) {', '.join(map(repr, unknown))} that neither "
                        f"simulate nor the {ADAPTIVE[integrator]} integrator takes; its options "
                        f"are {', '.join(sorted(taken))}")
    rtol = _check_number(rtol, "rtol")
    atol = _check_tolerance(atol, "atol", 2 * robot.n)
    if "dense_output" in options:
        raise ValueError("simulate keeps samples, not solve_ivp's dense output; ask for "
                         "more samples with dt or t_eval")
    options = dict(options)
    for name in ("max_step", "first_step", "min_step"):
        if name in options:
            options[name] = _check_number(options[name], name, unit=" of seconds")
    return dict(rtol=rtol, atol=atol, **options)


def _integrate(model: _Model, plan: _Plan, progress):
    """The samples of the planned run, with ``progress`` shown (and closed) along the way."""
    label = "Euler" if plan.euler else ADAPTIVE[plan.integrator]
    report = _Progress(progress, f"{model.robot.name}, {label}", plan.t0, plan.tf) \
        if progress else None
    try:
        if plan.euler:
            samples = _euler(model, plan.q0, plan.qd0, plan.t0, plan.tf, plan.h, plan.steps,
                             plan.max_events, report)
        else:
            samples = _adaptive(model, plan.q0, plan.qd0, plan.t0, plan.tf,
                                ADAPTIVE[plan.integrator], plan.t_eval, plan.solver_options,
                                plan.max_events, plan.limit, report)
    except BaseException:
        if report is not None:
            report.close(done=False)
        raise
    if report is not None:
        report.close(done=True)
    return samples


def _euler_steps(robot: Robot, t0, tf, h, limit) -> int:
    """The number of Euler steps of ``h`` that fit in ``t0..tf``, if within ``limit``."""
    needed = (tf - t0) / h * (1 + 1e-12)           # a float: 1e-300 s steps give 1e300
    if needed < 1:
        raise ValueError(f"dt = {h:g} s is longer than the time span {tf - t0:g} s")
    if not needed < limit + 1:                       # (also when needed overflowed to inf)
        wait = (f" max_steps={math.floor(needed)} (if you mean to wait for it),"
                if needed < 1e9 else "")
        raise ValueError(
            f"{robot.name}: Euler with dt = {h:g} s over t = {t0:g}..{tf:g} s needs "
            f"{math.floor(needed) if needed < 1e9 else f'{needed:.3g}'} steps, more than "
            f"max_steps = {limit}; use a larger dt, a shorter "
            f"t_span,{wait} or an adaptive integrator (integrator=\"rk45\") that chooses its "
            f"own steps")
    return int(math.floor(needed))


def _sample_times(robot: Robot, t0, tf, dt, t_eval, limit):
    """The times at which an adaptive run keeps samples (``None``: its own steps): every ``dt``,
    or ``t_eval``; at most ``limit + 1`` of them."""
    if t_eval is None and dt is not None:
        if (tf - t0) / dt * (1 + 1e-12) < 1:       # as Euler refuses it: no sample after t0
            raise ValueError(f"dt = {dt:g} s is longer than the time span {tf - t0:g} s")
        count = (tf - t0) / dt * (1 + 1e-12) + 1     # a float: it may overflow to inf
        count = math.floor(count) if math.isfinite(count) else count
        if not count <= limit + 1:
            raise ValueError(
                f"{robot.name}: samples every dt = {dt:g} s over t = {t0:g}..{tf:g} s are "
                f"{count if count < 1e9 else f'{count:.3g}'} samples, more than max_steps + 1 "
                f"= {limit + 1}; use a larger dt, a shorter t_span"
                + (f", or max_steps={count - 1}" if count < 1e9 else ""))
        return np.minimum(t0 + dt * np.arange(count), tf)
    if t_eval is None:
        return None
    if isinstance(t_eval, (str, bytes)) or np.asarray(t_eval).dtype.kind not in "iuf":
        raise TypeError(f"t_eval must be a sequence of times (numbers), got {t_eval!r}")
    t_eval = np.asarray(t_eval, dtype=float)
    if t_eval.ndim == 1 and len(t_eval) == 0:
        raise ValueError("t_eval is empty: give the times at which to keep samples, or leave "
                         "t_eval out to keep the integrator's own steps")
    if t_eval.ndim != 1 or not np.all(np.isfinite(t_eval)) or np.any(np.diff(t_eval) <= 0) or (
            len(t_eval) and (t_eval[0] < t0 or t_eval[-1] > tf)):
        raise ValueError("t_eval must be increasing times within t_span")
    if len(t_eval) > limit + 1:
        raise ValueError(f"{robot.name}: t_eval asks for {len(t_eval)} samples, more than "
                         f"max_steps + 1 = {limit + 1}; pass fewer times, or "
                         f"max_steps={len(t_eval) - 1}")
    return t_eval


class _Progress:
    """How far a simulation has come, shown at each whole per cent of its time span: an
    ``ipywidgets.FloatProgress`` bar in a notebook, a line rewritten on a terminal (standard
    error), or ``how(t)`` if ``how`` is a function."""

    def __init__(self, how, label: str, t0: float, tf: float):
        self.t0, self.tf, self.label = t0, tf, label
        self.shown = -1                                 # the whole per cent last shown
        self.last = None                                # the time last shown
        self.bar = self.callback = None
        if callable(how):
            self.callback = how
        elif _in_notebook():
            import ipywidgets
            from IPython.display import display
            self.bar = ipywidgets.FloatProgress(value=t0, min=t0, max=tf, description="t (s)",
                                                tooltip=label)
            display(self.bar)

    def update(self, t: float) -> None:
        percent = math.floor(100 * (t - self.t0) / (self.tf - self.t0) + 1e-9)
        if percent > self.shown:
            self.shown = percent
            self.show(t)

    def show(self, t: float) -> None:
        self.last = t
        if self.callback is not None:
            self.callback(t)
        elif self.bar is not None:
            self.bar.value = t
        else:
            sys.stderr.write(f"\r{self.label}: t = {t:.4g} of {self.tf:g} s "
                             f"({self.shown:3d} %)")
            sys.stderr.flush()

    def close(self, done: bool) -> None:
        if done and self.last != self.tf:
            self.shown = 100
            self.show(self.tf)
        if self.bar is not None:
            self.bar.bar_style = "success" if done else "danger"
        elif self.callback is None:
            sys.stderr.write("\n" if done else " stopped\n")
            sys.stderr.flush()


def _in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (where a widget can be shown)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return type(shell).__name__ == "ZMQInteractiveShell"


# -- the integrators -----------------------------------------------------------------------------
def _euler(model: _Model, q0, qd0, t0, tf, h, steps, max_events, report):
    """Lynch & Park, Sec. 8.5, "Euler integration algorithm for forward dynamics", with the stick-slip
    switches applied after each step.  Lynch & Park prints the loop as "for k = 1 to N" computing
    ``theta[k+1]``; it must run ``k = 0 .. N-1`` from the initial state ``theta[0]``."""
    q, qd = q0.tolist(), qd0.tolist()
    mode, qd, events = model.initial_mode(t0, q, qd)
    times, states, modes = [t0], [(q, qd)], [mode]
    every = max(1, steps // 100)                        # progress at each per cent
    fastest = _fastest_followed(model, h)
    slowest_limit = min(fastest)
    for k in range(steps):
        t = t0 + k * h
        qdd, _ = model.solve(t, q, qd, mode)                                # GetJointAccel
        q = [a + h * b for a, b in zip(q, qd)]                              # q[k+1]
        qd = [a + h * b for a, b in zip(qd, qdd)]                           # qd[k+1]
        t_next = t0 + (k + 1) * h
        if not math.isfinite(sum(q) + sum(qd)) and not all(map(math.isfinite, q + qd)):
            raise RuntimeError(_diverged(model, states[-1], t_next, k + 1, steps, h))
        if not max(map(abs, qd)) <= slowest_limit:       # (NaN is never <=)
            for j, (v, limit) in enumerate(zip(qd, fastest)):
                if not abs(v) <= limit:
                    raise RuntimeError(_diverged(model, (q, qd), t_next, k + 1, steps, h,
                                                 joint=j))
        if model.sticky:
            crossed = [j for j in model.sticky if mode[j] != 0 and mode[j] * qd[j] <= 0.0]
            if crossed or any(mode[j] == 0 for j in model.sticky):
                mode, qd, switches = model.settle(t_next, q, qd, mode, crossed)
                events += switches
                if len(events) > max_events:
                    raise RuntimeError(_too_many_events(model, max_events, t_next))
        times.append(t_next)
        states.append((q, qd))
        modes.append(mode)
        if report is not None and (k + 1) % every == 0:
            report.update(t_next)
    model.steps = steps
    return times, states, modes, events


def _fastest_followed(model: _Model, h: float) -> list:
    """The fastest speed of each joint that Euler steps of ``h`` can follow: half a turn per
    step for a revolute joint (a joint sampled turning further could as well be turning the
    other way: the samples alias), and the arm's size (``sum |a_i| + |d_i|``, at least 1 m)
    per step for a prismatic one.  A run beyond it has diverged (each Euler step adds energy,
    Lynch & Park, Sec. 9.5), long before its numbers overflow."""
    size = max(1.0, sum(abs(link.a) + abs(link.d) for link in model.links))
    return [(math.pi if link.revolute else size) / h for link in model.links]


def _diverged(model: _Model, last, t, step, steps, h, joint=None) -> str:
    q, qd = last
    if joint is None:
        what = "the state stopped being finite; the step before it was"
    else:
        unit, limit = ("rad", "half a turn") if model.links[joint].revolute else \
            ("m", "the size of the arm")
        what = (f"joint {joint + 1} would move {h * abs(qd[joint]):.3g} {unit} in one step, "
                f"more than {limit}, so the steps no longer follow the motion; the state is")
    return (f"{model.robot.name}: the Euler integration diverged: at t = {t:g} s (step {step} "
            f"of {steps}, dt = {h:g} s) {what} "
            f"q = {_brief(q)}, qd = {_brief(qd)}.  Each Euler step adds energy, and a step this "
            f"long for this motion makes it grow without bound: use a smaller dt, or an "
            f"adaptive integrator (integrator=\"rk45\") that chooses its own steps")


def _brief(values) -> str:
    return "[" + ", ".join(f"{v:.3g}" for v in values) + "]"


def _bounded_solver(name: str, limit: int, budget: dict, report):
    """The solve_ivp method ``name`` as a solver class that counts its steps (shared through
    ``budget`` by the segments between stick-slip switches), records the time and step size
    reached, reports progress, and stops with an error before step ``limit + 1``."""
    import scipy.integrate
    base = getattr(scipy.integrate, name)

    def step(self):
        if budget["steps"] >= limit:
            raise _StepLimit(self.t, budget["h"])
        message = base.step(self)
        budget["steps"] += 1
        budget["t"], budget["h"] = self.t, self.step_size
        if report is not None:
            report.update(self.t)
        return message

    return type(f"Bounded{name}", (base,), {"step": step})


class _StepLimit(Exception):
    """An adaptive integrator reached its step limit at time ``t``, last step ``h``."""

    def __init__(self, t, h):
        super().__init__(t, h)
        self.t, self.h = t, h


def _adaptive(model: _Model, q0, qd0, t0, tf, name, t_eval, options, max_events, limit,
              report):
    """solve_ivp, restarted at every stick-slip switch."""
    from scipy.integrate import solve_ivp
    n = model.n
    q, qd = q0.tolist(), qd0.tolist()
    mode, qd, events = model.initial_mode(t0, q, qd)
    times, states, modes = [], [], []
    t, y = t0, np.array(q + qd)
    nfev = 0
    budget = dict(steps=0, t=t0, h=None, nonfinite=None)
    solver = _bounded_solver(name, limit, budget, report)
    not_finite = np.full(2 * n, np.nan)
    while True:
        current = mode

        def rhs(time, state, current=current, first=[True]):
            values = state.tolist()
            if not math.isfinite(sum(values)) and not all(map(math.isfinite, values)):
                # a trial stage that overflowed: NaN makes the integrator reject the step
                budget["nonfinite"] = time
                return not_finite
            try:
                qdd, _ = model.solve(time, values[:n], values[n:], current)
            except checks.NotFiniteError:
                # at the state the segment starts from there is no shorter step to try (the
                # integrator's first step size would come out NaN, and RK45 would retry it for
                # ever); later, it is a trial stage of a step too long, which NaN rejects
                if first[0]:
                    raise
                budget["nonfinite"] = time
                return not_finite
            first[0] = False
            return np.array(values[n:] + qdd)

        watchers = _event_functions(model, current)
        segment_eval = None
        if t_eval is not None:
            segment_eval = t_eval[(t_eval >= t) & (t_eval <= tf)]
        try:
            solution = solve_ivp(rhs, (t, tf), y, method=solver, t_eval=segment_eval,
                                 events=[w for w, _ in watchers] or None, **options)
        except _StepLimit as stop:
            raise RuntimeError(_step_limit(model, name, t0, tf, limit, stop.t, stop.h)) \
                from None
        nfev += solution.nfev
        if solution.status < 0:
            raise RuntimeError(_failed(model, name, budget, solution.message))
        for k, time in enumerate(solution.t):
            if times and time <= times[-1]:
                continue                             # a restart repeats the switching time
            times.append(float(time))
            values = solution.y[:, k].tolist()
            states.append((values[:n], values[n:]))
            modes.append(current)
        if solution.status == 0:
            break
        # a switch: which watcher fired first
        fired = [(float(ev[0]), i) for i, ev in enumerate(solution.t_events) if len(ev)]
        t_switch, first = min(fired)
        y_switch = solution.y_events[first][0]
        joint, kind = watchers[first][1]
        values = y_switch.tolist()
        candidates = (joint,) if kind == "velocity" else ()
        release = (joint,) if kind == "holding" else ()
        mode, qd_new, switches = model.settle(t_switch, values[:n], values[n:], current,
                                              candidates, release)
        events += switches
        if len(events) > max_events:
            raise RuntimeError(_too_many_events(model, max_events, t_switch))
        t, y = t_switch, np.array(values[:n] + qd_new)
        if t_eval is None and (not times or t_switch > times[-1]):
            times.append(t_switch)
            states.append((values[:n], qd_new))
            modes.append(mode)
        if t >= tf:
            break
    model.nfev, model.steps = nfev, budget["steps"]
    return times, states, modes, events


def _step_limit(model: _Model, name, t0, tf, limit, t, h) -> str:
    return (f"{model.robot.name}: {name} took max_steps = {limit} steps and reached only "
            f"t = {t:.6g} s of t = {t0:g}..{tf:g} s; its last step was {h:.3g} s.  The motion "
            f"is too fast or too stiff for steps this long (are the torques too large?): check "
            f"the torques, loosen rtol/atol, try integrator=\"radau\" for a stiff arm, "
            f"simulate a shorter t_span, or raise max_steps")


def _failed(model: _Model, name, budget, message) -> str:
    """solve_ivp gave up (its step shrank to round-off): where, with what step, and why."""
    h = "none taken" if budget["h"] is None else f"{budget['h']:.3g} s"
    cause = (f"; the state stopped being finite in its trial steps at "
             f"t = {budget['nonfinite']:.6g} s" if budget["nonfinite"] is not None else "")
    stiff = "" if name in ("Radau", "BDF", "LSODA") else \
        ", or an arm that is stiff may need integrator=\"radau\""
    return (f"{model.robot.name}: {name} failed at t = {budget['t']:.6g} s (last step {h}): "
            f"{message.rstrip('.')}{cause}.  The motion seems to run away there: check the "
            f"torques (a feedback law that grows faster than the arm can follow?) and the "
            f"initial state{stiff}")


def _event_functions(model: _Model, mode):
    """solve_ivp events of one mode: a slipping joint's velocity reaching zero, a stuck joint's
    holding torque reaching its static friction ``b_s``."""
    n = model.n
    watchers = []
    for k in model.sticky:
        if mode[k] != 0:
            def velocity(time, state, k=k, s=mode[k]):
                return s * state[n + k]
            velocity.terminal, velocity.direction = True, -1
            watchers.append((velocity, (k, "velocity")))
        else:
            def holding(time, state, k=k):
                values = state.tolist()
                _, held = model.solve(time, values[:n], values[n:], mode)
                return model.links[k].static - abs(held[k])
            holding.terminal, holding.direction = True, -1
            watchers.append((holding, (k, "holding")))
    return watchers


def _too_many_events(model, max_events, t) -> str:
    return (f"{model.robot.name}: more than {max_events} stick-slip switches by t = {t:g} s; "
            f"raise max_events, or check the friction coefficients")


def _trajectory(model: _Model, samples, integrator, method, variant, gravity) -> Trajectory:
    times, states, modes, events = samples
    robot, n = model.robot, model.n
    observe, _ = compile_joint_function(robot, ("simulate observables",), _observables)
    N = len(times)
    q, qd, qdd, tau, fr, stuck = (np.zeros((N, n)) for _ in range(6))
    stuck = stuck.astype(bool)
    measured = np.zeros((N, 5))
    unused = (0.0,) * n
    nfev = model.nfev
    for i, ((qi, qdi), mode) in enumerate(zip(states, modes)):
        accelerations, holding = model.solve(times[i], qi, qdi, mode)
        q[i], qd[i], qdd[i] = qi, qdi, accelerations
        tau[i] = model.applied(times[i], qi, qdi)
        fr[i] = model.friction(qdi, mode)
        for k, value in holding.items():
            fr[i, k] = value
            stuck[i, k] = True
        measured[i] = observe(tuple(qi), tuple(qdi), unused)
    potential = measured[:, 1] if gravity else np.zeros(N)
    return Trajectory(robot, np.array(times), q, qd, qdd, tau, fr, stuck, measured[:, 0],
                      potential, measured[:, 2:], integrator, method, variant,
                      nfev=nfev if integrator != "euler" else len(times) - 1,
                      events=list(events), steps=model.steps)


# -- statics -------------------------------------------------------------------------------------
def _gravity_and_stiffness(robot: Robot, q, gravity: bool, tip_wrench: bool):
    """``c(q) + J^T w`` (Fu, Gonzalez & Lee, Eq. (3.2-34), the torque that holds the arm still) and its
    derivative ``K = d/dq`` (the stiffness of the static torque), by a Newton-Euler run at rest
    on jets (:mod:`dynlab.model.jets`): exact derivatives, no SymPy."""
    links, grav, tip_f, tip_m = robot.numeric()
    n = robot.n
    zero = [0.0] * n
    torque, _ = newton_euler.link_frame(links, jets.seed([float(v) for v in q]), zero, zero,
                                        grav, tip_f, tip_m, jets.lift(V.NUMERIC),
                                        use_gravity=gravity, use_friction=False,
                                        use_tip=tip_wrench)
    values = np.array([jets.value(t) for t in torque], dtype=float)
    stiffness = np.array([jets.gradient(t, n) for t in torque], dtype=float)
    return values, stiffness


def static_stiffness(robot: Robot, q: Sequence, *, gravity: bool = True,
                     tip_wrench: bool = True) -> np.ndarray:
    """``K(q) = d(c + J^T w)/dq``: at a stable equilibrium it is positive definite, and the
    small oscillations about it have angular frequencies ``omega^2`` = the eigenvalues of
    ``K x = omega^2 D x`` (``scipy.linalg.eigh(K, D)``).

    >>> import math
    >>> from dynlab.model.robots import pendulum
    >>> static_stiffness(pendulum(), [-math.pi / 2])     # m g a / 2 at the bottom
    array([[2.45155]])
    """
    if not isinstance(robot, Robot):
        raise TypeError(f"expected a dynlab Robot, got {type(robot).__name__}")
    if robot.is_symbolic:
        raise TypeError(f"{robot.name}: static_stiffness works on numbers")
    return _gravity_and_stiffness(robot, _state(robot, q, "q"),
                                  checks.flag(gravity, "static_stiffness", "gravity"),
                                  checks.flag(tip_wrench, "static_stiffness", "tip_wrench"))[1]


def static_equilibrium(robot: Robot, tau: Sequence | None = None, q0: Sequence | None = None,
                       *, stable: bool = True, tolerance: float = 1e-10) -> np.ndarray:
    """The joint positions where the arm rests under constant joint torques ``tau`` (default
    none): ``c(q) + J^T w = tau`` (gravity of Fu, Gonzalez & Lee, Eq. (3.2-34), the tip wrench), solved with
    SciPy from ``q0`` (default: zero).  Friction plays no part (viscous friction vanishes at
    rest; static friction would hold the arm anywhere within ``+-b_s`` of this).

    With ``stable=True`` (and no tip moment, so that the loads have a potential
    ``V = P + f . p_tool - tau . q``) the search first descends ``V`` from ``q0``, so it ends in
    a minimum, where a damped arm comes to rest; then Newton's method polishes the root.

    >>> import math
    >>> from dynlab.model.robots import pendulum
    >>> q = static_equilibrium(pendulum(), q0=[0.3])
    >>> round(float(q[0]) / math.pi, 12)           # hanging straight down
    -0.5
    >>> round(float(static_equilibrium(pendulum(), [1.0], q0=[-1.0])[0]), 6)  # -acos(1/2.45155)
    -1.150638
    """
    import scipy.optimize
    if not isinstance(robot, Robot):
        raise TypeError(f"expected a dynlab Robot, got {type(robot).__name__}")
    if robot.is_symbolic:
        raise TypeError(f"{robot.name}: static_equilibrium works on numbers; substitute the "
                        f"symbols {sorted(map(str, robot.free_symbols))} first")
    stable = checks.flag(stable, "static_equilibrium", "stable")
    tolerance = _check_number(tolerance, "tolerance")
    target = _state(robot, tau, "tau")
    start = _state(robot, q0, "q0")
    links, grav, tip_f, tip_m = robot.numeric()

    def residual(q):
        return _gravity_and_stiffness(robot, q, True, True)[0] - target

    def jacobian(q):
        return _gravity_and_stiffness(robot, q, True, True)[1]

    if stable and not any(tip_m):
        def potential(q):
            _, origins = chain(links, tuple(q.tolist()))
            return (potential_energy(links, tuple(q.tolist()), grav, V.NUMERIC)
                    + float(np.dot(tip_f, origins[-1]))
                    - float(np.dot(target, q)))
        descent = scipy.optimize.minimize(
            potential, start, jac=residual,
            hess=lambda q: (lambda K: (K + K.T) / 2)(jacobian(q)), method="trust-exact",
            options=dict(gtol=1e-10))
        start = descent.x
    solution = scipy.optimize.root(residual, start, jac=jacobian, method="hybr",
                                   options=dict(xtol=1e-14))
    q = solution.x
    error = float(np.max(np.abs(residual(q))))
    scale = max(1.0, float(np.max(np.abs(target))), float(np.max(np.abs(residual(q) + target))))
    if not error <= tolerance * scale:
        raise ValueError(f"{robot.name}: no static equilibrium found from q0 = {start.tolist()} "
                         f"(residual torque {error:.3g}); the torques may exceed what gravity "
                         f"can balance, or try another q0")
    return q
