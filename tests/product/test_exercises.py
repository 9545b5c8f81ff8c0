"""The notebooks of solutions/ and exercises/: one source of truth, and what their runs show.

``pytest --nbval`` (in the project's test command, see pyproject.toml) executes every notebook of
solutions/ and exercises/ afresh and fails when an output differs from the stored one.  The tests
here check what those stored outputs say, so together the two prove it of a fresh run: every
check of a solution notebook passes, and every check of an exercise notebook, run unchanged,
reports "not answered" without any cell failing.  They also check that exercises/ is exactly what
``tools/make_exercises.py`` generates from solutions/, and the nbgrader metadata.
"""

import re
import sys
from pathlib import Path

import nbformat
import pytest

from dynlab.grading import keys, questions

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import make_exercises  # noqa: E402

SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))
CHECK_CALL = re.compile(r'^check\("([^"]+)", .+\)$')     # the first line of a check cell


def _text(output) -> str:
    if output.output_type == "stream":
        return output.text
    return output.get("data", {}).get("text/plain", "")


def _grade_cells(notebook) -> list:
    return [cell for cell in notebook.cells
            if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("grade")]


def _errors(notebook) -> list:
    return [output for cell in notebook.cells if cell.cell_type == "code"
            for output in cell.outputs if output.output_type == "error"]


def test_there_are_at_least_14_exercises_in_solutions_and_exercises():
    assert len(SOLUTIONS) >= 1 and [p.name for p in SOLUTIONS] == [p.name for p in EXERCISES]
    total = sum(len(_grade_cells(nbformat.read(path, as_version=4))) for path in SOLUTIONS)
    assert total >= 14
    assert total == len(questions())


def test_committed_exercises_are_the_generated_ones():
    assert make_exercises.stale() == []


def test_an_edited_solution_makes_the_exercises_stale(tmp_path):
    solutions, exercises = tmp_path / "solutions", tmp_path / "exercises"
    solutions.mkdir()
    notebook = nbformat.read(SOLUTIONS[0], as_version=4)
    nbformat.write(notebook, solutions / SOLUTIONS[0].name)
    make_exercises.generate(solutions, exercises)
    assert make_exercises.stale(solutions, exercises) == []
    notebook.cells[0].source += "\nOne more sentence."
    nbformat.write(notebook, solutions / SOLUTIONS[0].name)
    assert make_exercises.stale(solutions, exercises) == [
        f"exercises/{SOLUTIONS[0].name} is out of date (cells 0 differ)"]


def test_generating_leaves_an_up_to_date_exercise_and_its_outputs_alone(tmp_path):
    """Only the exercise notebooks whose cells change are written (and so executed again): the
    committed ones, with their stored outputs, are left byte for byte."""
    solutions, exercises = tmp_path / "solutions", tmp_path / "exercises"
    solutions.mkdir()
    exercises.mkdir()
    for path in SOLUTIONS[:2]:
        (solutions / path.name).write_bytes(path.read_bytes())
        (exercises / path.name).write_bytes((path.parent.parent / "exercises" / path.name)
                                            .read_bytes())
    before = {path.name: path.read_bytes() for path in exercises.iterdir()}
    assert make_exercises.generate(solutions, exercises) == []
    assert {path.name: path.read_bytes() for path in exercises.iterdir()} == before
    notebook = nbformat.read(solutions / SOLUTIONS[0].name, as_version=4)
    notebook.cells[0].source += "\nOne more sentence."
    nbformat.write(notebook, solutions / SOLUTIONS[0].name)
    assert make_exercises.generate(solutions, exercises) == [exercises / SOLUTIONS[0].name]
    assert (exercises / SOLUTIONS[1].name).read_bytes() == before[SOLUTIONS[1].name]


def test_a_solution_block_becomes_a_stub_of_the_names_the_notebook_uses():
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("x = 1"),
        nbformat.v4.new_code_cell("### BEGIN SOLUTION\nhelper = 2\nD, h = helper, x\n"
                                  "### END SOLUTION\nD",
                                  metadata={"nbgrader": {"solution": True}}),
        nbformat.v4.new_code_cell('check("q", (D, h))')])
    exercise = make_exercises.exercise_of(notebook)
    assert exercise.cells[1].source == (f"{make_exercises.STUB_COMMENT}\nD = ...\nh = ...\n\nD")
    solution, _ = make_exercises.solution_form(notebook)
    assert solution.cells[1].source == (f"{make_exercises.STUB_COMMENT}\nD = ...\nh = ...\n"
                                        + notebook.cells[1].source)
    assert make_exercises.solution_form(solution)[0] == solution        # the form is stable
    assert exercise.cells[0].source == "x = 1" and exercise.cells[2].source == 'check("q", (D, h))'
    notebook.cells[2].metadata = {"nbgrader": {"grade": True}}
    assert make_exercises.solution_form(notebook)[0].cells[2].source.split("\n") == [
        'check("q", (D, h))'] + make_exercises.hidden_check("q", "(D, h)")
    assert make_exercises.exercise_of(notebook).cells[2].source == 'check("q", (D, h))'
    notebook.cells[1].metadata = {}
    with pytest.raises(make_exercises.SolutionError, match="without nbgrader metadata"):
        make_exercises.exercise_of(notebook)


@pytest.mark.parametrize("path", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_nbgrader_metadata_and_points_match_the_keys(path):
    notebook = nbformat.read(path, as_version=4)
    checked = []
    for cell in _grade_cells(notebook):
        match = CHECK_CALL.match(cell.source.strip().split("\n")[0])
        assert match, cell.source
        assert cell.source.split("\n")[1:] == make_exercises.hidden_check(
            match.group(1), match.group(0)[len(f'check("{match.group(1)}", '):-1])
        question = match.group(1)
        meta = cell.metadata["nbgrader"]
        assert meta["grade_id"] == "check-" + question.replace(".", "_")
        assert meta["points"] == keys()[question]["points"] and meta["locked"]
        assert keys()[question]["notebook"] == path.stem
        checked.append(question)
    assert checked == questions(path.stem)                # every question, in the keys' order
    ids = [cell.metadata["nbgrader"]["grade_id"] for cell in notebook.cells
           if "nbgrader" in cell.metadata]
    assert len(ids) == len(set(ids)) and all(re.fullmatch(r"[A-Za-z0-9_-]+", i) for i in ids)
    solution_cells = [cell for cell in notebook.cells
                      if cell.metadata.get("nbgrader", {}).get("solution")]
    assert len(solution_cells) == len(checked)
    assert all(make_exercises.BEGIN in cell.source for cell in solution_cells)


@pytest.mark.parametrize("path", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_every_check_of_a_solution_notebook_passes(path):
    notebook = nbformat.read(path, as_version=4)
    assert not _errors(notebook)
    for cell in _grade_cells(notebook):
        question = CHECK_CALL.match(cell.source.strip().split("\n")[0]).group(1)
        shown = "".join(_text(output) for output in cell.outputs)
        points = keys()[question]["points"]
        assert shown.startswith(f"{question}  ✓ {points}/{points} points: correct"), shown
        # the hidden check's value: nbgrader's points for the cell
        results = [o for o in cell.outputs if o.output_type == "execute_result"]
        assert [float(o.data["text/plain"]) for o in results] == [points]
        assert not [o for o in cell.outputs if o.output_type == "stream"]
    total = sum(keys()[q]["points"] for q in questions(path.stem))
    summary = "".join(_text(output) for output in notebook.cells[-1].outputs)
    assert summary.startswith(f"Score for {path.stem}: {total}/{total} points")


@pytest.mark.parametrize("path", EXERCISES, ids=[p.stem for p in EXERCISES])
def test_every_check_of_an_unchanged_exercise_notebook_reports_not_answered(path):
    notebook = nbformat.read(path, as_version=4)
    assert not _errors(notebook)
    assert all(cell.execution_count is not None for cell in notebook.cells
               if cell.cell_type == "code"), "the exercise notebook was not executed"
    for cell in _grade_cells(notebook):
        question = CHECK_CALL.match(cell.source.strip()).group(1)
        shown = "".join(_text(output) for output in cell.outputs)
        points = keys()[question]["points"]
        assert shown.startswith(f"{question}  ✗ 0/{points} points -- not answered yet"), shown
        assert "HIDDEN" not in cell.source
    for cell in notebook.cells:
        if cell.metadata.get("nbgrader", {}).get("solution"):
            assert make_exercises.BEGIN not in cell.source
            assert "### BEGIN" not in cell.source and "= ..." in cell.source
    total = sum(keys()[q]["points"] for q in questions(path.stem))
    summary = "".join(_text(output) for output in notebook.cells[-1].outputs)
    assert summary.startswith(f"Score for {path.stem}: 0/{total} points")
    assert summary.count("not answered") == len(questions(path.stem))


def test_solution_only_cells_are_left_out_of_the_exercise():
    """The older form's takeaway cell (after a check cell) moves to the key's takeaway; any other
    solution_only cell is refused, since nbgrader would release it."""
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("### BEGIN SOLUTION\nx = 1\n### END SOLUTION",
                                  metadata={"nbgrader": {"solution": True}}),
        nbformat.v4.new_code_cell('check("q", x)', metadata={"nbgrader": {"grade": True}}),
        nbformat.v4.new_markdown_cell("x is 1, of course.",
                                      metadata={"tags": [make_exercises.SOLUTION_ONLY]})])
    exercise = make_exercises.exercise_of(notebook)
    assert [cell.source for cell in exercise.cells] == [
        f"{make_exercises.STUB_COMMENT}\nx = ...\n", 'check("q", x)']
    solution, takeaways = make_exercises.solution_form(notebook)
    assert takeaways == {"q": "x is 1, of course."} and len(solution.cells) == 2
    notebook.cells.append(nbformat.v4.new_code_cell(
        "y = x + 1", metadata={"tags": [make_exercises.SOLUTION_ONLY]}))
    with pytest.raises(make_exercises.SolutionError, match="nbgrader would release it"):
        make_exercises.exercise_of(notebook)


#: text of the solutions that states an answer (review of the exercises): none of it may appear in
#: an exercise notebook
ANSWER_TEXTS = [
    "centripetal acceleration $-w^2(3t, 2t, 0)$",                            # 3.3
    "\\frac{2}{3}Ma^2",                                                   # 3.5
    "\\frac{8}{3}Ma^2",
    "off it $-M d_x d_y a^2$",
    "parallel-axis part and all",                                          # 3.7
    "$D_{22} = m_2 \\rho_2^2 d_2^2$",                                         # 3.16c
    "d_1^2 + \\rho_2^2 d_2^2 + 2 \\rho_2 d_1 d_2 \\cos\\theta_2",
    "$h_1 = 2 m_2 (d + e)\\,\\dot\\theta\\dot d$",                            # 3.18
    "$h_2 = -m_2 (d + e)\\,\\dot\\theta^2$",
    "D_{11} = m_1 r_1^2 + m_2 (d + e)^2",
    "they are the $j$-th column of $\\mathbf D$",                              # 3.11
    "only gravity is left, so the\ntorques are $\\mathbf c$",
    "probing a Newton-Euler routine costs $n$ times",                       # 3.12
    "with_payload(arm, Mp, at=(-(1 - rho) * l2, 0, 0))",                   # Mp
    "The payload's share is exactly that of the point mass",
    "N_{21} = -N_{12}",                                                     # 9.1
    "$C^1 = 0$",                                                            # 6-4-1
]


#: task texts that gave the method away (3.11's probes, 3.2's split): trimmed everywhere
TRIMMED_TASK_TEXTS = [
    "with gravity switched on or off",                                      # 3.11
    "$\\mathbf{a} = \\mathbf{a}^* + \\mathbf{a}_h$",                                # 3.2
]


@pytest.mark.parametrize("path", EXERCISES, ids=[p.stem for p in EXERCISES])
def test_no_exercise_notebook_states_an_answer(path):
    text = "\n".join(cell.source for cell in nbformat.read(path, as_version=4).cells)
    assert [answer for answer in ANSWER_TEXTS + TRIMMED_TASK_TEXTS if answer in text] == []


def test_the_answer_texts_are_in_the_solutions():
    """The strings above are the solutions' own (so the test above is not vacuous): in their
    cells, or in the takeaways their checks show once the answer is right."""
    text = "\n".join(cell.source + "".join(_text(output) for output in cell.get("outputs", []))
                     for path in SOLUTIONS for cell in nbformat.read(path, as_version=4).cells)
    assert [answer for answer in ANSWER_TEXTS if answer not in text] == []


def test_no_solution_notebook_has_a_cell_nbgrader_would_release_with_an_answer():
    for path in SOLUTIONS:
        for cell in nbformat.read(path, as_version=4).cells:
            assert make_exercises.SOLUTION_ONLY not in cell.metadata.get("tags", []), path.name


def test_the_key_template_builds_a_key_the_checker_grades():
    """tools/answer_keys/_template.py, the one small file of a new question's key."""
    import importlib.util

    import sympy

    from dynlab.grading import check
    from dynlab.grading import keys as loaded_keys
    spec = importlib.util.spec_from_file_location(
        "template", ROOT / "tools" / "answer_keys" / "_template.py")
    template = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(template)
    key, = template.keys()
    m1, a1, g = sympy.symbols("m1 a1 g", positive=True)
    q1 = sympy.Symbol("q1", real=True)
    loaded_keys()[key["id"]] = key
    try:
        assert check(key["id"], m1 * g * a1 * sympy.cos(q1) / 2).correct
        wrong = check(key["id"], -m1 * g * a1 * sympy.cos(q1) / 2)
        assert not wrong.correct and "+c(q), not -c(q)" in str(wrong)
    finally:
        del loaded_keys()[key["id"]]
