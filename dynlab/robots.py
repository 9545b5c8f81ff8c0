"""The arms of the workbook, each built from its source.

Every builder takes ``symbolic``: ``False`` gives numbers (the source's where it has them, ours,
stated, where it has none), ``True`` gives SymPy symbols for the physical parameters so the
derivations come out in the books' letters.

>>> arm = puma560()
>>> arm.n, arm.links[1].mass
(6, 17.4)
>>> sorted(map(str, puma560(symbolic=True, joints=2).free_symbols))[:4]
['Ixx2', 'Iyy1', 'Iyy2', 'Izz2']
"""

from __future__ import annotations

import math

import numpy as np
import sympy

from dynlab.checks import choice, count, flag
from dynlab.model import G, Link, Robot, scalar

# -- PUMA 560 -----------------------------------------------------------------------------------
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
    """The PUMA 560 (all revolute), with the published parameter set or with symbols.

    ``symbolic=True`` replaces every non-zero published figure by a symbol (``d1``, ``a2``,
    ``m2``, ``rx2`` ... for the centre of mass, ``Ixx2`` ...; gravity ``g``); the zeros of the set
    stay zeros, so the symbolic arm has the same structure.  ``joints`` keeps only the first
    links (``joints=3`` is the arm without its wrist).  Gravity acts along ``-z0``.

    >>> arm = puma560(joints=3)
    >>> [round(float(x), 4) for x in arm.links[2].com]
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


# -- shared helpers of the small arms -----------------------------------------------------------
def _parameters(symbolic: bool, given: dict, defaults: dict, builder: str) -> dict:
    """The physical parameters of an arm: each is ``given[name]`` when passed, else a positive
    SymPy symbol named as in the source (``symbolic=True``) or dynlab's default number."""
    symbolic = flag(symbolic, builder, "symbolic")
    unknown = set(given) - set(defaults)
    if unknown:
        raise TypeError(f"{builder}: unknown parameter(s) {sorted(unknown)}; "
                        f"this arm has {', '.join(defaults)}")
    values = {}
    for name, default in defaults.items():
        if given.get(name) is not None:
            # checked here, so that the error names the builder's parameter (m1, not the
            # mass of link 1); kept as given, so that an integer stays exact in derivations
            scalar(given[name], builder, name)
            values[name] = given[name]
        else:
            values[name] = sympy.Symbol(name, positive=True) if symbolic else default
    return values


def _friction(n: int, viscous, coulomb, static, epsilon, builder: str) -> list:
    """Per-joint keyword arguments of 002 Eq. (6-3-3) from a scalar (every joint) or one value
    per joint; ``static=None`` means ``static = coulomb`` (pure Coulomb friction, no stiction)."""
    def per_joint(value, name):
        if isinstance(value, np.ndarray):
            value = value.tolist() if value.ndim else value.item()
        if isinstance(value, (list, tuple)):
            if len(value) != n:
                raise ValueError(f"{builder}: {name} needs {n} entries (one per joint), "
                                 f"got {len(value)}")
            return list(value)
        return [value] * n
    viscous, coulomb = per_joint(viscous, "viscous"), per_joint(coulomb, "coulomb")
    static = coulomb if static is None else per_joint(static, "static")
    epsilon = per_joint(epsilon, "epsilon")
    return [dict(viscous=v, coulomb=c, static=s, epsilon=e)
            for v, c, s, e in zip(viscous, coulomb, static, epsilon)]


def _rod(mass, length, axis="x"):
    """Uniform slender rod about its centre, as a plain nested list (floats stay floats)."""
    moment = mass * length**2 / 12
    return {"x": [[0, 0, 0], [0, moment, 0], [0, 0, moment]],
            "z": [[moment, 0, 0], [0, moment, 0], [0, 0, 0]]}[axis]


# -- 002 Sec. 6-9: the one-axis arm (pendulum) --------------------------------------------------
def pendulum(symbolic: bool = False, *, m1=None, a1=None, g=None, viscous=0, coulomb=0,
             static=None, epsilon=0.01) -> Robot:
    """The one-axis arm of 002 Sec. 6-9 (Table 6-3), a pendulum: a thin uniform rod of mass
    ``m1`` and length ``a1`` turning about ``z0``.

    As the source states it: CoM ``(-a1/2, 0, 0)`` in frame 1 (Eq. (6-9-1)); inertia about the
    CoM ``(m1 a1^2/12) diag(0, 1, 1)`` (Eq. (6-9-2)); ``y0`` points up, so gravity is
    ``(0, -g, 0)`` with ``g = g_0 = 9.8062`` m/s^2 (002 writes ``g_0``; dynlab's symbol is ``g``).
    ``q1`` is measured from the horizontal ``x0``: the rod hangs at ``q1 = -pi/2`` and is an
    inverted pendulum at ``q1 = pi/2``; the source's home position is ``q1 = pi/3``.  The result
    is Eqs. (6-9-10) = (6-9-22):

        tau1 = (m1 a1^2/3) qdd1 + g m1 a1 C1/2 + b1(qd1)

    Friction ``b1`` is 002 Eq. (6-3-3), which the source leaves unspecified: ``viscous``,
    ``coulomb``, ``static`` (default ``None``: equal to ``coulomb``) and ``epsilon``, all zero
    (no friction) by default; numbers or SymPy expressions.  Numeric defaults ``m1 = 1 kg``,
    ``a1 = 0.5 m`` are dynlab's choice (the source gives none); pass ``m1``, ``a1``, ``g`` to
    override, also with ``symbolic=True``.

    >>> from sympy import expand
    >>> from dynlab import inverse_dynamics, joint_symbols
    >>> (q1,), (qd1,), (qdd1,) = joint_symbols(1)
    >>> expand(inverse_dynamics(pendulum(symbolic=True), [q1], [qd1], [qdd1])[0])
    a1**2*m1*qdd1/3 + a1*g*m1*cos(q1)/2
    >>> round(float(inverse_dynamics(pendulum(viscous=0.05), [0.0], [2.0], [0.0])[0]), 6)
    2.55155
    """
    p = _parameters(symbolic, {"m1": m1, "a1": a1, "g": g},
                    {"m1": 1.0, "a1": 0.5, "g": G}, "pendulum")
    (friction,) = _friction(1, viscous, coulomb, static, epsilon, "pendulum")
    m1, a1 = p["m1"], p["a1"]
    link = Link("R", a=a1, alpha=0, mass=m1, com=(-a1 / 2, 0, 0), inertia=_rod(m1, a1),
                name="link 1", **friction)
    return Robot([link], gravity=(0, -p["g"], 0), name="one-axis arm (pendulum)",
                 source="002 Sec. 6-9, Table 6-3, Eqs. (6-9-1), (6-9-2)")


# -- planar two-link arms: 000 Sec. 3.2.6, 002 Sec. 6-5, 003 Sec. 9.1.1, 001 App. B ------------
#: Per variant: parameter names in the source's letters with dynlab's numeric defaults (the
#: sources give no numbers; gravity 9.8062 m/s^2 as 000 and 002 use it).
PLANAR_2R_PARAMETERS = {
    "fu": {"m1": 2.0, "m2": 1.0, "l": 1.0, "g": G},
    "schilling": {"m1": 2.0, "m2": 1.5, "a1": 0.5, "a2": 0.4, "g": G},
    "lynch_park": {"m1": 1.0, "m2": 0.5, "L1": 1.0, "L2": 0.8, "g": G},
    "macsyma": {"M1": 3.0, "M2": 2.0, "Mp": 0.5, "l1": 0.6, "l2": 0.4, "I1": 0.09,
                "I2": 2.0 * 0.4**2 / 12, "g": G},
}


def planar_2r(variant: str = "fu", symbolic: bool = False, *, payload=None, viscous=0,
              coulomb=0, static=None, epsilon=0.01, **parameters) -> Robot:
    """A planar arm with two revolute joints about parallel ``z`` axes, gravity along ``-y0``
    (``gravity = (0, -g, 0)``), in one of the sources' four versions.  Both joint angles are
    the DH ``theta``s of standard DH with ``alpha = d = 0``; ``q2`` is relative to link 1.

    ``variant="fu"``
        000 Sec. 3.2.6 (Fig. 3.2; also 3.3.7 and 3.4.2): lengths ``a1 = a2 = l``, masses
        ``m1``, ``m2`` (000 L350 names them so; pass ``m2=m1`` for equal masses), each link a
        uniform rod: CoM at its middle, ``(-l/2, 0, 0)`` in frame i (fixed by 000's gravity
        terms and its N-E ``s_i``), inertia about the CoM ``diag(0, m l^2/12, m l^2/12)``
        (000 L940, L1199).  000 gives ``g = 9.8062``.
    ``variant="schilling"``
        002 Sec. 6-5 (Table 6-1): thin rods of lengths ``a1``, ``a2`` and masses ``m1``, ``m2``,
        CoM ``(-a_k/2, 0, 0)`` (Eqs. (6-5-1), (6-5-8)), inertia about the CoM
        ``(m_k a_k^2/12) diag(0, 1, 1)`` (Eqs. (6-5-2), (6-5-9)); ``g = g_0 = 9.8062``.
        Home position ``(pi/3, -pi/3)``.
    ``variant="lynch_park"``
        003 Sec. 9.1.1: point masses ``m1``, ``m2`` at the distal ends of links of lengths
        ``L1``, ``L2`` (CoM at the origin of frame i, zero inertia).  003 gives no number for
        ``g``: dynlab uses 9.8062.
    ``variant="macsyma"``
        001 App. B: links of masses ``M1``, ``M2``, lengths ``l1``, ``l2``, CoM at the middle
        (the batch file's ``x_c1``, ``x_c2``), moments of inertia ``I1``, ``I2`` about the CoM
        in the plane of motion, and a point payload ``Mp`` at the tip.  dynlab has one body per
        link, so the payload is folded into link 2 (it is rigidly attached): mass ``M2 + Mp``,
        CoM ``(-M2 l2 / (2 (M2 + Mp)), 0, 0)``, and by the parallel-axis theorem
        ``I2 + M2 Mp l2^2 / (4 (M2 + Mp))`` about the new CoM.  ``Mp`` stays its own symbol (or
        number, ``payload=``), so one can see how it changes ``D`` and ``c``; ``payload=0``
        removes it.  The source's tensors ``diag(0, 0, I)`` are not those of a rigid body;
        dynlab uses the rod-like ``diag(0, I, I)``, the same planar dynamics.  The thesis's
        potential ``+M g^T x`` with ``g = (0, gravity, 0)`` is gravity along ``-y0``.

    Symbols (``symbolic=True``) are positive and spelled as in the source; any parameter can
    be passed by that name (a number or an expression), also with ``symbolic=True``.  Numeric
    defaults are dynlab's choice, none of the sources gives numbers: fu ``l = 1 m``,
    ``m1 = 2 kg``, ``m2 = 1 kg`` (unequal, so index swaps show); schilling ``a1 = 0.5 m``,
    ``a2 = 0.4 m``, ``m1 = 2 kg``, ``m2 = 1.5 kg``; lynch_park ``L1 = 1 m``, ``L2 = 0.8 m``,
    ``m1 = 1 kg``, ``m2 = 0.5 kg``; macsyma ``l1 = 0.6 m``, ``l2 = 0.4 m``, ``M1 = 3 kg``,
    ``M2 = 2 kg``, ``Mp = 0.5 kg``, ``I1 = 0.09``, ``I2 = 0.02667 kg m^2`` (``M_k l_k^2/12`` of
    these defaults).  Friction (002 Eq. (6-3-3); 000
    and 002 write ``b_k``): ``viscous``, ``coulomb``, ``static``, ``epsilon`` as in
    :func:`pendulum`, a scalar for both joints or one value per joint; zero by default.

    >>> from dynlab import equations_of_motion
    >>> eom = equations_of_motion(planar_2r("fu", symbolic=True))
    >>> eom.D[1, 1], eom.c[1]                     # 000 Sec. 3.2.6: m2 l^2/3, m2 g l C12/2
    (l**2*m2/3, g*l*m2*cos(q1 + q2)/2)
    >>> sorted(map(str, planar_2r("macsyma", symbolic=True).free_symbols))
    ['I1', 'I2', 'M1', 'M2', 'Mp', 'g', 'l1', 'l2']
    >>> planar_2r("macsyma", payload=0.0).links[1].mass
    2.0
    """
    choice(variant, PLANAR_2R_PARAMETERS, "planar_2r", "variant")
    if payload is not None:
        if variant != "macsyma":
            raise TypeError(f"planar_2r: payload= belongs to the 'macsyma' variant (001), "
                            f"not {variant!r}")
        if parameters.get("Mp") is not None:
            raise TypeError("planar_2r: give the payload mass once, as payload= or Mp=")
        parameters["Mp"] = payload
    if variant == "macsyma" and parameters.get("Mp") is not None:
        # a negative payload could hide inside a positive M2 + Mp: check it on its own
        scalar(parameters["Mp"], "planar_2r", "payload", nonnegative=True)
    p = _parameters(symbolic, parameters, PLANAR_2R_PARAMETERS[variant], "planar_2r")
    friction = _friction(2, viscous, coulomb, static, epsilon, "planar_2r")
    gravity = (0, -p["g"], 0)
    if variant == "fu":
        (m1, m2), (a1, a2) = (p["m1"], p["m2"]), (p["l"], p["l"])
        name, source = "two-link arm (000 Fig. 3.2)", "000 Sec. 3.2.6 (Fig. 3.2), 3.3.7, 3.4.2"
    elif variant == "schilling":
        (m1, m2), (a1, a2) = (p["m1"], p["m2"]), (p["a1"], p["a2"])
        name, source = "two-axis planar arm (002 Sec. 6-5)", "002 Sec. 6-5, Table 6-1"
    elif variant == "lynch_park":
        L1, L2 = p["L1"], p["L2"]
        links = [Link("R", a=L, alpha=0, mass=m, com=(0, 0, 0), inertia=None,
                      name=f"link {k}", **fr)
                 for k, (L, m, fr) in enumerate(((L1, p["m1"], friction[0]),
                                                 (L2, p["m2"], friction[1])), start=1)]
        return Robot(links, gravity=gravity, name="planar 2R with point masses (003 Sec. 9.1.1)",
                     source="003 Sec. 9.1.1")
    else:
        M1, M2, Mp, l1, l2 = p["M1"], p["M2"], p["Mp"], p["l1"], p["l2"]
        I1, I2 = p["I1"], p["I2"]
        mass2 = M2 + Mp
        x2 = -M2 * l2 / (2 * mass2)                        # combined CoM of link 2 + payload
        I2_folded = I2 + M2 * Mp * l2**2 / (4 * mass2)     # parallel axes: M2 (l2/2+x2)^2 + Mp x2^2
        links = [Link("R", a=l1, alpha=0, mass=M1, com=(-l1 / 2, 0, 0),
                      inertia=[[0, 0, 0], [0, I1, 0], [0, 0, I1]], name="link 1",
                      **friction[0]),
                 Link("R", a=l2, alpha=0, mass=mass2, com=(x2, 0, 0),
                      inertia=[[0, 0, 0], [0, I2_folded, 0], [0, 0, I2_folded]],
                      name="link 2 + payload", **friction[1])]
        return Robot(links, gravity=gravity, name="two-link arm with payload (001 App. B)",
                     source="001 App. B (Macsyma batch file B.6)")
    links = [Link("R", a=a, alpha=0, mass=m, com=(-a / 2, 0, 0), inertia=_rod(m, a),
                  name=f"link {k}", **fr)
             for k, (a, m, fr) in enumerate(((a1, m1, friction[0]), (a2, m2, friction[1])),
                                            start=1)]
    return Robot(links, gravity=gravity, name=name, source=source)


# -- 002 Sec. 6-6: the three-axis SCARA ----------------------------------------------------------
def scara(symbolic: bool = False, *, m1=None, m2=None, m3=None, d1=None, a1=None, a2=None,
          l3=None, g=None, viscous=0, coulomb=0, static=None, epsilon=0.01) -> Robot:
    """The three-axis SCARA of 002 Sec. 6-6 (Fig. 6-5, Table 6-2): two horizontal rods turning
    about vertical axes and a vertical rod sliding along them (joint 3 prismatic).

    Table 6-2 as corrected (see :mod:`dynlab.errata`; the table prints ``theta_2 = q_1``, but
    ``T_0^2`` of Eq. (6-6-10) and everything after it use ``q_2``):

        joint 1: revolute,  d = d1, a = a1, theta = q1, alpha = pi
        joint 2: revolute,  d = 0,  a = a2, theta = q2, alpha = 0
        joint 3: prismatic, d = q3, a = 0,  theta = 0,  alpha = 0

    Rods of masses ``m1``, ``m2``, ``m3``: CoM ``(-a1/2, 0, 0)``, ``(-a2/2, 0, 0)``,
    ``(0, 0, -l3/2)`` in frame k (Eqs. (6-6-1), (6-6-8), (6-6-15)); inertia about the CoM
    ``(m1 a1^2/12) diag(0, 1, 1)``, ``(m2 a2^2/12) diag(0, 1, 1)``, ``(m3 l3^2/12) diag(1, 1, 0)``
    (Eqs. (6-6-2), (6-6-9), (6-6-16)).  The column of height ``d1`` is stationary and carries
    no mass in the model.  ``z0`` points up: gravity ``(0, 0, -g)``, ``g = g_0 = 9.8062``.
    ``alpha_1 = pi`` turns ``z1 = z2`` downwards, so joint 2 turns about ``-z0`` (hence the
    source's ``C_{1-2}``) and ``q3`` moves the tool down.  Home ``(0, 0, l3/2)``.

    Numeric defaults (dynlab's choice, loosely Adept-One sized; the source gives none):
    ``d1 = 0.9 m``, ``a1 = 0.425 m``, ``a2 = 0.375 m``, ``l3 = 0.3 m``, ``m1 = 10 kg``,
    ``m2 = 6 kg``, ``m3 = 2 kg``.  Friction as in :func:`pendulum` (a scalar or one value per
    joint), zero by default.

    >>> from dynlab import inverse_dynamics, joint_symbols
    >>> q, qd, qdd = joint_symbols(3)
    >>> inverse_dynamics(scara(symbolic=True), q, qd, qdd)[2]       # Eq. (6-6-31)
    -g*m3 + m3*qdd3
    >>> scara().joint_types
    ('revolute', 'revolute', 'prismatic')
    """
    p = _parameters(symbolic, {"m1": m1, "m2": m2, "m3": m3, "d1": d1, "a1": a1, "a2": a2,
                               "l3": l3, "g": g},
                    {"m1": 10.0, "m2": 6.0, "m3": 2.0, "d1": 0.9, "a1": 0.425, "a2": 0.375,
                     "l3": 0.3, "g": G}, "scara")
    friction = _friction(3, viscous, coulomb, static, epsilon, "scara")
    # exact pi for derivations; a float for numbers, so the numeric path meets no SymPy
    half_turn = sympy.pi if symbolic else math.pi
    links = [Link("R", d=p["d1"], a=p["a1"], alpha=half_turn, mass=p["m1"],
                  com=(-p["a1"] / 2, 0, 0), inertia=_rod(p["m1"], p["a1"]), name="link 1",
                  **friction[0]),
             Link("R", a=p["a2"], alpha=0, mass=p["m2"], com=(-p["a2"] / 2, 0, 0),
                  inertia=_rod(p["m2"], p["a2"]), name="link 2", **friction[1]),
             Link("P", theta=0, a=0, alpha=0, mass=p["m3"], com=(0, 0, -p["l3"] / 2),
                  inertia=_rod(p["m3"], p["l3"], "z"), name="link 3", **friction[2])]
    return Robot(links, gravity=(0, 0, -p["g"]), name="three-axis SCARA (002 Sec. 6-6)",
                 source="002 Sec. 6-6, Table 6-2 (theta_2 = q2, corrected)")


#: Every builder by name, for the command line and the notebooks.
ROBOTS = {"pendulum": pendulum, "planar_2r": planar_2r, "scara": scara, "puma560": puma560}


# The arms of 004 Tables 2 and 3 (Tourassis & Neuman), built in dynlab.arms_004; imported last,
# since dynlab.arms_004 reads PUMA560_PARAMETERS and PUMA560_LUMPED_LINKS from this module.
from dynlab.arms_004 import (ARMS_004, articulated, cartesian, cylindrical,  # noqa: E402,F401
                             puma_generic, spherical, stanford)
