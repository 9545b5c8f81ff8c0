"""Joint friction, Schilling, Eq. (6-3-3):
``b_k(qd) = b_v qd_k + sgn(qd_k) [b_d + (b_s - b_d) exp(-|qd_k| / epsilon)]``.

>>> from dynlab.model.link import Link
>>> from dynlab.model.robot import Robot
>>> arm = Robot([Link("R", a=1.0, viscous=0.5, coulomb=0.2, static=0.3, epsilon=0.01,
...                   name="l1")])
>>> round(float(joint_friction(arm, [2.0])[0]), 6)   # 0.5*2 + 0.2 + 0.1*exp(-200)
1.2
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import sympy

from dynlab.model.checks import check_finite
from dynlab.model.kinematics import resolve
from dynlab.model.robot import Robot


def link_friction(link, qdk, backend):
    """Friction force or torque of one joint (Schilling, Eq. (6-3-3)); ``link`` is a ``LinkData``.
    """
    force = link.viscous * qdk
    if link.coulomb != 0 or link.static != 0:
        sign = backend.sign(qdk)
        dynamic = link.coulomb
        if link.static != link.coulomb:
            dynamic = dynamic + (link.static - link.coulomb) * backend.exp(
                -backend.abs(qdk) / link.epsilon)
        force = force + sign * dynamic
    return force


def joint_friction(robot: Robot, qd: Sequence):
    """The friction vector ``b(qd)`` of Schilling, Eq. (6-3-3), one entry per joint."""
    symbolic, backend, (links, *_), vec = resolve(robot, qd=qd)
    values = [link_friction(link, qdk, backend) for link, qdk in zip(links, vec["qd"])]
    if symbolic:
        return sympy.Matrix(values)
    return check_finite("b", np.array(values, dtype=float), robot.name, vec)
