"""The answer keys of ``solutions/08_your_own_robot``: the UR20 of chapter 10, loaded from its
URDF file (dynlab/robots/data/ur20.urdf, written from Universal Robots' published parameters).

No answer is typed: the columns of the space Jacobian come from dynlab's DH frames of the loaded
arm (each joint's axis ``z_{i-1}`` through ``o_{i-1}``, carried into the file's base frame), the
holding torques from its inverse dynamics with the payload folded into the last link; each
typical mistake is derived the same way from a wrong procedure.  Where the answer is short
enough to write by hand, it is asserted equal to the derivation (the screw axes of the file at
home, Lynch & Park (2017), Sec. 4.1; the holding torques of Fu, Gonzalez & Lee (1987),
Eq. (3.4-28) at home).
"""

import numpy as np

from dynlab import inverse_dynamics
from dynlab.grading import make_key
from dynlab.model.kinematics import transforms
from dynlab.model.robots import UR20_PARAMETERS, UR20_URDF, from_urdf, read_urdf
from dynlab.teaching.widgets import with_payload

NOTEBOOK = "08_your_own_robot"
RAISED = [0.0, -np.pi / 2, 0.0, 0.0, 0.0, 0.0]          # the upper arm straight up
PAYLOAD = 20.0                                           # kg, the UR20's rated payload
G = 9.81


def rounded(values):
    """7 significant digits, round-off below 1e-12 as 0: the key stays the same on every
    machine (the last bits of a rotation differ), far below the numeric tolerance (1e-5 of the
    largest entry)."""
    return [float(f"{round(float(v), 12):.7g}") + 0.0 for v in values]


def space_column(arm, base, q, joint):
    """Column ``joint`` (1-based) of Lynch & Park's space Jacobian at ``q`` (Sec. 5.1.1): the
    joint's screw axis ``(omega, -omega x p)`` in the file's base frame, with the axis
    ``z_{i-1}`` of DH frame ``i-1`` through its origin ``o_{i-1}``."""
    T = base @ np.array(transforms(arm, q)[joint - 1], dtype=float)
    omega, point = T[:3, 2], T[:3, 3]
    return np.r_[omega, -np.cross(omega, point)]


def screw_keys():
    chain = read_urdf(UR20_URDF)
    arm, base = from_urdf(UR20_URDF), chain.dh().base
    home = [0.0] * 6
    for joint in (3, 5):                                 # the file's screw axes at home
        assert np.allclose(space_column(arm, base, home, joint), chain.Slist[:, joint - 1],
                           rtol=0, atol=1e-12)
    J3, J5 = (space_column(arm, base, RAISED, joint) for joint in (3, 5))
    # by hand: the elbow's axis, turned up about the shoulder's, 0.862 m above it
    assert np.allclose(J3, [0, -1, 0, 0.2363 + 0.862, 0, 0], rtol=0, atol=1e-12)
    lowered = [0.0, np.pi / 2, 0.0, 0.0, 0.0, 0.0]
    flipped = [np.r_[S[:3], -S[3:]] for S in (J3, J5)]       # v = omega x p
    return [make_key(
        "U.1", notebook=NOTEBOOK, title="Columns 3 and 5 of the UR20's space Jacobian with the "
        "upper arm raised (Lynch & Park, Sec. 5.1.1)", points=2, kind="numeric",
        parts=[{"name": "J3", "value": rounded(J3), "shape": [6]},
               {"name": "J5", "value": rounded(J5), "shape": [6]}],
        mistakes=[
            {"part": "J3", "value": rounded(flipped[0]),
             "message": "v = -omega x p (Lynch & Park, Sec. 4.1): the cross product in the "
                        "other order flips v"},
            {"part": "J5", "value": rounded(flipped[1]),
             "message": "v = -omega x p (Lynch & Park, Sec. 4.1): the cross product in the "
                        "other order flips v"},
            {"part": "J3", "value": rounded(chain.Slist[:, 2]),
             "message": "that is the elbow's screw axis at home: carry it with joint 2 turned "
                        "to -90 degrees"},
            {"part": "J5", "value": rounded(chain.Slist[:, 4]),
             "message": "that is the screw axis at home: carry it with joint 2 turned to -90 "
                        "degrees"},
            {"part": "J3", "value": rounded(space_column(arm, base, lowered, 3)),
             "message": "joint 2 turned the wrong way: q2 = -90 degrees raises the upper arm "
                        "(joint 2 turns about -y of the base)"},
            {"part": "J5", "value": rounded(space_column(arm, base, lowered, 5)),
             "message": "joint 2 turned the wrong way: q2 = -90 degrees raises the upper arm "
                        "(joint 2 turns about -y of the base)"}])]


def holding_keys():
    arm = from_urdf(UR20_URDF)
    rest = [0.0] * 6
    loaded = inverse_dynamics(with_payload(arm, PAYLOAD), rest, rest, rest)[1:3]
    bare = inverse_dynamics(arm, rest, rest, rest)[1:3]
    # by hand, Eq. (3.4-28) at home with the maker's table (a2, a3 < 0: the arm along -x)
    (a2, _, _, m2, r2, _), (a3, _, _, m3, r3, _) = UR20_PARAMETERS[1:3]
    wrist = sum(p[3] for p in UR20_PARAMETERS[3:]) + PAYLOAD
    c2 = G * (m2 * (a2 + r2[0]) + m3 * (a2 + a3 + r3[0]) + wrist * (a2 + a3))
    c3 = G * (m3 * (a3 + r3[0]) + wrist * a3)
    assert np.allclose(loaded, [c2, c3], rtol=0, atol=1e-9)
    key = []
    for name, index in (("c2", 0), ("c3", 1)):
        key.append({"part": name, "value": rounded([-loaded[index]]),
                    "message": "that is the moment of the weights about the joint's axis; the "
                               "motor holds the arm with the opposite torque"})
        key.append({"part": name, "value": rounded([bare[index]]),
                    "message": "the 20 kg payload at the flange is missing"})
    return [make_key(
        "U.2", notebook=NOTEBOOK, title="Holding the rated payload, stretched out: the "
        "gravity torques of the shoulder and the elbow", points=2, kind="numeric",
        parts=[{"name": "c2", "value": rounded([loaded[0]]), "shape": []},
               {"name": "c3", "value": rounded([loaded[1]]), "shape": []}],
        mistakes=key)]


def keys() -> list:
    return screw_keys() + holding_keys()
