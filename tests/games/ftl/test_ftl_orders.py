"""FTL orders as the rulebook writes them (DESIGN section 5, rulings F1-F2)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from spacetable.games.ftl.orders import (
    IllegalOrder,
    Launch,
    MalformedOrder,
    Rotate,
    Sprint,
    order_problem,
    orders_for,
    parse_order,
)
from spacetable.games.ftl.pieces import Piece
from tests._golden import GOLDEN

#: The texts a player may type and how they read, shared with the browser's reader
#: (tests/browser/ftl/test_ftl_order_texts.py holds web/js/games/ftl/orders.js to it).
ORDER_TEXTS = json.loads((GOLDEN / "ftl-order-texts.json").read_text(encoding="utf-8"))

EN_DASH = "\u2013"


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("R+45", Rotate(45)),
        ("R-45", Rotate(-45)),
        (f"R{EN_DASH}45", Rotate(-45)),
        ("R75", Rotate(75)),
        ("R+15", Rotate(15)),
        ("R180", Rotate(180)),
        ("R-180", Rotate(-180)),
        ("R0", Rotate(0)),
        ("S3", Sprint(3.0)),
        ("S2.5", Sprint(2.5)),
        ("S1", Sprint(1.0)),
        ("S8", Sprint(8.0)),
        ("S8.0", Sprint(8.0)),
        ("L", Launch()),
        (" s2.5 ", Sprint(2.5)),
        ("r-30", Rotate(-30)),
        ("l", Launch()),
    ],
)
def test_orders_as_the_rulebook_writes_them(text: str, order: object) -> None:
    assert parse_order(text) == order


@pytest.mark.parametrize(
    "text", ["R+10", "R195", "R-195", "R+7", "S0.5", "S8.5", "S2.25", "S0", "S9", "S2.5000001"]
)
def test_orders_the_rules_forbid_are_illegal_and_quoted(text: str) -> None:
    with pytest.raises(IllegalOrder, match=repr(text).replace("+", r"\+").replace(".", r"\.")):
        parse_order(text)


@pytest.mark.parametrize(
    "text",
    ["", "X3", "S", "R", "R+", "S+3", "S-2", "R4.5", "LL", "S2,5", "R+45.0", "S\u0663", "S1e1"],
)
def test_texts_that_are_no_order_are_malformed(text: str) -> None:
    with pytest.raises(MalformedOrder):
        parse_order(text)


def test_a_long_text_is_malformed_and_shown_clipped() -> None:
    with pytest.raises(MalformedOrder) as caught:
        parse_order("S" + "1" * 10_000)
    assert len(str(caught.value)) < 100


@pytest.mark.parametrize("text", ["R+45", "R-45", "R75", "S3", "S2.5", "L"])
def test_orders_round_trip_through_their_text(text: str) -> None:
    order = parse_order(text)
    assert parse_order(order.text) == order


def test_only_ships_with_missiles_left_launch() -> None:
    ship = Piece.ship("red", "red", 0, 0, 0, missiles=1)
    assert order_problem(ship, Launch()) is None
    empty = ship.evolve(missiles=0)
    assert "no missiles left" in (order_problem(empty, Launch()) or "")
    missile = Piece.missile("red-m1", "red", 0, 0, 0)
    assert "only ships" in (order_problem(missile, Launch()) or "")
    assert order_problem(missile, Sprint(3.0)) is None


def test_every_piece_has_24_rotations_and_15_sprints() -> None:
    missile = Piece.missile("red-m1", "red", 0, 0, 0)
    texts = [o.text for o in orders_for(missile)]
    assert len(texts) == 39 and len(set(texts)) == 39
    assert "R+180" in texts and "R-180" not in texts and "S8" in texts and "S0.5" not in texts
    assert "L" in [o.text for o in orders_for(Piece.ship("red", "red", 0, 0, 0))]
    assert all(parse_order(t).text == t for t in texts)


def _as_json(order: Rotate | Sprint | Launch) -> dict[str, Any]:
    if isinstance(order, Rotate):
        return {"kind": "R", "angle": order.angle_deg}
    if isinstance(order, Sprint):
        return {"kind": "S", "distance": order.distance_in}
    return {"kind": "L"}


@pytest.mark.parametrize("entry", ORDER_TEXTS["read"], ids=lambda e: ascii(e["text"]))
def test_orders_are_read_as_a_person_types_them(entry: dict[str, Any]) -> None:
    """Case, spaces, any minus sign (U+2212 too) and full-width digits (DESIGN section 5)."""
    assert _as_json(parse_order(entry["text"])) == entry["order"]


@pytest.mark.parametrize("entry", ORDER_TEXTS["refused"], ids=lambda e: ascii(e["text"]))
def test_texts_refused_say_why_quoting_them(entry: dict[str, Any]) -> None:
    kind = IllegalOrder if entry["refused"] == "illegal" else MalformedOrder
    with pytest.raises(kind) as caught:
        parse_order(entry["text"])
    assert repr(entry["text"].strip()) in str(caught.value)


def test_the_32_character_limit_counts_after_the_spaces_are_dropped() -> None:
    """``S3`` and 31 blanks is ``S3`` (DESIGN section 5): the spaces are dropped first."""
    assert parse_order("S3" + " " * 31) == Sprint(3.0)
    assert parse_order("S3" + " " * 40) == Sprint(3.0)
    assert parse_order(" " * 120 + "R - 4 5" + " " * 129) == Rotate(-45)


@pytest.mark.parametrize("entry", ORDER_TEXTS["too_long"], ids=lambda e: str(len(e["text"])))
def test_a_text_too_long_is_malformed_naming_the_limit(entry: dict[str, Any]) -> None:
    with pytest.raises(MalformedOrder) as caught:
        parse_order(entry["text"])
    said = str(caught.value)
    assert f"at most {entry['most']} characters" in said
    assert len(said) < 120


def test_a_raw_text_of_257_characters_is_refused_naming_the_256_limit() -> None:
    text = "S3" + " " * 255
    assert len(text) == 257
    with pytest.raises(MalformedOrder, match="an order's text is at most 256 characters"):
        parse_order(text)
    assert parse_order(text[:-1]) == Sprint(3.0)
