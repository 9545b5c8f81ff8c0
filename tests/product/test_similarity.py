"""Copying is seen: ``dynlab grade`` compares the batch's answer cells and reports what is alike
(``dynlab.grading.similarity``), and changes no points.

The batch (05_control, graded by ``dynlab grade`` in its sandboxes, as an instructor runs it):

- carol answers with the solutions' code; dave hands in carol's notebook as it is;
- alice answers C.1 and C.2 right in code of her own and leaves C.3 as released;
- erin copies carol's C.1 with another name for the potential energy, other spacing and another
  comment, gets C.2 wrong (no gravity term) and leaves C.3 as released.

Expected: carol and dave are paired, identical, in all three answer cells and flagged in the
gradebook; alice and erin are flagged nowhere; erin's C.1 is carol's and dave's to the last
fingerprint (copydetect reads every name as ``V`` and drops spaces and comments, so the two
filtered texts are the same: both shares are 1); the two C.3 left as released are compared with
nothing; every student keeps the points of their answers.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import stat
from pathlib import Path

import nbformat
import pytest

from dynlab.grading import similarity
from dynlab.grading.submissions import HandedIn
from tests.support.graded_course import answered, dynlab_grade, hand_in, solution_answers

ROOT = Path(__file__).resolve().parents[2]
CONTROL = "05_control"
#: What carol prints below her C.1 answer: an output, which no report shows.
PRINTED = "Mp = 0.8 kg, as printed in carol's notebook"
ALICE = {   # Fu, Gonzalez & Lee's gravity terms with the payload at the tip, written out
    "answer-C_1": "c1 = (m1/2 + m2 + given['Mp'])*g*l*cos(q1) "
                  "+ (m2/2 + given['Mp'])*g*l*cos(q1 + q2)\n"
                  "c2 = (m2/2 + given['Mp'])*g*l*cos(q1 + q2)\nc = Matrix([c1, c2])\n",
    "answer-C_2": "tau = m1*a1**2*(qddr + given['Kp']*(qr - q1) + given['Kd']*(qdr - qd1))/3 "
                  "+ m1*g*a1*cos(q1)/2\n"}
ERIN = {
    "answer-C_1": "# gravity from the potential energy\n"
                  "V = m1*g*l/2*sin(q1) + m2*g*(l*sin(q1) + l/2*sin(q1+q2)) "
                  "+ given['Mp']*g*(l*sin(q1) + l*sin(q1+q2))\n"
                  "c = Matrix([V.diff(q1), V.diff(q2)])\n",
    "answer-C_2": "tau = m1*a1**2/3*(qddr + given['Kd']*(qdr - qd1) + given['Kp']*(qr - q1))\n"}


def _carol() -> nbformat.NotebookNode:
    notebook = answered(CONTROL, solution_answers(CONTROL))
    cell = next(c for c in notebook.cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == "answer-C_1")
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=PRINTED)]
    return notebook


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The batch graded: the gradebook's rows, the folder of the gradebook and what the
    command printed."""
    folder = tmp_path_factory.mktemp("similarity")
    carol = _carol()
    hand_in(folder / "submitted", CONTROL, {
        "alice": answered(CONTROL, ALICE), "carol": carol, "dave": carol,
        "erin": answered(CONTROL, ERIN)})
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        rows = dynlab_grade(folder / "submitted", folder / "grades.csv")
    return rows, folder, printed.getvalue()


def _pairs(folder: Path) -> dict:
    """``{(answer cell, the two students): (identical, share, share)}`` of the report's rows."""
    with open(folder / "grades.similarity.csv", newline="", encoding="utf-8") as handle:
        header, *rows = list(csv.reader(handle))
    assert header[:5] == ["exercise", "answer cell", "student", "other student", "identical"]
    return {(cell, frozenset((first, second))): (identical, *shares)
            for exercise, cell, first, second, identical, *shares in rows
            if exercise == CONTROL}


def test_two_verbatim_copies_are_paired_and_flagged(graded):
    rows, folder, _ = graded
    found = _pairs(folder)
    for cell in ("answer-C_1", "answer-C_2", "answer-C_3"):
        assert found[(cell, frozenset({"carol", "dave"}))] == ("yes", "1.00", "1.00")
    flag = "answer-C_1 (1 other), answer-C_2 (1 other), answer-C_3 (1 other)"
    assert rows["carol"]["identical code"] == rows["dave"]["identical code"] == flag


def test_an_independent_right_answer_is_not_flagged_as_identical(graded):
    rows, folder, _ = graded
    assert rows["alice"]["identical code"] == ""
    assert not any(identical == "yes" and "alice" in students
                   for (_, students), (identical, *_) in _pairs(folder).items())


def test_a_copy_with_renamed_variables_is_similar_not_identical(graded):
    rows, folder, _ = graded
    found = _pairs(folder)
    for other in ("carol", "dave"):
        assert found[("answer-C_1", frozenset({"erin", other}))] == ("no", "1.00", "1.00")
    assert rows["erin"]["identical code"] == ""


def test_answers_left_as_released_are_no_copies_of_each_other(graded):
    _, folder, _ = graded
    assert [students for cell, students in _pairs(folder) if cell == "answer-C_3"] == [
        frozenset({"carol", "dave"})]


def test_the_points_are_those_of_the_answers(graded):
    rows, _, _ = graded
    expected = {"alice": (2, 2, 0), "carol": (2, 2, 1), "dave": (2, 2, 1), "erin": (2, 0, 0)}
    for student, points in expected.items():
        assert tuple(float(rows[student][f"{q} {p}"]) for q, p in
                     (("C.1", "c"), ("C.2", "tau"), ("C.3", "Kd"))) == points, student
        assert float(rows[student]["total"]) == sum(points)


def test_the_report_is_the_instructors_and_shows_code_not_outputs(graded):
    _, folder, printed = graded
    page = (folder / "grades.similarity.html").read_text(encoding="utf-8")
    assert f"wrote {folder / 'grades.similarity.csv'} and {folder / 'grades.similarity.html'}: " \
           f"the pairs of alike answer cells, for you only" in printed
    assert "For the instructor only" in page
    assert "05_control answer-C_1: carol and dave: identical" in page
    assert "Matrix([V.diff(q1), V.diff(q2)])" in page                    # erin's code
    for name in ("grades.similarity.html", "grades.similarity.csv"):
        text = (folder / name).read_text(encoding="utf-8")
        assert PRINTED not in text and "Mp = 0.8" not in text, name
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name


# -- odd input: never a crash ---------------------------------------------------------------------
def _handed(folder: Path, student: str, data: bytes) -> HandedIn:
    (folder / student).mkdir()
    (folder / student / f"{CONTROL}.ipynb").write_bytes(data)
    return HandedIn(student, folder, (student, f"{CONTROL}.ipynb"), CONTROL)


def _notebook_bytes(c_1: str) -> bytes:
    return nbformat.writes(answered(CONTROL, {"answer-C_1": c_1})).encode("utf-8")


def test_odd_notebooks_give_a_report_and_no_crash(tmp_path):
    huge = "c = Matrix([1, 2])\n" + "x = 1  # padding\n" * 1_000_000       # 17 MB of code
    jobs = [_handed(tmp_path, "ann", b"\xff\xfe not UTF-8, not JSON"),
            _handed(tmp_path, "ben", b"[" * 100_000 + b"]" * 100_000),   # deeper than Python
            _handed(tmp_path, "cal", json.dumps({"cells": [None, {"source": 3}]}).encode()),
            _handed(tmp_path, "cy", b'{"cells": 3}'),
            _handed(tmp_path, "dan", _notebook_bytes(huge)),
            _handed(tmp_path, "eve", _notebook_bytes(huge + "y = 2\n")),
            _handed(tmp_path, "fay", _notebook_bytes(""))]
    shown = io.StringIO()
    flags = similarity.report(jobs, ROOT / "solutions", tmp_path / "grades.csv", shown)
    assert shown.getvalue() == ""
    # dan's and eve's cells differ only past MAX_CODE characters: compared up to there, the same
    assert flags == {"dan": "answer-C_1 (1 other)", "eve": "answer-C_1 (1 other)"}
    assert (tmp_path / "grades.similarity.html").stat().st_size < 10 * similarity.MAX_CODE


def test_a_report_that_cannot_be_written_is_a_warning_and_the_flags_stay(tmp_path):
    (tmp_path / "grades.similarity.csv").mkdir()                         # in the way
    jobs = [_handed(tmp_path, student, _notebook_bytes("c = Matrix([1, 2])"))
            for student in ("ann", "ben")]
    shown = io.StringIO()
    flags = similarity.report(jobs, ROOT / "solutions", tmp_path / "grades.csv", shown)
    assert flags == {"ann": "answer-C_1 (1 other)", "ben": "answer-C_1 (1 other)"}
    assert shown.getvalue().startswith("dynlab grade: WARNING: the similarity report cannot be "
                                       "written (")
