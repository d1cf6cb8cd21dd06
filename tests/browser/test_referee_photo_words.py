"""The referee sandbox as a newcomer met it (issue 36 item 18), at 1366 x 800 and on a
390 x 844 phone: the labels of cards lying close together on the photo's thumbnail ran into
each other; in the hex fleet's sandbox "Export script" stood beside a bare "Import…", and
nothing said that the photo reader is for the laser games."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import OpenPage, Shot

SIZES: dict[str, dict[str, Any]] = {
    "1366x800": {"viewport": {"width": 1366, "height": 800}},
    "390x844": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}

#: A photo's reading shown by the photo panel's own code in the page's side column: five
#: cards side by side, close together, their long ids wider than the cards; the labels'
#: boxes on the screen, the photo's, and the labels' font size on the screen.
CLOSE_CARDS = """async () => {
  const { PhotoReader } = await import('/static/js/games/lasers/photo.js');
  const reader = new PhotoReader({ openTable: async () => {}, showError: () => {},
                                   tableFile: () => null, redraw: () => {} });
  document.querySelector('.side').append(reader.panel);
  const canvas = Object.assign(document.createElement('canvas'), { width: 1400, height: 1050 });
  const file = await new Promise((done) => canvas.toBlob(done, 'image/png'));
  const ids = ['purple-moth', 'green-ghost', 'blue-lancer', 'red-avenger', 'purple-wasp'];
  const cards = ids.map((id, i) => {
    const x = 300 + i * 170, y = 500;
    return { id, outline_px: [[x, y], [x + 150, y], [x + 150, y + 100], [x, y + 100]] };
  });
  reader.showPhoto(file, { image: { width: 1400, height: 1050 }, cards });
  reader.figure.scrollIntoView();
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const texts = [...reader.figure.querySelectorAll('.photo-card text')];
  return { labels: texts.map(box), photo: box(reader.figure.querySelector('img')),
           px: texts[0].getBoundingClientRect().height };
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_the_photos_card_labels_stand_apart(open_page: OpenPage, shot: Shot, size: str) -> None:
    page = open_page("/referee?game=lightspeed", **SIZES[size])
    page.wait_for_selector(".add-ship")
    found = page.evaluate(CLOSE_CARDS)
    labels = found["labels"]
    assert len(labels) == 5
    left, top, right, bottom = found["photo"]
    for i, (x0, y0, x1, y1) in enumerate(labels):
        assert left - 0.5 <= x0 and x1 <= right + 0.5 and top - 0.5 <= y0 and y1 <= bottom + 0.5
        for other in labels[i + 1 :]:
            apart = x1 <= other[0] or other[2] <= x0 or y1 <= other[1] or other[3] <= y0
            assert apart, (labels[i], other)
    assert found["px"] >= 10, found  # readable on the screen (about 7 px before)
    shot(page, "labels")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_hex_referee_names_what_it_imports_and_where_photos_are_read(
    open_page: OpenPage, shot: Shot, size: str
) -> None:
    page = open_page("/referee?game=hexfleet", **SIZES[size])
    page.wait_for_selector("#hex-export")
    expect(page.locator("label[for='hex-import-file']")).to_have_text("Import script…")
    note = page.locator("#photo-note")
    expect(note).to_have_text(
        "Reading a photo of the table is for Light Speed and Stellar Conflict:"
        " choose one of them above."
    )
    box = note.bounding_box()
    width = SIZES[size]["viewport"]["width"]
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    shot(page, "hex")
    # A laser game's sandbox has the reader itself: no note.
    page.select_option("#ruleset", "lightspeed")
    page.wait_for_selector("#photo-panel")
    expect(note).to_be_hidden()
