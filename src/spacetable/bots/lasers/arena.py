"""Bots playing whole matches against each other, without a server: the simulator.

Each seat places a card every ``pace`` seconds of simulated time (with a little jitter
drawn from the match seed), so faster bots call "stop" first, as at a real table. The
match machine is the same one the server drives.

Stellar Conflict matches start with every seat's fleet at ``t = 0``; under the timer the
arena sends :class:`~spacetable.games.stellar.TimerExpired` at the match's deadline, when
the next card would come too late. :func:`race_matrix` pits the races against each other
(the fairness check of ``docs/stellar.md``); :func:`lightspeed_duel` and
:func:`stellar_duel` are the two games' ``Game.duel`` (``spacetable duels``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from spacetable.bots import Bot
from spacetable.bots.lasers import make_bot
from spacetable.bots.lasers._view import BotAction
from spacetable.core.batch import Call, Runner, run_here
from spacetable.core.duels import DuelResult, Stopwatch
from spacetable.games._laser_match import LaserMatch
from spacetable.games.lightspeed import LightSpeedAction, LightSpeedMatch, LightSpeedOptions
from spacetable.games.stellar import (
    RACES,
    BattleSize,
    DeploymentRule,
    Fleet,
    Phase,
    Race,
    StellarMatch,
    StellarOptions,
    Timeout,
    TimerExpired,
)

SEATS = ("red", "blue", "green", "purple")
#: Seconds a Stellar Conflict seat takes per card unless told: a Dispute's 30 s countdown
#: then deploys about five cards, a War's 120 s about twenty.
STELLAR_PACE_SECONDS = 6.0


def _lightspeed(action: BotAction) -> LightSpeedAction:
    """A bot's answer in a Light Speed match (where no fleet is ever asked for)."""
    if isinstance(action, Fleet):
        raise TypeError("a bot sent a fleet in a Light Speed match")
    return action


@dataclass
class _Table:
    """The seats of one arena match: each seat's bot and pace, the match's jitter, and when
    each seat's next card is due (in simulated seconds)."""

    players: tuple[str, ...]
    bots: dict[str, Bot[BotAction]]
    pace: dict[str, float]
    rng: random.Random
    due: dict[str, float] = field(default_factory=dict)

    @classmethod
    def seat(
        cls,
        bots: Sequence[Bot[BotAction]],
        players: Sequence[str],
        paces: Sequence[float] | None,
        default_pace: float,
        seed: int,
    ) -> _Table:
        """Seat ``bots`` in ``players`` order, each at its pace (``default_pace`` unless
        told); the jitter is drawn from ``seed``."""
        if len(bots) != len(players):
            raise ValueError(f"{len(bots)} bots for {len(players)} seats")
        paces = paces or [default_pace] * len(bots)
        return cls(
            tuple(players),
            dict(zip(players, bots, strict=True)),
            dict(zip(players, paces, strict=True)),
            random.Random(f"arena/{seed}"),
        )

    def start_clocks(self) -> None:
        """Draw every seat's first card time: one pace, jittered by up to a fifth."""
        self.due = {p: self.pace[p] * self.rng.uniform(0.8, 1.2) for p in self.players}

    def next_card(self, match: LaserMatch[Any, Any]) -> tuple[str, float]:
        """The seat whose card comes first among those the match waits for, and its time."""
        player = min((p for p in self.players if match.needs_action(p)), key=self.due.__getitem__)
        return player, round(self.due[player], 3)

    def played(self, player: str) -> None:
        """``player`` played a card: its next one is due a jittered pace later."""
        self.due[player] += self.pace[player] * self.rng.uniform(0.8, 1.2)

    def choose(self, player: str, match: LaserMatch[Any, Any]) -> BotAction:
        """What ``player``'s bot does, seeing the match as that seat sees it."""
        return self.bots[player].choose(match.view(player), self.rng)

    def waiting(self, match: LaserMatch[Any, Any]) -> Iterator[str]:
        """The seats the match still waits for, in seat order, each asked as its turn
        comes (a card played by one seat may end the match for the next)."""
        return (p for p in self.players if match.needs_action(p))


def play_match(
    bots: Sequence[Bot[BotAction]],
    seed: int,
    options: LightSpeedOptions | None = None,
    paces: Sequence[float] | None = None,
) -> LightSpeedMatch:
    """Play one Light Speed match between ``bots`` (seat order) and return the finished
    match."""
    options = options or LightSpeedOptions(players=SEATS[: len(bots)])
    table = _Table.seat(bots, options.players, paces, 1.0, seed)
    match = LightSpeedMatch(options, seed)
    table.start_clocks()
    while match.phase == "fast":
        player, t = table.next_card(match)
        match.apply(_lightspeed(table.choose(player, match)).with_time(t))
        table.played(player)
    t = max(a.t for a in match.actions)
    for player in table.waiting(match):
        match.apply(_lightspeed(table.choose(player, match)).with_time(t))
    return match


def play_stellar_match(
    bots: Sequence[Bot[BotAction]],
    seed: int,
    options: StellarOptions | None = None,
    paces: Sequence[float] | None = None,
) -> StellarMatch:
    """Play one Stellar Conflict match between ``bots`` (seat order): fleets at ``t = 0``,
    then a card every ``paces[i]`` seconds (default :data:`STELLAR_PACE_SECONDS`) until the
    timer, the stop or the last card; frozen cards are dropped or discarded at once.
    Returns the finished match."""
    options = options or StellarOptions(players=SEATS[: len(bots)])
    table = _Table.seat(bots, options.players, paces, STELLAR_PACE_SECONDS, seed)
    match = StellarMatch(options, seed)
    for player in options.players:
        match.apply(table.choose(player, match).with_time(0.0))
    table.start_clocks()
    while match.phase == Phase.DEPLOYMENT:
        player, t = table.next_card(match)
        if match.deadline is not None and t >= match.deadline:
            match.apply(TimerExpired(match.deadline))
            break
        match.apply(table.choose(player, match).with_time(t))
        table.played(player)
    t = match.clock
    for player in table.waiting(match):
        match.apply(table.choose(player, match).with_time(t))
    if not match.is_over:
        match.apply(Timeout(t))
    return match


def win_rate(bot: Bot[BotAction], opponent: Bot[BotAction], games: int, seed: int = 0) -> float:
    """Share of ``games`` 2-player Light Speed matches ``bot`` wins against ``opponent``
    (draws count half), alternating seats so neither side always sits first."""
    points = 0.0
    for game in range(games):
        pair = (bot, opponent) if game % 2 == 0 else (opponent, bot)
        match = play_match(pair, seed + game)
        outcome = match.result()
        assert outcome is not None
        mine = match.players[game % 2]
        points += 1.0 if outcome.winner == mine else 0.5 if outcome.winner is None else 0.0
    return points / games


class _Timed:
    """A bot whose every decision its stopwatch times."""

    def __init__(self, bot: Bot[BotAction], watch: Stopwatch) -> None:
        self.bot, self.watch = bot, watch

    def choose(self, view: dict[str, Any], rng: random.Random) -> BotAction:
        """The bot's choice, timed."""
        action: BotAction = self.watch.timed(self.bot.choose, view, rng)
        return action


def _duel(
    play: Callable[[Sequence[Bot[BotAction]], int], LightSpeedMatch | StellarMatch],
    a: Bot[BotAction],
    b: Bot[BotAction],
    seed: int,
    a_first: bool,
    clock: Callable[[], float] | None,
) -> DuelResult:
    watch_a, watch_b = Stopwatch(clock), Stopwatch(clock)
    bots: list[Bot[BotAction]] = [_Timed(a, watch_a), _Timed(b, watch_b)]
    match = play(bots if a_first else bots[::-1], seed)
    outcome = match.result()
    assert outcome is not None
    seat_a = match.players[0 if a_first else 1]
    return DuelResult.between(outcome.winner, seat_a, len(match.table_cards()), watch_a, watch_b)


def lightspeed_duel(
    a: Bot[BotAction],
    b: Bot[BotAction],
    seed: int,
    *,
    a_first: bool = True,
    turn_limit: int = 0,
    clock: Callable[[], float] | None = None,
) -> DuelResult:
    """One 2-player Light Speed match of ``a`` against ``b``, both placing a card a second
    (so that it measures their aim, not their speed); ``turns`` counts the cards placed.
    ``turn_limit`` is not used (the fast round ends by itself)."""
    return _duel(play_match, a, b, seed, a_first, clock)


def stellar_duel(
    a: Bot[BotAction],
    b: Bot[BotAction],
    seed: int,
    *,
    a_first: bool = True,
    turn_limit: int = 0,
    clock: Callable[[], float] | None = None,
) -> DuelResult:
    """One 2-player Stellar Conflict match of ``a`` against ``b`` (Wiss against Vak, a
    Conflict under the timer, both at the same pace); ``turns`` counts the cards placed."""
    return _duel(play_stellar_match, a, b, seed, a_first, clock)


@dataclass(frozen=True, slots=True)
class StudySetup:
    """The game a race study plays, beside the races and the battle size: the deployment
    rule (``timer`` or ``stop``), the Asteroids variant (0: cargo ships; 1 to 5 asteroids)
    and Stolen Goods. The default is the normal game under the timer."""

    deployment: DeploymentRule = "timer"
    asteroids: int = 0
    stolen_goods: bool = False

    def options(self, races: tuple[Race, Race], size: BattleSize) -> StellarOptions:
        """The options of a 2-player match of ``races`` (seat order) at ``size``. Raises
        :class:`~spacetable.core.match.InvalidOptions` for a bad setup."""
        return StellarOptions(
            ("red", "blue"),
            races,
            size,
            deployment=self.deployment,
            asteroids=self.asteroids,
            stolen_goods=self.stolen_goods,
        )

    def describe(self) -> str:
        """The setup in words, e.g. ``timer deployment, cargo ships``."""
        parts = [
            "timer deployment" if self.deployment == "timer" else "the stop rule",
            f"{self.asteroids} asteroids" if self.asteroids else "cargo ships",
        ]
        if self.stolen_goods:
            parts.append("Stolen Goods")
        return ", ".join(parts)

    def flags(self) -> str:
        """The ``spacetable races`` options that ask for this setup ("" for the default)."""
        parts = []
        if self.deployment != "timer":
            parts.append(f" --deployment {self.deployment}")
        if self.asteroids:
            parts.append(f" --asteroids {self.asteroids}")
        if self.stolen_goods:
            parts.append(" --stolen-goods")
        return "".join(parts)


#: The normal game under the timer: what a study plays unless told.
NORMAL_GAME = StudySetup()


@dataclass(frozen=True, slots=True)
class PairRecord:
    """How race ``race`` fared against race ``other`` over ``games`` matches: ``wins``,
    ``draws`` and ``losses`` from ``race``'s side."""

    race: str
    other: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        """Matches played."""
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """Wins plus half the draws."""
        return self.wins + 0.5 * self.draws

    @property
    def rate(self) -> float:
        """Share of the matches won, draws counting half."""
        return self.points / self.games

    def reversed(self) -> PairRecord:
        """The same matches from ``other``'s side."""
        return PairRecord(self.other, self.race, self.losses, self.draws, self.wins)


def race_pair(
    first: Race,
    second: Race,
    size: BattleSize,
    games: int,
    seed: int = 0,
    level: str = "easy",
    pace: float = STELLAR_PACE_SECONDS,
    setup: StudySetup = NORMAL_GAME,
) -> PairRecord:
    """Play ``first`` against ``second`` in ``games`` 2-player Stellar Conflict battles of
    ``size`` in each seat order (``2 * games`` matches; match ``i`` of each order uses seed
    ``seed + i``), both sides played by bots of ``level`` placing a card every ``pace``
    seconds, in the game ``setup`` describes. Raises ``ValueError`` for an unknown level."""
    wins = draws = 0
    for game, (a, b) in itertools.product(range(games), ((first, second), (second, first))):
        options = setup.options((a, b), size)
        bots = [make_bot(level), make_bot(level)]
        outcome = play_stellar_match(bots, seed + game, options, [pace, pace]).result()
        assert outcome is not None
        mine = "red" if a == first else "blue"
        wins += outcome.winner == mine
        draws += outcome.winner is None
    return PairRecord(first, second, wins, draws, 2 * games - wins - draws)


def race_matrix(
    size: BattleSize,
    games: int,
    seed: int = 0,
    level: str = "easy",
    pace: float = STELLAR_PACE_SECONDS,
    progress: Callable[[PairRecord], None] | None = None,
    setup: StudySetup = NORMAL_GAME,
    runner: Runner = run_here,
) -> dict[str, dict[str, float]]:
    """How often each race beats each other race in 2-player Stellar Conflict battles of
    ``size``, both sides played by bots of ``level``, in the game ``setup`` describes.

    Every pair of races plays :func:`race_pair`: ``games`` matches in each seat order
    (seeds ``seed``, ``seed + 1``, ...; the same seeds for every pair). ``matrix[a][b]`` is
    the share of those ``2 * games`` matches race ``a`` won, draws counting half, so
    ``matrix[a][b] + matrix[b][a] == 1``. ``progress`` is called with each pair's record
    as it is done. ``runner`` plays the pairs (by default here, one after another; see
    :mod:`spacetable.core.batch`): the matrix is the same wherever they run.
    """
    pairs = list(itertools.combinations(RACES, 2))
    calls = [
        Call(race_pair, (first, second, size, games, seed, level, pace, setup))
        for first, second in pairs
    ]

    def told(_index: int, record: PairRecord) -> None:
        if progress is not None:
            progress(record)

    matrix: dict[str, dict[str, float]] = {race: {} for race in RACES}
    for (first, second), record in zip(pairs, runner(calls, told), strict=True):
        matrix[first][second] = record.rate
        matrix[second][first] = 1.0 - record.rate
    return matrix


def race_table(matrices: dict[str, dict[str, dict[str, float]]]) -> str:
    """Markdown: each race's win rate against each other race and overall, one column per
    battle size (``matrices`` maps a size to its :func:`race_matrix`)."""
    sizes = list(matrices)
    lines = [
        "| race | vs | " + " | ".join(sizes) + " |",
        "|---|---|" + "---|" * len(sizes),
    ]
    for race in RACES:
        for other in [*(r for r in RACES if r != race), "all"]:
            cells = []
            for size in sizes:
                row = matrices[size][race]
                rate = sum(row.values()) / len(row) if other == "all" else row[other]
                cells.append(f"{rate:.0%}")
            label = f"**{other}**" if other == "all" else other
            lines.append(f"| {race} | {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
