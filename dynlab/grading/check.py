"""Checking one answer: :func:`check` gives a :class:`Feedback` (what is wrong, points per part),
:func:`summary` the points of a session's checks (a :class:`Session`: a notebook kernel's own)."""

from __future__ import annotations

import contextlib
import io
import os
import sys
import time
import warnings
from dataclasses import dataclass, field
from typing import Any

from dynlab.grading.compare import expected_text, grade, not_answered_text, prepare
from dynlab.grading.keys import (
    NotAnswered,
    Unusable,
    answers_at,
    keys,
    note,
    part_points,
    questions,
)
from dynlab.grading.limits import EXACT_BUDGET, TIME_LIMIT, run_limited

#: Environment variable that makes a check which is not correct raise (for nbgrader).
STRICT_VARIABLE = "DYNLAB_STRICT_GRADING"


class AnswerError(AssertionError):
    """Raised by :func:`check` in strict mode (``DYNLAB_STRICT_GRADING=1``) for an answer that is
    not correct, so nbgrader's autograder gives the grade cell no points."""


# -- results ------------------------------------------------------------------------------------
@dataclass
class Feedback:
    """The outcome of one :func:`check`: true when the answer is right."""

    question: str
    status: str                   # "correct", "incorrect", "not answered" or "not graded"
    points: float
    max_points: float
    messages: list = field(default_factory=list)
    seconds: float = 0.0
    parts: dict = field(default_factory=dict)    # part -> points given (of part_points(key))
    takeaway: str = ""            # what the question teaches, shown once the answer is right

    def __bool__(self) -> bool:
        return self.status == "correct"

    @property
    def correct(self) -> bool:
        return self.status == "correct"

    def __str__(self) -> str:
        mark = "✓" if self.correct else "✗"
        head = f"{self.question}  {mark} {_points(self.points)}/{_points(self.max_points)} points"
        if self.status == "not answered":
            head += " -- not answered yet"
        if len(self.messages) == 1 and (self.correct or self.status == "not answered"):
            text = f"{head}: {self.messages[0]}" if self.messages[0] else head
        else:
            text = "\n".join([head] + [f"  {line}" for line in self.messages])
        return f"{text}\n\n{self.takeaway}" if self.takeaway else text

    __repr__ = __str__

    def _repr_html_(self) -> str:
        import html
        colour = "#e6f4ea" if self.correct else (
            "#f1f3f4" if self.status == "not answered" else "#fce8e6")
        text = html.escape(str(self).split("\n\n")[0])
        shown = (f'<pre style="background:{colour};padding:0.4em;white-space:pre-wrap">'
                 f"{text}</pre>")
        if self.takeaway:             # Markdown with $...$: JupyterLab typesets it in HTML
            paragraphs = "".join(f"<p>{html.escape(p)}</p>" for p in self.takeaway.split("\n\n"))
            shown += f'<div class="dynlab-takeaway">{paragraphs}</div>'
        return shown


def _points(value: float) -> str:
    return f"{value:g}"


@dataclass
class Summary:
    """Points per question of one notebook, from this session's checks (nbgrader's points)."""

    notebook: str
    rows: list                    # (question, title, points, max points, status)

    @property
    def points(self) -> float:
        return sum(row[2] for row in self.rows)

    @property
    def max_points(self) -> float:
        return sum(row[3] for row in self.rows)

    def __str__(self) -> str:
        width = max([len("question")] + [len(r[0]) for r in self.rows])
        lines = [f"Score for {self.notebook}: {_points(self.points)}/{_points(self.max_points)} "
                 f"points",
                 f"  {'question'.ljust(width)}  points  status"]
        for question, title, points, maximum, status in self.rows:
            score = f"{_points(points)}/{_points(maximum)}"
            lines.append(f"  {question.ljust(width)}  {score.rjust(6)}  {status}")
        return "\n".join(lines)

    __repr__ = __str__


@dataclass
class Session:
    """The checks of one session: the last :class:`Feedback` of each question checked, which
    :func:`check` records and :func:`summary` adds up.  A notebook's kernel has one, kept on its
    IPython shell (:func:`notebook_session`); elsewhere a check records into the session given.

    >>> session = Session()
    >>> _ = check("3.12", ..., session=session)
    >>> _ = check("3.11", None, session=session)
    >>> print(summary("03_probing_and_other_arms", session))  # doctest: +NORMALIZE_WHITESPACE
    Score for 03_probing_and_other_arms: 0/9 points
      question  points  status
      3.11         0/3  not answered
      3.12         0/1  not answered
      3.18         0/3  not checked yet
      6-4-1        0/2  not checked yet
    """

    results: dict = field(default_factory=dict)   # question -> its last Feedback


def notebook_session() -> Session | None:
    """The session of this IPython kernel (None outside one: a check there records nothing)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return None
    if not isinstance(getattr(shell, "dynlab_session", None), Session):
        shell.dynlab_session = Session()
    return shell.dynlab_session


def summary(notebook: str, session: Session | None = None) -> Summary:
    """The score of the checks of ``session`` (by default this notebook's) for the questions of
    ``notebook`` (a file stem of ``solutions/`` and ``exercises/``): one row per question with
    its nbgrader points (example: :class:`Session`)."""
    session = session or notebook_session() or Session()
    rows = []
    for question in questions(notebook):
        key = keys()[question]
        result = session.results.get(question)
        if result is None:
            rows.append((question, key["title"], 0.0, float(key["points"]), "not checked yet"))
        else:
            rows.append((question, key["title"], result.points, result.max_points,
                         result.status))
    return Summary(notebook, rows)


# -- checking -------------------------------------------------------------------------------------
def check(question: str, answer: Any, *, time_limit: float | None = TIME_LIMIT,
          strict: bool | None = None, student: str | None = None,
          session: Session | None = None) -> Feedback:
    """Grade ``answer`` to ``question`` and say what is wrong with it (never raises, except in
    strict mode for nbgrader, :class:`AnswerError`), recorded in ``session`` (by default this
    notebook's, :func:`notebook_session`).  The check runs in a child process killed after
    ``time_limit`` seconds of CPU (:mod:`dynlab.grading.limits`); each part that is right
    earns its share of the points.  A question with parameters is graded at the values
    ``variant(question)`` shows in this kernel: the practice values, the same for every student
    (:mod:`dynlab.grading.variants`), unless a grader handed it a student's own.

    >>> print(check("no such question", 1))        # doctest: +ELLIPSIS
    no such question  ✗ 0/0 points
      There is no question 'no such question'; the questions are ...
    """
    given = None
    key = keys().get(question) if isinstance(question, str) else None
    if key is not None and key.get("parameters"):
        from dynlab.grading.variants import variant
        given = dict(variant(question, student=student))
    feedback = _check(question, answer, given, time_limit)
    session = session or notebook_session()
    if session is not None and (feedback.max_points or feedback.status != "not graded"):
        session.results[feedback.question] = feedback
    if strict is None:
        strict = os.environ.get(STRICT_VARIABLE, "") not in ("", "0")
    if strict and not feedback.correct:
        raise AnswerError(str(feedback))
    return feedback


def _check(question, answer, given: dict | None, time_limit: float | None) -> Feedback:
    """The feedback of ``answer`` against the givens ``given`` (``{name: value}`` of the
    question's parameters), timed."""
    start = time.perf_counter()
    feedback = _feedback(question, answer, given, time_limit)
    feedback.seconds = time.perf_counter() - start
    return feedback


def _feedback(question, answer, given: dict | None, time_limit: float | None) -> Feedback:
    key = keys().get(question) if isinstance(question, str) else None
    if key is None:
        known = ", ".join(questions())
        return Feedback(str(question), "not graded", 0.0, 0.0,
                        [f"There is no question {question!r}; the questions are {known}"])
    maximum = float(key["points"])
    shares = part_points(key)
    if key.get("parameters") and given is None:
        return Feedback(question, "not graded", 0.0, maximum,
                        ["no values of the question's givens to grade against"])
    if not answers_at(key, given):
        return Feedback(question, "not graded", 0.0, maximum,
                        ["this check knows the answer at the practice values only; your "
                         "instructor grades your notebook at your own values"])
    if key["kind"] != "choice":        # the reference, compiled once here, inherited by children
        with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
            warnings.simplefilter("ignore")            # nothing on stderr (nbgrader: 0 points)
            prepare(key, given)
    outcome, result = run_limited(lambda: _outcome(key, answer, time_limit, given), time_limit)
    right = []
    if outcome == "done":
        status, messages, right = result
    elif outcome == "out of time":
        status, messages = "not graded", [
            f"Checking took longer than {time_limit:g} s, so it was stopped. Simplify the answer "
            f"(sympy.simplify, or build it from smaller pieces) and check again."]
    else:
        status, messages = "not graded", [
            f"The checker could not grade this answer ({result}). Check that it is "
            f"{expected_text(key)}."]
    parts = {name: (share if name in right else 0.0) for name, share in shares.items()}
    points = maximum if status == "correct" else sum(parts.values())
    takeaway = (note(key, "takeaway") or "") if status == "correct" else ""
    return Feedback(question, status, points, maximum, messages, parts=parts, takeaway=takeaway)


def _outcome(key: dict, answer: Any, time_limit: float | None, given: dict | None = None) -> list:
    """``[status, messages, right parts]`` (run in the checking child)."""
    try:
        budget = EXACT_BUDGET if time_limit is None else max(EXACT_BUDGET, 0.4 * time_limit)
        return list(grade(key, answer, budget, given))
    except NotAnswered:
        return ["not answered", [not_answered_text(key)], []]
    except Unusable as problem:
        return ["not graded", [str(problem)], []]
    except Exception as error:                           # noqa: BLE001 - never into the notebook
        return ["not graded", [f"The checker could not grade this answer "
                               f"({type(error).__name__}: {error}). Check that it is "
                               f"{expected_text(key)}."], []]


def check_for_student(question: str, answer: Any, *, student: str,
                      time_limit: float | None = TIME_LIMIT,
                      secret: str | None = None) -> Feedback:
    """The check of ``answer`` for a grader: against the variant of ``student`` (the submitting
    student, as the grader knows them, never what the notebook says), never strict, recorded in
    no session.  With the course ``secret`` (the marks routes): the student's graded values;
    without: the practice values, as ``check()`` in their notebook.

    >>> check_for_student("D.1", 1.0, student="alice").points
    0.0
    """
    from dynlab.grading.variants import graded_values, practice_values
    if not isinstance(student, str) or not student:
        raise ValueError("student: give the submitting student's id")
    key = keys().get(question) if isinstance(question, str) else None
    given = None
    if key is not None and key.get("parameters"):
        parameters = key["parameters"]
        given = practice_values(question, parameters) if secret is None else \
            graded_values(question, parameters, student, secret)
    return _check(question, answer, given, time_limit)


# -- hints ----------------------------------------------------------------------------------------
@dataclass
class Hint:
    """A hint for one question (Markdown text), as :func:`hint` gives it."""

    question: str
    text: str

    def __str__(self) -> str:
        return f"Hint for {self.question}: {self.text}"

    __repr__ = __str__

    def _repr_markdown_(self) -> str:
        return f"**Hint for {self.question}.** {self.text}"


def hint(question: str) -> Hint:
    """A hint for ``question``, on request: where to start, without the answer (the hint is
    sealed in the key like the reference).  A question without a stored hint gets what its
    answer must look like.

    >>> print(hint("3.16c"))                           # doctest: +ELLIPSIS
    Hint for 3.16c: ...
    >>> print(hint("no such question"))                # doctest: +ELLIPSIS
    Hint for no such question: There is no question 'no such question'; the questions are ...
    """
    key = keys().get(question) if isinstance(question, str) else None
    if key is None:
        return Hint(str(question), f"There is no question {question!r}; the questions are "
                                   f"{', '.join(questions())}")
    text = note(key, "hint")
    expected = f"The answer is {expected_text(key)}."
    return Hint(question, f"{text}\n\n{expected}" if text else expected)
