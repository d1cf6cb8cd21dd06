"""A stored hex fleet match's frames as a replay shows them, rebuilt from its seed and
actions when the stored ones cannot be written in the reader's language.

A room stores a hex fleet match with its frames (the opening and one per action: its
events, its log lines and the state after it; ``server/rooms/turns.py``). Matches stored
before the log became phrases (23 November 2026) hold their log lines as English sentences
only, and a match may have been stored with no frames at all. Every match replays exactly
from its seed and action log, so :func:`frames_to_show` plays it again and gives its frames
as a room writes them now: each log line with its phrase (``says``), which the replay page
writes in its reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacetable.games.hexfleet.match import HexMatch


def _has_phrases(frames: Any) -> bool:
    """Whether ``frames`` are a list of frames whose every log line has its phrase."""
    if not isinstance(frames, list) or not frames:
        return False
    for frame in frames:
        if not isinstance(frame, Mapping):
            return False
        for line in frame.get("log") or ():
            if not isinstance(line, Mapping) or "says" not in line:
                return False
    return True


def rebuilt_frames(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The frames of the match ``record`` (``ruleset``, ``options``, ``seed``,
    ``actions``) played again, as a room stores them. Raises ``ValueError`` for a record
    that does not replay (a malformed one, an action the rules refuse)."""
    seed = record.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("a match record's 'seed' must be an integer")
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise ValueError("a match record's 'actions' must be a list")
    match = HexMatch(HexMatch.options_from_json(record.get("options")), seed)
    told = 0

    def frame(player: Any, action: Any, events: list[dict[str, Any]]) -> dict[str, Any]:
        nonlocal told
        log, told = match.log[told:], len(match.log)
        return {"player": player, "action": action, "events": events, "log": log,
                **match.snapshot()}  # fmt: skip

    frames = [frame(None, None, [e.to_json() for e in match.opening])]
    for data in actions:
        action = HexMatch.action_from_json(data)
        events = [e.to_json() for e in match.apply(action)]
        shown = action.to_json()
        player = shown.pop("player", None)
        shown.pop("t", None)
        frames.append(frame(player, shown, events))
    return frames


def for_replay(stored: dict[str, Any]) -> dict[str, Any]:
    """The stored hex fleet match ``stored`` as a replay shows it (the game's
    ``Game.upgrade_stored``): with its frames rebuilt (:func:`frames_to_show`) when its own
    log lines are not phrases, else as it is."""
    frames = frames_to_show(stored)
    return stored if frames is None else {**stored, "events": frames}


def frames_to_show(stored: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """The frames a replay of the stored hex fleet match ``stored`` (``GET
    /api/matches/{id}``) should step through: ``None`` when its own are whole (every log
    line a phrase), else them rebuilt from its seed and actions; ``None`` too when it does
    not replay (then its stored frames are all there is)."""
    if _has_phrases(stored.get("events")):
        return None
    try:
        return rebuilt_frames(stored)
    except (ValueError, TypeError, KeyError):
        return None
