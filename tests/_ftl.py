"""Small builders for Faster Than Light tests: turn files written inline, resolved."""

from __future__ import annotations

import json
from typing import Any

from spacetable.games.ftl.turnfile import resolve_turn_file


def ship(piece_id: str, x: float, y: float, heading: float = 0, **extra: Any) -> dict[str, Any]:
    """A ship owned by the player of the same name (``"red"``, ``"blue"``)."""
    return {"id": piece_id, "kind": "ship", "owner": piece_id, "x": x, "y": y,
            "heading": heading, **extra}  # fmt: skip


def missile(piece_id: str, x: float, y: float, heading: float = 0) -> dict[str, Any]:
    """A missile owned by the player named before its ``-m`` (``"blue-m1"`` is blue's)."""
    owner = piece_id.rsplit("-m", 1)[0]
    return {"id": piece_id, "kind": "missile", "owner": owner, "x": x, "y": y, "heading": heading}


def turn(
    pieces: list[dict[str, Any]],
    orders: list[tuple[str, str]],
    players: tuple[str, ...] = ("red", "blue"),
    **top: Any,
) -> dict[str, Any]:
    """A turn file as a JSON object."""
    return {
        "ruleset": "ftl",
        "players": list(players),
        "pieces": pieces,
        "orders": [{"piece": p, "order": o} for p, o in orders],
        **top,
    }


def resolve(
    pieces: list[dict[str, Any]],
    orders: list[tuple[str, str]],
    players: tuple[str, ...] = ("red", "blue"),
    **top: Any,
) -> dict[str, Any]:
    """The ``resolve --json`` object of a turn written inline."""
    return resolve_turn_file(json.dumps(turn(pieces, orders, players, **top)))


def events(result: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    """The events of one type, in order."""
    return [e for e in result["events"] if e["type"] == kind]
