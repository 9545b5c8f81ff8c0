"""Root pytest configuration: applies to tests/ and to the doctests in dynlab/."""

import os

# Headless plotting: must be set before matplotlib is first imported.
os.environ.setdefault("MPLBACKEND", "Agg")
