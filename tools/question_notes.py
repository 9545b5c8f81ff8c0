"""Read and write ``tools/question_notes.md``: the hint and the takeaway of each graded question.

``tools/make_answer_keys.py`` seals them into the keys (:func:`dynlab.grading.authoring.seal_notes`);
``tools/make_exercises.py`` moves a takeaway still written in a solution notebook (a markdown cell
tagged ``solution_only`` right after a check cell, the older form) into the file.

>>> text = "# Notes\\n\\n## 3.16c\\n### hint\\nStart here.\\n### takeaway\\nD is 2x2.\\n"
>>> parse(text)
{'3.16c': {'hint': 'Start here.', 'takeaway': 'D is 2x2.'}}
>>> parse(render(parse(text), preamble="# Notes")) == parse(text)
True
"""

from __future__ import annotations

import re
from pathlib import Path

NOTES_FILE = Path(__file__).resolve().parent / "question_notes.md"
KINDS = ("hint", "takeaway")


def parse(text: str) -> dict:
    """``{question: {"hint": text, "takeaway": text}}`` from the Markdown of the notes file."""
    notes, question, kind, lines = {}, None, None, []

    def flush():
        if question is not None and kind is not None and "\n".join(lines).strip():
            notes.setdefault(question, {})[kind] = "\n".join(lines).strip()

    for line in text.split("\n"):
        heading = re.fullmatch(r"(#{2,3}) (.+?)\s*", line)
        if heading and len(heading.group(1)) == 2:
            flush()
            question, kind, lines = heading.group(2), None, []
        elif heading and heading.group(2) in KINDS and question is not None:
            flush()
            kind, lines = heading.group(2), []
        else:
            lines.append(line)
    flush()
    return notes


def preamble(text: str) -> str:
    """The part of the file before its first question."""
    return re.split(r"^## ", text, maxsplit=1, flags=re.M)[0].rstrip()


def render(notes: dict, preamble: str = "") -> str:
    parts = [preamble.rstrip()] if preamble else []
    for question, texts in notes.items():
        section = [f"## {question}"]
        for kind in KINDS:
            if texts.get(kind):
                section += [f"### {kind}", texts[kind]]
        parts.append("\n".join(section))
    return "\n\n".join(parts) + "\n"


def read(path: Path = NOTES_FILE) -> dict:
    return parse(path.read_text(encoding="utf-8")) if path.exists() else {}


def add_takeaways(takeaways: dict, path: Path = NOTES_FILE) -> None:
    """Add ``{question: text}`` as takeaways to the file (a question's existing takeaway stays)."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Hints and takeaways\n"
    notes = parse(text)
    for question, takeaway in takeaways.items():
        notes.setdefault(question, {}).setdefault("takeaway", takeaway.strip())
    path.write_text(render(notes, preamble(text)), encoding="utf-8")
