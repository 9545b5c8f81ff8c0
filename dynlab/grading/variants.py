"""A variant of a question per student: the givens (a mass, a speed, an amplitude) drawn from the
student's id and the course's secret, so that a number copied from a peer scores 0.

A key may declare parameters (``make_key(..., parameters=...)``), each with its range, step, unit
and meaning.  A student's values are drawn deterministically: HMAC-SHA256 of the question and the
student id under the course secret seeds a NumPy generator, which picks each parameter from its
grid ``low, low + step, ..., high`` (round values a student can set on a slider or type in).

- **The student id** is ``DYNLAB_STUDENT`` if set (the grader sets it to the submitting student in
  the kernel it runs; a student whose course id differs from the login name sets it too), else
  ``JUPYTERHUB_USER`` (on a JupyterHub, the login is the nbgrader student id), else the name of
  the user running Python.
- **The course secret** is ``DYNLAB_COURSE_SECRET`` if set, else :data:`DEFAULT_SECRET`.  The
  instructor sets the same value where students work (e.g. the JupyterHub's environment) and where
  grading runs.  It is not hidden from students: their own check needs it.  It makes one course's
  variants differ from another's; it does not stop a student from computing a classmate's values.

What a variant protects against: a number copied from a classmate (their givens differ, so their
number is wrong for you and scores 0).  What it does not: copying a classmate's code or method (run
with your givens it gives your answer), nor a student who derives the answer with dynlab itself.

>>> given = variant("D.1", student="alice", secret="course")
>>> given == variant("D.1", student="alice", secret="course")         # the same every time
True
>>> sorted(given)
['Mp', 'm2']
>>> given["m2"] in (1.5, 2.0, 2.5, 3.0) and given["Mp"] in (0.1, 0.2, 0.3, 0.4, 0.5)
True
"""

from __future__ import annotations

import getpass
import hashlib
import hmac
import math
import os

import numpy as np

#: Environment variable holding the student id (first choice; see the module docstring).
STUDENT_VARIABLE = "DYNLAB_STUDENT"
#: Environment variable holding the course secret.
SECRET_VARIABLE = "DYNLAB_COURSE_SECRET"
#: The secret when none is set (public: set your course's own).
DEFAULT_SECRET = "dynlab"


def student_id() -> str:
    """The id whose variant this kernel uses: ``DYNLAB_STUDENT``, else ``JUPYTERHUB_USER``, else
    the user name."""
    for variable in (STUDENT_VARIABLE, "JUPYTERHUB_USER"):
        value = os.environ.get(variable, "").strip()
        if value:
            return value
    try:
        return getpass.getuser()
    except Exception:                                     # noqa: BLE001 - no user database
        return "student"


def course_secret() -> str:
    return os.environ.get(SECRET_VARIABLE, "") or DEFAULT_SECRET


class Variant(dict):
    """A student's values of a question's parameters (a dict ``{name: value}``), shown with their
    meaning and unit."""

    def __init__(self, question: str, student: str, values: dict, parameters: dict):
        super().__init__(values)
        self.question, self.student, self.parameters = question, student, parameters

    def lines(self) -> list:
        return [f"  {name} = {_number(value)} {self.parameters[name].get('unit', '')}".rstrip()
                + (f"   ({self.parameters[name]['text']})" if self.parameters[name].get("text")
                   else "") for name, value in self.items()]

    def __str__(self) -> str:
        return "\n".join([f"Your values for {self.question} (student {self.student!r}; if that "
                          f"is not your course id, set {STUDENT_VARIABLE}):"] + self.lines())

    def __repr__(self) -> str:
        return str(self)

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(str(self))


def _number(value: float) -> str:
    return f"{value:g}"


def draw(question: str, parameters: dict, student: str, secret: str) -> dict:
    """``{name: value}``: each parameter on its grid, picked by a generator seeded with
    HMAC-SHA256(secret, question and student).

    >>> draw("X", {"m": {"low": 1, "high": 2, "step": 0.5}}, "bob", "s")
    {'m': 2.0}
    """
    digest = hmac.new(secret.encode("utf-8"), f"{question}\x00{student}".encode("utf-8"),
                      hashlib.sha256).digest()
    rng = np.random.default_rng(int.from_bytes(digest, "big"))
    values = {}
    for name, spec in parameters.items():
        low, high, step = float(spec["low"]), float(spec["high"]), float(spec["step"])
        count = int(round((high - low) / step)) + 1
        decimals = max(0, -math.floor(math.log10(step) + 1e-9))
        values[name] = round(low + step * int(rng.integers(count)), decimals) + 0.0
    return values


def variant(question: str, *, student: str | None = None, secret: str | None = None) -> Variant:
    """The values of ``question``'s parameters for ``student`` (by default this kernel's, see
    :func:`student_id`): print it in the notebook to see the givens.  A question without
    parameters has an empty variant."""
    from dynlab.grading.keys import keys
    key = keys().get(question) if isinstance(question, str) else None
    if key is None:
        raise ValueError(f"question: there is no question {question!r}")
    student = student_id() if student is None else str(student)
    if not student:
        raise ValueError("student: the student id is empty")
    parameters = key.get("parameters", {})
    values = draw(question, parameters, student, course_secret() if secret is None else secret)
    return Variant(question, student, values, parameters)
