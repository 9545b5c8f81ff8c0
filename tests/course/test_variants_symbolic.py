"""Variants of symbolic questions (issue 24, item 5): a symbolic key may declare givens, and a
student's answer is an expression in the question's symbols with their own numbers of the givens
in it (their code reads ``given = variant(...)``).

The key's reference and its typical mistakes are expressions in the symbols and the givens; the
checker puts in the student's values (practice values in ``check()``, graded values under the
course secret in the marks routes) and compares at fresh points of the symbols, as for every
symbolic question.  Shown on four questions whose given enters the physics:

- C.2, the computed-torque law of Schilling's pendulum (Sec. 6-9), with the student's gains
  ``Kp``, ``Kd``;
- C.3, the derivative gain that gives PD plus gravity compensation on that pendulum the student's
  damping ratio ``zeta`` (chapter 08: ``zeta = Kd / (2 sqrt(Kp D))``);
- k12, Tourassis & Neuman's coefficient of coupling (Eqs. (32)-(34)) of the two-link arm of Fu,
  Gonzalez & Lee, Sec. 3.2.6, whose link 2 weighs ``mu`` times link 1;
- Mp, what a point payload adds to D and c of the arm of the thesis appendix, App. B, clamped at
  ``rho l2`` from joint 2 (the appendix's is at the tip).

Each right answer here is written by hand from the printed formula, not read from a key.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import numpy as np
import pytest
import sympy
from sympy import Matrix, cos, sin, sqrt

from dynlab.grading import check, keys, variant
from dynlab.grading.answers import serialize
from dynlab.grading.compare import at_given
from dynlab.grading.authoring import make_key
from dynlab.grading.keys import reference, use_keys
from dynlab.grading.scoring import points_of_data as grader_score

from tests.support.graded_course import dynlab_grade, hand_in  # noqa: E402
from .test_instructor_keys import SECRET, instructor_folder, marks  # noqa: E402,F401
from .variant_checks import (  # noqa: E402
    CLASS, assert_check_in_the_kernel_grades_the_practice_values,
    assert_every_typical_mistake_is_named,
    assert_for_marks_the_practice_answer_earns_only_the_shared_parts,
    assert_givens_on_a_round_grid, assert_no_grid_value_makes_a_typical_mistake_right,
    assert_right_for_me_and_not_for_a_classmate, assert_the_feedback_prints_no_term_of_the_key,
    assert_the_graded_answer_differs_from_the_practice_answer, full)


ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = ("C.2", "C.3", "k12", "Mp")

m1, a1, g, Kp, M1, M2, Mp, l, l1, l2, I1, I2 = sympy.symbols(
    "m1 a1 g Kp M1 M2 Mp l l1 l2 I1 I2", positive=True)
q1, q2, qd1, qr, qdr, qddr = sympy.symbols("q1 q2 qd1 qr qdr qddr", real=True)
#: Schilling, Sec. 6-9 (Eq. (6-9-10)): the pendulum's D = m1 a1^2/3, h = 0, c = m1 g a1 C1/2
D_PENDULUM, C_PENDULUM = m1 * a1**2 / 3, m1 * g * a1 * cos(q1) / 2


def coupling(mu) -> tuple:
    """(k12, LF, KF) of Tourassis & Neuman, Eqs. (32)-(34), for the two-link arm of Fu, Gonzalez
    & Lee, Sec. 3.2.6 (uniform rods of length l), with m2 = mu m1, by hand from its inertia matrix
    d11 = l^2 (m1/3 + m2 (4/3 + C2)), d12 = m2 l^2 (1/3 + C2/2), d22 = m2 l^2/3."""
    m2 = mu * m1
    d11 = l**2 * (m1 / 3 + m2 * (sympy.Rational(4, 3) + cos(q2)))
    d12 = m2 * l**2 * (sympy.Rational(1, 3) + cos(q2) / 2)
    d22 = m2 * l**2 / 3
    k12 = sympy.Abs(d12) / sqrt(d11 * d22)
    LF = sqrt(m2 / (m1 + m2))                     # the mass moved by joint 2 over joint 1's
    return k12, LF, k12 / LF, (d11, d12, d22)


def payload(r):
    """What a point mass Mp at distance ``r`` from joint 2 along link 2 adds to D and c, written
    out by hand: its place x_p = (l1 C1 + r C12, l1 S1 + r S12) (q2 relative to link 1, gravity
    along -y0) gives the kinetic energy Mp |xd_p|^2 / 2 and the potential energy Mp g y_p."""
    c2, c1, c12 = cos(q2), cos(q1), cos(q1 + q2)
    dD = Mp * Matrix([[l1**2 + 2 * l1 * r * c2 + r**2, r**2 + l1 * r * c2],
                      [r**2 + l1 * r * c2, r**2]])
    dc = Mp * g * Matrix([l1 * c1 + r * c12, r * c12])
    return dD, dc


def right(question: str, given: dict):
    """The answer for these givens, by hand from the printed formula."""
    if question == "C.2":                 # tau = D (qdd_r + Kd e' + Kp e) + h + c, e = q_r - q
        return D_PENDULUM * (qddr + given["Kd"] * (qdr - qd1) + given["Kp"] * (qr - q1)) \
            + C_PENDULUM
    if question == "C.3":                 # zeta = Kd / (2 sqrt(Kp D))
        return 2 * given["zeta"] * sqrt(Kp * D_PENDULUM)
    if question == "k12":
        return coupling(given["mu"])[:3]
    return payload(given["rho"] * l2)


def mistakes(question: str, given: dict) -> list:
    """``[(answer, words of the feedback)]``: each typical slip, at these givens."""
    if question == "C.2":
        Kp_, Kd_ = given["Kp"], given["Kd"]
        law = right(question, given)
        return [(qddr + Kd_ * (qdr - qd1) + Kp_ * (qr - q1) + C_PENDULUM,
                 "goes through the inertia D(q)"),
                (law - C_PENDULUM, "the model's gravity c(q) is missing"),
                (D_PENDULUM * (qddr + Kd_ * (qd1 - qdr) + Kp_ * (q1 - qr)) + C_PENDULUM,
                 "the feedback has the wrong sign"),
                (D_PENDULUM * (qddr + Kp_ * (qdr - qd1) + Kd_ * (qr - q1)) + C_PENDULUM,
                 "your gains are swapped")]
    if question == "C.3":
        zeta = given["zeta"]
        return [(2 * zeta * sqrt(Kp), "sees the pendulum's inertia m1 a1^2/3"),
                (zeta * sqrt(Kp * D_PENDULUM), "a factor of 2 is missing"),
                (2 * sqrt(Kp * D_PENDULUM), "that is critical damping (zeta = 1)"),
                (2 * sqrt(Kp * D_PENDULUM) / zeta, "multiply by zeta, do not divide")]
    if question == "k12":
        mu = given["mu"]
        k12, LF, KF, (d11, d12, d22) = coupling(mu)
        return [((d12 / sqrt(d11 * d22), LF, KF), "takes the absolute value |d12|"),
                ((k12**2, LF, KF), "that is k12 squared"),
                ((k12, sqrt(1 / (1 + mu)), KF), "the mass moved by joint j = 2"),
                ((k12, mu / (1 + mu), KF), "takes the square root of the mass ratio")]
    dD, dc = right(question, given)
    tip, middle = payload(l2), payload(l2 / 2)
    r = given["rho"] * l2
    sideways = Matrix([sympy.diff(Mp * g * (l1 * cos(q1) + r * cos(q1 + q2)), v)
                       for v in (q1, q2)])
    return [((tip[0], dc), "that is the payload at the tip"),
            ((dD, tip[1]), "that is the payload at the tip"),
            ((middle[0], dc), "that is the payload at the middle of link 2"),
            ((dD, -dc), "gravity points along -y0"),
            ((dD, sideways), "gravity acts along the wrong axis"),
            ((dD, -sideways), "gravity acts along the wrong axis")]


#: A point of the symbols at which answers are compared by hand here (cos q2 < -2/3: d12 < 0)
AT = {m1: 1.3, a1: 0.7, g: 9.8, Kp: 17.0, Mp: 0.6, l: 0.8, l1: 0.9, l2: 0.5, q1: 0.4, q2: 2.5,
      qd1: 0.3, qr: 1.2, qdr: -0.4, qddr: 0.8}


def values(answer) -> np.ndarray:
    """An answer's entries (every part's) at :data:`AT`."""
    parts = answer if isinstance(answer, tuple) else (answer,)
    return np.concatenate([np.array(sympy.Matrix([p]).xreplace(AT), dtype=float).ravel()
                           for p in parts])


# -- the mechanism ----------------------------------------------------------------------------------
def test_a_symbolic_key_declares_givens_whose_names_are_not_its_symbols():
    x, zeta = sympy.Symbol("x", positive=True), sympy.Symbol("zeta", positive=True)
    spec = {"zeta": {"low": 0.6, "high": 0.9, "step": 0.1, "unit": "", "text": "a ratio"}}
    key = make_key("demo", notebook="demo", title="demo", points=1, symbols={"x": "positive"},
                   parts=[{"name": "y", "value": 2 * zeta * x}], parameters=spec)
    assert key["parameters"] == spec and key["kind"] == "symbolic"
    assert at_given(key, reference(key)["y"], {"zeta": 0.7}) == [sympy.Rational(7, 5) * x]
    with pytest.raises(ValueError, match="both symbols of the answer and givens"):
        make_key("demo", notebook="demo", title="demo", points=1,
                 symbols={"x": "positive", "zeta": "positive"},
                 parts=[{"name": "y", "value": zeta * x}], parameters=spec)
    with pytest.raises(ValueError, match=r"symbols \['w'\] are not among"):
        make_key("demo", notebook="demo", title="demo", points=1, symbols={"x": "positive"},
                 parts=[{"name": "y", "value": sympy.Symbol("w") * x}], parameters=spec)
    with pytest.raises(ValueError, match="given: demo needs the values of"):
        at_given(key, reference(key)["y"], {})
    with pytest.raises(ValueError, match="must be a finite number"):
        at_given(key, reference(key)["y"], {"zeta": float("nan")})


@pytest.mark.parametrize("question", QUESTIONS)
def test_an_answer_with_my_numbers_is_right_for_me_and_0_for_a_classmate(question):
    assert_right_for_me_and_not_for_a_classmate(question, right)


@pytest.mark.parametrize("question", QUESTIONS)
def test_check_in_the_kernel_grades_this_kernels_student(question, monkeypatch):
    assert_check_in_the_kernel_grades_the_practice_values(question, right, monkeypatch)


@pytest.mark.parametrize("question", QUESTIONS)
def test_with_the_course_secret_the_practice_answer_scores_0_and_the_graded_one_full(question,
                                                                                     marks):
    assert_for_marks_the_practice_answer_earns_only_the_shared_parts(question, right, CLASS[:6])


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_graded_answer_differs_from_the_practice_answer_for_every_student(question):
    assert_the_graded_answer_differs_from_the_practice_answer(
        question, right, values, [f"u{n}" for n in range(40)])


@pytest.mark.parametrize("question", QUESTIONS)
def test_no_grid_value_makes_a_typical_mistake_right(question):
    """Over every combination of the grids, each slip differs from the right answer."""
    assert_no_grid_value_makes_a_typical_mistake_right(question, right, mistakes, values)


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_typical_mistake_is_recognised_at_other_students_values(question):
    assert_every_typical_mistake_is_named(question, mistakes, CLASS[:4])


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_feedback_prints_no_term_of_the_key_at_any_students_values(question, monkeypatch):
    """The key at alice's and bob's values is never printed for a wrong answer (the search of
    tests/course/test_feedback_secrecy.py runs at the session student's)."""
    rng = np.random.default_rng(24)

    def wrong(answer):
        stray = [m1 * a1 * sin(q1), Kp * m1, Mp * l1 * l2 * sin(q2)][int(rng.integers(3))]
        if isinstance(answer, tuple):                 # k12, Mp: a scaled part, a stray term
            second = answer[1] + (Matrix([stray, 0]) if question == "Mp" else stray)
            return [(answer[0] * sympy.Rational(7, 5), second) + tuple(answer[2:])]
        return [answer * sympy.Rational(7, 5) + stray]
    assert_the_feedback_prints_no_term_of_the_key(question, right, wrong, monkeypatch)


def test_a_given_written_as_its_symbol_is_told_to_be_put_in():
    zeta = sympy.Symbol("zeta", positive=True)
    feedback = check("C.3", 2 * zeta * sqrt(Kp * D_PENDULUM))
    assert feedback.status == "not graded" and feedback.points == 0
    assert 'zeta is a given of this question: put in your value (given["zeta"], with given = ' \
           'variant("C.3"))' in str(feedback)


def test_a_rounded_constant_is_told_without_blaming_a_given():
    zeta = variant("C.3")["zeta"]
    feedback = check("C.3", 2 * zeta * sqrt(Kp * m1 * a1**2 / sympy.Float(3.01)))
    assert not feedback.correct
    assert "Kd is close but not equal (within 1 %): a constant rounded" in str(feedback)
    assert "rounded decimal (" not in str(feedback)            # 2 zeta / sqrt(3.01) is one float


def test_a_string_answer_is_read_in_the_kernel_with_the_numbers_in_it():
    gains = variant("C.2")
    text = (f"m1*a1**2/3*(qddr + {gains['Kd']}*(qdr - qd1) + {gains['Kp']}*(qr - q1))"
            f" + m1*g*a1*cos(q1)/2")
    data = serialize(text, symbols=keys()["C.2"]["symbols"])
    assert "sympy" in data                                  # srepr data, parsed in the kernel
    assert grader_score("C.2", data, student="student").total == full("C.2")


# -- the questions ----------------------------------------------------------------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_each_question_declares_givens_on_a_round_grid_of_at_least_4_values(question):
    assert_givens_on_a_round_grid(question)


@pytest.mark.end_to_end
def test_the_solutions_read_their_givens_and_earn_full_points_at_other_values(tmp_path):
    """``dynlab grade --keys``: the solution notebook 05 (whose code reads ``variant(...)``) earns
    full marks at the graded values; the same notebook with the practice numbers typed in (a
    classmate's or the stored outputs') earns 0 on C.1, C.2 and C.3."""
    solution = nbformat.read(ROOT / "solutions" / "05_control.ipynb", as_version=4)
    typed = nbformat.from_dict(solution)
    gains, zeta = variant("C.2", student="eve"), variant("C.3", student="eve")["zeta"]
    payload = variant("C.1", student="eve")["Mp"]
    for cell in typed.cells:
        cell.source = cell.source.replace('given["Kd"]', repr(gains["Kd"])).replace(
            'given["Kp"]', repr(gains["Kp"])).replace('given["zeta"]', repr(zeta)).replace(
            'given["Mp"]', repr(payload))
    submitted = hand_in(tmp_path / "submitted", "05_control", {"alice": solution, "eve": typed})
    rows = dynlab_grade(submitted, tmp_path / "grades.csv",
                        keys=instructor_folder(tmp_path / "keys"), notebook_time_limit=200)
    got = {s: {q: float(rows[s][f"{q} {name}"]) for q, name in
               (("C.1", "c"), ("C.2", "tau"), ("C.3", "Kd"))} for s in rows}
    assert got == {"alice": {"C.1": 2.0, "C.2": 2.0, "C.3": 1.0},
                   "eve": {"C.1": 0.0, "C.2": 0.0, "C.3": 0.0}}, rows


def test_nbgraders_scoring_step_grades_at_the_submitting_students_graded_values(tmp_path):
    """nbgrader's route (:class:`ScoreExportedAnswers`, the step after ``Execute``): a check cell
    whose kernel exported an answer is scored outside the kernel at the graded values of the
    student nbgrader names; the answer at the practice values (the shipped key's) earns 0."""
    import json
    from dynlab.grading.autograde import MIME
    from dynlab.grading.nbgrader_scoring import ScoreExportedAnswers
    folder = instructor_folder(tmp_path / "keys")

    def graded_cell(answer) -> nbformat.NotebookNode:
        cell = nbformat.v4.new_code_cell('check("C.3", Kd)')
        cell.metadata["nbgrader"] = {"grade": True, "grade_id": "check-C_3", "locked": True,
                                     "points": 1, "schema_version": 3, "solution": False,
                                     "task": False}
        data = {"question": "C.3", "answer": serialize(answer)}
        cell.outputs = [nbformat.v4.new_output("display_data", data={MIME: json.dumps(data)})]
        return cell

    def marks_of(student: str, answer) -> float:
        notebook = nbformat.v4.new_notebook(cells=[graded_cell(answer)])
        step = ScoreExportedAnswers(key_directory=str(folder))
        try:
            notebook, _ = step.preprocess(notebook, {"nbgrader": {"student": student}})
        finally:
            use_keys(None)
        return float(notebook.cells[0].outputs[-1]["data"]["text/plain"])

    practice = variant("C.3", student="alice")
    graded = variant("C.3", student="alice", secret=SECRET)
    assert marks_of("alice", right("C.3", graded)) == 1.0
    assert marks_of("alice", right("C.3", practice)) == 0.0
    bob = next(s for s in CLASS if variant("C.3", student=s, secret=SECRET)["zeta"]
               != graded["zeta"])
    assert marks_of(bob, right("C.3", graded)) == 0.0                 # alice's, copied
