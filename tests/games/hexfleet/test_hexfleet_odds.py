"""The exact odds of a salvo and of raising shields, held to enumeration and simulation."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import combinations, permutations
from pathlib import Path

import pytest

from spacetable.games.hexfleet.cards import Card, Deck, ScriptedCards, full_deck, pair_or_colour
from spacetable.games.hexfleet.combat import fire
from spacetable.games.hexfleet.match import EndActivation, Fire, HexMatch, HexOptions, Move
from spacetable.games.hexfleet.odds import salvo_odds, shield_odds
from spacetable.games.hexfleet.ships import CLASSES, Ship, Weapons
from tests._cli import ROOT, spacetable

Outcome = tuple[int, int, int, int]


def ship(cls: str, weapons: str | None = None, **changes: object) -> Ship:
    """A ship of ``cls`` at full strength, then ``changes`` (systems left, shields up)."""
    klass = CLASSES[cls]
    size = Weapons(weapons) if weapons else klass.weapon_choices[0]
    made = Ship.new(f"{cls}-{next(_numbers)}", cls, cls, klass, size)
    return replace(made, **changes)  # type: ignore[arg-type]


_numbers = itertools.count(1)


HEAVY, LIGHT = ship("heavy"), ship("light")


def cards(text: str) -> list[Card]:
    """``"2S 3S 4H"`` as cards (ranks don't matter to a salvo: each suit's count does)."""
    return [Card(name[:-1], name[-1]) for name in text.split()]


def distinct_orders(pile: list[Card]) -> set[tuple[str, ...]]:
    """Every order of ``pile``'s suits (each equally likely: a suit order stands for the
    same number of card orders)."""
    return set(permutations([c.suit for c in pile]))


def enumerate_salvo(
    attacker: Ship, target: Ship, pile: list[Card], discards: list[Card]
) -> dict[Outcome, Fraction]:
    """The law of one salvo by the real ``combat.fire`` over every order of the pile
    followed by every order of the discards (what a reshuffle makes of them)."""
    law: Counter[Outcome] = Counter()
    pile_orders, discard_orders = distinct_orders(pile), distinct_orders(discards)
    for first in pile_orders:
        for then in discard_orders:
            drawn = [Card("2", s) for s in (*first, *then)]
            after, _ = fire(attacker, target, ScriptedCards(drawn))
            hits = sum(s in target.hit_by() for s in first[: attacker.salvo])
            hits += sum(s in target.hit_by() for s in then[: max(0, attacker.salvo - len(first))])
            law[
                hits,
                target.weapons_left - after.weapons_left,
                target.shields_left - after.shields_left,
                target.propulsion_left - after.propulsion_left,
            ] += 1
    total = len(pile_orders) * len(discard_orders)
    return {k: Fraction(v, total) for k, v in law.items()}


def exact(
    attacker: Ship, target: Ship, pile: list[Card], discards: list[Card]
) -> dict[Outcome, Fraction]:
    return salvo_odds(attacker, target, pile, discards).law()


# -- against enumeration -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attacker", "target"),
    [
        (LIGHT, HEAVY),  # 4 cards, shields down: every card hits
        (ship("light", weapons_left=7), ship("heavy", shields_up=True)),  # 3 cards, spades
        (ship("light", weapons_left=4), ship("medium", shields_up=True, shields_left=7)),
        (ship("light", weapons_left=2), ship("light", shields_up=True, shields_left=4)),
        (ship("light", weapons_left=1), ship("light", shields_up=True, shields_left=1)),
    ],
)
def test_a_light_salvo_matches_every_order_of_a_small_pile(attacker: Ship, target: Ship) -> None:
    pile = cards("2S 3S 4S 2H 3H 2D 3D 4D 2C 3C")
    discards = cards("5H 6H 7H 8H")
    assert exact(attacker, target, pile, discards) == enumerate_salvo(
        attacker, target, pile, discards
    )


def test_losses_are_capped_by_what_the_target_has_left() -> None:
    target = ship("light", weapons_left=1, shields_left=1, propulsion_left=2)
    pile = cards("2S 3S 4S 2D 3D 4D 2H 5C 6C")
    found = exact(LIGHT, target, pile, cards("5D 6D"))
    assert found == enumerate_salvo(LIGHT, target, pile, cards("5D 6D"))
    assert max(o[1] for o in found) == 1 and max(o[3] for o in found) == 2
    # Four hits always, but never more than 1 + 1 + 2 systems to lose.
    assert all(o[0] == 4 for o in found)
    assert salvo_odds(LIGHT, target, pile, cards("5D 6D")).p_wrecked > 0


@pytest.mark.parametrize("pile_size", [0, 1, 3])
def test_a_pile_that_runs_out_mid_salvo_goes_on_in_the_shuffled_discards(pile_size: int) -> None:
    heavy_left_4 = ship("heavy", weapons_left=12)  # 4 cards
    target = ship("heavy", shields_up=True)  # spades hit
    pile = cards("2S 2H 2C")[:pile_size]
    discards = cards("3S 4S 3H 4H 3D 4D 3C 5D 6D")
    assert exact(heavy_left_4, target, pile, discards) == enumerate_salvo(
        heavy_left_4, target, pile, discards
    )


def test_the_damage_cards_run_into_the_discards_but_not_into_the_salvos_own_cards() -> None:
    # Four spades fire and empty the pile: the damage comes from the shuffled discards
    # (hearts, a club drawn again), never from the spades just turned.
    pile = cards("2S 3S 4S 5S")
    found = salvo_odds(LIGHT, ship("heavy"), pile, cards("2H 3H 4H 5H 6C"))
    assert found.law() == {(4, 0, 4, 0): Fraction(1)}


def test_a_full_heavy_salvo_matches_enumeration() -> None:
    target = ship("heavy", shields_up=True, shields_left=9)  # hearts and spades hit
    pile = cards("2S 3S 2H 3H 2D 3D 4D 2C 3C 4C")
    discards = cards("5S 6S 7S 8S")
    assert exact(HEAVY, target, pile, discards) == enumerate_salvo(HEAVY, target, pile, discards)


# -- the charts: every salvo size and shield threshold -------------------------------------


@pytest.mark.parametrize(
    ("cls", "weapons_left", "size"),
    [
        ("heavy", 16, 8), ("heavy", 12, 6), ("heavy", 8, 4), ("heavy", 4, 2), ("heavy", 3, 1),
        ("light", 8, 4), ("light", 6, 3), ("light", 4, 2), ("light", 2, 1), ("light", 1, 1),
    ],
)  # fmt: skip
def test_every_salvo_size_turns_its_cards(cls: str, weapons_left: int, size: int) -> None:
    odds = salvo_odds(ship(cls, weapons_left=weapons_left), HEAVY, full_deck())
    assert odds.salvo == size
    # Shields down: every card hits, so the hits are the salvo's size, surely.
    assert odds.hits()[size] == 1 and len(odds.hits()) == size + 1


@pytest.mark.parametrize(
    ("shields_left", "hitting", "p_one_card_hits"),
    [(16, "S", Fraction(1, 4)), (13, "S", Fraction(1, 4)), (12, "SH", Fraction(1, 2)),
     (9, "SH", Fraction(1, 2)), (8, "SHD", Fraction(3, 4)), (5, "SHD", Fraction(3, 4)),
     (4, "SHDC", Fraction(1)), (1, "SHDC", Fraction(1))],
)  # fmt: skip
def test_shields_up_let_through_the_suits_of_their_threshold(
    shields_left: int, hitting: str, p_one_card_hits: Fraction
) -> None:
    one_card = ship("heavy", weapons_left=1)
    target = ship("heavy", shields_up=True, shields_left=shields_left)
    odds = salvo_odds(one_card, target, full_deck())
    assert odds.to_json()["hitting"] == hitting
    assert odds.p_hit == p_one_card_hits
    down = salvo_odds(one_card, replace(target, shields_up=False), full_deck())
    assert down.p_hit == 1


# -- against a large simulation with the real deck -----------------------------------------


def test_the_odds_match_a_seeded_simulation_of_the_real_deck() -> None:
    rng = random.Random(12)
    seen = cards("2S 3S 4S 5S 6S 7S 8S 2H 3H 4H 2C 3C 4C 5C 6C 7C 8C 9C 10C JC")
    pile = [c for c in full_deck() if c not in seen]
    target = ship("heavy", shields_up=True, shields_left=10, propulsion_left=5)
    odds = salvo_odds(HEAVY, target, pile, seen)
    runs = 20_000
    hits: Counter[int] = Counter()
    below_jump = lost_shields = 0
    for _ in range(runs):
        deck = Deck(rng, pile=rng.sample(pile, len(pile)), discards=list(seen))
        after, events = fire(HEAVY, target, deck)
        hits[events[0].hits] += 1  # type: ignore[attr-defined]
        below_jump += not after.can_jump
        lost_shields += target.shields_left - after.shields_left

    def close(p: Fraction, count: float) -> bool:
        se = math.sqrt(float(p) * (1 - float(p)) / runs) or 1 / runs
        return abs(count / runs - float(p)) <= 4 * se

    assert all(close(p, hits[k]) for k, p in enumerate(odds.hits()))
    assert close(odds.p_below_jump, below_jump)
    expected_shields = sum(k * p for k, p in enumerate(odds.lost("shields")))
    assert abs(lost_shields / runs - float(expected_shields)) < 0.05


def test_a_nearly_empty_pile_matches_a_simulation_that_reshuffles() -> None:
    rng = random.Random(3)
    pile = cards("2S 2H 2D")
    discards = [c for c in full_deck() if c not in pile]
    target = ship("heavy")
    odds = salvo_odds(HEAVY, target, pile, discards)
    runs, damage = 20_000, 0
    for _ in range(runs):
        deck = Deck(rng, pile=rng.sample(pile, 3), discards=list(discards))
        after, _ = fire(HEAVY, target, deck)
        damage += target.strength() - after.strength()
        assert deck.reshuffles == 1
    assert odds.hits() == [0] * 8 + [1]
    assert abs(damage / runs - float(odds.expected_damage)) < 0.05


# -- shields and hails ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_shield_odds_match_every_pair(seed: int) -> None:
    pile = random.Random(seed).sample(full_deck(), 5 + 9 * seed)
    pairs = list(combinations(pile, 2))
    good = sum(pair_or_colour(a, b) for a, b in pairs)
    assert shield_odds(pile) == Fraction(good, len(pairs))


def test_shield_odds_with_one_card_left_take_the_second_from_the_discards() -> None:
    assert shield_odds(cards("KH"), cards("2S 3C KS QD")) == Fraction(2, 4)
    assert shield_odds([], cards("2S 3C")) == 1
    assert shield_odds(full_deck()) == Fraction(9, 17)  # 24 + 1 of the other 51 cards: 27/51


# -- the match: what the active ship aims at -----------------------------------------------


def test_a_target_out_of_range_is_listed_with_the_reason_and_no_odds() -> None:
    match = HexMatch(HexOptions(scenario="duel"), seed=1)
    (target,) = match.view("red")["aim"]
    assert target["ship"] == "2" and target["distance"] == 15
    assert (target["in_range"], target["in_arc"], target["odds"]) == (False, True, None)
    assert target["problem"] == "Kal Pol is 15 hexes away; weapons reach 12"
    assert target["raise_shields"] == target["hail"] == pytest.approx(9 / 17)


def test_a_target_in_range_gets_the_odds_until_the_salvo_is_spent() -> None:
    match = HexMatch(HexOptions(scenario="duel"), seed=1)
    for _ in range(40):
        ship = match.active
        assert ship is not None
        (target,) = match.view(ship.owner)["aim"]
        if target["problem"] is None:
            odds = target["odds"]
            assert odds["p_hit"] == 1.0  # shields down: all eight cards hit
            assert odds["summary"].startswith("100% to hit at least once; expected 8.0 damage;")
            assert odds["summary"].endswith("to knock out propulsion below jump")
            match.apply(Fire(ship.owner, ship.id, target["ship"], t=0))
            (after,) = match.view(ship.owner)["aim"]
            assert after["odds"] is None and "once an activation" in after["problem"]
            return
        match.apply(Move(ship.owner, ship.id, "F" * min(ship.propulsion_left, 4), t=0))
        match.apply(EndActivation(ship.owner, ship.id, t=0))
    pytest.fail("the heavies never came within range")


def test_no_ship_aims_once_the_battle_is_over() -> None:
    match = HexMatch(HexOptions(scenario="duel", turn_limit=1), seed=1)
    while match.result() is None:
        ship = match.active
        assert ship is not None
        match.apply(EndActivation(ship.owner, ship.id, t=0))
    assert match.view("red")["aim"] == []


# -- spacetable odds -----------------------------------------------------------------------


def test_the_odds_command_prints_the_table() -> None:
    done = spacetable(
        "odds", "--attacker", "heavy", "--target", "heavy", "--target-shields-up",
        "--target-lost", "shields=1,propulsion=2", "--attacker-lost", "weapons=3",
        "--seen", "10S,KH,2C",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Salvo: 6 cards from 49 left to draw (3 seen since the shuffle)" in out
    assert "Hitting suits: spades" in out
    # Spades only, 13 - 1 of them among 49 cards: no hit is C(37, 6) / C(49, 6).
    no_hit = Fraction(math.comb(37, 6), math.comb(49, 6))
    assert f"   0   {float(no_hit):7.2%}" in out.splitlines()
    assert out.splitlines()[-1] == (
        f"{float(1 - no_hit):.0%} to hit at least once; expected 1.5 damage; "
        "<1% to knock out propulsion below jump"
    )
    assert "Raise shields or hail:" in out


def test_the_odds_command_prints_json() -> None:
    done = spacetable("odds", "--attacker", "light", "--target", "medium", "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["odds"]["salvo"] == 4 and found["pile"] == 52
    assert found["odds"]["hits"] == [0, 0, 0, 0, 1.0]
    assert found["raise_shields"] == pytest.approx(9 / 17)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seen", "10S,ZZ"], "--seen: 'ZZ' is not a card"),
        (["--seen", "10S,10s"], "--seen: 10S is listed twice"),
        (["--attacker", "light", "--attacker-weapons", "heavy"], "--attacker-weapons: a light"),
        (["--target", "huge"], "--target: unknown class 'huge'"),
        (["--target-lost", "shields=17"], "--target-lost: a heavy ship has 16 shields"),
        (["--target-lost", "hull=1"], "--target-lost: 'hull=1' is not SYSTEM=N"),
        (["--attacker-lost", "weapons=16"], "--attacker-lost: with every weapon system lost"),
        (["--target-lost", "shields=16", "--target-shields-up"], "--target-shields-up"),
    ],
)
def test_the_odds_command_refuses_bad_input_in_one_line(args: list[str], message: str) -> None:
    done = spacetable("odds", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr


SKIRMISH = ROOT / "examples" / "hexfleet-skirmish.json"


def skirmish(tmp_path: Path, steps: int, **changes: object) -> Path:
    """The example skirmish script cut after its first ``steps`` steps."""
    script = json.loads(SKIRMISH.read_text()) | changes
    script["steps"] = script["steps"][:steps]
    path = tmp_path / f"skirmish-{steps}.json"
    path.write_text(json.dumps(script))
    return path


def test_odds_after_a_script_count_its_cards_as_seen(tmp_path: Path) -> None:
    # Three steps turn 21 cards: shields (2), a hail (2), Vorn's salvo and its damage.
    done = spacetable("odds", skirmish(tmp_path, 3), "--fire", "swift", "--at", "vorn", "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["pile"] == 52 - 21
    seen = [Card(c[:-1], c[-1]) for c in json.loads(SKIRMISH.read_text())["cards"][:21]]
    vorn = ship("medium", "heavy", shields_up=True, shields_left=9)
    expected = salvo_odds(ship("light"), vorn, [c for c in full_deck() if c not in seen], seen)
    assert found["odds"]["hits"] == [float(p) for p in expected.hits()]
    assert found["odds"]["hitting"] == "SH"


def test_odds_after_a_script_that_reshuffled_know_only_the_new_piles_cards(
    tmp_path: Path,
) -> None:
    # Step 7 (Vorn's salvo) runs the pile out with 7 of its cards in play: the new pile is
    # the other 45, and 5 more come out of it.
    done = spacetable("odds", skirmish(tmp_path, 7), "--fire", "swift", "--at", "vorn")
    assert done.returncode == 0, done.stderr
    assert "Swift fires at Vorn" in done.stdout
    assert "Salvo: 1 card from 40 left to draw (12 seen since the shuffle)" in done.stdout


@pytest.mark.parametrize(
    ("steps", "args", "message"),
    [
        (8, ["--fire", "vorn", "--at", "swift"], "--at: Swift is not on the table after"),
        (3, ["--fire", "vorn", "--at", "nobody"], "--at: no ship 'nobody' in the script"),
        (3, ["--fire", "vorn"], "--fire and --at: with a script, name"),
        (3, ["--fire", "vorn", "--at", "swift", "--seen", "2S"], "--seen: not with a script"),
        (3, ["--fire", "vorn", "--at", "vorn"], "--at: a ship cannot fire at itself"),
    ],
)
def test_odds_after_a_script_refuse_what_it_cannot_tell(
    tmp_path: Path, steps: int, args: list[str], message: str
) -> None:
    done = spacetable("odds", skirmish(tmp_path, steps), *args)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr


def test_a_part_used_deck_never_reshuffled_leaves_the_pile_unknown(tmp_path: Path) -> None:
    path = skirmish(tmp_path, 3, pile=40)
    done = spacetable("odds", path, "--fire", "swift", "--at", "vorn")
    assert done.returncode == 2
    assert "started with 40 cards in the pile and was never reshuffled" in done.stderr
