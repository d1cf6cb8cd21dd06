"""One FTL turn, ruling by ruling (DESIGN section 5 and docs/rulings.md, F3-F12).

Geometry used throughout: a ship at the origin facing 0 deg (toward +y) is 0.75 x 1.5 in,
so its nose is at (0, 0.75) and ``S4`` lays a tape from there to (0, 4.75).
"""

from __future__ import annotations

import math

import pytest

from spacetable.games.ftl.pieces import normal_heading
from tests._ftl import events, missile, resolve, ship


def test_a_sprint_hits_a_missile_in_normal_space() -> None:
    # The missile turns to lie across the tape: its footprint spans y 2.875..3.125.
    result = resolve(
        [ship("red", 0, 0), ship("blue", 10, 10), missile("blue-m1", 0, 3)],
        [("red", "S4"), ("blue-m1", "R+90")],
    )
    (contact,) = events(result, "contact")
    assert contact["target"] == "blue-m1" and contact["effect"] == "ship-on-missile"
    assert contact["distance"] == pytest.approx(3 - 0.125 - 0.75)
    assert contact["point"] == pytest.approx([0, 2.875])
    red = result["pieces"]["red"]
    assert red["hits"] == 1 and red["on_table"] and (red["x"], red["y"]) == (0, 4)
    assert not result["pieces"]["blue-m1"]["on_table"]
    assert not result["over"]


def test_headings_turn_clockwise_for_positive_rotations() -> None:
    result = resolve(
        [ship("red", 0, 0, 0), ship("blue", 5, 5, 170)],
        [("red", "R+45"), ("blue", "R\u201330")],
    )
    assert result["pieces"]["red"]["heading"] == -45
    assert result["pieces"]["blue"]["heading"] == -160  # 200 brought into (-180, 180]
    assert normal_heading(-180) == 180 and normal_heading(540) == 180


def test_a_piece_that_did_nothing_is_passed_through() -> None:
    result = resolve([ship("red", 0, 0), ship("blue", 0, 3)], [("red", "S4")])
    assert events(result, "contact") == []
    assert result["pieces"]["blue"]["hits"] == 0
    assert result["pieces"]["red"]["y"] == 4


def test_a_sprinting_piece_is_never_hit() -> None:
    # Blue sprints out of the way along +x; red's tape crosses where blue stood, and where
    # blue ends is not in the snapshot either.
    result = resolve(
        [ship("red", 0, 0), ship("blue", 0, 3, -90), missile("blue-m1", 0, 4.5, 90)],
        [("red", "S4"), ("blue", "S2"), ("blue-m1", "S1")],
    )
    assert events(result, "contact") == []
    assert result["pieces"]["blue"]["x"] == 2 and result["pieces"]["blue"]["hits"] == 0


def test_ships_sprinting_head_on_pass_through_each_other() -> None:
    result = resolve([ship("red", 0, -3), ship("blue", 0, 3, 180)], [("red", "S6"), ("blue", "S6")])
    assert events(result, "contact") == []
    assert result["pieces"]["red"]["y"] == 3 and result["pieces"]["blue"]["y"] == -3


def test_the_snapshot_is_taken_after_the_rotations() -> None:
    # Blue stands beside the tape (x 0.225..0.975); turned across it, it reaches x -0.15.
    beside = [ship("red", 0, 0), ship("blue", 0.6, 3)]
    assert events(resolve(beside, [("red", "S4"), ("blue", "R+0")]), "contact") == []
    turned = resolve(beside, [("red", "S4"), ("blue", "R+90")])
    assert [c["target"] for c in events(turned, "contact")] == ["blue"]


def test_a_launch_puts_the_missile_a_quarter_inch_ahead_and_names_it() -> None:
    result = resolve(
        [ship("red", 0, 0), ship("blue", 10, 0, 90, launched=3, missiles=2)],
        [("red", "L"), ("blue", "L")],
    )
    (red_launch, blue_launch) = events(result, "launch")
    # Nose at 0.75, a 0.25 gap, then half the missile's 0.5 length.
    assert red_launch["missile"] == "red-m1" and red_launch["post"] == [0, 1.25]
    assert blue_launch["missile"] == "blue-m4" and blue_launch["post"] == [8.75, 0]
    assert result["pieces"]["red-m1"] == {
        "kind": "missile", "owner": "red", "x": 0, "y": 1.25, "heading": 0, "hits": 0,
        "on_table": True,
    }  # fmt: skip
    assert result["pieces"]["blue"]["missiles"] == 1 and result["pieces"]["blue"]["launched"] == 4
    assert result["pieces"]["red"]["missiles"] == 9


def test_a_launched_missile_and_its_ship_are_in_normal_space() -> None:
    # Blue's tape from (4.25, 1.25) toward -x meets red's new missile before red.
    result = resolve([ship("red", 0, 0), ship("blue", 5, 1.25, 90)], [("red", "L"), ("blue", "S6")])
    assert [c["target"] for c in events(result, "contact")] == ["red-m1"]
    assert result["pieces"]["blue"]["hits"] == 1
    alone = resolve([ship("red", 0, 0), ship("blue", 5, 0, 90)], [("red", "L"), ("blue", "S6")])
    assert [c["target"] for c in events(alone, "contact")] == ["red"]


def test_a_missile_launched_off_the_table_is_removed_at_once() -> None:
    result = resolve([ship("red", 0, 23.5), ship("blue", 0, -10)], [("red", "L")])
    assert events(result, "off-table")[0]["piece"] == "red-m1"
    assert not result["pieces"]["red-m1"]["on_table"]
    assert result["pieces"]["red"]["missiles"] == 9


def test_contacts_are_taken_near_to_far_whatever_the_file_order() -> None:
    result = resolve(
        [
            ship("red", 0, 0),
            ship("blue", 10, 10),
            missile("blue-m1", 0, 3),
            missile("blue-m2", 0, 2),
        ],
        [("red", "S4"), ("blue-m1", "R+90"), ("blue-m2", "R+90")],
    )
    assert [c["target"] for c in events(result, "contact")] == ["blue-m2", "blue-m1"]
    assert result["pieces"]["red"]["hits"] == 2


def test_the_third_hit_mid_tape_stops_the_tape() -> None:
    result = resolve(
        [
            ship("red", 0, 0, hits=2),
            ship("blue", 10, 10),
            missile("blue-m1", 0, 3),
            missile("blue-m2", 0, 2),
        ],
        [("red", "S4"), ("blue-m1", "R+90"), ("blue-m2", "R+90")],
    )
    assert [c["target"] for c in events(result, "contact")] == ["blue-m2"]
    (tape,) = events(result, "tape")
    assert tape["stopped"] and tape["reach"] == pytest.approx(2 - 0.125 - 0.75)
    assert tape["end"] == pytest.approx([0, 1.875])
    assert result["pieces"]["blue-m1"]["on_table"]  # beyond where the tape stopped
    red = result["pieces"]["red"]
    assert red["hits"] == 3 and not red["on_table"] and red["y"] == 0  # removed, never moved
    assert events(result, "removed") == [
        {"type": "removed", "piece": "red", "reason": "hits"},
        {"type": "removed", "piece": "blue-m2", "reason": "contact"},
    ]
    assert result["over"] and result["winner"] == "blue"


def test_a_sprinting_missile_stops_at_its_first_contact() -> None:
    result = resolve(
        [ship("red", 0, 0), ship("blue", 0, 3), ship("green", 0, 5), missile("red-m1", 0, -2)],
        [("red-m1", "S8"), ("blue", "R+0"), ("green", "R+0"), ("red", "R+90")],
        players=("red", "blue", "green"),
    )
    # The missile's tape starts at its nose (0, -1.75) and meets red's own ship first.
    assert [c["target"] for c in events(result, "contact")] == ["red"]
    assert result["pieces"]["red"]["hits"] == 1 and not result["pieces"]["red-m1"]["on_table"]
    assert result["pieces"]["blue"]["hits"] == 0


def test_contacts_at_equal_distance_are_taken_together() -> None:
    # Two missiles side by side, each grazed by the tape along its edge at y 2.75.
    result = resolve(
        [
            ship("red", 0, 0, hits=2),
            ship("blue", 10, 10),
            missile("blue-m1", -0.125, 3),
            missile("blue-m2", 0.125, 3 + 5e-10),
            missile("blue-m3", 0, 4),
        ],
        [("red", "S4"), ("blue-m1", "R+0"), ("blue-m2", "R+0"), ("blue-m3", "R+90")],
    )
    assert [c["target"] for c in events(result, "contact")] == ["blue-m1", "blue-m2"]
    assert events(result, "hit") == [{"type": "hit", "ship": "red", "count": 2, "hits": 4}]
    assert not result["pieces"]["blue-m1"]["on_table"]
    assert not result["pieces"]["blue-m2"]["on_table"]
    assert result["pieces"]["blue-m3"]["on_table"]


def test_contacts_farther_apart_than_the_tie_are_not_together() -> None:
    result = resolve(
        [
            ship("red", 0, 0, hits=2),
            ship("blue", 10, 10),
            missile("blue-m1", -0.125, 3),
            missile("blue-m2", 0.125, 3 + 1e-6),
        ],
        [("red", "S4"), ("blue-m1", "R+0"), ("blue-m2", "R+0")],
    )
    assert [c["target"] for c in events(result, "contact")] == ["blue-m1"]
    assert result["pieces"]["blue-m2"]["on_table"]


def test_two_tapes_through_one_ship_both_hit_it() -> None:
    result = resolve(
        [ship("red", 0, 10), ship("blue", 0, 0), missile("red-m1", -5, 0, -90),
         missile("red-m2", 5, 0, 90)],
        [("blue", "R+0"), ("red-m1", "S8"), ("red-m2", "S8")],
    )  # fmt: skip
    assert [(c["piece"], c["target"]) for c in events(result, "contact")] == [
        ("red-m1", "blue"),
        ("red-m2", "blue"),
    ]
    assert events(result, "hit") == [{"type": "hit", "ship": "blue", "count": 2, "hits": 2}]
    assert result["pieces"]["blue"]["on_table"]
    assert not result["pieces"]["red-m1"]["on_table"] and not result["pieces"]["red-m2"]["on_table"]


def test_two_tapes_through_one_missile_both_count() -> None:
    # Both ships' tapes cross blue's missile: it is removed once, and each ship takes a hit.
    result = resolve(
        [ship("red", -5, 0, -90), ship("blue", 5, 0, 90), missile("blue-m1", 0, 0)],
        [("red", "S8"), ("blue", "S8"), ("blue-m1", "R+0")],
    )
    assert [c["target"] for c in events(result, "contact")] == ["blue-m1", "blue-m1"]
    assert result["pieces"]["red"]["hits"] == 1 and result["pieces"]["blue"]["hits"] == 1
    assert events(result, "removed") == [
        {"type": "removed", "piece": "blue-m1", "reason": "contact"}
    ]
    assert result["pieces"]["red"]["x"] == 3 and result["pieces"]["blue"]["x"] == -3


def test_missile_on_missile_removes_both() -> None:
    result = resolve(
        [
            ship("red", 0, -10),
            ship("blue", 10, 10),
            missile("red-m1", 0, 0),
            missile("blue-m1", 0, 3),
        ],
        [("red-m1", "S4"), ("blue-m1", "R+90")],
    )
    (contact,) = events(result, "contact")
    assert contact["effect"] == "missiles"
    assert (
        not result["pieces"]["red-m1"]["on_table"] and not result["pieces"]["blue-m1"]["on_table"]
    )


def test_a_ship_on_ship_collision_removes_both_and_is_a_draw() -> None:
    result = resolve([ship("red", 0, 0), ship("blue", 0, 3)], [("red", "S4"), ("blue", "R+0")])
    (contact,) = events(result, "contact")
    assert contact["effect"] == "collision"
    assert not result["pieces"]["red"]["on_table"] and not result["pieces"]["blue"]["on_table"]
    assert result["over"] and result["winner"] is None
    assert events(result, "end") == [{"type": "end", "winner": None, "reason": "no-ships"}]


def test_hits_from_two_tapes_add_up_to_the_third() -> None:
    # Both of red's missiles touch blue's ship in the same snapshot: with the hit it
    # already had, that makes three, and the ship is removed once.
    result = resolve(
        [ship("red", 0, 10), ship("blue", 0, 0, hits=1), missile("red-m1", -5, 0, -90),
         missile("red-m2", 5, 0, 90)],
        [("blue", "R+0"), ("red-m1", "S8"), ("red-m2", "S8")],
    )  # fmt: skip
    assert result["pieces"]["blue"]["hits"] == 3 and not result["pieces"]["blue"]["on_table"]
    assert events(result, "removed")[0] == {"type": "removed", "piece": "blue", "reason": "hits"}
    assert result["winner"] == "red"


@pytest.mark.parametrize(("sprint", "on_table"), [("S4", True), ("S4.5", False)])
def test_off_the_table_and_the_edge_counts_as_on(sprint: str, on_table: bool) -> None:
    result = resolve([ship("red", 0, 20), ship("blue", 0, -10)], [("red", sprint)])
    assert result["pieces"]["red"]["on_table"] is on_table
    assert bool(events(result, "off-table")) is not on_table
    assert result["over"] is not on_table
    if not on_table:
        assert result["winner"] == "blue"


def test_a_table_of_another_size() -> None:
    table = {"width": 20, "height": 10}
    result = resolve([ship("red", 0, 0), ship("blue", 5, 0)], [("red", "S5.5")], table=table)
    assert not result["pieces"]["red"]["on_table"]


def test_a_second_order_is_ignored() -> None:
    result = resolve(
        [ship("red", 0, 0), ship("blue", 5, 5)], [("red", "S4"), ("red", "R+90"), ("red", "L")]
    )
    assert events(result, "ignored") == [
        {"type": "ignored", "piece": "red", "order": "R+90"},
        {"type": "ignored", "piece": "red", "order": "L"},
    ]
    assert result["pieces"]["red"]["heading"] == 0 and result["pieces"]["red"]["y"] == 4
    assert "red-m1" not in result["pieces"]


def test_sprints_along_any_heading_move_the_post_by_the_sprint() -> None:
    result = resolve([ship("red", 0, 0, 30), ship("blue", 10, 10)], [("red", "S8")])
    red = result["pieces"]["red"]
    assert red["x"] == pytest.approx(-8 * math.sin(math.radians(30)))
    assert red["y"] == pytest.approx(8 * math.cos(math.radians(30)))
