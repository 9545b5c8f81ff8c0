"""The README's promises: its commands are the CI's; the errata page's table is the register's."""

from pathlib import Path

from dynlab.teaching.errata import markdown_table

ROOT = Path(__file__).resolve().parents[1]


def test_the_errata_page_is_the_register():
    text = (ROOT / "docs" / "errata.md").read_text()
    table = text.split("<!-- errata:begin -->")[1].split("<!-- errata:end -->")[0]
    assert table.strip() == markdown_table().strip()


def test_readme_opens_with_the_two_commands_and_ci_runs_the_test_command():
    text = (ROOT / "README.md").read_text()
    block = text.split("```")[1]
    commands = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert commands == ["python3 workbook.py open", "python3 workbook.py test"]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "\npython3 workbook.py test\n" in ci
