"""Time of one slider move of chapter 12's dashboard (dynlab.teaching.dashboards.identification),
headless (Agg).

    python benchmarks/bench_identification_dashboard.py [--repeat 21]

What a student waits for after moving a slider: the trajectory rescaled, the condition number of
its base regressor, the lab's measurements (400 samples of the arm's inverse dynamics, noise, the
encoder, the filtered derivatives) and the least squares of the six base parameters, then the
frame (the lines and error bars moved, drawn with Agg over the kept background, encoded as PNG).
Medians over ``--repeat`` moves of each slider, the numbers alone and with the frame (machines
here are shared and noisy: medians, not single timings).  The wall clock counts the time other
processes hold the cores; ``process_time`` the CPU time of this process alone.  Target: a move
within two frames of a 30 Hz display, 67 ms.  Not a test: timings are reported, never asserted.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import median_us

from dynlab.dynamics.estimation import FourierTrajectory
from dynlab.teaching.dashboards.identification import IdentificationDashboard

#: a trajectory of the chapter's kind (five harmonics a joint), given: the optimisation that finds
#: the chapter's is not what a slider move waits for
PATH = FourierTrajectory(2 * math.pi / 10, [0.2, -0.3],
                         [[0.5, 0.3, -0.2, 0.1, 0.05], [0.4, -0.6, 0.2, -0.1, 0.1]],
                         [[-0.2, 0.4, 0.1, -0.1, 0.05], [0.3, 0.5, -0.2, 0.1, -0.05]])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args(argv)
    print(f"chapter 12's dashboard (planar two-link arm, 400 samples), median of {args.repeat} "
          f"slider moves, ms")
    for render in (False, True):
        board = IdentificationDashboard(trajectory=PATH, render=render)
        values = {"amplitude": itertools.cycle([0.8, 0.85, 0.9, 0.95]),
                  "period": itertools.cycle([9.0, 9.5, 10.0, 10.5]),
                  "noise": itertools.cycle([0.2, 0.25, 0.3, 0.35]),
                  "encoder_bits": itertools.cycle([12.0, 13.0, 14.0, 15.0])}
        what = "with the frame" if render else "numbers only"
        for name, cycle in values.items():
            def move(name=name, cycle=cycle):            # as a reader moves the slider
                board.controls[name].value = next(cycle)
                assert board.status.value.startswith("<span>ok:"), board.status.value
            cells = [median_us(move, 1, args.repeat, clock=clock) / 1e3
                     for clock in (time.perf_counter, time.process_time)]
            print(f"  {name:13s} {what:15s} wall {cells[0]:7.1f}   cpu {cells[1]:7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
