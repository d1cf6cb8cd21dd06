"""The seam, proved: a game that lives in the tests alone (tests/highest/, registered by
the ``SPACETABLE_GAMES`` variable, with its bot and its browser module) is offered by the
lobby, played to the end against its bot in a room, stored, listed, replayed in the
browser and by ``spacetable replay``, and named by ``spacetable --help`` — without a line
of it anywhere in the package (docs/adding-a-game.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests._server import ROOT, server_process
from tests.browser.conftest import OpenPage, Server, Shot

#: The module that registers the game, as a deployment would name a plug-in.
REGISTRATION = "tests.highest.game"
#: The added game's names that no file of the package may hold.
NAMES = ("Highest number", "tests.highest")
#: The seed of this module's server's first room.
SEED = 3


@pytest.fixture(scope="module")
def environment() -> Iterator[dict[str, str]]:
    """The variable that registers the game, in this process (its servers and commands
    inherit it) and as the environment to run ``spacetable`` with."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SPACETABLE_GAMES", REGISTRATION)
        yield dict(os.environ)


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("added-game") / "matches.db"


@pytest.fixture(scope="module")
def server(environment: dict[str, str], database: Path) -> Iterator[Server]:
    """A server process of this module's own, with the added game registered (a process
    reads SPACETABLE_GAMES when it starts: this one, which has loaded the games, would not
    see it)."""
    with server_process(database, room_seed=SEED) as running:
        yield Server(running.http)


def run(environment: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``spacetable ARGS`` with the added game registered."""
    return subprocess.run(
        [sys.executable, "-m", "spacetable", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env=environment,
        timeout=240,
    )


def play_against_the_bot(page: Page) -> str:
    """From the lobby: create a room of the added game, seat its bot, press Ready, pick
    the top number; the match's id once its result is shown."""
    page.fill("#name", "ann")
    page.select_option("#ruleset", label="Highest number")
    top = page.get_by_role("spinbutton", name="Highest number")
    expect(top).to_have_value("10")  # the schema's default
    top.fill("5")
    page.click("#create")
    page.wait_for_url("**/rooms/*")
    page.locator(".add-bot").first.click()
    page.click("#ready")
    pick = page.locator("#pick")
    expect(pick).to_be_visible()
    pick.fill("5")
    page.click("#send-pick")
    expect(page.locator("#winner")).to_be_visible()
    href = page.locator("#replay-link").get_attribute("href")
    assert href is not None
    return href.rsplit("/", 1)[-1]


# The pages' rooms take the test's seeds (conftest.RoomSeeds), here from this server's own.
@pytest.mark.room_seed(SEED)
def test_the_lobby_offers_the_added_game_and_a_room_plays_it_against_its_bot(
    server: Server, open_page: OpenPage, shot: Shot, environment: dict[str, str], database: Path
) -> None:
    page = open_page("/")
    expect(page.locator("#ruleset option", has_text="Highest number")).to_have_count(1)
    match_id = play_against_the_bot(page)
    shot(page, "added-game-room")

    stored = server.api(f"/api/matches/{match_id}")
    assert stored["ruleset"] == "highest" and stored["seed"] == SEED
    picks = stored["events"][0]["picks"]
    assert picks[0] == 5  # ann picked the top; the bot picked from its seeded generator
    winner = stored["result"]["winner"]
    expected = "Draw" if picks[1] == 5 else "You win"  # the shell's end card (ann plays here)
    assert winner == (None if picks[1] == 5 else "ann")
    expect(page.locator("#winner")).to_have_text(expected)
    bot = stored["seats"][1]["name"]
    expect(page.locator("#picked")).to_have_text(f"ann picked 5, {bot} picked {picks[1]}.")

    listed = page.context.new_page()
    listed.goto("/matches")
    expect(listed.locator(f"a[href='/replay/{match_id}']").first).to_be_visible()

    listed.goto(f"/replay/{match_id}")
    expect(listed.locator("#replay-picks")).to_contain_text("ann picked 5")
    shot(listed, "added-game-replay")

    replayed = run(environment, "replay", match_id, "--db", f"sqlite:///{database}")
    assert replayed.returncode == 0, replayed.stderr
    assert "replays exactly" in replayed.stdout
    assert replayed.stdout.startswith("Highest number: ann, ")


def test_the_rules_and_the_tutorial_name_a_game_without_rules_or_lesson(
    server: Server, open_page: OpenPage
) -> None:
    page = open_page("/rules")
    # The contents come from the registry: the added game is there, said to have no rules.
    expect(page.locator("#rules-contents li", has_text="Highest number")).to_have_text(
        "Highest number: no rules written here yet"
    )
    expect(page.locator("#rules-contents a")).to_have_count(4)
    expect(page.locator(".rules-game h2")).to_have_text(
        ["Light Speed", "Stellar Conflict", "Faster Than Light", "Hex fleet"]
    )
    # The tutorial's course is the registered games' lessons: the added game has none.
    tutorial = open_page("/tutorial")
    expect(tutorial.locator("#step-count")).to_have_text("Step 1 of 16 · Light Speed")
    expect(tutorial.locator("#skip-ftl")).to_have_text("Skip to Faster Than Light")


def test_the_help_names_the_added_game(environment: dict[str, str]) -> None:
    helped = run(environment, "--help")
    assert helped.returncode == 0, helped.stderr
    assert "Highest number" in " ".join(helped.stdout.split())
    replay_help = run(environment, "replay", "--help")
    assert "Highest number" in " ".join(replay_help.stdout.split())


def test_the_added_game_needs_no_line_in_the_package() -> None:
    package = ROOT / "src" / "spacetable"
    mentions = [
        str(path.relative_to(ROOT))
        for path in package.rglob("*")
        if path.is_file()
        and path.suffix in {".py", ".js", ".html", ".css", ".toml"}
        and any(name in path.read_text(encoding="utf-8") for name in NAMES)
    ]
    assert mentions == []
