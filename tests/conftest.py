"""Shared pytest configuration for tests/."""

import os

# Headless plotting: must be set before matplotlib is first imported.
# (The root conftest.py does the same for the doctests in dynlab/.)
os.environ.setdefault("MPLBACKEND", "Agg")


import pytest  # noqa: E402
import sympy  # noqa: E402


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
