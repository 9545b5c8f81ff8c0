"""Marks from keys the students do not have (issue 24, item 4).

The keys shipped with dynlab are formative: every student has them, and two lines unseal one
(``reference(keys()[q])``).  For marks, the instructor's folder
(``tools/make_answer_keys.py --out``) holds summative keys and the course secret; each question
with givens is graded at the student's graded values, drawn from that secret (which never enters
a student's kernel), and the student's notebook is run again with them.  So a student who unseals
every shipped key and hands in those answers (computed at the practice values the shipped keys
answer) scores 0 on the questions with givens, under ``dynlab grade --keys`` and under nbgrader's
route (``tests/test_nbgrader_variants.py``), while honest, partly wrong and blank submissions keep
their grades.
"""

from __future__ import annotations

import json
import stat
import sys
import tomllib
from pathlib import Path

import nbformat
import pytest

from dynlab.grading import answers, grader, keys, variant
from dynlab.grading.keys import (FORMATIVE, KEY_DIRECTORY, SECRET_FILE, SUMMATIVE,
                                 NotInstructorKeys, held_by_every_student,
                                 reference, use_keys, write_course_secret, write_keys)
from dynlab.grading.scoring import score
from dynlab.grading.variants import GIVENS_VARIABLE, draw, givens, graded_values

sys.path.insert(0, str(Path(__file__).resolve().parent))
from graded_course import dynlab_grade, hand_in  # noqa: E402
from test_variants import BY_HAND, VARIANT_QUESTIONS, right_answer  # noqa: E402

pytestmark = pytest.mark.course

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "06_dalembert_newton_euler_and_simulation"
#: The course secret of the instructor's folder made here (fixed: the same values every run;
#: tests/test_nbgrader_variants.py needs its students' graded values to differ, and they do)
SECRET = "the secret of the test course 1"
CLASS = [f"s{number:03d}" for number in range(30)]


def instructor_folder(folder: Path, secret: str = SECRET) -> Path:
    """An instructor's key folder as ``tools/make_answer_keys.py --out`` writes it: the keys
    (here the shipped ones, rebuilding them all would take minutes) marked summative, and the
    course secret."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in sorted(KEY_DIRECTORY.glob("*.json")):
        data = json.loads(path.read_text())
        write_keys(data["notebook"], data["questions"], folder, route=SUMMATIVE)
    (folder / SECRET_FILE).write_text(secret + "\n")
    return folder


@pytest.fixture
def marks(tmp_path):
    """The instructor's keys in use for the test, and none afterwards."""
    use_keys(instructor_folder(tmp_path / "keys"))
    yield tmp_path / "keys"
    use_keys(None)


def test_grading_for_marks_knows_which_keys_every_student_holds(marks):
    """A question without givens whose instructor's key is the shipped one is held by every
    student (the grader names these); a question with givens is not."""
    for question, key in keys().items():
        assert held_by_every_student(question) == (not key.get("parameters")), question


def unsealed(question: str, student: str) -> float:
    """What a student computes from the shipped key of ``question`` (two lines unseal it) at the
    givens their own notebook shows (their practice values)."""
    key = keys()[question]
    expression = reference(key)[key["parts"][0]["name"]][0]
    return float(expression.subs(dict(variant(question, student=student))))


# -- the package ships no summative key -----------------------------------------------------------
def _shipped_files() -> list:
    """The files of the dynlab package that the wheel takes as package data (pyproject.toml's
    ``[tool.setuptools.package-data]``)."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = settings["tool"]["setuptools"]["package-data"]["dynlab"]
    return sorted({path for pattern in patterns for path in (ROOT / "dynlab").glob(pattern)})


def test_the_wheel_ships_only_formative_keys_and_no_course_secret():
    shipped = _shipped_files()
    key_files = [p for p in shipped if p.parent == KEY_DIRECTORY and p.suffix == ".json"]
    # one key file per graded notebook (solutions/ holds them all)
    assert key_files == sorted(KEY_DIRECTORY.glob("*.json"))
    assert [p.stem for p in key_files] == sorted(p.stem for p in (ROOT / "solutions").glob("*.ipynb"))
    for path in key_files:
        assert json.loads(path.read_text())["route"] == FORMATIVE, path.name
    assert not [p for p in shipped if p.name == SECRET_FILE]
    assert not list((ROOT / "dynlab").rglob(SECRET_FILE))


def test_instructors_keys_cannot_be_written_into_the_package_nor_the_shipped_ones_used(tmp_path):
    with pytest.raises(ValueError, match="inside the dynlab package"):
        write_keys("x", [], KEY_DIRECTORY, route=SUMMATIVE)
    with pytest.raises(NotInstructorKeys, match="shipped with dynlab"):
        use_keys(KEY_DIRECTORY)
    copies = tmp_path / "copies"                  # the shipped files, copied: still formative
    copies.mkdir()
    for path in KEY_DIRECTORY.glob("*.json"):
        (copies / path.name).write_bytes(path.read_bytes())
    (copies / SECRET_FILE).write_text("x\n")
    with pytest.raises(NotInstructorKeys, match="a formative key"):
        use_keys(copies)
    no_secret = instructor_folder(tmp_path / "no_secret")
    (no_secret / SECRET_FILE).unlink()
    with pytest.raises(NotInstructorKeys, match="course secret is missing"):
        use_keys(no_secret)
    from dynlab.grading.keys import summative
    assert not summative()


def test_the_course_secret_is_random_private_and_kept(tmp_path):
    first = write_course_secret(tmp_path)
    text = first.read_text().strip()
    assert len(text) == 64 and int(text, 16) >= 0
    assert stat.S_IMODE(first.stat().st_mode) == 0o600
    assert write_course_secret(tmp_path).read_text().strip() == text      # kept
    assert write_course_secret(tmp_path / "other").read_text().strip() != text


# -- practice and graded values -------------------------------------------------------------------
@pytest.mark.parametrize("question", VARIANT_QUESTIONS)
def test_every_graded_given_differs_from_the_practice_one_and_depends_on_the_secret(question):
    spec = keys()[question]["parameters"]
    for student in CLASS:
        practice = dict(variant(question, student=student))
        graded = graded_values(question, spec, student, SECRET)
        assert graded == dict(variant(question, student=student, secret=SECRET))
        assert all(graded[name] != practice[name] for name in spec), (student, graded)
        assert set(graded) == set(spec)
    ours = [graded_values(question, spec, s, SECRET) for s in CLASS]
    assert ours != [graded_values(question, spec, s, "another course") for s in CLASS]
    assert [dict(variant(question, student=s)) for s in CLASS] == \
        [draw(question, spec, s, "dynlab") for s in CLASS]        # practice: the public salt


def test_the_kernel_is_handed_the_graded_values_never_the_secret():
    handed = givens("alice", SECRET)
    assert SECRET not in handed
    data = json.loads(handed)
    assert data["student"] == "alice"
    with_givens = sorted(q for q, key in keys().items() if key.get("parameters"))
    assert set(VARIANT_QUESTIONS) <= set(with_givens)
    # and under the name questions about one arm share their values by (variant("3.16"); a
    # name may be one of the questions too, variant("3.5") for Probs. 3.5 to 3.8)
    shared = sorted({key["shared"] for key in keys().values() if key.get("shared")})
    assert sorted(data["questions"]) == sorted(set(with_givens) | set(shared))
    for question in with_givens + shared:
        assert data["questions"][question]["values"] == dict(
            variant(question, student="alice", secret=SECRET))
    assert json.loads(givens("alice", None))["questions"]["D.1"]["values"] == dict(
        variant("D.1", student="alice"))                             # formative: practice


def test_a_kernel_shows_the_values_it_was_handed_for_its_own_student(monkeypatch):
    monkeypatch.setenv("DYNLAB_STUDENT", "alice")
    monkeypatch.setenv(GIVENS_VARIABLE, givens("alice", SECRET))
    assert dict(variant("D.2")) == dict(variant("D.2", student="alice", secret=SECRET))
    assert dict(variant("D.2")) != draw("D.2", keys()["D.2"]["parameters"], "alice", "dynlab")
    monkeypatch.setenv("DYNLAB_STUDENT", "bob")               # handed for another student
    assert dict(variant("D.2")) == draw("D.2", keys()["D.2"]["parameters"], "bob", "dynlab")


# -- scoring ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("question", BY_HAND)
def test_unsealed_shipped_answers_score_0_for_marks_and_honest_ones_full(question, marks):
    """Every student of a class hands in what the shipped key gives at their practice values:
    0 for marks.  The answer at their graded values earns the points."""
    for student in CLASS:
        cheat = unsealed(question, student)
        assert cheat == pytest.approx(right_answer(question, variant(question, student=student)),
                                      rel=2e-3)                   # the unsealing works
        assert score(question, answers.serialize(cheat), student=student).total == 0, student
        honest = right_answer(question, variant(question, student=student, secret=SECRET))
        graded = score(question, answers.serialize(honest), student=student)
        assert graded.total == sum(graded.maximum.values()) > 0, (student, graded.reasons)


def test_without_the_instructors_keys_the_unsealed_answer_earns_the_points():
    """Why marks need the instructor's keys: formative grading is what the student has."""
    cheat = unsealed("D.1", "alice")
    assert score("D.1", answers.serialize(cheat), student="alice").total == 1


def test_a_question_the_instructors_keys_lack_is_not_graded_for_marks(tmp_path):
    folder = instructor_folder(tmp_path / "keys")
    data = json.loads((folder / f"{NOTEBOOK}.json").read_text())
    write_keys(NOTEBOOK, [k for k in data["questions"] if k["id"] != "S.1"], folder,
               route=SUMMATIVE)
    use_keys(folder)
    try:
        right = right_answer("S.1", variant("S.1", student="alice", secret=SECRET))
        graded = score("S.1", answers.serialize(right), student="alice")
        assert graded.total == 0 and "hold no key of it" in graded.reasons[0]
        (tmp_path / "blank.ipynb").write_text(nbformat.writes(nbformat.v4.new_notebook()))
        with pytest.raises(RuntimeError, match="hold no key of S.1"):
            grader.grade_submissions([tmp_path / "blank.ipynb"], solutions=ROOT / "solutions")
    finally:
        use_keys(None)


# -- dynlab grade --keys: the notebook run again with the graded values ---------------------------
ANSWER_NAMES = {"D.1": "c1", "D.2": "h2", "S.1": "T"}
HONEST = {                     # what the questions ask, computed from the givens the kernel shows
    "D.1": 'c1 = 9.8062 * ((1 + given["m2"] + given["Mp"]) * 0.5 + given["m2"] / 2 + given["Mp"])',
    "D.2": 'h2 = 1.0 * math.sin(-math.pi / 3) * given["qd1"] ** 2 / 2',
    "S.1": ('from scipy.special import ellipk\n'
            'T = (2 * math.pi * math.sqrt(2 * 0.5 / (3 * 9.8062)) * 2 / math.pi\n'
            '     * ellipk(math.sin(math.radians(given["amplitude"]) / 2) ** 2))'),
}
#: Unsealing at grading time, in the kernel: the shipped keys evaluated at the kernel's givens
UNSEAL_IN_KERNEL = ('from dynlab.grading.keys import keys, reference\n'
                    '_key = keys()["{q}"]\n'
                    '{name} = float(reference(_key)[_key["parts"][0]["name"]][0]'
                    '.subs(dict(given)))')


def _notebook(answers_by_question: dict) -> nbformat.NotebookNode:
    """A submitted notebook 06 answering D.1, D.2 and S.1 (each after its ``given`` cell, its
    check cell keeping its grade id); a question missing from ``answers_by_question`` keeps the
    stub."""
    cells = [nbformat.v4.new_code_cell("import math\nfrom dynlab.grading import check, variant")]
    for question, name in ANSWER_NAMES.items():
        cells.append(nbformat.v4.new_code_cell(f'given = variant("{question}")\ngiven'))
        cells.append(nbformat.v4.new_code_cell(answers_by_question.get(question,
                                                                       f"{name} = ...")))
        check = nbformat.v4.new_code_cell(f'check("{question}", {name})')
        grade_id = "check-" + question.replace(".", "_")
        check.metadata["nbgrader"] = {"grade": True, "grade_id": grade_id, "locked": True,
                                      "points": keys()[question]["points"],
                                      "schema_version": 3, "solution": False, "task": False}
        cells.append(check)
    return nbformat.v4.new_notebook(cells=cells)


def _class() -> dict:
    """``{student: (notebook, expected points of D.1, D.2, S.1)}``."""
    wheel = {q: f"{name} = {unsealed(q, 'eve')!r}     # unsealed from the shipped key"
             for q, name in ANSWER_NAMES.items()}
    in_kernel = {q: UNSEAL_IN_KERNEL.format(q=q, name=name) for q, name in ANSWER_NAMES.items()}
    partly = dict(HONEST, **{"D.2": HONEST["D.2"] + "\nh2 = -h2     # a sign slip"})
    full = {"D.1": 1.0, "D.2": 1.0, "S.1": 2.0}
    return {"alice": (_notebook(HONEST), full),
            "eve": (_notebook(wheel), {"D.1": 0.0, "D.2": 0.0, "S.1": 0.0}),
            "mallory": (_notebook(in_kernel), {"D.1": 0.0, "D.2": 0.0, "S.1": 0.0}),
            "pat": (_notebook(partly), {"D.1": 1.0, "D.2": 0.0, "S.1": 2.0}),
            "blank": (_notebook({}), {"D.1": 0.0, "D.2": 0.0, "S.1": 0.0})}


@pytest.mark.end_to_end
def test_dynlab_grade_with_the_instructors_keys_gives_unsealed_answers_0(tmp_path, capsys):
    """``dynlab grade --keys``: honest, partly wrong and blank submissions get their points at
    the graded values; the shipped keys' answers, handed in as numbers (eve) or unsealed in the
    kernel while it is graded (mallory: the sandbox shows no shipped key), get 0."""
    course = _class()
    expected = {student: points for student, (_, points) in course.items()}
    submitted = hand_in(tmp_path / "submitted", NOTEBOOK,
                        {student: notebook for student, (notebook, _) in course.items()})
    rows = dynlab_grade(submitted, tmp_path / "grades.csv",
                        keys=instructor_folder(tmp_path / "keys"), notebook_time_limit=200)
    shown = capsys.readouterr()
    assert "marks, from the instructor's keys" in shown.out
    assert grader.FORMATIVE_WARNING not in shown.err
    # every question has givens: no key is one every student holds, and no note names one
    assert all(keys()[e.question].get("parameters")
               for entries in grader.solution_questions().values() for e in entries)
    assert "have no givens" not in shown.err
    got = {student: {q: float(rows[student][f"{q} {ANSWER_NAMES[q]}"]) for q in ANSWER_NAMES}
           for student in expected}
    assert got == expected, {s: rows[s]["notes"] for s in rows}
    assert "KeyError" in rows["mallory"]["notes"]              # no shipped key in the sandbox


@pytest.mark.end_to_end
def test_dynlab_grade_without_the_instructors_keys_says_it_grades_formatively(tmp_path, capsys):
    """The same unsealed numbers earn full points from the shipped keys: the grader says on every
    run that these grades are formative, not marks."""
    notebook, _ = _class()["eve"]
    hand_in(tmp_path, NOTEBOOK, {"eve": notebook})
    rows = dynlab_grade(tmp_path / "eve", tmp_path / "grades.csv")
    shown = capsys.readouterr()
    assert grader.FORMATIVE_WARNING in shown.err
    assert "formative grades, from the keys every student has" in shown.out
    row, = rows.values()
    assert {q: float(row[f"{q} {name}"]) for q, name in ANSWER_NAMES.items()} == \
        {"D.1": 1.0, "D.2": 1.0, "S.1": 2.0}
