"""Every transcribed printed equation, source by source (:data:`RECORDS`), found by source and
arm (:func:`printed`) or by place (:func:`lookup`).
"""

from __future__ import annotations

from dynlab.teaching.textbook.fu import records_fu
from dynlab.teaching.textbook.letters import SOURCES, validate_arm
from dynlab.teaching.textbook.lynch_park import records_lynch_park
from dynlab.teaching.textbook.records import PrintedEquation
from dynlab.teaching.textbook.schilling import (
    records_schilling_pendulum,
    records_schilling_planar,
    records_schilling_scara,
)
from dynlab.teaching.textbook.thesis import records_thesis

#: Every transcribed printed equation, source by source.
RECORDS = tuple(records_fu() + records_thesis() + records_schilling_pendulum()
                + records_schilling_planar() + records_schilling_scara() + records_lynch_park())


def printed(source: str | None = None, arm: str | None = None) -> tuple:
    """The transcribed printed equations, optionally of one source and/or one arm.

    >>> [r.place for r in printed("thesis")]   # doctest: +NORMALIZE_WHITESPACE
    ['App. B.9, (d47) with (d52)',
     'App. B.9, (d51) with (d52)']
    >>> printed(arm="planar_2r")
    Traceback (most recent call last):
    ...
    ValueError: unknown arm 'planar_2r'; the arms are pendulum, planar_2r/fu, \
planar_2r/schilling, planar_2r/lynch_park, planar_2r/macsyma, scara
    """
    if source is not None and source not in SOURCES:
        raise ValueError(f"unknown source {source!r}; the sources with worked examples are "
                         f"{', '.join(SOURCES)}")
    if arm is not None:
        validate_arm(arm)
    return tuple(r for r in RECORDS if (source is None or r.source == source)
                 and (arm is None or r.arm == arm))


def lookup(source: str, place: str, quantity: str | None = None) -> PrintedEquation:
    """The one record of ``source`` at ``place`` (and of ``quantity``, if given).

    >>> lookup("fu", "Sec. 3.2.6, D_22").as_printed()
    l**2*m2/2
    """
    found = [r for r in printed(source) if r.place == place
             and (quantity is None or r.quantity == quantity)]
    if len(found) != 1:
        raise KeyError(f"{len(found)} records of {source} at {place!r}"
                       + (f" for {quantity}" if quantity else ""))
    return found[0]
