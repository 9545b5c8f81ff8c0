"""nbgrader end to end, a variant per student: ``nbgrader autograde`` grades each submission
against the givens of the student who handed it in.

A course in a temporary folder, configured like ``tests/product/test_nbgrader.py``'s (the
``nbgrader_config.py`` of ``make_exercises.NBGRADER_CONFIG``), whose one assignment holds only the
questions with givens of ``solutions/06`` (the questions whose keys have parameters), with the
cells they need (the set-up cells, each ``given = variant(...)`` cell, the answer and check cells,
copied with their nbgrader metadata, and the solution code of the questions without givens that
later answers build on, as plain set-up code), so the kernels start and finish quickly.

The course names the instructor's keys (``c.ScoreExportedAnswers.key_directory``: summative keys
and the course secret, ``tests/course/test_instructor_keys.py``), so each kernel computes with, and
each answer is graded at, the submitting student's graded values:

- alice and bob hand in the solution code, which reads ``variant(...)`` in the kernel: full marks
  on each question, each with the graded values of their own folder's student id;
- carol hands in alice's answers (computed here from alice's graded values, numbers and SymPy
  expressions typed in): 0 on each, but for the parts every student shares (G.2's h_rot, zero
  for every planar arm);
- dave hands in the answers of the keys shipped with dynlab, unsealed and evaluated at the values
  his own notebook shows him (his practice values): 0 on each, but for the same shared parts.

nbgrader itself runs with ``DYNLAB_STUDENT`` set to :data:`GRADER`, whose givens differ from
alice's and bob's: only the course's autograde pipeline (``RunAsSubmittingStudent``) can make each
kernel compute with the submitting student's givens, and nothing depends on the environment the
tests run in.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
import sympy

from dynlab.grading import keys, questions, variant
from dynlab.grading.answers import serialize
from dynlab.grading.nbgrader_scoring import check_line
from dynlab.grading.scoring import points_of_data
from dynlab.grading.variants import GIVENS_VARIABLE, STUDENT_VARIABLE
from tests.course.by_hand.formulas import right as right_by_formula
from tests.course.by_hand.numbers import right as right_answer
from tests.course.by_hand.recursions import right as right_by_recursion
from tests.course.test_instructor_keys import instructor_folder, unsealed
from tests.course.test_variants import TABLE

from .test_nbgrader import ROOT, _answer_id, _check_id, _nbgrader, make_exercises

SHARED = TABLE["G.2"].shared


def right(question: str, given: dict):
    """A symbolic question's right answer at ``given``, by hand
    (tests/course/test_variants_formulas.py for N.1, tests/course/test_variants_recursions.py for
    the others)."""
    return (right_by_formula if question == "N.1" else right_by_recursion)(question, given)

NOTEBOOK = "06_dalembert_newton_euler_and_simulation"
ASSIGNMENT = "ps6"
#: The questions of the notebook with givens (their keys have parameters)
QUESTIONS = tuple(q for q in questions(NOTEBOOK) if keys()[q].get("parameters"))
#: The course secret of the instructor's keys here (fixed, so that the test's premise holds for
#: every question with givens: alice's and bob's graded values differ from the grader's, and
#: carol's from alice's; test_the_students_givens_differ_where_the_test_needs_them asserts it)
SECRET = "the secret of the test course 76"
#: The student id of whoever runs nbgrader (``DYNLAB_STUDENT`` of the nbgrader process)
GRADER = "instructor"
#: nbgrader's environment: the grader's id, no secret or givens of its own, no JupyterHub login
VARIABLES = {STUDENT_VARIABLE: GRADER, "DYNLAB_COURSE_SECRET": None, GIVENS_VARIABLE: None,
             "JUPYTERHUB_USER": None}


def _nbgrader_cell(cell) -> dict:
    return cell.metadata.get("nbgrader", {})


def solution_code(cell) -> str:
    """The solution lines of an answer cell (its ``### BEGIN SOLUTION`` block)."""
    blocks = make_exercises.split_blocks(cell.source, _nbgrader_cell(cell)["grade_id"])
    return "\n".join(line for is_solution, lines in blocks if is_solution for line in lines)


def minimal_source() -> nbformat.NotebookNode:
    """solutions/06 cut to the questions with givens: every code cell that is neither an answer
    nor a check cell (the set-up and the ``given`` cells) up to the last check of
    :data:`QUESTIONS`, the answer and check cells of those questions, and the solution code of
    the other answer cells as plain cells (N.2's answer builds on N.1's angular velocities)."""
    solution = nbformat.read(ROOT / "solutions" / f"{NOTEBOOK}.ipynb", as_version=4)
    graded = {f(q) for q in QUESTIONS for f in (_answer_id, _check_id)}
    last = max(i for i, cell in enumerate(solution.cells)
               if _nbgrader_cell(cell).get("grade_id") == _check_id(QUESTIONS[-1]))
    cells = []
    for cell in solution.cells[:last + 1]:
        if cell.cell_type != "code":
            continue
        if _nbgrader_cell(cell).get("grade_id") in graded or not _nbgrader_cell(cell):
            cells.append(cell)
        elif _nbgrader_cell(cell).get("solution"):
            cells.append(nbformat.v4.new_code_cell(solution_code(cell)))
    return nbformat.from_dict(dict(solution, cells=cells))


def symbolic(question: str) -> bool:
    return keys()[question]["kind"] == "symbolic"


def shared_points(question: str) -> float:
    """The points of the parts of ``question`` that every student shares (:data:`SHARED`)."""
    key = keys()[question]
    return sum(float(key["points"]) / len(key["parts"]) for part in key["parts"]
               if part["name"] in SHARED)


def shipped_answer(question: str, student: str):
    """The answer the shipped key of ``question`` gives at ``student``'s practice values (two
    lines unseal it): a number, or the parts as SymPy matrices and expressions."""
    from dynlab.grading.compare import at_given
    from dynlab.grading.keys import reference
    if not symbolic(question):
        return unsealed(question, student)
    key, given = keys()[question], dict(variant(question, student=student))
    parts = []
    for part in key["parts"]:
        entries = at_given(key, reference(key)[part["name"]], given)
        shape = part["shape"]
        parts.append(entries[0] if not shape else sympy.Matrix(*shape, entries)
                     if len(shape) == 2 else sympy.Matrix(entries))
    return tuple(parts)


def typed(name: str, answer) -> str:
    """An answer cell that types ``answer`` in: a number, or SymPy's printing of each part
    (the names of the notebook's set-up cell; ``pi`` and ``sqrt`` from SymPy: N.1's twisted
    axis prints sin and cos of its angle as square roots)."""
    if not isinstance(answer, tuple):
        return f"{name} = {answer!r}"
    return f"from sympy import pi, sqrt\n{name} = ({', '.join(str(part) for part in answer)},)"


def alices_numbers() -> dict:
    """``{question: alice's right answer}``, from her graded values (by hand:
    tests/course/test_variants.py, tests/course/test_variants_recursions.py)."""
    return {q: right(q, variant(q, student="alice", secret=SECRET)) if symbolic(q)
            else float(right_answer(q, variant(q, student="alice", secret=SECRET)))
            for q in QUESTIONS}


def graded(student: str, question: str) -> dict:
    return dict(variant(question, student=student, secret=SECRET))


def submissions(release: Path, source: nbformat.NotebookNode) -> dict:
    """``{student: notebook}``: the release with each answer cell's stub replaced by the solution
    code (alice, bob), by alice's answer typed in (carol), or by the shipped key's answer at the
    student's practice values (dave)."""
    solved = {cell.metadata.nbgrader.grade_id: solution_code(cell) for cell in source.cells
              if _nbgrader_cell(cell).get("solution")}
    copied, unsealing, numbers = {}, {}, alices_numbers()
    for cell in source.cells:
        match = check_line(cell) if cell.cell_type == "code" else None
        if match and match.group(1) in QUESTIONS:
            question, name = match.groups()
            copied[_answer_id(question)] = typed(name, numbers[question]) + "     # alice's"
            unsealing[_answer_id(question)] = typed(name, shipped_answer(question, "dave"))
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
    keys = instructor_folder(tmp_path_factory.mktemp("instructor") / "keys", SECRET)
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
        number = shipped_answer(question, "dave")
        result = points_of_data(question, serialize(number), student="dave")      # the shipped keys
        assert result.total == sum(result.maximum.values()) > 0, (question, result.reasons)
    use_keys(instructor_folder(tmp_path / "keys", SECRET))
    try:
        for question, number in alices_numbers().items():
            result = points_of_data(question, serialize(number), student="alice")
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
        assert f"Your values for {question} (student {student!r}):" in shown
        for name, value in graded(student, question).items():
            assert f"  {name} = {value:g} " in shown, (question, name, shown)


@pytest.mark.parametrize("student", ["carol", "dave"])
def test_alices_numbers_and_the_shipped_keys_answers_score_0(course, student):
    assert _scores(course, student) == {_check_id(q): shared_points(q) for q in QUESTIONS}
    autograded = _autograded(course, student)
    assert not [output for cell in autograded.cells for output in cell.get("outputs", [])
                if output.output_type == "error"]
    feedback = {check_line(cell).groups(): "\n".join(
        output.get("data", {}).get("text/plain", "") for output in cell.outputs)
        for cell in autograded.cells if _nbgrader_cell(cell).get("grade")}
    assert len(feedback) == len(QUESTIONS)
    for (question, name), shown in feedback.items():    # handed in and read, and wrong for her
        if not symbolic(question):
            assert f"{name} is wrong" in shown, (question, shown)
            continue
        for part in keys()[question]["parts"]:
            assert f"{part['name']}: correct" in shown if part["name"] in SHARED else \
                f"{part['name']}: correct" not in shown and part["name"] in shown, \
                (question, part["name"], shown)
