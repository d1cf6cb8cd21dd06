"""A logged-in player's correspondence matches over HTTP (issue 37 item 4;
docs/correspondence.md):

* ``GET /api/me/games``: ``{"name", "waiting": n, "games": [{"room", "ruleset", "game",
  "phase", "turn_hours", "deadline", "seconds_left", "waiting_on_you", "waiting_on",
  "players", "missed", "ran_out", "your_missed", "your_ran_out", "lose_at"}...]}``: the
  turns each player let run out in a row (how many, which), his own, and how many in a
  row lose; the matches waiting on him first (soonest deadline first),
  then the others; 401 without a session. Read from the stored rooms
  (``store/live_store.py``), so every process of a cluster answers alike.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from spacetable.i18n.phrase import refusal
from spacetable.registry import UnknownGame, game_for_ruleset
from spacetable.server.http.accounts import session_id_of
from spacetable.server.http.bodies import refused
from spacetable.server.http.deps import Accounts, Directory, TestClock
from spacetable.server.rooms.correspondence import TIMEOUTS_TO_LOSE
from spacetable.server.store.live_store import LiveRoom, LiveStore


def _entry(room: LiveRoom, account: str, now: float) -> dict[str, Any]:
    """One stored room as the list gives it, for the account (a name's key)."""
    about = (room.extras or {}).get("correspondence") or {}
    seats = [s for s in room.seats if s.get("kind") != "empty"]
    mine = next((s for s in seats if s.get("account") == account), None)
    waiting = [str(p) for p in about.get("waiting") or ()] if room.phase == "playing" else []
    deadline = about.get("deadline") if waiting else None
    missed: dict[str, int] = about.get("missed") or {}
    ran_out: dict[str, list[int]] = about.get("ran_out") or {}
    me = None if mine is None else str(mine.get("name"))
    try:
        title = game_for_ruleset(room.ruleset).rules.title
    except UnknownGame:
        title = room.ruleset
    return {
        "room": room.id,
        "ruleset": room.ruleset,
        "game": title,
        "phase": room.phase,
        "turn_hours": room.game.get("turn_hours"),
        "deadline": deadline,
        "seconds_left": None if deadline is None else round(max(0.0, deadline - now)),
        "waiting_on_you": mine is not None and mine.get("name") in waiting,
        "waiting_on": waiting,
        "players": [str(s.get("name")) for s in seats],
        "missed": missed,
        "ran_out": ran_out,
        "your_missed": int(missed.get(me, 0)) if me else 0,
        "your_ran_out": list(ran_out.get(me, ())) if me else [],
        "lose_at": TIMEOUTS_TO_LOSE,
    }


def my_games(live: LiveStore, account: str, now: float) -> list[dict[str, Any]]:
    """The account's unfinished correspondence matches, those waiting on him first."""
    found = [_entry(room, account, now) for room in live.correspondence(account)]
    far = float("inf")
    found.sort(
        key=lambda g: (not g["waiting_on_you"], g["deadline"] or far, g["room"]),
    )
    return found


#: ``GET /api/me/games``: the logged-in player's correspondence matches; the time left
#: read from the rooms' test clock, if the server has one.
router = APIRouter()


@router.get("/api/me/games", response_model=None)
async def mine(
    request: Request, accounts: Accounts, directory: Directory, clock: TestClock
) -> dict[str, Any] | JSONResponse:
    account = await asyncio.to_thread(accounts.session_account, session_id_of(request))
    if account is None:
        return refused(refusal("log in to see your games"), 401)
    now = clock.wall() if clock is not None else time.time()
    live = directory.live
    games = [] if live is None else await asyncio.to_thread(my_games, live, account.key, now)
    waiting = sum(1 for g in games if g["waiting_on_you"])
    return {"name": account.name, "waiting": waiting, "games": games}
