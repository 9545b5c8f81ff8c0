"""A dashboard's parameter sliders (:class:`Parameter`: an edit of :mod:`dynlab.model.edits`).

>>> from dynlab.model.robots import pendulum
>>> [p.name for p in default_parameters(pendulum())]
['m1', 'a1', 'payload', 'viscous']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dynlab.model.edits import (
    body_extent,
    numeric_link,
    with_length,
    with_mass,
    with_payload,
    with_viscous,
)
from dynlab.model.robot import Robot
from dynlab.model.robots.registry import ARM_SPECS
from dynlab.teaching.dashboards.sliders import round_significant
from dynlab.teaching.dashboards.specs import DashboardSpec, LengthSlider, dashboard_spec


# -- what a dashboard shows -----------------------------------------------------------------------
@dataclass
class Parameter:
    """One parameter slider: ``apply(robot, value)`` returns the changed robot (applied in
    order to the arm the dashboard started from)."""

    name: str                 # the slider's description, e.g. "m2"
    help: str                 # its tooltip
    value: float
    minimum: float
    maximum: float
    step: float
    apply: Callable[[Robot, float], Robot]
    unit: str = ""


def _mass_parameters(robot: Robot, skip=()) -> list:
    found = []
    for k, link in enumerate(robot.links, start=1):
        if link.mass > 0 and k not in skip:
            m = float(link.mass)
            found.append(Parameter(f"m{k}", f"mass of link {k} (kg); its inertia scales with it",
                                   m, 0.0, round_significant(3 * m, 2, "up"), _step(3 * m),
                                   lambda r, v, k=k: with_mass(r, k, v), "kg"))
    return found


def _length_parameters(robot: Robot, reach: float) -> list:
    found = []
    for k, link in enumerate(robot.links, start=1):
        if isinstance(link.a, float) and link.a > 0.05 * reach:
            a = float(link.a)
            found.append(Parameter(f"a{k}", f"length a{k} of link {k} (m); the link's body is "
                                   f"stretched with it", a, *_length_range(a),
                                   lambda r, v, k=k: with_length(r, k, v), "m"))
    return found


def _payload_parameter(maximum: float, value: float = 0.0, index: int | None = None,
                       note: str = "") -> Parameter:
    return Parameter("payload", "point mass at the tool (origin of the last frame), kg" + note,
                     value, 0.0, maximum, _step(maximum),
                     lambda r, v: with_payload(r, v, index), "kg")


def _viscous_parameter(robot: Robot, maximum: float) -> list:
    values = {float(link.viscous) for link in robot.links}
    if len(values) != 1:
        return []                       # per-joint coefficients: keep them, no common slider
    return [Parameter("viscous", "viscous friction b_v of every joint (Schilling, Eq. (6-3-3)), "
                      "N m s/rad or N s/m", values.pop(), 0.0, maximum, _step(maximum),
                      with_viscous)]


def _nice(x: float) -> float:
    """``x`` rounded to 2 significant digits (slider ends)."""
    if x == 0:
        return 0.0
    return float(f"{x:.2g}")


def _step(span: float) -> float:
    return float(f"{span / 200:.1g}") or 1e-3


def _length_range(length: float) -> tuple:
    """``(minimum, maximum, step)`` of a length slider: from half to twice the arm's length
    (the chapters' "double a1"), the ends rounded outwards to 2 significant digits.

    >>> _length_range(0.4318)
    (0.21, 0.87, 0.004)
    """
    low = round_significant(0.5 * length, 2, "down")
    high = round_significant(2.0 * length, 2, "up")
    return low, high, _step(high)


# -- the registered arms ----------------------------------------------------------------------
def _length_parameter(robot: Robot, length: LengthSlider) -> Parameter:
    """The parameter slider of a :class:`dynlab.teaching.dashboards.specs.LengthSlider` on
    ``robot``."""
    first = numeric_link(robot, length.links[0])
    if length.parameter is None:
        value = body_extent(numeric_link(robot, length.body[0]), length.body[1])
    else:
        value = float(getattr(first, length.parameter))

    def apply(r, v):
        for index in length.links:
            r = with_length(r, index, v, length.parameter, length.body)
        return r
    return Parameter(length.name, length.help, value, *_length_range(value), apply, "m")


def _has_links(robot: Robot, length: LengthSlider) -> bool:
    """Whether ``robot`` has every link ``length`` names (the PUMA 560's first three joints
    have no ``d4``)."""
    body = (length.body[0],) if length.body else ()
    return max(length.links + body) <= robot.n


def _parameters(robot: Robot, board: DashboardSpec, payload: float = 0.0) -> list:
    """The parameter sliders ``board`` asks for: every link's mass, the lengths, a payload at
    the tool and one viscous friction coefficient."""
    from dynlab.model.drawing import reach_of  # matplotlib: loaded when drawn
    parameters = _mass_parameters(robot)
    if board.link_lengths:
        parameters += _length_parameters(robot, reach_of(robot))
    parameters += [_length_parameter(robot, length) for length in board.lengths
                   if _has_links(robot, length)]
    total = sum(float(link.mass) for link in robot.links)
    maximum = board.payload if board.payload is not None else max(1.0, _nice(total / 4))
    parameters.append(_payload_parameter(maximum, payload, note=board.payload_note))
    return parameters + _viscous_parameter(robot, board.viscous)


def default_parameters(robot: Robot, payload: float | None = None) -> list:
    """The parameter sliders of an arm without a named set: every link's mass, every link
    length ``a_i`` longer than 5 % of the reach, a payload at the tool (up to ``payload``,
    default a quarter of the arm's mass, at least 1 kg) and one viscous friction coefficient."""
    return _parameters(robot, DashboardSpec(payload=payload))


def registered_arm(name: str, variant: str | None, builder_options: dict):
    """``(robot, parameters, q, qd, qdd, joint ranges, labels, wrist)`` of a registered arm,
    as its :func:`dynlab.teaching.dashboards.specs.dashboard_spec` says."""
    if name not in ARM_SPECS:
        raise ValueError(f"unknown arm {name!r}; choose one of {', '.join(ARM_SPECS)}, or "
                         f"pass a dynlab Robot")
    spec = ARM_SPECS[name]
    options = dict(builder_options)
    if variant is not None:
        options[spec.option] = variant
    board = dashboard_spec(name, options.get(spec.option, spec.option_default)
                           if spec.option else None)
    payload = 0.0
    if board.payload_options:                  # a payload option: built without, on a slider
        given = None
        for option in board.payload_options:
            given = options.pop(option, given)
        payload = board.payload_value if given is None else given
        options[board.payload_options[0]] = 0.0
    robot = spec.builder(**options)
    state = board.state(robot) if callable(board.state) else board.state
    ranges = board.joint_ranges(robot) if callable(board.joint_ranges) else board.joint_ranges
    ranges = {joint: (_nice(low), _nice(high)) for joint, (low, high) in (ranges or {}).items()}
    labels = board.labels or ("frames" if robot.n > 3 else "axes")
    return (robot, _parameters(robot, board, payload), *(state or (None, None, None)), ranges,
            labels, board.wrist)
