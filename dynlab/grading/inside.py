"""Run inside a submission's sandbox: ``python -I .../inside.py /submission/job.json``.

The job (from :mod:`dynlab.grading.grader`, so no id or graded value is on a command line) names
the notebook, the instructor's check cells, the time limits and the serializer's source.  The
submission's check cells are replaced by the instructor's answer expressions shown serialized;
the answers are printed as one JSON line ``{"answers": {question: {"answer": data} or {"error":
text}}, "reasons": [...]}``.  It imports only the stdlib-only ``limits.py``.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

if __name__ == "__main__":       # alone in the sandbox (python -I): limits.py, loaded by its path
    import importlib.util
    _spec = importlib.util.spec_from_file_location("limits", Path(__file__).with_name("limits.py"))
    limits = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(limits)
else:
    from dynlab.grading import limits

#: The largest serialized answer accepted (characters of JSON; as answers.MAX_ANSWER_SIZE).
MAX_ANSWER_SIZE = 5_000_000
MIME = "application/vnd.dynlab.answer+json"


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

    ``notebook_limit`` and ``cell_limit`` are seconds of CPU (:class:`limits.CpuWatch`); the
    wall limits, seconds on the clock, stop what waits without computing."""
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
            watch = limits.CpuWatch(client.km.provisioner.pid)
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
        client.timeout = limits.PROBE_TIME
        begun = time.monotonic()
        client.execute_cell(probe, index)
        return time.monotonic() - begun < limits.PROBE_TIME - 0.5
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
