"""The time limits of a graded notebook count CPU, not the clock (:mod:`dynlab.grading.limits`).

A busy grading machine (a class's batch on two cores) stretches every cell on the clock, but not
the CPU time it computes; so an honest cell is never stopped for the machine's load.  Here a cell
that *waits* (``time.sleep``) stands in for that: seconds on the clock, no CPU.  What computes
past its limit is interrupted, its processes counted; what ignores the interrupt is killed; what
waits past the clock's backstop is stopped.
"""

from __future__ import annotations

import inspect

import nbformat
import pytest

from dynlab.grading import limits, sandbox
from dynlab.grading.answers import serialize
from dynlab.grading.inside import run_in_kernel
from dynlab.grading.limits import RESPONSE_TIME, wall_seconds

ANSWER = [{"question": "Q", "answer": "x", "grade_id": "check-Q", "symbols": None}]


def _run(tmp_path, *cells, notebook_limit=30.0, cell_limit=1.0, cell_wall_limit=120.0):
    """The answer ``x`` of a notebook of ``cells``.  The clock's limits are far above the CPU
    each test needs (a few seconds), so that only the tests of the clock meet them, however
    busy the machine."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    return run_in_kernel(notebook, ANSWER, notebook_limit, cell_limit, str(tmp_path),
                         inspect.getsource(serialize), notebook_wall_limit=600.0,
                         cell_wall_limit=cell_wall_limit)


def test_a_cell_that_waits_longer_than_its_limit_without_computing_finishes(tmp_path):
    """Three seconds on the clock, a limit of one second of CPU: the cell is not stopped (a
    limit on the clock would stop it, and ``x`` would never be defined)."""
    answers, reasons = _run(tmp_path, "import time\ntime.sleep(3)\nx = 42")
    assert answers == {"Q": {"answer": {"int": "42"}}} and reasons == []


def test_a_cell_that_computes_past_its_limit_is_interrupted_and_the_notebook_goes_on(tmp_path):
    answers, reasons = _run(tmp_path, "while True:\n    pass", "x = 7")
    assert answers == {"Q": {"answer": {"int": "7"}}}
    assert reasons == ["cell 1 computed for longer than 1 s of CPU and was stopped"]


def test_the_processes_a_cell_starts_count_towards_its_limit(tmp_path):
    """The kernel only waits for its child, which computes: the child's CPU counts, so the
    cell is stopped by its CPU limit (1 s), long before the clock's (120 s)."""
    answers, reasons = _run(tmp_path, "import subprocess, sys\n"
                            "subprocess.run([sys.executable, '-c', 'while True: pass'])",
                            "x = 8")
    assert answers == {"Q": {"answer": {"int": "8"}}}
    assert reasons == ["cell 1 computed for longer than 1 s of CPU and was stopped"]


def test_arithmetic_that_ignores_the_interrupt_has_its_kernel_killed(tmp_path, monkeypatch):
    """Python's ``sum`` over a range runs in C and never looks at the interrupt: after
    :data:`RESPONSE_TIME` more seconds of CPU the kernel is killed, and the rest is not run.
    Here that is 1 s (the hostile batch of tests/product/test_grade_cli.py meets the real one)."""
    assert RESPONSE_TIME <= 5
    monkeypatch.setattr(limits, "RESPONSE_TIME", 1)
    answers, reasons = _run(tmp_path, "sum(range(10 ** 15))", "x = 9")
    assert answers == {}
    assert reasons == ["cell 1 computed for longer than 1 s of CPU and did not stop when "
                       "interrupted (arithmetic in C, which an interrupt does not reach): its "
                       "kernel was killed and the rest of the notebook was not run"]


@pytest.fixture
def sympy_at_start(tmp_path, monkeypatch):
    """SymPy imported as the kernel starts (an IPython startup file), before any cell's clock
    runs: reading the answer back imports it (:func:`serialize`), which on a loaded machine
    takes longer than the clock's limit under test, whose cell alone must meet it."""
    startup = tmp_path / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-import-sympy.py").write_text("import sympy\n")
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))


def test_a_cell_that_waits_past_the_clocks_backstop_is_stopped(tmp_path, sympy_at_start):
    answers, reasons = _run(tmp_path, "import time\ntime.sleep(10 ** 6)", "x = 10",
                            cell_wall_limit=2.0)
    assert answers == {"Q": {"answer": {"int": "10"}}}
    assert reasons == ["cell 1 ran longer than 2 s on the clock and was stopped"]


def test_the_notebooks_limit_counts_the_cpu_of_all_its_cells(tmp_path):
    answers, reasons = _run(tmp_path, "while True:\n    pass", "x = 11",
                            notebook_limit=1.0, cell_limit=5.0)
    assert answers == {}
    assert reasons == ["cell 1 computed for longer than the 1 s of CPU left of the notebook's "
                       "1 s and was stopped",
                       "the notebook computed for longer than 1 s of CPU; it was stopped at "
                       "cell 2"]


def test_a_students_own_keyboard_interrupt_is_reported(tmp_path):
    answers, reasons = _run(tmp_path, "raise KeyboardInterrupt('mine')", "x = 12")
    assert answers == {"Q": {"answer": {"int": "12"}}}
    assert reasons == ["cell 1 raised KeyboardInterrupt: mine"]


@pytest.fixture
def short_probe(monkeypatch):
    """A probe of 5 s, not :data:`PROBE_TIME`: the kernels below never answer it, so the
    probe's whole time passes (what it must wait for an answering kernel on a loaded machine is
    the constant's business, not these tests')."""
    monkeypatch.setattr(limits, "PROBE_TIME", 5)


def test_a_cell_that_ignores_the_interrupt_while_waiting_stops_the_notebook(tmp_path,
                                                                            short_probe):
    answers, reasons = _run(tmp_path, "import signal, time\n"
                            "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                            "time.sleep(10 ** 6)", "x = 13", cell_wall_limit=4.0)
    assert answers == {}
    assert reasons == ["cell 1 ran longer than 4 s on the clock and was stopped",
                       "the kernel did not stop when interrupted; the rest of the notebook was "
                       "not run"]


def test_a_cell_that_ignores_its_interrupt_and_waits_is_stopped_by_the_clock(tmp_path,
                                                                           short_probe):
    """Interrupted for its CPU, the cell catches the interrupt, then waits ignoring the next
    one: the clock stops it, and the kernel that no longer answers ends the notebook."""
    answers, reasons = _run(tmp_path, "import signal, time\n"
                            "try:\n"
                            "    while time.process_time() < 60:\n"
                            "        pass\n"
                            "except KeyboardInterrupt:\n"
                            "    signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                            "    time.sleep(10 ** 6)", "x = 14",
                            cell_wall_limit=15.0)     # far above the 1 s of CPU it computes first
    assert answers == {}
    assert reasons == ["cell 1 computed for longer than 1 s of CPU and was stopped",
                       "the kernel did not stop when interrupted; the rest of the notebook was "
                       "not run"]


def test_processes_left_running_by_an_earlier_cell_are_named_when_they_stop_a_later_one(
        tmp_path):
    """Cell 1 starts a process that computes on (2.5 s of CPU) and returns; cell 2 only waits.
    What stops cell 2 is that process, and the reason says so."""
    answers, reasons = _run(tmp_path, "import subprocess, sys\n"
                            "worker = subprocess.Popen([sys.executable, '-c', 'import time\\n"
                            "while time.process_time() < 2.5: pass'])",
                            "import time\ntime.sleep(10 ** 6)\nx = 15")
    assert "x" not in answers.get("Q", {}).get("answer", {})
    assert reasons[0] == ("cell 2 (with the processes that earlier cells left running) computed "
                          "for longer than 1 s of CPU and was stopped")


def test_the_clocks_nest_so_a_slow_honest_notebook_is_stopped_by_its_own_limits_first():
    """The notebook stops itself on the clock before its sandbox is killed, and the sandbox
    and every check end before the grading process is stopped (which would lose every answer
    of the student): for the defaults, for limits an instructor may give, and for a cap on the
    sandbox."""
    for notebook_limit, check_limit, questions in ((300.0, 10.0, 3), (30.0, 1.0, 1),
                                                   (2000.0, 60.0, 12), (5.0, 0.5, 40)):
        for caps in (None, sandbox.Limits(), sandbox.Limits(seconds=600.0)):
            seconds, notebook = limits.sandbox_clock(notebook_limit, caps)
            assert notebook + limits.SANDBOX_START <= seconds
            assert notebook >= min(wall_seconds(notebook_limit), 540.0) and notebook > 0
            worker = limits.worker_clock(notebook_limit, check_limit, questions, caps)
            assert worker > seconds + questions * wall_seconds(check_limit)
