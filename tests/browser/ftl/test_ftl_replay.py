"""The replay of a stored Faster Than Light match: a duel against a bot is played over the
room's websocket, then its replay plays every turn from the start, lists the orders each
player revealed, ends where the match ended, and steps back and forth."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from spacetable.games.ftl.match import FtlMatch
from tests.browser._replay import ann_against_a_bot, pause_and_end_on_a_phone, stored_match
from tests.browser.conftest import OpenPage, Server, Shot

#: What Ann writes each turn.
ANN_ORDERS = {1: ["ann:L"], 2: ["ann:R+45", "ann-m1:S3"], 3: ["ann:S2"]}


def play_duel(server: Server, orders: dict[int, list[str]] | None = None) -> dict[str, Any]:
    """Ann against the random bot on a 48 in table, one turn for each turn of ``orders``
    (those she writes; default :data:`ANN_ORDERS`); the stored match."""
    orders = ANN_ORDERS if orders is None else orders
    room = {"ruleset": "ftl", "seats": 2, "turn_limit": len(orders), "table_size_in": [48, 48]}
    with ann_against_a_bot(server, room, "random") as ann:
        while True:
            message = ann.wait(lambda m: m["type"] in ("state", "result"), timeout=30)
            if message["type"] == "result":
                break
            if message["phase"] == "plot" and not message["players"]["ann"]["plotted"]:
                ann.send(type="plot", orders=orders[message["turn"]])
    return stored_match(server, message["match_id"])


def shown_pieces(page: Page) -> set[str]:
    ids = page.locator(".ftl-pieces .ftl-piece").evaluate_all("gs => gs.map(g => g.dataset.piece)")
    return set(ids)


def test_a_stored_duel_replays_turn_by_turn(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    stored = play_duel(server)
    assert stored["ruleset"] == "ftl"
    final = FtlMatch.from_record(stored)
    turns = stored["result"]["turns"]

    page = open_page(f"/replay/{stored['id']}", reduced_motion="reduce")
    page.wait_for_selector("body[data-phase=over]", timeout=30_000)
    shot(page, "end")
    assert page.locator(".ftl-turns > li").count() == turns
    first = page.inner_text(".ftl-turns > li[data-turn='1']")
    assert "ann" in first and "L" in first
    assert "ann-m1 S3" in page.inner_text(".ftl-turns > li[data-turn='2']")
    on_table = {p.id for p in final.pieces.values() if p.on_table}
    assert shown_pieces(page) == on_table
    ann = next(p for p in final.pieces.values() if p.id == "ann")
    if ann.on_table:
        assert page.inner_text(".players li[data-player='ann'] .ship-state") == (
            f"{ann.hits} of 3 hits · {ann.missiles} missiles left"
        )
    result = stored["result"]
    expected = f"{result['winner']} wins" if result["winner"] else "A draw"
    assert page.inner_text("#ftl-result").startswith(expected)

    # Back to the start, then turn 1 again, told step by step.
    page.click("[data-step='first']")
    assert page.inner_text(".ftl-position") == f"Start · {turns} turns"
    assert shown_pieces(page) == {p["id"] for p in stored["result"]["start"]}
    page.click("[data-step='next']")
    page.wait_for_function("document.querySelector('#replay-log').textContent.includes('Launch:')")
    log = page.locator("#replay-log li").all_inner_texts()
    assert log[0] == "ann wrote: L."
    assert "Launch: ann's ship puts missile ann-m1 on the table at (0, -16.75) (9 left)." in log
    assert page.inner_text(".ftl-position") == f"Turn 1 of {turns}"
    assert "ann-m1" in shown_pieces(page)
    page.click("[data-step='back']")
    assert "ann-m1" not in shown_pieces(page)
    shot(page, "start")


def test_the_replay_on_a_phone(server: Server, open_page: OpenPage, shot: Shot) -> None:
    stored = play_duel(server)
    page = open_page(f"/replay/{stored['id']}", viewport={"width": 390, "height": 844})
    page.wait_for_selector(".ftl-turns > li")
    pause_and_end_on_a_phone(page, ".ftl-position", "Turn ", shot)  # turn 1 under way
    shot(page, "end")
