"""Hex fleet in the browser, as people play it: a newcomer creates a duel against the easy
bot in the lobby and plays it to the end by clicking (a lit hex to move, Raise shields, a lit
target with the odds shown before Fire, End activation); two people share one screen (hot
seat); two browsers play online and each sees the other's move; a phone taps a hex, sees
the path and its cost, and confirms; a refused action says why where the player looks."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from tests.browser._play import answer_name, end_in_sight, take_seat
from tests.browser._servers import seeded_server
from tests.browser.conftest import OpenPage, Server, Shot

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
#: The seed of this module's server's first room; the next rooms take the following ones,
#: so that every test draws the same chits and cards on every run.
ROOM_SEED = 1


server = seeded_server("hexfleet-room", ROOM_SEED)


def online_duel(server: Server, open_page: OpenPage, **ben_screen: Any) -> tuple[Page, Page]:
    """Ann in seat 1 and Ben in seat 2 of a new duel room, each on a screen of his own
    (Ann's a desktop's, Ben's too unless ``ben_screen`` says otherwise); neither ready.
    Eight turns: the blank chit ends them all before anyone acts one time in 6,561."""
    room = server.api("/api/rooms", {"ruleset": "hexfleet", "seats": 2, "turn_limit": 8})
    ann = open_page(f"/rooms/{room['id']}", viewport=DESKTOP)
    ben = open_page(f"/rooms/{room['id']}", **({"viewport": DESKTOP} | ben_screen))
    take_seat(ann, "ann", 0)
    take_seat(ben, "ben", 1)
    return ann, ben


#: The reachable hex nearest the nearest enemy (then the cheapest): its "q,r".
NEAREST_TO_ENEMY = """() => {
  const mine = document.querySelector('.ship.active');
  const enemies = [...document.querySelectorAll('.ship')]
    .filter((s) => s.dataset.owner !== mine.dataset.owner);
  const apart = (a, b) => {
    const [q1, r1] = a.split(',').map(Number);
    const [q2, r2] = b.split(',').map(Number);
    return (Math.abs(q1 - q2) + Math.abs(r1 - r2) + Math.abs(q1 + r1 - q2 - r2)) / 2;
  };
  const box = document.querySelector('#table').getBoundingClientRect();
  let best = null;
  for (const hex of document.querySelectorAll('.hex.reachable')) {
    const r = hex.getBoundingClientRect();
    const inside = r.left >= box.left && r.right <= box.right && r.top >= box.top
      && r.bottom <= box.bottom - 50;
    if (!inside) continue;
    const d = Math.min(...enemies.map((e) => apart(hex.dataset.hex, e.dataset.hex)));
    const cost = Number(hex.dataset.cost);
    if (!best || d < best.d || (d === best.d && cost < best.cost)) best = { d, cost, hex };
  }
  return best && best.hex.dataset.hex;
}"""


def log_lines(page: Page) -> int:
    return int(page.get_attribute("body", "data-log-lines") or 0)


def version(page: Page) -> int:
    """The number of actions the page has seen applied (the state's ``version``)."""
    return int(page.get_attribute("body", "data-version") or 0)


def wait_for_next_action(page: Page, before: int) -> None:
    """Wait until the page shows a state after ``before`` actions (an action was applied)."""
    page.wait_for_function(
        f"() => Number(document.body.dataset.version || 0) > {before}", timeout=15_000
    )


def my_move_or_end(page: Page) -> bool:
    """Wait until our ship is activated (True) or the battle is over (False)."""
    page.wait_for_selector(
        "#hex-controls:not([hidden]) #controls-title, body[data-phase=over]", timeout=60_000
    )
    return page.get_attribute("body", "data-phase") != "over"


def move_towards_enemy(page: Page) -> str | None:
    """Click the lit hex nearest an enemy; returns its "q,r" (None: nowhere to go)."""
    target = page.evaluate(NEAREST_TO_ENEMY)
    if target is None:
        return None
    before = version(page)
    page.click(f".hex[data-hex='{target}'] polygon")
    wait_for_next_action(page, before)
    return str(target)


def create_from_lobby(page: Page, *, turn_limit: int, hotseat: bool = False,
                      seat_2: str | None = "easy") -> None:  # fmt: skip
    page.select_option("#ruleset", "hexfleet")
    page.wait_for_selector("#hex-scenario-about li")
    if not page.input_value("#name"):
        page.fill("#name", "Ann")  # else the room asks it before seating us
    page.fill("#turn-limit", str(turn_limit))
    if hotseat:
        page.check("#hex-hotseat")
        page.fill("#hex-hotseat-0", "Red")
        page.fill("#hex-hotseat-1", "Blue")
    else:
        page.select_option("#hex-seat-1", seat_2 or "")
    page.click("#create")
    page.wait_for_selector("button#ready")


def test_a_newcomer_plays_a_duel_against_the_easy_bot_to_the_end(
    open_page: OpenPage, shot: Shot
) -> None:
    page = open_page("/", viewport=DESKTOP)
    page.fill("#name", "Ann")
    page.select_option("#ruleset", "hexfleet")
    page.wait_for_selector("#hex-scenario-about li")
    assert "Benellyn (heavy)" in page.inner_text("#hex-scenario-about")
    assert page.input_value("#hex-seat-1") == ""  # a friend, until a bot is chosen
    page.select_option("#hex-seat-1", "easy")
    assert "closes on the nearest enemy" in page.inner_text("#hex-seats")
    page.locator("#hexfleet-options").scroll_into_view_if_needed()
    shot(page, "lobby")
    create_from_lobby(page, turn_limit=8)  # the blank chit may come first: a few turns
    assert "easy" in page.inner_text("#seat-panel")
    shot(page, "waiting")
    page.click("button#ready")

    fired = shielded = False
    while my_move_or_end(page):
        assert page.inner_text("#hex-turn").startswith("Your move:")
        assert "(yours)" in page.inner_text("#chit-drawn")
        if page.locator(".hex.reachable").count():
            page.hover(".hex.reachable >> nth=0")
            assert " of " in page.inner_text("#move-info")  # "Move to 0605: 2 of 8 hexes"
            shot(page, "moves")
            move_towards_enemy(page)
        if page.is_enabled("#raise-shields"):
            before = version(page)
            page.click("#raise-shields")
            wait_for_next_action(page, before)
            shielded = True
        if page.locator(".ship.target").count() and page.is_enabled("#fire"):
            page.click(".ship.target >> nth=0")
            summary = page.inner_text("#odds-summary")
            assert "to hit at least once" in summary and "expected" in summary
            shot(page, "aiming")
            before = version(page)
            page.click("#confirm-fire")
            wait_for_next_action(page, before)
            fired = True
        if page.get_attribute("body", "data-phase") == "over":
            break
        before = version(page)
        page.click("#end-activation")
        wait_for_next_action(page, before)

    page.wait_for_selector("#winner")
    end_in_sight(page)  # the end card over the board, not at the foot of the side column
    end = page.inner_text("#end-panel")
    assert "turn" in end and "Strength left" in end
    assert page.is_visible("#rematch") and page.is_visible("#replay-link")
    assert shielded, "the duel never let us raise shields"
    assert fired or "Kal Pol" in page.inner_text("#log-panel")
    shot(page, "end")
    # Rematch: the bot agrees, a fresh battle starts and the end is gone.
    lines = log_lines(page)
    page.click("#rematch")
    page.wait_for_selector("body[data-phase=activation]")
    assert page.is_hidden("#end-panel")
    assert log_lines(page) < lines  # the new battle's log starts over


def test_hot_seat_two_people_at_one_screen_both_act(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/", viewport=DESKTOP)
    create_from_lobby(page, turn_limit=8, hotseat=True)
    page.wait_for_function(
        "() => document.querySelectorAll('#seat-panel .seat.kind-human').length === 2"
    )
    page.click("button#ready")
    acted: set[str] = set()
    while acted != {"Red", "Blue"} and my_move_or_end(page):
        banner = page.inner_text("#hex-turn")
        player = banner.split(":")[0]
        assert player in ("Red", "Blue") and ": your " in banner, banner
        if player not in acted:
            move_towards_enemy(page)  # through that side's own seat
        acted.add(player)
        before = version(page)
        page.click("#end-activation")
        wait_for_next_action(page, before)
    assert acted == {"Red", "Blue"}


def test_online_the_other_player_sees_the_move(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    ann, ben = online_duel(server, open_page)
    shot(ann, "waiting")
    fleets = ann.inner_text("#hex-fleets")
    assert "Seat 1: Benellyn (heavy)" in fleets and "Seat 2: Kal Pol (heavy)" in fleets
    ann.click("button#ready")
    ben.click("button#ready")
    ann.wait_for_selector("body[data-phase=activation]")
    active = ann.get_attribute("body", "data-active")
    owner = ann.get_attribute(f".ship[data-ship='{active}']", "data-owner")
    mover, watcher = (ann, ben) if owner == "ann" else (ben, ann)
    my_move_or_end(mover)
    assert "waiting for" in watcher.inner_text("#status")
    assert watcher.is_hidden("#hex-controls")
    hex_ = move_towards_enemy(mover)
    assert hex_ is not None
    watcher.wait_for_selector(f".ship[data-ship='{active}'][data-hex='{hex_}']")


def test_a_phone_taps_a_hex_sees_the_cost_and_confirms(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/", viewport=PHONE, has_touch=True, is_mobile=True)
    page.select_option("#ruleset", "hexfleet")
    page.wait_for_selector("#hex-scenario-about li")
    page.locator("#hexfleet-options").scroll_into_view_if_needed()
    shot(page, "lobby")
    create_from_lobby(page, turn_limit=8)
    shot(page, "waiting")
    page.tap("button#ready")  # 8 turns: time for a few activations of ours
    activations = 0
    while activations < 3 and my_move_or_end(page):
        target = page.evaluate(NEAREST_TO_ENEMY)
        if target is not None:
            page.locator(f".hex[data-hex='{target}'] polygon").tap()
            pending = page.inner_text(".pending-move")
            assert pending.startswith("Move to") and "hexes" in pending
            assert page.is_visible(".path-cost")
            if activations == 0:
                shot(page, "moves")
            before = version(page)
            page.tap("#confirm-move")
            wait_for_next_action(page, before)
            assert page.get_attribute(".ship.active", "data-hex") == target
        before = version(page)
        page.tap("#end-activation")
        wait_for_next_action(page, before)
        activations += 1
    assert activations >= 1, page.inner_text("#log-panel")


def test_the_keyboard_turns_and_a_refused_action_says_why(
    open_page: OpenPage, server: Server
) -> None:
    # Twelve turns: our chit comes out before the blank in a turn one time in two.
    room = server.api("/api/rooms", {"ruleset": "hexfleet", "seats": 2, "turn_limit": 12})
    page = open_page(f"/rooms/{room['id']}?bots=1:random", viewport=DESKTOP)
    answer_name(page, "Ann")
    page.wait_for_selector("button#ready")
    page.click("button#ready")
    assert my_move_or_end(page)
    # The keyboard: with the board focused, the right arrow turns the ship 60° clockwise.
    active = page.get_attribute("body", "data-active")
    facing = int(page.get_attribute(f".ship[data-ship='{active}']", "data-facing") or 0)
    before = version(page)
    page.focus("#table")
    page.keyboard.press("ArrowRight")
    wait_for_next_action(page, before)
    turned = page.get_attribute(f".ship[data-ship='{active}']", "data-facing")
    assert turned == str((facing + 1) % 6)
    # A quick double click on Raise shields: the second try is refused, and says why.
    page.evaluate(
        "() => { const b = document.querySelector('#raise-shields'); b.click(); b.click(); }"
    )
    page.wait_for_selector("#action-message:has-text('Refused')")
    assert "once an activation" in page.inner_text("#action-message")


def test_a_ship_jumps_out_and_is_placed_again_when_it_comes_back(open_page: OpenPage) -> None:
    page = open_page("/", viewport=DESKTOP)
    create_from_lobby(page, turn_limit=8, hotseat=True)
    page.wait_for_function(
        "() => document.querySelectorAll('#seat-panel .seat.kind-human').length === 2"
    )
    page.click("button#ready")
    jumped = None
    for _ in range(30):
        assert my_move_or_end(page)
        before = version(page)
        if jumped is None:
            jumped = page.get_attribute("body", "data-active")
            back = int(page.get_attribute("body", "data-turn") or 1) + 1
            page.click("#jump")
            page.fill("#jump-turn", str(back))
            page.click("#confirm-jump")
            wait_for_next_action(page, before)
            off = page.inner_text("#off-board")
            assert f"jumped out — back on turn {back}" in off
            assert page.locator(f".ship[data-ship='{jumped}']").count() == 0
        elif page.locator("#table.placing").count():
            assert "back from its jump" in page.inner_text("#hex-controls")
            page.click(".hex[data-hex='9,0'] polygon")
            page.click(".facing-choice button[data-facing='3']")
            wait_for_next_action(page, before)
            page.wait_for_selector(f".ship[data-ship='{jumped}'][data-hex='9,0'][data-facing='3']")
            return
        else:
            page.click("#end-activation")
            wait_for_next_action(page, before)
    raise AssertionError("the jumped ship never came back")


def test_a_hot_seat_battle_on_a_phone_to_the_end(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/", viewport=PHONE, has_touch=True, is_mobile=True)
    create_from_lobby(page, turn_limit=4, hotseat=True)
    page.wait_for_function(
        "() => document.querySelectorAll('#seat-panel .seat.kind-human').length === 2"
    )
    page.tap("button#ready")
    aimed = False
    while my_move_or_end(page):
        target = page.evaluate(NEAREST_TO_ENEMY)
        if target is not None:
            page.locator(f".hex[data-hex='{target}'] polygon").tap()
            before = version(page)
            page.tap("#confirm-move")
            wait_for_next_action(page, before)
        if page.locator(".ship.target").count() and page.is_enabled("#fire"):
            ship = page.get_attribute(".ship.target >> nth=0", "data-ship")
            page.tap(f".target-button[data-ship='{ship}']")  # the list: the board may not show it
            assert "to hit at least once" in page.inner_text("#odds-summary")
            if not aimed:
                page.locator("#aim-panel").scroll_into_view_if_needed()
                shot(page, "aiming")
                aimed = True
            before = version(page)
            page.tap("#confirm-fire")
            wait_for_next_action(page, before)
        if page.get_attribute("body", "data-phase") == "over":
            break
        before = version(page)
        page.tap("#end-activation")
        wait_for_next_action(page, before)
    page.wait_for_selector("#winner")
    page.locator("#end-panel").scroll_into_view_if_needed()
    shot(page, "end")
    assert page.is_visible("#rematch")
