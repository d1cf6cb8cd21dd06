"""The ``spacetable`` command as a user runs it: a real process, real files."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from spacetable.games.stellar import RACES, race_ships
from tests._cli import ROOT, spacetable

FIG1 = ROOT / "examples" / "fig1-sample-game.json"


def test_resolve_tells_the_battle_step_by_step() -> None:
    done = spacetable("resolve", FIG1)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Speed 1: red Moth [red-moth] fires."
    assert any(
        "red Sidewinder [red-sidewinder] fires its 2-power laser #1: it hits blue Ghost" in line
        and "for 2 damage" in line
        for line in lines
    )
    assert "  blue Ghost [blue-ghost] is destroyed: into red's kill pile." in lines
    assert any("a shield blocks it" in line for line in lines)
    assert lines[-2:] == ["Scores: red 4, blue 2", "Winner: red"]


def test_resolve_json_is_the_contract_object() -> None:
    done = spacetable("resolve", FIG1, "--json")
    assert done.returncode == 0
    result = json.loads(done.stdout)
    assert set(result) >= {"scores", "winner", "kill_piles", "ships", "asteroids", "events"}
    assert result["ships"]["red-moth"]["rocks"] == 2
    assert result["asteroids"]["asteroid"] == {"rocks": 8}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "malformed JSON at line 1, column 2"),
        (
            '{"ruleset": "lightspeed", "players": ["a", "b", "c", "d", "e"], "cards": []}',
            "'players' must name 2 to 4 players, got 5",
        ),
    ],
)
def test_bad_table_exits_2_with_one_line(tmp_path: Path, content: str, message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    done = spacetable("resolve", bad, "--json")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_missing_file_exits_2(tmp_path: Path) -> None:
    done = spacetable("resolve", tmp_path / "nope.json")
    assert done.returncode == 2
    assert "cannot read the file" in done.stderr


def test_cards_lists_the_fleet() -> None:
    done = spacetable("cards")
    assert done.returncode == 0
    rows = done.stdout.splitlines()
    assert rows[0].split()[:4] == ["key", "name", "speed", "health"]
    names = [row.split()[1] for row in rows[2:12]]
    assert names[0] == "Moth" and "Destroyer" in names and len(set(names)) == 10


def test_every_command_has_help() -> None:
    for command in ("resolve", "render", "cards", "bench"):
        done = spacetable(command, "--help")
        assert done.returncode == 0
        assert "Usage" in done.stdout


def test_render_writes_an_svg_of_the_battle(tmp_path: Path) -> None:
    out = tmp_path / "fig1.svg"
    done = spacetable("render", FIG1, "-o", out, "--battle")
    assert done.returncode == 0, done.stderr
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.count('class="card ship"') == 6
    assert "laser power-2" in svg


def test_cards_svg_writes_one_face_per_ship(tmp_path: Path) -> None:
    done = spacetable("cards", "--svg", tmp_path / "faces")
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "faces").glob("*.svg"))) == 10


def stellar_sections(stdout: str) -> dict[str, dict[str, list[str]]]:
    """``cards --ruleset stellar`` read back: per race heading, its ships' cells by key
    (columns are at least two spaces apart)."""
    sections: dict[str, dict[str, list[str]]] = {}
    for line in stdout.splitlines():
        heading = line.split(":")[0].lower()
        if heading in RACES:
            rows = sections.setdefault(heading, {})
        elif sections and line.startswith(f"{list(sections)[-1]}-"):
            cells = re.split(r" {2,}", line.strip())
            rows[cells[0]] = cells
    return sections


def test_stellar_cards_are_grouped_by_race_with_every_column() -> None:
    done = spacetable("cards", "--ruleset", "stellar")
    assert done.returncode == 0, done.stderr
    sections = stellar_sections(done.stdout)
    assert list(sections) == list(RACES)
    header = done.stdout.splitlines()[1].split()
    assert header == [
        "key", "name", "role", "credits", "vp", "initiative", "health", "lasers", "shields"
    ]  # fmt: skip
    for race in RACES:
        rows = sections[race]
        assert list(rows) == list(race_ships(race))
        for key, ship in race_ships(race).items():
            _, name, role, credits, vp, initiative, health, lasers, shields = rows[key]
            assert name == ship.name and vp == str(ship.vp) and health == str(ship.health)
            assert role == ("-" if ship.role == "warship" else ship.role)
            assert credits == ("free" if ship.role in ("cargo", "flag") else str(ship.credits))
            assert initiative == "/".join(map(str, ship.speeds))
            assert lasers.count("ion@") == sum(lz.kind == "ion" for lz in ship.lasers)
            assert lasers.count("pen@") == sum(lz.kind == "penetrating" for lz in ship.lasers)
            assert (shields == "-") == (not ship.shields)
    assert "ion: no damage" in done.stdout and "pen: penetrating" in done.stdout


def test_cards_race_shows_one_race(tmp_path: Path) -> None:
    done = spacetable("cards", "--race", "Vak", "--svg", tmp_path / "vak")
    assert done.returncode == 0, done.stderr
    assert list(stellar_sections(done.stdout)) == ["vak"]
    faces = {path.stem for path in (tmp_path / "vak").glob("*.svg")}
    assert faces == set(race_ships("vak"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--race", "klingon"), "unknown race 'klingon' (choose from wiss, vak, hexai, tetrakori)"),
        (("--ruleset", "lightspeed", "--race", "wiss"), "--race is a Stellar Conflict option"),
    ],
)
def test_cards_refuses_an_unknown_race(args: tuple[str, ...], message: str) -> None:
    done = spacetable("cards", *args)
    assert done.returncode == 2
    assert done.stdout == "" and done.stderr.count("\n") == 1 and message in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("resolve", str(FIG1), "--time-limit", "0"),
        ("render", str(FIG1), "-o", "never.svg", "--time-limit", "-1"),
        ("serve", "--resolve-seconds", "0"),
    ],
)
def test_time_limits_must_be_positive(args: tuple[str, ...]) -> None:
    done = spacetable(*args)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert f"{args[-2]}: {args[-1]} is out of range: give a number above 0" in done.stderr
    assert not (ROOT / "never.svg").exists()


def test_resolve_in_french_tells_the_fig1_battle_in_the_french_rulebook_words() -> None:
    done = spacetable("resolve", FIG1, "--lang", "fr")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Vitesse 1\u00a0: Moth rouge [red-moth] tire."
    pile = "il rejoint la pile «\u00a0victimes\u00a0» de rouge."
    assert f"  Ghost bleu [blue-ghost] est détruit\u00a0: {pile}" in lines
    assert any(
        "un bouclier l'arrête" in line and "(-164,0\u00a0; -250,0)" in line for line in lines
    )
    assert lines[-2:] == ["Scores\u00a0: rouge 4, bleu 2", "Vainqueur\u00a0: rouge"]
    # Without --lang, the system's language: French under a French locale, else English.
    french = spacetable("resolve", FIG1, env={**os.environ, "LANGUAGE": "fr_FR:fr"})
    assert french.stdout == done.stdout
    english = spacetable("resolve", FIG1, env={**os.environ, "LANGUAGE": "", "LC_ALL": "C.UTF-8"})
    assert english.stdout.splitlines()[0] == "Speed 1: red Moth [red-moth] fires."
    wrong = spacetable("resolve", FIG1, "--lang", "xx")
    assert wrong.returncode == 2 and "'xx' is not one of en or fr" in wrong.stderr


def test_a_file_resolve_cannot_read_is_told_in_the_language_of_lang(tmp_path: Path) -> None:
    """The file-read refusals (no file, a directory, not JSON, no game's ruleset) follow
    ``--lang`` as the account does; the English is as it always was."""
    nbsp = "\u00a0"
    absent = tmp_path / "absent.json"
    english = spacetable("resolve", absent, "--lang", "en")
    assert english.returncode == 2
    assert english.stderr == (
        f"spacetable: error: {absent}: cannot read the file (No such file or directory)\n"
    )
    french = spacetable("resolve", absent, "--lang", "fr")
    assert french.returncode == 2
    assert french.stderr == (
        f"spacetable{nbsp}: erreur{nbsp}: {absent}{nbsp}: impossible de lire le fichier "
        "(fichier ou dossier introuvable)\n"
    )
    french = spacetable("render", tmp_path, "-o", tmp_path / "out.svg", "--lang", "fr")
    assert french.stderr.endswith(f"impossible de lire le fichier{nbsp}: c'est un dossier\n")
    cut = tmp_path / "cut.json"
    cut.write_text('{"ruleset": ', encoding="utf-8")
    french = spacetable("resolve", cut, "--lang", "fr")
    assert french.stderr.endswith(
        f"{cut}{nbsp}: JSON mal formé ligne 1, colonne 13{nbsp}: fin des données inattendue\n"
    )
    chess = tmp_path / "chess.json"
    chess.write_text('{"ruleset": "chess"}', encoding="utf-8")
    french = spacetable("resolve", chess, "--lang", "fr")
    assert f"{chess}{nbsp}: règle de jeu inconnue 'chess' (l'une de{nbsp}: " in french.stderr


def test_print_says_what_it_wrote_in_the_language_of_lang(tmp_path: Path) -> None:
    out = tmp_path / "planches.pdf"
    french = spacetable("print", "-o", out, "--ruleset", "hexfleet", "--lang", "fr")
    assert french.returncode == 0, french.stderr
    said = re.fullmatch(
        rf"{re.escape(str(out))} écrit\u00a0: 2 pages, 0 carte en \d+,\d\u00a0s\n", french.stdout
    )
    assert said, french.stdout
    wrong = spacetable("print", "-o", out, "--race", "zorg", "--lang", "fr")
    assert wrong.returncode == 2
    assert wrong.stderr == (
        "spacetable\u00a0: erreur\u00a0: --race\u00a0: race inconnue 'zorg' (au choix\u00a0: "
        "wiss, vak, hexai, tetrakori)\n"
    )
