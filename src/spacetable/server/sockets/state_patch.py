"""Send each socket what changed in the match since the ``state`` it has (issue 21 item 5).

A room sends a ``state`` after every action, and a hex fleet state is up to 190 KiB: every
ship, the active ship's reach and aim, and the battle's whole log again. A socket that asked
for patches (the room page does: ``/ws/rooms/{id}?patches=1``) gets a full ``state`` when it
joins, reconnects, changes seat or asks (``resync``), and after that ``state_patch``
messages: ``{"type": "state_patch", "from": 7, "to": 8, "patch": [...]}``, where ``patch``
is an RFC 6902 JSON Patch (``add``, ``remove`` and ``replace`` only) that turns the state
numbered ``from`` into the state numbered ``to``. Every state a socket gets carries its
number (``seq``, counted per room); a client whose number is not ``from`` missed one and
asks for a full state again.

The diff is written here rather than taken from a JSON Patch library because it must know
what a state is made of to stay small and cheap: a list that only grew (a battle's log)
sends only its new entries (``add`` at ``/-``), and a list or object whose changes would
take more bytes than the thing itself is replaced whole. It runs on plain JSON (what
orjson reads back), so its patches apply with any RFC 6902 implementation (the tests check
them with the ``jsonpatch`` package, the pages apply them with ``shell/statepatch.js``).

The cost stays per view, not per socket: a state is encoded once for each distinct view
(each seat's player, and the spectators), and a patch computed once for each view and
state the sockets of that view have (usually one: they all got the last one).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

import orjson

from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.server_messages import wire
from spacetable.server.sockets.connection import Connection, encode, text_frame

#: Containers whose diff holds at least this many operations are compared, in bytes, with
#: replacing them whole (fewer are always smaller than the container's own text).
_WEIGH_FROM = 4


def _escape(key: str) -> str:
    """A key as one JSON Pointer token (RFC 6901: ``~`` is ``~0``, ``/`` is ``~1``)."""
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


def diff(old: Any, new: Any) -> list[dict[str, Any]]:
    """The RFC 6902 JSON Patch that turns the JSON value ``old`` into ``new`` (plain JSON:
    dicts, lists, strings, numbers, booleans, None). Empty when they are equal."""
    ops: list[dict[str, Any]] = []
    _diff(old, new, "", ops)
    return ops


def _diff(old: Any, new: Any, path: str, ops: list[dict[str, Any]]) -> None:
    # ``type`` is compared first: in Python 1 == 1.0 == True, in JSON they differ.
    if type(old) is not type(new):
        ops.append({"op": "replace", "path": path, "value": new})
    elif isinstance(new, dict):
        if old != new:
            _weigh(new, path, ops, _dict_ops(old, new, path))
    elif isinstance(new, list):
        if old != new:
            _list_diff(old, new, path, ops)
    elif old != new:
        ops.append({"op": "replace", "path": path, "value": new})


def _dict_ops(old: dict[str, Any], new: dict[str, Any], path: str) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = []
    for key in old:
        if key not in new:
            ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
    for key, value in new.items():
        where = f"{path}/{_escape(key)}"
        if key in old:
            _diff(old[key], value, where, ops)
        else:
            ops.append({"op": "add", "path": where, "value": value})
    return ops


def _list_diff(old: list[Any], new: list[Any], path: str, ops: list[dict[str, Any]]) -> None:
    kept = len(old)
    if len(new) >= kept and new[:kept] == old:  # it only grew (a log): send the new entries
        ops.extend({"op": "add", "path": f"{path}/-", "value": v} for v in new[kept:])
        return
    common = min(kept, len(new))
    if common >= _WEIGH_FROM and _kept(old, new) * 4 < common:
        # Hardly an entry kept its place (the reach of a ship that moved): replace it whole
        # rather than look for the few fields that happen to be the same.
        ops.append({"op": "replace", "path": path, "value": new})
        return
    sub: list[dict[str, Any]] = []
    for i in range(common):
        _diff(old[i], new[i], f"{path}/{i}", sub)
    sub.extend({"op": "add", "path": f"{path}/-", "value": v} for v in new[kept:])
    # Shorter: remove from the end, so that each index is still the one meant.
    sub.extend({"op": "remove", "path": f"{path}/{i}"} for i in range(kept - 1, len(new) - 1, -1))
    _weigh(new, path, ops, sub)


def _kept(old: list[Any], new: list[Any]) -> int:
    """How many entries of ``new`` are the same as ``old``'s at the same place."""
    return sum(a == b for a, b in zip(old, new, strict=False))


def _weigh(new: Any, path: str, ops: list[dict[str, Any]], sub: list[dict[str, Any]]) -> None:
    """Add ``sub`` (the changes inside ``new``) to ``ops``, or one ``replace`` of the whole
    of ``new`` if that is shorter."""
    if len(sub) >= _WEIGH_FROM and len(encode(sub)) >= len(encode(new)) + len(path) + 30:
        ops.append({"op": "replace", "path": path, "value": new})
    else:
        ops.extend(sub)


def state_frame(encoded: bytes, seq: int) -> bytes:
    """The frame of a full ``state`` (``encoded``: its JSON object's text) numbered ``seq``."""
    return text_frame(b'%s,"seq":%d}' % (encoded[:-1], seq))


def patch_message(base_seq: int, seq: int, patch: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``state_patch`` message from the state numbered ``base_seq`` to ``seq``."""
    return wire(to_page.StatePatch(base_seq, seq, patch))


class StateSender:
    """A room's states on their way to its sockets: numbered, encoded once per view, and
    sent whole or as a patch from what each socket has (:class:`Connection`'s ``patches``,
    ``state_seq`` and ``state_base``)."""

    def __init__(self) -> None:
        #: The number of the last state made for anyone in the room.
        self.seq = 0
        #: Seconds spent in :meth:`broadcast` (what ``bench --state-bytes`` reports).
        self.seconds = 0.0

    def send(self, connection: Connection, state: dict[str, Any]) -> None:
        """Send ``connection`` the whole of ``state`` (on joining, on request)."""
        self.seq += 1
        encoded = encode(state)
        connection.send_frame(state_frame(encoded, self.seq))
        connection.state_seq = self.seq
        connection.state_base = orjson.loads(encoded) if connection.patches else None

    def broadcast(
        self,
        connections: Iterable[Connection],
        view_of: Callable[[Connection], str | None],
        state_of: Callable[[str | None], dict[str, Any]],
    ) -> None:
        """Send every connection the state of its view (``view_of``: its player, ``None``
        for a spectator; ``state_of``: that view's ``state`` message), whole to a socket
        that takes no patches or has none yet, else the patch from the state it has (or the
        whole state, when that is shorter)."""
        began = time.perf_counter()
        self.seq += 1
        views: dict[str | None, _View] = {}
        # A patch is made once per view and state the sockets of that view have.
        frames: dict[tuple[str | None, int, int], bytes] = {}
        for connection in connections:
            player = view_of(connection)
            view = views.get(player)
            if view is None:
                view = views[player] = _View(encode(state_of(player)))
            base_seq = connection.state_seq
            if not connection.patches or base_seq is None:
                base_seq = -1
            key = (player, base_seq, id(connection.state_base))
            frame = frames.get(key)
            if frame is None:
                frame = frames[key] = self._frame(view, base_seq, connection.state_base)
            connection.send_frame(frame)
            connection.state_seq = self.seq
            connection.state_base = view.plain() if connection.patches else None
        self.seconds += time.perf_counter() - began

    def _frame(self, view: _View, base_seq: int, base: Any) -> bytes:
        """The frame that brings a socket holding ``base`` (numbered ``base_seq``; -1: none
        it can patch) to the state of ``view``: a patch when shorter."""
        if base_seq >= 0:
            patch = encode(patch_message(base_seq, self.seq, diff(base, view.plain())))
            if len(patch) < len(view.encoded):
                return text_frame(patch)
        return state_frame(view.encoded, self.seq)


class _View:
    """One view's state in a broadcast: its JSON text, and the plain JSON it reads back
    as (made only if a socket of the view takes patches: the base of its next patch)."""

    __slots__ = ("_plain", "encoded")

    def __init__(self, encoded: bytes) -> None:
        self.encoded = encoded
        self._plain: Any = None

    def plain(self) -> Any:
        """The state as plain JSON (read back from its text: lists for tuples, numbers
        for numpy's, and nothing shared with the match, which goes on changing)."""
        if self._plain is None:
            self._plain = orjson.loads(self.encoded)
        return self._plain
