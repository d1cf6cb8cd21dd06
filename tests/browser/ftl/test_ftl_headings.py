"""Headings are shown to players the way orders turn them (issue 20, FTL item 2): the
browser's one formatter (turns.js headingText) says what the server's accounts say
(narrate.heading_text), a bearing clockwise from up, while files keep DESIGN section 5's
counter-clockwise headings."""

from __future__ import annotations

from spacetable.games.ftl.narrate import heading_text
from tests.browser.conftest import OpenPage

HEADINGS = [0, -90, 90, 180, -180, -105, 105, -45, 15.5, -0.004, -359.999, 359.996]


def test_the_browser_tells_headings_as_the_server_does(open_page: OpenPage) -> None:
    page = open_page("/")
    shown = page.evaluate(
        """async (headings) => {
          const { headingText } = await import("/static/js/games/ftl/turns.js");
          return headings.map(headingText);
        }""",
        HEADINGS,
    )
    assert shown == [heading_text(h).replace(" deg", "°") for h in HEADINGS]
    assert shown[:6] == ["0°", "90°", "270°", "180°", "180°", "105°"]
