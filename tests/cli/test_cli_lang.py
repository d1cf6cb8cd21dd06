"""``spacetable photo`` and ``replay`` in the reader's language (``--lang``), as ``resolve``
tells its account: what they found and did, and why they refuse a file."""

from __future__ import annotations

import json
from pathlib import Path

from tests._cli import spacetable
from tests._photo_shots import photo_bytes
from tests.cli.test_cli_replay import battle, stored

NBSP = "\u00a0"


def test_photo_in_french_tells_the_cards_the_battle_and_its_close_call(tmp_path: Path) -> None:
    path = tmp_path / "table.png"
    path.write_bytes(photo_bytes())  # 6 Light Speed cards, one close call
    table = tmp_path / "table.json"
    done = spacetable("photo", path, "--resolve", "-o", table, "--lang", "fr")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"{path}{NBSP}: 6 cartes Light Speed trouvées"
    # The measures the reader's way: a decimal comma, the columns still aligned.
    assert lines[1].startswith("  asteroid                 x    ")
    assert "rotation" in lines[1] and lines[1].endswith("°)") and "," in lines[1]
    assert "." not in lines[1]
    assert f"{table} écrit" in lines
    # The battle as resolve --lang fr tells it, then the close call.
    assert f"Vainqueur{NBSP}: rouge" in lines
    assert lines[-2] == f"1 cas limite{NBSP}: vérifiez ce tir à l'œil."
    assert lines[-1].startswith(f"  vitesse 6{NBSP}: le laser 1 de red-ghost touche asteroid, ")
    assert f"(touché ou manqué{NBSP}: à 0,6 mm de basculer, incertitude 0,2 mm)" in lines[-1]
    for english in ("cards found", "wrote", "Winner", "close call", "speed", "uncertainty"):
        assert english not in done.stdout


def test_photo_refusals_follow_lang(tmp_path: Path) -> None:
    absent = tmp_path / "absent.jpg"
    french = spacetable("photo", absent, "--lang", "fr")
    assert french.returncode == 2 and french.stdout == ""
    assert french.stderr == (
        f"spacetable{NBSP}: erreur{NBSP}: {absent}{NBSP}: impossible de lire le fichier "
        "(fichier ou dossier introuvable)\n"
    )
    gif = tmp_path / "table.png"
    gif.write_bytes(b"GIF89a but not really")
    french = spacetable("photo", gif, "--lang", "fr")
    assert french.returncode == 2
    assert french.stderr == (
        f"spacetable{NBSP}: erreur{NBSP}: {gif}{NBSP}: illisible comme image "
        "(JPEG, PNG, TIFF ou WebP)\n"
    )
    english = spacetable("photo", gif, "--lang", "en")
    assert english.stderr == (
        f"spacetable: error: {gif}: cannot read it as an image (JPEG, PNG, TIFF or WebP)\n"
    )


def test_replay_in_french_tells_the_match_and_its_log_with_french_cards(tmp_path: Path) -> None:
    match = battle(11)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(stored(match)), encoding="utf-8")
    done = spacetable("replay", path, "--log", "--lang", "fr")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"Flotte hex{NBSP}: Ann, Bob{NBSP}; {len(match.actions)} actions"
    assert lines[1] == f"début du tour 1{NBSP}: 6 jetons de vaisseau et le blanc dans le gobelet"
    # The cards as French cards print them (the English log keeps the file's codes, KC 7D).
    assert any(f"lève ses boucliers{NBSP}: R♣ 7♦" in line for line in lines)
    assert "KC" not in done.stdout.split()
    assert lines[-2].startswith(f"résultat{NBSP}: {{")
    assert lines[-1] == "la partie se rejoue à l'identique"
    english = spacetable("replay", path, "--log", "--lang", "en")
    assert "Dart raises shields: KC 7D" in english.stdout
    assert english.stdout.endswith("replays exactly\n")
    # A result that does not match: the one stored, in French too.
    result = stored(match)["result"]
    path.write_text(json.dumps(stored(match, result={**result, "turns": 9})), encoding="utf-8")
    done = spacetable("replay", path, "--lang", "fr")
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1].startswith(f"résultat enregistré{NBSP}: {{")


def test_replay_refusals_follow_lang(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'matches.db'}"
    french = spacetable("replay", "no-such-id", "--db", db, "--lang", "fr")
    assert french.returncode == 2
    assert french.stderr == (
        f"spacetable{NBSP}: erreur{NBSP}: no-such-id{NBSP}: aucun fichier de ce nom, ni aucune "
        "partie enregistrée avec cet identifiant\n"
    )
    # A database spacetable cannot open: one line, not a traceback.
    french = spacetable("replay", "no-such-id", "--db", "nosuchdb://x", "--lang", "fr")
    assert french.returncode == 2
    assert french.stderr.startswith(
        f"spacetable{NBSP}: erreur{NBSP}: impossible d'ouvrir la base de données "
        f"nosuchdb://x{NBSP}: "
    )
    assert french.stderr.count("\n") == 1
    path = tmp_path / "match.json"
    path.write_text("{not json", encoding="utf-8")
    french = spacetable("replay", path, "--lang", "fr")
    assert french.returncode == 2
    assert french.stderr.startswith(f"spacetable{NBSP}: erreur{NBSP}: {path}{NBSP}: JSON mal formé")
    path.write_text("[1, 2]", encoding="utf-8")
    french = spacetable("replay", path, "--lang", "fr")
    assert french.stderr.endswith(f"{path}{NBSP}: une partie enregistrée doit être un objet JSON\n")
    match = battle(13)
    path.write_text(json.dumps(stored(match, seed=match.seed + 1)), encoding="utf-8")
    french = spacetable("replay", path, "--lang", "fr")
    assert french.returncode == 2
    assert french.stderr.startswith(f"spacetable{NBSP}: erreur{NBSP}: {path}{NBSP}: c'est le ")
