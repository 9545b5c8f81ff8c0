"""Long outputs folded into one HTML ``<details>`` element (:func:`folded`).

>>> from IPython.display import Math
>>> print(folded("Two lines", "D(q) in book form:", Math(r"D_{11} = m_1 l^2")).data)
<details><summary>Two lines</summary>
<p>D(q) in book form:</p>
<div>$\\displaystyle D_{11} = m_1 l^2$</div>
</details>
>>> folded("nothing inside")
Traceback (most recent call last):
...
ValueError: folded('nothing inside'): give at least one item to fold away
"""

from __future__ import annotations

import html


def _as_html(item) -> str:
    """One item as an HTML fragment: its own HTML if it has one, else its LaTeX, else text."""
    if isinstance(item, str):
        return f"<p>{html.escape(item)}</p>"
    to_html = getattr(item, "_repr_html_", None)
    shown = to_html() if callable(to_html) else None
    if shown is not None:
        return shown
    to_latex = getattr(item, "_repr_latex_", None)
    shown = to_latex() if callable(to_latex) else None
    if shown is not None:
        if not shown.startswith("$"):
            shown = f"$${shown}$$"
        elif not shown.startswith("$$") and r"\displaystyle" not in shown:
            shown = "$\\displaystyle " + shown[1:]
        return f"<div>{html.escape(shown, quote=False)}</div>"
    return f"<pre>{html.escape(repr(item))}</pre>"


def folded(summary: str, *items):
    """``items`` folded under the one-line ``summary`` (an IPython ``HTML`` object)."""
    from IPython.display import HTML
    if not items:
        raise ValueError(f"folded({summary!r}): give at least one item to fold away")
    body = "\n".join(_as_html(item) for item in items)
    return HTML(f"<details><summary>{html.escape(summary)}</summary>\n{body}\n</details>")
