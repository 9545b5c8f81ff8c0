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


def compact(expr):
    """A compact, book-style form of ``expr`` (a SymPy expression or Matrix)."""
    if isinstance(expr, sympy.MatrixBase):
        return expr.applyfunc(compact)
    expr = sympy.sympify(expr)
    if not expr.free_symbols:
        return expr
    return sympy.trigsimp(sympy.expand(expr))


def is_zero(expr) -> bool:
    """True when ``expr`` (expression or Matrix) simplifies to exactly zero.

    >>> x = sympy.Symbol("x")
    >>> is_zero(sympy.sin(x)**2 + sympy.cos(x)**2 - 1), is_zero(x)
    (True, False)
    """
    if isinstance(expr, sympy.MatrixBase):
        return all(is_zero(e) for e in expr)
    expr = sympy.sympify(expr)
    if expr == 0:
        return True
    return sympy.simplify(compact(expr)) == 0
