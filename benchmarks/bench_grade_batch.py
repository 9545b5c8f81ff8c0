"""How long ``dynlab grade`` takes for a class: N submissions of one exercise notebook, each run
in its sandbox (bubblewrap) and a fresh kernel and graded from the instructor's solutions,
``--workers`` at a time.

    PYTHONPATH=. python benchmarks/bench_grade_batch.py                 # 100 submissions, 2 workers
    PYTHONPATH=. python benchmarks/bench_grade_batch.py --count 20      # fewer, extrapolated
    PYTHONPATH=. python benchmarks/bench_grade_batch.py --no-sandbox    # the cost of the sandbox

The submissions are the released notebook answered with the solutions, every third one with a
wrong part (:data:`WRONG`, so the feedback's diagnosis runs too), graded for marks: from an
instructor's key folder made in a scratch folder (the committed instructor's keys of
``solutions/answer_keys/``, and a course secret).  Prints the load average before and after, the
wall time of the batch, the median and the slowest notebook (kernel start, the student's cells,
the checks), the CPU seconds of the grader and of every process under it (the workers,
bubblewrap, the kernels, the checks; sampled with psutil every :data:`SAMPLE_SECONDS`, so a
process shorter than that is missed: a lower bound; on a shared machine, what the batch itself
cost), and the batch time extrapolated to 100, as measured and as the CPU seconds would take on
idle cores (CPU seconds / cores used).

Goal (issues 14 and 24): 100 submissions of one notebook on 2 cores in under 10 minutes, with
the sandbox on.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import nbformat  # noqa: E402

from dynlab.grading.grader import grade_submissions  # noqa: E402

GOAL_SECONDS = 600.0
#: Seconds between two samples of the CPU times of the grader's processes.
SAMPLE_SECONDS = 0.1
#: every third submission: h of Prob. 3.16(c) with the wrong sign (when grading notebook 02)
WRONG = ("answer-3_16c", "h = -h")


def submissions(folder: Path, notebook: str, count: int) -> list:
    solution = nbformat.read(ROOT / "solutions" / f"{notebook}.ipynb", as_version=4)
    answers = {c.metadata["nbgrader"]["grade_id"]: c.source for c in solution.cells
               if c.metadata.get("nbgrader", {}).get("solution")}
    release = nbformat.read(ROOT / "exercises" / f"{notebook}.ipynb", as_version=4)
    paths = []
    for k in range(count):
        answered = nbformat.from_dict(release)
        for cell in answered.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
            if grade_id in answers:
                cell.source = answers[grade_id]
                if k % 3 == 2 and grade_id == WRONG[0]:
                    cell.source += "\n" + WRONG[1]
        path = folder / f"student{k:03d}" / f"{notebook}.ipynb"
        path.parent.mkdir()
        nbformat.write(answered, path)
        paths.append(path)
    return paths


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--notebook", default="02_two_link_arm_on_the_ceiling")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="grade without the sandbox (to measure what it costs)")
    args = parser.parse_args(argv)
    from test_instructor_keys import instructor_folder

    from dynlab.grading.keys import use_keys
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as scratch:
        paths = submissions(Path(scratch), args.notebook, args.count)
        keys = instructor_folder(Path(scratch) / "keys")
        meter = CpuMeter()
        start = time.perf_counter()
        try:
            book = grade_submissions(paths, out=Path(scratch) / "grades.csv",
                                     workers=args.workers, sandbox=not args.no_sandbox,
                                     stream=io.StringIO(), keys=keys)
        finally:
            use_keys(None)
            cpu = meter.stop()
        wall = time.perf_counter() - start
    load_after = os.getloadavg()
    seconds = [result.seconds for result in book.results]
    slowest = max(book.results, key=lambda result: result.seconds)
    noted = sum(bool(notes) for notes in book.notes.values())
    totals = sorted({book.total(student) for student in book.rows})
    print(f"{args.count} submissions of {args.notebook}, {args.workers} workers, "
          f"{'no sandbox' if args.no_sandbox else 'each in its sandbox'}, marks "
          f"({'summative' if book.summative else 'formative'}), {os.cpu_count()} cores")
    print(f"  load average (1, 5, 15 min): before {_load(load_before)}, after "
          f"{_load(load_after)}")
    print(f"  batch: {wall:.1f} s wall ({wall / args.count:.2f} s per submission); "
          f"{cpu:.1f} CPU seconds ({cpu / args.count:.2f} per submission)")
    print(f"  one notebook: median {statistics.median(seconds):.2f} s, slowest "
          f"{slowest.seconds:.2f} s ({slowest.student})")
    print(f"  totals seen: {', '.join(f'{t:g}' for t in totals)}; submissions with notes: "
          f"{noted}")
    per_100 = wall / args.count * 100
    print(f"  100 submissions: {per_100:.0f} s "
          f"({'measured' if args.count == 100 else 'extrapolated'}), goal under "
          f"{GOAL_SECONDS:.0f} s: {'met' if per_100 < GOAL_SECONDS else 'NOT met'}")
    cores = min(args.workers, os.cpu_count() or 1)
    idle_100 = cpu / args.count * 100 / cores
    print(f"  100 submissions on {cores} idle cores, from the CPU seconds: {idle_100:.0f} s "
          f"(goal {'met' if idle_100 < GOAL_SECONDS else 'NOT met'}); the rest of the wall "
          f"time, {max(0.0, per_100 - idle_100):.0f} s per 100, the batch was not computing "
          f"(waiting for the shared cores, or for a kernel)")
    return 0


class CpuMeter:
    """User and system CPU seconds of this process and of every process under it, from the time
    it is made until :meth:`stop`: each process's own times, sampled every
    :data:`SAMPLE_SECONDS` (the last sample of each counts), less the sampling itself."""

    def __init__(self):
        import psutil
        self._psutil, self._me = psutil, psutil.Process()
        self._seen: dict = {}
        self._sampling = 0.0
        times = self._me.cpu_times()
        self._own_start = times.user + times.system
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        begun = time.thread_time()
        while not self._done.wait(SAMPLE_SECONDS):
            self._sample()
        self._sample()
        self._sampling = time.thread_time() - begun

    def _sample(self) -> None:
        for process in self._me.children(recursive=True):
            try:
                times = process.cpu_times()
                key = (process.pid, process.create_time())
            except self._psutil.Error:
                continue
            self._seen[key] = times.user + times.system

    def stop(self) -> float:
        self._done.set()
        self._thread.join()
        times = self._me.cpu_times()
        own = times.user + times.system - self._own_start - self._sampling
        return own + sum(self._seen.values())


def _load(load: tuple) -> str:
    return ", ".join(f"{value:.1f}" for value in load)


if __name__ == "__main__":
    sys.exit(main())
