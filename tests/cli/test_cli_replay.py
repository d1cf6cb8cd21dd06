"""``spacetable replay``: a stored match played again from its seed and action log, checked
against the result stored — from a file as the server serves it, or by id from the database."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from spacetable.bots.hexfleet import make_bot
from spacetable.cli import app
from spacetable.games.hexfleet import HexMatch, HexOptions
from spacetable.server.store.storage import Storage, StoredMatch
from tests._cli import spacetable
from tests._laser_play import free_spot, play_to_the_battle
from tests._server import running_server, seated


def battle(seed: int) -> HexMatch:
    """A short skirmish of two random bots, to the end."""
    match = HexMatch(HexOptions(("Ann", "Bob"), "skirmish", turn_limit=4), seed)
    bot, rng = make_bot("random"), random.Random(seed)
    while not match.is_over:
        ship = match.active
        assert ship is not None
        match.apply(bot.choose(match.view(ship.owner), rng).with_time(match.clock + 1))
    return match


def stored(match: HexMatch, **changes: Any) -> dict[str, Any]:
    result = match.result()
    assert result is not None
    row = StoredMatch(
        id=f"m{match.seed}",
        room="r1",
        ruleset="hexfleet",
        options=match.options.to_json(),
        seats=[],
        seed=match.seed,
        actions=[a.to_json() for a in match.actions],
        events=[],
        result=result.to_json(),
        started_at=time.time(),
        finished_at=time.time(),
    )
    return {**row.to_json(), **changes}


def test_a_stored_battle_replays_exactly_with_its_log(tmp_path: Path) -> None:
    match = battle(11)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(stored(match)))
    run = spacetable("replay", path, "--log")
    assert run.returncode == 0, run.stderr
    assert f"Hex fleet: Ann, Bob; {len(match.actions)} actions" in run.stdout
    assert match.log[-1]["text"] in run.stdout
    assert run.stdout.strip().endswith("replays exactly")
    run = spacetable("replay", path, "--json")
    assert json.loads(run.stdout)["exact"] is True


def test_a_result_that_does_not_match_exits_1_and_says_what_was_stored(tmp_path: Path) -> None:
    match = battle(12)
    result = stored(match)["result"]
    path = tmp_path / "match.json"
    path.write_text(json.dumps(stored(match, result={**result, "turns": result["turns"] + 5})))
    run = spacetable("replay", path)
    assert run.returncode == 1
    assert "stored: " in run.stdout and "replays exactly" not in run.stdout


def test_a_log_that_does_not_fit_its_seed_is_refused_naming_the_action(tmp_path: Path) -> None:
    match = battle(13)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(stored(match, seed=match.seed + 1)))
    run = spacetable("replay", path)
    assert run.returncode == 2
    assert "is activated, not" in run.stderr or "is not" in run.stderr
    path.write_text("{not json")
    assert spacetable("replay", path).returncode == 2
    assert "no stored match with that id" in spacetable("replay", "no-such-id").stderr


def test_a_match_id_is_found_in_the_database(tmp_path: Path) -> None:
    match = battle(14)
    url = f"sqlite:///{tmp_path / 'matches.db'}"
    storage = Storage(url)
    data = stored(match)
    storage.save(
        StoredMatch(**{k: v for k, v in data.items() if k in StoredMatch.__dataclass_fields__})
    )
    storage.close()
    run = spacetable("replay", data["id"], "--db", url)
    assert run.returncode == 0, run.stderr
    assert "replays exactly" in run.stdout


def test_a_light_speed_match_played_through_the_server_replays_exactly(
    tmp_path: Path, compiled_kernels: None
) -> None:
    # The store keeps a battle's events apart from its result (server/rooms/realtime.py):
    # every laser match the server stored replayed as "not exact", the events missing.
    db = tmp_path / "matches.db"
    with running_server(db, room_seed=5) as server:
        room = server.create_room()
        ann, bob = seated(server, room, "Ann"), seated(server, room, "Bob")
        ann.send(type="ready")
        bob.send(type="ready")
        battles = play_to_the_battle({"Ann": ann, "Bob": bob})
        match_id = battles["Ann"]["match_id"]
        assert server.stored_match(match_id)["result"]["scores"]  # ended by its rules, stored
        ann.close()
        bob.close()
    outcome = CliRunner().invoke(app, ["replay", match_id, "--db", f"sqlite:///{db}"])
    assert outcome.exit_code == 0, outcome.output
    assert outcome.output.strip().endswith("replays exactly")
    outcome = CliRunner().invoke(app, ["replay", match_id, "--db", f"sqlite:///{db}", "--json"])
    assert json.loads(outcome.output)["exact"] is True


def test_a_stellar_conflict_match_played_through_the_server_replays_exactly(
    tmp_path: Path, compiled_kernels: None
) -> None:
    db = tmp_path / "matches.db"
    timing = ("--countdown-seconds", "4", "--stop-seconds", "1.5", "--bot-pace", "0.1")
    with running_server(db, *timing, room_seed=9) as server:
        room = server.create_room(ruleset="stellar", races=["tetrakori", "hexai"])
        ann = seated(server, room, "Ann")
        ann.send(type="bot", seat=1, level="medium")
        ann.send(type="ready")
        ann.wait(lambda m: m["type"] == "state")
        ann.send(type="fleet", ships=[])  # the Flag ship alone
        state = ann.wait(lambda m: m["type"] == "state" and m["phase"] == "deployment")
        rng = random.Random(2)
        while state["hand"] is not None and state["phase"] == "deployment":
            ann.send(type="place", **free_spot(state, rng))  # refused if the bot got there
            state = ann.wait(lambda m: m["type"] == "state")
        match_id = ann.wait(lambda m: m["type"] == "battle", timeout=30)["match_id"]
        assert server.stored_match(match_id)["result"]["scores"]  # ended by its rules, stored
        ann.close()
    outcome = CliRunner().invoke(app, ["replay", match_id, "--db", f"sqlite:///{db}"])
    assert outcome.exit_code == 0, outcome.output
    assert outcome.output.strip().endswith("replays exactly")
