"""Bringing derived expressions to the compact form of the books.

``compact`` expands, applies the trigonometric identities (``sin^2 + cos^2 = 1``, angle sums, so
``C1 C2 - S1 S2`` becomes ``C12``) and collects the result by joint accelerations and velocity
products, the way Fu, Gonzalez & Lee, Sec. 3.2.6 and Schilling, Sec. 6-5 print their final equations.

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
    tiny = {f: sympy.S.Zero for f in floats if abs(float(f)) < relative * scale}
    return expr.xreplace(tiny) if tiny else expr


#: ``trigsimp`` (gathering angle sums) is applied only to reduced expressions of at most this many
#: operations (SymPy's count_ops): on the PUMA's symbolic-parameter terms it runs for minutes.
COMPACT_OPS_LIMIT = 300

#: Derivations compact themselves by default only below this size (the raw, unexpanded result).
DEFAULT_COMPACT_LIMIT = 3000


def worth_compacting(matrix) -> bool:
    """True when every element of ``matrix`` is small enough to compact by default."""
    return all(sympy.count_ops(e) <= DEFAULT_COMPACT_LIMIT for e in matrix)


def compact(expr):
    """A compact, book-style form of ``expr`` (a SymPy expression or Matrix).

    First the exact reduction of :func:`reduce_trig` (no ``sin^2 + cos^2`` survives), then, for
    expressions small enough that it is quick, ``trigsimp`` to gather angle sums
    (``C1 C2 - S1 S2 = C12``).
    """
    if isinstance(expr, sympy.MatrixBase):
        return expr.applyfunc(compact)
    expr = chop(sympy.sympify(expr))
    if not expr.free_symbols:
        return expr
    expr = reduce_trig(expr)
    if sympy.count_ops(expr) <= COMPACT_OPS_LIMIT:
        gathered = sympy.trigsimp(expr)
        # the books write products of C1, S12 ..., never multiple angles like sin(2 q1 + q2)
        if not _has_multiple_angles(gathered) and (
                sympy.count_ops(gathered) <= sympy.count_ops(expr)):
            expr = gathered
    return chop(expr)


def _has_multiple_angles(expr) -> bool:
    for atom in expr.atoms(sympy.sin, sympy.cos):
        for term in sympy.Add.make_args(atom.args[0]):
            coefficient, _ = term.as_coeff_Mul()
            if abs(coefficient) != 1:
                return True
    return False


def reduce_trig(expr):
    """``expr`` expanded, with ``sin^2 q = 1 - cos^2 q`` applied until no ``sin`` of a joint angle
    appears squared: a canonical form (two expressions are equal iff their forms are).

    >>> q = sympy.Symbol("q")
    >>> reduce_trig(sympy.sin(q)**2 + sympy.cos(q)**2 + sympy.cos(q))
    cos(q) + 1
    """
    converted = trig_polynomial(expr)
    if converted is None:
        return sympy.expand(expr)
    polynomial, relations = converted
    if relations:
        polynomial = reduce_sine_powers(polynomial, relations)
    mapping = {}
    for atom in sympy.expand_trig(expr).atoms(sympy.sin, sympy.cos):
        argument = atom.args[0]
        mapping[sympy.Symbol(f"s_{argument}")] = sympy.sin(argument)
        mapping[sympy.Symbol(f"c_{argument}")] = sympy.cos(argument)
    return sympy.expand(polynomial).xreplace(mapping)


def trig_polynomial(expr):
    """``expr`` as a polynomial in ``s_x = sin(x)``, ``c_x = cos(x)`` and the other symbols, with the
    relations ``s_x^2 + c_x^2 = 1``; returns ``(polynomial, relations)`` or ``None`` when some
    trigonometric argument is not a plain symbol after expanding angle sums and multiples.

    >>> q = sympy.Symbol("q")
    >>> polynomial, relations = trig_polynomial(sympy.cos(2 * q) + 1)
    >>> polynomial, relations
    (2*c_q**2, [c_q**2 + s_q**2 - 1])
    """
    expr = sympy.expand_trig(sympy.sympify(expr))
    mapping, relations = {}, []
    for atom in expr.atoms(sympy.sin, sympy.cos):
        argument = atom.args[0]
        if not argument.is_Symbol:
            return None
        s, c = sympy.Symbol(f"s_{argument}"), sympy.Symbol(f"c_{argument}")
        mapping[sympy.sin(argument)], mapping[sympy.cos(argument)] = s, c
        if s**2 + c**2 - 1 not in relations:
            relations.append(s**2 + c**2 - 1)
    return (sympy.expand(expr.xreplace(mapping)), relations)


def reduce_sine_powers(polynomial, relations):
    """The remainder of ``polynomial`` modulo ``s^2 + c^2 - 1`` for each joint: every ``s^k``
    becomes ``s^(k mod 2) (1 - c^2)^(k // 2)``.  The relations share no variable, so this is
    the normal form of a Groebner reduction, done term by term (much faster)."""
    pairs = []
    for relation in relations:
        s, c = sorted(relation.free_symbols, key=lambda x: not str(x).startswith("s_"))
        pairs.append((s, c))
    sines = [s for s, _ in pairs]
    total = 0
    for exponents, coefficient in sympy.Poly(polynomial, *sines).terms():
        term = coefficient
        for (s, c), e in zip(pairs, exponents):
            term = term * s ** (e % 2) * (1 - c**2) ** (e // 2)
        total += term
    return total


def is_zero(expr, scale: float | None = None) -> bool:
    """True when ``expr`` (expression or Matrix) is identically zero (float round-off below
    ``ROUND_OFF * scale`` ignored; ``scale`` is the size of the quantities that were compared).

    Exact, and fast on large derivations: angle sums are expanded, ``sin``/``cos`` of each
    joint angle become polynomial variables, and the polynomial is reduced modulo
    ``sin^2 + cos^2 - 1`` (a Groebner basis: zero remainder if and only if zero).  (No numeric
    pre-screen: ``evalf`` walks a derivation's shared subexpressions as a tree, which costs more
    than the reduction itself.)

    >>> x = sympy.Symbol("x")
    >>> is_zero(sympy.sin(x)**2 + sympy.cos(x)**2 - 1), is_zero(x)
    (True, False)
    >>> is_zero(sympy.cos(2 * x) - 1 + 2 * sympy.sin(x)**2)
    True
    """
    if isinstance(expr, sympy.MatrixBase):
        return all(is_zero(e, scale) for e in expr)
    expr = chop(sympy.sympify(expr), scale=scale)
    if expr == 0:
        return True
    if scale is None:
        scale = max([1.0] + [abs(float(f)) for f in expr.atoms(sympy.Float)])
    converted = trig_polynomial(expr)
    if converted is None:
        return chop(sympy.simplify(expr), scale=scale) == 0
    polynomial, relations = converted
    polynomial = chop(polynomial, scale=scale)
    if polynomial == 0:
        return True
    if relations:
        polynomial = reduce_sine_powers(polynomial, relations)
    remainder = chop(sympy.expand(polynomial), scale=scale)
    if remainder == 0:
        return True
    # parameters in denominators (a payload folded into a link: M2/(M2 + Mp)) need the
    # fractions put over one denominator before the terms can cancel
    return remainder.is_rational_function() is not False and chop(
        sympy.cancel(sympy.together(remainder)), scale=scale) == 0
