"""Marks from keys the students do not have (issue 24, item 4; issue 40, item 7).

The keys shipped with dynlab are formative: every student has them, and two lines unseal one
(``reference(keys()[q])``); they answer the practice values only (the same for every student),
never as a formula in the givens.  For marks, the instructor's folder
(``tools/make_answer_keys.py --out``) holds summative keys and the course secret; each question
with givens is graded at the student's graded values, drawn from that secret (which never enters
a student's kernel), and the student's notebook is run again with them.  So a student who unseals
every shipped key and hands in those answers (computed at the practice values the shipped keys
answer) scores 0 on the questions with givens, under ``dynlab grade --keys`` and under nbgrader's
route (``tests/product/test_nbgrader_variants.py``), and so does a notebook that evaluates what each
shipped key holds at the graded values its kernel is handed, while honest, partly wrong and blank
submissions keep their grades.
"""

from __future__ import annotations

import functools
import json
import re
import stat
from pathlib import Path

import nbformat
import numpy as np
import pytest
import sympy
import tomllib

from dynlab.grading import answers, grader, keys, variant
from dynlab.grading.authoring import write_course_secret, write_keys
from dynlab.grading.keys import (
    FORMATIVE,
    KEY_DIRECTORY,
    SECRET_FILE,
    SUMMATIVE,
    NotInstructorKeys,
    held_by_every_student,
    reference,
    shipped_key,
    use_keys,
)
from dynlab.grading.scoring import points_of_data
from dynlab.grading.sealing import salted_hash, unseal
from dynlab.grading.variants import GIVENS_VARIABLE, draw, givens, graded_values, turned
from tests.support.graded_course import answered, dynlab_grade, hand_in, solution_answers

from .by_hand.numbers import right as right_answer

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "06_dalembert_newton_euler_and_simulation"
#: The course secret of the instructor's folder made here (fixed: the same values every run;
#: tests/product/test_nbgrader_variants.py needs its students' graded values to differ, and they do)
SECRET = "the secret of the test course 1"
CLASS = [f"s{number:03d}" for number in range(30)]
#: Every question with givens (its key has parameters)
VARIANT_QUESTIONS = tuple(q for q, key in keys().items() if key.get("parameters"))


#: The instructor's keys of the workbook, committed (tools/make_answer_keys.py writes them).
INSTRUCTOR_KEYS = ROOT / "solutions" / "answer_keys"


def instructor_folder(folder: Path, secret: str = SECRET) -> Path:
    """An instructor's key folder as ``tools/make_answer_keys.py --out`` writes it: the keys
    (here the committed ones, rebuilding them all would take minutes), and the course secret."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in sorted(INSTRUCTOR_KEYS.glob("*.json")):
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
    expression = sympy.sympify(reference(key)[key["parts"][0]["name"]][0])
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
    notebooks = (ROOT / "solutions").glob("*.ipynb")
    assert [p.stem for p in key_files] == sorted(p.stem for p in notebooks)
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
    # practice: the public salt, for no student: the same for everyone
    assert [dict(variant(question, student=s)) for s in CLASS] == \
        [draw(question, spec, "", "dynlab")] * len(CLASS)


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
    assert str(variant("D.2")).startswith("Your values for D.2 (student 'alice')")
    practice = draw("D.2", keys()["D.2"]["parameters"], "", "dynlab")
    assert dict(variant("D.2")) != practice
    monkeypatch.setenv(GIVENS_VARIABLE, givens("bob", None))  # formative grading: practice
    assert dict(variant("D.2")) == practice and str(variant("D.2")).startswith("Practice values")


# -- scoring ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("question", ("D.1", "D.2", "S.1", "S.2"))
def test_unsealed_shipped_answers_score_0_for_marks_and_honest_ones_full(question, marks):
    """Every student of a class hands in what the shipped key gives at their practice values:
    0 for marks.  The answer at their graded values earns the points."""
    for student in CLASS:
        cheat = unsealed(question, student)
        assert cheat == pytest.approx(right_answer(question, variant(question, student=student)),
                                      rel=2e-3)                   # the unsealing works
        cheated = points_of_data(question, answers.serialize(cheat), student=student)
        assert cheated.total == 0, student
        honest = right_answer(question, variant(question, student=student, secret=SECRET))
        graded = points_of_data(question, answers.serialize(honest), student=student)
        assert graded.total == sum(graded.maximum.values()) > 0, (student, graded.reasons)


def test_without_the_instructors_keys_the_unsealed_answer_earns_the_points():
    """Why marks need the instructor's keys: formative grading is what the student has."""
    cheat = unsealed("D.1", "alice")
    assert points_of_data("D.1", answers.serialize(cheat), student="alice").total == 1


# -- a shipped key answers the practice values only (issue 40, item 7) ---------------------------
#: The parts no given changes, the same for every student (solutions/README.md, "What your keys
#: protect"): the only points a shipped key can give for marks
SAME_FOR_EVERYONE = {("3.3", "coriolis"), ("3.5", "I_centre"), ("3.6", "I_centre"),
                     ("3.17a", "omega0"), ("3.17a", "omega_dot0"), ("3.17c", "p1"),
                     ("6-4-1", "c"), ("G.2", "h_rot")}
WITH_GIVENS = tuple(q for q, key in keys().items() if key.get("parameters"))


def held(key: dict) -> dict:
    """``{part or ("mistake", i): [SymPy expressions]}``: what ``key`` holds, unsealed (two lines
    of a student's, past the grader's cache)."""
    sealed = (tuple((part["name"], part["reference"]) for part in key["parts"]),
              tuple(mistake["value"] for mistake in key.get("mistakes", [])))
    return {where: list(exprs) for where, exprs in _unsealed(key["id"], *sealed).items()}


@functools.cache              # parsing a key's texts takes SymPy ~0.1 s; the tests ask often
def _unsealed(question: str, parts: tuple, mistakes: tuple) -> dict:
    found = {name: json.loads(unseal(sealed, f"{question}|{name}")) for name, sealed in parts}
    for index, sealed in enumerate(mistakes):
        found[("mistake", index)] = json.loads(unseal(sealed, f"{question}|mistake{index}"))
    return {where: [sympy.sympify(text) for text in texts] for where, texts in found.items()}


def from_the_shipped_key(question: str, given: dict, part_values: dict | None = None):
    """The answer a notebook built from the shipped key of ``question`` hands in at the givens
    ``given``: each element the key holds, with ``given`` put in where it is a formula in them
    (``part_values``: some parts' elements from elsewhere, a typical mistake's); a choice's
    right letter, in ``given``'s order where the key holds it in the unturned one."""
    key = shipped_key(question)
    if key["kind"] == "choice":
        options = key["options"]
        right = next(o for o in options if salted_hash(question, "choice", o) == key["answer"])
        if "practice" in key:
            return right
        return options[turned(options, given["turn"]).index(right)]
    elements = dict(held(key), **(part_values or {}))
    answer = []
    for part in key["parts"]:
        leaves = [e.subs({s: given[s.name] for s in e.free_symbols if s.name in given})
                  for e in elements[part["name"]]]
        leaves = [float(e) for e in leaves] if key["kind"] == "numeric" else leaves
        answer.append(np.array(leaves, dtype=object).reshape(part["shape"]).tolist()
                      if part["shape"] else leaves[0])
    return answer[0] if len(answer) == 1 else tuple(answer)


def test_the_shipped_keys_hold_no_formula_in_the_givens():
    """Every committed shipped key of a question with givens is sealed at the practice values
    its notebook shows: no reference or typical mistake holds a given's symbol; and the
    instructor's keys are formulas in them (parts the same for everyone aside)."""
    for path in sorted(KEY_DIRECTORY.glob("*.json")):
        for key in json.loads(path.read_text())["questions"]:
            if not key.get("parameters"):
                continue
            question, names = key["id"], set(key["parameters"])
            assert key.get("practice") == dict(variant(question, student="anyone")), question
            if key["kind"] == "choice":
                continue
            for where, elements in held(key).items():
                symbols = {s.name for e in elements for s in e.free_symbols}
                assert not symbols & names, (question, where, sorted(symbols & names))
    for path in sorted(INSTRUCTOR_KEYS.glob("*.json")):
        data = json.loads(path.read_text())
        assert data["route"] == SUMMATIVE, path.name
        for key in data["questions"]:
            assert "practice" not in key, key["id"]
            for part in key.get("parts", []) if key.get("parameters") else []:
                symbols = {s.name for e in held(key)[part["name"]] for s in e.free_symbols}
                assert bool(symbols & set(key["parameters"])) == (
                    (key["id"], part["name"]) not in SAME_FOR_EVERYONE), (key["id"], part)


@pytest.mark.parametrize("question", WITH_GIVENS)
def test_what_a_shipped_key_holds_is_right_at_the_practice_values_only(question):
    """The practice check: what the shipped key holds earns full points at the practice values
    (formative grading, for any student), and at any graded values the instructor's keys would
    use, ``check()`` with the shipped key says it cannot grade them."""
    practice = dict(variant(question, student="alice"))
    answer = from_the_shipped_key(question, practice)
    for student in ("alice", "bob"):
        got = points_of_data(question, answers.serialize(answer), student=student)
        assert got.total == sum(got.maximum.values()), (student, str(got.feedback))
    from dynlab.grading.check import _check
    graded = dict(variant(question, student="alice", secret=SECRET))
    feedback = _check(question, answer, graded, None)
    assert feedback.status == "not graded" and "practice values only" in feedback.messages[0]


@pytest.mark.parametrize("question", WITH_GIVENS)
def test_what_a_shipped_key_holds_earns_for_marks_only_the_parts_the_same_for_everyone(
        question, marks):
    """A notebook built from the shipped keys (each answer what the key holds, evaluated at the
    graded values its kernel is handed) earns nothing for marks in every part the givens
    change: the shipped key holds the reference at the practice values, which no graded value
    equals."""
    expected = {part for q, part in SAME_FOR_EVERYONE if q == question}
    for student in CLASS[:5]:
        graded = dict(variant(question, student=student, secret=SECRET))
        got = points_of_data(question, answers.serialize(from_the_shipped_key(question, graded)),
                             student=student)
        assert {part for part, points in got.points.items() if points} == expected, \
            (student, got.points, str(got.feedback))


@pytest.mark.parametrize("question", [q for q in WITH_GIVENS
                                      if shipped_key(q).get("mistakes")])
def test_each_typical_mistake_is_named_at_the_practice_values(question):
    """Each typical mistake the shipped key holds, handed in at the practice values (its part
    the mistake, the others right), is wrong in that part and its feedback names the mistake
    (or one of the same part with the same value: 3.18's axis of gravity and angle from the
    vertical give the same c)."""
    key = shipped_key(question)
    practice = dict(variant(question, student="alice"))
    values = held(key)
    for index, mistake in enumerate(key["mistakes"]):
        wrong = values[("mistake", index)]
        answer = from_the_shipped_key(question, practice, {mistake["part"]: wrong})
        got = points_of_data(question, answers.serialize(answer), student="alice")
        named = [unseal(other["message"], f"{question}|mistake{k}|message")
                 for k, other in enumerate(key["mistakes"])
                 if other["part"] == mistake["part"] and values[("mistake", k)] == wrong]
        assert got.points[mistake["part"]] == 0, (index, got.points)
        assert any(message in str(got.feedback) for message in named), \
            (index, named, str(got.feedback))


def test_a_shipped_key_refuses_other_values_and_is_never_an_instructors(tmp_path):
    from dynlab.grading.compare import prepare
    key = shipped_key("C.3")
    other = dict(variant("C.3", student="alice", secret=SECRET))
    with pytest.raises(ValueError, match="practice values only"):
        prepare(key, other)
    with pytest.raises(ValueError, match="shipped ones, at the practice values only"):
        write_keys("05_control", [key], tmp_path, route=SUMMATIVE)
    theirs = next(k for k in json.loads((INSTRUCTOR_KEYS / "05_control.json").read_text())[
        "questions"] if k["id"] == "C.3")
    with pytest.raises(ValueError, match="formulas in their givens"):
        write_keys("05_control", [theirs], tmp_path, route=FORMATIVE)


def test_a_question_the_instructors_keys_lack_is_not_graded_for_marks(tmp_path):
    folder = instructor_folder(tmp_path / "keys")
    data = json.loads((folder / f"{NOTEBOOK}.json").read_text())
    write_keys(NOTEBOOK, [k for k in data["questions"] if k["id"] != "S.1"], folder,
               route=SUMMATIVE)
    use_keys(folder)
    try:
        right = right_answer("S.1", variant("S.1", student="alice", secret=SECRET))
        graded = points_of_data("S.1", answers.serialize(right), student="alice")
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


#: An answer cell built from the shipped keys: each part's elements as the key holds them (SymPy's
#: text), the givens the kernel shows put in where an element is a formula in them
BUILT_FROM_THE_SHIPPED_KEY = """import numpy as np
import sympy
_parts = []
for _texts, _shape in {parts!r}:
    _leaves = [sympy.sympify(_text) for _text in _texts]
    _leaves = [_e.subs({{_s: given[_s.name] for _s in _e.free_symbols if _s.name in given}})
               for _e in _leaves]
    _parts.append(np.array(_leaves, dtype=object).reshape(_shape).tolist() if _shape
                  else _leaves[0])
{names} = _parts[0] if len(_parts) == 1 else tuple(_parts)
"""


def built_from_the_shipped_keys(notebook: str) -> dict:
    """``{grade_id: source}``: each answer cell of ``exercises/<notebook>.ipynb`` built from the
    shipped key of its question (:data:`BUILT_FROM_THE_SHIPPED_KEY`), assigning what the check
    cell below it checks."""
    release = nbformat.read(ROOT / "exercises" / f"{notebook}.ipynb", as_version=4)
    built = {}
    for cell in release.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if grade_id.startswith("check-"):
            question, names = re.fullmatch(r'check\("([^"]+)", (.+)\)',
                                           cell.source.strip()).groups()
            key = shipped_key(question)
            parts = [([sympy.srepr(e) for e in held(key)[part["name"]]], part["shape"])
                     for part in key["parts"]]
            built["answer-" + grade_id[len("check-"):]] = BUILT_FROM_THE_SHIPPED_KEY.format(
                parts=parts, names=names)
    return built


@pytest.mark.end_to_end
def test_a_notebook_built_from_the_shipped_keys_earns_nothing_for_marks(tmp_path, capsys):
    """``dynlab grade --keys``, in its sandbox: notebook 05's answers built from the shipped keys
    (evaluated at the graded values the kernel is handed) earn 0 in every part; the solution's
    own answers, full points."""
    notebook = "05_control"
    submitted = hand_in(tmp_path / "submitted", notebook, {
        "eve": answered(notebook, built_from_the_shipped_keys(notebook)),
        "alice": answered(notebook, solution_answers(notebook))})
    rows = dynlab_grade(submitted, tmp_path / "grades.csv",
                        keys=instructor_folder(tmp_path / "keys"), notebook_time_limit=200)
    assert "marks, from the instructor's keys" in capsys.readouterr().out
    columns = [f"{q} {part['name']}" for q in ("C.1", "C.2", "C.3")
               for part in keys()[q]["parts"]]
    assert {column: float(rows["eve"][column]) for column in columns} == \
        {column: 0.0 for column in columns}, rows["eve"]["notes"]
    assert float(rows["alice"]["total"]) == float(rows["alice"]["max"]) == sum(
        keys()[q]["points"] for q in ("C.1", "C.2", "C.3")), rows["alice"]["notes"]


def test_the_instructors_keys_are_readable_by_their_owner_only(tmp_path):
    """The folder ``tools/make_answer_keys.py --out`` fills holds the references of every
    student's graded values: 700 and 600, as the course secret beside them (a new instructor
    trying the guide found it 755 and 644); a key file written before with a wider mode is
    narrowed."""
    folder = tmp_path / "keys"
    folder.mkdir(mode=0o755)
    (folder / "05_control.json").write_text("{}")
    (folder / "05_control.json").chmod(0o644)
    instructor_folder(folder)
    assert folder.stat().st_mode & 0o777 == 0o700
    modes = {path.name: path.stat().st_mode & 0o777 for path in folder.glob("*.json")}
    assert len(modes) == 10 and set(modes.values()) == {0o600}, modes
