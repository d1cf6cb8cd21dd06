"""pydantic's words in the catalogs (spacetable.i18n.validation): every error type our
models can raise is told in French, chosen by the error's type and context, and its English
is pydantic's own, word for word."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticKnownError

from spacetable.i18n import translator
from spacetable.i18n.phrase import Phrase
from spacetable.i18n.validation import MESSAGES, problem
from spacetable.registry import games
from spacetable.server.sockets.protocol import client_models

FRENCH = translator("fr")

#: A context for each error type that needs one (pydantic's ``ctx``).
CONTEXTS: dict[str, dict[str, Any]] = {
    "model_type": {"class_name": "Fleet"},
    "greater_than": {"gt": 0.5},
    "greater_than_equal": {"ge": 1},
    "less_than": {"lt": 9},
    "less_than_equal": {"le": 3.5},
    "multiple_of": {"multiple_of": 15},
    "string_pattern_mismatch": {"pattern": "^[a-z]+$"},
    "literal_error": {"expected": "'players' or 'spectators'"},
    "enum": {"expected": "'a', 'b' or 'c'"},
    "union_tag_invalid": {"discriminator": "'type'", "tag": "x", "expected_tags": "'a', 'b'"},
    "union_tag_not_found": {"discriminator": "'type'"},
    "value_error": {"error": "must be a finite number"},
    "assertion_error": {"error": "must be a finite number"},
    "string_too_short": {"min_length": 1},
    "string_too_long": {"max_length": 24},
}
#: The counted ones, each with the contexts of its forms.
COUNTED: list[tuple[str, dict[str, Any]]] = [
    (kind, {"field_type": field, bound: n, "actual_length": actual})
    for kind, bound in (("too_short", "min_length"), ("too_long", "max_length"))
    for field in ("List", "Tuple", "Dictionary")
    for n, actual in ((1, 0 if kind == "too_short" else 2), (12, 3 if kind == "too_short" else 13))
] + [
    ("too_long", {"field_type": field, "max_length": n, "actual_length": None})
    for field in ("List", "Tuple", "Dictionary")
    for n in (1, 12)
]


def _pydantic(kind: str, context: dict[str, Any]) -> dict[str, Any]:
    """An error as ``ValidationError.errors()`` gives it."""
    made = PydanticKnownError(kind, context or None)  # type: ignore[arg-type]
    return {"type": kind, "msg": made.message(), "ctx": context}


@pytest.mark.parametrize(
    ("kind", "context"),
    [(kind, CONTEXTS.get(kind, {})) for kind in sorted(MESSAGES)]
    + [("string_too_short", CONTEXTS["string_too_short"])]
    + [("string_too_long", CONTEXTS["string_too_long"])]
    + COUNTED,
)
def test_each_error_is_a_phrase_whose_english_is_pydantics(
    kind: str, context: dict[str, Any]
) -> None:
    error = _pydantic(kind, context)
    said = problem(error)
    assert isinstance(said, Phrase), f"{kind}: pydantic says {error['msg']!r}"
    assert said.text() == error["msg"]
    french = said.text(FRENCH)
    assert french != error["msg"] and "{" not in french, french


def test_numbers_and_the_or_are_french() -> None:
    said = problem(_pydantic("greater_than", {"gt": 0.5}))
    assert isinstance(said, Phrase)
    assert said.text(FRENCH) == "La valeur doit être strictement supérieure à 0,5"
    said = problem(_pydantic("literal_error", {"expected": "'players' or 'spectators'"}))
    assert isinstance(said, Phrase)
    assert said.text(FRENCH) == "La valeur doit être 'players' ou 'spectators'"
    context = {"field_type": "Dictionary", "max_length": 12, "actual_length": 13}
    said = problem(_pydantic("too_long", context))
    assert isinstance(said, Phrase)
    assert said.text(FRENCH) == "L'objet doit avoir au plus 12 entrées, pas 13"


def test_an_error_pydantic_words_otherwise_stays_as_pydantic_says_it() -> None:
    error = {"type": "greater_than", "msg": "Input should be above 0.5", "ctx": {"gt": 0.5}}
    assert problem(error) == "Input should be above 0.5"
    assert problem({"type": "date_type", "msg": "Input should be a valid date"}) == (
        "Input should be a valid date"
    )


def _models() -> list[type[BaseModel]]:
    """Every model a reader's input meets: the socket's messages and the room options."""
    rooms = [entry.rules.room_options for entry in games() if entry.rules.room_options]
    return [*client_models().values(), *rooms]


#: The error types each kind of core-schema node can raise (with its constraints).
_RAISES: dict[str, tuple[str, ...]] = {
    "bool": ("bool_type", "bool_parsing"),
    "int": ("int_type", "int_parsing", "int_parsing_size", "int_from_float"),
    "float": ("float_type", "float_parsing", "finite_number"),
    "str": ("string_type", "string_unicode"),
    "list": ("list_type",),
    "tuple": ("tuple_type",),
    "dict": ("dict_type",),
    "literal": ("literal_error",),
    "enum": ("enum",),
    "model": ("model_type", "model_attributes_type"),
    "model-fields": ("missing", "extra_forbidden", "model_attributes_type"),
    "function-after": ("value_error", "assertion_error"),
    "function-before": ("value_error", "assertion_error"),
    "function-plain": ("value_error", "assertion_error"),
    "tagged-union": ("union_tag_invalid", "union_tag_not_found"),
    "none": ("none_required",),
}
_BOUNDS = {
    "gt": "greater_than",
    "ge": "greater_than_equal",
    "lt": "less_than",
    "le": "less_than_equal",
    "multiple_of": "multiple_of",
    "pattern": "string_pattern_mismatch",
}
#: Node kinds that raise nothing of their own (their inner nodes do).
_SILENT = {
    "default",
    "nullable",
    "union",
    "model-field",
    "no-info",
    "with-info",
    "definitions",
    "definition-ref",
    "any",
}


def _raised(node: Any) -> Iterator[str]:
    """Every error type a core schema may raise."""
    if isinstance(node, list):
        for item in node:
            yield from _raised(item)
        return
    if not isinstance(node, dict):
        return
    kind = node.get("type")
    if isinstance(kind, str):
        assert kind in _RAISES or kind in _SILENT, f"a schema node we do not know: {kind}"
        yield from _RAISES.get(kind, ())
        for bound, error in _BOUNDS.items():
            if bound in node:
                yield error
        for bound in ("min_length", "max_length"):
            if bound in node:
                short = "too_short" if bound == "min_length" else "too_long"
                yield f"string_{short}" if kind == "str" else f"{short}:{kind}"
    for key, value in node.items():
        if key not in ("type", "ref", "metadata", "serialization"):
            yield from _raised(value)


def test_every_error_our_models_can_raise_is_in_the_catalogs() -> None:
    """The models' core schemas, walked: each kind of check they hold has its words (a
    new kind of field fails here until its errors are in the catalogs)."""
    counted = {f"{kind}:{field}" for kind in ("too_short", "too_long")
               for field in ("list", "tuple", "dict")}  # fmt: skip
    known = set(MESSAGES) | {"string_too_short", "string_too_long"} | counted
    raised = {error for model in _models() for error in _raised(model.__pydantic_core_schema__)}
    assert raised - known == set()
    assert {"too_long:dict", "greater_than", "tuple_type", "extra_forbidden"} <= raised


def test_a_bad_room_option_is_told_in_french() -> None:
    """The lobby's error for a room the server refuses, from a real validation."""
    from spacetable.server.http.rooms import room_options

    with pytest.raises(ValueError) as refused:
        room_options({"ruleset": "ftl", "seats": 2, "plot_timer_s": 0})
    english = str(refused.value)
    assert english == "plot_timer_s: Input should be greater than 0"
    said = refused.value.args[0].phrase
    assert said.text(FRENCH) == (
        "plot_timer_s\u00a0: La valeur doit être strictement supérieure à 0"
    )
    with pytest.raises(ValidationError):
        client_models()["act"].model_validate(
            {"type": "act", "action": {str(i): i for i in range(13)}}
        )
