"""How long the symbolic derivations take: the PUMA 560 with numeric parameters and symbolic joint
variables through every formulation, and its first three joints with symbolic parameters.

    python benchmarks/bench_derivation.py [--compact]

Target (issue "L-E and G-D"): the symbolic PUMA 560 through N-E and through G-D in under 60 s.
The 4x4 L-E form's time is measured and shown, not avoided: its cost is the point of Fu, Gonzalez
& Lee, Table 3.5.  ``--compact`` also times bringing the 3-joint symbolic-parameter result to book
form.  Not a test.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dynlab import equations_of_motion
from dynlab.formulations.registry import FORMULATIONS
from dynlab.model.robots import puma560

TARGET_S = 60.0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compact", action="store_true")
    args = parser.parse_args(argv)
    for title, robot in (("PUMA 560, numeric parameters, symbolic q, qd", puma560()),
                         ("PUMA 560 joints 1-3, symbolic parameters",
                          puma560(symbolic=True, joints=3))):
        print(title)
        for method, formulation in FORMULATIONS.items():
            for variant in formulation.variants:
                if not formulation.can("symbolic", variant):    # runs on numbers only
                    continue
                start = time.perf_counter()
                eom = equations_of_motion(robot, method=method, variant=variant,
                                          simplify=False)
                seconds = time.perf_counter() - start
                verdict = ""
                if method in ("newton_euler", "dalembert") and robot.n == 6:
                    verdict = f"  (target < {TARGET_S:.0f} s: " \
                              f"{'met' if seconds < TARGET_S else 'NOT met'})"
                print(f"  {method:<16}{variant:<13}{seconds:8.2f} s{verdict}")
                if args.compact and robot.n == 3 and method == "dalembert":
                    start = time.perf_counter()
                    eom.simplified()
                    print(f"  {'  compacted to book form':<29}{time.perf_counter() - start:8.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
