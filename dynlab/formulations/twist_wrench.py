"""Lynch & Park's (2017) twist-wrench dynamics: screw axes from the DH table (:func:`screw_chain`,
frames at the centres of mass, Sec. 8.3; :func:`joint_frames`, frames on the joint axes as in
Featherstone (2008), Table 5.1), the Newton-Euler recursion with the product of exponentials
(:func:`product_of_exponentials`, Sec. 8.3) and the closed form ``M = A^T L^T G L A``
(:func:`closed_form`, Sec. 8.4).  The draft's slips (draft Eqs. (9.35), (9.47), (9.51),
(9.58), (9.73), (9.78), (9.83)) are in :mod:`dynlab.teaching.errata`; the code follows the
published book and the ``modern_robotics`` package.

>>> from dynlab import inverse_dynamics
>>> from dynlab.model.robots import puma560
>>> arm, state = puma560(), ([0.1, -0.5, 0.3, 0.2, 0.4, -0.1], [0.5] * 6, [1.0] * 6)
>>> tau = inverse_dynamics(arm, *state, method="twist_wrench")
>>> bool(abs(tau - inverse_dynamics(arm, *state)).max() < 1e-10)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import sympy

from dynlab.model import spatial as S
from dynlab.model import vectors as V
from dynlab.model.friction import link_friction
from dynlab.model.kinematics import link_offset, link_offset_in_own_frame, link_rotation, resolve

#: per-link records of a traced run: Luh's quantities (the keys of
#: :data:`dynlab.formulations.newton_euler.TRACE_QUANTITIES`, in DH frame ``i``) and the
#: twist-wrench ones (``V``, ``V_dot``, ``wrench``: ``V_i``, ``Vdot_i``, ``F_i`` in the
#: formulation's frame ``{i}``).
TRACE_QUANTITIES = ("omega", "omega_dot", "v_dot", "a_bar", "F", "N", "f", "n", "tau",
                    "V", "V_dot", "wrench")


@dataclass(frozen=True)
class LinkFrames:
    """An open chain in twist-wrench form: ``steps[i](theta)`` is ``T_{i-1,i}``, ``screws[i]``
    ``A_i``, ``inertias[i]`` ``G_i`` (in frame ``{i}``), ``dh[i]`` DH frame ``i``'s pose there."""

    kind: str
    home: tuple          # M_{i-1,i}, or the constant part before the joint's motion
    screws: tuple
    inertias: tuple
    dh: tuple
    revolute: tuple

    def step(self, i: int, theta, backend=V.NUMERIC) -> tuple:
        """``T_{i-1,i}(theta)`` (the forward iteration of Sec. 8.3), ``i`` counted from 0."""
        if self.kind == "poe":
            return S.compose(self.home[i], S.exp_twist(self.screws[i], theta,
                                                        self.revolute[i], backend))
        # joint frames: the constant part, then Rz(theta_i) or Tz(d_i) (Featherstone's
        # X_J X_T, Tables 5.1 and 7.1)
        fixed, offset = self.home[i]
        variable = theta if is_zero(offset) else theta + offset
        return S.compose(fixed, _joint_motion(variable, self.revolute[i], backend))


def _joint_motion(theta, revolute, backend):
    if revolute:
        c, s = backend.cos(theta), backend.sin(theta)
        return ((c, -s, 0), (s, c, 0), (0, 0, 1)), V.ZERO
    return V.IDENTITY, (0, 0, theta)


def screw_chain(links, backend=V.NUMERIC) -> LinkFrames:
    """Lynch & Park's description of the chain, from the DH table at ``q = 0``: frames at the
    centres of mass, ``M_{i-1,i}``, ``A_i`` and ``G_i`` of Sec. 8.3.

    >>> from dynlab.model.robots import planar_2r
    >>> chain = screw_chain(planar_2r("lynch_park").numeric()[0])   # point masses at the tips
    >>> chain.screws[1]                 # joint 2 seen from point mass 2: a spin about z, 0.8 m
    (0.0, 0.0, 1.0, 0.0, 0.8, 0.0)
    >>> chain.home[1][1]                # behind it (L2 = 0.8 m); M_12 moves 0.8 m along x
    (0.8, 0.0, 0.0)
    """
    zero = 0 if backend is V.SYMBOLIC else 0.0
    rotation, origin = V.IDENTITY, V.ZERO          # DH frame i-1 at q = 0
    previous = S.IDENTITY_T                        # M_{i-1}
    home, screws, inertias, dh, revolute = [], [], [], [], []
    for link in links:
        z = (rotation[0][2], rotation[1][2], rotation[2][2])
        if link.revolute:                          # a rotation about z_{i-1} through o_{i-1}
            space = (*z, *S.negate(V.cross(z, origin)))
        else:                                      # a translation along z_{i-1}
            space = (0, 0, 0, *z)
        local = link_rotation(link, zero, backend)
        origin = V.add(origin, V.matvec(rotation, link_offset(link, zero, local)))
        rotation = V.matmul(rotation, local)
        M = (rotation, V.add(origin, V.matvec(rotation, link.com)))   # M_i, frame {i} at home
        screws.append(S.Ad(S.inverse(M), space))  # A_i = Ad_{M_i^-1}(S_i), in {i}
        home.append(S.compose(S.inverse(previous), M))                # M_{i-1,i} = M_{i-1}^-1 M_i
        inertias.append(S.spatial_inertia_at_com(link.mass, link.inertia))   # G_i at the c.o.m.
        dh.append(S.translation(S.negate(link.com)))
        revolute.append(link.revolute)
        previous = M
    return LinkFrames("poe", tuple(home), tuple(screws), tuple(inertias), tuple(dh),
                      tuple(revolute))


def _rx(link):
    ca, sa = link.cos_alpha, link.sin_alpha
    return ((1, 0, 0), (0, ca, -sa), (0, sa, ca))


def joint_frames(links, backend=V.NUMERIC) -> LinkFrames:
    """Frames on the joint axes (``A_i`` constant): ``T_{i-1,i} = (Tx(a_{i-1}) Rx(alpha_{i-1}))
    (Rz(theta_i) Tz(d_i))``, ``G_i`` carried by :func:`dynlab.model.spatial.spatial_inertia`.

    >>> from dynlab.model.robots import planar_2r
    >>> chain = joint_frames(planar_2r("lynch_park").numeric()[0])
    >>> chain.screws[0], round(chain.inertias[1][2][2], 12)   # m2 L2^2 = 0.5 * 0.8^2
    ((0, 0, 1, 0, 0, 0), 0.32)
    """
    home, screws, inertias, dh, revolute = [], [], [], [], []
    before = S.IDENTITY_T                          # DH frame i-1 in frame {i-1}
    for link in links:
        if link.revolute:                          # Rz(q + offset) after Tz(d): they commute
            fixed = S.compose(before, S.translation((0, 0, link.d)))
        else:                                      # Tz(q + offset) after Rz(theta)
            fixed = S.compose(before, _joint_motion(link.theta, True, backend))
        home.append((fixed, link.offset))
        screws.append((0, 0, 1, 0, 0, 0) if link.revolute else (0, 0, 0, 0, 0, 1))
        rx = _rx(link)
        to_dh = (rx, (link.a, 0, 0))               # DH frame i in frame {i}
        com = V.add(to_dh[1], V.matvec(rx, link.com))
        inertia = V.matmul(V.matmul(rx, link.inertia), V.transpose(rx))
        inertias.append(S.spatial_inertia(link.mass, com, inertia))
        dh.append(to_dh)
        revolute.append(link.revolute)
        before = to_dh
    return LinkFrames("joint", tuple(home), tuple(screws), tuple(inertias), tuple(dh),
                      tuple(revolute))


def is_zero(x) -> bool:
    return S.vanishes(x)


# -- the recursion --------------------------------------------------------------------------------
def base_acceleration(gravity, use_gravity):
    """``Vdot_0 = (0, -g)``: gravity as an upward acceleration of the base (Lynch & Park,
    Sec. 8.3, before the algorithm)."""
    return (0, 0, 0, *S.negate(gravity)) if use_gravity else S.ZERO6


def tip_wrench(frames, rotation_to_last, tip_force, tip_moment, use_tip):
    """``F_{n+1}`` carried into frame ``{n}``: the tool's wrench on its environment (base
    coordinates, moment about the origin of DH frame ``n``) in DH frame ``n``'s axes, then
    ``Ad^T_{T_{n+1,n}}`` (the backward iteration of Sec. 8.3 at ``i = n``)."""
    if not (use_tip and any(not is_zero(v) for v in (*tip_force, *tip_moment))):
        return S.ZERO6

    to_dh = frames.dh[-1]
    R_dh = V.matmul(rotation_to_last, to_dh[0])   # R_0,n of DH frame n
    in_dh = (*V.tmatvec(R_dh, tip_moment), *V.tmatvec(R_dh, tip_force))
    return S.Ad_transpose(S.inverse(to_dh), in_dh)


def spatial_recursion(frames: LinkFrames, links, q, qd, qdd, gravity, tip_force, tip_moment,
                      backend=V.NUMERIC, *, use_gravity=True, use_friction=True, use_tip=True,
                      trace=False):
    """The Newton-Euler algorithm of Lynch & Park, Sec. 8.3, in the link frames ``frames``;
    returns ``(tau, records)``."""
    n = len(links)
    twist, twist_dot = S.ZERO6, base_acceleration(gravity, use_gravity)
    steps, kin = [], []
    rotation = V.IDENTITY
    use_tip = use_tip and any(not is_zero(v) for v in (*tip_force, *tip_moment))
    for i in range(n):
        T = frames.step(i, q[i], backend)                                  # T_{i-1,i}
        back = S.inverse(T)                                                # T_{i,i-1}
        A = frames.screws[i]
        twist = S.add6(S.Ad(back, twist), S.scale6(qd[i], A))              # V_i
        twist_dot = S.add6(S.add6(S.Ad(back, twist_dot),                   # Vdot_i
                                  S.scale6(qd[i], S.ad(twist, A))), S.scale6(qdd[i], A))
        steps.append(T)
        kin.append((twist, twist_dot))
        if use_tip:
            rotation = V.matmul(rotation, T[0])
    wrench = tip_wrench(frames, rotation, tip_force, tip_moment, use_tip)  # F_{n+1}
    after = (V.IDENTITY, V.ZERO)                                           # T_{n,n+1}, see above
    tau, records = [0] * n, [None] * n
    for i in range(n - 1, -1, -1):
        G, A = frames.inertias[i], frames.screws[i]
        twist, twist_dot = kin[i]
        carried = (S.Ad_transpose(S.inverse(after), wrench) if i < n - 1 else wrench)
        wrench = S.add6(carried, S.body_wrench(G, twist_dot, twist))       # F_i
        torque = S.dot6(wrench, A)                                         # tau_i = F_i^T A_i
        if use_friction and links[i].has_friction:
            torque = torque + link_friction(links[i], qd[i], backend)      # Schilling (6-3-3)
        tau[i] = torque
        if trace:
            records[i] = _record(frames, links[i], q[i], i, twist, twist_dot, wrench, torque)
        after = steps[i]
    return tau, (records if trace else None)


def _record(frames, link, qi, i, twist, twist_dot, wrench, torque) -> dict:
    """Luh's quantities in DH frame ``i`` (Fu, Gonzalez & Lee (1987), Table 3.3) from ``V_i``,
    ``Vdot_i``, ``F_i``: the twists and the wrench carried to DH frame ``i``."""
    to_dh = frames.dh[i]
    from_dh = S.inverse(to_dh)
    Vf, Vdf = S.Ad(from_dh, twist), S.Ad(from_dh, twist_dot)
    Ff = S.Ad_transpose(to_dh, wrench)
    w, wd = Vf[:3], Vdf[:3]
    vd = V.add(Vdf[3:], V.cross(w, Vf[3:]))          # classical acceleration of the origin
    s = link.com
    abar = V.add3(vd, V.cross(wd, s), V.cross(w, V.cross(w, s)))            # (3.3-53)
    F = V.scale(link.mass, abar)                                            # (3.3-54)
    N = V.add(V.matvec(link.inertia, wd), V.cross(w, V.matvec(link.inertia, w)))   # (3.3-55)
    f = Ff[3:]
    nn = V.add(Ff[:3], V.cross(link_offset_in_own_frame(link, qi), f))     # about o_{i-1}
    return dict(zip(TRACE_QUANTITIES, (w, wd, vd, abar, F, N, f, nn, torque,
                                       twist, twist_dot, wrench)))


def product_of_exponentials(links, q, qd, qdd, gravity, tip_force, tip_moment,
                            backend=V.NUMERIC, *, use_gravity=True, use_friction=True,
                            use_tip=True, trace=False):
    """Lynch & Park's Newton-Euler inverse dynamics with the product of exponentials,
    Lynch & Park, Sec. 8.3, in frames at the centres of mass; ``(tau, records)``."""
    return spatial_recursion(screw_chain(links, backend), links, q, qd, qdd, gravity, tip_force,
                             tip_moment, backend, use_gravity=use_gravity,
                             use_friction=use_friction, use_tip=use_tip, trace=trace)


def spatial_newton_euler(links, q, qd, qdd, gravity, tip_force, tip_moment, backend=V.NUMERIC,
                         *, use_gravity=True, use_friction=True, use_tip=True, trace=False):
    """The same recursion in frames on the joint axes: Featherstone's spatial recursive
    Newton-Euler algorithm (Featherstone (2008), Table 5.1); ``(tau, records)``."""
    return spatial_recursion(joint_frames(links, backend), links, q, qd, qdd, gravity,
                             tip_force, tip_moment, backend, use_gravity=use_gravity,
                             use_friction=use_friction, use_tip=use_tip, trace=trace)


# -- the closed form ------------------------------------------------------------------------------
def _blocks(n, block_at) -> list:
    """A ``6n x 6n`` matrix (rows) from ``block_at(i, j)`` (6 rows or ``None`` for zeros)."""
    rows = [[0] * (6 * n) for _ in range(6 * n)]
    for i in range(n):
        for j in range(n):
            block = block_at(i, j)
            if block is None:
                continue
            for r in range(6):
                for c in range(6):
                    rows[6 * i + r][6 * j + c] = block[r][c]
    return rows


def _matvec(M, x) -> list:
    return [S.sum_terms(row[k] * x[k] for k in range(len(x))
                        if not (is_zero(row[k]) or is_zero(x[k]))) for row in M]


def _tmatvec(M, x) -> list:
    return [S.sum_terms(M[k][c] * x[k] for k in range(len(x))
                        if not (is_zero(M[k][c]) or is_zero(x[k]))) for c in range(len(M[0]))]


def _stacked(links, q, backend):
    """The chain's frames at the centres of mass, ``T_{i-1,i}``, and the stacked ``A``, ``G``,
    ``Gamma``, ``L`` of Lynch & Park, Sec. 8.4 (rows)."""
    n = len(links)
    frames = screw_chain(links, backend)
    steps = [frames.step(i, q[i], backend) for i in range(n)]
    back = [S.inverse(T) for T in steps]                            # T_{i,i-1}
    relative = {}                                   # T_{ij}, i >= j: T_{i,i-1} ... T_{j+1,j}
    for j in range(n):
        T = S.IDENTITY_T
        relative[j, j] = T
        for i in range(j + 1, n):
            T = S.compose(back[i], T)
            relative[i, j] = T
    # L = (1 - Gamma)^-1
    L = _blocks(n, lambda i, j: S.Ad_matrix(relative[i, j]) if i >= j else None)
    Gamma = _blocks(n, lambda i, j: S.Ad_matrix(back[i]) if i == j + 1 else None)  # Gamma
    G = _blocks(n, lambda i, j: frames.inertias[i] if i == j else None)            # G
    A = [[frames.screws[j][r] if k == j else 0 for k in range(n)]                  # A
         for j in range(n) for r in range(6)]
    return frames, steps, back, A, G, Gamma, L


def _ad_blocks(stacked, n) -> list:
    """``[ad_V]`` of Sec. 8.4: block diagonal, one ``[ad_{V_i}]`` per link."""
    return _blocks(n, lambda i, j: S.ad_matrix(stacked[6 * i:6 * i + 6]) if i == j else None)


def closed_form_terms(links, q, qd, gravity, backend=V.NUMERIC) -> dict:
    """Lynch & Park's closed form (Sec. 8.4) at ``(q, qd)``: ``A``, ``G``, ``Gamma``,
    ``L = (1 - Gamma)^-1``, ``V = L A thetadot``, ``M = A^T L^T G L A`` (draft Eq. (9.82)),
    ``c = -A^T L^T (G L [ad_{A thetadot}] Gamma + [ad_V]^T G) L A thetadot`` (draft Eq. (9.83)
    with the sign of Sec. 8.3's recursion), ``g = A^T L^T G L Vdot_base`` (draft Eqs. (9.84),
    (9.70)); also as Fu, Gonzalez & Lee's ``D = M``, ``h = c``, ``c = g``."""
    n = len(links)
    frames, steps, back, A, G, Gamma, L = _stacked(links, q, backend)
    LA = [[S.sum_terms(L[r][k] * A[k][c] for k in range(6 * n)
                       if not (is_zero(L[r][k]) or is_zero(A[k][c]))) for c in range(n)]
          for r in range(6 * n)]
    GLA = [_matvec(G, [row[c] for row in LA]) for c in range(n)]                    # columns
    M = [[S.sum_terms(LA[r][i] * GLA[j][r] for r in range(6 * n)
                      if not (is_zero(LA[r][i]) or is_zero(GLA[j][r]))) for j in range(n)]
         for i in range(n)]  # M = A^T L^T G L A
    twists = _matvec(LA, list(qd))  # V = L A thetadot
    ad_Aqd = _ad_blocks(_matvec(A, list(qd)), n)
    ad_V = _ad_blocks(twists, n)
    inner = _matvec(G, _matvec(L, _matvec(ad_Aqd, _matvec(Gamma, twists))))
    inner = [a + b for a, b in zip(inner, _tmatvec(ad_V, _matvec(G, twists)))]
    c = [-x for x in _tmatvec(LA, inner)]                                          # c
    base = [*S.Ad(back[0], base_acceleration(gravity, True)), *([0] * (6 * (n - 1)))]
    g = _tmatvec(LA, _matvec(G, _matvec(L, base)))                                 # g
    return {"D": M, "h": c, "c": g, "M": M, "c_velocity": c, "g": g, "A": A, "G": G,
            "L": L, "Gamma": Gamma, "V": twists}


def matrix_form(links, q, qd, qdd, gravity, tip_force, tip_moment, backend=V.NUMERIC, *,
                use_gravity=True, use_friction=True, use_tip=True, trace=False):
    """The recursion as matrix equations (Lynch & Park, Sec. 8.4; draft Eqs. (9.77)-(9.80)):
    ``V = L A thetadot``, ``Vdot = L (A thetaddot - [ad_{A thetadot}] Gamma V + Vdot_base)``, ``F =
    L^T (G Vdot - [ad_V]^T G V + F_tip)``, ``tau = A^T F`` (plus friction); ``(tau, records)``."""
    n = len(links)
    frames, steps, back, A, G, Gamma, L = _stacked(links, q, backend)
    twists = _matvec(L, _matvec(A, list(qd)))  # V = L A thetadot
    base = [*S.Ad(back[0], base_acceleration(gravity, use_gravity)), *([0] * (6 * (n - 1)))]
    bracket = _matvec(_ad_blocks(_matvec(A, list(qd)), n), _matvec(Gamma, twists))
    twist_dots = _matvec(L, [a - b + c for a, b, c in zip(_matvec(A, list(qdd)), bracket,
                                                           base)])                 # Vdot
    tip = [0] * (6 * n)
    if use_tip and any(not is_zero(v) for v in (*tip_force, *tip_moment)):
        rotation = V.IDENTITY
        for T in steps:
            rotation = V.matmul(rotation, T[0])
        tip[6 * (n - 1):] = tip_wrench(frames, rotation, tip_force, tip_moment, True)  # F_tip
    GV = _matvec(G, twists)
    body = [a - b + c for a, b, c in zip(_matvec(G, twist_dots),
                                         _tmatvec(_ad_blocks(twists, n), GV), tip)]
    wrenches = _tmatvec(L, body)                                                   # F = L^T (...)
    tau = _tmatvec(A, wrenches)                                                    # tau = A^T F
    if use_friction:
        tau = [t + link_friction(link, v, backend) if link.has_friction else t
               for t, link, v in zip(tau, links, qd)]
    records = None
    if trace:
        records = [_record(frames, links[i], q[i], i, tuple(twists[6 * i:6 * i + 6]),
                           tuple(twist_dots[6 * i:6 * i + 6]), tuple(wrenches[6 * i:6 * i + 6]),
                           tau[i]) for i in range(n)]
    return tau, records


VARIANTS = {"poe": product_of_exponentials, "featherstone": spatial_newton_euler,
            "matrix": matrix_form}
LABELS = {"poe": "Lynch & Park's product of exponentials",
          "featherstone": "Featherstone's spatial RNEA", "matrix": "closed form A^T L^T G L A"}


# -- public functions on a robot ------------------------------------------------------------------
def closed_form(robot, q: Sequence, qd: Sequence) -> dict:
    """Lynch & Park's closed form at ``(q, qd)`` (:func:`closed_form_terms`): ``M``, ``c``,
    ``g`` and the matrices ``A``, ``G``, ``L``, ``Gamma`` of Lynch & Park, Sec. 8.4, as NumPy arrays
    (numbers) or SymPy matrices (symbols).

    >>> from dynlab.model.robots import planar_2r
    >>> terms = closed_form(planar_2r("lynch_park"), [0.0, 0.0], [0.0, 0.0])
    >>> terms["M"]          # m1 L1^2 + m2 (L1 + L2)^2, m2 L2 (L1 + L2), m2 L2^2 when stretched
    array([[2.62, 0.72],
           [0.72, 0.32]])
    >>> terms["A"].shape, terms["L"].shape
    ((12, 2), (12, 12))
    """
    symbolic, backend, (links, grav, _, _), vec = resolve(robot, q=q, qd=qd)
    terms = closed_form_terms(links, vec["q"], vec["qd"], grav, backend)
    convert = ((lambda x: sympy.Matrix(x)) if symbolic
               else (lambda x: np.array(x, dtype=float)))
    return {key: convert(terms[key]) for key in ("M", "c_velocity", "g", "A", "G", "L",
                                                  "Gamma", "V")}
