"""The package as users install it elsewhere: a wheel, installed without ``-e``, runs the workbook.

The test command installs dynlab in editable mode, so a module or a data file that the wheel
leaves out would go unnoticed by every other test.  Here the repository's files are copied to a
temporary folder, pip builds a wheel from the copy (``pip wheel``, the same build a user's
``pip install`` runs) and installs it into a new virtual environment.  That environment borrows
the third-party packages of the test environment (a ``.pth`` line, so no download), but not its
editable dynlab: ``import dynlab`` there finds only the wheel's copy, which the runs check.  With
it, a chapter of ``notebooks/`` and a notebook of ``solutions/`` (every answer checked against the
answer keys shipped as package data) run in a kernel of that environment.
"""

from __future__ import annotations

import os
import re
import shutil
import site
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
CHAPTER = ROOT / "notebooks" / "01_one_link_pendulum.ipynb"
SOLUTION = ROOT / "solutions" / "01_frames_and_inertia.ipynb"

RUN_NOTEBOOK = textwrap.dedent("""
    import os, sys
    import nbclient, nbformat
    path, out, prefix = sys.argv[1:4]
    notebook = nbformat.read(path, as_version=4)
    where = nbformat.v4.new_code_cell(
        "import dynlab, sys\\n"
        f"assert dynlab.__file__.startswith({prefix!r}), dynlab.__file__\\n"
        f"assert sys.prefix == {prefix!r}, sys.prefix")
    notebook.cells.insert(0, where)
    folder = {"metadata": {"path": os.path.dirname(out)}}
    nbclient.NotebookClient(notebook, timeout=240, kernel_name="python3",
                            resources=folder).execute()
    nbformat.write(notebook, out)
""")


def _borrowed_site_packages() -> list:
    """The test environment's package folders, without the repository (the editable dynlab)."""
    folders = [*site.getsitepackages(), sysconfig.get_paths()["purelib"]]
    return sorted({str(Path(f).resolve()) for f in folders if Path(f).is_dir()})


@pytest.fixture(scope="module")
def wheel_env(tmp_path_factory):
    """(python of a new virtual environment with the dynlab wheel installed, the wheel)."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "dynlab", source / "dynlab",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    built = base / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", "-q", "-w", str(built), str(source)],
                   check=True, cwd=base)
    (wheel,) = built.glob("dynlab-*.whl")
    env = base / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    purelib = Path(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip())
    (purelib / "borrowed.pth").write_text("\n".join(_borrowed_site_packages()) + "\n")
    subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "--no-index",
                    "--disable-pip-version-check", "-q", str(wheel)], check=True, cwd=base)
    return python, wheel


def _run(python: Path, *args, **kwargs) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "JUPYTER_PATH", "VIRTUAL_ENV")}
    env.update(PATH=f"{python.parent}{os.pathsep}{env.get('PATH', '')}", MPLBACKEND="Agg",
               DYNLAB_STRICT_GRADING="1")
    return subprocess.run([str(python), *args], env=env, capture_output=True, text=True,
                          **kwargs)


def test_the_wheel_holds_every_module_and_the_answer_keys(wheel_env):
    _, wheel = wheel_env
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {f"dynlab/{p.relative_to(ROOT / 'dynlab')}" for p in (ROOT / "dynlab").rglob("*.py")}
    keys = {f"dynlab/{p.relative_to(ROOT / 'dynlab')}"
            for p in (ROOT / "dynlab" / "answer_keys").rglob("*.json")}
    assert keys, "no answer keys in the repository"
    arms = {f"dynlab/{p.relative_to(ROOT / 'dynlab')}"
            for p in (ROOT / "dynlab" / "model" / "robots" / "data").glob("*.urdf")}
    assert arms, "no URDF file of an arm in the repository"
    assert modules | keys | arms <= names, sorted((modules | keys | arms) - names)


def test_the_wheel_ships_only_formative_keys_and_no_course_secret(wheel_env, tmp_path):
    """The keys every student installs are the formative ones; the marks' keys and the course
    secret live only in the instructor's folder (tests/course/test_instructor_keys.py), and the
    installed dynlab refuses its own keys as the instructor's."""
    import json
    python, wheel = wheel_env
    archive = zipfile.ZipFile(wheel)
    shipped = [name for name in archive.namelist() if name.startswith("dynlab/answer_keys/")]
    assert shipped and all(name.endswith(".json") for name in shipped)
    assert {json.loads(archive.read(name))["route"] for name in shipped} == {"formative"}
    assert not [name for name in archive.namelist() if "course_secret" in name]
    done = _run(python, "-c", "from dynlab.grading.keys import KEY_DIRECTORY, use_keys\n"
                "try:\n    use_keys(KEY_DIRECTORY)\nexcept ValueError as error:\n"
                "    print('refused:', error)", cwd=tmp_path)
    assert "refused:" in done.stdout and "shipped with dynlab" in done.stdout, done.stderr


def test_the_installed_wheel_is_what_imports(wheel_env, tmp_path):
    python, _ = wheel_env
    done = _run(python, "-c", "import dynlab, sys; print(dynlab.__file__); print(sys.prefix)",
                cwd=tmp_path, check=True)
    location, prefix = done.stdout.split()
    assert location.startswith(prefix) and "site-packages" in location
    assert not location.startswith(str(ROOT))
    cli = _run(python, "-m", "dynlab", "torque", "planar_2r", "--q", "0,0", cwd=tmp_path)
    assert cli.returncode == 0 and "tau1" in cli.stdout, cli.stderr
    cli = _run(python, "-m", "dynlab", "torque", "ur20", "--q", "0,0,0,0,0,0", cwd=tmp_path)
    assert cli.returncode == 0 and "tau6" in cli.stdout, cli.stderr     # its URDF file ships


@pytest.mark.parametrize("notebook", [CHAPTER, SOLUTION], ids=lambda p: p.parent.name)
def test_a_notebook_runs_on_the_installed_wheel(wheel_env, tmp_path, notebook):
    python, _ = wheel_env
    work = tmp_path / notebook.parent.name
    work.mkdir()
    copy = work / notebook.name
    shutil.copy2(notebook, copy)
    out = work / "executed.ipynb"
    prefix = _run(python, "-c", "import sys; print(sys.prefix)", check=True).stdout.strip()
    done = _run(python, "-c", RUN_NOTEBOOK, str(copy), str(out), prefix, cwd=work)
    assert done.returncode == 0, done.stderr[-3000:]
    executed = nbformat.read(out, as_version=4)
    errors = [o for c in executed.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.output_type == "error"]
    assert not errors
    if notebook is SOLUTION:
        last = executed.cells[-1].outputs
        text = "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "")
                       for o in last)
        got, total = map(int, re.search(r"(\d+)/(\d+) points", text).groups())
        assert got == total > 0, text
