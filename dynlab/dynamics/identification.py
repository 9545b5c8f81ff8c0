"""Identification's first two steps: the regressor ``tau = Y(q, qd, qdd) pi`` of every arm in the
10 standard parameters of each link (:func:`torque_regressor`), and the base parameters, the
combinations of them that the torques show (:func:`base_parameters`).

Each link's Newton-Euler wrench is linear in its 10 parameters once they are taken about the
link frame's origin (Atkeson, An & Hollerbach (1986), "Estimation of inertial parameters of
manipulator loads and links", IJRR 5(3); Lynch & Park (2017), Sec. 8.2.2: ``F = G Vdot -
[ad_V]^T G V`` is linear in ``G``); a joint's torque is the power of its unit twist on the
wrenches of the links beyond it.  The base parameters follow Gautier (1991), "Numerical
calculation of the base inertial parameters of robots", J. Robotic Systems 8(4): the numeric
rank of ``Y`` stacked over random states, independent columns kept in a fixed order, each other
column a combination of them with constant coefficients, which regroups the parameters as
Gautier & Khalil (1990) do by hand (Khalil & Dombre (2002), Ch. 12).

>>> from dynlab.model.robots import pendulum
>>> base = base_parameters(pendulum())
>>> base.count
3
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import sympy
from sympy.polys.domains import QQ
from sympy.polys.matrices import DomainMatrix

from dynlab.model import vectors as V
from dynlab.model.checks import flag
from dynlab.model.kinematics import resolve
from dynlab.model.robot import Robot

#: A link's standard parameters in Pinocchio's order (``Inertia.toDynamicParameters``): mass,
#: first moments ``m c`` and the inertia tensor, about the origin of DH frame ``i``, in its axes
#: (Khalil & Dombre's names).
LINK_PARAMETERS = ("M", "MX", "MY", "MZ", "XX", "XY", "YY", "XZ", "YZ", "ZZ")
#: A joint's own parameters: rotor inertia reflected at the joint (the armature, Lynch & Park
#: (2017), Sec. 8.9.2: ``G^2 I_rotor`` on the diagonal of ``M``), viscous and Coulomb friction.
JOINT_PARAMETERS = ("Ia", "Fv", "Fc")
#: The order in which columns are kept as independent: link 1 first, in a link inertias, first
#: moments, mass, then the joint's: a dependent parameter of link j is grouped into link j-1's
#: kept ones (Khalil & Dombre's ``ZZ1R = ZZ1 + ...``).
_PREFERENCE = ("XX", "XY", "XZ", "YY", "YZ", "ZZ", "MX", "MY", "MZ", "M", "Ia", "Fv", "Fc")
#: A column whose norm is below this fraction of the largest is zero (round-off, not physics)
ZERO_COLUMN = 1e-10
#: Singular values of the column-scaled stack below this fraction of the largest count as zero
RANK_TOLERANCE = 1e-8
#: The degree of an exact grouping's coefficients in the geometry's symbols: ``beta_kc`` has the
#: units of ``pi_k / pi_c``, at most a length squared (a mass grouped into an inertia), as in
#: Khalil & Dombre's (2002) grouping rules, quadratic in a joint's ``d_j``, ``r_j``
GROUPING_DEGREE = 2
#: The prime modulo which an exact grouping is guessed before it is proved (2^61 - 1)
PRIME = 2**61 - 1


def parameter_names(n: int, rotor: bool = False, friction: bool = False) -> tuple:
    """The names of the standard parameters of an ``n``-joint arm, link by link: the 10 of
    :data:`LINK_PARAMETERS`, then ``Ia`` (``rotor``), ``Fv``, ``Fc`` (``friction``).

    >>> parameter_names(1, friction=True)
    ('M1', 'MX1', 'MY1', 'MZ1', 'XX1', 'XY1', 'YY1', 'XZ1', 'YZ1', 'ZZ1', 'Fv1', 'Fc1')
    """
    extra = JOINT_PARAMETERS[:1] * rotor + JOINT_PARAMETERS[1:] * friction
    return tuple(f"{name}{k}" for k in range(1, n + 1) for name in LINK_PARAMETERS + extra)


def parameter_symbols(n: int, rotor: bool = False, friction: bool = False) -> tuple:
    """:func:`parameter_names` as real SymPy symbols."""
    return tuple(sympy.Symbol(name, real=True) for name in parameter_names(n, rotor, friction))


def _options(rotor, friction) -> tuple:
    return (flag(rotor, "identification", "rotor"),
            flag(friction, "identification", "friction"))


def standard_parameters(robot: Robot, *, rotor: bool = False, friction: bool = False):
    """``pi`` of ``robot``: for link ``i`` mass ``m``, ``m c`` and ``I_o = I_c + m (c.c 1 - c
    c^T)`` (Steiner) about the origin of DH frame ``i`` in its axes, ``c`` and ``I_c`` the
    link's ``com`` and ``inertia``; ``Ia = 0`` (a Link has no rotor), ``Fv``, ``Fc`` its
    ``viscous`` and ``coulomb`` friction.  A NumPy vector, or a SymPy column on symbols.

    >>> from dynlab.model.robots import pendulum
    >>> pi = standard_parameters(pendulum())   # a rod, 1 kg, 0.5 m, frame 1 at its far end
    >>> pi[:4].tolist(), round(float(pi[9]), 12)   # m, m c; ZZ = m L^2 / 3 about its end
    ([1.0, -0.25, 0.0, 0.0], 0.083333333333)
    """
    rotor, friction = _options(rotor, friction)
    if not isinstance(robot, Robot):
        raise TypeError(f"robot must be a dynlab Robot, got {type(robot).__name__}")
    values = []
    for k, link in enumerate(robot.links, start=1):
        m, c, Ic = link.mass, link.com, link.inertia
        h = [m * ci for ci in c]
        cc = sum(ci * ci for ci in c)
        Io = [[Ic[r][s] + m * ((cc if r == s else 0) - c[r] * c[s]) for s in range(3)]
              for r in range(3)]
        values += [m, *h, Io[0][0], Io[0][1], Io[1][1], Io[0][2], Io[1][2], Io[2][2]]
        values += [0] * rotor
        if friction:
            if link.static != link.coulomb:
                raise ValueError(f"{robot.name}: link {k} has static friction {link.static} "
                                 f"unlike its Coulomb friction {link.coulomb}: the Stribeck "
                                 f"term of Schilling's Eq. (6-3-3) is not linear in its "
                                 f"parameters")
            values += [link.viscous, link.coulomb]
    if robot.is_symbolic:
        return sympy.Matrix(values)
    return np.array(values, dtype=float)


def with_standard_parameters(robot: Robot, parameters) -> Robot:
    """``robot`` with each link's mass, centre of mass and inertia read from ``parameters``, the
    ``10 n`` standard parameters of :func:`standard_parameters` (no rotor, no friction): ``c =
    h / m`` and ``I_c = I_o - m (c.c 1 - c c^T)`` (Steiner, the inverse of
    :func:`standard_parameters`).  A link of negative mass, or of zero mass with first moments,
    is refused by name, and :class:`~dynlab.model.link.Link` refuses an inertia no rigid body
    has.

    >>> from dynlab.model.robots import pendulum
    >>> arm = pendulum()
    >>> heavier = with_standard_parameters(arm, 2 * standard_parameters(arm))
    >>> heavier.links[0].mass, heavier.links[0].com == arm.links[0].com
    (2.0, True)
    """
    if not isinstance(robot, Robot):
        raise TypeError(f"robot must be a dynlab Robot, got {type(robot).__name__}")
    pi = np.asarray(parameters, dtype=float)
    if pi.shape != (10 * robot.n,) or not np.all(np.isfinite(pi)):
        raise ValueError(f"{robot.name}: parameters must be {10 * robot.n} finite numbers (10 a "
                         f"link, standard_parameters' order), got shape {pi.shape}")
    for k, link in enumerate(pi.reshape(robot.n, 10), start=1):
        m, h = link[0], link[1:4]
        if not (m > 0 or (m == 0 and not h.any())):
            raise ValueError(f"{robot.name}: link {k} has mass {m:g} and first moments "
                             f"{h.tolist()}; a centre of mass needs a positive mass")
        c = h / m if m > 0 else h                      # a massless link: its inertia alone
        Io = np.array([[link[4], link[5], link[7]], [link[5], link[6], link[8]],
                       [link[7], link[8], link[9]]])
        Ic = Io - m * (c @ c * np.eye(3) - np.outer(c, c))
        robot = robot.replace_link(k, mass=float(m), com=tuple(c.tolist()),
                                   inertia=((Ic + Ic.T) / 2).tolist())
    return robot


def moved_parameters(parameters, rotation, translation):
    """One link's 10 parameters (:data:`LINK_PARAMETERS`' order) about the origin of another
    frame ``b``, given those about frame ``a`` and ``a``'s pose in ``b`` (``x_b = R x_a + p``):
    ``m`` stays, ``h_b = R h + m p``, ``I_b = R I R^T + (2 (R h).p + m p.p) 1 - (R h) p^T -
    p (R h)^T - m p p^T`` (Steiner twice), all linear in the parameters.  To Pinocchio: ``a``
    the DH frame ``i``, ``b`` the joint frame; back: ``(R^T, -R^T p)``.

    >>> moved_parameters([2.0, 0, 0, 0, 0, 0, 0, 0, 0, 0], np.eye(3), [1.0, 0, 0]).tolist()
    [2.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 2.0]
    """
    pi = np.asarray(parameters, dtype=float)
    R, p = np.asarray(rotation, dtype=float), np.asarray(translation, dtype=float)
    if pi.shape != (10,) or R.shape != (3, 3) or p.shape != (3,):
        raise ValueError(f"moved_parameters takes 10 parameters, a 3x3 rotation and a 3-vector, "
                         f"got shapes {pi.shape}, {R.shape}, {p.shape}")
    m, h = pi[0], R @ pi[1:4]
    J = np.array([[pi[4], pi[5], pi[7]], [pi[5], pi[6], pi[8]], [pi[7], pi[8], pi[9]]])
    J = (R @ J @ R.T + (2 * h @ p + m * p @ p) * np.eye(3) - np.outer(h, p) - np.outer(p, h)
         - m * np.outer(p, p))
    return np.array([m, *(h + m * p), J[0, 0], J[0, 1], J[1, 1], J[0, 2], J[1, 2], J[2, 2]])


# -- the regressor --------------------------------------------------------------------------------
def _regressor_rows(links, cos_t, sin_t, d, qd, qdd, base_acceleration, sign, rotor, friction):
    """``Y`` as ``n`` rows of scalars of any type (floats, NumPy arrays over samples, SymPy):
    ``links`` the robot's LinkData, ``cos_t``, ``sin_t`` of each ``theta_i``, ``d`` each
    ``d_i`` (the joint variable of a prismatic joint included)."""
    n = len(links)
    w = wd = V.ZERO
    vd = base_acceleration                                 # v_dot_0 = -gravity, (3.3-46)
    frames, axes = [], []                                   # (R, p, w, wd, vd); joint twists
    for link, ct, st, di, qdi, qddi in zip(links, cos_t, sin_t, d, qd, qdd):
        sa, ca = link.sin_alpha, link.cos_alpha
        R = ((ct, -ca * st, sa * st), (st, ca * ct, -sa * ct), (0, sa, ca))   # ^{i-1}R_i
        p = (link.a, di * sa, di * ca)                     # ^iR_0 p*_i, Fu et al. (3.3-59)
        z = R[2]                                            # z_{i-1} in frame i
        if link.revolute:                                   # (3.3-50)-(3.3-52)
            wd = V.tmatvec(R, (wd[0] + w[1] * qdi, wd[1] - w[0] * qdi, wd[2] + qddi))
            w = V.tmatvec(R, (w[0], w[1], w[2] + qdi))
            vd = V.add3(V.cross(wd, p), V.cross(w, V.cross(w, p)), V.tmatvec(R, vd))
            axes.append((z, V.cross(z, p)))                 # the joint's unit twist at o_i
        else:
            w, wd = V.tmatvec(R, w), V.tmatvec(R, wd)
            vd = V.add(V.add3(V.tmatvec(R, (vd[0], vd[1], vd[2] + qddi)), V.cross(wd, p),
                              V.scale(2 * qdi, V.cross(w, z))), V.cross(w, V.cross(w, p)))
            axes.append((V.ZERO, z))
        frames.append((R, p, w, wd, vd))
    blocks = [[[0] * 10 for _ in range(n)] for _ in range(n)]     # [joint i][link j]
    twists = []                                             # joints 1..j, at o_j in frame j
    for j, (R, p, w, wd, vd) in enumerate(frames):
        twists = [(V.tmatvec(R, om), V.add(V.tmatvec(R, v), V.cross(V.tmatvec(R, om), p)))
                  for om, v in twists] + [axes[j]]          # [Ad_T] of Lynch & Park Sec. 3.3.2
        for i, (om, v) in enumerate(twists):
            # the power of joint i's unit twist (om, v) on link j's wrench: n = I wd + w x I w
            # + h x vd, f = m vd + wd x h + w x (w x h) (Atkeson, An & Hollerbach), per parameter
            first = V.add3(V.cross(vd, om), V.cross(v, wd), V.cross(w, V.cross(w, v)))
            u = V.cross(om, w)
            blocks[i][j] = [
                V.dot(v, vd), *first,
                wd[0] * om[0] + w[0] * u[0],
                wd[1] * om[0] + wd[0] * om[1] + w[1] * u[0] + w[0] * u[1],
                wd[1] * om[1] + w[1] * u[1],
                wd[2] * om[0] + wd[0] * om[2] + w[2] * u[0] + w[0] * u[2],
                wd[2] * om[1] + wd[1] * om[2] + w[2] * u[1] + w[1] * u[2],
                wd[2] * om[2] + w[2] * u[2]]
    extra = rotor + 2 * friction
    for i in range(n):
        joint = [qdd[i]] * rotor + [qd[i], sign(qd[i])] * friction
        for j in range(n):
            blocks[i][j] += joint if j == i else [0] * extra
    return [sum(row, []) for row in blocks]


def _is_symbolic_value(value) -> bool:
    if isinstance(value, sympy.Basic):
        return True
    if isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray)
                                            and value.dtype == object):
        return any(_is_symbolic_value(v) for v in (value.ravel() if isinstance(
            value, np.ndarray) else value))
    return False


def _numeric_states(robot: Robot, q, qd, qdd) -> tuple:
    """``q, qd, qdd`` as float arrays of shape ``(N, n)``, checked, each error naming its
    argument."""
    arrays = []
    for name, value in (("q", q), ("qd", qd), ("qdd", qdd)):
        if isinstance(value, (str, bytes, bool)) or value is None:
            raise TypeError(f"{robot.name}: {name} must be numbers, one per joint, or an "
                            f"(N, {robot.n}) array of N samples, got {type(value).__name__}")
        try:
            array = np.array(value, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"{robot.name}: {name} must be numbers, one per joint, or an "
                             f"(N, {robot.n}) array of N samples") from None
        if array.ndim == 1:
            array = array[None, :]
        if array.ndim != 2 or array.shape[1] != robot.n or array.shape[0] == 0:
            raise ValueError(f"{robot.name}: {name} must have {robot.n} entries (one per joint) "
                             f"or shape (N, {robot.n}), got shape {np.shape(value)}")
        bad = np.argwhere(~np.isfinite(array))
        if bad.size:
            sample, joint = bad[0]
            raise ValueError(f"{robot.name}: {name} must be finite, got {array[sample, joint]} "
                             f"at sample {sample}, joint {joint + 1}")
        arrays.append(array)
    if not arrays[0].shape == arrays[1].shape == arrays[2].shape:
        raise ValueError(f"{robot.name}: q, qd and qdd must have the same shape, got "
                         f"{arrays[0].shape}, {arrays[1].shape}, {arrays[2].shape}")
    return tuple(arrays)


def _geometry_symbols(robot: Robot) -> list:
    """The symbols of ``robot``'s geometry and gravity, sorted by name."""
    symbols = set()
    for link in robot.links:
        for value in (link.theta, link.d, link.a, link.alpha, link.offset):
            symbols |= getattr(value, "free_symbols", set())
    for g in robot.gravity:
        symbols |= getattr(g, "free_symbols", set())
    return sorted(symbols, key=str)


def _geometry_is_symbolic(robot: Robot) -> bool:
    return bool(_geometry_symbols(robot))


def torque_regressor(robot: Robot, q, qd, qdd, *, rotor: bool = False, friction: bool = False):
    """``Y`` with ``tau = Y(q, qd, qdd) pi`` (no tool wrench), ``pi`` the standard parameters of
    :func:`parameter_symbols` / :func:`standard_parameters`: link by link the 10 of
    :data:`LINK_PARAMETERS` about the origin of DH frame ``i`` in its axes, with ``rotor`` the
    armature ``Ia`` (``tau_i += Ia_i qdd_i``), with ``friction`` ``Fv``, ``Fc`` (``tau_i +=
    Fv_i qd_i + Fc_i sgn(qd_i)``).  On floats ``q, qd, qdd`` may be ``(N, n)`` arrays of
    ``N`` samples: an ``(N n) x p`` NumPy array, sample by sample (no SymPy object is built);
    on symbols a SymPy ``n x p`` Matrix.  An arm here is a serial chain with a fixed base: dynlab
    describes no closed loop and no floating base.

    >>> from dynlab.model.robots import pendulum
    >>> arm = pendulum()
    >>> from dynlab.dynamics.inverse import inverse_dynamics
    >>> Y = torque_regressor(arm, [0.3], [0.1], [0.2])
    >>> Y.shape, (Y @ standard_parameters(arm)).round(12) == inverse_dynamics(
    ...     arm, [0.3], [0.1], [0.2]).round(12)
    ((1, 10), array([ True]))
    """
    rotor, friction = _options(rotor, friction)
    if not isinstance(robot, Robot):
        raise TypeError(f"robot must be a dynlab Robot, got {type(robot).__name__}")
    if _geometry_is_symbolic(robot) or any(map(_is_symbolic_value, (q, qd, qdd))):
        _, backend, (links, gravity, *_), vec = resolve(robot, q=q, qd=qd, qdd=qdd)
        q, qd, qdd = vec["q"], vec["qd"], vec["qdd"]
        theta = [qi + link.offset if link.revolute else link.theta
                 for link, qi in zip(links, q)]
        d = [link.d if link.revolute else qi + link.offset for link, qi in zip(links, q)]
        rows = _regressor_rows(links, [backend.cos(t) for t in theta],
                               [backend.sin(t) for t in theta], d, qd, qdd,
                               tuple(-g for g in gravity), sympy.sign, rotor, friction)
        return sympy.Matrix(rows)
    Q, QD, QDD = _numeric_states(robot, q, qd, qdd)
    links, gravity = (robot.symbolic() if robot.is_symbolic else robot.numeric())[:2]
    theta = [Q[:, k] + float(link.offset) if link.revolute else float(link.theta)
             for k, link in enumerate(links)]
    d = [float(link.d) if link.revolute else Q[:, k] + float(link.offset)
         for k, link in enumerate(links)]
    links = [_Geometry.of(link, float) for link in links]
    rows = _regressor_rows(links, [np.cos(t) for t in theta], [np.sin(t) for t in theta], d,
                           QD.T, QDD.T, tuple(-float(g) for g in gravity), np.sign, rotor,
                           friction)
    N, n = Q.shape
    Y = np.zeros((N, n, len(rows[0])))
    for i, row in enumerate(rows):
        for c, value in enumerate(row):
            Y[:, i, c] = value
    return Y.reshape(N * n, -1)


@dataclass(frozen=True)
class _Geometry:
    """What :func:`_regressor_rows` reads of a link, each number through ``convert`` (to a
    float, or to a polynomial in the geometry's symbols)."""

    revolute: bool
    a: object
    sin_alpha: object
    cos_alpha: object

    @classmethod
    def of(cls, link, convert):
        return cls(link.revolute, *(convert(getattr(link, name))
                                    for name in ("a", "sin_alpha", "cos_alpha")))


# -- base parameters ------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class BaseParameters:
    """The base parameters of an arm: ``Y pi == Y[:, kept] pi_b`` with ``pi_b = pi[kept] + beta
    pi[grouped]`` (:attr:`expressions`; :attr:`zero`: parameters the torques never show);
    :attr:`singular_values` of the column-scaled stack, the :attr:`tolerance` and :attr:`gap`
    (``s_r / s_{r+1}``) the rank was read with.  ``beta`` is exact in the arm's symbols when
    its geometry has symbols, else floats to 12 digits."""

    robot: Robot
    rotor: bool
    friction: bool
    standard: tuple
    kept: tuple
    grouped: tuple
    zero: tuple
    beta: sympy.Matrix
    singular_values: np.ndarray
    tolerance: float
    gap: float

    @property
    def count(self) -> int:
        return len(self.kept)

    @property
    def symbols(self) -> tuple:
        """One symbol per base parameter: its kept standard parameter's name and ``R``."""
        return tuple(sympy.Symbol(f"{self.standard[k]}R", real=True) for k in self.kept)

    @property
    def expressions(self) -> tuple:
        """Each base parameter in the standard ones: ``pi_k + sum_c beta_kc pi_c``."""
        kept = sympy.Matrix([self.standard[k] for k in self.kept])
        grouped = sympy.Matrix([self.standard[c] for c in self.grouped])
        return tuple(kept + (self.beta * grouped if self.grouped else sympy.zeros(*kept.shape)))

    def values(self, parameters):
        """``pi_b`` for the standard parameters ``parameters`` (:func:`standard_parameters`)."""
        if isinstance(parameters, sympy.MatrixBase) or self.beta.free_symbols:
            pi = sympy.Matrix(list(parameters))
            return sympy.Matrix([self.expressions]).T.subs(dict(zip(self.standard, pi)))
        pi = np.asarray(parameters, dtype=float)
        if pi.shape != (len(self.standard),):
            raise ValueError(f"parameters must have {len(self.standard)} entries, got shape "
                             f"{pi.shape}")
        beta = np.array(self.beta.tolist(), dtype=float).reshape(self.count, len(self.grouped))
        return pi[list(self.kept)] + beta @ pi[list(self.grouped)]

    def regressor(self, q, qd, qdd):
        """``Y_b``, the columns :attr:`kept` of :func:`torque_regressor`."""
        Y = torque_regressor(self.robot, q, qd, qdd, rotor=self.rotor, friction=self.friction)
        return Y[:, list(self.kept)]

    def __str__(self) -> str:
        return "\n".join(f"{s} = {e}" for s, e in zip(self.symbols, self.expressions))


def _random_geometry(robot: Robot, rng) -> Robot:
    """``robot`` with its geometric symbols (and gravity's) at random values in [0.5, 1.5]."""
    symbols = _geometry_symbols(robot)
    return robot.subs(dict(zip(symbols, rng.uniform(0.5, 1.5, len(symbols)))))


def base_parameters(robot: Robot, *, rotor: bool = False, friction: bool = False,
                    seed: int = 0) -> BaseParameters:
    """The base parameters of ``robot`` (:class:`BaseParameters`), from ``Y`` stacked over
    random states (a generator seeded by ``seed``; symbols of the geometry at random values):
    columns below :data:`ZERO_COLUMN` of the largest are zero, the others scaled to norm 1;
    the rank counts singular values above :data:`RANK_TOLERANCE` of the largest.  Round-off
    leaves ``~1e-15`` of it; a combination whose effect is ``1e-8`` of the others' could not be
    measured anyway.  Columns are kept in :data:`_PREFERENCE`'s order when independent of the
    ones kept before (an unpivoted QR); the others are solved for, in floats on numbers, exactly
    on symbols (:func:`_exact_combinations`: the 6-joint symbolic PUMA 560 in 1-3 s, 3-7 s
    with rotors and friction).

    >>> from dynlab.model.robots import planar_2r
    >>> print(base_parameters(planar_2r(symbolic=True)))     # frame i at link i's far end
    ZZ1R = -M1*l**2 - M2*l**2 + ZZ1
    MX1R = M1*l + M2*l + MX1
    MY1R = MY1
    ZZ2R = -M2*l**2 + ZZ2
    MX2R = M2*l + MX2
    MY2R = MY2
    """
    rotor, friction = _options(rotor, friction)
    if not isinstance(robot, Robot):
        raise TypeError(f"robot must be a dynlab Robot, got {type(robot).__name__}")
    rng = np.random.default_rng(seed)
    names = parameter_names(robot.n, rotor, friction)
    p = len(names)
    numeric = _random_geometry(robot, rng) if _geometry_is_symbolic(robot) else robot
    samples = max(10, math.ceil(4 * p / robot.n))
    Y = torque_regressor(numeric, *_random_states(rng, samples, robot.n), rotor=rotor,
                         friction=friction)
    norms = np.linalg.norm(Y, axis=0)
    zero = tuple(np.flatnonzero(norms <= ZERO_COLUMN * norms.max()))
    per_link = p // robot.n
    stems = [name[:-len(str(c // per_link + 1))] for c, name in enumerate(names)]
    order = sorted((c for c in range(p) if c not in zero),
                   key=lambda c: (c // per_link, _PREFERENCE.index(stems[c])))
    scaled = Y[:, order] / norms[order]
    s = np.linalg.svd(scaled, compute_uv=False)
    tolerance = RANK_TOLERANCE * s[0]
    r = int((s > tolerance).sum())
    gap = float(s[r - 1] / s[r]) if r < len(s) else math.inf
    R = np.linalg.qr(scaled, mode="r")
    kept = tuple(c for c, rkk in zip(order, np.abs(np.diag(R))) if rkk > tolerance)
    if len(kept) != r:
        raise ValueError(f"{robot.name}: the stacked regressor has no clear rank (the largest "
                         f"singular value over the smallest kept is {s[0] / s[r - 1]:.3g}, the "
                         f"gap {gap:.3g})")
    grouped = tuple(c for c in order if c not in kept)
    if _geometry_is_symbolic(robot):
        beta = _exact_combinations(robot, kept, grouped, rotor, friction, rng)
    else:
        solution = np.linalg.lstsq(Y[:, list(kept)], Y[:, list(grouped)], rcond=None)[0]
        # a coefficient is round-off when its share of the grouped column is, in the scaled
        # columns (norm 1) the rank was found in: a small real one (a twist of 1e-7) stays
        share = solution * norms[list(kept)][:, None] / norms[list(grouped)][None, :]
        solution[np.abs(share) < ZERO_COLUMN] = 0
        beta = sympy.Matrix(len(kept), len(grouped),
                            [sympy.Float(float(f"{x:.12g}"), 12) for x in solution.ravel()])
    return BaseParameters(robot, rotor, friction, parameter_symbols(robot.n, rotor, friction),
                          kept, grouped, zero, beta, s, float(tolerance), gap)


def _random_states(rng, samples: int, n: int) -> tuple:
    return (rng.uniform(-math.pi, math.pi, (samples, n)), rng.uniform(-2, 2, (samples, n)),
            rng.uniform(-2, 2, (samples, n)))


def _exact_combinations(robot, kept, grouped, rotor, friction, rng) -> sympy.Matrix:
    """``beta`` with ``Y[:, grouped] = Y[:, kept] beta``, exact in the geometry's symbols ``x``.
    ``Y`` is taken at states whose sines and cosines are rational (``t = tan(theta/2)``
    rational): its entries are polynomials in ``x``.  Guessed modulo :data:`PRIME`: ``beta``
    solved at the points of a principal lattice of degree ``D`` = :data:`GROUPING_DEGREE`
    (``x0 + diag(h) k``, ``k`` integer, ``|k| <= D``: an affine image of a set unisolvent for
    the polynomials of degree ``<= D``), interpolated, each coefficient a fraction again
    (:func:`_rational`).  Then proved: ``Y[:, grouped] - Y[:, kept] beta`` is the zero
    polynomial on every row; the kept columns are independent on the rows chosen (at ``x0``,
    so over the rational functions of ``x``), and ``beta`` is their one solution."""
    if not grouped:
        return sympy.zeros(len(kept), 0)
    symbols = _geometry_symbols(robot)
    K = QQ[tuple(symbols)]

    def polynomial(value):
        try:
            return K.ring.from_expr(sympy.sympify(value))
        except ValueError:
            raise ValueError(f"{robot.name}: an exact grouping takes a geometry polynomial in "
                             f"{symbols} with rational coefficients, and {value} is not (alpha "
                             f"and a prismatic joint's theta need rational sines and cosines, "
                             f"as multiples of 90 degrees have; or give numbers for the "
                             f"symbols)") from None

    links, gravity = robot.symbolic()[:2]
    geometry = [_Geometry.of(link, polynomial) for link in links]
    rows = []
    while len(rows) < 3 * len(kept) + 2 * robot.n:
        t = [QQ(int(k), 7) for k in rng.integers(-9, 10, robot.n)]
        q = [QQ(int(k), 5) for k in rng.integers(-9, 10, robot.n)]
        qd = [QQ(int(k), 3) for k in rng.choice([-5, -4, -2, -1, 1, 2, 4, 5], robot.n)]
        qdd = [QQ(int(k), 3) for k in rng.integers(-5, 6, robot.n)]
        cos_t = [(1 - x**2) / (1 + x**2) if link.revolute else polynomial(sympy.cos(link.theta))
                 for x, link in zip(t, links)]
        sin_t = [2 * x / (1 + x**2) if link.revolute else polynomial(sympy.sin(link.theta))
                 for x, link in zip(t, links)]
        d = [polynomial(link.d) if link.revolute else qk for link, qk in zip(links, q)]
        rows += _regressor_rows(geometry, cos_t, sin_t, d, qd, qdd,
                                tuple(-polynomial(g) for g in gravity),
                                lambda x: (x > 0) - (x < 0), rotor, friction)
    rows = [[K.convert(y) for y in row] for row in rows]
    modular = [[[(m, c.numerator * pow(c.denominator, -1, PRIME)) for m, c in y.items()]
                for y in row] for row in rows]

    def at(point, which, columns):          # Y[which, columns] at point, modulo PRIME
        return [[sum(c * math.prod(map(pow, point, m)) for m, c in modular[i][j]) % PRIME
                 for j in columns] for i in which]

    exponents = [e for e in itertools.product(range(GROUPING_DEGREE + 1), repeat=len(symbols))
                 if sum(e) <= GROUPING_DEGREE]
    for _ in range(3):                      # another lattice if a point hides a kept column
        origin, step = rng.integers(1, 100, (2, len(symbols))).tolist()
        points = [[o + h * k for o, h, k in zip(origin, step, e)] for e in exponents]
        everything = range(len(rows))
        chosen = _modular_solve(at(points[0], everything, kept), at(points[0], everything,
                                                                     grouped))[0]
        solutions = [_modular_solve(at(x, chosen, kept), at(x, chosen, grouped))[1]
                     for x in points]
        vandermonde = [[math.prod(map(pow, x, e)) % PRIME for e in exponents] for x in points]
        coefficients = None not in solutions and _modular_solve(
            vandermonde, [[v for row in X for v in row] for X in solutions])[1]
        if coefficients:
            break
    else:
        raise ValueError(f"{robot.name}: the exact states do not show every base parameter")
    beta = DomainMatrix.from_list_flat(
        [K.ring.from_dict({e: _rational(c) for e, c in zip(exponents, column)})
         for column in zip(*coefficients)], (len(kept), len(grouped)), K).to_sparse()
    Y = DomainMatrix(rows, (len(rows), len(rows[0])), K).to_sparse()
    everything = range(len(rows))
    if not (Y.extract(everything, grouped) - Y.extract(everything, kept) * beta).is_zero_matrix:
        raise ValueError(f"{robot.name}: the grouped columns are no combination of the kept "
                         f"ones with coefficients of degree <= {GROUPING_DEGREE} in {symbols}")
    return beta.to_Matrix()


def _modular_solve(A, B) -> tuple:
    """Gauss-Jordan elimination of ``[A | B]`` (lists of rows of integers in ``[0, PRIME)``)
    modulo :data:`PRIME`: the indices of the rows it pivots on and ``X`` with ``A X = B`` on
    them, or ``None`` for ``X`` if ``A`` has fewer independent rows than columns."""
    n, table, order = len(A[0]), [a + b for a, b in zip(A, B)], list(range(len(A)))
    for k in range(n):
        pivot = next((i for i in range(k, len(table)) if table[i][k]), None)
        if pivot is None:
            return order[:k], None
        table[k], table[pivot] = table[pivot], table[k]
        order[k], order[pivot] = order[pivot], order[k]
        inverse = pow(table[k][k], -1, PRIME)
        table[k] = [v * inverse % PRIME for v in table[k]]
        for i, row in enumerate(table):
            if i != k and row[k]:
                table[i] = [(v - row[k] * w) % PRIME for v, w in zip(row, table[k])]
    return order[:n], [row[n:] for row in table[:n]]


def _rational(c: int):
    """The fraction ``a / b`` with ``a = b c`` modulo :data:`PRIME` and ``|a|, b`` below
    ``sqrt(PRIME / 2)``, by the extended Euclidean algorithm (Wang, Guy & Davenport (1982),
    "p-adic reconstruction of rational numbers", SIGSAM Bulletin 16(2))."""
    r0, r1, s0, s1 = PRIME, c, 0, 1
    while 2 * r1 * r1 > PRIME:
        quotient = r0 // r1
        r0, r1, s0, s1 = r1, r0 - quotient * r1, s1, s0 - quotient * s1
    return QQ(r1, s1)
