"""What several notebooks' key files share (``tools/answer_keys/<notebook>.py``; this file is no
notebook's and ``tools/make_answer_keys.py`` skips it): the symbols of a two-joint arm, the
parallel-axis term, the ends of the givens' grids, and the check, at every value of a question's
givens, that none of its typical mistakes is right
(:func:`dynlab.grading.authoring.check_mistakes_apart`) for keys whose reference and mistakes are
SymPy expressions in the givens.
"""

from __future__ import annotations

import sympy

from dynlab.grading.authoring import check_mistakes_apart
from dynlab.model.robot import joint_symbols
from dynlab.model.symbolic import compact

q, qd, qdd = joint_symbols(2)
q1, q2 = q
qd1, qd2 = qd
qdd1, qdd2 = qdd
#: The joint symbols of a two-joint arm, as a key's ``symbols``
JOINTS2 = {"q1": "real", "q2": "real", "qd1": "real", "qd2": "real", "qdd1": "real",
           "qdd2": "real"}
#: The joint velocities and accelerations by whose monomials a two-joint arm's answers are compared
SPLIT2 = ("qd1", "qd2", "qdd1", "qdd2")


def positive(*names):
    return tuple(sympy.Symbol(n, positive=True) for n in names)


def column(values):
    """A 3- or 6-vector as a SymPy column, each entry in book form."""
    return sympy.Matrix([compact(sympy.sympify(v)) for v in values])


def shift(mass, d):
    """The parallel-axis term M(|d|^2 E - d d^T) (the parallel-axis theorem, which Lynch & Park
    state as Steiner's theorem, Sec. 8.2.1): what the tensor about a point O adds to the one
    about the centre of mass, d from O to the centre."""
    d = sympy.Matrix(d)
    return mass * ((d.T * d)[0] * sympy.eye(3) - d * d.T)


def grid_ends(parameters: dict) -> list:
    """The lowest and the highest value of each given's grid, as ``[{name: value}, ...]``."""
    return [{name: float(spec[end]) for name, spec in parameters.items()}
            for end in ("low", "high")]


def entries(value) -> list:
    """The entries of a part's value (an expression, a Matrix, or a list of them), in order."""
    if isinstance(value, (list, tuple)):
        return [entry for item in value for entry in entries(item)]
    if isinstance(value, sympy.MatrixBase):
        return list(value)
    return [sympy.sympify(value)]


def check_mistakes(question: str, parameters: dict, parts: dict, mistakes: list,
                   points=({},)) -> None:
    """:func:`~dynlab.grading.authoring.check_mistakes_apart` for expressions: ``parts``
    (``{part: value}``) and ``mistakes`` (``make_key``'s ``[{"part", "value", "message"}]``) in
    the givens, by name, and in the symbols ``points`` give values of (``{symbol or name:
    number}``, one of them enough to tell a mistake apart)."""
    def numbers(value):
        flat = entries(value)
        symbols = sorted({s for entry in flat for s in entry.free_symbols}, key=str)
        function = sympy.lambdify(symbols, flat, "numpy")
        return lambda values: function(*(values[s.name] for s in symbols))
    right = {part: numbers(value) for part, value in parts.items()}
    wrong = [(m["part"], numbers(m["value"]), m["message"]) for m in mistakes]
    check_mistakes_apart(question, parameters, lambda values: (
        {part: f(values) for part, f in right.items()},
        [(part, f(values), message) for part, f, message in wrong]), points)
