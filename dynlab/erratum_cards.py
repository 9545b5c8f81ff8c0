"""Errata as a notebook column holds them: one card per erratum, the place in the book on top,
then what is printed and what is correct, each on its own displayed line of mathematics, then
the reason.  (:class:`dynlab.errata.Errata` shows the same records as one wide table.)

>>> from dynlab.errata import errata_table
>>> shown = cards(errata_table("fu")[:1])
>>> print(shown.data.splitlines()[1])
<p><b>Fu, Gonzalez &amp; Lee (1987), Eq. (3.2-23)</b> (scan)</p>
>>> cards([])
Traceback (most recent call last):
...
ValueError: cards: no errata to show
"""

from __future__ import annotations

import html

from dynlab.errata import Erratum


def _card(erratum: Erratum) -> str:
    def display(label: str, tex: str) -> str:
        return (f"<p>{label}</p>\n<div>$${html.escape(tex, quote=False)}$$</div>")
    return "\n".join([
        f"<p><b>{html.escape(erratum.citation)}</b> ({html.escape(erratum.kind)})</p>",
        display("printed:", erratum.printed),
        display("correct:", erratum.correct),
        f"<p><small>{html.escape(erratum.why)}</small></p>"])


def cards(errata):
    """``errata`` (records of :mod:`dynlab.errata`), each once and in order, as stacked cards
    (an IPython ``HTML`` object)."""
    from IPython.display import HTML
    records = list(dict.fromkeys(errata))
    if not records:
        raise ValueError("cards: no errata to show")
    return HTML("<div>\n" + "\n<hr>\n".join(_card(e) for e in records) + "\n</div>")
