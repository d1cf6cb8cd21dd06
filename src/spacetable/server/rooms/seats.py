"""A room's seats, and the names players are known by in a match.

A :class:`Seat` is changed only by its own methods: the room's parts (the lobby, the bots,
the manners, the farewells, the lookups) ask it to seat someone, to count an absence, to
let a bot stand in, and never assign its fields (``tests/server/rooms/test_seat_owner.py``
holds them to it). The seat knows what goes with what (a person gets a fresh token; a bot
standing in keeps his token and name; an empty seat forgets everything), so no part can
leave one half changed.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, Literal

from spacetable.bots import Bot
from spacetable.server.rooms.clock import RoomClock, Timer
from spacetable.server.sockets.connection import Connection
from spacetable.server.store.storage import secret_digest

#: The longest seat name, as ``join`` allows it (docs/protocol.md).
NAME_MAX = 24


def unique_name(wanted: str, taken: Collection[str]) -> str:
    """``wanted`` if no other seat goes by it, else the first of ``wanted (2)``,
    ``wanted (3)``... that is free, shortened to fit :data:`NAME_MAX`. The match keys its
    players by these names, so two seats must never share one, whatever they asked for
    (``x``, ``x`` and ``x (2)``, joining in that order, are ``x``, ``x (2)`` and
    ``x (2) (2)``)."""
    if wanted not in taken:
        return wanted
    number = 2
    while True:
        suffix = f" ({number})"
        name = wanted[: NAME_MAX - len(suffix)].rstrip() + suffix
        if name not in taken:
            return name
        number += 1


@dataclass(frozen=True, slots=True)
class Abandoned:
    """The abandon timer of a seat's ``absence`` ran out (posted into the room's queue)."""

    seat: int
    absence: int


@dataclass(slots=True)
class Seat:
    """A place at the table: empty, a person (held by ``token``) or a bot.

    A bot that took over from a player who went away (``stand_in``) keeps the player's
    ``token`` and name: the player takes the seat back by sending ``rejoin`` with it."""

    index: int
    kind: Literal["empty", "human", "bot"] = "empty"
    name: str = ""
    level: str | None = None
    token: str | None = None
    #: The token's digest, for a seat rebuilt from storage (which never keeps tokens):
    #: the player's ``rejoin`` with the token matching it restores the token.
    token_digest: str | None = None
    ready: bool = False
    rematch: bool = False
    #: The room's host: the first person seated (then, when he goes, the next seated);
    #: he may free a bot's seat for a friend before the match.
    host: bool = False
    connections: set[Connection] = field(default_factory=set)
    bot: Bot[Any] | None = None
    stand_in: bool = False
    #: The account that holds the seat (its name's key: ``store/accounts.py``), or
    #: ``None``: a guest or a bot. A player's seat follows his account to any device.
    account: str | None = None
    #: That account's rating in the room's game when he sat down (``rating``,
    #: ``provisional``; ``None``: not rated yet), shown beside his name.
    rating: dict[str, Any] | None = None
    #: Whether that account is a bot account (issue 72: a program playing through the bot
    #: API, ``store/bots.py``): its seat says BOT.
    bot_account: bool = False
    #: Counts the times the seat lost its last connection: an abandon timer started for an
    #: earlier absence is stale.
    absences: int = 0
    #: The abandon timer of the current absence, if it runs.
    abandon_timer: Timer | None = None

    def to_json(self) -> dict[str, Any]:
        """The seat as shown to everyone (never the token)."""
        return {
            "seat": self.index,
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "connected": self.kind == "bot" or bool(self.connections),
            "ready": self.ready or self.kind == "bot",
            "stand_in": self.stand_in,
            "rematch": self.rematch,
            "host": self.host and self.kind == "human",
            "registered": self.account is not None,
            "rating": self.rating if self.account is not None else None,
            "bot_account": self.bot_account and self.account is not None,
        }

    def snapshot(self) -> dict[str, Any]:
        """The seat as the room's stored row keeps it: never its token, only the token's
        digest (a rebuilt seat is taken back by the player whose token matches it)."""
        digest = secret_digest(self.token) if self.token is not None else self.token_digest
        return {
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "token_digest": digest,
            "ready": self.ready,
            "rematch": self.rematch,
            "host": self.host,
            "stand_in": self.stand_in,
            "account": self.account,
            "rating": self.rating,
            "bot_account": self.bot_account,
        }

    def restore(self, data: dict[str, Any]) -> None:
        """Take back what :meth:`snapshot` gave (a room rebuilt from storage). Raises
        ValueError for a seat of no known kind."""
        kind = data["kind"]
        if kind not in ("empty", "human", "bot"):
            raise ValueError(f"unknown seat kind {kind!r}")
        self.kind = kind
        self.name = str(data["name"])
        self.level = data.get("level")
        self.token_digest = data.get("token_digest")
        self.ready = bool(data.get("ready"))
        self.rematch = bool(data.get("rematch"))
        self.host = bool(data.get("host"))
        self.stand_in = bool(data.get("stand_in"))
        account = data.get("account")
        self.account = account if isinstance(account, str) else None
        rating = data.get("rating")
        self.rating = rating if isinstance(rating, dict) else None
        self.bot_account = bool(data.get("bot_account")) and self.account is not None

    def take(self, kind: Literal["human", "bot"], name: str, others: Collection[str]) -> None:
        """Seat a person or a bot under ``name``, made unique among the ``others``'
        names."""
        self.kind, self.name = kind, unique_name(name, others)
        self.ready = self.rematch = self.stand_in = False
        self.bot = None
        self.account = self.rating = None
        self.bot_account = False

    def seat_person(
        self,
        name: str,
        others: Collection[str],
        *,
        account: str | None = None,
        rating: dict[str, Any] | None = None,
        bot_account: bool = False,
    ) -> str:
        """Seat a person under ``name`` (made unique among the ``others``' names), held by
        a fresh token, which it returns; ``account``: the account key whose seat it is
        (``None``: a guest's), with his ``rating`` in the room's game; ``bot_account``:
        that account is a bot account (its seat says BOT)."""
        self.take("human", name, others)
        self.account, self.rating = account, rating
        self.bot_account = bot_account and account is not None
        self.token = secrets.token_hex(16)
        return self.token

    def seat_bot(self, level: str, others: Collection[str]) -> None:
        """Seat a bot of ``level`` (named ``<level> bot``, made unique among the
        ``others``' names: "easy bot (2)" for a second of the level)."""
        self.take("bot", f"{level} bot", others)
        self.level = level

    def reclaim(self, token: str) -> bool:
        """Whether ``token`` is this rebuilt seat's (its digest matches the stored one):
        the seat holds the token again from now on (storage keeps only digests)."""
        held = self.kind == "human" or self.stand_in
        if held and self.token is None and self.token_digest == secret_digest(token):
            self.token = token
            return True
        return False

    def connect(self, connection: Connection) -> None:
        """``connection`` plays for this seat: an absence (its abandon timer) is over."""
        self.connections.add(connection)
        self.cancel_abandon()

    def disconnect(self, connection: Connection) -> None:
        """``connection`` no longer plays for this seat."""
        self.connections.discard(connection)

    def let_go(self) -> list[Connection]:
        """No connection plays for this seat any more: the ones that did (they watch now,
        or close)."""
        gone = list(self.connections)
        self.connections.clear()
        return gone

    def set_ready(self, ready: bool) -> None:
        """The player is ready for the match (or no longer is)."""
        self.ready = ready

    def ask_rematch(self) -> None:
        """The player asks for a rematch."""
        self.rematch = True

    def forget_rematch(self) -> None:
        """No rematch asked for from this seat (a match began, or someone declined)."""
        self.rematch = False

    def set_host(self, host: bool) -> None:
        """The seat's person is (or no longer is) the room's host."""
        self.host = host

    def show_rating(self, rating: dict[str, Any] | None) -> None:
        """The seat's account's rating is now ``rating`` (read after a match)."""
        self.rating = rating

    def give_bot(self, bot: Bot[Any] | None) -> None:
        """The bot player that chooses this seat's actions (``None``: none yet)."""
        self.bot = bot

    def bot_takes_over(self, level: str, *, stand_in: bool, bot: Bot[Any] | None) -> None:
        """A bot of ``level`` plays for the seat's player: until he takes it back with his
        token (``stand_in``), or for good (he left: his token no longer holds it). ``bot``:
        its player, if a match is on."""
        self.cancel_abandon()
        self.kind, self.level, self.stand_in = "bot", level, stand_in
        if not stand_in:
            self.token = None
        if bot is not None:
            self.bot = bot

    def person_back(self) -> None:
        """The player is back: the bot standing in for him stops."""
        self.kind, self.level, self.stand_in, self.bot = "human", None, False, None

    def nobodys(self) -> None:
        """The bot playing this seat plays on for nobody (its account left the room for
        good): no token, account or rating holds it any more."""
        self.token = self.token_digest = None
        self.account = self.rating = None
        self.bot_account = self.stand_in = False

    def empty(self, *, keep_name: bool = False) -> None:
        """Nobody sits here any more; ``keep_name``: the board of a match just over still
        names the side by it."""
        self.cancel_abandon()
        name = self.name if keep_name else ""
        self.kind, self.name, self.level, self.token = "empty", name, None, None
        self.token_digest = self.account = self.rating = None
        self.ready = self.rematch = self.stand_in = self.host = self.bot_account = False
        self.bot = None

    def went_away(
        self,
        clock: RoomClock,
        submit: Callable[[Connection | None, Abandoned], object],
        seconds: float,
    ) -> None:
        """The player's last connection went (or a rebuilt room waits for him): a new
        absence begins, whose abandon timer runs out ``seconds`` from now
        (:meth:`start_abandon`)."""
        self.absences += 1
        self.start_abandon(clock, submit, seconds)

    def start_abandon(
        self,
        clock: RoomClock,
        submit: Callable[[Connection | None, Abandoned], object],
        seconds: float,
    ) -> None:
        """Start (again) the current absence's abandon timer: ``seconds`` from now the
        room is posted :class:`Abandoned` for it (``submit``), unless the player is back.
        The only place the timer is armed (:meth:`cancel_abandon` the only one it stops)."""
        self.cancel_abandon()
        absence = Abandoned(self.index, self.absences)
        self.abandon_timer = clock.after(seconds, submit, None, absence)

    def cancel_abandon(self) -> None:
        """Stop the abandon timer, if it runs (the player is back, or gone for good)."""
        if self.abandon_timer is not None:
            self.abandon_timer.cancel()
            self.abandon_timer = None
