"""A variant per student for three numeric questions (issue 24, item 5): Prob. 3.13(a) on a
sloping ceiling (the local g and the slope), Prob. 3.11 at a state of the PUMA 560 (q2, q3 and
the joint speeds) and the energy Euler's method adds to the pendulum (the rod's mass).

Each right answer here is computed by a route of its own, not from the key: Prob. 3.13(a) by hand
(gravity turned into the ceiling's frame), Prob. 3.11 by dynlab's Newton-Euler routine probed at
the student's state, S.2 by Lynch & Park's Euler iteration (Sec. 8.5) written out on Schilling's
one-axis arm.  For each question: the right answer scores full points for alice and for bob at
their practice values, alice's number scores 0 for bob, for marks (a course secret) the
practice-value answer scores 0 and the graded-value answer full, and every typical mistake is
still named at other students' values.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from dynlab import inverse_dynamics, simulate
from dynlab.grading import answers, check_for_student, keys, variant
from dynlab.grading.keys import use_keys
from dynlab.grading.scoring import points_of_data as marks
from dynlab.model.robots import pendulum, puma560

from .test_instructor_keys import SECRET, instructor_folder  # noqa: E402


QUESTIONS = ("3.13a", "3.11", "S.2")
CLASS = [f"s{number:04d}" for number in range(40)]
G0 = 9.8062                 # standard gravity (dynlab's g)
A_ROD = 0.5                 # the pendulum's length, m


# -- the right answers and the typical mistakes, each by a route of its own -----------------------
def ceiling_gravity(g: float, tilt_radians: float) -> np.ndarray:
    """Gravity in frame 0 of the sloping ceiling: (g, 0, 0) in the level ceiling's frame (x0
    down), read in that frame turned by Rz(tilt): Rz(tilt)^T (g, 0, 0)."""
    c, s = math.cos(tilt_radians), math.sin(tilt_radians)
    return np.array([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]]) @ np.array([g, 0.0, 0.0])


def gravity_vectors(gravity) -> tuple:
    """L-E's row vector (gravity itself, Fu, Gonzalez & Lee, Eq. (3.2-22)) and N-E's v_dot0 = -g
    (Eq. (3.3-46))."""
    gravity = np.asarray(gravity, dtype=float)
    return np.append(gravity, 0.0), -gravity


def probed(given: dict, velocities=False, gravity_in_D=False, gravity_in_h=False,
           velocities_in_c=False, degrees=False) -> tuple:
    """D, h, c of the PUMA 560's first three joints at (30 deg, q2, q3), (qd1, qd2, qd3) by
    calls of dynlab's Newton-Euler routine (Fu, Gonzalez & Lee, Prob. 3.11); the switches make
    the probing slips (velocities left on for D, gravity left on for D or h, velocities left on
    for c, the angles in degrees)."""
    arm = puma560(joints=3)
    q = np.array([30.0, given["q2"], given["q3"]])
    q = q if degrees else np.radians(q)
    qd = np.array([given["qd1"], given["qd2"], given["qd3"]])
    zero = np.zeros(3)
    c = inverse_dynamics(arm, q, qd if velocities_in_c else zero, zero)
    h = inverse_dynamics(arm, q, qd, zero, gravity=gravity_in_h)
    D = np.column_stack([inverse_dynamics(arm, q, qd if velocities else zero, e,
                                          gravity=gravity_in_D) for e in np.eye(3)])
    return D, h, c


def euler_gain(m1: float, h: float = 0.01) -> float:
    """E(2 s) - E(0) of Lynch & Park's Euler steps (Sec. 8.5) on the uniform rod (a = 0.5 m)
    released at rest from q = 0: qdd = -3 g cos q / (2 a) (Schilling, Eq. (6-9-22)),
    E = m a^2 qd^2 / 6 + m g (a/2) sin q."""
    q, qd = 0.0, 0.0
    for _ in range(round(2.0 / h)):
        q, qd = q + h * qd, qd + h * (-3 * G0 * math.cos(q) / (2 * A_ROD))
    return m1 * A_ROD**2 * qd**2 / 6 + m1 * G0 * A_ROD / 2 * math.sin(q)


def right_answer(question: str, given: dict):
    if question == "3.13a":
        return gravity_vectors(ceiling_gravity(given["g"], math.radians(given["tilt"])))
    if question == "3.11":
        return probed(given)
    return euler_gain(given["m1"])


def mistakes(question: str, given: dict) -> list:
    """``[(wrong answer, words its feedback must hold)]``: the typical mistakes at ``given``."""
    if question == "3.13a":
        g, tilt = given["g"], math.radians(given["tilt"])
        g_LE, v0 = right_answer(question, given)
        return [((-g_LE, v0), "in L-E, g is the acceleration of gravity itself"),
                ((g_LE, -v0), "N-E accelerates the base UPWARD"),
                (gravity_vectors(ceiling_gravity(g, 0.0)), "that is the level ceiling's"),
                (gravity_vectors(ceiling_gravity(g, -tilt)), "the y0 component has the wrong sign"),
                (gravity_vectors(ceiling_gravity(g, given["tilt"])),
                 "the slope was used in degrees where radians belong"),
                (gravity_vectors(ceiling_gravity(G0, tilt)), "that is standard gravity"),
                (gravity_vectors([0.0, 0.0, -g]), "that is the level system of the text")]
    if question == "3.11":
        D, h, c = probed(given)
        return [(probed(given, degrees=True), "the joint angles were used in degrees"),
                (probed(given, gravity_in_D=True), "each column of D still contains the gravity"),
                ((D, h + c, c), "h still contains the gravity torques c"),
                (probed(given, velocities_in_c=True), "c still contains the velocity terms h"),
                (probed(given, velocities=True), "each column of D still contains h:"),
                (probed(given, velocities=True, gravity_in_D=True),
                 "each column of D still contains h and c")]
    m1 = given["m1"]
    drift = simulate(pendulum(m1=m1), [0.0], [0.0], t_span=2.0, integrator="euler",
                     dt=0.01).energy_drift()
    return [(0.0, "that is the exact motion's energy change"),
            (euler_gain(m1, h=0.001), "that is Euler with a step of 1 ms"),
            (-euler_gain(m1), "Euler's method ADDS energy"),
            (drift, "that is energy_drift()"),
            (euler_gain(1.0), "that is the gain of pendulum()'s own rod, 1 kg")]


def as_submitted(answer):
    """The answer as a notebook would hand it in: lists of floats (or a float)."""
    if isinstance(answer, tuple):
        return tuple(np.asarray(part, dtype=float).tolist() for part in answer)
    return float(answer)


def students_with_different_values(question: str) -> tuple:
    """alice, and bob whose every graded given differs from alice's (so that every part of the
    answer does)."""
    alice = CLASS[0]
    mine = dict(variant(question, student=alice, secret=SECRET))
    bob = next(s for s in CLASS[1:] if all(
        value != mine[name]
        for name, value in dict(variant(question, student=s, secret=SECRET)).items()))
    return alice, bob


@pytest.fixture
def instructor_keys(tmp_path):
    """The instructor's keys in use (the shipped ones answer the practice values only)."""
    use_keys(instructor_folder(tmp_path / "keys"))
    yield
    use_keys(None)


# -- the tests ------------------------------------------------------------------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_the_question_has_givens_on_round_grids_that_change_its_answer(question):
    spec = keys()[question]["parameters"]
    for name, entry in spec.items():
        count = round((entry["high"] - entry["low"]) / entry["step"]) + 1
        assert count >= 4 and entry["unit"] and entry["text"], (name, entry)
    alice, bob = students_with_different_values(question)
    mine = as_submitted(right_answer(question, variant(question, student=alice, secret=SECRET)))
    theirs = as_submitted(right_answer(question, variant(question, student=bob, secret=SECRET)))
    for part_a, part_b in zip(*(x if isinstance(x, tuple) else (x,) for x in (mine, theirs))):
        assert not np.allclose(part_a, part_b, rtol=1e-3)


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_right_answer_scores_full_for_each_student_and_a_copied_one_0(question,
                                                                         instructor_keys):
    """At the practice values and at each one's graded values; alice's graded answer copied by
    bob: 0 for marks."""
    alice, bob = students_with_different_values(question)
    for student in (alice, bob):
        for secret in (None, SECRET):
            answer = as_submitted(right_answer(question, variant(question, student=student,
                                                                 secret=secret)))
            feedback = check_for_student(question, answer, student=student, secret=secret)
            assert feedback.correct and feedback.points == keys()[question]["points"], \
                (student, str(feedback))
    copied = as_submitted(right_answer(question, variant(question, student=alice, secret=SECRET)))
    feedback = check_for_student(question, copied, student=bob, secret=SECRET)
    assert feedback.points == 0 and not feedback.correct, str(feedback)
    assert "times the right value" not in str(feedback), str(feedback)     # no factor to undo


@pytest.mark.parametrize("question", QUESTIONS)
def test_for_marks_the_practice_answer_scores_0_and_the_graded_one_full(question, tmp_path):
    use_keys(instructor_folder(tmp_path / "keys"))
    try:
        for student in CLASS[:3]:
            practice = variant(question, student=student)
            graded = variant(question, student=student, secret=SECRET)
            assert all(graded[name] != practice[name] for name in practice)
            at_practice = marks(question, answers.serialize(
                as_submitted(right_answer(question, practice))), student=student)
            assert at_practice.total == 0, (student, at_practice.reasons)
            at_graded = marks(question, answers.serialize(
                as_submitted(right_answer(question, graded))), student=student)
            assert at_graded.total == sum(at_graded.maximum.values()) == \
                keys()[question]["points"], (student, at_graded.reasons)
    finally:
        use_keys(None)


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_typical_mistake_is_named_at_other_students_values(question):
    for student in CLASS[1:4]:
        given = variant(question, student=student)
        for wrong, words in mistakes(question, given):
            feedback = check_for_student(question, as_submitted(wrong), student=student)
            assert not feedback.correct and words in str(feedback), (student, str(feedback))


# -- dynlab grade --keys: the notebooks run again with each student's graded values ---------------
#: What the questions ask, computed from the givens the kernel shows (notebooks 02 and 03)
HONEST = {
    "02_two_link_arm_on_the_ceiling": ("3.13a", "(g_LE, v_dot0_NE)", (
        "import math\n"
        "gravity = [given['g'] * math.cos(math.radians(given['tilt'])),\n"
        "           -given['g'] * math.sin(math.radians(given['tilt'])), 0.0]\n"
        "g_LE, v_dot0_NE = gravity + [0.0], [-x for x in gravity]")),
    "03_probing_and_other_arms": ("3.11", "(D, h, c)", (
        "import numpy as np\n"
        "from dynlab import inverse_dynamics\n"
        "from dynlab.model.robots import puma560\n"
        "arm, zero = puma560(joints=3), np.zeros(3)\n"
        "q = np.radians([30.0, given['q2'], given['q3']])\n"
        "qd = np.array([given['qd1'], given['qd2'], given['qd3']])\n"
        "c = inverse_dynamics(arm, q, zero, zero)\n"
        "h = inverse_dynamics(arm, q, qd, zero, gravity=False)\n"
        "D = np.column_stack([inverse_dynamics(arm, q, zero, e, gravity=False)\n"
        "                     for e in np.eye(3)])")),
}


def _submission(path: Path, question: str, checked: str, answer_source: str) -> None:
    """A submitted notebook answering ``question`` only (its check cell keeps its grade id)."""
    import nbformat
    check_cell = nbformat.v4.new_code_cell(f'check("{question}", {checked})')
    check_cell.metadata["nbgrader"] = {
        "grade": True, "grade_id": "check-" + question.replace(".", "_"), "locked": True,
        "points": keys()[question]["points"], "schema_version": 3, "solution": False,
        "task": False}
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("from dynlab.grading import check, variant"),
        nbformat.v4.new_code_cell(f'given = variant("{question}")'),
        nbformat.v4.new_code_cell(answer_source), check_cell])
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)


@pytest.mark.end_to_end
def test_dynlab_grade_for_marks_runs_each_notebook_with_its_students_graded_values(tmp_path):
    """alice's code reads ``given``: full marks at her graded values, under ``dynlab grade
    --keys``; carol hands in alice's graded numbers, typed in: 0."""
    from dynlab.grading import grade_submissions
    folder = instructor_folder(tmp_path / "keys")
    alice, carol = students_with_different_values("3.11")
    for notebook, (question, checked, source) in HONEST.items():
        mine, hers = (variant(question, student=s, secret=SECRET) for s in (alice, carol))
        assert all(mine[name] != hers[name] for name in mine)    # every part of hers differs
        _submission(tmp_path / "in" / alice / f"{notebook}.ipynb", question, checked, source)
        numbers = as_submitted(right_answer(question, variant(question, student=alice,
                                                             secret=SECRET)))
        names = checked.strip("()").split(", ")
        typed = "\n".join(f"{name} = {value!r}" for name, value in zip(names, numbers))
        _submission(tmp_path / "in" / carol / f"{notebook}.ipynb", question, checked,
                    "import numpy as np\n" + typed + "     # alice's numbers")
    try:
        book = grade_submissions([tmp_path / "in"], workers=1, notebook_time_limit=200,
                                 keys=folder)
    finally:
        use_keys(None)
    points = {student: {q: book.question_points(student)[q] for q in ("3.13a", "3.11")}
              for student in (alice, carol)}
    assert points == {alice: {"3.13a": 1.0, "3.11": 3.0},
                      carol: {"3.13a": 0.0, "3.11": 0.0}}, (points, book.notes)
