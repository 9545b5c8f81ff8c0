"""dynlab: robot-arm dynamics derived three ways (Lagrange-Euler, Newton-Euler, d'Alembert).

The public API is re-exported here; see the notebooks for a guided tour.
"""

from dynlab import _moved

_moved.install()                # the old module paths (dynlab.widgets, ...) keep importing
__getattr__ = _moved.package_attribute            # and dynlab.widgets after a bare import dynlab

from dynlab.dynamics import control
from dynlab.model import display
from dynlab.model import robots
from dynlab.dynamics import trajectory
from dynlab.dynamics.inverse import equations_of_motion, inverse_dynamics, probe
from dynlab.dynamics.equations import EquationsOfMotion
from dynlab.dynamics.forward import forward_dynamics
from dynlab.model.friction import joint_friction
from dynlab.model.robot import G, Link, Robot, inertia_tensor, joint_symbols, rod_inertia
from dynlab.dynamics.simulation import simulate

_moved.lend_moved_names()       # dynlab.dynamics.control.TrackingDashboard, ... keep importing

__all__ = ["EquationsOfMotion", "G", "Link", "Robot", "display", "equations_of_motion",
           "inertia_tensor", "robots",
           "forward_dynamics", "inverse_dynamics", "joint_friction", "joint_symbols", "probe",
           "rod_inertia", "simulate"]
