"""The repository's Python passes ruff with the rules of ``[tool.ruff]`` in pyproject.toml, and
every ``noqa`` in it suppresses a finding (RUF100)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing_and_no_noqa_is_unused():
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache",
                          "--output-format", "concise", "--extend-select", "RUF100", "."],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, f"ruff check (from {ROOT}):\n{run.stdout}{run.stderr}"
