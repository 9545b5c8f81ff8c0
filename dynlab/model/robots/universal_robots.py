"""The Universal Robots UR20 from the maker's published DH and inertial table (Universal Robots,
"DH Parameters for calculations of kinematics and dynamics"), shipped as ``data/ur20.urdf``.

>>> [round(link.a, 4) for link in ur20().links]
[0.0, 0.862, 0.7287, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

import math
import os

import sympy

from dynlab.model.checks import flag
from dynlab.model.link import Link
from dynlab.model.robot import Robot
from dynlab.model.robots.urdf import from_urdf

#: The URDF file of the UR20 shipped with dynlab
UR20_URDF = os.path.join(os.path.dirname(__file__), "data", "ur20.urdf")

UR20_SOURCE = ("Universal Robots, \"DH Parameters for calculations of kinematics and dynamics\" "
               "(UR20 table)")

#: The maker's table, per joint: a, d, alpha (quarter turns), mass, centre of mass (DH frame i),
#: inertia matrix (Ixx, Ixy, Ixz, Iyy, Iyz, Izz) about the centre of mass. SI units.
UR20_PARAMETERS = (
    (0.0, 0.2363, 1, 16.343, (0.0, -0.0610, 0.0062), (0.0887, -0.0001, -0.0001, 0.0763, 0.0072,
                                                       0.0842)),
    (-0.8620, 0.0, 0, 29.632, (0.5226, 0.0, 0.2098), (0.1467, 0.0002, -0.0516, 4.6659, 0.0,
                                                      4.6348)),
    (-0.7287, 0.0, 0, 7.879, (0.3234, 0.0, 0.0604), (0.0261, -0.0001, -0.0290, 0.7576, 0.0,
                                                     0.7533)),
    (0.0, 0.2010, 1, 3.054, (0.0, -0.0026, 0.0393), (0.0056, 0.0, 0.0, 0.0054, 0.0004, 0.0040)),
    (0.0, 0.1593, -1, 3.126, (0.0, 0.0024, 0.0379), (0.0059, 0.0, 0.0, 0.0058, -0.0004, 0.0043)),
    (0.0, 0.1543, 0, 0.846, (0.0, -0.0003, -0.0318), (0.0009, 0.0, 0.0, 0.0009, 0.0, 0.0012)),
)


def ur20_table(symbolic: bool = False) -> Robot:
    """The UR20 straight from the maker's DH table (:data:`UR20_PARAMETERS`); with
    ``symbolic=True`` every non-zero figure is a symbol (``d1``, ``a2``, ``m1``, ``rx2``,
    ``Ixx1``, ``Ixz2`` ...) and gravity ``g``, the zeros stay zeros.

    >>> ur20_table().links[1].a
    -0.862
    """
    symbolic = flag(symbolic, "ur20", "symbolic")
    links = []
    for k, (a, d, quarter_turns, mass, com, moments) in enumerate(UR20_PARAMETERS, start=1):
        inertia_names = ("xx", "xy", "xz", "yy", "yz", "zz")
        if symbolic:
            def sym(value, name):
                return sympy.Symbol(name, real=True) if value else 0
            a, d = sym(a, f"a{k}"), sym(d, f"d{k}")
            mass = sympy.Symbol(f"m{k}", positive=True)
            com = tuple(sym(c, f"r{axis}{k}") for c, axis in zip(com, "xyz"))
            moments = tuple(sym(v, f"I{name}{k}") for v, name in zip(moments, inertia_names))
        xx, xy, xz, yy, yz, zz = moments
        alpha = sympy.pi * quarter_turns / 2 if symbolic else math.pi * quarter_turns / 2
        links.append(Link("R", d=d, a=a, alpha=alpha, mass=mass, com=com,
                          inertia=((xx, xy, xz), (xy, yy, yz), (xz, yz, zz)),
                          name=f"link {k}"))
    g = sympy.Symbol("g", positive=True) if symbolic else 9.81
    return Robot(links, gravity=(0, 0, -g), name="UR20 (maker's table)", source=UR20_SOURCE)


def ur20_values() -> dict:
    """``{symbol: number}``: the maker's figures for the symbols of ``ur20_table(symbolic=True)``
    (and ``g = 9.81``), to put numbers into an expression derived in the table's letters.

    >>> values = {str(s): v for s, v in ur20_values().items()}
    >>> values["a2"], values["m2"], values["rx2"], values["g"]
    (-0.862, 29.632, 0.5226, 9.81)
    """
    letters, numbers = ur20_table(symbolic=True), ur20_table()
    values = {}
    for named, link in zip(letters.links, numbers.links):
        pairs = [(named.a, link.a), (named.d, link.d), (named.mass, link.mass),
                 *zip(named.com, link.com),
                 *zip(sum(map(list, named.inertia), []), sum(map(list, link.inertia), []))]
        values.update({symbol: float(value) for symbol, value in pairs
                       if isinstance(symbol, sympy.Symbol)})
    values[-letters.gravity[2]] = -float(numbers.gravity[2])
    return values


def ur20(symbolic: bool = False) -> Robot:
    """The UR20 loaded from its URDF file (:data:`UR20_URDF`), gravity ``-9.81`` along ``z``
    of the base; ``symbolic=True`` gives the maker's table in symbols (:func:`ur20_table`),
    the same arm."""
    if flag(symbolic, "ur20", "symbolic"):
        return ur20_table(symbolic=True)
    return from_urdf(UR20_URDF, name="UR20").replace(source=UR20_SOURCE + ", as a URDF file")
