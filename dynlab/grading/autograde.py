"""The hidden check of an nbgrader check cell: ``dynlab.grading.autograde.points("3.16c", (D, h,
c))`` between ``### BEGIN/END HIDDEN TESTS``.

Under ``nbgrader autograde`` :func:`points` only hands the answer out as data (:func:`export`,
MIME :data:`MIME`) and writes :data:`UNSCORED` to stderr;
:class:`dynlab.grading.nbgrader_scoring.ScoreExportedAnswers` scores it outside the kernel.
Elsewhere it grades the answer at once and returns the points.

>>> import sympy
>>> M, a = sympy.symbols("M a", positive=True)
>>> right = sympy.Rational(2, 3) * M * a**2 * sympy.eye(3)
>>> points("3.5", (right, right), show=False)        # I_centre right, I_O wrong: half
1.0
>>> points("3.5", ..., show=False)
0.0
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import warnings

from dynlab.grading.limits import HIDDEN_TIME_LIMIT

#: The MIME type of an answer handed out of the kernel under nbgrader.
MIME = "application/vnd.dynlab.export+json"
#: What the hidden check writes to standard error under nbgrader (nbgrader then gives 0 unless
#: the scoring step replaces the cell's outputs).
UNSCORED = ("dynlab: this answer is scored by dynlab.grading.nbgrader_scoring.ScoreExportedAnswers "
            "in the course's autograde pipeline (nbgrader_config.py); without it the cell gets 0")


def under_nbgrader() -> bool:
    """Whether this kernel runs under ``nbgrader autograde``."""
    return os.environ.get("NBGRADER_EXECUTION") == "autograde"


def export(question: str, answer, symbols=...) -> None:
    """Show ``answer`` as data for the scoring step (a string read as an expression in
    ``symbols``, by default the question's in the keys here, in the kernel; None: a string
    stays text); an answer that cannot be read is shown as an error text, which scores 0."""
    from IPython.display import display
    try:
        from dynlab.grading.answers import serialize
        if symbols is ...:
            from dynlab.grading.keys import keys
            key = keys().get(question, {})             # a question of the instructor's own
            symbols = None if key.get("kind") == "choice" else key.get("symbols", [])
        data = {"question": question, "answer": serialize(answer, symbols=symbols)}
    except BaseException as error:                         # noqa: BLE001 - 0, never a crash
        data = {"question": question,
                "error": f"the answer could not be read ({type(error).__name__}: {error})"}
    display({MIME: json.dumps(data), "text/plain": f"[answer to {question} handed in]"},
            raw=True)


def points(question: str, answer, *, show: bool = True,
           time_limit: float = HIDDEN_TIME_LIMIT) -> float:
    """The points ``answer`` earns for ``question`` (0 when anything goes wrong), after showing
    the feedback (``show``).  Under nbgrader: :func:`export` the answer, and None."""
    if under_nbgrader():
        export(question, answer)
        sys.stderr.write(UNSCORED + "\n")
        return None
    feedback = None
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        try:
            from dynlab.grading.check import check
            feedback = check(question, answer, time_limit=time_limit, strict=False)
            earned = float(feedback.points)
        except BaseException:                              # noqa: BLE001 - no error, 0 points
            earned = 0.0
        if show and feedback is not None:
            try:
                from IPython.display import display
                display(feedback)
            except BaseException:                          # noqa: BLE001
                pass
    return earned
