"""Declare once: every game's events and actions are frozen dataclasses with a JSON tag.

``@tagged("turn")`` on a class makes it a frozen, slotted dataclass whose ``type_name``
(the ``"type"`` of its JSON object) is ``"turn"``. The class body is the only place its
fields are written: :func:`record_json` writes any such record as JSON, :func:`rebuild`
reads it back, and :func:`by_tag` indexes a game's records by tag for decoding (a record
without a tag, :func:`fields_json`). The event and action bases
(:class:`~spacetable.core.events.Event`, :class:`~spacetable.core.match.Action`) build on
these; the actions' stricter checks of what a client sends are
:meth:`~spacetable.core.match.Action.from_json`'s.

Plain stdlib dataclasses keep what the rest of the code relies on (``dataclasses.replace``,
``fields``, slots, pickling, fast construction: the laser resolver makes its events in
bulk), and mypy reads ``@tagged`` as a dataclass (PEP 681).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Protocol, TypeVar, dataclass_transform


class Tagged(Protocol):
    """What :func:`tagged` makes: a dataclass whose JSON ``"type"`` is ``type_name``."""

    type_name: ClassVar[str]


T = TypeVar("T")
R = TypeVar("R", bound=Tagged)


@dataclass_transform(frozen_default=True)
def tagged(tag: str) -> Callable[[type[T]], type[T]]:
    """A class decorator: the class becomes a frozen, slotted dataclass whose
    ``type_name`` is ``tag`` (the ``"type"`` its JSON object carries)."""

    def declare(cls: type[T]) -> type[T]:
        setattr(cls, "type_name", tag)  # noqa: B010 (T is any class: mypy knows no type_name)
        return dataclass(frozen=True, slots=True)(cls)

    return declare


def record_json(record: Tagged) -> dict[str, Any]:
    """``record`` as a JSON object: ``{"type": its tag, field: value, ...}`` in the order
    its fields are declared; a tuple becomes a list (tuples inside it stay, and JSON writes
    them as lists too)."""
    out: dict[str, Any] = {"type": record.type_name}
    for name in field_names(type(record)):
        value = getattr(record, name)
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


def fields_json(record: Any, **computed: Any) -> dict[str, Any]:
    """Dataclass ``record``'s fields as a JSON object, in the order they are declared, each
    value as it is unless ``computed`` gives it (a nested record's JSON, a rounded number);
    ``computed`` names that are no field come after the fields. For the records that carry
    no tag (a view's part, a photo's close call): a tagged one is :func:`record_json`'s."""
    out = {name: getattr(record, name) for name in field_names(type(record))}
    out.update(computed)
    return out


def rebuild(cls: type[R], data: Mapping[str, Any]) -> R:
    """A ``cls`` record from :func:`record_json` output, trusting the values' types (a
    stored log the engine wrote): JSON lists become tuples, nested ones too. Raises
    ``ValueError`` naming the first missing field."""
    kwargs: dict[str, Any] = {}
    for name in field_names(cls):
        if name not in data:
            raise ValueError(f"{cls.type_name} event lacks {name!r}")
        value = data[name]
        kwargs[name] = _tupled(value) if isinstance(value, list) else value
    return cls(**kwargs)


def _tupled(items: list[Any]) -> tuple[Any, ...]:
    """``items`` as a tuple, and every list in it too."""
    return tuple(_tupled(v) if isinstance(v, list) else v for v in items)


def field_names(cls: type[Any]) -> tuple[str, ...]:
    """The names of dataclass ``cls``'s fields in declaration order (read once a class:
    records are written and read in bulk)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


_FIELD_NAMES: dict[type[Any], tuple[str, ...]] = {}


def by_tag(*classes: type[R]) -> dict[str, type[R]]:
    """The ``classes`` indexed by their tag (``type_name``), to pick one when decoding."""
    return {cls.type_name: cls for cls in classes}
