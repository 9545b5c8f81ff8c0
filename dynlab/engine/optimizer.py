"""The optimizer of generated code (the job of the thesis appendix's hand-written passes,
App. B.5-B.7): sums kept as linear combinations so that numeric factors and signs cost
nothing until a sum is formed, equal sums formed once, shared pairs of terms added once;
each rewrite checked against the program at random inputs.

>>> prog = Program([("x", 2)], [("t0", "*", ("x0", 0.5)), ("t1", "*", ("t0", 3.0)),
...                             ("t2", "*", ("x1", "x0")), ("t3", "neg", ("t2",)),
...                             ("t4", "+", ("t1", "t3"))], ["t4"])
>>> prog.counts(), optimize(prog).counts()          # 1.5 x0 - x0 x1
({'mul': 3, 'add': 2, 'div': 0, 'call': 0}, {'mul': 2, 'add': 1, 'div': 0, 'call': 0})
"""

from __future__ import annotations

import heapq
import math
import re
from collections.abc import Sequence

import numpy as np

from dynlab.engine.program import FUNCTIONS, MATH_FUNCTIONS, Program


def _magnitude(value: float) -> float:
    """``|value|`` to 12 significant digits: factors equal but for rounding group together."""
    return float(f"{abs(value):.12g}")


def _snap(value: float) -> float:
    """``+-1`` for a ratio within 1e-12 of it (a factor pulled out of terms equal but for
    rounding), else ``value``."""
    if abs(abs(value) - 1.0) < 1e-12:
        return math.copysign(1.0, value)
    return value


class _Lin:
    """``c0 + sum_k terms[k] * atom_k``: a value during optimization (atoms are integers)."""

    __slots__ = ("c0", "terms")

    def __init__(self, c0=0.0, terms=None):
        self.c0 = float(c0)
        self.terms = terms if terms is not None else {}

    @property
    def constant(self) -> bool:
        return not self.terms


class Optimizer:
    """Rewrites straight-line code over :class:`_Lin` linear combinations of atoms (inputs,
    products, quotients, calls, formed sums); a product forms its factors, a common factor pulled
    out, and is recorded once.

    >>> opt = Optimizer([("x", 2)])
    >>> x0, x1 = opt.input("x0"), opt.input("x1")
    >>> y = opt.mul(opt.add(opt.scale(x0, 0.6), opt.scale(x1, 0.6)), x1)   # (0.6 x0 + 0.6 x1) x1
    >>> z = opt.add(opt.scale(y, 2.0), opt.scale(x0, -1.0))                 # 2 y - x0
    >>> print(opt.program([y, z]).python_source("f"))
    def f(x):
        x0, x1 = x
        t0 = x0 + x1
        t1 = x1 * t0
        t2 = t1 * 0.6
        t3 = t1 * 1.2
        t4 = t3 - x0
        return (t2, t4)
    """

    def __init__(self, inputs):
        self.inputs = [(stem, n) for stem, n in inputs]
        self.defs: list = []
        self.index: dict = {}
        for stem, n in self.inputs:
            for k in range(n):
                self._atom(("in", f"{stem}{k}"))

    # -- atoms --------------------------------------------------------------------------------
    def _atom(self, definition) -> int:
        found = self.index.get(definition)
        if found is None:
            found = len(self.defs)
            self.defs.append(definition)
            self.index[definition] = found
        return found

    def input(self, name: str) -> _Lin:
        return _Lin(0.0, {self.index[("in", name)]: 1.0})

    @staticmethod
    def const(value) -> _Lin:
        return _Lin(float(value))

    # -- linear operations (free) -------------------------------------------------------------
    def add(self, a: _Lin, b: _Lin, sign: float = 1.0) -> _Lin:
        terms = dict(a.terms)
        for atom, coefficient in b.terms.items():
            value = terms.get(atom, 0.0) + sign * coefficient
            if value == 0.0:
                terms.pop(atom, None)
            else:
                terms[atom] = value
        return _Lin(a.c0 + sign * b.c0, terms)

    def sub(self, a: _Lin, b: _Lin) -> _Lin:
        return self.add(a, b, -1.0)

    def scale(self, a: _Lin, factor: float) -> _Lin:
        factor = float(factor)
        if factor == 0.0:
            return _Lin(0.0)
        return _Lin(a.c0 * factor, {k: v * factor for k, v in a.terms.items()})

    def neg(self, a: _Lin) -> _Lin:
        return self.scale(a, -1.0)

    # -- forming a value ----------------------------------------------------------------------
    def form(self, a: _Lin) -> tuple:
        """``(factor, atom)`` with ``a = factor * atom``; a sum is recorded (once) with its
        most frequent coefficient magnitude pulled out and its first term positive."""
        if a.constant:
            raise ValueError("a constant is not formed into an atom")
        terms = a.terms
        if len(terms) == 1 and a.c0 == 0.0:
            (atom, coefficient), = terms.items()
            return coefficient, atom
        magnitudes: dict = {}
        for coefficient in terms.values():
            key = _magnitude(coefficient)
            magnitudes[key] = magnitudes.get(key, 0) + 1
        best = max(magnitudes.values())
        factor = 1.0 if magnitudes.get(1.0) == best else \
            next(abs(c) for _, c in sorted(terms.items()) if magnitudes[_magnitude(c)] == best)
        first = min(terms)
        if terms[first] < 0:
            factor = -factor
        normal = tuple(sorted((k, _snap(v / factor)) for k, v in terms.items()))
        return factor, self._atom(("sum", _snap(a.c0 / factor), normal))

    def exact(self, a: _Lin):
        """An atom whose value is exactly ``a`` (or a float for a constant)."""
        if a.constant:
            return a.c0
        factor, atom = self.form(a)
        if factor == 1.0:
            return atom
        if factor == -1.0:
            return self._atom(("neg", atom))
        return self._atom(("scale", atom, factor))

    # -- non-linear operations ------------------------------------------------------------------
    def mul(self, a: _Lin, b: _Lin) -> _Lin:
        if a.constant:
            return self.scale(b, a.c0)
        if b.constant:
            return self.scale(a, b.c0)
        fa, ia = self.form(a)
        fb, ib = self.form(b)
        atom = self._atom(("*", min(ia, ib), max(ia, ib)))
        return _Lin(0.0, {atom: fa * fb})

    def div(self, a: _Lin, b: _Lin) -> _Lin:
        if b.constant:
            if b.c0 == 0.0:
                raise ZeroDivisionError("division by the constant 0 in generated code")
            return self.scale(a, 1.0 / b.c0)
        fb, ib = self.form(b)
        if a.constant:
            if a.c0 == 0.0:
                return _Lin(0.0)
            return _Lin(0.0, {self._atom(("recip", ib)): a.c0 / fb})
        fa, ia = self.form(a)
        return _Lin(0.0, {self._atom(("/", ia, ib)): fa / fb})

    def call(self, function: str, a: _Lin) -> _Lin:
        if function not in FUNCTIONS:
            raise ValueError(f"unknown function {function!r} in generated code")
        if a.constant:
            return _Lin(MATH_FUNCTIONS[function](a.c0))
        factor, atom = self.form(a)
        if factor == -1.0 and function in ("sin", "sign"):          # odd functions
            return _Lin(0.0, {self._atom((function, atom)): -1.0})
        if factor == -1.0 and function in ("cos", "abs"):           # even functions
            return _Lin(0.0, {self._atom((function, atom)): 1.0})
        argument = self.exact(a)
        return _Lin(0.0, {self._atom((function, argument)): 1.0})

    # -- the program ------------------------------------------------------------------------------
    def program(self, outputs: Sequence[_Lin], share: bool = True, absorb: str | None = None):
        """The program computing ``outputs``; with ``absorb`` (a stem of precomputed constants,
        ``r1, r2, ...``) a product ``r_k * x`` always used with the factor ``c`` uses a new constant
        ``c r_k``: ``(program, [(new, old, c), ...])``."""
        formed = [(v.c0, None) if v.constant else self.form(v) for v in outputs]
        defs = list(self.defs)
        _unsign_roots(defs, formed)
        inputs = [list(group) for group in self.inputs]
        absorbed = []
        if absorb is not None:
            absorbed = _absorb(defs, formed, absorb, inputs)
        roots = []
        for factor, atom in formed:
            if atom is None:
                roots.append(factor)
            elif factor == 1.0:
                roots.append(atom)
            else:
                defs.append(("neg", atom) if factor == -1.0 else ("scale", atom, factor))
                roots.append(len(defs) - 1)
        if share:
            _share_pairs(defs, _live(defs, [r for r in roots if isinstance(r, int)]))
        program = _emit([tuple(group) for group in inputs], defs, roots)
        return (program, absorbed) if absorb is not None else program


def _user_counts(defs, live, formed) -> dict:
    """How many times each atom is used: as an operand of a live definition or as an output."""
    users: dict = {}
    for atom in live:
        for child in _children(defs[atom]):
            users[child] = users.get(child, 0) + 1
    for _, atom in formed:
        if atom is not None:
            users[atom] = users.get(atom, 0) + 1
    return users


def _unsign_roots(defs, formed) -> None:
    """An output ``-(sum)`` whose sum is used nowhere else is computed as the negated sum
    (``b - a`` rather than ``-(a - b)``): a negation saved."""
    live = _live(defs, [atom for _, atom in formed if atom is not None])
    users = _user_counts(defs, live, formed)
    for k, (factor, atom) in enumerate(formed):
        if atom is None or factor >= 0 or defs[atom][0] != "sum" or users[atom] != 1:
            continue
        _, c0, terms = defs[atom]
        if c0 > 0 or any(c < 0 for _, c in terms):
            defs[atom] = ("sum", -c0, tuple((a, -c) for a, c in terms))
            formed[k] = (-factor, atom)


def _push_root_factors(defs, formed, live, constants) -> None:
    """An output ``f * (sum)`` whose sum is used nowhere else takes ``f`` into the sum's
    coefficients when that does not cost more multiplications (products with a constant
    ``r_k`` count as free: :func:`_absorb` takes their factors into new constants)."""
    users = _user_counts(defs, live, formed)

    def cost(terms):
        free = [(a, c) for a, c in terms if not (defs[a][0] == "*" and
                                                  {defs[a][1], defs[a][2]} & constants)]
        return len({_magnitude(c) for _, c in free} - {1.0})

    for k, (factor, atom) in enumerate(formed):
        if atom is None or abs(factor) == 1.0 or defs[atom][0] != "sum" or users[atom] != 1:
            continue
        _, c0, terms = defs[atom]
        pushed = tuple((a, c * factor) for a, c in terms)
        if cost(pushed) + (c0 != 0.0) <= cost(terms) + 1:
            defs[atom] = ("sum", c0 * factor, pushed)
            formed[k] = (1.0, atom)


def _absorb(defs, formed, stem, inputs) -> list:
    """Move constant factors of products ``r_k * x`` into new constants (see
    :meth:`Optimizer.program`); modifies ``defs``, ``formed`` and ``inputs`` in place."""
    group = next(g for g in inputs if g[0] == stem)
    constants = {atom for atom, d in enumerate(defs) if d[0] == "in"
                 and re.fullmatch(rf"{stem}\d+", d[1])}
    live = _live(defs, [atom for _, atom in formed if atom is not None])
    _push_root_factors(defs, formed, live, constants)
    uses: dict = {}
    for atom in live:
        definition = defs[atom]
        if definition[0] == "sum":
            for index, (child, coefficient) in enumerate(definition[2]):
                uses.setdefault(child, []).append(("sum", atom, index, coefficient))
        else:
            for child in _children(definition):
                uses.setdefault(child, []).append(("fixed",))
    for k, (factor, atom) in enumerate(formed):
        if atom is not None:
            uses.setdefault(atom, []).append(("root", k, None, factor))
    made: dict = {}
    absorbed = []
    for atom in sorted(live):
        definition = defs[atom]
        if definition[0] != "*" or not ({definition[1], definition[2]} & constants):
            continue
        found = uses.get(atom, [])
        if not found or any(use[0] == "fixed" for use in found):
            continue
        magnitudes = {_magnitude(use[3]) for use in found}
        if len(magnitudes) != 1 or magnitudes == {1.0}:
            continue
        c = abs(found[0][3])
        r = definition[1] if definition[1] in constants else definition[2]
        other = definition[2] if r == definition[1] else definition[1]
        key = (r, _magnitude(c))
        if key not in made:
            name = f"{stem}{group[1]}"
            group[1] += 1
            defs.append(("in", name))
            made[key] = len(defs) - 1
            absorbed.append((name, defs[r][1], c))
        new = made[key]
        defs[atom] = ("*", min(new, other), max(new, other))
        for use in found:
            if use[0] == "root":
                factor, root = formed[use[1]]
                formed[use[1]] = (_snap(factor / c), root)
            else:
                _, owner, index, coefficient = use
                kind, c0, terms = defs[owner]
                terms = list(terms)
                terms[index] = (terms[index][0], _snap(terms[index][1] / c))
                defs[owner] = (kind, c0, tuple(terms))
    return absorbed


def _children(definition) -> list:
    kind = definition[0]
    if kind == "in":
        return []
    if kind == "sum":
        return [atom for atom, _ in definition[2]]
    if kind in ("*", "/"):
        return [definition[1], definition[2]]
    return [definition[1]]                         # recip, neg, scale, functions


def _live(defs, roots) -> set:
    live, stack = set(), list(roots)
    while stack:
        atom = stack.pop()
        if atom in live:
            continue
        live.add(atom)
        stack.extend(_children(defs[atom]))
    return live


def _share_pairs(defs, live, max_terms: int = 24) -> None:
    """Form once a pair of terms ``a + r b`` that several sums contain (with the same ratio
    ``r`` of coefficients), greedily, most shared first, while it saves operations.  Modifies
    ``defs`` in place: sums get the pair's new atom in place of its two terms."""
    sums = {atom: dict(defs[atom][2]) for atom in live if defs[atom][0] == "sum"
            and len(defs[atom][2]) <= max_terms}
    constants = {atom: defs[atom][1] for atom in sums}

    def pairs_of(terms):
        keys = sorted(terms)
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                yield (a, b, terms[b] / terms[a])

    where: dict = {}
    for atom, terms in sums.items():
        for key in pairs_of(terms):
            where.setdefault(key, set()).add(atom)
    heap = [(-len(owners), key) for key, owners in where.items() if len(owners) >= 2]
    heapq.heapify(heap)
    rejected = set()
    while heap:
        count, key = heapq.heappop(heap)
        owners = where.get(key)
        if key in rejected or not owners or len(owners) < 2:
            continue
        if len(owners) != -count:                       # stale entry: requeue at its count
            heapq.heappush(heap, (-len(owners), key))
            continue
        a, b, ratio = key
        owners = sorted(owners)
        saved = sum(1 + (abs(sums[s][b]) != 1.0) - (abs(sums[s][a]) != 1.0) for s in owners)
        cost = 1 + (abs(ratio) != 1.0)
        if saved <= cost:
            rejected.add(key)
            continue
        pair = len(defs)
        defs.append(("sum", 0.0, ((a, 1.0), (b, ratio))))
        for s in owners:
            terms = sums[s]
            for old in pairs_of(terms):
                found = where.get(old)
                if found is not None:
                    found.discard(s)
                    if not found:
                        del where[old]
            coefficient = terms.pop(a)
            terms.pop(b)
            terms[pair] = terms.get(pair, 0.0) + coefficient
            for new in pairs_of(terms):
                owners_new = where.setdefault(new, set())
                owners_new.add(s)
                if len(owners_new) >= 2:
                    heapq.heappush(heap, (-len(owners_new), new))
    for atom, terms in sums.items():
        defs[atom] = ("sum", constants[atom], tuple(sorted(terms.items())))


def _emit(inputs, defs, roots) -> Program:
    """Lines in dependency order (depth first from the outputs), one operation each."""
    emitter = _Emitter(defs)
    outputs = []
    for root in roots:
        if isinstance(root, int):
            emitter.visit(root)
            outputs.append(emitter.names[root])
        else:
            outputs.append(float(root))
    return Program(inputs, emitter.lines, outputs)


class _Emitter:
    """Writes the atoms of ``defs`` as program lines: ``names`` maps an emitted atom to its
    variable (or input) name, ``lines`` are the lines so far."""

    def __init__(self, defs):
        self.defs = defs
        self.names: dict = {}
        self.lines: list = []

    def line(self, op, args) -> str:
        target = f"t{len(self.lines)}"
        self.lines.append((target, op, tuple(args)))
        return target

    def visit(self, root) -> None:
        """Emit ``root`` after every atom it depends on (iteratively: chains are long)."""
        names = self.names
        stack = [(root, False)]
        while stack:
            atom, expanded = stack.pop()
            if atom in names:
                continue
            definition = self.defs[atom]
            if not expanded:
                stack.append((atom, True))
                stack.extend((child, False) for child in reversed(_children(definition))
                             if child not in names)
                continue
            names[atom] = self.emit(definition)

    def emit(self, definition) -> str:
        names, kind = self.names, definition[0]
        if kind == "in":
            return definition[1]
        if kind in ("*", "/"):
            return self.line(kind, (names[definition[1]], names[definition[2]]))
        if kind == "recip":
            return self.line("/", (1.0, names[definition[1]]))
        if kind == "neg":
            return self.line("neg", (names[definition[1]],))
        if kind == "scale":
            return self.line("*", (names[definition[1]], definition[2]))
        if kind == "sum":
            return self.emit_sum(definition[1], definition[2])
        return self.line(kind, (names[definition[1]],))

    def signed_sum(self, terms) -> tuple:
        """``sum sign_k x_k`` of ``[(name, sign)]``: ``(name, sign)`` of the result, positive
        terms first so that no negation is needed (all negative: the sign goes outside)."""
        terms = sorted(terms, key=lambda term: term[1] < 0)
        outer = 1.0
        if terms[0][1] < 0:
            terms, outer = [(name, -sign) for name, sign in terms], -1.0
        value = terms[0][0]
        for name, sign in terms[1:]:
            value = self.line("+" if sign > 0 else "-", (value, name))
        return value, outer

    def emit_sum(self, c0, terms) -> str:
        """``c0 + sum c_k x_k``: terms with equal coefficient magnitudes are added first and
        scaled once (``0.8 a + 0.8 b - c = 0.8 (a + b) - c``)."""
        groups: dict = {}
        for atom, coefficient in terms:
            groups.setdefault(_magnitude(coefficient), []).append((atom, coefficient))
        parts = []
        for members in groups.values():
            magnitude = abs(members[0][1])
            value, sign = self.signed_sum([(self.names[atom], math.copysign(1.0, coefficient))
                                           for atom, coefficient in members])
            if magnitude != 1.0:
                value = self.line("*", (value, magnitude))
            parts.append((value, sign))
        if c0 != 0.0:
            parts.append((abs(c0), math.copysign(1.0, c0)))
        value, sign = self.signed_sum(parts)
        return value if sign > 0 else self.line("neg", (value,))


# =================================================================================================
# Rewriting a program
# =================================================================================================
#: How :func:`optimize` rewrites a program.
STRATEGIES = ("tape", "flatten", "shared", "best")


def optimize(program: Program, share: bool = True, strategy: str = "best") -> Program:
    """``program`` rewritten by :class:`Optimizer`: ``strategy`` ``"tape"`` (as given),
    ``"flatten"`` (sums kept open until needed), ``"shared"`` (sums used twice formed at once) or
    ``"best"`` (the fewest operations of the three); ``share``: :func:`_share_pairs`."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    if strategy == "tape":
        return program
    if strategy == "best":
        programs = [program]
        for other in ("flatten", "shared"):
            try:
                candidate = optimize(program, share, other)
            except ArithmeticError:           # constants near the underflow limit
                continue
            if _constants_within_range(candidate, program) and _agrees(candidate, program):
                programs.append(candidate)
        return min(programs, key=lambda p: (sum(p.counts().values()), p.counts()["mul"]))
    return _rewrite(program, share, form_shared=(strategy == "shared"))


def _rewrite(program: Program, share: bool, form_shared: bool) -> Program:
    """Run ``program`` on the optimizer's linear combinations and emit the result;
    ``form_shared``: form each sum used more than once where it is made."""
    uses: dict = {}
    for _, _, args in program.lines:
        for argument in args:
            if isinstance(argument, str):
                uses[argument] = uses.get(argument, 0) + 1
    optimizer = Optimizer(program.inputs)
    values = {f"{stem}{k}": optimizer.input(f"{stem}{k}")
              for stem, n in program.inputs for k in range(n)}

    def value(argument) -> _Lin:
        return values[argument] if isinstance(argument, str) else optimizer.const(argument)

    binary = {"+": optimizer.add, "-": optimizer.sub, "*": optimizer.mul, "/": optimizer.div}
    for target, op, args in program.lines:
        if op == "neg":
            result = optimizer.neg(value(args[0]))
        elif op in binary:
            result = binary[op](value(args[0]), value(args[1]))
        else:
            result = optimizer.call(op, value(args[0]))
        if form_shared and uses.get(target, 0) > 1 and not result.constant and \
                (len(result.terms) > 1 or result.c0 != 0.0):
            factor, atom = optimizer.form(result)
            result = _Lin(0.0, {atom: factor})
        values[target] = result
    return optimizer.program([value(v) for v in program.outputs], share=share)


#: Constants of a magnitude in this band are safe to introduce: their products with the values a
#: robot's recursion meets (well within 1e+-100) cannot overflow or underflow.
SAFE_CONSTANTS = (1e-100, 1e100)


def _constant_magnitudes(program: Program) -> list:
    return [abs(argument) for _, _, args in program.lines for argument in args
            if not isinstance(argument, str) and argument != 0.0]


def _constants_within_range(program: Program, reference: Program) -> bool:
    """Whether every constant of ``program`` lies within :data:`SAFE_CONSTANTS` or ``reference``'s
    magnitudes: pulling out a factor of 1e-308 makes one of 9e307, which overflows.

    >>> tiny = Program([("x", 1)], [("t0", "*", ("x0", 1e-308))], ["t0"])
    >>> huge = Program([("x", 1)], [("t0", "*", ("x0", 1e308))], ["t0"])    # x / 1e-308
    >>> _constants_within_range(tiny, tiny), _constants_within_range(huge, tiny)
    (True, False)
    """
    known = _constant_magnitudes(reference)
    low = min([SAFE_CONSTANTS[0], *known])
    high = max([SAFE_CONSTANTS[1], *known])
    return all(low <= m <= high for m in _constant_magnitudes(program))


def _agrees(program: Program, reference: Program, points: int = 2) -> bool:
    """Whether ``program`` computes what ``reference`` does at a few random inputs (relative
    1e-9).  The optimizer reassociates products of constants, which is exact in real numbers
    but not near the limits of floating point (parameters of 1e-300 underflow in one order and
    not in the other): such a rewrite is dropped, the tape's own program is always kept."""
    rng = np.random.default_rng(0)
    try:
        mine, theirs = program.compile("candidate"), reference.compile("reference")
        with np.errstate(all="ignore"):
            for _ in range(points):
                arguments = [tuple(rng.uniform(-1.0, 1.0, n).tolist()) for _, n in reference.inputs]
                a = np.asarray(mine(*arguments), dtype=float)
                b = np.asarray(theirs(*arguments), dtype=float)
                if not (np.isfinite(a).all() and
                        np.all(np.abs(a - b) <= 1e-9 * (1.0 + np.abs(b)))):
                    return False
    except (ArithmeticError, NameError, ValueError):
        return False                          # e.g. an overflowed constant printed as inf
    return True
