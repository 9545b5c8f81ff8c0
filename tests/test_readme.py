"""The README's promises: its commands are the CI's; the errata page's table is the register's; the
exercises' README describes them as chapter 00 does."""

import json
import re
from pathlib import Path

from dynlab.teaching.bibliography import markdown as bibliography
from dynlab.teaching.errata import markdown_table

ROOT = Path(__file__).resolve().parents[1]


def test_the_errata_page_is_the_register():
    text = (ROOT / "docs" / "errata.md").read_text()
    table = text.split("<!-- errata:begin -->")[1].split("<!-- errata:end -->")[0]
    assert table.strip() == markdown_table().strip()
    assert bibliography() in text                                # the texts it cites


def test_readme_opens_with_the_two_commands_and_ci_runs_the_test_command():
    text = (ROOT / "README.md").read_text()
    block = text.split("```")[1]
    commands = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert commands == ["python3 workbook.py open", "python3 workbook.py test"]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "\npython3 workbook.py test\n" in ci


#: a row of the exercises' table: | `08_your_own_robot` | after chapter | what it practises |
EXERCISE_ROW = re.compile(r"^\| `(\d\d_\w+)` \| (.+?) \| (.+?) \|$", re.MULTILINE)


def test_the_exercises_are_listed_alike_in_chapter_00_and_their_readme():
    """A student finds the exercises described twice, in chapter 00 and in exercises/README.md:
    the two tables say the same of each exercise, and they list every exercise notebook."""
    cells = json.loads((ROOT / "notebooks" / "00_start_here.ipynb").read_text())["cells"]
    chapter = "\n".join("".join(cell["source"]) for cell in cells
                        if cell["cell_type"] == "markdown")
    readme = (ROOT / "exercises" / "README.md").read_text()
    in_chapter, in_readme = EXERCISE_ROW.findall(chapter), EXERCISE_ROW.findall(readme)
    assert in_chapter == in_readme
    assert [name for name, _, _ in in_readme] == sorted(
        path.stem for path in (ROOT / "exercises").glob("*.ipynb"))
