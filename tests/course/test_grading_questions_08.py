"""The graded questions of solutions/08_your_own_robot (the UR20 of chapter 10): each right
answer, worked here by hand from the file's joint table and the maker's table (not by dynlab),
passes; each typical wrong answer gets its specific feedback; and ``dynlab grade``, which runs a
submission in its sandbox and scores it outside, gives the points the formative ``check()``
gives.  The pose and the payload are each student's own (dynlab.grading.variants): the tests run
as the student ``student`` (conftest.py), whose practice values ``check()`` grades."""

import math

import numpy as np
import pytest

from dynlab.grading import Feedback, check, check_for_student, keys, part_points, questions, variant
from dynlab.model.robots import UR20_PARAMETERS
from tests.support.graded_course import answered, dynlab_grade, hand_in, solution_answers

NOTEBOOK = "08_your_own_robot"


# -- U.1: the screw axes at the student's pose (q2, q3 in degrees) ---------------------------------
def rotation(axis, angle):
    """Rodrigues' formula (Lynch & Park, Sec. 3.2.3): the turn by ``angle`` about ``axis``."""
    x, y, z = axis
    K = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]], dtype=float)
    return np.eye(3) + math.sin(angle) * K + (1 - math.cos(angle)) * K @ K


def turned(line, about, angle):
    """The line ``(omega, p)`` turned by ``angle`` about the line ``about``."""
    (omega, p), (axis, point) = line, about
    R = rotation(axis, angle)
    return R @ omega, point + R @ (p - point)


def screw(omega, p):
    return np.r_[omega, -np.cross(omega, p)]


# at home (the file's joint table): the shoulder's and the elbow's axes are -y of the base through
# (0, 0, 0.2363) and (-0.862, 0, 0.2363); wrist 2's is -z through (-1.5907, -0.201, 0.077)
SHOULDER = (np.array([0.0, -1.0, 0.0]), np.array([0.0, 0.0, 0.2363]))
ELBOW = (np.array([0.0, -1.0, 0.0]), np.array([-0.862, 0.0, 0.2363]))
WRIST2 = (np.array([0.0, 0.0, -1.0]), np.array([-1.5907, -0.201, 0.077]))


def screw_axes(q2, q3):
    """J3 and J5 at the pose (0, q2, q3, 0, 0, 0), angles in degrees: each line carried by the
    joints before it, the elbow's turn first (Lynch & Park, Sec. 5.1.1)."""
    a2, a3 = math.radians(q2), math.radians(q3)
    return (screw(*turned(ELBOW, SHOULDER, a2)),
            screw(*turned(turned(WRIST2, ELBOW, a3), SHOULDER, a2)))


J3_HOME, J5_HOME = screw(*ELBOW), screw(*WRIST2)

# -- U.2: holding the payload with the arm straight, raised by q2 ----------------------------------
G = 9.81
(A2, _, _, M2, R2, _), (A3, _, _, M3, R3, _), (_, _, _, M4, R4, _), (_, D5, _, M5, R5, _), \
    (_, _, _, M6, R6, _) = UR20_PARAMETERS[1:]


def holding(payload, q2):
    """The gravity torques of joints 2 and 3 (Fu, Gonzalez & Lee, Eq. (3.4-28)): g sum m x', each
    mass at (x, z) from the joint's axis at home (x along the base's x, z up), raised by q2
    degrees about -y to x' = x cos q2 - z sin q2.  At home the upper arm and the forearm lie along
    x (a2, a3 < 0), the wrist's links and the payload at a2 + a3, below by their offsets along
    the vertical axes (z_4 down, wrist 2 dropping by d5, y_5 and y_6 up)."""
    angle = math.radians(q2)
    beyond = [(M3, A2 + A3 + R3[0], 0.0), (M4, A2 + A3, -R4[2]), (M5, A2 + A3, -D5 + R5[1]),
              (M6, A2 + A3, -D5 + R6[1]), (payload, A2 + A3, -D5)]

    def held(masses, x0):
        return G * sum(m * ((x - x0) * math.cos(angle) - z * math.sin(angle))
                       for m, x, z in masses)
    return held([(M2, A2 + R2[0], 0.0)] + beyond, 0.0), held(beyond, A2)


# -- U.3: the student's own two-link arm, from its table ----------------------------------------
MINE_L = (0.4, 0.3)                       # the question's table: lengths, masses, centres
MINE_M, MINE_R = (2.0, 1.2), (0.2, 0.12)


def own_arm(q1, q2, r1=MINE_R[0], r2=MINE_R[1], absolute=False):
    """The holding torques of U.3's arm at (q1, q2) degrees: the derivatives of its potential
    energy g [m1 r1 sin q1 + m2 (L1 sin q1 + r2 sin(q1 + q2))] (Lynch & Park, Sec. 8.1.1, with
    each mass at r_i); ``absolute`` takes q2 from the horizontal, a typical mistake."""
    a, b = math.radians(q1), math.radians(q2)
    second = b if absolute else a + b
    (m1, m2), (L1, _) = MINE_M, MINE_L
    return (G * ((m1 * r1 + m2 * L1) * math.cos(a) + m2 * r2 * math.cos(second)),
            G * m2 * r2 * math.cos(second))


POSE, LOAD, MINE = variant("U.1"), variant("U.2"), variant("U.3")   # practice values, 'student'
J3, J5 = screw_axes(POSE["q2"], POSE["q3"])
C2, C3 = holding(LOAD["payload"], LOAD["q2"])
C2_BARE, C3_BARE = holding(0.0, LOAD["q2"])
OWN = np.array(own_arm(MINE["q1"], MINE["q2"]))

RIGHT = {"U.1": (J3, J5), "U.2": (C2, C3), "U.3": OWN}


def flipped(S):
    return np.r_[S[:3], -S[3:]]


# question, answer, words the feedback must contain, status
WRONG = [
    ("U.1", (flipped(J3), J5), "v = -omega x p", "incorrect"),
    ("U.1", (J3, flipped(J5)), "v = -omega x p", "incorrect"),
    ("U.1", (J3_HOME, J5), "that is the elbow's screw axis at home", "incorrect"),
    ("U.1", (J3, J5_HOME), "that is the screw axis at home", "incorrect"),
    ("U.1", screw_axes(-POSE["q2"], POSE["q3"]), "joint 2 turned the wrong way", "incorrect"),
    ("U.1", (J3, screw_axes(POSE["q2"], 0.0)[1]), "the elbow's turn is missing", "incorrect"),
    ("U.1", screw_axes(math.degrees(POSE["q2"]), math.degrees(POSE["q3"])),
     "your angles are in degrees", "incorrect"),
    ("U.1", (J3, J5[:3]), "wrong shape: J5 should be a 6-vector", "not graded"),
    ("U.2", (-C2, C3), "the motor holds the arm with the opposite torque", "incorrect"),
    ("U.2", (C2, C3_BARE), "the payload at the flange is missing", "incorrect"),
    ("U.2", (C2_BARE, C3_BARE), "the payload at the flange is missing", "incorrect"),
    ("U.2", holding(LOAD["payload"], 0.0), "that is the arm held horizontal", "incorrect"),
    ("U.2", holding(LOAD["payload"], math.degrees(LOAD["q2"])), "your angle is in degrees",
     "incorrect"),
    ("U.3", -OWN, "the motors hold the arm up", "incorrect"),
    ("U.3", np.array(own_arm(math.degrees(MINE["q1"]), math.degrees(MINE["q2"]))),
     "your angles are in degrees", "incorrect"),
    ("U.3", np.array(own_arm(MINE["q1"], MINE["q2"], *MINE_L)), "not at the link's end",
     "incorrect"),
    ("U.3", np.array(own_arm(MINE["q1"], MINE["q2"], absolute=True)),
     "q2 is measured from link 1", "incorrect"),
    ("U.3", np.array([G * MINE_M[0] * MINE_R[0] * math.cos(math.radians(MINE["q1"])), OWN[1]]),
     "the shoulder holds link 2 as well", "incorrect"),
]


def test_the_table_covers_both_questions_and_their_points():
    assert set(RIGHT) == set(questions(NOTEBOOK)) == {"U.1", "U.2", "U.3"}
    assert {row[0] for row in WRONG} == set(RIGHT)
    assert sum(keys()[q]["points"] for q in RIGHT) == 6


def test_the_hand_numbers_are_the_arms():
    """Horizontal, the arm holds about 306 N m at the shoulder; the rated payload, 1.5907 m out,
    costs 20 g 1.5907 = 312.1 N m more (chapter 10's numbers).  Raised straight up, the elbow's
    axis is 0.862 m above the shoulder's and wrist 2's lies along -x."""
    c2, c3 = holding(20.0, 0.0)
    c2_bare, c3_bare = holding(0.0, 0.0)
    assert round(c2_bare, 1) == -306.3 and round(c2 - c2_bare, 1) == round(-20.0 * G * 1.5907, 1)
    assert math.isclose(c3 - c3_bare, 20.0 * G * A3)
    J3_up, J5_up = screw_axes(-90.0, 0.0)
    assert np.allclose(J3_up, [0, -1, 0, 0.2363 + 0.862, 0, 0], atol=1e-12)
    assert np.allclose(J5_up, [-1, 0, 0, 0, -(0.2363 + 0.862 + 0.7287), -0.201], atol=1e-12)


@pytest.mark.parametrize("question", sorted(RIGHT))
def test_a_right_answer_passes(question):
    feedback = check(question, RIGHT[question])
    assert feedback.correct, str(feedback)
    assert feedback.status == "correct" and feedback.points == keys()[question]["points"]


def test_a_right_answer_in_other_forms_passes():
    import sympy
    assert check("U.1", (sympy.Matrix(J3), list(J5))).correct
    assert check("U.2", (np.float64(C2), round(C3, 3))).correct
    assert not check("U.2", (C2 * (1 + 1e-4), C3)).correct        # beyond the tolerance


@pytest.mark.parametrize("question, answer, words, status", WRONG,
                         ids=[f"{row[0]}:{row[2][:40]}" for row in WRONG])
def test_a_wrong_answer_gets_its_specific_feedback(question, answer, words, status):
    feedback = check(question, answer)
    assert isinstance(feedback, Feedback) and not feedback.correct
    assert feedback.points == sum(feedback.parts.values()) < feedback.max_points
    assert feedback.status == status, str(feedback)
    assert words in str(feedback), str(feedback)


@pytest.mark.end_to_end
def test_dynlab_grade_scores_the_questions_as_check_does(tmp_path, capsys):
    """alice hands in the solutions' answers, bob the release unchanged, carol the shoulder's
    torque right and the elbow's without the payload: dynlab grade, in its sandbox, runs each
    notebook with its student's givens and gives each part the points check_for_student()
    gives the same answers at those givens."""
    answers = solution_answers(NOTEBOOK)
    carol = dict(answers)
    carol["answer-U_2"] += "\nc3 = held(beyond_elbow[:-1], a2)      # the payload left out"
    hand_in(tmp_path / "in", NOTEBOOK, {student: answered(NOTEBOOK, given) for student, given
                                        in (("alice", answers), ("bob", {}), ("carol", carol))})
    rows = dynlab_grade(tmp_path / "in", tmp_path / "grades.csv")
    capsys.readouterr()

    def right(student):
        pose, load = variant("U.1", student=student), variant("U.2", student=student)
        mine = variant("U.3", student=student)
        return {"U.1": screw_axes(pose["q2"], pose["q3"]),
                "U.2": holding(load["payload"], load["q2"]),
                "U.3": np.array(own_arm(mine["q1"], mine["q2"]))}
    carols = right("carol")
    carols["U.2"] = (carols["U.2"][0], holding(0.0, variant("U.2", student="carol")["q2"])[1])
    expected = {"alice": right("alice"), "bob": {}, "carol": carols}
    for student, given in expected.items():
        for question in ("U.1", "U.2", "U.3"):
            formative = check_for_student(question, given[question], student=student).parts \
                if question in given else {}
            for part in part_points(keys()[question]):
                column = f"{question} {part}".strip()
                assert float(rows[student][column]) == pytest.approx(
                    formative.get(part, 0.0), abs=1e-9), (student, column)
        assert float(rows[student]["max"]) == 6
    assert float(rows["alice"]["total"]) == 6 and float(rows["bob"]["total"]) == 0
    assert float(rows["carol"]["total"]) == 5


def test_u3s_hand_numbers_and_the_solutions_own_file():
    """At q = (35, -50) degrees: c1 = 9.81 (0.88 cos 35 + 0.144 cos 15) = 8.436 N m and
    c2 = 9.81 * 0.144 cos 15 = 1.3645 N m; the solution's URDF string, loaded by dynlab, holds
    the table's numbers (masses, centres of mass along the links, the elbow 0.4 m out)."""
    c1, c2 = own_arm(35, -50)
    assert c1 == pytest.approx(9.81 * (0.88 * math.cos(math.radians(35)) + 0.144 * math.cos(
        math.radians(15))), rel=1e-12) and round(c1, 3) == 8.436 and round(c2, 4) == 1.3645
    from dynlab.model.robots import read_urdf
    code = solution_answers(NOTEBOOK)["answer-U_3"]
    text = code[code.index('"""') + 3:code.rindex('"""')]
    chain = read_urdf(text)
    assert [j.name for j in chain.moving] == ["shoulder", "elbow"]
    # both about -y; the elbow's v = -omega x p with p = (L1, 0, 0) is (0, 0, -L1)
    assert np.allclose(chain.Slist.T, [[0, -1, 0, 0, 0, 0], [0, -1, 0, 0, 0, -MINE_L[0]]],
                       atol=1e-12)


def test_no_students_pose_hides_the_turn_of_wrist_2s_axis():
    """U.1's takeaway: wrist 2's axis is turned by q2 + q3; on every pose a student can draw
    that turn is seen (q2 + q3 != 0), and J5's direction is the home axis (0, 0, -1) turned
    by q2 + q3 about -y (Rodrigues' formula, by hand above)."""
    grid = keys()["U.1"]["parameters"]
    values = {name: np.arange(spec["low"], spec["high"] + spec["step"] / 2, spec["step"])
              for name, spec in grid.items()}
    assert all(q2 + q3 != 0 for q2 in values["q2"] for q3 in values["q3"])
    turn = math.radians(POSE["q2"] + POSE["q3"])
    assert np.allclose(J5[:3], rotation((0.0, -1.0, 0.0), turn) @ [0.0, 0.0, -1.0], atol=1e-12)
    assert abs(J5[0]) > 0.1                         # so the practice pose shows it
