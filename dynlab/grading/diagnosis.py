"""Saying what is wrong with a part: the question's typical mistakes, then patterns over the part
(transposed, a common sign or named factor, swapped entries), then entry by entry and, within
an entry, monomial class by monomial class of the joint rates (Fu, Gonzalez & Lee, Sec. 3.2.6).

It never prints a term, coefficient or value of the key, a ratio other than
:data:`NAMED_FACTORS`, or which term inside a class is wrong, so that repeated checks cannot
recover the key (``tests/course/test_feedback_secrecy.py``; ARCHITECTURE.md, "Grading").
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import sympy

from dynlab.grading.sealing import unseal
from dynlab.model.symbolic import is_zero

# -- explaining what is wrong ---------------------------------------------------------------------
_VELOCITY = re.compile(r"qd\d+")
_ACCELERATION = re.compile(r"qdd\d+")


def _monomial_text(monomial: str) -> str:
    """What a monomial of the joint rates stands for (Fu, Gonzalez & Lee, Sec. 3.2.6's names).

    >>> [_monomial_text(m) for m in ("qdd1", "qd1**2", "qd1*qd2", "1")]
    ['qdd1 (inertia) term', 'qd1**2 (centrifugal) term', 'qd1*qd2 (Coriolis) term',
     'velocity- and acceleration-free part (gravity?)']
    """
    if monomial == "1":
        return "velocity- and acceleration-free part (gravity?)"
    if _ACCELERATION.fullmatch(monomial):
        return f"{monomial} (inertia) term"
    if re.fullmatch(r"qd\d+\*\*2", monomial):
        return f"{monomial} (centrifugal) term"
    factors = monomial.split("*")
    if len(factors) == 2 and all(_VELOCITY.fullmatch(f) for f in factors):
        return f"{monomial} (Coriolis) term"
    return f"{monomial} term"



def _degrees_text(value: float) -> str | None:
    """A ratio of ``(180/pi)**k`` (or its inverse): angles or rates in degrees.

    >>> _degrees_text((180 / math.pi) ** 2)
    '(180/pi)^2 times the right value (angles or rates in degrees?)'
    """
    for k in (1, 2, 3):
        for base, text in ((180 / math.pi, "180/pi"), (math.pi / 180, "pi/180")):
            if math.isfinite(value) and abs(value - base**k) <= 1e-7 * base**k:
                power = "" if k == 1 else f"^{k}"
                return f"({text}){power} times the right value (angles or rates in degrees?)"
    return None


#: The factors by which an answer may be off that the feedback names (each a typical slip: a
#: sign, a missing or extra 1/2, 1/3 for 1, degrees for radians), recognised within the key's
#: tolerance.  Any other ratio is never shown: with it, the answer divided by the ratio IS the
#: key (and with the many small fractions p/q, nearly every guess would hit one).
NAMED_FACTORS = (-1.0, 2.0, 0.5, 3.0, 1 / 3, -2.0, -0.5) + tuple(
    base**k for k in (1, 2, 3) for base in (180 / math.pi, math.pi / 180))

_FACTOR_NAMES = {2.0: "2 times the right value (a missing 1/2?)",
                 0.5: "1/2 times the right value (an extra 1/2?)",
                 3.0: "3 times the right value", 1 / 3: "1/3 times the right value",
                 -2.0: "-2 times the right value", -0.5: "-1/2 times the right value"}


def _named_factor_text(factor: float) -> str:
    """What an answer off by one of :data:`NAMED_FACTORS` is (without the name).

    >>> _named_factor_text(-1.0), _named_factor_text(0.5)
    ('has the wrong sign', 'is 1/2 times the right value (an extra 1/2?)')
    >>> _named_factor_text(math.pi / 180)
    'is (pi/180) times the right value (angles or rates in degrees?)'
    """
    if factor == -1:
        return "has the wrong sign"
    degrees = _degrees_text(factor)
    if degrees:
        return f"is {degrees}"
    return f"is {_FACTOR_NAMES[factor]}"


def _significant_digits(value: float) -> int:
    """How many significant digits a number is written with (``9.81`` -> 3, ``1/3`` -> 16).

    >>> [_significant_digits(x) for x in (9.81, -120.0, 1 / 3)]
    [3, 2, 16]
    """
    digits = repr(abs(float(value))).split("e")[0].replace(".", "").strip("0")
    return max(1, len(digits))


def _class_text(monomial: str) -> str:
    """Where in an element a term is, by the monomial of the joint rates it multiplies.

    >>> [_class_text(m) for m in ("qdd2", "qd1*qd2", "1", "")]  # doctest: +NORMALIZE_WHITESPACE
    ['in qdd2 (inertia)', 'in qd1*qd2 (Coriolis)',
     'of the velocity- and acceleration-free part (gravity?)', '']
    """
    if not monomial:
        return ""
    if monomial == "1":
        return "of the velocity- and acceleration-free part (gravity?)"
    return "in " + _monomial_text(monomial).removesuffix(" term")


class Diagnosis:
    """Notes on a wrong part: the question's own mistakes first, then shape-wide patterns, then
    element by element (monomial class by monomial class), as the module docstring allows."""

    def __init__(self, context, part: dict, answer: list, values: np.ndarray,
                 refs: np.ndarray, scales: np.ndarray, ok: np.ndarray):
        self.c, self.part, self.answer = context, part, answer
        self.values, self.refs, self.scales, self.ok = values, refs, scales, ok
        self.shape = tuple(part["shape"])

    def name(self, flat: int) -> str:
        """The entry ``flat`` as the student indexes it (:func:`entry_name`)."""
        return entry_name(self.part["name"], self.shape, flat)

    def hints(self) -> dict:
        where = f"{self.c.key['id']}|{self.part['name']}|hint|"
        return {k: unseal(v, where + k) for k, v in self.part.get("hints", {}).items()}

    def reference_zero(self, flat: int) -> bool:
        """Whether the key's element is 0 (exactly, for a symbolic key)."""
        if self.c.kind == "symbolic":
            return self.part["elements"][flat]["expr"] == 0
        size = max(1.0, float(np.nanmax(np.abs(self.refs))))
        return bool(np.all(np.abs(self.refs[flat]) <= self.c.tolerance * size))

    def named_factor(self, indices) -> str | None:
        """``"has the wrong sign"``, ``"is 2 times the right value (...)"``, ...: when each of
        these elements is the key's times the same one of :data:`NAMED_FACTORS`, within the
        key's tolerance; None otherwise (and then nothing about the ratio is said)."""
        for factor in NAMED_FACTORS:
            if all(np.all(self.c.close(self.values[k], factor * self.refs[k],
                                       max(1.0, abs(factor)) * self.scales[k]))
                   for k in indices):
                text = _named_factor_text(factor)
                hints = self.hints()
                if factor == -1 and "sign" in hints:
                    return f"{text}: {hints['sign']}"
                if factor != -1 and abs(factor) in (2.0, 0.5, 3.0, 1 / 3) and "factor" in hints:
                    return f"{text}: {hints['factor']}"
                return text
        return None

    def close_to_key(self, flat, relative: float = 0.01) -> bool:
        """Whether the element(s) ``flat`` are within ``relative`` of the key at every point."""
        with np.errstate(all="ignore"):
            size = np.maximum(np.abs(self.refs[flat]), 1e-300)
            error = np.abs(self.values[flat] - self.refs[flat]) / size
        return bool(np.all(error < relative))

    def matches(self, values, refs) -> bool:
        return bool(np.all(self.c.close(values, refs, self.scales)))

    def notes(self) -> list:
        for note in (self.mistakes(), self.transposed(), self.products(), self.rounded()):
            if note:
                return [note]
        notes = self.structure()
        whole = self.whole_part()
        if whole:
            return notes + [whole]
        notes += self.swapped()
        for flat in np.flatnonzero(~self.ok):
            if any(flat in pair for pair in self._swapped_pairs):
                continue
            notes.append(self.element(flat))
        return notes

    # -- the question's own mistakes (fingerprints of wrong derivations)
    def mistakes(self) -> str | None:
        for part, wrong, message in self.c.mistakes:
            if part != self.part["name"]:
                continue
            if wrong.shape == self.values.shape and self.matches(self.values, wrong):
                return message
        return None

    def all_wrong_within(self, relative: float) -> bool:
        """Whether every wrong element is within ``relative`` of the key at every point."""
        wrong = np.flatnonzero(~self.ok)
        return bool(wrong.size) and self.close_to_key(wrong, relative)

    def rounded(self) -> str | None:
        """A decimal like 0.333 where a fraction belongs (every wrong element within 1 %); the
        fraction suggested is the one nearest the student's own decimal."""
        if self.c.kind != "symbolic":
            return None
        floats = [f for k in np.flatnonzero(~self.ok)
                  for f in sorted(self.answer[k].atoms(sympy.Float), key=abs)]
        if not floats or not self.all_wrong_within(0.01):
            return None
        if getattr(self.c, "given", None):
            # the student's givens are decimals by right, and merge with other numbers (2 times
            # 0.7 is 1.4): no decimal of the answer can be named as the rounded one
            return (f"{self.part['name']} is close but not equal (within 1 %): a constant "
                    f"rounded, such as a fraction written as a decimal? (your givens are "
                    f"right as decimals)")
        shown = next((f for f in floats if float(f) != int(f)), floats[0])
        guess = Fraction(float(shown)).limit_denominator(12)
        how = ""
        if guess.denominator > 1 and abs(float(guess) - float(shown)) < 0.01 * abs(float(shown)):
            how = (f": write Rational({guess.numerator}, {guess.denominator}) or "
                   f"sympy.S({guess.numerator})/{guess.denominator}")
        else:
            how = ": write it exactly (sympy.Rational, or integers divided by sympy.S(...))"
        return (f"{self.part['name']} holds a rounded decimal ({float(shown):g}) where an exact "
                f"fraction belongs{how}")

    def transposed(self) -> str | None:
        if len(self.shape) != 2 or self.shape[0] != self.shape[1]:
            return None
        n = self.shape[0]
        order = np.arange(n * n).reshape(n, n).T.ravel()
        if self.matches(self.values, -self.refs):        # skew: a flipped sign, not a transpose
            return None
        if self.matches(self.values[order], self.refs):
            return (f"{self.part['name']} is transposed: your row i is the key's column i "
                    f"(element ij belongs at ji)")
        return None

    def products(self) -> str | None:
        for part, names, wanted, message in self.c.products:
            if part != self.part["name"]:
                continue
            n_rows, n_cols = self.shape
            vector = self.c.values([self.c.by_name[v] for v in names])
            rows = self.values.reshape(n_rows, n_cols, -1)
            result = np.einsum("ijk,jk->ik", rows, vector)
            scale = np.maximum(1.0, np.abs(wanted)) * 10
            if np.all(self.c.close(result, wanted, scale)):
                return message
        return None

    def structure(self) -> list:
        """Exact checks of the answer's own structure (is_zero on the answer)."""
        kind = self.part.get("structure")
        if kind not in ("symmetric", "skew") or len(self.shape) != 2:
            return []
        matrix = sympy.Matrix(self.shape[0], self.shape[1], self.answer)
        sign = 1 if kind == "symmetric" else -1
        if is_zero(matrix, -sign * matrix.T):
            return []
        for i in range(self.shape[0]):
            for j in range(i + (1 if kind == "symmetric" else 0), self.shape[1]):
                if not is_zero(matrix[i, j], -sign * matrix[j, i]):
                    a, b = self.name(i * self.shape[1] + j), self.name(j * self.shape[1] + i)
                    relation = f"{a} = {b}" if kind == "symmetric" else (
                        f"{a} = -{b}" if i != j else f"{a} = 0")
                    return [f"{self.part['name']} must be {kind}, but {relation} does not hold"]
        return []

    def whole_part(self) -> str | None:
        """The same named slip (a sign, a factor of :data:`NAMED_FACTORS`) in every non-zero
        element, the zero ones right; or, in a part of two or more such elements, the same
        other constant factor in all of them (said without the factor)."""
        nonzero = [k for k in range(len(self.refs)) if not self.reference_zero(k)]
        if len(nonzero) < 2 or any(self.ok[k] for k in nonzero):
            return None
        if not all(self.ok[k] for k in range(len(self.refs)) if k not in nonzero):
            return None
        factor = self.named_factor(nonzero)
        if factor:
            return f"{self.part['name']} {factor}"
        if self.c.kind == "symbolic" and self._common_value(nonzero) is not None:
            return (f"{self.part['name']} is off by one constant factor in every entry (a "
                    f"stray factor, or other units?)")
        return None

    def _common_value(self, indices) -> float | None:
        """The one ratio answer/key shared by these elements at every point (None if none)."""
        ratios = []
        for k in indices:
            with np.errstate(all="ignore"):
                r = self.values[k] / self.refs[k]
            if not np.all(np.isfinite(r)) or np.ptp(r) > 1e-7 * max(1.0, abs(r[0])):
                return None
            ratios.append(r[0])
        if max(ratios) - min(ratios) > 1e-7 * max(1.0, abs(ratios[0])):
            return None
        return float(np.mean(ratios))

    _swapped_pairs: list = []

    def swapped(self) -> list:
        self._swapped_pairs = []
        wrong = [int(k) for k in np.flatnonzero(~self.ok)]
        notes = []
        for a, b in itertools.combinations(wrong, 2):
            if self.matches(self.values[a], self.refs[b]) and \
                    self.matches(self.values[b], self.refs[a]):
                self._swapped_pairs.append((a, b))
                notes.append(f"{self.name(a)} and {self.name(b)} are swapped")
        return notes

    # -- one element
    def element(self, flat: int) -> str:
        name = self.name(flat)
        s, r = self.values[flat], self.refs[flat]
        if np.any(np.isnan(s)):
            return f"{name} is not a real number at some sample points"
        if self.reference_zero(flat):
            # a symbolic key's 0 is which classes belong (none); a numeric key's 0 is a number
            # like any other: not given away
            return f"{name} should be 0" if self.c.kind == "symbolic" else f"{name} is wrong"
        if self.matches(s, np.zeros_like(r)):
            return f"{name} is 0, but it should not be"
        others = [k for k in range(len(self.refs)) if k != flat and
                  not self.reference_zero(k) and self.matches(s, self.refs[k])]
        if others:
            return f"{name} has the value that belongs to {self.name(others[0])}"
        factor = self.named_factor([flat])
        if factor:
            return f"{name} {factor}"
        if self.c.kind != "symbolic":
            return self.number(flat, name)
        return self.terms(flat, name)

    def number(self, flat: int, name: str) -> str:
        """What is wrong with a number, without a ratio or a value from which the key's number
        would follow: close (a rounded constant, written with few digits), or wrong."""
        written = [float(v) for v in sympy.Matrix([self.answer[flat]]).atoms(sympy.Number)]
        few_digits = bool(written) and all(_significant_digits(v) <= 4 for v in written)
        if few_digits and self.close_to_key(flat):
            return (f"{name} is close but not equal (within 1 %): a rounded constant, "
                    f"such as g with too few digits?")
        return f"{name} is wrong"

    def terms(self, flat: int, name: str) -> str:
        """Monomial class by monomial class of the joint velocities and accelerations: a class
        the key has and the answer lacks, one the answer has and the key lacks, one that both
        have and that differs (never which term of it, nor what it should be)."""
        reference = self.part["elements"][flat]["monomials"]
        mine = monomial_terms(self.answer[flat], self.c.split)
        if mine is None:
            return (f"{name} should be a polynomial in the joint velocities and accelerations "
                    f"({', '.join(map(str, self.c.split))})")
        gravity = self.gravity(flat)
        notes = []
        ours = {m["monomial"]: m for m in reference}
        for monomial in list(ours) + [m for m in mine if m not in ours]:
            ref_values = np.array(ours[monomial]["values"]) if monomial in ours else None
            expr = mine.get(monomial)
            my_values = self.c.values([expr])[0] if expr is not None else None
            size = np.maximum(1.0, np.array(ours[monomial]["scale"])) if monomial in ours \
                else np.maximum(1.0, np.abs(my_values))
            size = np.maximum(size, np.nan_to_num(np.abs(my_values)) if my_values is not None
                              else size)
            if ref_values is not None and my_values is not None and \
                    np.all(self.c.close(my_values, ref_values, size)):
                continue
            only = monomial == "1" and len(ours) <= 1 and len(mine) <= 1
            where = "" if only else _monomial_text(monomial)
            if only and ref_values is not None and my_values is not None:
                notes.append(self.coefficient(name, "", expr, my_values, ref_values, size,
                                              gravity))
                continue
            if ref_values is None:
                notes.append(f"{name} has a {where} that does not belong there" if where else
                             f"{name} has terms that do not belong there")
                continue
            if my_values is None:
                notes.append(f"{name} is missing its {where}" if where else
                             f"{name} is missing terms")
                continue
            notes.append(self.coefficient(name, monomial, expr, my_values, ref_values, size,
                                          gravity))
        return "; ".join(dict.fromkeys(notes)) if notes else f"{name} is wrong"

    def gravity(self, flat: int) -> bool | None:
        """Whether the key's element holds the gravity symbol ``g`` (None: no ``g`` in the
        question)."""
        g = self.c.by_name.get("g")
        if g is None:
            return None
        return self.part["elements"][flat]["expr"].has(g)

    def coefficient(self, name, monomial, expr, mine, ref, size, gravity) -> str:
        """What is wrong in one monomial class that answer and key both have: a gravity term
        where the key has none, one extra term of the student's own (when the rest of the class
        is right and holds two terms or more: as hard to hit as the class itself), or a term
        missing or wrong (never which, nor what it should be)."""
        g = self.c.by_name.get("g")
        if gravity is False and g is not None and expr.has(g):
            return f"{name} has a gravity term (in g) that does not belong there"
        difference = mine - ref
        student_terms = sympy.Add.make_args(sympy.expand(expr))
        if len(student_terms) >= 3:
            values = self.c.values(list(student_terms))
            for term, v in zip(student_terms, values):
                if np.all(self.c.close(difference, v, size)):
                    shown = term * monomial_symbol(monomial or "1")
                    return f"{name} has an extra term {shown}"
        where = _class_text(monomial)
        return f"{name}: a term {where} is missing or wrong" if where else \
            f"{name} is wrong: a term is missing or wrong"


def entry_name(name: str, shape: Sequence, flat: int) -> str:
    """Entry ``flat`` (row-major) of a part of shape ``shape``, written as Python indexes the
    value the student checked, by the name they wrote in the check (``check("3.2",
    acceleration)``): from 0, a vector as ``v[i]``, a matrix as ``M[i, j]``, a list of matrices
    as ``A[k][i, j]``; a number is its name.  The feedback names no book subscript (``D12``)
    and no other count from 1, so the student finds the entry where they wrote it.

    >>> entry_name("acceleration", (3,), 0), entry_name("D", (2, 2), 1)
    ('acceleration[0]', 'D[0, 1]')
    >>> entry_name("A", (2, 4, 4), 17), entry_name("tau1", (), 0)
    ('A[1][0, 1]', 'tau1')
    """
    shape = tuple(shape)
    if not shape:
        return name
    index = [int(i) for i in np.unravel_index(flat, shape)]
    if len(shape) == 3:
        return f"{name}[{index[0]}][{index[1]}, {index[2]}]"
    return f"{name}[{', '.join(map(str, index))}]"


def monomial_symbol(monomial: str):
    return sympy.Integer(1) if monomial == "1" else sympy.sympify(monomial)


def monomial_terms(expr, split: Sequence) -> dict | None:
    """``expr`` as ``{monomial text: coefficient}`` in the ``split`` symbols (None when it is
    not a polynomial in them)."""
    expr = sympy.expand(expr)
    if expr == 0:
        return {}
    if not split:
        return {"1": expr}
    groups: dict = {}
    for term in sympy.Add.make_args(expr):
        coefficient, monomial = term.as_independent(*split, as_Add=False)
        if monomial != 1 and not all(
                (f.is_Symbol and f in split) or (f.is_Pow and f.base in split
                                                 and f.exp.is_Integer and f.exp > 0)
                for f in sympy.Mul.make_args(monomial)):
            return None
        key = "1" if monomial == 1 else str(monomial)
        groups[key] = groups.get(key, 0) + coefficient
    return {k: v for k, v in groups.items() if v != 0}


