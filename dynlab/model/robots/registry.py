"""The one registry of arms: a name -> :class:`ArmSpec`, read by every part of dynlab that
offers arms by name.

An arm spec says how to build the arm (its builder, the builder's positional option), where it
comes from (the citation as a reader finds it in print), its named poses, and what its
dashboard shows (:class:`DashboardSpec`: start state, parameter sliders and their ranges).  The
consumers read only the registry: :data:`dynlab.model.robots.ROBOTS` (name -> builder, a view of
it), the command line (``dynlab list``, arm names, options, named poses, help texts),
:func:`dynlab.teaching.dashboards.arm.dashboard` and :data:`dynlab.teaching.textbook.ARMS`.  A new
arm is therefore one builder and one call of :func:`register_arm`:

>>> from dynlab.model.link import Link
>>> from dynlab.model.robot import Robot
>>> def rod_on_a_slide(symbolic=False, *, m2=1.0):
...     '''A slide along z0 (up) carrying a rod that turns about it.'''
...     links = [Link("P", theta=0, mass=2.0, com=(0, 0, 0), inertia=None, name="slide"),
...              Link("R", a=0.5, mass=m2, com=(-0.25, 0, 0), inertia=None, name="rod")]
...     return Robot(links, gravity=(0, 0, -9.8062), name="rod on a slide")
>>> spec = register_arm("rod_on_a_slide", rod_on_a_slide, source="a worked exercise")
>>> ROBOTS["rod_on_a_slide"]().joint_types
('prismatic', 'revolute')
>>> unregister_arm("rod_on_a_slide")
>>> "rod_on_a_slide" in ROBOTS
False
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Mapping, Sequence

from dynlab.model.robot import Robot

#: ``(q, qd, qdd)``: a dashboard's starting joint positions, velocities and accelerations
State = tuple[Sequence[float], Sequence[float], Sequence[float]]


@dataclass(frozen=True)
class LengthSlider:
    """A dashboard slider for one length of an arm, from half to twice the built arm's value
    (ends rounded outwards to 2 significant digits).  It sets the DH ``parameter`` (``"a"``
    or ``"d"``) of every link in ``links`` and stretches the body that spans it (:func:`dynlab.model.edits.with_length`):
    ``body=(link, axis)``, by default each link's own ``x`` for ``a``.  ``parameter=None``
    stretches the body alone (the SCARA's sliding rod, whose length ``l3`` is no DH
    parameter); its value is then the body's extent along ``axis`` from the frame's origin.

    >>> LengthSlider("l", "length l of both links, m", links=(1, 2)).links
    (1, 2)
    """

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
    """What :func:`dynlab.teaching.dashboards.arm.dashboard` shows for an arm.  The defaults are those of a
    dashboard made from a plain :class:`~dynlab.Robot`.

    ``state``
        ``(q, qd, qdd)`` to start from, or a function of the built arm returning it (the SCARA
        starts with its rod half out); ``None``: every slider at zero.
    ``link_lengths``
        a slider for every DH length ``a_i`` longer than 5 % of the arm's reach.
    ``lengths``
        further :class:`LengthSlider` s, after those; one whose link the built arm lacks (the
        first three joints of the PUMA 560 have no ``d4``) is left out.
    ``payload``
        the payload slider's maximum (kg); ``None``: a quarter of the arm's mass, at least 1.
    ``payload_options``, ``payload_value``, ``payload_note``
        builder options that put a point mass at the tool (the thesis's ``Mp``): the dashboard
        builds the arm without it and starts the payload slider at its value (the option's
        value if given, else ``payload_value``); the note is added to the slider's tooltip.
    ``viscous``
        the viscous-friction slider's maximum.
    ``joint_ranges``
        ``{joint: (low, high)}`` for joint sliders, or a function of the built arm returning it
        (default: ``±pi`` for a revolute joint, ``±reach`` for a prismatic one), in the
        joint's own unit (rad or m; a revolute joint's slider shows them in degrees); the ends
        are rounded to two significant digits.
    ``wrist``
        the joints whose bars get an axis of their own (a wrist's torques are small beside the
        arm's and would be invisible on its scale); ``None``: joints 4 to n of an arm with
        more than four joints, ``()``: one axis for all.
    ``labels``
        ``"axes"`` or ``"frames"`` on the drawing; ``None``: frames for more than three joints.

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


@dataclass(frozen=True, eq=False)
class ArmSpec:
    """One arm of the registry; made by :func:`register_arm` (see there for the fields)."""

    name: str
    builder: Callable[..., Robot]
    source: str
    option: str | None = None
    option_help: str = ""
    option_example: str = ""
    poses: Mapping[str, tuple] = field(default_factory=dict)
    dashboard: DashboardSpec = DashboardSpec()
    dashboards: Mapping[Any, DashboardSpec] = field(default_factory=dict)

    @property
    def option_default(self):
        """The default of the builder's positional option (``None`` without one).

        >>> ARM_SPECS["planar_2r"].option_default
        'fu'
        """
        if self.option is None:
            return None
        default = inspect.signature(self.builder).parameters[self.option].default
        return None if default is inspect.Parameter.empty else default

    def build(self, option=None, /, *, symbolic: bool = False, **options) -> Robot:
        """The arm, built with its option (e.g. the variant) and the builder's options.

        >>> ARM_SPECS["planar_2r"].build("macsyma", payload=0.0).links[1].mass
        2.0
        """
        if option is not None:
            if self.option is None:
                raise TypeError(f"arm {self.name!r} takes no option, got {option!r}")
            options[self.option] = option
        return self.builder(symbolic=symbolic, **options)

    def dashboard_for(self, option=None) -> DashboardSpec:
        """The dashboard of the arm built with ``option`` (its own where the spec has one).

        >>> ARM_SPECS["planar_2r"].dashboard_for("fu").lengths[0].name
        'l'
        """
        return self.dashboards.get(option, self.dashboard)


_SPECS: dict[str, ArmSpec] = {}
_BUILDERS: dict[str, Callable[..., Robot]] = {}

#: Every registered arm by name, in the order of registration (a read-only view)
ARM_SPECS: Mapping[str, ArmSpec] = MappingProxyType(_SPECS)
#: Every registered arm's builder by name (a read-only view of the registry)
ROBOTS: Mapping[str, Callable[..., Robot]] = MappingProxyType(_BUILDERS)


def register_arm(name: str, builder: Callable[..., Robot], *, source: str,
                 option: str | None = None, option_help: str = "", option_example: str = "",
                 poses: Mapping[str, tuple] | None = None,
                 dashboard: DashboardSpec | None = None,
                 dashboards: Mapping[Any, DashboardSpec] | None = None,
                 replace: bool = False) -> ArmSpec:
    """Register an arm under ``name``, for the command line, the dashboards and
    :data:`dynlab.model.robots.ROBOTS`; returns its :class:`ArmSpec`.

    ``name``
        a Python identifier (the command line reads ``name:option``).
    ``builder``
        ``builder(symbolic=False, ...) -> Robot``: numbers by default, SymPy symbols for the
        physical parameters with ``symbolic=True``; its other keyword arguments are the arm's
        options (``dynlab torque name:key=value``, ``dashboard(name, key=value)``).
    ``source``
        the citation as a reader finds it in print, e.g. ``"Fu, Gonzalez & Lee (1987),
        Sec. 3.2.6, Fig. 3.2"``.
    ``option``, ``option_help``, ``option_example``
        the builder's one option that may be given by its value alone (``planar_2r:macsyma``
        for ``variant="macsyma"``), what its values are, and one value for help texts.
    ``poses``
        named joint positions (the PUMA 560's ``qz``, ``qr``, ...), accepted for ``--q``.
    ``dashboard``, ``dashboards``
        what its dashboard shows (:class:`DashboardSpec`), and per value of ``option`` where
        that differs.
    ``replace``
        allow replacing an arm already registered under ``name``.

    >>> register_arm("planar_2r", ROBOTS["pendulum"], source="x")
    Traceback (most recent call last):
    ...
    ValueError: an arm named 'planar_2r' is registered already; pass replace=True to replace it
    >>> register_arm("two link", ROBOTS["pendulum"], source="x")
    Traceback (most recent call last):
    ...
    ValueError: an arm's name must be a Python identifier (letters, digits, _), got 'two link'
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"an arm's name must be a Python identifier (letters, digits, _), "
                         f"got {name!r}")
    if name in _SPECS and not replace:
        raise ValueError(f"an arm named {name!r} is registered already; pass replace=True to "
                         f"replace it")
    if not callable(builder):
        raise TypeError(f"arm {name!r}: builder must be callable, got "
                        f"{type(builder).__name__}")
    parameters = inspect.signature(builder).parameters
    if "symbolic" not in parameters:
        raise TypeError(f"arm {name!r}: the builder must take symbolic= (numbers or symbols)")
    if option is not None and (option not in parameters or option == "symbolic" or
                               parameters[option].kind not in (
                                   inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                   inspect.Parameter.KEYWORD_ONLY)):
        raise TypeError(f"arm {name!r}: option {option!r} is no keyword parameter of "
                        f"its builder")
    if not isinstance(source, str) or not source.strip():
        raise ValueError(f"arm {name!r}: source must name where the arm comes from")
    dashboard = DashboardSpec() if dashboard is None else dashboard
    dashboards = dict(dashboards or {})
    for board in (dashboard, *dashboards.values()):
        if not isinstance(board, DashboardSpec):
            raise TypeError(f"arm {name!r}: a dashboard must be a DashboardSpec, got "
                            f"{type(board).__name__}")
    if dashboards and option is None:
        raise TypeError(f"arm {name!r}: dashboards per option need option=")
    spec = ArmSpec(name, builder, source, option, option_help, option_example,
                   MappingProxyType(dict(poses or {})), dashboard,
                   MappingProxyType(dashboards))
    _SPECS[name] = spec
    _BUILDERS[name] = builder
    return spec


def unregister_arm(name: str) -> None:
    """Remove the arm registered as ``name`` (for tests and notebooks that add one).

    >>> unregister_arm("robot_x")
    Traceback (most recent call last):
    ...
    ValueError: no arm named 'robot_x' is registered; the arms are pendulum, planar_2r, scara, puma560...
    """
    if name not in _SPECS:
        raise ValueError(f"no arm named {name!r} is registered; the arms are "
                         f"{', '.join(_SPECS)}")
    del _SPECS[name], _BUILDERS[name]
