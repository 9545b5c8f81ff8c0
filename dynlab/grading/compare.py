"""Comparing an answer with its key, part by part, at points drawn fresh for each check.

Each part is read into a flat list of expressions and evaluated with the reference; an element
is right where the numbers agree, or where its difference is exactly zero
(:func:`dynlab.model.symbolic.is_zero`); one using a function the numbers cannot decide
(``Piecewise``, ``sign``, ...) only when shown equal exactly.  A wrong part goes to
:class:`dynlab.grading.diagnosis.Diagnosis`.  A question with givens is compared at the
student's values of them (:func:`dynlab.grading.keys.at_given`).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import numbers
import re
import time
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import sympy

from dynlab.grading.diagnosis import Diagnosis, monomial_symbol, monomial_terms
from dynlab.grading.keys import (
    NUMERIC_TOLERANCE,
    TOLERANCE,
    ExactOutOfTime,
    NotAnswered,
    OutOfTime,
    Unusable,
    answers_at,
    at_given,
    flatten,
    fresh_points,
    given_values,
    in_givens,
    key_symbol,
    nested_values,
    reference,
    shape_of,
)
from dynlab.grading.limits import DIAGNOSIS_LIMIT, EXACT_BUDGET, EXACT_TIME_LIMIT
from dynlab.grading.limits import time_limit as _time_limit
from dynlab.grading.sealing import salted_hash, unseal
from dynlab.model.symbolic import is_zero


def not_answered_text(key: dict) -> str:
    return f"replace the ... by your answer ({expected_text(key)})"


def expected_text(key: dict) -> str:
    if key["kind"] == "choice":
        return "one of the letters " + ", ".join(key["options"])
    numeric = key["kind"] == "numeric"
    parts = [f"{part['name']}: {_shape_text(tuple(part['shape']), numeric)}"
             for part in key["parts"]]
    if len(parts) == 1:
        return _shape_text(tuple(key["parts"][0]["shape"]), numeric)
    return "a tuple (" + ", ".join(part["name"] for part in key["parts"]) + ") with " + \
        "; ".join(parts)


def _shape_text(shape: tuple, numeric: bool = False) -> str:
    """What an answer of ``shape`` is, in words (a number where the key asks for numbers).

    >>> _shape_text(()), _shape_text((), numeric=True), _shape_text((3, 3))
    ('a single expression', 'a number', 'a 3x3 matrix')
    """
    if shape == ():
        return "a number" if numeric else "a single expression"
    if len(shape) == 1:
        return f"a {shape[0]}-vector"
    if len(shape) == 2:
        return f"a {shape[0]}x{shape[1]} matrix"
    return f"a list of {shape[0]} {shape[1]}x{shape[2]} matrices"


# -- grading one answer ---------------------------------------------------------------------------
def grade(key: dict, answer: Any, budget: float = None, given: dict | None = None) -> tuple:
    """``(status, messages, right parts)`` of one answer (raises NotAnswered, Unusable);
    ``given``: the student's values of the key's parameters (:mod:`dynlab.grading.variants`)."""
    answer = _called(answer)
    if key["kind"] == "choice":
        return _grade_choice(key, answer, given)
    context = _Context(key, budget, given)
    given = _split_parts(key, answer)
    messages, any_answered = [], False
    judged = {}                           # part name -> (elements, right, notes)
    for part in context.parts:
        try:
            elements = context.elements(part, given[part["name"]])
        except NotAnswered:
            judged[part["name"]] = None
            continue
        any_answered = True
        right, notes = context.judge(part, elements)
        judged[part["name"]] = (elements, right, notes)
    if not any_answered:
        raise NotAnswered()
    right_parts = [name for name, entry in judged.items() if entry is not None and entry[1]]
    all_right = len(right_parts) == len(context.parts)
    swapped = {} if all_right else context.swapped_parts(judged)
    for part in context.parts:
        label = part["name"] if len(context.parts) > 1 else ""
        prefix = f"{label}: " if label else ""
        if judged[part["name"]] is None:
            messages.append(f"{label}: not answered yet" if label else "not answered yet")
        elif part["name"] in swapped:
            if swapped[part["name"]] not in messages:
                messages.append(swapped[part["name"]])
        elif judged[part["name"]][1]:
            if label:
                messages.append(f"{label}: correct")
        else:
            messages.extend(prefix + note for note in _unique(judged[part["name"]][2]))
    if all_right:
        # one wording however the equality was shown (exactly, or at the points of this check,
        # which depends on how fast the machine is): the feedback reads the same everywhere
        how = "equal to the key" if key["kind"] == "symbolic" else "equal to the key's numbers"
        return "correct", [f"correct ({how})"], right_parts
    return "incorrect", messages, right_parts


def _called(value: Any) -> Any:
    """A callable answer's value (what it raises, even SystemExit, becomes a message)."""
    if callable(value) and not isinstance(value, (sympy.Basic, sympy.MatrixBase, type)):
        try:
            return value()
        except OutOfTime:
            raise
        except BaseException as error:                   # noqa: BLE001 - SystemExit too
            raise Unusable(f"Your answer raised {type(error).__name__}: {error}") from None
    return value


def _unique(lines: Iterable[str]) -> list:
    seen, result = set(), []
    for line in lines:
        if line not in seen:
            seen.add(line)
            result.append(line)
    return result


def _grade_choice(key: dict, answer: Any, given: dict | None = None) -> tuple:
    """A letter judged against a choice key; with a turn among the key's parameters, the
    letter of the student's order (:func:`dynlab.grading.variants.turned`, at ``given``) is
    turned back to the key's order first (a shipped key is in the order of its practice turn
    already, :func:`dynlab.grading.variants.at_practice`)."""
    if answer is ... or answer is None:
        raise NotAnswered()
    if not isinstance(answer, str):
        raise Unusable(f"Answer with one of the letters {', '.join(key['options'])} (as a "
                        f"string, e.g. \"{key['options'][0]}\"), not a {type(answer).__name__}")
    letter = re.sub(r"^\s*option\s*", "", answer, flags=re.IGNORECASE)
    letter = letter.strip().strip("()[].:,;'\"").strip().upper()
    if letter not in key["options"]:
        raise Unusable(f"{answer!r} is not one of the options {', '.join(key['options'])}")
    if key.get("parameters"):
        from dynlab.grading.variants import turned
        if not given or "turn" not in given or not answers_at(key, given):
            raise Unusable("no values of the question's givens to grade against")
        if in_givens(key):
            letter = turned(key["options"], given["turn"])[key["options"].index(letter)]
    text = unseal(key["messages"][letter], f"{key['id']}|option{letter}")
    if salted_hash(key["id"], "choice", letter) == key["answer"]:
        return "correct", [f"correct: {text}"], [""]
    return "incorrect", [text], []


def _split_parts(key: dict, answer: Any) -> dict:
    """The answer's value for each part of the question."""
    parts = [part["name"] for part in key["parts"]]
    if len(parts) == 1:
        return {parts[0]: answer}
    if answer is ... or answer is None:
        raise NotAnswered()
    if isinstance(answer, dict):
        missing = [p for p in parts if p not in answer]
        if missing:
            raise Unusable(f"The dict has no entry for {', '.join(missing)}; give "
                            f"{', '.join(parts)}")
        return {p: answer[p] for p in parts}
    if all(hasattr(answer, p) for p in parts) and not isinstance(answer, (list, tuple)):
        return {p: getattr(answer, p) for p in parts}          # e.g. an EquationsOfMotion
    if isinstance(answer, (list, tuple)) and len(answer) == len(parts):
        return dict(zip(parts, answer))
    raise Unusable(f"This question has {len(parts)} parts: give them as a tuple "
                    f"({', '.join(parts)})")


# -- one question's symbols, samples and answer elements ------------------------------------------
class _Context:
    """A key's symbols and sample points, and the element-by-element comparison."""

    def __init__(self, key: dict, budget: float | None = None, given: dict | None = None):
        self.key = key
        #: the student's values of the question's givens (they are in a right answer as floats)
        self.given = dict(given or {})
        self.budget = EXACT_BUDGET if budget is None else budget
        self.kind = key["kind"]
        self.exact_spent = 0.0
        self.names = [name for name, _ in key["symbols"]] if self.kind == "symbolic" else []
        self.symbols = [key_symbol(name, role) for name, role in key.get("symbols", [])]
        self.by_name = dict(zip(self.names, self.symbols))
        self.split = [self.by_name[name] for name in key.get("split", [])]
        self.tolerance = key.get("tolerance", TOLERANCE if self.kind == "symbolic"
                                 else NUMERIC_TOLERANCE)
        prepared = prepare(key, given)
        if self.kind == "numeric":
            self.samples = np.zeros((1, 0))
            values = np.array(_at_variant(key, prepared["numbers"], given),
                              dtype=float)[:, None]
        else:
            points = fresh_points(key)
            values = _evaluate(prepared["function"], points, len(prepared["layout"]))
            finite = np.all(np.isfinite(values[:prepared["checked"]]), axis=0)
            self.samples, values = points[finite], values[:, finite]
        self.parts = []
        for part in key["parts"]:
            elements = []
            for element in prepared["parts"][part["name"]]:
                elements.append(_element_values(element, values))
            self.parts.append(dict(part, elements=elements))
        self.mistakes = [(m["part"], values[rows], unseal(m["message"],
                                                            f"{key['id']}|mistake{i}|message"))
                         for i, (m, rows) in enumerate(zip(key.get("mistakes", []),
                                                          prepared["mistakes"]))]
        self.products = []
        for index, product in enumerate(key.get("products", [])):
            part = next(p for p in self.parts if p["name"] == product["part"])
            n_rows, n_cols = part["shape"]
            matrix = np.array([e["values"] for e in part["elements"]]).reshape(
                n_rows, n_cols, -1)
            vector = self.values([self.by_name[v] for v in product["vector"]])
            self.products.append((product["part"], product["vector"],
                                  np.einsum("ijk,jk->ik", matrix, vector),
                                  unseal(product["message"], f"{key['id']}|product{index}")))

    # -- reading the answer
    def elements(self, part: dict, value: Any) -> list:
        """The answer to ``part`` as a flat list of SymPy expressions in the key's symbols."""
        if callable(value) and not isinstance(value, (sympy.Basic, sympy.MatrixBase, type)):
            try:
                value = value()
            except OutOfTime:
                raise
            except Exception as error:                   # noqa: BLE001
                raise Unusable(f"Your answer raised {type(error).__name__}: {error}") from None
        if value is ... or value is None:
            raise NotAnswered()
        if isinstance(value, sympy.Equality) and isinstance(
                value.lhs, (sympy.Symbol, sympy.MatrixSymbol)) and \
                _same_name(str(value.lhs), part["name"]):
            value = value.rhs                     # Eq(D, Matrix(...)) names the part: use D
        if isinstance(value, (bool, np.bool_, sympy.logic.boolalg.BooleanAtom)):
            raise Unusable(f"{part['name']}: the answer is the boolean {value} (an equation "
                            f"Eq(...) that SymPy evaluated?): give the expression itself, not "
                            f"an equation")
        nested = nested_values(value)
        shape = shape_of(nested, part["name"])
        expected = tuple(part["shape"])
        leaves = list(flatten(nested))
        if any(leaf is ... or leaf is None for leaf in leaves):
            raise NotAnswered()
        if shape == () and expected != () and not isinstance(
                value, (sympy.Basic, numbers.Number, np.number, str)):
            raise Unusable(f"{part['name']}: expected "
                            f"{_shape_text(expected, self.kind == 'numeric')}, got a value of "
                            f"type {type(value).__name__}")
        leaves = self._fit_shape(part, shape, expected, leaves)
        return [self._expression(leaf, part) for leaf in leaves]

    def _fit_shape(self, part, shape, expected, leaves):
        count = int(np.prod(expected)) if expected else 1
        name = part["name"]
        if shape == expected:
            return leaves
        if count == 1 and len(leaves) == 1:          # x, [x] and [[x]] for a 1-element part
            return leaves
        if len(expected) == 1 and shape in ((expected[0], 1), (1, expected[0])):
            return leaves
        hint = ""
        if len(expected) == 2 and shape == expected[::-1]:
            hint = " (transposed?)"
        elif len(leaves) == count:
            hint = f" (the right number of entries, arranged as {_shape_text(shape)})"
        raise Unusable(f"wrong shape: {name} should be "
                        f"{_shape_text(expected, self.kind == 'numeric')}, "
                        f"but the answer is {_shape_text(shape)}{hint}")

    def _expression(self, leaf: Any, part: dict):
        if isinstance(leaf, (bool, np.bool_)):
            raise Unusable(f"{part['name']}: expected {self._what()}, got the boolean {leaf}")
        if isinstance(leaf, str):
            try:
                leaf = sympy.parse_expr(leaf, local_dict=dict(self.by_name))
            except Exception as error:                   # noqa: BLE001
                raise Unusable(f"{part['name']}: could not read {leaf!r} as an expression "
                                f"({type(error).__name__})") from None
        if isinstance(leaf, Fraction):
            return sympy.Rational(leaf.numerator, leaf.denominator)
        if not isinstance(leaf, sympy.Basic) and isinstance(leaf, (numbers.Number, np.number)):
            value = complex(leaf)
            if value.imag != 0:
                raise Unusable(f"{part['name']}: expected real numbers, got {leaf}")
            if not math.isfinite(value.real):
                raise Unusable(f"{part['name']}: the answer contains {leaf}")
            return sympy.Integer(int(leaf)) if isinstance(leaf, (int, np.integer)) \
                else sympy.Float(value.real)
        if isinstance(leaf, sympy.Basic) and not isinstance(leaf, sympy.Expr):
            what = "an equation" if isinstance(leaf, (sympy.Eq, sympy.Rel)) else \
                type(leaf).__name__
            raise Unusable(f"{part['name']}: give the expression itself, not {what} ({leaf})"
                            + (" (the right-hand side, e.g. answer.rhs)"
                               if isinstance(leaf, sympy.Eq) else ""))
        try:
            expr = sympy.sympify(leaf, strict=True)
        except Exception:                                # noqa: BLE001
            raise Unusable(f"{part['name']}: expected {self._what()}, got a value of type "
                            f"{type(leaf).__name__} ({leaf!r})") from None
        return self._rename(expr, part)

    def _what(self) -> str:
        return "numbers" if self.kind == "numeric" else "SymPy expressions or numbers"

    def _rename(self, expr, part):
        unevaluated = (sympy.Integral, sympy.Sum, sympy.Product, sympy.Limit)
        if expr.has(*unevaluated):
            try:
                expr = expr.doit()
            except OutOfTime:
                raise
            except Exception:                            # noqa: BLE001
                pass
            if expr.has(*unevaluated):
                raise Unusable(f"{part['name']}: the answer holds an unevaluated integral, sum "
                                f"or limit that SymPy cannot evaluate: call .doit() on it, or "
                                f"evaluate it by hand")
        if expr.has(sympy.Derivative) or expr.atoms(sympy.core.function.AppliedUndef):
            functions = sorted(map(str, expr.atoms(sympy.core.function.AppliedUndef)))
            raise Unusable(f"{part['name']}: the answer contains functions "
                            f"({', '.join(functions) or 'derivatives'}); write the joint "
                            f"variables as plain symbols {self._expected_symbols()}")
        if expr.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
            raise Unusable(f"{part['name']}: the answer contains {expr}")
        free = expr.free_symbols
        unknown = sorted({str(s) for s in free} - set(self.names))
        givens = [name for name in unknown if name in self.key.get("parameters", {})]
        if givens:
            written = ", ".join(f'given["{name}"]' for name in givens)
            raise Unusable(f"{part['name']}: {', '.join(givens)} "
                           f"{'is a given' if len(givens) == 1 else 'are givens'} of this "
                           f"question: put in your value ({written}, with given = "
                           f"variant(\"{self.key.get('shared', self.key['id'])}\")), not the "
                           f"symbol")
        if unknown:
            if self.kind == "numeric":
                raise Unusable(f"{part['name']}: numbers are asked here, but the answer "
                                f"contains the symbols {', '.join(unknown)}")
            raise Unusable(f"unknown symbols {', '.join(unknown)} in {part['name']}"
                            f"{_alias_hint(unknown, self.names)}; the expected symbols are "
                            f"{self._expected_symbols()}")
        return expr.xreplace({s: self.by_name[str(s)] for s in free})

    def _expected_symbols(self) -> str:
        return ", ".join(self.names)

    # -- numbers
    def values(self, exprs: Sequence) -> np.ndarray:
        """Each expression's values at the sample points (rows; NaN where not real)."""
        K = len(self.samples)
        result = np.empty((len(exprs), K))
        todo = [i for i, e in enumerate(exprs) if e.free_symbols]
        for i, e in enumerate(exprs):
            if not e.free_symbols:
                result[i] = _real(complex(e))
        if todo:
            function = _lambdify(self.symbols, [exprs[i] for i in todo], "numpy")
            result[todo] = _evaluate(function, self.samples, len(todo))
        return result

    def close(self, a, b, scale) -> np.ndarray:
        """Whether values ``a`` and ``b`` agree at each point (to the tolerance of ``scale``)."""
        with np.errstate(invalid="ignore"):
            return np.abs(np.asarray(a) - np.asarray(b)) <= self.tolerance * np.asarray(scale)

    # -- judging a part
    def judge(self, part: dict, answer: list) -> tuple:
        """``(right, notes)`` for one part: the numbers at the fresh points first; an element
        they reject is still right when its difference from the reference is exactly zero
        (float cancellation in a large right answer), and an element they accept is right only
        when the numbers can decide it (no Piecewise, sign, floor, ... that the reference does
        not use: such an answer must be shown equal exactly)."""
        values = self.values(answer)
        refs = np.array([e["values"] for e in part["elements"]], dtype=float)
        scales = self._scales(part, values, refs)
        ok = np.array([bool(np.all(self.close(v, r, s)))
                       for v, r, s in zip(values, refs, scales)])
        notes = []
        if self.kind == "symbolic":
            for k, element in enumerate(part["elements"]):
                undecidable = _undecidable(answer[k], element["expr"])
                if ok[k] and undecidable:
                    ok[k] = self._exactly_equal(answer[k], element["expr"])
                    if not ok[k]:
                        notes.append(
                            f"{self.element_name(part, k)} uses {', '.join(undecidable)}, which "
                            f"the key does not, and could not be shown equal to the key exactly "
                            f"(agreeing at the points tried is not enough here): write it "
                            f"without {', '.join(undecidable)}")
            rejected = [k for k in range(len(ok)) if not ok[k]]
            if rejected and not notes:
                disagree = ~self.close(values[rejected], refs[rejected], scales[rejected])
                precise = self._precisely_equal([answer[k] for k in rejected], refs[rejected],
                                                scales[rejected], disagree)
                for k, right in zip(rejected, precise):
                    ok[k] = right if right is not None else \
                        self._exactly_equal(answer[k], part["elements"][k]["expr"])
        if ok.all():
            return True, []
        if notes:
            return False, notes[:1] + ([f"(and {len(notes) - 1} more elements like it)"]
                                       if len(notes) > 1 else [])
        diagnosis = Diagnosis(self, part, answer, values, refs, scales, ok)
        try:
            with _time_limit(DIAGNOSIS_LIMIT, ExactOutOfTime, cpu=True):
                return False, diagnosis.notes()
        except ExactOutOfTime:
            wrong = [diagnosis.name(k) for k in np.flatnonzero(~ok)]
            return False, [f"{', '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} wrong (the "
                           f"answer is too large to say more quickly)"]

    def element_name(self, part: dict, flat: int) -> str:
        return Diagnosis(self, part, [], None, None, None, None).name(flat)

    def _precisely_equal(self, exprs: list, refs: np.ndarray, scales: np.ndarray,
                         disagree: np.ndarray) -> list:
        """For each expression: True when it agrees with the reference values once evaluated with
        enough digits (float cancellation in a right answer, e.g. a huge identically-zero
        addition), False when a point shows it does not, None when undecided within the check's
        budget.  At the points where the floats disagree, one by one, the answers are evaluated
        with 50, 100, 200, ... digits until two precisions agree."""
        result = [None] * len(exprs)
        if self.exact_spent >= self.budget:
            return result
        begun = time.process_time()
        try:
            function = _lambdify(self.symbols, exprs, "mpmath")
            for column in np.flatnonzero(disagree.any(axis=0)):
                point = [mpmath.mpf(float(x)) for x in self.samples[column]]
                previous, stable = None, None
                for digits in (50, 100, 200, 400):
                    if self.exact_spent + time.process_time() - begun > self.budget:
                        return [r if r is False else None for r in result]
                    with mpmath.workdps(digits):
                        current = [_real_mp(v) for v in function(*point)]
                    if previous is not None and all(
                            v is not None and p is not None and abs(v - p) <= 1e-15 * size
                            for v, p, size in zip(current, previous, scales[:, column])):
                        stable = [float(v) for v in current]
                        break
                    previous = current
                if stable is None:
                    return [r if r is False else None for r in result]
                for k in np.flatnonzero(disagree[:, column]):
                    if abs(stable[k] - refs[k, column]) > self.tolerance * scales[k, column]:
                        result[k] = False                 # a point where it truly differs
                if all(r is False for r in result):
                    return result
            return [r is not False for r in result]
        except Exception:                                # noqa: BLE001
            return [r if r is False else None for r in result]
        finally:
            self.exact_spent += time.process_time() - begun

    def _exactly_equal(self, expr, ref) -> bool:
        """Whether ``expr - ref`` is identically zero, shown within EXACT_TIME_LIMIT (and
        within the check's budget for all its elements)."""
        if self.exact_spent >= self.budget:
            return False
        begun = time.process_time()
        try:
            with _time_limit(EXACT_TIME_LIMIT, ExactOutOfTime, cpu=True):
                difference = expr - ref
                return bool(sympy.expand(difference) == 0 or is_zero(expr, -ref))
        except (ExactOutOfTime, Exception):              # noqa: BLE001
            return False
        finally:
            self.exact_spent += time.process_time() - begun

    def swapped_parts(self, judged: dict) -> dict:
        """``{part: message}`` for wrong parts of equal shape whose answers are each other's."""
        parts = {p["name"]: p for p in self.parts}
        wrong = [name for name, entry in judged.items() if entry is not None and not entry[1]]
        result = {}
        for a, b in itertools.combinations(wrong, 2):
            if parts[a]["shape"] != parts[b]["shape"] or a in result or b in result:
                continue
            if self._matches_part(judged[a][0], parts[b]) and \
                    self._matches_part(judged[b][0], parts[a]):
                text = f"{a} and {b} are swapped: your {a} is the key's {b} and the other way round"
                result[a] = result[b] = text
        return result

    def _matches_part(self, answer: list, part: dict) -> bool:
        values = self.values(answer)
        refs = np.array([e["values"] for e in part["elements"]], dtype=float)
        scales = self._scales(part, values, refs)
        return all(bool(np.all(self.close(v, r, s))) for v, r, s in zip(values, refs, scales))

    def _scales(self, part, values, refs):
        if self.kind == "numeric":
            size = max(1.0, float(np.nanmax(np.abs(refs))) if refs.size else 1.0)
            return np.full(refs.shape, size)
        stored = np.array([e["scale"] for e in part["elements"]], dtype=float)
        with np.errstate(invalid="ignore"):
            return np.maximum(np.maximum(stored, 1.0), np.nan_to_num(np.abs(values)))

_JOINT_ALIAS = re.compile(r"(d{0,2}|dot|ddot)(theta|θ|th|t|q)(d{0,2}|dot|ddot|'{0,2})(\d)"
                          r"(d{0,2}|dot|ddot|'{0,2})")


def _joint_alias(name: str) -> str | None:
    """``q1dot``, ``dq1``, ``θ1``, ``theta_1``, ``thetadot1`` -> ``q1``/``qd1``/``qdd1``."""
    match = _JOINT_ALIAS.fullmatch(name.replace("_", "").replace("\\", "").replace("{", "")
                                   .replace("}", "").lower())
    if not match:
        return None
    order = 0
    for text in (match.group(1), match.group(3), match.group(5)):
        order += {"": 0, "d": 1, "dot": 1, "'": 1, "dd": 2, "ddot": 2, "''": 2}[text]
    if order > 2:
        return None
    return ("q", "qd", "qdd")[order] + match.group(4)


def _same_name(a: str, b: str) -> bool:
    return a.replace("_", "").lower() == b.replace("_", "").lower()


def _alias_hint(unknown: list, names: list) -> str:
    """``(write q1 for theta1, Mp for M_p)`` for unknown names that stand for known ones.

    >>> _alias_hint(["q1dot", "dq2", "θ1", "M_p", "x"], ["q1", "qd1", "qd2", "Mp"])
    ' (write qd1 for q1dot, qd2 for dq2, q1 for θ1, Mp for M_p)'
    """
    hints = []
    for name in unknown:
        candidate = _joint_alias(name)
        if candidate not in names:
            same = [n for n in names if _same_name(n, name)]
            candidate = same[0] if len(same) == 1 else None
        if candidate is not None and candidate != name:
            hints.append(f"{candidate} for {name}")
    return f" (write {', '.join(hints)})" if hints else ""


def _real(value: complex) -> float:
    return value.real if abs(value.imag) <= 1e-12 * max(1.0, abs(value.real)) else math.nan




# -- the reference at the fresh points ------------------------------------------------------------
#: How many prepared references are kept (a key at one student's givens each, about 0.1 MB: a
#: class's batch meets the same values again, and a key without givens is prepared once)
PREPARED_KEPT = 1024
#: Functions whose values the numbers at finitely many points cannot decide (a threshold beyond
#: the points, a jump between them): an answer using one the reference does not must be shown
#: equal exactly.
_DECIDABLE = {"sin", "cos", "tan", "cot", "sec", "csc", "exp", "log"}


def _undecidable(expr, ref) -> list:
    """The names of the functions in ``expr`` that the numbers cannot decide.

    >>> x = sympy.Symbol("x", positive=True)
    >>> _undecidable(sympy.Piecewise((x, x < 10**9), (0, True)) + sympy.sin(x), x)
    ['Piecewise']
    """
    used = {type(f).__name__ for f in expr.atoms(sympy.Function)}
    used |= {"Piecewise"} if expr.has(sympy.Piecewise) else set()
    allowed = _DECIDABLE | {type(f).__name__ for f in ref.atoms(sympy.Function)}
    return sorted(used - allowed)


def prepare(key: dict, given: dict | None = None) -> dict:
    """A question's reference laid out for evaluation at any points: every element, its
    monomials in the joint rates, their coefficients and terms, and the typical mistakes, as the
    rows of one compiled function.  A symbolic question with givens is laid out with the
    student's values ``given`` put in (:func:`at_given`).  Cached by what it depends on alone,
    the key's text and those values (the answer never enters it), so a key read again, or
    another student with the same values, finds it compiled; its callers only read it."""
    symbolic_variant = key["kind"] == "symbolic" and bool(key.get("parameters"))
    values = given_values(key, given) if symbolic_variant else None
    return _prepared(json.dumps(key, sort_keys=True), values)


@functools.lru_cache(maxsize=PREPARED_KEPT)
def _prepared(text: str, values: tuple | None) -> dict:
    """:func:`prepare` of the key ``json.dumps``'d as ``text`` at the givens ``values``."""
    key = json.loads(text)
    ref = reference(key)
    if values is not None:
        ref = {name: at_given(key, exprs, dict(values)) for name, exprs in ref.items()}
    layout, parts = [], {}

    def row(expr) -> int:
        layout.append(expr)
        return len(layout) - 1

    for part in key["parts"]:
        parts[part["name"]] = [{"expr": expr, "row": row(expr)} for expr in ref[part["name"]]]
    checked = len(layout)
    mistakes = [[row(expr) for expr in ref[("mistake", i)]]
                for i in range(len(key.get("mistakes", [])))]
    prepared = {"layout": layout, "checked": checked, "parts": parts, "mistakes": mistakes}
    if key["kind"] == "numeric":
        prepared["numbers"] = layout
    else:
        split = [s for s in (key_symbol(n, r) for n, r in key["symbols"])
                 if str(s) in key.get("split", [])]
        for elements in parts.values():
            for element in elements:
                element["monomials"] = []
                for monomial, coefficient in sorted(monomial_terms(element["expr"], split).items()):
                    terms = sympy.Add.make_args(sympy.expand(coefficient))
                    element["monomials"].append({
                        "monomial": monomial, "coefficient": row(coefficient),
                        "symbol": row(monomial_symbol(monomial)),
                        "terms": [row(t) for t in terms], "exprs": list(terms)})
        symbols = [key_symbol(n, r) for n, r in key["symbols"]]
        prepared["function"] = _lambdify(symbols, layout, "numpy")
    return prepared


def _at_variant(key: dict, numbers: list, given: dict | None) -> list:
    """A numeric key's numbers; with parameters, its expressions at the student's values
    (:func:`at_given`)."""
    return at_given(key, numbers, given)


def _evaluate(function, points: np.ndarray, count: int) -> np.ndarray:
    """The rows of a prepared function at ``points`` (NaN where not real)."""
    K = len(points)
    with np.errstate(all="ignore"):
        outputs = function(*points.T)
    result = np.empty((count, K))
    for i, output in enumerate(outputs):
        array = np.broadcast_to(np.asarray(output, dtype=complex), (K,))
        real = array.real.copy()
        real[np.abs(array.imag) > 1e-12 * np.maximum(1.0, np.abs(real))] = np.nan
        result[i] = real
    return result


def _element_values(element: dict, values: np.ndarray) -> dict:
    """One reference element's values, scale and monomials at the points of this check."""
    result = {"expr": element["expr"], "values": values[element["row"]]}
    if "monomials" not in element:
        return result
    scale = np.zeros(values.shape[1])
    result["monomials"] = []
    for entry in element["monomials"]:
        terms = [values[r] for r in entry["terms"]]
        coefficient_scale = np.sum(np.abs(terms), axis=0)
        scale = scale + coefficient_scale * np.abs(values[entry["symbol"]])
        result["monomials"].append({"monomial": entry["monomial"],
                                    "values": values[entry["coefficient"]],
                                    "scale": coefficient_scale, "terms": terms,
                                    "exprs": entry["exprs"]})
    result["scale"] = scale
    return result


def _lambdify(symbols, exprs, module: str):
    """``sympy.lambdify`` printing sums in their own order (sorting the terms of a large answer
    costs more than evaluating it), without the docstring that prints every expression once more
    (a third of the CPU of a check)."""
    from sympy.printing.numpy import NumPyPrinter
    from sympy.printing.pycode import MpmathPrinter
    printer = (NumPyPrinter if module == "numpy" else MpmathPrinter)(
        {"fully_qualified_modules": False, "inline": True, "allow_unknown_functions": True,
         "user_functions": {}, "order": "none"})
    return sympy.lambdify(symbols, exprs, module, printer=printer, docstring_limit=0)


def _real_mp(value):
    """An mpmath value as a real mpf (None where it is not real)."""
    if isinstance(value, mpmath.mpc):
        if abs(value.imag) > 1e-12 * max(1, abs(value.real)):
            return None
        return value.real
    return mpmath.mpf(value)
