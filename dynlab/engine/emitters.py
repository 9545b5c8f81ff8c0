"""The text of a straight-line :class:`~dynlab.engine.program.Program` in Python, C and Fortran,
one assignment a line; what differs between the languages (numbers, indexing, function
names; Fortran's ``1.5d0`` and its one-argument ``sign`` written out) is written once here.

>>> from dynlab.engine.program import Program
>>> p = Program([("q", 1)], [("t0", "sin", ("q0",)), ("t1", "*", ("t0", -2.5))], ["t1"])
>>> print(fortran_source(p, "f").splitlines()[-3])
  t1 = t0 * (-2.5d0)
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from collections.abc import Sequence

# -- numbers ---------------------------------------------------------------------------------------


def python_number(value) -> str:
    """``value`` as Python (and C) text, in parentheses when negative.

    >>> python_number(2), python_number(-0.5)
    ('2.0', '(-0.5)')
    """
    text = repr(float(value))
    return f"({text})" if text.startswith("-") else text


def fortran_number(value) -> str:
    """``value`` as a Fortran double precision constant, in parentheses when negative.

    >>> fortran_number(2), fortran_number(-1.5e-07)
    ('2.0d0', '(-1.5d-7)')
    """
    text = repr(float(value))
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}d{int(exponent)}"
    else:
        text = f"{text}d0"
    return f"({text})" if text.startswith("-") else text


def fortran_name(name: str) -> str:
    """``name`` as a Fortran identifier: at most 63 characters (Fortran 2003), a long name
    shortened with a hash of the whole so that two long names stay apart.

    >>> fortran_name("tau")
    'tau'
    >>> len(fortran_name("x" * 80)), fortran_name("x" * 80)[:54] == "x" * 54
    (63, True)
    """
    if len(name) <= 63:
        return name
    return name[:54] + "_" + hashlib.sha256(name.encode()).hexdigest()[:8]


def counts_text(counts: dict) -> str:
    """``{'mul': 3, ...}`` as ``"3 mul, 1 add, 0 div, 0 call"``."""
    return ", ".join(f"{counts[k]} {k}" for k in ("mul", "add", "div", "call"))


def _expression(op: str, args, text, function_name=lambda op: op) -> str:
    """One operation as an infix expression, ``text`` printing an argument."""
    if op == "neg":
        return f"-{text(args[0])}"
    if op in ("+", "-", "*", "/"):
        return f"{text(args[0])} {op} {text(args[1])}"
    return f"{function_name(op)}({text(args[0])})"



def _python_token(token) -> str:
    return token if isinstance(token, str) else python_number(token)


# -- Python ----------------------------------------------------------------------------------------
def python_source(program, name: str, arguments: Sequence[str] | None = None) -> str:
    """A Python function ``name(*groups)`` returning the outputs as a tuple; with NumPy
    functions in its namespace the same text works on arrays (one entry per point)."""
    arguments = [stem for stem, _ in program.inputs] if arguments is None else list(arguments)
    body = []
    for argument, (stem, n) in zip(arguments, program.inputs):
        names = ", ".join(f"{stem}{k}" for k in range(n))
        body.append(f"    {names}{',' if n == 1 else ''} = {argument}")
    body += [f"    {target} = {_expression(op, args, _python_token)}"
             for target, op, args in program.lines]
    result = ", ".join(_python_token(v) for v in program.outputs)
    body.append(f"    return ({result}{',' if len(program.outputs) == 1 else ''})")
    return f"def {name}({', '.join(arguments)}):\n" + "\n".join(body)


#: The deepest nesting of operations :func:`python_run_source` writes into one expression (the
#: Python parser accepts 200 nested parentheses; deeper gains nothing).
INLINE_DEPTH = 40


def _inlined_statements(program, depth_limit: int) -> list:
    """``[(target, tree), ...]``: the program's lines with each result that is used exactly once
    (and is no output) written into the expression that uses it.  A tree is a name, a float or
    ``(op, (tree, ...))``; every line of the program is still evaluated exactly once."""
    uses: dict = {}
    for _, _, args in program.lines:
        for argument in args:
            if isinstance(argument, str):
                uses[argument] = uses.get(argument, 0) + 1
    outputs = {v for v in program.outputs if isinstance(v, str)}
    pending: dict = {}                       # target -> (tree, depth), waiting for its one use
    statements = []
    for target, op, args in program.lines:
        parts = [pending.pop(a) if isinstance(a, str) and a in pending else (a, 0)
                 for a in args]
        tree, depth = (op, tuple(p[0] for p in parts)), 1 + max(p[1] for p in parts)
        if uses.get(target, 0) == 1 and target not in outputs and depth < depth_limit:
            pending[target] = (tree, depth)
        else:
            statements.append((target, tree))
    return statements


def _leaves(tree, found: dict) -> dict:
    """The names a tree reads, in the order they first appear (a dict, not a set: the order in
    which registers are freed, and so the text written, must not depend on string hashing,
    which differs from process to process; the compiled C is cached under a hash of its text)."""
    if isinstance(tree, tuple):
        for child in tree[1]:
            _leaves(child, found)
    elif isinstance(tree, str):
        found[tree] = None
    return found


def tree_writer(names: dict, number, functions: dict | None = None):
    """The writer of a :func:`run_statements` tree as one expression (every operation in
    parentheses): ``names[leaf]`` a variable's text, ``number(value)`` a float's, ``functions`` the
    renamed functions (:data:`C_FUNCTIONS`); for Python and for :mod:`dynlab.engine.native`'s C.

    >>> write = tree_writer({"x0": "x[0]"}, python_number, C_FUNCTIONS)
    >>> write(("*", (("abs", ("x0",)), ("neg", (-2.5,)))))
    '(fabs(x[0]) * (-(-2.5)))'
    """
    functions = {} if functions is None else functions

    def write(tree) -> str:
        if isinstance(tree, str):
            return names[tree]
        if not isinstance(tree, tuple):
            return number(tree)
        op, children = tree
        if op == "neg":
            return f"(-{write(children[0])})"
        if op in ("+", "-", "*", "/"):
            return f"({write(children[0])} {op} {write(children[1])})"
        return f"{functions.get(op, op)}({write(children[0])})"
    return write


def run_statements(program, prefix: str = "v", depth_limit: int = INLINE_DEPTH) -> tuple:
    """``(statements, register, count)``: the program written for running, each result used once
    written into its user's expression (a tree: a name, a float or ``(op, (tree, ...))``), and the
    variable ``register[target]`` each target is stored in (``prefix`` and a number below
    ``count``, reused once free).

    >>> from dynlab.engine.program import Program
    >>> p = Program([("x", 1)], [("t0", "*", ("x0", "x0")), ("t1", "sin", ("t0",))], ["t1"])
    >>> run_statements(p)
    ([('t1', ('sin', (('*', ('x0', 'x0')),)))], {'t1': 'v0'}, 1)
    """
    statements = _inlined_statements(program, depth_limit)
    last_use = {}
    for index, (_, tree) in enumerate(statements):
        for leaf in _leaves(tree, {}):
            last_use[leaf] = index
    for value in program.outputs:
        if isinstance(value, str):
            last_use[value] = len(statements)
    register: dict = {}
    free: list = []
    count = 0
    for index, (target, tree) in enumerate(statements):
        for leaf in _leaves(tree, {}):            # right-hand sides are read before storing
            if leaf in register and last_use[leaf] == index:
                free.append(register[leaf])
        if free:
            register[target] = free.pop()
        else:
            register[target] = f"{prefix}{count}"
            count += 1
    return statements, register, count


def python_run_source(program, name: str, arguments: Sequence[str] | None = None,
                      depth_limit: int = INLINE_DEPTH) -> str:
    """The Python of :func:`python_source` written for running (:func:`run_statements`): the same
    operations on the same operands, so the same floats, in a few dozen variables (about 40 %
    faster); :meth:`dynlab.engine.program.Program.compile` runs it.

    >>> from dynlab.engine.program import Program
    >>> p = Program([("x", 2)], [("t0", "*", ("x0", "x1")), ("t1", "sin", ("t0",)),
    ...                          ("t2", "*", ("t1", "x0")), ("t3", "-", ("t2", "t1"))], ["t3"])
    >>> print(python_run_source(p, "f"))
    def f(x):
        x0, x1 = x
        v0 = sin((x0 * x1))
        v0 = ((v0 * x0) - v0)
        return (v0,)
    """
    arguments = [stem for stem, _ in program.inputs] if arguments is None else list(arguments)
    prefix = "v"
    while any(stem.startswith(prefix) for stem, _ in program.inputs):
        prefix = "_" + prefix                         # never a name of an input
    statements, register, _ = run_statements(program, prefix, depth_limit)
    body = []
    for argument, (stem, n) in zip(arguments, program.inputs):
        names = ", ".join(f"{stem}{k}" for k in range(n))
        body.append(f"    {names}{',' if n == 1 else ''} = {argument}")
    names = dict(register)
    for stem, n in program.inputs:
        names.update((f"{stem}{k}", f"{stem}{k}") for k in range(n))    # an input's own name
    write = tree_writer(names, python_number)
    for target, tree in statements:
        body.append(f"    {register[target]} = {write(tree)}")
    result = ", ".join(write(v) for v in program.outputs)
    body.append(f"    return ({result}{',' if len(program.outputs) == 1 else ''})")
    return f"def {name}({', '.join(arguments)}):\n" + "\n".join(body)


# -- C ---------------------------------------------------------------------------------------------
#: The C name of a function whose name differs in C.
C_FUNCTIONS = {"abs": "fabs"}


def c_source(program, name: str, title: str = "", output: str = "out") -> str:
    """C99 text: ``void name(const double *q, ..., double *out)`` and a batched
    ``name_batch(long count, ...)`` over row-major arrays of points."""
    used = {a for _, _, args in program.lines for a in args if isinstance(a, str)}
    used |= {v for v in program.outputs if isinstance(v, str)}
    groups = ", ".join(f"const double *{stem}" for stem, _ in program.inputs)
    title = " ".join(title.replace("*/", "* /").split())      # one line, the comment stays shut
    lines = [f"/* {title}, generated by dynlab.codegen */" if title else
             "/* generated by dynlab.codegen */",
             f"/* operations: {counts_text(program.counts())} */",
             "#include <math.h>", ""]
    if any(op == "sign" for _, op, _ in program.lines):
        lines += ["static double sign(double x) { return (double)((x > 0) - (x < 0)); }", ""]
    lines.append(f"void {name}({groups}, double *{output})")
    lines.append("{")
    for stem, n in program.inputs:
        for k in range(n):
            if f"{stem}{k}" in used:
                lines.append(f"    const double {stem}{k} = {stem}[{k}];")
    for target, op, args in program.lines:
        expression = _expression(op, args, _python_token, lambda f: C_FUNCTIONS.get(f, f))
        lines.append(f"    const double {target} = {expression};")
    for k, value in enumerate(program.outputs):
        lines.append(f"    {output}[{k}] = {_python_token(value)};")
    lines.append("}")
    lines.append("")
    strides = ", ".join(f"{stem} + i * {n}" for stem, n in program.inputs)
    lines.append(f"void {name}_batch(long count, {groups}, double *{output})")
    lines.append("{")
    lines.append("    for (long i = 0; i < count; ++i)")
    lines.append(f"        {name}({strides}, {output} + i * {len(program.outputs)});")
    lines.append("}")
    return "\n".join(lines) + "\n"


# -- Fortran ---------------------------------------------------------------------------------------
def fortran_source(program, name: str, title: str = "", output: str = "out") -> str:
    """Fortran 90 text: ``subroutine name(q, ..., out)`` (free form, double precision)."""
    stems = {stem for stem, _ in program.inputs}

    def text(token):
        if isinstance(token, str):
            match = re.fullmatch(r"([a-z]+)(\d+)", token)
            if match and match.group(1) in stems:
                return f"{match.group(1)}({int(match.group(2)) + 1})"
            return token
        return fortran_number(token)

    arguments = ", ".join([stem for stem, _ in program.inputs] + [output])
    name = fortran_name(name)
    heading = f"{title}, generated by dynlab.codegen" if title else \
        "generated by dynlab.codegen"
    lines = [f"! {part}" for part in textwrap.wrap(heading, 120)]   # free form: <= 132
    lines += [f"! operations: {counts_text(program.counts())}",
              f"subroutine {name}({arguments})",
              "  implicit none"]
    for stem, n in program.inputs:
        lines.append(f"  double precision, intent(in) :: {stem}({n})")
    lines.append(f"  double precision, intent(out) :: {output}({len(program.outputs)})")
    names = [target for target, _, _ in program.lines]
    for start in range(0, len(names), 12):
        lines.append("  double precision :: " + ", ".join(names[start:start + 12]))
    for target, op, args in program.lines:
        if op == "sign":
            a = text(args[0])
            expression = f"merge(1d0, 0d0, {a} > 0d0) - merge(1d0, 0d0, {a} < 0d0)"
        else:
            expression = _expression(op, args, text)
        lines.append(f"  {target} = {expression}")
    for k, value in enumerate(program.outputs):
        lines.append(f"  {output}({k + 1}) = {text(value)}")
    lines.append(f"end subroutine {name}")
    return "\n".join(lines) + "\n"
