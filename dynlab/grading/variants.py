"""A question's givens (a mass, a gain, a damping ratio): one practice set, the same for everyone,
and one graded set per student drawn from the course secret (ARCHITECTURE.md, "Grading").

Each parameter is picked on its grid ``low, low + step, ..., high`` by a NumPy generator seeded
with HMAC-SHA256(salt or secret, shared name, student).  Questions about one object share one
set (:func:`shared_name`).  :func:`practice_values` uses the public :data:`PRACTICE_SALT` (the
shipped keys answer only these, :func:`at_practice`); :func:`graded_values` the course secret,
every value differing from its practice value.  The student id: :func:`student_id`.

>>> given = variant("D.1", student="alice")                      # practice values
>>> given == variant("D.1", student="bob") == practice_values("D.1")   # the same for everyone
True
>>> sorted(given)
['Mp', 'm2']
>>> graded = variant("D.1", student="alice", secret="the course's secret")
>>> all(graded[name] != given[name] for name in given)            # every given differs
True
"""

from __future__ import annotations

import getpass
import hashlib
import hmac
import json
import os

import numpy as np
import sympy

from dynlab.grading.keys import at_given, in_givens
from dynlab.grading.sealing import salted_hash, seal, unseal

STUDENT_VARIABLE = "DYNLAB_STUDENT"
#: Where a grader hands a kernel the student's givens (JSON, :func:`givens`).
GIVENS_VARIABLE = "DYNLAB_GIVENS"
#: The public salt of the practice values.
PRACTICE_SALT = "dynlab"


def student_id() -> str:
    """The student a grader handed givens to, else ``DYNLAB_STUDENT``, else
    ``JUPYTERHUB_USER``, else the user name."""
    handed = _handed().get("student")
    if isinstance(handed, str) and handed.strip():
        return handed.strip()
    for variable in (STUDENT_VARIABLE, "JUPYTERHUB_USER"):
        value = os.environ.get(variable, "").strip()
        if value:
            return value
    try:
        return getpass.getuser()
    except Exception:                                     # noqa: BLE001 - no user database
        return "student"


class Variant(dict):
    """``{name: value}`` of a question's givens, printed with their meaning and unit."""

    def __init__(self, question: str, student: str, values: dict, parameters: dict,
                 practice: bool = False):
        super().__init__(values)
        self.question, self.student, self.parameters = question, student, parameters
        self.practice = practice

    def lines(self) -> list:
        return [f"  {name} = {value:g} {self.parameters[name].get('unit', '')}".rstrip()
                + (f"   ({self.parameters[name]['text']})" if self.parameters[name].get("text")
                   else "") for name, value in self.items()]

    def __str__(self) -> str:
        head = (f"Practice values for {self.question} (the same for everyone; when your notebook "
                f"is graded it runs again with values of your own):" if self.practice else
                f"Your values for {self.question} (student {self.student!r}):")
        return "\n".join([head] + self.lines())

    def __repr__(self) -> str:
        return str(self)

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(str(self))


def grid_values(spec: dict) -> list:
    """``low, low + step, ..., high``, each rounded to the decimals that ``low`` and ``step``
    are written with (so that 0.1 + 2 * 0.1 is 0.3, and a step of 2.5 keeps its half).

    >>> grid_values({"low": 5, "high": 20, "step": 2.5})
    [5.0, 7.5, 10.0, 12.5, 15.0, 17.5, 20.0]
    >>> grid_values({"low": 0.1, "high": 0.6, "step": 0.25})
    [0.1, 0.35, 0.6]
    >>> grid_values({"low": 0.1, "high": 0.5, "step": 0.25})
    Traceback (most recent call last):
    ...
    ValueError: a grid from 0.1 to 0.5 in steps of 0.25 does not end at its high value
    """
    low, high, step = float(spec["low"]), float(spec["high"]), float(spec["step"])
    if not step > 0 or not high >= low:
        raise ValueError(f"a grid needs low <= high and a positive step, got {low}, {high}, "
                         f"{step}")
    count = round((high - low) / step) + 1
    if abs(low + step * (count - 1) - high) > 1e-9 * max(1.0, abs(high)):
        raise ValueError(f"a grid from {low:g} to {high:g} in steps of {step:g} does not end "
                         f"at its high value")
    decimals = next(d for d in range(16)
                    if all(abs(round(x, d) - x) <= 1e-12 * max(1.0, abs(x)) for x in (low, step)))
    return [round(low + step * index, decimals) + 0.0 for index in range(count)]


def shared_name(question: str) -> str:
    """The name under which ``question``'s givens are drawn: its key's ``shared`` (one set for
    the questions about one object), else the question itself.

    >>> shared_name("3.17d"), shared_name("D.1"), shared_name("no such question")
    ('3.16', 'D.1', 'no such question')
    """
    from dynlab.grading.keys import keys
    key = keys().get(question) if isinstance(question, str) else None
    return key.get("shared", question) if key is not None else question


def sharing(name: str) -> list:
    """The questions whose givens are drawn under ``name`` (:func:`shared_name`).

    >>> sharing("3.16")
    ['3.16a', '3.16b', '3.16c', '3.17a', '3.17b', '3.17c', '3.17d']
    """
    from dynlab.grading.keys import keys
    return [question for question, key in keys().items()
            if key.get("parameters") and shared_name(question) == name]


def draw(question: str, parameters: dict, student: str, secret: str,
         avoid: dict | None = None) -> dict:
    """``{name: value}`` picked on each grid by a generator seeded with HMAC-SHA256(secret,
    shared name and student); with ``avoid``, among the grid's other values.

    >>> draw("X", {"m": {"low": 1, "high": 2, "step": 0.5}}, "bob", "s")
    {'m': 2.0}
    >>> draw("X", {"m": {"low": 1, "high": 2, "step": 0.5}}, "bob", "s", avoid={"m": 2.0})
    {'m': 1.5}
    """
    label = shared_name(question)
    digest = hmac.new(secret.encode("utf-8"), f"{label}\x00{student}".encode(),
                      hashlib.sha256).digest()
    rng = np.random.default_rng(int.from_bytes(digest, "big"))
    values = {}
    for name, spec in parameters.items():
        grid = grid_values(spec)
        if avoid is not None:
            grid = [value for value in grid if value != avoid.get(name)]
            if not grid:
                raise ValueError(f"{question}: the grid of {name} has one value; a graded "
                                 f"value must differ from the practice value")
        values[name] = grid[int(rng.integers(len(grid)))]
    return values


def _parameters(question) -> dict:
    from dynlab.grading.keys import keys
    key = keys().get(question) if isinstance(question, str) else None
    if key is None:
        members = sharing(question) if isinstance(question, str) else []
        if not members:
            raise ValueError(f"question: there is no question {question!r}")
        key = keys()[members[0]]
    return key.get("parameters", {})


def practice_values(question: str, parameters: dict | None = None) -> dict:
    """The practice values of ``question``: the same for every student.

    >>> practice_values("X", {"m": {"low": 1, "high": 2, "step": 0.5}})
    {'m': 2.0}
    """
    parameters = _parameters(question) if parameters is None else parameters
    return draw(question, parameters, "", PRACTICE_SALT)


def graded_values(question: str, parameters: dict, student: str, secret: str) -> dict:
    """The graded values of ``student`` under the course ``secret``, each differing from its
    practice value."""
    if not isinstance(secret, str) or not secret:
        raise ValueError("secret: give the course secret (the instructor's key folder holds it)")
    return draw(question, parameters, student, f"graded\x00{secret}",
                avoid=practice_values(question, parameters))


def turned(options, turn) -> list:
    """The options of a multiple choice turned by ``turn`` places: under letter ``k`` stands
    ``options[(k + turn) % len(options)]``, so two turns put every option under other letters.

    >>> turned(["first", "second", "third", "fourth"], 1)
    ['second', 'third', 'fourth', 'first']
    >>> turned("ABCD", 3.0)                     # a given arrives as a float
    ['D', 'A', 'B', 'C']
    >>> turned("ABCD", 1.5)
    Traceback (most recent call last):
    ...
    ValueError: turn: a whole number of places, got 1.5
    """
    options = list(options)
    if isinstance(turn, bool) or not isinstance(turn, (int, float, np.integer, np.floating)) \
            or not float(turn).is_integer():
        raise ValueError(f"turn: a whole number of places, got {turn!r}")
    if not options:
        raise ValueError("options: give at least one option")
    shift = int(turn) % len(options)
    return options[shift:] + options[:shift]


def at_practice(key: dict) -> dict:
    """The shipped key of an instructor's ``key``: references and mistakes at the practice
    values (a choice: in the practice turn's order), resealed, the values kept as
    ``"practice"``.  A key without givens, or at the practice values already, is returned as is.

    >>> import sympy
    >>> from dynlab.grading.authoring import make_key
    >>> from dynlab.grading.keys import reference
    >>> zeta, Kp = sympy.symbols("zeta Kp", positive=True)
    >>> key = make_key("demo", notebook="demo", title="demo", points=1, symbols={"Kp": "positive"},
    ...                parameters={"zeta": {"low": 0.6, "high": 0.9, "step": 0.1}},
    ...                parts=[{"name": "Kd", "value": 2 * zeta * sympy.sqrt(Kp)}])
    >>> shipped = at_practice(key)
    >>> zeta_practice = sympy.nsimplify(shipped["practice"]["zeta"])   # a value of the grid
    >>> reference(shipped)["Kd"] == [2 * zeta_practice * sympy.sqrt(Kp)]
    True
    """
    if not in_givens(key):
        return key
    question = key["id"]
    practice = practice_values(key.get("shared", question), key["parameters"])
    shipped = json.loads(json.dumps(key))
    shipped["practice"] = practice
    if key["kind"] == "choice":
        options = key["options"]
        seen = turned(options, practice["turn"])        # the option shown under each letter
        right = next(o for o in options if salted_hash(question, "choice", o) == key["answer"])
        shipped["answer"] = salted_hash(question, "choice", options[seen.index(right)])
        shipped["messages"] = {letter: seal(unseal(key["messages"][shown],
                                                   f"{question}|option{shown}"),
                                            f"{question}|option{letter}")
                               for letter, shown in zip(options, seen)}
        return shipped

    def sealed_at_practice(sealed: str, where: str) -> str:
        values = at_given(key, [sympy.sympify(t) for t in json.loads(unseal(sealed, where))],
                          practice)
        texts = [repr(v) if key["kind"] == "numeric" else sympy.srepr(v) for v in values]
        return seal(json.dumps(texts), where)

    for part in shipped["parts"]:
        part["reference"] = sealed_at_practice(part["reference"], f"{question}|{part['name']}")
    for index, mistake in enumerate(shipped.get("mistakes", [])):
        mistake["value"] = sealed_at_practice(mistake["value"], f"{question}|mistake{index}")
    return shipped


def _handed() -> dict:
    """What a grader handed this kernel (:data:`GIVENS_VARIABLE`, JSON), or ``{}``."""
    try:
        data = json.loads(os.environ.get(GIVENS_VARIABLE, "") or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def handed_in(student: str) -> dict:
    """``{question: (values, parameters)}`` a grader handed this kernel for ``student``."""
    try:
        data = _handed()
        if data.get("student") != student:
            return {}
        return {question: (dict(entry["values"]), dict(entry["parameters"]))
                for question, entry in data.get("questions", {}).items()}
    except (ValueError, TypeError, KeyError, AttributeError):
        return {}


def givens(student: str, secret: str | None, asked=None) -> str:
    """The value of :data:`GIVENS_VARIABLE` for ``student``'s kernel: their graded values
    (practice values when ``secret`` is None) of the questions ``asked`` (default all) and
    those sharing their givens, also under the shared name.  Never the secret.

    >>> import json
    >>> sorted(json.loads(givens("alice", None, ["C.3"]))["questions"])
    ['C.3']
    """
    from dynlab.grading.keys import keys
    wanted = None if asked is None else {shared_name(question) for question in asked}
    questions = {}
    for question, key in keys().items():
        parameters = key.get("parameters")
        if parameters and (wanted is None or key.get("shared", question) in wanted):
            values = practice_values(question, parameters) if secret is None \
                else graded_values(question, parameters, student, secret)
            questions[question] = {"values": values, "parameters": parameters}
            if key.get("shared"):                 # variant("3.16"), where no key is in reach
                questions[key["shared"]] = questions[question]
    return json.dumps({"student": student, "practice": secret is None, "questions": questions})


def variant(question: str, *, student: str | None = None, secret: str | None = None) -> Variant:
    """The givens of ``question`` for ``student`` (default :func:`student_id`): those a grader
    handed this kernel, else the practice values; with the course ``secret``, the graded ones."""
    student = student_id() if student is None else str(student)
    if not student:
        raise ValueError("student: the student id is empty")
    if secret is None:
        handed = handed_in(student)
        given = next((handed[q] for q in [question, *sharing(question)] if q in handed), None)
        if given is not None:
            return Variant(question, student, *given, _handed().get("practice") is True)
    parameters = _parameters(question)
    if secret is None:
        return Variant(question, student, practice_values(question, parameters), parameters, True)
    return Variant(question, student, graded_values(question, parameters, student, secret),
                   parameters)
