"""The answer key of a new question, in one small file: copy this file to
``tools/answer_keys/<notebook>.py`` (the stem of the notebook in ``solutions/``), fill it in and
run ``python tools/make_answer_keys.py <notebook>``.  Files whose names start with ``_`` (like this
one) are skipped.

The reference is derived here (by dynlab, or by SymPy from the question's data), never typed in
from the solution: the tests then prove the solution notebook and the key agree.  The key stores
it sealed; the checker evaluates it at points drawn fresh at every check.  The question's hint and
takeaway go into ``NOTES`` (Markdown, ``$...$`` for mathematics), sealed into the key with it.
"""

import sympy

from dynlab import equations_of_motion
from dynlab.grading import make_key
from dynlab.model.robots import pendulum

NOTEBOOK = "06_example"                 # the file stem in solutions/
NOTES = {"X.1": {"hint": "Which way does gravity pull the link, and about which joint?",
                 "takeaway": "The motor holds the arm against gravity: $c = m_1 g a_1 "
                             "\\cos q_1 / 2$."}}


def keys() -> list:
    arm = equations_of_motion(pendulum(symbolic=True))   # Schilling, Sec. 6-9
    q1 = sympy.Symbol("q1", real=True)
    gravity = arm.c[0]
    return [make_key(
        "X.1", notebook=NOTEBOOK, title="The pendulum's gravity torque", points=2,
        # every symbol the answer may use, "positive" or "real" (sets the ranges of the points)
        symbols={"m1": "positive", "a1": "positive", "g": "positive", "q1": "real"},
        angles=("q1",),                               # symbols whose sines and cosines appear
        parts=[{"name": "c", "value": gravity}],      # one entry per part, each earns its share
        # optional: typical mistakes, each recognised and explained in the feedback
        mistakes=[{"part": "c", "value": -gravity,
                   "message": "the motor holds the arm up against gravity: +c(q), not -c(q)"},
                  {"part": "c", "value": gravity.subs(sympy.cos(q1), sympy.sin(q1)),
                   "message": "q1 is measured from the horizontal here: cos q1, not sin q1"}])]
