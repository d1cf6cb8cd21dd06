"""Playing Light Speed in the browser, as people do: two players on one match, one player
against a bot, refused cards, and the referee sandbox."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from tests._paths import ROOT
from tests.browser._play import (
    discard_if_offered,
    hand_ship,
    hold_at,
    place,
    player,
    shown_scores,
    shown_winner,
    skip_battle,
    take_seat,
    watch_battle,
)
from tests.browser.conftest import OpenPage, Server, Shot

EXAMPLES = ROOT / "examples"


def _other_hand_at(page: Page, who: str, x: float, y: float) -> None:
    """Wait until ``page`` shows ``who``'s card in hand at table point ``(x, y)``."""
    page.wait_for_function(
        """([who, x, y]) => {
          const hand = document.querySelector(`.other-hand[data-player="${who}"]`);
          return hand && Math.abs(+hand.dataset.x - x) < 2 && Math.abs(+hand.dataset.y - y) < 2;
        }""",
        arg=[who, x, y],
    )


def _start_two_player_room(open_page: OpenPage, server: Server) -> tuple[Page, Page]:
    room = server.api("/api/rooms", {"seats": 2})
    alice = open_page(f"/rooms/{room['id']}")
    take_seat(alice, "alice", 0)
    bob = open_page(alice.input_value("#share-link"))
    take_seat(bob, "bob", 1)
    alice.click("button#ready")
    bob.click("button#ready")
    for page in (alice, bob):
        page.wait_for_selector("body[data-phase=fast]")
    return alice, bob


def test_two_players_play_a_whole_match(server: Server, open_page: OpenPage, shot: Shot) -> None:
    # Alice creates the room from the lobby and shares its link with Bob.
    alice = open_page("/")
    alice.fill("#name", "alice")
    alice.select_option("#seats", "2")
    alice.click("#create")
    alice.wait_for_url("**/rooms/*")
    take_seat(alice, "alice", 0)
    bob = open_page(alice.input_value("#share-link"))
    take_seat(bob, "bob", 1)
    shot(bob, "seats")
    alice.click("button#ready")
    bob.click("button#ready")
    for page in (alice, bob):
        page.wait_for_selector("body[data-phase=fast]")
        assert page.locator(".table-card.asteroid").count() == 1

    # Bob sees Alice's card in hand follow her mouse.
    hold_at(alice, -300, -200)
    _other_hand_at(bob, "alice", -300, -200)
    hold_at(alice, 200, -180)
    _other_hand_at(bob, "alice", 200, -180)
    assert bob.get_attribute('.other-hand[data-player="alice"]', "data-ship") == hand_ship(alice)
    shot(bob, "sees-alice-hand")

    # They take turns putting cards down; Alice plays her tenth card first and calls stop.
    # Each wheel notch turns the card 15 degrees clockwise; the next card keeps the turn.
    xs = [-520 + 115 * i for i in range(10)]
    rotations: dict[str, list[float]] = {"alice": [], "bob": []}
    turned = {"alice": 0.0, "bob": 0.0}

    def turn(who: str, notches: int) -> int:
        turned[who] = (turned[who] - 15.0 * notches + 180.0) % 360.0 - 180.0
        rotations[who].append(turned[who])
        return notches

    for i, x in enumerate(xs):
        if i == 9:
            hold_at(bob, 0, 150)  # Bob holds his last card here when the stop comes
        ship = hand_ship(alice)
        assert place(alice, x, -280, turns=turn("alice", i % 3)), alice.inner_text("#refused")
        bob.wait_for_selector(f'.table-card[data-card="alice-{ship}"]')
        if i < 9:
            ship = hand_ship(bob)
            assert place(bob, x, 280, turns=turn("bob", 2 * (i % 2))), bob.inner_text("#refused")
            alice.wait_for_selector(f'.table-card[data-card="bob-{ship}"]')
        if i == 4:
            shot(alice, "fast-round")

    bob.wait_for_selector("body[data-phase=stop]")
    banner = bob.inner_text("#stop-banner")
    assert "STOP!" in banner and "alice placed their last card" in banner
    assert bob.is_visible("#drop-here") and bob.is_visible("#discard")
    assert alice.is_hidden("#stop-actions")  # nothing left to choose for Alice
    shot(bob, "stop")
    last = hand_ship(bob)
    bob.click("#drop-here")

    for page in (alice, bob):
        watch_battle(page)
        assert page.locator(f'.table-card[data-card="bob-{last}"]').count() == 1
        assert page.locator(".table-card.ship").count() == 20
    shot(alice, "alice-scores")
    shot(bob, "bob-scores")

    # The scores on both screens are the stored match's.
    href = bob.get_attribute("#replay-link", "href")
    assert href is not None
    match_id = href.rsplit("/", 1)[-1]
    stored = server.api(f"/api/matches/{match_id}")
    scores = stored["result"]["scores"]
    assert shown_scores(alice) == shown_scores(bob) == scores
    assert shown_winner(alice) == shown_winner(bob) == stored["result"]["winner"]
    winner = stored["result"]["winner"]
    said = "Draw" if winner is None else "You win" if winner == "alice" else f"{winner} wins"
    assert alice.inner_text("#winner") == said
    placed: dict[str, list[float]] = {"alice": [], "bob": []}
    for action in stored["actions"]:
        if action["type"] in ("place", "drop"):
            placed[action["player"]].append(action["rotation_deg"])
    assert placed["alice"] == rotations["alice"]
    assert placed["bob"][:9] == rotations["bob"]

    # The match is listed, and its replay ends on the same scores. "Go to the battle" skips
    # the fast round's playback, which runs as long as the round did.
    alice.goto("/matches")
    alice.click(f'tr[data-match="{match_id}"] a.replay')
    alice.wait_for_selector("body[data-phase=fast]")
    alice.click("#replay-battle")
    skip_battle(alice)
    assert shown_scores(alice) == scores
    shot(alice, "replay")


def test_one_person_plays_a_bot(server: Server, open_page: OpenPage, shot: Shot) -> None:
    room = server.api("/api/rooms", {"seats": 2, "asteroids": "two-small"})
    carol = open_page(f"/rooms/{room['id']}")
    take_seat(carol, "carol", 0)
    carol.select_option(".seat[data-seat='1'] .bot-level", "easy")
    carol.click(".seat[data-seat='1'] .add-bot")
    carol.wait_for_selector(".seat[data-seat='1'][data-kind=bot]")
    carol.click("button#ready")
    carol.wait_for_selector("body[data-phase=fast]")
    assert carol.locator(".table-card.asteroid").count() == 2

    spots = [(x, y) for y in (-300, 300, -170, 170) for x in range(-510, 511, 102)]
    for x, y in spots:
        if carol.get_attribute("body", "data-phase") != "fast" or hand_ship(carol) is None:
            break
        place(carol, x, y)
    discard_if_offered(carol)  # the bot was faster
    skip_battle(carol)
    shot(carol, "score-panel")

    scores = shown_scores(carol)
    assert set(scores) == {"carol", "easy bot"}
    href = carol.get_attribute("#replay-link", "href")
    assert href is not None
    stored = server.api(f"/api/matches/{href.rsplit('/', 1)[-1]}")
    assert scores == stored["result"]["scores"]
    assert shown_winner(carol) == stored["result"]["winner"]


def test_refused_cards_stay_in_hand(server: Server, open_page: OpenPage, shot: Shot) -> None:
    alice, bob = _start_two_player_room(open_page, server)

    # Q and E turn the card 15 degrees (5 with Shift).
    hold_at(alice, 0, -200)
    for key in ("q", "q", "Shift+E"):
        alice.keyboard.press(key)
    assert alice.get_attribute("#hand", "data-rotation") == "25"

    # Fast round: a card put down on the asteroid is refused and stays in hand.
    ship = hand_ship(alice)
    assert not place(alice, 0, 10)
    reason = alice.inner_text("#refused")
    assert "overlap the asteroid" in reason
    assert hand_ship(alice) == ship
    assert alice.get_attribute("#hand", "visibility") == "visible"
    assert alice.locator(".table-card[data-owner=alice]").count() == 0
    shot(alice, "refused-place")

    # After stop: Bob's card froze over the asteroid, so dropping it there is refused too.
    hold_at(bob, 25, -20)
    for i in range(10):
        assert place(alice, -520 + 115 * i, -280), alice.inner_text("#refused")
    bob.wait_for_selector("body[data-phase=stop]")
    held = hand_ship(bob)
    bob.click("#drop-here")
    bob.wait_for_selector("#refused:not([hidden])")
    assert "overlap the asteroid" in bob.inner_text("#refused")
    assert hand_ship(bob) == held
    assert bob.is_visible("#discard")
    shot(bob, "refused-drop")
    bob.click("#discard")
    skip_battle(bob)
    assert bob.locator(f'.table-card[data-card="{player(bob)}-{held}"]').count() == 0


def test_referee_resolves_an_imported_table(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/referee")
    page.wait_for_selector(".add-ship")
    page.set_input_files("#import-file", str(EXAMPLES / "fig1-sample-game.json"))
    page.wait_for_selector("#referee-note:not([hidden])")  # the table first, then Resolve
    page.click("#resolve")
    skip_battle(page)
    shot(page, "fig1")
    assert shown_scores(page) == {"red": 4, "blue": 2}
    assert shown_winner(page) == "red"
    assert page.inner_text('.score[data-player="red"] .kill-pile') == "blue's Ghost +2"


def test_referee_shows_why_a_table_is_refused(
    open_page: OpenPage, shot: Shot, tmp_path: Path
) -> None:
    page = open_page("/referee")
    page.wait_for_selector(".add-ship")
    bad = tmp_path / "overlap.json"
    bad.write_text(
        '{"ruleset": "lightspeed", "players": ["red", "blue"], "cards": ['
        '{"id": "rock", "type": "asteroid", "x": 0, "y": 0},'
        '{"id": "red-moth", "owner": "red", "ship": "moth", "x": 10, "y": 10}]}'
    )
    page.set_input_files("#import-file", str(bad))
    page.wait_for_selector("#referee-error:not([hidden])")
    assert "'rock' and 'red-moth' touch or overlap" in page.inner_text("#referee-error")
    assert page.locator(".table-card").count() == 2  # loaded, to be fixed by hand
    shot(page, "refused-table")

    # Drag the Moth away, turn it, and the table resolves.
    box = page.locator('.table-card[data-card="red-moth"]').bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2 + 150, steps=5)
    page.mouse.up()
    page.keyboard.press("q")
    assert "turned 15°" in page.inner_text("#selected")
    page.click("#resolve")
    skip_battle(page)
    assert page.is_hidden("#referee-error")
    assert set(shown_scores(page)) == {"red", "blue"}
