"""``spacetable resolve`` on hex fleet combat scripts, as a referee runs it: the account in
the reader's language (``--lang``), the English one as the golden files keep it."""

from __future__ import annotations

import json
from pathlib import Path

from tests._cli import ROOT, spacetable

BENELLYN = ROOT / "examples" / "hexfleet-benellyn.json"
GOLDEN = ROOT / "tests" / "golden" / "hexfleet-benellyn.account.txt"


def test_resolve_in_french_tells_the_benellyn_combat_in_french() -> None:
    done = spacetable("resolve", BENELLYN, "--lang", "fr")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:2] == ["2 vaisseaux, 11 étapes, 88 cartes (48 dans la pioche au départ)",
                         "avant\u00a0:"]  # fmt: skip
    assert lines[2] == (
        "  Benellyn (noir, lourd, armes lourdes)\u00a0: boucliers 16/16 baissés, armes 16/16 "
        "(8 cartes par salve), propulsion 8/8 (peut sauter)"
    )
    # The cards as French cards print them: roi de pique, dame de pique, trèfle.
    assert lines[4].startswith(
        "étape 1 (benellyn lève ses boucliers)\u00a0: Benellyn lève ses boucliers\u00a0: R♠ 10♠"
    )
    assert "  carte de dégâts 2♣\u00a0: un trèfle, on retire" in lines
    assert "  carte de dégâts D♠\u00a0: Benellyn perd une cellule de propulsion (reste 7)" in lines
    assert any(line.startswith("  désormais Benellyn (noir, lourd") for line in lines)
    assert "après\u00a0:" in lines
    assert lines[-2].endswith("propulsion 4/8 (peut sauter)\u00a0; parti en saut")
    text = done.stdout
    for english in ("shields", "weapons", "step ", "damage card", "before:", "after:", "now "):
        assert english not in text
    for code in ("KS", "10S", "2C", "QS"):
        assert code not in text.split()


def test_resolve_in_english_is_the_golden_account() -> None:
    done = spacetable("resolve", BENELLYN, "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert done.stdout == GOLDEN.read_text(encoding="utf-8")


def test_the_warnings_and_the_cards_not_needed_are_told_in_french_too(tmp_path: Path) -> None:
    path = tmp_path / "twice.json"
    ships = {"a": {"class": "heavy", "owner": "red"}, "b": {"class": "heavy", "owner": "blue"}}
    steps = [{"raise_shields": "a"}, {"raise_shields": "b"}]
    cards = ["KS", "QS", "KS", "2S", "5H"]  # the king of spades twice, one card too many
    data = {"ruleset": "hexfleet", "ships": ships, "steps": steps, "cards": cards}
    path.write_text(json.dumps(data), encoding="utf-8")
    french = spacetable("resolve", path, "--lang", "fr").stdout.splitlines()
    assert french[2].startswith("  a (rouge, lourd, armes lourdes)")
    assert french[-2].startswith(
        "attention\u00a0: carte 3 du script, tirée à l'étape 2 (b lève ses boucliers)\u00a0: "
        "R♠ de nouveau"
    )
    assert french[-1] == "1 carte de la liste n'a pas servi"
    english = spacetable("resolve", path, "--lang", "en").stdout.splitlines()
    assert english[-2].startswith("warning: card 3 of the script, drawn at step 2")
    assert english[-1] == "1 card listed was not needed"
