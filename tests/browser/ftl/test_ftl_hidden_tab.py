"""An FTL tab left hidden does not play every missed turn when it comes back: it shows the
present at once, and the turns it missed wait in the history to be stepped through."""

from __future__ import annotations

from tests.browser.conftest import OpenPage, Shot
from tests.browser.ftl._duel import start_duel, wait_turn

#: Turns played while the watcher's tab is hidden.
MISSED = 3

#: Hide or show the tab as the browser does when the player switches tabs: document.hidden
#: and a visibilitychange event, and no animation frames while hidden (they run again, the
#: waiting ones first, once it shows). Headless Chromium never hides a page by itself.
SET_HIDDEN = """(hidden) => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(document, "visibilityState", { configurable: true,
    get: () => (hidden ? "hidden" : "visible") });
  window.realFrame ??= window.requestAnimationFrame.bind(window);
  window.heldFrames ??= [];
  if (hidden) {
    window.requestAnimationFrame = (callback) => window.heldFrames.push(callback);
  } else {
    window.requestAnimationFrame = window.realFrame;
    for (const callback of window.heldFrames.splice(0)) window.realFrame(callback);
  }
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_hidden_tab_comes_back_to_the_present(open_page: OpenPage, shot: Shot) -> None:
    ann = open_page("/", viewport={"width": 1366, "height": 800})
    start_duel(ann, "ann", "random")
    ann.select_option("#turn-speed", "8")

    # A friend watches at the normal pace (a turn takes seconds to play out), then leaves
    # the tab for another while the duel goes on.
    eve = open_page(ann.url.split("?")[0], viewport={"width": 1366, "height": 800})
    wait_turn(eve, 1)
    eve.evaluate(SET_HIDDEN, True)
    for turn in range(1, MISSED + 1):
        ann.fill(".plot-row[data-piece='ann'] .plot-order", "R+15")  # turns on the spot
        ann.click("#submit-plot")
        wait_turn(ann, turn + 1)
    # Hidden, the tab keeps up without playing anything out (it could not: no frames).
    wait_turn(eve, MISSED + 1)

    eve.evaluate(SET_HIDDEN, False)
    assert eve.get_attribute("body", "data-phase") == "plot"
    assert eve.get_attribute("body", "data-turn") == str(MISSED + 1)
    assert eve.is_hidden("#skip")
    assert eve.inner_text(".ftl-position") == f"Turn {MISSED} of {MISSED}"
    assert eve.locator(".ftl-turns > li").count() == MISSED
    assert f"Turn {MISSED}, played out" in eve.inner_text("#log-title")
    shot(eve, "back-desktop")
    # The missed turns are there to step through.
    eve.click(".ftl-stepper [data-step='back']")
    assert eve.inner_text(".ftl-position") == f"Turn {MISSED - 1} of {MISSED}"
    eve.click(".ftl-stepper [data-step='first']")
    assert eve.inner_text(".ftl-position").startswith("Start")
    eve.set_viewport_size({"width": 390, "height": 844})
    shot(eve, "back-phone")
