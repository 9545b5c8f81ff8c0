"""The derivation side of the comparison: dynlab's derivation of each quantity a printed
equation gives (:func:`derived`), for the symbolic worked arms, each built and derived once
(cached per arm; robots are immutable).
"""

from __future__ import annotations

import functools

import sympy

from dynlab.dynamics.inverse import equations_of_motion, inverse_dynamics
from dynlab.model import kinematics
from dynlab.model.robot import joint_symbols
from dynlab.teaching.textbook.letters import ARMS, QUANTITIES, TRACE_QUANTITIES, validate_arm


@functools.cache
def robot(arm: str):
    """The symbolic arm (a builder of :mod:`dynlab.model.robots`), built once."""
    return ARMS[validate_arm(arm)]()


@functools.cache
def torques(arm: str, method: str = "newton_euler", variant: str | None = None):
    """dynlab's ``tau`` of ``arm`` in the joint symbols (``inverse_dynamics``, not compacted)."""
    r = robot(arm)
    q, qd, qdd = joint_symbols(r.n)
    return inverse_dynamics(r, q, qd, qdd, method=method, variant=variant, simplify=False)


@functools.cache
def equations(arm: str, method: str = "lagrange_euler", variant: str | None = None):
    """dynlab's ``EquationsOfMotion`` of ``arm`` (symbolic, not compacted)."""
    return equations_of_motion(robot(arm), method=method, variant=variant, simplify=False)


@functools.cache
def trace(arm: str, frame: str = "link"):
    """dynlab's Newton-Euler :class:`dynlab.formulations.trace.Trace` (``frame``: link or base)."""
    r = robot(arm)
    q, qd, qdd = joint_symbols(r.n)
    return inverse_dynamics(r, q, qd, qdd, variant=frame, trace=True, simplify=False)[1]


@functools.cache
def _kinematics(arm: str, what: str) -> list:
    r = robot(arm)
    q = joint_symbols(r.n)[0]
    if what == "T":
        return kinematics.transforms(r, q)[1:]
    if what == "r_bar":
        return kinematics.centres_of_mass(r, q)
    if what in ("A", "B"):
        return [pair["AB".index(what)] for pair in kinematics.link_jacobians(r, q)]
    links = r.symbolic()[0]                                   # "theta"
    return sympy.Matrix([qk + link.offset if link.revolute else link.theta
                         for qk, link in zip(q, links)])


def derived(arm: str, quantity: str, method: str = "newton_euler", variant: str | None = None,
            frame: str | None = None):
    """dynlab's derivation of ``quantity`` for ``arm``: ``tau``, ``D``, ``h``, ``c`` by
    ``method``/``variant``; ``C_i``, ``U``, ``J``, ``K``, ``P``, the G-D parts, the N-E trace (in
    ``frame``) and kinematics from their own formulation; per-link quantities as lists.

    >>> derived("pendulum", "D")
    Matrix([[a1**2*m1/3]])
    """
    validate_arm(arm)
    if quantity == "tau":
        return torques(arm, method, variant)
    if quantity in ("D", "h", "c"):
        return getattr(equations(arm, method, variant), quantity)
    terms = {"C_i": ("lagrange_euler", "jacobian"), "U": ("lagrange_euler", "uicker"),
             "J": ("lagrange_euler", "uicker"), "K": ("lagrange_euler", "christoffel"),
             "P": ("lagrange_euler", "christoffel"), "D_rot": ("dalembert", "lee"),
             "D_tran": ("dalembert", "lee"), "h_rot": ("dalembert", "lee"),
             "h_tran": ("dalembert", "lee")}
    if quantity in terms:
        return equations(arm, *terms[quantity]).terms[quantity]
    if quantity in TRACE_QUANTITIES:
        if frame not in ("link", "base"):
            raise ValueError(f"{quantity} is a Newton-Euler trace quantity: give "
                             f"frame='link' or 'base'")
        t = trace(arm, frame)
        return [t[k][quantity] for k in range(1, len(t) + 1)]
    if quantity in QUANTITIES:
        return _kinematics(arm, quantity)
    raise ValueError(f"unknown quantity {quantity!r}; choose one of {', '.join(QUANTITIES)}")
