"""The hidden check of an nbgrader check cell: the points of an answer, graded afresh.

Each check cell of ``solutions/`` ends with lines nbgrader keeps out of the release (its hidden
tests) and puts back when it autogrades a submission::

    check("3.16c", (D, h, c))
    ### BEGIN HIDDEN TESTS
    import dynlab.grading.autograde
    dynlab.grading.autograde.points("3.16c", (D, h, c))
    ### END HIDDEN TESTS

:func:`points` grades the answer with the installed dynlab (at points drawn fresh for this grade,
in a child process with a time limit), whatever the notebook did to the name ``check``; it shows
the feedback and returns the points as a float, which nbgrader takes as the cell's partial credit
(each part of the question its share).  It never raises and writes nothing to stderr (nbgrader
gives a cell that does no points).  Inside the student's kernel a determined student can still
patch dynlab itself; ``dynlab grade`` (:mod:`dynlab.grading.grader`) grades where the student
cannot reach.

>>> import sympy
>>> M, a = sympy.symbols("M a", positive=True)
>>> right = sympy.Rational(2, 3) * M * a**2 * sympy.eye(3)
>>> points("3.5", (right, right), show=False)        # I_centre right, I_corner wrong: half
1.0
>>> points("3.5", ..., show=False)
0.0
"""

from __future__ import annotations

import contextlib
import io
import warnings

#: Seconds the hidden check of one answer may take (nbgrader's own limit per cell is 30 s).
HIDDEN_TIME_LIMIT = 15.0


def points(question: str, answer, *, show: bool = True,
           time_limit: float = HIDDEN_TIME_LIMIT) -> float:
    """The points ``answer`` earns for ``question`` (0 when anything goes wrong), after showing
    the feedback (``show``)."""
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
