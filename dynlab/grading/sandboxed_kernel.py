"""nbgrader's kernels in the sandbox of ``dynlab grade`` (:mod:`dynlab.grading.sandbox`).

:class:`SandboxedExecute` is nbgrader's ``Execute`` with kernels started by
:class:`SandboxedKernel`: in a bubblewrap sandbox with its :class:`~dynlab.grading.sandbox.Limits`,
talking over Unix sockets in a folder of its own bound inside, with only :data:`PASSED` of
nbgrader's environment.  An interrupt goes to the processes inside, not to bubblewrap.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import threading
import uuid

from jupyter_client.manager import AsyncKernelManager
from jupyter_client.provisioning import LocalProvisioner
from nbgrader.preprocessors import Execute

from dynlab.grading import sandbox
from dynlab.grading.own_work import REFUSED_VARIABLE
from dynlab.grading.variants import GIVENS_VARIABLE, STUDENT_VARIABLE

#: The variables of nbgrader's environment that reach the kernel.
PASSED = ("NBGRADER_EXECUTION", STUDENT_VARIABLE, GIVENS_VARIABLE, REFUSED_VARIABLE,
          "PYTHONSTARTUP")


class SandboxedKernel(LocalProvisioner):
    """A kernel started in a sandbox of its own (see the module's docstring)."""

    limits = sandbox.Limits()
    folder = None

    async def pre_launch(self, **kwargs):
        reason = sandbox.unavailable()
        if reason is not None:
            raise RuntimeError(f"no sandbox for nbgrader's kernel: {reason}")
        manager = self.parent
        self.folder = tempfile.mkdtemp(prefix="dynlab-kernel-")
        manager.transport, manager.ip = "ipc", os.path.join(self.folder, "kernel")
        manager.connection_file = os.path.join(self.folder, "kernel.json")
        return await super().pre_launch(**kwargs)

    async def launch_kernel(self, cmd, **kwargs):
        user = sandbox.sandbox_user()
        if os.geteuid() == 0:          # the sandbox's user makes its sockets and reads the file
            for path in (self.folder, self.parent.connection_file):
                os.chown(path, user, user)
        given = kwargs.get("env") or {}
        line = sandbox.command(cmd, [], limits=self.limits, user=user, binds=(self.folder,))
        kwargs.update(env=sandbox.environment({name: given[name] for name in PASSED
                                               if name in given}),
                      cwd="/", independent=True, preexec_fn=sandbox.limit_process(self.limits))
        info = await super().launch_kernel(line, **kwargs)
        threading.Thread(target=self._watch, args=(self.process,), daemon=True).start()
        return info

    def _watch(self, process) -> None:
        """Kill the sandbox once its processes hold more than the limit together."""
        watch = sandbox.MemoryWatch(process.pid, self.limits.total_memory)
        while process.poll() is None:
            if watch.exceeded():
                self.log.warning("dynlab: the kernel's sandbox held more than %g MB of memory "
                                 "(all its processes together) and was stopped",
                                 self.limits.total_memory / 1024 ** 2)
                with contextlib.suppress(OSError):
                    process.kill()
                return
            threading.Event().wait(sandbox.POLL)

    async def send_signal(self, signum: int) -> None:
        if signum != signal.SIGINT or self.process is None:
            return await super().send_signal(signum)
        import psutil
        with contextlib.suppress(psutil.Error):
            for member in psutil.Process(self.process.pid).children(recursive=True):
                if member.name() != "bwrap":
                    with contextlib.suppress(psutil.Error):
                        member.send_signal(signum)

    async def cleanup(self, restart: bool = False) -> None:
        await super().cleanup(restart=restart)
        if not restart and self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


class SandboxedKernelManager(AsyncKernelManager):
    """A kernel manager whose kernels start through :class:`SandboxedKernel`."""

    async def _async_pre_start_kernel(self, **kw):
        self.kernel_id = self.kernel_id or kw.pop("kernel_id", str(uuid.uuid4()))
        if self.provisioner is None:
            self.provisioner = SandboxedKernel(kernel_id=self.kernel_id,
                                               kernel_spec=self.kernel_spec, parent=self)
        return await super()._async_pre_start_kernel(**kw)


class SandboxedExecute(Execute):
    """nbgrader's ``Execute``, its kernels in the sandbox (:class:`SandboxedKernel`)."""

    def __init__(self, *args, **kwargs):
        kwargs["kernel_manager_class"] = SandboxedKernelManager
        super().__init__(*args, **kwargs)
