"""Every chapter in JupyterLab in headless Chromium, as a student sees it: the page logs no
error, and the output of each dashboard cell and of the chapter's derivation is photographed
(``tests/product/chapter_pictures.py``) into ``test-artifacts/pictures/``.  The pictures are
real: not blank, and as large as the output.

A chapter executes once in the suite: nbval runs every chapter and holds its stored outputs to
what a fresh run shows, so the pictures are taken of the stored outputs.  One chapter,
:data:`RUN_IN_THE_BROWSER`, is also run in the browser from its first cell to its last, as a
student runs it (the dashboards' life in the browser is ``tests/product/test_browser.py``'s).

``docs/pictures/`` holds the same pictures for readers (``tools/make_screenshots.py``), and the
last test checks that each chapter's pictures and the gallery ``docs/pictures.md`` are there.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from .chapter_pictures import DERIVATION_TAG, chapters, photograph_chapter, picture_names
from .test_browser import ARTIFACTS, LabServer

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
CHAPTERS = chapters()
#: the chapter run in the browser (the shortest with a dashboard and a derivation)
RUN_IN_THE_BROWSER = "01_one_link_pendulum"


@pytest.fixture(scope="module")
def chapter_lab(chromium, tmp_path_factory):
    root = tmp_path_factory.mktemp("chapters")
    for notebook in CHAPTERS:
        shutil.copy(notebook, root / notebook.name)
    with LabServer(root, tmp_path_factory.mktemp("jupyter-home")) as server:
        yield server


def test_every_chapter_has_a_dashboard_and_a_derivation_picture():
    for notebook in CHAPTERS:
        names = [name for _, name in picture_names(notebook)]
        assert any("-dashboard" in name for name in names), f"{notebook.name}: no dashboard"
        assert sum("-derivation" in name for name in names) == 1, (
            f"{notebook.name}: tag exactly one code cell '{DERIVATION_TAG}'")
        cells = json.loads(notebook.read_text())["cells"]
        for index, name in picture_names(notebook):   # a picture is of what a cell shows
            assert cells[index].get("outputs"), (
                f"{notebook.name}: cell {index}, tagged for {name}, stores no output to "
                f"photograph (move the tag to the cell that shows it)")


@pytest.mark.parametrize("notebook", CHAPTERS, ids=[n.stem for n in CHAPTERS])
def test_the_chapter_shows_in_the_browser_and_is_photographed(chapter_lab, browser, notebook):
    from PIL import Image, ImageStat
    out = ARTIFACTS.parent / "pictures"
    written, errors = photograph_chapter(browser, chapter_lab, notebook, out,
                                         run=notebook.stem == RUN_IN_THE_BROWSER)
    assert [p.name for p in written] == [name for _, name in picture_names(notebook)]
    for path in written:
        image = Image.open(io.BytesIO(path.read_bytes())).convert("L")
        assert image.width > 300 and image.height > 60, (path.name, image.size)
        assert max(ImageStat.Stat(image).stddev) > 5, f"{path.name} is blank"
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)


def test_docs_hold_every_chapter_picture():
    gallery = (DOCS / "pictures.md").read_text()
    for notebook in CHAPTERS:
        for _, name in picture_names(notebook):
            assert (DOCS / "pictures" / name).is_file(), f"docs/pictures/{name} is missing"
            assert f"(pictures/{name})" in gallery, f"{name} is not in docs/pictures.md"
