"""Errata of the sources: each :class:`Erratum` holds ``source`` (a bibliography key), ``place``
(as printed; Lynch & Park's draft numbers marked "draft"), ``printed`` and ``correct`` (LaTeX),
``why``, and ``kind`` (:data:`KINDS`: ``"book"``, ``"scan"``, or ``"corrected"`` in the
published edition, with ``evidence``).  ``tests/teaching/test_source_equations.py`` re-derives the
equations among them.

>>> errata_table("lynch_park")[0].kind, errata_table("thesis")
('corrected', ())
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from dynlab.model.display import table_markdown
from dynlab.teaching.bibliography import AUTHORS, BIBLIOGRAPHY, check_source, cite

#: what an erratum's ``kind`` says: the printed text is wrong; the scan garbles it; a draft
#: prints it wrong and the published edition corrects it (with ``evidence``)
KINDS = ("book", "scan", "corrected")


@dataclass(frozen=True)
class Erratum:
    """One place where a source (or its scan) prints something that does not follow from its
    own data.

    >>> e = Erratum("schilling", "Eq. (6-6-25)", r"\\ddot q_2^2", r"\\ddot q_2", "linear", "scan")
    >>> e.citation, e.kind
    ('Schilling (1990), Eq. (6-6-25)', 'scan')
    >>> Erratum("schilling", "x", "a", "b", "c", "typo")
    Traceback (most recent call last):
    ...
    ValueError: x: kind must be 'book' (the printed text is wrong), 'scan' (the scan garbles \
it) or 'corrected' (a draft's mistake the published edition corrects), got 'typo'
    >>> Erratum("lynch_park", "y", "a", "b", "c", "corrected")
    Traceback (most recent call last):
    ...
    ValueError: y: a 'corrected' erratum names its evidence (what shows the published edition \
has it right)
    """

    source: str
    place: str
    printed: str
    correct: str
    why: str
    kind: str
    scan: str = ""
    evidence: str = ""

    def __post_init__(self):
        check_source(self.source)
        if self.kind not in KINDS:
            raise ValueError(f"{self.place}: kind must be 'book' (the printed text is wrong), "
                             f"'scan' (the scan garbles it) or 'corrected' (a draft's mistake "
                             f"the published edition corrects), got {self.kind!r}")
        if self.kind == "corrected" and not self.evidence.strip():
            raise ValueError(f"{self.place}: a 'corrected' erratum names its evidence (what "
                             f"shows the published edition has it right)")

    @property
    def reasons(self) -> str:
        """``why``, and for a ``"corrected"`` erratum the evidence of the correction."""
        if self.evidence:
            return f"{self.why}. Corrected in the published edition: {self.evidence}"
        return self.why

    @property
    def citation(self) -> str:
        """Author(s), year and place, as a reader finds it in print."""
        return cite(self.source, self.place)

    def _repr_latex_(self) -> str:
        return (rf"$\text{{{_tex_text(self.citation)} ({self.kind}): printed }}{self.printed}"
                rf"\text{{; correct }}{self.correct}$")

    def _repr_html_(self) -> str:
        return Errata((self,))._repr_html_()


def _tex_text(text: str) -> str:
    return text.replace("&", r"\&").replace("_", r"\_").replace("'", "")


_E = Erratum

#: The errata found in the sources (and one data note on the PUMA 560 parameter set).
ERRATA = (
    # -- Fu, Gonzalez & Lee (1987), Ch. 3 ------------------------------------------------------
    _E("fu", "Eq. (3.2-23)",
       r"L = \ldots + \sum_{i=1}^n m_i\,\mathbf{g}\,{}^0\mathbf{A}_i^T\,\bar{\mathbf{r}}_i",
       r"L = \ldots + \sum_{i=1}^n m_i\,\mathbf{g}\,{}^0\mathbf{A}_i\,{}^i\bar{\mathbf{r}}_i",
       "the same transpose as (3.2-34): the potential energy (3.2-21) is -m_i g 0A_i ir_i, a "
       "1x4 row times a 4x4 matrix times a 4x1 column; the ^T is the scan's reading of the "
       "left superscript i of ir_i", "scan",
       r"m_i \mathbf{g}^0 \mathbf{A}_i^T \bar{\mathbf{r}}_i"),
    _E("fu", "Eq. (3.2-24)",
       r"\tau_i = \ldots - \sum_{j=i}^n m_j\,\mathbf{g}\,\mathbf{U}_{ji}^T\,\bar{\mathbf{r}}_j",
       r"\tau_i = \ldots - \sum_{j=i}^n m_j\,\mathbf{g}\,\mathbf{U}_{ji}\,{}^j\bar{\mathbf{r}}_j",
       "the gravity term of (3.2-24) is (3.2-34): the derivative of (3.2-21) by q_i is "
       "-m_j g U_ji jr_j, with no transpose", "scan",
       r"m_j \mathbf{g} \mathbf{U}_{ji}^T \bar{\mathbf{r}}_j"),
    _E("fu", "Eq. (3.2-34)",
       r"c_i = \sum_{j=i}^n \left(-m_j\,\mathbf{g}\,\mathbf{U}_{ji}^T\,\mathbf{r}_j\right)",
       r"c_i = \sum_{j=i}^n \left(-m_j\,\mathbf{g}\,\mathbf{U}_{ji}\,{}^j\mathbf{r}_j\right)",
       "g is a 1x4 row and jr_j a 4x1 column: the potential -m_j g 0A_j jr_j (3.2-21) "
       "differentiates to -m_j g U_ji jr_j, and the worked example of Sec. 3.2.6 multiplies "
       "by U_ji so; with U_ji^T its c(theta) is wrong. The ^T is the scan's reading of the "
       "left superscript j of jr_j", "scan",
       r"c_i = \sum_{j=i}^n (-m_j \mathbf{g} \mathbf{U}_{ji}^T \mathbf{r}_j)"),
    _E("fu", "Sec. 3.2.6, pseudo-inertias J_1, J_2, entry (1,1)",
       r"(\mathbf{J}_i)_{11} = \tfrac{1}{2} m_i l^2",
       r"(\mathbf{J}_i)_{11} = \tfrac{1}{3} m_i l^2",
       "int x^2 dm over a uniform rod x in [-l, 0] is m l^2/3; 1/2 contradicts the book's own "
       "I_i = diag(0, m l^2/12, m l^2/12) (Secs. 3.3.7 and 3.4.2) and its final D(theta) of "
       "Sec. 3.2.6; D_22 below follows the slip, and D_11 and D_12 have slips of their own",
       "book"),
    _E("fu", "Sec. 3.2.6, D_11",
       r"D_{11} = \tfrac{1}{2} m_1 l^2 + \tfrac{1}{2} m_2 l^2 + m_2 C_2 l^2",
       r"D_{11} = \tfrac{1}{3} m_1 l^2 + \tfrac{4}{3} m_2 l^2 + m_2 C_2 l^2",
       "the trace sum (3.2-31) gives m1 l^2/3 + 4 m2 l^2/3 + ... with the right J and "
       "m1 l^2/2 + 3 m2 l^2/2 + ... with the printed one: the printed value is neither; "
       "the final D(theta) of the example has the right one", "book"),
    _E("fu", "Sec. 3.2.6, D_12 = D_21",
       r"m_2 l^2\left(-\tfrac{1}{6} + \tfrac{1}{2} + \tfrac{1}{2} C_2\right) "
       r"= \tfrac{1}{2} m_2 l^2 + \tfrac{1}{2} m_2 l^2 C_2",
       r"m_2 l^2\left(-\tfrac{1}{6} + \tfrac{1}{2} + \tfrac{1}{2} C_2\right) "
       r"= \tfrac{1}{3} m_2 l^2 + \tfrac{1}{2} m_2 l^2 C_2",
       "arithmetic: -1/6 + 1/2 = 1/3; the bracket is right and the final D(theta) has 1/3",
       "book"),
    _E("fu", "Sec. 3.2.6, D_22",
       r"D_{22} = \tfrac{1}{2} m_2 l^2", r"D_{22} = \tfrac{1}{3} m_2 l^2",
       "Tr(U22 J2 U22^T) = J2[1,1], so this follows the wrong J; the final D(theta) and the "
       "G-D example of Sec. 3.4.2 (1/12 + 1/4 = 1/3) have 1/3", "book"),
    _E("fu", "Sec. 3.3.7, tau_2 of the N-E example",
       r"\tau_2 = \tfrac{1}{2} m_2 l^2 \ddot\theta_1 + \tfrac{1}{2} m_2 l^2 \ddot\theta_2 "
       r"+ \tfrac{1}{2} m_2 l^2 C_2 \ddot\theta_1 + \tfrac{1}{2} m_2 g l C_{12} "
       r"+ \tfrac{1}{2} m_2 l^2 S_2 \dot\theta_1^2",
       r"\tau_2 = \tfrac{1}{3} m_2 l^2 \ddot\theta_1 + \tfrac{1}{3} m_2 l^2 \ddot\theta_2 "
       r"+ \tfrac{1}{2} m_2 l^2 C_2 \ddot\theta_1 + \tfrac{1}{2} m_2 g l C_{12} "
       r"+ \tfrac{1}{2} m_2 l^2 S_2 \dot\theta_1^2",
       "tau_2 is the z-component of 2R0 n_2, printed just before it with 1/3 (rod about its "
       "end: m l^2/12 + m l^2/4); printed - correct = m2 l^2 (thetadd_1 + thetadd_2)/6", "book"),
    _E("fu", "Sec. 3.3.7, tau_1 of the N-E example",
       r"\tau_1 = \tfrac{1}{2} m_1 l^2 \ddot\theta_1 + \tfrac{1}{2} m_2 l^2 \ddot\theta_1 "
       r"+ \tfrac{1}{2} m_2 l^2 \ddot\theta_2 + \ldots",
       r"\tau_1 = \tfrac{1}{3} m_1 l^2 \ddot\theta_1 + \tfrac{4}{3} m_2 l^2 \ddot\theta_1 "
       r"+ \tfrac{1}{3} m_2 l^2 \ddot\theta_2 + \ldots",
       "the recursion's own 1R0 f_1 and 2R0 n_2 are right; the printed inertia coefficients "
       "are those of the wrong L-E intermediates, so the closing sentence 'agree with ... "
       "Lagrange-Euler' is false as printed (velocity and gravity terms are right)", "book"),
    _E("fu", "Eqs. (3.3-50)-(3.3-55)",
       r"\text{(3.3-50): } {}^i\mathbf{R}_0\dot\omega_i = {}^i\mathbf{R}_{i-1}({}^{i-1}"
       r"\mathbf{R}_0\dot\omega_{i-1} + \mathbf{z}_0\dot q_i);\ \text{(3.3-51): } "
       r"{}^i\mathbf{R}_{i-1}[\dot\omega_i + \ldots + ({}^{i-1}\mathbf{R}_0\dot\omega_{i-1})"
       r"\times\mathbf{z}_0\dot q_i];\ \dot\omega\times(\dot\omega\times\mathbf{p}^*),\ "
       r"\dot\omega\times(\mathbf{I}\dot\omega)",
       r"\text{(3.3-50): } {}^i\mathbf{R}_0\omega_i = {}^i\mathbf{R}_{i-1}({}^{i-1}"
       r"\mathbf{R}_0\omega_{i-1} + \mathbf{z}_0\dot q_i);\ \text{(3.3-51): } "
       r"{}^i\mathbf{R}_{i-1}[{}^{i-1}\mathbf{R}_0\dot\omega_{i-1} + \ldots + ({}^{i-1}"
       r"\mathbf{R}_0\omega_{i-1})\times\mathbf{z}_0\dot q_i];\ \omega\times(\omega\times"
       r"\mathbf{p}^*),\ \omega\times(\mathbf{I}\omega)",
       "(3.3-50) is the angular velocity (it adds qdot_i, not qddot_i), and the centripetal, "
       "Coriolis and gyroscopic terms of (3.3-51)-(3.3-55) are products of omega with "
       "velocities; Table 3.3 of the same book prints them right: dots the scan added", "scan",
       r"{}^i\mathbf{R}_0\dot{\omega}_i = {}^i\mathbf{R}_{i-1}({}^{i-1}\mathbf{R}_0"
       r"\dot{\omega}_{i-1} + \mathbf{z}_0\dot{q}_i)"),
    _E("fu", "Algorithm 3.1, step N2",
       r"\text{compute } {}^i\mathbf{R}_0\omega_i,\ {}^i\mathbf{R}_0\dot\omega_i,\ "
       r"{}^i\mathbf{R}_0\ddot\omega_i,\ {}^i\mathbf{R}_0\mathbf{a}_i",
       r"\text{compute } {}^i\mathbf{R}_0\omega_i,\ {}^i\mathbf{R}_0\dot\omega_i,\ "
       r"{}^i\mathbf{R}_0\dot{\mathbf{v}}_i,\ {}^i\mathbf{R}_0\bar{\mathbf{a}}_i",
       "the forward rows of Table 3.3 compute vdot_i and a-bar_i; omega-double-dot is used "
       "nowhere: a dot and a bar garbled by the scan", "scan",
       r"{}^i\mathbf{R}_0 \ddot{\omega}_i , and  {}^i\mathbf{R}_0 \mathbf{a}_i"),
    _E("fu", "Table 3.3, n_i equation",
       r"{}^i\mathbf{R}_0\mathbf{n}_i = {}^i\mathbf{R}_{i+1}[{}^{i+1}\mathbf{R}_0\mathbf{n}_{i+1}"
       r" + ({}^{i+1}\mathbf{R}_0\mathbf{p}^*_{i+1})\times({}^{i+1}\mathbf{R}_0\mathbf{f}_{i+1})]"
       r" + ({}^i\mathbf{R}_0\mathbf{p}^*_i + {}^i\mathbf{R}_0\bar{\mathbf{s}}_i)\times"
       r"({}^i\mathbf{R}_0\mathbf{f}_i) + {}^i\mathbf{R}_0\mathbf{N}_i",
       r"{}^i\mathbf{R}_0\mathbf{n}_i = {}^i\mathbf{R}_{i+1}[{}^{i+1}\mathbf{R}_0\mathbf{n}_{i+1}"
       r" + ({}^{i+1}\mathbf{R}_0\mathbf{p}^*_i)\times({}^{i+1}\mathbf{R}_0\mathbf{f}_{i+1})]"
       r" + ({}^i\mathbf{R}_0\mathbf{p}^*_i + {}^i\mathbf{R}_0\bar{\mathbf{s}}_i)\times"
       r"({}^i\mathbf{R}_0\mathbf{F}_i) + {}^i\mathbf{R}_0\mathbf{N}_i",
       "n_i is taken at origin i-1: f_{i+1} acts at origin i, p*_i away, and the net force "
       "F_i = m_i a_i at the centre of mass; Eq. (3.3-57) of the same book prints it right, so "
       "the index, the case of F and a spurious dot over n_{i+1} are the scan's (as scanned, "
       "tau_1 of the two-link arm comes out wrong)", "scan",
       r"({}^{i+1}\mathbf{R}_0\mathbf{p}_{i+1}^*) \times ({}^{i+1}\mathbf{R}_0\mathbf{f}_{i+1})"),
    _E("fu", "Table 3.5, multiplications of L-E and G-D",
       r"\tfrac{128}{3}n^4 + \tfrac{112}{3}n^3 + \ldots;\quad "
       r"\tfrac{13}{6}n^3 + \tfrac{105}{12}n^2 + \ldots",
       r"\tfrac{128}{3}n^4 + \tfrac{512}{3}n^3 + \ldots;\quad "
       r"\tfrac{13}{6}n^3 + \tfrac{105}{2}n^2 + \ldots",
       "a count of operations is a whole number at every n, and as scanned the two laws give "
       "382 2/3 and 169 1/4 multiplications for one joint; 512/3 is Table 3.1's own n^3 term "
       "(the additions of the two tables share their n^4 and n^3 terms too) and 105/2 makes "
       "every G-D count whole: a digit lost and a digit added by the scan", "scan",
       r"128/3 n^4 + 112/3 n^3 + 739/3 n^2 + 169/3 n; 13/6 n^3 + 105/12 n^2 + 268/3 n + 69"),
    _E("fu", "Prob. 3.13",
       r"\text{the gravity vector } \mathbf{g} \text{ given in Eq. (3.3-22) is a row vector}",
       r"\text{the gravity vector } \mathbf{g} \text{ given in Eq. (3.2-22) is a row vector}",
       "(3.3-22) is an N-E acceleration equation; the L-E row vector g enters with the "
       "potential energy, Eqs. (3.2-21)-(3.2-22)", "book"),
    # -- Sec. 3.4, generalized d'Alembert (derived in dynlab.formulations.dalembert, tested in
    #    tests/formulations/test_dalembert.py)
    _E("fu", "Eq. (3.4-7)",
       r"\frac{\partial\mathbf{v}_s}{\partial\dot\theta_i} = \mathbf{z}_{i-1}\times"
       r"(\mathbf{p}^*_i + \cdots + \mathbf{p}^*_{s-1} + \dot{\mathbf{c}}_s)",
       r"\frac{\partial\mathbf{v}_s}{\partial\dot\theta_i} = \mathbf{z}_{i-1}\times"
       r"(\mathbf{p}^*_i + \cdots + \mathbf{p}^*_{s-1} + \bar{\mathbf{c}}_s)",
       "c-bar_s is the centre of mass of link s from origin s-1 (the second line of (3.4-7), "
       "z_{i-1} x (r-bar_s - p_{i-1}), says so); a velocity has no place in a lever arm: the "
       "bar read as a dot", "scan",
       r"\mathbf{p}_{s-1}^* + \dot{\mathbf{c}}_s"),
    _E("fu", "Eq. (3.4-8)",
       r"\frac{d}{dt}\left[\frac{\partial\mathbf{v}_s}{\partial\dot\theta_i}\right] = "
       r"\frac{\partial\dot{\mathbf{v}}_s}{\partial\dot\theta_i} \text{ and } "
       r"\frac{\partial\dot{\mathbf{v}}_s}{\partial\dot\theta_i} = "
       r"\frac{\partial\mathbf{v}_s}{\partial\theta_i}",
       r"\frac{\partial\mathbf{v}_s}{\partial\dot\theta_i} = \frac{\partial\bar{\mathbf{r}}_s}"
       r"{\partial\theta_i}, \text{ so } \frac{d}{dt}\left[\frac{\partial\mathbf{v}_s}"
       r"{\partial\dot\theta_i}\right] = \frac{\partial\mathbf{v}_s}{\partial\theta_i}",
       "dv_dot_s/dthetadot_i = 2 dv_s/dtheta_i (v_dot is quadratic in thetadot); only the "
       "combined identity, which (3.4-9) uses, holds", "book"),
    _E("fu", "text before Eq. (3.4-23)",
       r"\tau_i \text{ is the summation of Eqs. (3.4-10), (3.4-18), and (3.4-22)}",
       r"\tau_i = \text{(3.4-10)} + \text{(3.4-18)} - \text{(3.4-22)}",
       "(3.4-22) is Lagrange's operator applied to P (= -dP/dtheta_i) and L = K - P; (3.4-23) "
       "and (3.4-28) do carry the right sign, +dP/dtheta_i", "book"),
    _E("fu", "Eq. (3.4-23), velocity terms of the links below s",
       r"\sum_{p=1}^{s-1}\Big[\Big(\sum_{q=1}^{p}\dot\theta_q\mathbf{z}_{q-1}\Big)\times"
       r"\Big(\Big(\sum_{q=1}^{k}\ldots\Big)\times\mathbf{p}^*_k\Big)\Big] + \sum_{q=2}^{k}"
       r"\Big[\Big(\sum_{q=1}^{p-1}\ldots\Big)\times\dot\theta_p\mathbf{z}_{p-1}\Big]\times"
       r"\mathbf{p}^*_k",
       r"\sum_{k=1}^{s-1}\Big\{\omega_k\times(\omega_k\times\mathbf{p}^*_k) + \Big[\sum_{p=2}^{k}"
       r"\Big(\sum_{q=1}^{p-1}\dot\theta_q\mathbf{z}_{q-1}\Big)\times\dot\theta_p\mathbf{z}_{p-1}"
       r"\Big]\times\mathbf{p}^*_k\Big\}",
       "summation indices garbled (k unbound); the differentiation of (3.4-4) gives omega_k, as "
       "in (3.4-26)", "scan"),
    _E("fu", "Eq. (3.4-26)",
       r"\mathbf{z}_{i-1}\times(\mathbf{r}_s - \mathbf{p}_{i-1})",
       r"\mathbf{z}_{i-1}\times(\bar{\mathbf{r}}_s - \mathbf{p}_{i-1})",
       "the projection is dv_s/dthetadot_i of (3.4-7), at the centre of mass; plain r_s is "
       "defined nowhere: a lost bar", "scan"),
    _E("fu", "Eq. (3.4-27)",
       r"\sum_{s=i}^n\left\{({}^s\mathbf{R}_0\mathbf{z}_{i-1})^T\mathbf{I}_s\beta_s\right\} + "
       r"[{}^s\mathbf{R}_0\mathbf{z}_{i-1}\times\omega_s]^T\mathbf{I}_s\omega_s",
       r"\sum_{s=i}^n\left\{({}^s\mathbf{R}_0\mathbf{z}_{i-1})^T\mathbf{I}_s\beta_s + "
       r"[{}^s\mathbf{R}_0\mathbf{z}_{i-1}\times\omega_s]^T\mathbf{I}_s\omega_s\right\}",
       "the second term depends on s (I_s, sR0); (3.4-18) and (3.4-23) keep it inside the sum: "
       "a brace the scan moved", "scan"),
    # -- Schilling (1990), Ch. 6 ---------------------------------------------------------------
    _E("schilling", "Sec. 6-8, definitions of f^k and n^k",
       r"f^k\ (n^k)\text{: force (moment) on link } k \text{ at the origin of } L_k "
       r"\text{ due to link } k-1",
       r"f^k\ (n^k)\text{: force (moment) on link } k \text{ at the origin of } L_{k-1} "
       r"\text{ due to link } k-1",
       "(6-8-9) takes Delta s^k + Delta r^k as lever arm to the centre of mass and "
       "tau_k = n^k . z^{k-1}: both hold at the origin of L_{k-1}, on joint k's axis (as Fu, "
       "Gonzalez & Lee define f_i in Sec. 3.3); an index the scan may have dropped", "scan",
       "the force on link k at the origin of L k L k L_(k)L_{k} due to link k 1"),
    _E("schilling", "Table 6-2, joint 2",
       r"\theta_2 = q_1", r"\theta_2 = q_2",
       "T_0^2 (6-6-10) is built with C_{1-2} = cos(q_1 - q_2), and every later equation "
       "depends on q_2: a subscript misread by the scan (both of its copies of the table show "
       "q_1)", "scan"),
    _E("schilling", "Eq. (6-6-6), B^1",
       r"B^1 = \begin{bmatrix}\cdots & 0 & 0\\ 0 & 0 & 0\\ 0 & 0 & 0\end{bmatrix}",
       r"B^1 = \begin{bmatrix}0 & 0 & 0\\ 0 & 0 & 0\\ 1 & 0 & 0\end{bmatrix}",
       "column 1 is xi_1 z^0 = i^3 (6-2-10); the book's (B^1)^T D_1 B^1 in (6-6-7) uses the 1",
       "scan", "[cdots,0,0],[0,0,0],[0,0,0]"),
    _E("schilling", "Eq. (6-6-13), B^2",
       r"B^2 = \begin{bmatrix}\cdots & 0 & 0\\ 0 & 0 & 0\\ 0 & -1 & 0\end{bmatrix}",
       r"B^2 = \begin{bmatrix}0 & 0 & 0\\ 0 & 0 & 0\\ 1 & -1 & 0\end{bmatrix}",
       "column 1 is xi_1 z^0 = i^3, column 2 xi_2 z^1 = -i^3 (6-2-10); the book's "
       "(B^2)^T D_2 B^2 in (6-6-14) uses the 1", "scan", "[cdots,0,0],[0,0,0],[0,-1,0]"),
    _E("schilling", "Eq. (6-6-20), B^3",
       r"B^3 = \begin{bmatrix}0 & 0 & 0\\ 0 & 0 & 0\\ 0 & -1 & 0\end{bmatrix}",
       r"B^3 = \begin{bmatrix}0 & 0 & 0\\ 0 & 0 & 0\\ 1 & -1 & 0\end{bmatrix}",
       "column 1 is xi_1 z^0 = i^3 (6-2-10), lost as in (6-6-6) and (6-6-13); harmless for D "
       "(D_3 has a zero zz-moment)", "scan", "[0,0,0],[0,0,0],[0,-1,0]"),
    _E("schilling", "Eq. (6-6-25)",
       r"\tau_1 = [\ldots]\ddot q_1 - [(\tfrac{m_2}{2} + m_3) a_1 a_2 C_2 + (\tfrac{m_2}{3} + m_3)"
       r" a_2^2]\,\ddot q_2^2 + \ldots",
       r"\tau_1 = [\ldots]\ddot q_1 - [(\tfrac{m_2}{2} + m_3) a_1 a_2 C_2 + (\tfrac{m_2}{3} + m_3)"
       r" a_2^2]\,\ddot q_2 + \ldots",
       "tau = D(q) qddot + ... is linear in the accelerations (Prop. 6-4-1); the bracket is "
       "D_12 of (6-6-22); qddot_2^2 has the wrong units: a spurious superscript", "scan"),
    _E("schilling", "Eq. (6-6-27)",
       r"h_2 = g_0 m_2 (A^2_{32} + A^3_{32}) = 0",
       r"h_2 = g_0 (m_2 A^2_{32} + m_3 A^3_{32}) = 0",
       "(6-4-7) weights each link's Jacobian with its own mass; the value 0 is right here "
       "only because both entries vanish", "book"),
    _E("schilling", "Eq. (6-6-28)",
       r"\tau_2 = -[(\tfrac{m_2}{2} + m_3) a_1 a_2 C_2 + (\tfrac{m_2}{3} + m_3) a_2^2]\,"
       r"\ddot a_1 + \ldots",
       r"\tau_2 = -[(\tfrac{m_2}{2} + m_3) a_1 a_2 C_2 + (\tfrac{m_2}{3} + m_3) a_2^2]\,"
       r"\ddot q_1 + \ldots",
       "a_1 is a constant length (its second derivative is 0); the bracket is D_21 of "
       "(6-6-22): q read as a", "scan"),
    _E("schilling", "Eq. (6-9-21), fifth line",
       r"\tfrac{m_1 a_1}{2}\big[C_1(g_0 + a_1(C_1\ddot q_1 - S_1\dot q_1^2)) + S_1 a_1"
       r"(S_1\ddot q_1 + C_1\dot q_1^2)\big]\,i^3 + \ldots",
       r"\tfrac{m_1 a_1}{2}\big[C_1(g_0 + \tfrac{a_1}{2}(C_1\ddot q_1 - S_1\dot q_1^2)) + "
       r"\tfrac{S_1 a_1}{2}(S_1\ddot q_1 + C_1\dot q_1^2)\big]\,i^3 + \ldots",
       "f^1 of (6-9-20) carries a_1/2; as scanned the line gives m_1 a_1^2 qddot_1/2, not the "
       "m_1 a_1^2 qddot_1/4 of the next line, which (like (6-9-22)) is right: two fractions "
       "lost", "scan"),
    # -- Lynch & Park (2017), Ch. 8 "Dynamics of Open Chains" ----------------------------------
    # Found in a preliminary draft (its Ch. 9); the authors' own code library, the Python package
    # modern_robotics (module core), computes the corrected form, so the published edition most
    # likely prints it right: kind "corrected", with that evidence.  Each is re-derived in
    # tests/teaching/test_source_equations.py and tests/formulations/test_spatial.py, and the
    # library is run there on the evidence named.
    _E("lynch_park", "Sec. 8.1.1, K_2 of the 2R example (draft: below Eq. (9.7))",
       r"\mathcal{K}_2 = \tfrac{1}{2}\big(m_2(L_1^2 + 2L_1L_2\cos\theta_2 + L_2^2)\dot\theta_1^2"
       r" + 2(L_2^2 + L_1L_2\cos\theta_2)\dot\theta_1\dot\theta_2 + L_2^2\dot\theta_2^2\big)",
       r"\mathcal{K}_2 = \tfrac{1}{2}m_2\big((L_1^2 + 2L_1L_2\cos\theta_2 + L_2^2)\dot\theta_1^2"
       r" + 2(L_2^2 + L_1L_2\cos\theta_2)\dot\theta_1\dot\theta_2 + L_2^2\dot\theta_2^2\big)",
       "m_2 multiplies all three terms (misplaced parenthesis; as printed two terms are not "
       "energies); the example's torques use the corrected K_2", "corrected",
       evidence="`modern_robotics.MassMatrix` (`InverseDynamics` at rest, without gravity, "
                "with one unit acceleration) gives the 2R arm M_12 = m_2 (L_1 L_2 cos theta_2 + "
                "L_2^2) and M_22 = m_2 L_2^2, the mass matrix of the corrected K_2 (the printed "
                "one has no m_2 there)"),
    _E("lynch_park", "Sec. 8.1.1, tau_1 of the 2R example, coefficient of thetadd_2 "
       "(draft: after Eq. (9.8))",
       r"m_2(L_1L_2\cos\theta_1 + L_2^2)", r"m_2(L_1L_2\cos\theta_2 + L_2^2)",
       "M is symmetric (tau_2 prints M_21 with cos theta_2), and rotating the whole planar arm "
       "(theta_1) cannot change its inertia", "corrected",
       evidence="`modern_robotics.MassMatrix` gives the 2R arm the same M_12 = m_2 (L_1 L_2 "
                "cos theta_2 + L_2^2) at every theta_1"),
    _E("lynch_park", "Sec. 8.1.1, tau_2 of the 2R example, velocity term "
       "(draft: after Eq. (9.8))",
       r"-m_2L_1L_2\dot\theta_1\dot\theta_2\sin\theta_2",
       r"+m_2L_1L_2\dot\theta_1^2\sin\theta_2",
       "the Christoffel symbols of Sec. 8.1.2: Gamma_211 = -(1/2) dm_11/dtheta_2 = m_2 L_1 L_2 "
       "sin theta_2, Gamma_212 = Gamma_222 = 0: the centrifugal force on the elbow mass",
       "corrected",
       evidence="`modern_robotics.VelQuadraticForces` (`InverseDynamics` with thetadd = 0, "
                "without gravity) gives the torque m_2 L_1 L_2 thetadot_1^2 sin theta_2 at the "
                "2R arm's elbow, with no thetadot_1 thetadot_2 term"),
    _E("lynch_park", "Sec. 8.1.1, tau_2 of the 2R example, gravity term "
       "(draft: after Eq. (9.8))",
       r"-m_2gL_2\cos(\theta_1 + \theta_2)", r"+m_2gL_2\cos(\theta_1 + \theta_2)",
       "= dP/dtheta_2 with the example's P_2; tau_1 prints the same term with +, and at "
       "theta = 0 both joints must hold the outstretched mass up", "corrected",
       evidence="`modern_robotics.GravityForces` with gravity (0, -g, 0) gives the torque "
                "+m_2 g L_2 cos(theta_1 + theta_2) at the 2R arm's elbow"),
    # the twist-wrench recursion and its closed form; derived in dynlab.formulations.twist_wrench
    # and tested in tests/formulations/test_spatial.py
    _E("lynch_park", "Sec. 8.3, the joint screw A_i (draft: text after Eq. (9.35))",
       r"\mathcal{A}_i \text{ is the twist of joint } i \text{ expressed in frame } \{i-1\}",
       r"\mathcal{A}_i \text{ is the screw axis of joint } i \text{ expressed in frame } \{i\}",
       "T_{i-1,i} = M_{i-1,i} e^{[A_i] theta_i} puts the exponential after M_{i-1,i}, in frame "
       "{i}'s coordinates, and the draft's own A_i = Ad_{M_i^-1}(S_i) (draft Eq. (9.40)) is S_i "
       "in frame {i}; the recursion takes V_i and A_i thetadot_i in the same frame {i}",
       "corrected",
       evidence="`modern_robotics.InverseDynamics` forms A_i = Ad_{M_i^-1}(S_i), M_i the home "
                "configuration of frame {i} (`Adjoint(TransInv(Mi))`), and T_{i,i-1} = "
                "e^{-[A_i] theta_i} M_{i-1,i}^-1: the screw in frame {i}"),
    _E("lynch_park", "Sec. 8.3, the second form of the acceleration recursion "
       "(draft Eqs. (9.47), (9.58))",
       r"\dot{\mathcal{V}}_i = \ldots + [\mathrm{Ad}_{T_{i-1,i}}(\mathcal{V}_{i-1}), "
       r"\mathcal{A}_i]\dot\theta_i",
       r"\dot{\mathcal{V}}_i = \ldots + [\mathrm{Ad}_{T_{i,i-1}}(\mathcal{V}_{i-1}), "
       r"\mathcal{A}_i]\dot\theta_i",
       "V_{i-1} is in frame {i-1} and is carried into frame {i} by Ad_{T_{i,i-1}}, as in the "
       "velocity recursion and the sentence after draft Eq. (9.47), which uses "
       "Ad_{T_{i,i-1}}(V_{i-1}) = V_i - A_i thetadot_i to reach the first form, "
       "[V_i, A_i] thetadot_i", "corrected",
       evidence="`modern_robotics.InverseDynamics` carries the twist and acceleration of link "
                "i-1 into frame {i} with Ad_{T_{i,i-1}} and adds [V_i, A_i] thetadot_i "
                "(`ad(Vi) Ai`), which is the corrected bracket since V_i - A_i thetadot_i = "
                "Ad_{T_{i,i-1}}(V_{i-1})"),
    _E("lynch_park", "Sec. 8.3, A_i in the algorithm's preliminaries (draft Eq. (9.51))",
       r"\mathcal{A}_i = \mathrm{Ad}_{M_{i-1}^{-1}}(\mathcal{S}_i)",
       r"\mathcal{A}_i = \mathrm{Ad}_{M_i^{-1}}(\mathcal{S}_i)",
       "the derivation's A_i = Ad_{M_i^-1}(S_i) (draft Eq. (9.40)): A_i is joint i's screw axis "
       "in frame {i}, at the centre of mass of link i, whose home configuration is M_i; "
       "M_{i-1} is frame {i-1}'s (for i = 1 the printed form leaves S_1 in the base frame)",
       "corrected",
       evidence="`modern_robotics.InverseDynamics` forms A_i = Ad_{M_i^-1}(S_i) "
                "(`Adjoint(TransInv(Mi))`, M_i = M_01 M_12 ... M_{i-1,i})"),
    _E("lynch_park", "Sec. 8.3, the algorithm's initialization (draft: before Eq. (9.53))",
       r"\dot{\mathcal{V}}_0 = (0, \mathbf{g})",
       r"\dot{\mathcal{V}}_0 = (0, -\mathbf{g})",
       "the paragraph before the algorithm gives the base the acceleration -g, g the "
       "gravitational acceleration in base coordinates; with +g every gravity torque changes "
       "sign", "corrected",
       evidence="`modern_robotics.InverseDynamics` starts the forward pass from the base "
                "acceleration (0, -g) and its `GravityForces` hold the 2R arm up"),
    _E("lynch_park", "Sec. 8.3, F_tip in the algorithm's preliminaries "
       "(draft: before Eq. (9.53))",
       r"\mathcal{F}_{\mathrm{tip}} \text{: the wrench applied to some point on link } n",
       r"\mathcal{F}_{\mathrm{tip}} \text{: the wrench the end-effector (link } n\text{) applies "
       r"to its environment}",
       "the initialization sets F_{n+1} = F_tip, and F_{i+1} is the wrench applied by link i "
       "to link i+1 (the free-body diagram of link i); so F_tip is applied by link n, and "
       "J^T F_tip of draft Eq. (9.81) is the torque that holds it", "corrected",
       evidence="`modern_robotics.InverseDynamics` takes `Ftip`, \"the spatial force applied "
                "by the end-effector\", as the wrench of frame {n+1}, and its "
                "`EndEffectorForces` are J_b^T F_tip"),
    _E("lynch_park", "Sec. 8.4, the stacked accelerations (draft Eqs. (9.73), (9.78))",
       r"+[\mathrm{ad}_{\mathcal{A}\dot\theta}](\Gamma(\theta)\mathcal{V} + "
       r"\mathcal{V}_{\mathrm{base}})",
       r"-[\mathrm{ad}_{\mathcal{A}\dot\theta}](\Gamma(\theta)\mathcal{V} + "
       r"\mathcal{V}_{\mathrm{base}})",
       "the acceleration recursion of Sec. 8.3 stacked: [V_i, A_i thetadot_i] = "
       "-[A_i thetadot_i, V_i] = -ad_{A_i thetadot_i}(V_i), and V_i - A_i thetadot_i = "
       "Ad_{T_{i,i-1}}(V_{i-1}) is the i-th block of Gamma V + V_base", "corrected",
       evidence="`modern_robotics.InverseDynamics` adds [V_i, A_i] thetadot_i = "
                "-ad_{A_i thetadot_i}(V_i) to each link's acceleration, and on the PUMA 560 its "
                "`VelQuadraticForces` is the c of the corrected sign, not the printed one"),
    _E("lynch_park", "Sec. 8.4, c(theta, thetadot) (draft Eq. (9.83))",
       r"c = \mathcal{A}^T\mathcal{L}^T(\mathcal{G}\mathcal{L}[\mathrm{ad}_{\mathcal{A}"
       r"\dot\theta}]\Gamma - [\mathrm{ad}_{\mathcal{V}}]^T\mathcal{G})\mathcal{L}"
       r"\mathcal{A}\dot\theta",
       r"c = -\mathcal{A}^T\mathcal{L}^T(\mathcal{G}\mathcal{L}[\mathrm{ad}_{\mathcal{A}"
       r"\dot\theta}]\Gamma + [\mathrm{ad}_{\mathcal{V}}]^T\mathcal{G})\mathcal{L}"
       r"\mathcal{A}\dot\theta",
       "the velocity terms of the stacked equations with the sign of the acceleration "
       "recursion (the erratum of the stacked accelerations); as printed, c disagrees with the "
       "recursion at any moving state of the PUMA 560", "corrected",
       evidence="`modern_robotics.VelQuadraticForces` (`InverseDynamics` with thetadd = 0, "
                "without gravity or tip wrench) is the corrected c on the PUMA 560, not the "
                "printed one"),
    # -- Tourassis & Neuman (1985); argued and tested in tests/dynamics/test_properties.py
    _E("tourassis_neuman", "Sec. 2.1, property 1",
       r"d_{ij} = d_{ii} \text{ for all } i \text{ and } j",
       r"d_{ij} = d_{ji} \text{ for all } i \text{ and } j",
       "property 1 is the symmetry of D(q) (7); d_ij = d_ii would make every row constant: "
       "an index the scan misread", "scan", r"d_{ij} = d_{ii}"),
    _E("tourassis_neuman", "Sec. 2.1, property 3",
       r"d_{ii}^2 < d_{ii}\,d_{ii} \text{ for all } i \ne j",
       r"d_{ij}^2 < d_{ii}\,d_{jj} \text{ for all } i \ne j",
       "the 2x2 principal minors of the positive definite D(q) (property 2) are positive; "
       "d_ii^2 < d_ii^2 is never true: indices the scan misread", "scan",
       r"d_{ii}^2 < d_{ii}d_{ii}"),
    _E("tourassis_neuman", "Eqs. (10), (13), (40), (B-3), (B-4)",
       r"\frac{d}{dt}\frac{\partial T}{\partial\dot q_i} - \frac{\partial T}{\partial q_i} - "
       r"\frac{\partial V}{\partial q_i} = F_i;\ G_i = -\frac{\partial V}{\partial q_i};\ "
       r"G_i = M_i\{s_i\,\mathbf{g}\cdot\mathbf{z}_{i-1} + s_i^*\,\mathbf{g}\cdot(\mathbf{z}_{i-1}"
       r"\times\mathbf{p}_i)\}",
       r"\frac{d}{dt}\frac{\partial T}{\partial\dot q_i} - \frac{\partial T}{\partial q_i} + "
       r"\frac{\partial V}{\partial q_i} = F_i;\ G_i = \frac{\partial V}{\partial q_i};\ "
       r"G_i = -M_i\{s_i\,\mathbf{g}\cdot\mathbf{z}_{i-1} + s_i^*\,\mathbf{g}\cdot(\mathbf{z}_{i-1}"
       r"\times\mathbf{p}_i)\}",
       "V of (8) is the potential energy and L = T - V; as printed a vertical slide would be held "
       "up by pushing it down (G_i = -M_i |g|); (B-3), (B-4) carry the same sign, so it is the "
       "paper's; zero and constant G_i (Sec. 6) are unaffected", "book"),
    _E("tourassis_neuman", "Eq. (12)",
       r"c_{jm}(i) = \tfrac{1}{2}\Big\{\frac{\partial d_{ii}}{\partial q_m} + "
       r"\frac{\partial d_{im}}{\partial q_j} - \frac{\partial d_{jm}}{\partial q_i}\Big\}",
       r"c_{jm}(i) = \tfrac{1}{2}\Big\{\frac{\partial d_{ij}}{\partial q_m} + "
       r"\frac{\partial d_{im}}{\partial q_j} - \frac{\partial d_{jm}}{\partial q_i}\Big\}",
       "the Christoffel symbol of the first kind; (36) and (37) use dd_ij/dq_m: the scan "
       "garbles j into i (property 1 and 3 too)", "scan", r"\frac{\partial d_{ii}}{\partial q_m}"),
    _E("tourassis_neuman", "Eq. (16)",
       r"\frac{\partial\mathbf{r}_a}{\partial q_i} = "
       r"\frac{\partial\mathbf{p}_{ia}}{\partial q_i} = "
       r"\sigma_j\mathbf{z}_{j-1} + \sigma_j^*(\mathbf{z}_{j-1}\times\mathbf{p}_{ja})",
       r"\frac{\partial\mathbf{r}_a}{\partial q_j} = "
       r"\frac{\partial\mathbf{p}_{ja}}{\partial q_j} = "
       r"\sigma_j\mathbf{z}_{j-1} + \sigma_j^*(\mathbf{z}_{j-1}\times\mathbf{p}_{ja})",
       "(16) is (15) with j for i, as its right-hand side shows; as scanned it repeats (15)'s "
       "left-hand side", "scan", r"\frac{\partial \mathbf{p}_{ia}}{\partial q_i}"),
    _E("tourassis_neuman", "Eqs. (21), (31)",
       r"J_{ii} = (m_i + \cdots + m_N) K_{ij};\ d_{ij} = (m_i + \cdots + m_N) K_{ij}",
       r"J_{ij} = (m_j + \cdots + m_N) K_{ij};\ d_{ij} = (m_j + \cdots + m_N) K_{ij}",
       "the sum (21) runs over links j..N (the text after it speaks of J_ij, links j through N) "
       "and (22) prints (m_j + ... + m_N); only then does k_ij = LF x KF (33)-(35) hold: the "
       "scan swaps i and j here as in the sum indices of (18), (20)", "scan",
       r"J_{ii} = (m_i + \dots + m_N) K_{ij}"),
    _E("tourassis_neuman", "Eq. (22), last term",
       r"\sigma_i^*\sigma_i^* K_{ij}", r"\sigma_i^*\sigma_j^* K_{ij}",
       "the term of two rotational joints i and j, as in (17) and (A-10): an index the scan "
       "misread", "scan", r"\sigma_i^* \sigma_i^* K_{ij}"),
    _E("tourassis_neuman", "Eq. (32)",
       r"k_{ij} = \frac{|d_{ij}|}{(d_{ii}d_{jj})^{1/2}}\text{, the geometric mean of } d_{ii} "
       r"\text{ and } d_{ij}",
       r"k_{ij} = \frac{|d_{ij}|}{(d_{ii}d_{jj})^{1/2}}\text{, the geometric mean of } d_{ii} "
       r"\text{ and } d_{jj}",
       "the sentence introducing (32) names d_ij where the formula has d_jj: the self-inertial "
       "coefficients are d_ii and d_jj", "scan",
       "the geometric mean of the selfinertial coefficients d_{ii} and d_{ij}"),
    _E("tourassis_neuman", "Sec. 3.5, after Eq. (34)",
       r"\text{the kinematic factor } (0 \le KF \le 1)",
       r"KF \ge 0 \text{ and } KF < 1/LF \text{ (from } k_{ij} < 1)",
       "the articulated arm with masses 20, 10, 5 kg has KF_23 = 1.134 at q3 = 1; a heavy hub "
       "with a light outstretched rod has KF_12 = 10", "book"),
    _E("tourassis_neuman", "Table 2, centrifugal coefficients",
       r"c_{ji}(i)", r"c_{jj}(i)",
       "the centrifugal coefficients are c_jj(i) (Sec. 4.1, (36)); c_ji(i) is a Coriolis "
       "coefficient, and the count N(N-1) is that of c_jj(i), j != i", "scan", "c_{ji}(i)"),
    _E("tourassis_neuman", "Sec. 5, the two configurations",
       r"\mathbf{g}\cdot\mathbf{z}_{i-1} \text{ and } G_i = 0",
       r"\mathbf{g}\cdot\mathbf{z}_{i-1} = 0 \text{ and } G_i = 0",
       "a translation perpendicular to gravity makes g . z_{i-1} vanish, hence G_i = 0 by (40): "
       "the '= 0' the scan lost", "scan", r"$\mathbf{g} \cdot \mathbf{z}_{i-1}$ and $G_i = 0$"),
    _E("tourassis_neuman", "Eq. (A-4)",
       r"(\mathbf{z}_{i-1}\times\mathbf{z}_{i-1})\cdot\mathbf{p} = a_y p_x - a_x p_y",
       r"(\mathbf{z}_{j-1}\times\mathbf{z}_{i-1})\cdot\mathbf{p} = a_y p_x - a_x p_y",
       "z_{i-1} x z_{i-1} = 0; in frame i-1, z_{j-1} = a and z_{i-1} = (0, 0, 1), so "
       "(a x z) . p = a_y p_x - a_x p_y, and (A-5) uses (z_{j-1} x z_{i-1}) . p", "scan",
       r"(\mathbf{z}_{i-1} \times \mathbf{z}_{i-1}) \cdot \mathbf{p}"),
    _E("tourassis_neuman", "Eq. (A-10), last term",
       r"\sigma_i^*\sigma_j^*\{a_z I_{jzz} - o_z I_{jyz} - n_z I_{jxz} + (m_j + \cdots + m_N) + "
       r"[(n_x p_y - n_y p_x) y_j - (o_x p_y - o_y p_x) x_j]\}",
       r"\sigma_i^*\sigma_j^*\{a_z I_{jzz} - o_z I_{jyz} - n_z I_{jxz} + (m_j + \cdots + m_N)"
       r"[(n_x p_y - n_y p_x) y_j - (o_x p_y - o_y p_x) x_j]\}",
       "(A-9) summed over the masses of links j..N gives (m_j + ... + m_N) times the bracket "
       "(a mass plus a mass x length^2 has no unit): a product the scan turned into a sum", "scan",
       r"+ (m_j + \dots + m_N) + [(n_x p_y - n_y p_x) y_j"),
    _E("tourassis_neuman", "Eq. (B-2)",
       r"x_i, y_i\text{: the centre of gravity of link } i \text{ in its own frame}",
       r"x_i, y_i\text{: the centre of gravity of links } i..N \text{ in frame } i-1",
       "g.(z_{i-1} x p_i) evaluated in frame i-1 needs the p_i of (40): the centre of mass of "
       "links i..N from origin i-1, in frame i-1's axes", "book"),
    _E("tourassis_neuman", "Table 3, articulated row",
       r"c_{ij}(m) = 2,\ \text{total } 16,\ \text{sparsity } 0.941",
       r"c_{ij}(m) = 1,\ \text{total } 15,\ \text{sparsity } 0.882",
       "c12(3) = -c13(2) vanishes identically when z1 || z2, for every mass distribution (the "
       "Coriolis force from qdot_1 qdot_2 lies along the elbow axis); Sec. 6's empirical "
       "sparsity formula (0.940 for N_R = 3) then no longer fits the articulated row", "book"),
    _E("tourassis_neuman", "Table 3, Stanford row, d_ii",
       r"6(1)", r"6(2)",
       "d33 = m3 + ... + m6 is constant by Eq. (25) (joint 3 prismatic), and d66, the hand's "
       "inertia about its own axis, is constant for any arm", "book"),
    _E("tourassis_neuman", "Table 3, PUMA row, d_ij and c_ii(m)",
       r"d_{ij}\ 14,\ c_{ii}(m)\ 30",
       r"d_{ij}\ 14,\ c_{ii}(m)\ 25,\ c_{ij}(m)\ 39\ (\text{total } 88)\text{; or } d_{ij}\ 15,\ "
       r"c_{ii}(m)\ 30,\ c_{ij}(m)\ 39,\ G_i\ 5\ (\text{total } 95)",
       "(36): c_jj(i) = dd_ij/dq_j for i < j, so each zero d_ij forces a zero centrifugal "
       "coefficient; 14 of 15 d_ij and 30 of 30 c_jj(i) cannot both hold", "book"),
    # -- the PUMA 560 parameter set -------------------------------------------------------------
    _E("armstrong_khatib_burdick", "links 1 and 3, inertia about the centre of mass",
       r"\text{link 1: } I_{xx} = I_{zz} = 0,\ I_{yy} = 0.35;\ \text{link 3: } I_{xx} = 0.066,\ "
       r"I_{yy} = 0.086,\ I_{zz} = 0.0125",
       r"\text{kept as published, marked lumped\_inertia=True in dynlab.model.robots.puma560}",
       "a rigid body's principal moments obey the triangle inequality (Iyy <= Ixx + Izz); "
       "0.35 > 0 and 0.086 > 0.0785 can only be lumped (rotor or measured) figures", "book"),
)


#: Every source an erratum may name, in the order of the tables (the thesis has none so far).
SOURCES = tuple(BIBLIOGRAPHY)


def _order(erratum: Erratum) -> tuple:
    """Source by source; within one, the order of the book (problems after the text)."""
    return (SOURCES.index(erratum.source), erratum.place.startswith("Prob."))


class Errata(tuple):
    """A tuple of :class:`Erratum` that shows as a table of mathematics in a notebook.

    >>> table = errata_table("schilling")
    >>> [e.kind for e in table][:3]
    ['scan', 'scan', 'scan']
    >>> "$B^3 = " in table._repr_html_()
    True
    """

    _HEADER = ("source", "place", "printed", "correct", "kind", "why")

    def _rows(self, escape) -> list:
        """The cells of :attr:`_HEADER`, each escaped by ``escape``, mathematics in ``$...$``."""
        return [(escape(AUTHORS[e.source]), escape(e.place), f"${escape(e.printed)}$",
                 f"${escape(e.correct)}$", escape(e.kind), escape(e.reasons)) for e in self]

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{h}</th>" for h in self._HEADER)
        return (f"<table><thead><tr>{head}</tr></thead><tbody>" + "".join(
            "<tr>" + "".join(f'<td style="text-align:left">{c}</td>' for c in cells) + "</tr>"
            for cells in self._rows(html.escape)) + "</tbody></table>")

    def markdown(self) -> str:
        """The errata as a Markdown table, mathematics in ``$...$``."""
        return table_markdown(self._HEADER, self._rows(_cell))


def errata_table(source: str | None = None, kind: str | None = None) -> Errata:
    """All errata, source by source; ``source`` and ``kind`` (:data:`KINDS`) narrow.

    >>> len(errata_table("schilling")) >= 9, len(errata_table("fu", kind="book")) >= 9
    (True, True)
    >>> errata_table("fu")[0].citation
    'Fu, Gonzalez & Lee (1987), Eq. (3.2-23)'
    >>> errata_table("Schilling")
    Traceback (most recent call last):
    ...
    ValueError: unknown source 'Schilling'; the sources are fu, thesis, schilling, ...
    """
    if source is not None:
        check_source(source)
    if kind is not None and kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; the kinds are {', '.join(KINDS)}")
    records = sorted(ERRATA, key=_order)     # sorted() is stable
    return Errata(e for e in records if (source is None or e.source == source)
                  and (kind is None or e.kind == kind))


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(source: str | None = None) -> str:
    """The errata as a Markdown table (for the README), optionally of one source.

    >>> print(markdown_table("lynch_park").splitlines()[3])  # doctest: +ELLIPSIS
    | Lynch & Park (2017) | Sec. 8.1.1, tau_1 of the 2R example, coefficient of thetadd_2 ...
    """
    return errata_table(source).markdown()
