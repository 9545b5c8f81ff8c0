"""The model floor: scalar types and checks, :class:`Robot` and its data, kinematics, spatial
algebra, the arm registry and the arms (:mod:`dynlab.model.robots`), and how a model prints and
draws.

``dynlab.model`` was the module :mod:`dynlab.model.robot` before the package was laid out by
floors (since split into :mod:`dynlab.model.link` and :mod:`dynlab.model.robot`, which
re-exports the link's names); its public names stay importable from here (``from dynlab.model
import Robot``).

>>> from dynlab.model import Robot
>>> from dynlab.model.robot import Robot as Same
>>> Robot is Same
True
"""

from dynlab.model.link import (G, PRISMATIC, REVOLUTE, Link, LinkData, exact, inertia_tensor,
                               rod_inertia, scalar, vector3)
from dynlab.model.robot import (Robot, RobotIsImmutable, is_zero, joint_symbols, joint_vector,
                                joint_vector_is_numeric)

__all__ = ["G", "PRISMATIC", "REVOLUTE", "Link", "LinkData", "Robot", "RobotIsImmutable",
           "exact", "inertia_tensor", "is_zero", "joint_symbols", "joint_vector",
           "joint_vector_is_numeric", "rod_inertia", "scalar", "vector3"]
