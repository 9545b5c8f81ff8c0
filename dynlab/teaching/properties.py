"""The structure of the dynamic model: Tourassis & Neuman (Tourassis & Neuman) and Lynch & Park (2017), Prop. 8.1 and Sec. 8.6.

Tourassis & Neuman reads the Lagrangian model (its Eq. (11), in Fu, Gonzalez & Lee's letters ``tau = D qdd + h + c``)

    sum_j d_ij qdd_j + sum_j sum_m qd_j c_jm(i) qd_m + G_i = F_i

through its inertia matrix ``D = [d_ij]``: the centrifugal and Coriolis coefficients are the
Christoffel symbols of ``D`` (Eq. (12)) and inherit its structure.  This module turns the paper
into tools for any dynlab arm:

* the inertia matrix: symmetric, positive definite, ``d_ij^2 < d_ii d_jj`` (Tourassis & Neuman, Sec. 2.1),
  the functional dependence of its entries on the joint types (Table 1), and the explicit
  formula (22) for ``d_ij`` from masses moved, joint axes, centres of mass and projected inertias;
* the coefficient of coupling ``k_ij`` (32) = loading factor (34) x kinematic factor (35);
* the centrifugal and Coriolis coefficients ``c_jm(i)`` (12), their simplified forms (36)-(37)
  and the non-interacting (38) and reflective-coupling (39) properties;
* the gravitational coefficients (40) and their Denavit-Hartenberg form (B-3);
* the counts of independent coefficients (Table 2), of non-zero and of constant ones and the
  sparsity measure (Table 3), decided exactly;
* passivity, ``Ddot - 2C`` skew-symmetric (Lynch & Park, Prop. 8.1), and the task-space inertia
  ``Lambda = J^-T D J^-1`` with its bias ``eta`` (Lynch & Park, Sec. 8.6 (draft Eqs. (9.97)-(9.99)));
* a slider dashboard for Tourassis & Neuman, Sec. 6's design guidelines (:func:`structure_dashboard`).

Index convention.  dynlab's Christoffel variant returns ``Gamma[i][j][k] = (1/2)(dD_ij/dq_k +
dD_ik/dq_j - dD_jk/dq_i)`` (Lynch & Park, Sec. 8.1 (draft Eq. (9.13))); Tourassis & Neuman's Eq. (12) is ``c_jm(i) = (1/2)(dd_ij/dq_m +
dd_im/dq_j - dd_jm/dq_i)`` (the scan prints ``dd_ii/dq_m`` for the first term).  So
``c_jm(i) = Gamma[i-1][j-1][m-1]``: the *link* index ``i`` in parentheses comes first in dynlab.
:func:`coriolis_coefficient` reads it off with Tourassis & Neuman's 1-based indices.

Sign of gravity.  Tourassis & Neuman writes ``G_i = -dV/dq_i`` (13) after Lagrange's equation with
``-dV/dq_i`` (10), hence (40) without a minus sign; Lagrange's equation has ``+dV/dq_i``
(``V`` of (8) is the potential energy), so ``G_i = +dV/dq_i`` and (40), (B-3), (B-4) carry a
minus sign (with (40) as printed a vertical slide would be held up by pushing it down).  The
zero and constant gravitational coefficients, all that Sec. 6 uses, are unaffected.

Where Tourassis & Neuman differs from the derivation (the errata, argued where they are used):

* (21), (31): ``J_ij = (m_i + ... + m_N) K_ij``; the sum (21) runs over links ``j .. N``, so
  ``J_ij = (m_j + ... + m_N) K_ij``, and only then is ``k_ij = LF x KF`` (33)-(35) true
  (:func:`kinematic_factors`).
* Sec. 3.5: "the kinematic factor (0 <= KF <= 1)": ``k_ij < 1`` bounds ``KF`` by ``1 / LF``
  only; a heavy inner link with little inertia about its axis gives ``KF > 1``
  (``tests/test_properties.py`` has one).
* (B-2): ``x_i, y_i`` are the centre of mass of links ``i .. N`` in frame ``i-1`` (the ``p_i``
  of (40)), not "of link i in its own frame" (:func:`gravity_coefficients_dh`).
* Table 3: the articulated arm's Coriolis count 2 is 1 (``c12(3) = -c13(2)`` vanishes for any
  mass distribution when ``z1 || z2``), the Stanford arm's constant self-inertial count (1) is
  (2) (``d33``, Eq. (25), and ``d66``), and the PUMA's ``d_ij`` 14 with ``c_jj(i)`` 30
  contradicts (36), since ``c_jj(i) = dd_ij/dq_j`` for ``i < j`` vanishes with ``d_ij``
  (notebook 06 regenerates the table).

>>> from dynlab.model.robots import cylindrical
>>> structure = model_structure(cylindrical(inertia="axial"))
>>> structure.row()
{'d_ii': (3, 2), 'd_ij': (0, 0), 'c_jj(i)': (1, 0), 'c_jm(i)': (0, 0), 'G_i': (1, 1), 'total': 5}
>>> round(structure.sparsity, 3)                 # Tourassis & Neuman, Table 3: 5 of 17, 0.294
0.294
"""

from __future__ import annotations

import io
import itertools
import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
import sympy
from sympy.polys.rings import ring as polynomial_ring

from dynlab.model import jets
from dynlab.model import vectors as V
from dynlab.dynamics.inverse import equations_of_motion
from dynlab.model.kinematics import chain, chain_tool_jacobian, link_offset_in_own_frame, resolve
from dynlab.model.robot import Robot, joint_symbols
from dynlab.model.robots import TOURASSIS_NEUMAN_ARMS
from dynlab.model.symbolic import compact
from dynlab.teaching.widgets import Parameter, degrees, format_value, round_significant, with_mass
from dynlab.teaching.widgets import slider as labelled_slider

#: Relative tolerance of the numeric checks.
TOLERANCE = 1e-9


# ==============================================================================================
# Tourassis & Neuman, Sec. 2.1 and Table 1: the inertia matrix
# ==============================================================================================
@dataclass(frozen=True)
class InertiaMatrixCheck:
    """The three properties of Tourassis & Neuman, Sec. 2.1 (Table 1, first panel) at one configuration."""

    symmetric: bool            # d_ij = d_ji
    positive_definite: bool    # the kinetic energy (7) is positive for every qd != 0
    cauchy: bool               # d_ij^2 < d_ii d_jj for all i != j
    smallest_eigenvalue: float
    largest_coupling: float    # max over i != j of k_ij = |d_ij| / sqrt(d_ii d_jj), Eq. (32)

    def __bool__(self) -> bool:
        return self.symmetric and self.positive_definite and self.cauchy


def _numeric_matrix(D, name: str = "D") -> np.ndarray:
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
    """Symmetry, positive definiteness and ``d_ij^2 < d_ii d_jj`` (Tourassis & Neuman, Sec. 2.1, properties
    1-3; the scan prints the inequality as ``d_ii^2 < d_ii d_ii``) of a numeric inertia matrix.

    >>> check = check_inertia_matrix([[2.0, 1.0], [1.0, 1.0]])
    >>> bool(check), round(check.largest_coupling, 4)
    (True, 0.7071)
    >>> bool(check_inertia_matrix([[1.0, 1.0], [1.0, 1.0]]))     # singular: k_12 = 1
    False
    """
    D = _numeric_matrix(D)
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
    """The joints (1-based) on which ``d_ij`` may depend, by Tourassis & Neuman, Table 1 (Eqs. (25)-(31)).

    ``d_ii``: ``q_{i+1} .. q_N`` (none for a translational joint, Eq. (25)).  For ``j > i``:
    translational-translational ``q_{i+1} .. q_{j-1}`` (26); translational-rotational and
    rotational-rotational ``q_{i+1} .. q_N`` (27), (31); rotational-translational
    ``q_{i+1} .. q_N`` without ``q_j`` (30).  ``joint_types`` as ``Robot.joint_types``.

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
    """The quantities of Tourassis & Neuman, Eqs. (18)-(21) at one configuration (numeric, base coordinates).

    ``mass_moved[j]`` is ``M_j = m_j + ... + m_N`` (18); ``axes[j]`` is ``z_{j-1}``;
    ``origins[j]`` is the origin of frame ``j-1``; ``centre[j]`` the centre of mass of links
    ``j .. N``; ``projected[i][j]`` is ``J_ij``, the projected inertia (21) of links
    ``max(i, j) .. N`` about the axes ``z_{i-1}`` and ``z_{j-1}`` (0-based indices).
    """

    translational: tuple
    mass_moved: np.ndarray
    axes: np.ndarray
    origins: np.ndarray
    centre: np.ndarray
    projected: np.ndarray

    def p(self, frame: int, links_from: int) -> np.ndarray:
        """Position of the centre of mass of links ``links_from .. N`` from the origin of frame
        ``frame - 1`` (0-based ``frame``, ``links_from``): Tourassis & Neuman's ``p_j`` (19), ``p_i`` (20)."""
        return self.centre[links_from] - self.origins[frame]

    def radius_of_gyration(self, i: int) -> float:
        """``K_ii`` of Eq. (23)/(29) for a rotational joint: ``sqrt(J_ii / M_i)``."""
        return math.sqrt(self.projected[i, i] / self.mass_moved[i])


def inertial_ingredients(robot: Robot, q: Sequence) -> InertialIngredients:
    """Masses moved, joint axes, centres of mass and projected inertias (Tourassis & Neuman, Eqs. (18)-(21)).

    The projected inertia of a rigid link ``k`` about ``z_{i-1}`` and ``z_{j-1}`` splits, as the
    point-mass sum of (21) does, into its centre of mass and its inertia tensor ``I_k`` about it:
    ``m_k (z_{i-1} x r_ik) . (z_{j-1} x r_jk) + z_{i-1} . (R_0k I_k R_0k^T) z_{j-1}``, with
    ``r_ik`` the centre of mass seen from the origin of frame ``i-1``.
    """
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
    """``D`` by Tourassis & Neuman, Eq. (22) (with (23) on the diagonal), term by term from the ingredients:

        d_ij = M_j { s_i s_j (z_{i-1} . z_{j-1}) + s_i s*_j (z_{i-1} x z_{j-1}) . p_j
                     + s*_i s_j (z_{j-1} x z_{i-1}) . p_i } + s*_i s*_j J_ij      (j >= i)

    with ``s = sigma`` (1 for a translational joint), ``s* = 1 - sigma``, ``M_j K_ij = J_ij``.
    An independent route to the matrix dynlab's formulations build.

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
    """``D(q)`` with row ``i`` computed in the coordinates of frame ``i`` (Tourassis & Neuman Appendix A: the
    dot and triple products of (17)/(22) are invariant, so a convenient frame may be chosen).

    ``d_ij`` (``j >= i``) is the point-mass sum (5) for rigid links,
    ``sum_{k >= j} m_k v_ik . v_jk + w_i . I_k w_j`` with ``v_jk = z_{j-1} x (c_k - o_{j-1})``,
    ``w_j = z_{j-1}`` (revolute) or ``v_jk = z_{j-1}``, ``w_j = 0`` (prismatic): Tourassis & Neuman's (15)-(16)
    summed over the link's mass.  In frame ``i``, ``z_{i-1} = (0, sin alpha_i, cos alpha_i)``
    and ``o_{i-1} = -(a_i, d_i sin alpha_i, d_i cos alpha_i)`` are constant and only the
    sub-chain ``i+1 .. N`` is walked, so ``d_ij`` comes out as a function of ``q_{i+1} .. q_N``
    alone (Table 1) without the base rotation ever appearing: exact structure decisions on the
    PUMA stay fast.  Generic in the backend (floats, SymPy, polynomial rings).

    >>> from dynlab.model.robots import puma560
    >>> from dynlab import equations_of_motion
    >>> arm, q = puma560(), [0.1, 0.2, -0.3, 0.4, 0.5, 0.6]
    >>> links = arm.numeric()[0]
    >>> D = np.array(inertia_matrix_in_joint_frames(links, q))
    >>> bool(np.allclose(D, equations_of_motion(arm, q, [0.0] * 6).D))
    True
    """
    n = len(links)
    D = [[0] * n for _ in range(n)]
    for i in range(n):                                   # 0-based joint i (Tourassis & Neuman's i + 1)
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
    """``k_ij = |d_ij| / (d_ii d_jj)^(1/2)`` (Tourassis & Neuman, Eq. (32)) of a numeric inertia matrix.

    >>> coupling_coefficients([[4.0, -1.0], [-1.0, 1.0]]).tolist()
    [[1.0, 0.5], [0.5, 1.0]]
    """
    D = _numeric_matrix(D)
    diagonal = np.diag(D)
    if np.any(diagonal <= 0):
        raise ValueError(f"coupling_coefficients: the self-inertial coefficients must be "
                         f"positive, got {diagonal.tolist()}")
    return np.abs(D) / np.sqrt(np.outer(diagonal, diagonal))


def loading_factors(robot: Robot) -> np.ndarray:
    """``LF = ((m_j + ... + m_N) / (m_i + ... + m_N))^(1/2)`` for ``j > i`` (Tourassis & Neuman, Eq. (34)),
    symmetric; it needs only the masses (numeric).

    >>> from dynlab.model.robots import cylindrical
    >>> loading_factors(cylindrical(symbolic=False)).round(4).tolist()[0]   # sqrt(15/35), sqrt(5/35)
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
    """``KF`` of Tourassis & Neuman, Eq. (35), from the geometry (not as ``k / LF``): for ``j > i``

        KF = s_i s_j |z_{i-1} . z_{j-1}| + s_i s*_j |(z_{i-1} x z_{j-1}) . p_j| / K_jj
             + s*_i s_j |(z_{j-1} x z_{i-1}) . p_i| / K_ii + s*_i s*_j |K_ij| / (K_ii K_jj)

    where ``K_ii`` is the radius of gyration of (29) (a length) and ``K_ij = J_ij / M_j`` the
    projected radius of gyration of (21)-(22) (a squared length).  Eq. (31) prints
    ``(m_i + ... + m_N) K_ij``; with (21)-(22)'s ``(m_j + ... + m_N) K_ij`` (links ``j .. N``
    are the ones summed) ``k_ij = LF x KF`` holds, as :func:`coupling` checks.
    """
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
    """Tourassis & Neuman's ``c_jm(i)`` (Eq. (12); centrifugal for ``j = m``) with Tourassis & Neuman's 1-based indices, read
    from dynlab's Christoffel symbols: ``c_jm(i) = Gamma[i-1][j-1][m-1]``.

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
    """``c_jm(i)`` by Tourassis & Neuman's simplified forms (36) (centrifugal) and (37) (Coriolis), which drop
    the derivatives that Table 1 makes zero, from ``dD_dq[i][j][k] = dd_ij/dq_k`` (numeric);
    returns ``c[i][j][m]`` in dynlab's order (compare with ``terms["Gamma"]``).

    (36): ``c_jj(i) = -(1/2) dd_jj/dq_i`` (i > j), ``0`` (i = j), ``dd_ij/dq_j`` (i < j).
    (37), ``j != m``: ``(1/2)(dd_ij/dq_m - dd_jm/dq_i)`` when ``j`` is the smallest of ``j, m``
    and ``j <= i``; ``(1/2)(dd_im/dq_j - dd_jm/dq_i)`` when ``m`` is, with ``m <= i``;
    ``(1/2)(dd_ij/dq_m + dd_im/dq_j)`` when ``i < j, m``.  (Tourassis & Neuman writes "for j < m and i":
    ties with ``i`` belong to the first two cases.)
    """
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
    """``max |c_ji(i)|`` over ``j <= i`` (Tourassis & Neuman, Eq. (38): zero; no Coriolis force on a link from
    its own velocity coupled with an inner link's).  Numeric ``Gamma``."""
    G = np.asarray(_christoffel_array(Gamma), dtype=float)
    n = len(G)
    return max((abs(G[i, j, i]) for i in range(n) for j in range(i + 1)), default=0.0)


def reflective_coupling_residual(Gamma) -> float:
    """``max |c_jm(i) + c_ji(m)|`` over ``j <= i, m`` (Tourassis & Neuman, Eq. (39): zero; the Coriolis
    coefficient of link ``i`` from links ``j``, ``m`` is minus that of link ``m`` from ``j``,
    ``i``).  Numeric ``Gamma``."""
    G = np.asarray(_christoffel_array(Gamma), dtype=float)
    n = len(G)
    return max((abs(G[i, j, m] + G[m, j, i]) for i in range(n) for m in range(n)
                for j in range(min(i, m) + 1)), default=0.0)


# ==============================================================================================
# Tourassis & Neuman, Eq. (40) and Appendix B: gravitational coefficients
# ==============================================================================================
def gravity_coefficients(robot: Robot, q: Sequence) -> np.ndarray:
    """``G_i = -M_i { s_i (g . z_{i-1}) + s*_i g . (z_{i-1} x p_i) }`` (Tourassis & Neuman, Eq. (40), sign
    corrected, see the module docstring); ``p_i`` is the centre of mass of links ``i .. N``
    from the origin of frame ``i-1``.  Equals dynlab's gravity vector ``c``.

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
    """Tourassis & Neuman, Eq. (B-3), sign corrected, in frame ``i-1``'s coordinates: with ``(n, o, a)`` the
    axes of ``A_0^{i-1}`` and ``(x_i, y_i)`` the centre of mass of links ``i .. N`` in frame
    ``i-1`` (Tourassis & Neuman says "of link i in its own frame"; (B-2) needs links ``i .. N`` in frame
    ``i-1``, the ``p_i`` of (40)):

        G_i = -M_i { s_i (g . a) + s*_i [x_i (g . o) - y_i (g . n)] }
    """
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


# ==============================================================================================
# Lynch & Park, Prop. 8.1 (passivity) and Sec. 8.6 (task space)
# ==============================================================================================
def passivity_matrix(eom) -> np.ndarray:
    """``N = Ddot - 2C`` (Lynch & Park, Prop. 8.1) of an evaluated Christoffel-variant result:
    ``Ddot_ij = sum_k dD_ij/dq_k qd_k`` and ``C_ij = sum_k Gamma_ijk qd_k`` (Lynch & Park, Sec. 8.4 (draft Eq. (9.87))).

    >>> from dynlab import equations_of_motion
    >>> from dynlab.model.robots import puma560
    >>> eom = equations_of_motion(puma560(), [0.1, 0.2, -0.3, 0.4, 0.5, 0.6],
    ...                           [1.0, -0.5, 0.3, 0.7, -1.1, 0.2], variant="christoffel")
    >>> N = passivity_matrix(eom)
    >>> bool(np.allclose(N, -N.T)), bool(np.abs(N).max() > 0.01)
    (True, True)
    """
    if getattr(eom, "symbolic", True) or "dD_dq" not in eom.terms or "C" not in eom.terms:
        raise TypeError("passivity_matrix needs an evaluated result of the Christoffel variant: "
                        "equations_of_motion(robot, q, qd, variant='christoffel')")
    qd = np.asarray(eom.state[1], dtype=float)
    Ddot = np.asarray(eom.terms["dD_dq"], dtype=float) @ qd
    return Ddot - 2 * np.asarray(eom.terms["C"], dtype=float)


def passivity_residual(eom) -> float:
    """``max |N + N^T|`` for ``N = Ddot - 2C``: zero when ``N`` is skew-symmetric (Lynch & Park,
    Prop. 8.1)."""
    N = passivity_matrix(eom)
    return float(np.abs(N + N.T).max(initial=0.0))


@dataclass
class TaskSpaceDynamics:
    """Lynch & Park, Sec. 8.6 (draft Eqs. (9.97)-(9.99)): ``F = Lambda Vdot + eta`` with ``Lambda = J^-T D J^-1`` Sec. 8.6 (draft Eq. (9.98))
    and ``eta = J^-T b - Lambda Jdot J^-1 V`` Sec. 8.6 (draft Eq. (9.99)), where ``b = h + c + friction`` and
    ``V = J qd``.  ``J`` is dynlab's tool Jacobian (rows ``rows`` of (linear; angular) in base
    coordinates, Lynch & Park uses the body twist; the relations hold for any ``V = J qd``)."""

    Lambda: np.ndarray
    eta: np.ndarray
    J: np.ndarray
    Jdot: np.ndarray
    rows: tuple


def task_space_dynamics(robot: Robot, q: Sequence, qd: Sequence,
                        rows: Sequence[int] | None = None) -> TaskSpaceDynamics:
    """Task-space inertia and bias at ``(q, qd)`` (Lynch & Park, Sec. 8.6), numeric.

    ``rows`` picks rows of the 6 x n tool Jacobian (0-2 linear, 3-5 angular velocity) so that
    ``J`` is square: by default all six for a six-joint arm and the three linear ones for a
    three-joint arm (the positioning systems of Tourassis & Neuman).  ``Jdot`` is ``sum_k dJ/dq_k qd_k``
    (forward-mode jets through the same Jacobian code).

    >>> from dynlab.model.robots import cartesian
    >>> task = task_space_dynamics(cartesian(symbolic=False), [0.1, 0.2, 0.3], [0.0] * 3)
    >>> np.diag(task.Lambda).round(6).tolist()   # x moves links 2-3, y link 3, z all: 15, 5, 35 kg
    [15.0, 5.0, 35.0]
    """
    symbolic, backend, (links, *_), vec = resolve(robot, q=q, qd=qd)
    if symbolic:
        raise TypeError(f"{robot.name}: task_space_dynamics is numeric")
    n = len(links)
    if rows is None:
        if n == 6:
            rows = tuple(range(6))
        elif n == 3:
            rows = (0, 1, 2)
        else:
            raise ValueError(f"{robot.name}: give rows= (n = {n} of the 6 Jacobian rows) so "
                             f"that J is square")
    rows = tuple(rows)
    if len(rows) != n or len(set(rows)) != n or not all(r in range(6) for r in rows):
        raise ValueError(f"{robot.name}: rows must be {n} distinct indices 0..5, got {rows}")
    q_, qd_ = np.array(vec["q"]), np.array(vec["qd"])
    J_jet = chain_tool_jacobian(links, jets.seed(vec["q"]), jets.lift(V.NUMERIC))
    J = np.array([[jets.value(J_jet[r][c]) for c in range(n)] for r in rows])
    Jdot = np.array([[np.dot(jets.gradient(J_jet[r][c], n), qd_) for c in range(n)]
                     for r in rows])
    if np.linalg.cond(J) > 1e10:
        raise ValueError(f"{robot.name}: the Jacobian is singular at q = {q_.tolist()}; "
                         f"Lambda = J^-T D J^-1 (Lynch & Park, Sec. 8.6 (draft Eq. (9.98))) does not exist there")
    eom = equations_of_motion(robot, q_, qd_)
    J_inv = np.linalg.inv(J)
    Lambda = J_inv.T @ eom.D @ J_inv                                         # Sec. 8.6 (draft Eq. (9.98))
    b = eom.h + eom.c + eom.friction
    eta = J_inv.T @ b - Lambda @ Jdot @ J_inv @ (J @ qd_)                   # Sec. 8.6 (draft Eq. (9.99))
    return TaskSpaceDynamics(Lambda, eta, J, Jdot, rows)


# ==============================================================================================
# Tourassis & Neuman, Tables 2 and 3: counting coefficients
# ==============================================================================================
#: The columns of Tourassis & Neuman, Table 3, in its order.
COLUMNS = ("d_ii", "d_ij", "c_jj(i)", "c_jm(i)", "G_i")


def table2_counts(n: int) -> dict:
    """Independent coefficients of an n-joint model (Tourassis & Neuman, Table 2): ``N``, ``N(N-1)/2``,
    ``N(N-1)``, ``N(N-1)(N-2)/3``, ``N`` and the total ``N(2N^2 + 3N + 7)/6``.

    >>> table2_counts(3), table2_counts(6)["total"]
    ({'d_ii': 3, 'd_ij': 3, 'c_jj(i)': 6, 'c_jm(i)': 2, 'G_i': 3, 'total': 17}, 97)
    """
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"table2_counts: n must be a positive integer, got {n!r}")
    counts = {"d_ii": n, "d_ij": n * (n - 1) // 2, "c_jj(i)": n * (n - 1),
              "c_jm(i)": n * (n - 1) * (n - 2) // 3, "G_i": n}
    counts["total"] = n * (2 * n * n + 3 * n + 7) // 6
    return counts


def independent_coefficients(n: int) -> list:
    """The independent coefficients of Tourassis & Neuman, Table 2, as ``(column, label, (i, j, m))`` with
    Tourassis & Neuman's 1-based indices (``(i, j, 0)`` for ``d_ij``, ``(i, 0, 0)`` for ``G_i``).

    Centrifugal ``c_jj(i)`` for ``i != j`` ((36): ``c_ii(i) = 0``).  Coriolis: by symmetry
    ``c_jm(i) = c_mj(i)``, by (38) ``c_ji(i) = 0`` (``j <= i``) and by (39) with a repeated
    index ``c_im(i) = -c_ii(m)`` (a centrifugal one); what is left are the triples of distinct
    indices ``a < b < c``, two per triple: ``c_bc(a)`` and ``c_ab(c) = -c_ac(b)`` (39).

    >>> [label for _, label, _ in independent_coefficients(3)][-5:]
    ['c23(1)', 'c12(3)', 'G1', 'G2', 'G3']
    """
    sep = "," if n > 9 else ""
    out = [("d_ii", f"d{i}{sep}{i}", (i, i, 0)) for i in range(1, n + 1)]
    out += [("d_ij", f"d{i}{sep}{j}", (i, j, 0))
            for i in range(1, n + 1) for j in range(i + 1, n + 1)]
    out += [("c_jj(i)", f"c{j}{sep}{j}({i})", (i, j, j))
            for i in range(1, n + 1) for j in range(1, n + 1) if i != j]
    for a, b, c in itertools.combinations(range(1, n + 1), 3):
        out += [("c_jm(i)", f"c{b}{sep}{c}({a})", (a, b, c)),
                ("c_jm(i)", f"c{a}{sep}{b}({c})", (c, a, b))]
    out += [("G_i", f"G{i}", (i, 0, 0)) for i in range(1, n + 1)]
    return out


@dataclass(frozen=True)
class Table3Row:
    """One printed row of Tourassis & Neuman, Table 3: per column ``(non-zero, constant)``, ``None`` where the
    table prints no count of constants."""

    n: int
    n_revolute: int
    axes: str
    counts: dict
    total: int
    sparsity: float


#: Tourassis & Neuman, Table 3 as printed.
TABLE3_PRINTED = {
    "cartesian": Table3Row(3, 0, "z _|_ x _|_ y", {"d_ii": (3, 3), "d_ij": (0, None),
                           "c_jj(i)": (0, None), "c_jm(i)": (0, None), "G_i": (1, 1)}, 4, 0.235),
    "cylindrical": Table3Row(3, 1, "theta || z _|_ r", {"d_ii": (3, 2), "d_ij": (0, None),
                             "c_jj(i)": (1, None), "c_jm(i)": (0, None), "G_i": (1, 1)},
                             5, 0.294),
    "spherical": Table3Row(3, 2, "theta _|_ phi _|_ r", {"d_ii": (3, 1), "d_ij": (0, None),
                           "c_jj(i)": (3, None), "c_jm(i)": (0, None), "G_i": (2, None)},
                           8, 0.471),
    "articulated": Table3Row(3, 3, "q1 _|_ q2 || q3", {"d_ii": (3, 1), "d_ij": (3, None),
                             "c_jj(i)": (6, None), "c_jm(i)": (2, None), "G_i": (2, None)},
                             16, 0.941),
    "stanford": Table3Row(6, 5, "q1 _|_ q2 _|_ q3 || q4 _|_ q5 _|_ q6",
                          {"d_ii": (6, 1), "d_ij": (12, None), "c_jj(i)": (19, None),
                           "c_jm(i)": (25, None), "G_i": (4, None)}, 66, 0.680),
    "puma": Table3Row(6, 6, "q1 _|_ q2 || q3 _|_ q4 _|_ q5 _|_ q6",
                      {"d_ii": (6, 1), "d_ij": (14, None), "c_jj(i)": (30, None),
                       "c_jm(i)": (34, None), "G_i": (4, None)}, 88, 0.907),
}


def sparsity_formula(n: int, n_revolute: int, cartesian: float = 0.235) -> float:
    """Tourassis & Neuman's empirical sparsity ``0.235 [1 + (N_R / N)^2]^2`` (Sec. 6; ``N_R / N`` is the
    degree of anthropomorphism, 0.235 = 4/17 the Cartesian arm's).

    >>> round(sparsity_formula(3, 3), 3), round(sparsity_formula(6, 5), 3)
    (0.94, 0.675)
    """
    if not (isinstance(n, int) and isinstance(n_revolute, int) and 0 <= n_revolute <= n
            and n >= 1):
        raise ValueError(f"sparsity_formula: need 0 <= n_revolute <= n, n >= 1; got "
                         f"n = {n!r}, n_revolute = {n_revolute!r}")
    return cartesian * (1 + (n_revolute / n) ** 2) ** 2


@dataclass(frozen=True)
class Coefficient:
    """One independent coefficient: its column of Table 3, label (``c23(1)``), Tourassis & Neuman indices,
    status (``"zero"``, ``"constant"``, ``"varying"``) and the joints it depends on."""

    column: str
    label: str
    index: tuple
    status: str
    depends_on: frozenset


@dataclass
class ModelStructure:
    """Which independent coefficients of a model are zero, constant or coordinate-dependent
    (Tourassis & Neuman, Tables 2 and 3), decided exactly; see :func:`model_structure`."""

    robot: Robot
    coefficients: list
    polynomials: dict = field(repr=False)     # label -> reduced polynomial
    seconds: float = 0.0

    @property
    def n(self) -> int:
        return self.robot.n

    def counts(self) -> dict:
        """Per Table 3 column ``(non-zero, constant)``."""
        result = {}
        for column in COLUMNS:
            these = [c for c in self.coefficients if c.column == column]
            result[column] = (sum(c.status != "zero" for c in these),
                              sum(c.status == "constant" for c in these))
        return result

    @property
    def total(self) -> int:
        return sum(c.status != "zero" for c in self.coefficients)

    @property
    def sparsity(self) -> float:
        """Non-zero independent coefficients over all independent ones (Tourassis & Neuman, Sec. 6)."""
        return self.total / table2_counts(self.n)["total"]

    def row(self) -> dict:
        return {**self.counts(), "total": self.total}

    def status(self, label: str) -> str:
        for c in self.coefficients:
            if c.label == label:
                return c.status
        raise KeyError(f"{label!r} is not an independent coefficient of this {self.n}-joint "
                       f"model; see independent_coefficients({self.n})")

    def labels(self, status: str | None = None, column: str | None = None) -> list:
        """Labels of the coefficients with ``status`` (``"zero"``, ``"constant"``,
        ``"varying"``, or ``"non-zero"``) in ``column`` (all when ``None``)."""
        def keep(c):
            ok = status is None or c.status == status or (
                status == "non-zero" and c.status != "zero")
            return ok and (column is None or c.column == column)
        return [c.label for c in self.coefficients if keep(c)]


# -- exact decisions in a polynomial ring ------------------------------------------------------
class _Angle:
    """A revolute joint's angle ``q_k + offset`` handed to dynlab's generic code, so that its
    ``sin``/``cos`` become the ring variables ``s_k``, ``c_k`` (angle sums expanded exactly)."""

    __slots__ = ("k", "offset")

    def __init__(self, k: int, offset=0):
        self.k, self.offset = k, offset

    def __add__(self, other):
        if isinstance(other, _Angle):
            raise TypeError("sums of joint angles do not occur in the DH recursion")
        return _Angle(self.k, self.offset + other)

    __radd__ = __add__


def _exact_number(x, where: str):
    """A float or SymPy number as an exact rational (floats read as typed: 0.4318 = 2159/5000;
    multiples of pi/2 snapped)."""
    if isinstance(x, float):
        return sympy.Rational(repr(x))
    x = sympy.sympify(x)
    if x.has(sympy.Float):
        x = x.xreplace({f: sympy.Rational(str(f)) for f in x.atoms(sympy.Float)})
    return x


def _exact_trig(function, angle, where: str):
    if isinstance(angle, float):
        turns = angle / (math.pi / 2)
        if abs(turns - round(turns)) < 1e-12:
            angle = sympy.pi * sympy.Rational(int(round(turns)), 2)
        else:
            angle = sympy.Rational(repr(angle))
    value = function(sympy.sympify(angle))
    if not value.is_Rational:
        raise ValueError(f"{where}: model_structure decides zero exactly and needs every fixed "
                         f"angle (twist, offset, prismatic theta) to be a multiple of pi/2; got "
                         f"{angle}")
    return value


class _Ring:
    """Exact polynomials in ``s_k = sin q_k``, ``c_k = cos q_k`` (revolute), ``q_k``
    (prismatic) and the robot's parameters, reduced modulo ``s_k^2 + c_k^2 - 1``: the canonical
    form of :func:`dynlab.model.symbolic.reduce_trig`, in SymPy's sparse polynomial ring."""

    def __init__(self, robot: Robot):
        links = robot.symbolic()[0]
        self.revolute = [link.revolute for link in links]
        joint_symbols = []
        for k, revolute in enumerate(self.revolute, start=1):
            joint_symbols += ([sympy.Dummy(f"s{k}"), sympy.Dummy(f"c{k}")] if revolute
                              else [sympy.Dummy(f"q{k}")])
        parameters = sorted(robot.free_symbols, key=str)
        self.R, *gens = polynomial_ring(joint_symbols + parameters, sympy.QQ)
        self.joint_gens = gens[:len(joint_symbols)]
        self.parameters = parameters
        self.variables = {}
        position = 0
        for k, revolute in enumerate(self.revolute, start=1):
            if revolute:
                self.variables[k] = (gens[position], gens[position + 1])
                position += 2
            else:
                self.variables[k] = (gens[position],)
                position += 1
        self.joint_indices = {}       # index of a ring generator -> joint number
        for k, gens_k in self.variables.items():
            for g in gens_k:
                self.joint_indices[self.R.gens.index(g)] = k
        self.relations = [s**2 + c**2 - 1 for k, (s, *rest) in self.variables.items()
                          for c in rest[:1]]

    def element(self, value, where: str):
        value = _exact_number(value, where)
        try:
            return self.R.from_expr(value) if isinstance(value, sympy.Basic) else self.R(value)
        except Exception:
            raise ValueError(f"{where}: model_structure needs parameters that are polynomials "
                             f"in the robot's symbols, got {value}") from None

    def backend(self):
        def trig(function):
            def apply(angle):
                if isinstance(angle, _Angle):
                    s, c = self.variables[angle.k]
                    co = self.element(_exact_trig(sympy.cos, angle.offset, f"joint {angle.k}"),
                                      "offset")
                    so = self.element(_exact_trig(sympy.sin, angle.offset, f"joint {angle.k}"),
                                      "offset")
                    # sin(q + o) = s cos o + c sin o;  cos(q + o) = c cos o - s sin o
                    return s * co + c * so if function is sympy.sin else c * co - s * so
                return self.element(_exact_trig(function, angle, "theta"), "theta")
            return apply

        def unsupported(x):
            raise TypeError("model_structure: only sin and cos occur in D and the potential")
        return V.Backend("ring", trig(sympy.sin), trig(sympy.cos), unsupported, unsupported,
                         unsupported)

    def reduce(self, p):
        """The normal form modulo ``s_k^2 + c_k^2 - 1`` (a Groebner basis: the leading terms
        ``s_k^2`` are coprime), so ``p`` vanishes identically iff the form is 0."""
        return p.rem(self.relations) if self.relations and p else p

    def derivative(self, p, k: int):
        """``dp/dq_k``: ``c_k dp/ds_k - s_k dp/dc_k`` (revolute) or ``dp/dq_k`` (prismatic)."""
        if self.revolute[k - 1]:
            s, c = self.variables[k]
            return self.reduce(c * p.diff(s) - s * p.diff(c))
        return p.diff(self.variables[k][0])

    def dependence(self, p) -> frozenset:
        joints = set()
        for monomial in p.monoms():
            for index, exponent in enumerate(monomial):
                if exponent and index in self.joint_indices:
                    joints.add(self.joint_indices[index])
        return frozenset(joints)

    def to_sympy(self, p, q):
        """A reduced polynomial as a SymPy expression in ``q`` (``sin(q_k)``, ``cos(q_k)``)."""
        mapping = {}
        for k, gens_k in self.variables.items():
            if self.revolute[k - 1]:
                mapping[gens_k[0].as_expr()] = sympy.sin(q[k - 1])
                mapping[gens_k[1].as_expr()] = sympy.cos(q[k - 1])
            else:
                mapping[gens_k[0].as_expr()] = q[k - 1]
        return p.as_expr().xreplace(mapping)


def _ring_links(robot: Robot, ring: _Ring):
    """The robot's link data with every parameter a ring element (angles stay exact)."""
    import dataclasses
    links = robot.symbolic()[0]
    converted = []
    for k, link in enumerate(links, start=1):
        where = f"{robot.name}, link {k}"
        el = lambda v, what: ring.element(v, f"{where}: {what}")       # noqa: E731
        converted.append(dataclasses.replace(
            link, d=el(link.d, "d"), a=el(link.a, "a"),
            sin_alpha=el(link.sin_alpha, "sin(alpha)"),
            cos_alpha=el(link.cos_alpha, "cos(alpha)"),
            offset=link.offset if link.revolute else el(link.offset, "offset"),
            mass=el(link.mass, "mass"), com=tuple(el(c, "com") for c in link.com),
            inertia=tuple(tuple(el(e, "inertia") for e in row) for row in link.inertia)))
        for value, what in ((link.sin_alpha, "sin(alpha)"), (link.cos_alpha, "cos(alpha)")):
            if not _exact_number(value, where).is_Rational:
                raise ValueError(f"{where}: model_structure decides zero exactly and needs every "
                                 f"twist to be a multiple of pi/2; got {what} = {value}")
    return converted


def model_structure(robot: Robot) -> ModelStructure:
    """The independent coefficients of ``robot``'s model (Tourassis & Neuman, Tables 2, 3), each decided
    exactly to be zero, constant or a function of some joints.

    ``D`` is built row by row in the joint frames (:func:`inertia_matrix_in_joint_frames`,
    Tourassis & Neuman (5) and Appendix A) and the potential by :func:`dynlab.model.kinematics.chain`, both run
    over exact polynomials in ``sin q_k``, ``cos q_k`` (prismatic ``q_k``) and the
    parameters, reduced modulo ``sin^2 + cos^2 = 1``: :func:`dynlab.model.symbolic.reduce_trig`'s
    canonical form, in SymPy's sparse polynomial ring, which keeps the PUMA's 97 coefficients
    to seconds.  ``c_jm(i)`` follow from (12) and ``G_i = dV/dq_i`` (13, sign corrected).  A
    coefficient is zero iff its form is 0, constant iff the form has no joint variable: for
    symbolic parameters, zero for *every* value of them, for numbers, at those numbers
    (floats read as typed).  Twists and fixed angles must be multiples of pi/2.

    The result is kept in the robot's data (``robot.data.model_structure``).

    >>> from dynlab.model.robots import articulated
    >>> s = model_structure(articulated())
    >>> s.row()["total"], s.labels("zero")           # c12(3) = -c13(2) vanishes: q2 || q3
    (15, ['c12(3)', 'G1'])
    """
    import time
    if not isinstance(robot, Robot):
        raise TypeError(f"model_structure needs a dynlab Robot, got {type(robot).__name__}")
    if robot.data.model_structure is not None:
        return robot.data.model_structure
    start = time.perf_counter()
    ring = _Ring(robot)
    links = _ring_links(robot, ring)
    gravity = tuple(ring.element(g, f"{robot.name}: gravity") for g in robot.symbolic()[1])
    n = robot.n
    q = [_Angle(k) if link.revolute else ring.variables[k][0]
         for k, link in enumerate(links, start=1)]
    backend = ring.backend()
    D_raw = inertia_matrix_in_joint_frames(links, q, backend)     # Tourassis & Neuman (5), Appendix A
    D = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            D[i][j] = D[j][i] = ring.reduce(ring.R(0) + D_raw[i][j])
    # potential energy V = -sum_k m_k g . r_k (Tourassis & Neuman (9)), from the same kinematics
    rots, origins = chain(links, q, backend)
    V_ = ring.R(0)
    for k, link in enumerate(links):
        centre = V.add(origins[k + 1], V.matvec(rots[k + 1], link.com))
        V_ = V_ - link.mass * V.dot(gravity, centre)
    V_ = ring.reduce(V_)
    dD = {}

    def d(i, j, k):                                   # dd_ij/dq_k, 1-based
        key = (min(i, j), max(i, j), k)
        if key not in dD:
            dD[key] = ring.derivative(D[i - 1][j - 1], k)
        return dD[key]

    coefficients, polynomials = [], {}
    for column, label, (i, j, m) in independent_coefficients(n):
        if column in ("d_ii", "d_ij"):
            p = D[i - 1][j - 1]
        elif column == "G_i":
            p = ring.derivative(V_, i)                            # (13), sign corrected
        else:
            p = ring.reduce((d(i, j, m) + d(i, m, j) - d(j, m, i)) / 2)      # (12)
        dependence = ring.dependence(p)
        status = "zero" if not p else ("constant" if not dependence else "varying")
        coefficients.append(Coefficient(column, label, (i, j, m), status, dependence))
        polynomials[label] = p
    structure = ModelStructure(robot, coefficients, polynomials,
                               time.perf_counter() - start)
    structure._ring = ring
    robot.data.model_structure = structure
    return structure


def coefficient_expression(structure: ModelStructure, label: str):
    """The canonical (``reduce_trig``) SymPy form of one coefficient of a structure, in the
    joint symbols ``q1 ..``.

    >>> from dynlab.model.robots import cylindrical
    >>> coefficient_expression(model_structure(cylindrical(inertia="axial")), "c11(3)")
    -m3*q3 - m3*rz3
    """
    if label not in structure.polynomials:
        raise KeyError(f"{label!r} is not an independent coefficient; see "
                       f"independent_coefficients({structure.n})")
    q = joint_symbols(structure.n)[0]
    return sympy.expand(structure._ring.to_sympy(structure.polynomials[label], q))


# ==============================================================================================
# Tourassis & Neuman, Sec. 6: the design guidelines on a slider dashboard
# ==============================================================================================
def _coupling_table(k, loading, kinematic, D) -> str:
    """The readout of :class:`StructureDashboard`: one row per pair ``i < j``."""
    import html as _html
    n = len(D)
    rows = ["<table class='dynlab-coupling-table'><tr><th>pair</th><th>d_ij</th>"
            "<th>loading factor (34)</th><th>kinematic factor (35)</th>"
            "<th>k_ij (32)</th></tr>"]

    def cell(pair, part, value):
        shade = "" if part != "k" or not math.isfinite(value) else (
            f" style='background: rgba(214, 39, 40, {0.8 * min(1.0, value):.2f})'")
        text = format_value(value) if math.isfinite(value) else "undefined"
        return (f"<td class='dynlab-value' data-pair='{pair}' data-part='{part}' "
                f"data-value='{value!r}'{shade}>{_html.escape(text)}</td>")
    for i in range(n):
        for j in range(i + 1, n):
            pair = f"{i + 1}{j + 1}"
            rows.append(f"<tr><td>{pair}</td>{cell(pair, 'd', float(D[i][j]))}"
                        f"{cell(pair, 'loading', float(loading[i, j]))}"
                        f"{cell(pair, 'kinematic', float(kinematic[i, j]))}"
                        f"{cell(pair, 'k', float(k[i, j]))}</tr>")
    rows.append("</table>")
    return "".join(rows)


class StructureDashboard:
    """Sliders for the masses and centres of mass of one of Tourassis & Neuman's 3-joint arms, and the joint
    positions; shows the coefficients of coupling ``k_ij`` (32) with their loading (34) and
    kinematic (35) factors, and the structure of the model (Table 3 row and sparsity) decided
    exactly at the slider values.  Built by :func:`structure_dashboard`.

    Attributes for tests and notebooks: ``robot`` (the arm now shown), ``base``, ``sliders``
    (description -> slider: ``q2``.., ``m1``.., ``rx2``..; a revolute joint's slider holds
    degrees, ``q`` stays in radians), ``q``, ``coupling`` (a :class:`Coupling`), ``D``,
    ``structure`` (a :class:`ModelStructure`), ``readout`` and ``counts`` (``HTML`` widgets),
    ``status``, ``message``, ``seconds``, ``widget``; the figure: ``figure``, ``axes``,
    ``bars`` (quantity -> the bar patches, one per pair ``ij``), ``legend``, ``image`` (the
    ``Image`` widget showing it).
    """

    #: the bars, in order: quantity -> (legend text, colour); Tourassis & Neuman's equations
    QUANTITIES = {"k": ("coefficient of coupling $k_{ij}$ (32)", "tab:red"),
                  "loading": ("loading factor (34)", "tab:blue"),
                  "kinematic": ("kinematic factor (35)", "tab:green")}

    def __init__(self, robot: Robot, parameters, q):
        import ipywidgets as widgets

        if robot.is_symbolic:
            raise TypeError(f"{robot.name}: the dashboard needs numbers (symbolic=False)")
        self.base = self.robot = robot
        self.parameters = list(parameters)
        self.n = robot.n
        self.q = [float(v) for v in q]
        self.seconds = 0.0
        self.message = ""
        self._shown_q = {}                        # joint -> degrees its slider started at

        def slider(name, value, low, high, step, classes, tooltip):
            return labelled_slider(name, value, low, high, step, classes, tooltip,
                                   description_width="50px")
        self.sliders = {}
        joints = []
        for k in range(2, self.n + 1):           # k_ij depends on q2 .. qN only (Sec. 3.5)
            revolute = robot.links[k - 1].is_revolute
            if revolute:                         # degrees on the slider, radians in q
                value = self._shown_q[k] = degrees(self.q[k - 1])
                low, high, step = -180.0, 180.0, 1.0
            else:
                value, low, high, step = self.q[k - 1], -1.0, 1.0, 0.01
            joints.append(slider(f"q{k}", value, low, high, step,
                                 ("dynlab-q", f"dynlab-q{k}"),
                                 f"joint {k} position ({'deg' if revolute else 'm'})"))
        params = [slider(p.name, p.value, p.minimum, p.maximum, p.step,
                         ("dynlab-parameter", f"dynlab-param-{p.name}"), p.help)
                  for p in self.parameters]
        for widget in (*joints, *params):
            self.sliders[widget.description] = widget
        self.readout = widgets.HTML()
        self.readout.add_class("dynlab-coupling")
        self.counts = widgets.HTML()
        self.counts.add_class("dynlab-structure-counts")
        self.status = widgets.HTML()
        self.status.add_class("dynlab-status")
        self.image = widgets.Image(format="png", layout=widgets.Layout(width="100%",
                                                                        max_width="640px"))
        self.image.add_class("dynlab-figure")
        self._make_figure()
        masses = [w for w in params if w.description.startswith("m")]
        centres = [w for w in params if not w.description.startswith("m")]

        def column(title, children):
            return widgets.VBox([widgets.HTML(f"<b>{title}</b>"), *children])
        self.widget = widgets.VBox([
            widgets.HTML(f"<b>{robot.name}: coupling and sparsity (Tourassis & Neuman, Secs. 3.5, 6)</b>"),
            self.image,
            widgets.HBox([column("joints (" + " / ".join(
                              unit for revolute, unit in ((True, "deg"), (False, "m"))
                              if any(link.is_revolute == revolute for link in robot.links[1:]))
                              + ")", joints), column("masses (kg)", masses),
                          column("centres of mass (m, frame k)", centres)]),
            self.readout, self.counts, self.status])
        self.widget.add_class("dynlab-dashboard")
        self.widget.add_class("dynlab-structure-dashboard")
        for widget in joints:
            widget.observe(lambda change: self.refresh(parameters=False), names="value")
        for widget in params:
            widget.observe(lambda change: self.refresh(parameters=True), names="value")
        self.refresh(parameters=True)

    def _make_figure(self) -> None:
        """The figure: for every pair ``ij`` of joints the coefficient of coupling and its two
        factors as bars (all between 0 and 1), with a legend and the axes' meaning."""
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        self.pairs = [(i, j) for i in range(self.n) for j in range(i + 1, self.n)]
        self.figure = Figure(figsize=(8.0, 3.0), dpi=72)
        FigureCanvasAgg(self.figure)
        self.axes = self.figure.add_axes((0.08, 0.15, 0.56, 0.75))
        width = 0.8 / len(self.QUANTITIES)
        x = np.arange(len(self.pairs))
        self.bars = {}
        for k, (quantity, (label, colour)) in enumerate(self.QUANTITIES.items()):
            container = self.axes.bar(x + (k - 1) * width, np.zeros(len(x)), width,
                                      color=colour, label=label)
            self.bars[quantity] = list(container.patches)
        self.axes.set_xticks(x)
        self.axes.set_xticklabels([f"{i + 1}{j + 1}" for i, j in self.pairs])
        self.axes.set_xlabel("pair of joints ij", fontsize=9)
        self.axes.set_ylabel("dimensionless", fontsize=9)
        self.axes.tick_params(labelsize=8)
        self.axes.grid(True, axis="y", lw=0.3, alpha=0.6)
        self.axes.set_axisbelow(True)
        self.axes.set_title("coupling of the joints' inertias (Tourassis & Neuman, Sec. 3.5)",
                            fontsize=9)
        self.legend = self.figure.legend(
            loc="upper left", bbox_to_anchor=(0.66, 0.9), fontsize=8, frameon=False,
            title="bars: k = loading x kinematic (33);\nno bar: zero, or undefined (no mass "
                  "moved)", title_fontsize=8, alignment="left")
        self.summary = self.figure.text(0.67, 0.5, "", fontsize=8, va="top")
        self.axes.set_ylim(0.0, 1.05)
        self._background = None

    def legend_texts(self) -> list:
        """The legend's title and entries, as drawn."""
        return [t.get_text() for t in (self.legend.get_title(), *self.legend.get_texts())]

    def _draw_figure(self) -> None:
        for quantity, patches in self.bars.items():
            values = getattr(self.coupling, quantity)
            for patch, (i, j) in zip(patches, self.pairs):
                value = float(values[i, j])
                patch.set_height(value if math.isfinite(value) else 0.0)
        heights = [patch.get_height() for patches in self.bars.values() for patch in patches]
        top = max(1.05, 1.1 * max(heights, default=0.0))
        if top > self.axes.get_ylim()[1] or top < 0.5 * self.axes.get_ylim()[1]:
            self.axes.set_ylim(0.0, top)
            self._background = None                  # new ticks: render the background anew
        self.summary.set_text(f"the model: {self.structure.total} non-zero coefficients\n"
                              f"(Table 3), sparsity {self.structure.sparsity:.3f}")
        # blitting: the axes, ticks and legend are rendered once and kept; an update draws
        # the bars and the summary on them
        canvas = self.figure.canvas
        moving = [patch for patches in self.bars.values() for patch in patches] + [self.summary]
        if self._background is None:
            for artist in moving:
                artist.set_animated(True)
            canvas.draw()
            self._background = canvas.copy_from_bbox(self.figure.bbox)
        else:
            canvas.restore_region(self._background)
        for artist in moving:
            artist.axes.draw_artist(artist) if artist.axes else self.figure.draw_artist(artist)
        from PIL import Image as PILImage
        buffer = io.BytesIO()
        PILImage.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba(), "raw",
                            "RGBA", 0, 1).convert("RGB").save(buffer, format="png",
                                                              compress_level=1)
        self.image.value = buffer.getvalue()

    def _repr_mimebundle_(self, **kwargs):
        """The live widget, with a picture of its figure as the fallback of a notebook stored
        without widget state."""
        import base64
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = repr(self)
        bundle["image/png"] = base64.b64encode(bytes(self.image.value)).decode("ascii")
        return bundle

    def joint_positions(self) -> list:
        """``q`` from the sliders, in radians (metres for a prismatic joint); a slider still
        at its start keeps the start's exact value (the slider shows it to 0.1 deg)."""
        q = list(self.q)
        for k in range(2, self.n + 1):
            value = float(self.sliders[f"q{k}"].value)
            if k in self._shown_q:
                if value != self._shown_q[k]:
                    q[k - 1] = math.radians(value)
                    self._shown_q[k] = None        # moved: the slider is the state now
            else:
                q[k - 1] = value
        return q

    def __repr__(self) -> str:
        pairs = ", ".join(f"k{i + 1}{j + 1} = {self.coupling.k[i, j]:.4f}"
                          for i in range(self.n) for j in range(i + 1, self.n))
        return (f"StructureDashboard({self.robot.name!r}: {pairs}; "
                f"{self.structure.total} non-zero coefficients, sparsity "
                f"{self.structure.sparsity:.3f})")

    def refresh(self, parameters: bool = True) -> None:
        """Recompute from the sliders; an error goes to the status line, the last valid arm
        stays shown."""
        import html as _html
        import time
        start = time.perf_counter()
        try:
            robot = self.robot
            if parameters:
                robot = self.base
                for p in self.parameters:
                    robot = p.apply(robot, self.sliders[p.name].value)
            q = self.joint_positions()
            for k in range(2, self.n + 1):
                if not math.isfinite(q[k - 1]):
                    raise ValueError(f"q{k} must be a finite number, got {q[k - 1]!r}")
            D = inertia_matrix_22(robot, q)
            result = Coupling(coupling_coefficients(D), loading_factors(robot),
                              kinematic_factors(robot, q))
            structure = model_structure(robot) if parameters else self.structure
        except Exception as error:                     # noqa: BLE001 - reported, not raised
            self.message = f"error: {type(error).__name__}: {error}"
            self.status.value = f"<span style='color: #b00'>{_html.escape(self.message)}</span>"
            return
        self.robot, self.q, self.D, self.coupling, self.structure = (robot, q, D, result,
                                                                     structure)
        self.readout.value = _coupling_table(result.k, result.loading, result.kinematic, D)
        row = structure.row()
        n_revolute = sum(link.is_revolute for link in robot.links)
        cells = "".join(f"<td class='dynlab-count' data-column='{c}'>{row[c][0]}({row[c][1]})"
                        f"</td>" for c in COLUMNS)
        self.counts.value = (
            "<table><tr>" + "".join(f"<th>{c}</th>" for c in COLUMNS) + "<th>total</th>"
            "<th>sparsity</th><th>0.235 [1 + (N_R/N)^2]^2</th></tr><tr>" + cells
            + f"<td class='dynlab-count' data-column='total'>{row['total']}</td>"
            f"<td class='dynlab-sparsity' data-value='{structure.sparsity!r}'>"
            f"{structure.sparsity:.3f}</td>"
            f"<td>{sparsity_formula(robot.n, n_revolute):.3f}</td></tr></table>"
            f"<small>non-zero (constant) independent coefficients, decided exactly at these "
            f"values; zero: {', '.join(structure.labels('zero')) or 'none'}</small>")
        self._draw_figure()
        self.seconds = time.perf_counter() - start
        self.message = f"ok: computed in {1e3 * self.seconds:.1f} ms"
        self.status.value = _html.escape(self.message)


def structure_dashboard(arm: str = "articulated", q=None, *, centre_range: float = 0.3
                        ) -> StructureDashboard:
    """Tourassis & Neuman, Sec. 6's design guidelines on sliders: one of the 3-joint arms of
    :mod:`dynlab.model.robots.tourassis_neuman` (``"cartesian"``, ``"cylindrical"``, ``"spherical"``,
    ``"articulated"``) with dynlab's numbers, sliders for ``q2 .. q3``, each link's mass
    (:func:`dynlab.teaching.widgets.with_mass`: the inertia scales with it) and the centre of mass of
    links 2 and 3 (``rx``, ``ry``, ``rz`` in frame k, within ``+-centre_range`` m; the
    inertia about the centre of mass is kept).  Guideline 3 (decreasing masses lower the
    loading factor) and the cost of a centre of mass off its link's line (new mutual,
    centrifugal and Coriolis coefficients) can be watched live.

    >>> board = structure_dashboard("articulated", q=[0.0, 0.5, 1.0])
    >>> round(float(board.coupling.k[1, 2]), 4), board.structure.total
    (0.6549, 10)
    >>> board.sliders["rz3"].value = 0.05               # link 3 off the arm's plane
    >>> board.structure.total, round(board.structure.sparsity, 3)
    (15, 0.882)
    """
    three = ("cartesian", "cylindrical", "spherical", "articulated")
    if arm not in three:
        raise ValueError(f"structure_dashboard: arm must be one of {', '.join(three)}, "
                         f"got {arm!r}")
    robot = TOURASSIS_NEUMAN_ARMS[arm](symbolic=False, inertia="general")
    q = [0.0] * robot.n if q is None else q
    if len(q) != robot.n:
        raise ValueError(f"structure_dashboard: q must have {robot.n} entries, got {len(q)}")
    parameters = []
    for k, link in enumerate(robot.links, start=1):
        m = float(link.mass)
        parameters.append(Parameter(f"m{k}", f"mass of link {k} (kg); its inertia scales "
                                    f"with it", m, round_significant(0.5 * m, 2, "down"),
                                    round_significant(3 * m, 2, "up"), 0.5,
                                    lambda r, v, k=k: with_mass(r, k, v), "kg"))
    for k in range(2, robot.n + 1):
        for axis in range(3):
            def move(r, v, k=k, axis=axis):
                com = list(r.links[k - 1].com)
                com[axis] = v
                return r.replace_link(k, com=tuple(com))
            value = float(robot.links[k - 1].com[axis])
            low = round_significant(min(-centre_range, value), 2, "down")
            high = round_significant(max(centre_range, value), 2, "up")
            parameters.append(Parameter(f"r{'xyz'[axis]}{k}", f"centre of mass of link {k}, "
                                        f"{'xyz'[axis]} in frame {k} (m)", value, low, high,
                                        0.01, move, "m"))
    return StructureDashboard(robot, parameters, q)
