"""Variants (issue 24, items 4 and 5; issue 40, item 7): the givens of every question with
parameters have practice values, one set for everyone, which check() and formative grading use,
and graded values per student, drawn from the student id and the course secret, which marks use;
an answer copied from a classmate earns only the parts no given changes.

One table, :data:`TABLE`: each question with givens, the module of tests/course/by_hand/ that
writes its right answer and its typical mistakes by hand (from the printed formulas, with their
sources; never from a key), the parts the same for every student, the printed values no student
gets, and what else its checks need.  Each check below runs over the table.  (The keys
themselves: tests/course/test_instructor_keys.py; checks of one chapter's questions:
tests/course/test_variants_chapters.py.)"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
import sympy
from sympy import Rational

from dynlab.grading import Session, check, check_for_student, keys, student_id, summary, variant
from dynlab.grading.answers import serialize
from dynlab.grading.authoring import APART
from dynlab.grading.keys import part_points, use_keys
from dynlab.grading.scoring import points_of_data as grader_score
from dynlab.grading.variants import PRACTICE_SALT, draw, graded_values, grid_values, practice_values

from .by_hand import (
    ceiling,
    entries,
    formulas,
    frames,
    identifying,
    links,
    modern,
    numbers,
    other_arms,
    recursions,
    sizing,
    structure,
    symbolic,
)
from .test_feedback_secrecy import key_texts, leaked
from .test_instructor_keys import SECRET, instructor_folder


@dataclass(frozen=True)
class Row:
    """A question's line of the table."""

    hand: ModuleType                  #: its answers by hand (``right``, ``mistakes``, ``AT``)
    shared: tuple = ()                #: the parts no given changes (a copy earns their points)
    book: dict = field(default_factory=dict)   #: {given: printed values no student gets}
    uses: tuple = ()                  #: the givens its answer depends on (() for all)
    stride: int = 1                   #: every stride-th point of the grids is checked
    stray: object = None              #: a term not in its answer (the secrecy check), or None
    factor: tuple | None = None       #: the entries a copy may be told a factor of (None: any)


ARM = {"rho1": (1.0, 0.5), "rho2": (1.0, 0.5), "a_lift": (0.0,), "e": (0.0,), "w": (0.0,)}
BODY = {"dx": (1.0,)}
TABLE = {
    # chapter 01, Fu, Gonzalez & Lee, Probs. 3.2, 3.3, 3.5-3.8
    "3.2": Row(frames, book={"kx": (3.0,), "ky": (2.0,)}, stray=frames.t**2),
    "3.3": Row(frames, ("coriolis",), {"w": (1.0,)}, stray=frames.t**2),
    "3.5": Row(frames, ("I_centre",), BODY, stray=frames.M**2 * frames.a**3),
    "3.6": Row(frames, ("I_centre",), BODY, stray=frames.M**2 * frames.a**3),
    "3.7": Row(frames, (), BODY, stray=frames.M**2 * frames.a**3),
    "3.8": Row(frames, (), BODY, stray=frames.M**2 * frames.a**3),
    # chapter 02, Probs. 3.13, 3.16, 3.17: the arm on the ceiling
    "3.13a": Row(numbers, factor=()),
    "3.13b": Row(links, uses=("turn",)),
    "3.16a": Row(links, book=ARM, uses=("e",)),
    "3.16b": Row(ceiling, book=ARM, uses=("rho1", "rho2", "w"), factor=()),
    "3.16c": Row(ceiling, book=ARM, uses=("rho1", "rho2", "a_lift"), factor=()),
    "3.17a": Row(ceiling, ("omega0", "omega_dot0"), ARM, uses=("a_lift",), factor=()),
    "3.17b": Row(links, book=ARM, uses=("w",)),
    "3.17c": Row(ceiling, ("p1",), ARM, uses=("rho1", "rho2", "e"), factor=("p2[2]",)),
    "3.17d": Row(ceiling, book=ARM, uses=("rho1", "rho2", "a_lift"), factor=()),
    # chapter 03, Probs. 3.11, 3.12, 3.14, 3.18, Schilling's Exercise 6-4-1
    "3.11": Row(numbers, stride=37, factor=()),
    "3.12": Row(other_arms, stray=3, factor=()),
    "3.14": Row(formulas, book={"J12": (0.0,), "J14": (0.0,), "J44": (1.0,)}, stride=53,
                stray=Rational(3, 7)),
    "3.18": Row(other_arms, book={"e": (0.0,)}, factor=(),
                stray=other_arms.m1 * other_arms.r1 * sympy.sin(other_arms.q2)),
    "6-4-1": Row(other_arms, ("c",), {"alpha": (0.0, 90.0)}, factor=(),
                 stray=other_arms.m * other_arms.a * other_arms.d),
    # chapter 04, Lynch & Park, Sec. 8.1.1 and Prop. 8.1, Sec. 8.6, Y
    "9.1": Row(structure, stray=structure.m1 * structure.L1**2 * sympy.sin(structure.q1)),
    "9.98": Row(structure, stray=structure.m1 * structure.L1**2 * sympy.sin(structure.q1)),
    "Y": Row(formulas, book={"beta": (0.0, 45.0, 90.0), "L1": (1.0,)},
             stray=formulas.g * formulas.qd1 * formulas.qd2 * formulas.C12),
    # chapter 05, control
    "C.1": Row(modern, book={"Mp": (0.0,)},
               stray=modern.m1 * modern.g * modern.l * sympy.sin(modern.q2)),
    "C.2": Row(symbolic, stray=symbolic.m1 * symbolic.a1 * sympy.sin(symbolic.q1)),
    "C.3": Row(symbolic, stray=symbolic.Kp * symbolic.m1),
    "k12": Row(symbolic, stray=symbolic.m1 * symbolic.a1 * sympy.sin(symbolic.q1)),
    "Mp": Row(symbolic, stray=symbolic.Mp * symbolic.l1 * symbolic.l2 * sympy.sin(symbolic.q2)),
    # chapter 06, G-D and Newton-Euler; the dashboard's D.1, D.2
    "D.1": Row(numbers),
    "D.2": Row(numbers),
    "N.1": Row(formulas, book={"alpha1": (0.0, 45.0, 90.0)},
               stray=formulas.g * formulas.qd1 * formulas.qd2 * formulas.C12),
    "G.1": Row(recursions, book={"lam": (1.0,)},
               stray=recursions.m2 * recursions.l**2 * recursions.S2),
    "G.2": Row(recursions, ("h_rot",), {"lam": (1.0,)},
               stray=recursions.m2 * recursions.l * recursions.qd1 * recursions.qd2
               * recursions.C2),
    "N.2": Row(recursions, book={"lam": (1.0,)},
               stray=recursions.m2 * recursions.l * recursions.qd1 * recursions.qd2
               * recursions.C2),
    "N.3": Row(recursions, book={"lam": (1.0,)},
               stray=recursions.m2 * recursions.l * recursions.qd1 * recursions.qd2
               * recursions.C2),
    "N.4": Row(recursions, book={"phi": (90.0,)},
               stray=recursions.m1 * recursions.g * recursions.S1),
    "S.1": Row(numbers),
    "S.2": Row(numbers, factor=()),
    # chapter 07, Lynch & Park, Ch. 8
    **{q: Row(modern, book={"d": (0.5, 1.0), "rho": (0.5, 1.0)}, stray=stray) for q, stray in (
        ("T.1", modern.m * modern.l * sympy.sin(modern.theta)),
        ("T.2", modern.L1 * modern.qd1 * modern.qd2),
        ("T.3", modern.m2 * modern.L2 * sympy.cos(modern.q2) * modern.qd1),
        ("T.4", modern.m1 * modern.L2**2 * sympy.sin(modern.q2)))},
    # chapters 08, 09: the UR20, sizing the PUMA 560's motors
    **{q: Row(sizing) for q in ("U.1", "U.2", "U.3", "A.1", "A.2", "A.3", "A.4", "A.5", "A.6",
                                "A.7")},
    # chapter 12: identifying an arm
    **{q: Row(identifying) for q in ("I.1", "I.2", "I.3", "I.4")},
}
#: Every question with givens (its key has parameters)
VARIANT_QUESTIONS = tuple(q for q, key in keys().items() if key.get("parameters"))
CLASS = [f"s{number:03d}" for number in range(40)]


def right(question: str, given: dict):
    return by_hand(question, "right", tuple(dict(given).items()))


def mistakes(question: str, given: dict) -> list:
    return by_hand(question, "mistakes", tuple(dict(given).items()))


@functools.lru_cache(maxsize=4096)
def by_hand(question: str, what: str, given: tuple):
    """The hand module's ``right`` or ``mistakes`` of ``question`` at ``given`` (``((name,
    value), ...)``), written once per run: the checks below ask for the same ones many times,
    and only read them."""
    return getattr(TABLE[question].hand, what)(question, dict(given))


def rows(applies=lambda question, row: True) -> list:
    return [question for question, row in TABLE.items() if applies(question, row)]


# -- the class, the keys for marks, the grader -----------------------------------------------------
def classmates(question: str) -> tuple:
    """Two students whose graded values of ``question`` differ in every given (the second from
    a class of 200: with six givens, few of 12 differ in all)."""
    mine = dict(variant(question, student=CLASS[0], secret=SECRET))
    other = next(s for s in (f"s{number:03d}" for number in range(1, 200)) if all(
        value != mine[name]
        for name, value in variant(question, student=s, secret=SECRET).items()))
    return CLASS[0], other


@contextlib.contextmanager
def instructor_keys_in_use():
    """The instructor's keys and the course secret :data:`SECRET` in use (marks), and none
    afterwards."""
    use_keys(instructor_keys_folder().name)
    try:
        yield
    finally:
        use_keys(None)


@functools.cache
def instructor_keys_folder() -> tempfile.TemporaryDirectory:
    """The instructor's key folder of :data:`SECRET`, made once per run (no check writes to it;
    removed at exit)."""
    folder = tempfile.TemporaryDirectory()
    instructor_folder(Path(folder.name))
    return folder


def score(question: str, answer, student: str):
    """The grader's Score (the answer handed out of the kernel as data, scored outside it)."""
    return grader_score(question, serialize(answer), student=student)


def full(question: str) -> float:
    return float(keys()[question]["points"])


def shared_points(question: str) -> float:
    """The points of the parts no given changes: what a copied answer keeps."""
    return sum(share for part, share in part_points(keys()[question]).items()
               if part in TABLE[question].shared)


def names(question: str) -> list:
    """The names of the parts of the question's answer (a choice: one)."""
    return [part["name"] for part in keys()[question].get("parts", [{"name": "choice"}])]


def split(question: str, answer) -> list:
    """The answer's parts, in the key's order."""
    return list(answer) if len(names(question)) > 1 else [answer]


def test_the_table_holds_every_question_with_givens():
    assert set(TABLE) == set(VARIANT_QUESTIONS)


# -- the givens ------------------------------------------------------------------------------------
@pytest.mark.parametrize("question", rows())
def test_the_givens_are_on_round_grids_without_the_printed_values(question):
    """At least 4 values a given, with a text and a unit, none named as a symbol of the answer,
    none the printed problem's; every graded given differs from its practice value."""
    key = keys()[question]
    assert key["parameters"]
    for name, spec in key["parameters"].items():
        grid = grid_values(spec)
        assert len(grid) >= 4 and spec["text"] and "unit" in spec, name
        assert name not in {n for n, _ in key.get("symbols", [])}
        assert not set(grid) & set(TABLE[question].book.get(name, ())), name
    for student in CLASS[:6]:
        practice = variant(question, student=student)
        graded = variant(question, student=student, secret=SECRET)
        assert all(graded[name] != practice[name] for name in practice), student


@pytest.mark.parametrize("question", VARIANT_QUESTIONS)
def test_the_values_are_the_same_every_time_on_the_grid_and_spread_over_the_class(question):
    """The practice values: one set on the grids, the same for every student; the graded ones:
    the same every time, on the grids and spread over the class."""
    spec = keys()[question]["parameters"]

    def on_the_grid(given):
        for name, value in given.items():
            low, high, step = spec[name]["low"], spec[name]["high"], spec[name]["step"]
            assert low - 1e-9 <= value <= high + 1e-9
            assert abs((value - low) / step - round((value - low) / step)) < 1e-9
        return tuple(sorted(given.items()))

    assert {on_the_grid(variant(question, student=s)) for s in CLASS} == \
        {on_the_grid(practice_values(question))}
    seen = set()
    for student in CLASS:
        given = variant(question, student=student, secret=SECRET)
        assert given == variant(question, student=student, secret=SECRET)
        seen.add(on_the_grid(given))
    # every combination of the grids but those sharing a value with the practice values
    graded = math.prod(int(round((s["high"] - s["low"]) / s["step"])) for s in spec.values())
    assert len(seen) >= min(graded, 3) and len(seen) > 1


@pytest.mark.parametrize("question", rows())
def test_no_grid_value_makes_a_typical_mistake_right_and_each_has_its_own_answer(question):
    """At every combination of the grids (of the givens the answer uses; every ``stride``-th),
    each typical mistake is told apart from the right answer as the keys' builder requires
    (:data:`~dynlab.grading.authoring.APART` of its largest entry) and by more than 1e-6 of
    some entry; the parts no given changes are the same everywhere, and no two combinations
    share the other parts."""
    row = TABLE[question]
    parameters = keys()[question]["parameters"]
    grids = [grid_values(spec) if name in (row.uses or parameters) else grid_values(spec)[:1]
             for name, spec in parameters.items()]
    own, public = [], set()
    for combination in list(itertools.product(*grids))[::row.stride]:
        given = dict(zip(parameters, combination))
        answer, slips = numbers_of(question, given)
        gap = [np.abs(wrong - answer) for wrong, _ in slips]
        for difference, (_, words) in zip(gap, slips):
            assert difference.max() > APART * np.abs(answer).max(), (given, words)
            assert (difference > 1e-8 + 1e-6 * np.abs(answer)).any(), (given, words)
        parts = zip(split(question, right(question, given)), names(question))
        at = getattr(row.hand, "AT", {})
        own.append(entries([p for p, n in parts if n not in row.shared], at))
        public.add(tuple(np.round(entries([p for p, n in zip(split(question, right(
            question, given)), names(question)) if n in row.shared], at), 12)))
    assert len(public) == 1 and len(own) >= 4
    own = np.array(own)
    for index, mine in enumerate(own[:-1]):
        gap = np.abs(own[index + 1:] - mine)
        assert (gap > np.maximum(1e-6, 1e-8 + 1e-9 * np.abs(mine))).any(axis=1).all(), index


def numbers_of(question: str, given: dict) -> tuple:
    """(the right answer's entries, [(a mistake's entries, its words)]) at ``given``; by the
    module's own ``at_the_point`` where it has one (numbers before anything is inverted)."""
    return _numbers_of(question, tuple(given.items()))


@functools.lru_cache(maxsize=4096)
def _numbers_of(question: str, given: tuple) -> tuple:
    hand, given = TABLE[question].hand, dict(given)
    if hasattr(hand, "at_the_point"):
        answer, slips = hand.at_the_point(question, given)
        return answer, [(slip, f"mistake {index}") for index, slip in enumerate(slips)]
    at = getattr(hand, "AT", {})
    return entries(right(question, given), at), [(entries(wrong, at), words)
                                                  for wrong, words in mistakes(question, given)]


# -- (a), (b): right for me, not for a classmate ---------------------------------------------------
@pytest.mark.parametrize("question", rows())
def test_the_right_answer_earns_full_points_at_each_students_values(question):
    """At the practice values (the same for both) with the shipped keys, and at each one's graded
    values with the instructor's."""
    students = classmates(question)
    for student in students:
        assert dict(variant(question, student=student)) == practice_values(question)
        answer = right(question, variant(question, student=student))
        assert score(question, answer, student).total == full(question), student
    with instructor_keys_in_use():
        for student in students:
            answer = right(question, variant(question, student=student, secret=SECRET))
            assert score(question, answer, student).total == full(question), student


@pytest.mark.parametrize("question", rows())
def test_a_copied_answer_earns_only_the_shared_parts(question):
    """For marks, alice's right answer at her graded values, handed in by bob (whose every
    graded given differs), earns only the parts no given changes; it tells no factor to undo
    where the table says so (elsewhere a factor is a ratio of givens both see) and prints none of
    bob's graded givens; it still earns alice full points."""
    alice, bob = classmates(question)
    with instructor_keys_in_use():
        hers = right(question, variant(question, student=alice, secret=SECRET))
        copied = score(question, hers, bob)
        assert score(question, hers, alice).total == full(question)
    text = str(copied.feedback)
    assert {part: copied.points[part] for part in copied.points
            if part not in TABLE[question].shared} == \
        {part: 0.0 for part in copied.points if part not in TABLE[question].shared}, text
    assert copied.total == shared_points(question), text
    factors = [line for line in text.splitlines() if "times the right value" in line]
    if TABLE[question].factor is not None:
        assert all(any(e in line for e in TABLE[question].factor) for line in factors), text
    for value in variant(question, student=bob, secret=SECRET).values():
        assert not re.search(rf"(?<![\w.]){re.escape(repr(value))}(?![\w.])", text), text


@pytest.mark.parametrize("question", rows())
def test_check_in_the_kernel_grades_the_practice_values(question, monkeypatch):
    """``check()`` in a kernel grades at the practice values, whoever the kernel's student: the
    answer at them is right in alice's kernel and in bob's; an answer at alice's graded values
    earns only the shared parts there, and the check says what is wrong."""
    alice, bob = classmates(question)
    practice = right(question, variant(question))
    for student in (alice, bob):
        monkeypatch.setenv("DYNLAB_STUDENT", student)
        assert check(question, practice).correct, student
    graded = check(question, right(question, variant(question, student=alice, secret=SECRET)))
    assert graded.points == shared_points(question) and not graded.correct
    assert graded.messages and graded.status == "incorrect", str(graded)


@pytest.mark.parametrize("question", rows(lambda q, row: hasattr(row.hand, "in_floats")))
def test_an_answer_computed_in_floats_from_given_is_right(question, monkeypatch):
    """What a student's code gives from ``given`` in floats: right in check() of any kernel and
    in the grader; for marks, at the graded values, and the practice one earns the shared parts."""
    alice, bob = classmates(question)
    answers = TABLE[question].hand.in_floats(question, dict(variant(question)))
    for student, answer in itertools.product((alice, bob), answers):
        monkeypatch.setenv("DYNLAB_STUDENT", student)
        assert check(question, answer).correct
        assert score(question, answer, student).total == full(question)
    with instructor_keys_in_use():
        graded = dict(variant(question, student=bob, secret=SECRET))
        for answer in TABLE[question].hand.in_floats(question, graded):
            assert score(question, answer, bob).total == full(question)
        assert score(question, answers[0], bob).total == shared_points(question)


# -- (c): for marks, the graded values -------------------------------------------------------------
@pytest.mark.parametrize("question", rows())
def test_for_marks_the_practice_answer_earns_only_the_shared_parts(question):
    """With the instructor's keys in use, for each of six students: the graded values are those
    ``variant(..., secret=SECRET)`` shows; the right answer at the practice values earns only the
    shared parts, the one at the graded values full points."""
    parameters = keys()[question]["parameters"]
    with instructor_keys_in_use():
        for student in CLASS[:6]:
            practice = practice_values(question, parameters)
            graded = graded_values(question, parameters, student, SECRET)
            assert graded == dict(variant(question, student=student, secret=SECRET))
            at_practice = score(question, right(question, practice), student)
            assert at_practice.total == shared_points(question), (student, at_practice.reasons)
            assert score(question, right(question, graded), student).total == full(question)


@pytest.mark.parametrize("question", rows())
def test_the_graded_answer_differs_from_the_practice_answer_for_every_student(question):
    parameters = keys()[question]["parameters"]
    practice = numbers_of(question, practice_values(question, parameters))[0]
    for student in [f"u{n}" for n in range(40)]:
        graded = numbers_of(question, graded_values(question, parameters, student, SECRET))[0]
        assert np.abs(practice - graded).max() > 1e-6, student


# -- (d): the typical mistakes ---------------------------------------------------------------------
@pytest.mark.parametrize("question", rows())
def test_every_typical_mistake_is_named_at_the_practice_and_the_graded_values(question):
    """Each typical mistake, scored by the grader, is wrong and its feedback holds its words: at
    the practice values, and for marks at each of two classmates' graded values."""
    def named(student: str, given) -> None:
        for answer, words in mistakes(question, given):
            feedback = score(question, answer, student).feedback
            assert not feedback.correct and words in str(feedback), (student, words,
                                                                      str(feedback))
    students = classmates(question)
    named(students[0], variant(question))
    with instructor_keys_in_use():
        for student in students:
            named(student, variant(question, student=student, secret=SECRET))


# -- the feedback keeps the key secret -------------------------------------------------------------
def scaled(part, stray):
    """``part`` times 7/5 plus ``stray`` in each entry."""
    if isinstance(part, (tuple, list)):
        return type(part)(scaled(p, stray) for p in part)
    if isinstance(part, sympy.MatrixBase):
        return part * Rational(7, 5) + sympy.ones(*part.shape) * stray
    return part * Rational(7, 5) + stray


@pytest.mark.parametrize("question", rows(lambda q, row: row.stray is not None))
def test_the_feedback_prints_no_term_of_the_key(question, monkeypatch):
    """In alice's kernel and in bob's, a wrong answer (every part off by 7/5 and a stray term;
    the first part alone so) and each typical mistake is wrong, and its feedback prints no text
    of the key (tests/course/test_feedback_secrecy.py's ``key_texts``)."""
    stray, secrets = TABLE[question].stray, key_texts(keys()[question])
    for student in classmates(question):
        monkeypatch.setenv("DYNLAB_STUDENT", student)
        answer = right(question, variant(question))
        parts = split(question, answer)
        wrong = [scaled(answer, stray)] + [a for a, _ in mistakes(question, variant(question))]
        if len(parts) > 1:
            wrong.append(type(answer)([scaled(parts[0], stray)] + parts[1:]))
        for attempt in wrong:
            feedback = check(question, attempt)
            assert not feedback.correct
            text = "\n".join(feedback.messages)
            assert not leaked(text, secrets), (student, leaked(text, secrets), text)


# -- the mechanism ---------------------------------------------------------------------------------
def test_the_practice_values_come_from_the_public_salt_and_the_secret_changes_the_graded():
    spec = keys()["D.1"]["parameters"]
    practice = draw("D.1", spec, "", PRACTICE_SALT)            # for no student
    assert [dict(variant("D.1", student=s)) for s in CLASS] == [practice] * len(CLASS)
    ours = [dict(variant("D.1", student=s, secret=SECRET)) for s in CLASS]
    theirs = [dict(variant("D.1", student=s, secret="another course")) for s in CLASS]
    assert ours != theirs and practice not in ours


def test_the_secret_in_the_environment_changes_nothing(monkeypatch):
    """A student's kernel never reads a course secret (the old DYNLAB_COURSE_SECRET)."""
    monkeypatch.setenv("DYNLAB_COURSE_SECRET", SECRET)
    assert [dict(variant("S.1", student=s)) for s in CLASS] == \
        [practice_values("S.1")] * len(CLASS)


def test_the_student_id_is_dynlab_student_then_jupyterhub_user_then_the_login(monkeypatch):
    import getpass
    monkeypatch.setenv("DYNLAB_STUDENT", "alice")
    monkeypatch.setenv("JUPYTERHUB_USER", "hub-alice")
    assert student_id() == "alice"
    monkeypatch.delenv("DYNLAB_STUDENT")
    assert student_id() == "hub-alice"
    monkeypatch.delenv("JUPYTERHUB_USER")
    monkeypatch.setattr(getpass, "getuser", lambda: "login-alice")
    assert student_id() == "login-alice"


def test_check_for_student_is_for_the_grader_and_leaves_the_session_alone(monkeypatch):
    import importlib
    checking = importlib.import_module("dynlab.grading.check")
    session = Session()
    monkeypatch.setattr(checking, "notebook_session", lambda: session)   # as in a kernel
    answer = right("D.2", variant("D.2", student="alice"))
    assert check_for_student("D.2", answer, student="alice").correct
    assert "D.2          0/1  not checked yet" in str(summary(
        "06_dalembert_newton_euler_and_simulation"))
    assert check("D.2", answer).correct
    assert "D.2          1/1  correct" in str(summary("06_dalembert_newton_euler_and_simulation"))
    for bad in ("", None, 3):
        with pytest.raises(ValueError, match="student"):
            check_for_student("D.2", answer, student=bad)


def test_the_variant_shows_the_givens_with_their_meaning_and_whose_they_are():
    text = str(variant("D.1", student="alice"))
    assert text.startswith("Practice values for D.1 (the same for everyone; when your notebook "
                           "is graded it runs again with values of your own):")
    assert "m2 = " in text and " kg   (the mass of link 2)" in text
    assert str(variant("D.1", student="alice", secret=SECRET)).startswith(
        "Your values for D.1 (student 'alice'):")
    assert "amplitude = " in str(variant("S.1", student="alice")) and "degrees" in \
        str(variant("S.1", student="alice"))
    with pytest.raises(ValueError, match="question"):
        variant("no such question", student="alice")


def test_the_stored_notebooks_run_as_the_student_student():
    """conftest.py fixes the student, so nbval's run shows the same givens on every machine."""
    assert student_id() == "student"
