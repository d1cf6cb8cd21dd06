"""One end card for every game (issue 36 item 15). The laser games ended on "Play again",
FTL and the hex fleet on "Rematch"; after the end FTL and the hex fleet still offered "Tell
me when it is my turn" and the laser games their battle bar. Now every room's end is the
shell's card (shell/endcard.js): who won, how it ended, one Rematch, the replay's link and
the way back to the lobby, then what only the game says (its scores), and nothing of play
is offered any more; at 1366 x 800 and on a 390 x 844 phone. And the FTL replay of a
resigned match said the resignation four times, its end card over the top ship."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import FloatRect, Page, expect

from tests._server import Server as RunningServer
from tests.browser._play import answer_name, end_in_sight
from tests.browser._replay import ann_against_a_bot
from tests.browser._servers import quick_server_for
from tests.browser.conftest import OpenPage, Server, Shot

quick_server = quick_server_for("one-end-card", room_seed=9)

DEVICES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1366, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}

#: The card's head, the same in every game: who won, how, Rematch, the replay, the lobby.
HEAD = ["winner", "end-reason", "rematch", "replay-link", "lobby-link"]


def _battle(page: Page) -> None:
    """Light Speed against a bot that empties its deck at once: the battle, skipped."""
    page.locator("#battle-skip").wait_for(timeout=60_000)
    page.click("#battle-skip")


def _resign(page: Page) -> None:
    page.locator("#resign").click()
    page.locator("#confirm-resign").click()


def _one_turn(page: Page) -> None:
    """FTL with a limit of one turn: an empty plot, and the turn limit ends the match."""
    page.locator("#submit-plot").click()


#: Each game's room (POST /api/rooms) and how the test ends it: by its rules where that is
#: quick (Light Speed's battle, FTL's turn limit), else by resigning.
GAMES: dict[str, tuple[dict[str, Any], Callable[[Page], None]]] = {
    "lightspeed": ({"ruleset": "lightspeed", "seats": 2, "asteroids": "single"}, _battle),
    "stellar": (
        {"ruleset": "stellar", "seats": 2, "battle_size": "dispute", "races": ["vak", "wiss"]},
        _resign,
    ),
    "ftl": ({"ruleset": "ftl", "seats": 2, "turn_limit": 1}, _one_turn),
    "hexfleet": ({"ruleset": "hexfleet", "seats": 2, "scenario": "duel"}, _resign),
}
#: The games played a turn at a time, which offer turn notifications while playing.
TURNS = ("ftl", "hexfleet")


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_ends_on_the_same_card(
    quick_server: RunningServer, open_page: OpenPage, shot: Shot, game: str
) -> None:
    options, end = GAMES[game]
    for device, context in DEVICES.items():
        room = quick_server.post("/api/rooms", options)["id"]
        page = open_page(f"{quick_server.http}/rooms/{room}?join=1&bots=1:easy", **context)
        answer_name(page, "Ann")
        page.locator(".seat[data-seat='1'][data-kind=bot]").wait_for()
        page.click("button#ready")
        page.locator("#resign").wait_for()
        if game in TURNS:  # the tab offers to call the player back while the match is on
            expect(page.locator("#notify-turn")).to_be_visible()
        end(page)
        page.locator("body[data-phase=over]").wait_for(timeout=60_000)
        end_in_sight(page)
        card = page.locator("#table-wrap .end-card:visible")
        expect(card).to_have_count(1)
        expect(card.locator("#rematch")).to_have_text("Rematch")
        # Nothing of play is left: no turn notifications, no battle bar.
        expect(page.locator("#notify-turn:visible, .notify-answer:visible")).to_have_count(0)
        expect(page.locator("#battle-controls:visible, #battle-skip:visible")).to_have_count(0)
        head = card.locator(".end-head [id]").evaluate_all("nodes => nodes.map((n) => n.id)")
        assert head == HEAD, (game, device, head)
        assert card.locator("#end-reason").inner_text().strip()
        expect(card.locator("#lobby-link")).to_have_attribute("href", "/")
        for link in ("#replay-link", "#lobby-link"):
            expect(card.locator(link)).to_be_visible()
        if game == "lightspeed":  # the game's own lines: its scores, under the head
            expect(card.locator(".score-list")).to_be_visible()
        shot(page, device)


def _overlap(a: FloatRect, b: FloatRect) -> float:
    width = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    height = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return max(0.0, width) * max(0.0, height)


def test_an_ftl_replay_says_a_resignation_once_beside_the_ships(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    with ann_against_a_bot(server, {"ruleset": "ftl", "seats": 2}, "easy") as ann:
        ann.wait(lambda m: m["type"] == "state")
        ann.send(type="resign")
        match_id = ann.wait(lambda m: m["type"] == "result")["match_id"]
    for device, context in DEVICES.items():
        page = open_page(f"/replay/{match_id}", reduced_motion="reduce", **context)
        page.locator("body[data-phase=over]").wait_for(timeout=30_000)
        card = page.locator("#replay-end")
        expect(card).to_be_visible()
        told = page.evaluate("document.body.innerText")
        box = card.bounding_box()
        assert box is not None
        ships = page.locator(".ftl-pieces .ftl-piece[data-kind=ship]")
        expect(ships).to_have_count(2)
        boxes = [ship.bounding_box() for ship in ships.all()]
        covered = [piece for piece in boxes if piece is None or _overlap(box, piece) > 0]
        # The resignation said once (the end card's line), and the card over no ship.
        assert (told.count("resigned"), covered) == (1, []), (device, box, told)
        shot(page, device)
