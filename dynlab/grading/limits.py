"""Every time limit of grading, in seconds of CPU, and the clock's backstops around them
(ARCHITECTURE.md, "Grading": why CPU).  Imports nothing of dynlab (``inside.py`` loads it alone).

>>> run_limited(lambda: ("correct", ["fine"], ["D"]), 5.0)
('done', ['correct', ['fine'], ['D']])
>>> run_limited(lambda: sum(range(10**12)), 0.2)[0]
'out of time'
>>> run_limited(lambda: (_ for _ in ()).throw(SystemExit(3)), 5.0)[0]
'raised'
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import select
import signal
import sys
import threading
import time

# -- the limits: seconds of CPU -------------------------------------------------------------------
#: One check in a student's notebook (:func:`dynlab.grading.check.check`).
TIME_LIMIT = 5.0
#: One check of an answer handed out of a submission (both summative routes).
CHECK_TIME_LIMIT = 10.0
#: nbgrader's hidden check of one answer, run in a solution notebook (nbgrader's limit per
#: cell is 30 s).
HIDDEN_TIME_LIMIT = 15.0
#: The exact check of one element (a right answer past it is still right, as equal at the points
#: of the check).
EXACT_TIME_LIMIT = 0.5
#: All the exact and high-precision checks of one answer together (a check with a time limit T
#: gets 0.4 T, at least this).
EXACT_BUDGET = 2.0
#: The explanation of one wrong part (past it: which elements are wrong).
DIAGNOSIS_LIMIT = 1.0
#: One submitted notebook in its kernel (all its cells together), and one of its cells.
NOTEBOOK_TIME_LIMIT = 300.0
CELL_TIME_LIMIT = 60.0
#: What a kernel may still compute after its cell was interrupted, before it is killed.
RESPONSE_TIME = 5

# -- the clock's backstops: seconds on the clock -------------------------------------------------
#: A limit of ``s`` seconds of CPU ends on the clock after ``WALL_FACTOR * s + WALL_GRACE``.
WALL_FACTOR = 4.0
WALL_GRACE = 5.0
#: What a kernel has to run a trivial cell after a cell stopped by the clock (on a busy machine
#: even ``pass`` waits for a CPU).
PROBE_TIME = 20
#: What a sandbox is given beyond its notebook's (to start, and hand out); what a grading
#: process is given beyond its sandbox and its checks; a sandbox whose limits name none.
SANDBOX_START = 60.0
WORKER_MARGIN = 30.0
SANDBOX_SECONDS = 600.0
#: Between two readings of a kernel's CPU time (:class:`CpuWatch`).
POLL = 0.1
#: After which the alarm of :func:`time_limit` rings again while the body still runs (its
#: exception was dropped, as Python drops one raised inside a garbage-collector callback).
REPEAT = 0.05


def wall_seconds(seconds: float) -> float:
    """Seconds on the clock after which a limit of ``seconds`` of CPU is ended anyway.

    >>> wall_seconds(5.0)
    25.0
    """
    return WALL_FACTOR * seconds + WALL_GRACE


def sandbox_clock(notebook_limit: float, sandbox=None) -> tuple:
    """``(sandbox seconds, notebook seconds)`` on the clock for a notebook limited to
    ``notebook_limit`` seconds of CPU: the notebook stops itself (and hands out what it has)
    :data:`SANDBOX_START` seconds before its sandbox is killed.  ``sandbox.seconds`` (its
    :class:`~dynlab.grading.sandbox.Limits`), when set, caps the sandbox.

    >>> sandbox_clock(300.0)
    (1265.0, 1205.0)
    """
    seconds = wall_seconds(notebook_limit) + SANDBOX_START
    if getattr(sandbox, "seconds", None) is not None:
        seconds = min(seconds, sandbox.seconds)
    return seconds, max(1.0, seconds - SANDBOX_START)


def worker_clock(notebook_limit: float, check_limit: float, questions: int,
                 sandbox=None) -> float:
    """Seconds on the clock after which the process grading one notebook is stopped: past its
    sandbox (:func:`sandbox_clock`) and then each of its ``questions``' checks, so that it stops
    only a grader that hangs, never a slow honest notebook.

    >>> worker_clock(300.0, 10.0, 3)
    1436.0
    """
    return (sandbox_clock(notebook_limit, sandbox)[0]
            + questions * (wall_seconds(check_limit) + 2) + WORKER_MARGIN)


# -- a check: a forked child, ended after its CPU seconds ---------------------------------------
def hard_limits() -> bool:
    """Whether checks run in a child process with a hard limit (True wherever ``os.fork``
    exists: Linux, macOS; elsewhere a check runs here under SIGALRM, main thread only)."""
    return hasattr(os, "fork")


def run_limited(function, seconds: float | None) -> tuple:
    """Run ``function()`` (which returns JSON-able data) in a forked child limited to ``seconds``
    of CPU (``ITIMER_PROF``: ended inside C code too), whose prints and exit reach nobody:
    ``("done", result)``, ``("out of time", None)``, ``("raised", "Type: message")`` or
    ``("died", "how")``."""
    if seconds is None or not hard_limits():
        return _run_here(function, seconds)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                                          # the child: never returns
        _child(function, read_end, write_end, seconds)
    os.close(write_end)
    try:
        return _collect(pid, read_end, seconds)
    finally:
        os.close(read_end)


def _child(function, read_end: int, write_end: int, seconds: float) -> None:
    status = 0
    try:
        os.close(read_end)
        # after `seconds` of CPU the system ends this process, inside C code too (SIGPROF's
        # default action); the limits inside a check (time_limit(cpu=True)) nest in this one
        signal.signal(signal.SIGPROF, signal.SIG_DFL)
        signal.setitimer(signal.ITIMER_PROF, seconds)
        signal.signal(signal.SIGINT, signal.SIG_IGN)      # the notebook's interrupt: the parent's
        sys.stdout = sys.stderr = io.StringIO()           # an answer's prints go nowhere,
        null = os.open(os.devnull, os.O_WRONLY)           # at the C level too (a kernel would
        os.dup2(null, 1)                                  # forward fds 1 and 2 to the notebook)
        os.dup2(null, 2)
        try:
            outcome = ("done", function())
        except BaseException as error:                    # noqa: BLE001 - SystemExit too
            outcome = ("raised", f"{type(error).__name__}: {error}")
        data = json.dumps(outcome).encode()
        view = memoryview(data)
        while view:
            written = os.write(write_end, view)
            view = view[written:]
    except BaseException:                                 # noqa: BLE001
        status = 1
    finally:
        os._exit(status)                                  # no atexit, no flushing the parent's


def _collect(pid: int, read_end: int, seconds: float) -> tuple:
    deadline = time.monotonic() + wall_seconds(seconds)
    chunks = []
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                _kill(pid)
                return ("out of time", None)
            ready, _, _ = select.select([read_end], [], [], left)
            if not ready:
                continue
            chunk = os.read(read_end, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    except BaseException:                                 # a KeyboardInterrupt of the caller
        _kill(pid)
        raise
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGPROF:
        return ("out of time", None)                      # its CPU time was up
    try:
        return tuple(json.loads(b"".join(chunks)))
    except ValueError:
        return ("died", f"the checking process ended ({_status_text(status)}) without a result")


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def _status_text(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit status {os.WEXITSTATUS(status)}"


def _run_here(function, seconds: float | None) -> tuple:
    from dynlab.grading.keys import OutOfTime
    try:
        with time_limit(seconds, OutOfTime):
            return ("done", json.loads(json.dumps(function())))
    except OutOfTime:
        return ("out of time", None)
    except BaseException as error:                        # noqa: BLE001 - SystemExit too
        return ("raised", f"{type(error).__name__}: {error}")


@contextlib.contextmanager
def time_limit(seconds: float | None, error: type, *, cpu: bool = False):
    """Raise ``error`` after ``seconds`` (by a signal: in the main thread of a Unix process, as in
    the checking child; elsewhere no limit applies): the short limits inside a check.  ``cpu``:
    seconds of CPU this process uses (``ITIMER_PROF``), else on the clock."""
    usable = (seconds is not None and seconds > 0 and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return
    timer, signum, clock = ((signal.ITIMER_PROF, signal.SIGPROF, time.process_time) if cpu
                            else (signal.ITIMER_REAL, signal.SIGALRM, time.monotonic))
    leaving = []

    def expire(signum, frame):
        if leaving:
            return
        # Python drops an exception raised while it runs a garbage-collector callback or a
        # __del__ ("Exception ignored in ..."): the limit would then never end the body.  So the
        # alarm rings again shortly after, until the body has really been left.
        signal.setitimer(timer, REPEAT)
        raise error()

    previous_handler = signal.signal(signum, expire)
    previous_delay, previous_interval = signal.setitimer(timer, seconds)
    if 0 < previous_delay < seconds:     # an outer limit that ends first keeps its end
        signal.setitimer(timer, previous_delay)
    begun = clock()
    try:
        yield
    finally:
        leaving.append(True)
        signal.setitimer(timer, 0)
        signal.signal(signum, previous_handler)
        if previous_delay > 0:           # give an outer timer back what is left of it
            left = max(previous_delay - (clock() - begun), 1e-3)
            signal.setitimer(timer, left, previous_interval)


# -- a kernel's cell: its CPU and its children's, watched ---------------------------------------
class CpuWatch:
    """The CPU seconds that a kernel (process ``pid``) and the processes it started compute
    while a cell runs, with the cell's limit enforced: past ``budget`` seconds the kernel is
    interrupted (SIGINT, Jupyter's interrupt); if it computes :data:`RESPONSE_TIME` seconds more,
    it and its processes are killed.  Not counted (the clock still bounds them): a process that
    leaves the kernel's tree, and a child that lives less than :data:`POLL` seconds unwaited for.

    >>> watch = CpuWatch(os.getpid())
    >>> with watch.cell(budget=60.0) as used:         # 0.1 s of CPU: ten clock ticks at least
    ...     begun = time.process_time()
    ...     while time.process_time() - begun < 0.1:
    ...         pass
    >>> 0.05 < used.seconds < 60 and not used.interrupted and not used.killed
    True
    """

    def __init__(self, pid: int):
        import psutil
        self._psutil = psutil
        self.kernel = psutil.Process(pid)

    def seconds(self) -> float | None:
        """CPU seconds of the kernel and its live descendants so far, children it has reaped
        included (None once the kernel is gone)."""
        error = self._psutil.Error
        try:
            processes = [self.kernel, *self.kernel.children(recursive=True)]
        except error:
            return None
        total = 0.0
        for process in processes:
            with contextlib.suppress(error):
                times = process.cpu_times()
                total += times.user + times.system + times.children_user + times.children_system
        return total

    @contextlib.contextmanager
    def cell(self, budget: float):
        """Watch one cell, limited to ``budget`` CPU seconds; yields its record, whose
        ``seconds``, ``interrupted`` and ``killed`` are final once the block is left, and
        ``inherited``: processes that earlier cells left running."""
        used = _Used(budget)
        with contextlib.suppress(self._psutil.Error):
            used.inherited = bool(self.kernel.children(recursive=True))
        start = self.seconds() or 0.0
        stop = threading.Event()

        def watch():
            while not stop.wait(POLL):
                now = self.seconds()
                if now is None:
                    return
                used.seconds = max(used.seconds, now - start)
                if not used.interrupted and used.seconds > budget:
                    used.interrupted = True
                    with contextlib.suppress(self._psutil.Error):
                        self.kernel.send_signal(signal.SIGINT)
                elif used.interrupted and used.seconds > budget + RESPONSE_TIME:
                    used.killed = True
                    self.kill()
                    return

        watcher = threading.Thread(target=watch, name="dynlab-cpu-watch", daemon=True)
        watcher.start()
        try:
            yield used
        finally:
            stop.set()
            watcher.join()
            now = self.seconds()
            if now is not None:
                used.seconds = max(used.seconds, now - start)

    def kill(self) -> None:
        """Kill the kernel and every process it started."""
        error = self._psutil.Error
        with contextlib.suppress(error):
            for process in [*self.kernel.children(recursive=True), self.kernel]:
                with contextlib.suppress(error):
                    process.kill()


class _Used:
    def __init__(self, budget: float):
        self.budget, self.seconds, self.interrupted, self.killed = budget, 0.0, False, False
        self.inherited = False
