"""Hard time limits for checking an answer: the check runs in a forked child process that is
killed when its time is up, so the limit holds from any thread and against arithmetic that never
returns to Python (a C-level SymPy power such as ``Pow(3, 10**8)``), and nothing the answer does
(raising ``SystemExit``, exiting the process, printing) reaches the caller.

The time is the child's CPU time: the system ends it (``SIGPROF``, ``ITIMER_PROF``) once it has
computed for the limit, so whether a check finishes does not depend on what else loads the
machine (a class on one hub, a batch of graded submissions). A child that waits without
computing is ended by the clock, after :func:`wall_seconds`.

Where ``os.fork`` is missing (Windows) the check runs in the calling process under SIGALRM
(main thread only): a soft limit, said so in :func:`hard_limits`.

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

from dynlab.grading.keys import OutOfTime


REPEAT = 0.05
"""Seconds after which an alarm of :func:`time_limit` rings again if the body is still running
(its exception was dropped, as Python drops one raised inside a garbage-collector callback)."""


#: A child that has not finished after this many times its CPU limit on the clock, plus
#: :data:`WALL_GRACE` seconds, is ended (it waits rather than computes; or it is starved beyond
#: any use).
WALL_FACTOR = 4.0
WALL_GRACE = 5.0


def wall_seconds(seconds: float) -> float:
    """Seconds on the clock after which a check limited to ``seconds`` of CPU is ended anyway.

    >>> wall_seconds(5.0)
    25.0
    """
    return WALL_FACTOR * seconds + WALL_GRACE


def hard_limits() -> bool:
    """Whether checks run in a child process with a hard limit (True wherever ``os.fork``
    exists: Linux, macOS)."""
    return hasattr(os, "fork")


def run_limited(function, seconds: float | None) -> tuple:
    """Run ``function()`` (which returns JSON-able data) with a limit of ``seconds`` of CPU:
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
    try:
        with time_limit(seconds):
            return ("done", json.loads(json.dumps(function())))
    except OutOfTime:
        return ("out of time", None)
    except BaseException as error:                        # noqa: BLE001 - SystemExit too
        return ("raised", f"{type(error).__name__}: {error}")


@contextlib.contextmanager
def time_limit(seconds: float | None, error: type = OutOfTime, *, cpu: bool = False):
    """Raise ``error`` after ``seconds`` (by a signal: in the main thread of a Unix process, as in
    the checking child; elsewhere no limit applies).  Used for the short limits inside a check.

    ``cpu``: count the seconds of CPU this process uses (``ITIMER_PROF``), not the seconds on the
    clock: a limit on how much work a step may do, which other programs loading the machine do
    not shorten (the exact comparisons, whose outcome must not depend on the machine's load).
    """
    import signal as _signal
    usable = (seconds is not None and seconds > 0 and hasattr(_signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return
    timer, signum, clock = ((_signal.ITIMER_PROF, _signal.SIGPROF, time.process_time) if cpu
                            else (_signal.ITIMER_REAL, _signal.SIGALRM, time.monotonic))
    leaving = []

    def expire(signum, frame):
        if leaving:
            return
        # Python drops an exception raised while it runs a garbage-collector callback or a
        # __del__ ("Exception ignored in ..."): the limit would then never end the body.  So the
        # alarm rings again shortly after, until the body has really been left.
        _signal.setitimer(timer, REPEAT)
        raise error()

    previous_handler = _signal.signal(signum, expire)
    previous_delay, previous_interval = _signal.setitimer(timer, seconds)
    if 0 < previous_delay < seconds:     # an outer limit that ends first keeps its end
        _signal.setitimer(timer, previous_delay)
    begun = clock()
    try:
        yield
    finally:
        leaving.append(True)
        _signal.setitimer(timer, 0)
        _signal.signal(signum, previous_handler)
        if previous_delay > 0:           # give an outer timer back what is left of it
            left = max(previous_delay - (clock() - begun), 1e-3)
            _signal.setitimer(timer, left, previous_interval)
