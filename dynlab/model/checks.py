"""Checks of arguments and results shared by every entry point; each error names where and what.

>>> flag("no", "inverse_dynamics", "gravity")
Traceback (most recent call last):
...
TypeError: inverse_dynamics: gravity must be True or False, got str 'no'
>>> count(True, "puma560", "joints", 1, 6)
Traceback (most recent call last):
...
TypeError: puma560: joints must be a whole number from 1 to 6, got the boolean True
"""

from __future__ import annotations

import math
import numbers

import numpy as np


def flag(value, where: str, name: str, *, allow_none: bool = False):
    """``value`` as a ``bool`` (NumPy booleans too), or a ``TypeError`` naming the flag.

    ``allow_none`` admits ``None`` for a flag whose default means "decide for me" (``simplify``).
    """
    if value is True or value is False:
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if value is None and allow_none:
        return None
    allowed = "True, False or None" if allow_none else "True or False"
    raise TypeError(f"{where}: {name} must be {allowed}, got {type(value).__name__} {value!r}")


def real_number(value) -> bool:
    """Whether ``value`` is a real number and not a truth value (``True`` is the integer 1 to
    Python, and NumPy reads ``"10"`` as 10).

    >>> real_number(2.5), real_number(np.int64(3)), real_number(True), real_number("10")
    (True, True, False, False)
    """
    if type(value) is float or type(value) is int:     # the common case, without the ABC
        return True
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def number(value, name: str, *, positive: bool = True, unit: str = "") -> float:
    """``value`` as a float if it is a finite real number (not a truth value), positive or, with
    ``positive=False``, non-negative.

    >>> number(0.5, "dt", unit=" of seconds")
    0.5
    >>> number(0, "dt", unit=" of seconds")
    Traceback (most recent call last):
    ...
    ValueError: dt must be a positive finite number of seconds, got 0
    """
    if not real_number(value):
        raise TypeError(f"{name} must be a number{unit}, got {value!r}")
    number = float(value)
    if not (math.isfinite(number) and (number > 0 if positive else number >= 0)):
        raise ValueError(f"{name} must be a {'positive' if positive else 'non-negative'} "
                         f"finite number{unit}, got {value!r}")
    return number


def count(value, where: str, name: str, low: int = 0, high: int | None = None) -> int:
    """``value`` as an ``int`` in ``low..high``: refuses booleans, fractions and text.

    >>> count(2.0, "arm", "joints", 1)
    Traceback (most recent call last):
    ...
    TypeError: arm: joints must be a whole number >= 1, got float 2.0
    """
    wanted = (f"a whole number from {low} to {high}" if high is not None
              else f"a whole number >= {low}")
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{where}: {name} must be {wanted}, got the boolean {value!r}")
    if not isinstance(value, numbers.Integral):
        raise TypeError(f"{where}: {name} must be {wanted}, got {type(value).__name__} "
                        f"{value!r}")
    value = int(value)
    if value < low or (high is not None and value > high):
        raise ValueError(f"{where}: {name} must be {wanted}, got {value}")
    return value


def choice(value, options, where: str, name: str) -> str:
    """``value`` if it is one of the strings ``options``, else an error listing them.

    >>> choice(["newton_euler"], ("newton_euler", "dalembert"), "inverse_dynamics", "method")
    Traceback (most recent call last):
    ...
    TypeError: inverse_dynamics: method must be a string, one of newton_euler, dalembert; got list
    ['newton_euler']
    """
    if not isinstance(value, str):
        raise TypeError(f"{where}: {name} must be a string, one of {', '.join(options)}; "
                        f"got {type(value).__name__} {value!r}")
    if value not in options:
        raise ValueError(f"{where}: unknown {name} {value!r}; choose one of {', '.join(options)}")
    return value


class NotFiniteError(ValueError, ArithmeticError):
    """A result came out inf or NaN from finite inputs (an overflow): a ``ValueError`` and an
    ``ArithmeticError``."""


def all_finite(values) -> bool:
    """True when every number of ``values`` (a flat sequence of floats or an array) is finite.

    >>> all_finite((1.0, -2.5)), all_finite([1.0, float("nan")])
    (True, False)
    """
    if isinstance(values, np.ndarray):
        return bool(np.isfinite(values).all())
    try:
        return all(map(math.isfinite, values))
    except TypeError:       # nested or mixed: let NumPy look at it
        return bool(np.isfinite(np.asarray(values, dtype=float)).all())


def _vector_text(values) -> str:
    return "(" + ", ".join(f"{float(v):.6g}" for v in values) + ")"


def not_finite(quantity: str, values, where: str, state: dict) -> NotFiniteError:
    """The error for a result ``values`` of ``quantity`` (``"tau"``, ``"qdd"``, ``"D"`` ...) with
    a non-finite entry, naming the first such entry (1-based, as the books number joints) and
    the state it was computed at.

    >>> error = not_finite("tau", [1.0, float("nan")], "planar_2r", {"qd": (1e200, 1e200)})
    >>> print(error)
    tau2 of planar_2r is not finite (overflow) at qd = (1e+200, 1e+200): the result exceeds the
    range of floating-point numbers; use smaller values
    """
    array = np.asarray(values, dtype=float)
    index = tuple(int(i) + 1 for i in np.argwhere(~np.isfinite(array))[0])
    label = quantity + "".join(map(str, index)) if len(index) == 1 or max(index) < 10 else \
        f"{quantity}[{','.join(map(str, index))}]"
    at = ", ".join(f"{key} = {_vector_text(v)}" for key, v in state.items())
    return NotFiniteError(f"{label} of {where} is not finite (overflow){' at ' + at if at else ''}"
                          f": the result exceeds the range of floating-point numbers; use "
                          f"smaller values")


def check_finite(quantity: str, values, where: str, state: dict):
    """``values`` unchanged if finite, else :class:`NotFiniteError` (see :func:`not_finite`)."""
    if not all_finite(values):
        raise not_finite(quantity, values, where, state)
    return values


_FLOAT64 = np.dtype(np.float64)
_ARRAY = np.ndarray


def plain_floats(values, n: int):
    """``values`` as a sequence of ``n`` Python floats when it plainly is one (a float64 array
    of shape ``(n,)``, or a list or tuple of Python floats), else None.  Finiteness is the
    caller's.  A list or tuple is returned as it is (read, never changed).

    >>> (plain_floats([0.5, 1.0], 2), plain_floats(np.array([0.5, 1.0]), 2),
    ...  plain_floats([1, 2.0], 2))
    ([0.5, 1.0], [0.5, 1.0], None)
    """
    kind = type(values)
    if kind is np.ndarray:
        # ``is``: NumPy's built-in float64 dtype is one object; any other (a byte-swapped one,
        # say) only misses this short cut and is checked the long way
        if values.dtype is _FLOAT64 and values.shape == (n,):
            return values.tolist()
        return None
    if (kind is tuple or kind is list) and len(values) == n:
        for value in values:
            if type(value) is not float:
                return None
        return values
    return None


def plain_float_vectors(q, qd, qdd, n: int):
    """``(q, qd, qdd)`` as three sequences of ``n`` Python floats (as :func:`plain_floats` makes
    them) when each plainly is one, else None: one call for the three joint vectors of a numeric
    short cut.  Finiteness is the caller's.

    >>> plain_float_vectors(np.array([0.5, 1.0]), [0.0, 2.0], (1.0, 1.0), 2)
    ([0.5, 1.0], [0.0, 2.0], (1.0, 1.0))
    >>> plain_float_vectors([0.5, True], [0.0, 2.0], [1.0, 1.0], 2) is None
    True
    >>> plain_float_vectors(np.array([0.5, 1.0]), np.array([1, 2]), np.zeros(2), 2) is None
    True
    """
    if type(q) is _ARRAY and type(qd) is _ARRAY and type(qdd) is _ARRAY:
        # the common case (three float64 vectors) without a call per vector
        shape = (n,)
        if (q.dtype is not _FLOAT64 or qd.dtype is not _FLOAT64 or qdd.dtype is not _FLOAT64
                or q.shape != shape or qd.shape != shape or qdd.shape != shape):
            return None
        return q.tolist(), qd.tolist(), qdd.tolist()
    q, qd, qdd = plain_floats(q, n), plain_floats(qd, n), plain_floats(qdd, n)
    if q is None or qd is None or qdd is None:
        return None
    return q, qd, qdd
