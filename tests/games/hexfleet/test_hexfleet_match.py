"""The hex fleet match machine: the chit cup (each ship at most once a turn, the blank ends
the turn), the deck reshuffled over a long battle, jump limits and the return on the chosen
turn, wrecks, every victory rule, option errors, and determinism — driven by seeded random
legal actions over many battles and by battles set up to the point under test."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from spacetable.core.match import IllegalAction, InvalidOptions
from spacetable.games.hexfleet.cards import parse_card
from spacetable.games.hexfleet.combat import raise_shields_problem
from spacetable.games.hexfleet.events import (
    BattleOver,
    ChitDrawn,
    Fired,
    Jumped,
    Reshuffled,
    Returned,
    TurnBegan,
    Wrecked,
)
from spacetable.games.hexfleet.fleets import ShipSpec
from spacetable.games.hexfleet.hexes import Board, distance
from spacetable.games.hexfleet.match import (
    EndActivation,
    Fire,
    Hail,
    HexAction,
    HexMatch,
    HexOptions,
    Jump,
    Move,
    RaiseShields,
    Return,
)
from spacetable.games.hexfleet.movement import reachable
from spacetable.games.hexfleet.narrate import narrate, ship_log
from spacetable.games.hexfleet.ships import Weapons


class Clock:
    """Action times that only go forward."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        self.t += 1.0
        return self.t


def legal_actions(match: HexMatch, t: float) -> list[HexAction]:
    """Every kind of action the active ship may take now (one move per reachable end)."""
    activation, ship = match.activation, match.active
    assert activation is not None and ship is not None
    player = ship.owner
    if activation.placing:
        free = [h for h in match.board if h not in match.blocked()]
        return [Return(player, ship.id, h.q, h.r, f, t) for h in free[:40] for f in (0, 3)]
    actions: list[HexAction] = [EndActivation(player, ship.id, t)]
    assert ship.at is not None
    ends = reachable(ship.at, ship.facing, activation.movement, match.board, match.blocked(ship.id))
    actions += [Move(player, ship.id, steps, t) for steps in ends.values()]
    if "shields" not in activation.done and raise_shields_problem(ship) is None:
        actions.append(RaiseShields(player, ship.id, t))
    if "fire" not in activation.done:
        actions += [
            Fire(player, ship.id, other.id, t)
            for other in match.ships.values()
            if match.target_problem(ship, other.id) is None
        ]
    if "moved" not in activation.done and ship.can_jump:
        for back in (0, match.turn + 1, match.turn + 2):
            actions.append(Jump(player, ship.id, back, t))
    return [a for a in actions if match.check(a) is None]


def play_randomly(match: HexMatch, rng: random.Random, most: int = 4000) -> None:
    """Seeded random legal actions until the battle ends; fire is favoured so battles end
    by fighting too."""
    clock = Clock()
    for _ in range(most):
        if match.is_over:
            return
        actions = legal_actions(match, clock())
        fires = [a for a in actions if isinstance(a, Fire)]
        jumps = [a for a in actions if isinstance(a, Jump)]
        if fires and rng.random() < 0.8:
            match.apply(rng.choice(fires))
        elif jumps and rng.random() < 0.03:
            match.apply(rng.choice(jumps))
        else:
            match.apply(rng.choice(actions))
    raise AssertionError("the battle did not end")


def options(seed: int) -> HexOptions:
    sides = 2 + seed % 3
    players = ("red", "blue", "green", "purple")[:sides]
    scenario = "skirmish" if seed % 2 else "duel"
    return HexOptions(players, scenario, turn_limit=6 + seed % 5)


SEEDS = range(12)


@pytest.fixture(scope="module")
def battles() -> list[HexMatch]:
    played = []
    for seed in SEEDS:
        match = HexMatch(options(seed), seed)
        play_randomly(match, random.Random(seed))
        played.append(match)
    return played


def test_every_battle_ends_with_a_result(battles: list[HexMatch]) -> None:
    reasons = Counter[str]()
    for match in battles:
        result = match.result()
        assert result is not None and isinstance(match.events[-1], BattleOver)
        reasons[result.reason] += 1
    assert reasons["turn-limit"]


def test_each_ship_is_activated_at_most_once_a_turn_and_the_blank_ends_it(
    battles: list[HexMatch],
) -> None:
    for match in battles:
        turn, drawn, cup = 0, Counter[str](), set[str]()
        ended = True
        for event in match.events:
            if isinstance(event, TurnBegan):
                assert ended, "a turn began before the blank ended the last"
                assert event.turn == turn + 1
                turn, drawn, cup, ended = event.turn, Counter(), set(event.cup), False
            elif isinstance(event, ChitDrawn):
                assert event.turn == turn and not ended
                if event.ship is None:
                    ended = True
                else:
                    assert event.ship in cup
                    drawn[event.ship] += 1
                    assert drawn[event.ship] == 1, f"ship {event.ship} twice in turn {turn}"


def test_the_cup_holds_a_chit_for_every_ship_on_the_table_and_the_blank() -> None:
    match = HexMatch(HexOptions(("a", "b", "c"), "skirmish"), seed=5)
    began = match.events[0]
    assert isinstance(began, TurnBegan) and sorted(began.cup) == sorted(match.ships)
    assert len(match.cup) == len(match.ships)  # one chit out: the blank and the rest in


def test_the_deck_is_reshuffled_in_a_long_battle_and_no_card_is_lost(
    battles: list[HexMatch],
) -> None:
    assert any(isinstance(e, Reshuffled) for m in battles for e in m.events)
    for match in battles:
        deck = match.deck
        assert sorted(map(str, deck.pile + deck.discards)) == sorted(
            str(parse_card(r + s)) for s in "SHDC" for r in
            ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        )  # fmt: skip
        turned = sum(len(e.cards) for e in match.events if isinstance(e, Fired))
        assert turned <= len(deck.discards) + 52 * deck.reshuffles


def test_a_stored_battle_replays_to_the_same_events_and_result(battles: list[HexMatch]) -> None:
    for match in battles[:8]:
        again = HexMatch.from_record(match.record())
        assert [e.to_json() for e in again.events] == [e.to_json() for e in match.events]
        assert again.result() == match.result()


def test_the_same_seed_and_actions_give_the_same_battle() -> None:
    first = HexMatch(options(3), 11)
    play_randomly(first, random.Random(4))
    second = HexMatch(options(3), 11)
    play_randomly(second, random.Random(4))
    assert first.record() == second.record()
    assert [e.to_json() for e in first.events] == [e.to_json() for e in second.events]


# -- set-up battles --------------------------------------------------------------------------


def duel(seed: int = 1, turn_limit: int = 20) -> HexMatch:
    return HexMatch(HexOptions(("red", "blue"), "duel", turn_limit=turn_limit), seed)


def active(match: HexMatch) -> tuple[str, str]:
    ship = match.active
    assert ship is not None
    return ship.owner, ship.id


def test_exactly_half_the_propulsion_cells_may_jump_one_fewer_may_not() -> None:
    match = duel()
    player, ship_id = active(match)
    match.ships[ship_id] = replace(match.ships[ship_id], propulsion_left=3)
    with pytest.raises(IllegalAction, match="3 of 8 propulsion cells: it needs half"):
        match.apply(Jump(player, ship_id, 0, 1))
    match.ships[ship_id] = replace(match.ships[ship_id], propulsion_left=4)
    match.apply(Jump(player, ship_id, 0, 1))
    assert match.ships[ship_id].status == "gone"


def test_a_ship_that_moved_may_not_jump() -> None:
    match = duel()
    player, ship_id = active(match)
    match.apply(Move(player, ship_id, "F", 1))
    with pytest.raises(IllegalAction, match="moves or jumps, not both"):
        match.apply(Jump(player, ship_id, 0, 2))


def close_in(match: HexMatch) -> tuple[str, str, str]:
    """The active ship's owner and id, and its enemy's id, the enemy moved two hexes away
    (south-east twice), shields down."""
    player, ship_id = active(match)
    enemy = next(s for s in match.ships.values() if s.id != ship_id)
    near = match.ships[ship_id].at
    assert near is not None
    match.ships[enemy.id] = replace(enemy, at=near.neighbour(2).neighbour(2))
    return player, ship_id, enemy.id


def test_one_fire_one_shields_try_and_one_hail_an_activation() -> None:
    match = duel()
    player, ship_id, enemy = close_in(match)
    rig(match, "AS", "2H", "3C", "4D", *["5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH"],
        *["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D"])  # fmt: skip
    match.apply(RaiseShields(player, ship_id, 1))  # AS 2H: no match
    assert not match.ships[ship_id].shields_up
    with pytest.raises(IllegalAction, match="may try to raise its shields once an activation"):
        match.apply(RaiseShields(player, ship_id, 2))
    match.apply(Hail(player, ship_id, enemy, 3))
    with pytest.raises(IllegalAction, match="may hail once an activation"):
        match.apply(Hail(player, ship_id, enemy, 4))
    match.apply(Fire(player, ship_id, enemy, 5))
    with pytest.raises(IllegalAction, match="may fire once an activation"):
        match.apply(Fire(player, ship_id, enemy, 6))
    match.apply(Move(player, ship_id, "L", 7))  # and it may still move after firing


def test_a_hail_changes_nothing_but_the_log() -> None:
    match = duel()
    player, ship_id, enemy = close_in(match)
    before = dict(match.ships)
    rig(match, "KS", "QS")
    events = match.apply(Hail(player, ship_id, enemy, 1))
    assert [e.to_json()["type"] for e in events] == ["hail"]
    assert events[0].to_json()["success"] is True and match.ships == before


def test_moves_may_not_enter_a_ships_hex_or_leave_the_board() -> None:
    match = duel()
    player, ship_id, _ = close_in(match)
    ship = match.ships[ship_id]
    match.ships[ship_id] = replace(ship, facing=2)  # facing the enemy, two hexes off
    with pytest.raises(IllegalAction, match=r"step 2 \(F\) would enter .*, where a ship is"):
        match.apply(Move(player, ship_id, "FF", 1))
    match.apply(Move(player, ship_id, "F", 1))
    assert match.activation is not None and match.activation.movement == 7
    match.ships[ship_id] = replace(match.ships[ship_id], at=Board.hex_at(0, 3), facing=5)
    with pytest.raises(IllegalAction, match=r"step 1 \(F\) would leave the board"):
        match.apply(Move(player, ship_id, "F", 2))
    with pytest.raises(IllegalAction, match="8 steps cost 8 hexes of movement; 7 left"):
        match.apply(Move(player, ship_id, "LLLLLLLL", 3))


def test_a_ship_between_does_not_block_fire_and_range_is_twelve_hexes() -> None:
    fleets = (
        (ShipSpec("heavy", Weapons.HEAVY, "A"),),
        (ShipSpec("heavy", Weapons.HEAVY, "B"), ShipSpec("light", Weapons.LIGHT, "C")),
    )
    match = HexMatch(HexOptions(("a", "b"), "custom", fleets=fleets, board=(30, 10)), seed=1)
    a, b, c = (match.ships[i] for i in ("1", "2", "3"))
    start = Board.hex_at(2, 4)
    match.ships["1"] = replace(a, at=start)
    match.ships["3"] = replace(c, at=Board.hex_at(3, 4))  # right in the line
    match.ships["2"] = replace(b, at=Board.hex_at(14, 4))
    assert distance(start, Board.hex_at(14, 4)) == 12
    assert match.target_problem(match.ships["1"], "2") is None
    match.ships["2"] = replace(b, at=Board.hex_at(15, 4))
    assert match.target_problem(match.ships["1"], "2") == ("B is 13 hexes away; weapons reach 12")


@pytest.mark.parametrize("seed", [2, 3, 4, 5, 6])
def test_a_jumped_ship_comes_back_on_its_turn_and_is_placed_on_a_free_hex(seed: int) -> None:
    match = duel(seed=seed)
    player, ship_id = active(match)
    back = match.turn + 2
    match.apply(Jump(player, ship_id, back, 1))
    clock = Clock()
    clock.t = 1
    while match.turn < back or match.activation is None or match.activation.ship != ship_id:
        owner, other = active(match)
        assert other != ship_id
        match.apply(EndActivation(owner, other, clock()))
    cups = {e.turn: e.cup for e in match.events if isinstance(e, TurnBegan)}
    # its chit is in the cup from its turn until it comes out (the blank may beat it)
    assert ship_id not in cups[back - 1]
    assert all(ship_id in cup for turn, cup in cups.items() if turn >= back)
    assert match.activation is not None and match.activation.placing
    taken = next(s.at for s in match.ships.values() if s.at is not None)
    assert taken is not None
    with pytest.raises(IllegalAction, match="put it on a free hex first"):
        match.apply(EndActivation(player, ship_id, clock()))
    with pytest.raises(IllegalAction, match="holds a ship"):
        match.apply(Return(player, ship_id, taken.q, taken.r, 0, clock()))
    with pytest.raises(IllegalAction, match="not on the board"):
        match.apply(Return(player, ship_id, -5, -5, 0, clock()))
    free = next(h for h in match.board if h not in match.blocked())
    match.apply(Return(player, ship_id, free.q, free.r, 2, clock()))
    returned = match.ships[ship_id]
    assert (returned.at, returned.facing, returned.status) == (free, 2, "table")
    match.apply(Move(player, ship_id, "R", clock()))  # and it acts at once


def rig(match: HexMatch, *cards: str) -> None:
    """Put ``cards`` on top of the draw pile, the first to be drawn first."""
    chosen = [parse_card(c) for c in cards]
    rest = [c for c in match.deck.pile + match.deck.discards if c not in chosen]
    match.deck.pile = rest + list(reversed(chosen))
    match.deck.discards = []


def test_no_weapons_and_no_propulsion_is_a_wreck_and_the_last_side_wins() -> None:
    match = duel()
    player, ship_id = active(match)
    target = next(s for s in match.ships.values() if s.id != ship_id)
    near = match.ships[ship_id].at
    assert near is not None
    match.ships[target.id] = replace(
        target, weapons_left=1, propulsion_left=1, at=near.neighbour(2).neighbour(2)
    )
    salvo = ["AS", "2S", "3H", "4H", "5H", "6H", "7H", "8H"]  # shields down: 8 hits
    rig(match, *salvo, "AD", "KS", "2H", "9C", "10H", "JH", "QH", "KH", "AH")
    events = match.apply(Fire(player, ship_id, target.id, 1))
    assert Wrecked(target.id) in events
    wreck = match.ships[target.id]
    assert (wreck.status, wreck.at, wreck.strength()) == ("wrecked", None, 0)
    over = events[-1]
    assert isinstance(over, BattleOver) and (over.winner, over.reason) == (player, "last-side")
    assert match.result() is not None and match.is_over


def test_a_side_whose_last_ship_leaves_the_battle_loses() -> None:
    match = duel()
    player, ship_id = active(match)
    events = match.apply(Jump(player, ship_id, 0, 1))
    over = events[-1]
    assert isinstance(over, BattleOver) and over.reason == "last-side"
    assert over.winner != player


def test_a_ship_coming_back_still_fights_for_its_side() -> None:
    match = duel()
    player, ship_id = active(match)
    match.apply(Jump(player, ship_id, 2, 1))
    assert not match.is_over and match.ships[ship_id].fighting


def test_a_ship_with_no_weapons_no_longer_counts_for_its_side() -> None:
    match = duel()
    player, ship_id = active(match)
    other = next(s for s in match.ships.values() if s.id != ship_id)
    near = match.ships[ship_id].at
    assert near is not None
    match.ships[other.id] = replace(other, weapons_left=1, at=near.neighbour(2).neighbour(2))
    salvo = ["AD", "2H", "3H", "4H", "5H", "6H", "7H", "8H"]  # shields down: 8 hits
    rig(match, *salvo, "KD", "9H", "10H", "JH", "QH", "KH", "AH", "9S")
    events = match.apply(Fire(player, ship_id, other.id, 1))
    over = events[-1]
    assert isinstance(over, BattleOver) and (over.winner, over.reason) == (player, "last-side")
    assert match.ships[other.id].status == "table"  # not a wreck: it still has propulsion


def test_the_turn_limit_decides_on_strength_and_equal_strength_is_a_draw() -> None:
    match = duel(turn_limit=1)
    clock = Clock()
    while not match.is_over:
        owner, ship_id = active(match)
        match.apply(EndActivation(owner, ship_id, clock()))
    result = match.result()
    assert result is not None
    assert (result.winner, result.reason, result.turns) == (None, "turn-limit", 1)
    assert result.strength == {"red": 1.0, "blue": 1.0}

    match = duel(turn_limit=1)
    owner, ship_id = active(match)
    match.ships[ship_id] = replace(match.ships[ship_id], shields_left=15)
    clock = Clock()
    while not match.is_over:
        who, which = active(match)
        match.apply(EndActivation(who, which, clock()))
    result = match.result()
    assert result is not None and result.winner != owner and result.winner is not None
    assert result.strength[owner] == round(39 / 40, 4)


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ({"players": ("solo",)}, "player"),
        ({"scenario": "brawl"}, "unknown scenario 'brawl'"),
        ({"scenario": "custom"}, "needs 'fleets'"),
        ({"board": (4, 4)}, "'board' must be [columns, rows]"),
        ({"turn_limit": 0}, "'turn_limit' must be 1 to"),
        ({"fleets": ((ShipSpec("light", Weapons.LIGHT, "A"),),) * 2}, "'fleets' are for scenario"),
    ],
)
def test_bad_options_are_refused_naming_the_option(given: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidOptions) as caught:
        HexOptions(**given)
    assert words in str(caught.value)


def test_unknown_options_and_bad_fleets_from_json_name_the_problem() -> None:
    with pytest.raises(InvalidOptions, match="unknown option"):
        HexOptions.from_json({"size": 3})
    with pytest.raises(InvalidOptions, match="fleet 2, ship 1: unknown class"):
        HexOptions.from_json(
            {"scenario": "custom", "fleets": [[{"class": "light"}], [{"class": "huge"}]]}
        )
    with pytest.raises(InvalidOptions, match="fleet 1, ship 1: a heavy ship carries heavy"):
        HexOptions.from_json(
            {"scenario": "custom",
             "fleets": [[{"class": "heavy", "weapons": "light"}], [{"class": "light"}]]}
        )  # fmt: skip


def test_custom_fleets_deploy_numbered_in_seat_order_facing_inwards() -> None:
    fleets = (
        (ShipSpec("medium", Weapons.HEAVY, "Vorn"), ShipSpec("light", Weapons.LIGHT, "Dart")),
        (ShipSpec("heavy", Weapons.HEAVY, "Tor"),),
    )
    match = HexMatch(HexOptions(("a", "b"), "custom", fleets=fleets), seed=1)
    ships = list(match.ships.values())
    assert [(s.id, s.name, s.owner) for s in ships] == [
        ("1", "Vorn", "a"), ("2", "Dart", "a"), ("3", "Tor", "b")
    ]  # fmt: skip
    assert ships[0].salvo == 8 and ships[1].salvo == 4
    assert all(s.at in match.board for s in ships)


def test_every_event_of_a_battle_is_told_in_the_ships_logs(battles: list[HexMatch]) -> None:
    match = battles[1]
    names = {ship.id: ship.name for ship in match.ships.values()}
    lines = narrate(match.events, names)
    assert len(lines) == len(match.events)
    assert lines[0].text.startswith("turn 1 begins: ") and lines[0].turn == 1
    blank = next(line for line in lines if "blank" in line.text and "ends" in line.text)
    assert blank.text == f"the blank chit: turn {blank.turn} ends" and blank.ships == ()
    fired = next(
        (line, event) for line, event in zip(lines, match.events, strict=True)
        if isinstance(event, Fired)
    )  # fmt: skip
    line, event = fired
    assert isinstance(event, Fired)
    assert line.ships == (event.ship, event.target)
    assert line.text.startswith(f"{names[event.ship]} fires {len(event.cards)} cards at ")
    assert " ".join(event.cards) in line.text
    for ship_id in names:
        own = ship_log(lines, ship_id)
        assert own and all(ship_id in entry.ships for entry in own)
    assert lines[-1].text.startswith("the battle is over: ")


def test_a_jump_a_return_and_a_wreck_in_words() -> None:
    names = {"1": "Benellyn", "2": "Kal Pol"}
    told = narrate(
        [Jumped("1", 4), Returned("1", (3, -1), 2), Wrecked("2"), Jumped("2", None)], names
    )
    assert [line.text for line in told] == [
        "Benellyn jumps out: its chit goes back in the cup on turn 4",
        "Benellyn is back from its jump at hex 0401 facing SE",
        "Kal Pol has no weapons and no propulsion left: a wreck, out of the battle",
        "Kal Pol jumps out: it has left the battle",
    ]


def test_no_side_left_that_can_fight_is_a_draw() -> None:
    # Legal play changes one ship's fate at a time, so this is set up by hand.
    match = duel()
    for ship_id, ship in list(match.ships.items()):
        match.ships[ship_id] = replace(ship, weapons_left=0)
    player, ship_id = active(match)
    events = match.apply(EndActivation(player, ship_id, 1))
    over = events[-1]
    assert isinstance(over, BattleOver) and (over.winner, over.reason) == (None, "no-side")


def test_a_move_refused_says_why_in_the_readers_language() -> None:
    """A move off the board is refused with a phrase (the room writes it in each reader's
    language): English as before, French on a French page."""
    from spacetable.games.hexfleet.hexes import Board, Hex
    from spacetable.games.hexfleet.movement import walk
    from spacetable.i18n import translator
    from spacetable.i18n.phrase import Reason

    board = Board(3, 3)
    with pytest.raises(ValueError) as caught:
        walk(Hex(0, 0), 0, "LFF", board, (), 8)
    said = caught.value.args[0]
    assert isinstance(said, Reason)
    assert str(said) == "step 2 (F) would leave the board at -1,0"
    assert said.phrase.text(translator("fr")) == "le pas 2 (F) sortirait du plateau en -1,0"
