"""What dynlab works out from one :class:`dynlab.model.robot.Robot` and keeps: the robot's data.

A ``Robot`` is a description that never changes once built (assigning to it raises); a changed
arm is a new ``Robot`` (``robot.replace(...)``, ``robot.replace_link(...)``).  Everything
computed from it that is worth keeping lives in its :class:`RobotData`, ``robot.data``, made
with the robot and dropped with it.  So nothing kept can belong to another arm: the new arm
starts with empty data and the old one keeps its own.

Each kind of thing kept has its own field or its own pair of methods; no caller stores anything
under a name of its own choosing.

>>> from dynlab.model.robots import pendulum
>>> arm = pendulum()
>>> arm.data
RobotData(0 traced programs, 0 short cuts, 0 generated codes)
>>> from dynlab import inverse_dynamics
>>> tau = inverse_dynamics(arm, [0.0], [0.0], [0.0])      # checked, step by step
>>> arm.data, arm.data.default_inverse.calls
(RobotData(0 traced programs, 1 short cuts, 0 generated codes), 0)
>>> tau = inverse_dynamics(arm, [0.0], [0.0], [0.0])      # the short cut: traced once
>>> arm.data, arm.data.default_inverse.calls
(RobotData(1 traced programs, 1 short cuts, 0 generated codes), 1)
>>> arm.replace(gravity=(0, 0, 0)).data                    # a new arm: nothing kept yet
RobotData(0 traced programs, 0 short cuts, 0 generated codes)
"""

from __future__ import annotations

from typing import Any, Callable


class ShortCut:
    """The compiled short cut of a public numeric call (``inverse_dynamics``,
    ``forward_dynamics``) that a first, fully checked call with the same arguments stored.

    ``function``: what the next call runs; ``tape``: the recording it was compiled from (the
    optimiser starts from it), or ``None`` until the first short-cut call records it by
    ``recipe``, ``(key, recursion, options)`` of
    :func:`dynlab.engine.tracing.compile_joint_function`; ``calls``: how many calls took the
    short cut (the caller swaps ``function`` for the optimised program after its
    ``OPTIMIZE_AFTER`` calls); ``frictionless``: the call adds no friction (forward dynamics
    subtracts it before calling ``function`` otherwise).

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
    """Everything kept for one robot, filled as it is first needed.

    Fields (``None`` until computed; the robot's own methods fill the first three):

    * ``numeric``, ``symbolic``: the link data as floats and as exact SymPy values
      (:meth:`dynlab.model.robot.Robot.numeric`, :meth:`dynlab.model.robot.Robot.symbolic`);
    * ``free_symbols``: the parameter symbols, a frozenset
      (:attr:`dynlab.model.robot.Robot.free_symbols`);
    * ``default_inverse``: the :class:`ShortCut` of ``inverse_dynamics`` called with its default
      options, read by its quickest path in one attribute lookup (it is also among the inverse
      short cuts below);
    * ``model_structure``: Tourassis & Neuman's exact structure
      (:func:`dynlab.dynamics.structure.model_structure`).

    Stores, each behind its own methods:

    * traced programs, :meth:`traced` and :meth:`find_traced`: ``(function, tape)`` of a recursion recorded on the
      robot's numbers (:func:`dynlab.engine.tracing.compile_joint_function`);
    * the short cuts of ``inverse_dynamics`` and ``forward_dynamics``, :meth:`inverse_short_cut`,
      :meth:`forward_short_cut` and their ``keep_`` methods, keyed by the call's options;
    * generated code, :meth:`generated_code` and :meth:`keep_generated_code`
      (:func:`dynlab.dynamics.codegen.generate`'s memory; its files on disk are keyed by the robot's
      numbers).
    """

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
        """``(function, tape)`` of the program ``what``, from ``build()`` the first time.

        ``what`` says what the program computes: a tuple of the quantity's name and the options
        it was traced with, e.g. ``("inverse_dynamics", method, variant, use_gravity,
        use_friction, use_tip)``; the same tuple from two callers is the same program (control's
        model and ``inverse_dynamics`` share theirs).

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
