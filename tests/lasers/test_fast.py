"""The compiled fast path agrees exactly with the reference resolver.

Random tables (seeded ``random.Random``) with random ship definitions: 2-4 players, shields,
piracy, asteroids, Stellar Conflict cargo ships, ion and penetrating lasers, two-speed ships
and Stolen Goods, cards packed densely so that many lasers hit, and quarter-turn poses on a
grid so that rays graze edges and corners and tie on distance. Outcomes are compared through
their JSON text: same keys in the same order, and floats with the same ``repr`` (bit for bit).
"""

from __future__ import annotations

import json
import math
import os
import random
import select
import signal
import warnings
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from spacetable.lab.bench import random_table
from spacetable.lasers.battle import Card, Outcome, Rules, resolve
from spacetable.lasers.events import LaserFired
from spacetable.lasers.fast import (
    Candidate,
    PackedTable,
    batch_threads,
    candidate_card,
    pack,
    resolve_batch,
    resolve_batch_full,
    resolve_fast,
    resolve_packed,
)
from spacetable.lasers.geometry import EDGES, Pose, rects_touch
from spacetable.lasers.ships import CARD_SIZE_MM, Laser, LaserKind, Role, Shield, ShipDef
from spacetable.lasers.tables import CARGO_CUBES, load_table
from tests._paths import ROOT

PLAYERS = ("red", "blue", "green", "yellow")
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
EXAMPLES = [
    p for p in EXAMPLES if json.loads(p.read_bytes()).get("ruleset") in ("lightspeed", "stellar")
]
OUTWARD = {"front": 0.0, "back": 180.0, "left": 90.0, "right": -90.0}


def _along(rng: random.Random, half: float) -> float:
    """A coordinate along an edge: often a corner or a whole number, to make ties."""
    roll = rng.random()
    if roll < 0.15:
        return rng.choice((-half, half))
    if roll < 0.5:
        return float(rng.randint(int(-half), int(half)))
    return rng.uniform(-half, half)


def random_laser(rng: random.Random, size: tuple[float, float], kinds: bool) -> Laser:
    """A laser starting at a random point of a random edge, pointing mostly outward."""
    hw, hl = size[0] / 2.0, size[1] / 2.0
    edge = rng.choice(EDGES)
    if edge in ("front", "back"):
        at = (_along(rng, hw), hl if edge == "front" else -hl)
    else:
        at = (-hw if edge == "left" else hw, _along(rng, hl))
    roll = rng.random()
    offset = (
        0.0 if roll < 0.5 else rng.choice((-45.0, 45.0)) if roll < 0.7 else rng.uniform(-85, 85)
    )
    choices: tuple[LaserKind, ...] = ("normal", "ion", "penetrating")
    kind = rng.choices(choices, (3, 1, 1))[0] if kinds else "normal"
    return Laser(at, OUTWARD[edge] + offset, rng.randint(1, 3), kind)


def random_shield(rng: random.Random, size: tuple[float, float]) -> Shield:
    """A shield on a random edge: the whole edge or a random part of it."""
    edge = rng.choice(EDGES)
    half = (size[0] if edge in ("front", "back") else size[1]) / 2.0
    if rng.random() < 0.4:
        return Shield(edge, -half, half)
    a, b = sorted((_along(rng, half), _along(rng, half)))
    return Shield(edge, a, b)


def random_ship(rng: random.Random, key: str, stellar: bool) -> ShipDef:
    """A random ship definition (sometimes two speeds, a cargo role, ion/penetrating)."""
    speeds = tuple(sorted(rng.sample(range(11), 2 if rng.random() < 0.2 else 1)))
    lasers = tuple(
        random_laser(rng, CARD_SIZE_MM, kinds=stellar or rng.random() < 0.3)
        for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 4)))
    )
    shields = tuple(random_shield(rng, CARD_SIZE_MM) for _ in range(rng.choice((0, 0, 1, 2))))
    role: Role = "cargo" if rng.random() < (0.25 if stellar else 0.05) else "warship"
    health = rng.randint(1, 4)
    return ShipDef(key, key.title(), speeds, health, lasers, shields, rng.randint(0, 4), 0, role)


def random_pose(rng: random.Random, side: float) -> Pose:
    """Half the time a quarter turn on a 1 mm grid (edges line up exactly), else anything."""
    if rng.random() < 0.5:
        x, y = (
            float(rng.randint(int(-side / 2), int(side / 2))),
            float(rng.randint(int(-side / 2), int(side / 2))),
        )
        return Pose(x, y, rng.choice((0.0, 90.0, 180.0, 270.0, -90.0, 450.0)))
    rotation = rng.choice((rng.uniform(-180, 360), float(rng.randrange(0, 360, 15))))
    return Pose(rng.uniform(-side / 2, side / 2), rng.uniform(-side / 2, side / 2), rotation)


def random_battle(seed: int) -> tuple[list[Card], Rules, list[ShipDef]]:
    """A random dense table, its rules and the ship definitions it was drawn from."""
    rng = random.Random(seed)
    n_players = rng.choice((2, 3, 4))
    stellar = rng.random() < 0.4
    rules = Rules(
        PLAYERS[:n_players],
        "stellar" if stellar else "lightspeed",
        piracy=not stellar and rng.random() < 0.5,
        stolen_goods=stellar and rng.random() < 0.6,
    )
    defs = [random_ship(rng, f"ship{i}", stellar) for i in range(rng.randint(2, 7))]
    n_cards = rng.randint(3, 16)
    side = 90.0 * (n_cards**0.5) * rng.uniform(1.3, 2.2)
    cards: list[Card] = []
    for index in range(n_cards):
        for _ in range(200):
            size = CARD_SIZE_MM if rng.random() < 0.9 else (57.0, 80.0)
            pose = random_pose(rng, side)
            if rng.random() < 0.15:
                card = Card(f"rock{index}", pose, None, None, rng.choice((0, 1, 2, 5, 12)), size)
            else:
                ship = rng.choice(defs)
                owner = rng.choice(rules.players)
                if stellar and ship.role == "cargo":
                    rocks = rng.choice((CARGO_CUBES[n_players], rng.randint(0, 8)))
                else:
                    rocks = rng.choice((0, 0, 0, 1, 3, 6))
                card = Card(f"{owner}-{index}", pose, ship, owner, rocks, size)
            if not any(rects_touch(card.rect, other.rect) for other in cards):
                cards.append(card)
                break
    return cards, rules, defs


def as_text(outcome: Outcome) -> str:
    """The outcome's JSON text: key order and float bits included."""
    return json.dumps(outcome.to_json())


@pytest.mark.parametrize("seed", range(400))
def test_fast_path_agrees_exactly_on_random_tables(seed: int) -> None:
    cards, rules, _ = random_battle(seed)
    assert as_text(resolve_fast(cards, rules)) == as_text(resolve(cards, rules))


@pytest.mark.parametrize("seed", range(3))
def test_fast_path_agrees_on_the_benchmark_table(seed: int) -> None:
    cards, rules = random_table(seed, players=2 + seed, ships_per_player=10)
    assert as_text(resolve_fast(cards, rules)) == as_text(resolve(cards, rules))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_fast_path_agrees_on_the_example_tables(path: Path) -> None:
    table = load_table(path)
    assert as_text(resolve_fast(table.cards, table.rules())) == as_text(table.resolve())


def _outcomes() -> Iterator[Outcome]:
    for seed in range(400):
        cards, rules, _ = random_battle(seed)
        yield resolve(cards, rules)


def test_random_tables_exercise_every_rule() -> None:
    """The random tables above are worth comparing: every kind of event and laser result
    occurs, ties and corners included."""
    events: Counter[str] = Counter()
    results: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for outcome in _outcomes():
        for event in outcome.events:
            data = event.to_json()
            events[data["type"]] += 1
            reasons[str(data.get("reason"))] += 1
            if isinstance(event, LaserFired):
                results[event.result] += 1
    assert set(events) == {
        "step",
        "laser",
        "delay",
        "take",
        "vaporize",
        "destroyed",
        "transfer",
        "left",
    }
    assert set(results) == {"space", "blocked", "damage", "ion", "mine"}
    assert {"pulse", "own-cargo", "destroyed", "depleted", "emptied"} <= set(reasons)
    assert results["damage"] > 500


def test_resolve_packed_can_be_called_again() -> None:
    cards, rules, _ = random_battle(7)
    table = pack(cards, rules)
    assert as_text(resolve_packed(table)) == as_text(resolve_packed(table))


def test_pack_rejects_duplicate_ids_and_strangers() -> None:
    cards, rules, _ = random_battle(3)
    with pytest.raises(ValueError, match="distinct"):
        pack([*cards, cards[0]], rules)
    ship = next(c for c in cards if c.ship is not None)
    stranger = Card("stranger", Pose(5000.0, 5000.0), ship.ship, "nobody")
    with pytest.raises(ValueError, match="not a player"):
        pack([*cards, stranger], rules)
    assert ship.ship is not None
    early = ShipDef("early", "Early", (-1,), 1)
    with pytest.raises(ValueError, match="negative"):
        pack([*cards, Card("early", Pose(5000.0, 5000.0), early, ship.owner)], rules)


def _random_candidates(
    rng: random.Random, table: PackedTable, count: int, side: float
) -> list[Candidate]:
    rows = []
    for _ in range(count):
        pose = random_pose(rng, side)
        owner = rng.randrange(len(table.rules.players))
        ship = rng.randrange(len(table.ship_defs))
        rocks = rng.choice((-1, -1, 0, 2))
        rows.append(Candidate(owner, ship, pose.x, pose.y, pose.rotation_deg, rocks))
    return rows


def _check_batch(cards: list[Card], rules: Rules, table: PackedTable, rows: list[Candidate]) -> int:
    """Compare batch scores (with and without the touch check) to the reference."""
    checked = resolve_batch_full(table, rows)
    unchecked = resolve_batch_full(table, rows, check_touch=False)
    floats = resolve_batch(table, rows)
    valid = 0
    for index, row in enumerate(rows):
        card = candidate_card(table, row)
        expected = resolve([*cards, card], rules)
        scores = [expected.scores[p] for p in rules.players]
        winner = rules.players.index(expected.winner) if expected.winner else -1
        touching = any(rects_touch(card.rect, other.rect) for other in cards)
        assert checked.valid[index] == (not touching)
        assert unchecked.scores[index].tolist() == scores, index
        assert unchecked.winners[index] == winner
        if touching:
            assert np.isnan(floats[index]).all()
            assert checked.winners[index] == -2
        else:
            valid += 1
            assert checked.scores[index].tolist() == scores
            assert floats[index].tolist() == scores
            assert checked.winners[index] == winner
    return valid


@pytest.mark.parametrize("seed", range(12))
def test_batch_scores_equal_the_reference_with_the_candidate_added(seed: int) -> None:
    cards, rules, defs = random_battle(1000 + seed)
    rng = random.Random(seed)
    table = pack(cards, rules, ships=defs)
    rows = _random_candidates(rng, table, 30, side=500.0)
    assert _check_batch(cards, rules, table, rows) > 0


def test_batch_on_the_benchmark_table() -> None:
    cards, rules = random_table(5, players=3, ships_per_player=5)
    table = pack(cards, rules)
    rng = random.Random(5)
    assert _check_batch(cards, rules, table, _random_candidates(rng, table, 40, 700.0)) > 10


def test_batch_accepts_tuples_arrays_and_nothing() -> None:
    cards, rules, defs = random_battle(4)
    table = pack(cards, rules, ships=defs)
    row = (0, 0, 5000.0, 5000.0, 0.0)
    from_list = resolve_batch((cards, rules), [row], check_touch=False)
    assert from_list.shape == (1, len(rules.players))
    assert (resolve_batch(table, np.array([row])) == from_list).all()
    assert resolve_batch(table, []).shape == (0, len(rules.players))
    with pytest.raises(ValueError, match="ship"):
        resolve_batch(table, [(0, 99, 0.0, 0.0, 0.0)])
    with pytest.raises(ValueError, match="owner"):
        resolve_batch(table, [(7, 0, 0.0, 0.0, 0.0)])
    with pytest.raises(ValueError, match="rocks"):
        resolve_batch(table, [(0, 0, 0.0, 0.0, 0.0, 1.5)])
    with pytest.raises(ValueError, match="finite"):
        resolve_batch(table, [(0, 0, math.nan, 0.0, 0.0)])
    assert table.ship_defs[table.ship_index(defs[1].key)] == defs[1]


def test_a_forked_process_scores_batches_on_threads_of_its_own() -> None:
    # A batch of many candidates is scored in chunks on a pool of threads. A process forked
    # after the pool started (the test's fork server, a server's worker) has none of its
    # threads: it must start its own rather than wait for the parent's.
    if batch_threads() < 2:
        pytest.skip("one batch thread here: batches run without the pool")
    cards, rules = random_table(5, players=3, ships_per_player=5)
    table = pack(cards, rules)
    rows = _random_candidates(random.Random(6), table, 40, 700.0)
    here = resolve_batch_full(table, rows).scores  # (the pool starts)
    read, write = os.pipe()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # (fork with threads running)
        pid = os.fork()
    if pid == 0:  # the child: its batch's scores down the pipe, then out
        status = 1
        try:
            os.write(write, resolve_batch_full(table, rows).scores.tobytes())
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    try:
        finished = select.select([read], [], [], 120)[0]
        if not finished:
            os.kill(pid, signal.SIGKILL)
        assert finished, "the forked process never finished its batch"
        got = b""
        while chunk := os.read(read, 65536):
            got += chunk
    finally:
        os.close(read)
        os.waitpid(pid, 0)
    assert np.frombuffer(got, np.int64).reshape(here.shape).tolist() == here.tolist()
