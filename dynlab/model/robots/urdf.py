"""An arm from a URDF file: the serial chain from the root to a tip, as a standard DH table.

:func:`read_urdf` reads the chain (``urdf_parser_py``) and lumps each moving joint's rigidly
attached links into one body (Steiner's theorem, Lynch & Park (2017), Sec. 8.2.1; joints off
the chain locked at zero; a link without ``<inertial>`` is massless) and gives Lynch & Park's
``(Mlist, Glist, Slist)`` (Sec. 8.3.2); :func:`from_urdf` makes the DH table of
:func:`dynlab.model.robots.from_screws`.  ``friction=True`` reads ``<dynamics damping
friction>`` as Schilling, Eq. (6-3-3)'s ``b_v`` and ``b_d = b_s``.  A bad file gets a
``ValueError`` naming the file, the element and the problem.

>>> arm = from_urdf(PENDULUM_ON_A_SLIDE)
>>> [(link.name, link.offset, link.a, link.alpha) for link in arm.links]
[('carriage', 0.0, 0.0, 1.5707963267948966), ('rod', 1.5707963267948966, 0.5, 0.0)]
"""

from __future__ import annotations

import math
import os
import re
import warnings
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import numpy as np
import urdf_parser_py.xml_reflection.core as _xml_core
from urdf_parser_py.urdf import URDF

from dynlab.model.checks import flag
from dynlab.model.display import decimal, table_markdown
from dynlab.model.link import check_inertia
from dynlab.model.robot import Robot
from dynlab.model.robots.parameters import LARGEST_PARAMETER
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


def _finite(values, where: str, label: str) -> tuple:
    """``values`` as floats, or a ``ValueError`` naming the element when one is not finite."""
    numbers = tuple(float(v) for v in values)
    if not all(math.isfinite(v) for v in numbers):
        raise ValueError(f"{where}: {label}: the numbers must be finite, got {list(numbers)}")
    return numbers


def _rpy(rpy) -> np.ndarray:
    """``Rz(yaw) Ry(pitch) Rx(roll)``: URDF's roll, pitch, yaw about the fixed axes."""
    r, p, y = rpy
    cr, sr, cp, sp, cy, sy = (math.cos(r), math.sin(r), math.cos(p), math.sin(p),
                              math.cos(y), math.sin(y))
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


def _within_reach(T: np.ndarray, where: str, label: str) -> np.ndarray:
    """``T`` if its origin lies within ``LARGEST_PARAMETER`` (5.6e102 m) of the root link's,
    else a ``ValueError`` naming the element that put it there."""
    distance = float(np.abs(T[:3, 3]).max())
    if distance > LARGEST_PARAMETER:
        raise ValueError(f"{where}: {label} puts a frame {distance:.3g} m from the root link's; "
                         f"beyond {LARGEST_PARAMETER:.3g} m the dynamics (m l^2) overflow a "
                         f"float")
    return T


def _pose(origin, where: str, label: str) -> np.ndarray:
    """The 4x4 transform of an ``<origin>`` (the identity when there is none)."""
    T = np.eye(4)
    if origin is not None:
        label = f"{label}, <origin>"
        T[:3, :3] = _rpy(_finite(origin.rpy or (0, 0, 0), where, f"{label} rpy"))
        T[:3, 3] = _finite(origin.xyz or (0, 0, 0), where, f"{label} xyz")
    return T


def _read(path) -> tuple:
    """``(root, where)``: the XML tree of a file, or of URDF text (a string that starts with
    ``<``, after white space: any other string is a file name), and how errors name it.  A
    file is read as bytes, so that its XML declaration says its encoding."""
    if isinstance(path, os.PathLike) or (isinstance(path, str)
                                         and not path.lstrip().startswith("<")):
        where = os.fspath(path)
        try:
            with open(where, "rb") as handle:
                data = handle.read()
        except OSError as error:
            raise ValueError(f"{where}: cannot read the URDF file ({error.strerror})") from None
    elif isinstance(path, str):
        data, where = path.lstrip(), "URDF text"     # an XML declaration comes first
    else:
        raise TypeError(f"from_urdf: path must be a file name or URDF text (a string that "
                        f"starts with '<'), got {type(path).__name__}")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as error:
        raise ValueError(f"{where}: not an XML file ({error})") from None
    if root.tag != "robot":
        raise ValueError(f"{where}: the root element is <{root.tag}>, not <robot>: not a URDF "
                         f"file")
    return root, where


#: the attributes the parser reads without checking them: each with how many numbers it holds
_REQUIRED = (("link", "inertial/mass", "value", 1), ("joint", "parent", "link", 0),
             ("joint", "child", "link", 0), ("joint", "axis", "xyz", 3))
#: the elements dynlab does not read, removed before the parser sees them (the parser's
#: errors in a mesh's material or a transmission's markup are not the arm's)
_UNREAD = ("transmission", "gazebo", "material", "link/visual", "link/collision")
_UNKNOWN = re.compile(r'Unknown (attribute|tag) "(.*)" in (.*)')


def _parse(root, where: str):
    """The parser's model of the tree (unread elements taken out, unchecked attributes checked);
    what it reads past becomes one warning naming the file."""
    for path in _UNREAD:
        inner, _, tag = path.rpartition("/")
        for parent in root.findall(inner) if inner else [root]:
            for element in parent.findall(tag):
                parent.remove(element)
    for kind, inner, attribute, count in _REQUIRED:
        for element in root.findall(kind):
            for found in element.findall(inner):
                text = found.get(attribute)
                label = f"{where}: {kind} {element.get('name')!r}, " + "".join(
                    f"<{tag}>" for tag in inner.split("/"))
                if text is None:
                    raise ValueError(f"{label}: no {attribute}= attribute")
                if count and not _numbers(text, count):
                    raise ValueError(f"{label}: {attribute}={text!r} is not "
                                     f"{'a number' if count == 1 else f'{count} numbers'}")
    notes = []
    saved = _xml_core.on_error
    _xml_core.on_error = notes.append
    try:
        model = URDF.from_xml(root, _xml_core.Path("robot", tree=ET.ElementTree(root)))
    except Exception as error:   # noqa: BLE001 - the parser's ParseError, numbers, joint types
        if isinstance(error, _xml_core.ParseError):
            xacro = " (a xacro macro: expand it with xacro first)" if "${" in str(error.e) else ""
            raise ValueError(f"{where}: {error.path}: {error.e}{xacro}") from None
        raise ValueError(f"{where}: {error}") from None
    finally:
        _xml_core.on_error = saved
    if notes:
        warnings.warn(f"{where}: ignored what dynlab does not read: {_ignored(notes)}",
                      stacklevel=3)
    return model


def _numbers(text: str, count: int) -> bool:
    """Whether ``text`` is ``count`` numbers separated by white space."""
    try:
        return len([float(word) for word in text.split()]) == count
    except ValueError:
        return False


def _ignored(notes) -> str:
    """The parser's notes in one line: each unknown attribute or tag once, by element.

    >>> _ignored(['Unknown attribute "D" in /robot/joint[@name="j1"]/dynamics',
    ...           'Unknown attribute "K" in /robot/joint[@name="j1"]/dynamics',
    ...           'Unknown attribute "D" in /robot/joint[@name="j2"]/dynamics',
    ...           'Unknown tag "vendor" in /robot'])
    'attributes D, K of <dynamics>; tag <vendor> in <robot>'
    """
    groups, other = {}, []
    for note in notes:
        found = _UNKNOWN.fullmatch(note)
        if found is None:
            other.append(note.replace("Scalar element defined multiple times: ", "a second <")
                         + (">, after the first" if note.startswith("Scalar") else ""))
            continue
        kind, name, path = found.groups()
        element = re.sub(r"\[[^\]]*\]", "", path).rsplit("/", 1)[-1]
        names = groups.setdefault((kind, element), {})
        names[name if kind == "attribute" else f"<{name}>"] = None
    parts = [f"{kind}{'s' if len(names) > 1 else ''} {', '.join(names)} "
             f"{'of' if kind == 'attribute' else 'in'} <{element}>"
             for (kind, element), names in groups.items()]
    return "; ".join(parts + list(dict.fromkeys(other)))


@dataclass
class _Tree:
    where: str
    model: object
    parent_joint: dict          # link name -> joint
    children: dict              # link name -> [joint, ...]
    root: str


def _tree(model, where: str) -> _Tree:
    for kind, elements in (("link", model.links), ("joint", model.joints)):
        seen = set()
        for element in elements:
            if element.name in seen:
                raise ValueError(f"{where}: two {kind}s are named {element.name!r}; a URDF "
                                 f"file names each {kind} once")
            seen.add(element.name)
    links = {link.name for link in model.links}
    parent_joint, children = {}, {name: [] for name in links}
    for joint in model.joints:
        label = f"joint {joint.name!r}"
        if joint.type in ("floating", "planar"):
            raise ValueError(f"{where}: {label} is {joint.type}; dynlab's arms have revolute, "
                             f"continuous, prismatic and fixed joints only")
        if joint.type not in _MOVING and joint.type != "fixed":
            raise ValueError(f"{where}: {label} has the unknown type {joint.type!r}")
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
    if not links:
        raise ValueError(f"{where}: the file defines no link")
    if len(roots) > 1:
        raise ValueError(f"{where}: it has {len(roots)} root links, {roots}: not one tree")
    reached, stack = set(roots), list(roots)
    while stack:
        stack += [joint.child for joint in children[stack.pop()]]
        reached.update(stack)
    if reached != links:    # every link has a parent joint: those not reached lie on a loop
        loop = _loop(parent_joint, min(links - reached))
        apart = f", apart from the tree of the root link {roots[0]!r}" if roots else ""
        raise ValueError(f"{where}: closed loop: the joints {[j.name for j in loop]} lead "
                         f"from link {loop[0].parent!r} back to it{apart}")
    return _Tree(where, model, parent_joint, children, roots[0])


def _loop(parent_joint: dict, link: str) -> list:
    """The joints of the closed loop that the parent joints lead into, up from ``link``."""
    links = []
    while link not in links:
        links.append(link)
        link = parent_joint[link].parent
    return [parent_joint[name] for name in links[links.index(link):]][::-1]


def _path(tree: _Tree, link: str) -> list:
    """The joints from the root to ``link``."""
    joints = []
    while link != tree.root:
        joint = tree.parent_joint[link]
        joints.append(joint)
        link = joint.parent
    return joints[::-1]


def _moving(joints) -> tuple:
    return tuple(j for j in joints if j.type in _MOVING)


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
    return ends[0] if len(ends) == 1 else longest[-1].child


def _home_poses(tree: _Tree) -> dict:
    """Every link's frame in the root frame with every joint at zero."""
    poses, stack = {tree.root: np.eye(4)}, [tree.root]
    while stack:
        link = stack.pop()
        for joint in tree.children[link]:
            label = f"joint {joint.name!r}, <origin>"
            poses[joint.child] = _within_reach(
                poses[link] @ _pose(joint.origin, tree.where, f"joint {joint.name!r}"),
                tree.where, label)
            stack.append(joint.child)
    return poses


def _inertial(link, where: str, pose: np.ndarray):
    """``(m, c, I)`` of a link in the root frame at home: mass, centre of mass, inertia about
    it in the root frame's axes, or ``None`` for a link without ``<inertial>`` (a massless
    frame, as the URDF specification reads it)."""
    inertial = link.inertial
    if inertial is None:
        return None
    label = f"link {link.name!r}, <inertial>"
    (mass,) = _finite([inertial.mass], where, f"{label}, <mass>")
    if mass < 0:
        raise ValueError(f"{where}: {label}: the mass must not be negative, got {mass!r}")
    if inertial.inertia is None:
        raise ValueError(f"{where}: {label}: no <inertia>")
    I = np.reshape(_finite(np.ravel(inertial.inertia.to_matrix()), where, f"{label}, <inertia>"),
                   (3, 3))
    check_inertia(I, f"{where}: {label}")
    frame = _within_reach(pose @ _pose(inertial.origin, where, label), where,
                          f"{label}, <origin>")
    R = frame[:3, :3]
    return mass, frame[:3, 3], R @ I @ R.T


def _lump(parts, origin: np.ndarray) -> tuple:
    """One body from several rigidly joined ones: the total mass, the combined centre of mass
    (``origin`` when there is no mass) and the inertia about it, each part's carried by
    Steiner's theorem (Lynch & Park (2017), Sec. 8.2.1: ``I_q = I_c + m (p^T p 1 - p p^T)``)."""
    mass = sum(m for m, _, _ in parts)
    centre = sum(m * c for m, c, _ in parts) / mass if mass > 0 else origin
    inertia = np.zeros((3, 3))
    for m, c, I in parts:
        p = c - centre
        inertia += I + m * (p @ p * np.eye(3) - np.outer(p, p))
    return mass, centre, inertia


@dataclass(frozen=True)
class URDFJoint:
    """One joint as the file gives it: ``name``, ``type``, ``parent``, ``child``, ``<origin>``
    (``xyz``, ``rpy``), ``<axis>`` (``None`` if fixed), ``<dynamics>`` ``damping`` and ``friction``.
    """

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
    """The serial chain of a URDF file: ``joints`` (root to tip, fixed ones included), Lynch &
    Park's ``Mlist``, ``Glist``, ``Slist`` (Sec. 8.3.2) and ``names`` (one per column of ``Slist``).
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
        return _moving(self.joints)

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
        return table_markdown(header, rows).replace("|  |", "| |")

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
        return table_markdown(("joint", r"$\omega_i$", "$v_i$"), [
            (joint.name, _triple(S[:3]), _triple(S[3:]))
            for joint, S in zip(self.moving, self.Slist.T)])


def _triple(values) -> str:
    """``(x, y, z)`` with 4 decimals (:func:`dynlab.model.display.decimal`)."""
    return "(" + ", ".join(decimal(v) for v in values) + ")"


def _joint_record(joint, where: str) -> URDFJoint:
    """The chain's joint as the file gives it (its numbers checked where they were used)."""
    xyz, rpy = (tuple(float(v) for v in getattr(joint.origin, key, None) or (0, 0, 0))
                for key in ("xyz", "rpy"))
    axis = None
    if joint.type in _MOVING:
        axis = tuple(float(v) for v in (joint.axis if joint.axis is not None
                                        else (1.0, 0.0, 0.0)))
    dynamics = joint.dynamics
    damping, friction = _finite([getattr(dynamics, "damping", None) or 0.0,
                                 getattr(dynamics, "friction", None) or 0.0],
                                where, f"joint {joint.name!r}, <dynamics> damping, friction")
    if min(damping, friction) < 0:
        raise ValueError(f"{where}: joint {joint.name!r}, <dynamics>: damping and friction "
                         f"must not be negative, got {damping!r} and {friction!r}")
    return URDFJoint(joint.name, joint.type, joint.parent, joint.child, xyz, rpy, axis,
                     damping, friction)


def _check_mimics(model, chain: list, where: str) -> None:
    """Refuse a ``<mimic>`` joint on the chain, one mimicking a chain joint, or one whose offset the
    lock at zero would break; one off the chain is locked with the rest."""
    names = {joint.name for joint in chain}
    for joint in model.joints:
        mimic, label = joint.mimic, f"joint {joint.name!r}"
        if mimic is None or joint.type == "fixed":
            continue
        if joint.name in names:
            raise ValueError(f"{where}: {label} of the chain mimics joint {mimic.joint!r}; a "
                             f"coupled joint is not an independent joint of a serial chain")
        if mimic.joint in names:
            raise ValueError(f"{where}: {label}, off the chain, mimics the chain's joint "
                             f"{mimic.joint!r}: it moves with the chain, but dynlab locks "
                             f"every joint off the chain at zero")
        if mimic.offset:
            raise ValueError(f"{where}: {label}, off the chain, mimics joint {mimic.joint!r} "
                             f"with the offset {mimic.offset!r}: with both locked at zero "
                             f"(as dynlab locks every joint off the chain) the file's "
                             f"coupling does not hold")


def read_urdf(path, tip: str | None = None) -> URDFChain:
    """The serial chain of a URDF file (or text starting with ``<``) from its root link to
    ``tip`` (default: the one chain's end), as the file gives it and as ``(Mlist, Glist, Slist)``.

    >>> chain = read_urdf(PENDULUM_ON_A_SLIDE)
    >>> chain.tip, [j.name for j in chain.moving]
    ('bob', ['slide', 'swing'])
    >>> (chain.Slist.T + 0.0).tolist()              # the slide along x, the swing about y
    [[0.0, 0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0]]
    """
    root, where = _read(path)
    model = _parse(root, where)
    tree = _tree(model, where)
    tip = _choose_tip(tree, tip)
    path_joints = _path(tree, tip)
    chain = _moving(path_joints)
    if not chain:
        raise ValueError(f"{where}: no moving joint between the root {tree.root!r} and the tip "
                         f"{tip!r}")
    _check_mimics(model, chain, where)
    poses = _home_poses(tree)
    links = {link.name: link for link in model.links}

    # each link's body: the moving joint of the chain it rides on (0: the root's, ignored),
    # found by the link the joint moves (each link has one parent joint)
    on_chain = {j.child: k for k, j in enumerate(chain, start=1)}
    body_of = {tree.root: 0}
    stack = [tree.root]
    while stack:
        link = stack.pop()
        for joint in tree.children[link]:
            body_of[joint.child] = on_chain.get(joint.child, body_of[link])
            stack.append(joint.child)
    parts = {k: [] for k in range(0, len(chain) + 1)}
    members = {k: [] for k in parts}
    for link_name, body in body_of.items():
        members[body].append(link_name)
        found = _inertial(links[link_name], where, poses[link_name])
        if found is not None:
            parts[body].append(found)
    with np.errstate(over="ignore", invalid="ignore"):
        bodies = [_lump(parts[k], poses[joint.child][:3, 3]) for k, joint in
                  enumerate(chain, start=1)]
    for k, (joint, (mass, centre, inertia)) in enumerate(zip(chain, bodies), start=1):
        label = f"{where}: the links that joint {joint.name!r} moves, {sorted(members[k])}"
        if not (math.isfinite(mass) and np.isfinite(centre).all()):
            raise ValueError(f"{label}: their masses and positions (m l) overflow a float")
        check_inertia(inertia, label)       # lumped, m l^2 may overflow
    first = len(chain)              # the joints from chain[first] on carry nothing at all
    while first and not (bodies[first - 1][0] > 0 or bodies[first - 1][2].any()):
        first -= 1
    if first < len(chain):
        riders = sorted(link for k in range(first + 1, len(chain) + 1) for link in members[k])
        raise ValueError(f"{where}: joint {chain[first].name!r} moves nothing: the links it "
                         f"carries, {riders}, have no mass and no inertia (a link without "
                         f"<inertial> has none)")

    Mlist, Glist, Slist, previous = [], [], [], np.eye(4)
    for joint, (mass, centre, inertia) in zip(chain, bodies):
        axes = poses[joint.child][:3, :3]
        C = np.eye(4)
        C[:3, :3], C[:3, 3] = axes, centre
        Mlist.append(np.linalg.inv(previous) @ C)
        I_local = axes.T @ inertia @ axes
        Glist.append(np.block([[(I_local + I_local.T) / 2, np.zeros((3, 3))],
                               [np.zeros((3, 3)), mass * np.eye(3)]]))
        J = poses[joint.child]               # the joint frame (the child's, at zero)
        axis = np.array(_finite(joint.axis if joint.axis is not None else (1.0, 0.0, 0.0),
                                where, f"joint {joint.name!r}, <axis>"))
        if not np.abs(axis).max() > 0:
            raise ValueError(f"{where}: joint {joint.name!r}, <axis>: the axis is zero")
        axis /= np.abs(axis).max()           # then its norm neither overflows nor underflows
        direction = J[:3, :3] @ (axis / np.linalg.norm(axis))
        if _MOVING[joint.type] == "revolute":
            Slist.append(np.r_[direction, -np.cross(direction, J[:3, 3])])
        else:
            Slist.append(np.r_[np.zeros(3), direction])
        previous = C
    Mlist.append(np.linalg.inv(previous) @ poses[tip])
    return URDFChain(model.name or "", where, tree.root, tip,
                     tuple(_joint_record(j, where) for j in path_joints), tuple(Mlist),
                     tuple(Glist),
                     np.array(Slist).T, tuple(joint.child for joint in chain))


def from_urdf(path, tip: str | None = None, friction: bool = False,
              gravity=(0, 0, -9.81), *, name: str | None = None) -> Robot:
    """The chain of :func:`read_urdf` as a :class:`~dynlab.Robot` with a standard DH table.

    >>> from_urdf(PENDULUM_ON_A_SLIDE.replace('value="2.0"', 'value="-2.0"'))
    Traceback (most recent call last):
    ...
    ValueError: URDF text: link 'carriage', <inertial>: the mass must not be negative, got -2.0
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
