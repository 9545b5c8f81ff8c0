"""Shared pytest configuration for tests/."""

import os

# Headless plotting: must be set before matplotlib is first imported.
# (The root conftest.py does the same for the doctests in dynlab/.)
os.environ.setdefault("MPLBACKEND", "Agg")
