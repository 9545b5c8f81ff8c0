"""Generated code for the equations of motion (the job of the thesis appendix, App. B.5-B.7:
``crunch()``, ``fortbigopt()``, Fortran with counts): :func:`generate` traces a formulation on
the robot's numbers and optimises the program (:mod:`dynlab.engine.optimizer`);
:func:`closed_form` starts from SymPy's ``D``, ``h``, ``c``.  Counted as the thesis appendix and
Fu, Gonzalez & Lee count (calls apart); printed as Python, NumPy, C or Fortran; cached on disk
as JSON keyed by the robot's numbers, the formulation and dynlab's source.

>>> from dynlab.model.robots import planar_2r
>>> code = generate(planar_2r("macsyma"), cache=False)
>>> code.counts                              # beyond the constants (the robot's numbers)
{'mul': 20, 'add': 13, 'div': 0, 'call': 4}
>>> import numpy as np
>>> from dynlab import inverse_dynamics
>>> q, qd, qdd = [0.3, -0.5], [1.0, 2.0], [0.5, -1.0]
>>> bool(np.allclose(code(q, qd, qdd), inverse_dynamics(planar_2r("macsyma"), q, qd, qdd)))
True
"""

from __future__ import annotations

import hashlib
import json

from dynlab.dynamics.inverse import DEFAULT_METHOD
from dynlab.engine.code_cache import (
    cache_directory,
    load_generated,
    robot_fingerprint,
    source_fingerprint,
    store_generated,
)
from dynlab.engine.code_names import code_name, default_name, text_slug
from dynlab.engine.generated import FORMAT, WHAT, Generated, unknown_output
from dynlab.engine.optimizer import STRATEGIES, optimize
from dynlab.engine.program import Program
from dynlab.engine.tracing import Tape, backend_for
from dynlab.formulations import registry as formulations
from dynlab.model.checks import flag
from dynlab.model.ldl import ldl_solve
from dynlab.model.robot import Robot


def optimize_tape(tape: Tape, share: bool = True, strategy: str = "best") -> Program:
    """A tape's live program rewritten by :func:`dynlab.engine.optimizer.optimize`.

    >>> tape = Tape()
    >>> x, y = tape.inputs("x", 2)
    >>> m = 3.0 * (0.5 * x) + -(y * x)         # the tape keeps 3 mul, 1 neg, 1 add
    >>> tape.outputs([m]); tape.counts()
    {'mul': 3, 'add': 2, 'div': 0, 'call': 0}
    >>> optimize_tape(tape).counts()            # 1.5 x - x y: the factors ride along
    {'mul': 2, 'add': 1, 'div': 0, 'call': 0}
    """
    return optimize(tape.program(), share=share, strategy=strategy)


# =================================================================================================
# Tracing a formulation
# =================================================================================================
def record(robot, what: str = "inverse_dynamics", method: str = DEFAULT_METHOD,
          variant: str | None = None, *, gravity: bool = True, friction: bool = True,
          tip_wrench: bool = True) -> tuple:
    """``(tape, layout)``: ``what`` of ``robot`` recorded on a fresh tape by ``method``; ``layout``
    lists ``(name, shape)`` of the outputs.  ``D`` from the formulation's terms or by probing
    (Fu, Gonzalez & Lee, Prob. 3.11), ``bias`` is ``tau`` at ``qdd = 0``, forward dynamics by
    :func:`dynlab.model.ldl.ldl_solve` on the same tape."""
    if not isinstance(what, str) or what not in WHAT:
        raise unknown_output(what)
    _, variant = formulations.require(method, variant, "numeric", "record")
    links, grav, tip_f, tip_m = robot.numeric()
    n = robot.n
    tape = Tape()
    backend = backend_for(tape)
    inputs = {stem: tape.inputs(stem, n) for stem in WHAT[what]}
    q = inputs["q"]
    zero = [0.0] * n
    qd = inputs.get("qd", zero)
    recursion = formulations.torque_recursion(method, variant)
    options = dict(use_gravity=bool(gravity), use_friction=bool(friction),
                   use_tip=bool(tip_wrench))

    def tau(qd_, qdd_, **switches):
        return recursion(links, q, qd_, qdd_, grav, tip_f, tip_m, backend,
                         **{**options, **switches})[0]

    def inertia():
        return formulations.inertia_function(method, variant)(links, q, grav, backend)

    off = dict(use_gravity=False, use_friction=False, use_tip=False)
    if what == "inverse_dynamics":
        outputs, layout = tau(qd, inputs["qdd"]), [("tau", (n,))]
    elif what == "inertia_matrix":
        outputs, layout = [x for row in inertia() for x in row], [("D", (n, n))]
    elif what == "velocity_terms":
        outputs, layout = tau(qd, zero, **off), [("h", (n,))]
    elif what == "gravity_terms":
        outputs = tau(zero, zero, **{**off, "use_gravity": bool(gravity)})
        layout = [("c", (n,))]
    elif what == "bias":
        outputs, layout = tau(qd, zero), [("bias", (n,))]
    elif what == "terms":
        D = inertia()
        h = tau(qd, zero, **off)
        c = tau(zero, zero, **{**off, "use_gravity": bool(gravity)})
        outputs = [x for row in D for x in row] + list(h) + list(c)
        layout = [("D", (n, n)), ("h", (n,)), ("c", (n,))]
    else:
        D = inertia()
        bias = tau(qd, zero)
        rhs = [t - b for t, b in zip(inputs["tau"], bias)]
        outputs, layout = ldl_solve(D, rhs)[0], [("qdd", (n,))]
    tape.outputs(outputs)
    return tape, layout


def generate(robot, what: str = "inverse_dynamics", *, method: str = DEFAULT_METHOD,
             variant: str | None = None, gravity: bool = True, friction: bool = True,
             tip_wrench: bool = True, share: bool = True, strategy: str = "best",
             cache=True, name: str | None = None) -> Generated:
    """Generated code for ``what`` (see :data:`WHAT`) of ``robot`` (numeric parameters),
    traced from ``method``/``variant`` and optimized.  ``cache``: ``True`` (the default
    directory, :func:`cache_directory`), a directory, or ``False``.

    >>> from dynlab.model.robots import puma560
    >>> code = generate(puma560(), cache=False)
    >>> code.counts, sum(code.counts.values())
    ({'mul': 243, 'add': 180, 'div': 0, 'call': 10}, 433)
    >>> code.counts_before                     # the tape's, before optimizing
    {'mul': 277, 'add': 231, 'div': 0, 'call': 10}
    """
    import time
    if not isinstance(robot, Robot):
        raise TypeError(f"expected a dynlab Robot, got {type(robot).__name__}")
    if not isinstance(what, str) or what not in WHAT:
        raise unknown_output(what)
    _, variant = formulations.require(method, variant, "numeric", "generate")
    if not isinstance(strategy, str) or strategy not in STRATEGIES:
        raise (TypeError if not isinstance(strategy, str) else ValueError)(
            f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    options = (*(flag(value, "generate", key) for value, key in (
        (gravity, "gravity"), (friction, "friction"), (tip_wrench, "tip_wrench"),
        (share, "share"))), strategy)
    name = default_name(robot.name, what) if name is None else code_name(name)
    directory = cache_directory(cache)
    memory_key = ("codegen", what, method, variant, options, name)
    found = robot.data.generated_code(memory_key)
    if found is not None:
        return found
    title = f"{robot.name}: {what.replace('_', ' ')} by {method} ({variant})"
    key = hashlib.sha256(json.dumps([FORMAT, what, method, variant, options,
                                     robot_fingerprint(robot), source_fingerprint(), name]
                                    ).encode()).hexdigest()
    stem = (f"{text_slug(robot.name)}-{what}-{method}-{variant}-"
            f"{''.join('01'[o] for o in options[:4])}-{strategy}")
    if directory is not None:
        loaded = load_generated(directory / f"{stem}-{key[:16]}.json", key)
        if loaded is not None:
            robot.data.keep_generated_code(memory_key, loaded)
            return loaded
    start = time.perf_counter()
    tape, layout = record(robot, what, method, variant, gravity=gravity, friction=friction,
                         tip_wrench=tip_wrench)
    program = optimize_tape(tape, share=share, strategy=strategy)
    generated = Generated(program, layout, name=name, title=title,
                          counts_before=tape.counts(), key=key,
                          seconds=time.perf_counter() - start)
    if directory is not None:
        store_generated(directory, stem, generated)
    robot.data.keep_generated_code(memory_key, generated)
    return generated
