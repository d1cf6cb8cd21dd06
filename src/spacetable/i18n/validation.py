"""pydantic's words for what is wrong with a value, as phrases in the catalogs.

A socket message or a room's options are checked by pydantic models; the first problem
pydantic finds is told to the reader. pydantic words it in English only, so
:func:`problem` picks the catalog message by the error's ``type`` and fills it from the
error's ``ctx`` (never by reading pydantic's English): the English of each message is
pydantic's own template (``tests/i18n/test_validation.py`` checks it still is), so the
English a reader sees does not change, and :func:`problem` gives pydantic's text as it is
for an error it does not know (or words otherwise).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from spacetable.i18n import ENGLISH, N_
from spacetable.i18n.phrase import Phrase, Value, phrase, phrase_n

if TYPE_CHECKING:
    from pydantic import ValidationError

#: The catalog message of each error type whose words are one sentence with ``{name}``
#: places filled from the error's context (pydantic's template, word for word).
MESSAGES: dict[str, str] = {
    "missing": N_("Field required"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "model_type": N_("Input should be a valid dictionary or instance of {class_name}"),
    "model_attributes_type": N_(
        "Input should be a valid dictionary or object to extract fields from"
    ),
    "none_required": N_("Input should be None"),
    "dict_type": N_("Input should be a valid dictionary"),
    "list_type": N_("Input should be a valid list"),
    "tuple_type": N_("Input should be a valid tuple"),
    "bool_type": N_("Input should be a valid boolean"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_parsing_size": N_("Unable to parse input string as an integer, exceeded maximum size"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "float_type": N_("Input should be a valid number"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number"),
    "finite_number": N_("Input should be a finite number"),
    "greater_than": N_("Input should be greater than {gt}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than": N_("Input should be less than {lt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "multiple_of": N_("Input should be a multiple of {multiple_of}"),
    "string_type": N_("Input should be a valid string"),
    "string_unicode": N_(
        "Input should be a valid string, unable to parse raw data as a unicode string"
    ),
    "string_pattern_mismatch": N_("String should match pattern '{pattern}'"),
    "literal_error": N_("Input should be {expected}"),
    "enum": N_("Input should be {expected}"),
    "union_tag_invalid": N_(
        "Input tag '{tag}' found using {discriminator} does not match any of the expected "
        "tags: {expected_tags}"
    ),
    "union_tag_not_found": N_("Unable to extract tag using discriminator {discriminator}"),
    "value_error": N_("Value error, {error}"),
    "assertion_error": N_("Assertion failed, {error}"),
    "recursion_loop": N_("Recursion error - cyclic reference detected"),
}


def first_problem(error: ValidationError, whole: str) -> tuple[str, Value]:
    """The first problem pydantic found (``error``'s first): where, as its fields' dotted
    path (``whole`` when it is the value itself), and what, in words (:func:`problem`)."""
    first = error.errors(include_url=False, include_input=False)[0]
    return ".".join(str(part) for part in first["loc"]) or whole, problem(first)


def problem(error: Mapping[str, Any]) -> Value:
    """pydantic's ``error`` (one of ``ValidationError.errors()``) in words: a phrase from
    its ``type`` and ``ctx`` when the catalogs have its words and they say exactly what
    pydantic says, else pydantic's English ``msg``."""
    kind, context = str(error["type"]), dict(error.get("ctx") or {})
    message = str(error["msg"])
    try:
        said = _said(kind, context)
    except (TypeError, ValueError):  # a context of another shape: pydantic's words
        return message
    return said if said is not None and said.text() == message else message


def _said(kind: str, context: Mapping[str, Any]) -> Phrase | None:
    """The phrase of an error of type ``kind``, from its ``context``, if we have its words."""
    said = _counted(kind, context)
    if said is None and kind in MESSAGES:
        values: dict[str, Value] = {name: _value(value) for name, value in context.items()}
        if kind in ("literal_error", "enum"):
            values["expected"] = _either(str(context.get("expected", "")))
        elif kind in ("value_error", "assertion_error"):  # our validators' words (N_)
            values["error"] = Phrase(str(context.get("error", "")))
        said = Phrase(MESSAGES[kind], tuple(values.items()))
    return said


def _value(value: Any) -> Value:
    """A context's value as a phrase's: a number as a number (written the reader's way,
    ``0,5`` in French) unless English would group its digits (``3,600``: pydantic writes
    ``3600``), else its text. (:func:`problem` checks the English is pydantic's.)"""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return value if number and "," not in ENGLISH.number(value) else str(value)


def _either(expected: str) -> Value:
    """pydantic's ``'a', 'b' or 'c'`` with its "or" in the reader's language."""
    head, _, last = expected.rpartition(" or ")
    if not head:
        return expected
    return phrase("{first} or {second}", first=head, second=last)


#: The counted messages of a list, a tuple or a dictionary too short or too long, by the
#: error's type and ``field_type``, for its bound ``n`` (``{actual}`` is filled after), and
#: for one too long that pydantic stopped reading (no ``actual_length``), those of
#: "not more".
_COUNTED: dict[tuple[str, str], Callable[[int], Phrase]] = {
    ("too_short", "List"): lambda n: phrase_n(
        "List should have at least {n} item after validation, not {actual}",
        "List should have at least {n} items after validation, not {actual}",
        n,
    ),
    ("too_short", "Tuple"): lambda n: phrase_n(
        "Tuple should have at least {n} item after validation, not {actual}",
        "Tuple should have at least {n} items after validation, not {actual}",
        n,
    ),
    ("too_short", "Dictionary"): lambda n: phrase_n(
        "Dictionary should have at least {n} item after validation, not {actual}",
        "Dictionary should have at least {n} items after validation, not {actual}",
        n,
    ),
    ("too_long", "List"): lambda n: phrase_n(
        "List should have at most {n} item after validation, not {actual}",
        "List should have at most {n} items after validation, not {actual}",
        n,
    ),
    ("too_long", "Tuple"): lambda n: phrase_n(
        "Tuple should have at most {n} item after validation, not {actual}",
        "Tuple should have at most {n} items after validation, not {actual}",
        n,
    ),
    ("too_long", "Dictionary"): lambda n: phrase_n(
        "Dictionary should have at most {n} item after validation, not {actual}",
        "Dictionary should have at most {n} items after validation, not {actual}",
        n,
    ),
    ("too_long_more", "List"): lambda n: phrase_n(
        "List should have at most {n} item after validation, not more",
        "List should have at most {n} items after validation, not more",
        n,
    ),
    ("too_long_more", "Tuple"): lambda n: phrase_n(
        "Tuple should have at most {n} item after validation, not more",
        "Tuple should have at most {n} items after validation, not more",
        n,
    ),
    ("too_long_more", "Dictionary"): lambda n: phrase_n(
        "Dictionary should have at most {n} item after validation, not more",
        "Dictionary should have at most {n} items after validation, not more",
        n,
    ),
    ("string_too_short", ""): lambda n: phrase_n(
        "String should have at least {n} character",
        "String should have at least {n} characters",
        n,
    ),
    ("string_too_long", ""): lambda n: phrase_n(
        "String should have at most {n} character",
        "String should have at most {n} characters",
        n,
    ),
}


def _counted(kind: str, context: Mapping[str, Any]) -> Phrase | None:
    """pydantic's words for a string, a list, a tuple or a dictionary too short or too
    long (a counted message: the form suits the number in the reader's language)."""
    bound = context.get("min_length" if kind.endswith("too_short") else "max_length")
    if kind not in ("string_too_short", "string_too_long", "too_short", "too_long"):
        return None
    if not isinstance(bound, int):
        return None
    if kind.startswith("string_"):
        return _COUNTED[kind, ""](bound)
    actual = context.get("actual_length")
    if actual is None and kind == "too_long":
        kind = "too_long_more"
    words = _COUNTED.get((kind, str(context.get("field_type", ""))))
    if words is None:
        return None
    said = words(bound)
    if actual is None:
        return said
    return Phrase(said.message, (("actual", _value(actual)),), said.plural, said.n)
