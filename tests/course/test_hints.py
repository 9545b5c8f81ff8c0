"""Progressive disclosure: ``hint()`` on request, and the takeaway once the answer is right.

Both are sealed in the keys like the references (``tests/grading/test_grading.py`` checks that no
key holds readable text): the takeaway appears only in the feedback of a right answer.
"""

import sys
from pathlib import Path

import sympy

from dynlab.grading import check, hint, keys, questions, variant
from dynlab.grading.keys import note

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import make_answer_keys  # noqa: E402

M, a = sympy.symbols("M a", positive=True)
I_CENTRE = sympy.Rational(2, 3) * M * a**2 * sympy.eye(3)
# the cube of the student "student" (conftest.py), its centre at (dx a, dy a, dz a)
_D = a * sympy.Matrix([sympy.Rational(variant("3.5")[name]) for name in ("dx", "dy", "dz")])
I_O = I_CENTRE + M * ((_D.T * _D)[0] * sympy.eye(3) - _D * _D.T)          # parallel axes
TAKEAWAY_3_5 = "About the centre the three axes are alike and no product survives"


def test_the_takeaway_is_shown_once_the_answer_is_right_and_not_before():
    wrong = check("3.5", (-I_O, I_CENTRE))
    assert not wrong.correct and TAKEAWAY_3_5 not in str(wrong) + wrong._repr_html_()
    assert TAKEAWAY_3_5 not in str(check("3.5", ...))
    right = check("3.5", (I_O, I_CENTRE))
    assert right.correct and str(right).split("\n\n")[1].startswith(TAKEAWAY_3_5)
    assert TAKEAWAY_3_5 in right._repr_html_() and 'class="dynlab-takeaway"' in right._repr_html_()


def test_a_hint_is_given_on_request_and_says_where_to_start():
    text = str(hint("3.16c"))
    assert text.startswith("Hint for 3.16c: Follow the recipe of Sec. 3.2")
    assert text.endswith("The answer is a tuple (D, h, c) with D: a 2x2 matrix; h: a 2-vector; "
                         "c: a 2-vector.")
    assert hint("3.16c")._repr_markdown_().startswith("**Hint for 3.16c.**")
    assert "There is no question 'x'" in str(hint("x"))




def test_every_question_has_a_hint_and_the_key_files_notes_are_what_the_keys_hold():
    notes = {question: texts for notebook in make_answer_keys.notebooks()
             for question, texts in make_answer_keys.notes(notebook).items()}
    for question in questions():
        key = keys()[question]
        assert note(key, "hint") == notes.get(question, {}).get("hint"), question
        assert note(key, "takeaway") == notes.get(question, {}).get("takeaway"), question
        # every question of every notebook has a hint written, sealed (not readable in the key)
        assert notes[question]["hint"] and notes[question]["hint"] not in str(key), question
    assert sum("takeaway" in notes.get(q, {}) for q in questions()) >= 16


def test_ys_takeaway_recovers_the_arm_from_its_base_parameters():
    """Y's L1 is known, so pi1 = (m1 + m2) L1^2, pi2 = m2 L1 L2, pi3 = m2 L2^2 (Lynch & Park,
    Sec. 8.1.1) give m1 + m2, L2 and m2 back: the takeaway says so, with the formulas that
    invert the definitions (checked here by substitution), and no longer that no motion can
    tell the parameters apart."""
    m1, m2, L1, L2 = sympy.symbols("m1 m2 L1 L2", positive=True)
    pi1, pi2, pi3 = (m1 + m2) * L1**2, m2 * L1 * L2, m2 * L2**2
    assert sympy.simplify(pi1 / L1**2 - (m1 + m2)) == 0
    assert sympy.simplify(L1 * pi3 / pi2 - L2) == 0
    assert sympy.simplify(pi2**2 / (L1**2 * pi3) - m2) == 0
    text = note(keys()["Y"], "takeaway")
    assert "can tell" not in text
    for formula in (r"m_1 + m_2 = \pi_1/L_1^2", r"L_2 = L_1\pi_3/\pi_2",
                    r"m_2 = \pi_2^2/(L_1^2\pi_3)"):
        assert formula in text, formula
