"""Featherstone's (2008) composite rigid body algorithm (``D``, Table 6.2) and articulated body
algorithm (forward dynamics in ``O(n)``, Table 7.1) in the joint frames of
:func:`dynlab.formulations.twist_wrench.joint_frames`: his ``iX_lambda`` is ``[Ad_{T_{i,i-1}}]``,
``v x S qd`` is ``[V_i, A_i] qd_i`` and ``v x* I v`` is ``-ad^T_V(G V)`` (Lynch & Park, Sec. 8.3
(draft Eqs. (9.55), (9.56))).

>>> import numpy as np
>>> from dynlab import forward_dynamics
>>> from dynlab.model.robots import puma560
>>> arm, q, qd, tau = puma560(), [0.1, -0.5, 0.3, 0.2, 0.4, -0.1], [0.5] * 6, [1.0] * 6
>>> qdd = articulated_body_accelerations(arm, q, qd, tau)
>>> bool(np.allclose(qdd, forward_dynamics(arm, q, qd, tau), rtol=0, atol=1e-9))
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import sympy

from dynlab.formulations.twist_wrench import base_acceleration, is_zero, joint_frames, tip_wrench
from dynlab.model import spatial as S
from dynlab.model import vectors as V
from dynlab.model.friction import link_friction
from dynlab.model.kinematics import resolve
from dynlab.model.ldl import ZeroPivot, singular_pivot


def _axis(frames, i) -> int:
    """The index of ``A_i``'s one non-zero entry: 2 (rotation about z) or 5 (along z)."""
    return 2 if frames.revolute[i] else 5


def composite_rigid_body(links, q, backend=V.NUMERIC, *, diagonal_only=False) -> list:
    """``D`` (rows) by the composite rigid body algorithm (Featherstone (2008), Table 6.2);
    ``diagonal_only``: only ``H_ii`` (``O(n)``; the other elements are left 0).

    >>> from dynlab.model.robots import planar_2r
    >>> [[round(x, 12) for x in row]
    ...  for row in composite_rigid_body(planar_2r("lynch_park").numeric()[0], [0.0, 0.0])]
    [[2.62, 0.72], [0.72, 0.32]]
    """
    n = len(links)
    frames = joint_frames(links, backend)
    back = [S.inverse(frames.step(i, q[i], backend)) for i in range(n)]     # T_{i,i-1}
    composite = list(frames.inertias)                                       # I^c_i = G_i
    H = [[0] * n for _ in range(n)]
    for i in range(n - 1, -1, -1):
        k = _axis(frames, i)
        F = tuple(row[k] for row in composite[i])                           # F = I^c_i S_i
        H[i][i] = F[k]                                                      # H_ii = S_i^T F
        j = 0 if diagonal_only else i
        while j > 0:
            F = S.Ad_transpose(back[j], F)                                  # F = lambdaX*_j F
            j -= 1
            H[i][j] = H[j][i] = F[_axis(frames, j)]                         # H_ij = F^T S_j
        if i > 0:                                                           # I^c_lambda +=
            composite[i - 1] = _add66(composite[i - 1], S.change_frame(composite[i], back[i]))
    return H


def inertia_rows(links, q, gravity=None, backend=V.NUMERIC) -> list:
    """:func:`composite_rigid_body` in the contract of ``Formulation.inertias``
    (:mod:`dynlab.formulations.registry`): ``D`` as lists of rows; ``gravity`` plays no part in
    ``D``."""
    return [list(row) for row in composite_rigid_body(links, q, backend)]


def _add66(a, b) -> tuple:
    return tuple(tuple(a[r][c] + b[r][c] for c in range(6)) for r in range(6))


def articulated_body(links, q, qd, net, gravity, tip_force, tip_moment, backend=V.NUMERIC, *,
                     use_gravity=True, use_tip=True) -> tuple:
    """``(qdd, pivots)`` for the net joint torques ``net = tau - friction`` by the articulated
    body algorithm (Featherstone (2008), Table 7.1)."""
    n = len(links)
    frames = joint_frames(links, backend)
    back, twists, biases, inertias, brackets = [], [], [], [], []
    twist = S.ZERO6
    rotation = V.IDENTITY
    use_tip = use_tip and any(not is_zero(v) for v in (*tip_force, *tip_moment))
    for i in range(n):                                                      # pass 1
        T = frames.step(i, q[i], backend)
        X = S.inverse(T)                                                    # iX_lambda
        A = frames.screws[i]
        twist = S.add6(S.Ad(X, twist), S.scale6(qd[i], A))  # v_i, Sec. 8.3 (draft Eq. (9.54))
        brackets.append(S.scale6(qd[i], S.ad(twist, A)))  # c_i, Sec. 8.3 (draft Eq. (9.55))
        G = frames.inertias[i]
        biases.append(S.scale6(-1, S.ad_transpose(twist, S.matvec6(G, twist))))   # p^A_i
        inertias.append(G)                                                  # I^A_i = G_i
        back.append(X)
        twists.append(twist)
        if use_tip:
            rotation = V.matmul(rotation, T[0])
    if use_tip:                                  # the tool's wrench, supplied by link n
        biases[-1] = S.add6(biases[-1], tip_wrench(frames, rotation, tip_force, tip_moment,
                                                    True))
    U, D, u = [None] * n, [None] * n, [None] * n
    for i in range(n - 1, -1, -1):                                          # pass 2
        k = _axis(frames, i)
        IA, pA = inertias[i], biases[i]
        U[i] = tuple(row[k] for row in IA)                                  # U_i = I^A_i S_i
        D[i] = U[i][k]                                                      # D_i = S_i^T U_i
        if is_zero(D[i]):                      # no mass beyond joint i moves along A_i
            raise ZeroPivot(i + 1)
        u[i] = net[i] - pA[k]                                               # u_i = tau_i - S^T p
        if i > 0:
            inverse_D = 1 / D[i]
            # I^a_i = I^A_i - U_i U_i^T / D_i; its row and column k vanish exactly
            # (S_i^T I^a_i = U_i^T - D_i U_i^T / D_i = 0), so they are zeros, not round-off
            Ia = tuple(tuple(0 if k in (r, c) else IA[r][c] - U[i][r] * U[i][c] * inverse_D
                             for c in range(6)) for r in range(6))
            pa = S.add6(S.add6(pA, S.matvec6(Ia, brackets[i])),
                        S.scale6(u[i] * inverse_D, U[i]))                   # p^a_i
            inertias[i - 1] = _add66(inertias[i - 1], S.change_frame(Ia, back[i]))
            biases[i - 1] = S.add6(biases[i - 1], S.Ad_transpose(back[i], pa))
    qdd = [0] * n
    acceleration = base_acceleration(gravity, use_gravity)                 # a_0 = -a_g
    for i in range(n):                                                      # pass 3
        a = S.add6(S.Ad(back[i], acceleration), brackets[i])                # a'_i
        qdd[i] = (u[i] - S.dot6(U[i], a)) / D[i]
        k = _axis(frames, i)
        acceleration = tuple(a[r] + qdd[i] if r == k else a[r] for r in range(6))
    return qdd, D


def accelerations_and_pivots(links, q, qd, net, gravity, tip_force, tip_moment,
                             backend=V.NUMERIC, *, use_gravity=True, use_tip=True) -> list:
    """``qdd_1..qdd_n``, the pivots ``D_1..D_n`` and the diagonal of the inertia matrix
    ``H_11..H_nn`` in one list: the forward-dynamics contract of
    :func:`dynlab.dynamics.forward.compiled_accelerations`."""
    qdd, pivots = articulated_body(links, q, qd, net, gravity, tip_force, tip_moment, backend,
                                   use_gravity=use_gravity, use_tip=use_tip)
    return list(qdd) + list(pivots) + _diagonal(links, q, backend)


def _diagonal(links, q, backend) -> list:
    """``H_ii`` of :func:`composite_rigid_body`: what each articulated pivot ``D_i`` is measured
    against (:func:`dynlab.model.ldl.singular_pivot`)."""
    rows = composite_rigid_body(links, q, backend, diagonal_only=True)
    return [row[i] for i, row in enumerate(rows)]


# -- on a robot -----------------------------------------------------------------------------------
def composite_rigid_body_inertia(robot, q: Sequence):
    """``D(q)`` by the composite rigid body algorithm: a NumPy array on numbers, a SymPy
    ``Matrix`` on symbols.

    >>> from dynlab.model.robots import pendulum
    >>> composite_rigid_body_inertia(pendulum(), [0.3])            # m a^2 / 3
    array([[0.08333333]])
    """
    symbolic, backend, (links, *_), vec = resolve(robot, q=q)
    rows = composite_rigid_body(links, vec["q"], backend)
    return sympy.Matrix(rows) if symbolic else np.array(rows, dtype=float)


def articulated_inertias(robot, q: Sequence):
    """What each joint feels when the joints after it are free and those before it held: the
    articulated body algorithm's ``D_i = A_i^T I^A_i A_i`` (Featherstone (2008), Table 7.1),
    the inertia ``D`` less what the free joints take up, ``D_ii - D_i,>i D_>i,>i^-1 D_>i,i``.
    A NumPy array on numbers, a SymPy ``Matrix`` (a column) on symbols.

    >>> from dynlab.model.robots import planar_2r
    >>> articulated_inertias(planar_2r("fu"), [0.0, 0.0])  # m1 l^2/3 + m2 l^2/4; m2 l^2/3
    array([0.91666667, 0.33333333])
    """
    symbolic, backend, (links, grav, tip_f, tip_m), vec = resolve(robot, q=q)
    rest = [0] * robot.n                                 # D_i depends on q alone
    try:
        _, pivots = articulated_body(links, vec["q"], rest, rest, grav, tip_f, tip_m, backend,
                                     use_gravity=False, use_tip=False)
    except ZeroDivisionError as error:                  # a pivot exactly 0 (ZeroPivot)
        raise ValueError(f"{robot.name}: the articulated inertia of joint "
                         f"{getattr(error, 'joint', 1)} is 0: the joint moves no mass or "
                         f"inertia that the joints after it do not already move") from None
    return sympy.Matrix(pivots) if symbolic else np.array(pivots, dtype=float)


def articulated_body_accelerations(robot, q: Sequence, qd: Sequence, tau: Sequence, *,
                                   gravity: bool = True, friction: bool = True,
                                   tip_wrench: bool = True):
    """Joint accelerations by the articulated body algorithm, ``O(n)``: a NumPy array on numbers
    (no SymPy object built), a SymPy ``Matrix`` on symbols.  ``gravity``, ``friction`` and
    ``tip_wrench`` as for :func:`dynlab.forward_dynamics`; a joint that moves no mass raises a
    ValueError naming it.

    >>> from dynlab.model.robots import pendulum
    >>> articulated_body_accelerations(pendulum(), [0.0], [0.0], [0.0])   # -(3 g / 2 a) cos q
    array([-29.4186])
    """
    symbolic, backend, (links, grav, tip_f, tip_m), vec = resolve(robot, q=q, qd=qd, tau=tau)
    net = [t - (link_friction(link, v, backend) if friction and link.has_friction else 0)
           for t, link, v in zip(vec["tau"], links, vec["qd"])]
    try:
        qdd, pivots = articulated_body(links, vec["q"], vec["qd"], net, grav, tip_f, tip_m,
                                       backend, use_gravity=bool(gravity),
                                       use_tip=bool(tip_wrench))
        found = None if symbolic else singular_pivot(pivots, _diagonal(links, vec["q"],
                                                                          backend))
    except ZeroDivisionError as error:                  # a pivot exactly 0 (ZeroPivot)
        found = getattr(error, "joint", 1), "it is 0"
    if found is not None:
        joint, measured = found
        raise ValueError(f"{robot.name}: the articulated inertia of joint {joint} is not "
                         f"positive (the inertia matrix D is singular at q = "
                         f"{list(vec['q'])}; {measured}): the joint moves no mass or inertia "
                         f"that the joints after it do not already move; give its links mass "
                         f"and inertia")
    if symbolic:
        return sympy.Matrix(qdd)
    return np.array(qdd, dtype=float)
