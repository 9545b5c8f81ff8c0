"""Generate ``exercises/*.ipynb`` from ``solutions/*.ipynb``: the one source of truth, in the form
nbgrader takes as its source, so that ``exercises/`` is exactly what
``nbgrader generate_assignment`` releases (with the one line of course configuration in
:data:`NBGRADER_CONFIG`).

    .venv/bin/python tools/make_exercises.py            # bring solutions/ to the form below,
                                                        # write exercises/, execute both
    .venv/bin/python tools/make_exercises.py --check    # exit 1 if either is out of date
    .venv/bin/python tools/make_exercises.py --no-execute

The form of a solution notebook (``tests/product/test_exercises.py`` and
``tests/product/test_nbgrader.py`` hold
it to this):

- An **answer cell** (nbgrader metadata ``"solution": true``) starts with the stub the student
  sees, then the solution between nbgrader's markers::

      # YOUR ANSWER HERE: replace each ... by your answer
      D = ...
      ### BEGIN SOLUTION
      D = ...derivation...
      ### END SOLUTION

  The stub has one line ``name = ...`` for each name the block assigns that the rest of the
  notebook uses (found with :mod:`ast`); this tool writes it, so a new answer cell needs only the
  markers.
- A **check cell** (nbgrader ``"grade": true``, locked, its points those of the key) shows the
  student's check and hides the one nbgrader grades by::

      check("3.16c", (D, h, c))
      ### BEGIN HIDDEN TESTS
      import dynlab.grading.autograde
      dynlab.grading.autograde.points("3.16c", (D, h, c))
      ### END HIDDEN TESTS

  The hidden lines (written by this tool) grade afresh, from the installed dynlab, whatever the
  notebook did to ``check``; their last value is the points, which nbgrader takes as partial
  credit.
- What the solution teaches after a question (its **takeaway**) and a **hint** are not cells:
  they live in ``NOTES`` of the notebook's key file, ``tools/answer_keys/<notebook>.py``, sealed
  into the keys by ``tools/make_answer_keys.py``; ``check()`` shows the takeaway once the answer
  is right.  A markdown cell tagged ``solution_only`` right after a check cell (the older form) is
  refused, naming its question, and so is any other ``solution_only`` cell: nbgrader does not
  know the tag and would release it.

The exercise is what nbgrader makes of this: each solution block replaced by the empty stub (a
blank line), the hidden lines removed, outputs cleared.  Everything else (the text, the set-up
cells, the summary) is copied unchanged.  So a fresh exercise notebook runs from top to bottom
without an error, and every check in it says "not answered yet".

After writing, the notebooks are executed and tidied in place by ``tools/refresh_notebooks.py``
(stored outputs, as ``pytest --nbval`` expects).  ``--check`` compares the cells (sources and
metadata, not outputs) with the committed ones; ``tests/product/test_exercises.py`` runs it.
"""

from __future__ import annotations

import argparse
import ast
import copy
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = ROOT / "solutions"
EXERCISES = ROOT / "exercises"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
HIDDEN_BEGIN, HIDDEN_END = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
STUB_COMMENT = "# YOUR ANSWER HERE: replace each ... by your answer"
#: What nbgrader puts in place of a solution block (its ``ClearSolutions.code_stub``)
CODE_STUB = ""
SOLUTION_ONLY = "solution_only"          # the older tag of a cell that the exercise leaves out
CHECK_CALL = re.compile(r'check\("([^"]+)", (.+)\)')
#: The course configuration (``nbgrader_config.py`` of the course folder) under which nbgrader
#: releases exactly ``exercises/`` and scores the hidden checks' answers outside the kernel
NBGRADER_CONFIG = ("c = get_config()  # noqa: F821\n"
                   f"c.ClearSolutions.code_stub = {{'python': {CODE_STUB!r}}}\n"
                   "from dynlab.grading.nbgrader_scoring import configure\n"
                   "configure(c)\n")


class SolutionError(ValueError):
    """A solution notebook that breaks the conventions above (the message says where)."""


def split_blocks(source: str, where: str, begin: str = BEGIN, end: str = END) -> list:
    """``source`` as a list of ``(is_solution, lines)`` pieces, in order.

    >>> split_blocks("x = 1\\n### BEGIN SOLUTION\\ny = 2\\n### END SOLUTION\\ny", "cell")
    [(False, ['x = 1']), (True, ['y = 2']), (False, ['y'])]
    """
    pieces, current, inside = [], [], False
    for line in source.split("\n"):
        marker = line.strip()
        if marker == begin:
            if inside:
                raise SolutionError(f"{where}: {begin} inside a block")
            pieces.append((False, current))
            current, inside = [], True
        elif marker == end:
            if not inside:
                raise SolutionError(f"{where}: {end} without {begin}")
            pieces.append((True, current))
            current, inside = [], False
        else:
            current.append(line)
    if inside:
        raise SolutionError(f"{where}: {begin} without {end}")
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


def _is_grade(cell) -> bool:
    return cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("grade", False)


def _is_solution(cell) -> bool:
    return cell.metadata.get("nbgrader", {}).get("solution", False)


def check_call(cell, where: str = "check cell") -> tuple:
    """``(question, answer expression)`` of a check cell's first line ``check("3.16c", (D, h, c))``.

    >>> import nbformat
    >>> check_call(nbformat.v4.new_code_cell('check("3.16c", (D, h, c))'))
    ('3.16c', '(D, h, c)')
    """
    first = cell.source.strip().split("\n")[0].strip()
    match = CHECK_CALL.fullmatch(first)
    if not match:
        raise SolutionError(f"{where}: a check cell starts with check(\"<question>\", <answer>), "
                            f"not {first!r}")
    return match.group(1), match.group(2)


def hidden_check(question: str, answer: str) -> list:
    """The hidden lines of a check cell: the grade from the installed dynlab (nbgrader's points)."""
    return [HIDDEN_BEGIN, "import dynlab.grading.autograde",
            f'dynlab.grading.autograde.points("{question}", {answer})', HIDDEN_END]


def _strip_stub(lines: list) -> list:
    """``lines`` (the code before a solution block) without a stub this tool wrote at its end."""
    end = len(lines)
    while end > 0 and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]* = \.\.\.", lines[end - 1]):
        end -= 1
    if end > 0 and lines[end - 1] == STUB_COMMENT:
        return lines[:end - 1]
    return lines


def solution_form(notebook) -> tuple:
    """``(notebook, takeaways)``: the solution notebook in the form above (a new object), and the
    ``{question: text}`` of older-form takeaway cells it took out."""
    solution = copy.deepcopy(notebook)
    takeaways, kept, question = {}, [], None
    for index, cell in enumerate(solution.cells):
        if SOLUTION_ONLY in cell.metadata.get("tags", []):
            if cell.cell_type == "markdown" and question is not None:
                takeaways[question] = (takeaways[question] + "\n\n" if question in takeaways
                                       else "") + cell.source.strip()
                continue
            raise SolutionError(
                f"cell {index}: a {cell.cell_type} cell tagged {SOLUTION_ONLY} that does not "
                f"follow a check cell; nbgrader would release it: move it into the solution "
                f"block of an answer cell, or its text into the takeaway "
                f"(NOTES of tools/answer_keys/<notebook>.py)")
        question = check_call(cell, f"cell {index}")[0] if _is_grade(cell) else None
        kept.append(cell)
    solution.cells = kept
    outside, blocks = [], []
    for index, cell in enumerate(solution.cells):
        if cell.cell_type != "code":
            continue
        where = f"cell {index}"
        if _is_grade(cell):
            outside.append((where, cell.source.split("\n")[0]))
            continue
        pieces = split_blocks(cell.source, where)
        if any(piece for piece, _ in pieces) and not _is_solution(cell):
            raise SolutionError(f"{where}: a solution block in a cell without nbgrader "
                                f"metadata \"solution\": true")
        for piece, lines in pieces:
            (blocks if piece else outside).append((where, "\n".join(lines)))
    if not blocks:
        raise SolutionError("the notebook has no solution block")
    used = []                                   # names loaded outside the blocks, in order
    for where, code in outside:
        used.extend(name for name in _names(code, where, ast.Load) if name not in used)
    for index, cell in enumerate(solution.cells):
        if cell.cell_type != "code":
            continue
        where = f"cell {index}"
        if _is_grade(cell):
            question, answer = check_call(cell, where)
            cell.source = "\n".join([f'check("{question}", {answer})']
                                    + hidden_check(question, answer))
            continue
        pieces = split_blocks(cell.source, where)
        if not any(piece for piece, _ in pieces):
            continue
        lines = []
        for position, (piece, block) in enumerate(pieces):
            if not piece:
                following = position + 1 < len(pieces) and pieces[position + 1][0]
                lines.extend(_strip_stub(block) if following else block)
                continue
            assigned = _assigned_at_top_level("\n".join(block), where)
            rest = "\n".join("\n".join(b) for p, b in pieces if not p)
            # the answers in the order the cell itself shows them, then the notebook
            order = _names(rest, where, ast.Load) + used
            answers = sorted((name for name in assigned if name in used), key=order.index)
            if not answers:
                raise SolutionError(f"{where}: the solution block assigns nothing that the "
                                    f"notebook uses (no answer to stub)")
            lines.append(STUB_COMMENT)
            lines.extend(f"{name} = ..." for name in answers)
            lines.append(BEGIN)
            lines.extend(block)
            lines.append(END)
        cell.source = "\n".join(lines)
    return solution, takeaways


def _release(source: str, where: str) -> str:
    """What nbgrader releases of a cell's source: each solution block replaced by
    :data:`CODE_STUB` (``ClearSolutions``), the hidden lines removed (``ClearHiddenTests``)."""
    lines = []
    for piece, block in split_blocks(source, where):
        lines.extend(CODE_STUB.split("\n") if piece else block)
    source = "\n".join(lines)
    lines = []
    for piece, block in split_blocks(source, where, HIDDEN_BEGIN, HIDDEN_END):
        if not piece:
            lines.extend(block)
    return "\n".join(lines)


def exercise_of(notebook):
    """The exercise version of a solution notebook (an ``nbformat`` notebook; a new object)."""
    exercise, _ = solution_form(notebook)
    for index, cell in enumerate(exercise.cells):
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
            cell.source = _release(cell.source, f"cell {index}")
        cell.metadata.pop("execution", None)
    exercise.metadata.pop("widgets", None)
    return exercise


def generate(solutions=SOLUTIONS, exercises=EXERCISES) -> list:
    """Bring every ``solutions/<name>.ipynb`` to the solution form (an older-form takeaway is
    refused: its text belongs in ``NOTES`` of ``tools/answer_keys/<name>.py``) and write
    ``exercises/<name>.ipynb`` where its cells change;
    returns the paths written.  An exercise notebook whose cells are already those generated is
    left as it is, stored outputs and all, so only what changed is executed again."""
    import nbformat
    exercises.mkdir(exist_ok=True)
    written = []
    for path in sorted(solutions.glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        solution, takeaways = solution_form(notebook)
        if takeaways:
            raise SolutionError(f"{path.name}: the takeaways of {', '.join(takeaways)} are "
                                f"cells tagged {SOLUTION_ONLY}, which nbgrader would release: "
                                f"move their text into NOTES of tools/answer_keys/"
                                f"{path.stem}.py")
        if _cells(solution) != _cells(notebook):
            _write(solution, path)
            written.append(path)
        target = exercises / path.name
        exercise = exercise_of(solution)
        if not target.exists() or _cells(exercise) != _cells(nbformat.read(target, as_version=4)):
            _write(exercise, target)
            written.append(target)
    return written


def _write(notebook, path: Path) -> None:
    import nbformat
    text = nbformat.writes(notebook, version=4)
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


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
        notebook = nbformat.read(solutions / name, as_version=4)
        if _cells(solution_form(notebook)[0]) != _cells(notebook):
            problems.append(f"solutions/{name} is not in the solution form (stubs, hidden "
                            f"checks, no {SOLUTION_ONLY} cells)")
        generated = exercise_of(notebook)
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
    sys.path.insert(0, str(ROOT / "tools"))
    written = generate()
    for path in written:
        print(f"wrote {path.relative_to(ROOT)}")
    if args.no_execute or not written:        # nothing written: nothing to execute again
        return 0
    import refresh_notebooks
    return refresh_notebooks.main([str(path) for path in written])


if __name__ == "__main__":
    sys.exit(main())
