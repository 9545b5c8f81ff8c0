"""The instructor's course: the feedback pages ``dynlab grade`` writes to hand back, grading on
a machine where the sandbox cannot start, and the guide's course plan against the keys.

A course of one short notebook (``05_control``: C.1, C.2, C.3, 5 points) released by the real
nbgrader from ``solutions/``, handed in in nbgrader's layout (``submitted/<student>/ps1/``) by
an honest student, a partly wrong one, a blank one and one whose file is a link to the
solutions, and graded for marks by ``dynlab grade --keys`` in real bubblewrap sandboxes.  Each
page is read against the keys: the points of each question, the key's own messages for the
mistakes made, the check's words for a blank answer, the takeaway where the answer earned every
point and the hint elsewhere; and nothing on it of a classmate, the course secret, the
graded values or the solution.
"""

from __future__ import annotations

import html
import json
import re
import stat
from pathlib import Path

import nbformat
import pytest

from dynlab import cli
from dynlab.grading import keys, part_points, questions, sandbox
from dynlab.grading.keys import note, use_keys
from dynlab.grading.sealing import unseal
from dynlab.grading.variants import givens

ROOT = Path(__file__).resolve().parents[2]
from tests.course.test_instructor_keys import SECRET, instructor_folder  # noqa: E402
from tests.support.graded_course import gradebook, solution_answers  # noqa: E402

from . import test_nbgrader  # noqa: E402

NOTEBOOK = "05_control"
STUDENTS = ("alice", "bob", "carol", "dave")
#: Bob's slips, each one of the key's typical mistakes: C.1 without the payload, C.3 without
#: the factor 2 (C.2 right)
BOB_WRONG = {"answer-C_1": ('    + given["Mp"] * g * (l * sin(q1) + l * sin(q1 + q2))', ""),
             "answer-C_3": ("2 * given", "given")}


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """nbgrader's release of 05_control as ps1; alice answers with the solutions, bob with
    :data:`BOB_WRONG`, carol hands in the release unchanged, dave a link to the solution; all
    graded for marks by ``dynlab grade submitted/ --keys``."""
    course = tmp_path_factory.mktemp("course")
    (course / "nbgrader_config.py").write_text(test_nbgrader.make_exercises.NBGRADER_CONFIG)
    (course / "source" / "ps1").mkdir(parents=True)
    (course / "source" / "ps1" / f"{NOTEBOOK}.ipynb").write_bytes(
        (ROOT / "solutions" / f"{NOTEBOOK}.ipynb").read_bytes())
    test_nbgrader._nbgrader(course, "generate_assignment", "ps1", "--force")
    release = course / "release" / "ps1" / f"{NOTEBOOK}.ipynb"
    answers = solution_answers(NOTEBOOK)
    wrong = {cell: answers[cell].replace(*change) for cell, change in BOB_WRONG.items()}
    assert all(wrong[cell] != answers[cell] for cell in wrong)
    for student, answered in (("alice", answers), ("bob", {**answers, **wrong}),
                              ("carol", {})):
        notebook = nbformat.read(release, as_version=4)
        for cell in notebook.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
            cell.source = answered.get(grade_id, cell.source)
        folder = course / "submitted" / student / "ps1"
        folder.mkdir(parents=True)
        nbformat.write(notebook, folder / f"{NOTEBOOK}.ipynb")
    (course / "submitted" / "dave" / "ps1").mkdir(parents=True)
    (course / "submitted" / "dave" / "ps1" / f"{NOTEBOOK}.ipynb").symlink_to(
        ROOT / "solutions" / f"{NOTEBOOK}.ipynb")
    folder = instructor_folder(course.parent / f"{course.name}-keys")
    try:
        assert cli.main(["grade", str(course / "submitted"), "--out",
                         str(course / "grades.csv"), "--keys", str(folder)]) == 0
    finally:
        use_keys(None)
    return course


def _page(course: Path, student: str) -> str:
    return (course / "grades.feedback" / f"{student}.html").read_text(encoding="utf-8")


def _rows(page: str) -> dict:
    """``{question: (points text, what the grader found)}`` of a page, unescaped."""
    found = re.findall(r"<tr><td>([^<]+)</td><td>(.*?)</td><td>(.*?)</td></tr>", page, re.S)
    return {html.unescape(q): (html.unescape(p), html.unescape(text)) for q, p, text in found}


def _mistake_messages(question: str) -> list:
    """The messages of the typical mistakes the key of ``question`` names, unsealed."""
    return [unseal(mistake["message"], f"{question}|mistake{index}|message")
            for index, mistake in enumerate(keys()[question].get("mistakes", []))]


def _say(text: str) -> str:
    """A hint or takeaway as the page shows it, unescaped: its first line."""
    return text.split("\n")[0].replace("`", "")


def test_each_student_gets_a_page_of_their_points_what_was_found_and_the_takeaways(course):
    book = gradebook(course / "grades.csv")
    assert sorted(p.name for p in (course / "grades.feedback").iterdir()) == \
        [f"{s}.html" for s in STUDENTS]
    full = {q: float(keys()[q]["points"]) for q in questions(NOTEBOOK)}
    assert sum(full.values()) == 5
    pages = {student: html.unescape(_page(course, student)) for student in STUDENTS}
    rows = {student: _rows(_page(course, student)) for student in STUDENTS[:3]}
    expected = {"alice": full, "bob": {"C.1": 0.0, "C.2": full["C.2"], "C.3": 0.0},
                "carol": dict.fromkeys(full, 0.0)}
    for student, points in expected.items():
        assert f"{sum(points.values()):g} of 5 points" in pages[student]
        assert float(book[student]["total"]) == sum(points.values())     # as the gradebook
        for question, earned in points.items():
            shown, found = rows[student][question]
            assert shown.startswith(f"{earned:g} of {full[question]:g}"), (student, shown)
            takeaway, hint = note(keys()[question], "takeaway"), note(keys()[question], "hint")
            right = earned == full[question]
            assert (_say(takeaway) in found) == right and (_say(hint) in found) != right
    from dynlab.grading.check import check_for_student
    use_keys(course.parent / f"{course.name}-keys")      # the instructor's, as graded
    try:
        for question in questions(NOTEBOOK):             # the check's words, at carol's values
            assert "correct" in rows["alice"][question][1]
            said = check_for_student(question, ..., student="carol",   # the ...
                                     secret=SECRET).messages
            assert rows["carol"][question][1].startswith(said[0]), question
    finally:
        use_keys(None)
    for question in ("C.1", "C.3"):                      # bob's slips, as the key names them
        assert any(message in rows["bob"][question][1]
                   for message in _mistake_messages(question)), rows["bob"][question]
    assert "could not be graded" in pages["dave"] and "symbolic link" in pages["dave"]
    assert "0 of 5 points" in pages["dave"]


def test_a_page_holds_nothing_of_a_classmate_the_secret_the_graded_values_or_the_solution(
        course):
    folder = course / "grades.feedback"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    solution = nbformat.read(ROOT / "solutions" / f"{NOTEBOOK}.ipynb", as_version=4)
    solution_lines = {line.strip() for cell in solution.cells if cell.cell_type == "code"
                      for line in cell.source.split("\n") if "given[" in line}
    for student in STUDENTS:
        path = folder / f"{student}.html"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        page = html.unescape(path.read_text(encoding="utf-8"))
        assert "<script" not in page
        for other in STUDENTS:
            assert (other in page) == (other == student), (student, other)
        assert SECRET not in page
        handed = json.loads(givens(student, SECRET, questions(NOTEBOOK)))["questions"]
        for values in (given["values"] for given in handed.values()):
            for name, value in values.items():
                assert f"{name} = {value:g}" not in page and repr(value) not in page
        assert not any(line in page for line in solution_lines), student


def test_without_user_namespaces_grading_stops_and_says_what_to_do(tmp_path, monkeypatch,
                                                                  capsys):
    """A machine whose Linux refuses user namespaces to users other than root (here Ubuntu's
    AppArmor restriction, read from a /proc/sys of the test's own), graded as such a user:
    bubblewrap stops as it does there.  Grading stops before any submission, names the setting
    and the ways out, exits non-zero, and writes no gradebook and no feedback."""
    submitted = tmp_path / "submitted"
    for student in ("alice", "bob"):
        (submitted / student).mkdir(parents=True)
        (submitted / student / f"{NOTEBOOK}.ipynb").write_bytes(
            (ROOT / "exercises" / f"{NOTEBOOK}.ipynb").read_bytes())
    bwrap = tmp_path / "bwrap"                        # as bubblewrap 0.8 says it on Ubuntu 24.04
    bwrap.write_text("#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\n"
                     "exit 1\n")
    bwrap.chmod(0o755)
    proc_sys = tmp_path / "sys"
    (proc_sys / "kernel").mkdir(parents=True)
    (proc_sys / "kernel" / "apparmor_restrict_unprivileged_userns").write_text("1\n")
    monkeypatch.setattr(sandbox, "BWRAP", str(bwrap))
    monkeypatch.setattr(sandbox, "PROC_SYS", proc_sys, raising=False)   # main: none
    monkeypatch.setattr(sandbox.os, "geteuid", lambda: 1000)   # an instructor who is not root
    sandbox.unavailable.cache_clear()
    try:
        status = cli.main(["grade", str(submitted), "--out", str(tmp_path / "grades.csv")])
    finally:
        sandbox.unavailable.cache_clear()
    error = capsys.readouterr().err
    assert status != 0
    assert "kernel.apparmor_restrict_unprivileged_userns = 1" in error
    assert "setting up uid map: Permission denied" in error       # bubblewrap's own words
    assert "/etc/apparmor.d/bwrap" in error and "userns" in error  # a profile for bwrap alone
    assert "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0" in error
    assert "as root" in error and "No submission was graded" in error
    assert not (tmp_path / "grades.csv").exists() and not (tmp_path / "grades.feedback").exists()


@pytest.mark.parametrize("setting, value, allowing", [
    ("kernel/unprivileged_userns_clone", "0", "kernel.unprivileged_userns_clone=1"),
    ("user/max_user_namespaces", "0", "user.max_user_namespaces=10000"),
])
def test_each_setting_that_refuses_user_namespaces_is_named_with_its_fix(tmp_path, setting,
                                                                         value, allowing):
    (tmp_path / setting).parent.mkdir(parents=True)
    (tmp_path / setting).write_text(value + "\n")
    said = sandbox.userns_refused(tmp_path)
    assert f"{setting.replace('/', '.')} = {value}" in said and f"sysctl -w {allowing}" in said
    (tmp_path / setting).write_text(allowing.split("=")[1] + "\n")   # allowed: nothing said
    assert sandbox.userns_refused(tmp_path) is None


def test_the_course_plan_gives_each_notebook_the_questions_and_points_of_its_keys():
    """The quick start's course plan (solutions/QUICKSTART.md) hands out every exercise notebook
    once, each with the number of questions and the points its keys give (13/12/9/11/5/19/8/6/11/6
    today), and states their total."""
    text = (ROOT / "solutions" / "QUICKSTART.md").read_text(encoding="utf-8")
    shown = {}
    for line in text.split("\n"):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if re.fullmatch(r"\d+", cells[0]) and len(cells) == 7 and cells[3]:
            assert cells[3].strip("`") not in shown, cells[3]
            shown[cells[3].strip("`")] = (int(cells[4]), float(cells[5]))
    from_keys = {name: (len(questions(name)),
                        sum(sum(part_points(keys()[q]).values()) for q in questions(name)))
                 for name in sorted({key["notebook"] for key in keys().values()})}
    assert shown == from_keys
    total = sum(points for _, points in from_keys.values())
    assert f"{sum(len(questions(n)) for n in from_keys)} questions, **{total:g} points**" in text


def test_a_feedback_folder_holding_other_files_is_refused_before_grading(tmp_path, capsys):
    """A run replaces the feedback folder as a whole: where ``grades.feedback`` holds anything
    but pages, nothing is graded and nothing of it is lost."""
    (tmp_path / "submitted" / "alice").mkdir(parents=True)
    (tmp_path / "submitted" / "alice" / f"{NOTEBOOK}.ipynb").write_bytes(
        (ROOT / "exercises" / f"{NOTEBOOK}.ipynb").read_bytes())
    (tmp_path / "grades.feedback").mkdir()
    (tmp_path / "grades.feedback" / "notes.txt").write_text("mine")
    assert cli.main(["grade", str(tmp_path / "submitted"),
                     "--out", str(tmp_path / "grades.csv")]) == 2
    assert "holds more than feedback pages" in capsys.readouterr().err
    assert (tmp_path / "grades.feedback" / "notes.txt").read_text() == "mine"
    assert not (tmp_path / "grades.csv").exists()
