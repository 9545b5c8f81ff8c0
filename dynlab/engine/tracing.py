"""A recursion run on :class:`Traced` values records a tape: one record ``(target, op, args)``
per operation that has to happen (``0 * x``, ``1 * x``, ``x + 0`` folded; equal operations
once), whose live records are a :class:`dynlab.engine.program.Program`: compiled, the slider
path; counted, the recursion's measured count (Fu, Gonzalez & Lee, Tables 3.1, 3.4).

>>> tape = Tape()
>>> x, y = tape.inputs("x", 2)
>>> tape.outputs([x * y + 0 * y, 1 * x - 2.5])
>>> tape.lines
[('t0', '*', ('x0', 'x1')), ('t1', '-', ('x0', 2.5))]
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from dynlab.engine import emitters
from dynlab.engine.program import MATH_FUNCTIONS, Program
from dynlab.model.checks import plain_float_vectors
from dynlab.model.vectors import Backend

_COMMUTATIVE = {"+", "*"}


class Traced:
    """A value computed at run time: the name of a variable on a :class:`Tape`."""

    __slots__ = ("tape", "name")

    def __init__(self, tape: Tape, name: str):
        self.tape = tape
        self.name = name

    # arithmetic records a line (or folds it away)
    def __add__(self, other):
        return self.tape.binary("+", self, other)

    def __radd__(self, other):
        return self.tape.binary("+", other, self)

    def __sub__(self, other):
        return self.tape.binary("-", self, other)

    def __rsub__(self, other):
        return self.tape.binary("-", other, self)

    def __mul__(self, other):
        return self.tape.binary("*", self, other)

    def __rmul__(self, other):
        return self.tape.binary("*", other, self)

    def __truediv__(self, other):
        return self.tape.binary("/", self, other)

    def __rtruediv__(self, other):
        return self.tape.binary("/", other, self)

    def __neg__(self):
        return self.tape.unary("-", self)

    def __pos__(self):
        return self

    def __repr__(self) -> str:
        return self.name


def _is_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _argument(value):
    """A line's argument: a variable's name or a float."""
    return value.name if isinstance(value, Traced) else float(value)


def _key(value) -> str:
    """``value`` as it enters the key of a recorded operation (``repr`` keeps ``-0.0`` apart)."""
    return value.name if isinstance(value, Traced) else repr(float(value))


class Tape:
    """The straight-line program a run on :class:`Traced` values leaves: ``lines`` ``(target, op,
    args)`` in order (a :class:`~dynlab.engine.program.Program`'s layout); :meth:`program` keeps the
    live ones."""

    def __init__(self):
        self.lines: list[tuple[str, str, tuple]] = []
        self._known: dict[tuple, Traced] = {}
        self._inputs: list[tuple[str, int]] = []
        self._outputs: list = []

    def inputs(self, name: str, n: int) -> list:
        """A group of ``n`` inputs named ``name0``, ``name1``, ... (an argument of the
        compiled function)."""
        self._inputs.append((name, n))
        return [Traced(self, f"{name}{k}") for k in range(n)]

    def _record(self, key: tuple, op: str, args: tuple) -> Traced:
        found = self._known.get(key)
        if found is not None:
            return found
        target = Traced(self, f"t{len(self.lines)}")
        self.lines.append((target.name, op, args))
        self._known[key] = target
        return target

    def binary(self, op: str, a, b):
        a_num, b_num = _is_number(a), _is_number(b)
        if a_num and b_num:
            return {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[op]
        if op == "+":
            if a_num and a == 0:
                return b
            if b_num and b == 0:
                return a
        elif op == "-":
            if b_num and b == 0:
                return a
            if a_num and a == 0:
                return -b
        elif op == "*":
            if (a_num and a == 0) or (b_num and b == 0):
                return 0.0
            if a_num and a == 1:
                return b
            if b_num and b == 1:
                return a
            if a_num and a == -1:
                return -b
            if b_num and b == -1:
                return -a
        elif op == "/":
            if b_num and b == 1:
                return a
            if a_num and a == 0:
                return 0.0
        operands = (_key(a), _key(b))
        if op in _COMMUTATIVE:
            operands = tuple(sorted(operands))
        return self._record((op, *operands), op, (_argument(a), _argument(b)))

    def unary(self, op: str, a):
        if _is_number(a):
            return -a
        return self._record(("neg", a.name), "neg", (a.name,))

    def call(self, function: str, a):
        if _is_number(a):
            return MATH_FUNCTIONS[function](a)
        return self._record((function, a.name), function, (a.name,))

    def outputs(self, values) -> None:
        """Declare the results (traced values or numbers) of the run."""
        self._outputs = list(values)

    def program(self) -> Program:
        """The recorded run as a :class:`~dynlab.engine.program.Program`: the lines that an output
        depends on (dead code left out), the input groups, the outputs."""
        outputs = [_argument(v) for v in self._outputs]
        needed = {v for v in outputs if isinstance(v, str)}
        keep = []
        for target, op, args in reversed(self.lines):
            if target in needed:
                keep.append((target, op, args))
                needed.update(a for a in args if isinstance(a, str))
        keep.reverse()
        return Program(self._inputs, keep, outputs)

    def counts(self) -> dict:
        """Operations of the live program: multiplications, additions/subtractions (a negation
        counts as one), divisions, and function calls (sin, cos, ...)."""
        return self.program().counts()

    def source(self, name: str, arguments: tuple) -> str:
        """Python source of a function ``name(*arguments)`` returning the outputs as a tuple."""
        return self.program().python_source(name, arguments)

    def compile(self, name: str, arguments: tuple):
        """The tape as a Python function on floats
        (:meth:`dynlab.engine.program.Program.compile`)."""
        return self.program().compile(name, arguments)


def backend_for(tape: Tape) -> Backend:
    """A :class:`~dynlab.model.vectors.Backend` whose functions record calls on ``tape``."""
    return Backend("traced", lambda x: tape.call("sin", x), lambda x: tape.call("cos", x),
                   lambda x: tape.call("sign", x), lambda x: tape.call("exp", x),
                   lambda x: tape.call("abs", x))


#: The longest program (in live lines) that the public calls' short cuts optimise.  The optimizer's
#: time grows faster than the program (30 ms for the PUMA 560's 518 lines, half a second at 2,000
#: lines, nearly 4 s at 6,400: a 30-link chain's Newton-Euler torques), and on a chain in general
#: position, whose constants are all different, it finds next to nothing to save.
OPTIMIZE_LIMIT = 2000


def worth_optimizing(tape: Tape) -> bool:
    """Whether the short cuts optimise ``tape``'s program (:data:`OPTIMIZE_LIMIT`).

    >>> tape = Tape()
    >>> x, = tape.inputs("x", 1)
    >>> tape.outputs([x * x])
    >>> worth_optimizing(tape)
    True
    """
    return len(tape.lines) <= OPTIMIZE_LIMIT or len(tape.program()) <= OPTIMIZE_LIMIT


#: For each operation of a program line, the positions of its arguments through which an inf or
#: NaN always reaches the result (or makes the float operation raise): ``x + inf`` is inf or
#: NaN, ``inf * 0`` is NaN, ``math.sin(inf)`` raises ``ValueError``, ``inf / 0`` raises
#: ``ZeroDivisionError``; but ``1 / inf`` is 0, ``exp(-inf)`` is 0 and ``sign(inf)`` is 1.
_PASSES_NON_FINITE = {"+": (0, 1), "-": (0, 1), "*": (0, 1), "neg": (0,), "/": (0,),
                      "sin": (0,), "cos": (0,), "sqrt": (0,), "abs": (0,),
                      "exp": (), "sign": ()}


def unshown_inputs(program: Program) -> list:
    """The inputs ``(stem, k)`` of ``program`` whose inf or NaN might not show in the outputs (used
    only by ``exp``, ``sign``, a divisor, or not at all; :data:`_PASSES_NON_FINITE`): a caller
    that checks the outputs and catches ``ValueError``/``ArithmeticError`` checks only these.

    >>> tape = Tape()
    >>> x, y = tape.inputs("x", 2)
    >>> tape.outputs([x * 2.0 + 1.0 / y])
    >>> unshown_inputs(tape.program())                  # y = inf gives x * 2 + 0
    [('x', 1)]
    """
    every = [(stem, k) for stem, n in program.inputs for k in range(n)]
    if len({target for target, _, _ in program.lines}) != len(program.lines):
        return every                    # a name assigned twice: no claim about any input
    carries = {value for value in program.outputs if isinstance(value, str)}
    for target, op, args in reversed(program.lines):
        if target in carries:
            carries.update(args[k] for k in _PASSES_NON_FINITE[op] if isinstance(args[k], str))
    return [(stem, k) for stem, k in every if f"{stem}{k}" not in carries]


def short_cut_function(program: Program, name: str = "joint_function"):
    """``program`` (inputs ``q``, ``qd``, ``qdd``) compiled for a short cut: ``function(q, qd,
    qdd)`` is the outputs as an array for plain finite floats (:func:`unshown_inputs` checked,
    the outputs' sum finite), else None; the operations are :meth:`Program.compile`'s.

    >>> tape = Tape()
    >>> x, y, z = (tape.inputs(stem, 1)[0] for stem in ("q", "qd", "qdd"))
    >>> tape.outputs([x * 2.0 + 1.0 / y, z - 1.0])
    >>> function = short_cut_function(tape.program())
    >>> function([1.0], [0.5], [3.0]), function(np.array([1.0]), np.array([0.5]), np.zeros(1))
    (array([4., 2.]), array([ 4., -1.]))
    >>> function([1.0], [float("inf")], [3.0]), function([1.0], [0.0], [3.0])
    (None, None)
    >>> function([1], [0.5], [3.0]) is None                # not plain floats
    True
    """
    arguments = ("q", "qd", "qdd")
    if [stem for stem, _ in program.inputs] != list(arguments):
        raise ValueError(f"{name}: the inputs must be q, qd and qdd, not "
                         f"{', '.join(stem for stem, _ in program.inputs)}")
    n = program.inputs[0][1]
    if any(size != n for _, size in program.inputs):
        raise ValueError(f"{name}: q, qd and qdd must have as many entries each")
    lines = emitters.python_run_source(program, name, arguments).split("\n")
    unpacking, body, (result,) = lines[1:4], lines[4:-1], lines[-1:]
    unshown = [f"{stem}{k}" for stem, k in unshown_inputs(program)]
    text = [lines[0],
            "    if type(q) is ndarray and type(qd) is ndarray and type(qdd) is ndarray:",
            "        if (q.dtype is not float64 or qd.dtype is not float64",
            "                or qdd.dtype is not float64 or q.shape != shape",
            "                or qd.shape != shape or qdd.shape != shape):",
            "            return None",
            "        q, qd, qdd = q.tolist(), qd.tolist(), qdd.tolist()",
            "    else:",
            "        floats = plain_float_vectors(q, qd, qdd, n)",
            "        if floats is None:",
            "            return None",
            "        q, qd, qdd = floats",
            *unpacking]
    if unshown:
        text.append(f"    if not isfinite({' + '.join(unshown)}):")
        text.append("        return None")
    if body:                  # (a program whose outputs are all constants has no body)
        text += ["    try:", *("    " + line for line in body),
                 "    except (ValueError, ArithmeticError):     # math.sin(inf), inf / 0, ...",
                 "        return None"]
    text += [result.replace("    return ", "    outputs = ", 1),
             "    if isfinite(sum(outputs)):",
             "        return array(outputs)",
             "    return None"]
    namespace = dict(MATH_FUNCTIONS, inf=math.inf, nan=math.nan, isfinite=math.isfinite,
                     ndarray=np.ndarray, float64=np.dtype(np.float64), array=np.array,
                     shape=(n,), n=n, plain_float_vectors=plain_float_vectors)
    exec(compile("\n".join(text), f"<dynlab short cut {name}>", "exec"),  # noqa: S102 - dynlab's source
         namespace)
    return namespace[name]


def compile_joint_function(robot, key, recursion, **options):
    """``(function, tape)``: ``recursion(links, q, qd, qdd, gravity, tip_force, tip_moment, backend,
    **options)`` traced once on ``robot``'s numbers and kept under ``key`` in its data;
    ``function(q, qd, qdd)`` returns floats."""
    def build():
        links, gravity, tip_force, tip_moment = robot.numeric()
        tape = Tape()
        q, qd, qdd = (tape.inputs(stem, robot.n) for stem in ("q", "qd", "qdd"))
        values = recursion(links, q, qd, qdd, gravity, tip_force, tip_moment, backend_for(tape),
                           **options)
        tape.outputs(values)
        return tape.compile("joint_function", ("q", "qd", "qdd")), tape

    return robot.data.traced(key, build)
