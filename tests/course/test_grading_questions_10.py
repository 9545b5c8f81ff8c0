"""The graded questions of solutions/10_identifying_an_arm (chapter 12): each right answer,
worked by hand in tests/course/by_hand/identifying.py (Khalil & Dombre's count, the rods'
groupings, a regressor from Lagrange's equations, least squares by QR; not dynlab's
identification), passes; each typical wrong answer gets its specific feedback; the route by hand
agrees with dynlab where both compute the same thing; and ``dynlab grade`` gives a submission
with the solution's answers full marks and a blank one none.  The givens are each student's own
(dynlab.grading.variants): the tests run as the student ``student`` (conftest.py), whose
practice values ``check()`` grades."""

import math

import numpy as np
import pytest

from dynlab import Link, Robot, inverse_dynamics
from dynlab.dynamics.identification import parameter_names, torque_regressor
from dynlab.grading import check, keys, questions, variant
from dynlab.grading.variants import grid_values
from dynlab.model.robots import planar_2r
from tests.support.graded_course import answered, dynlab_grade, hand_in, solution_answers

from .by_hand.identifying import (
    base_regressor,
    condition,
    count,
    data_set,
    estimates,
    grouping,
    mistakes,
    right,
)
from .test_instructor_keys import marks  # noqa: F401

NOTEBOOK = "10_identifying_an_arm"
QUESTIONS = ("I.1", "I.2", "I.3", "I.4")
GIVEN = {q: dict(variant(q)) for q in QUESTIONS}


def test_the_table_covers_every_question_and_the_points_add_up():
    assert set(QUESTIONS) == set(questions(NOTEBOOK))
    assert sum(keys()[q]["points"] for q in questions(NOTEBOOK)) == 6


def planar_arm(n, rng):
    """A planar arm of ``n`` revolute joints about parallel horizontal axes, each link a general
    body drawn from ``rng``, in a vertical plane."""
    links = []
    for _ in range(n):
        x, y = rng.uniform(0.01, 0.05, 2)              # moments a rigid body can have
        links.append(Link("R", a=rng.uniform(0.2, 0.6), alpha=0, mass=rng.uniform(0.5, 3),
                          com=tuple(rng.uniform(-0.2, 0.2, 3)),
                          inertia=np.diag([x, y, 0.9 * (x + y)])))
    return Robot(links, gravity=(0, -9.81, 0))


@pytest.mark.parametrize("n", [2, 3, 5, 7])
def test_the_count_by_hand_is_the_rank_of_the_stacked_regressor(n, rng):
    """Khalil & Dombre's count 3n + (n - 1) + 2n is the numeric rank of Y (13n columns) stacked
    over random states (Gautier (1991)); without rotors and friction 3n, in a horizontal plane
    two fewer."""
    arm = planar_arm(n, rng)
    states = [rng.uniform(-2, 2, (12 * n, n)) for _ in range(3)]
    Y = torque_regressor(arm, *states, rotor=True, friction=True)
    assert Y.shape[1] == 13 * n == len(parameter_names(n, rotor=True, friction=True))
    assert np.linalg.matrix_rank(Y) == count(n) == 6 * n - 1
    assert np.linalg.matrix_rank(torque_regressor(arm, *states)) == count(n, False, False)
    flat = Robot(arm.links, gravity=(0, 0, -9.81))
    assert np.linalg.matrix_rank(torque_regressor(flat, *states, rotor=True, friction=True)) \
        == count(n, gravity_shows=False)


def test_the_lagrange_regressor_is_dynlabs_base_columns(rng):
    """The regressor by Lagrange's equations is dynlab's Newton-Euler one's columns ZZ1, MX1,
    MY1, ZZ2, MX2, MY2 (10 a link), at random states and lengths."""
    for a1 in (0.3, 0.62):
        q, qd, qdd = (rng.uniform(-2, 2, (9, 2)) for _ in range(3))
        dynlabs = torque_regressor(planar_2r("schilling", a1=a1), q, qd, qdd)
        assert np.allclose(base_regressor(q, qd, qdd, a1=a1), dynlabs[:, [9, 1, 2, 19, 11, 12]],
                           rtol=0, atol=1e-12)


def test_the_grouping_by_hand_is_what_the_torques_show(rng):
    """ZZ1R, MX1R by hand at two grid points: Y_b pi_b (by hand) equals dynlab's torques of the
    arm, with ZZ2R = -2/3 m2 a2^2, MX2R = m2 a2/2 (a rod about its far end) and MY = 0."""
    for a1, m2 in ((0.3, 0.8), (0.62, 2.3)):
        arm = planar_2r("schilling", a1=a1, m2=m2)
        ZZ1R, MX1R = grouping(a1, m2)
        pi_b = [ZZ1R, MX1R, 0.0, -2 * m2 * 0.4**2 / 3, m2 * 0.4 / 2, 0.0]
        q, qd, qdd = (rng.uniform(-2, 2, (5, 2)) for _ in range(3))
        tau = np.array([inverse_dynamics(arm, *state) for state in zip(q, qd, qdd)])
        assert np.allclose(base_regressor(q, qd, qdd, a1=a1) @ pi_b, tau.ravel(), atol=1e-10)


def test_the_estimate_is_within_a_few_standard_deviations_of_the_arms_own():
    """Over the grid, each estimate by hand lies within 4.5 of its standard deviations
    sqrt(sigma^2 (Y^T Y)^-1) of the arm's own base parameters (Gautier & Poignet (2001)), and the
    estimates of neighbouring students are far apart (their m2 differ)."""
    found = []
    for m2 in grid_values(keys()["I.3"]["parameters"]["m2"]):
        data = data_set(m2)
        Y = base_regressor(data.q, data.qd, data.qdd)
        numbers = estimates(m2)
        residual = data.tau.ravel() - Y @ numbers["right"]
        sigma2 = residual @ residual / (Y.shape[0] - Y.shape[1])
        std = np.sqrt(sigma2 * np.diag(np.linalg.inv(Y.T @ Y)))
        assert np.all(np.abs(numbers["right"] - numbers["truth"]) <= 4.5 * std), m2
        found.append(numbers["right"])
    assert np.min(np.abs(np.diff(found, axis=0)).max(axis=1)) > 0.05


def test_the_condition_number_grows_with_the_period():
    """The takeaway of I.4: played slower, the same coefficients excite the inertias less."""
    periods = grid_values(keys()["I.4"]["parameters"]["T"])
    values = [condition(T) for T in periods]
    assert all(b > 1.01 * a for a, b in zip(values, values[1:]))
    assert 10 < values[0] < values[-1] < 60


def test_the_data_set_is_each_students_own():
    """The seed comes from the given: two students' data sets differ in their noise as well as
    their arm, and one student's is the same every time."""
    one, other = data_set(1.2), data_set(1.6)
    assert not np.allclose(one.tau, other.tau)
    assert np.array_equal(one.tau, data_set.__wrapped__(1.2).tau)


RIGHT = {q: right(q, GIVEN[q]) for q in QUESTIONS}
WRONG = [(q, answer, words) for q in QUESTIONS for answer, words in mistakes(q, GIVEN[q])]


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_right_answer_passes(question):
    feedback = check(question, RIGHT[question])
    assert feedback.correct and feedback.points == keys()[question]["points"], str(feedback)


@pytest.mark.parametrize("question, answer, words", WRONG,
                         ids=[f"{row[0]}:{row[2][:30]}" for row in WRONG])
def test_a_wrong_answer_gets_its_specific_feedback(question, answer, words):
    feedback = check(question, answer)
    assert not feedback.correct and feedback.status == "incorrect", str(feedback)
    assert words in str(feedback), str(feedback)


@pytest.mark.end_to_end
def test_dynlab_grade_scores_the_solution_full_and_a_blank_exercise_zero(tmp_path):
    hand_in(tmp_path / "in", NOTEBOOK, {"alice": answered(NOTEBOOK, solution_answers(NOTEBOOK)),
                                        "bob": answered(NOTEBOOK, {})})
    rows = dynlab_grade(tmp_path / "in", tmp_path / "grades.csv")
    assert float(rows["alice"]["total"]) == 6 == float(rows["alice"]["max"])
    assert float(rows["bob"]["total"]) == 0


# -- what a graded run refuses --------------------------------------------------------------------
_ROUTES = r"""
import json, math, sys
import numpy as np
from dynlab.grading import own_work
own_work.install(own_work.refused_calls(sys.argv[1:]))
from dynlab.dynamics.estimation import FourierTrajectory
from dynlab.dynamics.explicit_model import explicit_model
from dynlab.dynamics.identification import torque_regressor
from dynlab.model.robots import planar_2r
from dynlab.teaching.dashboards.identification import IdentificationDashboard
arm = planar_2r("schilling", a1=0.38, m2=0.8)
path = FourierTrajectory(2 * math.pi / 8.0, [0.3, 0.8], [[0.6, -0.3, 0.2], [-0.5, 0.4, 0.3]],
                         [[0.2, 0.5, -0.2], [0.4, -0.3, 0.2]])
result = {}
for name, attempt in {
        "explicit_model": lambda: explicit_model(arm, samples=1).values[:2],
        "dashboard": lambda: IdentificationDashboard(arm, path, render=False).truth[:2],
        "torque_regressor": lambda: np.linalg.cond(torque_regressor(
            arm, *path.at(path.times(50)))[:, [9, 1, 2, 19, 11, 12]])}.items():
    try:
        attempt()
        result[name] = "allowed"
    except own_work.OwnWorkAsked as error:
        result[name] = str(error)
print(json.dumps(result))
"""


@pytest.mark.parametrize("question, refused", [
    ("I.2", {"explicit_model", "dashboard"}), ("I.3", {"explicit_model", "dashboard"}),
    ("I.4", {"explicit_model", "dashboard"}), ("C.1", set())])
def test_chapter_12s_explicit_model_and_dashboard_refuse_in_a_graded_run(question, refused):
    """``explicit_model(arm).values[:2]`` is I.2's answer, its ``.base.regressor`` the base
    regressor of I.3 and I.4 (``base_parameters`` got round), and chapter 12's dashboard shows
    the truth (I.2), the OLS estimate on the student's data set (I.3) and the condition number
    (I.4): each question's graded run refuses both, as it refuses ``base_parameters``;
    ``torque_regressor``, the question's own route, stays; another notebook's run keeps all."""
    import json
    import subprocess
    import sys
    from pathlib import Path
    done = subprocess.run([sys.executable, "-c", _ROUTES, question], capture_output=True,
                          text=True, cwd=Path(__file__).resolve().parents[2], timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().split("\n")[-1])
    assert {name for name, said in result.items() if said != "allowed"} == refused, result
    assert all(said.startswith(f"{question} asks for your own derivation")
               for name, said in result.items() if name in refused), result


#: The answers of chapter 12's library routes round the refused calls (a student's cells)
PATH = ("played = FourierTrajectory(2 * math.pi / 8.0, [0.3, 0.8], [[0.6, -0.3, 0.2], "
        "[-0.5, 0.4, 0.3]], [[0.2, 0.5, -0.2], [0.4, -0.3, 0.2]])\n")
ROUTES = {
    "explicit": {
        "answer-I_2": "from dynlab.dynamics.explicit_model import explicit_model\n"
                      "ZZ1R, MX1R = explicit_model(planar_2r('schilling', a1=given['a1'], "
                      "m2=given['m2']), samples=1).values[:2]",
        "answer-I_3": "from dynlab.dynamics.explicit_model import explicit_model\n"
                      "Y_b = explicit_model(lab_arm, samples=1).base.regressor(data.q, data.qd, "
                      "data.qdd)\npi_b = np.linalg.lstsq(Y_b, data.tau.ravel(), rcond=None)[0]",
        "answer-I_4": "from dynlab.dynamics.explicit_model import explicit_model\n"
                      "base = explicit_model(planar_2r('schilling'), samples=1).base\n"
                      "played = FourierTrajectory(2 * math.pi / given['T'], path.q0, path.a, "
                      "path.b)\nkappa = np.linalg.cond(base.regressor(*played.at(played.times("
                      "50))))"},
    "dashboard": {
        "answer-I_2": "from dynlab.teaching.dashboards.identification import "
                      "IdentificationDashboard\n" + PATH +
                      "ZZ1R, MX1R = IdentificationDashboard(planar_2r('schilling', "
                      "a1=given['a1'], m2=given['m2']), played, render=False).truth[:2]",
        "answer-I_3": "from dynlab.teaching.dashboards.identification import "
                      "IdentificationDashboard\n"
                      "pi_b = IdentificationDashboard(lab_arm, path, noise=0.05, encoder_bits=12, "
                      "samples=400, seed=round(100 * given['m2']), render=False).estimate.values",
        "answer-I_4": "from dynlab.teaching.dashboards.identification import "
                      "IdentificationDashboard\n"
                      "played = FourierTrajectory(2 * math.pi / given['T'], path.q0, path.a, "
                      "path.b)\nkappa = IdentificationDashboard(planar_2r('schilling'), played, "
                      "render=False).condition"}}


@pytest.mark.end_to_end
def test_dynlab_grade_for_marks_gives_the_library_routes_nothing(tmp_path):
    """``dynlab grade --keys``: the solution keeps full marks; answers read off chapter 12's
    explicit model or dashboard (each right in practice, where nothing refuses) earn nothing for
    I.2-I.4, and the notes say that the question asks for the student's own work."""
    from tests.course.test_instructor_keys import instructor_folder
    handed = {"honest": answered(NOTEBOOK, solution_answers(NOTEBOOK)),
              **{name: answered(NOTEBOOK, cells) for name, cells in ROUTES.items()}}
    rows = dynlab_grade(hand_in(tmp_path / "in", NOTEBOOK, handed), tmp_path / "grades.csv",
                        keys=instructor_folder(tmp_path / "keys"), notebook_time_limit=300)
    assert float(rows["honest"]["total"]) == 6 == float(rows["honest"]["max"]), rows["honest"]
    for name in ROUTES:
        assert float(rows[name]["total"]) == 0, rows[name]
        assert "ask for your own derivation" in rows[name]["notes"], rows[name]


def _formulas(text: str) -> list:
    """Each side of each ``=`` in the ``$...$`` mathematics of ``text`` that reads as an
    expression (``m_1`` as ``m1``, ``a_1^2`` as ``a1**2``, a product by juxtaposition)."""
    import re

    import sympy
    from sympy.parsing.sympy_parser import (
        implicit_multiplication,
        parse_expr,
        standard_transformations,
    )
    read = []
    for formula in re.findall(r"\$([^$]+)\$", text):
        formula = re.sub(r"\\,|\\left|\\right", "", formula)
        formula = re.sub(r"\b([A-Za-z]+)_\{?(\w+)\}?", r"\1\2", formula).replace("^", "**")
        for side in formula.split("="):
            try:
                read.append(parse_expr(side, transformations=(*standard_transformations,
                                                              implicit_multiplication)))
            except Exception:                            # noqa: BLE001 - prose, not a formula
                continue
    return [e for e in read if isinstance(e, sympy.Expr)]


@pytest.mark.usefixtures("marks")
@pytest.mark.parametrize("question", QUESTIONS)
def test_no_note_a_student_can_unseal_states_the_answer_in_the_givens(question):
    """The hint and the takeaway travel in the shipped key, where one line unseals them
    (``note(keys()[q], "takeaway")``, or an answer found at the practice values by checking
    integers in turn): a formula in them that is the instructor's key at every value of the
    givens' grids (with the question's m1 = 2 kg) would answer every student's graded values.
    (I.1's takeaway said 3n + (n - 1) + 2n = 6n - 1, I.2's MX1R = (m1/2 + m2) a1.)"""
    import itertools

    import sympy

    from dynlab.grading.keys import note, reference
    key = keys()[question]
    names = list(key["parameters"])
    points = list(itertools.product(*(grid_values(key["parameters"][n]) for n in names)))
    answers = [sympy.sympify(e) for part in key["parts"] for e in reference(key)[part["name"]]]
    fixed = {sympy.Symbol("m1"): sympy.Integer(2), sympy.Symbol("M1"): sympy.Integer(2),
             sympy.Symbol("M2"): sympy.Symbol("m2")}

    def at(expr, point):
        return float(expr.xreplace({sympy.Symbol(n): v for n, v in zip(names, point)}))
    for text in (note(key, "hint") or "", note(key, "takeaway") or ""):
        for formula in _formulas(text):
            formula = formula.xreplace(fixed)
            if not formula.free_symbols or not formula.free_symbols <= set(
                    map(sympy.Symbol, names)):
                continue
            for answer in answers:
                assert not all(math.isclose(at(formula, p), at(answer, p), rel_tol=1e-9)
                               for p in points), (question, formula, text)
