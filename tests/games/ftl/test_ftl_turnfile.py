"""FTL turn files (DESIGN section 5): the ``resolve --json`` object, and refusals in one
line naming the piece and the order."""

from __future__ import annotations

import json
from typing import Any

import pytest

from spacetable.games.ftl import TurnFileError, load_turn, narrate_turn, resolve_turn_file
from spacetable.games.ftl.narrate import bearing, heading_text
from tests._ftl import missile, ship, turn

CONTRACT_EXAMPLE = {
    "ruleset": "ftl",
    "players": ["red", "blue"],
    "pieces": [
        {"id": "red", "kind": "ship", "owner": "red", "x": 0, "y": -10, "heading": 0,
         "hits": 0, "missiles": 10, "launched": 0},
        {"id": "blue-m1", "kind": "missile", "owner": "blue", "x": 3, "y": 4, "heading": 90},
    ],
    "orders": [{"piece": "red", "order": "S4"}, {"piece": "blue-m1", "order": "R-90"}],
}  # fmt: skip


def test_the_contract_example_resolves() -> None:
    result = resolve_turn_file(json.dumps(CONTRACT_EXAMPLE))
    assert set(result) >= {"pieces", "over", "winner", "events"}
    assert result["pieces"]["red"] == {
        "kind": "ship", "owner": "red", "x": 0, "y": -6, "heading": 0, "hits": 0,
        "on_table": True, "missiles": 10, "launched": 0,
    }  # fmt: skip
    assert result["pieces"]["blue-m1"]["heading"] == 180
    # Blue has no ship on the table: red is the last player with one.
    assert result["over"] is True and result["winner"] == "red"


def test_every_heading_in_the_result_lies_in_the_half_open_range() -> None:
    pieces = [ship("red", 0, 0, -180), ship("blue", 5, 0, 540), missile("red-m1", 0, 5, -179)]
    text = json.dumps(turn(pieces, [("red", "R+0"), ("blue", "R+180"), ("red-m1", "R-15")]))
    headings = [p["heading"] for p in resolve_turn_file(text)["pieces"].values()]
    assert headings == [180, 0, -164]
    assert all(-180 < h <= 180 for h in headings)


def test_the_result_lists_pieces_that_began_the_turn_or_were_launched() -> None:
    text = json.dumps(turn([ship("red", 0, 0), ship("blue", 0, 3)], [("red", "L")]))
    assert list(resolve_turn_file(text)["pieces"]) == ["red", "blue", "red-m1"]


def test_a_byte_order_mark_and_bytes_are_read() -> None:
    text = json.dumps(CONTRACT_EXAMPLE)
    assert resolve_turn_file(b"\xef\xbb\xbf" + text.encode()) == resolve_turn_file(text)


def test_the_account_tells_the_turn() -> None:
    data = turn(
        [ship("red", 0, 0), ship("blue", 0, 3), missile("blue-m1", 5, 5)],
        [("red", "S4"), ("blue", "R+90"), ("blue-m1", "S1"), ("red", "L")],
    )
    result = load_turn(json.dumps(data)).resolve()
    lines = narrate_turn(result.turn.pieces, result.events)
    text = "\n".join(lines)
    assert "red's ship [red]: the second order L is ignored." in text
    assert "turns 90 deg clockwise, now facing 90 deg." in text
    assert "collide" in text and "a draw" in text


@pytest.mark.parametrize(
    ("heading", "shown"),
    [
        (0, "0 deg"),
        (-90, "90 deg"),
        (90, "270 deg"),
        (180, "180 deg"),
        (-105, "105 deg"),
        (-0.0, "0 deg"),
        (15.5, "344.5 deg"),
        (-359.999, "0 deg"),
        (-0.004, "0 deg"),
    ],
)
def test_headings_are_told_clockwise_from_up_as_orders_turn(heading: float, shown: str) -> None:
    assert heading_text(heading) == shown
    assert 0 <= bearing(heading) < 360


def _refusal(data: Any) -> str:
    with pytest.raises(TurnFileError) as caught:
        resolve_turn_file(data if isinstance(data, str) else json.dumps(data))
    message = str(caught.value)
    assert "\n" not in message
    return message


def two_ships(**red: Any) -> list[dict[str, Any]]:
    return [ship("red", 0, 0, **red), ship("blue", 0, 5, 180)]


@pytest.mark.parametrize(
    ("orders", "words"),
    [
        ([("red", "R+10")], ["'red'", "'R+10'"]),
        ([("red", "R195")], ["'red'", "'R195'"]),
        ([("red", "S0.5")], ["'red'", "'S0.5'"]),
        ([("red", "S8.5")], ["'red'", "'S8.5'"]),
        ([("red", "S2.25")], ["'red'", "'S2.25'"]),
        ([("red", "Jump")], ["'red'", "'Jump'"]),
        ([("red", "S4"), ("red", "S9")], ["'red'", "'S9'"]),
        ([("green", "S4")], ["'green'", "'S4'", "no such piece"]),
        ([("red-m1", "S4")], ["'red-m1'", "no such piece"]),
    ],
)
def test_bad_orders_are_refused_naming_the_piece_and_the_order(
    orders: list[tuple[str, str]], words: list[str]
) -> None:
    message = _refusal(turn(two_ships(), orders))
    for word in words:
        assert word in message


def test_a_missile_ordered_to_launch_is_refused() -> None:
    message = _refusal(turn([*two_ships(), missile("red-m1", 3, 3)], [("red-m1", "L")]))
    assert "'red-m1'" in message and "'L'" in message and "only ships" in message


def test_a_launch_with_no_missiles_left_is_refused() -> None:
    message = _refusal(turn(two_ships(missiles=0), [("red", "L")]))
    assert "'red'" in message and "'L'" in message and "no missiles left" in message


def test_a_launch_whose_missile_name_is_taken_is_refused() -> None:
    message = _refusal(turn([*two_ships(), missile("red-m1", 3, 3)], [("red", "L")]))
    assert "'red'" in message and "'L'" in message and "'red-m1'" in message
    fine = turn([*two_ships(launched=1), missile("red-m1", 3, 3)], [("red", "L")])
    assert "red-m2" in resolve_turn_file(json.dumps(fine))["pieces"]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"ruleset": "lightspeed"}, "'ruleset'"),
        ({"players": ["red"]}, "2 to 4"),
        ({"players": ["red", "red"]}, "distinct"),
        ({"pieces": []}, "'pieces'"),
        ({"orders": {"red": "S4"}}, "'orders'"),
        ({"orders": [{"piece": "red"}]}, "order 1"),
        ({"table": {"width": 10}}, "'table'"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_files_are_refused(change: dict[str, Any], words: str) -> None:
    assert words in _refusal({**turn(two_ships(), []), **change})


@pytest.mark.parametrize(
    ("piece", "words"),
    [
        ({"kind": "station"}, "'kind'"),
        ({"owner": "green"}, "'owner'"),
        ({"x": 30}, "off the 48 x 48 in table"),
        ({"y": 1e300}, "'y'"),
        ({"heading": "north"}, "'heading'"),
        ({"hits": 3}, "'hits'"),
        ({"missiles": -1}, "'missiles'"),
        ({"launched": 1.5}, "'launched'"),
        ({"size": [0.75]}, "'size'"),
        ({"speed": 3}, "speed"),
    ],
)
def test_bad_pieces_are_refused_by_name(piece: dict[str, Any], words: str) -> None:
    data = turn([{**ship("red", 0, 0), **piece}, ship("blue", 0, 5)], [])
    message = _refusal(data)
    assert words in message and "'red'" in message


def test_two_pieces_of_one_name_are_refused() -> None:
    assert "'red'" in _refusal(turn([ship("red", 0, 0), ship("red", 0, 5)], []))


def test_malformed_json_and_huge_files_are_refused() -> None:
    assert "malformed JSON" in _refusal("{")
    assert "larger than" in _refusal(" " * (1 << 20 + 1))
