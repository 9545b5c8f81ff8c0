"""The kernels the suite starts cannot take one another's channels, and one that dies says why
(the root ``conftest.py``).

A kernel's manager on TCP picks five free ports and the kernel binds them a moment later; a
second kernel started in that moment can be handed the same ports, and then it dies before it
answers.  That is what a fresh machine saw: every cell of a chapter errored with "Kernel died
before replying to kernel_info", and nbval had sent the kernel's own words to ``/dev/null``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: the longest path a Unix socket may have (``sun_path`` holds 108 bytes with its NUL)
SOCKET_PATH_MAX = 107


def _kernel(**traits):
    from jupyter_client.manager import KernelManager
    return KernelManager(kernel_name="python3", **traits)


def test_a_kernel_handed_another_s_tcp_ports_dies_before_it_answers(tmp_path):
    first = _kernel(connection_file=str(tmp_path / "first.json"))
    first.start_kernel()
    try:
        client = first.client()
        client.start_channels()
        client.wait_for_ready(timeout=60)
        ports = {name: getattr(first, name) for name in
                 ("shell_port", "iopub_port", "stdin_port", "hb_port", "control_port")}
        # as a manager in another process may pick them: jupyter_client's cache of the ports it
        # handed out keeps only one process's kernels apart
        second = _kernel(connection_file=str(tmp_path / "second.json"), cache_ports=False,
                         **ports)
        with open(tmp_path / "second.err", "w") as stderr:
            second.start_kernel(stderr=stderr)
        late = second.client()
        late.start_channels()
        try:
            with pytest.raises(RuntimeError, match="Kernel died before replying to kernel_info"):
                late.wait_for_ready(timeout=60)
        finally:
            late.stop_channels()
            second.shutdown_kernel(now=True)
        assert "Address already in use" in (tmp_path / "second.err").read_text()
        client.stop_channels()
    finally:
        first.shutdown_kernel(now=True)


def test_nbval_s_kernels_talk_over_unix_sockets_in_a_private_folder():
    import nbval.kernel
    runtime = Path(os.environ["JUPYTER_RUNTIME_DIR"])
    assert runtime.stat().st_mode & 0o077 == 0, "the runtime folder is not private"
    started = [nbval.kernel.start_new_kernel(kernel_name="python3", stderr=subprocess.DEVNULL)
               for _ in range(2)]                        # two at once: both answer
    try:
        for manager, _ in started:
            assert manager.transport == "ipc"
            assert Path(manager.ip).parent == runtime
            assert len(f"{manager.ip}-{manager.shell_port}") <= SOCKET_PATH_MAX
        assert started[0][0].ip != started[1][0].ip
    finally:
        for manager, client in started:
            client.stop_channels()
            manager.shutdown_kernel(now=True)


def test_a_notebook_whose_kernel_dies_names_the_file_with_the_kernel_s_stderr(tmp_path):
    # a kernel that says why it dies, then dies; the notebook is under the repository so that
    # the root conftest.py applies, as to every notebook of the suite
    spec = tmp_path / "jupyter" / "kernels" / "dying"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-c",
                 "import sys; sys.stderr.write('the dying kernel says why'); sys.exit(3)"],
        "display_name": "dying", "language": "python"}))
    folder = ROOT / "test-artifacts" / f"dying-kernel-{os.getpid()}"
    folder.mkdir(parents=True, exist_ok=True)
    notebook = folder / "dies.ipynb"
    notebook.write_text(json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "metadata": {},
                   "outputs": [], "source": "1 + 1"}],
        "metadata": {"kernelspec": {"name": "dying", "display_name": "dying",
                                    "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5}))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["JUPYTER_PATH"] = str(tmp_path / "jupyter")
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-p", "no:randomly",
                               str(notebook.relative_to(ROOT))], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300)
    finally:
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
    log = ROOT / "test-artifacts" / "kernels" / f"{folder.name}-dies.log"
    assert done.returncode != 0, done.stdout[-2000:]
    assert f"the kernel's stderr is in {log}" in done.stdout, done.stdout[-4000:]
    assert "the dying kernel says why" in done.stdout
    assert log.read_text() == "the dying kernel says why"
    log.unlink()


def test_the_grader_s_kernel_talks_over_unix_sockets(tmp_path):
    import inspect

    import nbformat

    from dynlab.grading.answers import serialize
    from dynlab.grading.inside import run_in_kernel
    cell = ("import json, ipykernel\n"
            "with open(ipykernel.get_connection_file()) as f:\n"
            "    x = json.load(f)['transport']")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)])
    answers, reasons = run_in_kernel(
        notebook, [{"question": "Q", "answer": "x", "grade_id": "check-Q", "symbols": None}],
        30.0, 10.0, str(tmp_path), inspect.getsource(serialize), notebook_wall_limit=600.0,
        cell_wall_limit=120.0)
    assert reasons == [] and answers == {"Q": {"answer": {"value": "ipc"}}}, (answers, reasons)
