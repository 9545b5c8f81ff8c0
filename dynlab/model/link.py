"""A link of a serial arm: standard DH parameters, inertial data and friction (:class:`Link`,
checked as typed; Fu, Gonzalez & Lee, Sec. 2.2; Schilling, Sec. 2-6) and the same values ready
for a recursion (:class:`LinkData`).

>>> Link("revolute", mass=-1.0, name="link 1")
Traceback (most recent call last):
...
ValueError: link 1: mass must be non-negative, got -1.0
"""

from __future__ import annotations

import math
import numbers
import sys
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import sympy

from dynlab.model.checks import choice, flag

#: Gravitational acceleration used by Fu, Gonzalez & Lee (Eq. (3.3-46)) and Schilling, in m/s^2.
G = 9.8062

REVOLUTE = "revolute"
PRISMATIC = "prismatic"
_JOINT_ALIASES = {"revolute": REVOLUTE, "r": REVOLUTE, "rotational": REVOLUTE,
                  "prismatic": PRISMATIC, "p": PRISMATIC, "translational": PRISMATIC}

# Relative tolerance of the numeric checks of an inertia tensor (symmetry, definiteness, triangle).
_INERTIA_RTOL = 1e-9


def is_sympy(value: Any) -> bool:
    return isinstance(value, sympy.Basic)


def scalar(value: Any, where: str, param: str, *, nonnegative: bool = False,
           positive: bool = False):
    """Return ``value`` as a float or a SymPy expression, or raise naming ``where`` and ``param``.

    Plain numbers become ``float``; SymPy expressions are kept (so ``pi/2`` stays exact).

    >>> scalar(3, "link 1", "a")
    3.0
    >>> scalar(sympy.pi / 2, "link 1", "alpha")
    pi/2
    >>> scalar(float("nan"), "link 2", "mass")
    Traceback (most recent call last):
    ...
    ValueError: link 2: mass must be finite, got nan
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{where}: {param} must be a real number or a SymPy expression, "
                        f"got the boolean {value!r}")
    if isinstance(value, numbers.Real):
        try:
            number = float(value)
        except OverflowError:      # an integer (or fraction) beyond the float range
            raise ValueError(f"{where}: {param} must be finite, got a number too large for "
                             f"a float (beyond {sys.float_info.max:.3g})") from None
        if not math.isfinite(number):
            raise ValueError(f"{where}: {param} must be finite, got {number!r}")
        if positive and number <= 0:
            raise ValueError(f"{where}: {param} must be positive, got {number!r}")
        if nonnegative and number < 0:
            raise ValueError(f"{where}: {param} must be non-negative, got {number!r}")
        return number
    if is_sympy(value):
        if not isinstance(value, sympy.Expr):
            raise TypeError(f"{where}: {param} must be a SymPy expression, "
                            f"got {type(value).__name__} {value!r}")
        if value.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
            raise ValueError(f"{where}: {param} must be finite, got {value}")
        if value.is_real is False:
            raise ValueError(f"{where}: {param} must be real, got {value}")
        if positive and value.is_positive is False:
            raise ValueError(f"{where}: {param} must be positive, got {value}")
        if nonnegative and value.is_negative:
            raise ValueError(f"{where}: {param} must be non-negative, got {value}")
        return value
    if isinstance(value, numbers.Complex):
        raise ValueError(f"{where}: {param} must be real, got the complex number {value!r}")
    raise TypeError(f"{where}: {param} must be a real number or a SymPy expression, "
                    f"got {type(value).__name__} {value!r}")


def vector3(value: Any, where: str, param: str) -> tuple:
    """Return a 3-vector as a tuple of scalars, or raise naming the parameter.

    >>> vector3([0, 0, -9.8062], "robot", "gravity")
    (0.0, 0.0, -9.8062)
    >>> vector3([1, 2], "link 1", "com")
    Traceback (most recent call last):
    ...
    ValueError: link 1: com must be a 3-vector, got 2 entries
    """
    entries = value_entries(value, where, param)
    if any(is_sequence(e) for e in entries):
        raise ValueError(f"{where}: {param} must be a 3-vector, got a nested sequence")
    if len(entries) != 3:
        raise ValueError(f"{where}: {param} must be a 3-vector, got {len(entries)} entries")
    return tuple(scalar(e, where, f"{param}[{k}]") for k, e in enumerate(entries))


def is_sequence(value: Any) -> bool:
    return isinstance(value, (list, tuple, np.ndarray, sympy.MatrixBase))


def value_entries(value: Any, where: str, param: str) -> list:
    if isinstance(value, sympy.MatrixBase):
        if 1 in value.shape:
            return list(value)
        return [list(value.row(r)) for r in range(value.rows)]
    if isinstance(value, np.ndarray):
        if value.ndim == 0:                    # a 0-d array is its one number
            return [value.item()]
        return value.tolist() if value.dtype != object else list(value)
    if isinstance(value, (list, tuple)):
        return list(value)
    raise TypeError(f"{where}: {param} must be a sequence (list, tuple, NumPy array or SymPy "
                    f"Matrix), got {type(value).__name__} {value!r}")


def inertia_tensor(Ixx=0, Iyy=0, Izz=0, Ixy=0, Ixz=0, Iyz=0) -> sympy.Matrix:
    """The symmetric inertia tensor (Fu, Gonzalez & Lee, Eq. (3.2-17)); products are the tensor's
    entries, the negatives of Eq. (3.2-18)'s ``int x y dm``.

    >>> inertia_tensor(1, 2, 3, Ixy=-0.5)
    Matrix([
    [   1, -0.5, 0],
    [-0.5,    2, 0],
    [   0,    0, 3]])
    """
    return sympy.Matrix([[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]])


def rod_inertia(mass, length, axis: str = "x") -> sympy.Matrix:
    """Inertia tensor about its centre of a uniform slender rod lying along ``axis``.

    >>> rod_inertia(3, 2, "x")
    Matrix([
    [0, 0, 0],
    [0, 1, 0],
    [0, 0, 1]])
    """
    scalar(mass, "rod_inertia", "mass", nonnegative=True)
    scalar(length, "rod_inertia", "length")
    moment = sympy.sympify(mass) * sympy.sympify(length) ** 2 / 12
    diagonal = {"x": (0, moment, moment), "y": (moment, 0, moment), "z": (moment, moment, 0)}
    choice(axis, diagonal, "rod_inertia", "axis")
    return sympy.diag(*diagonal[axis])


def _inertia(value: Any, where: str) -> tuple:
    """Normalise an inertia tensor to a 3x3 tuple of tuples and check it (numeric checks only)."""
    if value is None:
        return ((0.0,) * 3,) * 3
    entries = value_entries(value, where, "inertia")
    if len(entries) == 3 and not any(is_sequence(e) for e in entries):
        entries = [[entries[0], 0, 0], [0, entries[1], 0], [0, 0, entries[2]]]
    if len(entries) != 3 or not all(is_sequence(row) and len(row) == 3 for row in entries):
        raise ValueError(f"{where}: inertia must be a 3x3 matrix (or the 3 principal moments "
                         f"Ixx, Iyy, Izz), got shape {np.shape(np.array(entries, dtype=object))}")
    return tuple(tuple(scalar(e, where, f"inertia[{r}][{c}]") for c, e in enumerate(row))
                 for r, row in enumerate(entries))


def _check_inertia(rows: tuple, where: str, lumped: bool) -> None:
    """A link's inertia: the numeric checks of :func:`check_inertia`, or the symbolic ones of
    :func:`_check_symbolic_inertia` where an entry has a free symbol."""
    if not any(is_sympy(e) and e.free_symbols for row in rows for e in row):
        check_inertia(np.array(rows, dtype=float), where, lumped=lumped, advice=_LUMPED_ADVICE)
        return
    for r, c in ((0, 1), (0, 2), (1, 2)):
        upper, lower = rows[r][c], rows[c][r]
        if sympy.simplify(sympy.sympify(upper) - lower) != 0:
            raise ValueError(f"{where}: inertia is not symmetric: inertia[{r}][{c}] = {upper} "
                             f"but inertia[{c}][{r}] = {lower}")
    _check_symbolic_inertia(rows, where, lumped)


_LUMPED_ADVICE = " (pass lumped_inertia=True for a lumped rotor inertia)"


def check_inertia(matrix: np.ndarray, where: str, *, lumped: bool = False,
                  scale: float | None = None, advice: str = "") -> None:
    """Refuse a 3x3 inertia no rigid body has about its centre of mass: not symmetric, not positive
    semi-definite, or (unless ``lumped``) principal moments breaking the triangle inequality
    (Lynch & Park, Ch. 8: ``Ixx + Iyy - Izz = 2 int z^2 dm >= 0``); to 1e-9 of ``scale``.

    >>> check_inertia(np.diag([1.0, 1.0, 3.0]), "rotor")
    Traceback (most recent call last):
    ...
    ValueError: rotor: inertia violates the triangle inequality: principal moment 3 exceeds \
the sum 2 of the other two, which no rigid body can have
    """
    largest = float(np.abs(matrix).max())
    with np.errstate(over="ignore", invalid="ignore"):
        squares_overflow = not np.isfinite(matrix @ matrix).all()
    if squares_overflow:
        raise ValueError(f"{where}: inertia entries up to {largest:.3g} are too large to "
                         f"compute with (the check of definiteness overflows)")
    tolerance = _INERTIA_RTOL * max(1e-300, largest if scale is None else scale)
    for r, c in ((0, 1), (0, 2), (1, 2)):
        upper, lower = matrix[r, c], matrix[c, r]
        if abs(upper - lower) > tolerance:
            raise ValueError(f"{where}: inertia is not symmetric: inertia[{r}][{c}] = "
                             f"{upper:.6g} but inertia[{c}][{r}] = {lower:.6g}")
    moments = np.linalg.eigvalsh(matrix)
    if moments[0] < -tolerance:
        raise ValueError(f"{where}: inertia is not positive semi-definite: its principal moments "
                         f"are {[float(f'{m:.6g}') for m in moments]}")
    if not lumped:
        for k in range(3):
            others = moments.sum() - moments[k]
            if moments[k] > others + tolerance:
                raise ValueError(
                    f"{where}: inertia violates the triangle inequality: principal moment "
                    f"{moments[k]:.6g} exceeds the sum {others:.6g} of the other two, which no "
                    f"rigid body can have{advice}")


def _check_symbolic_inertia(rows: tuple, where: str, lumped: bool) -> None:
    """Refuse a symbolic inertia that can never be positive semi-definite, or a rigid body's
    that can never satisfy the triangle inequality, where SymPy decides it; accept the rest."""
    names = ("Ixx", "Iyy", "Izz")
    I = [[sympy.sympify(e) for e in row] for row in rows]
    for k in range(3):
        if I[k][k].is_negative:
            raise ValueError(f"{where}: inertia is not positive semi-definite: {names[k]} = "
                             f"{I[k][k]} is negative")
    for r, c in ((0, 1), (0, 2), (1, 2)):
        if I[r][c] == 0:
            continue
        minor = sympy.expand(I[r][r] * I[c][c] - I[r][c] ** 2)
        if minor.is_negative:   # a 2x2 principal minor of a PSD matrix is >= 0
            raise ValueError(f"{where}: inertia is not positive semi-definite: the principal "
                             f"minor {names[r]} {names[c]} - inertia[{r}][{c}]^2 = {minor} is "
                             f"negative")
    if lumped:
        return
    for k in range(3):
        excess = sympy.expand(I[k][k] - sum(I[j][j] for j in range(3) if j != k))
        if excess.is_positive:
            others = " + ".join(names[j] for j in range(3) if j != k)
            raise ValueError(
                f"{where}: inertia violates the triangle inequality: {names[k]} exceeds "
                f"{others} by {excess}, which no rigid body can have (pass "
                f"lumped_inertia=True for a lumped rotor inertia)")


@dataclass(frozen=True, eq=False, init=False, repr=False)
class Link:
    """One link and its joint (``"revolute"``/``"R"`` or ``"prismatic"``/``"P"``): DH parameters
    (the joint's own variable not given: its constant part is ``offset``), ``com`` and ``inertia``
    about it in frame ``i`` (3 numbers: principal moments), Schilling, Eq. (6-3-3)'s friction;
    ``lumped_inertia`` skips the triangle inequality (a lumped rotor, the PUMA 560's link 1).

    >>> Link("P", theta=0, alpha=0, mass=1.5, name="slide").is_prismatic
    True
    >>> Link("revolute", theta=0.3, name="elbow")
    Traceback (most recent call last):
    ...
    ValueError: elbow: theta is the joint variable of a revolute joint; give its constant part as
    offset
    """

    joint: str
    theta: Any
    d: Any
    a: Any
    alpha: Any
    offset: Any
    mass: Any
    com: tuple
    inertia: tuple
    viscous: Any
    coulomb: Any
    static: Any
    epsilon: Any
    name: str
    lumped_inertia: bool

    def __init__(self, joint: str = REVOLUTE, *, theta=0, d=0, a=0, alpha=0, offset=0, mass=0,
                 com=(0, 0, 0), inertia=None, viscous=0, coulomb=0, static=0, epsilon=0.01,
                 name: str | None = None, lumped_inertia: bool = False):
        if name is not None and not isinstance(name, str):
            raise TypeError(f"link name must be a string, got {type(name).__name__} {name!r}")
        where = name or "link"
        if not isinstance(joint, str):
            raise TypeError(f"{where}: joint must be 'revolute' or 'prismatic', "
                            f"got {type(joint).__name__} {joint!r}")
        kind = _JOINT_ALIASES.get(joint.strip().lower())
        if kind is None:
            raise ValueError(f"{where}: unknown joint type {joint!r}; use 'revolute' or "
                             f"'prismatic' ('R' or 'P')")
        variable = "theta" if kind == REVOLUTE else "d"
        given = theta if kind == REVOLUTE else d
        if not (isinstance(given, numbers.Real) and not isinstance(given, bool) and given == 0):
            raise ValueError(f"{where}: {variable} is the joint variable of a {kind} joint; "
                             f"give its constant part as offset")
        values = {
            "joint": kind,
            "theta": scalar(theta, where, "theta"),
            "d": scalar(d, where, "d"),
            "a": scalar(a, where, "a"),
            "alpha": scalar(alpha, where, "alpha"),
            "offset": scalar(offset, where, "offset"),
            "mass": scalar(mass, where, "mass", nonnegative=True),
            "com": vector3(com, where, "com"),
            "inertia": _inertia(inertia, where),
            "viscous": scalar(viscous, where, "viscous", nonnegative=True),
            "coulomb": scalar(coulomb, where, "coulomb", nonnegative=True),
            "static": scalar(static, where, "static", nonnegative=True),
            "epsilon": scalar(epsilon, where, "epsilon", positive=True),
            "name": name or "",
            "lumped_inertia": flag(lumped_inertia, where, "lumped_inertia"),
        }
        _check_inertia(values["inertia"], where, values["lumped_inertia"])
        for key, value in values.items():
            object.__setattr__(self, key, value)

    # -- derived facts ------------------------------------------------------------------------
    @property
    def is_revolute(self) -> bool:
        return self.joint == REVOLUTE

    @property
    def is_prismatic(self) -> bool:
        return self.joint == PRISMATIC

    @property
    def has_friction(self) -> bool:
        """True unless every friction coefficient is (exactly) zero."""
        return any(not (isinstance(v, float) and v == 0.0)
                   for v in (self.viscous, self.coulomb, self.static))

    def parameters(self) -> dict:
        """The constructor arguments, so ``Link(**link.parameters())`` rebuilds the link."""
        return {**{f.name: getattr(self, f.name) for f in fields(self)},
                "name": self.name or None}

    def replace(self, **changes) -> Link:
        """A copy with some parameters changed (links are immutable).

        >>> Link("R", a=1.0, name="l1").replace(a=2.0).a
        2.0
        """
        values = self.parameters()
        unknown = set(changes) - set(values)
        if unknown:
            raise TypeError(f"{self.name or 'link'}: unknown parameter(s) {sorted(unknown)}")
        values.update(changes)
        return Link(**values)

    def free_symbols(self) -> set:
        return set().union(*(value.free_symbols for value in (
            self.theta, self.d, self.a, self.alpha, self.offset, self.mass, self.viscous,
            self.coulomb, self.static, self.epsilon, *self.com, *sum(self.inertia, ()))
            if is_sympy(value)))

    def __repr__(self) -> str:
        return (f"Link({self.joint!r}, theta={self.theta}, d={self.d}, a={self.a}, "
                f"alpha={self.alpha}, offset={self.offset}, mass={self.mass}, com={self.com}, "
                f"name={self.name!r})")


def exact(value):
    """Integral floats as SymPy integers (a typed ``2`` or ``0.0`` stays exact in derivations)."""
    if isinstance(value, float) and value.is_integer():
        return sympy.Integer(int(value))
    return value


@dataclass(frozen=True)
class LinkData:
    """A link's parameters ready for a recursion: all floats (numeric path, no SymPy inside) or
    all exact SymPy-compatible values (symbolic path), with ``sin``/``cos`` of ``alpha`` done."""

    revolute: bool
    theta: float
    d: float
    a: float
    sin_alpha: float
    cos_alpha: float
    offset: float
    mass: float
    com: tuple
    inertia: tuple
    viscous: float
    coulomb: float
    static: float
    epsilon: float
    has_friction: bool

