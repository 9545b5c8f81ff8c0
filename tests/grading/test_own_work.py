"""A mark measures the student, not the library (issue 40, item 6): in a graded run the library
calls that answer a question refuse, called from the student's code, and every way round them
that a student would try first refuses too; practice runs keep every call."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dynlab.grading import grader, own_work
from dynlab.grading.keys import keys
from tests.course.test_instructor_keys import instructor_folder
from tests.support.graded_course import answered, dynlab_grade, hand_in, solution_answers

ROOT = Path(__file__).resolve().parents[2]
CONTROL = "05_control"
CALL = "equations_of_motion(planar_2r('fu', symbolic=True))\n"
#: The ways round the refusal, each put before the honest answer to C.1 (which then never runs).
EVASIONS = {
    "plain": ("from dynlab import equations_of_motion\n"
              "from dynlab.model.robots import planar_2r\n" + CALL),
    "home": ("import dynlab.dynamics.inverse as home\nfrom dynlab.model.robots import planar_2r\n"
             "home." + CALL),
    "reexported": ("import dynlab.teaching.textbook.derivation as floor\n"
                   "from dynlab.model.robots import planar_2r\n"
                   "floor." + CALL),
    "got": ("import dynlab, sys\nfrom dynlab.model.robots import planar_2r\n"
            "getattr(sys.modules['dynlab.dynamics.inverse'], 'equations_of_motion')"
            "(planar_2r('fu', symbolic=True))\n"),
    "reloaded": ("import importlib, dynlab.dynamics.inverse as home\n"
                 "from dynlab.model.robots import planar_2r\n"
                 "importlib.reload(home).equations_of_motion(planar_2r('fu', symbolic=True))\n"),
}


def _notebook(before_c1: str | None = None, first: str | None = None):
    answers = solution_answers(CONTROL)
    if before_c1 is not None:
        answers["answer-C_1"] = before_c1 + answers["answer-C_1"]
    notebook = answered(CONTROL, answers)
    if first is not None:                              # an alias taken before anything else
        import nbformat
        notebook.cells.insert(0, nbformat.v4.new_code_cell(first))
    return notebook


@pytest.mark.end_to_end
def test_a_graded_run_refuses_the_library_calls_and_their_evasions(tmp_path):
    """``dynlab grade --keys``: the honest notebook keeps its points; each notebook whose C.1
    answer calls ``equations_of_motion`` (which C.1's key declares), however it reaches it,
    gets 0 for C.1 with the refusal in its notes, and keeps C.2 and C.3."""
    students = {"honest": _notebook(), **{name: _notebook(code) for name, code in
                                          EVASIONS.items()},
                "alias": _notebook("f(planar_2r('fu', symbolic=True))\n",
                                   first="from dynlab import equations_of_motion as f\n"
                                         "from dynlab.model.robots import planar_2r")}
    rows = dynlab_grade(hand_in(tmp_path / "submitted", CONTROL, students),
                        tmp_path / "grades.csv", keys=instructor_folder(tmp_path / "keys"),
                        notebook_time_limit=200)
    assert float(rows["honest"]["total"]) == float(rows["honest"]["max"]) == 5.0, rows["honest"]
    for student in [*EVASIONS, "alias"]:
        row = rows[student]
        assert (float(row["C.1 c"]), float(row["C.2 tau"]), float(row["C.3 Kd"])) == \
            (0.0, 2.0, 1.0), (student, row["notes"])
        assert "OwnWorkAsked" in row["notes"] and "not available in the graded run" in \
            row["notes"], (student, row["notes"])
    assert "reload" in rows["reloaded"]["notes"]           # the trick named for the reader


def test_practice_keeps_every_call(tmp_path):
    """Without the instructor's keys nothing is refused: the kernel is handed no refusal."""
    assert own_work.environment(["C.1", "3.16c"], graded=False) == {}
    handed = own_work.environment(["C.1"], graded=True)
    assert json.loads(handed[own_work.REFUSED_VARIABLE]) == {
        call: ["C.1"] for call in keys()["C.1"]["refuses"]}


_ATTEMPTS = r"""
import json, sys
import numpy as np
from dynlab.grading import own_work
from dynlab.grading.keys import keys
own_work.install(own_work.refused_calls(sys.argv[1:]))
import dynlab
import dynlab.teaching.textbook.printed_counts, dynlab.formulations.lagrange_euler
import dynlab.model.spatial
import dynlab.dynamics.regressor, dynlab.dynamics.structure.coupling, dynlab.model.link
import sympy
q1, p = sympy.symbols("q1 p")
from dynlab.dynamics.simulation import simulate
from dynlab.model.robots import planar_2r, puma560
arm, numeric = planar_2r("fu", symbolic=True), puma560(joints=3)
attempts = {
    "link_transform": lambda: dynlab.model.kinematics.link_transform(arm, [0, 0], 1),
    "pseudo_inertia": lambda: dynlab.formulations.lagrange_euler.pseudo_inertia(arm.links[0]),
    "symbolic inverse_dynamics": lambda: dynlab.inverse_dynamics(arm, [0, 0], [0, 0], [0, 0]),
    "numeric inverse_dynamics": lambda: dynlab.inverse_dynamics(numeric, [0] * 3, [0] * 3,
                                                                [0] * 3),
    "table_3_5": lambda: dynlab.teaching.textbook.printed_counts.table_3_5(3),
    "change_frame": lambda: dynlab.model.spatial.change_frame(np.eye(6), (np.eye(3), np.zeros(3))),
    "simulate's own use": lambda: simulate(numeric, [0] * 3, [0] * 3, t_span=0.01, dt=0.005),
    "rod_inertia": lambda: dynlab.model.link.rod_inertia(1.0, 0.2, "z"),
    "loading_factors": lambda: dynlab.dynamics.structure.coupling.loading_factors(
        planar_2r("fu")),
    "regressor": lambda: dynlab.dynamics.regressor.regressor(
        [arm.links[0].mass * q1], {p: arm.links[0].mass}, solve_for=(arm.links[0].mass,)),
}
result = {}
for name, attempt in attempts.items():
    try:
        attempt()
        result[name] = "allowed"
    except own_work.OwnWorkAsked as error:
        result[name] = str(error)
print(json.dumps(result))
"""


@pytest.mark.parametrize("questions, refused", [
    (["3.16a", "3.16b", "3.16c", "3.17b"], {"link_transform", "pseudo_inertia", "rod_inertia",
                                            "symbolic inverse_dynamics",
                                            "numeric inverse_dynamics"}),
    (["3.11", "3.12", "3.18", "6-4-1"], {"link_transform", "pseudo_inertia", "table_3_5",
                                         "symbolic inverse_dynamics"}),
    (["T.1", "T.2", "T.3", "T.4"], {"change_frame", "symbolic inverse_dynamics",
                                    "numeric inverse_dynamics"}),
    (["9.1", "9.98", "k12", "Mp", "Y"], {"loading_factors", "symbolic inverse_dynamics",
                                         "numeric inverse_dynamics"}),
    (["A.1", "A.2", "A.3", "A.4"], set()),
], ids=["02", "03", "07", "04", "09"])
def test_each_question_class_refuses_its_calls_and_nothing_else(questions, refused):
    """In a kernel with a notebook's refusals in place (a process of its own: the refusals
    cannot be taken back), exactly the declared calls refuse, naming their question; 3.11's
    numeric probing, dynlab's own use of a refused call (simulate) and Y's ``regressor``, meant
    to be used, keep working."""
    done = subprocess.run([sys.executable, "-c", _ATTEMPTS, *questions], capture_output=True,
                          text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().split("\n")[-1])
    assert {name for name, said in result.items() if said != "allowed"} == refused, result
    for name in refused:
        assert "your own derivation" in result[name] and any(q in result[name]
                                                             for q in questions), result


def test_the_trick_notes_name_the_cells():
    import nbformat
    cells = [nbformat.v4.new_code_cell(code) for code in
             ("x = 1", "f.__code__ = g.__code__", "import importlib\nimportlib.reload(m)")]
    text = nbformat.writes(nbformat.v4.new_notebook(cells=cells)).encode()
    assert own_work.tricks(text) == [
        "cell 2 uses __code__, which can get round the refusals of a graded run: read it",
        "cell 3 uses importlib, reload, which can get round the refusals of a graded run: "
        "read it"]
    assert grader  # the grader adds them to the notes of a graded run


def test_a_table_of_answers_typed_in_is_named_and_no_cell_of_the_workbook_is():
    """Answers computed in practice, where nothing refuses, and typed in as a table over a
    given's grid (I.4's condition numbers at T = 4.5, 5.5, 6.5 s) get round every refusal: the
    notes name the cell.  Two long numbers are no table; no cell of the released exercises and
    of the solutions is named."""
    import nbformat

    def notes(*sources):
        cells = [nbformat.v4.new_code_cell(source) for source in sources]
        return own_work.tricks(nbformat.writes(nbformat.v4.new_notebook(cells=cells)).encode())
    table = "kappa = {4.5: 18.578673, 5.5: 20.654997, 6.5: 22.740317}[given['T']]"
    assert notes("x = 0.25 * 1e-3", table) == [
        "cell 2 uses 3 numbers of 6 or more digits typed in, which can get round the refusals "
        "of a graded run: read it"]
    assert notes("kappa = {4.5: 18.578673, 5.5: 20.654997}[given['T']]") == []
    for path in sorted([*(ROOT / "exercises").glob("*.ipynb"), *(ROOT / "solutions").glob(
            "*.ipynb")]):
        assert own_work.tricks(path.read_bytes()) == [], path.name


_PROGRAMS = r"""
import json, multiprocessing, os, subprocess, sys, tempfile
from dynlab.grading import own_work
own_work.install(own_work.refused_calls(sys.argv[1:]))
from dynlab.dynamics.codegen import generate
from dynlab.dynamics.identification import base_parameters
from dynlab.engine.native import compile_c
from dynlab.model.robots import planar_2r
child = [sys.executable, "-I", "-c", "print(1)"]      # no refusals in a fresh Python
result = {}
for name, attempt in {
        "subprocess": lambda: subprocess.run(child, capture_output=True),
        "os.system": lambda: os.system("true"),
        "os.execv": lambda: os.execv(sys.executable, child),
        "os.posix_spawn": lambda: os.posix_spawn(sys.executable, child, {}),
        "subprocess's own fork_exec": lambda: subprocess._fork_exec(
            [b"x"], [os.fsencode(sys.executable)], True, (), None, None, -1, -1, -1, -1, -1,
            -1, -1, -1, False, False, None, None, None, -1, None, False),
        "multiprocessing": lambda: multiprocessing.get_context("spawn").Pool(1).apply(
            base_parameters, (planar_2r("fu"),)),
        "dynlab's C compiler": lambda: compile_c(generate(planar_2r("fu"), cache=False),
                                                 tempfile.mkdtemp())}.items():
    try:
        attempt()
        result[name] = "allowed"
    except PermissionError as error:
        result[name] = str(error)
print(json.dumps(result))
"""


def test_a_graded_run_refuses_starting_another_program_from_the_students_code():
    """A ``python -c`` child of the graded kernel would start without the refusals (the kernel's
    startup file installs them; a child run with ``-I`` reads no environment): in a graded
    run the student's code cannot start another program (a PermissionError), nor a spawned
    ``multiprocessing`` child (which would unpickle I.1's refused ``base_parameters`` by its
    name as the original), while dynlab's own use of one, the C compiler of ``compile_c``,
    keeps working."""
    done = subprocess.run([sys.executable, "-c", _PROGRAMS, "I.1"], capture_output=True,
                          text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("}"), f"a program was started: {done.stdout[-200:]}"
    result = json.loads(done.stdout.strip().split("\n")[-1])
    assert result.pop("dynlab's C compiler") == "allowed", result
    assert all(said.startswith("starting another program") and "graded run" in said
               for said in result.values()), result


def test_the_guide_lists_what_each_question_refuses_as_the_keys_declare():
    """solutions/README.md holds the table made from the one declaration, every shipped key
    carries its question's calls as that declaration says, and each call names a function of
    dynlab (a graded kernel that cannot install a refusal ends: the notebook earns nothing)."""
    sys.path.insert(0, str(ROOT / "tools"))
    import library_answers
    assert library_answers.guide_table() in (ROOT / "solutions" / "README.md").read_text()
    assert {q: key["refuses"] for q, key in keys().items()} == {
        q: list(library_answers.REFUSED.get(q, ())) for q in keys()}
    for calls in library_answers.REFUSED.values():      # each names a function of dynlab
        for call in calls:
            assert callable(own_work._resolve(call.removesuffix(own_work.SYMBOLIC))), call


_DASHBOARD = r"""
import json, sys
from dynlab.grading import own_work
own_work.install(own_work.refused_calls(sys.argv[1:]))
from dynlab.teaching.dashboards.arm import dashboard
board = dashboard("ur20", render=False)
result = {}
for name, attempt in {
        "slide": lambda: board.slide(payload=10.0, q2=-60)["gravity"][1:3],
        "parts_at": lambda: board.parts_at([0, -1, 0, 0, 0, 0], [0] * 6, [0] * 6)}.items():
    try:
        attempt()
        result[name] = "allowed"
    except own_work.OwnWorkAsked as error:
        result[name] = str(error)
print(json.dumps(result))
"""


@pytest.mark.parametrize("question, refused", [("U.2", {"slide", "parts_at"}),
                                               ("U.1", set())])
def test_chapter_10s_dashboard_refuses_u2s_gravity_torques(question, refused):
    """U.2's c2 and c3 are chapter 10's ``slide(payload=..., q2=...)["gravity"][1:3]``: its
    graded run refuses the dashboard's readings, another question's keeps them."""
    done = subprocess.run([sys.executable, "-c", _DASHBOARD, question], capture_output=True,
                          text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().split("\n")[-1])
    assert {name for name, said in result.items() if said != "allowed"} == refused, result
    assert all(said.startswith("U.2 asks for your own derivation") for name, said in
               result.items() if name in refused), result
