"""The committed notebooks are stored as a reader should meet them: executed, tidy, no widget state.

``pytest --nbval`` (in the test command) checks that a fresh run reproduces the stored outputs;
these checks make sure there *are* stored outputs to compare, and that nothing that changes on
every run, or that cannot be shown without a kernel, is committed
(``tools/refresh_notebooks.py`` writes them this way).
"""

import ast
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(p for folder in ("notebooks", "solutions", "exercises")
                   for p in (ROOT / folder).glob("*.ipynb"))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def test_the_workbook_has_its_chapters():
    names = {p.name for p in NOTEBOOKS if p.parent.name == "notebooks"}
    assert {"00_start_here.ipynb", "01_one_link_pendulum.ipynb", "02_two_link_planar.ipynb",
            "03_scara.ipynb", "04_puma560.ipynb"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_notebook_is_stored_executed_and_tidy(path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    assert "widgets" not in notebook.metadata, "widget state is committed: run refresh_notebooks"
    code = [cell for cell in notebook.cells if cell.cell_type == "code" and cell.source.strip()]
    assert code, "a notebook without code"
    counts = [cell.execution_count for cell in code]
    if path.parent.name == "exercises" and counts == [None] * len(counts):
        counts = []                  # handed out blank; tests/grading/test_grading.py runs them
    assert None not in counts, f"cells not executed: {counts.count(None)} of {len(counts)}"
    assert counts == list(range(1, len(counts) + 1)) or not counts, \
        "not executed top to bottom in one run"
    for cell in code:
        assert "execution" not in cell.metadata
        for output in cell.get("outputs", []):
            assert WIDGET_VIEW not in output.get("data", {}), cell.source[:60]
            assert output.output_type != "error", cell.source[:60]


def nbval_markers(source: str) -> list:
    """The comment lines of a cell that mention an nbval marker, stripped."""
    return [line.strip() for line in source.splitlines()
            if line.strip().startswith("#") and "nbval" in line.lower()]


def test_marker_check_catches_a_marker_with_trailing_text():
    # nbval compares the whole comment: text after the marker switches it off silently
    from nbval.plugin import comment_markers
    source = "# NBVAL_IGNORE_OUTPUT  (widgets)\nx = 1\n"
    assert [m for m in nbval_markers(source)
            if m.lstrip("#").strip() not in comment_markers] == [source.splitlines()[0]]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_nbval_marker_is_one_nbval_recognises(path):
    """A marker comment or tag that nbval does not know would leave an output checked."""
    from nbval.plugin import comment_markers, metadata_tags
    notebook = nbformat.read(path, as_version=4)
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        for marker in nbval_markers(cell.source):
            assert marker.lstrip("#").strip() in comment_markers, \
                f"cell {index}: {marker!r} is not a marker nbval recognises"
        for tag in cell.metadata.get("tags", []):
            if tag.lower().startswith("nbval"):
                assert tag in metadata_tags, f"cell {index}: tag {tag!r} is unknown to nbval"


# -- chapters 01 and 02 (the pendulum, the two-link arm): chapters that teach -------------------
TEACHING_CHAPTERS = [ROOT / "notebooks" / name for name in
                     ("01_one_link_pendulum.ipynb", "02_two_link_planar.ipynb")]


def markdown_share(notebook) -> float:
    """Characters of markdown cell sources over characters of all cell sources."""
    total = sum(len(cell.source) for cell in notebook.cells)
    return sum(len(cell.source) for cell in notebook.cells
               if cell.cell_type == "markdown") / total


def test_markdown_share_counts_characters():
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("abc"),
                                               nbformat.v4.new_code_cell("x")])
    assert markdown_share(notebook) == 0.75


@pytest.mark.parametrize("path", TEACHING_CHAPTERS, ids=lambda p: p.name)
def test_teaching_chapter_is_mostly_prose_with_questions_before_answers(path):
    notebook = nbformat.read(path, as_version=4)
    assert markdown_share(notebook) > 0.5
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    first = [line.strip() for line in code[0].source.splitlines() if line.strip()]
    assert all(line.startswith(("import ", "from ", "%")) for line in first), \
        "the first code cell holds imports only"
    questions = [k for k, cell in enumerate(notebook.cells)
                 if cell.cell_type == "markdown" and "Predict before you" in cell.source]
    assert len(questions) >= 3
    for k in questions:
        cell = notebook.cells[k]
        assert "<details><summary>" in cell.source and "</details>" in cell.source, k
        assert notebook.cells[k + 1].cell_type == "code", \
            f"cell {k}: a question's answer is folded just before the cell that shows it"


# -- the chapters' text and code as a reader meets them ------------------------------------------
CHAPTERS = sorted((ROOT / "notebooks").glob("*.ipynb"))
#: a chapter code cell longer than this many lines is long ...
LONG_CELL_LINES = 15
#: ... and the chapters hold at most this many long cells in all (the rest lives in dynlab)
LONG_CELLS_ALLOWED = 5


def code_lines(source: str) -> int:
    """The lines of a cell's code that compute: trailing blank lines, IPython's ``%`` magics
    and import statements (a chapter imports each name from its home) not counted."""
    lines = source.rstrip().splitlines()
    plain = "\n".join("" if line.lstrip().startswith("%") else line for line in lines)
    try:
        tree = ast.parse(plain)
    except SyntaxError:
        return len(lines)
    imports = sum(node.end_lineno - node.lineno + 1 for node in tree.body
                  if isinstance(node, (ast.Import, ast.ImportFrom)))
    magics = sum(line.lstrip().startswith("%") for line in lines)
    return len(lines) - imports - magics


def long_code_cells(paths) -> list:
    """``[(notebook name, cell index, lines)]``: the code cells with more than
    :data:`LONG_CELL_LINES` lines of :func:`code_lines`."""
    found = []
    for path in paths:
        for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
            lines = code_lines(cell.source)
            if cell.cell_type == "code" and lines > LONG_CELL_LINES:
                found.append((path.name, index, lines))
    return found


def test_long_cell_count_counts_code_lines_only(tmp_path):
    path = tmp_path / "x.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("\n".join(["x = 1"] * 16)),
        nbformat.v4.new_code_cell("\n".join(["x = 1"] * 15) + "\n\n\n"),
        nbformat.v4.new_code_cell("%matplotlib inline\n" + "\n".join(["import os"] * 10)
                                  + "\nfrom os import (path,\n    sep)\n"
                                  + "\n".join(["x = 1"] * 15)),
        nbformat.v4.new_markdown_cell("\n".join(["text"] * 40))]), path)
    assert long_code_cells([path]) == [("x.ipynb", 0, 16)]


def test_chapters_keep_their_helpers_in_the_library():
    long = long_code_cells(CHAPTERS)
    assert len(long) <= LONG_CELLS_ALLOWED, \
        f"{len(long)} chapter code cells longer than {LONG_CELL_LINES} lines: {long}"


def continued_lines_of_inline_math(markdown: str) -> list:
    """The lines of ``markdown`` that continue an inline equation (``$...$`` over several lines)
    and start with ``+`` or ``-``: Markdown read before the mathematics (nbconvert, the static
    edition) takes such a line for a list item.

    >>> continued_lines_of_inline_math("a $x\\n+ y$ b\\n$$e\\n- f$$\\n- item")
    ['+ y$ b']
    """
    import re
    pieces = re.split(r"(```.*?```|`[^`]*`|\$\$.*?\$\$|(?<!\\)\$(?:[^$\\]|\\.)+?\$)",
                      markdown, flags=re.DOTALL)
    found, offset = [], 0
    for piece in pieces:
        if piece.startswith("$") and not piece.startswith("$$"):
            for k, char in enumerate(piece):
                line = markdown[offset + k + 1:].split("\n", 1)[0]
                if char == "\n" and line.lstrip().startswith(("+", "-")):
                    found.append(line)
        offset += len(piece)
    return found


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_no_inline_equation_continues_on_a_line_starting_with_a_sign(path):
    for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
        if cell.cell_type == "markdown":
            assert continued_lines_of_inline_math(cell.source) == [], f"cell {index}"


def unknown_library_paths(text: str) -> list:
    """The dotted paths ``dynlab.x.y`` named in ``text`` that the library does not have: no
    module of that name, nor a name defined in the longest module the path starts with.

    >>> unknown_library_paths("see `dynlab.teaching.errata.errata_table` and dynlab.properties")
    ['dynlab.properties']
    """
    import importlib
    import re
    unknown = []
    for path in dict.fromkeys(re.findall(r"\bdynlab(?:\.[A-Za-z_]\w*)+", text)):
        parts = path.split(".")
        for k in range(len(parts), 0, -1):
            try:
                found = importlib.import_module(".".join(parts[:k]))
            except ModuleNotFoundError:
                continue
            for name in parts[k:]:
                found = getattr(found, name, None)
            if found is None:
                unknown.append(path)
            break
    return unknown


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_library_path_a_notebook_names_exists(path):
    """A reader who looks up a module or function a notebook names finds it."""
    cells = nbformat.read(path, as_version=4).cells
    assert unknown_library_paths("\n".join(cell.source for cell in cells)) == []
