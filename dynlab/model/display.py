"""Book-style printing of derived equations: ``C1``, ``S12`` shorthand, terms collected by joint
accelerations and rate products (Fu, Gonzalez & Lee, Sec. 3.2.6; Schilling, Sec. 6-5).

>>> import sympy
>>> q1, q2, qd1, qd2 = sympy.symbols("q1 q2 qd1 qd2")
>>> book_form(qd1**2 * sympy.sin(q2) + 2 * qd1 * qd2 * sympy.sin(q2) + qd2**2, (qd1, qd2))
S2*qd1**2 + 2*S2*qd1*qd2 + qd2**2
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

import sympy

from dynlab.model.symbolic import compact, reduce_trig

#: how a joint variable's name prints: ``qdd2`` as a double-dotted q with index 2
_JOINT_NAME = re.compile(r"(q|qd|qdd)(\d+)")
_DOTS = {"q": "", "qd": r"\dot ", "qdd": r"\ddot "}
#: a link parameter indexed by axis and link: ``rx3`` (centre of mass), ``Ixx3`` (moment)
_PARAMETER_NAME = re.compile(r"(r|I)([xyz]{1,2})(\d+)")


def _joint_index(symbol) -> str | None:
    name = str(symbol)
    digits = name.lstrip("q")
    return digits if name.startswith("q") and digits.isdigit() else None


def _angle_label(argument) -> tuple[str, int] | None:
    """``("12", 1)`` for ``q1 + q2``, ``("1-2", 1)`` for ``q1 - q2``, ``("1-2", -1)`` for
    ``q2 - q1`` (the sign that turns the argument into the labelled one); None when the argument
    is not a sum or difference of joint angles with unit coefficients."""
    terms = []
    for term in sympy.Add.make_args(argument):
        coefficient, symbol = term.as_coeff_Mul()
        index = _joint_index(symbol) if symbol.is_Symbol else None
        if index is None or abs(coefficient) != 1:
            return None
        terms.append((int(index), int(coefficient)))
    terms.sort()
    sign = terms[0][1]
    if all(c == sign for _, c in terms):
        label = "".join(str(i) for i, _ in terms)
    else:
        label = str(terms[0][0]) + "".join(("+" if c == sign else "-") + str(i)
                                           for i, c in terms[1:])
    return label, sign


def shorthand(expr):
    """Replace ``sin``/``cos`` of ``q_i``, of ``q_i + q_j + ...`` and of ``q_i - q_j`` by the
    books' ``S_i``, ``C_ij...`` and ``C_{i-j}`` (Schilling, Sec. 6-6 writes the SCARA's
    ``cos(q1 - q2)`` as ``C_{1-2}``).

    >>> q1, q2 = sympy.symbols("q1 q2")
    >>> shorthand(sympy.cos(q1 + q2) + sympy.sin(q2 - q1))
    C12 - S_{1-2}
    """
    mapping = {}
    for atom in sympy.sympify(expr).atoms(sympy.sin, sympy.cos):
        labelled = _angle_label(atom.args[0])
        if labelled is None:
            continue
        label, sign = labelled
        letter = "S" if isinstance(atom, sympy.sin) else "C"
        name = letter + label if "-" not in label else f"{letter}_{{{label}}}"
        # cos is even, sin odd: sin(q2 - q1) = -S_{1-2}
        mapping[atom] = sympy.Symbol(name) * (sign if letter == "S" else 1)
    return sympy.sympify(expr).xreplace(mapping)


def _trig_joints(expr) -> set:
    """The joint indices whose angles appear inside ``sin``/``cos`` in ``expr``."""
    joints = set()
    for atom in expr.atoms(sympy.sin, sympy.cos):
        for symbol in atom.args[0].free_symbols:
            index = _joint_index(symbol)
            if index is not None:
                joints.add(int(index))
    return joints


def _term_count(expr) -> int:
    return len(sympy.Add.make_args(sympy.expand(expr)))


def group_angle_sums(expr):
    """``expr`` in the sines and cosines of joint-angle sums where that takes fewer terms
    (``C2 C3 - S2 S3`` -> ``C23``), also where ``trigsimp`` is too slow: each run of joints is
    tried as partial sums, reduced by :func:`dynlab.model.symbolic.reduce_trig`.

    >>> q2, q3, a = sympy.symbols("q2 q3 a")
    >>> e = a * (sympy.cos(q2) * sympy.cos(q3) - sympy.sin(q2) * sympy.sin(q3))**2
    >>> shorthand(group_angle_sums(e))
    C23**2*a
    """
    expr = sympy.sympify(expr)
    joints = sorted(_trig_joints(expr))
    runs = [(i, j) for i in joints for j in joints
            if j > i and all(k in joints for k in range(i, j + 1))]
    if not runs:
        return expr
    plain = reduce_trig(expr)
    best, best_count = plain, _term_count(plain)
    for i, j in runs:
        symbols = {k: next(s for s in expr.free_symbols if _joint_index(s) == str(k))
                   for k in range(i, j + 1)}
        # a joint angle that also appears outside sin/cos (none does for revolute joints) stays
        if any(_outside_trig(expr, symbols[k]) for k in range(i + 1, j + 1)):
            continue
        partial = {i: symbols[i]}
        change, back = {}, {}
        for k in range(i + 1, j + 1):
            u = sympy.Dummy(f"u{k}")
            change[symbols[k]] = u - partial[k - 1]
            partial[k] = u
            back[u] = sum(symbols[m] for m in range(i, k + 1))
        candidate = reduce_trig(expr.xreplace(change))
        count = _term_count(candidate)
        if count < best_count:
            best, best_count = candidate.xreplace(back), count
    return best


def _outside_trig(expr, symbol) -> bool:
    stripped = expr.replace(lambda e: isinstance(e, (sympy.sin, sympy.cos)),
                            lambda e: sympy.Integer(1))
    return symbol in stripped.free_symbols


def book_form(expr, collect_by: Sequence = ()):
    """``expr`` compacted, grouped into angle sums where shorter (:func:`group_angle_sums`),
    collected by ``variables`` and their pairwise products, in C/S shorthand."""
    expr = compact(expr)
    if len(_trig_joints(expr)) > 1:
        grouped = group_angle_sums(expr)
        if _term_count(grouped) < _term_count(expr):
            expr = grouped
    if collect_by and all(sympy.sympify(v).is_Symbol for v in collect_by):
        products = [a * b for a, b in itertools.combinations_with_replacement(collect_by, 2)]
        expr = sympy.collect(sympy.expand(expr), products + list(collect_by))
    elif collect_by:
        expr = collect_exactly(expr, collect_by)
    return shorthand(expr)


def collect_exactly(expr, keys: Sequence):
    """``expr`` with its terms gathered under the first of ``keys`` that divides them exactly: by
    whole products, as the books group (Schilling, Eq. (6-6-22): ``(m2 + 2 m3) a1 a2 C2``).

    >>> a1, a2, m1, m2, q2 = sympy.symbols("a1 a2 m1 m2 q2")
    >>> e = a1**2 * m1 + a1**2 * m2 + a1 * a2 * m2 * sympy.cos(q2) + a2**2
    >>> collect_exactly(e, (a1**2, a1 * a2 * sympy.cos(q2)))
    a1**2*(m1 + m2) + a1*a2*m2*cos(q2) + a2**2
    """
    groups, rest = {}, sympy.S.Zero
    for term in sympy.Add.make_args(sympy.expand(expr)):
        for key in keys:
            quotient = sympy.powsimp(term / key)
            _, denominator = sympy.fraction(quotient)
            if denominator.is_number and not (quotient.free_symbols & key.free_symbols):
                groups[key] = groups.get(key, 0) + quotient
                break
        else:
            rest += term
    return sympy.Add(*[key * sympy.factor_terms(c) for key, c in groups.items()], rest)


def matrix_form(matrix, collect_by: Sequence = ()):
    return sympy.Matrix(matrix).applyfunc(lambda e: book_form(e, collect_by))


def symbol_names(expr) -> dict:
    r"""LaTeX names of the joint variables in ``expr``: ``q1`` as ``q_{1}``, ``qd1`` as
    ``\dot q_{1}``, ``qdd1`` as ``\ddot q_{1}`` (SymPy would print ``qd_{1}``).

    >>> q1, qd1 = sympy.symbols("q1 qd1")
    >>> print(symbol_names(q1 + qd1)[qd1])
    \dot q_{1}

    A link's centre of mass and moments print as the books index them, ``rx3`` as ``r_{x3}``
    and ``Ixx3`` as ``I_{xx3}`` (SymPy would print ``rx_{3}``):

    >>> rx3, Ixx3 = sympy.symbols("rx3 Ixx3")
    >>> print(symbol_names(rx3 + Ixx3)[rx3], symbol_names(Ixx3)[Ixx3])
    r_{x3} I_{xx3}
    """
    names = {}
    for symbol in sympy.sympify(expr).free_symbols:
        match = _JOINT_NAME.fullmatch(symbol.name)
        if match:
            names[symbol] = f"{_DOTS[match.group(1)]}q_{{{match.group(2)}}}"
            continue
        match = _PARAMETER_NAME.fullmatch(symbol.name)
        if match:
            names[symbol] = f"{match.group(1)}_{{{match.group(2)}{match.group(3)}}}"
    return names


def latex(value, collect_by: Sequence = ()) -> str:
    r"""``value`` (an expression or a matrix) in book form, as LaTeX with dotted joint rates.

    >>> q1, qd1 = sympy.symbols("q1 qd1")
    >>> print(latex(sympy.Matrix([sympy.cos(q1) * qd1**2])))
    \left[\begin{matrix}C_{1} \dot q_{1}^{2}\end{matrix}\right]
    """
    shown = (matrix_form if isinstance(value, sympy.MatrixBase) else book_form)(value, collect_by)
    return sympy.latex(shown, symbol_names=symbol_names(value))


def show(*pairs):
    """``name = value`` pairs on one line, as a notebook displays them (IPython's ``Math``).

    >>> q1 = sympy.Symbol("q1")
    >>> show(("c_1", sympy.cos(q1))).data
    'c_1 = C_{1}'
    """
    from IPython.display import Math
    return Math(r",\quad ".join(f"{name} = {latex(value)}" for name, value in pairs))


def numbers(value, digits: int = 4) -> str:
    r"""A number or vector of a numeric trace as LaTeX, ``digits`` significant digits, a vector
    as a row ``(x, y, z)``; round-off below 1e-12 prints as 0.

    >>> print(numbers([1.23456, 2e-17, -3.5e-5]))
    \left(1.235,\ 0,\ -3.5 \times 10^{-5}\right)
    """
    import numpy as np
    array = np.atleast_1d(np.asarray(value, dtype=float))

    def number(v):
        if abs(v) < 1e-12:
            return "0"
        text = f"{v:.{digits}g}"
        if "e" in text:
            mantissa, exponent = text.split("e")
            return rf"{mantissa} \times 10^{{{int(exponent)}}}"
        return text
    if array.size == 1 and np.ndim(value) == 0:
        return number(float(array[0]))
    return r"\left(" + r",\ ".join(number(v) for v in array) + r"\right)"


def decimal_matrix(value, decimals: int = 4, row: bool = False) -> str:
    r"""A numeric matrix or vector (a vector as a column, as a row if ``row``) as a LaTeX
    ``bmatrix`` with ``decimals`` decimals, trailing zeros dropped, round-off's signed zero
    printed as 0.

    >>> print(decimal_matrix([[2.76941, -0.0000001], [17.4, 1e-7]]))
    \begin{bmatrix}2.7694 & 0\\ 17.4 & 0\end{bmatrix}
    >>> print(decimal_matrix([0.5, -1.25], decimals=1))
    \begin{bmatrix}0.5\\ -1.2\end{bmatrix}
    >>> print(decimal_matrix([0.5, -1.25], row=True))
    \begin{bmatrix}0.5 & -1.25\end{bmatrix}
    """
    import numpy as np
    array = np.asarray(value, dtype=float)
    if array.ndim == 1:
        array = array[None, :] if row else array[:, None]
    rows = [" & ".join(decimal(v, decimals) for v in row) for row in array]
    return r"\begin{bmatrix}" + r"\\ ".join(rows) + r"\end{bmatrix}"


def decimal(value, decimals: int = 4) -> str:
    """``value`` with ``decimals`` decimals, trailing zeros dropped, round-off's signed zero 0.

    >>> decimal(2.50004), decimal(-1e-9), decimal(3, 0)
    ('2.5', '0', '3')
    """
    text = f"{round(float(value), decimals) + 0.0:.{decimals}f}"
    text = text.rstrip("0").rstrip(".") if "." in text else text
    return "0" if text in ("-0", "0") else text


def table_markdown(header: Sequence, rows: Sequence) -> str:
    """A Markdown table as text: the header, then one line per row of cells.

    >>> print(table_markdown(["a", "b"], [(1, 2)]))
    | a | b |
    |---|---|
    | 1 | 2 |
    """
    lines = ["| " + " | ".join(str(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


#: the Newton-Euler quantities (Fu, Gonzalez & Lee, Table 3.3, in link i's frame) as LaTeX
TRACE_NAMES = {"omega": r"{}^iR_0\,\omega_i", "omega_dot": r"{}^iR_0\,\dot\omega_i",
               "v_dot": r"{}^iR_0\,\dot v_i", "a_bar": r"{}^iR_0\,\bar a_i",
               "F": r"{}^iR_0 F_i", "N": r"{}^iR_0 N_i", "f": r"{}^iR_0 f_i",
               "n": r"{}^iR_0 n_i", "tau": r"\tau_i"}


def rate_form(name: str, expr, rates: Sequence, collect_by: Sequence = (), width: int = 80) -> str:
    r"""``name = expr`` as the books write a torque: one bracket per joint acceleration and rate
    product (``rates``), each collected by ``collect_by``, then the rest, broken to ``width``
    characters; the bracket of :math:`\ddot q_k` in :math:`\tau_i` is :math:`D_{ik}`.

    >>> a, m, q2, qd1, qdd1 = sympy.symbols("a m q2 qd1 qdd1")
    >>> e = m * a**2 * qdd1 - m * a * sympy.sin(q2) * qd1**2 + 3
    >>> print(rate_form(r"\tau_1", e, (qdd1, qd1)))
    \begin{aligned}\tau_1 &= a^{2} m \ddot q_{1} - S_{2} a m \dot q_{1}^{2} + 3\end{aligned}
    """
    names = symbol_names(expr)
    poly = sympy.Poly(sympy.expand(expr), *rates)
    pieces = []
    for monomial, coefficient in poly.terms():
        factor = sympy.Mul(*[r**k for r, k in zip(rates, monomial)])
        shown = book_form(coefficient, collect_by)
        sign = "+"
        if shown.could_extract_minus_sign():
            sign, shown = "-", book_form(-coefficient, collect_by)
        tex = sympy.latex(shown, symbol_names=names)
        if shown.is_Add and factor != 1:
            tex = rf"\left[{tex}\right]"
        if factor != 1:
            tex += " " + sympy.latex(factor, symbol_names=names)
        pieces.append((sign, tex))
    return _aligned(name, pieces, width)


def _joint_rates(expr) -> list:
    """The joint accelerations then the joint rates among ``expr``'s symbols, by joint:
    ``[qdd1, qdd2, qd1, qd2]``."""
    found = {s for s in expr.free_symbols if _JOINT_NAME.fullmatch(s.name)}
    def order(kind):
        return sorted((s for s in found if _JOINT_NAME.fullmatch(s.name).group(1) == kind),
                      key=lambda s: int(_JOINT_NAME.fullmatch(s.name).group(2)))
    return order("qdd") + order("qd")


def trace_table(trace, keys: Sequence[str], rates: Sequence = (), collect_by: Sequence = ()):
    r"""The quantities ``keys`` of a symbolic Newton-Euler trace as a LaTeX table: links stacked,
    one quantity a row, labelled by link; torques by :func:`rate_form`.

    >>> from dynlab import inverse_dynamics, joint_symbols
    >>> from dynlab.model.robots import pendulum
    >>> q, qd, qdd = joint_symbols(1)
    >>> _, trace = inverse_dynamics(pendulum(symbolic=True), q, qd, qdd, trace=True)
    >>> print(trace_table(trace, ["tau"]).data)      # doctest: +NORMALIZE_WHITESPACE
    \begin{array}{ll}i = 1 & \begin{aligned}\tau_{1} &= \frac{a_{1}^{2} m_{1}}{3} \ddot q_{1}
    + \frac{C_{1} a_{1} g m_{1}}{2}\end{aligned}\\[2pt] \hline\end{array}
    """
    from IPython.display import Math
    names = TRACE_NAMES if trace.frame == "link" else {
        k: v.replace("{}^iR_0", "").replace(r"\,", "") for k, v in TRACE_NAMES.items()}
    rows = []
    for i in range(1, len(trace) + 1):
        for number, key in enumerate(keys):
            head = rf"i = {i}" if number == 0 else ""
            value = trace[i][key]
            name = names.get(key, key).replace("{}^iR_0", f"{{}}^{{{i}}}R_0")
            name = name.replace("_i", f"_{{{i}}}")
            symbolic = isinstance(value, (sympy.Basic, sympy.MatrixBase))
            text = f"{name} = {latex(value) if symbolic else numbers(value)}"
            if isinstance(value, sympy.Expr) and (rates or _joint_rates(value)):
                # a joint torque as the books write it: by accelerations and rate products
                text = rate_form(name, value, rates or _joint_rates(value), collect_by, width=70)
            elif not isinstance(value, sympy.MatrixBase) and _rendered_width(text) > 80:
                text = wrapped(name, value)        # a long scalar on lines
            rows.append(f"{head} & {text}")
        rows[-1] += r"\\[2pt] \hline"
    return Math(r"\begin{array}{ll}" + r"\\[4pt] ".join(rows) + r"\end{array}")


#: the shorthand symbols of :func:`shorthand`: ``C1``, ``S23``, ``C_{1-2}``
_TRIG_NAME = re.compile(r"[CS](\d+|_\{[\d+-]+\})")


def structure(expr, collect_by: Sequence = ()) -> dict:
    """``{trigonometric factor: coefficient}`` of ``expr`` in book form (factors among
    ``collect_by`` too), coefficients in the parameters alone, in the books' order.

    >>> q2, q3, a, b = sympy.symbols("q2 q3 a b")
    >>> c2, c3 = sympy.cos(q2), sympy.cos(q2 + q3)
    >>> structure(a + b + 2 * a * c2 * c3 + b * c3**2)
    {1: a + b, C23**2: b, C2*C23: 2*a}
    """
    rates = set(collect_by)
    shown = sympy.expand(shorthand(group_angle_sums(compact(expr))))
    groups: dict = {}
    for term in sympy.Add.make_args(shown):
        key, coefficient = sympy.S.One, sympy.S.One
        for factor in sympy.Mul.make_args(term):
            base = factor.as_base_exp()[0]
            if base.is_Symbol and (_TRIG_NAME.fullmatch(base.name) or base in rates):
                key *= factor
            else:
                coefficient *= factor
        groups[key] = groups.get(key, 0) + coefficient
    order = sorted(groups, key=lambda k: (sympy.Poly(k).total_degree() if k != 1 else 0,
                                          sympy.default_sort_key(k)))
    return {k: groups[k] for k in order if groups[k] != 0}


def grouped_form(name: str, expr, factor=None, collect_by: Sequence = ()) -> str:
    r"""``name = expr`` as LaTeX, one line per group of :func:`structure`, collected by
    ``collect_by``, ``factor`` taken out in front (as the books print a gravity torque).

    >>> q2, q3, g, m2, m3, a2, a3 = sympy.symbols("q2 q3 g m2 m3 a2 a3")
    >>> c2 = g * (m2 * a2 / 2 + m3 * a2) * sympy.cos(q2) + g * m3 * a3 * sympy.cos(q2 + q3)
    >>> print(grouped_form("c_2", c2, factor=g, collect_by=(a2, a3)))
    \begin{aligned}c_2 = g\,\Big[ &a_{2} \left(\frac{m_{2}}{2} + m_{3}\right) C_{2} \\ &+ a_{3}
    m_{3} C_{23}\Big]\end{aligned}
    """
    groups = structure(expr)
    names = symbol_names(expr)
    lines = []
    for key, coefficient in groups.items():
        if factor is not None:
            coefficient = sympy.cancel(coefficient / factor)
            if coefficient.has(factor):
                raise ValueError(f"grouped_form: not every term of {name} carries {factor}")
        coefficient = sympy.collect(sympy.expand(coefficient), list(collect_by))
        sign = "-" if coefficient.could_extract_minus_sign() else "+"
        coefficient = -coefficient if sign == "-" else coefficient
        tex = sympy.latex(coefficient, symbol_names=names)
        if coefficient.is_Add:
            tex = rf"\left({tex}\right)"
        tex = tex if key == 1 else f"{tex} {sympy.latex(key)}"
        lines.append(("" if sign == "+" and not lines else f"{sign} ") + tex)
    head = f"{name} = " + (rf"{sympy.latex(factor)}\,\Big[ " if factor is not None else "")
    tail = r"\Big]" if factor is not None else ""
    return (r"\begin{aligned}" + head + "&" + r" \\ &".join(lines) + tail
            + r"\end{aligned}")


def _rendered_width(tex: str) -> int:
    """Roughly how many characters wide ``tex`` renders (commands and braces take no room)."""
    return len(re.sub(r"\\[A-Za-z]+|[{}^_ ]", "", tex))


def wrapped(name: str, expr, collect_by: Sequence = (), width: int = 70, names=None) -> str:
    r"""``name = expr`` as a LaTeX ``aligned`` block broken between terms so that no line
    renders wider than about ``width`` characters (a notebook column holds about 100).

    >>> x = sympy.symbols("x1:30")
    >>> print(wrapped("s", sum(x), width=30).count(r"\\"))
    3
    """
    shown = book_form(expr, collect_by) if names is None else expr
    names = symbol_names(expr) if names is None else names
    texts = [sympy.latex(term, symbol_names=names) for term in sympy.Add.make_args(shown)]
    return _aligned(name, [("-", t[1:].strip()) if t.startswith("-") else ("+", t)
                           for t in texts], width)


def _aligned(name: str, pieces, width: int) -> str:
    """``name = `` the ``(sign, tex)`` pieces as an ``aligned`` block, a new line wherever the
    next piece would render wider than ``width`` characters."""
    lines, line = [], f"{name} &= "
    for number, (sign, tex) in enumerate(pieces):
        piece = f"{sign} {tex}" if number else ("- " + tex if sign == "-" else tex)
        if number and _rendered_width(line + piece) > width:
            lines.append(line)
            line = r"&\quad "
        line += " " + piece if number else piece
    lines.append(line if pieces else line + "0")
    return r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}"


class Folded:
    r"""A closed form too long to read, shown as its structure (its factors with parameter-only
    coefficients :math:`\kappa_j`, and the number of ``terms``), the coefficients one click away
    (HTML ``<details>``); ``groups`` is :func:`structure`'s dict.

    >>> q1, q2, a, b = sympy.symbols("q1 q2 a b")
    >>> f = Folded("D_{11}", a + b * sympy.cos(q2)**2 + a * b * sympy.sin(q2))
    >>> f.terms, len(f.groups)
    (3, 3)
    >>> print(f.summary)
    D_{11} = \kappa_{1} + \kappa_{2} S_{2} + \kappa_{3} C_{2}^{2}
    """

    def __init__(self, name: str, expr, collect_by: Sequence = (), width: int = 70):
        self.name = name
        self.groups = structure(expr, collect_by)
        self.terms = sum(_term_count(c) for c in self.groups.values())
        names = symbol_names(sympy.Add(*self.groups) + expr)
        kappas = [sympy.Symbol(rf"\kappa_{{{j}}}") for j in range(1, len(self.groups) + 1)]
        pieces = [(k.name if key == 1 else f"{k.name} {sympy.latex(key, symbol_names=names)}")
                  for k, key in zip(kappas, self.groups)]
        self.summary = f"{name} = " + " + ".join(pieces)
        self._kappas = kappas
        self._names = names
        self._width = width

    def _repr_markdown_(self) -> str:
        summary = self.summary
        if _rendered_width(summary) > self._width:
            pieces = summary.split(" = ", 1)[1].split(" + ")
            summary = wrapped(self.name, sympy.Add(*[sympy.Symbol(p) for p in pieces],
                                                   evaluate=False), names={}, width=self._width)
        rows = [wrapped(k.name, coefficient, names=self._names, width=self._width)
                for k, coefficient in zip(self._kappas, self.groups.values())]
        count = len(self.groups)
        return (f"$${summary}$$\n\n"
                f"{count} coefficient{'s' if count > 1 else ''} $\\kappa_j$, each a sum of "
                f"products of the parameters; {self.terms} terms in all.\n\n"
                f"<details><summary>The full form of ${self.name}$</summary>\n\n"
                + "\n\n".join(f"$${row}$$" for row in rows) + "\n\n</details>\n")

    def __repr__(self) -> str:
        return f"Folded({self.name}: {len(self.groups)} groups, {self.terms} terms)"


def folded_form(name: str, expr, collect_by: Sequence = (), width: int = 70) -> Folded:
    """:class:`Folded`: ``expr``'s structure, its full form one click away."""
    return Folded(name, expr, collect_by, width)
