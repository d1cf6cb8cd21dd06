"""Close calls appear exactly where a shot passes within the photo's uncertainty of an edge:
of the card it hits or misses, or of a shield's end."""

from __future__ import annotations

import pytest

from spacetable.lasers.battle import Card, Rules, resolve
from spacetable.lasers.geometry import Pose
from spacetable.lasers.tables import catalog
from spacetable.photo.closecalls import (
    K_SIGMA,
    CloseCall,
    ShotOutcome,
    Uncertainty,
    close_calls,
)

SHIPS = catalog("lightspeed")
#: The same doubt on every card's centre, none on rotations, such that the band across a
#: laser is K_SIGMA x sqrt(2) x (0.3 / K_SIGMA) = 0.42 mm on each side.
SURE_TURN = Uncertainty(0.3 / K_SIGMA, 0.0)


def _duel(target: Card) -> list[CloseCall]:
    """The red Wasp at the origin fires straight ahead (+y) from (0, 44) at ``target``."""
    shooter = Card("red-wasp", Pose(0.0, 0.0, 0.0), SHIPS["wasp"], "red")
    cards = [shooter, target]
    outcome = resolve(cards, Rules(("red", "blue")))
    return [
        c
        for c in close_calls(cards, outcome, dict.fromkeys(("red-wasp", target.id), SURE_TURN))
        if c.ship == "red-wasp"
    ]


@pytest.mark.parametrize(
    ("edge_mm", "outcomes"),
    [
        # The laser runs 0.2 mm inside the target's left edge: it could miss.
        (-0.2, (ShotOutcome("blue-moth"), ShotOutcome(None))),
        # 0.2 mm outside: it could hit.
        (0.2, (ShotOutcome(None), ShotOutcome("blue-moth"))),
        # 0.4 mm inside, still within the band (0.42 mm).
        (-0.4, (ShotOutcome("blue-moth"), ShotOutcome(None))),
    ],
)
def test_a_laser_near_the_targets_edge_is_a_close_call(
    edge_mm: float, outcomes: tuple[ShotOutcome, ...]
) -> None:
    # The Moth lies ahead with its left edge at x = edge_mm (its centre 31.5 mm right).
    calls = _duel(Card("blue-moth", Pose(edge_mm + 31.5, 200.0, 0.0), SHIPS["moth"], "blue"))
    assert len(calls) == 1
    assert calls[0].kind == "hit or miss"
    assert calls[0].outcomes == outcomes
    assert calls[0].margin_mm == pytest.approx(abs(edge_mm))


@pytest.mark.parametrize("edge_mm", [-0.5, 0.5, -5.0, 5.0])
def test_a_laser_clear_of_every_edge_is_no_close_call(edge_mm: float) -> None:
    assert _duel(Card("blue-moth", Pose(edge_mm + 31.5, 200.0, 0.0), SHIPS["moth"], "blue")) == []


def test_a_long_shot_widens_the_band_with_the_firing_cards_rotation() -> None:
    shooter = Card("red-wasp", Pose(0.0, 0.0, 0.0), SHIPS["wasp"], "red")
    near = Card("blue-moth", Pose(31.5 + 1.0, 150.0, 0.0), SHIPS["moth"], "blue")
    far = Card("blue-moth", Pose(31.5 + 1.0, 900.0, 0.0), SHIPS["moth"], "blue")
    turn = {"red-wasp": Uncertainty(0.1, 0.05), "blue-moth": Uncertainty(0.1, 0.0)}
    for target, expected in ((near, 0), (far, 1)):
        cards = [shooter, target]
        outcome = resolve(cards, Rules(("red", "blue")))
        # 0.05 degrees over 856 mm is 0.75 mm: three of them pass the edge 1 mm away.
        assert len(close_calls(cards, outcome, turn)) == expected


@pytest.mark.parametrize(("shield_end_mm", "expected"), [(0.2, True), (-0.3, True), (3.0, False)])
def test_a_hit_near_a_shields_end_is_a_close_call(shield_end_mm: float, expected: bool) -> None:
    # The Destroyer's front shields cover local x from 12 to 31.5 (and -31.5 to -12); turned
    # to face the Wasp (rotation 180), local x = its centre's x minus the laser's x (0).
    destroyer = Card(
        "blue-destroyer", Pose(12.0 + shield_end_mm, 200.0, 180.0), SHIPS["destroyer"], "blue"
    )
    calls = _duel(destroyer)
    blocked = shield_end_mm > 0
    if not expected:
        assert calls == []
        return
    assert len(calls) == 1
    assert calls[0].kind == "shield or bare edge"
    assert calls[0].outcomes == (
        ShotOutcome("blue-destroyer", blocked),
        ShotOutcome("blue-destroyer", not blocked),
    )
    assert calls[0].margin_mm == pytest.approx(abs(shield_end_mm), abs=0.03)


def test_a_card_in_front_of_the_target_that_the_band_touches_is_a_close_call() -> None:
    shooter = Card("red-wasp", Pose(0.0, 0.0, 0.0), SHIPS["wasp"], "red")
    target = Card("blue-moth", Pose(0.0, 300.0, 0.0), SHIPS["moth"], "blue")
    # The Viper lies between them, its right edge 0.3 mm left of the laser.
    between = Card("blue-viper", Pose(-31.5 - 0.3, 150.0, 0.0), SHIPS["viper"], "blue")
    cards = [shooter, target, between]
    outcome = resolve(cards, Rules(("red", "blue")))
    calls = [
        c
        for c in close_calls(cards, outcome, dict.fromkeys((c.id for c in cards), SURE_TURN))
        if c.ship == "red-wasp"
    ]
    assert [c.outcomes for c in calls] == [(ShotOutcome("blue-moth"), ShotOutcome("blue-viper"))]
    assert (
        "hits blue-moth, but within the photo's uncertainty it hits blue-viper" in calls[0].words()
    )
