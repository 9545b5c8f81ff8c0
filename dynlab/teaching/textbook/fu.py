"""Fu, Gonzalez & Lee (1987) Secs. 3.2.6, 3.3.7, 3.4.2 as printed: the two-link arm of
Fig. 3.2 by Lagrange-Euler, Newton-Euler (and the recursion Tables 3.2-3.3, run as printed) and
the generalized d'Alembert equations (:func:`records_fu`).
"""

from __future__ import annotations

import functools

import sympy
from sympy import ImmutableMatrix, Rational, cos, sin

from dynlab.model.robot import joint_symbols
from dynlab.teaching.textbook.derivation import robot
from dynlab.teaching.textbook.letters import (
    THETA,
    g,
    half,
    l,
    m1,
    m2,
    th1,
    th2,
    thd1,
    thd2,
    thdd1,
    thdd2,
    third,
)
from dynlab.teaching.textbook.records import col, make_record, mat

C1, C2, S1, S2 = cos(th1), cos(th2), sin(th1), sin(th2)
C12, S12 = cos(th1 + th2), sin(th1 + th2)


def _pseudo_inertia(m, k):
    """The pseudo-inertia J_i of Sec. 3.2.6 with J_i[1,1] = k m l^2 (the book prints k = 1/2)."""
    return mat((k * m * l**2, 0, 0, -m * l / 2), (0, 0, 0, 0), (0, 0, 0, 0), (-m * l / 2, 0, 0, m))


U11_3_2_6 = mat((-S1, -C1, 0, -l * S1), (C1, -S1, 0, l * C1), (0, 0, 0, 0), (0, 0, 0, 0))
U21_3_2_6 = mat((-S12, -C12, 0, -l * (S12 + S1)), (C12, -S12, 0, l * (C12 + C1)), (0, 0, 0, 0),
             (0, 0, 0, 0))
U22_3_2_6 = mat((-S12, -C12, 0, -l * S12), (C12, -S12, 0, l * C12), (0, 0, 0, 0), (0, 0, 0, 0))
#: Sec. 3.2.6's final D, h, c (L-E), and the same D and h in the G-D result of Sec. 3.4.2
D_3_2_6 = mat((m1 * l**2 / 3 + Rational(4, 3) * m2 * l**2 + m2 * C2 * l**2,
            m2 * l**2 / 3 + m2 * l**2 * C2 / 2),
           (m2 * l**2 / 3 + m2 * l**2 * C2 / 2, m2 * l**2 / 3))
h_3_2_6 = col(-m2 * S2 * l**2 * thd2**2 / 2 - m2 * S2 * l**2 * thd1 * thd2,
             m2 * S2 * l**2 * thd1**2 / 2)
c_3_2_6 = col(m1 * g * l * C1 / 2 + m2 * g * l * C12 / 2 + m2 * g * l * C1,
             m2 * g * l * C12 / 2)
#: Sec. 3.4.2 (G-D): gravity written (m1/2 + m2) g l C1 + m2 g l C12/2
c_3_4_2 = col((m1 / 2 + m2) * g * l * C1 + m2 * g * l * C12 / 2, m2 * g * l * C12 / 2)
thdd = col(thdd1, thdd2)

# Sec. 3.3.7, the N-E example in link coordinates
z0 = col(0, 0, 1)
w1_3_3_7, w2_3_3_7 = z0 * thd1, z0 * (thd1 + thd2)
wd1_3_3_7, wd2_3_3_7 = z0 * thdd1, z0 * (thdd1 + thdd2)
vd1_3_3_7 = col(-l * thd1**2 + g * S1, l * thdd1 + g * C1, 0)
vd2_3_3_7 = col(l * (S2 * thdd1 - C2 * thd1**2 - thd1**2 - thd2**2 - 2 * thd1 * thd2) + g * S12,
               l * (thdd1 + thdd2 + C2 * thdd1 + S2 * thd1**2) + g * C12, 0)
abar1_3_3_7 = col(-l / 2 * thd1**2 + g * S1, l / 2 * thdd1 + g * C1, 0)
abar2_3_3_7 = col(l * (S2 * thdd1 - C2 * thd1**2 - thd1**2 / 2 - thd2**2 / 2 - thd1 * thd2)
                 + g * S12,
                 l * (C2 * thdd1 + S2 * thd1**2 + thdd1 / 2 + thdd2 / 2) + g * C12, 0)
f2_3_3_7 = col(m2 * l * (S2 * thdd1 - C2 * thd1**2 - thd1**2 / 2 - thd2**2 / 2 - thd1 * thd2)
              + g * m2 * S12,
              m2 * l * (C2 * thdd1 + S2 * thd1**2 + thdd1 / 2 + thdd2 / 2) + g * m2 * C12, 0)
f1_3_3_7 = col(m2 * l * (-thd1**2 - C2 * (thd1**2 + thd2**2) / 2 - C2 * thd1 * thd2
                        - S2 * (thdd1 + thdd2) / 2)
              - m2 * g * (C12 * S2 - C2 * S12) - m1 * l * thd1**2 / 2 + m1 * g * S1,
              m2 * l * (thdd1 - S2 * (thd1**2 + thd2**2) / 2 - S2 * thd1 * thd2
                        + C2 * (thdd1 + thdd2) / 2)
              + m2 * g * C1 + m1 * l * thdd1 / 2 + g * m1 * C1, 0)
n2_3_3_7 = col(0, 0, m2 * l**2 * thdd1 / 3 + m2 * l**2 * thdd2 / 3
              + m2 * l**2 * (C2 * thdd1 + S2 * thd1**2) / 2 + m2 * g * l * C12 / 2)
#: the N-E example's final torques tau_2, tau_1 of Sec. 3.3.7, verbatim
TAU2_3_3_7 = (m2 * l**2 * thdd1 / 2 + m2 * l**2 * thdd2 / 2 + m2 * l**2 * C2 * thdd1 / 2
             + m2 * g * l * C12 / 2 + m2 * l**2 * S2 * thd1**2 / 2)
TAU1_3_3_7 = (m1 * l**2 * thdd1 / 2 + m2 * l**2 * thdd1 / 2 + m2 * l**2 * thdd2 / 2
             + m2 * C2 * l**2 * thdd1 + m2 * l**2 * C2 * thdd2 / 2 - m2 * S2 * l**2 * thd1 * thd2
             - m2 * S2 * l**2 * thd2**2 / 2 + m1 * g * l * C1 / 2 + m2 * g * l * C12 / 2
             + m2 * g * l * C1)
R21_3_3_7 = mat((C2, S2, 0), (-S2, C2, 0), (0, 0, 1))
p2_star_3_3_7 = col(l, 0, 0)                  # 2R0 p*_2
s2_bar_3_3_7 = col(-l / 2, 0, 0)              # 2R0 s-bar_2


def _eq_3_2_34(transposed: bool):
    """Eq. (3.2-34), c_i = sum_{j>=i} -m_j g U_ji r_j, with the example's U_ji,
    g = (0, -g, 0, 0) and r_j = (-l/2, 0, 0, 1); as printed with
    U_ji^T."""
    U = {(1, 1): U11_3_2_6, (2, 1): U21_3_2_6, (2, 2): U22_3_2_6}
    g_row, r, masses = mat((0, -g, 0, 0)), col(-l / 2, 0, 0, 1), {1: m1, 2: m2}
    return col(*[sum((-masses[j] * g_row * (U[j, i].T if transposed else U[j, i]) * r)[0]
                     for j in range(i, 3)) for i in (1, 2)])


def _eq_3_3_52_53(printed: bool):
    """Eqs. (3.3-52) and (3.3-53) for i = 2 with the example's own values (omega_2,
    omega-dot_2, v-dot_1, v-dot_2, s-bar_2, p*_2 of Sec. 3.3.7): as printed, wd takes the place of w
    in the centripetal term."""
    w = wd2_3_3_7 if printed else w2_3_3_7
    vd2 = (wd2_3_3_7.cross(p2_star_3_3_7) + w.cross(w.cross(p2_star_3_3_7)) + R21_3_3_7 * vd1_3_3_7)
    abar2 = wd2_3_3_7.cross(s2_bar_3_3_7) + w.cross(w.cross(s2_bar_3_3_7)) + vd2_3_3_7
    return ImmutableMatrix(vd2), ImmutableMatrix(abar2)


def _rotation_3_3_48(link, qi):
    """Fu, Gonzalez & Lee Eq. (3.3-48): ^{i-1}R_i."""
    theta = qi + link.offset if link.revolute else link.theta
    ca, sa = link.cos_alpha, link.sin_alpha
    return sympy.Matrix([[cos(theta), -ca * sin(theta), sa * sin(theta)],
                         [sin(theta), ca * cos(theta), -sa * cos(theta)], [0, sa, ca]])


def _p_star_3_3_59(link, qi):
    """Fu, Gonzalez & Lee Eq. (3.3-59): ^iR_0 p*_i = (a_i, d_i sin(alpha_i), d_i cos(alpha_i))."""
    d = link.d if link.revolute else qi + link.offset
    return sympy.Matrix([link.a, d * link.sin_alpha, d * link.cos_alpha])


def run_table_3_3(robot, printed: bool = True) -> list:
    """Fu, Gonzalez & Lee Table 3.3 (Luh's link-frame recursion, Algorithm 3.1) run symbolically on
    ``robot`` with no load: ``[tau_1, ..., tau_n]``.  ``printed=True`` uses the moment row as
    printed, else Eq. (3.3-57); the base gets ``vdot_0 = g`` (3.3-46), minus dynlab's gravity.

    >>> from dynlab.model.robots import pendulum
    >>> sympy.expand(run_table_3_3(pendulum(symbolic=True))[0])
    a1**2*m1*qdd1/3 + a1*g*m1*cos(q1)/2
    """
    links, gravity, _, _ = robot.symbolic()
    n = len(links)
    q, qd, qdd = joint_symbols(n)
    z = sympy.Matrix([0, 0, 1])
    R = [_rotation_3_3_48(link, qi) for link, qi in zip(links, q)]
    p = [_p_star_3_3_59(link, qi) for link, qi in zip(links, q)]
    w, wd, vd = sympy.zeros(3, 1), sympy.zeros(3, 1), -sympy.Matrix(gravity)
    kinematics = []
    for i, link in enumerate(links):                        # forward rows
        Rt = R[i].T                                          # ^iR_{i-1}
        if link.revolute:
            wd = Rt * (wd + z * qdd[i] + w.cross(z * qd[i]))
            w = Rt * (w + z * qd[i])
            vd = wd.cross(p[i]) + w.cross(w.cross(p[i])) + Rt * vd
        else:
            w, wd = Rt * w, Rt * wd
            vd = (Rt * (z * qdd[i] + vd) + wd.cross(p[i]) + 2 * w.cross(Rt * z * qd[i])
                  + w.cross(w.cross(p[i])))
        s = sympy.Matrix(link.com)
        kinematics.append((w, wd, wd.cross(s) + w.cross(w.cross(s)) + vd))
    f, nm, tau = sympy.zeros(3, 1), sympy.zeros(3, 1), [0] * n    # f_{n+1} = n_{n+1} = 0
    for i in reversed(range(n)):                             # backward rows
        link, (w, wd, a_bar) = links[i], kinematics[i]
        R_next = R[i + 1] if i + 1 < n else sympy.eye(3)     # ^iR_{i+1}
        inertia, s = sympy.Matrix(link.inertia), sympy.Matrix(link.com)
        F, N = link.mass * a_bar, inertia * wd + w.cross(inertia * w)
        f_next, n_next = f, nm
        f = R_next * f_next + F
        if printed:
            lever = p[i + 1] if i + 1 < n else sympy.zeros(3, 1)
            nm = R_next * (n_next + lever.cross(f_next)) + (p[i] + s).cross(f) + N
        else:
            nm = R_next * (n_next + (R_next.T * p[i]).cross(f_next)) + (p[i] + s).cross(F) + N
        axis = R[i].T * z                                    # ^iR_{i-1} z_0
        tau[i] = ((nm if link.revolute else f).T * axis)[0] + link.viscous * qd[i]
    return tau


def run_table_3_2(robot) -> list:
    """Fu, Gonzalez & Lee Table 3.2, the Newton-Euler recursion in base coordinates, run
    symbolically on ``robot`` with no load: ``[tau_1, ..., tau_n]``.  ``p*_i``, ``s_i``,
    ``z_{i-1}`` and ``I_i`` are the link-frame data rotated into the base (Eqs. (3.3-48),
    (3.3-59)); ``vdot_0 = g`` (3.3-46) is the negative of dynlab's gravity.

    >>> from dynlab.model.robots import pendulum
    >>> from dynlab.model.symbolic import compact
    >>> sympy.expand(compact(run_table_3_2(pendulum(symbolic=True))[0]))
    a1**2*m1*qdd1/3 + a1*g*m1*cos(q1)/2
    """
    links, gravity, _, _ = robot.symbolic()
    n = len(links)
    q, qd, qdd = joint_symbols(n)
    w, wd, vd = sympy.zeros(3, 1), sympy.zeros(3, 1), -sympy.Matrix(gravity)
    R0 = sympy.eye(3)
    rows = []
    for i, link in enumerate(links):                         # forward rows
        z = R0[:, 2]                                         # z_{i-1}
        R0 = R0 * _rotation_3_3_48(link, q[i])               # R_0i
        p, s = R0 * _p_star_3_3_59(link, q[i]), R0 * sympy.Matrix(link.com)
        if link.revolute:
            wd = wd + z * qdd[i] + w.cross(z * qd[i])
            w = w + z * qd[i]
            vd = wd.cross(p) + w.cross(w.cross(p)) + vd
        else:
            vd = (z * qdd[i] + wd.cross(p) + 2 * w.cross(z * qd[i]) + w.cross(w.cross(p))
                  + vd)
        a_bar = wd.cross(s) + w.cross(w.cross(s)) + vd
        rows.append((z, p, s, R0 * sympy.Matrix(link.inertia) * R0.T, w, wd, a_bar))
    f, nm, tau = sympy.zeros(3, 1), sympy.zeros(3, 1), [0] * n
    for i in reversed(range(n)):                             # backward rows
        link = links[i]
        z, p, s, inertia, w, wd, a_bar = rows[i]
        F, N = link.mass * a_bar, inertia * wd + w.cross(inertia * w)
        nm = nm + p.cross(f) + (p + s).cross(F) + N
        f = F + f
        tau[i] = ((nm if link.revolute else f).T * z)[0] + link.viscous * qd[i]
    return tau


def _table_run(run, **options):
    def tau():
        return col(*run(robot("planar_2r/fu"), **options))
    return tau


def records_fu() -> list:
    fu, S = "planar_2r/fu", THETA
    E_J = "Sec. 3.2.6, pseudo-inertias J_1, J_2, entry (1,1)"
    E_TEXT = "Eqs. (3.3-50)-(3.3-55)"
    vd2_printed, abar2_printed = lambda: _eq_3_3_52_53(True)[0], lambda: _eq_3_3_52_53(True)[1]
    vd2_right, abar2_right = lambda: _eq_3_3_52_53(False)[0], lambda: _eq_3_3_52_53(False)[1]
    R = functools.partial(make_record, "fu")
    return [
        # -- Sec. 3.2.6, Lagrange-Euler (L-E) ---------------------------------------------------
        R("Sec. 3.2.6, U_11", fu, "U", (1, 1), U11_3_2_6, S, "U_11"),
        R("Sec. 3.2.6, U_21", fu, "U", (2, 1), U21_3_2_6, S, "U_21"),
        R("Sec. 3.2.6, U_22", fu, "U", (2, 2), U22_3_2_6, S, "U_22",
          note="the scan reads 0A_1 Q_2 tA_2 for 0A_1 Q_2 1A_2; the result is right"),
        R("Sec. 3.2.6, J_1", fu, "J", (1,), _pseudo_inertia(m1, half), S, "J_1",
          errata=(E_J,), corrections=(_pseudo_inertia(m1, third),)),
        R("Sec. 3.2.6, J_2", fu, "J", (2,), _pseudo_inertia(m2, half), S, "J_2",
          errata=(E_J,), corrections=(_pseudo_inertia(m2, third),)),
        R("Sec. 3.2.6, D_11", fu, "D", (1, 1),
          m1 * l**2 / 2 + m2 * l**2 / 2 + m2 * C2 * l**2, S, "D_11",
          errata=("Sec. 3.2.6, D_11",),
          corrections=(m1 * l**2 / 3 + Rational(4, 3) * m2 * l**2 + m2 * C2 * l**2,)),
        R("Sec. 3.2.6, D_12 bracket", fu, "D", (1, 2),
          m2 * l**2 * (-Rational(1, 6) + half + C2 / 2), S, "D_12"),
        R("Sec. 3.2.6, D_12", fu, "D", (1, 2), m2 * l**2 / 2 + m2 * l**2 * C2 / 2, S,
          "D_12 = D_21", errata=("Sec. 3.2.6, D_12 = D_21",),
          corrections=(m2 * l**2 / 3 + m2 * l**2 * C2 / 2,)),
        R("Sec. 3.2.6, D_22", fu, "D", (2, 2), m2 * l**2 / 2, S, "D_22",
          errata=("Sec. 3.2.6, D_22",), corrections=(m2 * l**2 / 3,)),
        R("Sec. 3.2.6, h_1", fu, "h", (1,), h_3_2_6[0], S, "h_1"),
        R("Sec. 3.2.6, h_2", fu, "h", (2,), h_3_2_6[1], S, "h_2"),
        R("Sec. 3.2.6, c_1", fu, "c", (1,), c_3_2_6[0], S, "c_1"),
        R("Sec. 3.2.6, c_2", fu, "c", (2,), -m2 * (g * l * C12 / 2 - g * l * C12), S,
          "c_2"),
        R("Eq. (3.2-34) with the example's U_ji", fu, "c", None,
          lambda: _eq_3_2_34(True), S, "c", errata=("Eq. (3.2-34)",),
          corrections=(lambda: _eq_3_2_34(False),),
          note="the example itself multiplies by U_ji, not U_ji^T"),
        R("Sec. 3.2.6, D", fu, "D", None, D_3_2_6, S, "D(theta)"),
        R("Sec. 3.2.6, h", fu, "h", None, h_3_2_6, S, "h(theta, thetad)"),
        R("Sec. 3.2.6, c", fu, "c", None, c_3_2_6, S, "c(theta)"),
        R("Sec. 3.2.6, tau", fu, "tau", None, D_3_2_6 * thdd + h_3_2_6 + c_3_2_6, S,
          "tau(t)"),
        # -- Sec. 3.3.7, Newton-Euler (N-E) in link coordinates -----------------------------------
        R("Sec. 3.3.7, omega_1", fu, "omega", (1,), w1_3_3_7, S, "1R0 omega_1",
          frame="link"),
        R("Sec. 3.3.7, omega_2", fu, "omega", (2,), w2_3_3_7, S, "2R0 omega_2",
          frame="link"),
        R("Sec. 3.3.7, omega_dot_1", fu, "omega_dot", (1,), wd1_3_3_7, S,
          "1R0 omega-dot_1", frame="link"),
        R("Sec. 3.3.7, omega_dot_2", fu, "omega_dot", (2,), wd2_3_3_7, S,
          "2R0 omega-dot_2", frame="link"),
        R("Sec. 3.3.7, v_dot_1", fu, "v_dot", (1,), vd1_3_3_7, S, "1R0 v-dot_1",
          frame="link"),
        R("Sec. 3.3.7, v_dot_2", fu, "v_dot", (2,), vd2_3_3_7, S, "2R0 v-dot_2",
          frame="link"),
        R("Sec. 3.3.7, a_bar_1", fu, "a_bar", (1,), abar1_3_3_7, S, "1R0 a-bar_1",
          frame="link"),
        R("Sec. 3.3.7, a_bar_2", fu, "a_bar", (2,), abar2_3_3_7, S, "2R0 a-bar_2",
          frame="link", note="labelled a-double-dot_2 in the scan"),
        R("Sec. 3.3.7, f_2", fu, "f", (2,), f2_3_3_7, S, "2R0 f_2", frame="link"),
        R("Sec. 3.3.7, f_1", fu, "f", (1,), f1_3_3_7, S, "1R0 f_1", frame="link"),
        R("Sec. 3.3.7, n_2", fu, "n", (2,), n2_3_3_7, S, "2R0 n_2", frame="link"),
        R("Sec. 3.3.7, tau_2", fu, "tau", (2,), TAU2_3_3_7, S, "tau_2",
          errata=("Sec. 3.3.7, tau_2 of the N-E example",),
          corrections=(TAU2_3_3_7 - m2 * l**2 * (thdd1 + thdd2) / 6,)),
        R("Sec. 3.3.7, tau_1", fu, "tau", (1,), TAU1_3_3_7, S, "tau_1",
          errata=("Sec. 3.3.7, tau_1 of the N-E example",),
          corrections=(TAU1_3_3_7 - l**2 * (m1 - 5 * m2) * thdd1 / 6 - m2 * l**2 * thdd2 / 6,),
          note="the closing sentence of Sec. 3.3.7 ('agree with ... Lagrange-Euler') is false "
               "as printed"),
        R("Eq. (3.3-50), i = 1, with omega_0 = omega-dot_0 = 0", fu,
          "omega_dot", (1,), z0 * thd1, S, "1R0 omega-dot_1", frame="link",
          errata=(E_TEXT,), corrections=(z0 * thdd1,),
          note="the printed right-hand side is 1R0 omega_1 (the example uses it so); "
               "omega-dot comes from (3.3-51)"),
        R("Eq. (3.3-52), i = 2, with the values of Sec. 3.3.7", fu, "v_dot", (2,),
          vd2_printed, S, "2R0 v-dot_2", frame="link", errata=(E_TEXT,),
          corrections=(vd2_right,)),
        R("Eq. (3.3-53), i = 2, with the values of Sec. 3.3.7", fu, "a_bar", (2,),
          abar2_printed, S, "2R0 a-bar_2", frame="link", errata=(E_TEXT,),
          corrections=(abar2_right,)),
        R("Table 3.3, run on the arm", fu, "tau", None,
          _table_run(run_table_3_3, printed=True), S, "tau",
          errata=("Table 3.3, n_i equation",),
          corrections=(_table_run(run_table_3_3, printed=False),),
          note="tau_2 is unaffected (f_3 = 0)"),
        R("Table 3.2, run on the arm", fu, "tau", None, _table_run(run_table_3_2),
          S, "tau"),
        # -- Sec. 3.4.2, generalized d'Alembert (G-D) ---------------------------------------------
        R("Sec. 3.4.2, D_22 rotational part", fu, "D_rot", (2, 2), m2 * l**2 / 12, S,
          "(2R0 z_1)^T I_2 (2R0 z_1)"),
        R("Sec. 3.4.2, D_22 translational part", fu, "D_tran", (2, 2), m2 * l**2 / 4,
          S, "m_2 (z_1 x c_2) . [z_1 x (r_2 - p_1)]"),
        R("Sec. 3.4.2, D", fu, "D", None, D_3_2_6, S, "[D_ij]"),
        R("Sec. 3.4.2, h_1^tran", fu, "h_tran", (1,),
          (m2 * l**2 * S2 * thd1**2 / 2 - m2 * l**2 * S2 * thd1**2 / 2
           - m2 * l**2 * S2 * thd2**2 / 2 - m2 * l**2 * S2 * thd1 * thd2), S, "h_1^tran"),
        R("Sec. 3.4.2, h_1^rot", fu, "h_rot", (1,), sympy.S.Zero, S, "h_1^rot"),
        R("Sec. 3.4.2, h_2^tran", fu, "h_tran", (2,), m2 * l**2 * S2 * thd1**2 / 2, S,
          "h_2^tran"),
        R("Sec. 3.4.2, h_2^rot", fu, "h_rot", (2,), sympy.S.Zero, S, "h_2^rot"),
        R("Sec. 3.4.2, h", fu, "h", None, h_3_2_6, S, "h"),
        R("Sec. 3.4.2, c", fu, "c", None, c_3_4_2, S, "c"),
        R("Sec. 3.4.2, tau", fu, "tau", None, D_3_2_6 * thdd + h_3_2_6 + c_3_4_2, S,
          "tau(t)"),
    ]
