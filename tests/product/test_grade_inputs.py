"""``dynlab grade`` reads only what each student handed in, names each file's student by its
folder, and lets nothing of one student reach another (issue 40, items 1, 2, 3, 6 and 9).

- Links (to a solution, to a classmate's notebook, to the course secret, to a folder), FIFOs and
  notebooks over the size limit are refused with a note and never opened; no kernel starts.
- A notebook inside a student's folder is that student's, whatever its name or the folders
  between say: it never replaces a classmate's grade nor makes up a student; an extra notebook
  is noted and adds to no one's maximum; of two files of one exercise the one nearest the top
  counts.
- Each kernel gets only its notebook's graded values, in a file (``ps`` shows none of them on
  bubblewrap's command line); a 4 MB answer gives a note of at most ``NOTE_LENGTH`` characters;
  a notebook that sets ``DYNLAB_STUDENT`` is graded as its folder's student.
- Honest, partly wrong and blank submissions get the points they got before.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import threading
from pathlib import Path

import nbformat
import pytest

from dynlab import cli
from dynlab.grading import grader, questions, sandbox
from dynlab.grading.authoring import write_course_secret
from dynlab.grading.grader import grade_submissions
from dynlab.grading.keys import keys, part_points, use_keys
from dynlab.grading.submissions import MAX_NOTEBOOK_SIZE, Refused, read
from dynlab.grading.variants import variant
from tests.course.test_instructor_keys import SECRET, instructor_folder
from tests.support.graded_course import answered, solution_answers

ROOT = Path(__file__).resolve().parents[2]
CONTROL = "05_control"
EXTRA = "08_your_own_robot"
#: The points of 05_control's questions, from its keys.
FULL = {q: sum(part_points(keys()[q]).values()) for q in ("C.1", "C.2", "C.3")}
ZERO = {q: 0.0 for q in FULL}


def _notebook(answers: dict | None = None, first: str | None = None) -> nbformat.NotebookNode:
    """The released 05_control with the solutions' answers, replaced by ``answers``
    (``{grade_id: source}``), and a cell of code ``first`` put before all others."""
    notebook = answered(CONTROL, {**solution_answers(CONTROL), **(answers or {})})
    if first is not None:
        notebook.cells.insert(0, nbformat.v4.new_code_cell(first))
    return notebook


def _write(path: Path, notebook) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    return path


def _link(path: Path, target: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)
    return path


class WatchedFifo:
    """A FIFO, and whether anyone opened it to read before :meth:`opened` was asked: a thread
    waits to write to it (opening a FIFO to write waits for a reader)."""

    def __init__(self, path: Path):
        os.mkfifo(path)
        self.path, self.asked, self.by_other = path, threading.Event(), None
        self.thread = threading.Thread(target=self._wait, daemon=True)
        self.thread.start()

    def _wait(self) -> None:
        with open(self.path, "wb"):
            self.by_other = not self.asked.is_set()

    def opened(self) -> bool:
        self.asked.set()
        os.close(os.open(self.path, os.O_RDONLY | os.O_NONBLOCK))   # let the writer through
        self.thread.join()
        return self.by_other


# -- what is read: no kernel starts ----------------------------------------------------------------
@pytest.fixture
def no_kernel(monkeypatch):
    """Running a notebook fails the test (the worker processes are forked: they see it too)."""
    def grade_notebook(*arguments, **options):
        raise AssertionError("a kernel was started")
    monkeypatch.setattr(grader, "grade_notebook", grade_notebook)


LINKED = "a symbolic link, not a regular file; not opened"


def _to_a_solution(tmp_path: Path, sub: Path, watched: list) -> dict:
    _link(sub / "mallory" / f"{CONTROL}.ipynb", ROOT / "solutions" / f"{CONTROL}.ipynb")
    return {"mallory": LINKED}


def _to_a_classmate(tmp_path: Path, sub: Path, watched: list) -> dict:
    classmate = _write(tmp_path / "elsewhere" / "bob" / f"{CONTROL}.ipynb", _notebook())
    _link(sub / "rita" / "ps1" / f"{CONTROL}.ipynb", classmate)
    _link(sub / "uma" / "ps1", classmate.parent)                    # a linked folder
    return {"rita": f"ps1/{CONTROL}.ipynb: {LINKED}", "uma": f"ps1: {LINKED}"}


def _to_the_secret(tmp_path: Path, sub: Path, watched: list) -> dict:
    secret = write_course_secret(tmp_path / "course" / "keys")
    _link(sub / "sam" / f"{CONTROL}.ipynb", secret)
    _link(sub / "tina.ipynb", secret)                               # a notebook of its own
    return {"sam": LINKED, "tina": LINKED}


def _a_fifo(tmp_path: Path, sub: Path, watched: list) -> dict:
    watched.append(WatchedFifo(sub / "notes.ipynb"))
    watched.append(WatchedFifo(tmp_path / "pipe"))
    _link(sub / "zoe" / f"{CONTROL}.ipynb", tmp_path / "pipe")
    return {"notes": "a FIFO (named pipe), not a regular file; not opened", "zoe": LINKED}


def _too_large(tmp_path: Path, sub: Path, watched: list) -> dict:
    big = sub / "walt" / f"{CONTROL}.ipynb"
    big.parent.mkdir()
    with open(big, "wb") as handle:                                  # sparse: no disk used
        handle.truncate(MAX_NOTEBOOK_SIZE + 1)
    return {"walt": f"larger than {MAX_NOTEBOOK_SIZE // 1024 ** 2} MB; not read"}


@pytest.mark.parametrize("attack", [_to_a_solution, _to_a_classmate, _to_the_secret, _a_fifo,
                                    _too_large], ids=lambda attack: attack.__name__[1:])
def test_links_fifos_and_large_notebooks_are_refused_and_never_opened(tmp_path, no_kernel,
                                                                      attack):
    """Each gets 0 and a note saying why; none is opened (a FIFO would block, a link to
    /dev/zero would never end), no kernel starts, and nothing of the secret is written."""
    sub, watched, out = tmp_path / "submitted", [], tmp_path / "grades.csv"
    sub.mkdir()
    expected = attack(tmp_path, sub, watched)
    book = grade_submissions([sub], out=out, sandbox=False, stream=io.StringIO(),
                             exercises=[CONTROL])
    assert [fifo.opened() for fifo in watched] == [False] * len(watched)
    assert sorted(book.rows) == sorted(expected)
    for student, words in expected.items():
        assert book.question_points(student) == ZERO, student
        assert any(words in note for note in book.notes[student]), (student, book.notes)
    secret = (tmp_path / "course" / "keys" / "course_secret")
    if secret.exists():
        key, text = secret.read_text().strip(), out.read_text(encoding="utf-8")
        assert not any(key[k:k + 8] in text for k in range(len(key) - 7))


def test_the_exercises_graded_are_named_on_the_command_line(tmp_path, no_kernel, capsys):
    """``--exercises`` names the exercises graded, each a column, handed in or not; a name of no
    solution notebook is refused, naming it."""
    _link(tmp_path / "sub" / "mallory" / f"{CONTROL}.ipynb", Path("/dev/zero"))
    out = tmp_path / "grades.csv"
    arguments = ["grade", "--no-sandbox", str(tmp_path / "sub"), "--out", str(out)]
    assert cli.main(arguments + ["--exercises", f"{EXTRA}, {CONTROL}.ipynb"]) == 0
    with open(out, newline="", encoding="utf-8") as handle:
        row, = csv.DictReader(handle)
    assert row["student"] == "mallory" and float(row["total"]) == 0
    assert float(row["max"]) == sum(sum(part_points(keys()[q]).values())
                                    for q in questions(CONTROL) + questions(EXTRA))
    assert LINKED in row["notes"]
    assert cli.main(arguments + ["--exercises", "05_controls"]) == 2
    assert "no solution notebook 05_controls" in capsys.readouterr().err


def test_a_link_to_a_device_is_not_read(tmp_path):
    link = _link(tmp_path / "alice" / f"{CONTROL}.ipynb", Path("/dev/zero"))
    with pytest.raises(Refused, match="a symbolic link, not a regular file; not opened"):
        read(tmp_path, ("alice", link.name))
    with pytest.raises(Refused, match="a character device, not a regular file"):
        read(Path("/dev"), ("zero",))
    _link(tmp_path / "bob", tmp_path / "alice")                     # through a linked folder
    with pytest.raises(Refused, match="bob is a symbolic link, not a folder; not followed"):
        read(tmp_path, ("bob", link.name))


# -- whose each file is, and what it earns: kernels run --------------------------------------------
def _other_id(student: str) -> str:
    """An id whose graded values of C.1-C.3 (under the batch's course secret) all differ from
    ``student``'s (the practice values are the same for everyone)."""
    return next(other for other in (f"someone-{k}" for k in range(100))
                if all(dict(variant(q, student=other, secret=SECRET))
                       != dict(variant(q, student=student, secret=SECRET)) for q in FULL))


def _points(book, student: str) -> dict:
    """The student's points of 05_control's questions."""
    return {question: book.question_points(student).get(question) for question in FULL}


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """One batch, graded for marks (the instructor's keys) without a sandbox: honest, blank and
    partly wrong students, and the attacks on whose file is whose (see each test)."""
    folder = tmp_path_factory.mktemp("batch")
    sub = folder / "submitted"
    honest, blank = _notebook(), answered(CONTROL, {})
    wrong = _notebook({"answer-C_3": "Kd = 2 * given['zeta'] * sqrt(Kp * m1 * a1**2)"})
    dumped = folder / "givens.json"
    for student, notebook in {
            "alice": honest, "amy": honest, "bob": blank, "carol": wrong,
            "dave": _notebook(first=f"import os\nos.environ['DYNLAB_STUDENT'] = "
                                    f"{_other_id('dave')!r}"),
            "erin": _notebook(first=f"import os, pathlib\npathlib.Path({str(dumped)!r})"
                                    f".write_text(os.environ['DYNLAB_GIVENS'])"),
            "frank": _notebook({"answer-C_3": "Kd = 'x' * 4_000_000"}),
            "gina": _notebook(first="import os\nraise ValueError(os.environ['DYNLAB_GIVENS'])"),
            "oscar": blank}.items():
        _write(sub / student / "ps1" / f"{CONTROL}.ipynb", notebook)
    _write(sub / "nick" / "ps1" / "amy.ipynb", blank)                   # named after amy
    _write(sub / "oscar" / "ps1" / "x" / "submitted" / "olga" / "ps1" / f"{CONTROL}.ipynb",
           honest)                                                      # makes up olga
    extra = nbformat.read(ROOT / "exercises" / f"{EXTRA}.ipynb", as_version=4)
    _write(sub / "paul" / "ps1" / f"{EXTRA}.ipynb", extra)              # another exercise
    out = folder / "grades.csv"
    shown = io.StringIO()
    use_keys(instructor_folder(folder / "keys"))       # for marks: each student's own values
    try:
        book = grade_submissions([sub], out=out, sandbox=False, stream=shown, workers=2)
    finally:
        use_keys(None)
    limit = csv.field_size_limit(2 ** 31 - 1)           # read back whatever was written
    try:
        with open(out, newline="", encoding="utf-8") as handle:
            rows = {row["student"]: row for row in csv.DictReader(handle)}
    finally:
        csv.field_size_limit(limit)
    return book, rows, dumped, shown.getvalue()


def test_honest_partly_wrong_and_blank_submissions_keep_their_points(batch):
    book, rows, _, _ = batch
    assert _points(book, "alice") == FULL
    assert _points(book, "bob") == ZERO
    assert _points(book, "carol") == {**FULL, "C.3": 0.0}              # a point mass: no 1/3
    for student in ("alice", "bob", "carol"):
        assert book.notes[student] == [], student


def test_a_notebook_named_after_a_classmate_stays_its_students(batch):
    book, _, _, _ = batch
    assert _points(book, "amy") == FULL and book.notes["amy"] == []
    assert _points(book, "nick") == ZERO
    assert book.notes["nick"] == ["ps1/amy.ipynb: named like no exercise notebook; not graded"]


def test_a_nested_submitted_folder_makes_up_no_student(batch):
    book, _, _, _ = batch
    assert "olga" not in book.rows
    assert _points(book, "oscar") == ZERO                                # the top one counts
    assert book.notes["oscar"] == [
        f"ps1/x/submitted/olga/ps1/{CONTROL}.ipynb: another submission of {CONTROL}, "
        f"ps1/{CONTROL}.ipynb, counts (the one nearest the top of the folder)"]


def test_an_extra_notebook_changes_no_maximum(batch):
    book, rows, _, shown = batch
    assert sum(book.maximum.values()) == sum(FULL.values())
    assert {row["max"] for row in rows.values()} == {f"{sum(FULL.values()):g}"}
    assert not any(question.startswith("U.") for question, _ in book.columns)
    assert book.notes["paul"] == [f"ps1/{EXTRA}.ipynb: {EXTRA} is not an exercise of this "
                                  f"batch (handed in by 1 of 11 students); not graded"]
    assert f"NOTE: {EXTRA}, handed in by 1 of 11 students, is not graded" in shown


def test_each_kernel_gets_only_its_notebooks_values(batch):
    _, _, dumped, _ = batch
    handed = json.loads(dumped.read_text())
    assert handed["student"] == "erin" and sorted(handed["questions"]) == sorted(FULL)
    assert handed["questions"]["C.3"]["values"] == dict(variant("C.3", student="erin",
                                                                secret=SECRET))   # graded


def test_a_notebook_that_sets_another_student_id_is_graded_as_its_folders(batch):
    book, _, _, _ = batch
    assert _points(book, "dave") == FULL and book.notes["dave"] == []


def test_a_4_mb_answer_gives_a_short_note(batch):
    book, rows, _, _ = batch
    assert _points(book, "frank") == {**FULL, "C.3": 0.0}
    note, = book.notes["frank"]
    assert note.startswith(f"ps1/{CONTROL}.ipynb: C.3: unknown symbols xxxx")
    assert len(note) == grader.NOTE_LENGTH and note.endswith("…")
    assert rows["frank"]["notes"] == note


def test_an_error_carrying_the_graded_values_shows_none_of_them(batch):
    book, _, _, _ = batch
    assert _points(book, "gina") == FULL
    note, = book.notes["gina"]
    assert note.startswith(f"ps1/{CONTROL}.ipynb: cell 1 raised ValueError: ")
    assert "[hidden]" in note
    for question in FULL:
        values = dict(variant(question, student="gina"))
        assert json.dumps(values) not in note and repr(values) not in note


# -- the sandbox: what ps shows -------------------------------------------------------------------
def test_ps_shows_no_graded_values_while_a_sandbox_runs(tmp_path, monkeypatch):
    """Each sandbox's command line is read by ``ps -eo args`` while it runs (in the grading
    process, as every user of the machine could): the student's id and values are not on it,
    and the kernel still computes with them (it earns the points of its own values)."""
    seen = tmp_path / "ps.txt"
    collect = sandbox._collect

    def watched(process, limits):
        seen.write_text(subprocess.run(["ps", "-ww", "-eo", "args"], capture_output=True,
                                       text=True, check=True).stdout)
        return collect(process, limits)

    monkeypatch.setattr(sandbox, "_collect", watched)
    _write(tmp_path / "sub" / "alice" / f"{CONTROL}.ipynb", _notebook())
    book = grade_submissions([tmp_path / "sub"], stream=io.StringIO())
    assert _points(book, "alice") == FULL and book.notes["alice"] == []
    lines = seen.read_text().split("\n")
    assert any(line.startswith(sandbox.BWRAP) and sandbox.INSIDE in line for line in lines)
    for line in lines:
        assert "DYNLAB_GIVENS" not in line and "DYNLAB_STUDENT" not in line, line[:300]
        assert not any(json.dumps(dict(variant(q, student="alice"))) in line for q in FULL)
