"""What runs inside a submission's sandbox (:mod:`dynlab.grading.sandbox`): the submitted notebook
in a fresh kernel, and its answers handed out as data.

    python -I .../dynlab/grading/inside.py /submission/job.json

It imports nothing of dynlab (only nbformat and nbclient: it starts in a second).  The job
(written by :mod:`dynlab.grading.grader`) names the notebook, the instructor's check cells
(question, the answer expression such as ``(D, h, c)``, the nbgrader ``grade_id``, the question's
symbols), the time limits and the source of the serializer.  The submission's own check cells are not run: in their
place (at the cell with the same ``grade_id``, else at the end) the kernel evaluates the
instructor's answer expression and shows it serialized (:func:`dynlab.grading.answers.serialize`:
SymPy objects as ``srepr`` text; a string read as an expression here, in the kernel).  Nothing is
graded here: the answers are printed as one line of JSON on standard output,
``{"answers": {question: {"answer": data} or {"error": text}}, "reasons": [...]}``, and graded
outside the sandbox.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import subprocess
import sys
import time
from pathlib import Path

#: The largest serialized answer accepted (characters of JSON; as answers.MAX_ANSWER_SIZE).
MAX_ANSWER_SIZE = 5_000_000
MIME = "application/vnd.dynlab.answer+json"
#: Seconds a kernel has to answer after one of its cells was interrupted.
RESPONSE_TIME = 5


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
                  folder: str, serializer: str) -> tuple:
    """``({question: {"answer": data} or {"error": text}}, reasons)`` of a notebook run in a
    fresh kernel whose working folder is ``folder``.  ``entries`` are dicts with ``question``,
    ``answer``, ``grade_id`` and ``symbols``."""
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
                if msg.get("msg_type") == "error" and len(errors) < 3:
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

    client = Client(run, kernel_name="python3", allow_errors=True, interrupt_on_timeout=True,
                    error_on_timeout={"ename": "TimeoutError",
                                      "evalue": f"the cell ran longer than {cell_limit:g} s",
                                      "traceback": []},
                    resources={"metadata": {"path": folder}}, shutdown_kernel="immediate",
                    record_timing=False)
    deadline = time.monotonic() + notebook_limit
    try:
        with client.setup_kernel(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
            for index, cell in enumerate(run.cells):
                left = deadline - time.monotonic()
                if left <= 0:
                    reasons.append(f"the notebook ran longer than {notebook_limit:g} s; "
                                   f"it was stopped at cell {index + 1}")
                    break
                client.timeout = max(1, int(min(cell_limit, left)))
                begun = time.monotonic()
                client.execute_cell(cell, index)
                if time.monotonic() - begun >= client.timeout - 0.5:
                    what = ("the answer of " + ours[index]) if index in ours else \
                        f"cell {index + 1}"
                    errors.append(f"{what} ran longer than {client.timeout} s and was "
                                  f"stopped")
                    if not _responds(client, len(run.cells)):
                        reasons.append("the kernel did not stop (arithmetic that cannot be "
                                       "interrupted); the rest of the notebook was not run")
                        break
    except DeadKernelError:
        reasons.append("the kernel died (the notebook ended its own process)")
    except Exception as error:                        # noqa: BLE001
        reasons.append(f"running the notebook failed ({type(error).__name__}: {error})")
    return answers, errors + reasons


def _responds(client, index: int) -> bool:
    """Whether the kernel runs a trivial cell again after an interrupted one."""
    import nbformat
    probe = nbformat.v4.new_code_cell("pass")
    client.nb.cells.append(probe)
    try:
        client.timeout = RESPONSE_TIME
        begun = time.monotonic()
        client.execute_cell(probe, index)
        return time.monotonic() - begun < RESPONSE_TIME - 0.5
    finally:
        client.nb.cells.remove(probe)


def main(argv=None) -> int:
    """Run the job named on the command line; print its answers as one line of JSON."""
    import nbformat
    path = Path((argv if argv is not None else sys.argv[1:])[0])
    job = json.loads(path.read_text())
    try:
        submitted = nbformat.read(path.parent / job["notebook"], as_version=4)
    except Exception as error:                        # noqa: BLE001
        result = {"answers": {}, "reasons": [f"the notebook cannot be read "
                                             f"({type(error).__name__}: {error})"[:500]]}
    else:
        answers, reasons = run_in_kernel(submitted, job["entries"], job["notebook_time_limit"],
                                         job["cell_time_limit"], str(path.parent),
                                         job["serializer"])
        result = {"answers": answers, "reasons": reasons}
    sys.stdout.write("\n" + json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
