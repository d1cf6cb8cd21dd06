"""The race study: are the four Stellar Conflict fleets fair to one another?

Bots of one level play every pair of races head to head at each battle size
(:func:`spacetable.bots.lasers.arena.race_matrix`, seats alternating); this module keeps the
wins, draws and losses, puts a 95 % Wilson interval on each win rate and prints the tables
of ``docs/stellar.md`` (``spacetable races``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from spacetable.bots.lasers.arena import (
    NORMAL_GAME,
    STELLAR_PACE_SECONDS,
    PairRecord,
    StudySetup,
    race_matrix,
)
from spacetable.core.stats import wilson
from spacetable.games.stellar import CREDITS, RACES, BattleSize

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
) -> RaceStudy:
    """Play :func:`~spacetable.bots.lasers.arena.race_matrix` at each of ``sizes`` (``games``
    matches per pair and seat order) in the game ``setup`` describes, and keep every
    pair's record; ``progress`` hears of
    each pair as it finishes. Raises ``ValueError`` for an unknown bot level or a
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

        race_matrix(size, games, seed, level, pace, progress=keep, setup=setup)
        studies.append(SizeStudy(size, tuple(records)))
    return RaceStudy(level, games, seed, pace, tuple(studies), setup)
