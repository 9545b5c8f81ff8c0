"""Reading the answer keys (``dynlab/answer_keys/<notebook>.json``, written by
:mod:`dynlab.grading.authoring`): which keys are in use, a question's reference, and the points
the checker draws afresh at every check.

Each part's reference is sealed per question and part (:mod:`dynlab.grading.sealing`); a key
holds no values at fixed points and no option texts in the clear.  A question with givens has
the instructor's key (formulas in the givens, kept outside the package) and the shipped one at
the practice values (:func:`dynlab.grading.variants.at_practice`).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import sympy

from dynlab.grading.sealing import unseal
from dynlab.model.symbolic import reduce_sine_powers, trig_polynomial

#: Points drawn at every check: a Latin hypercube over the typical ranges ...
TYPICAL_POINTS = 16
#: ... and points over wide ranges (magnitudes 1e-2 to 1e3, angles to +-20 rad).
WIDE_POINTS = 8
#: Relative tolerance of a symbolic answer's values (relative to the size of its terms).
TOLERANCE = 1e-9
#: Relative tolerance of a numeric answer (relative to the largest entry of the part).
NUMERIC_TOLERANCE = 1e-5
#: Version of the key format (a key of another version is refused with a message).
KEY_FORMAT = 2

KEY_DIRECTORY = Path(__file__).resolve().parent.parent / "answer_keys"


class NotAnswered(Exception):
    pass


class Unusable(Exception):
    """The answer cannot be graded as given; the message says why (shown to the student)."""


class OutOfTime(BaseException):
    # BaseException: SymPy's internals catch Exception, and must not swallow the time limit
    pass


class ExactOutOfTime(OutOfTime):
    """The exact check's own, shorter limit (never stops the grade)."""


# -- loading --------------------------------------------------------------------------------------
#: What a key file says it is for: ``"formative"`` (shipped with dynlab: every student has it,
#: for ``check()``) or ``"summative"`` (the instructor's, for marks, kept outside the package).
FORMATIVE, SUMMATIVE = "formative", "summative"
#: The file of the instructor's key folder holding the course secret (the graded variants).
SECRET_FILE = "course_secret"

_KEYS: dict | None = None
#: The instructor's key folder (summative keys, kept outside the wheel), or None.
_INSTRUCTOR: Path | None = None
_INSTRUCTOR_QUESTIONS: frozenset = frozenset()
_SECRET: str | None = None


class NotInstructorKeys(ValueError):
    """A folder named as the instructor's keys that is not (the message says why)."""


def use_keys(directory) -> None:
    """Grade from the instructor's keys in ``directory`` (``tools/make_answer_keys.py --out``:
    summative key files and :data:`SECRET_FILE`); None: the shipped keys only (formative).
    Its keys replace the shipped ones; a question it lacks scores 0 for marks."""
    global _KEYS, _INSTRUCTOR, _INSTRUCTOR_QUESTIONS, _SECRET
    if directory is None:
        _INSTRUCTOR, _INSTRUCTOR_QUESTIONS, _SECRET, _KEYS = None, frozenset(), None, None
        _REFERENCES.clear()
        return
    directory = Path(directory)
    if not directory.is_dir() or not any(directory.glob("*.json")):
        raise FileNotFoundError(f"no answer keys (*.json) in {directory}")
    if directory.resolve() == KEY_DIRECTORY.resolve():
        raise NotInstructorKeys(f"{directory} holds the keys shipped with dynlab (every student "
                                f"has them): name the folder tools/make_answer_keys.py --out "
                                f"wrote")
    found = set()
    for path in sorted(directory.glob("*.json")):
        data = json.loads(path.read_text())
        if data.get("route", FORMATIVE) != SUMMATIVE:
            raise NotInstructorKeys(f"{path}: a formative key, as shipped with dynlab (every "
                                    f"student has it); build the instructor's keys with "
                                    f"tools/make_answer_keys.py --out {directory}")
        found |= {key["id"] for key in data.get("questions", [])}
    secret_path = directory / SECRET_FILE
    secret = secret_path.read_text().strip() if secret_path.is_file() else ""
    if not secret:
        raise NotInstructorKeys(f"{secret_path}: the course secret is missing or empty "
                                f"(tools/make_answer_keys.py --out {directory} writes one)")
    _INSTRUCTOR, _INSTRUCTOR_QUESTIONS, _SECRET, _KEYS = directory, frozenset(found), secret, None
    _REFERENCES.clear()             # (the references of the keys read before)


def instructor_directory() -> Path | None:
    """The instructor's key folder in use (:func:`use_keys`), or None."""
    return _INSTRUCTOR


def summative() -> bool:
    """Whether the instructor's keys are in use (:func:`use_keys`): grades are marks."""
    return _INSTRUCTOR is not None


def instructor_key(question: str) -> bool:
    """Whether the instructor's folder holds a key of ``question``."""
    return question in _INSTRUCTOR_QUESTIONS


_SHIPPED: dict = {}             # the keys shipped with dynlab by question, read once


def shipped_key(question: str) -> dict | None:
    """The key of ``question`` shipped with dynlab, or None."""
    if not _SHIPPED:
        _SHIPPED.update({key["id"]: key for path in sorted(KEY_DIRECTORY.glob("*.json"))
                         for key in json.loads(path.read_text())["questions"]})
    return _SHIPPED.get(question)


def held_by_every_student(question: str) -> bool:
    """Whether marks for ``question`` come from a key every student holds: no givens and the
    shipped reference.

    >>> held_by_every_student("D.1")             # its givens differ from student to student
    False
    """
    key, shipped = keys()[question], shipped_key(question)
    if key.get("parameters") or shipped is None:
        return False
    return ([part["reference"] for part in key.get("parts", [])]
            == [part["reference"] for part in shipped.get("parts", [])]
            and key.get("answer") == shipped.get("answer"))


def course_secret() -> str | None:
    """The course secret of the instructor's key folder (None: no folder in use)."""
    return _SECRET


def keys() -> dict:
    """Every question's key (loaded once from ``dynlab/answer_keys/*.json``, then from the
    instructor's folder of :func:`use_keys`), by question id."""
    global _KEYS
    if _KEYS is None:
        loaded = {}
        folders = [KEY_DIRECTORY] + ([_INSTRUCTOR] if _INSTRUCTOR is not None else [])
        for path in [p for folder in folders for p in sorted(folder.glob("*.json"))]:
            data = json.loads(path.read_text())
            if data.get("format") != KEY_FORMAT:
                raise ValueError(f"{path.name}: answer key format {data.get('format')!r}, this "
                                 f"dynlab reads format {KEY_FORMAT}: rebuild the keys with "
                                 f"tools/make_answer_keys.py")
            for key in data["questions"]:
                loaded[key["id"]] = key
        _KEYS = loaded
    return _KEYS


def questions(notebook: str | None = None) -> list:
    """The question ids (of one notebook, or all), in the order of the keys.

    >>> questions("03_probing_and_other_arms")
    ['3.11', '3.12', '3.18', '6-4-1']
    """
    return [q for q, key in keys().items() if notebook is None or key["notebook"] == notebook]


def part_points(key: dict) -> dict:
    """Each part's points: the question's points shared equally among its parts.

    >>> part_points(keys()["3.16c"])
    {'D': 1.0, 'h': 1.0, 'c': 1.0}
    """
    if key["kind"] == "choice":
        return {"": float(key["points"])}
    share = float(key["points"]) / len(key["parts"])
    return {part["name"]: share for part in key["parts"]}


_REFERENCES: dict = {}


def reference(key: dict) -> dict:
    """``{part: [SymPy expressions or floats]}``: the unsealed reference of a question, and
    ``{("mistake", i): [...]}`` for its typical mistakes (cached)."""
    question = key["id"]
    cached = _REFERENCES.get(question)
    if cached is None or cached[0] is not key:           # (another key of the same id: anew)
        # srepr keeps assumptions; a numeric key in its givens holds expressions in them
        read = float if key["kind"] == "numeric" and not in_givens(key) else sympy.sympify
        sealed = {part["name"]: (part["reference"], f"{question}|{part['name']}")
                  for part in key["parts"]}
        sealed.update({("mistake", index): (mistake["value"], f"{question}|mistake{index}")
                       for index, mistake in enumerate(key.get("mistakes", []))})
        result = {name: [read(text) for text in json.loads(unseal(*where))]
                  for name, where in sealed.items()}
        _REFERENCES[question] = cached = (key, result)
    return cached[1]


def in_givens(key: dict) -> bool:
    """Whether ``key``'s references are formulas in its givens (an instructor's key)."""
    return bool(key.get("parameters")) and "practice" not in key


def answers_at(key: dict, given: dict | None) -> bool:
    """Whether ``key`` can grade at ``given``: a shipped key only at its practice values.

    >>> answers_at({"parameters": {"m": {}}, "practice": {"m": 2.0}}, {"m": 2.5})
    False
    """
    return "practice" not in key or given == key["practice"]


def given_values(key: dict, given: dict | None) -> tuple:
    """``((name, value), ...)`` of ``given``, checked against ``key``."""
    parameters = key.get("parameters") or {}
    if not isinstance(given, dict) or set(given) != set(parameters):
        raise ValueError(f"given: {key['id']} needs the values of {sorted(parameters)}")
    if not answers_at(key, given):
        raise ValueError(f"given: the key of {key['id']} shipped with dynlab answers its "
                         f"practice values only; other values are graded with the "
                         f"instructor's keys")
    values = []
    for name in sorted(parameters):
        value = given[name]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                not math.isfinite(value):
            raise ValueError(f"given: the value of {name} must be a finite number, got "
                             f"{value!r}")
        values.append((name, float(value)))
    return tuple(values)


def at_given(key: dict, exprs: list, given: dict | None) -> list:
    """A key's expressions at the student's ``given``: numbers for a numeric key; for a symbolic
    one, expressions with each value put in as the exact decimal it is written as (0.7 as 7/10).

    >>> zeta, Kp = sympy.symbols("zeta Kp", positive=True)
    >>> key = {"id": "demo", "kind": "symbolic", "parameters": {"zeta": {}}}
    >>> at_given(key, [2 * zeta * sympy.sqrt(Kp)], {"zeta": 0.7})
    [7*sqrt(Kp)/5]
    """
    if not key.get("parameters"):
        return list(exprs)
    values = dict(given_values(key, given))
    result = []
    for expr in exprs:
        expr = sympy.sympify(expr)
        if key["kind"] == "numeric":
            at = {s: sympy.Float(values[s.name], 30) for s in expr.free_symbols}
            result.append(float(expr.xreplace(at).evalf(30)))
        else:
            at = {s: sympy.Rational(repr(values[s.name])) for s in expr.free_symbols
                  if s.name in values}
            result.append(expr.xreplace(at))
    return result


def parameter_symbol(name: str, spec: dict | None = None):
    """The symbol of a given in a key's expressions: positive when its grid ``spec`` is.

    >>> parameter_symbol("zeta", {"low": 0.6, "high": 0.9, "step": 0.1}).is_positive
    True
    """
    return key_symbol(name, "positive" if spec and float(spec.get("low", 0)) > 0 else "real")


def key_symbol(name: str, role: str):
    """A key's symbol of role ``"positive"``, ``"real"`` or ``""``."""
    return sympy.Symbol(name, **({role: True} if role in ("positive", "real") else {}))


# -- fresh points ---------------------------------------------------------------------------------
def fresh_points(key: dict, rng: np.random.Generator | None = None) -> np.ndarray:
    """Points (rows) for the key's symbols (columns), drawn anew (``rng`` default: seeded from
    the OS): a Latin hypercube of :data:`TYPICAL_POINTS` over each typical range, one point per
    stratum and away from where terms vanish, and :data:`WIDE_POINTS` over wide ranges.

    >>> points = fresh_points(keys()["3.5"])
    >>> points.shape, bool((points > 0).all())
    ((24, 2), True)
    """
    rng = np.random.default_rng() if rng is None else rng
    symbols = key.get("symbols", [])
    typical = np.empty((TYPICAL_POINTS, len(symbols)))
    wide = np.empty((WIDE_POINTS, len(symbols)))
    for column, (name, role) in enumerate(symbols):
        low, high = key.get("ranges", {}).get(name, _default_range(name, role))
        order = rng.permutation(TYPICAL_POINTS)
        typical[:, column] = [_stratum_value(name, low, high, stratum, rng) for stratum in order]
        wide[:, column] = [_wide_value(name, role, rng) for _ in range(WIDE_POINTS)]
    return np.vstack([typical, wide])


#: Draws inside one stratum before its well-placed part is searched for directly.
_STRATUM_TRIES = 64


def _stratum_value(name: str, low: float, high: float, stratum: int, rng) -> float:
    """A :func:`_well_placed` value in the middle 90 % of stratum ``stratum`` of ``(low, high)``
    (ValueError when the stratum has none: the key's range is wrong)."""
    width = (high - low) / TYPICAL_POINTS
    start, stop = low + width * (stratum + 0.05), low + width * (stratum + 0.95)
    for _ in range(_STRATUM_TRIES):
        x = rng.uniform(start, stop)
        if _well_placed(name, x):
            return x
    # draw among the well-placed inner points of a grid (its computed ends can fall outside)
    grid = np.linspace(start, stop, 4097)[1:-1]
    good = grid[[_well_placed(name, x) for x in grid]]
    if not good.size:
        raise ValueError(f"the range ({low}, {high}) of {name} has a stratum "
                         f"({start:.4g}, {stop:.4g}) where every value is close to one where "
                         f"terms vanish: widen or move the range in the key")
    return float(rng.choice(good))


def _wide_value(name: str, role: str, rng) -> float:
    while True:
        if _ANGLE.fullmatch(name):
            x = rng.uniform(-20.0, 20.0)
        else:
            x = 10 ** rng.uniform(-2.0, 3.0)
            if role != "positive" and rng.random() < 0.5:
                x = -x
        if _well_placed(name, x):
            return x


_ANGLE = re.compile(r"q\d+|alpha|theta|phi")


def _default_range(name: str, role: str) -> tuple:
    if re.fullmatch(r"q\d+", name):
        return (-math.pi, math.pi)
    if re.fullmatch(r"qdd?\d+", name):
        return (-2.0, 2.0)
    if role == "positive":
        return (0.5, 2.0)
    return (-2.0, 2.0)


def _well_placed(name: str, x: float) -> bool:
    """Whether ``x`` is away from the values where terms vanish (for the feedback)."""
    if abs(x) < 0.15:
        return False
    if _ANGLE.fullmatch(name):
        return min(abs(math.sin(x)), abs(math.cos(x))) > 0.15
    return True


# -- reading nested answers -----------------------------------------------------------------------
def nested_values(value: Any):
    """Lists (of lists) of leaves from Matrices, arrays, lists and tuples."""
    if isinstance(value, sympy.MatrixBase):
        return [[value[r, c] for c in range(value.cols)] for r in range(value.rows)]
    if isinstance(value, sympy.NDimArray):
        return nested_values(value.tolist())
    if isinstance(value, np.matrix):          # iterating a matrix row gives a matrix again
        value = np.asarray(value)
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return value.item()
        return [nested_values(item) for item in value]
    if isinstance(value, (list, tuple)):
        return [nested_values(item) for item in value]
    return value


def shape_of(nested, name: str) -> tuple:
    if not isinstance(nested, list):
        return ()
    if not nested:
        raise Unusable(f"{name}: the answer is empty")
    shapes = {shape_of(item, name) for item in nested}
    if len(shapes) != 1:
        raise Unusable(f"{name}: the rows have different lengths")
    return (len(nested),) + shapes.pop()


def flatten(nested):
    if isinstance(nested, list):
        for item in nested:
            yield from flatten(item)
    else:
        yield nested


# -- the exact check ------------------------------------------------------------------------------
def canonical_form(expr) -> str | None:
    """A canonical text of a trigonometric polynomial (possibly over a polynomial in the
    parameters), equal iff the expressions are: the normal form behind
    :func:`dynlab.model.symbolic.is_zero` (``s_x``, ``c_x`` reduced modulo ``s_x^2 + c_x^2 -
    1``).  None for another kind of expression (a root, an absolute value, a float).

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


#: A key's sealed notes: the hint (:func:`dynlab.grading.hint`) and the takeaway shown once right.
NOTES = ("hint", "takeaway")


def note(key: dict, name: str) -> str | None:
    """The unsealed note ``name`` (``"hint"`` or ``"takeaway"``) of a key, or None."""
    sealed = key.get(name)
    return None if sealed is None else unseal(sealed, f"{key['id']}|{name}")
