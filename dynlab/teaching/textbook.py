"""The sources' worked examples as printed, set against dynlab's derivations.

Every equation the worked examples print (Fu, Gonzalez & Lee (1987) Secs. 3.2.6, 3.3.7, 3.4.2
and its recursion Tables 3.2-3.3; Schilling (1990) Secs. 6-5, 6-6, 6-9; Lynch & Park Sec. 8.1.1;
the Macsyma results of the thesis appendix, App. B.9) is a
:class:`PrintedEquation`: the expression *as printed* -- mistakes included -- in the book's own
letters (Fu and Lynch & Park write theta, Schilling ``g_0`` and ``b_k(qd_k)``, the thesis
Macsyma's names), the
mapping of those letters onto dynlab's symbols, the arm it belongs to (a builder of
:mod:`dynlab.model.robots`, symbolic) and the quantity it gives (``tau``, ``D``, ``h``, ``c``, ``C_i``,
``J``, the Newton-Euler trace, ...).  Where the print is wrong the record names the erratum of
:data:`dynlab.teaching.errata.ERRATA` and carries the corrected form.

:func:`compare_with_derivation` derives each quantity with dynlab and lists every element in
which print and derivation differ, with the printed terms, the derived terms and the erratum's
one-line reason.  A print that is right gives no entry.

Sources are keys of :data:`BIBLIOGRAPHY` (``"fu"``, ``"thesis"``, ``"schilling"``,
``"lynch_park"``) and places are as printed: section, equation, table, or the quantity a worked
example names (:attr:`PrintedEquation.citation` joins the two).  dynlab keeps Fu's letters for
the terms (``D`` inertia, ``h`` velocity terms, ``c`` gravity): Schilling's gravity ``h_i`` is
dynlab's ``c_i`` (the record's ``name``
keeps the book's).  Conventions of the derivation side: every arm is built with
``symbolic=True``; gravity along ``-y0`` (``-z0`` for the SCARA), which is Fu's L-E row ``(0, -g,
0, 0)``, its N-E base acceleration ``vdot_0 = (0, g, 0)`` and Schilling's ``g = [0, -g_0, 0]``.

>>> [record.place for record in printed("schilling", "pendulum")][:3]
['Table 6-3', 'Eq. (6-9-3)', 'Eq. (6-9-4)']
>>> result = compare_with_derivation("pendulum")
>>> len(result.checked), len(result.agreeing), len(result)
(17, 16, 1)
>>> d = result[0]                 # the terms that differ (the rod's m1 a1^2 qdd1/12 included)
>>> d.place, d.element, d.printed, d.derived
('Eq. (6-9-21), fifth line', 'n_1[3]', 7*a1**2*m1*qdd1/12, a1**2*m1*qdd1/3)
"""

from __future__ import annotations

import collections
import functools
import html
from dataclasses import dataclass, field
from typing import Any, Mapping

import sympy
from sympy import Abs, Function, ImmutableMatrix, Rational, Symbol, cos, exp, sign, sin, symbols

from dynlab.formulations import registry as formulations
from dynlab.model import kinematics
from dynlab.teaching.bibliography import AUTHORS, BIBLIOGRAPHY, cite
from dynlab.model.display import shorthand
from dynlab.teaching.errata import ERRATA, Erratum
from dynlab.dynamics.inverse import equations_of_motion, inverse_dynamics
from dynlab.model.robot import joint_symbols
from dynlab.model.robots import ARM_SPECS
from dynlab.model.symbolic import compact, is_zero, reduce_trig

__all__ = ["ARMS", "BIBLIOGRAPHY", "QUANTITIES", "PrintedComparison", "Discrepancy", "PrintedEquation",
           "compare_with_derivation", "derived", "equations", "lookup", "printed", "robot",
           "run_table_3_2", "run_table_3_3", "torques", "torques_lynch_park_8_1_1", "trace"]

half, third = Rational(1, 2), Rational(1, 3)

# -- dynlab's symbols (the builders of dynlab.model.robots make the parameters positive) ----------------
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

_TRACE = ("omega", "omega_dot", "v_dot", "a_bar", "F", "N", "f", "n")
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
    **{name: f"Newton-Euler trace: {name} of link k" for name in _TRACE},
}
#: The sources with worked examples
SOURCES = ("fu", "thesis", "schilling", "lynch_park")
_TOP_VECTORS = ("tau", "h", "c", "h_rot", "h_tran", "theta")
_TOP_MATRICES = ("D", "D_rot", "D_tran")
_SCALARS = ("K", "P")


def _validate_arm(arm: str) -> str:
    if arm not in ARMS:
        raise ValueError(f"unknown arm {arm!r}; the arms are {', '.join(ARMS)}")
    return arm


# -- the records ---------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class PrintedEquation:
    """One printed equation of a worked example.

    ``index`` picks the printed part of the derived quantity: 1-based numbers (the link, then
    the element), a Python ``slice`` for a block of rows; ``None`` is the whole quantity.
    ``printed`` is the expression (``ImmutableMatrix`` for vectors and matrices) in the book's
    letters, or a function computing it (a recursion table run as printed); ``symbols`` maps the
    book's letters onto dynlab's (Schilling's ``b_k(qd_k)`` becomes the arm's friction,
    :data:`FRICTION`); ``given`` substitutes on both sides (e.g. ``{m2: 0}`` for the
    contribution of link 1 alone).  ``errata`` are places of :data:`dynlab.teaching.errata.ERRATA` records
    of this source, and ``corrections`` (one per erratum) the printed form with that one slip
    corrected.

    >>> record = lookup("schilling", "Eq. (6-6-25)")
    >>> record.errata, record.name
    (('Eq. (6-6-25)',), 'tau_1')
    >>> record.expression().has(qdd2**2), record.corrected().has(qdd2**2)
    (True, False)
    """

    source: str
    place: str
    arm: str
    quantity: str
    index: tuple | None
    printed: Any
    symbols: Mapping = field(default_factory=dict)
    name: str = ""
    errata: tuple = ()
    corrections: tuple = ()
    frame: str | None = None
    given: Mapping = field(default_factory=dict)
    note: str = ""

    def __post_init__(self):
        if self.source not in SOURCES:
            raise ValueError(f"{self.place}: unknown source {self.source!r}; the sources with "
                             f"worked examples are {', '.join(SOURCES)}")
        _validate_arm(self.arm)
        if self.index is not None and not isinstance(self.index, tuple):
            raise TypeError(f"{self.place}: index must be a tuple (1-based numbers, slices) "
                            f"or None, got {type(self.index).__name__}")
        if self.quantity not in QUANTITIES:
            raise ValueError(f"{self.place}: unknown quantity {self.quantity!r}")
        if len(self.corrections) != len(self.errata):
            raise ValueError(f"{self.place}: give one correction per erratum")
        if (self.quantity in _TRACE) != (self.frame in ("link", "base")):
            raise ValueError(f"{self.place}: Newton-Euler trace quantities (only) need "
                             f"frame='link' or 'base'")

    @property
    def citation(self) -> str:
        """Author(s), year and place, as a reader finds it in print."""
        return cite(self.source, self.place)

    def as_printed(self):
        """The expression as printed, in the book's letters."""
        return _resolve(self.printed)

    def _in_dynlab(self, expression):
        mapping = {**self.symbols, **FRICTION.get(self.arm, {})}
        value = sympy.sympify(expression).xreplace(mapping)
        return value.xreplace(self.given) if self.given else value

    def expression(self):
        """The printed expression in dynlab's symbols (``given`` substituted)."""
        return self._in_dynlab(self.as_printed())

    def correction(self, k: int):
        """The printed expression with only the ``k``-th erratum corrected (dynlab's symbols)."""
        return self._in_dynlab(_resolve(self.corrections[k]))

    def corrected(self):
        """The printed expression with every erratum corrected, in dynlab's symbols."""
        value = self.expression()
        return value + sum((self.correction(k) - value for k in range(len(self.errata))),
                           sympy.zeros(*value.shape) if isinstance(value, sympy.MatrixBase)
                           else sympy.S.Zero)

    def erratum_records(self) -> tuple:
        """The :class:`dynlab.teaching.errata.Erratum` records named by ``errata``."""
        return tuple(_erratum(self.source, place) for place in self.errata)

    def __repr__(self) -> str:
        where = "" if self.index is None else str(self.index)
        return (f"PrintedEquation({self.source}, {self.place!r}, {self.arm}, "
                f"{self.quantity}{where})")


@functools.lru_cache(maxsize=None)
def _resolve_callable(function):
    return function()


def _resolve(value):
    return _resolve_callable(value) if callable(value) else value


def _erratum(source: str, place: str) -> Erratum:
    for erratum in ERRATA:
        if erratum.source == source and erratum.place == place:
            return erratum
    raise KeyError(f"no erratum of {source} at {place!r} in dynlab.teaching.errata.ERRATA")


def mat(*rows):
    """An immutable matrix from rows (a column from one-element rows)."""
    return ImmutableMatrix([list(row) for row in rows])


def col(*entries):
    return ImmutableMatrix(list(entries))


def _record(source, place, arm, quantity, index, expression, symbols_, name, **extra):
    return PrintedEquation(source, place, arm, quantity, index, expression, symbols_, name,
                           **extra)


# ================================================================================================
# Fu, Gonzalez & Lee (1987) Secs. 3.2.6, 3.3.7, 3.4.2: the two-link arm of Fig. 3.2
# ================================================================================================
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
    omega-dot_2, v-dot_1, v-dot_2, s-bar_2, p*_2 of Sec. 3.3.7): as printed, wd takes the place of w in the centripetal term."""
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
    """Fu, Gonzalez & Lee Table 3.3, Luh's link-coordinate recursion, run symbolically on
    ``robot`` with no load (Algorithm 3.1, step N4): the joint torques ``[tau_1, ..., tau_n]``.

    ``printed=True`` uses the moment row as printed: ``(i+1R0 p*_{i+1}) x (i+1R0
    f_{i+1})`` and ``(iR0 p*_i + iR0 s_i) x (iR0 f_i)`` (the dot over ``n_{i+1}`` read as a
    scan mark); ``printed=False`` uses Eq. (3.3-57): ``p*_i`` and ``F_i``.  The base gets
    the book's ``vdot_0 = g`` (3.3-46), the negative of dynlab's gravity vector (``(0, g, 0)``
    for the two-link arm).

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


def _records_fu() -> list:
    fu, S = "planar_2r/fu", THETA
    E_J = "Sec. 3.2.6, pseudo-inertias J_1, J_2, entry (1,1)"
    E_TEXT = "Eqs. (3.3-50)-(3.3-55)"
    vd2_printed, abar2_printed = lambda: _eq_3_3_52_53(True)[0], lambda: _eq_3_3_52_53(True)[1]
    vd2_right, abar2_right = lambda: _eq_3_3_52_53(False)[0], lambda: _eq_3_3_52_53(False)[1]
    R = functools.partial(_record, "fu")
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
          note="the closing sentence of Sec. 3.3.7 ('agree with ... Lagrange-Euler') is false as printed"),
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


# ================================================================================================
# Schilling (1990) Sec. 6-9: the one-axis arm (pendulum)
# ================================================================================================
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


def _records_schilling_pendulum() -> list:
    arm, R = "pendulum", functools.partial(_record, "schilling")
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


def _records_schilling_planar() -> list:
    arm, R = "planar_2r/schilling", functools.partial(_record, "schilling")
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


def _records_schilling_scara() -> list:
    arm, R = "scara", functools.partial(_record, "schilling")
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


# ================================================================================================
# Lynch & Park Sec. 8.1.1: the planar 2R arm with point masses (L1, L2, m1, m2)
# ================================================================================================
c1_, c2_, s1_, s2_, c12_, s12_ = (cos(th1), cos(th2), sin(th1), sin(th2), cos(th1 + th2),
                                  sin(th1 + th2))
_K2_bracket = ((L1**2 + 2 * L1 * L2 * c2_ + L2**2) * thd1**2,
               2 * (L2**2 + L1 * L2 * c2_) * thd1 * thd2, L2**2 * thd2**2)
#: K_1 + K_2 of the 2R example (draft: below Eq. (9.7)) as printed (m2 multiplies the first term only) and corrected
K_8_1_1 = m1 * L1**2 * thd1**2 / 2 + half * (m2 * _K2_bracket[0] + _K2_bracket[1] + _K2_bracket[2])
K_8_1_1_corrected = m1 * L1**2 * thd1**2 / 2 + half * m2 * sum(_K2_bracket)
P_8_1_1 = m1 * g * L1 * s1_ + m2 * g * (L1 * s1_ + L2 * s12_)


def torques_lynch_park_8_1_1(p1: bool = False, p2: bool = False, p3: bool = False):
    """Lynch & Park's tau of the 2R example (draft: after Eq. (9.8)) as printed (book letters), with the corrections P1 (tau_1's ``cos th1`` ->
    ``cos th2``), P2 (tau_2's velocity term) and P3 (tau_2's gravity sign) applied when asked.

    >>> torques_lynch_park_8_1_1()[1].has(thd1 * thd2), torques_lynch_park_8_1_1(p2=True)[1].has(thd1 * thd2)
    (True, False)
    """
    tau1 = (((m1 + m2) * L1**2 + m2 * (2 * L1 * L2 * c2_ + L2**2)) * thdd1
            + m2 * (L1 * L2 * (c2_ if p1 else c1_) + L2**2) * thdd2
            - 2 * m2 * L1 * L2 * thd1 * thd2 * s2_ - m2 * L1 * L2 * thd2**2 * s2_
            + (m1 + m2) * L1 * g * c1_ + m2 * g * L2 * c12_)
    tau2 = (m2 * (L1 * L2 * c2_ + L2**2) * thdd1 + m2 * L2**2 * thdd2
            + (m2 * L1 * L2 * thd1**2 * s2_ if p2 else -m2 * L1 * L2 * thd1 * thd2 * s2_)
            + (1 if p3 else -1) * m2 * g * L2 * c12_)
    return col(tau1, tau2)


def _records_lynch_park() -> list:
    arm, R, S = "planar_2r/lynch_park", functools.partial(_record, "lynch_park"), THETA
    return [
        R("Sec. 8.1.1, (x_1, y_1)", arm, "r_bar", (1, slice(0, 2)),
          col(L1 * c1_, L1 * s1_), S, "(x_1, y_1)"),
        R("Sec. 8.1.1, (x_2, y_2)", arm, "r_bar", (2, slice(0, 2)),
          col(L1 * c1_ + L2 * c12_, L1 * s1_ + L2 * s12_), S, "(x_2, y_2)"),
        R("Sec. 8.1.1, K_1 + K_2", arm, "K", None, K_8_1_1, S, "K_1 + K_2",
          errata=("Sec. 8.1.1, K_2 of the 2R example (draft: below Eq. (9.7))",), corrections=(K_8_1_1_corrected,)),
        R("Sec. 8.1.1, P_1 + P_2", arm, "P", None, P_8_1_1, S, "P_1 + P_2"),
        R("Sec. 8.1.1, the torques of the 2R example", arm, "tau", None, torques_lynch_park_8_1_1(), S, "tau",
          errata=("Sec. 8.1.1, tau_1 of the 2R example, coefficient of thetadd_2 (draft: after Eq. (9.8))", "Sec. 8.1.1, tau_2 of the 2R example, velocity term (draft: after Eq. (9.8))",
                  "Sec. 8.1.1, tau_2 of the 2R example, gravity term (draft: after Eq. (9.8))"),
          corrections=(torques_lynch_park_8_1_1(p1=True), torques_lynch_park_8_1_1(p2=True),
                       torques_lynch_park_8_1_1(p3=True))),
    ]


# ================================================================================================
# The thesis appendix 'Dynamics of Two Link Manipulators' (1990): the two-link arm with a payload (Macsyma)
# ================================================================================================
#: App. B.9, (d52): the crunched constants
r1 = 4 * gravity * l1 * mp + 4 * gravity * l1 * mm2 + 2 * gravity * l1 * mm1
r2 = ((4 * l2**2 + 4 * l1**2) * mp + (l2**2 + 4 * l1**2) * mm2 + l1**2 * mm1 + 4 * i_2
      + 4 * i_1)
r3 = 4 * gravity * l2 * mp + 2 * gravity * l2 * mm2
r4 = 8 * l1 * l2 * mp + 4 * l1 * l2 * mm2
r5 = 4 * l1 * l2 * mp + 2 * l1 * l2 * mm2
r6 = 4 * l2**2 * mp + l2**2 * mm2 + 4 * i_2
_s = sin(t1)**2 + cos(t1)**2          # Macsyma never reduced it to 1
#: App. B.9, (d47)
TT1 = (((r5 * _s) * cos(t2) + r6) * t2dd - r5 * _s * sin(t2) * t2d**2
       - r4 * _s * t1d * sin(t2) * t2d - r3 * sin(t1) * sin(t2)
       + (r4 * _s * t1dd + r3 * cos(t1)) * cos(t2) + r2 * t1dd + r1 * cos(t1)) / 4
#: App. B.9, (d51)
TT2 = (r6 * t2dd + (r5 * _s * t1d**2 - r3 * sin(t1)) * sin(t2)
       + (r5 * _s * t1dd + r3 * cos(t1)) * cos(t2) + r6 * t1dd) / 4


def _records_thesis() -> list:
    arm, R = "planar_2r/macsyma", functools.partial(_record, "thesis")
    return [
        R("App. B.9, (d47) with (d52)", arm, "tau", (1,), TT1, MACSYMA,
          "tt1"),
        R("App. B.9, (d51) with (d52)", arm, "tau", (2,), TT2, MACSYMA,
          "tt2"),
    ]


#: Every transcribed printed equation, source by source.
RECORDS = tuple(_records_fu() + _records_thesis() + _records_schilling_pendulum()
                + _records_schilling_planar() + _records_schilling_scara() + _records_lynch_park())


def printed(source: str | None = None, arm: str | None = None) -> tuple:
    """The transcribed printed equations, optionally of one source and/or one arm.

    >>> [r.place for r in printed("thesis")]   # doctest: +NORMALIZE_WHITESPACE
    ['App. B.9, (d47) with (d52)',
     'App. B.9, (d51) with (d52)']
    >>> printed(arm="planar_2r")
    Traceback (most recent call last):
    ...
    ValueError: unknown arm 'planar_2r'; the arms are pendulum, planar_2r/fu, \
planar_2r/schilling, planar_2r/lynch_park, planar_2r/macsyma, scara
    """
    if source is not None and source not in SOURCES:
        raise ValueError(f"unknown source {source!r}; the sources with worked examples are "
                         f"{', '.join(SOURCES)}")
    if arm is not None:
        _validate_arm(arm)
    return tuple(r for r in RECORDS if (source is None or r.source == source)
                 and (arm is None or r.arm == arm))


def lookup(source: str, place: str, quantity: str | None = None) -> PrintedEquation:
    """The one record of ``source`` at ``place`` (and of ``quantity``, if given).

    >>> lookup("fu", "Sec. 3.2.6, D_22").as_printed()
    l**2*m2/2
    """
    found = [r for r in printed(source) if r.place == place
             and (quantity is None or r.quantity == quantity)]
    if len(found) != 1:
        raise KeyError(f"{len(found)} records of {source} at {place!r}"
                       + (f" for {quantity}" if quantity else ""))
    return found[0]


# ================================================================================================
# the derivation side (cached per arm; robots are immutable)
# ================================================================================================
@functools.lru_cache(maxsize=None)
def robot(arm: str):
    """The symbolic arm (a builder of :mod:`dynlab.model.robots`), built once."""
    return ARMS[_validate_arm(arm)]()


@functools.lru_cache(maxsize=None)
def torques(arm: str, method: str = "newton_euler", variant: str | None = None):
    """dynlab's ``tau`` of ``arm`` in the joint symbols (``inverse_dynamics``, not compacted)."""
    r = robot(arm)
    q, qd, qdd = joint_symbols(r.n)
    return inverse_dynamics(r, q, qd, qdd, method=method, variant=variant, simplify=False)


@functools.lru_cache(maxsize=None)
def equations(arm: str, method: str = "lagrange_euler", variant: str | None = None):
    """dynlab's ``EquationsOfMotion`` of ``arm`` (symbolic, not compacted)."""
    return equations_of_motion(robot(arm), method=method, variant=variant, simplify=False)


@functools.lru_cache(maxsize=None)
def trace(arm: str, frame: str = "link"):
    """dynlab's Newton-Euler :class:`dynlab.dynamics.inverse.Trace` (``frame``: link or base)."""
    r = robot(arm)
    q, qd, qdd = joint_symbols(r.n)
    return inverse_dynamics(r, q, qd, qdd, variant=frame, trace=True, simplify=False)[1]


@functools.lru_cache(maxsize=None)
def _kinematics(arm: str, what: str) -> list:
    r = robot(arm)
    q = joint_symbols(r.n)[0]
    if what == "T":
        return kinematics.transforms(r, q)[1:]
    if what == "r_bar":
        return kinematics.centres_of_mass(r, q)
    if what in ("A", "B"):
        return [pair["AB".index(what)] for pair in kinematics.link_jacobians(r, q)]
    links = r.symbolic()[0]                                   # "theta"
    return sympy.Matrix([qk + link.offset if link.revolute else link.theta
                         for qk, link in zip(q, links)])


def derived(arm: str, quantity: str, method: str = "newton_euler", variant: str | None = None,
            frame: str | None = None):
    """dynlab's derivation of ``quantity`` for ``arm`` (in the joint symbols).

    ``method`` and ``variant`` choose the formulation of ``tau``, ``D``, ``h`` and ``c``; the
    other quantities are pieces of one formulation: ``C_i`` (L-E with link Jacobians), ``U``,
    ``J`` (L-E, 4x4 matrices), ``K``, ``P`` (L-E, energy), ``D_rot``, ``h_tran``, ... (G-D), the
    trace quantities (Newton-Euler in ``frame`` coordinates), and kinematics.  Per-link
    quantities are lists (link ``k`` at position ``k - 1``).

    >>> derived("pendulum", "D")
    Matrix([[a1**2*m1/3]])
    """
    _validate_arm(arm)
    if quantity == "tau":
        return torques(arm, method, variant)
    if quantity in ("D", "h", "c"):
        return getattr(equations(arm, method, variant), quantity)
    terms = {"C_i": ("lagrange_euler", "jacobian"), "U": ("lagrange_euler", "uicker"),
             "J": ("lagrange_euler", "uicker"), "K": ("lagrange_euler", "christoffel"),
             "P": ("lagrange_euler", "christoffel"), "D_rot": ("dalembert", "lee"),
             "D_tran": ("dalembert", "lee"), "h_rot": ("dalembert", "lee"),
             "h_tran": ("dalembert", "lee")}
    if quantity in terms:
        return equations(arm, *terms[quantity]).terms[quantity]
    if quantity in _TRACE:
        if frame not in ("link", "base"):
            raise ValueError(f"{quantity} is a Newton-Euler trace quantity: give "
                             f"frame='link' or 'base'")
        t = trace(arm, frame)
        return [t[k][quantity] for k in range(1, len(t) + 1)]
    if quantity in QUANTITIES:
        return _kinematics(arm, quantity)
    raise ValueError(f"unknown quantity {quantity!r}; choose one of {', '.join(QUANTITIES)}")


# ================================================================================================
# the comparison
# ================================================================================================
@dataclass(frozen=True)
class Discrepancy:
    """One element in which a printed equation differs from dynlab's derivation.

    ``printed`` and ``derived`` are the terms that differ (common terms removed), in dynlab's
    symbols; ``explanation`` is the erratum's one-line reason (``erratum`` the record), or says
    that no erratum covers it.
    """

    source: str
    place: str
    element: str
    printed: Any
    derived: Any
    explanation: str
    erratum: Erratum | None = None
    record: PrintedEquation | None = field(default=None, repr=False, compare=False)

    def __str__(self) -> str:
        return (f"{cite(self.source, self.place)}, {self.element}: printed {_text(self.printed)}, "
                f"derived {_text(self.derived)} -- {self.explanation}")


def _text(expr) -> str:
    return str(shorthand(expr))


class PrintedComparison(list):
    """The discrepancies found (a list of :class:`Discrepancy`), with what was checked.

    ``checked`` are the records compared, ``agreeing`` those whose print is right, and
    ``unconfirmed`` the (record, erratum) pairs whose erratum showed no discrepancy (empty
    when the errata register and the transcriptions agree).
    """

    def __init__(self, discrepancies, checked, unconfirmed, arm, method):
        super().__init__(discrepancies)
        self.checked = tuple(checked)
        self.unconfirmed = list(unconfirmed)
        self.arm, self.method = arm, method

    @property
    def agreeing(self) -> tuple:
        wrong = {id(d.record) for d in self}
        return tuple(r for r in self.checked if id(r) not in wrong)

    def summary(self) -> str:
        arms = self.arm or "all arms"
        return (f"{arms} ({self.method}): {len(self.checked)} printed equations checked, "
                f"{len(self.agreeing)} agree with the derivation, {len(self)} discrepancies")

    def rows(self) -> list:
        return [[AUTHORS[d.source], d.place, d.element, _text(d.printed), _text(d.derived),
                 d.explanation] for d in self]

    _HEADER = ["source", "place", "element", "printed", "derived", "explanation"]

    def markdown(self) -> str:
        """The discrepancies as a Markdown table."""
        def cell(text):
            return str(text).replace("|", "\\|").replace("\n", " ")
        lines = ["| " + " | ".join(self._HEADER) + " |", "|" + "---|" * len(self._HEADER)]
        lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in self.rows()]
        return "\n".join(lines)

    def __str__(self) -> str:
        text = self.summary()
        return text + (":\n" + self.markdown() if self else "")

    __repr__ = __str__

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self._HEADER)
        body = "".join("<tr>" + "".join(f"<td style=\"text-align:left\">{html.escape(c)}</td>"
                                        for c in row) + "</tr>" for row in self.rows())
        table = (f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
                 if self else "")
        return f"<p>{html.escape(self.summary())}</p>{table}"


def _select(value, index):
    """The part of a derived quantity a record prints: ``(part, list_path, matrix_keys,
    column_vector)``."""
    list_path, keys = [], list(index or ())
    while keys and isinstance(value, (list, tuple)):
        k = keys.pop(0)
        list_path.append(k)
        value = value[k - 1]
    if not isinstance(value, sympy.MatrixBase):
        return sympy.sympify(value), tuple(list_path), tuple(keys), False
    column = value.shape[1] == 1
    if not keys:
        return value, tuple(list_path), (), column
    python = [k - 1 if isinstance(k, int) else k for k in keys]
    if len(python) == 1:
        python.append(0 if column and isinstance(python[0], int) else slice(None))
    return value[python[0], python[1]], tuple(list_path), tuple(keys), column


def _element_name(quantity: str, list_path: tuple, matrix_path: tuple) -> str:
    inner = ",".join(map(str, matrix_path))
    if quantity in _SCALARS:
        return quantity
    if quantity in _TOP_VECTORS or quantity in _TOP_MATRICES:
        sep = "" if all(i < 10 for i in matrix_path) else ","
        return f"{quantity}_{sep.join(map(str, matrix_path))}"
    label = {"C_i": "C^{}", "T": "T_0^{}", "A": "A^{}", "B": "B^{}"}.get(
        quantity, quantity + "_{}")
    if quantity == "U":
        name = "U_" + "".join(map(str, list_path))
    else:
        name = label.format(",".join(map(str, list_path)))
    return f"{name}[{inner}]" if inner else name


def _elements(record, printed_value, derived_value, list_path, keys, column):
    """``(name, printed element, derived element)`` for every printed element."""
    if not isinstance(printed_value, sympy.MatrixBase):
        derived_element = (derived_value[0, 0] if isinstance(derived_value, sympy.MatrixBase)
                           else derived_value)
        return [(_element_name(record.quantity, list_path, keys), printed_value,
                 derived_element)]
    if not isinstance(derived_value, sympy.MatrixBase) or (
            derived_value.shape != printed_value.shape):
        raise ValueError(f"{record.place}: printed shape {printed_value.shape} does not fit "
                         f"the derived {getattr(derived_value, 'shape', ())}")
    offsets = [0, 0]
    for axis, k in enumerate(keys[:2]):
        offsets[axis] = (k - 1) if isinstance(k, int) else (k.start or 0)
    result = []
    for r in range(printed_value.shape[0]):
        for c in range(printed_value.shape[1]):
            path = ((offsets[0] + r + 1,) if column else
                    (offsets[0] + r + 1, offsets[1] + c + 1))
            result.append((_element_name(record.quantity, list_path, path),
                           printed_value[r, c], derived_value[r, c]))
    return result


def _split_terms(a, b) -> tuple:
    """``(a_only, b_only)``: the terms of ``a`` and of ``b`` (in the canonical expanded form of
    :func:`dynlab.model.symbolic.reduce_trig`) that the other lacks; ``a_only - b_only = a - b``."""
    ta = collections.Counter(sympy.Add.make_args(reduce_trig(a)))
    tb = collections.Counter(sympy.Add.make_args(reduce_trig(b)))
    common = ta & tb
    return sympy.Add(*(ta - common).elements()), sympy.Add(*(tb - common).elements())


def _differing_terms(a, b) -> tuple:
    """:func:`_split_terms`, each side in compact book form (for display)."""
    a_only, b_only = _split_terms(a, b)
    return compact(a_only), compact(b_only)


_UNEXPLAINED = ("no erratum in dynlab.teaching.errata covers this: a new erratum, or a slip in the "
                "transcription")


@functools.lru_cache(maxsize=None)
def _compare_record(record, method: str, variant: str | None) -> tuple:
    """``(discrepancies, unconfirmed)`` of one record (cached: records and derivations are
    immutable, so a notebook's second call is free)."""
    found, unconfirmed = [], []
    full = derived(record.arm, record.quantity, method, variant, record.frame)
    derived_value, list_path, keys, column = _select(full, record.index)
    if record.given:
        derived_value = derived_value.xreplace(record.given)
    printed_value = record.expression()
    fixes = [record.correction(k) for k in range(len(record.errata))]
    errata = record.erratum_records()
    shown = [False] * len(errata)
    elements = _elements(record, printed_value, derived_value, list_path, keys, column)
    fixed = [_elements(record, fix, derived_value, list_path, keys, column) for fix in fixes]
    for position, (name, p, d) in enumerate(elements):
        if is_zero(p - d):
            continue
        change = 0
        for k, erratum in enumerate(errata):          # one entry per erratum in the element
            f = fixed[k][position][1]
            if is_zero(f - p):
                continue
            shown[k] = True
            change += f - p
            printed_terms, corrected_terms = _differing_terms(p, f)
            found.append(Discrepancy(record.source, record.place, name, printed_terms,
                                     corrected_terms, erratum.why, erratum, record))
        if change != 0 and is_zero(p + change - d):
            continue
        printed_terms, derived_terms = _differing_terms(p + change, d)
        found.append(Discrepancy(record.source, record.place, name, printed_terms,
                                 derived_terms, _UNEXPLAINED, None, record))
    return tuple(found), tuple((record, e) for e, s in zip(errata, shown) if not s)


def compare_with_derivation(arm: str | None = None, method: str = "newton_euler",
                            variant: str | None = None, source: str | None = None
                            ) -> PrintedComparison:
    """Every printed equation of ``arm`` (all arms by default; ``source`` narrows) against
    dynlab's derivation: a :class:`PrintedComparison`, the list of :class:`Discrepancy` (element,
    printed terms, derived terms, the erratum's reason), empty when every print is right.

    ``method`` (and ``variant``) derive ``tau``, ``D``, ``h`` and ``c``: ``"newton_euler"``
    (the default), ``"lagrange_euler"`` or ``"dalembert"``; the formulation-specific pieces
    (``C_i``, ``J``, the N-E trace, the G-D parts) come from their own formulation.  A record
    with several errata in one element gives one discrepancy per erratum, each with the terms
    that erratum changes.  In a notebook the result shows as a table.

    >>> result = compare_with_derivation("planar_2r/lynch_park", method="dalembert")
    >>> [(d.element, d.erratum.place) for d in result]   # doctest: +NORMALIZE_WHITESPACE
    [('K', 'Sec. 8.1.1, K_2 of the 2R example (draft: below Eq. (9.7))'),
     ('tau_1', 'Sec. 8.1.1, tau_1 of the 2R example, coefficient of thetadd_2 (draft: after Eq. (9.8))'),
     ('tau_2', 'Sec. 8.1.1, tau_2 of the 2R example, velocity term (draft: after Eq. (9.8))'),
     ('tau_2', 'Sec. 8.1.1, tau_2 of the 2R example, gravity term (draft: after Eq. (9.8))')]
    >>> result[3].printed, result[3].derived
    (-L2*g*m2*cos(q1 + q2), L2*g*m2*cos(q1 + q2))
    """
    formulations.lookup(method, variant)
    records = printed(source, arm)
    found, unconfirmed = [], []
    for record in records:
        discrepancies, unexplained = _compare_record(record, method, variant)
        found.extend(discrepancies)
        unconfirmed.extend(unexplained)
    return PrintedComparison(found, records, unconfirmed, arm, method)
