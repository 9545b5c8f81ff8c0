"""The PUMA 560 identified from data, the trajectory given: the measurements a lab takes along a
Fourier trajectory (:func:`dynlab.dynamics.estimation.measure`: 1000 samples of noisy torques,
16-bit encoder positions, filtered derivatives) and the ordinary least squares of its 36 base
parameters (:func:`dynlab.dynamics.estimation.estimate_base_parameters`), together.

    python benchmarks/bench_identification.py [--samples 1000] [--repeat 7] [--cpu-time]

Prints the median over ``--repeat`` runs (target: at most 2 s) and the largest error of the
estimate in its own standard deviations, so that the timed run is also a correct one.  Not a
test: timings are reported, never asserted.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
from bench_regressor import median_seconds

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dynlab.dynamics.estimation import (
    FourierTrajectory,
    estimate_base_parameters,
    measure,
)
from dynlab.dynamics.identification import base_parameters, standard_parameters
from dynlab.model.robots import puma560


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--cpu-time", action="store_true")
    args = parser.parse_args(argv)
    clock = time.process_time if args.cpu_time else time.perf_counter
    robot = puma560()
    base = base_parameters(robot)
    rng = np.random.default_rng(0)
    path = FourierTrajectory(2 * math.pi / 10, rng.uniform(-0.5, 0.5, 6),
                             rng.uniform(-0.3, 0.3, (6, 4)), rng.uniform(-0.3, 0.3, (6, 4)))

    def identify():
        data = measure(robot, path, rng=rng, torque_noise=0.3, counts_per_revolution=2**16,
                       samples=args.samples)
        return estimate_base_parameters(base, data.q, data.qd, data.qdd, data.tau)

    seconds, estimate = median_seconds(identify, args.repeat, clock)
    errors = (estimate.values - base.values(standard_parameters(robot))) / estimate.std
    print(f"PUMA 560 identified from {args.samples} samples (measure + OLS of "
          f"{base.count} base parameters), median of {args.repeat} runs "
          f"({'CPU' if args.cpu_time else 'wall'} time): {seconds:.3f} s (target <= 2 s)")
    print(f"  largest |estimate - truth| / std: {np.abs(errors).max():.2f}")


if __name__ == "__main__":
    main()
