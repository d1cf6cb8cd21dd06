"""The bot API end to end (issue 72's first "Done when"): an account makes a token and
becomes a bot account, ``examples/bots/random_bot.py`` plays for it in a process of its
own, and a person in a real browser challenges the bot and plays a whole Light Speed match
and then a whole Faster Than Light match against it; each stored match replays exactly,
to the result the person's page showed."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

from spacetable.core.replays import replay_record
from spacetable.registry import game_for_ruleset
from tests._accounts import session_cookie
from tests._paths import ROOT
from tests.browser._play import (
    discard_if_offered,
    hand_ship,
    place,
    shown_scores,
    shown_winner,
    skip_battle,
)
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.ftl._duel import wait_turn
from tests.browser.meet._meet import logged_in, seated_room, send_challenge

#: The bot account's name.
BOT = "Robo Random"
#: Turns of the FTL match (short: the browser's side plots nothing each turn).
FTL_TURNS = 3


def _post(base: str, path: str, body: Any, headers: dict[str, str]) -> Any:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", **headers},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


@pytest.fixture
def random_bot(server: Server) -> Iterator[subprocess.Popen[str]]:
    """The bot account (its token made with its session) and the reference client playing
    for it, seeded, in a process of its own until it has played two games."""
    cookie = session_cookie(server.base, BOT)
    scopes = ["bot:play", "challenge:read", "challenge:write"]
    made = _post(
        server.base,
        "/api/tokens",
        {"description": "random bot", "scopes": scopes},
        {"cookie": cookie},
    )
    command = [
        sys.executable,
        str(ROOT / "examples" / "bots" / "random_bot.py"),
        *("--server", server.base, "--seed", "1", "--games", "2", "--upgrade"),
    ]
    env = {"SPACETABLE_TOKEN": made["token"], "PATH": "/usr/bin:/bin"}
    bot = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert bot.stdout is not None
    assert bot.stdout.readline().strip() == f"playing as {BOT}"  # its token works
    assert bot.stdout.readline().startswith("upgrade: 200")  # a bot account now
    try:
        yield bot
    finally:
        if bot.poll() is None:
            bot.terminate()
        bot.wait(timeout=10)
        with bot.stdout:
            print("random_bot.py said:", bot.stdout.read())  # shown when the test fails


def _replays_exactly(server: Server, page: Page) -> dict[str, Any]:
    """The match the page's replay link names, as stored, checked to replay exactly."""
    href = page.get_attribute("#replay-link", "href")
    assert href is not None
    stored: dict[str, Any] = server.api(f"/api/matches/{href.rsplit('/', 1)[-1]}")
    match_type = game_for_ruleset(stored["ruleset"]).rules.match
    assert match_type is not None
    assert replay_record(stored, match_type).exact
    return stored


def _light_speed(page: Page, server: Server, shot: Shot) -> None:
    """Challenge the bot from its profile, and play the match it accepts to its end."""
    page.click("#challenge")
    send_challenge(page, "lightspeed")
    seated_room(page)
    page.click("button#ready")
    page.wait_for_selector("body[data-phase=fast]")
    spots = [(x, y) for y in (-300, 300, -170, 170) for x in range(-510, 511, 102)]
    for x, y in spots:
        if page.get_attribute("body", "data-phase") != "fast" or hand_ship(page) is None:
            break
        place(page, x, y)
    discard_if_offered(page)  # the bot was faster
    skip_battle(page)
    shot(page, "light-speed-against-the-random-bot")
    scores = shown_scores(page)
    assert set(scores) == {"Ann Botfriend", BOT}
    stored = _replays_exactly(server, page)
    assert scores == stored["result"]["scores"]
    assert shown_winner(page) == stored["result"]["winner"]


def _faster_than_light(page: Page, server: Server, shot: Shot) -> None:
    """Challenge the bot to a short match from its profile, and plot nothing each turn
    until the match is over."""
    page.goto(f"/players/{BOT.replace(' ', '%20')}")
    page.click("#challenge")
    page.wait_for_selector("#challenge-dialog[open]")
    page.select_option("#challenge-game", "ftl")
    page.fill(".challenge-options[data-game=ftl] [data-option=turn_limit] input", str(FTL_TURNS))
    page.click("#challenge-send")
    seated_room(page)
    page.click("button#ready")
    for turn in range(1, FTL_TURNS + 1):
        if page.get_attribute("body", "data-phase") == "over":
            break  # the bot's ship flew off the table, or was destroyed
        wait_turn(page, turn)
        page.click("#submit-plot")
        page.wait_for_selector(
            f"body[data-phase=over], body[data-phase=plot][data-turn='{turn + 1}']",
            timeout=30_000,
        )
    page.wait_for_selector("#replay-link", timeout=30_000)
    shot(page, "ftl-against-the-random-bot")
    _replays_exactly(server, page)


def test_a_person_plays_light_speed_and_ftl_against_the_random_bot(
    server: Server,
    open_page: OpenPage,
    shot: Shot,
    random_bot: subprocess.Popen[str],
) -> None:
    path = f"/players/{BOT.replace(' ', '%20')}"
    ann = logged_in(open_page, server.base, "Ann Botfriend", path)
    _light_speed(ann, server, shot)
    _faster_than_light(ann, server, shot)
    random_bot.wait(timeout=30)  # its two games over, it stops
    assert random_bot.stdout is not None
    said = random_bot.stdout.read()
    assert said.count("accepted (200)") == 2, said
    assert "playing lightspeed" in said and "playing ftl" in said, said
    assert random_bot.returncode == 0, said
