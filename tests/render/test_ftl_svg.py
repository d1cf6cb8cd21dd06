"""The Faster Than Light turn picture: what a player would see drawn for each example turn."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from spacetable.games.ftl.events import Contact, TapeLaid
from spacetable.games.ftl.turnfile import TurnFile, load_turn
from spacetable.render.ftl_svg import turn_svg
from tests._ftl import missile, ship, turn
from tests._paths import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("ftl-*.json"))
NS = "{http://www.w3.org/2000/svg}"


def example(name: str) -> TurnFile:
    return load_turn((EXAMPLES[0].parent / f"ftl-{name}.json").read_text(encoding="utf-8"))


def parse(svg: str) -> ET.Element:
    """Parse SVG text (it must be well-formed XML)."""
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def classed(root: ET.Element, *names: str) -> list[ET.Element]:
    """Elements whose class list holds every one of ``names``."""
    return [el for el in root.iter() if set(names) <= set(el.get("class", "").split())]


def summary(root: ET.Element) -> str:
    (caption,) = classed(root, "summary")
    return caption.text or ""


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 4


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_piece_is_drawn_before_and_after(path: Path) -> None:
    file = load_turn(path.read_text(encoding="utf-8"))
    before = parse(turn_svg(file))
    assert {el.get("data-piece") for el in classed(before, "piece")} == {p.id for p in file.pieces}
    result = file.resolve()
    after = parse(turn_svg(file, result))
    starts = {el.get("data-piece") for el in classed(after, "piece", "start")}
    finals = {el.get("data-piece") for el in classed(after, "piece", "final")}
    assert starts == {p.id for p in file.pieces}
    assert finals == {p.id for p in result.pieces}
    labels = {el.get("data-piece") for el in classed(after, "label")}
    assert labels == finals


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_tape_and_contact_is_drawn(path: Path) -> None:
    file = load_turn(path.read_text(encoding="utf-8"))
    result = file.resolve()
    root = parse(turn_svg(file, result))
    tapes = [e for e in result.events if isinstance(e, TapeLaid)]
    drawn = classed(root, "tape")
    assert [el.get("data-piece") for el in drawn] == [t.piece for t in tapes]
    contacts = [e for e in result.events if isinstance(e, Contact)]
    marks = classed(root, "contact")
    assert [(m.get("data-piece"), m.get("data-target")) for m in marks] == [
        (c.piece, c.target) for c in contacts
    ]
    for mark, contact in zip(marks, contacts, strict=True):
        (distance,) = classed(mark, "distance")
        assert distance.text == f"{contact.distance:.2f}".rstrip("0").rstrip(".") + " in"


def test_sprints_draw_one_tape_each() -> None:
    file = example("two-tapes-one-ship")
    root = parse(turn_svg(file, file.resolve()))
    assert len(classed(root, "tape")) == 3
    assert len(classed(root, "tape", "stopped")) == 3  # each missile is spent on blue
    assert len(classed(root, "contact", "effect-missile-on-ship")) == 3
    assert [el.text for el in classed(root, "tape-label")] == ["S8", "S8", "S8"]
    sprint = example("sprint-hits-missile")
    root = parse(turn_svg(sprint, sprint.resolve()))
    assert len(classed(root, "tape")) == 2
    assert not classed(root, "tape", "stopped")


def test_removed_pieces_are_crossed_out() -> None:
    file = example("collision")
    root = parse(turn_svg(file, file.resolve()))
    removed = {el.get("data-piece") for el in classed(root, "piece", "final", "removed")}
    assert removed == {"red", "blue", "blue-m1"}
    assert {el.get("data-piece") for el in classed(root, "removed-mark")} == removed
    labels = {el.get("data-piece"): el.text for el in classed(root, "label")}
    assert labels["red"] == "red, 2 hits, removed"
    assert "no ship is left on the table, a draw" in summary(root)


def test_a_launched_missile_is_marked_and_crossed_out_when_hit() -> None:
    file = example("sprint-hits-missile")
    root = parse(turn_svg(file, file.resolve()))
    (launched,) = classed(root, "piece", "launched")
    assert launched.get("data-piece") == "blue-m3"
    assert "removed" in launched.get("class", "").split()
    assert [el.get("data-piece") for el in classed(root, "launch-link")] == ["blue-m3"]
    (hit,) = classed(root, "contact")
    assert classed(hit, "hit")  # red's ship takes a hit: a star
    assert "The game goes on." in summary(root)


def test_off_table_and_rotations() -> None:
    file = example("launch-and-turn")
    root = parse(turn_svg(file, file.resolve()))
    (gone,) = classed(root, "piece", "off-table")
    assert gone.get("data-piece") == "blue-m1"
    assert [el.get("data-piece") for el in classed(root, "off-table-mark")] == ["blue-m1"]
    assert [(el.get("data-piece"), el.get("data-angle")) for el in classed(root, "rotation")] == [
        ("blue", "-45")
    ]
    assert [el.get("data-piece") for el in classed(root, "piece", "turned")] == ["blue"]
    ignored = [el.text for el in classed(root, "order")]
    assert "blue: S3 (a second order: ignored)" in ignored


def test_the_winner_is_named() -> None:
    # blue turns, so it is in normal space and the missile's tape hits it: its third hit
    pieces = [ship("red", 0, -10), ship("blue", 0, 0, hits=2), missile("red-m1", 0, -4)]
    file = load_turn(json.dumps(turn(pieces, [("red-m1", "S4"), ("blue", "R+15")])))
    root = parse(turn_svg(file, file.resolve()))
    assert "Game over: red wins" in summary(root)
    blue = {el.get("data-piece"): el for el in classed(root, "piece", "final")}["blue"]
    assert len(classed(blue, "hit-mark")) == 3


def test_the_table_scales_and_the_output_is_deterministic() -> None:
    file = example("launch-and-turn")  # a 36 x 36 in table
    result = file.resolve()
    sizes = []
    for scale in (10.0, 20.0, 40.0):
        svg = turn_svg(file, result, scale=scale)
        assert svg == turn_svg(file, file.resolve(), scale=scale)
        root = parse(svg)
        (area,) = classed(root, "table-area")
        assert float(area.get("width", "")) == pytest.approx(36 * scale)
        assert float(area.get("height", "")) == pytest.approx(36 * scale)
        sizes.append(float(root.get("width", "")))
    assert sizes[0] < sizes[1] < sizes[2]
    grid = parse(turn_svg(file, scale=10))
    assert len(classed(grid, "grid-6in")) == 2 * 7  # -18, -12, ..., 18 both ways
    assert len(classed(grid, "grid-1in")) == 2 * (37 - 7)


@pytest.mark.parametrize("scale", [0.0, -1.0, float("nan"), float("inf")])
def test_a_bad_scale_is_refused(scale: float) -> None:
    with pytest.raises(ValueError, match="scale"):
        turn_svg(example("collision"), scale=scale)
