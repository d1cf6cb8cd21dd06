"""Hex fleet cards and ships' logs on a page: the frames of a seeded battle (played by the
real engine, as the server frames them) are shown by ``showCards`` and ``ShipLogs``; what
the player sees is checked against the events — the cards turned face up one by one, the
hits lit, the damage cards labelled with the system and what is left, the clubs drawn
again, a shields try's match, and one ship's log."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

from spacetable.games.hexfleet.match import (
    EndActivation,
    Fire,
    Hail,
    HexAction,
    HexMatch,
    HexOptions,
    RaiseShields,
)
from tests.browser.conftest import OpenPage, Shot
from tests.browser.hexfleet._signs import with_signs

SYSTEM_MAX = {
    "shields": "shields_max",
    "weapons": "weapon_systems_max",
    "propulsion": "propulsion_max",
}
FACES = "cs => cs.map(c => c.dataset.card)"


def battle(seed: int) -> list[dict[str, Any]]:
    """A duel on a small board, framed as the server frames it: bob raises his shields until
    they are up, ann hails him and fires at him once they are. The opening frame first."""
    match = HexMatch(HexOptions(players=("ann", "bob"), scenario="duel", board=(10, 8)), seed)
    frames = [
        {
            "player": None,
            "action": None,
            "events": [e.to_json() for e in match.opening],
            "log": list(match.log),
            **match.snapshot(),
        }
    ]

    def act(action: HexAction) -> None:
        told = len(match.log)
        events = [e.to_json() for e in match.apply(action)]
        data = action.to_json()
        player = data.pop("player")
        data.pop("t")
        frames.append(
            {
                "player": player,
                "action": data,
                "events": events,
                "log": match.log[told:],
                **match.snapshot(),
            }
        )

    for _ in range(12):
        ship = match.active
        if ship is None or match.result() is not None:
            break
        if ship.owner == "ann" and not any(
            (f["action"] or {}).get("type") == "hail" for f in frames
        ):
            act(Hail("ann", ship.id, "2", 0.0))
        if ship.owner == "bob" and not ship.shields_up:
            act(RaiseShields("bob", ship.id, 0.0))
        elif ship.owner == "ann" and match.ships["2"].shields_up:
            act(Fire("ann", ship.id, "2", 0.0))
        act(EndActivation(ship.owner, ship.id, 0.0))
    return frames


def frames_of(kind: str) -> Iterator[dict[str, Any]]:
    """Frames with a ``kind`` event from seeded battles, seed after seed."""
    for seed in range(200):
        for frame in battle(seed):
            if any(e["type"] == kind for e in frame["events"]):
                yield frame


def salvo_frame() -> dict[str, Any]:
    """A salvo at raised shields where some cards are stopped and a club is drawn again."""
    for frame in frames_of("fire"):
        fire = next(e for e in frame["events"] if e["type"] == "fire")
        damage = [e for e in frame["events"] if e["type"] == "damage"]
        if 0 < fire["hits"] < len(fire["cards"]) and any(d["system"] is None for d in damage):
            return frame
    raise AssertionError("no seeded salvo with a miss and a club")


def show_cards(page: Page, frame: dict[str, Any], speed: float = 4) -> None:
    """Start showCards on a box at the top of the page, recording the order in which the
    cards turn face up (``window.turned``) and how many at a time (``window.batches``);
    ``window.cardsDone`` once it resolves."""
    page.evaluate(
        """async ([frame, speed]) => {
          const { showCards } = await import("/static/js/games/hexfleet/salvo.js");
          const box = document.createElement("section");
          box.id = "cards";
          document.body.prepend(box);
          window.turned = [];
          window.batches = [];
          new MutationObserver((records) => {
            let batch = 0;
            for (const r of records) {
              const node = r.target;
              if (node.classList.contains("hx-card") && node.classList.contains("up")
                  && !window.turned.includes(node)) {
                window.turned.push(node);
                batch += 1;
              }
            }
            if (batch) window.batches.push(batch);
          }).observe(box, { subtree: true, attributes: true, attributeFilter: ["class"] });
          window.cardsDone = false;
          showCards(box, frame, { speed, sound: false }).then(() => { window.cardsDone = true; });
        }""",
        [frame, speed],
    )


@pytest.mark.parametrize("size", ["1366x800", "390x844"])
def test_a_salvo_turns_its_fire_cards_then_one_damage_card_per_hit(
    open_page: OpenPage, shot: Shot, size: str
) -> None:
    frame = salvo_frame()
    fire = next(e for e in frame["events"] if e["type"] == "fire")
    damage = [e for e in frame["events"] if e["type"] == "damage"]
    target = next(s for s in frame["ships"] if s["id"] == fire["target"])
    width, height = (int(n) for n in size.split("x"))
    page = open_page("/matches", viewport={"width": width, "height": height})
    show_cards(page, frame, speed=1)
    page.wait_for_function(
        "document.querySelectorAll('#cards .hx-fire-cards .hx-card.up').length >= 4"
    )
    shot(page, "salvo-mid-flip")
    page.wait_for_function("window.cardsDone === true", timeout=30_000)
    shot(page, "damage-cards")

    fire_cards = page.locator("#cards .hx-fire-cards .hx-card")
    assert fire_cards.evaluate_all(FACES) == fire["cards"]
    assert page.locator("#cards .hx-fire-cards .hx-card.up").count() == len(fire["cards"])
    lit = page.locator("#cards .hx-fire-cards .hx-card.hit").evaluate_all(FACES)
    assert len(lit) == fire["hits"]
    assert all(card[-1] in fire["suits"] for card in lit)
    dimmed = page.locator("#cards .hx-fire-cards .hx-card.miss").count()
    assert dimmed == len(fire["cards"]) - fire["hits"]
    caption = page.inner_text("#cards .hx-salvo .hx-caption")
    assert caption.startswith("Benellyn fires ")
    assert "Kal Pol" in caption and "shields up" in caption
    assert caption.endswith(f"{fire['hits']} hits" if fire["hits"] > 1 else "1 hit")

    # One damage card per hit, each labelled with what it struck; the clubs set aside.
    slots = page.locator("#cards .hx-damage-cards .hx-slot")
    assert slots.count() == len(damage)
    labels = slots.locator(".hx-label").all_inner_texts()
    for event, label in zip(damage, labels, strict=True):
        if event["system"] is None:
            assert label == "♣ drawn again"
        else:
            most = target[SYSTEM_MAX[event["system"]]]
            assert label == f"{event['system']} {event['left']}/{most}"
    clubs = sum(d["system"] is None for d in damage)
    assert page.locator("#cards .hx-slot.set-aside").count() == clubs
    assert page.locator("#cards .hx-slot:not(.set-aside)").count() == fire["hits"]

    # Face up one by one: every fire card in order, then the damage cards in order.
    turned = page.evaluate("window.turned.map(c => c.dataset.card)")
    assert turned == fire["cards"] + [d["card"] for d in damage]
    assert set(page.evaluate("window.batches")) == {1}


#: What a try that matched says, and one that did not.
OUTCOMES = {
    "shields": ("shields up", "no match — shields stay down"),
    "hail": ("communications open", "no match — no answer"),
}


@pytest.mark.parametrize("kind", ["shields", "hail"])
def test_a_two_card_try_shows_its_cards_and_whether_they_match(
    open_page: OpenPage, kind: str
) -> None:
    page = open_page("/matches")
    seen = set()
    for frame in frames_of(kind):
        event = next(e for e in frame["events"] if e["type"] == kind)
        if event["success"] in seen:
            continue
        seen.add(event["success"])
        page.evaluate("document.querySelector('#cards')?.remove()")
        show_cards(page, frame, speed=8)
        page.wait_for_function("window.cardsDone === true")
        faces = page.locator("#cards .hx-try .hx-card.up")
        assert faces.evaluate_all(FACES) == event["cards"]
        outcome = page.inner_text("#cards .hx-outcome")
        matched, missed = OUTCOMES[kind]
        if event["success"]:
            first, second = event["cards"]
            assert outcome.startswith("a pair" if first[:-1] == second[:-1] else "same colour")
            assert outcome.endswith(f"— {matched}")
        else:
            assert outcome == missed
        if len(seen) == 2:
            break
    assert seen == {True, False}


def test_without_motion_the_cards_are_face_up_at_once(open_page: OpenPage) -> None:
    frame = salvo_frame()
    page = open_page("/matches", reduced_motion="reduce")
    show_cards(page, frame, speed=0.1)  # slow, but nothing moves: all up at once
    page.wait_for_function("window.cardsDone === true")
    total = sum(
        len(e["cards"]) if e["type"] == "fire" else e["type"] == "damage" for e in frame["events"]
    )
    assert page.locator("#cards .hx-card.up").count() == total
    flip = page.eval_on_selector(
        "#cards .hx-card-inner", "n => getComputedStyle(n).transitionDuration"
    )
    assert set(flip.split(", ")) == {"0s"}
    deck = page.inner_text("#cards .hx-deck")
    assert ("reshuffled" in deck) == any(e["type"] == "reshuffle" for e in frame["events"])
    assert f"deck: {frame['deck']['pile']} card" in deck


def show_logs(page: Page, lines: list[dict[str, Any]], ships: list[dict[str, Any]]) -> None:
    page.evaluate(
        """async ([lines, ships]) => {
          const { ShipLogs } = await import("/static/js/games/hexfleet/shiplog.js");
          const box = document.createElement("section");
          box.id = "logs";
          document.body.prepend(box);
          window.picked = [];
          window.logs = new ShipLogs(box, { ships, onSelect: (id) => window.picked.push(id) });
          window.logs.reset(lines);
        }""",
        [lines, ships],
    )


def test_a_ships_log_holds_the_lines_that_name_it(open_page: OpenPage, shot: Shot) -> None:
    frames = battle(0)
    lines = [line for frame in frames for line in frame["log"]]
    page = open_page("/matches", viewport={"width": 1366, "height": 800})
    show_logs(page, lines, frames[0]["ships"])
    shown = page.locator("#logs .hx-line:visible")
    assert shown.all_inner_texts() == [with_signs(line["text"]) for line in lines]
    turns = sorted({line["turn"] for line in lines})
    assert page.locator("#logs .hx-turn-head").all_inner_texts() == [f"Turn {t}" for t in turns]

    # The player picks Kal Pol's log: only its lines, and the page is told.
    page.select_option("#logs .hx-log-chooser", label="Kal Pol (bob)")
    kal_pol = [with_signs(line["text"]) for line in lines if "2" in line["ships"]]
    assert shown.all_inner_texts() == kal_pol
    assert page.evaluate("window.picked") == ["2"]
    assert f"Kal Pol (bob): {len(kal_pol)} lines" in page.inner_text("#logs summary")
    shot(page, "kal-pol-log")

    # New lines arrive at the bottom; select(null) shows the whole battle again.
    page.evaluate("window.logs.add([{turn: 99, ships: ['1'], text: 'Benellyn waits'}])")
    assert shown.all_inner_texts() == kal_pol
    page.evaluate("window.logs.select(null)")
    assert page.locator("#logs .hx-line:visible").last.inner_text() == "Benellyn waits"
    assert page.input_value("#logs .hx-log-chooser") == ""


def test_on_a_phone_the_log_is_a_drawer(open_page: OpenPage, shot: Shot) -> None:
    frames = battle(0)
    lines = [line for frame in frames for line in frame["log"]]
    page = open_page("/matches", viewport={"width": 390, "height": 844})
    show_logs(page, lines, frames[0]["ships"])
    assert not page.locator("#logs .hx-log").is_visible()
    # The newest line.
    assert page.inner_text("#logs .hx-log-latest") == with_signs(lines[-1]["text"])
    page.click("#logs summary")
    assert page.locator("#logs .hx-log").is_visible()
    shot(page, "log-drawer-open")


def test_a_reshuffle_in_mid_salvo_is_shown_where_it_happened(open_page: OpenPage) -> None:
    def kinds(frame: dict[str, Any]) -> list[str]:
        return [e["type"] for e in frame["events"]]

    frame = next(
        f
        for f in frames_of("reshuffle")
        if "fire" in kinds(f) and kinds(f).index("reshuffle") > kinds(f).index("fire")
    )
    after = kinds(frame)[kinds(frame).index("reshuffle") :].count("damage")
    page = open_page("/matches")
    show_cards(page, frame, speed=8)
    page.wait_for_function("window.cardsDone === true")
    row = page.locator("#cards .hx-damage-cards > *")
    classes = row.evaluate_all("ns => ns.map(n => n.className)")
    note = next(i for i, c in enumerate(classes) if "hx-reshuffle-note" in c)
    assert len(classes) - note - 1 == after  # the damage cards drawn from the new pile
    assert page.inner_text("#cards .hx-damage-cards .hx-reshuffle-note") == "reshuffled!"
    assert "reshuffled!" in page.inner_text("#cards .hx-deck")
