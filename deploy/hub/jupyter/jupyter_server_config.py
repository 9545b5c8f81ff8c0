"""The server of every user of the hub: its kernels talk to it over Unix sockets, not TCP ports.

Over TCP, a server picks five free ports for each new kernel, and the kernel binds them a moment
later. When a class starts its kernels at once, two servers can pick the same free port; the
kernel that binds second dies, and the server restarts it on the very same ports (jupyter_client
keeps a kernel's ports across restarts), five times, then gives it up: the student's notebook
reports a dead kernel. Unix sockets are files named after the kernel's own id, so no two kernels
can want the same one. They sit in a private folder of this server with a short path (a socket's
path has at most 107 characters, which a long user name in ``~/.local/share/jupyter/runtime``
can pass); the server's connection files, which hold each kernel's key, go there too. The
folder is removed when the server exits.

This file is read beside ``jupyter_server_config.json`` (the hub sets ``JUPYTER_CONFIG_PATH`` to
this folder; see ``deploy/hub/jupyterhub_config.py``).
"""

import atexit
import os
import shutil
import tempfile

c = get_config()  # noqa: F821 - provided by Jupyter Server when it loads this file

c.KernelManager.transport = "ipc"
# read by the server when it first needs its runtime folder, after this file (and by its kernels)
runtime = tempfile.mkdtemp(prefix="dynlab-runtime-")                # mode 0700: this user's
os.environ["JUPYTER_RUNTIME_DIR"] = runtime
atexit.register(shutil.rmtree, runtime, ignore_errors=True)
