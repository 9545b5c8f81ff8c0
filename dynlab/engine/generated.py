"""Generated code for one robot and one output (:class:`Generated`): its optimized program and
counts, its Python, NumPy, C and Fortran text and the functions that run it; what can be
generated (:data:`WHAT`), and the checks of the arguments generated code is called with.
:func:`~dynlab.dynamics.codegen.generate` makes it from a trace,
:func:`~dynlab.dynamics.closed_forms.closed_form` from SymPy.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping

import numpy as np

from dynlab.engine.code_names import code_name
from dynlab.engine.emitters import counts_text
from dynlab.engine.program import NUMPY_FUNCTIONS, Program
from dynlab.model.checks import all_finite, check_finite

#: Bumped when the layout of cached files changes.
FORMAT = 1

#: What can be generated, with the inputs of the generated function.
WHAT = {
    "inverse_dynamics": ("q", "qd", "qdd"),     # tau(q, qd, qdd), Fu, Gonzalez & Lee, Eq. (3.2-26)
    "inertia_matrix": ("q",),                   # D(q)
    "velocity_terms": ("q", "qd"),              # h(q, qd)
    "gravity_terms": ("q",),                    # c(q)
    "bias": ("q", "qd"),                        # tau at qdd = 0: h + c + friction + tip
    "terms": ("q", "qd"),                       # D, h, c together
    "forward_dynamics": ("q", "qd", "tau"),     # qdd = D^-1 (tau - bias)
}

#: Points per block of :meth:`Generated.vectorized`: each line of a generated program makes one
#: temporary array, and blocks of about a thousand points keep them in the CPU cache (on the
#: PUMA 560 this is about twice as fast as one block of 10,000 points).
VECTOR_CHUNK = 1024


class Generated:
    """Generated code for one robot and output: the :class:`Program`, its counts, its texts
    (``python_source``, ``numpy_source``, ``c_source``, ``fortran_source``), ``scalar`` and
    ``vectorized`` callables; calling it calls ``scalar`` (an array, or a dict of them)."""

    def __init__(self, program: Program, layout, *, name: str, title: str, counts_before=None,
                 constants: Program | None = None, constant_names=(), parameters=(),
                 nonnegative=(), key: str = "", from_cache: bool = False,
                 seconds: float = 0.0):
        self.program = program
        self.layout = [(str(a), tuple(shape)) for a, shape in layout]
        self.name = code_name(name, program)
        self.title = title
        self.counts = program.counts()
        self.counts_before = counts_before           # the tape's (or SymPy cse's) own count
        self.constants = constants                   # closed forms: parameters -> r1, r2, ...
        self.constant_names = tuple(constant_names)
        self.parameters = tuple(parameters)
        self.nonnegative = tuple(nonnegative)        # parameters whose symbol is >= 0 (masses...)
        self.key = key
        self.from_cache = from_cache
        self.seconds = seconds
        self.inputs = [stem for stem, _ in program.inputs]
        self._scalar = self._vector = None

    # -- text ----------------------------------------------------------------------------------
    @property
    def python_source(self) -> str:
        text = self.program.python_source(self.name)
        if self.constants is not None:
            text = self.constants.python_source(self.name + "_constants") + "\n\n\n" + text
        return text

    @property
    def numpy_source(self) -> str:
        return ("import numpy as np\nfrom numpy import sin, cos, exp, sign, abs, sqrt\n\n\n"
                + self.python_source)

    @property
    def c_source(self) -> str:
        text = self.program.c_source(self.name, self.title)
        if self.constants is not None:
            text = self.constants.c_source(self.name + "_constants",
                                           self.title + ": constants") + "\n" + text
        return text

    @property
    def fortran_source(self) -> str:
        text = self.program.fortran_source(self.name, self.title)
        if self.constants is not None:
            text = self.constants.fortran_source(self.name + "_constants",
                                                 self.title + ": constants") + "\n" + text
        return text

    def source(self, language: str) -> str:
        """``"python"``, ``"numpy"``, ``"c"`` or ``"fortran"`` text."""
        sources = {"python": "python_source", "numpy": "numpy_source", "c": "c_source",
                   "fortran": "fortran_source"}
        if language not in sources:
            raise ValueError(f"unknown language {language!r}; choose one of "
                             f"{', '.join(sources)}")
        return getattr(self, sources[language])

    # -- calling -------------------------------------------------------------------------------
    @property
    def scalar(self):
        """The generated Python function on floats: ``f(q, qd, ...)`` -> tuple of floats."""
        if self._scalar is None:
            self._scalar = self.program.compile(self.name)
        return self._scalar

    @property
    def vectorized_function(self):
        """The generated NumPy function: ``f(q, qd, ...)`` with each argument an ``(n, N)``
        array (one column per point) -> tuple of ``N``-arrays (or floats)."""
        if self._vector is None:
            self._vector = self.program.compile(self.name, functions=NUMPY_FUNCTIONS)
        return self._vector

    def _shape(self, flat):
        if len(self.layout) == 1:
            return np.asarray(flat, dtype=float).reshape(self.layout[0][1])
        result, start = {}, 0
        for name, shape in self.layout:
            size = int(np.prod(shape))
            result[name] = np.asarray(flat[start:start + size], dtype=float).reshape(shape)
            start += size
        return result

    def _check_arguments(self, arguments):
        if self.constants is not None:
            raise TypeError(f"{self.name} has symbolic parameters: call bind(values) first")
        if len(arguments) != len(self.inputs):
            raise TypeError(f"{self.name} takes {len(self.inputs)} arguments "
                            f"({', '.join(self.inputs)}), got {len(arguments)}")

    def __call__(self, *arguments):
        self._check_arguments(arguments)
        floats = [_floats(a, n, name, self.name) for a, (name, n) in
                  zip(arguments, self.program.inputs)]
        return self._finite(self.scalar(*floats), floats)

    def _finite(self, flat, floats):
        """``flat`` shaped as the layout, after one check that it is finite (the inputs are:
        inf or NaN in the outputs is an overflow, named by output and entry)."""
        if not all_finite(flat):
            start = 0
            state = {name: values for (name, _), values in zip(self.program.inputs, floats)}
            for name, shape in self.layout:
                size = int(np.prod(shape))
                check_finite(name, np.reshape(flat[start:start + size], shape), self.name,
                             state)
                start += size
        return self._shape(flat)

    def vectorized(self, *arguments):
        """Evaluate at ``N`` points at once: each argument an ``(N, n)`` array; returns
        ``(N, *shape)`` (a dict of such arrays for several outputs)."""
        self._check_arguments(arguments)
        columns = []
        count = None
        for argument, (name, n) in zip(arguments, self.program.inputs):
            array = np.asarray(argument, dtype=float)
            if array.ndim != 2 or array.shape[1] != n:
                raise ValueError(f"{self.name}: {name} must be an (N, {n}) array of points, "
                                 f"got shape {array.shape}")
            if not np.isfinite(array).all():
                point, entry = np.argwhere(~np.isfinite(array))[0]
                raise ValueError(f"{self.name}: {name}[{point}][{entry}] must be finite, got "
                                 f"{array[point, entry]!r}")
            if count is not None and array.shape[0] != count:
                raise ValueError(f"{self.name}: all arguments need the same number of points")
            count = array.shape[0]
            columns.append(np.ascontiguousarray(array.T))
        out = np.empty((len(self.program.outputs), count))
        for start in range(0, count, VECTOR_CHUNK):      # blocks that stay in the CPU cache
            stop = start + VECTOR_CHUNK
            with np.errstate(over="ignore", invalid="ignore"):   # checked below, by name
                values = self.vectorized_function(*(c[:, start:stop] for c in columns))
            for k, value in enumerate(values):
                out[k, start:stop] = value
        flat = out.T
        if not np.isfinite(flat).all():
            point = int(np.argwhere(~np.isfinite(flat))[0][0])
            self._finite(flat[point].tolist(), [np.asarray(a, dtype=float)[point]
                                                for a in arguments])
        if len(self.layout) == 1:
            return flat.reshape((count,) + self.layout[0][1])
        result, start = {}, 0
        for name, shape in self.layout:
            size = int(np.prod(shape))
            result[name] = flat[:, start:start + size].reshape((count,) + shape)
            start += size
        return result

    def bind(self, values: dict):
        """For a closed form with symbolic parameters: the constants ``r1, r2, ...`` computed
        once from ``values`` (``{symbol or name: number}``), and a function of the state."""
        if self.constants is None:
            raise TypeError(f"{self.name} has no symbolic parameters to bind")
        if not isinstance(values, Mapping):
            raise TypeError(f"{self.name}: values must be a dict {{parameter: number}}, got "
                            f"{type(values).__name__} {values!r}")
        by_name = {}
        for k, v in values.items():
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
                raise TypeError(f"{self.name}: parameter {k} must be a real number, got "
                                f"{type(v).__name__} {v!r}")
            by_name[str(k)] = float(v)
        missing = [p for p in self.parameters if p not in by_name]
        if missing:
            raise ValueError(f"{self.name}: give values for {', '.join(missing)}")
        for p in self.parameters:
            if not math.isfinite(by_name[p]):
                raise ValueError(f"{self.name}: parameter {p} must be finite, got {by_name[p]!r}")
            if p in self.nonnegative and by_name[p] < 0:
                raise ValueError(f"{self.name}: parameter {p} must not be negative (a mass, "
                                 f"length, inertia or g: its symbol is positive), got "
                                 f"{by_name[p]!r}")
        r = self.constants.compile(self.name + "_constants")(
            tuple(by_name[p] for p in self.parameters))
        check_finite("constant r", r, self.name + "_constants",
                     {"parameters": [by_name[p] for p in self.parameters]})
        main = self.scalar

        def function(*arguments):
            if len(arguments) != len(self.inputs) - 1:
                raise TypeError(f"{self.name} takes {len(self.inputs) - 1} arguments")
            floats = [_floats(a, n, name, self.name) for a, (name, n) in
                      zip(arguments, self.program.inputs)]
            return self._finite(main(*floats, r), floats)
        return function

    def to_json(self) -> dict:
        return {"format": FORMAT, "key": self.key, "name": self.name, "title": self.title,
                "layout": [[name, list(shape)] for name, shape in self.layout],
                "program": self.program.to_json(), "counts": self.counts,
                "counts_before": self.counts_before,
                "constants": None if self.constants is None else self.constants.to_json(),
                "constant_names": list(self.constant_names),
                "parameters": list(self.parameters),
                "nonnegative": list(self.nonnegative),
                "sources": {"python": self.python_source, "c": self.c_source,
                            "fortran": self.fortran_source}}

    @classmethod
    def from_json(cls, data: dict, from_cache: bool = True) -> Generated:
        return cls(Program.from_json(data["program"]), data["layout"], name=data["name"],
                   title=data["title"], counts_before=data.get("counts_before"),
                   constants=None if data.get("constants") is None else
                   Program.from_json(data["constants"]),
                   constant_names=data.get("constant_names", ()),
                   parameters=data.get("parameters", ()),
                   nonnegative=data.get("nonnegative", ()), key=data["key"],
                   from_cache=from_cache)

    def __repr__(self) -> str:
        return (f"<generated {self.title}: {counts_text(self.counts)}"
                f"{' (from cache)' if self.from_cache else ''}>")


def unknown_output(what) -> Exception:
    """The error for an unknown ``what``: a TypeError naming the type if it is no string."""
    if not isinstance(what, str):
        return TypeError(f"what must be a string, one of {', '.join(WHAT)}; got "
                         f"{type(what).__name__} {what!r}")
    return ValueError(f"unknown output {what!r}; choose one of {', '.join(WHAT)}")


def _floats(values, n, name, where="generated code"):
    """An argument of generated code as ``n`` finite floats, or an error naming the entry."""
    if isinstance(values, np.ndarray):
        values = values.tolist()
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"{where}: {name} must be a sequence of {n} numbers, got "
                        f"{type(values).__name__} {values!r}")
    values = list(values)
    if len(values) != n:
        raise ValueError(f"{where}: {name} must have {n} entries, got {len(values)}")
    if all(type(v) is float for v in values) and all(map(math.isfinite, values)):
        return tuple(values)                     # the common case, quickly
    floats = []
    for k, v in enumerate(values):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
            raise TypeError(f"{where}: {name}[{k}] must be a real number, got "
                            f"{type(v).__name__} {v!r}")
        v = float(v)
        if not math.isfinite(v):
            raise ValueError(f"{where}: {name}[{k}] must be finite, got {v!r}")
        floats.append(v)
    return tuple(floats)
