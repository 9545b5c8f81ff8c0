"""An answer carried out of a student's kernel as JSON (:func:`serialize`, run in the kernel from
its source) and rebuilt without eval (:func:`deserialize`: ``srepr`` text parsed with
:mod:`ast`, only SymPy classes called), so a forged text builds a wrong answer, never runs code.

>>> import sympy
>>> x = sympy.Symbol("x", positive=True)
>>> deserialize(serialize((sympy.Matrix([[x**2, 1]]), [1.5, "B"], ...)))
(Matrix([[x**2, 1]]), [1.5, 'B'], Ellipsis)
>>> deserialize({"sympy": "eval('1 + 1')"})
Traceback (most recent call last):
...
dynlab.grading.answers.UnsafeAnswer: the answer's text calls eval, which is not a SymPy class
"""

from __future__ import annotations

import ast
import builtins
import re

#: The largest serialized answer accepted (characters of JSON).
MAX_ANSWER_SIZE = 5_000_000


class UnsafeAnswer(ValueError):
    """A serialized answer that is not plain SymPy data (the message says what)."""


def serialize(value, depth: int = 0, symbols=None):
    """JSON-able data for an answer (called in the student's kernel; self-contained).

    With ``symbols`` (``[[name, "positive" or "real" or ""], ...]``, the question's symbols:
    given for every question that is not a multiple choice), a string is read here, in the
    kernel, as an expression in those symbols, and travels as SymPy's ``srepr`` text: no text
    of a submission is ever parsed on the grader's side.

    >>> serialize("2*x", symbols=[["x", "real"]])
    {'sympy': "Mul(Integer(2), Symbol('x', real=True))"}
    >>> import numpy
    >>> serialize(numpy.float64(0.25))         # a float, whose repr is NumPy's np.float64(0.25)
    {'float': '0.25'}
    """
    import sympy
    if depth > 20:
        raise ValueError("the answer is nested too deeply")
    if value is Ellipsis:
        return {"ellipsis": True}
    if isinstance(value, str) and symbols is not None:
        names = {name: sympy.Symbol(name, **({"positive": True} if role == "positive" else
                                             {"real": True} if role == "real" else {}))
                 for name, role in symbols}
        return {"sympy": sympy.srepr(sympy.parse_expr(value, local_dict=names))}
    if value is None or isinstance(value, (bool, str)):
        return {"value": value}
    if isinstance(value, int):
        return {"int": str(value)}
    if isinstance(value, float):                   # numpy.float64 too: its repr is not a float's
        return {"float": repr(float(value))}
    if isinstance(value, (sympy.Basic, sympy.MatrixBase)):
        return {"sympy": sympy.srepr(value)}
    if isinstance(value, (list, tuple)):
        kind = "tuple" if isinstance(value, tuple) else "list"
        return {kind: [serialize(item, depth + 1, symbols) for item in value]}
    if isinstance(value, dict):
        return {"dict": [[str(k), serialize(v, depth + 1, symbols)] for k, v in value.items()]}
    try:
        import numpy
        if isinstance(value, numpy.ndarray):
            return {"list": [serialize(item, depth + 1, symbols) for item in value.tolist()]} \
                if value.ndim else serialize(value.item(), depth + 1, symbols)
        if isinstance(value, numpy.generic):
            return serialize(value.item(), depth + 1, symbols)
    except ImportError:
        pass
    if all(hasattr(value, name) for name in ("D", "h", "c")):        # equations of motion
        return {"tuple": [serialize(getattr(value, name), depth + 1, symbols) for name in "Dhc"]}
    if callable(value):
        return serialize(value(), depth + 1, symbols)
    return {"sympy": sympy.srepr(sympy.sympify(value, strict=True))}


def deserialize(data):
    """The answer :func:`serialize` gave, rebuilt from data alone (no eval)."""
    if not isinstance(data, dict) or len(data) != 1:
        raise UnsafeAnswer("the answer is not in the form the grader sends")
    (kind, value), = data.items()
    if kind == "ellipsis":
        return ...
    if kind == "value" and (value is None or isinstance(value, (bool, str))):
        return value
    if kind == "int" and isinstance(value, str) and re.fullmatch(r"-?\d{1,5000}", value):
        return int(value)
    if kind == "float" and isinstance(value, str):
        return float(value)
    if kind in ("list", "tuple") and isinstance(value, list):
        items = [deserialize(item) for item in value]
        return tuple(items) if kind == "tuple" else items
    if kind == "dict" and isinstance(value, list):
        return {str(k): deserialize(v) for k, v in value}
    if kind == "sympy" and isinstance(value, str):
        return from_srepr(value)
    raise UnsafeAnswer(f"the answer holds an entry of the unknown kind {kind!r}")


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|[-+]?inf|nan")
#: The classes whose first argument is a name or a number written as a string
_TAKES_TEXT = {"Symbol", "Dummy", "Function", "Float", "Integer", "Rational", "MatrixSymbol"}
#: SymPy's constants, which ``srepr`` writes as bare names (``srepr(pi)`` is ``'pi'``)
_CONSTANTS = ("pi", "E", "I", "oo", "zoo", "nan", "EulerGamma", "GoldenRatio", "Catalan",
              "TribonacciConstant")


def from_srepr(text: str):
    """A SymPy object from its ``srepr`` text, calling only SymPy classes (no eval).

    >>> from_srepr("Add(Symbol('a', real=True), Integer(2))")
    a + 2
    >>> from_srepr("sin(Add(Symbol('q'), Mul(Rational(1, 3), pi)))")   # SymPy's constants
    sin(q + pi/3)
    """
    import sympy
    if len(text) > MAX_ANSWER_SIZE:
        raise UnsafeAnswer("the answer is too large to grade")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise UnsafeAnswer("the answer's text is not SymPy's") from None

    def build(node, text_allowed=False):
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or node.value is None:
                return node.value
            if isinstance(node.value, (int, float)):
                return node.value
            if isinstance(node.value, str) and text_allowed and (
                    _NAME.fullmatch(node.value) or _NUMBER.fullmatch(node.value)):
                return node.value
            raise UnsafeAnswer(f"the answer's text holds the string {node.value!r}")
        if isinstance(node, ast.Name) and node.id in _CONSTANTS:
            return getattr(sympy, node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            operand = build(node.operand)
            if isinstance(operand, (int, float, sympy.Basic)):
                return -operand
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [build(item) for item in node.elts]
            return tuple(items) if isinstance(node, ast.Tuple) else items
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                name = node.func.id
                function = getattr(sympy, name, None)
                if not (isinstance(function, type)
                        and issubclass(function, (sympy.Basic, sympy.MatrixBase))):
                    raise UnsafeAnswer(f"the answer's text calls {name}, which is not a SymPy "
                                       f"class")
            elif isinstance(node.func, ast.Call):          # Function('f')(x)
                name, function = "", build(node.func)
                if not isinstance(function, sympy.FunctionClass):
                    raise UnsafeAnswer("the answer's text calls something that is not SymPy's")
            else:
                raise UnsafeAnswer("the answer's text calls something that is not SymPy's")
            arguments = [build(argument, text_allowed=(index == 0 and name in _TAKES_TEXT))
                         for index, argument in enumerate(node.args)]
            if name == "Function" and arguments and isinstance(arguments[0], str) and (
                    arguments[0].startswith("_") or hasattr(builtins, arguments[0])):
                # a function named like Python's own would be called by name where the answer
                # is evaluated (sympy.lambdify)
                raise UnsafeAnswer(f"the answer's text names a function {arguments[0]!r}")
            options = {}
            for keyword in node.keywords:
                value = build(keyword.value, text_allowed=name in _TAKES_TEXT)
                if keyword.arg is None or not isinstance(value, (bool, int, str)):
                    raise UnsafeAnswer("the answer's text passes an option that is not plain")
                options[keyword.arg] = value
            return function(*arguments, **options)
        raise UnsafeAnswer(f"the answer's text holds {type(node).__name__}, not SymPy data")

    return build(tree.body)
