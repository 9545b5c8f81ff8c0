"""The planar arm with two revolute joints, in the four versions of the sources: Fu, Gonzalez &
Lee (1987) Sec. 3.2.6 (Fig. 3.2), Schilling (1990) Sec. 6-5, Lynch & Park, *Modern Robotics*
Sec. 8.1.1, and the thesis appendix "Dynamics of Two Link Manipulators" (1990), App. B, done in
Macsyma.

>>> planar_2r("schilling").links[1].a
0.4
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dynlab.model.checks import choice
from dynlab.model.link import G, Link, scalar
from dynlab.model.robot import Robot
from dynlab.model.robots.parameters import friction_per_joint, physical_parameters, rod_inertia

#: Per variant: parameter names in the source's letters with dynlab's numeric defaults (the
#: sources give no numbers; gravity 9.8062 m/s^2 as Fu, Gonzalez & Lee and Schilling use it).
PLANAR_2R_PARAMETERS = {
    "fu": {"m1": 2.0, "m2": 1.0, "l": 1.0, "g": G},
    "schilling": {"m1": 2.0, "m2": 1.5, "a1": 0.5, "a2": 0.4, "g": G},
    "lynch_park": {"m1": 1.0, "m2": 0.5, "L1": 1.0, "L2": 0.8, "g": G},
    "macsyma": {"M1": 3.0, "M2": 2.0, "Mp": 0.5, "l1": 0.6, "l2": 0.4, "I1": 0.09,
                "I2": 2.0 * 0.4**2 / 12, "g": G},
}


def planar_2r(variant: str = "fu", symbolic: bool = False, *, payload=None, viscous=0,
              coulomb=0, static=None, epsilon=0.01, **parameters) -> Robot:
    """The planar 2R arm (revolute about parallel ``z``, gravity ``(0, -g, 0)``, ``alpha = d = 0``)
    in one source's version; symbols spelled as the source, any passed by name:

    ``"fu"``: Fu, Gonzalez & Lee, Sec. 3.2.6 (Fig. 3.2): ``a1 = a2 = l``, uniform rods of ``m1``,
    ``m2``; ``"schilling"``: Schilling, Sec. 6-5 (Table 6-1, Eqs. (6-5-1), (6-5-2), (6-5-8),
    (6-5-9)): thin rods ``a1``, ``a2``; ``"lynch_park"``: Lynch & Park, Sec. 8.1.1: point masses
    at the distal ends; ``"macsyma"``: the thesis appendix, App. B: rods ``M1``, ``M2`` with
    ``I1``, ``I2`` and a tip payload ``Mp`` (``payload=``) folded into link 2 by the parallel-axis
    theorem; the source's ``diag(0, 0, I)`` becomes the rod-like ``diag(0, I, I)``.
    Numbers are dynlab's (no source gives any); friction as in :func:`pendulum`.

    >>> from dynlab import equations_of_motion
    >>> eom = equations_of_motion(planar_2r("fu", symbolic=True))
    >>> eom.D[1, 1], eom.c[1]                     # Fu, Gonzalez & Lee, Sec. 3.2.6
    (l**2*m2/3, g*l*m2*cos(q1 + q2)/2)
    >>> sorted(map(str, planar_2r("macsyma", symbolic=True).free_symbols))
    ['I1', 'I2', 'M1', 'M2', 'Mp', 'g', 'l1', 'l2']
    >>> planar_2r("macsyma", payload=0.0).links[1].mass
    2.0
    """
    choice(variant, PLANAR_2R_PARAMETERS, "planar_2r", "variant")
    parameters = _with_payload(variant, payload, parameters)
    p = physical_parameters(symbolic, parameters, PLANAR_2R_PARAMETERS[variant], "planar_2r")
    friction = friction_per_joint(2, viscous, coulomb, static, epsilon, "planar_2r")
    version = PLANAR_2R_VERSIONS[variant]
    links = [Link("R", a=a, alpha=0, mass=mass, com=com, inertia=inertia, name=label, **fr)
             for (a, mass, com, inertia, label), fr in zip(version.bodies(p), friction)]
    return Robot(links, gravity=(0, -p["g"], 0), name=version.name, source=version.source)


def _with_payload(variant: str, payload, parameters: dict) -> dict:
    """``parameters`` with ``payload=`` entered as the thesis's ``Mp`` (the ``"macsyma"``
    variant's only), a negative payload refused on its own (it could hide inside a positive
    ``M2 + Mp``)."""
    if payload is not None:
        if variant != "macsyma":
            raise TypeError("planar_2r: payload= belongs to the 'macsyma' variant (the thesis "
                            f"appendix), not {variant!r}")
        if parameters.get("Mp") is not None:
            raise TypeError("planar_2r: give the payload mass once, as payload= or Mp=")
        parameters = dict(parameters, Mp=payload)
    if variant == "macsyma" and parameters.get("Mp") is not None:
        scalar(parameters["Mp"], "planar_2r", "payload", nonnegative=True)
    return parameters


# -- the four versions, as data --------------------------------------------------------------------
@dataclass(frozen=True)
class Planar2RVersion:
    """One source's two-link arm: its name and source, and ``bodies(p)``, which gives per link
    ``(a, mass, com, inertia about the CoM, link name)`` from the parameters ``p`` (numbers or
    symbols, by the source's letters)."""

    name: str
    source: str
    bodies: Callable[[dict], list]


def _uniform_rods(length1: str, length2: str, mass1: str = "m1", mass2: str = "m2") -> Callable:
    """``bodies`` of two uniform rods named by their parameters: CoM at the middle,
    ``(-a/2, 0, 0)`` in frame i, and the rod's inertia about it (:func:`rod_inertia`)."""
    def bodies(p: dict) -> list:
        return [(p[a], p[m], (-p[a] / 2, 0, 0), rod_inertia(p[m], p[a]), f"link {k}")
                for k, (a, m) in enumerate(((length1, mass1), (length2, mass2)), start=1)]
    return bodies


def _point_masses(p: dict) -> list:
    """Lynch & Park, Sec. 8.1.1: the masses at the distal ends (the frame origins), no inertia."""
    return [(p[L], p[m], (0, 0, 0), None, f"link {k}")
            for k, (L, m) in enumerate((("L1", "m1"), ("L2", "m2")), start=1)]


def _rods_and_payload(p: dict) -> list:
    """The thesis appendix, App. B: rods with moments ``I1``, ``I2``, the payload ``Mp`` folded
    into link 2 (combined CoM, parallel axes: ``M2 (l2/2 + x2)^2 + Mp x2^2``)."""
    mass2 = p["M2"] + p["Mp"]
    x2 = -p["M2"] * p["l2"] / (2 * mass2)                 # combined CoM of link 2 + payload
    I2 = p["I2"] + p["M2"] * p["Mp"] * p["l2"]**2 / (4 * mass2)
    return [(p["l1"], p["M1"], (-p["l1"] / 2, 0, 0),
             [[0, 0, 0], [0, p["I1"], 0], [0, 0, p["I1"]]], "link 1"),
            (p["l2"], mass2, (x2, 0, 0), [[0, 0, 0], [0, I2, 0], [0, 0, I2]],
             "link 2 + payload")]


#: The versions of :func:`planar_2r` by variant (the keys of :data:`PLANAR_2R_PARAMETERS`).
PLANAR_2R_VERSIONS = {
    "fu": Planar2RVersion("two-link arm (Fu, Gonzalez & Lee, Fig. 3.2)",
                          "Fu, Gonzalez & Lee, Sec. 3.2.6 (Fig. 3.2), 3.3.7, 3.4.2",
                          _uniform_rods("l", "l")),
    "schilling": Planar2RVersion("two-axis planar arm (Schilling, Sec. 6-5)",
                                 "Schilling, Sec. 6-5, Table 6-1", _uniform_rods("a1", "a2")),
    "lynch_park": Planar2RVersion("planar 2R with point masses (Lynch & Park, Sec. 8.1.1)",
                                  "Lynch & Park, Sec. 8.1.1", _point_masses),
    "macsyma": Planar2RVersion("two-link arm with payload (the thesis appendix, App. B)",
                               "the thesis appendix, App. B (Macsyma batch file B.6)",
                               _rods_and_payload),
}
