"""JupyterHub for a dynlab course on one machine: local users, an instructor and students.

    jupyterhub -f deploy/hub/jupyterhub_config.py          # as root, from the repository root

The parts (all of them the ones made for the job):

- **JupyterHub** (PyPI ``jupyterhub``) with **configurable-http-proxy** from npm, installed next
  to this folder by ``npm ci --prefix deploy`` (``deploy/node_modules/.bin/``).
- **Local users**: the machine's own accounts (``PAMAuthenticator``, the hub's default). Students
  are the members of one Unix group, instructors are named; the hub never creates accounts
  (``useradd`` does, see the README). Each user's server runs as that user, in their home.
- **The user servers** come from the Python environment the hub runs in (``.venv/`` set up by
  ``python3 workbook.py``, plus ``pip install -c constraints.txt jupyterhub
  jupyterhub-idle-culler``), with the settings of ``deploy/hub/jupyter/`` for everyone: nbgrader's
  exchange at ``DYNLAB_EXCHANGE``, its assignment list on (students fetch and submit there), its
  instructor tools off, and kernels on Unix sockets in a private folder rather than TCP ports
  (``jupyter_server_config.py`` says why: a class starting its kernels at once could pick the
  same free port twice, and a kernel would die).
- **Memory limits**: with systemd running (``/run/systemd/system``), each server is a systemd
  unit (``jupyterhub-systemdspawner``, as The Littlest JupyterHub does) and ``mem_limit`` is
  enforced by its cgroup (``MemoryMax``): a server over it has its kernel killed. Without
  systemd, servers are plain processes (``LocalProcessSpawner``) and ``mem_limit`` is *not*
  enforced, only passed to the server (``MEM_LIMIT``) for display.
- **Idle culling**: ``jupyterhub-idle-culler`` runs as a hub service and stops a server idle for
  ``DYNLAB_CULL_TIMEOUT`` seconds (its memory is given back; the student's files stay).

Settings come from the environment, with a course's defaults:

=========================== ================================ ======================================
variable                    default                          meaning
=========================== ================================ ======================================
``DYNLAB_HUB_URL``          ``http://:8000``                 where students connect (put TLS in
                                                             front, or set ``ssl_cert``/``ssl_key``)
``DYNLAB_HUB_API_URL``      ``http://127.0.0.1:8081``        the hub's own API, for the proxy
``DYNLAB_PROXY_API_URL``    ``http://127.0.0.1:8001``        the proxy's API, for the hub
``DYNLAB_HUB_STATE``        ``/srv/dynlab-hub``              the hub's database and cookie secret
``DYNLAB_EXCHANGE``         ``/srv/nbgrader/exchange``       nbgrader's exchange (mode 1777)
``DYNLAB_COURSE``           ``dynlab``                       nbgrader's course id
``DYNLAB_INSTRUCTORS``      ``instructor``                   instructors' user names (hub admins)
``DYNLAB_STUDENTS_GROUP``   ``students``                     the Unix group whose members may log in
``DYNLAB_MEM_LIMIT``        ``1G``                           memory per user server (see above)
``DYNLAB_CPU_LIMIT``        ``1``                            cores per server (systemd only)
``DYNLAB_CULL_TIMEOUT``     ``3600``                         seconds idle before a server stops
``DYNLAB_SPAWNER``          ``systemd`` if systemd runs      ``systemd`` or ``local``
``DYNLAB_USER_PYTHON``      the hub's own Python             the Python of the user servers (every
                                                             user must be able to run it)
``DYNLAB_HUB_ADMIN_TOKEN``  (none)                           a token for scripts acting as admin
                                                             (e.g. adding a roster); keep secret
=========================== ================================ ======================================

The figures behind ``DYNLAB_MEM_LIMIT`` and ``DYNLAB_CULL_TIMEOUT`` are in deploy/README.md;
``tests/product/test_hub.py`` starts this very file with ten students.
"""

import os
import sys
from pathlib import Path

c = get_config()  # noqa: F821 - provided by JupyterHub when it loads this file

HERE = Path(__file__).resolve().parent
DEPLOY = HERE.parent


def setting(name: str, default: str) -> str:
    return os.environ.get(name) or default


state = Path(setting("DYNLAB_HUB_STATE", "/srv/dynlab-hub"))
exchange = setting("DYNLAB_EXCHANGE", "/srv/nbgrader/exchange")
instructors = {n.strip() for n in setting("DYNLAB_INSTRUCTORS", "instructor").split(",")
               if n.strip()}

# -- the hub and its proxy --------------------------------------------------------------------
c.JupyterHub.bind_url = setting("DYNLAB_HUB_URL", "http://:8000")
c.JupyterHub.hub_bind_url = setting("DYNLAB_HUB_API_URL", "http://127.0.0.1:8081")
c.ConfigurableHTTPProxy.api_url = setting("DYNLAB_PROXY_API_URL", "http://127.0.0.1:8001")
c.ConfigurableHTTPProxy.command = [str(DEPLOY / "node_modules" / ".bin" /
                                       "configurable-http-proxy")]
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(state / "jupyterhub.pid")
# stopping the hub stops the servers and the proxy it started
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True

# -- who logs in ------------------------------------------------------------------------------
c.JupyterHub.authenticator_class = "pam"           # the machine's accounts and passwords
c.LocalAuthenticator.create_system_users = False   # accounts are made with useradd, not here
c.LocalAuthenticator.allowed_groups = {setting("DYNLAB_STUDENTS_GROUP", "students")}
c.Authenticator.allowed_users = set(instructors)
c.Authenticator.admin_users = set(instructors)

# -- the user servers ---------------------------------------------------------------------------
spawner = setting("DYNLAB_SPAWNER", "systemd" if Path("/run/systemd/system").is_dir() else "local")
if spawner == "systemd":
    # pip install jupyterhub-systemdspawner: one systemd unit per server, limits by cgroup
    c.JupyterHub.spawner_class = "systemd"
    c.SystemdSpawner.mem_limit = setting("DYNLAB_MEM_LIMIT", "1G")
    c.SystemdSpawner.cpu_limit = float(setting("DYNLAB_CPU_LIMIT", "1"))
    c.SystemdSpawner.isolate_tmp = True
    c.SystemdSpawner.isolate_devices = True
    c.SystemdSpawner.disable_user_sudo = True
elif spawner == "local":
    c.JupyterHub.spawner_class = "localprocess"
    c.Spawner.mem_limit = setting("DYNLAB_MEM_LIMIT", "1G")     # not enforced: see above
else:
    raise ValueError(f"DYNLAB_SPAWNER must be 'systemd' or 'local', not {spawner!r}")
c.Spawner.cmd = [setting("DYNLAB_USER_PYTHON", sys.executable), "-m", "jupyterhub.singleuser"]
# Each student's server on a port of its own, from the account's uid: a random free port, chosen
# for ten servers starting at once, was once given twice; the second server then moved to the
# next port (Jupyter's port_retries) while the hub sent that student to the first one's pages.
# No retries either: a port in use fails the start, where it can be seen and started again.
c.Spawner.args = ["--ServerApp.port_retries=0"]


def own_port(spawner) -> None:
    """The student's server listens on 10000 + uid mod 20000 (below Linux's ephemeral ports)."""
    import pwd
    spawner.port = 10000 + pwd.getpwnam(spawner.user.name).pw_uid % 20000


c.Spawner.pre_spawn_hook = own_port
c.Spawner.notebook_dir = "~"
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 120                  # ten students starting at once on two cores
c.Spawner.http_timeout = 120
c.Spawner.environment = {
    # deploy/hub/jupyter/: nbgrader's exchange and course, which of its extensions students see
    "JUPYTER_CONFIG_PATH": str(HERE / "jupyter"),
    "DYNLAB_EXCHANGE": exchange,
    "DYNLAB_COURSE": setting("DYNLAB_COURSE", "dynlab"),
}

# -- idle culling: a hub service with just the rights it needs ----------------------------------
c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler",
                f"--timeout={int(setting('DYNLAB_CULL_TIMEOUT', '3600'))}"],
}]
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}]

# -- a token for the instructor's scripts (adding a roster, starting servers) -------------------
admin_token = os.environ.get("DYNLAB_HUB_ADMIN_TOKEN")
if admin_token:
    c.JupyterHub.services.append({"name": "course-admin", "api_token": admin_token})
    c.JupyterHub.load_roles.append({"name": "admin", "services": ["course-admin"]})
