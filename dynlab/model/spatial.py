"""Twists ``(omega, v)``, wrenches ``(m, f)`` and spatial inertias on tuples, any scalar type:
Lynch & Park (2017), Sec. 8.2.  A displacement ``T`` is ``(R, p)``.

>>> G = spatial_inertia_at_com(2.0, ((0.1, 0, 0), (0, 0.2, 0), (0, 0, 0.3)))
>>> V = (0.0, 0.0, 1.0, 1.0, 0.0, 0.0)                  # spinning about z, moving along x
>>> kinetic_energy(G, V)                                 # (1/2)(0.3 * 1 + 2 * 1)
1.15
>>> body_wrench(G, (0.0,) * 6, V)                        # the centripetal m omega x v
(0.0, 0.0, 0.0, 0.0, 2.0, 0.0)
"""

from __future__ import annotations

import sympy

from dynlab.model import vectors as V

ZERO6 = (0, 0, 0, 0, 0, 0)


# -- 3-vectors ------------------------------------------------------------------------------------
def skew(w) -> tuple:
    """``[w]``, the 3x3 skew-symmetric matrix with ``[w] x = w x x`` (Lynch & Park, Sec. 8.2).

    >>> skew((1, 2, 3))
    ((0, -3, 2), (3, 0, -1), (-2, 1, 0))
    """
    return ((0, -w[2], w[1]), (w[2], 0, -w[0]), (-w[1], w[0], 0))


def negate(u):
    return (-u[0], -u[1], -u[2])


# -- rigid displacements T = (R, p) ---------------------------------------------------------------
IDENTITY_T = (V.IDENTITY, V.ZERO)


def compose(T1, T2) -> tuple:
    """``T1 T2``: ``(R1 R2, R1 p2 + p1)``."""
    (R1, p1), (R2, p2) = T1, T2
    return V.matmul(R1, R2), V.add(V.matvec(R1, p2), p1)


def inverse(T) -> tuple:
    """``T^-1 = (R^T, -R^T p)``.

    >>> inverse(((( 0, -1, 0), (1, 0, 0), (0, 0, 1)), (1, 2, 3)))
    (((0, 1, 0), (-1, 0, 0), (0, 0, 1)), (-2, 1, -3))
    """
    R, p = T
    return V.transpose(R), negate(V.tmatvec(R, p))


def translation(p) -> tuple:
    return V.IDENTITY, tuple(p)


# -- the adjoint maps -----------------------------------------------------------------------------
def Ad(T, twist) -> tuple:
    """``[Ad_T] V``, ``[Ad_T] = [[R, 0], [[p] R, R]]`` (Lynch & Park, Sec. 3.3.2; Sec. 8.3, draft
    Eqs. (9.46), (9.54)).

    >>> Ad((V.IDENTITY, (1, 0, 0)), (0, 0, 1, 0, 0, 0))  # a spin about an axis at x = 1: the
    (0, 0, 1, 0, -1, 0)
    >>> # point of frame a at the origin moves with v = -omega x (1, 0, 0) = (0, -1, 0)
    """
    R, p = T
    w = V.matvec(R, twist[:3])
    v = V.add(V.cross(p, w), V.matvec(R, twist[3:]))
    return (*w, *v)


def Ad_transpose(T, wrench) -> tuple:
    """``[Ad_T]^T F = (R^T (m - p x f), R^T f)``: a wrench carried the other way, the rule of
    Lynch & Park, Sec. 8.3 (draft Eq. (9.56)): ``F_i = Ad^T_{T_{i+1,i}}(F_{i+1}) + ...``.

    >>> Ad_transpose((V.IDENTITY, (1, 0, 0)), (0, 0, 0, 0, 1, 0))   # a force 1 m away: a moment
    (0, 0, -1, 0, 1, 0)
    """
    R, p = T
    m, f = wrench[:3], wrench[3:]
    return (*V.tmatvec(R, V.sub(m, V.cross(p, f))), *V.tmatvec(R, f))


def Ad_matrix(T) -> tuple:
    """``[Ad_T] = [[R, 0], [[p] R, R]]`` as 6 rows (the adjoint representation, Lynch & Park,
    Sec. 3.3.2; the blocks of ``L`` in Sec. 8.4, draft Eq. (9.76))."""
    R, p = T
    pR = V.matmul(skew(p), R)
    return tuple(tuple(R[r]) + (0, 0, 0) for r in range(3)) + tuple(
        tuple(pR[r]) + tuple(R[r]) for r in range(3))


def ad(twist1, twist2) -> tuple:
    """The Lie bracket ``[V1, V2] = ad_{V1}(V2) = (w1 x w2, v1 x w2 + w1 x v2)`` (Lynch & Park,
    Sec. 8.2 (draft Eqs. (9.28)-(9.30))).

    >>> ad((1, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0))      # [A, A] = 0
    (0, 0, 0, 0, 0, 0)
    """
    w1, v1, w2, v2 = twist1[:3], twist1[3:], twist2[:3], twist2[3:]
    return (*V.cross(w1, w2), *V.add(V.cross(v1, w2), V.cross(w1, v2)))


def ad_transpose(twist, wrench) -> tuple:
    """``[ad_V]^T F = (-w x m - v x f, -w x f)`` (Lynch & Park, Sec. 8.2 (draft Eq. (9.31)))."""
    w, v, m, f = twist[:3], twist[3:], wrench[:3], wrench[3:]
    return (*negate(V.add(V.cross(w, m), V.cross(v, f))), *negate(V.cross(w, f)))


def ad_matrix(twist) -> tuple:
    """``[ad_V] = [[[w], 0], [[v], [w]]]`` as 6 rows (Lynch & Park, Sec. 8.2 (draft Eq. (9.29)))."""
    W, Vv = skew(twist[:3]), skew(twist[3:])
    return tuple(tuple(W[r]) + (0, 0, 0) for r in range(3)) + tuple(
        tuple(Vv[r]) + tuple(W[r]) for r in range(3))


# -- spatial inertia ------------------------------------------------------------------------------
def spatial_inertia_at_com(mass, inertia) -> tuple:
    """``G_b = [[I_b, 0], [0, m 1]]`` in a frame at the centre of mass (Lynch & Park,
    Secs. 8.2-8.3 (draft Eqs. (9.23), (9.52))), as 6 rows."""
    I = inertia
    return (tuple(I[0]) + (0, 0, 0), tuple(I[1]) + (0, 0, 0), tuple(I[2]) + (0, 0, 0),
            (0, 0, 0, mass, 0, 0), (0, 0, 0, 0, mass, 0), (0, 0, 0, 0, 0, mass))


def spatial_inertia(mass, com, inertia) -> tuple:
    """The spatial inertia in a frame away from the centre of mass ``com`` (Steiner's theorem):
    ``[[I_c + m [c][c]^T, m [c]], [m [c]^T, m 1]]``.

    >>> G = spatial_inertia(2.0, (1.0, 0.0, 0.0), ((0, 0, 0), (0, 0, 0), (0, 0, 0)))
    >>> G[2][2], G[2][4]                        # a point mass 1 m out along x: I_zz = m c^2
    (2.0, 2.0)
    """
    C = skew(com)
    CCt = V.matmul(C, V.transpose(C))
    top = tuple(tuple(inertia[r][k] + mass * CCt[r][k] for k in range(3))
                + tuple(mass * C[r][k] for k in range(3)) for r in range(3))
    bottom = tuple(tuple(mass * C[k][r] for k in range(3))
                   + tuple(mass if k == r else 0 for k in range(3)) for r in range(3))
    return top + bottom


def change_frame(G, T) -> tuple:
    """``G_a = [Ad_T]^T G_b [Ad_T]`` for ``T = T_ba`` (Lynch & Park, Sec. 8.2 (draft Eq. (9.24)),
    ``[Ad_T]`` of Sec. 3.3.2), in 3x3 blocks: with ``G = [[A, B], [B^T, C]]``, ``X = B - [p] C``,
    ``G_a = [[R^T (A + X [p] + (B [p])^T) R, R^T X R], [R^T X^T R, R^T C R]]`` (half the
    multiplications of two 6x6 products).

    >>> G_c = spatial_inertia_at_com(2.0, ((0.1, 0, 0), (0, 0.2, 0), (0, 0, 0.3)))
    >>> G_a = change_frame(G_c, translation((-1.0, 0.0, 0.0)))   # a: 1 m before the c.o.m.
    >>> G_a == spatial_inertia(2.0, (1.0, 0.0, 0.0), ((0.1, 0, 0), (0, 0.2, 0), (0, 0, 0.3)))
    True
    """
    R, p = T
    A = tuple(row[:3] for row in G[:3])
    B = tuple(row[3:] for row in G[:3])
    C = tuple(row[3:] for row in G[3:])
    PC = [V.cross(p, (C[0][j], C[1][j], C[2][j])) for j in range(3)]   # columns of [p] C
    X = tuple(tuple(B[r][j] - PC[j][r] for j in range(3)) for r in range(3))
    XP = [V.cross(X[r], p) for r in range(3)]         # rows of X [p]: x_r^T [p] = (x_r x p)^T
    BP = [V.cross(B[r], p) for r in range(3)]         # rows of B [p]
    top = tuple(tuple(A[r][c] + XP[r][c] + BP[c][r] for c in range(3)) for r in range(3))
    upper, lower = _congruence(top, R), _congruence(C, R)
    XR = V.matmul(X, R)
    corner = tuple(tuple(R[0][r] * XR[0][c] + R[1][r] * XR[1][c] + R[2][r] * XR[2][c]
                         for c in range(3)) for r in range(3))                   # R^T X R
    return (tuple(upper[r] + corner[r] for r in range(3))
            + tuple(tuple(corner[c][r] for c in range(3)) + lower[r] for r in range(3)))


def _congruence(M, R) -> tuple:
    """``R^T M R`` for a symmetric ``M``: the upper triangle computed, the lower one copied."""
    MR = V.matmul(M, R)
    upper = {(r, c): R[0][r] * MR[0][c] + R[1][r] * MR[1][c] + R[2][r] * MR[2][c]
             for r in range(3) for c in range(r, 3)}
    return tuple(tuple(upper[min(r, c), max(r, c)] for c in range(3)) for r in range(3))


def kinetic_energy(G, twist):
    """``(1/2) V^T G V`` (Lynch & Park, Sec. 8.2 (draft Eq. (9.24)))."""
    return dot6(twist, matvec6(G, twist)) / 2


def momentum(G, twist) -> tuple:
    """``P = G V`` (Lynch & Park, Sec. 8.2 (draft Eq. (9.25)))."""
    return matvec6(G, twist)


def body_wrench(G, twist_dot, twist) -> tuple:
    """``F = G Vdot - [ad_V]^T G V`` (Lynch & Park, Sec. 8.2 (draft Eqs. (9.32)-(9.33)))."""
    Gvd = matvec6(G, twist_dot)
    bias = ad_transpose(twist, matvec6(G, twist))
    return tuple(Gvd[k] - bias[k] for k in range(6))


# -- the exponential of a joint's screw -----------------------------------------------------------
def exp_twist(screw, theta, revolute: bool, backend=V.NUMERIC) -> tuple:
    """``e^{[A] theta}`` for a unit screw ``A = (omega, v)`` as ``(R, p)`` (Lynch & Park, Ch. 3):
    revolute, Rodrigues' ``R`` and ``p = sin(theta) v + (1 - cos theta) omega x v``; prismatic,
    ``R = 1``, ``p = v theta``.

    >>> R, p = exp_twist((0, 0, 1, 0, -1, 0), 3.141592653589793, True)   # a half turn about
    >>> [round(x, 12) + 0 for x in p]                                     # the line x = 1
    [2.0, 0.0, 0.0]
    """
    w, v = screw[:3], screw[3:]
    if not revolute:
        return V.IDENTITY, V.scale(theta, v)
    s, c = backend.sin(theta), backend.cos(theta)
    W = skew(w)
    W2 = V.matmul(W, W)
    one_c = 1 - c
    R = tuple(tuple((1 if r == k else 0) + s * W[r][k] + one_c * W2[r][k] for k in range(3))
              for r in range(3))
    p = V.add(V.scale(s, v), V.scale(one_c, V.cross(w, v)))
    return R, p


# -- 6-vectors and 6x6 matrices -------------------------------------------------------------------
def vanishes(x) -> bool:
    """``x`` is the exact number 0 (Python's or SymPy's); a traced, counted or jet value never
    is, so on those every product is kept."""
    if type(x) in (int, float):
        return x == 0
    return isinstance(x, sympy.Basic) and x == 0


_EMPTY = object()


def sum_terms(terms):
    """``sum`` that starts from the first term (no ``0 +`` on a tape); 0 for no terms."""
    total = _EMPTY
    for t in terms:
        total = t if total is _EMPTY else total + t
    return 0 if total is _EMPTY else total


def add6(a, b) -> tuple:
    return tuple(a[k] + b[k] for k in range(6))


def scale6(s, a) -> tuple:
    return tuple(s * a[k] for k in range(6))


def dot6(a, b):
    return sum_terms(a[k] * b[k] for k in range(6) if not (vanishes(a[k]) or vanishes(b[k])))


def matvec6(M, x) -> tuple:
    """``M x`` for 6 rows ``M``; exact zeros (a block of ``G``) are skipped, not multiplied."""
    return tuple(sum_terms(row[k] * x[k] for k in range(6)
                           if not (vanishes(row[k]) or vanishes(x[k]))) for row in M)
