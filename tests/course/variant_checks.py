"""What the tests of each question's givens share (tests/course/test_variants_*.py): a class of
students, two of them whose graded values differ in every given, the grader's points for an
answer handed out of the kernel as data and scored outside it, and the checks every question
with givens must pass, each written once here.  The practice values are the same for every
student (:func:`dynlab.grading.variants.practice_values`); a copied answer is a matter of the
graded values, so the checks of copying grade with the instructor's keys
(:func:`instructor_keys_in_use`).

Each check takes the question and the test file's own answers written by hand:

- ``right(question, given)``: the right answer at the givens ``given`` (``{name: value}``), as the
  notebook's check cell hands it in;
- ``mistakes(question, given)``: ``[(answer, words of the feedback)]``, each typical slip at
  those givens;
- ``values(answer)``: the answer's entries (every part's) as numbers at a point of the symbols;
- ``shared``: the names of the parts whose answer no given changes (the same for every student:
  a copied answer earns exactly their points).

The checks of marks (:func:`assert_for_marks_the_practice_answer_earns_only_the_shared_parts`,
:func:`assert_the_graded_answer_differs_from_the_practice_answer`) grade at the graded values of
the course secret of tests/course/test_instructor_keys.py; the first needs its instructor's keys in
use (its ``marks`` fixture).
"""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

import numpy as np

from dynlab.grading import check, keys, variant
from dynlab.grading.answers import serialize
from dynlab.grading.authoring import check_mistakes_apart
from dynlab.grading.keys import part_points, use_keys
from dynlab.grading.scoring import points_of_data as grader_score
from dynlab.grading.variants import grid_values, graded_values, practice_values, shared_name
from .test_feedback_secrecy import key_texts, leaked
from .test_instructor_keys import SECRET, instructor_folder

CLASS = [f"s{number:03d}" for number in range(12)]


def classmates(question: str) -> tuple:
    """Two students whose graded values of ``question`` differ in every given (the second from
    a class of 200: with six givens, few of 12 differ in all)."""
    first = CLASS[0]
    mine = dict(variant(question, student=first, secret=SECRET))
    other = next(s for s in (f"s{number:03d}" for number in range(1, 200)) if all(
        value != mine[name]
        for name, value in variant(question, student=s, secret=SECRET).items()))
    return first, other


@contextlib.contextmanager
def instructor_keys_in_use():
    """The instructor's keys and the course secret :data:`SECRET` in use (marks), and none
    afterwards."""
    with tempfile.TemporaryDirectory() as folder:
        use_keys(instructor_folder(Path(folder) / "keys"))
        try:
            yield
        finally:
            use_keys(None)


def points(question: str, answer, student: str) -> float:
    """The grader's points (the answer handed out of the kernel as data, scored outside it)."""
    return grader_score(question, serialize(answer), student=student).total


def full(question: str) -> float:
    return float(keys()[question]["points"])


def shared_points(question: str, shared=()) -> float:
    """The points of the parts named in ``shared`` (0 when none): what a copied answer keeps."""
    return sum(share for part, share in part_points(keys()[question]).items() if part in shared)


# -- the givens ------------------------------------------------------------------------------------
def assert_givens_on_a_round_grid(question: str) -> dict:
    """The symbolic key of ``question`` declares givens, each on a grid of at least 4 values,
    with a text and a unit, and none named as a symbol of the answer; returns them
    (``{name: spec}``) for the test's own checks (the book's values not drawn, ...)."""
    key = keys()[question]
    assert key["kind"] == "symbolic" and key["parameters"]
    for name, spec in key["parameters"].items():
        assert len(grid_values(spec)) >= 4 and spec["text"] and "unit" in spec
        assert name not in {n for n, _ in key["symbols"]}
    return key["parameters"]


def assert_the_questions_share_one_set_of_givens(name: str, questions, students) -> None:
    """``questions`` all draw the givens ``variant(name)`` names (one problem's arm or body):
    for each of ``students`` the same practice values, the same graded values, and each graded
    value differs from the practice one."""
    for student in students:
        mine = variant(name, student=student)
        assert all(shared_name(q) == name and variant(q, student=student) == mine
                   for q in questions)
        graded = variant(name, student=student, secret=SECRET)
        assert all(variant(q, student=student, secret=SECRET) == graded for q in questions)
        assert all(graded[given] != mine[given] for given in mine)


# -- (a), (b): right for me, not for a classmate ---------------------------------------------------
def assert_right_at_each_students_values(question: str, right, students) -> None:
    """The right answer at the practice values (the same for each of ``students``) earns each
    full points from the shipped keys, and the right answer at each one's graded values full
    points from the instructor's."""
    for student in students:
        assert dict(variant(question, student=student)) == practice_values(question), student
        answer = right(question, variant(question, student=student))
        assert points(question, answer, student) == full(question), student
    with instructor_keys_in_use():
        for student in students:
            answer = right(question, variant(question, student=student, secret=SECRET))
            assert points(question, answer, student) == full(question), student


def assert_a_copied_answer_earns_only_the_shared_parts(question: str, right, owner: str,
                                                       copier: str, shared=()):
    """For marks (the instructor's keys), ``owner``'s right answer at her graded values, handed
    in by ``copier`` (whose every graded given differs), earns nothing in the parts the givens
    change, only the ``shared`` parts' points; and it still earns ``owner`` full points
    afterwards (the reference is the owner's again).  Returns the copier's
    :class:`~dynlab.grading.scoring.Score` for the test's own checks."""
    with instructor_keys_in_use():
        hers = right(question, variant(question, student=owner, secret=SECRET))
        copied = grader_score(question, serialize(hers), student=copier)
        assert {part: copied.points[part] for part in copied.points if part not in shared} == \
            {part: 0.0 for part in copied.points if part not in shared}, str(copied.feedback)
        assert copied.total == sum(copied.maximum[part] for part in copied.maximum
                                   if part in shared), str(copied.feedback)
        assert points(question, hers, owner) == full(question)   # the reference is hers again
    return copied


def assert_right_for_me_and_not_for_a_classmate(question: str, right, shared=()):
    """(a) and (b) for :func:`classmates`: each one's right answer earns full points, the first
    one's graded answer copied by the second earns only the ``shared`` parts for marks; returns
    the copier's Score."""
    alice, bob = classmates(question)
    assert_right_at_each_students_values(question, right, (alice, bob))
    return assert_a_copied_answer_earns_only_the_shared_parts(question, right, alice, bob,
                                                              shared)


def assert_check_in_the_kernel_grades_the_practice_values(question: str, right, monkeypatch,
                                                          shared=()) -> None:
    """``check()`` in a kernel grades at the practice values, whoever the kernel's student
    (``DYNLAB_STUDENT``): the answer at them is right in alice's kernel and in bob's; an answer
    at alice's graded values (every given other than its practice value) earns only the
    ``shared`` parts' points there, and the check says what is wrong."""
    alice, bob = classmates(question)
    practice = right(question, variant(question))
    for student in (alice, bob):
        monkeypatch.setenv("DYNLAB_STUDENT", student)
        assert check(question, practice).correct, student
    graded = check(question, right(question, variant(question, student=alice, secret=SECRET)))
    assert graded.points == shared_points(question, shared) and not graded.correct
    assert graded.messages and graded.status == "incorrect", str(graded)


# -- (c): for marks, the graded values ------------------------------------------------------------
def assert_for_marks_the_practice_answer_earns_only_the_shared_parts(question: str, right,
                                                                     students,
                                                                     shared=()) -> None:
    """With the instructor's keys in use (the ``marks`` fixture), for each of ``students``: the
    graded values are those ``variant(..., secret=SECRET)`` shows; the right answer at the
    practice values earns only the ``shared`` parts' points, the one at the graded values full
    points."""
    parameters = keys()[question]["parameters"]
    for student in students:
        practice = practice_values(question, parameters)
        graded = graded_values(question, parameters, student, SECRET)
        assert graded == dict(variant(question, student=student, secret=SECRET))
        at_practice = grader_score(question, serialize(right(question, practice)),
                                   student=student)
        assert at_practice.total == sum(at_practice.maximum[part] for part in at_practice.maximum
                                        if part in shared), student
        assert points(question, right(question, graded), student) == full(question), student


def assert_the_graded_answer_differs_from_the_practice_answer(question: str, right, values,
                                                              students) -> None:
    """For each of ``students``, the right answers at the practice and at the graded values
    differ (by more than 1e-6 in some entry of ``values``)."""
    parameters = keys()[question]["parameters"]
    for student in students:
        practice = right(question, practice_values(question, parameters))
        graded = right(question, graded_values(question, parameters, student, SECRET))
        assert np.abs(values(practice) - values(graded)).max() > 1e-6, student


# -- (d): the typical mistakes --------------------------------------------------------------------
def assert_no_grid_value_makes_a_typical_mistake_right(question: str, right, mistakes,
                                                       values) -> None:
    """At every combination of the givens' grids, each typical mistake differs from the right
    answer (their ``values``) as the keys' builder requires of the keys' own mistakes
    (:func:`dynlab.grading.authoring.check_mistakes_apart`)."""
    parameters = keys()[question]["parameters"]

    def evaluate(grid):
        students = [dict(zip(parameters, combination))
                    for combination in zip(*(grid[name] for name in parameters))]
        slips = [mistakes(question, given) for given in students]
        return ({"answer": np.array([values(right(question, given)) for given in students]).T},
                [("answer", np.array([values(slip[index][0]) for slip in slips]).T, words)
                 for index, (_, words) in enumerate(slips[0])])
    check_mistakes_apart(question, parameters, evaluate)


def assert_every_typical_mistake_is_named(question: str, mistakes, students) -> None:
    """Each typical mistake at each of ``students``'s practice values, scored by the grader for
    that student, is wrong and its feedback holds the mistake's words."""
    for student in students:
        given = dict(variant(question, student=student))
        for answer, words in mistakes(question, given):
            feedback = grader_score(question, serialize(answer), student=student).feedback
            assert not feedback.correct and words in str(feedback), (student, words,
                                                                      str(feedback))


# -- the feedback keeps the key secret ------------------------------------------------------------
def assert_the_feedback_prints_no_term_of_the_key(question: str, right, wrong,
                                                  monkeypatch) -> None:
    """In a student's kernel, each of ``wrong(answer)`` (wrong answers made from the right
    ``answer`` at the practice values) is wrong and its feedback prints no text of the key
    (tests/course/test_feedback_secrecy.py's ``key_texts``)."""
    key = keys()[question]
    monkeypatch.setenv("DYNLAB_STUDENT", classmates(question)[0])
    secrets = key_texts(key)
    for answer in wrong(right(question, variant(question))):
        feedback = check(question, answer)
        assert not feedback.correct
        text = "\n".join(feedback.messages)
        assert not leaked(text, secrets), (leaked(text, secrets), text)
