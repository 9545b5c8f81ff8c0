"""Speed of a controlled simulation: 5 s of the PUMA 560 under computed-torque control.

    python benchmarks/bench_control.py [--repeat 5] [--seconds 5.0]

The PUMA follows a quintic move (from its nominal pose, the move of the workbook's PUMA chapter,
in 2 s starting at 0.5 s) from an initial error, under computed torque with the exact model
(``dynlab.dynamics.control.computed_torque``: one traced Newton-Euler inverse dynamics per
evaluation) and with Fu, Gonzalez & Lee's simplified model (traced G-D terms), integrated by
``dynlab.simulate`` (adaptive RK45 at its default tolerances, samples every 10 ms).  Prints the
median wall time over ``--repeat`` runs (compiled code already cached), the evaluations, the
time per evaluation and the largest deviation of the tracking error from the linear error
equation's solution (exact model).

Target (issue 18): under 2 s for 5 s of motion on this 2-core machine.  Not a test: timings are
reported, never asserted.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import median_run

from dynlab.dynamics.control import (
    FGL_PUMA_D_PARTS,
    FGL_PUMA_H_PARTS,
    Model,
    computed_torque,
    error_dynamics,
)
from dynlab.dynamics.simulation import simulate
from dynlab.dynamics.trajectory import quintic
from dynlab.model.robots import puma560

TARGET_S = 2.0
QN = np.array([0.0, math.pi / 4, -math.pi, 0.0, math.pi / 4, 0.0])
MOVE = np.array([math.pi / 2, -math.pi / 4, math.pi / 2, math.pi / 2, -math.pi / 2, math.pi / 2])
E0 = np.array([0.05, -0.04, 0.03, 0.1, -0.08, 0.06])
KP, KD = 100.0, 20.0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args(argv)
    arm = puma560()
    reference = quintic(QN, QN + MOVE, 2.0, t0=0.5)
    models = {"exact (Newton-Euler)": Model(arm),
              "simplified (Fu, Gonzalez & Lee Sec. 3.4.1)":
                  Model(arm, D_parts=FGL_PUMA_D_PARTS, h_parts=FGL_PUMA_H_PARTS)}
    print(f"PUMA 560, {args.seconds:g} s under computed torque (Kp = {KP:g}, Kd = {KD:g}), "
          f"RK45 rtol 1e-9, median of {args.repeat}")
    for name, model in models.items():
        law = computed_torque(model, KP, KD, reference)

        def run():
            return simulate(arm, QN - E0, None, torque=law, t_span=args.seconds, dt=0.01)

        run()                                            # trace and compile once
        seconds, motion = median_run(run, args.repeat)
        e = law.tracking_error(motion)
        deviation = np.abs(e - error_dynamics(KP, KD, E0, np.zeros(6), motion.t)).max()
        verdict = "meets" if seconds < TARGET_S else "misses"
        print(f"  {name:44s} {seconds:6.3f} s  ({verdict} the {TARGET_S:g} s target), "
              f"{motion.nfev} evaluations, {seconds / motion.nfev * 1e6:6.1f} us each, "
              f"max |e - e_linear| = {deviation:.1e} rad")
    return 0


if __name__ == "__main__":
    sys.exit(main())
