"""The feedback of check() teaches without giving the answer away (issue 24, item 6).

- No message for a wrong answer, to any question, holds a term, a coefficient or a value of the
  key (a property over every question and answers drawn at random from the key's own terms).
- No message the key carries (a typical mistake's, a part's sign or factor hint, a hint) holds
  a term of the key other than the problem's givens.
- A generic search by repeated check() calls -- an honest attacker that reads every message it
  gets, adds and removes terms from a dictionary of candidate terms in the question's symbols and
  rescales by any ratio the feedback states -- does not recover a symbolic answer within 200
  calls (on the feedback before this issue it recovered 3.16c's h in a handful).
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
import sympy

from dynlab.grading import check, keys, variant
from dynlab.grading.diagnosis import monomial_terms
from dynlab.grading.keys import key_symbol, note, reference
from dynlab.grading.sealing import unseal

SEED = 24


# -- what of the key must never be printed --------------------------------------------------------
def _split(key):
    return [key_symbol(n, r) for n, r in key["symbols"] if n in key.get("split", [])]


def _reference(key) -> dict:
    """The key's reference per part; a numeric key's with givens at this session's student's
    values (the student "student", conftest.py), as check() sees it."""
    reference_ = reference(key)
    if not key.get("parameters"):
        return {part["name"]: list(reference_[part["name"]]) for part in key["parts"]}
    from dynlab.grading.compare import _at_variant
    given = dict(variant(key["id"]))
    return {part["name"]: _at_variant(key, reference_[part["name"]], given)
            for part in key["parts"]}


def key_texts(key) -> set:
    """The texts that would give (part of) the key away: each element, each of its terms, each
    monomial class's coefficient and its terms, in SymPy's printing (and negated); for a numeric
    key, each value to 3 and 4 significant digits.  Only texts with a product, a quotient or a
    function in them (a bare symbol such as ``g`` names no answer)."""
    texts = set()
    for part in key["parts"]:
        for element in _reference(key)[part["name"]]:
            if key["kind"] == "numeric":
                if element != 0:
                    texts |= {f"{element:.3g}", f"{element:.4g}", repr(element)}
                continue
            element = sympy.sympify(element)
            if element == 0:
                continue
            pieces = {element, sympy.expand(element)}
            for coefficient in (monomial_terms(element, _split(key)) or {}).values():
                pieces |= {coefficient, sympy.expand(coefficient)}
            for piece in list(pieces):
                pieces |= set(sympy.Add.make_args(sympy.expand(piece)))
            texts |= {str(p) for p in pieces} | {str(-p) for p in pieces}
    return {t for t in texts if key["kind"] == "numeric" or re.search(r"[*/(]", t)}


def leaked(text: str, secrets: set) -> list:
    """The secrets that appear in ``text`` as a whole term (not inside a longer product)."""
    return [s for s in secrets
            if re.search(r"(?<![\w*/.])" + re.escape(s) + r"(?![\w*(.]|\*\*)", text)]


def _elements(key) -> dict:
    return _reference(key)


def _candidates(key) -> list:
    """Terms in the question's symbols that are not the key's: products of one to three of its
    parameters, times a sine or cosine of an angle, times a monomial of the joint rates."""
    symbols = [key_symbol(n, r) for n, r in key["symbols"]]
    split = _split(key)
    angles = [s for s in symbols if str(s) in key.get("angles", [])]
    parameters = [s for s in symbols if s not in split and s not in angles]
    trig = [sympy.Integer(1)] + [f(a) for a in angles for f in (sympy.sin, sympy.cos)]
    rates = [sympy.Integer(1)] + split + [a * b for a, b in
                                          itertools.combinations_with_replacement(split[:2], 2)]
    products = [sympy.Mul(*c) for n in (1, 2, 3)
                for c in itertools.combinations_with_replacement(parameters, n)] or \
        [sympy.Integer(1)]
    return [p * t * r for p in products for t in trig for r in rates]


def _wrong_answer(key, rng) -> dict:
    """A wrong answer drawn at random: the key with one term dropped, rescaled, negated, or a
    term added; an element replaced by a stray term; or every element a stray term."""
    elements = _elements(key)
    numeric = key["kind"] == "numeric"
    candidates = None if numeric else _candidates(key)
    how = rng.integers(6)
    for name, values in elements.items():
        for k, value in enumerate(values):
            if numeric:
                values[k] = float(value) * rng.choice([1.37, -0.61, 4.0, 0.07]) + rng.normal()
                continue
            value = sympy.sympify(value)
            terms = list(sympy.Add.make_args(sympy.expand(value)))
            stray = candidates[rng.integers(len(candidates))] * int(rng.choice([1, -1, 2, 5]))
            if how == 5 or (how == 4 and rng.random() < 0.5):
                values[k] = stray
            elif rng.random() < 0.5:
                continue
            elif how == 0 and len(terms) > 1:
                terms.pop(rng.integers(len(terms)))
                values[k] = sympy.Add(*terms)
            elif how == 1 and terms:
                index = rng.integers(len(terms))
                terms[index] = terms[index] * sympy.Rational(int(rng.choice([3, 5, -7])),
                                                             int(rng.choice([2, 4])))
                values[k] = sympy.Add(*terms)
            elif how == 2:
                values[k] = value + stray
            else:
                values[k] = -value + stray
    answer = {}
    for part in key["parts"]:
        shape = tuple(part["shape"])
        values = elements[part["name"]]
        if len(shape) == 2:
            answer[part["name"]] = sympy.Matrix(shape[0], shape[1], values)
        elif len(shape) == 3:
            answer[part["name"]] = [sympy.Matrix(shape[1], shape[2],
                                                 values[i * shape[1] * shape[2]:
                                                        (i + 1) * shape[1] * shape[2]])
                                    for i in range(shape[0])]
        elif len(shape) == 1:
            answer[part["name"]] = values
        else:
            answer[part["name"]] = values[0]
    return answer if len(key["parts"]) > 1 else answer[key["parts"][0]["name"]]


GRADED = [q for q, key in keys().items() if key["kind"] != "choice"]


@pytest.mark.parametrize("question", GRADED)
def test_no_message_for_a_wrong_answer_holds_a_term_or_value_of_the_key(question):
    key = keys()[question]
    rng = np.random.default_rng([SEED, GRADED.index(question)])
    secrets = key_texts(key)
    for _ in range(4):
        feedback = check(question, _wrong_answer(key, rng))
        if feedback.correct:
            continue
        text = "\n".join(feedback.messages)
        assert not leaked(text, secrets), (question, leaked(text, secrets), text)
        assert "times the right value" not in text or re.search(
            r"is (-?1/[23]|-?[23]|\((180/pi|pi/180)\)(\^\d)?) times the right value", text), text


#: the problem's givens that a key's messages may state (they are no part of any answer)
GIVENS = {("N.2", "-l/2"), ("N.2", "l/2")}   # 2R0 s_2 = (-l/2, 0, 0): where link 2's mass is


def test_no_message_the_key_carries_holds_a_term_of_the_key():
    for question in GRADED:
        key = keys()[question]
        secrets = {s for s in key_texts(key) if len(s) >= 3} - {
            s for q, s in GIVENS if q == question}
        carried = [unseal(m["message"], f"{question}|mistake{i}|message")
                   for i, m in enumerate(key.get("mistakes", []))]
        carried += [unseal(m["message"], f"{question}|product{i}")
                    for i, m in enumerate(key.get("products", []))]
        carried += [unseal(v, f"{question}|{part['name']}|hint|{k}")
                    for part in key["parts"] for k, v in part.get("hints", {}).items()]
        carried += [note(key, "hint") or ""]
        for text in carried:
            assert not leaked(text, secrets), (question, leaked(text, secrets), text)


# -- a search by repeated checks ------------------------------------------------------------------
_NUMBER = r"(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?:/\d+)?)"


class Search:
    """An honest attacker: it knows what the key file shows in the clear (the symbols, the parts
    and their shapes, the monomials of the joint rates by which answers are compared) and reads
    every message.  Per entry it learns which monomial classes belong (an answer with every
    class), asks once with only a class that does not belong (so that every class is "missing"),
    then tries, for each class still wrong, the next trial: first sums of the terms the feedback
    has named so far, then each term of a dictionary (:func:`_candidates`, simplest first) times
    1, -1, 2, -2, 1/2, -1/2, 3, 1/3 -- every entry at once in one call.  It takes any term the
    feedback names ("missing the T term", "an extra term T", "the T term has the wrong sign / is
    r times the right value") and divides an entry by any ratio the feedback states."""

    COEFFICIENTS = [sympy.Integer(1), sympy.Integer(-1), sympy.Integer(2), sympy.Integer(-2),
                    sympy.Rational(1, 2), sympy.Rational(-1, 2), sympy.Integer(3),
                    sympy.Rational(1, 3)]

    def __init__(self, question: str, budget: int = 200):
        self.question, self.budget, self.calls = question, budget, 0
        self.key = keys()[question]
        self.split = _split(self.key)
        self.locals = {n: key_symbol(n, r) for n, r in self.key["symbols"]}
        self.parts = [(p["name"], tuple(p["shape"]), p.get("names")) for p in self.key["parts"]]
        self.generic = [c * t for t in _candidates(self.key)
                        if not (t.free_symbols & set(self.split)) for c in self.COEFFICIENTS]
        self.entries = [(name, k, self.label(name, shape, template, k))
                        for name, shape, template in self.parts
                        for k in range(int(np.prod(shape)) if shape else 1)]
        self.classes = {}                  # (part, k) -> {monomial: coefficient or None}
        self.tried = {}                    # (part, k, monomial) -> trials made
        self.learned = []                  # coefficient terms the feedback named
        self.feedback = None

    @staticmethod
    def label(part, shape, template, k):
        from dynlab.grading.diagnosis import entry_name  # how the feedback names an entry
        return entry_name(part, shape, k)

    def answer(self, values: dict):
        result = {}
        for name, shape, _ in self.parts:
            items = [values[(name, k)] for k in range(int(np.prod(shape)) if shape else 1)]
            if len(shape) == 2:
                result[name] = sympy.Matrix(shape[0], shape[1], items)
            elif len(shape) == 3:
                size = shape[1] * shape[2]
                result[name] = [sympy.Matrix(shape[1], shape[2], items[i * size:(i + 1) * size])
                                for i in range(shape[0])]
            else:
                result[name] = items if shape else items[0]
        return result if len(self.parts) > 1 else result[self.parts[0][0]]

    def ask(self, values: dict):
        self.calls += 1
        self.feedback = check(self.question, self.answer(values), time_limit=None)
        return self.feedback

    def about(self, part: str, label: str) -> list:
        """The pieces of feedback about one entry (or its whole part)."""
        prefix = f"{part}: " if len(self.parts) > 1 else ""
        pieces = []
        for line in self.feedback.messages:
            if prefix and not line.startswith(prefix):
                continue
            for piece in line[len(prefix):].split("; "):
                if re.match(re.escape(label) + r"(?![\w\[])", piece) or \
                        re.match(re.escape(part) + r" (has|is) ", piece):
                    pieces.append(piece)
        return pieces

    def term(self, text: str):
        try:
            return sympy.sympify(text, locals=self.locals)
        except Exception:                                  # noqa: BLE001
            return None

    def coefficient(self, value, monomial: str):
        return (monomial_terms(sympy.expand(value), self.split) or {}).get(monomial, 0)

    def monomials(self) -> list:
        rates = [r for r in self.split if not str(r).startswith("qdd")]
        return [sympy.Integer(1)] + self.split + [a * b for a, b in
                                                  itertools.combinations_with_replacement(rates, 2)]

    def trial(self, where) -> sympy.Expr:
        count = self.tried.get(where, 0)
        learned = [sympy.Add(*c) for n in (1, 2, 3)
                   for c in itertools.combinations(self.learned, n)]
        learned = [c * f for c in learned for f in (1, 2)]
        options = learned + self.generic
        return options[count % len(options)]

    def learn(self, value) -> None:
        for term in sympy.Add.make_args(sympy.expand(value)):
            coefficient, _ = term.as_independent(*self.split, as_Add=False)
            coefficient = coefficient.as_coeff_Mul()[1]
            if coefficient != 1 and coefficient not in self.learned:
                self.learned.append(coefficient)

    def run(self) -> dict:
        monomials = self.monomials()
        # 1. which classes belong in each entry
        self.ask({(name, k): sum(monomials) for name, k, _ in self.entries})
        stray = {}
        for name, k, label in self.entries:
            text = " ".join(self.about(name, label))
            extra = {str(m) for m in monomials if re.search(
                re.escape(f"has a {m} ") + r"[^;]*does not belong", text)}
            if "free part (gravity?) that does not belong" in text:
                extra.add("1")
            self.classes[(name, k)] = {str(m): None for m in monomials if str(m) not in extra}
            stray[(name, k)] = next((m for m in monomials if str(m) in extra), None)
        # 2. only a class that does not belong: every class of the key is "missing"
        if any(stray.values()):
            values = {(name, k): stray[(name, k)] or sympy.Integer(0)
                      for name, k, _ in self.entries}
            self.ask(values)
            for name, k, label in self.entries:
                for piece in self.about(name, label):
                    for text in re.findall(r"missing the (.+?) term", piece):
                        term = self.term(text)
                        if term is None:
                            continue
                        self.learn(term)
                        for monomial, found in self.classes[(name, k)].items():
                            if found is None and self.coefficient(term, monomial) != 0:
                                self.classes[(name, k)][monomial] = self.coefficient(term,
                                                                                     monomial)
        # 3. trials, every pending class at once
        while self.calls < self.budget:
            values = {}
            for name, k, _ in self.entries:
                value = sympy.Integer(0)
                for monomial, found in self.classes[(name, k)].items():
                    coefficient = found if found is not None else self.trial((name, k, monomial))
                    value += coefficient * sympy.sympify(monomial)
                values[(name, k)] = value
            feedback = self.ask(values)
            if feedback.correct:
                break
            for name, k, label in self.entries:
                pending = [m for m, f in self.classes[(name, k)].items() if f is None]
                if not pending:
                    continue
                pieces = self.about(name, label)
                text = "; ".join(pieces)
                if feedback.parts.get(name, 0) > 0 or not pieces:
                    self.settle(name, k, values[(name, k)])       # the entry is right
                    continue
                ratio = re.search(rf"(?:^|; )(?:{re.escape(label)}|{re.escape(name)}) is "
                                  rf"{_NUMBER} times the right value", text)
                if re.search(rf"(?:^|; )(?:{re.escape(label)}|{re.escape(name)}) has the wrong "
                             rf"sign", text):
                    self.settle(name, k, -values[(name, k)])
                    continue
                if ratio:
                    self.settle(name, k, values[(name, k)] / sympy.Rational(ratio.group(1)))
                    continue
                value = self.named(values[(name, k)], text)
                if value is not None:
                    self.settle(name, k, value)
                    continue
                mentioned = {m for m in self.classes[(name, k)]
                             if (m == "1" and "free part" in text)
                             or re.search(rf"(?<![\w*]){re.escape(m)} \(", text)}
                for monomial in pending:
                    where = (name, k, monomial)
                    if mentioned and monomial not in mentioned:    # its class is right
                        self.classes[(name, k)][monomial] = self.coefficient(values[(name, k)],
                                                                             monomial)
                    else:
                        self.tried[where] = self.tried.get(where, 0) + 1
        return self.result()

    def named(self, value, text):
        """The entry corrected by the terms the feedback names, or None."""
        changed = False
        for first, second in re.findall(r"is missing the (.+?) and (.+?) terms", text):
            for t in (first, second):
                if self.term(t) is not None:
                    value, changed = value + self.term(t), True
                    self.learn(self.term(t))
        for t in re.findall(r"is missing the (.+?) term(?!s)", text):
            if self.term(t) is not None:
                value, changed = value + self.term(t), True
                self.learn(self.term(t))
        for t in re.findall(r"has an extra term (.+?)(?:$|;)", text):
            if self.term(t) is not None:
                value, changed = value - self.term(t), True
        for t, how in re.findall(r"the (.+?) term (has the wrong sign|is \S+ times)", text):
            term = self.term(t)
            if term is None:
                continue
            r = -1 if "sign" in how else sympy.Rational(how.split()[1])
            value, changed = value - (r - 1) * term, True
            self.learn(term)
        return value if changed else None

    def settle(self, name, k, value) -> None:
        self.learn(value)
        for monomial in self.classes[(name, k)]:
            self.classes[(name, k)][monomial] = self.coefficient(value, monomial)

    def result(self) -> dict:
        """The points of the best answer found, part by part."""
        values = {(name, k): sum((f if f is not None else 0) * sympy.sympify(m)
                                 for m, f in self.classes[(name, k)].items())
                  for name, k, _ in self.entries}
        feedback = check(self.question, self.answer(values))
        return {"calls": self.calls, "points": feedback.points, "parts": feedback.parts,
                "correct": feedback.correct}


@pytest.mark.parametrize("question", ["3.16c", "3.18"])
def test_a_search_by_repeated_checks_does_not_recover_a_symbolic_answer(question):
    """200 calls of the generic search of :class:`Search`: no part of the answer is found."""
    found = Search(question, budget=200).run()
    print(question, found)
    assert found["calls"] <= 200
    assert not found["correct"] and not any(found["parts"].values()), found
