"""The arms of the workbook, each built from its source, registered by name
(:mod:`dynlab.model.robots.registry`); ``symbolic=True`` gives the books' letters.  An arm of
one's own: :func:`from_screws` (Lynch & Park's description) or :func:`from_urdf`.

>>> list(ROBOTS)[:4]                  # the workbook's arms come first
['pendulum', 'planar_2r', 'scara', 'puma560']
"""

from __future__ import annotations

from dynlab.model.robots.parameters import friction_per_joint, physical_parameters, rod_inertia
from dynlab.model.robots.puma import (
                                      PUMA560_LUMPED_LINKS,
                                      PUMA560_PARAMETERS,
                                      PUMA560_POSES,
                                      puma560,
)
from dynlab.model.robots.registry import ARM_SPECS, ROBOTS, ArmSpec, register_arm, unregister_arm
from dynlab.model.robots.schilling import pendulum, scara
from dynlab.model.robots.screws import DHChain, dh_from_screws, from_screws
from dynlab.model.robots.tourassis_neuman import (
                                      AXIAL_COM,
                                      INERTIA_LEVELS,
                                      TOURASSIS_NEUMAN_ARMS,
                                      articulated,
                                      cartesian,
                                      cylindrical,
                                      puma_generic,
                                      spherical,
                                      stanford,
)
from dynlab.model.robots.two_link import PLANAR_2R_PARAMETERS, planar_2r
from dynlab.model.robots.universal_robots import (
                                      UR20_PARAMETERS,
                                      UR20_SOURCE,
                                      UR20_URDF,
                                      ur20,
                                      ur20_table,
                                      ur20_values,
)
from dynlab.model.robots.urdf import URDFChain, URDFJoint, from_urdf, read_urdf

__all__ = ["ARM_SPECS", "AXIAL_COM", "ArmSpec", "DHChain",
           "INERTIA_LEVELS", "PLANAR_2R_PARAMETERS", "PUMA560_LUMPED_LINKS",
           "PUMA560_PARAMETERS", "PUMA560_POSES", "ROBOTS", "TOURASSIS_NEUMAN_ARMS",
           "UR20_PARAMETERS", "UR20_URDF", "URDFChain", "URDFJoint",
           "articulated", "cartesian", "cylindrical", "dh_from_screws", "friction_per_joint",
           "from_screws", "from_urdf", "pendulum", "physical_parameters", "planar_2r", "puma560",
           "puma_generic", "read_urdf", "register_arm", "rod_inertia", "scara", "spherical",
           "stanford", "unregister_arm", "ur20", "ur20_table", "ur20_values"]


# -- the arms of the workbook (their dashboards: dynlab.teaching.dashboards.specs) ---------------
register_arm("pendulum", pendulum, source="Schilling (1990), Sec. 6-9, Table 6-3")
register_arm(
    "planar_2r", planar_2r,
    source="Fu, Gonzalez & Lee (1987), Sec. 3.2.6, Fig. 3.2; Schilling (1990), Sec. 6-5; "
           "Lynch & Park, Modern Robotics, Sec. 8.1.1; thesis App. B",
    option="variant", option_help=f"variants {', '.join(PLANAR_2R_PARAMETERS)}",
    option_example="macsyma")
register_arm("scara", scara, source="Schilling (1990), Sec. 6-6, Fig. 6-5, Table 6-2")
register_arm(
    "puma560", puma560,
    source="Armstrong, Khatib & Burdick (1986), via Corke & Armstrong-Helouvry (1994)",
    option="joints", option_help="first joints only, 1..6", option_example="3",
    poses=PUMA560_POSES)
register_arm("ur20", ur20, source=UR20_SOURCE)
