"""One more arm and one more formulation, registered through the public registries only, as a
user's own module would register them.

``tests/formulations/test_extension_path.py`` registers them around its tests.  As a pytest plugin
they are registered for a whole run, and every test and doctest must pass as it does without them
(no list of arms or formulations is written out by hand anywhere):

    PYTHONPATH=. python -m pytest -p tests.support.registered_extras -n 0 \
        tests/cli/test_cli.py dynlab/teaching/dashboards/arm.py
"""

from __future__ import annotations

import math

import sympy

from dynlab.formulations import newton_euler
from dynlab.formulations import registry as formulations
from dynlab.model.link import G, Link
from dynlab.model.robot import Robot
from dynlab.model.robots import register_arm, unregister_arm
from dynlab.teaching.dashboards.specs import (
    DashboardSpec,
    register_dashboard,
    unregister_dashboards,
)

ARM, METHOD = "polar_extra", "luh_extra"


def polar_arm(symbolic: bool = False, *, m2=None, l=None) -> Robot:
    """A polar arm in the vertical plane ``x0 y0`` (gravity ``-y0``): a hub turning about
    ``z0`` (a disc of 1 kg, moment 0.05 kg m^2 about its axis) and a rod of mass ``m2`` and
    length ``l`` sliding through it along ``z1``."""
    m2 = (sympy.Symbol("m2", positive=True) if symbolic else 1.5) if m2 is None else m2
    l = (sympy.Symbol("l", positive=True) if symbolic else 0.4) if l is None else l
    quarter = sympy.pi / 2 if symbolic else math.pi / 2
    rod = m2 * l**2 / 12
    links = [Link("R", alpha=quarter, mass=1.0, com=(0, 0, 0),
                  inertia=[[0.025, 0, 0], [0, 0.05, 0], [0, 0, 0.025]], name="hub"),
             Link("P", theta=0, mass=m2, com=(0, 0, -l / 2),
                  inertia=[[rod, 0, 0], [0, rod, 0], [0, 0, 0]], name="rod")]
    return Robot(links, gravity=(0, -G, 0), name="polar arm (an extension's)")


def luh_under_another_name(links, q, qd, qdd, gravity, tip_force, tip_moment, backend,
                           **options):
    """Luh's link-frame recursion (Fu, Gonzalez & Lee (1987), Table 3.3) as a new formulation."""
    return newton_euler.link_frame(links, q, qd, qdd, gravity, tip_force, tip_moment, backend,
                                   **options)


def register_extras() -> None:
    register_arm(ARM, polar_arm, source="an extension's arm")
    register_dashboard(ARM, DashboardSpec(state=((0.3, 0.5), (1.0, 0.2), (0.5, -1.0)),
                                          joint_ranges={2: (0.2, 1.0)}, link_lengths=False))
    formulations.register(formulations.Formulation(
        METHOD, "an extension's recursion", "torques", {"luh": luh_under_another_name}, "luh",
        "Fu, Gonzalez & Lee (1987), Table 3.3", traces=True))


def unregister_extras() -> None:
    unregister_arm(ARM)
    unregister_dashboards(ARM)
    formulations.unregister(METHOD)


def pytest_configure(config):
    register_extras()


def pytest_unconfigure(config):
    unregister_extras()
