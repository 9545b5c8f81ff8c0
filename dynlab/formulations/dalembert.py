"""Lee's generalized d'Alembert (G-D) equations of motion, Fu, Gonzalez & Lee, Sec. 3.4, for any mix of revolute
and prismatic joints.

G-D writes the Lagrange-Euler equations with the rotation matrices and relative position vectors
of N-E instead of 4x4 matrices, and keeps each link's *translational* (``m_s v_s . v_s / 2``) and
*rotational* (``w_s^T I_s w_s / 2``) kinetic energy apart all the way to the result (3.4-24):

    tau_i = sum_j (D^rot_ij + D^tran_ij) qdd_j + h^tran_i + h^rot_i + c_i

* ``D^rot_ij = sum_{s >= max(i,j)} (sR0 z_{i-1})^T I_s (sR0 z_{j-1})``                   (3.4-25)
* ``D^tran_ij = sum_{s >= max(i,j)} m_s [z_{j-1} x (r_s - p_{j-1})] . [z_{i-1} x (r_s - p_{i-1})]``
                                                                                        (3.4-25)
* ``h^tran_i = sum_{s >= i} m_s a_s . [z_{i-1} x (r_s - p_{i-1})]``, where ``a_s`` is the part of
  the acceleration of link ``s``'s centre of mass that the joint *velocities* cause: the sum
  over the links below ``s`` (terms 1, 2) and link ``s`` itself (terms 3, 4)             (3.4-26)
* ``h^rot_i = sum_{s >= i} (sR0 z_{i-1})^T I_s beta_s + [sR0 z_{i-1} x w_s]^T I_s w_s``, with
  ``w_s`` and ``beta_s = sum_{p} (sum_{q<p} qd_q z_{q-1}) x qd_p z_{p-1}`` (the velocity part of
  the angular acceleration) in link ``s``'s frame                                       (3.4-27)
* ``c_i = -g . [z_{i-1} x sum_{j >= i} m_j (r_j - p_{i-1})]``                             (3.4-28)

Notation as in Fu, Gonzalez & Lee: ``z_{j-1}`` is joint ``j``'s axis and ``p_j`` frame ``j``'s origin in base
coordinates, ``p*_k = p_k - p_{k-1}``, ``r_s`` (Fu, Gonzalez & Lee's ``r-bar_s``) link ``s``'s centre of mass,
``c_s = r_s - p_{s-1}`` (Fu, Gonzalez & Lee's ``c-bar_s``), ``sR0 = R_0s^T``, ``I_s`` the inertia tensor about
the centre of mass in frame ``s``.  ``D``, ``h``, ``c`` are Fu, Gonzalez & Lee's letters (``tau = D qdd + h + c``);
friction and the tool's wrench are added by the dispatcher, not here.

Gravity
-------
``gravity`` is dynlab's vector: the gravitational acceleration in base coordinates, pointing
down, e.g. ``(0, 0, -9.8062)``.  Fu, Gonzalez & Lee's G-D ``g`` is *the same vector*: its potential energy is
``P_s = -g . m_s r_s`` (3.4-20), right only for ``g`` pointing down, and the worked example
3.4.2 takes ``g = (0, -g, 0)`` with ``y_0`` up (as the L-E example 3.2.6 does with (3.2-34)).  So
(3.4-28) is used as printed with ``g = gravity``: ``c_i = dP/dq_i = -sum_j m_j gravity .
(d r_j / d q_i)``, the generalized force that holds the arm up.  The convention that differs is
Fu, Gonzalez & Lee's N-E, whose ``v_dot_0 = g`` (3.3-46) is ``-gravity``; see
:mod:`dynlab.formulations.newton_euler`.

Extension to prismatic joints
-----------------------------
Fu, Gonzalez & Lee derive G-D for revolute joints only ("We shall only focus on robot arms with
rotary joints", Sec. 3.4).  Everything in it comes from two Jacobian columns per joint ``j <= s``,
the angular ``dw_s/dqd_j`` (3.4-1) and the translational ``dv_s/dqd_j`` (3.4-7):

    revolute:   dw_s/dqd_j = z_{j-1},   dv_s/dqd_j = z_{j-1} x (r_s - p_{j-1})
    prismatic:  dw_s/dqd_j = 0,         dv_s/dqd_j = z_{j-1}

(a sliding joint turns nothing and moves everything beyond it along its axis).  Lagrange's
equation needs only ``d/dt (dv_s/dqd_i) = dv_s/dq_i`` (true for any generalized coordinate,
see the erratum to (3.4-8)), so (3.4-9) and (3.4-10) hold with the new column, and:

* (3.4-25): in ``D^tran`` the factor ``z_{j-1} x (r_s - p_{j-1})`` becomes ``z_{j-1}`` for a
  prismatic ``j`` (likewise for ``i``); in ``D^rot`` the prismatic ``sR0 z_{j-1}`` becomes 0.
* (3.4-28): for a prismatic ``i``, ``c_i = -(g . z_{i-1}) sum_{j >= i} m_j``.
* (3.4-27): the orientations do not depend on a prismatic ``q``, so the rotational derivation
  (3.4-12)-(3.4-18) is that of the arm's revolute joints alone: drop every prismatic
  ``qd_p z_{p-1}`` from ``w_s`` and ``beta_s``, and ``h^rot_i = 0`` for a prismatic ``i``.
* (3.4-26): ``p*_k`` now stretches, ``d/dt p*_k = w_k x p*_k + qd_k z_{k-1}``, and ``z_{k-1}``
  turns with ``w_k`` (``w_k = w_{k-1}``); differentiating (3.4-4) again gives (3.4-11) plus the
  Coriolis term ``2 w_k x (qd_k z_{k-1})`` (and ``qdd_k z_{k-1}``, which is ``D``'s) for each
  prismatic ``k <= s``, as in N-E (3.3-35).  So ``a_s`` gains ``2 w_k x qd_k z_{k-1}``, once for
  each prismatic ``k`` below ``s`` and for ``s`` itself, and ``h^tran_i`` projects onto ``z_{i-1}``
  for a prismatic ``i``.

Errata in Fu, Gonzalez & Lee, Sec. 3.4 (also in :data:`dynlab.teaching.errata.ERRATA`, which says of
each whether the printed book is wrong or only the scanned copy garbles it).  Eqs. (3.4-25)-(3.4-28) and the final results of example 3.4.2 are right: the
tests check 3.4.2's ``D``, ``h^tran``, ``h^rot`` and ``c`` term by term against this module and
against Newton-Euler.  The slips are in the derivation and the typesetting:

1. (3.4-8): printed ``d/dt[dv_s/dthd_i] = dv_dot_s/dthd_i`` and
   ``dv_dot_s/dthd_i = dv_s/dth_i``; both are false (``dv_dot_s/dthd_i = 2 dv_s/dth_i``: for a
   point at radius ``l``, ``v_dot = l thdd t - l thd^2 n``).  Correct: ``dv_s/dthd_i =
   dr_s/dth_i``, hence ``d/dt[dv_s/dthd_i] = dv_s/dth_i``, which is all (3.4-9) uses.
2. The sentence before (3.4-23): "the summation of Eqs. (3.4-10), (3.4-18), and (3.4-22)" gives ``tau``.  (3.4-22)
   is Lagrange's operator applied to ``P``, i.e. ``-dP/dth_i``, and ``L = K - P``, so it must be
   *subtracted*.  The next line (3.4-23) does write ``+ dP/dth_i``, and (3.4-23), (3.4-28) have
   the right sign; the text's sum would flip the sign of ``c``.
3. (3.4-23), the velocity terms of the links below ``s``: printed ``sum_{p=1}^{s-1}``
   around ``[sum_{q=1}^{p} ...] x ([sum_{q=1}^{k} ...] x p*_k)`` and ``sum_{q=2}^{k}`` around
   ``[sum_{q=1}^{p-1} ...] x thd_p z_{p-1}``, with that second term outside the sum over ``k``.
   Correct (as in (3.4-26)): ``sum_{k=1}^{s-1} { w_k x (w_k x p*_k) + [sum_{p=2}^{k}
   (sum_{q=1}^{p-1} thd_q z_{q-1}) x thd_p z_{p-1}] x p*_k }``.
4. (3.4-26): the projection is printed ``z_{i-1} x (r_s - p_{i-1})`` with a plain
   ``r_s``, defined nowhere; it is the centre of mass ``r-bar_s`` of (3.4-7) and (3.4-23).
5. (3.4-27): the braces close the ``sum_{s=i}^n`` after the first term, leaving
   ``[sR0 z_{i-1} x w_s]^T I_s w_s``, which depends on ``s``, outside the sum.  Both terms
   belong inside, as in (3.4-18) and (3.4-23).

Reading notes, not errata: (3.4-25) is printed for ``i <= j`` (sums from ``s = j``); ``D_ji =
D_ij``.  The interpretation after (3.4-28) ("inertial effects of moving link ``j``") undersells
the sums: ``D_ij`` collects every link ``s >= max(i, j)``.  In 3.4.2 the four
evaluated terms of ``h_1^tran`` do not follow the three printed pieces one by one: the first is
the ``p*_1`` piece, the ``m_1`` piece (0) is left out, and the other three expand the ``c_2``
piece's ``(thd_1 + thd_2)^2``; the sum is right.

Everything is written once over the scalar type, with ``+ - *``, :mod:`dynlab.model.vectors` and the
backend's ``sin``/``cos``: floats (no SymPy object built), SymPy expressions, and the tracer of
:mod:`dynlab.engine.tracing` all run the same lines.

A uniform rod of mass 2 and length 1 swinging about ``z_0``, gravity along ``-y_0``: ``D = m
l^2 / 3`` (of which ``m l^2 / 12`` is rotational), ``c = m g l cos(q) / 2``:

>>> from dynlab import Link, Robot
>>> rod = Robot([Link("R", a=1.0, mass=2.0, com=(-0.5, 0, 0), inertia=(0, 1 / 6, 1 / 6),
...                   name="link 1")], gravity=(0, -9.8062, 0))
>>> links = rod.numeric()[0]
>>> result = terms(links, (0.0,), (3.0,), rod.gravity)
>>> result["D"], result["D_rot"], result["D_tran"], result["h"], result["c"]
([[0.6666666666666666]], [[0.16666666666666666]], [[0.5]], [0.0], [9.8062])

A prismatic joint lifting a mass of 3 straight up: no rotation, ``D = m``, ``c = m |g|``:

>>> lift = Robot([Link("P", mass=3.0, inertia=(1, 1, 1), name="slide")])
>>> result = terms(lift.numeric()[0], (0.4,), (2.0,), lift.gravity)
>>> result["D"], result["D_rot"], result["h"], result["c"]
([[3.0]], [[0.0]], [0.0], [29.4186])

Fu, Gonzalez & Lee's example 3.4.2 (two uniform rods of length ``l``, gravity along ``-y_0``), derived and
compared with the printed results: the rotational parts are the rods' ``m l^2 / 12`` and
``h^rot = 0``; ``D``, ``h^tran`` (``= h``) and ``c`` equal the printed ones.

>>> import sympy
>>> from dynlab.model.symbolic import compact
>>> m1, m2, l, g = sympy.symbols("m1 m2 l g", positive=True)
>>> rod = lambda m: sympy.diag(0, m * l**2 / 12, m * l**2 / 12)
>>> arm = Robot([Link("R", a=l, mass=m1, com=(-l / 2, 0, 0), inertia=rod(m1), name="link 1"),
...              Link("R", a=l, mass=m2, com=(-l / 2, 0, 0), inertia=rod(m2), name="link 2")],
...             gravity=(0, -g, 0))
>>> th1, th2, thd1, thd2 = sympy.symbols("th1 th2 thd1 thd2")
>>> ex = terms(arm.symbolic()[0], (th1, th2), (thd1, thd2), arm.gravity, V.SYMBOLIC)
>>> sympy.Matrix(ex["D_rot"])
Matrix([
[l**2*m1/12 + l**2*m2/12, l**2*m2/12],
[             l**2*m2/12, l**2*m2/12]])
>>> sympy.Matrix(ex["h_rot"]).T
Matrix([[0, 0]])
>>> C1, C2, C12, S2 = sympy.cos(th1), sympy.cos(th2), sympy.cos(th1 + th2), sympy.sin(th2)
>>> printed = {"D": [[m1 * l**2 / 3 + 4 * m2 * l**2 / 3 + m2 * C2 * l**2,
...                   m2 * l**2 / 3 + m2 * C2 * l**2 / 2],
...                  [m2 * l**2 / 3 + m2 * C2 * l**2 / 2, m2 * l**2 / 3]],
...            "h_tran": [-m2 * S2 * l**2 * thd2**2 / 2 - m2 * S2 * l**2 * thd1 * thd2,
...                       m2 * S2 * l**2 * thd1**2 / 2],
...            "c": [(m1 / 2 + m2) * g * l * C1 + m2 * g * l * C12 / 2, m2 * g * l * C12 / 2]}
>>> [compact(sympy.Matrix(ex[key]) - sympy.Matrix(printed[key])).is_zero_matrix
...  for key in printed]
[True, True, True]
"""

from __future__ import annotations

from dynlab.model import vectors as V
from dynlab.model.kinematics import chain

__all__ = ["VARIANTS", "gravity_terms", "inertia_terms", "link_kinematics", "terms",
           "velocity_terms"]


def link_kinematics(links, q, qd, backend=V.NUMERIC) -> list:
    """What G-D needs of each link ``s``: one dict per link, in order (link ``s`` at index ``s-1``):

    ``R``        ``R_0s`` (rows), so ``V.tmatvec(R, x)`` is ``sR0 x``             (3.2-4)
    ``centre``   ``r_s``, the centre of mass in base coordinates                  (3.4-3)
    ``linear``   ``dv_s/dqd_j`` for ``j = 1..s``: ``z_{j-1} x (r_s - p_{j-1})`` (revolute,
                 (3.4-7)) or ``z_{j-1}`` (prismatic)
    ``angular``  ``sR0 dw_s/dqd_j`` for ``j = 1..s``: ``sR0 z_{j-1}`` (revolute, (3.4-2)) or 0
    ``omega``    ``sR0 w_s``, the angular velocity in link ``s``'s frame           (3.4-2)
    ``beta``     ``sR0`` of the velocity part of ``w_dot_s``: ``sum_p w_{p-1} x qd_p z_{p-1}``
                 (3.4-11), (3.4-27)
    ``a_bar``    the velocity part of the centre of mass's acceleration (base)    (3.4-26)

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
    """``(D_rot, D_tran)``, n x n lists, by Fu, Gonzalez & Lee, Eq. (3.4-25), each computed for ``i <= j`` and
    mirrored (``D_ji = D_ij``).

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
    """``(h_rot, h_tran)``, n-lists of the Coriolis and centrifugal torques: Fu, Gonzalez & Lee, Eqs. (3.4-27)
    and (3.4-26).

    A polar arm, a point mass ``m = 1`` on a slider along the horizontal ``z_1``, at ``r = 0.5``,
    ``thd = 2``, ``rd = 1``: ``h = (2 m r rd thd, -m r thd^2)``, all translational:

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
    """``c``, an n-list: Fu, Gonzalez & Lee, Eq. (3.4-28), ``c_i = -g . [z_{i-1} x sum_{j>=i} m_j (r_j -
    p_{i-1})]``, or ``-(g . z_{i-1}) sum_{j>=i} m_j`` for a prismatic joint; ``g`` is
    ``gravity``, pointing down (the module docstring explains why this is Fu, Gonzalez & Lee's ``g`` too).

    The polar arm of :func:`velocity_terms` in a vertical plane (``y_0`` up), mass ``m`` on the
    slider at distance ``r`` along ``z_1``, which hangs straight down at ``th = 0``:

    >>> import sympy
    >>> from dynlab import Link, Robot
    >>> m, g = sympy.symbols("m g", positive=True)
    >>> th, r = sympy.symbols("th r")
    >>> arm = Robot([Link("R", alpha=sympy.pi / 2, name="turn"),
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
    """The G-D terms of Fu, Gonzalez & Lee, Eqs. (3.4-24)-(3.4-28), revolute and prismatic joints.

    ``links``: tuple of ``LinkData`` (``robot.numeric()[0]`` or ``robot.symbolic()[0]``); ``q``,
    ``qd``: tuples of scalars (floats or SymPy); ``gravity``: the gravitational acceleration in
    base coordinates, e.g. ``(0, 0, -9.8062)``; ``backend``: ``vectors.NUMERIC`` or
    ``vectors.SYMBOLIC``.  Returns plain nested lists of scalars: ``"D"`` (n x n), ``"h"``,
    ``"c"`` (n) with ``tau = D qdd + h + c``, and the parts ``"D_rot"``, ``"D_tran"`` (n x n),
    ``"h_rot"``, ``"h_tran"`` (n).  ``h`` depends on the velocities only; gravity is all in ``c``.

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
