"""dynlab: robot-arm dynamics derived three ways (Lagrange-Euler, Newton-Euler, d'Alembert).

The calls a reader of the workbook starts with, the package's one facade:

- the model: :class:`Link` (a DH row with its mass, centre of mass and inertia), :class:`Robot`
  (the links, gravity and the tool's wrench), :data:`G`, :func:`joint_symbols`,
  :func:`inertia_tensor`, :func:`rod_inertia` and :func:`joint_friction`;
- the dynamics: :func:`inverse_dynamics` (``tau`` from ``q, qd, qdd``), :func:`probe` (its
  parts), :func:`forward_dynamics` (``qdd`` from ``tau``), :func:`equations_of_motion` (``D``,
  ``h``, ``c`` as an :class:`EquationsOfMotion`) and :func:`simulate` (a motion integrated).

Every other name is imported from the module that defines it: the arms from
:mod:`dynlab.model.robots`, the dashboards from :mod:`dynlab.teaching.dashboards` (``from
dynlab.teaching.dashboards.arm import dashboard``), the checks of the exercises from
:mod:`dynlab.grading`; ARCHITECTURE.md maps the floors.

>>> from dynlab import inverse_dynamics
>>> from dynlab.model.robots import pendulum
>>> arm = pendulum()            # Schilling (1990), Sec. 6-9: a rod, m1 = 1 kg, a1 = 0.5 m
>>> float(inverse_dynamics(arm, [0.0], [0.0], [0.0])[0])     # held level: g m1 a1 / 2 (6-9-22)
2.45155
"""

from dynlab.dynamics.equations import EquationsOfMotion
from dynlab.dynamics.forward import forward_dynamics
from dynlab.dynamics.inverse import equations_of_motion, inverse_dynamics, probe
from dynlab.dynamics.simulation import simulate
from dynlab.model.friction import joint_friction
from dynlab.model.link import G, Link, inertia_tensor, rod_inertia
from dynlab.model.robot import Robot, joint_symbols

__all__ = ["EquationsOfMotion", "G", "Link", "Robot", "equations_of_motion", "forward_dynamics",
           "inertia_tensor", "inverse_dynamics", "joint_friction", "joint_symbols", "probe",
           "rod_inertia", "simulate"]
