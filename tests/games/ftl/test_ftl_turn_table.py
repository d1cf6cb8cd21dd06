"""One table of FTL turns resolved by the rules (tests/golden/ftl-turns.json): the
rulebook's examples and seeded random turns on a crowded table, each with the
``resolve --json`` object the referee gives. The browser's port of the resolution
(web/js/games/ftl/resolution.js, the "what if" of the FTL room) is held to the same table
by tests/browser/ftl/test_ftl_what_if.py.

Regenerate after an intended rules change with ``SPACETABLE_UPDATE_GOLDEN=1`` and review
the diff."""

from __future__ import annotations

import json
import random
from typing import Any

from spacetable.games.ftl.turnfile import TurnFileError, turn_from_json
from tests._golden import GOLDEN, UPDATE
from tests._paths import ROOT

TABLE_PATH = GOLDEN / "ftl-turns.json"
#: Random turns in the table, and the seed that makes them.
RANDOM_TURNS = 60
SEED = 20
ABOUT = (
    "FTL turns (DESIGN section 5) and how the referee resolves them: 'file' is a turn file, "
    "'result' what `spacetable resolve --json` gives for it. The Python rules "
    "(games/ftl/resolution.py) and the browser's port (web/js/games/ftl/resolution.js) are "
    "both held to this table. Regenerate: SPACETABLE_UPDATE_GOLDEN=1 uv run pytest "
    "tests/games/ftl/test_ftl_turn_table.py"
)


def _random_order(rng: random.Random, kind: str) -> str | None:
    roll = rng.random()
    if roll < 0.15:
        return None
    if roll < 0.25 and kind == "ship":
        return "L"
    if roll < 0.55:
        angle = rng.choice([a for a in range(-180, 181, 15) if a])
        return f"R{angle:+d}"
    return f"S{rng.randrange(2, 17) / 2:g}"


def _random_turn(rng: random.Random) -> dict[str, Any]:
    """A crowded table: ships and missiles close together, so that tapes meet pieces."""
    players = ["red", "blue", "green"][: rng.choice([2, 2, 3])]
    side = rng.choice([8.0, 10.0, 12.0])
    pieces: list[dict[str, Any]] = []
    for player in players:
        ship: dict[str, Any] = {"id": player, "kind": "ship", "owner": player}
        ship["hits"] = rng.choice([0, 0, 1, 2])
        ship["missiles"] = rng.choice([0, 1, 3, 10])
        ship["launched"] = rng.choice([0, 1, 4])
        pieces.append(ship)
        for k in range(rng.randrange(0, 4)):
            pieces.append({"id": f"{player}-x{k + 1}", "kind": "missile", "owner": player})
    for piece in pieces:
        # Whole and half inches and right angles make exact touches; the rest do not.
        if rng.random() < 0.5:
            piece["x"] = rng.randrange(-8, 9) / 2
            piece["y"] = rng.randrange(-8, 9) / 2
            piece["heading"] = rng.choice([0, 90, 180, -90, 45, -135])
        else:
            piece["x"] = round(rng.uniform(-side / 2 + 0.5, side / 2 - 0.5), 3)
            piece["y"] = round(rng.uniform(-side / 2 + 0.5, side / 2 - 0.5), 3)
            stepped, free = rng.randrange(-165, 181, 15), round(rng.uniform(-179, 180), 2)
            piece["heading"] = rng.choice([stepped, free])
    orders = []
    for piece in pieces:
        order = _random_order(rng, piece["kind"])
        if order is not None:
            orders.append({"piece": piece["id"], "order": order})
    if orders and rng.random() < 0.1:  # a second order for a piece is ignored
        orders.append({"piece": orders[0]["piece"], "order": "S1"})
    return {
        "ruleset": "ftl",
        "players": players,
        "table": {"width": side, "height": side},
        "pieces": pieces,
        "orders": orders,
    }


def build_table() -> dict[str, Any]:
    """The examples, then seeded random turns (those the referee accepts), resolved."""
    turns = []
    for path in sorted((ROOT / "examples").glob("ftl-*.json")):
        turns.append((path.stem, json.loads(path.read_text(encoding="utf-8"))))
    rng = random.Random(SEED)
    while len(turns) < RANDOM_TURNS + 4:
        file = _random_turn(rng)
        try:
            turn_from_json(file).resolve()
        except TurnFileError:
            continue  # two pieces on one name, a launch onto a taken name...
        turns.append((f"random-{len(turns) - 3}", file))
    return {
        "about": ABOUT,
        "turns": [
            {"name": name, "file": file, "result": turn_from_json(file).resolve().to_json()}
            for name, file in turns
        ],
    }


def _stored() -> dict[str, Any]:
    if UPDATE:
        TABLE_PATH.write_text(json.dumps(build_table(), indent=1) + "\n", encoding="utf-8")
    stored: dict[str, Any] = json.loads(TABLE_PATH.read_text(encoding="utf-8"))
    return stored


def test_the_rules_resolve_every_turn_of_the_table_as_stored() -> None:
    for turn in _stored()["turns"]:
        got = json.loads(json.dumps(turn_from_json(turn["file"]).resolve().to_json()))
        assert got == turn["result"], turn["name"]


def test_the_table_shows_every_kind_of_outcome() -> None:
    """Enough happens in the table for the port to be held to every rule."""
    events = [e for turn in _stored()["turns"] for e in turn["result"]["events"]]
    kinds = {e["type"] for e in events}
    assert {"launch", "rotate", "tape", "contact", "hit", "removed", "move", "off-table",
            "ignored", "end"} <= kinds  # fmt: skip
    assert {e["effect"] for e in events if e["type"] == "contact"} == {
        "missiles", "missile-on-ship", "ship-on-missile", "collision",
    }  # fmt: skip
    assert {e["reason"] for e in events if e["type"] == "removed"} == {
        "contact", "collision", "hits",
    }  # fmt: skip
    assert any(e["type"] == "tape" and e["stopped"] for e in events)
