"""What ``dynlab grade`` reads of the submissions, and whose each file is.

Only regular files are read, no link followed below the folder a submission starts in (each
folder opened with ``O_NOFOLLOW``, :func:`read`), none larger than :data:`MAX_NOTEBOOK_SIZE`.
A student is who their folder says (``alice/``, nbgrader's ``submitted/alice/``) or a notebook
of their own (``alice.ipynb``, matched by its check cells); inside a student's folder a notebook
is matched to an exercise by its name.  Of two files of one exercise the later argument wins,
then the one nearest the top, then the first by name (:func:`counted`).  The exercises graded
are those named, else those handed in by more than half of the students
(:func:`exercises_of_batch`).
"""

from __future__ import annotations

import dataclasses
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

#: The largest notebook read (bytes): a larger one is refused before it is read.
MAX_NOTEBOOK_SIZE = 50 * 1024 ** 2
_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
#: A FIFO opened to be read does not wait for a writer.
_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_GRADE_ID = re.compile(r'"grade_id": "([^"]+)"')


class Refused(Exception):
    """A file of a submission that is not read (the message says why)."""


@dataclass(frozen=True)
class HandedIn:
    """One file of a student's submission: ``root / parts``, no link followed in ``parts``."""

    student: str
    root: Path
    parts: tuple
    notebook: str | None = None       # the exercise it is graded as
    note: str = ""                     # why it is not graded ("": it is)
    argument: int = 0                  # which submission argument it came from

    @property
    def path(self) -> Path:
        return self.root.joinpath(*self.parts)

    @property
    def shown(self) -> str:
        """Its name in a note: its path within the student's folder, or its file name."""
        return "/".join(self.parts[1:] if len(self.parts) > 1 else self.parts)

    def noted(self, why: str) -> HandedIn:
        return dataclasses.replace(self, note="; ".join(filter(None, (self.note, why))))


def kind(mode: int) -> str:
    """What a file of mode ``mode`` is, in words.

    >>> kind(stat.S_IFLNK), kind(stat.S_IFIFO), kind(stat.S_IFREG)
    ('a symbolic link', 'a FIFO (named pipe)', 'a regular file')
    """
    for test, name in ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a folder"),
                       (stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def refusal(info, limit: int = MAX_NOTEBOOK_SIZE) -> str:
    """Why a file of status ``info`` (``lstat``) is not read ("": it is read).

    >>> refusal(os.lstat("/dev/null"))
    'a character device, not a regular file; not opened'
    """
    if not stat.S_ISREG(info.st_mode):
        return f"{kind(info.st_mode)}, not a regular file; not opened"
    if info.st_size > limit:
        return f"larger than {limit / 1024 ** 2:g} MB; not read"
    return ""


def _open_folder(root: Path, parts: tuple) -> int:
    """A descriptor of the folder ``root / parts``, each of ``parts`` opened with
    ``O_NOFOLLOW`` after ``lstat`` saw a folder (Refused otherwise)."""
    handle = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for part in parts:
            mode = os.stat(part, dir_fd=handle, follow_symlinks=False).st_mode
            if not stat.S_ISDIR(mode):
                raise Refused(f"{part} is {kind(mode)}, not a folder; not followed")
            inner = os.open(part, _FOLDER, dir_fd=handle)
            os.close(handle)
            handle = inner
    except BaseException:
        os.close(handle)
        raise
    return handle


def read(root: Path, parts: tuple, limit: int = MAX_NOTEBOOK_SIZE) -> bytes:
    """The bytes of the regular file ``root / parts`` of at most ``limit`` bytes, no link
    followed; Refused, saying why, for anything else.

    >>> read(Path("/"), ("dev", "null"))
    Traceback (most recent call last):
    ...
    dynlab.grading.submissions.Refused: a character device, not a regular file; not opened
    """
    def regular(info) -> None:
        if refusal(info, limit):
            raise Refused(refusal(info, limit))

    try:
        folder = _open_folder(root, parts[:-1])
        try:
            seen = os.stat(parts[-1], dir_fd=folder, follow_symlinks=False)
            regular(seen)
            handle = os.open(parts[-1], _FILE, dir_fd=folder)
        finally:
            os.close(folder)
        with open(handle, "rb") as stream:
            opened = os.fstat(handle)
            if (opened.st_dev, opened.st_ino) != (seen.st_dev, seen.st_ino):
                raise Refused("replaced while it was opened; not read")
            regular(opened)
            data = stream.read(limit + 1)
    except OSError as error:
        raise Refused(f"cannot be read ({error.strerror or error})") from None
    if len(data) > limit:
        raise Refused(f"larger than {limit / 1024 ** 2:g} MB; not read")
    return data


def copy_handed_in(root: Path, name: str, dest: Path, *, limit: int = MAX_NOTEBOOK_SIZE,
                   total: int | None = None, ignore=None, mode: tuple = (0o755, 0o644)) -> list:
    """Copy the folder ``root / name`` to the new ``dest``: only folders and regular files read
    as :func:`read` reads them (``ignore`` as :func:`shutil.copytree`'s; ``mode``: of folders and
    files).  Returns a note per entry left out; Refused (``dest`` removed) when it is no folder
    or holds more than ``total`` bytes.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     (Path(folder) / "in").mkdir()
    ...     os.symlink("/etc/hostname", Path(folder) / "in" / "a.ipynb")
    ...     notes = copy_handed_in(Path(folder), "in", Path(folder) / "out")
    ...     notes, os.listdir(Path(folder) / "out")
    (['a.ipynb: a symbolic link, not a regular file; not opened'], [])
    """
    notes, copied, folders = [], 0, [(name,)]
    try:
        while folders:
            parts = folders.pop()
            os.mkdir(dest.joinpath(*parts[1:]), mode[0])
            handle = _open_folder(root, parts)
            try:
                entries = {entry: os.stat(entry, dir_fd=handle, follow_symlinks=False)
                           for entry in os.listdir(handle)}
            finally:
                os.close(handle)
            usual = [entry for entry, info in entries.items()
                     if stat.S_ISDIR(info.st_mode) or not refusal(info, limit)]
            left_out = set(ignore(str(root.joinpath(*parts)), usual) if ignore else ())
            for entry, info in sorted(entries.items()):
                inner = parts + (entry,)
                if entry in left_out:
                    continue
                if stat.S_ISDIR(info.st_mode):
                    folders.append(inner)
                    continue
                try:
                    data = read(root, inner, limit)
                except Refused as why:
                    notes.append(f"{'/'.join(inner[1:])}: {why}")
                    continue
                copied += len(data)
                if total is not None and copied > total:
                    raise Refused(f"its files hold more than {total / 1024 ** 2:g} MB together; "
                                  f"not copied")
                handle = os.open(dest.joinpath(*inner[1:]),
                                 os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode[1])
                with open(handle, "wb") as stream:
                    stream.write(data)
    except BaseException:
        import shutil
        shutil.rmtree(dest, ignore_errors=True)
        raise
    return notes


def spreadsheet_text(value: str) -> str:
    """A name or note as a CSV cell that a spreadsheet shows as text, never as a formula.

    >>> spreadsheet_text("=HYPERLINK(1)"), spreadsheet_text("alice")
    ("'=HYPERLINK(1)", 'alice')
    """
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


# -- whose each file is ---------------------------------------------------------------------------
def handed_in(submissions: list, exercises: dict) -> list:
    """Every notebook among ``submissions`` as a :class:`HandedIn` with its student and exercise
    (a key of ``exercises``), or a note why it is not graded (rules: the module docstring)."""
    found = []
    for argument, entry in enumerate(submissions):
        entry = Path(os.path.abspath(entry))
        items = _folder(entry, exercises) if entry.is_dir() else [_file(entry, exercises)]
        found += [dataclasses.replace(item, argument=argument) for item in items]
    return found


def _file(entry: Path, exercises: dict) -> HandedIn:
    """A notebook named on the command line: a student's exercise or a notebook of its own."""
    if entry.stem in exercises:
        folder = entry.parent
        if folder.parent.parent.name == "submitted":        # submitted/<student>/<assignment>/
            return _exercise(folder.parent.name, folder.parent.parent,
                             (folder.parent.name, folder.name, entry.name))
        return _exercise(folder.name, folder.parent, (folder.name, entry.name))
    return _own(entry.parent, entry.name, exercises)


def _exercise(student: str, root: Path, parts: tuple) -> HandedIn:
    item = HandedIn(student, root, parts, Path(parts[-1]).stem)
    try:
        return item.noted(refusal(os.lstat(item.path)))
    except OSError as error:
        return item.noted(f"cannot be read ({error.strerror})")


def _own(root: Path, name: str, exercises: dict) -> HandedIn:
    """``alice.ipynb``: Alice's, of the exercise whose check cells it holds most of."""
    item = HandedIn(Path(name).stem, root, (name,))
    try:
        ids = set(_GRADE_ID.findall(read(root, (name,)).decode("utf-8", errors="replace")))
    except Refused as why:
        return item.noted(str(why))
    held = {stem: len(ids & {entry.grade_id for entry in entries})
            for stem, entries in exercises.items()}
    best = max(held, key=held.get, default=None)
    if best is None or not held[best]:
        return item.noted("not a notebook of the solutions (no check cell of theirs found)")
    return dataclasses.replace(item, notebook=best)


def _student_folder(folder: Path, exercises: dict):
    """``(student, root, parts)`` when ``folder`` is one student's (nbgrader's
    ``submitted/alice`` or ``submitted/alice/ps1``, or a folder holding a notebook named like an
    exercise), else None (a folder of submissions)."""
    if folder.parent.name == "submitted":
        return folder.name, folder.parent, (folder.name,)
    if folder.parent.parent.name == "submitted":
        return folder.parent.name, folder.parent.parent, (folder.parent.name, folder.name)
    if any(name.endswith(".ipynb") and name[:-6] in exercises for name in os.listdir(folder)):
        return folder.name, folder.parent, (folder.name,)
    return None


def _folder(folder: Path, exercises: dict) -> list:
    one = _student_folder(folder, exercises)
    if one is not None:
        return _walk(*one, exercises)
    found = []
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.name == ".ipynb_checkpoints":
            continue
        if entry.name.endswith(".ipynb"):
            found.append(_own(folder, entry.name, exercises))
        elif entry.is_dir(follow_symlinks=False):
            found += _walk(entry.name, folder, (entry.name,), exercises)
        elif entry.is_symlink():
            found.append(HandedIn(entry.name, folder, (entry.name,),
                                  note="a symbolic link, not a folder; not followed"))
    return found


def _walk(student: str, root: Path, parts: tuple, exercises: dict) -> list:
    """The notebooks at any depth of ``student``'s folder ``root / parts``, no link followed;
    anything but a folder or a notebook named like an exercise is noted, not read."""
    found, folders = [], [parts]
    while folders:
        where = folders.pop()
        try:
            handle = _open_folder(root, where)
        except (Refused, OSError) as why:
            found.append(HandedIn(student, root, where, note=str(why)))
            continue
        try:
            entries = sorted((name, os.stat(name, dir_fd=handle, follow_symlinks=False))
                             for name in os.listdir(handle))
        finally:
            os.close(handle)
        for name, info in entries:
            item = HandedIn(student, root, where + (name,))
            if stat.S_ISDIR(info.st_mode):
                if name != ".ipynb_checkpoints":
                    folders.append(item.parts)
            elif name.endswith(".ipynb") and name[:-6] in exercises:
                found.append(dataclasses.replace(item, notebook=name[:-6]).noted(refusal(info)))
            elif not stat.S_ISREG(info.st_mode):
                found.append(item.noted(refusal(info)))
            elif name.endswith(".ipynb"):
                found.append(item.noted("named like no exercise notebook; not graded"))
    return sorted(found, key=lambda item: item.parts)


# -- which are graded -----------------------------------------------------------------------------
def exercises_of_batch(found: list, exercises: dict, named=None) -> list:
    """The exercises graded (in the order of ``exercises``): those ``named``, else those of
    which more than half of the students of ``found`` handed in a notebook.

    >>> here = Path(".")
    >>> found = [HandedIn("ann", here, ("ann", "02.ipynb"), "02"),
    ...          HandedIn("bob", here, ("bob", "02.ipynb"), "02"),
    ...          HandedIn("bob", here, ("bob", "05.ipynb"), "05")]
    >>> exercises_of_batch(found, {"02": [], "05": []})
    ['02']
    """
    if named is not None:
        unknown = [name for name in named if name not in exercises]
        if unknown:
            raise ValueError(f"exercises: no solution notebook {', '.join(unknown)} (the "
                             f"solutions hold {', '.join(exercises)})")
        return [name for name in exercises if name in named]
    students = {item.student for item in found}
    return [name for name in exercises
            if 2 * len({item.student for item in found if item.notebook == name}) > len(students)]


def counted(found: list, batch: list) -> list:
    """``found`` with a note on each file that is not graded: of an exercise outside the
    ``batch``, or one of two files of one exercise of one student (the one from the later
    argument counts, then the one nearest the top of the folder, then the first by name)."""
    students = {item.student for item in found}
    chosen = {}
    for item in found:
        if item.notebook in batch:
            best = chosen.get((item.student, item.notebook))
            if best is None or (-item.argument, len(item.parts), item.parts) < \
                    (-best.argument, len(best.parts), best.parts):
                chosen[(item.student, item.notebook)] = item
    kept = []
    for item in found:
        if item.notebook is not None and item.notebook not in batch:
            handed = len({other.student for other in found if other.notebook == item.notebook})
            item = item.noted(f"{item.notebook} is not an exercise of this batch (handed in by "
                              f"{handed} of {len(students)} students); not graded")
        elif item.notebook is not None and chosen[(item.student, item.notebook)] is not item:
            best = chosen[(item.student, item.notebook)]
            item = item.noted(f"another submission of {item.notebook} follows; it counts"
                              if best.argument > item.argument else
                              f"another submission of {item.notebook}, {best.shown}, counts "
                              f"(the one nearest the top of the folder)")
        kept.append(item)
    return kept
