"""Cost of the twist-wrench recursions and of Featherstone's articulated body algorithm against n.

    python benchmarks/bench_spatial.py [--repeat 5] [--number 200] [--nmax 24]

Prints, for generic chains (:func:`dynlab.opcount.generic_chain`, every parameter non-zero) of
n = 2..``--nmax`` joints:

* the median CPU time (``time.process_time``) of one forward dynamics ``qdd(q, qd, tau)`` by the articulated body algorithm
  (Featherstone (2008), Table 7.1), compiled into straight-line code
  (``forward_dynamics(..., method="twist_wrench", variant="featherstone")``'s inner call) and
  step by step on floats (:func:`dynlab.featherstone.articulated_body`), beside the compiled
  ``D qdd = tau - bias`` solve of Newton-Euler (``D`` probed column by column, ``L D L^T``),
  with the slope of a log-log fit of each (goal for ABA: within 0.1 of 1) and the straight line
  ``t = a n + b``: an ``O(n)`` algorithm whose first link costs less than the others (no inward
  update to a parent) has ``b < 0``, and then the log-log slope of ``a n + b`` over a range
  that starts at ``n = 2`` is above 1 (it tends to 1 as ``n`` grows); so both are printed, and
  the slope from ``n = 8`` on;
* operations as written (:func:`dynlab.opcount.count_operations`) of the twist-wrench inverse
  dynamics (product of exponentials, joint frames, matrix form) and of the ABA, with the exact
  law in n, beside Luh's recursion counted the same way and Fu, Gonzalez & Lee's Table 3.4
  (``150 n - 48`` multiplications, ``131 n - 48`` additions).

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

from dynlab import vectors as V  # noqa: E402
from dynlab.featherstone import articulated_body  # noqa: E402
from dynlab.forward import compiled_accelerations  # noqa: E402
from dynlab.opcount import (Counted, OpCounter, count_operations, counting_backend,  # noqa: E402
                            fit_exponent, generic_chain, polynomial_law, polynomial_text,
                            table_3_4)



def median_cpu_us(call, number: int, repeat: int) -> float:
    """:func:`timing.median_us` on this process's CPU time (``time.process_time``)."""
    return median_us(call, number, repeat, clock=time.process_time)


def aba_operations(robot) -> dict:
    """Operations as written of one articulated-body forward dynamics (the rules of
    :func:`dynlab.opcount.count_operations`)."""
    links, grav, tip_f, tip_m = robot.numeric()
    counter = OpCounter()
    q, qd, tau = ([Counted(counter) for _ in range(robot.n)] for _ in range(3))
    articulated_body(links, q, qd, tau, grav, tip_f, tip_m, counting_backend(counter),
                     use_tip=False)
    return counter.counts()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--number", type=int, default=200)
    parser.add_argument("--nmax", type=int, default=24)
    args = parser.parse_args(argv)
    ns = list(range(2, args.nmax + 1, 2))

    print("forward dynamics, median CPU microseconds per call (generic chains)")
    print(f"{'n':>3} {'ABA compiled':>13} {'ABA as written':>15} {'N-E + LDL compiled':>19}")
    rows = []
    for n in ns:
        robot = generic_chain(n)
        links, grav, tip_f, tip_m = robot.numeric()
        q, qd, tau = (tuple(0.1 * (k + 1) * s for k in range(n)) for s in (1, -1, 0.5))
        aba = compiled_accelerations(robot, "twist_wrench", "featherstone")
        ldl = compiled_accelerations(robot, "newton_euler", "link")
        t_aba = median_cpu_us(lambda: aba(q, qd, tau), args.number, args.repeat)
        t_raw = median_cpu_us(lambda: articulated_body(links, q, qd, tau, grav, tip_f, tip_m,
                                                   V.NUMERIC, use_tip=False),
                          max(1, args.number // 10), args.repeat)
        t_ldl = median_cpu_us(lambda: ldl(q, qd, tau), args.number, args.repeat)
        rows.append((n, t_aba, t_raw, t_ldl))
        print(f"{n:>3} {t_aba:>13.1f} {t_raw:>15.1f} {t_ldl:>19.1f}")
    print("log-log slopes (n = 2..; n >= 8) and the least-squares line t = a n + b:")
    for label, column in (("ABA compiled", 1), ("ABA as written", 2),
                          ("N-E + LDL compiled", 3)):
        ns_, ts = [r[0] for r in rows], [r[column] for r in rows]
        slope = fit_exponent(ns_, ts)
        tail = fit_exponent([n for n in ns_ if n >= 8], [t for n, t in zip(ns_, ts) if n >= 8])
        a, b = np.polyfit(ns_, ts, 1)
        worst = max(abs(a * n + b - t) / t for n, t in zip(ns_, ts))
        print(f"  {label:>19}: slope {slope:.3f}; {tail:.3f}; t = {a:.1f} n {b:+.1f} us "
              f"(worst relative residual {worst:.2f})")

    print()
    print("operations as written against n (generic chains, exact law from n0)")
    counted = list(range(1, 10))
    series = {"Luh (N-E link frame)": lambda r: count_operations(r, "newton_euler", "link")}
    for variant in ("poe", "featherstone", "matrix"):
        series[f"twist_wrench {variant}"] = (
            lambda r, v=variant: count_operations(r, "twist_wrench", v))
    series["ABA (forward dynamics)"] = aba_operations
    for label, count in series.items():
        values = [count(generic_chain(n)) for n in counted]
        parts = []
        for kind in ("mul", "add"):
            law = polynomial_law(counted, [v[kind] for v in values])
            text = "no law" if law is None else f"{polynomial_text(law[0])} (n >= {law[1]})"
            parts.append(f"{kind} {text}")
        print(f"{label:>26}: " + "; ".join(parts) + f"; n = 6: {values[5]}")
    print(f"{'Table 3.4 (Fu et al.)':>26}: mul 150n - 48; add 131n - 48; n = 6: {table_3_4(6)}")


if __name__ == "__main__":
    main()
