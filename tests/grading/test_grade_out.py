"""``dynlab grade --out``: the gradebook never overwrites what is graded, and a gradebook that
cannot be written is refused before any notebook is graded, so that no grade is lost.

The submissions here are notebooks of no exercise (no check cell of the solutions): the grader
gives each a row of zeros without starting a kernel, so these tests need none."""

from __future__ import annotations

import csv
import tempfile
from pathlib import Path

import nbformat
import pytest

from dynlab import cli
from dynlab.grading import grader
from dynlab.grading.grader import grade_submissions


def hand_in(folder: Path, *students: str) -> list:
    """An empty notebook per student, ``folder/<student>.ipynb``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for student in students:
        nbformat.write(nbformat.v4.new_notebook(), folder / f"{student}.ipynb")
        paths.append(folder / f"{student}.ipynb")
    return paths


@pytest.fixture
def never_graded(monkeypatch):
    """Grading a notebook fails the test: a refusal must come before any grading."""
    def run_all(*arguments):
        raise AssertionError("a notebook was graded before --out was refused")
    monkeypatch.setattr(grader, "_run_all", run_all)


def refused(arguments: list, capsys) -> str:
    """``dynlab grade --no-sandbox ARGUMENTS`` exits with 2; its one-line error."""
    assert cli.main(["grade", "--no-sandbox", *map(str, arguments)]) == 2
    error = capsys.readouterr().err.strip().split("\n")
    assert error[-1].startswith("dynlab: error: the gradebook (--out) ")
    assert not any("Traceback" in line for line in error)
    return error[-1]


def test_a_notebook_given_as_out_is_refused_and_kept(tmp_path, capsys, never_graded):
    """``--out submissions/*.ipynb`` expands to ``--out anna.ipynb bob.ipynb``."""
    anna, bob = hand_in(tmp_path / "sub", "anna", "bob")
    before = anna.read_bytes()
    assert "anna.ipynb is a notebook" in refused(["--out", anna, bob], capsys)
    assert anna.read_bytes() == before
    other = tmp_path / "grades.IPYNB"                  # a notebook of no submission
    assert "is a notebook" in refused(["--out", other, bob], capsys)
    assert not other.exists()


def test_a_submission_given_as_out_is_refused_and_kept(tmp_path, capsys, never_graded):
    """A submission under another name than .ipynb, named directly, through a symbolic link
    or with a detour through ``..``, is never the gradebook."""
    bob, = hand_in(tmp_path / "sub", "bob")
    anna = tmp_path / "sub" / "anna.json"
    anna.write_text("{}")
    link = tmp_path / "link.csv"
    link.symlink_to(anna)
    for out in (anna, tmp_path / "sub" / ".." / "sub" / "anna.json", link):
        assert "is a submission" in refused(["--out", out, anna, bob], capsys)
    assert anna.read_text() == "{}"


def test_an_out_inside_the_submissions_the_solutions_or_the_keys_is_refused(
        tmp_path, capsys, never_graded):
    folder = tmp_path / "submitted"
    hand_in(folder / "anna", "03_dynamics")
    for out in (folder / "grades.csv", folder / "anna" / "grades.csv"):
        assert "is inside the submissions" in refused([folder, "--out", out], capsys)
        assert not out.exists()
    solutions = tmp_path / "solutions"
    solutions.mkdir()
    out = solutions / "grades.csv"
    assert "is inside the solutions" in refused([folder, "--solutions", solutions, "--out", out],
                                                capsys)
    assert "is inside the keys" in refused([folder, "--keys", solutions, "--out", out], capsys)
    assert not out.exists()


@pytest.mark.parametrize("where, words", [
    (lambda tmp: tmp, "is a folder"),
    (lambda tmp: tmp / "notes.txt" / "grades.csv", "there is no folder"),   # under a file
    (lambda tmp: tmp / "missing" / "grades.csv", "there is no folder"),
    (lambda tmp: Path("/proc/grades.csv"), "cannot be written in /proc"),
    (lambda tmp: Path("/dev/null"), "is not a regular file")],
    ids=["a folder", "under a file", "under no folder", "under /proc", "a device"])
def test_an_out_that_cannot_be_written_is_refused_before_grading(tmp_path, capsys,
                                                                  never_graded, where, words):
    bob, = hand_in(tmp_path / "sub", "bob")
    (tmp_path / "notes.txt").write_text("notes")
    assert words in refused(["--out", where(tmp_path), bob], capsys)
    assert (tmp_path / "notes.txt").read_text() == "notes"


def test_the_library_refuses_as_the_command_line_does(tmp_path, never_graded):
    anna, bob = hand_in(tmp_path / "sub", "anna", "bob")
    with pytest.raises(ValueError, match=r"anna\.ipynb is a notebook"):
        grade_submissions([bob], out=anna, sandbox=False)
    with pytest.raises(ValueError, match="is inside the submissions"):
        grade_submissions(tmp_path / "sub", out=tmp_path / "sub" / "grades.csv", sandbox=False)


def test_a_gradebook_that_cannot_be_written_after_grading_is_kept(tmp_path, capsys,
                                                                  monkeypatch):
    """The folder of ``--out`` removed while the notebooks are graded: the grades are written
    elsewhere and the error says where."""
    anna, bob = hand_in(tmp_path / "sub", "anna", "bob")
    (tmp_path / "out").mkdir()
    graded = grader._run_all

    def run_all_then_remove_the_folder(*arguments):
        (tmp_path / "out").rmdir()
        return graded(*arguments)
    monkeypatch.setattr(grader, "_run_all", run_all_then_remove_the_folder)
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))   # where the rescue goes
    out = tmp_path / "out" / "grades.csv"
    assert cli.main(["grade", "--no-sandbox", "--out", str(out), str(anna), str(bob)]) == 2
    error = capsys.readouterr().err.strip().split("\n")[-1]
    assert error.startswith(f"dynlab: error: cannot write the gradebook {out} ")
    saved = Path(error.rpartition("the grades are in ")[2])
    assert saved.parent.parent == tmp_path / "tmp"
    with open(saved, newline="", encoding="utf-8") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    assert sorted(rows) == ["anna", "bob"]
    assert all("not a notebook of the solutions" in row["notes"] for row in rows.values())


def test_a_good_out_beside_the_submissions_is_written(tmp_path, capsys):
    """Submissions named one by one: their folder is not among the submissions, and a CSV
    beside them is written."""
    anna, bob = hand_in(tmp_path / "sub", "anna", "bob")
    out = tmp_path / "sub" / "grades.csv"
    assert cli.main(["grade", "--no-sandbox", "--out", str(out), str(anna), str(bob)]) == 0
    with open(out, newline="", encoding="utf-8") as handle:
        assert [row["student"] for row in csv.DictReader(handle)] == ["anna", "bob"]
    assert [p.name for p in sorted((tmp_path / "sub").iterdir())] == [   # no temporary file
        "anna.ipynb", "bob.ipynb", "grades.csv", "grades.feedback", "grades.similarity.csv",
        "grades.similarity.html"]


def test_a_urdf_file_that_cannot_be_read_is_one_line_not_a_traceback(tmp_path, capsys,
                                                                     monkeypatch):
    """Whatever OSError or ValueError loading a URDF file raises, the command line prints it
    as its one-line error with exit status 2."""
    from dynlab.model.robots import urdf

    for error in (PermissionError(13, "Permission denied", "arm.urdf"),
                  UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")):
        def refuse(*arguments, error=error, **options):
            raise error
        monkeypatch.setattr(urdf, "from_urdf", refuse)
        assert cli.main(["torque", str(tmp_path / "arm.urdf"), "--q", "0"]) == 2
        printed = capsys.readouterr().err.strip().split("\n")
        assert len(printed) == 1 and printed[0].startswith("dynlab: error: ")
        assert str(error) in printed[0]
