"""Errata of the sources: where a printed equation differs from the derived one, and why.

Each record is an :class:`Erratum` ``(source, place, printed, correct, why)``: ``source`` is the
seed's number (``"000"`` Fu-Gonzalez-Lee Ch. 3, ``"001"`` the Macsyma thesis appendix, ``"002"``
Schilling Ch. 6, ``"003"`` Lynch-Park Ch. 9, ``"004"`` Tourassis-Neuman) or a reference file; ``place`` the equation, table
or line (``L389`` = line 389 of the seed text; 002's display equations lost their tags in the
scan, their numbers are read off the text's cross-references); ``printed`` and ``correct`` short
SymPy-style strings (``C2 = cos(q2)``, ``qdd1`` for the second derivative, 000's ``th`` for
theta, ``w`` and ``wd`` for omega and its derivative); ``why`` one line of reasoning.

:data:`ERRATA` holds the errata of the worked examples and recursion tables.  The equations
among them are re-derived in ``tests/test_source_equations.py``, which also shows that the
printed form does *not* match (so the erratum is real); the few textual ones (a wrong
cross-reference, a wrong symbol in an algorithm step) are argued in ``why``.  Scan/OCR losses
are kept only when a reader copying the text would get a wrong result, and are marked
"(possibly a scan error)"; pure garbling (``{}^tA_2`` for ``{}^1A_2``) is left out.
000 Sec. 3.4's errata come from the derivation of :mod:`dynlab.dalembert`.

>>> [e.place for e in errata_table("003")][:1]
['L81, tau_1, coefficient of thdd2']
>>> print(markdown_table("001"))
| source | place | printed | correct | why |
|---|---|---|---|---|
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Erratum:
    """One place where a source prints something that does not follow from its own data.

    >>> Erratum("002", "Eq. (6-6-25)", "... * qdd2**2", "... * qdd2", "linear in qdd").source
    '002'
    """

    source: str
    place: str
    printed: str
    correct: str
    why: str


_E = Erratum

#: The errata found in the seeds (and one data note on the PUMA 560 parameter set).
ERRATA = (
    # -- 000 (Fu, Gonzalez & Lee, Ch. 3) -------------------------------------------------------
    _E("000", "Eq. (3.2-34) (L237)",
       "c_i = sum_{j=i..n} (-m_j g U_ji^T r_j)",
       "c_i = sum_{j=i..n} (-m_j g U_ji jr_j)",
       "g is a 1x4 row and jr_j a 4x1 column: the potential -m_j g 0A_j jr_j (3.2-21) "
       "differentiates to -m_j g U_ji jr_j; with U_ji^T the two-link example's c(theta) is "
       "wrong (the ^T is possibly the scan's reading of the left superscript j of jr_j)"),
    _E("000", "Sec. 3.2.6, pseudo-inertias J_1, J_2, entry (1,1) (L389)",
       "J_i[1,1] = m_i*l**2/2",
       "J_i[1,1] = m_i*l**2/3",
       "int x^2 dm over a uniform rod x in [-l, 0] is m l^2/3; 1/2 contradicts the book's own "
       "I_i = diag(0, m l^2/12, m l^2/12) (L940, L1199) and its final D (L461)"),
    _E("000", "Sec. 3.2.6, D_11 (L397)",
       "D11 = m1*l**2/2 + m2*l**2/2 + m2*C2*l**2",
       "D11 = m1*l**2/3 + 4*m2*l**2/3 + m2*C2*l**2",
       "the trace sum (3.2-31) gives m1 l^2/3 + 4 m2 l^2/3 + ... with the right J and "
       "m1 l^2/2 + 3 m2 l^2/2 + ... with the printed one (L389): the printed value is neither; "
       "the final matrix (L461) has the right one"),
    _E("000", "Sec. 3.2.6, D_12 = D_21 (L405)",
       "m2*l**2*(-1/6 + 1/2 + C2/2) = m2*l**2/2 + m2*l**2*C2/2",
       "m2*l**2*(-1/6 + 1/2 + C2/2) = m2*l**2/3 + m2*l**2*C2/2",
       "arithmetic: -1/6 + 1/2 = 1/3; the bracket is right and the final matrix (L461) has 1/3"),
    _E("000", "Sec. 3.2.6, D_22 (L413)",
       "D22 = m2*l**2/2",
       "D22 = m2*l**2/3",
       "Tr(U22 J2 U22^T) = J2[1,1], so this follows the wrong J (L389); the final D (L461) and "
       "the G-D example (L1230: 1/12 + 1/4 = 1/3) have 1/3"),
    _E("000", "Sec. 3.3.7, tau_2 of the N-E example (L958)",
       "tau2 = m2*l**2*thdd1/2 + m2*l**2*thdd2/2 + m2*l**2*C2*thdd1/2 + m2*g*l*C12/2 "
       "+ m2*l**2*S2*thd1**2/2",
       "tau2 = m2*l**2*thdd1/3 + m2*l**2*thdd2/3 + m2*l**2*C2*thdd1/2 + m2*g*l*C12/2 "
       "+ m2*l**2*S2*thd1**2/2",
       "tau2 is the z-component of 2R0 n2, printed two lines above (L940) with 1/3 (rod about "
       "its end: m l^2/12 + m l^2/4); printed - correct = m2 l^2 (thdd1 + thdd2)/6"),
    _E("000", "Sec. 3.3.7, tau_1 of the N-E example (L962)",
       "tau1 = m1*l**2*thdd1/2 + m2*l**2*thdd1/2 + m2*l**2*thdd2/2 + ...",
       "tau1 = m1*l**2*thdd1/3 + 4*m2*l**2*thdd1/3 + m2*l**2*thdd2/3 + ... (velocity and "
       "gravity terms as printed)",
       "the recursion's own f1 and n2 (L928, L940) are right; the printed inertia coefficients "
       "are those of the wrong L-E intermediates, so 'agree with L-E' (L964) is false as printed"),
    _E("000", "Eqs. (3.3-50)-(3.3-55) (L743-L753)",
       "(3.3-50): iR0 wd_i = iR_{i-1}(i-1R0 wd_{i-1} + z0 qd_i); (3.3-51): "
       "iR_{i-1}[wd_i + z0 qdd_i + (i-1R0 wd_{i-1}) x z0 qd_i]; (3.3-52), (3.3-53), (3.3-55): "
       "wd x (wd x p), wd x (wd x s), wd x (I wd); (3.3-52), prismatic (L747): "
       "2 (iR0 wd_i) x (iR_{i-1} z0 qd_i)",
       "(3.3-50): iR0 w_i = iR_{i-1}(i-1R0 w_{i-1} + z0 qd_i); (3.3-51): iR0 wd_i = "
       "iR_{i-1}[i-1R0 wd_{i-1} + z0 qdd_i + (i-1R0 w_{i-1}) x z0 qd_i]; "
       "w x (w x p), w x (w x s), w x (I w); (3.3-52), prismatic: 2 (iR0 w_i) x (iR_{i-1} z0 qd_i)",
       "(3.3-50) is the angular velocity (it adds qd_i, not qdd_i); the centripetal, Coriolis "
       "and gyroscopic terms are products of w with velocities; Table 3.3 prints them right (possibly a scan "
       "error in the dots)"),
    _E("000", "Algorithm 3.1, step N2 (L791)",
       "compute iR0 w_i, iR0 wd_i, iR0 wdd_i and iR0 a_i",
       "compute iR0 w_i, iR0 wd_i, iR0 vd_i and iR0 a-bar_i",
       "the forward rows of Table 3.3 compute vd_i and a-bar_i; wdd_i is used nowhere "
       "(possibly a scan error)"),
    _E("000", "Table 3.3, n_i equation (L808)",
       "iR0 n_i = iR_{i+1}[i+1R0 n_{i+1} + (i+1R0 p*_{i+1}) x (i+1R0 f_{i+1})] "
       "+ (iR0 p*_i + iR0 s_i) x (iR0 f_i) + iR0 N_i",
       "iR0 n_i = iR_{i+1}[i+1R0 n_{i+1} + (i+1R0 p*_i) x (i+1R0 f_{i+1})] "
       "+ (iR0 p*_i + iR0 s_i) x (iR0 F_i) + iR0 N_i  (Eq. (3.3-57))",
       "n_i is taken at origin i-1: f_{i+1} acts at origin i, p*_i away, and the net force "
       "F_i = m_i a_i at the centre of mass; as printed tau_1 of the two-link arm is wrong "
       "(the dot over n_{i+1} is spurious too)"),
    _E("000", "Prob. 3.13 (L1343)",
       "the gravity vector g given in Eq. (3.3-22) is a row vector",
       "the gravity vector g given in Eq. (3.2-22) is a row vector",
       "(3.3-22) is an N-E acceleration equation; the L-E row vector g enters with the "
       "potential energy, Eqs. (3.2-21)-(3.2-22) (L174-L180)"),
    # -- 002 (Schilling, Ch. 6) ----------------------------------------------------------------
    _E("002", "Sec. 6-8, definitions of f^k and n^k (EL 367, 371)",
       "f^k (n^k): the force (moment) on link k at the origin of L_k due to link k-1",
       "f^k (n^k): the force (moment) on link k at the origin of L_{k-1} due to link k-1",
       "(6-8-9) takes Delta s^k + Delta r^k as lever arm to the centre of mass and "
       "tau_k = n^k . z^{k-1}: both hold at the origin of L_{k-1}, on joint k's axis "
       "(as 000 L655-L656 says)"),
    _E("002", "Table 6-2, joint 2",
       "theta = q_1",
       "theta = q_2",
       "T_0^2 (6-6-10) is built with C_{1-2} = cos(q1 - q2), and every later equation depends "
       "on q2; the error is in both the table's row text and its markdown copy"),
    _E("002", "Eq. (6-6-20), B^3",
       "B^3 = [[0, 0, 0], [0, 0, 0], [0, -1, 0]]",
       "B^3 = [[0, 0, 0], [0, 0, 0], [1, -1, 0]]",
       "column 1 is xi_1 z^0 = i^3 (6-2-10); harmless for D (D_3 has a zero zz-moment); "
       "(6-6-6) and (6-6-13) show the same entry garbled in the scan (possibly a scan error: "
       "the book's (B^1)^T D_1 B^1 (EL 266) and (B^2)^T D_2 B^2 (EL 281) use the 1)"),
    _E("002", "Eq. (6-6-25)",
       "tau1 = [...] qdd1 - [(m2/2 + m3)*a1*a2*C2 + (m2/3 + m3)*a2**2] * qdd2**2 + ...",
       "tau1 = [...] qdd1 - [(m2/2 + m3)*a1*a2*C2 + (m2/3 + m3)*a2**2] * qdd2 + ...",
       "tau = D(q) qdd + ... is linear in the accelerations (Prop. 6-4-1); the bracket is "
       "D_12 of (6-6-22); qdd2^2 has the wrong units"),
    _E("002", "Eq. (6-6-27)",
       "h2 = g0*m2*(A^2_32 + A^3_32) = 0",
       "h2 = g0*(m2*A^2_32 + m3*A^3_32) = 0",
       "(6-4-7) weights each link's Jacobian with its own mass; the value 0 is right here "
       "only because both entries vanish"),
    _E("002", "Eq. (6-6-28)",
       "tau2 = -[(m2/2 + m3)*a1*a2*C2 + (m2/3 + m3)*a2**2] * add1 + ...",
       "tau2 = -[(m2/2 + m3)*a1*a2*C2 + (m2/3 + m3)*a2**2] * qdd1 + ...",
       "a1 is a constant length (its second derivative is 0); the bracket is D_21 of (6-6-22) "
       "(possibly a scan error)"),
    _E("002", "Eq. (6-9-21), fifth line",
       "(m1*a1/2)*[C1*(g0 + a1*(C1*qdd1 - S1*qd1**2)) + S1*a1*(S1*qdd1 + C1*qd1**2)] i^3 + ...",
       "(m1*a1/2)*[C1*(g0 + a1*(C1*qdd1 - S1*qd1**2)/2) + S1*a1*(S1*qdd1 + C1*qd1**2)/2] i^3 "
       "+ ...",
       "f^1 of (6-9-20) carries a1/2; as printed the line gives m1 a1^2 qdd1/2, not the "
       "m1 a1^2 qdd1/4 of the next line, which (like (6-9-22)) is right (possibly a scan loss)"),
    # -- 003 (Lynch & Park, Ch. 9) -------------------------------------------------------------
    _E("003", "L81, tau_1, coefficient of thdd2",
       "m2*(L1*L2*cos(th1) + L2**2)",
       "m2*(L1*L2*cos(th2) + L2**2)",
       "M is symmetric (tau_2 prints M_21 with cos th2), and rotating the whole planar arm "
       "(th1) cannot change its inertia"),
    _E("003", "L81, tau_2, velocity term",
       "- m2*L1*L2*thd1*thd2*sin(th2)",
       "+ m2*L1*L2*thd1**2*sin(th2)",
       "Christoffel symbols (9.13): Gamma_211 = -(1/2) dm11/dth2 = m2 L1 L2 sin th2, "
       "Gamma_212 = Gamma_222 = 0: the centrifugal force on the elbow mass"),
    _E("003", "L81, tau_2, gravity term",
       "- m2*g*L2*cos(th1 + th2)",
       "+ m2*g*L2*cos(th1 + th2)",
       "= dP/dth2 with P of L73; tau_1 prints the same term with +, and at th = 0 both joints "
       "must hold the outstretched mass up"),
    _E("003", "L69, kinetic energy K_2",
       "K2 = (1/2)*(m2*(L1**2 + 2*L1*L2*cos(th2) + L2**2)*thd1**2 "
       "+ 2*(L2**2 + L1*L2*cos(th2))*thd1*thd2 + L2**2*thd2**2)",
       "K2 = (1/2)*m2*((L1**2 + 2*L1*L2*cos(th2) + L2**2)*thd1**2 "
       "+ 2*(L2**2 + L1*L2*cos(th2))*thd1*thd2 + L2**2*thd2**2)",
       "m2 multiplies all three terms (misplaced parenthesis; as printed two terms are not "
       "energies); the torques (L81) use the corrected K2"),
    # -- 000 Sec. 3.4, generalized d'Alembert (derived in dynlab.dalembert, tests/test_dalembert.py)
    _E('000', 'Eq. (3.4-8) (L1010)',
       'd/dt[dv_s/dthd_i] = dv_dot_s/dthd_i and dv_dot_s/dthd_i = dv_s/dth_i',
       'dv_s/dthd_i = dr_s/dth_i, so d/dt[dv_s/dthd_i] = dv_s/dth_i',
       'dv_dot_s/dthd_i = 2 dv_s/dth_i (v_dot is quadratic in thd); only the combined identity, which (3.4-9) uses, holds'),
    _E('000', 'text before Eq. (3.4-23) (L1090)',
       'tau_i is the summation of Eqs. (3.4-10), (3.4-18), and (3.4-22)',
       'tau_i = (3.4-10) + (3.4-18) - (3.4-22)',
       "(3.4-22) is Lagrange's operator applied to P (= -dP/dth_i) and L = K - P; (3.4-23) and (3.4-28) do carry the right sign, +dP/dth_i"),
    _E('000', 'Eq. (3.4-23), velocity terms of the links below s (L1092)',
       'sum_{p=1}^{s-1}[(sum_{q=1}^{p} thd_q z_{q-1}) x ((sum_{q=1}^{k} ...) x p*_k)] + sum_{q=2}^{k}[(sum_{q=1}^{p-1} ...) x thd_p z_{p-1}] x p*_k',
       'sum_{k=1}^{s-1}{w_k x (w_k x p*_k) + [sum_{p=2}^{k} (sum_{q=1}^{p-1} thd_q z_{q-1}) x thd_p z_{p-1}] x p*_k}, as in (3.4-26)',
       'summation indices garbled (k unbound); the differentiation of (3.4-4) gives w_k'),
    _E('000', 'Eq. (3.4-26) (L1122-L1125)',
       'z_{i-1} x (r_s - p_{i-1})',
       'z_{i-1} x (r-bar_s - p_{i-1})',
       'the projection is dv_s/dthd_i of (3.4-7), at the centre of mass; plain r_s is defined nowhere'),
    _E('000', 'Eq. (3.4-27) (L1131)',
       'sum_{s=i}^n {(sR0 z_{i-1})^T I_s beta_s} + [sR0 z_{i-1} x w_s]^T I_s w_s',
       'sum_{s=i}^n {(sR0 z_{i-1})^T I_s beta_s + [sR0 z_{i-1} x w_s]^T I_s w_s}',
       'the second term depends on s (I_s, sR0); (3.4-18) and (3.4-23) keep it inside'),
    # -- 004 (Tourassis & Neuman); argued and tested in tests/test_properties.py ----------------
    _E("004", "Eqs. (10), (13), (40), (B-3), (B-4)",
       "d/dt(dT/dqd_i) - dT/dq_i - dV/dq_i = F_i; G_i = -dV/dq_i; "
       "G_i = M_i {s_i g.z_{i-1} + s*_i g.(z_{i-1} x p_i)}",
       "d/dt(dT/dqd_i) - dT/dq_i + dV/dq_i = F_i; G_i = dV/dq_i; "
       "G_i = -M_i {s_i g.z_{i-1} + s*_i g.(z_{i-1} x p_i)}",
       "V of (8) is the potential energy and L = T - V; as printed a vertical slide would be held "
       "up by pushing it down (G_i = -M_i |g|); (B-3), (B-4) carry the same sign; zero and "
       "constant G_i (Sec. 6) are unaffected"),
    _E("004", "Eq. (12)",
       "c_jm(i) = (1/2){dd_ii/dq_m + dd_im/dq_j - dd_jm/dq_i}",
       "c_jm(i) = (1/2){dd_ij/dq_m + dd_im/dq_j - dd_jm/dq_i}",
       "the Christoffel symbol of the first kind; (37) uses dd_ij/dq_m (possibly a scan error: "
       "the scan of 004 garbles j into i elsewhere too, L99, L103)"),
    _E("004", "Eqs. (21), (31)",
       "J_ii = (m_i + ... + m_N) K_ij (L201); d_ij = (m_i + ... + m_N) K_ij (L286)",
       "J_ij = (m_j + ... + m_N) K_ij; d_ij = (m_j + ... + m_N) K_ij",
       "the sum (21) runs over links j..N and (22) prints (m_j + ... + m_N); only then does "
       "k_ij = LF x KF (33)-(35) hold (possibly a scan error: the scan of 004 swaps i and j "
       "elsewhere, e.g. the sum index of (18), (20))"),
    _E("004", "Sec. 3.5, after Eq. (34)",
       "the kinematic factor (0 <= KF <= 1)",
       "KF >= 0 and KF < 1/LF (from k_ij < 1)",
       "the articulated arm with masses 20, 10, 5 kg has KF_23 = 1.134 at q3 = 1; a heavy hub "
       "with a light outstretched rod has KF_12 = 10"),
    _E("004", "Eq. (B-2)",
       "x_i and y_i are the coordinates of the center-of-gravity of link i in its own frame",
       "x_i, y_i: the centre of gravity of links i..N in frame i-1",
       "g.(z_{i-1} x p_i) evaluated in frame i-1 needs the p_i of (40): the centre of mass of "
       "links i..N from origin i-1, in frame i-1's axes"),
    _E("004", "Table 3, articulated row",
       "c_ij(m) = 2, total 16, sparsity 0.941",
       "c_ij(m) = 1, total 15, sparsity 0.882",
       "c12(3) = -c13(2) vanishes identically when z1 || z2, for every mass distribution (the "
       "Coriolis force from qd1 qd2 lies along the elbow axis); Sec. 6's empirical sparsity "
       "formula (0.940 for N_R = 3) then no longer fits the articulated row"),
    _E("004", "Table 3, Stanford row, d_ii",
       "6(1)",
       "6(2)",
       "d33 = m3 + ... + m6 is constant by Eq. (25) (joint 3 prismatic), and d66, the hand's "
       "inertia about its own axis, is constant for any arm"),
    _E("004", "Table 3, PUMA row, d_ij and c_ii(m)",
       "d_ij 14, c_ii(m) 30",
       "d_ij 14 with c_ii(m) 25 and c_ij(m) 39 (total 88); or d_ij 15, c_ii(m) 30, c_ij(m) 39, "
       "G_i 5 (total 95)",
       "(36): c_jj(i) = dd_ij/dq_j for i < j, so each zero d_ij forces a zero centrifugal "
       "coefficient; 14 of 15 d_ij and 30 of 30 c_jj(i) cannot both hold"),
    # -- reference data --------------------------------------------------------------------------
    _E("reference/puma560.md", "links 1 and 3, inertia about the centre of mass",
       "link 1: Ixx = Izz = 0, Iyy = 0.35; link 3: Ixx = 0.066, Iyy = 0.086, Izz = 0.0125",
       "kept as published, marked lumped_inertia=True in dynlab.robots.puma560",
       "a rigid body's principal moments obey the triangle inequality (Iyy <= Ixx + Izz); "
       "0.35 > 0 and 0.086 > 0.0785 can only be lumped (rotor or measured) figures"),
)


#: Every source an erratum may name (001 has none recorded so far).
SOURCES = ("000", "001", "002", "003", "004", "reference/puma560.md")


def _order(erratum: Erratum) -> tuple:
    """Source by source; within one, the order of the book (problems after the text)."""
    return (SOURCES.index(erratum.source), erratum.place.startswith("Prob."))


def errata_table(source: str | None = None) -> tuple:
    """All errata, source by source;
    ``source`` (``"000"``, ``"002"``, ...) keeps one source's.

    >>> len(errata_table("002")) >= 7, errata_table("001")
    (True, ())
    >>> errata_table("005")
    Traceback (most recent call last):
    ...
    ValueError: unknown source '005'; the sources are 000, 001, 002, 003, 004, reference/puma560.md
    """
    if source is not None and source not in SOURCES:
        raise ValueError(f"unknown source {source!r}; the sources are {', '.join(SOURCES)}")
    records = tuple(sorted(ERRATA, key=_order))     # sorted() is stable
    return records if source is None else tuple(e for e in records if e.source == source)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(source: str | None = None) -> str:
    """The errata as a Markdown table (for the README), optionally of one source.

    >>> print(markdown_table("003").splitlines()[2])  # doctest: +ELLIPSIS
    | 003 | L81, tau_1, coefficient of thdd2 | `m2*(L1*L2*cos(th1) + L2**2)` | ...
    """
    lines = ["| source | place | printed | correct | why |", "|---|---|---|---|---|"]
    for e in errata_table(source):
        lines.append(f"| {_cell(e.source)} | {_cell(e.place)} | `{_cell(e.printed)}` | "
                     f"`{_cell(e.correct)}` | {_cell(e.why)} |")
    return "\n".join(lines)
