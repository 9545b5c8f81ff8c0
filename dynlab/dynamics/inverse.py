"""The public entry points: ``inverse_dynamics``, ``equations_of_motion``, ``torque_parts``,
``probe``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import sympy

from dynlab.dynamics.equations import EquationsOfMotion, Progress
from dynlab.engine import short_cut
from dynlab.engine.tracing import compile_joint_function
from dynlab.formulations import registry as formulations
from dynlab.formulations.trace import Trace
from dynlab.model.checks import check_finite, flag
from dynlab.model.friction import joint_friction, link_friction
from dynlab.model.kinematics import resolve
from dynlab.model.robot import Robot, joint_symbols
from dynlab.model.robot_data import ShortCut
from dynlab.model.symbolic import compact, worth_compacting
from dynlab.model.vectors import NUMERIC

#: The method of the numeric calls when none is named (inverse and forward dynamics, simulation,
#: generated code): Luh's link-frame Newton-Euler recursion, because it costs ``O(n)``, the
#: fewest operations of the three formulations (Fu, Gonzalez & Lee, Table 3.5: 132n
#: multiplications against Lagrange-Euler's ``O(n^4)``), and its tape is the shortest program
#: the short cut compiles (the PUMA 560's torques: 518 lines).  :func:`equations_of_motion` has
#: its own default and says why at :data:`LAGRANGE_EULER_UP_TO`.
DEFAULT_METHOD = "newton_euler"


def inverse_dynamics(robot: Robot, q: Sequence, qd: Sequence, qdd: Sequence, *,
                     method: str = DEFAULT_METHOD, variant: str | None = None,
                     gravity: bool = True, friction: bool = True, tip_wrench: bool = True,
                     trace: bool = False, simplify: bool | None = None,
                     compiled: bool = True):
    """Joint torques/forces ``tau`` that produce ``qdd`` at ``(q, qd)``: a NumPy array on numbers
    (traced once per robot, then its short cut; ``compiled=False`` step by step), a SymPy column
    on symbols (``simplify``: :func:`dynlab.model.symbolic.compact`).  ``method``/``variant``:
    ``"newton_euler"`` (``"link"``: Fu, Gonzalez & Lee, Table 3.3; ``"base"``: Table 3.2,
    Schilling, Algorithm 6-8-1), ``"lagrange_euler"`` (``"uicker"``, ``"jacobian"``,
    ``"christoffel"``), ``"dalembert"``, ``"twist_wrench"``.  ``gravity``, ``friction``,
    ``tip_wrench`` switch terms off; ``trace=True`` also returns the per-link
    :class:`dynlab.formulations.trace.Trace`.

    >>> import sympy
    >>> from dynlab.model.link import Link
    >>> from dynlab.model.robot import Robot, joint_symbols
    >>> m, a, g = sympy.symbols("m a g", positive=True)
    >>> (q1,), (qd1,), (qdd1,) = joint_symbols(1)
    >>> rod = Robot([Link("R", a=a, mass=m, com=(-a / 2, 0, 0),
    ...                   inertia=sympy.diag(0, m * a**2 / 12, m * a**2 / 12), name="link 1")],
    ...             gravity=(0, -g, 0))
    >>> sympy.expand(inverse_dynamics(rod, [q1], [qd1], [qdd1])[0])  # Schilling, Sec. 6-9
    a**2*m*qdd1/3 + a*g*m*cos(q1)/2
    >>> sympy.expand(inverse_dynamics(rod, [q1], [qd1], [qdd1], method="lagrange_euler")[0])
    a**2*m*qdd1/3 + a*g*m*cos(q1)/2
    """
    if (variant is None and gravity is True and friction is True and tip_wrench is True
            and trace is False and compiled is True and simplify is None
            and type(method) is str and method == DEFAULT_METHOD and isinstance(robot, Robot)):
        # the default call (a slider's, a loop's; the method is this function's default, not
        # a choice of behaviour): its entry is one field of the robot's data, no key built
        fast = robot.data.default_inverse
    else:
        fast = _fast_path(robot, method, variant, gravity, friction, tip_wrench, trace,
                          simplify, compiled)
    if fast is not None:
        # plain finite floats in and out, else None (dynlab.engine.short_cut)
        tau = short_cut.run(fast, robot, q, qd, qdd)
        if tau is not None:
            return tau
        # anything else (other types, inf or NaN in or out) goes the checked way below, which
        # names the cause
    variant_given = variant is not None
    formulation, variant = formulations.lookup(method, variant)
    where = "inverse_dynamics"
    options = dict(use_gravity=flag(gravity, where, "gravity"),
                   use_friction=flag(friction, where, "friction"),
                   use_tip=flag(tip_wrench, where, "tip_wrench"))
    trace, compiled = flag(trace, where, "trace"), flag(compiled, where, "compiled")
    simplify = flag(simplify, where, "simplify", allow_none=True)
    if trace and not formulation.can("traces", variant):
        tracing = formulations.methods("traces")
        raise ValueError(f"trace=True is available for method={' or '.join(map(repr, tracing))}"
                         f" only, not {method!r}")
    symbolic, backend, (links, grav, tip_f, tip_m), vec = resolve(robot, q=q, qd=qd, qdd=qdd)
    formulations.require(method, variant, "symbolic" if symbolic else "numeric",
                         "inverse_dynamics")
    recursion = formulations.torque_recursion(method, variant)
    tau, records = recursion(links, vec["q"], vec["qd"], vec["qdd"], grav, tip_f, tip_m,
                             backend, trace=trace, **options)
    table = trace and Trace(records, frame=variant, symbolic=symbolic, title=formulation.label,
                            variant_label=formulation.labels.get(variant, variant))
    if symbolic:
        result = sympy.Matrix(tau)
        if simplify or (simplify is None and robot.n <= 3 and worth_compacting(result)):
            result = compact(result)
    else:       # inputs are finite, so inf or NaN means an overflow
        result = check_finite("tau", np.array(tau, dtype=float), robot.name, vec)
    if trace:
        return result, table
    if not symbolic and compiled:
        # the slider path: this call checked the arguments and the result; the next one with
        # plain floats traces the formulation into straight-line float code and runs that
        # (dynlab.engine.short_cut)
        switches = (method, variant if variant_given else None, gravity, friction, tip_wrench)
        if robot.data.inverse_short_cut(*switches) is None:
            recipe = (("inverse_dynamics", method, variant, *options.values()),
                      _torques_only(recursion), options)
            robot.data.keep_inverse_short_cut(*switches, ShortCut(None, None, recipe=recipe),
                                              default=switches == _DEFAULT_OPTIONS)
    return result


#: The options of the default call (Newton-Euler, link frames, every term): its short cut is
#: also the robot data's ``default_inverse``.
_DEFAULT_OPTIONS = (DEFAULT_METHOD, None, True, True, True)


def _fast_path(robot, method, variant, gravity, friction, tip_wrench, trace, simplify,
               compiled):
    """The :class:`~dynlab.model.robot_data.ShortCut` an earlier call with these very arguments
    stored, or None; only exact booleans and strings match (``1`` is not ``True``)."""
    if (trace is not False or compiled is not True or simplify is not None
            or type(method) is not str or not (variant is None or type(variant) is str)
            or type(gravity) is not bool or type(friction) is not bool
            or type(tip_wrench) is not bool or not isinstance(robot, Robot)):
        return None
    return robot.data.inverse_short_cut(method, variant, gravity, friction, tip_wrench)


def _convert(value, symbolic: bool):
    """Nested lists of scalars as SymPy matrices (lists of them beyond 2-D) or NumPy arrays."""
    if isinstance(value, dict):
        return {key: _convert(v, symbolic) for key, v in value.items()}
    if not isinstance(value, (list, tuple)):
        return value
    if not symbolic:
        return np.array(value, dtype=float)
    depth, probe_value = 0, value
    while isinstance(probe_value, (list, tuple)):
        depth, probe_value = depth + 1, probe_value[0]
    if depth == 1:
        return sympy.Matrix(value)
    if depth == 2:
        return sympy.Matrix([list(row) for row in value])
    return [_convert(item, symbolic) for item in value]


#: :func:`equations_of_motion` without a ``method`` derives by Lagrange-Euler on chains of up to
#: this many joints and by Newton-Euler on longer ones.  Lagrange-Euler is the default because
#: its pieces (``U_ij``, ``h_ikm``, ``C_i`` of Fu, Gonzalez & Lee, Eqs. (3.2-31)-(3.2-34)) are
#: what the chapters print, for arms of up to 6 joints.  But it costs ``O(n^4)`` (Fu, Gonzalez
#: & Lee, Table 3.1: ``n^3`` terms ``h_ikm``, each a sum over ``n`` links): measured on numbers,
#: 0.06 s at 12 joints, 1.6 s at 30, 45 s at 60, about 1.5 h at 200.  Newton-Euler, probed
#: (``n + 1`` runs of ``O(n)``, Table 3.5's law), takes 0.08 s at 12 joints, 0.3 s at 30, 5 s at
#: 200: beyond 12 joints the old default would be a hang in disguise.
LAGRANGE_EULER_UP_TO = 12


def equations_of_motion(robot: Robot, q: Sequence | None = None, qd: Sequence | None = None, *,
                        method: str | None = None, variant: str | None = None,
                        simplify: bool | None = None, progress: bool = False
                        ) -> EquationsOfMotion:
    """The equations of motion ``tau = D qdd + h + c + b + J^T w`` of ``robot`` by ``method``
    (default ``"lagrange_euler"`` up to :data:`LAGRANGE_EULER_UP_TO` joints, else
    ``"newton_euler"``, probed: Fu, Gonzalez & Lee, Probs. 3.11-3.12); symbolic without ``q``,
    ``qd``, evaluated with them; ``progress=True`` prints each stage.

    >>> from dynlab.model.robots import puma560
    >>> eom = equations_of_motion(puma560(joints=2), method="lagrange_euler")
    >>> eom.D[1, 1]   # Izz2 + m2 ((a2 + rx2)^2 + ry2^2) = 0.539 + 17.4 (0.068^2 + 0.006^2)
    0.620084000000000
    >>> eom.compare(equations_of_motion(puma560(joints=2), method="newton_euler"))
    lagrange_euler and newton_euler agree in D, h, c, friction and tip
    """
    import time
    if method is None:
        long_chain = isinstance(robot, Robot) and robot.n > LAGRANGE_EULER_UP_TO
        method = "newton_euler" if long_chain and variant is None else "lagrange_euler"
    formulation, variant = formulations.lookup(method, variant)
    simplify = flag(simplify, "equations_of_motion", "simplify", allow_none=True)
    progress = flag(progress, "equations_of_motion", "progress")
    if (q is None) != (qd is None):
        raise ValueError("give both q and qd (an evaluated result) or neither (a symbolic one)")
    start = time.perf_counter()
    default_state = q is None
    if default_state and isinstance(robot, Robot):
        q, qd, _ = joint_symbols(robot.n)
    symbolic, backend, (links, grav, tip_f, tip_m), vec = resolve(robot, q=q, qd=qd)
    formulations.require(method, variant, "symbolic" if symbolic else "numeric",
                         "equations_of_motion")
    n = robot.n
    if not formulation.can("terms", variant):
        def routine(q_, qd_, qdd_, **switches):
            return inverse_dynamics(robot, q_, qd_, qdd_, method=method, variant=variant,
                                    simplify=False, **switches)
        # probed at the state as resolved (floats when every entry is a number, SymPy numbers
        # such as pi/4 included; else exact values), or at the joint symbols by default
        given = None if default_state else vec
        own = formulation.inertias.get(variant)        # e.g. Featherstone's CRBA for D
        eom = probe(robot, routine, None if given is None else given["q"],
                    None if given is None else given["qd"], simplify=simplify,
                    inertia=None if own is None else (
                        lambda q_: own(links, q_, grav, backend)))
        eom.method = method
        eom.seconds = time.perf_counter() - start
        if symbolic and not default_state:
            eom.q, eom.qd = q, qd            # as given, like the other methods
        if not symbolic:
            _check_finite_terms(eom, robot, vec)
        return eom
    report = Progress(progress, f"{method} ({variant}) for {robot.name}")
    terms = formulation.variants[variant](links, vec["q"], vec["qd"], grav, backend)
    report.say("derived D, h, c")
    friction, tip = formulations.friction_and_tip(links, vec["q"], vec["qd"], tip_f, tip_m,
                                                  backend)
    main = {key: _convert(terms.pop(key), symbolic) for key in ("D", "h", "c")}
    extras = {key: _convert(value, symbolic) for key, value in terms.items()}
    eom = EquationsOfMotion(robot, method, main["D"], main["h"], main["c"],
                            _convert(friction, symbolic), _convert(tip, symbolic),
                            q=q if symbolic else None, qd=qd if symbolic else None,
                            state=None if symbolic else (np.asarray(vec["q"]),
                                                         np.asarray(vec["qd"])),
                            terms=extras)
    if symbolic and (simplify or (simplify is None and n <= 3 and all(
            worth_compacting(m) for m in (eom.D, eom.h, eom.c)))):
        eom = eom.simplified(progress=progress)
    report.done()
    eom.method = method
    eom.seconds = time.perf_counter() - start
    if not symbolic:
        _check_finite_terms(eom, robot, vec)
    return eom


def _check_finite_terms(eom: EquationsOfMotion, robot: Robot, state: dict) -> None:
    """An evaluated ``D``, ``h``, ``c``, friction and tip torque must be finite (inputs are, so
    inf or NaN is an overflow): :class:`dynlab.model.checks.NotFiniteError` naming the term."""
    for name in ("D", "h", "c", "friction", "tip"):
        value = getattr(eom, name, None)
        if value is not None:
            check_finite(name, np.asarray(value, dtype=float), robot.name, state)


#: The parts of the joint torques (:func:`torque_parts`), in the order of Fu, Gonzalez & Lee,
#: Eq. (3.2-26), then Schilling's friction, Eq. (6-3-3), and the torque that holds the tool's
#: wrench.
PARTS = ("inertial", "coriolis", "gravity", "friction", "tip")


def torque_parts(robot: Robot, q: Sequence, qd: Sequence, qdd: Sequence, *,
                 method: str = DEFAULT_METHOD, variant: str | None = None) -> dict:
    """Every part of ``tau = D qdd + h + c + b + J^T w`` (Fu, Gonzalez & Lee, Eq. (3.2-26);
    Schilling, Eq. (6-3-3)) at a numeric state: :data:`PARTS` and ``"total"``, from the
    formulation's own terms or by probing (Probs. 3.11-3.12) traced once on one tape.

    >>> from dynlab.model.robots import pendulum
    >>> parts = torque_parts(pendulum(), [0.0], [0.0], [1.0])
    >>> parts["inertial"], parts["gravity"], parts["total"]    # m a^2/3 qdd, m g a/2 cos(q)
    (array([0.08333333]), array([2.45155]), array([2.53488333]))
    """
    formulation, variant = formulations.require(method, variant, "numeric", "torque_parts")
    if formulation.can("terms", variant):       # (equations_of_motion checks q and qd)
        eom = equations_of_motion(robot, q, qd, method=method, variant=variant)
        symbolic, _, (links, *_), vec = resolve(robot, qdd=qdd)
        vec.update(q=q, qd=qd)
        symbolic = symbolic or eom.symbolic
    else:
        eom = None
        symbolic, _, (links, *_), vec = resolve(robot, q=q, qd=qd, qdd=qdd)
    if symbolic:
        raise TypeError(f"{robot.name}: torque_parts works on numbers; for symbols use "
                        f"dynlab.equations_of_motion")
    if eom is not None:
        parts = {"inertial": eom.D @ np.array(vec["qdd"]), "coriolis": eom.h, "gravity": eom.c,
                 "friction": eom.friction, "tip": eom.tip}
    else:
        function, _ = compile_joint_function(robot, ("torque_parts", method, variant),
                                             _probes(formulations.torque_recursion(method,
                                                                                   variant)))
        values = np.array(function(vec["q"], vec["qd"], vec["qdd"]))
        n = robot.n
        parts = {part: values[k * n:(k + 1) * n]
                 for k, part in enumerate(("inertial", "coriolis", "gravity", "tip"))}
        parts["friction"] = np.array([link_friction(link, v, NUMERIC) if link.has_friction
                                      else 0.0 for link, v in zip(links, vec["qd"])])
    parts = {part: parts[part] for part in PARTS}
    parts["total"] = total = sum(parts.values())
    if not np.isfinite(total).all():        # an inf or NaN in any part shows in the total
        for part, value in parts.items():
            check_finite(part, value, robot.name, vec)
    return parts


def _probes(recursion):
    """:func:`torque_parts`' four probing runs of a torque recursion, one after the other."""
    def parts(links, q, qd, qdd, gravity, tip_force, tip_moment, backend):
        zero = [0.0] * len(links)
        off = dict(use_gravity=False, use_friction=False, use_tip=False)

        def run(qd_, qdd_, **on):
            return list(recursion(links, q, qd_, qdd_, gravity, tip_force, tip_moment, backend,
                                  **{**off, **on})[0])
        return (run(zero, qdd) + run(qd, zero) + run(zero, zero, use_gravity=True)
                + run(zero, zero, use_tip=True))
    return parts


def _torques_only(recursion):
    def torques(*args, **options):
        return recursion(*args, **options)[0]
    return torques


#: :func:`probe`'s default routine (its parameter of that name hides the function)
_inverse_dynamics = inverse_dynamics


# -- probing an inverse-dynamics routine --------------------------------------------------------
def probe(robot: Robot, inverse_dynamics: Callable | None = None, q=None, qd=None,
          simplify: bool | None = None, inertia: Callable | None = None) -> EquationsOfMotion:
    """``D``, ``h``, ``c`` (and friction, tip) of any ``inverse_dynamics(q, qd, qdd, gravity=...,
    friction=..., tip_wrench=...)`` by ``n + 2`` probing calls (Fu, Gonzalez & Lee, Probs.
    3.11-3.12); ``inertia(q) -> D`` replaces the ``n`` probes; ``q``, ``qd`` default to symbols.

    >>> from dynlab.model.link import Link
    >>> from dynlab.model.robot import Robot
    >>> m, l, g = sympy.symbols("m l g", positive=True)
    >>> rod = Robot([Link("R", a=l, mass=m, com=(-l / 2, 0, 0),
    ...                   inertia=sympy.diag(0, m * l**2 / 12, m * l**2 / 12), name="link 1")],
    ...             gravity=(0, -g, 0))
    >>> eom = probe(rod)
    >>> eom.D, eom.h, eom.c
    (Matrix([[l**2*m/3]]), Matrix([[0]]), Matrix([[g*l*m*cos(q1)/2]]))
    """
    if inverse_dynamics is None:
        def inverse_dynamics(q, qd, qdd, **switches):
            return _inverse_dynamics(robot, q, qd, qdd, simplify=False, **switches)
    n = robot.n
    symbolic = q is None
    if symbolic:
        q, qd, _ = joint_symbols(n)
    else:   # a given state: numbers (an evaluated result), or symbols or a symbolic robot
        symbolic, _, _, given = resolve(robot, q=q, qd=qd)
        q, qd = given["q"], given["qd"]
    zero = [0] * n if symbolic else np.zeros(n)
    off = dict(friction=False, tip_wrench=False)
    c = inverse_dynamics(q, zero, zero, gravity=True, **off)
    h = inverse_dynamics(q, qd, zero, gravity=False, **off)
    columns = []
    own = None if inertia is None else [list(row) for row in inertia(q)]
    for j in range(n):
        if own is not None:
            columns.append([own[i][j] for i in range(n)])
            continue
        unit = [0] * n if symbolic else np.zeros(n)
        unit[j] = 1
        columns.append(inverse_dynamics(q, zero, unit, gravity=False, **off))
    tip = (inverse_dynamics(q, zero, zero, gravity=False, friction=False, tip_wrench=True)
           if robot.has_tip_wrench else None)
    friction = joint_friction(robot, qd)
    if symbolic:
        D = sympy.Matrix.hstack(*[sympy.Matrix(column) for column in columns])
        eom = EquationsOfMotion(robot, "probe", D, sympy.Matrix(h), sympy.Matrix(c),
                                sympy.Matrix(friction), None if tip is None else sympy.Matrix(tip),
                                q=q, qd=qd)
        if simplify or (simplify is None and n <= 3 and all(
                worth_compacting(m) for m in (eom.D, eom.h, eom.c))):
            eom = eom.simplified()
        return eom
    return EquationsOfMotion(robot, "probe", np.column_stack(columns).astype(float), np.asarray(h),
                             np.asarray(c), np.asarray(friction), tip, state=(np.asarray(q),
                                                                               np.asarray(qd)))
