"""The referee page with a hostile table file (issue 9, finding 1): the browser draws the
file's ships itself before the server refuses them, so a health of 10**300 must not make
it draw one dot per point; the page stays usable and shows the server's reason."""

from __future__ import annotations

import json
from pathlib import Path

from tests._paths import ROOT
from tests.browser.conftest import OpenPage, Shot

EXAMPLES = ROOT / "examples"


def test_a_ship_of_huge_health_is_drawn_with_its_number_and_refused(
    open_page: OpenPage, shot: Shot, tmp_path: Path
) -> None:
    data = json.loads((EXAMPLES / "fig1-sample-game.json").read_text(encoding="utf-8"))
    data["ships"] = {"moth": {"name": "Moth", "speed": 1, "health": 7, "lasers": []}}
    hostile = tmp_path / "huge-health.json"
    hostile.write_text(json.dumps(data).replace('"health": 7', '"health": 1e300'))
    page = open_page("/referee")
    page.wait_for_selector(".add-ship")
    page.set_input_files("#import-file", str(hostile))
    page.wait_for_selector("#referee-error:not([hidden])")
    assert "ship 'moth': 'health' must be an integer" in page.inner_text("#referee-error")
    moth = page.locator('.table-card[data-card="red-moth"]')
    assert moth.locator(".health-dot").count() == 1
    assert moth.locator(".health-count").text_content() == "1e+300"
    shot(page, "huge-health")
