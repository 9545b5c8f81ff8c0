"""Variants of chapter 01 (moving frames and inertia tensors): Fu, Gonzalez & Lee's Probs. 3.2,
3.3 and 3.5 to 3.8.

- Prob. 3.2: each student's translating frame has its own velocity ``kx t i + ky t j + 4 k`` (the
  book's is 3t i + 2t j + 4k).
- Prob. 3.3: each student's starred frame turns at its own rate ``w`` about z (the book's omega
  is (0, 0, 1)).
- Probs. 3.5 to 3.8: one placement per student of the cube and the block (``variant("3.5")``,
  shared by the four): the body's centre of mass at (dx a, dy a, dz a) for the cube and
  (dx a, dy b, dz c) for the block, in the axes of (x0, y0, z0); the book's bodies have their
  corner at the origin, (1, 1, 1), which no student gets.

The right answers are written by hand here.  Sec. 3.3.2: a particle fixed in a frame that only
translates has the frame's acceleration (Eq. (3.3-18): a = a* + a_h, a* = 0), here (kx, ky, 0);
a particle at rest in a frame that only turns has no Coriolis term and the centripetal term
omega x (omega x r) = -w^2 (3t, 2t, 0) (Eq. (3.3-14)).  The inertia tensors from the printed
closed forms about the centre (the cube's 2/3 M a^2 E, the block's M/3 diag(b^2 + c^2, ...)) and
the parallel-axis theorem written out entry by entry (on the diagonal M times the squared
distance of the centre from the axis, off it -M times the product of two coordinates), turned as
R I R^T with R = Rz(alpha) Rx(theta) (Eq. (3.2-5)).

Parts the same for every student (a copied answer earns exactly their share): 3.3's Coriolis
acceleration (zero) and the tensors about the centre of mass of 3.5 and 3.6 (where a body sits
does not change its tensor about its own centre).
"""

from __future__ import annotations

import sympy
from sympy import Matrix, Rational, cos, sin

t = sympy.Symbol("t", positive=True)
M, a, b, c = sympy.symbols("M a b c", positive=True)
alpha, theta = sympy.symbols("alpha theta", real=True)
#: A point of the symbols at which answers are compared by hand here
AT = {t: 0.7, M: 1.3, a: 0.4, b: 0.7, c: 0.25, alpha: 0.7, theta: -1.1}


def exact(value) -> sympy.Rational:
    return sympy.Rational(repr(float(value)))


# -- the bodies of Probs. 3.5 to 3.8, by hand ------------------------------------------------
def cube(question: str) -> bool:
    return question in ("3.5", "3.7")


def about_centre(question: str) -> Matrix:
    """The printed closed forms: a cube of side 2a, a block of sides 2a, 2b, 2c."""
    if cube(question):
        return Rational(2, 3) * M * a**2 * sympy.eye(3)
    return M / 3 * sympy.diag(b**2 + c**2, a**2 + c**2, a**2 + b**2)


def centre_of_mass(question: str, given: dict, flip=(1, 1, 1)) -> tuple:
    half = (a, a, a) if cube(question) else (a, b, c)
    return tuple(f * exact(given[n]) * h for f, n, h in zip(flip, ("dx", "dy", "dz"), half))


def parallel_axes(d) -> Matrix:
    """M(|d|^2 E - d d^T) written out: M (y^2 + z^2) on the first diagonal entry, -M x y off it."""
    x, y, z = d
    return M * Matrix([[y**2 + z**2, -x * y, -x * z],
                       [-x * y, x**2 + z**2, -y * z],
                       [-x * z, -y * z, x**2 + y**2]])


def about_O(question: str, given: dict, flip=(1, 1, 1)) -> Matrix:
    return about_centre(question) + parallel_axes(centre_of_mass(question, given, flip))


def turn() -> Matrix:
    rz = Matrix([[cos(alpha), -sin(alpha), 0], [sin(alpha), cos(alpha), 0], [0, 0, 1]])
    rx = Matrix([[1, 0, 0], [0, cos(theta), -sin(theta)], [0, sin(theta), cos(theta)]])
    return rz, rx


def parts(question: str, given: dict) -> tuple:
    """The answer for these givens, its parts as a tuple."""
    if question == "3.2":
        return (Matrix([exact(given["kx"]), exact(given["ky"]), 0]),)
    if question == "3.3":
        w = exact(given["w"])
        return sympy.zeros(3, 1), Matrix([-3 * w**2 * t, -2 * w**2 * t, 0])
    if question in ("3.5", "3.6"):
        return about_O(question, given), about_centre(question)
    rz, rx = turn()
    R = rz * rx
    return (R * about_O(question, given) * R.T,)


def slips(question: str, given: dict) -> list:
    """``[(parts, words of the feedback)]``: each typical slip, at these givens."""
    if question == "3.2":
        kx, ky = exact(given["kx"]), exact(given["ky"])
        return [((Matrix([kx * t, ky * t, 4]),), "that is the velocity"),
                ((Matrix([kx - 1, ky + 1, 2]),), "the particle's position in frame 1 is "
                                                  "constant")]
    if question == "3.3":
        w = exact(given["w"])
        coriolis, centripetal = parts(question, given)
        return [((Matrix([-4 * w, 6 * w, 0]), centripetal), "RELATIVE TO THE STARRED FRAME"),
                ((coriolis, Matrix([-2 * w * t, 3 * w * t, 0])), "omega x r is the velocity")]
    body = "cube" if cube(question) else "block"
    book = about_centre(question) + parallel_axes(centre_of_mass(
        question, {"dx": 1, "dy": 1, "dz": 1}))
    mine, centre = about_O(question, given), about_centre(question)
    if question in ("3.5", "3.6"):
        d = centre_of_mass(question, given)
        flipped = Matrix(3, 3, lambda i, j: mine[i, j] if i == j else -mine[i, j])
        return [((flipped, centre), "I_O: the off-diagonal entries have the wrong sign"),
                ((book, centre), f"I_O: that is the book's {body}, with its corner at the origin"),
                ((centre, centre), "I_O: that is the tensor about the centre"),
                ((about_O(question, given, (1, -1, 1)), centre),
                 "the products of inertia with y, I_xy and I_yz, have the wrong sign"),
                ((about_O(question, given, (1, 1, -1)), centre),
                 "the products of inertia with z, I_xz and I_yz, have the wrong sign"),
                ((about_O(question, given, (1, -1, -1)), centre),
                 "the products of inertia I_xy and I_xz have the wrong sign"),
                ((centre + M * sum(x**2 for x in d) * sympy.eye(3), centre), "not M*|d|**2*E"),
                ((centre - parallel_axes(d), centre),
                 "I_O: the parallel-axis term has the wrong sign"),
                ((mine, centre / 4), "I_centre: the "),
                ((mine, mine), "I_centre: that is the tensor about O"),
                ((mine, book), f"I_centre: that is the book's {body} about its corner")]
    rz, rx = turn()
    R = rz * rx
    return [(((rx * rz) * mine * (rx * rz).T,), "R = Rz(alpha)*Rx(theta), not Rx(theta)*Rz(alpha)"),
            ((R.T * mine * R,), "not R^T*I*R"),
            ((R * centre * R.T,), "not the one about the centre"),
            ((R * book * R.T,), f"that is the book's {body}, with its corner at O, turned"),
            ((R * centre * R.T + parallel_axes(centre_of_mass(question, given)),),
             "the centre of mass turns with the body")]



def answer_of(question: str, parts: tuple):
    """What the notebook's check cell passes: one part alone, else the tuple."""
    return parts[0] if len(parts) == 1 else parts


def right(question: str, given: dict):
    """The right answer for these givens as the check cell hands it in."""
    return answer_of(question, parts(question, given))


def mistakes(question: str, given: dict) -> list:
    return [(answer_of(question, wrong), words) for wrong, words in slips(question, given)]
