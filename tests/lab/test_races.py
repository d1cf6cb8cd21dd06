"""The four Stellar Conflict races: what their catalogs must hold, fleets every bot can
field, the race matrix of the fairness study, and ``spacetable races``.

Win rates are not asserted here (they are statistical and slow): ``docs/stellar.md``
carries them, with the command that reproduces them.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

from spacetable.bots.lasers import make_bot
from spacetable.bots.lasers._fleet import random_fleet, value_fleet
from spacetable.bots.lasers.arena import PairRecord, StudySetup, play_stellar_match, race_matrix
from spacetable.core.stats import wilson
from spacetable.games.stellar import (
    BATTLE_SIZES,
    CREDITS,
    RACES,
    BattleSize,
    Race,
    StellarOptions,
    check_fleet,
    race_ships,
)
from spacetable.lab.races import SizeStudy, run_study
from tests._paths import ROOT


def choosable(race: str) -> list[str]:
    return [k for k, s in race_ships(race).items() if s.role not in ("cargo", "flag")]


@pytest.mark.parametrize("race", RACES)
def test_each_race_has_about_twenty_ships_with_one_cargo_and_one_flag_ship(race: str) -> None:
    ships = race_ships(race)
    assert 20 <= len(ships) <= 23
    roles = [s.role for s in ships.values()]
    assert roles.count("cargo") == 1
    assert roles.count("flag") == 1
    for ship in ships.values():
        assert ship.key.startswith(f"{race}-")
        assert all(1 <= speed <= 10 for speed in ship.speeds), ship.key
        assert ship.health >= 1 and ship.vp >= 1, ship.key
        assert ship.lasers, f"{ship.key} cannot fire"
        if ship.role in ("cargo", "flag", "scout"):
            assert ship.credits == 0, ship.key
        else:
            assert ship.credits >= 1, ship.key
    assert any(s.shields for s in ships.values())


def test_the_tetrakori_bring_three_extra_cards_their_free_scouts() -> None:
    # The rulebook's box holds 20 cards for each race but 23 Tetrakori cards.
    counts = {race: len(race_ships(race)) for race in RACES}
    assert counts == {"wiss": 20, "vak": 20, "hexai": 20, "tetrakori": 23}
    scouts = [s for s in race_ships("tetrakori").values() if s.role == "scout"]
    assert len(scouts) == 3
    assert all(s.credits == 0 for s in scouts)


def kinds(race: str) -> set[str]:
    return {laser.kind for ship in race_ships(race).values() for laser in ship.lasers}


def test_only_the_wiss_have_ion_lasers() -> None:
    assert [race for race in RACES if "ion" in kinds(race)] == ["wiss"]
    ion_ships = [s for s in race_ships("wiss").values() if any(z.kind == "ion" for z in s.lasers)]
    assert 3 <= len(ion_ships) < len(race_ships("wiss"))  # some ships, not all


def test_only_the_vak_have_penetrating_lasers_and_they_deal_one() -> None:
    assert [race for race in RACES if "penetrating" in kinds(race)] == ["vak"]
    lasers = [z for s in race_ships("vak").values() for z in s.lasers if z.kind == "penetrating"]
    assert len(lasers) >= 3
    assert {z.power for z in lasers} == {1}


def test_only_the_hexai_fire_at_two_initiatives_and_later_second() -> None:
    twice = {race: [s for s in race_ships(race).values() if len(s.speeds) == 2] for race in RACES}
    assert [race for race in RACES if twice[race]] == ["hexai"]
    assert 3 <= len(twice["hexai"]) < len(race_ships("hexai"))
    assert all(s.speeds[0] < s.speeds[1] for s in twice["hexai"])


def test_only_the_tetrakori_have_ships_that_cost_nothing() -> None:
    free = {
        race: [k for k in choosable(race) if race_ships(race)[k].credits == 0] for race in RACES
    }
    assert [race for race in RACES if free[race]] == ["tetrakori"]
    assert all(race_ships("tetrakori")[k].role == "scout" for k in free["tetrakori"])


@pytest.mark.parametrize("size", BATTLE_SIZES)
@pytest.mark.parametrize("race", RACES)
def test_every_race_fields_a_legal_fleet_at_every_size(race: Race, size: BattleSize) -> None:
    assert sum(race_ships(race)[k].credits for k in choosable(race)) > CREDITS[size]
    for seed in range(5):
        for fleet in (
            value_fleet(race, CREDITS[size], random.Random(seed)),
            value_fleet(race, CREDITS[size], random.Random(seed), cards=5),
            random_fleet(race, CREDITS[size], random.Random(seed)),
        ):
            assert fleet
            assert check_fleet(race, fleet, size) is None


def test_a_timed_fleet_leaves_room_for_the_flag_ship() -> None:
    # Five cards in time: the Cargo ship, at most three chosen ships, the Flag ship.
    for race in RACES:
        for seed in range(5):
            assert 1 <= len(value_fleet(race, 20, random.Random(seed), cards=5)) <= 3


@pytest.mark.parametrize("race", RACES)
def test_a_greedy_bot_deploys_its_flag_ship_in_a_dispute(race: Race) -> None:
    other = next(r for r in RACES if r != race)
    options = StellarOptions(("red", "blue"), (race, other), "dispute")
    match = play_stellar_match([make_bot("easy"), make_bot("random")], 4, options)
    placed = [c["ship"] for c in match.table_cards() if c.get("owner") == "red"]
    assert any(race_ships(race)[key].role == "flag" for key in placed)


def test_race_matrix_is_consistent() -> None:
    seen: list[PairRecord] = []
    matrix = race_matrix("dispute", games=1, seed=7, level="random", progress=seen.append)
    assert sorted(matrix) == sorted(RACES)
    assert len(seen) == 6 and all(r.games == 2 for r in seen)
    for a in RACES:
        assert sorted(matrix[a]) == sorted(r for r in RACES if r != a)
        for b in matrix[a]:
            assert 0.0 <= matrix[a][b] <= 1.0
            assert matrix[a][b] + matrix[b][a] == pytest.approx(1.0)
    for record in seen:
        assert matrix[record.race][record.other] == record.rate


def test_race_matrix_replays_from_its_seed() -> None:
    first = race_matrix("dispute", games=1, seed=3, level="easy")
    assert race_matrix("dispute", games=1, seed=3, level="easy") == first


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    with pytest.raises(ValueError, match="at least one game"):
        wilson(0, 0)


def test_a_size_study_pools_each_race_overall() -> None:
    records = tuple(PairRecord(a, b, 3, 1, 0) for i, a in enumerate(RACES) for b in RACES[i + 1 :])
    study = SizeStudy("war", records)
    assert study.record("vak", "wiss") == PairRecord("vak", "wiss", 0, 1, 3)
    assert study.overall("wiss") == PairRecord("wiss", "all", 9, 3, 0)
    assert study.overall("tetrakori") == PairRecord("tetrakori", "all", 0, 3, 9)
    assert study.matrix()["wiss"]["vak"] == 3.5 / 4


def test_a_study_names_the_command_that_reproduces_it() -> None:
    study = run_study(["dispute"], games=1, seed=2, level="random")
    assert study.command() == "spacetable races --size dispute --games 1 --level random --seed 2"
    assert "| wiss | - |" in study.to_markdown()


def test_a_study_of_a_variant_plays_it_and_says_so() -> None:
    setup = StudySetup("stop", 2, True)
    options = setup.options(("hexai", "wiss"), "war")
    assert (options.deployment, options.asteroids, options.stolen_goods) == ("stop", 2, True)
    assert options.races == ("hexai", "wiss") and options.battle_size == "war"
    match = play_stellar_match([make_bot("random"), make_bot("random")], 1, options)
    cards = match.table_cards()
    assert sum(c.get("type") == "asteroid" for c in cards) == 2
    assert not any(
        ship_role(c) == "cargo" for c in cards if c.get("type") != "asteroid"
    )  # the asteroids carry the cubes
    study = run_study(["dispute"], games=1, seed=2, level="random", setup=setup)
    assert study.command().endswith("--seed 2 --deployment stop --asteroids 2 --stolen-goods")
    assert "the stop rule, 2 asteroids, Stolen Goods" in study.to_markdown()
    assert study.to_json()["asteroids"] == 2


def ship_role(card: dict[str, Any]) -> str | None:
    race = next(r for r in RACES if card["ship"].startswith(f"{r}-"))
    return race_ships(race)[card["ship"]].role


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spacetable", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


def test_races_command_prints_the_study_as_json() -> None:
    done = run("races", "--size", "dispute", "--games", "1", "--level", "random", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["level"] == "random" and report["games_per_seat_order"] == 1
    dispute = report["sizes"]["dispute"]
    assert dispute["credits"] == 10 and dispute["matches_per_pair"] == 2
    wiss_vak = dispute["pairs"]["wiss"]["vak"]
    vak_wiss = dispute["pairs"]["vak"]["wiss"]
    assert wiss_vak["rate"] + vak_wiss["rate"] == pytest.approx(1.0)
    assert wiss_vak["wins"] == vak_wiss["losses"]
    assert 0.0 <= wiss_vak["ci95"][0] <= wiss_vak["rate"] <= wiss_vak["ci95"][1] <= 1.0
    assert dispute["overall"]["hexai"]["games"] == 6
    assert "wiss vs vak" in done.stderr  # progress goes to stderr


def test_races_command_prints_markdown_tables() -> None:
    done = run("races", "--size", "dispute", "--games", "1", "--level", "random")
    assert done.returncode == 0, done.stderr
    assert "**Dispute** (10 credits): 2 matches per pair" in done.stdout
    assert "| race | vs wiss | vs vak | vs hexai | vs tetrakori | overall |" in done.stdout
    assert "spacetable races --size dispute --games 1 --level random --seed 0" in done.stdout


def test_races_command_refuses_bad_options() -> None:
    done = run("races", "--size", "skirmish")
    assert done.returncode == 2
    assert "skirmish" in done.stderr and done.stdout == ""
    done = run("races", "--games", "0")
    assert done.returncode == 2 and "--games" in done.stderr
    done = run("races", "--level", "genius", "--games", "1")
    assert done.returncode == 2 and "genius" in done.stderr
    done = run("races", "--asteroids", "9")
    assert done.returncode == 2 and "'asteroids'" in done.stderr
    done = run("races", "--deployment", "fast")
    assert done.returncode == 2 and "fast" in done.stderr
