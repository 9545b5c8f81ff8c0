"""A variant per student for the three questions of the ceiling arm that had none (issue 24, item
4): Fu, Gonzalez & Lee, Prob. 3.16(a), the link transformation matrices, Prob. 3.17(b), the inertia
tensors, and Prob. 3.13(b), why L-E and N-E write gravity with opposite signs (a choice).

- 3.16(a) and 3.17(b) ask about the arm of Probs. 3.16 and 3.17, so they share its givens
  (``variant("3.16")``): link 2 hangs ``e`` beside link 1 along the joint axis z1 (the offset d of
  joint 2 in Eq. (3.2-5); 0 in print), and each mass is a thin uniform rod of length ``w`` along
  its joint axis z_i (0 in print: points), whose tensor about its centre is m w^2/12 about x_i and
  y_i and none about z_i.
- 3.13(b)'s four explanations are shown to each student turned by ``turn`` places
  (``variant("3.13b")``), so the right one stands under a letter of their own.

Each right answer here is written by hand from the printed formulas (Eq. (3.2-5) for A; a thin
rod's m l^2/12 for I; the turn counted by hand for the letter), not read from a key.
"""

from __future__ import annotations

import sympy
from sympy import Matrix, cos, diag, sin

m1, m2, d1, d2 = sympy.symbols("m1 m2 d1 d2", positive=True)
q1, q2 = sympy.symbols("q1 q2", real=True)


# -- the right answers and the typical mistakes, by hand ------------------------------------------
def dh(theta, offset, length):
    """i-1A_i of Eq. (3.2-5) for alpha_i = 0: Rz(theta), then offset along z, length along x."""
    return Matrix([[cos(theta), -sin(theta), 0, length * cos(theta)],
                   [sin(theta), cos(theta), 0, length * sin(theta)],
                   [0, 0, 1, offset],
                   [0, 0, 0, 1]])


def rod_along_z(mass, length):
    """A thin uniform rod of ``length`` along z, about its centre: m l^2/12 about x and y."""
    return diag(mass * length**2 / 12, mass * length**2 / 12, 0)


#: The right explanation's place (from 0) in the list of the notebook, EXPLANATIONS
RIGHT_EXPLANATION = 1


def letter_of(place: int, turn) -> str:
    """The letter under which the explanation at ``place`` of the list stands for a student whose
    list is turned by ``turn``: they see place (k + turn) mod 4 under letter k."""
    return "ABCD"[(place - int(turn)) % 4]


def right(question: str, given: dict):
    """The answer for these givens (read as a student's code reads them: floats)."""
    if question == "3.16a":
        return [dh(q1, 0, d1), dh(q2, given["e"], d2)]
    if question == "3.17b":
        return [rod_along_z(m1, given["w"]), rod_along_z(m2, given["w"])]
    return letter_of(RIGHT_EXPLANATION, given["turn"])


def mistakes(question: str, given: dict) -> list:
    """``[(answer, words of the feedback)]``: each typical slip, at these givens."""
    if question == "3.16a":
        e = given["e"]
        A1, A2 = dh(q1, 0, d1), dh(q2, e, d2)
        return [([A1.T, A2.T], "each A_i is transposed"),
                ([A1, dh(q2, 0, d2)], "that is the printed arm, both links in one plane"),
                ([A1, dh(q2, -e, d2)], "the offset is +e"),
                ([dh(q1, e, d1), dh(q2, 0, d2)], "the offset belongs to joint 2")]
    if question == "3.17b":
        w = given["w"]
        rods = [rod_along_z(m1, w), rod_along_z(m2, w)]
        behind = [(1 - given["rho1"]) * d1, (1 - given["rho2"]) * d2]
        return [([sympy.zeros(3, 3)] * 2, "a point mass has no inertia about itself"),
                ([diag(0, m * w**2 / 12, m * w**2 / 12) for m in (m1, m2)],
                 "that is a rod along the link"),
                ([4 * rod for rod in rods], "a rod's moment about its END"),
                ([rod + diag(0, m * x**2, m * x**2) for rod, m, x in zip(rods, (m1, m2), behind)],
                 "that is the tensor about the origin of frame i"),
                ([diag(0, m * d**2 / 12, m * d**2 / 12) for m, d in ((m1, d1), (m2, d2))],
                 "those are uniform links"),
                ([diag(0, 0, m * w**2 / 12) for m in (m1, m2)], "the 3x3 block of J_i")]
    wrong = {0: "both formulations give the same torques", 2: "the same base frame",
             3: "transposing a vector does not change the sign"}
    return [(letter_of(place, given["turn"]), words) for place, words in wrong.items()]


#: A point of the symbols at which answers are compared by hand here
AT = {m1: 1.3, m2: 0.8, d1: 0.45, d2: 0.35, q1: 0.4, q2: 2.2}
