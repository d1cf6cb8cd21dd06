"""Hex fleet's cards and charts (DESIGN section 6): every chart boundary at 25 / 50 / 75 %
for each class's shields and both weapon sizes, shields and hails by colour or pair, clubs
drawn again, and the deck reshuffled from its discards when the pile runs out."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from spacetable.games.hexfleet.cards import (
    Card,
    CardsRanOut,
    Deck,
    ScriptedCards,
    card_places,
    card_shown,
    cards_shown,
    full_deck,
    pair_or_colour,
    parse_card,
)
from spacetable.games.hexfleet.combat import CombatRefused, fire, hail, raise_shields
from spacetable.games.hexfleet.events import DamageCard, Fired, Reshuffled
from spacetable.games.hexfleet.ships import (
    CLASSES,
    Ship,
    Weapons,
    can_jump,
    cards_to_fire,
    hitting_suits,
)
from spacetable.i18n import ENGLISH, translator
from spacetable.i18n.phrase import phrase


def cards(*names: str) -> ScriptedCards:
    return ScriptedCards([parse_card(n) for n in names])


def ship(
    cls: str = "heavy", weapons: Weapons | None = None, ident: str = "", **changes: object
) -> Ship:
    klass = CLASSES[cls]
    made = Ship.new(ident or cls, cls.title(), "red", klass, weapons or klass.weapon_choices[0])
    return replace(made, **changes)  # type: ignore[arg-type]


# -- the charts --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapons", "total", "expected"),
    [
        # heavy weapons, 16 systems: 0 lost 8 cards; 1-4 lost (up to 25%) 6; 5-8 (up to
        # 50%) 4; 9-12 (up to 75%) 2; 13-15 one; all 16 lost, none.
        (Weapons.HEAVY, 16, {0: 8, 1: 6, 4: 6, 5: 4, 8: 4, 9: 2, 12: 2, 13: 1, 15: 1, 16: 0}),
        # light weapons, 8 systems: 4 cards; 1-2 lost 3; 3-4 lost 2; 5-6 lost 1; 7 lost 1.
        (Weapons.LIGHT, 8, {0: 4, 1: 3, 2: 3, 3: 2, 4: 2, 5: 1, 6: 1, 7: 1, 8: 0}),
    ],
)
def test_cards_to_fire_at_every_boundary(
    weapons: Weapons, total: int, expected: dict[int, int]
) -> None:
    assert {lost: cards_to_fire(weapons, lost, total) for lost in expected} == expected


def test_a_medium_ship_fires_by_its_weapon_size() -> None:
    assert ship("medium", Weapons.HEAVY).salvo == 8
    assert ship("medium", Weapons.LIGHT).salvo == 4
    assert ship("medium", Weapons.HEAVY, weapons_left=12).salvo == 6
    assert ship("light", weapons_left=6).salvo == 3


@pytest.mark.parametrize(
    ("total", "thresholds"),
    [
        # points left -> suits that hit: over 75% spades; over 50% +hearts; over 25%
        # +diamonds; above 0 every suit.
        (16, {16: "S", 13: "S", 12: "HS", 9: "HS", 8: "DHS", 5: "DHS", 4: "CDHS", 1: "CDHS"}),
        (12, {12: "S", 10: "S", 9: "HS", 7: "HS", 6: "DHS", 4: "DHS", 3: "CDHS", 1: "CDHS"}),
        (8, {8: "S", 7: "S", 6: "HS", 5: "HS", 4: "DHS", 3: "DHS", 2: "CDHS", 1: "CDHS"}),
    ],
)
def test_hitting_suits_at_every_shield_boundary(total: int, thresholds: dict[int, str]) -> None:
    for left, suits in thresholds.items():
        assert hitting_suits(True, left, total) == frozenset(suits), (left, total)
        assert hitting_suits(False, left, total) == frozenset("SHDC")
    assert hitting_suits(True, 0, total) == frozenset("SHDC")


def test_jumping_needs_at_least_half_the_propulsion_cells() -> None:
    for total in (8, 12, 16):
        assert can_jump(total // 2, total)
        assert not can_jump(total // 2 - 1, total)


# -- shields and hails ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "matched"),
    [("KS", "10S", True), ("2H", "9D", True), ("7C", "7H", True), ("AS", "QH", False),
     ("3D", "3C", True), ("JC", "JS", True), ("4H", "4C", True), ("5S", "6D", False)],
)  # fmt: skip
def test_two_cards_match_by_colour_or_rank(first: str, second: str, matched: bool) -> None:
    assert pair_or_colour(parse_card(first), parse_card(second)) is matched
    raised, events = raise_shields(ship(), cards(first, second))
    assert raised.shields_up is matched
    assert events[0].to_json()["success"] is matched
    hailed = hail(ship(), ship("light"), cards(first, second))
    assert hailed[0].to_json()["success"] is matched


def test_shields_cannot_be_raised_twice_or_with_no_points() -> None:
    with pytest.raises(CombatRefused, match="already up"):
        raise_shields(ship(shields_up=True), cards("KS", "QS"))
    with pytest.raises(CombatRefused, match="no shield points"):
        raise_shields(ship(shields_left=0), cards("KS", "QS"))


# -- a salvo -----------------------------------------------------------------------------------


def test_every_fire_card_is_turned_before_the_damage_cards_and_clubs_are_drawn_again() -> None:
    target = ship(ident="target", shields_up=True)  # 16/16: only spades hit
    source = cards("AS", "2H", "3D", "4C", "5S", "6H", "7D", "8C", "9C", "10C", "JD", "QS")
    hit, events = fire(ship(), target, source)
    fired = events[0]
    assert isinstance(fired, Fired) and fired.hits == 2
    assert fired.cards == ("AS", "2H", "3D", "4C", "5S", "6H", "7D", "8C")
    damage = [(e.card, e.system) for e in events[1:] if isinstance(e, DamageCard)]
    assert damage == [("9C", None), ("10C", None), ("JD", "weapons"), ("QS", "propulsion")]
    assert (hit.weapons_left, hit.propulsion_left, hit.shields_left) == (15, 7, 16)


def test_the_shield_state_is_read_before_the_cards_are_turned() -> None:
    # 13/16 up: spades only. The first hit's damage is a heart (12/16, where hearts would
    # hit): the salvo's other heart still does not hit.
    target = ship(ident="target", shields_up=True, shields_left=13)
    hit, events = fire(ship(), target, cards("AS", "2H", *["3D"] * 6, "KH"))
    assert isinstance(events[0], Fired) and events[0].hits == 1
    assert hit.shields_left == 12


def test_damage_never_goes_below_zero_and_the_last_shield_point_drops_the_shields() -> None:
    target = ship("light", shields_up=True, shields_left=1, weapons_left=1)
    hit, _ = fire(ship(), target, cards(*["2C"] * 8, "KH", "AD", "2D", "3D", *["4H"] * 4))
    assert (hit.shields_left, hit.shields_up, hit.weapons_left) == (0, False, 0)


def test_no_salvo_with_every_weapon_lost() -> None:
    with pytest.raises(CombatRefused, match="no weapons left"):
        fire(ship(weapons_left=0), ship("light"), cards("AS"))


def test_cards_running_out_mid_salvo_raise() -> None:
    with pytest.raises(CardsRanOut):
        fire(ship(), ship("light"), cards("AS", "2S"))


# -- the deck ----------------------------------------------------------------------------------


def test_a_seeded_deck_deals_all_52_then_reshuffles_only_the_discards() -> None:
    deck = Deck.shuffled(random.Random(7))
    again = Deck.shuffled(random.Random(7))
    first = [deck.draw() for _ in range(52)]
    assert sorted(first) == sorted(full_deck()) and first == [again.draw() for _ in range(52)]
    in_play = first[-4:]
    deck.discard(first[:-4])
    fresh = [deck.draw() for _ in range(48)]
    assert deck.reshuffles == 1
    assert sorted(fresh) == sorted(first[:-4]) and not set(fresh) & set(in_play)
    deck.discard([*in_play, *fresh])
    assert deck.draw() in full_deck() and deck.reshuffles == 2


def test_a_deck_with_every_card_in_play_cannot_deal() -> None:
    deck = Deck.shuffled(random.Random(1))
    for _ in range(52):
        deck.draw()
    with pytest.raises(CardsRanOut):
        deck.draw()


def test_a_reshuffle_in_mid_salvo_is_told_and_keeps_the_salvo_out() -> None:
    deck = Deck.shuffled(random.Random(3))
    deck.discard(deck.pile[:-4])
    deck.pile = deck.pile[-4:]
    salvo_start = list(reversed(deck.pile))
    _, events = fire(ship(), ship("light"), deck)  # shields down: 8 hits
    told = [e for e in events if isinstance(e, Reshuffled)]
    assert told == [Reshuffled(48)]
    fired = next(e for e in events if isinstance(e, Fired))
    assert [parse_card(c) for c in fired.cards[:4]] == salvo_start
    assert len(set(fired.cards)) == 8


def test_cards_are_written_as_rank_and_suit() -> None:
    assert str(Card("10", "S")) == "10S" and parse_card("kh") == Card("K", "H")
    assert parse_card("1D") == Card("A", "D")
    for bad in ("ZZ", "11S", "", "10", "S"):
        with pytest.raises(ValueError, match="is not a card"):
            parse_card(bad)
    assert Counter(c.suit for c in full_deck()) == {"S": 13, "H": 13, "D": 13, "C": 13}


def test_cards_are_shown_as_the_readers_cards_print_them() -> None:
    # As the pages show them (web/js/games/hexfleet/cardnames.js): roi, dame, valet in French.
    french = translator("fr")
    assert [card_shown(c, ENGLISH) for c in ("KH", "QS", "JD", "AC", "10H")] == [
        "K♥", "Q♠", "J♦", "A♣", "10♥"]  # fmt: skip
    assert [card_shown(c, french) for c in ("KH", "QS", "JD", "AC", "10H")] == [
        "R♥", "D♠", "V♦", "A♣", "10♥"]  # fmt: skip
    assert cards_shown("7H 7C KS", french) == "7♥ 7♣ R♠"
    assert card_shown("a salvo", french) == "a salvo"  # not a card: as it is
    # A phrase's card places, at any depth, written the reader's way; other places kept.
    said = phrase("{what}: {card}", what=phrase("{cards} and {n}", cards="QS 2D", n=2), card="KH")
    assert said.text(french, card_places(french)) == "D♠ 2♦ and 2: R♥"
    assert said.text(french) == "QS 2D and 2: KH"
