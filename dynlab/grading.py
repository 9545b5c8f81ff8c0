"""Answer checking for the graded exercises: ``check("3.16c", answer)`` says *what* is wrong.

The exercises (``exercises/``, generated from ``solutions/``) end each question with a cell
``check("<question>", answer)``.  The answer may be a SymPy expression or Matrix, a (nested) list
or tuple, a NumPy array (where numbers are asked), a string, a callable returning one of these,
a dict or a tuple of parts for a question with several parts (``(D, h, c)``), or a
:class:`dynlab.equations.EquationsOfMotion` when the parts are ``D``, ``h`` and ``c``.

**No readable answer key.**  The keys in ``dynlab/answer_keys/*.json`` are built by
``tools/make_answer_keys.py`` from dynlab's own derivations and hold, per element of an answer:
its values at a few fixed random sample points (split by joint-velocity and -acceleration
monomial), the values of each of its terms there (to tell a missing term), and a salted hash of
its canonical form (for the exact check).  No reference expression is stored, and the feedback
texts of the typical mistakes (which name the right answer) are stored compressed and encoded.

**Deciding.**  Two tests, as the issue asks: symbolic simplification of the difference, and a
numeric spot check.  The reference is not stored, so the symbolic test brings the *answer* to the
normal form behind :func:`dynlab.symbolic.is_zero` (angle sums expanded, ``sin^2 = 1 - cos^2``,
fractions cancelled): the difference simplifies to zero exactly when that form equals the
reference's, which the key holds as a salted hash.  The numeric test compares every element with
the key at every sample point (an identity of such functions that holds at random real points
holds everywhere, except with probability zero); it also decides the answers that have no normal
form (``Abs``, square roots, a joint angle in a denominator).  The numbers go first because they
are cheap and every wrong answer fails them; a right answer is then reported as equal "exactly"
or "at the sample points".  Exact structure checks (symmetry of an inertia matrix, skew symmetry
of ``Mdot - 2C``) use :func:`dynlab.symbolic.is_zero` on the answer itself.

**Explaining.**  A wrong answer is compared element by element, monomial by monomial, term by
term: wrong shape (or transposed), unknown symbols (naming the expected ones), sign errors, a
constant factor (``1/2`` where ``1/3`` belongs), a missing, extra or mis-scaled term
(``D12 is missing the l**2*m2*cos(q2)/2 term``: the term is found from its stored values by a
search over monomials of the question's symbols), a missing Coriolis or centrifugal product,
swapped elements, and the question's own typical mistakes (degrees for radians, gravity the wrong
way, ...), stored as fingerprints too.

**Never raises.**  ``...``, ``None``, an answer that raises or takes too long (a time limit, by
default :data:`TIME_LIMIT` seconds) all give a message.  For nbgrader's autograder, which gives
points to a grade cell that does not raise, set the environment variable
``DYNLAB_STRICT_GRADING=1``: then a check that is not correct raises :class:`AnswerError` after
its message.

>>> import sympy
>>> M, a = sympy.symbols("M a", positive=True)
>>> I_centre = sympy.Rational(2, 3) * M * a**2 * sympy.eye(3)
>>> I_corner = M * a**2 * sympy.Matrix([[8, 3, 3], [3, 8, 3], [3, 3, 8]]) / 3
>>> print(check("3.5", (I_corner, I_centre)))           # Prob. 3.5: a cube about a corner
3.5  ✗ 0/2 points
  I_corner: the off-diagonal entries have the wrong sign: the tensor holds the NEGATED product integrals, I_xy = -int x*y dm (000's definition of I_ij just before Eq. (3.2-18))
  I_centre: correct
>>> print(check("3.5", (I_corner - 2 * M * a**2 * (sympy.ones(3, 3) - sympy.eye(3)), I_centre)))
3.5  ✓ 2/2 points: correct (equal to the key exactly)
>>> print(check("3.5", ...))
3.5  ✗ 0/2 points -- not answered yet: replace the ... by your answer (a tuple (I_corner, I_centre) with I_corner: a 3x3 matrix; I_centre: a 3x3 matrix)
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import itertools
import json
import math
import numbers
import os
import re
import signal
import threading
import time
import zlib
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
import sympy

from dynlab.symbolic import reduce_sine_powers, compact, is_zero, trig_polynomial

#: Number of random sample points per question.
SAMPLES = 6
#: Relative tolerance of a symbolic answer's values (relative to the size of its terms).
TOLERANCE = 1e-9
#: Relative tolerance of a numeric answer (relative to the largest entry of the part).
NUMERIC_TOLERANCE = 1e-5
#: Seconds a check may take before it gives up with a message.
TIME_LIMIT = 5.0
#: Seconds the optional exact check of a right answer may take (after the numbers matched): past
#: it the answer is still correct, reported as equal at the sample points.
EXACT_TIME_LIMIT = 0.5
#: Environment variable that makes a check which is not correct raise (for nbgrader).
STRICT_VARIABLE = "DYNLAB_STRICT_GRADING"

KEY_DIRECTORY = Path(__file__).resolve().parent / "answer_keys"

_RESULTS: dict = {}          # question -> the last Feedback of this session (for summary())


class AnswerError(AssertionError):
    """Raised by :func:`check` in strict mode (``DYNLAB_STRICT_GRADING=1``) for an answer that is
    not correct, so nbgrader's autograder gives the grade cell no points."""


class _NotAnswered(Exception):
    pass


class _Unusable(Exception):
    """The answer cannot be graded as given; the message says why (shown to the student)."""


class _OutOfTime(BaseException):
    # BaseException: SymPy's internals catch Exception, and must not swallow the time limit
    pass


class _ExactOutOfTime(_OutOfTime):
    """The exact check's own, shorter limit (never stops the grade)."""


# -- results ------------------------------------------------------------------------------------
@dataclass
class Feedback:
    """The outcome of one :func:`check`: true when the answer is right."""

    question: str
    status: str                   # "correct", "incorrect", "not answered" or "not graded"
    points: float
    max_points: float
    messages: list = field(default_factory=list)
    seconds: float = 0.0

    def __bool__(self) -> bool:
        return self.status == "correct"

    @property
    def correct(self) -> bool:
        return self.status == "correct"

    def __str__(self) -> str:
        mark = "✓" if self.correct else "✗"
        head = f"{self.question}  {mark} {_points(self.points)}/{_points(self.max_points)} points"
        if self.status == "not answered":
            head += " -- not answered yet"
        if len(self.messages) == 1 and (self.correct or self.status == "not answered"):
            return f"{head}: {self.messages[0]}" if self.messages[0] else head
        return "\n".join([head] + [f"  {line}" for line in self.messages])

    __repr__ = __str__

    def _repr_html_(self) -> str:
        import html
        colour = "#e6f4ea" if self.correct else (
            "#f1f3f4" if self.status == "not answered" else "#fce8e6")
        text = html.escape(str(self))
        return (f'<pre style="background:{colour};padding:0.4em;white-space:pre-wrap">'
                f"{text}</pre>")


def _points(value: float) -> str:
    return f"{value:g}"


@dataclass
class Summary:
    """Points per question of one notebook, from this session's checks (nbgrader's points)."""

    notebook: str
    rows: list                    # (question, title, points, max points, status)

    @property
    def score(self) -> float:
        return sum(row[2] for row in self.rows)

    @property
    def total(self) -> float:
        return sum(row[3] for row in self.rows)

    def __str__(self) -> str:
        width = max([len("question")] + [len(r[0]) for r in self.rows])
        lines = [f"Score for {self.notebook}: {_points(self.score)}/{_points(self.total)} points",
                 f"  {'question'.ljust(width)}  points  status"]
        for question, title, points, maximum, status in self.rows:
            score = f"{_points(points)}/{_points(maximum)}"
            lines.append(f"  {question.ljust(width)}  {score.rjust(6)}  {status}")
        return "\n".join(lines)

    __repr__ = __str__


# -- the keys -------------------------------------------------------------------------------------
_KEYS: dict | None = None


def keys() -> dict:
    """Every question's key (loaded once from ``dynlab/answer_keys/*.json``), by question id."""
    global _KEYS
    if _KEYS is None:
        loaded = {}
        for path in sorted(KEY_DIRECTORY.glob("*.json")):
            for key in json.loads(path.read_text())["questions"]:
                loaded[key["id"]] = key
        _KEYS = loaded
    return _KEYS


def questions(notebook: str | None = None) -> list:
    """The question ids (of one notebook, or all), in the order of the keys.

    >>> questions("03_probing_and_other_arms")
    ['3.11', '3.12', '3.18', '6-4-1']
    """
    return [q for q, key in keys().items() if notebook is None or key["notebook"] == notebook]


def summary(notebook: str) -> Summary:
    """The score of this session's checks for the questions of ``notebook`` (a file stem of
    ``solutions/`` and ``exercises/``): one row per question with its nbgrader points.

    >>> reset()
    >>> _ = check("3.12", ...)
    >>> _ = check("3.11", None)
    >>> print(summary("03_probing_and_other_arms"))     # doctest: +NORMALIZE_WHITESPACE
    Score for 03_probing_and_other_arms: 0/9 points
      question  points  status
      3.11         0/3  not answered
      3.12         0/1  not answered
      3.18         0/3  not checked yet
      6-4-1        0/2  not checked yet
    """
    rows = []
    for question in questions(notebook):
        key = keys()[question]
        result = _RESULTS.get(question)
        if result is None:
            rows.append((question, key["title"], 0.0, float(key["points"]), "not checked yet"))
        else:
            rows.append((question, key["title"], result.points, result.max_points,
                         result.status))
    return Summary(notebook, rows)


def reset() -> None:
    """Forget this session's checks, so :func:`summary` starts from nothing again."""
    _RESULTS.clear()


# -- checking -------------------------------------------------------------------------------------
def check(question: str, answer: Any, *, time_limit: float | None = TIME_LIMIT) -> Feedback:
    """Grade ``answer`` to ``question`` and say what is wrong with it (never raises, except in
    strict mode for nbgrader, see the module docstring).

    >>> print(check("no such question", 1))        # doctest: +ELLIPSIS
    no such question  ✗ 0/0 points
      There is no question 'no such question'; the questions are ...
    """
    start = time.perf_counter()
    key = keys().get(question) if isinstance(question, str) else None
    if key is None:
        known = ", ".join(questions())
        feedback = Feedback(str(question), "not graded", 0.0, 0.0,
                            [f"There is no question {question!r}; the questions are {known}"])
        return _finish(feedback, start)
    maximum = float(key["points"])
    try:
        with _time_limit(time_limit):
            status, messages = _grade(key, answer)
    except _OutOfTime:
        status, messages = "not graded", [
            f"Checking took longer than {time_limit:g} s, so it was stopped. Simplify the answer "
            f"(sympy.simplify, or build it from smaller pieces) and check again."]
    except _NotAnswered:
        status, messages = "not answered", [_not_answered_text(key)]
    except _Unusable as problem:
        status, messages = "not graded", [str(problem)]
    except Exception as error:                           # noqa: BLE001 - never into the notebook
        status, messages = "not graded", [
            f"The checker could not grade this answer ({type(error).__name__}: {error}). "
            f"Check that it is {_expected_text(key)}."]
    points = maximum if status == "correct" else 0.0
    feedback = Feedback(question, status, points, maximum, messages)
    return _finish(feedback, start)


def _finish(feedback: Feedback, start: float) -> Feedback:
    feedback.seconds = time.perf_counter() - start
    if feedback.max_points or feedback.status != "not graded":
        _RESULTS[feedback.question] = feedback
    if os.environ.get(STRICT_VARIABLE, "") not in ("", "0") and not feedback.correct:
        raise AnswerError(str(feedback))
    return feedback


@contextlib.contextmanager
def _time_limit(seconds: float | None, error: type = _OutOfTime):
    """Raise :class:`_OutOfTime` after ``seconds`` (by SIGALRM, so only in the main thread of a
    Unix process, where notebooks run their cells; elsewhere no limit applies)."""
    usable = (seconds is not None and seconds > 0 and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    def expire(signum, frame):
        raise error()

    previous_handler = signal.signal(signal.SIGALRM, expire)
    previous_delay, previous_interval = signal.setitimer(signal.ITIMER_REAL, seconds)
    if 0 < previous_delay < seconds:     # an outer limit that ends first keeps its end
        signal.setitimer(signal.ITIMER_REAL, previous_delay)
    begun = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_handler)
        if previous_delay > 0:           # give an outer timer back what is left of it
            left = max(previous_delay - (time.monotonic() - begun), 1e-3)
            signal.setitimer(signal.ITIMER_REAL, left, previous_interval)


def _not_answered_text(key: dict) -> str:
    return f"replace the ... by your answer ({_expected_text(key)})"


def _expected_text(key: dict) -> str:
    if key["kind"] == "choice":
        return "one of the letters " + ", ".join(key["options"])
    parts = [f"{part['name']}: {_shape_text(tuple(part['shape']))}" for part in key["parts"]]
    if len(parts) == 1:
        return _shape_text(tuple(key["parts"][0]["shape"]))
    return "a tuple (" + ", ".join(part["name"] for part in key["parts"]) + ") with " + \
        "; ".join(parts)


def _shape_text(shape: tuple) -> str:
    if shape == ():
        return "a single expression"
    if len(shape) == 1:
        return f"a {shape[0]}-vector"
    if len(shape) == 2:
        return f"a {shape[0]}x{shape[1]} matrix"
    return f"a list of {shape[0]} {shape[1]}x{shape[2]} matrices"


# -- grading one answer ---------------------------------------------------------------------------
def _grade(key: dict, answer: Any) -> tuple:
    if callable(answer) and not isinstance(answer, (sympy.Basic, sympy.MatrixBase, type)):
        try:
            answer = answer()
        except _OutOfTime:
            raise
        except Exception as error:                       # noqa: BLE001
            raise _Unusable(f"Your answer raised {type(error).__name__}: {error}") from None
    if key["kind"] == "choice":
        return _grade_choice(key, answer)
    context = _Context(key)
    given = _split_parts(key, answer)
    messages, all_right, any_answered = [], True, False
    judged = {}                           # part name -> (elements, right, notes)
    for part in key["parts"]:
        value = given[part["name"]]
        try:
            elements = context.elements(part, value)
        except _NotAnswered:
            judged[part["name"]] = None
            all_right = False
            continue
        any_answered = True
        right, notes = context.judge(part, elements)
        all_right &= right
        judged[part["name"]] = (elements, right, notes)
    if not any_answered:
        raise _NotAnswered()
    swapped = {} if all_right else context.swapped_parts(judged)
    for part in key["parts"]:
        label = part["name"] if len(key["parts"]) > 1 else ""
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
        exact_all = context.kind == "symbolic" and context.exact_all(
            [(part, judged[part["name"]][0]) for part in key["parts"]])
        how = ("equal to the key exactly" if exact_all else
               f"equal to the key at {len(key['samples'])} random sample points"
               if key["kind"] == "symbolic" else "equal to the key's numbers")
        return "correct", [f"correct ({how})"]
    return "incorrect", messages


def _unique(lines: Iterable[str]) -> list:
    seen, result = set(), []
    for line in lines:
        if line not in seen:
            seen.add(line)
            result.append(line)
    return result


def _grade_choice(key: dict, answer: Any) -> tuple:
    if answer is ... or answer is None:
        raise _NotAnswered()
    if not isinstance(answer, str):
        raise _Unusable(f"Answer with one of the letters {', '.join(key['options'])} (as a "
                        f"string, e.g. \"{key['options'][0]}\"), not a {type(answer).__name__}")
    letter = re.sub(r"^\s*option\s*", "", answer, flags=re.IGNORECASE)
    letter = letter.strip().strip("()[].:,;'\"").strip().upper()
    if letter not in key["options"]:
        raise _Unusable(f"{answer!r} is not one of the options {', '.join(key['options'])}")
    if _hash(key["id"], "choice", letter) == key["answer"]:
        return "correct", ["correct"]
    sealed = key["messages"].get(letter)
    return "incorrect", [_unseal(sealed) if sealed else f"({letter}) is not the right option"]


def _split_parts(key: dict, answer: Any) -> dict:
    """The answer's value for each part of the question."""
    parts = [part["name"] for part in key["parts"]]
    if len(parts) == 1:
        return {parts[0]: answer}
    if answer is ... or answer is None:
        raise _NotAnswered()
    if isinstance(answer, dict):
        missing = [p for p in parts if p not in answer]
        if missing:
            raise _Unusable(f"The dict has no entry for {', '.join(missing)}; give "
                            f"{', '.join(parts)}")
        return {p: answer[p] for p in parts}
    if all(hasattr(answer, p) for p in parts) and not isinstance(answer, (list, tuple)):
        return {p: getattr(answer, p) for p in parts}          # e.g. an EquationsOfMotion
    if isinstance(answer, (list, tuple)) and len(answer) == len(parts):
        return dict(zip(parts, answer))
    raise _Unusable(f"This question has {len(parts)} parts: give them as a tuple "
                    f"({', '.join(parts)})")


# -- one question's symbols, samples and answer elements ------------------------------------------
class _Context:
    """A key's symbols and sample points, and the element-by-element comparison."""

    def __init__(self, key: dict):
        self.key = key
        self.kind = key["kind"]
        self.names = [name for name, _ in key["symbols"]]
        self.symbols = [_key_symbol(name, role) for name, role in key["symbols"]]
        self.by_name = dict(zip(self.names, self.symbols))
        self.samples = np.array(key["samples"], dtype=float).reshape(len(key["samples"]),
                                                                     len(self.names))
        self.split = [self.by_name[name] for name in key.get("split", [])]
        self.tolerance = key.get("tolerance", TOLERANCE if self.kind == "symbolic"
                                 else NUMERIC_TOLERANCE)

    # -- reading the answer
    def elements(self, part: dict, value: Any) -> list:
        """The answer to ``part`` as a flat list of SymPy expressions in the key's symbols."""
        if callable(value) and not isinstance(value, (sympy.Basic, sympy.MatrixBase, type)):
            try:
                value = value()
            except _OutOfTime:
                raise
            except Exception as error:                   # noqa: BLE001
                raise _Unusable(f"Your answer raised {type(error).__name__}: {error}") from None
        if value is ... or value is None:
            raise _NotAnswered()
        if isinstance(value, sympy.Equality) and isinstance(
                value.lhs, (sympy.Symbol, sympy.MatrixSymbol)) and \
                _same_name(str(value.lhs), part["name"]):
            value = value.rhs                     # Eq(D, Matrix(...)) names the part: use D
        if isinstance(value, (bool, np.bool_, sympy.logic.boolalg.BooleanAtom)):
            raise _Unusable(f"{part['name']}: the answer is the boolean {value} (an equation "
                            f"Eq(...) that SymPy evaluated?): give the expression itself, not "
                            f"an equation")
        nested = _nested(value)
        shape = _shape(nested, part["name"])
        expected = tuple(part["shape"])
        leaves = list(_flatten(nested))
        if any(leaf is ... or leaf is None for leaf in leaves):
            raise _NotAnswered()
        if shape == () and expected != () and not isinstance(
                value, (sympy.Basic, numbers.Number, np.number, str)):
            raise _Unusable(f"{part['name']}: expected {_shape_text(expected)}, got a value of "
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
        raise _Unusable(f"wrong shape: {name} should be {_shape_text(expected)}, "
                        f"but the answer is {_shape_text(shape)}{hint}")

    def _expression(self, leaf: Any, part: dict):
        if isinstance(leaf, (bool, np.bool_)):
            raise _Unusable(f"{part['name']}: expected {self._what()}, got the boolean {leaf}")
        if isinstance(leaf, str):
            try:
                leaf = sympy.parse_expr(leaf, local_dict=dict(self.by_name))
            except Exception as error:                   # noqa: BLE001
                raise _Unusable(f"{part['name']}: could not read {leaf!r} as an expression "
                                f"({type(error).__name__})") from None
        if isinstance(leaf, Fraction):
            return sympy.Rational(leaf.numerator, leaf.denominator)
        if not isinstance(leaf, sympy.Basic) and isinstance(leaf, (numbers.Number, np.number)):
            value = complex(leaf)
            if value.imag != 0:
                raise _Unusable(f"{part['name']}: expected real numbers, got {leaf}")
            if not math.isfinite(value.real):
                raise _Unusable(f"{part['name']}: the answer contains {leaf}")
            return sympy.Integer(int(leaf)) if isinstance(leaf, (int, np.integer)) \
                else sympy.Float(value.real)
        if isinstance(leaf, sympy.Basic) and not isinstance(leaf, sympy.Expr):
            what = "an equation" if isinstance(leaf, (sympy.Eq, sympy.Rel)) else \
                type(leaf).__name__
            raise _Unusable(f"{part['name']}: give the expression itself, not {what} ({leaf})"
                            + (" (the right-hand side, e.g. answer.rhs)"
                               if isinstance(leaf, sympy.Eq) else ""))
        try:
            expr = sympy.sympify(leaf, strict=True)
        except Exception:                                # noqa: BLE001
            raise _Unusable(f"{part['name']}: expected {self._what()}, got a value of type "
                            f"{type(leaf).__name__} ({leaf!r})") from None
        return self._rename(expr, part)

    def _what(self) -> str:
        return "numbers" if self.kind == "numeric" else "SymPy expressions or numbers"

    def _rename(self, expr, part):
        unevaluated = (sympy.Integral, sympy.Sum, sympy.Product, sympy.Limit)
        if expr.has(*unevaluated):
            try:
                expr = expr.doit()
            except _OutOfTime:
                raise
            except Exception:                            # noqa: BLE001
                pass
            if expr.has(*unevaluated):
                raise _Unusable(f"{part['name']}: the answer holds an unevaluated integral, sum "
                                f"or limit that SymPy cannot evaluate: call .doit() on it, or "
                                f"evaluate it by hand")
        if expr.has(sympy.Derivative) or expr.atoms(sympy.core.function.AppliedUndef):
            functions = sorted(map(str, expr.atoms(sympy.core.function.AppliedUndef)))
            raise _Unusable(f"{part['name']}: the answer contains functions "
                            f"({', '.join(functions) or 'derivatives'}); write the joint "
                            f"variables as plain symbols {self._expected_symbols()}")
        if expr.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
            raise _Unusable(f"{part['name']}: the answer contains {expr}")
        free = expr.free_symbols
        unknown = sorted({str(s) for s in free} - set(self.names))
        if unknown:
            if self.kind == "numeric":
                raise _Unusable(f"{part['name']}: numbers are asked here, but the answer "
                                f"contains the symbols {', '.join(unknown)}")
            raise _Unusable(f"unknown symbols {', '.join(unknown)} in {part['name']}"
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
            function = sympy.lambdify(self.symbols, [exprs[i] for i in todo], modules="numpy")
            with np.errstate(all="ignore"):
                outputs = function(*self.samples.T)
            for i, output in zip(todo, outputs):
                array = np.broadcast_to(np.asarray(output, dtype=complex), (K,))
                real = array.real.copy()
                real[np.abs(array.imag) > 1e-12 * np.maximum(1.0, np.abs(real))] = np.nan
                result[i] = real
        return result

    def close(self, a, b, scale) -> np.ndarray:
        """Whether values ``a`` and ``b`` agree at each point (to the tolerance of ``scale``)."""
        with np.errstate(invalid="ignore"):
            return np.abs(np.asarray(a) - np.asarray(b)) <= self.tolerance * np.asarray(scale)

    # -- judging a part
    def judge(self, part: dict, answer: list) -> tuple:
        """``(right, exact, notes)`` for one part."""
        reference = part["elements"]
        values = self.values(answer)
        refs = np.array([e["values"] for e in reference], dtype=float)
        scales = self._scales(part, values, refs)
        ok = np.array([bool(np.all(self.close(v, r, s)))
                       for v, r, s in zip(values, refs, scales)])
        if ok.all():
            return True, []
        return False, _Diagnosis(self, part, answer, values, refs, scales, ok).notes()

    def exact_all(self, parts: list) -> bool:
        """Whether every part equals the key exactly (the canonical forms' hashes), under its own
        short limit: a right answer too large to bring to normal form quickly is still right,
        only not shown to be so exactly."""
        try:
            with _time_limit(EXACT_TIME_LIMIT, _ExactOutOfTime):
                return all(self._exact(part, answer) for part, answer in parts)
        except _ExactOutOfTime:
            return False

    def swapped_parts(self, judged: dict) -> dict:
        """``{part: message}`` for wrong parts of equal shape whose answers are each other's."""
        parts = {p["name"]: p for p in self.key["parts"]}
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

    def _exact(self, part: dict, answer: list) -> bool:
        for index, (element, expr) in enumerate(zip(part["elements"], answer)):
            stored = element.get("hash")
            if stored is None:
                return False
            form = canonical_form(expr)
            if form is None or _hash(self.key["id"], f"{part['name']}{index}", form) != stored:
                return False
        return True


def _key_symbol(name: str, role: str):
    if role == "positive":
        return sympy.Symbol(name, positive=True)
    if role == "real":
        return sympy.Symbol(name, real=True)
    return sympy.Symbol(name)


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


def _nested(value: Any):
    """Lists (of lists) of leaves from Matrices, arrays, lists and tuples."""
    if isinstance(value, sympy.MatrixBase):
        return [[value[r, c] for c in range(value.cols)] for r in range(value.rows)]
    if isinstance(value, sympy.NDimArray):
        return _nested(value.tolist())
    if isinstance(value, np.matrix):          # iterating a matrix row gives a matrix again
        value = np.asarray(value)
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return value.item()
        return [_nested(item) for item in value]
    if isinstance(value, (list, tuple)):
        return [_nested(item) for item in value]
    return value


def _shape(nested, name: str) -> tuple:
    if not isinstance(nested, list):
        return ()
    if not nested:
        raise _Unusable(f"{name}: the answer is empty")
    shapes = {_shape(item, name) for item in nested}
    if len(shapes) != 1:
        raise _Unusable(f"{name}: the rows have different lengths")
    return (len(nested),) + shapes.pop()


def _flatten(nested):
    if isinstance(nested, list):
        for item in nested:
            yield from _flatten(item)
    else:
        yield nested


# -- the exact check ------------------------------------------------------------------------------
def canonical_form(expr) -> str | None:
    """A canonical text of a trigonometric polynomial (or of such a polynomial over a polynomial
    in the parameters): equal texts if and only if the expressions are identically equal.

    It is the normal form behind :func:`dynlab.symbolic.is_zero`: sines and cosines of the
    angles become variables ``s_x``, ``c_x`` (angle sums and multiples expanded), the polynomial
    is reduced modulo ``s_x^2 + c_x^2 - 1``, and rational functions are cancelled.  ``None`` when
    the expression is not of that kind (a square root, an absolute value, an angle in a
    denominator, a float coefficient).

    >>> q = sympy.Symbol("q")
    >>> canonical_form(sympy.sin(q)**2 + sympy.cos(2*q)) == canonical_form(sympy.cos(q)**2)
    True
    """
    expr = sympy.sympify(expr)
    if expr.atoms(sympy.Float):
        return None
    converted = trig_polynomial(expr)
    if converted is None:
        return None
    polynomial, relations = converted
    numerator, denominator = sympy.fraction(sympy.together(polynomial))
    if denominator.free_symbols:
        numerator, denominator = sympy.fraction(sympy.cancel(sympy.together(polynomial)))
        trig = {s for relation in relations for s in relation.free_symbols}
        if denominator.free_symbols & trig:
            return None
    if not (numerator.is_polynomial() and denominator.is_polynomial()):
        return None
    numerator = sympy.expand(numerator)
    if relations:
        numerator = sympy.expand(reduce_sine_powers(numerator, relations))
    denominator = sympy.expand(denominator)
    if denominator.free_symbols:
        lead = sympy.Poly(denominator, *sorted(denominator.free_symbols, key=str)).LC()
    else:
        lead = denominator
    numerator, denominator = sympy.expand(numerator / lead), sympy.expand(denominator / lead)
    return f"{sympy.srepr(numerator)} / {sympy.srepr(denominator)}"


def _seal(text: str) -> str:
    """Feedback text as stored in a key: compressed and base64-encoded, so the messages (which
    name the right answer when they explain a mistake) cannot be read in the installed package.

    >>> _seal("s_i = 0") != "s_i = 0" and _unseal(_seal("s_i = 0")) == "s_i = 0"
    True
    """
    return base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")


def _unseal(sealed: str) -> str:
    return zlib.decompress(base64.b64decode(sealed)).decode("utf-8")


def _hash(question: str, where: str, text: str) -> str:
    return hashlib.sha256(f"dynlab|{question}|{where}|{text}".encode()).hexdigest()[:24]


# -- explaining what is wrong ---------------------------------------------------------------------
_VELOCITY = re.compile(r"qd\d+")
_ACCELERATION = re.compile(r"qdd\d+")


def _monomial_text(monomial: str) -> str:
    """What a monomial of the joint rates stands for (000 Sec. 3.2.6's names).

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


def _ratio_text(ratio: Fraction, denominators: Iterable = ()) -> str:
    """``3/2`` -> ``3/2 times the right value (1/2 where 1/3 belongs?)``: the guess at the
    coefficient only when the key's term has that denominator (``denominators``).

    >>> _ratio_text(Fraction(3, 2), {3})
    '3/2 times the right value (1/2 where 1/3 belongs?)'
    >>> _ratio_text(Fraction(3, 2))
    '3/2 times the right value'
    >>> _ratio_text(Fraction(2))
    '2 times the right value (a missing 1/2?)'
    """
    text = f"{ratio.numerator}/{ratio.denominator}" if ratio.denominator != 1 else \
        str(ratio.numerator)
    hint = ""
    if ratio == 2:
        hint = " (a missing 1/2?)"
    elif ratio == Fraction(1, 2):
        hint = " (an extra 1/2?)"
    elif 2 <= abs(ratio.numerator) <= 12 and 2 <= ratio.denominator <= 12 and \
            abs(ratio.numerator) in set(denominators):
        # a coefficient 1/q where 1/p belongs makes the ratio p/q (1/2 for 1/3: 3/2)
        sign = "-" if ratio < 0 else ""
        hint = f" ({sign}1/{ratio.denominator} where 1/{abs(ratio.numerator)} belongs?)"
    return f"{text} times the right value{hint}"


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


def _small_fraction(value: float) -> Fraction | None:
    """``value`` as a fraction with small terms (3/2, -1/3, 4), not 999/1000."""
    fraction = _fraction(value)
    if fraction is None or fraction.denominator > 12 or abs(fraction.numerator) > 144:
        return None
    return fraction


def _fraction(value: float, limit: int = 1000) -> Fraction | None:
    if not math.isfinite(value) or value == 0:
        return None
    fraction = Fraction(value).limit_denominator(limit)
    if abs(float(fraction) - value) <= 1e-9 * abs(value):
        return fraction
    return None


class _Diagnosis:
    """Notes on a wrong part: the question's own mistakes first, then shape-wide patterns, then
    element by element (monomial by monomial, term by term)."""

    def __init__(self, context: _Context, part: dict, answer: list, values: np.ndarray,
                 refs: np.ndarray, scales: np.ndarray, ok: np.ndarray):
        self.c, self.part, self.answer = context, part, answer
        self.values, self.refs, self.scales, self.ok = values, refs, scales, ok
        self.shape = tuple(part["shape"])
        self.template = part.get("names") or _default_names(part["name"], self.shape)

    def name(self, flat: int) -> str:
        if not self.shape:
            return self.part["name"]
        index = np.unravel_index(flat, self.shape)
        letters = dict(zip("kij"[-len(self.shape):] if len(self.shape) == 3 else "ij",
                           (i + 1 for i in index)))
        if len(self.shape) == 1:
            letters = {"i": index[0] + 1}
        return self.template.format(**letters)

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
        for mistake in self.c.key.get("mistakes", []):
            if mistake["part"] != self.part["name"]:
                continue
            wrong = np.array(mistake["values"], dtype=float)
            if wrong.shape == self.values.shape and self.matches(self.values, wrong):
                return _unseal(mistake["message"])
        return None

    def all_wrong_within(self, relative: float) -> bool:
        """Whether every wrong element is within ``relative`` of the key at every point."""
        wrong = np.flatnonzero(~self.ok)
        with np.errstate(all="ignore"):
            size = np.maximum(np.abs(self.refs[wrong]), 1e-300)
            error = np.abs(self.values[wrong] - self.refs[wrong]) / size
        return bool(wrong.size) and bool(np.all(error < relative))

    def rounded(self) -> str | None:
        """A decimal like 0.333 where a fraction belongs (every wrong element within 1 %)."""
        if self.c.kind != "symbolic":
            return None
        floats = [f for k in np.flatnonzero(~self.ok)
                  for f in sorted(self.answer[k].atoms(sympy.Float), key=abs)]
        if not floats or not self.all_wrong_within(0.01):
            return None
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
        for product in self.c.key.get("products", []):
            if product["part"] != self.part["name"]:
                continue
            n_rows, n_cols = self.shape
            vector = self.c.values([self.c.by_name[v] for v in product["vector"]])
            rows = self.values.reshape(n_rows, n_cols, -1)
            result = np.einsum("ijk,jk->ik", rows, vector)
            wanted = np.array(product["values"], dtype=float)
            scale = np.maximum(1.0, np.abs(wanted)) * 10
            if np.all(self.c.close(result, wanted, scale)):
                return _unseal(product["message"])
        return None

    def structure(self) -> list:
        """Exact checks of the answer's own structure (is_zero on the answer)."""
        kind = self.part.get("structure")
        if kind not in ("symmetric", "skew") or len(self.shape) != 2:
            return []
        matrix = sympy.Matrix(self.shape[0], self.shape[1], self.answer)
        sign = 1 if kind == "symmetric" else -1
        if is_zero(matrix - sign * matrix.T):
            return []
        for i in range(self.shape[0]):
            for j in range(i + (1 if kind == "symmetric" else 0), self.shape[1]):
                if not is_zero(matrix[i, j] - sign * matrix[j, i]):
                    a, b = self.name(i * self.shape[1] + j), self.name(j * self.shape[1] + i)
                    relation = f"{a} = {b}" if kind == "symmetric" else (
                        f"{a} = -{b}" if i != j else f"{a} = 0")
                    return [f"{self.part['name']} must be {kind}, but {relation} does not hold"]
        return []

    def whole_part(self) -> str | None:
        """The same sign error or factor in every (non-zero) element."""
        nonzero = [k for k in range(len(self.refs))
                   if not self.matches(self.refs[k], np.zeros_like(self.refs[k]))]
        if len(nonzero) < 2 or any(self.ok[k] for k in nonzero):
            return None
        zero_right = all(self.ok[k] for k in range(len(self.refs)) if k not in nonzero)
        if not zero_right:
            return None
        raw = self._common_value(nonzero)
        ratio = None if raw is None else _small_fraction(raw)
        if ratio is None:
            degrees = None if raw is None else _degrees_text(raw)
            return f"{self.part['name']} is {degrees}" if degrees else None
        hints = {k: _unseal(v) for k, v in self.part.get("hints", {}).items()}
        if ratio == -1:
            return f"{self.part['name']} has the wrong sign" + (
                f": {hints['sign']}" if "sign" in hints else "")
        denominators = set().union(*(self.denominators(k) for k in nonzero)) \
            if 2 <= abs(ratio.numerator) <= 12 and ratio.denominator > 1 else set()
        return f"{self.part['name']} is {_ratio_text(ratio, denominators)}" + (
            f": {hints['factor']}" if "factor" in hints else "")

    def denominators(self, flat: int) -> set:
        """The denominators of the key element's terms' coefficients (found by the term search)."""
        if self.c.kind != "symbolic":
            return set()
        found = set()
        for entry in self.part["elements"][flat].get("monomials", []):
            for term in entry["terms"]:
                expr = _TermSearch.of(self.c).find(np.array(term, dtype=float))
                if expr is not None:
                    found.add(int(expr.as_coeff_Mul()[0].q))
        return found

    def _common_ratio(self, indices) -> Fraction | None:
        raw = self._common_value(indices)
        return None if raw is None else _small_fraction(raw)

    def _common_value(self, indices) -> float | None:
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
        s, r, scale = self.values[flat], self.refs[flat], self.scales[flat]
        zero = np.zeros_like(r)
        if np.any(np.isnan(s)):
            return f"{name} is not a real number at some sample points"
        if self.matches(r, zero):
            return f"{name} should be 0"
        if self.matches(s, zero):
            return f"{name} is 0, but it should not be"
        others = [k for k in range(len(self.refs)) if k != flat and
                  not self.matches(self.refs[k], zero) and self.matches(s, self.refs[k])]
        if others:
            return f"{name} has the value that belongs to {self.name(others[0])}"
        raw = self._common_value([flat])
        ratio = None if raw is None else _small_fraction(raw)
        hints = {k: _unseal(v) for k, v in self.part.get("hints", {}).items()}
        if ratio == -1:
            return f"{name} has the wrong sign" + (f": {hints['sign']}" if "sign" in hints else "")
        if ratio is not None:
            return f"{name} is {_ratio_text(ratio, self.denominators(flat))}"
        degrees = None if raw is None else _degrees_text(raw)
        if degrees:
            return f"{name} is {degrees}"
        if self.c.kind != "symbolic":
            if self.all_wrong_within(0.01):
                return (f"{name} is close but not equal (within 1 %): a rounded constant, "
                        f"e.g. g = 9.81 instead of 9.8062, or too few digits?")
            return f"{name} is wrong"
        return self.terms(flat, name)

    def terms(self, flat: int, name: str) -> str:
        """Monomial by monomial (joint velocities and accelerations), then term by term."""
        reference = self.part["elements"][flat]["monomials"]
        mine = _monomials(self.answer[flat], self.c.split)
        if mine is None:
            return (f"{name} should be a polynomial in the joint velocities and accelerations "
                    f"({', '.join(map(str, self.c.split))})")
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
            where = "" if monomial == "1" and len(ours) == 1 and len(mine) <= 1 else \
                _monomial_text(monomial)
            if ref_values is None:
                notes.append(f"{name} has a {where} that does not belong there" if where else
                             f"{name} has terms that do not belong there")
                continue
            if my_values is None:
                terms = ours[monomial]["terms"]
                named = self.name_term(np.array(terms[0]), monomial) if len(terms) == 1 else None
                notes.append(f"{name} is missing the {named} term" if named else
                             f"{name} is missing its {where}" if where else
                             f"{name} is missing terms")
                continue
            notes.append(self.coefficient(name, monomial, where, expr, my_values,
                                          ref_values, ours[monomial], size))
        return "; ".join(notes) if notes else f"{name} is wrong"

    def coefficient(self, name, monomial, where, expr, mine, ref, stored, size) -> str:
        """What is wrong in one monomial's coefficient: a missing, extra, mis-scaled term."""
        in_what = f" (in its {where})" if where else ""
        difference = mine - ref
        terms = [np.array(t, dtype=float) for t in stored["terms"]]
        for t in terms:                                   # a reference term, scaled wrongly
            with np.errstate(all="ignore"):
                lam = difference / t
            if np.all(np.isfinite(lam)) and np.ptp(lam) <= 1e-7 * max(1.0, abs(lam[0])):
                fraction = _fraction(float(lam[0]))
                named = self.name_term(t, monomial)
                label = f"the {named} term" if named else "a term"
                if fraction == -1:
                    return f"{name} is missing {label}{in_what if not named else ''}"
                if fraction == -2:
                    return f"{name}: {label} has the wrong sign{in_what if not named else ''}"
                if fraction is not None:
                    found = _TermSearch.of(self.c).find(t)
                    denominators = {int(found.as_coeff_Mul()[0].q)} if found is not None \
                        else set()
                    return (f"{name}: {label} is {_ratio_text(fraction + 1, denominators)}"
                            f"{in_what if not named else ''}")
        student_terms = sympy.Add.make_args(sympy.expand(expr))
        if len(student_terms) > 1 or terms:
            values = self.c.values(list(student_terms))
            for term, v in zip(student_terms, values):
                if np.all(self.c.close(difference, v, size)):
                    shown = term * _monomial_symbol(monomial)
                    return f"{name} has an extra term {shown}"
                with np.errstate(all="ignore"):
                    mu = difference / v
                if np.all(np.isfinite(mu)) and np.ptp(mu) <= 1e-7 * max(1.0, abs(mu[0])):
                    shown = term * _monomial_symbol(monomial)
                    return f"{name}: the coefficient of the {shown} term is wrong"
        for a, b in itertools.combinations(range(len(terms)), 2):
            if np.all(self.c.close(difference, -(terms[a] + terms[b]), size)):
                first, second = (self.name_term(terms[a], monomial),
                                 self.name_term(terms[b], monomial))
                if first and second:
                    return f"{name} is missing the {first} and {second} terms"
                return f"{name} is missing two terms{in_what}"
        return f"{name} is wrong{in_what} (it differs from the key in more than one term)"

    def name_term(self, values: np.ndarray, monomial: str) -> str | None:
        expr = _TermSearch.of(self.c).find(values)
        if expr is None:
            return None
        return str(expr * _monomial_symbol(monomial))


def _default_names(name: str, shape: tuple) -> str:
    if len(shape) == 1:
        return name + "{i}" if shape[0] <= 9 else name + "[{i}]"
    if len(shape) == 2:
        return name + "{i}{j}" if max(shape) <= 9 else name + "[{i},{j}]"
    if len(shape) == 3:
        return name + "{k}[{i},{j}]"
    return name


def _monomial_symbol(monomial: str):
    return sympy.Integer(1) if monomial == "1" else sympy.sympify(monomial)


def _monomials(expr, split: Sequence) -> dict | None:
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


class _TermSearch:
    """Names a term from its values at the sample points: a search over ``c * P * T`` with ``P``
    a monomial in the question's parameters and ``T`` a product of sines and cosines of its
    angles (and of sums of consecutive joint angles), ``c`` a small rational."""

    _cache: dict = {}
    MAX_DEGREE = 4
    MAX_TRIG = 4

    @classmethod
    def of(cls, context: _Context) -> "_TermSearch":
        key = context.key["id"]
        if key not in cls._cache:
            cls._cache[key] = cls(context)
        return cls._cache[key]

    def __init__(self, context: _Context):
        key = context.key
        split = set(key.get("split", []))
        angles = [a for a in key.get("angles", []) if a in context.by_name]
        parameters = [n for n in context.names if n not in split and n not in angles]
        denominators = set(key.get("denominators", []))
        columns = {n: context.samples[:, i] for i, n in enumerate(context.names)}
        # parameter monomials of total degree <= MAX_DEGREE (each exponent <= 3), times at most
        # one allowed denominator: built degree by degree, so a question with a dozen
        # parameters (002 Exercise 6-4-1) costs a few thousand columns, not 4**12
        self.factors, values = [], []
        inverses = [(0, None)] + [(1, p) for p in parameters if p in denominators]
        for degree in range(self.MAX_DEGREE + 1):
            for combination in itertools.combinations_with_replacement(parameters, degree):
                if any(combination.count(p) > 3 for p in set(combination)):
                    continue
                for cost, inverse in inverses:
                    if degree + cost > self.MAX_DEGREE or inverse in combination:
                        continue
                    value = np.ones(len(context.samples))
                    for p in combination:
                        value = value * columns[p]
                    if inverse is not None:
                        value = value / columns[inverse]
                    self.factors.append((degree + cost, combination, inverse))
                    values.append(value)
        parameter_values = np.array(values)
        # trigonometric factors of the angles and of sums of consecutive joint angles
        arguments = [(context.by_name[a], columns[a]) for a in angles]
        joints = sorted((a for a in angles if re.fullmatch(r"q\d+", a)), key=lambda a: int(a[1:]))
        for i in range(len(joints)):
            for j in range(i + 1, len(joints)):
                names = joints[i:j + 1]
                arguments.append((sum(context.by_name[n] for n in names),
                                  sum(columns[n] for n in names)))
        atoms = [(sympy.sin(e), np.sin(v)) for e, v in arguments] + \
                [(sympy.cos(e), np.cos(v)) for e, v in arguments]
        self.by_name, self.atoms = context.by_name, [a for a, _ in atoms]
        self.trig, trig_values = [(0, ())], [np.ones(len(context.samples))]
        for degree in range(1, (self.MAX_TRIG if atoms else 0) + 1):
            for combination in itertools.combinations_with_replacement(range(len(atoms)),
                                                                       degree):
                value = np.ones(len(context.samples))
                for a in combination:
                    value = value * atoms[a][1]
                self.trig.append((degree, combination))
                trig_values.append(value)
        self.values = parameter_values[:, None, :] * np.array(trig_values)[None, :, :]

    def find(self, target: np.ndarray):
        """The simplest ``c * P * T`` equal to ``target`` at every sample point, or None."""
        with np.errstate(all="ignore"):
            ratios = target[None, None, :] / self.values
        first = ratios[..., 0]
        spread = np.max(np.abs(ratios - first[..., None]), axis=-1)
        good = np.isfinite(spread) & (spread <= 1e-8 * np.maximum(1.0, np.abs(first)))
        best = None
        for p, t in zip(*np.nonzero(good)):
            fraction = _fraction(float(first[p, t]), 10000)
            if fraction is None:
                continue
            cost = self.factors[p][0] + self.trig[t][0]
            if best is None or cost < best[0]:
                best = (cost, fraction, p, t)
        if best is None:
            return None
        _, fraction, p, t = best
        _, combination, inverse = self.factors[p]
        expr = sympy.Rational(fraction.numerator, fraction.denominator)
        for name in combination:
            expr *= self.by_name[name]
        if inverse is not None:
            expr /= self.by_name[inverse]
        for a in self.trig[t][1]:
            expr *= self.atoms[a]
        return expr


# -- building keys (used by tools/make_answer_keys.py) --------------------------------------------
def _round(value: float) -> float:
    return float(f"{value:.12g}")


def _sample_points(symbols: dict, seed: int, ranges: dict, count: int = SAMPLES) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rows = []
    while len(rows) < count:
        row = []
        for name, role in symbols.items():
            low, high = ranges.get(name, _default_range(name, role))
            while True:
                x = rng.uniform(low, high)
                if _well_placed(name, x):
                    break
            row.append(_round(x))
        rows.append(row)
    return np.array(rows)


def _default_range(name: str, role: str) -> tuple:
    if re.fullmatch(r"q\d+", name):
        return (-3.0, 3.0)
    if re.fullmatch(r"qdd?\d+", name):
        return (-2.0, 2.0)
    if role == "positive":
        return (0.5, 2.0)
    return (-2.0, 2.0)


def _well_placed(name: str, x: float) -> bool:
    """Keep sample points away from the special values where terms vanish or coincide."""
    if abs(x) < 0.15:
        return False
    if re.fullmatch(r"q\d+|alpha|theta|phi", name):
        return min(abs(math.sin(x)), abs(math.cos(x))) > 0.15
    return True


def make_key(question: str, *, notebook: str, title: str, points: float, parts: Sequence,
             symbols: dict | None = None, angles: Sequence = (), split: Sequence = (),
             kind: str = "symbolic", mistakes: Sequence = (), products: Sequence = (),
             ranges: dict | None = None, samples: Sequence | None = None,
             denominators: Sequence = (), tolerance: float | None = None) -> dict:
    """The key of one question from its reference answer (never stored) and its typical
    mistakes.

    ``parts`` is a list of dicts ``{"name", "value", ...}`` (``value`` a SymPy Matrix, list or
    expression, or numbers for ``kind="numeric"``; optional ``names`` template like
    ``"D{i}{j}"``, ``structure`` ``"symmetric"``/``"skew"``, ``hints`` for ``"sign"``/
    ``"factor"``).  ``symbols`` maps each allowed symbol name to ``"positive"`` or ``"real"``
    (its sample range follows from the name and role, or ``ranges``); ``angles`` are the names
    whose sines and cosines may appear, ``split`` the joint velocities and accelerations by
    whose monomials answers are compared.  ``mistakes`` are dicts ``{"part", "value",
    "message"}``: a wrong answer whose values identify the mistake.  ``products`` are dicts
    ``{"part", "vector", "message"}``: a matrix part whose product with the vector of symbols
    matches the reference's product but which is not the reference (e.g. a Coriolis matrix
    ``C`` with the right ``C qd``).
    """
    symbols = dict(symbols or {})
    seed = int.from_bytes(hashlib.sha256(question.encode()).digest()[:8], "little")
    if kind == "numeric":
        points_array = np.zeros((1, 0))
    elif samples is not None:
        points_array = np.array([[_round(x) for x in row] for row in samples], dtype=float)
    else:
        points_array = _sample_points(symbols, seed, ranges or {})
    by_name = {name: _key_symbol(name, role) for name, role in symbols.items()}
    order = list(symbols)
    split_symbols = [by_name[s] for s in split]

    def evaluate(exprs):
        exprs = [sympy.sympify(e) for e in exprs]
        if kind == "numeric":
            return np.array([[float(e)] for e in exprs])
        result = np.empty((len(exprs), len(points_array)))
        function = sympy.lambdify([by_name[n] for n in order], exprs, modules="numpy")
        outputs = function(*points_array.T)
        for i, output in enumerate(outputs):
            result[i] = np.broadcast_to(np.asarray(output, dtype=float), (len(points_array),))
        return result

    def flat(value, shape_hint=None):
        nested = _nested(value)
        shape = _shape(nested, "reference")
        leaves = [sympy.sympify(leaf) for leaf in _flatten(nested)]
        if shape_hint is not None:
            shape = tuple(shape_hint)
        return shape, leaves

    def check_symbols(leaves, where):
        for leaf in leaves:
            unknown = {str(s) for s in leaf.free_symbols} - set(symbols)
            if unknown:
                raise ValueError(f"{question} {where}: symbols {sorted(unknown)} are not among "
                                 f"the question's symbols {sorted(symbols)}")

    key_parts, shapes = [], {}
    for part in parts:
        shape, leaves = flat(part["value"], part.get("shape"))
        if len(shape) == 2 and shape[1] == 1 and part.get("vector", True):
            shape = (shape[0],)
        shapes[part["name"]] = shape
        check_symbols(leaves, part["name"])
        leaves = [leaf.xreplace({s: by_name[str(s)] for s in leaf.free_symbols})
                  for leaf in leaves]
        if kind == "symbolic":          # book form: its terms are the ones feedback names
            leaves = [compact(leaf) if canonical_form(leaf) is not None else leaf
                      for leaf in leaves]
        values = evaluate(leaves)
        elements = []
        for index, (leaf, value) in enumerate(zip(leaves, values)):
            element = {"values": [_round(v) for v in value]}
            if kind == "symbolic":
                monomials = _monomials(leaf, split_symbols)
                entries, scale = [], np.zeros(len(points_array))
                for monomial, coefficient in sorted(monomials.items()):
                    terms = sympy.Add.make_args(sympy.expand(coefficient))
                    term_values = evaluate(list(terms))
                    mono_values = evaluate([_monomial_symbol(monomial)])[0]
                    coefficient_scale = np.sum(np.abs(term_values), axis=0)
                    scale = scale + coefficient_scale * np.abs(mono_values)
                    entries.append({"monomial": monomial,
                                    "values": [_round(v) for v in evaluate([coefficient])[0]],
                                    "scale": [_round(v) for v in coefficient_scale],
                                    "terms": [[_round(v) for v in t] for t in term_values]})
                element["monomials"] = entries
                element["scale"] = [_round(v) for v in scale]
                form = canonical_form(leaf)
                element["hash"] = None if form is None else _hash(
                    question, f"{part['name']}{index}", form)
            elements.append(element)
        entry = {"name": part["name"], "shape": list(shape), "elements": elements}
        for option in ("names", "structure"):
            if option in part:
                entry[option] = part[option]
        if "hints" in part:
            entry["hints"] = {k: _seal(v) for k, v in part["hints"].items()}
        key_parts.append(entry)
    key_mistakes = []
    for mistake in mistakes:
        shape, leaves = flat(mistake["value"])
        check_symbols(leaves, f"mistake {mistake['message']!r}")
        leaves = [leaf.xreplace({s: by_name[str(s)] for s in leaf.free_symbols})
                  for leaf in leaves]
        key_mistakes.append({"part": mistake["part"],
                             "values": [[_round(v) for v in row] for row in evaluate(leaves)],
                             "message": _seal(mistake["message"])})
    key_products = []
    for product in products:
        part = next(p for p in parts if p["name"] == product["part"])
        matrix = sympy.Matrix(part["value"])
        vector = sympy.Matrix([by_name[v] for v in product["vector"]])
        matrix = matrix.xreplace({s: by_name[str(s)] for s in matrix.free_symbols})
        key_products.append({"part": product["part"], "vector": list(product["vector"]),
                             "values": [[_round(v) for v in row]
                                        for row in evaluate(list(matrix * vector))],
                             "message": _seal(product["message"])})
    key = {"id": question, "notebook": notebook, "title": title, "points": points,
           "kind": kind, "symbols": [[name, symbols[name]] for name in order],
           "angles": [a for a in angles], "split": [s for s in split],
           "samples": points_array.tolist(), "parts": key_parts}
    if denominators:
        key["denominators"] = list(denominators)
    if tolerance is not None:
        key["tolerance"] = tolerance
    if key_mistakes:
        key["mistakes"] = key_mistakes
    if key_products:
        key["products"] = key_products
    return key


def make_choice_key(question: str, *, notebook: str, title: str, points: float,
                    options: Sequence, answer: str, messages: dict) -> dict:
    """The key of a multiple-choice question (the right letter only as a salted hash)."""
    if answer not in options:
        raise ValueError(f"{question}: the answer {answer!r} is not among {list(options)}")
    return {"id": question, "notebook": notebook, "title": title, "points": points,
            "kind": "choice", "options": list(options),
            "answer": _hash(question, "choice", answer),
            "messages": {k: _seal(v) for k, v in messages.items() if k != answer}}


def write_keys(notebook: str, keys_of_notebook: Sequence, directory: Path = KEY_DIRECTORY) -> Path:
    """Write one notebook's keys as ``<directory>/<notebook>.json`` (stable text)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{notebook}.json"
    text = json.dumps({"notebook": notebook, "questions": list(keys_of_notebook)}, indent=1,
                      sort_keys=False, ensure_ascii=False)
    path.write_text(text + "\n")
    return path


def _reload() -> None:
    """Forget loaded keys and this session's results (tests, and after rebuilding the keys)."""
    global _KEYS
    _KEYS = None
    _RESULTS.clear()
    _TermSearch._cache.clear()
