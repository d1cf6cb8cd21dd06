"""``spacetable photo``: one photo of printed cards on a table to a table file, resolved
with its close calls (the photo referee, :mod:`spacetable.photo`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from spacetable._userinput import InputError, read_limited
from spacetable.cli._common import fail
from spacetable.registry import referee_for

#: The largest photo file read (a 12-megapixel JPEG is 3 to 8 MB; a PNG up to 36).
MAX_PHOTO_BYTES = 64 << 20


def photo(
    image: Annotated[
        Path,
        typer.Argument(
            help="A photo of the printed cards on the table (JPEG, PNG, TIFF or WebP), "
            "every card whole in it.",
            show_default=False,
        ),
    ],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write the table file here.")
    ] = None,
    resolve: Annotated[
        bool,
        typer.Option(
            "--resolve",
            help="Resolve the battle and tell its close calls (shots too close to call by photo).",
        ),
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help='Print one JSON object: {"table", "cards", "close_calls", "result"} '
            "(see docs/formats.md).",
        ),
    ] = False,
) -> None:
    """Read a photo of printed cards (`spacetable print`): find every card, write its
    table file, and with --resolve settle the battle, flagging the shots the photo
    cannot settle (close calls) so that the players check those by eye."""
    from spacetable.photo.solve import PhotoError
    from spacetable.photo.table import decode, photo_table

    try:
        data = read_limited(image, MAX_PHOTO_BYTES)
    except InputError as exc:
        fail(f"{image}: {exc}")
    try:
        found = photo_table(decode(data, str(image)))
    except PhotoError as exc:
        fail(f"{image}: {exc}")
    entry, referee = referee_for(found.table)
    try:
        settled = referee.read(found.table)
    except referee.error as exc:
        fail(f"{image}: the cards as measured do not make a table: {exc}")
    if output is not None:
        try:
            output.write_text(json.dumps(found.table, indent=2) + "\n", encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {output}: {exc.strerror}")
    resolution: Any = None
    calls: list[Any] = []
    if resolve:
        from spacetable.photo.closecalls import Uncertainty, close_calls

        resolution = referee.resolve(settled)
        uncertainty = {
            card.key.card_id: Uncertainty(found.sigma_mm(card), found.sigma_deg(card))
            for card in found.cards
        }
        calls = close_calls(settled.cards, resolution, uncertainty)
    if as_json:
        print(
            json.dumps(
                {
                    "table": found.table,
                    "cards": found.cards_json(),
                    "close_calls": [c.to_json() for c in calls] if resolve else None,
                    "result": referee.result_json(resolution) if resolve else None,
                },
                indent=2,
            )
        )
        return
    title = entry.rules.title
    lines = [f"{image}: {len(found.cards)} {title} cards found"]
    for card, row in zip(found.cards, found.table["cards"], strict=True):
        lines.append(
            f"  {row['id']:24} x {row['x']:8.1f}  y {row['y']:8.1f}  rotation "
            f"{row['rotation']:7.1f}  (± {found.sigma_mm(card):.2f} mm, "
            f"± {found.sigma_deg(card):.2f}°)"
        )
    if output is not None:
        lines.append(f"wrote {output}")
    if resolve:
        lines.append("")
        lines.extend(referee.account(settled, resolution))
        lines.append("")
        if calls:
            lines.append(f"Close calls ({len(calls)}): check these shots by eye")
            lines.extend(f"  {call.words()}" for call in calls)
        else:
            lines.append("No close calls: the photo settles every shot.")
    print("\n".join(lines))
