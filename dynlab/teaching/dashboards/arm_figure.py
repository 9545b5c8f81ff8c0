"""The figure of an arm's dashboard (:class:`ArmFigure`): the arm, each joint's torque in bars,
the legends, and its rendering (blitting, a PNG, or an ipympl canvas for a 3-D arm).

>>> nice_limit(3.2), nice_limit(0.0)
(5.0, 0.001)
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from dynlab.teaching.dashboards.common import agg_png
from dynlab.teaching.dashboards.labels import PART_COLOURS, PARTS, part_labels


def _bar_style(part: str) -> dict:
    """A part's bars and legend patch: filled in its colour, the total hatched and unfilled."""
    total = part == "total"
    return dict(facecolor="none" if total else PART_COLOURS[part], edgecolor=PART_COLOURS[part],
                linewidth=1.5 if total else 0, hatch="//" if total else None)


class ArmFigure:
    """The figure of a :class:`~dynlab.teaching.dashboards.arm.Dashboard` (see there for the
    attributes: ``figure``, ``drawing``, ``bar_axes``, ``bars``, ``interactive``, ...)."""

    def _make_figure(self, q, labels, figsize, dpi, blit, interactive) -> bool:
        """The figure: the arm drawn with its frames, and the torque bars; True for a 3-D arm."""
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.ticker import NullFormatter

        # matplotlib: loaded when drawn
        from dynlab.model.drawing import draw_arm, plane_of, reach_of, workspace_box
        robot = self.base
        three = plane_of(self.robot) is None
        self.figure = Figure(figsize=figsize, dpi=dpi)
        FigureCanvasAgg(self.figure)
        top = 0.78                                     # above it: the legends
        arm_axes = self.figure.add_axes((0.0, 0.07, 0.45, top - 0.07),
                                        projection="3d" if three else None)
        if not three:
            arm_axes.set_position((0.07, 0.1, 0.36, top - 0.12))
        # the view of the longest arm the sliders allow, so it never has to move
        longest = self.base
        for parameter in self.parameters:
            longest = parameter.apply(longest, parameter.maximum if parameter.unit == "m"
                                      else parameter.value)
        self.drawing = draw_arm(self.robot, q, ax=arm_axes, labels=labels, title="",
                                reach=reach_of(longest, q),
                                box=workspace_box(longest, q) if three else None)
        for axis in (arm_axes.xaxis, arm_axes.yaxis, *((arm_axes.zaxis,) if three else ())):
            axis.set_label_text(f"{axis.get_label_text()} (m)", fontsize=9)
        if three:
            # positions are read off the sliders: no tick labels (a third of a full redraw)
            for axis in (arm_axes.xaxis, arm_axes.yaxis, arm_axes.zaxis):
                axis.set_major_formatter(NullFormatter())
        self.parts_shown = [p for p in PARTS if p != "tip" or robot.has_tip_wrench]
        self._make_bar_axes(top)
        self._make_legends()
        self._limits = {axes: None for axes, _ in self.bar_groups}
        # blitting: the static background (axes, ticks, panes) is rendered once and kept; an
        # update restores it and draws only the artists that move
        # (gravity's arrow too, though it stays: drawn among the arm's artists in zorder, it is
        # layered as in a full draw from any view)
        self._dynamic = sorted(self.drawing.artists() + list(self.drawing.gravity_artists)
                               + [patch for part in self.parts_shown
                                  for patch in self.bars[part]],
                               key=lambda artist: artist.get_zorder())   # as a full draw does
        self._background = None
        self.blit = blit
        # a 3-D arm turns with the mouse: the figure is shown by an ipympl canvas widget
        self.interactive = self._use_interactive(interactive, three)

        return three

    def _make_bar_axes(self, top: float) -> None:
        """The bar charts: one axis for the arm's joints and, with a wrist, a shaded one of its own
        scale for the wrist's; ``bar_groups`` ``[(axes, joints)]`` (0-based), ``bar_axes``,
        ``wrist_axes`` (or ``None``)."""
        from matplotlib.ticker import MaxNLocator
        robot, n = self.base, self.n
        wrist = [k - 1 for k in self.wrist]
        arm = [k for k in range(n) if k not in wrist]
        groups = [arm] + ([wrist] if wrist else [])
        left, right, gap = 0.57, (0.925 if wrist else 0.985), 0.015
        usable = right - left - gap * (len(groups) - 1)
        width = 0.8 / len(self.parts_shown)
        self.bars = {part: [None] * n for part in self.parts_shown}
        self.bar_groups = []
        x = left
        for g, joints in enumerate(groups):
            w = usable * len(joints) / n
            axes = self.figure.add_axes((x, 0.12, w, top - 0.18))
            x += w + gap
            axes.yaxis.set_major_locator(MaxNLocator(6, symmetric=True))
            numbers = np.array(joints) + 1
            for k, part in enumerate(self.parts_shown):
                container = axes.bar(numbers + (k - (len(self.parts_shown) - 1) / 2) * width,
                                     np.zeros(len(joints)), width, **_bar_style(part))
                for joint, patch in zip(joints, container.patches):
                    self.bars[part][joint] = patch
            # grid and zero line under the bars in a full draw too, as the blitted bars are
            axes.set_axisbelow(True)
            axes.axhline(0.0, color="0.3", lw=0.8, zorder=0.8)
            axes.set_xticks(numbers)
            axes.set_xticklabels([f"{k + 1}" + ("" if robot.links[k].is_revolute else " (N)")
                                  for k in joints])
            axes.set_xlim(numbers[0] - 0.5, numbers[-1] + 0.5)
            axes.tick_params(labelsize=8)
            axes.grid(True, axis="y", lw=0.3, alpha=0.6)
            kinds = {robot.links[k].is_revolute for k in joints}
            quantity = ("torque (N m)" if kinds == {True} else "force (N)" if kinds == {False}
                        else "torque (N m) or force (N)")
            if g == 0:
                axes.set_xlabel("joint" if not wrist else "arm joints", fontsize=9)
                axes.set_ylabel(quantity, fontsize=9)
            else:                                      # the wrist: shaded, scale on the right
                axes.set_facecolor("#f4efe1")
                axes.yaxis.tick_right()
                axes.yaxis.set_label_position("right")
                axes.set_xlabel("wrist joints", fontsize=9)
                axes.set_ylabel(f"wrist {quantity}: own scale", fontsize=9)
            self.bar_groups.append((axes, joints))
        self.bar_axes = self.bar_groups[0][0]
        self.wrist_axes = self.bar_groups[1][0] if wrist else None

    def _make_legends(self) -> None:
        """What every mark of the figure is, on the figure: the arm's (joints, centres of
        mass, frame axes, gravity) above the drawing, the bars' parts above the bars, in the
        notation of the engine's source."""
        from matplotlib.legend_handler import HandlerTuple
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch

        from dynlab.model.drawing import AXIS_COLOURS, COM_COLOUR  # matplotlib: loaded when drawn
        frames = tuple(Line2D([], [], color=c, lw=1.5) for c in AXIS_COLOURS)
        arm = [(Line2D([], [], ls="none", marker="o", color="black", mfc="white", ms=7,
                       mew=1.5), "joint (origin of its frame)"),
               (Line2D([], [], ls="none", marker="o", color=COM_COLOUR, ms=6),
                "centre of mass of a link"),
               (frames, "frame axes x, y, z"),
               (Line2D([], [], color="tab:purple", lw=2, marker=">", ms=5,
                       markevery=[1]), "gravity g")]
        self.arm_legend = self.figure.legend(
            [h for h, _ in arm], [t for _, t in arm], loc="upper left",
            bbox_to_anchor=(0.005, 0.995), ncol=2, fontsize=8, frameon=False,
            handler_map={tuple: HandlerTuple(ndivide=None)}, title="the arm (lengths in m)",
            title_fontsize=8, alignment="left")
        labels = part_labels(self.formulation)
        handles = [Patch(**_bar_style(p)) for p in self.parts_shown]
        self.bar_legend = self.figure.legend(
            handles, [labels[p] for p in self.parts_shown], loc="upper left",
            bbox_to_anchor=(0.5, 0.995), ncol=3, fontsize=8, frameon=False,
            title="bars: each joint's torque and its parts (sum = total)", title_fontsize=8,
            alignment="left", columnspacing=1.2, handlelength=1.6)

    def legend_texts(self) -> list:
        """Every text of the figure's legends (titles first), as drawn."""
        return [text.get_text() for legend in (self.arm_legend, self.bar_legend)
                for text in (legend.get_title(), *legend.get_texts())]
    @property
    def blit(self) -> bool:
        """Redraw by blitting (``True``, the default) or by a full ``canvas.draw()``."""
        return self._blit

    @blit.setter
    def blit(self, value: bool) -> None:
        self._blit = bool(value)
        for artist in self._dynamic:
            artist.set_animated(self._blit)   # a full draw leaves animated artists out
        self._background = None

    def draw(self) -> None:
        """Render the figure with Agg: all of it (``blit=False``, or when the background is
        stale: first time, new bar scale, new 3-D view), else the background kept from the
        last full render plus the moving artists."""
        canvas = self.figure.canvas
        if hasattr(canvas, "hold_sync"):               # ipympl: the page gets the completed URL
            with canvas.hold_sync():
                self._draw(canvas)
        else:
            self._draw(canvas)

    def _draw(self, canvas) -> None:
        if not self.blit:
            canvas.draw()
            self._complete_data_url()
            return
        if self._background is None:
            canvas.draw()                              # animated artists are left out ...
            # ... and drawn here (on the ipympl canvas _on_full_draw does it; before the
            # figure is on it, the first picture, the one a notebook stores, is drawn here)
            if not self.interactive or self.figure_widget is self.image:
                self._draw_on_background()
            self._complete_data_url()
        else:
            canvas.restore_region(self._background)
            for artist in self._dynamic:
                if artist.get_visible():
                    artist.axes.draw_artist(artist)
            canvas.blit(self.figure.bbox)              # ipympl: send the changed pixels
        self._complete_data_url()

    def _complete_data_url(self) -> None:
        """Until the page shows the ipympl canvas, the canvas keeps its picture as a URL for
        the page's first paint, but ipympl stores it without its ``data:image/png;base64,``
        head (the page then fails to draw it and the canvas stays 0 x 0): add the head."""
        canvas = self.figure.canvas
        url = getattr(canvas, "_data_url", None)
        if self.interactive and getattr(canvas, "syncing_data_url", False) and url \
                and not url.startswith("data:"):
            canvas._data_url = "data:image/png;base64," + url

    def _draw_on_background(self) -> None:
        """Keep the just rendered figure as the background, then draw the moving artists."""
        self._background = self.figure.canvas.copy_from_bbox(self.figure.bbox)
        for artist in self._dynamic:                   # ... and drawn on top
            if artist.get_visible():
                artist.axes.draw_artist(artist)

    def _png(self) -> bytes:
        return agg_png(self.figure.canvas)

    # -- a 3-D view that turns with the mouse (ipympl) ---------------------------------------------
    def _use_interactive(self, interactive, three: bool) -> bool:
        """Whether the figure is shown by an ipympl canvas: by default for a 3-D arm when
        ipympl is installed and the figure is rendered."""
        if interactive is None:
            if not (three and self.render):
                return False
            try:
                import ipympl.backend_nbagg
            except ImportError:
                return False
            return True
        if not isinstance(interactive, bool):
            raise TypeError(f"interactive must be True, False or None (choose), got "
                            f"{interactive!r}")
        if interactive:
            if not three:
                raise ValueError(f"{self.robot.name}: is drawn in 2-D; only a 3-D drawing "
                                 f"turns with the mouse (interactive=True)")
            if not self.render:
                raise ValueError("interactive=True needs render=True: the canvas shows the "
                                 "rendered figure")
            try:
                import ipympl.backend_nbagg  # noqa: F401
            except ImportError as error:
                raise ImportError("interactive=True needs the package ipympl (Matplotlib's "
                                  "widget backend): pip install ipympl") from error
        return interactive

    def _show_interactive_canvas(self) -> None:
        """Put the figure on an ipympl canvas (an ipywidget) in place of the picture: the
        browser sends mouse events to Matplotlib, whose 3-D axes turn (left button) and zoom
        (right button) the view."""
        import base64

        from ipympl.backend_nbagg import Canvas, FigureManager
        from traitlets import default
        # The page's canvas starts from the picture in the widget's first state, as when
        # ipympl displays a figure itself (a picture sent later would not be drawn; the page
        # then logs "drawImage ... broken" and the canvas stays 0 x 0 pixels).
        self._first_png = self._png()
        first = "data:image/png;base64," + base64.b64encode(self._first_png).decode("ascii")
        width, height = self.figure.bbox.size

        class ArmCanvas(Canvas):
            @default("_data_url")
            def _first_picture(self):
                return first

            @default("_size")
            def _first_size(self):
                return (float(width), float(height))

        canvas = ArmCanvas(self.figure)               # the figure's canvas from now on
        with warnings.catch_warnings():
            # ipympl's toolbar passes the canvas on to traitlets, which warns about it
            warnings.filterwarnings("ignore", "Passing unrecognized arguments",
                                    DeprecationWarning)
            FigureManager(canvas, 1)                  # sends the rendered pixels to the page
        canvas.header_visible = False
        canvas.footer_visible = False
        canvas.resizable = False                      # a fixed size keeps the blit background
        canvas.toolbar_position = "right"
        canvas.add_class("dynlab-figure")
        canvas.mpl_connect("draw_event", self._on_full_draw)
        self._background = None                       # a new canvas: render it anew
        self.figure_widget = canvas
        self.widget.children = tuple(canvas if child is self.image else child
                                     for child in self.widget.children)
        self._show_view_angle()

    def _on_full_draw(self, event) -> None:
        """After every full render (also one the mouse asks for): keep the background and
        draw the moving artists on it; show the view's angles."""
        if self.blit and event.renderer is getattr(self.figure.canvas, "renderer", None):
            self._draw_on_background()
        self._show_view_angle()

    def _show_view_angle(self) -> None:
        if self.view_angle is None:
            return
        azim, elev = self.view()
        self.view_angle.value = (f'<span data-azim="{azim!r}" data-elev="{elev!r}">'
                                 f"view: azimuth {azim:.1f}&deg;, elevation {elev:.1f}&deg; "
                                 f"(drag to turn, right-drag to zoom)</span>")

    def view(self) -> tuple:
        """``(azimuth, elevation)`` of a 3-D drawing's view, in degrees (``None`` in 2-D)."""
        ax = self.drawing.ax
        if self.drawing.view != "3d":
            return None
        return float(ax.azim), float(ax.elev)

    def _set_limit(self, axes, limit: float) -> None:
        """Bar axis ``axes`` from ``-limit`` to ``limit`` (its ticks change: the background
        is rendered anew)."""
        if self._limits[axes] != limit:
            self._limits[axes] = limit
            axes.set_ylim(-limit, limit)
            self._background = None

    # -- what is shown, for tests ------------------------------------------------------------------
    def bar_heights(self) -> dict:
        """Part -> the drawn bar heights (one per joint), read back from the patches."""
        return {part: np.array([patch.get_height() for patch in patches])
                for part, patches in self.bars.items()}


def nice_limit(x: float) -> float:
    """The smallest of 1, 2, 2.5, 5 times a power of ten that is at least ``x`` (>= 1e-3)."""
    x = max(float(x), 1e-3)
    power = 10.0 ** math.floor(math.log10(x))
    return next((f * power for f in (1.0, 2.0, 2.5, 5.0) if f * power >= x * (1 - 1e-12)),
                10.0 * power)
