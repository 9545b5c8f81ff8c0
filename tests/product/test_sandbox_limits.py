"""A submission's resources are bounded as a whole (issue 40, item 4): ``dynlab grade`` grades
one batch, each notebook in its sandbox, with limits chosen small here so that the test is cheap
(:class:`dynlab.grading.sandbox.Limits`: ``total_memory``, ``file_size``):

- three processes that each hold 1 GiB, each under the limit of one process, hold more than the
  sandbox's total: the sandbox is killed, its student gets 0 and a note saying why;
- files that each stay under the limit of one file but together exceed ``/submission``'s size
  fill it: the write fails inside the sandbox (``ENOSPC``), nothing reaches the grader's disk;
- the other students of the batch get the points they earn.
"""

from __future__ import annotations

import io

import nbformat
import pytest

from dynlab.grading import sandbox
from dynlab.grading.grader import grade_submissions
from dynlab.grading.keys import keys, part_points
from tests.support.graded_course import answered, solution_answers

CONTROL = "05_control"
FULL = {q: sum(part_points(keys()[q]).values()) for q in ("C.1", "C.2", "C.3")}
ZERO = {q: 0.0 for q in FULL}
GIB = 1024 ** 3
#: The limits of this batch: a sandbox may hold 1.5 GiB, /submission 32 MiB.
LIMITS = sandbox.Limits(total_memory=3 * GIB // 2, file_size=32 * 1024 ** 2)

#: Three processes, each holding 1 GiB of pages written to (each under the 2 GB per process).
HOG = """\
import subprocess, sys, time
holders = [subprocess.Popen([sys.executable, '-c',
                             "import time\\nheld = b'1' * 2 ** 30\\ntime.sleep(120)"])
           for _ in range(3)]
time.sleep(60)"""
#: Three files of 20 MiB in /submission, each under the limit of one file (32 MiB).
FILLER = """\
for k in range(3):
    with open(f'/submission/filler-{k}', 'wb') as handle:
        handle.write(b'1' * 20 * 2 ** 20)"""


def _with_cell(code: str) -> nbformat.NotebookNode:
    """05_control answered with the solutions, with a cell of ``code`` before C.3's check."""
    notebook = answered(CONTROL, solution_answers(CONTROL))
    index = next(i for i, cell in enumerate(notebook.cells)
                 if cell.metadata.get("nbgrader", {}).get("grade_id") == "check-C_3")
    notebook.cells.insert(index, nbformat.v4.new_code_cell(code))
    return notebook


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    folder = tmp_path_factory.mktemp("limits")
    for student, notebook in {"alice": answered(CONTROL, solution_answers(CONTROL)),
                              "hog": _with_cell(HOG), "filler": _with_cell(FILLER)}.items():
        (folder / student).mkdir()
        nbformat.write(notebook, folder / student / f"{CONTROL}.ipynb")
    return grade_submissions([folder], stream=io.StringIO(), workers=2, limits=LIMITS)


def test_three_processes_of_1_gib_exceed_the_sandboxs_memory_and_are_stopped(batch):
    assert batch.question_points("hog") == ZERO
    assert batch.notes["hog"][0] == (f"{CONTROL}.ipynb: the sandbox held more than 1536 MB of "
                                     f"memory (all its processes together) and was stopped")
    assert batch.notes["hog"][1:] == [f"{CONTROL}.ipynb: {question}: the answer was never "
                                      f"reached" for question in FULL]


def test_files_past_the_size_of_submission_fail_to_be_written(batch):
    assert batch.question_points("filler") == FULL
    note, = batch.notes["filler"]
    assert "raised OSError: [Errno 28] No space left on device" in note, note


def test_the_others_in_the_batch_keep_their_points(batch):
    assert batch.question_points("alice") == FULL and batch.notes["alice"] == []
