"""Statics: where the arm rests under gravity, the tool wrench and given joint torques
(:func:`static_equilibrium`, ``c(q) + J^T w = tau``) and how stiffly that torque changes with
``q`` (:func:`static_stiffness`); with :func:`~dynlab.dynamics.simulation.simulate` they
repeat the thesis appendix, B.8's checks of a dynamic model.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dynlab.dynamics.integrated_model import state_vector
from dynlab.formulations import newton_euler
from dynlab.formulations.lagrange_euler import potential_energy
from dynlab.model import checks, jets
from dynlab.model import vectors as V
from dynlab.model.kinematics import chain
from dynlab.model.robot import Robot


def _gravity_and_stiffness(robot: Robot, q, gravity: bool, tip_wrench: bool):
    """``c(q) + J^T w`` (Fu, Gonzalez & Lee, Eq. (3.2-34), the torque that holds the arm still) and
    its derivative ``K = d/dq`` (the stiffness of the static torque), by a Newton-Euler run at rest
    on jets (:mod:`dynlab.model.jets`): exact derivatives, no SymPy."""
    links, grav, tip_f, tip_m = robot.numeric()
    n = robot.n
    zero = [0.0] * n
    torque, _ = newton_euler.link_frame(links, jets.seed([float(v) for v in q]), zero, zero,
                                        grav, tip_f, tip_m, jets.lift(V.NUMERIC),
                                        use_gravity=gravity, use_friction=False,
                                        use_tip=tip_wrench)
    values = np.array([jets.value(t) for t in torque], dtype=float)
    stiffness = np.array([jets.gradient(t, n) for t in torque], dtype=float)
    return values, stiffness


def static_stiffness(robot: Robot, q: Sequence, *, gravity: bool = True,
                     tip_wrench: bool = True) -> np.ndarray:
    """``K(q) = d(c + J^T w)/dq``: at a stable equilibrium it is positive definite, and the
    small oscillations about it have angular frequencies ``omega^2`` = the eigenvalues of
    ``K x = omega^2 D x`` (``scipy.linalg.eigh(K, D)``).

    >>> import math
    >>> from dynlab.model.robots import pendulum
    >>> static_stiffness(pendulum(), [-math.pi / 2])     # m g a / 2 at the bottom
    array([[2.45155]])
    """
    if not isinstance(robot, Robot):
        raise TypeError(f"expected a dynlab Robot, got {type(robot).__name__}")
    if robot.is_symbolic:
        raise TypeError(f"{robot.name}: static_stiffness works on numbers")
    return _gravity_and_stiffness(robot, state_vector(robot, q, "q"),
                                  checks.flag(gravity, "static_stiffness", "gravity"),
                                  checks.flag(tip_wrench, "static_stiffness", "tip_wrench"))[1]


def static_equilibrium(robot: Robot, tau: Sequence | None = None, q0: Sequence | None = None,
                       *, stable: bool = True, tolerance: float = 1e-10) -> np.ndarray:
    """Where the arm rests under constant ``tau`` (default none): ``c(q) + J^T w = tau`` (Fu,
    Gonzalez & Lee, Eq. (3.2-34)) solved from ``q0``; friction plays no part.  ``stable=True`` (no
    tip moment) first descends ``V = P + f . p_tool - tau . q`` to a minimum.

    >>> import math
    >>> from dynlab.model.robots import pendulum
    >>> q = static_equilibrium(pendulum(), q0=[0.3])
    >>> round(float(q[0]) / math.pi, 12)           # hanging straight down
    -0.5
    >>> round(float(static_equilibrium(pendulum(), [1.0], q0=[-1.0])[0]), 6)  # -acos(1/2.45155)
    -1.150638
    """
    import scipy.optimize
    if not isinstance(robot, Robot):
        raise TypeError(f"expected a dynlab Robot, got {type(robot).__name__}")
    if robot.is_symbolic:
        raise TypeError(f"{robot.name}: static_equilibrium works on numbers; substitute the "
                        f"symbols {sorted(map(str, robot.free_symbols))} first")
    stable = checks.flag(stable, "static_equilibrium", "stable")
    tolerance = checks.number(tolerance, "tolerance")
    target = state_vector(robot, tau, "tau")
    start = state_vector(robot, q0, "q0")
    links, grav, tip_f, tip_m = robot.numeric()

    def residual(q):
        return _gravity_and_stiffness(robot, q, True, True)[0] - target

    def jacobian(q):
        return _gravity_and_stiffness(robot, q, True, True)[1]

    if stable and not any(tip_m):
        def potential(q):
            _, origins = chain(links, tuple(q.tolist()))
            return (potential_energy(links, tuple(q.tolist()), grav, V.NUMERIC)
                    + float(np.dot(tip_f, origins[-1]))
                    - float(np.dot(target, q)))
        descent = scipy.optimize.minimize(
            potential, start, jac=residual,
            hess=lambda q: (lambda K: (K + K.T) / 2)(jacobian(q)), method="trust-exact",
            options=dict(gtol=1e-10))
        start = descent.x
    solution = scipy.optimize.root(residual, start, jac=jacobian, method="hybr",
                                   options=dict(xtol=1e-14))
    q = solution.x
    error = float(np.max(np.abs(residual(q))))
    scale = max(1.0, float(np.max(np.abs(target))), float(np.max(np.abs(residual(q) + target))))
    if not error <= tolerance * scale:
        raise ValueError(f"{robot.name}: no static equilibrium found from q0 = {start.tolist()} "
                         f"(residual torque {error:.3g}); the torques may exceed what gravity "
                         f"can balance, or try another q0")
    return q
