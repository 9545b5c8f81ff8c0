"""A variant per student for the two-link arm hanging from the ceiling (issue 24, item 5): Fu,
Gonzalez & Lee, Probs. 3.16(b), 3.16(c), 3.17(a), 3.17(c) and 3.17(d) all ask about one arm, so
each student has one set of givens for them (``variant("3.16")``, which 3.16(a) and 3.17(b) share
too: tests/course/test_variants_links.py): where each lumped mass sits along its link, ``rho_i d_i``
from joint i (the printed problem: rho = 1, at the ends), the upward acceleration ``a_lift`` of
the lift whose ceiling the arm hangs from (0 in print), how far link 2 hangs beside link 1 along
z1, ``e`` (the offset of joint 2; only p*_2 of 3.17(c) shows it here), and the length ``w`` of the
thin rod along its joint axis that each mass is (only J of 3.16(b) shows it here: a rod along z_i
has no inertia about the axis the arm turns about).

Each right answer here is written by hand from the point masses' positions (x0 down, frame i at
the far end of link i, gravity g + a_lift along +x0 in the lift's frame), not read from a key.
The parts that no given of the arm changes, 3.17(a)'s omega0 and omega_dot0 (zero: the base does
not turn) and 3.17(c)'s p*_1 (link 1's length), stay the same for everyone: a copied answer earns
exactly their share and nothing of the rest.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import nbformat
import numpy as np
import pytest
import sympy
from sympy import Matrix, cos, sin

from dynlab.grading import check, keys, variant
from dynlab.grading.keys import part_points
from dynlab.grading.variants import grid_values, sharing

from tests.support.graded_course import dynlab_grade, hand_in  # noqa: E402
from .test_instructor_keys import instructor_folder, marks  # noqa: E402,F401
from .variant_checks import (  # noqa: E402
    CLASS, assert_a_copied_answer_earns_only_the_shared_parts,
    assert_check_in_the_kernel_grades_the_practice_values, assert_every_typical_mistake_is_named,
    assert_for_marks_the_practice_answer_earns_only_the_shared_parts,
    assert_right_at_each_students_values, assert_the_questions_share_one_set_of_givens, classmates,
    full, shared_points)


ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "02_two_link_arm_on_the_ceiling"
QUESTIONS = ("3.16b", "3.16c", "3.17a", "3.17c", "3.17d")
#: The parts whose answer no given changes (the same for every student)
PUBLIC = {"3.17a": {"omega0", "omega_dot0"}, "3.17c": {"p1"}}
#: The givens each answer depends on (J and s: where the masses sit, J: the rods; v_dot0: the
#: lift; p*_2: the offset)
USES = {"3.16b": {"rho1", "rho2", "w"}, "3.16c": {"rho1", "rho2", "a_lift"},
        "3.17a": {"a_lift"}, "3.17c": {"rho1", "rho2", "e"}, "3.17d": {"rho1", "rho2", "a_lift"}}
#: The givens of the arm this file writes answers for by hand
OWN = ("rho1", "rho2", "a_lift")

m1, m2, d1, d2, g = sympy.symbols("m1 m2 d1 d2 g", positive=True)
q1, q2, qd1, qd2, qdd1, qdd2 = sympy.symbols("q1 q2 qd1 qd2 qdd1 qdd2", real=True)


# -- the right answers and the typical mistakes, by hand ------------------------------------------
def arm(rho1, rho2, a_lift, sign=1, w=0):
    """(J, D, h, c, v_dot0, s) of the arm with masses m1 at rho1 d1 from joint 1 and m2 at
    rho2 d2 from joint 2, each a thin rod of length w along its joint axis z_i (which adds
    int z**2 dm = m w**2/12 to J and nothing to D, h or c: no inertia about z_i), under the
    gravity sign*(g + a_lift) along +x0.  The masses sit at
    x1 = r1 (C1, S1) and x2 = d1 (C1, S1) + r2 (C12, S12) in frame 0 (r_i = rho_i d_i), so the
    kinetic energy gives D = sum m J^T J, h its Christoffel terms, and P = -m (g + a) x gives c."""
    r1, r2 = rho1 * d1, rho2 * d2
    C2, S1, S2, S12 = cos(q2), sin(q1), sin(q2), sin(q1 + q2)
    D = Matrix([[m1 * r1**2 + m2 * (d1**2 + r2**2 + 2 * d1 * r2 * C2), m2 * (r2**2 + d1 * r2 * C2)],
                [m2 * (r2**2 + d1 * r2 * C2), m2 * r2**2]])
    h = Matrix([-m2 * d1 * r2 * S2 * (2 * qd1 * qd2 + qd2**2), m2 * d1 * r2 * S2 * qd1**2])
    pull = sign * (g + a_lift)
    c = pull * Matrix([m1 * r1 * S1 + m2 * (d1 * S1 + r2 * S12), m2 * r2 * S12])
    behind = [-(1 - rho1) * d1, -(1 - rho2) * d2]       # the mass from the origin of frame i
    J = [m * Matrix([x, 0, 0, 1]) * Matrix([[x, 0, 0, 1]]) + sympy.diag(0, 0, m * w**2 / 12, 0)
         for m, x in zip((m1, m2), behind)]
    s = [Matrix([x, 0, 0]) for x in behind]
    return J, D, h, c, Matrix([-pull, 0, 0]), s


def tau(rho1, rho2, a_lift, sign=1):
    _, D, h, c, _, _ = arm(rho1, rho2, a_lift, sign)
    return D * Matrix([qdd1, qdd2]) + h + c


def right(question: str, given: dict):
    """The answer for these givens (read as a student's code reads them: floats)."""
    rho1, rho2, a_lift = given["rho1"], given["rho2"], given["a_lift"]
    J, D, h, c, v_dot0, s = arm(rho1, rho2, a_lift, w=given["w"])
    zero = Matrix([0, 0, 0])
    return {"3.16b": J, "3.16c": (D, h, c), "3.17a": (zero, zero, v_dot0),
            "3.17c": (s[0], s[1], Matrix([d1, 0, 0]), Matrix([d2, 0, given["e"]])),
            "3.17d": tau(rho1, rho2, a_lift)}[question]


def mistakes(question: str, given: dict) -> list:
    """``[(answer, words of the feedback)]``: each typical slip, at these givens."""
    rho1, rho2, a_lift, w = given["rho1"], given["rho2"], given["a_lift"], given["w"]
    ends, far = arm(1, 1, a_lift, w=w), arm(1 - rho1, 1 - rho2, a_lift, w=w)
    J, D, h, c, v_dot0, s = arm(rho1, rho2, a_lift, w=w)
    if question == "3.16b":
        ahead = [m * Matrix([-x[0], 0, 0, 1]) * Matrix([[-x[0], 0, 0, 1]])
                 + sympy.diag(0, 0, m * w**2 / 12, 0) for m, x in zip((m1, m2), s)]
        return [(ends[0], "those are the masses at the link ends"),
                (far[0], "rho_i is measured from joint i"),
                (ahead, "on the -x_i side of that origin")]
    if question == "3.16c":
        still, falling = arm(rho1, rho2, 0)[3], arm(rho1, rho2, -a_lift)[3]
        return [((ends[1], h, c), "those are the masses at the link ends"),
                ((D, ends[2], c), "those are the masses at the link ends"),
                ((D, h, far[3]), "rho_i is measured from joint i"),
                ((D, h, -c), "gravity points the wrong way"),
                ((D, h, still), "that is c on a ceiling at rest"),
                ((D, h, falling), "the lift's acceleration has the wrong sign"),
                ((D, h, c.subs(g, 9.8062)), "keep gravity as the symbol g")]
    zero = Matrix([0, 0, 0])
    if question == "3.17a":
        return [((zero, zero, -v_dot0), "OPPOSITE to gravity"),
                ((zero, zero, Matrix([-g, 0, 0])), "that is the base of an arm at rest"),
                ((zero, zero, Matrix([-g + a_lift, 0, 0])), "the lift accelerates UP")]
    p = (Matrix([d1, 0, 0]), Matrix([d2, 0, given["e"]]))
    if question == "3.17c":
        return [((zero, s[1]) + p, "the printed problem, rho = 1"),
                ((Matrix([-d1 / 2, 0, 0]), s[1]) + p, "that is the middle of the link"),
                ((s[0], Matrix([-rho2 * d2, 0, 0])) + p,
                 "s_i is measured from the origin of frame i, at the FAR end"),
                ((-s[0], s[1]) + p, "on the -x_i side of that origin")]
    return [(tau(1, 1, a_lift), "those are the torques for masses at the link ends"),
            (tau(1 - rho1, 1 - rho2, a_lift), "rho_i is measured from joint i"),
            (tau(rho1, rho2, a_lift, sign=-1), "gravity enters the wrong way"),
            (tau(rho1, rho2, 0), "those are the torques on a ceiling at rest"),
            (tau(rho1, rho2, -a_lift), "the lift's acceleration has the wrong sign")]


#: A point of the symbols at which answers are compared by hand here
AT = {m1: 1.3, m2: 0.8, d1: 0.45, d2: 0.35, g: 9.7, q1: 0.4, q2: 2.2, qd1: 0.7, qd2: -1.3,
      qdd1: 0.9, qdd2: -0.6}


def values(answer) -> np.ndarray:
    """An answer's entries (every part's) at :data:`AT`."""
    parts = answer if isinstance(answer, (tuple, list)) else (answer,)
    return np.concatenate([np.array(sympy.Matrix(p).xreplace(AT), dtype=float).ravel()
                           for p in parts])


def grid_points(parameters: dict, names) -> list:
    """Every combination of the grids of the givens ``names``, the others at their grids' low
    values (each answer here depends on some of the arm's givens only)."""
    return list(itertools.product(*(grid_values(spec) if name in names else grid_values(spec)[:1]
                                    for name, spec in parameters.items())))


# -- the givens -----------------------------------------------------------------------------------
def test_the_five_questions_share_one_set_of_givens_on_round_grids():
    assert set(QUESTIONS) <= set(sharing("3.16"))
    specs = [keys()[q]["parameters"] for q in sharing("3.16")]
    assert all(spec == specs[0] for spec in specs) and set(OWN) <= set(specs[0])
    for name, spec in ((name, specs[0][name]) for name in OWN):
        grid = grid_values(spec)
        assert len(grid) >= 4 and spec["text"] and "unit" in spec, name
        assert name not in {n for n, _ in keys()["3.16c"]["symbols"]}
        if name.startswith("rho"):               # neither the printed ends nor the rod's middle
            assert 1.0 not in grid and 0.5 not in grid and all(0 < x < 1 for x in grid)
        else:
            assert 0.0 not in grid and spec["unit"] == "m/s^2"
    assert_the_questions_share_one_set_of_givens("3.16", QUESTIONS, CLASS[:5])


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_value_of_the_grids_changes_the_answer(question):
    """Two students whose values differ in any one given have different answers (beyond the
    parts no given changes)."""
    spec = keys()[question]["parameters"]
    answers = {}
    for combination in grid_points(spec, USES[question]):
        given = dict(zip(spec, combination))
        answer = right(question, given)
        varying = [part for part, name in zip(answer if isinstance(answer, tuple) else (answer,),
                                              [p["name"] for p in keys()[question]["parts"]])
                   if name not in PUBLIC.get(question, ())]
        answers[combination] = values(varying)
    used = USES[question]
    for first, second in itertools.combinations(answers, 2):
        differ = {name for name, x, y in zip(spec, first, second) if x != y}
        if differ & used:
            assert np.abs(answers[first] - answers[second]).max() > 1e-6, (first, second)


# -- (a) the right answer scores full for alice and for bob ---------------------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_the_right_answer_at_my_values_scores_full_points(question):
    assert_right_at_each_students_values(question, right, classmates(question))


# -- (b) alice's answer scores 0 for bob ----------------------------------------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_a_classmates_answer_earns_only_the_parts_no_given_changes(question):
    copied = assert_a_copied_answer_earns_only_the_shared_parts(
        question, right, *classmates(question), PUBLIC.get(question, ()))
    # no factor to undo, but for p*_2's offset e, a given both students see in their variant
    factors = [line for line in str(copied.feedback).splitlines()
               if "times the right value" in line]
    assert all("p2[2]" in line for line in factors), factors


def test_check_in_the_kernel_grades_this_kernels_student(monkeypatch):
    assert_check_in_the_kernel_grades_the_practice_values("3.16c", right, monkeypatch)


# -- (c) for marks: the practice answer scores 0, the graded one full -----------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_with_the_course_secret_the_practice_answer_scores_0_and_the_graded_one_full(question,
                                                                                     marks):
    assert_for_marks_the_practice_answer_earns_only_the_shared_parts(
        question, right, CLASS[:4], PUBLIC.get(question, ()))


# -- (d) every typical mistake is recognised at every student's values ----------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_no_grid_value_makes_a_typical_mistake_right(question):
    parameters = keys()[question]["parameters"]
    for combination in grid_points(parameters, USES[question]):
        given = dict(zip(parameters, combination))
        reference_values = values(right(question, given))
        for answer, words in mistakes(question, given):
            assert not np.allclose(values(answer), reference_values, rtol=1e-9), (given, words)


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_typical_mistake_is_recognised_at_other_students_values(question):
    assert_every_typical_mistake_is_named(question, mistakes, CLASS[1:4])


def test_a_given_written_as_its_symbol_is_told_to_be_put_in():
    given = variant("3.16")
    J = right("3.16b", {**given, "rho2": sympy.Symbol("rho2", positive=True)})
    feedback = check("3.16b", J)
    assert feedback.status == "not graded" and feedback.points == 0
    assert 'rho2 is a given of this question: put in your value (given["rho2"], with given = ' \
           'variant("3.16"))' in str(feedback)


# -- dynlab grade --keys on the chapter's own notebook --------------------------------------------
@pytest.mark.end_to_end
def test_the_solution_reads_its_givens_and_earns_full_marks_at_other_values(tmp_path):
    """``dynlab grade --keys`` runs the solution notebook 02 (whose code reads ``variant(...)``)
    in the sandbox at each student's graded values: full marks; the same notebook with eve's
    practice values of the arm typed in (what the stored outputs and the shipped key answer)
    earns only the parts no given changes."""
    solution = nbformat.read(ROOT / "solutions" / f"{NOTEBOOK}.ipynb", as_version=4)
    typed = nbformat.from_dict(solution)
    mine = variant("3.16", student="eve")
    for cell in typed.cells:
        for name in mine:
            cell.source = cell.source.replace(f'given["{name}"]', repr(mine[name]))
    assert sum(f'given["{name}"]' in cell.source for cell in typed.cells for name in mine) == 0
    submitted = hand_in(tmp_path / "submitted", NOTEBOOK, {"alice": solution, "eve": typed})
    rows = dynlab_grade(submitted, tmp_path / "grades.csv",
                        keys=instructor_folder(tmp_path / "keys"), notebook_time_limit=300)
    arm_questions = sharing("3.16")
    got = {student: {q: sum(float(rows[student][f"{q} {part}".strip()])
                            for part in part_points(keys()[q]))
                     for q in arm_questions + ["3.13a", "3.13b"]} for student in rows}
    assert got["alice"] == pytest.approx(
        {q: full(q) for q in arm_questions + ["3.13a", "3.13b"]}, abs=1e-3), rows
    assert got["eve"] == pytest.approx(
        {**{q: shared_points(q, PUBLIC.get(q, ())) for q in arm_questions}, "3.13a": 1.0,
         "3.13b": 1.0}, abs=1e-3), rows
