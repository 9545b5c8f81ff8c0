"""Build the answer keys of the graded exercises from dynlab's own derivations (no answer is typed
here: each reference is derived, and the typical mistakes are derived the same way from a wrong
model or a wrong procedure): the instructor's keys, ``solutions/answer_keys/*.json``, whose
references are formulas in each question's givens, and the keys shipped with dynlab,
``dynlab/answer_keys/*.json``, the same keys at the practice values only
(:func:`dynlab.grading.variants.at_practice`).

    python tools/make_answer_keys.py            # rewrite both
    python tools/make_answer_keys.py --check    # exit 1 if grading would differ with the
                                                # committed keys (key_differences)
    python tools/make_answer_keys.py 02_two_link_arm_on_the_ceiling   # one notebook's keys
    python tools/make_answer_keys.py --out course/keys   # the instructor's keys and the course
                                                         # secret, for marks

Each notebook of ``solutions/`` with graded questions has one file, ``tools/answer_keys/<notebook
stem>.py``, holding its keys: ``keys()`` (a list of :func:`~dynlab.grading.authoring.make_key`
and :func:`~dynlab.grading.authoring.make_choice_key` results, each derived there, its typical
mistakes checked apart from the answer at every student's values,
:func:`~dynlab.grading.authoring.check_mistakes_apart`) and ``NOTES`` (each question's hint and
takeaway, sealed into its key here).  ``tools/answer_keys/common.py`` holds what several of them
share and ``_template.py`` is the template of a new one; neither is a notebook's.  The keys store
each reference sealed (:mod:`dynlab.grading.sealing`); the checker evaluates it at points drawn
fresh at every check.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path

import numpy as np
import sympy
import sympy.core.random

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from library_answers import with_refusals  # noqa: E402  (tools/library_answers.py)

from dynlab.grading.authoring import seal_notes, write_course_secret, write_keys  # noqa: E402
from dynlab.grading.keys import (  # noqa: E402
    FORMATIVE,
    KEY_DIRECTORY,
    NUMERIC_TOLERANCE,
    SUMMATIVE,
    TOLERANCE,
    fresh_points,
)
from dynlab.grading.sealing import unseal  # noqa: E402
from dynlab.grading.variants import at_practice  # noqa: E402

#: The installed package (the instructor's keys are never written inside it).
PACKAGE = KEY_DIRECTORY.parent
#: The instructor's keys of the workbook (no course secret): outside the package, with the
#: solutions (the students' image and the wheel hold neither).
INSTRUCTOR_KEYS = ROOT / "solutions" / "answer_keys"
#: The key files, one per notebook (``<notebook stem>.py``), and what they share
KEY_FILES = ROOT / "tools" / "answer_keys"
SHARED = "common"


def notebooks() -> list:
    """The stems of the notebooks with a key file, in order: every ``tools/answer_keys/*.py`` but
    :data:`SHARED` and the templates (``_*.py``), each the stem of a notebook of ``solutions/``."""
    stems = [path.stem for path in sorted(KEY_FILES.glob("[!_]*.py")) if path.stem != SHARED]
    stray = [stem for stem in stems if not (ROOT / "solutions" / f"{stem}.ipynb").is_file()]
    if stray:
        raise SystemExit(f"make_answer_keys: tools/answer_keys/{stray[0]}.py names no notebook "
                         f"solutions/{stray[0]}.ipynb (a key file is named by its notebook)")
    return stems


def key_file(notebook: str):
    """The module of ``tools/answer_keys/<notebook>.py``."""
    return importlib.import_module(f"answer_keys.{notebook}")


def notes(notebook: str) -> dict:
    """``{question: {"hint": text, "takeaway": text}}``: the notes of a notebook's key file, as
    sealed into its keys (stripped)."""
    return {question: {kind: text.strip() for kind, text in texts.items()}
            for question, texts in key_file(notebook).NOTES.items()}


def keys_of(notebook: str) -> list:
    """The keys of ``notebook`` as its key file derives them, with their notes sealed in.
    SymPy's own generator (its factoring and simplification draw from it) starts from one seed
    for each notebook, so that a build takes the same path on every run."""
    sympy.core.random.seed(0)
    built, texts = key_file(notebook).keys(), notes(notebook)
    stray = sorted(set(texts) - {key["id"] for key in built})
    if stray:
        raise SystemExit(f"make_answer_keys: tools/answer_keys/{notebook}.py has notes of "
                         f"{', '.join(stray)}, which none of its keys is")
    return [seal_notes(key, **texts.get(key["id"], {})) for key in built]


#: Where the keys go by default: the instructor's, and the shipped ones made from them.
TARGETS = ((INSTRUCTOR_KEYS, SUMMATIVE), (KEY_DIRECTORY, FORMATIVE))


def build(targets=TARGETS, only=()) -> list:
    """Build the keys of every notebook (or of the notebooks named in ``only``) once and write
    them into each ``(directory, route)`` of ``targets`` (:data:`SUMMATIVE`: as built, the
    instructor's, outside the package; :data:`FORMATIVE`: at the practice values, the package's);
    returns the paths written."""
    unknown = sorted(set(only) - set(notebooks()))
    if unknown:
        raise SystemExit(f"make_answer_keys: no notebook {', '.join(unknown)}; the notebooks "
                         f"are {', '.join(notebooks())}")
    paths = []
    for notebook in notebooks():
        if only and notebook not in only:
            continue
        start = time.perf_counter()
        built = with_refusals(keys_of(notebook))
        shipped = [at_practice(key) for key in built]
        paths += [write_keys(notebook, shipped if route == FORMATIVE else built, directory, route)
                  for directory, route in targets]
        print(f"{time.perf_counter() - start:7.1f} s  {notebook}", flush=True)
    return paths


def _sample_values(key: dict, count: int = 8) -> list:
    """``count`` points ``{symbol name: value}`` for a key's expressions: its symbols at fresh
    points of their typical ranges (a fixed generator: the same points for both keys compared)
    and each given spread over its grid, ends included."""
    symbols = [name for name, _ in key.get("symbols", [])] if key["kind"] == "symbolic" else []
    points = fresh_points(key, np.random.default_rng(0))[:count] if symbols else [[]] * count
    grids = {name: np.arange(spec["low"], spec["high"] + spec["step"] / 2, spec["step"])
             for name, spec in key.get("parameters", {}).items()}
    return [{**dict(zip(symbols, map(float, point))),
             **{name: float(grid[(k * (len(grid) - 1)) // max(1, count - 1)])
                for name, grid in grids.items()}}
            for k, point in enumerate(points)]


def _values_agree(key: dict, committed: list, rebuilt: list) -> bool:
    """Whether two sealed value lists (texts, one per entry) grade alike: equal texts, or equal
    numbers at sample points (:func:`_sample_values`) to the key's own tolerance, relative to
    ``max(1, |value|)`` (the grader's scale is never smaller)."""
    if committed == rebuilt:
        return True
    if len(committed) != len(rebuilt):
        return False
    tolerance = key.get("tolerance", TOLERANCE if key["kind"] == "symbolic"
                        else NUMERIC_TOLERANCE)
    samples = _sample_values(key)
    for old, new in zip(committed, rebuilt):
        if old == new:
            continue
        old, new = sympy.sympify(old), sympy.sympify(new)
        for point in samples:
            values = [complex(expr.subs({s: point[str(s)] for s in expr.free_symbols}))
                      for expr in (old, new)]
            if abs(values[0] - values[1]) > tolerance * max(1.0, abs(values[0])):
                return False
    return True


def key_differences(committed: dict, rebuilt: dict) -> list:
    """What grading would do differently with the ``rebuilt`` key file than with the
    ``committed`` one: each reference's and typical mistake's values are compared as numbers
    at sample points, to the key's tolerance (:func:`_values_agree`; the last digits of a
    derivation's floats may differ between machines); everything else the grader reads, its
    texts (messages, hints, takeaways), names, shapes, points and grids, must be equal.

    >>> from dynlab.grading import make_key
    >>> key = make_key("demo", notebook="demo", title="demo", points=1, kind="numeric",
    ...                tolerance=1e-4, parts=[{"name": "E", "value": [2.0]}])
    >>> near = make_key("demo", notebook="demo", title="demo", points=1, kind="numeric",
    ...                 tolerance=1e-4, parts=[{"name": "E", "value": [2.0 + 1e-9]}])
    >>> key_differences({"questions": [key]}, {"questions": [near]})
    []
    >>> far = dict(near, title="Demo")
    >>> key_differences({"questions": [key]}, {"questions": [far]})
    ['demo: title']
    """
    found = []
    if {k: v for k, v in committed.items() if k != "questions"} != \
            {k: v for k, v in rebuilt.items() if k != "questions"}:
        found.append("the file's header")
    old_ids = [key["id"] for key in committed["questions"]]
    new_ids = [key["id"] for key in rebuilt["questions"]]
    if old_ids != new_ids:
        return found + [f"the questions: {old_ids} became {new_ids}"]
    for old, new in zip(committed["questions"], rebuilt["questions"]):
        question = old["id"]
        sealed = [(f"{question}|{p['name']}", p, q, "reference")
                  for p, q in zip(old.get("parts", []), new.get("parts", []))]
        sealed += [(f"{question}|mistake{i}", m, n, "value")
                   for i, (m, n) in enumerate(zip(old.get("mistakes", []),
                                                  new.get("mistakes", [])))]
        for where, a, b, field in sealed:
            if a.get(field) != b.get(field) and not _values_agree(
                    old, json.loads(unseal(a[field], where)), json.loads(unseal(b[field], where))):
                found.append(f"{question}: the values of {where.split('|')[1]}")

        def readable(key):              # the key without the values compared above
            text = json.loads(json.dumps(key))
            for entry in text.get("parts", []):
                entry.pop("reference", None)
            for entry in text.get("mistakes", []):
                entry.pop("value", None)
            return text
        old_text, new_text = readable(old), readable(new)
        found += [f"{question}: {field}" for field in sorted(set(old_text) | set(new_text))
                  if old_text.get(field) != new_text.get(field)]
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*",
                        help="only these notebooks' keys (file stems; default: all)")
    parser.add_argument("--check", action="store_true",
                        help="compare with the committed keys (what grading reads: values to the "
                             "key's tolerance, texts exactly) instead of writing them")
    parser.add_argument("--out", default=None, metavar="FOLDER",
                        help="write the instructor's keys into FOLDER instead: summative keys "
                             "and the course secret (kept if there), for dynlab grade --keys "
                             "and nbgrader's ScoreExportedAnswers.key_directory; keep FOLDER "
                             "outside the package and out of the students' reach")
    args = parser.parse_args(argv)
    if args.out is not None:
        out = Path(args.out)
        if out.resolve() == PACKAGE.resolve() or PACKAGE.resolve() in out.resolve().parents:
            raise SystemExit(f"make_answer_keys: {out} is inside the dynlab package, which every "
                             f"student installs; write the instructor's keys outside it")
        out.mkdir(parents=True, exist_ok=True)
        for path in build([(out, SUMMATIVE)], args.notebooks):
            print(f"wrote {path}")
        print(f"course secret in {write_course_secret(out)} (keep it; the graded values of "
              f"every student are drawn from it)")
        return 0
    if not args.check:
        for path in build(only=args.notebooks):
            print(f"wrote {path.relative_to(ROOT)}")
        return 0
    import tempfile
    with tempfile.TemporaryDirectory() as scratch:
        stale = []
        scratches = {directory: Path(scratch) / route for directory, route in TARGETS}
        for path in build([(scratches[d], route) for d, route in TARGETS], args.notebooks):
            committed = next(d for d, s in scratches.items() if s == path.parent) / path.name
            name = committed.relative_to(ROOT)
            if not committed.exists():
                stale.append(f"{name} (not committed)")
                continue
            differences = key_differences(json.loads(committed.read_text()),
                                          json.loads(path.read_text()))
            if differences:
                stale.append(f"{name} ({'; '.join(differences)})")
    if stale:
        print("out of date: " + ", ".join(stale) + " (run python tools/make_answer_keys.py)")
        return 1
    print("answer keys are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
