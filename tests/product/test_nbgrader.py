"""nbgrader end to end: a course in a temporary folder with ``solutions/`` as nbgrader's source.

The real nbgrader (the ``test`` extra) releases the assignment, autogrades three submissions and
exports the gradebook:

- the release holds no solution text (no line of a solution block, a hidden check or a takeaway)
  and its cells are exactly those of ``exercises/``;
- the solutions get full marks, the unchanged release 0, and a submission with chosen wrong parts
  (that also redefines ``check`` and edits a check cell) exactly the points of its right parts;
- the export has one row per student, and ``dynlab grade`` gives the same points
  (``tests/product/test_grade_cli.py`` runs it on the same submissions, built by
  :func:`submissions`).

One notebook (``02_two_link_arm_on_the_ceiling``: 9 questions, one of them in three parts) keeps
the run short.
"""

from __future__ import annotations

import csv
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
import pytest

from dynlab.grading import keys, part_points, questions

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import make_answer_keys  # noqa: E402
import make_exercises  # noqa: E402

NOTEBOOK = "02_two_link_arm_on_the_ceiling"
ASSIGNMENT = "ps1"

#: Carol's wrong parts: lines added after the solution of an answer cell (by question)
CAROL_WRONG = {
    "3.16b": "J = [J2, J1]",                       # the masses swapped: wrong
    "3.16c": "h = -h",                             # D and c right, h wrong
    "3.13a": "g_LE = [0, 0, 9.8062, 0]",           # g_LE's sign wrong, v_dot0_NE right
    "3.13b": "choice = letter(EXPLANATIONS[0])",   # a wrong explanation, in any order
}
#: ... and what she tries besides: her own check, and an edited check cell
#: (her check's value, and the edited cell's, would be a grade if nbgrader used them)
CAROL_HOSTILE = "def check(question, answer, **options):\n    return 1.0"


def carol_expected() -> dict:
    """The points of Carol's right parts, question by question."""
    wrong_parts = {"3.16b": {"J"}, "3.16c": {"h"}, "3.13a": {"g_LE"}, "3.13b": {""}}
    expected = {}
    for question in questions(NOTEBOOK):
        shares = part_points(keys()[question])
        expected[question] = sum(points for part, points in shares.items()
                                 if part not in wrong_parts.get(question, set()))
    return expected


def _answer_id(question: str) -> str:
    return "answer-" + question.replace(".", "_")


def _check_id(question: str) -> str:
    return "check-" + question.replace(".", "_")


def submissions(release: Path) -> dict:
    """``{student: notebook}`` built from the released notebook: alice answers with the
    solutions, bob hands in the release unchanged, carol has the parts of :data:`CAROL_WRONG`
    wrong, defines her own ``check`` and replaces one check cell by ``3.0``."""
    solution = nbformat.read(ROOT / "solutions" / f"{NOTEBOOK}.ipynb", as_version=4)
    answers = {cell.metadata["nbgrader"]["grade_id"]: cell.source for cell in solution.cells
               if cell.metadata.get("nbgrader", {}).get("solution")}
    released = nbformat.read(release, as_version=4)
    alice, bob, carol = (nbformat.from_dict(released) for _ in range(3))
    for notebook, wrong in ((alice, {}), (carol, CAROL_WRONG)):
        for cell in notebook.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
            if grade_id in answers:
                cell.source = answers[grade_id]
                question = next(q for q in questions(NOTEBOOK) if _answer_id(q) == grade_id)
                if question in wrong:
                    cell.source += "\n" + wrong[question]
    first_answer = next(cell for cell in carol.cells
                        if cell.metadata.get("nbgrader", {}).get("solution"))
    first_answer.source += "\n" + CAROL_HOSTILE
    for cell in carol.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == _check_id("3.16b"):
            cell.source = "1.0"
    return {"alice": alice, "bob": bob, "carol": carol}


#: Students who answer nothing and try for the points in their kernel instead: one line each in
#: the first answer cell (each gave full marks while points were decided in the kernel)
ATTACKS = {
    "silent": "get_ipython().ast_node_interactivity = 'none'",    # no cell shows a value
    "patcher": ("import dynlab.grading.autograde, dynlab.grading.keys\n"
                "dynlab.grading.autograde.points = lambda question, answer, **options: "
                "float(dynlab.grading.keys.keys()[question]['points'])"),
    "numpy_all": "import numpy\nnumpy.all = lambda *args, **options: True",
}


def attackers(release: Path) -> dict:
    """``{student: notebook}``: the release with one line of :data:`ATTACKS` and no answer."""
    found = {}
    for student, code in ATTACKS.items():
        notebook = nbformat.read(release, as_version=4)
        first_answer = next(cell for cell in notebook.cells
                            if cell.metadata.get("nbgrader", {}).get("solution"))
        first_answer.source += "\n" + code
        found[student] = notebook
    return found


def expected_points() -> dict:
    full = {q: float(keys()[q]["points"]) for q in questions(NOTEBOOK)}
    return {"alice": full, "bob": {q: 0.0 for q in full}, "carol": carol_expected()}


def _nbgrader(course: Path, *args: str, variables: dict | None = None
              ) -> subprocess.CompletedProcess:
    """``nbgrader *args`` in ``course``; ``variables`` sets (or, with None, removes) environment
    variables of that run."""
    # nbgrader runs the `alembic` command of its environment (on PATH) on its gradebook
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]),
        PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    for name, value in (variables or {}).items():
        if value is None:
            environment.pop(name, None)
        else:
            environment[name] = value
    # its kernels talk over Unix sockets in the run's private runtime folder (the root
    # conftest.py): no two kernels of the suite can be handed one TCP port.  The sockets' path
    # is absolute: nbclient leaves it relative ("kernel-ipc"), which the kernel, started in the
    # notebook's folder, and nbgrader, in the course's, would read as two different places
    sockets = Path(os.environ["JUPYTER_RUNTIME_DIR"]) / f"nbgrader-{secrets.token_hex(6)}"
    result = subprocess.run([sys.executable, "-m", "nbgrader", *args,
                             "--KernelManager.transport=ipc", f"--KernelManager.ip={sockets}"],
                            cwd=course,
                            capture_output=True, text=True, env=environment, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """A course folder: the configuration of make_exercises.NBGRADER_CONFIG, the solution
    notebook copied unchanged as the source of ``ps1``, released, three submissions autograded."""
    course = tmp_path_factory.mktemp("course")
    (course / "nbgrader_config.py").write_text(make_exercises.NBGRADER_CONFIG)
    source = course / "source" / ASSIGNMENT
    source.mkdir(parents=True)
    (source / f"{NOTEBOOK}.ipynb").write_bytes(
        (ROOT / "solutions" / f"{NOTEBOOK}.ipynb").read_bytes())
    _nbgrader(course, "generate_assignment", ASSIGNMENT, "--force")
    release = course / "release" / ASSIGNMENT / f"{NOTEBOOK}.ipynb"
    for student, notebook in {**submissions(release), **attackers(release)}.items():
        folder = course / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(notebook, folder / f"{NOTEBOOK}.ipynb")
    graded = _nbgrader(course, "autograde", ASSIGNMENT, "--create", "--force")
    (course / "autograde.log").write_text(graded.stdout + graded.stderr)
    _nbgrader(course, "export", "--to", str(course / "grades.csv"))
    return course


def _solution_texts(notebook) -> set:
    """Every line of a solution block, a hidden check or a cell tagged solution_only (stripped,
    not blank) that appears nowhere else in the source notebook (not even inside a line of the
    question's text), and every takeaway of its questions."""
    secret, public = set(), set()
    for index, cell in enumerate(notebook.cells):
        if make_exercises.SOLUTION_ONLY in cell.metadata.get("tags", []):
            secret.update(line.strip() for line in cell.source.split("\n") if line.strip())
            continue
        for piece, lines in make_exercises.split_blocks(cell.source, f"cell {index}"):
            for part, sub in make_exercises.split_blocks(
                    "\n".join(lines), f"cell {index}", make_exercises.HIDDEN_BEGIN,
                    make_exercises.HIDDEN_END):
                target = secret if piece or part else public
                target.update(line.strip() for line in sub if line.strip())
    notes = make_answer_keys.notes(NOTEBOOK)
    takeaways = {notes[q]["takeaway"] for q in questions(NOTEBOOK)
                 if "takeaway" in notes.get(q, {})}
    public_text = "\n".join(public)
    return {line for line in secret if line not in public_text} | takeaways


def test_the_release_holds_no_solution_text(course):
    source = nbformat.read(course / "source" / ASSIGNMENT / f"{NOTEBOOK}.ipynb", as_version=4)
    release = nbformat.read(course / "release" / ASSIGNMENT / f"{NOTEBOOK}.ipynb", as_version=4)
    secret = _solution_texts(source)
    assert len(secret) > 40                           # the derivations, answers and takeaways
    released = "\n".join(cell.source for cell in release.cells)
    assert [text for text in secret if text in released] == []
    assert "BEGIN" not in released and "autograde" not in released
    assert not any(cell.get("outputs") for cell in release.cells)


def test_the_release_is_the_exercise_notebook(course):
    release = nbformat.read(course / "release" / ASSIGNMENT / f"{NOTEBOOK}.ipynb", as_version=4)
    exercise = nbformat.read(ROOT / "exercises" / f"{NOTEBOOK}.ipynb", as_version=4)
    assert [(c.cell_type, c.source) for c in release.cells] == \
        [(c.cell_type, c.source) for c in exercise.cells]


def test_autograding_gives_each_part_its_points(course):
    from nbgrader.api import Gradebook
    expected = expected_points()
    assert sum(expected["carol"].values()) not in (0, sum(expected["alice"].values()))
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        for student, points in expected.items():
            notebook = gradebook.find_submission_notebook(NOTEBOOK, ASSIGNMENT, student)
            given = {grade.name: grade.score for grade in notebook.grades}
            assert {q: pytest.approx(given[_check_id(q)], abs=1e-9) for q in points} == points, \
                student
            assert notebook.score == pytest.approx(sum(points.values()), abs=1e-9)


def test_every_check_cell_gives_nbgrader_a_number(course):
    """No "cannot be converted to a float" (nbgrader then gives full points to any output)."""
    log = (course / "autograde.log").read_text()
    assert "autograde" in log.lower() and "cannot be converted to" not in log
    assert "partial credit cannot be greater" not in log


def test_the_checksum_messages_are_the_hidden_checks(course):
    """nbgrader logs "Attribute 'checksum' ... has changed!" for check cells (the source holds
    the hidden lines, the release does not; the guide explains it) and for nothing else."""
    log = (course / "autograde.log").read_text()
    changed = re.findall(r"Attribute '(\w+)' for cell ([\w-]+) has changed", log)
    assert changed and {attribute for attribute, _ in changed} == {"checksum"}
    assert {cell for _, cell in changed} <= {_check_id(q) for q in questions(NOTEBOOK)}


@pytest.mark.parametrize("student", list(ATTACKS))
def test_an_attack_in_the_kernel_earns_nothing(course, student):
    """Points are decided outside the kernel (dynlab.grading.nbgrader_scoring): silencing the
    cells, patching dynlab.grading.autograde.points or numpy.all hands in no answer, so 0."""
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        notebook = gradebook.find_submission_notebook(NOTEBOOK, ASSIGNMENT, student)
        assert {grade.name: grade.score for grade in notebook.grades
                if grade.name.startswith("check-")} == \
            {_check_id(q): 0.0 for q in questions(NOTEBOOK)}
        assert notebook.score == 0


def test_a_cell_that_hands_in_nothing_scores_zero():
    """The scoring step alone: a grade cell with no export, a forged or doubled export, or an
    export of code as text gets 0; the one export of a right answer its points."""
    import sympy
    from nbformat.v4 import new_code_cell, new_output

    from dynlab.grading import variant
    from dynlab.grading.answers import serialize
    from dynlab.grading.autograde import MIME
    from dynlab.grading.nbgrader_scoring import ScoreExportedAnswers
    M, a = sympy.symbols("M a", positive=True)
    centre = sympy.Rational(2, 3) * M * a**2 * sympy.eye(3)
    d = a * sympy.Matrix([sympy.Rational(variant("3.5", student="x")[name])   # x's cube
                          for name in ("dx", "dy", "dz")])
    about_o = centre + M * ((d.T * d)[0] * sympy.eye(3) - d * d.T)         # about O

    def cell(*exports):
        made = new_code_cell('check("3.5", (I_O, I_centre))', metadata={"nbgrader": {
            "grade": True, "grade_id": "check-3_5", "points": 2, "solution": False}})
        made.outputs = [new_output("display_data", data={MIME: text}) for text in exports] + \
            [new_output("execute_result", data={"text/plain": "2.0"}, execution_count=1)]
        return made

    def points(*exports):
        step = ScoreExportedAnswers()
        step.student = "x"
        scored, _ = step.preprocess_cell(cell(*exports), {}, 0)
        (result,) = [o for o in scored.outputs if o.output_type == "execute_result"]
        return float(result.data["text/plain"])

    right = json.dumps({"question": "3.5", "answer": serialize((about_o, centre))})
    assert points(right) == 2.0
    assert points() == 0.0                                          # nothing shown
    assert points(right, right) == 0.0                              # more than one
    assert points("{not json") == 0.0
    assert points(json.dumps({"question": "3.6", "answer": serialize((about_o, centre))})) == 0
    marker = Path(tempfile.gettempdir()) / f"dynlab-pwned-{os.getpid()}"
    code = f"__import__('os').system('touch {marker}')"
    assert points(json.dumps({"question": "3.5", "answer": {"tuple": [
        {"value": code}, {"value": code}]}})) == 0.0
    assert not marker.exists()


def test_the_export_has_one_row_per_student(course):
    with open(course / "grades.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    rows = [row for row in rows if row["student_id"] not in ATTACKS]
    assert sorted(row["student_id"] for row in rows) == ["alice", "bob", "carol"]
    total = {student: sum(points.values()) for student, points in expected_points().items()}
    for row in rows:
        assert float(row["raw_score"]) == pytest.approx(total[row["student_id"]], abs=1e-9)
        assert float(row["max_score"]) == total["alice"]


def test_without_the_configuration_only_nbgrader_s_default_stub_differs(tmp_path):
    """The guide's claim: with nbgrader's own default stub, the release is exercises/ with
    ``# YOUR CODE HERE`` / ``raise NotImplementedError()`` in place of each blank stub line."""
    source = tmp_path / "source" / ASSIGNMENT
    source.mkdir(parents=True)
    (source / f"{NOTEBOOK}.ipynb").write_bytes(
        (ROOT / "solutions" / f"{NOTEBOOK}.ipynb").read_bytes())
    _nbgrader(tmp_path, "generate_assignment", ASSIGNMENT, "--force")
    release = nbformat.read(tmp_path / "release" / ASSIGNMENT / f"{NOTEBOOK}.ipynb", as_version=4)
    exercise = nbformat.read(ROOT / "exercises" / f"{NOTEBOOK}.ipynb", as_version=4)
    differing = [(r.source, e.source) for r, e in zip(release.cells, exercise.cells)
                 if r.source != e.source]
    assert len(release.cells) == len(exercise.cells) and len(differing) == len(questions(NOTEBOOK))
    for released, exercised in differing:
        lines = exercised.split("\n")
        blank = max(i for i, line in enumerate(lines) if re.fullmatch(r"\w+ = \.\.\.", line)) + 1
        assert lines[blank] == make_exercises.CODE_STUB
        default = ["# YOUR CODE HERE", "raise NotImplementedError()"]
        assert released == "\n".join(lines[:blank] + default + lines[blank + 1:])


# -- the students' JupyterLab: nbgrader's instructor tools are switched off ------------------------
def _jupyter_list(*command) -> list:
    """The lines of ``jupyter <command> list`` of this environment, without colour codes."""
    jupyter = Path(sys.executable).parent / "jupyter"
    done = subprocess.run([str(jupyter), *command, "list"], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, NO_COLOR="1"))
    assert done.returncode == 0, done.stderr
    return re.sub(r"\x1b\[[0-9;]*m", "", done.stdout + done.stderr).splitlines()


def _workbook():
    import importlib.util
    spec = importlib.util.spec_from_file_location("workbook", ROOT / "workbook.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_students_lab_shows_no_nbgrader_menus_and_the_command_line_works():
    """workbook.py's set-up disables nbgrader's JupyterLab extension (Validate button, Create
    Assignment and Formgrader panels) and its server extensions in .venv: every one that nbgrader
    installs, so a new one in a later nbgrader would fail here. The command line (what the
    instructor and the other tests use) is not affected."""
    workbook = _workbook()
    lab = [line.split() for line in _jupyter_list("labextension") if "nbgrader" in line
           and ("enabled" in line or "disabled" in line)]
    assert {words[0] for words in lab} == set(workbook.NBGRADER_LAB_EXTENSIONS), lab
    assert all("disabled" in words for words in lab), lab
    server = [line.split() for line in _jupyter_list("server", "extension")
              if line.strip().startswith("nbgrader") and ("enabled" in line or "disabled" in line)]
    assert {words[0] for words in server} == set(workbook.NBGRADER_SERVER_EXTENSIONS), server
    assert all(words[1] == "disabled" for words in server), server
    nbgrader = Path(sys.executable).parent / "nbgrader"
    done = subprocess.run([str(nbgrader), "--version"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "nbgrader version" in done.stdout + done.stderr


# -- nbgrader collect: only what the students handed in ------------------------------------------
def hand_in_to_exchange(inbound: Path, student: str, files: dict) -> Path:
    """A submission of ``student`` in the exchange's ``inbound`` folder, named as ``nbgrader
    submit`` names it, holding ``files`` (``{name: bytes}``) and its ``timestamp.txt``."""
    stamp = "2024-03-01 10:00:00.000000 UTC"
    record = inbound / f"{student}+{ASSIGNMENT}+{stamp}+{secrets.token_hex(4)}"
    record.mkdir(parents=True)
    (record / "timestamp.txt").write_text(stamp)
    for name, data in files.items():
        (record / name).write_bytes(data)
    return record


def exchange_course(folder: Path, config: str = make_exercises.NBGRADER_CONFIG) -> tuple:
    """``(course, inbound)``: a course configured by ``config`` (``nbgrader_config.py``)
    whose exchange, in ``folder``, has an empty ``inbound``."""
    course, exchange = folder / "course", folder / "exchange"
    inbound = exchange / "dynlab" / "inbound"
    inbound.mkdir(parents=True)
    course.mkdir()
    (course / "nbgrader_config.py").write_text(
        config + f"c.CourseDirectory.course_id = 'dynlab'\nc.Exchange.root = {str(exchange)!r}\n")
    return course, inbound


def attacks_on_collect(course: Path, inbound: Path, notebook: str, honest: bytes) -> None:
    """In ``inbound``: alice's honest ``notebook`` (``honest``, its bytes); mallory's
    submission whose notebook is a symbolic link to its solution, beside links to the course
    secret, to alice's notebook and to the keys' folder, a FIFO named like a notebook and a
    note of her own; trudy's submission, itself a link to alice's."""
    alice = hand_in_to_exchange(inbound, "alice", {f"{notebook}.ipynb": honest})
    mallory = hand_in_to_exchange(inbound, "mallory", {"notes.md": b"my own notes\n"})
    (mallory / f"{notebook}.ipynb").symlink_to(ROOT / "solutions" / f"{notebook}.ipynb")
    (mallory / "secret.txt").symlink_to(course / "keys" / "course_secret")
    (mallory / "classmate.ipynb").symlink_to(alice / f"{notebook}.ipynb")
    (mallory / "keys").symlink_to(course / "keys", target_is_directory=True)
    os.mkfifo(mallory / "pipe.ipynb")
    (inbound / alice.name.replace("alice", "trudy", 1)).symlink_to(alice,
                                                                  target_is_directory=True)


def test_collect_takes_only_the_regular_files_handed_in(tmp_path):
    """``nbgrader collect`` with dynlab's configuration (CollectHandedIn): alice's notebook is
    collected as she handed it in; of mallory's submission only her own regular files arrive
    (no copy of the solution, the course secret, alice's notebook or the keys, and the FIFO
    stops nothing); trudy's, a link to alice's, is not collected; the log names each.
    (nbgrader's own collect copies what each link points to, and stops at the FIFO.)"""
    course, inbound = exchange_course(tmp_path)
    (course / "keys").mkdir()
    secret = secrets.token_hex(32)
    (course / "keys" / "course_secret").write_text(secret + "\n")
    honest = nbformat.writes(nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("x = 1")])).encode()
    attacks_on_collect(course, inbound, NOTEBOOK, honest)
    done = _nbgrader(course, "collect", ASSIGNMENT)
    submitted = course / "submitted"
    assert not (submitted / "trudy" / ASSIGNMENT).exists()
    assert (submitted / "alice" / ASSIGNMENT / f"{NOTEBOOK}.ipynb").read_bytes() == honest
    assert sorted(os.listdir(submitted / "mallory" / ASSIGNMENT)) == ["notes.md", "timestamp.txt"]
    solution = (ROOT / "solutions" / f"{NOTEBOOK}.ipynb").read_bytes()
    for path in submitted.rglob("*"):
        assert not path.is_symlink(), path
        if path.is_file():
            assert secret not in path.read_text(errors="replace") and \
                path.read_bytes() != solution, path
    log = done.stdout + done.stderr
    for name in (f"{NOTEBOOK}.ipynb", "secret.txt", "classmate.ipynb", "keys"):
        assert f"{name}: a symbolic link, not a regular file; not opened" in log, name
    assert "pipe.ipynb: a FIFO (named pipe), not a regular file; not opened" in log
    assert re.search(r"trudy\+\S+ .*is not collected: .*a symbolic link", log), log
