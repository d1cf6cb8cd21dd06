"""Benchmark of the photo referee: ``spacetable bench --photo`` calls :func:`run_photo_bench`.

Over a corpus of synthetic 12-megapixel photos (:mod:`spacetable.photo.synth`, one per
seed from ``seed`` on) it measures what the issue's targets name: cards found, centre and
rotation errors against the ground truth, how often the truth lies within three of the
reported standard deviations, the battles (each shot's outcome as measured against the
ground truth's, and whether every shot that flips is flagged as a close call), and the
processor seconds spent on one photo (decoding its JPEG and finding the table, on one
OpenCV thread; rendering it is not counted).
"""

from __future__ import annotations

import math
import statistics
import time
from typing import Any

import cv2
import numpy as np

from spacetable.lasers.events import LaserFired
from spacetable.lasers.tables import TableError, table_from_json
from spacetable.photo import synth
from spacetable.photo.closecalls import K_SIGMA, Uncertainty, across_sigma, close_calls
from spacetable.photo.markers import ASTEROID, CARD_SIZE_MM, CardKey
from spacetable.photo.solve import PhotoError
from spacetable.photo.table import decode, photo_table

Shots = dict[tuple[int, str, int, int], tuple[str | None, bool]]


def _truth_table(shot: synth.Shot, players: list[str], found: set[CardKey]) -> dict[str, Any]:
    """The ground truth's table file, of the cards found (in the same frame)."""
    cards: list[dict[str, Any]] = []
    for card in synth.truth_in_frame(shot, found):
        entry: dict[str, Any] = {"id": card.key.card_id}
        if card.key.ship == ASTEROID:
            entry["type"] = "asteroid"
        else:
            entry.update(owner=card.key.owner, ship=card.key.ship)
        entry.update(x=card.x, y=card.y, rotation=card.rotation_deg)
        cards.append(entry)
    return {"ruleset": shot.ruleset, "players": players, "cards": cards}


def _shots(events: list[Any]) -> Shots:
    """Each laser fired, keyed by (speed, ship, laser, how many times it fired before)."""
    out: Shots = {}
    for event in events:
        if isinstance(event, LaserFired):
            n = sum(1 for k in out if k[1:3] == (event.ship, event.laser))
            out[(event.speed, event.ship, event.laser, n)] = (
                event.target,
                event.result == "blocked",
            )
    return out


def printed_faces() -> synth.Faces | None:
    """Card faces rasterised from the print sheets' own PDF of each card
    (:func:`spacetable.printing.sheets.card_pdf`, with pypdfium2), or ``None`` when
    pypdfium2 is not installed (a development dependency)."""
    try:
        import pypdfium2
    except ImportError:
        return None
    from spacetable.printing.sheets import card_pdf

    full: dict[CardKey, Any] = {}

    def face(key: CardKey, px_per_mm: int) -> Any:
        if key not in full:
            page = pypdfium2.PdfDocument(
                card_pdf(key.ruleset or "lightspeed", key.ship, key.owner, key.copy)
            )[0]
            # 16 px per mm, then shrunk by whole pixels per mm (pixel edges stay on mm).
            full[key] = page.render(scale=16 * 25.4 / 72).to_numpy()[..., :3].copy()
        width, length = CARD_SIZE_MM
        size = (round(width * px_per_mm), round(length * px_per_mm))
        return cv2.resize(full[key], size, interpolation=cv2.INTER_AREA)

    return face


def measure_photo(seed: int, faces: synth.Faces | None) -> dict[str, Any]:
    """Render the corpus's photo of ``seed`` (card faces drawn by ``faces``), read it and
    compare it with its ground truth: one row of the bench (``photos_detail``), with the
    cards' errors (``centre_mm``, ``rotation_deg``), the battle's shots that flip and those
    flagged, and ``across_sigmas`` (see :func:`_across_errors`)."""
    shot = synth.render(seed, faces=faces)
    ok, encoded = cv2.imencode(".jpg", shot.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    try:
        found = photo_table(decode(encoded.tobytes(), f"seed {seed}"))
    except PhotoError as exc:
        return {"seed": seed, "error": str(exc), "cards": len(shot.cards)}
    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
    keys = {c.key for c in found.cards}
    # The frame's origin is the middle of the cards found: a card missed would move it.
    truth = {c.key: c for c in synth.truth_in_frame(shot, keys)}
    centre, turn, within = [], [], 0
    for card in found.cards:
        real = truth[card.key]
        error = math.hypot(card.x - real.x, card.y - real.y)
        angle = abs((card.rotation_deg - real.rotation_deg + 180.0) % 360.0 - 180.0)
        centre.append(error)
        turn.append(angle)
        within += error <= 3 * found.sigma_mm(card) and angle <= 3 * found.sigma_deg(card)
    row: dict[str, Any] = {
        "seed": seed,
        "cards": len(shot.cards),
        "found": len(found.cards),
        "tilt_deg": shot.tilt_deg,
        "centre_mm": centre,
        "rotation_deg": turn,
        "within_3_sigma": within,
        "cpu_s": cpu,
        "wall_s": wall,
    }
    players = list(found.table["players"])
    try:
        measured = table_from_json(found.table)
    except TableError as exc:
        row["table_error"] = str(exc)
        return row
    real_table = table_from_json(_truth_table(shot, players, keys))
    measured_outcome = measured.resolve()
    real_outcome = real_table.resolve()
    uncertainty = {
        c.key.card_id: Uncertainty(found.sigma_mm(c), found.sigma_deg(c)) for c in found.cards
    }
    calls = close_calls(measured.cards, measured_outcome, uncertainty)
    flagged = {(c.speed, c.ship, c.laser) for c in calls}
    ours, theirs = _shots(measured_outcome.events), _shots(real_outcome.events)
    flips = [k for k in ours if k in theirs and ours[k] != theirs[k]]
    first = min(flips, default=None)
    row.update(
        shots=len(ours),
        flips=len(flips),
        flips_flagged=sum(1 for k in flips if k[:3] in flagged),
        first_flip_flagged=first is None or first[:3] in flagged,
        close_calls=len(calls),
        false_flags=sum(1 for k in ours if k[:3] in flagged and k not in flips),
        battle_identical=_result(measured_outcome.to_json()) == _result(real_outcome.to_json()),
        across_sigmas=_across_errors(measured, real_table, measured_outcome.events, uncertainty),
    )
    return row


def _across_errors(
    measured: Any, real: Any, events: list[Any], uncertainty: dict[str, Uncertainty]
) -> list[float]:
    """For each laser fired (as measured) and each card near its ray: the error across the
    ray of the card's corners relative to the laser (the largest of the four, measured
    against the truth), in the close calls' standard deviations across the ray
    (:func:`spacetable.photo.closecalls.across_sigma`). What ``K_SIGMA`` is chosen on."""
    ours = {c.id: c for c in measured.cards}
    theirs = {c.id: c for c in real.cards}
    out: list[float] = []
    fired = {(e.ship, e.laser) for e in events if isinstance(e, LaserFired)}
    for ship, index in sorted(fired):
        shooter, truth = ours[ship], theirs[ship]
        laser = shooter.lasers()[index]
        rays = [
            (card.pose.to_world(*laser.at), card.pose.direction(laser.angle_deg))
            for card in (shooter, truth)
        ]
        for cid, card in ours.items():
            if cid == ship:
                continue
            (o, u), (o_real, u_real) = rays
            corners = card.rect.corners()
            along = [(x - o[0]) * u[0] + (y - o[1]) * u[1] for x, y in corners]
            across = [(y - o[1]) * u[0] - (x - o[0]) * u[1] for x, y in corners]
            if max(along) < 0 or min(across) > 40 or max(across) < -40:
                continue  # a card 40 mm or more off the ray, or behind it
            real_across = [
                (y - o_real[1]) * u_real[0] - (x - o_real[0]) * u_real[1]
                for x, y in theirs[cid].rect.corners()
            ]
            error = max(abs(a - b) for a, b in zip(across, real_across, strict=True))
            sigma = across_sigma(shooter, o, card, max(min(along), 0.0), lambda i: uncertainty[i])
            out.append(error / sigma)
    return out


def _result(result: dict[str, Any]) -> dict[str, Any]:
    """A result without its events, kill piles as sets (their order follows the cards')."""
    out = {k: v for k, v in result.items() if k != "events"}
    out["kill_piles"] = {p: sorted(ids) for p, ids in result["kill_piles"].items()}
    return out


def run_photo_bench(count: int = 10, seed: int = 0) -> dict[str, Any]:
    """Measure the photo referee over ``count`` synthetic photos, seeds ``seed`` on.
    Returns a flat JSON-ready dict (and the per-photo rows under ``photos``)."""
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        faces = printed_faces()
        rows = [measure_photo(seed + i, faces) for i in range(count)]
    finally:
        cv2.setNumThreads(threads)
    solved = [r for r in rows if "error" not in r]
    battles = [r for r in solved if "shots" in r]
    centre = [e for r in solved for e in r["centre_mm"]]
    turn = [e for r in solved for e in r["rotation_deg"]]
    cpu = [r["cpu_s"] for r in solved]
    across = [z for r in battles for z in r["across_sigmas"]]
    return {
        "photos": count,
        "faces": "printed (card_pdf)" if faces is not None else "drawn after the layout",
        "megapixels": synth.PHOTO_SIZE[0] * synth.PHOTO_SIZE[1] / 1e6,
        "photos_refused": [f"seed {r['seed']}: {r['error']}" for r in rows if "error" in r],
        "cards": sum(r["cards"] for r in rows),
        "cards_found": sum(r.get("found", 0) for r in rows),
        "centre_error_median_mm": statistics.median(centre) if centre else None,
        "centre_error_max_mm": max(centre, default=None),
        "rotation_error_median_deg": statistics.median(turn) if turn else None,
        "rotation_error_max_deg": max(turn, default=None),
        "truth_within_3_sigma": (
            sum(r["within_3_sigma"] for r in solved) / len(centre) if centre else None
        ),
        "tables_refused": [
            f"seed {r['seed']}: {r['table_error']}" for r in solved if "table_error" in r
        ],
        "shots": sum(r["shots"] for r in battles),
        "shots_flipped": sum(r["flips"] for r in battles),
        "flips_flagged": sum(r["flips_flagged"] for r in battles),
        "battles_first_flip_unflagged": sum(1 for r in battles if not r["first_flip_flagged"]),
        "close_calls": sum(r["close_calls"] for r in battles),
        "false_flags": sum(r["false_flags"] for r in battles),
        "battles_identical": sum(1 for r in battles if r["battle_identical"]),
        # The error across a laser's ray in its standard deviations: K_SIGMA must hold it.
        "across_ray_error_sigmas_median": statistics.median(across) if across else None,
        "across_ray_error_sigmas_max": max(across, default=None),
        "across_ray_pairs": len(across),
        "k_sigma": K_SIGMA,
        "battles": len(battles),
        "cpu_s_per_photo_median": statistics.median(cpu) if cpu else None,
        "cpu_s_per_photo_max": max(cpu, default=None),
        "wall_s_per_photo_median": statistics.median(r["wall_s"] for r in solved)
        if solved
        else None,
        "seed": seed,
        "photos_detail": [
            {k: v for k, v in r.items() if k not in ("centre_mm", "rotation_deg", "across_sigmas")}
            | (
                {"centre_max_mm": max(r["centre_mm"]), "rotation_max_deg": max(r["rotation_deg"])}
                if r.get("centre_mm")
                else {}
            )
            for r in rows
        ],
        "numpy": np.__version__,
        "opencv": cv2.__version__,
    }
