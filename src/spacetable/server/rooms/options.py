"""A room's options as a player asks for them: the body of ``POST /api/rooms`` (and of a
seek or a challenge, issue 69) checked once, here, into the
:class:`~spacetable.server.rooms.match.RoomOptions` a room is made with."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from spacetable._userinput import clipped
from spacetable.core.rules import CORRESPONDENCE_OPTION
from spacetable.i18n.phrase import refusal
from spacetable.i18n.validation import first_problem
from spacetable.registry import default_ruleset, game_for_ruleset, games
from spacetable.server.rooms.match import RoomOptions

__all__ = ["room_options"]


def room_options(body: Any) -> RoomOptions:
    """Validate a ``POST /api/rooms`` body (one that names no ruleset: the registry's
    default game, :func:`~spacetable.registry.default_ruleset`). Raises ``ValueError``
    with a message naming the bad field."""
    if not isinstance(body, dict):
        raise ValueError(refusal("the body must be a JSON object"))
    ruleset = body.get("ruleset", default_ruleset())
    playable = [r for entry in games() if entry.rules.playable for r in entry.rules.rulesets]
    if not isinstance(ruleset, str) or ruleset not in playable:
        raise ValueError(
            refusal(
                "ruleset: must be one of {rulesets}, got {value}",
                rulesets=", ".join(playable),
                value=clipped(ruleset),
            )
        )
    model = game_for_ruleset(ruleset).rules.room_options
    assert model is not None
    try:
        parsed = model.model_validate(body)
    except ValidationError as exc:
        where, said = first_problem(exc, "body")
        raise ValueError(refusal("{field}: {problem}", field=where, problem=said)) from None
    game = parsed.model_dump(exclude={"ruleset", "seats"}, by_alias=True)
    if game.get(CORRESPONDENCE_OPTION) is None:
        game.pop(CORRESPONDENCE_OPTION, None)  # played live: the room's options as before
    options = RoomOptions(ruleset, parsed.model_dump()["seats"], game)
    options.check()  # InvalidOptions (a ValueError): e.g. two seats with one race
    return options
