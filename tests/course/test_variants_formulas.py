"""A variant per student for three questions that asked a formula the same for everyone (issue 24,
item 4): each now puts the student's own numbers into it.

- Prob. 3.14 (Fu, Gonzalez & Lee, Eqs. (3.2-17), (3.2-18)): the student's own link, its
  pseudo-inertia J_i given as numbers (J11, J22, J33, J12, J14 = m x_c, J44 = m; J13 = J23 = J24 =
  J34 = 0), and the answer its inertia tensor about the origin of frame i and about its centre of
  mass, in numbers.  Every combination of the grids is a rigid body's J_i.
- Y (Lynch & Park, Sec. 8.1.1): the 2R arm in a plane tilted by the student's beta from the
  horizontal, with the student's known L1: gravity's pull g sin(beta) along the plane puts
  g sin(beta)/L1 into the regressor's first two columns.
- N.1 (Fu, Gonzalez & Lee, Table 3.3, Eqs. (3.3-50), (3.3-51)): the two-link arm whose joint 2 is
  twisted by the student's alpha1 about x1, so omega_2 tips off z2 and the cross term
  omega_1 x z0 qd2 no longer vanishes.

Each right answer here is written out by hand from the printed formulas, not read from a key, and
checked against dynlab's numbers at the students' values (the pseudo-inertia of a link with that
mass, centre of mass and tensor; Newton-Euler torques of the tilted arm; Luh's recursion on the
twisted arm).  For each question: the right answer scores full points for alice and for bob at
their practice values, alice's answer scores 0 for bob, for marks (a course secret) the
practice-value answer scores 0 and the graded-value answer full, and every typical mistake is still
named at other students' values.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import sympy
from sympy import Matrix, Rational, cos, sin

from dynlab import Link, Robot, inverse_dynamics
from dynlab.formulations.lagrange_euler import pseudo_inertia
from dynlab.grading import check, keys, variant
from dynlab.grading.variants import grid_values, graded_values, practice_values
from dynlab.model.robots import planar_2r

from .test_feedback_secrecy import key_texts, leaked  # noqa: E402
from .test_instructor_keys import SECRET, marks  # noqa: E402,F401
from .variant_checks import (  # noqa: E402
    CLASS, assert_every_typical_mistake_is_named,
    assert_for_marks_the_practice_answer_earns_only_the_shared_parts,
    assert_right_for_me_and_not_for_a_classmate, classmates, full, instructor_keys_in_use,
    points)


QUESTIONS = ("3.14", "Y", "N.1")
G0 = 9.8062                                       # dynlab's g, m/s^2

g = sympy.Symbol("g", positive=True)
q1, q2, qd1, qd2, qdd1, qdd2 = sympy.symbols("q1 q2 qd1 qd2 qdd1 qdd2", real=True)
S2, C2, C1, C12 = sin(q2), cos(q2), cos(q1), cos(q1 + q2)
#: A point of the symbols at which symbolic answers are compared here
AT = {g: 9.8, q1: 0.4, q2: 2.3, qd1: 0.7, qd2: -1.2, qdd1: 0.9, qdd2: -0.5}
#: The printed cases, which no student gets: Y's horizontal and vertical planes and L1 = 1 m
#: (where g L1 and g/L1 agree), N.1's parallel axes (and 90 degrees); 3.14's zero products and
#: first moments, and a mass of 1 kg (where m r and r agree)
BOOK = {"Y": {"beta": (0.0, 45.0, 90.0), "L1": (1.0,)},
        "N.1": {"alpha1": (0.0, 45.0, 90.0)},
        "3.14": {"J12": (0.0,), "J14": (0.0,), "J44": (1.0,)}}


def exact(value) -> sympy.Rational:
    """A given as the exact decimal it is written as (0.35 as 7/20)."""
    return sympy.Rational(repr(float(value)))


def radians(degrees) -> sympy.Expr:
    return sympy.pi * exact(degrees) / 180


# -- the right answers, by hand -------------------------------------------------------------------
def tensors(given: dict) -> tuple:
    """Prob. 3.14: I about the origin of frame i is tr(S) E - S (the definition before Eq.
    (3.2-18): moments on the diagonal, the negated product integrals off it), written out for this
    link's S = [[J11, J12, 0], [J12, J22, 0], [0, 0, J33]]; about the centre of mass, at (x_c, 0, 0)
    with x_c = J14/J44, the parallel-axis theorem takes m x_c^2 = J14^2/J44 from I_yy and I_zz."""
    J11, J22, J33, J12, J14, J44 = (exact(given[n]) for n in
                                    ("J11", "J22", "J33", "J12", "J14", "J44"))
    origin = Matrix([[J22 + J33, -J12, 0], [-J12, J11 + J33, 0], [0, 0, J11 + J22]])
    shift = J14**2 / J44
    return origin, origin - sympy.diag(0, shift, shift)


def regressor(given: dict, pull=None) -> Matrix:
    """Y of the 2R arm (point masses at the link ends, Sec. 8.1.1) in the base parameters
    pi = ((m1 + m2) L1^2, m2 L1 L2, m2 L2^2): the horizontal arm's columns, plus gravity's
    (m1 + m2) g' L1 C1 = pi1 g'/L1 C1 and m2 g' L2 C12 = pi2 g'/L1 C12, with g' = g sin(beta)
    (``pull``: g'/L1 in its place)."""
    if pull is None:
        pull = g * sin(radians(given["beta"])) / exact(given["L1"])
    return Matrix([[qdd1 + pull * C1,
                    2 * C2 * qdd1 + C2 * qdd2 - S2 * (2 * qd1 * qd2 + qd2**2) + pull * C12,
                    qdd1 + qdd2],
                   [0, C2 * qdd1 + S2 * qd1**2 + pull * C12, qdd1 + qdd2]])


def rates(given: dict, angle=None) -> tuple:
    """N.1: Eqs. (3.3-50), (3.3-51) written out.  1R0 z0 = (0, sin a, cos a) (0R1 = Rz(q1) Rx(a),
    Eq. (3.2-5)), so omega_1 = (0, s qd1, c qd1), omega_1 x z0 qd2 = (s qd1 qd2, 0, 0), and link 2's
    quantities are those turned by 2R1 = Rz(q2)^T."""
    a = radians(given["alpha1"]) if angle is None else angle
    s, c = sin(a), cos(a)
    omega = Matrix([s * qd1 * S2, s * qd1 * C2, c * qd1 + qd2])
    omega_dot = Matrix([s * (qdd1 * S2 + qd1 * qd2 * C2), s * (qdd1 * C2 - qd1 * qd2 * S2),
                        c * qdd1 + qdd2])
    return omega, omega_dot


def right(question: str, given: dict):
    """The answer for these givens, by hand: the parts as a tuple, or Y alone."""
    if question == "3.14":
        return tensors(given)
    if question == "Y":
        return regressor(given)
    return rates(given)


def mistakes(question: str, given: dict) -> list:
    """``[(answer, words of the feedback)]``: each typical slip, at these givens."""
    if question == "3.14":
        origin, centre = tensors(given)
        J11, J22, J33, J12, J14, J44 = (exact(given[n]) for n in
                                        ("J11", "J22", "J33", "J12", "J14", "J44"))
        S = Matrix([[J11, J12, 0], [J12, J22, 0], [0, 0, J33]])
        flipped = Matrix(3, 3, lambda i, j: origin[i, j] if i == j else -origin[i, j])
        wrong_r = origin - J44 * sympy.diag(0, J14**2, J14**2)       # m (|h|^2 E - h h^T)
        return [((S, centre), "the inertia tensor is tr(S)*E - S"),
                ((flipped, centre), "the products of inertia have the wrong sign"),
                ((origin, origin), "that is the inertia about the origin of frame i"),
                ((origin, 2 * origin - centre), "the parallel-axis term has the wrong sign"),
                ((origin, wrong_r), "not the centre of mass r itself")]
    if question == "Y":
        Y = regressor(given)
        L1, beta = exact(given["L1"]), radians(given["beta"])
        draft, once = Matrix(Y), Matrix(Y)
        draft[1, 1] = C2 * qdd1 - S2 * qd1 * qd2 + g * sin(beta) / L1 * C12
        once[0, 1] = Y[0, 1] + S2 * qd1 * qd2
        return [(draft, "preliminary draft"), (once, "comes twice"),
                (Y[:, [2, 1, 0]], "the columns go with pi1, pi2, pi3"),
                (regressor(given, 0), "gravity is missing"),
                (regressor(given, g / L1), "that is the arm in a vertical plane"),
                (regressor(given, g * cos(beta) / L1), "beta is the tilt from the HORIZONTAL"),
                (regressor(given, -g * sin(beta) / L1), "the gravity terms have the wrong sign"),
                (regressor(given, g * sin(beta) * L1), "not times g*L1")]
    omega, omega_dot = rates(given)
    a = radians(given["alpha1"])
    planar = (Matrix([0, 0, qd1 + qd2]), Matrix([0, 0, qdd1 + qdd2]))
    in_frame_1 = Matrix([0, sin(a) * qd1, cos(a) * qd1 + qd2])
    no_cross = Matrix([sin(a) * qdd1 * S2, sin(a) * qdd1 * C2, cos(a) * qdd1 + qdd2])
    as_radians = rates(given, exact(given["alpha1"]))
    return [((Matrix([0, 0, qd2]), omega_dot), "ABSOLUTE angular velocity"),
            ((omega, Matrix([0, 0, qdd2])), "carries link 1's over"),
            ((planar[0], omega_dot), "that is the planar arm's"),
            ((omega, planar[1]), "that is the planar arm's"),
            ((omega, no_cross), "(1R0 omega_1) x z0 qd2 of Eq. (3.3-51) is missing"),
            ((in_frame_1, omega_dot), "that is omega_2 in frame 1"),
            ((rates(given, -a)[0], omega_dot), "the twist turns the wrong way"),
            ((as_radians[0], omega_dot), "is in degrees"),
            ((omega, as_radians[1]), "is in degrees")]


def values(answer) -> np.ndarray:
    """An answer's entries (every part's) at :data:`AT`."""
    parts = answer if isinstance(answer, tuple) else (answer,)
    return np.concatenate([np.array(Matrix(p).xreplace(AT).evalf(), dtype=float).ravel()
                           for p in parts])


def in_floats(question: str, given: dict):
    """What a student's code gives from ``given`` in floats (``math.radians(given["beta"])``,
    ``Matrix`` entries that are Python floats)."""
    if question == "3.14":
        return tuple(Matrix(np.array(part.evalf(), dtype=float)) for part in tensors(given))
    if question == "Y":
        return regressor(given, g * math.sin(math.radians(given["beta"])) / given["L1"])
    return rates(given, sympy.Float(math.radians(given["alpha1"])))


# -- the independent route: dynlab's numbers at the students' values ------------------------------
@pytest.mark.parametrize("student", CLASS[:4])
def test_the_hand_answers_are_dynlabs_numbers_at_each_students_values(student):
    """3.14: the link of that mass, centre of mass (J14/J44, 0, 0) and the hand's tensor about
    the centre has dynlab's pseudo-inertia equal to the student's J_i (and dynlab's Link accepts
    the tensor: a rigid body's).  Y: Y pi equals dynlab's Newton-Euler torques of the tilted arm.
    N.1: dynlab's link-frame recursion on the twisted arm."""
    given = dict(variant("3.14", student=student))
    origin, centre = tensors(given)
    mass = given["J44"]
    link = Robot([Link("R", mass=mass, com=(given["J14"] / mass, 0, 0),
                       inertia=np.array(centre, dtype=float), name="l")]).numeric()[0][0]
    J = np.zeros((4, 4))
    for name, value in given.items():
        r, c = int(name[1]) - 1, int(name[2]) - 1
        J[r, c] = J[c, r] = value
    assert np.allclose(np.array(pseudo_inertia(link), dtype=float), J, rtol=0, atol=1e-12)
    # I about the origin is the definition's: I_o = I_c + m (|r|^2 E - r r^T)
    r = np.array([given["J14"] / mass, 0, 0])
    assert np.allclose(np.array(origin, dtype=float),
                       np.array(centre, dtype=float) + mass * (r @ r * np.eye(3) - np.outer(r, r)))

    given = dict(variant("Y", student=student))
    m1, m2, L2 = 1.3, 0.6, 0.45
    L1, tilt = given["L1"], math.radians(given["beta"])
    arm = planar_2r("lynch_park", m1=m1, m2=m2, L1=L1, L2=L2).replace(
        gravity=(0.0, -G0 * math.sin(tilt), -G0 * math.cos(tilt)))
    state = ([0.4, 2.3], [0.7, -1.2], [0.9, -0.5])
    tau = inverse_dynamics(arm, *state, method="newton_euler")
    pi = Matrix([(m1 + m2) * L1**2, m2 * L1 * L2, m2 * L2**2])
    ours = (regressor(given) * pi).xreplace({**AT, g: G0}).evalf()
    assert np.allclose(np.array(ours, dtype=float).ravel(), np.asarray(tau, dtype=float),
                       rtol=1e-12, atol=1e-12)

    given = dict(variant("N.1", student=student))
    arm = planar_2r("fu").replace_link(1, alpha=math.radians(given["alpha1"]))
    _, trace = inverse_dynamics(arm, *state, variant="link", trace=True)
    for ours, name in zip(rates(given), ("omega", "omega_dot")):
        assert np.allclose(np.array(ours.xreplace(AT).evalf(), dtype=float).ravel(),
                           np.asarray(trace[2][name], dtype=float).ravel(), rtol=1e-12,
                           atol=1e-12), name


# -- the givens -----------------------------------------------------------------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_each_question_declares_givens_on_a_round_grid_of_at_least_4_values(question):
    key = keys()[question]
    assert key["parameters"]
    for name, spec in key["parameters"].items():
        assert len(grid_values(spec)) >= 4 and spec["text"] and spec["unit"]
        assert name not in {n for n, _ in key["symbols"]}
        assert not set(BOOK[question].get(name, ())) & set(grid_values(spec)), name


def test_every_link_of_the_grids_of_3_14_is_a_rigid_body():
    """J_i positive definite at every combination of the grids (the condition of a physically
    consistent body; the tensor about the centre of mass then has positive principal moments that
    obey the triangle inequality), checked at every point."""
    parameters = keys()["3.14"]["parameters"]
    names = list(parameters)
    grid = np.array(list(itertools.product(*(grid_values(parameters[n]) for n in names)))).T
    at = dict(zip(names, grid))
    J = np.zeros((grid.shape[1], 4, 4))
    for name, column in at.items():
        r, c = int(name[1]) - 1, int(name[2]) - 1
        J[:, r, c] = J[:, c, r] = column
    assert np.linalg.eigvalsh(J).min() > 0
    Ic = np.array([np.array(tensors(dict(zip(names, point)))[1], dtype=float)
                   for point in grid.T[::97]])
    moments = np.linalg.eigvalsh(Ic)
    assert (moments > 0).all()
    assert (moments[:, :2].sum(axis=1) >= moments[:, 2]).all()


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_graded_answer_differs_from_the_practice_answer_for_every_student(question):
    parameters = keys()[question]["parameters"]
    for student in [f"u{n}" for n in range(30)]:
        practice = right(question, practice_values(question, parameters))
        graded = right(question, graded_values(question, parameters, student, SECRET))
        assert np.abs(values(practice) - values(graded)).max() > 1e-6, student


@pytest.mark.parametrize("question", QUESTIONS)
def test_no_two_grid_points_share_an_answer_and_none_makes_a_mistake_right(question):
    """Over the grids (for 3.14 a spread of its 7168 points, each slip's difference checked at
    every point by its form: a product of inertia, a first moment and m - 1 are never 0), each
    slip differs from the right answer, and different givens give different answers."""
    parameters = keys()[question]["parameters"]
    combinations = list(itertools.product(*(grid_values(spec) for spec in parameters.values())))
    if question == "3.14":
        assert 0.0 not in grid_values(parameters["J12"]) + grid_values(parameters["J14"])
        assert all(m != 1.0 for m in grid_values(parameters["J44"]))
        combinations = combinations[::53]
    seen = {}
    for combination in combinations:
        given = dict(zip(parameters, combination))
        reference_values = values(right(question, given))
        for other, earlier in seen.items():
            assert not np.allclose(reference_values, earlier, rtol=1e-9), (given, other)
        seen[combination] = reference_values
        for answer, words in mistakes(question, given):
            assert not np.allclose(values(answer), reference_values, rtol=1e-6), (given, words)


# -- (a) - (d) ------------------------------------------------------------------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_an_answer_at_my_values_is_right_for_me_and_0_for_a_classmate(question):
    assert_right_for_me_and_not_for_a_classmate(question, right)


@pytest.mark.parametrize("question", QUESTIONS)
def test_an_answer_computed_in_floats_from_given_is_right_in_the_kernel_and_the_grader(
        question, monkeypatch):
    """At the practice values, in any student's kernel and the grader; for marks, at the graded
    values."""
    alice, bob = classmates(question)
    answer = in_floats(question, dict(variant(question)))
    for student in (alice, bob):
        monkeypatch.setenv("DYNLAB_STUDENT", student)
        assert check(question, answer).correct
        assert points(question, answer, student) == full(question)
    with instructor_keys_in_use():
        graded = in_floats(question, dict(variant(question, student=bob, secret=SECRET)))
        assert points(question, graded, bob) == full(question)
        assert points(question, answer, bob) == 0.0


@pytest.mark.parametrize("question", QUESTIONS)
def test_with_the_course_secret_the_practice_answer_scores_0_and_the_graded_one_full(question,
                                                                                     marks):
    assert_for_marks_the_practice_answer_earns_only_the_shared_parts(
        question, right, CLASS[:4], ())


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_typical_mistake_is_recognised_at_other_students_values(question):
    assert_every_typical_mistake_is_named(question, mistakes, CLASS[1:4])


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_feedback_prints_no_value_or_term_of_the_key(question, monkeypatch):
    """The key at the practice values is never printed for a wrong answer, in alice's kernel or
    bob's: the answer scaled by 7/5, one with a stray term or number, and every typical
    mistake."""
    key = keys()[question]
    for student in classmates(question):
        monkeypatch.setenv("DYNLAB_STUDENT", student)
        secrets = key_texts(key)
        given = dict(variant(question))
        answer = right(question, given)
        parts = answer if isinstance(answer, tuple) else (answer,)
        stray = Rational(3, 7) if question == "3.14" else g * qd1 * qd2 * C12
        wrong = tuple(p * Rational(7, 5) + Matrix(p).applyfunc(lambda _: stray) for p in parts)
        answers = [wrong if isinstance(answer, tuple) else wrong[0]] + \
            [a for a, _ in mistakes(question, given)]
        for attempt in answers:
            feedback = check(question, attempt)
            assert not feedback.correct
            text = "\n".join(feedback.messages)
            assert not leaked(text, secrets), (student, leaked(text, secrets), text)
