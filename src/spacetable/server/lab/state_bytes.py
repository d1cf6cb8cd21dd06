"""What a match's states cost to send: ``spacetable bench --state-bytes``.

Plays one seeded match of a game in an in-process room whose seats are all bots, on a
clock moved by hand (as fast as the machine goes, the same match every time), with sockets
listening as each seat's player and as spectators: for every view one that gets each state
whole (what every socket got before ``state_patch``) and one that takes patches
(``sockets/state_patch.py``), and a crowd of spectators that take patches (or, with
``full_states``, do not, nor any other socket: the room then sends as before patches, and
its time spent sending is the old one). It reports the bytes each socket received per action of the
match (``state`` and ``state_patch`` frames, and all frames), and the time the room spent
sending states. With ``check``, each patched socket rebuilds its states from the patches
and every one is compared with the whole state its twin got from the same broadcast.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from spacetable.registry import games
from spacetable.server.http.rooms import room_options
from spacetable.server.rooms.clock import HandClock
from spacetable.server.rooms.room import Room, Timing
from spacetable.server.sockets.connection import Connection, frame_payload
from spacetable.server.sockets.protocol import parse_client_message
from spacetable.server.store.save_queue import SaveQueue
from spacetable.server.store.storage import Storage

#: The match each game plays, by its key: four seats (the headline is the hex fleet's
#: 4-player battle), as each game's registry entry gives it (``Game.bench_room``).
GAME_BODIES: dict[str, dict[str, Any]] = {
    entry.rules.key: dict(entry.bench_room) for entry in games() if entry.bench_room is not None
}
#: Match seconds a measured match may last before it is cut short.
MAX_MATCH_SECONDS = 3600.0
#: How far the clock moves at each step of a measured match.
STEP_SECONDS = 0.25
_STATE_PREFIXES = (b'{"type":"state"', b'{"type":"state_patch"')


class Probe:
    """A socket of the measured room: it counts the bytes it receives and, when it keeps
    them, decodes its states (``states``: each whole, rebuilt from patches if it takes them,
    with the patches applied by ``apply``)."""

    def __init__(
        self,
        room: Room,
        *,
        patches: bool,
        keep: bool = False,
        apply: Callable[[Any, list[dict[str, Any]]], Any] | None = None,
    ) -> None:
        self.all_bytes = 0
        self.state_bytes = 0
        self.states: list[dict[str, Any]] = []
        #: When kept: every ``state`` and ``state_patch`` message as it came.
        self.raw: list[dict[str, Any]] = []
        self.gaps = 0
        self._keep = keep
        self._apply = apply or apply_patch
        self.connection = Connection(self._write, patches=patches)
        self.room = room
        room.connect(self.connection)

    def _write(self, frame: bytes) -> bool:
        self.all_bytes += len(frame)
        # Where the payload starts (text_frame's header: 2, 4 or 10 bytes), read in place:
        # a crowd of probes must not cost the room more than sockets would.
        start = {126: 4, 127: 10}.get(frame[1] & 0x7F, 2)
        if frame.startswith(_STATE_PREFIXES, start):
            self.state_bytes += len(frame)
            if self._keep:
                self.raw.append(orjson.loads(frame_payload(frame)))
                self._took(orjson.loads(frame_payload(frame)))
        return True

    def _took(self, message: dict[str, Any]) -> None:
        if message["type"] == "state":
            self.states.append(message)
            return
        last = self.states[-1] if self.states else None
        if last is None or last.get("seq") != message["from"]:
            self.gaps += 1
            return
        rebuilt = self._apply(orjson.loads(orjson.dumps(last)), message["patch"])
        rebuilt["seq"] = message["to"]
        self.states.append(rebuilt)

    def send(self, **message: Any) -> None:
        """Send a client message, parsed as the server parses a socket's."""
        self.room.submit(self.connection, parse_client_message(orjson.dumps(message)))


def apply_patch(doc: Any, patch: list[dict[str, Any]]) -> Any:
    """Apply an RFC 6902 patch of ``add``, ``remove`` and ``replace`` operations (what
    ``state_patch`` carries) to ``doc``, in place where it can; the patched document."""
    for op in patch:
        if op["path"] == "":
            doc = op["value"]
            continue
        *parents, last = (
            t.replace("~1", "/").replace("~0", "~") for t in op["path"][1:].split("/")
        )
        target = doc
        for token in parents:
            target = target[int(token)] if isinstance(target, list) else target[token]
        if isinstance(target, list):
            if op["op"] == "add":
                target.append(op["value"]) if last == "-" else target.insert(int(last), op["value"])
            elif op["op"] == "remove":
                del target[int(last)]
            else:
                target[int(last)] = op["value"]
        elif op["op"] == "remove":
            del target[last]
        else:
            target[last] = op["value"]
    return doc


def _per(value: float, actions: int) -> float:
    return round(value / max(actions, 1), 1)


def measure_game(
    game: str,
    *,
    body: dict[str, Any] | None = None,
    spectators: int = 100,
    seed: int = 1,
    full_states: bool = False,
    check: bool = False,
    apply: Callable[[Any, list[dict[str, Any]]], Any] | None = None,
) -> dict[str, Any]:
    """Play one seeded bot match of ``game`` (a key of :data:`GAME_BODIES`) with
    ``spectators`` more spectators (``body``: another room than the game's in
    :data:`GAME_BODIES`), and what each kind of socket received per action; with ``check``,
    the patched sockets' states compared with the whole ones (and the probes, for a test:
    ``probes``)."""
    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(
            _measure(
                body or GAME_BODIES[game], Path(folder), spectators, seed, full_states, check, apply
            )
        )


async def _measure(
    body: dict[str, Any],
    folder: Path,
    spectators: int,
    seed: int,
    full_states: bool,
    check: bool,
    apply: Callable[[Any, list[dict[str, Any]]], Any] | None,
) -> dict[str, Any]:
    saves = SaveQueue(Storage(f"sqlite:///{folder / 'matches.db'}"))
    clock = HandClock()
    room = Room("bench", room_options(body), saves, Timing(), clock=clock, seed=seed)
    try:
        host = Probe(room, patches=False)
        host.send(type="join", name="host")
        for seat in range(1, body["seats"]):
            host.send(type="bot", seat=seat)
        views: list[int | None] = [None, *range(body["seats"])]
        whole = [Probe(room, patches=False, keep=check) for _ in views]
        patched = [Probe(room, patches=not full_states, keep=check, apply=apply) for _ in views]
        crowd = [Probe(room, patches=not full_states) for _ in range(spectators)]
        await clock.advance(0, room)
        for view, a, b in zip(views, whole, patched, strict=True):
            # Each listens as that seat's player (the bots play; nobody acts on its socket).
            a.connection.seat = view
            b.connection.seat = view
        host.send(type="ready", ready=True)
        await clock.advance(0, room)
        match = room.match
        assert match is not None, "the match did not start"
        host.send(type="leave")  # a bot stands in: every seat is played by a bot
        began = clock.now()
        while room.phase != "over" and clock.now() - began < MAX_MATCH_SECONDS:
            await clock.advance(STEP_SECONDS, room)
        actions = match.version
        report: dict[str, Any] = {
            "game": body["ruleset"],
            "actions": actions,
            "over": room.phase == "over",
            "broadcast_ms_per_action": round(room.news.states.seconds * 1000 / max(actions, 1), 3),
        }
        for name, probes in (("whole", whole), ("patched", patched)):
            report[f"{name}_spectator"] = _per(probes[0].state_bytes, actions)
            report[f"{name}_player"] = _per(
                sum(p.state_bytes for p in probes[1:]) / (len(probes) - 1), actions
            )
            report[f"{name}_spectator_all"] = _per(probes[0].all_bytes, actions)
        report["crowd_state_bytes_per_action"] = _per(sum(p.state_bytes for p in crowd), actions)
        if check:
            report["checked_states"], report["mismatches"], report["gaps"] = _compare(
                whole, patched
            )
            report["probes"] = {"whole": whole, "patched": patched}
        return report
    finally:
        await room.close()
        saves.close()


def _compare(whole: list[Probe], patched: list[Probe]) -> tuple[int, int, int]:
    """How many states the patched sockets rebuilt, how many differ from their twins',
    and how many patches found a gap."""
    checked = mismatches = gaps = 0
    for a, b in zip(whole, patched, strict=True):
        gaps += b.gaps
        if len(a.states) != len(b.states):
            mismatches += abs(len(a.states) - len(b.states))
        for one, other in zip(a.states, b.states, strict=False):
            checked += 1
            mismatches += one != other
    return checked, mismatches, gaps


def _kib(value: float) -> str:
    return f"{value / 1024:,.1f}"


def table_lines(
    reports: list[dict[str, Any]], spectators: int, full_states: bool = False
) -> list[str]:
    """The reports of :func:`measure_game` as a table: KiB of states per action, whole
    (before patches) and patched, for a spectator, a player and the crowd of spectators."""
    said = "whole -> whole: --full-states" if full_states else "whole -> patched"
    lines = [
        f"KiB of match states per action, per socket ({said}):",
        f"{'game':11} {'actions':>7}  {'spectator':>17}  {'player':>17}  "
        f"{f'{spectators} spectators':>21}  {'ratio':>5}  {'send ms':>7}",
    ]
    for r in reports:
        before, after = r["whole_spectator"], r["patched_spectator"]
        crowd_before = before * spectators
        lines.append(
            f"{r['game']:11} {r['actions']:>7}  "
            f"{_kib(before):>7} -> {_kib(after):>6}  "
            f"{_kib(r['whole_player']):>7} -> {_kib(r['patched_player']):>6}  "
            f"{_kib(crowd_before):>9} -> {_kib(r['crowd_state_bytes_per_action']):>8}  "
            f"{before / max(after, 1):>5.1f}  {r['broadcast_ms_per_action']:>7.2f}"
        )
    lines.append(
        "send ms: the room's time spent encoding and sending states, per action "
        "(the views' states computed included)."
    )
    return lines
