"""Write the pinned package list of the students' image, ``deploy/image/requirements.txt``, from
``constraints.txt``.

    .venv/bin/python tools/make_image_recipe.py           # write it
    .venv/bin/python tools/make_image_recipe.py --check   # exit 1 if it is not what would be
                                                          # written

The image a hub runs for its students needs what the workbook needs (the ``dependencies`` of
``pyproject.toml``), nbgrader (its assignment list fetches and submits through the exchange) and
JupyterHub (its ``jupyterhub-singleuser`` command connects a student's server to the hub); it
needs none of the test extra's tools (pytest, Playwright, ...).  The packages these pull in are
found by walking their declared requirements in this environment (``importlib.metadata``), and
each gets the exact version ``constraints.txt`` pins for the image's Python (3.11, the Python of
``deploy/image/runtime.txt``).  So the image carries the versions the tests ran with, and a
change of pins shows up here as a diff.
"""

from __future__ import annotations

import argparse
import re
import sys
from importlib import metadata
from pathlib import Path

import tomllib
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINTS = ROOT / "constraints.txt"
OUT = ROOT / "deploy" / "image" / "requirements.txt"
#: The image's Python: markers in constraints.txt are evaluated for it.
IMAGE_PYTHON = "3.11"
#: Beyond the workbook's own dependencies: the exchange (students fetch and submit) and the
#: hub's single-user server.
IMAGE_EXTRAS = ("nbgrader", "jupyterhub")


def pins(text: str, python: str = IMAGE_PYTHON) -> dict:
    """``{canonical name: "Name==version"}`` of the lines of ``constraints.txt`` that hold for
    ``python``.

    >>> pins('a==1 ; python_version < "3.11"\\na==2 ; python_version >= "3.11"\\n# c\\nB_c==3')
    {'a': 'a==2', 'b-c': 'B_c==3'}
    """
    found = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        requirement = Requirement(line)
        if requirement.marker and not requirement.marker.evaluate({"python_version": python}):
            continue
        found[canonicalize_name(requirement.name)] = line.split(";")[0].strip()
    return found


def roots() -> list:
    """The image's top-level packages: pyproject's dependencies and :data:`IMAGE_EXTRAS`."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [*project["dependencies"], *IMAGE_EXTRAS]


def closure(names, python: str = IMAGE_PYTHON) -> set:
    """Every package ``names`` need, by their installed metadata (with the extras a requirement
    asks for, e.g. ``jsonschema[format-nongpl]``; markers evaluated for ``python`` on Linux)."""
    base = {"python_version": python, "sys_platform": "linux", "platform_system": "Linux",
            "os_name": "posix"}
    seen, todo = set(), [Requirement(n) for n in names]
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        extras = tuple(sorted(requirement.extras))
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        for text in metadata.requires(requirement.name) or []:
            needed = Requirement(text)
            if needed.marker is None or any(
                    Marker(str(needed.marker)).evaluate({**base, "extra": extra})
                    for extra in ("", *extras)):
                todo.append(needed)
    return {name for name, _ in seen}


def requirements_txt() -> str:
    pinned = pins(CONSTRAINTS.read_text())
    needed = closure(roots())
    missing = sorted(needed - set(pinned))
    if missing:
        raise SystemExit(f"not pinned in constraints.txt: {', '.join(missing)}")
    lines = sorted((pinned[name] for name in needed), key=str.lower)
    return ("# The students' image: generated from constraints.txt by tools/make_image_recipe.py\n"
            "# (the workbook's dependencies, nbgrader and jupyterhub, at the tested versions).\n"
            "# dynlab itself is installed by postBuild, from the repository.\n"
            + "\n".join(lines) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 if the file differs from what would be written")
    args = parser.parse_args(argv)
    text = requirements_txt()
    if args.check:
        current = OUT.read_text() if OUT.exists() else ""
        if current != text:
            print(f"{OUT.relative_to(ROOT)} is out of date: run tools/make_image_recipe.py",
                  file=sys.stderr)
            return 1
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text)
    print(f"wrote {OUT.relative_to(ROOT)}: {len(re.findall('==', text))} pinned packages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
