"""Every formulation of the registry on one arm, side by side: the torques they give at one
state and how far apart they are, the time one call takes, and the operations of each one's
straight-line program.  The chapters on the pendulum, the two-link arm, the SCARA and the PUMA
560 end with these three tables.

Each row is labelled by the registry (:mod:`dynlab.formulations`), so a formulation added there
appears here without a change.

>>> from dynlab.robots import pendulum
>>> arm = pendulum()
>>> table = torques_side_by_side(arm, [0.3], [0.0], [0.0], show=False)
>>> print(round(float(table.torques["Newton-Euler (link frame)"][0]), 6))
2.342055
>>> table.spread < 1e-12
True
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

import numpy as np

from dynlab import formulations
from dynlab.dynamics import inverse_dynamics
from dynlab.tracing import compile_joint_function


def variants() -> list:
    """``[(method, variant, label), ...]`` for every variant of the registry, in menu order.

    >>> variants()[0]
    ('newton_euler', 'link', 'Newton-Euler (link frame)')
    """
    return [(method, variant, formulations.FORMULATIONS[method].variant_label(variant))
            for method, variant in formulations.every_variant()]


@dataclass(frozen=True)
class SideBySide:
    """Torques of each formulation (label -> array) and the largest difference between any of
    them and the first (Newton-Euler in link frames, the registry's first entry)."""

    torques: dict
    spread: float


def _width(rows) -> int:
    return max(len(label) for _, _, label in rows) + 2


def torques_side_by_side(robot, q, qd, qdd, *, show: bool = True) -> SideBySide:
    """Every formulation's torques at ``(q, qd, qdd)``, printed one line each (9 decimals) when
    ``show``, with the largest difference between them."""
    rows = variants()
    width = _width(rows)
    torques = {}
    for method, variant, label in rows:
        torques[label] = inverse_dynamics(robot, q, qd, qdd, method=method, variant=variant)
        if show:
            print(f"{label:{width}s}" + "  ".join(f"{round(float(t), 9) + 0.0:+13.9f}"
                                                  for t in torques[label]))
    reference = next(iter(torques.values()))
    spread = max(float(np.max(np.abs(t - reference))) for t in torques.values())
    return SideBySide(torques, spread)


def seconds_per_call(robot, q, qd, qdd, *, number: int = 200, show: bool = True) -> list:
    """``[(label, compiled seconds, step-by-step seconds), ...]``: the median over 5 runs of one
    numeric call of each formulation, compiled (the slider path) and step by step."""
    rows = []
    entries = variants()
    width = _width(entries)
    for method, variant, label in entries:
        timings = {}
        for compiled, count in ((True, number), (False, max(5, number // 20))):
            def call():
                return inverse_dynamics(robot, q, qd, qdd, method=method, variant=variant,
                                        compiled=compiled)
            call()
            runs = []
            for _ in range(5):
                start = time.perf_counter()
                for _ in range(count):
                    call()
                runs.append((time.perf_counter() - start) / count)
            timings[compiled] = statistics.median(runs)
        rows.append((label, timings[True], timings[False]))
        if show:
            print(f"{label:{width}s}compiled {1e6 * timings[True]:9.1f} us   step by step "
                  f"{1e6 * timings[False]:10.1f} us")
    return rows


def _torques_of(recursion):
    def torques(*args, **options):
        return recursion(*args, **options)[0]
    return torques


def traced_operations(robot, method: str, variant: str | None = None) -> dict:
    """Multiplications, additions, divisions and function calls (``mul``, ``add``, ``div``,
    ``call``) of the straight-line program that ``method``/``variant`` traces on ``robot``'s
    numbers: what is left of the formulation once the arm's zeros and ones are folded away.

    >>> from dynlab.robots import pendulum
    >>> traced_operations(pendulum(), "newton_euler")["mul"] > 0
    True
    """
    formulation, variant = formulations.lookup(method, variant)
    recursion = formulations.torque_recursion(method, variant)
    _, tape = compile_joint_function(
        robot, ("inverse_dynamics", method, variant, True, True, True), _torques_of(recursion),
        use_gravity=True, use_friction=True, use_tip=True)
    return tape.counts()


def operation_counts(robot, *, show: bool = True) -> dict:
    """label -> :func:`traced_operations` for every formulation of the registry, printed one
    line each when ``show``."""
    counts = {}
    entries = variants()
    width = _width(entries)
    for method, variant, label in entries:
        counts[label] = c = traced_operations(robot, method, variant)
        if show:
            print(f"{label:{width}s}{c['mul']:6d} mul {c['add']:6d} add {c['div']:3d} div "
                  f"{c['call']:3d} sin/cos/...")
    return counts
