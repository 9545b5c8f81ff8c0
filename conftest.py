"""Root pytest configuration: applies to tests/ and to the doctests in dynlab/.

**One seed for every random draw.**  The run's seed comes from ``--dynlab-seed=N`` or the
environment variable ``DYNLAB_TEST_SEED``; without either it is ``0`` under CI (``CI`` set, as
``.ci/run`` does: the CI's run is the same run every time) and a fresh one otherwise.  It is
printed in the header and under every failing test, and giving it again replays the run:

* the ``rng`` fixture: a NumPy generator seeded by the run's seed and the test's id (so a test's
  draws do not depend on which tests ran before it, or on which xdist worker);
* the grader's fresh points (:func:`dynlab.grading.keys.point_generator`, fresh entropy in the
  product) drawn from generators seeded the same way, new ones at every call;
* SymPy's own generator (``sympy.core.random``), seeded the same way before each test: SymPy
  draws from it where it picks numbers by chance, such as the evaluation points of its
  multivariate factoring (Wang's algorithm, reached through ``trigsimp``), whose running time
  depends on them, and the numeric points of ``Expr.equals``;
* Hypothesis: under CI (and no seed given) the profile ``dynlab-ci``, derandomised (each test's
  examples are fixed by the test itself) with no example database; otherwise ``dynlab``, whose
  examples are drawn from the run's seed (Hypothesis's own ``--hypothesis-seed``) with no example
  database, so that the seed alone replays them.  Both print the blob of a failing example
  (``@reproduce_failure``), and neither has a deadline or a too_slow health check (they depend
  on the machine's load, not on the seed).

**The kernels the suite starts** talk over Unix sockets, never TCP ports: a kernel's manager picks
five free ports and the kernel binds them a moment later, so two kernels started at once (nbval's
in two workers, nbgrader's, a JupyterLab's) can pick the same port, and the one that binds second
dies before it answers ("Kernel died before replying to kernel_info").  A Unix socket is a file
named after the kernel's own id.  The sockets and connection files sit in a short private folder
(``JUPYTER_RUNTIME_DIR``, made here and handed to the workers and every process they start; a
socket's path has at most 107 characters).  nbval's kernels are switched over here; the suite's
other kernels are started with ``--KernelManager.transport=ipc``.  Each nbval kernel's stderr
(nbval sends it to ``/dev/null``) goes to ``test-artifacts/kernels/<folder>-<notebook>.log``,
and a failing cell, or a kernel that does not start, names that file and shows its end.
"""

import hashlib
import os
import secrets
import shutil
import tempfile
from pathlib import Path

# Headless plotting: must be set before matplotlib is first imported.
os.environ.setdefault("MPLBACKEND", "Agg")

# One student id on every machine, and no values a grader handed in: the stored outputs of
# solutions/ and exercises/ show the practice values of the questions with givens
# (dynlab.grading.variants, the same for everyone), whoever runs them.
os.environ["DYNLAB_STUDENT"] = "student"
os.environ.pop("DYNLAB_COURSE_SECRET", None)
os.environ.pop("DYNLAB_GIVENS", None)

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

#: The environment variable that holds the run's seed (and hands it to xdist's workers).
SEED_VARIABLE = "DYNLAB_TEST_SEED"
#: Where each nbval kernel's stderr is kept
KERNEL_LOGS = Path(os.environ.get("DYNLAB_TEST_ARTIFACTS",
                                  Path(__file__).resolve().parent / "test-artifacts")) / "kernels"
#: Set by the run's first process to the private runtime folder it made (workers inherit it)
RUNTIME_VARIABLE = "DYNLAB_TEST_RUNTIME"

# No deadline and no too_slow health check in either: both depend on the machine's load, and a
# run must pass or fail by its seed alone.
settings.register_profile("dynlab-ci", derandomize=True, database=None, print_blob=True,
                          deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dynlab", derandomize=False, database=None, print_blob=True,
                          deadline=None, suppress_health_check=[HealthCheck.too_slow])


def pytest_addoption(parser):
    parser.addoption("--dynlab-seed", type=int, default=None,
                     help=f"seed of every random draw in the tests (default: ${SEED_VARIABLE}, "
                          f"else 0 under CI, else a fresh one; printed in the header)")


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


@pytest.hookimpl(tryfirst=True)          # before Hypothesis's plugin reads --hypothesis-seed
def pytest_configure(config):
    given = config.getoption("--dynlab-seed")
    if given is None and os.environ.get(SEED_VARIABLE, "").strip():
        text = os.environ[SEED_VARIABLE].strip()
        try:
            given = int(text)
        except ValueError:
            raise pytest.UsageError(f"{SEED_VARIABLE} must be a whole number, got {text!r}")
    if given is not None and given < 0:
        raise pytest.UsageError(f"the test seed must be >= 0, got {given}")
    derandomized = given is None and _in_ci()
    seed = given if given is not None else 0 if derandomized else secrets.randbelow(2**32)
    # xdist's workers start after this and inherit the environment: they use the same seed
    os.environ[SEED_VARIABLE] = str(seed)
    config.dynlab_seed = seed
    config.dynlab_derandomized = derandomized
    settings.load_profile("dynlab-ci" if derandomized else "dynlab")
    if not derandomized and config.getoption("hypothesis_seed", None) is None:
        config.option.hypothesis_seed = str(seed)
    if not os.environ.get(RUNTIME_VARIABLE):          # the first process; workers inherit it
        runtime = tempfile.mkdtemp(prefix="dynlab-rt-")                  # mode 0700
        os.environ[RUNTIME_VARIABLE] = os.environ["JUPYTER_RUNTIME_DIR"] = runtime
        config.add_cleanup(lambda: shutil.rmtree(runtime, ignore_errors=True))
    _nbval_kernels_on_unix_sockets()


def _tail(path: Path, characters: int = 3000) -> str:
    text = path.read_text(errors="replace") if path.is_file() else ""
    return text[-characters:] if text.strip() else "(empty)"


def _nbval_kernels_on_unix_sockets() -> None:
    """nbval's kernels over Unix sockets, each one's stderr kept in :data:`KERNEL_LOGS`."""
    try:
        import nbval.kernel
        import nbval.plugin
    except ImportError:                              # pragma: no cover - nbval is a test need
        return
    if getattr(nbval.plugin.IPyNbFile, "kernel_log", None) is not None:
        return
    starting = {}

    class KernelOnUnixSockets(nbval.kernel.KernelManager):
        def __init__(self, **kwargs):                # sockets <runtime>/nbval-<random>-<n>
            socket = Path(os.environ["JUPYTER_RUNTIME_DIR"]) / f"nbval-{secrets.token_hex(8)}"
            super().__init__(transport="ipc", ip=str(socket), **kwargs)

        def start_kernel(self, **kwargs):
            log = starting.pop("log", None)         # set by the notebook that starts it
            if log is None:
                return super().start_kernel(**kwargs)
            log.parent.mkdir(parents=True, exist_ok=True)
            with open(log, "w") as stderr:           # nbval passes /dev/null
                return super().start_kernel(**{**kwargs, "stderr": stderr})

    nbval.kernel.KernelManager = KernelOnUnixSockets
    start_notebook = nbval.plugin.IPyNbFile.setup

    def setup(self):
        path = Path(str(self.fspath))
        self.kernel_log = starting["log"] = KERNEL_LOGS / f"{path.parent.name}-{path.stem}.log"
        try:
            start_notebook(self)
        except Exception as error:
            raise RuntimeError(f"{error}\nthe kernel's stderr is in {self.kernel_log}; it ends:\n"
                               f"{_tail(self.kernel_log)}") from error

    nbval.plugin.IPyNbFile.setup = setup
    nbval.plugin.IPyNbFile.kernel_log = None


def _replay(config) -> str:
    ci = "CI=true " if config.dynlab_derandomized else ""
    return f"{ci}{SEED_VARIABLE}={config.dynlab_seed}"


def pytest_report_header(config):
    hypothesis = ("derandomised (profile dynlab-ci)" if config.dynlab_derandomized
                  else "seeded by it (profile dynlab)")
    return [f"dynlab test seed: {config.dynlab_seed}; Hypothesis {hypothesis}; "
            f"replay with {_replay(config)}"]


def _cost_rank(items: list) -> int:
    """Where a file's tests stand in the run: 0 for the files with tests of the product end to
    end (``tests/product/``, and a test marked ``end_to_end`` elsewhere: kernels, sandboxes, the
    browser, the hub, nbgrader: the longest single tests), 1 for the files of the course's
    content (``tests/course/``) and slow proofs (a minute or two a file), 2 for a notebook under
    nbval (seconds to half a minute), 3 for the rest (unit tests and doctests, seconds a file).
    ``tests/conftest.py`` marks the two folders' tests before this runs."""
    def marked(name):
        return any(item.get_closest_marker(name) for item in items)
    if marked("end_to_end"):
        return 0
    if marked("course") or marked("slow"):
        return 1
    return 2 if items[0].path.suffix == ".ipynb" else 3


def pytest_collection_modifyitems(config, items):
    """The longest files first, a file's tests kept in their order.  xdist's workers take the
    files in this order (``--dist loadfile --no-loadscope-reorder``), so the last files handed
    out are short ones that fill in beside whatever runs longest, rather than a minute of the
    hub or of nbgrader starting when the other worker has nothing left to do."""
    files: dict = {}
    for item in items:
        files.setdefault(item.path, []).append(item)
    ranks = {path: _cost_rank(found) for path, found in files.items()}
    items[:] = sorted(items, key=lambda item: ranks[item.path])       # stable: files stay whole


#: Files whose tests xdist hands out one by one rather than as a whole (``--dist loadfile``
#: keeps every other file on one worker): each test long, on its own (no fixture shared with
#: the file's other tests), and the file's total far longer than the run's other files
SPREAD_FILES = ("tests/product/test_committed_keys.py",)
#: Workers beyond one a core under ``-n auto``.  The files of ``tests/product/`` (but for
#: :data:`SPREAD_FILES`, which compute) mostly wait: for kernels, sandboxes, the browser, the
#: hub, nbgrader (in one run, 369 s of CPU in 2,907 s of their workers' time).  These workers
#: take them first, while one worker a core takes the files that compute; either takes the
#: other kind when its own runs out.
WAITING_WORKERS = 2


def _usable_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        os.cpu_count() or 1


def _waits(scope: str) -> bool:
    """Whether the files of ``scope`` (a file, or a test of :data:`SPREAD_FILES`) mostly wait."""
    return scope.startswith("tests/product/") and scope.split("::")[0] not in SPREAD_FILES


@pytest.hookimpl(optionalhook=True)       # a hook of pytest-xdist, as the next one
def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker a usable core (hyperthreads count), and :data:`WAITING_WORKERS`
    more; ``-n logical`` (the quick tier, which only computes) and xdist's own
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` are xdist's."""
    if config.option.numprocesses != "auto" or os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return _usable_cores() + WAITING_WORKERS


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile``, except that each test of :data:`SPREAD_FILES` is a unit of its own
    (the controller sees only test ids, no marks: hence a list of files), and that the workers
    past one a core take the files that wait first (:data:`WAITING_WORKERS`)."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling
    computing = _usable_cores()

    class LoadFileSpreadingSome(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            file = super()._split_scope(nodeid)
            return nodeid if file in SPREAD_FILES else file

        def _assign_work_unit(self, node) -> None:
            """The first unit in the queue of this worker's kind, else the first one (the
            first one for every worker when there is none past one a core)."""
            first = next(iter(self.workqueue))
            if len(self.nodes) > computing:
                waiting = int(node.gateway.id.removeprefix("gw")) >= computing
                first = next((scope for scope in self.workqueue if _waits(scope) == waiting),
                             first)
            self.workqueue.move_to_end(first, last=False)
            super()._assign_work_unit(node)

    return LoadFileSpreadingSome(config, log)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    log = getattr(item.parent, "kernel_log", None)
    if report.failed and log is not None:
        report.sections.append(("the notebook's kernel", f"its stderr is in {log}; it ends:\n"
                                                         f"{_tail(log)}"))
    if report.failed:
        report.sections.append(("dynlab test seed",
                                f"seed {item.config.dynlab_seed}: replay with "
                                f"{_replay(item.config)} pytest '{item.nodeid}'"))


def _seed_sequence(config, nodeid: str) -> np.random.SeedSequence:
    """The run's seed and the test's id, as one NumPy seed (stable across processes)."""
    test = int.from_bytes(hashlib.sha256(nodeid.encode()).digest()[:8], "little")
    return np.random.SeedSequence([config.dynlab_seed, test])


@pytest.fixture
def rng(request) -> np.random.Generator:
    """A NumPy generator seeded by the run's seed and this test's id."""
    return np.random.default_rng(_seed_sequence(request.config, request.node.nodeid))


@pytest.fixture(autouse=True)
def _seeded_fresh_points(request, monkeypatch):
    """The grader's fresh points drawn from the run's seed: a new generator at every call, as in
    the product, each one spawned from this test's seed."""
    try:
        from dynlab.grading import keys
    except ImportError:                 # pragma: no cover - dynlab is always importable here
        return
    source = _seed_sequence(request.config, request.node.nodeid + "|fresh_points")
    monkeypatch.setattr(keys, "point_generator",
                        lambda: np.random.default_rng(source.spawn(1)[0]), raising=False)


@pytest.fixture(autouse=True)
def _seeded_sympy(request):
    """SymPy's generator seeded by the run's seed and this test's id, before the test."""
    from sympy.core import random as sympy_random
    state = _seed_sequence(request.config, request.node.nodeid + "|sympy").generate_state(1)
    sympy_random.seed(int(state[0]))
