"""The PUMA 560's explicit model (:func:`dynlab.dynamics.explicit_model.explicit_model`): the time
to build it from the base parameters, and its size before and after the 1 % significance cut
beside the counts Armstrong, Khatib & Burdick (1986) report, with the cut's measured error.

    python benchmarks/bench_explicit_model.py [--repeat 3] [--cpu-time]

Prints the median build time over ``--repeat`` runs, the table
(:func:`dynlab.teaching.cost_tables.explicit_model_table`), the cut ``D11`` and the error of
the cut torques against :func:`dynlab.dynamics.inverse.inverse_dynamics`.  Not a test: timings
are reported, never asserted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bench_regressor import median_seconds

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dynlab.dynamics.explicit_model import explicit_model
from dynlab.model.robots import puma560
from dynlab.teaching.cost_tables import explicit_model_table


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cpu-time", action="store_true")
    args = parser.parse_args(argv)
    clock = time.process_time if args.cpu_time else time.perf_counter
    robot = puma560()
    seconds, model = median_seconds(lambda: explicit_model(robot), args.repeat, clock)
    print(f"PUMA 560 explicit model built in {seconds:.2f} s (median of {args.repeat}, "
          f"{'CPU' if args.cpu_time else 'wall'} time), {len(model.constants)} named constants")
    print(explicit_model_table(model).data)
    print(model.formula("D11", cut=True))
    error = model.error
    print(f"the cut's torque error over {error['states']} states: largest {error['max']:.3g} N m "
          f"({error['relative max']:.2%} of the largest torque), RMS {error['rms']:.3g} N m "
          f"({error['relative rms']:.2%})")


if __name__ == "__main__":
    main()
