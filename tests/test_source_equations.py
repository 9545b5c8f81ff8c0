"""The sources' printed equations against dynlab's derivations, and the errata.

Each book equation is transcribed below in the book's own letters (000 and 003 write theta,
002 writes g_0, 001 is Macsyma's 1-D output), with the line or equation it comes from, and then
mapped onto dynlab's symbols (``joint_symbols``; the builders of :mod:`dynlab.robots` spell their
parameters as the sources do).  Where a printed equation is right, both Newton-Euler recursions
(``link`` and ``base``) and, where the book gives ``D``, ``h``, ``c`` separately, the three
Lagrange-Euler forms (``uicker``, ``jacobian``, ``christoffel``) must reproduce it exactly
(``is_zero`` of the difference).  Where it is wrong (:mod:`dynlab.errata`), the printed form must
*not* match and the corrected one must.

Line numbers: ``000 L461`` is line 461 of ``seeds/000_ec73d7ceb983b5f0.txt`` (same for 001 and
003); ``002 EL 228`` is line 228 of ``seeds/002_9eb2ab55a5938b5f.english-lines.txt``.  002's
equation numbers are read off its cross-references (the scan lost the tags).
"""

import functools

import pytest
import sympy
from sympy import Abs, Matrix, Rational, cos, exp, sign, sin, symbols

from dynlab import Link, equations_of_motion, inverse_dynamics, joint_symbols
from dynlab.errata import ERRATA, SOURCES, errata_table, markdown_table
from dynlab.kinematics import link_jacobians, transforms
from dynlab.robots import PUMA560_PARAMETERS, pendulum, planar_2r, puma560, scara
from dynlab.symbolic import is_zero

NE = ("link", "base")
LE = ("uicker", "jacobian", "christoffel")
half, third = Rational(1, 2), Rational(1, 3)

(q1, q2, q3), (qd1, qd2, qd3), (qdd1, qdd2, qdd3) = joint_symbols(3)

# dynlab's parameter symbols (the builders make them positive, named as in the sources)
m1, m2, m3, l, g = symbols("m1 m2 m3 l g", positive=True)
a1, a2, d1, l3, L1, L2 = symbols("a1 a2 d1 l3 L1 L2", positive=True)
M1, M2, Mp, l1, l2, I1, I2 = symbols("M1 M2 Mp l1 l2 I1 I2", positive=True)
# 002 Eq. (6-3-3)'s friction coefficients, per joint
bv, bd, bs, eps = symbols("bv bd bs epsilon", positive=True)
bv1, bv2, bv3 = symbols("bv1 bv2 bv3", positive=True)

# the books' own letters
th1, th2, thd1, thd2, thdd1, thdd2 = symbols("theta1 theta2 thetad1 thetad2 thetadd1 thetadd2",
                                            real=True)
THETA = {th1: q1, th2: q2, thd1: qd1, thd2: qd2, thdd1: qdd1, thdd2: qdd2}     # 000, 003
g0 = symbols("g0", positive=True)
G0 = {g0: g}                                                                    # 002


def book(expr, *mappings):
    """A transcribed book expression in dynlab's symbols."""
    mapping = {}
    for m in mappings:
        mapping.update(m)
    return sympy.sympify(expr).xreplace(mapping)


# -- the arms, and dynlab's derivations (each computed once) -------------------------------------
ARMS = {
    "pendulum": lambda: pendulum(symbolic=True, viscous=bv, coulomb=bd, static=bs, epsilon=eps),
    "fu": lambda: planar_2r("fu", symbolic=True),
    "schilling": lambda: planar_2r("schilling", symbolic=True, viscous=[bv1, bv2]),
    "lynch_park": lambda: planar_2r("lynch_park", symbolic=True),
    "macsyma": lambda: planar_2r("macsyma", symbolic=True),
    "scara": lambda: scara(symbolic=True, viscous=[bv1, bv2, bv3]),
}


@functools.lru_cache(maxsize=None)
def arm(name):
    return ARMS[name]()


@functools.lru_cache(maxsize=None)
def tau(name, variant):
    """dynlab's Newton-Euler torques, in the joint symbols."""
    robot = arm(name)
    q, qd, qdd = joint_symbols(robot.n)
    return inverse_dynamics(robot, q, qd, qdd, variant=variant)


@functools.lru_cache(maxsize=None)
def trace(name, variant):
    robot = arm(name)
    q, qd, qdd = joint_symbols(robot.n)
    return inverse_dynamics(robot, q, qd, qdd, variant=variant, trace=True, simplify=False)[1]


@functools.lru_cache(maxsize=None)
def eom(name, variant):
    """dynlab's Lagrange-Euler equations of motion (D, h, c in 000's letters)."""
    return equations_of_motion(arm(name), method="lagrange_euler", variant=variant)


def same(a, b):
    return is_zero(sympy.Matrix(a) - sympy.Matrix(b)) if isinstance(a, (list, sympy.MatrixBase)) \
        else is_zero(a - b)


def torques(D, h, c, qdd):
    """``tau = D qdd + h + c`` from book matrices."""
    return D * Matrix(qdd) + Matrix(h) + Matrix(c)


# ================================================================================================
# 002 Sec. 6-9: the one-axis arm (pendulum)
# ================================================================================================
def friction_6_3_3(qd, b_v, b_d, b_s, epsilon):
    # 002 Eq. (6-3-3) (EL 110): b_k = b^v qd_k + sgn(qd_k)[b^d + (b^s - b^d) exp(-|qd_k|/eps)]
    return b_v * qd + sign(qd) * (b_d + (b_s - b_d) * exp(-Abs(qd) / epsilon))


# (6-9-10) (EL 429) = (6-9-22) (EL 456): tau1 = (m1 a1^2/3) qdd1 + g0 m1 a1 C1/2 + b1(qd1)
TAU_6_9_10 = (m1 * a1**2 / 3) * qdd1 + g0 * m1 * a1 * cos(q1) / 2


@pytest.mark.parametrize("variant", NE)
def test_pendulum_6_9_10_with_friction_6_3_3(variant):
    expected = book(TAU_6_9_10, G0) + friction_6_3_3(qd1, bv, bd, bs, eps)
    assert same(tau("pendulum", variant)[0], expected)


@pytest.mark.parametrize("variant", LE)
def test_pendulum_D_C_h_6_9_7_to_6_9_9(variant):
    result = eom("pendulum", variant)
    assert same(result.D[0, 0], m1 * a1**2 / 3)                        # (6-9-7) EL 423
    assert same(result.h[0], 0)                                        # (6-9-8) C^1 = 0
    assert same(result.c[0], book(g0 * m1 * a1 * cos(q1) / 2, G0))     # (6-9-9) EL 427
    if variant == "jacobian":
        assert same(result.terms["C_i"][0], Matrix([[0]]))


def test_pendulum_newton_euler_intermediates_6_9_18_to_6_9_21():
    """002 Sec. 6-9-2 works in base coordinates: dynlab's base-frame trace."""
    rec = trace("pendulum", "base")[1]
    u1, u2 = Matrix([cos(q1), sin(q1), 0]), Matrix([-sin(q1), cos(q1), 0])
    minus_g = Matrix([0, g0, 0])                                       # g = [0, -g0, 0]^T (EL 442)
    # (6-9-18) EL 443
    assert same(rec["v_dot"], book(minus_g + a1 * qdd1 * u2 - a1 * qd1**2 * u1, G0))
    # (6-9-20) EL 450
    f1 = m1 * Matrix([-a1 * (sin(q1) * qdd1 + cos(q1) * qd1**2) / 2,
                      g0 + a1 * (cos(q1) * qdd1 - sin(q1) * qd1**2) / 2, 0])
    assert same(rec["f"], book(f1, G0))
    # (6-9-21) EL 454, last line
    assert same(rec["n"], book(Matrix([0, 0, m1 * a1**2 * qdd1 / 3 + g0 * m1 * a1 * cos(q1) / 2]),
                               G0))


def test_erratum_002_6_9_21_fifth_line():
    """(6-9-21)'s fifth line drops the two /2 of f^1; the next line (and the result) are right."""
    n_z = trace("pendulum", "base")[1]["n"][2]
    f = trace("pendulum", "base")[1]["f"]
    rod = m1 * a1**2 * qdd1 / 12
    # fourth line: (a1/2)(C1 f^1_2 - S1 f^1_1) + m1 a1^2 qdd1/12 -- right
    assert same(a1 / 2 * (cos(q1) * f[1] - sin(q1) * f[0]) + rod, n_z)
    printed = (m1 * a1 / 2) * (cos(q1) * (g0 + a1 * (cos(q1) * qdd1 - sin(q1) * qd1**2))
                               + sin(q1) * a1 * (sin(q1) * qdd1 + cos(q1) * qd1**2)) + rod
    corrected = (m1 * a1 / 2) * (cos(q1) * (g0 + a1 * (cos(q1) * qdd1 - sin(q1) * qd1**2) / 2)
                                 + sin(q1) * a1 * (sin(q1) * qdd1 + cos(q1) * qd1**2) / 2) + rod
    sixth_line = g0 * m1 * a1 * cos(q1) / 2 + m1 * a1**2 * qdd1 / 4 + rod
    assert not same(book(printed, G0), n_z)
    assert same(book(corrected, G0), n_z) and same(book(sixth_line, G0), n_z)


def test_erratum_002_6_8_point_of_application_of_f_and_n():
    """(6-8-9)'s n^k is the moment at the origin of L_{k-1} (where tau_k = n^k . z^{k-1}
    holds), not at the origin of L_k as the prose (EL 367, 371) says."""
    rec = trace("pendulum", "base")[1]
    tau_no_friction = book(TAU_6_9_10, G0)
    assert same(rec["n"][2], tau_no_friction)                  # about the origin of L_0
    delta_s = a1 * Matrix([cos(q1), sin(q1), 0])               # (6-9-17): origin of L_1
    at_origin_of_L1 = rec["n"] - delta_s.cross(rec["f"])
    assert not same(at_origin_of_L1[2], tau_no_friction)


# ================================================================================================
# 000 Secs. 3.2.6, 3.3.7, 3.4.2: the two-link arm of Fig. 3.2 (a1 = a2 = l, masses m1, m2)
# ================================================================================================
C1, C2, S2, C12, S1, S12 = (cos(th1), cos(th2), sin(th2), cos(th1 + th2), sin(th1),
                            sin(th1 + th2))
# L461 (L-E, final), verbatim
D_000 = Matrix([[m1 * l**2 / 3 + Rational(4, 3) * m2 * l**2 + m2 * C2 * l**2,
                 m2 * l**2 / 3 + m2 * l**2 * C2 / 2],
                [m2 * l**2 / 3 + m2 * l**2 * C2 / 2, m2 * l**2 / 3]])
h_000 = Matrix([-m2 * S2 * l**2 * thd2**2 / 2 - m2 * S2 * l**2 * thd1 * thd2,
                m2 * S2 * l**2 * thd1**2 / 2])
c_000 = Matrix([m1 * g * l * C1 / 2 + m2 * g * l * C12 / 2 + m2 * g * l * C1,
                m2 * g * l * C12 / 2])
# L1284 (G-D, final): the same D and h; gravity written (m1/2 + m2) g l C1 + m2 g l C12/2
c_000_GD = Matrix([(m1 / 2 + m2) * g * l * C1 + m2 * g * l * C12 / 2, m2 * g * l * C12 / 2])


@pytest.mark.parametrize("variant", NE)
def test_000_two_link_final_equations_L461_and_L1284(variant):
    derived = tau("fu", variant)
    assert same(derived, book(torques(D_000, h_000, c_000, (thdd1, thdd2)), THETA))
    assert same(derived, book(torques(D_000, h_000, c_000_GD, (thdd1, thdd2)), THETA))


@pytest.mark.parametrize("variant", LE)
def test_000_two_link_D_h_c_L461(variant):
    result = eom("fu", variant)
    assert same(result.D, book(D_000, THETA))
    assert same(result.h, book(h_000, THETA))
    assert same(result.c, book(c_000, THETA))


def test_000_newton_euler_intermediates_L854_to_L940():
    """Sec. 3.3.7 in link coordinates (dynlab's link-frame trace); the base is given
    vdot_0 = (0, g, 0) (L850), dynlab's -gravity."""
    t = trace("fu", "link")
    z = Matrix([0, 0, 1])
    assert same(t[1]["omega"], book(z * thd1, THETA))                                # L854
    assert same(t[2]["omega"], book(z * (thd1 + thd2), THETA))                       # L858
    assert same(t[1]["omega_dot"], book(z * thdd1, THETA))                           # L864
    assert same(t[2]["omega_dot"], book(z * (thdd1 + thdd2), THETA))                 # L868
    assert same(t[1]["v_dot"], book(Matrix([-l * thd1**2 + g * S1, l * thdd1 + g * C1, 0]),
                                     THETA))                                          # L874
    v2 = Matrix([l * (S2 * thdd1 - C2 * thd1**2 - thd1**2 - thd2**2 - 2 * thd1 * thd2) + g * S12,
                 l * (thdd1 + thdd2 + C2 * thdd1 + S2 * thd1**2) + g * C12, 0])
    assert same(t[2]["v_dot"], book(v2, THETA))                                       # L882
    a1_bar = Matrix([-l / 2 * thd1**2 + g * S1, l / 2 * thdd1 + g * C1, 0])
    assert same(t[1]["a_bar"], book(a1_bar, THETA))                                   # L899
    a2_bar = Matrix([l * (S2 * thdd1 - C2 * thd1**2 - thd1**2 / 2 - thd2**2 / 2 - thd1 * thd2)
                     + g * S12,
                     l * (C2 * thdd1 + S2 * thd1**2 + thdd1 / 2 + thdd2 / 2) + g * C12, 0])
    assert same(t[2]["a_bar"], book(a2_bar, THETA))                                  # L914
    assert same(t[2]["f"], book(m2 * a2_bar, THETA))                                 # L922
    f1 = Matrix([m2 * l * (-thd1**2 - C2 * (thd1**2 + thd2**2) / 2 - C2 * thd1 * thd2
                           - S2 * (thdd1 + thdd2) / 2)
                 - m2 * g * (C12 * S2 - C2 * S12) - m1 * l * thd1**2 / 2 + m1 * g * S1,
                 m2 * l * (thdd1 - S2 * (thd1**2 + thd2**2) / 2 - S2 * thd1 * thd2
                           + C2 * (thdd1 + thdd2) / 2)
                 + m2 * g * C1 + m1 * l * thdd1 / 2 + g * m1 * C1, 0])
    assert same(t[1]["f"], book(f1, THETA))                                          # L928
    n2 = Matrix([0, 0, m2 * l**2 * thdd1 / 3 + m2 * l**2 * thdd2 / 3
                 + m2 * l**2 * (C2 * thdd1 + S2 * thd1**2) / 2 + m2 * g * l * C12 / 2])
    assert same(t[2]["n"], book(n2, THETA))                                          # L940


# -- errata of 000 -------------------------------------------------------------------------------
def _trace_sum(U, J, i, k):
    """000 Eq. (3.2-31): D_ik = sum_{j >= max(i,k)} Tr(U_jk J_j U_ji^T) (0-based indices)."""
    return sum((U[j][k] * J[j] * U[j][i].T).trace() for j in range(max(i, k), len(J)))


def test_erratum_000_pseudo_inertia_L389_and_D_intermediates_L397_to_L413():
    uicker = eom("fu", "uicker")
    U, J = uicker.terms["U"], uicker.terms["J"]
    def J_book(m, k):   # L389, with J[0, 0] = k m l^2
        return Matrix([[k * m * l**2, 0, 0, -m * l / 2], [0, 0, 0, 0], [0, 0, 0, 0],
                       [-m * l / 2, 0, 0, m]])
    # E1: dynlab's J (from the CoM and the inertia about it) has 1/3, the book prints 1/2
    assert same(J[0], J_book(m1, third)) and same(J[1], J_book(m2, third))
    assert not same(J[0], J_book(m1, half))
    D = Matrix(2, 2, lambda i, k: _trace_sum(U, J, i, k))
    assert same(D, book(D_000, THETA))
    D_printed_J = Matrix(2, 2, lambda i, k: _trace_sum(U, [J_book(m1, half), J_book(m2, half)],
                                                       i, k))
    # what the printed J gives: m1 l^2/2 + 3 m2 l^2/2 + m2 C2 l^2 ... and D22 = m2 l^2/2
    assert same(D_printed_J[0, 0], m1 * l**2 / 2 + 3 * m2 * l**2 / 2 + m2 * cos(q2) * l**2)
    # E2: L397 matches neither J
    D11_L397 = book(m1 * l**2 / 2 + m2 * l**2 / 2 + m2 * C2 * l**2, THETA)
    assert not same(D11_L397, D[0, 0]) and not same(D11_L397, D_printed_J[0, 0])
    # E3: L405's bracket is right, its "=" is not (-1/6 + 1/2 = 1/3)
    assert same(book(m2 * l**2 * (-Rational(1, 6) + half + C2 / 2), THETA), D[0, 1])
    assert not same(book(m2 * l**2 / 2 + m2 * l**2 * C2 / 2, THETA), D[0, 1])
    # E4: L413 is what the printed J gives, not the right value
    D22_L413 = m2 * l**2 / 2
    assert same(D22_L413, D_printed_J[1, 1]) and not same(D22_L413, D[1, 1])


# L958 and L962, verbatim (the N-E example's final torques)
TAU2_L958 = (m2 * l**2 * thdd1 / 2 + m2 * l**2 * thdd2 / 2 + m2 * l**2 * C2 * thdd1 / 2
             + m2 * g * l * C12 / 2 + m2 * l**2 * S2 * thd1**2 / 2)
TAU1_L962 = (m1 * l**2 * thdd1 / 2 + m2 * l**2 * thdd1 / 2 + m2 * l**2 * thdd2 / 2
             + m2 * C2 * l**2 * thdd1 + m2 * l**2 * C2 * thdd2 / 2 - m2 * S2 * l**2 * thd1 * thd2
             - m2 * S2 * l**2 * thd2**2 / 2 + m1 * g * l * C1 / 2 + m2 * g * l * C12 / 2
             + m2 * g * l * C1)


@pytest.mark.parametrize("variant", NE)
def test_erratum_000_newton_euler_final_torques_L958_L962(variant):
    derived = tau("fu", variant)
    assert not same(book(TAU1_L962, THETA), derived[0])
    assert not same(book(TAU2_L958, THETA), derived[1])
    # the differences are exactly the wrong inertia coefficients (1/2 for 1/3, 1/2 for 4/3)
    assert same(book(TAU1_L962, THETA) - derived[0], l**2 * (m1 - 5 * m2) * qdd1 / 6
                + m2 * l**2 * qdd2 / 6)
    assert same(book(TAU2_L958, THETA) - derived[1], m2 * l**2 * (qdd1 + qdd2) / 6)
    corrected_tau2 = (TAU2_L958 - m2 * l**2 * (thdd1 + thdd2) / 2
                      + m2 * l**2 * (thdd1 + thdd2) / 3)
    assert same(book(corrected_tau2, THETA), derived[1])


def _table_3_3(printed: bool):
    """000 Table 3.3 (link-frame N-E) run on the two-link arm: the n_i row as printed (L808:
    p*_{i+1} and f_i) or as Eq. (3.3-57) has it (p*_i and F_i)."""
    def R(t):   # iR_{i-1} is its transpose (L844-L846)
        return Matrix([[cos(t), -sin(t), 0], [sin(t), cos(t), 0], [0, 0, 1]])
    z, qs, qds, qdds, ms = Matrix([0, 0, 1]), (q1, q2), (qd1, qd2), (qdd1, qdd2), (m1, m2)
    p_star, s_bar = Matrix([l, 0, 0]), Matrix([-l / 2, 0, 0])     # iR0 p*_i, iR0 s_i (L936)
    inertia = [sympy.diag(0, m * l**2 / 12, m * l**2 / 12) for m in ms]
    w, wd, vd = sympy.zeros(3, 1), sympy.zeros(3, 1), Matrix([0, g, 0])     # L850
    kin = []
    for i in range(2):
        Rt = R(qs[i]).T
        wd = Rt * (wd + z * qdds[i] + w.cross(z * qds[i]))
        w = Rt * (w + z * qds[i])
        vd = wd.cross(p_star) + w.cross(w.cross(p_star)) + Rt * vd
        kin.append((w, wd, wd.cross(s_bar) + w.cross(w.cross(s_bar)) + vd))
    f, n, result = sympy.zeros(3, 1), sympy.zeros(3, 1), [0, 0]        # f_3 = n_3 = 0 (L916)
    for i in (1, 0):
        w, wd, a_bar = kin[i]
        R_next = R(qs[i + 1]) if i == 0 else sympy.eye(3)
        F, N = ms[i] * a_bar, inertia[i] * wd + w.cross(inertia[i] * w)
        f_i = R_next * f + F
        if printed:    # L808: (i+1R0 p*_{i+1}) x f_{i+1}  and  (p*_i + s_i) x f_i
            lever = p_star if i == 0 else sympy.zeros(3, 1)
            n = R_next * (n + lever.cross(f)) + (p_star + s_bar).cross(f_i) + N
        else:          # (3.3-57): (i+1R0 p*_i) x f_{i+1}  and  (p*_i + s_i) x F_i
            n = R_next * (n + (R_next.T * p_star).cross(f)) + (p_star + s_bar).cross(F) + N
        f = f_i
        result[i] = n[2]                           # tau_i = (iR0 n_i)^T (iR_{i-1} z0)
    return result


def test_erratum_000_table_3_3_moment_row_L808():
    derived = tau("fu", "link")
    correct = _table_3_3(printed=False)
    assert same(correct[0], derived[0]) and same(correct[1], derived[1])
    printed = _table_3_3(printed=True)
    assert same(printed[1], derived[1])            # f_3 = 0: tau_2 cannot show it
    assert not same(printed[0], derived[0])


def test_erratum_000_eq_3_2_34_gravity_term_has_no_transpose():
    uicker = eom("fu", "uicker")
    U = uicker.terms["U"]
    g_row = Matrix([[0, -g, 0, 0]])                # L443: g = (0, -g, 0, 0)
    r = Matrix([-l / 2, 0, 0, 1])                  # jr_j of both links (L440-L449)
    ms = (m1, m2)
    def c(transposed):
        return [sum((-ms[j] * g_row * (U[j][i].T if transposed else U[j][i]) * r)[0]
                    for j in range(i, 2)) for i in range(2)]
    assert same(Matrix(c(False)), book(c_000, THETA))
    assert same(uicker.c, book(c_000, THETA))
    assert not same(Matrix(c(True)), book(c_000, THETA))


def test_erratum_000_eqs_3_3_50_to_3_3_55_dots():
    t = trace("fu", "link")
    z = Matrix([0, 0, 1])
    # (3.3-50) as printed: 1R0 wd_1 = 1R0 (wd_0 + z0 qd_1) with wd_0 = 0 -- it is omega_1
    printed_50 = Matrix([[cos(q1), sin(q1), 0], [-sin(q1), cos(q1), 0], [0, 0, 1]]) * z * qd1
    assert not same(printed_50, t[1]["omega_dot"]) and same(printed_50, t[1]["omega"])
    # (3.3-53) as printed: wd x s + wd x (wd x s) + vd
    s = Matrix([-l / 2, 0, 0])
    w, wd, vd = t[2]["omega"], t[2]["omega_dot"], t[2]["v_dot"]
    assert not same(wd.cross(s) + wd.cross(wd.cross(s)) + vd, t[2]["a_bar"])
    assert same(wd.cross(s) + w.cross(w.cross(s)) + vd, t[2]["a_bar"])
    # (3.3-52) as printed: wd x p* + wd x (wd x p*) + 2R1 vd_1, against the correct w x (w x p*)
    p_star = Matrix([l, 0, 0])
    R21 = Matrix([[cos(q2), sin(q2), 0], [-sin(q2), cos(q2), 0], [0, 0, 1]])
    rest = wd.cross(p_star) + R21 * t[1]["v_dot"]
    assert same(rest + w.cross(w.cross(p_star)), vd)
    assert not same(rest + wd.cross(wd.cross(p_star)), vd)


# ================================================================================================
# 002 Sec. 6-5: the two-axis planar articulated arm (a1, a2, m1, m2)
# ================================================================================================
C1q, C2q, S2q, C12q = cos(q1), cos(q2), sin(q2), cos(q1 + q2)
# (6-5-14) EL 221
D_6_5_14 = Matrix([[m1 * a1**2 / 3 + m2 * (a1**2 + a1 * a2 * C2q + a2**2 / 3),
                    m2 * (a1 * a2 * C2q / 2 + a2**2 / 3)],
                   [m2 * (a1 * a2 * C2q / 2 + a2**2 / 3), m2 * a2**2 / 3]])
C1_6_5_15 = m2 * a1 * a2 * S2q / 2 * Matrix([[0, 0], [-2, -1]])          # EL 223
C2_6_5_18 = m2 * a1 * a2 * S2q / 4 * Matrix([[2, 1], [-1, 0]])           # EL 230
h_6_5 = Matrix([g0 * ((m1 / 2 + m2) * a1 * C1q + m2 * a2 * C12q / 2),    # (6-5-16) EL 226
                g0 * m2 * a2 * C12q / 2])                                # (6-5-19) EL 232
# (6-5-17) EL 228 and (6-5-20) EL 234, verbatim but for b_k(qd_k)
TAU1_6_5_17 = (((m1 / 3 + m2) * a1**2 + m2 * a1 * a2 * C2q + m2 * a2**2 / 3) * qdd1
               + (m2 * a1 * a2 * C2q / 2 + m2 * a2**2 / 3) * qdd2
               - m2 * a1 * a2 * S2q * (qd1 * qd2 + qd2**2 / 2)
               + g0 * ((m1 / 2 + m2) * a1 * C1q + m2 * a2 * C12q / 2))
TAU2_6_5_20 = ((m2 * a1 * a2 * C2q / 2 + m2 * a2**2 / 3) * qdd1 + m2 * a2**2 * qdd2 / 3
               + m2 * a1 * a2 * S2q * qd1**2 / 2 + g0 * m2 * a2 * C12q / 2)


@pytest.mark.parametrize("variant", NE)
def test_002_planar_arm_6_5_17_and_6_5_20(variant):
    derived = tau("schilling", variant)
    # b_k(qd_k) of (6-3-3) with viscous friction only: b_k = b^v_k qd_k
    assert same(derived[0], book(TAU1_6_5_17, G0) + bv1 * qd1)
    assert same(derived[1], book(TAU2_6_5_20, G0) + bv2 * qd2)


@pytest.mark.parametrize("variant", LE)
def test_002_planar_arm_D_C_h_6_5_14_to_6_5_19(variant):
    result = eom("schilling", variant)
    assert same(result.D, D_6_5_14)
    assert same(result.D.subs(m2, 0), m1 * a1**2 / 3 * sympy.diag(1, 0))   # (6-5-7) EL 207
    qd = Matrix([qd1, qd2])
    # (6-4-8): the velocity coupling vector c_i = qd^T C^i qd (000's h)
    assert same(result.h, Matrix([(qd.T * C1_6_5_15 * qd)[0], (qd.T * C2_6_5_18 * qd)[0]]))
    assert same(result.c, book(h_6_5, G0))
    assert same(result.friction, Matrix([bv1 * qd1, bv2 * qd2]))
    if variant == "jacobian":       # terms["C_i"][i][k, j] = C^i_kj of (6-4-6)
        assert same(result.terms["C_i"][0], C1_6_5_15)
        assert same(result.terms["C_i"][1], C2_6_5_18)


def test_002_planar_arm_is_000s_arm_when_a1_equals_a2():
    """With a1 = a2 = l the two books' final equations coincide (as printed, both right)."""
    same_arm = {a1: l, a2: l, g0: g}
    assert same(D_6_5_14.xreplace(same_arm), book(D_000, THETA))
    assert same(h_6_5.xreplace(same_arm), book(c_000, THETA))


# ================================================================================================
# 002 Sec. 6-6: the three-axis SCARA (Table 6-2 corrected)
# ================================================================================================
# (6-6-22) EL 296-298
D11_s = (m1 / 3 + m2 + m3) * a1**2 + (m2 + 2 * m3) * a1 * a2 * C2q + (m2 / 3 + m3) * a2**2
D12_s = -(m2 / 2 + m3) * a1 * a2 * C2q - (m2 / 3 + m3) * a2**2
D22_s = (m2 / 3 + m3) * a2**2
D_6_6_22 = Matrix([[D11_s, D12_s, 0], [D12_s, D22_s, 0], [0, 0, m3]])
C1_6_6_23 = a1 * a2 * S2q * Matrix([[0, 0, 0], [-(m2 + 2 * m3), m2 / 2 + m3, 0], [0, 0, 0]])
C2_6_6_26 = a1 * a2 * S2q * Matrix([[m2 / 2 + m3, -(m2 / 4 + m3 / 2), 0],
                                    [m2 / 4 + m3 / 2, 0, 0], [0, 0, 0]])
C3_6_6_29 = sympy.zeros(3, 3)
h_6_6 = Matrix([0, 0, -g0 * m3])                      # (6-6-24), (6-6-27), (6-6-30)


def tau1_6_6_25(qdd2_printed):
    # (6-6-25) EL 305; the book prints the bracket times qdd2**2
    return (D11_s * qdd1
            - ((m2 / 2 + m3) * a1 * a2 * C2q + (m2 / 3 + m3) * a2**2) * qdd2_printed
            - a1 * a2 * S2q * ((m2 + 2 * m3) * qd1 * qd2 - (m2 / 2 + m3) * qd2**2))


def tau2_6_6_28(add1):
    # (6-6-28) EL 311; the book prints \ddot{a}_1 where qdd1 belongs
    return (-((m2 / 2 + m3) * a1 * a2 * C2q + (m2 / 3 + m3) * a2**2) * add1
            + (m2 / 3 + m3) * a2**2 * qdd2 + (m2 / 2 + m3) * a1 * a2 * S2q * qd1**2)


TAU3_6_6_31 = m3 * qdd3 - g0 * m3                     # (6-6-31) EL 317


@pytest.mark.parametrize("variant", NE)
def test_002_scara_6_6_25_6_6_28_6_6_31_corrected(variant):
    derived = tau("scara", variant)
    assert same(derived[0], tau1_6_6_25(qdd2) + bv1 * qd1)
    assert same(derived[1], tau2_6_6_28(qdd1) + bv2 * qd2)
    assert same(derived[2], book(TAU3_6_6_31, G0) + bv3 * qd3)


@pytest.mark.parametrize("variant", NE)
def test_erratum_002_scara_6_6_25_and_6_6_28_as_printed(variant):
    derived = tau("scara", variant)
    assert not same(derived[0], tau1_6_6_25(qdd2**2) + bv1 * qd1)
    # a1 is a constant: read literally, its second derivative is 0
    assert not same(derived[1], tau2_6_6_28(0) + bv2 * qd2)


@pytest.mark.parametrize("variant", LE)
def test_002_scara_D_C_h_6_6_22_to_6_6_30(variant):
    result = eom("scara", variant)
    assert same(result.D, D_6_6_22)
    qd = Matrix([qd1, qd2, qd3])
    expected_h = Matrix([(qd.T * C * qd)[0] for C in (C1_6_6_23, C2_6_6_26, C3_6_6_29)])
    assert same(result.h, expected_h)
    assert same(result.c, book(h_6_6, G0))
    if variant == "jacobian":
        for derived, printed in zip(result.terms["C_i"], (C1_6_6_23, C2_6_6_26, C3_6_6_29)):
            assert same(derived, printed)


def test_erratum_002_table_6_2_theta2_is_q2():
    """(6-6-10), EL 273: T_0^2 with C_{1-2}; the table's theta_2 = q_1 cannot give it."""
    C, S = cos(q1 - q2), sin(q1 - q2)
    T02 = Matrix([[C, S, 0, a1 * cos(q1) + a2 * C], [S, -C, 0, a1 * sin(q1) + a2 * S],
                  [0, 0, -1, d1], [0, 0, 0, 1]])
    derived = transforms(arm("scara"), [q1, q2, q3])[2]
    assert same(derived, T02)
    assert not same(derived.subs(q2, q1), T02)      # Table 6-2 as printed: theta_2 = q_1


def test_erratum_002_6_6_20_B3_first_column():
    _, B3 = link_jacobians(arm("scara"), [q1, q2, q3])[2]
    assert same(B3, Matrix([[0, 0, 0], [0, 0, 0], [1, -1, 0]]))
    assert not same(B3, Matrix([[0, 0, 0], [0, 0, 0], [0, -1, 0]]))     # as printed


def test_erratum_002_6_6_27_mass_weighting():
    """(6-6-27) weights link 3's Jacobian with m2.  With gravity along z0 both entries vanish;
    tilt the arm (gravity along -x0) and (6-4-7) must weight each link with its own mass."""
    robot = arm("scara")
    jac = link_jacobians(robot, [q1, q2, q3])
    A2, A3 = jac[1][0], jac[2][0]
    assert same(A2[2, 1], 0) and same(A3[2, 1], 0)                  # why h2 = 0 as printed
    tilted = robot.replace(gravity=(-g, 0, 0))
    h2 = equations_of_motion(tilted, method="lagrange_euler", variant="jacobian",
                             simplify=False).c[1]
    assert same(h2, g * (m2 * A2[0, 1] + m3 * A3[0, 1]))
    assert not same(h2, g * m2 * (A2[0, 1] + A3[0, 1]))


# ================================================================================================
# 003 Sec. 9.1.1: the planar 2R arm with point masses (L1, L2, m1, m2)
# ================================================================================================
c1_, c2_, s2_, c12_ = cos(th1), cos(th2), sin(th2), cos(th1 + th2)


def tau_003(p1=False, p2=False, p3=False):
    """L81 as printed, with the corrections P1 (tau_1's cos th1 -> cos th2), P2 (tau_2's
    velocity term) and P3 (tau_2's gravity sign) applied when asked."""
    tau1 = (((m1 + m2) * L1**2 + m2 * (2 * L1 * L2 * c2_ + L2**2)) * thdd1
            + m2 * (L1 * L2 * (c2_ if p1 else c1_) + L2**2) * thdd2
            - 2 * m2 * L1 * L2 * thd1 * thd2 * s2_ - m2 * L1 * L2 * thd2**2 * s2_
            + (m1 + m2) * L1 * g * c1_ + m2 * g * L2 * c12_)
    tau2 = (m2 * (L1 * L2 * c2_ + L2**2) * thdd1 + m2 * L2**2 * thdd2
            + (m2 * L1 * L2 * thd1**2 * s2_ if p2 else -m2 * L1 * L2 * thd1 * thd2 * s2_)
            + (1 if p3 else -1) * m2 * g * L2 * c12_)
    return book(Matrix([tau1, tau2]), THETA)


@pytest.mark.parametrize("variant", NE)
def test_003_two_link_torques_L81_corrected(variant):
    assert same(tau("lynch_park", variant), tau_003(p1=True, p2=True, p3=True))


@pytest.mark.parametrize("variant", NE)
def test_erratum_003_L81_each_correction_is_needed(variant):
    derived = tau("lynch_park", variant)
    assert not same(derived, tau_003())
    for wrong in ("p1", "p2", "p3"):
        others = {p: p != wrong for p in ("p1", "p2", "p3")}
        assert not same(derived, tau_003(**others)), wrong


def test_erratum_003_kinetic_energy_L69():
    K = eom("lynch_park", "christoffel").terms["K"]
    K1 = m1 * L1**2 * thd1**2 / 2
    bracket = [(L1**2 + 2 * L1 * L2 * c2_ + L2**2) * thd1**2,
               2 * (L2**2 + L1 * L2 * c2_) * thd1 * thd2, L2**2 * thd2**2]
    K2_printed = half * (m2 * bracket[0] + bracket[1] + bracket[2])
    K2_correct = half * m2 * (bracket[0] + bracket[1] + bracket[2])
    assert same(K, book(K1 + K2_correct, THETA))
    assert not same(K, book(K1 + K2_printed, THETA))
    # P2's reasoning: Gamma_211 = m2 L1 L2 sin th2, Gamma_212 = Gamma_222 = 0 (9.13)
    Gamma = eom("lynch_park", "christoffel").terms["Gamma"]
    assert same(Gamma[1][0, 0], m2 * L1 * L2 * sin(q2))
    assert same(Gamma[1][0, 1], 0) and same(Gamma[1][1, 1], 0)


# ================================================================================================
# 001 App. B: the two-link arm with a payload (Macsyma)
# ================================================================================================
# Macsyma's names: m1, m2, mp, i_1, i_2, l1, l2, gravity, t1, t2 (and t1', t1'' ...)
mm1, mm2, mp, i_1, i_2, gravity = symbols("m1_ m2_ mp i_1 i_2 gravity", positive=True)
t1, t2, t1d, t2d, t1dd, t2dd = symbols("t1 t2 t1d t2d t1dd t2dd", real=True)
MACSYMA = {mm1: M1, mm2: M2, mp: Mp, i_1: I1, i_2: I2, gravity: g, t1: q1, t2: q2, t1d: qd1,
           t2d: qd2, t1dd: qdd1, t2dd: qdd2}
# (d52), L773-L781: the crunched constants
r1 = 4 * gravity * l1 * mp + 4 * gravity * l1 * mm2 + 2 * gravity * l1 * mm1
r2 = ((4 * l2**2 + 4 * l1**2) * mp + (l2**2 + 4 * l1**2) * mm2 + l1**2 * mm1 + 4 * i_2
      + 4 * i_1)
r3 = 4 * gravity * l2 * mp + 2 * gravity * l2 * mm2
r4 = 8 * l1 * l2 * mp + 4 * l1 * l2 * mm2
r5 = 4 * l1 * l2 * mp + 2 * l1 * l2 * mm2
r6 = 4 * l2**2 * mp + l2**2 * mm2 + 4 * i_2
s = sin(t1)**2 + cos(t1)**2          # Macsyma never reduced it to 1
# (d47), L617-L637
TT1 = (((r5 * s) * cos(t2) + r6) * t2dd - r5 * s * sin(t2) * t2d**2
       - r4 * s * t1d * sin(t2) * t2d - r3 * sin(t1) * sin(t2)
       + (r4 * s * t1dd + r3 * cos(t1)) * cos(t2) + r2 * t1dd + r1 * cos(t1)) / 4
# (d51), L749-L763
TT2 = (r6 * t2dd + (r5 * s * t1d**2 - r3 * sin(t1)) * sin(t2)
       + (r5 * s * t1dd + r3 * cos(t1)) * cos(t2) + r6 * t1dd) / 4


@pytest.mark.parametrize("variant", NE)
def test_001_inverse_dynamics_d47_d51(variant):
    derived = tau("macsyma", variant)
    assert same(derived[0], book(TT1, MACSYMA))
    assert same(derived[1], book(TT2, MACSYMA))


def test_001_payload_is_a_point_mass_at_the_tip():
    """Folding Mp into link 2 changes the torques by exactly those of a point mass at the tip
    (the batch file's x_cp, y_cp, L107-L153)."""
    without = tau("macsyma", "link").subs(Mp, 0)
    tip = Matrix([l1 * cos(q1) + l2 * cos(q1 + q2), l1 * sin(q1) + l2 * sin(q1 + q2)])
    J = tip.jacobian([q1, q2])
    qd, qdd = Matrix([qd1, qd2]), Matrix([qdd1, qdd2])
    tip_acc = J * qdd + (J * qd).jacobian([q1, q2]) * qd
    point_mass = Mp * J.T * (tip_acc + Matrix([0, g]))
    assert same(tau("macsyma", "link") - without, point_mass)


# ================================================================================================
# reference/puma560.md: the published inertias of links 1 and 3
# ================================================================================================
@pytest.mark.parametrize("k", (1, 3))
def test_puma560_data_note_triangle_inequality(k):
    d, a, quarter_turns, mass, com, moments = PUMA560_PARAMETERS[k - 1]
    with pytest.raises(ValueError, match="triangle inequality"):
        Link("R", d=d, a=a, mass=mass, com=com, inertia=moments, name=f"link {k}")
    assert puma560().links[k - 1].lumped_inertia


# ================================================================================================
# the errata module
# ================================================================================================
def test_errata_records_name_a_known_source_and_fill_every_field():
    records = errata_table()
    assert set(ERRATA) <= set(records)
    for e in records:
        assert e.source in SOURCES
        assert all(isinstance(v, str) and v.strip() for v in (e.place, e.printed, e.correct,
                                                               e.why))
    assert len(markdown_table().splitlines()) == len(records) + 2
    assert sum(len(errata_table(s)) for s in SOURCES) == len(records)
