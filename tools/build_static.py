"""Build the static edition of the chapters: one HTML page per notebook of ``notebooks/``, to read
in any browser without installing anything.

    .venv/bin/python tools/build_static.py --out site/ [--hub-url https://hub.example.edu]

The pages are made by nbconvert (its "lab" template, extended in
``tools/static_edition/dynlab_static/``) from the notebooks as they are stored: nothing is run,
the pictures are the stored PNG outputs, embedded in the page.  The mathematics is typeset in the
reader's browser by MathJax 3, copied into the site from npm's ``mathjax`` package
(``deploy/node_modules``: ``npm ci --prefix deploy``), so no page reaches the network.  Each page
has a bar to the contents, the chapters before and after, and a link that opens the chapter on
a hub: ``HUB/hub/user-redirect/lab/tree/PATH/CHAPTER.ipynb``, where ``--hub-url`` names the hub
and ``--hub-path`` the folder of the chapters in a student's home.  ``site/index.html`` lists the
chapters.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import sys
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
TEMPLATES = ROOT / "tools" / "static_edition"
MATHJAX = ROOT / "deploy" / "node_modules" / "mathjax" / "es5" / "tex-svg-full.js"
#: The one-machine hub of deploy/hub/ with the workbook cloned into each home as dynlab/
DEFAULT_HUB_URL = "http://localhost:8000"
DEFAULT_HUB_PATH = "dynlab/notebooks"


def chapter_title(notebook: Path) -> str:
    """The first Markdown heading of ``notebook`` (without its ``#``), else its file name."""
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for line in "".join(cell["source"]).splitlines():
            if line.startswith("#"):
                return line.lstrip("#").strip()
    return notebook.stem


def inline_math_on_one_line(markdown: str) -> str:
    r"""``markdown`` with each inline equation (``$...$``) that spans lines joined into one line.

    JupyterLab takes the mathematics out before it reads the Markdown, but nbconvert reads the
    Markdown first: an equation continued on a line that starts with ``+`` or ``-`` would become
    a list there.  TeX reads a line break as a space, so the equation is unchanged.  Code (fenced
    or in backquotes) and display equations (``$$``) are left alone.

    >>> inline_math_on_one_line("a $x\n+ y$ b `$c\nd$`\n$$e\nf$$")
    'a $x + y$ b `$c\nd$`\n$$e\nf$$'
    """
    pieces = re.split(r"(```.*?```|`[^`]*`|\$\$.*?\$\$|(?<!\\)\$(?:[^$\\]|\\.)+?\$)",
                      markdown, flags=re.DOTALL)
    return "".join(piece.replace("\n", " ") if piece.startswith("$") and
                   not piece.startswith("$$") else piece for piece in pieces)


def hub_link(hub_url: str, hub_path: str, notebook: Path) -> str:
    """The address that opens ``notebook`` in JupyterLab on the hub.

    >>> hub_link("https://hub.example.edu/", "dynlab/notebooks", Path("01_x.ipynb"))
    'https://hub.example.edu/hub/user-redirect/lab/tree/dynlab/notebooks/01_x.ipynb'
    """
    path = "/".join(part for part in (hub_path.strip("/"), notebook.name) if part)
    return f"{hub_url.rstrip('/')}/hub/user-redirect/lab/tree/{quote(path)}"


def build(out: Path, hub_url: str = DEFAULT_HUB_URL, hub_path: str = DEFAULT_HUB_PATH,
          notebooks=None) -> list:
    """Write the site into ``out``; returns the pages written (``index.html`` first)."""
    import nbformat
    from nbconvert import HTMLExporter

    if not MATHJAX.exists():
        raise SystemExit(f"MathJax is missing ({MATHJAX.relative_to(ROOT)}): run "
                         f"`npm ci --prefix deploy` first")
    chapters = sorted(notebooks or NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    if not chapters:
        raise SystemExit(f"no chapters found in {NOTEBOOKS}")
    out.mkdir(parents=True, exist_ok=True)
    (out / "mathjax").mkdir(exist_ok=True)
    shutil.copy(MATHJAX, out / "mathjax" / MATHJAX.name)
    exporter = HTMLExporter(template_name="dynlab_static",
                            extra_template_basedirs=[str(TEMPLATES)])
    titles = [chapter_title(path) for path in chapters]
    pages = []
    for number, path in enumerate(chapters):
        def neighbour(k):
            return ({"href": f"{chapters[k].stem}.html", "title": titles[k]}
                    if 0 <= k < len(chapters) else None)
        resources = {"metadata": {"name": titles[number]},
                     "dynlab": {"mathjax": f"mathjax/{MATHJAX.name}",
                                "previous": neighbour(number - 1),
                                "next": neighbour(number + 1),
                                "hub_link": hub_link(hub_url, hub_path, path)}}
        notebook = nbformat.read(path, as_version=4)
        for cell in notebook.cells:
            if cell.cell_type == "markdown":
                cell.source = inline_math_on_one_line(cell.source)
        body, _ = exporter.from_notebook_node(notebook, resources=resources)
        page = out / f"{path.stem}.html"
        page.write_text(body, encoding="utf-8")
        pages.append(page)
    items = "\n".join(f'  <li><a href="{p.name}">{html.escape(t)}</a></li>'
                      for p, t in zip(pages, titles))
    index = out / "index.html"
    index.write_text(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1.0\">\n"
        "<title>dynlab: robot-arm dynamics, the chapters</title>\n"
        "<style>body { font-family: sans-serif; max-width: 46em; margin: 2em auto; "
        "line-height: 1.5; }</style>\n</head>\n<body>\n"
        "<h1>dynlab: robot-arm dynamics</h1>\n"
        "<p>The workbook's chapters as they read after a run: derivations, tables and "
        "pictures. To run them and move the sliders, open a chapter on the course's hub "
        f"(<a href=\"{html.escape(hub_url)}\">{html.escape(hub_url)}</a>) or on your own "
        "computer with <code>python3 workbook.py open</code>.</p>\n"
        f"<ol start=\"0\">\n{items}\n</ol>\n</body>\n</html>\n", encoding="utf-8")
    return [index, *pages]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "site",
                        help="the folder to write (default site/)")
    parser.add_argument("--hub-url", default=DEFAULT_HUB_URL,
                        help=f"the hub the 'open on the hub' links go to (default "
                             f"{DEFAULT_HUB_URL})")
    parser.add_argument("--hub-path", default=DEFAULT_HUB_PATH,
                        help="the chapters' folder in a student's home on the hub (default "
                             f"{DEFAULT_HUB_PATH})")
    args = parser.parse_args(argv)
    pages = build(args.out, args.hub_url, args.hub_path)
    print(f"wrote {len(pages)} pages to {args.out}/ (open {args.out / 'index.html'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
