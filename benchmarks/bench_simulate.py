"""Speed of forward dynamics and simulation on the PUMA 560, every formulation.

    python benchmarks/bench_simulate.py [--repeat 3] [--number 500] [--seconds 2.0] [--overhead]

Prints medians over ``--repeat`` runs (the machines here are shared and noisy: medians and
ratios, not single timings) of

* one forward-dynamics call ``dynlab.forward_dynamics.forward_dynamics(robot, q, qd, tau)``,
  compiled (``D`` and the bias traced with an ``L D L^T`` solve into straight-line code) and
  step by step (``compiled=False``: Lynch & Park's GetJointAccel as written, Cholesky by SciPy), per
  formulation, with the ratio to compiled Newton-Euler;
* the tracing time on a fresh robot (paid once per robot and formulation);
* a ``--seconds`` long simulation of the PUMA falling under gravity from rest (adaptive RK45
  with simulate's default tolerances, and Lynch & Park's Euler with a 1 ms step), per formulation:
  wall time with the compiled code already cached, evaluations, time per evaluation, energy
  drift;
* the fixed cost of one ``simulate`` call (argument checks, step count, setup and the
  trajectory record) on a 10-step run of the two-link arm, and the cost per step of the
  bounds (a finiteness check per Euler step, a counting solver per adaptive step) read off
  1000-step runs, for comparison with a run of the same script on an older commit.

Target (issue 8): a 2 s PUMA simulation in under 5 s on this 2-core machine.  Not a test:
timings are reported, never asserted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import median_run, median_us

from dynlab.dynamics.forward import compiled_accelerations, forward_dynamics
from dynlab.dynamics.simulation import simulate
from dynlab.formulations.registry import every_variant
from dynlab.model.robots import planar_2r, puma560

TARGET_S = 5.0
START = [0.0, 0.3, -0.5, 0.2, 0.4, 0.1]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--number", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--overhead", action="store_true",
                        help="only the two-link simulate overhead (to alternate with a run of "
                             "an older commit on a busy machine)")
    args = parser.parse_args(argv)
    if args.overhead:
        return overhead(args)

    robot = puma560()
    rng = np.random.default_rng(0)
    q, qd, tau = (rng.uniform(-1, 1, 6) for _ in range(3))
    methods = list(every_variant("numeric"))

    print("PUMA 560 forward dynamics, one call on floats (median us)")
    print(f"{'method':<16}{'variant':<13}{'compiled':>10}{'stepwise':>11}{'vs N-E':>8}"
          f"{'trace s':>9}")
    reference = None
    for method, variant in methods:
        fresh = puma560()
        start = time.perf_counter()
        compiled_accelerations(fresh, method, variant)
        tracing = time.perf_counter() - start
        compiled = median_us(lambda: forward_dynamics(robot, q, qd, tau, method=method,
                                                      variant=variant),
                             args.number, args.repeat)
        slow_number = max(3, args.number // (100 if method == "lagrange_euler" else 10))
        stepwise = median_us(lambda: forward_dynamics(robot, q, qd, tau, method=method,
                                                      variant=variant, compiled=False),
                             slow_number, args.repeat)
        reference = compiled if reference is None else reference
        print(f"{method:<16}{variant:<13}{compiled:>10.1f}{stepwise:>11.1f}"
              f"{compiled / reference:>8.2f}{tracing:>9.2f}")

    print()
    print(f"PUMA 560 falling from rest for {args.seconds:g} s (median wall time, compiled code "
          f"cached; target < {TARGET_S:g} s)")
    print(f"{'method':<16}{'variant':<13}{'integrator':<11}{'wall s':>8}{'evals':>8}"
          f"{'us/eval':>9}{'drift':>10}  target")
    for method, variant in methods:
        for integrator in ("rk45", "euler"):
            simulate(robot, START, None, t_span=0.01, method=method, variant=variant)  # trace
            seconds, motion = median_run(
                lambda: simulate(robot, START, None, t_span=args.seconds, method=method,
                                 variant=variant, integrator=integrator, dt=1e-3
                                 if integrator == "euler" else None), args.repeat)
            verdict = "met" if seconds < TARGET_S else "NOT met"
            print(f"{method:<16}{variant:<13}{integrator:<11}{seconds:>8.2f}{motion.nfev:>8}"
                  f"{seconds / motion.nfev * 1e6:>9.1f}{motion.energy_drift():>10.1e}  "
                  f"{verdict} ({seconds / TARGET_S:.2f} of it)")
    print()
    return overhead(args)


def overhead(args) -> int:
    print("Two-link arm (planar_2r), one simulate call (median us)")
    arm = planar_2r("fu")
    start, spin = [-0.5, 1.0], [1.0, -1.0]
    short = median_us(lambda: simulate(arm, start, spin, t_span=0.01, dt=1e-3,
                                       integrator="euler"), max(1, args.number // 5), args.repeat)
    print(f"{'Euler, 10 steps of 1 ms (fixed cost)':<44}{short:>10.1f}")
    for integrator, span in (("euler", 1.0), ("rk45", 10.0)):
        seconds, motion = median_run(
            lambda: simulate(arm, start, spin, t_span=span, integrator=integrator,
                             dt=1e-3 if integrator == "euler" else None), 2 * args.repeat + 1)
        print(f"{integrator + f', {span:g} s, per step (' + str(len(motion) - 1) + ' steps)':<44}"
              f"{seconds / (len(motion) - 1) * 1e6:>10.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
