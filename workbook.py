"""Set up and run the dynlab workbook with nothing but a system Python (>= 3.10).

    python3 workbook.py open [JUPYTER-ARGS...]   # set up, then JupyterLab on
                                                 # notebooks/00_start_here.ipynb
    python3 workbook.py test [PYTEST-ARGS...]    # set up, then run pytest; exits with pytest's
                                                 # exit code
    python3 workbook.py test --quick [ARGS...]   # the library's tests and doctests only: no
                                                 # notebook, browser, hub, nbgrader or sandbox

Set-up makes a virtual environment in .venv/ and runs
`pip install -c constraints.txt -e '.[test]'` into it, then switches off
nbgrader's parts of JupyterLab (its menus, Validate button, Create Assignment
and Formgrader panels are the instructor's; the `nbgrader` command line stays).
It is skipped when a stamp in .venv/ shows pyproject.toml and constraints.txt
(and these set-up steps) unchanged since the last successful set-up. Delete
.venv/ to start from scratch. Commands run from the repository root, so paths
in extra arguments are relative to it. Standard library only.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / "dynlab-install.sha256"
INPUTS = ("pyproject.toml", "constraints.txt")
START_NOTEBOOK = "notebooks/00_start_here.ipynb"
#: What nbgrader adds to JupyterLab and Jupyter Server (the instructor's tools): switched off in
#: the students' .venv. The nbgrader command line does not use them.
NBGRADER_LAB_EXTENSIONS = ("@jupyter/nbgrader",)
NBGRADER_SERVER_EXTENSIONS = (
    "nbgrader.server_extensions.formgrader",
    "nbgrader.server_extensions.validate_assignment",
    "nbgrader.server_extensions.assignment_list",
    "nbgrader.server_extensions.course_list",
)
#: The quick tier (``test --quick``), for the loop of changing the library: its tests and
#: doctests, without tests/product/ (the product end to end: notebooks, browser, hub, nbgrader,
#: sandbox), tests/course/ (the exercises' keys and variants: about ten minutes of one worker)
#: and the tests marked end_to_end or slow in the other folders (a run of dynlab grade in its
#: sandbox; long symbolic proofs, seconds to a minute each); tests spread one by one over the
#: workers (no notebook's cells to keep together), one a core (none of them waits)
QUICK = ("-m", "not (end_to_end or slow)", "--ignore=tests/product", "--ignore=tests/course",
         "-n", "logical", "--dist", "load", "tests", "dynlab")
#: Changes when the set-up steps change, so that an existing .venv is set up again
SETUP_STEPS = "pip install; nbgrader's Lab and server extensions disabled"


def say(msg: str) -> None:
    print(f"[workbook] {msg}", flush=True)


def die(msg: str, code: int = 1) -> None:
    print(f"[workbook] error: {msg}", file=sys.stderr, flush=True)
    sys.exit(code)


def inputs_digest() -> str:
    h = hashlib.sha256()
    for name in INPUTS:
        h.update(name.encode() + b"\0" + (ROOT / name).read_bytes() + b"\0")
    h.update(SETUP_STEPS.encode())
    return h.hexdigest()


def venv_works() -> bool:
    if not PYTHON.exists():
        return False
    check = subprocess.run([str(PYTHON), "-m", "pip", "--version"], capture_output=True)
    return check.returncode == 0


def create_venv() -> None:
    made = subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)])
    if made.returncode != 0 or not venv_works():
        shutil.rmtree(VENV, ignore_errors=True)
        v = f"{sys.version_info.major}.{sys.version_info.minor}"
        die(
            "could not create a virtual environment with pip in it.\n"
            "  Usually this Python lacks the 'venv'/'ensurepip' modules. On Debian/Ubuntu run:\n"
            f"    sudo apt install python3-venv      (or python{v}-venv)\n"
            "  then run this command again."
        )


def setup() -> None:
    want = inputs_digest()
    if PYTHON.exists() and STAMP.exists() and STAMP.read_text().strip() == want:
        return
    if venv_works():
        say("Updating .venv to match pyproject.toml and constraints.txt...")
    else:
        say("Setting up .venv (first run takes a few minutes)...")
        create_venv()
    say("Installing dynlab and its pinned dependencies "
        "(pip install -c constraints.txt -e '.[test]')...")
    pip = [str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check"]
    if subprocess.run([*pip, "-c", "constraints.txt", "-e", ".[test]"], cwd=ROOT).returncode != 0:
        STAMP.unlink(missing_ok=True)
        die(
            "pip could not install the pinned set (see pip's message above).\n"
            f"  This is Python {sys.version.split()[0]}; the pins in constraints.txt were\n"
            "  resolved for one Python version, named in its header."
        )
    hide_nbgrader()
    STAMP.write_text(want + "\n")
    say("Set-up done.")


def hide_nbgrader() -> None:
    """Switch off nbgrader's JupyterLab extension and its Jupyter Server extensions for this
    .venv (sys-prefix level): students see no Validate button, no Create Assignment or
    Formgrader panel. `nbgrader generate_assignment`, `autograde` etc. still work."""
    say("Hiding nbgrader's instructor tools from JupyterLab...")
    jupyter = str(BIN / "jupyter")
    steps = [[jupyter, "labextension", "disable", "--level=sys_prefix", name]
             for name in NBGRADER_LAB_EXTENSIONS]
    steps += [[jupyter, "server", "extension", "disable", "--sys-prefix", name]
              for name in NBGRADER_SERVER_EXTENSIONS]
    for step in steps:
        done = subprocess.run(step, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            STAMP.unlink(missing_ok=True)
            die(f"could not run {' '.join(step[1:])}:\n{done.stdout}{done.stderr}")


def run(cmd: list[str]) -> None:
    """Replace this process with cmd (so Ctrl-C and the exit code are the tool's own)."""
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execv(cmd[0], cmd)
    sys.exit(subprocess.call(cmd))


def main(argv: list[str]) -> None:
    if sys.version_info < (3, 10):    # noqa: UP036 - run by whichever python3 the user has
        die(f"Python >= 3.10 is needed; this is {sys.version.split()[0]} ({sys.executable}).")
    if not argv or argv[0] not in ("open", "test"):
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    command, extra = argv[0], argv[1:]
    os.chdir(ROOT)
    setup()
    if command == "open":
        # root_dir keeps the whole repo (exercises/, solutions/) in Lab's file browser.
        jupyter = [str(BIN / "jupyter"), "lab", f"--ServerApp.root_dir={ROOT}", START_NOTEBOOK]
        if os.name == "posix" and os.geteuid() == 0 and "--allow-root" not in extra:
            jupyter.append("--allow-root")  # containers and CI machines often run as root
        say(f"Starting JupyterLab on {START_NOTEBOOK} (Ctrl-C twice to stop)...")
        run([*jupyter, *extra])
    else:
        if "--quick" in extra:
            extra = [*QUICK, *(a for a in extra if a != "--quick")]
        say(" ".join(["Running: python -m pytest", *extra]))
        run([str(PYTHON), "-m", "pytest", *extra])


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except KeyboardInterrupt:
        sys.exit(130)
