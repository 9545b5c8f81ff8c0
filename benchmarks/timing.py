"""Timing helpers shared by the benchmark scripts (medians, because machines here are shared and
noisy).  The scripts run as ``python benchmarks/bench_*.py``, so this folder is on ``sys.path``.
"""

from __future__ import annotations

import statistics
import time


def median_us(call, number: int, repeat: int, per: int = 1, clock=time.perf_counter) -> float:
    """Median over ``repeat`` runs of the time of one ``call()``, in microseconds, each run
    timing ``number`` calls; one call first to warm up (tracing and compiling happen once).
    ``per``: the points one call handles (a vectorized call over a trajectory), to divide by.
    ``clock``: wall time by default; ``time.process_time`` counts only this process's CPU time
    (on a shared machine the wall clock also counts the time other processes hold the cores)."""
    call()
    runs = []
    for _ in range(repeat):
        start = clock()
        for _ in range(number):
            call()
        runs.append((clock() - start) / number / per * 1e6)
    return statistics.median(runs)


def median_run(call, repeat: int):
    """``(median seconds, last result)`` of ``repeat`` runs of ``call()``."""
    runs, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs), result
