"""The FTL ruler (issue 20, FTL item 8): with a piece selected, pointing at another piece
tells how far it is and the turn that faces it in order terms ("random bot 18 in, R-90"),
a tap pins it; the Measure tool lays a free tape measure on the table. Nothing of it is
sent to the server, and the plot does not change."""

from __future__ import annotations

import json
import math
import re

from playwright.sync_api import Page

from tests.browser._play import on_screen
from tests.browser.conftest import OpenPage, Shot
from tests.browser.ftl._duel import start_duel, wait_turn

FIELD = ".plot-row[data-piece='ann'] .plot-order"
BOT = ".ftl-pieces .ftl-piece[data-piece='random bot']"


def pose(page: Page, piece: str) -> tuple[float, float, float]:
    """The post and heading (DESIGN section 5) the board draws ``piece`` at."""
    transform = page.get_attribute(f".ftl-pieces .ftl-piece[data-piece='{piece}']", "transform")
    found = re.fullmatch(r"translate\((\S+) (\S+)\) rotate\((\S+)\)", transform or "")
    assert found, transform
    x, y, rotation = (float(v) for v in found.groups())
    return x, -y, -rotation


def expected(page: Page) -> str:
    """What the ruler should say from Ann's ship to the bot's, worked out here."""
    ax, ay, heading = pose(page, "ann")
    bx, by, _ = pose(page, "random bot")
    toward = math.degrees(math.atan2(-(bx - ax), by - ay))
    turn = (heading - toward + 180) % 360 - 180  # clockwise positive, as R+ turns
    step = round(turn / 15) * 15
    sign = "+" if step > 0 else "\u2013" if step < 0 else ""
    return f"random bot {round(math.hypot(bx - ax, by - ay), 1):g} in, R{sign}{abs(step)}"


def test_the_ruler_measures_for_the_player_alone(open_page: OpenPage, shot: Shot) -> None:
    ann = open_page("/", viewport={"width": 1366, "height": 800})
    sent: list[str] = []
    ann.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))
    start_duel(ann, "ann", "random")
    ann.select_option("#turn-speed", "8")
    ann.fill(FIELD, "R+90")  # she faces right: the bot's ship is then on her left
    ann.click("#submit-plot")
    wait_turn(ann, 2)
    before = len(sent)

    # Her ship is selected for plotting; pointing at the bot's ship tells range and turn.
    assert ann.is_hidden("#ruler-readout")
    ann.hover(BOT)
    ann.wait_for_selector("#ruler-readout:not([hidden])")
    said = expected(ann)
    assert ann.inner_text("#ruler-readout") == said
    assert re.fullmatch(r"random bot [0-9.]+ in, R(\+|\u2013)?[0-9]+", said)
    assert ann.locator(".ftl-ruler .ruler-line").count() == 1
    shot(ann, "bearing-desktop")
    # Pointing away hides it; a click pins it.
    ann.mouse.move(*on_screen(ann, -11, 0))
    assert ann.is_hidden("#ruler-readout")
    ann.click(BOT)
    ann.mouse.move(*on_screen(ann, -11, 0))
    assert ann.inner_text("#ruler-readout") == said

    # The Measure tool: a tape from the table's centre to (6, 8) is 10 in long.
    ann.click("#measure")
    assert ann.get_attribute("#measure", "aria-pressed") == "true"
    assert ann.inner_text("#ruler-readout") == "Drag on the table to measure."
    start, end = on_screen(ann, 0, 0), on_screen(ann, 6, 8)
    ann.mouse.move(*start)
    ann.mouse.down()
    ann.mouse.move((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, steps=3)
    ann.mouse.move(*end, steps=3)
    ann.mouse.up()
    assert ann.inner_text("#ruler-readout") == "Tape: 10 in, facing 36.87°"
    shot(ann, "tape-desktop")
    # The plot is as it was: no order for her ship, nothing sent but what keeps the socket up.
    assert ann.input_value(FIELD) == ""
    assert ann.get_attribute(".plot-row[data-piece='ann']", "data-order") == ""
    types = [json.loads(f)["type"] for f in sent[before:] if f.startswith("{")]
    assert set(types) <= {"ping"}, types

    ann.set_viewport_size({"width": 390, "height": 844})
    ann.locator("#table-wrap").scroll_into_view_if_needed()
    start, end = on_screen(ann, -6, -6), on_screen(ann, 0, 2)
    ann.mouse.move(*start)
    ann.mouse.down()
    ann.mouse.move(*end, steps=4)
    ann.mouse.up()
    assert ann.inner_text("#ruler-readout") == "Tape: 10 in, facing 36.87°"
    shot(ann, "tape-phone")
    ann.keyboard.press("Escape")
    assert ann.get_attribute("#measure", "aria-pressed") == "false"
    ann.hover(BOT)
    assert ann.inner_text("#ruler-readout") == said
    shot(ann, "bearing-phone")
