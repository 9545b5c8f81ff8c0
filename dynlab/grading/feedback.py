"""The feedback pages of ``dynlab grade``: ``grades.feedback/<student>.html`` beside the gradebook
(folder 700, pages 600), ready to hand back.

A page gives, question by question, the points part by part, what the student's own ``check()``
says, and the takeaway (all points) or the hint.  It holds nothing of a classmate and not the
graded values; every text is escaped and nothing is loaded or run.
"""

from __future__ import annotations

import html
import os
import shutil
import tempfile
from pathlib import Path

STYLE = ("body{font-family:sans-serif;max-width:52em;margin:2em auto;line-height:1.4}"
         "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.3em .6em;"
         "text-align:left;vertical-align:top}.ungraded{background:#fce8e6;padding:.5em}"
         "code{background:#f1f3f4}")


def folder_of(out) -> Path:
    """The folder of feedback files beside the gradebook ``out``.

    >>> folder_of("marks/grades.csv").as_posix()
    'marks/grades.feedback'
    """
    base = Path(out).with_suffix("")
    return base.with_name(f"{base.name}.feedback")


def check_folder(out) -> None:
    """Refuse (ValueError) a gradebook path ``out`` whose feedback folder exists and is not one
    that :func:`write` made (a folder of pages ``*.html`` only): a run replaces that folder as a
    whole, so nothing else may be in it.  Checked before grading."""
    target = folder_of(out)
    if not os.path.lexists(target):
        return
    if target.is_symlink() or not target.is_dir():
        foreign = True
    else:
        with os.scandir(target) as entries:
            foreign = any(not (entry.name.endswith(".html")
                               and entry.is_file(follow_symlinks=False)) for entry in entries)
    if foreign:
        raise ValueError(f"the feedback folder {target}, which grading replaces, holds more "
                         f"than feedback pages; move it, or name another gradebook (--out)")


def write(book, out) -> Path:
    """Write a page for every student of ``book`` (:class:`dynlab.grading.grader.Gradebook`)
    into :func:`folder_of` ``out``, replacing the pages of an earlier run; returns the folder.
    The pages are written into a new private folder (mode 700, each page 600) renamed into
    place once complete."""
    target = folder_of(out)
    fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        for student in book.rows:
            handle = os.open(fresh / f"{student}.html",
                             os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            with open(handle, "w", encoding="utf-8") as page:
                page.write(page_of(book, student))
        if os.path.lexists(target):
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
            os.replace(target, old / "feedback")
            shutil.rmtree(old, ignore_errors=True)
        os.replace(fresh, target)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    return target


def page_of(book, student: str) -> str:
    """The HTML page of ``student``."""
    from dynlab.grading.keys import keys, note
    e, n = html.escape, points_text
    top = sum(book.maximum.values())
    kind = ("Marks, graded at your graded values: numbers other than those your notebook "
            "showed you while you worked, which only <code>given</code> holds"
            if book.summative else
            "Practice grades (formative), at the values your notebook showed you")
    body = [f"<h1>Feedback for {e(student)}</h1>",
            f"<p><strong>{n(book.total(student))} of {n(top)} points.</strong> {kind}.</p>"]
    own = [result for result in book.results if result.student == student]
    skipped = [r for r in own if r.notebook not in book.exercises]
    for notebook, asked in book.exercises.items():
        results = [r for r in own if r.notebook == notebook]
        got = sum(book.rows[student][c] for c in book.columns if c[0] in asked)
        most = sum(book.maximum[c] for c in book.columns if c[0] in asked)
        body.append(f"<h2>{e(notebook)}: {n(got)} of {n(most)} points</h2>")
        if not results:
            body.append("<p class='ungraded'>" + (
                "<strong>Your notebook of this exercise could not be graded</strong> (it was "
                "not read), so it scores 0: the files not graded are listed at the end, with "
                "why."
                if skipped else "Not handed in: no notebook of this exercise was found in "
                                "your submission.") + "</p>")
            continue
        result = results[0]
        if result.ungraded:
            body.append("<p class='ungraded'><strong>Your notebook could not be graded</strong>"
                        " (it handed out no answer), so every question below shows 0 points. "
                        "Why:</p>" + _list(result.reasons))
            continue
        rows = []
        for question in asked:
            parts = {p: (book.rows[student][(q, p)], book.maximum[(q, p)])
                     for q, p in book.columns if q == question}
            points = ", ".join(f"{e(p)} {n(a)}/{n(b)}" for p, (a, b) in parts.items() if p)
            earned = sum(a for a, _ in parts.values())
            full = sum(b for _, b in parts.values())
            found = result.diagnosis.get(question) or ["no answer was handed out"]
            key = keys()[question]
            text, which = ((note(key, "takeaway"), "Takeaway") if earned == full else
                           (note(key, "hint"), "Hint"))
            rows.append(f"<tr><td>{e(question)}</td><td>{n(earned)} of {n(full)}"
                        f"{f' ({points})' if len(parts) > 1 else ''}</td>"
                        f"<td>{'<br>'.join(e(line) for line in found)}"
                        f"{f'<p><em>{which}.</em> {_markdown(text)}</p>' if text else ''}"
                        f"</td></tr>")
        body.append("<table><tr><th>question</th><th>points</th><th>what the grader found"
                    "</th></tr>" + "".join(rows) + "</table>")
        said = [r for r in result.reasons
                if not any(r.startswith(f"{question}: ") for question in asked)]
        if said:
            body.append("<p>While your notebook ran:</p>" + _list(said))
    if skipped:
        body.append("<h2>Files not graded</h2>"
                    + _list([f"{r.path}: {reason}" for r in skipped for reason in r.reasons]))
    return (f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<title>Feedback for {e(student)}</title><style>{STYLE}</style></head>"
            f"<body>{''.join(body)}</body></html>\n")


def points_text(value: float) -> str:
    return f"{round(value, 6):g}"


def _list(lines: list) -> str:
    return "<ul>" + "".join(f"<li>{html.escape(line)}</li>" for line in lines) + "</ul>"


def _markdown(text: str) -> str:
    """A hint's or takeaway's Markdown as HTML: escaped, `code` as code.

    >>> print(_markdown("put in `given['zeta']` <b>"))
    put in <code>given[&#x27;zeta&#x27;]</code> &lt;b&gt;
    """
    pieces = html.escape(text).split("`")
    return "".join(f"<code>{p}</code>" if k % 2 else p for k, p in enumerate(pieces))
