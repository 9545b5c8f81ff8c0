"""Derived expressions brought to the books' compact form (Fu, Gonzalez & Lee, Sec. 3.2.6;
Schilling, Sec. 6-5).

>>> import sympy
>>> q1, q2 = sympy.symbols("q1 q2")
>>> compact(sympy.cos(q1) * sympy.cos(q2) - sympy.sin(q1) * sympy.sin(q2))
cos(q1 + q2)
"""

from __future__ import annotations

import sympy

#: A float coefficient at or below this fraction of the terms that expanding added into it is
#: their round-off (float parameters cancel to 1e-16, not to 0).
ROUND_OFF = 1e-12


def chop(*terms):
    """``sum(terms)`` expanded, less its cancellations' round-off: a float coefficient at most
    :data:`ROUND_OFF` times what expanding added into it goes; give a difference as ``chop(a, -b)``.

    >>> x = sympy.Symbol("x")
    >>> chop(0.1 * x * (x + 3) - 0.1 * x**2 - 0.3 * x + 3.0e-17 * x**3)
    3.0e-17*x**3
    """
    terms = [sympy.sympify(term) for term in terms]
    expanded = sympy.expand(sympy.Add(*terms))
    if not expanded.atoms(sympy.Float):
        return expanded
    sizes: dict = {}
    for term in sympy.Add.make_args(sympy.expand(sympy.Add(*map(_sizes, terms)))):
        coefficient, monomial = term.as_coeff_Mul()
        sizes[monomial] = sizes.get(monomial, 0.0) + abs(float(coefficient))
    kept = []
    for term in sympy.Add.make_args(expanded):
        coefficient, monomial = term.as_coeff_Mul()
        if not (coefficient.is_Float
                and abs(float(coefficient)) <= ROUND_OFF * sizes.get(monomial, 0.0)):
            kept.append(term)
    return sympy.Add(*kept)


def _sizes(expr):
    """``expr`` with every coefficient made positive: expanded, each term's coefficient is the
    sum of the sizes of the terms that expanding ``expr`` adds into it (no cancellation)."""
    if expr.is_Number:
        return abs(expr)
    if expr.is_Add or expr.is_Mul:
        return expr.func(*map(_sizes, expr.args))
    if expr.is_Pow and expr.exp.is_Integer and expr.exp > 0:
        return _sizes(expr.base) ** expr.exp
    return expr


#: ``trigsimp`` (gathering angle sums) is applied only to reduced expressions of at most this many
#: operations (SymPy's count_ops): on the PUMA's symbolic-parameter terms it runs for minutes.
COMPACT_OPS_LIMIT = 300

#: Derivations compact themselves by default only below this size (the raw, unexpanded result).
DEFAULT_COMPACT_LIMIT = 3000


def worth_compacting(matrix) -> bool:
    """True when every element of ``matrix`` is small enough to compact by default."""
    return all(sympy.count_ops(e) <= DEFAULT_COMPACT_LIMIT for e in matrix)


def compact(expr):
    """``expr`` in compact book form: :func:`reduce_trig`, then ``trigsimp`` for angle sums where
    quick."""
    if isinstance(expr, sympy.MatrixBase):
        return expr.applyfunc(compact)
    expr = sympy.sympify(expr)
    if not expr.free_symbols:
        return chop(expr)
    expr = reduce_trig(expr)
    if sympy.count_ops(expr) <= COMPACT_OPS_LIMIT:
        gathered = _gather_angle_sums(expr)
        # the books write products of C1, S12 ..., never multiple angles like sin(2 q1 + q2)
        if not _has_multiple_angles(gathered) and (
                sympy.count_ops(gathered) <= sympy.count_ops(expr)):
            expr = gathered
    return expr


def _gather_angle_sums(expr):
    """``trigsimp(expr)`` with each float size stood in by a symbol while it runs: SymPy turns a
    float such as 1e-200 into a fraction and then takes a minute."""
    stand_ins = {size: sympy.Dummy() for size in {abs(f) for f in expr.atoms(sympy.Float)}}
    gathered = sympy.trigsimp(expr.xreplace(
        {f: sympy.sign(f) * stand_ins[abs(f)] for f in expr.atoms(sympy.Float)}))
    return gathered.xreplace({symbol: size for size, symbol in stand_ins.items()})


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
        return chop(expr)
    polynomial, relations = converted
    if relations:
        polynomial = chop(reduce_sine_powers(polynomial, relations))
    mapping = {}
    for atom in sympy.expand_trig(expr).atoms(sympy.sin, sympy.cos):
        argument = atom.args[0]
        mapping[sympy.Symbol(f"s_{argument}")] = sympy.sin(argument)
        mapping[sympy.Symbol(f"c_{argument}")] = sympy.cos(argument)
    return polynomial.xreplace(mapping)


def trig_polynomial(expr):
    """``expr`` as a polynomial in ``s_x = sin(x)``, ``c_x = cos(x)`` and the other symbols, with
    the relations ``s_x^2 + c_x^2 = 1``; returns ``(polynomial, relations)`` or ``None`` when some
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
    return (chop(expr.xreplace(mapping)), relations)


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


def is_zero(*terms) -> bool:
    """True when ``sum(terms)`` is identically zero, float coefficients up to their round-off
    (:func:`chop`); decide ``a == b`` by ``is_zero(a, -b)``.  Exact: ``sin``/``cos`` become
    polynomial variables reduced modulo ``sin^2 + cos^2 - 1`` (a Groebner basis).

    >>> x = sympy.Symbol("x")
    >>> is_zero(sympy.sin(x)**2 + sympy.cos(x)**2 - 1), is_zero(x)
    (True, False)
    >>> is_zero(0.1 * x * 3, -0.3 * x), is_zero(x + 1e-13 * sympy.cos(x), -x)
    (True, False)
    >>> s2 = sympy.sin(x)**2                   # sines in a denominator
    >>> is_zero(s2 / (1 + s2), -(1 - sympy.cos(x)**2) / (2 - sympy.cos(x)**2))
    True
    """
    if any(isinstance(term, sympy.MatrixBase) for term in terms):
        columns = [list(term) if isinstance(term, sympy.MatrixBase) else None for term in terms]
        return all(is_zero(*elements) for elements in zip(*columns))
    converted = [trig_polynomial(term) for term in terms]
    if None in converted:
        return chop(sympy.simplify(sympy.Add(*terms))) == 0
    polynomial = chop(*(p for p, _ in converted))
    relations = list(dict.fromkeys(r for _, found in converted for r in found))
    sines = {s for relation in relations for s in relation.free_symbols
             if str(s).startswith("s_")}
    for step in range(2):
        # a sine in a denominator is reduced once the fractions are over one (step 1)
        if relations and polynomial != 0 and polynomial.is_polynomial(*sines):
            polynomial = chop(reduce_sine_powers(polynomial, relations))
        if polynomial == 0 or step == 1 or polynomial.is_rational_function() is False:
            return polynomial == 0
        # parameters in denominators (a payload folded into a link: M2/(M2 + Mp)) need the
        # fractions put over one denominator before the terms can cancel
        polynomial = chop(sympy.fraction(sympy.together(polynomial))[0])
