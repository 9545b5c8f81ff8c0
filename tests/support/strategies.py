"""Hypothesis strategies shared by the property-based tests: random serial chains.

A chain has 1-7 joints, revolute or prismatic, random DH parameters, and physically valid inertial
data: the inertia about the centre of mass comes from non-negative second moments of the mass
distribution (``Ixx = Syy + Szz`` ...), rotated by a random rotation, so it is symmetric, positive
definite (every body is extended: second moments >= 0.001 m) and satisfies the triangle
inequality by construction.
"""

import numpy as np
from hypothesis import strategies as st

from dynlab import Link, Robot

finite = dict(allow_nan=False, allow_infinity=False)


def random_rotation(angles):
    a, b, c = angles
    rz = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    ry = np.array([[np.cos(b), 0, np.sin(b)], [0, 1, 0], [-np.sin(b), 0, np.cos(b)]])
    rx = np.array([[1, 0, 0], [0, np.cos(c), -np.sin(c)], [0, np.sin(c), np.cos(c)]])
    return rz @ ry @ rx


@st.composite
def links(draw, index=1):
    joint = draw(st.sampled_from(["revolute", "prismatic"]))
    length = st.floats(-1.0, 1.0, **finite)
    mass = draw(st.floats(0.1, 10.0, **finite))
    second_moments = np.array(draw(st.tuples(*[st.floats(0.001, 0.2, **finite)] * 3))) * mass
    sxx, syy, szz = second_moments
    principal = np.diag([syy + szz, sxx + szz, sxx + syy])
    rotation = random_rotation(draw(st.tuples(*[st.floats(-np.pi, np.pi, **finite)] * 3)))
    inertia = rotation @ principal @ rotation.T
    inertia = (inertia + inertia.T) / 2
    values = dict(a=draw(length), alpha=draw(st.floats(-np.pi, np.pi, **finite)),
                  offset=draw(length), mass=mass, com=draw(st.tuples(length, length, length)),
                  inertia=inertia.tolist(), name=f"link {index}")
    if joint == "revolute":
        values["d"] = draw(length)
    else:
        values["theta"] = draw(st.floats(-np.pi, np.pi, **finite))
    return Link(joint, **values)


@st.composite
def chains(draw, min_joints=1, max_joints=7):
    n = draw(st.integers(min_joints, max_joints))
    arm_links = [draw(links(index=k)) for k in range(1, n + 1)]
    gravity = draw(st.tuples(*[st.floats(-10, 10, **finite)] * 3))
    return Robot(arm_links, gravity=gravity, name=f"random {n}-joint chain")


@st.composite
def chain_and_state(draw, min_joints=1, max_joints=7):
    robot = draw(chains(min_joints, max_joints))
    value = st.floats(-2.0, 2.0, **finite)
    state = [tuple(draw(value) for _ in range(robot.n)) for _ in range(3)]
    return robot, *state
