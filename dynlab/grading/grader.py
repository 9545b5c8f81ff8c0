"""``dynlab grade`` (:func:`grade_submissions`): each submission in its own sandbox and fresh
kernel, which hands out the answers of the instructor's check lines as data, scored here
(:func:`dynlab.grading.scoring.points_of_data`).  The gradebook has a row per student and a
column per part; beside it a page per student (:mod:`dynlab.grading.feedback`) and the
similarity report (:mod:`dynlab.grading.similarity`).
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import inspect
import io
import itertools
import json
import multiprocessing
import os
import re
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from dynlab.grading import feedback as _feedback
from dynlab.grading import own_work as _own_work
from dynlab.grading import sandbox as _sandbox
from dynlab.grading import similarity as _similarity
from dynlab.grading import submissions as _submissions
from dynlab.grading.answers import serialize
from dynlab.grading.limits import (
    CELL_TIME_LIMIT,
    CHECK_TIME_LIMIT,
    NOTEBOOK_TIME_LIMIT,
    sandbox_clock,
    wall_seconds,
    worker_clock,
)
from dynlab.grading.scoring import points_of_data
from dynlab.grading.variants import GIVENS_VARIABLE, STUDENT_VARIABLE, givens

#: What runs inside a sandbox (run as a script: it imports nothing of dynlab).
INSIDE_SCRIPT = Path(__file__).resolve().with_name("inside.py")
#: Characters of one note in the gradebook, and notes of one student (a spreadsheet's cell holds
#: 32,767 characters).
NOTE_LENGTH = 500
NOTES_PER_STUDENT = 20
#: What --no-sandbox says on every run (standard error).
NO_SANDBOX_WARNING = ("dynlab grade: WARNING: --no-sandbox: each submission runs with your own "
                      "rights, sees your files and the other submissions and has the network; "
                      "do not use these grades for marks")
#: What grading without the instructor's keys says on every run (standard error).
FORMATIVE_WARNING = ("dynlab grade: WARNING: no instructor's keys (--keys FOLDER): graded with the "
                     "formative keys shipped with dynlab, which every student has, and each "
                     "student's practice values; these grades are formative, not marks")
#: What grading for marks says of the questions whose key every student holds (standard error).
PUBLIC_KEYS_NOTE = ("dynlab grade: NOTE: {count} questions have no givens and your key of them "
                    "is the one shipped with dynlab, which every student holds ({questions}): "
                    "their points reward the answer however it was found; give them givens or "
                    "change them for your course (solutions/README.md, 'What your keys protect')")
#: The notebooks of the instructor's solutions (a checkout of the workbook).
SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"
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
    #: question -> what the check found, as it says it to the student (never the key's values)
    diagnosis: dict = field(default_factory=dict)
    ungraded: bool = False                            # the notebook handed out no answer at all


@dataclass
class Gradebook:
    """One row per student, one column per part (see :func:`columns`)."""

    columns: list                                     # (question, part)
    maximum: dict                                     # (question, part) -> points
    rows: dict                                        # student -> {(question, part): points}
    notes: dict                                       # student -> [reasons]
    results: list                                     # every Result, in the order graded
    summative: bool = False                           # graded from the instructor's keys
    identical: dict = field(default_factory=dict)     # student -> answer cells, as a classmate's
    exercises: dict = field(default_factory=dict)     # notebook -> its questions, as graded

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
                + ["total", "max", "notes", "identical code"])

    def write_csv(self, path) -> Path:
        """Write the gradebook to ``path`` atomically (renamed into place once complete)."""
        path, table = Path(path), io.StringIO()
        writer = csv.writer(table)
        writer.writerow(self.header())
        top, text, number = sum(self.maximum.values()), _submissions.spreadsheet_text, \
            _feedback.points_text
        for student, row in self.rows.items():
            writer.writerow([text(student)] + [number(row[c]) for c in self.columns]
                            + [number(self.total(student)), number(top),
                               text("; ".join(self.notes[student])),
                               text(self.identical.get(student, ""))])
        _similarity.write_atomically(path, table.getvalue(), 0o644)
        return path


# -- the batch ------------------------------------------------------------------------------------
def grade_submissions(submissions, *, out=None, solutions: Path = SOLUTIONS, workers: int = 2,
                      notebook_time_limit: float = NOTEBOOK_TIME_LIMIT,
                      cell_time_limit: float = CELL_TIME_LIMIT,
                      check_time_limit: float = CHECK_TIME_LIMIT,
                      progress: bool | None = None, stream=None, sandbox: bool = True,
                      limits: _sandbox.Limits | None = None, keys=None,
                      exercises=None) -> Gradebook:
    """Grade ``submissions`` (notebooks or folders, :mod:`dynlab.grading.submissions`), ``workers``
    at a time, each in a sandbox within ``limits`` (RuntimeError where none can be made;
    ``sandbox=False`` warns on ``stream``), and write the gradebook ``out``
    (:func:`check_gradebook_path` before any grading; if writing fails at the end, the
    RuntimeError names a temporary copy).  With the instructor's ``keys`` the grades are marks
    (RuntimeError if they lack a question of the solutions); without, formative, with a warning.
    ``exercises``: the solution notebooks graded (default: those most students hand in)."""
    stream = sys.stderr if stream is None else stream
    if progress is None:
        progress = hasattr(stream, "isatty") and stream.isatty()
    if isinstance(submissions, (str, os.PathLike)):
        submissions = [submissions]
    submissions = list(submissions)
    for entry in submissions:
        if not os.path.lexists(entry):
            raise FileNotFoundError(f"no submission {entry}")
    if out is not None:                               # before any grading: no grade is lost
        check_gradebook_path(out, [e for e in submissions if not Path(e).is_dir()],
                             submissions, solutions, keys)
    if sandbox:
        reason = _sandbox.unavailable()
        if reason is not None:
            raise RuntimeError(f"no sandbox for the submissions: {reason}")
    else:
        stream.write(NO_SANDBOX_WARNING + "\n")
        stream.flush()
    from dynlab.grading.keys import held_by_every_student, instructor_key, summative, use_keys
    if keys is not None:
        use_keys(keys)
    catalogue = solution_questions(solutions)
    if summative():
        missing = [e.question for entries in catalogue.values() for e in entries
                   if not instructor_key(e.question)]
        if missing:
            raise RuntimeError(f"the instructor's keys hold no key of {', '.join(missing)} "
                               f"(build them with tools/make_answer_keys.py --out FOLDER)")
        public = [e.question for entries in catalogue.values() for e in entries
                  if held_by_every_student(e.question)]
        if public:
            stream.write(PUBLIC_KEYS_NOTE.format(count=len(public), questions=", ".join(public))
                         + "\n")
            stream.flush()
    else:
        stream.write(FORMATIVE_WARNING + "\n")
        stream.flush()
    found = _submissions.handed_in(submissions, catalogue)
    if not found:
        raise FileNotFoundError("no notebook among the submissions")
    batch = _submissions.exercises_of_batch(found, catalogue, exercises)
    for name in catalogue:
        handed = sorted({item.student for item in found if item.notebook == name})
        if handed and name not in batch:
            stream.write(f"dynlab grade: NOTE: {name}, handed in by {len(handed)} of "
                         f"{len({item.student for item in found})} students, is not graded (the "
                         f"exercises graded are those named with --exercises, else those that "
                         f"more than half of the students hand in)\n")
    jobs = _submissions.counted(found, batch)
    if limits is None:
        limits = _sandbox.Limits()
    limits = dataclasses.replace(limits, at_once=max(1, int(workers)))
    limits = (notebook_time_limit, cell_time_limit, check_time_limit,
              limits if sandbox else None)
    bar = _Progress(len(jobs), stream if progress else None)
    results = _run_all(jobs, catalogue, limits, max(1, int(workers)), bar)
    bar.close()
    book = _gradebook(results, {name: catalogue[name] for name in batch})
    book.summative = summative()
    book.identical = _similarity.report(jobs, solutions, out, stream)
    if out is not None:
        try:
            book.write_csv(out)
        except OSError as error:                      # e.g. its folder went while grading
            saved = book.write_csv(Path(tempfile.mkdtemp(prefix="dynlab-grades-")) / "grades.csv")
            raise RuntimeError(f"cannot write the gradebook {out} ({error.strerror or error}); "
                               f"the grades are in {saved}") from None
        _feedback.write(book, out)                    # a file a student, to hand back
    return book


def check_gradebook_path(out, notebooks: list, submissions: list, solutions, keys) -> None:
    """Refuse (ValueError saying why) a gradebook path ``out`` that would overwrite a notebook,
    a submission, the ``solutions`` or the ``keys``, or that cannot be written.

    >>> check_gradebook_path("sub/a.ipynb", [Path("sub/b.ipynb")], ["sub/b.ipynb"], SOLUTIONS, None)
    Traceback (most recent call last):
    ...
    ValueError: the gradebook (--out) sub/a.ipynb is a notebook; write it to a .csv file
    """
    where = f"the gradebook (--out) {out}"
    path = Path(out)
    if path.suffix.lower() == ".ipynb":
        raise ValueError(f"{where} is a notebook; write it to a .csv file")
    target = path.resolve()
    if any(target == Path(notebook).resolve() for notebook in notebooks):
        raise ValueError(f"{where} is a submission; write it outside the submissions")
    folders = [(Path(entry), "the submissions") for entry in submissions if Path(entry).is_dir()]
    folders += [(Path(folder), name) for folder, name in ((solutions, "the solutions"),
                                                          (keys, "the keys"))
                if folder is not None]
    for folder, name in folders:
        if folder.resolve() in target.parents:
            raise ValueError(f"{where} is inside {name} ({folder}); write it outside")
    if path.is_dir():
        raise ValueError(f"{where} is a folder; name a .csv file")
    if path.exists() and not path.is_file():
        raise ValueError(f"{where} is not a regular file; name a .csv file")
    _feedback.check_folder(out)
    if not path.parent.is_dir():
        raise ValueError(f"{where} cannot be written: there is no folder {path.parent}")
    try:                                              # as write_csv writes: a file beside it
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.",
                                         suffix=".tmp"):
            pass
    except OSError as error:
        raise ValueError(f"{where} cannot be written in {path.parent} "
                         f"({error.strerror or error})") from None


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
    notebook_limit, _, check_limit, sandbox_limits = limits
    while waiting or running:
        while waiting and len(running) < workers:
            index, job = waiting.pop(0)
            if job.note:                              # noted, not read: no process
                results[index] = _empty(job, catalogue, job.note)
                bar.step(results[index])
                continue
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=_worker, args=(send, job, catalogue[job.notebook],
                                                            limits), daemon=False)
            process.start()
            send.close()
            questions = len(catalogue[job.notebook])
            deadline = time.monotonic() + worker_clock(notebook_limit, check_limit, questions,
                                                       sandbox_limits)
            running[index] = (process, receive, deadline)
        for index in list(running):
            process, receive, deadline = running[index]
            job = jobs[index]
            result = None
            if receive.poll(0.05):
                try:
                    result = Result(**json.loads(receive.recv()))
                except (EOFError, OSError, ValueError, TypeError):
                    result = _empty(job, catalogue, "the grading process ended without a result")
            elif not process.is_alive():
                result = _empty(job, catalogue, f"the grading process ended (exit code "
                                                f"{process.exitcode}) without a result")
            elif time.monotonic() > deadline:
                result = _empty(job, catalogue,
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


def _empty(job: _submissions.HandedIn, catalogue: dict, reason: str) -> Result:
    """Zeros for the questions of ``job``'s exercise (none when it is not graded), and why."""
    notebook = job.notebook if job.notebook in catalogue and not job.note else None
    result = Result(job.student, notebook or "", job.shown, reasons=[reason], ungraded=True)
    if notebook is not None:
        from dynlab.grading.keys import keys, part_points
        for entry in catalogue[notebook]:
            key = keys().get(entry.question)
            shares = part_points(key) if key else {"": 0.0}
            result.points[entry.question] = {part: 0.0 for part in shares}
    return result


def _gradebook(results: list, batch: dict) -> Gradebook:
    """The gradebook of ``results``: a column per part of each question of the ``batch``."""
    from dynlab.grading.keys import keys, part_points
    columns, maximum = [], {}
    for entries in batch.values():
        for entry in entries:
            for part, share in part_points(keys()[entry.question]).items():
                columns.append((entry.question, part))
                maximum[(entry.question, part)] = share
    rows, notes = {}, {}
    for result in results:
        row = rows.setdefault(result.student, {column: 0.0 for column in columns})
        for question, parts in result.points.items():
            for part, value in parts.items():
                if (question, part) in row:
                    row[(question, part)] = float(value)
        notes.setdefault(result.student, []).extend(
            _cut(f"{result.path}: {reason}") for reason in result.reasons)
    for student, said in notes.items():
        if len(said) > NOTES_PER_STUDENT:
            said[NOTES_PER_STUDENT - 1:] = [f"and {len(said) - NOTES_PER_STUDENT + 1} notes more"]
    exercises = {name: [entry.question for entry in entries] for name, entries in batch.items()}
    return Gradebook(columns, maximum, rows, notes, results, exercises=exercises)


def _cut(note: str) -> str:
    return note if len(note) <= NOTE_LENGTH else note[:NOTE_LENGTH - 1] + "…"


def scrubbed(text: str, hidden) -> str:
    """``text`` (its first ``2 * NOTE_LENGTH`` characters) with every run of 8 characters or
    more of a ``hidden`` text (the secret, the graded values) shown as ``[hidden]``.

    >>> scrubbed("ValueError: 9f86d081884c7d65 leaked", ["2cf24dba9f86d081884c7d659a2f"])
    'ValueError: [hidden] leaked'
    """
    text = text[:2 * NOTE_LENGTH]
    grams = {secret[k:k + 8] for secret in hidden for k in range(len(secret) - 7)}
    covered = [False] * len(text)
    for k in range(len(text) - 7):
        if text[k:k + 8] in grams:
            covered[k:k + 8] = [True] * 8
    return "".join("[hidden]" if hide else "".join(c for c, _ in group)
                   for hide, group in itertools.groupby(zip(text, covered), lambda p: p[1]))


# -- one submission (in its own process) ----------------------------------------------------------
#: Bytes of address space of a grading process (it rebuilds and checks one submission's answers:
#: a forged answer such as a huge power then fails with MemoryError instead of filling the memory).
WORKER_MEMORY = 6 * 1024 ** 3


def _worker(send, job: _submissions.HandedIn, entries: list, limits: tuple) -> None:
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard == resource.RLIM_INFINITY or hard > WORKER_MEMORY:
            resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY, WORKER_MEMORY))
        result = grade_notebook(job, entries, *limits)
        data = json.dumps(result.__dict__)
    except BaseException as error:                    # noqa: BLE001 - a row, never a crash
        data = json.dumps({"student": job.student, "notebook": job.notebook, "path": job.shown,
                           "points": {}, "ungraded": True,
                           "reasons": [f"the grader failed: {type(error).__name__}: {error}"]})
    try:
        send.send(data)
    finally:
        send.close()
        os._exit(0)


def grade_notebook(job: _submissions.HandedIn, entries: list,
                   notebook_time_limit: float = NOTEBOOK_TIME_LIMIT,
                   cell_time_limit: float = CELL_TIME_LIMIT,
                   check_time_limit: float = CHECK_TIME_LIMIT,
                   limits: _sandbox.Limits | None = _sandbox.Limits()) -> Result:
    """Run the notebook ``job`` in a fresh kernel in a sandbox within ``limits`` (None: none)
    and grade here the answers to ``entries`` it hands out; notes are :func:`scrubbed`."""
    start = time.monotonic()
    student = job.student
    result = Result(student, job.notebook, job.shown)
    jobs = [{"question": e.question, "answer": e.answer, "grade_id": e.grade_id,
             "symbols": text_symbols(e.question)} for e in entries]
    # the kernel computes with the submitting student's givens (dynlab.grading.variants): their
    # graded values of this notebook's questions under the course secret, which stays here
    from dynlab.grading.keys import course_secret
    handed = givens(student, course_secret(), [e.question for e in entries])
    from dynlab.grading.keys import summative
    environment = {STUDENT_VARIABLE: student, GIVENS_VARIABLE: handed,   # and, for marks, the
                   **_own_work.environment([e.question for e in entries], summative())}  # refusals
    values = [given["values"] for given in json.loads(handed)["questions"].values()]
    hidden = [course_secret() or ""] + [shown(v) for v in values for shown in (json.dumps, repr)] \
        + [f"{name} = {value:g}" for v in values for name, value in v.items()]   # as printed
    try:
        submitted = _submissions.read(job.root, job.parts)
    except _submissions.Refused as why:
        answers, reasons = {}, [str(why)]
    else:
        if summative():
            result.reasons = _own_work.tricks(submitted)
        if limits is None:
            with _environment(environment):
                answers, reasons = _unsandboxed(submitted, jobs, notebook_time_limit,
                                                cell_time_limit)
        else:
            answers, reasons = _sandboxed(submitted, jobs, notebook_time_limit, cell_time_limit,
                                          limits, environment)
    result.ungraded = not answers
    for entry in entries:
        data = answers.get(entry.question)
        said = len(reasons)
        if isinstance(data, dict) and "error" in data:
            reasons.append(f"{entry.question}: {str(data['error'])[:300]}")
            data = None
        elif entry.question not in answers:
            reasons.append(f"{entry.question}: the answer was never reached")
        graded = points_of_data(entry.question,
                                data.get("answer") if isinstance(data, dict) else None,
                                student=student, time_limit=check_time_limit)
        if data is not None:
            reasons.extend(graded.reasons)
        result.points[entry.question] = graded.points
        found = graded.feedback.messages if graded.feedback is not None else \
            [reason.removeprefix(f"{entry.question}: ") for reason in reasons[said:]]
        result.diagnosis[entry.question] = [scrubbed(line, hidden)[:NOTE_LENGTH]
                                            for line in found]
    result.reasons = [scrubbed(reason, hidden) for reason in result.reasons + reasons]
    result.seconds = time.monotonic() - start
    return result


def text_symbols(question: str):
    """The symbols in which the kernel reads a string answer (None for a multiple choice)."""
    from dynlab.grading.keys import keys
    key = keys()[question]
    return None if key["kind"] == "choice" else [list(pair) for pair in key.get("symbols", [])]


def _unsandboxed(data: bytes, jobs: list, notebook_limit: float, cell_limit: float) -> tuple:
    import nbformat

    from dynlab.grading.inside import run_in_kernel
    try:
        submitted = nbformat.reads(data.decode("utf-8"), as_version=4)
    except Exception as error:                        # noqa: BLE001
        return {}, [f"the notebook cannot be read ({type(error).__name__}: {error})"]
    with tempfile.TemporaryDirectory(prefix="dynlab-grade-") as folder:
        return run_in_kernel(submitted, jobs, notebook_limit, cell_limit, folder,
                             inspect.getsource(serialize),
                             notebook_wall_limit=sandbox_clock(notebook_limit)[1],
                             cell_wall_limit=wall_seconds(cell_limit))


@contextlib.contextmanager
def _environment(variables: dict):
    """``os.environ`` with ``variables`` set for the duration."""
    saved = {name: os.environ.get(name) for name in variables}
    os.environ.update(variables)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _sandboxed(data: bytes, jobs: list, notebook_limit: float, cell_limit: float,
               limits: _sandbox.Limits, environment: dict) -> tuple:
    """The answers of the notebook ``data`` run in a sandbox holding only a copy of it; the
    kernel's ``environment`` goes in the job's file, never on a command line."""
    folder = Path(tempfile.mkdtemp(prefix="dynlab-sandbox-"))
    seconds, notebook_wall = sandbox_clock(notebook_limit, limits)
    try:
        (folder / "submission.ipynb").write_bytes(data)
        job = os.open(folder / "job.json", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with open(job, "w", encoding="utf-8") as handle:
            json.dump({"notebook": "submission.ipynb", "entries": jobs, "serializer":
                       inspect.getsource(serialize), "notebook_time_limit": notebook_limit,
                       "cell_time_limit": cell_limit, "notebook_wall_limit": notebook_wall,
                       "cell_wall_limit": wall_seconds(cell_limit),
                       "environment": environment}, handle)
        finished = _sandbox.run([sys.executable, "-I", str(INSIDE_SCRIPT),
                                 f"{_sandbox.INSIDE}/job.json"], folder,
                                limits=dataclasses.replace(limits, seconds=seconds))
    finally:
        _sandbox.remove(folder)
    if finished.timed_out:
        return {}, [f"the sandbox ran longer than {seconds:g} s and was stopped"]
    if finished.memory_exceeded:
        return {}, [f"the sandbox held more than {limits.total_memory / 1024 ** 2:g} MB of memory "
                    f"(all its processes together) and was stopped"]
    if finished.output_exceeded:
        return {}, [f"the sandbox printed more than {limits.output // 1024 ** 2} MB and was "
                    f"stopped"]
    lines = finished.stdout.decode("utf-8", errors="replace").strip().split("\n")
    try:
        data = json.loads(lines[-1])
        answers, reasons = data["answers"], [str(r)[:500] for r in data["reasons"]][:20]
        if not (isinstance(answers, dict) and all(isinstance(v, dict) for v in answers.values())):
            raise ValueError("answers")
    except (ValueError, KeyError, TypeError, IndexError):
        tail = finished.stderr.decode("utf-8", errors="replace").strip().split("\n")[-1][:300]
        return {}, [f"the sandbox ended (exit code {finished.returncode}) without answers"
                    + (f": {tail}" if tail else "")]
    return answers, reasons
