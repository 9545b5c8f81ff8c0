r"""An arm's DH and inertial table as a book prints it: one row per link, the joint variable in the
row of its joint, the centre of mass ``r`` (in the link's frame) as a row and the inertia tensor
about it as a matrix, whole numbers written exactly (``0``, not ``0.0``).

>>> from dynlab.robots import pendulum
>>> table = arm_table(pendulum(symbolic=True))
>>> print(table.data.split(r"\hline ")[1])  # doctest: +NORMALIZE_WHITESPACE
1 & R & q_{1} & 0 & a_{1} & 0 & m_{1} & \left[\begin{matrix}- \frac{a_{1}}{2} & 0 & 0\end{matrix}\right]
  & \left[\begin{matrix}0 & 0 & 0\\0 & \frac{a_{1}^{2} m_{1}}{12} & 0\\0 & 0 & \frac{a_{1}^{2} m_{1}}{12}\end{matrix}\right]\end{array}
>>> print(arm_table(pendulum()).data.split(r"\hline ")[1])  # doctest: +NORMALIZE_WHITESPACE
1 & R & q_{1} & 0 & 0.5 & 0 & 1 & \left[\begin{matrix}-0.25 & 0 & 0\end{matrix}\right]
  & \left[\begin{matrix}0 & 0 & 0\\0 & 0.0208333 & 0\\0 & 0 & 0.0208333\end{matrix}\right]\end{array}
"""

from __future__ import annotations

import math

import sympy

#: the columns: link, joint type, the four DH parameters, mass, centre of mass, inertia tensor
COLUMNS = ("i", r"\text{joint}", r"\theta", "d", "a", r"\alpha", "m", r"\bar r", r"I_{\bar r}")


def exact(value):
    """A whole-number float as an exact integer, any other float to 6 significant digits (a
    table's precision), anything else unchanged.

    >>> exact(0.0), exact(-2.0), exact(0.5), exact(1 / 48)
    (0, -2, 0.500000, 0.0208333)
    """
    if isinstance(value, float) and math.isfinite(value):
        return sympy.Integer(int(value)) if value == int(value) else sympy.Float(value, 6)
    return value


def _row(k: int, link) -> str:
    q = sympy.Symbol(f"q_{k}")
    theta = q + exact(link.offset) if link.is_revolute else link.theta
    d = q + exact(link.offset) if link.is_prismatic else link.d
    cells = [str(k), "R" if link.is_revolute else "P",
             *(sympy.latex(exact(v)) for v in (theta, d, link.a, link.alpha, link.mass)),
             sympy.latex(sympy.Matrix([[exact(c) for c in link.com]])),
             sympy.latex(sympy.Matrix([[exact(e) for e in row] for row in link.inertia]))]
    return " & ".join(cells)


def arm_table(robot):
    """``robot``'s table (an IPython ``Math`` object): link ``i``, joint type, ``theta``, ``d``,
    ``a``, ``alpha``, mass, centre of mass and inertia tensor about it, both in frame ``i``."""
    from IPython.display import Math
    rows = [_row(k, link) for k, link in enumerate(robot.links, start=1)]
    return Math(r"\begin{array}{" + "c" * len(COLUMNS) + "}" + " & ".join(COLUMNS)
                + r"\\ \hline " + r" \\ ".join(rows) + r"\end{array}")
