"""The integrators of :func:`~dynlab.dynamics.simulation.simulate`: Lynch & Park, Sec. 8.5's
Euler iteration (:func:`euler_integration`) and SciPy's adaptive methods
(:func:`adaptive_integration`, by
:func:`scipy.integrate.solve_ivp`), both stopping at the stick-slip switches; and the samples
they keep made into a :class:`~dynlab.dynamics.simulated_trajectory.Trajectory`.
"""

from __future__ import annotations

import math

import numpy as np

from dynlab.dynamics.integrated_model import IntegratedModel, observables
from dynlab.dynamics.simulated_trajectory import Trajectory
from dynlab.engine.tracing import compile_joint_function
from dynlab.model import checks


def euler_integration(model: IntegratedModel, q0, qd0, t0, tf, h, steps, max_events, report):
    """Lynch & Park, Sec. 8.5, "Euler integration algorithm for forward dynamics", with the
    stick-slip switches applied after each step.  Lynch & Park's preliminary draft prints the loop
    as "for k = 1 to N" computing ``theta[k+1]``; it must run ``k = 0 .. N-1`` from the initial
    state ``theta[0]``."""
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


def _fastest_followed(model: IntegratedModel, h: float) -> list:
    """The fastest joint speeds Euler steps of ``h`` can follow (half a turn a step; the arm's size,
    at least 1 m, for a prismatic joint): beyond them a run has diverged (Lynch & Park, Sec. 8.5).
    """
    size = max(1.0, sum(abs(link.a) + abs(link.d) for link in model.links))
    return [(math.pi if link.revolute else size) / h for link in model.links]


def _diverged(model: IntegratedModel, last, t, step, steps, h, joint=None) -> str:
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


def adaptive_integration(model: IntegratedModel, q0, qd0, t0, tf, name, t_eval, options,
                         max_events, limit, report):
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


def _step_limit(model: IntegratedModel, name, t0, tf, limit, t, h) -> str:
    return (f"{model.robot.name}: {name} took max_steps = {limit} steps and reached only "
            f"t = {t:.6g} s of t = {t0:g}..{tf:g} s; its last step was {h:.3g} s.  The motion "
            f"is too fast or too stiff for steps this long (are the torques too large?): check "
            f"the torques, loosen rtol/atol, try integrator=\"radau\" for a stiff arm, "
            f"simulate a shorter t_span, or raise max_steps")


def _failed(model: IntegratedModel, name, budget, message) -> str:
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


def _event_functions(model: IntegratedModel, mode):
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


def sampled_trajectory(model: IntegratedModel, samples, integrator, method, variant,
                       gravity) -> Trajectory:
    times, states, modes, events = samples
    robot, n = model.robot, model.n
    observe, _ = compile_joint_function(robot, ("simulate observables",), observables)
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
