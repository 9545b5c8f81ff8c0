"""A dashboard's slider: clean ends, a grid that holds its value, angles in degrees.

A browser's slider takes only the values ``min + k * step`` and sends back the one it moved a
value to, so :func:`slider` widens the range to hold the value and refines the step until the
value lies on the grid; :func:`degrees` and :func:`on_grid` put an angle there.

>>> round_significant(0.8636, 2, "up"), degrees(math.pi / 3)
(0.87, 60.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def round_significant(x: float, digits: int = 3, direction: str = "nearest") -> float:
    """``x`` rounded to ``digits`` significant digits (``direction``: ``"nearest"``, ``"down"``
    or ``"up"``): the clean ends of a slider.

    >>> round_significant(0.03999999999999915), round_significant(0.8636, 2, "up")
    (0.04, 0.87)
    >>> round_significant(0.2159, 2, "down"), round_significant(-0.2159, 2, "down")
    (0.21, -0.22)
    """
    x = float(x)
    if x == 0 or not math.isfinite(x):
        return x
    power = math.floor(math.log10(abs(x))) - digits + 1
    scaled = x / 10.0 ** power
    near = round(scaled)
    if abs(scaled - near) < 1e-9 * max(1.0, abs(scaled)):
        scaled = near                        # already clean: no step up or down
    else:
        scaled = {"nearest": round, "down": math.floor, "up": math.ceil}[direction](scaled)
    return float(f"{scaled * 10.0 ** power:.{digits}g}")


def _grid_step(value: float, low: float, step: float) -> float:
    """The largest of ``step``, then 1, 2 and 5 times the powers of ten below it, on whose grid
    ``low + k * step`` the value lies (a browser's slider takes only those values)."""
    candidates = [step]
    power = 10.0 ** math.floor(math.log10(step))
    for _ in range(8):
        candidates += [c * power for c in (5.0, 2.0, 1.0) if c * power < step * (1 - 1e-12)]
        power /= 10.0
    for candidate in candidates:
        k = (value - low) / candidate
        if abs(k - round(k)) < 1e-6:
            return float(f"{candidate:.1g}") if candidate != step else step
    return 0.0


def slider(description: str, value: float, low: float, high: float, step: float,
           classes: Sequence[str] = (), tooltip: str = "", *, width: str = "250px",
           description_width: str = "60px"):
    """A dashboard's ``FloatSlider`` (CSS classes ``dynlab-slider`` plus ``classes``): ends rounded
    to 3 significant digits, the range widened to hold ``value`` and the step refined until
    ``value`` lies on the grid ``min + k * step`` (the page snaps values to it).

    >>> w = slider("m2", 1.5, 0.1, 1.0, 0.1, ("dynlab-parameter",), "mass of link 2")
    >>> (w.value, w.min, w.max, w._dom_classes)
    (1.5, 0.1, 1.5, ('dynlab-slider', 'dynlab-parameter'))
    >>> w = slider("m3", 4.8, 0.0, 14.0, 0.07)             # 4.8 is on no 0.07 grid from 0
    >>> w.min, w.step, w.readout_format
    (0.0, 0.05, '.2f')
    """
    import ipywidgets as widgets

    value = float(value)
    low, high = round_significant(low), round_significant(high)
    if not low <= value <= high:
        low = round_significant(min(low, value), 3, "down")
        high = round_significant(max(high, value), 3, "up")
    fine = _grid_step(value, low, step)
    if fine:
        step = fine
    else:        # no decimal grid holds it: start the grid at a point of it below ``value``
        low = value - math.floor((value - low) / step + 1e-9) * step
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    widget = widgets.FloatSlider(value=value, min=low, max=high, step=step,
                                 description=description, continuous_update=True,
                                 readout_format=f".{decimals}f",
                                 layout=widgets.Layout(width=width),
                                 style={"description_width": description_width},
                                 tooltip=tooltip)
    for css in ("dynlab-slider", *classes):
        widget.add_class(css)
    return widget


def degrees(radians: float) -> float:
    """An angle in degrees as a degree slider holds it: to 0.1 degree, which a slider's grid
    holds exactly (``pi/3`` gives ``60.0``, not ``59.99999999999999``).

    >>> degrees(math.pi / 3), degrees(-math.pi), degrees(1.0)
    (60.0, -180.0, 57.3)
    """
    return round(math.degrees(float(radians)), 1) + 0.0


def on_grid(widget, value: float) -> float:
    """``value`` moved to the nearest point ``min + k * step`` of ``widget``'s grid (the page
    would move it there and send it back), with the step's decimals."""
    k = round((value - widget.min) / widget.step)
    decimals = max(0, -math.floor(math.log10(widget.step) + 1e-9))
    return round(widget.min + k * widget.step, decimals) + 0.0
