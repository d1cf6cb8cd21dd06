"""Hex fleet bots: every level plays only legal actions to the end of a battle, the
tactical bot beats random, its choices (shields first, a parting salvo then a jump when
crippled), determinism, and ``spacetable duels --game hexfleet``."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from spacetable.bots import Bot
from spacetable.bots.hexfleet import LEVELS, make_bot
from spacetable.bots.hexfleet.arena import duel
from spacetable.core.duels import study
from spacetable.games.hexfleet.hexes import Hex, distance
from spacetable.games.hexfleet.match import (
    Fire,
    HexAction,
    HexMatch,
    HexOptions,
    Jump,
    RaiseShields,
    Return,
)
from tests._cli import spacetable

PLAYERS = ("red", "blue", "green", "gold")


def play_out(
    match: HexMatch, bots: dict[str, Bot[HexAction]], seed: int
) -> list[tuple[str, HexAction]]:
    """Drive ``match`` to its end with ``bots``, checking every action is legal before it
    is applied; the (level's player, action) log."""
    rngs = {p: random.Random(f"{seed}:{p}") for p in bots}
    log = []
    while not match.is_over:
        ship = match.active
        assert ship is not None
        action = bots[ship.owner].choose(match.view(ship.owner), rngs[ship.owner])
        assert match.check(action) is None, (action, match.check(action))
        match.apply(action)
        log.append((ship.owner, action))
        assert len(log) < 5000, "the battle never ended"
    return log


@pytest.mark.parametrize("scenario", ["duel", "skirmish", "fleet"])
@pytest.mark.parametrize("sides", [2, 4])
def test_every_level_plays_only_legal_actions_to_the_end(scenario: str, sides: int) -> None:
    # Two sides meet every level in two seeds; four sides in the first (easy twice).
    for seed in range(2 if sides == 2 else 1):
        players = PLAYERS[:sides]
        levels = [LEVELS[(seed + i) % 3] for i in range(sides)]
        bots = {p: make_bot(level) for p, level in zip(players, levels, strict=True)}
        options = HexOptions(players=players, scenario=scenario, turn_limit=8)
        match = HexMatch(options, seed)
        log = play_out(match, bots, seed)
        result = match.result()
        assert result is not None and result.turns <= 8
        easy = [p for p, level in zip(players, levels, strict=True) if level == "easy"]
        assert not any(isinstance(a, Jump) for p, a in log if p in easy)  # easy never jumps


def jumped_and_back(level: str) -> tuple[HexMatch, list[tuple[str, HexAction]]]:
    """A skirmish whose first activated ship jumps out to come back on turn 2, played on
    by ``level`` bots until the ship is back (the first seed where its chit is drawn
    before the blank)."""
    for seed in range(40):
        match = HexMatch(HexOptions(scenario="skirmish", turn_limit=3), seed)
        ship = match.active
        assert ship is not None
        match.apply(Jump(ship.owner, ship.id, 2, 0.0))
        bots = {p: make_bot(level) for p in match.players}
        log = play_out(match, bots, seed)
        if any(isinstance(a, Return) for _, a in log):
            return match, log
    raise AssertionError("no seed brought the ship back")


# The expert places a returning ship as the tactical bot does (and searches for long).
@pytest.mark.parametrize("level", [level for level in LEVELS if level != "expert"])
def test_a_ship_back_from_a_jump_is_put_on_a_free_hex(level: str) -> None:
    match, log = jumped_and_back(level)
    back = next(a for _, a in log if isinstance(a, Return))
    assert match.ships[back.ship].status != "jumped"
    assert Hex(back.q, back.r) in match.board  # play_out checked it was free


def test_the_tactical_bot_beats_random_in_a_few_seeded_duels() -> None:
    """The study below in small: the same first two seeds, the tactical bot wins both
    (``spacetable duels --game hexfleet`` measures it over many, docs/lab.md)."""
    record = study(duel, make_bot("tactical"), make_bot("random"), 2, seed=500)
    assert record.wins == 2, record.summary()


@pytest.mark.slow
def test_the_tactical_bot_beats_random_in_most_seeded_duels() -> None:
    record = study(duel, make_bot("tactical"), make_bot("random"), 20, seed=500)
    assert record.wins >= 16, record.summary()


def test_a_duel_replays_exactly_from_its_seed() -> None:
    tactical, rand = make_bot("tactical"), make_bot("random")
    first = duel(tactical, rand, 7, a_first=False, turn_limit=10)
    assert duel(tactical, rand, 7, a_first=False, turn_limit=10) == first
    logs = []
    for _ in range(2):
        match = HexMatch(HexOptions(scenario="fleet", turn_limit=6), 11)
        logs.append(play_out(match, {"red": tactical, "blue": rand}, 11))
    assert logs[0] == logs[1] and len(logs[0]) > 10


def test_the_tactical_bot_raises_its_shields_before_closing() -> None:
    match = HexMatch(HexOptions(scenario="skirmish"), 3)
    ship = match.active
    assert ship is not None and ship.at is not None
    enemies = [s for s in match.ships.values() if s.owner != ship.owner]
    assert all(e.at and distance(ship.at, e.at) > 12 for e in enemies)  # out of reach
    action = make_bot("tactical").choose(match.view(ship.owner), random.Random(0))
    assert isinstance(action, RaiseShields)


def test_a_crippled_tactical_ship_fires_a_parting_salvo_then_jumps_out() -> None:
    match = HexMatch(HexOptions(scenario="duel", turn_limit=20), 1)
    ship = match.active
    assert ship is not None
    enemy = next(s for s in match.ships.values() if s.owner != ship.owner)
    # Three weapon systems of sixteen left, the enemy six hexes away: in reach both ways.
    match.ships[ship.id] = replace(ship, weapons_left=3, at=Hex(5, 2), shields_up=True)
    match.ships[enemy.id] = replace(enemy, at=Hex(11, -1))
    bot, rng = make_bot("tactical"), random.Random(0)
    fire = bot.choose(match.view(ship.owner), rng)
    assert isinstance(fire, Fire) and fire.target == enemy.id
    match.apply(fire)
    if match.is_over:  # the salvo silenced the enemy
        return
    jump = bot.choose(match.view(ship.owner), rng)
    assert isinstance(jump, Jump) and jump.returns_on == 20  # back for the last turn
    match.apply(jump)
    assert match.ships[ship.id].status == "jumped"


def test_spacetable_duels_measures_the_hex_fleet_bots() -> None:
    args = ("duels", "--game", "hexfleet", "--bot", "tactical", "--against", "random")
    done = spacetable(*args, "--duels", "2", "--turns", "6", "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["game"] == "hexfleet"
    assert found["wins"] + found["draws"] + found["losses"] == found["duels"] == 2
    timing = found.pop("decision_seconds")
    assert timing["bot"]["decisions"] > 0 and timing["against"]["decisions"] > 0
    again = json.loads(spacetable(*args, "--duels", "2", "--turns", "6", "--json").stdout)
    again.pop("decision_seconds")
    assert again == found  # seeded: the same record again
    text = spacetable(*args, "--duels", "1", "--turns", "4")
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("Hex fleet: tactical against random, 1 duels")
    assert "tactical thinks" in text.stdout
    refused = spacetable("duels", "--game", "hexfleet", "--bot", "admiral", "--against", "easy")
    assert refused.returncode == 2 and "tactical" in refused.stderr


def test_spacetable_duels_takes_the_scenario_as_a_game_option() -> None:
    args = ("duels", "--game", "hexfleet", "--bot", "easy", "--against", "random", "--duels", "1")
    fleet = spacetable(*args, "--turns", "2", "--option", "scenario=fleet", "--json")
    assert fleet.returncode == 0, fleet.stderr
    duel = spacetable(*args, "--turns", "2", "--option", "scenario=duel", "--json")
    # Six ships a side decide more often than one: the fleet action asks more of the bots.
    fleet_decisions = json.loads(fleet.stdout)["decision_seconds"]["bot"]["decisions"]
    duel_decisions = json.loads(duel.stdout)["decision_seconds"]["bot"]["decisions"]
    assert fleet_decisions > duel_decisions
    default = spacetable(*args[:-2], "--duels", "1")
    assert "mean length" in default.stdout and "turns" in default.stdout.split("mean length")[1]
    bad = spacetable(*args, "--option", "scenario=armada")
    assert bad.returncode == 2 and "unknown scenario 'armada'" in bad.stderr
    bad = spacetable(*args, "--option", "colour=red")
    assert bad.returncode == 2 and "no such option" in bad.stderr
    bad = spacetable(*args, "--option", "scenario")
    assert bad.returncode == 2 and "key=value" in bad.stderr
