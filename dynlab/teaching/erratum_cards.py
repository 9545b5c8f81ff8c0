"""Errata as notebook cards (:func:`cards`): the place, printed and correct lines, the reason
and, for a draft's slip, the evidence.

>>> from dynlab.teaching.errata import errata_table
>>> later = cards(errata_table("lynch_park", kind="corrected")[:1]).data
>>> "Corrected in the published edition: <code>modern_robotics.MassMatrix</code>" in later
True
>>> cards([])
Traceback (most recent call last):
...
ValueError: cards: no errata to show
"""

from __future__ import annotations

import html
import re

from dynlab.teaching.errata import Erratum

#: ASCII names of the errata's reasons and their LaTeX (the dotted rates as the books print them)
_NAMES = {"qddot": r"\ddot q", "qdot": r"\dot q", "thetadd": r"\ddot\theta",
          "thetadot": r"\dot\theta", "thetad": r"\dot\theta", "theta": r"\theta",
          "omega": r"\omega", "Gamma": r"\Gamma", "tau": r"\tau", "alpha": r"\alpha"}
_FUNCTIONS = {"Tr": r"\mathrm{Tr}", "diag": r"\mathrm{diag}", "sin": r"\sin", "cos": r"\cos",
              "int": r"\int"}
_NAME = re.compile(r"(?<![A-Za-z\\])(d?)(" + "|".join(sorted(_NAMES, key=len, reverse=True))
                   + r")(?![A-Za-z])")
_FUNCTION = re.compile(r"(?<![A-Za-z\\])(" + "|".join(_FUNCTIONS) + r")(?![A-Za-z])")
_EQUATION_NUMBER = re.compile(r"^\(?\d+(\.\d+)+(-\d+)?\)?[:;,.]?$|^\d+\.\d+\.\d+")
_FRACTION = re.compile(r"^-?\(?\d+/\d+\)?$")
_NUMBER = re.compile(r"^-?\d+$")
_OPERATOR = {"+", "-", "=", "...", "*", "/"}


def _strong(word: str) -> bool:
    """Whether ``word`` (punctuation stripped) is mathematics on its own."""
    core = word.strip("()[]")
    if not core or _EQUATION_NUMBER.match(word):
        return False
    return bool("_" in core or "^" in core or re.fullmatch(r"\d+R0", core)
                or re.fullmatch(r"-?[A-Za-z]\d{1,3}", core.split("[")[0].split("(")[0])
                or re.fullmatch(r"-?[B-Zb-z]", core) or _FRACTION.match(core)
                or _NAME.fullmatch(core) or re.search(r"\((\w+)\)?$", word) and
                _NAME.search(word))


def _weak(word: str) -> bool:
    """Whether ``word`` is mathematics when it stands next to mathematics."""
    core = word.strip("()[],")
    return (word in _OPERATOR or _NUMBER.match(core) is not None
            or _FUNCTION.fullmatch(core.split("(")[0]) is not None or core in ("dm", "dP"))


def _tex(run: str) -> str:
    """A run of ASCII mathematics as LaTeX."""
    tex = re.sub(r"(\d)R0", r"{}^{\1}R_0", run)
    tex = re.sub(r"(?<![A-Za-z])([ij])r_([ij])", r"{}^{\1}r_{\2}", tex)
    tex = re.sub(r"(\w)\*_", r"\1^*_", tex)
    tex = re.sub(r"(?<![A-Za-z\\{}])([A-Za-z])(\d{1,3})(?!\d)", r"\1_{\2}", tex)
    tex = re.sub(r"([_^])(\w{2,})", r"\1{\2}", tex)
    tex = _NAME.sub(lambda m: m.group(1) + _NAMES[m.group(2)] + " ", tex)
    tex = _FUNCTION.sub(lambda m: _FUNCTIONS[m.group(1)] + " ", tex)
    tex = tex.replace("...", r"\ldots").replace(" _", "_").replace(" ^", "^")
    return re.sub(r" +", " ", tex).strip()


def _balanced(run: str):
    """``run`` without the brackets that open or close outside it: (before, run, after)."""
    before = after = ""
    for open_, close in ("()", "[]"):
        while run.startswith(open_) and run.count(open_) > run.count(close):
            before, run = before + open_, run[1:]
        while run.endswith(close) and run.count(close) > run.count(open_):
            after, run = close + after, run[:-1]
    return before, run, after


def why_html(text: str) -> str:
    r"""An erratum's reason as HTML, its ASCII mathematics (``qddot_1``, ``thetadd_2``,
    ``2R0 n_2``, ``m l^2/3``) typeset as inline LaTeX, the prose left as it is.

    >>> print(why_html("as scanned the line gives m_1 a_1^2 qddot_1/2, not the one below"))
    as scanned the line gives $m_1 a_1^2 \ddot q_1/2$, not the one below
    >>> print(why_html("Tr(U22 J2 U22^T) = J2[1,1], so"))
    $\mathrm{Tr} (U_{22} J_{2} U_{22}^T) = J_{2}[1,1]$, so
    """
    words = text.split(" ")
    pieces, run, depth = [], [], 0

    def flush():
        nonlocal run
        if not any(_strong(w.rstrip(",;:")) for w in run):
            pieces.extend(html.escape(w) for w in run)
            run = []
            return
        lead, tail = [], []
        while run[0] in ("+", "-", "="):          # an operator at either end stays prose
            lead.append(run.pop(0))
        while run[-1] in ("+", "-", "="):
            tail.insert(0, run.pop())
        before, body, after = _balanced(" ".join(run))
        pieces.extend(html.escape(w) for w in lead)
        pieces.append(html.escape(before) + "$" + html.escape(_tex(body), quote=False) + "$"
                      + html.escape(after))
        pieces.extend(html.escape(w) for w in tail)
        run = []

    for word in words:
        stripped = word.rstrip(",;:.") if not word.endswith("...") else word
        punctuation = word[len(stripped):]
        if _strong(stripped) or _weak(stripped):
            run.append(stripped)
            depth += (stripped.count("(") + stripped.count("[")
                      - stripped.count(")") - stripped.count("]"))
            if punctuation and depth <= 0:
                flush()
                pieces[-1] += punctuation
                depth = 0
            elif punctuation:
                run[-1] += punctuation
        else:
            flush()
            depth = 0
            pieces.append(html.escape(word))
    flush()
    return " ".join(pieces)


#: what a card calls the wrong form: the book's page, the scanned copy's reading of it, or the
#: preliminary draft's (kinds of :data:`dynlab.teaching.errata.KINDS`)
WRONG_LABEL = {"book": "printed:", "scan": "as scanned:", "corrected": "the draft prints:"}


def _card(erratum: Erratum) -> str:
    """One erratum as HTML: the wrong form, named by where it stands, and the correct one.

    >>> from dynlab.teaching.errata import ERRATA
    >>> [card.split("</p>")[1].strip() for card in map(_card, ERRATA[:1])]
    ['<p>as scanned:']
    """
    def display(label: str, tex: str) -> str:
        return (f"<p>{label}</p>\n<div>$${html.escape(tex, quote=False)}$$</div>")
    return "\n".join([
        f"<p><b>{why_html(erratum.citation)}</b></p>",
        display(WRONG_LABEL[erratum.kind], erratum.printed),
        display("correct:", erratum.correct),
        f"<p><small>{why_html(erratum.why)}</small></p>",
        *([f"<p><small>Corrected in the published edition: {_evidence_html(erratum.evidence)}"
           f"</small></p>"] if erratum.kind == "corrected" else [])])


def _evidence_html(text: str) -> str:
    """An erratum's evidence: the `quoted` names of code as code, the rest as :func:`why_html`.

    >>> _evidence_html("`modern_robotics.MassMatrix` gives M_22 = m_2 L_2^2, at rest")
    '<code>modern_robotics.MassMatrix</code> gives $M_{22} = m_2 L_2^2$, at rest'
    """
    pieces = []
    for k, part in enumerate(text.split("`")):
        if k % 2:
            pieces.append(f"<code>{html.escape(part)}</code>")
        elif part.strip():
            html_part = why_html(part.strip())
            glue = "" if part[0] in ",.;:)" else " "
            pieces.append((glue if pieces else "") + html_part
                          + (" " if part.endswith(" ") else ""))
    return "".join(pieces).strip()


def cards(errata):
    """``errata`` (records of :mod:`dynlab.teaching.errata`), each once and in order, as stacked
    cards (an IPython ``HTML`` object)."""
    from IPython.display import HTML
    records = list(dict.fromkeys(errata))
    if not records:
        raise ValueError("cards: no errata to show")
    return HTML("<div>\n" + "\n<hr>\n".join(_card(e) for e in records) + "\n</div>")
