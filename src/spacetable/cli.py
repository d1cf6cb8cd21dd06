"""The ``spacetable`` command: serve the browser game; resolve and draw any game's table or
turn files; list ships; benchmark.

Errors in the user's input (a malformed file, an unknown ship, an illegal order...) print
one line on stderr naming the problem and exit with status 2; nothing is printed on stdout.
Files reach their game through the registry (:mod:`spacetable.core.registry`), by the
``ruleset`` they name.
"""

from __future__ import annotations

import functools
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from spacetable._time_limit import RESOLVE_BUDGET_S, OutOfMemory, OutOfTime, run_within
from spacetable._userinput import InputError, parse_json, read_limited
from spacetable.core.registry import (
    MAX_FILE_BYTES,
    Referee,
    UnknownGame,
    game,
    games,
    referee_for,
)
from spacetable.core.replays import replay_record

app = typer.Typer(
    name="spacetable",
    help=(
        "Tabletop space-combat games on a computer: play Light Speed and Stellar Conflict "
        "in the browser, and referee their tables, and Faster Than Light turns, exactly."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Help paragraphs are reflowed to the terminal (docstrings wrap at 88 columns).
    rich_markup_mode="markdown",
)

#: Largest request line plus headers the server reads (bytes), as most servers allow.
MAX_REQUEST_HEAD_BYTES = 16 * 1024

TableArg = Annotated[
    Path,
    typer.Argument(
        help="A table file (Light Speed, Stellar Conflict), an FTL turn file or a hex fleet "
        "combat script: JSON, see docs/formats.md.",
        show_default=False,
    ),
]
TimeLimitOption = Annotated[
    float,
    typer.Option(
        help="Seconds to spend at most on the table; a table that takes longer is refused."
    ),
]


def _fail(message: str) -> NoReturn:
    """Report a user error on stderr and exit with status 2."""
    print(f"spacetable: error: {message}", file=sys.stderr)
    raise typer.Exit(2)


def _settle(path: Path, seconds: float, resolve: bool) -> tuple[Referee, Any, Any]:
    """Read the file, find its game by its ``ruleset``, check it and (if asked) resolve
    it in a worker process stopped after ``seconds`` (:mod:`spacetable._time_limit`, as
    the server does): ``(referee, file, resolution or None)``. Fails with status 2."""
    try:
        data = parse_json(read_limited(path, MAX_FILE_BYTES))
        _, referee = referee_for(data)
    except (InputError, UnknownGame) as exc:
        _fail(f"{path}: {exc}")
    if seconds <= 0:
        _fail("--time-limit must be positive")
    try:
        settled, resolution = run_within(seconds, _read_and_resolve, data, resolve)
    except referee.error as exc:
        _fail(f"{path}: {exc}")
    except OutOfTime as exc:
        _fail(f"{path}: resolving it {exc}, refused")
    except OutOfMemory as exc:
        _fail(f"{path}: resolving it failed: {exc}")
    return referee, settled, resolution


def _read_and_resolve(data: Any, resolve: bool) -> tuple[Any, Any]:
    """In a worker: the file checked by its game, and its resolution if asked (or None)."""
    _, referee = referee_for(data)
    settled = referee.read(data)
    return settled, referee.resolve(settled) if resolve else None


@app.command()
def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0: the whole network).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Storage URL (default: SQLite in your data folder; postgresql://... works)."
        ),
    ] = None,
    resolve_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds the referee (/referee, POST /api/resolve) spends at most on an "
            "uploaded table."
        ),
    ] = RESOLVE_BUDGET_S,
    stop_seconds: Annotated[
        float, typer.Option(help="Seconds to drop or discard the card in hand after 'stop!'.")
    ] = 5.0,
    abandon_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds a seat waits for its player to come back: then a bot takes it "
            "over in a match, and it is freed in the lobby."
        ),
    ] = 30.0,
    room_idle_seconds: Annotated[
        float,
        typer.Option(help="Seconds a room with nobody connected stays open, unless a match is on."),
    ] = 600.0,
    bot_pace: Annotated[
        float, typer.Option(help="Multiplies the bots' pauses between cards (0.5: twice as fast).")
    ] = 1.0,
    countdown_seconds: Annotated[
        float | None,
        typer.Option(
            help="Stellar Conflict: seconds of the deployment countdown instead of the "
            "battle size's 30 / 60 / 120 (stored with each match)."
        ),
    ] = None,
    runup_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds of the 3-2-1 before every placing round (Light Speed's fast "
            "round, Stellar Conflict's deployment); 0: none."
        ),
    ] = 3.0,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="An address (https://host[:port]) whose pages may open room websockets "
            "besides this server's own, for a deployment behind another host name; "
            "repeat for several."
        ),
    ] = None,
    message_rate: Annotated[
        float | None,
        typer.Option(
            help="Messages a second each room websocket may send, poses included (default "
            "60; other messages a twelfth of it); 0 lifts the limit."
        ),
    ] = None,
    room_seed: Annotated[
        int | None,
        typer.Option(
            help="For tests and reproducible demos: the first room's matches draw their "
            "chance from this seed, the next room's from the seed plus 1, and so on "
            "(default: a fresh seed for every match).",
            min=0,
        ),
    ] = None,
) -> None:
    """Run the browser game: lobby, real-time matches with friends and bots, replays."""
    import uvicorn

    from spacetable.server._ws_protocol import GameWebSocketProtocol, SocketPolicy
    from spacetable.server.app import create_app
    from spacetable.server.rooms import Timing
    from spacetable.server.storage import Storage

    countdown = 1.0 if countdown_seconds is None else countdown_seconds
    if min(stop_seconds, abandon_seconds, room_idle_seconds, bot_pace, countdown) <= 0:
        _fail(
            "--stop-seconds, --abandon-seconds, --room-idle-seconds, --bot-pace and "
            "--countdown-seconds must be positive"
        )
    if runup_seconds < 0:
        _fail("--runup-seconds must be 0 or more")
    try:
        sockets = SocketPolicy.from_options(allow_origin or (), message_rate)
    except ValueError as exc:
        _fail(str(exc))
    timing = Timing(
        stop_seconds=stop_seconds,
        abandon_seconds=abandon_seconds,
        room_idle_seconds=room_idle_seconds,
        bot_pace=bot_pace,
        countdown_seconds=countdown_seconds,
        runup_seconds=runup_seconds,
    )

    if resolve_seconds <= 0:
        _fail("--resolve-seconds must be positive")
    try:
        storage = Storage(db)
    except Exception as exc:  # any driver error: report it in one line
        _fail(f"cannot open the database {db or '(default)'}: {exc}")
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    print(f"spacetable is running: open http://{shown}:{port}/  (storage: {storage.url})")
    print("press Ctrl+C to stop", flush=True)
    # Game messages are small JSON objects sent many times a second: compressing each one
    # (permessage-deflate) cost the server more CPU than anything else under load.
    uvicorn.run(
        create_app(storage, timing, sockets, referee_seconds=resolve_seconds, room_seed=room_seed),
        host=host,
        port=port,
        log_level="warning",
        ws_ping_interval=20,
        ws_per_message_deflate=False,
        ws=GameWebSocketProtocol,
        # h11 bounds a request's head (line and headers): httptools buffers any size, so
        # one request with a 100 MB header was read whole. Only HTTP requests and
        # websocket handshakes go through it; the room sockets' frames do not.
        http="h11",
        h11_max_incomplete_event_size=MAX_REQUEST_HEAD_BYTES,
    )


@app.command()
def resolve(
    table: TableArg,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the result as one JSON object.")
    ] = False,
    time_limit: TimeLimitOption = RESOLVE_BUDGET_S,
) -> None:
    """Resolve a table's laser battle, an FTL turn or a hex fleet combat script, and tell
    it step by step (or as JSON)."""
    referee, settled, resolution = _settle(table, time_limit, resolve=True)
    if as_json:
        print(json.dumps(referee.result_json(resolution), indent=2))
    else:
        print("\n".join(referee.account(settled, resolution)))


@app.command()
def render(
    table: TableArg,
    output: Annotated[Path, typer.Option("-o", "--output", help="SVG file to write.")],
    battle: Annotated[
        bool,
        typer.Option(
            "--battle",
            help="Draw what happens on it: every laser of a table's battle (an FTL turn is "
            "always drawn resolved).",
        ),
    ] = False,
    time_limit: TimeLimitOption = RESOLVE_BUDGET_S,
) -> None:
    """Draw a table as SVG, optionally with every laser of its battle; an FTL turn with
    its tapes, contacts and removals; or a hex fleet combat script with its cards."""
    referee, settled, resolution = _settle(table, time_limit, resolve=True)
    svg = referee.svg(settled, resolution if battle or referee.draws_resolution else None)
    try:
        output.write_text(svg, encoding="utf-8")
    except OSError as exc:
        _fail(f"cannot write {output}: {exc.strerror}")
    print(f"wrote {output}")


@app.command()
def cards(
    ruleset: Annotated[
        str | None,
        typer.Option(
            help="Which game's catalog to show: lightspeed or stellar "
            "(default: lightspeed, or stellar with --race)."
        ),
    ] = None,
    race: Annotated[
        str | None,
        typer.Option(help="Stellar Conflict: show one race only (wiss, vak, hexai, tetrakori)."),
    ] = None,
    svg: Annotated[
        Path | None, typer.Option(help="Also write one SVG card face per ship into this folder.")
    ] = None,
) -> None:
    """List the ships of a catalog.

    Light Speed's fleet (speed, health, lasers, shields), or each Stellar Conflict race's
    ships (role, credits, VP, initiatives, lasers by kind, shields)."""
    ruleset = ruleset or ("stellar" if race is not None else "lightspeed")
    with_cards = [g for g in games() if g.cards is not None]
    entry = next((g for g in with_cards if ruleset in g.rulesets), None)
    if entry is None or entry.cards is None:
        known = " or ".join(r for g in with_cards for r in g.rulesets)
        _fail(f"unknown ruleset {ruleset!r} (choose {known})")
    try:
        ships, text = entry.card_list(race)
    except ValueError as exc:
        _fail(str(exc))
    if not ships:
        _fail(f"no {ruleset} ships are installed yet")
    print(text)
    if svg is not None:
        from spacetable.render.svg import card_svg

        try:
            svg.mkdir(parents=True, exist_ok=True)
            for ship in ships.values():
                (svg / f"{ship.key}.svg").write_text(card_svg(ship), encoding="utf-8")
        except OSError as exc:
            _fail(f"cannot write card faces to {svg}: {exc.strerror}")
        print(f"wrote {len(ships)} card faces to {svg}/")


@app.command()
def bench(
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the measurements as one JSON object.")
    ] = False,
    seconds: Annotated[
        float, typer.Option(help="Roughly how long to measure each resolver, in seconds.")
    ] = 2.0,
) -> None:
    """Measure how many tables per second the resolvers handle (reference, fast, batch)."""
    from spacetable.lab.bench import run_bench

    if not as_json:
        print("measuring (compiling the fast path first)...", file=sys.stderr)
    result = run_bench(seconds=seconds)
    if as_json:
        print(json.dumps(result, indent=2))
        return
    for key, value in result.items():
        shown = f"{value:,.1f}" if isinstance(value, float) else str(value)
        print(f"{key:28} {shown}")


@app.command()
def loadtest(
    rooms: Annotated[
        int | None,
        typer.Option(help="Rooms of four clients to run (default: find the most that pass)."),
    ] = None,
    seconds: Annotated[float, typer.Option(help="Seconds measured per run.")] = 15.0,
    warmup: Annotated[float, typer.Option(help="Seconds of load before measuring.")] = 3.0,
    start: Annotated[int, typer.Option(help="Rooms in the first run of the search.")] = 50,
    step: Annotated[int, typer.Option(help="Rooms added per run of the search.")] = 50,
    limit: Annotated[int, typer.Option(help="Most rooms the search tries.")] = 400,
    threshold_ms: Annotated[float, typer.Option(help="p99 latency budget, in ms.")] = 50.0,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as one JSON object.")
    ] = False,
) -> None:
    """Measure how many rooms one server core holds (load benchmark).

    Starts a real `spacetable serve` pinned to one core and rooms of four websocket clients
    that stream hand poses at 20 Hz and place cards; reports messages/s and the p50/p99
    latency of poses and placements. Without --rooms, adds rooms until a run misses
    p99 < 50 ms."""
    from spacetable.lab.loadtest import LoadSettings, find_max, run_loadtest, summary_line

    if min(seconds, start, step, limit, threshold_ms) <= 0 or warmup < 0:
        _fail("--seconds, --start, --step, --limit and --threshold-ms must be > 0")
    if rooms is not None and rooms < 1:
        _fail("--rooms must be at least 1")
    base = LoadSettings(
        rooms=rooms or start, seconds=seconds, warmup=warmup, threshold_ms=threshold_ms
    )

    def progress(report: dict[str, object]) -> None:
        print(summary_line(report), file=sys.stderr)

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


@app.command()
def races(
    size: Annotated[
        str, typer.Option(help="Battle size: dispute (10 credits), conflict (15), war (20) or all.")
    ] = "all",
    games: Annotated[
        int,
        typer.Option(
            help="Matches per pair of races in each seat order (each pair plays twice as many)."
        ),
    ] = 100,
    level: Annotated[
        str, typer.Option(help="Bot level on both sides: random, easy, medium or hard.")
    ] = "easy",
    seed: Annotated[int, typer.Option(help="Seed of the first match; match i uses seed + i.")] = 0,
    pace: Annotated[float, typer.Option(help="Seconds each bot takes per card it deploys.")] = 6.0,
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
) -> None:
    """Measure how fair the Stellar Conflict races are (bot study).

    Bots of one level play every pair of races head to head at each battle size (two
    players, seats alternating, seeded; the normal game under the timer unless told) and
    print each race's win rate against each other race and overall, with a 95% Wilson
    interval, as markdown tables or JSON. Progress goes to stderr; the default run takes a
    few minutes. See docs/stellar.md."""
    from spacetable.bots.lasers import LEVELS, warm_up
    from spacetable.bots.lasers.arena import PairRecord, StudySetup
    from spacetable.core.match import InvalidOptions
    from spacetable.core.stats import wilson
    from spacetable.games.stellar import BATTLE_SIZES, BattleSize
    from spacetable.lab.races import run_study

    sizes = list(BATTLE_SIZES) if size == "all" else [s for s in BATTLE_SIZES if s == size]
    if not sizes:
        _fail(f"unknown battle size {size!r} (choose {', '.join(BATTLE_SIZES)} or all)")
    if level not in LEVELS:
        _fail(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})")
    if games < 1 or pace <= 0:
        _fail("--games must be at least 1 and --pace positive")
    if deployment not in ("timer", "stop"):
        _fail(f"unknown deployment {deployment!r} (choose timer or stop)")
    setup = StudySetup("stop" if deployment == "stop" else "timer", asteroids, stolen_goods)
    try:
        setup.options(("wiss", "vak"), sizes[0])
    except InvalidOptions as exc:
        _fail(str(exc))
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

    study = run_study(sizes, games, seed, level, pace, progress, setup)
    if as_json:
        print(json.dumps(study.to_json(), indent=2))
    else:
        print(study.to_markdown())
        print(f"\nReproduce: {study.command()}")


@app.command()
def duels(
    bot: Annotated[str, typer.Option(help="The bot measured: one of the game's bot levels.")],
    against: Annotated[str, typer.Option(help="Its opponent, one of the same levels.")],
    game_key: Annotated[
        str, typer.Option("--game", help="The game: ftl, lightspeed, stellar or hexfleet.")
    ] = "ftl",
    count: Annotated[int, typer.Option("--duels", help="Duels to play, seats alternating.")] = 400,
    seed: Annotated[int, typer.Option(help="Seed of the first duel; duel i uses seed + i.")] = 0,
    turns: Annotated[
        int | None,
        typer.Option(
            help="Games played in turns: the turn limit (default: the game's, FTL 60, "
            "hex fleet 20)."
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            help="One of the game's duel options as key=value, e.g. scenario=fleet (hex "
            "fleet: duel, skirmish or fleet); repeat for more.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Measure one bot against another over seeded duels, in any game with bots.

    Prints wins, draws and losses, the win rate and the score (a draw counts half) with
    95% Wilson intervals, and how long each bot thinks per decision (one core). Progress
    goes to stderr."""
    from spacetable.core.duels import DuelResult, study

    try:
        entry = game(game_key)
        if entry.bots is None:
            raise ValueError(f"{entry.title} has no bots")
        duel = entry.duel_function()
        a, b = entry.bots.bot(bot), entry.bots.bot(against)
    except (UnknownGame, ValueError) as exc:
        _fail(str(exc))
    if count < 1 or (turns is not None and turns < 1):
        _fail("--duels and --turns must be at least 1")
    options: dict[str, str] = {}
    for entry_text in option or []:
        key, equals, value = entry_text.partition("=")
        if not equals or not key.strip():
            _fail(f"--option {entry_text!r}: write it as key=value")
        options[key.strip()] = value.strip()

    def progress(k: int, result: DuelResult) -> None:
        outcome = {"a": "won", "b": "lost", None: "drew"}[result.winner]
        print(f"[{k + 1}/{count}] {bot} {outcome} ({result.turns} turns)", file=sys.stderr)

    try:
        found = study(
            duel, a, b, count, seed=seed, turn_limit=turns, progress=progress,
            clock=time.perf_counter, options=options,
        ).summary()  # fmt: skip
    except TypeError as exc:  # an option this game's duels do not take
        _fail(f"--option: {entry.title} duels take no such option ({exc})")
    except ValueError as exc:  # InvalidOptions: a value the game refuses
        _fail(f"--option: {exc}")
    if as_json:
        print(json.dumps({"game": entry.key, "bot": bot, "against": against, "seed": seed,
                          **found}, indent=2))  # fmt: skip
        return
    print(
        f"{entry.title}: {bot} against {against}, {count} duels (seeds {seed}..{seed + count - 1}):"
    )
    print(f"  won {found['wins']}, drew {found['draws']}, lost {found['losses']}")
    for key, label in (("win_rate", "win rate"), ("score", "score (draw = half)")):
        low, high = found[f"{key}_95"]
        print(f"  {label}: {found[key]:.1%} (95% interval {low:.1%}-{high:.1%})")
    unit = "cards placed" if entry.pacing == "realtime" else "turns"
    print(f"  mean length: {found['mean_turns']:.1f} {unit}")
    for side, level in (("bot", bot), ("against", against)):
        timing = found["decision_seconds"][side]
        print(
            f"  {level} thinks {timing['mean']:.3f} s a decision on average, p99 "
            f"{timing['p99']:.3f} s, longest {timing['max']:.3f} s "
            f"({timing['decisions']} decisions)"
        )


@app.command()
def replay(
    source: Annotated[
        str,
        typer.Argument(
            help="A stored match: a JSON file as GET /api/matches/{id} returns it, or a "
            "match id in the database (--db)."
        ),
    ],
    db: Annotated[
        str | None,
        typer.Option(help="Storage URL to find a match id in (default: serve's SQLite)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the outcome as one JSON object.")
    ] = False,
    log: Annotated[bool, typer.Option("--log", help="Print the match's log in words.")] = False,
) -> None:
    """Replay a stored match from its seed and action log and check that it reaches the
    result stored (exit 1 if not)."""
    path = Path(source)
    try:
        if path.is_file():
            data = json.loads(path.read_text(encoding="utf-8"))
        else:
            from spacetable.server.storage import Storage

            storage = Storage(db)
            try:
                found = storage.get(source)
            finally:
                storage.close()
            if found is None:
                _fail(f"{source}: no such file, and no stored match with that id")
            data = found.to_json()
        replayed = replay_record(data)
    except (OSError, json.JSONDecodeError, ValueError) as exc:
        _fail(f"{source}: {exc}")
    if as_json:
        print(json.dumps(replayed.to_json(), indent=2))
    else:
        print(f"{replayed.title}: {', '.join(replayed.players)}; {replayed.actions} actions")
        if log:
            print("\n".join(replayed.log))
        print(f"result: {json.dumps(replayed.result)}")
        print("replays exactly" if replayed.exact else f"stored: {json.dumps(replayed.stored)}")
    if not replayed.exact:
        raise typer.Exit(1)


def _game_command(function: Callable[..., str]) -> Callable[..., None]:
    """A game's command (:attr:`~spacetable.core.registry.Game.commands`) as ``spacetable``
    runs it: the game's function returns the text to print, or raises ``ValueError``
    naming the bad option (one line on stderr, exit status 2)."""

    @functools.wraps(function)
    def command(*args: Any, **kwargs: Any) -> None:
        try:
            text = function(*args, **kwargs)
        except ValueError as exc:
            _fail(str(exc))
        print(text)

    return command


for _game in games():
    for _name, _function in _game.command_functions():
        app.command(_name)(_game_command(_function))


def main() -> None:
    """Entry point of the ``spacetable`` console script."""
    app()


if __name__ == "__main__":
    main()
