"""The chat in a replay (issue 19): what was said during a stored FTL duel shows in the
replay's side panel at the moment it was said: not at the start, there once the turn it
was said in is shown, as plain text."""

from __future__ import annotations

from types import SimpleNamespace

from playwright.sync_api import expect

from tests._server import Client
from tests.browser._replay import stored_match
from tests.browser.conftest import OpenPage, Server, Shot

SAID = "<i>my</i> turn 2 plan"


def test_the_replay_shows_the_chat_at_its_time(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    room = server.api("/api/rooms", {"ruleset": "ftl", "seats": 2, "turn_limit": 2})
    urls = SimpleNamespace(ws=server.base.replace("http://", "ws://"))
    ann = Client(urls, room["id"])  # type: ignore[arg-type]
    try:
        ann.send(type="join", name="ann")
        ann.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
        ann.send(type="bot", seat=1, level="random")
        ann.send(type="ready")
        while True:
            message = ann.wait(lambda m: m["type"] in ("state", "result"), timeout=30)
            if message["type"] == "result":
                break
            if message["phase"] == "plot" and not message["players"]["ann"]["plotted"]:
                if message["turn"] == 2:
                    ann.send(type="chat", text=SAID)
                    ann.wait(lambda m: m["type"] == "chat")
                ann.send(type="plot", orders=[])
    finally:
        ann.close()
    stored = stored_match(server, message["match_id"])
    assert [(m["name"], m["text"]) for m in stored["chat"]] == [("ann", SAID)]

    page = open_page(f"/replay/{stored['id']}", reduced_motion="reduce")
    line = page.locator("#chat .chat-line")
    page.click("[data-step='first']")
    expect(line).to_be_hidden()  # not said yet at the start
    page.click("[data-step='last']")
    expect(line).to_be_visible()
    assert line.locator(".chat-text").inner_text() == SAID  # as text, not as HTML
    assert page.locator("#chat i").count() == 0
    shot(page, "desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#chat").scroll_into_view_if_needed()
    shot(page, "phone")
