"""The readers every referee file shares (core/files.py): one number reader and one
whole-number reader for table files, ship definitions and FTL turn files, whose refusals
name the field in one line, in English and in French."""

from __future__ import annotations

import math
from typing import Any

import pytest

from spacetable.core.files import Fields, FileError, field_of, number, whole
from spacetable.i18n import translator
from spacetable.i18n.phrase import phrase


class SampleError(FileError):
    """A file's own error class."""


def _refusal(read: Any, *args: Any) -> SampleError:
    with pytest.raises(SampleError) as caught:
        read(*args, error=SampleError)
    return caught.value


X = field_of(phrase("card {card}", card="'red-moth'"), "x")


@pytest.mark.parametrize("raw", [True, "3", None, [1], math.inf, math.nan, 1 << 1024])
def test_a_number_is_a_finite_json_number_and_not_a_boolean(raw: Any) -> None:
    error = _refusal(number, X, raw, -10.0, 10.0)
    assert str(error).startswith("card 'red-moth': 'x' must be a number, got ")
    assert error.says is not None and error.says.text() == str(error)


def test_a_number_out_of_its_range_names_the_range_in_english_and_french() -> None:
    error = _refusal(number, X, 12.5, -10.0, 10.0)
    assert str(error) == "card 'red-moth': 'x' must lie within -10..10, got 12.5"
    assert error.says is not None
    assert error.says.text(translator("fr")) == (
        "carte 'red-moth'\u00a0: «\u00a0x\u00a0» doit être entre -10 et 10, pas 12.5"
    )
    assert number(X, 3, -10.0, 10.0, error=SampleError) == 3.0
    assert isinstance(number(X, 3, -math.inf, math.inf, error=SampleError), float)


@pytest.mark.parametrize("raw", [True, 1.0, "2", 4, -1])
def test_a_whole_number_is_an_int_within_its_bounds(raw: Any) -> None:
    error = _refusal(whole, X, raw, 0, 3)
    assert str(error).startswith("card 'red-moth': 'x' must be a whole number from 0 to 3, got ")
    assert whole(X, 2, 0, 3, error=SampleError) == 2


FIELDS = Fields(SampleError)


def test_fields_read_numbers_and_refuse_with_the_file_s_own_error() -> None:
    assert FIELDS.number(X, 3, -10.0, 10.0) == 3.0
    assert FIELDS.whole(X, 2, 0, 3) == 2
    with pytest.raises(SampleError, match=r"^card 'red-moth': 'x' must be a whole number"):
        FIELDS.whole(X, 4, 0, 3)
    with pytest.raises(SampleError) as caught:
        FIELDS.refuse("cards {first} and {second} touch or overlap", first="'a'", second="'b'")
    assert str(caught.value) == "cards 'a' and 'b' touch or overlap"
    assert caught.value.says == phrase(
        "cards {first} and {second} touch or overlap", first="'a'", second="'b'"
    )


def test_a_pair_names_the_field_for_either_number() -> None:
    size = field_of(phrase("card {card}", card="'red-moth'"), "size")
    assert FIELDS.pair(size, [63, 88.5], 1.0, 100.0) == (63.0, 88.5)
    for raw in ([63, 101], ["63", 88]):
        with pytest.raises(SampleError, match=r"^card 'red-moth': 'size' must "):
            FIELDS.pair(size, raw, 1.0, 100.0)


def test_unknown_fields_are_named_sorted_in_english_and_french() -> None:
    FIELDS.known({"x": 1, "y": 2}, ("x", "y", "z"), phrase("card {card}", card="'red-moth'"))
    with pytest.raises(SampleError) as caught:
        FIELDS.known({"x": 1, "zz": 2, "b": 3}, ("x",), phrase("card {card}", card="'red-moth'"))
    assert str(caught.value) == "card 'red-moth': unknown field(s) b, zz"
    assert caught.value.says is not None
    assert caught.value.says.text(translator("fr")) == (
        "carte 'red-moth'\u00a0: champ(s) inconnu(s) b, zz"
    )
