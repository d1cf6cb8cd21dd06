"""The websocket protocol: client messages validated at the boundary (pydantic).

Every client message is a JSON object with a ``type``; :func:`parse_client_message` turns
raw text into one of the models below, or one a registered game adds (its moves and its
seat choices' messages: :mod:`spacetable.registry.messages`), or raises
:class:`ProtocolError` with a message that names the problem. The models are declared in
:mod:`spacetable.server.protocol.client_messages` (re-exported here), the server's own
messages in :mod:`~spacetable.server.protocol.server_messages`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, cast

import orjson
from pydantic import BaseModel, ValidationError

from spacetable._userinput import clipped, json_error_said
from spacetable.i18n.phrase import refusal
from spacetable.i18n.validation import first_problem
from spacetable.server.protocol.client_messages import (
    MAX_TAB_CHARS,
    POSE_PULSE,
    Absence,
    Act,
    AnswerDraw,
    Chat,
    ClientMessage,
    DeclineRematch,
    Discard,
    Draft,
    Drop,
    Forsake,
    FreeSeat,
    HandPose,
    Join,
    Leave,
    OfferDraw,
    OpenChat,
    Ping,
    Place,
    Plot,
    Ready,
    Rejoin,
    Rematch,
    Resign,
    Resync,
    SeatBot,
    Unplot,
    Watch,
    client_models,
)

#: Re-exported: the rooms read the client messages as ``msg.Join``...
__all__ = [
    "MAX_TAB_CHARS",
    "POSE_PULSE",
    "Absence",
    "Act",
    "AnswerDraw",
    "Chat",
    "ClientMessage",
    "DeclineRematch",
    "Discard",
    "Draft",
    "Drop",
    "Forsake",
    "FreeSeat",
    "HandPose",
    "Join",
    "Leave",
    "OfferDraw",
    "OpenChat",
    "Ping",
    "Place",
    "Plot",
    "Pose",
    "ProtocolError",
    "Ready",
    "Rejoin",
    "Rematch",
    "Resign",
    "Resync",
    "SeatBot",
    "Unplot",
    "Watch",
    "client_models",
    "parse_client_message",
]


class ProtocolError(ValueError):
    """A client message that is not valid JSON or not a valid message. Its message is a
    :class:`~spacetable.i18n.phrase.Reason`: English text, and a phrase for the socket's
    reader."""


@functools.cache
def _fields(model: type[BaseModel]) -> frozenset[str]:
    """A model's fields, to refuse an unknown one before pydantic looks at the message."""
    return frozenset(model.model_fields)


_POSE_KEYS = frozenset(("type", "x", "y", "rotation"))


@dataclass(slots=True)
class Pose:
    """A validated ``pose`` message (:class:`HandPose`), in the light form the room keeps:
    poses are most of the traffic. Not frozen (nothing changes one): a frozen dataclass
    sets each field through ``object.__setattr__``, which made building the poses of 100
    rooms 2.6% of their server's time (py-spy, ``loadtest --rooms 100``)."""

    x: float
    y: float
    rotation: float


def _plain_pose(data: dict[str, Any]) -> Pose | None:
    """A ``pose`` message checked by hand when it is plainly valid (plain JSON numbers, all
    finite, no other field); ``None`` for anything else, which then goes through full
    validation. Poses are most of the traffic, so they skip pydantic's machinery."""
    if data.get("type") != "pose" or data.keys() != _POSE_KEYS:
        return None
    x, y, rotation = data["x"], data["y"], data["rotation"]
    for value in (x, y, rotation):
        if type(value) not in (int, float) or not math.isfinite(value):
            return None
    return Pose(float(x), float(y), float(rotation))


def parse_client_message(text: str | bytes) -> Pose | ClientMessage:
    """Validate one client message (a ``pose`` comes back as a :class:`Pose`). Raises
    :class:`ProtocolError` naming the problem."""
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as exc:  # invalid UTF-8 too
        raise ProtocolError(
            refusal("message is not valid JSON: {error}", error=json_error_said(exc))
        ) from exc
    if not isinstance(data, dict):
        raise ProtocolError(refusal("message must be a JSON object with a 'type'"))
    pose = _plain_pose(data)
    if pose is not None:
        return pose
    kind = data.get("type")
    models = client_models()
    model = models.get(kind) if isinstance(kind, str) else None
    if model is None:
        if kind is None:
            raise ProtocolError(refusal("message must be a JSON object with a 'type'"))
        expected = ", ".join(models)
        raise ProtocolError(
            refusal(
                "unknown message type {type}: expected one of {expected}",
                type=clipped(kind),
                expected=expected,
            )
        )
    # Unknown fields are refused here, at the first one, so that a message stuffed with
    # extra keys costs one pass over its keys instead of one validation error per key.
    fields = _fields(model)
    for key in data:
        if key not in fields:
            raise ProtocolError(
                refusal(
                    "bad {type} message: unknown field {field}", type=str(kind), field=clipped(key)
                )
            )
    try:
        message = model.model_validate(data)
    except ValidationError as exc:
        where, said = first_problem(exc, "type")
        raise ProtocolError(
            refusal(
                "bad {type} message: {field}: {problem}", type=str(kind), field=where, problem=said
            )
        ) from exc
    if isinstance(message, HandPose):
        return Pose(message.x, message.y, message.rotation)
    return cast(ClientMessage, message)
