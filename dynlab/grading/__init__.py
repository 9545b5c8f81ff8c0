"""Answer checking for the graded exercises: ``check("3.16c", answer)`` says *what* is wrong.

Each question of the exercises ends with ``check("<question>", answer)``; each part earns its
share of the points; :func:`hint` gives a hint.  Givens: :func:`variant`; marks, at each
student's own values: :func:`grade_submissions` (ARCHITECTURE.md, "Grading").

>>> import sympy
>>> M, a = sympy.symbols("M a", positive=True)
>>> given = variant("3.5")                              # where this student's cube sits
>>> d = a * sympy.Matrix([sympy.Rational(given[name]) for name in ("dx", "dy", "dz")])
>>> I_centre = sympy.Rational(2, 3) * M * a**2 * sympy.eye(3)
>>> I_O = I_centre + M * ((d.T * d)[0] * sympy.eye(3) - d * d.T)      # parallel axes
>>> flipped = 2 * sympy.diag(*I_O.diagonal()) - I_O     # the products with the wrong sign
>>> print(check("3.5", (flipped, I_centre)))  # doctest: +NORMALIZE_WHITESPACE
3.5  ✗ 1/2 points
  I_O: the off-diagonal entries have the wrong sign: the tensor holds the NEGATED product
  integrals, I_xy = -int x*y dm (Fu, Gonzalez & Lee's definition of I_ij just before
  Eq. (3.2-18))
  I_centre: correct
>>> right = check("3.5", (I_O, I_centre))
>>> print(right)                                        # doctest: +ELLIPSIS
3.5  ✓ 2/2 points: correct (equal to the key)
<BLANKLINE>
About the centre the three axes are alike and no product survives: ...
>>> print(hint("3.5"))                                  # doctest: +ELLIPSIS
Hint for 3.5: About the centre, use the symmetry of the cube; then move to $O$ with ...
>>> print(check("3.5", ...))                         # doctest: +NORMALIZE_WHITESPACE
3.5  ✗ 0/2 points -- not answered yet: replace the ... by your answer (a tuple (I_O,
I_centre) with I_O: a 3x3 matrix; I_centre: a 3x3 matrix)
"""

from dynlab.grading.authoring import make_choice_key, make_key, seal_notes, write_keys
from dynlab.grading.check import (
                                  STRICT_VARIABLE,
                                  AnswerError,
                                  Feedback,
                                  Hint,
                                  Session,
                                  Summary,
                                  check,
                                  check_for_student,
                                  hint,
                                  summary,
)
from dynlab.grading.grader import grade_submissions
from dynlab.grading.keys import (
                                  KEY_DIRECTORY,
                                  NUMERIC_TOLERANCE,
                                  TOLERANCE,
                                  canonical_form,
                                  fresh_points,
                                  keys,
                                  part_points,
                                  questions,
)
from dynlab.grading.limits import EXACT_TIME_LIMIT, TIME_LIMIT, hard_limits
from dynlab.grading.variants import Variant, student_id, turned, variant

__all__ = ["AnswerError", "EXACT_TIME_LIMIT", "Feedback", "Hint", "KEY_DIRECTORY",
           "NUMERIC_TOLERANCE", "STRICT_VARIABLE", "Session", "Summary", "TIME_LIMIT", "TOLERANCE",
           "canonical_form", "check", "check_for_student", "fresh_points", "grade_submissions",
           "hard_limits", "hint", "keys", "make_choice_key", "make_key", "part_points",
           "questions", "seal_notes", "student_id", "summary", "turned", "Variant", "variant",
           "write_keys"]
