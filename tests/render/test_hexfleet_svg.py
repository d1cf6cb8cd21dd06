"""The picture of a combat script: each ship's gauges before and after, every step's cards
with the hits outlined and the damage cards marked by the system they struck."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from spacetable.games.hexfleet.script import CombatScript, ScriptResult, read
from spacetable.i18n import translator
from spacetable.render.hexfleet_svg import script_svg
from tests._paths import ROOT

NS = {"svg": "http://www.w3.org/2000/svg"}


def settled(name: str) -> tuple[CombatScript, ScriptResult]:
    script = read(json.loads((ROOT / "examples" / name).read_bytes()))
    return script, script.resolve()


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def by_class(root: ET.Element, word: str) -> list[ET.Element]:
    return [el for el in root.iter() if word in el.get("class", "").split()]


def texts(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter(f"{{{NS['svg']}}}text")]


def test_the_gauges_show_each_system_before_and_after() -> None:
    root = parsed(script_svg(*settled("hexfleet-benellyn.json")))
    ships = {el.get("data-ship"): el for el in by_class(root, "ship")}
    assert set(ships) == {"benellyn", "kal-pol"}
    gauges = {
        g.get("class", "").split()[1]: (g.get("data-before"), g.get("data-after"))
        for g in by_class(ships["benellyn"], "gauge")
    }
    assert gauges == {"shields": ("16", "13"), "weapons": ("16", "12"), "propulsion": ("8", "4")}
    assert "16 → 13 / 16" in texts(ships["benellyn"])
    assert "jumped out" in texts(ships["benellyn"])
    assert "jumped" in ships["benellyn"].get("class", "")


def test_every_step_shows_its_cards_with_the_hits_outlined() -> None:
    script, result = settled("hexfleet-benellyn.json")
    root = parsed(script_svg(script, result))
    steps = by_class(root, "step")
    assert [s.get("data-step") for s in steps] == [str(n) for n in range(1, 12)]
    first_salvo = steps[1]
    cards = by_class(first_salvo, "card")
    fired = result.to_json()["steps"][1]
    assert [c.get("data-card") for c in cards][:8] == fired["cards"]
    hits = [c.get("data-card") for c in by_class(first_salvo, "hit")]
    assert hits == [c for c in fired["cards"] if c.endswith("S")]
    struck = [c.get("class", "").split()[1] for c in cards[8:]]
    assert struck == ["damage-club", "damage-shields", "damage-propulsion"]
    assert by_class(steps[0], "match")  # KS 10S raised the shields
    # the pile of 48 ran out before step 7: its first card comes from a new pile
    assert len(by_class(steps[6], "reshuffle")) == len(by_class(root, "reshuffle")) == 1


def test_a_wreck_and_a_reshuffle_are_drawn() -> None:
    root = parsed(script_svg(*settled("hexfleet-skirmish.json")))
    kestrel = next(el for el in by_class(root, "ship") if el.get("data-ship") == "kestrel")
    assert "wrecked" in kestrel.get("class", "").split() and "wrecked" in texts(kestrel)
    assert len(by_class(root, "reshuffle")) == 1


def test_without_a_result_the_ships_and_the_steps_are_listed() -> None:
    script, _ = settled("hexfleet-benellyn.json")
    root = parsed(script_svg(script, None))
    assert not by_class(root, "card")
    assert "11. jump benellyn" in texts(root)
    assert {g.get("data-after") for g in by_class(root, "gauge")} == {"16", "8"}


def test_the_same_script_draws_the_same_bytes() -> None:
    assert script_svg(*settled("hexfleet-skirmish.json")) == script_svg(
        *settled("hexfleet-skirmish.json")
    )


def test_in_french_the_cards_show_french_ranks_and_the_sides_french_colours() -> None:
    """Roi, dame, valet: a French reader sees R♠ where the file writes KS (the catalog's
    card names, as the French account and pages show them); the English is unchanged."""
    script, result = settled("hexfleet-benellyn.json")
    root = parsed(script_svg(script, result, tr=translator("fr")))
    faces = {card.get("data-card"): texts(card)[:2] for card in by_class(root, "card")}
    assert faces["KS"] == ["R", "♠"]
    assert faces["QD"] == ["D", "♦"] and faces["JC"] == ["V", "♣"]
    assert faces["10S"] == ["10", "♠"] and faces["AH"] == ["A", "♥"]
    ranks = {rank for rank, _ in faces.values()}
    assert not ranks & {"K", "Q", "J"}
    benellyn = next(el for el in by_class(root, "ship") if el.get("data-ship") == "benellyn")
    assert "noir · lourd · armes lourdes" in texts(benellyn)
    english = parsed(script_svg(script, result))
    king = next(card for card in by_class(english, "card") if card.get("data-card") == "KS")
    assert texts(king)[:2] == ["K", "♠"]
