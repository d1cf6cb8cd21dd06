"""A newcomer's first match: from the lobby through the tutorial ("Learn by playing",
then "Play your first match") to a room with the beginner bot; after the 3-2-1 he places a
card every 4.5 s, as someone new does, against the bot's card every 6 s, and plays at least
7 of his 10 cards before the round stops. On a phone, the lobby's one-click "Play a bot"
leads to the same room.

The server here is a real one with the real run-up; the bots play at twice their pace
(``--bot-pace 0.5``) and the newcomer too, which keeps the race between them and halves its
time (the session server of ``conftest.py`` plays without the run-up).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests._server import Server, running_server
from tests.browser._play import (
    PLACING,
    discard_if_offered,
    hand_ship,
    hold_at,
    on_screen,
    player,
    skip_battle,
)
from tests.browser.conftest import OpenPage, Shot
from tests.browser.test_tutorial import through_the_tutorial_to_the_first_match

#: How fast the bots play here (``--bot-pace``): twice their real pace.
BOT_PACE = 0.5
#: How long the scripted newcomer takes for each card (s): a newcomer's 4.5 s at the bots'
#: pace.
SECONDS_PER_CARD = 4.5 * BOT_PACE
#: Where he tries to put his cards (mm; the table is 1200 x 800 around the origin).
SPOTS = [(x, y) for x in range(-480, 481, 120) for y in (-300, -170, -40, 90, 220)]


@pytest.fixture(scope="module")
def real_server(
    tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None
) -> Iterator[Server]:
    """A server as a person meets it (the 3-2-1), with the bots at twice their pace."""
    db = tmp_path_factory.mktemp("first-match") / "matches.db"
    options = ("--runup-seconds", "3", "--stop-seconds", "15", "--bot-pace", str(BOT_PACE))
    with running_server(Path(db), *options) as running:
        yield running


def reach_the_first_match(page: Page) -> None:
    """From the lobby's "Play a bot" to a room with the newcomer and the beginner bot,
    before Ready (the tutorial's way there: ``through_the_tutorial_to_the_first_match``)."""
    page.fill("#name", "Newcomer")
    page.wait_for_function("document.querySelector('#play-bot-about').textContent.includes('6 s')")
    page.click("#play-bot")
    page.wait_for_url("**/rooms/*")
    page.wait_for_selector(".seat[data-seat='1'][data-kind=bot]")
    page.wait_for_selector("button#ready")


def place_somewhere(page: Page, rng: random.Random) -> bool | None:
    """Put the card in hand on a free spot, as a person looking at the table does (the
    outline says where it would touch): True once it landed, False if it did not, None if
    the round ended as he clicked (the page may be drawing the battle over the table, and
    whether that click landed shows only on the final table)."""
    ship = hand_ship(page)
    if ship is None:
        return False
    spots = SPOTS[:]
    rng.shuffle(spots)
    for x, y in spots:
        if page.get_attribute("body", "data-phase") not in PLACING:
            return False
        hold_at(page, x, y)
        if "blocked" in (page.get_attribute("#hand", "class") or ""):
            continue
        card = f"{player(page)}-{ship}"
        sx, sy = on_screen(page, x, y)
        page.mouse.click(sx, sy)
        page.wait_for_function(
            """(card) => document.querySelector(`.table-card[data-card="${card}"]`)
                || !document.querySelector('#refused').hidden
                || !['fast', 'deployment'].includes(document.body.dataset.phase)""",
            arg=card,
        )
        if page.locator(f'.table-card[data-card="{card}"]').count():
            return True
        if page.get_attribute("body", "data-phase") not in PLACING:
            return None
        page.locator("#refused").evaluate("box => { box.hidden = true; }")
    return False


def test_a_newcomer_learns_then_plays_most_of_his_deck_against_the_beginner_bot(
    real_server: Server, open_page: OpenPage, shot: Shot
) -> None:
    page = open_page(f"{real_server.http}/")
    shot(page, "lobby")
    through_the_tutorial_to_the_first_match(page)
    bot = page.locator(".seat[data-seat='1'] .bot-about").inner_text()
    assert bot.startswith("Beginner") and "every 6 s" in bot
    shot(page, "seats")
    # A friend watches by the room's link.
    watcher = open_page(f"{page.input_value('#share-link')}?watch=1")
    watcher.wait_for_selector("#watching")
    page.click("button#ready")
    # The 3-2-1, big over the table, for the player and the watcher alike.
    for seen in (page, watcher):
        seen.wait_for_selector(
            "#runup:not([hidden])[data-count='3'], #runup:not([hidden])[data-count='2']"
        )
    shot(page, "runup")
    # A card put down meanwhile stays in hand, and the page says why.
    sx, sy = on_screen(page, -300, -150)
    page.mouse.move(sx, sy, steps=3)
    page.mouse.click(sx, sy)
    page.wait_for_selector("#refused:not([hidden])")
    assert "starts in" in page.inner_text("#refused")
    # ... drawn over the count's big figure, which hid half its words.
    assert page.evaluate(
        """() => Number(getComputedStyle(document.querySelector('#refused')).zIndex)
            > Number(getComputedStyle(document.querySelector('#runup')).zIndex)"""
    )
    assert page.locator(".table-card[data-card^='Newcomer-']").count() == 0
    # The watcher sees the bot's card in hand: drawn on its side, then on its way.
    watcher.wait_for_selector('.other-hand[data-player="beginner bot"]')
    me = player(page)
    page.wait_for_selector("#runup[data-count='0']")
    start = time.monotonic()
    rng = random.Random(11)
    placed = 0
    unsure = 0  # a click as the round ended: it may have landed
    saw_bot_hand = False
    for card in range(1, 11):
        # A card every 4.5 s (at the bots' pace): he looks, moves it and clicks when his
        # time is up. Not a wait for anything the page does: his pace against the bot's is
        # what the test is about.
        time.sleep(max(0.0, start + card * SECONDS_PER_CARD - time.monotonic()))
        if page.get_attribute("body", "data-phase") not in PLACING:
            break
        saw_bot_hand = saw_bot_hand or page.locator(".other-hand").count() > 0
        landed = place_somewhere(page, rng)
        placed += landed is True
        unsure += landed is None
        if card == 3:
            shot(page, "placing")
    assert saw_bot_hand, "the bot's card in hand was never seen on the table"
    assert placed >= 7, f"the newcomer placed only {placed} of 10 cards"
    discard_if_offered(page)
    skip_battle(page)
    mine = page.locator(f'.table-card[data-card^="{me}-"]').count()
    assert placed <= mine <= placed + unsure
    shot(page, "over")


def test_the_lobby_and_the_run_up_on_a_phone(
    real_server: Server, open_page: OpenPage, shot: Shot
) -> None:
    phone = open_page(
        f"{real_server.http}/", viewport={"width": 390, "height": 844}, has_touch=True
    )
    phone.wait_for_selector("#play-bot")  # a row per game, once GET /api/games answers
    assert phone.is_visible("#play-bot")
    shot(phone, "lobby")
    reach_the_first_match(phone)
    shot(phone, "seats")
    phone.click("button#ready")
    phone.wait_for_selector("#runup:not([hidden])")
    # The count says how a finger places a card: the room's own words for it are under the
    # table, below the screen's edge.
    assert phone.inner_text("#runup .runup-hint") == (
        "Tap where your card goes, then tap the card again to put it down."
    )
    shot(phone, "runup")
    # A card put down in the count is refused above the count's figure, not over the hint
    # (the toast sat above the card in hand, which lies under the hint on a phone).
    phone.wait_for_selector(
        "#runup:not([hidden])[data-count='3'], #runup:not([hidden])[data-count='2']"
    )
    phone.tap("#place-card")
    phone.wait_for_selector("#refused:not([hidden])")
    toast = phone.locator("#refused").bounding_box()
    hint = phone.locator("#runup .runup-hint").bounding_box()
    assert toast is not None and hint is not None
    assert toast["y"] + toast["height"] <= hint["y"], (toast, hint)
    shot(phone, "refused")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the room page is wider than the phone"
