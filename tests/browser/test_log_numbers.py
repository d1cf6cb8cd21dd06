"""Every game's numbered log shows its whole number from line 10 on: the number of each line
lies inside the list's own box, where a scrolling list cannot cut it ("10." once showed as
"0.", "11." as "1."). Measured with the lists' own styles, in a scrolling box as the logs
are: the replays' log (every game), FTL's turn log and account, the hex fleet's lesson log."""

from __future__ import annotations

import pytest

from tests.browser.conftest import OpenPage

#: How far (px) the start of line 10's number lies inside its list's left edge (negative:
#: cut off). An outside marker needs the list's padding to hold "10. ".
ROOM_FOR_TEN = """(cls) => {
  const list = document.createElement('ol');
  list.className = cls;
  for (let i = 1; i <= 12; i += 1) {
    const line = document.createElement('li');
    line.textContent = `line ${i}: a line of the battle long enough to wrap in the side column`;
    list.append(line);
  }
  const box = document.createElement('div');
  box.style.cssText = 'overflow: auto; width: 280px; max-height: 200px';
  box.append(list);
  document.querySelector('.side').append(box);
  const line = list.children[9];
  const style = getComputedStyle(line);
  const left = list.getBoundingClientRect().left;
  if (style.listStylePosition === 'inside') {
    const start = line.getBoundingClientRect().left + parseFloat(style.paddingLeft)
      + parseFloat(style.textIndent);
    return start - left;
  }
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = style.font;
  const marker = pen.measureText('10. ').width;
  return line.getBoundingClientRect().left - marker - left;
}"""


@pytest.mark.parametrize(
    ("game", "log"),
    [
        ("ftl", "replay-log"),
        ("ftl", "turn-log"),
        ("ftl", "ftl-account"),
        ("hexfleet", "hex-step-log"),
    ],
)
def test_line_ten_of_a_numbered_log_shows_its_whole_number(
    open_page: OpenPage, game: str, log: str
) -> None:
    page = open_page(f"/referee?game={game}", viewport={"width": 1366, "height": 800})
    page.wait_for_selector(f"body[data-referee={game}]")
    page.wait_for_function(
        "(game) => [...document.styleSheets].some((s) => (s.href || '').includes(`/${game}/`))",
        arg=game,
    )
    room = page.evaluate(ROOM_FOR_TEN, log)
    assert room >= 0, f"{log}: the number of line 10 is cut by {-room:.1f} px"
