"""A variant per student for the G-D and Newton-Euler questions of chapter 06 (issue 24, item 5).

- G.1, G.2 (Fu, Gonzalez & Lee, Sec. 3.4.2, Eqs. (3.4-25)-(3.4-27)), N.2, N.3 (Table 3.3,
  Eqs. (3.3-52), (3.3-53), (3.3-56), (3.3-57)): the two-link arm whose link 2 is ``lam`` times as
  long as link 1 (the book's rods are equal, lam = 1);
- N.4 (Schilling, Algorithm 6-8-1, Sec. 6-9): the one-axis arm whose load pulls the tool along a
  cable ``phi`` degrees below the horizontal (the book's weight hangs straight down, 90 degrees).

N.1 (link 2's angular velocity and acceleration) would be (0, 0, qd1 + qd2) and (0, 0, qdd1 + qdd2)
on every planar arm, whatever its lengths, masses or load: its givens twist joint 2's axis instead
(tests/course/test_variants_formulas.py).  Nothing changes h_rot of G.2, which is zero for every
planar arm; G.2's h_tran carries its givens.

Each right answer here is written out by hand from the printed formulas (the closed forms of the
books' worked examples with link 2's length l2 = lam l, or the load's moment about the joint), not
read from a key, and checked against dynlab's numeric G-D terms and recursion traces at the
students' values.  For each question: the right answer scores full points for alice and for bob
at their practice values, alice's answer scores 0 for bob, for marks (a course secret) the
practice-value answer scores 0 and the graded-value answer full, and every typical mistake is
still named at other students' values.  The chapter's own solution code, run again by ``dynlab
grade --keys`` in its sandbox, earns full marks at the graded values; typed-in values earn only
what every student shares.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import sympy
from sympy import Matrix, cos, sin

from dynlab import equations_of_motion, inverse_dynamics
from dynlab.grading import check, keys, variant
from dynlab.grading.variants import grid_values
from dynlab.model.robots import pendulum, planar_2r

from tests.support.graded_course import hand_in  # noqa: E402
from .test_instructor_keys import instructor_folder, marks  # noqa: E402,F401
from .variant_checks import (  # noqa: E402
    CLASS, assert_every_typical_mistake_is_named,
    assert_for_marks_the_practice_answer_earns_only_the_shared_parts, assert_givens_on_a_round_grid,
    assert_no_grid_value_makes_a_typical_mistake_right, assert_right_for_me_and_not_for_a_classmate,
    assert_the_feedback_prints_no_term_of_the_key,
    assert_the_graded_answer_differs_from_the_practice_answer, classmates, full, points)


QUESTIONS = ("G.1", "G.2", "N.2", "N.3", "N.4")
#: The parts whose answer is the same for every student: G.2's h_rot is zero for every planar
#: arm (each link spins about z, a principal axis, and the axes are parallel, Eq. (3.4-27))
SHARED = ("h_rot",)
G0 = 9.8062

m1, m2, l, g, a1, F = sympy.symbols("m1 m2 l g a1 F", positive=True)
q1, q2, qd1, qd2, qdd1, qdd2 = sympy.symbols("q1 q2 qd1 qd2 qdd1 qdd2", real=True)
S1, C1, S2, C2 = sin(q1), cos(q1), sin(q2), cos(q2)
S12, C12 = sin(q1 + q2), cos(q1 + q2)


def exact(value) -> sympy.Rational:
    """A given as the exact decimal it is written as (0.65 as 13/20)."""
    return sympy.Rational(repr(float(value)))


# -- the two-link arm with l2 = lam l, by hand ---------------------------------------------------
def D_parts(lam, point_masses=False, about_ends=False):
    """D^rot and D^tran of Eq. (3.4-25): the rods' spins I_zz = m a^2/12 (m a^2/3 about their
    ends), and their centres r1 = (l/2) u1, r2 = l u1 + (l2/2) u12 moved by the joints
    (``point_masses``: the masses at the tips, l u1 and l u1 + l2 u12)."""
    l2 = lam * l
    c1, c2 = (l, l2) if point_masses else (l / 2, l2 / 2)       # the joints' reach to the centres
    spin = sympy.Rational(1, 3) if about_ends else sympy.Rational(1, 12)
    D_rot = spin * Matrix([[m1 * l**2 + m2 * l2**2, m2 * l2**2], [m2 * l2**2, m2 * l2**2]])
    # |z x (r2 - p0)|^2 = l^2 + c2^2 + 2 l c2 C2, (z x (r2 - p0)) . (z x (r2 - p1)) = c2^2 + l c2 C2
    coupling = m2 * (c2**2 + l * c2 * C2)
    D_tran = Matrix([[m1 * c1**2 + m2 * (l**2 + c2**2 + 2 * l * c2 * C2), coupling],
                     [coupling, m2 * c2**2]])
    return D_rot, D_tran


def h_tran_of(lam, point_masses=False):
    """h^tran of Eq. (3.4-26): the centre of link 2 at c2 = l2/2 beyond joint 2 (at l2 for
    ``point_masses``) gives h1 = -m2 l c2 S2 (2 qd1 qd2 + qd2^2), h2 = m2 l c2 S2 qd1^2."""
    c2 = lam * l if point_masses else lam * l / 2
    return Matrix([-m2 * l * c2 * S2 * (2 * qd1 * qd2 + qd2**2), m2 * l * c2 * S2 * qd1**2])


def link1_v_dot(gravity=1):
    """1R0 v_dot_1 (Eq. (3.3-52) for link 1, p*_1 = (l, 0, 0), v_dot_0 = (0, gravity*g, 0))."""
    return Matrix([-l * qd1**2 + gravity * g * S1, l * qdd1 + gravity * g * C1, 0])


def forward(lam, gravity=1, rotated=True, behind=True):
    """2R0 v_dot_2 and 2R0 a_bar_2 (Eqs. (3.3-52), (3.3-53)): link 1's acceleration turned into
    frame 2 by 2R1 = Rz(q2)^T (not turned, ``rotated=False``), plus link 2's own tangential and
    centripetal terms over p*_2 = (l2, 0, 0); the centre at s_2 = (-l2/2, 0, 0) (``behind``) or
    (+l2/2, 0, 0)."""
    l2, w, wd = lam * l, qd1 + qd2, qdd1 + qdd2
    base = link1_v_dot(gravity)
    if rotated:
        base = Matrix([[C2, S2, 0], [-S2, C2, 0], [0, 0, 1]]) * base
    v_dot = base + Matrix([-l2 * w**2, l2 * wd, 0])
    s = -l2 / 2 if behind else l2 / 2
    a_bar = v_dot + Matrix([-s * w**2, s * wd, 0])
    return v_dot.applyfunc(sympy.expand), a_bar.applyfunc(sympy.expand)


def backward(lam, gravity=1):
    """f_2 = m2 a_bar_2 and n_2 = (p*_2 + s_2) x F_2 + I_2 omega_dot_2 (Eqs. (3.3-56),
    (3.3-57) with f_3 = n_3 = 0), and its pieces: (N_2, s_2 x F_2)."""
    l2 = lam * l
    f = m2 * forward(lam, gravity)[1]
    spin = Matrix([0, 0, m2 * l2**2 / 12 * (qdd1 + qdd2)])           # I_2 omega_dot_2
    n = Matrix([0, 0, l2 / 2 * f[1]]) + spin                          # (l2/2, 0, 0) x F_2
    return f, n, spin, Matrix([0, 0, -l2 / 2 * f[1]]) + spin


# -- the one-axis arm and its cable, by hand ------------------------------------------------------
def cable(load):
    """Schilling's Algorithm 6-8-1 on the rod of Sec. 6-9 with f^2 = ``load`` (= -f^tool): f^1 =
    f^2 + m1 a_c (the rod's centre accelerates by v_dot^0 plus half the tip's motion), n^1 its
    moment about the joint, tau1 = n^1_z = m1 a1^2/3 qdd1 + m1 g a1 C1/2 + (a1 u1 x f^2)_z."""
    centre = Matrix([0, g, 0]) + a1 / 2 * Matrix([-S1 * qdd1 - C1 * qd1**2,
                                                  C1 * qdd1 - S1 * qd1**2, 0])
    f = load + m1 * centre
    tau = m1 * a1**2 / 3 * qdd1 + m1 * g * a1 * C1 / 2 + a1 * (C1 * load[1] - S1 * load[0])
    return f, Matrix([0, 0, tau]), tau


def pulled(angle):
    """f^2 = -f^tool for the cable pulling the tool with F along (cos angle, -sin angle, 0)."""
    return Matrix([-F * cos(angle), F * sin(angle), 0])


def radians(given) -> sympy.Expr:
    return sympy.pi * exact(given["phi"]) / 180


def right(question: str, given: dict):
    """The answer for these givens, by hand."""
    if question == "N.4":
        return cable(pulled(radians(given)))
    return two_link(question, exact(given["lam"]))


def two_link(question: str, lam) -> tuple:
    """The answer of G.1, G.2, N.2 or N.3 for link 2 of length ``lam l``."""
    if question == "G.1":
        return D_parts(lam)
    if question == "G.2":
        return Matrix([0, 0]), h_tran_of(lam)
    if question == "N.2":
        return forward(lam)
    return backward(lam)[:2]


def mistakes(question: str, given: dict) -> list:
    """``[(answer, words of the feedback)]``: each typical slip, at these givens."""
    if question == "N.4":
        angle = radians(given)
        f, n, tau = cable(pulled(angle))
        slips = [(cable(-pulled(angle)), "the backward pass starts from f^2 = -f^tool"),
                 (cable(Matrix([0, 0, 0])), "the load is missing"),
                 (cable(pulled(sympy.pi / 2)), "that is a load hanging straight down"),
                 (cable(pulled(sympy.pi / 2 - angle)), "measured from the HORIZONTAL x0")]
        return [(tuple(wrong[k] if k == index else (f, n, tau)[k] for k in range(3)), words)
                for wrong, words in slips for index in range(3)]
    lam = exact(given["lam"])
    book = "that is the book's arm, whose two links are equally long"
    if question == "G.1":
        D_rot, D_tran = D_parts(lam)
        own = Matrix([[m1 * l**2 / 12, D_rot[0, 1]], [D_rot[1, 0], D_rot[1, 1]]])
        return [((D_parts(lam, about_ends=True)[0], D_tran), "about its CENTRE OF MASS"),
                ((own, D_tran), "joint 1 turns link 2 too"),
                ((D_parts(1)[0], D_tran), book),
                ((D_rot, D_parts(lam, point_masses=True)[1]), "not at its tip"),
                ((D_rot, D_parts(1)[1]), book)]
    if question == "G.2":
        zero = Matrix([0, 0])
        return [((zero, h_tran_of(lam, point_masses=True)), "not at its tip"),
                ((zero, h_tran_of(1)), book)]
    if question == "N.2":
        v_dot, a_bar = forward(lam)
        return [((forward(lam, gravity=-1)[0], a_bar), "an UPWARD acceleration of the base"),
                ((forward(lam, gravity=0)[0], a_bar), "the recursion starts from v_dot_0"),
                ((forward(lam, rotated=False)[0], a_bar), "turn it into frame 2 with 2R1"),
                ((forward(1)[0], a_bar), book),
                ((v_dot, forward(lam, gravity=-1)[1]), "an UPWARD acceleration of the base"),
                ((v_dot, forward(lam, gravity=0)[1]), "a_bar_2 carries gravity through"),
                ((v_dot, forward(lam, behind=False)[1]), "HALF A LINK BEHIND"),
                ((v_dot, v_dot), "that is v_dot_2, the acceleration of the origin of frame 2"),
                ((v_dot, forward(1)[1]), book)]
    f, n, spin, about_tip = backward(lam)
    printed = n + Matrix([0, 0, m2 * (lam * l)**2 * (qdd1 + qdd2) / 6])
    return [((backward(lam, gravity=-1)[0], n), "link 1 must push link 2 up"),
            ((backward(lam, gravity=0)[0], n), "link 1 also carries link 2's weight"),
            ((backward(1)[0], n), book),
            ((f, about_tip), "not s_2 from the tip"),
            ((f, printed), "the slip of the tau_2 printed at the end of Sec. 3.3.7"),
            ((f, spin), "that is N_2 alone"),
            ((f, backward(1)[1]), book)]


#: A point of the symbols at which answers are compared here (no term vanishes there)
AT = {m1: 1.3, m2: 0.7, l: 0.8, g: G0, a1: 0.7, F: 4.5, q1: 0.7, q2: -1.9, qd1: 0.6,
      qd2: -1.3, qdd1: 0.4, qdd2: 0.9}


def values(answer) -> np.ndarray:
    """An answer's entries (every part's) at :data:`AT`."""
    return np.concatenate([np.array(Matrix([p]).xreplace(AT).evalf(), dtype=float).ravel()
                           for p in answer])


# -- the hand-written answers are dynlab's numbers -------------------------------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_the_answers_written_out_here_are_dynlabs_numbers_at_each_students_values(question):
    """At alice's and bob's values: G.1, G.2 against dynlab's G-D terms, N.2, N.3 against link
    2's record of Luh's recursion on the arm of uniform rods of lengths l and lam l (Schilling's
    version of the arm, ``planar_2r("schilling")``), N.4 against Schilling's base-frame
    recursion on ``pendulum`` whose tool pulls the cable with -f^tool."""
    state = ([AT[q1], AT[q2]], [AT[qd1], AT[qd2]], [AT[qdd1], AT[qdd2]])
    for student in classmates(question):
        given = dict(variant(question, student=student))
        if question == "N.4":
            angle = math.radians(given["phi"])
            arm = pendulum(m1=AT[m1], a1=AT[a1]).replace(
                tip_force=(-AT[F] * math.cos(angle), AT[F] * math.sin(angle), 0.0))
            tau, trace = inverse_dynamics(arm, [AT[q1]], [AT[qd1]], [AT[qdd1]], variant="base",
                                          trace=True)
            theirs = np.concatenate([np.ravel(trace[1]["f"]), np.ravel(trace[1]["n"]),
                                     np.ravel(tau)]).astype(float)
        else:
            arm = planar_2r("schilling", m1=AT[m1], m2=AT[m2], a1=AT[l],
                            a2=AT[l] * given["lam"], g=G0)
            if question in ("G.1", "G.2"):
                terms = equations_of_motion(arm, *state[:2], method="dalembert").terms
                names = ("D_rot", "D_tran") if question == "G.1" else ("h_rot", "h_tran")
                theirs = np.concatenate([np.ravel(np.asarray(terms[k], dtype=float))
                                         for k in names])
            else:
                _, trace = inverse_dynamics(arm, *state, variant="link", trace=True)
                names = ("v_dot", "a_bar") if question == "N.2" else ("f", "n")
                theirs = np.concatenate([np.ravel(trace[2][k]) for k in names]).astype(float)
        ours = values(right(question, given))
        assert np.allclose(ours, theirs, rtol=1e-12, atol=1e-12), (student, ours, theirs)


# -- the givens ----------------------------------------------------------------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_each_question_declares_givens_on_a_round_grid_of_at_least_4_values(question):
    parameters = assert_givens_on_a_round_grid(question)
    book = {"lam": 1.0, "phi": 90.0}                     # the books' own cases are not drawn
    assert not [n for n, spec in parameters.items() if book[n] in grid_values(spec)]


def test_h_rot_of_g2_is_everyones():
    """G.2's h_rot is the same for every arm of these: zero at every student's lam."""
    for lam in grid_values(keys()["G.2"]["parameters"]["lam"]):
        assert not values(right("G.2", {"lam": lam})[:1]).any()


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_graded_answer_differs_from_the_practice_answer_for_every_student(question):
    assert_the_graded_answer_differs_from_the_practice_answer(
        question, right, values, [f"u{n}" for n in range(30)])


@pytest.mark.parametrize("question", QUESTIONS)
def test_no_grid_value_makes_a_typical_mistake_right(question):
    """Over every value of the grid, each slip differs from the right answer in the part it
    changes (and a copy of the book's case is never right)."""
    assert_no_grid_value_makes_a_typical_mistake_right(question, right, mistakes, values)


# -- (a) - (d) -----------------------------------------------------------------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_an_answer_at_my_values_is_right_for_me_and_0_for_a_classmate(question):
    assert_right_for_me_and_not_for_a_classmate(question, right, SHARED)


@pytest.mark.parametrize("question", QUESTIONS)
def test_an_answer_computed_in_floats_from_given_is_right(question, monkeypatch):
    """What a student's code gives from ``given`` (``given["lam"] * l``; ``math.radians(
    given["phi"])``, or ``sympy.rad(given["phi"])``, a float times SymPy's pi): right in check()
    of the student's own kernel, and in the grader, to which it travels as data."""
    alice, _ = classmates(question)
    monkeypatch.setenv("DYNLAB_STUDENT", alice)
    given = variant(question)
    if question == "N.4":
        answers = [cable(pulled(sympy.Float(math.radians(given["phi"])))),
                   cable(pulled(sympy.rad(given["phi"])))]
        assert answers[1][2].has(sympy.pi)
    else:
        answers = [two_link(question, sympy.Float(given["lam"]))]
    for answer in answers:
        assert check(question, answer).correct
        assert points(question, answer, alice) == full(question)


@pytest.mark.parametrize("question", QUESTIONS)
def test_with_the_course_secret_the_practice_answer_scores_0_and_the_graded_one_full(question,
                                                                                     marks):
    assert_for_marks_the_practice_answer_earns_only_the_shared_parts(question, right, CLASS[:4],
                                                                     SHARED)


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_typical_mistake_is_recognised_at_other_students_values(question):
    assert_every_typical_mistake_is_named(question, mistakes, CLASS[1:4])


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_feedback_prints_no_term_of_the_key_at_any_students_values(question, monkeypatch):
    """The key at alice's and bob's values is never printed for a wrong answer: a part scaled
    by 7/5, another with a stray term."""
    stray = {"N.4": m1 * g * S1, "G.1": m2 * l**2 * S2}.get(question, m2 * l * qd1 * qd2 * C2)

    def wrong(answer):
        return [(answer[0] * sympy.Rational(7, 5),
                 answer[1] + Matrix(answer[1]).applyfunc(lambda _: stray)) + tuple(answer[2:])]
    assert_the_feedback_prints_no_term_of_the_key(question, right, wrong, monkeypatch)


# -- dynlab grade --keys: the chapter's solution code run again with the graded values -----------
@pytest.mark.end_to_end
def test_dynlab_grade_runs_the_solution_code_with_each_students_graded_values(tmp_path):
    """solutions/06 up to question 6, handed in by alice (its code reads ``given``) and by eve
    (the same code, each ``given`` typed in as the values her own notebook shows her, her
    practice values): in ``dynlab grade --keys``, each kernel in its sandbox, alice earns full
    marks at her graded values; eve earns only what every student shares (G.2's h_rot).  N.1,
    whose givens twist joint 2, is typed in the same way."""
    import nbformat

    from dynlab.grading import grade_submissions
    from dynlab.grading.keys import use_keys
    notebook = "06_dalembert_newton_euler_and_simulation"
    solution = nbformat.read(Path(__file__).resolve().parents[2] / "solutions"
                             / f"{notebook}.ipynb", as_version=4)
    last = next(i for i, cell in enumerate(solution.cells)
                if cell.metadata.get("nbgrader", {}).get("grade_id") == "check-N_4")
    cells = [cell for cell in solution.cells[:last + 1] if cell.cell_type == "code"]
    typed = []
    for cell in cells:
        cell = nbformat.from_dict(cell)
        for question in QUESTIONS + ("N.1",):
            if f'given = variant("{question}")' in cell.source:
                cell.source = f"given = {dict(variant(question, student='eve'))!r}"
        typed.append(cell)
    hand_in(tmp_path / "in", notebook, {student: nbformat.from_dict(dict(solution, cells=kept))
                                        for student, kept in (("alice", cells), ("eve", typed))})
    folder = instructor_folder(tmp_path / "keys")
    try:
        book = grade_submissions([tmp_path / "in"], workers=1, notebook_time_limit=300,
                                 keys=folder)
    finally:
        use_keys(None)
    ours = ("G.1", "G.2", "N.1", "N.2", "N.3", "N.4")
    points = {student: {q: book.question_points(student)[q] for q in ours}
              for student in ("alice", "eve")}
    assert points == {"alice": {q: full(q) for q in ours},
                      "eve": {"G.1": 0.0, "G.2": 1.0, "N.1": 0.0, "N.2": 0.0, "N.3": 0.0,
                              "N.4": 0.0}}, (points, book.notes)
