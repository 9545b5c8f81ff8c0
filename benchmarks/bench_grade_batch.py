"""How long ``dynlab grade`` takes for a class: N submissions of one exercise notebook, each run
in its sandbox (bubblewrap) and a fresh kernel and graded from the instructor's solutions,
``--workers`` at a time.

    PYTHONPATH=. python benchmarks/bench_grade_batch.py                 # 100 submissions, 2 workers
    PYTHONPATH=. python benchmarks/bench_grade_batch.py --count 20      # fewer, extrapolated
    PYTHONPATH=. python benchmarks/bench_grade_batch.py --no-sandbox    # the cost of the sandbox

The submissions are the released notebook answered with the solutions, every third one with a
wrong part (:data:`WRONG`, so the feedback's diagnosis runs too).  Prints the wall time of the
batch, the median and the slowest notebook (kernel start, the student's cells, the checks), and
the batch time extrapolated to 100.

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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import nbformat  # noqa: E402

from dynlab.grading.grader import grade_submissions  # noqa: E402

GOAL_SECONDS = 600.0
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
    with tempfile.TemporaryDirectory() as scratch:
        paths = submissions(Path(scratch), args.notebook, args.count)
        start = time.perf_counter()
        book = grade_submissions(paths, out=Path(scratch) / "grades.csv", workers=args.workers,
                                 sandbox=not args.no_sandbox, stream=io.StringIO())
        wall = time.perf_counter() - start
    seconds = [result.seconds for result in book.results]
    slowest = max(book.results, key=lambda result: result.seconds)
    noted = sum(bool(notes) for notes in book.notes.values())
    totals = sorted({book.total(student) for student in book.rows})
    print(f"{args.count} submissions of {args.notebook}, {args.workers} workers, "
          f"{'no sandbox' if args.no_sandbox else 'each in its sandbox'} "
          f"({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f})")
    print(f"  batch: {wall:.1f} s wall ({wall / args.count:.2f} s per submission)")
    print(f"  one notebook: median {statistics.median(seconds):.2f} s, slowest "
          f"{slowest.seconds:.2f} s ({slowest.student})")
    print(f"  totals seen: {', '.join(f'{t:g}' for t in totals)}; submissions with notes: "
          f"{noted}")
    per_100 = wall / args.count * 100
    print(f"  100 submissions: {per_100:.0f} s "
          f"({'measured' if args.count == 100 else 'extrapolated'}), goal under "
          f"{GOAL_SECONDS:.0f} s: {'met' if per_100 < GOAL_SECONDS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
