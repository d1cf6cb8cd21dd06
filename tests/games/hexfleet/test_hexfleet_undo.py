"""Taking back a move inside the open activation (docs/rulings.md H14): the ship stands
again where it stood with its movement back, only until a card is turned or the activation
ends, and a battle with undos replays exactly from its seed and action log. And the log's
words for a damage card that finds nothing left to lose."""

from __future__ import annotations

from dataclasses import replace

import pytest

from spacetable.core.match import IllegalAction
from spacetable.games.hexfleet.events import DamageCard
from spacetable.games.hexfleet.match import (
    EndActivation,
    HexMatch,
    Jump,
    Move,
    RaiseShields,
    Undo,
)
from spacetable.games.hexfleet.narrate import narrate
from tests.games.hexfleet.test_hexfleet_match import active, close_in, duel, rig


def test_an_undo_puts_the_ship_back_with_its_movement_and_may_jump_again() -> None:
    match = duel()
    player, ship_id = active(match)
    start = match.ships[ship_id]
    assert match.activation is not None
    movement = match.activation.movement
    match.apply(Move(player, ship_id, "FF", 1))
    match.apply(Move(player, ship_id, "R", 2))
    assert match.view(player)["activation"]["undo"] == 2
    events = match.apply(Undo(player, ship_id, 3))
    assert [e.to_json()["type"] for e in events] == ["undo"]
    assert match.activation.movement == movement - 2
    events = match.apply(Undo(player, ship_id, 4))
    assert match.ships[ship_id] == start
    assert match.activation.movement == movement and "moved" not in match.activation.done
    assert match.view(player)["activation"]["undo"] == 0
    assert "takes back its move" in match.log[-1]["text"]
    with pytest.raises(IllegalAction, match="has not moved this activation"):
        match.apply(Undo(player, ship_id, 5))
    match.apply(Jump(player, ship_id, 0, 6))  # back where it started, it may jump after all
    assert start.at is not None and events[0].to_json()["at"] == [start.at.q, start.at.r]


def test_no_undo_once_a_card_is_turned_nor_for_another_player_or_ship() -> None:
    match = duel()
    player, ship_id, _enemy = close_in(match)
    other = next(p for p in match.players if p != player)
    match.apply(Move(player, ship_id, "F", 1))
    with pytest.raises(IllegalAction, match="is " + player):
        match.apply(Undo(other, ship_id, 2))
    with pytest.raises(IllegalAction, match="is activated, not"):
        match.apply(Undo(player, "nobody", 2))
    rig(match, "AS", "2H")
    match.apply(RaiseShields(player, ship_id, 3))
    with pytest.raises(IllegalAction, match="turned cards since it moved"):
        match.apply(Undo(player, ship_id, 4))
    match.apply(Move(player, ship_id, "L", 5))  # a move after the cards may be taken back
    match.apply(Undo(player, ship_id, 6))
    with pytest.raises(IllegalAction, match="turned cards since it moved"):
        match.apply(Undo(player, ship_id, 7))


def test_a_move_of_an_ended_activation_cannot_be_taken_back() -> None:
    match = duel()
    player, ship_id = active(match)
    match.apply(Move(player, ship_id, "F", 1))
    match.apply(EndActivation(player, ship_id, 2))
    assert match.activation is not None
    next_player, next_ship = active(match)
    assert match.view(next_player)["activation"]["undo"] == 0
    with pytest.raises(IllegalAction):
        match.apply(Undo(player, ship_id, 3))
    with pytest.raises(IllegalAction, match="has not moved this activation"):
        match.apply(Undo(next_player, next_ship, 3))


def test_a_battle_with_undos_replays_exactly_from_its_log() -> None:
    match = duel(seed=5)
    t = 0.0
    for _ in range(6):  # six activations, each moving, taking it back, moving again
        player, ship_id = active(match)
        t += 1
        match.apply(Move(player, ship_id, "F", t))
        match.apply(Undo(player, ship_id, t + 0.1))
        match.apply(Move(player, ship_id, "R", t + 0.2))
        match.apply(EndActivation(player, ship_id, t + 0.3))
        if match.is_over:
            break
    again = HexMatch.from_record(match.record())
    assert [e.to_json() for e in again.events] == [e.to_json() for e in match.events]
    assert again.snapshot() == match.snapshot() and again.log == match.log


def test_a_damage_card_for_a_system_already_gone_says_nothing_more_is_lost() -> None:
    match = duel()
    _player, ship_id = active(match)
    ship = replace(match.ships[ship_id], propulsion_left=1)
    told = narrate(
        [DamageCard(ship_id, "7S", "propulsion", 0), DamageCard(ship_id, "AS", "propulsion", 0)],
        {ship_id: ship.name},
        {ship_id: ship},
    )
    assert [line.text for line in told] == [
        f"damage card 7S: {ship.name} loses a propulsion cell (0 left)",
        f"damage card AS: {ship.name} has no propulsion cells left, nothing more is lost",
    ]
