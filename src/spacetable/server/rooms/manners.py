"""A room's manners, the same for every game: resigning, offering and answering a draw,
and what the others choose when a player goes away in a match (wait, a bot, claim the win).

:class:`Manners` is a part of a :class:`~spacetable.server.rooms.room.Room`, run on the
room's task like the rest of it, that sees the room through a :class:`MannersRoom` (the
:class:`~spacetable.server.rooms.context.RoomContext` and what the manners ask of the
room's seats and bots). A match these stop ends through the room's one ``end``, with a
``result`` whose ``ending`` says how (:mod:`spacetable.core.endings`); the stored match
replays from its seed, its actions up to the stop and that ending. What the manners hold
(an offer, the players away, who resigned) is stored with the room while it lives
(:meth:`Manners.snapshot`) and given back to a rebuilt one (:meth:`Manners.restore`).

The rulings behind it (who wins, what a bot answers to a draw, a resignation with more than
two players) are in ``docs/rulings.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from spacetable.core.endings import Ending, with_ending
from spacetable.i18n import N_
from spacetable.server.protocol import server_messages as to_page
from spacetable.server.protocol.server_messages import wire
from spacetable.server.rooms.context import RoomContext
from spacetable.server.rooms.match import RoomOptions
from spacetable.server.rooms.seats import Seat
from spacetable.server.sockets import protocol as msg
from spacetable.server.sockets.connection import Connection

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


#: The messages :meth:`Manners.on_message` handles.
MANNERS = (msg.Resign, msg.OfferDraw, msg.AnswerDraw, msg.Absence)


@dataclass(slots=True)
class _DrawOffer:
    by: int  # the seat that offered
    waiting: set[int] = field(default_factory=set)  # the human seats yet to accept


class MannersRoom(RoomContext, Protocol):
    """The room as the manners see it: the context, and what they ask of it."""

    @property
    def options(self) -> RoomOptions:
        """What the room plays (its game tells who is ahead, for a bot's answer)."""
        ...

    def end(self, how: Ending, by: list[str] | None = None) -> None:
        """End the match (``how``, ``by`` whom): stored, told, reset."""
        ...

    def broadcast_room(self, at_once: bool = False) -> None:
        """The seats changed: everyone hears of the room again."""
        ...


class TakesOver(Protocol):
    """The room's bots, as the manners hand them a seat."""

    def take_over(self, seat: Seat, *, stand_in: bool) -> None:
        """A bot plays the seat: until its player is back (``stand_in``), or for good."""
        ...


class Manners:
    """Resign, draw offers and absence choices, for the match being played: ``bots``
    take the seats the others give them, ``watch`` makes a socket a spectator's (the
    room's lobby)."""

    def __init__(
        self, room: MannersRoom, bots: TakesOver, watch: Callable[[Connection], None]
    ) -> None:
        self._room = room
        self._bots = bots
        self._watch = watch
        self.reset()

    def reset(self) -> None:
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

    def on_message(self, connection: Connection | None, message: Any) -> None:
        """One of :data:`MANNERS` from a socket."""
        assert connection is not None
        room = self._room
        room.changed()  # a rebuilt room has its offers and absences (snapshot)
        what = WHAT[message.type]
        if connection.seat is None:
            self._refuse(connection, "spectator", what=what)
        elif room.phase != "playing" or room.match is None:
            self._refuse(connection, "no_match", what=what)
        elif isinstance(message, msg.Resign):
            self.resign(room.seats[connection.seat])
        elif isinstance(message, msg.OfferDraw):
            self._offer_draw(connection, room.seats[connection.seat])
        elif isinstance(message, msg.AnswerDraw):
            self._answer_draw(connection, room.seats[connection.seat], message.accept)
        elif isinstance(message, msg.Absence):
            self._absence(connection, room.seats[connection.seat], message)

    def send_to(self, connection: Connection) -> None:
        """What a socket that (re)joins mid-match must know beyond the state: the draw
        offer waiting for answers, the players away (a page reloaded, a room rebuilt)."""
        room = self._room
        if room.phase != "playing" or room.match is None:
            return
        if self._draw is not None:
            connection.send(self._offer_message())
        for index in sorted(self._absent):
            seat = room.seats[index]
            if self._is_absent(seat):
                connection.send(self._absent_message(seat))

    def ending(self, result: dict[str, Any]) -> dict[str, Any]:
        """A result the rules reached, with how the match ended (``ending``: who resigned
        on the way, in a 3-4 player match)."""
        return with_ending(result, self._resigned)

    def _refuse(self, connection: Connection, why: str, **words: Any) -> None:
        what = words.get("what")
        if isinstance(what, str):  # a WHAT entry, in the reader's language too
            words["what"] = connection.tr.gettext(what)
        connection.error(REFUSED[why], **words)

    # -- resigning -------------------------------------------------------------------------

    def resign(self, seat: Seat) -> None:
        """The player of ``seat`` resigns (his ``resign``, or his account deleted:
        ``rooms/farewell.py``): with one opponent, he wins; with more, a bot plays the seat
        on to the end (docs/rulings.md) and the player watches."""
        room = self._room
        if len(room.seats) == 2:
            room.end("resigned", [seat.name])
            return
        self._resigned.append(seat.name)
        room.broadcast(wire(to_page.Resigned(seat.index, seat.name)))
        self._bots.take_over(seat, stand_in=False)
        for connection in list(seat.connections):
            self._watch(connection)
        self._after_seat_change()
        room.broadcast_room()

    # -- draws -----------------------------------------------------------------------------

    def _offer_draw(self, connection: Connection, seat: Seat) -> None:
        room = self._room
        match = room.match
        assert match is not None
        if self._draw is not None:
            self._refuse(connection, "pending")
            return
        if self._declined.get(seat.index) == match.version:
            self._refuse(connection, "declined")
            return
        for other in room.seats:
            if other is not seat and other.kind == "bot" and not self._bot_accepts(other):
                self._declined[seat.index] = match.version
                declined = to_page.DrawDeclined(other.name, other.index, seat.name, bot=True)
                room.broadcast(wire(declined))
                return
        waiting = {s.index for s in room.seats if s is not seat and s.kind == "human"}
        if not waiting:
            room.end("agreed_draw")
            return
        self._draw = _DrawOffer(seat.index, waiting)
        room.broadcast(self._offer_message())

    def _bot_accepts(self, bot: Seat) -> bool:
        """A bot accepts a draw only when another player is ahead of it by the game's
        standing; level, ahead, or a game that cannot tell: it plays on."""
        match = self._room.match
        assert match is not None
        standing = self._room.options.entry.ahead(match.match)
        if not standing:
            return False
        own = standing.get(bot.name, 0.0)
        return any(v > own for p, v in standing.items() if p != bot.name)

    def _offer_message(self) -> dict[str, Any]:
        offer = self._draw
        assert offer is not None
        by = self._room.seats[offer.by].name
        return wire(to_page.DrawOffer(by, offer.by, sorted(offer.waiting)))

    def _answer_draw(self, connection: Connection, seat: Seat, accept: bool) -> None:
        room = self._room
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
            assert room.match is not None
            self._draw = None
            self._declined[offer.by] = room.match.version
            offered_by = room.seats[offer.by].name
            room.broadcast(wire(to_page.DrawDeclined(seat.name, seat.index, offered_by)))
            return
        offer.waiting.discard(seat.index)
        self._after_seat_change()

    def _after_seat_change(self) -> None:
        """A seat accepted, or is no longer a person's: end the draw if nobody else must
        accept it, else tell everyone who still must. A seat a bot took over by then
        answers as a bot would have when it was offered: it did not decline, so it is
        left out."""
        room = self._room
        offer = self._draw
        if offer is None or room.match is None:
            return
        offer.waiting = {i for i in offer.waiting if room.seats[i].kind == "human"}
        if room.seats[offer.by].kind != "human":
            self._draw = None  # the one who offered is gone
            room.broadcast(wire(to_page.DrawDeclined(None, offer.by)))
        elif not offer.waiting:
            room.end("agreed_draw")
        else:
            room.broadcast(self._offer_message())

    # -- absences --------------------------------------------------------------------------

    def absence_began(self, seat: Seat) -> None:
        """The player of ``seat`` lost his last connection in a match: tell the others at
        once, and let them choose once :attr:`Timing.grace_seconds` have passed."""
        room = self._room
        if room.phase != "playing" or room.match is None:
            return
        self._absent[seat.index] = (room.now(), False)
        self._waited.discard(seat.index)
        room.broadcast(self._absent_message(seat))
        room.clock.after(
            room.timing.grace_seconds,
            room.submit,
            None,
            GraceOver(seat.index, seat.absences, room.match_number),
        )

    def _is_absent(self, seat: Seat) -> bool:
        return seat.index in self._absent and seat.kind == "human" and not seat.connections

    def _absent_message(self, seat: Seat) -> dict[str, Any]:
        since, open_ = self._absent[seat.index]
        choices = ["wait", "bot"] + (["claim"] if len(self._room.seats) == 2 else [])
        absent = to_page.Absent(
            seat=seat.index,
            player=seat.name,
            since=since,
            grace_s=self._room.timing.grace_seconds,
            # What is left of it now: less for a page that joins late, or after a restart.
            grace_left_s=0.0 if open_ else self._grace_left(since),
            choices=choices if open_ else [],  # type: ignore[arg-type]
            # The others chose to wait for him: a page that joins shows the choice made.
            waited=seat.index in self._waited,
        )
        return wire(absent)

    def _grace_left(self, since: float) -> float:
        """Seconds left of the grace of a player away since match time ``since`` (a room
        rebuilt after a crash may resume its clock a moment before that)."""
        grace = self._room.timing.grace_seconds
        return round(min(grace, max(0.0, since + grace - self._room.now())), 1)

    def on_grace_over(self, connection: Connection | None, message: GraceOver) -> None:
        """The grace of an absence ran out: the others may choose now."""
        room = self._room
        room.changed()
        seat = room.seats[message.seat]
        if (
            message.match_number != room.match_number
            or seat.absences != message.absence
            or not self._is_absent(seat)
        ):
            return  # back, a bot plays the seat, or the match is over
        self._absent[seat.index] = (self._absent[seat.index][0], True)
        room.broadcast(self._absent_message(seat))

    def _absence(self, connection: Connection, own: Seat, message: msg.Absence) -> None:
        room = self._room
        if not 0 <= message.seat < len(room.seats):
            self._refuse(connection, "no_seat", seat=message.seat)
            return
        seat = room.seats[message.seat]
        if seat is own:
            self._refuse(connection, "own_seat")
            return
        if not self._is_absent(seat):
            self._refuse(connection, "not_absent", seat=message.seat)
            return
        since, open_ = self._absent[seat.index]
        if not open_:
            left = since + room.timing.grace_seconds - room.now()
            self._refuse(connection, "grace", seat=message.seat, left=round(max(1.0, left)))
            return
        if message.choice == "claim" and len(room.seats) != 2:
            self._refuse(connection, "claim_many")
            return
        room.broadcast(wire(to_page.AbsenceChoice(seat.index, message.choice, own.name)))
        if message.choice == "wait":
            seat.cancel_abandon()  # no bot takes the seat by itself: the others wait
            self._waited.add(seat.index)
        elif message.choice == "bot":
            del self._absent[seat.index]
            self._bots.take_over(seat, stand_in=True)
            self._after_seat_change()
            room.broadcast_room()
        else:
            room.end("claimed", [seat.name])

    # -- what the room stores while it lives ------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """What the manners hold, as the room's stored ``extras`` keep it: the draw offer
        waiting for answers and the offers declined, the players away (since when, whether
        the others may choose yet, whether they chose to wait), the players of a 3-4 player
        match who resigned."""
        draw = self._draw
        return {
            "draw": None if draw is None else {"by": draw.by, "waiting": sorted(draw.waiting)},
            "declined": {str(seat): version for seat, version in self._declined.items()},
            "absent": {
                str(seat): {"since": since, "open": open_, "waited": seat in self._waited}
                for seat, (since, open_) in self._absent.items()
            },
            "resigned": list(self._resigned),
        }

    def restore(self, extras: dict[str, Any], t_resume: float) -> None:
        """Take back what :meth:`snapshot` gave, in a match rebuilt from storage (nobody
        connected yet, its clock resuming at match time ``t_resume``), with the timers of
        an absence running on: the grace and the abandon timer have what they had left,
        not all of it again. Call after every human seat's abandon timer was started."""
        room = self._room
        draw = extras.get("draw")
        if draw is not None:
            self._draw = _DrawOffer(int(draw["by"]), {int(seat) for seat in draw["waiting"]})
        self._declined = {int(seat): int(v) for seat, v in (extras.get("declined") or {}).items()}
        self._resigned = [str(player) for player in extras.get("resigned") or ()]
        timing = room.timing
        for key, away in (extras.get("absent") or {}).items():
            seat = room.seats[int(key)]
            if seat.kind != "human":
                continue
            since, open_ = float(away["since"]), bool(away["open"])
            self._absent[seat.index] = (since, open_)
            gone_for = max(0.0, t_resume - since)
            if not open_:
                room.clock.after(
                    max(0.0, timing.grace_seconds - gone_for),
                    room.submit,
                    None,
                    GraceOver(seat.index, seat.absences, room.match_number),
                )
            seat.cancel_abandon()
            if away.get("waited"):
                self._waited.add(seat.index)  # the others chose to wait: no bot takes the seat
            else:  # the timer runs with what it had left
                seat.start_abandon(
                    room.clock, room.submit, max(0.0, timing.abandon_seconds - gone_for)
                )
