"""The points of an answer handed out of a student's kernel as data, for both summative routes:
rebuilt without eval (:func:`dynlab.grading.answers.deserialize`) and checked here, outside the
kernel.  A string arriving for a question that is not a multiple choice is refused (0 points).

>>> import sympy
>>> from dynlab.grading.answers import serialize
>>> M, a = sympy.symbols("M a", positive=True)
>>> centre = sympy.Rational(2, 3) * M * a**2 * sympy.eye(3)
>>> points_of_data("3.5", serialize((centre, centre))).points         # I_centre right, I_O wrong
{'I_O': 0.0, 'I_centre': 1.0}
>>> points_of_data("3.5", {"value": "__import__('os').system('true')"}).points
{'I_O': 0.0, 'I_centre': 0.0}
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dynlab.grading.answers import deserialize
from dynlab.grading.limits import CHECK_TIME_LIMIT


@dataclass
class Score:
    """The points of one question, part by part, and why some could not be given."""

    question: str
    points: dict                      # part -> points
    maximum: dict                     # part -> the most it can earn
    reasons: list = field(default_factory=list)
    feedback: object = None           # the check's Feedback (None when nothing was checked)

    @property
    def total(self) -> float:
        return sum(self.points.values())


def _no_text(value, choice: bool):
    """``value``, refused if it holds text where an expression is asked."""
    if isinstance(value, str) and not choice:
        raise ValueError("a text answer reached the grader unread (a string is read as an "
                         "expression in the notebook's kernel)")
    if isinstance(value, (list, tuple)):
        for item in value:
            _no_text(item, choice)
    if isinstance(value, dict):
        for item in value.values():
            _no_text(item, choice)
    return value


def points_of_data(question: str, data, *, student: str | None = None,
                   time_limit: float = CHECK_TIME_LIMIT) -> Score:
    """The points ``data`` (an answer as :func:`serialize` gives it, or None when the submission
    handed none out) earns for ``question``.  ``student`` names whose submission it is (for a
    question whose values differ per student).

    With the instructor's keys in use (:func:`dynlab.grading.keys.use_keys`: marks), the key is
    theirs and a question with givens is graded against the student's graded values, drawn from
    the course secret of their folder; a question their folder lacks scores 0.  Without them
    (formative grading), the keys shipped with dynlab and the practice values."""
    from dynlab.grading.check import check_for_student
    from dynlab.grading.keys import course_secret, instructor_key, keys, part_points, summative
    from dynlab.grading.variants import student_id
    key = keys()[question]
    shares = part_points(key)
    result = Score(question, {part: 0.0 for part in shares}, dict(shares))
    if summative() and not instructor_key(question):
        result.reasons.append(f"{question}: the instructor's keys hold no key of it (only "
                              f"the formative one shipped with dynlab, which students have)")
        return result
    if not (isinstance(data, dict) and len(data) == 1):
        result.reasons.append(f"{question}: no answer was handed out")
        return result
    choice = key["kind"] == "choice"
    feedback = check_for_student(question, lambda: _no_text(deserialize(data), choice),
                                 student=student or student_id(), time_limit=time_limit,
                                 secret=course_secret())
    result.feedback = feedback
    result.points = {part: float(feedback.parts.get(part, 0.0)) for part in shares}
    if feedback.correct:
        result.points = dict(shares)
    elif feedback.status == "not graded":
        result.reasons.append(f"{question}: {feedback.messages[0]}")
    return result
