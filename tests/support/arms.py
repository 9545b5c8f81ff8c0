"""Small arms with symbolic parameters shared by the tests: revolute and prismatic joints,
planar and spatial, physically valid inertias."""

import sympy

from dynlab import Link, Robot
from dynlab.formulations.registry import every_variant

#: every formulation and variant, as (method, variant) pairs, and the one others are compared with
ALL_FORMULATIONS = list(every_variant())
REFERENCE = ("newton_euler", "link")

m1, m2, m3, l1, l2, d1, g = sympy.symbols("m1 m2 m3 l1 l2 d1 g", positive=True)
I1, I2, I3 = sympy.symbols("I1 I2 I3", positive=True)
b1, b2 = sympy.symbols("b1 b2", positive=True)


def symbolic_arms():
    """Small arms with symbolic parameters, revolute and prismatic, planar and spatial."""
    rod = lambda m, l: sympy.diag(0, m * l**2 / 12, m * l**2 / 12)  # noqa: E731
    pendulum = Robot([Link("R", a=l1, mass=m1, com=(-l1 / 2, 0, 0), inertia=rod(m1, l1),
                           viscous=b1, name="link 1")], gravity=(0, -g, 0), name="pendulum")
    planar = Robot([Link("R", a=l1, mass=m1, com=(-l1 / 2, 0, 0), inertia=rod(m1, l1),
                         name="link 1"),
                    Link("R", a=l2, mass=m2, com=(-l2 / 2, 0, 0), inertia=rod(m2, l2),
                         viscous=b2, name="link 2")], gravity=(0, -g, 0), name="2R")
    scara_like = Robot([Link("R", a=l1, d=d1, mass=m1, com=(-l1 / 2, 0, 0),
                             inertia=(I1 / 2, I1 / 2, I1), name="link 1"),
                        Link("R", a=l2, alpha=sympy.pi, mass=m2, com=(-l2 / 2, 0, 0),
                             inertia=(I2 / 2, I2 / 2, I2), name="link 2"),
                        Link("P", mass=m3, com=(0, 0, -d1 / 2), inertia=(I3, I3, 0),
                             name="link 3")], gravity=(0, 0, -g), name="RRP")
    spatial = Robot([Link("R", alpha=sympy.pi / 2, d=d1, mass=m1, inertia=(I1, I1, I1),
                          name="link 1"),
                     Link("P", alpha=-sympy.pi / 2, mass=m2, com=(0, 0, -l1),
                          inertia=(I2, I2, 0), name="link 2"),
                     Link("R", a=l2, mass=m3, com=(-l2 / 2, 0, 0), inertia=(0, I3, I3),
                          name="link 3")], gravity=(0, 0, -g), name="RPR")
    return [pendulum, planar, scara_like, spatial]
