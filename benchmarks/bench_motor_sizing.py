"""Time of one slider move of the shoulder-motor dashboard
(dynlab.teaching.dashboards.motor_sizing), headless (Agg).

    python benchmarks/bench_motor_sizing.py [--repeat 21]

What a student waits for after moving a slider of chapter 11's dashboard, as medians over
``--repeat`` moves (machines here are shared and noisy: medians and ratios, not single timings):

* ``gear ratio``: a new ``G`` re-scales the move's joint torques already computed (no inverse
  dynamics) and sizes the motor: the numbers alone, then with the frame (the figure's artists
  moved, rendered with Agg, encoded as PNG);
* ``move``: a new duration or amplitude samples the move (201 instants) and runs the arm's
  compiled inverse dynamics at each, then sizes the motor: the numbers alone, then with the frame.

The wall clock counts the time other processes hold the cores; ``process_time`` the CPU time of
this process alone.  Not a test: timings are reported, never asserted.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import median_us

from dynlab.teaching.dashboards.motor_sizing import MotorSizingDashboard


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args(argv)
    print(f"chapter 11's dashboard (PUMA 560, joint 2, the cycle, 401 samples), median of "
          f"{args.repeat} slider moves, ms")
    for render in (False, True):
        board = MotorSizingDashboard(render=render)
        ratios = itertools.cycle([100.0 + k for k in range(40)])
        durations = itertools.cycle([1.0 + 0.1 * k for k in range(20)])
        moves = {"gear ratio": lambda: board.set(gear_ratio=next(ratios)),
                 "move": lambda: board.set(duration=next(durations))}
        what = "with the frame" if render else "numbers only"
        for name, move in moves.items():
            cells = []
            for clock in (time.perf_counter, time.process_time):
                cells.append(median_us(move, 1, args.repeat, clock=clock) / 1e3)
            print(f"  {name:10s} {what:15s} wall {cells[0]:7.1f}   cpu {cells[1]:7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
