"""dynlab: robot-arm dynamics derived three ways (Lagrange-Euler, Newton-Euler, d'Alembert).

The one facade, the calls a reader starts with: the model (:class:`Link`, :class:`Robot`,
:data:`G`, :func:`joint_symbols`, :func:`inertia_tensor`, :func:`rod_inertia`,
:func:`joint_friction`) and the dynamics (:func:`inverse_dynamics`, :func:`probe`,
:func:`forward_dynamics`, :func:`equations_of_motion` giving an :class:`EquationsOfMotion`,
:func:`simulate`).  Every other name comes from its own module (the arms:
:mod:`dynlab.model.robots`); ARCHITECTURE.md maps the floors.

>>> from dynlab.model.robots import pendulum
>>> float(inverse_dynamics(pendulum(), [0.0], [0.0], [0.0])[0])  # level: g m1 a1 / 2 (6-9-22)
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
