"""The shape of the package: no import cycle, the arms' knowledge in their registry.

Read from the source with ``ast`` (nothing is imported to build the graph): an import counts
where it runs when its module is imported, i.e. at module level (also inside ``if``/``try``),
not inside a function or class.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from dynlab.robots import ARM_SPECS

PACKAGE = Path(__file__).resolve().parents[1] / "dynlab"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def module_level(tree: ast.Module):
    """The nodes that run on import: everything but the bodies of functions and classes."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                 ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))


def imported_modules(name: str, tree: ast.Module, modules) -> set:
    """The modules of ``modules`` that ``name`` imports at module level.  ``from p import x``
    imports ``p.x`` when that is a module, else ``p``."""
    package = name if MODULES.get(name, Path()).name == "__init__.py" else \
        name.rpartition(".")[0]
    found = set()
    for node in module_level(tree):
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


def import_graph(sources: dict) -> dict:
    """``{module: modules it imports at module level}`` for ``{module: source text}``."""
    return {name: imported_modules(name, ast.parse(text), sources)
            for name, text in sources.items()}


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


def test_the_cycle_finder_finds_a_cycle_through_a_from_import():
    sources = {"p": "", "p.a": "from p import b\n", "p.b": "import os\nfrom p.c import f\n",
               "p.c": "from p.a import g\n\ndef late():\n    from p import b\n"}
    graph = import_graph(sources)
    assert graph == {"p": set(), "p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}}
    assert find_cycle(graph) == ["p.a", "p.b", "p.c", "p.a"]
    sources["p.c"] = "def late():\n    from p.a import g\n"       # inside a function: no edge
    assert find_cycle(import_graph(sources)) is None


def test_dynlab_has_no_import_cycle():
    graph = import_graph({name: path.read_text() for name, path in MODULES.items()})
    assert "dynlab.robots.puma" in graph["dynlab.robots.tourassis_neuman"]    # graph is real
    assert find_cycle(graph) is None, f"import cycle: {' -> '.join(find_cycle(graph))}"


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


@pytest.mark.parametrize("name", [m for m in MODULES if m.startswith("dynlab.robots")])
def test_the_arm_modules_import_at_their_top_only(name):
    assert late_imports(ast.parse(MODULES[name].read_text())) == [], name


# -- an arm's name is compared in its registry only ----------------------------------------------
def arm_words() -> set:
    """What identifies a registered arm: its name, the values of its option the spec knows
    (its default, those with their own dashboard) and the name of the arm it builds."""
    words = set()
    for name, spec in ARM_SPECS.items():
        words |= {name, spec.builder().name}
        words |= {v for v in (spec.option_default, *spec.dashboards) if isinstance(v, str)}
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


@pytest.mark.parametrize("name", [m for m in MODULES if not m.startswith("dynlab.robots")])
def test_no_arm_name_is_compared_outside_the_registry(name):
    """Knowledge of one arm (its sliders, its poses, its options) belongs in its ArmSpec."""
    assert name_comparisons(ast.parse(MODULES[name].read_text()), arm_words()) == []
