"""Lagrange-Euler equations of motion in the sources' three forms, ``tau = D qdd + h + c``:

``uicker``: Fu, Gonzalez & Lee, Sec. 3.2, 4x4 matrices: ``U_ij`` (3.2-11), ``U_ijk`` (3.2-13),
``J_i`` (3.2-18), ``D_ik`` (3.2-31), ``h_ikm`` (3.2-33), ``H_i,v`` (3.2-36), ``c_i`` (3.2-34,
without its erratum's transpose, :mod:`dynlab.teaching.errata`).
``jacobian``: Schilling, Secs. 6-2 to 6-4: link Jacobians (6-2-10), ``D`` (6-2-15),
``C^i_kj`` (6-4-6), ``c_i = qd^T C^i qd`` (6-4-8), gravity (6-4-7).
``christoffel``: Lynch & Park, Secs. 8.1, 8.4 (draft Eqs. (9.10), (9.12), (9.13), (9.87),
(9.88)) and Tourassis & Neuman, Eq. (12): Christoffel symbols of the first kind.

Derivatives in ``q`` by jets (:mod:`dynlab.model.jets`).

>>> from dynlab.model.robots import puma560
>>> import numpy as np
>>> links, gravity, _, _ = puma560(joints=3).numeric()
>>> q, qd = (0.1, -0.4, 0.3), (0.5, 1.0, -0.7)
>>> results = [VARIANTS[name](links, q, qd, gravity) for name in VARIANTS]
>>> all(np.allclose(r["D"], results[0]["D"]) and np.allclose(r["h"], results[0]["h"])
...     and np.allclose(r["c"], results[0]["c"]) for r in results)
True
"""

from __future__ import annotations

from dynlab.model import jets
from dynlab.model import vectors as V
from dynlab.model.kinematics import chain, chain_link_jacobians, link_offset, link_rotation


# -- 4x4 matrices as tuples of rows ------------------------------------------------------------
def _mat4(a, b):
    return tuple(tuple(a[r][0] * b[0][c] + a[r][1] * b[1][c] + a[r][2] * b[2][c]
                       + a[r][3] * b[3][c] for c in range(4)) for r in range(4))


IDENTITY4 = ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1))
ZERO4 = ((0, 0, 0, 0),) * 4


def Q_times(revolute: bool, m):
    """``Q_j m`` without multiplying by zeros: ``Q`` of Fu, Gonzalez & Lee, Eq. (3.2-8a) (revolute)
    picks ``(-row 2, row 1, 0, 0)``; of (3.2-8b) (prismatic) ``(0, 0, row 4, 0)``."""
    zero = (0, 0, 0, 0)
    if revolute:
        return (tuple(-x for x in m[1]), m[0], zero, zero)
    return (zero, zero, m[3], zero)


def Q_matrix(revolute: bool):
    """``Q_i`` of Fu, Gonzalez & Lee, Eqs. (3.2-8a) (revolute) and (3.2-8b) (prismatic).

    >>> Q_matrix(True)
    ((0, -1, 0, 0), (1, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    """
    return Q_times(revolute, IDENTITY4)


def pseudo_inertia(link):
    """Fu's pseudo-inertia ``J_i = int r r^T dm`` about frame ``i``'s origin (Fu, Gonzalez & Lee,
    Eqs. (3.2-17), (3.2-18)): the 3x3 block is ``(1/2) tr(I_c) E - I_c + m r r^T``.

    >>> from dynlab import Link, Robot
    >>> rod = Robot([Link("R", a=2.0, mass=3.0, com=(-1, 0, 0), inertia=(0, 1, 1), name="l1")])
    >>> pseudo_inertia(rod.symbolic()[0][0])
    ((4, 0, 0, -3), (0, 0, 0, 0), (0, 0, 0, 0), (-3, 0, 0, 3))
    """
    m, r, I = link.mass, link.com, link.inertia
    half_trace = (I[0][0] + I[1][1] + I[2][2]) / 2
    S = [[(half_trace if row == col else 0) - I[row][col] + m * r[row] * r[col]
          for col in range(3)] for row in range(3)]
    return (tuple(S[0]) + (m * r[0],), tuple(S[1]) + (m * r[1],), tuple(S[2]) + (m * r[2],),
            (m * r[0], m * r[1], m * r[2], m))


def _trace_product(a, J, b):
    """``Tr(a J b^T) = sum_rs (a J)_rs b_rs``."""
    aJ = _mat4(a, J)
    return sum(aJ[r][c] * b[r][c] for r in range(4) for c in range(4))


# -- Fu, Gonzalez & Lee, Sec. 3.2: the 4x4 form ----------------------------------------------------
def uicker_matrices(links, q, backend=V.NUMERIC):
    """``A`` (``^{a}A_b`` for all ``0 <= a <= b <= n``), ``U`` (``U[i][j] = U_{i+1,j+1}``) and
    ``U3`` (``U3[i][j][k] = U_{i+1,j+1,k+1}``) of Fu, Gonzalez & Lee, Eqs. (3.2-4), (3.2-11),
    (3.2-13)."""
    n = len(links)
    local = []
    for link, qi in zip(links, q):
        R = link_rotation(link, qi, backend)
        p = link_offset(link, qi, R)                                     # (3.2-5)
        local.append((R[0] + (p[0],), R[1] + (p[1],), R[2] + (p[2],), (0, 0, 0, 1)))
    A = {}
    for a in range(n + 1):
        A[a, a] = IDENTITY4
        for b in range(a + 1, n + 1):
            A[a, b] = _mat4(A[a, b - 1], local[b - 1])                   # (3.2-4)
    revolute = [link.revolute for link in links]
    U = [[ZERO4] * n for _ in range(n)]
    for i in range(1, n + 1):
        for j in range(1, i + 1):
            # (3.2-11): U_ij = ^0A_{j-1} Q_j ^{j-1}A_i
            U[i - 1][j - 1] = _mat4(A[0, j - 1], Q_times(revolute[j - 1], A[j - 1, i]))
    U3 = [[[ZERO4] * n for _ in range(n)] for _ in range(n)]
    for i in range(1, n + 1):
        for j in range(1, i + 1):
            for k in range(1, i + 1):
                first, second = min(j, k), max(j, k)
                # (3.2-13): ^0A_{a-1} Q_a ^{a-1}A_{b-1} Q_b ^{b-1}A_i with a = min, b = max
                inner = _mat4(A[first - 1, second - 1],
                              Q_times(revolute[second - 1], A[second - 1, i]))
                U3[i - 1][j - 1][k - 1] = _mat4(A[0, first - 1],
                                                Q_times(revolute[first - 1], inner))
    return A, U, U3


def uicker_terms(links, q, qd, gravity, backend=V.NUMERIC) -> dict:
    """Fu, Gonzalez & Lee, Sec. 3.2: ``D`` (3.2-31), ``h_ikm`` (3.2-33), ``H_i,v`` (3.2-36), ``h``
    (3.2-38), ``c`` (3.2-34, corrected), from ``U``, ``U3`` and the pseudo-inertias ``J``."""
    n = len(links)
    A, U, U3 = uicker_matrices(links, q, backend)
    J = [pseudo_inertia(link) for link in links]
    D = [[0] * n for _ in range(n)]
    for i in range(n):
        for k in range(i, n):
            # (3.2-31): D_ik = sum_{j >= max(i,k)} Tr(U_jk J_j U_ji^T)
            D[i][k] = sum(_trace_product(U[j][k], J[j], U[j][i]) for j in range(k, n))
            D[k][i] = D[i][k]
    h_ikm = [[[0] * n for _ in range(n)] for _ in range(n)]
    for i in range(n):
        for k in range(n):
            for m in range(k, n):
                # (3.2-33): h_ikm = sum_{j >= max(i,k,m)} Tr(U_jkm J_j U_ji^T); symmetric in k, m
                h_ikm[i][k][m] = sum(_trace_product(U3[j][k][m], J[j], U[j][i])
                                     for j in range(max(i, m), n))
                h_ikm[i][m][k] = h_ikm[i][k][m]
    # (3.2-38): h_i = qd^T H_i,v qd
    h = [sum(h_ikm[i][k][m] * qd[k] * qd[m] for k in range(n) for m in range(n))
         for i in range(n)]
    g_row = (gravity[0], gravity[1], gravity[2], 0)
    c = []
    for i in range(n):
        # (3.2-34), corrected: c_i = sum_{j >= i} -m_j g U_ji r_j, r_j = (r_bar_j, 1)
        total = 0
        for j in range(i, n):
            r = links[j].com + (1,)
            Ur = [sum(U[j][i][row][col] * r[col] for col in range(4)) for row in range(4)]
            total = total - links[j].mass * sum(g_row[row] * Ur[row] for row in range(4))
        c.append(total)
    return {"D": D, "h": h, "c": c, "h_ikm": h_ikm, "H": h_ikm, "U": U, "U_ijk": U3, "J": J,
            "Q": [Q_matrix(link.revolute) for link in links], "A": A}


# -- Schilling, Secs. 6-2 to 6-4: the link-Jacobian form -------------------------------------------
def inertia_matrix_from_jacobians(links, q, backend=V.NUMERIC):
    """``D(q) = sum_k (A^k)^T m_k A^k + (B^k)^T D_k B^k`` (Schilling, Eq. (6-2-15)), with the link
    inertia tensor in base axes ``D_k = R_0k D_bar_k R_0k^T`` (Schilling, Eq. (6-2-5))."""
    n = len(links)
    rots = chain(links, q, backend)[0]
    D = [[0] * n for _ in range(n)]
    for k, (link, (Ak, Bk)) in enumerate(zip(links, chain_link_jacobians(links, q, backend))):
        R = rots[k + 1]
        Dk = V.matmul(V.matmul(R, link.inertia), V.transpose(R))
        for i in range(n):
            for j in range(i, n):
                if i > k or j > k:      # columns beyond link k are zero (6-2-10)
                    continue
                a = (Ak[0][i], Ak[1][i], Ak[2][i])
                b = (Ak[0][j], Ak[1][j], Ak[2][j])
                bi = (Bk[0][i], Bk[1][i], Bk[2][i])
                bj = (Bk[0][j], Bk[1][j], Bk[2][j])
                D[i][j] = D[i][j] + link.mass * V.dot(a, b) + V.dot(bi, V.matvec(Dk, bj))
    for i in range(n):
        for j in range(i):
            D[i][j] = D[j][i]
    return D


def potential_energy(links, q, gravity, backend=V.NUMERIC):
    """``P(q) = -sum_k m_k g . c_k(q)`` (Schilling, Eq. (6-2-17)), gravity pointing down: the
    potential energy of the chain ``links`` at ``q`` (any scalar type of ``backend``)."""
    rots, origins = chain(links, q, backend)
    total = 0
    for k, link in enumerate(links):
        centre = V.add(origins[k + 1], V.matvec(rots[k + 1], link.com))
        total = total - link.mass * V.dot(gravity, centre)
    return total


def _with_derivatives(function, q, backend):
    """Run ``function(q_jets, jet_backend)`` on jets seeded at ``q``: values and ``d/dq``."""
    zero, one = (0, 1) if backend.name == "symbolic" else (0.0, 1.0)
    return function(jets.seed(q, zero, one), jets.lift(backend)), zero


def jacobian_terms(links, q, qd, gravity, backend=V.NUMERIC) -> dict:
    """Schilling's form: ``D`` (6-2-15), ``C^i`` (6-4-6), velocity coupling ``c_i = qd^T C^i qd``
    (6-4-8, Fu, Gonzalez & Lee's ``h``), and gravity ``h_i`` (6-4-7, Fu, Gonzalez & Lee's ``c``)."""
    n = len(links)
    D_jet, zero = _with_derivatives(lambda qj, b: inertia_matrix_from_jacobians(links, qj, b),
                                    q, backend)
    D = [[jets.value(x) for x in row] for row in D_jet]
    dD = [[jets.gradient(x, n, zero) for x in row] for row in D_jet]   # dD[i][j][k] = dD_ij/dq_k
    # (6-4-6): C^i_kj = dD_ij/dq_k - (1/2) dD_kj/dq_i
    C = [[[dD[i][j][k] - dD[k][j][i] / 2 for j in range(n)] for k in range(n)]
         for i in range(n)]
    # (6-4-8): c_i(q, qd) = qd^T C^i(q) qd
    h = [sum(C[i][k][j] * qd[k] * qd[j] for k in range(n) for j in range(n)) for i in range(n)]
    # (6-4-7): h_i(q) = -g^T sum_k m_k A^k_{., i}
    A = [Ak for Ak, _ in chain_link_jacobians(links, q, backend)]
    c = [-sum(links[k].mass * (gravity[0] * A[k][0][i] + gravity[1] * A[k][1][i]
                               + gravity[2] * A[k][2][i]) for k in range(n)) for i in range(n)]
    return {"D": D, "h": h, "c": c, "C_i": C, "dD_dq": dD}


# -- Lynch & Park, Sec. 8.1 / Tourassis & Neuman, Eq. (12): energy and Christoffel symbols ---------
def kinetic_energy(links, q, qd, backend=V.NUMERIC):
    """``K = sum_i (1/2) m_i |v_ci|^2 + (1/2) w_i^T I_i w_i`` (Lynch & Park, Sec. 8.1 (draft Eq.
    (9.10)), Schilling, Eq. (6-2-1)), velocities propagated outward in base coordinates (no
    Jacobians)."""
    rots, origins = chain(links, q, backend)
    w = v = V.ZERO                      # angular velocity of link i, velocity of origin i-1 ...
    total = 0
    for i, (link, qdi) in enumerate(zip(links, qd)):
        z = (rots[i][0][2], rots[i][1][2], rots[i][2][2])
        p = V.sub(origins[i + 1], origins[i])
        if link.revolute:
            w = V.add(w, V.scale(qdi, z))
            v = V.add(v, V.cross(w, p))
        else:
            v = V.add(V.add(v, V.scale(qdi, z)), V.cross(w, p))
        s = V.matvec(rots[i + 1], link.com)
        vc = V.add(v, V.cross(w, s))
        Iw = V.matvec(rots[i + 1], V.matvec(link.inertia, V.tmatvec(rots[i + 1], w)))
        total = total + (link.mass * V.dot(vc, vc) + V.dot(w, Iw)) / 2
    return total


def mass_matrix_from_energy(links, q, backend=V.NUMERIC):
    """``M(q)`` as the Hessian of ``K`` in ``qd`` (Lynch & Park, Sec. 8.1 (draft Eq. (9.10))); ``K``
    is a quadratic form, so ``m_ii = 2 K(e_i)`` and ``m_ij = K(e_i + e_j) - K(e_i) - K(e_j)``
    exactly."""
    n = len(links)
    unit = [[1 if j == i else 0 for j in range(n)] for i in range(n)]
    K1 = [kinetic_energy(links, q, unit[i], backend) for i in range(n)]
    M = [[0] * n for _ in range(n)]
    for i in range(n):
        M[i][i] = 2 * K1[i]
        for j in range(i + 1, n):
            both = [unit[i][k] + unit[j][k] for k in range(n)]
            M[i][j] = M[j][i] = kinetic_energy(links, q, both, backend) - K1[i] - K1[j]
    return M


def christoffel_terms(links, q, qd, gravity, backend=V.NUMERIC) -> dict:
    """Lynch & Park's form: ``M`` Sec. 8.1 (draft Eq. (9.10)), ``Gamma_ijk`` Sec. 8.1 (draft Eq.
    (9.13)), Coriolis matrix ``C`` Sec. 8.4 (draft Eq. (9.87)), ``c = C qd`` (9.88, Fu, Gonzalez &
    Lee's ``h``) and ``g = dP/dq`` (9.12, Fu, Gonzalez & Lee's ``c``)."""
    n = len(links)
    M_jet, zero = _with_derivatives(lambda qj, b: mass_matrix_from_energy(links, qj, b), q,
                                    backend)
    M = [[jets.value(x) for x in row] for row in M_jet]
    dM = [[jets.gradient(x, n, zero) for x in row] for row in M_jet]
    # Sec. 8.1 (draft Eq. (9.13)): Gamma_ijk = (1/2)(dm_ij/dq_k + dm_ik/dq_j - dm_jk/dq_i)
    Gamma = [[[(dM[i][j][k] + dM[i][k][j] - dM[j][k][i]) / 2 for k in range(n)]
              for j in range(n)] for i in range(n)]
    # Sec. 8.4 (draft Eqs. (9.87), (9.88)): C_ij = sum_k Gamma_ijk qd_k, c = C qd
    C = [[sum(Gamma[i][j][k] * qd[k] for k in range(n)) for j in range(n)] for i in range(n)]
    h = [sum(C[i][j] * qd[j] for j in range(n)) for i in range(n)]
    P_jet, _ = _with_derivatives(lambda qj, b: potential_energy(links, qj, gravity, b), q, backend)
    g = list(jets.gradient(P_jet, n, zero))  # Sec. 8.1 (draft Eq. (9.12)): dP/dq_i
    return {"D": M, "h": h, "c": g, "Gamma": Gamma, "C": C, "dD_dq": dM,
            "K": kinetic_energy(links, q, qd, backend), "P": jets.value(P_jet)}


VARIANTS = {"uicker": uicker_terms, "jacobian": jacobian_terms, "christoffel": christoffel_terms}
