"""The letters of the worked examples: dynlab's symbols, the books' own letters (Fu's and Lynch &
Park's theta, Schilling's ``g_0`` and ``b_k(qd_k)``, the thesis appendix's Macsyma names) and
their mapping onto dynlab's; the worked arms (:data:`ARMS`), Schilling's friction of each
(:data:`FRICTION`, Eq. (6-3-3)), and the quantities a printed equation can give
(:data:`QUANTITIES`).
"""

from __future__ import annotations

import functools

from sympy import Abs, Function, Rational, Symbol, exp, sign, symbols

from dynlab.model.robot import joint_symbols
from dynlab.model.robots.registry import ARM_SPECS

half, third = Rational(1, 2), Rational(1, 3)

# -- dynlab's symbols (the builders of dynlab.model.robots make the parameters positive) -----------
(q1, q2, q3), (qd1, qd2, qd3), (qdd1, qdd2, qdd3) = joint_symbols(3)
m1, m2, m3, l, g = symbols("m1 m2 m3 l g", positive=True)
a1, a2, d1, l3, L1, L2 = symbols("a1 a2 d1 l3 L1 L2", positive=True)
M1, M2, Mp, l1, l2, I1, I2 = symbols("M1 M2 Mp l1 l2 I1 I2", positive=True)
#: Schilling's Eq. (6-3-3) friction coefficients: the pendulum's, and one viscous one per joint
bv, bd, bs, eps = symbols("bv bd bs epsilon", positive=True)
bv1, bv2, bv3 = symbols("bv1 bv2 bv3", positive=True)

# -- the books' own letters ----------------------------------------------------------------------
th1, th2, thd1, thd2, thdd1, thdd2 = symbols(
    "theta1 theta2 thetad1 thetad2 thetadd1 thetadd2", real=True)
#: Fu, Gonzalez & Lee and Lynch & Park write theta for the joint angles
THETA = {th1: q1, th2: q2, thd1: qd1, thd2: qd2, thdd1: qdd1, thdd2: qdd2}
#: Schilling writes g_0 = 9.8062 for the gravitational constant, dynlab ``g``
g0 = Symbol("g0", positive=True)
G0 = {g0: g}
#: Schilling's friction torque b_k(qd_k) of Eq. (6-3-3), left unspecified in the examples
b1, b2, b3 = Function("b1"), Function("b2"), Function("b3")
#: Schilling's (6-6-28) prints \ddot{a}_1 where qdd1 belongs: kept as its own symbol
add1 = Symbol("add1", real=True)
#: the thesis appendix's Macsyma names: m1, m2, mp, i_1, i_2, gravity, t1, t2 and their derivatives
mm1, mm2, mp, i_1, i_2, gravity = symbols("m1_ m2_ mp i_1 i_2 gravity", positive=True)
t1, t2, t1d, t2d, t1dd, t2dd = symbols("t1 t2 t1d t2d t1dd t2dd", real=True)
MACSYMA = {mm1: M1, mm2: M2, mp: Mp, i_1: I1, i_2: I2, gravity: g, t1: q1, t2: q2, t1d: qd1,
           t2d: qd2, t1dd: qdd1, t2dd: qdd2}


def friction_6_3_3(qd, b_v, b_d, b_s, epsilon):
    """Schilling (1990), Eq. (6-3-3), the friction torque of joint k:
    ``b_k = b^v qd_k + sgn(qd_k)[b^d + (b^s - b^d) exp(-|qd_k|/eps)]``.

    >>> friction_6_3_3(qd1, bv1, 0, 0, eps)
    bv1*qd1
    """
    return b_v * qd + sign(qd) * (b_d + (b_s - b_d) * exp(-Abs(qd) / epsilon))


# -- the arms -------------------------------------------------------------------------------------
#: The worked arms: per key, the registered arm (:data:`dynlab.model.robots.ARM_SPECS`), its option
#: (the variant) and the symbols given beyond the builder's own: the pendulum has Schilling's full
#: friction (6-3-3), the other Schilling arms viscous friction.
WORKED_ARMS = {
    "pendulum": ("pendulum", None, dict(viscous=bv, coulomb=bd, static=bs, epsilon=eps)),
    "planar_2r/fu": ("planar_2r", "fu", {}),
    "planar_2r/schilling": ("planar_2r", "schilling", dict(viscous=[bv1, bv2])),
    "planar_2r/lynch_park": ("planar_2r", "lynch_park", {}),
    "planar_2r/macsyma": ("planar_2r", "macsyma", {}),
    "scara": ("scara", None, dict(viscous=[bv1, bv2, bv3])),
}

#: Each worked arm by name, as a symbolic builder (the registered arm's, with its variant)
ARMS = {key: functools.partial(ARM_SPECS[arm].build, option, symbolic=True, **extra)
        for key, (arm, option, extra) in WORKED_ARMS.items()}

#: Schilling's b_k(qd_k) of each arm in dynlab's symbols (the arm's friction, Eq. (6-3-3))
FRICTION = {
    "pendulum": {b1(qd1): friction_6_3_3(qd1, bv, bd, bs, eps)},
    "planar_2r/schilling": {b1(qd1): friction_6_3_3(qd1, bv1, 0, 0, eps),
                            b2(qd2): friction_6_3_3(qd2, bv2, 0, 0, eps)},
    "scara": {b1(qd1): friction_6_3_3(qd1, bv1, 0, 0, eps),
              b2(qd2): friction_6_3_3(qd2, bv2, 0, 0, eps),
              b3(qd3): friction_6_3_3(qd3, bv3, 0, 0, eps)},
}

TRACE_QUANTITIES = ("omega", "omega_dot", "v_dot", "a_bar", "F", "N", "f", "n")
#: quantity -> what dynlab derives for it
QUANTITIES = {
    "tau": "joint torques (inverse_dynamics with the chosen method)",
    "D": "inertia matrix (equations_of_motion with the chosen method)",
    "h": "velocity (Coriolis and centrifugal) terms, Fu's h (Schilling's c)",
    "c": "gravity terms, Fu's c (Schilling's h)",
    "C_i": "Schilling's velocity coupling matrices C^i_kj (6-4-6) (L-E, link Jacobians)",
    "U": "Fu's U_jk = dA_0j/dq_k (3.2-11) (L-E, 4x4 matrices)",
    "J": "Fu's pseudo-inertia J_i (3.2-18) (L-E, 4x4 matrices)",
    "K": "kinetic energy (Lynch & Park, Sec. 8.1, L-E with Christoffel symbols)",
    "P": "potential energy (Lynch & Park, Sec. 8.1)",
    "D_rot": "rotational part of D (Fu (3.4-25), G-D)",
    "D_tran": "translational part of D (Fu (3.4-25), G-D)",
    "h_rot": "rotational part of h (Fu (3.4-27), G-D)",
    "h_tran": "translational part of h (Fu (3.4-26), G-D)",
    "T": "base-to-frame-k transform T_0^k (Fu (3.2-4), Schilling (2-4-1))",
    "r_bar": "centre of mass of link k in base coordinates (Schilling's c-bar^k)",
    "A": "Schilling's link Jacobian A^k (6-2-10), centre-of-mass velocity",
    "B": "Schilling's link Jacobian B^k (6-2-10), angular velocity",
    "theta": "DH joint angle of joint k (q_k + offset for a revolute joint)",
    **{name: f"Newton-Euler trace: {name} of link k" for name in TRACE_QUANTITIES},
}
#: The sources with worked examples
SOURCES = ("fu", "thesis", "schilling", "lynch_park")
TOP_VECTORS = ("tau", "h", "c", "h_rot", "h_tran", "theta")
TOP_MATRICES = ("D", "D_rot", "D_tran")
SCALARS = ("K", "P")


def validate_arm(arm: str) -> str:
    if arm not in ARMS:
        raise ValueError(f"unknown arm {arm!r}; the arms are {', '.join(ARMS)}")
    return arm
