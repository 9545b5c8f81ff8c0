"""The PUMA 560's regressor ``tau = Y(q, qd, qdd) pi`` for a batch of samples: dynlab's numeric
regressor (one call, vectorised over the samples) against Pinocchio's
``computeJointTorqueRegressor`` called once per sample.

    python benchmarks/bench_regressor.py [--samples 10000] [--repeat 7] [--cpu-time]

Prints the median over ``--repeat`` runs of each (seconds for the whole batch, microseconds per
sample) and their ratio, and the largest difference of the two regressors after the change of
frame of the parameters (:func:`dynlab.dynamics.identification.moved_parameters`: dynlab's
about DH frame ``i``, Pinocchio's about its joint frame), so that both compute the same thing.
Pinocchio's model is built from dynlab's PUMA 560 (``bench_codegen.pinocchio_peer``).  Not a
test: timings are reported, never asserted; ``--cpu-time`` times with this process's CPU time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from bench_codegen import dh, pinocchio_peer

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dynlab.dynamics.identification import moved_parameters, torque_regressor
from dynlab.model.robots import puma560


def median_seconds(call, repeat: int, clock) -> tuple:
    """``(median seconds, last result)`` of ``repeat`` runs of ``call()`` after one warm-up."""
    result, runs = call(), []
    for _ in range(repeat):
        start = clock()
        result = call()
        runs.append(clock() - start)
    return statistics.median(runs), result


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--cpu-time", action="store_true")
    args = parser.parse_args(argv)
    clock = time.process_time if args.cpu_time else time.perf_counter
    import pinocchio as pin

    robot = puma560()
    model = pinocchio_peer(robot).model
    data = model.createData()
    rng = np.random.default_rng(0)
    Q, QD, QDD = (rng.uniform(-np.pi, np.pi, (args.samples, robot.n)) for _ in range(3))

    def pinocchio_batch():
        return np.vstack([pin.computeJointTorqueRegressor(model, data, q, qd, qdd)
                          for q, qd, qdd in zip(Q, QD, QDD)])

    t_dynlab, Y = median_seconds(lambda: torque_regressor(robot, Q, QD, QDD), args.repeat,
                                 clock)
    t_pin, Y_pin = median_seconds(pinocchio_batch, args.repeat, clock)
    # pi_pinocchio = M pi_dynlab link by link: DH frame k in Pinocchio's joint frame k is
    # Rz(offset) Tz(d) Tx(a) Rx(alpha), the fixed part of A_k (Fu, Gonzalez & Lee (3.2-5))
    M = np.zeros((10 * robot.n, 10 * robot.n))
    for k, link in enumerate(robot.numeric()[0]):
        alpha, a, d, offset = dh(link)
        Rz, Rx = pin.utils.rotate("z", offset), pin.utils.rotate("x", alpha)
        for c in range(10):
            M[10 * k:10 * k + 10, 10 * k + c] = moved_parameters(np.eye(10)[c], Rz @ Rx,
                                                                 Rz @ np.array([a, 0.0, d]))
    difference = np.abs(Y_pin @ M - Y).max()
    per = 1e6 / args.samples
    print(f"PUMA 560 regressor, {args.samples} samples, median of {args.repeat} runs "
          f"({'CPU' if args.cpu_time else 'wall'} time)")
    print(f"  dynlab torque_regressor, one call:        {t_dynlab:8.4f} s  "
          f"{t_dynlab * per:8.2f} us/sample")
    print(f"  Pinocchio computeJointTorqueRegressor x N: {t_pin:8.4f} s  "
          f"{t_pin * per:8.2f} us/sample")
    print(f"  ratio Pinocchio / dynlab: {t_pin / t_dynlab:.2f}")
    print(f"  largest |Y_pinocchio M - Y_dynlab|: {difference:.3g} (entries up to "
          f"{np.abs(Y).max():.3g})")


if __name__ == "__main__":
    main()
