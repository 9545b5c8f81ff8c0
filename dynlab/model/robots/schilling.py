"""The arms of Schilling (1990) Ch. 6: the one-axis arm (pendulum) of Sec. 6-9 and the
three-axis SCARA of Sec. 6-6.  (Its two-axis planar arm of Sec. 6-5 is a version of
:func:`dynlab.model.robots.planar_2r`.)

>>> pendulum().n, scara().n
(1, 3)
"""

from __future__ import annotations

import math

import sympy

from dynlab.model.link import G, Link
from dynlab.model.robot import Robot
from dynlab.model.robots.parameters import friction_per_joint, physical_parameters, rod_inertia


# -- Schilling, Sec. 6-9: the one-axis arm (pendulum) --------------------------------------------------
def pendulum(symbolic: bool = False, *, m1=None, a1=None, g=None, viscous=0, coulomb=0,
             static=None, epsilon=0.01) -> Robot:
    """The one-axis arm of Schilling, Sec. 6-9 (Table 6-3), a pendulum: a thin uniform rod of mass
    ``m1`` and length ``a1`` turning about ``z0``.

    As the source states it: CoM ``(-a1/2, 0, 0)`` in frame 1 (Eq. (6-9-1)); inertia about the
    CoM ``(m1 a1^2/12) diag(0, 1, 1)`` (Eq. (6-9-2)); ``y0`` points up, so gravity is
    ``(0, -g, 0)`` with ``g = g_0 = 9.8062`` m/s^2 (Schilling writes ``g_0``; dynlab's symbol is ``g``).
    ``q1`` is measured from the horizontal ``x0``: the rod hangs at ``q1 = -pi/2`` and is an
    inverted pendulum at ``q1 = pi/2``; the source's home position is ``q1 = pi/3``.  The result
    is Eqs. (6-9-10) = (6-9-22):

        tau1 = (m1 a1^2/3) qdd1 + g m1 a1 C1/2 + b1(qd1)

    Friction ``b1`` is Schilling, Eq. (6-3-3), which the source leaves unspecified: ``viscous``,
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
    p = physical_parameters(symbolic, {"m1": m1, "a1": a1, "g": g},
                            {"m1": 1.0, "a1": 0.5, "g": G}, "pendulum")
    (friction,) = friction_per_joint(1, viscous, coulomb, static, epsilon, "pendulum")
    m1, a1 = p["m1"], p["a1"]
    link = Link("R", a=a1, alpha=0, mass=m1, com=(-a1 / 2, 0, 0),
                inertia=rod_inertia(m1, a1), name="link 1", **friction)
    return Robot([link], gravity=(0, -p["g"], 0), name="one-axis arm (pendulum)",
                 source="Schilling, Sec. 6-9, Table 6-3, Eqs. (6-9-1), (6-9-2)")



# -- Schilling, Sec. 6-6: the three-axis SCARA ----------------------------------------------------------
def scara(symbolic: bool = False, *, m1=None, m2=None, m3=None, d1=None, a1=None, a2=None,
          l3=None, g=None, viscous=0, coulomb=0, static=None, epsilon=0.01) -> Robot:
    """The three-axis SCARA of Schilling, Sec. 6-6 (Fig. 6-5, Table 6-2): two horizontal rods turning
    about vertical axes and a vertical rod sliding along them (joint 3 prismatic).

    Table 6-2 as corrected (see :mod:`dynlab.teaching.errata`; the table prints ``theta_2 = q_1``,
    but ``T_0^2`` of Eq. (6-6-10) and everything after it use ``q_2``):

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
    p = physical_parameters(symbolic, {"m1": m1, "m2": m2, "m3": m3, "d1": d1, "a1": a1,
                                       "a2": a2, "l3": l3, "g": g},
                            {"m1": 10.0, "m2": 6.0, "m3": 2.0, "d1": 0.9, "a1": 0.425, "a2": 0.375,
                             "l3": 0.3, "g": G}, "scara")
    friction = friction_per_joint(3, viscous, coulomb, static, epsilon, "scara")
    # exact pi for derivations; a float for numbers, so the numeric path meets no SymPy
    half_turn = sympy.pi if symbolic else math.pi
    links = [Link("R", d=p["d1"], a=p["a1"], alpha=half_turn, mass=p["m1"],
                  com=(-p["a1"] / 2, 0, 0), inertia=rod_inertia(p["m1"], p["a1"]),
                  name="link 1", **friction[0]),
             Link("R", a=p["a2"], alpha=0, mass=p["m2"], com=(-p["a2"] / 2, 0, 0),
                  inertia=rod_inertia(p["m2"], p["a2"]), name="link 2", **friction[1]),
             Link("P", theta=0, a=0, alpha=0, mass=p["m3"], com=(0, 0, -p["l3"] / 2),
                  inertia=rod_inertia(p["m3"], p["l3"], "z"), name="link 3",
                  **friction[2])]
    return Robot(links, gravity=(0, 0, -p["g"]), name="three-axis SCARA (Schilling, Sec. 6-6)",
                 source="Schilling, Sec. 6-6, Table 6-2 (theta_2 = q2, corrected)")
