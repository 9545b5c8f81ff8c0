"""The PUMA 560 with Armstrong, Khatib & Burdick's (1986) parameters as collected by Corke &
Armstrong-Helouvry (1994), or with symbols.

>>> sorted(map(str, puma560(symbolic=True, joints=2).free_symbols))[:4]
['Ixx2', 'Iyy1', 'Iyy2', 'Izz2']
"""

from __future__ import annotations

import math

import sympy

from dynlab.model.checks import count, flag
from dynlab.model.link import G, Link
from dynlab.model.robot import Robot

#: Standard DH and inertial parameters of the PUMA 560: Armstrong, Khatib & Burdick (1986) as
#: collected by Corke & Armstrong-Helouvry (ICRA 1994). SI units.
#: Per joint: d, a, alpha (in quarter turns), mass, centre of mass (frame i), (Ixx, Iyy, Izz).
PUMA560_PARAMETERS = (
    (0.6718, 0.0, 1, 0.0, (0.0, 0.0, 0.0), (0.0, 0.35, 0.0)),
    (0.0, 0.4318, 0, 17.4, (-0.3638, 0.006, 0.2275), (0.13, 0.524, 0.539)),
    (0.15005, 0.0203, -1, 4.8, (-0.0203, -0.0141, 0.070), (0.066, 0.086, 0.0125)),
    (0.4318, 0.0, 1, 0.82, (0.0, 0.019, 0.0), (0.0018, 0.0013, 0.0018)),
    (0.0, 0.0, -1, 0.34, (0.0, 0.0, 0.0), (0.0003, 0.0004, 0.0003)),
    (0.0, 0.0, 0, 0.09, (0.0, 0.0, 0.032), (0.00015, 0.00015, 0.00004)),
)

#: Named configurations of the literature (reference/puma560.md).
PUMA560_POSES = {
    "qz": (0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    "qr": (0.0, sympy.pi / 2, -sympy.pi / 2, 0.0, 0.0, 0.0),
    "qs": (0.0, 0.0, -sympy.pi / 2, 0.0, 0.0, 0.0),
    "qn": (0.0, sympy.pi / 4, -sympy.pi, 0.0, sympy.pi / 4, 0.0),
}

#: Links whose published inertia is not that of a single rigid body.  Link 1 carries only the
#: column's rotating inertia (Iyy = 0.35, Ixx = Izz = 0); link 3's Iyy = 0.086 exceeds
#: Ixx + Izz = 0.0785.  Only a lumped (measured, motor-including) figure can do that, so these
#: links are marked ``lumped_inertia`` and keep the published numbers.
PUMA560_LUMPED_LINKS = (1, 3)


def puma560(symbolic: bool = False, joints: int = 6) -> Robot:
    """The PUMA 560: the published set, or (``symbolic=True``) a symbol for every non-zero figure;
    ``joints`` keeps the first links; gravity along ``-z0``.

    >>> [round(float(x), 4) for x in puma560(joints=3).links[2].com]
    [-0.0203, -0.0141, 0.07]
    """
    symbolic = flag(symbolic, "puma560", "symbolic")
    joints = count(joints, "puma560", "joints", 1, 6)
    links = []
    for k, (d, a, quarter_turns, mass, com, moments) in enumerate(PUMA560_PARAMETERS, start=1):
        if k > joints:
            break
        if symbolic:
            def sym(value, name):
                return sympy.Symbol(name, real=True) if value else 0
            d, a = sym(d, f"d{k}"), sym(a, f"a{k}")
            mass = sympy.Symbol(f"m{k}", positive=True) if mass else 0
            com = tuple(sym(c, f"r{axis}{k}") for c, axis in zip(com, "xyz"))
            moments = tuple(sympy.Symbol(f"I{axis}{k}", positive=True) if value else 0
                            for value, axis in zip(moments, ("xx", "yy", "zz")))
        # exact pi/2 for derivations; a float for numbers, so the numeric path meets no SymPy
        alpha = sympy.pi * quarter_turns / 2 if symbolic else math.pi * quarter_turns / 2
        links.append(Link("R", d=d, a=a, alpha=alpha, mass=mass,
                          com=com, inertia=moments, name=f"link {k}",
                          lumped_inertia=k in PUMA560_LUMPED_LINKS))
    g = sympy.Symbol("g", positive=True) if symbolic else G
    return Robot(links, gravity=(0, 0, -g), name="PUMA 560" if joints == 6 else
                 f"PUMA 560 (first {joints} joints)",
                 source="Armstrong, Khatib & Burdick 1986 via Corke & Armstrong-Helouvry 1994")


