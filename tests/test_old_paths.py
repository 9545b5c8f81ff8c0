"""The module paths from before the package was laid out by floors keep working
(dynlab/_moved.py): each old path is the same module object as its new path, and the three old
modules whose name is now a floor's package are re-exported by that package."""

from __future__ import annotations

import ast
import os
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import dynlab
from dynlab import _moved

PACKAGE = Path(dynlab.__file__).resolve().parent


def robots_modules() -> list:
    """``("dynlab.robots.puma", "dynlab.model.robots.puma")``, ... for every module of the arms'
    package, read from its folder."""
    folder = PACKAGE / "model" / "robots"
    return [(f"dynlab.robots.{path.stem}", f"dynlab.model.robots.{path.stem}")
            for path in sorted(folder.glob("*.py")) if path.stem != "__init__"]


@pytest.mark.parametrize("old, new", [*_moved.MOVED.items(), *robots_modules()])
def test_an_old_path_is_the_new_module(old, new):
    module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert sys.modules[old] is sys.modules[new]
    assert module.__name__ == new and module.__spec__.name == new     # its own spec, kept
    assert _moved.new_path(old) == new
    package, _, leaf = old.rpartition(".")
    assert getattr(importlib.import_module(package), leaf) is module   # import dynlab.x; dynlab.x


def test_the_table_names_every_moved_module_once():
    news = list(_moved.MOVED.values()) + list(_moved.REEXPORTED.values())
    assert len(news) == len(set(news))
    moved = {old.split(".")[1] for old in [*_moved.MOVED, *_moved.REEXPORTED]}
    assert not [path for path in PACKAGE.glob("*.py") if path.stem in moved]   # none left behind
    assert _moved.new_path("dynlab.grading") is None
    assert _moved.new_path("dynlab.robotsx") is None and _moved.new_path("dynlab.cli") is None


def public_names(path: Path) -> set:
    """The public names a module's source defines at its top (functions, classes, constants)."""
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return {name for name in names if not name.startswith("_")}


@pytest.mark.parametrize("old, new", _moved.REEXPORTED.items())
def test_a_floor_named_like_an_old_module_re_exports_its_public_names(old, new):
    package, module = importlib.import_module(old), importlib.import_module(new)
    names = public_names(Path(module.__file__))     # a split module imports the rest back
    assert names and names <= set(package.__all__)
    assert all(getattr(package, name) is getattr(module, name) for name in package.__all__)


def test_an_old_module_is_an_attribute_of_dynlab_after_a_bare_import():
    for old, new in _moved.MOVED.items():
        assert getattr(dynlab, old.partition(".")[2]) is importlib.import_module(new), old
    with pytest.raises(AttributeError, match="no attribute 'widget'"):
        dynlab.widget


def test_monkeypatching_an_old_path_patches_the_module_that_runs(monkeypatch):
    from dynlab.teaching import widgets
    monkeypatch.setattr("dynlab.widgets.dashboard", "patched")
    assert widgets.dashboard == "patched"


#: In a fresh interpreter, import by old paths first, then check no module was loaded twice.
_COLD = """
import sys
import dynlab.robots.puma, dynlab.widgets
from dynlab.robots import puma560
from dynlab.codegen import generate
files = {}
for name, module in list(sys.modules.items()):
    if name.startswith("dynlab") and getattr(module, "__file__", None):
        files.setdefault(module.__file__, set()).add(id(module))
assert all(len(ids) == 1 for ids in files.values()), files
assert sys.modules["dynlab.robots.puma"] is sys.modules["dynlab.model.robots.puma"]
assert puma560.__module__ == "dynlab.model.robots.puma"
print("ok")
"""


def test_old_paths_imported_first_in_a_fresh_interpreter_load_each_file_once():
    done = subprocess.run([sys.executable, "-c", _COLD], capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, PYTHONPATH=str(PACKAGE.parent)))
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


@pytest.mark.parametrize("old, name, new", [(old, name, new)
                                            for old, names in _moved.MOVED_NAMES.items()
                                            for name, new in names.items()])
def test_a_name_that_left_its_module_is_found_at_its_old_path(old, name, new):
    moved = getattr(importlib.import_module(new), name)
    assert getattr(importlib.import_module(old), name) is moved
    assert name not in vars(importlib.import_module(old))      # not a copy: the module's own
    namespace = {}
    exec(f"from {old} import {name}", namespace)
    assert namespace[name] is moved
    with pytest.raises(AttributeError, match=f"module '{old}' has no attribute 'x{name}'"):
        getattr(importlib.import_module(old), f"x{name}")
