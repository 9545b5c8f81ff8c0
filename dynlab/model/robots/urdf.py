"""An arm from a URDF file: the serial chain from the root to a tip, as a standard DH table.

The Unified Robot Description Format describes a robot as a tree of links joined by joints,
each joint placed by an ``<origin>`` (a translation, then roll-pitch-yaw about the fixed axes:
``R = Rz(yaw) Ry(pitch) Rx(roll)``) in its parent link's frame, turning about or sliding
along its ``<axis>`` given in the joint's own frame; each link carries an ``<inertial>``:
mass, the centre of mass frame and the inertia tensor about the centre of mass in that frame
(Lynch & Park (2017), Sec. 8.8).  :func:`from_urdf` reads the file with ``urdf_parser_py``,
the Robot Operating System's own Python parser of the format, and builds

* the chain: the joints from the root link to ``tip``, whose frame is the end effector's
  (``tip=None``: the tree's only chain, ending at its one leaf, or at the link of its last
  moving joint when several leaves hang there; a tree that branches into two moving chains
  needs ``tip``, and the error names the candidate tips);
* the bodies: each moving joint carries its child link and every link rigidly attached to it:
  through ``fixed`` joints, and through joints off the chain, which are locked at zero.  The
  masses, centres of mass and inertias of a body's links are lumped into one (the combined
  centre of mass, and each inertia carried there by Steiner's theorem, Lynch & Park (2017),
  Sec. 8.2.1);
* the library description: the home frames at the bodies' centres of mass, their spatial
  inertias and the joints' screw axes in the root frame, ``(Mlist, Glist, Slist)`` of Lynch &
  Park (2017), Sec. 8.3.2, with the tip link's frame as the end-effector frame, and from them
  the DH table of :func:`dynlab.model.robots.from_screws`.

:func:`read_urdf` stops before the DH table: its :class:`URDFChain` holds the chain's joints as
the file gives them (:meth:`URDFChain.joint_table`) and the library description
(:meth:`URDFChain.screw_table`), which :func:`from_urdf` turns into the arm.

``revolute`` and ``continuous`` joints are revolute, ``prismatic`` ones prismatic, about or
along any axis; the joint variable is the URDF's joint position (zero at the file's pose).
With ``friction=True`` a joint's ``<dynamics damping= friction=>`` become Schilling (1990)
Eq. (6-3-3)'s viscous ``b_v`` and Coulomb ``b_d`` (static ``b_s = b_d``); without it, the arm is
frictionless.  ``gravity`` is given in the root link's frame.  A bad file gets a
``ValueError`` naming the file, the element and the problem: a moving body with no
``<inertial>``, a non-positive mass, an inertia tensor that is not positive semi-definite, a
``floating`` or ``planar`` joint, a ``mimic`` joint, a closed loop.

>>> arm = from_urdf(PENDULUM_ON_A_SLIDE)
>>> arm.name, arm.joint_types
('slide and pendulum', ('prismatic', 'revolute'))
>>> [(link.name, link.offset, link.a, link.alpha) for link in arm.links]
[('carriage', 0.0, 0.0, 1.5707963267948966), ('rod', 1.5707963267948966, 0.5, 0.0)]
"""

from __future__ import annotations

import contextlib
import math
import os
import warnings
from dataclasses import dataclass

import numpy as np
import urdf_parser_py.xml_reflection.core as _xml_core
from urdf_parser_py.urdf import URDF

from dynlab.model.checks import flag
from dynlab.model.robot import Robot
from dynlab.model.robots.screws import dh_from_screws

#: a small URDF used by the examples: a carriage sliding along x, a rod turning about y
PENDULUM_ON_A_SLIDE = """<?xml version="1.0"?>
<robot name="slide and pendulum">
  <link name="rail"/>
  <link name="carriage">
    <inertial><mass value="2.0"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  </link>
  <link name="rod">
    <inertial><origin xyz="0.25 0 0"/><mass value="1.0"/>
      <inertia ixx="0.0001" ixy="0" ixz="0" iyy="0.0208" iyz="0" izz="0.0208"/></inertial>
  </link>
  <link name="bob"/>
  <joint name="slide" type="prismatic">
    <parent link="rail"/><child link="carriage"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="100" velocity="1"/>
    <dynamics damping="0.5" friction="1.0"/>
  </joint>
  <joint name="swing" type="continuous">
    <parent link="carriage"/><child link="rod"/><axis xyz="0 1 0"/>
  </joint>
  <joint name="end" type="fixed">
    <parent link="rod"/><child link="bob"/><origin xyz="0.5 0 0"/>
  </joint>
</robot>
"""

_MOVING = {"revolute": "revolute", "continuous": "revolute", "prismatic": "prismatic"}
_PSD_TOL = 1e-12


def _rpy(rpy) -> np.ndarray:
    """``Rz(yaw) Ry(pitch) Rx(roll)``: URDF's roll, pitch, yaw about the fixed axes."""
    r, p, y = rpy
    cr, sr, cp, sp, cy, sy = (math.cos(r), math.sin(r), math.cos(p), math.sin(p),
                              math.cos(y), math.sin(y))
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


def _pose(origin) -> np.ndarray:
    T = np.eye(4)
    if origin is not None:
        T[:3, :3] = _rpy(origin.rpy if origin.rpy is not None else (0, 0, 0))
        T[:3, 3] = origin.xyz if origin.xyz is not None else (0, 0, 0)
    return T


@contextlib.contextmanager
def _parser_notes(where: str):
    """The parser reports what it skips (an unknown tag or attribute) by calling ``on_error``,
    which prints; turn each into a warning that names the file (URDF readers ignore unknown
    elements, so the file is still read)."""
    def warn(message):
        warnings.warn(f"{where}: {message}", stacklevel=4)
    saved = _xml_core.on_error
    _xml_core.on_error = warn
    try:
        yield
    finally:
        _xml_core.on_error = saved


def _read(path) -> tuple:
    """``(text, where)``: the file's text (or the string itself when it is URDF text)."""
    if isinstance(path, os.PathLike) or (isinstance(path, str) and "<robot" not in path):
        where = os.fspath(path)
        try:
            with open(where, encoding="utf-8") as handle:
                return handle.read(), where
        except OSError as error:
            raise ValueError(f"{where}: cannot read the URDF file ({error.strerror})") from None
    if isinstance(path, str):
        return path, "URDF text"
    raise TypeError(f"from_urdf: path must be a file name or URDF text, got "
                    f"{type(path).__name__}")


@dataclass
class _Tree:
    where: str
    model: object
    parent_joint: dict          # link name -> joint
    children: dict              # link name -> [joint, ...]
    root: str


def _tree(model, where: str) -> _Tree:
    links = {link.name for link in model.links}
    parent_joint, children = {}, {name: [] for name in links}
    for joint in model.joints:
        label = f"joint {joint.name!r}"
        if joint.type in ("floating", "planar"):
            raise ValueError(f"{where}: {label} is {joint.type}; dynlab's arms have revolute, "
                             f"continuous, prismatic and fixed joints only")
        if joint.type not in _MOVING and joint.type != "fixed":
            raise ValueError(f"{where}: {label} has the unknown type {joint.type!r}")
        if getattr(joint, "mimic", None) is not None and joint.type != "fixed":
            raise ValueError(f"{where}: {label} mimics joint {joint.mimic.joint!r}; a coupled "
                             f"joint is not an independent joint of a serial chain")
        for end in (joint.parent, joint.child):
            if end not in links:
                raise ValueError(f"{where}: {label} names the link {end!r}, which the file "
                                 f"does not define")
        if joint.child in parent_joint:
            raise ValueError(f"{where}: closed loop: link {joint.child!r} is the child of "
                             f"joints {parent_joint[joint.child].name!r} and {joint.name!r}")
        parent_joint[joint.child] = joint
        children[joint.parent].append(joint)
    roots = sorted(links - set(parent_joint))
    if len(roots) != 1:
        problem = ("closed loop: every link has a parent joint" if not roots
                   else f"it has {len(roots)} root links, {roots}: not one tree")
        raise ValueError(f"{where}: {problem}")
    return _Tree(where, model, parent_joint, children, roots[0])


def _path(tree: _Tree, link: str) -> list:
    """The joints from the root to ``link``."""
    joints = []
    while link != tree.root:
        joint = tree.parent_joint[link]
        joints.append(joint)
        link = joint.parent
        if len(joints) > len(tree.parent_joint):
            raise ValueError(f"{tree.where}: closed loop through link {link!r}")
    return joints[::-1]


def _moving(joints) -> tuple:
    return tuple(j.name for j in joints if j.type in _MOVING)


def _choose_tip(tree: _Tree, tip) -> str:
    links = {link.name for link in tree.model.links}
    if tip is not None:
        if not isinstance(tip, str):
            raise TypeError(f"from_urdf: tip must be a link name, got {type(tip).__name__}")
        if tip not in links:
            raise ValueError(f"{tree.where}: tip {tip!r} is not a link of the file; its links "
                             f"are {sorted(links)}")
        return tip
    leaves = sorted(name for name in links if not tree.children[name])
    chains = {leaf: _moving(_path(tree, leaf)) for leaf in leaves}
    longest = max(chains.values(), key=len)
    branching = [leaf for leaf, chain in chains.items() if chain != longest[:len(chain)]]
    if branching:
        candidates = sorted(leaf for leaf, chain in chains.items() if chain and not any(
            other != chain and other[:len(chain)] == chain for other in chains.values()))
        raise ValueError(f"{tree.where}: the tree branches into several moving chains; "
                         f"give tip=, one of {candidates}")
    if not longest:
        raise ValueError(f"{tree.where}: no joint moves (every joint is fixed)")
    # the end effector: the one leaf at the end of the chain, else (a tool flange and a
    # sensor frame, say) the child link of the last moving joint
    ends = [leaf for leaf, chain in chains.items() if chain == longest]
    return ends[0] if len(ends) == 1 else next(
        j.child for j in tree.model.joints if j.name == longest[-1])


def _home_poses(tree: _Tree) -> dict:
    """Every link's frame in the root frame with every joint at zero."""
    poses, stack = {tree.root: np.eye(4)}, [tree.root]
    while stack:
        link = stack.pop()
        for joint in tree.children[link]:
            poses[joint.child] = poses[link] @ _pose(joint.origin)
            stack.append(joint.child)
    return poses


def _inertial(link, where: str, pose: np.ndarray):
    """``(m, c, I)`` of a link in the root frame at home: mass, centre of mass, inertia about
    it in the root frame's axes, or ``None`` for a link without ``<inertial>``."""
    inertial = link.inertial
    if inertial is None:
        return None
    label = f"link {link.name!r}, <inertial>"
    mass = float(inertial.mass)
    if not (math.isfinite(mass) and mass > 0):
        raise ValueError(f"{where}: {label}: the mass must be positive, got {mass!r}")
    if inertial.inertia is None:
        raise ValueError(f"{where}: {label}: no <inertia>")
    I = np.array(inertial.inertia.to_matrix(), dtype=float)
    if not np.all(np.isfinite(I)):
        raise ValueError(f"{where}: {label}: the inertia is not finite")
    smallest = float(np.linalg.eigvalsh(I).min())
    if smallest < -_PSD_TOL * max(1.0, float(np.abs(I).max())):
        raise ValueError(f"{where}: {label}: the inertia tensor is not positive "
                         f"semi-definite (eigenvalue {smallest:.6g})")
    frame = pose @ _pose(inertial.origin)
    R = frame[:3, :3]
    return mass, frame[:3, 3], R @ I @ R.T


def _lump(parts) -> tuple:
    """One body from several rigidly joined ones: the total mass, the combined centre of mass
    and the inertia about it, each part's carried by Steiner's theorem (Lynch & Park (2017),
    Sec. 8.2.1: ``I_q = I_c + m (p^T p 1 - p p^T)``)."""
    mass = sum(m for m, _, _ in parts)
    centre = sum(m * c for m, c, _ in parts) / mass
    inertia = np.zeros((3, 3))
    for m, c, I in parts:
        p = c - centre
        inertia += I + m * (p @ p * np.eye(3) - np.outer(p, p))
    return mass, centre, inertia


@dataclass(frozen=True)
class URDFJoint:
    """One joint of a URDF chain as the file gives it: ``name``, ``type`` (``"revolute"``,
    ``"continuous"``, ``"prismatic"`` or ``"fixed"``), the ``parent`` and ``child`` links, its
    ``<origin>`` (``xyz`` and ``rpy``, in the parent link's frame), its ``<axis>`` (in its own
    frame; ``None`` for a fixed joint) and its ``<dynamics>`` ``damping`` and ``friction``
    (0 where the file gives none)."""

    name: str
    type: str
    parent: str
    child: str
    xyz: tuple
    rpy: tuple
    axis: tuple | None
    damping: float = 0.0
    friction: float = 0.0


@dataclass(frozen=True)
class URDFChain:
    """The serial chain of a URDF file, as the file gives it and as Lynch & Park describe it.

    ``joints``
        every joint from the root link to the tip, fixed ones included (:class:`URDFJoint`);
    ``Mlist``, ``Glist``, ``Slist``
        the library description of Lynch & Park (2017), Sec. 8.3.2: the home frames at the
        moving bodies' centres of mass (each relative to the one before, the last one the tip
        link's frame), their spatial inertias, and the joints' screw axes in the root frame at
        home, as the columns of a ``6 x n`` array;
    ``names``
        the moving joints' child links, one per column of ``Slist``.
    """

    name: str
    where: str
    root: str
    tip: str
    joints: tuple
    Mlist: tuple
    Glist: tuple
    Slist: np.ndarray
    names: tuple

    @property
    def moving(self) -> tuple:
        """The joints that move, in order (one per column of ``Slist``)."""
        return tuple(j for j in self.joints if j.type in _MOVING)

    def dh(self):
        """The standard DH description from the common normals of the joint axes
        (:func:`dynlab.model.robots.dh_from_screws`), a :class:`~dynlab.model.robots.DHChain`."""
        return dh_from_screws(list(self.Mlist), list(self.Glist), self.Slist,
                              names=self.names, where=self.where)

    def joint_table(self) -> str:
        """The chain's joints as the file gives them, a Markdown table (lengths in m, angles
        in rad, 4 decimals).

        >>> print(read_urdf(PENDULUM_ON_A_SLIDE).joint_table())
        | joint | type | parent → child | origin xyz | origin rpy | axis |
        |---|---|---|---|---|---|
        | slide | prismatic | rail → carriage | (0, 0, 0) | (0, 0, 0) | (1, 0, 0) |
        | swing | continuous | carriage → rod | (0, 0, 0) | (0, 0, 0) | (0, 1, 0) |
        | end | fixed | rod → bob | (0.5, 0, 0) | (0, 0, 0) | |
        """
        rows = [(j.name, j.type, f"{j.parent} → {j.child}", _triple(j.xyz), _triple(j.rpy),
                 "" if j.axis is None else _triple(j.axis)) for j in self.joints]
        header = ("joint", "type", "parent → child", "origin xyz", "origin rpy", "axis")
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines).replace("|  |", "| |")

    def screw_table(self) -> str:
        r"""The screw axes ``S_i = (omega_i, v_i)`` of the moving joints in the root frame at
        home (Lynch & Park (2017), Sec. 4.1: a revolute joint's ``v_i = -omega_i x p_i``
        with ``p_i`` a point of its axis), a Markdown table (4 decimals).

        >>> print(read_urdf(PENDULUM_ON_A_SLIDE).screw_table())
        | joint | $\omega_i$ | $v_i$ |
        |---|---|---|
        | slide | (0, 0, 0) | (1, 0, 0) |
        | swing | (0, 1, 0) | (0, 0, 0) |
        """
        lines = [r"| joint | $\omega_i$ | $v_i$ |", "|---|---|---|"]
        for joint, S in zip(self.moving, self.Slist.T):
            lines.append(f"| {joint.name} | {_triple(S[:3])} | {_triple(S[3:])} |")
        return "\n".join(lines)


def _triple(values) -> str:
    """``(x, y, z)`` with 4 decimals, trailing zeros dropped, round-off's signed zero as 0."""
    def number(v):
        text = f"{round(float(v), 4) + 0.0:.4f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "0", "") else text
    return "(" + ", ".join(number(v) for v in values) + ")"


def _joint_record(joint) -> URDFJoint:
    origin = joint.origin
    xyz = tuple(float(v) for v in (origin.xyz if origin is not None and origin.xyz is not None
                                   else (0, 0, 0)))
    rpy = tuple(float(v) for v in (origin.rpy if origin is not None and origin.rpy is not None
                                   else (0, 0, 0)))
    axis = None
    if joint.type in _MOVING:
        axis = tuple(float(v) for v in (joint.axis if joint.axis is not None
                                        else (1.0, 0.0, 0.0)))
    dynamics = joint.dynamics
    return URDFJoint(joint.name, joint.type, joint.parent, joint.child, xyz, rpy, axis,
                     float(getattr(dynamics, "damping", None) or 0.0),
                     float(getattr(dynamics, "friction", None) or 0.0))


def read_urdf(path, tip: str | None = None) -> URDFChain:
    """The serial chain of a URDF file (or URDF text) from its root link to ``tip``, as the
    file gives it and as Lynch & Park's ``(Mlist, Glist, Slist)`` (see the module for what it
    reads, how bodies are lumped, and the errors of a bad file).

    >>> chain = read_urdf(PENDULUM_ON_A_SLIDE)
    >>> chain.tip, [j.name for j in chain.moving]
    ('bob', ['slide', 'swing'])
    >>> (chain.Slist.T + 0.0).tolist()              # the slide along x, the swing about y
    [[0.0, 0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0]]
    """
    text, where = _read(path)
    with _parser_notes(where):
        try:
            model = URDF.from_xml_string(text.encode("utf-8") if text.lstrip().startswith(
                "<?xml") else text)
        except Exception as error:   # the parser's ParseError, lxml's syntax errors, numbers
            if isinstance(error, ValueError) and str(error).startswith(f"{where}: "):
                raise
            raise ValueError(f"{where}: {error}") from None
    tree = _tree(model, where)
    tip = _choose_tip(tree, tip)
    path_joints = _path(tree, tip)
    chain = [j for j in path_joints if j.type in _MOVING]
    if not chain:
        raise ValueError(f"{where}: no moving joint between the root {tree.root!r} and the tip "
                         f"{tip!r}")
    poses = _home_poses(tree)
    links = {link.name: link for link in model.links}

    # each link's body: the moving joint of the chain it rides on (0: the root's, ignored)
    on_chain = {j.name: k for k, j in enumerate(chain, start=1)}
    body_of = {tree.root: 0}
    stack = [tree.root]
    while stack:
        link = stack.pop()
        for joint in tree.children[link]:
            body_of[joint.child] = on_chain.get(joint.name, body_of[link])
            stack.append(joint.child)
    parts = {k: [] for k in range(1, len(chain) + 1)}
    members = {k: [] for k in parts}
    for link_name, body in body_of.items():
        if body:
            members[body].append(link_name)
            found = _inertial(links[link_name], where, poses[link_name])
            if found is not None:
                parts[body].append(found)

    Mlist, Glist, Slist, previous = [], [], [], np.eye(4)
    for k, joint in enumerate(chain, start=1):
        if not parts[k]:
            raise ValueError(f"{where}: joint {joint.name!r} moves links {sorted(members[k])}, "
                             f"none of which has an <inertial>")
        mass, centre, inertia = _lump(parts[k])
        axes = poses[joint.child][:3, :3]
        C = np.eye(4)
        C[:3, :3], C[:3, 3] = axes, centre
        Mlist.append(np.linalg.inv(previous) @ C)
        I_local = axes.T @ inertia @ axes
        Glist.append(np.block([[(I_local + I_local.T) / 2, np.zeros((3, 3))],
                               [np.zeros((3, 3)), mass * np.eye(3)]]))
        J = poses[joint.child]               # the joint frame (the child's, at zero)
        axis = np.array(joint.axis if joint.axis is not None else (1.0, 0.0, 0.0), float)
        length = float(np.linalg.norm(axis))
        if not length > 0:
            raise ValueError(f"{where}: joint {joint.name!r}, <axis>: the axis is zero")
        direction = J[:3, :3] @ (axis / length)
        if _MOVING[joint.type] == "revolute":
            Slist.append(np.r_[direction, -np.cross(direction, J[:3, 3])])
        else:
            Slist.append(np.r_[np.zeros(3), direction])
        previous = C
    Mlist.append(np.linalg.inv(previous) @ poses[tip])
    return URDFChain(model.name or "", where, tree.root, tip,
                     tuple(_joint_record(j) for j in path_joints), tuple(Mlist), tuple(Glist),
                     np.array(Slist).T, tuple(joint.child for joint in chain))


def from_urdf(path, tip: str | None = None, friction: bool = False,
              gravity=(0, 0, -9.81), *, name: str | None = None) -> Robot:
    """The serial chain of a URDF file (or URDF text) from its root link to ``tip``, as a
    :class:`~dynlab.Robot` with a standard DH table (see the module for what it reads and how).

    >>> arm = from_urdf(PENDULUM_ON_A_SLIDE, friction=True)
    >>> [(link.viscous, link.coulomb) for link in arm.links]
    [(0.5, 1.0), (0.0, 0.0)]
    >>> from_urdf(PENDULUM_ON_A_SLIDE.replace('value="2.0"', 'value="-2.0"'))
    Traceback (most recent call last):
    ...
    ValueError: URDF text: link 'carriage', <inertial>: the mass must be positive, got -2.0
    """
    friction = flag(friction, "from_urdf", "friction")
    chain = read_urdf(path, tip)
    where = chain.where
    robot = chain.dh().robot(
        gravity, name=name or chain.name or "URDF arm", where=where,
        source=f"URDF {os.path.basename(where) if where != 'URDF text' else 'text'}")
    if friction:
        arm_links = [link.replace(viscous=joint.damping, coulomb=joint.friction,
                                  static=joint.friction)
                     for link, joint in zip(robot.links, chain.moving)]
        robot = robot.replace(links=arm_links)
    return robot
