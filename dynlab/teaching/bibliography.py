"""The texts the workbook teaches from, and how the product cites them.

:data:`BIBLIOGRAPHY` maps a short key to the full reference; :data:`AUTHORS` maps the same key
to the author-year form used in running text and tables; :func:`cite` joins that form with a
place a reader finds in print (section, equation, table, figure, problem).  Records of
:mod:`dynlab.teaching.errata` and :mod:`dynlab.teaching.textbook` name their source by these keys.

>>> cite("fu", "Eq. (3.2-26)")
'Fu, Gonzalez & Lee (1987), Eq. (3.2-26)'
>>> cite("lynch_park", "Sec. 8.3, the acceleration recursion (draft Eq. (9.55))")
'Lynch & Park (2017), Sec. 8.3, the acceleration recursion (draft Eq. (9.55))'
>>> print(markdown())                      # doctest: +ELLIPSIS
- **Fu, Gonzalez & Lee (1987)**: K. S. Fu, R. C. Gonzalez and C. S. G. Lee, *Robotics: ...
"""

from __future__ import annotations

#: key -> full reference (the chapters and the README print this list)
BIBLIOGRAPHY = {
    "fu": "K. S. Fu, R. C. Gonzalez and C. S. G. Lee, *Robotics: Control, Sensing, Vision, and "
          "Intelligence*, McGraw-Hill, New York, 1987; Ch. 3, \"Robot Arm Dynamics\".",
    "thesis": "Appendix B, \"Dynamics of Two Link Manipulators\", of a thesis on motion "
              "planning, 1990 (its author is not named in the appendix; its Macsyma batch file is "
              "dated June 18, 1990): the Lagrange-Euler equations of a two-link arm with a "
              "point-mass payload derived with the computer algebra system Macsyma.",
    "schilling": "R. J. Schilling, *Fundamentals of Robotics: Analysis and Control*, "
                 "Prentice Hall, Englewood Cliffs, NJ, 1990; Ch. 6, \"Manipulator Dynamics\".",
    "lynch_park": "K. M. Lynch and F. C. Park, *Modern Robotics: Mechanics, Planning, and "
                  "Control*, Cambridge University Press, Cambridge, 2017; Ch. 8, \"Dynamics of "
                  "Open Chains\", Secs. 8.1-8.6, 8.8, 8.9 (Sec. 3.3.2 for the adjoint "
                  "representation). A preliminary draft numbered this chapter 9; the few "
                  "equation numbers quoted from it are marked \"draft\".",
    "tourassis_neuman": "V. D. Tourassis and C. P. Neuman, \"The inertial characteristics of "
                        "dynamic robot models\", *Mechanism and Machine Theory* 20(1), 41-52, "
                        "1985.",
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
    "thesis": "the thesis appendix 'Dynamics of Two Link Manipulators' (1990)",
    "schilling": "Schilling (1990)",
    "lynch_park": "Lynch & Park (2017)",
    "tourassis_neuman": "Tourassis & Neuman (1985)",
    "armstrong_khatib_burdick": "Armstrong, Khatib & Burdick (1986)",
}

#: Lynch & Park, "Dynamics of Open Chains": a preliminary draft numbers the chapter 9, the
#: published book (Cambridge University Press, 2017) and its free updated edition number it 8.
#: The sections keep their order and their titles (the published book adds Sec. 8.1.3,
#: "Understanding the Mass Matrix", and splits Sec. 8.3 into 8.3.1 "Derivation" and 8.3.2 "Newton-Euler
#: Inverse Dynamics Algorithm"), so the draft's Sec. 9.x is the published Sec. 8.x.  The product
#: cites the published section and names the equation by its role; the published equation
#: numbers differ from the draft's, and a draft number is quoted only as "draft Eq. (9.x)".
#: draft section -> (published section, its title)
LYNCH_PARK_SECTIONS = {
    "9.1": ("8.1", "Lagrangian Formulation"),
    "9.1.1": ("8.1.1", "Basic Concepts and Motivating Example"),
    "9.1.2": ("8.1.2", "General Formulation"),
    "9.2": ("8.2", "Dynamics of a Single Rigid Body"),
    "9.2.1": ("8.2.1", "Classical Formulation"),
    "9.2.2": ("8.2.2", "Twist-Wrench Formulation"),
    "9.3": ("8.3", "Newton-Euler Inverse Dynamics"),
    "9.4": ("8.4", "Dynamic Equations in Closed Form"),
    "9.5": ("8.5", "Forward Dynamics of Open Chains"),
    "9.6": ("8.6", "Dynamics in the Task Space"),
}


def published_section(draft: str) -> str:
    """The published book's section for a section of Lynch & Park's draft chapter 9.

    >>> published_section("9.1.1"), published_section("9.4")
    ('8.1.1', '8.4')
    >>> published_section("8.4")
    Traceback (most recent call last):
    ...
    ValueError: no draft section '8.4' of Lynch & Park; the draft's sections are 9.1, 9.1.1, \
9.1.2, 9.2, 9.2.1, 9.2.2, 9.3, 9.4, 9.5, 9.6
    """
    if draft not in LYNCH_PARK_SECTIONS:
        raise ValueError(f"no draft section {draft!r} of Lynch & Park; the draft's sections are "
                         f"{', '.join(LYNCH_PARK_SECTIONS)}")
    return LYNCH_PARK_SECTIONS[draft][0]


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
