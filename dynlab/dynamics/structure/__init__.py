"""The structure of the dynamic model: Tourassis & Neuman (1985) and Lynch & Park (2017), Prop. 8.1 and Sec. 8.6.

Tourassis & Neuman reads the Lagrangian model (its Eq. (11), in Fu, Gonzalez & Lee's letters ``tau = D qdd + h + c``)

    sum_j d_ij qdd_j + sum_j sum_m qd_j c_jm(i) qd_m + G_i = F_i

through its inertia matrix ``D = [d_ij]``: the centrifugal and Coriolis coefficients are the
Christoffel symbols of ``D`` (Eq. (12)) and inherit its structure.  This package turns the paper
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
* a slider dashboard for Tourassis & Neuman, Sec. 6's design guidelines
  (:func:`dynlab.teaching.dashboards.structure.structure_dashboard`).

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
  (``tests/dynamics/test_properties.py`` has one).
* (B-2): ``x_i, y_i`` are the centre of mass of links ``i .. N`` in frame ``i-1`` (the ``p_i``
  of (40)), not "of link i in its own frame" (:func:`gravity_coefficients_dh`).
* Table 3: the articulated arm's Coriolis count 2 is 1 (``c12(3) = -c13(2)`` vanishes for any
  mass distribution when ``z1 || z2``), the Stanford arm's constant self-inertial count (1) is
  (2) (``d33``, Eq. (25), and ``d66``), and the PUMA's ``d_ij`` 14 with ``c_jj(i)`` 30
  contradicts (36), since ``c_jj(i) = dd_ij/dq_j`` for ``i < j`` vanishes with ``d_ij``
  (notebook 06 regenerates the table).

>>> from dynlab.model.robots import cylindrical
>>> from dynlab.dynamics.structure.exact import model_structure
>>> structure = model_structure(cylindrical(inertia="axial"))
>>> structure.row()
{'d_ii': (3, 2), 'd_ij': (0, 0), 'c_jj(i)': (1, 0), 'c_jm(i)': (0, 0), 'G_i': (1, 1), 'total': 5}
>>> round(structure.sparsity, 3)                 # Tourassis & Neuman, Table 3: 5 of 17, 0.294
0.294
"""
