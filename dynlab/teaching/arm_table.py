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
"""

from __future__ import annotations

import math

import sympy


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
