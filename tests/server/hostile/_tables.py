"""Hostile table files, as the probes of issue 9 (findings 1, 2 and 8) sent them: each is a
JSON text a user could upload to ``POST /api/resolve`` or hand to ``spacetable resolve``."""

from __future__ import annotations

import json
from typing import Any

from tests._paths import ROOT

FIG1 = ROOT / "examples" / "fig1-sample-game.json"


def fig1() -> dict[str, Any]:
    """The rulebook's sample game, a legal table."""
    data: dict[str, Any] = json.loads(FIG1.read_text(encoding="utf-8"))
    return data


def with_moth(**fields: Any) -> dict[str, Any]:
    """Fig. 1 with the Moth redefined by the file (its other fields as printed)."""
    data = fig1()
    data["ships"] = {"moth": {"name": "Moth", "speed": 1, "health": 1, **fields}}
    return data


def text_with_moth(field: str, raw_number: str) -> str:
    """Fig. 1 whose Moth's ``field`` is ``raw_number`` written verbatim (e.g. 301 digits,
    which no Python float can carry through ``json.dumps``)."""
    return json.dumps(with_moth(**{field: 7})).replace(f'"{field}": 7', f'"{field}": {raw_number}')


def many_cards(count: int) -> dict[str, Any]:
    """``count`` asteroids that do not touch, on a grid around the origin."""
    data = fig1()
    data["cards"] = [
        {"id": f"rock{i}", "type": "asteroid", "x": i % 30 * 100, "y": i // 30 * 100}
        for i in range(count)
    ]
    return data


def heavy_table() -> dict[str, Any]:
    """The costliest table the limits allow, or close: 200 ships of 10 speeds and 20
    lasers each, firing across a crowded 3 m table (several seconds to resolve)."""
    lasers = [
        {"at": [-31.5 + 63 * i / 19, 44.0], "angle": (i * 37) % 360 - 180, "power": 1}
        for i in range(20)
    ]
    ship = {"name": "Big", "speed": list(range(1, 11)), "health": 100, "lasers": lasers}
    cards = [
        {
            "id": f"c{i}",
            "owner": ("red", "blue")[i % 2],
            "ship": "big",
            "x": i % 15 * 150,
            "y": i // 15 * 150,
            "rotation": i * 53 % 360,
        }
        for i in range(200)
    ]
    return {
        "ruleset": "lightspeed",
        "players": ["red", "blue"],
        "ships": {"big": ship},
        "cards": cards,
    }


def deep_nesting(depth: int = 100_000) -> str:
    """Arrays nested ``depth`` deep."""
    return "[" * depth + "]" * depth


#: Each hostile file of findings 1, 2 and 8, and a fragment of the one-line error that
#: must name its problem.
HOSTILE: dict[str, tuple[str, str]] = {
    "health 10**300": (text_with_moth("health", "1" + "0" * 300), "'health' must be"),
    "health 200000": (json.dumps(with_moth(health=200_000)), "'health' must be at most 100"),
    "8000 speeds": (json.dumps(with_moth(speed=list(range(8000)))), "8000 speeds"),
    "20000 lasers": (
        json.dumps(with_moth(lasers=[{"at": [0.0, 44.0], "power": 1}] * 20_000)),
        "'lasers' has 20000 entries",
    ),
    "1000 cards": (json.dumps(many_cards(1000)), "'cards' lists 1000 cards"),
    "deep nesting": (deep_nesting(), "nested more than 1024 deep"),
    "400-digit integer": (text_with_moth("health", "9" * 400), "a number too large"),
    "card_size 1e300": (
        json.dumps({**fig1(), "card_size": [1e300, 1e300]}),
        "card_size must lie within 1..1000",
    ),
}
