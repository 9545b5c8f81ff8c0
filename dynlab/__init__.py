"""dynlab: robot-arm dynamics derived three ways (Lagrange-Euler, Newton-Euler, d'Alembert).

The public API is re-exported here; see the notebooks for a guided tour.
"""

from dynlab import control, display, robots, trajectory
from dynlab.dynamics import equations_of_motion, inverse_dynamics, probe
from dynlab.equations import EquationsOfMotion
from dynlab.forward import forward_dynamics
from dynlab.friction import joint_friction
from dynlab.model import G, Link, Robot, inertia_tensor, joint_symbols, rod_inertia
from dynlab.simulation import simulate

__all__ = ["EquationsOfMotion", "G", "Link", "Robot", "display", "equations_of_motion",
           "inertia_tensor", "robots",
           "forward_dynamics", "inverse_dynamics", "joint_friction", "joint_symbols", "probe",
           "rod_inertia", "simulate"]
