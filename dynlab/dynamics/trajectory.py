"""Reference motions ``r(t) -> (q_d, qd_d, qdd_d)``: a set point, a quintic rest-to-rest move
``q0 + s(t/T) (q1 - q0)`` with ``s(x) = 10 x^3 - 15 x^4 + 6 x^5`` (Lynch & Park, "Trajectory
Generation", fifth-order time scaling), and quintic moves one after another.

>>> move = quintic([0.0, 1.0], [1.0, 0.0], 2.0)
>>> q, qd, qdd = move(1.0)                         # half way: s = 1/2, s' = 15/8
>>> q.tolist(), qd.tolist(), qdd.tolist()
([0.5, 0.5], [0.9375, -0.9375], [0.0, -0.0])
>>> move(5.0)[0].tolist()                          # at rest at the goal afterwards
[1.0, 0.0]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

#: What NumPy would read as a number but no joint value is (``True`` as 1, ``"1"`` as 1.0).
TRUTH_OR_TEXT = (bool, np.bool_, str, bytes)


def joint_array(values, name: str, n: int | None = None) -> np.ndarray:
    """``values`` as a 1-D float array of finite numbers (of length ``n`` when given).

    >>> joint_array([True, 0.4], "start")
    Traceback (most recent call last):
    ...
    TypeError: start must be numbers (one per joint), got [True, 0.4]
    """
    try:
        if any(isinstance(v, TRUTH_OR_TEXT) for v in np.array(values, dtype=object).flat):
            raise TypeError(name)
        array = np.array(values, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be numbers (one per joint), got {values!r}") from None
    if array.ndim == 0:
        array = array.reshape(1)
    if array.ndim != 1 or not len(array):
        raise ValueError(f"{name} must be a vector of joint values, got shape {array.shape}")
    if n is not None and len(array) != n:
        raise ValueError(f"{name} has {len(array)} entries; the arm has {n} joints")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite, got {array.tolist()}")
    return array


class SetPoint:
    """A constant reference: ``q_d`` with zero velocity and acceleration.

    >>> SetPoint([0.3, -0.2])(4.0)[0].tolist()
    [0.3, -0.2]
    """

    def __init__(self, q: Sequence):
        self.q = joint_array(q, "the set point")
        self.n = len(self.q)
        self._zero = np.zeros(self.n)

    def __call__(self, t: float):
        return self.q, self._zero, self._zero

    def __repr__(self) -> str:
        return f"SetPoint({self.q.tolist()})"


class Quintic:
    """The fifth-order point-to-point move of the module docstring (rest to rest, zero
    acceleration at both ends), from ``q0`` at ``t0`` to ``q1`` at ``t0 + T``."""

    def __init__(self, q0: Sequence, q1: Sequence, T: float, t0: float = 0.0):
        self.q0 = joint_array(q0, "q0")
        self.q1 = joint_array(q1, "q1", len(self.q0))
        if not (isinstance(T, (int, float)) and not isinstance(T, bool) and math.isfinite(T)
                and T > 0):
            raise ValueError(f"the move's duration T must be a positive number of seconds, "
                             f"got {T!r}")
        if not (isinstance(t0, (int, float)) and not isinstance(t0, bool) and math.isfinite(t0)):
            raise ValueError(f"the start time t0 must be a number of seconds, got {t0!r}")
        self.T, self.t0 = float(T), float(t0)
        self.n = len(self.q0)
        self.delta = self.q1 - self.q0
        # the peak of s''/T^2 and of the move's acceleration (peak_acceleration) must be numbers
        peak = 10.0 * math.sqrt(3.0) / 3.0 * max(1.0, float(np.abs(self.delta).max()))
        if not (self.T * self.T > 0.0 and math.isfinite(peak / (self.T * self.T))):
            raise ValueError(f"the move from q0 to q1 in T = {T!r} s is beyond floating point: "
                             f"its peak acceleration 10 sqrt(3)/3 |q1 - q0| / T^2 overflows; "
                             f"give a longer duration T or a shorter move")
        self._zero = np.zeros(self.n)

    def __call__(self, t: float):
        x = (t - self.t0) / self.T
        if x <= 0.0:
            return self.q0, self._zero, self._zero
        if x >= 1.0:
            return self.q1, self._zero, self._zero
        s = x * x * x * (10.0 + x * (-15.0 + 6.0 * x))
        ds = 30.0 * x * x * (1.0 - x) * (1.0 - x)
        dds = 60.0 * x * (1.0 - x) * (1.0 - 2.0 * x)
        return (self.q0 + s * self.delta, (ds / self.T) * self.delta,
                (dds / (self.T * self.T)) * self.delta)

    def peak_velocity(self) -> np.ndarray:
        """``15/8 |q1 - q0| / T``, per joint."""
        return 15.0 / 8.0 * np.abs(self.delta) / self.T

    def peak_acceleration(self) -> np.ndarray:
        """``10 sqrt(3) / 3 |q1 - q0| / T^2``, per joint."""
        return 10.0 * math.sqrt(3.0) / 3.0 * np.abs(self.delta) / self.T**2

    def __repr__(self) -> str:
        return (f"Quintic(q0={self.q0.tolist()}, q1={self.q1.tolist()}, T={self.T:g}, "
                f"t0={self.t0:g})")


def quintic(q0: Sequence, q1: Sequence, T: float, t0: float = 0.0) -> Quintic:
    """The quintic rest-to-rest move from ``q0`` to ``q1`` taking ``T`` seconds from ``t0``
    (see the module docstring for its equations)."""
    return Quintic(q0, q1, T, t0)


class QuinticPath:
    """Quintic rest-to-rest legs ``(goal, duration)`` one after another from ``q0`` (a leg to its
    own start is a hold); ``T`` the whole duration.

    >>> out_and_back = QuinticPath([0.0], [([1.0], 2.0), ([1.0], 1.0), ([0.0], 2.0)])
    >>> out_and_back.T, out_and_back(1.0)[0].tolist(), out_and_back(4.0)[0].tolist()
    (5.0, [0.5], [0.5])
    >>> QuinticPath([0.0], [([1.0], 0.0)])
    Traceback (most recent call last):
    ...
    ValueError: leg 1 of the path: the move's duration T must be a positive number ..., got 0.0
    """

    def __init__(self, q0: Sequence, legs, t0: float = 0.0):
        start, self.legs = joint_array(q0, "q0"), []
        for k, leg in enumerate(legs, start=1):
            try:
                goal, duration = leg
            except (TypeError, ValueError):
                raise ValueError(f"leg {k} of the path must be a pair (goal, duration), got "
                                 f"{leg!r}") from None
            begin = self.legs[-1].t0 + self.legs[-1].T if self.legs else t0
            try:
                self.legs.append(Quintic(start, goal, duration, begin))
            except ValueError as error:
                raise ValueError(f"leg {k} of the path: {error}") from None
            start = self.legs[-1].q1
        if not self.legs:
            raise ValueError("a path needs at least one leg (goal, duration)")
        self.t0, self.n, self.q0 = self.legs[0].t0, self.legs[0].n, self.legs[0].q0
        self.T = self.legs[-1].t0 + self.legs[-1].T - self.t0
        self._ends = np.array([leg.t0 + leg.T for leg in self.legs])

    def __call__(self, t: float):
        k = min(int(np.searchsorted(self._ends, t)), len(self.legs) - 1)
        return self.legs[k](t)

    def __repr__(self) -> str:
        return f"QuinticPath({len(self.legs)} legs, T={self.T:g}, t0={self.t0:g})"


def as_reference(reference, n: int) -> Callable:
    """A reference for an ``n``-joint arm: a :class:`SetPoint` for a vector of ``n`` numbers;
    a callable ``r(t) -> (q_d, qd_d, qdd_d)`` is checked once (at ``t = 0``) for three vectors
    of ``n`` finite numbers and returned as it is.

    >>> as_reference([0.1, 0.2], 2)
    SetPoint([0.1, 0.2])
    >>> as_reference(lambda t: ([0.0], [0.0]), 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the reference must return (q_d, qd_d, qdd_d) for a time t; at t = 0 it ...
    """
    if not callable(reference):
        return SetPoint(joint_array(reference, "the set point", n))
    if getattr(reference, "n", n) != n:
        raise ValueError(f"the reference is for {reference.n} joints; the arm has {n}")
    try:
        values = reference(0.0)
    except TypeError as error:
        raise TypeError(f"the reference must be a function of time r(t) -> (q_d, qd_d, qdd_d) "
                        f"({error})") from None
    try:
        count = len(values)
    except TypeError:
        count = 1
    if count != 3:
        raise ValueError(f"the reference must return (q_d, qd_d, qdd_d) for a time t; at "
                         f"t = 0 it returned {count} values")
    for name, value in zip(("q_d", "qd_d", "qdd_d"), values):
        joint_array(value, f"the reference's {name} at t = 0", n)
    return reference
