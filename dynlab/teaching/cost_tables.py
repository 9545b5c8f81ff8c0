"""The tables and figures of the chapter on computational cost: the sources' printed laws
(:mod:`dynlab.teaching.textbook.printed_counts`: Fu, Gonzalez & Lee, Tables 3.1, 3.4, 3.5;
Hollerbach (1980), quoted by Schilling, Sec. 6-8) against dynlab's counts on generic chains.

>>> markdown_table(["n", "multiplications"], [(6, 678)]).data
'| n | multiplications |\\n|---|---|\\n| 6 | 678 |'
"""

from __future__ import annotations

import timeit

import numpy as np

from dynlab.dynamics.inverse import inverse_dynamics
from dynlab.engine.opcount import (
    Counted,
    OpCounter,
    count_operations,
    counting_backend,
    fit_exponent,
    generic_chain,
    operation_laws,
    polynomial_law,
    polynomial_terms,
)
from dynlab.model import vectors as V
from dynlab.model.display import table_markdown
from dynlab.model.kinematics import link_offset_in_own_frame, link_rotation
from dynlab.teaching.dashboards.common import widget_bundle
from dynlab.teaching.side_by_side import median_seconds
from dynlab.teaching.textbook.printed_counts import (
    ARMSTRONG_KHATIB_BURDICK_1986,
    SOURCE_LAWS,
    TABLE_3_4_ROWS,
    hollerbach_1980,
    source_laws,
    table_3_1,
    table_3_4,
    table_3_5,
)

#: The formulations counted on generic chains: label -> (method, variant, largest n counted).
#: (The Christoffel form is the slowest to count, so it stops at n = 8.)
COUNTED = {
    "N-E, link frame (Fu, Gonzalez & Lee, Table 3.3)": ("newton_euler", "link", 12),
    "N-E, base frame (Fu, Gonzalez & Lee, Table 3.2)": ("newton_euler", "base", 12),
    "G-D (Fu, Gonzalez & Lee, Eqs. (3.4-25)-(3.4-28))": ("dalembert", "lee", 12),
    "L-E, 4x4 (Fu, Gonzalez & Lee, Eqs. (3.2-31)-(3.2-34))": ("lagrange_euler", "uicker", 12),
    "L-E, link Jacobians (Schilling (6-2-15))": ("lagrange_euler", "jacobian", 12),
    "L-E, Christoffel (Lynch & Park, Sec. 8.1)": ("lagrange_euler", "christoffel", 8),
}

#: The range of n on the explorer's slider and on the figure's law axes.
N_RANGE = (1, 12)


def total(counts: dict) -> int:
    """Multiplications plus additions of a count.

    >>> total({"mul": 2, "add": 1, "div": 0, "call": 1})
    3
    """
    return counts["mul"] + counts["add"]


def markdown_table(header, rows):
    """A Markdown table (``IPython.display.Markdown``) from a header and rows of cells."""
    from IPython.display import Markdown
    return Markdown(table_markdown(header, rows))


def explicit_model_table(model):
    """An explicit model's size before and after its cut
    (:meth:`dynlab.dynamics.explicit_model.ExplicitModel.rows`) beside the calculations Armstrong,
    Khatib & Burdick (1986) report for the PUMA 560's full and abbreviated models."""
    reported = [ARMSTRONG_KHATIB_BURDICK_1986[key] for key in ("full explicit model",
                                                               "1 % significance")]
    rows = [row + [" + ".join(str(r[k]) for k in ("mul", "add") if k in r)
                   + (" = " if "mul" in r else "") + str(r["total"])]
            for row, r in zip(model.rows(), reported)]
    return markdown_table(["model", "terms of D11", "terms", "D, h, c: mul + add (calls)",
                           "tau: mul + add (calls)", "Armstrong et al. (1986), reported"], rows)


def polynomial_latex(coefficients) -> str:
    r"""``[c0, c1, ...]`` as inline mathematics, ``$c_d n^d + \dots + c_0$``, fractions as
    ``\tfrac``.

    >>> from fractions import Fraction
    >>> polynomial_latex([Fraction(-189), Fraction(598, 3), Fraction(39, 2), Fraction(7, 6)])
    '$\\tfrac{7}{6}n^{3} + \\tfrac{39}{2}n^{2} + \\tfrac{598}{3}n - 189$'
    >>> polynomial_latex([Fraction(-62), Fraction(123)])
    '$123n - 62$'
    """
    parts = []
    for sign, m, k in polynomial_terms(coefficients):
        if m == 1 and k:
            number = ""
        elif m.denominator == 1:
            number = str(m.numerator)
        else:
            number = rf"\tfrac{{{m.numerator}}}{{{m.denominator}}}"
        power = "" if k == 0 else ("n" if k == 1 else f"n^{{{k}}}")
        parts.append((sign, number + power))
    if not parts:
        return "$0$"
    text = ("-" if parts[0][0] == "-" else "") + parts[0][1]
    for sign, body in parts[1:]:
        text += f" {sign} {body}"
    return f"${text}$"


def law_latex(law) -> str:
    r"""An operation-count law ``(coefficients, n0)`` (:func:`dynlab.engine.opcount.polynomial_law`)
    as inline mathematics with the first :math:`n` it holds for.

    >>> from fractions import Fraction
    >>> law_latex(([Fraction(-147), Fraction(152)], 2))
    '$152n - 147\\ (n \\ge 2)$'
    """
    coefficients, start = law
    return polynomial_latex(coefficients)[:-1] + rf"\ (n \ge {start})$"


def counts_markdown(rows: dict):
    """A Markdown table of operation counts: label -> ``{"mul", "add", "div", "call"}``.

    >>> print(counts_markdown({"pendulum": {"mul": 2, "add": 1, "div": 0, "call": 1}}).data)
    |  | multiplications | additions | divisions | calls |
    |---|---|---|---|---|
    | pendulum | 2 | 1 | 0 | 1 |
    """
    return markdown_table(["", "multiplications", "additions", "divisions", "calls"],
                          [(label, f"{c['mul']:,}", f"{c['add']:,}", f"{c['div']:,}",
                            f"{c['call']:,}") for label, c in rows.items()])


#: The rows of Fu, Gonzalez & Lee's Table 3.1 as the book prints them (Eqs. (3.2-31)-(3.2-34)),
#: keyed by :func:`dynlab.teaching.textbook.printed_counts.table_3_1_rows`'s names.
TABLE_3_1_LATEX = {
    "A_j' (4x4 products)": r"$\mathbf A_j'$ ($4\times4$ products)",
    "-m_j g U_ji r_j": r"$-m_j\,\mathbf g\,\mathbf U_{ji}^T\bar{\mathbf r}_j$",
    "sum_j m_j g U_ji r_j": r"$\sum_{j=1}^n m_j\,\mathbf g\,\mathbf U_{ji}^T\bar{\mathbf r}_j$",
    "Tr(U_kj J_k U_ki^T)": r"$\mathrm{Tr}[\mathbf U_{kj}\mathbf J_k\mathbf U_{ki}^T]$",
    "sum_k Tr(U_kj J_k U_ki^T)":
        r"$\sum_{k=\max(i,j)}^n \mathrm{Tr}[\mathbf U_{kj}\mathbf J_k\mathbf U_{ki}^T]$",
    "Tr(U_mjk J_m U_mi^T)": r"$\mathrm{Tr}[\mathbf U_{mjk}\mathbf J_m\mathbf U_{mi}^T]$",
    "sum_m Tr(U_mjk J_m U_mi^T)":
        r"$\sum_{m=\max(i,j,k)}^n \mathrm{Tr}[\mathbf U_{mjk}\mathbf J_m\mathbf U_{mi}^T]$",
}

#: The rows of Table 3.4 (Luh's link-frame N-E, Fu, Gonzalez & Lee, Eqs. (3.3-50)-(3.3-57)) and the
#: lines of :data:`ONE_JOINT_LINES`, as mathematics.
ROW_LATEX = {
    "omega_i": r"$^i\mathbf R_0\boldsymbol\omega_i$",
    "omega_dot_i": r"$^i\mathbf R_0\dot{\boldsymbol\omega}_i$",
    "v_dot_i": r"$^i\mathbf R_0\dot{\mathbf v}_i$",
    "a_i": r"$^i\mathbf R_0\bar{\mathbf a}_i$",
    "F_i": r"$^i\mathbf R_0\mathbf F_i$",
    "f_i": r"$^i\mathbf R_0\mathbf f_i$",
    "N_i": r"$^i\mathbf R_0\mathbf N_i$",
    "n_i": r"$^i\mathbf R_0\mathbf n_i$",
    "iR(i-1)": r"$^{i-1}\mathbf R_i$ from $\cos\theta_i$, $\sin\theta_i$",
    "tau_i": r"$\tau_i$",
}


def row_latex(name: str) -> str:
    """A row of Table 3.4 or a line of :data:`ONE_JOINT_LINES` as mathematics, with its equation
    number when the name carries one.

    >>> print(row_latex("omega_i (3.3-50)"))
    $^i\\mathbf R_0\\boldsymbol\\omega_i$, Eq. (3.3-50)
    """
    key, _, rest = name.partition(" ")
    equation = rest.split("(")[-1].rstrip(")") if "(" in rest else ""
    return ROW_LATEX[key] + (f", Eq. ({equation})" if equation else "")


#: Chapter 09's shapes of one inverse dynamics: label -> (method, variant).
RECURSION_SHAPES = {
    "Newton-Euler, Luh (link frame)": ("newton_euler", "link"),
    "twist-wrench, product of exponentials": ("twist_wrench", "poe"),
    "twist-wrench, frames on the joint axes": ("twist_wrench", "featherstone"),
    "twist-wrench, matrix form (Sec. 8.4)": ("twist_wrench", "matrix"),
}


def recursion_shapes_table(n: int = 6):
    """One inverse dynamics of a generic ``n``-joint chain counted as written in each of
    :data:`RECURSION_SHAPES`, then the printed counts of Luh's recursion: Fu, Gonzalez & Lee's
    Table 3.4 and Hollerbach (1980) (:mod:`dynlab.teaching.textbook.printed_counts`).

    >>> last = recursion_shapes_table(6).data.splitlines()[-1]   # Schilling quotes 852, 738
    >>> [cell.strip(" |") for cell in last.split(" | ")[1:]]
    ['852', '738']
    """
    chain = generic_chain(n)
    rows = [(label, counts["mul"], counts["add"]) for label, counts in
            ((label, count_operations(chain, *way)) for label, way in RECURSION_SHAPES.items())]
    book, hollerbach = table_3_4(n), hollerbach_1980(n)
    rows += [("Fu, Gonzalez & Lee, Table 3.4, Luh's recursion for a PUMA ($117n - 24$, "
              "$103n - 21$)", book["mul"], book["add"]),
             ("Luh's recursion counted by Hollerbach (1980), $150n - 48$ and $131n - 48$ "
              "(Schilling, Sec. 6-8, quotes the values)", hollerbach["mul"], hollerbach["add"])]
    return markdown_table([f"inverse dynamics, $n = {n}$", "multiplications", "additions"], rows)


#: :func:`dynlab.engine.opcount.operation_laws`' algorithms as chapter 09 writes them
ALGORITHM_LATEX = {
    "spatial RNEA, tau(q, qd, qdd)": r"RNEA, $\tau(q, \dot q, \ddot q)$",
    "CRBA, D(q)": r"CRBA, $M(q)$",
    "ABA, qdd(q, qd, tau)": r"ABA, $\ddot q(q, \dot q, \tau)$",
    "CRBA + RNEA + LDL^T, qdd(q, qd, tau)":
        r"CRBA + RNEA + $LDL^T$, $\ddot q(q, \dot q, \tau)$",
}


def algorithm_laws_table(ns=range(1, 10)):
    """The exact laws in ``n`` of the operation counts on generic chains of ``n`` in ``ns``: the
    twist-wrench matrix form, then Featherstone's algorithms
    (:func:`dynlab.engine.opcount.operation_laws`).

    >>> for row in algorithm_laws_table().data.splitlines()[2:]:
    ...     print(row.split(" | ")[0][2:].split(",")[0])
    twist-wrench
    RNEA
    CRBA
    ABA
    CRBA + RNEA + $LDL^T$
    """
    ns = list(ns)
    counts = [count_operations(generic_chain(n), *RECURSION_SHAPES[
        "twist-wrench, matrix form (Sec. 8.4)"]) for n in ns]
    rows = [(r"twist-wrench, matrix form, $\tau(q, \dot q, \ddot q)$",
             *(law_latex(polynomial_law(ns, [c[kind] for c in counts]))
               for kind in ("mul", "add")))]
    rows += [(ALGORITHM_LATEX[label], law_latex(law["mul"]), law_latex(law["add"]))
             for label, law in operation_laws(ns).items()]
    return markdown_table(["algorithm (as written)", "multiplications", "additions"], rows)


def cost_figure(n: int = 6):
    """The sources' multiplications and additions at ``n`` as bars, and each law against ``n`` on
    log-log axes; a ``matplotlib.figure.Figure``.

    >>> fig = cost_figure(6)
    >>> [round(bar.get_height()) for bar in fig.axes[0].patches][-2:]      # Table 3.4, mul, add
    [678, 597]
    """
    from matplotlib.figure import Figure
    laws = source_laws(n)
    fig = Figure(figsize=(11, 4.2))
    bars, lines = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    colours = [f"C{k}" for k in range(len(SOURCE_LAWS))]
    for k, label in enumerate(SOURCE_LAWS):
        for j, kind in enumerate(("mul", "add")):
            bars.bar(2 * k + 0.8 * j, laws[label][kind], width=0.8, color=colours[k],
                     alpha=1.0 if kind == "mul" else 0.5,
                     label=f"{label}" if kind == "mul" else None)
    bars.set_yscale("log")
    bars.set_xticks([2 * k + 0.4 for k in range(len(SOURCE_LAWS))],
                    [label.split(",")[0] for label in SOURCE_LAWS])
    bars.set(ylabel="operations per set point (log scale)",
             xlabel="formulation (dark bar: multiplications, light bar: additions)",
             title=f"The sources' counts at n = {n}")
    bars.legend(fontsize=7, loc="upper right")
    ns = np.arange(N_RANGE[0], N_RANGE[1] + 1)
    every = [source_laws(int(m)) for m in ns]
    for k, label in enumerate(SOURCE_LAWS):
        lines.loglog(ns, [law[label]["mul"] for law in every], "o-", ms=3, color=colours[k],
                     label=label)
    lines.axvline(n, color="0.4", lw=0.8, ls="--", label=f"n = {n}")
    lines.set(xlabel="number of joints n", ylabel="multiplications per set point",
              title="The laws against n")
    lines.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


class CostExplorer:
    """An ``IntSlider`` for ``n`` (:data:`N_RANGE`) above :func:`cost_figure`, redrawn as it moves.

    >>> explorer = CostExplorer(n=4)
    >>> explorer.slider.value = 6
    >>> explorer
    CostExplorer(n = 6: N-E, Table 3.4 (Luh, PUMA) 678 mul / 597 add; L-E, Table 3.1 102440 / 78203)
    """

    def __init__(self, n: int = 6):
        import ipywidgets as widgets
        source_laws(n)                                     # a bad n is refused here
        self.slider = widgets.IntSlider(value=n, min=N_RANGE[0], max=N_RANGE[1], step=1,
                                        description="joints n", continuous_update=False)
        self.output = widgets.Output()
        self.widget = widgets.VBox([self.slider, self.output])
        self.figure = None
        self.slider.observe(self._redraw, names="value")
        self._redraw()

    def _redraw(self, change=None):
        from IPython import get_ipython
        from IPython.display import display
        self.figure = cost_figure(self.slider.value)
        if get_ipython() is None:                          # no notebook: nothing to show into
            return
        with self.output:
            self.output.clear_output(wait=True)
            display(self.figure)

    def _png(self) -> bytes:
        import io
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="png", dpi=80)
        return buffer.getvalue()

    def _repr_mimebundle_(self, **kwargs):
        return widget_bundle(self, self._png(), **kwargs)

    def __repr__(self) -> str:
        n = self.slider.value
        laws = source_laws(n)
        ne, le = laws["N-E, Table 3.4 (Luh, PUMA)"], laws["L-E, Table 3.1"]
        return (f"CostExplorer(n = {n}: N-E, Table 3.4 (Luh, PUMA) {ne['mul']} mul / "
                f"{ne['add']} add; L-E, Table 3.1 {le['mul']} / {le['add']})")


def cost_explorer(n: int = 6) -> CostExplorer:
    """The :class:`CostExplorer` at ``n`` joints (display it as a cell's last expression)."""
    return CostExplorer(n)


def count_series(formulations: dict = COUNTED) -> dict:
    """label -> ``[(n, counts), ...]``: each formulation counted as written
    (:func:`dynlab.engine.opcount.count_operations`) on generic chains of ``n = 1`` to its largest
    n.

    >>> series = count_series({"N-E": ("newton_euler", "link", 3)})
    >>> [total(c) for _, c in series["N-E"]]
    [113, 324, 544]
    """
    return {label: [(n, count_operations(generic_chain(n), method, variant))
                    for n in range(1, last + 1)]
            for label, (method, variant, last) in formulations.items()}


def count_laws(series: dict) -> dict:
    """label -> ``{"mul": (coefficients, n0), "add": ...}``: the exact polynomial each count of
    :func:`count_series` follows (:func:`dynlab.engine.opcount.polynomial_law`)."""
    return {label: {kind: polynomial_law([n for n, _ in points], [c[kind] for _, c in points])
                    for kind in ("mul", "add")}
            for label, points in series.items()}


def law_rows(series: dict, laws: dict) -> list:
    """The rows of the table of laws: formulation, multiplications, additions, first n of the
    law, degree, log-log slope over the last six n, mul + add at the largest n (kept on one
    line of its cell)."""
    rows = []
    for label, points in series.items():
        ns = [n for n, _ in points]
        (mul_law, start), (add_law, _) = laws[label]["mul"], laws[label]["add"]
        slope = fit_exponent(ns[-6:], [total(c) for _, c in points][-6:])
        rows.append((label, polynomial_latex(mul_law), polynomial_latex(add_law),
                     f"${{n \\ge {start}}}$",
                     len(mul_law) - 1, f"{slope:.2f}",
                     f"{total(points[-1][1]):,}&nbsp;at&nbsp;${{n{{=}}{ns[-1]}}}$"))   # on one line
    return rows


def counts_figure(series: dict, laws: dict):
    """Two panels: measured multiplications against n (dots) with the sources' tables (black
    lines), and the local exponent ``d log C / d log n`` of each exact law out to n = 1000."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=(12, 4.5))
    left, right = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    colours = {label: f"C{k}" for k, label in enumerate(series)}
    for label, points in series.items():
        left.loglog([n for n, _ in points], [c["mul"] for _, c in points], "o-", ms=4,
                    color=colours[label], label=label)
    ns = np.arange(1, 13)
    left.loglog(ns, [table_3_1(n)["mul"] for n in ns], "k--", lw=1,
                label="Fu, Gonzalez & Lee, Table 3.1 (L-E)")
    left.loglog(ns, [table_3_5(n)["dalembert"]["mul"] for n in ns], "k-.", lw=1,
                label="Fu, Gonzalez & Lee, Table 3.5 (G-D)")
    left.loglog(ns, [table_3_4(n)["mul"] for n in ns], "k:", lw=1.5,
                label="Fu, Gonzalez & Lee, Table 3.4 (N-E)")
    left.set(xlabel="number of joints n", ylabel="multiplications per set point",
             title="Measured counts (generic chains) and the sources' tables")
    left.legend(fontsize=7)
    big = np.logspace(0, 3, 60)
    for label in series:
        c = [float(x) for x in laws[label]["mul"][0]]
        value = sum(ck * big**k for k, ck in enumerate(c))
        slope = sum(k * ck * big**k for k, ck in enumerate(c)) / value
        right.semilogx(big, slope, color=colours[label], label=label)
    right.axvspan(1, 12, color="0.9")
    right.set(xlabel="number of joints n", ylabel="local exponent  d log C / d log n",
              title="Exponent of each law (shaded: the n counted)", ylim=(0, 4.5))
    right.legend(fontsize=7)
    fig.tight_layout()
    return fig


#: The lines of one joint of the link-frame recursion, and the row of Table 3.4 each belongs to.
ONE_JOINT_LINES = ("iR(i-1) from cos, sin (3.3-48)", "omega_i (3.3-50)", "omega_dot_i (3.3-51)",
                   "v_dot_i (3.3-52)", "a_i (3.3-53)", "F_i (3.3-54)", "N_i (3.3-55)",
                   "f_i (3.3-56)", "n_i (3.3-57)", "tau_i (3.3-58)")


def one_joint_multiplications() -> dict:
    """line -> (Table 3.4's multiplications per joint, dynlab's) for one middle joint of a generic
    chain, each line of Algorithm 3.1 (Fu, Gonzalez & Lee, Eqs. (3.3-48)-(3.3-58)) counted.

    >>> rows = one_joint_multiplications()
    >>> sum(t for t, _ in rows.values()), sum(d for _, d in rows.values())
    (117, 123)
    """

    link = generic_chain(3).numeric()[0][1]
    counter = OpCounter()
    backend = counting_backend(counter)

    def fresh():
        return Counted(counter)

    def vector():
        return (fresh(), fresh(), fresh())

    R, R_next = link_rotation(link, fresh(), backend), link_rotation(link, fresh(), backend)
    counter.tally["mul"] -= 4                     # R_next belongs to the next joint
    p, r, inertia = link_offset_in_own_frame(link, fresh()), link.com, link.inertia
    w, wd, vd, f_next, n_next, qd, qdd = (vector(), vector(), vector(), vector(), vector(),
                                          fresh(), fresh())
    steps = {
        ONE_JOINT_LINES[1]: lambda: V.tmatvec(R, (w[0], w[1], w[2] + qd)),
        ONE_JOINT_LINES[2]: lambda: V.tmatvec(R, (wd[0] + w[1] * qd, wd[1] - w[0] * qd,
                                                  wd[2] + qdd)),
        ONE_JOINT_LINES[3]: lambda: V.add3(V.cross(wd, p), V.cross(w, V.cross(w, p)),
                                           V.tmatvec(R, vd)),
        ONE_JOINT_LINES[4]: lambda: V.add3(V.cross(wd, r), V.cross(w, V.cross(w, r)), vd),
        ONE_JOINT_LINES[5]: lambda: V.scale(link.mass, vd),
        ONE_JOINT_LINES[6]: lambda: V.add(V.matvec(inertia, wd),
                                          V.cross(w, V.matvec(inertia, w))),
        ONE_JOINT_LINES[7]: lambda: V.add(V.matvec(R_next, f_next), vd),
        ONE_JOINT_LINES[8]: lambda: V.add(V.add3(V.matvec(R_next, n_next), V.cross(p, f_next),
                                                 V.cross(V.add(p, r), vd)), w),
        ONE_JOINT_LINES[9]: lambda: V.dot(n_next, R[2]),
    }
    dynlab_row = {ONE_JOINT_LINES[0]: 4}           # the 4 products that built R above
    for name, step in steps.items():
        before = counter.tally["mul"]
        step()
        dynlab_row[name] = counter.tally["mul"] - before
    table_row = {name: TABLE_3_4_ROWS[name.split()[0]][0][0]
                 if name.split()[0] in TABLE_3_4_ROWS else 0 for name in ONE_JOINT_LINES}
    return {name: (table_row[name], dynlab_row[name]) for name in ONE_JOINT_LINES}


def seconds_as_written(robot, method: str, variant: str, repeat: int = 3) -> float:
    """The best of ``repeat`` wall-clock times of one inverse dynamics as written
    (``compiled=False``) at a fixed state: a measurement, different on every run."""
    state = [np.full(robot.n, 0.3), np.full(robot.n, -0.2), np.full(robot.n, 0.5)]
    return min(timeit.repeat(lambda: inverse_dynamics(robot, *state, method=method,
                                                      variant=variant, compiled=False),
                             number=1, repeat=repeat))


def microseconds_per_call(call, number: int, per: int = 1) -> float:
    """The median over 5 runs of ``number`` calls of ``call()``, in microseconds, divided by
    ``per`` (the points one call computes): a measurement, different on every run."""
    return median_seconds(call, number) / per * 1e6
