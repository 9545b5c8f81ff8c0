"""``dynlab grade``: submitted notebooks graded in fresh kernels from the instructor's solutions.

- The three submissions of the nbgrader test (``tests/test_nbgrader.py``: the solutions, the
  unchanged release, chosen wrong parts plus a redefined ``check`` and an edited check cell) get
  the same points, part by part, as nbgrader gives them.
- Hostile submissions are contained: an endless loop, C-level arithmetic that ignores interrupts,
  ``sys.exit``, a kernel that exits, a cell that raises, a deleted answer, a redefined ``check``
  and a patched ``dynlab.grading``, a submission that kills its grading process, a file that is
  not a notebook.  Each gets 0 for what it did not show, with a reason, and the batch goes on.
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

import nbformat
import pytest

from dynlab import cli
from dynlab.grading import answers, keys, part_points, questions
from dynlab.grading.grader import grade_submissions

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_nbgrader  # noqa: E402

NOTEBOOK = test_nbgrader.NOTEBOOK


def _read_csv(path: Path) -> list:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_dynlab_grade_gives_the_points_nbgrader_gives(tmp_path, capsys):
    release = ROOT / "exercises" / f"{NOTEBOOK}.ipynb"    # what nbgrader releases (tested there)
    for student, notebook in test_nbgrader.submissions(release).items():
        (tmp_path / student).mkdir()
        nbformat.write(notebook, tmp_path / student / f"{NOTEBOOK}.ipynb")
    out = tmp_path / "grades.csv"
    assert cli.main(["grade", str(tmp_path), "--out", str(out)]) == 0
    assert "carol: 8.5/12 points" in capsys.readouterr().out
    rows = {row["student"]: row for row in _read_csv(out)}
    assert sorted(rows) == ["alice", "bob", "carol"]
    columns = [f"{q} {p}".strip() for q in questions(NOTEBOOK)
               for p in part_points(keys()[q])]
    assert list(rows["alice"])[1:-3] == columns                # one column per part
    assert "3.16c D" in columns and "3.16c h" in columns and "3.16c c" in columns
    for student, expected in test_nbgrader.expected_points().items():
        given = {q: sum(float(rows[student][f"{q} {p}".strip()])
                        for p in part_points(keys()[q])) for q in expected}
        assert given == pytest.approx(expected, abs=1e-5), student
        assert float(rows[student]["total"]) == pytest.approx(sum(expected.values()), abs=1e-5)
        assert float(rows[student]["max"]) == 12
    assert float(rows["carol"]["3.16c h"]) == 0 and float(rows["carol"]["3.16c D"]) == 1


# -- hostile submissions --------------------------------------------------------------------------
CONTROL = "05_control"
FULL = {"C.1": 2.0, "C.2": 2.0, "C.3": 1.0}


def _answered() -> nbformat.NotebookNode:
    """The released 05_control with the solutions' answers."""
    solution = nbformat.read(ROOT / "solutions" / f"{CONTROL}.ipynb", as_version=4)
    answers_by_id = {c.metadata["nbgrader"]["grade_id"]: c.source for c in solution.cells
                     if c.metadata.get("nbgrader", {}).get("solution")}
    notebook = nbformat.read(ROOT / "exercises" / f"{CONTROL}.ipynb", as_version=4)
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if grade_id in answers_by_id:
            cell.source = answers_by_id[grade_id]
    return notebook


def _with_cell(code: str, before: str) -> nbformat.NotebookNode:
    """The answered notebook with a cell of ``code`` inserted before the cell ``before``
    (a grade_id)."""
    notebook = _answered()
    index = next(i for i, c in enumerate(notebook.cells)
                 if c.metadata.get("nbgrader", {}).get("grade_id") == before)
    notebook.cells.insert(index, nbformat.v4.new_code_cell(code))
    return notebook


CHEAT = """\
import sys
import dynlab.grading, dynlab.grading.autograde
def check(*args, **options):
    return 99.0
dynlab.grading.check = sys.modules["dynlab.grading.check"].check = check
dynlab.grading.autograde.points = check
sys.modules["dynlab.grading.keys"]._KEYS = {}
c = -c"""

HOSTILE = {
    # name: (notebook, expected points, a word of the reason, or None)
    "looper": (lambda: _with_cell("while True:\n    pass", "check-C_1"), FULL, "longer"),
    "c_level": (lambda: _with_cell("sum(range(10 ** 15))", "check-C_2"),   # C: no interrupt
                {"C.1": 2.0, "C.2": 0.0, "C.3": 0.0}, "did not stop"),
    "exiter": (lambda: _with_cell("import sys\nsys.exit(3)", "check-C_1"), FULL, "SystemExit"),
    "killer": (lambda: _with_cell("import os\nos._exit(0)", "answer-C_2"),
               {"C.1": 2.0, "C.2": 0.0, "C.3": 0.0}, "kernel died"),
    "raiser": (lambda: _with_cell("raise RuntimeError('boom')", "check-C_3"), FULL, "boom"),
    "deleter": (lambda: _with_cell("del tau", "check-C_2"), {"C.1": 2.0, "C.2": 0.0, "C.3": 1.0},
                "NameError"),
    "cheater": (lambda: _with_cell(CHEAT, "check-C_1"), {"C.1": 0.0, "C.2": 2.0, "C.3": 1.0},
                None),
    "parent_killer": (lambda: _with_cell("import os, signal\n"
                                         "os.kill(os.getppid(), signal.SIGKILL)", "check-C_3"),
                      {"C.1": 0.0, "C.2": 0.0, "C.3": 0.0}, "without answers"),
    "honest": (_answered, FULL, None),
}


def test_hostile_submissions_get_zero_for_what_they_did_not_show_and_never_stop_the_batch(
        tmp_path):
    paths = []
    for student, (build, _, _) in HOSTILE.items():
        path = tmp_path / f"{student}.ipynb"
        nbformat.write(build(), path)
        paths.append(path)
    (tmp_path / "garbage.ipynb").write_text("this is not a notebook")
    book = grade_submissions(paths + [tmp_path / "garbage.ipynb"], out=tmp_path / "g.csv",
                             notebook_time_limit=60, cell_time_limit=15, check_time_limit=10,
                             solutions=ROOT / "solutions")
    assert list(book.rows) == list(HOSTILE) + ["garbage"]
    for student, (_, expected, reason) in HOSTILE.items():
        assert book.question_points(student) == pytest.approx(expected), student
        notes = "; ".join(book.notes[student])
        if reason is None:
            assert notes == "", (student, notes)
        else:
            assert reason in notes, (student, notes)
    assert book.total("garbage") == 0 and "garbage.ipynb" in book.notes["garbage"][0]
    assert len(_read_csv(tmp_path / "g.csv")) == len(HOSTILE) + 1


def test_the_progress_bar_shows_on_request(tmp_path):
    path = tmp_path / "submitted" / "bob" / "ps1" / f"{CONTROL}.ipynb"    # nbgrader's layout
    path.parent.mkdir(parents=True)
    path.write_bytes((ROOT / "exercises" / f"{CONTROL}.ipynb").read_bytes())
    shown = io.StringIO()
    book = grade_submissions([path], progress=True, stream=shown)
    assert list(book.rows) == ["bob"] and book.total("bob") == 0
    assert "grading [" in shown.getvalue() and "1/1" in shown.getvalue()
    quiet = io.StringIO()
    grade_submissions([path], stream=quiet)                 # not a terminal: no bar
    assert quiet.getvalue() == ""


@pytest.mark.parametrize("text", [
    "__import__('os').system('echo hacked')",
    "ImmutableDenseMatrix([['__import__(\"os\")']])",
    "Symbol('x; import os')",
    "Add(Symbol('x'), Integer(1)).__class__",
    "sympify('1+1')",
    "(lambda: 1)()",
])
def test_an_answer_is_rebuilt_without_running_code(text):
    with pytest.raises(answers.UnsafeAnswer):
        answers.from_srepr(text)


def test_a_later_submission_of_the_same_notebook_counts(tmp_path):
    first, second = tmp_path / "a" / "bob", tmp_path / "b" / "bob"
    first.mkdir(parents=True)
    second.mkdir(parents=True)
    nbformat.write(_answered(), first / f"{CONTROL}.ipynb")
    (second / f"{CONTROL}.ipynb").write_bytes(
        (ROOT / "exercises" / f"{CONTROL}.ipynb").read_bytes())          # nothing answered
    book = grade_submissions([first, second])
    assert list(book.rows) == ["bob"] and book.total("bob") == 0
    assert "another submission of 05_control follows" in book.notes["bob"][0]
