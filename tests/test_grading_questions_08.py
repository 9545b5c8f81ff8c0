"""The graded questions of solutions/08_your_own_robot (the UR20 of chapter 10): each right
answer, worked here by hand from the file's joint table and the maker's table (not by dynlab),
passes; each typical wrong answer gets its specific feedback; and ``dynlab grade``, which runs a
submission in its sandbox and scores it outside, gives the points the formative ``check()``
gives."""

import csv
import math
from pathlib import Path

import nbformat
import numpy as np
import pytest

from dynlab import cli
from dynlab.grading import Feedback, check, keys, part_points, questions, reset
from dynlab.model.robots import UR20_PARAMETERS

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "08_your_own_robot"

# -- U.1: the screw axes with the upper arm raised (q2 = -90 degrees) -----------------------------
# at home (the file's joint table): the elbow's axis is -y of the base through
# (-0.862, 0, 0.2363); wrist 2's is -z through (-1.5907, -0.201, 0.077).  A quarter turn about
# +y through the shoulder's axis point (0, 0, 0.2363) takes (x, y, z) to (z, y, -x) about it.
J3 = [0, -1, 0, 0.2363 + 0.862, 0, 0]                 # omega = -y, p = (0, 0, 1.0983)
J5 = [-1, 0, 0, 0, -(0.2363 + 0.862 + 0.7287), -0.201]  # omega = -x, p = (-0.1593, -0.201, 1.827)
J3_HOME, J5_HOME = [0, -1, 0, 0.2363, 0, 0.862], [0, 0, -1, 0.201, -1.5907, 0]

# -- U.2: holding 20 kg at the flange, stretched out (q = 0) ---------------------------------------
G, PAYLOAD = 9.81, 20.0
(A2, _, _, M2, R2, _), (A3, _, _, M3, R3, _) = UR20_PARAMETERS[1:3]
WRIST = sum(p[3] for p in UR20_PARAMETERS[3:])


def holding(payload):
    """The gravity torques of joints 2 and 3 at home: g sum m x, each mass at its distance
    along the base's x (negative: the arm reaches along -x), the wrist and the payload at
    a2 + a3 (Fu, Gonzalez & Lee, Eq. (3.4-28) at q = 0)."""
    beyond = WRIST + payload
    c2 = G * (M2 * (A2 + R2[0]) + M3 * (A2 + A3 + R3[0]) + beyond * (A2 + A3))
    c3 = G * (M3 * (A3 + R3[0]) + beyond * A3)
    return c2, c3


C2, C3 = holding(PAYLOAD)
C2_BARE, C3_BARE = holding(0.0)

RIGHT = {"U.1": (J3, J5), "U.2": (C2, C3)}

# question, answer, words the feedback must contain, status
WRONG = [
    ("U.1", ([0, -1, 0, -1.0983, 0, 0], J5), "v = -omega x p", "incorrect"),
    ("U.1", (J3, [-1, 0, 0, 0, 1.827, 0.201]), "v = -omega x p", "incorrect"),
    ("U.1", (J3_HOME, J5), "that is the elbow's screw axis at home", "incorrect"),
    ("U.1", (J3, J5_HOME), "that is the screw axis at home", "incorrect"),
    ("U.1", ([0, -1, 0, 0.2363 - 0.862, 0, 0], J5), "joint 2 turned the wrong way",
     "incorrect"),
    ("U.1", (J3, J5[:3]), "wrong shape: J5 should be a 6-vector", "not graded"),
    ("U.2", (-C2, C3), "the motor holds the arm with the opposite torque", "incorrect"),
    ("U.2", (C2, C3_BARE), "the 20 kg payload at the flange is missing", "incorrect"),
    ("U.2", (C2_BARE, C3_BARE), "the 20 kg payload at the flange is missing", "incorrect"),
]


@pytest.fixture(autouse=True)
def fresh_session():
    reset()
    yield
    reset()


def test_the_table_covers_both_questions_and_their_points():
    assert set(RIGHT) == set(questions(NOTEBOOK)) == {"U.1", "U.2"}
    assert {row[0] for row in WRONG} == set(RIGHT)
    assert sum(keys()[q]["points"] for q in RIGHT) == 4


def test_the_hand_numbers_are_the_arms():
    """The stretched-out arm holds about 306 N m at the shoulder; the payload, 1.5907 m out,
    costs 20 g 1.5907 = 312.1 N m more (chapter 10's numbers)."""
    assert round(C2_BARE, 1) == -306.3 and round(C2 - C2_BARE, 1) == round(-PAYLOAD * G * 1.5907, 1)
    assert math.isclose(C3 - C3_BARE, PAYLOAD * G * A3)


@pytest.mark.parametrize("question", sorted(RIGHT))
def test_a_right_answer_passes(question):
    feedback = check(question, RIGHT[question])
    assert feedback.correct, str(feedback)
    assert feedback.status == "correct" and feedback.points == keys()[question]["points"]


def test_a_right_answer_in_other_forms_passes():
    import sympy
    assert check("U.1", (sympy.Matrix(J3), np.array(J5, dtype=float))).correct
    assert check("U.2", (np.float64(C2), round(C3, 3))).correct
    assert not check("U.2", (C2 * (1 + 1e-4), C3)).correct        # beyond the tolerance


@pytest.mark.parametrize("question, answer, words, status", WRONG,
                         ids=[f"{row[0]}:{row[2][:40]}" for row in WRONG])
def test_a_wrong_answer_gets_its_specific_feedback(question, answer, words, status):
    feedback = check(question, answer)
    assert isinstance(feedback, Feedback) and not feedback.correct
    assert feedback.points == sum(feedback.parts.values()) < feedback.max_points
    assert feedback.status == status, str(feedback)
    assert words in str(feedback), str(feedback)


def _submission(answers: dict) -> nbformat.NotebookNode:
    """The released notebook with each answer cell's code replaced by ``answers[grade_id]``."""
    notebook = nbformat.read(ROOT / "exercises" / f"{NOTEBOOK}.ipynb", as_version=4)
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if grade_id in answers:
            cell.source = answers[grade_id]
    return notebook


def test_dynlab_grade_scores_the_questions_as_check_does(tmp_path, capsys):
    """alice hands in the solutions' answers, bob the release unchanged, carol the shoulder's
    torque right and the elbow's without the payload: dynlab grade, in its sandbox, gives each
    part the points check() gives the same answers."""
    solution = nbformat.read(ROOT / "solutions" / f"{NOTEBOOK}.ipynb", as_version=4)
    answers = {cell.metadata["nbgrader"]["grade_id"]: cell.source for cell in solution.cells
               if cell.metadata.get("nbgrader", {}).get("solution")}
    carol = dict(answers)
    carol["answer-U_2"] += f"\nc3 = {C3_BARE!r}"
    for student, given in (("alice", answers), ("bob", {}), ("carol", carol)):
        (tmp_path / student).mkdir()
        nbformat.write(_submission(given), tmp_path / student / f"{NOTEBOOK}.ipynb")
    out = tmp_path / "grades.csv"
    assert cli.main(["grade", str(tmp_path), "--out", str(out)]) == 0
    capsys.readouterr()
    with open(out, newline="", encoding="utf-8") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    expected = {"alice": {"U.1": (J3, J5), "U.2": (C2, C3)}, "bob": {},
                "carol": {"U.1": (J3, J5), "U.2": (C2, C3_BARE)}}
    for student, given in expected.items():
        for question in ("U.1", "U.2"):
            formative = check(question, given[question]).parts if question in given else {}
            for part in part_points(keys()[question]):
                column = f"{question} {part}".strip()
                assert float(rows[student][column]) == pytest.approx(
                    formative.get(part, 0.0), abs=1e-9), (student, column)
        assert float(rows[student]["max"]) == 4
    assert float(rows["alice"]["total"]) == 4 and float(rows["bob"]["total"]) == 0
    assert float(rows["carol"]["total"]) == 3
