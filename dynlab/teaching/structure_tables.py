"""The tables and figures of the chapter on the structure of the model (Tourassis & Neuman
(1985), Mech. Mach. Theory 20(1), 41-52): Table 1 dependences, Table 3 regenerated, what each
off-line parameter adds, sparsity, and the coupling ``k_ij`` (Eq. (32)) over two joint angles.

>>> from dynlab.model.robots import spherical
>>> from dynlab.dynamics.structure.exact import model_structure
>>> dependence_rows(model_structure(spherical()))[0]
('d11', 'q2, q3', 'q2, q3')
"""

from __future__ import annotations

import numpy as np

from dynlab.dynamics.structure.counts import COLUMNS, TABLE3_PRINTED, sparsity_formula
from dynlab.dynamics.structure.exact import coefficient_expression, model_structure
from dynlab.dynamics.structure.inertia import inertia_matrix_in_joint_frames, table1_dependence
from dynlab.model.display import shorthand, symbol_names, table_markdown
from dynlab.model.robots.tourassis_neuman import AXIAL_COM, TOURASSIS_NEUMAN_ARMS

#: The three levels of inertial detail at which the arms of Table 3 are built.
LEVELS = ("axial", "principal", "general")


def _joints(indices) -> str:
    return ", ".join(f"q{k}" for k in sorted(indices)) or "constant"


def dependence_rows(structure) -> list:
    """``(coefficient, Table 1 allows, depends on)`` for every self and mutual inertial
    coefficient of a :class:`~dynlab.dynamics.structure.ModelStructure`, as text.  Raises
    ``ValueError`` if a coefficient depends on a joint that Table 1 does not allow."""
    types = structure.robot.joint_types
    rows = []
    for c in structure.coefficients:
        if c.column not in ("d_ii", "d_ij"):
            continue
        i, j, _ = c.index
        allowed = table1_dependence(types, i, j)
        if not c.depends_on <= allowed:
            raise ValueError(f"{c.label} depends on {_joints(c.depends_on)}, Table 1 allows "
                             f"{_joints(allowed)}")
        rows.append((c.label, _joints(allowed),
                     "zero" if c.status == "zero" else _joints(c.depends_on)))
    return rows


#: a Markdown table as text (:func:`dynlab.model.display.table_markdown`)
markdown = table_markdown


def all_structures(levels=LEVELS) -> dict:
    """``(arm name, level) -> ModelStructure`` for every arm of Table 3 (:data:`dynlab.model.robots.
    TOURASSIS_NEUMAN_ARMS`) at each level of inertial detail."""
    return {(name, level): model_structure(TOURASSIS_NEUMAN_ARMS[name](inertia=level))
            for name in TOURASSIS_NEUMAN_ARMS for level in levels}


def _cell(counts, column, printed=None) -> str:
    nonzero, constant = counts[column]
    text = f"{nonzero}({constant})" if constant or column in ("d_ii", "G_i") else f"{nonzero}"
    if printed is not None:
        p_nonzero, p_constant = printed.counts[column]
        same = p_nonzero == nonzero and (p_constant is None or p_constant == constant)
        text += " ✓" if same else " ✗"
    return text


def table3_markdown(structures: dict, levels=LEVELS) -> str:
    """Table 3 of Tourassis & Neuman as printed, and under each arm dynlab's counts at each
    level (non-zero (constant); ✓ where a cell equals the printed one)."""
    rows = []
    for name, printed in TABLE3_PRINTED.items():
        cells = [f"{n}({c})" if c is not None else f"{n}" for n, c in
                 (printed.counts[col] for col in COLUMNS)]
        rows.append((f"**{name}**", "Tourassis & Neuman", *cells, printed.total,
                     f"{printed.sparsity:.3f}"))
        for level in levels:
            s = structures[name, level]
            counts = s.counts()
            rows.append(("", f"dynlab, {level}", *(_cell(counts, col, printed) for col in COLUMNS),
                         f"{s.total}{' ✓' if s.total == printed.total else ' ✗'}",
                         f"{s.sparsity:.3f}"))
    return markdown(["arm", "row", *COLUMNS, "total", "sparsity"], rows)


def off_line_parameters(name: str) -> list:
    """The inertial parameters of arm ``name`` that the "axial" level sets to zero: the
    centre-of-mass coordinates off each link's line and the products of inertia.

    >>> off_line_parameters("cartesian")[:4]
    ['rx1', 'ry1', 'Ixy1', 'Ixz1']
    """
    n = TOURASSIS_NEUMAN_ARMS[name]().n
    names = []
    for k in range(1, n + 1):
        names += [f"r{axis}{k}" for axis in "xyz" if axis != AXIAL_COM[name][k - 1]]
        names += [f"I{axes}{k}" for axes in ("xy", "xz", "yz")]
    return names


def what_each_parameter_adds(name: str, axial=None) -> dict:
    """parameter -> the coefficients it adds to the axial arm's non-zero ones, when it alone
    of :func:`off_line_parameters` is given a symbolic value (parameters that add nothing are
    left out).  Raises ``AssertionError`` if a parameter ever removes a coefficient."""
    if axial is None:
        axial = model_structure(TOURASSIS_NEUMAN_ARMS[name](inertia="axial"))
    base = set(axial.labels("non-zero"))
    extra = off_line_parameters(name)
    found = {}
    for parameter in extra:
        s = model_structure(TOURASSIS_NEUMAN_ARMS[name](inertia="general",
                                           **{p: 0 for p in extra if p != parameter}))
        added = set(s.labels("non-zero")) - base
        if base - set(s.labels("non-zero")):
            raise AssertionError(f"{name}: {parameter} removes a coefficient")
        if added:
            found[parameter] = sorted(added)
    return found


def sparsity_rows(structures: dict) -> tuple:
    """The rows of the sparsity table (arm, N_R/N, the formula ``0.235 [1 + (N_R/N)^2]^2``,
    printed, its deviation, dynlab's, its deviation) and ``{arm: (printed deviation, dynlab's
    deviation)}``.  dynlab's sparsity (to three digits, as printed) is the axial arm's, the general
    one's for the articulated arm (no level reproduces its printed row)."""
    rows, deviation = [], {}
    for name, printed in TABLE3_PRINTED.items():
        formula = sparsity_formula(printed.n, printed.n_revolute)
        # rounded to three digits, as Table 3 prints its sparsities: equal sparsities in the
        # table then deviate equally from the formula
        ours = round(structures[name, "general" if name == "articulated" else "axial"].sparsity, 3)
        deviation[name] = (printed.sparsity / formula - 1, ours / formula - 1)
        rows.append((name, f"{printed.n_revolute}/{printed.n}", f"{formula:.3f}",
                     f"{printed.sparsity:.3f}", f"{100 * deviation[name][0]:+.1f} %",
                     f"{ours:.3f}", f"{100 * deviation[name][1]:+.1f} %"))
    return rows, deviation


def coupling_map(links, grid, pairs=((0, 1), (0, 2), (1, 2)), wrist=(0.0, 0.0, 0.0)) -> dict:
    """``{(i, j): K}`` with ``K[b, a] = k_ij`` (Tourassis & Neuman, Eq. (32)) at
    ``q = (0, grid[a], grid[b], *wrist)``: the coupling over the shoulder and elbow angles of a
    six-joint arm (``links`` as :meth:`dynlab.Robot.numeric` returns them)."""
    K = {pair: np.zeros((len(grid), len(grid))) for pair in pairs}
    for a, q2 in enumerate(grid):
        for b, q3 in enumerate(grid):
            D = np.array(inertia_matrix_in_joint_frames(links, [0.0, q2, q3, *wrist]))
            d = np.sqrt(np.diag(D))
            for (i, j) in pairs:
                K[i, j][b, a] = abs(D[i, j]) / (d[i] * d[j])
    return K


def coupling_figure(grid, K: dict):
    """One filled contour panel of ``k_ij`` per pair over ``(q2, q3)``, with a shared colour bar
    that names what it shows.  Returns the ``matplotlib.figure.Figure``."""
    from matplotlib.figure import Figure
    figure = Figure(figsize=(11, 3.4))
    image = None
    for index, (i, j) in enumerate(K):
        ax = figure.add_subplot(1, len(K), index + 1)
        image = ax.contourf(grid, grid, K[i, j], levels=np.linspace(0, 1, 11), cmap="viridis")
        ax.set_title(f"$k_{{{i + 1}{j + 1}}}$")
        ax.set_xlabel("$q_2$ (rad)")
        if index == 0:
            ax.set_ylabel("$q_3$ (rad)")
    figure.colorbar(image, ax=figure.axes,
                    label="coefficient of coupling $k_{ij}$ (Tourassis & Neuman, Eq. (32))")
    return figure


def coupling_zeros(links, brackets, i: int = 1, j: int = 2) -> list:
    """The elbow angles ``q3`` in each ``(low, high)`` bracket where ``d_ij`` of a six-joint arm
    (the other joints at zero) changes sign, by bisection (60 halvings); there ``k_ij = 0``.

    >>> import math
    >>> from dynlab.model.robots.puma import puma560
    >>> [round(q3, 4) for q3 in coupling_zeros(puma560().numeric()[0], [(1.0, math.pi / 2)])]
    [1.2411]
    """
    def d(q3):
        return inertia_matrix_in_joint_frames(links, [0.0, 0.0, q3, 0.0, 0.0, 0.0])[i][j]

    roots = []
    for low, high in brackets:
        if d(low) * d(high) > 0:
            raise ValueError(f"d{i + 1}{j + 1} has the same sign at q3 = {low} and {high}")
        for _ in range(60):
            middle = (low + high) / 2
            low, high = (middle, high) if d(low) * d(middle) > 0 else (low, middle)
        roots.append((low + high) / 2)
    return roots


def matrix_latex(name: str, matrix, digits: int = 4) -> str:
    r"""``name = (matrix)`` as LaTeX, entries with ``digits`` decimals.

    >>> print(matrix_latex("k", [[1.0, 0.25], [-1e-17, 1.0]], digits=2))
    k = \begin{pmatrix}1.00 & 0.25\\ 0.00 & 1.00\end{pmatrix}
    """
    rows = np.asarray(matrix, dtype=float)
    rows = np.round(rows, digits) + 0.0                   # no "-0.0"
    body = r"\\ ".join(" & ".join(f"{x:.{digits}f}" for x in row) for row in rows)
    return rf"{name} = \begin{{pmatrix}}{body}\end{{pmatrix}}"


def _label_latex(label: str) -> str:
    """``d22`` -> ``d_{22}``, ``c22(3)`` -> ``c_{22}(3)``, ``G2`` -> ``G_{2}``."""
    head, digits = label[0], label[1:]
    indices, _, rest = digits.partition("(")
    return f"{head}_{{{indices}}}" + (f"({rest}" if rest else "")


def coefficient_latex(structure, label: str) -> str:
    r"""One coefficient of a :class:`~dynlab.dynamics.structure.ModelStructure` as LaTeX in a hand
    calculation's letters: ``r_k = a_k + r_{xk}`` (joint axis to centre of mass along link ``k``),
    terms collected by mass, ``C_3``/``S_3``.

    >>> from dynlab.dynamics.structure.exact import model_structure
    >>> from dynlab.model.robots import articulated
    >>> print(coefficient_latex(model_structure(articulated(inertia="axial")), "c22(3)"))
    c_{22}(3) = S_{3} a_{2} m_{3} r_{3}
    """
    import sympy

    expr = coefficient_expression(structure, label)
    named = {s.name: s for s in expr.free_symbols}
    along = {named[f"rx{k}"]: sympy.Symbol(f"r{k}") - named.get(f"a{k}", 0)
             for k in range(1, structure.robot.n + 1) if f"rx{k}" in named}
    expr = sympy.expand(expr.subs(along))
    masses = sorted((s for s in expr.free_symbols if s.name.startswith("m")), key=lambda s: s.name)
    expr = shorthand(sympy.collect(expr, masses, sympy.factor))
    return f"{_label_latex(label)} = {sympy.latex(expr, symbol_names=symbol_names(expr))}"
