"""A file that is not JSON, imported into each game's referee: the page names the file and
says where the server's parser stopped (the one reading the three referees share,
``readJSON`` in ``web/js/shell/dom.js``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import OpenPage

#: Each referee's page, what it shows once in place, its import field and its error.
REFEREES = {
    "lightspeed": ("/referee", ".add-ship", "#import-file", "#referee-error:not([hidden])"),
    "ftl": (
        "/referee?game=ftl",
        "body[data-referee=ftl] #ftl-table",
        "#ftl-import-file",
        "#ftl-error",
    ),
    "hexfleet": (
        "/referee?game=hexfleet",
        "body[data-referee=hexfleet] .hex-ship-card",
        "#hex-import-file",
        ".hex-error:not([hidden])",
    ),
}


@pytest.mark.parametrize("game", sorted(REFEREES))
def test_a_file_that_is_not_json_is_refused_with_its_name_and_where(
    open_page: OpenPage, tmp_path: Path, game: str
) -> None:
    address, ready, field, said_at = REFEREES[game]
    page = open_page(address)
    page.wait_for_selector(ready)
    broken = tmp_path / "broken.json"
    broken.write_text('{"ruleset": ', encoding="utf-8")
    page.set_input_files(field, str(broken))
    error = page.locator(said_at)
    error.wait_for()
    said = error.inner_text()
    assert said.startswith("broken.json: ")
    assert "line 1" in said and "not valid JSON" not in said
