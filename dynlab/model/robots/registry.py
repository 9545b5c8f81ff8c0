"""The one registry of arms: name -> :class:`ArmSpec` (builder, source, named poses).

>>> from dynlab.model.link import Link
>>> from dynlab.model.robot import Robot
>>> def rod(symbolic=False):
...     return Robot([Link("R", a=0.5, mass=1.0, com=(-0.25, 0, 0), name="rod")])
>>> spec = register_arm("rod", rod, source="a worked exercise")
>>> ROBOTS["rod"]().joint_types
('revolute',)
>>> unregister_arm("rod")
>>> "rod" in ROBOTS
False
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

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
    """Register ``builder(symbolic=False, ...) -> Robot`` under the identifier ``name`` with its
    printed ``source``; ``option`` (``option_help``, ``option_example``) is the one option given by
    value (``planar_2r:macsyma``), ``poses`` named joint positions.  Returns the :class:`ArmSpec`.

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
    ValueError: no arm named 'robot_x' is registered; the arms are pendulum, planar_2r, scara,
    puma560...
    """
    if name not in _SPECS:
        raise ValueError(f"no arm named {name!r} is registered; the arms are "
                         f"{', '.join(_SPECS)}")
    del _SPECS[name], _BUILDERS[name]
