"""The texts the workbook teaches from, and how the product cites them.

:data:`BIBLIOGRAPHY` maps a short key to the full reference; :data:`AUTHORS` maps the same key
to the author-year form used in running text and tables; :func:`cite` joins that form with a
place a reader finds in print (section, equation, table, figure, problem).  Records of
:mod:`dynlab.errata` and :mod:`dynlab.textbook` name their source by these keys.

>>> cite("fu", "Eq. (3.2-26)")
'Fu, Gonzalez & Lee (1987), Eq. (3.2-26)'
>>> print(markdown())                      # doctest: +ELLIPSIS
- **Fu, Gonzalez & Lee (1987)**: K. S. Fu, R. C. Gonzalez and C. S. G. Lee, *Robotics: ...
"""

from __future__ import annotations

#: key -> full reference (the chapters and the README print this list)
BIBLIOGRAPHY = {
    "fu": "K. S. Fu, R. C. Gonzalez and C. S. G. Lee, *Robotics: Control, Sensing, Vision, and "
          "Intelligence*, McGraw-Hill, New York, 1987; Ch. 3, \"Robot Arm Dynamics\".",
    "thesis": "Appendix B, \"Dynamics of two link manipulators\", of a thesis: the Lagrange-Euler "
              "equations of a two-link arm with a point-mass payload derived with the computer "
              "algebra system Macsyma.",
    "schilling": "R. J. Schilling, *Fundamentals of Robotics: Analysis and Control*, "
                 "Prentice Hall, Englewood Cliffs, NJ, 1990; Ch. 6, \"Manipulator Dynamics\".",
    "lynch_park": "K. M. Lynch and F. C. Park, *Modern Robotics: Mechanics, Planning, and "
                  "Control*, the chapter \"Dynamics of Open Chains\" (numbered Chapter 9 in the "
                  "edition cited here: Eqs. (9.x), Sec. 9.1.1).",
    "tourassis_neuman": "V. D. Tourassis and C. P. Neuman, \"Properties and structure of dynamic "
                        "robot models for control engineering applications\", *Mechanism and "
                        "Machine Theory* 20(1), 27-40, 1985.",
    "armstrong_khatib_burdick": "B. Armstrong, O. Khatib and J. Burdick, \"The explicit dynamic "
                                "model and inertial parameters of the PUMA 560 arm\", Proc. IEEE "
                                "Int. Conf. Robotics and Automation, 1986, pp. 510-518; the "
                                "parameter set as collected by P. I. Corke and B. "
                                "Armstrong-Helouvry, \"A search for consensus among model "
                                "parameters reported for the PUMA 560 robot\", ICRA 1994.",
}

#: key -> the author-year form a reader looks up in :data:`BIBLIOGRAPHY`
AUTHORS = {
    "fu": "Fu, Gonzalez & Lee (1987)",
    "thesis": "the thesis appendix 'Dynamics of two link manipulators'",
    "schilling": "Schilling (1990)",
    "lynch_park": "Lynch & Park",
    "tourassis_neuman": "Tourassis & Neuman (1985)",
    "armstrong_khatib_burdick": "Armstrong, Khatib & Burdick (1986)",
}


def check_source(key: str, keys=tuple(BIBLIOGRAPHY)) -> str:
    """``key`` if it names a text of the bibliography, else a ``ValueError`` listing the keys.

    >>> check_source("schilling")
    'schilling'
    >>> check_source("Schilling")
    Traceback (most recent call last):
    ...
    ValueError: unknown source 'Schilling'; the sources are fu, thesis, schilling, lynch_park, \
tourassis_neuman, armstrong_khatib_burdick
    """
    if key not in keys:
        raise ValueError(f"unknown source {key!r}; the sources are {', '.join(keys)}")
    return key


def cite(key: str, place: str = "") -> str:
    """The citation of ``place`` in the text ``key``, as a reader finds it in print."""
    authors = AUTHORS[check_source(key)]
    return f"{authors}, {place}" if place else authors


def markdown() -> str:
    """The bibliography as a Markdown list (for chapter 00 and the README)."""
    return "\n".join(f"- **{AUTHORS[key]}**: {reference}"
                     for key, reference in BIBLIOGRAPHY.items())
