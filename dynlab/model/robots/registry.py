"""The one registry of arms: a name -> :class:`ArmSpec`, read by every part of dynlab that
offers arms by name.

An arm spec says how to build the arm (its builder, the builder's positional option), where it
comes from (the citation as a reader finds it in print) and its named poses; what its dashboard
shows is the teaching floor's (:mod:`dynlab.teaching.dashboards.specs`).  The
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
from typing import Callable, Mapping

from dynlab.model.robot import Robot

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


_SPECS: dict[str, ArmSpec] = {}
_BUILDERS: dict[str, Callable[..., Robot]] = {}

#: Every registered arm by name, in the order of registration (a read-only view)
ARM_SPECS: Mapping[str, ArmSpec] = MappingProxyType(_SPECS)
#: Every registered arm's builder by name (a read-only view of the registry)
ROBOTS: Mapping[str, Callable[..., Robot]] = MappingProxyType(_BUILDERS)


def register_arm(name: str, builder: Callable[..., Robot], *, source: str,
                 option: str | None = None, option_help: str = "", option_example: str = "",
                 poses: Mapping[str, tuple] | None = None, replace: bool = False) -> ArmSpec:
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
    spec = ArmSpec(name, builder, source, option, option_help, option_example,
                   MappingProxyType(dict(poses or {})))
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
