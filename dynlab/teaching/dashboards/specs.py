"""What an arm's dashboard shows (:class:`DashboardSpec`), by arm name and option value
(:func:`register_dashboard`); an arm without one gets ``DashboardSpec()``.

>>> dashboard_spec("planar_2r", "fu").lengths[0].name, dashboard_spec("planar_2r").payload
('l', 2.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from dynlab.model.robot import Robot
from dynlab.model.robots.puma import PUMA560_POSES
from dynlab.model.robots.registry import ARM_SPECS
from dynlab.model.robots.two_link import PLANAR_2R_PARAMETERS

#: ``(q, qd, qdd)``: a dashboard's starting joint positions, velocities and accelerations
State = tuple[Sequence[float], Sequence[float], Sequence[float]]


@dataclass(frozen=True)
class LengthSlider:
    """A slider for one length of an arm (half to twice its value): sets DH ``parameter`` (``"a"``,
    ``"d"``, or ``None``: the body alone) of ``links`` and stretches ``body``
    (:func:`dynlab.model.edits.with_length`)."""

    name: str                              # the slider's description, e.g. "a2", "l3"
    help: str                              # its tooltip
    links: tuple[int, ...]                 # 1-based links whose parameter it sets
    parameter: str | None = "a"            # "a", "d", or None (the body alone)
    body: tuple[int, str] | None = None    # (link, axis) of the body stretched with it

    def __post_init__(self):
        if not self.links or not all(isinstance(k, int) and not isinstance(k, bool) and k >= 1
                                     for k in self.links):
            raise ValueError(f"length slider {self.name!r}: links must be link numbers "
                             f"1, 2, ..., got {self.links!r}")
        if self.parameter not in ("a", "d", None):
            raise ValueError(f"length slider {self.name!r}: parameter must be 'a', 'd' or "
                             f"None, got {self.parameter!r}")
        if self.parameter != "a" and self.body is None:
            raise ValueError(f"length slider {self.name!r}: say which body spans "
                             f"{self.parameter or 'it'}: body=(link, axis)")


@dataclass(frozen=True)
class DashboardSpec:
    """What :func:`dynlab.teaching.dashboards.arm.dashboard` shows for an arm: ``state`` (start, or
    a function of the arm), ``link_lengths`` (sliders for ``a_i`` over 5 % of the reach),
    ``lengths`` (further :class:`LengthSlider` s), ``payload`` (maximum, kg), ``payload_options``,
    ``payload_value``, ``payload_note`` (a builder's tool mass), ``viscous`` (maximum),
    ``joint_ranges``, ``wrist`` (joints whose bars get their own axis) and ``labels``.

    >>> DashboardSpec(payload=2.0).viscous
    2.0
    """

    state: State | Callable[[Robot], State] | None = None
    link_lengths: bool = True
    lengths: tuple[LengthSlider, ...] = ()
    payload: float | None = None
    payload_options: tuple[str, ...] = ()
    payload_value: float = 0.0
    payload_note: str = ""
    viscous: float = 2.0
    joint_ranges: Mapping[int, tuple[float, float]] | Callable[[Robot], Mapping] | None = None
    labels: str | None = None
    wrist: tuple[int, ...] | None = None

    def __post_init__(self):
        if self.wrist is not None and not all(
                isinstance(k, int) and not isinstance(k, bool) and k >= 1 for k in self.wrist):
            raise ValueError(f"wrist must be joint numbers 1, 2, ..., got {self.wrist!r}")
        if not all(isinstance(s, LengthSlider) for s in self.lengths):
            raise TypeError(f"lengths must be LengthSlider records, got {self.lengths!r}")
        if self.labels not in (None, "axes", "frames"):
            raise ValueError(f"labels must be 'axes', 'frames' or None, got {self.labels!r}")


_SPECS: dict[tuple[str, Any], DashboardSpec] = {}

#: Every dashboard spec by ``(arm name, option value)``; ``None`` for every value of the option
#: that has no spec of its own (a read-only view)
DASHBOARD_SPECS: Mapping[tuple[str, Any], DashboardSpec] = MappingProxyType(_SPECS)


def register_dashboard(arm: str, spec: DashboardSpec, *, option: Any = None) -> None:
    """Show the registered arm ``arm`` with ``spec``; with ``option``, only when it is built
    with that value of its builder's option (replacing an earlier spec for the same arm and
    option).

    >>> register_dashboard("pendulum", {"payload": 1.0})
    Traceback (most recent call last):
    ...
    TypeError: arm 'pendulum': a dashboard must be a DashboardSpec, got dict
    >>> register_dashboard("pendulum", DashboardSpec(), option="long")
    Traceback (most recent call last):
    ...
    TypeError: arm 'pendulum' has no option; a dashboard for option='long' needs one
    """
    if arm not in ARM_SPECS:
        raise ValueError(f"no arm named {arm!r} is registered; the arms are "
                         f"{', '.join(ARM_SPECS)}")
    if not isinstance(spec, DashboardSpec):
        raise TypeError(f"arm {arm!r}: a dashboard must be a DashboardSpec, got "
                        f"{type(spec).__name__}")
    if option is not None and ARM_SPECS[arm].option is None:
        raise TypeError(f"arm {arm!r} has no option; a dashboard for option={option!r} needs "
                        f"one")
    _SPECS[arm, option] = spec


def unregister_dashboards(arm: str) -> None:
    """Forget every dashboard spec of ``arm`` (for tests and notebooks that add an arm)."""
    for key in [key for key in _SPECS if key[0] == arm]:
        del _SPECS[key]


def dashboard_spec(arm: str, option: Any = None) -> DashboardSpec:
    """The spec of ``arm`` built with ``option``: its own, else the arm's, else the default."""
    return _SPECS.get((arm, option)) or _SPECS.get((arm, None)) or DashboardSpec()


# -- the arms of the workbook ---------------------------------------------------------------------
_PI = math.pi

# the source's home position q1 = pi/3
register_dashboard("pendulum", DashboardSpec(state=((_PI / 3,), (1.0,), (2.0,)), payload=2.0))

_TWO_LINK = DashboardSpec(state=((_PI / 3, -_PI / 3), (1.0, 0.5), (1.0, -1.0)), payload=2.0)
register_dashboard("planar_2r", _TWO_LINK)
# Fu, Gonzalez & Lee's arm has one length l = a1 = a2
register_dashboard("planar_2r", DashboardSpec(
    state=_TWO_LINK.state, payload=2.0, link_lengths=False,
    lengths=(LengthSlider("l", "length l of both links (Fu, Gonzalez & Lee, Fig. 3.2), m",
                          links=(1, 2)),)), option="fu")
# the thesis's payload Mp is the dashboard's payload slider
register_dashboard("planar_2r", DashboardSpec(
    state=_TWO_LINK.state, payload=2.0, payload_options=("payload", "Mp"),
    payload_value=PLANAR_2R_PARAMETERS["macsyma"]["Mp"],
    payload_note=" (the thesis's Mp, App. B)"), option="macsyma")


def _rod_length(arm) -> float:
    """The SCARA's ``l3``: its rod's centre of mass is at ``-l3/2`` on ``z3`` (Eq. (6-6-15))."""
    return 2 * abs(float(arm.links[2].com[2]))


register_dashboard("scara", DashboardSpec(
    # home (0, 0, l3/2) of the source, turned a little so that the arm shows its links
    state=lambda arm: ((_PI / 6, _PI / 3, _rod_length(arm) / 2), (1.0, 0.5, 0.1),
                       (1.0, -1.0, 0.5)),
    joint_ranges=lambda arm: {3: (0.0, 1.5 * _rod_length(arm))},
    lengths=(LengthSlider("l3", "length l3 of the sliding rod (Schilling Eq. (6-6-15)), m",
                          links=(3,), parameter=None, body=(3, "z")),),
    payload=5.0))


def _puma_state(arm):
    """The nominal pose ``qn`` of the literature, moving."""
    n = arm.n
    return tuple(float(v) for v in PUMA560_POSES["qn"][:n]), (0.5,) * n, (1.0,) * n


register_dashboard("puma560", DashboardSpec(
    state=_puma_state, link_lengths=False, labels="frames", viscous=5.0,
    lengths=(LengthSlider("a2", "upper-arm length a2 (m); link 2 is stretched with it",
                          links=(2,)),
             LengthSlider("d4", "forearm length d4 (m), along z3 in link 3, which is "
                          "stretched with it", links=(4,), parameter="d", body=(3, "z"))),
    payload=2.5))                         # the PUMA 560's rated payload is 2.5 kg

register_dashboard("ur20", DashboardSpec(
    state=((0.0, -1.2, 1.5, -0.3, 0.8, 0.0), (0.5,) * 6, (1.0,) * 6), link_lengths=False,
    labels="frames", payload=20.0))            # the UR20's rated payload is 20 kg
