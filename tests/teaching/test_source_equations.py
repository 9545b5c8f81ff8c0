"""The sources' printed equations against dynlab's derivations, and the errata.

Each book equation is transcribed below in the book's own letters (Fu, Gonzalez & Lee and Lynch &
Park write theta, Schilling writes g_0, the thesis appendix is Macsyma's 1-D output), with the line
or equation it comes from, and then mapped onto dynlab's symbols (``joint_symbols``; the builders of
:mod:`dynlab.model.robots` spell their parameters as the sources do).  Where a printed equation is
right, both Newton-Euler recursions (``link`` and ``base``) and, where the book gives ``D``, ``h``,
``c`` separately, the three Lagrange-Euler forms (``uicker``, ``jacobian``, ``christoffel``) must
reproduce it exactly (``is_zero`` of the difference).  Where it is wrong
(:mod:`dynlab.teaching.errata`), the printed form must
*not* match and the corrected one must.

Line numbers: ``Fu, Gonzalez & Lee L461`` is line 461 of ``seeds/000_ec73d7ceb983b5f0.txt`` (same
for the thesis appendix and Lynch & Park); ``Schilling EL 228`` is line 228 of
``seeds/002_9eb2ab55a5938b5f.english-lines.txt``.  Schilling's equation numbers are read off its
cross-references (the scan lost the tags).
"""

import numpy as np
import pytest
import sympy
from sympy import Matrix, Rational, cos, sin

from dynlab import Link, equations_of_motion
from dynlab.model.kinematics import link_jacobians, transforms
from dynlab.model.robots import PUMA560_PARAMETERS, puma560
from dynlab.model.symbolic import is_zero
from dynlab.teaching.bibliography import AUTHORS
from dynlab.teaching.errata import ERRATA, KINDS, SOURCES, Erratum, errata_table, markdown_table
from dynlab.teaching.textbook import derivation, fu, letters
from dynlab.teaching.textbook.catalogue import lookup

# the transcriptions (book letters) and the symbols, from the library
from dynlab.teaching.textbook.fu import (
    C1,
    C2,
    D_3_2_6,
    S1,
    TAU1_3_3_7,
    TAU2_3_3_7,
    c_3_2_6,
    c_3_4_2,
    h_3_2_6,
)
from dynlab.teaching.textbook.letters import (
    G0,
    L1,
    L2,
    MACSYMA,
    THETA,
    Mp,
    a1,
    a2,
    add1,
    b1,
    b2,
    b3,
    bd,
    bs,
    bv,
    bv1,
    bv2,
    bv3,
    eps,
    friction_6_3_3,
    g,
    g0,
    l,
    l1,
    l2,
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
    th2,
    thd1,
    thd2,
    thdd1,
    thdd2,
)
from dynlab.teaching.textbook.lynch_park import torques_lynch_park_8_1_1
from dynlab.teaching.textbook.schilling import (
    C1_6_5_15,
    C1_6_6_23,
    C2_6_5_18,
    C2_6_6_26,
    C3_6_6_29,
    D_6_5_14,
    D_6_6_22,
    TAU1_6_5_17,
    TAU2_6_5_20,
    TAU3_6_6_31,
    TAU_6_9_10,
    h_6_5,
    h_6_6,
    tau1_6_6_25,
    tau2_6_6_28,
)
from dynlab.teaching.textbook.thesis import TT1, TT2

NE = ("link", "base")
LE = ("uicker", "jacobian", "christoffel")
half, third = Rational(1, 2), Rational(1, 3)

# dynlab's derivations come from dynlab.teaching.textbook's caches (symbolic, not compacted: is_zero
# is
# exact either way), shared with tests/teaching/test_textbook.py
ARMS = {"pendulum": "pendulum", "fu": "planar_2r/fu", "schilling": "planar_2r/schilling",
        "lynch_park": "planar_2r/lynch_park", "macsyma": "planar_2r/macsyma", "scara": "scara"}


def book(expr, *mappings):
    """A transcribed book expression in dynlab's symbols."""
    mapping = {}
    for m in mappings:
        mapping.update(m)
    return sympy.sympify(expr).xreplace(mapping)


def arm(name):
    return derivation.robot(ARMS[name])


def tau(name, variant):
    """dynlab's Newton-Euler torques, in the joint symbols."""
    return derivation.torques(ARMS[name], "newton_euler", variant)


def trace(name, variant):
    return derivation.trace(ARMS[name], variant)


def eom(name, variant):
    """dynlab's Lagrange-Euler equations of motion (D, h, c in Fu, Gonzalez & Lee's letters)."""
    return derivation.equations(ARMS[name], "lagrange_euler", variant)


def same(a, b):
    return is_zero(sympy.Matrix(a) - sympy.Matrix(b)) if isinstance(a, (list, sympy.MatrixBase)) \
        else is_zero(a - b)


def torques(D, h, c, qdd):
    """``tau = D qdd + h + c`` from book matrices."""
    return D * Matrix(qdd) + Matrix(h) + Matrix(c)


def printed(source, place, quantity=None):
    """A record's expression as printed (book letters)."""
    return lookup(source, place, quantity).as_printed()


# ================================================================================================
# Schilling, Sec. 6-9: the one-axis arm (pendulum)
# ================================================================================================
# Schilling, Eq. (6-3-3)'s b_1(qd_1) with the pendulum's coefficients
B1_PENDULUM = {b1(qd1): friction_6_3_3(qd1, bv, bd, bs, eps)}


@pytest.mark.parametrize("variant", NE)
def test_pendulum_6_9_10_with_friction_6_3_3(variant):
    # (6-9-10) = (6-9-22)
    expected = book(TAU_6_9_10, G0, B1_PENDULUM)
    assert same(tau("pendulum", variant)[0], expected)
    assert printed("schilling", "Eq. (6-9-22)") == TAU_6_9_10


@pytest.mark.parametrize("variant", LE)
def test_pendulum_D_C_h_6_9_7_to_6_9_9(variant):
    result = eom("pendulum", variant)
    assert same(result.D[0, 0], printed("schilling", "Eq. (6-9-7)"))       # m1 a1^2/3
    assert same(result.D[0, 0], m1 * a1**2 / 3)
    assert same(result.h[0], 0)                                        # (6-9-8) C^1 = 0
    assert same(result.c[0], book(printed("schilling", "Eq. (6-9-9)"), G0))
    assert same(result.c[0], book(g0 * m1 * a1 * cos(q1) / 2, G0))     # (6-9-9) EL 427
    if variant == "jacobian":
        assert same(result.terms["C_i"][0], printed("schilling", "Eq. (6-9-8)"))
        assert same(result.terms["C_i"][0], Matrix([[0]]))


def test_pendulum_newton_euler_intermediates_6_9_18_to_6_9_21():
    """Schilling, Sec. 6-9-2 works in base coordinates: dynlab's base-frame trace."""
    rec = trace("pendulum", "base")[1]
    # (6-9-18) EL 443: -g + a1 qdd1 u^2 - a1 qd1^2 u^1 with -g = [0, g0, 0]
    assert same(rec["v_dot"], book(printed("schilling", "Eq. (6-9-18)"), G0))
    # (6-9-20) EL 450
    assert same(rec["f"], book(printed("schilling", "Eq. (6-9-20)"), G0))
    # (6-9-21) EL 454, last line
    assert same(rec["n"], book(printed("schilling", "Eq. (6-9-21), last line"), G0))
    assert same(rec["n"], book(Matrix([0, 0, m1 * a1**2 * qdd1 / 3
                                       + g0 * m1 * a1 * cos(q1) / 2]), G0))


def test_erratum_schilling_6_9_21_fifth_line():
    """(6-9-21)'s fifth line drops the two /2 of f^1; the next line (and the result) are right."""
    n_z = trace("pendulum", "base")[1]["n"][2]
    f = trace("pendulum", "base")[1]["f"]
    rod = m1 * a1**2 * qdd1 / 12
    # fourth line: (a1/2)(C1 f^1_2 - S1 f^1_1) + m1 a1^2 qdd1/12 -- right
    assert same(a1 / 2 * (cos(q1) * f[1] - sin(q1) * f[0]) + rod, n_z)
    fifth = lookup("schilling", "Eq. (6-9-21), fifth line")
    assert fifth.errata == ("Eq. (6-9-21), fifth line",)
    sixth_line = printed("schilling", "Eq. (6-9-21), sixth line")
    assert not same(book(fifth.as_printed(), G0), n_z)
    assert same(book(fifth.corrections[0], G0), n_z) and same(book(sixth_line, G0), n_z)
    assert same(fifth.corrected(), n_z)


def test_erratum_schilling_6_8_point_of_application_of_f_and_n():
    """(6-8-9)'s n^k is the moment at the origin of L_{k-1} (where tau_k = n^k . z^{k-1}
    holds), not at the origin of L_k as the prose (EL 367, 371) says."""
    rec = trace("pendulum", "base")[1]
    tau_no_friction = book(TAU_6_9_10, G0, {b1(qd1): 0})
    assert same(rec["n"][2], tau_no_friction)                  # about the origin of L_0
    delta_s = a1 * Matrix([cos(q1), sin(q1), 0])               # (6-9-17): origin of L_1
    at_origin_of_L1 = rec["n"] - delta_s.cross(rec["f"])
    assert not same(at_origin_of_L1[2], tau_no_friction)


# ================================================================================================
# Fu, Gonzalez & Lee, Secs. 3.2.6, 3.3.7, 3.4.2: the two-link arm of Fig. 3.2 (a1 = a2 = l, masses
# m1, m2)
# ================================================================================================
@pytest.mark.parametrize("variant", NE)
def test_fu_two_link_final_equations_L461_and_L1284(variant):
    derived = tau("fu", variant)
    assert same(derived, book(torques(D_3_2_6, h_3_2_6, c_3_2_6, (thdd1, thdd2)), THETA))
    assert same(derived, book(torques(D_3_2_6, h_3_2_6, c_3_4_2, (thdd1, thdd2)), THETA))
    assert same(derived, book(printed("fu", "Sec. 3.4.2, tau"), THETA))


@pytest.mark.parametrize("variant", LE)
def test_fu_two_link_D_h_c_3_2_6(variant):
    result = eom("fu", variant)
    assert same(result.D, book(D_3_2_6, THETA))
    assert same(result.h, book(h_3_2_6, THETA))
    assert same(result.c, book(c_3_2_6, THETA))


def test_fu_newton_euler_intermediates_L854_to_L940():
    """Sec. 3.3.7 in link coordinates (dynlab's link-frame trace); the base is given
    vdot_0 = (0, g, 0), dynlab's -gravity."""
    t = trace("fu", "link")
    z = Matrix([0, 0, 1])

    def at(line):
        return book(printed("fu", f"Sec. 3.3.7, {line}"), THETA)
    assert same(t[1]["omega"], at("omega_1"))
    assert same(t[1]["omega"], book(z * thd1, THETA))                                # L854
    assert same(t[2]["omega"], at("omega_2"))
    assert same(t[2]["omega"], book(z * (thd1 + thd2), THETA))                       # L858
    assert same(t[1]["omega_dot"], at("omega_dot_1"))
    assert same(t[1]["omega_dot"], book(z * thdd1, THETA))                           # L864
    assert same(t[2]["omega_dot"], at("omega_dot_2"))
    assert same(t[2]["omega_dot"], book(z * (thdd1 + thdd2), THETA))                 # L868
    assert same(t[1]["v_dot"], at("v_dot_1"))
    assert same(t[1]["v_dot"], book(Matrix([-l * thd1**2 + g * S1, l * thdd1 + g * C1, 0]),
                                     THETA))                                          # L874
    assert same(t[2]["v_dot"], at("v_dot_2"))                                 # L882
    assert same(t[1]["a_bar"], at("a_bar_1"))                                 # L899
    a2_bar = at("a_bar_2")
    assert same(t[2]["a_bar"], a2_bar)                                               # L914
    assert same(t[2]["f"], m2 * a2_bar)                                              # L922
    assert same(t[2]["f"], at("f_2"))
    assert same(t[1]["f"], at("f_1"))                                         # L928
    assert same(t[2]["n"], at("n_2"))                                         # L940


# -- errata of Fu, Gonzalez & Lee ------------------------------------------------------------------
def _trace_sum(U, J, i, k):
    """Fu, Gonzalez & Lee, Eq. (3.2-31): D_ik = sum_{j >= max(i,k)} Tr(U_jk J_j U_ji^T) (0-based
    indices)."""
    return sum((U[j][k] * J[j] * U[j][i].T).trace() for j in range(max(i, k), len(J)))


def test_erratum_fu_pseudo_inertia_L389_and_D_intermediates_L397_to_L413():
    uicker = eom("fu", "uicker")
    U, J = uicker.terms["U"], uicker.terms["J"]
    J1, J2 = (lookup("fu", f"Sec. 3.2.6, J_{k}") for k in (1, 2))
    # the printed J has J[0, 0] = m l^2/2, the corrected one m l^2/3
    assert J1.as_printed()[0, 0] == m1 * l**2 / 2 and J1.corrected()[0, 0] == m1 * l**2 / 3
    # E1: dynlab's J (from the CoM and the inertia about it) has 1/3, the book prints 1/2
    assert same(J[0], J1.corrected()) and same(J[1], J2.corrected())
    assert not same(J[0], J1.as_printed())
    D = Matrix(2, 2, lambda i, k: _trace_sum(U, J, i, k))
    assert same(D, book(D_3_2_6, THETA))
    D_printed_J = Matrix(2, 2, lambda i, k: _trace_sum(U, [J1.as_printed(), J2.as_printed()],
                                                       i, k))
    # what the printed J gives: m1 l^2/2 + 3 m2 l^2/2 + m2 C2 l^2 ... and D22 = m2 l^2/2
    assert same(D_printed_J[0, 0], m1 * l**2 / 2 + 3 * m2 * l**2 / 2 + m2 * cos(q2) * l**2)
    # E2: L397 matches neither J
    D11_L397 = book(printed("fu", "Sec. 3.2.6, D_11"), THETA)
    assert not same(D11_L397, D[0, 0]) and not same(D11_L397, D_printed_J[0, 0])
    # E3: L405's bracket is right, its "=" is not (-1/6 + 1/2 = 1/3)
    assert same(book(printed("fu", "Sec. 3.2.6, D_12 bracket"), THETA), D[0, 1])
    assert same(book(m2 * l**2 * (-Rational(1, 6) + half + C2 / 2), THETA), D[0, 1])
    assert not same(book(printed("fu", "Sec. 3.2.6, D_12"), THETA), D[0, 1])
    # E4: L413 is what the printed J gives, not the right value
    D22_L413 = printed("fu", "Sec. 3.2.6, D_22")
    assert D22_L413 == m2 * l**2 / 2
    assert same(D22_L413, D_printed_J[1, 1]) and not same(D22_L413, D[1, 1])


@pytest.mark.parametrize("variant", NE)
def test_erratum_fu_newton_euler_final_torques_L958_L962(variant):
    derived = tau("fu", variant)
    assert not same(book(TAU1_3_3_7, THETA), derived[0])
    assert not same(book(TAU2_3_3_7, THETA), derived[1])
    # the differences are exactly the wrong inertia coefficients (1/2 for 1/3, 1/2 for 4/3)
    assert same(book(TAU1_3_3_7, THETA) - derived[0], l**2 * (m1 - 5 * m2) * qdd1 / 6
                + m2 * l**2 * qdd2 / 6)
    assert same(book(TAU2_3_3_7, THETA) - derived[1], m2 * l**2 * (qdd1 + qdd2) / 6)
    corrected_tau2 = (TAU2_3_3_7 - m2 * l**2 * (thdd1 + thdd2) / 2
                      + m2 * l**2 * (thdd1 + thdd2) / 3)
    assert same(book(corrected_tau2, THETA), derived[1])
    for line, k in (("tau_1", 0), ("tau_2", 1)):
        assert same(lookup("fu", f"Sec. 3.3.7, {line}").corrected(), derived[k])


def test_erratum_fu_table_3_3_moment_row_L808():
    derived = tau("fu", "link")
    correct = fu.run_table_3_3(arm("fu"), printed=False)
    assert same(correct[0], derived[0]) and same(correct[1], derived[1])
    printed_table = fu.run_table_3_3(arm("fu"), printed=True)
    assert same(printed_table[1], derived[1])      # f_3 = 0: tau_2 cannot show it
    assert not same(printed_table[0], derived[0])
    # Table 3.2, the base-coordinate recursion, is right as printed
    assert same(Matrix(fu.run_table_3_2(arm("fu"))), derived)


def test_erratum_fu_eq_3_2_34_gravity_term_has_no_transpose():
    uicker = eom("fu", "uicker")
    U = uicker.terms["U"]
    g_row = Matrix([[0, -g, 0, 0]])                # L443: g = (0, -g, 0, 0)
    r = Matrix([-l / 2, 0, 0, 1])                  # jr_j of both links
    ms = (m1, m2)

    def c(transposed):
        return [sum((-ms[j] * g_row * (U[j][i].T if transposed else U[j][i]) * r)[0]
                    for j in range(i, 2)) for i in range(2)]
    assert same(Matrix(c(False)), book(c_3_2_6, THETA))
    assert same(uicker.c, book(c_3_2_6, THETA))
    assert not same(Matrix(c(True)), book(c_3_2_6, THETA))
    # the same with the example's printed U_ji, as transcribed in dynlab.teaching.textbook
    record = lookup("fu", "Eq. (3.2-34) with the example's U_ji")
    assert not same(record.expression(), uicker.c) and same(record.corrected(), uicker.c)


def test_erratum_fu_eqs_3_3_50_to_3_3_55_dots():
    t = trace("fu", "link")
    z = Matrix([0, 0, 1])
    # (3.3-50) as printed: 1R0 wd_1 = 1R0 (wd_0 + z0 qd_1) with wd_0 = 0 -- it is omega_1
    printed_50 = Matrix([[cos(q1), sin(q1), 0], [-sin(q1), cos(q1), 0], [0, 0, 1]]) * z * qd1
    assert not same(printed_50, t[1]["omega_dot"]) and same(printed_50, t[1]["omega"])
    record_50 = lookup("fu", "Eq. (3.3-50), i = 1, with omega_0 = omega-dot_0 = 0")
    assert same(record_50.expression(), printed_50)
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
    # the same two equations evaluated with the example's printed values (dynlab.teaching.textbook)
    for place, key in (("Eq. (3.3-52), i = 2, with the values of Sec. 3.3.7", "v_dot"),
                       ("Eq. (3.3-53), i = 2, with the values of Sec. 3.3.7", "a_bar")):
        record = lookup("fu", place)
        assert not same(record.expression(), t[2][key]) and same(record.corrected(), t[2][key])


# ================================================================================================
# Schilling, Sec. 6-5: the two-axis planar articulated arm (a1, a2, m1, m2)
# ================================================================================================
@pytest.mark.parametrize("variant", NE)
def test_schilling_planar_arm_6_5_17_and_6_5_20(variant):
    derived = tau("schilling", variant)
    # b_k(qd_k) of (6-3-3) with viscous friction only: b_k = b^v_k qd_k
    assert same(derived[0], book(TAU1_6_5_17, G0, {b1(qd1): bv1 * qd1}))
    assert same(derived[1], book(TAU2_6_5_20, G0, {b2(qd2): bv2 * qd2}))


@pytest.mark.parametrize("variant", LE)
def test_schilling_planar_arm_D_C_h_6_5_14_to_6_5_19(variant):
    result = eom("schilling", variant)
    assert same(result.D, D_6_5_14)
    assert same(result.D.subs(m2, 0), printed("schilling", "Eq. (6-5-7)"))
    assert same(result.D.subs(m2, 0), m1 * a1**2 / 3 * sympy.diag(1, 0))   # (6-5-7) EL 207
    qd = Matrix([qd1, qd2])
    # (6-4-8): the velocity coupling vector c_i = qd^T C^i qd (Fu, Gonzalez & Lee's h)
    assert same(result.h, Matrix([(qd.T * C1_6_5_15 * qd)[0], (qd.T * C2_6_5_18 * qd)[0]]))
    assert same(result.c, book(h_6_5, G0))
    assert same(result.friction, Matrix([bv1 * qd1, bv2 * qd2]))
    if variant == "jacobian":       # terms["C_i"][i][k, j] = C^i_kj of (6-4-6)
        assert same(result.terms["C_i"][0], C1_6_5_15)
        assert same(result.terms["C_i"][1], C2_6_5_18)


def test_schilling_planar_arm_is_fus_arm_when_a1_equals_a2():
    """With a1 = a2 = l the two books' final equations coincide (as printed, both right)."""
    same_arm = {a1: l, a2: l, g0: g}
    assert same(D_6_5_14.xreplace(same_arm), book(D_3_2_6, THETA))
    assert same(h_6_5.xreplace(same_arm), book(c_3_2_6, THETA))


# ================================================================================================
# Schilling, Sec. 6-6: the three-axis SCARA (Table 6-2 corrected)
# ================================================================================================
VISCOUS_SCARA = {b1(qd1): bv1 * qd1, b2(qd2): bv2 * qd2, b3(qd3): bv3 * qd3}


@pytest.mark.parametrize("variant", NE)
def test_schilling_scara_6_6_25_6_6_28_6_6_31_corrected(variant):
    derived = tau("scara", variant)
    assert same(derived[0], book(tau1_6_6_25(qdd2), VISCOUS_SCARA))
    assert same(derived[1], book(tau2_6_6_28(qdd1), VISCOUS_SCARA))
    assert same(derived[2], book(TAU3_6_6_31, G0, VISCOUS_SCARA))


@pytest.mark.parametrize("variant", NE)
def test_erratum_schilling_scara_6_6_25_and_6_6_28_as_printed(variant):
    derived = tau("scara", variant)
    assert not same(derived[0], book(tau1_6_6_25(qdd2**2), VISCOUS_SCARA))
    # a1 is a constant: read literally, its second derivative is 0
    assert not same(derived[1], book(tau2_6_6_28(0), VISCOUS_SCARA))
    assert not same(derived[1], book(printed("schilling", "Eq. (6-6-28)"),
                                     VISCOUS_SCARA).xreplace({add1: 0}))


@pytest.mark.parametrize("variant", LE)
def test_schilling_scara_D_C_h_6_6_22_to_6_6_30(variant):
    result = eom("scara", variant)
    assert same(result.D, D_6_6_22)
    qd = Matrix([qd1, qd2, qd3])
    expected_h = Matrix([(qd.T * C * qd)[0] for C in (C1_6_6_23, C2_6_6_26, C3_6_6_29)])
    assert same(result.h, expected_h)
    assert same(result.c, book(h_6_6, G0))
    if variant == "jacobian":
        for derived, printed_C in zip(result.terms["C_i"], (C1_6_6_23, C2_6_6_26, C3_6_6_29)):
            assert same(derived, printed_C)


def test_erratum_schilling_table_6_2_theta2_is_q2():
    """(6-6-10), EL 273: T_0^2 with C_{1-2}; the table's theta_2 = q_1 cannot give it."""
    C, S = cos(q1 - q2), sin(q1 - q2)
    T02 = Matrix([[C, S, 0, a1 * cos(q1) + a2 * C], [S, -C, 0, a1 * sin(q1) + a2 * S],
                  [0, 0, -1, letters.d1], [0, 0, 0, 1]])
    derived = transforms(arm("scara"), [q1, q2, q3])[2]
    assert same(derived, T02)
    assert not same(derived.subs(q2, q1), T02)      # Table 6-2 as printed: theta_2 = q_1
    # (6-6-10) as transcribed (the scan lost its last row) and Table 6-2's row 2
    assert same(derived[:3, :], printed("schilling", "Eq. (6-6-10)"))
    row = lookup("schilling", "Table 6-2, joint 2")
    assert row.as_printed() == q1 and row.corrected() == q2


def test_erratum_schilling_6_6_20_B3_first_column():
    _, B3 = link_jacobians(arm("scara"), [q1, q2, q3])[2]
    record = lookup("schilling", "Eq. (6-6-20), B^3")
    assert same(B3, record.corrected())
    assert same(B3, Matrix([[0, 0, 0], [0, 0, 0], [1, -1, 0]]))
    assert not same(B3, record.as_printed())                               # as printed
    assert not same(B3, Matrix([[0, 0, 0], [0, 0, 0], [0, -1, 0]]))


def test_erratum_schilling_6_6_27_mass_weighting():
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
# Lynch & Park, Sec. 8.1.1: the planar 2R arm with point masses (L1, L2, m1, m2)
# ================================================================================================
def tau_lynch_park(p1=False, p2=False, p3=False):
    """L81 as printed (dynlab.teaching.textbook), with the corrections P1-P3 applied when asked."""
    return book(torques_lynch_park_8_1_1(p1, p2, p3), THETA)


@pytest.mark.parametrize("variant", NE)
def test_lynch_park_two_link_torques_L81_corrected(variant):
    assert same(tau("lynch_park", variant), tau_lynch_park(p1=True, p2=True, p3=True))
    printed = lookup("lynch_park", "Sec. 8.1.1, the torques of the 2R example")
    assert same(tau("lynch_park", variant), printed.corrected())


@pytest.mark.parametrize("variant", NE)
def test_erratum_lynch_park_L81_each_correction_is_needed(variant):
    derived = tau("lynch_park", variant)
    assert not same(derived, tau_lynch_park())
    for wrong in ("p1", "p2", "p3"):
        others = {p: p != wrong for p in ("p1", "p2", "p3")}
        assert not same(derived, tau_lynch_park(**others)), wrong


def test_erratum_lynch_park_kinetic_energy_L69():
    K = eom("lynch_park", "christoffel").terms["K"]
    record = lookup("lynch_park", "Sec. 8.1.1, K_1 + K_2")
    K_printed, K_correct = record.as_printed(), record.corrections[0]
    # the printed K_2 multiplies only its first term by m2
    assert same(K_correct - K_printed, (m2 - 1) * (
        (L2**2 + L1 * L2 * cos(th2)) * thd1 * thd2 + L2**2 * thd2**2 / 2))
    assert same(K, book(K_correct, THETA))
    assert not same(K, book(K_printed, THETA))
    # P2's reasoning: Gamma_211 = m2 L1 L2 sin th2, Gamma_212 = Gamma_222 = 0 Sec. 8.1 (draft Eq.
    # (9.13))
    Gamma = eom("lynch_park", "christoffel").terms["Gamma"]
    assert same(Gamma[1][0, 0], m2 * L1 * L2 * sin(q2))
    assert same(Gamma[1][0, 1], 0) and same(Gamma[1][1, 1], 0)


# ================================================================================================
# the thesis appendix, App. B: the two-link arm with a payload (Macsyma)
# ================================================================================================
@pytest.mark.parametrize("variant", NE)
def test_thesis_inverse_dynamics_d47_d51(variant):
    derived = tau("macsyma", variant)
    assert same(derived[0], book(TT1, MACSYMA))
    assert same(derived[1], book(TT2, MACSYMA))


def test_thesis_payload_is_a_point_mass_at_the_tip():
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


# -- the errata's kind: the printed book, or only its scan -----------------------------------------
SCAN_READINGS = {
    "fu": ("Eq. (3.2-23)", "Eq. (3.2-24)", "Eq. (3.2-34)", "Eq. (3.4-7)", "Algorithm 3.1, step N2"),
    "schilling": ("Eq. (6-6-6), B^1", "Eq. (6-6-13), B^2", "Eq. (6-6-20), B^3"),
    "tourassis_neuman": ("Sec. 2.1, property 1", "Eq. (12)", "Eq. (16)", "Eqs. (21), (31)",
                         "Eq. (22), last term", "Eq. (32)", "Eq. (A-4)", "Eq. (A-10), last term",
                         "Table 2, centrifugal coefficients", "Sec. 5, the two configurations"),
}


def test_garbled_readings_are_scan_errata_and_real_mistakes_are_book_errata():
    by_place = {(e.source, e.place): e for e in ERRATA}
    for source, places in SCAN_READINGS.items():
        for place in places:
            assert by_place[source, place].kind == "scan", place
    for place in ("Sec. 3.2.6, pseudo-inertias J_1, J_2, entry (1,1)", "Sec. 3.2.6, D_12 = D_21"):
        assert by_place["fu", place].kind == "book"
    assert by_place["schilling", "Eq. (6-6-27)"].kind == "book"
    assert {e.kind for e in ERRATA} == set(KINDS)
    assert len(set(by_place)) == len(ERRATA)                       # places are unique keys


def test_errata_render_as_mathematics():
    for e in ERRATA:
        assert "**" not in e.printed + e.correct and e.printed != e.correct, e.place
        assert e.citation.startswith(tuple(AUTHORS.values()))
    page = errata_table("fu")._repr_html_()
    assert page.count("<tr>") == 1 + len(errata_table("fu"))
    assert r"$\tau_2 = \tfrac{1}{3} m_2 l^2 \ddot\theta_1" in page
    latex = errata_table("schilling")[0]._repr_latex_()
    assert latex.startswith(r"$\text{Schilling (1990), ") and latex.endswith("$")
    with pytest.raises(ValueError, match="unknown kind 'typo'"):
        errata_table(kind="typo")
    assert sum(len(errata_table(kind=k)) for k in KINDS) == len(ERRATA)
    page = errata_table("lynch_park", kind="corrected")._repr_html_()
    assert page.count("Corrected in the published edition: `modern_robotics.") == len(
        errata_table("lynch_park", kind="corrected"))


# -- the third kind: a draft's mistake the published edition corrects ------------------------------
#: the misprints of Lynch & Park's draft chapter that the authors' own material has right
CORRECTED_IN_PRINT = (
    "Sec. 8.1.1, K_2 of the 2R example (draft: below Eq. (9.7))",
    "Sec. 8.1.1, tau_1 of the 2R example, coefficient of thetadd_2 (draft: after Eq. (9.8))",
    "Sec. 8.1.1, tau_2 of the 2R example, velocity term (draft: after Eq. (9.8))",
    "Sec. 8.1.1, tau_2 of the 2R example, gravity term (draft: after Eq. (9.8))",
    "Sec. 8.3, the joint screw A_i (draft: text after Eq. (9.35))",
    "Sec. 8.3, the second form of the acceleration recursion (draft Eqs. (9.47), (9.58))",
    "Sec. 8.3, A_i in the algorithm's preliminaries (draft Eq. (9.51))",
    "Sec. 8.3, the algorithm's initialization (draft: before Eq. (9.53))",
    "Sec. 8.3, F_tip in the algorithm's preliminaries (draft: before Eq. (9.53))",
    "Sec. 8.4, the stacked accelerations (draft Eqs. (9.73), (9.78))",
    "Sec. 8.4, c(theta, thetadot) (draft Eq. (9.83))",
)


def test_the_drafts_misprints_are_corrected_in_print_with_the_evidence_named():
    corrected = errata_table(kind="corrected")
    assert [e.place for e in corrected] == list(CORRECTED_IN_PRINT)
    for e in corrected:
        assert e.source == "lynch_park" and "draft" in e.place, e.place
        assert e.place.startswith(("Sec. 8.1", "Sec. 8.3", "Sec. 8.4")), e.place
        assert e.evidence.startswith("`modern_robotics."), e.place
    with pytest.raises(ValueError, match="names its evidence"):
        Erratum("lynch_park", "Sec. 8.4", "a", "b", "c", "corrected")


def _modern_robotics_2r(L1_, L2_, m1_, m2_):
    """Lynch & Park's 2R arm with point masses in the authors' library: frames {1}, {2} at the
    masses, joints about z, the tool frame at mass 2."""
    def moved(x):
        T = np.eye(4)
        T[0, 3] = x
        return T
    Mlist = [moved(L1_), moved(L2_), np.eye(4)]
    Glist = [np.diag([0, 0, 0, m, m, m]) for m in (m1_, m2_)]
    Slist = np.array([[0, 0, 1, 0, 0, 0], [0, 0, 1, 0, -L1_, 0]], float).T
    return Mlist, Glist, Slist


def test_the_authors_library_computes_the_corrected_2r_example():
    """The evidence of the four corrections of Sec. 8.1.1: the library's MassMatrix is the Hessian
    of the corrected K (not of the printed one), and its InverseDynamics gives the corrected
    torques and none of the versions with one slip left in."""
    mr = pytest.importorskip("modern_robotics")
    values = {L1: 0.7, L2: 0.4, m1: 2.0, m2: 3.0, g: 9.81}
    Mlist, Glist, Slist = _modern_robotics_2r(values[L1], values[L2], values[m1], values[m2])
    rng = np.random.default_rng(811)
    thd = [thd1, thd2]
    K_record = lookup("lynch_park", "Sec. 8.1.1, K_1 + K_2")
    for _ in range(5):
        th, thd_, thdd_ = rng.uniform(-2, 2, (3, 2))
        state = {**values, letters.th1: th[0], th2: th[1], thd1: thd_[0], thd2: thd_[1],
                 thdd1: thdd_[0], thdd2: thdd_[1]}
        M = mr.MassMatrix(th, Mlist, Glist, Slist)
        def hessian(K):
            return np.array(sympy.hessian(K, thd).subs(state), float)
        assert np.allclose(M, hessian(K_record.corrections[0]))
        assert not np.allclose(M, hessian(K_record.as_printed()), atol=1e-3)
        tau = mr.InverseDynamics(th, thd_, thdd_, [0, -values[g], 0], np.zeros(6),
                                 Mlist, Glist, Slist)
        def number(expr):
            return np.array(sympy.Matrix(expr).subs(state), float).ravel()
        assert np.allclose(tau, number(torques_lynch_park_8_1_1(True, True, True)))
        for wrong in ("p1", "p2", "p3"):
            others = {p: p != wrong for p in ("p1", "p2", "p3")}
            assert not np.allclose(tau, number(torques_lynch_park_8_1_1(**others)),
                                   atol=1e-3), wrong
    # Vdot_0 = (0, -g): the library's gravity torques hold the arm up, +dP/dtheta
    assert np.allclose(mr.GravityForces([0.0, 0.0], [0, -9.81, 0], Mlist, Glist, Slist),
                       [(2.0 + 3.0) * 9.81 * 0.7 + 3.0 * 9.81 * 0.4, 3.0 * 9.81 * 0.4])
