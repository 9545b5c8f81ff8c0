"""Edits of an arm (mass, length, payload, viscous friction): each returns a new
:class:`~dynlab.model.robot.Robot` made through ``Robot.replace_link``, so it is checked."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from dynlab.model.robot import Robot


def numeric_link(robot: Robot, index: int):
    """Link ``index`` (1-based) of a numeric ``robot``, or an error naming what is wrong."""
    if not isinstance(robot, Robot):
        raise TypeError(f"expected a dynlab Robot, got {type(robot).__name__}")
    if robot.is_symbolic:
        raise TypeError(f"{robot.name}: has symbolic parameters; an edit of the arm needs numbers")
    if not isinstance(index, int) or not 1 <= index <= robot.n:
        raise ValueError(f"{robot.name}: link index must be 1..{robot.n}, got {index!r}")
    return robot.links[index - 1]


def _finite(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise TypeError(f"{what} must be a number, got {type(value).__name__} {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{what} must be finite, got {value!r}")
    return value


def with_mass(robot: Robot, index: int, mass: float) -> Robot:
    """Link ``index`` (1-based) with mass ``mass`` and the same shape: the inertia tensor about
    the centre of mass scales with the mass (a denser or lighter material).

    >>> from dynlab.model.robots import pendulum
    >>> arm = with_mass(pendulum(), 1, 3.0)              # a1 = 0.5: I_yy = m a1^2 / 12
    >>> arm.links[0].mass, round(arm.links[0].inertia[1][1], 6)
    (3.0, 0.0625)
    >>> with_mass(pendulum(), 1, -1.0)
    Traceback (most recent call last):
    ...
    ValueError: link 1: mass must be non-negative, got -1.0
    """
    link = numeric_link(robot, index)
    mass = _finite(mass, f"{link.name or f'link {index}'}: mass")
    if link.mass == 0:
        if mass == 0:
            return robot
        raise ValueError(f"{link.name or f'link {index}'}: has no mass, so its shape (inertia "
                         f"per kg) is unknown; set mass and inertia with replace_link")
    factor = mass / link.mass if mass >= 0 else 1.0     # a negative mass: replace_link says so
    inertia = [[entry * factor for entry in row] for row in link.inertia]
    return robot.replace_link(index, mass=mass, inertia=inertia)


def stretch_link(robot: Robot, index: int, axis: str, factor: float) -> Robot:
    """Link ``index``'s body stretched by ``factor`` along ``axis`` of its frame: the centre of mass
    moves and ``S = (tr I / 2) E - I`` (Fu, Gonzalez & Lee, Eq. (3.2-18)) becomes ``F S F``.

    >>> from dynlab.model.robots import pendulum
    >>> arm = stretch_link(pendulum(), 1, "x", 2.0)       # rod of 0.5 m -> 1 m
    >>> arm.links[0].com, round(arm.links[0].inertia[2][2], 6)   # m l^2/12 = 1/12
    ((-0.5, 0.0, 0.0), 0.083333)
    """
    link = numeric_link(robot, index)
    factor = _finite(factor, "stretch factor")
    if factor <= 0:
        raise ValueError(f"stretch factor must be positive, got {factor!r}")
    if axis not in ("x", "y", "z"):
        raise ValueError(f"axis must be 'x', 'y' or 'z', got {axis!r}")
    F = np.ones(3)
    F["xyz".index(axis)] = factor
    inertia = np.array(link.inertia, dtype=float)
    second = np.trace(inertia) / 2 * np.eye(3) - inertia        # int r r^T dm about the CoM
    second = second * np.outer(F, F)
    stretched = np.trace(second) * np.eye(3) - second
    com = tuple(float(c) * f for c, f in zip(link.com, F))
    return robot.replace_link(index, com=com, inertia=stretched.tolist())


def with_length(robot: Robot, index: int, length: float, parameter: str = "a",
                body: tuple | None = None) -> Robot:
    """Link ``index`` with DH ``a`` (or ``parameter="d"``) set to ``length`` and the spanning body
    stretched (:func:`stretch_link`): by default link ``index`` along ``x``; ``body=(link,
    axis)`` another (the PUMA's ``d_4``: ``(3, "z")``); ``parameter=None`` the body alone.

    >>> from dynlab.model.robots import planar_2r
    >>> arm = with_length(planar_2r("schilling"), 2, 0.8)          # a2 = 0.4 -> 0.8
    >>> arm.links[1].a, arm.links[1].com[0]
    (0.8, -0.4)
    >>> with_length(planar_2r("schilling"), 2, 0.0)
    Traceback (most recent call last):
    ...
    ValueError: link 2: a must stay positive, got 0.0
    """
    link = numeric_link(robot, index)
    where = link.name or f"link {index}"
    name = parameter or "body length"
    if parameter not in ("a", "d", None):
        raise ValueError(f"parameter must be 'a', 'd' or None, got {parameter!r}")
    if parameter == "d" and link.is_prismatic:
        raise ValueError(f"{where}: d is the joint variable of this prismatic joint")
    if body is None:
        if parameter != "a":
            raise ValueError(f"{where}: say which body spans {name}: body=(link, axis)")
        body = (index, "x")
    length = _finite(length, f"{where}: {name}")
    if parameter is None:
        reference = body_extent(numeric_link(robot, body[0]), body[1])
    else:
        reference = float(getattr(link, parameter))
    if reference <= 0:
        raise ValueError(f"{where}: {name} is {reference!r}; only a positive length can be "
                         f"scaled")
    if length <= 0:
        raise ValueError(f"{where}: {name} must stay positive, got {length!r}")
    if parameter:
        robot = robot.replace_link(index, **{parameter: length})
    return stretch_link(robot, body[0], body[1], length / reference)


def body_extent(link, axis: str) -> float:
    """Twice the distance of the centre of mass from the frame's origin along ``axis``: the
    length of a uniform rod that ends at the origin (the SCARA's ``l3``)."""
    return 2 * abs(float(link.com["xyz".index(axis)]))

def with_payload(robot: Robot, mass: float, index: int | None = None,
                 at: Sequence = (0.0, 0.0, 0.0)) -> Robot:
    """A point mass ``mass`` at ``at`` in frame ``index`` (default the tool point) folded into link
    ``index`` by the parallel-axis theorem: ``c' = (m c + M p) / (m + M)``,
    ``I' = I + m S(c - c') + M S(p - c')``, ``S(r) = |r|^2 1 - r r^T``.

    >>> from dynlab.model.robots import planar_2r
    >>> arm = with_payload(planar_2r("macsyma", payload=0.0), 0.5)
    >>> book = planar_2r("macsyma", payload=0.5)
    >>> bool(np.allclose(arm.links[1].inertia, book.links[1].inertia, rtol=1e-14, atol=0))
    True
    >>> with_payload(planar_2r("fu"), -1.0)
    Traceback (most recent call last):
    ...
    ValueError: link 2: payload mass must be non-negative (kg), got -1.0
    """
    index = robot.n if index is None else index
    link = numeric_link(robot, index)
    where = link.name or f"link {index}"
    mass = _finite(mass, f"{where}: payload mass")
    if mass < 0:
        raise ValueError(f"{where}: payload mass must be non-negative (kg), got {mass!r}")
    p = _point(at, f"{where}: payload position")
    if mass == 0:
        return robot
    m, total = float(link.mass), float(link.mass) + mass
    c = np.array(link.com, dtype=float)
    centre = (m * c + mass * p) / total

    def shift(r):                                          # parallel axes: |r|^2 E - r r^T
        return float(r @ r) * np.eye(3) - np.outer(r, r)
    inertia = (np.array(link.inertia, dtype=float) + m * shift(c - centre)
               + mass * shift(p - centre))
    return robot.replace_link(index, mass=total, com=tuple(centre.tolist()),
                              inertia=inertia.tolist())


def _point(values, what: str) -> np.ndarray:
    """``values`` as a point (three finite floats), or an error naming ``what``."""
    try:
        point = np.array(values, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be three numbers (x, y, z), got {values!r}") from None
    if point.shape != (3,):
        raise ValueError(f"{what} must be three numbers (x, y, z), got shape {point.shape}")
    if not np.all(np.isfinite(point)):
        raise ValueError(f"{what} must be finite, got {point.tolist()}")
    return point


def with_viscous(robot: Robot, coefficient: float) -> Robot:
    """Every joint with viscous friction ``b_v = coefficient`` (Schilling, Eq. (6-3-3); Fu, Gonzalez
    & Lee's ``b_i``), the other friction coefficients unchanged.

    >>> from dynlab.model.robots import pendulum
    >>> with_viscous(pendulum(), 0.2).links[0].viscous
    0.2
    """
    coefficient = _finite(coefficient, "viscous friction")
    for index in range(1, robot.n + 1):
        robot = robot.replace_link(index, viscous=coefficient)
    return robot
