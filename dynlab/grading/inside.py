"""What runs inside a submission's sandbox (:mod:`dynlab.grading.sandbox`): the submitted notebook
in a fresh kernel, and its answers handed out as data.

    python -I .../dynlab/grading/inside.py /submission/job.json

It imports nothing of dynlab (only nbformat, nbclient and psutil: it starts in a second).  The
job (written by :mod:`dynlab.grading.grader`) names the notebook, the instructor's check cells
(question, the answer expression such as ``(D, h, c)``, the nbgrader ``grade_id``, the question's
symbols), the time limits, the source of the serializer and the kernel's environment (the
student's id and graded values: in this file, which only the sandbox reads, so that they are on
no command line).  The submission's own check cells
are not run: in their place (at the cell with the same ``grade_id``, else at the end) the kernel
evaluates the instructor's answer expression and shows it serialized
(:func:`dynlab.grading.answers.serialize`: SymPy objects as ``srepr`` text; a string read as an
expression here, in the kernel).  Nothing is graded here: the answers are printed as one line of
JSON on standard output, ``{"answers": {question: {"answer": data} or {"error": text}},
"reasons": [...]}``, and graded outside the sandbox.

The time limits of the notebook and of each cell count the **CPU time** of the kernel and of the
processes it starts (:class:`CpuWatch`), as the limit of a check does
(:mod:`dynlab.grading.limits`): so whether an honest cell finishes does not depend on what else
loads the grading machine.  A cell that computes past its limit is interrupted, as the notebook's
stop button does; one that goes on computing (arithmetic in C, which an interrupt does not reach)
has its kernel killed.  The clock is only a backstop, for a cell that waits without computing
(``time.sleep``): it is given several times the limit (the job's wall limits).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import types
from pathlib import Path

#: The largest serialized answer accepted (characters of JSON; as answers.MAX_ANSWER_SIZE).
MAX_ANSWER_SIZE = 5_000_000
MIME = "application/vnd.dynlab.answer+json"
#: Seconds of CPU a kernel may still compute after its cell was interrupted, before it is killed.
RESPONSE_TIME = 5
#: Seconds on the clock a kernel has to run a trivial cell after a cell stopped by the clock:
#: generous, since on a busy machine even ``pass`` waits for a CPU.
PROBE_TIME = 20
#: Seconds between two readings of the kernel's CPU time.
POLL = 0.1


class CpuWatch:
    """The CPU seconds that a kernel (process ``pid``) and the processes it started compute
    while a cell runs, with the cell's limit enforced: past ``budget`` seconds the kernel is
    interrupted (SIGINT, Jupyter's interrupt); if it computes :data:`RESPONSE_TIME` seconds more,
    it and its processes are killed.

    Not counted: a process that leaves the kernel's tree (a daemon that double-forks), and a
    child that lives less than :data:`POLL` seconds and is not waited for (the system reaps it
    when SIGCHLD is ignored).  The clock (the cell's and the notebook's wall limits, the
    sandbox's) still bounds them; a cgroup per sandbox would count them too.

    >>> import os, time
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
        ``seconds``, ``interrupted`` and ``killed`` are final once the block is left."""
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
    """What a :class:`CpuWatch` saw of one cell."""

    def __init__(self, budget: float):
        self.budget, self.seconds, self.interrupted, self.killed = budget, 0.0, False, False
        self.inherited = False            # processes that earlier cells left running


def extraction_source(question: str, answer: str, nonce: str, serializer: str,
                      symbols=None) -> str:
    """The code that replaces a check cell: the instructor's answer expression, evaluated in the
    student's kernel and shown as data (``serializer``: the source of
    :func:`dynlab.grading.answers.serialize`)."""
    return "\n".join([
        "def __dynlab_answer__():",
        "    import json",
        "    from IPython.display import display",
        *("    " + line for line in serializer.split("\n")),
        "    try:",
        f"        data = {{'answer': serialize(lambda: ({answer}), symbols={symbols!r})}}",
        "    except BaseException as error:",
        "        data = {'error': f'the answer could not be read ({type(error).__name__}: "
        "{error})'}",
        f"    data['question'], data['nonce'] = {question!r}, {nonce!r}",
        f"    display({{{MIME!r}: json.dumps(data)}}, raw=True)",
        "__dynlab_answer__()",
        "del __dynlab_answer__",
    ])


def run_in_kernel(submitted, entries: list, notebook_limit: float, cell_limit: float,
                  folder: str, serializer: str, *, notebook_wall_limit: float,
                  cell_wall_limit: float) -> tuple:
    """``({question: {"answer": data} or {"error": text}}, reasons)`` of a notebook run in a
    fresh kernel whose working folder is ``folder``.  ``entries`` are dicts with ``question``,
    ``answer``, ``grade_id`` and ``symbols``.

    ``notebook_limit`` and ``cell_limit`` are seconds of CPU (:class:`CpuWatch`); the wall
    limits, seconds on the clock, stop what waits without computing."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError

    nonce = secrets.token_hex(8)
    by_id = {entry["grade_id"]: entry for entry in entries}
    cells, ours = [], {}
    placed = set()

    def extraction(entry):
        return nbformat.v4.new_code_cell(extraction_source(
            entry["question"], entry["answer"], nonce, serializer, entry.get("symbols")))

    for cell in submitted.cells:
        if cell.cell_type != "code":
            continue
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")
        is_check = cell.get("metadata", {}).get("nbgrader", {}).get("grade", False)
        if grade_id in by_id and grade_id not in placed:
            ours[len(cells)] = by_id[grade_id]["question"]
            cells.append(extraction(by_id[grade_id]))
            placed.add(grade_id)
        elif not is_check:
            cells.append(nbformat.v4.new_code_cell(str(cell.source)))
    for entry in entries:                            # check cells the submission lost
        if entry["grade_id"] not in placed:
            ours[len(cells)] = entry["question"]
            cells.append(extraction(entry))
    run = nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": {
        "name": "python3", "display_name": "Python 3", "language": "python"}})
    answers, errors, reasons = {}, [], []

    class Client(NotebookClient):
        def output(self, outs, msg, display_id, cell_index):   # keeps no output
            content = msg.get("content", {})
            if cell_index not in ours:
                if msg.get("msg_type") == "error" and len(errors) < 3 and not (
                        running.used is not None and running.used.interrupted
                        and content.get("ename") == "KeyboardInterrupt"):
                    errors.append(f"cell {cell_index + 1} raised {content.get('ename')}: "
                                  f"{str(content.get('evalue'))[:200]}")
                return None
            text = content.get("data", {}).get(MIME)
            if isinstance(text, str) and len(text) <= MAX_ANSWER_SIZE:
                with contextlib.suppress(ValueError, AttributeError):
                    data = json.loads(text)
                    if data.get("nonce") == nonce and data.get("question") == ours[cell_index]:
                        answers[ours[cell_index]] = {k: data[k] for k in ("answer", "error")
                                                     if k in data}
            return None

    # the kernel talks over Unix sockets in a folder of its own: over TCP, a kernel started
    # beside another (a second grader, a student's server) can be handed the same free ports,
    # and the one that binds second dies before it answers
    from traitlets.config import Config
    sockets = tempfile.mkdtemp(prefix="dynlab-kernel-")
    kernel = Config(KernelManager={"transport": "ipc",
                                   "connection_file": os.path.join(sockets, "kernel.json")})
    client = Client(run, config=kernel, kernel_name="python3", allow_errors=True,
                    interrupt_on_timeout=True,
                    error_on_timeout={"ename": "TimeoutError",
                                      "evalue": "the cell waited longer than its time on "
                                                "the clock",
                                      "traceback": []},
                    resources={"metadata": {"path": folder}}, shutdown_kernel="immediate",
                    record_timing=False)
    running = types.SimpleNamespace(what="", used=None)   # the running cell, as CpuWatch sees it
    try:
        with client.setup_kernel(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
            watch = CpuWatch(client.km.provisioner.pid)
            deadline = time.monotonic() + notebook_wall_limit
            computed = 0.0
            for index, cell in enumerate(run.cells):
                budget = min(cell_limit, notebook_limit - computed)
                left = deadline - time.monotonic()
                if budget <= 0 or left <= 0:
                    reasons.append(
                        (f"the notebook computed for longer than {notebook_limit:g} s of CPU"
                         if budget <= 0 else f"the notebook ran longer than "
                         f"{notebook_wall_limit:g} s on the clock")
                        + f"; it was stopped at cell {index + 1}")
                    break
                client.timeout = max(1, int(min(cell_wall_limit, left)))
                what = ("the answer of " + ours[index]) if index in ours else f"cell {index + 1}"
                running.what, running.used = what, None
                begun = time.monotonic()
                shown = len(errors)
                with watch.cell(budget) as used:
                    running.used = used
                    client.execute_cell(cell, index)
                computed += used.seconds
                if used.killed:             # killed as the cell ended: no next cell runs
                    reasons.append(_killed(what, used, cell_limit, notebook_limit))
                    break
                if used.interrupted:
                    errors.append(_computed(what, used, cell_limit, notebook_limit)
                                  + " and was stopped")
                if time.monotonic() - begun >= client.timeout - 0.5:
                    if not used.interrupted:
                        # nbclient interrupted it: its KeyboardInterrupt is ours, not the cell's
                        errors[shown:] = [e for e in errors[shown:]
                                          if "KeyboardInterrupt" not in e]
                        errors.append(f"{what} ran longer than {client.timeout} s on the clock "
                                      f"and was stopped")
                    if not _responds(client, len(run.cells)):
                        reasons.append("the kernel did not stop when interrupted; the rest of "
                                       "the notebook was not run")
                        break
    except DeadKernelError:
        if running.used is not None and running.used.killed:
            reasons.append(_killed(running.what, running.used, cell_limit, notebook_limit))
        else:
            reasons.append("the kernel died (the notebook ended its own process)")
    except Exception as error:                        # noqa: BLE001
        reasons.append(f"running the notebook failed ({type(error).__name__}: {error})")
    finally:
        shutil.rmtree(sockets, ignore_errors=True)
    return answers, errors + reasons


def _computed(what: str, used, cell_limit: float, notebook_limit: float) -> str:
    """What computed past its limit, said so that the student finds it."""
    if used.inherited:
        what += " (with the processes that earlier cells left running)"
    if used.budget < cell_limit:
        return (f"{what} computed for longer than the {used.budget:g} s of CPU left of the "
                f"notebook's {notebook_limit:g} s")
    return f"{what} computed for longer than {used.budget:g} s of CPU"


def _killed(what: str, used, cell_limit: float, notebook_limit: float) -> str:
    return (_computed(what, used, cell_limit, notebook_limit) + " and did not stop when "
            "interrupted (arithmetic in C, which an interrupt does not reach): its kernel was "
            "killed and the rest of the notebook was not run")


def _responds(client, index: int) -> bool:
    """Whether the kernel runs a trivial cell again after an interrupted one."""
    import nbformat
    probe = nbformat.v4.new_code_cell("pass")
    client.nb.cells.append(probe)
    try:
        client.timeout = PROBE_TIME
        begun = time.monotonic()
        client.execute_cell(probe, index)
        return time.monotonic() - begun < PROBE_TIME - 0.5
    finally:
        client.nb.cells.remove(probe)


def main(argv=None) -> int:
    """Run the job named on the command line; print its answers as one line of JSON."""
    import nbformat
    path = Path((argv if argv is not None else sys.argv[1:])[0])
    job = json.loads(path.read_text())
    os.environ.update(job.get("environment", {}))     # the kernel started below inherits it
    try:
        submitted = nbformat.read(path.parent / job["notebook"], as_version=4)
    except Exception as error:                        # noqa: BLE001
        result = {"answers": {}, "reasons": [f"the notebook cannot be read "
                                             f"({type(error).__name__}: {error})"[:500]]}
    else:
        answers, reasons = run_in_kernel(submitted, job["entries"], job["notebook_time_limit"],
                                         job["cell_time_limit"], str(path.parent),
                                         job["serializer"],
                                         notebook_wall_limit=job["notebook_wall_limit"],
                                         cell_wall_limit=job["cell_wall_limit"])
        result = {"answers": answers, "reasons": reasons}
    sys.stdout.write("\n" + json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
