"""How long one check takes: every question's right answer (the reference answers of
tests/grading/test_grading.py and tests/course/test_grading_questions_06_07.py), each check in
its forked, time-limited child process; and the cost of the child itself (a trivial function run
with and without the fork).

    PYTHONPATH=. python benchmarks/bench_grading.py

Goal (issue 14): every question grades its right answer in under 2 s, the median under 0.1 s.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))            # the test modules import each other by name

from tests.test_grading import RIGHT  # noqa: E402
from tests.test_grading_questions_06_07 import RIGHT as RIGHT_06_07  # noqa: E402
from timing import median_run, median_us  # noqa: E402

from dynlab.grading import check  # noqa: E402
from dynlab.grading.limits import run_limited  # noqa: E402

RIGHT = {**RIGHT, **RIGHT_06_07}

REPEAT = 5


def main() -> int:
    fork = median_us(lambda: run_limited(lambda: 1, 5.0), number=20, repeat=5)
    here = median_us(lambda: run_limited(lambda: 1, None), number=20, repeat=5)
    print(f"child process per check: {fork / 1e3:.1f} ms (in process: {here / 1e3:.3f} ms)")
    times = {}
    for question, answer in RIGHT.items():
        first = time.perf_counter()
        assert check(question, answer).correct, question     # compiles the reference once
        first = time.perf_counter() - first
        seconds, feedback = median_run(lambda: check(question, answer), REPEAT)
        assert feedback.correct, str(feedback)
        times[question] = (first, seconds)
        print(f"  {question:6s} first {first:6.3f} s   median of {REPEAT} {seconds:6.3f} s")
    medians = [t for _, t in times.values()]
    slowest = max(times, key=lambda q: max(times[q]))
    print(f"median over the questions: {statistics.median(medians):.3f} s (goal < 0.1 s); "
          f"slowest: {slowest} {max(times[slowest]):.3f} s (goal < 2 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
