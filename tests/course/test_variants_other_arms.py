"""Variants of chapter 03's last three questions (issue 24, item 5): Fu, Gonzalez & Lee, Probs.
3.12 and 3.18, and Schilling's Exercise 6-4-1.

- Prob. 3.12: each student's arm has its own number of joints ``n``, and its Newton-Euler routine
  is the one Fu, Gonzalez & Lee count in Table 3.5 (132n multiplications and 111n - 4 additions a
  call); the answer is the student's own two counts, numbers.
- Prob. 3.18: on each student's theta-d arm the mass m2 sits its own distance ``e`` beyond the
  inner end of the sliding link 2, at d + e from the axis (the book's: e = 0, at d).
- Exercise 6-4-1: each student's one-axis link has its own twist ``alpha`` (degrees); d, a, the
  mass, the centre of mass and the inertia tensor stay general.

The right answers are written by hand here.  Prob. 3.12: probing D with qd = 0 and gravity off
takes one call per column of D, n calls, so n times the printed cost of a call.  Prob. 3.18: the
two point masses at r1 (cos q1, sin q1) and (q2 + e) (cos q1, sin q1), y0 up, in Lagrange's
equations (3.2-1).  Exercise 6-4-1: the joint axis z0 is (0, sin alpha, cos alpha) in frame 1's
axes, so D11 = z0^T I z0 + m (distance of the centre of mass from z0)^2, and c = 0.

The part no given changes, 6-4-1's c (zero for every one-axis arm: the point of the exercise),
is the same for every student; a copied answer earns exactly its share.
"""

from __future__ import annotations

import csv
import itertools
import math
from pathlib import Path

import nbformat
import numpy as np
import pytest
import sympy
from sympy import Matrix, Rational, cos, sin

from dynlab.grading import check, keys, variant
from dynlab.grading.answers import serialize
from dynlab.grading.keys import part_points, use_keys
from dynlab.grading.scoring import points_of_data as grader_score
from dynlab.grading.variants import grid_values

from .test_feedback_secrecy import key_texts, leaked  # noqa: E402
from .test_instructor_keys import SECRET, instructor_folder, marks  # noqa: E402,F401
from .variant_checks import (  # noqa: E402
    CLASS, assert_every_typical_mistake_is_named,
    assert_for_marks_the_practice_answer_earns_only_the_shared_parts,
    assert_check_in_the_kernel_grades_the_practice_values,
    assert_no_grid_value_makes_a_typical_mistake_right, classmates, full, instructor_keys_in_use,
    points)


ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "03_probing_and_other_arms"
QUESTIONS = ("3.12", "3.18", "6-4-1")
#: The parts whose answer no given changes (the same for every student)
PUBLIC = {"6-4-1": {"c"}}
#: The printed values of the givens, which no student gets (3.18: m2 at d; 6-4-1: an untwisted
#: link, or one twisted by a right angle, where D11 is one moment plus the parallel-axis part)
BOOK = {"3.18": {"e": [0.0]}, "6-4-1": {"alpha": [0.0, 90.0]}}

m1, m2, r1, g = sympy.symbols("m1 m2 r1 g", positive=True)
q1, q2, qd1, qd2, qdd1, qdd2 = sympy.symbols("q1 q2 qd1 qd2 qdd1 qdd2", real=True)
m = sympy.Symbol("m", positive=True)
a, d, rx, ry, rz = sympy.symbols("a d rx ry rz", real=True)
Ixx, Iyy, Izz = sympy.symbols("Ixx Iyy Izz", positive=True)
Ixy, Ixz, Iyz = sympy.symbols("Ixy Ixz Iyz", real=True)
INERTIA = Matrix([[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]])
#: A point of the symbols at which answers are compared by hand here
AT = {m1: 1.3, m2: 0.8, r1: 0.45, g: 9.7, q1: 0.4, q2: 0.35, qd1: 0.7, qd2: -1.3, qdd1: 0.9,
      qdd2: -0.6, m: 1.7, a: 0.4, d: 0.25, rx: 0.13, ry: -0.21, rz: 0.17, Ixx: 0.11,
      Iyy: 0.06, Izz: 0.09, Ixy: 0.02, Ixz: -0.015, Iyz: 0.03}


# -- the right answers and the typical mistakes, by hand ------------------------------------------
def table_3_5(n: int) -> tuple:
    """One call of the Newton-Euler routine, as Fu, Gonzalez & Lee count it in Table 3.5:
    (multiplications, additions)."""
    return 132 * n, 111 * n - 4


def theta_d(e, sign=1, gravity="y"):
    """(D, h, c) of the theta-d arm with m1 at r1 and m2 at q2 + sign*e from the axis, along
    (cos q1, sin q1), written out: K = m1 r1^2 qd1^2 / 2 + m2 (qd2^2 + R^2 qd1^2) / 2 with
    R = q2 + sign*e, P = g y (y0 up); ``gravity="x"``: gravity along -x0 (the wrong axis);
    ``gravity=None``: none in the plane (the horizontal arm)."""
    R = q2 + sign * e
    D = Matrix([[m1 * r1**2 + m2 * R**2, 0], [0, m2]])
    h = Matrix([2 * m2 * R * qd1 * qd2, -m2 * R * qd1**2])
    if gravity is None:
        return D, h, Matrix([0, 0])
    if gravity == "x":
        return D, h, Matrix([-g * (m1 * r1 + m2 * R) * sin(q1), g * m2 * cos(q1)])
    return D, h, Matrix([g * (m1 * r1 + m2 * R) * cos(q1), g * m2 * sin(q1)])


def one_axis(twist: float, parallel_axis: bool = True):
    """D11 of the one-axis link twisted by ``twist`` radians: the joint axis z0 is
    (0, sin twist, cos twist) in frame 1's axes (A_1 = Rz(q1) Tz(d) Tx(a) Rx(twist)), the inertia
    about it z0^T I z0, plus m times the squared distance of the centre of mass (a + rx, ry, rz)
    in frame 1 from z0."""
    axis = Matrix([0, math.sin(twist), math.cos(twist)])
    distance2 = (a + rx)**2 + (ry * math.cos(twist) - rz * math.sin(twist))**2
    return (axis.T * INERTIA * axis)[0] + (m * distance2 if parallel_axis else 0)


def right(question: str, given: dict):
    """The answer for these givens (read as a student's code reads them: floats)."""
    if question == "3.12":
        n = int(given["n"])
        multiplications, additions = table_3_5(n)
        return n * multiplications, n * additions
    if question == "3.18":
        return theta_d(given["e"])
    return one_axis(math.radians(given["alpha"])), Matrix([0])


def mistakes(question: str, given: dict) -> list:
    """``[(answer, words of the feedback)]``: each typical slip, at these givens."""
    if question == "3.12":
        n = int(given["n"])
        N, M = table_3_5(n)
        return [(((n + 1) * N, n * M), "no call for c is needed"),
                ((n * N, (n + 1) * M + n**2), "no call for c and no subtractions"),
                ((n**2 * N, n**2 * M), "one call gives a whole column of D"),
                ((N, M), "that is what one call of the recursion costs")]
    if question == "3.18":
        e = given["e"]
        D, h, c = theta_d(e)
        printed, inward = theta_d(0), theta_d(e, sign=-1)
        return [((printed[0], h, c), "those are the printed arm's"),
                ((D, printed[1], c), "those are the printed arm's"),
                ((D, h, printed[2]), "those are the printed arm's"),
                ((inward[0], h, c), "not d - e"),
                ((D, h, theta_d(e, gravity=None)[2]), "the arm moves in a VERTICAL plane"),
                ((D, h, theta_d(e, gravity="x")[2]), "gravity acts along the wrong axis")]
    twist = math.radians(given["alpha"])
    zero = Matrix([0])
    return [((one_axis(twist, parallel_axis=False), zero), "squared distance of the centre"),
            ((one_axis(0.0), zero), "the link's own z axis is tilted by alpha"),
            ((one_axis(given["alpha"]), zero), "the twist was used in degrees"),
            ((one_axis(-twist), zero), "the twist turns the wrong way")]


def values(answer) -> np.ndarray:
    """An answer's entries (every part's) at :data:`AT`."""
    return np.concatenate([np.array(Matrix([part]).xreplace(AT), dtype=float).ravel()
                           for part in answer])


def public_share(question: str) -> float:
    """The points of the parts no given changes (see the module docstring)."""
    return sum(share for part, share in part_points(keys()[question]).items()
               if part in PUBLIC.get(question, ()))


# -- the givens -----------------------------------------------------------------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_each_question_declares_givens_on_a_round_grid_of_at_least_4_values(question):
    key = keys()[question]
    assert key["kind"] == ("numeric" if question == "3.12" else "symbolic")
    assert set(key["parameters"]) == {"3.12": {"n"}, "3.18": {"e"}, "6-4-1": {"alpha"}}[question]
    for name, spec in key["parameters"].items():
        grid = grid_values(spec)
        assert len(grid) >= 4 and spec["text"] and spec["unit"], name
        assert name not in {n for n, _ in key.get("symbols", [])}
        assert not set(grid) & set(BOOK.get(question, {}).get(name, []))   # never the book's
    for student in CLASS[:6]:
        mine = variant(question, student=student)
        graded = variant(question, student=student, secret=SECRET)
        assert all(graded[name] != mine[name] for name in mine)


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_value_of_the_grid_changes_the_answer(question):
    """Two students whose values differ have different answers (beyond the parts no given
    changes)."""
    spec = keys()[question]["parameters"]
    answers = {}
    for combination in itertools.product(*(grid_values(s) for s in spec.values())):
        answer = right(question, dict(zip(spec, combination)))
        varying = [part for part, info in zip(answer, keys()[question]["parts"])
                   if info["name"] not in PUBLIC.get(question, ())]
        answers[combination] = values(varying)
    for first, second in itertools.combinations(answers, 2):
        assert np.abs(answers[first] - answers[second]).max() > 1e-6, (first, second)


def test_the_counts_of_3_12_are_the_calls_dynlabs_probe_makes_times_table_3_5():
    """The route by hand (n calls for D, each at the printed cost) against dynlab: its probe of a
    generic chain calls the routine once per column of D with qd = 0 and gravity off, and its
    table of the printed counts holds 132n and 111n - 4."""
    from dynlab import inverse_dynamics, probe
    from dynlab.engine.opcount import generic_chain
    from dynlab.teaching.textbook.printed_counts import table_3_5 as printed
    for n in (int(x) for x in grid_values(keys()["3.12"]["parameters"]["n"])):
        arm, calls = generic_chain(n), []

        def counting(q, qd, qdd, **switches):
            calls.append((any(qd), any(qdd), switches["gravity"]))
            return inverse_dynamics(arm, q, qd, qdd, **switches)
        probe(arm, counting, q=np.zeros(n), qd=np.ones(n))
        assert calls.count((False, True, False)) == n and len(calls) == n + 2
        assert (printed(n)["newton_euler"]["mul"], printed(n)["newton_euler"]["add"]) == \
            table_3_5(n)


def test_the_answers_of_3_18_and_6_4_1_are_dynlabs_numbers():
    """The routes by hand against dynlab's numeric Newton-Euler for the same arms (a recursion
    that never forms D, h or c): tau = D qdd + h + c for the theta-d arm with m2 at d + e, and
    D11 = tau(q, 0, 1) without gravity, 0 = tau(q, qd, 0) without gravity, for the twisted link."""
    from dynlab import Link, Robot, inverse_dynamics
    state = {q1: 0.4, q2: 0.35, qd1: 0.7, qd2: -1.3, qdd1: 0.9, qdd2: -0.6}
    numbers = {m1: 1.3, m2: 0.8, r1: 0.45, g: 9.7}
    for e in (0.05, 0.4):
        arm = Robot([Link("R", alpha=sympy.pi / 2, offset=sympy.pi / 2, mass=1.3,
                          com=(0, 0, 0.45)),
                     Link("P", mass=0.8, com=(0, 0, e))], gravity=(0, -9.7, 0))
        tau = inverse_dynamics(arm, [0.4, 0.35], [0.7, -1.3], [0.9, -0.6],
                               method="newton_euler")
        D, h, c = theta_d(e)
        by_hand = (D * Matrix([qdd1, qdd2]) + h + c).xreplace({**state, **numbers})
        assert np.allclose(np.asarray(tau, dtype=float).ravel(),
                           np.array(by_hand, dtype=float).ravel(), rtol=1e-12)
    for degrees in (10.0, 45.0, 80.0):
        link = {s: AT[s] for s in (m, a, d, rx, ry, rz, Ixx, Iyy, Izz, Ixy, Ixz, Iyz)}
        arm = Robot([Link("R", a=link[a], d=link[d], alpha=math.radians(degrees),
                          mass=link[m], com=(link[rx], link[ry], link[rz]),
                          inertia=np.array(INERTIA.xreplace(link), dtype=float))],
                    gravity=(0, 0, 0))
        D11 = float(one_axis(math.radians(degrees)).xreplace(link))
        assert math.isclose(float(inverse_dynamics(arm, [0.6], [0.0], [1.0],
                                                   method="newton_euler")[0]), D11,
                            rel_tol=1e-12)
        assert abs(float(inverse_dynamics(arm, [0.6], [1.9], [0.0],
                                          method="newton_euler")[0])) < 1e-12


# -- (a) the right answer scores full for alice and for bob ---------------------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_the_right_answer_at_my_values_scores_full_points(question):
    for student in classmates(question):
        answer = right(question, variant(question, student=student))
        assert points(question, answer, student) == full(question), student


# -- (b) alice's answer scores 0 for bob ----------------------------------------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_a_classmates_answer_earns_only_the_parts_no_given_changes(question):
    """For marks: alice's answer at her graded values, handed in by bob."""
    alice, bob = classmates(question)
    with instructor_keys_in_use():
        hers = right(question, variant(question, student=alice, secret=SECRET))
        copied = grader_score(question, serialize(hers), student=bob)
    assert copied.total == public_share(question), (copied.points, str(copied.feedback))
    assert all(share == 0 for part, share in copied.points.items()
               if part not in PUBLIC.get(question, ()))
    assert "times the right value" not in str(copied.feedback)       # no factor to undo


@pytest.mark.parametrize("question", QUESTIONS)
def test_check_in_the_kernel_grades_the_practice_values(question, monkeypatch):
    assert_check_in_the_kernel_grades_the_practice_values(question, right, monkeypatch,
                                                          PUBLIC.get(question, ()))


# -- (c) for marks: the practice answer scores 0, the graded one full -----------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_with_the_course_secret_the_practice_answer_scores_0_and_the_graded_one_full(question,
                                                                                     marks):
    assert_for_marks_the_practice_answer_earns_only_the_shared_parts(
        question, right, CLASS[:4], PUBLIC.get(question, ()))


# -- (d) every typical mistake is recognised at every student's values ----------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_no_grid_value_makes_a_typical_mistake_right(question):
    assert_no_grid_value_makes_a_typical_mistake_right(question, right, mistakes, values)


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_typical_mistake_is_recognised_at_other_students_values(question):
    assert_every_typical_mistake_is_named(question, mistakes, CLASS[1:4])


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_feedback_prints_no_term_or_number_of_the_key(question, monkeypatch):
    """Neither a wrong answer (a part scaled, a stray term) nor a typical mistake gets the key
    at alice's or bob's values printed back."""
    key = keys()[question]
    for student in classmates(question):
        monkeypatch.setenv("DYNLAB_STUDENT", student)
        secrets = key_texts(key)
        answer = right(question, variant(question))
        if question == "3.12":
            wrong = (answer[0] * 7 // 5, answer[1] + 3)
        else:
            stray = m1 * r1 * sin(q2) if question == "3.18" else m * a * d
            wrong = tuple(Matrix([part]) * Rational(7, 5) + sympy.ones(*Matrix([part]).shape)
                          * stray for part in answer)
        for attempt in [wrong] + [slip for slip, _ in mistakes(question, dict(variant(question)))]:
            feedback = check(question, attempt)
            assert not feedback.correct
            text = "\n".join(feedback.messages)
            assert not leaked(text, secrets), (student, leaked(text, secrets), text)


def test_a_given_written_as_its_symbol_is_told_to_be_put_in():
    e, alpha = sympy.Symbol("e", positive=True), sympy.Symbol("alpha", positive=True)
    D, h, c = theta_d(e)
    feedback = check("3.18", (D, h, c))
    assert feedback.status == "not graded" and feedback.points == 0
    assert 'e is a given of this question: put in your value (given["e"], with given = ' \
           'variant("3.18"))' in str(feedback)
    axis = Matrix([0, sin(alpha), cos(alpha)])
    D11 = (axis.T * INERTIA * axis)[0] + m * ((a + rx)**2 + (ry * cos(alpha)
                                                              - rz * sin(alpha))**2)
    feedback = check("6-4-1", (D11, [0]))
    assert feedback.status == "not graded" and feedback.points == 0
    assert 'alpha is a given of this question: put in your value' in str(feedback)


def test_the_books_symbolic_count_is_told_that_numbers_are_asked():
    """The printed problem's answer, in N, M and n, is told to put in the student's n and the
    printed costs of a call."""
    N, M, n = sympy.symbols("N M n", positive=True)
    feedback = check("3.12", (n * N, n * M))
    assert feedback.status == "not graded" and feedback.points == 0
    assert 'n is a given of this question: put in your value (given["n"]' in str(feedback)
    mine = int(variant("3.12")["n"])
    feedback = check("3.12", (mine * N, mine * M))
    assert feedback.status == "not graded" and feedback.points == 0
    assert "numbers are asked here, but the answer contains the symbols" in str(feedback)


# -- dynlab grade --keys on the chapter's own notebook --------------------------------------------
@pytest.mark.end_to_end
def test_the_solution_reads_its_givens_and_earns_full_marks_at_other_values(tmp_path):
    """``dynlab grade --keys`` runs the solution notebook 03 (whose code reads ``variant(...)``)
    in the sandbox at each student's graded values: full marks; the same notebook with eve's
    practice values of these three questions typed in (what the stored outputs and the shipped
    keys answer) earns only the parts no given changes."""
    from dynlab import cli
    folder = instructor_folder(tmp_path / "keys")
    solution = nbformat.read(ROOT / "solutions" / f"{NOTEBOOK}.ipynb", as_version=4)
    typed = nbformat.from_dict(solution)
    for question, name in (("3.12", "n"), ("3.18", "e"), ("6-4-1", "alpha")):
        mine = variant(question, student="eve")[name]
        for cell in typed.cells:
            cell.source = cell.source.replace(f'given["{name}"]', repr(mine))
    assert not any(f'given["{name}"]' in cell.source for cell in typed.cells
                   for name in ("n", "e", "alpha"))
    submitted = tmp_path / "submitted"
    for student, notebook in (("alice", solution), ("eve", typed)):
        (submitted / student).mkdir(parents=True)
        nbformat.write(notebook, submitted / student / f"{NOTEBOOK}.ipynb")
    out = tmp_path / "grades.csv"
    try:
        assert cli.main(["grade", str(submitted), "--out", str(out), "--keys", str(folder),
                         "--notebook-time-limit", "300"]) == 0
    finally:
        use_keys(None)
    with open(out, newline="", encoding="utf-8") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    got = {student: {q: sum(float(rows[student][f"{q} {part}"])
                            for part in part_points(keys()[q]))
                     for q in ("3.11",) + QUESTIONS} for student in rows}
    assert got["alice"] == pytest.approx({q: full(q) for q in ("3.11",) + QUESTIONS},
                                         abs=1e-3), rows
    assert got["eve"] == pytest.approx(
        {"3.11": full("3.11"), **{q: public_share(q) for q in QUESTIONS}}, abs=1e-3), rows
