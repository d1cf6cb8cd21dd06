"""Hex fleet combat scripts (DESIGN section 6): the defaults, the charts applied to the
cards typed in, and every refusal as one line naming the field or the step; then
``spacetable resolve`` and ``render`` on them as a referee runs them."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from spacetable.games.hexfleet.cards import full_deck
from spacetable.games.hexfleet.script import ScriptError, read
from spacetable.games.hexfleet.script_account import account, result_with_log
from spacetable.i18n import translator
from spacetable.i18n.phrase import Phrase, says
from tests._cli import ROOT, spacetable

BENELLYN = ROOT / "examples" / "hexfleet-benellyn.json"


def script(steps: list[dict[str, str]], cards: list[str], **ships: Any) -> Any:
    """A script of two heavies (``a`` red, ``b`` blue) unless ``ships`` are given."""
    fleet = ships or {
        "a": {"class": "heavy", "owner": "red"},
        "b": {"class": "heavy", "owner": "blue"},
    }
    return {"ruleset": "hexfleet", "ships": fleet, "steps": steps, "cards": cards}


def settled(data: Any) -> dict[str, Any]:
    result: dict[str, Any] = read(data).resolve().to_json()
    return result


def refusal(data: Any) -> str:
    with pytest.raises(ScriptError) as caught:
        read(data).resolve()
    message = str(caught.value)
    assert "\n" not in message
    return message


FIRE = {"fire": "a", "at": "b"}
#: Eight cards with no spade.
NO_SPADES = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"]
#: Eight diamonds.
DIAMONDS = ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D"]
#: A whole deck, spades first.
DECK = [str(card) for card in full_deck()]


def test_defaults_shields_down_nothing_lost_medium_ships_carry_light_weapons() -> None:
    data = script(
        [],
        [],
        m={"class": "medium", "owner": "red"},
        h={"class": "heavy", "owner": "blue", "shields_up": True, "propulsion_lost": 3},
    )
    ships = settled(data)["ships"]
    assert ships["m"] | {} == {
        **ships["m"],
        "shields": 12,
        "shields_up": False,
        "weapons": 8,
        "weapon_size": "light",
        "propulsion": 12,
        "salvo": 4,
        "can_jump": True,
        "on_table": True,
    }
    assert (ships["h"]["shields_up"], ships["h"]["propulsion"], ships["h"]["can_jump"]) == (
        True,
        5,
        True,
    )
    assert read(data).to_json()["ships"]["m"]["weapons"] == "light"


def test_the_json_keys_of_the_contract() -> None:
    out = settled(script([{"raise_shields": "a"}, FIRE], ["KS", "10S", *NO_SPADES, *DIAMONDS]))
    for ship in out["ships"].values():
        assert {"shields", "shields_up", "weapons", "propulsion", "can_jump", "on_table"} <= set(
            ship
        )
    raised, fired = out["steps"]
    assert raised["cards"] == ["KS", "10S"] and raised["success"] is True
    assert fired["cards"] == NO_SPADES and fired["hits"] == 8  # b's shields are down
    assert [e["type"] for e in out["events"]][:2] == ["shields", "fire"]


def test_a_salvo_hits_by_the_targets_shields_and_damage_follows_the_suits() -> None:
    # b's shields up at 16/16: only spades hit. Two spades; damage: a club (again), a
    # diamond, then a spade.
    cards = ["AS", "2S", "3H", "4D", "5C", "6H", "7D", "8C", "9C", "10D", "JS"]
    out = settled(script([FIRE], cards, a={"class": "heavy", "owner": "red"},
                         b={"class": "heavy", "owner": "blue", "shields_up": True}))  # fmt: skip
    step = out["steps"][0]
    assert (step["suits"], step["hits"]) == ("S", 2)
    assert [(d["card"], d["system"], d["left"]) for d in step["damage"]] == [
        ("9C", None, 0),
        ("10D", "weapons", 15),
        ("JS", "propulsion", 7),
    ]
    assert (out["ships"]["b"]["weapons"], out["ships"]["b"]["propulsion"]) == (15, 7)


def test_heart_damage_on_the_last_shield_point_drops_the_shields() -> None:
    fleet = {
        "a": {"class": "heavy", "owner": "red"},
        "b": {"class": "light", "owner": "blue", "shields_up": True, "shields_lost": 7},
    }
    # 1 of 8 points left: every card hits; the first damage card is a heart.
    cards = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]  # eight hits
    damage = ["KH", "AD", "2D", "3D", "4D", "5D", "6D", "7D"]
    result = settled(script([FIRE], cards + damage, **fleet))["ships"]["b"]
    assert (result["shields"], result["shields_up"], result["weapons"]) == (0, False, 1)


def test_a_ship_with_no_weapons_and_no_propulsion_is_a_wreck_and_then_cannot_act() -> None:
    fleet = {
        "a": {"class": "heavy", "owner": "red"},
        "b": {"class": "light", "owner": "blue", "weapons_lost": 7, "propulsion_lost": 15},
    }
    cards = [*NO_SPADES, "AD", "AS", *DIAMONDS[:6]]
    out = settled(script([FIRE], cards, **fleet))
    assert out["ships"]["b"] | {} == {**out["ships"]["b"], "on_table": False, "status": "wrecked"}
    assert out["steps"][0]["wrecked"] == "b"
    message = refusal(script([FIRE, {"fire": "b", "at": "a"}], cards, **fleet))
    assert message.startswith("step 2 (fire b at a): b is a wreck")


def test_jumping_needs_half_the_propulsion_cells() -> None:
    fleet: dict[str, dict[str, Any]] = {
        "a": {"class": "heavy", "owner": "red", "propulsion_lost": 4},
        "b": {"class": "heavy", "owner": "blue"},
    }
    assert settled(script([{"jump": "a"}], [], **fleet))["ships"]["a"]["on_table"] is False
    fleet["a"]["propulsion_lost"] = 5
    assert refusal(script([{"jump": "a"}], [], **fleet)) == (
        "step 1 (jump a): a has 3 of 8 propulsion cells: it needs half of them to jump"
    )


def test_a_ship_that_jumped_may_not_act_or_be_fired_at() -> None:
    assert refusal(script([{"jump": "a"}, FIRE], NO_SPADES)) == (
        "step 2 (fire a at b): a has jumped out of the battle"
    )
    assert refusal(script([{"jump": "b"}, FIRE], NO_SPADES)) == (
        "step 2 (fire a at b): b has jumped out of the battle"
    )


def test_forbidden_steps_are_refused_naming_the_step() -> None:
    fleet = {
        "a": {"class": "heavy", "owner": "red", "weapons_lost": 16},
        "b": {"class": "heavy", "owner": "blue"},
    }
    assert refusal(script([{"hail": "b", "to": "a"}, FIRE], ["KS", "QS"], **fleet)) == (
        "step 2 (fire a at b): a has no weapons left to fire"
    )
    up = {"a": {"class": "heavy", "owner": "red", "shields_up": True}, "b": fleet["b"]}
    assert "a's shields are already up" in refusal(
        script([{"raise_shields": "a"}], ["KS", "QS"], **up)
    )
    friends = {"a": {"class": "heavy", "owner": "red"}, "b": {"class": "heavy", "owner": "red"}}
    assert "own side" in refusal(script([FIRE], NO_SPADES, **friends))


def test_cards_that_run_out_are_refused_naming_the_step() -> None:
    assert refusal(script([{"raise_shields": "a"}, FIRE], ["KS", "10S", "2H"])) == (
        "the cards ran out at step 2 (fire a at b): the script lists 3"
    )


def test_a_card_twice_before_the_pile_runs_out_is_settled_with_a_warning() -> None:
    # DESIGN section 6 refuses bad names and cards that run out, nothing more: a repeated
    # card is settled as typed, and the result says where to look.
    cards = ["KS", "10S", "2H", "KS"]
    out = settled(script([{"raise_shields": "a"}, {"hail": "a", "to": "b"}], cards))
    assert out["warnings"] == [
        "card 4 of the script, drawn at step 2 (hail a to b): KS again, but it already came out "
        "since the deck was last shuffled: check the cards typed"
    ]
    assert out["steps"][1]["cards"] == ["2H", "KS"]


def test_after_52_cards_the_discards_make_a_new_pile() -> None:
    # 26 hail tries use the whole deck; a 27th may turn any card again.
    steps = [{"hail": "a", "to": "b"}] * 27
    out = settled(script(steps, [*DECK, "AS", "2S"]))
    assert [e["type"] for e in out["events"]].count("reshuffle") == 1
    assert out["cards_used"] == 54


def test_cards_in_play_at_the_reshuffle_stay_out_of_the_new_pile() -> None:
    # 22 hails use 44 cards; a's salvo turns the last 8 and, the pile empty, its damage
    # cards come from a new pile of the 44 discards: never one of the salvo's own cards.
    hails = [{"hail": "a", "to": "b"}] * 22
    damage = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"]
    out = settled(script([*hails, FIRE], [*DECK, *damage]))
    assert out["steps"][-1]["cards"] == DECK[44:] and out["steps"][-1]["hits"] == 8
    reshuffles = [e for e in out["events"] if e["type"] == "reshuffle"]
    assert reshuffles == [{"type": "reshuffle", "cards": 44}]
    bad = settled(script([*hails, FIRE], [*DECK, DECK[50], *damage]))
    assert bad["warnings"] == [
        f"card 53 of the script, drawn at step 23 (fire a at b): {DECK[50]} again, but it is "
        "in play in this step: check the cards typed"
    ]


def test_a_pile_smaller_than_a_deck_reshuffles_sooner() -> None:
    data = script([{"hail": "a", "to": "b"}, {"hail": "a", "to": "b"}], ["KS", "QS", "KS", "QS"])
    assert "card 3 of the script" in settled(data)["warnings"][0]
    out = settled({**data, "pile": 2})
    assert out["warnings"] == []
    assert out["cards_used"] == 4 and out["events"][1] == {"type": "reshuffle", "cards": 52}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"ruleset": "ftl"}, "'ruleset' must be 'hexfleet'"),
        ({"extra": 1}, "unknown top-level field(s): 'extra'"),
        ({"ships": {}}, "'ships' must be an object of ships by id"),
        ({"ships": {"a": {"class": "huge", "owner": "red"}}}, "ship 'a': unknown class 'huge'"),
        (
            {"ships": {"a": {"class": "heavy", "weapons": "light", "owner": "red"}}},
            "ship 'a': a heavy ship carries heavy weapons, not light",
        ),
        (
            {"ships": {"a": {"class": "light", "weapons": "heavy", "owner": "red"}}},
            "ship 'a': a light ship carries light weapons, not heavy",
        ),
        ({"ships": {"a": {"class": "heavy"}}}, "ship 'a': 'owner' must be a side's name"),
        (
            {"ships": {"a": {"class": "heavy", "owner": "r", "shields_lost": 17}}},
            "ship 'a': 'shields_lost' must be a whole number from 0 to 16, got 17",
        ),
        (
            {
                "ships": {
                    "a": {"class": "heavy", "owner": "r", "shields_lost": 16, "shields_up": True}
                }
            },
            "ship 'a': its shields cannot be up with no shield points left",
        ),
        ({"steps": [{"fire": "a"}]}, "step 1 (fire a): 'at' must name a ship"),
        ({"steps": [{"fire": "a", "at": "zz"}]}, "step 1: 'at' names no ship of 'ships': 'zz'"),
        ({"steps": [{"fire": "a", "at": "a"}]}, "a ship cannot fire at itself"),
        ({"steps": [{"jump": "a", "fire": "a"}]}, "step 1 must hold exactly one of"),
        ({"steps": [{"jump": "a", "to": "b"}]}, "step 1 (jump): unknown field(s) 'to'"),
        ({"cards": ["KS", "ZZ"]}, "cards[1]: 'ZZ' is not a card"),
        ({"cards": ["KS", 10]}, "cards[1]: a card must be a string"),
        ({"pile": 53}, "'pile' (cards in the draw pile at the start) must be 0 to 52"),
    ],
)
def test_malformed_scripts_are_refused_naming_the_field(
    change: dict[str, Any], message: str
) -> None:
    data = {**script([], []), **change}
    with pytest.raises(ScriptError) as caught:
        read(data)
    assert message in str(caught.value)


def test_the_script_as_checked_round_trips() -> None:
    data = json.loads(BENELLYN.read_bytes())
    checked = read(data).to_json()
    assert read(checked).to_json() == checked
    assert read(checked).resolve().to_json() == read(data).resolve().to_json()


def test_the_account_tells_every_card_and_the_ships_before_and_after() -> None:
    data = json.loads(BENELLYN.read_bytes())
    checked = read(data)
    told = account(checked, checked.resolve())
    text = "\n".join(told)
    assert "Benellyn raises shields: KS 10S, both black — up" in text
    assert "Kal Pol fires 8 cards at Benellyn (shields up, 16/16: only spades hit)" in text
    assert "a club, drawn again" in text and "Benellyn loses a propulsion cell (7 left)" in text
    assert "Benellyn fires 6 cards at Kal Pol" in text
    assert told[-1].startswith("  Kal Pol (red, heavy, heavy weapons): shields 14/16 up")
    for card in data["cards"]:
        assert card in text


# -- the command -------------------------------------------------------------------------------


def test_resolve_tells_the_example_and_prints_its_json() -> None:
    told = spacetable("resolve", BENELLYN)
    assert told.returncode == 0, told.stderr
    assert "step 11 (jump benellyn): Benellyn jumps out" in told.stdout
    as_json = spacetable("resolve", BENELLYN, "--json")
    assert as_json.returncode == 0, as_json.stderr
    ships = json.loads(as_json.stdout)["ships"]
    assert (ships["benellyn"]["propulsion"], ships["benellyn"]["on_table"]) == (4, False)


def test_a_bad_script_exits_2_with_one_line_naming_the_step(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    data = script([{"raise_shields": "a"}, FIRE], ["KS", "10S"])
    bad.write_text(json.dumps(data), encoding="utf-8")
    out = spacetable("resolve", bad)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        f"spacetable: error: {bad}: the cards ran out at step 2 (fire a at b): the script lists 2"
    ]


def test_render_draws_the_settled_script(tmp_path: Path) -> None:
    svg = tmp_path / "b.svg"
    out = spacetable("render", BENELLYN, "-o", svg)
    assert out.returncode == 0, out.stderr
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<svg") and 'data-step="11"' in text


def test_a_refusal_carries_its_phrase_for_the_readers_language() -> None:
    """What the referee page shows of a refusal is a phrase it writes in its reader's
    language: the same words as the message in English, in French on a French page."""
    french = translator("fr")
    cases = [
        (script([{"raise_shields": "a"}, FIRE], ["KS", "10S", "2H"]),
         "plus de cartes à l'étape 2 (tir de a sur b) : le script en liste 3"),
        (script([{"jump": "a"}, FIRE], NO_SPADES),
         "étape 2 (tir de a sur b)\u00a0: a a sauté hors de la bataille"),
        (script([], [], a={"class": "heavy", "owner": "red", "weapons_lost": 16,
                           "propulsion_lost": 8}, b={"class": "heavy", "owner": "blue"}),
         "vaisseau « a » : sans armes ni propulsion, c'est une épave"),
    ]  # fmt: skip
    for data, said in cases:
        with pytest.raises(ScriptError) as caught:
            read(data).resolve()
        assert caught.value.says is not None
        assert caught.value.says.text() == str(caught.value)
        assert caught.value.says.text(french) == said


def test_a_warning_comes_as_a_phrase_too() -> None:
    """The referee page's answer holds each warning as a phrase beside its English text."""
    data = script([{"raise_shields": "a"}, {"raise_shields": "b"}], ["KS", "QS", "KS", "2S"])
    out = result_with_log(read(data).resolve())
    assert out["warnings"][0].startswith("card 3 of the script, drawn at step 2")
    said = Phrase.from_json(out["warnings_says"][0])
    assert said.text() == out["warnings"][0]
    assert said.text(translator("fr")).startswith(
        "carte 3 du script, tirée à l'étape 2 (b lève ses boucliers)\u00a0: KS de nouveau"
    )


def test_a_result_with_warnings_crosses_to_another_process() -> None:
    """``resolve`` settles a script in a worker process: its result, warnings (phrases)
    included, comes back pickled, and a warning keeps its phrase."""
    data = script([{"raise_shields": "a"}, {"raise_shields": "b"}], ["KS", "QS", "KS", "2S"])
    result = read(data).resolve()
    back = pickle.loads(pickle.dumps(result))
    assert back.warnings == result.warnings
    assert [says(w) for w in back.warnings] == [says(w) for w in result.warnings]
    assert says(back.warnings[0]) is not None
