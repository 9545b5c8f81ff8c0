"""Slider dashboards, by the path the chapters import them from: every public name of this
module lives in :mod:`dynlab.teaching.dashboards` (a module per idea) or, for the edits of an
arm, in :mod:`dynlab.model.edits`, and is re-exported here.

>>> from dynlab.teaching.dashboards import arm
>>> from dynlab.model import edits
>>> dashboard is arm.dashboard and with_payload is edits.with_payload
True
"""

from __future__ import annotations

from dynlab.model.edits import stretch_link, with_length, with_mass, with_payload, with_viscous
from dynlab.teaching.dashboards.arm import Dashboard, dashboard
from dynlab.teaching.dashboards.labels import (FIGURE_LABELS, LYNCH_PARK_LABELS,
                                               LYNCH_PARK_TABLE_LABELS, PART_COLOURS,
                                               PART_LABELS, PARTS, TABLE_LABELS, format_value,
                                               part_labels, plain)
from dynlab.teaching.dashboards.parameters import Parameter, default_parameters
from dynlab.teaching.dashboards.sliders import degrees, round_significant, slider

__all__ = ["Dashboard", "FIGURE_LABELS", "LYNCH_PARK_LABELS", "LYNCH_PARK_TABLE_LABELS",
           "PARTS", "PART_COLOURS", "PART_LABELS", "TABLE_LABELS", "Parameter", "dashboard", "default_parameters", "degrees",
           "format_value", "part_labels", "plain", "round_significant", "slider",
           "stretch_link", "with_length", "with_mass", "with_payload", "with_viscous"]
