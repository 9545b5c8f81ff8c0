"""A variant per student for the three questions of the ceiling arm that had none (issue 24, item
4): Fu, Gonzalez & Lee, Prob. 3.16(a), the link transformation matrices, Prob. 3.17(b), the inertia
tensors, and Prob. 3.13(b), why L-E and N-E write gravity with opposite signs (a choice).

- 3.16(a) and 3.17(b) ask about the arm of Probs. 3.16 and 3.17, so they share its givens
  (``variant("3.16")``): link 2 hangs ``e`` beside link 1 along the joint axis z1 (the offset d of
  joint 2 in Eq. (3.2-5); 0 in print), and each mass is a thin uniform rod of length ``w`` along
  its joint axis z_i (0 in print: points), whose tensor about its centre is m w^2/12 about x_i and
  y_i and none about z_i.
- 3.13(b)'s four explanations are shown to each student turned by ``turn`` places
  (``variant("3.13b")``), so the right one stands under a letter of their own.

Each right answer here is written by hand from the printed formulas (Eq. (3.2-5) for A; a thin
rod's m l^2/12 for I; the turn counted by hand for the letter), not read from a key.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
import sympy
from sympy import Matrix, cos, diag, sin

from dynlab.grading import check, keys, make_choice_key, turned, variant
from dynlab.grading.answers import serialize
from dynlab.grading.compare import grade
from dynlab.grading.keys import Unusable
from dynlab.grading.scoring import points_of_data as grader_score
from dynlab.grading.variants import grid_values, sharing

from .test_instructor_keys import SECRET, marks  # noqa: E402,F401
from .variant_checks import (  # noqa: E402
    CLASS, assert_every_typical_mistake_is_named,
    assert_for_marks_the_practice_answer_earns_only_the_shared_parts,
    assert_check_in_the_kernel_grades_the_practice_values,
    assert_no_grid_value_makes_a_typical_mistake_right, classmates, full, instructor_keys_in_use,
    points)


QUESTIONS = ("3.16a", "3.17b", "3.13b")
#: The givens each answer depends on
USES = {"3.16a": {"e"}, "3.17b": {"w"}, "3.13b": {"turn"}}

m1, m2, d1, d2 = sympy.symbols("m1 m2 d1 d2", positive=True)
q1, q2 = sympy.symbols("q1 q2", real=True)


# -- the right answers and the typical mistakes, by hand ------------------------------------------
def dh(theta, offset, length):
    """i-1A_i of Eq. (3.2-5) for alpha_i = 0: Rz(theta), then offset along z, length along x."""
    return Matrix([[cos(theta), -sin(theta), 0, length * cos(theta)],
                   [sin(theta), cos(theta), 0, length * sin(theta)],
                   [0, 0, 1, offset],
                   [0, 0, 0, 1]])


def rod_along_z(mass, length):
    """A thin uniform rod of ``length`` along z, about its centre: m l^2/12 about x and y."""
    return diag(mass * length**2 / 12, mass * length**2 / 12, 0)


#: The right explanation's place (from 0) in the list of the notebook, EXPLANATIONS
RIGHT_EXPLANATION = 1


def letter_of(place: int, turn) -> str:
    """The letter under which the explanation at ``place`` of the list stands for a student whose
    list is turned by ``turn``: they see place (k + turn) mod 4 under letter k."""
    return "ABCD"[(place - int(turn)) % 4]


def right(question: str, given: dict):
    """The answer for these givens (read as a student's code reads them: floats)."""
    if question == "3.16a":
        return [dh(q1, 0, d1), dh(q2, given["e"], d2)]
    if question == "3.17b":
        return [rod_along_z(m1, given["w"]), rod_along_z(m2, given["w"])]
    return letter_of(RIGHT_EXPLANATION, given["turn"])


def mistakes(question: str, given: dict) -> list:
    """``[(answer, words of the feedback)]``: each typical slip, at these givens."""
    if question == "3.16a":
        e = given["e"]
        A1, A2 = dh(q1, 0, d1), dh(q2, e, d2)
        return [([A1.T, A2.T], "each A_i is transposed"),
                ([A1, dh(q2, 0, d2)], "that is the printed arm, both links in one plane"),
                ([A1, dh(q2, -e, d2)], "the offset is +e"),
                ([dh(q1, e, d1), dh(q2, 0, d2)], "the offset belongs to joint 2")]
    if question == "3.17b":
        w = given["w"]
        rods = [rod_along_z(m1, w), rod_along_z(m2, w)]
        behind = [(1 - given["rho1"]) * d1, (1 - given["rho2"]) * d2]
        return [([sympy.zeros(3, 3)] * 2, "a point mass has no inertia about itself"),
                ([diag(0, m * w**2 / 12, m * w**2 / 12) for m in (m1, m2)],
                 "that is a rod along the link"),
                ([4 * rod for rod in rods], "a rod's moment about its END"),
                ([rod + diag(0, m * x**2, m * x**2) for rod, m, x in zip(rods, (m1, m2), behind)],
                 "that is the tensor about the origin of frame i"),
                ([diag(0, m * d**2 / 12, m * d**2 / 12) for m, d in ((m1, d1), (m2, d2))],
                 "those are uniform links"),
                ([diag(0, 0, m * w**2 / 12) for m in (m1, m2)], "the 3x3 block of J_i")]
    wrong = {0: "both formulations give the same torques", 2: "the same base frame",
             3: "transposing a vector does not change the sign"}
    return [(letter_of(place, given["turn"]), words) for place, words in wrong.items()]


#: A point of the symbols at which answers are compared by hand here
AT = {m1: 1.3, m2: 0.8, d1: 0.45, d2: 0.35, q1: 0.4, q2: 2.2}


def values(answer) -> np.ndarray:
    """An answer's entries at :data:`AT` (a letter: its place in the alphabet)."""
    if isinstance(answer, str):
        return np.array([float(ord(answer))])
    return np.concatenate([np.array(Matrix(p).xreplace(AT), dtype=float).ravel()
                           for p in answer])


def values_of(question: str, student: str, secret: str | None = None) -> dict:
    return dict(variant(question, student=student, secret=secret))


# -- the givens -----------------------------------------------------------------------------------
def test_the_givens_are_on_round_grids_without_the_printed_value():
    arm = keys()["3.16a"]["parameters"]
    assert {"3.16a", "3.17b"} <= set(sharing("3.16"))
    assert all(keys()[q]["parameters"] == arm for q in sharing("3.16"))
    for name in ("e", "w"):
        grid = grid_values(arm[name])
        assert len(grid) >= 4 and arm[name]["unit"] == "m" and arm[name]["text"], name
        assert 0.0 not in grid and min(grid) > 0, name         # the printed arm: e = w = 0
    turn = keys()["3.13b"]["parameters"]["turn"]
    assert grid_values(turn) == [0.0, 1.0, 2.0, 3.0] and turn["text"]
    for student in CLASS:
        practice = values_of("3.13b", student)
        graded = values_of("3.13b", student, SECRET)
        assert graded["turn"] != practice["turn"]
        assert right("3.13b", graded) != right("3.13b", practice)    # another letter


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_value_of_the_grids_changes_the_answer(question):
    spec = keys()[question]["parameters"]
    used = USES[question]
    grids = {name: grid_values(s) for name, s in spec.items()}
    base = {name: grid[0] for name, grid in grids.items()}
    for name in used:
        answers = [values(right(question, {**base, name: value})) for value in grids[name]]
        for first, second in itertools.combinations(answers, 2):
            assert np.abs(first - second).max() > 1e-6, name


# -- (a) the right answer scores full for alice and for bob ---------------------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_the_right_answer_at_my_values_scores_full_points(question):
    for student in classmates(question):
        answer = right(question, values_of(question, student))
        assert points(question, answer, student) == full(question), student


# -- (b) alice's answer scores 0 for bob ----------------------------------------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_a_classmates_answer_scores_0(question):
    """For marks: alice's answer at her graded values, handed in by bob."""
    alice, bob = classmates(question)
    with instructor_keys_in_use():
        hers = right(question, values_of(question, alice, SECRET))
        copied = grader_score(question, serialize(hers), student=bob)
    assert copied.total == 0, str(copied.feedback)
    # the feedback may say by what factor an entry is off (the ratio of two students' e or w**2,
    # which both see in their variant), but prints no number of bob's key
    his = values_of(question, bob, SECRET)
    secret_numbers = [his["e"]] if question == "3.16a" else \
        [his["w"], his["w"]**2 / 12] if question == "3.17b" else []
    for number in secret_numbers:
        for text in (repr(number), str(sympy.nsimplify(number))):
            assert text not in str(copied.feedback), (text, str(copied.feedback))


def test_check_in_the_kernel_grades_the_practice_order(monkeypatch):
    assert_check_in_the_kernel_grades_the_practice_values("3.13b", right, monkeypatch)


# -- (c) for marks: the practice answer scores 0, the graded one full -----------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_with_the_course_secret_the_practice_answer_scores_0_and_the_graded_one_full(question,
                                                                                     marks):
    assert_for_marks_the_practice_answer_earns_only_the_shared_parts(
        question, right, CLASS[:4], ())


# -- (d) every typical mistake is recognised at other students' values ----------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_no_grid_value_makes_a_typical_mistake_right(question):
    assert_no_grid_value_makes_a_typical_mistake_right(question, right, mistakes, values)


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_typical_mistake_is_recognised_at_other_students_values(question):
    assert_every_typical_mistake_is_named(question, mistakes, CLASS[1:4])


# -- a choice whose options are turned per student ------------------------------------------------
def test_a_turned_choice_judges_the_letter_in_the_students_order():
    key = make_choice_key("demo", notebook="demo", title="demo", points=1, options="ABC",
                          answer="B", messages={"A": "a", "B": "b", "C": "c"},
                          parameters={"turn": {"low": 0, "high": 2, "step": 1}})
    for turn in (0, 1, 2):
        mine = turned("ABC", turn)                  # what the student sees under A, B, C
        for letter, option in zip("ABC", mine):
            status, messages, _ = grade(key, letter, given={"turn": float(turn)})
            assert (status == "correct") == (option == "B"), (turn, letter)
            assert messages[-1].endswith(option.lower())       # the message of that option
    with pytest.raises(Unusable, match="givens"):
        grade(key, "A")


@pytest.mark.parametrize("parameters, words", [
    ({"order": {"low": 0, "high": 2, "step": 1}}, "its turn"),
    ({"turn": {"low": 0, "high": 3, "step": 1}}, "0..2"),
    ({"turn": {"low": 0, "high": 2, "step": 0.5}}, "steps of 1"),
    ({"turn": {"low": 1, "high": 1, "step": 1}}, "0..2")])
def test_a_choice_refuses_givens_other_than_a_turn_among_its_options(parameters, words):
    with pytest.raises(ValueError, match=words):
        make_choice_key("demo", notebook="demo", title="demo", points=1, options="ABC",
                        answer="B", messages={"A": "a", "B": "b", "C": "c"},
                        parameters=parameters)


def test_the_notebook_lists_the_explanations_in_the_order_the_key_judges():
    """The solution's list EXPLANATIONS, turned by the student's turn, is what the key judges:
    its place 1 is right at every turn (the practice turn in a student's kernel, the others for
    marks, with the instructor's key), and the notebook answers with it."""
    import nbformat
    root = Path(__file__).resolve().parents[2]
    notebook = nbformat.read(root / "solutions" / "02_two_link_arm_on_the_ceiling.ipynb",
                             as_version=4)
    source = next(c.source for c in notebook.cells if "EXPLANATIONS = [" in c.source)
    assert "options = turned(EXPLANATIONS, given[\"turn\"])" in source
    assert any("choice = letter(EXPLANATIONS[1])" in c.source for c in notebook.cells)
    from dynlab.grading.check import check_for_student
    practice = values_of("3.13b", "anyone")["turn"]
    assert check("3.13b", letter_of(RIGHT_EXPLANATION, practice)).correct
    with instructor_keys_in_use():
        for turn in {0, 1, 2, 3} - {practice}:
            student = next(s for s in CLASS if values_of("3.13b", s, SECRET)["turn"] == turn)
            assert check_for_student("3.13b", letter_of(RIGHT_EXPLANATION, turn),
                                     student=student, secret=SECRET).correct, turn
