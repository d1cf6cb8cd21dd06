"""The lobby side of a room: watching, taking and leaving seats, seating bots, getting
ready, the host freeing a bot's seat, rematches asked and declined, and the seats players
went away from.

:class:`RoomLobby` is a mixin of :class:`~spacetable.server.rooms.Room`: its methods run on
the room's task like the rest of the room, with the room's state (declared below for the
type checker, set by ``Room.__init__``).
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from spacetable.games.stellar import RACES as STELLAR_RACES
from spacetable.i18n import N_
from spacetable.server import protocol as msg
from spacetable.server._chat import Chat
from spacetable.server._clock import RoomClock
from spacetable.server._connection import Connection
from spacetable.server._manners import Manners
from spacetable.server._room_bots import BotPlayers
from spacetable.server._room_match import RoomOptions, Timing
from spacetable.server._seats import Abandoned, Seat
from spacetable.server.live_store import token_digest


class RoomLobby:
    """The room's seat and lobby messages (``watch``, ``join``, ``rejoin``, ``leave``,
    ``seat_bot``, ``free_seat``, ``ready``, ``rematch``, ``decline_rematch``, ``ping``),
    closed sockets and abandoned seats."""

    # The room's state (rooms.py) that the lobby reads and changes.
    options: RoomOptions
    bots: BotPlayers
    timing: Timing
    seats: list[Seat]
    chat: Chat
    manners: Manners
    connections: set[Connection]
    phase: Literal["lobby", "playing", "over"]
    last_result: dict[str, Any] | None
    clock: RoomClock
    _idle_since: float

    if TYPE_CHECKING:
        # The room's methods the lobby calls (rooms.py, _room_bots.py).

        def submit(self, connection: Connection | None, message: Any) -> None: ...
        def _names(self, seat: Seat) -> list[str]: ...
        def _player(self, seat: Seat) -> str: ...
        def _start(self) -> None: ...
        def _room_message(self) -> dict[str, Any]: ...
        def broadcast_room(self, at_once: bool = False) -> None: ...
        def broadcast(self, message: dict[str, Any]) -> None: ...
        def _send_state(self, connection: Connection) -> None: ...
        def _check_idle_after(self, delay: float) -> None: ...

    def _on_lobby(self, connection: Connection, message: Any) -> None:
        if isinstance(message, msg.Ping):
            connection.send({"type": "pong"})
        elif isinstance(message, msg.Resync):
            self._send_state(connection)  # it missed a patch: the whole state again
        elif isinstance(message, msg.Watch):
            self.watch(connection)
        elif isinstance(message, msg.Join):
            self._join(connection, message)
        elif isinstance(message, msg.Rejoin):
            self._rejoin(connection, message.token, message.tab)
        elif isinstance(message, msg.Leave):
            self._leave(connection)
        elif isinstance(message, msg.SeatBot):
            self._seat_bot(connection, message)
        elif isinstance(message, msg.Ready):
            self._ready(connection, message.ready)
        elif isinstance(message, msg.Rematch):
            self._rematch(connection)
        elif isinstance(message, msg.DeclineRematch):
            self._decline_rematch(connection)
        elif isinstance(message, msg.FreeSeat):
            self._free_seat(connection, message.seat)
        elif isinstance(message, msg.ChooseRace):
            self._choose_race(connection, message.race)
        else:
            connection.send({"type": "error", "message": f"unexpected {message!r}"})

    def watch(self, connection: Connection, elsewhere: int | None = None) -> None:
        """The connection watches; ``elsewhere``: the seat it asked for, which another tab
        of the same player plays."""
        self._release(connection)
        self.connections.add(connection)
        welcome: dict[str, Any] = {
            "type": "welcome",
            "role": "spectator",
            "seat": None,
            "player": None,
            "token": None,
        }
        if elsewhere is not None:
            welcome["elsewhere"] = elsewhere
        connection.send(welcome)
        self.chat.send_history(connection)
        connection.send(self._room_message())
        self._send_state(connection)
        self.manners.send_to(connection)  # a draw offer waiting, players away (_manners.py)
        if self.phase == "over" and self.last_result is not None:
            connection.send(self.last_result)

    def _join(self, connection: Connection, message: msg.Join) -> None:
        if self.phase != "lobby":
            connection.error(N_("the match has started: watch, or wait for the next one"))
            return
        if connection.seat is not None:
            connection.error(N_("you already have a seat"))
            return
        free = [s for s in self.seats if s.kind == "empty"]
        if message.seat is not None:
            free = [s for s in free if s.index == message.seat]
        if not free:
            if message.seat is None:
                connection.error(N_("no free seat"))
            else:
                connection.error(N_("seat {seat} is taken"), seat=str(message.seat))
            return
        seat = free[0]
        seat.take("human", message.name.strip() or f"player {seat.index + 1}", self._names(seat))
        seat.token = secrets.token_hex(16)
        connection.tab = message.tab
        self._seat_connection(connection, seat)
        self._settle_host()
        self.broadcast_room()

    def _rejoin(self, connection: Connection, token: str, tab: str | None = None) -> None:
        seat = next(
            (s for s in self.seats if s.token == token and (s.kind == "human" or s.stand_in)),
            None,
        ) or self._rebuilt_seat(token)
        if seat is None:
            connection.error(N_("that seat is no longer yours"))
            self.watch(connection)
            return
        others = [c for c in seat.connections if c is not connection and not c.closed]
        if tab is not None and any(c.tab is not None and c.tab != tab for c in others):
            # The same player in a second tab: one tab plays, the others watch.
            self.watch(connection, elsewhere=seat.index)
            return
        connection.tab = tab
        if connection.seat != seat.index:
            self._release(connection)
        if seat.stand_in:
            self.bots.give_back(seat)
        self._seat_connection(connection, seat)
        self.broadcast_room()

    def _rebuilt_seat(self, token: str) -> Seat | None:
        """The seat of a room rebuilt from storage whose token's digest is ``token``'s:
        it holds the token again from now on."""
        digest = token_digest(token)
        for seat in self.seats:
            held = seat.kind == "human" or seat.stand_in
            if held and seat.token is None and seat.token_digest == digest:
                seat.token = token
                return seat
        return None

    def _seat_connection(self, connection: Connection, seat: Seat) -> None:
        self.connections.add(connection)
        connection.seat = seat.index
        seat.connections.add(connection)
        seat.cancel_abandon()
        connection.send(
            {
                "type": "welcome",
                "role": "player",
                "seat": seat.index,
                "player": self._player(seat),
                "token": seat.token,
            }
        )
        self.chat.send_history(connection)
        self._send_state(connection)
        self.manners.send_to(connection)  # a draw offer waiting, players away (_manners.py)
        if self.phase == "over" and self.last_result is not None:
            connection.send(self.last_result)

    def _unseat(self, connection: Connection) -> None:
        if connection.seat is not None:
            self.seats[connection.seat].connections.discard(connection)
            connection.seat = None

    def _release(self, connection: Connection) -> None:
        """The connection no longer plays for its seat (it closed, or watches now). A
        player's seat left without any connection starts the abandon timer, in every
        phase: when it runs out the seat is emptied (lobby) or a bot takes it (a match)."""
        if connection.seat is None:
            return
        seat = self.seats[connection.seat]
        self._unseat(connection)
        if seat.connections or seat.kind != "human":
            return
        seat.cancel_abandon()
        seat.absences += 1
        seat.abandon_timer = self.clock.after(
            self.timing.abandon_seconds, self.submit, None, Abandoned(seat.index, seat.absences)
        )
        self.manners.absence_began(seat)  # the others are told at once (_manners.py)
        self.broadcast_room()

    def _leave(self, connection: Connection) -> None:
        if connection.seat is None:
            return
        seat = self.seats[connection.seat]
        self._unseat(connection)
        for other in list(seat.connections):
            self._unseat(other)
        if self.phase == "lobby":
            seat.empty()
            self._settle_host()
        else:
            # A bot plays on; his token takes the seat back (rejoin).
            self.bots.take_over(seat, stand_in=True)
        self.broadcast_room()

    def _seat_bot(self, connection: Connection, message: msg.SeatBot) -> None:
        if connection.seat is None or self.phase != "lobby":
            connection.error(N_("take a seat first; bots join before the match"))
            return
        if not self.seats[connection.seat].host:
            # A guest filling the seat the host kept for a friend would take it from him.
            connection.error(N_("only the room's host can seat a bot"))
            return
        if not 0 <= message.seat < len(self.seats) or self.seats[message.seat].kind != "empty":
            connection.error(N_("seat {seat} is not empty"), seat=str(message.seat))
            return
        level = message.level or self.bots.kinds.default
        if level not in self.bots.kinds.levels:
            connection.error(
                N_("no {level} bot in {game}: choose one of {levels}"),
                level=repr(level),
                game=self.options.entry.rules.title,
                levels=", ".join(self.bots.kinds.levels),
            )
            return
        seat = self.seats[message.seat]
        # "easy bot", and "easy bot (2)" for a second of the level (unique_name): the seat
        # number glued to the level read as a level ("beginner bot 2").
        seat.take("bot", f"{level} bot", self._names(seat))
        seat.level = level
        self.broadcast_room()
        self._maybe_start()

    def _ready(self, connection: Connection, ready: bool) -> None:
        if connection.seat is None or self.phase != "lobby":
            connection.error(N_("only seated players in the lobby can get ready"))
            return
        self.seats[connection.seat].ready = ready
        self.broadcast_room()
        self._maybe_start()

    def _rematch(self, connection: Connection) -> None:
        if connection.seat is None or self.phase != "over":
            connection.error(N_("a rematch is asked for after a match"))
            return
        self.seats[connection.seat].rematch = True
        self.broadcast_room()  # the others see who asked, and answer
        self._maybe_rematch()

    def _decline_rematch(self, connection: Connection) -> None:
        """A player turns the rematch down: every ask is forgotten, and everyone is told
        who declined (the askers first of all)."""
        if connection.seat is None or self.phase != "over":
            connection.error(N_("only a seated player can decline a rematch"))
            return
        askers = [s for s in self.seats if s.rematch and s.index != connection.seat]
        if not askers:
            connection.error(N_("nobody asked for a rematch"))
            return
        for seat in self.seats:
            seat.rematch = False
        by = self._player(self.seats[connection.seat])
        self.broadcast(
            {
                "type": "rematch_declined",
                "by": by,
                "asked_by": [self._player(s) for s in askers],
            }
        )
        self.broadcast_room()

    def _settle_host(self) -> None:
        """Keep one host among the people seated: the first seated stays host while he
        sits; when he goes, the person in the lowest seat becomes host."""
        humans = [s for s in self.seats if s.kind == "human"]
        if any(s.host for s in humans):
            return
        for seat in self.seats:
            seat.host = False
        if humans:
            humans[0].host = True

    def _free_seat(self, connection: Connection, index: int) -> None:
        """The host takes a bot out of its seat before the match, for a friend to sit."""
        mine = None if connection.seat is None else self.seats[connection.seat]
        problem = None
        if mine is None or not mine.host or mine.kind != "human":
            problem = N_("only the room's host can free a seat")
        elif self.phase != "lobby":
            problem = N_("the match has started: seats are freed before it")
        elif not 0 <= index < len(self.seats):
            problem = N_("there is no seat {seat}")
        elif self.seats[index].kind != "bot":
            problem = N_("seat {seat} is not a bot's: only a bot's seat can be freed")
        if problem is not None:
            connection.error(problem, seat=str(index))
            return
        self.seats[index].empty()
        self.broadcast_room()

    def _choose_race(self, connection: Connection, race: str) -> None:
        """A seated player picks his own race before a Stellar Conflict match (the room's
        creator only set the first choice of every seat)."""
        races = list(self.options.game.get("races") or STELLAR_RACES[: self.options.seats])
        problem = None
        if self.options.ruleset != "stellar":
            problem = N_("only Stellar Conflict has races")
        elif connection.seat is None or self.phase != "lobby":
            problem = N_("only a seated player chooses his race, before the match")
        elif race not in STELLAR_RACES:
            problem = N_("there is no race {asked}: {races}")
        elif race in races and races.index(race) != connection.seat:
            problem = N_("seat {seat} plays {race}: every race's cards exist once")
        if problem is not None:
            seat = races.index(race) + 1 if race in races else 0
            races_known = ", ".join(STELLAR_RACES)
            connection.error(
                problem, race=race, asked=repr(race[:24]), races=races_known, seat=str(seat)
            )
            return
        assert connection.seat is not None
        races[connection.seat] = race
        self.options = replace(self.options, game={**self.options.game, "races": races})
        self.broadcast_room()

    def _maybe_rematch(self) -> None:
        """After a match: start the next once every player left at the table asked."""
        humans = [s for s in self.seats if s.kind == "human"]
        if self.phase == "over" and humans and all(s.rematch for s in humans):
            self._start()

    def _on_disconnect(self, connection: Connection) -> None:
        self.connections.discard(connection)
        self._release(connection)
        if not self.connections:
            self._idle_since = self.clock.now()
            self._check_idle_after(self.timing.room_idle_seconds)

    def _on_abandoned(self, message: Abandoned) -> None:
        seat = self.seats[message.seat]
        if seat.absences != message.absence or seat.connections or seat.kind != "human":
            return  # the player came back (perhaps to leave again later), or left for good
        seat.abandon_timer = None
        if self.phase == "lobby":
            seat.empty()  # nobody keeps a seat by opening a socket and closing it
            self._settle_host()
        else:
            self.bots.take_over(seat, stand_in=True)
        self.broadcast_room()
        self._maybe_rematch()  # the others may have asked for one already

    def _maybe_start(self) -> None:
        if self.phase != "lobby":
            return
        everyone = all(s.kind == "bot" or (s.kind == "human" and s.ready) for s in self.seats)
        if everyone and any(s.kind == "human" for s in self.seats):
            self._start()
