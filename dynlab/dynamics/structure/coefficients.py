"""Tourassis & Neuman (1985): the centrifugal and Coriolis coefficients ``c_jm(i)`` (Eq. (12)),
their simplified forms (36)-(37) and properties (38)-(39), and the gravitational coefficients
(40) with their Denavit-Hartenberg form (Appendix B).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import sympy

from dynlab.dynamics.structure.inertia import inertial_ingredients
from dynlab.model.kinematics import chain, resolve
from dynlab.model.robot import Robot
from dynlab.model.symbolic import compact


# ==============================================================================================
# Tourassis & Neuman, Eqs. (12), (36)-(39): centrifugal and Coriolis coefficients
# ==============================================================================================
def _christoffel_array(Gamma):
    """``Gamma`` as ``Gamma[i][j][k]`` indexable: a numeric array, or nested SymPy."""
    if isinstance(Gamma, np.ndarray):
        return Gamma
    if isinstance(Gamma, (list, tuple)) and Gamma and isinstance(Gamma[0], sympy.MatrixBase):
        return [[[M[j, k] for k in range(M.cols)] for j in range(M.rows)] for M in Gamma]
    return np.asarray(Gamma, dtype=float)


def coriolis_coefficient(Gamma, j: int, m: int, i: int):
    """Tourassis & Neuman's ``c_jm(i)`` (Eq. (12); centrifugal for ``j = m``) with Tourassis &
    Neuman's 1-based indices, read from dynlab's Christoffel symbols: ``c_jm(i) =
    Gamma[i-1][j-1][m-1]``.

    >>> from dynlab import equations_of_motion
    >>> from dynlab.model.robots import planar_2r
    >>> eom = equations_of_motion(planar_2r("fu", symbolic=True), variant="christoffel")
    >>> coriolis_coefficient(eom.terms["Gamma"], 2, 2, 1)        # c_22(1) = -m2 l^2 S2 / 2
    -l**2*m2*sin(q2)/2
    """
    G = _christoffel_array(Gamma)
    n = len(G)
    if not all(isinstance(x, int) and 1 <= x <= n for x in (j, m, i)):
        raise ValueError(f"coriolis_coefficient: indices j, m, i must be 1..{n}, "
                         f"got {(j, m, i)}")
    value = G[i - 1][j - 1][m - 1]
    if isinstance(value, sympy.Basic):
        return compact(value)
    return value


def simplified_christoffel_symbols(dD_dq) -> np.ndarray:
    """``c[i][j][m]`` by Tourassis & Neuman's simplified forms from numeric ``dD_dq``: (36)
    ``c_jj(i) = -(1/2) dd_jj/dq_i`` (i > j), 0 (i = j), ``dd_ij/dq_j`` (i < j); (37), ``j != m``:
    ``(1/2)(dd_ij/dq_m - dd_jm/dq_i)`` for ``j`` smallest and ``j <= i``,
    ``(1/2)(dd_im/dq_j - dd_jm/dq_i)`` for ``m`` smallest and ``m <= i``,
    ``(1/2)(dd_ij/dq_m + dd_im/dq_j)`` for ``i < j, m`` (ties with ``i`` go to the first two)."""
    d = np.asarray(dD_dq, dtype=float)
    n = d.shape[0]
    c = np.zeros((n, n, n))
    for i, j, m in itertools.product(range(n), repeat=3):
        if j == m:
            c[i, j, m] = -d[j, j, i] / 2 if i > j else (d[i, j, j] if i < j else 0.0)
        elif j < m and j <= i:
            c[i, j, m] = (d[i, j, m] - d[j, m, i]) / 2
        elif m < j and m <= i:
            c[i, j, m] = (d[i, m, j] - d[j, m, i]) / 2
        else:                                               # i < j and i < m
            c[i, j, m] = (d[i, j, m] + d[i, m, j]) / 2
    return c


def non_interacting_residual(Gamma) -> float:
    """``max |c_ji(i)|`` over ``j <= i`` (Tourassis & Neuman, Eq. (38): zero; no Coriolis force on a
    link from its own velocity coupled with an inner link's).  Numeric ``Gamma``."""
    G = np.asarray(_christoffel_array(Gamma), dtype=float)
    n = len(G)
    return max((abs(G[i, j, i]) for i in range(n) for j in range(i + 1)), default=0.0)


def reflective_coupling_residual(Gamma) -> float:
    """``max |c_jm(i) + c_ji(m)|`` over ``j <= i, m`` (Tourassis & Neuman, Eq. (39): zero; the
    Coriolis coefficient of link ``i`` from links ``j``, ``m`` is minus that of link ``m`` from
    ``j``, ``i``).  Numeric ``Gamma``."""
    G = np.asarray(_christoffel_array(Gamma), dtype=float)
    n = len(G)
    return max((abs(G[i, j, m] + G[m, j, i]) for i in range(n) for m in range(n)
                for j in range(min(i, m) + 1)), default=0.0)


# ==============================================================================================
# Tourassis & Neuman, Eq. (40) and Appendix B: gravitational coefficients
# ==============================================================================================
def gravity_coefficients(robot: Robot, q: Sequence) -> np.ndarray:
    """``G_i = -M_i { s_i (g . z_{i-1}) + s*_i g . (z_{i-1} x p_i) }`` (Tourassis & Neuman, Eq.
    (40), sign corrected, see :mod:`dynlab.dynamics.structure`); ``p_i`` is the centre of mass of
    links ``i .. N`` from the origin of frame ``i-1``.  Equals dynlab's gravity vector ``c``.

    >>> from dynlab.model.robots import cylindrical
    >>> gravity_coefficients(cylindrical(symbolic=False), [0.2, 0.3, 0.1]).round(4).tolist()
    [0.0, 147.093, 0.0]
    """
    ing = inertial_ingredients(robot, q)
    g = np.array(robot.numeric()[1])
    n = len(ing.translational)
    G = np.zeros(n)
    for i in range(n):
        z = ing.axes[i]
        work = g @ z if ing.translational[i] else g @ np.cross(z, ing.p(i, i))
        G[i] = -ing.mass_moved[i] * work + 0.0         # + 0.0: no -0.0 where g does no work
    return G


def gravity_coefficients_dh(robot: Robot, q: Sequence) -> np.ndarray:
    """Tourassis & Neuman, Eq. (B-3), sign corrected, in frame ``i-1``: with ``(n, o, a)`` the axes
    of ``A_0^{i-1}`` and ``(x_i, y_i)`` the centre of mass of links ``i .. N`` there (the paper's
    (B-2) says "of link i"), ``G_i = -M_i { s_i (g . a) + s*_i [x_i (g . o) - y_i (g . n)] }``."""
    symbolic, backend, (links, gravity, *_), vec = resolve(robot, q=q)
    if symbolic:
        raise TypeError(f"{robot.name}: gravity_coefficients_dh is numeric")
    rots, origins = chain(links, vec["q"], backend)
    ing = inertial_ingredients(robot, q)
    g = np.array(gravity)
    G = np.zeros(len(links))
    for i, link in enumerate(links):
        R = np.array(rots[i])                      # A_0^{i-1}: columns n, o, a
        n_, o_, a_ = R[:, 0], R[:, 1], R[:, 2]
        x, y, _ = R.T @ (ing.centre[i] - np.array(origins[i]))      # (B-2): frame i-1
        work = g @ a_ if not link.revolute else x * (g @ o_) - y * (g @ n_)
        G[i] = -ing.mass_moved[i] * work + 0.0
    return G
