"""An arm described as Lynch & Park (2017), Ch. 8 describe it (``Mlist``, ``Glist``, ``Slist``,
the Modern Robotics library's arguments) turned into a standard DH table (:func:`from_screws`).

The two-link arm of Lynch & Park (2017), Sec. 8.1.1 (point masses 1 and 0.5, L1 = 1, L2 = 0.8):

>>> import numpy as np
>>> def frame(x):
...     return np.array([[1, 0, 0, x], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])
>>> Mlist = [frame(1.0), frame(0.8), frame(0.0)]
>>> Glist = [np.diag([0, 0, 0, 1.0, 1.0, 1.0]), np.diag([0, 0, 0, 0.5, 0.5, 0.5])]
>>> Slist = np.array([[0, 0, 1, 0, 0, 0], [0, 0, 1, 0, -1.0, 0]]).T
>>> arm = from_screws(Mlist, Glist, Slist, gravity=(0, -9.81, 0), name="2R")
>>> [(link.a, link.alpha, link.offset) for link in arm.links]
[(1.0, 0.0, 0.0), (0.8, 0.0, 0.0)]
>>> from dynlab import equations_of_motion
>>> equations_of_motion(arm, [0.0, 0.0], [0.0, 0.0]).D    # m1 L1^2 + m2 (L1 + L2)^2, ...
array([[2.62, 0.72],
       [0.72, 0.32]])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from dynlab.model import spatial
from dynlab.model.kinematics import transforms
from dynlab.model.link import Link, check_inertia
from dynlab.model.robot import Robot
from dynlab.model.robots.parameters import LARGEST_PARAMETER

#: lengths below this fraction of the chain's size are zero (a float's round-off, not a length)
_TOL = 1e-9
_ROTATION_TOL = 1e-6


# -- input checks ---------------------------------------------------------------------------------
def _real(value, where: str, name: str, shape_text: str) -> np.ndarray:
    """``value`` as an array of floats, or a ``TypeError`` (``ValueError`` for a complex entry
    with an imaginary part, which ``float`` would drop)."""
    try:
        array = np.array(value)
        real = np.array(array.real if np.iscomplexobj(array) else array, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{where}: {name} must be an array of numbers of shape {shape_text}, "
                        f"got {type(value).__name__}") from None
    if np.iscomplexobj(array) and np.any(array.imag != 0):
        entry = array.flat[int(np.flatnonzero(array.imag)[0])]
        raise ValueError(f"{where}: {name} must be real, got the complex entry "
                         f"{complex(entry)}")
    return real


def _array(value, where: str, name: str, shape: tuple) -> np.ndarray:
    array = _real(value, where, name, str(shape))
    if array.shape != shape:
        raise ValueError(f"{where}: {name} must have shape {shape}, got {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{where}: {name} must be finite, got {array.tolist()!r}")
    return array


def _rigid(T: np.ndarray, where: str, name: str) -> np.ndarray:
    """``T`` if it is in SE(3): last row ``(0, 0, 0, 1)``, ``R`` orthonormal with ``det R = 1``
    (to 1e-6; the rotation is then made orthonormal to round-off), else a ``ValueError``."""
    if np.abs(T[3] - (0, 0, 0, 1)).max() > 0:
        raise ValueError(f"{where}: {name} is not in SE(3): its last row must be (0, 0, 0, 1), "
                         f"got {T[3].tolist()}")
    R = T[:3, :3]
    error = np.abs(R.T @ R - np.eye(3)).max()
    if error > _ROTATION_TOL or np.linalg.det(R) < 0:
        raise ValueError(f"{where}: {name} is not in SE(3): its rotation part is not a rotation "
                         f"(R^T R differs from 1 by {error:.3g}, det R = "
                         f"{np.linalg.det(R):.6g})")
    U, _, Vt = np.linalg.svd(R)
    out = T.copy()
    out[:3, :3] = U @ Vt
    return out


def _body(G: np.ndarray, where: str, name: str) -> tuple:
    """``(m, r, I_c)`` from a spatial inertia ``G = [[I_b, m[r]], [m[r]^T, m 1]]`` (Lynch &
    Park (2017), Sec. 8.2.2), or a ``ValueError`` naming what is wrong."""
    scale = max(1.0, float(np.abs(G).max()))
    if np.abs(G - G.T).max() > _TOL * scale:
        raise ValueError(f"{where}: {name} is not symmetric")
    lower = G[3:, 3:]
    m = float(lower[0, 0])
    if np.abs(lower - m * np.eye(3)).max() > _TOL * scale:
        raise ValueError(f"{where}: {name}'s lower right block must be m times the identity "
                         f"(a rigid body's mass), got {lower.tolist()}")
    if m < 0:
        raise ValueError(f"{where}: {name} has the negative mass {m!r}")
    B = G[:3, 3:]
    if np.abs(B + B.T).max() > _TOL * scale or (m == 0 and np.abs(B).max() > _TOL * scale):
        raise ValueError(f"{where}: {name}'s upper right block must be m [r] (skew-symmetric: "
                         f"the centre of mass r in the frame), got {B.tolist()}")
    r = np.array([B[2, 1], B[0, 2], B[1, 0]]) / m if m > 0 else np.zeros(3)   # m = 0: a frame
    skew = np.array(spatial.skew(r), dtype=float)
    I_c = G[:3, :3] - m * skew.T @ skew                 # Steiner's theorem, Sec. 8.2.1
    I_c = (I_c + I_c.T) / 2
    # I_c's round-off is G's, not its own: checked to G's size, then its principal moments
    # within G's round-off of zero are zero (a point mass off the frame's origin: I_c = noise)
    size = float(np.abs(G[:3, :3]).max())
    check_inertia(I_c, f"{where}: {name}", scale=size)
    moments, axes = np.linalg.eigh(I_c)
    if (moments < 1e-13 * size).any():
        I_c = axes @ np.diag(np.where(moments < 1e-13 * size, 0.0, moments)) @ axes.T
    return m, r, I_c


@dataclass(frozen=True)
class _Axis:
    """Joint ``i``'s line at home: a point, a unit direction, and the joint type."""

    revolute: bool
    point: np.ndarray | None        # None for a prismatic joint (placed by the DH rules)
    direction: np.ndarray


def _axis(S: np.ndarray, i: int, where: str, scale: float) -> _Axis:
    omega, v = S[:3], S[3:]
    name = f"Slist[:, {i - 1}] (joint {i})"
    w = float(np.linalg.norm(omega))
    if w > _TOL:
        if abs(w - 1) > _TOL:
            raise ValueError(
                f"{where}: {name} has the rotation {omega.tolist()} of norm {w:.9g}, not a unit "
                f"vector. The library then turns the joint by {w:.9g} * theta (a gear ratio), "
                f"which a DH joint cannot express: pass S / {w:.9g}; the library's results are "
                f"then this robot's with q = {w:.9g} * theta and tau_library = {w:.9g} * tau")
        pitch = float(omega @ v)
        if abs(pitch) > _TOL * scale:
            raise ValueError(f"{where}: {name} is a helical joint (pitch {pitch:.6g} per rad); "
                             f"a standard DH table has only revolute and prismatic joints")
        return _Axis(True, np.cross(omega, v), omega / w)
    speed = float(np.linalg.norm(v))
    if speed < _TOL:
        raise ValueError(f"{where}: {name} is zero: no joint moves about or along it")
    if abs(speed - 1) > _TOL:
        raise ValueError(
            f"{where}: {name} is a prismatic joint whose direction {v.tolist()} has norm "
            f"{speed:.9g}, not 1 (a gear ratio, which a DH joint cannot express): pass "
            f"S / {speed:.9g}; the library's results are then this robot's with "
            f"q = {speed:.9g} * theta and tau_library = {speed:.9g} * tau")
    return _Axis(False, None, v / speed)


# -- the DH frames at home ------------------------------------------------------------------------
def _perpendicular(z: np.ndarray) -> np.ndarray:
    """A unit vector perpendicular to ``z`` (for an x axis the DH rules leave free)."""
    helper = np.eye(3)[int(np.argmin(np.abs(z)))]
    x = np.cross(helper, z)
    return x / np.linalg.norm(x)


def _common_normal(o_prev, z_prev, point, z, x_prev, tol, towards):
    """``(o_i, x_i)``: the origin and x axis of DH frame ``i`` from joint ``i``'s line
    ``(o_prev, z_prev)`` and joint ``i+1``'s ``(point, z)`` (Fu, Gonzalez & Lee (1987), Sec.
    2.2.10: ``x_i`` along the common normal, ``o_i`` where it meets ``z_i``)."""
    cross = np.cross(z_prev, z)
    sin = float(np.linalg.norm(cross))
    if sin < _TOL:                                         # parallel lines
        w = point - o_prev
        w = w - (w @ z_prev) * z_prev                      # the normal through o_prev: d = 0
        length = float(np.linalg.norm(w))
        if length < tol:                                   # one line: keep x
            return o_prev.copy(), x_prev
        return o_prev + w, w / length
    # skew or intersecting: the common normal runs along n = z_{i-1} x z_i; its feet
    # o_prev + s z_prev and point + t z, with s and t from cross products (no 1 - cos^2,
    # which loses the digits of nearly parallel lines)
    n = cross / sin
    w = point - o_prev
    t = float(np.cross(w, z_prev) @ cross) / sin**2
    near = point + t * z
    length = float(w @ n)
    if abs(length) < tol:                # intersecting: x_i = +-n, the sign that points
        return near, (-n if (towards - near) @ n < -tol else n)   # towards the end effector
    return near, (n if length > 0 else -n)


#: How far (in the chain's own size) a DH origin may lie from its joint: the dynamics computed in
#: frames that far away lose about twice as many significant digits as this has (parallel-axis
#: terms m r^2 of (FAR * size)^2 cancel), here about six of sixteen
FAR = 1e3


def _check_near(origin, point, z_prev, z, scale, where, names) -> None:
    """Refuse a DH origin on joint ``i+1``'s line that lies more than ``FAR`` times the chain's
    size from the joint: two nearly parallel axes (a tilt of 1e-5 rad at 0.5 m puts their
    common normal 50 km away), where a standard DH table exists but computes badly."""
    distance = float(np.linalg.norm(origin - point))
    if distance > FAR * scale:
        angle = math.asin(min(1.0, float(np.linalg.norm(np.cross(z_prev, z)))))
        digits = 2 * math.log10(distance / scale)
        raise ValueError(
            f"{where}: the axes of {names[0]} and {names[1]} are nearly parallel ({angle:.3g} "
            f"rad apart): their common normal lies {distance:.3g} m from {names[1]}, so a "
            f"standard DH table puts the link frames that far from the bodies and the dynamics "
            f"would lose about {digits:.0f} of 16 significant digits; make the two axes exactly "
            f"parallel, or give them a tilt of more than about {1 / FAR:g} rad")


def _frame(origin, x, z) -> np.ndarray:
    T = np.eye(4)
    T[:3, 0], T[:3, 1], T[:3, 2], T[:3, 3] = x, np.cross(z, x), z, origin
    return T


def _dh_parameters(T: np.ndarray, where: str, i: int, tol: float) -> tuple:
    """``(theta, d, a, alpha)`` of ``A_i = Rz(theta) Tz(d) Tx(a) Rx(alpha)`` (Fu, Gonzalez &
    Lee (1987), Sec. 2.2.10); checks that ``T`` has that form."""
    R, p = T[:3, :3], T[:3, 3]
    theta = math.atan2(R[1, 0], R[0, 0])
    alpha = math.atan2(R[2, 1], R[2, 2])
    d, a = float(p[2]), float(p[0] * math.cos(theta) + p[1] * math.sin(theta))
    rebuilt = _dh_matrix(theta, d, a, alpha)
    error = float(np.abs(rebuilt - T).max())
    if not error <= 1e3 * tol:
        raise ValueError(f"{where}: frame {i - 1} -> {i} is a DH transform only to {error:.3g} "
                         f"(tolerance {1e3 * tol:.3g}): the chain's numbers lose more digits "
                         f"than a standard DH table can stand")
    return tuple(_clean(v, tol) for v in (theta, d, a)) + (_clean_angle(alpha),)


def _dh_matrix(theta, d, a, alpha) -> np.ndarray:
    ct, st, ca, sa = math.cos(theta), math.sin(theta), math.cos(alpha), math.sin(alpha)
    return np.array([[ct, -st * ca, st * sa, a * ct], [st, ct * ca, -ct * sa, a * st],
                     [0, sa, ca, d], [0, 0, 0, 1.0]])


def _clean(value: float, tol: float) -> float:
    return 0.0 if abs(value) < tol else float(value)


def _clean_angle(angle: float) -> float:
    """An angle within 1e-12 of a multiple of pi/2 as that multiple (a table prints pi/2)."""
    quarter = round(angle / (math.pi / 2))
    return quarter * (math.pi / 2) if abs(angle - quarter * math.pi / 2) < 1e-12 \
        else float(angle)


@dataclass(frozen=True)
class DHChain:
    """An open chain in standard DH form: ``links``, ``base`` (DH frame 0 at home in the space
    frame), ``tool`` (frame ``{n+1}`` in DH frame ``n``) and ``names``."""

    links: tuple
    base: np.ndarray
    tool: np.ndarray
    names: tuple

    def gravity_in_base(self, gravity, where: str = "gravity_in_base") -> tuple:
        """The space frame's ``gravity`` in DH frame 0's axes."""
        g = _array(gravity, where, "gravity", (3,))
        return tuple(_clean(float(v), 1e-15) for v in self.base[:3, :3].T @ g)

    def tip_wrench(self, thetalist, Ftip, where: str = "tip_wrench") -> tuple:
        """``(tip_force, tip_moment)`` in base coordinates (about DH frame ``n``'s origin) for the
        library's ``Ftip = (m, f)`` at ``thetalist``: ``f_0 = R f``, ``m_0 = R m + (p - o_n) x f_0``
        (Lynch & Park (2017), Sec. 3.4)."""
        Ftip = _array(Ftip, where, "Ftip", (6,))
        thetalist = _array(thetalist, where, "thetalist", (len(self.links),))
        robot = Robot(self.links, name="chain")
        T0n = np.array(transforms(robot, list(thetalist))[-1], dtype=float)
        tool = T0n @ self.tool
        force = tool[:3, :3] @ Ftip[3:]
        moment = tool[:3, :3] @ Ftip[:3] + np.cross(tool[:3, 3] - T0n[:3, 3], force)
        return tuple(map(float, force)), tuple(map(float, moment))

    def robot(self, gravity=(0, 0, -9.81), *, Ftip=None, thetalist=None, name="screw chain",
              source="", where: str | None = None) -> Robot:
        """The :class:`~dynlab.Robot` of the chain, ``gravity`` given in the space frame, the
        tip wrench ``Ftip`` (end-effector frame) mapped at ``thetalist``."""
        where = where or name
        tip = {}
        if Ftip is not None:
            if thetalist is None:
                raise TypeError(f"{where}: Ftip is given in the end-effector frame, which turns "
                                f"with the arm: give thetalist, the configuration to map it at")
            force, moment = self.tip_wrench(thetalist, Ftip, where)
            tip = {"tip_force": force, "tip_moment": moment}
        return Robot(self.links, gravity=self.gravity_in_base(gravity, where), name=name,
                     source=source, **tip)


def dh_from_screws(Mlist, Glist, Slist, *, names: Sequence[str] | None = None,
                   where: str = "from_screws") -> DHChain:
    """The standard DH description of ``(Mlist, Glist, Slist)`` as a :class:`DHChain` (Fu,
    Gonzalez & Lee, Sec. 2.2.10; Lynch & Park (2017), App. C): ``z_{i-1}`` along joint ``i``'s screw
    axis, ``x_i`` along the common normal to the next (through the meeting point of intersecting
    lines, through ``o_{i-1}`` for parallel ones; a prismatic line through ``o_{i-2}``); 1e-9
    tolerances; home ``theta_i`` (or ``d_i``) is the ``offset``.  Inertias move by Steiner's theorem
    (Sec. 8.2.1).  A helical screw (non-zero pitch) has no DH description.

    >>> import numpy as np
    >>> up = np.eye(4); up[2, 3] = 0.5                   # a slide along z, then a pendulum
    >>> Mlist = [up, np.eye(4), np.eye(4)]
    >>> Mlist[1] = np.array([[1, 0, 0, 0.3], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])
    >>> Glist = [np.diag([0.1, 0.1, 0.1, 2, 2, 2.0]), np.diag([0.01, 0.02, 0.02, 1, 1, 1.0])]
    >>> Slist = np.array([[0, 0, 0, 0, 0, 1], [0, 1, 0, -0.5, 0, 0]]).T
    >>> chain = dh_from_screws(Mlist, Glist, Slist)
    >>> [(l.joint, l.offset, l.a, l.alpha) for l in chain.links]   # the slide is 0.5 m up
    [('prismatic', 0.5, 0.0, -1.5707963267948966), ('revolute', 0.0, 0.3, 0.0)]
    """
    S = _real(Slist, where, "Slist", "(6, n), the screw axes as columns,")
    if S.ndim != 2 or S.shape[0] != 6 or S.shape[1] < 1:
        raise ValueError(f"{where}: Slist must have shape (6, n), the screw axes as columns, "
                         f"got {np.shape(S)}")
    n = S.shape[1]
    S = _array(Slist, where, "Slist", (6, n))
    M = _array(Mlist, where, "Mlist", (n + 1, 4, 4))
    G = _array(Glist, where, "Glist", (n, 6, 6))
    names = tuple(names) if names is not None else tuple(f"joint {i}" for i in range(1, n + 1))
    M = [_rigid(M[i], where, f"Mlist[{i}]") for i in range(n + 1)]
    bodies = [_body(G[i], where, f"Glist[{i}]") for i in range(n)]
    homes, T = [], np.eye(4)                      # M_i: the frames {i} at home, space frame
    for Mi in M:
        T = T @ Mi
        homes.append(T)
    scale = max(1.0, max(float(np.abs(h[:3, 3]).max()) for h in homes),
                float(np.abs(S[3:]).max()))
    if scale > LARGEST_PARAMETER:
        raise ValueError(f"{where}: the chain reaches {scale:.3g} m from the origin of its "
                         f"space frame; beyond {LARGEST_PARAMETER:.3g} m its dynamics (m l^2) "
                         f"overflow a float")
    tol = _TOL * scale
    axes = [_axis(S[:, i], i + 1, where, scale) for i in range(n)]
    end = homes[-1][:3, 3]

    # frame 0 on joint 1's line, nearest the space origin (a prismatic line through it)
    z = axes[0].direction
    point = axes[0].point if axes[0].revolute else np.zeros(3)
    origin = point - (point @ z) * z
    frames_o, frames_x, frames_z = [origin], [None], [z]
    previous_origin = origin                         # o_{i-2}, for a prismatic line
    for i in range(1, n):
        axis = axes[i]
        point = axis.point if axis.revolute else previous_origin
        x_prev = frames_x[-1] if frames_x[-1] is not None else _perpendicular(frames_z[-1])
        o, x = _common_normal(frames_o[-1], frames_z[-1], point, axis.direction, x_prev, tol,
                              end)
        _check_near(o, point, frames_z[-1], axis.direction, scale, where, names[i - 1:i + 1])
        if frames_x[-1] is None:                       # frame 0 takes x_1 (theta_1 = 0)
            frames_x[-1] = x
        previous_origin = frames_o[-1]
        frames_o.append(o)
        frames_x.append(x)
        frames_z.append(axis.direction)
    if frames_x[-1] is None:
        frames_x[-1] = _perpendicular(frames_z[-1])
    # frame n: z_n = z_{n-1}, x_n along the normal from joint n's line to the end effector's
    # origin, which is o_n (frame n-1 moved along z_{n-1} when the origin is on the line)
    z_last, o_last = frames_z[-1], frames_o[-1]
    w = end - o_last
    normal = w - (w @ z_last) * z_last
    length = float(np.linalg.norm(normal))
    frames_o.append(end if length >= tol else o_last + (w @ z_last) * z_last)
    frames_x.append(normal / length if length >= tol else frames_x[-1])
    frames_z.append(z_last)
    frames = [_frame(o, x, z) for o, x, z in zip(frames_o, frames_x, frames_z)]

    links = []
    for i in range(1, n + 1):
        relative = np.linalg.inv(frames[i - 1]) @ frames[i]
        theta, d, a, alpha = _dh_parameters(relative, where, i, tol)
        m, r, I_c = bodies[i - 1]
        F, C = frames[i], homes[i - 1]
        R = F[:3, :3].T @ C[:3, :3]                # {i}'s axes in DH frame i
        com = F[:3, :3].T @ (C[:3, 3] + C[:3, :3] @ r - F[:3, 3])
        inertia = R @ I_c @ R.T
        inertia = (inertia + inertia.T) / 2
        # round-off is zero (a diagonal tensor prints diag(.)): below 1e-13 of the largest
        # moment, and of the chain's size for the centre of mass (a file's 2e-10 m is kept)
        inertia_scale = max(float(np.abs(inertia).max()), 1e-300)
        inertia = [[_clean(float(v), 1e-13 * inertia_scale) for v in row] for row in inertia]
        common = dict(a=a, alpha=alpha, mass=m, inertia=inertia, name=names[i - 1],
                      com=tuple(_clean(float(c), 1e-13 * scale) for c in com))
        if axes[i - 1].revolute:
            links.append(Link("revolute", d=d, offset=theta, **common))
        else:
            links.append(Link("prismatic", theta=theta, offset=d, **common))
    tool = np.linalg.inv(frames[-1]) @ homes[-1]
    return DHChain(tuple(links), frames[0], tool, names)


def from_screws(Mlist, Glist, Slist, gravity=(0, 0, -9.81), *, Ftip=None, thetalist=None,
                name: str = "screw chain", source: str = "") -> Robot:
    """A :class:`~dynlab.Robot` from the Modern Robotics library's ``(Mlist, Glist, Slist)``
    (Lynch & Park (2017), Sec. 8.3.2); ``gravity`` and ``Ftip`` as the library's (``Ftip`` stored
    at ``thetalist``, :meth:`DHChain.tip_wrench`).  A non-unit screw axis, a helical screw, a
    non-SE(3) ``M`` or a ``G`` no rigid body has raises a ``ValueError`` naming the entry.

    >>> import numpy as np
    >>> Mlist = [np.eye(4), np.eye(4)]
    >>> Glist = [np.diag([1, 1, 1, 1, 1, 1.0])]
    >>> from_screws(Mlist, Glist, np.array([[1, 0, 1, 0, 1, 0.0]]).T)
    Traceback (most recent call last):
    ...
    ValueError: from_screws: Slist[:, 0] (joint 1) has the rotation [1.0, 0.0, 1.0] of norm \
1.41421356, not a unit vector. The library then turns the joint by 1.41421356 * theta (a gear \
ratio), which a DH joint cannot express: pass S / 1.41421356; the library's results are then \
this robot's with q = 1.41421356 * theta and tau_library = 1.41421356 * tau
    """
    if not isinstance(name, str):
        raise TypeError(f"from_screws: name must be a string, got {type(name).__name__}")
    where = name if name != "screw chain" else "from_screws"
    chain = dh_from_screws(Mlist, Glist, Slist, where=where)
    return chain.robot(gravity, Ftip=Ftip, thetalist=thetalist, name=name, where=where,
                       source=source or "Lynch & Park (2017), Modern Robotics, Sec. 8.3.2: "
                                        "(Mlist, Glist, Slist)")
