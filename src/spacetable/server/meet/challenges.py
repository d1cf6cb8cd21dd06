"""Challenges (issue 69 item 3): an account challenges another, named, to a game with its
options, rated or casual, real-time or correspondence; the challenged player is told at
once on every page he has open (``challenge``), accepts (both are seated in a new room:
``meet/seating.py``), declines with a reason from :data:`DECLINE_REASONS`, or lets it
expire (:data:`~spacetable.server.store.meetings.REALTIME_CHALLENGE_SECONDS`, a week by
correspondence); the challenger may cancel it. Every end is told to both players
(``challenge_closed``).

Refused: a guest (401), oneself (400), an unknown or deleted name (404), an unknown game
or option (422), a player either of the two blocks (403: a block keeps the two apart both
ways, as the pool does, so that the blocker cannot pester the blocked either), more than
:data:`~spacetable.server.store.meetings.CHALLENGES_AN_HOUR` challenges an hour (429,
counted in the database: every process's requests).
"""

from __future__ import annotations

import asyncio
import logging
import math
from dataclasses import dataclass
from typing import Any, Literal, Protocol, cast

from spacetable.i18n.phrase import Reason, phrase_n, refusal
from spacetable.server.meet.hub import Player, PlayerHub
from spacetable.server.meet.seating import SeatingServices, open_room_seats, seated_options
from spacetable.server.protocol.lobby_messages import Challenge as ChallengeMessage
from spacetable.server.protocol.lobby_messages import ChallengeClosed, ChallengeView, Paired
from spacetable.server.store.accounts import AccountStore
from spacetable.server.store.meetings import (
    CHALLENGES_AN_HOUR,
    CORRESPONDENCE_CHALLENGE_SECONDS,
    REALTIME_CHALLENGE_SECONDS,
    Challenge,
    MeetingStore,
    TooManyChallenges,
    new_id,
)
from spacetable.server.store.relations import RelationStore

log = logging.getLogger("spacetable.meet")

#: Why a challenge may be declined (the pages write each reason's sentence).
DECLINE_REASONS = ("generic", "later", "too_fast", "too_slow", "rated", "casual", "game")

Status = Literal["accepted", "declined", "cancelled", "expired"]


class ChallengeRefused(ValueError):
    """A challenge (or an answer to one) refused: ``args[0]`` says why, ``status`` is the
    HTTP status that tells it."""

    def __init__(self, said: str, status: int) -> None:
        super().__init__(said)
        self.status = status


class MeetServices(SeatingServices, Protocol):
    """What the challenges need of the application's services (``http/deps.py``)."""

    @property
    def hub(self) -> PlayerHub | None:
        """The players' lobby sockets."""
        ...

    @property
    def meetings(self) -> MeetingStore | None:
        """The seeks and challenges."""
        ...


class Dropping(Protocol):
    """What :func:`drop_account` needs: the seeks and challenges, the lobby sockets."""

    @property
    def hub(self) -> PlayerHub | None:
        """The players' lobby sockets."""
        ...

    @property
    def meetings(self) -> MeetingStore | None:
        """The seeks and challenges."""
        ...


@dataclass(frozen=True, slots=True)
class ChallengeBody:
    """A ``POST /api/challenges`` body, checked (but whom it names)."""

    to: str
    game: str
    options: dict[str, Any]
    rated: bool
    turn_hours: float | None


def challenge_body(body: Any) -> ChallengeBody:
    """Check a ``POST /api/challenges`` body ``{to, game, options?, rated, turn_hours?}``.
    Raises :class:`ChallengeRefused`: 400 naming the field, 422 for the room's options (as
    ``POST /api/rooms`` checks them)."""
    if not isinstance(body, dict):
        raise ChallengeRefused(refusal("the body must be a JSON object"), 400)
    to, game, options = body.get("to"), body.get("game"), body.get("options") or {}
    rated, hours = body.get("rated"), body.get("turn_hours")
    if not isinstance(to, str) or not to.strip() or len(to) > 80:
        raise ChallengeRefused(refusal("to: the name of the player you challenge"), 400)
    if not isinstance(rated, bool):
        raise ChallengeRefused(refusal("rated: true (a rated game) or false (a casual one)"), 400)
    if not isinstance(options, dict):
        raise ChallengeRefused(refusal("options: the room's options, a JSON object"), 400)
    if hours is not None and (
        not isinstance(hours, int | float) or isinstance(hours, bool) or not math.isfinite(hours)
    ):
        raise ChallengeRefused(
            refusal("turn_hours: hours a turn waits, or null for real time"), 400
        )
    named = str(game) if isinstance(game, str) else repr(game)
    try:
        seated_options(named, {k: v for k, v in options.items() if k != "seats"}, 2, hours)
    except ValueError as exc:
        raise ChallengeRefused(exc.args[0] if exc.args else str(exc), 422) from None
    assert isinstance(game, str)
    return ChallengeBody(to.strip(), game, options, rated, None if hours is None else float(hours))


async def send_challenge(
    meetings: MeetingStore,
    accounts: AccountStore,
    relations: RelationStore | None,
    hub: PlayerHub,
    sender: Player,
    asked: ChallengeBody,
) -> Challenge:
    """Store the challenge ``asked`` from ``sender`` and tell the challenged player at
    once. Raises :class:`ChallengeRefused` (the module's refusals)."""
    if sender.account is None:
        raise ChallengeRefused(refusal("Log in to challenge a player."), 401)
    account = sender.account

    def store() -> Challenge:
        target = accounts.find(asked.to)
        if target is None:
            raise ChallengeRefused(refusal("No player is called “{name}”.", name=asked.to), 404)
        if target.key == account:
            raise ChallengeRefused(refusal("You cannot challenge yourself."), 400)
        if relations is not None and relations.blocks_either(account, target.key):
            said = refusal(
                "You cannot challenge {name}: one of you blocks the other.", name=target.name
            )
            raise ChallengeRefused(said, 403)
        now = meetings.wall()
        live = asked.turn_hours is None
        wait = REALTIME_CHALLENGE_SECONDS if live else CORRESPONDENCE_CHALLENGE_SECONDS
        challenge = Challenge(
            new_id(),
            account,
            sender.name,
            target.key,
            target.name,
            asked.game,
            {k: v for k, v in asked.options.items() if k != "seats"},
            asked.rated,
            asked.turn_hours,
            now,
            now + wait,
        )
        try:
            meetings.add_challenge(challenge)
        except TooManyChallenges:
            many = phrase_n(
                "You sent {n} challenges within the hour: wait before the next one.",
                "You sent {n} challenges within the hour: wait before the next one.",
                CHALLENGES_AN_HOUR,
            )
            raise ChallengeRefused(Reason(many), 429) from None
        return challenge

    challenge = await asyncio.to_thread(store)
    await hub.send(challenge.to_key, ChallengeMessage(cast(ChallengeView, challenge.view())))
    return challenge


async def _tell_closed(hub: PlayerHub, challenge: Challenge) -> None:
    """Tell both players the challenge ended (``challenge_closed``)."""
    closed = ChallengeClosed(
        challenge.id,
        challenge.status,  # type: ignore[arg-type]
        challenge.reason,  # type: ignore[arg-type]
        challenge.room,
    )
    for key in (challenge.from_key, challenge.to_key):
        await hub.send(key, closed)


def _not_open(challenge_id: str) -> ChallengeRefused:
    said = refusal(
        "There is no open challenge {id} for you: it was answered, withdrawn or ran out.",
        id=challenge_id[:40],
    )
    return ChallengeRefused(said, 404)


async def accept(services: MeetServices, player: Player, challenge_id: str) -> str:
    """The challenged ``player`` accepts: a room is made with both seated (the challenger
    first), both are told (``challenge_closed``, ``paired``). Returns the room's id.
    Raises :class:`ChallengeRefused` (404: no open challenge of his with that id)."""
    meetings, hub = services.meetings, services.hub
    assert meetings is not None and hub is not None
    if player.account is None:
        raise ChallengeRefused(refusal("Log in to answer a challenge."), 401)
    closed = await asyncio.to_thread(meetings.close, challenge_id, "accepted", by=player.account)
    if closed is None:
        raise _not_open(challenge_id)
    players = [
        Player(closed.from_key, closed.from_name, closed.from_key),
        Player(closed.to_key, closed.to_name, closed.to_key),
    ]
    try:
        options = seated_options(closed.game, closed.options, 2, closed.turn_hours)
        made = await open_room_seats(services, options, players, rated=closed.rated)
    except Exception:
        await asyncio.to_thread(meetings.reopen, challenge_id)
        raise
    await asyncio.to_thread(meetings.set_room, challenge_id, made.id)
    accepted = Challenge(**{**_fields(closed), "room": made.id})
    await _tell_closed(hub, accepted)
    for player_in in players:
        await hub.send(player_in.key, Paired(made.id, closed.game))
    return made.id


def _fields(challenge: Challenge) -> dict[str, Any]:
    return {name: getattr(challenge, name) for name in Challenge.__slots__}


async def decline(
    meetings: MeetingStore, hub: PlayerHub, player: Player, challenge_id: str, reason: Any
) -> Challenge:
    """The challenged ``player`` declines with ``reason`` (one of
    :data:`DECLINE_REASONS`): both are told. Raises :class:`ChallengeRefused` (400: an
    unknown reason; 404: no open challenge of his with that id)."""
    if reason not in DECLINE_REASONS:
        said = refusal(
            "reason: one of {reasons}, got {value}",
            reasons=", ".join(DECLINE_REASONS),
            value=repr(reason)[:40],
        )
        raise ChallengeRefused(said, 400)
    if player.account is None:
        raise ChallengeRefused(refusal("Log in to answer a challenge."), 401)
    closed = await asyncio.to_thread(
        meetings.close, challenge_id, "declined", by=player.account, reason=reason
    )
    if closed is None:
        raise _not_open(challenge_id)
    await _tell_closed(hub, closed)
    return closed


async def cancel(
    meetings: MeetingStore, hub: PlayerHub, player: Player, challenge_id: str
) -> Challenge:
    """The challenger ``player`` withdraws his challenge: both are told. Raises
    :class:`ChallengeRefused` (404: no open challenge of his with that id)."""
    if player.account is None:
        raise ChallengeRefused(refusal("Log in to answer a challenge."), 401)
    closed = await asyncio.to_thread(meetings.close, challenge_id, "cancelled", by=player.account)
    if closed is None:
        raise _not_open(challenge_id)
    await _tell_closed(hub, closed)
    return closed


async def expire(meetings: MeetingStore, hub: PlayerHub) -> None:
    """Close the challenges whose time ran out and tell both players (the pool runs it
    every round: ``meet/pool.py``)."""
    for challenge in await asyncio.to_thread(meetings.expire_due):
        await _tell_closed(hub, challenge)


async def drop_account(services: Dropping, key: str) -> None:
    """The account ``key`` is banned or deleted: its seeks go, and its open challenges,
    either way, are cancelled, the other players told (``challenge_closed``)."""
    meetings, hub = services.meetings, services.hub
    if meetings is None:
        return
    closed = await asyncio.to_thread(meetings.close_account, key)
    if hub is None:
        return
    for challenge in closed:
        await _tell_closed(hub, challenge)
