"""The shape of the package: floors that import only downwards, no import cycle, the arms'
knowledge in their registry.

Read from the source with ``ast`` (nothing is imported to build the graph): every ``import`` and
``from ... import`` counts, at any depth (module level, inside ``if``/``try``, a function or a
class), since an import inside a function is a dependency all the same; imports inside doctests
are text and do not count.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from dynlab.model.robots import ARM_SPECS
from dynlab.teaching.dashboards.specs import DASHBOARD_SPECS

PACKAGE = Path(__file__).resolve().parents[1] / "dynlab"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
#: Each module's source, parsed once (for the graph, the names it defines and the tests below)
TREES = {name: ast.parse(path.read_text()) for name, path in MODULES.items()}

#: The floors of dynlab, lowest first.  A module imports modules of its own floor or of lower
#: ones, never of a higher one.  An entry names a module, or with ``.*`` a package and all its
#: modules; every floor but the command line is a folder of the package.
FLOORS = {
    # the model: scalar types and checks, Robot and its data, kinematics, spatial algebra, the
    # arm registry and the arms (model/robots/); and how a model and a derived expression print
    # (book form) and draw, which the result types of the dynamics floor use to show themselves
    # (EquationsOfMotion._repr_latex_, Trajectory.animate)
    "model": ("dynlab.model.*",),
    # each formulation and their registry
    "formulations": ("dynlab.formulations.*",),
    # the tape, programs, their optimizer and emitters; operation counts
    "engine": ("dynlab.engine.*",),
    # inverse and forward dynamics, the equations of motion, simulation, control; code
    # generation stands here because its closed forms are made from equations_of_motion
    "dynamics": ("dynlab.dynamics.*",),
    # what the chapters show: dashboards, tables, animations, the sources' printed equations
    # and their errata
    "teaching": ("dynlab.teaching.*",),
    "grading": ("dynlab.grading.*",),
    # the command line and the package's one facade (dynlab/__init__.py re-exports the calls a
    # reader starts with)
    "cli": ("dynlab.cli", "dynlab.__main__", "dynlab"),
}

#: What stands directly in dynlab/ besides the floors' folders.
TOP_LEVEL = {"dynlab", "dynlab.__main__", "dynlab.cli"}


def floor_of(name: str, floors: dict = FLOORS) -> str | None:
    """The floor of module ``name`` (``None``: on none)."""
    for floor, entries in floors.items():
        for entry in entries:
            package = entry.removesuffix(".*")
            if name == package or (entry.endswith(".*") and name.startswith(package + ".")):
                return floor
    return None


def imported_modules(name: str, tree: ast.Module, modules) -> set:
    """The modules of ``modules`` that ``name`` imports anywhere in its source.  ``from p import
    x`` imports ``p.x`` when that is a module, else ``p``."""
    package = name if MODULES.get(name, Path()).name == "__init__.py" else \
        name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:                                  # relative: from . import x
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in modules else base)
    return {m for m in found if m in modules and m != name}


def import_graph(trees: dict) -> dict:
    """``{module: modules it imports}`` for ``{module: its parsed source}``."""
    return {name: imported_modules(name, tree, trees) for name, tree in trees.items()}


def parsed(sources: dict) -> dict:
    return {name: ast.parse(text) for name, text in sources.items()}


def find_cycle(graph: dict) -> list | None:
    """One cycle of ``graph`` as ``[a, b, ..., a]``, or ``None``."""
    state, path = {}, []

    def visit(node):
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        state[node] = "done"
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def imports_up(graph: dict, floors: dict = FLOORS) -> list:
    """``"a (floor) -> b (higher floor)"`` for every import that runs up the floors."""
    order = {floor: level for level, floor in enumerate(floors)}
    return sorted(f"{a} ({floor_of(a, floors)}) -> {b} ({floor_of(b, floors)})"
                  for a, targets in graph.items() for b in targets
                  if order[floor_of(b, floors)] > order[floor_of(a, floors)])


GRAPH = import_graph(TREES)


def test_the_cycle_finder_finds_a_cycle_through_a_from_import():
    sources = {"p": "", "p.a": "from p import b\n", "p.b": "import os\nfrom p.c import f\n",
               "p.c": "import sys\n"}
    graph = import_graph(parsed(sources))
    assert graph == {"p": set(), "p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": set()}
    assert find_cycle(graph) is None
    sources["p.c"] = "def late():\n    from p.a import g\n"       # inside a function: counted
    assert find_cycle(import_graph(parsed(sources))) == ["p.a", "p.b", "p.c", "p.a"]
    sources["p.c"] = '"""\n>>> from p.a import g\n"""\n'            # in a doctest: text
    assert find_cycle(import_graph(parsed(sources))) is None


def test_an_import_up_the_floors_is_found_also_inside_a_function():
    floors = {"low": ("p.a",), "high": ("p.b", "p.sub.*")}
    sources = {"p.a": "def f():\n    if True:\n        from p.sub.c import x\n",
               "p.b": "from p import a\n", "p.sub.c": "import p.b\n"}
    graph = import_graph(parsed(sources))
    assert floor_of("p.sub.c", floors) == "high" and floor_of("p.a.z", floors) is None
    assert imports_up(graph, floors) == ["p.a (low) -> p.sub.c (high)"]


def test_every_module_stands_on_one_floor():
    """A new module is placed on a floor here (the floors are the package's plan)."""
    unplaced = [name for name in MODULES if floor_of(name) is None]
    assert unplaced == [], f"place these modules on a floor of FLOORS: {unplaced}"
    listed = [entry.removesuffix(".*") for entries in FLOORS.values() for entry in entries]
    assert len(listed) == len(set(listed))
    assert [entry for entry in listed if entry not in MODULES] == []


def test_every_module_lives_in_the_folder_of_its_floor():
    """The folders are the floors: dynlab/<floor>/ holds the modules of that floor (and their
    packages, such as model/robots/); only the package's face stands at the top."""
    misplaced = [name for name in MODULES if name not in TOP_LEVEL
                 and name.split(".")[1] != floor_of(name)]
    assert misplaced == [], f"move these modules into the folder of their floor: {misplaced}"
    assert {name for name in MODULES if name.count(".") <= 1} == TOP_LEVEL | {
        f"dynlab.{floor}" for floor in FLOORS if floor != "cli"}


#: The most lines a module of dynlab may have: one idea a module (issue 25).
MOST_LINES = 800


def test_no_module_is_over_800_lines():
    """A module that grows past it holds more than one idea: split it by idea (a package of
    modules, as ``teaching/dashboards/`` and ``dynamics/structure/``)."""
    lines = {name: len(path.read_text().splitlines()) for name, path in MODULES.items()}
    assert max(lines.values()) > 100                          # the files are read
    assert {name: n for name, n in lines.items() if n > MOST_LINES} == {}


def defined_names(tree: ast.Module) -> set:
    """The names a module's source binds outside functions and classes (a ``def``, a
    ``class``, an assignment, at module level or under its ``if``/``try``), imports excepted."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


DEFINED = {name: defined_names(tree) for name, tree in TREES.items()}


def imports_from_elsewhere(tree: ast.Module, modules=MODULES, defined=DEFINED) -> list:
    """``(line, "module.name")`` of every ``from dynlab.<module> import name`` where the module
    neither defines ``name`` nor holds it as a submodule: a name imported by a path that only
    hands it on (one idea, one home: a name is imported from the module that defines it)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in modules:
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names
                      if alias.name not in defined[node.module]
                      and f"{node.module}.{alias.name}" not in modules]
    return sorted(found)


def test_imports_from_elsewhere_are_found():
    modules = dict.fromkeys(["dynlab.model", "dynlab.model.robot", "dynlab.model.link"])
    defined = {"dynlab.model": set(), "dynlab.model.robot": {"Robot"},
               "dynlab.model.link": {"Link"}}
    source = ("from dynlab.model.robot import Robot, Link\nfrom dynlab.model import robot\n"
              "def f():\n    from dynlab.model import Link\nfrom dynlab.model.link import Link\n"
              "from numpy import pi\n")
    assert imports_from_elsewhere(ast.parse(source), modules, defined) == [
        (1, "dynlab.model.robot.Link"), (4, "dynlab.model.Link")]


@pytest.mark.parametrize("name", sorted(MODULES))
def test_the_package_imports_each_name_from_its_home(name):
    """A module of dynlab imports each name from the module that defines it: no module or
    package ``__init__`` is a second path to a name (the facade ``dynlab/__init__.py`` is for
    the package's readers; no module of it imports from there)."""
    assert imports_from_elsewhere(TREES[name]) == [], name


def test_dynlab_has_no_import_cycle():
    assert "dynlab.model.robots.puma" in GRAPH["dynlab.model.robots.tourassis_neuman"]
    assert "dynlab.formulations.registry" in GRAPH["dynlab.engine.opcount"]  # the graph is real
    assert find_cycle(GRAPH) is None, f"import cycle: {' -> '.join(find_cycle(GRAPH))}"


def test_no_import_runs_up_the_floors():
    assert "dynlab.model.drawing" in GRAPH["dynlab.teaching.dashboards.arm"]  # inside a method
    assert imports_up(GRAPH) == []


def late_imports(tree: ast.Module) -> list:
    """Imports that run late: inside a function or class, or after other module-level code
    (a docstring, ``from __future__`` and ``__all__`` may come first)."""
    late, started = [], False
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if started:
                late.append(node.lineno)
        elif not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            started = True
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            late += [n.lineno for n in ast.walk(node) if isinstance(n, (ast.Import,
                                                                        ast.ImportFrom))]
    return sorted(late)


def test_late_imports_are_found():
    assert late_imports(ast.parse('"""doc"""\nimport os\nX = 1\nfrom a import b\n')) == [4]
    assert late_imports(ast.parse("import os\n\ndef f():\n    import sys\n")) == [4]


@pytest.mark.parametrize("name", [m for m in MODULES if m.startswith("dynlab.model.robots")])
def test_the_arm_modules_import_at_their_top_only(name):
    assert late_imports(TREES[name]) == [], name


# -- an arm's name is compared in its registry only ----------------------------------------------
def arm_words() -> set:
    """What identifies a registered arm: its name, the values of its option the spec knows
    (its default, those with their own dashboard) and the name of the arm it builds."""
    words = set()
    for name, spec in ARM_SPECS.items():
        words |= {name, spec.builder().name}
        words |= {v for v in (spec.option_default,
                              *(option for arm, option in DASHBOARD_SPECS if arm == name))
                  if isinstance(v, str)}
    return words


def name_comparisons(tree: ast.AST, words: set) -> list:
    """``(line, text)`` of every ``==``/``!=``/``in`` against one of ``words``, and every
    ``.startswith``/``.endswith`` of a prefix or suffix of one of them."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                values = side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]
                if any(isinstance(v, ast.Constant) and v.value in words for v in values):
                    found.append((node.lineno, ast.unparse(node)))
                    break
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("startswith", "endswith") and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and len(node.args[0].value) >= 3
              and any(getattr(w, node.func.attr)(node.args[0].value) for w in words)):
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_name_comparisons_are_found():
    words = {"planar_2r", "macsyma", "PUMA 560"}
    source = ('if name == "planar_2r" or variant in ("fu", "macsyma"): pass\n'
              'if arm.name.startswith("PUMA"): pass\nif kind == "revolute": pass\n')
    assert sorted(line for line, _ in name_comparisons(ast.parse(source), words)) == [1, 1, 2]


@pytest.mark.parametrize("name", [m for m in MODULES if not m.startswith("dynlab.model.robots")])
def test_no_arm_name_is_compared_outside_the_registry(name):
    """Knowledge of one arm (its sliders, its poses, its options) belongs in its ArmSpec."""
    assert name_comparisons(TREES[name], arm_words()) == []
