"""Citations a reader can follow: no product file names a source by the number of its seed
file (000-004) or cites a line of a scanned text (``L389``, ``EL 228``), and an equation number
of Lynch & Park's preliminary draft (its chapter 9, the published book's chapter 8) is always
marked as the draft's."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: a seed's file number used as a source's name: 000-004 standing alone (not 0.004, 1e-004,
#: #000, 10,000 or a longer number), or the seed's file name
SEED_NUMBER = re.compile(r"(?<![\w.,#+\-/])00[0-4](?![\w.])|\b00[0-4]_[0-9a-f]{16}")
#: a scan-line citation: L (or EL) and 2-4 digits, e.g. "L389", "L69,", "L743-L753", "EL 228";
#: link-length symbols L1, L2 (one digit) do not match
SCAN_LINE = re.compile(r"(?<![A-Za-z0-9])(?:L\d{2,4}|EL ?\d{2,4})(?!\d)")

#: a sealed value of a key file (what :func:`dynlab.grading.sealing.unseal` opens): a JSON string of
#: base64
SEALED = re.compile(r'"[A-Za-z0-9+/]{24,}={0,2}"')
#: a picture inside HTML (an animation's frames): base64, no words
DATA_URI = re.compile(r"data:[\w/+.-]+;base64,[A-Za-z0-9+/=\s\\n]*")



def product_files() -> list:
    files = [ROOT / "README.md", ROOT / "deploy" / "README.md",
             *sorted((ROOT / "dynlab").rglob("*.py")), *sorted((ROOT / "dynlab").rglob("*.json")),
             *sorted((ROOT / "docs").glob("*.md"))]
    for folder in ("notebooks", "solutions", "exercises"):
        files += sorted((ROOT / folder).glob("*.ipynb"))
    return [f for f in files if f.is_file()]


def readable_text(path: Path) -> str:
    """The text a reader sees: a notebook's cell sources and text outputs (no image data); a
    key file without its sealed values (base64, no words: "/L84k" in one is no line number)."""
    if path.suffix == ".json":
        return SEALED.sub('""', path.read_text())
    if path.suffix != ".ipynb":
        return path.read_text()
    parts = []
    for cell in json.loads(path.read_text())["cells"]:
        parts.append("".join(cell["source"]))
        for output in cell.get("outputs", []):
            parts.append("".join(output.get("text", "")))
            for mime, value in output.get("data", {}).items():
                if mime.startswith("text/") or mime.endswith(("+json", "/json", "latex")):
                    text = (value if isinstance(value, str) else
                            "".join(value) if isinstance(value, list) else json.dumps(value))
                    parts.append(DATA_URI.sub("", text))      # pictures inside HTML
    return "\n".join(parts)


#: an equation number of Lynch & Park's draft chapter 9, e.g. "(9.55)"; it must follow "draft"
#: within its citation ("draft Eq. (9.55)", "draft Eqs. (9.73), (9.78)", "(draft (9.53))")
DRAFT_EQUATION = re.compile(r"\(9\.\d+\)")
DRAFT_MARK = re.compile(r"draft[^.;()]{0,14}(?:Eqs?\.)?[\s(]*(?:\(9\.\d+\)[\s,and/-]*)*$")


def unmarked_draft_numbers(text: str) -> list:
    return [m.group(0) for m in DRAFT_EQUATION.finditer(text)
            if not DRAFT_MARK.search(text[max(0, m.start() - 60):m.start()])]


def offences(text: str) -> list:
    return ([m.group(0) for pattern in (SEED_NUMBER, SCAN_LINE) for m in pattern.finditer(text)]
            + unmarked_draft_numbers(text))


def _params():
    for path in product_files():
        name = path.relative_to(ROOT).as_posix()
        yield pytest.param(path, id=name)


@pytest.mark.parametrize("path", list(_params()))
def test_no_seed_numbers_or_scan_lines(path):
    found = offences(readable_text(path))
    assert found == [], f"{path.name}: {sorted(set(found))[:20]}"


@pytest.mark.parametrize("text", ["Fu (3.2-34), 0.004 s, 1e-004, #000000, 10,000 mult, L1, L2, "
                                  "L_2, q1 = 0.003", "torques of the arm (L1 = 0.5 m)",
                                  "Sec. 8.3 (draft Eq. (9.55))", "draft Eqs. (9.73), (9.78)",
                                  "draft Eqs. (9.53)-(9.57)", "(draft: after Eq. (9.8))",
                                  "draft Eqs.\n    (9.77)-(9.80)", "g = 9.81"])
def test_legitimate_text_passes(text):
    assert offences(text) == []


@pytest.mark.parametrize("text", ["see 000 Eq. (3.2-34)", "(L389)", "L69, kinetic energy",
                                  "L743-L753", "EL 228", "errata_table('002')",
                                  "seeds/003_275b30af7c0ca975.txt", "U11_L367",
                                  "Lynch & Park, Eq. (9.55)", "Sec. 8.4, Eqs. (9.73), (9.78)"])
def test_each_form_is_caught(text):
    assert offences(text) != []


#: a place of Lynch & Park's published Ch. 8: "Sec. 8.9.1", "Secs. 8.1-8.5" (both ends),
#: "Prop. 8.1", "Eq. (8.1)"; no other source the workbook cites numbers its sections 8.x
PUBLISHED_PLACE = re.compile(r"\b(Secs?\.|Prop\.|Eqs?\.) ?\(?(8\.\d+(?:\.\d+)?)\)?"
                             r"(?:[-\u2013](8\.\d+(?:\.\d+)?))?")
#: any numbered place: the form of a place in another chapter of the book ("Sec. 3.3.2", "Ch. 4")
ANY_PLACE = re.compile(r"\b(Ch\.|Secs?\.|Prop\.|Eqs?\.) ?\(?(\d+(?:\.\d+)*)\)?"
                       r"(?:[-\u2013](\d+(?:\.\d+)*))?")
#: Lynch & Park named, and what ends the citation that follows: another source, a ";", a
#: paragraph's end; a place marked "draft" just before it is the draft's, not the book's
LYNCH_PARK = re.compile(r"Lynch (?:&|and) Park|Modern Robotics")
CITATION_END = re.compile(r"\b(?:Fu|Schilling|Tourassis|Featherstone|Luh|Armstrong|Uicker|Slotine|"
                          r"Gautier|Atkeson|Hollerbach|Takegaki|Corke)\b|thesis|;|\n\s*\n")
DRAFT_BEFORE = re.compile(r"draft[^.;]{0,14}$")


def _places(matches) -> set:
    places = set()
    for m in matches:
        word = m.group(1).rstrip("s.")[:3]
        kind = {"Ch": "Ch.", "Sec": "Sec.", "Pro": "Prop.", "Eq": "Eq."}[word]
        for number in filter(None, (m.group(2), m.group(3))):
            places.add(f"Eq. ({number})" if kind == "Eq." else f"{kind} {number}")
    return places


def lynch_park_places(text: str) -> set:
    """The published places of Lynch & Park that ``text`` cites, as the concordance writes them:
    every place of Ch. 8 (``{"Sec. 8.1", "Prop. 8.1", ...}``), and every place in the citation
    that follows their names (``"Sec. 3.3.2"`` in "Lynch & Park, Sec. 3.3.2"), but those marked
    as the draft's."""
    places = _places(PUBLISHED_PLACE.finditer(text))
    for name in LYNCH_PARK.finditer(text):
        citation = text[name.end():name.end() + 160]
        end = CITATION_END.search(citation)
        citation = citation[:end.start()] if end else citation
        places |= _places(m for m in ANY_PLACE.finditer(citation)
                          if not DRAFT_BEFORE.search(citation[max(0, m.start() - 20):m.start()]))
    return places


def test_places_are_read_as_the_concordance_writes_them():
    text = "Lynch & Park, Secs. 8.1-8.5; Sec. 8.9.1, Prop. 8.1 and Eq. (8.1); Fu, Sec. 3.2.6"
    assert lynch_park_places(text) == {"Sec. 8.1", "Sec. 8.5", "Sec. 8.9.1", "Prop. 8.1",
                                       "Eq. (8.1)"}


@pytest.mark.parametrize("text, places", [
    ("(Lynch & Park, Sec. 3.3.2; Sec. 8.3, draft Eqs. (9.46), (9.54))", {"Sec. 3.3.2", "Sec. 8.3"}),
    ("Lynch & Park (2017), *Modern Robotics*, Sec. 5.1.1", {"Sec. 5.1.1"}),
    ("(Lynch & Park, Ch. 3): e^[A] theta", {"Ch. 3"}),
    ("diverged (Lynch & Park, Sec. 9.5).", {"Sec. 9.5"}),              # a draft number, unmarked
    ("Lynch & Park (draft Eq. (9.8)) and Fu, Gonzalez & Lee, Sec. 3.2.6", set()),
    ("Lynch & Park, Ch. 8. Found in a preliminary draft (its Ch. 9)", {"Ch. 8"}),
])
def test_places_in_other_chapters_follow_their_names(text, places):
    assert lynch_park_places(text) == places


def test_every_cited_place_of_lynch_park_has_its_draft_place_in_the_concordance():
    """Chapter 00's concordance lists every published place the product cites, so that a
    student holding the preliminary draft (its Ch. 9) finds each one, or learns it is not
    there."""
    from dynlab.teaching.bibliography import LYNCH_PARK_CONCORDANCE
    cited = {place: path.relative_to(ROOT).as_posix() for path in product_files()
             for place in lynch_park_places(readable_text(path))}
    missing = {place: where for place, where in cited.items()
               if place not in LYNCH_PARK_CONCORDANCE}
    assert missing == {}
