"""``spacetable photo``: one photo of printed cards on a table to a table file, resolved
with its close calls (the photo referee, :mod:`spacetable.photo`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from spacetable import i18n
from spacetable._userinput import InputError, read_limited
from spacetable.cli._common import cannot_write, fail, fail_on
from spacetable.cli.referee import LangOption
from spacetable.i18n.phrase import Value, phrase, player_said, value_of
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
    lang: LangOption = None,
) -> None:
    """Read a photo of printed cards (`spacetable print`): find every card, write its
    table file, and with --resolve settle the battle, flagging the shots the photo
    cannot settle (close calls) so that the players check those by eye."""
    from spacetable.photo.solve import PhotoError
    from spacetable.photo.table import decode, photo_table

    tr = i18n.translator(lang or i18n.SOURCE)
    try:
        data = read_limited(image, MAX_PHOTO_BYTES)
    except InputError as exc:
        fail_on(image, exc, tr)
    try:
        found = photo_table(decode(data, str(image)))
    except PhotoError as exc:
        # The key and its values as a phrase, the team colour in the reader's words.
        values: dict[str, Value] = {
            name: player_said(value) if name == "colour" and isinstance(value, str) else value
            for name, value in exc.params.items()
        }
        said = phrase(exc.key, **values).text(tr)
        # A photo that is no image is named by its message already ("{name}: ...").
        fail(said if "name" in exc.params else tr.gettext("{file}: {error}", file=str(image),
                                                          error=said), tr)  # fmt: skip
    entry, referee = referee_for(found.table)
    try:
        settled = referee.read(found.table)
    except referee.error as exc:
        unmade = phrase("the cards as measured do not make a table: {error}", error=value_of(exc))
        fail(tr.gettext("{file}: {error}", file=str(image), error=unmade.text(tr)), tr)
    if output is not None:
        try:
            output.write_text(json.dumps(found.table, indent=2) + "\n", encoding="utf-8")
        except OSError as exc:
            fail(cannot_write(output, exc, tr), tr)
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
    count = len(found.cards)
    lines = [tr.ngettext("{file}: {n} {game} card found", "{file}: {n} {game} cards found", count,
                         file=str(image), game=tr.gettext(entry.rules.title))]  # fmt: skip
    for card, row in zip(found.cards, found.table["cards"], strict=True):
        where = tr.gettext(
            "{card} x {x}  y {y}  rotation {rotation}  (± {mm} mm, ± {degrees}°)",
            card=f"{row['id']:24}", x=tr.fixed(row["x"], 1).rjust(8),
            y=tr.fixed(row["y"], 1).rjust(8), rotation=tr.fixed(row["rotation"], 1).rjust(7),
            mm=tr.fixed(found.sigma_mm(card), 2), degrees=tr.fixed(found.sigma_deg(card), 2),
        )  # fmt: skip
        lines.append(f"  {where}")
    if output is not None:
        lines.append(tr.gettext("wrote {file}", file=str(output)))
    if resolve:
        lines.append("")
        if referee.account_in is not None:
            lines.extend(referee.account_in(settled, resolution, tr))
        else:
            lines.extend(referee.account(settled, resolution))
        lines.append("")
        if calls:
            lines.append(tr.ngettext("{n} close call: check this shot by eye.",
                                     "{n} close calls: check these shots by eye.",
                                     len(calls)))  # fmt: skip
            lines.extend(f"  {call.words(tr)}" for call in calls)
        else:
            lines.append(tr.gettext("No close calls: the photo settles every shot."))
    print("\n".join(lines))
