"""A room's manners, the same for every game: resigning, offering and answering a draw,
and what the others choose when a player goes away in a match (wait, a bot, claim the win).

:class:`RoomManners` is a mixin of :class:`~spacetable.server.rooms.Room`: its methods run
on the room's task like the rest of the room, with the room's state (declared below for the
type checker, set by ``Room.__init__``). A match these stop ends with a ``result`` whose
``ending`` says how (:mod:`spacetable.core.endings`); the stored match replays from its
seed, its actions up to the stop and that ending.

The rulings behind it (who wins, what a bot answers to a draw, a resignation with more than
two players) are in ``docs/rulings.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from spacetable.core.endings import stopped_result, with_ending
from spacetable.i18n import N_
from spacetable.registry import Bots
from spacetable.server import protocol as msg
from spacetable.server._chat import Chat
from spacetable.server._clock import RoomClock
from spacetable.server._connection import Connection
from spacetable.server._room_match import RoomMatch, RoomOptions, Timing
from spacetable.server._save_queue import SaveQueue
from spacetable.server._seats import Seat
from spacetable.server.storage import StoredMatch

#: Player-facing words of the refusals (kept together for translation).
REFUSED = {
    "spectator": N_("spectators cannot {what}: take a seat first"),
    "no_match": N_("there is no match being played to {what}"),
    "pending": N_("a draw offer is already waiting for an answer"),
    "declined": N_("your draw offer was declined: play on before offering another"),
    "no_offer": N_("no draw is offered to you"),
    "own_offer": N_("you offered this draw: the others answer it"),
    "answered": N_("you have already accepted this draw"),
    "no_seat": N_("there is no seat {seat}"),
    "own_seat": N_("that is your own seat: only the others decide about it"),
    "not_absent": N_("the player of seat {seat} is not away"),
    "grace": N_("the player of seat {seat} may still come back: wait {left} s more"),
    "claim_many": N_("the win is claimed only in a two-player match: let a bot play the seat"),
}


#: What each message asks to do, for its refusals.
WHAT = {
    "resign": N_("resign"),
    "offer_draw": N_("offer a draw"),
    "answer_draw": N_("answer a draw offer"),
    "absence": N_("decide for an absent player"),
}


@dataclass(frozen=True, slots=True)
class GraceOver:
    """The grace period of a seat's ``absence`` ran out (posted into the room's queue)."""

    seat: int
    absence: int
    match_number: int


#: The messages :meth:`RoomManners._on_manners` handles.
MANNERS = (msg.Resign, msg.OfferDraw, msg.AnswerDraw, msg.Absence, GraceOver)


@dataclass(slots=True)
class _DrawOffer:
    by: int  # the seat that offered
    waiting: set[int] = field(default_factory=set)  # the human seats yet to accept


class RoomManners:
    """Resign, draw offers and absence choices; the ending of a match they stop."""

    # The room's state (rooms.py) that the manners read and change.
    id: str
    options: RoomOptions
    bots: Bots
    timing: Timing
    seats: list[Seat]
    chat: Chat
    phase: Literal["lobby", "playing", "over"]
    match: RoomMatch | None
    match_number: int
    last_result: dict[str, Any] | None
    saves: SaveQueue
    clock: RoomClock

    if TYPE_CHECKING:
        # The room's methods the manners call (rooms.py, _lobby.py, _room_bots.py).

        def submit(self, connection: Connection | None, message: Any) -> None: ...
        def _player(self, seat: Seat) -> str: ...
        def now(self) -> float: ...
        def broadcast(self, message: dict[str, Any]) -> None: ...
        def _broadcast_room(self, at_once: bool = False) -> None: ...
        def _broadcast_state(self) -> None: ...
        def _watch(self, connection: Connection, elsewhere: int | None = None) -> None: ...
        def _bot_takes_over(self, seat: Seat, *, stand_in: bool) -> None: ...
        def _store_result(self, stored: StoredMatch) -> None: ...
        def changed(self) -> None: ...

    def _manners_reset(self) -> None:
        """A match begins (or ended): no offer, nobody away, nobody resigned."""
        self._draw: _DrawOffer | None = None
        #: The seats whose draw offer was declined, with the match version then.
        self._declined: dict[int, int] = {}
        #: The absent seats: match time they went away, and whether the grace is over.
        self._absent: dict[int, tuple[float, bool]] = {}
        #: The players of a 3-4 player match who resigned (their seats played on by bots).
        self._resigned: list[str] = []
        #: The absent seats the others chose to wait for (no bot takes them by itself).
        self._waited: set[int] = set()

    def _on_manners(self, connection: Connection | None, message: Any) -> None:
        self.changed()  # a rebuilt room has its offers and absences (_room_extras)
        if isinstance(message, GraceOver):
            self._grace_over(message)
            return
        assert connection is not None
        what = WHAT[message.type]
        if connection.seat is None:
            self._refuse(connection, "spectator", what=what)
        elif self.phase != "playing" or self.match is None:
            self._refuse(connection, "no_match", what=what)
        elif isinstance(message, msg.Resign):
            self._resign(self.seats[connection.seat])
        elif isinstance(message, msg.OfferDraw):
            self._offer_draw(connection, self.seats[connection.seat])
        elif isinstance(message, msg.AnswerDraw):
            self._answer_draw(connection, self.seats[connection.seat], message.accept)
        elif isinstance(message, msg.Absence):
            self._absence(connection, self.seats[connection.seat], message)

    def _send_manners(self, connection: Connection) -> None:
        """What a socket that (re)joins mid-match must know beyond the state: the draw
        offer waiting for answers, the players away (a page reloaded, a room rebuilt)."""
        if self.phase != "playing" or self.match is None:
            return
        if self._draw is not None:
            connection.send(self._offer_message())
        for index in sorted(self._absent):
            seat = self.seats[index]
            if self._is_absent(seat):
                connection.send(self._absent_message(seat))

    def _refuse(self, connection: Connection, why: str, **words: Any) -> None:
        what = words.get("what")
        if isinstance(what, str):  # a WHAT entry, in the reader's language too
            words["what"] = connection.tr.gettext(what)
        connection.error(REFUSED[why], **words)

    # -- resigning -------------------------------------------------------------------------

    def _resign(self, seat: Seat) -> None:
        """The player of ``seat`` resigns: with one opponent, he wins; with more, a bot
        plays the seat on to the end (docs/rulings.md) and the player watches."""
        player = self._player(seat)
        if len(self.seats) == 2:
            self._stop("resigned", [player])
            return
        self._resigned.append(player)
        self.broadcast({"type": "resigned", "seat": seat.index, "player": player})
        self._bot_takes_over(seat, stand_in=False)
        for connection in list(seat.connections):
            self._watch(connection)
        self._after_seat_change()
        self._broadcast_room()

    # -- draws -----------------------------------------------------------------------------

    def _offer_draw(self, connection: Connection, seat: Seat) -> None:
        match = self.match
        assert match is not None
        if self._draw is not None:
            self._refuse(connection, "pending")
            return
        if self._declined.get(seat.index) == match.version:
            self._refuse(connection, "declined")
            return
        player = self._player(seat)
        for other in self.seats:
            if other is not seat and other.kind == "bot" and not self._bot_accepts(other):
                self._declined[seat.index] = match.version
                self.broadcast(
                    {
                        "type": "draw_declined",
                        "by": self._player(other),
                        "seat": other.index,
                        "offered_by": player,
                        "bot": True,
                    }
                )
                return
        waiting = {s.index for s in self.seats if s is not seat and s.kind == "human"}
        if not waiting:
            self._stop("agreed_draw", None)
            return
        self._draw = _DrawOffer(seat.index, waiting)
        self._broadcast_offer()

    def _bot_accepts(self, bot: Seat) -> bool:
        """A bot accepts a draw only when another player is ahead of it by the game's
        standing; level, ahead, or a game that cannot tell: it plays on."""
        assert self.match is not None
        standing = self.options.entry.ahead(self.match.match)
        if not standing:
            return False
        own = standing.get(self._player(bot), 0.0)
        return any(v > own for p, v in standing.items() if p != self._player(bot))

    def _broadcast_offer(self) -> None:
        self.broadcast(self._offer_message())

    def _offer_message(self) -> dict[str, Any]:
        offer = self._draw
        assert offer is not None
        return {
            "type": "draw_offer",
            "by": self._player(self.seats[offer.by]),
            "seat": offer.by,
            "waiting": sorted(offer.waiting),
        }

    def _answer_draw(self, connection: Connection, seat: Seat, accept: bool) -> None:
        offer = self._draw
        if offer is None:
            self._refuse(connection, "no_offer")
            return
        if offer.by == seat.index:
            self._refuse(connection, "own_offer")
            return
        if seat.index not in offer.waiting:
            self._refuse(connection, "answered")
            return
        if not accept:
            assert self.match is not None
            self._draw = None
            self._declined[offer.by] = self.match.version
            self.broadcast(
                {
                    "type": "draw_declined",
                    "by": self._player(seat),
                    "seat": seat.index,
                    "offered_by": self._player(self.seats[offer.by]),
                    "bot": False,
                }
            )
            return
        offer.waiting.discard(seat.index)
        self._after_seat_change()

    def _after_seat_change(self) -> None:
        """A seat accepted, or is no longer a person's: end the draw if nobody else must
        accept it, else tell everyone who still must. A seat a bot took over by then
        answers as a bot would have when it was offered: it did not decline, so it is
        left out."""
        offer = self._draw
        if offer is None or self.match is None:
            return
        offer.waiting = {i for i in offer.waiting if self.seats[i].kind == "human"}
        if self.seats[offer.by].kind != "human":
            self._draw = None  # the one who offered is gone
            self.broadcast({"type": "draw_declined", "by": None, "seat": offer.by, "bot": False})
        elif not offer.waiting:
            self._stop("agreed_draw", None)
        else:
            self._broadcast_offer()

    # -- absences --------------------------------------------------------------------------

    def _absence_began(self, seat: Seat) -> None:
        """The player of ``seat`` lost his last connection in a match: tell the others at
        once, and let them choose once :attr:`Timing.grace_seconds` have passed."""
        if self.phase != "playing" or self.match is None:
            return
        self._absent[seat.index] = (self.now(), False)
        self._waited.discard(seat.index)
        self._broadcast_absent(seat)
        self.clock.after(
            self.timing.grace_seconds,
            self.submit,
            None,
            GraceOver(seat.index, seat.absences, self.match_number),
        )

    def _is_absent(self, seat: Seat) -> bool:
        return seat.index in self._absent and seat.kind == "human" and not seat.connections

    def _broadcast_absent(self, seat: Seat) -> None:
        self.broadcast(self._absent_message(seat))

    def _absent_message(self, seat: Seat) -> dict[str, Any]:
        since, open_ = self._absent[seat.index]
        choices = ["wait", "bot"] + (["claim"] if len(self.seats) == 2 else [])
        return {
            "type": "absent",
            "seat": seat.index,
            "player": self._player(seat),
            "since": since,
            "grace_s": self.timing.grace_seconds,
            # What is left of it now: less for a page that joins late, or after a restart.
            "grace_left_s": 0.0 if open_ else self._grace_left(since),
            "choices": choices if open_ else [],
        }

    def _grace_left(self, since: float) -> float:
        """Seconds left of the grace of a player away since match time ``since`` (a room
        rebuilt after a crash may resume its clock a moment before that)."""
        grace = self.timing.grace_seconds
        return round(min(grace, max(0.0, since + grace - self.now())), 1)

    def _grace_over(self, message: GraceOver) -> None:
        seat = self.seats[message.seat]
        if (
            message.match_number != self.match_number
            or seat.absences != message.absence
            or not self._is_absent(seat)
        ):
            return  # back, a bot plays the seat, or the match is over
        self._absent[seat.index] = (self._absent[seat.index][0], True)
        self._broadcast_absent(seat)

    def _absence(self, connection: Connection, own: Seat, message: msg.Absence) -> None:
        if not 0 <= message.seat < len(self.seats):
            self._refuse(connection, "no_seat", seat=message.seat)
            return
        seat = self.seats[message.seat]
        if seat is own:
            self._refuse(connection, "own_seat")
            return
        if not self._is_absent(seat):
            self._refuse(connection, "not_absent", seat=message.seat)
            return
        since, open_ = self._absent[seat.index]
        if not open_:
            left = since + self.timing.grace_seconds - self.now()
            self._refuse(connection, "grace", seat=message.seat, left=round(max(1.0, left)))
            return
        if message.choice == "claim" and len(self.seats) != 2:
            self._refuse(connection, "claim_many")
            return
        self.broadcast(
            {
                "type": "absence_choice",
                "seat": seat.index,
                "choice": message.choice,
                "by": self._player(own),
            }
        )
        if message.choice == "wait":
            seat.cancel_abandon()  # no bot takes the seat by itself: the others wait
            self._waited.add(seat.index)
        elif message.choice == "bot":
            del self._absent[seat.index]
            self._bot_takes_over(seat, stand_in=True)
            self._after_seat_change()
            self._broadcast_room()
        else:
            self._stop("claimed", [self._player(seat)])

    # -- the end ---------------------------------------------------------------------------

    def _ending_fields(self, result: dict[str, Any]) -> dict[str, Any]:
        """A result the rules reached, with how the match ended (``ending``)."""
        return with_ending(result, self._resigned)

    def _stop(self, ending: str, by: list[str] | None) -> None:
        """End the match outside its rules (``ending``, ``by`` whom), store it, tell all."""
        match = self.match
        assert match is not None
        result = stopped_result(match.match.players, ending, by)
        self.phase = "over"
        self.last_result = match.stopped_message(result)
        self._broadcast_state()  # over, as at the rules' end: every page puts its controls away
        self.broadcast(self.last_result)
        self._broadcast_room(at_once=True)
        seats = [{**s.to_json(), "player": self._player(s)} for s in self.seats]
        stored = match.record(self.id, seats, self.last_result)
        stored.chat = self.chat.of_match()  # stored with the match, as _finish does
        self._store_result(stored)  # before anyone hears of the end (_durable.py)
        self.match = None
        self._manners_reset()
