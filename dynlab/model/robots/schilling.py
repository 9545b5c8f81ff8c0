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


# -- Schilling, Sec. 6-9: the one-axis arm (pendulum) ----------------------------------------------
def pendulum(symbolic: bool = False, *, m1=None, a1=None, g=None, viscous=0, coulomb=0,
             static=None, epsilon=0.01) -> Robot:
    """Schilling's one-axis arm, Sec. 6-9 (Table 6-3): a uniform rod ``m1``, ``a1`` about ``z0``,
    CoM ``(-a1/2, 0, 0)`` (Eq. (6-9-1)), inertia ``(m1 a1^2/12) diag(0, 1, 1)`` (Eq. (6-9-2)),
    ``y0`` up (gravity ``(0, -g, 0)``, ``g = g_0``), ``q1`` from the horizontal ``x0``; Eqs.
    (6-9-10) = (6-9-22): ``tau1 = (m1 a1^2/3) qdd1 + g m1 a1 C1/2 + b1(qd1)``.  Friction
    ``b1``: Schilling, Eq. (6-3-3) (``static=None`` means ``coulomb``), zero by default; numbers
    ``m1 = 1 kg``, ``a1 = 0.5 m`` are dynlab's.

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



# -- Schilling, Sec. 6-6: the three-axis SCARA -----------------------------------------------------
def scara(symbolic: bool = False, *, m1=None, m2=None, m3=None, d1=None, a1=None, a2=None,
          l3=None, g=None, viscous=0, coulomb=0, static=None, epsilon=0.01) -> Robot:
    """Schilling's three-axis SCARA, Sec. 6-6 (Fig. 6-5, Table 6-2 as corrected: ``theta_2 = q_2``,
    see :mod:`dynlab.teaching.errata`): joints R (``d1``, ``a1``, ``alpha = pi``), R (``a2``), P.
    Rods ``m1``, ``m2``, ``m3`` with CoM and inertia of Eqs. (6-6-1), (6-6-2), (6-6-8), (6-6-9),
    (6-6-15), (6-6-16); the column carries no mass; ``z0`` up.  Numbers are dynlab's (Adept-One
    sized); friction as in :func:`pendulum`.

    >>> from dynlab import inverse_dynamics, joint_symbols
    >>> q, qd, qdd = joint_symbols(3)
    >>> inverse_dynamics(scara(symbolic=True), q, qd, qdd)[2]       # Eq. (6-6-31)
    -g*m3 + m3*qdd3
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
