"""The lobby side of a room: watching, taking and leaving seats, seating bots, getting
ready, the host freeing a bot's seat, rematches asked and declined, and the seats players
went away from.

:class:`Lobby` is a part of a :class:`~spacetable.server.rooms.room.Room`, run on the room's
task like the rest of it, that sees the room through a :class:`LobbyRoom` (the
:class:`~spacetable.server.rooms.context.RoomContext`, and what the lobby asks of the
room: its options, its match begun, its room and state sent). It tells the room's chat,
manners and bots, parts it is given, of a socket joining or a seat changing hands.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any, Protocol

from spacetable.i18n import N_
from spacetable.registry import SeatChoice, games
from spacetable.registry.messages import ChoiceMessage
from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.bots import BotPlayers
from spacetable.server.rooms.chat import Chat
from spacetable.server.rooms.context import Handler, RoomContext
from spacetable.server.rooms.lookups import VettedJoin, asked_name
from spacetable.server.rooms.manners import Manners
from spacetable.server.rooms.match import RoomOptions
from spacetable.server.rooms.seats import NAME_MAX, Abandoned, Seat
from spacetable.server.sockets import protocol as msg
from spacetable.server.sockets.connection import Connection
from spacetable.server.store.accounts import name_key

log = logging.getLogger("spacetable.rooms")


@dataclass(frozen=True, slots=True)
class IdleCheck:
    """Has anyone connected since ``since``? (Posted into the room's queue.)"""

    since: float


@dataclass(frozen=True, slots=True)
class Disconnected:
    """A socket closed (posted into the room's queue, from its socket)."""


@dataclass(frozen=True, slots=True)
class Arrived:
    """A socket of a registered player opened (his session's account): he takes back
    his account's seat, or watches (posted into the room's queue, from its socket)."""


@dataclass(frozen=True, slots=True)
class GivenSeat:
    """A player a room is made for (a pairing or an accepted challenge, issue 69): his
    ``name``, his ``account`` key (``None``: a guest), his ``rating`` in the game and
    whether the account is a bot account (``bot_account``, issue 72)."""

    name: str
    account: str | None = None
    rating: dict[str, Any] | None = None
    bot_account: bool = False


class LobbyRoom(RoomContext, Protocol):
    """The room as its lobby sees it: the context, and what the lobby asks of it."""

    #: What the room plays (a player's choice for his seat changes it, in the lobby).
    options: RoomOptions

    @property
    def last_result(self) -> dict[str, Any] | None:
        """The ``result`` of the match last over (a socket arriving after it hears it)."""
        ...

    def start(self) -> None:
        """Begin a match with the seats as they are."""
        ...

    def room_message(self) -> dict[str, Any]:
        """The ``room`` message: the seats, the phase, the options."""
        ...

    def broadcast_room(self, at_once: bool = False) -> None:
        """The seats changed: everyone hears of the room again."""
        ...

    def send_state(self, connection: Connection) -> None:
        """Send ``connection`` the match as its seat (or a spectator) sees it."""
        ...

    def queued(self) -> bool:
        """Whether messages wait in the room's queue."""
        ...

    def expire(self) -> None:
        """The room closes in this process."""
        ...

    #: Whether the room may wait in storage when idle (a correspondence room's).
    may_put_away: bool

    def put_away(self) -> None:
        """The room closes in this process and waits in storage."""
        ...


def _declared(message: ChoiceMessage) -> SeatChoice:
    """The seat choice a registered game makes with ``message``."""
    return next(
        choice
        for entry in games()
        for choice in entry.seat_choices
        if isinstance(message, choice.message)
    )


def _sent(connection: Connection | None) -> Connection:
    assert connection is not None, "a socket's message"
    return connection


class Lobby:
    """The room's seat and lobby messages (``watch``, ``join``, ``rejoin``, ``leave``,
    ``seat_bot``, ``free_seat``, ``ready``, ``rematch``, ``decline_rematch``, ``ping``,
    ``resync``, and the seat choices the games declare: Stellar Conflict's ``race``),
    closed sockets and abandoned seats."""

    def __init__(self, room: LobbyRoom, chat: Chat, manners: Manners, bots: BotPlayers) -> None:
        self._room = room
        self._chat = chat
        self._manners = manners
        self._bots = bots
        #: Since when nobody has been connected (the room's creation, at first).
        self._idle_since = room.clock.now()
        timing = room.timing
        self._check_idle_after(min(timing.unjoined_seconds, timing.room_idle_seconds))

    def handlers(self) -> dict[type, Handler]:
        """The messages the lobby handles, with their handlers."""
        return {
            msg.Ping: lambda c, m: _sent(c).send(wire(to_page.Pong())),
            # It missed a patch: the whole state again.
            msg.Resync: lambda c, m: self._room.send_state(_sent(c)),
            msg.Watch: lambda c, m: self.watch(_sent(c)),
            Arrived: lambda c, m: self._arrived(_sent(c)),
            # (A ``join`` with what the accounts say of it: ``rooms/lookups.py``.)
            VettedJoin: lambda c, m: self._join(_sent(c), m),
            msg.Rejoin: lambda c, m: self._rejoin(_sent(c), m.token, m.tab),
            msg.Leave: lambda c, m: self._leave(_sent(c)),
            msg.SeatBot: lambda c, m: self._seat_bot(_sent(c), m),
            msg.Ready: lambda c, m: self._ready(_sent(c), m.ready),
            msg.Rematch: lambda c, m: self._rematch(_sent(c)),
            msg.DeclineRematch: lambda c, m: self._decline_rematch(_sent(c)),
            msg.FreeSeat: lambda c, m: self._free_seat(_sent(c), m.seat),
            # A game's (its type's handler: the room looks up a message's base classes).
            ChoiceMessage: lambda c, m: self._choose(_sent(c), m),
            Disconnected: lambda c, m: self._on_disconnect(_sent(c)),
            Abandoned: lambda c, m: self._on_abandoned(m),
            IdleCheck: lambda c, m: self._on_idle_check(m),
        }

    @property
    def _by_post(self) -> bool:
        """A room played by correspondence (``turn_hours``: ``rooms/correspondence.py``):
        registered players only, their seats kept while they are away, no bot standing
        in, never closed for being idle before its match is over."""
        return self._room.options.turn_hours is not None

    def _names(self, seat: Seat) -> list[str]:
        """The names of the other seats' occupants."""
        return [s.name for s in self._room.seats if s is not seat and s.kind != "empty"]

    def watch(self, connection: Connection, elsewhere: int | None = None) -> None:
        """The connection watches; ``elsewhere``: the seat it asked for, which another tab
        of the same player plays."""
        self._release(connection)
        self._room.connections.add(connection)
        speaker = self._chat.speaker(connection, note=False)
        connection.send(wire(to_page.Welcome("spectator", None, None, None, speaker, elsewhere)))
        self._chat.send_history(connection)
        connection.send(self._room.room_message())
        self._room.send_state(connection)
        self._manners.send_to(connection)  # a draw offer waiting, players away (rooms/manners.py)
        if self._room.phase == "over" and self._room.last_result is not None:
            connection.send(self._room.last_result)

    def _join(self, connection: Connection, vetted: VettedJoin) -> None:
        message = vetted.join
        if self._room.phase != "lobby":
            connection.error(N_("the match has started: watch, or wait for the next one"))
            return
        if connection.seat is not None:
            connection.error(N_("you already have a seat"))
            return
        free = [s for s in self._room.seats if s.kind == "empty"]
        if message.seat is not None:
            free = [s for s in free if s.index == message.seat]
        if not free:
            if message.seat is None:
                connection.error(N_("no free seat"))
            else:
                connection.error(N_("seat {seat} is taken"), seat=str(message.seat))
            return
        account = connection.account
        if account is None and self._by_post:
            connection.error(
                N_("this room is played by correspondence: log in to take a seat (guests watch)")
            )
            return
        if account is not None and (mine := self._account_seat(account)) is not None:
            self._take_back(connection, mine, message.tab)  # the seat follows the account
            return
        seat = free[0]
        if account is not None:
            seat.seat_person(
                account,
                self._names(seat),
                account=name_key(account),
                rating=vetted.rating,
                bot_account=vetted.bot_account,
            )
        else:
            name = self._guest_name(message.name, seat, vetted.registered)
            seat.seat_person(name, self._names(seat))
        connection.tab = message.tab or connection.tab
        self._seat_connection(connection, seat)
        self._settle_host()
        self._room.broadcast_room()

    def _rejoin(self, connection: Connection, token: str, tab: str | None = None) -> None:
        seat = next(
            (s for s in self._room.seats if s.token == token and (s.kind == "human" or s.stand_in)),
            None,
        ) or self._rebuilt_seat(token)
        if seat is None:
            connection.error(N_("that seat is no longer yours"))
            self.watch(connection)
            return
        if seat.account is not None and not self._holds(connection, seat):
            # An account's seat needs the account's session, not only its token: a browser
            # logged out (or logged in as another) keeps the token, never the seat.
            connection.error(
                N_("That seat is {name}'s: log in as {name} to play it. You are watching."),
                name=seat.name,
            )
            self.watch(connection)
            return
        self._take_back(connection, seat, tab)

    @staticmethod
    def _holds(connection: Connection, seat: Seat) -> bool:
        """Whether the connection's session is the account that holds ``seat``."""
        account = connection.account
        return account is not None and name_key(account) == seat.account

    def _take_back(self, connection: Connection, seat: Seat, tab: str | None) -> None:
        """The seat's player is back (his token, or his account): he plays it again."""
        others = [c for c in seat.connections if c is not connection and not c.closed]
        if tab is not None and any(c.tab is not None and c.tab != tab for c in others):
            # The same player in a second tab: one tab plays, the others watch.
            self.watch(connection, elsewhere=seat.index)
            return
        connection.tab = tab or connection.tab
        if connection.seat != seat.index:
            self._release(connection)
        if seat.stand_in:
            self._bots.give_back(seat)
        self._seat_connection(connection, seat)
        self._room.broadcast_room()

    def _account_seat(self, account: str) -> Seat | None:
        """The seat the account holds in this room (a person's, or a bot's standing in)."""
        key = name_key(account)
        return next(
            (s for s in self._room.seats if s.account == key and (s.kind == "human" or s.stand_in)),
            None,
        )

    def _arrived(self, connection: Connection) -> None:
        """A registered player's socket: his account's seat, if he holds one, else he
        watches."""
        seat = None if connection.account is None else self._account_seat(connection.account)
        if seat is None:
            self.watch(connection)
        else:
            self._take_back(connection, seat, connection.tab)

    def _guest_name(self, wanted: str, seat: Seat, registered: bool) -> str:
        """The name a guest sits under: his own, or ``name (guest)`` when it is a
        registered player's (in this room, or on the server: ``registered``, as the
        accounts said before the join was handled)."""
        name = asked_name(wanted, seat.index)
        key = name_key(name)
        if registered or any(s.account == key for s in self._room.seats):
            suffix = " (guest)"
            return name[: NAME_MAX - len(suffix)].rstrip() + suffix
        return name

    def _rebuilt_seat(self, token: str) -> Seat | None:
        """The seat of a room rebuilt from storage whose token's digest is ``token``'s:
        it holds the token again from now on."""
        return next((seat for seat in self._room.seats if seat.reclaim(token)), None)

    def _seat_connection(self, connection: Connection, seat: Seat) -> None:
        self._room.connections.add(connection)
        connection.seat = seat.index
        seat.connect(connection)  # (his absence, if he was away, is over)
        speaker = self._chat.speaker(connection, note=False)
        connection.send(wire(to_page.Welcome("player", seat.index, seat.name, seat.token, speaker)))
        self._chat.send_history(connection)
        self._room.send_state(connection)
        self._manners.send_to(connection)  # a draw offer waiting, players away (rooms/manners.py)
        if self._room.phase == "over" and self._room.last_result is not None:
            connection.send(self._room.last_result)

    def _unseat(self, connection: Connection) -> None:
        if connection.seat is not None:
            self._room.seats[connection.seat].disconnect(connection)
            connection.seat = None

    def _release(self, connection: Connection) -> None:
        """The connection no longer plays for its seat (it closed, or watches now). A
        player's seat left without any connection starts the abandon timer, in every
        phase: when it runs out the seat is emptied (lobby) or a bot takes it (a match)."""
        if connection.seat is None:
            return
        seat = self._room.seats[connection.seat]
        self._unseat(connection)
        if seat.connections or seat.kind != "human":
            return
        if self._by_post:  # he plays when he comes back: nobody waits on him, no bot
            self._room.broadcast_room()
            return
        seat.went_away(self._room.clock, self._room.submit, self._room.timing.abandon_seconds)
        self._manners.absence_began(seat)  # the others are told at once (rooms/manners.py)
        self._room.broadcast_room()

    def _leave(self, connection: Connection) -> None:
        if connection.seat is None:
            return
        seat = self._room.seats[connection.seat]
        self._unseat(connection)
        for other in list(seat.connections):
            self._unseat(other)
        if self._room.phase == "lobby":
            seat.empty()
            self._settle_host()
        elif self._by_post:
            pass  # his seat waits for him: no bot plays by correspondence
        else:
            # A bot plays on; his token takes the seat back (rejoin).
            self._bots.take_over(seat, stand_in=True)
        self._room.broadcast_room()

    def _seat_bot(self, connection: Connection, message: msg.SeatBot) -> None:
        if connection.seat is None or self._room.phase != "lobby":
            connection.error(N_("take a seat first; bots join before the match"))
            return
        if self._by_post:
            connection.error(N_("a correspondence room seats registered players, not bots"))
            return
        if not self._room.seats[connection.seat].host:
            # A guest filling the seat the host kept for a friend would take it from him.
            connection.error(N_("only the room's host can seat a bot"))
            return
        if (
            not 0 <= message.seat < len(self._room.seats)
            or self._room.seats[message.seat].kind != "empty"
        ):
            connection.error(N_("seat {seat} is not empty"), seat=str(message.seat))
            return
        level = message.level or self._bots.kinds.default
        if level not in self._bots.kinds.levels:
            connection.error(
                N_("no {level} bot in {game}: choose one of {levels}"),
                level=repr(level),
                game=self._room.options.entry.rules.title,
                levels=", ".join(self._bots.kinds.levels),
            )
            return
        seat = self._room.seats[message.seat]
        # "easy bot", and "easy bot (2)" for a second of the level (unique_name): the seat
        # number glued to the level read as a level ("beginner bot 2").
        seat.seat_bot(level, self._names(seat))
        self._room.broadcast_room()
        self._maybe_start()

    def _ready(self, connection: Connection, ready: bool) -> None:
        if connection.seat is None or self._room.phase != "lobby":
            connection.error(N_("only seated players in the lobby can get ready"))
            return
        self._room.seats[connection.seat].set_ready(ready)
        self._room.broadcast_room()
        self._maybe_start()

    def _rematch(self, connection: Connection) -> None:
        if connection.seat is None or self._room.phase != "over":
            connection.error(N_("a rematch is asked for after a match"))
            return
        if any(s.kind == "empty" for s in self._room.seats):
            # A deleted account's seat (rooms/farewell.py): nobody may sit after a match.
            connection.error(N_("a player left this room for good: open a new room to play again"))
            return
        self._room.seats[connection.seat].ask_rematch()
        self._room.broadcast_room()  # the others see who asked, and answer
        self._maybe_rematch()

    def _decline_rematch(self, connection: Connection) -> None:
        """A player turns the rematch down: every ask is forgotten, and everyone is told
        who declined (the askers first of all)."""
        if connection.seat is None or self._room.phase != "over":
            connection.error(N_("only a seated player can decline a rematch"))
            return
        askers = [s for s in self._room.seats if s.rematch and s.index != connection.seat]
        if not askers:
            connection.error(N_("nobody asked for a rematch"))
            return
        for seat in self._room.seats:
            seat.forget_rematch()
        by = self._room.seats[connection.seat].name
        self._room.broadcast(wire(to_page.RematchDeclined(by, [s.name for s in askers])))
        self._room.broadcast_room()

    def give_seats(self, people: list[GivenSeat]) -> list[str]:
        """Seat ``people``, in seat order, in the room just made for them
        (``meet/seating.py``), before anyone connects: every seat is taken, so nobody
        else sits. An account's seat is his as a seat always follows its account (his
        pages take it back as they arrive); a guest's is held by the token returned for
        it (in order), which his page is given. In a live room each player's abandon
        timer runs until his page comes, as if he had just gone."""
        room = self._room
        tokens = []
        for seat, person in zip(room.seats, people, strict=True):
            others = self._names(seat)
            tokens.append(
                seat.seat_person(
                    person.name,
                    others,
                    account=person.account,
                    rating=person.rating,
                    bot_account=person.bot_account,
                )
            )
            if not self._by_post:
                seat.start_abandon(room.clock, room.submit, room.timing.abandon_seconds)
        self._settle_host()
        return tokens

    def settle_host(self) -> None:
        """Keep one host among the people seated (a seat freed from outside the lobby:
        ``rooms/farewell.py``)."""
        self._settle_host()

    def _settle_host(self) -> None:
        """Keep one host among the people seated: the first seated stays host while he
        sits; when he goes, the person in the lowest seat becomes host."""
        humans = [s for s in self._room.seats if s.kind == "human"]
        if any(s.host for s in humans):
            return
        for seat in self._room.seats:
            seat.set_host(False)
        if humans:
            humans[0].set_host(True)

    def _free_seat(self, connection: Connection, index: int) -> None:
        """The host takes a bot out of its seat before the match, for a friend to sit."""
        mine = None if connection.seat is None else self._room.seats[connection.seat]
        problem = None
        if mine is None or not mine.host or mine.kind != "human":
            problem = N_("only the room's host can free a seat")
        elif self._room.phase != "lobby":
            problem = N_("the match has started: seats are freed before it")
        elif not 0 <= index < len(self._room.seats):
            problem = N_("there is no seat {seat}")
        elif self._room.seats[index].kind != "bot":
            problem = N_("seat {seat} is not a bot's: only a bot's seat can be freed")
        if problem is not None:
            connection.error(problem, seat=str(index))
            return
        self._room.seats[index].empty()
        self._room.broadcast_room()

    def _choose(self, connection: Connection, message: ChoiceMessage) -> None:
        """A seated player makes a choice for his own seat before the match (Stellar
        Conflict's race: the room's creator only set the first choice of every seat), as
        the game's registry entry declares it (:class:`~spacetable.registry.SeatChoice`)."""
        room = self._room
        ours = room.options.entry.seat_choice(message.type)
        declared = ours or _declared(message)
        options = room.options
        chosen = declared.seats(options.game.get(declared.option), options.seats)
        value = message.choice
        problem = None
        if ours is None:
            problem = declared.elsewhere
        elif connection.seat is None or room.phase != "lobby":
            problem = ours.too_late
        elif value not in ours.values:
            problem = ours.unknown
        elif value in chosen and chosen.index(value) != connection.seat:
            problem = ours.taken
        if problem is not None:
            seat = chosen.index(value) + 1 if value in chosen else 0
            named = {declared.type: value, declared.option: ", ".join(declared.values)}
            connection.error(problem, **named, asked=repr(value[:24]), seat=str(seat))
            return
        assert connection.seat is not None
        chosen[connection.seat] = value
        room.options = replace(options, game={**options.game, declared.option: chosen})
        room.broadcast_room()

    def _maybe_rematch(self) -> None:
        """After a match: start the next once every player left at the table asked."""
        humans = [s for s in self._room.seats if s.kind == "human"]
        full = all(s.kind != "empty" for s in self._room.seats)
        if self._room.phase == "over" and humans and full and all(s.rematch for s in humans):
            self._room.start()

    def _on_disconnect(self, connection: Connection) -> None:
        """The socket closed."""
        self._room.connections.discard(connection)
        self._release(connection)
        if not self._room.connections:
            self._idle_since = self._room.clock.now()
            self._check_idle_after(self._room.timing.room_idle_seconds)

    def _on_abandoned(self, message: Abandoned) -> None:
        seat = self._room.seats[message.seat]
        if seat.absences != message.absence or seat.connections or seat.kind != "human":
            return  # the player came back (perhaps to leave again later), or left for good
        seat.cancel_abandon()  # it ran out
        if self._room.phase == "lobby":
            seat.empty()  # nobody keeps a seat by opening a socket and closing it
            self._settle_host()
        else:
            self._bots.take_over(seat, stand_in=True)
        self._room.broadcast_room()
        self._maybe_rematch()  # the others may have asked for one already

    def _maybe_start(self) -> None:
        if self._room.phase != "lobby":
            return
        everyone = all(s.kind == "bot" or (s.kind == "human" and s.ready) for s in self._room.seats)
        if everyone and any(s.kind == "human" for s in self._room.seats):
            self._room.start()

    def restore(self) -> None:
        """The room was rebuilt from storage and nobody is connected yet: each player's
        abandon timer runs as if he had just gone (a bot stands in for him after it,
        until he comes back)."""
        room = self._room
        if self._by_post:
            return  # the seats wait for their players, however long (a correspondence room)
        for seat in room.seats:
            if seat.kind == "human":
                seat.went_away(room.clock, room.submit, room.timing.abandon_seconds)

    # -- rooms nobody uses close ------------------------------------------------------------

    def idle_for(self) -> float:
        """Seconds since anyone was connected (since the room opened, if nobody ever was)."""
        return self._room.clock.now() - self._idle_since

    def _check_idle_after(self, delay: float) -> None:
        room = self._room
        room.clock.after(delay, room.submit, None, IdleCheck(self._idle_since))

    def _on_idle_check(self, check: IdleCheck) -> None:
        """Nobody has been connected since ``check.since``: close the room, unless a
        match is being played (bots finish it; look again later) or someone is about to
        connect (his ``watch`` waits in the queue)."""
        room = self._room
        if room.connections or check.since != self._idle_since:
            return  # someone came since; the last to leave starts a new check
        seated = any(s.kind == "human" for s in room.seats)
        waits = self._by_post and room.phase != "over" and seated
        # A correspondence room waits for its players, however long (not an empty one), and
        # closes like any other once its match is over (a third timeout ended it unwatched).
        # Stored as it lives, it waits in storage rather than in memory (days a turn): it
        # is put away, and rebuilt when a player opens it or its turn runs out.
        if waits and room.may_put_away and not room.queued():
            log.info("room %s put away after %.0f s without a connection", room.id, self.idle_for())
            room.put_away()
            return
        if waits or room.phase == "playing" or room.queued():
            self._check_idle_after(room.timing.room_idle_seconds)
            return
        log.info("room %s closed after %.0f s without a connection", room.id, self.idle_for())
        room.expire()
