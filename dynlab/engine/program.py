"""A straight-line program, the one representation of recorded and generated code: counted as
the thesis appendix (App. B.7) and Fu, Gonzalez & Lee (Tables 3.1, 3.4) count, printed by
:mod:`dynlab.engine.emitters`, compiled over floats or NumPy arrays."""

from __future__ import annotations

import keyword
import math
import numbers
import re
from collections.abc import Sequence

import numpy as np

from dynlab.engine import emitters
from dynlab.model.vectors import NUMERIC

#: The operations a line can hold besides the functions: binary ``+ - * /`` and negation.
OPERATIONS = ("+", "-", "*", "/", "neg")

#: The functions a line can call.
FUNCTIONS = ("sin", "cos", "exp", "sign", "abs", "sqrt")

#: The functions on floats (the slider path, constant folding, the optimizer's constants).
MATH_FUNCTIONS = {"sin": math.sin, "cos": math.cos, "exp": math.exp, "sign": NUMERIC.sign,
                  "abs": abs, "sqrt": math.sqrt}

#: The functions on NumPy arrays (the vectorized generated code).
NUMPY_FUNCTIONS = {"sin": np.sin, "cos": np.cos, "exp": np.exp, "sign": np.sign,
                   "abs": np.abs, "sqrt": np.sqrt}

_KINDS = {"*": "mul", "+": "add", "-": "add", "neg": "add", "/": "div"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _check_name(name: str, role: str) -> str:
    if not _NAME.fullmatch(name) or keyword.iskeyword(name):
        raise ValueError(f"{role} {name!r}: a program's names are identifiers (letters, digits "
                         f"and _), not keywords")
    return name


def _check_value(value, defined: set, where: str) -> None:
    """An argument or output: a name defined above it, or a real number."""
    if isinstance(value, str):
        if value not in defined:
            raise ValueError(f"{where}: {value!r} is not an input or a line above it")
    elif isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{where}: an argument is a name or a real number, got "
                        f"{type(value).__name__} {value!r}")


class Program:
    """A straight-line program: ``inputs`` ``[(stem, n), ...]`` (input ``k`` is ``f"{stem}{k}"``),
    ``lines`` ``[(target, op, args), ...]`` (``op`` of :data:`OPERATIONS` or :data:`FUNCTIONS`,
    ``args`` names or floats) and ``outputs``.

    >>> p = Program([("x", 2)], [("t0", "*", ("x0", "x1")), ("t1", "cos", ("t0",))], ["t1", 2.0])
    >>> p.counts(), p.compile("f")((0.5, 0.0))
    ({'mul': 1, 'add': 0, 'div': 0, 'call': 1}, (1.0, 2.0))
    >>> print(Program([("x", 1)], [("t0", "-", ("x0", 2.5))], ["t0"]).python_source("f"))
    def f(x):
        x0, = x
        t0 = x0 - 2.5
        return (t0,)
    >>> Program([("x", 1)], [("t0", "tan", ("x0",))], ["t0"])
    Traceback (most recent call last):
    ...
    ValueError: line t0: unknown operation 'tan'; a line holds one of + - * / neg sin cos exp sign
    abs sqrt
    >>> Program([("x", 1)], [("t0", "*", ("x0", "__import__('os')"))], ["t0"])
    Traceback (most recent call last):
    ...
    ValueError: line t0: "__import__('os')" is not an input or a line above it
    """

    def __init__(self, inputs, lines, outputs):
        self.inputs = [(str(stem), int(n)) for stem, n in inputs]
        self.lines = [(str(t), str(op), tuple(args)) for t, op, args in lines]
        self.outputs = list(outputs)
        # every name becomes program text (Python, C, Fortran) and a program may come from a
        # file of the code cache: only identifiers defined before their use, and real numbers
        defined = set()
        for stem, n in self.inputs:
            _check_name(stem, "input group")
            defined.update(f"{stem}{k}" for k in range(n))
        for target, op, args in self.lines:
            if op not in OPERATIONS and op not in FUNCTIONS:
                raise ValueError(f"line {target}: unknown operation {op!r}; a line holds one "
                                 f"of {' '.join(OPERATIONS + FUNCTIONS)}")
            for value in args:
                _check_value(value, defined, f"line {target}")
            defined.add(_check_name(target, "line"))
        for value in self.outputs:
            _check_value(value, defined, "output")

    # -- counts -----------------------------------------------------------------------------------
    def counts(self) -> dict:
        """Multiplications, additions/subtractions (negations included), divisions and function
        calls of the program (each line is one operation)."""
        tally = {"mul": 0, "add": 0, "div": 0, "call": 0}
        for _, op, _ in self.lines:
            tally[_KINDS.get(op, "call")] += 1
        return tally

    def __len__(self) -> int:
        return len(self.lines)

    def to_json(self) -> dict:
        return {"inputs": self.inputs, "lines": [[t, op, list(args)] for t, op, args in
                                                 self.lines], "outputs": self.outputs}

    @classmethod
    def from_json(cls, data: dict) -> Program:
        return cls(data["inputs"], [(t, op, tuple(args)) for t, op, args in data["lines"]],
                   data["outputs"])

    # -- text -------------------------------------------------------------------------------------
    def python_source(self, name: str, arguments: Sequence[str] | None = None) -> str:
        """Python text (:func:`dynlab.engine.emitters.python_source`)."""
        return emitters.python_source(self, name, arguments)

    def c_source(self, name: str, title: str = "", output: str = "out") -> str:
        """C99 text (:func:`dynlab.engine.emitters.c_source`)."""
        return emitters.c_source(self, name, title, output)

    def fortran_source(self, name: str, title: str = "", output: str = "out") -> str:
        """Fortran 90 text (:func:`dynlab.engine.emitters.fortran_source`)."""
        return emitters.fortran_source(self, name, title, output)

    # -- running ----------------------------------------------------------------------------------
    def compile(self, name: str = "generated", arguments: Sequence[str] | None = None,
                functions: dict = MATH_FUNCTIONS):
        """The program as a Python function ``name(*groups)`` returning a tuple: on floats with
        the default :data:`MATH_FUNCTIONS`, on arrays with :data:`NUMPY_FUNCTIONS`.  It runs
        the text of :func:`dynlab.engine.emitters.python_run_source` (the same operations as
        :meth:`python_source`, results used once written inline): the same numbers, faster."""
        # inf and nan: constants folded from parameters so large that they overflow (the
        # callers check the outputs and name the overflow)
        namespace = dict(functions, inf=math.inf, nan=math.nan)
        source = emitters.python_run_source(self, name, arguments)
        exec(compile(source, f"<dynlab program {name}>", "exec"), namespace)  # noqa: S102 - dynlab's source
        return namespace[name]
