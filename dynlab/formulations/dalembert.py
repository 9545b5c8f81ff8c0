"""Lee's generalized d'Alembert (G-D) equations, Fu, Gonzalez & Lee, Sec. 3.4, Eqs.
(3.4-24)-(3.4-28): ``tau = (D^rot + D^tran) qdd + h^tran + h^rot + c``, translational and
rotational kinetic energy kept apart; ``gravity`` is Fu, Gonzalez & Lee's G-D ``g`` (pointing
down, (3.4-20)), so (3.4-28) is used as printed.

Extended to prismatic joints (the book treats revolute ones only): joint ``j``'s columns
``dw_s/dqd_j = 0``, ``dv_s/dqd_j = z_{j-1}`` replace ``z_{j-1}`` and ``z_{j-1} x (r_s - p_{j-1})``
in (3.4-25) and (3.4-28) (``c_i = -(g . z_{i-1}) sum_{j >= i} m_j``); prismatic rates drop out
of ``w_s``, ``beta_s`` and ``h^rot_i = 0`` (3.4-27); and ``a_s`` of (3.4-26) gains the Coriolis
``2 w_k x qd_k z_{k-1}`` of each prismatic ``k <= s``, as N-E's (3.3-35).  The slips of
Sec. 3.4 are in :data:`dynlab.teaching.errata.ERRATA`.

>>> from dynlab import Link, Robot
>>> lift = Robot([Link("P", mass=3.0, inertia=(1, 1, 1), name="slide")])
>>> result = terms(lift.numeric()[0], (0.4,), (2.0,), lift.gravity)   # D = m, c = m |g|
>>> result["D"], result["D_rot"], result["h"], result["c"]
([[3.0]], [[0.0]], [0.0], [29.4186])
"""

from __future__ import annotations

from dynlab.model import vectors as V
from dynlab.model.kinematics import chain

__all__ = ["VARIANTS", "gravity_terms", "inertia_terms", "link_kinematics", "terms",
           "velocity_terms"]


def link_kinematics(links, q, qd, backend=V.NUMERIC) -> list:
    """What G-D needs of each link ``s`` (a dict per link): ``R`` (``R_0s``, (3.2-4)), ``centre``
    (``r_s``, (3.4-3)), ``linear`` and ``angular`` (the Jacobian columns, (3.4-7), (3.4-2)),
    ``omega`` (``sR0 w_s``), ``beta`` (velocity part of ``w_dot_s``, (3.4-11)) and ``a_bar``
    (velocity part of the centre of mass's acceleration, (3.4-26)).

    >>> from dynlab import Link, Robot
    >>> arm = Robot([Link("R", a=1.0, mass=1.0, name="l1"), Link("P", mass=1.0, name="l2")])
    >>> kin = link_kinematics(arm.numeric()[0], (0.0, 0.5), (2.0, 1.0))
    >>> kin[1]["linear"]     # joint 1 moves the slider's mass tangentially, joint 2 along z_1
    [(0.0, 1.0, 0.0), (0.0, 0.0, 1.0)]
    >>> kin[1]["a_bar"]      # centripetal -w^2 r; the slide is along the axis: no Coriolis
    (-4.0, 0.0, 0.0)
    """
    rotations, origins = chain(links, q, backend)                # R_0s, p_s: (3.2-4)
    axes = [(R[0][2], R[1][2], R[2][2]) for R in rotations[:-1]]  # z_{j-1}: third column
    result = []
    w = beta = V.ZERO          # w_s, and the velocity part of w_dot_s (base coordinates)
    a_origin = V.ZERO          # velocity part of the acceleration of p_{s-1}: links below s
    for s, (link, qds) in enumerate(zip(links, qd)):
        z = axes[s]
        R = rotations[s + 1]
        if link.revolute:
            spin = V.scale(qds, z)
            beta = V.add(beta, V.cross(w, spin))               # (3.4-11): w_{s-1} x qd_s z_{s-1}
            w = V.add(w, spin)                                  # (3.4-1)
            slide = V.ZERO
        else:
            slide = V.scale(2, V.cross(w, V.scale(qds, z)))   # 2 w_s x qd_s z_{s-1}, (3.3-35)
        centre = V.add(origins[s + 1], V.matvec(R, link.com))  # r_s = p_s + R_0s r-bar_s
        c_bar = V.sub(centre, origins[s])                      # c_s = r_s - p_{s-1}, (3.4-3)
        p_star = V.sub(origins[s + 1], origins[s])             # p*_s
        # (3.4-26), terms 3 and 4 (link s itself): w_s x (w_s x c_s) + beta_s x c_s, on top of
        # terms 1 and 2 (the links below s), which a_origin has accumulated
        a_bar = V.add(V.add3(a_origin, V.cross(w, V.cross(w, c_bar)), V.cross(beta, c_bar)),
                      slide)
        a_origin = V.add(V.add3(a_origin, V.cross(w, V.cross(w, p_star)),
                                V.cross(beta, p_star)), slide)
        linear, angular = [], []
        for j in range(s + 1):
            if links[j].revolute:
                linear.append(V.cross(axes[j], V.sub(centre, origins[j])))     # (3.4-7)
                angular.append(V.tmatvec(R, axes[j]))                         # sR0 z_{j-1}
            else:
                linear.append(axes[j])
                angular.append(V.ZERO)
        result.append({"R": R, "centre": centre, "linear": linear, "angular": angular,
                       "omega": V.tmatvec(R, w), "beta": V.tmatvec(R, beta),   # (3.4-2)
                       "a_bar": a_bar})
    return result


def inertia_terms(links, kinematics) -> tuple:
    """``(D_rot, D_tran)``, n x n lists, by Fu, Gonzalez & Lee, Eq. (3.4-25), each computed for ``i
    <= j`` and mirrored (``D_ji = D_ij``).

    >>> from dynlab import Link, Robot
    >>> arm = Robot([Link("R", a=1.0, mass=2.0, name="l1"), Link("R", a=1.0, mass=1.0,
    ...              name="l2")])
    >>> links = arm.numeric()[0]
    >>> D_rot, D_tran = inertia_terms(links, link_kinematics(links, (0.0, 0.0), (0.0, 0.0)))
    >>> D_rot, D_tran     # point masses: 2 * 1^2 + 1 * 2^2, 1 * 2 * 1, 1 * 1^2
    ([[0.0, 0.0], [0.0, 0.0]], [[6.0, 2.0], [2.0, 1.0]])
    """
    n = len(links)
    D_rot = [[0] * n for _ in range(n)]
    D_tran = [[0] * n for _ in range(n)]
    for s, (link, kin) in enumerate(zip(links, kinematics)):
        zs, cols = kin["angular"], kin["linear"]
        I_z = [V.matvec(link.inertia, z) for z in zs]          # I_s (sR0 z_{j-1})
        for j in range(s + 1):
            for i in range(j + 1):
                # (3.4-25), first sum: (sR0 z_{i-1})^T I_s (sR0 z_{j-1})
                D_rot[i][j] = D_rot[i][j] + V.dot(zs[i], I_z[j])
                # (3.4-25), second sum:
                #   m_s [z_{j-1} x (r_s - p_{j-1})] . [z_{i-1} x (r_s - p_{i-1})]
                D_tran[i][j] = D_tran[i][j] + link.mass * V.dot(cols[j], cols[i])
    for j in range(n):
        for i in range(j + 1, n):
            D_rot[i][j] = D_rot[j][i]
            D_tran[i][j] = D_tran[j][i]
    return D_rot, D_tran


def velocity_terms(links, kinematics) -> tuple:
    """``(h_rot, h_tran)`` by Fu, Gonzalez & Lee, Eqs. (3.4-27), (3.4-26); a polar arm's point mass
    on a slider (``r = 0.5``, ``thd = 2``, ``rd = 1``): ``h = (2 m r rd thd, -m r thd^2)``:

    >>> from dynlab import Link, Robot
    >>> arm = Robot([Link("R", alpha=1.5707963267948966, name="turn"),
    ...              Link("P", mass=1.0, name="slide")])
    >>> links = arm.numeric()[0]
    >>> velocity_terms(links, link_kinematics(links, (0.0, 0.5), (2.0, 1.0)))
    ([0.0, 0.0], [2.0, -2.0])
    """
    n = len(links)
    h_rot, h_tran = [0] * n, [0] * n
    for s, (link, kin) in enumerate(zip(links, kinematics)):
        I = link.inertia
        w, beta = kin["omega"], kin["beta"]
        Iw = V.matvec(I, w)
        # (3.4-27) for link s, both terms,
        #   (sR0 z_{i-1})^T I_s beta_s + [sR0 z_{i-1} x w_s]^T I_s w_s
        #   = (sR0 z_{i-1}) . (I_s beta_s + w_s x I_s w_s)      (a . (b x c) = (a x b) . c)
        moment = V.add(V.matvec(I, beta), V.cross(w, Iw))
        for i in range(s + 1):
            h_rot[i] = h_rot[i] + V.dot(kin["angular"][i], moment)
            # (3.4-26): m_s a_s . [z_{i-1} x (r_s - p_{i-1})]
            h_tran[i] = h_tran[i] + link.mass * V.dot(kin["a_bar"], kin["linear"][i])
    return h_rot, h_tran


def gravity_terms(links, q, gravity, backend=V.NUMERIC) -> list:
    """``c`` by Fu, Gonzalez & Lee, Eq. (3.4-28), ``c_i = -g . [z_{i-1} x sum_{j>=i} m_j (r_j -
    p_{i-1})]`` (prismatic: ``-(g . z_{i-1}) sum_{j>=i} m_j``), ``g = gravity``.

    >>> import sympy
    >>> from dynlab import Link, Robot
    >>> m, g = sympy.symbols("m g", positive=True)
    >>> th, r = sympy.symbols("th r")
    >>> arm = Robot([Link("R", alpha=sympy.pi / 2, name="turn"),      # a polar arm, y_0 up
    ...              Link("P", mass=m, name="slide")], gravity=(0, -g, 0))
    >>> gravity_terms(arm.symbolic()[0], (th, r), arm.gravity, V.SYMBOLIC)
    [g*m*r*sin(th), -g*m*cos(th)]
    """
    rotations, origins = chain(links, q, backend)
    n = len(links)
    c = [0] * n
    mass, moment = 0, V.ZERO             # sum_{j>=i} m_j and sum_{j>=i} m_j r_j, from the tip
    for i in range(n - 1, -1, -1):
        link, R = links[i], rotations[i + 1]
        centre = V.add(origins[i + 1], V.matvec(R, link.com))
        mass = mass + link.mass
        moment = V.add(moment, V.scale(link.mass, centre))
        Ri = rotations[i]
        z = (Ri[0][2], Ri[1][2], Ri[2][2])
        if link.revolute:
            # (3.4-28): sum_j m_j (r_j - p_{i-1}) = sum_j m_j r_j - (sum_j m_j) p_{i-1}
            arm = V.sub(moment, V.scale(mass, origins[i]))
            c[i] = -V.dot(gravity, V.cross(z, arm))
        else:
            c[i] = -(V.dot(gravity, z) * mass)
    return c


def terms(links, q, qd, gravity, backend=V.NUMERIC) -> dict:
    """The G-D terms of Fu, Gonzalez & Lee, Eqs. (3.4-24)-(3.4-28): ``"D"``, ``"h"``, ``"c"``
    (``tau = D qdd + h + c``) and the parts ``"D_rot"``, ``"D_tran"``, ``"h_rot"``, ``"h_tran"``.

    >>> from dynlab.model.robots import puma560
    >>> import numpy as np
    >>> from dynlab import inverse_dynamics
    >>> arm = puma560()
    >>> q, qd, qdd = (0.1, -0.4, 0.3, 0.2, 0.5, -0.6), (0.5, 1.0, -0.7, 0.3, 0.2, 0.1), (1,) * 6
    >>> gd = terms(arm.numeric()[0], q, qd, arm.gravity)
    >>> tau = np.array(gd["D"]) @ qdd + gd["h"] + gd["c"]
    >>> bool(np.allclose(tau, inverse_dynamics(arm, q, qd, qdd, friction=False)))
    True
    """
    n = len(links)
    kinematics = link_kinematics(links, q, qd, backend)
    D_rot, D_tran = inertia_terms(links, kinematics)
    h_rot, h_tran = velocity_terms(links, kinematics)
    c = gravity_terms(links, q, gravity, backend)
    D = [[D_rot[i][j] + D_tran[i][j] for j in range(n)] for i in range(n)]     # (3.4-25)
    h = [h_tran[i] + h_rot[i] for i in range(n)]                                # (3.4-24)
    return {"D": D, "h": h, "c": c, "D_rot": D_rot, "D_tran": D_tran, "h_rot": h_rot,
            "h_tran": h_tran}


VARIANTS = {"lee": terms}
