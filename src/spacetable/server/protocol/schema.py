"""The protocol as one JSON Schema (draft 2020-12), written from the declarations:
``spacetable protocol schema`` prints it.

Two top-level definitions, ``$defs/client`` (page to server) and ``$defs/server`` (server
to page), each a ``oneOf`` of one branch per message, told apart by ``type`` (each branch
has ``"type": {"const": tag}`` and requires it: plain JSON Schema has no ``discriminator``,
which is OpenAPI's). A server envelope refuses a field it does not declare
(``additionalProperties: false``). A ``state`` carries its game's view and its pacing's
clocks in place (:data:`~spacetable.server.protocol.records.BY_GAME`): each game's
registration declares its view (``Game.payloads``), joined with its pacing's clocks
(:data:`~spacetable.server.protocol.payloads.PACING_CLOCKS`) under
``$defs/games/$defs/<game>/$defs/state``; the ``state`` branch is one of those (told apart
by ``ruleset``) and refuses a key none declares (``unevaluatedProperties: false``); the hex
fleet's ``acted`` frame is declared so too. A ``result``'s ``result`` is the game's the
message's ``ruleset`` names, closed to other keys. A ``placed`` card and its ``players``,
``poses``' entries, a room's ``correspondence`` and ``chat_history``'s lines are closed shapes
(``protocol/payloads.py``); a game's other objects inside a message (a ``turn``'s events and
``before`` pieces, a ``battle``'s table and result, a room's ``options``) are
``{"type": "object"}``, described in words. The
HTTP JSON bodies are FastAPI's own (``/openapi.json``'s ``components.schemas``), embedded once under
``$defs/http/$defs`` with their references rewritten to point there, not declared again.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, get_type_hints

from pydantic import TypeAdapter

from spacetable.registry import games
from spacetable.server.protocol.bot_messages import GAME_LINES
from spacetable.server.protocol.client_docs import CLIENT_DOCS
from spacetable.server.protocol.client_messages import client_models
from spacetable.server.protocol.event_lines import EVENT_LINES
from spacetable.server.protocol.payloads import PACING_CLOCKS
from spacetable.server.protocol.records import BY_GAME, OMITTED, SPREAD, json_name
from spacetable.server.protocol.server_messages import SERVER_MESSAGES

DIALECT = "https://json-schema.org/draft/2020-12/schema"


class FieldInfo:
    """One field of a server message as the schema and the docs see it."""

    def __init__(self, name: str, hint: Any, required: bool) -> None:
        self.name = json_name(name)
        #: Every message carries it (no default).
        self.required = required
        extras = getattr(hint, "__metadata__", ())
        self.kind = hint.__origin__ if extras else hint
        self.doc = next((e.documentation for e in extras if hasattr(e, "documentation")), "")
        self.spread = SPREAD in extras
        #: Its keys (or its object) are each game's own (``Game.payloads``).
        self.by_game = BY_GAME in extras
        self.omitted = OMITTED in extras


def server_fields(cls: type[Any]) -> list[FieldInfo]:
    """The fields of server message ``cls``, in declaration order."""
    hints = get_type_hints(cls, include_extras=True)
    return [
        FieldInfo(f.name, hints[f.name], f.default is dataclasses.MISSING)
        for f in dataclasses.fields(cls)
    ]


def _field_schema(field: FieldInfo, defs: dict[str, Any]) -> dict[str, Any]:
    """The schema of one field; the definitions it refers to go into ``defs`` (the server
    messages' own ``$defs``)."""
    schema = dict(TypeAdapter(field.kind).json_schema())
    defs.update(_rewritten(schema.pop("$defs", {}), "#/$defs/", SERVER_DEFS))
    schema = _rewritten(schema, "#/$defs/", SERVER_DEFS)
    entries = schema.get("additionalProperties")
    typed = isinstance(entries, dict) and ("$ref" in entries or "properties" in entries)
    if schema.get("type") == "object" and not schema.get("properties") and not typed:
        schema = {"type": "object"}  # a game's object: declared by the game
    if field.doc:
        schema["description"] = field.doc
    return schema


#: Where the definitions the server messages share are (a seat, a rating).
SERVER_DEFS = "#/$defs/server/$defs/"


def server_schema(cls: type[Any], defs: dict[str, Any]) -> dict[str, Any]:
    """The branch of server message ``cls``; the definitions it refers to go into
    ``defs``."""
    properties: dict[str, Any] = {"type": {"const": cls.type_name}}
    required = ["type"]
    spread = by_game = False
    games_own: list[str] = []  # the fields whose object is each game's (not in place)
    for field in server_fields(cls):
        if field.spread:
            by_game = by_game or field.by_game
            spread = spread or not field.by_game
            continue
        properties[field.name] = _field_schema(field, defs)
        if field.required:
            required.append(field.name)
        if field.by_game:
            games_own.append(field.name)
    branch: dict[str, Any] = {
        "title": cls.__name__,
        "description": " ".join((cls.__doc__ or "").split()),
        "type": "object",
        "properties": properties,
        "required": required,
    }
    payloads = _game_payloads()
    keys = [key for key, tags in payloads.items() if cls.type_name in tags]
    declared: list[dict[str, Any]] = [
        {"$ref": f"{GAMES_DEFS}{key}/$defs/{cls.type_name}"} for key in keys
    ]
    # A game no registration here declares (one added to a server alone: SPACETABLE_GAMES)
    # is told by a ruleset none of the declaring games plays: its objects go unchecked.
    known = [ruleset for key in keys for ruleset in _rulesets()[key]]
    other_game = {"properties": {"ruleset": {"type": "string", "not": {"enum": known}}}}
    if games_own and declared:
        # The game's object as its game declares it: the game the message's ruleset names.
        branch["oneOf"] = [
            {
                "properties": {
                    "ruleset": {"enum": list(_rulesets()[key])},
                    **{name: ref for name in games_own},
                }
            }
            for key, ref in zip(keys, declared, strict=True)
        ] + [other_game]
    if by_game and declared and not spread:
        # Each game's keys in place: one game's (told apart by its ruleset), and no other key;
        # a message of a game none declares, if it carries a ruleset, as it comes.
        in_place = declared
        if all("ruleset" in payloads[key][cls.type_name].get("properties", {}) for key in keys):
            in_place = [
                *declared,
                other_game | {"required": ["ruleset"], "additionalProperties": True},
            ]
        return branch | {"oneOf": in_place, "unevaluatedProperties": False}
    return branch | {"additionalProperties": spread or by_game}


#: Where each game's declared objects are (``$defs/games/$defs/<game>/$defs/<type>``).
GAMES_DEFS = "#/$defs/games/$defs/"


def _game_payload(key: str, tag: str, declared: Any, pacing: str, rulesets: Any) -> Any:
    """The schema of game ``key``'s object in message ``tag`` (a ``state``: its view joined
    with its pacing's clocks), its nested definitions under the game's own ``$defs``."""
    own = f"{GAMES_DEFS}{key}/$defs/"
    parts = [TypeAdapter(declared).json_schema()]
    if tag != "state":  # an object of its own (a result): as declared
        whole = parts[0]
        inside = whole.pop("$defs", {})
        return _rewritten(whole, "#/$defs/", own), _rewritten(inside, "#/$defs/", own)
    parts.append(TypeAdapter(PACING_CLOCKS[pacing]).json_schema())
    properties: dict[str, Any] = {}
    required: list[str] = []
    nested: dict[str, Any] = {}
    for part in parts:
        nested.update(part.pop("$defs", {}))
        properties.update(part.get("properties", {}))
        required += [name for name in part.get("required", ()) if name not in required]
    if "ruleset" in properties:
        properties["ruleset"] = {"enum": list(rulesets)}
    schema = {"type": "object", "properties": properties, "required": required}
    return _rewritten(schema, "#/$defs/", own), _rewritten(nested, "#/$defs/", own)


@functools.cache
def _rulesets() -> dict[str, tuple[str, ...]]:
    """Each registered game's rulesets, by its key."""
    return {entry.rules.key: tuple(entry.rules.rulesets) for entry in games()}


@functools.cache
def _game_payloads() -> dict[str, dict[str, Any]]:
    """Each registered game's declared objects, by message type, with their nested
    definitions (``Game.payloads``): the ``$defs`` of ``$defs/games/$defs/<game>``."""
    found: dict[str, dict[str, Any]] = {}
    for entry in games():
        rules = entry.rules
        own: dict[str, Any] = {}
        for tag, declared in entry.payloads:
            schema, nested = _game_payload(rules.key, tag, declared, rules.pacing, rules.rulesets)
            own |= nested | {tag: schema}
        if own:
            found[rules.key] = own
    return found


def client_schema(kind: str, model: type[Any]) -> dict[str, Any]:
    """The branch of client message ``kind`` (its pydantic model's schema, with the
    page's words as its description)."""
    schema = dict(model.model_json_schema())
    schema["required"] = sorted({"type", *schema.get("required", ())})
    words = CLIENT_DOCS.get(kind)
    if words is not None:
        fields = f" Fields: {words.said()}." if words.fields else ""
        schema["description"] = f"{words.effect} (when: {words.when}).{fields}"
        properties = schema.get("properties", {})
        for name, said in words.fields.items():
            if name in properties:
                properties[name] = {**properties[name], "description": said}
    return schema


def _rewritten(value: Any, old: str, new: str) -> Any:
    """``value`` with every ``$ref`` starting ``old`` pointed at ``new`` instead."""
    if isinstance(value, dict):
        return {
            k: (new + v[len(old) :])
            if k == "$ref" and isinstance(v, str) and v.startswith(old)
            else _rewritten(v, old, new)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_rewritten(v, old, new) for v in value]
    return value


@functools.cache
def _messages_schema() -> dict[str, Any]:
    client = [client_schema(kind, model) for kind, model in client_models().items()]
    # A client model's nested definitions (pydantic's $defs) go up to the branch's level.
    defs: dict[str, Any] = {}
    for branch in client:
        defs.update(branch.pop("$defs", {}))
    client = [_rewritten(b, "#/$defs/", "#/$defs/client/$defs/") for b in client]
    shared: dict[str, Any] = {}
    declared = _game_payloads()
    return {
        "client": {
            "description": "A message a page sends to the server.",
            "oneOf": client,
            **({"$defs": defs} if defs else {}),
        },
        "server": {
            "description": "A message the server sends to a page.",
            "oneOf": [server_schema(cls, shared) for cls in SERVER_MESSAGES],
            "$defs": shared,
        },
        "event_stream": {
            "description": (
                "A line of a bot's event stream (GET /api/stream/event); an empty line "
                "keeps it alive."
            ),
            "oneOf": [server_schema(cls, shared) for cls in EVENT_LINES],
        },
        "game_stream": {
            "description": (
                "A line of a bot's game stream of its own (GET /api/bot/game/stream/{room}); "
                "the room's own messages come on it too, as #/$defs/server."
            ),
            "oneOf": [server_schema(cls, shared) for cls in GAME_LINES],
        },
        "games": {
            "description": (
                "Each game's own objects in the server's messages, as its registration "
                "declares them (a state: its view with its pacing's clocks)."
            ),
            "$defs": {key: {"$defs": own} for key, own in declared.items()},
        },
    }


def protocol_schema(openapi: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole protocol's JSON Schema; ``openapi``: the application's OpenAPI document
    (``app.openapi()``), whose ``components.schemas`` become ``$defs/http/$defs``."""
    defs = dict(_messages_schema())
    if openapi is not None:
        components = openapi.get("components", {}).get("schemas", {})
        defs["http"] = {
            "description": (
                "The HTTP JSON bodies, as FastAPI describes them (/openapi.json's "
                "components.schemas, embedded once)."
            ),
            "$defs": _rewritten(components, "#/components/schemas/", "#/$defs/http/$defs/"),
        }
    return {
        "$schema": DIALECT,
        "$id": "https://spacetable.invalid/protocol.schema.json",
        "title": "spacetable protocol",
        "description": (
            "Every websocket message, both ways (docs/protocol.md): validate a page's "
            "message against #/$defs/client, the server's against #/$defs/server."
        ),
        "$defs": defs,
    }
