"""What a player does on the room page, as Playwright steps: take a seat, move the card in
hand with the mouse, turn it with the wheel, click (or drag and let go) to put it down."""

from __future__ import annotations

import uuid
from pathlib import Path

from playwright.sync_api import Page

from spacetable.lasers.tables import load_table
from spacetable.server.store.storage import Storage, StoredMatch

#: The rulebook's Fig. 1 sample game, as a table file.
FIG1 = Path(__file__).resolve().parents[2] / "examples" / "fig1-sample-game.json"

#: Battle animation speed the tests pick (the select's fastest option).
FAST_ANIMATION = "8"
#: The page phases in which the card in hand moves: Light Speed's fast round, Stellar
#: Conflict's deployment.
PLACING = ("fast", "deployment")


def on_screen(page: Page, x: float, y: float, drawing: str = "#table") -> tuple[float, float]:
    """Where a table point (+y up, in the units of the SVG ``drawing``: mm on the laser
    table, inches on an FTL board, turned or not) is on the page, in CSS pixels."""
    point = page.evaluate(
        """([x, y, drawing]) => {
          const m = document.querySelector(drawing).getScreenCTM();
          const p = new DOMPoint(x, -y).matrixTransform(m);
          return [p.x, p.y];
        }""",
        [x, y, drawing],
    )
    return float(point[0]), float(point[1])


#: The middle of the element a selector finds, measured in one go in the page, or null
#: while it is not drawn.
_CENTRE = """(selector) => {
  const found = document.querySelector(selector);
  const box = found?.getBoundingClientRect();
  return box && (box.width || box.height) ? [box.x + box.width / 2, box.y + box.height / 2] : null;
}"""


def centre_of(page: Page, selector: str) -> tuple[float, float]:
    """The middle of the one element ``selector`` finds, on the page (CSS pixels), once it
    is drawn (after a reload, the phase may show before the pieces are). Found and
    measured in one step in the page: a page that draws its pieces again as messages come
    (a reload's state, then its patches) replaces the element, and a locator's box of the
    element it found a moment before is then no box at all (a full run's failure)."""
    page.locator(selector).wait_for(state="visible")  # (and the only one)
    centre = page.wait_for_function(_CENTRE, arg=selector).json_value()
    return float(centre[0]), float(centre[1])


_BOX = """(selector) => {
  const box = document.querySelector(selector)?.getBoundingClientRect();
  return box && (box.width || box.height)
    ? {x: box.x, y: box.y, width: box.width, height: box.height} : null;
}"""


def box_of(page: Page, selector: str) -> dict[str, float]:
    """The box (``x``, ``y``, ``width``, ``height``, CSS pixels) of the first element
    ``selector`` finds, once it is drawn: found and measured in one step in the page, as
    :func:`centre_of` (a locator's box of a piece the page has just drawn again is no box
    at all)."""
    box = page.wait_for_function(_BOX, arg=selector).json_value()
    return {key: float(box[key]) for key in ("x", "y", "width", "height")}


def take_seat(page: Page, name: str, seat: int) -> None:
    """Type a name (a guest's: a logged-in player has none to type) and take seat ``seat``
    from the seat panel. A page the lobby's "Create room" opened is seated already (the
    first free seat, under the lobby's name)."""
    if "join=1" in page.url or page.locator("button#ready").count():
        page.wait_for_selector("button#ready")
        assert page.get_attribute(".seat.mine", "data-seat") == str(seat)
        return
    page.wait_for_selector("#seat-panel .take-seat")
    if page.locator("#player-name").count():  # a logged-in player sits as his account
        page.fill("#player-name", name)
    page.click(f".seat[data-seat='{seat}'] .take-seat")
    page.wait_for_selector("button#ready")


def answer_name(page: Page, name: str) -> None:
    """Answer the "What is your name?" question a link that seats us asks a visitor with
    no name saved (shell/invite.js)."""
    page.wait_for_selector("#name-prompt[open]")
    page.fill("#ask-name", name)
    page.click("#ask-name-ok")


def player(page: Page) -> str:
    """The player name this page plays as."""
    name = page.get_attribute("body", "data-player")
    assert name, "this page has no seat"
    return name


def hand_ship(page: Page) -> str | None:
    """The ship key of the card in hand (None if the hand is empty)."""
    return page.get_attribute("#hand", "data-ship") or None


def hold_at(page: Page, x: float, y: float, turns: int = 0) -> None:
    """Move the card in hand to table point ``(x, y)`` with the mouse and turn it with
    ``turns`` wheel notches (each 15 degrees clockwise)."""
    sx, sy = on_screen(page, x, y)
    page.mouse.move(sx - 30, sy + 20)
    page.mouse.move(sx, sy, steps=4)
    for _ in range(turns):
        page.mouse.wheel(0, 100)
    # Wait until the card is there (or the round has stopped and the card froze).
    wait_hand_at(page, x, y)


def wait_hand_at(page: Page, x: float, y: float) -> None:
    """Wait until the card in hand is at ``(x, y)`` (or the cards froze)."""
    page.wait_for_function(
        "([x, y]) => !['fast', 'deployment'].includes(document.body.dataset.phase)"
        " || (Math.abs(+document.querySelector('#hand').dataset.x - x) < 2"
        " && Math.abs(+document.querySelector('#hand').dataset.y - y) < 2)",
        arg=[x, y],
    )


def place(page: Page, x: float, y: float, turns: int = 0) -> bool:
    """Put the card in hand down at ``(x, y)``: True when it landed on the table, False when
    the server refused it (the reason is then shown in ``#refused``)."""
    ship = hand_ship(page)
    assert ship is not None, "no card in hand"
    card = f"{player(page)}-{ship}"
    hold_at(page, x, y, turns)
    if page.get_attribute("body", "data-phase") not in PLACING:
        return False
    page.locator("#refused").evaluate("box => { box.hidden = true; }")
    sx, sy = on_screen(page, x, y)
    page.mouse.click(sx, sy)
    return _landed(page, card)


def drag_place(page: Page, x: float, y: float) -> bool:
    """Drag the card in hand from beside ``(x, y)`` onto it and let go there, as a person
    with a mouse deploys a card. True when it landed, False when it was refused (or the
    cards froze first)."""
    ship = hand_ship(page)
    assert ship is not None, "no card in hand"
    card = f"{player(page)}-{ship}"
    page.locator("#refused").evaluate("box => { box.hidden = true; }")
    sx, sy = on_screen(page, x, y)
    page.mouse.move(sx - 70, sy + 50)
    page.mouse.down()
    page.mouse.move(sx, sy, steps=6)
    wait_hand_at(page, x, y)
    if page.get_attribute("body", "data-phase") not in PLACING:
        page.mouse.up()
        return False
    page.mouse.up()
    return _landed(page, card)


def _landed(page: Page, card: str) -> bool:
    """Wait for ``card`` on the table or a refusal; True if it landed."""
    page.wait_for_function(
        """(card) => document.querySelector(`.table-card[data-card="${card}"]`)
            || !document.querySelector('#refused').hidden
            || !['fast', 'deployment'].includes(document.body.dataset.phase)""",
        arg=card,
    )
    return page.locator(f'.table-card[data-card="{card}"]').count() == 1


def discard_if_offered(page: Page) -> None:
    """After "stop!", press Discard if the page offers it now (our card is frozen in the
    stop window), in one step in the page. Looked at, then clicked, the button could go
    with the window between the two, and the click wait for it in vain (a 2 s window did
    so on a busy machine). A discard the server gets after its window closed is refused,
    and the battle comes all the same."""
    page.evaluate(
        """() => {
          const button = document.querySelector("#discard");
          if (button && button.checkVisibility()) button.click();
        }"""
    )


def watch_battle(page: Page) -> None:
    """Wait for the battle, speed its animation up and wait for the score panel."""
    page.wait_for_selector("body[data-phase=battle]")
    page.wait_for_selector("#battle-step[data-speed]")
    page.select_option("#battle-speed", FAST_ANIMATION)
    page.wait_for_selector("body[data-phase=over]", timeout=60_000)
    page.wait_for_selector("#score-panel #winner")


def skip_battle(page: Page) -> None:
    """Wait for the battle and its animation's first step, jump to its end (the End
    button, as a player in a hurry does) and wait for the score panel. For a test whose
    subject is not the animation: played even at 8x, every frame of every step is drawn
    (docs/performance.md, issue 33). The tests about the battle as it plays (the whole
    match between two pages, the room's battle told beside its table, a Stellar Conflict
    match's battle by initiative) watch it to its end (:func:`watch_battle`)."""
    page.wait_for_selector("body[data-phase=battle]")
    page.wait_for_selector("#battle-step[data-speed]")
    page.click("#battle-skip")
    page.wait_for_selector("body[data-phase=over]", timeout=60_000)
    page.wait_for_selector("#score-panel #winner")


def shown_scores(page: Page) -> dict[str, int]:
    """The scores on the score panel, by player."""
    scores: dict[str, int] = {}
    for entry in page.locator("#score-panel .score").all():
        name = entry.get_attribute("data-player")
        value = entry.get_attribute("data-score")
        assert name is not None and value is not None
        scores[name] = int(value)
    return scores


def shown_winner(page: Page) -> str | None:
    """The winner on the score panel, None for a draw."""
    return page.get_attribute("#winner", "data-winner") or None


def store_fig1(db: Path, start: float = 0.0, table_mm: tuple[int, int] | None = None) -> str:
    """Store the rulebook's Fig. 1 game in the SQLite file ``db`` as a finished Light Speed
    match, as if played (a card placed every half second, the first ``start`` s later), on
    a table of ``table_mm`` (width, height; None: no edge, as the figure); return its id."""
    table = load_table(FIG1)
    result = table.resolve().to_json()
    events = result.pop("events")
    result["table"] = table.to_json()
    if table_mm is not None:
        result["table"]["table"] = {"width": table_mm[0], "height": table_mm[1]}
    ships = [c for c in table.cards if c.ship is not None]
    actions = [
        {"type": "place", "player": c.owner, "x": c.pose.x, "y": c.pose.y}
        | {"rotation_deg": c.pose.rotation_deg, "t": start + 0.5 * (i + 1)}
        for i, c in enumerate(ships)
    ]
    storage = Storage(f"sqlite:///{db}")
    match_id = uuid.uuid4().hex
    seats = [{"seat": k, "player": p, "kind": "human"} for k, p in enumerate(table.players)]
    storage.save(
        StoredMatch(
            id=match_id,
            room="room",
            ruleset="lightspeed",
            options={},
            seats=seats,
            seed=0,
            actions=actions,
            events=events,
            result=result,
            finished_at=1_700_000_000.0,
        )
    )
    storage.close()
    return match_id


def end_in_sight(page: Page) -> None:
    """The end of the match is where the player looks (issue 20, item 22): the winner line
    and (for a seated player) Rematch / Play again lie inside the window as it stands,
    without scrolling, on the end card over the table."""
    page.wait_for_selector(".end-card #winner")
    selectors = ["#winner"] + (["#rematch"] if page.locator("#rematch").count() else [])
    size = page.evaluate("[window.innerWidth, window.innerHeight]")
    for selector in selectors:
        box = page.locator(selector).bounding_box()
        assert box is not None, f"{selector} is not shown"
        assert box["x"] >= 0 and box["x"] + box["width"] <= size[0], (selector, box, size)
        assert box["y"] >= 0 and box["y"] + box["height"] <= size[1], (selector, box, size)
