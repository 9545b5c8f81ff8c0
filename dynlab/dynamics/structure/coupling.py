"""Tourassis & Neuman (1985), Eqs. (32)-(35): the coefficient of coupling ``k_ij`` of two joints'
inertias, the product of a loading factor (the masses) and a kinematic factor (the geometry).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from dynlab.dynamics.structure.inertia import (
    InertialIngredients,
    inertia_matrix_22,
    inertial_ingredients,
    numeric_matrix,
)
from dynlab.model.robot import Robot


# ==============================================================================================
# Tourassis & Neuman, Eqs. (32)-(35): the coefficient of coupling
# ==============================================================================================
@dataclass
class Coupling:
    """Coefficients of coupling ``k`` (32), loading factors (34) and kinematic factors (35),
    as symmetric n x n arrays (diagonal 1: (32) with ``i = j``); ``k = loading * kinematic``
    (33).  ``nan`` where a factor is undefined (no mass moved by a joint)."""

    k: np.ndarray
    loading: np.ndarray
    kinematic: np.ndarray


def coupling_coefficients(D) -> np.ndarray:
    """``k_ij = |d_ij| / (d_ii d_jj)^(1/2)`` (Tourassis & Neuman, Eq. (32)) of a numeric inertia
    matrix.

    >>> coupling_coefficients([[4.0, -1.0], [-1.0, 1.0]]).tolist()
    [[1.0, 0.5], [0.5, 1.0]]
    """
    D = numeric_matrix(D)
    diagonal = np.diag(D)
    if np.any(diagonal <= 0):
        raise ValueError(f"coupling_coefficients: the self-inertial coefficients must be "
                         f"positive, got {diagonal.tolist()}")
    return np.abs(D) / np.sqrt(np.outer(diagonal, diagonal))


def loading_factors(robot: Robot) -> np.ndarray:
    """``LF = ((m_j + ... + m_N) / (m_i + ... + m_N))^(1/2)`` for ``j > i`` (Tourassis & Neuman, Eq.
    (34)), symmetric; it needs only the masses (numeric).

    >>> from dynlab.model.robots import cylindrical
    >>> loading_factors(cylindrical(symbolic=False)).round(4).tolist()[0]  # sqrt(15/35), ...
    [1.0, 0.6547, 0.378]
    """
    links = robot.numeric()[0] if not robot.is_symbolic else None
    if links is None:
        raise TypeError(f"{robot.name}: loading_factors needs numeric masses")
    masses = np.array([link.mass for link in links])
    moved = np.array([masses[j:].sum() for j in range(len(masses))])
    n = len(masses)
    LF = np.ones((n, n))
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(n):
            for j in range(i + 1, n):
                LF[i, j] = LF[j, i] = math.sqrt(moved[j] / moved[i]) if moved[i] > 0 else math.nan
    return LF


def kinematic_factors(robot: Robot, q: Sequence) -> np.ndarray:
    """``KF`` of Tourassis & Neuman, Eq. (35), from the geometry, for ``j > i``:
    ``s_i s_j |z_{i-1} . z_{j-1}| + s_i s*_j |(z_{i-1} x z_{j-1}) . p_j| / K_jj + s*_i s_j
    |(z_{j-1} x z_{i-1}) . p_i| / K_ii + s*_i s*_j |K_ij| / (K_ii K_jj)`` (``K_ii`` of (29),
    ``K_ij = J_ij / M_j`` of (21)-(22) with ``M_j`` of links ``j .. N``, not (31)'s ``i .. N``)."""
    ing = inertial_ingredients(robot, q)
    n = len(ing.translational)
    KF = np.ones((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            si, sj = ing.translational[i], ing.translational[j]
            zi, zj = ing.axes[i], ing.axes[j]
            with np.errstate(divide="ignore", invalid="ignore"):
                if si and sj:
                    value = abs(zi @ zj)
                elif si:
                    value = abs(np.cross(zi, zj) @ ing.p(j, j)) / _gyration(ing, j)
                elif sj:
                    value = abs(np.cross(zj, zi) @ ing.p(i, j)) / _gyration(ing, i)
                else:
                    value = abs(ing.projected[i, j] / ing.mass_moved[j]) / (
                        _gyration(ing, i) * _gyration(ing, j))
            KF[i, j] = KF[j, i] = value
    return KF


def _gyration(ing: InertialIngredients, i: int) -> float:
    if ing.mass_moved[i] <= 0 or ing.projected[i, i] <= 0:
        return math.nan
    return ing.radius_of_gyration(i)


def coupling(robot: Robot, q: Sequence) -> Coupling:
    """``k_ij`` (32) with its loading (34) and kinematic (35) factors at ``q`` (numeric).

    >>> from dynlab.model.robots import articulated
    >>> c = coupling(articulated(symbolic=False), [0.0, 0.5, 1.0])
    >>> bool(np.allclose(c.k, c.loading * c.kinematic)), round(float(c.k[1, 2]), 4)
    (True, 0.6549)
    """
    return Coupling(coupling_coefficients(inertia_matrix_22(robot, q)), loading_factors(robot),
                    kinematic_factors(robot, q))
