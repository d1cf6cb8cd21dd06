"""The rules page's pictures: each one is SVG drawn by the renderers, and shows what its
caption on the page says it shows."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from spacetable.games.ftl.turnfile import turn_from_json
from spacetable.i18n import translator
from spacetable.lasers.tables import table_from_json
from spacetable.render.rules_figures import FIGURES, FTL_EXAMPLE, LIGHTSPEED_EXAMPLE, figure_svg

NS = "{http://www.w3.org/2000/svg}"


def parse(name: str) -> ET.Element:
    root = ET.fromstring(figure_svg(name))
    assert root.tag == f"{NS}svg"
    return root


def classed(root: ET.Element, *names: str) -> list[ET.Element]:
    """Elements whose class list holds every one of ``names``."""
    return [el for el in root.iter() if set(names) <= set(el.get("class", "").split())]


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_figure_is_an_svg_picture_drawn_the_same_each_time(name: str) -> None:
    root = parse(name)
    _, _, width, height = (float(v) for v in root.get("viewBox", "").split())
    assert width > 0 and height > 0
    assert figure_svg(name) == figure_svg(name)


def test_an_unknown_figure_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        figure_svg("chess-board")


def test_the_light_speed_example_mines_blocks_a_laser_and_destroys_the_shooter() -> None:
    outcome = table_from_json(LIGHTSPEED_EXAMPLE).resolve()
    assert outcome.asteroids["asteroid"] == 3  # the Moth took 3 of the 6 rocks
    assert outcome.kill_piles == {"red": [], "blue": ["red-sidewinder"]}
    assert outcome.scores == {"red": 3, "blue": 2}
    before, after = parse("lightspeed-before"), parse("lightspeed-after")
    assert not classed(before, "laser")
    assert len(classed(after, "laser", "result-blocked")) == 1  # the Intruder's front shield
    assert len(classed(after, "laser", "result-damage")) == 1
    assert len(classed(after, "mine-hit")) == 2
    # The table alone: the page says who scores what, and what each mark means.
    assert not classed(after, "panel") and not classed(after, "score-box")


def test_the_ftl_example_shows_a_tape_meeting_a_missile_that_turned() -> None:
    result = turn_from_json(FTL_EXAMPLE).resolve()
    pieces = {p.id: p for p in result.pieces}
    assert pieces["red"].hits == 1
    assert not pieces["blue-m1"].on_table
    assert "blue-m2" in pieces  # Blue launched
    assert not result.over
    before, after = parse("ftl-before"), parse("ftl-after")
    assert not classed(before, "tape")
    assert len(classed(after, "tape")) == 1
    assert len(classed(after, "contact", "effect-ship-on-missile")) == 1
    assert classed(after, "piece", "missile", "removed")
    assert classed(after, "piece", "missile", "launched")


def test_the_card_faces_show_their_ship() -> None:
    for name, ship in [("lightspeed-card", "intruder"), ("stellar-card", "wiss-skein")]:
        (card,) = classed(parse(name), "card", "ship")
        assert card.get("data-ship") == ship


def _words(svg: str) -> str:
    return " ".join(t.text or "" for t in ET.fromstring(svg).iter(f"{NS}text"))


def test_a_figure_holds_the_words_of_the_reader_s_language() -> None:
    french = translator("fr")
    after = _words(figure_svg("ftl-after", french))
    for words in ("rouge, 1 touche", "bleu-m1, retiré", "bleu-m2, lancé", "5 po"):
        assert words in after
    assert "red" not in after and "removed" not in after
    english = _words(figure_svg("ftl-after"))
    assert "red, 1 hit" in english and "blue-m1, removed" in english and "5 in" in english
    assert "Un vaisseau léger ne tire que" in _words(figure_svg("hexfleet-arc", french))
    assert "3\u00a0: pivote" in _words(figure_svg("hexfleet-move", french))
    lightspeed = _words(figure_svg("lightspeed-after", french))
    assert "ASTÉROÏDE" in lightspeed and "pile « victimes » de bleu" in lightspeed
    assert "2 PV" in _words(figure_svg("stellar-card", french))
    combat = _words(figure_svg("hexfleet-combat", french))
    for words in ("Lance tire sur Bastion", "boucliers baissés → levés", "rouge · moyen"):
        assert words in combat
    assert "shields" not in combat and "fires" not in combat


def test_the_ftl_figures_are_the_table_alone_with_labels_a_phone_can_read() -> None:
    """Their key is the page's text (issue 20 item 10: drawn in the picture it was 6 px
    tall on the page); its words are 20 px in a picture 540 px wide, so 12.6 px when a
    phone shrinks it to 340 px."""
    for name in ("ftl-before", "ftl-after"):
        root = parse(name)
        assert not classed(root, "panel") and not classed(root, "summary")
        assert float(root.get("width", "0")) <= 540
        sizes = {float(t.get("font-size", "0")) for t in root.iter(f"{NS}text")}
        assert sizes == {20.0}
