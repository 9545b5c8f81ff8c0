"""The one registry of formulations (:class:`Formulation`, :func:`register`); every consumer asks
it, so a new formulation is one module and one ``register`` call.

A variant's function, by kind: ``"torques"``: ``f(links, q, qd, qdd, gravity, tip_force,
tip_moment, backend, *, use_gravity, use_friction, use_tip, trace) -> (tau, records)`` (``D``
by probing, Fu, Gonzalez & Lee, Probs. 3.11-3.12); ``"terms"``: ``f(links, q, qd, gravity,
backend) -> dict`` with ``"D"``, ``"h"``, ``"c"`` (``tau = D qdd + h + c``), friction (Schilling,
Eq. (6-3-3)) and tool wrench added by :func:`friction_and_tip`.  Consumers ask capabilities
(:data:`CAPABILITIES`, :meth:`Formulation.can`); a SymPy-only formulation joins derivations only.

>>> formulation, variant = lookup("lagrange_euler")
>>> formulation.kind, variant, formulation.capabilities()
('terms', 'uicker', ('numeric', 'symbolic', 'terms', 'own_inertia'))
>>> FORMULATIONS["twist_wrench"].can("own_forward_dynamics", "featherstone")
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from dynlab.formulations import (
    composite_bodies,
    dalembert,
    featherstone,
    lagrange_euler,
    newton_euler,
    twist_wrench,
)
from dynlab.model import vectors as V
from dynlab.model.friction import link_friction
from dynlab.model.kinematics import chain_tool_jacobian

KINDS = ("torques", "terms")

#: What a formulation can do: the questions a consumer asks (:meth:`Formulation.can`,
#: :func:`methods`, :func:`require`) instead of branching on its kind or its name.
CAPABILITIES = {
    "numeric": "runs on floats, jets and the tracing tape (inverse and forward dynamics, "
               "generated code, operation counts, tables, dashboards)",
    "symbolic": "runs on SymPy (equations_of_motion and their comparisons, closed forms)",
    "terms": "gives D, h and c itself (a closed form) rather than torques to be probed",
    "traces": "returns per-link records (trace=True)",
    "own_inertia": "computes D by an algorithm of its own (its terms or Formulation.inertias) "
                   "rather than by probing",
    "own_forward_dynamics": "solves for qdd by an algorithm of its own "
                            "(Formulation.accelerations) rather than D qdd = tau - bias",
}


class TorqueRecursion(Protocol):
    """A ``"torques"`` variant: ``(tau, records)`` from the state and the accelerations."""

    def __call__(self, links: Sequence, q: Sequence, qd: Sequence, qdd: Sequence,
                 gravity: Sequence, tip_force: Sequence, tip_moment: Sequence,
                 backend: V.Backend = V.NUMERIC, *, use_gravity: bool = True,
                 use_friction: bool = True, use_tip: bool = True,
                 trace: bool = False) -> tuple: ...


class TermsFunction(Protocol):
    """A ``"terms"`` variant: ``{"D": rows, "h": list, "c": list, ...}`` at ``(q, qd)``."""

    def __call__(self, links: Sequence, q: Sequence, qd: Sequence, gravity: Sequence,
                 backend: V.Backend = V.NUMERIC) -> dict: ...


@dataclass(frozen=True)
class Formulation:
    """One formulation: ``variants`` (name -> function of ``kind``'s contract), ``labels``,
    ``traces`` (per-link records), ``accelerations`` (a variant's own forward dynamics, ``f(links,
    q, qd, net, gravity, tip_force, tip_moment, backend, *, use_gravity, use_tip) -> [qdd...,
    pivots...]``), ``inertias`` (its own ``D``, ``f(links, q, gravity, backend)``),
    ``forward_inertia`` (a cheaper equal ``D`` for compiled forward dynamics only), ``numeric``
    and ``symbolic`` (the scalar types it runs on).  Ask :meth:`can`."""

    name: str
    label: str
    kind: str
    variants: Mapping[str, Callable]
    default: str
    citation: str
    labels: Mapping[str, str] = field(default_factory=dict)
    traces: bool = False
    accelerations: Mapping[str, Callable] = field(default_factory=dict)
    inertias: Mapping[str, Callable] = field(default_factory=dict)
    forward_inertia: Mapping[str, Callable] = field(default_factory=dict)
    numeric: bool = True
    symbolic: bool = True

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise ValueError(f"a formulation's name must be an identifier, got {self.name!r}")
        if self.kind not in KINDS:
            raise ValueError(f"formulation {self.name!r}: kind must be one of "
                             f"{', '.join(KINDS)}, got {self.kind!r}")
        if self.default not in self.variants:
            raise ValueError(f"formulation {self.name!r}: default variant {self.default!r} is "
                             f"not among its variants {', '.join(self.variants)}")
        for variant, function in self.variants.items():
            if not callable(function):
                raise TypeError(f"formulation {self.name!r}: variant {variant!r} is not callable")
        for field_name in ("accelerations", "inertias", "forward_inertia"):
            for variant, function in getattr(self, field_name).items():
                if variant not in self.variants or not callable(function):
                    raise ValueError(f"formulation {self.name!r}: {field_name} of {variant!r} "
                                     f"must be a function of one of its variants "
                                     f"{', '.join(self.variants)}")
        if (self.inertias or self.forward_inertia) and self.kind != "torques":
            raise ValueError(f"formulation {self.name!r}: inertias= and forward_inertia= are for "
                             f"a \"torques\" formulation (a \"terms\" one has its own D)")
        for field_name in ("numeric", "symbolic", "traces"):
            if type(getattr(self, field_name)) is not bool:
                raise TypeError(f"formulation {self.name!r}: {field_name} must be True or "
                                f"False, got {getattr(self, field_name)!r}")
        if not (self.numeric or self.symbolic):
            raise ValueError(f"formulation {self.name!r}: it must run on numbers "
                             f"(numeric=True), on SymPy (symbolic=True) or on both")
        if (self.accelerations or self.forward_inertia) and not self.numeric:
            raise ValueError(f"formulation {self.name!r}: accelerations= and forward_inertia= "
                             f"serve compiled forward dynamics, which needs numeric=True")

    def can(self, capability: str, variant: str | None = None) -> bool:
        """Whether ``variant`` (default: the formulation's default) has ``capability``, one of
        :data:`CAPABILITIES`.

        >>> newton_euler = FORMULATIONS["newton_euler"]
        >>> newton_euler.can("traces"), newton_euler.can("own_inertia")
        (True, False)
        """
        if capability not in CAPABILITIES:
            raise ValueError(f"unknown capability {capability!r}; choose one of "
                             f"{', '.join(CAPABILITIES)}")
        variant = self.default if variant is None else variant
        if variant not in self.variants:
            raise ValueError(f"unknown variant {variant!r} of {self.name}; choose one of "
                             f"{', '.join(self.variants)}")
        if capability in ("numeric", "symbolic", "traces"):
            return getattr(self, capability)
        if capability == "terms":
            return self.kind == "terms"
        if capability == "own_inertia":
            return self.kind == "terms" or variant in self.inertias
        return variant in self.accelerations

    def capabilities(self, variant: str | None = None) -> tuple:
        """The capabilities of ``variant`` (default: the default one), in the order of
        :data:`CAPABILITIES`."""
        return tuple(c for c in CAPABILITIES if self.can(c, variant))

    def variant_label(self, variant: str) -> str:
        """``"Newton-Euler (link)"``: the formulation's label and the variant's."""
        return f"{self.label} ({self.labels.get(variant, variant)})"


#: name -> :class:`Formulation`, in the order the menus show them.
FORMULATIONS: dict[str, Formulation] = {}


def register(formulation: Formulation, *, replace: bool = False) -> Formulation:
    """Enter ``formulation`` in the registry (``replace=True`` to change an existing one)."""
    if not isinstance(formulation, Formulation):
        raise TypeError(f"register() takes a Formulation, got {type(formulation).__name__}")
    if formulation.name in FORMULATIONS and not replace:
        raise ValueError(f"a formulation named {formulation.name!r} is already registered "
                         f"(pass replace=True to change it)")
    FORMULATIONS[formulation.name] = formulation
    return formulation


def unregister(name: str) -> None:
    """Remove a formulation (the built-in ones included: a test's toy, say)."""
    if FORMULATIONS.pop(name, None) is None:
        raise ValueError(f"no formulation named {name!r} is registered")


def lookup(method: str, variant: str | None = None) -> tuple:
    """``(Formulation, variant name)`` for ``method`` and ``variant`` (``None``: the default),
    or a ValueError/TypeError that names the choices."""
    if not isinstance(method, str):
        raise TypeError(f"method must be a string naming a formulation ({', '.join(FORMULATIONS)}),"
                        f" got {type(method).__name__} {method!r}")
    formulation = FORMULATIONS.get(method)
    if formulation is None:
        raise ValueError(f"unknown method {method!r}; choose one of {', '.join(FORMULATIONS)}")
    if variant is None:
        return formulation, formulation.default
    if not isinstance(variant, str):
        raise TypeError(f"variant must be a string naming a variant of {method} "
                        f"({', '.join(formulation.variants)}), got {type(variant).__name__} "
                        f"{variant!r}")
    if variant not in formulation.variants:
        raise ValueError(f"unknown variant {variant!r} of {method}; choose one of "
                         f"{', '.join(formulation.variants)}")
    return formulation, variant


def every_variant(capability: str | None = None) -> Iterator[tuple]:
    """Every ``(method, variant)`` of the registry, in order; with ``capability``, those that
    have it (``"numeric"``: the ones a table of numbers can run)."""
    for name, formulation in FORMULATIONS.items():
        for variant in formulation.variants:
            if capability is None or formulation.can(capability, variant):
                yield name, variant


def methods(capability: str | None = None) -> list:
    """The registered formulations' names, in order; with ``capability``, those whose default
    variant has it.

    >>> "newton_euler" in methods("traces") and "lagrange_euler" not in methods("traces")
    True
    """
    return [name for name, formulation in FORMULATIONS.items()
            if capability is None or formulation.can(capability)]


def require(method: str, variant: str | None, capability: str, where: str = "") -> tuple:
    """:func:`lookup`, and a ValueError that names the methods that can when ``method``'s
    ``variant`` lacks ``capability``: what a consumer calls before using a formulation for
    something not every formulation does (``where`` names the consumer in the message)."""
    formulation, variant = lookup(method, variant)
    if not formulation.can(capability, variant):
        by_variant = capability in ("own_inertia", "own_forward_dynamics")
        able = ([f"{m}:{v}" for m, v in every_variant(capability)] if by_variant
                else methods(capability))
        prefix = f"{where}: " if where else ""
        if capability in ("numeric", "symbolic"):
            other = "symbolic" if capability == "numeric" else "numeric"
            what = f"{method} is {other} only"
        else:
            what = f"{method} ({variant}) cannot: it does not {capability_text(capability)}"
        raise ValueError(f"{prefix}{what}; {capability} methods are {', '.join(able)}")
    return formulation, variant


def capability_text(capability: str) -> str:
    """A capability in words, for a message."""
    return {"numeric": "run on numbers", "symbolic": "run on SymPy",
            "terms": "give D, h and c itself", "traces": "return per-link records",
            "own_inertia": "compute D by its own algorithm",
            "own_forward_dynamics": "have forward dynamics of its own"}[capability]


# -- what every formulation needs besides its own equations ---------------------------------------
def friction_and_tip(links, q, qd, tip_force, tip_moment, backend=V.NUMERIC, *,
                     use_friction: bool = True, use_tip: bool = True) -> tuple:
    """Per joint: friction ``b(qd)`` (Schilling (1990), Eq. (6-3-3)) and the torque
    ``J^T (f, m)`` that holds the tool's wrench on its environment (Fu, Gonzalez & Lee (1987),
    Sec. 3.3 boundary condition ``f_{n+1}, n_{n+1}``)."""
    n = len(links)
    friction = [link_friction(link, qdk, backend) if use_friction and link.has_friction else 0
                for link, qdk in zip(links, qd)]
    tip = [0] * n
    if use_tip and any(v != 0 for v in (*tip_force, *tip_moment)):
        J = chain_tool_jacobian(links, q, backend)
        wrench = (*tip_force, *tip_moment)
        tip = [sum(J[r][j] * wrench[r] for r in range(6)) for j in range(n)]
    return friction, tip


def torques_from_terms(terms_function: TermsFunction) -> TorqueRecursion:
    """The ``"torques"`` contract for a ``"terms"`` variant: ``tau = D qdd + h + c + b + J^T w``
    (Fu, Gonzalez & Lee (1987), Eq. (3.2-26))."""
    def torques(links, q, qd, qdd, gravity, tip_force, tip_moment, backend=V.NUMERIC, *,
                use_gravity=True, use_friction=True, use_tip=True, trace=False):
        n = len(links)
        terms = terms_function(links, q, qd, gravity, backend)
        friction, tip = friction_and_tip(links, q, qd, tip_force, tip_moment, backend,
                                         use_friction=use_friction, use_tip=use_tip)
        tau = [sum(terms["D"][i][k] * qdd[k] for k in range(n)) + terms["h"][i]
               + (terms["c"][i] if use_gravity else 0) + friction[i] + tip[i] for i in range(n)]
        return tau, None
    return torques


def torque_recursion(method: str, variant: str | None = None) -> TorqueRecursion:
    """Any variant as a ``"torques"`` function (a ``"terms"`` one through its ``D``, ``h``,
    ``c``)."""
    formulation, variant = lookup(method, variant)
    function = formulation.variants[variant]
    return torques_from_terms(function) if formulation.can("terms", variant) else function


def columns_by_probing(torque_at: Callable, n: int, zero=0.0, one=1.0) -> list:
    """``D`` as rows from ``D e_j = tau(q, 0, e_j)`` with gravity, friction and the tool wrench
    off (Fu, Gonzalez & Lee (1987), Probs. 3.11-3.12): ``torque_at(qdd)`` gives that torque.
    The one probing helper of dynlab (on a tracing tape the zeros fold away).

    >>> columns_by_probing(lambda qdd: [2 * qdd[0] + qdd[1], qdd[0] + 3 * qdd[1]], 2)
    [[2.0, 1.0], [1.0, 3.0]]
    """
    columns = []
    for j in range(n):
        unit = [one if k == j else zero for k in range(n)]
        columns.append(list(torque_at(unit)))
    return [[columns[j][i] for j in range(n)] for i in range(n)]


def inertia_function(method: str, variant: str | None = None) -> Callable:
    """``f(links, q, gravity, backend) -> D`` (rows): a ``"terms"`` variant's own ``D``, a
    ``"torques"`` variant's own (``Formulation.inertias``, e.g. the composite rigid body
    algorithm) or by probing."""
    formulation, variant = lookup(method, variant)
    function = formulation.variants[variant]
    own = formulation.inertias.get(variant)
    if own is not None:
        return own
    if formulation.can("terms", variant):
        def inertia(links, q, gravity, backend=V.NUMERIC):
            zero = [0] * len(links) if backend is V.SYMBOLIC else [0.0] * len(links)
            return [list(row) for row in function(links, q, zero, gravity, backend)["D"]]
        return inertia

    def probed(links, q, gravity, backend=V.NUMERIC):
        symbolic = backend is V.SYMBOLIC
        zero = 0 if symbolic else 0.0
        none = [zero] * len(links)
        off = dict(use_gravity=False, use_friction=False, use_tip=False)
        return columns_by_probing(
            lambda qdd: function(links, q, none, qdd, gravity, (0, 0, 0), (0, 0, 0), backend,
                                 **off)[0], len(links), zero, 1 if symbolic else 1.0)
    return probed


def inertia_and_bias_function(method: str, variant: str | None = None, *,
                              use_gravity: bool = True, use_tip: bool = True,
                              own_inertia: bool = False) -> Callable:
    """``f(links, q, qd, qdd, gravity, tip_force, tip_moment, backend) -> (D, bias)``, ``bias = h +
    c + J^T w`` without friction (``qdd`` ignored): a ``"torques"`` variant's bias is ``tau(q, qd,
    0)`` (Lynch & Park, Sec. 8.5), its ``D`` its own, probed, or with ``own_inertia`` its
    ``forward_inertia``."""
    formulation, variant = lookup(method, variant)
    function = formulation.variants[variant]
    own = formulation.inertias.get(variant)
    fast = formulation.forward_inertia.get(variant) if own_inertia else None
    if not formulation.can("terms", variant):
        def probed(links, q, qd, qdd, gravity, tip_force, tip_moment, backend=V.NUMERIC):
            n = len(links)
            symbolic = backend is V.SYMBOLIC
            zero = [0 if symbolic else 0.0] * n
            bias, _ = function(links, q, qd, zero, gravity, tip_force, tip_moment, backend,
                               use_gravity=use_gravity, use_friction=False, use_tip=use_tip)
            if fast is not None:
                return [list(row) for row in fast(links, q, backend)], list(bias)
            if own is not None:
                return [list(row) for row in own(links, q, gravity, backend)], list(bias)
            off = dict(use_gravity=False, use_friction=False, use_tip=False)
            D = columns_by_probing(
                lambda unit: function(links, q, zero, unit, gravity, tip_force, tip_moment,
                                      backend, **off)[0],
                n, 0 if symbolic else 0.0, 1 if symbolic else 1.0)
            return D, list(bias)
        return probed

    def from_terms(links, q, qd, qdd, gravity, tip_force, tip_moment, backend=V.NUMERIC):
        n = len(links)
        terms = function(links, q, qd, gravity, backend)
        _, tip = friction_and_tip(links, q, qd, tip_force, tip_moment, backend,
                                  use_friction=False, use_tip=use_tip)
        bias = [terms["h"][i] + (terms["c"][i] if use_gravity else 0) + tip[i]
                for i in range(n)]
        return [list(row) for row in terms["D"]], bias
    return from_terms


# -- the built-in formulations -------------------------------------------------------------------
register(Formulation(
    "newton_euler", "Newton-Euler", "torques", newton_euler.VARIANTS, "link",
    "Fu, Gonzalez & Lee (1987), Sec. 3.3: Table 3.3 (link frame, Luh, Walker & Paul) and "
    "Table 3.2 (base frame); Schilling (1990), Algorithm 6-8-1",
    labels={"link": "link frame", "base": "base frame"}, traces=True,
    forward_inertia={"link": composite_bodies.composite_inertia}))
register(Formulation(
    "lagrange_euler", "Lagrange-Euler", "terms", lagrange_euler.VARIANTS, "uicker",
    "Fu, Gonzalez & Lee (1987), Sec. 3.2 (Uicker's 4x4 form); Schilling (1990), Secs. 6-2 to "
    "6-4 (link Jacobians); Lynch & Park, Sec. 8.1 (Christoffel symbols)",
    labels={"uicker": "Uicker 4x4", "jacobian": "link Jacobians",
            "christoffel": "Christoffel"}))
register(Formulation(
    "dalembert", "generalized d'Alembert", "terms", dalembert.VARIANTS, "lee",
    "Fu, Gonzalez & Lee (1987), Sec. 3.4 (Lee's generalized d'Alembert equations)",
    labels={"lee": "Lee"}))
register(Formulation(
    "twist_wrench", "twist-wrench", "torques", twist_wrench.VARIANTS, "poe",
    "Lynch & Park, Modern Robotics, Secs. 8.2-8.4: draft Eqs. (9.53)-(9.57) (product of "
    "exponentials), draft Eqs. (9.77)-(9.84) (closed form); Featherstone (2008), Tables 5.1 "
    "and 7.1",
    labels=twist_wrench.LABELS, traces=True,
    accelerations={"featherstone": featherstone.accelerations_and_pivots},
    inertias={"featherstone": featherstone.inertia_rows}))
