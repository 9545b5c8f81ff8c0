"""Shared pytest configuration for tests/.

The folders are the tiers: every test in ``tests/product/`` (the product end to end: notebooks'
kernels, the browser, the hub, nbgrader, the grader's sandbox, the wheel, every key rebuilt) is
marked ``end_to_end``, every test in ``tests/course/`` (the graded exercises' content: keys,
variants, questions, hints, mistakes) ``course``.  ``python3 workbook.py test --quick`` leaves
both out.
"""

import os
from pathlib import Path

# Headless plotting: must be set before matplotlib is first imported.
# (The root conftest.py does the same for the doctests in dynlab/.)
os.environ.setdefault("MPLBACKEND", "Agg")


import pytest
import sympy

#: The marker of every test in each folder of tests/
FOLDER_MARKERS = {"product": "end_to_end", "course": "course"}
HERE = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)     # before -m deselects, and before the root conftest's ordering
def pytest_collection_modifyitems(items):
    for item in items:
        path = Path(item.path).resolve()
        if HERE in path.parents and path.relative_to(HERE).parts[0] in FOLDER_MARKERS:
            item.add_marker(FOLDER_MARKERS[path.relative_to(HERE).parts[0]])


@pytest.fixture
def sympy_objects_created(monkeypatch):
    """A list that records every SymPy object created while the test runs (the numeric path must
    leave it empty).  Build robots and other inputs before relying on it, or clear it first."""
    created = []
    original = sympy.Basic.__new__

    def counting_new(cls, *args, **kwargs):
        created.append(cls)
        return original(cls, *args, **kwargs)

    monkeypatch.setattr(sympy.Basic, "__new__", staticmethod(counting_new))
    return created
