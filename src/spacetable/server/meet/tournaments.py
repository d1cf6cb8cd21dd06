"""Swiss tournaments' rules of play (issue 71; docs/tournaments.md): what a tournament's
body may say, how its next round is paired (``meet/swiss.py``), how a result is recorded
and the next round follows, and how an online round's tables become rooms.

A round is paired when its last table has its result (whoever recorded it: a room's end,
a report confirmed over the board, the director), or by the director's hand; after the
last round the tournament is finished. Every step goes through ``store/tournaments.py``'s
conditional statements: two processes finishing the same round's last two tables at once
pair the next round once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any

from spacetable.i18n.phrase import refusal
from spacetable.server.meet import swiss
from spacetable.server.meet.hub import Player, PlayerHub
from spacetable.server.meet.notices import Notices, TellingHub
from spacetable.server.meet.seating import SeatingServices, open_seated_room, seated_options
from spacetable.server.protocol.lobby_messages import Paired
from spacetable.server.store.ratings import ranks
from spacetable.server.store.tournaments import (
    Table,
    Tournament,
    TournamentPlayer,
    TournamentStore,
    Unfinished,
    new_id,
)

__all__ = [
    "TournamentRefused",
    "advance",
    "pair_next",
    "pairer",
    "photo_links",
    "sweep",
    "tournament_body",
    "view",
]

_log = logging.getLogger(__name__)

#: The most rounds a tournament may have.
MOST_ROUNDS = 30
_VENUES = ("online", "board")


class TournamentRefused(ValueError):
    """A request refused: ``args[0]`` says why (a catalog phrase), ``status`` the code."""

    def __init__(self, why: str, status: int = 400) -> None:
        super().__init__(why)
        self.status = status


def tournament_body(body: dict[str, Any], director: Player, now: float) -> Tournament:
    """The tournament a ``POST /api/tournaments`` body asks for, directed by ``director``.
    Raises :class:`TournamentRefused` naming the first bad field (422: a game or option
    the rooms refuse)."""
    name = body.get("name")
    if not isinstance(name, str) or not 0 < len(name.strip()) <= 80:
        raise TournamentRefused(refusal("name: must be a text of 1 to 80 characters"))
    seats = body.get("seats", 2)
    if type(seats) is not int or not 2 <= seats <= 4:
        raise TournamentRefused(refusal("seats: must be 2, 3 or 4"))
    rounds = body.get("rounds")
    if type(rounds) is not int or not 1 <= rounds <= MOST_ROUNDS:
        raise TournamentRefused(
            refusal("rounds: must be a whole number from 1 to {most}", most=MOST_ROUNDS)
        )
    turn_hours = body.get("turn_hours")
    if turn_hours is not None and (
        type(turn_hours) not in (int, float) or not 0 < turn_hours <= 24 * 14
    ):
        raise TournamentRefused(refusal("turn_hours: must be a number of hours, or null"))
    rated = body.get("rated", False)
    if type(rated) is not bool:
        raise TournamentRefused(refusal("rated: must be true or false"))
    venue = body.get("venue", "online")
    if venue not in _VENUES:
        raise TournamentRefused(refusal("venue: must be online or board"))
    starts_at = body.get("starts_at", now)
    if type(starts_at) not in (int, float):
        raise TournamentRefused(refusal("starts_at: must be a time in seconds"))
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise TournamentRefused(refusal("options: must be an object"))
    game = body.get("game")
    try:
        seated_options(str(game), options, seats, turn_hours)
    except ValueError as exc:
        raise TournamentRefused(str(exc), 422) from None
    return Tournament(
        new_id(),
        name.strip(),
        str(game),
        options,
        seats,
        rounds,
        None if turn_hours is None else float(turn_hours),
        rated,
        float(starts_at),
        venue,
        director.key,
        director.name,
    )


def _entrants(players: list[TournamentPlayer]) -> list[swiss.Entrant]:
    return [swiss.Entrant(p.number, p.name, p.withdrawn, p.rating) for p in players]


def _games(tables: list[Table]) -> list[swiss.Game]:
    return [swiss.Game(t.round, t.table, t.seats, t.places, t.source) for t in tables]


def pairer(
    tournament: Tournament, players: list[TournamentPlayer], tables: list[Table]
) -> list[tuple[tuple[int, ...], tuple[int, ...] | None, str]]:
    """The next round's tables (``store/tournaments.py``'s ``Pairer``): the FIDE Dutch
    system for two seats, score groups (``swiss.group_tables``) for more; the odd ones
    out get a bye (never a second one, while another can take it)."""
    games = _games(tables)
    entrants = _entrants(players)
    if tournament.seats == 2:
        try:
            pairs, bye = swiss.dutch_pairs(tournament.name, tournament.rounds, entrants, games)
        except Exception as exc:  # py4swiss: no pairing satisfies the absolute criteria
            raise TournamentRefused(
                refusal("no pairing of this round exists (every pair left has met)"), 409
            ) from exc
        if not pairs and sum(1 for e in entrants if not e.withdrawn) > 1:
            raise TournamentRefused(
                refusal("no pairing of this round exists (every pair left has met)"), 409
            )
        drafts: list[tuple[tuple[int, ...], tuple[int, ...] | None, str]] = [
            (pair, None, "played") for pair in pairs
        ]
        if bye is not None:
            drafts.append(((bye,), None, swiss.BYE))
        return drafts
    order = [s.number for s in swiss.standings(entrants, games) if not s.withdrawn]
    had_bye = {g.seats[0] for g in games if g.source == swiss.BYE}
    _, left_over = swiss.table_sizes(len(order), tournament.seats)
    byes: list[int] = []
    for number in [n for n in reversed(order) if n not in had_bye] + list(reversed(order)):
        if len(byes) == left_over:
            break
        if number not in byes:
            byes.append(number)
    met: dict[frozenset[int], int] = {}
    for game in games:
        for i, a in enumerate(game.seats):
            for b in game.seats[i + 1 :]:
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
    seated = [n for n in order if n not in byes]
    drafts = [(tuple(t), None, "played") for t in swiss.group_tables(seated, tournament.seats, met)]
    drafts += [((n,), None, swiss.BYE) for n in byes]
    return drafts


def result_name(places: tuple[int, ...] | None) -> str | None:
    """A table's result as shown: two seats ``1-0``, ``0-1``, ``1/2-1/2``; more, each
    seat's place (``2,1,3``); ``None`` while unplayed."""
    if places is None:
        return None
    if len(places) == 2:
        got = swiss.points(places)
        return "-".join("1/2" if p == 0.5 else str(int(p)) for p in got)
    return ",".join(str(p) for p in places)


def places_of(result: object, seats: int) -> tuple[int, ...]:
    """The places a result names (``1-0``, ``0-1``, ``1/2-1/2``, or a list of places);
    raises :class:`TournamentRefused` if it names none for ``seats`` seats."""
    named = {"1-0": (1, 2), "0-1": (2, 1), "1/2-1/2": (1, 1)}
    if isinstance(result, str) and seats == 2 and result in named:
        return named[result]
    if (
        isinstance(result, list)
        and len(result) == seats
        and all(type(p) is int and 1 <= p <= seats for p in result)
        and 1 in result
    ):
        return tuple(result)
    raise TournamentRefused(
        refusal("result: must be 1-0, 0-1, 1/2-1/2 or a list of {seats} places", seats=seats)
    )


def photo_links(tournament_id: str, round_: int, table: int, version: str) -> dict[str, str]:
    """Where an over-the-board table's kept photo and its battle are read
    (``http/tournament_photo.py``); ``version`` names the photo (a new one, a new name:
    what a browser kept of the last one is not shown for it)."""
    base = f"/api/tournaments/{tournament_id}/tables/{round_}/{table}"
    return {"photo": f"{base}/photo?v={version}", "battle": f"{base}/battle?v={version}"}


def _photo_view(tournament_id: str, table: Table) -> dict[str, Any]:
    """A report's photo, battle and close calls as the page shows them (none: ``None``)."""
    report = table.report or {}
    if "photo" not in report:
        return {"photo": None, "battle": None, "close_calls": None}
    calls = (report.get("battle") or {}).get("close_calls") or []
    links = photo_links(tournament_id, table.round, table.table, str(report.get("photo_id")))
    return {**links, "close_calls": len(calls)}


def _result(table: Table) -> str | None:
    """A table's result as shown (``0-0`` when nobody came; a bye's: ``None``)."""
    if table.source in (swiss.BYE, swiss.LATE):
        return None
    if table.source == swiss.ABSENT:
        return "-".join("0" for _ in table.seats)
    return result_name(table.places)


def _points(table: Table) -> list[float] | None:
    """Each seat's points at ``table`` (``None`` while unplayed)."""
    got = swiss.Game(table.round, table.table, table.seats, table.places, table.source).points()
    return [got[n] for n in table.seats] if got else None


def view(
    tournament: Tournament, players: list[TournamentPlayer], tables: list[Table]
) -> dict[str, Any]:
    """The tournament as ``GET /api/tournaments/{id}`` shows it."""
    names = {p.number: p.name for p in players}
    ratings = {p.number: p.rating for p in players}
    lines = swiss.standings(_entrants(players), _games(tables))
    return {
        **tournament.summary(),
        "players": [line.view() | {"rating": ratings[line.number]} for line in lines],
        "pairings": [
            {
                "round": t.round,
                "table": t.table,
                "seats": [names[n] for n in t.seats],
                "room": t.room,
                "result": _result(t),
                "source": t.source,
                "bye": t.source in ("bye", "late"),
                "points": _points(t),
                "report": None
                if t.report is None
                else {
                    "by": t.report.get("by"),
                    "result": result_name(tuple(t.report.get("places") or ()) or None),
                    "photo_match": t.report.get("photo_match"),
                    "disputed_by": t.report.get("disputed_by"),
                    **_photo_view(tournament.id, t),
                },
            }
            for t in tables
        ],
    }


async def pair_next(
    store: TournamentStore,
    tournament: Tournament,
    services: SeatingServices | None = None,
    hub: PlayerHub | None = None,
) -> list[Table] | None:
    """Pair the round after ``tournament.round`` (``None``: another call did). Raises
    :class:`TournamentRefused` while the last round's games are unfinished (409). An
    online tournament's tables become rooms (``services``) and their players are sent
    ``paired`` (``hub``)."""
    try:
        made = await asyncio.to_thread(store.pair, tournament.id, tournament.round, pairer)
    except Unfinished:
        raise TournamentRefused(
            refusal("round {round} has unfinished games", round=tournament.round), 409
        ) from None
    if made and services is not None and tournament.venue == "online":
        made = await _open_rooms(store, tournament, made, services, hub)
    if made and isinstance(hub, TellingHub) and hub.notices is not None:
        await _tell_paired(store, tournament, made, hub.notices)
    return made


async def _tell_paired(
    store: TournamentStore, tournament: Tournament, tables: list[Table], notices: Notices
) -> None:
    """Tell each player of a round just paired his table (its room online, its page over
    the board) or his bye: a ``tournament_round`` notification (``meet/notices.py``)."""
    players = {p.number: p for p in await asyncio.to_thread(store.players, tournament.id)}
    page = f"/tournaments/{tournament.id}"
    for table in tables:
        bye = len(table.seats) < 2
        if bye:
            url = page
        elif table.room is not None:
            url = f"/rooms/{table.room}"
        else:
            url = f"{page}/tables/{table.round}/{table.table}"
        params = {
            "tournament": tournament.name,
            "id": tournament.id,
            "round": table.round,
            "table": table.table,
            "bye": bye,
        }
        for number in table.seats:
            notices.tell(players[number].key, "tournament_round", params, url, f"t-{page}")


async def _open_rooms(
    store: TournamentStore,
    tournament: Tournament,
    tables: list[Table],
    services: SeatingServices,
    hub: PlayerHub | None,
) -> list[Table]:
    """Open a room for each table of a round, its seats reserved for its players; the
    tables with their rooms."""
    players = {p.number: p for p in await asyncio.to_thread(store.players, tournament.id)}
    out = []
    for table in tables:
        out.append(table)
        if len(table.seats) < 2:
            continue
        seated = [Player(players[n].key, players[n].name, players[n].key) for n in table.seats]
        try:
            room = await open_seated_room(
                services,
                tournament.game,
                tournament.options,
                seated,
                rated=tournament.rated,
                turn_hours=tournament.turn_hours,
            )
        except Exception:  # a full server: the director records the table by hand
            _log.exception("tournament %s: no room for table %s", tournament.id, table.table)
            continue
        await asyncio.to_thread(store.set_room, tournament.id, table.round, table.table, room)
        out[-1] = dataclasses.replace(table, room=room)
        if hub is not None:
            for player in seated:
                await hub.send(player.key, Paired(room, tournament.game))
    return out


async def advance(
    store: TournamentStore,
    tournament_id: str,
    services: SeatingServices | None = None,
    hub: PlayerHub | None = None,
) -> None:
    """After a result: when every table of the current round has its result, pair the
    next round, or finish the tournament after its last."""
    tournament = await asyncio.to_thread(store.get, tournament_id)
    if tournament is None or tournament.status != "running":
        return
    tables = await asyncio.to_thread(store.tables, tournament_id)
    current = [t for t in tables if t.round == tournament.round]
    if any(t.places is None and t.source not in ("bye", "late") for t in current):
        return
    if tournament.round >= tournament.rounds:
        await asyncio.to_thread(store.set_status, tournament_id, "running", "finished")
        return
    try:
        await pair_next(store, tournament, services, hub)
    except TournamentRefused:  # no pairing exists: the director decides (pair, results)
        _log.warning("tournament %s: round %s not paired", tournament_id, tournament.round + 1)


#: The endings that are a forfeit: the loser did not come, or went away.
_FORFEITS = ("claimed",)


async def _no_show(
    store: TournamentStore, services: SeatingServices, tournament_id: str, table: Table
) -> bool:
    """A table whose room (held by this process) is still before its match while a seat
    was given up: its player did not come within the room's absence rules (his seat's
    abandon timer ran out: ``rooms/lobby.py``'s ``give_seats``), or left. The players
    who came win by forfeit, those who did not share the last place; nobody came: each
    loses by forfeit (:data:`swiss.ABSENT`: no points). Whether this call recorded it."""
    room = services.directory.get(table.room or "")
    if room is None or room.phase != "lobby" or len(room.seats) != len(table.seats):
        return False
    keys = {p.number: p.key for p in await asyncio.to_thread(store.players, tournament_id)}
    came = [
        seat.kind == "human" and seat.account == keys.get(number)
        for seat, number in zip(room.seats, table.seats, strict=True)
    ]
    if all(came):
        return False
    places = tuple(1 if here else sum(came) + 1 for here in came)
    source = "forfeit" if any(came) else swiss.ABSENT
    return await asyncio.to_thread(
        store.record, tournament_id, table.round, table.table, places, source
    )


async def sweep(
    store: TournamentStore | None,
    services: SeatingServices | None = None,
    hub: PlayerHub | None = None,
) -> None:
    """Record the results of the online tables whose rooms' matches finished (read from
    the stored matches: whichever process held the room, and after a restart), each
    place by ``store/ratings.py``'s ``ranks``, a match won by a claim of absence as a
    forfeit; then pair the next rounds due. Run by the pairing pool's rounds of every
    process; each record and pairing is conditional, so once."""
    if store is None:
        return
    waiting = await asyncio.to_thread(store.open_rooms)
    if not waiting:
        return
    rooms = [table.room for _, table in waiting if table.room is not None]
    finished = await asyncio.to_thread(store.finished_matches, rooms)
    touched: set[str] = set()
    for tournament_id, table in waiting:
        if table.room not in finished:
            if services is not None and await _no_show(store, services, tournament_id, table):
                touched.add(tournament_id)
            continue
        players, result = finished[table.room]
        placed = ranks(players, result)
        places = tuple(placed.get(p, len(players)) for p in players)
        source = "forfeit" if result.get("ending") in _FORFEITS else "played"
        done = await asyncio.to_thread(
            store.record, tournament_id, table.round, table.table, places, source
        )
        if done:
            touched.add(tournament_id)
    for tournament_id in touched:
        await advance(store, tournament_id, services, hub)
