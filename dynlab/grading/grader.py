"""Grading submitted notebooks on the instructor's side: ``dynlab grade`` and
:func:`grade_submissions`.

Each submission runs in a fresh kernel (nbclient), in a process of its own, with a time limit for
the notebook and for each cell.  Its own check cells are not run: in their place (at the cell with
the same nbgrader ``grade_id``, else at the end) the grader evaluates the answer expression of the
**instructor's** check cell (``check("3.16c", (D, h, c))`` in ``solutions/``) and carries the value
out of the kernel as data (:mod:`dynlab.grading.answers`).  It is graded here, in the instructor's
process, by the installed dynlab, at points drawn fresh for it and under a time limit per check.
So what the submission does to ``check``, to dynlab or to its own check cells changes nothing;
an answer it does not show (a variable deleted, a cell that raises or never ends, a kernel that
exits) scores 0 for its parts, with the reason in the gradebook, and the batch goes on.

The gradebook has one row per student and one column per part of each question (``3.16c D``,
``3.16c h``, ...), then ``total``, ``max`` and ``notes``.

The grader does not sandbox the file system or other processes: a submission runs with the
rights of the user who grades, as under nbgrader.  Run it as a user with no more rights than
grading needs.
"""

from __future__ import annotations

import contextlib
import csv
import inspect
import json
import multiprocessing
import os
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from dynlab.grading.answers import MAX_ANSWER_SIZE, UnsafeAnswer, deserialize, serialize

#: Seconds one notebook may run in its kernel (all its cells together).
NOTEBOOK_TIME_LIMIT = 300.0
#: Seconds one cell may run.
CELL_TIME_LIMIT = 60.0
#: Seconds the check of one answer may take.
CHECK_TIME_LIMIT = 10.0
#: The notebooks of the instructor's solutions (a checkout of the workbook).
SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"
MIME = "application/vnd.dynlab.answer+json"
CHECK_LINE = re.compile(r'check\("([^"]+)", (.+)\)')


@dataclass
class Question:
    """One check cell of the instructor's solution notebook."""

    question: str
    answer: str             # the expression the check cell passes, e.g. "(D, h, c)"
    grade_id: str


def solution_questions(solutions: Path = SOLUTIONS) -> dict:
    """``{notebook stem: [Question, ...]}`` from the check cells of the solution notebooks."""
    import nbformat
    found = {}
    for path in sorted(Path(solutions).glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        entries = []
        for cell in notebook.cells:
            meta = cell.metadata.get("nbgrader", {})
            if cell.cell_type == "code" and meta.get("grade"):
                match = CHECK_LINE.fullmatch(cell.source.strip().split("\n")[0].strip())
                if match:
                    entries.append(Question(match.group(1), match.group(2),
                                            meta.get("grade_id", "")))
        if entries:
            found[path.stem] = entries
    if not found:
        raise FileNotFoundError(f"no solution notebook with check cells in {solutions} (name "
                                f"the workbook's solutions/ folder with --solutions)")
    return found


@dataclass
class Result:
    """The grade of one submitted notebook."""

    student: str
    notebook: str
    path: str
    points: dict = field(default_factory=dict)       # question -> {part: points}
    reasons: list = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class Gradebook:
    """One row per student, one column per part (see :func:`columns`)."""

    columns: list                                     # (question, part)
    maximum: dict                                     # (question, part) -> points
    rows: dict                                        # student -> {(question, part): points}
    notes: dict                                       # student -> [reasons]
    results: list                                     # every Result, in the order graded

    def total(self, student: str) -> float:
        return sum(self.rows[student].values())

    def question_points(self, student: str) -> dict:
        """``{question: points}`` of one student."""
        points = {}
        for (question, _), value in self.rows[student].items():
            points[question] = points.get(question, 0.0) + value
        return points

    def header(self) -> list:
        return (["student"] + [f"{q} {p}".strip() for q, p in self.columns]
                + ["total", "max", "notes"])

    def write_csv(self, path) -> Path:
        path = Path(path)
        with open(path, "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(self.header())
            top = sum(self.maximum.values())
            for student, row in self.rows.items():
                writer.writerow([_text(student)] + [_number(row[c]) for c in self.columns]
                                + [_number(self.total(student)), _number(top),
                                   _text("; ".join(self.notes[student]))])
        return path


def _number(value: float) -> str:
    return f"{round(value, 6):g}"


def _text(value: str) -> str:
    """A name or note as a CSV cell that a spreadsheet shows as text, never runs as a formula.

    >>> _text("=HYPERLINK(1)"), _text("alice")
    ("'=HYPERLINK(1)", 'alice')
    """
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


# -- the batch ------------------------------------------------------------------------------------
def grade_submissions(submissions, *, out=None, solutions: Path = SOLUTIONS, workers: int = 2,
                      notebook_time_limit: float = NOTEBOOK_TIME_LIMIT,
                      cell_time_limit: float = CELL_TIME_LIMIT,
                      check_time_limit: float = CHECK_TIME_LIMIT,
                      progress: bool | None = None, stream=None) -> Gradebook:
    """Grade submitted notebooks (paths of ``.ipynb`` files or of folders holding them) and, with
    ``out``, write the gradebook as CSV.  ``workers`` notebooks run at a time.  The progress bar
    goes to ``stream`` (standard error), by default only when it is a terminal.

    A notebook's student is the name of its folder when the file is named like the solution
    notebook (``alice/02_two_link_arm_on_the_ceiling.ipynb``, or nbgrader's
    ``submitted/alice/ps1/...``: the folder above the assignment), else the file's stem
    (``alice.ipynb``)."""
    stream = sys.stderr if stream is None else stream
    if progress is None:
        progress = hasattr(stream, "isatty") and stream.isatty()
    catalogue = solution_questions(solutions)
    jobs = [(path, *_identify(path, catalogue)) for path in _notebook_paths(submissions)]
    limits = (notebook_time_limit, cell_time_limit, check_time_limit)
    bar = _Progress(len(jobs), stream if progress else None)
    results = _run_all(jobs, catalogue, limits, max(1, int(workers)), bar)
    bar.close()
    book = _gradebook(results, catalogue)
    if out is not None:
        book.write_csv(out)
    return book


def _notebook_paths(submissions) -> list:
    if isinstance(submissions, (str, os.PathLike)):
        submissions = [submissions]
    paths = []
    for entry in submissions:
        entry = Path(entry)
        if entry.is_dir():
            paths.extend(sorted(p for p in entry.rglob("*.ipynb")
                                if ".ipynb_checkpoints" not in p.parts))
        elif entry.exists():
            paths.append(entry)
        else:
            raise FileNotFoundError(f"no submission {entry}")
    if not paths:
        raise FileNotFoundError("no notebook among the submissions")
    return paths


def _identify(path: Path, catalogue: dict) -> tuple:
    """``(student, notebook stem or None)`` of a submitted file."""
    if path.stem in catalogue:
        parent = path.parent
        # nbgrader's submitted/<student>/<assignment>/<notebook>.ipynb
        if parent.parent.name and parent.parent.parent.name == "submitted":
            return parent.parent.name, path.stem
        return parent.name or path.stem, path.stem
    notebook = None
    with contextlib.suppress(Exception):
        ids = set(re.findall(r'"grade_id": "([^"]+)"', path.read_text(encoding="utf-8")))
        scores = {stem: len(ids & {q.grade_id for q in entries})
                  for stem, entries in catalogue.items()}
        best = max(scores, key=scores.get)
        notebook = best if scores[best] else None
    return path.stem, notebook


class _Progress:
    def __init__(self, total: int, stream):
        self.total, self.done, self.stream, self.start = total, 0, stream, time.monotonic()

    def step(self, result: Result) -> None:
        self.done += 1
        if self.stream is None:
            return
        width = 30
        filled = int(width * self.done / max(self.total, 1))
        got = sum(sum(parts.values()) for parts in result.points.values())
        elapsed = time.monotonic() - self.start
        self.stream.write(f"\rgrading [{'#' * filled}{'.' * (width - filled)}] "
                          f"{self.done}/{self.total}  {elapsed:5.0f} s  "
                          f"{result.student}: {got:g} points".ljust(100)[:100])
        self.stream.flush()

    def close(self) -> None:
        if self.stream is not None:
            self.stream.write("\n")
            self.stream.flush()


def _run_all(jobs: list, catalogue: dict, limits: tuple, workers: int, bar) -> list:
    """Run the jobs, ``workers`` at a time, each in a forked process of its own (killed, with
    its kernel, when it overruns its limit: that submission gets zeros and a reason)."""
    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    results: list = [None] * len(jobs)
    waiting = list(enumerate(jobs))
    running = {}                                    # index -> (process, pipe, deadline)
    notebook_limit, _, check_limit = limits
    while waiting or running:
        while waiting and len(running) < workers:
            index, job = waiting.pop(0)
            path, student, notebook = job
            if notebook is None:
                results[index] = _empty(path, student, None, catalogue,
                                        "not a notebook of the solutions (no check cell of "
                                        "theirs found)")
                bar.step(results[index])
                continue
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=_worker, args=(send, str(path), student, notebook,
                                                            catalogue[notebook], limits),
                                      daemon=False)
            process.start()
            send.close()
            questions = len(catalogue[notebook])
            deadline = time.monotonic() + notebook_limit + 60 + questions * (check_limit + 2)
            running[index] = (process, receive, deadline)
        for index in list(running):
            process, receive, deadline = running[index]
            path, student, notebook = jobs[index]
            result = None
            if receive.poll(0.05):
                try:
                    result = Result(**json.loads(receive.recv()))
                except (EOFError, OSError, ValueError, TypeError):
                    result = _empty(path, student, notebook, catalogue,
                                    "the grading process ended without a result")
            elif not process.is_alive():
                result = _empty(path, student, notebook, catalogue,
                                f"the grading process ended (exit code {process.exitcode}) "
                                f"without a result")
            elif time.monotonic() > deadline:
                result = _empty(path, student, notebook, catalogue,
                                "grading took longer than its time limit and was stopped")
            if result is None:
                continue
            _stop(process)
            receive.close()
            del running[index]
            results[index] = result
            bar.step(result)
    return results


def _stop(process) -> None:
    """End a worker and everything it started (its kernel runs in a session of its own)."""
    with contextlib.suppress(Exception):
        import psutil
        family = psutil.Process(process.pid).children(recursive=True)
        for member in family:
            with contextlib.suppress(psutil.Error):
                member.kill()
    with contextlib.suppress(ProcessLookupError, OSError):
        if process.is_alive():
            os.kill(process.pid, signal.SIGKILL)
    process.join(5)


def _empty(path, student, notebook, catalogue, reason) -> Result:
    result = Result(student, notebook or "", str(path), reasons=[reason])
    if notebook is not None:
        from dynlab.grading.keys import keys, part_points
        for entry in catalogue[notebook]:
            key = keys().get(entry.question)
            shares = part_points(key) if key else {"": 0.0}
            result.points[entry.question] = {part: 0.0 for part in shares}
    return result


def _gradebook(results: list, catalogue: dict) -> Gradebook:
    from dynlab.grading.keys import keys, part_points
    columns, maximum = [], {}
    graded = {r.notebook for r in results if r.notebook}
    for notebook, entries in catalogue.items():
        if notebook not in graded:
            continue
        for entry in entries:
            for part, share in part_points(keys()[entry.question]).items():
                columns.append((entry.question, part))
                maximum[(entry.question, part)] = share
    rows, notes = {}, {}
    for position, result in enumerate(results):
        row = rows.setdefault(result.student, {column: 0.0 for column in columns})
        note = notes.setdefault(result.student, [])
        name = Path(result.path).name
        if result.notebook and any(later.student == result.student
                                   and later.notebook == result.notebook
                                   for later in results[position + 1:]):
            note.append(f"{name}: another submission of {result.notebook} follows; it counts")
            continue
        for question, parts in result.points.items():
            for part, value in parts.items():
                if (question, part) in row:
                    row[(question, part)] = float(value)
        note.extend(f"{name}: {reason}" for reason in result.reasons)
    return Gradebook(columns, maximum, rows, notes, results)


# -- one submission (in its own process) ----------------------------------------------------------
def _worker(send, path: str, student: str, notebook: str, entries: list, limits: tuple) -> None:
    try:
        result = grade_notebook(path, student, notebook, entries, *limits)
        data = json.dumps(result.__dict__)
    except BaseException as error:                    # noqa: BLE001 - a row, never a crash
        data = json.dumps({"student": student, "notebook": notebook, "path": path,
                           "points": {}, "reasons": [f"the grader failed: "
                                                     f"{type(error).__name__}: {error}"]})
    try:
        send.send(data)
    finally:
        send.close()
        os._exit(0)


def grade_notebook(path, student: str, notebook: str, entries: list,
                   notebook_time_limit: float = NOTEBOOK_TIME_LIMIT,
                   cell_time_limit: float = CELL_TIME_LIMIT,
                   check_time_limit: float = CHECK_TIME_LIMIT) -> Result:
    """Run one submitted notebook in a fresh kernel and grade the answers it shows (in this
    process; :func:`grade_submissions` calls it in a process of its own)."""
    import nbformat
    from dynlab.grading.check import check
    from dynlab.grading.keys import keys, part_points
    start = time.monotonic()
    result = Result(student, notebook, str(path))
    answers, reasons = {}, []
    try:
        submitted = nbformat.read(path, as_version=4)
    except Exception as error:                        # noqa: BLE001
        submitted, reasons = None, [f"the notebook cannot be read ({type(error).__name__}: "
                                    f"{error})"]
    if submitted is not None:
        # the kernel computes with the submitting student's givens (dynlab.grading.variants)
        saved = os.environ.get("DYNLAB_STUDENT")
        os.environ["DYNLAB_STUDENT"] = student
        try:
            answers, reasons = _run_in_kernel(submitted, entries, notebook_time_limit,
                                              cell_time_limit)
        finally:
            if saved is None:
                os.environ.pop("DYNLAB_STUDENT", None)
            else:
                os.environ["DYNLAB_STUDENT"] = saved
    for entry in entries:
        shares = part_points(keys()[entry.question])
        data = answers.get(entry.question)
        points = {part: 0.0 for part in shares}
        if isinstance(data, dict) and "answer" in data:
            feedback = check(entry.question, lambda data=data: deserialize(data["answer"]),
                             time_limit=check_time_limit, strict=False, student=student)
            points = {part: float(feedback.parts.get(part, 0.0)) for part in shares}
            if feedback.correct:
                points = dict(shares)
            elif feedback.status == "not graded":
                reasons.append(f"{entry.question}: {feedback.messages[0]}")
        elif isinstance(data, dict) and "error" in data:
            reasons.append(f"{entry.question}: {data['error']}")
        elif entry.question not in answers:
            reasons.append(f"{entry.question}: the answer was never reached")
        result.points[entry.question] = points
    result.reasons = reasons
    result.seconds = time.monotonic() - start
    return result


def _extraction_source(question: str, answer: str, nonce: str) -> str:
    """The code that replaces a check cell: the instructor's answer expression, evaluated in the
    student's kernel and shown as data (the serializer travels as source)."""
    serializer = inspect.getsource(serialize)
    return "\n".join([
        "def __dynlab_answer__():",
        "    import json",
        "    from IPython.display import display",
        *("    " + line for line in serializer.split("\n")),
        "    try:",
        f"        data = {{'answer': serialize(lambda: ({answer}))}}",
        "    except BaseException as error:",
        "        data = {'error': f'the answer could not be read ({type(error).__name__}: "
        "{error})'}",
        f"    data['question'], data['nonce'] = {question!r}, {nonce!r}",
        f"    display({{{MIME!r}: json.dumps(data)}}, raw=True)",
        "__dynlab_answer__()",
        "del __dynlab_answer__",
    ])


def _run_in_kernel(submitted, entries: list, notebook_limit: float, cell_limit: float) -> tuple:
    """``({question: {"answer": data} or {"error": text}}, reasons)``."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError

    nonce = secrets.token_hex(8)
    by_id = {entry.grade_id: entry for entry in entries}
    cells, ours = [], {}
    placed = set()
    for cell in submitted.cells:
        if cell.cell_type != "code":
            continue
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")
        is_check = cell.get("metadata", {}).get("nbgrader", {}).get("grade", False)
        if grade_id in by_id and grade_id not in placed:
            entry = by_id[grade_id]
            ours[len(cells)] = entry.question
            cells.append(nbformat.v4.new_code_cell(
                _extraction_source(entry.question, entry.answer, nonce)))
            placed.add(grade_id)
        elif not is_check:
            cells.append(nbformat.v4.new_code_cell(str(cell.source)))
    for entry in entries:                            # check cells the submission lost
        if entry.grade_id not in placed:
            ours[len(cells)] = entry.question
            cells.append(nbformat.v4.new_code_cell(
                _extraction_source(entry.question, entry.answer, nonce)))
    run = nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": {
        "name": "python3", "display_name": "Python 3", "language": "python"}})
    answers, errors, reasons = {}, [], []

    class Client(NotebookClient):
        def output(self, outs, msg, display_id, cell_index):
            content = msg.get("content", {})
            if cell_index not in ours:
                if msg.get("msg_type") == "error" and len(errors) < 3:
                    errors.append(f"cell {cell_index + 1} raised {content.get('ename')}: "
                                  f"{str(content.get('evalue'))[:200]}")
                return None
            text = content.get("data", {}).get(MIME)
            if isinstance(text, str) and len(text) <= MAX_ANSWER_SIZE:
                with contextlib.suppress(ValueError):
                    data = json.loads(text)
                    if data.get("nonce") == nonce and data.get("question") == ours[cell_index]:
                        answers[ours[cell_index]] = data
            return None

    with tempfile.TemporaryDirectory(prefix="dynlab-grade-") as folder:
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
        except Exception as error:                    # noqa: BLE001
            reasons.append(f"running the notebook failed ({type(error).__name__}: {error})")
    return answers, errors + reasons


#: Seconds a kernel has to answer after one of its cells was interrupted.
RESPONSE_TIME = 5


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
