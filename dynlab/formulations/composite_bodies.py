"""The inertia matrix ``D`` by composite bodies (Walker & Orin's (1982) method 3; Featherstone
(2008), Table 6.2) in the 3-vectors and link frames of Fu, Gonzalez & Lee, Table 3.3.

Composite body ``i`` (links ``i..n``) is kept about ``o_{i-1}`` in frame ``i``: mass ``M_i``, first
moment ``g_i`` and inertia ``K_i``; inward (``R = ^iR_{i+1}``, ``p = p*_i``, ``S(r) = |r|^2 1 - r
r^T``): ``h_i = m_i s_i + R g_{i+1}``, ``J_i = I_i + m_i S(s_i) + R K_{i+1} R^T``, ``g_i = h_i + M_i
p``, ``K_i = J_i + M_i S(p) + 2 (h_i . p) 1 - h_i p^T - p h_i^T``.  Joint ``j``'s unit acceleration
needs ``f = z x g_j, n = K_j z`` (revolute) or ``f = M_j z, n = g_j x z`` (prismatic), carried
inward as in Eqs. (3.3-56), (3.3-57) to give column ``j`` (Fu, Gonzalez & Lee, Probs. 3.11-3.12).

>>> import sympy
>>> from dynlab import joint_symbols
>>> from dynlab.model.robots import planar_2r
>>> (q1, q2), _, _ = joint_symbols(2)
>>> D = composite_inertia(planar_2r("fu", symbolic=True).symbolic()[0], [q1, q2],
...                       V.SYMBOLIC)
>>> [sympy.simplify(D[i][j]) for i, j in ((0, 0), (0, 1), (1, 1))]    # Sec. 3.2.6, as derived
[l**2*(m1 + 3*m2*cos(q2) + 4*m2)/3, l**2*m2*(3*cos(q2) + 2)/6, l**2*m2/3]
"""

from __future__ import annotations

from dynlab.model import vectors as V
from dynlab.model.kinematics import link_offset_in_own_frame, link_rotation


def _spread(r) -> tuple:
    """``S(r) = |r|^2 1 - r r^T``: the inertia about a point of a unit mass at ``r`` from it."""
    rr = V.dot(r, r)
    return tuple(tuple((rr if a == b else 0) - r[a] * r[b] for b in range(3)) for a in range(3))


def _moved(J, mass, h, p) -> tuple:
    """The inertia about ``o - p`` of a body with inertia ``J``, first moment ``h`` about
    ``o``: ``J + M S(p) + 2 (h . p) 1 - h p^T - p h^T``."""
    spread, hp = _spread(p), V.dot(h, p)
    return tuple(tuple(J[a][b] + mass * spread[a][b] + ((2 * hp) if a == b else 0)
                       - h[a] * p[b] - p[a] * h[b] for b in range(3)) for a in range(3))


def _rotated(R, K) -> tuple:
    """``R K R^T``: a symmetric tensor brought from frame ``i+1`` into frame ``i``."""
    RK = V.matmul(R, K)
    return tuple(tuple(V.dot(RK[a], R[b]) for b in range(3)) for a in range(3))


def composite_inertia(links, q, backend=V.NUMERIC) -> list:
    """``D`` (rows) at ``q`` by composite bodies (module docstring); equal to the Newton-Euler
    probing of :func:`dynlab.formulations.registry.inertia_function`.

    >>> from dynlab.model.robots import planar_2r
    >>> [[round(x, 12) for x in row]
    ...  for row in composite_inertia(planar_2r("lynch_park").numeric()[0], [0.0, 0.0])]
    [[2.62, 0.72], [0.72, 0.32]]
    """
    n = len(links)
    rotations = [link_rotation(link, qi, backend) for link, qi in zip(links, q)]
    offsets = [link_offset_in_own_frame(link, qi) for link, qi in zip(links, q)]
    axes = [R[2] for R in rotations]                                # z_{i-1} in frame i
    masses, firsts, inertias = [None] * n, [None] * n, [None] * n   # M_i, g_i, K_i
    for i in range(n - 1, -1, -1):
        link = links[i]
        mass = link.mass
        h = V.scale(link.mass, link.com)
        spread = _spread(link.com)
        J = tuple(tuple(link.inertia[a][b] + link.mass * spread[a][b] for b in range(3))
                  for a in range(3))
        if i + 1 < n:
            R = rotations[i + 1]
            mass = mass + masses[i + 1]
            h = V.add(h, V.matvec(R, firsts[i + 1]))
            J = tuple(tuple(J[a][b] + K[b] for b in range(3))
                      for a, K in enumerate(_rotated(R, inertias[i + 1])))
        masses[i] = mass
        firsts[i] = V.add(h, V.scale(mass, offsets[i]))
        inertias[i] = _moved(J, mass, h, offsets[i])
    D = [[0] * n for _ in range(n)]
    for j in range(n):
        z = axes[j]
        if links[j].revolute:
            f, moment = V.cross(z, firsts[j]), V.matvec(inertias[j], z)
            D[j][j] = V.dot(moment, z)
        else:
            f, moment = V.scale(masses[j], z), V.cross(firsts[j], z)
            D[j][j] = V.dot(f, z)
        for i in range(j - 1, -1, -1):                             # inward, (3.3-56), (3.3-57)
            R = rotations[i + 1]
            f = V.matvec(R, f)
            moment = V.add(V.matvec(R, moment), V.cross(offsets[i], f))
            D[i][j] = D[j][i] = V.dot(moment if links[i].revolute else f, axes[i])
    return D
