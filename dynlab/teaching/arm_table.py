r"""An arm's DH and inertial table as a book prints it: one row per link, the joint variable in the
row of its joint, the centre of mass ``r`` (in the link's frame) as a row and the inertia tensor
about it as a matrix, whole numbers written exactly (``0``, not ``0.0``).

>>> from dynlab.model.robots import pendulum
>>> table = arm_table(pendulum(symbolic=True))
>>> print(table.data.split(r"\hline ")[1])  # doctest: +NORMALIZE_WHITESPACE
1 & R & q_{1} & 0 & a_{1} & 0 & m_{1} & \left[\begin{matrix}- \frac{a_{1}}{2} & 0 & 0\end{matrix}\right]
  & \left[\begin{matrix}0 & 0 & 0\\0 & \frac{a_{1}^{2} m_{1}}{12} & 0\\0 & 0 & \frac{a_{1}^{2} m_{1}}{12}\end{matrix}\right]\end{array}
>>> print(arm_table(pendulum()).data.split(r"\hline ")[1])  # doctest: +NORMALIZE_WHITESPACE
1 & R & q_{1} & 0 & 0.5 & 0 & 1 & \left[\begin{matrix}-0.25 & 0 & 0\end{matrix}\right]
  & \left[\begin{matrix}0 & 0 & 0\\0 & 0.0208333 & 0\\0 & 0 & 0.0208333\end{matrix}\right]\end{array}

:func:`dh_tables_side_by_side` sets two DH tables of one arm next to each other.
"""

from __future__ import annotations

import math

import sympy

from dynlab.model.display import table_markdown
from dynlab.model.robot import table_entry


def exact(value):
    """A whole-number float as an exact integer, any other float to 6 significant digits (a
    table's precision), anything else unchanged.

    >>> exact(0.0), exact(-2.0), exact(0.5), exact(1 / 48)
    (0, -2, 0.500000, 0.0208333)
    """
    if isinstance(value, float) and math.isfinite(value):
        return sympy.Integer(int(value)) if value == int(value) else sympy.Float(value, 6)
    return value


def arm_table(robot):
    """``robot``'s table (:meth:`dynlab.model.robot.Robot.table_latex`, an IPython ``Math`` object),
    each number written by :func:`exact`."""
    from IPython.display import Math
    return Math(robot.table_latex(number=exact))


def dh_tables_side_by_side(first, second, names=("first", "second"), digits: int = 6):
    r"""Two DH tables of one arm, row by row (a Markdown table, IPython ``Markdown``):
    ``theta_i``, ``d_i``, ``a_i`` and ``alpha_i`` of each, in one column headed "both" where
    the two agree on every row, in a column each (headed by ``names``) where they do not.
    The joint variable stands in its row, angles that are multiples of pi/12 are exact and
    other numbers are rounded to ``digits`` significant digits (:func:`table_entry`).

    >>> from dynlab import Link, Robot
    >>> up = Robot([Link("R", a=1.0, alpha=math.pi / 2)])
    >>> down = Robot([Link("R", a=1.0, alpha=-math.pi / 2, offset=math.pi)])
    >>> table = dh_tables_side_by_side(up, down, ("up", "down"))
    >>> print(table.data)  # doctest: +NORMALIZE_WHITESPACE
    | $i$ | $\theta_i$, up | $\theta_i$, down | $d_i$ (both) | $a_i$ (both) | $\alpha_i$, up
      | $\alpha_i$, down |
    |---|---|---|---|---|---|---|
    | 1 | $q_{1}$ | $q_{1} + \pi$ | $0$ | $1$ | $\frac{\pi}{2}$ | $- \frac{\pi}{2}$ |
    """
    from IPython.display import Markdown
    if first.n != second.n:
        raise ValueError(f"dh_tables_side_by_side: {first.name} has {first.n} joints and "
                         f"{second.name} {second.n}; the tables of one arm have as many rows")
    if isinstance(names, str) or len(names) != 2 or not all(isinstance(x, str) for x in names):
        raise TypeError(f"dh_tables_side_by_side: names must be two strings, got {names!r}")

    def columns(robot):                       # theta, d, a, alpha per row, as LaTeX
        rows = []
        for k, link in enumerate(robot.links, start=1):
            entry = [table_entry(v, digits) for v in (link.theta, link.d, link.a, link.alpha)]
            variable = sympy.Symbol(f"q_{k}") + table_entry(link.offset, digits)
            entry[0 if link.is_revolute else 1] = variable
            rows.append([f"${sympy.latex(v)}$" for v in entry])
        return rows

    one, other = columns(first), columns(second)
    header, cells = ["$i$"], [[str(k)] for k in range(1, first.n + 1)]
    for c, letter in enumerate((r"\theta_i", "d_i", "a_i", r"\alpha_i")):
        if all(a[c] == b[c] for a, b in zip(one, other)):
            header.append(f"${letter}$ (both)")
            for row, a in zip(cells, one):
                row.append(a[c])
        else:
            header += [f"${letter}$, {names[0]}", f"${letter}$, {names[1]}"]
            for row, a, b in zip(cells, one, other):
                row += [a[c], b[c]]
    return Markdown(table_markdown(header, cells))
