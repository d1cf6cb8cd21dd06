"""Playing on a phone (390 x 844, touch): the pages fit the width, the table zooms in to a
card a finger can hold, one finger drags the card, its large handle or two fingers turn it,
and the Place button puts it down; lifting the finger never does."""

from __future__ import annotations

from playwright.sync_api import CDPSession, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser._play import hand_ship, take_seat
from tests.browser.conftest import OpenPage, Server, Shot

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def _fits_the_width(page: Page) -> bool:
    return bool(
        page.evaluate(
            "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
    )


class Finger:
    """Touches sent as the phone's touch screen sends them."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.session: CDPSession = page.context.new_cdp_session(page)

    def send(self, kind: str, points: list[tuple[float, float]]) -> None:
        touch_points = [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]
        self.session.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch_points})

    def drag(self, start: tuple[float, float], end: tuple[float, float], steps: int = 8) -> None:
        self.send("touchStart", [start])
        for i in range(1, steps + 1):
            t = i / steps
            self.send(
                "touchMove",
                [(start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)],
            )
        self.end()

    def end(self) -> None:
        """Lift every finger."""
        self.send("touchEnd", [])
        # Chrome's gesture detector takes a drag sent this fast for the start of a double
        # tap and swallows the click of a tap that follows at once: a person's pause.
        self.page.wait_for_timeout(500)


def _centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _tap_place(page: Page, ship: str | None) -> None:
    """Tap Place until the card ``ship`` lands or is refused. Now and then Chrome swallows
    the click of a synthetic tap that follows synthetic drags (never seen with a person's
    hand): a tap that changed nothing in 3 s is tapped again."""
    landed = f"""document.querySelector('.table-card[data-card="dana-{ship}"]')
        || !document.querySelector('#refused').hidden"""
    for _ in range(2):
        page.tap("#place-card")
        try:
            page.wait_for_function(landed, timeout=3000)
            return
        except PlaywrightTimeoutError:
            continue


def _pose(page: Page) -> tuple[float, float, float]:
    data = page.evaluate(
        "() => { const d = document.querySelector('#hand').dataset;"
        " return [+d.x, +d.y, +d.rotation]; }"
    )
    return float(data[0]), float(data[1]), float(data[2])


def _view_aspect(page: Page) -> float:
    """Height over width of what the table's view shows (its viewBox, mm)."""
    _, _, width, height = (
        float(v) for v in (page.get_attribute("#table", "viewBox") or "").split()
    )
    return height / width


def _box_aspect(page: Page) -> float:
    """Height over width of the table's box on screen."""
    box = page.locator("#table").bounding_box()
    assert box is not None
    return box["height"] / box["width"]


def test_a_phone_places_and_turns_cards_by_touch(
    server: Server, open_page: OpenPage, shot: Shot
) -> None:
    lobby = open_page("/", **PHONE)
    lobby.wait_for_selector("#create")
    assert _fits_the_width(lobby)
    shot(lobby, "lobby")

    room = server.api("/api/rooms", {"seats": 2})
    phone = open_page(f"/rooms/{room['id']}", **PHONE)
    take_seat(phone, "dana", 0)
    assert _fits_the_width(phone)
    shot(phone, "seats")
    other = open_page(phone.input_value("#share-link"))
    take_seat(other, "eve", 1)
    phone.tap("button#ready")
    other.click("button#ready")
    phone.wait_for_selector("body[data-phase=fast]")
    phone.wait_for_selector("#hand-bar:not([hidden])")
    assert _fits_the_width(phone)

    # The table zoomed in: the card in hand is finger-sized, and so is its handle.
    assert float(phone.get_attribute("#table", "data-zoom") or "1") > 1.5
    face = phone.locator("#hand .hand-face").bounding_box()
    hit = phone.locator("#hand .rotate-handle .handle-hit").bounding_box()
    assert face is not None and hit is not None
    assert face["width"] >= 48, face
    assert hit["width"] >= 44, hit
    # ... and the zoomed view fills the table's box on the upright screen: a tall slice of
    # the table, not a band across its middle with the dark beyond the view around it.
    assert abs(_view_aspect(phone) - _box_aspect(phone)) < 0.02
    shot(phone, "card-in-hand")
    finger = Finger(phone)
    # One finger drags the card; lifting it puts nothing down.
    x0, y0, _ = _pose(phone)
    start = _centre(phone, "#hand .hand-face")
    finger.drag(start, (start[0] + 60, start[1] - 50))
    x1, y1, _ = _pose(phone)
    assert x1 > x0 + 20 and y1 > y0 + 20, (x0, y0, x1, y1)
    assert phone.locator(".table-card[data-owner=dana]").count() == 0
    assert phone.get_attribute("#hand", "visibility") == "visible"

    # Its yellow handle dragged to the right of the card turns the card's front to +x.
    handle = _centre(phone, "#hand .rotate-handle .handle-hit")
    cx, cy = _centre(phone, "#hand .hand-face")
    finger.drag(handle, (cx + 120, cy))
    phone.wait_for_function("document.querySelector('#hand').dataset.rotation === '-90'")
    assert phone.locator(".table-card[data-owner=dana]").count() == 0

    # Two fingers turn it: the second one swung a quarter turn counter-clockwise.
    cx, cy = _centre(phone, "#hand .hand-face")
    a, b = (cx - 60, cy + 150), (cx + 60, cy + 150)
    finger.send("touchStart", [a, b])
    for i in range(1, 9):
        t = i / 8
        finger.send("touchMove", [a, (a[0] + 120 * (1 - t), a[1] - 120 * t)])
    finger.end()
    _, _, rotation = _pose(phone)
    assert abs(rotation - 0) <= 2, rotation  # -90 turned back by 90
    assert phone.locator(".table-card[data-owner=dana]").count() == 0

    # Place puts it down, turned as it is; the next card shows beside it at once.
    finger.drag(_centre(phone, "#hand .rotate-handle .handle-hit"), (cx - 150, cy))
    phone.wait_for_function("document.querySelector('#hand').dataset.rotation === '90'")
    ship = hand_ship(phone)
    _tap_place(phone, ship)
    card = phone.locator(f'.table-card[data-card="dana-{ship}"]')
    phone.wait_for_function(
        f"""document.querySelector('.table-card[data-card="dana-{ship}"]')
        || !document.querySelector('#refused').hidden"""
    )
    assert card.count() == 1, (phone.inner_text("#refused"), _pose(phone))
    assert "rotate(-90)" in (card.get_attribute("transform") or "")
    phone.wait_for_function(f"document.querySelector('#hand').dataset.ship !== '{ship}'")
    assert phone.get_attribute("#hand", "visibility") == "visible"
    shot(phone, "placed")

    # The second card: dragged clear of the first, placed with the button.
    second = hand_ship(phone)
    start = _centre(phone, "#hand .hand-face")
    finger.drag(start, (start[0], start[1] - 140))
    _tap_place(phone, second)
    phone.locator(f'.table-card[data-card="dana-{second}"]').wait_for()
    assert phone.locator(".table-card[data-owner=dana]").count() == 2

    # The zoom buttons show the whole table and bring the card size back.
    phone.tap(".zoom-controls [data-zoom=fit]")
    assert phone.get_attribute("#table", "data-zoom") == "1"
    phone.tap(".zoom-controls [data-zoom=in]")
    assert float(phone.get_attribute("#table", "data-zoom") or "1") > 1
    assert _fits_the_width(phone)

    # A finger away from the card moves the table, not the card.
    pose = _pose(phone)
    view_box = phone.get_attribute("#table", "viewBox")
    table = phone.locator("#table").bounding_box()
    assert table is not None
    corner = (table["x"] + 25, table["y"] + 25)
    finger.drag(corner, (corner[0] + 80, corner[1] + 60))
    assert phone.get_attribute("#table", "viewBox") != view_box
    assert _pose(phone) == pose
    shot(phone, "two-placed")
