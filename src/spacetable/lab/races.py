"""The race study: are the four Stellar Conflict fleets fair to one another?

Bots of one level play every pair of races head to head at each battle size
(:func:`spacetable.bots.lasers.arena.race_matrix`, seats alternating); this module keeps the
wins, draws and losses, puts a 95 % Wilson interval on each win rate and prints the tables
of ``docs/stellar.md`` (``spacetable races``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from spacetable._number_options import MAX_SEED, within
from spacetable.bots.lasers import LEVELS, warm_up
from spacetable.bots.lasers.arena import (
    NORMAL_GAME,
    STELLAR_PACE_SECONDS,
    PairRecord,
    StudySetup,
    race_matrix,
)
from spacetable.core.batch import Runner, run_here
from spacetable.core.stats import wilson
from spacetable.games.stellar import BATTLE_SIZES, CREDITS, RACES, BattleSize
from spacetable.lab.spread import RayAddress, RayFlag, RayUnavailable, runner_for

#: The normal quantile of a two-sided 95 % interval.


def _record_json(record: PairRecord) -> dict[str, Any]:
    low, high = wilson(record.points, record.games)
    return {
        "wins": record.wins,
        "draws": record.draws,
        "losses": record.losses,
        "games": record.games,
        "rate": round(record.rate, 4),
        "ci95": [round(low, 4), round(high, 4)],
    }


def _cell(record: PairRecord) -> str:
    low, high = wilson(record.points, record.games)
    return f"{record.rate:.0%} ({low:.0%}-{high:.0%})"


@dataclass(frozen=True, slots=True)
class SizeStudy:
    """Every pair of races at one battle size: one :class:`PairRecord` per pair, from the
    first race's side (races in :data:`~spacetable.games.stellar.RACES` order)."""

    size: BattleSize
    records: tuple[PairRecord, ...]

    def record(self, race: str, other: str) -> PairRecord:
        """How ``race`` fared against ``other``. Raises ``KeyError`` for a pair not played."""
        for record in self.records:
            if (record.race, record.other) == (race, other):
                return record
            if (record.race, record.other) == (other, race):
                return record.reversed()
        raise KeyError(f"{race} and {other} did not play")

    def overall(self, race: str) -> PairRecord:
        """``race``'s matches against every other race, pooled (``other`` is ``"all"``)."""
        mine = [self.record(race, other) for other in RACES if other != race]
        return PairRecord(
            race,
            "all",
            sum(r.wins for r in mine),
            sum(r.draws for r in mine),
            sum(r.losses for r in mine),
        )

    def matrix(self) -> dict[str, dict[str, float]]:
        """``matrix[a][b]``: the share of its matches against ``b`` that ``a`` won."""
        return {a: {b: self.record(a, b).rate for b in RACES if b != a} for a in RACES}

    def to_json(self) -> dict[str, Any]:
        """Counts, win rates and 95 % intervals of every pair and every race overall."""
        return {
            "credits": CREDITS[self.size],
            "matches_per_pair": self.records[0].games if self.records else 0,
            "pairs": {
                race: {
                    other: _record_json(self.record(race, other))
                    for other in RACES
                    if other != race
                }
                for race in RACES
            },
            "overall": {race: _record_json(self.overall(race)) for race in RACES},
        }

    def to_markdown(self) -> str:
        """A markdown table: each race's win rate (95 % interval) against each other race
        and overall."""
        per_pair = self.records[0].games if self.records else 0
        lines = [
            f"**{self.size.title()}** ({CREDITS[self.size]} credits): {per_pair} matches per "
            f"pair, {3 * per_pair} per race overall",
            "",
            "| race | " + " | ".join(f"vs {r}" for r in RACES) + " | overall |",
            "|---|" + "---|" * (len(RACES) + 1),
        ]
        for race in RACES:
            cells = ["-" if other == race else _cell(self.record(race, other)) for other in RACES]
            cells.append(f"**{_cell(self.overall(race))}**")
            lines.append(f"| {race} | " + " | ".join(cells) + " |")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class RaceStudy:
    """A whole study: how it was run and each battle size's results."""

    level: str
    games: int
    seed: int
    pace_seconds: float
    sizes: tuple[SizeStudy, ...]
    setup: StudySetup = NORMAL_GAME

    def command(self) -> str:
        """The ``spacetable races`` command line that reproduces this study."""
        size = "all" if len(self.sizes) == 3 else ",".join(s.size for s in self.sizes)
        pace = "" if self.pace_seconds == STELLAR_PACE_SECONDS else f" --pace {self.pace_seconds:g}"
        return (
            f"spacetable races --size {size} --games {self.games} --level {self.level} "
            f"--seed {self.seed}{pace}{self.setup.flags()}"
        )

    def to_json(self) -> dict[str, Any]:
        """The study as one JSON object (settings, then one entry per battle size)."""
        return {
            "level": self.level,
            "games_per_seat_order": self.games,
            "seed": self.seed,
            "pace_seconds": self.pace_seconds,
            "deployment": self.setup.deployment,
            "asteroids": self.setup.asteroids,
            "stolen_goods": self.setup.stolen_goods,
            "command": self.command(),
            "sizes": {s.size: s.to_json() for s in self.sizes},
        }

    def to_markdown(self) -> str:
        """One markdown table per battle size, after a line naming the settings."""
        head = (
            f"Bots: `{self.level}` on both sides; {self.games} matches per seat order "
            f"(seeds {self.seed}..{self.seed + self.games - 1}); a card every "
            f"{self.pace_seconds:g} s; {self.setup.describe()}. Win rate (95 % Wilson "
            "interval), draws count half."
        )
        return "\n\n".join([head, *(s.to_markdown() for s in self.sizes)])


def run_study(
    sizes: Sequence[BattleSize],
    games: int,
    seed: int = 0,
    level: str = "easy",
    pace: float = STELLAR_PACE_SECONDS,
    progress: Callable[[BattleSize, PairRecord], None] | None = None,
    setup: StudySetup = NORMAL_GAME,
    runner: Runner = run_here,
) -> RaceStudy:
    """Play :func:`~spacetable.bots.lasers.arena.race_matrix` at each of ``sizes`` (``games``
    matches per pair and seat order) in the game ``setup`` describes, and keep every
    pair's record; ``progress`` hears of
    each pair as it finishes; ``runner`` plays them (here by default, or spread over Ray by
    :mod:`spacetable.lab.spread`), the records kept in the races' order wherever they ran.
    Raises ``ValueError`` for an unknown bot level or a
    ``games`` below 1."""
    if games < 1:
        raise ValueError(f"each pair needs at least one game, got {games}")
    studies = []
    for size in sizes:
        records: list[PairRecord] = []

        def keep(
            record: PairRecord, size: BattleSize = size, records: list[PairRecord] = records
        ) -> None:
            records.append(record)
            if progress is not None:
                progress(size, record)

        race_matrix(size, games, seed, level, pace, progress=keep, setup=setup, runner=runner)
        records.sort(key=lambda r: (RACES.index(r.race), RACES.index(r.other)))
        studies.append(SizeStudy(size, tuple(records)))
    return RaceStudy(level, games, seed, pace, tuple(studies), setup)


def _sizes_in_words() -> str:
    """The battle sizes with their credits: "dispute (10 credits), conflict (15)..."."""
    sizes = [f"{size} ({CREDITS[size]})" for size in BATTLE_SIZES]
    sizes[0] = sizes[0].replace(")", " credits)")
    return ", ".join(sizes)


def races_command(
    size: Annotated[str, typer.Option(help=f"Battle size: {_sizes_in_words()} or all.")] = "all",
    games: Annotated[
        int,
        typer.Option(
            help="Matches per pair of races in each seat order (each pair plays twice as many).",
            callback=within(1, 100_000),
        ),
    ] = 100,
    level: Annotated[
        str, typer.Option(help=f"Bot level on both sides: {', '.join(LEVELS)}.")
    ] = "easy",
    seed: Annotated[
        int,
        typer.Option(
            help="Seed of the first match; match i uses seed + i.", callback=within(0, MAX_SEED)
        ),
    ] = 0,
    pace: Annotated[
        float,
        typer.Option(
            help="Seconds each bot takes per card it deploys.",
            callback=within(0, 60, above=True, unit="seconds"),
        ),
    ] = STELLAR_PACE_SECONDS,
    deployment: Annotated[
        str, typer.Option(help="timer (the countdown) or stop (Light Speed's stop rule).")
    ] = "timer",
    asteroids: Annotated[
        int, typer.Option(help="Asteroids variant: 1 to 5 asteroids instead of cargo ships.")
    ] = 0,
    stolen_goods: Annotated[bool, typer.Option(help="Play the Stolen Goods variant.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the study as one JSON object.")
    ] = False,
    use_ray: RayFlag = False,
    ray_address: RayAddress = None,
) -> str:
    """Measure how fair the Stellar Conflict races are (bot study).

    Bots of one level play every pair of races head to head at each battle size (two
    players, seats alternating, seeded; the normal game under the timer unless told) and
    print each race's win rate against each other race and overall, with a 95% Wilson
    interval, as markdown tables or JSON. Progress goes to stderr; the default run takes a
    few minutes. See docs/stellar.md."""
    sizes = list(BATTLE_SIZES) if size == "all" else [s for s in BATTLE_SIZES if s == size]
    if not sizes:
        raise ValueError(f"unknown battle size {size!r} (choose {', '.join(BATTLE_SIZES)} or all)")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})")
    if deployment not in ("timer", "stop"):
        raise ValueError(f"unknown deployment {deployment!r} (choose timer or stop)")
    setup = StudySetup("stop" if deployment == "stop" else "timer", asteroids, stolen_goods)
    setup.options(("wiss", "vak"), sizes[0])  # raises InvalidOptions for a bad variant
    total = len(sizes) * 6
    print(f"{total} pairs of races, {2 * games} matches each...", file=sys.stderr)
    warm_up()
    done: list[PairRecord] = []

    def progress(battle: BattleSize, record: PairRecord) -> None:
        done.append(record)
        low, high = wilson(record.points, record.games)
        print(
            f"[{len(done)}/{total}] {battle}: {record.race} vs {record.other} "
            f"{record.rate:.0%} ({low:.0%}-{high:.0%}) over {record.games} matches",
            file=sys.stderr,
        )

    try:
        with runner_for(use_ray, ray_address) as runner:
            study = run_study(sizes, games, seed, level, pace, progress, setup, runner)
    except RayUnavailable as exc:
        raise ValueError(str(exc)) from exc
    if as_json:
        return json.dumps(study.to_json(), indent=2)
    return f"{study.to_markdown()}\n\nReproduce: {study.command()}"
