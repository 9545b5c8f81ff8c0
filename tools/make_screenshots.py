"""Render the README's pictures with the project itself: ``docs/dashboard.png`` (the two-link
arm's slider dashboard, live in JupyterLab) and ``docs/derivation.png`` (its equations of motion
derived by Lagrange-Euler, as a notebook shows them); and, with ``--chapters``, every chapter run
in JupyterLab with its dashboards and its derivation photographed into ``docs/pictures/`` and
listed in ``docs/pictures.md`` (the pictures the browser tests take, see
``tests/product/chapter_pictures.py``).

    .venv/bin/python tools/make_screenshots.py            # writes docs/*.png
    .venv/bin/python tools/make_screenshots.py --chapters # and docs/pictures/, docs/pictures.md
    .venv/bin/python tools/make_screenshots.py --chapters 04 11   # only these chapters' pictures
    .venv/bin/python tools/make_screenshots.py --out /tmp/pictures

A notebook is written to a temporary folder and run in JupyterLab in headless Chromium (Debian's
``/usr/bin/chromium``, or ``DYNLAB_CHROMIUM``), with the server and browser helpers of
``tests/product/test_browser.py``; the pictures are then reduced to 256 colours to keep them small.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.product.chapter_pictures import (  # noqa: E402
    chapters,
    gallery,
    photograph_chapter,
    picture_names,
    small_png,
)
from tests.product.test_browser import (  # noqa: E402
    KERNEL_SECONDS,
    LabServer,
    chromium_missing,
    launch_chromium,
    open_notebook,
)

CELLS = [
    "from IPython.display import Markdown, display\n\n"
    "import dynlab\n"
    "from dynlab.dynamics.equations import equations_latex\n"
    "from dynlab.model.robots import planar_2r\n"
    "from dynlab.teaching.dashboards.arm import dashboard",
    # the derivation: Fu, Gonzalez & Lee, Sec. 3.2.6's two-link arm, symbols m1, m2, l, g
    "arm = planar_2r(variant='fu', symbolic=True)\n"
    "le = dynlab.equations_of_motion(arm, method='lagrange_euler')\n"
    "ne = dynlab.equations_of_motion(arm, method='newton_euler')\n"
    "display(Markdown('**Two-link arm of Fu, Gonzalez & Lee, Fig. 3.2, by Lagrange-Euler** '\n"
    "                 '(Newton-Euler agrees: ' + str(bool(le.compare(ne))) + ')'))\n"
    "display(Markdown(equations_latex(le)))",
    "dashboard('planar_2r', variant='fu')",
]


def notebook() -> dict:
    return {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {},
                       "outputs": [], "source": source} for source in CELLS],
            "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)",
                                        "language": "python", "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}


def make(out: Path) -> list:
    from playwright.sync_api import sync_playwright
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as folder:
        root, home = Path(folder) / "root", Path(folder) / "home"
        root.mkdir()
        (root / "pictures.ipynb").write_text(json.dumps(notebook(), indent=1))
        with LabServer(root, home) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            context, page, console = open_notebook(browser, server, "pictures.ipynb",
                                                   viewport=(1300, 1400))
            try:
                page.wait_for_selector(".dynlab-dashboard td.dynlab-value",
                                       timeout=KERNEL_SECONDS * 1000)
                page.wait_for_selector(".dynlab-dashboard img", state="visible")
                page.wait_for_selector(".jp-RenderedMarkdown mjx-container", timeout=60000)
                page.wait_for_timeout(1000)             # MathJax's last pass, the PNG's paint
                derivation = page.locator(".jp-Cell").nth(1).locator(".jp-OutputArea")
                pictures = {"derivation.png": derivation,
                            "dashboard.png": page.locator(".dynlab-dashboard")}
                for name, element in pictures.items():
                    (out / name).write_bytes(small_png(element.screenshot()))
                    written.append(out / name)
                if console.errors:
                    raise RuntimeError("errors in the browser console:\n"
                                       + "\n".join(console.errors))
            finally:
                context.close()
                browser.close()
    return written


def make_chapters(out: Path, numbers=()) -> list:
    """Every chapter's pictures (or those of the chapters ``numbers``, e.g. ``["04", "11"]``) into
    ``out / "pictures"``, and the gallery of every chapter ``out / "pictures.md"``."""
    import shutil

    from playwright.sync_api import sync_playwright
    chosen = [n for n in chapters() if not numbers or n.name[:2] in numbers]
    unknown = set(numbers) - {n.name[:2] for n in chapters()}
    if unknown:
        raise SystemExit(f"make_screenshots: no chapter {', '.join(sorted(unknown))}; the "
                         f"chapters are {', '.join(n.name[:2] for n in chapters())}")
    written, names = [], {notebook: picture_names(notebook) for notebook in chapters()}
    with tempfile.TemporaryDirectory() as folder:
        root, home = Path(folder) / "root", Path(folder) / "home"
        root.mkdir()
        for notebook in chosen:
            shutil.copy(notebook, root / notebook.name)
        with LabServer(root, home) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            try:
                for notebook in chosen:
                    paths, errors = photograph_chapter(browser, server, notebook,
                                                       out / "pictures")
                    if errors:
                        raise RuntimeError(f"{notebook.name}: errors in the browser console:\n"
                                           + "\n".join(errors))
                    print(f"{notebook.name}: {len(paths)} pictures", flush=True)
                    written += paths
            finally:
                browser.close()
    (out / "pictures.md").write_text(gallery(names))
    return written + [out / "pictures.md"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs",
                        help="folder for the pictures (default docs/)")
    parser.add_argument("--chapters", nargs="*", metavar="NN",
                        help="also photograph every chapter into OUT/pictures/; with numbers "
                             "(04 11), only those chapters, and not the README's pictures")
    args = parser.parse_args(argv)
    reason = chromium_missing()
    if reason:
        print(f"make_screenshots: {reason.split(':')[0]}", file=sys.stderr)
        return 1
    numbers = [f"{int(n):02d}" if n.isdigit() else n for n in args.chapters or ()]
    paths = [] if numbers else make(args.out)
    if args.chapters is not None:
        paths += make_chapters(args.out, numbers)
    for path in paths:
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} "
              f"({path.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
