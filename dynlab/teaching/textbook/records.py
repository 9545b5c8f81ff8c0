"""One printed equation of a worked example (:class:`PrintedEquation`): the expression as
printed, in the book's letters, mapped onto dynlab's symbols, with the errata of
:mod:`dynlab.teaching.errata` that correct it; and the helpers the transcriptions are written
with (:func:`mat`, :func:`col`, :func:`make_record`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import sympy
from sympy import ImmutableMatrix

from dynlab.teaching.bibliography import cite
from dynlab.teaching.errata import ERRATA, Erratum
from dynlab.teaching.textbook.letters import (
    FRICTION,
    QUANTITIES,
    SOURCES,
    TRACE_QUANTITIES,
    validate_arm,
)


@dataclass(frozen=True, eq=False)
class PrintedEquation:
    """One printed equation of a worked example: ``index`` (1-based link and element, a slice, or
    ``None``), ``printed`` (in the book's letters, or a function computing it), ``symbols`` (book
    letters -> dynlab's), ``given`` (substituted on both sides), ``errata`` (places of
    :data:`dynlab.teaching.errata.ERRATA`) and ``corrections`` (one per erratum).

    >>> from dynlab.teaching.textbook.catalogue import lookup
    >>> from dynlab.teaching.textbook.letters import qdd2
    >>> record = lookup("schilling", "Eq. (6-6-25)")
    >>> record.errata, record.name
    (('Eq. (6-6-25)',), 'tau_1')
    >>> record.expression().has(qdd2**2), record.corrected().has(qdd2**2)
    (True, False)
    """

    source: str
    place: str
    arm: str
    quantity: str
    index: tuple | None
    printed: Any
    symbols: Mapping = field(default_factory=dict)
    name: str = ""
    errata: tuple = ()
    corrections: tuple = ()
    frame: str | None = None
    given: Mapping = field(default_factory=dict)
    note: str = ""

    def __post_init__(self):
        if self.source not in SOURCES:
            raise ValueError(f"{self.place}: unknown source {self.source!r}; the sources with "
                             f"worked examples are {', '.join(SOURCES)}")
        validate_arm(self.arm)
        if self.index is not None and not isinstance(self.index, tuple):
            raise TypeError(f"{self.place}: index must be a tuple (1-based numbers, slices) "
                            f"or None, got {type(self.index).__name__}")
        if self.quantity not in QUANTITIES:
            raise ValueError(f"{self.place}: unknown quantity {self.quantity!r}")
        if len(self.corrections) != len(self.errata):
            raise ValueError(f"{self.place}: give one correction per erratum")
        if (self.quantity in TRACE_QUANTITIES) != (self.frame in ("link", "base")):
            raise ValueError(f"{self.place}: Newton-Euler trace quantities (only) need "
                             f"frame='link' or 'base'")

    @property
    def citation(self) -> str:
        """Author(s), year and place, as a reader finds it in print."""
        return cite(self.source, self.place)

    def as_printed(self):
        """The expression as printed, in the book's letters."""
        return _resolve(self.printed)

    def _in_dynlab(self, expression):
        mapping = {**self.symbols, **FRICTION.get(self.arm, {})}
        value = sympy.sympify(expression).xreplace(mapping)
        return value.xreplace(self.given) if self.given else value

    def expression(self):
        """The printed expression in dynlab's symbols (``given`` substituted)."""
        return self._in_dynlab(self.as_printed())

    def correction(self, k: int):
        """The printed expression with only the ``k``-th erratum corrected (dynlab's symbols)."""
        return self._in_dynlab(_resolve(self.corrections[k]))

    def corrected(self):
        """The printed expression with every erratum corrected, in dynlab's symbols."""
        value = self.expression()
        return value + sum((self.correction(k) - value for k in range(len(self.errata))),
                           sympy.zeros(*value.shape) if isinstance(value, sympy.MatrixBase)
                           else sympy.S.Zero)

    def erratum_records(self) -> tuple:
        """The :class:`dynlab.teaching.errata.Erratum` records named by ``errata``."""
        return tuple(_erratum(self.source, place) for place in self.errata)

    def __repr__(self) -> str:
        where = "" if self.index is None else str(self.index)
        return (f"PrintedEquation({self.source}, {self.place!r}, {self.arm}, "
                f"{self.quantity}{where})")


@functools.cache
def _resolve_callable(function):
    return function()


def _resolve(value):
    return _resolve_callable(value) if callable(value) else value


def _erratum(source: str, place: str) -> Erratum:
    for erratum in ERRATA:
        if erratum.source == source and erratum.place == place:
            return erratum
    raise KeyError(f"no erratum of {source} at {place!r} in dynlab.teaching.errata.ERRATA")


def mat(*rows):
    """An immutable matrix from rows (a column from one-element rows)."""
    return ImmutableMatrix([list(row) for row in rows])


def col(*entries):
    return ImmutableMatrix(list(entries))


def make_record(source, place, arm, quantity, index, expression, symbols_, name, **extra):
    return PrintedEquation(source, place, arm, quantity, index, expression, symbols_, name,
                           **extra)
