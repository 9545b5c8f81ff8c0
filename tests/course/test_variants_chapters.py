"""Checks of the variants that belong to one chapter's questions (the checks every question with
givens passes run over the table of tests/course/test_variants.py): givens shared by several
questions, the hand answers against dynlab's own numbers, the feedback on a given left as its
symbol, choices turned per student, and ``dynlab grade --keys`` running each chapter's solution
notebook again at every student's graded values."""

from __future__ import annotations

import csv
import itertools
import math
from pathlib import Path

import nbformat
import numpy as np
import pytest
import sympy
from sympy import Matrix, cos, sin, sqrt

from dynlab import Link, Robot, equations_of_motion, inverse_dynamics
from dynlab.formulations.lagrange_euler import pseudo_inertia
from dynlab.grading import check, check_for_student, keys, make_choice_key, turned, variant
from dynlab.grading.answers import serialize
from dynlab.grading.authoring import make_key
from dynlab.grading.compare import at_given, grade
from dynlab.grading.keys import Unusable, part_points, reference, use_keys
from dynlab.grading.scoring import points_of_data as grader_score
from dynlab.grading.variants import grid_values, sharing
from dynlab.model.robots import pendulum, planar_2r
from tests.support.graded_course import answered, dynlab_grade, hand_in, solution_answers

from .by_hand import entries
from .test_instructor_keys import SECRET, instructor_folder, marks  # noqa: F401
from .test_variants import CLASS, TABLE, classmates, full, instructor_keys_in_use, shared_points

ROOT = Path(__file__).resolve().parents[2]
G = 9.8062                                        # dynlab's g, m/s^2


def shared_by(name: str, questions, students) -> None:
    """``questions`` all draw the givens ``variant(name)`` names (one problem's arm or body):
    for each of ``students`` the same practice values, the same graded values, and each graded
    value differs from the practice one."""
    for student in students:
        mine = variant(name, student=student)
        assert all(variant(q, student=student) == mine for q in questions)
        graded = variant(name, student=student, secret=SECRET)
        assert all(variant(q, student=student, secret=SECRET) == graded for q in questions)
        assert all(graded[given] != mine[given] for given in mine)


def test_the_five_questions_share_one_set_of_givens_on_round_grids():
    own = ("rho1", "rho2", "a_lift")
    assert set(("3.16b", "3.16c", "3.17a", "3.17c", "3.17d")) <= set(sharing("3.16"))
    specs = [keys()[q]["parameters"] for q in sharing("3.16")]
    assert all(spec == specs[0] for spec in specs) and set(own) <= set(specs[0])
    for name, spec in ((name, specs[0][name]) for name in own):
        grid = grid_values(spec)
        assert len(grid) >= 4 and spec["text"] and "unit" in spec, name
        assert name not in {n for n, _ in keys()["3.16c"]["symbols"]}
        if name.startswith("rho"):               # neither the printed ends nor the rod's middle
            assert 1.0 not in grid and 0.5 not in grid and all(0 < x < 1 for x in grid)
        else:
            assert 0.0 not in grid and spec["unit"] == "m/s^2"
    shared_by("3.16", ("3.16b", "3.16c", "3.17a", "3.17c", "3.17d"), CLASS[:5])


def test_ceiling_a_given_written_as_its_symbol_is_told_to_be_put_in():
    from .by_hand.ceiling import right
    given = variant("3.16")
    J = right("3.16b", {**given, "rho2": sympy.Symbol("rho2", positive=True)})
    feedback = check("3.16b", J)
    assert feedback.status == "not graded" and feedback.points == 0
    assert 'rho2 is a given of this question: put in your value (given["rho2"], with given = ' \
           'variant("3.16"))' in str(feedback)


@pytest.mark.end_to_end
def test_ceiling_the_solution_reads_its_givens_and_earns_full_marks_at_other_values(tmp_path):
    """``dynlab grade --keys`` runs the solution notebook 02 (whose code reads ``variant(...)``)
    in the sandbox at each student's graded values: full marks; the same notebook with eve's
    practice values of the arm typed in (what the stored outputs and the shipped key answer)
    earns only the parts no given changes."""
    notebook = "02_two_link_arm_on_the_ceiling"
    solution = nbformat.read(ROOT / "solutions" / f"{notebook}.ipynb", as_version=4)
    typed = nbformat.from_dict(solution)
    mine = variant("3.16", student="eve")
    for cell in typed.cells:
        for name in mine:
            cell.source = cell.source.replace(f'given["{name}"]', repr(mine[name]))
    assert sum(f'given["{name}"]' in cell.source for cell in typed.cells for name in mine) == 0
    submitted = hand_in(tmp_path / "submitted", notebook, {"alice": solution, "eve": typed})
    rows = dynlab_grade(submitted, tmp_path / "grades.csv",
                        keys=instructor_folder(tmp_path / "keys"), notebook_time_limit=300)
    arm_questions = sharing("3.16")
    got = {student: {q: sum(float(rows[student][f"{q} {part}".strip()])
                            for part in part_points(keys()[q]))
                     for q in arm_questions + ["3.13a", "3.13b"]} for student in rows}
    assert got["alice"] == pytest.approx(
        {q: full(q) for q in arm_questions + ["3.13a", "3.13b"]}, abs=1e-3), rows
    assert got["eve"] == pytest.approx(
        {**{q: shared_points(q) for q in arm_questions}, "3.13a": 1.0,
         "3.13b": 1.0}, abs=1e-3), rows


def test_the_cube_and_the_block_share_one_placement_per_student():
    assert sharing("3.5") == list(("3.5", "3.6", "3.7", "3.8"))
    specs = [keys()[q]["parameters"] for q in ("3.5", "3.6", "3.7", "3.8")]
    assert all(spec == specs[0] for spec in specs) and set(specs[0]) == {"dx", "dy", "dz"}
    assert all(0.0 not in grid_values(spec) for spec in specs[0].values())   # never in a plane
    shared_by("3.5", ("3.5", "3.6", "3.7", "3.8"), CLASS[:5])


def test_the_givens_are_on_round_grids_without_the_printed_value():
    from .by_hand.links import right
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
        practice = variant("3.13b", student=student)
        graded = variant("3.13b", student=student, secret=SECRET)
        assert graded["turn"] != practice["turn"]
        assert right("3.13b", graded) != right("3.13b", practice)    # another letter


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

    from .by_hand.links import RIGHT_EXPLANATION, letter_of
    root = Path(__file__).resolve().parents[2]
    notebook = nbformat.read(root / "solutions" / "02_two_link_arm_on_the_ceiling.ipynb",
                             as_version=4)
    source = next(c.source for c in notebook.cells if "EXPLANATIONS = [" in c.source)
    assert "options = turned(EXPLANATIONS, given[\"turn\"])" in source
    assert any("choice = letter(EXPLANATIONS[1])" in c.source for c in notebook.cells)
    practice = variant("3.13b", student="anyone")["turn"]
    assert check("3.13b", letter_of(RIGHT_EXPLANATION, practice)).correct
    with instructor_keys_in_use():
        for turn in {0, 1, 2, 3} - {practice}:
            student = next(s for s in CLASS
                           if variant("3.13b", student=s, secret=SECRET)["turn"] == turn)
            assert check_for_student("3.13b", letter_of(RIGHT_EXPLANATION, turn),
                                     student=student, secret=SECRET).correct, turn


@pytest.mark.parametrize("student", CLASS[:4])
def test_the_hand_answers_are_dynlabs_numbers_at_each_students_values(student):
    """3.14: the link of that mass, centre of mass (J14/J44, 0, 0) and the hand's tensor about
    the centre has dynlab's pseudo-inertia equal to the student's J_i (and dynlab's Link accepts
    the tensor: a rigid body's).  Y: Y pi equals dynlab's Newton-Euler torques of the tilted arm.
    N.1: dynlab's link-frame recursion on the twisted arm."""
    from .by_hand.formulas import AT, g, rates, regressor, tensors
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
        gravity=(0.0, -G * math.sin(tilt), -G * math.cos(tilt)))
    state = ([0.4, 2.3], [0.7, -1.2], [0.9, -0.5])
    tau = inverse_dynamics(arm, *state, method="newton_euler")
    pi = Matrix([(m1 + m2) * L1**2, m2 * L1 * L2, m2 * L2**2])
    ours = (regressor(given) * pi).xreplace({**AT, g: G}).evalf()
    assert np.allclose(np.array(ours, dtype=float).ravel(), np.asarray(tau, dtype=float),
                       rtol=1e-12, atol=1e-12)

    given = dict(variant("N.1", student=student))
    arm = planar_2r("fu").replace_link(1, alpha=math.radians(given["alpha1"]))
    _, trace = inverse_dynamics(arm, *state, variant="link", trace=True)
    for ours, name in zip(rates(given), ("omega", "omega_dot")):
        assert np.allclose(np.array(ours.xreplace(AT).evalf(), dtype=float).ravel(),
                           np.asarray(trace[2][name], dtype=float).ravel(), rtol=1e-12,
                           atol=1e-12), name


def test_every_link_of_the_grids_of_3_14_is_a_rigid_body():
    """J_i positive definite at every combination of the grids (the condition of a physically
    consistent body; the tensor about the centre of mass then has positive principal moments that
    obey the triangle inequality), checked at every point."""
    from .by_hand.formulas import tensors
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


@pytest.mark.parametrize("question", ("T.1", "T.2", "T.3", "T.4", "C.1"))
def test_modern_each_question_declares_givens_on_a_round_grid_of_at_least_4_values(question):
    parameters = keys()[question]["parameters"]
    assert set(parameters) == {"T.1": {"d"}, "C.1": {"Mp"}}.get(question, {"rho"})
    for spec in parameters.values():
        grid = grid_values(spec)
        # the printed cases (the rod's end, the mass at the link's end, no payload) and the
        # middle of the link are typical answers, not givens
        assert not ({0.0} if question == "C.1" else {0.5, 1.0}) & set(grid), grid
        assert not any(abs(a - 2 * b) < 1e-12 for a in grid for b in grid), grid


def test_lynch_and_parks_printed_initialisation_is_named_at_every_students_rho():
    """The misprint Vdot_0 = (0, g) with g = (0, -g, 0) (the base accelerating DOWN) stays
    recognised wherever mass 2 sits: at the practice value (the shipped key) and at every
    graded one (the instructor's)."""
    from .by_hand.modern import L2, g, twist

    def named(rho, student):
        V2, Vdot2 = twist(rho * L2)
        feedback = grader_score("T.2", serialize((V2, Vdot2.subs(g, -g))), student=student)
        assert "the printed initialisation (0, g)" in str(feedback.feedback), rho
        assert feedback.total == full("T.2") / 2

    practice = variant("T.2")["rho"]
    named(practice, "anyone")
    with instructor_keys_in_use():
        for rho in set(grid_values(keys()["T.2"]["parameters"]["rho"])) - {practice}:
            named(rho, next(s for s in (f"p{n}" for n in range(400))
                            if variant("T.2", student=s, secret=SECRET)["rho"] == rho))


@pytest.mark.end_to_end
def test_modern_the_solution_reads_its_givens_and_earns_full_marks_at_other_values(tmp_path):
    """``dynlab grade --keys``: solutions/07 (whose code reads ``variant(...)``) earns full marks
    at the graded values; the same notebook with eve's practice values typed in for ``given[...]``
    (what its stored outputs, a classmate or the shipped keys give) earns 0 on every question."""


    root = Path(__file__).resolve().parents[2]
    solution = nbformat.read(root / "solutions" / "07_modern_form.ipynb", as_version=4)
    typed, question = nbformat.from_dict(solution), None
    for cell in typed.cells:
        if "variant(" in cell.source:
            question = cell.source.split('variant("')[1].split('"')[0]
        elif question is not None and "given[" in cell.source:
            for name, value in variant(question, student="eve").items():
                cell.source = cell.source.replace(f'given["{name}"]', repr(value))
    assert all("given[" not in cell.source for cell in typed.cells if cell.cell_type == "code")
    submitted = hand_in(tmp_path / "submitted", "07_modern_form",
                        {"alice": solution, "eve": typed})
    rows = dynlab_grade(submitted, tmp_path / "grades.csv",
                        keys=instructor_folder(tmp_path / "keys"), notebook_time_limit=300)
    parts = {"T.1": ("G_a",), "T.2": ("V2", "Vdot2"), "T.3": ("F2", "tau2"), "T.4": ("LA", "M")}
    got = {s: {q: sum(float(rows[s][f"{q} {name}"]) for name in names)
               for q, names in parts.items()} for s in rows}
    assert got == {"alice": {q: 2.0 for q in parts}, "eve": {q: 0.0 for q in parts}}, rows


@pytest.mark.end_to_end
def test_dynlab_grade_for_marks_runs_each_notebook_with_its_students_graded_values(tmp_path):
    """alice's code reads ``given``: full marks at her graded values, under ``dynlab grade
    --keys``; carol hands in alice's graded numbers, typed in: 0."""
    from dynlab.grading import grade_submissions

    from .by_hand.numbers import as_submitted, computed
    folder = instructor_folder(tmp_path / "keys")
    alice, carol = classmates("3.11")
    for notebook, (question, checked, source) in HONEST.items():
        mine, hers = (variant(question, student=s, secret=SECRET) for s in (alice, carol))
        assert all(mine[name] != hers[name] for name in mine)    # every part of hers differs
        _submission(tmp_path / "in" / alice / f"{notebook}.ipynb", question, checked, source)
        numbers = as_submitted(computed(question, variant(question, student=alice,
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


@pytest.mark.usefixtures("marks")
@pytest.mark.parametrize("question", ("U.1", "U.2", "A.1", "A.2", "A.3", "A.4", "I.1", "I.2",
                                      "I.3", "I.4"))
def test_no_two_values_of_the_givens_share_an_answer(question):
    """Every pair of points of the givens' grids has answers further apart than three times the
    tolerance, so a number copied from any classmate (or the practice answer at the graded
    values) scores 0: the givens do not trade off against each other.  (The instructor's key's
    expressions, which the tests above hold to the answers by hand, are evaluated at every grid
    point.)"""
    import itertools

    import sympy

    from dynlab.grading.keys import reference
    from dynlab.grading.variants import grid_values
    key = keys()[question]
    names = list(key["parameters"])
    expressions = [e for part in key["parts"] for e in reference(key)[part["name"]]]
    points = list(itertools.product(*(grid_values(key["parameters"][n]) for n in names)))
    values = [np.array([float(sympy.sympify(e).xreplace(
        {sympy.Symbol(n): v for n, v in zip(names, point)}).evalf(20)) for e in expressions])
        for point in points]
    tolerance = key.get("tolerance", 1e-5)
    for (p, a), (r, b) in itertools.combinations(zip(points, values), 2):
        assert np.max(np.abs(a - b)) > 3 * tolerance * np.max(np.abs(a)), (p, r)


@pytest.mark.end_to_end
@pytest.mark.parametrize("notebook", ["08_your_own_robot", "09_sizing_a_motor",
                                      "10_identifying_an_arm"])
def test_dynlab_grade_with_the_instructors_keys_runs_each_notebook_with_its_graded_values(
        notebook, tmp_path, capsys):
    """alice hands in the solution's code, which reads ``given``: full marks at her graded
    values.  eve types in the right numbers at her practice values (what the shipped keys answer,
    and what her notebook shows her): 0."""
    from dynlab.grading import questions
    code = solution_answers(notebook)
    typed = {f"answer-{q.replace('.', '_')}": _typed(q, right(q, variant(q, student="eve")))
             for q in questions(notebook)}
    for q in questions(notebook):                 # right at her practice values: formatively
        feedback = check_for_student(q, right(q, variant(q, student="eve")), student="eve")
        assert feedback.correct and feedback.points == full(q), q
    handed = {"alice": answered(notebook, code), "eve": answered(notebook, typed)}
    rows = dynlab_grade(hand_in(tmp_path / "in", notebook, handed), tmp_path / "grades.csv",
                        keys=instructor_folder(tmp_path / "keys"), notebook_time_limit=300)
    capsys.readouterr()
    assert float(rows["alice"]["total"]) == float(rows["alice"]["max"]) > 0, rows["alice"]
    assert float(rows["eve"]["total"]) == 0, rows["eve"]


@pytest.mark.parametrize("question", ("3.12", "3.18", "6-4-1"))
def test_other_arms_each_question_declares_givens_on_a_round_grid_of_at_least_4_values(question):
    key = keys()[question]
    assert key["kind"] == ("numeric" if question == "3.12" else "symbolic")
    assert set(key["parameters"]) == {"3.12": {"n"}, "3.18": {"e"}, "6-4-1": {"alpha"}}[question]
    for name, spec in key["parameters"].items():
        grid = grid_values(spec)
        assert len(grid) >= 4 and spec["text"] and spec["unit"], name
        assert name not in {n for n, _ in key.get("symbols", [])}
        assert not set(grid) & set(TABLE[question].book.get(name, ()))   # never the book's
    for student in CLASS[:6]:
        mine = variant(question, student=student)
        graded = variant(question, student=student, secret=SECRET)
        assert all(graded[name] != mine[name] for name in mine)


def test_the_counts_of_3_12_are_the_calls_dynlabs_probe_makes_times_table_3_5():
    """The route by hand (n calls for D, each at the printed cost) against dynlab: its probe of a
    generic chain calls the routine once per column of D with qd = 0 and gravity off, and its
    table of the printed counts holds 132n and 111n - 4."""
    from dynlab import inverse_dynamics, probe
    from dynlab.engine.opcount import generic_chain
    from dynlab.teaching.textbook.printed_counts import table_3_5 as printed

    from .by_hand.other_arms import table_3_5
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

    from .by_hand.other_arms import (
        AT,
        INERTIA,
        Ixx,
        Ixy,
        Ixz,
        Iyy,
        Iyz,
        Izz,
        a,
        d,
        g,
        m,
        m1,
        m2,
        one_axis,
        q1,
        q2,
        qd1,
        qd2,
        qdd1,
        qdd2,
        r1,
        rx,
        ry,
        rz,
        theta_d,
    )
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


def test_other_arms_a_given_written_as_its_symbol_is_told_to_be_put_in():
    from .by_hand.other_arms import INERTIA, a, m, rx, ry, rz, theta_d
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


@pytest.mark.end_to_end
def test_other_arms_the_solution_reads_its_givens_and_earns_full_marks_at_other_values(tmp_path):
    """``dynlab grade --keys`` runs the solution notebook 03 (whose code reads ``variant(...)``)
    in the sandbox at each student's graded values: full marks; the same notebook with eve's
    practice values of these three questions typed in (what the stored outputs and the shipped
    keys answer) earns only the parts no given changes."""
    from dynlab import cli
    folder = instructor_folder(tmp_path / "keys")
    solution = nbformat.read(ROOT / "solutions" / "03_probing_and_other_arms.ipynb", as_version=4)
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
        nbformat.write(notebook, submitted / student / "03_probing_and_other_arms.ipynb")
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
                     for q in ("3.11",) + ("3.12", "3.18", "6-4-1")} for student in rows}
    assert got["alice"] == pytest.approx({q: full(q) for q in got["alice"]}, abs=1e-3), rows
    assert got["eve"] == pytest.approx(
        {"3.11": full("3.11"), **{q: shared_points(q) for q in ("3.12", "3.18", "6-4-1")}},
        abs=1e-3), rows


@pytest.mark.parametrize("question", ("G.1", "G.2", "N.2", "N.3", "N.4"))
def test_the_answers_written_out_here_are_dynlabs_numbers_at_each_students_values(question):
    """At alice's and bob's values: G.1, G.2 against dynlab's G-D terms, N.2, N.3 against link
    2's record of Luh's recursion on the arm of uniform rods of lengths l and lam l (Schilling's
    version of the arm, ``planar_2r("schilling")``), N.4 against Schilling's base-frame
    recursion on ``pendulum`` whose tool pulls the cable with -f^tool."""
    from .by_hand.recursions import AT, G0, F, a1, l, m1, m2, q1, q2, qd1, qd2, qdd1, qdd2, right
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
        ours = entries(right(question, given), AT)
        assert np.allclose(ours, theirs, rtol=1e-12, atol=1e-12), (student, ours, theirs)


@pytest.mark.end_to_end
def test_dynlab_grade_runs_the_solution_code_with_each_students_graded_values(tmp_path):
    """solutions/06 up to question 6, handed in by alice (its code reads ``given``) and by eve
    (the same code, each ``given`` typed in as the values her own notebook shows her, her
    practice values): in ``dynlab grade --keys``, each kernel in its sandbox, alice earns full
    marks at her graded values; eve earns only what every student shares (G.2's h_rot).  N.1,
    whose givens twist joint 2, is typed in the same way."""
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
        for question in ("G.1", "G.2", "N.2", "N.3", "N.4") + ("N.1",):
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


def test_the_task_space_inertia_of_this_arm_does_not_depend_on_its_lengths():
    """Why 9.98 also draws the mass ratio: Lambda is the same for every L2/L1 (a point mass at
    the tip feels m2 along every direction, the elbow's m1 through J1 J^-1)."""
    from .by_hand.structure import at_the_point
    lambdas = [at_the_point("9.98", {"ratio": ratio, "mu": 0.3})[0][4:] for ratio in (0.5, 0.9)]
    assert np.allclose(lambdas[0], lambdas[1], rtol=1e-12)


def test_the_numbers_at_the_point_are_those_of_the_symbolic_answers():
    from .by_hand.structure import AT, at_the_point, mistakes, right
    for question in ("9.1", "9.98"):
        given = dict(variant(question, student="student"))
        reference, slips = at_the_point(question, given)
        assert np.allclose(reference, entries(right(question, given), AT), rtol=1e-12)
        assert np.allclose(slips, [entries(answer, AT) for answer, _ in mistakes(question, given)],
                           rtol=1e-12)


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


def test_symbolic_a_given_written_as_its_symbol_is_told_to_be_put_in():
    from .by_hand.symbolic import D_PENDULUM, Kp
    zeta = sympy.Symbol("zeta", positive=True)
    feedback = check("C.3", 2 * zeta * sqrt(Kp * D_PENDULUM))
    assert feedback.status == "not graded" and feedback.points == 0
    assert 'zeta is a given of this question: put in your value (given["zeta"], with given = ' \
           'variant("C.3"))' in str(feedback)


def test_a_rounded_constant_is_told_without_blaming_a_given():
    from .by_hand.symbolic import Kp, a1, m1
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

    from .by_hand.symbolic import right
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


def test_h_rot_of_g2_is_everyones():
    """G.2's h_rot is the same for every arm of these: zero at every student's lam."""
    from .by_hand.recursions import AT, right
    for lam in grid_values(keys()["G.2"]["parameters"]["lam"]):
        assert not entries(right("G.2", {"lam": lam})[:1], AT).any()


def _d1_submission(path, answer_source: str) -> None:
    """A submitted notebook of 06 that answers D.1 only (its check cell keeps its grade id)."""
    import nbformat
    check_cell = nbformat.v4.new_code_cell('check("D.1", c1)')
    check_cell.metadata["nbgrader"] = {"grade": True, "grade_id": "check-D_1", "locked": True,
                                       "points": 1, "schema_version": 3, "solution": False,
                                       "task": False}
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("from dynlab.grading import check, variant"),
        nbformat.v4.new_code_cell(answer_source), check_cell])
    path.parent.mkdir(parents=True)
    nbformat.write(notebook, path)


@pytest.mark.end_to_end
def test_dynlab_grade_grades_against_the_submitting_students_variant(tmp_path):
    """For marks, the grading kernel computes with the submitting student's graded givens (from
    the folder name, not from the notebook), and the grade is against them: a method run with
    one's own givens is right, a classmate's number is 0."""
    from dynlab.grading import grade_submissions

    from .by_hand.numbers import right
    alice, bob = classmates("D.1")
    name = "06_dalembert_newton_euler_and_simulation.ipynb"
    method = ('given = variant("D.1")\n'
              'c1 = 9.8062 * ((1 + given["m2"] + given["Mp"]) * 0.5 + given["m2"] / 2 + '
              'given["Mp"])')
    copied = right("D.1", variant("D.1", student=alice, secret=SECRET))
    submissions = tmp_path / "submissions"
    _d1_submission(submissions / alice / name, method)
    _d1_submission(submissions / bob / name, method)
    carol = next(s for s in reversed(CLASS) if s not in (alice, bob) and
                 dict(variant("D.1", student=s, secret=SECRET))
                 != dict(variant("D.1", student=alice, secret=SECRET)))
    _d1_submission(submissions / carol / name, f"c1 = {copied!r}     # alice's number")
    try:
        book = grade_submissions([submissions], workers=1, notebook_time_limit=120,
                              keys=instructor_folder(tmp_path / "keys"))
    finally:
        use_keys(None)
    points = {student: book.question_points(student)["D.1"] for student in book.rows}
    assert points == {alice: 1.0, bob: 1.0, carol: 0.0}, (points, book.notes)


# -- the submissions of the end-to-end tests -------------------------------------------------------
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


ANSWER_NAMES = {"U.1": ("J3", "J5"), "U.2": ("c2", "c3"), "U.3": ("c",), "A.1": ("G_match",),
                "A.2": ("ratio",), "A.3": ("tau_rms",), "A.4": ("G_min",), "A.5": ("tau_rms",),
                "A.6": ("rise",), "A.7": ("G_star",), "I.1": ("count",),
                "I.2": ("ZZ1R", "MX1R"), "I.3": ("pi_b",), "I.4": ("kappa",)}


def right(question, given):
    """The right answer by hand (tests/course/by_hand, the variants' table)."""
    return TABLE[question].hand.right(question, dict(given))


def _typed(question, answer) -> str:
    """An answer cell with ``answer`` typed in as numbers."""
    names = ANSWER_NAMES[question]
    values = answer if len(names) > 1 else (answer,)
    return "\n".join(f"{name} = {np.asarray(value, dtype=float).tolist()!r}"
                     for name, value in zip(names, values))
