"""Bringing derived expressions to the compact form of the books.

``compact`` expands, applies the trigonometric identities (``sin^2 + cos^2 = 1``, angle sums, so
``C1 C2 - S1 S2`` becomes ``C12``) and collects the result by joint accelerations and velocity
products, the way 000 Sec. 3.2.6 and 002 Sec. 6-5 print their final equations.

>>> import sympy
>>> q1, q2, qd1 = sympy.symbols("q1 q2 qd1")
>>> compact(sympy.sin(q1)**2 * qd1 + sympy.cos(q1)**2 * qd1)
qd1
>>> compact(sympy.cos(q1) * sympy.cos(q2) - sympy.sin(q1) * sympy.sin(q2))
cos(q1 + q2)
"""

from __future__ import annotations

import sympy


#: Float coefficients smaller than this, relative to the largest float in an expression, are
#: round-off (derivations with float parameters cancel to 1e-16, not to 0).
ROUND_OFF = 1e-12


def chop(expr, relative: float = ROUND_OFF, scale: float | None = None):
    """Drop float round-off: Float atoms below ``relative * scale`` become 0 (``scale`` defaults
    to the largest float in ``expr``, at least 1).

    >>> x = sympy.Symbol("x")
    >>> chop(2.5 * x + 3.0e-17 * x**2)
    2.5*x
    """
    expr = sympy.sympify(expr)
    floats = expr.atoms(sympy.Float)
    if not floats:
        return expr
    if scale is None:
        scale = max([1.0] + [abs(float(f)) for f in floats])
    tiny = {f: 0 for f in floats if abs(float(f)) < relative * scale}
    return expr.xreplace(tiny) if tiny else expr


def compact(expr):
    """A compact, book-style form of ``expr`` (a SymPy expression or Matrix)."""
    if isinstance(expr, sympy.MatrixBase):
        return expr.applyfunc(compact)
    expr = sympy.sympify(expr)
    if not expr.free_symbols:
        return chop(expr)
    return chop(sympy.trigsimp(chop(sympy.expand(expr))))


def is_zero(expr, scale: float | None = None) -> bool:
    """True when ``expr`` (expression or Matrix) simplifies to zero (float round-off below
    ``ROUND_OFF * scale`` ignored; ``scale`` is the size of the quantities that were compared).

    >>> x = sympy.Symbol("x")
    >>> is_zero(sympy.sin(x)**2 + sympy.cos(x)**2 - 1), is_zero(x)
    (True, False)
    """
    if isinstance(expr, sympy.MatrixBase):
        return all(is_zero(e, scale) for e in expr)
    expr = chop(sympy.expand(sympy.sympify(expr)), scale=scale)
    if expr == 0:
        return True
    reduced = chop(sympy.trigsimp(expr), scale=scale)
    if reduced == 0:
        return True
    return chop(sympy.simplify(reduced), scale=scale) == 0
