"""``spacetable resolve``, ``render`` and ``cards``: settle and draw any game's files,
found through the registry by the ``ruleset`` they name, and list a game's cards."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from babel.core import default_locale

from spacetable import i18n
from spacetable._number_options import within
from spacetable._time_limit import RESOLVE_BUDGET_S, OutOfMemory, OutOfTime, run_within
from spacetable._userinput import MAX_FILE_BYTES, InputError, parse_json, read_limited
from spacetable.cli._common import cannot_write, fail, fail_on, file_kinds, in_words, said
from spacetable.registry import Game, Listing, UnknownGame, game_for_ruleset, listings, referee_for

if TYPE_CHECKING:
    from spacetable.core.rules import Referee

TableArg = Annotated[
    Path,
    typer.Argument(
        help=f"The file to settle: {file_kinds()} (JSON, see docs/formats.md).",
        show_default=False,
    ),
]
TimeLimitOption = Annotated[
    float,
    typer.Option(
        help="Seconds to spend at most on the file (up to 3600); one that takes longer is refused.",
        callback=within(0, 3600, above=True, unit="seconds"),
    ),
]


def _system_language() -> str:
    """The language of the system's locale (``LANGUAGE``, ``LC_ALL``, ``LANG``...) if
    spacetable speaks it, else English."""
    found = default_locale()
    base = (found or "").split("_")[0]
    return base if base in i18n.LANGUAGES else i18n.SOURCE


def check_language(value: str | None) -> str:
    """``--lang``'s value checked (one of the languages), or the system's language."""
    if value is None:
        return _system_language()
    if value not in i18n.LANGUAGES:
        raise typer.BadParameter(f"{value!r} is not one of {in_words(i18n.LANGUAGES, 'or')}")
    return value


LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help="The language of the account: "
        + in_words(i18n.LANGUAGES, "or")
        + " (default: the system's, else English).",
        callback=check_language,
        show_default=False,
    ),
]


def _settle(path: Path, seconds: float, tr: i18n.Translator) -> tuple[Game, Referee, Any, Any]:
    """Read the file, find its game by its ``ruleset`` and check it, then resolve it in a
    worker process stopped after ``seconds`` (:mod:`spacetable._time_limit`, as the server
    does: the time limit counts only the resolving, so a file refused for what it holds
    is refused as such however busy the machine is): ``(game, referee, file, resolution)``. Fails
    with status 2, saying why in ``tr``'s language."""
    try:
        data = parse_json(read_limited(path, MAX_FILE_BYTES))
        entry, referee = referee_for(data)
    except (InputError, UnknownGame) as exc:
        fail_on(path, exc, tr)
    try:
        settled = referee.read(data)
        resolution = run_within(seconds, _resolve, data["ruleset"], settled)
    except referee.error as exc:
        fail_on(path, exc, tr)
    except OutOfTime as exc:
        # A number the reader's way, but never with a thousands separator (the limit: 3600).
        late = tr.gettext(
            "resolving it took longer than {seconds} s, refused",
            seconds=exc.seconds if exc.seconds < 1000 else f"{exc.seconds:g}",
        )
        fail(tr.gettext("{file}: {error}", file=str(path), error=late), tr)
    except OutOfMemory:
        full = tr.gettext("resolving it failed: it took more memory than a worker may have")
        fail(tr.gettext("{file}: {error}", file=str(path), error=full), tr)
    return entry, referee, settled, resolution


def _resolve(ruleset: str, settled: Any) -> Any:
    """In a worker: the resolution of a file its game's referee checked."""
    referee = game_for_ruleset(ruleset).rules.referee
    assert referee is not None  # _settle found it
    return referee.resolve(settled)


def resolve(
    table: TableArg,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the result as one JSON object.")
    ] = False,
    time_limit: TimeLimitOption = RESOLVE_BUDGET_S,
    lang: LangOption = None,
) -> None:
    """Resolve a file of any game and tell what happens step by step (or as JSON)."""
    tr = i18n.translator(lang or i18n.SOURCE)
    _, referee, settled, resolution = _settle(table, time_limit, tr)
    if as_json:
        print(json.dumps(referee.result_json(resolution), indent=2))
    elif referee.account_in is not None:
        print("\n".join(referee.account_in(settled, resolution, tr)))
    else:
        print("\n".join(referee.account(settled, resolution)))


def render(
    table: TableArg,
    output: Annotated[Path, typer.Option("-o", "--output", help="SVG file to write.")],
    battle: Annotated[
        bool,
        typer.Option(
            "--battle",
            help="Draw what happens on it (every laser of a table's battle); files that "
            "are their orders are always drawn resolved.",
        ),
    ] = False,
    time_limit: TimeLimitOption = RESOLVE_BUDGET_S,
    lang: LangOption = None,
) -> None:
    """Draw a file of any game as SVG, optionally with what happens on it."""
    tr = i18n.translator(lang or i18n.SOURCE)
    entry, referee, settled, resolution = _settle(table, time_limit, tr)
    try:
        drawn = resolution if battle or referee.draws_resolution else None
        svg = entry.svg(settled, drawn, tr)
    except ValueError as exc:
        fail(said(exc, tr), tr)
    try:
        output.write_text(svg, encoding="utf-8")
    except OSError as exc:
        fail(cannot_write(output, exc, tr), tr)
    print(tr.gettext("wrote {file}", file=output))


def _with_cards() -> list[Listing]:
    return [g for g in listings() if g.cards]


def _parts_help() -> str:
    parted = [g for g in listings() if g.card_parts]
    listed = "; ".join(f"{g.title}: {', '.join(g.card_parts)}" for g in parted)
    return f"Show one part of the catalog only ({listed})."


def cards(
    ruleset: Annotated[
        str | None,
        typer.Option(
            help="Which game's catalog to show: "
            + in_words((f"{r} ({g.title})" for g in _with_cards() for r in g.rulesets), "or")
            + " (default: the first, or the one with parts with --race)."
        ),
    ] = None,
    race: Annotated[str | None, typer.Option(help=_parts_help())] = None,
    svg: Annotated[
        Path | None, typer.Option(help="Also write one SVG card face per ship into this folder.")
    ] = None,
) -> None:
    """List the ships of a catalog."""
    with_cards = _with_cards()
    if ruleset is None:
        parted = [g for g in with_cards if g.card_parts] if race is not None else with_cards
        ruleset = parted[0].rulesets[0]
    listed = next((g for g in with_cards if ruleset in g.rulesets), None)
    if listed is None:
        known = in_words((r for g in with_cards for r in g.rulesets), "or")
        fail(f"unknown ruleset {ruleset!r} (choose {known})")
    try:
        ships, text = listed.load().card_list(race)
    except ValueError as exc:
        fail(str(exc))
    if not ships:
        fail(f"no {ruleset} ships are installed yet")
    print(text)
    if svg is not None:
        from spacetable.render.cards import card_svg

        try:
            svg.mkdir(parents=True, exist_ok=True)
            for ship in ships.values():
                (svg / f"{ship.key}.svg").write_text(card_svg(ship), encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write card faces to {svg}: {exc.strerror}")
        print(f"wrote {len(ships)} card faces to {svg}/")
