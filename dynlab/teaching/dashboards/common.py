"""What the dashboards' pages share: a titled column of sliders, the PNG of a figure rendered
with Agg, and what a notebook stores of a dashboard (the live widget, with a picture of its
figure and a line of text as fallbacks for a notebook stored without widget state).

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


def slider_column(title: str, children):
    """A column of widgets under a bold title (the title is text, escaped)."""
    import ipywidgets as widgets
    return widgets.VBox([widgets.HTML(f"<b>{html.escape(title)}</b>"), *children])


def agg_png(canvas) -> bytes:
    """The picture an Agg ``canvas`` has rendered, as PNG bytes (RGB; quick compression: a
    slider's frame waits for it)."""
    from PIL import Image as PILImage
    buffer = io.BytesIO()
    image = PILImage.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba(),
                                "raw", "RGBA", 0, 1).convert("RGB")
    image.save(buffer, format="png", compress_level=1)
    return buffer.getvalue()


def widget_bundle(board, picture: bytes | None = None, **kwargs) -> dict:
    """The display of dashboard ``board``: its ``widget``'s bundle, ``repr(board)`` as the
    text and, when given, ``picture`` (PNG bytes) as the image a notebook stored without widget
    state shows."""
    bundle = board.widget._repr_mimebundle_(**kwargs)
    bundle["text/plain"] = repr(board)
    if picture is not None:
        bundle["image/png"] = base64.b64encode(picture).decode("ascii")
    return bundle
