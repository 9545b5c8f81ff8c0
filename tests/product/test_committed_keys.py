"""The answer keys committed in ``dynlab/answer_keys/`` are the ones dynlab derives today
(``tools/make_answer_keys.py --check``, every key built anew in a process of its own)."""


def test_the_committed_keys_are_the_ones_dynlab_derives():
    """``tools/make_answer_keys.py --check`` derives every key again and compares: a change in
    dynlab that changes an answer, or an edited key, fails here.  It runs in a process of its
    own, as an instructor runs it (about 2 min of CPU): inside a test worker, after hundreds of
    other tests, the same build once spent over 20 min in SymPy's factoring."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(root / "tools" / "make_answer_keys.py"), "--check"],
                          cwd=root, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(root)})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert done.stdout.strip().endswith("answer keys are up to date"), done.stdout[-3000:]
