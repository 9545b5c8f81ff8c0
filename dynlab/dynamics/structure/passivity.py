"""Lynch & Park (2017): passivity, ``Ddot - 2C`` skew-symmetric (Prop. 8.1), and the dynamics in
task space, ``F = Lambda Vdot + eta`` (Sec. 8.6).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from dynlab.dynamics.inverse import equations_of_motion
from dynlab.model import jets
from dynlab.model import vectors as V
from dynlab.model.kinematics import chain_tool_jacobian, resolve
from dynlab.model.robot import Robot


# ==============================================================================================
# Lynch & Park, Prop. 8.1 (passivity) and Sec. 8.6 (task space)
# ==============================================================================================
def passivity_matrix(eom) -> np.ndarray:
    """``N = Ddot - 2C`` (Lynch & Park, Prop. 8.1) of an evaluated Christoffel-variant result:
    ``Ddot_ij = sum_k dD_ij/dq_k qd_k`` and ``C_ij = sum_k Gamma_ijk qd_k`` (Lynch & Park, Sec. 8.4
    (draft Eq. (9.87))).

    >>> from dynlab import equations_of_motion
    >>> from dynlab.model.robots import puma560
    >>> eom = equations_of_motion(puma560(), [0.1, 0.2, -0.3, 0.4, 0.5, 0.6],
    ...                           [1.0, -0.5, 0.3, 0.7, -1.1, 0.2], variant="christoffel")
    >>> N = passivity_matrix(eom)
    >>> bool(np.allclose(N, -N.T)), bool(np.abs(N).max() > 0.01)
    (True, True)
    """
    if getattr(eom, "symbolic", True) or "dD_dq" not in eom.terms or "C" not in eom.terms:
        raise TypeError("passivity_matrix needs an evaluated result of the Christoffel variant: "
                        "equations_of_motion(robot, q, qd, variant='christoffel')")
    qd = np.asarray(eom.state[1], dtype=float)
    Ddot = np.asarray(eom.terms["dD_dq"], dtype=float) @ qd
    return Ddot - 2 * np.asarray(eom.terms["C"], dtype=float)


def passivity_residual(eom) -> float:
    """``max |N + N^T|`` for ``N = Ddot - 2C``: zero when ``N`` is skew-symmetric (Lynch & Park,
    Prop. 8.1)."""
    N = passivity_matrix(eom)
    return float(np.abs(N + N.T).max(initial=0.0))


@dataclass
class TaskSpaceDynamics:
    """Lynch & Park, Sec. 8.6 (draft Eqs. (9.97)-(9.99)): ``F = Lambda Vdot + eta`` with ``Lambda =
    J^-T D J^-1`` Sec. 8.6 (draft Eq. (9.98)) and ``eta = J^-T b - Lambda Jdot J^-1 V`` Sec. 8.6
    (draft Eq. (9.99)), where ``b = h + c + friction`` and ``V = J qd``.  ``J`` is dynlab's tool
    Jacobian (rows ``rows`` of (linear; angular) in base coordinates, Lynch & Park uses the body
    twist; the relations hold for any ``V = J qd``)."""

    Lambda: np.ndarray
    eta: np.ndarray
    J: np.ndarray
    Jdot: np.ndarray
    rows: tuple


def task_space_dynamics(robot: Robot, q: Sequence, qd: Sequence,
                        rows: Sequence[int] | None = None) -> TaskSpaceDynamics:
    """Task-space inertia and bias at ``(q, qd)`` (Lynch & Park, Sec. 8.6): ``rows`` of the tool
    Jacobian make ``J`` square (all six, or the three linear for three joints); ``Jdot`` by jets.

    >>> from dynlab.model.robots import cartesian
    >>> task = task_space_dynamics(cartesian(symbolic=False), [0.1, 0.2, 0.3], [0.0] * 3)
    >>> np.diag(task.Lambda).round(6).tolist()   # x moves links 2-3, y link 3, z all: 15, 5, 35 kg
    [15.0, 5.0, 35.0]
    """
    symbolic, backend, (links, *_), vec = resolve(robot, q=q, qd=qd)
    if symbolic:
        raise TypeError(f"{robot.name}: task_space_dynamics is numeric")
    n = len(links)
    if rows is None:
        if n == 6:
            rows = tuple(range(6))
        elif n == 3:
            rows = (0, 1, 2)
        else:
            raise ValueError(f"{robot.name}: give rows= (n = {n} of the 6 Jacobian rows) so "
                             f"that J is square")
    rows = tuple(rows)
    if len(rows) != n or len(set(rows)) != n or not all(r in range(6) for r in rows):
        raise ValueError(f"{robot.name}: rows must be {n} distinct indices 0..5, got {rows}")
    q_, qd_ = np.array(vec["q"]), np.array(vec["qd"])
    J_jet = chain_tool_jacobian(links, jets.seed(vec["q"]), jets.lift(V.NUMERIC))
    J = np.array([[jets.value(J_jet[r][c]) for c in range(n)] for r in rows])
    Jdot = np.array([[np.dot(jets.gradient(J_jet[r][c], n), qd_) for c in range(n)]
                     for r in rows])
    if np.linalg.cond(J) > 1e10:
        raise ValueError(f"{robot.name}: the Jacobian is singular at q = {q_.tolist()}; "
                         "Lambda = J^-T D J^-1 (Lynch & Park, Sec. 8.6 (draft Eq. (9.98))) does "
                         "not exist there")
    eom = equations_of_motion(robot, q_, qd_)
    J_inv = np.linalg.inv(J)
    Lambda = J_inv.T @ eom.D @ J_inv  # Sec. 8.6 (draft Eq. (9.98))
    b = eom.h + eom.c + eom.friction
    eta = J_inv.T @ b - Lambda @ Jdot @ J_inv @ (J @ qd_)  # Sec. 8.6 (draft Eq. (9.99))
    return TaskSpaceDynamics(Lambda, eta, J, Jdot, rows)
