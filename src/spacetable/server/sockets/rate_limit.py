"""How many messages one room socket may send: token buckets (docs/protocol.md, "Limits").

Every message a client sends takes a token from its socket's message bucket before it is
even parsed; a message other than a ``pose`` takes one from a second, smaller bucket too.
A message that finds its bucket empty is dropped; the first of a run of dropped messages
is answered with an error, and a client that goes on sending (:data:`FLOOD_DROPS` dropped
in a row) is a flood: the socket closes it. The check runs for every pose, so it is a few
float operations on the room's clock (a :class:`Clock`, such as the rooms'
:class:`~spacetable.server.rooms.clock.RoomClock`: the event loop's in the server, one
moved by hand in a test), nothing more.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol

from spacetable.i18n import ENGLISH, Translator


class Clock(Protocol):
    """What the limits read of a clock (the rooms' ``RoomClock`` is one): the sockets sit
    below the rooms, so they name only what they use."""

    def now(self) -> float:
        """Monotonic seconds."""


#: Messages of any kind per second, sustained, unless the server says otherwise; poses are
#: most of them (a browser sends 20).
MESSAGES_PER_SECOND = 60.0
#: Seconds' worth of messages that may arrive at once (twice the rate).
BURST_SECONDS = 2.0
#: The share of the rate left for messages other than ``pose`` (60: 5 a second).
ACTION_SHARE = 1 / 12
#: Seconds' worth of messages other than ``pose`` that may arrive at once (60: 20).
ACTION_BURST_SECONDS = 4.0
#: Dropped messages in a row after which the client counts as flooding.
FLOOD_DROPS = 200


class Verdict(enum.Enum):
    """What to do with one message."""

    #: Handle it.
    ALLOW = "allow"
    #: Drop it and tell the client why: the first message over the limit.
    THROTTLE = "throttle"
    #: Drop it quietly: the client has been told.
    DROP = "drop"
    #: Drop it and close the socket: the client does not slow down.
    FLOOD = "flood"


@dataclass(slots=True)
class TokenBucket:
    """``rate`` events per second on average, up to ``burst`` at once (times in seconds,
    on any monotonic clock)."""

    rate: float
    burst: float
    tokens: float
    stamp: float
    #: Events refused since the last one allowed.
    refused: int = 0

    @classmethod
    def full(cls, rate: float, burst: float, now: float) -> TokenBucket:
        """A bucket that allows a whole burst at ``now``."""
        return cls(rate, burst, burst, now)

    def take(self, now: float) -> bool:
        """Take a token at time ``now``; False (and the refusal counted) if none is left."""
        tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if tokens < 1.0:
            self.tokens = tokens
            self.refused += 1
            return False
        self.tokens = tokens - 1.0
        self.refused = 0
        return True


class MessageLimits:
    """One socket's limits, ``rate`` messages a second on ``clock``: :meth:`message` for
    every message as it arrives, then :meth:`action` for one that is not a pose."""

    __slots__ = ("_actions", "_clock", "_messages", "rate")

    def __init__(self, rate: float, clock: Clock) -> None:
        self.rate = rate
        self._clock = clock
        now = clock.now()
        self._messages = TokenBucket.full(rate, rate * BURST_SECONDS, now)
        actions = rate * ACTION_SHARE
        self._actions = TokenBucket.full(actions, actions * ACTION_BURST_SECONDS, now)

    def explain(self, tr: Translator = ENGLISH) -> str:
        """What the client is told when its messages start being dropped (in ``tr``'s
        language)."""
        return tr.gettext(
            "too many messages: at most {rate} a second, {actions} of them other than pose; "
            "the ones over the limit are dropped",
            rate=self.rate,
            actions=self.rate * ACTION_SHARE,
        )

    def message(self) -> Verdict:
        """The verdict on a message that arrived now, before it is read."""
        bucket = self._messages
        return Verdict.ALLOW if bucket.take(self._clock.now()) else _refusal(bucket)

    def action(self) -> Verdict:
        """The verdict on a message other than ``pose`` (already counted by
        :meth:`message`)."""
        bucket = self._actions
        return Verdict.ALLOW if bucket.take(self._clock.now()) else _refusal(bucket)


def _refusal(bucket: TokenBucket) -> Verdict:
    if bucket.refused == 1:
        return Verdict.THROTTLE
    return Verdict.FLOOD if bucket.refused > FLOOD_DROPS else Verdict.DROP
