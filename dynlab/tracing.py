"""Record the float operations of a recursion as straight-line Python: the numeric fast path and
the operation counter.

dynlab writes each recursion once (:mod:`dynlab.newton_euler`, ...) against plain arithmetic.  Run
on :class:`Traced` values instead of floats, the recursion leaves behind a *tape*: one line of
Python per multiplication, addition, division or function call that really has to happen.  On the
way the tape folds what the robot's constants make trivial (``0 * x``, ``1 * x``, ``x + 0``, the
``sin``/``cos`` of ``alpha = pi/2``) and records each distinct operation once (so a product used
twice is computed once).  Compiled, the tape is a function of ``(q, qd, qdd)`` with no loops,
no tuples and no calls but ``sin``/``cos``: the slider path.  Counted, it is the operation count
of the recursion on that arm, measured rather than estimated (000 Tables 3.1 and 3.4).

No SymPy object is built here.

>>> tape = Tape()
>>> x, y = tape.inputs("x", 2)
>>> tape.outputs([x * y + 0 * y, 1 * x - 2.5])
>>> print(tape.source("f", ("x",)))
def f(x):
    x0, x1 = x
    t0 = x0 * x1
    t1 = x0 - 2.5
    return (t0, t1)
>>> tape.counts()
{'mul': 1, 'add': 1, 'div': 0, 'call': 0}
"""

from __future__ import annotations

import math
import numbers

from dynlab.vectors import Backend, _sign

_COMMUTATIVE = {"+", "*"}


class Traced:
    """A value computed at run time: the name of a variable on a :class:`Tape`."""

    __slots__ = ("tape", "name")

    def __init__(self, tape: "Tape", name: str):
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


def _text(value) -> str:
    return value.name if isinstance(value, Traced) else repr(float(value))


class Tape:
    """The straight-line program that a run on :class:`Traced` values leaves behind."""

    def __init__(self):
        self.lines: list[tuple[str, str, str]] = []   # (target, operator, expression)
        self._known: dict[tuple, Traced] = {}
        self._inputs: list[tuple[str, list]] = []
        self._outputs: list = []
        self._count = 0

    def inputs(self, name: str, n: int) -> list:
        values = [Traced(self, f"{name}{k}") for k in range(n)]
        self._inputs.append((name, values))
        return values

    def _emit(self, key: tuple, operator: str, expression: str) -> Traced:
        found = self._known.get(key)
        if found is not None:
            return found
        target = Traced(self, f"t{self._count}")
        self._count += 1
        self.lines.append((target.name, operator, expression))
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
        operands = (_text(a), _text(b))
        if op in _COMMUTATIVE:
            operands = tuple(sorted(operands))
        return self._emit((op, *operands), op, f"{_text(a)} {op} {_text(b)}")

    def unary(self, op: str, a):
        if _is_number(a):
            return -a
        return self._emit(("neg", a.name), "neg", f"-{a.name}")

    def call(self, function: str, a):
        if _is_number(a):
            return {"sin": math.sin, "cos": math.cos, "exp": math.exp, "sign": _sign,
                    "abs": abs}[function](a)
        return self._emit((function, a.name), "call", f"{function}({a.name})")

    def outputs(self, values) -> None:
        self._outputs = list(values)

    def live_lines(self) -> list:
        """The lines that an output depends on (dead code left out)."""
        needed = {v.name for v in self._outputs if isinstance(v, Traced)}
        keep = []
        for target, operator, expression in reversed(self.lines):
            if target in needed:
                keep.append((target, operator, expression))
                needed.update(token for token in _tokens(expression) if token.startswith("t"))
        keep.reverse()
        return keep

    def counts(self) -> dict:
        """Operations of the live program: multiplications, additions/subtractions (a negation
        counts as one), divisions, and function calls (sin, cos, ...)."""
        tally = {"mul": 0, "add": 0, "div": 0, "call": 0}
        kinds = {"*": "mul", "+": "add", "-": "add", "neg": "add", "/": "div", "call": "call"}
        for _, operator, _ in self.live_lines():
            tally[kinds[operator]] += 1
        return tally

    def source(self, name: str, arguments: tuple) -> str:
        """Python source of a function ``name(*arguments)`` returning the outputs as a tuple."""
        body = []
        for argument, (stem, values) in zip(arguments, self._inputs):
            names = ", ".join(v.name for v in values)
            body.append(f"    {names}{',' if len(values) == 1 else ''} = {argument}")
        body += [f"    {target} = {expression}" for target, _, expression in self.live_lines()]
        result = ", ".join(_text(v) for v in self._outputs)
        body.append(f"    return ({result}{',' if len(self._outputs) == 1 else ''})")
        return f"def {name}({', '.join(arguments)}):\n" + "\n".join(body)

    def compile(self, name: str, arguments: tuple):
        """The tape as a Python function (``sin``, ``cos``, ... from :mod:`math`)."""
        # inf and nan: constants folded from parameters so large that they overflow (the
        # callers check the outputs and name the overflow)
        namespace = {"sin": math.sin, "cos": math.cos, "exp": math.exp, "sign": _sign,
                     "abs": abs, "inf": math.inf, "nan": math.nan}
        code = compile(self.source(name, arguments), f"<dynlab compiled {name}>", "exec")
        exec(code, namespace)
        return namespace[name]


def _tokens(expression: str) -> list:
    return expression.replace("(", " ").replace(")", " ").replace("-", " ").split()


def backend_for(tape: Tape) -> Backend:
    """A :class:`~dynlab.vectors.Backend` whose functions record calls on ``tape``."""
    return Backend("traced", lambda x: tape.call("sin", x), lambda x: tape.call("cos", x),
                   lambda x: tape.call("sign", x), lambda x: tape.call("exp", x),
                   lambda x: tape.call("abs", x))


def compile_joint_function(robot, key, recursion, **options):
    """Trace ``recursion(links, q, qd, qdd, gravity, tip_force, tip_moment, backend, **options)``
    once on ``robot``'s numeric parameters and return ``(function, tape)``, cached on the robot.

    ``function(q, qd, qdd)`` returns a tuple of floats.
    """
    found = robot.cache.get(key)
    if found is None:
        links, gravity, tip_force, tip_moment = robot.numeric()
        tape = Tape()
        q, qd, qdd = (tape.inputs(stem, robot.n) for stem in ("q", "qd", "qdd"))
        values = recursion(links, q, qd, qdd, gravity, tip_force, tip_moment, backend_for(tape),
                           **options)
        tape.outputs(values)
        found = (tape.compile("joint_function", ("q", "qd", "qdd")), tape)
        robot.cache[key] = found
    return found
