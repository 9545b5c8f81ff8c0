"""A variant per student for the two-link arm hanging from the ceiling (issue 24, item 5): Fu,
Gonzalez & Lee, Probs. 3.16(b), 3.16(c), 3.17(a), 3.17(c) and 3.17(d) all ask about one arm, so
each student has one set of givens for them (``variant("3.16")``, which 3.16(a) and 3.17(b) share
too: tests/course/test_variants_links.py): where each lumped mass sits along its link, ``rho_i d_i``
from joint i (the printed problem: rho = 1, at the ends), the upward acceleration ``a_lift`` of
the lift whose ceiling the arm hangs from (0 in print), how far link 2 hangs beside link 1 along
z1, ``e`` (the offset of joint 2; only p*_2 of 3.17(c) shows it here), and the length ``w`` of the
thin rod along its joint axis that each mass is (only J of 3.16(b) shows it here: a rod along z_i
has no inertia about the axis the arm turns about).

Each right answer here is written by hand from the point masses' positions (x0 down, frame i at
the far end of link i, gravity g + a_lift along +x0 in the lift's frame), not read from a key.
The parts that no given of the arm changes, 3.17(a)'s omega0 and omega_dot0 (zero: the base does
not turn) and 3.17(c)'s p*_1 (link 1's length), stay the same for everyone: a copied answer earns
exactly their share and nothing of the rest.
"""

from __future__ import annotations

import functools

import sympy
from sympy import Matrix, cos, sin

m1, m2, d1, d2, g = sympy.symbols("m1 m2 d1 d2 g", positive=True)
q1, q2, qd1, qd2, qdd1, qdd2 = sympy.symbols("q1 q2 qd1 qd2 qdd1 qdd2", real=True)


# -- the right answers and the typical mistakes, by hand ------------------------------------------
@functools.lru_cache(maxsize=None, typed=True)        # the slips and grid points share arms
def arm(rho1, rho2, a_lift, sign=1, w=0):
    """(J, D, h, c, v_dot0, s) of the arm with masses m1 at rho1 d1 from joint 1 and m2 at
    rho2 d2 from joint 2, each a thin rod of length w along its joint axis z_i (which adds
    int z**2 dm = m w**2/12 to J and nothing to D, h or c: no inertia about z_i), under the
    gravity sign*(g + a_lift) along +x0.  The masses sit at
    x1 = r1 (C1, S1) and x2 = d1 (C1, S1) + r2 (C12, S12) in frame 0 (r_i = rho_i d_i), so the
    kinetic energy gives D = sum m J^T J, h its Christoffel terms, and P = -m (g + a) x gives c."""
    r1, r2 = rho1 * d1, rho2 * d2
    C2, S1, S2, S12 = cos(q2), sin(q1), sin(q2), sin(q1 + q2)
    D = Matrix([[m1 * r1**2 + m2 * (d1**2 + r2**2 + 2 * d1 * r2 * C2), m2 * (r2**2 + d1 * r2 * C2)],
                [m2 * (r2**2 + d1 * r2 * C2), m2 * r2**2]])
    h = Matrix([-m2 * d1 * r2 * S2 * (2 * qd1 * qd2 + qd2**2), m2 * d1 * r2 * S2 * qd1**2])
    pull = sign * (g + a_lift)
    c = pull * Matrix([m1 * r1 * S1 + m2 * (d1 * S1 + r2 * S12), m2 * r2 * S12])
    behind = [-(1 - rho1) * d1, -(1 - rho2) * d2]       # the mass from the origin of frame i
    J = [m * Matrix([x, 0, 0, 1]) * Matrix([[x, 0, 0, 1]]) + sympy.diag(0, 0, m * w**2 / 12, 0)
         for m, x in zip((m1, m2), behind)]
    s = [Matrix([x, 0, 0]) for x in behind]
    return J, D, h, c, Matrix([-pull, 0, 0]), s


def tau(rho1, rho2, a_lift, sign=1):
    _, D, h, c, _, _ = arm(rho1, rho2, a_lift, sign)
    return D * Matrix([qdd1, qdd2]) + h + c


def right(question: str, given: dict):
    """The answer for these givens (read as a student's code reads them: floats)."""
    rho1, rho2, a_lift = given["rho1"], given["rho2"], given["a_lift"]
    J, D, h, c, v_dot0, s = arm(rho1, rho2, a_lift, w=given["w"])
    zero = Matrix([0, 0, 0])
    return {"3.16b": J, "3.16c": (D, h, c), "3.17a": (zero, zero, v_dot0),
            "3.17c": (s[0], s[1], Matrix([d1, 0, 0]), Matrix([d2, 0, given["e"]])),
            "3.17d": tau(rho1, rho2, a_lift)}[question]


def mistakes(question: str, given: dict) -> list:
    """``[(answer, words of the feedback)]``: each typical slip, at these givens."""
    rho1, rho2, a_lift, w = given["rho1"], given["rho2"], given["a_lift"], given["w"]
    ends, far = arm(1, 1, a_lift, w=w), arm(1 - rho1, 1 - rho2, a_lift, w=w)
    J, D, h, c, v_dot0, s = arm(rho1, rho2, a_lift, w=w)
    if question == "3.16b":
        ahead = [m * Matrix([-x[0], 0, 0, 1]) * Matrix([[-x[0], 0, 0, 1]])
                 + sympy.diag(0, 0, m * w**2 / 12, 0) for m, x in zip((m1, m2), s)]
        return [(ends[0], "those are the masses at the link ends"),
                (far[0], "rho_i is measured from joint i"),
                (ahead, "on the -x_i side of that origin")]
    if question == "3.16c":
        still, falling = arm(rho1, rho2, 0)[3], arm(rho1, rho2, -a_lift)[3]
        return [((ends[1], h, c), "those are the masses at the link ends"),
                ((D, ends[2], c), "those are the masses at the link ends"),
                ((D, h, far[3]), "rho_i is measured from joint i"),
                ((D, h, -c), "gravity points the wrong way"),
                ((D, h, still), "that is c on a ceiling at rest"),
                ((D, h, falling), "the lift's acceleration has the wrong sign"),
                ((D, h, c.subs(g, 9.8062)), "keep gravity as the symbol g")]
    zero = Matrix([0, 0, 0])
    if question == "3.17a":
        return [((zero, zero, -v_dot0), "OPPOSITE to gravity"),
                ((zero, zero, Matrix([-g, 0, 0])), "that is the base of an arm at rest"),
                ((zero, zero, Matrix([-g + a_lift, 0, 0])), "the lift accelerates UP")]
    p = (Matrix([d1, 0, 0]), Matrix([d2, 0, given["e"]]))
    if question == "3.17c":
        return [((zero, s[1]) + p, "the printed problem, rho = 1"),
                ((Matrix([-d1 / 2, 0, 0]), s[1]) + p, "that is the middle of the link"),
                ((s[0], Matrix([-rho2 * d2, 0, 0])) + p,
                 "s_i is measured from the origin of frame i, at the FAR end"),
                ((-s[0], s[1]) + p, "on the -x_i side of that origin")]
    return [(tau(1, 1, a_lift), "those are the torques for masses at the link ends"),
            (tau(1 - rho1, 1 - rho2, a_lift), "rho_i is measured from joint i"),
            (tau(rho1, rho2, a_lift, sign=-1), "gravity enters the wrong way"),
            (tau(rho1, rho2, 0), "those are the torques on a ceiling at rest"),
            (tau(rho1, rho2, -a_lift), "the lift's acceleration has the wrong sign")]


#: A point of the symbols at which answers are compared by hand here
AT = {m1: 1.3, m2: 0.8, d1: 0.45, d2: 0.35, g: 9.7, q1: 0.4, q2: 2.2, qd1: 0.7, qd2: -1.3,
      qdd1: 0.9, qdd2: -0.6}
