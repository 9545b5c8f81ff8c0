"""Simulation: ``d/dt (q, qd) = (qd, D(q)^-1 (tau(t) - bias(q, qd)))`` (Lynch & Park, Sec. 8.5)
integrated by Euler or :func:`scipy.integrate.solve_ivp`, static friction (Schilling, Eq.
(6-3-3)) as a stick-slip system switched at events (ARCHITECTURE.md, "Stick and slip"): the
thesis appendix, B.8's checks of a model (swing, energy, rest).

>>> import math
>>> from dynlab.model.robots import pendulum
>>> swing = simulate(pendulum(), [-math.pi / 2 + math.radians(10)], [0.0], t_span=3.0, dt=0.01)
>>> round(swing.period(level=-math.pi / 2), 3)      # small angles: 2 pi sqrt(2a/3g) = 1.158 s
1.161
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from dynlab.dynamics.integrated_model import IntegratedModel, state_vector, torque_function
from dynlab.dynamics.integrators import adaptive_integration, euler_integration, sampled_trajectory
from dynlab.dynamics.inverse import DEFAULT_METHOD
from dynlab.dynamics.simulated_trajectory import Trajectory
from dynlab.formulations import registry as formulations
from dynlab.model import checks
from dynlab.model.robot import Robot

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


def _check_tolerance(value, name: str, size: int):
    """A tolerance of :func:`scipy.integrate.solve_ivp`: a non-negative number, or (``atol``)
    one per state component."""
    if checks.real_number(value):
        return checks.number(value, name, positive=False)
    entries = np.ravel(np.asarray(value, dtype=object)) if not isinstance(value, str) else None
    if entries is None or len(entries) != size:
        raise TypeError(f"{name} must be a number or {size} numbers (one per q and qd), "
                        f"got {value!r}")
    return np.array([checks.number(v, f"{name}[{k}]", positive=False)
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
             t_span=(0.0, 1.0), method: str = DEFAULT_METHOD, variant: str | None = None,
             integrator: str = "rk45", dt: float | None = None, t_eval=None,
             rtol: float = 1e-9, atol: float = 1e-10, stiction: bool = True,
             gravity: bool = True, friction: bool = True, tip_wrench: bool = True,
             compiled: bool = True, max_events: int = 10000, max_steps: int | None = None,
             progress=False, **options) -> Trajectory:
    """Integrate the arm's motion from ``(q0, qd0)`` (default rest) over ``t_span`` (``(t0, tf)`` or
    ``tf``) under ``torque``: ``None``, a vector, ``f(t)`` or ``f(t, q, qd)``.  ``integrator``:
    ``"euler"`` (Lynch & Park, Sec. 8.5, step ``dt``) or a :func:`scipy.integrate.solve_ivp` method
    with ``rtol``, ``atol``, ``options``, sampled at its steps, every ``dt`` or ``t_eval``.
    ``method``, ``variant``, ``gravity``, ``friction``, ``tip_wrench`` as for forward dynamics;
    ``stiction=False`` integrates Eq. (6-3-3) as written.  ``max_steps`` bounds the work; a
    request beyond it, a diverging run or non-finite accelerations raise errors saying what to
    change.  ``progress``: a bar, a line, or a function of the time reached.

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
    model = IntegratedModel(robot, torque_function(robot, torque), method, plan.variant,
                   flags["gravity"], flags["friction"], flags["tip_wrench"], flags["compiled"],
                   flags["stiction"])
    samples = _integrate(model, plan, progress)
    return sampled_trajectory(model, samples, plan.integrator, method, plan.variant,
                              flags["gravity"])


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
    q0, qd0 = state_vector(robot, q0, "q0"), state_vector(robot, qd0, "qd0")
    if dt is not None:
        dt = checks.number(dt, "dt", unit=" of seconds")
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
    rtol = checks.number(rtol, "rtol")
    atol = _check_tolerance(atol, "atol", 2 * robot.n)
    if "dense_output" in options:
        raise ValueError("simulate keeps samples, not solve_ivp's dense output; ask for "
                         "more samples with dt or t_eval")
    options = dict(options)
    for name in ("max_step", "first_step", "min_step"):
        if name in options:
            options[name] = checks.number(options[name], name, unit=" of seconds")
    return dict(rtol=rtol, atol=atol, **options)


def _integrate(model: IntegratedModel, plan: _Plan, progress):
    """The samples of the planned run, with ``progress`` shown (and closed) along the way."""
    label = "Euler" if plan.euler else ADAPTIVE[plan.integrator]
    report = _Progress(progress, f"{model.robot.name}, {label}", plan.t0, plan.tf) \
        if progress else None
    try:
        if plan.euler:
            samples = euler_integration(model, plan.q0, plan.qd0, plan.t0, plan.tf, plan.h,
                                        plan.steps, plan.max_events, report)
        else:
            samples = adaptive_integration(model, plan.q0, plan.qd0, plan.t0, plan.tf,
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
