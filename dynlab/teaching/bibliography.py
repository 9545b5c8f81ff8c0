"""The texts the workbook teaches from (:data:`BIBLIOGRAPHY`, :data:`AUTHORS`) and how the product
cites them (:func:`cite`).

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
    "thesis": "Appendix B, \"Dynamics of Two Link Manipulators\", of a thesis on motion "
              "planning, 1990 (its author is not named in the appendix; its Macsyma batch file is "
              "dated June 18, 1990): the Lagrange-Euler equations of a two-link arm with a "
              "point-mass payload derived with the computer algebra system Macsyma.",
    "schilling": "R. J. Schilling, *Fundamentals of Robotics: Analysis and Control*, "
                 "Prentice Hall, Englewood Cliffs, NJ, 1990; Ch. 6, \"Manipulator Dynamics\".",
    "lynch_park": "K. M. Lynch and F. C. Park, *Modern Robotics: Mechanics, Planning, and "
                  "Control*, Cambridge University Press, Cambridge, 2017; Ch. 8, \"Dynamics of "
                  "Open Chains\", Secs. 8.1-8.6, 8.8, 8.9 (and Secs. 3.3.2, 3.4, 4.1 and 5.1.1 "
                  "for the adjoint representation, wrenches, the product of exponentials and "
                  "the space Jacobian). A preliminary draft numbered this chapter 9; the few "
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
    "atkeson_an_hollerbach": "C. G. Atkeson, C. H. An and J. M. Hollerbach, \"Estimation of "
                             "inertial parameters of manipulator loads and links\", *The "
                             "International Journal of Robotics Research* 5(3), 101-119, 1986.",
    "gautier_khalil": "M. Gautier and W. Khalil, \"Direct calculation of minimum set of inertial "
                      "parameters of serial robots\", *IEEE Transactions on Robotics and "
                      "Automation* 6(3), 368-373, 1990.",
    "swevers": "J. Swevers, C. Ganseman, D. B. Tukel, J. De Schutter and H. Van Brussel, "
               "\"Optimal robot excitation and identification\", *IEEE Transactions on Robotics "
               "and Automation* 13(5), 730-740, 1997.",
    "wensing_kim_slotine": "P. M. Wensing, S. Kim and J.-J. E. Slotine, \"Linear matrix "
                           "inequalities for physically consistent inertial parameter "
                           "identification: a statistical perspective on the mass "
                           "distribution\", *IEEE Robotics and Automation Letters* 3(1), 60-67, "
                           "2018 (published online in 2017).",
}

#: key -> the author-year form a reader looks up in :data:`BIBLIOGRAPHY`
AUTHORS = {
    "fu": "Fu, Gonzalez & Lee (1987)",
    "thesis": "the thesis appendix 'Dynamics of Two Link Manipulators' (1990)",
    "schilling": "Schilling (1990)",
    "lynch_park": "Lynch & Park (2017)",
    "tourassis_neuman": "Tourassis & Neuman (1985)",
    "armstrong_khatib_burdick": "Armstrong, Khatib & Burdick (1986)",
    "atkeson_an_hollerbach": "Atkeson, An & Hollerbach (1986)",
    "gautier_khalil": "Gautier & Khalil (1990)",
    "swevers": "Swevers, Ganseman, Tukel, De Schutter & Van Brussel (1997)",
    "wensing_kim_slotine": "Wensing, Kim & Slotine (2017)",
}

#: the draft column of a place the book prints outside its dynamics chapter
_OTHER_CHAPTER = "not in the draft (another chapter)"

#: Lynch & Park, "Dynamics of Open Chains": a preliminary draft numbers the chapter 9, the
#: published book (Cambridge University Press, 2017) and its free updated edition number it 8.
#: The draft's sections keep their order in the book, which renames two (8.3, 8.6), adds Sec.
#: 8.1.3, splits Sec. 8.3 in two and adds Secs. 8.7-8.9 after the draft's last section; the
#: draft is of this one chapter, so the places the workbook cites in the book's Chs. 3-5 are not
#: in it.  The product cites the published place; a draft equation number is quoted only as
#: "draft Eq. (9.x)".  The draft's places were read in the draft; the published ones are the
#: book's contents and the numbers it prints (its Eq. (8.1) and Prop. 8.1).
#: published place -> (its title in the book, the same place in the draft or None)
LYNCH_PARK_CONCORDANCE = {
    "Ch. 8": ("Dynamics of Open Chains", "Ch. 9"),
    "Eq. (8.1)": (r"the equations of motion, "
                  r"$\tau = M(\theta)\ddot\theta + h(\theta, \dot\theta)$",
                  "draft Eq. (9.1), with b for h"),
    "Sec. 8.1": ("Lagrangian Formulation", "Sec. 9.1"),
    "Sec. 8.1.1": ("Basic Concepts and Motivating Example", "Sec. 9.1.1"),
    "Sec. 8.1.2": ("General Formulation", "Sec. 9.1.2"),
    "Sec. 8.1.3": ("Understanding the Mass Matrix", None),
    "Sec. 8.2": ("Dynamics of a Single Rigid Body", "Sec. 9.2"),
    "Sec. 8.2.1": ("Classical Formulation", "Sec. 9.2.1"),
    "Sec. 8.2.2": ("Twist-Wrench Formulation", "Sec. 9.2.2"),
    "Sec. 8.3": ("Newton-Euler Inverse Dynamics", 'Sec. 9.3, "Inverse Dynamics of Open Chains"'),
    "Sec. 8.3.2": ("Newton-Euler Inverse Dynamics Algorithm", "Sec. 9.3, its algorithm"),
    "Sec. 8.4": ("Dynamic Equations in Closed Form", "Sec. 9.4"),
    "Prop. 8.1": (r"$\dot M - 2C$ is skew-symmetric", "Prop. 9.1 (in Sec. 9.4)"),
    "Sec. 8.5": ("Forward Dynamics of Open Chains", "Sec. 9.5"),
    "Sec. 8.6": ("Dynamics in the Task Space", 'Sec. 9.6, "Dynamics in Task Space Coordinates"'),
    "Sec. 8.7": ("Constrained Dynamics", None),
    "Sec. 8.8": ("Robot Dynamics in the URDF", None),
    "Sec. 8.9": ("Actuation, Gearing, and Friction", None),
    "Sec. 8.9.1": ("DC Motors and Gearing", None),
    "Sec. 8.9.2": ("Apparent Inertia", None),
    "Sec. 8.9.3": ("Newton-Euler Inverse Dynamics Algorithm Accounting for Motor Inertias and "
                   "Gearing", None),
    "Sec. 8.9.4": ("Friction", None),
    "Ch. 3": ("Rigid-Body Motions", _OTHER_CHAPTER),
    "Sec. 3.3.2": ("Twists (the adjoint representation)", _OTHER_CHAPTER),
    "Sec. 3.4": ("Wrenches", _OTHER_CHAPTER),
    "Ch. 4": ("Forward Kinematics", _OTHER_CHAPTER),
    "Sec. 4.1": ("Product of Exponentials Formula", _OTHER_CHAPTER),
    "Sec. 5.1.1": ("Space Jacobian", _OTHER_CHAPTER),
}


def lynch_park_concordance() -> str:
    """Every place of Lynch & Park's published book that the workbook cites, with the same
    place in the preliminary draft of its Ch. 8, as a Markdown table (for chapter 00).

    >>> print("\\n".join(lynch_park_concordance().splitlines()[:3]))
    | published book (2017) | title | preliminary draft |
    |---|---|---|
    | Ch. 8 | Dynamics of Open Chains | Ch. 9 |
    >>> print(lynch_park_concordance().splitlines()[-1])
    | Sec. 5.1.1 | Space Jacobian | not in the draft (another chapter) |
    """
    rows = [f"| {place} | {title} | {draft or 'not in the draft'} |"
            for place, (title, draft) in LYNCH_PARK_CONCORDANCE.items()]
    return "\n".join(["| published book (2017) | title | preliminary draft |", "|---|---|---|",
                      *rows])


def check_source(key: str, keys=tuple(BIBLIOGRAPHY)) -> str:
    """``key`` if it names a text of the bibliography, else a ``ValueError`` listing the keys.

    >>> check_source("schilling")
    'schilling'
    >>> check_source("Schilling")
    Traceback (most recent call last):
    ...
    ValueError: unknown source 'Schilling'; the sources are fu, thesis, schilling, lynch_park, \
tourassis_neuman, armstrong_khatib_burdick, atkeson_an_hollerbach, gautier_khalil, swevers, \
wensing_kim_slotine
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
