"""Forward-mode derivatives through dynlab's generic code (``dD/dq`` of Schilling,
Eq. (6-4-6); Lynch & Park, Sec. 8.1 (draft Eq. (9.13))): a :class:`Jet` is a value with its
exact gradient, over floats or SymPy scalars.

>>> x, y = Jet(0.5, (1.0, 0.0)), Jet(2.0, (0.0, 1.0))
>>> f = x * y + JET_NUMERIC.sin(x)
>>> round(f.value, 6), [round(g, 6) for g in f.grad]   # (xy + sin x, (y + cos x, x))
(1.479426, [2.877583, 0.5])
"""

from __future__ import annotations

from dynlab.model.vectors import NUMERIC, SYMBOLIC, Backend


class Jet:
    """A scalar and its gradient with respect to the seeded variables."""

    __slots__ = ("value", "grad")

    def __init__(self, value, grad):
        self.value = value
        self.grad = tuple(grad)

    def __add__(self, other):
        if isinstance(other, Jet):
            return Jet(self.value + other.value, [a + b for a, b in zip(self.grad, other.grad)])
        return Jet(self.value + other, self.grad)

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, Jet):
            return Jet(self.value - other.value, [a - b for a, b in zip(self.grad, other.grad)])
        return Jet(self.value - other, self.grad)

    def __rsub__(self, other):
        return Jet(other - self.value, [-a for a in self.grad])

    def __mul__(self, other):
        if isinstance(other, Jet):
            u, v = self.value, other.value
            return Jet(u * v, [u * b + v * a for a, b in zip(self.grad, other.grad)])
        return Jet(self.value * other, [a * other for a in self.grad])

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, Jet):
            raise TypeError("division by a jet is not needed by dynlab's formulations")
        return Jet(self.value / other, [a / other for a in self.grad])

    def __neg__(self):
        return Jet(-self.value, [-a for a in self.grad])

    def __repr__(self) -> str:
        return f"Jet({self.value!r}, {self.grad!r})"


def seed(values, zero=0.0, one=1.0) -> list:
    """Jets for independent variables: ``values[k]`` with gradient ``e_k``."""
    n = len(values)
    return [Jet(v, [one if j == k else zero for j in range(n)]) for k, v in enumerate(values)]


def value(x):
    return x.value if isinstance(x, Jet) else x


def gradient(x, n: int, zero=0.0) -> tuple:
    return x.grad if isinstance(x, Jet) else (zero,) * n


def _lift(base: Backend) -> Backend:
    def sin(x):
        if isinstance(x, Jet):
            c = base.cos(x.value)
            return Jet(base.sin(x.value), [c * a for a in x.grad])
        return base.sin(x)

    def cos(x):
        if isinstance(x, Jet):
            s = base.sin(x.value)
            return Jet(base.cos(x.value), [-s * a for a in x.grad])
        return base.cos(x)

    def not_differentiable(name):
        def function(x):
            if isinstance(x, Jet):
                raise TypeError(f"{name} is not differentiated by jets (friction is added "
                                f"outside the Lagrangian terms)")
            return getattr(base, name)(x)
        return function

    return Backend(f"jet-{base.name}", sin, cos, not_differentiable("sign"),
                   not_differentiable("exp"), not_differentiable("abs"))


JET_NUMERIC = _lift(NUMERIC)
JET_SYMBOLIC = _lift(SYMBOLIC)


def lift(backend: Backend) -> Backend:
    """The jet version of ``backend`` (numeric, symbolic or traced scalars inside the jets)."""
    if backend is NUMERIC:
        return JET_NUMERIC
    if backend is SYMBOLIC:
        return JET_SYMBOLIC
    return _lift(backend)
