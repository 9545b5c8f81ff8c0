"""nbgrader end to end, a variant per student: ``nbgrader autograde`` grades each submission
against the givens of the student who handed it in.

A course in a temporary folder, configured like ``tests/test_nbgrader.py``'s (the
``nbgrader_config.py`` of ``make_exercises.NBGRADER_CONFIG``), whose one assignment holds only the
questions with givens of ``solutions/06`` (D.1, D.2, S.1, S.2), with the cells they need (the set-up
cells, each ``given = variant(...)`` cell, the answer and check cells, copied with their nbgrader
metadata), so the three kernels start and finish quickly.

The course names the instructor's keys (``c.ScoreExportedAnswers.key_directory``: summative keys
and the course secret, ``tests/test_instructor_keys.py``), so each kernel computes with, and each
answer is graded at, the submitting student's graded values:

- alice and bob hand in the solution code, which reads ``variant(...)`` in the kernel: full marks
  on each question, each with the graded values of their own folder's student id;
- carol hands in alice's numbers (computed here from alice's graded values): 0 on each;
- dave hands in the answers of the keys shipped with dynlab, unsealed and evaluated at the values
  his own notebook shows him (his practice values): 0 on each.

nbgrader itself runs with ``DYNLAB_STUDENT`` set to :data:`GRADER`, whose givens differ from
alice's and bob's: only the course's autograde pipeline (``RunAsSubmittingStudent``) can make each
kernel compute with the submitting student's givens, and nothing depends on the environment the
tests run in.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest

from dynlab.grading import keys, questions, variant
from dynlab.grading.answers import serialize
from dynlab.grading.nbgrader_scoring import CHECK_LINE
from dynlab.grading.scoring import score
from dynlab.grading.variants import GIVENS_VARIABLE, STUDENT_VARIABLE

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_nbgrader import ROOT, _answer_id, _check_id, _nbgrader, make_exercises  # noqa: E402
from test_instructor_keys import SECRET, instructor_folder, unsealed  # noqa: E402
from test_variants import right_answer  # noqa: E402

NOTEBOOK = "06_dalembert_newton_euler_and_simulation"
ASSIGNMENT = "ps6"
#: The questions of the notebook with givens (their keys have parameters)
QUESTIONS = tuple(q for q in questions(NOTEBOOK) if keys()[q].get("parameters"))
#: The student id of whoever runs nbgrader (``DYNLAB_STUDENT`` of the nbgrader process)
GRADER = "instructor"
#: nbgrader's environment: the grader's id, no secret or givens of its own, no JupyterHub login
VARIABLES = {STUDENT_VARIABLE: GRADER, "DYNLAB_COURSE_SECRET": None, GIVENS_VARIABLE: None,
             "JUPYTERHUB_USER": None}


def _nbgrader_cell(cell) -> dict:
    return cell.metadata.get("nbgrader", {})


def minimal_source() -> nbformat.NotebookNode:
    """solutions/06 cut to the questions with givens: every code cell that is neither an answer
    nor a check cell (the set-up and the ``given`` cells) up to the last check of
    :data:`QUESTIONS`, and the answer and check cells of those questions."""
    solution = nbformat.read(ROOT / "solutions" / f"{NOTEBOOK}.ipynb", as_version=4)
    graded = {f(q) for q in QUESTIONS for f in (_answer_id, _check_id)}
    last = max(i for i, cell in enumerate(solution.cells)
               if _nbgrader_cell(cell).get("grade_id") == _check_id(QUESTIONS[-1]))
    cells = [cell for cell in solution.cells[:last + 1] if cell.cell_type == "code" and (
        _nbgrader_cell(cell).get("grade_id") in graded or not _nbgrader_cell(cell))]
    return nbformat.from_dict(dict(solution, cells=cells))


def alices_numbers() -> dict:
    """``{question: alice's right answer}``, from her graded values (by hand:
    tests/test_variants.py)."""
    return {q: float(right_answer(q, variant(q, student="alice", secret=SECRET)))
            for q in QUESTIONS}


def graded(student: str, question: str) -> dict:
    return dict(variant(question, student=student, secret=SECRET))


def submissions(release: Path, source: nbformat.NotebookNode) -> dict:
    """``{student: notebook}``: the release with each answer cell's stub replaced by the solution
    code (alice, bob), by alice's number (carol), or by the shipped key's answer at the
    student's practice values (dave)."""
    solved = {}
    for cell in source.cells:
        if _nbgrader_cell(cell).get("solution"):
            blocks = make_exercises.split_blocks(cell.source, _nbgrader_cell(cell)["grade_id"])
            solved[cell.metadata.nbgrader.grade_id] = "\n".join(
                line for is_solution, lines in blocks if is_solution for line in lines)
    copied, unsealing, numbers = {}, {}, alices_numbers()
    for cell in source.cells:
        match = CHECK_LINE.fullmatch(cell.source.split("\n")[0].strip())
        if match and match.group(1) in QUESTIONS:
            question, name = match.groups()
            copied[_answer_id(question)] = f"{name} = {numbers[question]!r}     # alice's number"
            unsealing[_answer_id(question)] = f"{name} = {unsealed(question, 'dave')!r}"
    assert sorted(solved) == sorted(copied) == sorted(_answer_id(q) for q in QUESTIONS)
    found = {}
    for student, answers in (("alice", solved), ("bob", solved), ("carol", copied),
                             ("dave", unsealing)):
        notebook = nbformat.read(release, as_version=4)
        for cell in notebook.cells:
            if _nbgrader_cell(cell).get("grade_id") in answers:
                cell.source = answers[cell.metadata.nbgrader.grade_id]
        found[student] = notebook
    return found


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """The course: the minimal source released, the three submissions autograded (nbgrader run
    as :data:`GRADER`)."""
    course = tmp_path_factory.mktemp("variants_course")
    keys = instructor_folder(tmp_path_factory.mktemp("instructor") / "keys")
    (course / "nbgrader_config.py").write_text(
        make_exercises.NBGRADER_CONFIG + f"c.ScoreExportedAnswers.key_directory = {str(keys)!r}\n")
    source = course / "source" / ASSIGNMENT
    source.mkdir(parents=True)
    nbformat.write(minimal_source(), source / f"{NOTEBOOK}.ipynb")
    _nbgrader(course, "generate_assignment", ASSIGNMENT, "--force", variables=VARIABLES)
    release = course / "release" / ASSIGNMENT / f"{NOTEBOOK}.ipynb"
    for student, notebook in submissions(release, minimal_source()).items():
        folder = course / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(notebook, folder / f"{NOTEBOOK}.ipynb")
    graded = _nbgrader(course, "autograde", ASSIGNMENT, "--create", "--force",
                       variables=VARIABLES)
    (course / "autograde.log").write_text(graded.stdout + graded.stderr)
    return course


def _autograded(course: Path, student: str) -> nbformat.NotebookNode:
    return nbformat.read(course / "autograded" / student / ASSIGNMENT / f"{NOTEBOOK}.ipynb",
                         as_version=4)


def _scores(course: Path, student: str) -> dict:
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        notebook = gradebook.find_submission_notebook(NOTEBOOK, ASSIGNMENT, student)
        return {grade.name: grade.score for grade in notebook.grades}


def test_the_students_givens_differ_where_the_test_needs_them():
    """Each of alice's and bob's graded values differs from the grader's (a kernel started with
    the grader's id would compute wrong answers) and from their practice values (a kernel handed
    no graded values would), and carol's from alice's (alice's numbers are wrong for carol)."""
    for question in QUESTIONS:
        for student in ("alice", "bob"):
            assert graded(student, question) != graded(GRADER, question), question
            assert graded(student, question) != dict(variant(question, student=student))
        assert graded("carol", question) != graded("alice", question), question


def test_alices_numbers_are_right_for_alice(tmp_path):
    """What carol copies is a right answer, for alice; what dave hands in is right at his
    practice values, which the shipped keys answer."""
    from dynlab.grading.keys import use_keys
    for question in QUESTIONS:
        number = unsealed(question, "dave")
        result = score(question, serialize(number), student="dave")      # the shipped keys
        assert result.total == sum(result.maximum.values()) > 0, (question, result.reasons)
    use_keys(instructor_folder(tmp_path / "keys"))
    try:
        for question, number in alices_numbers().items():
            result = score(question, serialize(number), student="alice")
            assert result.total == sum(result.maximum.values()) > 0, (question, result.reasons)
    finally:
        use_keys(None)


def test_the_source_holds_only_the_questions_with_givens(course):
    source = nbformat.read(course / "source" / ASSIGNMENT / f"{NOTEBOOK}.ipynb", as_version=4)
    assert sorted(_nbgrader_cell(cell)["grade_id"] for cell in source.cells
                  if _nbgrader_cell(cell)) == sorted(
        f(q) for q in QUESTIONS for f in (_answer_id, _check_id))
    assert [q for q in QUESTIONS if not any(f'variant("{q}")' in cell.source
                                            for cell in source.cells)] == []


@pytest.mark.parametrize("student", ["alice", "bob"])
def test_an_honest_student_gets_full_marks_with_their_own_givens(course, student):
    source = minimal_source()
    points = {_nbgrader_cell(cell)["grade_id"]: float(_nbgrader_cell(cell)["points"])
              for cell in source.cells if _nbgrader_cell(cell).get("grade")}
    assert points and all(value > 0 for value in points.values())
    assert _scores(course, student) == points
    autograded = _autograded(course, student)
    shown = "\n".join(output.get("data", {}).get("text/plain", "")
                      for cell in autograded.cells if "= variant(" in cell.source
                      for output in cell.get("outputs", []))
    for question in QUESTIONS:                   # the kernel's givens were the student's graded
        assert f"Your values for {question} (student {student!r};" in shown
        for name, value in graded(student, question).items():
            assert f"  {name} = {value:g} " in shown, (question, name, shown)


@pytest.mark.parametrize("student", ["carol", "dave"])
def test_alices_numbers_and_the_shipped_keys_answers_score_0(course, student):
    assert _scores(course, student) == {_check_id(q): 0.0 for q in QUESTIONS}
    autograded = _autograded(course, student)
    assert not [output for cell in autograded.cells for output in cell.get("outputs", [])
                if output.output_type == "error"]
    feedback = {CHECK_LINE.fullmatch(cell.source.split("\n")[0]).groups(): "\n".join(
        output.get("data", {}).get("text/plain", "") for output in cell.outputs)
        for cell in autograded.cells if _nbgrader_cell(cell).get("grade")}
    assert len(feedback) == len(QUESTIONS)
    for (question, name), shown in feedback.items():    # handed in and read, and wrong for her
        assert f"{name} is wrong" in shown, (question, shown)
