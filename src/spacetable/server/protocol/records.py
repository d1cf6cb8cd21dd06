"""How a server message is declared and written: the :func:`message` decorator, the field
markers, and :func:`wire`, which writes a record as the JSON object sent.

Each message (``server_messages.py``) is a record made by :func:`message`: a slotted
dataclass with a JSON tag, as the games' ``@tagged`` events and actions are
(:mod:`spacetable.core.records`), but not frozen (a frozen dataclass sets each field
through ``object.__setattr__``, which tripled the cost of building a message; nothing
changes one once built). Records rather than pydantic models: building one costs a
dataclass's construction and nothing is validated on the way out (the socket path sends
thousands a second); pydantic only reads the field types to write the JSON Schema
(:mod:`~spacetable.server.protocol.schema`).

Three markers shape what :func:`wire` writes and what the schema says:

- :data:`SPREAD`: the field is a JSON object whose keys go into the message itself, in
  place (a game's view in ``state``, a hex fleet's frame in ``acted``).
- :data:`BY_GAME`: the field's keys (spread) or its object are each game's own, declared
  by its registration (``Game.payloads``, under the message's tag) and by its pacing's
  clocks (:mod:`~spacetable.server.protocol.payloads`): the schema has one definition a
  game (``$defs/games``) and refuses a key none declares.
- :data:`OMITTED`: the field is left out of the message when it is ``None`` (``welcome``'s
  ``elsewhere``, ``placed``'s ``players``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, dataclass_transform, get_type_hints

from spacetable.core.records import field_names

__all__ = ["BY_GAME", "OMITTED", "SPREAD", "GameObject", "json_name", "message", "wire"]

T = TypeVar("T")


@dataclass_transform()
def message(tag: str) -> Callable[[type[T]], type[T]]:
    """A class decorator: the class becomes a slotted dataclass whose ``type_name`` is
    ``tag`` (the ``"type"`` of the message it declares)."""

    def declare(cls: type[T]) -> type[T]:
        setattr(cls, "type_name", tag)  # noqa: B010 (T is any class: mypy knows no type_name)
        return dataclass(slots=True)(cls)

    return declare


class _Marker:
    """A field marker read by :func:`wire` and the schema (``Annotated[T, marker]``)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


#: The field's JSON object is written into the message itself, its keys in place.
SPREAD = _Marker("SPREAD")
#: The field is left out of the message when it is ``None``.
OMITTED = _Marker("OMITTED")
#: The field's keys or object are each game's own, declared by its registration.
BY_GAME = _Marker("BY_GAME")

#: A game's own JSON object (its view, its events, its result), declared by the game.
GameObject = dict[str, Any]


def json_name(field: str) -> str:
    """A field's name in JSON: its Python name without a trailing ``_`` (``from_``)."""
    return field[:-1] if field.endswith("_") else field


def _writer(cls: type[Any]) -> Callable[[Any], dict[str, Any]]:
    """The function that writes a ``cls`` message as JSON, made once from its fields (as
    dataclasses make their ``__init__``): one dict display up to the first
    :data:`OMITTED` field, then one statement a field, so that writing a message costs
    what the hand-written dict did."""
    hints = get_type_hints(cls, include_extras=True)
    head = [f"'type': {cls.type_name!r}"]
    tail: list[str] = []
    for name in field_names(cls):
        extras = getattr(hints[name], "__metadata__", ())
        key = json_name(name)
        if OMITTED in extras:
            tail.append(f"    if m.{name} is not None:\n        out[{key!r}] = m.{name}")
        elif SPREAD in extras:
            (tail.append(f"    out.update(m.{name})") if tail else head.append(f"**m.{name}"))
        elif tail:
            tail.append(f"    out[{key!r}] = m.{name}")
        else:
            head.append(f"{key!r}: m.{name}")
    source = "\n".join(
        ["def write(m):", f"    out = {{{', '.join(head)}}}", *tail, "    return out"]
    )
    scope: dict[str, Any] = {}
    exec(source, scope)
    write: Callable[[Any], dict[str, Any]] = scope["write"]
    return write


_WRITERS: dict[type[Any], Callable[[Any], dict[str, Any]]] = {}


def wire(message: Any) -> dict[str, Any]:
    """Server message ``message`` (a record of ``server_messages.py``) as the JSON object
    sent: ``{"type": its tag, field: value, ...}`` in declaration order, a :data:`SPREAD`
    field's keys in place, an :data:`OMITTED` field left out when ``None``."""
    cls = type(message)
    write = _WRITERS.get(cls)
    if write is None:
        write = _WRITERS[cls] = _writer(cls)
    return write(message)
