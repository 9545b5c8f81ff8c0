"""Refresh the stored outputs of the workbook's notebooks: execute each one in place and tidy it.

    .venv/bin/python tools/refresh_notebooks.py [NOTEBOOK ...] [--timeout SECONDS]

Without arguments every ``*.ipynb`` under ``notebooks/``, ``exercises/`` and ``solutions/`` is
refreshed, in name order.  Each notebook is executed top to bottom by a fresh kernel in its own
folder (nbconvert's ``ExecutePreprocessor``, headless: ``MPLBACKEND=Agg``), then tidied so that
the stored file is what ``pytest --nbval`` compares against and diffs stay small:

* widget state is removed (``metadata.widgets``): it is large, changes on every run and is not
  committed;
* a widget's ``application/vnd.jupyter.widget-view+json`` output entry is removed too: without
  the state it cannot be shown, and the rest of the display (a dashboard also stores a PNG of
  its figure and a line of text) is what a reader sees before running the notebook (nbval skips
  that entry when comparing, so this changes no test);
* per-cell execution timestamps (``metadata.execution``) are removed.

The kernels run as the student ``student`` (``DYNLAB_STUDENT``), as under nbval, with no givens
handed in: the givens a notebook shows (``dynlab.grading.variant``) are the practice values, the
same for everyone.

The run time of each notebook is printed; one that takes more than 60 s (the workbook's limit
on this 2-core machine) is flagged.  A notebook that fails to run is left unchanged on disk and
the command exits non-zero.  Run it after changing dynlab or a notebook, check
``git diff``, then ``pytest --nbval`` confirms that a fresh run reproduces what is stored.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("notebooks", "exercises", "solutions")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
LIMIT_SECONDS = 60.0


def notebooks(paths) -> list:
    """The notebooks to refresh: the given ones, or every one under :data:`FOLDERS`."""
    if paths:
        found = [Path(p).resolve() for p in paths]
        missing = [str(p) for p in found if not p.is_file() or p.suffix != ".ipynb"]
        if missing:
            raise SystemExit(f"refresh_notebooks: not a notebook file: {', '.join(missing)}")
        return found
    return sorted(path for folder in FOLDERS for path in (ROOT / folder).glob("**/*.ipynb")
                  if ".ipynb_checkpoints" not in path.parts)


def tidy(notebook) -> None:
    """Strip widget state, widget-view outputs and execution timestamps (in place)."""
    notebook.metadata.pop("widgets", None)
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type != "code":
            continue
        kept = []
        for output in cell.get("outputs", []):
            data = output.get("data")
            if data is not None and WIDGET_VIEW in data:
                data.pop(WIDGET_VIEW)
                if not data:
                    continue
            kept.append(output)
        cell.outputs = kept


def refresh(path: Path, timeout: int) -> float:
    """Execute ``path`` in place and tidy it; returns the seconds the execution took."""
    import nbformat
    from nbconvert.preprocessors import ExecutePreprocessor

    notebook = nbformat.read(path, as_version=4)
    kernel = notebook.metadata.get("kernelspec", {}).get("name", "python3")
    runner = ExecutePreprocessor(timeout=timeout, kernel_name=kernel)
    start = time.perf_counter()
    runner.preprocess(notebook, {"metadata": {"path": str(path.parent)}})
    seconds = time.perf_counter() - start
    tidy(notebook)
    text = nbformat.writes(notebook, version=4)
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    return seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", help="notebooks to refresh (default: all)")
    parser.add_argument("--timeout", type=int, default=600,
                        help="seconds one cell may run (default 600)")
    args = parser.parse_args(argv)
    os.environ.setdefault("MPLBACKEND", "Agg")
    # as pytest's nbval run (conftest.py): the stored givens are the practice values, the same
    # for everyone, and the student's id the same on every machine
    os.environ["DYNLAB_STUDENT"] = "student"
    os.environ.pop("DYNLAB_COURSE_SECRET", None)
    os.environ.pop("DYNLAB_GIVENS", None)
    failures = 0
    for path in notebooks(args.notebooks):
        name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        try:
            seconds = refresh(path, args.timeout)
        except Exception as error:                      # noqa: BLE001 - report and go on
            failures += 1
            print(f"FAILED  {name}: {type(error).__name__}: {str(error)[:2000]}", flush=True)
            continue
        flag = "  (over the 60 s limit!)" if seconds > LIMIT_SECONDS else ""
        print(f"{seconds:6.1f} s  {name}{flag}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
