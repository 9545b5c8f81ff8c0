"""Book-style printing of derived equations: ``C1``, ``S12``, ``C23`` shorthand for the sines and
cosines of joint angles and their sums (Fu, Gonzalez & Lee, Sec. 3.2.6, Schilling, Sec. 6-5), terms collected by joint
accelerations and velocity products, in LaTeX for notebooks and plain text for terminals.

>>> import sympy
>>> q1, q2, qd1, qd2 = sympy.symbols("q1 q2 qd1 qd2")
>>> book_form(sympy.cos(q1) * sympy.cos(q2) - sympy.sin(q1) * sympy.sin(q2) + 2 * sympy.cos(q2))
C12 + 2*C2
>>> book_form(qd1**2 * sympy.sin(q2) + 2 * qd1 * qd2 * sympy.sin(q2) + qd2**2, (qd1, qd2))
S2*qd1**2 + 2*S2*qd1*qd2 + qd2**2
"""

from __future__ import annotations

import itertools
import re
from typing import Sequence

import sympy

from dynlab.symbolic import compact

#: how a joint variable's name prints: ``qdd2`` as a double-dotted q with index 2
_JOINT_NAME = re.compile(r"(q|qd|qdd)(\d+)")
_DOTS = {"q": "", "qd": r"\dot ", "qdd": r"\ddot "}


def _joint_index(symbol) -> str | None:
    name = str(symbol)
    digits = name.lstrip("q")
    return digits if name.startswith("q") and digits.isdigit() else None


def shorthand(expr):
    """Replace ``sin``/``cos`` of ``q_i`` or of ``q_i + q_j + ...`` by ``S_i``/``C_ij...``."""
    mapping = {}
    for atom in sympy.sympify(expr).atoms(sympy.sin, sympy.cos):
        argument = atom.args[0]
        terms = sympy.Add.make_args(argument)
        indices = [_joint_index(t) for t in terms]
        if all(indices) and all(t.is_Symbol for t in terms):
            letter = "S" if isinstance(atom, sympy.sin) else "C"
            mapping[atom] = sympy.Symbol(letter + "".join(sorted(indices, key=int)))
    return sympy.sympify(expr).xreplace(mapping)


def book_form(expr, collect_by: Sequence = ()):
    """``expr`` compacted (:func:`dynlab.symbolic.compact`), collected by the given variables
    and their pairwise products (e.g. joint accelerations, velocities), in C/S shorthand."""
    expr = compact(expr)
    if collect_by:
        products = [a * b for a, b in itertools.combinations_with_replacement(collect_by, 2)]
        expr = sympy.collect(sympy.expand(expr), products + list(collect_by))
    return shorthand(expr)


def matrix_form(matrix, collect_by: Sequence = ()):
    return sympy.Matrix(matrix).applyfunc(lambda e: book_form(e, collect_by))


def equations_text(eom) -> str:
    """The equations of motion as plain text, one element per line, as the books print them."""
    if not eom.symbolic:
        return repr(eom)
    lines = [f"Equations of motion of {eom.robot.name} ({eom.method}):"]
    n = eom.n
    for i in range(n):
        for k in range(i, n):
            lines.append(f"  D{i + 1}{k + 1} = {book_form(eom.D[i, k])}")
    for name, vector, by in (("h", eom.h, eom.qd), ("c", eom.c, ()),
                             ("b", eom.friction, eom.qd)):
        for i in range(n):
            if vector[i] != 0:
                lines.append(f"  {name}{i + 1} = {book_form(vector[i], by)}")
    return "\n".join(lines)


def equations_latex(eom) -> str:
    """``D(q)``, ``h(q, qd)``, ``c(q)`` (and friction) as a LaTeX display, in book form."""
    if not eom.symbolic:
        import numpy as np
        return ("$$D = " + sympy.latex(sympy.Matrix(np.round(eom.D, 6))) + ",\\quad h = "
                + sympy.latex(sympy.Matrix(np.round(eom.h, 6))) + ",\\quad c = "
                + sympy.latex(sympy.Matrix(np.round(eom.c, 6))) + "$$")
    names = {}
    for k, (q, qd) in enumerate(zip(eom.q, eom.qd), start=1):
        names[qd] = rf"\dot q_{{{k}}}"
        names[q] = f"q_{{{k}}}"
    parts = [("D(q)", matrix_form(eom.D)), (r"h(q, \dot q)", matrix_form(eom.h, eom.qd)),
             ("c(q)", matrix_form(eom.c))]
    if any(e != 0 for e in eom.friction):
        parts.append((r"b(\dot q)", matrix_form(eom.friction)))
    body = r",\quad ".join(f"{name} = {sympy.latex(value, symbol_names=names)}"
                           for name, value in parts)
    return f"$${body}$$"


def symbol_names(expr) -> dict:
    r"""LaTeX names of the joint variables in ``expr``: ``q1`` as ``q_{1}``, ``qd1`` as
    ``\dot q_{1}``, ``qdd1`` as ``\ddot q_{1}`` (SymPy would print ``qd_{1}``).

    >>> q1, qd1 = sympy.symbols("q1 qd1")
    >>> print(symbol_names(q1 + qd1)[qd1])
    \dot q_{1}
    """
    names = {}
    for symbol in sympy.sympify(expr).free_symbols:
        match = _JOINT_NAME.fullmatch(symbol.name)
        if match:
            names[symbol] = f"{_DOTS[match.group(1)]}q_{{{match.group(2)}}}"
    return names


def latex(value, collect_by: Sequence = ()) -> str:
    r"""``value`` (an expression or a matrix) in book form, as LaTeX with dotted joint rates.

    >>> q1, qd1 = sympy.symbols("q1 qd1")
    >>> print(latex(sympy.Matrix([sympy.cos(q1) * qd1**2])))
    \left[\begin{matrix}C_{1} \dot q_{1}^{2}\end{matrix}\right]
    """
    if isinstance(value, sympy.MatrixBase):
        shown = matrix_form(value, collect_by)
    else:
        shown = book_form(value, collect_by)
    return sympy.latex(shown, symbol_names=symbol_names(value))


def show(*pairs):
    """``name = value`` pairs on one line, as a notebook displays them (IPython's ``Math``).

    >>> q1 = sympy.Symbol("q1")
    >>> show(("c_1", sympy.cos(q1))).data
    'c_1 = C_{1}'
    """
    from IPython.display import Math
    return Math(r",\quad ".join(f"{name} = {latex(value)}" for name, value in pairs))


#: the Newton-Euler quantities (Fu, Gonzalez & Lee, Table 3.3, in link i's frame) as LaTeX
TRACE_NAMES = {"omega": r"{}^iR_0\,\omega_i", "omega_dot": r"{}^iR_0\,\dot\omega_i",
               "v_dot": r"{}^iR_0\,\dot v_i", "a_bar": r"{}^iR_0\,\bar a_i",
               "F": r"{}^iR_0 F_i", "N": r"{}^iR_0 N_i", "f": r"{}^iR_0 f_i",
               "n": r"{}^iR_0 n_i", "tau": r"\tau_i"}


def trace_table(trace, keys: Sequence[str]):
    r"""The quantities ``keys`` of a symbolic Newton-Euler trace (:class:`dynlab.dynamics.Trace`)
    as a table a notebook column holds: the links stacked, one quantity per row, vectors as
    columns.  In base-frame traces the quantities carry no ``{}^iR_0``.

    >>> from dynlab import inverse_dynamics, joint_symbols
    >>> from dynlab.robots import pendulum
    >>> q, qd, qdd = joint_symbols(1)
    >>> _, trace = inverse_dynamics(pendulum(symbolic=True), q, qd, qdd, trace=True)
    >>> r"{}^iR_0\,\omega_{1}" in trace_table(trace, ["omega"]).data
    True
    """
    from IPython.display import Math
    names = TRACE_NAMES if trace.frame == "link" else {
        k: v.replace("{}^iR_0", "").replace(r"\,", "") for k, v in TRACE_NAMES.items()}
    rows = []
    for i in range(1, len(trace) + 1):
        for number, key in enumerate(keys):
            head = rf"i = {i}" if number == 0 else ""
            value = trace[i][key]
            name = names.get(key, key).replace("_i", f"_{{{i}}}")
            rows.append(f"{head} & {name} = {latex(value)}")
        rows[-1] += r"\\[2pt] \hline"
    return Math(r"\begin{array}{ll}" + r"\\[4pt] ".join(rows) + r"\end{array}")
