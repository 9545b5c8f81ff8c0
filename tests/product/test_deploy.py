"""What ``deploy/`` hands a hub administrator agrees with itself and with the workbook.

- the image's pins are constraints.txt's (``tools/make_image_recipe.py --check``), with
  JupyterHub at the hub's version and none of the test tools, and no Chromium in it;
- the image's ``postBuild`` and the one-machine hub show students the same nbgrader parts: the
  assignment list on, every instructor tool that ``workbook.py`` hides off;
- the hub configuration loads, runs the idle culler as a service with only the rights it needs,
  uses npm's configurable-http-proxy from ``deploy/node_modules`` and refuses an unknown spawner;
- the Helm values hold the same memory limit and culling timeout as the one-machine hub.

``tests/product/test_hub.py`` starts the hub itself.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from traitlets.config import Config

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))
import make_image_recipe  # noqa: E402

import workbook  # noqa: E402


def hub_config(monkeypatch, **environment) -> Config:
    for name in [n for n in os.environ if n.startswith("DYNLAB_")]:
        monkeypatch.delenv(name)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    config = Config()
    path = DEPLOY / "hub" / "jupyterhub_config.py"
    exec(compile(path.read_text(), str(path), "exec"),          # noqa: S102 - our own file
         {"get_config": lambda: config, "__file__": str(path)})
    return config


def test_the_image_carries_the_tested_pins_and_no_test_tools():
    assert make_image_recipe.main(["--check"]) == 0, "run tools/make_image_recipe.py"
    pinned = make_image_recipe.pins((DEPLOY / "image" / "requirements.txt").read_text())
    constraints = make_image_recipe.pins((ROOT / "constraints.txt").read_text())
    assert pinned["jupyterhub"] == constraints["jupyterhub"]      # the hub's own version
    assert {"nbgrader", "jupyterlab", "sympy", "ipympl"} <= set(pinned)
    assert not {"pytest", "playwright", "hypothesis", "nbval", "pytest-xdist"} & set(pinned)
    packages = [line.strip() for line in (DEPLOY / "image" / "apt.txt").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    assert "chromium" not in packages
    assert {"gcc", "libc6-dev"} <= set(packages)          # long programs run as C (engine.native)


def _loop_words(script: str, variable: str) -> set:
    return set(re.search(rf"for {variable} in ([^;]+);", script).group(1).split())


def test_students_see_the_assignment_list_and_none_of_the_instructor_tools():
    post_build = (DEPLOY / "image" / "postBuild").read_text()
    hidden = {name.rsplit(".", 1)[1] for name in workbook.NBGRADER_SERVER_EXTENSIONS}
    assert _loop_words(post_build, "extension") == hidden - {"assignment_list"}
    assert "enable --sys-prefix nbgrader.server_extensions.assignment_list" in post_build
    server = json.loads((DEPLOY / "hub" / "jupyter" / "jupyter_server_config.json").read_text())
    switched = server["ServerApp"]["jpserver_extensions"]
    assert switched == {name: name.endswith("assignment_list")
                        for name in workbook.NBGRADER_SERVER_EXTENSIONS}
    page = json.loads((DEPLOY / "hub" / "jupyter" / "labconfig" / "page_config.json").read_text())
    off = {name.split(":")[1] for name, disabled in page["disabledExtensions"].items()
           if disabled and ":" in name}
    assert off == _loop_words(post_build, "plugin")
    assert "assignment-list" not in off


def test_the_hub_configuration(monkeypatch):
    config = hub_config(monkeypatch, DYNLAB_SPAWNER="local", DYNLAB_CULL_TIMEOUT="1800")
    assert config.ConfigurableHTTPProxy.command == [
        str(DEPLOY / "node_modules" / ".bin" / "configurable-http-proxy")]
    assert config.JupyterHub.spawner_class == "localprocess"
    assert config.Spawner.mem_limit == "1G"
    culler, = config.JupyterHub.services
    assert culler["command"][1:] == ["-m", "jupyterhub_idle_culler", "--timeout=1800"]
    role, = config.JupyterHub.load_roles
    assert role["services"] == ["idle-culler"] and "delete:servers" in role["scopes"]
    assert not any(scope.startswith("admin") for scope in role["scopes"])
    assert config.Authenticator.admin_users == {"instructor"}
    assert config.LocalAuthenticator.allowed_groups == {"students"}
    assert config.Spawner.environment["DYNLAB_EXCHANGE"] == "/srv/nbgrader/exchange"
    with_token = hub_config(monkeypatch, DYNLAB_SPAWNER="systemd", DYNLAB_HUB_ADMIN_TOKEN="x")
    assert with_token.JupyterHub.spawner_class == "systemd"
    assert with_token.SystemdSpawner.mem_limit == "1G"
    assert [s["name"] for s in with_token.JupyterHub.services] == ["idle-culler", "course-admin"]
    with pytest.raises(ValueError, match="DYNLAB_SPAWNER"):
        hub_config(monkeypatch, DYNLAB_SPAWNER="docker")


def test_the_helm_values_match_the_one_machine_hub(monkeypatch):
    values = yaml.safe_load((DEPLOY / "helm" / "values.yaml").read_text())
    config = hub_config(monkeypatch, DYNLAB_SPAWNER="local")
    assert values["singleuser"]["memory"]["limit"] == config.Spawner.mem_limit
    timeout = int(config.JupyterHub.services[0]["command"][-1].split("=")[1])
    assert values["cull"] == {"enabled": True, "timeout": timeout, "every": 300, "users": False}
    mount, = values["singleuser"]["storage"]["extraVolumeMounts"]
    assert mount["mountPath"] == values["singleuser"]["extraEnv"]["DYNLAB_EXCHANGE"]


def test_the_hub_page_figures_are_the_measured_ones():
    """deploy/README.md's table of a course's figures quotes deploy/measurements.json
    (tests/product/test_hub.py)
    and deploy/chapter_memory.json (benchmarks/bench_chapter_memory.py), and its arithmetic."""
    readme = (DEPLOY / "README.md").read_text()
    hub = json.loads((DEPLOY / "measurements.json").read_text())
    chapters = json.loads((DEPLOY / "chapter_memory.json").read_text())["chapters"]
    memory = hub["memory_per_student_mib"]
    rss = round(memory["rss_median"])
    peaks = {c["chapter"]: c["kernel_peak_mib"] for c in chapters}
    lightest, heaviest = min(peaks, key=peaks.get), max(peaks, key=peaks.get)
    server = round(memory["rss_median"] - peaks["00_start_here"])
    heaviest_student = server + round(peaks[heaviest])
    quoted = [
        f"{rss} MiB resident ({round(memory['pss_median'])} MiB proportional share)",
        f"{round(peaks[lightest])} MiB (`{lightest}`) to {round(peaks[heaviest])} MiB "
        f"(`{heaviest}`)",
        f"({rss} - {round(peaks['00_start_here'])} = {server} MiB)",
        f"about {heaviest_student} MiB",
        f"(24 - 2) GiB / {rss} MiB = **about {22 * 1024 // rss // 5 * 5}**",
        f"22 GiB / {heaviest_student} MiB = **about {22 * 1024 // heaviest_student}**",
        f"median {round(hub['server_start_seconds']['median'])} s, slowest "
        f"{round(hub['server_start_seconds']['max'])} s",
        f"median {hub['chapter_seconds']['median']} s",
        f"| {round(hub['grading_seconds'])} s |",
        f"(load average {round(hub['machine']['load_average_1min_at_end'])};",
    ]
    missing = [text for text in quoted if text not in readme]
    assert missing == [], f"deploy/README.md does not quote the measurements: {missing}"


def test_each_users_server_keeps_its_kernel_sockets_in_a_private_folder_it_removes(tmp_path):
    """``deploy/hub/jupyter/jupyter_server_config.py``, loaded as Jupyter Server loads it, in a
    process of its own: kernels on Unix sockets, in a fresh folder only this user can enter,
    which is gone once the server's process has exited."""
    config = DEPLOY / "hub" / "jupyter" / "jupyter_server_config.py"
    shown = subprocess.run(
        [sys.executable, "-c", "import os, runpy, stat\n"
         "from traitlets.config import Config\n"
         "c = Config()\n"
         f"runpy.run_path({str(config)!r}, init_globals={{'get_config': lambda: c}})\n"
         "folder = os.environ['JUPYTER_RUNTIME_DIR']\n"
         "print(c.KernelManager.transport, folder, oct(stat.S_IMODE(os.stat(folder).st_mode)))"],
        capture_output=True, text=True, check=True, env={**os.environ, "TMPDIR": str(tmp_path)})
    transport, folder, mode = shown.stdout.split()
    assert transport == "ipc" and mode == "0o700"
    assert Path(folder).parent == tmp_path and Path(folder).name.startswith("dynlab-runtime-")
    assert not Path(folder).exists() and list(tmp_path.iterdir()) == []
