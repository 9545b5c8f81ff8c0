"""Tourassis & Neuman (1985), Sec. 6's design guidelines on a slider dashboard: the coupling of
the joints' inertias and the sparsity of the model of a 3-joint arm, as its masses and centres
of mass move (:func:`structure_dashboard`).
"""

from __future__ import annotations

import math

import numpy as np

from dynlab.dynamics.structure.counts import COLUMNS, sparsity_formula
from dynlab.dynamics.structure.coupling import (
    Coupling,
    coupling_coefficients,
    kinematic_factors,
    loading_factors,
)
from dynlab.dynamics.structure.exact import model_structure
from dynlab.dynamics.structure.inertia import inertia_matrix_22
from dynlab.model.checks import choice
from dynlab.model.edits import with_mass
from dynlab.model.robot import Robot
from dynlab.model.robots.tourassis_neuman import TOURASSIS_NEUMAN_ARMS
from dynlab.teaching.dashboards.common import (
    agg_png,
    figure_readout_status,
    joint_values,
    slider_column,
    widget_bundle,
)
from dynlab.teaching.dashboards.labels import format_value
from dynlab.teaching.dashboards.parameters import Parameter
from dynlab.teaching.dashboards.sliders import degrees, round_significant
from dynlab.teaching.dashboards.sliders import slider as labelled_slider


def _coupling_table(k, loading, kinematic, D) -> str:
    """The readout of :class:`StructureDashboard`: one row per pair ``i < j``."""
    import html as _html
    n = len(D)
    rows = ["<table class='dynlab-coupling-table'><tr><th>pair</th><th>d_ij</th>"
            "<th>loading factor (34)</th><th>kinematic factor (35)</th>"
            "<th>k_ij (32)</th></tr>"]

    def cell(pair, part, value):
        shade = "" if part != "k" or not math.isfinite(value) else (
            f" style='background: rgba(214, 39, 40, {0.8 * min(1.0, value):.2f})'")
        text = format_value(value) if math.isfinite(value) else "undefined"
        return (f"<td class='dynlab-value' data-pair='{pair}' data-part='{part}' "
                f"data-value='{value!r}'{shade}>{_html.escape(text)}</td>")
    for i in range(n):
        for j in range(i + 1, n):
            pair = f"{i + 1}{j + 1}"
            rows.append(f"<tr><td>{pair}</td>{cell(pair, 'd', float(D[i][j]))}"
                        f"{cell(pair, 'loading', float(loading[i, j]))}"
                        f"{cell(pair, 'kinematic', float(kinematic[i, j]))}"
                        f"{cell(pair, 'k', float(k[i, j]))}</tr>")
    rows.append("</table>")
    return "".join(rows)


class StructureDashboard:
    """Sliders for the masses, centres of mass and joint positions of one of Tourassis & Neuman's
    3-joint arms; shows ``k_ij`` (32) with its factors (34), (35) and the model's structure
    (Table 3) at the slider values.  Built by :func:`structure_dashboard`."""

    #: the bars, in order: quantity -> (legend text, colour); Tourassis & Neuman's equations
    QUANTITIES = {"k": ("coefficient of coupling $k_{ij}$ (32)", "tab:red"),
                  "loading": ("loading factor (34)", "tab:blue"),
                  "kinematic": ("kinematic factor (35)", "tab:green")}

    def __init__(self, robot: Robot, parameters, q):
        import ipywidgets as widgets

        if robot.is_symbolic:
            raise TypeError(f"{robot.name}: the dashboard needs numbers (symbolic=False)")
        self.base = self.robot = robot
        self.parameters = list(parameters)
        self.n = robot.n
        self.q = [float(v) for v in q]
        self.seconds = 0.0
        self.message = ""
        self._shown_q = {}                        # joint -> degrees its slider started at

        def slider(name, value, low, high, step, classes, tooltip):
            return labelled_slider(name, value, low, high, step, classes, tooltip,
                                   description_width="50px")
        self.sliders = {}
        joints = []
        for k in range(2, self.n + 1):           # k_ij depends on q2 .. qN only (Sec. 3.5)
            revolute = robot.links[k - 1].is_revolute
            if revolute:                         # degrees on the slider, radians in q
                value = self._shown_q[k] = degrees(self.q[k - 1])
                low, high, step = -180.0, 180.0, 1.0
            else:
                value, low, high, step = self.q[k - 1], -1.0, 1.0, 0.01
            joints.append(slider(f"q{k}", value, low, high, step,
                                 ("dynlab-q", f"dynlab-q{k}"),
                                 f"joint {k} position ({'deg' if revolute else 'm'})"))
        params = [slider(p.name, p.value, p.minimum, p.maximum, p.step,
                         ("dynlab-parameter", f"dynlab-param-{p.name}"), p.help)
                  for p in self.parameters]
        for widget in (*joints, *params):
            self.sliders[widget.description] = widget
        self.image, self.readout, self.status = figure_readout_status("640px", "dynlab-coupling")
        self.counts = widgets.HTML()
        self.counts.add_class("dynlab-structure-counts")
        self._make_figure()
        masses = [w for w in params if w.description.startswith("m")]
        centres = [w for w in params if not w.description.startswith("m")]
        self.widget = widgets.VBox([
            widgets.HTML(f"<b>{robot.name}: coupling and sparsity "
                         "(Tourassis & Neuman, Secs. 3.5, 6)</b>"),
            self.image,
            widgets.HBox([slider_column("joints (" + " / ".join(
                              unit for revolute, unit in ((True, "deg"), (False, "m"))
                              if any(link.is_revolute == revolute for link in robot.links[1:]))
                              + ")", joints), slider_column("masses (kg)", masses),
                          slider_column("centres of mass (m, frame k)", centres)]),
            self.readout, self.counts, self.status])
        self.widget.add_class("dynlab-dashboard")
        self.widget.add_class("dynlab-structure-dashboard")
        for widget in joints:
            widget.observe(lambda change: self.refresh(parameters=False), names="value")
        for widget in params:
            widget.observe(lambda change: self.refresh(parameters=True), names="value")
        self.refresh(parameters=True)

    def _make_figure(self) -> None:
        """The figure: for every pair ``ij`` of joints the coefficient of coupling and its two
        factors as bars (all between 0 and 1), with a legend and the axes' meaning."""
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        self.pairs = [(i, j) for i in range(self.n) for j in range(i + 1, self.n)]
        self.figure = Figure(figsize=(8.0, 3.0), dpi=72)
        FigureCanvasAgg(self.figure)
        self.axes = self.figure.add_axes((0.08, 0.15, 0.56, 0.75))
        width = 0.8 / len(self.QUANTITIES)
        x = np.arange(len(self.pairs))
        self.bars = {}
        for k, (quantity, (label, colour)) in enumerate(self.QUANTITIES.items()):
            container = self.axes.bar(x + (k - 1) * width, np.zeros(len(x)), width,
                                      color=colour, label=label)
            self.bars[quantity] = list(container.patches)
        self.axes.set_xticks(x, [f"{i + 1}{j + 1}" for i, j in self.pairs])
        self.axes.set_xlabel("pair of joints ij", fontsize=9)
        self.axes.set_ylabel("dimensionless", fontsize=9)
        self.axes.tick_params(labelsize=8)
        self.axes.grid(True, axis="y", lw=0.3, alpha=0.6)
        self.axes.set_axisbelow(True)
        self.axes.set_title("coupling of the joints' inertias (Tourassis & Neuman, Sec. 3.5)",
                            fontsize=9)
        self.legend = self.figure.legend(
            loc="upper left", bbox_to_anchor=(0.66, 0.9), fontsize=8, frameon=False,
            title="bars: k = loading x kinematic (33);\nno bar: zero, or undefined (no mass "
                  "moved)", title_fontsize=8, alignment="left")
        self.summary = self.figure.text(0.67, 0.5, "", fontsize=8, va="top")
        self.axes.set_ylim(0.0, 1.05)
        self._background = None

    def legend_texts(self) -> list:
        """The legend's title and entries, as drawn."""
        return [t.get_text() for t in (self.legend.get_title(), *self.legend.get_texts())]

    def _draw_figure(self) -> None:
        for quantity, patches in self.bars.items():
            values = getattr(self.coupling, quantity)
            for patch, (i, j) in zip(patches, self.pairs):
                value = float(values[i, j])
                patch.set_height(value if math.isfinite(value) else 0.0)
        heights = [patch.get_height() for patches in self.bars.values() for patch in patches]
        top = max(1.05, 1.1 * max(heights, default=0.0))
        if top > self.axes.get_ylim()[1] or top < 0.5 * self.axes.get_ylim()[1]:
            self.axes.set_ylim(0.0, top)
            self._background = None                  # new ticks: render the background anew
        self.summary.set_text(f"the model: {self.structure.total} non-zero coefficients\n"
                              f"(Table 3), sparsity {self.structure.sparsity:.3f}")
        # blitting: the axes, ticks and legend are rendered once and kept; an update draws
        # the bars and the summary on them
        canvas = self.figure.canvas
        moving = [patch for patches in self.bars.values() for patch in patches] + [self.summary]
        if self._background is None:
            for artist in moving:
                artist.set_animated(True)
            canvas.draw()
            self._background = canvas.copy_from_bbox(self.figure.bbox)
        else:
            canvas.restore_region(self._background)
        for artist in moving:
            artist.axes.draw_artist(artist) if artist.axes else self.figure.draw_artist(artist)
        self.image.value = agg_png(canvas)

    def _repr_mimebundle_(self, **kwargs):
        """The live widget, with a picture of its figure as the fallback of a notebook stored
        without widget state."""
        return widget_bundle(self, bytes(self.image.value), **kwargs)

    def joint_positions(self) -> list:
        """``q`` from the sliders, in radians (metres for a prismatic joint); a slider still
        at its start keeps the start's exact value (the slider shows it to 0.1 deg)."""
        q = list(self.q)
        for k in range(2, self.n + 1):
            value = float(self.sliders[f"q{k}"].value)
            if k in self._shown_q:
                if value != self._shown_q[k]:
                    q[k - 1] = math.radians(value)
                    self._shown_q[k] = None        # moved: the slider is the state now
            else:
                q[k - 1] = value
        return q

    def __repr__(self) -> str:
        pairs = ", ".join(f"k{i + 1}{j + 1} = {self.coupling.k[i, j]:.4f}"
                          for i in range(self.n) for j in range(i + 1, self.n))
        return (f"StructureDashboard({self.robot.name!r}: {pairs}; "
                f"{self.structure.total} non-zero coefficients, sparsity "
                f"{self.structure.sparsity:.3f})")

    def refresh(self, parameters: bool = True) -> None:
        """Recompute from the sliders; an error goes to the status line, the last valid arm
        stays shown."""
        import html as _html
        import time
        start = time.perf_counter()
        try:
            robot = self.robot
            if parameters:
                robot = self.base
                for p in self.parameters:
                    robot = p.apply(robot, self.sliders[p.name].value)
            q = self.joint_positions()
            for k in range(2, self.n + 1):
                if not math.isfinite(q[k - 1]):
                    raise ValueError(f"q{k} must be a finite number, got {q[k - 1]!r}")
            D = inertia_matrix_22(robot, q)
            result = Coupling(coupling_coefficients(D), loading_factors(robot),
                              kinematic_factors(robot, q))
            structure = model_structure(robot) if parameters else self.structure
        except Exception as error:                     # noqa: BLE001 - reported, not raised
            self.message = f"error: {type(error).__name__}: {error}"
            self.status.value = f"<span style='color: #b00'>{_html.escape(self.message)}</span>"
            return
        self.robot, self.q, self.D, self.coupling, self.structure = (robot, q, D, result,
                                                                     structure)
        self.readout.value = _coupling_table(result.k, result.loading, result.kinematic, D)
        row = structure.row()
        n_revolute = sum(link.is_revolute for link in robot.links)
        cells = "".join(f"<td class='dynlab-count' data-column='{c}'>{row[c][0]}({row[c][1]})"
                        f"</td>" for c in COLUMNS)
        self.counts.value = (
            "<table><tr>" + "".join(f"<th>{c}</th>" for c in COLUMNS) + "<th>total</th>"
            "<th>sparsity</th><th>0.235 [1 + (N_R/N)^2]^2</th></tr><tr>" + cells
            + f"<td class='dynlab-count' data-column='total'>{row['total']}</td>"
            f"<td class='dynlab-sparsity' data-value='{structure.sparsity!r}'>"
            f"{structure.sparsity:.3f}</td>"
            f"<td>{sparsity_formula(robot.n, n_revolute):.3f}</td></tr></table>"
            f"<small>non-zero (constant) independent coefficients, decided exactly at these "
            f"values; zero: {', '.join(structure.labels('zero')) or 'none'}</small>")
        self._draw_figure()
        self.seconds = time.perf_counter() - start
        self.message = f"ok: computed in {1e3 * self.seconds:.1f} ms"
        self.status.value = _html.escape(self.message)


def structure_dashboard(arm: str = "articulated", q=None, *, centre_range: float = 0.3
                        ) -> StructureDashboard:
    """Tourassis & Neuman, Sec. 6's design guidelines on sliders for ``arm`` (``"cartesian"``,
    ``"cylindrical"``, ``"spherical"``, ``"articulated"``): ``q2 .. q3``, masses and the centres of
    mass of links 2 and 3 (within ``+-centre_range`` m).

    >>> board = structure_dashboard("articulated", q=[0.0, 0.5, 1.0])
    >>> round(float(board.coupling.k[1, 2]), 4), board.structure.total
    (0.6549, 10)
    >>> board.sliders["rz3"].value = 0.05               # link 3 off the arm's plane
    >>> board.structure.total, round(board.structure.sparsity, 3)
    (15, 0.882)
    """
    choice(arm, ("cartesian", "cylindrical", "spherical", "articulated"), "structure_dashboard",
           "arm")
    robot = TOURASSIS_NEUMAN_ARMS[arm](symbolic=False, inertia="general")
    q = [0.0] * robot.n if q is None else joint_values(robot, q, "q")
    parameters = []
    for k, link in enumerate(robot.links, start=1):
        m = float(link.mass)
        parameters.append(Parameter(f"m{k}", f"mass of link {k} (kg); its inertia scales "
                                    f"with it", m, round_significant(0.5 * m, 2, "down"),
                                    round_significant(3 * m, 2, "up"), 0.5,
                                    lambda r, v, k=k: with_mass(r, k, v), "kg"))
    for k in range(2, robot.n + 1):
        for axis in range(3):
            def move(r, v, k=k, axis=axis):
                com = list(r.links[k - 1].com)
                com[axis] = v
                return r.replace_link(k, com=tuple(com))
            value = float(robot.links[k - 1].com[axis])
            low = round_significant(min(-centre_range, value), 2, "down")
            high = round_significant(max(centre_range, value), 2, "up")
            parameters.append(Parameter(f"r{'xyz'[axis]}{k}", f"centre of mass of link {k}, "
                                        f"{'xyz'[axis]} in frame {k} (m)", value, low, high,
                                        0.01, move, "m"))
    return StructureDashboard(robot, parameters, q)
