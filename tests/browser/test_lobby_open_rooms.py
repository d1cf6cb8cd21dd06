"""The lobby's open rooms at 1366 x 800 and on a 390 x 844 phone (issue 36 item 18): the game
cell held the whole sentence of the room's options ("Faster Than Light: 2 seats, 48 x 48 in
table, ... (then most hits, then most pieces left, win), ..."), and the Watch cell stood
out of its row. Now the game's title, its options on a second, quieter line; every cell, and
Join and Watch, inside its row."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import OpenPage, Server, Shot

SIZES: dict[str, dict[str, Any]] = {
    "1366x800": {"viewport": {"width": 1366, "height": 800}},
    "390x844": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
#: A room of each game, the longest options each can say.
ROOMS: dict[str, dict[str, Any]] = {
    "lightspeed": {"ruleset": "lightspeed", "seats": 2, "rocks": 3, "piracy": True},
    "stellar": {"ruleset": "stellar", "seats": 2, "battle_size": "dispute", "stolen_goods": True},
    "ftl": {"ruleset": "ftl", "seats": 2, "turn_limit": 20, "plot_timer_s": 60},
    "hexfleet": {"ruleset": "hexfleet", "seats": 2, "scenario": "duel"},
}

#: Each cell's box and its row's, and each link's in the row, for the row of room ``id``.
ROW = """(id) => {
  const row = document.querySelector(`#rooms tr[data-room="${id}"]`);
  const box = (e) => {
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const title = row.querySelector('.room-game-title');
  const options = row.querySelector('.room-game-options');
  return { row: box(row), table: box(row.closest('table')),
           cells: [...row.cells].filter((c) => c.getClientRects().length).map(box),
           links: [...row.querySelectorAll('a')].map((a) => ({ text: a.textContent, box: box(a) })),
           title: title?.textContent ?? null, options: options?.textContent ?? null,
           titleBox: box(title), optionsBox: box(options) };
}"""


def inside(inner: list[float], outer: list[float]) -> bool:
    return (
        inner[0] >= outer[0] - 0.5
        and inner[1] >= outer[1] - 0.5
        and inner[2] <= outer[2] + 0.5
        and inner[3] <= outer[3] + 0.5
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_an_open_rooms_game_cell_is_its_title_and_its_row_holds_join_and_watch(
    open_page: OpenPage, server: Server, shot: Shot, size: str
) -> None:
    titles = {game["key"]: game["title"] for game in server.api("/api/games")}
    rooms = {key: server.api("/api/rooms", body)["id"] for key, body in ROOMS.items()}
    lobby = open_page("/", **SIZES[size])
    for room in rooms.values():
        lobby.wait_for_selector(f"#rooms tr[data-room='{room}']")
    lobby.locator("#rooms").scroll_into_view_if_needed()
    width = SIZES[size]["viewport"]["width"]
    for key, room in rooms.items():
        row = lobby.evaluate(ROW, room)
        assert row["table"][2] <= width, row
        for cell in row["cells"]:
            assert inside(cell, row["row"]), (key, cell, row)
            if size == "1366x800":
                # A table's cell spans its row: the actions' cell (Join, Watch) was a flex box
                # shorter than a row of two lines, its bottom rule through the row's middle.
                assert abs(cell[1] - row["row"][1]) <= 1.5, (key, cell, row)
                assert abs(cell[3] - row["row"][3]) <= 1.5, (key, cell, row)
        assert [link["text"] for link in row["links"]] == ["Join", "Watch"], row
        for link in row["links"]:
            assert inside(link["box"], row["row"]), (key, link, row)
        assert row["title"] == titles[key], row
        assert row["options"] and titles[key] not in row["options"], row
        # The options on their own line under the title.
        assert row["optionsBox"][1] >= row["titleBox"][3] - 1, row
    ftl = lobby.evaluate(ROW, rooms["ftl"])
    # The title's cell is no longer a paragraph: on a laptop the row is at most three lines.
    if size == "1366x800":
        assert ftl["row"][3] - ftl["row"][1] < 80, ftl
    lobby.locator(f"#rooms tr[data-room='{rooms['ftl']}']").scroll_into_view_if_needed()
    shot(lobby, "open-rooms")
