"""``spacetable bench``, ``loadtest`` and ``duels``: measurements of the resolvers, the
server and the bots."""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING, Annotated, Any

import typer

from spacetable._number_options import MAX_SEED, within
from spacetable.cli._common import bot_levels, choices, fail, in_words
from spacetable.lab.spread import JobsOption, RayAddress, RayFlag
from spacetable.registry import Listing, UnknownGame, game, listings

if TYPE_CHECKING:
    from spacetable.lab.loadtest import LoadSettings

#: Seconds a load test measures or a bench runs, at most an hour.
_SECONDS = within(0, 3600, above=True, unit="seconds")
#: Rooms in a load test: at least one, at most as many as a server holds open.
_ROOMS = within(1, 5000)


def _has_duels(entry: Listing) -> bool:
    return entry.duels and bool(entry.bot_levels)


def _duelling_game(bot: str, against: str) -> str:
    """The game ``duels`` measures when ``--game`` is left out: the one registered game with
    duels whose bots have both levels (read off the listings: none is loaded). Exits with
    status 2 naming the levels there are when no game has them, or the games to choose
    from when several have."""
    duelling = [entry for entry in listings() if _has_duels(entry)]
    for level in (bot, against):
        if not any(level in entry.bot_levels for entry in duelling):
            fail(f"unknown bot level {level!r} ({bot_levels()})")
    both = [entry for entry in duelling if {bot, against} <= set(entry.bot_levels)]
    if not both:
        fail(f"no game has both {bot!r} and {against!r} bots ({bot_levels()})")
    if len(both) > 1:
        keys = in_words((entry.key for entry in both), "or")
        fail(f"--game: {bot} and {against} play in {len(both)} games: name one ({keys})")
    return both[0].key


def bench(
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the measurements as one JSON object.")
    ] = False,
    seconds: Annotated[
        float,
        typer.Option(
            help="Roughly how long to measure each resolver, in seconds.",
            callback=_SECONDS,
        ),
    ] = 2.0,
    photo: Annotated[
        bool,
        typer.Option(
            "--photo",
            help="Measure the photo referee instead, over synthetic 12-megapixel photos: "
            "cards found, pose errors, close calls, seconds per photo.",
        ),
    ] = False,
    count: Annotated[
        int, typer.Option(help="With --photo: how many photos.", callback=within(1, 1000))
    ] = 10,
    seed: Annotated[
        int | None,
        typer.Option(
            help="With --photo: the first photo's seed (default 0); with --state-bytes: "
            "the matches' seed (default 1).",
            callback=within(0, MAX_SEED),
        ),
    ] = None,
    state_bytes: Annotated[
        bool,
        typer.Option(
            "--state-bytes",
            help="Measure instead the bytes of match states each socket gets per action, "
            "whole and as patches, in a seeded bot match of each game.",
        ),
    ] = False,
    spectators: Annotated[
        int,
        typer.Option(
            help="With --state-bytes: spectators watching each match.",
            callback=within(0, 1000),
        ),
    ] = 100,
    full_states: Annotated[
        bool,
        typer.Option(
            "--full-states",
            help="With --state-bytes: every socket takes every state whole, as before "
            "state patches (compare the time spent sending).",
        ),
    ] = False,
    startup: Annotated[
        bool,
        typer.Option(
            "--startup",
            help="Measure instead how fast commands start: the processor seconds of "
            "whole `spacetable --help`, `resolve` and `photo --resolve` processes.",
        ),
    ] = False,
    runs: Annotated[
        int,
        typer.Option(
            help="With --startup: runs of each command (the median is shown).",
            callback=within(1, 100),
        ),
    ] = 5,
) -> None:
    """Measure how many tables per second the resolvers handle (reference, fast, batch),
    with --photo how well and how fast the photo referee reads a table, with
    --state-bytes what the match states cost to send, or with --startup how fast
    commands start."""
    if startup:
        _startup(runs, as_json)
        return
    if state_bytes:
        _state_bytes(spectators, 1 if seed is None else seed, full_states, as_json)
        return
    if photo:
        from spacetable.lab.photo_bench import run_photo_bench

        if not as_json:
            print(f"rendering and reading {count} photos...", file=sys.stderr)
        result = run_photo_bench(count=count, seed=0 if seed is None else seed)
        if not as_json:
            result.pop("photos_detail")
    else:
        from spacetable.lab.bench import run_bench

        if not as_json:
            print("measuring (compiling the fast path first)...", file=sys.stderr)
        result = run_bench(seconds=seconds)
    if as_json:
        print(json.dumps(result, indent=2))
        return
    for key, value in result.items():
        if isinstance(value, float):
            shown = f"{value:,.1f}" if abs(value) >= 10 or not photo else f"{value:.3f}"
        else:
            shown = str(value)
        print(f"{key:28} {shown}")


def _startup(runs: int, as_json: bool) -> None:
    """``bench --startup``: each command's median processor seconds against its target."""
    from spacetable.lab.startup import run_startup_bench

    try:
        result = run_startup_bench(runs, progress=lambda line: print(line, file=sys.stderr))
    except RuntimeError as failed:
        fail(str(failed))
    if as_json:
        print(json.dumps(result, indent=2))
        return
    print(f"{'command':38} {'CPU s':>7} {'wall s':>7} {'target':>7}  (median of {runs})")
    for name, row in result["commands"].items():
        verdict = "ok" if row["meets_target"] else "MISSED"
        print(
            f"{name:38} {row['cpu_s']:7.3f} {row['wall_s']:7.3f} "
            f"{'< ' + str(row['target_cpu_s']):>7}  {verdict}"
        )


def _state_bytes(spectators: int, seed: int, full_states: bool, as_json: bool) -> None:
    """``bench --state-bytes``: one seeded bot match of each game, its states' bytes."""
    from spacetable.server.lab.state_bytes import GAME_BODIES, measure_game, table_lines

    print("playing one seeded bot match of each game...", file=sys.stderr)
    reports = [
        measure_game(game, spectators=spectators, seed=seed, full_states=full_states)
        for game in GAME_BODIES
    ]
    if as_json:
        print(json.dumps(reports, indent=2))
        return
    for line in table_lines(reports, spectators, full_states):
        print(line)


def loadtest(
    rooms: Annotated[
        int | None,
        typer.Option(
            help="Rooms of four clients to run (default: find the most that pass).",
            callback=_ROOMS,
        ),
    ] = None,
    seconds: Annotated[
        float, typer.Option(help="Seconds measured per run.", callback=_SECONDS)
    ] = 15.0,
    warmup: Annotated[
        float,
        typer.Option(
            help="Seconds of load before measuring.", callback=within(0, 3600, unit="seconds")
        ),
    ] = 3.0,
    start: Annotated[
        int, typer.Option(help="Rooms in the first run of the search.", callback=_ROOMS)
    ] = 50,
    step: Annotated[
        int, typer.Option(help="Rooms added per run of the search.", callback=_ROOMS)
    ] = 50,
    limit: Annotated[int, typer.Option(help="Most rooms the search tries.", callback=_ROOMS)] = 400,
    threshold_ms: Annotated[
        float,
        typer.Option(help="p99 latency budget, in ms.", callback=within(0, 60_000, above=True)),
    ] = 50.0,
    pose_hz: Annotated[
        float,
        typer.Option(
            help="Poses a second each client streams (the default is what a room's page "
            "sends while its player moves the card in hand).",
            callback=within(0, 1_000, above=True),
        ),
    ] = 10.0,
    workers: Annotated[
        int,
        typer.Option(
            help="Server processes: more than 1 runs `serve --workers N` (Redis and HAProxy "
            "needed) and reports the work per server CPU-second.",
            callback=within(1, 64),
        ),
    ] = 1,
    pin: Annotated[
        bool,
        typer.Option(
            help="With one process: pin it to core 0 and the clients to core 1 (--no-pin: "
            "let the system place them, as it places several processes).",
        ),
    ] = True,
    by_hash: Annotated[
        bool,
        typer.Option(
            help="With --workers: send each room's sockets by the hash of its id (about "
            "half of them relayed by a process that does not hold the room), not straight "
            "to its process as its page does.",
        ),
    ] = False,
    vs: Annotated[
        str | None,
        typer.Option(
            "--vs",
            metavar="REF",
            help="Compare with the code of commit REF (a hash, tag or branch of this "
            "repository, checked out in a temporary git worktree): --pairs pairs of runs "
            "of --rooms rooms, REF's server then the current one, each run's line labelled "
            "with its commit, then the current server core and pose and place p99 over "
            "REF's (median of the pairs). The load clients are the current code.",
            show_default=False,
        ),
    ] = None,
    pairs: Annotated[
        int,
        typer.Option(help="With --vs: pairs of runs, REF then current.", callback=within(1, 100)),
    ] = 2,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as one JSON object.")
    ] = False,
) -> None:
    """Measure how many rooms one server core holds (load benchmark).

    Starts a real `spacetable serve` pinned to one core and rooms of four websocket clients
    that stream hand poses (10 a second, as a page does) and place cards; reports
    messages/s and the p50/p99 latency of poses and placements. Without --rooms, adds rooms
    until a run misses p99 < 50 ms. With --workers N, the server is N processes behind
    HAProxy with Redis (`serve --workers N`), and the report gives rooms and messages per
    server CPU-second. With --vs REF, runs alternate between REF's server and the current
    one and the ratios are printed. A run warns when the load clients were busy or late
    enough to skew the latencies they measure (docs/performance.md)."""
    from spacetable.lab.loadtest import LoadSettings, find_max, run_loadtest, summary_line

    base = LoadSettings(
        rooms=rooms or start,
        seconds=seconds,
        warmup=warmup,
        threshold_ms=threshold_ms,
        pose_hz=pose_hz,
        workers=workers,
        by_hash=by_hash,
        pin=pin,
    )

    def progress(report: dict[str, Any]) -> None:
        print(summary_line(report), file=sys.stderr)
        for warning in report["warnings"]:
            print(f"warning: {warning}", file=sys.stderr)

    if vs is not None:
        if rooms is None:
            fail("--vs: give --rooms, the rooms of every run")
        _loadtest_vs(base, vs, pairs, as_json)
        return
    print(
        "starting a server and its clients (each run takes "
        f"{warmup + seconds:g} s plus start-up)...",
        file=sys.stderr,
    )
    if rooms is not None:
        result = run_loadtest(base)
        progress(result)
    else:
        result = find_max(base, start=start, step=step, limit=limit, progress=progress)
        best = result["max_rooms"]
        print(f"most rooms meeting {result['criterion']}: {best}", file=sys.stderr)
    if as_json:
        print(json.dumps(result, indent=2))


def _loadtest_vs(base: LoadSettings, ref: str, pairs: int, as_json: bool) -> None:
    """``loadtest --vs REF``: each run's line labelled with its commit, then the ratios."""
    from spacetable.lab.loadtest import summary_line
    from spacetable.lab.loadvs import VsError, ratio_line, run_vs

    served: set[str] = set()

    def progress(label: str, report: dict[str, Any]) -> None:
        print(f"{label:22} {summary_line(report)}", file=sys.stderr)
        if label not in served:  # which tree serves, once for each code
            served.add(label)
            print(f"{'':22} served by {report['server_code']}", file=sys.stderr)
        for warning in report["warnings"]:
            print(f"warning: {warning}", file=sys.stderr)

    print(
        f"{pairs} pair{'s' if pairs > 1 else ''} of runs against {ref}, each "
        f"{base.warmup + base.seconds:g} s plus start-up, once both servers' kernels are "
        f"compiled ({ref}'s worktree is fresh: a minute or more)...",
        file=sys.stderr,
    )
    try:
        result = run_vs(
            base, ref, pairs, progress, warn=lambda text: print(f"warning: {text}", file=sys.stderr)
        )
    except VsError as error:
        fail(str(error))
    except RuntimeError as error:  # a server that did not start: its log
        fail(str(error))
    print(ratio_line(result), file=sys.stderr)
    if as_json:
        print(json.dumps(result, indent=2))


def duels(
    bot: Annotated[
        str, typer.Option(help=f"The bot measured: one of the game's bot levels ({bot_levels()}).")
    ],
    against: Annotated[str, typer.Option(help="Its opponent, one of the same levels.")],
    game_key: Annotated[
        str | None,
        typer.Option(
            "--game",
            help=f"The game: {choices(_has_duels)} (default: the one whose bots have both levels).",
            show_default=False,
        ),
    ] = None,
    count: Annotated[
        int,
        typer.Option(
            "--duels",
            "--games",
            help="Duels to play, seats alternating.",
            callback=within(1, 1_000_000),
        ),
    ] = 400,
    seed: Annotated[
        int,
        typer.Option(
            help="Seed of the first duel; duel i uses seed + i.", callback=within(0, MAX_SEED)
        ),
    ] = 0,
    turns: Annotated[
        int | None,
        typer.Option(
            help="Games played in turns: the turn limit (default: the game's own).",
            callback=within(1, 100_000),
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            help="One of the game's duel options as key=value (its duel function's "
            "keyword, e.g. scenario=fleet); repeat for more.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    jobs: JobsOption = 1,
    use_ray: RayFlag = False,
    ray_address: RayAddress = None,
) -> None:
    """Measure one bot against another over seeded duels, in any game with bots.

    Prints wins, draws and losses, the share of decisive duels, the win rate and the score
    (a draw counts half) with 95% Wilson intervals, the mean length, and how long each bot
    thinks per decision: processor seconds of the one core it runs on, whatever else the
    machine does. Progress, with the record so far, goes to stderr. With --jobs the duels
    are spread over that many processes, with --ray over Ray, with the same record."""
    from spacetable.core.duels import DuelResult, study
    from spacetable.lab.spread import RayUnavailable, runner_for

    try:
        entry = game(game_key or _duelling_game(bot, against))
        if entry.bots is None:
            raise ValueError(f"{entry.rules.title} has no bots")
        duel = entry.duel_function()
        a, b = entry.bots.bot(bot), entry.bots.bot(against)
    except (UnknownGame, ValueError) as exc:
        fail(str(exc))
    options: dict[str, str] = {}
    for entry_text in option or []:
        key, equals, value = entry_text.partition("=")
        if not equals or not key.strip():
            fail(f"--option {entry_text!r}: write it as key=value")
        options[key.strip()] = value.strip()

    played: list[DuelResult] = []

    def progress(k: int, result: DuelResult) -> None:
        outcome = {"a": "won", "b": "lost", None: "drew"}[result.winner]
        played.append(result)
        n = len(played)
        decided = sum(r.winner is not None for r in played)
        print(
            f"[{n}/{count}] seed {seed + k}: {bot} {outcome} ({result.turns} turns); so far "
            f"{sum(r.winner == 'a' for r in played)}-{n - decided}-"
            f"{sum(r.winner == 'b' for r in played)}, {decided / n:.0%} decisive",
            file=sys.stderr,
        )

    try:
        with runner_for(use_ray, ray_address, jobs) as runner:
            found = study(
                duel, a, b, count, seed=seed, turn_limit=turns, progress=progress,
                clock=time.thread_time, options=options, runner=runner,
            ).summary()  # fmt: skip
    except RayUnavailable as exc:
        fail(str(exc))
    except TypeError as exc:  # an option this game's duels do not take
        fail(f"--option: {entry.rules.title} duels take no such option ({exc})")
    except ValueError as exc:  # InvalidOptions: a value the game refuses
        fail(f"--option: {exc}")
    if as_json:
        print(json.dumps({"game": entry.rules.key, "bot": bot, "against": against, "seed": seed,
                          **found}, indent=2))  # fmt: skip
        return
    seeds = f"seeds {seed}..{seed + count - 1}"
    print(f"{entry.rules.title}: {bot} against {against}, {count} duels ({seeds}):")
    print(
        f"  won {found['wins']}, drew {found['draws']}, lost {found['losses']}; "
        f"decisive {found['decisive']:.0%}"
    )
    for key, label in (("win_rate", "win rate"), ("score", "score (draw = half)")):
        low, high = found[f"{key}_95"]
        print(f"  {label}: {found[key]:.1%} (95% interval {low:.1%}-{high:.1%})")
    unit = "cards placed" if entry.rules.pacing == "realtime" else "turns"
    print(f"  mean length: {found['mean_turns']:.1f} {unit}")
    for side, level in (("bot", bot), ("against", against)):
        timing = found["decision_seconds"][side]
        print(
            f"  {level} thinks {timing['mean']:.3f} s of CPU a decision on average, median "
            f"{timing['p50']:.3f} s, p99 "
            f"{timing['p99']:.3f} s, longest {timing['max']:.3f} s "
            f"({timing['decisions']} decisions)"
        )
