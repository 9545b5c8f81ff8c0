"""A variant per student for the G-D and Newton-Euler questions of chapter 06 (issue 24, item 5).

- G.1, G.2 (Fu, Gonzalez & Lee, Sec. 3.4.2, Eqs. (3.4-25)-(3.4-27)), N.2, N.3 (Table 3.3,
  Eqs. (3.3-52), (3.3-53), (3.3-56), (3.3-57)): the two-link arm whose link 2 is ``lam`` times as
  long as link 1 (the book's rods are equal, lam = 1);
- N.4 (Schilling, Algorithm 6-8-1, Sec. 6-9): the one-axis arm whose load pulls the tool along a
  cable ``phi`` degrees below the horizontal (the book's weight hangs straight down, 90 degrees).

N.1 (link 2's angular velocity and acceleration) would be (0, 0, qd1 + qd2) and (0, 0, qdd1 + qdd2)
on every planar arm, whatever its lengths, masses or load: its givens twist joint 2's axis instead
(tests/course/test_variants_formulas.py).  Nothing changes h_rot of G.2, which is zero for every
planar arm; G.2's h_tran carries its givens.

Each right answer here is written out by hand from the printed formulas (the closed forms of the
books' worked examples with link 2's length l2 = lam l, or the load's moment about the joint), not
read from a key, and checked against dynlab's numeric G-D terms and recursion traces at the
students' values.  For each question: the right answer scores full points for alice and for bob
at their practice values, alice's answer scores 0 for bob, for marks (a course secret) the
practice-value answer scores 0 and the graded-value answer full, and every typical mistake is
still named at other students' values.  The chapter's own solution code, run again by ``dynlab
grade --keys`` in its sandbox, earns full marks at the graded values; typed-in values earn only
what every student shares.
"""

from __future__ import annotations

import math

import sympy
from sympy import Matrix, cos, sin

G0 = 9.8062

m1, m2, l, g, a1, F = sympy.symbols("m1 m2 l g a1 F", positive=True)
q1, q2, qd1, qd2, qdd1, qdd2 = sympy.symbols("q1 q2 qd1 qd2 qdd1 qdd2", real=True)
S1, C1, S2, C2 = sin(q1), cos(q1), sin(q2), cos(q2)
S12, C12 = sin(q1 + q2), cos(q1 + q2)


def exact(value) -> sympy.Rational:
    """A given as the exact decimal it is written as (0.65 as 13/20)."""
    return sympy.Rational(repr(float(value)))


# -- the two-link arm with l2 = lam l, by hand ---------------------------------------------------
def D_parts(lam, point_masses=False, about_ends=False):
    """D^rot and D^tran of Eq. (3.4-25): the rods' spins I_zz = m a^2/12 (m a^2/3 about their
    ends), and their centres r1 = (l/2) u1, r2 = l u1 + (l2/2) u12 moved by the joints
    (``point_masses``: the masses at the tips, l u1 and l u1 + l2 u12)."""
    l2 = lam * l
    c1, c2 = (l, l2) if point_masses else (l / 2, l2 / 2)       # the joints' reach to the centres
    spin = sympy.Rational(1, 3) if about_ends else sympy.Rational(1, 12)
    D_rot = spin * Matrix([[m1 * l**2 + m2 * l2**2, m2 * l2**2], [m2 * l2**2, m2 * l2**2]])
    # |z x (r2 - p0)|^2 = l^2 + c2^2 + 2 l c2 C2, (z x (r2 - p0)) . (z x (r2 - p1)) = c2^2 + l c2 C2
    coupling = m2 * (c2**2 + l * c2 * C2)
    D_tran = Matrix([[m1 * c1**2 + m2 * (l**2 + c2**2 + 2 * l * c2 * C2), coupling],
                     [coupling, m2 * c2**2]])
    return D_rot, D_tran


def h_tran_of(lam, point_masses=False):
    """h^tran of Eq. (3.4-26): the centre of link 2 at c2 = l2/2 beyond joint 2 (at l2 for
    ``point_masses``) gives h1 = -m2 l c2 S2 (2 qd1 qd2 + qd2^2), h2 = m2 l c2 S2 qd1^2."""
    c2 = lam * l if point_masses else lam * l / 2
    return Matrix([-m2 * l * c2 * S2 * (2 * qd1 * qd2 + qd2**2), m2 * l * c2 * S2 * qd1**2])


def link1_v_dot(gravity=1):
    """1R0 v_dot_1 (Eq. (3.3-52) for link 1, p*_1 = (l, 0, 0), v_dot_0 = (0, gravity*g, 0))."""
    return Matrix([-l * qd1**2 + gravity * g * S1, l * qdd1 + gravity * g * C1, 0])


def forward(lam, gravity=1, rotated=True, behind=True):
    """2R0 v_dot_2 and 2R0 a_bar_2 (Eqs. (3.3-52), (3.3-53)): link 1's acceleration turned into
    frame 2 by 2R1 = Rz(q2)^T (not turned, ``rotated=False``), plus link 2's own tangential and
    centripetal terms over p*_2 = (l2, 0, 0); the centre at s_2 = (-l2/2, 0, 0) (``behind``) or
    (+l2/2, 0, 0)."""
    l2, w, wd = lam * l, qd1 + qd2, qdd1 + qdd2
    base = link1_v_dot(gravity)
    if rotated:
        base = Matrix([[C2, S2, 0], [-S2, C2, 0], [0, 0, 1]]) * base
    v_dot = base + Matrix([-l2 * w**2, l2 * wd, 0])
    s = -l2 / 2 if behind else l2 / 2
    a_bar = v_dot + Matrix([-s * w**2, s * wd, 0])
    return v_dot.applyfunc(sympy.expand), a_bar.applyfunc(sympy.expand)


def backward(lam, gravity=1):
    """f_2 = m2 a_bar_2 and n_2 = (p*_2 + s_2) x F_2 + I_2 omega_dot_2 (Eqs. (3.3-56),
    (3.3-57) with f_3 = n_3 = 0), and its pieces: (N_2, s_2 x F_2)."""
    l2 = lam * l
    f = m2 * forward(lam, gravity)[1]
    spin = Matrix([0, 0, m2 * l2**2 / 12 * (qdd1 + qdd2)])           # I_2 omega_dot_2
    n = Matrix([0, 0, l2 / 2 * f[1]]) + spin                          # (l2/2, 0, 0) x F_2
    return f, n, spin, Matrix([0, 0, -l2 / 2 * f[1]]) + spin


# -- the one-axis arm and its cable, by hand ------------------------------------------------------
def cable(load):
    """Schilling's Algorithm 6-8-1 on the rod of Sec. 6-9 with f^2 = ``load`` (= -f^tool): f^1 =
    f^2 + m1 a_c (the rod's centre accelerates by v_dot^0 plus half the tip's motion), n^1 its
    moment about the joint, tau1 = n^1_z = m1 a1^2/3 qdd1 + m1 g a1 C1/2 + (a1 u1 x f^2)_z."""
    centre = Matrix([0, g, 0]) + a1 / 2 * Matrix([-S1 * qdd1 - C1 * qd1**2,
                                                  C1 * qdd1 - S1 * qd1**2, 0])
    f = load + m1 * centre
    tau = m1 * a1**2 / 3 * qdd1 + m1 * g * a1 * C1 / 2 + a1 * (C1 * load[1] - S1 * load[0])
    return f, Matrix([0, 0, tau]), tau


def pulled(angle):
    """f^2 = -f^tool for the cable pulling the tool with F along (cos angle, -sin angle, 0)."""
    return Matrix([-F * cos(angle), F * sin(angle), 0])


def radians(given) -> sympy.Expr:
    return sympy.pi * exact(given["phi"]) / 180


def right(question: str, given: dict):
    """The answer for these givens, by hand."""
    if question == "N.4":
        return cable(pulled(radians(given)))
    return two_link(question, exact(given["lam"]))


def two_link(question: str, lam) -> tuple:
    """The answer of G.1, G.2, N.2 or N.3 for link 2 of length ``lam l``."""
    if question == "G.1":
        return D_parts(lam)
    if question == "G.2":
        return Matrix([0, 0]), h_tran_of(lam)
    if question == "N.2":
        return forward(lam)
    return backward(lam)[:2]


def mistakes(question: str, given: dict) -> list:
    """``[(answer, words of the feedback)]``: each typical slip, at these givens."""
    if question == "N.4":
        angle = radians(given)
        f, n, tau = cable(pulled(angle))
        slips = [(cable(-pulled(angle)), "the backward pass starts from f^2 = -f^tool"),
                 (cable(Matrix([0, 0, 0])), "the load is missing"),
                 (cable(pulled(sympy.pi / 2)), "that is a load hanging straight down"),
                 (cable(pulled(sympy.pi / 2 - angle)), "measured from the HORIZONTAL x0")]
        return [(tuple(wrong[k] if k == index else (f, n, tau)[k] for k in range(3)), words)
                for wrong, words in slips for index in range(3)]
    lam = exact(given["lam"])
    book = "that is the book's arm, whose two links are equally long"
    if question == "G.1":
        D_rot, D_tran = D_parts(lam)
        own = Matrix([[m1 * l**2 / 12, D_rot[0, 1]], [D_rot[1, 0], D_rot[1, 1]]])
        return [((D_parts(lam, about_ends=True)[0], D_tran), "about its CENTRE OF MASS"),
                ((own, D_tran), "joint 1 turns link 2 too"),
                ((D_parts(1)[0], D_tran), book),
                ((D_rot, D_parts(lam, point_masses=True)[1]), "not at its tip"),
                ((D_rot, D_parts(1)[1]), book)]
    if question == "G.2":
        zero = Matrix([0, 0])
        return [((zero, h_tran_of(lam, point_masses=True)), "not at its tip"),
                ((zero, h_tran_of(1)), book)]
    if question == "N.2":
        v_dot, a_bar = forward(lam)
        return [((forward(lam, gravity=-1)[0], a_bar), "an UPWARD acceleration of the base"),
                ((forward(lam, gravity=0)[0], a_bar), "the recursion starts from v_dot_0"),
                ((forward(lam, rotated=False)[0], a_bar), "turn it into frame 2 with 2R1"),
                ((forward(1)[0], a_bar), book),
                ((v_dot, forward(lam, gravity=-1)[1]), "an UPWARD acceleration of the base"),
                ((v_dot, forward(lam, gravity=0)[1]), "a_bar_2 carries gravity through"),
                ((v_dot, forward(lam, behind=False)[1]), "HALF A LINK BEHIND"),
                ((v_dot, v_dot), "that is v_dot_2, the acceleration of the origin of frame 2"),
                ((v_dot, forward(1)[1]), book)]
    f, n, spin, about_tip = backward(lam)
    printed = n + Matrix([0, 0, m2 * (lam * l)**2 * (qdd1 + qdd2) / 6])
    return [((backward(lam, gravity=-1)[0], n), "link 1 must push link 2 up"),
            ((backward(lam, gravity=0)[0], n), "link 1 also carries link 2's weight"),
            ((backward(1)[0], n), book),
            ((f, about_tip), "not s_2 from the tip"),
            ((f, printed), "the slip of the tau_2 printed at the end of Sec. 3.3.7"),
            ((f, spin), "that is N_2 alone"),
            ((f, backward(1)[1]), book)]


#: A point of the symbols at which answers are compared here (no term vanishes there)
AT = {m1: 1.3, m2: 0.7, l: 0.8, g: G0, a1: 0.7, F: 4.5, q1: 0.7, q2: -1.9, qd1: 0.6,
      qd2: -1.3, qdd1: 0.4, qdd2: 0.9}


def in_floats(question: str, given: dict) -> list:
    """What a student's code gives from ``given``: ``given["lam"] * l``; ``math.radians(
    given["phi"])``, or ``sympy.rad(given["phi"])``, a float times SymPy's pi."""
    if question != "N.4":
        return [two_link(question, sympy.Float(given["lam"]))]
    answers = [cable(pulled(sympy.Float(math.radians(given["phi"])))),
               cable(pulled(sympy.rad(given["phi"])))]
    assert answers[1][2].has(sympy.pi)
    return answers
