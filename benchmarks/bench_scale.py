"""Cost at scale: a 30-link chain loaded from one URDF text by dynlab and by Pinocchio.

    python benchmarks/bench_scale.py [--links 30] [--repeat 7] [--number 200] [--cpu-time]
                                     [--no-compiler]

Prints, for a serial chain of ``--links`` revolute and prismatic joints about axes in general
position (seeded), written as a URDF text and loaded by :func:`dynlab.model.robots.from_urdf` and by
Pinocchio's own URDF parser:

* the one-time cost: building the arm from the file, the first (fully checked) call, which
  traces the recursion, the second, which compiles its short cut (as C, :mod:`dynlab.engine.native`,
  when a C compiler is present: it is counted, in a new, empty cache directory), and the swap
  to the optimised program after ``OPTIMIZE_AFTER`` calls (short programs only), for forward
  and for inverse dynamics;
* the per-call time (median over ``--repeat`` runs of ``--number`` calls) of the public numeric
  calls ``dynlab.forward_dynamics`` and ``dynlab.inverse_dynamics`` and of Pinocchio's ``aba``
  and ``rnea``, the ratios, and the largest difference of their results.

Not a test: timings are reported, never asserted.  ``--cpu-time`` times with this process's
CPU time, and the one-time costs with the CPU time of this process and its children (the C
compiler): the machine is shared.  ``--no-compiler`` times the Python code a machine without a
C compiler runs.  Pinocchio installs with ``pip install pin``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import median_us

from dynlab import forward_dynamics, inverse_dynamics
from dynlab.engine import native
from dynlab.engine.short_cut import OPTIMIZE_AFTER
from dynlab.model.robots import from_urdf


def chain_urdf(links: int, seed: int = 30) -> str:
    """A URDF text of a serial chain: every third joint prismatic, axes and origins drawn."""
    rng = np.random.default_rng(seed)
    parts = ['<?xml version="1.0"?>', f'<robot name="chain of {links}">', '<link name="l0"/>']
    for k in range(1, links + 1):
        mass = rng.uniform(0.5, 3.0)
        moments = rng.uniform(0.001, 0.02, 3) * mass
        ixx, iyy, izz = moments[1] + moments[2], moments[0] + moments[2], moments[0] + moments[1]
        com = " ".join(f"{v:.4f}" for v in rng.uniform(-0.05, 0.15, 3))
        rpy = " ".join(f"{v:.4f}" for v in rng.uniform(-np.pi, np.pi, 3))
        parts.append(f'<link name="l{k}"><inertial><origin xyz="{com}" rpy="{rpy}"/>'
                     f'<mass value="{mass:.4f}"/><inertia ixx="{ixx:.6f}" ixy="0" ixz="0" '
                     f'iyy="{iyy:.6f}" iyz="0" izz="{izz:.6f}"/></inertial></link>')
        kind = "prismatic" if k % 3 == 0 else "revolute"
        xyz = " ".join(f"{v:.4f}" for v in rng.uniform(-0.1, 0.2, 3))
        rpy = " ".join(f"{v:.4f}" for v in rng.uniform(-np.pi, np.pi, 3))
        axis = rng.normal(size=3)
        axis = " ".join(f"{v:.6f}" for v in axis / np.linalg.norm(axis))
        parts.append(f'<joint name="j{k}" type="{kind}"><parent link="l{k - 1}"/>'
                     f'<child link="l{k}"/><origin xyz="{xyz}" rpy="{rpy}"/>'
                     f'<axis xyz="{axis}"/><limit lower="-3" upper="3" effort="1" '
                     f'velocity="1"/></joint>')
    parts.append("</robot>")
    return "\n".join(parts)


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (the C compiler)."""
    children = os.times()
    return time.process_time() + children.children_user + children.children_system


def seconds(call, clock=time.perf_counter) -> float:
    start = clock()
    call()
    return clock() - start


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--links", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--number", type=int, default=200)
    parser.add_argument("--cpu-time", action="store_true")
    parser.add_argument("--no-compiler", action="store_true")
    args = parser.parse_args(argv)
    clock = time.process_time if args.cpu_time else time.perf_counter
    once = cpu_seconds if args.cpu_time else time.perf_counter
    cache = tempfile.TemporaryDirectory(prefix="bench_scale_")      # nothing compiled yet
    os.environ["DYNLAB_CACHE"] = cache.name          # (removed when the benchmark ends)
    if args.no_compiler:
        native.COMPILERS = ()
    text = chain_urdf(args.links)
    rng = np.random.default_rng(1)
    q, qd, qdd = (list(map(float, v)) for v in rng.uniform(-1, 1, (3, args.links)))
    tau = list(map(float, rng.uniform(-5, 5, args.links)))

    print(f"A serial chain of {args.links} joints, one URDF text "
          f"({'CPU' if args.cpu_time else 'wall'} time); C compiler: {native.compiler()}")
    start = once()
    arm = from_urdf(text)
    total = once() - start
    print(f"  from_urdf: {total:.3f} s")
    for label, call in (("forward_dynamics", lambda: forward_dynamics(arm, q, qd, tau)),
                        ("inverse_dynamics", lambda: inverse_dynamics(arm, q, qd, qdd))):
        first, second, third = seconds(call, once), seconds(call, once), seconds(call, once)
        rest = seconds(lambda: [call() for _ in range(OPTIMIZE_AFTER)], once)
        print(f"  {label}: first call {first:.3f} s, second {second:.3f} s, third "
              f"{third * 1e3:.2f} ms; the next {OPTIMIZE_AFTER} calls (the swap to the "
              f"optimised program among them, for a short program) {rest:.3f} s; one-time "
              f"cost {first + second + third + rest:.2f} s in all")
        total += first + second + third + rest
    print(f"  the arm's one-time cost: {total:.2f} s (from_urdf and both calls' first "
          f"{OPTIMIZE_AFTER + 3} calls)")

    ours = {"forward": median_us(lambda: forward_dynamics(arm, q, qd, tau), args.number,
                                 args.repeat, clock=clock),
            "inverse": median_us(lambda: inverse_dynamics(arm, q, qd, qdd), args.number,
                                 args.repeat, clock=clock)}
    print(f"  dynlab.forward_dynamics {ours['forward']:9.1f} us a call")
    print(f"  dynlab.inverse_dynamics {ours['inverse']:9.1f} us a call")
    try:
        import pinocchio as pin
    except ImportError:
        print("  Pinocchio is not installed (pip install pin): no ratios")
        return
    model = pin.buildModelFromXML(text)
    model.gravity.linear = np.array([0, 0, -9.81])
    data = model.createData()
    qa, qda, qdda, taua = map(np.array, (q, qd, qdd, tau))
    peers = {"forward": median_us(lambda: pin.aba(model, data, qa, qda, taua), args.number * 10,
                                  args.repeat, clock=clock),
             "inverse": median_us(lambda: pin.rnea(model, data, qa, qda, qdda),
                                  args.number * 10, args.repeat, clock=clock)}
    difference = {
        "forward": np.abs(forward_dynamics(arm, q, qd, tau)
                          - pin.aba(model, data, qa, qda, taua)).max(),
        "inverse": np.abs(inverse_dynamics(arm, q, qd, qdd)
                          - pin.rnea(model, data, qa, qda, qdda)).max()}
    for kind, peer in (("forward", "aba"), ("inverse", "rnea")):
        print(f"  Pinocchio {peer:4s} {peers[kind]:9.2f} us a call; dynlab / Pinocchio = "
              f"{ours[kind] / peers[kind]:6.1f}; largest difference {difference[kind]:.2e}")


if __name__ == "__main__":
    main()
