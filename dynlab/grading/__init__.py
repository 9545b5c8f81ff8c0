"""Answer checking for the graded exercises: ``check("3.16c", answer)`` says *what* is wrong.

The exercises (``exercises/``, generated from ``solutions/``) end each question with a cell
``check("<question>", answer)``.  The answer may be a SymPy expression or Matrix, a (nested) list
or tuple, a NumPy array (where numbers are asked), a string, a callable returning one of these,
a dict or a tuple of parts for a question with several parts (``(D, h, c)``), or a
:class:`dynlab.dynamics.equations.EquationsOfMotion` when the parts are ``D``, ``h`` and ``c``.

- :mod:`dynlab.grading.keys`: the keys (``dynlab/answer_keys/*.json``, written by
  :mod:`dynlab.grading.authoring` in ``tools/make_answer_keys.py`` from dynlab's own
  derivations): each part's reference sealed (:mod:`dynlab.grading.sealing`), no values at fixed
  points, no per-term values, no option texts in the clear.
- :mod:`dynlab.grading.compare`: the comparison at points drawn fresh at every check (a Latin
  hypercube over the typical ranges and points over wide ranges), exact where the numbers cannot
  decide.
- :mod:`dynlab.grading.diagnosis`: what is wrong (a sign, a factor, a missing Coriolis term,
  transposed, degrees for radians, the question's own typical mistakes).
- :mod:`dynlab.grading.limits`: every check runs in a forked child process with a hard time limit
  (by default :data:`TIME_LIMIT` seconds), so nothing an answer does reaches the notebook.
- :mod:`dynlab.grading.grader`: grading submitted notebooks on the instructor's side
  (``dynlab grade``, :func:`grade_submissions`), each in a sandbox
  (:mod:`dynlab.grading.sandbox`, made by bubblewrap) where it cannot reach the course;
  :mod:`dynlab.grading.submissions` says which files it reads and whose each is.

Each part of a question earns its share of the question's points.  Once an answer is right,
:func:`check` also shows the question's takeaway; :func:`hint` gives a hint on request (both
sealed in the key like the references).  The keys shipped with dynlab are formative: every student
has them, so they answer the practice values only.  For marks, answers are scored outside the
student's kernel, from the instructor's keys (:func:`dynlab.grading.keys.use_keys`: summative keys
kept outside the package, and the course secret from which each student's graded givens are
drawn):

- :mod:`dynlab.grading.inside`: what runs in a submission's sandbox: the notebook in a fresh
  kernel, its answers handed out as data.
- :mod:`dynlab.grading.variants`: a question's givens (``variant("D.1")``): :func:`check`
  grades at the practice values, the same for every student, the summative routes at the
  submitting student's graded values.
- :mod:`dynlab.grading.answers`: an answer carried out of a student's kernel as data (SymPy's
  ``srepr`` text), and rebuilt from SymPy classes only, without running code.
- :mod:`dynlab.grading.scoring`: the points of such an answer (the one comparison of both
  summative routes).
- :mod:`dynlab.grading.autograde`: the hidden check of an nbgrader check cell, which under
  ``nbgrader autograde`` only hands the answer out;
  :mod:`dynlab.grading.nbgrader_scoring`: the step of the course's autograde pipeline that
  scores it.  (``DYNLAB_STRICT_GRADING=1`` still makes a check that is not correct raise
  :class:`AnswerError`.)

>>> import sympy
>>> M, a = sympy.symbols("M a", positive=True)
>>> given = variant("3.5")                              # where this student's cube sits
>>> d = a * sympy.Matrix([sympy.Rational(given[name]) for name in ("dx", "dy", "dz")])
>>> I_centre = sympy.Rational(2, 3) * M * a**2 * sympy.eye(3)
>>> I_O = I_centre + M * ((d.T * d)[0] * sympy.eye(3) - d * d.T)      # parallel axes
>>> flipped = 2 * sympy.diag(*I_O.diagonal()) - I_O     # the products with the wrong sign
>>> print(check("3.5", (flipped, I_centre)))            # Prob. 3.5: a cube about the origin
3.5  ✗ 1/2 points
  I_O: the off-diagonal entries have the wrong sign: the tensor holds the NEGATED product integrals, I_xy = -int x*y dm (Fu, Gonzalez & Lee's definition of I_ij just before Eq. (3.2-18))
  I_centre: correct
>>> right = check("3.5", (I_O, I_centre))
>>> print(right)                                        # doctest: +ELLIPSIS
3.5  ✓ 2/2 points: correct (equal to the key)
<BLANKLINE>
About the centre the three axes are alike and no product survives: ...
>>> print(hint("3.5"))                                  # doctest: +ELLIPSIS
Hint for 3.5: About the centre, use the symmetry of the cube; then move to $O$ with ...
>>> print(check("3.5", ...))
3.5  ✗ 0/2 points -- not answered yet: replace the ... by your answer (a tuple (I_O, I_centre) with I_O: a 3x3 matrix; I_centre: a 3x3 matrix)
"""

from dynlab.grading.check import (STRICT_VARIABLE, TIME_LIMIT, AnswerError, Feedback, Hint,
                                  Summary, check, hint, reset, score, summary)
from dynlab.grading.compare import EXACT_TIME_LIMIT
from dynlab.grading.grader import grade_submissions
from dynlab.grading.authoring import make_choice_key, make_key, seal_notes, write_keys
from dynlab.grading.keys import (KEY_DIRECTORY, NUMERIC_TOLERANCE, TOLERANCE, canonical_form,
                                 fresh_points, keys, part_points, questions)
from dynlab.grading.limits import hard_limits
from dynlab.grading.variants import Variant, student_id, turned, variant

__all__ = ["AnswerError", "EXACT_TIME_LIMIT", "Feedback", "Hint", "KEY_DIRECTORY",
           "NUMERIC_TOLERANCE", "STRICT_VARIABLE", "Summary", "TIME_LIMIT", "TOLERANCE",
           "canonical_form", "check", "fresh_points", "grade_submissions", "hard_limits", "hint",
           "keys", "make_choice_key", "make_key", "part_points", "questions", "reset", "score",
           "seal_notes", "student_id", "summary", "turned", "Variant", "variant",
           "write_keys"]
