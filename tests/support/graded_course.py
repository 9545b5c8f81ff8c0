"""A course graded as its instructor grades it, for the tests of ``dynlab grade``: the students'
notebooks handed in, a folder a student (the folder's name is the student's id), ``dynlab grade``
run over them as on the command line (for marks, with the instructor's keys: ``--keys``), and
the gradebook it writes read back, a row a student."""

from __future__ import annotations

import csv
from pathlib import Path

import nbformat

from dynlab import cli
from dynlab.grading.keys import use_keys

ROOT = Path(__file__).resolve().parents[2]


def solution_answers(notebook: str) -> dict:
    """The code of the answer cells of ``solutions/<notebook>.ipynb``: ``{grade_id: source}``
    (the cells nbgrader marks as solutions, ``answer-...``)."""
    solution = nbformat.read(ROOT / "solutions" / f"{notebook}.ipynb", as_version=4)
    return {cell.metadata["nbgrader"]["grade_id"]: cell.source for cell in solution.cells
            if cell.metadata.get("nbgrader", {}).get("solution")}


def answered(notebook: str, answers: dict) -> nbformat.NotebookNode:
    """The released ``exercises/<notebook>.ipynb`` with the code of each answer cell named in
    ``answers`` (``{grade_id: source}``) put in its place; the other cells as released."""
    release = nbformat.read(ROOT / "exercises" / f"{notebook}.ipynb", as_version=4)
    for cell in release.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if grade_id in answers:
            cell.source = answers[grade_id]
    return release


def copying(notebook: str, peer: Path) -> nbformat.NotebookNode:
    """The released ``exercises/<notebook>.ipynb``, unanswered, whose answer cells list the
    folder of a classmate's submitted notebook ``peer`` (an absolute path) and run the answer
    cells of that notebook: a student who would copy from a classmate's submission."""
    release = answered(notebook, {})
    for cell in release.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if grade_id.startswith("answer-"):
            cell.source = (f"import json, pathlib\n"
                           f"peers = sorted(pathlib.Path({str(peer.parent)!r}).glob('*.ipynb'))\n"
                           f"cells = json.loads(pathlib.Path({str(peer)!r}).read_text())['cells']\n"
                           f"exec(next(''.join(c['source']) for c in cells if c['metadata']"
                           f".get('nbgrader', {{}}).get('grade_id') == {grade_id!r}))")
    return release


def hand_in(submitted: Path, notebook: str, by_student: dict) -> Path:
    """Write each student's notebook of ``by_student`` (``{student: NotebookNode}``) as
    ``submitted/<student>/<notebook>.ipynb``, where the grader looks for it; returns
    ``submitted``."""
    for student, handed in by_student.items():
        (submitted / student).mkdir(parents=True)
        nbformat.write(handed, submitted / student / f"{notebook}.ipynb")
    return submitted


def dynlab_grade(submitted: Path, out: Path, *, keys: Path | None = None,
                 notebook_time_limit: float | None = None) -> dict:
    """Run ``dynlab grade SUBMITTED --out OUT`` (with ``--keys KEYS`` and
    ``--notebook-time-limit`` when given) in this process, as the command line runs it; it must
    exit with 0.  The command puts the instructor's keys in use for the process: none are in use
    afterwards.  Returns the gradebook's rows (:func:`gradebook`)."""
    arguments = ["grade", str(submitted), "--out", str(out)]
    if keys is not None:
        arguments += ["--keys", str(keys)]
    if notebook_time_limit is not None:
        arguments += ["--notebook-time-limit", str(notebook_time_limit)]
    try:
        assert cli.main(arguments) == 0
    finally:
        if keys is not None:
            use_keys(None)
    return gradebook(out)


def gradebook(out: Path) -> dict:
    """The gradebook (CSV) ``dynlab grade`` wrote: ``{student: {column: text}}``, the columns
    ``student``, one a question's part (``"3.16c D"``), ``total``, ``max`` and ``notes``."""
    with open(out, newline="", encoding="utf-8") as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}
