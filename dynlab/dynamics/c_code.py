"""Generated C compiled and called from Python (:func:`compile_c`, for the tests and the
benchmarks): the C text of :class:`~dynlab.dynamics.generated.Generated` built into a shared
library with gcc, each argument checked before the C code reads it.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numpy as np

from dynlab.dynamics.code_cache import cache_directory
from dynlab.dynamics.code_names import code_name
from dynlab.dynamics.generated import Generated

def compile_c(generated: Generated, directory=None, compiler: str = "gcc"):
    """Compile ``generated.c_source`` into a shared library with ``compiler`` and return a
    function of NumPy arrays: ``f(*arrays)`` for one point (1-D arrays of each input's length) or
    many ((N, n) arrays, through the ``_batch`` loop).  Each argument is checked before the C
    code reads it (its count, shape, real entries, the same N for all): a wrong one is a
    ``ValueError``/``TypeError`` naming it, never a read past its end.  Raises ``RuntimeError``
    when compiling fails."""
    import ctypes
    import shutil
    import subprocess
    if not isinstance(generated, Generated):
        raise TypeError(f"compile_c takes generated code (codegen.generate, closed_form...), "
                        f"got {type(generated).__name__}")
    if shutil.which(compiler) is None:
        raise RuntimeError(f"no C compiler {compiler!r} on this machine")
    if generated.constants is not None:
        raise TypeError("compile_c works on generated code with numeric parameters")
    name = code_name(generated.name, generated.program)
    # a library found here is loaded: a folder of this user's alone (cache_directory), else
    # one of this process's own
    directory = Path(directory) if directory is not None else \
        (cache_directory(True) or Path(tempfile.mkdtemp(prefix="dynlab_c_")))
    directory.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(generated.c_source.encode()).hexdigest()[:16]
    source = directory / f"{name}-{digest}.c"
    library = directory / f"{name}-{digest}.so"
    if not library.exists():
        source.write_text(generated.c_source)
        built = directory / f"{name}-{digest}.{os.getpid()}.so"
        done = subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", str(built),
                               str(source), "-lm"], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{compiler} failed on {source}:\n{done.stderr}")
        built.replace(library)            # whole, or not there: another process may load it
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
