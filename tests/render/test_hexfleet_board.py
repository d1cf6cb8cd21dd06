"""The picture of a hex fleet battle as it stands: each ship on the table on its hex with
its facing, the activated one marked, a ship off the table only in the rows below, every
ship's systems as bars."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

from spacetable.games.hexfleet.match import HexMatch, HexOptions
from spacetable.render.hexfleet_board import board_svg


def by_class(root: ET.Element, word: str) -> list[ET.Element]:
    return [el for el in root.iter() if word in el.get("class", "").split()]


def test_the_ships_stand_on_their_hexes_and_the_active_one_is_marked() -> None:
    match = HexMatch(HexOptions(players=("red", "blue"), scenario="skirmish"), 4)
    assert match.activation is not None
    ships = list(match.ships.values())
    jumped = replace(ships[-1], at=None, status="jumped", returns_on=3)
    drawn = [*ships[:-1], jumped]
    svg = board_svg(match.board, drawn, match.players, active=match.activation.ship)
    root = ET.fromstring(svg)
    on_board = {el.get("data-ship"): el for el in by_class(root, "ship")}
    assert set(on_board) == {s.id for s in ships[:-1]}
    for ship in ships[:-1]:
        assert on_board[ship.id].get("data-hex") == str(ship.at)
    assert [el.get("data-ship") for el in by_class(root, "active")] == [match.activation.ship]
    rows = {el.get("data-ship"): el for el in by_class(root, "ship-row")}
    assert set(rows) == {s.id for s in ships}
    assert rows[jumped.id].get("opacity") == "0.45"
    assert len(by_class(root, "system")) == 3 * len(ships)
    assert svg == board_svg(match.board, drawn, match.players, active=match.activation.ship)
