"""Time of one slider update of every arm's dashboard (dynlab.teaching.dashboards.arm),
headless (Agg).

    python benchmarks/bench_dashboard.py [--repeat 41]

A slider update is what a student waits for after moving a slider: the callback recomputes the
torque split from the numeric path, updates the artists in place, renders the figure with Agg
and encodes the PNG that the ``Image`` widget shows.  Printed, as medians over ``--repeat``
updates (machines here are shared and noisy: medians and ratios, not single timings):

* ``full draw``: recompute + ``fig.canvas.draw()`` of the whole figure (``blit=False``) + PNG;
  the issue's measure, target < 50 ms median for the PUMA 560;
* ``blit``: the dashboard's default, recompute + the kept background + the moving artists +
  PNG (what the sliders really cost);
* the recompute alone by each engine, for a joint slider and for a parameter slider (a
  parameter change builds a new robot: the compiled Newton-Euler engine traces it anew, the
  generalized d'Alembert engine has nothing to compile), which is why the dashboard's default
  engine is ``"dalembert"``.

Then the frame time while playing (the Play control, :mod:`dynlab.teaching.animation`): the motion
is simulated once when play is pressed (reported), then each frame only redraws: the arm and the
bars at the frame's state, blitted, and the picture sent to the page (the PNG of the ``Image``
for a 2-D arm; for a 3-D arm the changed pixels the ipympl canvas sends, measured after the
page's ``initialized`` message, as in JupyterLab).  Target: median < 50 ms.

Not a test: timings are reported, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dynlab.teaching.dashboards.arm import dashboard

TARGET_MS = 50.0
ARMS = (("pendulum", {}), ("planar_2r", {"variant": "fu"}),
        ("planar_2r", {"variant": "macsyma"}), ("scara", {}), ("puma560", {}))


def slider_updates(board, slider, repeat: int) -> list:
    """Seconds of ``repeat`` value changes of ``slider`` (each a real change: it alternates;
    by 0.05, or by one step of a coarser slider: 1 degree for a joint angle)."""
    change = max(0.05, slider.step)
    values = [slider.value + (change if slider.value + change <= slider.max else -change),
              slider.value]
    times = []
    for k in range(repeat):
        start = time.perf_counter()
        slider.value = values[k % 2]
        times.append(time.perf_counter() - start)
        assert board.message.startswith("ok:"), board.message
    return times


def structure_updates(repeat: int):
    """Median ms of a joint slider update of
    :func:`dynlab.teaching.dashboards.structure.structure_dashboard` (``None`` where that
    dashboard has no figure yet: timings before it had one)."""
    from dynlab.teaching.dashboards.structure import structure_dashboard
    board = structure_dashboard("articulated", q=[0.0, 0.5, 1.0])
    if not hasattr(board, "figure"):
        return None
    slider = board.sliders["q3"]
    times = []
    for k in range(repeat):
        start = time.perf_counter()
        slider.value = slider.value + (5.0 if k % 2 == 0 else -5.0)
        times.append(time.perf_counter() - start)
        assert board.message.startswith("ok:"), board.message
    return median_ms(times)


def median_ms(times) -> float:
    return 1e3 * statistics.median(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=41)
    args = parser.parse_args(argv)

    print(f"{'arm':<34}{'full draw ms':>13}{'blit ms':>9}"
          f"{'  recompute ms: G-D':>21}{'N-E':>7}{'G-D param':>11}{'N-E param':>11}")
    headline = {}
    for name, options in ARMS:
        label = name + (f" ({options['variant']})" if "variant" in options else "")
        row = {}
        for blit in (False, True):
            board = dashboard(name, **options)
            board.blit = blit
            slider = board.q_sliders[0]
            slider_updates(board, slider, 3)                        # warm up
            row["blit" if blit else "full"] = median_ms(slider_updates(board, slider,
                                                                       args.repeat))
        for engine in ("dalembert", "newton_euler"):
            board = dashboard(name, engine=engine, render=False, **options)
            computes = []
            for _ in range(args.repeat):
                slider_updates(board, board.qd_sliders[0], 1)
                computes.append(board.seconds["compute"])
            row[engine] = median_ms(computes)
            mass = next(iter(board.parameter_sliders.values()))
            computes = []
            for _ in range(max(5, args.repeat // 4)):
                slider_updates(board, mass, 1)
                computes.append(board.seconds["compute"])
            row[engine + " param"] = median_ms(computes)
        headline[label] = row
        print(f"{label:<34}{row['full']:>13.1f}{row['blit']:>9.1f}{row['dalembert']:>21.2f}"
              f"{row['newton_euler']:>7.2f}{row['dalembert param']:>11.2f}"
              f"{row['newton_euler param']:>11.2f}")
    print()
    print(f"{'playing (frame time)':<34}{'simulate s':>11}{'frame ms median':>17}{'p90':>8}")
    playing = {}
    for name, options in ARMS:
        label = name + (f" ({options['variant']})" if "variant" in options else "")
        board = dashboard(name, **options)
        if board.interactive:                          # the page is there: diffs only
            canvas = board.figure_widget
            canvas._handle_message(canvas, {"type": "initialized"}, [])
        board.play.playing = True                      # simulates the motion once
        frames = len(board.frames)
        times = []
        for k in range(1, frames):
            start = time.perf_counter()
            board.play.value = k
            times.append(time.perf_counter() - start)
            assert board.message.startswith("ok:"), board.message
        playing[label] = median_ms(times)
        p90 = 1e3 * sorted(times)[int(0.9 * len(times))]
        print(f"{label:<34}{board.seconds['simulate']:>11.2f}{playing[label]:>17.1f}"
              f"{p90:>8.1f}")
    structure = structure_updates(args.repeat)
    worst = max(playing, key=playing.get)
    print(f"slowest frame time while playing: {worst}, {playing[worst]:.1f} ms median; target "
          f"< {TARGET_MS:.0f} ms: {'met' if playing[worst] < TARGET_MS else 'NOT met'}")
    puma = headline["puma560"]
    if structure is not None:
        print(f"structure dashboard (Tourassis & Neuman), q3 slider update: {structure:.1f} ms "
              f"median")
    print()
    for key, what in (("full", "recompute + fig.canvas.draw() + PNG"),
                      ("blit", "recompute + blitted redraw + PNG (the dashboard's default)")):
        value = puma[key]
        print(f"PUMA 560 slider update, {what}: {value:.1f} ms median; target < "
              f"{TARGET_MS:.0f} ms: {'met' if value < TARGET_MS else 'NOT met'} "
              f"({value / TARGET_MS:.2f} of it)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
