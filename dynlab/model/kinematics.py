"""Kinematics of a serial arm in standard DH form: transforms, frames, axes, centres of mass and
link Jacobians; NumPy arrays for numbers, SymPy matrices for symbols.

>>> from dynlab.model.link import Link
>>> from dynlab.model.robot import Robot
>>> arm = Robot([Link("R", a=1.0, name="l1"), Link("R", a=1.0, name="l2")])
>>> tool_pose(arm, [0.0, 0.0])[:3, 3]
array([2., 0., 0.])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy

from dynlab.model import vectors as V
from dynlab.model.link import exact
from dynlab.model.robot import Robot, joint_vector, joint_vector_is_numeric


# -- choosing the numeric or the symbolic path ----------------------------------------------------
def resolve(robot: Robot, **joint_vectors) -> tuple:
    """``(symbolic, backend, data, vectors)``: the joint vectors checked (floats, or SymPy) and the
    robot's ``numeric()`` or ``symbolic()`` data."""
    if not isinstance(robot, Robot):
        raise TypeError(f"expected a dynlab Robot, got {type(robot).__name__}")
    checked = {name: _joint_vector_fast(robot, values, name)
               for name, values in joint_vectors.items()}
    symbolic = robot.is_symbolic or not all(joint_vector_is_numeric(v) for v in checked.values())
    if symbolic:
        checked = {name: tuple(map(exact, v)) for name, v in checked.items()}
        return True, V.SYMBOLIC, robot.symbolic(), checked
    checked = {name: tuple(map(float, v)) for name, v in checked.items()}
    return False, V.NUMERIC, robot.numeric(), checked


def _joint_vector_fast(robot: Robot, values: Any, name: str) -> tuple:
    """:func:`joint_vector`, with a short cut for the common all-float case (slider path)."""
    if type(values) is np.ndarray and values.dtype.kind == "f" and values.shape == (robot.n,):
        if not np.isfinite(values).all():
            return joint_vector(robot, values.tolist(), name)  # names the bad entry
        return tuple(values.tolist())
    if type(values) in (list, tuple) and len(values) == robot.n and all(
            type(v) is float and math.isfinite(v) for v in values):
        return tuple(values)
    return joint_vector(robot, values, name)


# -- one link ------------------------------------------------------------------------------------
def link_rotation(link, qi, backend=V.NUMERIC):
    """``^{i-1}R_i``, the rotation part of ``A_i`` (Fu, Gonzalez & Lee, Eqs. (3.2-5), (3.3-48)), as
    rows."""
    theta = qi + link.offset if link.revolute else link.theta
    ct, st = backend.cos(theta), backend.sin(theta)
    ca, sa = link.cos_alpha, link.sin_alpha
    return ((ct, -ca * st, sa * st), (st, ca * ct, -sa * ct), (0, sa, ca))


def link_offset(link, qi, rotation):
    """Origin of frame ``i`` in frame ``i-1``: the last column of ``A_i`` (Fu, Gonzalez & Lee, Eq.
    (3.2-5))."""
    d = link.d if link.revolute else qi + link.offset
    return (link.a * rotation[0][0], link.a * rotation[1][0], d)


def link_offset_in_own_frame(link, qi):
    """``^iR_0 p*_i = (a_i, d_i sin(alpha_i), d_i cos(alpha_i))`` (Fu, Gonzalez & Lee, Eq.
    (3.3-59))."""
    d = link.d if link.revolute else qi + link.offset
    return (link.a, d * link.sin_alpha, d * link.cos_alpha)


def chain(links, q, backend=V.NUMERIC):
    """Walk the chain: lists ``R_0i`` and ``p_i`` (origin of frame i) for i = 0..n (Fu, Gonzalez &
    Lee (3.2-4))."""
    rotation, origin = V.IDENTITY, V.ZERO
    rotations, origins = [rotation], [origin]
    for link, qi in zip(links, q):
        local = link_rotation(link, qi, backend)
        origin = V.add(origin, V.matvec(rotation, link_offset(link, qi, local)))
        rotation = V.matmul(rotation, local)
        rotations.append(rotation)
        origins.append(origin)
    return rotations, origins


# -- public functions ------------------------------------------------------------------------------
def _out(symbolic: bool, value):
    return sympy.Matrix(value) if symbolic else np.array(value, dtype=float)


def _homogeneous(rotation, origin):
    return [list(rotation[0]) + [origin[0]], list(rotation[1]) + [origin[1]],
            list(rotation[2]) + [origin[2]], [0, 0, 0, 1]]


def link_transform(robot: Robot, q: Sequence, i: int):
    """``^{i-1}A_i`` of Fu, Gonzalez & Lee, Eq. (3.2-5) for link ``i`` (1-based) at joint positions
    ``q``.

    >>> from dynlab.model.link import Link
    >>> from dynlab.model.robot import Robot
    >>> import sympy
    >>> th = sympy.Symbol("th")
    >>> arm = Robot([Link("R", a=2, alpha=sympy.pi / 2, name="l1")])
    >>> link_transform(arm, [th], 1)
    Matrix([
    [cos(th), 0,  sin(th), 2*cos(th)],
    [sin(th), 0, -cos(th), 2*sin(th)],
    [      0, 1,        0,         0],
    [      0, 0,        0,         1]])
    """
    symbolic, backend, (links, *_), vec = resolve(robot, q=q)
    if not isinstance(i, int) or not 1 <= i <= robot.n:
        raise ValueError(f"{robot.name}: link index must be 1..{robot.n}, got {i!r}")
    link, qi = links[i - 1], vec["q"][i - 1]
    rotation = link_rotation(link, qi, backend)
    return _out(symbolic, _homogeneous(rotation, link_offset(link, qi, rotation)))


def transforms(robot: Robot, q: Sequence) -> list:
    """``[T_00 = I, T_01, ..., T_0n]``, the base-to-frame-i transforms ``^0A_i`` (Fu, Gonzalez & Lee
    (3.2-4))."""
    symbolic, backend, (links, *_), vec = resolve(robot, q=q)
    rotations, origins = chain(links, vec["q"], backend)
    return [_out(symbolic, _homogeneous(r, p)) for r, p in zip(rotations, origins)]


def rotations(robot: Robot, q: Sequence) -> list:
    """``[R_00, R_01, ..., R_0n]``: the orientation of each frame in base coordinates."""
    symbolic, backend, (links, *_), vec = resolve(robot, q=q)
    return [_out(symbolic, r) for r in chain(links, vec["q"], backend)[0]]


def frame_origins(robot: Robot, q: Sequence) -> list:
    """``[p_0, ..., p_n]``: the origin of each frame in base coordinates."""
    symbolic, backend, (links, *_), vec = resolve(robot, q=q)
    return [_out(symbolic, p) for p in chain(links, vec["q"], backend)[1]]


def joint_axes(robot: Robot, q: Sequence) -> list:
    """``[z_0, ..., z_{n-1}]``: joint ``i`` moves about or along ``z_{i-1}`` (third column of
    R_0,i-1).

    >>> from dynlab.model.link import Link
    >>> from dynlab.model.robot import Robot
    >>> arm = Robot([Link("R", alpha=math.pi / 2, name="l1"), Link("R", name="l2")])
    >>> [axis.round(12).tolist() for axis in joint_axes(arm, [0.0, 0.0])]
    [[0.0, 0.0, 1.0], [0.0, -1.0, 0.0]]
    """
    symbolic, backend, (links, *_), vec = resolve(robot, q=q)
    rots = chain(links, vec["q"], backend)[0]
    return [_out(symbolic, (r[0][2], r[1][2], r[2][2])) for r in rots[:-1]]


def centres_of_mass(robot: Robot, q: Sequence) -> list:
    """Centre of mass of each link in base coordinates: ``p_i + R_0i r_bar_i`` (Fu, Gonzalez & Lee
    (3.2-3))."""
    symbolic, backend, (links, *_), vec = resolve(robot, q=q)
    rots, origins = chain(links, vec["q"], backend)
    return [_out(symbolic, V.add(origins[i + 1], V.matvec(rots[i + 1], link.com)))
            for i, link in enumerate(links)]


def chain_link_jacobians(links, q, backend):
    """Generic core of :func:`link_jacobians`: lists of 3xn row-tuples ``A^k``, ``B^k``."""
    n = len(links)
    rots, origins = chain(links, q, backend)
    axes = [(r[0][2], r[1][2], r[2][2]) for r in rots[:-1]]
    result = []
    for k, link in enumerate(links):
        centre = V.add(origins[k + 1], V.matvec(rots[k + 1], link.com))
        linear, angular = [], []
        for j in range(n):
            if j > k:
                linear.append(V.ZERO)
                angular.append(V.ZERO)
            elif links[j].revolute:
                linear.append(V.cross(axes[j], V.sub(centre, origins[j])))
                angular.append(axes[j])
            else:
                linear.append(axes[j])
                angular.append(V.ZERO)
        # columns -> rows
        result.append((tuple(tuple(col[r] for col in linear) for r in range(3)),
                       tuple(tuple(col[r] for col in angular) for r in range(3))))
    return result


def link_jacobians(robot: Robot, q: Sequence) -> list:
    """``[(A^k, B^k)]``: ``v_bar^k = A^k qd``, ``w^k = B^k qd`` (Schilling, Eqs. (6-2-10),
    (6-2-12), (6-2-13)): column ``j <= k`` is ``z_{j-1} x (c_k - p_{j-1})``, ``z_{j-1}``
    (revolute) or ``z_{j-1}``, 0 (prismatic).

    >>> from dynlab.model.link import Link
    >>> from dynlab.model.robot import Robot
    >>> arm = Robot([Link("R", a=1.0, com=(-0.5, 0, 0), name="l1")])
    >>> A, B = link_jacobians(arm, [0.0])[0]
    >>> A.ravel().tolist(), B.ravel().tolist()
    ([0.0, 0.5, 0.0], [0.0, 0.0, 1.0])
    """
    symbolic, backend, (links, *_), vec = resolve(robot, q=q)
    return [(_out(symbolic, a), _out(symbolic, b))
            for a, b in chain_link_jacobians(links, vec["q"], backend)]


def tool_pose(robot: Robot, q: Sequence):
    """Forward kinematics of the tool: ``T_0n`` (Fu, Gonzalez & Lee, Eq. (3.2-4) with i = n)."""
    return transforms(robot, q)[-1]


def chain_tool_jacobian(links, q, backend):
    """The geometric Jacobian of :func:`tool_jacobian` over a chain of links, for any scalar type
    (the generic core used by the formulations): 6 rows (linear; angular) of n entries."""
    rots, origins = chain(links, q, backend)
    tip = origins[-1]
    columns = []
    for j, link in enumerate(links):
        axis = (rots[j][0][2], rots[j][1][2], rots[j][2][2])
        if link.revolute:
            columns.append(V.cross(axis, V.sub(tip, origins[j])) + axis)
        else:
            columns.append(axis + (0, 0, 0))
    return [[col[r] for col in columns] for r in range(6)]


def tool_jacobian(robot: Robot, q: Sequence):
    """The 6xn geometric Jacobian of frame ``n``'s origin: rows (linear; angular) velocity in
    base coordinates; ``J^T (f, m)`` is the joint torque that holds a tool wrench (f, m)."""
    symbolic, backend, (links, *_), vec = resolve(robot, q=q)
    return _out(symbolic, chain_tool_jacobian(links, vec["q"], backend))
