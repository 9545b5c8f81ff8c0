"""The six arms of Tourassis & Neuman (1985), Tables 2 and 3 (Cartesian, cylindrical, spherical,
articulated, Stanford, PUMA), on a level floor (their Sec. 6: ``G_1 = 0``), ``z0`` up, with
generic inertial parameters: ``inertia="general"`` (full centres of mass and tensors),
``"principal"`` (diagonal tensors) or ``"axial"`` (centres of mass on the link's line,
:data:`AXIAL_COM`).  Symbols by default (for counting); any parameter may be passed by name.

>>> arm = cylindrical()
>>> arm.joint_types, sorted(map(str, arm.links[2].free_symbols()))[:4]
(('revolute', 'prismatic', 'prismatic'), ['Ixx3', 'Ixy3', 'Ixz3', 'Iyy3'])
>>> [round(x, 3) for x in cylindrical(symbolic=False, rx3=0.05).links[2].com]
[0.05, 0.0, -0.3]
"""

from __future__ import annotations

import math

import sympy

from dynlab.model.link import G, Link, scalar
from dynlab.model.robot import Robot
from dynlab.model.robots.puma import PUMA560_LUMPED_LINKS, PUMA560_PARAMETERS

#: The inertial levels of generality (see the module docstring).
INERTIA_LEVELS = ("general", "principal", "axial")

#: For ``inertia="axial"``: per arm, per link, the one coordinate (in frame k) of the centre of
#: mass that stays (the line along which the link extends).
AXIAL_COM = {
    "cartesian": ("z", "z", "z"),
    "cylindrical": ("z", "z", "z"),
    "spherical": ("y", "z", "z"),
    "articulated": ("y", "x", "x"),
    "stanford": ("y", "z", "z", "z", "z", "z"),
    "puma": ("y", "x", "z", "z", "z", "z"),
}

_QUARTER = object()          # marker: an angle of k quarter turns, exact or float by ``symbolic``


def _angle(quarter_turns: int, symbolic: bool):
    # exact pi/2 for derivations; a float for numbers, so the numeric path meets no SymPy
    return sympy.pi * quarter_turns / 2 if symbolic else math.pi * quarter_turns / 2


def _inertial_names(k: int, level: str, axial: str) -> dict:
    """Parameter names of link ``k`` at ``level``: mass, centre of mass, tensor entries."""
    com = tuple(f"r{axis}{k}" if level != "axial" or axis == axial else None for axis in "xyz")
    moments = tuple(f"I{axes}{k}" for axes in ("xx", "yy", "zz"))
    products = tuple(f"I{axes}{k}" if level == "general" else None for axes in ("xy", "xz", "yz"))
    return {"mass": f"m{k}", "com": com, "moments": moments, "products": products}


def _symbol(name: str):
    # masses, lengths, moments and g are positive; centre-of-mass coordinates and products of
    # inertia may have either sign
    if name.startswith("r") or name[:3] in ("Ixy", "Ixz", "Iyz"):
        return sympy.Symbol(name, real=True)
    return sympy.Symbol(name, positive=True)


def _build(arm: str, title: str, joints: list, symbolic: bool, inertia: str, given: dict,
           defaults: dict, source: str, lumped=()) -> Robot:
    """Assemble an arm: ``joints`` lists per link ``(kind, dh)`` with ``dh`` a dict of DH entries
    whose values are parameter names (str), numbers, or quarter-turn angles ``(_QUARTER, k)``.
    ``defaults`` maps every parameter name to dynlab's number."""
    if inertia not in INERTIA_LEVELS:
        raise ValueError(f"{arm}: inertia must be one of {', '.join(INERTIA_LEVELS)}, "
                         f"got {inertia!r}")
    if not isinstance(symbolic, bool):
        raise TypeError(f"{arm}: symbolic must be True or False, got {symbolic!r}")
    names = [_inertial_names(k, inertia, AXIAL_COM[arm][k - 1]) for k in
             range(1, len(joints) + 1)]
    used = {"g"} | {v for _, dh in joints for v in dh.values() if isinstance(v, str)}
    for entry in names:
        used |= {entry["mass"]} | {n for n in (*entry["com"], *entry["moments"],
                                               *entry["products"]) if n}
    unknown = set(given) - used
    if unknown:
        fixed = sorted(unknown & set(defaults))
        hint = (f" ({', '.join(fixed)} is zero at inertia={inertia!r}; use "
                f"inertia='general' to set it)" if fixed else "")
        raise TypeError(f"{arm}: unknown parameter(s) {sorted(unknown)}{hint}; this arm has "
                        f"{', '.join(sorted(used, key=_order))}")

    for name, given_value in given.items():   # named as the caller named it (m1, not mass)
        if given_value is not None:
            scalar(given_value, arm, name)

    def value(name):
        if name is None:
            return 0
        if given.get(name) is not None:
            return given[name]
        return _symbol(name) if symbolic else defaults[name]

    links = []
    for k, ((kind, dh), entry) in enumerate(zip(joints, names), start=1):
        values = {}
        for key, v in dh.items():
            if isinstance(v, tuple) and v[0] is _QUARTER:
                values[key] = _angle(v[1], symbolic)
            elif isinstance(v, str):
                values[key] = value(v)
            else:
                values[key] = v
        (Ixx, Iyy, Izz), (Ixy, Ixz, Iyz) = (map(value, entry["moments"]),
                                            map(value, entry["products"]))
        tensor = ((Ixx, Ixy, Ixz), (Ixy, Iyy, Iyz), (Ixz, Iyz, Izz))
        links.append(Link(kind, **values, mass=value(entry["mass"]),
                          com=tuple(map(value, entry["com"])), inertia=tensor,
                          name=f"link {k}", lumped_inertia=k in lumped))
    return Robot(links, gravity=(0, 0, -value("g")), name=f"{title} ({inertia} inertia)",
                 source=source)


def _order(name: str):
    return (name.lstrip("IrmadgxyzXYZ") or "0", name)


def _defaults(lengths: dict, masses: tuple, coms: tuple, moments: tuple) -> dict:
    """dynlab's numbers: per link mass, centre of mass and principal moments; products 0."""
    values = {"g": G, **lengths}
    for k, (m, com, I) in enumerate(zip(masses, coms, moments), start=1):
        values[f"m{k}"] = m
        values.update({f"r{axis}{k}": c for axis, c in zip("xyz", com)})
        values.update({f"I{axes}{k}": v for axes, v in zip(("xx", "yy", "zz"), I)})
        values.update({f"I{axes}{k}": 0.0 for axes in ("xy", "xz", "yz")})
    return values


def _box(m, x, y, z):
    """Principal moments of a uniform box of mass m and sides x, y, z (about its centre)."""
    return (m * (y * y + z * z) / 12, m * (x * x + z * z) / 12, m * (x * x + y * y) / 12)


# -- 3-joint positioning systems -------------------------------------------------------------
CARTESIAN_DEFAULTS = _defaults(
    {}, (20.0, 10.0, 5.0), ((0, 0, -0.2), (0, 0, -0.3), (0, 0, -0.3)),
    (_box(20.0, 0.3, 0.3, 0.4), _box(10.0, 0.15, 0.15, 0.6), _box(5.0, 0.1, 0.1, 0.6)))


def cartesian(symbolic: bool = True, *, inertia: str = "general", **parameters) -> Robot:
    """Tourassis & Neuman's Cartesian ``(z-x-y)`` arm: prismatic along ``z0`` (up), ``x0``, ``y0``;
    ``"axial"``: centres of mass on each slide.  Numbers (dynlab's): masses 20, 10, 5 kg.

    >>> from dynlab.model.kinematics import joint_axes
    >>> [[round(float(x)) for x in a] for a in joint_axes(cartesian(symbolic=False), [0.0] * 3)]
    [[0, 0, 1], [1, 0, 0], [0, 1, 0]]
    """
    joints = [("P", {"theta": (_QUARTER, -1), "alpha": (_QUARTER, -1)}),
              ("P", {"theta": (_QUARTER, -1), "alpha": (_QUARTER, 1)}),
              ("P", {})]
    return _build("cartesian", "Cartesian (z-x-y) arm", joints, symbolic, inertia, parameters,
                  CARTESIAN_DEFAULTS, "Tourassis & Neuman, Sec. 6, Table 3 (axes z _|_ x _|_ y)")


CYLINDRICAL_DEFAULTS = _defaults(
    {"d1": 0.5}, (20.0, 10.0, 5.0), ((0, 0, -0.25), (0, 0, -0.1), (0, 0, -0.3)),
    (_box(20.0, 0.2, 0.2, 0.5), _box(10.0, 0.2, 0.2, 0.3), _box(5.0, 0.08, 0.08, 0.6)))


def cylindrical(symbolic: bool = True, *, inertia: str = "general", **parameters) -> Robot:
    """Tourassis & Neuman's cylindrical ``(theta-z-r)`` arm: a column about ``z0`` (up), a carriage
    up it, a radial arm along the horizontal ``z2``.  Numbers (dynlab's): ``d1 = 0.5 m``, masses
    20, 10, 5 kg, ``rz3 = -0.3``.

    >>> from dynlab.model.kinematics import joint_axes
    >>> [[round(float(x)) for x in a] for a in joint_axes(cylindrical(symbolic=False), [0.0] * 3)]
    [[0, 0, 1], [0, 0, 1], [0, 1, 0]]
    """
    joints = [("R", {"d": "d1"}),
              ("P", {"theta": 0, "alpha": (_QUARTER, -1)}),
              ("P", {})]
    return _build("cylindrical", "cylindrical (theta-z-r) arm", joints, symbolic, inertia,
                  parameters, CYLINDRICAL_DEFAULTS,
                  "Tourassis & Neuman, Sec. 6, Table 3 (theta || z _|_ r)")


SPHERICAL_DEFAULTS = _defaults(
    {"d1": 0.5}, (20.0, 10.0, 5.0), ((0, 0.1, 0), (0, 0, 0.05), (0, 0, -0.3)),
    (_box(20.0, 0.25, 0.3, 0.25), _box(10.0, 0.2, 0.2, 0.3), _box(5.0, 0.08, 0.08, 0.6)))


def spherical(symbolic: bool = True, *, inertia: str = "general", **parameters) -> Robot:
    """Tourassis & Neuman's spherical ``(theta-phi-r)`` arm (Stanford's first three joints, no
    offset): about ``z0`` (up), about the horizontal ``z1``, along the radial ``z2``.  Numbers
    (dynlab's): ``d1 = 0.5 m``, masses 20, 10, 5 kg.

    >>> from dynlab.model.kinematics import joint_axes
    >>> [[round(float(x)) for x in a] for a in joint_axes(spherical(symbolic=False), [0.0] * 3)]
    [[0, 0, 1], [0, 1, 0], [0, 0, 1]]
    """
    joints = [("R", {"d": "d1", "alpha": (_QUARTER, -1)}),
              ("R", {"alpha": (_QUARTER, 1)}),
              ("P", {})]
    return _build("spherical", "spherical (theta-phi-r) arm", joints, symbolic, inertia,
                  parameters, SPHERICAL_DEFAULTS,
                  "Tourassis & Neuman, Sec. 6, Table 3 (theta _|_ phi _|_ r)")


ARTICULATED_DEFAULTS = _defaults(
    {"d1": 0.5, "a2": 0.4, "a3": 0.4}, (20.0, 10.0, 5.0),
    ((0, 0.1, 0), (-0.2, 0, 0), (-0.2, 0, 0)),
    (_box(20.0, 0.2, 0.4, 0.2), _box(10.0, 0.4, 0.08, 0.08), _box(5.0, 0.4, 0.06, 0.06)))


def articulated(symbolic: bool = True, *, inertia: str = "general", **parameters) -> Robot:
    """Tourassis & Neuman's articulated ``(q1-q2-q3)`` arm: a waist about ``z0`` (up), shoulder and
    elbow about ``z1 || z2``.  Numbers (dynlab's): ``d1 = 0.5``, ``a2 = a3 = 0.4 m``, masses 20,
    10, 5 kg.

    >>> from dynlab.model.kinematics import joint_axes
    >>> [[round(float(x)) for x in a] for a in joint_axes(articulated(symbolic=False), [0.0] * 3)]
    [[0, 0, 1], [0, -1, 0], [0, -1, 0]]
    """
    joints = [("R", {"d": "d1", "alpha": (_QUARTER, 1)}),
              ("R", {"a": "a2"}),
              ("R", {"a": "a3"})]
    return _build("articulated", "articulated (q1-q2-q3) arm", joints, symbolic, inertia,
                  parameters, ARTICULATED_DEFAULTS,
                  "Tourassis & Neuman, Sec. 6, Table 3 (q1 _|_ q2 || q3)")


# -- 6-joint arms ------------------------------------------------------------------------------
STANFORD_DEFAULTS = _defaults(
    {"d1": 0.4, "d2": 0.15, "d6": 0.1}, (9.0, 5.0, 4.0, 1.0, 0.6, 0.5),
    ((0, 0.05, 0), (0, 0, -0.05), (0, 0, -0.3), (0, 0, 0.03), (0, 0, 0.02), (0, 0, -0.05)),
    (_box(9.0, 0.2, 0.3, 0.2), _box(5.0, 0.15, 0.15, 0.25), _box(4.0, 0.08, 0.08, 0.8),
     _box(1.0, 0.1, 0.1, 0.1), _box(0.6, 0.08, 0.08, 0.08), _box(0.5, 0.06, 0.06, 0.1)))


def stanford(symbolic: bool = True, *, inertia: str = "general", **parameters) -> Robot:
    """The Stanford arm (Paul's DH table, Tourassis & Neuman ref. [4]), joint 3 prismatic, shoulder
    offset ``d2``, spherical wrist.  Numbers (dynlab's): ``d1 = 0.4``, ``d2 = 0.15``, ``d6 = 0.1
    m``; masses 9, 5, 4, 1, 0.6, 0.5 kg.

    >>> stanford().joint_types[2], stanford(symbolic=False).links[1].d
    ('prismatic', 0.15)
    """
    joints = [("R", {"d": "d1", "alpha": (_QUARTER, -1)}),
              ("R", {"d": "d2", "alpha": (_QUARTER, 1)}),
              ("P", {"theta": 0}),
              ("R", {"alpha": (_QUARTER, -1)}),
              ("R", {"alpha": (_QUARTER, 1)}),
              ("R", {"d": "d6"})]
    return _build("stanford", "Stanford arm", joints, symbolic, inertia, parameters,
                  STANFORD_DEFAULTS, "Tourassis & Neuman, Sec. 6, Table 3; DH after Paul (1981), "
                  "Tourassis & Neuman ref. [4]")


_PUMA_LENGTH_NAMES = {(1, "d"): "d1", (2, "a"): "a2", (3, "d"): "d3", (3, "a"): "a3",
                      (4, "d"): "d4"}
PUMA_DEFAULTS = _defaults(
    {name: PUMA560_PARAMETERS[k - 1][0 if key == "d" else 1]
     for (k, key), name in _PUMA_LENGTH_NAMES.items()},
    tuple(row[3] for row in PUMA560_PARAMETERS), tuple(row[4] for row in PUMA560_PARAMETERS),
    tuple(row[5] for row in PUMA560_PARAMETERS))


def puma_generic(symbolic: bool = True, *, inertia: str = "general", **parameters) -> Robot:
    """Tourassis & Neuman's PUMA (Table 3): the PUMA 560's geometry with generic inertial
    parameters; numbers: the published set, so ``puma_generic(symbolic=False)`` is the PUMA 560.

    >>> arm = puma_generic(symbolic=False)
    >>> arm.links[1].mass, arm.links[2].d
    (17.4, 0.15005)
    """
    joints = []
    for k, (_, _, quarter_turns, *_rest) in enumerate(PUMA560_PARAMETERS, start=1):
        dh = {"alpha": (_QUARTER, quarter_turns)}
        for key in ("d", "a"):
            if (k, key) in _PUMA_LENGTH_NAMES:
                dh[key] = _PUMA_LENGTH_NAMES[k, key]
        joints.append(("R", dh))
    return _build("puma", "PUMA", joints, symbolic, inertia, parameters, PUMA_DEFAULTS,
                  "Tourassis & Neuman, Sec. 6, Table 3; geometry and numbers of "
                  "dynlab.model.robots.puma560",
                  lumped=PUMA560_LUMPED_LINKS)


#: The builders by Tourassis & Neuman's names, in Table 3's order.
TOURASSIS_NEUMAN_ARMS = {"cartesian": cartesian, "cylindrical": cylindrical, "spherical": spherical,
            "articulated": articulated, "stanford": stanford, "puma": puma_generic}
