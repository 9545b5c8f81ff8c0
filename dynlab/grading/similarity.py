"""The similarity report of ``dynlab grade``: which students handed in the same answer code.

Each answer cell (grade id ``answer-...``) is compared with the same cell of every other
student, the released stub left out.  **Identical**: the same Python tokens without comments
and whitespace (Pygments' lexer).  **Similarity**: copydetect's winnowing fingerprints
(Schleimer, Wilkerson & Aiken, 2003, as in MOSS) with every name read as one letter; for each
answer, the share of its code found in the other's (a hint only).  Changes no point; the report
shows answer code, never an output, and is readable by its owner only.

>>> answer = without_stub('# YOUR ANSWER HERE\\nc = ...\\nc = m*g  # weight\\n', 'c = ...')
>>> answer, normalised(answer)
('# YOUR ANSWER HERE\\nc = m*g  # weight\\n', 'c = m * g')
"""

from __future__ import annotations

import contextlib
import csv
import html
import io
import itertools
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from dynlab.grading import submissions as _submissions

#: Characters of one answer cell compared (a longer cell is compared on its first ones).
MAX_CODE = 20_000
#: copydetect's noise threshold: the length of the fingerprinted runs of the filtered code
#: (names read as V), in characters; answers are a few lines, so it is below copydetect's 25.
RUN = 10
#: A pair is reported when its code is identical or when one of the two answers has at least
#: this share of its code in the other's.
REPORTED = 0.8
#: Pairs in the report at most (identical first, then the most similar).
MAX_PAIRS = 2000
STUB_END = "### BEGIN SOLUTION"


@dataclass
class Answer:
    student: str
    code: str              # as handed in, cut to MAX_CODE characters, the stub's lines left out
    tokens: str            # normalised(code): what "identical" compares


@dataclass
class Pair:
    exercise: str
    cell: str              # the answer cell's grade id, e.g. "answer-C_1"
    first: Answer
    second: Answer
    identical: bool
    shares: tuple          # (share of the first's code found in the second's, and back)
    slices: tuple          # copydetect's copied slices of each, for the HTML


def _lines(code: str) -> list:
    """The code's lines as their Python tokens, comments and whitespace dropped."""
    from pygments.lexers import PythonLexer
    from pygments.token import Comment
    lines, line = [], []
    for kind, text in PythonLexer().get_tokens(code):
        if kind in Comment or not text.strip():
            if "\n" in text:
                lines.append(" ".join(line))
                line = []
        else:
            line.append(text.strip())
    return lines + [" ".join(line)]


def normalised(code: str) -> str:
    """``code``'s tokens, line by line, without comments, whitespace and empty lines: two
    answers are identical when these are equal ("": no code)."""
    return "\n".join(line for line in _lines(code) if line)


def without_stub(code: str, stub: str) -> str:
    """``code`` without its lines that are, as tokens, a line of the released ``stub``."""
    released = set(_lines(stub)) - {""}
    return "".join(line for line in code.splitlines(keepends=True)
                   if normalised(line) not in released)


def answer_stubs(solutions: Path, exercises) -> dict:
    """``{exercise: {answer grade id: the stub the student receives}}`` from the solution
    notebooks of ``exercises`` (the text of each answer cell above its solution block)."""
    import nbformat
    stubs = {}
    for name in exercises:
        notebook = nbformat.read(Path(solutions) / f"{name}.ipynb", as_version=4)
        stubs[name] = {cell.metadata["nbgrader"]["grade_id"]: cell.source.split(STUB_END)[0]
                       for cell in notebook.cells
                       if cell.metadata.get("nbgrader", {}).get("solution")
                       and cell.metadata["nbgrader"].get("grade_id", "").startswith("answer-")}
    return stubs


def answer_cells(data: bytes, cells: dict) -> dict:
    """``{grade id: source}`` of the answer cells ``cells`` found in a notebook's bytes (the first
    cell of each id, cut to :data:`MAX_CODE` characters); ``{}`` for what cannot be read.

    >>> answer_cells(b'{"cells": [{"cell_type": "code", "source": ["c = 1"], '
    ...              b'"metadata": {"nbgrader": {"grade_id": "answer-C_1"}}}]}', {"answer-C_1": ""})
    {'answer-C_1': 'c = 1'}
    >>> answer_cells(b'\\xff not a notebook', {"answer-C_1": ""}), answer_cells(b'{"cells": 3}', {})
    ({}, {})
    """
    try:
        notebook = json.loads(data.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        return {}
    found, given = {}, notebook.get("cells") if isinstance(notebook, dict) else None
    for cell in given if isinstance(given, list) else []:
        if not isinstance(cell, dict):
            continue
        meta = cell.get("metadata")
        grade = meta.get("nbgrader") if isinstance(meta, dict) else None
        cell_id = grade.get("grade_id") if isinstance(grade, dict) else None
        source = cell.get("source", "")
        if isinstance(source, list):
            source = "".join(part for part in source if isinstance(part, str))
        if isinstance(cell_id, str) and cell_id in cells and cell_id not in found \
                and isinstance(source, str):
            found[cell_id] = source[:MAX_CODE]
    return found


def compared(by_cell: dict) -> list:
    """Every reported :class:`Pair` among ``by_cell`` (``{(exercise, cell): [Answer, ...]}``):
    identical first, then by similarity, at most :data:`MAX_PAIRS`."""
    from copydetect.detector import CodeFingerprint, compare_files
    pairs = []
    for (exercise, cell), answers in by_cell.items():
        prints = [CodeFingerprint(f"{answer.student}.py", RUN, 1, fp=io.StringIO(answer.code),
                                  language="python") for answer in answers]
        for (i, first), (j, second) in itertools.combinations(enumerate(answers), 2):
            _, shares, slices = compare_files(prints[i], prints[j])
            identical = first.tokens == second.tokens
            if identical or max(shares) >= REPORTED:
                pairs.append(Pair(exercise, cell, first, second, identical,
                                  tuple(float(share) for share in shares), slices))
    pairs.sort(key=lambda p: (not p.identical, -max(p.shares), p.exercise, p.cell))
    return pairs[:MAX_PAIRS]


def identical_cells(pairs: list) -> dict:
    """``{student: text}`` naming the answer cells whose code is identical to a classmate's,
    and to how many (the classmates are named only in the report).

    >>> one, two = Answer("ann", "c = 1", "c = 1"), Answer("bob", "c = 1", "c = 1")
    >>> identical_cells([Pair("05", "answer-C_1", one, two, True, (1.0, 1.0), ())])["bob"]
    'answer-C_1 (1 other)'
    """
    others = {}
    for pair in pairs:
        if pair.identical:
            for own, other in ((pair.first, pair.second), (pair.second, pair.first)):
                others.setdefault(own.student, {}).setdefault(pair.cell, set()).add(
                    other.student)
    return {student: ", ".join(f"{cell} ({len(names)} other{'s' * (len(names) > 1)})"
                               for cell, names in sorted(cells.items()))
            for student, cells in others.items()}


def report(jobs: list, solutions: Path, out, stream) -> dict:
    """Compare the answer cells of the graded ``jobs`` (:class:`~dynlab.grading.submissions.
    HandedIn`, those without a note), write ``<out>.similarity.csv`` and
    ``<out>.similarity.html`` beside the gradebook ``out`` (none when ``out`` is None), and
    return, for the gradebook, the answer cells of each student whose code is identical to a
    classmate's (:func:`identical_cells`).  What fails here is said on ``stream`` and costs no
    grade."""
    for stale in report_paths(out) if out is not None else ():       # another batch's
        with contextlib.suppress(OSError):
            stale.unlink(missing_ok=True)
    try:
        graded = [job for job in jobs if not job.note and job.notebook]
        stubs = answer_stubs(solutions, sorted({job.notebook for job in graded}))
        by_cell = {}
        for job in graded:
            try:
                cells = answer_cells(_submissions.read(job.root, job.parts), stubs[job.notebook])
            except _submissions.Refused:
                continue
            for cell, code in cells.items():
                code = without_stub(code, stubs[job.notebook][cell])
                tokens = normalised(code)
                if tokens:
                    by_cell.setdefault((job.notebook, cell), []).append(
                        Answer(job.student, code, tokens))
        pairs = compared(by_cell)
    except Exception as error:                        # noqa: BLE001 - never costs the grades
        stream.write(f"dynlab grade: WARNING: no similarity report ({type(error).__name__}: "
                     f"{error})\n")
        return {}
    if out is not None:
        try:
            table, page = report_paths(out)
            write_atomically(table, _csv(pairs))
            write_atomically(page, _html(pairs))
        except OSError as error:
            stream.write(f"dynlab grade: WARNING: the similarity report cannot be written "
                         f"({error})\n")
    return identical_cells(pairs)


def report_paths(out) -> tuple:
    """The report's CSV and HTML files beside the gradebook ``out``.

    >>> [path.name for path in report_paths("marks/grades.csv")]
    ['grades.similarity.csv', 'grades.similarity.html']
    """
    base = Path(out).with_suffix("")
    return tuple(base.with_name(f"{base.name}.similarity.{kind}") for kind in ("csv", "html"))


def _csv(pairs: list) -> str:
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(["exercise", "answer cell", "student", "other student", "identical",
                     "share of student's code in other's", "share of other's code in student's"])
    for pair in pairs:
        writer.writerow([pair.exercise, pair.cell,
                         _submissions.spreadsheet_text(pair.first.student),
                         _submissions.spreadsheet_text(pair.second.student),
                         "yes" if pair.identical else "no"]
                        + [f"{share:.2f}" for share in pair.shares])
    return text.getvalue()


def _html(pairs: list) -> str:
    from copydetect.utils import highlight_overlap

    def shown(answer: Answer, slices) -> str:
        if len(slices) == 0 or slices.shape[-1] == 0:
            return html.escape(answer.code)
        return highlight_overlap(answer.code, slices, "<mark>", "</mark>", escape_html=True)[0]

    parts = ["<!DOCTYPE html><meta charset='utf-8'><title>dynlab grade: similar answers</title>",
             "<style>pre{background:#f4f4f4;padding:6px;white-space:pre-wrap}"
             "mark{background:#fc9}td{vertical-align:top;width:50%}</style>",
             "<h1>Similar answer code</h1><p>For the instructor only: it names students and shows "
             "their answer code. <b>identical</b>: the same code once comments, whitespace and "
             "the released stub are gone. Otherwise the shares say how much of each answer's "
             "code (names read as one letter) is found in the other's, marked below; a hint, "
             "since short answers to one formula look alike. No points were changed.</p>"]
    if not pairs:
        parts.append("<p>No pair of answers is identical or similar.</p>")
    for pair in pairs:
        kind = "identical" if pair.identical else \
            f"similar ({pair.shares[0]:.0%} and {pair.shares[1]:.0%})"
        parts.append(f"<h2>{html.escape(pair.exercise)} {html.escape(pair.cell)}: "
                     f"{html.escape(pair.first.student)} and {html.escape(pair.second.student)}"
                     f": {kind}</h2><table><tr>"
                     + "".join(f"<td><pre>{shown(answer, slices)}</pre></td>"
                               for answer, slices in zip((pair.first, pair.second), pair.slices))
                     + "</tr></table>")
    return "\n".join(parts) + "\n"


def write_atomically(path: Path, text: str, mode: int = 0o600) -> None:
    """``text`` into ``path`` with ``mode`` (default: its owner's only), renamed into place
    once complete (a reader never sees half a file)."""
    handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", newline="", dir=path.parent,
                                         prefix=f".{path.name}.", suffix=".tmp", delete=False)
    try:
        with handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(handle.name, mode)
        os.replace(handle.name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(handle.name)
        raise
