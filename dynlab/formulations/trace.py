"""The per-link records of a recursion that traces (``inverse_dynamics(..., trace=True)``), as
the table a chapter shows: Fu, Gonzalez & Lee, Table 3.3's forward and backward passes.

>>> from dynlab.model.robots import pendulum
>>> from dynlab.dynamics.inverse import inverse_dynamics
>>> tau, trace = inverse_dynamics(pendulum(), [0.0], [0.0], [1.0], trace=True)
>>> trace.rows(("omega_dot", "tau"))     # link frame: qdd about z1; tau = m a^2/3 qdd + m g a/2
[['1', '(0, 0, 1)', '2.53488']]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import sympy

from dynlab.formulations.newton_euler import TRACE_QUANTITIES


class Trace:
    """Every link's quantities of a Newton-Euler run: ``trace[i]`` (1-based) holds ``omega``,
    ``omega_dot``, ``v_dot``, ``a_bar``, ``F``, ``N``, ``f``, ``n``, ``tau``, in the frame of the
    variant (``frame``); ``title`` and ``variant_label`` head the table."""

    FORWARD = TRACE_QUANTITIES[:4]
    BACKWARD = TRACE_QUANTITIES[4:]

    def __init__(self, records, frame: str, symbolic: bool, title: str = "Newton-Euler",
                 variant_label: str | None = None):
        convert = ((lambda v: sympy.Matrix(v)) if symbolic
                   else (lambda v: np.array(v, dtype=float)))
        self.frame = frame
        self.title = title
        self.variant_label = f"{frame} frame" if variant_label is None else variant_label
        self.symbolic = symbolic
        self.links = [{key: (value if key == "tau" else convert(value))
                       for key, value in record.items()} for record in records]

    def __len__(self) -> int:
        return len(self.links)

    def __getitem__(self, i: int) -> dict:
        if not isinstance(i, int) or isinstance(i, bool) or not 1 <= i <= len(self.links):
            raise IndexError(f"link number must be 1..{len(self.links)}, got {i!r}")
        return self.links[i - 1]

    def rows(self, quantities: Sequence[str]) -> list:
        """One row per link: the link number, then each quantity as text."""
        def text(value):
            if self.symbolic:
                return str(list(value) if hasattr(value, "shape") else value)
            if np.ndim(value) == 0:
                return f"{float(value):.6g}"
            return "(" + ", ".join(f"{x:.6g}" for x in value) + ")"
        return [[str(i)] + [text(record[key]) for key in quantities]
                for i, record in enumerate(self.links, start=1)]

    def _repr_html_(self) -> str:
        import html
        parts = []
        for title, keys in (("forward pass", self.FORWARD), ("backward pass", self.BACKWARD)):
            head = "".join(f"<th>{html.escape(k)}</th>" for k in ("link",) + keys)
            body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                           for row in self.rows(keys))
            parts.append(f"<p><b>{title}</b> ({html.escape(self.variant_label)})</p><table>"
                         f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        return "".join(parts)

    def __repr__(self) -> str:
        lines = [f"{self.title} trace ({self.variant_label}, {len(self)} links)"]
        for title, keys in (("forward", self.FORWARD), ("backward", self.BACKWARD)):
            lines.append(f"{title}: " + ", ".join(keys))
            for row in self.rows(keys):
                lines.append("  " + " | ".join(row))
        return "\n".join(lines)
