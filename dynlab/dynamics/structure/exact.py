"""Exact decisions on the structure of a model (Tourassis & Neuman (1985), Tables 2 and 3): each
independent coefficient zero, constant or a function of some joints, decided in a ring of
polynomials in ``sin q_k``, ``cos q_k`` and the parameters (:func:`model_structure`).
"""

from __future__ import annotations

import math

import sympy
from sympy.polys.rings import ring as polynomial_ring

from dynlab.dynamics.structure.counts import Coefficient, ModelStructure, independent_coefficients
from dynlab.dynamics.structure.inertia import inertia_matrix_in_joint_frames
from dynlab.model import vectors as V
from dynlab.model.kinematics import chain
from dynlab.model.robot import Robot, joint_symbols


# -- exact decisions in a polynomial ring ------------------------------------------------------
class _Angle:
    """A revolute joint's angle ``q_k + offset`` handed to dynlab's generic code, so that its
    ``sin``/``cos`` become the ring variables ``s_k``, ``c_k`` (angle sums expanded exactly)."""

    __slots__ = ("k", "offset")

    def __init__(self, k: int, offset=0):
        self.k, self.offset = k, offset

    def __add__(self, other):
        if isinstance(other, _Angle):
            raise TypeError("sums of joint angles do not occur in the DH recursion")
        return _Angle(self.k, self.offset + other)

    __radd__ = __add__


def _exact_number(x, where: str):
    """A float or SymPy number as an exact rational (floats read as typed: 0.4318 = 2159/5000;
    multiples of pi/2 snapped)."""
    if isinstance(x, float):
        return sympy.Rational(repr(x))
    x = sympy.sympify(x)
    if x.has(sympy.Float):
        x = x.xreplace({f: sympy.Rational(str(f)) for f in x.atoms(sympy.Float)})
    return x


def _exact_trig(function, angle, where: str):
    if isinstance(angle, float):
        turns = angle / (math.pi / 2)
        if abs(turns - round(turns)) < 1e-12:
            angle = sympy.pi * sympy.Rational(int(round(turns)), 2)
        else:
            angle = sympy.Rational(repr(angle))
    value = function(sympy.sympify(angle))
    if not value.is_Rational:
        raise ValueError(f"{where}: model_structure decides zero exactly and needs every fixed "
                         f"angle (twist, offset, prismatic theta) to be a multiple of pi/2; got "
                         f"{angle}")
    return value


class _Ring:
    """Exact polynomials in ``s_k = sin q_k``, ``c_k = cos q_k`` (revolute), ``q_k``
    (prismatic) and the robot's parameters, reduced modulo ``s_k^2 + c_k^2 - 1``: the canonical
    form of :func:`dynlab.model.symbolic.reduce_trig`, in SymPy's sparse polynomial ring."""

    def __init__(self, robot: Robot):
        links = robot.symbolic()[0]
        self.revolute = [link.revolute for link in links]
        joint_symbols = []
        for k, revolute in enumerate(self.revolute, start=1):
            joint_symbols += ([sympy.Dummy(f"s{k}"), sympy.Dummy(f"c{k}")] if revolute
                              else [sympy.Dummy(f"q{k}")])
        parameters = sorted(robot.free_symbols, key=str)
        self.R, *gens = polynomial_ring(joint_symbols + parameters, sympy.QQ)
        self.joint_gens = gens[:len(joint_symbols)]
        self.parameters = parameters
        self.variables = {}
        position = 0
        for k, revolute in enumerate(self.revolute, start=1):
            if revolute:
                self.variables[k] = (gens[position], gens[position + 1])
                position += 2
            else:
                self.variables[k] = (gens[position],)
                position += 1
        self.joint_indices = {}       # index of a ring generator -> joint number
        for k, gens_k in self.variables.items():
            for g in gens_k:
                self.joint_indices[self.R.gens.index(g)] = k
        self.relations = [s**2 + c**2 - 1 for k, (s, *rest) in self.variables.items()
                          for c in rest[:1]]

    def element(self, value, where: str):
        value = _exact_number(value, where)
        try:
            return self.R.from_expr(value) if isinstance(value, sympy.Basic) else self.R(value)
        except Exception:     # noqa: BLE001 - any of SymPy's coercion failures
            raise ValueError(f"{where}: model_structure needs parameters that are polynomials "
                             f"in the robot's symbols, got {value}") from None

    def backend(self):
        def trig(function):
            def apply(angle):
                if isinstance(angle, _Angle):
                    s, c = self.variables[angle.k]
                    co = self.element(_exact_trig(sympy.cos, angle.offset, f"joint {angle.k}"),
                                      "offset")
                    so = self.element(_exact_trig(sympy.sin, angle.offset, f"joint {angle.k}"),
                                      "offset")
                    # sin(q + o) = s cos o + c sin o;  cos(q + o) = c cos o - s sin o
                    return s * co + c * so if function is sympy.sin else c * co - s * so
                return self.element(_exact_trig(function, angle, "theta"), "theta")
            return apply

        def unsupported(x):
            raise TypeError("model_structure: only sin and cos occur in D and the potential")
        return V.Backend("ring", trig(sympy.sin), trig(sympy.cos), unsupported, unsupported,
                         unsupported)

    def reduce(self, p):
        """The normal form modulo ``s_k^2 + c_k^2 - 1`` (a Groebner basis: the leading terms
        ``s_k^2`` are coprime), so ``p`` vanishes identically iff the form is 0."""
        return p.rem(self.relations) if self.relations and p else p

    def derivative(self, p, k: int):
        """``dp/dq_k``: ``c_k dp/ds_k - s_k dp/dc_k`` (revolute) or ``dp/dq_k`` (prismatic)."""
        if self.revolute[k - 1]:
            s, c = self.variables[k]
            return self.reduce(c * p.diff(s) - s * p.diff(c))
        return p.diff(self.variables[k][0])

    def dependence(self, p) -> frozenset:
        joints = set()
        for monomial in p.monoms():
            for index, exponent in enumerate(monomial):
                if exponent and index in self.joint_indices:
                    joints.add(self.joint_indices[index])
        return frozenset(joints)

    def to_sympy(self, p, q):
        """A reduced polynomial as a SymPy expression in ``q`` (``sin(q_k)``, ``cos(q_k)``)."""
        mapping = {}
        for k, gens_k in self.variables.items():
            if self.revolute[k - 1]:
                mapping[gens_k[0].as_expr()] = sympy.sin(q[k - 1])
                mapping[gens_k[1].as_expr()] = sympy.cos(q[k - 1])
            else:
                mapping[gens_k[0].as_expr()] = q[k - 1]
        return p.as_expr().xreplace(mapping)


def _ring_links(robot: Robot, ring: _Ring):
    """The robot's link data with every parameter a ring element (angles stay exact)."""
    import dataclasses
    links = robot.symbolic()[0]
    converted = []
    for k, link in enumerate(links, start=1):
        where = f"{robot.name}, link {k}"
        el = lambda v, what: ring.element(v, f"{where}: {what}")       # noqa: E731
        converted.append(dataclasses.replace(
            link, d=el(link.d, "d"), a=el(link.a, "a"),
            sin_alpha=el(link.sin_alpha, "sin(alpha)"),
            cos_alpha=el(link.cos_alpha, "cos(alpha)"),
            offset=link.offset if link.revolute else el(link.offset, "offset"),
            mass=el(link.mass, "mass"), com=tuple(el(c, "com") for c in link.com),
            inertia=tuple(tuple(el(e, "inertia") for e in row) for row in link.inertia)))
        for value, what in ((link.sin_alpha, "sin(alpha)"), (link.cos_alpha, "cos(alpha)")):
            if not _exact_number(value, where).is_Rational:
                raise ValueError(f"{where}: model_structure decides zero exactly and needs every "
                                 f"twist to be a multiple of pi/2; got {what} = {value}")
    return converted


def model_structure(robot: Robot) -> ModelStructure:
    """The independent coefficients of ``robot``'s model (Tourassis & Neuman, Tables 2, 3), each
    decided exactly zero, constant or joint-dependent: ``D`` row by row in the joint frames and
    the potential, over polynomials in ``sin q_k``, ``cos q_k`` reduced modulo ``sin^2 + cos^2 = 1``
    (:func:`dynlab.model.symbolic.reduce_trig`); ``c_jm(i)`` by (12), ``G_i = dV/dq_i``.  Twists
    and fixed angles must be multiples of pi/2; kept in ``robot.data.model_structure``.

    >>> from dynlab.model.robots import articulated
    >>> s = model_structure(articulated())
    >>> s.row()["total"], s.labels("zero")           # c12(3) = -c13(2) vanishes: q2 || q3
    (15, ['c12(3)', 'G1'])
    """
    import time
    if not isinstance(robot, Robot):
        raise TypeError(f"model_structure needs a dynlab Robot, got {type(robot).__name__}")
    if robot.data.model_structure is not None:
        return robot.data.model_structure
    start = time.perf_counter()
    ring = _Ring(robot)
    links = _ring_links(robot, ring)
    gravity = tuple(ring.element(g, f"{robot.name}: gravity") for g in robot.symbolic()[1])
    n = robot.n
    q = [_Angle(k) if link.revolute else ring.variables[k][0]
         for k, link in enumerate(links, start=1)]
    backend = ring.backend()
    D_raw = inertia_matrix_in_joint_frames(links, q, backend)  # Tourassis & Neuman (5), Appendix A
    D = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            D[i][j] = D[j][i] = ring.reduce(ring.R(0) + D_raw[i][j])
    # potential energy V = -sum_k m_k g . r_k (Tourassis & Neuman (9)), from the same kinematics
    rots, origins = chain(links, q, backend)
    V_ = ring.R(0)
    for k, link in enumerate(links):
        centre = V.add(origins[k + 1], V.matvec(rots[k + 1], link.com))
        V_ = V_ - link.mass * V.dot(gravity, centre)
    V_ = ring.reduce(V_)
    dD = {}

    def d(i, j, k):                                   # dd_ij/dq_k, 1-based
        key = (min(i, j), max(i, j), k)
        if key not in dD:
            dD[key] = ring.derivative(D[i - 1][j - 1], k)
        return dD[key]

    coefficients, polynomials = [], {}
    for column, label, (i, j, m) in independent_coefficients(n):
        if column in ("d_ii", "d_ij"):
            p = D[i - 1][j - 1]
        elif column == "G_i":
            p = ring.derivative(V_, i)                            # (13), sign corrected
        else:
            p = ring.reduce((d(i, j, m) + d(i, m, j) - d(j, m, i)) / 2)      # (12)
        dependence = ring.dependence(p)
        status = "zero" if not p else ("constant" if not dependence else "varying")
        coefficients.append(Coefficient(column, label, (i, j, m), status, dependence))
        polynomials[label] = p
    structure = ModelStructure(robot, coefficients, polynomials,
                               time.perf_counter() - start)
    structure._ring = ring
    robot.data.model_structure = structure
    return structure


def coefficient_expression(structure: ModelStructure, label: str):
    """The canonical (``reduce_trig``) SymPy form of one coefficient of a structure, in the
    joint symbols ``q1 ..``.

    >>> from dynlab.model.robots import cylindrical
    >>> coefficient_expression(model_structure(cylindrical(inertia="axial")), "c11(3)")
    -m3*q3 - m3*rz3
    """
    if label not in structure.polynomials:
        raise KeyError(f"{label!r} is not an independent coefficient; see "
                       f"independent_coefficients({structure.n})")
    q = joint_symbols(structure.n)[0]
    return sympy.expand(structure._ring.to_sympy(structure.polynomials[label], q))
