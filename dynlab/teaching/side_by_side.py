"""Every numeric formulation of the registry on one arm, side by side: torques, inertia matrices,
timings and operation counts.

>>> from dynlab.model.robots import pendulum
>>> _ = torques_side_by_side(pendulum(), [0.3], [0.0], [0.0])  # doctest: +ELLIPSIS
formulation                                              tau_1 (N m)
Newton-Euler (link frame)                                +2.342055170
Newton-Euler (base frame)                                +2.342055170
Lagrange-Euler (Uicker 4x4)                              +2.342055170
...
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

import numpy as np

from dynlab.dynamics.inverse import equations_of_motion, inverse_dynamics
from dynlab.engine.tracing import compile_joint_function
from dynlab.formulations import registry as formulations


def variants() -> list:
    """``[(method, variant, label), ...]`` for every variant of the registry that runs on
    numbers, in menu order (a formulation that runs on SymPy only is left out of the tables of
    numbers; :func:`symbolic_only` names it).

    >>> variants()[0]
    ('newton_euler', 'link', 'Newton-Euler (link frame)')
    """
    return [(method, variant, formulations.FORMULATIONS[method].variant_label(variant))
            for method, variant in formulations.every_variant("numeric")]


def symbolic_only() -> list:
    """The labels of the registered variants that run on SymPy only, which the tables of
    numbers leave out (a note under a table names them)."""
    return [formulations.FORMULATIONS[method].variant_label(variant)
            for method, variant in formulations.every_variant()
            if not formulations.FORMULATIONS[method].can("numeric", variant)]


def _note_symbolic_only() -> None:
    """A note under a table of numbers naming the variants it leaves out (none, unless a
    formulation that runs on SymPy only is registered)."""
    left_out = symbolic_only()
    if left_out:
        print(f"(not in the table, symbolic only: {', '.join(left_out)})")


@dataclass(frozen=True)
class SideBySide:
    """Torques of each formulation (label -> array) and the largest difference between any of
    them and the first (Newton-Euler in link frames, the registry's first entry)."""

    torques: dict
    spread: float


@dataclass(frozen=True)
class InertiasSideBySide:
    """Inertia matrices ``D(q)`` of each formulation (label -> array) and the largest
    difference between any of them and the first."""

    matrices: dict
    spread: float


def _width(rows) -> int:
    """The label column: the longest label and two spaces, never narrower than its header."""
    return max(len("formulation"), *(len(label) for _, _, label in rows)) + 2


_TORQUE_COLUMN = 14          # "+34.111170027" and its separating spaces


#: how wide a printed table may be: a notebook column holds about 100 characters
_COLUMN = 100

#: the registry's plain-text label parts and how they are written as mathematics
_LABEL_MATHEMATICS = {
    "A^T L^T G L A": r"$\mathcal A^T \mathcal L^T \mathcal G \mathcal L \mathcal A$",
    "4x4": r"$4\times4$"}


def latex_label(label: str) -> str:
    r"""A registry label for Markdown, its mathematics as LaTeX.

    >>> latex_label("Lagrange-Euler (Uicker 4x4)")
    'Lagrange-Euler (Uicker $4\\times4$)'
    >>> latex_label("twist-wrench (closed form A^T L^T G L A)")
    'twist-wrench (closed form $\\mathcal A^T \\mathcal L^T \\mathcal G \\mathcal L \\mathcal A$)'
    """
    for plain, mathematics in _LABEL_MATHEMATICS.items():
        label = label.replace(plain, mathematics)
    return label


class TorqueTable:
    r"""The torques of every formulation as a Markdown table (header :math:`	au_i` and the
    joint's unit, ``decimals`` decimals): what a notebook shows for an arm whose printed table
    would be wider than a column; its plain text is the printed table.

    >>> t = TorqueTable({"a 4x4": np.array([1.5, -0.25])}, ["N m", "N"], decimals=3)
    >>> print(t._repr_markdown_())
    | formulation | $\tau_1$ (N m) | $\tau_2$ (N) |
    |:---|---:|---:|
    | a $4\times4$ | +1.500 | −0.250 |
    >>> t
    formulation   tau_1 (N m)     tau_2 (N)
    a 4x4              +1.500        -0.250
    """

    def __init__(self, torques: dict, units: list, decimals: int = 6, *,
                 symbol: tuple = (r"\tau_{i}", "tau_{i}")):
        self.torques, self.units, self.decimals = torques, units, decimals
        self.symbol = symbol            # the column head, LaTeX and plain, {i} the joint

    def _head(self, i: int, latex: bool) -> str:
        return self.symbol[0 if latex else 1].format(i=i)

    def _number(self, t) -> str:
        return f"{round(float(t), self.decimals) + 0.0:+.{self.decimals}f}"

    def _repr_markdown_(self) -> str:
        head = "| formulation | " + " | ".join(
            f"${self._head(i, True)}$ ({unit})"
            for i, unit in enumerate(self.units, start=1)) + " |"
        rule = "|:---|" + "---:|" * len(self.units)
        rows = [f"| {latex_label(label)} | "
                + " | ".join(self._number(t).replace("-", "−") for t in values) + " |"
                for label, values in self.torques.items()]
        return "\n".join([head, rule, *rows])

    def __repr__(self) -> str:
        width = max(len("formulation"), *(len(label) for label in self.torques)) + 2
        column = max(self.decimals + 5, _TORQUE_COLUMN)
        lines = [f"{'formulation':{width}s}" + "".join(
            f"{f'{self._head(i, False)} ({unit})':>{column}s}"
            for i, unit in enumerate(self.units, start=1))]
        lines += [f"{label:{width}s}" + "".join(f"{self._number(t):>{column}s}" for t in values)
                  for label, values in self.torques.items()]
        return "\n".join(lines)


def torques_side_by_side(robot, q, qd, qdd, *, show: bool = True) -> SideBySide:
    """Every formulation's torques at ``(q, qd, qdd)``, printed one line each (9 decimals) when
    ``show``, with the largest difference between them.  An arm whose printed table would be
    wider than a notebook column (the PUMA's six joints) is shown as a :class:`TorqueTable`
    instead, to 6 decimals."""
    rows = variants()
    torques = {label: inverse_dynamics(robot, q, qd, qdd, method=method, variant=variant)
               for method, variant, label in rows}
    if show:
        units = ["N" if kind == "prismatic" else "N m" for kind in robot.joint_types]
        if _width(rows) + _TORQUE_COLUMN * len(units) <= _COLUMN:
            print(repr(TorqueTable(torques, units, 9)))
        else:
            from IPython.display import display
            display(TorqueTable(torques, units))
        _note_symbolic_only()
    reference = next(iter(torques.values()))
    spread = max(float(np.max(np.abs(t - reference))) for t in torques.values())
    return SideBySide(torques, spread)


def inertias_side_by_side(robot, q, *, show: bool = True,
                          decimals: int = 4) -> InertiasSideBySide:
    """Every formulation's ``D(q)`` (its own algorithm, or probing: Fu, Gonzalez & Lee, Probs.
    3.11-3.12) with the largest difference from the first; ``show`` prints the diagonals.

    >>> from dynlab.model.robots import planar_2r
    >>> table = inertias_side_by_side(planar_2r("lynch_park"), [0.0, 0.0], show=False)
    >>> table.matrices["Newton-Euler (link frame)"].round(12).tolist(), table.spread < 1e-12
    ([[2.62, 0.72], [0.72, 0.32]], True)
    """
    rest = [0.0] * robot.n
    matrices = {label: np.asarray(equations_of_motion(robot, q, rest, method=method,
                                                      variant=variant).D, dtype=float)
                for method, variant, label in variants()}
    if show:
        from IPython.display import display
        display(TorqueTable({label: np.diag(D) for label, D in matrices.items()},
                            ["kg" if kind == "prismatic" else "kg m²"
                             for kind in robot.joint_types], decimals,
                            symbol=("D_{{{i}{i}}}", "D_{i}{i}")))
        _note_symbolic_only()
    reference = next(iter(matrices.values()))
    spread = max(float(np.max(np.abs(D - reference))) for D in matrices.values())
    return InertiasSideBySide(matrices, spread)


def median_seconds(call, number: int, runs: int = 5) -> float:
    """Seconds of one ``call()``: the median over ``runs`` runs of ``number`` calls, after one
    call to warm up (a measurement, different on every run and machine).

    >>> median_seconds(lambda: None, 10) < 1e-3
    True
    """
    call()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(number):
            call()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


def seconds_per_call(robot, q, qd, qdd, *, number: int = 200, show: bool = True) -> list:
    """``[(label, compiled seconds, step-by-step seconds), ...]``: the median over 5 runs of one
    numeric call of each formulation, compiled (the slider path) and step by step."""
    rows = []
    entries = variants()
    width = _width(entries)
    if show:
        print(f"{'formulation':{width}s}{'compiled':>12s}{'step by step':>16s}   (µs per call)")
    for method, variant, label in entries:
        timings = {}
        for compiled, count in ((True, number), (False, max(5, number // 20))):
            def call():
                return inverse_dynamics(robot, q, qd, qdd, method=method, variant=variant,
                                        compiled=compiled)
            timings[compiled] = median_seconds(call, count)
        rows.append((label, timings[True], timings[False]))
        if show:
            print(f"{label:{width}s}{1e6 * timings[True]:12.1f}{1e6 * timings[False]:16.1f}")
    if show:
        _note_symbolic_only()
    return rows


def _torques_of(recursion):
    def torques(*args, **options):
        return recursion(*args, **options)[0]
    return torques


def traced_operations(robot, method: str, variant: str | None = None) -> dict:
    """Multiplications, additions, divisions and function calls (``mul``, ``add``, ``div``,
    ``call``) of the straight-line program that ``method``/``variant`` traces on ``robot``'s
    numbers: what is left of the formulation once the arm's zeros and ones are folded away.

    >>> from dynlab.model.robots import pendulum
    >>> traced_operations(pendulum(), "newton_euler")["mul"] > 0
    True
    """
    formulation, variant = formulations.require(method, variant, "numeric", "traced_operations")
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
    if show:
        print(f"{'formulation':{width}s}{'mul':>6s}{'add':>7s}{'div':>6s}  sin/cos/...")
    for method, variant, label in entries:
        counts[label] = c = traced_operations(robot, method, variant)
        if show:
            print(f"{label:{width}s}{c['mul']:6d}{c['add']:7d}{c['div']:6d}{c['call']:13d}")
    if show:
        _note_symbolic_only()
    return counts
