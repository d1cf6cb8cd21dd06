"""Bots playing whole matches against each other, without a server: the simulator.

Each seat places a card every ``pace`` seconds of simulated time (with a little jitter
drawn from the match seed), so faster bots call "stop" first, as at a real table. The
match machine is the same one the server drives.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from spacetable.bots import Bot
from spacetable.games.lightspeed import LightSpeedMatch, LightSpeedOptions


def play_match(
    bots: Sequence[Bot],
    seed: int,
    options: LightSpeedOptions | None = None,
    paces: Sequence[float] | None = None,
) -> LightSpeedMatch:
    """Play one match between ``bots`` (seat order) and return the finished match."""
    options = options or LightSpeedOptions(players=("red", "blue", "green", "purple")[: len(bots)])
    if len(bots) != len(options.players):
        raise ValueError(f"{len(bots)} bots for {len(options.players)} seats")
    paces = paces or [1.0] * len(bots)
    match = LightSpeedMatch(options, seed)
    rng = random.Random(f"arena/{seed}")
    seats = dict(zip(options.players, bots, strict=True))
    due = {p: pace * rng.uniform(0.8, 1.2) for p, pace in zip(options.players, paces, strict=True)}
    pace_of = dict(zip(options.players, paces, strict=True))
    while match.phase == "fast":
        player = min((p for p in options.players if match.needs_action(p)), key=due.__getitem__)
        t = round(due[player], 3)
        match.apply(seats[player].choose(match.view(player), rng).with_time(t))
        due[player] += pace_of[player] * rng.uniform(0.8, 1.2)
    t = max(a.t for a in match.actions)
    for player in options.players:
        if match.needs_action(player):
            match.apply(seats[player].choose(match.view(player), rng).with_time(t))
    return match


def win_rate(bot: Bot, opponent: Bot, games: int, seed: int = 0) -> float:
    """Share of ``games`` 2-player matches ``bot`` wins against ``opponent`` (draws count
    half), alternating seats so neither side always sits first."""
    points = 0.0
    for game in range(games):
        pair = (bot, opponent) if game % 2 == 0 else (opponent, bot)
        match = play_match(pair, seed + game)
        outcome = match.result()
        assert outcome is not None
        mine = match.players[game % 2]
        points += 1.0 if outcome.winner == mine else 0.5 if outcome.winner is None else 0.0
    return points / games
