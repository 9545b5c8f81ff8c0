"""Generate ``exercises/*.ipynb`` from ``solutions/*.ipynb``: the one source of truth.

    .venv/bin/python tools/make_exercises.py            # write exercises/, then execute them
    .venv/bin/python tools/make_exercises.py --check    # exit 1 if exercises/ is out of date
    .venv/bin/python tools/make_exercises.py --no-execute

Each solution notebook holds its answers between nbgrader's markers, in code cells with nbgrader
metadata (``"solution": true``)::

    ### BEGIN SOLUTION
    D = ...derivation...
    ### END SOLUTION

Cells tagged ``solution_only`` (cell metadata ``"tags": ["solution_only"]``) are the solution's
alone: the discussion after a check cell that states the answer, or code that computes it.  They
are left out of the exercise notebook.

In the exercise notebook every such block becomes a stub: one line ``name = ...`` for each name
the block assigns that the rest of the notebook uses (found with :mod:`ast`: the names loaded by
code outside every solution block), under a comment asking for the answer.  Everything else (the
text, the set-up cells, the check cells ``check("3.16c", (D, h, c))`` and the score summary) is
copied unchanged; outputs are cleared.  So a fresh exercise notebook runs from top to bottom
without an error, and every check in it says "not answered yet".

After writing, the exercises are executed and tidied in place by ``tools/refresh_notebooks.py``
(stored outputs, as ``pytest --nbval`` expects).  ``--check`` compares the generated cells (their
sources and metadata, not outputs) with the committed ones; ``tests/test_exercises.py`` runs it.
"""

from __future__ import annotations

import argparse
import ast
import copy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = ROOT / "solutions"
EXERCISES = ROOT / "exercises"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
STUB_COMMENT = "# YOUR ANSWER HERE: replace each ... by your answer"
SOLUTION_ONLY = "solution_only"          # the tag of a cell that the exercise leaves out


class SolutionError(ValueError):
    """A solution notebook that breaks the conventions above (the message says where)."""


def split_blocks(source: str, where: str) -> list:
    """``source`` as a list of ``(is_solution, lines)`` pieces, in order.

    >>> split_blocks("x = 1\\n### BEGIN SOLUTION\\ny = 2\\n### END SOLUTION\\ny", "cell")
    [(False, ['x = 1']), (True, ['y = 2']), (False, ['y'])]
    """
    pieces, current, inside = [], [], False
    for line in source.split("\n"):
        marker = line.strip()
        if marker == BEGIN:
            if inside:
                raise SolutionError(f"{where}: {BEGIN} inside a solution block")
            pieces.append((False, current))
            current, inside = [], True
        elif marker == END:
            if not inside:
                raise SolutionError(f"{where}: {END} without {BEGIN}")
            pieces.append((True, current))
            current, inside = [], False
        else:
            current.append(line)
    if inside:
        raise SolutionError(f"{where}: {BEGIN} without {END}")
    pieces.append((False, current))
    return [(solution, lines) for solution, lines in pieces if solution or lines]


def _names(code: str, where: str, context) -> list:
    """Names stored (``context=ast.Store``) or loaded (``ast.Load``) by ``code``, in order."""
    try:
        tree = ast.parse(code)
    except SyntaxError as error:
        raise SolutionError(f"{where}: not valid Python ({error})") from None
    nodes = sorted((node for node in ast.walk(tree)
                    if isinstance(node, ast.Name) and isinstance(node.ctx, context)),
                   key=lambda node: (node.lineno, node.col_offset))
    return list(dict.fromkeys(node.id for node in nodes))        # in the order they appear


def _assigned_at_top_level(code: str, where: str) -> list:
    """Names a solution block binds at its top level (assignments, in order)."""
    tree = ast.parse(code)
    names = []

    def add(target):
        if isinstance(target, ast.Name):
            if target.id not in names:
                names.append(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                add(element)

    for statement in tree.body:
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                add(target)
        elif isinstance(statement, (ast.AnnAssign, ast.AugAssign)):
            add(statement.target)
        elif isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
            names.append(statement.name)
    return names


def exercise_of(notebook):
    """The exercise version of a solution notebook (an ``nbformat`` notebook; a new object)."""
    exercise = copy.deepcopy(notebook)
    exercise.cells = [cell for cell in exercise.cells
                      if SOLUTION_ONLY not in cell.metadata.get("tags", [])]
    outside, blocks = [], []
    for index, cell in enumerate(exercise.cells):
        if cell.cell_type != "code":
            continue
        where = f"cell {index}"
        pieces = split_blocks(cell.source, where)
        solution_cell = cell.metadata.get("nbgrader", {}).get("solution", False)
        if any(solution for solution, _ in pieces) and not solution_cell:
            raise SolutionError(f"{where}: a solution block in a cell without nbgrader "
                                f"metadata \"solution\": true")
        for solution, lines in pieces:
            (blocks if solution else outside).append((where, "\n".join(lines)))
    if not blocks:
        raise SolutionError("the notebook has no solution block")
    used = []                                   # names loaded outside the blocks, in order
    for where, code in outside:
        used.extend(name for name in _names(code, where, ast.Load) if name not in used)
    for index, cell in enumerate(exercise.cells):
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
            pieces = split_blocks(cell.source, f"cell {index}")
            lines = []
            for solution, piece in pieces:
                if not solution:
                    lines.extend(piece)
                    continue
                assigned = _assigned_at_top_level("\n".join(piece), f"cell {index}")
                rest = "\n".join("\n".join(lines) for solution, lines in pieces if not solution)
                # the answers in the order the cell itself shows them, then the notebook
                order = _names(rest, f"cell {index}", ast.Load) + used
                answers = sorted((name for name in assigned if name in used), key=order.index)
                if not answers:
                    raise SolutionError(f"cell {index}: the solution block assigns nothing "
                                        f"that the notebook uses (no answer to stub)")
                lines.append(STUB_COMMENT)
                lines.extend(f"{name} = ..." for name in answers)
            cell.source = "\n".join(lines)
        cell.metadata.pop("execution", None)
    exercise.metadata.pop("widgets", None)
    return exercise


def generate(solutions=SOLUTIONS, exercises=EXERCISES) -> list:
    """Write ``exercises/<name>.ipynb`` for every ``solutions/<name>.ipynb``; returns the paths."""
    import nbformat
    exercises.mkdir(exist_ok=True)
    written = []
    for path in sorted(solutions.glob("*.ipynb")):
        exercise = exercise_of(nbformat.read(path, as_version=4))
        target = exercises / path.name
        text = nbformat.writes(exercise, version=4)
        target.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
        written.append(target)
    return written


def _cells(notebook) -> list:
    """What ``--check`` compares: each cell's type, source and metadata (no outputs)."""
    return [(cell.cell_type, cell.source, dict(cell.metadata)) for cell in notebook.cells]


def stale(solutions=SOLUTIONS, exercises=EXERCISES) -> list:
    """Messages for every exercise notebook that differs from the one generated now."""
    import nbformat
    problems = []
    expected = {path.name for path in solutions.glob("*.ipynb")}
    present = {path.name for path in exercises.glob("*.ipynb")}
    for name in sorted(present - expected):
        problems.append(f"exercises/{name} has no solutions/{name}")
    for name in sorted(expected):
        generated = exercise_of(nbformat.read(solutions / name, as_version=4))
        if name not in present:
            problems.append(f"exercises/{name} is missing")
            continue
        committed = nbformat.read(exercises / name, as_version=4)
        if _cells(generated) != _cells(committed):
            different = [i for i, (a, b) in enumerate(zip(_cells(generated), _cells(committed)))
                         if a != b]
            if len(generated.cells) != len(committed.cells):
                detail = f"{len(committed.cells)} cells instead of {len(generated.cells)}"
            else:
                detail = "cells " + ", ".join(map(str, different)) + " differ"
            problems.append(f"exercises/{name} is out of date ({detail})")
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only compare exercises/ with what would be generated")
    parser.add_argument("--no-execute", action="store_true",
                        help="write the exercises without executing them")
    args = parser.parse_args(argv)
    if args.check:
        problems = stale()
        for problem in problems:
            print(problem)
        if problems:
            print("run: .venv/bin/python tools/make_exercises.py")
            return 1
        print("exercises/ is up to date")
        return 0
    written = generate()
    for path in written:
        print(f"wrote {path.relative_to(ROOT)}")
    if args.no_execute:
        return 0
    sys.path.insert(0, str(ROOT / "tools"))
    import refresh_notebooks
    return refresh_notebooks.main([str(path) for path in written])


if __name__ == "__main__":
    sys.exit(main())
