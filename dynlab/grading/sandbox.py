"""A bubblewrap sandbox (``bwrap``, Debian package ``bubblewrap``) for one submission.

:func:`run` runs a command with a new root holding only ``/usr``, the Python installation and
dynlab read-only, the shipped answer keys as an empty folder, a private ``/tmp`` and
``/submission`` (tmpfs of :attr:`Limits.file_size` bytes, the latter holding copies of the
submission's files); no network; its own IPC, host name and PID namespace (every process ends
with it); an unprivileged user (a fresh uid via ``setpriv`` when run as root); the rlimits of
:class:`Limits`, the memory of all its processes together (:class:`MemoryWatch`), its output
and its wall time.  Its environment goes to bubblewrap as the process environment, never on the
command line (:func:`environment`).

>>> reason = unavailable()
>>> reason is None or "bubblewrap" in reason
True
"""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
import selectors
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from dynlab.grading.limits import SANDBOX_SECONDS

#: Where Debian's package ``bubblewrap`` installs the tool.
BWRAP = "/usr/bin/bwrap"
#: util-linux's tool that changes user (inside the sandbox, when the grader runs as root).
SETPRIV = "/usr/bin/setpriv"
#: The dynlab package (bound read-only inside, so that a kernel there imports the same dynlab).
PACKAGE = Path(__file__).resolve().parents[1]
#: The folder of the submission inside the sandbox.
INSIDE = "/submission"
#: Seconds between two readings of a sandbox's memory (:class:`MemoryWatch`).
POLL = 0.2
#: What to install where the sandbox cannot be made.
INSTALL = ("install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install "
           "bubblewrap) and allow it to create namespaces, or grade with --no-sandbox (not "
           "for marks: a submission then runs with the grader's rights)")


@dataclass(frozen=True)
class Limits:
    """What one sandbox may use."""

    memory: int = 2 * 1024 ** 3       # bytes of address space per process (RLIMIT_AS)
    #: bytes that all its processes hold together (the sum of their PSS; MemoryWatch)
    total_memory: int = 2 * 1024 ** 3
    processes: int = 32               # processes and threads of the sandbox's user (RLIMIT_NPROC)
    output: int = 64 * 1024 ** 2      # bytes read from its standard output
    file_size: int = 256 * 1024 ** 2  # bytes of one file (RLIMIT_FSIZE), of /tmp, of /submission
    #: wall time; None: the grader's, from the notebook's limit (limits.sandbox_clock), and
    #: :data:`~dynlab.grading.limits.SANDBOX_SECONDS` for :func:`run` alone
    seconds: float | None = None
    #: sandboxes that run at once beside this one; run as a user other than root they all count
    #: against that one user's RLIMIT_NPROC, so each may count on ``processes`` for every one
    at_once: int = 1


@dataclass
class Finished:
    """How a sandboxed command ended."""

    returncode: int | None
    stdout: bytes
    stderr: bytes                     # its last 64 KiB
    timed_out: bool = False
    output_exceeded: bool = False
    memory_exceeded: bool = False


@functools.cache
def unavailable() -> str | None:
    """Why no sandbox can be made here (None when it can): bubblewrap missing, or unable to
    create its namespaces."""
    if not (os.path.isfile(BWRAP) and os.access(BWRAP, os.X_OK)):
        return f"{BWRAP} is missing: {INSTALL}"
    if os.geteuid() == 0 and not os.access(SETPRIV, os.X_OK):
        return f"{SETPRIV} (util-linux) is missing: install util-linux"
    try:
        done = subprocess.run([BWRAP, *_namespaces(), "--ro-bind", "/", "/", "true"],
                              capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as error:
        return f"bubblewrap does not run ({error}): {INSTALL}"
    if done.returncode != 0:
        text = done.stderr.decode(errors="replace").strip()[:300]
        refused = userns_refused() if os.geteuid() != 0 else None
        if refused is not None:
            return f"bubblewrap cannot start a sandbox here ({text}): {refused}"
        return f"bubblewrap cannot create its namespaces here ({text}): {INSTALL}"
    return None


#: Where Linux shows its settings (sysctl's names with / for .).
PROC_SYS = Path("/proc/sys")
#: The settings by which Linux refuses a user who is not root the user namespace bubblewrap
#: needs, the value that refuses it, whose setting it is, and the value that allows it.
USERNS_SETTINGS = (
    ("kernel.apparmor_restrict_unprivileged_userns", "1", "AppArmor, as on Ubuntu 23.10 and "
     "later", "0"),
    ("kernel.unprivileged_userns_clone", "0", "a Debian kernel's switch", "1"),
    ("user.max_user_namespaces", "0", "the limit of user namespaces", "10000"),
)
#: The AppArmor profile that lets bubblewrap alone create user namespaces (Ubuntu's way, which
#: keeps the restriction for every other program).
BWRAP_PROFILE = ("abi <abi/4.0>, include <tunables/global> profile bwrap /usr/bin/bwrap "
                 "flags=(unconfined) { userns, }")


def userns_refused(proc_sys: Path | None = None) -> str | None:
    """What to do where a setting of :data:`USERNS_SETTINGS` (read in ``proc_sys``) refuses a
    user who is not root the user namespaces bubblewrap needs; None where none does.

    >>> import tempfile; folder = Path(tempfile.mkdtemp()); (folder / "user").mkdir()
    >>> _ = (folder / "user" / "max_user_namespaces").write_text("0")
    >>> print(userns_refused(folder))             # doctest: +ELLIPSIS
    this Linux refuses user namespaces to users who are not root (user.max_user_namespaces = 0: ...
    """
    folder = PROC_SYS if proc_sys is None else Path(proc_sys)
    for name, refusing, whose, allowing in USERNS_SETTINGS:
        with contextlib.suppress(OSError):
            if (folder / name.replace(".", "/")).read_text().strip() == refusing:
                break
    else:
        return None
    fix = f"sudo sysctl -w {name}={allowing}, and add the line to /etc/sysctl.d/ to keep it"
    if name.startswith("kernel.apparmor"):
        fix = (f"give bubblewrap an AppArmor profile that allows them (a file "
               f"/etc/apparmor.d/bwrap holding '{BWRAP_PROFILE}', then sudo apparmor_parser -r "
               f"/etc/apparmor.d/bwrap), or allow them to every program: {fix}")
    return (f"this Linux refuses user namespaces to users who are not root ({name} = "
            f"{refusing}: {whose}), and bubblewrap needs one to run a sandbox as you. Do one of: "
            f"{fix}; or grade as root, whose sandboxes need no user namespace "
            f"(solutions/README.md, 'When the sandbox cannot start'). No submission was graded")


def _namespaces() -> list:
    spaces = ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
              "--unshare-cgroup-try"]
    if os.geteuid() != 0:
        spaces.insert(0, "--unshare-user")
    return spaces


def python_paths() -> list:
    """The folders a kernel needs, read-only inside: the environment, its base installation,
    every site-packages folder on the path and the dynlab package."""
    folders = {sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix,
               str(Path(os.path.realpath(sys.executable)).parent.parent),
               str(PACKAGE)}
    folders |= {os.path.realpath(entry) for entry in sys.path
                if Path(entry).name in ("site-packages", "dist-packages") and Path(entry).is_dir()}
    kept = []
    for folder in sorted(folders, key=len):       # a folder inside one kept already is bound
        if not any(folder == k or folder.startswith(k + os.sep) for k in kept):
            kept.append(folder)
    return kept


def shipped_keys() -> list:
    """The folders of shipped answer keys among :func:`python_paths`, shown empty inside."""
    found = {str(PACKAGE / "answer_keys")}
    for folder in python_paths():
        found.add(os.path.join(folder, "dynlab", "answer_keys"))
    return sorted(path for path in found if os.path.isdir(path))


def sandbox_user() -> int:
    """A user id unused by the system for one sandbox (root grader): its rlimits its own."""
    return 1_000_000 + secrets.randbelow(1 << 30)


def command(argv: list, files: list, *, limits: Limits, user: int, binds: tuple = (),
            chdir: str = INSIDE) -> list:
    """The bubblewrap command line running ``argv`` with ``files`` (``(name, descriptor)``)
    copied into /submission and ``binds`` bound read-write; every user can read it (``ps``), so
    nothing of the student's goes here."""
    line = [BWRAP, *_namespaces(), "--die-with-parent", "--new-session"]
    made = set()

    def parents(path: str) -> list:
        steps, current = [], Path(path).parent
        while str(current) not in ("/", ".") and str(current) not in made:
            steps.append(str(current))
            current = current.parent
        made.update(steps)
        return [arg for step in reversed(steps) for arg in ("--perms", "0755", "--dir", step)]

    line += ["--ro-bind", "/usr", "/usr"]
    for name in ("lib", "lib64", "lib32", "bin", "sbin"):
        target = Path("/") / name
        if target.is_symlink():
            line += ["--symlink", os.readlink(target), str(target)]
        elif target.is_dir():
            line += ["--ro-bind", str(target), str(target)]
    line += ["--proc", "/proc", "--dev", "/dev"]
    for place in ("/tmp", INSIDE):
        line += ["--size", str(limits.file_size), "--perms", "1777", "--tmpfs", place]
    for folder_ in python_paths():
        if not folder_.startswith("/usr/"):       # /usr is there already
            line += parents(folder_) + ["--ro-bind", folder_, folder_]
    for keys in shipped_keys():                    # an empty folder in place of the keys
        line += ["--tmpfs", keys]
    for name, descriptor in files:
        line += ["--perms", "0644", "--file", str(descriptor), f"{INSIDE}/{name}"]
    for folder_ in binds:
        line += parents(folder_) + ["--bind", folder_, folder_]
    line += ["--chdir", chdir]
    if os.geteuid() == 0:
        line += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--",
                 SETPRIV, f"--reuid={user}", f"--regid={user}", "--clear-groups",
                 "--inh-caps=-all", "--bounding-set=-all", "--"]
    else:
        line += ["--uid", "65534", "--gid", "65534", "--"]
    return line + list(argv)


def environment(own: dict | None = None) -> dict:
    """The environment of a sandbox with ``own`` added, handed to bubblewrap as its process
    environment (readable by the grader's user only), never on its command line."""
    return {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "HOME": "/tmp",
            "USER": "student", "LANG": "C.UTF-8", "PYTHONPATH": str(PACKAGE.parent),
            "PYTHONDONTWRITEBYTECODE": "1", "MPLBACKEND": "Agg",
            "MPLCONFIGDIR": "/tmp/matplotlib", "IPYTHONDIR": "/tmp/ipython",
            "JUPYTER_RUNTIME_DIR": "/tmp/jupyter", "JUPYTER_DATA_DIR": "/tmp/jupyter-data",
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            **(own or {})}


class MemoryWatch:
    """The memory a sandbox's processes hold together: the proportional set size of
    bubblewrap's process ``pid`` and all its descendants (its PID namespace's orphans too).

    >>> MemoryWatch(os.getpid(), 1 << 50).exceeded()
    False
    """

    def __init__(self, pid: int, limit: int):
        import psutil
        self._psutil, self.limit, self.process = psutil, limit, None
        with contextlib.suppress(psutil.Error):
            self.process = psutil.Process(pid)

    def held(self) -> int:
        """Bytes held now by the sandbox's processes (0 once it is gone)."""
        error = self._psutil.Error
        if self.process is None:                   # gone before it was watched
            return 0
        try:
            family = [self.process, *self.process.children(recursive=True)]
        except error:
            return 0
        total = 0
        for member in family:
            with contextlib.suppress(error):
                total += member.memory_full_info().pss
        return total

    def exceeded(self) -> bool:
        return self.held() > self.limit


def tasks_of_user(uid: int, proc: Path = Path("/proc")) -> int:
    """How many processes and threads the user ``uid`` runs now (what ``RLIMIT_NPROC`` counts):
    the entries ``PID/task/TID`` of ``proc`` that ``uid`` owns."""
    count = 0
    for task in Path(proc).glob("[0-9]*/task/[0-9]*"):
        with contextlib.suppress(OSError):
            count += task.stat().st_uid == uid
    return count


def limit_process(limits: Limits):
    """The function that sets ``limits`` in a child process before bubblewrap starts
    (``preexec_fn``)."""
    # Run as root, the sandbox's user is its own and starts with no process.  Run as another
    # user, RLIMIT_NPROC counts that user's processes and threads outside the sandbox too (the
    # instructor's JupyterLab, the other sandboxes running at once): the sandbox may add the
    # allowance of every sandbox running at once to them.
    processes = limits.processes if os.geteuid() == 0 else \
        limits.processes * max(1, limits.at_once) + tasks_of_user(os.getuid())

    def apply():                       # in the child, before bubblewrap starts
        import resource
        for which, value in ((resource.RLIMIT_AS, limits.memory),
                             (resource.RLIMIT_NPROC, processes),
                             (resource.RLIMIT_FSIZE, limits.file_size),
                             (resource.RLIMIT_CORE, 0)):
            resource.setrlimit(which, (value, value))
    return apply


def run(argv: list, folder, *, limits: Limits = Limits(), own: dict | None = None) -> Finished:
    """Run ``argv`` in a sandbox whose /submission holds copies of the regular files of
    ``folder`` and wait for it, within ``limits``, with ``own`` added to its
    :func:`environment`.  Raises RuntimeError when no sandbox can be made here."""
    reason = unavailable()
    if reason is not None:
        raise RuntimeError(reason)
    with contextlib.ExitStack() as opened:
        files = []
        for entry in sorted(os.scandir(folder), key=lambda e: e.name):
            if entry.is_file(follow_symlinks=False):
                handle = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
                opened.callback(os.close, handle)
                files.append((entry.name, handle))
        line = command(argv, files, limits=limits, user=sandbox_user())
        process = subprocess.Popen(line, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, preexec_fn=limit_process(limits),
                                   start_new_session=True, cwd="/", env=environment(own),
                                   pass_fds=[handle for _, handle in files])
    try:
        return _collect(process, limits)
    finally:
        _end(process)


def _collect(process, limits: Limits) -> Finished:
    """Read the sandbox's output within the limits (capped: a sandbox that prints more is
    stopped), until it ends or its time is up."""
    deadline = time.monotonic() + (SANDBOX_SECONDS if limits.seconds is None else limits.seconds)
    out, err, out_size = [], bytearray(), 0
    timed_out = exceeded = too_large = False
    memory, weighed = MemoryWatch(process.pid, limits.total_memory), time.monotonic()
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ, "out")
        selector.register(process.stderr, selectors.EVENT_READ, "err")
        open_streams = 2
        while open_streams:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            if time.monotonic() - weighed >= POLL:
                weighed = time.monotonic()
                if memory.exceeded():
                    too_large = True
                    break
            for handle, _ in selector.select(min(left, POLL)):
                chunk = os.read(handle.fd, 1 << 16)
                if not chunk:
                    selector.unregister(handle.fileobj)
                    open_streams -= 1
                elif handle.data == "out":
                    out_size += len(chunk)
                    if out_size > limits.output:
                        exceeded = True
                        break
                    out.append(chunk)
                else:
                    err += chunk
                    del err[:-65536]
            if exceeded:
                break
    if timed_out or exceeded or too_large:
        _end(process)
    try:
        code = process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        code = None
    return Finished(code, b"".join(out), bytes(err), timed_out, exceeded, too_large)


def _end(process) -> None:
    """Kill the sandbox (bubblewrap's session: with it goes its PID namespace, and every
    process in it) and wait for it."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=30)
    for stream in (process.stdout, process.stderr):
        with contextlib.suppress(OSError):
            stream.close()


def remove(folder) -> None:
    """Delete a sandbox's folder (whatever the submission left in it)."""
    shutil.rmtree(folder, ignore_errors=True)
