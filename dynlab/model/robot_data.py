"""What dynlab works out from one :class:`dynlab.model.robot.Robot` and keeps: ``robot.data``.

A robot never changes, so what is kept belongs to it alone; a changed arm starts empty.

>>> from dynlab.model.robots import pendulum
>>> from dynlab import inverse_dynamics
>>> arm = pendulum()
>>> tau = inverse_dynamics(arm, [0.0], [0.0], [0.0])      # checked, step by step
>>> tau = inverse_dynamics(arm, [0.0], [0.0], [0.0])      # the short cut: traced once
>>> arm.data, arm.data.default_inverse.calls
(RobotData(1 traced programs, 1 short cuts, 0 generated codes), 1)
>>> arm.replace(gravity=(0, 0, 0)).data                    # a new arm: nothing kept yet
RobotData(0 traced programs, 0 short cuts, 0 generated codes)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class ShortCut:
    """The compiled short cut of ``inverse_dynamics`` or ``forward_dynamics`` that a first checked
    call stored: ``function`` (what runs), ``tape`` (its recording, made by ``recipe`` on first
    use), ``calls`` (short-cut calls so far), ``frictionless``.

    >>> entry = ShortCut(abs, tape=None)
    >>> entry.calls, entry.frictionless, entry.function(-2)
    (0, False, 2)
    """

    __slots__ = ("function", "tape", "calls", "frictionless", "recipe")

    def __init__(self, function: Callable | None, tape: Any, frictionless: bool = False,
                 recipe: tuple | None = None):
        self.function = function
        self.tape = tape
        self.calls = 0
        self.frictionless = frictionless
        self.recipe = recipe

    def __repr__(self) -> str:
        return f"ShortCut({self.calls} calls)"


class RobotData:
    """Everything kept for one robot, filled as first needed: the link data (``numeric``,
    ``symbolic``), ``free_symbols``, ``default_inverse`` (the default call's :class:`ShortCut`),
    ``model_structure``; and, behind their own methods, traced programs, the short cuts of
    inverse and forward dynamics, and generated code."""

    __slots__ = ("numeric", "symbolic", "free_symbols", "default_inverse", "model_structure",
                 "_traced", "_inverse", "_forward", "_generated")

    def __init__(self):
        self.numeric = None
        self.symbolic = None
        self.free_symbols = None
        self.default_inverse = None
        self.model_structure = None
        self._traced: dict = {}
        self._inverse: dict = {}
        self._forward: dict = {}
        self._generated: dict = {}

    # -- traced programs ---------------------------------------------------------------------------
    def traced(self, what: tuple, build: Callable[[], tuple]) -> tuple:
        """``(function, tape)`` of the program ``what`` (its name and options), from ``build()``
        once.

        >>> data = RobotData()
        >>> data.traced(("square",), lambda: (lambda x: x * x, None))[0](3)
        9
        >>> data.traced(("square",), lambda: 1 / 0)[0](4)     # kept: not built again
        16
        """
        found = self._traced.get(what)
        if found is None:
            if not (isinstance(what, tuple) and what and isinstance(what[0], str)):
                raise TypeError(f"a traced program is named by a tuple that starts with its "
                                f"quantity's name, got {what!r}")
            found = self._traced[what] = build()
        return found

    def find_traced(self, what: tuple) -> tuple | None:
        """``(function, tape)`` of the program ``what`` if it was traced, else ``None``."""
        return self._traced.get(what)

    # -- the public calls' short cuts --------------------------------------------------------------
    def inverse_short_cut(self, method, variant, gravity, friction, tip_wrench
                          ) -> ShortCut | None:
        """The short cut of ``inverse_dynamics`` with these options, or ``None``."""
        return self._inverse.get((method, variant, gravity, friction, tip_wrench))

    def keep_inverse_short_cut(self, method, variant, gravity, friction, tip_wrench,
                               short_cut: ShortCut, *, default: bool = False) -> ShortCut:
        """Keep ``short_cut`` for these options unless one is kept already; return the one
        kept.  ``default``: the options are ``inverse_dynamics``'s defaults (then it is also
        ``default_inverse``)."""
        kept = self._inverse.setdefault((method, variant, gravity, friction, tip_wrench),
                                        short_cut)
        if default:
            self.default_inverse = kept
        return kept

    def forward_short_cut(self, method, variant, gravity, friction, tip_wrench
                          ) -> ShortCut | None:
        """The short cut of ``forward_dynamics`` with these options, or ``None``."""
        return self._forward.get((method, variant, gravity, friction, tip_wrench))

    def keep_forward_short_cut(self, method, variant, gravity, friction, tip_wrench,
                               short_cut: ShortCut) -> ShortCut:
        """Keep ``short_cut`` for these options unless one is kept already; return the one
        kept."""
        return self._forward.setdefault((method, variant, gravity, friction, tip_wrench),
                                        short_cut)

    # -- generated code ---------------------------------------------------------------------------
    def generated_code(self, options: tuple):
        """The :class:`dynlab.dynamics.codegen.Generated` made for ``options`` (what, method,
        variant, switches, name), or ``None``."""
        return self._generated.get(options)

    def keep_generated_code(self, options: tuple, generated) -> None:
        self._generated[options] = generated

    def __repr__(self) -> str:
        return (f"RobotData({len(self._traced)} traced programs, "
                f"{len(self._inverse) + len(self._forward)} short cuts, "
                f"{len(self._generated)} generated codes)")
