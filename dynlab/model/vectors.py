"""3-vector and 3x3-matrix algebra on tuples, one code for floats and SymPy; a :class:`Backend`
supplies ``sin``, ``cos``, ``sign``, ``exp``.

>>> cross((1.0, 0.0, 0.0), (0.0, 1.0, 0.0))
(0.0, 0.0, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import sympy


def add(u, v):
    return (u[0] + v[0], u[1] + v[1], u[2] + v[2])


def add3(u, v, w):
    return (u[0] + v[0] + w[0], u[1] + v[1] + w[1], u[2] + v[2] + w[2])


def sub(u, v):
    return (u[0] - v[0], u[1] - v[1], u[2] - v[2])


def scale(s, u):
    return (s * u[0], s * u[1], s * u[2])


def dot(u, v):
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def cross(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def matvec(m, v):
    """``m v`` for a 3x3 matrix given as a tuple of rows."""
    return (m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
            m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
            m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2])


def tmatvec(m, v):
    """``m^T v`` without forming the transpose."""
    return (m[0][0] * v[0] + m[1][0] * v[1] + m[2][0] * v[2],
            m[0][1] * v[0] + m[1][1] * v[1] + m[2][1] * v[2],
            m[0][2] * v[0] + m[1][2] * v[1] + m[2][2] * v[2])


def matmul(a, b):
    return tuple(tuple(a[r][0] * b[0][c] + a[r][1] * b[1][c] + a[r][2] * b[2][c]
                       for c in range(3)) for r in range(3))


def transpose(m):
    return ((m[0][0], m[1][0], m[2][0]), (m[0][1], m[1][1], m[2][1]),
            (m[0][2], m[1][2], m[2][2]))


IDENTITY = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
ZERO = (0, 0, 0)


def _sign(x: float) -> float:
    return (x > 0) - (x < 0)


def _exact_angle(angle):
    """Floats within 1e-12 of a multiple of pi/2 become exact SymPy multiples of pi/2.

    Users often type ``alpha = np.pi / 2``; in a derivation ``cos`` of it must be 0, not 6e-17.
    """
    if isinstance(angle, float):
        turns = angle / (math.pi / 2)
        if abs(turns - round(turns)) < 1e-12:
            return sympy.pi * sympy.Rational(int(round(turns)), 2)
    return angle


@dataclass(frozen=True)
class Backend:
    """The scalar functions a recursion needs, for one kind of scalar."""

    name: str
    sin: Callable
    cos: Callable
    sign: Callable
    exp: Callable
    abs: Callable


NUMERIC = Backend("numeric", math.sin, math.cos, _sign, math.exp, abs)
SYMBOLIC = Backend("symbolic", lambda x: sympy.sin(_exact_angle(x)),
                   lambda x: sympy.cos(_exact_angle(x)), sympy.sign, sympy.exp, sympy.Abs)
