"""The static edition (``tools/build_static.py``) in headless Chromium, opened from the disk as a
reader opens it (``file://``), with every request to the network refused:

- every chapter and the contents page open, and the browser logs no console error, throws no
  page error and has no request fail;
- every equation is typeset by the site's own MathJax: MathJax reports no error, no TeX is left
  unrendered in the text, and each chapter shows typeset mathematics;
- every picture is loaded (each stored PNG output is on the page and decoded);
- the bar links to the contents, the chapters before and after, and opens the chapter on the hub
  given to ``--hub-url``.

Chromium and the skip when it is missing are those of ``tests/product/test_browser.py``; MathJax
comes from ``deploy/node_modules`` (``npm ci --prefix deploy``, which ``.ci/run`` does); without it
the tests are skipped with the same kind of warning.
"""

from __future__ import annotations

import json
import re
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import build_static  # noqa: E402

# the browser tests' fixtures (tests/product/conftest.py): Debian's chromium, launched once per
# module (skipped, with a warning in the summary, on a machine without it; .ci/run installs it)
from .test_browser import BrowserTestsNotRun  # noqa: E402

HUB_URL = "https://hub.example.edu"
CHAPTERS = sorted(build_static.NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
PAGE_SECONDS = 60
#: TeX that MathJax leaves in the text when it did not typeset an equation
RAW_TEX = re.compile(r"\$\$|\\\[|\\\(|\\begin\{|\\frac|\\dot\{|\\ddot\{|\\mathbf\{|\$[^$\s][^$]*\\")

_TYPESET = """async () => {
    if (!window.MathJax || !MathJax.startup) return {mathjax: false};
    await MathJax.startup.promise;
    const text = [...document.querySelectorAll(".jp-RenderedMarkdown, .jp-RenderedLatex")]
        .map(el => { const copy = el.cloneNode(true);
                     copy.querySelectorAll("mjx-container, pre, code").forEach(c => c.remove());
                     return copy.textContent; }).join("\\n");
    const images = [...document.images].map(img => ({
        ok: img.complete && img.naturalWidth > 0, src: img.src.slice(0, 60)}));
    return {mathjax: true,
            typeset: document.querySelectorAll("mjx-container").length,
            errors: [...document.querySelectorAll("mjx-merror, [data-mjx-error]")]
                .map(e => e.getAttribute("data-mjx-error") || e.textContent).slice(0, 5),
            text, images,
            hub: (document.querySelector("a.dynlab-hub") || {}).href || null,
            prev: (document.querySelector("a[rel=prev]") || {}).href || null,
            next: (document.querySelector("a[rel=next]") || {}).href || null};
}"""


def stored_pictures(notebook: Path) -> int:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return sum("image/png" in output.get("data", {})
               for cell in cells if cell["cell_type"] == "code" for output in cell["outputs"])


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    if not build_static.MATHJAX.exists():
        reason = (f"MathJax not found at {build_static.MATHJAX}: install it with `npm ci "
                  f"--prefix deploy` (.ci/run does); the static edition's tests were NOT run")
        # MathJax comes from npm (`npm ci --prefix deploy`); a reader without it is told in the
        # summary that these tests did not run. CI never takes this: .ci/run installs it first.
        warnings.warn(BrowserTestsNotRun(reason), stacklevel=1)
        pytest.skip(reason)
    out = tmp_path_factory.mktemp("site")
    build_static.build(out, hub_url=HUB_URL)
    return out


def open_page(browser, path: Path):
    """``(page, problems)``: the page opened from the disk with the network refused, and the
    console errors, page errors, failed and refused requests seen while it loaded."""
    context = browser.new_context()
    page = context.new_page()
    problems = []
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url[:100]}"))

    def refuse(route):
        problems.append(f"network request: {route.request.url[:100]}")
        route.abort()
    page.route(re.compile(r"^(https?|wss?)://"), refuse)
    page.goto(path.as_uri(), wait_until="load", timeout=PAGE_SECONDS * 1000)
    return context, page, problems


def test_the_contents_page_lists_every_chapter(browser, site):
    context, page, problems = open_page(browser, site / "index.html")
    try:
        links = page.eval_on_selector_all("ol a", "links => links.map(a => a.href)")
        assert links == [(site / f"{c.stem}.html").as_uri() for c in CHAPTERS]
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[c.stem for c in CHAPTERS])
def test_a_chapter_reads_offline_with_its_equations_and_pictures(browser, site, chapter):
    context, page, problems = open_page(browser, site / f"{chapter.stem}.html")
    try:
        shown = page.evaluate(_TYPESET)
        assert shown["mathjax"], "the site's MathJax did not load"
        assert problems == [], problems
        assert shown["errors"] == [], f"MathJax could not typeset: {shown['errors']}"
        assert shown["typeset"] > 0, "no typeset mathematics on the page"
        leftover = sorted({m.group(0) for m in RAW_TEX.finditer(shown["text"])})
        assert leftover == [], f"TeX left unrendered: {leftover}"
        broken = [image["src"] for image in shown["images"] if not image["ok"]]
        assert broken == [], f"pictures not loaded: {broken}"
        assert len(shown["images"]) >= stored_pictures(chapter) > 0 or \
            stored_pictures(chapter) == 0
        assert shown["hub"] == build_static.hub_link(HUB_URL, build_static.DEFAULT_HUB_PATH,
                                                     chapter)
        number = CHAPTERS.index(chapter)
        assert shown["prev"] == (None if number == 0 else
                                 (site / f"{CHAPTERS[number - 1].stem}.html").as_uri())
        assert shown["next"] == (None if number == len(CHAPTERS) - 1 else
                                 (site / f"{CHAPTERS[number + 1].stem}.html").as_uri())
    finally:
        context.close()
