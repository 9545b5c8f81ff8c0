"""Schilling (1990) Secs. 6-5, 6-6 and 6-9 as printed: the two-axis planar articulated arm, the
three-axis SCARA and the one-axis arm (pendulum), with Schilling's friction (6-3-3)
(:func:`records_schilling_pendulum`, :func:`records_schilling_planar`,
:func:`records_schilling_scara`).
"""

from __future__ import annotations

import functools

import sympy
from sympy import ImmutableMatrix, cos, sin

from dynlab.teaching.textbook.letters import (
    G0,
    a1,
    a2,
    add1,
    b1,
    b2,
    b3,
    d1,
    g0,
    l3,
    m1,
    m2,
    m3,
    q1,
    q2,
    q3,
    qd1,
    qd2,
    qd3,
    qdd1,
    qdd2,
    qdd3,
)
from dynlab.teaching.textbook.records import col, make_record, mat

C1q, S1q, C2q, S2q = cos(q1), sin(q1), cos(q2), sin(q2)
C12q, S12q = cos(q1 + q2), sin(q1 + q2)
#: (6-9-10) = (6-9-22)
TAU_6_9_10 = (m1 * a1**2 / 3) * qdd1 + g0 * m1 * a1 * C1q / 2 + b1(qd1)
u1, u2 = col(C1q, S1q, 0), col(-S1q, C1q, 0)                   # (6-9-13), (6-9-14)
f1_6_9_20 = m1 * col(-a1 * (S1q * qdd1 + C1q * qd1**2) / 2,
                     g0 + a1 * (C1q * qdd1 - S1q * qd1**2) / 2, 0)
_rod = m1 * a1**2 * qdd1 / 12
#: (6-9-21): the fifth line as printed (two /2 of f^1 lost), corrected, and the sixth
n1z_6_9_21_fifth = (m1 * a1 / 2) * (C1q * (g0 + a1 * (C1q * qdd1 - S1q * qd1**2))
                                    + S1q * a1 * (S1q * qdd1 + C1q * qd1**2)) + _rod
n1z_6_9_21_fifth_corrected = (m1 * a1 / 2) * (C1q * (g0 + a1 * (C1q * qdd1 - S1q * qd1**2) / 2)
                                              + S1q * a1 * (S1q * qdd1 + C1q * qd1**2) / 2) + _rod
n1z_6_9_21_sixth = g0 * m1 * a1 * C1q / 2 + m1 * a1**2 * qdd1 / 4 + _rod
n1_6_9_21 = col(0, 0, m1 * a1**2 * qdd1 / 3 + g0 * m1 * a1 * C1q / 2)


def records_schilling_pendulum() -> list:
    arm, R = "pendulum", functools.partial(make_record, "schilling")
    return [
        R("Table 6-3", arm, "theta", (1,), q1, {}, "theta_1"),
        R("Eq. (6-9-3)", arm, "T", (1,),
          mat((C1q, -S1q, 0, a1 * C1q), (S1q, C1q, 0, a1 * S1q), (0, 0, 1, 0), (0, 0, 0, 1)), {},
          "T_0^1"),
        R("Eq. (6-9-4)", arm, "r_bar", (1,), col(a1 * C1q / 2, a1 * S1q / 2, 0), {},
          "c-bar^1"),
        R("Eq. (6-9-6), A^1", arm, "A", (1,), col(-a1 * S1q / 2, a1 * C1q / 2, 0), {},
          "A^1"),
        R("Eq. (6-9-6), B^1", arm, "B", (1,), col(0, 0, 1), {}, "B^1"),
        R("Eq. (6-9-7)", arm, "D", (1, 1), m1 * a1**2 / 4 + m1 * a1**2 / 12, {},
          "D(q)"),
        R("Eq. (6-9-8)", arm, "C_i", (1,), mat((0,)), {}, "C^1"),
        R("Eq. (6-9-9)", arm, "c", (1,), g0 * m1 * a1 * C1q / 2, G0, "h_1"),
        R("Eq. (6-9-10)", arm, "tau", (1,), TAU_6_9_10, G0, "tau_1"),
        R("Eqs. (6-9-11), (6-9-12), omega^1", arm, "omega", (1,), col(0, 0, qd1), {},
          "omega^1", frame="base"),
        R("Eqs. (6-9-11), (6-9-12), omega-dot^1", arm, "omega_dot", (1,),
          col(0, 0, qdd1), {}, "omega-dot^1", frame="base"),
        R("Eq. (6-9-18)", arm, "v_dot", (1,),
          col(0, g0, 0) + a1 * qdd1 * u2 - a1 * qd1**2 * u1, G0, "v-dot^1", frame="base",
          note="-g = [0, g_0, 0]"),
        R("Eq. (6-9-20)", arm, "f", (1,), f1_6_9_20, G0, "f^1", frame="base"),
        R("Eq. (6-9-21), fifth line", arm, "n", (1, 3), n1z_6_9_21_fifth, G0,
          "n^1 . i^3", frame="base", errata=("Eq. (6-9-21), fifth line",),
          corrections=(n1z_6_9_21_fifth_corrected,)),
        R("Eq. (6-9-21), sixth line", arm, "n", (1, 3), n1z_6_9_21_sixth, G0,
          "n^1 . i^3", frame="base"),
        R("Eq. (6-9-21), last line", arm, "n", (1,), n1_6_9_21, G0, "n^1",
          frame="base"),
        R("Eq. (6-9-22)", arm, "tau", (1,), TAU_6_9_10, G0, "tau_1"),
    ]


# ================================================================================================
# Schilling Sec. 6-5: the two-axis planar articulated arm (a1, a2, m1, m2)
# ================================================================================================
#: (6-5-14), the final matrix
D_6_5_14 = mat((m1 * a1**2 / 3 + m2 * (a1**2 + a1 * a2 * C2q + a2**2 / 3),
              m2 * (a1 * a2 * C2q / 2 + a2**2 / 3)),
             (m2 * (a1 * a2 * C2q / 2 + a2**2 / 3), m2 * a2**2 / 3))
C1_6_5_15 = m2 * a1 * a2 * S2q / 2 * mat((0, 0), (-2, -1))             # (6-5-15)
C2_6_5_18 = m2 * a1 * a2 * S2q / 4 * mat((2, 1), (-1, 0))              # (6-5-18)
h_6_5 = col(g0 * ((m1 / 2 + m2) * a1 * C1q + m2 * a2 * C12q / 2),    # (6-5-16)
            g0 * m2 * a2 * C12q / 2)                                 # (6-5-19)
#: (6-5-17) and (6-5-20), verbatim
TAU1_6_5_17 = (((m1 / 3 + m2) * a1**2 + m2 * a1 * a2 * C2q + m2 * a2**2 / 3) * qdd1
               + (m2 * a1 * a2 * C2q / 2 + m2 * a2**2 / 3) * qdd2
               - m2 * a1 * a2 * S2q * (qd1 * qd2 + qd2**2 / 2)
               + g0 * ((m1 / 2 + m2) * a1 * C1q + m2 * a2 * C12q / 2) + b1(qd1))
TAU2_6_5_20 = ((m2 * a1 * a2 * C2q / 2 + m2 * a2**2 / 3) * qdd1 + m2 * a2**2 * qdd2 / 3
               + m2 * a1 * a2 * S2q * qd1**2 / 2 + g0 * m2 * a2 * C12q / 2 + b2(qd2))


def records_schilling_planar() -> list:
    arm, R = "planar_2r/schilling", functools.partial(make_record, "schilling")
    return [
        R("Table 6-1, joint 1", arm, "theta", (1,), q1, {}, "theta_1"),
        R("Table 6-1, joint 2", arm, "theta", (2,), q2, {}, "theta_2"),
        R("Eq. (6-5-3)", arm, "T", (1,),
          mat((C1q, -S1q, 0, a1 * C1q), (S1q, C1q, 0, a1 * S1q), (0, 0, 1, 0), (0, 0, 0, 1)), {},
          "T_0^1", note="-S_l in the scan is -S_1"),
        R("Eq. (6-5-4)", arm, "r_bar", (1,), col(a1 * C1q / 2, a1 * S1q / 2, 0), {},
          "c-bar^1"),
        R("Eq. (6-5-6), A^1", arm, "A", (1,), mat((-a1 * S1q / 2, 0), (a1 * C1q / 2, 0),
                                                          (0, 0)), {}, "A^1",
          note="the scan lost part of the B^1 block"),
        R("Eq. (6-5-7)", arm, "D", None, m1 * a1**2 / 3 * mat((1, 0), (0, 0)), {},
          "D(q) after link 1", given={m2: 0}),
        R("Eq. (6-5-10)", arm, "T", (2,),
          mat((C12q, -S12q, 0, a1 * C1q + a2 * C12q), (S12q, C12q, 0, a1 * S1q + a2 * S12q),
            (0, 0, 1, 0), (0, 0, 0, 1)), {}, "T_0^2"),
        R("Eq. (6-5-11)", arm, "r_bar", (2,),
          col(a1 * C1q + a2 * C12q / 2, a1 * S1q + a2 * S12q / 2, 0), {}, "c-bar^2"),
        R("Eq. (6-5-13), A^2", arm, "A", (2,),
          mat((-a1 * S1q - a2 * S12q / 2, -a2 * S12q / 2), (a1 * C1q + a2 * C12q / 2,
                                                          a2 * C12q / 2), (0, 0)), {}, "A^2",
          note="the scan lost the first row of B^2"),
        R("Eq. (6-5-14)", arm, "D", None, D_6_5_14, {}, "D(q)"),
        R("Eq. (6-5-15)", arm, "C_i", (1,), C1_6_5_15, {}, "C^1"),
        R("Eq. (6-5-16)", arm, "c", (1,), h_6_5[0], G0, "h_1"),
        R("Eq. (6-5-17)", arm, "tau", (1,), TAU1_6_5_17, G0, "tau_1"),
        R("Eq. (6-5-18)", arm, "C_i", (2,), C2_6_5_18, {}, "C^2"),
        R("Eq. (6-5-19)", arm, "c", (2,), h_6_5[1], G0, "h_2"),
        R("Eq. (6-5-20)", arm, "tau", (2,), TAU2_6_5_20, G0, "tau_2"),
    ]


# ================================================================================================
# Schilling Sec. 6-6: the three-axis SCARA
# ================================================================================================
C1m2, S1m2 = cos(q1 - q2), sin(q1 - q2)                  # Schilling's C_{1-2}, S_{1-2}
#: (6-6-22)
D11_s = (m1 / 3 + m2 + m3) * a1**2 + (m2 + 2 * m3) * a1 * a2 * C2q + (m2 / 3 + m3) * a2**2
D12_s = -(m2 / 2 + m3) * a1 * a2 * C2q - (m2 / 3 + m3) * a2**2
D22_s = (m2 / 3 + m3) * a2**2
D_6_6_22 = mat((D11_s, D12_s, 0), (D12_s, D22_s, 0), (0, 0, m3))
#: (6-6-14): D(q) after links 1 and 2
D_6_6_14 = mat(((m1 / 3 + m2) * a1**2 + m2 * C2q * a1 * a2 + m2 * a2**2 / 3,
              -m2 * a1 * a2 * C2q / 2 - m2 * a2**2 / 3, 0),
             (-m2 * a1 * a2 * C2q / 2 - m2 * a2**2 / 3, m2 * a2**2 / 3, 0), (0, 0, 0))
C1_6_6_23 = a1 * a2 * S2q * mat((0, 0, 0), (-(m2 + 2 * m3), m2 / 2 + m3, 0), (0, 0, 0))
C2_6_6_26 = a1 * a2 * S2q * mat((m2 / 2 + m3, -(m2 / 4 + m3 / 2), 0),
                              (m2 / 4 + m3 / 2, 0, 0), (0, 0, 0))
C3_6_6_29 = ImmutableMatrix(sympy.zeros(3, 3))
h_6_6 = col(0, 0, -g0 * m3)                               # (6-6-24), (6-6-27), (6-6-30)
B3_6_6_20 = mat((0, 0, 0), (0, 0, 0), (0, -1, 0))
B3_6_6_20_corrected = mat((0, 0, 0), (0, 0, 0), (1, -1, 0))


def tau1_6_6_25(qdd2_printed=qdd2**2):
    """(6-6-25): the book prints D_12's bracket times ``qdd2**2``."""
    return (D11_s * qdd1
            - ((m2 / 2 + m3) * a1 * a2 * C2q + (m2 / 3 + m3) * a2**2) * qdd2_printed + b1(qd1)
            - a1 * a2 * S2q * ((m2 + 2 * m3) * qd1 * qd2 - (m2 / 2 + m3) * qd2**2))


def tau2_6_6_28(acceleration=add1):
    """(6-6-28): the book prints ``\\ddot{a}_1`` where ``qdd1`` belongs."""
    return (-((m2 / 2 + m3) * a1 * a2 * C2q + (m2 / 3 + m3) * a2**2) * acceleration
            + (m2 / 3 + m3) * a2**2 * qdd2 + (m2 / 2 + m3) * a1 * a2 * S2q * qd1**2 + b2(qd2))


TAU3_6_6_31 = m3 * qdd3 - g0 * m3 + b3(qd3)               # (6-6-31)


def records_schilling_scara() -> list:
    arm, R = "scara", functools.partial(make_record, "schilling")
    return [
        R("Table 6-2, joint 1", arm, "theta", (1,), q1, {}, "theta_1"),
        R("Table 6-2, joint 2", arm, "theta", (2,), q1, {}, "theta_2",
          errata=("Table 6-2, joint 2",), corrections=(q2,)),
        R("Table 6-2, joint 3", arm, "theta", (3,), sympy.S.Zero, {}, "theta_3"),
        R("Eq. (6-6-3)", arm, "T", (1,),
          mat((C1q, S1q, 0, a1 * C1q), (S1q, -C1q, 0, a1 * S1q), (0, 0, -1, d1), (0, 0, 0, 1)), {},
          "T_0^1"),
        R("Eq. (6-6-4)", arm, "r_bar", (1,), col(a1 * C1q / 2, a1 * S1q / 2, d1), {},
          "c-bar^1"),
        R("Eq. (6-6-6), A^1", arm, "A", (1,),
          mat((-a1 * S1q / 2, 0, 0), (a1 * C1q / 2, 0, 0), (0, 0, 0)), {}, "A^1",
          note="the scan garbled the B^1 block (first column lost)"),
        R("Eq. (6-6-7)", arm, "D", None, m1 * a1**2 / 3 * mat((1, 0, 0), (0, 0, 0),
                                                                           (0, 0, 0)), {},
          "D(q) after link 1", given={m2: 0, m3: 0}),
        R("Eq. (6-6-10)", arm, "T", (2, slice(0, 3)),
          mat((C1m2, S1m2, 0, a1 * C1q + a2 * C1m2), (S1m2, -C1m2, 0, a1 * S1q + a2 * S1m2),
            (0, 0, -1, d1)), {}, "T_0^2", note="the scan lost the last row"),
        R("Eq. (6-6-11)", arm, "r_bar", (2,),
          col(a1 * C1q + a2 * C1m2 / 2, a1 * S1q + a2 * S1m2 / 2, d1), {}, "c-bar^2"),
        R("Eq. (6-6-13), A^2", arm, "A", (2,),
          mat((-a1 * S1q - a2 * S1m2 / 2, a2 * S1m2 / 2, 0),
            (a1 * C1q + a2 * C1m2 / 2, -a2 * C1m2 / 2, 0), (0, 0, 0)), {}, "A^2",
          note="the scan garbled the B^2 block (first column lost)"),
        R("Eq. (6-6-14)", arm, "D", None, D_6_6_14, {}, "D(q) after links 1, 2",
          given={m3: 0}),
        R("Eq. (6-6-17)", arm, "T", (3,),
          mat((C1m2, S1m2, 0, a1 * C1q + a2 * C1m2), (S1m2, -C1m2, 0, a1 * S1q + a2 * S1m2),
            (0, 0, -1, d1 - q3), (0, 0, 0, 1)), {}, "T_0^3"),
        R("Eq. (6-6-18)", arm, "r_bar", (3,),
          col(a1 * C1q + a2 * C1m2, a1 * S1q + a2 * S1m2, d1 - q3 + l3 / 2), {}, "c-bar^3"),
        R("Eq. (6-6-20), A^3", arm, "A", (3,),
          mat((-a1 * S1q - a2 * S1m2, a2 * S1m2, 0), (a1 * C1q + a2 * C1m2, -a2 * C1m2, 0),
            (0, 0, -1)), {}, "A^3"),
        R("Eq. (6-6-20), B^3", arm, "B", (3,), B3_6_6_20, {}, "B^3",
          errata=("Eq. (6-6-20), B^3",), corrections=(B3_6_6_20_corrected,)),
        R("Eq. (6-6-22)", arm, "D", None, D_6_6_22, {}, "D(q)"),
        R("Eq. (6-6-23)", arm, "C_i", (1,), C1_6_6_23, {}, "C^1"),
        R("Eq. (6-6-24)", arm, "c", (1,), h_6_6[0], G0, "h_1"),
        R("Eq. (6-6-25)", arm, "tau", (1,), tau1_6_6_25(qdd2**2), G0, "tau_1",
          errata=("Eq. (6-6-25)",), corrections=(tau1_6_6_25(qdd2),)),
        R("Eq. (6-6-26)", arm, "C_i", (2,), C2_6_6_26, {}, "C^2"),
        R("Eq. (6-6-27)", arm, "c", (2,), h_6_6[1], G0, "h_2",
          note="the value 0 is right; the formula's mass weighting is not (erratum "
               "'Eq. (6-6-27)'), which shows only with gravity off the z0 axis"),
        R("Eq. (6-6-28)", arm, "tau", (2,), tau2_6_6_28(add1), G0, "tau_2",
          errata=("Eq. (6-6-28)",), corrections=(tau2_6_6_28(qdd1),)),
        R("Eq. (6-6-29)", arm, "C_i", (3,), C3_6_6_29, {}, "C^3"),
        R("Eq. (6-6-30)", arm, "c", (3,), h_6_6[2], G0, "h_3"),
        R("Eq. (6-6-31)", arm, "tau", (3,), TAU3_6_6_31, G0, "tau_3"),
    ]
