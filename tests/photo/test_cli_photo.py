"""``spacetable photo`` as a player runs it: a real process on a rendered photo file."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from spacetable.photo import synth
from tests._cli import spacetable


@pytest.fixture(scope="module")
def photo_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, synth.Shot]:
    shot = synth.render(21, count=12, tilt_deg=40.0, size=(2400, 1800))
    path = tmp_path_factory.mktemp("photo") / "table.jpg"
    cv2.imwrite(str(path), shot.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path, shot


def test_photo_json_is_the_contract_object(
    photo_file: tuple[Path, synth.Shot], tmp_path: Path
) -> None:
    path, shot = photo_file
    table_path = tmp_path / "table.json"
    done = spacetable("photo", path, "--resolve", "--json", "-o", table_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out) == {"table", "cards", "close_calls", "result"}
    ids = {c.key.card_id for c in shot.cards}
    assert {c["id"] for c in out["table"]["cards"]} == ids
    assert {c["id"] for c in out["cards"]} == ids
    for card in out["cards"]:
        assert len(card["marker"]) == 2
        assert 0 < card["sigma_mm"] < 1 and 0 < card["sigma_deg"] < 0.5
    for call in out["close_calls"]:
        assert len(call["outcomes"]) >= 2 and call["kind"] in ("hit or miss", "shield or bare edge")
    # The table file written is the one in the JSON, and resolves to the same battle.
    assert json.loads(table_path.read_text(encoding="utf-8")) == out["table"]
    resolved = spacetable("resolve", table_path, "--json")
    assert resolved.returncode == 0, resolved.stderr
    assert json.loads(resolved.stdout) == out["result"]


def test_photo_tells_the_cards_and_the_battle(photo_file: tuple[Path, synth.Shot]) -> None:
    path, shot = photo_file
    done = spacetable("photo", path, "--resolve")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    title = {"lightspeed": "Light Speed", "stellar": "Stellar Conflict"}[shot.ruleset]
    assert lines[0] == f"{path}: {len(shot.cards)} {title} cards found"
    assert any(line.startswith("Scores:") for line in lines)
    assert lines[-1].startswith(("Close calls", "No close calls", "  speed "))


def test_without_resolve_no_battle_is_told(photo_file: tuple[Path, synth.Shot]) -> None:
    path, _ = photo_file
    out = json.loads(spacetable("photo", path, "--json").stdout)
    assert out["close_calls"] is None and out["result"] is None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"GIF89a but not really", "cannot read it as an image"),
        (None, "no card markers found in the photo"),
    ],
)
def test_a_photo_that_gives_no_table_exits_2_with_one_line(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    path = tmp_path / "table.png"
    if content is None:
        cloth = np.random.default_rng(3).integers(40, 220, size=(480, 640), dtype=np.uint8)
        cv2.imwrite(str(path), cloth)
    else:
        path.write_bytes(content)
    done = spacetable("photo", path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"spacetable: error: {path}: ") and message in done.stderr


def test_bench_photo_reports_the_targets_measures() -> None:
    done = spacetable("bench", "--photo", "--count", "1", "--seed", "6")
    assert done.returncode == 0, done.stderr
    rows = dict(line.split(None, 1) for line in done.stdout.splitlines())
    assert rows["cards_found"] == rows["cards"] == "21"
    assert float(rows["centre_error_median_mm"]) < 1.0
    assert "photos_detail" not in rows
