r"""An arm's DH and inertial table as a book prints it (:func:`arm_table`), and two DH tables of
one arm side by side (:func:`dh_tables_side_by_side`).

>>> from dynlab.model.robots import pendulum
>>> print(arm_table(pendulum()).data.split(r"\hline ")[1])  # doctest: +NORMALIZE_WHITESPACE
1 & R & q_{1} & 0 & 0.5 & 0 & 1 & \left[\begin{matrix}-0.25 & 0 & 0\end{matrix}\right]
  & \left[\begin{matrix}0 & 0 & 0\\0 & 0.0208333 & 0\\0 & 0 &
  0.0208333\end{matrix}\right]\end{array}
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
    r"""Two DH tables of one arm as Markdown: each of ``theta_i``, ``d_i``, ``a_i``, ``alpha_i`` in
    one column "both" where they agree, else a column each (headed by ``names``).

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
