"""The answer keys committed in ``dynlab/answer_keys/`` are the ones dynlab derives today
(``tools/make_answer_keys.py --check NOTEBOOK``, each notebook's keys built anew in a process of
its own)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: One test a graded notebook (solutions/ holds them all): xdist hands them to its workers
#: one by one, rather than one worker building every key for two minutes
NOTEBOOKS = sorted(path.stem for path in (ROOT / "solutions").glob("*.ipynb"))


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_the_committed_keys_are_the_ones_dynlab_derives(notebook):
    """``tools/make_answer_keys.py --check NOTEBOOK`` derives the notebook's keys again and
    compares: a change in dynlab that changes an answer, or an edited key, fails here.  It runs
    in a process of its own, as an instructor runs it: inside a test worker, after hundreds of
    other tests, the whole build once spent over 20 min in SymPy's factoring.  Its hash seed is
    fixed: SymPy's simplification takes paths that depend on it, and with some seeds notebook
    02's keys take many minutes instead of half a minute (the keys agree under any seed)."""
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "make_answer_keys.py"),
                           "--check", notebook],
                          cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    # the notebook's keys were built (its time is printed), and agree with the committed ones
    assert f" s  {notebook}\n" in done.stdout, done.stdout[-3000:]
    assert done.stdout.strip().endswith("answer keys are up to date"), done.stdout[-3000:]
