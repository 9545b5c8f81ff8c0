"""The short cut of ``inverse_dynamics`` and ``forward_dynamics``: :func:`run` runs a kept
:class:`dynlab.model.robot_data.ShortCut` on plain floats: the traced program first (Python, or
C from :data:`C_AT_ONCE` lines), the optimised one after :data:`OPTIMIZE_AFTER` calls (C when
:func:`dynlab.engine.native.worth_compiling`).  Every function returns the outputs, or None
when an input or output is not finite (the caller's checked way names it).

>>> from dynlab.engine.tracing import Tape
>>> from dynlab.model.robot_data import ShortCut
>>> tape = Tape()
>>> q, qd, qdd = (tape.inputs(stem, 1)[0] for stem in ("q", "qd", "qdd"))
>>> tape.outputs([q * qd + qdd])
>>> entry = ShortCut(None, tape)
>>> run(entry, None, [2.0], [3.0], [1.0]), run(entry, None, [2.0], [float("nan")], [1.0])
(array([7.]), None)
"""

from __future__ import annotations

from dynlab.engine import native
from dynlab.engine.optimizer import optimize
from dynlab.engine.tracing import compile_joint_function, short_cut_function, worth_optimizing

#: Calls after which the short cut runs the optimised program (a program longer than
#: :data:`dynlab.engine.tracing.OPTIMIZE_LIMIT` is not optimised).
OPTIMIZE_AFTER = 200

#: A program of at least this many lines runs as C from the first short-cut call on (a chain of
#: ten links or more; the PUMA 560's torques have 518 lines, its forward dynamics 990): the
#: Python code of a long program costs more per call than the compiler costs once.
C_AT_ONCE = 2000


def run(entry, robot, q, qd, x):
    """The program of ``entry`` (a :class:`dynlab.model.robot_data.ShortCut` of ``robot``) on
    ``(q, qd, x)``: a NumPy array, or None for the checked way; traced, compiled or replaced as
    the module says."""
    calls = entry.calls = entry.calls + 1
    if calls == 1 or calls == OPTIMIZE_AFTER:
        entry.function = _compiled(entry, robot, calls == OPTIMIZE_AFTER)
    return entry.function(q, qd, x)


def _compiled(entry, robot, optimised: bool):
    """The function ``entry`` runs from now on (see the module's text)."""
    if entry.tape is None:
        key, recursion, options = entry.recipe
        entry.tape = compile_joint_function(robot, key, recursion, **options)[1]
    tape = entry.tape
    if optimised:
        if not worth_optimizing(tape):
            return entry.function
        program = optimize(tape.program())
        wants_c = native.worth_compiling(program)
    else:
        program = tape.program()
        wants_c = len(program) >= C_AT_ONCE
    if wants_c:
        function = native.short_cut_function(program)
        if function is not None:
            return function
    return short_cut_function(program)
