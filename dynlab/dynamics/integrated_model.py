"""The model that :func:`~dynlab.dynamics.simulation.simulate` integrates: the joint
accelerations of one arm under one stick-slip friction mode (:class:`IntegratedModel`; the
stick-slip system is described in :mod:`dynlab.dynamics.simulation`), the applied torques as a
function of time and state, and the observables recorded along a motion.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable

import numpy as np

from dynlab.dynamics.forward import (
    check_pivots,
    compiled_accelerations,
    compiled_terms,
    inertia_and_bias,
)
from dynlab.formulations.lagrange_euler import kinetic_energy, potential_energy
from dynlab.model import checks
from dynlab.model import vectors as V
from dynlab.model.friction import link_friction
from dynlab.model.kinematics import chain
from dynlab.model.ldl import singular_pivot
from dynlab.model.robot import Robot, joint_vector, joint_vector_is_numeric

#: A stuck joint whose holding torque is within this fraction of ``b_s`` of the limit when its
#: event fires is released (the event is located to round-off, on either side of the root).
RELEASE_MARGIN = 1e-9


class IntegratedModel:
    """Joint accelerations of one arm under one friction mode: ``mode[k]`` is +1, -1 (slipping) or
    0 (stuck) for a joint with static friction; other joints keep Eq. (6-3-3) as written."""

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
            if singular_pivot(values[self.n:2 * self.n], values[2 * self.n:]) is not None:
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


def torque_function(robot: Robot, torque) -> Callable:
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


def observables(links, q, qd, qdd, gravity, tip_force, tip_moment, backend=V.NUMERIC):
    """Kinetic energy (Lynch & Park, Sec. 8.1 (draft Eq. (9.10))), potential energy (Schilling, Eq.
    (6-2-17)) and the tool position, for tracing into one compiled function."""
    return [kinetic_energy(links, q, qd, backend), potential_energy(links, q, gravity, backend),
            *chain(links, q, backend)[1][-1]]


def state_vector(robot: Robot, values, name: str) -> np.ndarray:
    if values is None:
        return np.zeros(robot.n)
    entries = joint_vector(robot, values, name)
    if not joint_vector_is_numeric(entries):
        raise TypeError(f"{robot.name}: simulate needs numbers; {name} has symbols "
                        f"{list(entries)}")
    return np.array([float(v) for v in entries])
