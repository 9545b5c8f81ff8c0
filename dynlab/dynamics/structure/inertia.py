"""The inertia matrix of Tourassis & Neuman (1985): its properties (Sec. 2.1), the joints its
entries depend on (Table 1), and the matrix from its physical ingredients, Eqs. (17)-(22) (masses
moved, joint axes, centres of mass, projected inertias), also row by row in the joint frames
(Appendix A).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import sympy

from dynlab.model import vectors as V
from dynlab.model.kinematics import chain, link_offset_in_own_frame, resolve
from dynlab.model.robot import Robot

#: Relative tolerance of the numeric checks.
TOLERANCE = 1e-9


# ==============================================================================================
# Tourassis & Neuman, Sec. 2.1 and Table 1: the inertia matrix
# ==============================================================================================
@dataclass(frozen=True)
class InertiaMatrixCheck:
    """The three properties of Tourassis & Neuman, Sec. 2.1 (Table 1, first panel) at one
    configuration."""

    symmetric: bool            # d_ij = d_ji
    positive_definite: bool    # the kinetic energy (7) is positive for every qd != 0
    cauchy: bool               # d_ij^2 < d_ii d_jj for all i != j
    smallest_eigenvalue: float
    largest_coupling: float    # max over i != j of k_ij = |d_ij| / sqrt(d_ii d_jj), Eq. (32)

    def __bool__(self) -> bool:
        return self.symmetric and self.positive_definite and self.cauchy


def numeric_matrix(D, name: str = "D") -> np.ndarray:
    """``D`` as a square float array of finite numbers, or an error naming ``name``."""
    if isinstance(D, sympy.MatrixBase):
        if D.free_symbols:
            raise TypeError(f"{name} is symbolic: evaluate it at a state first, e.g. "
                            f"equations_of_motion(robot, q, qd).D")
        D = np.array(D, dtype=float)
    D = np.asarray(D, dtype=float)
    if D.ndim != 2 or D.shape[0] != D.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {D.shape}")
    if not np.isfinite(D).all():
        raise ValueError(f"{name} has non-finite entries")
    return D


def check_inertia_matrix(D, tolerance: float = TOLERANCE) -> InertiaMatrixCheck:
    """Symmetry, positive definiteness and ``d_ij^2 < d_ii d_jj`` (Tourassis & Neuman, Sec. 2.1,
    properties 1-3; the scan prints the inequality as ``d_ii^2 < d_ii d_ii``) of a numeric inertia
    matrix.

    >>> check = check_inertia_matrix([[2.0, 1.0], [1.0, 1.0]])
    >>> bool(check), round(check.largest_coupling, 4)
    (True, 0.7071)
    >>> bool(check_inertia_matrix([[1.0, 1.0], [1.0, 1.0]]))     # singular: k_12 = 1
    False
    """
    D = numeric_matrix(D)
    scale = max(1.0, float(np.abs(D).max(initial=0.0)))
    symmetric = bool(np.allclose(D, D.T, rtol=tolerance, atol=tolerance * scale))
    eigenvalues = np.linalg.eigvalsh((D + D.T) / 2)
    smallest = float(eigenvalues[0]) if len(eigenvalues) else math.inf
    positive = smallest > tolerance * scale
    diagonal = np.diag(D)
    off = ~np.eye(len(D), dtype=bool)
    products = np.outer(diagonal, diagonal)
    cauchy = bool(np.all(D[off] ** 2 < products[off] * (1 - tolerance))) and bool(
        np.all(diagonal > 0))
    with np.errstate(divide="ignore", invalid="ignore"):
        k = np.abs(D) / np.sqrt(np.abs(products))
    largest = float(np.max(k[off], initial=0.0)) if len(D) > 1 else 0.0
    return InertiaMatrixCheck(symmetric, bool(positive), cauchy, smallest, largest)


def table1_dependence(joint_types: Sequence[str], i: int, j: int) -> frozenset:
    """The joints on which ``d_ij`` may depend, by Tourassis & Neuman, Table 1 (Eqs. (25)-(31)):
    ``d_ii``: ``q_{i+1} .. q_N`` (none for a prismatic joint); ``j > i``: P-P ``q_{i+1} ..
    q_{j-1}``, P-R and R-R ``q_{i+1} .. q_N``, R-P the same without ``q_j``.

    >>> sorted(table1_dependence(("revolute", "revolute", "prismatic"), 1, 3))
    [2]
    >>> sorted(table1_dependence(("prismatic", "revolute", "revolute"), 1, 1))
    []
    """
    n = len(joint_types)
    if not (1 <= i <= n and 1 <= j <= n):
        raise ValueError(f"table1_dependence: indices must be 1..{n}, got ({i}, {j})")
    i, j = min(i, j), max(i, j)
    translational = [t == "prismatic" for t in joint_types]
    ti, tj = translational[i - 1], translational[j - 1]
    outer = set(range(i + 1, n + 1))
    if i == j:
        return frozenset() if ti else frozenset(outer)
    if ti and tj:
        return frozenset(range(i + 1, j))
    if not ti and tj:
        return frozenset(outer - {j})
    return frozenset(outer)


# ==============================================================================================
# Tourassis & Neuman, Eqs. (17)-(22): the inertial coefficients from their physical ingredients
# ==============================================================================================
@dataclass
class InertialIngredients:
    """Tourassis & Neuman's Eqs. (18)-(21) at one configuration (base coordinates, 0-based):
    ``mass_moved[j]`` (``M_j``), ``axes[j]`` (``z_{j-1}``), ``origins[j]``, ``centre[j]`` (of
    links ``j .. N``), ``projected[i][j]`` (``J_ij``)."""

    translational: tuple
    mass_moved: np.ndarray
    axes: np.ndarray
    origins: np.ndarray
    centre: np.ndarray
    projected: np.ndarray

    def p(self, frame: int, links_from: int) -> np.ndarray:
        """Position of the centre of mass of links ``links_from .. N`` from the origin of frame
        ``frame - 1`` (0-based ``frame``, ``links_from``): Tourassis & Neuman's ``p_j`` (19),
        ``p_i`` (20)."""
        return self.centre[links_from] - self.origins[frame]

    def radius_of_gyration(self, i: int) -> float:
        """``K_ii`` of Eq. (23)/(29) for a rotational joint: ``sqrt(J_ii / M_i)``."""
        return math.sqrt(self.projected[i, i] / self.mass_moved[i])


def inertial_ingredients(robot: Robot, q: Sequence) -> InertialIngredients:
    """The :class:`InertialIngredients` (Tourassis & Neuman, Eqs. (18)-(21)); a rigid link's
    projected inertia is ``m_k (z_{i-1} x r_ik) . (z_{j-1} x r_jk) + z_{i-1} . (R_0k I_k R_0k^T)
    z_{j-1}``."""
    symbolic, backend, (links, *_), vec = resolve(robot, q=q)
    if symbolic:
        raise TypeError(f"{robot.name}: inertial_ingredients is numeric; give numbers for q and "
                        f"the parameters (robot.subs(...))")
    n = len(links)
    rots, origins = chain(links, vec["q"], backend)
    R = [np.array(r) for r in rots]
    o = np.array(origins)
    axes = np.array([R[k][:, 2] for k in range(n)])
    masses = np.array([link.mass for link in links])
    centres = np.array([o[k + 1] + R[k + 1] @ np.array(link.com) for k, link in enumerate(links)])
    tensors = [R[k + 1] @ np.array(link.inertia) @ R[k + 1].T for k, link in enumerate(links)]
    moved = np.array([masses[j:].sum() for j in range(n)])
    centre = np.array([masses[j:] @ centres[j:] / moved[j] if moved[j] > 0 else o[j]
                       for j in range(n)])
    J = np.zeros((n, n))
    for i in range(n):
        for j in range(i, n):
            total = 0.0
            for k in range(j, n):
                a = np.cross(axes[i], centres[k] - o[i])
                b = np.cross(axes[j], centres[k] - o[j])
                total += masses[k] * a @ b + axes[i] @ tensors[k] @ axes[j]
            J[i, j] = J[j, i] = total
    return InertialIngredients(tuple(not link.revolute for link in links), moved, axes, o[:n],
                               centre, J)


def inertia_matrix_22(robot: Robot, q: Sequence) -> np.ndarray:
    """``D`` by Tourassis & Neuman, Eq. (22) ((23) on the diagonal), term by term:
    ``d_ij = M_j {s_i s_j (z_{i-1} . z_{j-1}) + s_i s*_j (z_{i-1} x z_{j-1}) . p_j
    + s*_i s_j (z_{j-1} x z_{i-1}) . p_i} + s*_i s*_j J_ij`` (``s`` 1 for a prismatic joint).

    >>> from dynlab.model.robots import scara
    >>> import numpy as np
    >>> from dynlab import equations_of_motion
    >>> arm, q = scara(), [0.3, -0.5, 0.1]
    >>> bool(np.allclose(inertia_matrix_22(arm, q), equations_of_motion(arm, q, [0.0] * 3).D))
    True
    """
    ing = inertial_ingredients(robot, q)
    n = len(ing.translational)
    D = np.zeros((n, n))
    for i in range(n):
        for j in range(i, n):
            si, sj = ing.translational[i], ing.translational[j]
            zi, zj = ing.axes[i], ing.axes[j]
            if si and sj:
                value = ing.mass_moved[j] * (zi @ zj)                           # (26), (25)
            elif si:
                value = ing.mass_moved[j] * np.cross(zi, zj) @ ing.p(j, j)       # (27)
            elif sj:
                value = ing.mass_moved[j] * np.cross(zj, zi) @ ing.p(i, j)       # (30)
            else:
                value = ing.projected[i, j]                                      # (31), (29)
            D[i, j] = D[j, i] = value
    return D


def inertia_matrix_in_joint_frames(links, q, backend=V.NUMERIC):
    """``D(q)`` with row ``i`` in frame ``i``'s coordinates (Tourassis & Neuman, App. A): ``d_ij =
    sum_{k >= j} m_k v_ik . v_jk + w_i . I_k w_j`` (Eqs. (5), (15), (16)), walking only links
    ``i+1 .. N``, so ``d_ij`` depends on ``q_{i+1} .. q_N`` alone (Table 1); any backend.

    >>> from dynlab.model.robots import puma560
    >>> from dynlab import equations_of_motion
    >>> arm, q = puma560(), [0.1, 0.2, -0.3, 0.4, 0.5, 0.6]
    >>> D = np.array(inertia_matrix_in_joint_frames(arm.numeric()[0], q))
    >>> bool(np.allclose(D, equations_of_motion(arm, q, [0.0] * 6).D))
    True
    """
    n = len(links)
    D = [[0] * n for _ in range(n)]
    for i in range(n):  # 0-based joint i (Tourassis & Neuman's i + 1)
        link_i = links[i]
        rots, origins = chain(links[i + 1:], q[i + 1:], backend)     # frames i .. n in frame i
        axis_i = (0, link_i.sin_alpha, link_i.cos_alpha)
        origin_i = V.scale(-1, link_offset_in_own_frame(link_i, q[i]))
        axes = [axis_i] + [(r[0][2], r[1][2], r[2][2]) for r in rots[:-1]]
        starts = [origin_i] + list(origins[:-1])          # o_{j-1} for j = i .. n
        for k in range(i, n):                             # link k: rots[k - i], origins[k - i]
            R, o = rots[k - i], origins[k - i]
            link = links[k]
            centre = V.add(o, V.matvec(R, link.com))
            columns = []
            for j in range(i, k + 1):
                z = axes[j - i]
                if links[j].revolute:
                    columns.append((V.cross(z, V.sub(centre, starts[j - i])), V.tmatvec(R, z)))
                else:
                    columns.append((z, None))
            vi, wi = columns[0]
            for j in range(i, k + 1):
                vj, wj = columns[j - i]
                term = link.mass * V.dot(vi, vj)
                if wi is not None and wj is not None:
                    term = term + V.dot(wi, V.matvec(link.inertia, wj))
                D[i][j] = D[i][j] + term
        for j in range(i + 1, n):
            D[j][i] = D[i][j]
    return D
