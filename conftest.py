"""Root pytest configuration: applies to tests/ and to the doctests in dynlab/."""

import os

# Headless plotting: must be set before matplotlib is first imported.
os.environ.setdefault("MPLBACKEND", "Agg")

# One student's variant of the questions with givens (dynlab.grading.variants) on every machine:
# the stored outputs of solutions/ and exercises/ show the values of the student "student" under
# the default course secret, whoever runs them.
os.environ["DYNLAB_STUDENT"] = "student"
os.environ.pop("DYNLAB_COURSE_SECRET", None)
