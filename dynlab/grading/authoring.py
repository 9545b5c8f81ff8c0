"""Writing the answer keys (``tools/make_answer_keys.py``): a question's key from its reference and
typical mistakes, sealed (:mod:`dynlab.grading.sealing`), its notes, a notebook's key file, the
course secret.  Reading them: :mod:`dynlab.grading.keys`.
"""

from __future__ import annotations

import itertools
import json
import math
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import sympy

from dynlab.grading.keys import (
    FORMATIVE,
    KEY_DIRECTORY,
    KEY_FORMAT,
    NOTES,
    NUMERIC_TOLERANCE,
    SECRET_FILE,
    SUMMATIVE,
    canonical_form,
    flatten,
    in_givens,
    key_symbol,
    nested_values,
    parameter_symbol,
    shape_of,
)
from dynlab.grading.sealing import salted_hash, seal
from dynlab.grading.variants import grid_values
from dynlab.model.symbolic import compact


def make_key(question: str, *, notebook: str, title: str, points: float, parts: Sequence,
             symbols: dict | None = None, angles: Sequence = (), split: Sequence = (),
             kind: str = "symbolic", mistakes: Sequence = (), products: Sequence = (),
             ranges: dict | None = None, tolerance: float | None = None,
             parameters: dict | None = None, shared: str | None = None) -> dict:
    """The key of one question from its reference answer (stored sealed) and its typical
    mistakes.

    ``parts``: dicts ``{"name", "value"}`` (the name the check passes), optionally
    ``structure`` (``"symmetric"``/``"skew"``) and ``hints`` (``"sign"``/``"factor"``).
    ``symbols``: name -> ``"positive"``/``"real"`` (typical ranges by name, or ``ranges``);
    ``split``: the joint rates whose monomials are compared.  ``mistakes``: dicts ``{"part",
    "value", "message"}``; ``products``: ``{"part", "vector", "message"}`` for a matrix with the
    right product but wrong itself (a Coriolis ``C`` with the right ``C qd``).  ``parameters``:
    the givens ``{name: {"low", "high", "step", "unit", "text"}}`` the references are formulas
    in; ``shared``: the name of the set of givens shared with other questions.

    >>> from dynlab.grading.keys import reference
    >>> x = sympy.Symbol("x", positive=True)
    >>> key = make_key("demo", notebook="demo", title="demo", points=1, symbols={"x": "positive"},
    ...                parts=[{"name": "y", "value": x**2}])
    >>> "x**2" in json.dumps(key), reference(key)["y"]
    (False, [x**2])
    """
    symbols = dict(symbols or {})
    by_name = {name: key_symbol(name, role) for name, role in symbols.items()}
    if shared is not None and not parameters:
        raise ValueError(f"{question}: shared names the givens a question shares; give its "
                         f"parameters")
    if parameters:
        if kind not in ("numeric", "symbolic"):
            raise ValueError(f"{question}: parameters are for a numeric or symbolic question")
        both = sorted(set(parameters) & set(symbols))
        if both:
            raise ValueError(f"{question}: {both} are both symbols of the answer and givens "
                             f"(a given is a number in the student's answer)")
        by_name.update({name: parameter_symbol(name, spec) for name, spec in parameters.items()})

    def leaves_of(value, where):
        nested = nested_values(value)
        shape = shape_of(nested, "reference")
        leaves = [sympy.sympify(leaf) for leaf in flatten(nested)]
        if kind == "numeric" and parameters:
            names = {str(s) for leaf in leaves for s in leaf.free_symbols}
            if names - set(parameters):
                raise ValueError(f"{question} {where}: symbols {sorted(names - set(parameters))} "
                                 f"are not among the parameters {sorted(parameters)}")
            return shape, [sympy.srepr(leaf) for leaf in leaves]
        if kind == "numeric":
            numbers = [float(leaf) for leaf in leaves]
            if not all(math.isfinite(v) for v in numbers):
                raise ValueError(f"{question} {where}: the reference is not finite")
            return shape, [repr(v) for v in numbers]
        for leaf in leaves:
            unknown = {str(s) for s in leaf.free_symbols} - set(by_name)
            if unknown:
                raise ValueError(f"{question} {where}: symbols {sorted(unknown)} are not among "
                                 f"the question's symbols {sorted(by_name)}")
        leaves = [leaf.xreplace({s: by_name[str(s)] for s in leaf.free_symbols})
                  for leaf in leaves]
        # book form: its terms are the ones the feedback names
        leaves = [compact(leaf) if canonical_form(leaf) is not None else leaf for leaf in leaves]
        return shape, [sympy.srepr(leaf) for leaf in leaves]

    key_parts = []
    for part in parts:
        shape, texts = leaves_of(part["value"], part["name"])
        if "shape" in part:
            shape = tuple(part["shape"])
        if len(shape) == 2 and shape[1] == 1 and part.get("vector", True):
            shape = (shape[0],)
        entry = {"name": part["name"], "shape": list(shape),
                 "reference": seal(json.dumps(texts), f"{question}|{part['name']}")}
        if "names" in part:
            raise ValueError(f"{question} {part['name']}: entries are named as Python indexes "
                             f"the checked value, not by a template (drop 'names')")
        if "structure" in part:
            entry["structure"] = part["structure"]
        if "hints" in part:
            entry["hints"] = {k: seal(v, f"{question}|{part['name']}|hint|{k}")
                              for k, v in part["hints"].items()}
        key_parts.append(entry)
    key_mistakes = []
    for index, mistake in enumerate(mistakes):
        _, texts = leaves_of(mistake["value"], f"mistake {index}")
        key_mistakes.append({"part": mistake["part"],
                             "value": seal(json.dumps(texts), f"{question}|mistake{index}"),
                             "message": seal(mistake["message"],
                                              f"{question}|mistake{index}|message")})
    key_products = [{"part": product["part"], "vector": list(product["vector"]),
                     "message": seal(product["message"], f"{question}|product{index}")}
                    for index, product in enumerate(products)]
    key = {"id": question, "notebook": notebook, "title": title, "points": points,
           "kind": kind, "symbols": [[name, role] for name, role in symbols.items()],
           "angles": list(angles), "split": list(split), "parts": key_parts}
    if ranges:
        key["ranges"] = {name: list(bounds) for name, bounds in ranges.items()}
    if tolerance is not None:
        key["tolerance"] = tolerance
    if parameters:
        key["parameters"] = {name: dict(spec) for name, spec in parameters.items()}
    if shared is not None:
        key["shared"] = str(shared)
    if key_mistakes:
        key["mistakes"] = key_mistakes
    if key_products:
        key["products"] = key_products
    return key


def make_choice_key(question: str, *, notebook: str, title: str, points: float,
                    options: Sequence, answer: str, messages: dict,
                    parameters: dict | None = None) -> dict:
    """The key of a multiple choice: the right letter as a salted hash, a sealed message for
    every option.  ``parameters``: ``{"turn": grid}``, the options turned per student
    (:func:`dynlab.grading.variants.turned`); ``options`` etc. name them unturned.

    >>> key = make_choice_key("demo", notebook="demo", title="demo", points=1,
    ...                       options="AB", answer="B", messages={"A": "no", "B": "yes"},
    ...                       parameters={"turn": {"low": 0, "high": 1, "step": 1}})
    >>> key["parameters"]["turn"]["high"], "yes" in json.dumps(key)
    (1, False)
    """
    if answer not in options:
        raise ValueError(f"{question}: the answer {answer!r} is not among {list(options)}")
    missing = [option for option in options if option not in messages]
    if missing:
        raise ValueError(f"{question}: no message for the options {missing} (every option, "
                         f"the right one too, needs one)")
    key = {"id": question, "notebook": notebook, "title": title, "points": points,
           "kind": "choice", "options": list(options),
           "answer": salted_hash(question, "choice", answer),
           "messages": {k: seal(messages[k], f"{question}|option{k}") for k in options}}
    if parameters:
        if set(parameters) != {"turn"}:
            raise ValueError(f"{question}: the given of a multiple choice is its turn, "
                             f"{{'turn': ...}}; got {sorted(parameters)}")
        spec = parameters["turn"]
        low, high, step = (float(spec[name]) for name in ("low", "high", "step"))
        if not (step == 1 and low.is_integer() and 0 <= low < high <= len(options) - 1):
            raise ValueError(f"{question}: turn's grid must be whole numbers of places among "
                             f"0..{len(options) - 1} in steps of 1, got {low:g} to {high:g} "
                             f"in steps of {step:g}")
        key["parameters"] = {"turn": dict(spec)}
    return key


def seal_notes(key: dict, **notes: str | None) -> dict:
    """``key`` with its notes (``hint=``, ``takeaway=``; Markdown text) sealed in.

    >>> from dynlab.grading.keys import note
    >>> key = seal_notes({"id": "demo"}, takeaway="x is 1.")
    >>> "x is 1" in json.dumps(key), note(key, "takeaway"), note(key, "hint")
    (False, 'x is 1.', None)
    """
    for name, text in notes.items():
        if name not in NOTES:
            raise ValueError(f"{key['id']}: no note {name!r}; the notes are {', '.join(NOTES)}")
        if text:
            key[name] = seal(text.strip(), f"{key['id']}|{name}")
        else:
            key.pop(name, None)
    return key



def write_keys(notebook: str, keys_of_notebook: Sequence, directory: Path = KEY_DIRECTORY,
               route: str = FORMATIVE) -> Path:
    """Write one notebook's keys as ``<directory>/<notebook>.json`` marked ``route``:
    :data:`FORMATIVE` (shipped, at the practice values) or :data:`SUMMATIVE` (the instructor's,
    outside the package, owner-only)."""
    if route not in (FORMATIVE, SUMMATIVE):
        raise ValueError(f"route: {FORMATIVE!r} or {SUMMATIVE!r}, got {route!r}")
    directory = Path(directory)
    if route == SUMMATIVE and _inside(directory, KEY_DIRECTORY.parent):
        raise ValueError(f"directory: {directory} is inside the dynlab package, which every "
                         f"student installs; keep the instructor's keys outside it")
    if route == SUMMATIVE:
        wrong = [key["id"] for key in keys_of_notebook if "practice" in key]
        why = ("the shipped ones, at the practice values only; build the instructor's keys with "
               "tools/make_answer_keys.py")
    else:
        wrong = [key["id"] for key in keys_of_notebook if in_givens(key)]
        why = ("formulas in their givens, which every student would hold; seal them at the "
               "practice values (dynlab.grading.variants.at_practice)")
    if wrong:
        raise ValueError(f"{notebook}: the keys of {', '.join(wrong)} are {why}")
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{notebook}.json"
    text = json.dumps({"notebook": notebook, "format": KEY_FORMAT, "route": route,
                       "questions": list(keys_of_notebook)}, indent=1, sort_keys=False,
                      ensure_ascii=False)
    if route == SUMMATIVE:               # the instructor's: readable by the owner only
        directory.chmod(0o700)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(descriptor, 0o600)     # a key file already there keeps no wider mode
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    else:
        path.write_text(text + "\n")
    return path


def _inside(path: Path, folder: Path) -> bool:
    path, folder = Path(path).resolve(), Path(folder).resolve()
    return path == folder or folder in path.parents


def write_course_secret(directory) -> Path:
    """The course secret (:data:`SECRET_FILE`): kept if there, else 256 random bits, owner-only."""
    import secrets
    path = Path(directory) / SECRET_FILE
    if path.is_file() and path.read_text().strip():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(secrets.token_hex(32) + "\n")
    return path


#: How far each typical mistake must lie from the answer at every value of the givens' grids,
#: relative to the part's largest entry: ten times the grader's tolerance of a numeric answer
#: (:data:`~dynlab.grading.keys.NUMERIC_TOLERANCE`, the wider of its two), so that no student's
#: values make a typical mistake pass as right, whatever the round-off of the points.
APART = 10 * NUMERIC_TOLERANCE


def check_mistakes_apart(question: str, parameters: dict, evaluate, points=({},)) -> None:
    """Refuse a typical mistake of ``question`` that is right for some student: ``evaluate(values)``
    gives ``(right, mistakes)``, ``{part: entries}`` and ``[(part, entries, message)]``, at
    ``values``: every combination of the givens' grids (:func:`~dynlab.grading.variants.
    grid_values`) at once, an array each, merged with one of ``points`` (values of the question's
    other symbols, by name).  A mistake is told apart where it differs from its part by more than
    :data:`APART` of the part's largest entry at one of ``points``.

    >>> evaluate = lambda v: ({"x": [2 * v["k"]]}, [("x", [v["k"] + 2], "k + 2, not 2 k")])
    >>> check_mistakes_apart("demo", {"k": {"low": 1, "high": 3, "step": 1}}, evaluate)
    Traceback (most recent call last):
    ...
    ValueError: demo: the typical mistake 'k + 2, not 2 k' is right at the givens {'k': 2.0}
    """
    grids = list(itertools.product(*(grid_values(spec) for spec in parameters.values())))
    given = {name: np.array(column) for name, column in zip(parameters, zip(*grids))}
    apart: dict = {}
    for point in points:
        right, mistakes = evaluate({**{str(name): value for name, value in point.items()},
                                    **given})
        for index, (part, wrong, message) in enumerate(mistakes):
            reference = _columns(right[part], len(grids))
            gap = np.max(np.abs(_columns(wrong, len(grids)) - reference), axis=0)
            told = gap > APART * np.max(np.abs(reference), axis=0)
            apart[index, message] = apart.get((index, message), False) | told
    for (_, message), told in apart.items():
        if not np.all(told):
            raise ValueError(f"{question}: the typical mistake {message!r} is right at the "
                             f"givens {dict(zip(parameters, grids[int(np.argmin(told))]))}")


def _columns(entries, count: int) -> np.ndarray:
    """``entries`` (numbers, or arrays over the grid's ``count`` combinations) as rows of an
    array with one column per combination."""
    return np.array([np.broadcast_to(np.asarray(entry, dtype=float), (count,))
                     for entry in entries]).reshape(-1, count)
