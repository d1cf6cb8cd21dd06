"""``spacetable resolve`` on Faster Than Light turn files, reached through the game
registry as a user runs it: a real process, real files (DESIGN section 5)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests._cli import ROOT, spacetable

TURNS = sorted((ROOT / "examples").glob("ftl-*.json"))
GOLDEN = ROOT / "tests" / "golden"


def test_there_are_turn_files_to_resolve() -> None:
    assert len(TURNS) >= 3


@pytest.mark.parametrize("path", TURNS, ids=[p.stem for p in TURNS])
def test_resolve_json_of_a_turn_file_is_its_golden_result(path: Path) -> None:
    done = spacetable("resolve", path, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result == json.loads((GOLDEN / f"{path.stem}.result.json").read_text("utf-8"))
    assert {"pieces", "over", "winner", "events"} <= set(result)


def test_resolve_tells_a_turn_in_words() -> None:
    done = spacetable("resolve", ROOT / "examples" / "ftl-sprint-hits-missile.json")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "sprints 8 in" in text
    assert "touches blue's missile [blue-m3]" in text
    assert "takes a hit" in text


def test_resolve_tells_headings_the_way_orders_turn() -> None:
    # blue-m1 points left (file heading 90, counter-clockwise): R75 turns it clockwise to
    # 15 deg short of up. The account says so as a bearing (clockwise from up), not -105.
    done = spacetable("resolve", ROOT / "examples" / "ftl-collision.json")
    assert done.returncode == 0, done.stderr
    assert "[blue] turns 90 deg clockwise, now facing 90 deg." in done.stdout
    assert "[blue-m1] turns 75 deg clockwise, now facing 345 deg." in done.stdout


def test_resolve_in_french_tells_a_turn_in_french() -> None:
    done = spacetable("resolve", ROOT / "examples" / "ftl-collision.json", "--lang", "fr")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == (
        "Rotation\u00a0: le vaisseau de bleu [blue] tourne de 90° dans le sens horaire,"
        " désormais cap 90°."
    )
    assert "le vaisseau de rouge [red] fonce de 7,5 po" in lines[2]
    assert "arrêté à 5,375 po." in lines[2]
    assert "les vaisseaux se percutent\u00a0: tous deux sont retirés." in lines[4]
    assert lines[-1] == "Fin de partie\u00a0: plus aucun vaisseau sur la table, match nul."
    english = spacetable("resolve", ROOT / "examples" / "ftl-collision.json", "--lang", "en")
    assert english.stdout.splitlines()[-1] == "Game over: no ship is left on the table, a draw."


def _turn(tmp_path: Path, orders: list[dict[str, str]], **extra: object) -> Path:
    data = {
        "ruleset": "ftl",
        "players": ["red", "blue"],
        "pieces": [
            {"id": "red", "kind": "ship", "owner": "red", "x": 0, "y": -10, "heading": 0},
            {"id": "blue", "kind": "ship", "owner": "blue", "x": 0, "y": 10, "heading": 180},
            {"id": "blue-m1", "kind": "missile", "owner": "blue", "x": 3, "y": 4, "heading": 90},
        ],
        "orders": orders,
        **extra,
    }
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("orders", "named"),
    [
        ([{"piece": "red", "order": "R+10"}], ("red", "R+10")),
        ([{"piece": "red", "order": "S8.5"}], ("red", "S8.5")),
        ([{"piece": "blue-m1", "order": "L"}], ("blue-m1", "L")),
        ([{"piece": "ghost", "order": "S2"}], ("ghost",)),
    ],
    ids=["bad-angle", "too-far", "missile-launch", "unknown-piece"],
)
def test_a_bad_order_is_refused_in_one_line_naming_piece_and_order(
    tmp_path: Path, orders: list[dict[str, str]], named: tuple[str, ...]
) -> None:
    done = spacetable("resolve", _turn(tmp_path, orders))
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    for word in named:
        assert word in lines[0]


def test_a_turn_file_reads_orders_as_a_person_types_them(tmp_path: Path) -> None:
    """The true minus sign, spaces, small letters and full-width digits (DESIGN section 5)
    resolve exactly as the plain orders do."""
    typed = [{"piece": "red", "order": "r \u221245"}, {"piece": "blue-m1", "order": "s\uff13"}]
    plain = [{"piece": "red", "order": "R-45"}, {"piece": "blue-m1", "order": "S3"}]
    done = spacetable("resolve", _turn(tmp_path / "typed", typed), "--json")
    assert done.returncode == 0, done.stderr
    expected = spacetable("resolve", _turn(tmp_path / "plain", plain), "--json")
    assert json.loads(done.stdout) == json.loads(expected.stdout)
    assert json.loads(done.stdout)["pieces"]["red"]["heading"] == 45


def test_a_file_of_a_game_nobody_plays_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "hex.json"
    path.write_text('{"ruleset": "chess"}', encoding="utf-8")
    done = spacetable("resolve", path)
    assert done.returncode == 2
    assert done.stderr.strip().endswith(
        "unknown ruleset 'chess' (one of: lightspeed, stellar, ftl, hexfleet)"
    )


def test_render_draws_a_turn_with_its_tapes(tmp_path: Path) -> None:
    out = tmp_path / "turn.svg"
    done = spacetable("render", ROOT / "examples" / "ftl-two-tapes-one-ship.json", "-o", out)
    assert done.returncode == 0, done.stderr
    svg = out.read_text("utf-8")
    assert svg.startswith("<svg") or svg.startswith("<?xml")
    for piece in ("red-m1", "red-m2", "green-m1", "blue"):
        assert f'data-piece="{piece}"' in svg
    assert "3 sprints" in svg


def test_render_lang_fr_sums_the_turn_up_in_french(tmp_path: Path) -> None:
    out = tmp_path / "tour.svg"
    path = ROOT / "examples" / "ftl-collision.json"
    done = spacetable("render", path, "-o", out, "--lang", "fr")
    assert done.returncode == 0, done.stderr
    summary = re.search(r'<text [^>]*class="summary"[^>]*>([^<]*)</text>', out.read_text("utf-8"))
    assert summary is not None
    assert summary.group(1) == (
        "2\u00a0rotations, 1\u00a0course, 2\u00a0contacts, 3\u00a0pièces retirées. Fin de "
        "partie\u00a0: plus "
        "aucun vaisseau sur la table, match nul."
    )
    english = tmp_path / "turn.svg"
    assert spacetable("render", path, "-o", english, "--lang", "en").returncode == 0
    assert "2 rotations, 1 sprint, 2 contacts, 3 pieces removed. Game over: " in english.read_text(
        "utf-8"
    )


def test_duels_prints_a_seeded_record_with_intervals() -> None:
    args = ("duels", "--bot", "greedy", "--against", "random", "--duels", "2", "--turns", "8")
    done = spacetable(*args, "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["wins"] + found["draws"] + found["losses"] == found["duels"] == 2
    low, high = found["score_95"]
    assert 0.0 <= low <= found["score"] <= high <= 1.0
    assert "[2/2]" in done.stderr
    timing = found.pop("decision_seconds")  # thinking time, measured: differs run to run
    assert timing["bot"]["decisions"] == timing["against"]["decisions"] > 0
    assert 0 <= timing["bot"]["mean"] <= timing["bot"]["p99"] <= timing["bot"]["max"]
    assert 0 <= timing["bot"]["p50"] <= timing["bot"]["p99"]
    again = json.loads(spacetable(*args, "--json").stdout)
    assert again.pop("decision_seconds")["bot"]["decisions"] == timing["bot"]["decisions"]
    assert again == found  # seeded: the same record again


def test_duels_refuses_an_unknown_bot_or_game() -> None:
    done = spacetable("duels", "--bot", "grandmaster", "--against", "random")
    assert done.returncode == 2
    assert "unknown bot level 'grandmaster'" in done.stderr and "hard" in done.stderr
    done = spacetable("duels", "--game", "chess", "--bot", "random", "--against", "random")
    assert done.returncode == 2 and "unknown game 'chess'" in done.stderr


def test_duels_measure_a_laser_games_bots_too() -> None:
    args = ("duels", "--game", "lightspeed", "--bot", "easy", "--against", "random")
    done = spacetable(*args, "--duels", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Light Speed: easy against random, 2 duels")
    assert "cards placed" in done.stdout and "easy thinks" in done.stdout
