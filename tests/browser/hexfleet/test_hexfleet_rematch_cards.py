"""A hex fleet rematch starts with no card of the last battle (issue 20, item 31): the cards
still on screen, or still turning, when a battle ends are gone from the first message of the
next one, until the new battle's own first salvo. Here the battle ends by a resignation, just
after the bot's salvo: the ending the shell's manners handle (the hex room never hears that
result itself; shell/turnroom.js matchStopped tells it the match ended)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests._server import running_server
from tests.browser.conftest import OpenPage, Server, Shot
from tests.browser.hexfleet._battle import create_battle_with_bot

#: Bots act every 0.8 s times this: a few actions a second, faster than a reveal (2-6 s),
#: and the battle lasts long enough for Ann to take her seat back.
BOT_PACE = "0.3"
ROOM_SEED = 5

#: Record every card-turning `acted` message as it arrives, and once `window.watching` is
#: set, what the cards box shows after the page handled each message.
RECORD = """(() => {
  window.cardActions = [];
  window.samples = [];
  window.watching = false;
  const shown = () => [...document.querySelectorAll('#hex-cards .hx-card[data-card]')]
    .map((c) => c.dataset.card);
  window.shownCards = shown;
  const Real = window.WebSocket;
  window.WebSocket = class extends Real {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const message = JSON.parse(event.data);
        const turned = (message.events || [])
          .filter((e) => ["fire", "shields", "hail"].includes(e.type));
        if (message.type === "acted" && turned.length) window.cardActions.push(message);
        if (!window.watching) return;
        const since = window.cardActions.length - window.actionsAtRematch;
        // After the page's own handler, which this dispatch calls next.
        setTimeout(() => window.samples.push({ type: message.type, phase: message.phase,
          since, shown: shown() }), 0);
      });
    }
  };
})();"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None) -> Iterator[Server]:
    db: Path = tmp_path_factory.mktemp("hex-rematch-cards") / "matches.db"
    with running_server(db, "--bot-pace", BOT_PACE, room_seed=ROOM_SEED) as running:
        yield Server(running.http)


def test_a_rematch_starts_with_no_card_of_the_last_battle(open_page: OpenPage, shot: Shot) -> None:
    page = open_page("/", viewport={"width": 1366, "height": 800})
    page.add_init_script(RECORD)
    create_battle_with_bot(page)  # a new page: the recorder is in place
    page.click("button#ready")
    # Ann ends each of her activations at once until a salvo of the bot is on show.
    salvo = "window.cardActions.length > 0 && window.shownCards().length > 0"
    while True:
        page.wait_for_function(
            f"() => ({salvo}) || (document.querySelector('#end-activation') "
            "&& !document.querySelector('#end-activation').disabled)",
            timeout=90_000,
        )
        if page.evaluate(salvo):
            break
        page.evaluate("window.ended = document.querySelector('#end-activation')")
        page.click("#end-activation")
        page.wait_for_function("document.querySelector('#end-activation') !== window.ended")
    page.click("#resign")
    page.click("#confirm-resign")
    page.wait_for_selector(".match-end #rematch")
    last_battle = page.evaluate("window.shownCards()")
    assert last_battle, "no card of the last battle on show: nothing for the rematch to clear"
    shot(page, "ended")

    page.evaluate("window.actionsAtRematch = window.cardActions.length; window.watching = true")
    page.click(".match-end #rematch")
    # The new battle's first state (what the page shows once it handled it is sampled).
    page.wait_for_function("window.samples.some((s) => s.type === 'state' && s.phase !== 'over')")
    samples = page.evaluate("window.samples")
    started = False
    for sample in samples:
        started = started or (sample["type"] == "state" and sample["phase"] != "over")
        if started and sample["since"] == 0:
            assert sample["shown"] == [], (sample, last_battle)
    shot(page, "rematch")
