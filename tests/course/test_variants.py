"""Variants (issue 24, item 5; issue 40, item 7): the givens of every question with parameters
have practice values, one set for everyone, which check() and formative grading use, and graded
values per student, drawn from the student id and the course secret, which marks use; a number
copied from a classmate scores 0 for marks (here for D.1, D.2, S.1 and S.2, whose answers this
file derives by hand; the other questions with givens have test files of their own, e.g.
tests/course/test_variants_numeric_a.py).  (The instructor's keys and the shipped ones are tested in
tests/course/test_instructor_keys.py.)"""

import math

import pytest
from scipy.special import ellipk

from dynlab.grading import (Session, check, check_for_student, keys, student_id, summary,
                            variant)
from dynlab.grading.variants import PRACTICE_SALT, draw, practice_values


G0 = 9.8062
#: Every question with givens (its key has parameters)
VARIANT_QUESTIONS = tuple(q for q, key in keys().items() if key.get("parameters"))
#: The questions whose answers :func:`right_answer` derives by hand
BY_HAND = ("D.1", "D.2", "S.1", "S.2")
CLASS = [f"s{number:04d}" for number in range(40)]


def right_answer(question: str, given: dict) -> float:
    """The answer for these givens, by hand: Fu, Gonzalez & Lee, Eq. (3.2-34) and the worked
    example of Sec. 3.2.6 at the dashboard's opening posture (q = (pi/3, -pi/3), l = 1 m,
    m1 = 2 kg); chapter 07's exact period of the rod (a = 0.5 m); Lynch & Park's Euler steps
    (Sec. 8.5) on the rod released at rest from q = 0 (qdd = -3 g cos q / (2 a), E = m a^2 qd^2 / 6
    + m g (a/2) sin q)."""
    if question == "S.2":
        q, qd = 0.0, 0.0
        for _ in range(200):                                  # 2 s in steps of 0.01 s
            q, qd = q + 0.01 * qd, qd + 0.01 * (-3 * G0 * math.cos(q) / (2 * 0.5))
        return given["m1"] * (0.5**2 * qd**2 / 6 + G0 * 0.5 / 2 * math.sin(q))
    if question == "D.1":
        return G0 * ((1.0 + given["m2"] + given["Mp"]) * math.cos(math.pi / 3)
                     + (given["m2"] / 2 + given["Mp"]) * math.cos(0.0))
    if question == "D.2":
        return 1.0 * math.sin(-math.pi / 3) * given["qd1"]**2 / 2
    small = 2 * math.pi * math.sqrt(2 * 0.5 / (3 * G0))
    return small * 2 / math.pi * ellipk(math.sin(math.radians(given["amplitude"]) / 2)**2)


#: A course secret of these tests (the graded values)
COURSE = "course 2026"


def two_students_with_different_values(question: str) -> tuple:
    """Two students whose graded values (under :data:`COURSE`) differ."""
    first = CLASS[0]
    other = next(s for s in CLASS[1:] if dict(variant(question, student=s, secret=COURSE))
                 != dict(variant(question, student=first, secret=COURSE)))
    return first, other


def test_every_question_with_givens_is_one_of_ours():
    assert set(BY_HAND) <= set(VARIANT_QUESTIONS)


@pytest.fixture
def course_keys(tmp_path):
    """The instructor's keys in use (the shipped ones answer the practice values only), with the
    course secret :data:`COURSE`, and none afterwards."""
    from dynlab.grading.keys import use_keys
    from .test_instructor_keys import instructor_folder
    use_keys(instructor_folder(tmp_path / "keys", COURSE))
    yield
    use_keys(None)


@pytest.mark.parametrize("question", BY_HAND)
def test_a_number_copied_from_a_classmate_scores_0_for_marks(question, course_keys):
    alice, bob = two_students_with_different_values(question)
    answer = right_answer(question, variant(question, student=alice, secret=COURSE))
    assert check_for_student(question, answer, student=alice, secret=COURSE).correct
    copied = check_for_student(question, answer, student=bob, secret=COURSE)
    assert copied.points == 0 and not copied.correct, str(copied)
    bobs = right_answer(question, variant(question, student=bob, secret=COURSE))
    assert check_for_student(question, bobs, student=bob, secret=COURSE).correct


@pytest.mark.parametrize("question", VARIANT_QUESTIONS)
def test_the_values_are_the_same_every_time_on_the_grid_and_spread_over_the_class(question):
    """The practice values: one set on the grids, the same for every student; the graded ones:
    the same every time, on the grids and spread over the class."""
    spec = keys()[question]["parameters"]

    def on_the_grid(given):
        for name, value in given.items():
            low, high, step = spec[name]["low"], spec[name]["high"], spec[name]["step"]
            assert low - 1e-9 <= value <= high + 1e-9
            assert abs((value - low) / step - round((value - low) / step)) < 1e-9
        return tuple(sorted(given.items()))

    assert {on_the_grid(variant(question, student=s)) for s in CLASS} == \
        {on_the_grid(practice_values(question))}
    seen = set()
    for student in CLASS:
        given = variant(question, student=student, secret=COURSE)
        assert given == variant(question, student=student, secret=COURSE)
        seen.add(on_the_grid(given))
    # every combination of the grids but those sharing a value with the practice values
    graded = math.prod(int(round((s["high"] - s["low"]) / s["step"])) for s in spec.values())
    assert len(seen) >= min(graded, 3) and len(seen) > 1


def test_the_practice_values_come_from_the_public_salt_and_the_secret_changes_the_graded():
    spec = keys()["D.1"]["parameters"]
    practice = draw("D.1", spec, "", PRACTICE_SALT)            # for no student
    assert [dict(variant("D.1", student=s)) for s in CLASS] == [practice] * len(CLASS)
    ours = [dict(variant("D.1", student=s, secret=COURSE)) for s in CLASS]
    theirs = [dict(variant("D.1", student=s, secret="another course")) for s in CLASS]
    assert ours != theirs and practice not in ours


def test_the_secret_in_the_environment_changes_nothing(monkeypatch):
    """A student's kernel never reads a course secret (the old DYNLAB_COURSE_SECRET)."""
    monkeypatch.setenv("DYNLAB_COURSE_SECRET", COURSE)
    assert [dict(variant("S.1", student=s)) for s in CLASS] == \
        [practice_values("S.1")] * len(CLASS)


def test_the_student_id_is_dynlab_student_then_jupyterhub_user_then_the_login(monkeypatch):
    import getpass
    monkeypatch.setenv("DYNLAB_STUDENT", "alice")
    monkeypatch.setenv("JUPYTERHUB_USER", "hub-alice")
    assert student_id() == "alice"
    monkeypatch.delenv("DYNLAB_STUDENT")
    assert student_id() == "hub-alice"
    monkeypatch.delenv("JUPYTERHUB_USER")
    monkeypatch.setattr(getpass, "getuser", lambda: "login-alice")
    assert student_id() == "login-alice"


def test_check_grades_the_practice_values_in_every_kernel(monkeypatch):
    alice, bob = two_students_with_different_values("D.1")
    answer = right_answer("D.1", variant("D.1", student=alice))
    for student in (alice, bob):
        monkeypatch.setenv("DYNLAB_STUDENT", student)
        assert check("D.1", answer).correct
    graded = check("D.1", right_answer("D.1", variant("D.1", student=alice, secret=COURSE)))
    assert graded.points == 0 and graded.status == "incorrect"


def test_check_for_student_is_for_the_grader_and_leaves_the_session_alone(monkeypatch):
    import importlib
    checking = importlib.import_module("dynlab.grading.check")
    session = Session()
    monkeypatch.setattr(checking, "notebook_session", lambda: session)   # as in a kernel
    answer = right_answer("D.2", variant("D.2", student="alice"))
    assert check_for_student("D.2", answer, student="alice").correct
    assert "D.2          0/1  not checked yet" in str(summary(
        "06_dalembert_newton_euler_and_simulation"))
    assert check("D.2", answer).correct
    assert "D.2          1/1  correct" in str(summary("06_dalembert_newton_euler_and_simulation"))
    for bad in ("", None, 3):
        with pytest.raises(ValueError, match="student"):
            check_for_student("D.2", answer, student=bad)


def test_the_variant_shows_the_givens_with_their_meaning_and_whose_they_are():
    text = str(variant("D.1", student="alice"))
    assert text.startswith("Practice values for D.1 (the same for everyone; when your notebook "
                           "is graded it runs again with values of your own):")
    assert "m2 = " in text and " kg   (the mass of link 2)" in text
    assert str(variant("D.1", student="alice", secret=COURSE)).startswith(
        "Your values for D.1 (student 'alice'):")
    assert "amplitude = " in str(variant("S.1", student="alice")) and "degrees" in \
        str(variant("S.1", student="alice"))
    with pytest.raises(ValueError, match="question"):
        variant("no such question", student="alice")


def test_the_stored_notebooks_run_as_the_student_student():
    """conftest.py fixes the student, so nbval's run shows the same givens on every machine."""
    assert student_id() == "student"


def _submission(path, answer_source: str) -> None:
    """A submitted notebook of 06 that answers D.1 only (its check cell keeps its grade id)."""
    import nbformat
    check_cell = nbformat.v4.new_code_cell('check("D.1", c1)')
    check_cell.metadata["nbgrader"] = {"grade": True, "grade_id": "check-D_1", "locked": True,
                                       "points": 1, "schema_version": 3, "solution": False,
                                       "task": False}
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("from dynlab.grading import check, variant"),
        nbformat.v4.new_code_cell(answer_source), check_cell])
    path.parent.mkdir(parents=True)
    nbformat.write(notebook, path)


@pytest.mark.end_to_end
def test_dynlab_grade_grades_against_the_submitting_students_variant(tmp_path):
    """For marks, the grading kernel computes with the submitting student's graded givens (from
    the folder name, not from the notebook), and the grade is against them: a method run with
    one's own givens is right, a classmate's number is 0."""
    from dynlab.grading import grade_submissions
    from dynlab.grading.keys import use_keys
    from .test_instructor_keys import instructor_folder
    alice, bob = two_students_with_different_values("D.1")
    name = "06_dalembert_newton_euler_and_simulation.ipynb"
    method = ('given = variant("D.1")\n'
              'c1 = 9.8062 * ((1 + given["m2"] + given["Mp"]) * 0.5 + given["m2"] / 2 + '
              'given["Mp"])')
    copied = right_answer("D.1", variant("D.1", student=alice, secret=COURSE))
    submissions = tmp_path / "submissions"
    _submission(submissions / alice / name, method)
    _submission(submissions / bob / name, method)
    carol = next(s for s in reversed(CLASS) if s not in (alice, bob) and
                 dict(variant("D.1", student=s, secret=COURSE))
                 != dict(variant("D.1", student=alice, secret=COURSE)))
    _submission(submissions / carol / name, f"c1 = {copied!r}     # alice's number")
    try:
        book = grade_submissions([submissions], workers=1, notebook_time_limit=120,
                                 keys=instructor_folder(tmp_path / "keys", COURSE))
    finally:
        use_keys(None)
    points = {student: book.question_points(student)["D.1"] for student in book.rows}
    assert points == {alice: 1.0, bob: 1.0, carol: 0.0}, (points, book.notes)
