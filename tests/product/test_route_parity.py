"""Both routes give the same points (issue 40, item 5): one nbgrader course (05_control, the
course's ``nbgrader_config.py`` calling :func:`dynlab.grading.nbgrader_scoring.configure`, with a
CPU limit per cell of 3 s so that a cell slower than the clock's backstop is cheap) autograded by
the real nbgrader, and the same ``submitted/`` folder graded by ``dynlab grade`` with the same
limit.  Each submission's points, question by question, are the ones its answers earn (from the
keys) on both routes:

- a variable of the student's own named ``check``, a deleted check cell, a pasted copy of a
  check cell (which made nbgrader abort the whole run), a cell that waits past the clock's
  backstop (and would then spoil an answer): full points;
- a submission that runs a classmate's answers from ``submitted/``: nothing there to read, 0;
- a submission that leaves a process running: no process outlives the grading;
- the kernel under nbgrader gets the graded values of its notebook's questions only;
- a submission whose C.1 is answered by the library call its key declares
  (``equations_of_motion``, refused in a graded run): 0 for C.1, the refusal in nbgrader's
  feedback and ``dynlab grade``'s notes, the ``importlib`` in its cell named in both logs.

The course grades for marks (the instructor's keys, ``key_directory``), and its students hand
in through nbgrader's exchange, collected by ``nbgrader collect`` with dynlab's configuration:
mallory's notebook, a link to the solution, beside a FIFO and a link to the course secret, is
not collected (``tests/product/test_nbgrader.py`` shows each refusal), and everyone else is graded.
"""

from __future__ import annotations

import io
import json
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import psutil
import pytest

from dynlab.grading.grader import grade_submissions
from dynlab.grading.keys import keys, part_points, use_keys
from tests.course.test_instructor_keys import instructor_folder
from tests.grading.test_own_work import EVASIONS
from tests.support.graded_course import answered, copying, solution_answers

from .test_nbgrader import (
    _nbgrader,
    attacks_on_collect,
    exchange_course,
    hand_in_to_exchange,
    make_exercises,
)

CONTROL = "05_control"
ASSIGNMENT = "ps1"
FULL = {q: sum(part_points(keys()[q]).values()) for q in ("C.1", "C.2", "C.3")}
ZERO = {q: 0.0 for q in FULL}
CELL_TIME_LIMIT = 3.0
MARKER = f"{os.getpid()}{os.getpid() % 7919}"


def _ids(notebook) -> list:
    return [cell.metadata.get("nbgrader", {}).get("grade_id") for cell in notebook.cells]


def _honest():
    return answered(CONTROL, solution_answers(CONTROL))


def _before(grade_id: str, code: str, notebook=None):
    notebook = notebook or _honest()
    notebook.cells.insert(_ids(notebook).index(grade_id), nbformat.v4.new_code_cell(code))
    return notebook


def _deleted():
    notebook = _honest()
    del notebook.cells[_ids(notebook).index("check-C_2")]
    return notebook


def _pasted():
    notebook = _honest()
    index = _ids(notebook).index("check-C_2")
    notebook.cells.insert(index, nbformat.from_dict(json.loads(json.dumps(
        notebook.cells[index]))))
    return notebook


LINGER = ("import os\n"
          "if os.fork() == 0:\n"
          "    os.setsid()\n"
          f"    os.execv('/bin/sleep', ['sleep', '3600.{MARKER}'])")
SHOW_GIVENS = ("import json, os\n"
               "print('givens of', sorted(json.loads(os.environ['DYNLAB_GIVENS'])['questions']))")


def _library_call():
    """C.1 answered by the call C.1's key refuses in a graded run (its honest lines after it
    never run), with an ``importlib`` the grader's notes name."""
    answers = solution_answers(CONTROL)
    answers["answer-C_1"] = "import importlib\n" + EVASIONS["plain"] + answers["answer-C_1"]
    return answered(CONTROL, answers)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("parity")
    keys = folder / "course" / "keys"
    course, inbound = exchange_course(folder, make_exercises.NBGRADER_CONFIG.replace(
        "configure(c)", f"configure(c, cell_time_limit={CELL_TIME_LIMIT})")
        + f"c.ScoreExportedAnswers.key_directory = {str(keys)!r}\n")
    instructor_folder(keys)
    source = course / "source" / ASSIGNMENT
    source.mkdir(parents=True)
    (source / f"{CONTROL}.ipynb").write_bytes(
        (Path(make_exercises.__file__).parents[1] / "solutions" / f"{CONTROL}.ipynb")
        .read_bytes())
    _nbgrader(course, "generate_assignment", ASSIGNMENT, "--force")
    cases = {
        "alice": (_honest(), FULL),
        "checker": (_before("answer-C_1", "check = 5"), FULL),
        "deleter": (_deleted(), FULL),
        "paster": (_pasted(), FULL),
        "sleeper": (_before("check-C_3", "import time\ntime.sleep(20)\nKd = 0"), FULL),
        "thief": (copying(CONTROL, course / "submitted" / "alice" / ASSIGNMENT
                                   / f"{CONTROL}.ipynb"), ZERO),
        "lingerer": (_before("check-C_3", LINGER), FULL),
        "shower": (_before("check-C_3", SHOW_GIVENS), FULL),
        "caller": (_library_call(), {**FULL, "C.1": 0.0}),
    }
    attacks_on_collect(course, inbound, CONTROL, nbformat.writes(cases["alice"][0]).encode())
    for student, (notebook, _) in cases.items():
        if student != "alice":
            hand_in_to_exchange(inbound, student,
                                {f"{CONTROL}.ipynb": nbformat.writes(notebook).encode()})
    _nbgrader(course, "collect", ASSIGNMENT)
    # the two routes at once (each mostly waits for its kernels); nbgrader's in a thread that
    # waits for its process
    with ThreadPoolExecutor(1) as nbgrader:
        autograding = nbgrader.submit(_nbgrader, course, "autograde", ASSIGNMENT, "--create",
                                      "--force")
        book = grade_submissions([course / "submitted"], stream=io.StringIO(), workers=2,
                                 cell_time_limit=CELL_TIME_LIMIT, keys=keys)
        use_keys(None)
        autograded = autograding.result()
    time.sleep(1)
    # a process that outlived either route's grading (the lingerer sleeps an hour) is still here
    lingering = [p.pid for p in psutil.process_iter(["cmdline"])
                 if f"3600.{MARKER}" in " ".join(p.info["cmdline"] or [])]
    from nbgrader.api import Gradebook
    nbgrader_points = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        for student in cases:
            notebook = gradebook.find_submission_notebook(CONTROL, ASSIGNMENT, student)
            nbgrader_points[student] = {grade.name.removeprefix("check-").replace("_", "."):
                                        grade.score for grade in notebook.grades}
        nbgrader_graded = {submission.student.id for submission in
                           gradebook.find_assignment(ASSIGNMENT).submissions}
    yield (course, cases, nbgrader_points, book, lingering, autograded.stdout + autograded.stderr,
           nbgrader_graded)
    for process in psutil.process_iter(["cmdline"]):        # whatever was left on a failure
        if f"3600.{MARKER}" in " ".join(process.info["cmdline"] or []):
            process.kill()


@pytest.mark.parametrize("student", ["alice", "checker", "deleter", "paster", "sleeper",
                                     "thief", "lingerer", "caller"])
def test_both_routes_give_the_points_the_answers_earn(graded, student):
    _, cases, nbgrader_points, book, *_ = graded
    expected = cases[student][1]
    assert nbgrader_points[student] == expected, student
    assert book.question_points(student) == expected, student


def test_no_process_outlives_the_grading_of_either_route(graded):
    assert graded[4] == []


def test_nbgraders_kernel_gets_only_its_notebooks_values(graded):
    course = graded[0]
    notebook = nbformat.read(course / "autograded" / "shower" / ASSIGNMENT / f"{CONTROL}.ipynb",
                             as_version=4)
    shown = [output.get("text", "") for cell in notebook.cells
             for output in cell.get("outputs", []) if "givens of" in output.get("text", "")]
    assert shown == [f"givens of {sorted(FULL)}\n"]


def test_a_library_answer_earns_nothing_and_the_feedback_says_why(graded):
    """C.1 answered by ``equations_of_motion`` under nbgrader (its sandboxed kernel handed
    DYNLAB_REFUSED and PYTHONSTARTUP): the refusal is in the answer cell's output, which
    nbgrader's feedback shows; ``dynlab grade`` notes it; both name the ``importlib``."""
    course, _, _, book, _, log, _ = graded
    notebook = nbformat.read(course / "autograded" / "caller" / ASSIGNMENT / f"{CONTROL}.ipynb",
                             as_version=4)
    (cell,) = [c for c in notebook.cells
               if c.metadata.get("nbgrader", {}).get("grade_id") == "answer-C_1"]
    shown = json.dumps(cell.outputs)
    assert "OwnWorkAsked" in shown and re.search(   # C.1, with the other questions it answers
        r"C\.1(, C\.\d)* asks? for your own derivation; dynlab\.equations_of_motion is not "
        r"available in the graded run", shown), shown[:2000]
    assert "OwnWorkAsked" in "; ".join(book.notes["caller"])
    trick = "uses importlib, which can get round the refusals of a graded run"
    assert trick in "; ".join(book.notes["caller"])
    assert re.search(r"dynlab: caller: cell \d+ " + trick, log), log[-3000:]


def test_collect_leaves_out_what_a_link_points_to_and_grades_the_others(graded):
    """mallory's notebook (a link to the solution) is not collected, so neither route grades
    it; every other student handed in through the exchange is graded on both."""
    course, cases, _, book, *_, nbgrader_graded = graded
    assert not (course / "submitted" / "mallory" / ASSIGNMENT / f"{CONTROL}.ipynb").exists()
    assert nbgrader_graded == set(cases) and set(book.rows) == set(cases)
