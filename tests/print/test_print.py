"""``spacetable print`` as a user runs it: a real process writes the PDF and its manifest,
which are then read back the way a printer and a camera would see them: pdfium rasterises
the pages, the card borders are found in the pixels, and OpenCV's ArUco detector reads
the markers on every printed card (the round trip of issue 22)."""

from __future__ import annotations

import json
import math
import re
import statistics
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pypdfium2 as pdfium
import pytest

from spacetable.lasers.printed import STELLAR_PRINTED
from spacetable.lasers.tables import catalog
from spacetable.photo import markers
from spacetable.printing.layout import MARGIN_MM, PAPERS
from spacetable.printing.sheets import PrintError, card_pdf
from tests._cli import spacetable

MM_PER_IN = 25.4
PT_PER_MM = 72 / MM_PER_IN
Gray = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class Printed:
    """A print: its PDF open in pdfium, its manifest and its paper."""

    pdf: pdfium.PdfDocument
    cards: list[dict[str, Any]]
    paper: str


def _print(tmp: Path, paper: str, *options: str) -> Printed:
    out, manifest = tmp / f"{paper}.pdf", tmp / f"{paper}.json"
    done = spacetable("print", "-o", out, "--manifest", manifest, "--paper", paper, *options)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote {out}: "), done.stdout
    return Printed(pdfium.PdfDocument(out), json.loads(manifest.read_text())["cards"], paper)


@pytest.fixture(scope="module")
def a4(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Printed]:
    """Everything spacetable prints, on A4."""
    printed = _print(tmp_path_factory.mktemp("a4"), "a4")
    yield printed
    printed.pdf.close()


@pytest.fixture(scope="module")
def letter(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Printed]:
    """Light Speed's red fleet, on US letter."""
    printed = _print(
        tmp_path_factory.mktemp("letter"),
        "letter",
        "--ruleset",
        "lightspeed",
        "--colour",
        "red",
        "--copies",
        "2",
    )
    yield printed
    printed.pdf.close()


def _raster(pdf: pdfium.PdfDocument, page: int, dpi: float) -> Gray:
    """A page as grey pixels at ``dpi``."""
    image = pdf[page].render(scale=dpi / 72).to_pil().convert("L")
    return np.asarray(image, dtype=np.uint8)


def _page_mm(pdf: pdfium.PdfDocument, page: int) -> tuple[float, float]:
    width, height = pdf[page].get_size()
    return width / PT_PER_MM, height / PT_PER_MM


def test_every_page_is_the_paper_and_the_cards_are_all_there(a4: Printed, letter: Printed) -> None:
    for printed in (a4, letter):
        paper = sorted(PAPERS[printed.paper])
        for page in range(len(printed.pdf)):
            assert sorted(_page_mm(printed.pdf, page)) == pytest.approx(paper, abs=0.05)
    # the whole print: four Light Speed colours, the four races, seven asteroids
    ls = [c for c in a4.cards if c["ruleset"] == "lightspeed" and c["ship"] != "asteroid"]
    assert len(ls) == 4 * len(catalog("lightspeed"))
    assert {c["owner"] for c in ls} == {"red", "blue", "green", "purple"}
    stellar = {c["ship"] for c in a4.cards if c["ruleset"] == "stellar"}
    assert stellar >= set(STELLAR_PRINTED.ships)
    asteroids = [c for c in a4.cards if c["ship"] == "asteroid"]
    assert [c["copy"] for c in asteroids] == list(range(1, 8))
    assert all(c["owner"] is None for c in asteroids)
    # two copies of each red ship on letter, nothing else
    assert len(letter.cards) == 2 * len(catalog("lightspeed"))
    assert {(c["ship"], c["copy"]) for c in letter.cards} == {
        (ship, copy) for ship in catalog("lightspeed") for copy in (1, 2)
    }


def test_cards_are_true_size_inside_the_margins_and_never_overlap(
    a4: Printed, letter: Printed
) -> None:
    for printed in (a4, letter):
        by_page: dict[int, list[dict[str, Any]]] = {}
        for card in printed.cards:
            assert (card["width"], card["height"]) == (63, 88)
            width, height = _page_mm(printed.pdf, card["page"])
            assert card["x"] >= MARGIN_MM and card["y"] >= MARGIN_MM
            assert card["x"] + card["width"] <= width - MARGIN_MM
            assert card["y"] + card["height"] <= height - MARGIN_MM
            by_page.setdefault(card["page"], []).append(card)
        for cards in by_page.values():
            assert 1 <= len(cards) <= 8  # fewer on a fleet's last page
            for i, a in enumerate(cards):
                for b in cards[i + 1 :]:
                    apart_x = a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                    apart_y = a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]
                    assert apart_x or apart_y, (a, b)


def _edge(line: Gray, start: int, step: int) -> float:
    """Where the paper's white turns into the card along ``line``, walking from index
    ``start`` (1 mm outside the card, in the gap between cards) by ``step``: the first
    pixel darker than halfway between the paper and the card's border colour (sampled
    1.3 mm inside the card, in the 2.6 mm border), in pixels from ``start``."""
    border = float(line[start + step * 27])  # 27 px at 300 dpi: 1 mm out, then 1.3 mm in
    threshold = (255.0 + border) / 2
    for k in range(0, 60):
        if line[start + step * k] < threshold:
            return float(k)
    raise AssertionError("no card edge")


@pytest.mark.parametrize("which", ["a4-lightspeed", "a4-stellar", "a4-asteroids", "letter"])
def test_each_card_border_is_printed_where_the_manifest_says(
    which: str, a4: Printed, letter: Printed
) -> None:
    printed = letter if which == "letter" else a4
    wanted = {"a4-lightspeed": "lightspeed", "a4-stellar": "stellar"}.get(which)
    if which == "a4-asteroids":
        page = next(c["page"] for c in printed.cards if c["ship"] == "asteroid")
    else:
        page = next(c["page"] for c in printed.cards if wanted in (None, c["ruleset"]))
    dpi = 300.0
    px = dpi / MM_PER_IN
    image = _raster(printed.pdf, page, dpi)
    cards = [c for c in printed.cards if c["page"] == page]
    assert cards
    for card in cards:
        left, top = card["x"] * px, card["y"] * px
        right, bottom = left + card["width"] * px, top + card["height"] * px
        found: dict[str, list[float]] = {"left": [], "right": [], "top": [], "bottom": []}
        outside = round(1 * px)  # start 1 mm outside the card
        for f in (0.3, 0.4, 0.5, 0.6, 0.7):
            row = image[int(top + f * (bottom - top))]
            column = image[:, int(left + f * (right - left))]
            found["left"].append(int(left) - outside + _edge(row, int(left) - outside, 1))
            found["right"].append(int(right) + outside - _edge(row, int(right) + outside, -1))
            found["top"].append(int(top) - outside + _edge(column, int(top) - outside, 1))
            found["bottom"].append(int(bottom) + outside - _edge(column, int(bottom) + outside, -1))
        # a pixel straddling the edge is half dark: the edge is at its far side going in,
        # at its near side coming out
        measured = {
            "left": statistics.median(found["left"]),
            "right": statistics.median(found["right"]) + 1,
            "top": statistics.median(found["top"]),
            "bottom": statistics.median(found["bottom"]) + 1,
        }
        expected = {"left": left, "right": right, "top": top, "bottom": bottom}
        for side, at in measured.items():
            error_mm = abs(at - expected[side]) / px
            assert error_mm <= 0.3, (card["ship"], card["owner"], side, error_mm)


def _detector() -> cv2.aruco.ArucoDetector:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, markers.DICTIONARY))
    return cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())


def test_every_printed_card_carries_exactly_its_markers_where_the_module_says(
    a4: Printed,
) -> None:
    """The round trip: print, rasterise, detect; each card's ids are those
    :func:`markers.marker_ids` gives it, each marker's square where it says."""
    dpi = 200.0
    px = dpi / MM_PER_IN
    detector = _detector()
    pages = sorted({c["page"] for c in a4.cards})
    checked = 0
    for page in pages:
        image = _raster(a4.pdf, page, dpi)
        corners, ids, _ = detector.detectMarkers(image)
        assert ids is not None
        seen: dict[int, npt.NDArray[np.float64]] = {}
        for quad, found in zip(corners, ids.ravel(), strict=True):
            assert int(found) not in seen, f"marker {found} twice on page {page}"
            seen[int(found)] = np.asarray(quad, dtype=np.float64).reshape(4, 2) / px  # page mm
        on_page = [c for c in a4.cards if c["page"] == page]
        expected_ids: set[int] = set()
        for card in on_page:
            ruleset = None if card["ship"] == markers.ASTEROID else card["ruleset"]
            ids_for = markers.marker_ids(ruleset, card["ship"], card["owner"], card["copy"])
            assert card["markers"] == list(ids_for)
            expected_ids |= set(ids_for)
            for slot, marker_id in enumerate(ids_for):
                assert marker_id in seen, (card["ship"], card["owner"], slot)
                left, top = markers.marker_square_from_top_left(slot)
                side = markers.MARKER_SIDE_MM
                corner = np.array([card["x"] + left, card["y"] + top])
                square = corner + np.array([(0, 0), (side, 0), (side, side), (0, side)])
                # detected corners go top-left, top-right, bottom-right, bottom-left
                assert np.abs(seen[marker_id] - square).max() < 0.3, (card["ship"], slot)
            checked += 1
        assert set(seen) == expected_ids
    assert checked == len(a4.cards)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            ["--race", "zorg"],
            "--race: unknown race 'zorg' (choose from wiss, vak, hexai, tetrakori)",
        ),
        (
            ["--colour", "pink"],
            "--colour: unknown colour 'pink' (choose from red, blue, green, purple)",
        ),
        (
            ["--ruleset", "chess"],
            "--ruleset: unknown ruleset 'chess' (choose from lightspeed, stellar, ftl, hexfleet)",
        ),
        (["--paper", "a3"], "--paper: unknown paper 'a3' (choose from a4, letter)"),
        (["--ruleset", "lightspeed", "--race", "vak"], "--race is a Stellar Conflict option"),
        (
            ["--ruleset", "lightspeed", "--copies", "4"],
            "--copies: Light Speed cards have markers for 3 copies at most",
        ),
    ],
)
def test_a_bad_option_is_one_line_naming_it_and_exit_2(
    options: list[str], message: str, tmp_path: Path
) -> None:
    out = tmp_path / "cards.pdf"
    done = spacetable("print", "-o", out, *options)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"spacetable: error: {message}"), done.stderr
    assert not out.exists()


def _text(pdf: pdfium.PdfDocument, page: int) -> str:
    textpage = pdf[page].get_textpage()
    try:
        return str(textpage.get_text_range())
    finally:
        textpage.close()


def test_ftl_and_hex_fleet_sheets_say_what_they_are(a4: Printed) -> None:
    texts = [_text(a4.pdf, page) for page in range(len(a4.pdf))]
    last_card_page = max(c["page"] for c in a4.cards)
    rest = texts[last_card_page + 1 :]
    assert len(rest) == 4  # FTL tokens and order sheet, hex counters and logs
    assert "Faster Than Light: tokens" in rest[0] and "exactly 5 in" in rest[0]
    assert "order sheet" in rest[1] and "M10" in rest[1]
    assert "ship counters" in rest[2] and "END" in rest[2]
    for cls in ("Light ship", "Medium ship", "Heavy ship"):
        assert cls in rest[3]
    for page in texts[: last_card_page + 1]:
        assert "Print at 100 %" in page and "50 mm" in page


def test_print_lang_fr_heads_the_card_pages_and_checks_the_scale_in_french(
    tmp_path: Path,
) -> None:
    """``--lang fr``: each card page's heading and its 50 mm bar, and the FTL scale check,
    in French; the same print in English says it in English."""
    pages = {}
    for lang in ("fr", "en"):
        for ruleset in ("lightspeed", "ftl"):
            out = tmp_path / f"{ruleset}-{lang}.pdf"
            done = spacetable("print", "-o", out, "--ruleset", ruleset, "--lang", lang)
            assert done.returncode == 0, done.stderr
            pdf = pdfium.PdfDocument(out)
            try:
                pages[ruleset, lang] = " ".join(_text(pdf, 0).split())
            finally:
                pdf.close()
    french = pages["lightspeed", "fr"]
    assert "Imprimez à 100 % (taille réelle)" in french, french
    assert "page 1 sur" in french and "cette barre doit mesurer 50 mm" in french, french
    assert "Print at 100 %" not in french
    assert "Print at 100 % (actual size)" in pages["lightspeed", "en"]
    assert "this bar must measure 50 mm" in pages["lightspeed", "en"]
    assert "elle doit faire exactement 5 po (127 mm)" in pages["ftl", "fr"], pages["ftl", "fr"]
    assert "it must be exactly 5 in (127 mm)" in pages["ftl", "en"]


def test_print_lang_fr_writes_the_ftl_and_hex_fleet_sheets_in_french(tmp_path: Path) -> None:
    """``--lang fr``: every word of the FTL sheets (tokens, ruler, rose, order sheet) and of
    the hex fleet's (counters, chits, ship's logs, charts) in French, the colours too."""
    english = {
        "ftl": ["Sprint ruler", "Turning rose", "order sheet", "Action counters", "Player:",
                "One order per piece", "red", "blue"],
        "hexfleet": ["ship counters", "Chits for the cup", "ship's logs", "Shields up",
                     "Damage:", "Propulsion:", "Carries", "Name:", "light ship", "red"],
    }  # fmt: skip
    french = {
        "ftl": ["Règle de course", "Rose des virages", "feuille d'ordres", "Marqueurs d'action",
                "Joueur", "Un ordre par pièce", "rouge", "bleu", "vaisseau", "po"],
        "hexfleet": ["pions des vaisseaux", "Jetons pour le gobelet", "journaux de bord",
                     "Boucliers levés", "Dégâts", "Porte des", "Vaisseau léger", "rouge", "FIN"],
    }  # fmt: skip
    for ruleset in ("ftl", "hexfleet"):
        out = tmp_path / f"{ruleset}.pdf"
        done = spacetable("print", "-o", out, "--ruleset", ruleset, "--lang", "fr")
        assert done.returncode == 0, done.stderr
        pdf = pdfium.PdfDocument(out)
        try:
            text = " ".join(" ".join(_text(pdf, p).split()) for p in range(len(pdf)))
        finally:
            pdf.close()
        for word in english[ruleset]:
            assert re.search(rf"(?<![\w']){re.escape(word)}(?![\w'])", text) is None, (word, text)
        for word in french[ruleset]:
            assert word in text, (word, text)


def _dark_runs(row: Gray) -> list[tuple[int, int]]:
    """(start, length) of each run of dark pixels along a row."""
    dark = np.concatenate(([False], row < 128, [False]))
    edges = np.flatnonzero(dark[1:] != dark[:-1])
    return [(int(a), int(b - a)) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def test_the_ftl_ruler_and_check_line_print_true_to_the_inch(a4: Printed) -> None:
    """The 5 in check line's end ticks and the 8 in ruler's first and last ticks are as
    far apart as they say on the page."""
    page = next(p for p in range(len(a4.pdf)) if "exactly 5 in" in _text(a4.pdf, p))
    dpi = 300.0
    inch, mm = dpi, dpi / MM_PER_IN
    image = _raster(a4.pdf, page, dpi)
    checks, rulers = [], []
    for r, row in enumerate(image):
        runs = _dark_runs(row)
        for a, n in runs:
            if 4.9 * inch < n < 5.1 * inch:  # the check line: its ticks 2 mm above it
                above = _dark_runs(image[r - round(2 * mm)])
                ticks = [b + m / 2 for b, m in above if a - mm <= b <= a + n + mm and m < mm]
                assert len(ticks) == 2
                checks.append((ticks[1] - ticks[0]) / inch)
        centres = [a + n / 2 for a, n in runs if n < mm]
        steps = np.diff(centres)
        regular = np.abs(steps - inch / 4) <= 1.0
        if regular.sum() == 32 and len(centres) <= 36:  # 33 quarter-inch ticks in a row
            first = int(np.argmax(regular))
            rulers.append((centres[first + 32] - centres[first]) / inch)
    assert checks and rulers
    # within a pixel (0.08 mm) of the length printed beside them
    assert max(abs(inches - 5) for inches in checks) <= 1 / dpi
    assert max(abs(inches - 8) for inches in rulers) <= 1 / dpi


@pytest.mark.parametrize(
    ("ruleset", "ship", "owner", "copy"),
    [
        ("lightspeed", "moth", "purple", 3),
        ("stellar", "vak-dominator", "green", 1),
        ("stellar", "asteroid", None, 8),
    ],
)
def test_one_card_alone_is_a_page_its_size_with_its_markers(
    ruleset: str, ship: str, owner: str | None, copy: int
) -> None:
    pdf = pdfium.PdfDocument(card_pdf(ruleset, ship, owner, copy))
    try:
        assert _page_mm(pdf, 0) == pytest.approx((63.0, 88.0), abs=0.01)
        image = np.pad(_raster(pdf, 0, 200.0), 20, constant_values=255)
    finally:
        pdf.close()
    _, ids, _ = _detector().detectMarkers(image)
    assert ids is not None
    asteroid = ship == markers.ASTEROID
    wanted = markers.marker_ids(None if asteroid else ruleset, ship, owner, copy)
    assert sorted(int(i) for i in ids.ravel()) == sorted(wanted)


def test_a_card_without_markers_is_refused() -> None:
    with pytest.raises(PrintError, match="copy 4"):
        card_pdf("lightspeed", "moth", "red", 4)


def test_the_same_options_print_the_same_pdf(tmp_path: Path) -> None:
    first, second = tmp_path / "1.pdf", tmp_path / "2.pdf"
    for out in (first, second):
        done = spacetable("print", "-o", out, "--ruleset", "stellar", "--race", "hexai")
        assert done.returncode == 0, done.stderr
    assert first.read_bytes() == second.read_bytes()


def test_the_photo_referee_reads_a_printed_page_where_the_manifest_puts_its_cards(
    a4: Printed, tmp_path: Path
) -> None:
    """A printed page seen square on (rasterised at 200 dpi) through `spacetable photo`:
    every card found, named as printed, centred where the manifest says (the table's
    origin at the centre of the cards' bounding box, y up the page) within 0.3 mm, and
    upright."""
    page = next(  # a page with two players' cards: a battle needs two
        p
        for p in sorted({c["page"] for c in a4.cards})
        if len({c["owner"] for c in a4.cards if c["page"] == p} - {None}) >= 2
    )
    image = tmp_path / "page.png"
    a4.pdf[page].render(scale=200 / 72).to_pil().save(image)
    done = spacetable("photo", image, "--json")
    assert done.returncode == 0, done.stderr
    found = {card["id"]: card for card in json.loads(done.stdout)["table"]["cards"]}
    cards = [c for c in a4.cards if c["page"] == page]
    left = min(c["x"] for c in cards)
    right = max(c["x"] + c["width"] for c in cards)
    top = min(c["y"] for c in cards)
    bottom = max(c["y"] + c["height"] for c in cards)
    assert len(found) == len(cards)
    for card in cards:
        key = markers.CardKey(card["ruleset"], card["ship"], card["owner"], card["copy"])
        seen = found[key.card_id]
        x = card["x"] + card["width"] / 2 - (left + right) / 2
        y = (top + bottom) / 2 - (card["y"] + card["height"] / 2)
        assert math.hypot(seen["x"] - x, seen["y"] - y) < 0.3, key.card_id
        assert abs(seen.get("rotation", 0.0)) < 0.3, key.card_id
