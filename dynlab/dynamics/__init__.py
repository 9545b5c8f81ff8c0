"""The dynamics floor: inverse dynamics (:mod:`dynlab.dynamics.inverse`), the equations of
motion, forward dynamics, simulation, control, trajectories, the structure of the model
(:mod:`dynlab.dynamics.structure`: Tourassis & Neuman's coefficients, Lynch & Park's
passivity), and code generation (its closed forms are made from the equations of motion).

``dynlab.dynamics`` was the module :mod:`dynlab.dynamics.inverse` before the package was laid
out by floors; its public names stay importable from here.

>>> from dynlab.dynamics import inverse_dynamics
>>> inverse_dynamics.__module__
'dynlab.dynamics.inverse'
"""

from dynlab.dynamics.inverse import (DEFAULT_METHOD, LAGRANGE_EULER_UP_TO, Trace,
                                     equations_of_motion, inverse_dynamics, probe)

__all__ = ["DEFAULT_METHOD", "LAGRANGE_EULER_UP_TO", "Trace", "equations_of_motion",
           "inverse_dynamics", "probe"]
