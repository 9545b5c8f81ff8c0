"""Programs run as compiled C: the one C build of dynlab, for the short cuts of the public
numeric calls (from :data:`NATIVE_FROM` lines; without a compiler the Python code runs) and
for generated code (:func:`compile_c`).  The C holds the statements of
:func:`dynlab.engine.emitters.run_statements` in the same order, built with :data:`FLAGS`
(``-O0 -ffp-contract=off``), so it gives the same numbers as Python to the bit.  A build is
kept in ``native/`` of :func:`dynlab.engine.code_cache.cache_directory`, named by a hash of
text, compiler and flags.

>>> from dynlab.engine.program import Program
>>> p = Program([("q", 1), ("qd", 1), ("qdd", 1)],
...             [("t0", "sin", ("q0",)), ("t1", "*", ("t0", "qd0")), ("t2", "+", ("t1", -2.5))],
...             ["t2", "qdd0"])
>>> print(c_run_source(p, "f"))
#include <math.h>
<BLANKLINE>
int f(const double *x, double *out)
{
    for (int k = 0; k < 3; ++k)
        if (!isfinite(x[k]))
            return 0;
    double v0;
    v0 = ((sin(x[0]) * x[1]) + (-2.5));
    out[0] = v0;
    out[1] = x[2];
    for (int k = 0; k < 2; ++k)
        if (!isfinite(out[k]))
            return 0;
    return 1;
}
"""

from __future__ import annotations

import atexit
import ctypes
import hashlib
import math
import os
import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from dynlab.engine.code_cache import cache_directory, private
from dynlab.engine.code_names import code_name
from dynlab.engine.emitters import C_FUNCTIONS, python_number, run_statements, tree_writer
from dynlab.engine.generated import Generated
from dynlab.engine.program import Program
from dynlab.model.checks import plain_float_vectors

#: A short cut's program of at least this many lines runs as C when a compiler is present:
#: measured (``benchmarks/bench_codegen.py``), the two-link arm's 33 optimised lines and the
#: SCARA's 31 take as long in C as in Python (1.2 us, most of it the call), the pendulum's 4 take
#: longer, the PUMA 560's 433 a third of the time.
NATIVE_FROM = 100

#: The compilers tried, in order.
COMPILERS = ("cc", "gcc", "clang")

#: The flags: no optimisation (a quick compile; see the module's text) and no fused
#: multiply-adds (the results of the Python code, to the bit).
FLAGS = ("-O0", "-ffp-contract=off", "-fPIC", "-shared")

_loaded: dict = {}           # hash of the text -> the loaded function
_failed: set = set()         # compilers that failed once in this process: not tried again
_temporary: list = []        # this process's private directory, when the cache is not private

def compiler() -> str | None:
    """The path of the first of :data:`COMPILERS` on the ``PATH``, or None."""
    for name in COMPILERS:
        found = shutil.which(name)
        if found is not None and found not in _failed:
            return found
    return None


def worth_compiling(program: Program) -> bool:
    """Whether ``program`` is long enough to run as C (:data:`NATIVE_FROM` lines)."""
    return len(program.lines) >= NATIVE_FROM


def _c_number(value: float) -> str:
    if math.isnan(value):
        return "NAN"
    if math.isinf(value):
        return "INFINITY" if value > 0 else "(-INFINITY)"
    return python_number(value)


def c_run_source(program: Program, name: str) -> str:
    """C99 ``int name(const double *x, double *out)`` of
    :func:`dynlab.engine.emitters.run_statements`: inputs in ``x`` group after group, outputs to
    ``out``; 1, or 0 when an input or output is not finite."""
    statements, register, count = run_statements(program)
    start = 0
    for stem, n in program.inputs:
        for k in range(n):
            register[f"{stem}{k}"] = f"x[{start + k}]"
        start += n
    render = tree_writer(register, _c_number, C_FUNCTIONS)
    body = [f"    {register[target]} = {render(tree)};" for target, tree in statements]
    lines = ["#include <math.h>", ""]
    if any(op == "sign" for _, op, _ in program.lines):
        lines += ["static double sign(double x) { return (double)((x > 0) - (x < 0)); }", ""]
    lines += [f"int {name}(const double *x, double *out)", "{",
              f"    for (int k = 0; k < {start}; ++k)", "        if (!isfinite(x[k]))",
              "            return 0;"]
    for first in range(0, count, 16):
        names = (f"v{k}" for k in range(first, min(count, first + 16)))
        lines.append(f"    double {', '.join(names)};")
    lines += body
    lines += [f"    out[{k}] = {render(value) if isinstance(value, str) else _c_number(value)};"
              for k, value in enumerate(program.outputs)]
    lines += [f"    for (int k = 0; k < {len(program.outputs)}; ++k)",
              "        if (!isfinite(out[k]))", "            return 0;", "    return 1;", "}"]
    return "\n".join(lines)


def _directory() -> Path:
    """Where compiled programs are kept: ``native/`` in the directory of generated code
    (:func:`dynlab.engine.code_cache.cache_directory`) when that is this user's alone, else a
    private temporary directory of this process (removed when it ends; a loaded library stays
    loaded)."""
    cache = cache_directory(True)
    try:
        if cache is not None:
            directory = cache / "native"
            directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            if private(directory) and private(cache) and os.access(directory, os.W_OK):
                return directory
    except OSError:
        pass
    if not _temporary:
        _temporary.append(Path(tempfile.mkdtemp(prefix="dynlab_native_")))
        atexit.register(shutil.rmtree, _temporary[0], ignore_errors=True)
    return _temporary[0]


def _build(text: str, name: str, directory: Path) -> Path:
    """The shared library of the C ``text`` in ``directory`` (``name-<hash>.so``, the hash of the
    text, the compiler and :data:`FLAGS`), compiled unless it is there; a RuntimeError when no
    compiler is present or compiling fails."""
    cc = compiler()
    if cc is None:
        raise RuntimeError(f"no C compiler ({', '.join(COMPILERS)}) on this machine")
    digest = hashlib.sha256("\0".join((text, cc, *FLAGS)).encode()).hexdigest()[:24]
    library = directory / f"{name}-{digest}.so"
    if not library.exists():
        with tempfile.TemporaryDirectory(dir=directory) as work:
            source, built = Path(work) / f"{name}.c", Path(work) / f"{name}.so"
            source.write_text(text)
            try:
                done = subprocess.run([cc, *FLAGS, "-o", str(built), str(source), "-lm"],
                                      capture_output=True, text=True, timeout=600)
            except (OSError, subprocess.SubprocessError) as error:
                done = subprocess.CompletedProcess([cc], 1, "", str(error))
            if done.returncode != 0 or not built.exists():
                raise RuntimeError(f"{cc} failed on {name}.c:\n{done.stderr}")
            os.replace(built, library)          # whole or not at all, for a second process
    return library


def _library(text: str, name: str):
    """The function ``name`` of ``text`` compiled and loaded, or None when no compiler is
    present or compiling fails."""
    digest = hashlib.sha256(text.encode()).hexdigest()
    found = _loaded.get(digest)
    if found is not None:
        return found
    try:
        library = _build(text, name, _directory())
    except RuntimeError:
        _failed.add(compiler())         # not tried again in this process
        return None
    try:
        # PyDLL: the call keeps the GIL (a few microseconds of arithmetic, no Python inside),
        # which spares releasing and taking it again
        function = getattr(ctypes.PyDLL(str(library)), name)
    except (OSError, AttributeError):
        return None
    function.restype = ctypes.c_int
    _loaded[digest] = function
    return function


def _compiled(program: Program, name: str):
    """``(run, packed inputs, output type)`` for ``program``, or None."""
    if compiler() is None:
        return None
    run = _library(c_run_source(program, name), name)
    if run is None:
        return None
    size = sum(n for _, n in program.inputs)
    return run, struct.Struct(f"{size}d").pack, ctypes.c_double * len(program.outputs)


def short_cut_function(program: Program, name: str = "joint_function"):
    """``program`` as C with the contract of :func:`dynlab.engine.tracing.short_cut_function`; None
    without a compiler or when compiling fails."""
    if [stem for stem, _ in program.inputs] != ["q", "qd", "qdd"] or \
            len({size for _, size in program.inputs}) != 1:
        raise ValueError(f"{name}: the inputs must be q, qd and qdd of as many entries each, "
                         f"not {program.inputs}")
    compiled = _compiled(program, name)
    if compiled is None:
        return None
    run, pack, Out = compiled
    n = program.inputs[0][1]
    frombuffer = np.frombuffer

    def function(q, qd, qdd):
        floats = plain_float_vectors(q, qd, qdd, n)
        if floats is None:
            return None
        out = Out()
        if run(pack(*floats[0], *floats[1], *floats[2]), out):
            return frombuffer(out)
        return None

    return function


def compile_c(generated: Generated, directory=None):
    """:class:`~dynlab.engine.generated.Generated` code's ``c_source`` compiled with :data:`FLAGS`
    in ``directory``: ``f(*arrays)`` for one point or many ((N, n) arrays), every argument checked
    before C reads it (a ``ValueError``/``TypeError`` naming it); ``RuntimeError`` without a
    compiler."""
    if not isinstance(generated, Generated):
        raise TypeError(f"compile_c takes generated code (codegen.generate, closed_form...), "
                        f"got {type(generated).__name__}")
    if generated.constants is not None:
        raise TypeError("compile_c works on generated code with numeric parameters")
    name = code_name(generated.name, generated.program)
    if directory is not None:
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
    library = _build(generated.c_source, name, directory or _directory())
    handle = ctypes.CDLL(str(library))
    pointer = np.ctypeslib.ndpointer(dtype=np.float64, flags="C_CONTIGUOUS")
    single = getattr(handle, name)
    single.restype = None
    single.argtypes = [pointer] * (len(generated.inputs) + 1)
    batch = getattr(handle, name + "_batch")
    batch.restype = None
    batch.argtypes = [ctypes.c_long] + [pointer] * (len(generated.inputs) + 1)
    size = len(generated.program.outputs)
    inputs = list(generated.program.inputs)

    def function(*arrays):
        if len(arrays) != len(inputs):
            raise TypeError(f"{name} takes {len(inputs)} arguments "
                            f"({', '.join(stem for stem, _ in inputs)}), got {len(arrays)}")
        arrays = [_c_argument(a, stem, n, name) for a, (stem, n) in zip(arrays, inputs)]
        ndim = {a.ndim for a in arrays}
        if ndim == {1}:
            out = np.empty(size)
            single(*arrays, out)
            return out
        if ndim != {2} or len({a.shape[0] for a in arrays}) != 1:
            shapes = ", ".join(f"{stem} {a.shape}" for a, (stem, _) in zip(arrays, inputs))
            raise ValueError(f"{name}: give every argument as one point (1-D) or every one as "
                             f"the same number N of points ((N, n)), got shapes {shapes}")
        out = np.empty((arrays[0].shape[0], size))
        batch(arrays[0].shape[0], *arrays, out)
        return out

    function.library = library
    return function


def _c_argument(value, stem: str, n: int, where: str) -> np.ndarray:
    """An argument of compiled C code as a C-contiguous float64 array of shape ``(n,)`` or
    ``(N, n)``, or an error naming it (the C code reads exactly that many numbers)."""
    array = np.asarray(value)
    if array.dtype.kind not in "iuf":
        raise TypeError(f"{where}: {stem} must be an array of real numbers, got "
                        f"{array.dtype} entries")
    if array.ndim not in (1, 2) or array.shape[-1] != n or (array.ndim == 2
                                                              and array.shape[0] == 0):
        raise ValueError(f"{where}: {stem} must have shape ({n},) for one point or (N, {n}) "
                         f"for N points, got shape {array.shape}")
    return np.ascontiguousarray(array, dtype=np.float64)
