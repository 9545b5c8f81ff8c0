"""Pictures of the chapters as a student sees them: each chapter notebook is opened in JupyterLab
in headless Chromium, all its cells are run, and the output of every dashboard cell and of the
chapter's derivation (the one cell tagged ``derivation-picture`` in its metadata, below the text
that leads to it) is photographed. ``tests/product/test_chapter_pictures.py`` takes them in the
browser tests (into ``test-artifacts/``); ``tools/make_screenshots.py`` takes the same ones into
``docs/pictures/`` and writes the gallery ``docs/pictures.md``.
"""

from __future__ import annotations

import ast
import io
import json
import time
from pathlib import Path

from .test_browser import KERNEL_SECONDS, NOTEBOOKS, open_notebook, python_source

#: the tag that marks a chapter's derivation cell (its output is photographed)
DERIVATION_TAG = "derivation-picture"
#: the tag that marks an interactive figure that is not a ``dashboard(...)`` call
DASHBOARD_TAG = "dashboard-picture"
#: a chapter runs in less than 60 s on its own; in a browser on a loaded machine allow more
RUN_SECONDS = 300

_RUNNING = """() => {
    const app = window.jupyterapp;
    const widget = app && app.shell.currentWidget;
    const kernel = widget && widget.sessionContext && widget.sessionContext.session
        && widget.sessionContext.session.kernel;
    const busy = !kernel || kernel.status !== "idle";
    const prompts = [...document.querySelectorAll(".jp-InputPrompt")]
        .some(p => p.textContent.includes("*"));
    return busy || prompts;
}"""


def chapters() -> list:
    """The chapter notebooks (``01_...`` onwards), in order."""
    return sorted(path for path in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")
                  if not path.name.startswith("00_"))


def _dashboard_calls(tree: ast.AST) -> list:
    """The calls of ``dashboard(...)``, ``structure_dashboard(...)`` or another ``*dashboard``."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name) and node.func.id.endswith("dashboard")]


def _shown(call: ast.Call) -> bool:
    """Whether a ``dashboard(...)`` call shows its dashboard (not ``render=False``)."""
    return not any(k.arg == "render" and isinstance(k.value, ast.Constant)
                   and k.value.value is False for k in call.keywords)


def pictured_cells(notebook: Path) -> list:
    """``[(cell index, kind)]``: the cells of ``notebook`` whose output is photographed, kind
    ``"dashboard"`` (a code cell calling ``dashboard(...)``, or tagged ``dashboard-picture``)
    or ``"derivation"`` (tagged ``derivation-picture``)."""
    cells = json.loads(notebook.read_text())["cells"]
    found = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        if DERIVATION_TAG in cell.get("metadata", {}).get("tags", []):
            found.append((index, "derivation"))
        elif DASHBOARD_TAG in cell.get("metadata", {}).get("tags", []) or any(
                _shown(call) for call in _dashboard_calls(ast.parse(python_source(source)))):
            found.append((index, "dashboard"))
    return found


def picture_names(notebook: Path) -> list:
    """``[(cell index, file name)]``: ``01_one_link_pendulum-dashboard.png``,
    ``..-dashboard-2.png`` for a second one, ``..-derivation.png``."""
    names, seen = [], {}
    for index, kind in pictured_cells(notebook):
        seen[kind] = seen.get(kind, 0) + 1
        suffix = "" if seen[kind] == 1 else f"-{seen[kind]}"
        names.append((index, f"{notebook.stem}-{kind}{suffix}.png"))
    return names


def small_png(png: bytes) -> bytes:
    """``png`` in 256 colours (a third of the size; the pictures are flat colours and text)."""
    from PIL import Image
    image = Image.open(io.BytesIO(png)).convert("RGB")
    buffer = io.BytesIO()
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(buffer, format="png",
                                                                      optimize=True)
    return buffer.getvalue()


def stacked(pngs: list) -> bytes:
    """The pictures ``pngs`` one under the other, on white, as one PNG."""
    from PIL import Image
    images = [Image.open(io.BytesIO(png)).convert("RGB") for png in pngs]
    whole = Image.new("RGB", (max(i.width for i in images), sum(i.height for i in images)),
                      "white")
    top = 0
    for image in images:
        whole.paste(image, (0, top))
        top += image.height
    buffer = io.BytesIO()
    whole.save(buffer, format="png")
    return buffer.getvalue()


def photograph_chapter(browser, server, notebook: Path, out: Path, run: bool = True) -> tuple:
    """Run ``notebook`` (already in ``server``'s root) in JupyterLab and write the pictures of
    :func:`picture_names` into ``out``; with ``run=False``, photograph its stored outputs (a
    dashboard as the notebook stores it, its PNG) without running it.  Returns ``(paths,
    console errors)``."""
    out.mkdir(parents=True, exist_ok=True)
    context, page, console = open_notebook(browser, server, notebook.name, run=run,
                                           viewport=(1300, 2200))
    written = []
    try:
        page.wait_for_function(
            "n => document.querySelectorAll('.jp-Notebook .jp-Cell').length >= n",
            arg=len(json.loads(notebook.read_text())["cells"]), timeout=KERNEL_SECONDS * 1000)
        if run:
            page.wait_for_timeout(2000)                  # the run has started
        deadline = time.monotonic() + RUN_SECONDS
        quiet = 0
        while run and quiet < 3:                         # idle, no [*], three times running
            if time.monotonic() > deadline:
                raise TimeoutError(f"{notebook.name} still running after {RUN_SECONDS} s")
            quiet = 0 if page.evaluate(_RUNNING) else quiet + 1
            page.wait_for_timeout(1000)
        cells = page.locator(".jp-Notebook .jp-Cell")
        for index, name in picture_names(notebook):
            cell = cells.nth(index)
            cell.scroll_into_view_if_needed()
            output = cell.locator(".jp-Cell-outputArea").first
            if output.locator("mjx-container").count():
                page.wait_for_timeout(1500)             # MathJax's last pass
            if run and cell.locator(".dynlab-dashboard").count():
                page.wait_for_selector(".dynlab-dashboard td.dynlab-value",
                                       timeout=KERNEL_SECONDS * 1000)
                page.wait_for_timeout(1500)             # the figure's first paint
            picture = output.screenshot()
            above = cells.nth(index - 1) if index > 0 else None
            if "-derivation" in name and above is not None and above.locator(
                    ".jp-RenderedMarkdown").count():
                picture = stacked([above.screenshot(), picture])  # the text that leads to it
            (out / name).write_bytes(small_png(picture))
            written.append(out / name)
    finally:
        context.close()
        server.shut_down_kernels()
    return written, list(console.errors)


def gallery(names: dict, folder: str = "pictures") -> str:
    """The Markdown gallery of the pictures: ``names`` maps a chapter notebook to its
    ``[(cell index, file name)]``."""
    lines = ["# The chapters, as a student sees them", "",
             "Each chapter was run in JupyterLab (headless Chromium) and photographed: its",
             "dashboards and one derivation. `tools/make_screenshots.py` takes them again.", ""]
    for notebook, pictures in names.items():
        cells = json.loads(notebook.read_text())["cells"]
        title = "".join(cells[0]["source"]).splitlines()[0].lstrip("# ").strip()
        lines += [f"## {title}", ""]
        for _, name in pictures:
            what = "dashboard" if "-dashboard" in name else "derivation"
            lines += [f"![{title}: {what}]({folder}/{name})", ""]
    return "\n".join(lines)
