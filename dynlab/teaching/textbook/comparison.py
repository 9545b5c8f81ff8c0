"""Print against derivation: every element in which a printed equation differs from dynlab's
derivation (:class:`Discrepancy`), with the printed terms, the derived terms and the erratum's
one-line reason, listed by :func:`compare_with_derivation` (a :class:`PrintedComparison`).
"""

from __future__ import annotations

import collections
import functools
import html
from dataclasses import dataclass, field
from typing import Any

import sympy

from dynlab.formulations import registry as formulations
from dynlab.model.display import shorthand
from dynlab.model.symbolic import compact, is_zero, reduce_trig
from dynlab.teaching.bibliography import AUTHORS, cite
from dynlab.teaching.errata import Erratum
from dynlab.teaching.textbook.catalogue import printed
from dynlab.teaching.textbook.derivation import derived
from dynlab.teaching.textbook.letters import SCALARS, TOP_MATRICES, TOP_VECTORS
from dynlab.teaching.textbook.records import PrintedEquation


@dataclass(frozen=True)
class Discrepancy:
    """One element where a print differs from the derivation: ``printed`` and ``derived`` (the
    differing terms, in dynlab's symbols), ``erratum`` and its ``explanation``."""

    source: str
    place: str
    element: str
    printed: Any
    derived: Any
    explanation: str
    erratum: Erratum | None = None
    record: PrintedEquation | None = field(default=None, repr=False, compare=False)

    def __str__(self) -> str:
        return (f"{cite(self.source, self.place)}, {self.element}: printed {_text(self.printed)}, "
                f"derived {_text(self.derived)} -- {self.explanation}")


def _text(expr) -> str:
    return str(shorthand(expr))


class PrintedComparison(list):
    """The :class:`Discrepancy` list with ``checked`` (records compared), ``agreeing`` (right
    prints) and ``unconfirmed`` ((record, erratum) pairs whose erratum showed no discrepancy)."""

    def __init__(self, discrepancies, checked, unconfirmed, arm, method):
        super().__init__(discrepancies)
        self.checked = tuple(checked)
        self.unconfirmed = list(unconfirmed)
        self.arm, self.method = arm, method

    @property
    def agreeing(self) -> tuple:
        wrong = {id(d.record) for d in self}
        return tuple(r for r in self.checked if id(r) not in wrong)

    def summary(self) -> str:
        arms = self.arm or "all arms"
        return (f"{arms} ({self.method}): {len(self.checked)} printed equations checked, "
                f"{len(self.agreeing)} agree with the derivation, {len(self)} discrepancies")

    def rows(self) -> list:
        return [[AUTHORS[d.source], d.place, d.element, _text(d.printed), _text(d.derived),
                 d.explanation] for d in self]

    _HEADER = ["source", "place", "element", "printed", "derived", "explanation"]

    def markdown(self) -> str:
        """The discrepancies as a Markdown table."""
        def cell(text):
            return str(text).replace("|", "\\|").replace("\n", " ")
        lines = ["| " + " | ".join(self._HEADER) + " |", "|" + "---|" * len(self._HEADER)]
        lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in self.rows()]
        return "\n".join(lines)

    def __str__(self) -> str:
        text = self.summary()
        return text + (":\n" + self.markdown() if self else "")

    __repr__ = __str__

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self._HEADER)
        body = "".join("<tr>" + "".join(f"<td style=\"text-align:left\">{html.escape(c)}</td>"
                                        for c in row) + "</tr>" for row in self.rows())
        table = (f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
                 if self else "")
        return f"<p>{html.escape(self.summary())}</p>{table}"


def _select(value, index):
    """The part of a derived quantity a record prints: ``(part, list_path, matrix_keys,
    column_vector)``."""
    list_path, keys = [], list(index or ())
    while keys and isinstance(value, (list, tuple)):
        k = keys.pop(0)
        list_path.append(k)
        value = value[k - 1]
    if not isinstance(value, sympy.MatrixBase):
        return sympy.sympify(value), tuple(list_path), tuple(keys), False
    column = value.shape[1] == 1
    if not keys:
        return value, tuple(list_path), (), column
    python = [k - 1 if isinstance(k, int) else k for k in keys]
    if len(python) == 1:
        python.append(0 if column and isinstance(python[0], int) else slice(None))
    return value[python[0], python[1]], tuple(list_path), tuple(keys), column


def _element_name(quantity: str, list_path: tuple, matrix_path: tuple) -> str:
    inner = ",".join(map(str, matrix_path))
    if quantity in SCALARS:
        return quantity
    if quantity in TOP_VECTORS or quantity in TOP_MATRICES:
        sep = "" if all(i < 10 for i in matrix_path) else ","
        return f"{quantity}_{sep.join(map(str, matrix_path))}"
    label = {"C_i": "C^{}", "T": "T_0^{}", "A": "A^{}", "B": "B^{}"}.get(
        quantity, quantity + "_{}")
    if quantity == "U":
        name = "U_" + "".join(map(str, list_path))
    else:
        name = label.format(",".join(map(str, list_path)))
    return f"{name}[{inner}]" if inner else name


def _elements(record, printed_value, derived_value, list_path, keys, column):
    """``(name, printed element, derived element)`` for every printed element."""
    if not isinstance(printed_value, sympy.MatrixBase):
        derived_element = (derived_value[0, 0] if isinstance(derived_value, sympy.MatrixBase)
                           else derived_value)
        return [(_element_name(record.quantity, list_path, keys), printed_value,
                 derived_element)]
    if not isinstance(derived_value, sympy.MatrixBase) or (
            derived_value.shape != printed_value.shape):
        raise ValueError(f"{record.place}: printed shape {printed_value.shape} does not fit "
                         f"the derived {getattr(derived_value, 'shape', ())}")
    offsets = [0, 0]
    for axis, k in enumerate(keys[:2]):
        offsets[axis] = (k - 1) if isinstance(k, int) else (k.start or 0)
    result = []
    for r in range(printed_value.shape[0]):
        for c in range(printed_value.shape[1]):
            path = ((offsets[0] + r + 1,) if column else
                    (offsets[0] + r + 1, offsets[1] + c + 1))
            result.append((_element_name(record.quantity, list_path, path),
                           printed_value[r, c], derived_value[r, c]))
    return result


def _split_terms(a, b) -> tuple:
    """``(a_only, b_only)``: the terms of ``a`` and of ``b`` (in the canonical expanded form of
    :func:`dynlab.model.symbolic.reduce_trig`) that the other lacks; ``a_only - b_only = a - b``."""
    ta = collections.Counter(sympy.Add.make_args(reduce_trig(a)))
    tb = collections.Counter(sympy.Add.make_args(reduce_trig(b)))
    common = ta & tb
    return sympy.Add(*(ta - common).elements()), sympy.Add(*(tb - common).elements())


def _differing_terms(a, b) -> tuple:
    """:func:`_split_terms`, each side in compact book form (for display)."""
    a_only, b_only = _split_terms(a, b)
    return compact(a_only), compact(b_only)


_UNEXPLAINED = ("no erratum in dynlab.teaching.errata covers this: a new erratum, or a slip in the "
                "transcription")


@functools.cache
def _compare_record(record, method: str, variant: str | None) -> tuple:
    """``(discrepancies, unconfirmed)`` of one record (cached: records and derivations are
    immutable, so a notebook's second call is free)."""
    found = []
    full = derived(record.arm, record.quantity, method, variant, record.frame)
    derived_value, list_path, keys, column = _select(full, record.index)
    if record.given:
        derived_value = derived_value.xreplace(record.given)
    printed_value = record.expression()
    fixes = [record.correction(k) for k in range(len(record.errata))]
    errata = record.erratum_records()
    shown = [False] * len(errata)
    elements = _elements(record, printed_value, derived_value, list_path, keys, column)
    fixed = [_elements(record, fix, derived_value, list_path, keys, column) for fix in fixes]
    for position, (name, p, d) in enumerate(elements):
        if is_zero(p, -d):
            continue
        change = 0
        for k, erratum in enumerate(errata):          # one entry per erratum in the element
            f = fixed[k][position][1]
            if is_zero(f, -p):
                continue
            shown[k] = True
            change += f - p
            printed_terms, corrected_terms = _differing_terms(p, f)
            found.append(Discrepancy(record.source, record.place, name, printed_terms,
                                     corrected_terms, erratum.why, erratum, record))
        if change != 0 and is_zero(p + change, -d):
            continue
        printed_terms, derived_terms = _differing_terms(p + change, d)
        found.append(Discrepancy(record.source, record.place, name, printed_terms,
                                 derived_terms, _UNEXPLAINED, None, record))
    return tuple(found), tuple((record, e) for e, s in zip(errata, shown) if not s)


def compare_with_derivation(arm: str | None = None, method: str = "newton_euler",
                            variant: str | None = None, source: str | None = None
                            ) -> PrintedComparison:
    """Every printed equation of ``arm`` (default all; ``source`` narrows) against dynlab's
    derivation by ``method``/``variant``: a :class:`PrintedComparison` of :class:`Discrepancy`
    (element, printed and derived terms, the erratum), one per erratum; empty when all agree.

    >>> result = compare_with_derivation("planar_2r/lynch_park", method="dalembert")
    >>> [(d.element, d.erratum.place) for d in result]   # doctest: +NORMALIZE_WHITESPACE
    [('K', 'Sec. 8.1.1, K_2 of the 2R example (draft: below Eq. (9.7))'),
     ('tau_1', 'Sec. 8.1.1, tau_1 of the 2R example, coefficient of thetadd_2 (draft: after Eq.
     (9.8))'),
     ('tau_2', 'Sec. 8.1.1, tau_2 of the 2R example, velocity term (draft: after Eq. (9.8))'),
     ('tau_2', 'Sec. 8.1.1, tau_2 of the 2R example, gravity term (draft: after Eq. (9.8))')]
    >>> result[3].printed, result[3].derived
    (-L2*g*m2*cos(q1 + q2), L2*g*m2*cos(q1 + q2))
    """
    formulations.lookup(method, variant)
    records = printed(source, arm)
    found, unconfirmed = [], []
    for record in records:
        discrepancies, unexplained = _compare_record(record, method, variant)
        found.extend(discrepancies)
        unconfirmed.extend(unexplained)
    return PrintedComparison(found, records, unconfirmed, arm, method)
