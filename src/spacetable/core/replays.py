"""Replaying a stored match from its seed and action log (``spacetable replay``).

A stored match (``GET /api/matches/{id}``, or a row of the database) holds the ruleset,
the match options, the seed and every action with its server time. :func:`replay_record`
rebuilds the match (its game's :class:`~spacetable.core.match.Match`) and checks the
outcome it reaches against the one stored: a match that does not replay exactly is a bug.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from spacetable.core.endings import is_stopped, stopped_result
from spacetable.core.match import IllegalAction, Match
from spacetable.i18n import SOURCE, Translator
from spacetable.i18n.phrase import Phrase, refusal


@dataclass(frozen=True, slots=True)
class Replayed:
    """A stored match played again: its title, players, action count, the result reached,
    the result stored, whether they agree, and the match's log in words (if it keeps one):
    in English, and as phrases (:meth:`log_in` writes them in a reader's language)."""

    title: str
    players: tuple[str, ...]
    actions: int
    result: dict[str, Any] | None
    stored: dict[str, Any] | None
    log: tuple[str, ...]
    #: Each line of :attr:`log` as a phrase (``None``: a line the match keeps in English).
    told: tuple[Phrase | None, ...] = ()
    #: How the places of the phrases that hold codes are shown to a reader (the match
    #: type's :meth:`~spacetable.core.match.Match.log_places`).
    places: Callable[[Translator], Mapping[str, Callable[[str], str]] | None] | None = None

    def log_in(self, tr: Translator) -> tuple[str, ...]:
        """The log in ``tr``'s language (the source language: :attr:`log` as it is)."""
        if tr.lang == SOURCE or not self.told:
            return self.log
        shown = None if self.places is None else self.places(tr)
        return tuple(
            text if said is None else said.text(tr, shown)
            for text, said in zip(self.log, self.told, strict=True)
        )

    @property
    def exact(self) -> bool:
        """Whether the replay reached the stored result (every field the game's result
        has; the stored one may carry more, such as the board at the start)."""
        if self.result is None or self.stored is None:
            return self.result == self.stored
        return all(self.stored.get(key) == value for key, value in self.result.items())

    def to_json(self) -> dict[str, Any]:
        """As ``spacetable replay --json`` prints it."""
        return {
            "game": self.title,
            "players": list(self.players),
            "actions": self.actions,
            "result": self.result,
            "stored_result": self.stored,
            "exact": self.exact,
        }


def replay_record(data: Mapping[str, Any], match_type: type[Match[Any, Any]]) -> Replayed:
    """Replay a stored match of the game whose match state machine is ``match_type``.
    Raises ``ValueError`` naming the problem (a malformed record, an action the rules
    refuse)."""
    record = {key: data.get(key) for key in ("ruleset", "options", "seed", "actions")}
    match = match_type.from_record(record)
    outcome: Any = match.result()  # each game's outcome has its to_json
    result = None if outcome is None else outcome.to_json()
    stored = _as_reached(data.get("result"), data.get("events"), result)
    if is_stopped(stored):
        # Stopped by the room (a resignation, a draw agreed, a win claimed): its actions
        # leave the match unfinished, and its ending decides the result.
        assert isinstance(stored, Mapping)
        if outcome is not None:
            raise IllegalAction(
                refusal("the match was over by its rules before its stored ending {ending}",
                        ending=repr(stored["ending"]))
            )  # fmt: skip
        result = stopped_result(match.players, stored["ending"], stored.get("ending_by"))
    log = getattr(match, "log", None) or []
    return Replayed(
        match.title,
        tuple(match.players),
        len(match.actions),
        result,
        stored if isinstance(stored, dict) else None,
        tuple(line["text"] if isinstance(line, dict) else str(line) for line in log),
        tuple(_told(line) for line in log),
        match_type.log_places,
    )


def _as_reached(stored: object, events: object, reached: Mapping[str, Any] | None) -> object:
    """The stored result as the match reached it. A store keeps the match's events apart
    from its result, in the record's own ``events``: a result that carries its events
    (a laser battle's) is stored without them (``server/rooms/realtime.py``), so they are
    put back when the result reached has events and the stored one has none. Any other
    stored result (events of their own kept elsewhere: FTL's turns, hex fleet's frames)
    is as stored."""
    if (
        isinstance(stored, dict)
        and "events" not in stored
        and events is not None
        and reached is not None
        and "events" in reached
    ):
        return {**stored, "events": events}
    return stored


def _told(line: object) -> Phrase | None:
    """A log line's phrase (``{"text", "says"}``), ``None`` for one in English only."""
    says = line.get("says") if isinstance(line, Mapping) else None
    return Phrase.from_json(says) if isinstance(says, Mapping) else None
