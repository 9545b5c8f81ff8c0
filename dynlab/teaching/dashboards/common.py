"""What the dashboards' pages share: a titled column of sliders, a figure's PNG, what a notebook
stores (the widget with a picture and a line of text as fallbacks), the checks of what a
dashboard is given, and :class:`NamedControls`.

>>> import ipywidgets
>>> class Board:
...     widget = ipywidgets.HTML("a dashboard")
...     def __repr__(self):
...         return "Board()"
>>> bundle = widget_bundle(Board(), b"png")
>>> bundle["text/plain"], bundle["image/png"], "application/vnd.jupyter.widget-view+json" in bundle
('Board()', 'cG5n', True)
"""

from __future__ import annotations

import base64
import html
import io

import numpy as np

from dynlab.model import checks
from dynlab.model.robot import Robot, joint_vector, joint_vector_is_numeric


def slider_column(title: str, children):
    """A column of widgets under a bold title (the title is text, escaped)."""
    import ipywidgets as widgets
    return widgets.VBox([widgets.HTML(f"<b>{html.escape(title)}</b>"), *children])


def figure_readout_status(max_width: str, readout_class: str = "dynlab-torques") -> tuple:
    """The widgets under a dashboard's controls, ``(image, readout, status)``: its figure (a PNG
    ``Image`` up to ``max_width`` wide), the readout of its numbers and its status line, with the
    CSS classes a page is read by (``dynlab-figure``, ``readout_class``, ``dynlab-status``)."""
    import ipywidgets as widgets
    image = widgets.Image(format="png", layout=widgets.Layout(width="100%", max_width=max_width))
    image.add_class("dynlab-figure")
    readout = widgets.HTML()
    readout.add_class(readout_class)
    status = widgets.HTML()
    status.add_class("dynlab-status")
    return image, readout, status


def agg_png(canvas) -> bytes:
    """The picture an Agg ``canvas`` has rendered, as PNG bytes (RGB; quick compression: a
    slider's frame waits for it)."""
    from PIL import Image as PILImage
    buffer = io.BytesIO()
    image = PILImage.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba(),
                                "raw", "RGBA", 0, 1).convert("RGB")
    image.save(buffer, format="png", compress_level=1)
    return buffer.getvalue()


class Blitter:
    """A figure drawn again for a slider's move: while the axes' ``limits`` stay, only the
    ``moving`` artists (animated: left out of the background) over the kept background; when
    they change, the whole figure, whose background is kept anew."""

    def __init__(self, figure, moving):
        self.figure, self.moving = figure, list(moving)
        for artist in self.moving:
            artist.set_animated(True)
        self._limits = self._background = None

    def png(self, limits) -> bytes:
        """The figure's PNG (:func:`agg_png`) with ``limits``, the axes' limits now."""
        canvas = self.figure.canvas
        if limits != self._limits:
            canvas.draw()
            self._background, self._limits = canvas.copy_from_bbox(self.figure.bbox), limits
        else:
            canvas.restore_region(self._background)
        for artist in self.moving:
            artist.axes.draw_artist(artist) if artist.axes else self.figure.draw_artist(artist)
        return agg_png(canvas)


def widget_bundle(board, picture: bytes | None = None, **kwargs) -> dict:
    """The display of dashboard ``board``: its ``widget``'s bundle, ``repr(board)`` as the
    text and, when given, ``picture`` (PNG bytes) as the image a notebook stored without widget
    state shows."""
    bundle = board.widget._repr_mimebundle_(**kwargs)
    bundle["text/plain"] = repr(board)
    if picture is not None:
        bundle["image/png"] = base64.b64encode(picture).decode("ascii")
    return bundle


def joint_values(robot: Robot, values, name: str) -> list:
    """``values`` (``q``, ``qd`` or ``qdd`` of a dashboard) as ``n`` finite floats, or an error
    naming ``name``: text, truth values, inf and NaN are no joint values.

    >>> from dynlab.model.robots import planar_2r
    >>> joint_values(planar_2r("fu"), np.array([[0.5], [1.0]]), "q")
    [0.5, 1.0]
    >>> joint_values(planar_2r("fu"), [float("nan"), 0.0], "q")
    Traceback (most recent call last):
    ...
    ValueError: two-link arm (Fu, Gonzalez & Lee, Fig. 3.2): q[0] must be finite, got nan
    """
    if isinstance(values, np.ndarray) and values.ndim > 1:
        values = values.ravel()                        # a column vector
    entries = joint_vector(robot, values, name)
    if not joint_vector_is_numeric(entries):
        raise TypeError(f"{robot.name}: {name} must be numbers, got {list(entries)}")
    return [float(v) for v in entries]


def slider_value(where: str, name: str, value, low: float, high: float) -> float:
    """``value`` as a float for the slider ``name`` (``low`` to ``high``) of ``where``, or an error
    naming both (the slider would clamp, read ``True`` as 1, or raise a traitlets error).

    >>> slider_value("Board", "q1", True, -180.0, 180.0)
    Traceback (most recent call last):
    ...
    TypeError: Board: q1 must be a number from -180 to 180, got bool True
    >>> slider_value("Board", "qd1", float("inf"), -3.0, 3.0)
    Traceback (most recent call last):
    ...
    ValueError: Board: qd1 must be from -3 to 3 (the slider's range), got inf
    """
    if not checks.real_number(value):
        raise TypeError(f"{where}: {name} must be a number from {low:g} to {high:g}, got "
                        f"{type(value).__name__} {value!r}")
    if not low <= value <= high:                      # (NaN is in no range)
        raise ValueError(f"{where}: {name} must be from {low:g} to {high:g} (the slider's "
                         f"range), got {value!r}")
    return float(value)


class NamedControls:
    """Named controls (sliders of :attr:`RANGES`, drop-downs of :attr:`CHOICES`) set together: each
    value checked first, one update, and everything rolled back on a refusal or a failed update.
    A dashboard sets :attr:`controls`, :attr:`image`, :attr:`render`, makes its result in
    ``_update()``, calls ``_watch()`` once, and may give ``_report(error)``.

    >>> import ipywidgets
    >>> class Board(NamedControls):
    ...     RANGES = {"mass": (0.0, 2.0)}
    ...     def __init__(self):
    ...         self.controls = {"mass": ipywidgets.FloatSlider(min=0.0, max=2.0)}
    ...         self._update()
    ...     def _update(self):
    ...         if self.controls["mass"].value == 2.0:
    ...             raise ArithmeticError("too heavy")
    ...         self.shown = self.controls["mass"].value
    >>> board = Board().set(mass=1.5)
    >>> board.set(mass=3.0)
    Traceback (most recent call last):
    ...
    ValueError: Board: mass must be from 0 to 2 (the slider's range), got 3.0
    >>> board.set(mass=2.0)
    Traceback (most recent call last):
    ...
    ArithmeticError: too heavy
    >>> board.values()                                        # rolled back
    {'mass': 1.5}
    """

    #: name -> ``(low, high, ...)``: the range of a slider, as a reader sets it
    RANGES: dict = {}
    #: name -> the options of a drop-down
    CHOICES: dict = {}
    _quiet = False

    def values(self) -> dict:
        """Name -> the value of each control."""
        return {name: control.value for name, control in self.controls.items()}

    def _checked(self, name: str, value):
        """``value`` for the control ``name`` if it is one the control can show, else an error
        naming the dashboard, the control and what it takes."""
        where = type(self).__name__
        if name in self.CHOICES:
            return checks.choice(value, self.CHOICES[name], where, name)
        if name not in self.RANGES:
            raise ValueError(f"{where}: no control {name!r}; the controls are "
                             f"{', '.join([*self.CHOICES, *self.RANGES])}")
        return slider_value(where, name, value, *self.RANGES[name][:2])

    def set(self, **values):
        """Change controls by name, as a reader would.  Every value is checked before any
        control moves, and the result is made once: a refused value, or an update that fails,
        leaves the dashboard as it was."""
        checked = {name: self._checked(name, value) for name, value in values.items()}
        before = self.values()
        self._quiet = True                            # one update for all the values, below
        try:
            for name, value in checked.items():
                self.controls[name].value = value
            self._update()
        except BaseException:
            for name, value in before.items():
                self.controls[name].value = value
            raise
        finally:
            self._quiet = False
        return self

    def _watch(self) -> None:
        """Update on every move a reader makes of a control."""
        for control in self.controls.values():
            control.observe(self._changed, names="value")

    def _changed(self, change) -> None:
        """A reader moved a control (not :meth:`set`, which updates once at the end)."""
        if not self._quiet:
            try:
                self._update()
            except Exception as error:                # noqa: BLE001 - given to _report
                self._report(error)

    def _report(self, error: Exception) -> None:
        """Show what a reader's move could not do; by default the error is raised."""
        raise error

    def _repr_mimebundle_(self, **kwargs):
        """The live widget, with the figure as a PNG and a one-line text as fallbacks."""
        return widget_bundle(self, bytes(self.image.value) if self.render else None, **kwargs)
