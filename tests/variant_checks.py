"""What the tests of each question's givens share (tests/test_variants_*.py): a class of
students, two of them whose practice values differ in every given, and the grader's points for
an answer handed out of the kernel as data and scored outside it."""

from __future__ import annotations

from dynlab.grading import keys, variant
from dynlab.grading.answers import serialize
from dynlab.grading.scoring import score as grader_score

CLASS = [f"s{number:03d}" for number in range(12)]


def classmates(question: str) -> tuple:
    """Two students whose practice values of ``question`` differ in every given."""
    first = CLASS[0]
    mine = dict(variant(question, student=first))
    other = next(s for s in CLASS[1:] if all(
        value != mine[name] for name, value in variant(question, student=s).items()))
    return first, other


def points(question: str, answer, student: str) -> float:
    """The grader's points (the answer handed out of the kernel as data, scored outside it)."""
    return grader_score(question, serialize(answer), student=student).total


def full(question: str) -> float:
    return float(keys()[question]["points"])
