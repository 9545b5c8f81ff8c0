"""The old module paths of dynlab, kept working after the package was laid out by floors.

Until the modules moved into the folders of their floors (``model/``, ``formulations/``,
``engine/``, ``dynamics/``, ``teaching/``), they sat directly in ``dynlab/``.  The README, the
chapters and readers' own code import them by those paths, so each old path stays an alias:
importing it gives the SAME module object as its new path (one entry in :data:`sys.modules`
under both names, so a ``monkeypatch`` of ``dynlab.widgets.something`` patches the code that
runs).  ``dynlab.robots`` is an old package: its modules follow it (``dynlab.robots.puma`` is
:mod:`dynlab.model.robots.puma`).

Three old modules share their name with a floor (``dynlab.model``, ``dynlab.formulations``,
``dynlab.dynamics``); they are not aliases: the floor's ``__init__`` re-exports the old
module's public names.

>>> import dynlab.widgets, dynlab.teaching.widgets
>>> dynlab.widgets is dynlab.teaching.widgets
True
>>> from dynlab.robots import puma560
>>> puma560.__module__
'dynlab.model.robots.puma'

A name that left a module that stays is found in its new module:

>>> from dynlab.dynamics.control import TrackingDashboard
>>> TrackingDashboard.__module__
'dynlab.teaching.dashboards.tracking'
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys

#: Old path -> new path of every moved module (and of the ``robots`` package, whose modules
#: follow it).
MOVED = {
    # the model floor
    "dynlab.vectors": "dynlab.model.vectors",
    "dynlab.checks": "dynlab.model.checks",
    "dynlab.symbolic": "dynlab.model.symbolic",
    "dynlab.jets": "dynlab.model.jets",
    "dynlab.robot_data": "dynlab.model.robot_data",
    "dynlab.kinematics": "dynlab.model.kinematics",
    "dynlab.friction": "dynlab.model.friction",
    "dynlab.spatial": "dynlab.model.spatial",
    "dynlab.ldl": "dynlab.model.ldl",
    "dynlab.display": "dynlab.model.display",
    "dynlab.drawing": "dynlab.model.drawing",
    "dynlab.robots": "dynlab.model.robots",
    # the formulations floor
    "dynlab.newton_euler": "dynlab.formulations.newton_euler",
    "dynlab.lagrange_euler": "dynlab.formulations.lagrange_euler",
    "dynlab.dalembert": "dynlab.formulations.dalembert",
    "dynlab.twist_wrench": "dynlab.formulations.twist_wrench",
    "dynlab.featherstone": "dynlab.formulations.featherstone",
    "dynlab.composite_bodies": "dynlab.formulations.composite_bodies",
    # the engine floor
    "dynlab.tracing": "dynlab.engine.tracing",
    "dynlab.program": "dynlab.engine.program",
    "dynlab.optimizer": "dynlab.engine.optimizer",
    "dynlab.emitters": "dynlab.engine.emitters",
    "dynlab.opcount": "dynlab.engine.opcount",
    # the dynamics floor
    "dynlab.equations": "dynlab.dynamics.equations",
    "dynlab.forward": "dynlab.dynamics.forward",
    "dynlab.simulation": "dynlab.dynamics.simulation",
    "dynlab.control": "dynlab.dynamics.control",
    "dynlab.trajectory": "dynlab.dynamics.trajectory",
    "dynlab.codegen": "dynlab.dynamics.codegen",
    # the teaching floor
    "dynlab.widgets": "dynlab.teaching.widgets",
    "dynlab.properties": "dynlab.teaching.properties",
    "dynlab.animation": "dynlab.teaching.animation",
    "dynlab.side_by_side": "dynlab.teaching.side_by_side",
    "dynlab.cost_tables": "dynlab.teaching.cost_tables",
    "dynlab.structure_tables": "dynlab.teaching.structure_tables",
    "dynlab.simulation_figures": "dynlab.teaching.simulation_figures",
    "dynlab.textbook": "dynlab.teaching.textbook",
    "dynlab.errata": "dynlab.teaching.errata",
    "dynlab.erratum_cards": "dynlab.teaching.erratum_cards",
    "dynlab.bibliography": "dynlab.teaching.bibliography",
    "dynlab.folding": "dynlab.teaching.folding",
    "dynlab.arm_table": "dynlab.teaching.arm_table",
}

#: The old modules whose name is now a floor's package, which re-exports their public names.
REEXPORTED = {"dynlab.model": "dynlab.model.robot",
              "dynlab.formulations": "dynlab.formulations.registry",
              "dynlab.dynamics": "dynlab.dynamics.inverse"}

#: Names that left a module that stays: module -> {name: the module that holds it now}.  The
#: dashboards of chapters 08 and 11 (and the motor-sizing figures) moved from the dynamics floor
#: to ``teaching/dashboards/``; a dynamics module cannot import them back (that import would run
#: up the floors), so :func:`lend_moved_names` gives the old module a ``__getattr__`` (PEP 562)
#: that finds each name in its new module when it is first asked for.
MOVED_NAMES = {
    "dynlab.dynamics.control": dict.fromkeys(
        ("TrackingDashboard", "DASHBOARD_LAWS"), "dynlab.teaching.dashboards.tracking"),
    "dynlab.dynamics.motor_sizing": dict.fromkeys(
        ("MotorSizingDashboard", "draw_torque_speed_plane", "update_torque_speed_plane",
         "draw_ratings", "update_ratings"), "dynlab.teaching.dashboards.motor_sizing"),
}


def new_path(name: str) -> str | None:
    """The new path of old module ``name`` (``None``: not moved, or not an alias).

    >>> new_path("dynlab.robots.puma"), new_path("dynlab.grading"), new_path("dynlab.robotsx")
    ('dynlab.model.robots.puma', None, None)
    """
    if name in MOVED:
        return MOVED[name]
    package, _, rest = name.partition(".robots.")
    if package == "dynlab" and rest:
        return f"{MOVED['dynlab.robots']}.{rest}"
    return None


def package_attribute(name: str):
    """``dynlab.<name>`` for an old module name not imported yet (the package's ``__getattr__``):
    before the move, ``import dynlab`` made every module it imported an attribute of
    ``dynlab``, so ``dynlab.kinematics.link_transform`` worked after a bare ``import dynlab``.

    >>> import dynlab
    >>> dynlab.kinematics is importlib.import_module("dynlab.model.kinematics")
    True
    """
    if new_path(f"dynlab.{name}") is None:
        raise AttributeError(f"module 'dynlab' has no attribute {name!r}")
    return importlib.import_module(f"dynlab.{name}")


class _Alias(importlib.abc.Loader):
    """Loads an old path as the module of its new path; that module keeps its own spec."""

    def __init__(self, new: str):
        self.new, self.spec = new, None

    def create_module(self, spec):
        module = importlib.import_module(self.new)
        self.spec = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self.spec         # the import system set the old path's spec on it


class _OldPaths(importlib.abc.MetaPathFinder):
    """Finds the old paths (first on :data:`sys.meta_path`, so that ``dynlab.robots.puma`` is
    never loaded a second time from the moved package's folder)."""

    def find_spec(self, fullname, path=None, target=None):
        new = new_path(fullname)
        return None if new is None else importlib.machinery.ModuleSpec(fullname, _Alias(new))


def install() -> None:
    """Put the finder of old paths first on :data:`sys.meta_path` (once)."""
    if not any(isinstance(finder, _OldPaths) for finder in sys.meta_path):
        sys.meta_path.insert(0, _OldPaths())


def _moved_name(module: str, names: dict):
    """The ``__getattr__`` of old module ``module``: a name of ``names`` from its new module."""
    def __getattr__(name: str):
        if name not in names:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        return getattr(importlib.import_module(names[name]), name)
    return __getattr__


def lend_moved_names() -> None:
    """Give each module of :data:`MOVED_NAMES` the ``__getattr__`` that finds its moved names
    (the package's ``__init__`` calls it, so it has run before any ``from dynlab.x import``).
    The new modules are imported only when a name is asked for: ``import dynlab`` stays free of
    ipywidgets and matplotlib."""
    for module, names in MOVED_NAMES.items():
        importlib.import_module(module).__getattr__ = _moved_name(module, names)
