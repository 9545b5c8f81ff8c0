"""The arms of Tourassis & Neuman (1985), Tables 2 and 3, with generic inertial parameters.

Tourassis & Neuman, Sec. 6 compares the dynamic models of six arms by the number of non-zero independent
coefficients: the positioning systems Cartesian ``(z-x-y)``, cylindrical ``(theta-z-r)``,
spherical ``(theta-phi-r)`` and articulated ``(q1-q2-q3)``, and the six-joint Stanford arm and
PUMA.  Tourassis & Neuman gives only the arrangement of the joint axes (Table 3's second column):

    Cartesian     z _|_ x _|_ y                     (prismatic, prismatic, prismatic)
    cylindrical   theta || z _|_ r                  (revolute, prismatic, prismatic)
    spherical     theta _|_ phi _|_ r               (revolute, revolute, prismatic)
    articulated   q1 _|_ q2 || q3                   (revolute x 3)
    Stanford      q1 _|_ q2 _|_ q3 || q4 _|_ q5 _|_ q6   (joint 3 prismatic)
    PUMA          q1 _|_ q2 || q3 _|_ q4 _|_ q5 _|_ q6

and that every arm stands on a level floor, joint 1 about or along the vertical (Tourassis & Neuman, Sec. 6:
"all of the robots are assumed to operate on a level foundation and consequently G_1 = 0";
the Cartesian arm's joint 1 lifts, so its ``G_1`` is the constant weight).  The DH tables below
realise these arrangements with the fewest lengths (the Stanford arm's is Paul's, Tourassis & Neuman ref. [4],
with its shoulder offset ``d2``; the PUMA's is dynlab's PUMA 560,
:func:`dynlab.model.robots.puma560`).  ``z0`` points up and gravity is ``(0, 0, -g)``.

The inertial parameters are what Tourassis & Neuman leaves open, and what its counts depend on.  Every builder
takes ``inertia``:

``"general"``
    every link has a full centre of mass ``(rx_k, ry_k, rz_k)`` (in frame k) and a full symmetric
    inertia tensor about it (``Ixx_k, Iyy_k, Izz_k, Ixy_k, Ixz_k, Iyz_k``, axes of frame k);
``"principal"``
    the same centres of mass, the principal axes of inertia along frame k's axes (a diagonal
    tensor ``diag(Ixx_k, Iyy_k, Izz_k)``);
``"axial"``
    principal axes as above, and each centre of mass on the line along which its link extends
    (the builder's docstring names the line; :data:`AXIAL_COM` lists them): the idealised,
    symmetric links of the textbook models.

With ``symbolic=True`` (the default: these arms are for counting) every parameter is a SymPy
symbol named as above (``m3``, ``rx3``, ``Ixy3``, lengths ``d1``, ``a2`` ..., gravity ``g``);
with ``symbolic=False`` they take dynlab's numbers (stated in each docstring; Tourassis & Neuman gives none).
Any parameter may be passed by name, a number or an expression, in either mode:
``cylindrical(symbolic=False, rx3=0.05)`` moves the radial arm's centre of mass sideways.
Parameters that the chosen ``inertia`` level fixes at zero cannot be passed.

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
    """Tourassis & Neuman's Cartesian ``(z-x-y)`` arm: three prismatic joints along ``z0`` (up), ``x0``, ``y0``.

    DH (standard): joint 1 ``theta = -pi/2, alpha = -pi/2``; joint 2 ``theta = -pi/2,
    alpha = pi/2``; joint 3 ``theta = 0, alpha = 0``; no lengths (a prismatic joint's ``a`` and
    fixed ``d`` only move its axis, which changes nothing in ``D``).  ``inertia="axial"``: each
    centre of mass on frame k's ``z`` axis (the slide).  Numbers (``symbolic=False``, dynlab's
    choice): masses 20, 10, 5 kg, boxes about their centres, centres of mass 0.2-0.3 m below
    each frame's origin along its slide.

    >>> from dynlab.model.kinematics import joint_axes
    >>> [[round(float(x)) for x in axis] for axis in joint_axes(cartesian(symbolic=False), [0.0] * 3)]
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
    """Tourassis & Neuman's cylindrical ``(theta-z-r)`` arm: a column turning about ``z0`` (up), a carriage
    sliding up it (``z1 = z0``) and a radial arm sliding along the horizontal ``z2``, which
    meets the column's axis.

    DH: joint 1 revolute, ``d = d1`` (column height), ``alpha = 0``; joint 2 prismatic,
    ``theta = 0``, ``alpha = -pi/2``; joint 3 prismatic, ``theta = 0``, ``alpha = 0``.
    ``inertia="axial"``: each centre of mass on frame k's ``z`` axis (column, radial line,
    radial line).  Numbers (``symbolic=False``, dynlab's choice): ``d1 = 0.5 m``; masses 20, 10,
    5 kg; boxes; the radial arm's centre of mass 0.3 m behind its tip (``rz3 = -0.3``).

    >>> from dynlab.model.kinematics import joint_axes
    >>> [[round(float(x)) for x in axis] for axis in joint_axes(cylindrical(symbolic=False), [0.0] * 3)]
    [[0, 0, 1], [0, 0, 1], [0, 1, 0]]
    """
    joints = [("R", {"d": "d1"}),
              ("P", {"theta": 0, "alpha": (_QUARTER, -1)}),
              ("P", {})]
    return _build("cylindrical", "cylindrical (theta-z-r) arm", joints, symbolic, inertia,
                  parameters, CYLINDRICAL_DEFAULTS, "Tourassis & Neuman, Sec. 6, Table 3 (theta || z _|_ r)")


SPHERICAL_DEFAULTS = _defaults(
    {"d1": 0.5}, (20.0, 10.0, 5.0), ((0, 0.1, 0), (0, 0, 0.05), (0, 0, -0.3)),
    (_box(20.0, 0.25, 0.3, 0.25), _box(10.0, 0.2, 0.2, 0.3), _box(5.0, 0.08, 0.08, 0.6)))


def spherical(symbolic: bool = True, *, inertia: str = "general", **parameters) -> Robot:
    """Tourassis & Neuman's spherical ``(theta-phi-r)`` arm (the Stanford arm's first three joints without its
    shoulder offset): turn about ``z0`` (up), tilt about the horizontal ``z1``, slide along the
    radial ``z2`` through the meeting point of ``z0`` and ``z1``.

    DH: joint 1 revolute, ``d = d1``, ``alpha = -pi/2``; joint 2 revolute, ``alpha = pi/2``;
    joint 3 prismatic, ``theta = 0``, ``alpha = 0``.  ``inertia="axial"``: link 1's centre of
    mass on the column's axis (``y1``), links 2 and 3 on the radial line (their ``z`` axes).
    Numbers (``symbolic=False``, dynlab's choice): ``d1 = 0.5 m``; masses 20, 10, 5 kg; boxes.

    >>> from dynlab.model.kinematics import joint_axes
    >>> [[round(float(x)) for x in axis] for axis in joint_axes(spherical(symbolic=False), [0.0] * 3)]
    [[0, 0, 1], [0, 1, 0], [0, 0, 1]]
    """
    joints = [("R", {"d": "d1", "alpha": (_QUARTER, -1)}),
              ("R", {"alpha": (_QUARTER, 1)}),
              ("P", {})]
    return _build("spherical", "spherical (theta-phi-r) arm", joints, symbolic, inertia,
                  parameters, SPHERICAL_DEFAULTS, "Tourassis & Neuman, Sec. 6, Table 3 (theta _|_ phi _|_ r)")


ARTICULATED_DEFAULTS = _defaults(
    {"d1": 0.5, "a2": 0.4, "a3": 0.4}, (20.0, 10.0, 5.0),
    ((0, 0.1, 0), (-0.2, 0, 0), (-0.2, 0, 0)),
    (_box(20.0, 0.2, 0.4, 0.2), _box(10.0, 0.4, 0.08, 0.08), _box(5.0, 0.4, 0.06, 0.06)))


def articulated(symbolic: bool = True, *, inertia: str = "general", **parameters) -> Robot:
    """Tourassis & Neuman's articulated ``(q1-q2-q3)`` arm (an elbow arm without offsets): a waist about
    ``z0`` (up), shoulder and elbow about horizontal parallel axes ``z1 || z2``.

    DH: joint 1 revolute, ``d = d1``, ``alpha = pi/2``; joints 2 and 3 revolute with
    ``a = a2``, ``a3``, ``alpha = 0``.  ``inertia="axial"``: link 1's centre of mass on the
    column's axis (``y1``), links 2 and 3 on their ``x`` axes (along upper arm and forearm).
    Numbers (``symbolic=False``, dynlab's choice): ``d1 = 0.5``, ``a2 = a3 = 0.4 m``; masses 20,
    10, 5 kg; upper arm and forearm as bars with their centres of mass midway.

    >>> from dynlab.model.kinematics import joint_axes
    >>> [[round(float(x)) for x in axis] for axis in joint_axes(articulated(symbolic=False), [0.0] * 3)]
    [[0, 0, 1], [0, -1, 0], [0, -1, 0]]
    """
    joints = [("R", {"d": "d1", "alpha": (_QUARTER, 1)}),
              ("R", {"a": "a2"}),
              ("R", {"a": "a3"})]
    return _build("articulated", "articulated (q1-q2-q3) arm", joints, symbolic, inertia,
                  parameters, ARTICULATED_DEFAULTS, "Tourassis & Neuman, Sec. 6, Table 3 (q1 _|_ q2 || q3)")


# -- 6-joint arms ------------------------------------------------------------------------------
STANFORD_DEFAULTS = _defaults(
    {"d1": 0.4, "d2": 0.15, "d6": 0.1}, (9.0, 5.0, 4.0, 1.0, 0.6, 0.5),
    ((0, 0.05, 0), (0, 0, -0.05), (0, 0, -0.3), (0, 0, 0.03), (0, 0, 0.02), (0, 0, -0.05)),
    (_box(9.0, 0.2, 0.3, 0.2), _box(5.0, 0.15, 0.15, 0.25), _box(4.0, 0.08, 0.08, 0.8),
     _box(1.0, 0.1, 0.1, 0.1), _box(0.6, 0.08, 0.08, 0.08), _box(0.5, 0.06, 0.06, 0.1)))


def stanford(symbolic: bool = True, *, inertia: str = "general", **parameters) -> Robot:
    """The Stanford arm (Paul's DH table, Tourassis & Neuman ref. [4]): ``q1 _|_ q2 _|_ q3 || q4 _|_ q5 _|_ q6``
    with joint 3 prismatic and a spherical wrist.

    DH: joint 1 revolute, ``d = d1``, ``alpha = -pi/2``; joint 2 revolute, ``d = d2``
    (the shoulder offset), ``alpha = pi/2``; joint 3 prismatic, ``theta = 0``, ``alpha = 0``;
    joint 4 revolute, ``alpha = -pi/2``; joint 5 revolute, ``alpha = pi/2``; joint 6 revolute,
    ``d = d6``, ``alpha = 0``.  ``inertia="axial"``: link 1's centre of mass on the column's
    axis (``y1``), the others on their frames' ``z`` axes (boom and wrist).  Numbers (``symbolic=False``, dynlab's choice, Stanford-arm sized): ``d1 = 0.4``,
    ``d2 = 0.15``, ``d6 = 0.1 m``; masses 9, 5, 4, 1, 0.6, 0.5 kg; boxes.

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
                  STANFORD_DEFAULTS, "Tourassis & Neuman, Sec. 6, Table 3; DH after Paul (1981), Tourassis & Neuman ref. [4]")


_PUMA_LENGTH_NAMES = {(1, "d"): "d1", (2, "a"): "a2", (3, "d"): "d3", (3, "a"): "a3",
                      (4, "d"): "d4"}
PUMA_DEFAULTS = _defaults(
    {name: PUMA560_PARAMETERS[k - 1][0 if key == "d" else 1]
     for (k, key), name in _PUMA_LENGTH_NAMES.items()},
    tuple(row[3] for row in PUMA560_PARAMETERS), tuple(row[4] for row in PUMA560_PARAMETERS),
    tuple(row[5] for row in PUMA560_PARAMETERS))


def puma_generic(symbolic: bool = True, *, inertia: str = "general", **parameters) -> Robot:
    """The PUMA of Tourassis & Neuman, Table 3: the PUMA 560's geometry
    (:func:`dynlab.model.robots.puma560`: ``d1``, ``a2``, ``d3``, ``a3``, ``d4``, twists
    ``pi/2, 0, -pi/2, pi/2, -pi/2, 0``) with generic inertial parameters, where
    :func:`~dynlab.model.robots.puma560` keeps the published set's zeros.

    ``inertia="axial"``: link 1's centre of mass on the column's axis (``y1``), link 2's on
    ``x2`` (along the upper arm), the others on their frames' ``z`` axes (forearm, wrist).  Numbers (``symbolic=False``): the
    published set of :data:`dynlab.model.robots.PUMA560_PARAMETERS` (products of inertia 0), links 1
    and 3 with their lumped inertias, so ``puma_generic(symbolic=False)`` is the PUMA 560.

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
                  "Tourassis & Neuman, Sec. 6, Table 3; geometry and numbers of dynlab.model.robots.puma560",
                  lumped=PUMA560_LUMPED_LINKS)


#: The builders by Tourassis & Neuman's names, in Table 3's order.
TOURASSIS_NEUMAN_ARMS = {"cartesian": cartesian, "cylindrical": cylindrical, "spherical": spherical,
            "articulated": articulated, "stanford": stanford, "puma": puma_generic}
