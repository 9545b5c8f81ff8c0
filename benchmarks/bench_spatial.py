"""Cost of the twist-wrench recursions and of Featherstone's articulated body algorithm against n.

    python benchmarks/bench_spatial.py [--repeat 15] [--number 200] [--nmax 24] [--step 2]

Prints, for generic chains (:func:`dynlab.engine.opcount.generic_chain`, every parameter
non-zero) of n = 2..``--nmax`` joints:

* the median CPU time (``time.process_time``) of one forward dynamics ``qdd(q, qd, tau)`` by the
  articulated body algorithm (Featherstone (2008), Table 7.1) step by step on floats
  (:func:`dynlab.formulations.featherstone.articulated_body`, the algorithm as written: the
  criterion's measure) and compiled into straight-line code
  (``forward_dynamics(..., method="twist_wrench", variant="featherstone")``'s inner call, with
  the length of that program), beside the compiled
  ``D qdd = tau - bias`` solve of Newton-Euler (``D`` probed column by column, ``L D L^T``);
  for each, the slope of a log-log fit over all n and from n = 8 on (goal for ABA: within 0.1
  of 1), the least-squares line ``t = a n + b`` with its largest relative residual, and the
  marginal cost of one more link.  Nothing is subtracted: every call includes its fixed cost.
  An ``O(n)`` algorithm whose first link (no inward update to a parent) and last link (a
  constant articulated inertia, which the tracer folds) cost less than the others has
  ``b < 0``, and then the log-log slope of ``a n + b`` over a range that starts at ``n = 2`` is
  above 1 (it tends to 1 as ``n`` grows), however constant the marginal cost;
* operations as written (:func:`dynlab.engine.opcount.count_operations`) of the twist-wrench inverse
  dynamics (product of exponentials, joint frames, matrix form), and the laws in n of the
  spatial RNEA, the CRBA and the ABA as written and as traced
  (:func:`dynlab.engine.opcount.operation_law_rows`), beside Luh's recursion counted the same
  way, Fu, Gonzalez & Lee's Table 3.4 (Luh's recursion for a PUMA arm: ``117 n - 24``
  multiplications, ``103 n - 21`` additions) and Hollerbach's (1980) count of Luh's recursion for
  a general arm (``150 n - 48``, ``131 n - 48``; Schilling, Sec. 6-8 quotes its values for
  n = 6, 852 and 738).

Timings are medians over ``--repeat`` runs of ``--number`` calls (CPU time of this process: the
machine is shared); reported, never asserted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from timing import median_us

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dynlab.dynamics.forward import compiled_accelerations
from dynlab.engine.opcount import (
    count_operations,
    fit_exponent,
    generic_chain,
    operation_law_rows,
    polynomial_law,
    polynomial_text,
)
from dynlab.formulations.featherstone import articulated_body
from dynlab.model import vectors as V
from dynlab.teaching.textbook.printed_counts import table_3_4


def median_cpu_us(call, number: int, repeat: int) -> float:
    """:func:`timing.median_us` on this process's CPU time (``time.process_time``)."""
    return median_us(call, number, repeat, clock=time.process_time)


def fits(ns, ts) -> dict:
    """The log-log slope over all ``ns`` and from ``n = 8`` on, the least-squares line
    ``t = a n + b`` with its largest relative residual, and the marginal cost of one more link
    (differences of neighbouring points divided by their step)."""
    ns, ts = np.asarray(ns, float), np.asarray(ts, float)
    a, b = np.polyfit(ns, ts, 1)
    tail = ns >= 8
    return {"slope": fit_exponent(ns, ts),
            "slope from 8": fit_exponent(ns[tail], ts[tail]) if tail.sum() >= 2 else float("nan"),
            "a": a, "b": b, "residual": float(np.max(np.abs(a * ns + b - ts) / ts)),
            "marginal": np.diff(ts) / np.diff(ns)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--number", type=int, default=200)
    parser.add_argument("--nmax", type=int, default=24)
    parser.add_argument("--step", type=int, default=2)
    args = parser.parse_args(argv)
    ns = list(range(2, args.nmax + 1, args.step))

    print("forward dynamics, median CPU microseconds per call (generic chains), "
          f"{args.repeat} repeats")
    print(f"{'n':>3} {'ABA compiled':>13} {'program lines':>14} {'ABA as written':>15} "
          f"{'N-E + LDL compiled':>19}")
    rows = []
    for n in ns:
        robot = generic_chain(n)
        links, grav, tip_f, tip_m = robot.numeric()
        q, qd, tau = (tuple(0.1 * (k + 1) * s for k in range(n)) for s in (1, -1, 0.5))
        aba = compiled_accelerations(robot, "twist_wrench", "featherstone")
        _, tape = robot.data.find_traced(("forward_dynamics", "twist_wrench", "featherstone",
                                          True, True))
        lines = len(tape.program().lines)
        ldl = compiled_accelerations(robot, "newton_euler", "link")
        t_aba = median_cpu_us(lambda: aba(q, qd, tau), args.number, args.repeat)
        t_raw = median_cpu_us(lambda: articulated_body(links, q, qd, tau, grav, tip_f, tip_m,
                                                       V.NUMERIC, use_tip=False),
                              max(1, args.number // 10), args.repeat)
        t_ldl = median_cpu_us(lambda: ldl(q, qd, tau), args.number, args.repeat)
        rows.append((n, t_aba, lines, t_raw, t_ldl))
        print(f"{n:>3} {t_aba:>13.1f} {lines:>14} {t_raw:>15.1f} {t_ldl:>19.1f}")
    print(f"log-log slopes over n = {ns[0]}..{ns[-1]} and from n = 8 on; the least-squares line "
          "t = a n + b (largest relative residual); the marginal cost of one link:")
    for label, column in (("ABA compiled", 1), ("program lines", 2), ("ABA as written", 3),
                          ("N-E + LDL compiled", 4)):
        f = fits([r[0] for r in rows], [r[column] for r in rows])
        marginal = f["marginal"]
        print(f"  {label:>19}: slope {f['slope']:.3f}; {f['slope from 8']:.3f}; "
              f"t = {f['a']:.2f} n {f['b']:+.1f} (residual {f['residual']:.2f}); per link "
              f"{np.median(marginal):.2f} median, {marginal.min():.2f}..{marginal.max():.2f}")
    print("  (an O(n) algorithm whose first and last links cost less than the others has b < 0;"
          " the log-log slope of a n + b over n >= 2 is then above 1 and tends to 1 as n grows)")

    print()
    print("operations against n (generic chains, exact law from n0): as written, and as the "
          "traced program (constants folded, products shared, dead code dropped)")
    counted = list(range(1, 10))
    series = {"Luh (N-E link frame)": lambda r: count_operations(r, "newton_euler", "link")}
    for variant in ("poe", "featherstone", "matrix"):
        series[f"twist_wrench {variant}"] = (
            lambda r, v=variant: count_operations(r, "twist_wrench", v))
    for label, count in series.items():
        values = [count(generic_chain(n)) for n in counted]
        parts = []
        for kind in ("mul", "add"):
            law = polynomial_law(counted, [v[kind] for v in values])
            text = "no law" if law is None else f"{polynomial_text(law[0])} (n >= {law[1]})"
            parts.append(f"{kind} {text}")
        print(f"{label:>30}: " + "; ".join(parts) + f"; n = 6: {values[5]}")
    for traced in (False, True):
        for label, mul, add in operation_law_rows(counted, traced=traced):
            name = label + (" traced" if traced else "")
            print(f"{name:>30}: mul {mul}; add {add}")
    print(f"{'Table 3.4 (Fu et al.)':>30}: mul 117n - 24; add 103n - 21; n = 6: {table_3_4(6)}")
    hollerbach = {"mul": 150 * 6 - 48, "add": 131 * 6 - 48}   # Schilling, Sec. 6-8: 852 / 738
    print(f"{'Hollerbach (1980), Luh':>30}: mul 150n - 48; add 131n - 48; n = 6: {hollerbach}")


if __name__ == "__main__":
    main()
