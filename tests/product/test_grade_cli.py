"""``dynlab grade``: submitted notebooks graded in fresh kernels from the instructor's solutions.

- The three submissions of the nbgrader test (``tests/product/test_nbgrader.py``: the solutions, the
  unchanged release, chosen wrong parts plus a redefined ``check`` and an edited check cell) get
  the same points, part by part, as nbgrader gives them.
- Hostile submissions are contained: an endless loop, C-level arithmetic that ignores interrupts,
  ``sys.exit``, a kernel that exits, a cell that raises, a deleted answer, a redefined ``check``
  and a patched ``dynlab.grading``, a submission that kills its grading process, a file that is
  not a notebook.  Each gets 0 for what it did not show, with a reason, and the batch goes on.
"""

from __future__ import annotations

import csv
import io
import os
import sys
import time
from pathlib import Path

import nbformat
import psutil
import pytest

from dynlab import cli
from dynlab.grading import answers, grader, keys, part_points, questions, sandbox
from dynlab.grading.grader import grade_submissions

ROOT = Path(__file__).resolve().parents[2]
from tests.support.graded_course import answered, copying, dynlab_grade, hand_in, solution_answers  # noqa: E402

from . import test_nbgrader  # noqa: E402

NOTEBOOK = test_nbgrader.NOTEBOOK


def _read_csv(path: Path) -> list:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_dynlab_grade_gives_the_points_nbgrader_gives(tmp_path, capsys):
    release = ROOT / "exercises" / f"{NOTEBOOK}.ipynb"    # what nbgrader releases (tested there)
    hand_in(tmp_path / "in", NOTEBOOK, test_nbgrader.submissions(release))
    rows = dynlab_grade(tmp_path / "in", tmp_path / "grades.csv")
    assert "carol: 8.5/12 points" in capsys.readouterr().out
    assert sorted(rows) == ["alice", "bob", "carol"]
    columns = [f"{q} {p}".strip() for q in questions(NOTEBOOK)
               for p in part_points(keys()[q])]
    assert list(rows["alice"])[1:-4] == columns                # one column per part
    assert "3.16c D" in columns and "3.16c h" in columns and "3.16c c" in columns
    for student, expected in test_nbgrader.expected_points().items():
        given = {q: sum(float(rows[student][f"{q} {p}".strip()])
                        for p in part_points(keys()[q])) for q in expected}
        assert given == pytest.approx(expected, abs=1e-5), student
        assert float(rows[student]["total"]) == pytest.approx(sum(expected.values()), abs=1e-5)
        assert float(rows[student]["max"]) == 12
    assert float(rows["carol"]["3.16c h"]) == 0 and float(rows["carol"]["3.16c D"]) == 1


# -- hostile submissions --------------------------------------------------------------------------
CONTROL = "05_control"
FULL = {"C.1": 2.0, "C.2": 2.0, "C.3": 1.0}


def _answered() -> nbformat.NotebookNode:
    """The released 05_control with the solutions' answers."""
    return answered(CONTROL, solution_answers(CONTROL))


def _with_cell(code: str, before: str) -> nbformat.NotebookNode:
    """The answered notebook with a cell of ``code`` inserted before the cell ``before``
    (a grade_id)."""
    notebook = _answered()
    index = next(i for i, c in enumerate(notebook.cells)
                 if c.metadata.get("nbgrader", {}).get("grade_id") == before)
    notebook.cells.insert(index, nbformat.v4.new_code_cell(code))
    return notebook


CHEAT = """\
import sys
import dynlab.grading, dynlab.grading.autograde
def check(*args, **options):
    return 99.0
dynlab.grading.check = sys.modules["dynlab.grading.check"].check = check
dynlab.grading.autograde.points = check
sys.modules["dynlab.grading.keys"]._KEYS = {}
c = -c"""

HOSTILE = {
    # name: (notebook, expected points, a word of the reason, or None)
    "looper": (lambda: _with_cell("while True:\n    pass", "check-C_1"), FULL, "longer"),
    "c_level": (lambda: _with_cell("sum(range(10 ** 15))", "check-C_2"),   # C: no interrupt
                {"C.1": 2.0, "C.2": 0.0, "C.3": 0.0}, "did not stop"),
    "exiter": (lambda: _with_cell("import sys\nsys.exit(3)", "check-C_1"), FULL, "SystemExit"),
    "killer": (lambda: _with_cell("import os\nos._exit(0)", "answer-C_2"),
               {"C.1": 2.0, "C.2": 0.0, "C.3": 0.0}, "kernel died"),
    "raiser": (lambda: _with_cell("raise RuntimeError('boom')", "check-C_3"), FULL, "boom"),
    "deleter": (lambda: _with_cell("del tau", "check-C_2"), {"C.1": 2.0, "C.2": 0.0, "C.3": 1.0},
                "NameError"),
    "cheater": (lambda: _with_cell(CHEAT, "check-C_1"), {"C.1": 0.0, "C.2": 2.0, "C.3": 1.0},
                None),
    "parent_killer": (lambda: _with_cell("import os, signal\n"
                                         "os.kill(os.getppid(), signal.SIGKILL)", "check-C_3"),
                      {"C.1": 0.0, "C.2": 0.0, "C.3": 0.0}, "without answers"),
    "honest": (_answered, FULL, None),
}


#: What the sandboxed attacks below leave behind, if anything does: a marker in a process's
#: command line (a sleep of 3600.<marker> seconds), a file
MARKER = f"{os.getpid()}{os.getpid() % 7919}"


def _attacks(folder: Path) -> dict:
    """name: (notebook, expected points, a word of the reason or None)."""
    out = folder / "g.csv"
    daemon = ("import os, time\n"
              "if os.fork() == 0:\n"
              "    try:\n"
              "        os.setsid()\n"
              "        if os.fork() == 0:\n"
              "            time.sleep(4)\n"
              f"            open({str(out)!r}, 'w').write('hacked')\n"
              "    finally:\n"
              "        os._exit(0)")
    forks = ("import os\n"
             "for _ in range(25):\n"
             "    if os.fork() == 0:\n"
             "        try:\n"
             "            os.setsid()\n"
             f"            os.execv('/bin/sleep', ['sleep', '3600.{MARKER}'])\n"
             "        finally:\n"
             "            os._exit(0)")
    shout = ("import os\n"
             "fd = os.open(f'/proc/{os.getppid()}/fd/1', os.O_WRONLY)\n"
             "for _ in range(1024):\n"
             "    os.write(fd, b'x' * 2 ** 20)")
    code = f"Kd = \"__import__('os').system('touch {folder / ('pwned' + MARKER)}')\""
    return {
        "thief": (lambda: copying(CONTROL, folder / "honest.ipynb"),
                  {"C.1": 0.0, "C.2": 0.0, "C.3": 0.0}, "FileNotFoundError"),
        "daemon": (lambda: _with_cell(daemon, "check-C_3"), FULL, None),
        "hog": (lambda: _with_cell("memory = bytearray(3 * 1024 ** 3)", "check-C_3"), FULL,
                "MemoryError"),
        "forker": (lambda: _with_cell(forks, "check-C_3"), FULL, "BlockingIOError"),
        "shouter": (lambda: _with_cell(shout, "check-C_3"), FULL, "PermissionError"),
        "coder": (lambda: _with_cell(code, "check-C_3"), {"C.1": 2.0, "C.2": 2.0, "C.3": 0.0},
                  None),
    }


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """One batch: the hostile submissions of :data:`HOSTILE`, the sandbox's attacks
    (:func:`_attacks`) and a file that is not a notebook, graded into ``g.csv``."""
    folder = tmp_path_factory.mktemp("hostile")
    cases = {**HOSTILE, **_attacks(folder)}
    paths = []
    for student, (build, _, _) in cases.items():
        path = folder / f"{student}.ipynb"
        nbformat.write(build(), path)
        paths.append(path)
    (folder / "garbage.ipynb").write_text("this is not a notebook")
    # 4 s of CPU a cell: the honest cells of 05_control compute 0.6 s at most; the endless loop
    # and the C-level sum compute up to the limit (and RESPONSE_TIME more) before they stop
    book = grade_submissions(paths + [folder / "garbage.ipynb"], out=folder / "g.csv",
                             notebook_time_limit=60, cell_time_limit=4, check_time_limit=10,
                             solutions=ROOT / "solutions")
    gradebook = (folder / "g.csv").read_text()
    time.sleep(6)                       # the daemon's time to rewrite the gradebook
    yield folder, cases, book, gradebook
    for process in psutil.process_iter(["cmdline"]):        # whatever was left on a failure
        if f"3600.{MARKER}" in " ".join(process.info["cmdline"] or []):
            process.kill()


def _expect(hostile, student: str) -> None:
    _, cases, book, _ = hostile
    _, expected, reason = cases[student]
    assert book.question_points(student) == pytest.approx(expected), student
    notes = "; ".join(book.notes[student])
    if reason is None:
        assert notes == "", (student, notes)
    else:
        assert reason in notes, (student, notes)


def test_hostile_submissions_get_zero_for_what_they_did_not_show_and_never_stop_the_batch(
        hostile):
    folder, cases, book, _ = hostile
    assert list(book.rows) == list(cases) + ["garbage"]
    for student in HOSTILE:
        _expect(hostile, student)
    assert book.total("garbage") == 0 and "garbage.ipynb" in book.notes["garbage"][0]
    assert len(_read_csv(folder / "g.csv")) == len(cases) + 1


def test_a_submission_cannot_see_its_peers(hostile):
    _expect(hostile, "thief")


def test_a_detached_process_cannot_rewrite_the_gradebook(hostile):
    folder, _, _, gradebook = hostile
    _expect(hostile, "daemon")
    assert (folder / "g.csv").read_text() == gradebook and "hacked" not in gradebook


def test_memory_is_capped(hostile):
    _expect(hostile, "hog")


def test_processes_are_capped_and_none_outlives_the_sandbox(hostile):
    _expect(hostile, "forker")
    left = [p.pid for p in psutil.process_iter(["cmdline"])
            if f"3600.{MARKER}" in " ".join(p.info["cmdline"] or [])]
    assert left == []


def test_output_is_capped(hostile, tmp_path):
    """1 GB of output: the kernel cannot write into the output of the sandbox (its parent's, read
    by the grader), and what the sandbox itself writes is read up to Limits.output bytes, past
    which the sandbox is stopped."""
    _expect(hostile, "shouter")
    limits = sandbox.Limits(output=8 * 1024 ** 2, seconds=60)
    begun = time.monotonic()
    done = sandbox.run([sys.executable, "-c", "import os\nfor _ in range(1024):\n"
                        "    os.write(1, b'x' * 2 ** 20)"], tmp_path, limits=limits)
    assert done.output_exceeded and not done.timed_out and done.returncode != 0
    assert len(done.stdout) <= limits.output and time.monotonic() - begun < 30


def test_a_string_answer_carrying_code_runs_nothing_in_the_grader(hostile):
    folder, *_ = hostile
    _expect(hostile, "coder")
    assert not (folder / f"pwned{MARKER}").exists()
    from dynlab.grading.scoring import points_of_data
    marker = folder / f"scored{MARKER}"
    for data in ({"value": f"__import__('os').system('touch {marker}')"},
                 {"tuple": [{"value": f"exec('open({str(marker)!r}, \"w\")')"}]},
                 {"sympy": f"Symbol('x', real=__import__('os').system('touch {marker}'))"}):
        assert points_of_data("C.3", data).total == 0
    assert not marker.exists()


def test_the_progress_bar_shows_on_request(tmp_path):
    path = tmp_path / "submitted" / "bob" / "ps1" / f"{CONTROL}.ipynb"    # nbgrader's layout
    path.parent.mkdir(parents=True)
    path.write_bytes((ROOT / "exercises" / f"{CONTROL}.ipynb").read_bytes())
    shown = io.StringIO()
    book = grade_submissions([path], progress=True, stream=shown)
    assert list(book.rows) == ["bob"] and book.total("bob") == 0
    assert "grading [" in shown.getvalue() and "1/1" in shown.getvalue()
    quiet = io.StringIO()
    book = grade_submissions([path], stream=quiet, sandbox=False)   # not a terminal: no bar
    assert quiet.getvalue() == (grader.NO_SANDBOX_WARNING + "\n"  # but the warnings, each run
                                + grader.FORMATIVE_WARNING + "\n")
    assert book.total("bob") == 0


def test_without_bubblewrap_grading_stops_and_says_what_to_install(tmp_path, monkeypatch,
                                                                    capsys):
    path = tmp_path / "bob.ipynb"
    path.write_bytes((ROOT / "exercises" / f"{CONTROL}.ipynb").read_bytes())
    monkeypatch.setattr(sandbox, "BWRAP", str(tmp_path / "bwrap"))
    sandbox.unavailable.cache_clear()
    try:
        assert cli.main(["grade", str(path), "--out", str(tmp_path / "g.csv")]) == 2
    finally:
        sandbox.unavailable.cache_clear()
    error = capsys.readouterr().err
    assert "apt-get install bubblewrap" in error and "--no-sandbox" in error
    assert not (tmp_path / "g.csv").exists()


def test_marks_come_from_the_instructors_keys(tmp_path):
    """Two lines unseal a key shipped with dynlab (every student has it); graded from the
    instructor's own key of the question, kept outside the package, that answer earns nothing.
    Here the course's pendulum is a point mass at the end: D = m1 a1**2, Kd = 2 sqrt(Kp D).  A
    question the instructor's folder lacks earns nothing for marks."""
    import sympy

    from dynlab.grading.answers import serialize
    from dynlab.grading.authoring import make_key, write_course_secret, write_keys
    from dynlab.grading.compare import at_given
    from dynlab.grading.keys import SUMMATIVE, held_by_every_student, reference, use_keys
    from dynlab.grading.nbgrader_scoring import ScoreExportedAnswers
    from dynlab.grading.scoring import points_of_data
    from dynlab.grading.variants import variant
    key = keys()["C.3"]                                               # the student's lines:
    unsealed = at_given(key, reference(key)["Kd"], dict(variant("C.3")))[0]   # at their zeta
    m1, a1, Kp = sympy.symbols("m1 a1 Kp", positive=True)
    ours = 2 * sympy.sqrt(Kp * m1 * a1 ** 2)
    write_keys(CONTROL, [make_key("C.3", notebook=CONTROL, title="Critical damping", points=1,
                                  symbols={"m1": "positive", "a1": "positive", "Kp": "positive"},
                                  parts=[{"name": "Kd", "value": ours}])], tmp_path,
               route=SUMMATIVE)
    write_course_secret(tmp_path)
    assert points_of_data("C.3", serialize(unsealed)).total == 1              # the wheel's keys
    try:
        use_keys(tmp_path)
        assert not held_by_every_student("C.3")                    # the course's own key
        assert points_of_data("C.3", serialize(unsealed)).total == 0
        assert points_of_data("C.3", serialize(ours)).total == 1
        lacking = points_of_data("C.2", serialize(...))                     # the others: no marks
        assert lacking.maximum == {"tau": 2.0} and lacking.total == 0
        assert "hold no key of it" in lacking.reasons[0]
    finally:
        use_keys(None)
    step = ScoreExportedAnswers(key_directory=str(tmp_path))        # nbgrader's route
    try:
        step.preprocess(nbformat.v4.new_notebook(), {"nbgrader": {"student": "eve"}})
        assert points_of_data("C.3", serialize(unsealed)).total == 0
    finally:
        use_keys(None)
    assert points_of_data("C.3", serialize(unsealed)).total == 1


@pytest.mark.parametrize("text", [
    "__import__('os').system('echo hacked')",
    "ImmutableDenseMatrix([['__import__(\"os\")']])",
    "Symbol('x; import os')",
    "Add(Symbol('x'), Integer(1)).__class__",
    "sympify('1+1')",
    "(lambda: 1)()",
])
def test_an_answer_is_rebuilt_without_running_code(text):
    with pytest.raises(answers.UnsafeAnswer):
        answers.from_srepr(text)


def test_a_later_submission_of_the_same_notebook_counts(tmp_path):
    first, second = tmp_path / "a" / "bob", tmp_path / "b" / "bob"
    first.mkdir(parents=True)
    second.mkdir(parents=True)
    nbformat.write(_answered(), first / f"{CONTROL}.ipynb")
    (second / f"{CONTROL}.ipynb").write_bytes(
        (ROOT / "exercises" / f"{CONTROL}.ipynb").read_bytes())          # nothing answered
    book = grade_submissions([first, second])
    assert list(book.rows) == ["bob"] and book.total("bob") == 0
    assert "another submission of 05_control follows" in book.notes["bob"][0]


def test_the_process_count_of_a_user_counts_threads(tmp_path):
    """A grader run as a user other than root: RLIMIT_NPROC counts that user's processes and threads
    outside the sandbox too (its JupyterLab, the other sandboxes), so the sandbox's allowance is
    added to what the user runs already; the count must see threads (a kernel starts several).
    Counted on a /proc of our own making (the machine's own count moves with whatever else runs),
    and this process's five extra threads are seen in the real /proc, each owned by its user."""
    import threading

    from dynlab.grading.sandbox import tasks_of_user
    for pid, tids in ((10, (10, 11, 12)), (20, (20,)), (30, (30, 31))):
        for tid in tids:
            (tmp_path / str(pid) / "task" / str(tid)).mkdir(parents=True)
    (tmp_path / "self").mkdir()                               # not a process: not counted
    assert tasks_of_user(os.getuid(), tmp_path) == 6
    assert tasks_of_user(os.getuid() + 1, tmp_path) == 0
    release = threading.Event()
    threads = [threading.Thread(target=release.wait) for _ in range(5)]
    for thread in threads:
        thread.start()
    try:
        ours = list(Path(f"/proc/{os.getpid()}/task").iterdir())
        assert len(ours) >= 6 and all(task.stat().st_uid == os.getuid() for task in ours)
    finally:
        release.set()
        for thread in threads:
            thread.join()
