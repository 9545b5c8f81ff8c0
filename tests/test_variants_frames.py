"""Variants of Fu, Gonzalez & Lee's Probs. 3.2 and 3.3 (chapter 01, moving frames): each student's
translating frame has its own velocity ``kx t i + ky t j + 4 k`` (the book's is 3t i + 2t j + 4k),
and each student's starred frame turns at its own rate ``w`` about z (the book's omega is
(0, 0, 1)).

The right answers are written by hand from Sec. 3.3.2: a particle fixed in a frame that only
translates has the frame's acceleration (Eq. (3.3-18): a = a* + a_h, a* = 0), here (kx, ky, 0);
a particle at rest in a frame that only turns has no Coriolis term and the centripetal term
omega x (omega x r) = -w^2 (3t, 2t, 0) (Eq. (3.3-14)).  The Coriolis part of 3.3 is zero for
every student: its point is the same for the whole class.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np
import pytest
import sympy

from dynlab.grading import check, keys, reset, variant
from dynlab.grading.answers import serialize
from dynlab.grading.scoring import score as grader_score
from dynlab.grading.variants import _grid, draw, graded_values

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_feedback_secrecy import key_texts, leaked  # noqa: E402
from test_instructor_keys import SECRET, marks  # noqa: E402,F401

QUESTIONS = ("3.2", "3.3")
CLASS = [f"s{number:03d}" for number in range(12)]
t = sympy.Symbol("t", positive=True)


@pytest.fixture(autouse=True)
def fresh_session():
    reset()
    yield
    reset()


def exact(value) -> sympy.Rational:
    return sympy.Rational(repr(float(value)))


def right(question: str, given: dict) -> tuple:
    if question == "3.2":
        return (sympy.Matrix([exact(given["kx"]), exact(given["ky"]), 0]),)
    w = exact(given["w"])
    return sympy.zeros(3, 1), sympy.Matrix([-3 * w**2 * t, -2 * w**2 * t, 0])


def mistakes(question: str, given: dict) -> list:
    """``[(answer, words of the feedback)]``: each typical slip, at these givens."""
    if question == "3.2":
        kx, ky = exact(given["kx"]), exact(given["ky"])
        return [((sympy.Matrix([kx * t, ky * t, 4]),), "that is the velocity"),
                ((sympy.Matrix([kx - 1, ky + 1, 2]),), "the particle's position in frame 1 is "
                                                        "constant")]
    w = exact(given["w"])
    coriolis, centripetal = right(question, given)
    return [((sympy.Matrix([-4 * w, 6 * w, 0]), centripetal), "RELATIVE TO THE STARRED FRAME"),
            ((coriolis, sympy.Matrix([-2 * w * t, 3 * w * t, 0])), "omega x r is the velocity")]


def values(answer: tuple, at: float = 0.7) -> np.ndarray:
    return np.concatenate([np.array(part.subs(t, at), dtype=float).ravel() for part in answer])


def answer_of(question: str, parts: tuple):
    return parts[0] if question == "3.2" else parts


def classmates(question: str) -> tuple:
    first = CLASS[0]
    mine = dict(variant(question, student=first))
    other = next(s for s in CLASS[1:] if all(
        value != mine[name] for name, value in variant(question, student=s).items()))
    return first, other


def points(question: str, parts: tuple, student: str) -> float:
    return grader_score(question, serialize(answer_of(question, parts)), student=student).total


def full(question: str) -> float:
    return float(keys()[question]["points"])


#: what a copied answer still earns: 3.3's Coriolis part is zero for every student
SHARED = {"3.2": 0.0, "3.3": 1.0}


@pytest.mark.parametrize("question", QUESTIONS)
def test_each_question_declares_givens_on_a_round_grid_of_at_least_4_values(question):
    key = keys()[question]
    assert key["kind"] == "symbolic" and key["parameters"]
    for name, spec in key["parameters"].items():
        assert len(_grid(spec)) >= 4 and spec["text"] and spec["unit"]
    book = {"3.2": {"kx": 3, "ky": 2}, "3.3": {"w": 1}}[question]
    for name, value in book.items():                  # the printed problem is never drawn
        assert value not in _grid(key["parameters"][name])


@pytest.mark.parametrize("question", QUESTIONS)
def test_an_answer_with_my_numbers_is_right_for_me_and_only_shared_parts_for_a_classmate(question):
    alice, bob = classmates(question)
    hers, his = (right(question, variant(question, student=s)) for s in (alice, bob))
    assert points(question, hers, alice) == full(question)
    assert points(question, his, bob) == full(question)
    assert points(question, hers, bob) == SHARED[question]


@pytest.mark.parametrize("question", QUESTIONS)
def test_check_in_the_kernel_grades_this_kernels_student(question, monkeypatch):
    alice, bob = classmates(question)
    monkeypatch.setenv("DYNLAB_STUDENT", alice)
    hers = answer_of(question, right(question, variant(question)))
    assert check(question, hers).correct
    monkeypatch.setenv("DYNLAB_STUDENT", bob)
    assert check(question, hers).points == SHARED[question]


@pytest.mark.parametrize("question", QUESTIONS)
def test_with_the_course_secret_the_practice_answer_scores_only_shared_parts(question, marks):
    parameters = keys()[question]["parameters"]
    for student in CLASS[:4]:
        practice = draw(question, parameters, student, "dynlab")
        graded = graded_values(question, parameters, student, SECRET)
        assert points(question, right(question, practice), student) == SHARED[question]
        assert points(question, right(question, graded), student) == full(question)


@pytest.mark.parametrize("question", QUESTIONS)
def test_no_two_grid_values_share_an_answer_and_none_makes_a_mistake_right(question):
    parameters = keys()[question]["parameters"]
    seen = {}
    for combination in itertools.product(*(_grid(spec) for spec in parameters.values())):
        given = dict(zip(parameters, combination))
        reference = values(right(question, given))
        for other, earlier in seen.items():
            assert not np.allclose(reference, earlier, rtol=1e-9), (given, other)
        seen[combination] = reference
        for answer, words in mistakes(question, given):
            assert not np.allclose(values(answer), reference, rtol=1e-9), (given, words)


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_typical_mistake_is_recognised_at_other_students_values(question):
    for student in CLASS[:3]:
        given = dict(variant(question, student=student))
        for answer, words in mistakes(question, given):
            feedback = grader_score(question, serialize(answer_of(question, answer)),
                                    student=student).feedback
            assert not feedback.correct and words in str(feedback), (student, str(feedback))


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_feedback_prints_no_number_of_the_key(question, monkeypatch):
    key = keys()[question]
    for student in classmates(question):
        monkeypatch.setenv("DYNLAB_STUDENT", student)
        secrets = key_texts(key)
        parts = right(question, variant(question))
        wrong = tuple(part * sympy.Rational(7, 5) + sympy.Matrix([t**2, 0, 0]) for part in parts)
        feedback = check(question, answer_of(question, wrong))
        assert not feedback.correct
        text = "\n".join(feedback.messages)
        assert not leaked(text, secrets), (student, leaked(text, secrets), text)
