"""Recursive Newton-Euler inverse dynamics in the sources' two forms: :func:`base_frame` (Fu,
Gonzalez & Lee, Table 3.2; Schilling, Algorithm 6-8-1) and :func:`link_frame` (Luh, Walker &
Paul: Fu, Gonzalez & Lee, Table 3.3, Eqs. (3.3-50)-(3.3-59), Algorithm 3.1, following Eq.
(3.3-57) where Table 3.3 errs, :mod:`dynlab.teaching.errata`).  Gravity is the base's
acceleration ``-gravity`` (Eq. (3.3-46)), the tool's wrench ``f_{n+1}, n_{n+1}`` (step N4),
friction Schilling, Eq. (6-3-3).

>>> import sympy
>>> from dynlab import Link, Robot, inverse_dynamics
>>> m, a, g, q, qd, qdd = sympy.symbols("m a g q qd qdd")
>>> rod = Robot([Link("R", a=a, mass=m, com=(-a / 2, 0, 0),
...                   inertia=sympy.diag(0, m * a**2 / 12, m * a**2 / 12), name="link 1")],
...             gravity=(0, -g, 0))
>>> [sympy.factor(inverse_dynamics(rod, [q], [qd], [qdd], variant=v)[0])
...  for v in ("link", "base")]
[a*m*(2*a*qdd + 3*g*cos(q))/6, a*m*(2*a*qdd + 3*g*cos(q))/6]
"""

from __future__ import annotations

from dynlab.model import vectors as V
from dynlab.model.friction import link_friction
from dynlab.model.kinematics import chain, link_offset_in_own_frame, link_rotation

#: The per-link quantities a trace records, in the order of the recursions.
TRACE_QUANTITIES = ("omega", "omega_dot", "v_dot", "a_bar", "F", "N", "f", "n", "tau")


def _neg(u):
    return (-u[0], -u[1], -u[2])


def link_frame(links, q, qd, qdd, gravity, tip_force, tip_moment, backend=V.NUMERIC,
               use_gravity=True, use_friction=True, use_tip=True, trace=False):
    """Luh's link-frame recursion (Fu, Gonzalez & Lee, Table 3.3 with Eq. (3.3-57)): ``(tau,
    trace)``.  Each ``x_i`` is ``^iR_0 x_i``; ``R`` is ``^{i-1}R_i``."""
    n = len(links)
    w = wd = V.ZERO
    vd = _neg(gravity) if use_gravity else V.ZERO          # v_dot_0 = -gravity, (3.3-46)
    rotations, offsets, kin = [], [], []
    for link, qi, qdi, qddi in zip(links, q, qd, qdd):
        R = link_rotation(link, qi, backend)
        p = link_offset_in_own_frame(link, qi)             # ^iR_0 p*_i, (3.3-59)
        if link.revolute:
            # (3.3-50), (3.3-51): w_{i-1} x (z0 qd_i) = (w_y qd_i, -w_x qd_i, 0)
            w_new = V.tmatvec(R, (w[0], w[1], w[2] + qdi))
            wd = V.tmatvec(R, (wd[0] + w[1] * qdi, wd[1] - w[0] * qdi, wd[2] + qddi))
            w = w_new
            # (3.3-52), rotational
            vd = V.add3(V.cross(wd, p), V.cross(w, V.cross(w, p)), V.tmatvec(R, vd))
        else:
            w = V.tmatvec(R, w)
            wd = V.tmatvec(R, wd)
            z = R[2]                                       # ^iR_{i-1} z0: third row of R
            # (3.3-52), translational
            vd = V.add(V.add3(V.tmatvec(R, (vd[0], vd[1], vd[2] + qddi)), V.cross(wd, p),
                              V.scale(2, V.cross(w, V.scale(qdi, z)))),
                       V.cross(w, V.cross(w, p)))
        # (3.3-53): acceleration of the centre of mass
        abar = V.add3(V.cross(wd, link.com), V.cross(w, V.cross(w, link.com)), vd)
        rotations.append(R)
        offsets.append(p)
        kin.append((w, wd, vd, abar))

    # boundary condition, Fu, Gonzalez & Lee, Algorithm 3.1 step N4: the tool's wrench on its
    # environment, given in base coordinates, brought into frame n (no load: nothing to rotate)
    if use_tip and any(v != 0 for v in (*tip_force, *tip_moment)):
        tool = V.IDENTITY
        for R in rotations:
            tool = V.matmul(tool, R)
        f_next, n_next = V.tmatvec(tool, tip_force), V.tmatvec(tool, tip_moment)
    else:
        f_next = n_next = V.ZERO
    R_next = V.IDENTITY
    tau = [0] * n
    records = [None] * n
    for i in range(n - 1, -1, -1):
        link, R, p = links[i], rotations[i], offsets[i]
        w, wd, vd, abar = kin[i]
        F = V.scale(link.mass, abar)                                       # (3.3-54)
        I = link.inertia
        N = V.add(V.matvec(I, wd), V.cross(w, V.matvec(I, w)))             # (3.3-55)
        f_carried = V.matvec(R_next, f_next)
        f = V.add(f_carried, F)                                            # (3.3-56)
        nn = V.add(V.add3(V.matvec(R_next, n_next), V.cross(p, f_carried),
                          V.cross(V.add(p, link.com), F)), N)              # (3.3-57)
        z = R[2]
        torque = V.dot(nn if link.revolute else f, z)                      # (3.3-58)
        if use_friction and link.has_friction:
            torque = torque + link_friction(link, qd[i], backend)          # Schilling (6-3-3)
        tau[i] = torque
        if trace:
            records[i] = dict(zip(TRACE_QUANTITIES, (w, wd, vd, abar, F, N, f, nn, torque)))
        f_next, n_next, R_next = f, nn, R
    return tau, (records if trace else None)


def base_frame(links, q, qd, qdd, gravity, tip_force, tip_moment, backend=V.NUMERIC,
               use_gravity=True, use_friction=True, use_tip=True, trace=False):
    """The base-frame recursion of Fu, Gonzalez & Lee, Table 3.2 / Schilling, Algorithm 6-8-1;
    returns ``(tau, trace)``.

    All vectors are in base coordinates: ``z`` is ``z_{i-1}``, ``p`` is ``p*_i = p_i - p_{i-1}``,
    ``s`` is ``s_bar_i = R_0i r_bar_i`` and ``I`` is ``R_0i I_i R_0i^T``.
    """
    n = len(links)
    rots, origins = chain(links, q, backend)
    w = wd = V.ZERO
    vd = _neg(gravity) if use_gravity else V.ZERO          # v_dot_0 = -gravity, (3.3-46)
    kin = []
    for i, (link, qdi, qddi) in enumerate(zip(links, qd, qdd)):
        z = (rots[i][0][2], rots[i][1][2], rots[i][2][2])
        p = V.sub(origins[i + 1], origins[i])
        s = V.matvec(rots[i + 1], link.com)
        if link.revolute:
            zqd = V.scale(qdi, z)
            wd = V.add3(wd, V.scale(qddi, z), V.cross(w, zqd))             # (3.3-29)
            w = V.add(w, zqd)                                              # (3.3-28)
            vd = V.add3(V.cross(wd, p), V.cross(w, V.cross(w, p)), vd)     # (3.3-35)
        else:
            vd = V.add(V.add3(V.scale(qddi, z), V.cross(wd, p),
                              V.scale(2, V.cross(w, V.scale(qdi, z)))),
                       V.add(V.cross(w, V.cross(w, p)), vd))               # (3.3-35)
        abar = V.add3(V.cross(wd, s), V.cross(w, V.cross(w, s)), vd)       # (3.3-39)
        kin.append((z, p, s, w, wd, vd, abar))

    f_next = tip_force if use_tip else V.ZERO              # f_{n+1}, n_{n+1}: step N4
    n_next = tip_moment if use_tip else V.ZERO
    tau = [0] * n
    records = [None] * n
    for i in range(n - 1, -1, -1):
        link = links[i]
        z, p, s, w, wd, vd, abar = kin[i]
        R = rots[i + 1]
        I = V.matmul(V.matmul(R, link.inertia), V.transpose(R))           # I_i in base axes
        F = V.scale(link.mass, abar)                                       # (3.3-43)
        N = V.add(V.matvec(I, wd), V.cross(w, V.matvec(I, w)))             # (3.3-44)
        f = V.add(F, f_next)                                               # (3.3-45)
        nn = V.add(V.add3(n_next, V.cross(p, f_next), V.cross(V.add(p, s), F)), N)
        torque = V.dot(nn if link.revolute else f, z)
        if use_friction and link.has_friction:
            torque = torque + link_friction(link, qd[i], backend)
        tau[i] = torque
        if trace:
            records[i] = dict(zip(TRACE_QUANTITIES, (w, wd, vd, abar, F, N, f, nn, torque)))
        f_next, n_next = f, nn
    return tau, (records if trace else None)


VARIANTS = {"link": link_frame, "base": base_frame}
