"""Per-call time of dynlab's numeric inverse dynamics on the PUMA 560, every formulation.

    python benchmarks/bench_inverse_dynamics.py [--repeat 7] [--number 2000]

Prints the median over ``--repeat`` runs of ``--number`` calls (machines here are shared and
noisy: medians and ratios, not single timings), for

* the public call ``dynlab.inverse_dynamics(robot, q, qd, qdd)`` (validation, the traced and
  compiled recursion, and the NumPy result), the number behind every slider;
* each formulation compiled, and step by step (``compiled=False``: the algorithm as written,
  plain float arithmetic), so the formulations' own costs can be set side by side;
* the operation counts of the compiled code (multiplications, additions, calls).

Target (issue "Foundation"): one PUMA inverse-dynamics call on floats in at most 100 us on this
2-core machine.  Not a test: timings are reported, never asserted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import median_us

from dynlab import inverse_dynamics
from dynlab.formulations.registry import FORMULATIONS
from dynlab.model.robots import puma560

TARGET_US = 100.0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--number", type=int, default=2000)
    args = parser.parse_args(argv)

    robot = puma560()
    rng = np.random.default_rng(0)
    q, qd, qdd = (rng.uniform(-1, 1, 6) for _ in range(3))

    headline = median_us(lambda: inverse_dynamics(robot, q, qd, qdd), args.number, args.repeat)
    print(f"PUMA 560 inverse dynamics, public call on floats (Newton-Euler, link frame): "
          f"{headline:.1f} us median  (target <= {TARGET_US:.0f} us: "
          f"{'met' if headline <= TARGET_US else 'NOT met'}, {headline / TARGET_US:.2f} of it)")
    print()
    print(f"{'method':<16}{'variant':<13}{'compiled us':>12}{'stepwise us':>13}{'ratio':>8}"
          f"{'mul':>7}{'add':>7}{'call':>6}")
    for method, formulation in FORMULATIONS.items():
        for variant in formulation.variants:
            if not formulation.can("numeric", variant):        # runs on SymPy only
                continue
            compiled = median_us(lambda: inverse_dynamics(robot, q, qd, qdd, method=method,
                                                          variant=variant),
                                 args.number, args.repeat)
            slow_number = max(5, args.number // (200 if method != "newton_euler" else 10))
            stepwise = median_us(lambda: inverse_dynamics(robot, q, qd, qdd, method=method,
                                                          variant=variant, compiled=False),
                                 slow_number, args.repeat)
            _, tape = robot.data.find_traced(("inverse_dynamics", method, variant, True, True,
                                              True))
            counts = tape.counts()
            print(f"{method:<16}{variant:<13}{compiled:>12.1f}{stepwise:>13.1f}"
                  f"{stepwise / compiled:>8.1f}{counts['mul']:>7}{counts['add']:>7}"
                  f"{counts['call']:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
