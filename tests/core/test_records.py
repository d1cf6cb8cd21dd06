"""Events and actions declared once (``@tagged``): their JSON, read back, stays what the
engine wrote, and the records behave as the frozen values the rest of the code expects."""

from __future__ import annotations

import dataclasses
import json
import pickle

import pytest

from spacetable.core.events import Event, decode_event
from spacetable.core.records import by_tag, tagged
from spacetable.games.hexfleet.actions import Return
from spacetable.games.hexfleet.events import Moved, event_from_json
from spacetable.lasers.events import LaserFired


@tagged("sample")
class Sample(Event):
    """A test event with every shape of field the games use."""

    name: str
    count: int
    at: tuple[float, float] | None
    path: tuple[tuple[int, int], ...]
    share: dict[str, float]


def test_a_tagged_record_writes_its_tag_first_then_its_fields_in_order() -> None:
    event = Sample("red", 2, (1.5, -0.0), ((0, 1), (1, 1)), {"red": 0.5})
    assert Sample.type_name == "sample"
    assert list(event.to_json()) == ["type", "name", "count", "at", "path", "share"]
    assert json.dumps(event.to_json()) == (
        '{"type": "sample", "name": "red", "count": 2, "at": [1.5, -0.0], '
        '"path": [[0, 1], [1, 1]], "share": {"red": 0.5}}'
    )


def test_json_read_back_is_the_same_record_with_lists_as_tuples_all_the_way_down() -> None:
    event = Sample("red", 2, None, ((0, 1), (1, 1)), {"red": 0.5})
    stored = json.loads(json.dumps(event.to_json()))
    again = decode_event(stored, by_tag(Sample))
    assert again == event
    assert isinstance(again, Sample) and again.path == ((0, 1), (1, 1))


def test_a_hex_move_read_from_a_stored_log_has_its_path_as_hexes() -> None:
    moved = Moved("scout", "FF", ((0, 1), (0, 2)), (0, 2), 0, 2, 6)
    assert event_from_json(json.loads(json.dumps(moved.to_json()))) == moved


def test_a_missing_field_or_an_unknown_type_is_refused() -> None:
    with pytest.raises(ValueError, match="sample event lacks 'share'"):
        decode_event(
            {"type": "sample", "name": "a", "count": 1, "at": None, "path": []}, by_tag(Sample)
        )
    with pytest.raises(ValueError, match="unknown event type 'nope'"):
        decode_event({"type": "nope"}, by_tag(Sample))


def test_tagged_records_are_frozen_slotted_dataclasses_that_pickle() -> None:
    laser = LaserFired(1, "red-moth", 0, 2, "normal", (0.0, 44.0), None, None, None, "space", 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        laser.damage = 3  # type: ignore[misc]
    assert not hasattr(laser, "__dict__")
    assert pickle.loads(pickle.dumps(laser)) == laser
    back = Return("red", "scout", 1, 2, 3, 0.0)
    assert dataclasses.replace(back, t=4.5).to_json() == {
        "type": "return",
        "player": "red",
        "ship": "scout",
        "q": 1,
        "r": 2,
        "facing": 3,
        "t": 4.5,
    }
