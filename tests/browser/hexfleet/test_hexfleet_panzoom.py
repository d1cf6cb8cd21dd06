"""The hex board zooms and pans by hand with the FTL board's gestures (shell/panzoom.js): the
wheel zooms at the pointer, keeping the hex under it in place, and a drag pans the map."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.browser.conftest import OpenPage, Server, Shot


def centre(page: Page, selector: str) -> tuple[float, float, float]:
    """The middle of ``selector`` on the page and its width, CSS pixels."""
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not on screen"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, box["width"]


def test_the_hex_board_zooms_at_the_pointer_and_pans_by_drag(
    open_page: OpenPage, server: Server, shot: Shot
) -> None:
    room = server.api("/api/rooms", {"ruleset": "hexfleet", "seats": 2, "turn_limit": 8})
    ann = open_page(f"/rooms/{room['id']}", viewport={"width": 1366, "height": 800})
    ben = open_page(f"/rooms/{room['id']}", viewport={"width": 1366, "height": 800})
    for page, name, seat in ((ann, "ann", 0), (ben, "ben", 1)):
        page.wait_for_selector(f".seat[data-seat='{seat}'] .take-seat")
        page.fill("#player-name", name)
        page.click(f".seat[data-seat='{seat}'] .take-seat")
        page.wait_for_selector("button#ready")
    ann.click("button#ready")
    ben.click("button#ready")
    page = ann
    page.wait_for_selector("body[data-phase=activation]")
    # A hex off the board's middle (a third of the way across and down): zooming about the
    # middle would move it.
    key = page.evaluate(
        """() => { const b = document.querySelector('.hex-board').getBoundingClientRect();
          const hit = document.elementFromPoint(b.x + b.width / 3, b.y + b.height / 3);
          return hit?.closest('.hex')?.dataset.hex; }"""
    )
    assert key, "no hex a third of the way across the board"
    hexagon = f".hex-board .hex[data-hex='{key}'] polygon"
    x, y, width = centre(page, hexagon)
    page.mouse.move(x, y)
    for _ in range(2):
        page.mouse.wheel(0, -120)
    page.wait_for_function(
        """([sel, w]) => document.querySelector(sel).getBoundingClientRect().width > w""",
        arg=[hexagon, width * 1.3],
    )
    zx, zy, _ = centre(page, hexagon)
    assert abs(zx - x) < 3 and abs(zy - y) < 3
    # A drag pans: the hex follows the pointer.
    page.mouse.down()
    page.mouse.move(x + 90, y + 40, steps=6)
    page.mouse.up()
    px, py, _ = centre(page, hexagon)
    assert abs(px - (x + 90)) < 3 and abs(py - (y + 40)) < 3
    shot(page, "zoomed-and-panned")
