"""Your side at the bottom in the hex fleet: each player sees his own fleet at the bottom of
the board (the player whose fleet starts at the map's top sees it turned half a turn); a
button turns it and the choice survives a reload; a move by click on a turned board goes to
the hex clicked. The replay shows the side the viewer picks at the bottom."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser._play import box_of
from tests.browser._replay import ann_against_a_bot, hex_ann_plays_once_then_leaves, stored_match
from tests.browser._servers import seeded_server
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.hexfleet.test_hexfleet_room import online_duel

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
#: This module's server's first room's seed: the same chits on every run.
ROOM_SEED = 3
#: A page of the battle that has its seat again (after a reload it is first a spectator's).
SEATED = "body[data-phase=activation][data-role=player]"


server = seeded_server("hexfleet-turned", ROOM_SEED)


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = box_of(page, selector)
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


#: The mean height on the screen of an owner's ships (CSS pixels from the top), NaN if
#: none is drawn (a ship not drawn yet has no height).
FLEET_Y = """(owner) => {
  const hits = document.querySelectorAll(`.hex-ships .ship[data-owner='${owner}'] .ship-hit`);
  const ys = [...hits].map((c) => {
    const b = c.getBoundingClientRect();
    return b.height ? b.y + b.height / 2 : NaN;
  });
  return ys.length ? ys.reduce((a, b) => a + b, 0) / ys.length : NaN;
}"""


def fleet_y(page: Page, owner: str) -> float:
    """The mean height on the screen of ``owner``'s ships (:data:`FLEET_Y`)."""
    y: float | None = page.evaluate(FLEET_Y, owner)  # NaN arrives as None
    assert y is not None and y == y, f"no ship of {owner} drawn on the board"
    return y


#: Whether the two fleets' mean heights on the screen are within 100 px (side by side).
SIDE_BY_SIDE = f"""() => {{
  const y = {FLEET_Y};
  return Math.abs(y("ann") - y("ben")) < 100;
}}"""


def side_by_side(page: Page) -> None:
    """The fleets side by side on the board, once it is drawn: a reloaded page is a
    spectator's until its seat is taken back (:data:`SEATED`), and draws the board again
    then, and again with the player's state."""
    try:
        page.wait_for_function(SIDE_BY_SIDE, timeout=10_000)
    except PlaywrightTimeout:
        heights = f"ann at {page.evaluate(FLEET_Y, 'ann')}, ben at {page.evaluate(FLEET_Y, 'ben')}"
        raise AssertionError(f"the fleets are not side by side: {heights}") from None


def turned(page: Page) -> bool:
    return page.get_attribute("#turn-board", "aria-pressed") == "true"


def version(page: Page) -> int:
    return int(page.get_attribute("body", "data-version") or 0)


def test_each_player_sees_his_fleet_at_the_bottom_and_moves_by_click_turned(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    ann, ben = online_duel(server, open_page)
    ann.click("button#ready")
    ben.click("button#ready")
    for page in (ann, ben):
        page.wait_for_selector("body[data-phase=activation]")
    # The fleets start on the left and right edges: each sees his own fleet well below the
    # other's, the board turned a quarter turn (Ann's one way, Ben's the other).
    assert fleet_y(ann, "ann") > fleet_y(ann, "ben") + 100
    assert fleet_y(ben, "ben") > fleet_y(ben, "ann") + 100
    turns = {page.get_attribute("#turn-board", "data-turned") for page in (ann, ben)}
    assert turned(ann) and turned(ben) and turns == {"90", "270"}
    assert "Turn the board around" in (ben.get_attribute("#turn-board", "title") or "")
    shot(ben, "turned")

    # The first to act moves on his turned board.
    active = ann.get_attribute("body", "data-active")
    owner = ann.get_attribute(f".ship[data-ship='{active}']", "data-owner")
    mover, other = (ann, ben) if owner == "ann" else (ben, ann)
    mover.wait_for_selector("#hex-controls:not([hidden]) #controls-title", timeout=60_000)
    # A lit hex two rows ahead of the ship on the screen, clicked where the player sees it.
    hexes: list[dict[str, Any]] = mover.locator(".hex.reachable polygon").evaluate_all(
        "ps => ps.map(p => { const b = p.getBoundingClientRect();"
        " return {hex: p.parentElement.dataset.hex,"
        " x: b.x + b.width / 2, y: b.y + b.height / 2}; })"
    )
    sx, sy = centre(mover, f".ship[data-ship='{active}'] .ship-hit")
    target = min(hexes, key=lambda h: abs(h["y"] - (sy - 60)) + abs(h["x"] - sx))
    before = version(mover)
    mover.mouse.click(target["x"], target["y"])
    mover.wait_for_function(f"() => Number(document.body.dataset.version || 0) > {before}")
    assert mover.get_attribute(f".ship[data-ship='{active}']", "data-hex") == target["hex"]
    mover.wait_for_function("() => document.getAnimations().length === 0")  # the glide ends
    ex, ey = centre(mover, f".ship[data-ship='{active}'] .ship-hit")
    assert abs(ex - target["x"]) < 3 and abs(ey - target["y"]) < 3  # where he clicked
    other.wait_for_selector(f".ship[data-ship='{active}'][data-hex='{target['hex']}']")
    shot(mover, "moved")

    # The choice holds after a reload; turned back, the map is as laid out: the fleets side
    # by side again.
    mover.reload()
    mover.wait_for_selector(SEATED)
    assert turned(mover)
    mover.click("#turn-board")
    assert not turned(mover)
    side_by_side(mover)
    mover.reload()
    mover.wait_for_selector(SEATED)
    assert not turned(mover)
    side_by_side(mover)


def test_a_turned_room_on_a_phone(open_page: OpenPage, server: Server, shot: Shot) -> None:
    ann, ben = online_duel(server, open_page, viewport=PHONE, has_touch=True, is_mobile=True)
    ann.click("button#ready")
    ben.click("button#ready")
    ben.wait_for_selector("body[data-phase=activation]")
    assert turned(ben) and ben.is_visible("#turn-board")
    assert fleet_y(ben, "ben") > fleet_y(ben, "ann") + 100
    shot(ben, "phone")


def test_the_replay_shows_the_side_picked_at_the_bottom(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    room = {"ruleset": "hexfleet", "seats": 2, "scenario": "duel", "turn_limit": 2}
    with ann_against_a_bot(server, room, "easy") as ann:
        result = hex_ann_plays_once_then_leaves(ann)
    stored = stored_match(server, result["match_id"])
    first, second = [seat["player"] for seat in stored["seats"]]

    page = open_page(f"/replay/{stored['id']}", viewport=DESKTOP, reduced_motion="reduce")
    to_the_end(page)
    # Someone who did not play sees the first player's side at the bottom.
    assert page.input_value("#bottom-side") == first
    assert fleet_y(page, first) > fleet_y(page, second)
    page.select_option("#bottom-side", second)
    assert fleet_y(page, second) > fleet_y(page, first)
    shot(page, "replay")
    page.reload()
    to_the_end(page)
    assert page.input_value("#bottom-side") == second
    assert fleet_y(page, second) > fleet_y(page, first)
    phone = open_page(
        f"/replay/{stored['id']}",
        viewport=PHONE,
        has_touch=True,
        is_mobile=True,
        reduced_motion="reduce",
    )
    to_the_end(phone)
    phone.select_option("#bottom-side", second)
    shot(phone, "replay-phone")


def to_the_end(page: Page) -> None:
    """Jump a replay page to its end with its Last button (the replay plays itself there in
    about 6 s, which is not what the side picked is about)."""
    page.click("[data-step='last']")
    page.wait_for_selector("body[data-phase=over]")
