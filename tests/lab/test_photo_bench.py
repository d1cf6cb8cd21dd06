"""``spacetable bench --photo``: the photo referee measured on a synthetic 12-megapixel
photo, against its ground truth."""

from __future__ import annotations

from spacetable.lab.photo_bench import run_photo_bench


def test_the_photo_bench_finds_every_card_within_the_targets() -> None:
    result = run_photo_bench(count=1, seed=6)
    assert result["photos"] == 1 and result["megapixels"] == 12.0
    assert result["photos_refused"] == [] and result["tables_refused"] == []
    assert result["cards_found"] == result["cards"] == 21
    assert result["centre_error_median_mm"] < 1.0
    assert result["centre_error_max_mm"] < 3.0
    assert result["rotation_error_median_deg"] < 0.3
    # Every shot that the photo flips from the ground truth's is flagged as a close call.
    assert result["shots"] > 0
    assert result["flips_flagged"] == result["shots_flipped"]
    assert result["battles_first_flip_unflagged"] == 0
    assert result["cpu_s_per_photo_median"] > 0
    (detail,) = result["photos_detail"]
    assert detail["seed"] == 6 and detail["found"] == 21
