"""Ratings (issue 37 item 3): one openskill rating per game and account (Weng-Lin,
Plackett-Luce: a match of three or four ranks every seat), updated once when a match
between at least two accounts is stored, however it ended (its rules, a turn limit, a
resignation, an agreed draw, a claimed absence). Seats held by bots or guests are not
rated; they still rank the accounts' seats among them (only the accounts' order is rated).

What is shown is one number, the rating's ordinal (``mu - 3 sigma``), "provisional" for an
account's first :data:`PROVISIONAL` matches of a game. Each stored match with an account's
seat is noted in ``account_matches`` (a profile's latest matches): that note is what makes
the update happen once, whatever the number of saves of the match.

Not every match between accounts is rated (issue 67 item 7: a player beat his own second
account by resignation 9 times in a minute). A match stopped outside its rules (resigned, a
draw agreed, a win claimed over an absent player, a timeout) before its first turn or
round was over is not rated: each game's registration says when that is
(:attr:`spacetable.registry.Game.opening_over`). Nor is a match of two accounts that
already played :data:`REPEATS_RATED` matches of the game together (past their first turn
or round) in the :data:`REPEAT_WINDOW` before it (openskill weighs no match less than
another, so a repeat counts fully or not at all). Both are derived from what is stored:
the match's own log, ``account_matches`` and the matches it names. docs/accounts.md tells
players.

The update runs in the match's own save transaction (:attr:`Storage.on_save`): a match is
never stored without its ratings, nor rated twice. Under PostgreSQL two processes may store
two matches of one account at once: the accounts' rows are locked first, in the order of
their ids (no deadlock), so that the second reads the ratings the first wrote (issue 67
item 11; SQLite runs one write at a time). Tables: migration ``0003_ratings``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import JSON, Float, ForeignKey, Integer, String, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, aliased, mapped_column

from spacetable.core.endings import STOPPED
from spacetable.registry import UnknownGame, game_for_ruleset
from spacetable.server.store.accounts import Account, AccountStore, name_key
from spacetable.server.store.bots import BOT_ACCOUNTS, BotBook
from spacetable.server.store.storage import Storage, StoredMatch, reaching

#: Matches of a game during which a rating is shown as provisional.
PROVISIONAL = 5
#: The latest matches a profile lists.
PROFILE_MATCHES = 20
#: The most players a leaderboard lists.
LEADERBOARD_LIMIT = 100
#: The model every rating is updated with (openskill's defaults: mu 25, sigma 25/3).
MODEL = PlackettLuce()
#: The matches of a game two accounts play together within :data:`REPEAT_WINDOW` that are
#: rated: from the next one on, their matches are not, until the oldest is that old.
REPEATS_RATED = 3
#: The time (seconds) over which :data:`REPEATS_RATED` counts the matches played together.
REPEAT_WINDOW = 24 * 3600.0


class _Base(DeclarativeBase):
    pass


class _RatingRow(_Base):
    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    draws: Mapped[int] = mapped_column(Integer)
    losses: Mapped[int] = mapped_column(Integer)


class _PlayedRow(_Base):
    __tablename__ = "account_matches"

    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id"), primary_key=True)
    match_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    finished_at: Mapped[float] = mapped_column(Float)


class _MatchRef(_Base):
    """The stored matches' logs (read only: ``storage.py`` owns the table)."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(32))
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    actions: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)


class _AccountRef(_Base):
    """The accounts' ids, keys and names (read only: ``accounts.py`` owns the table)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(80))
    name: Mapped[str] = mapped_column(String(80))


def game_key(ruleset: str) -> str:
    """The key of the game that plays ``ruleset`` (the ruleset itself for a game this
    server no longer has)."""
    try:
        return game_for_ruleset(ruleset).rules.key
    except UnknownGame:
        return ruleset


def ranks(players: Sequence[str], result: Mapping[str, Any]) -> dict[str, int]:
    """Each player's place in a finished match (1: first; tied players share a place).

    The winner is first; the others follow by the result's score (the laser games'
    ``scores``; FTL's ``hits_scored`` then ``pieces_left``; the hex fleet's ``strength``),
    tied when there is none; players who resigned or went away (``ending_by``) are last.
    No winner and no scores: a draw, everyone first."""
    winner = result.get("winner")
    by = set(result.get("ending_by") or ())
    scores: Mapping[str, Any] = result.get("scores") or {}
    hits: Mapping[str, Any] = result.get("hits_scored") or {}
    pieces: Mapping[str, Any] = result.get("pieces_left") or {}
    strength: Mapping[str, Any] = result.get("strength") or {}

    def worth(player: str) -> tuple[float, ...]:
        def number(table: Mapping[str, Any]) -> float:
            value = table.get(player, 0)
            return float(value) if isinstance(value, int | float) else 0.0

        return (
            0.0 if player in by else 1.0,
            1.0 if player == winner else 0.0,
            number(scores),
            number(hits),
            number(pieces),
            number(strength),
        )

    order = sorted(players, key=worth, reverse=True)
    placed: dict[str, int] = {}
    for index, player in enumerate(order):
        tied = index > 0 and worth(player) == worth(order[index - 1])
        placed[player] = placed[order[index - 1]] if tied else index + 1
    return placed


def casual(match: StoredMatch) -> bool:
    """Whether the match was played in a casual room (issue 69): noted for its accounts,
    never rated (its accounts' seats say ``casual``)."""
    return any(seat.get("casual") for seat in match.seats)


def stopped_early(ruleset: str, stored: Mapping[str, Any]) -> bool:
    """Whether the stored match ``stored`` (its JSON, of a game of ``ruleset``) was stopped
    outside its rules (resigned, a draw agreed, a win claimed, a timeout) before its first
    turn or round was over, as its game tells (:meth:`spacetable.registry.Game.past_opening`):
    such a match is not rated. A match of a game this server no longer has is past it."""
    if (stored.get("result") or {}).get("ending") not in STOPPED:
        return False
    try:
        game = game_for_ruleset(ruleset)
    except UnknownGame:
        return False
    return not game.past_opening(stored)


def repeated(session: Session, game: str, accounts: Iterable[int], match: StoredMatch) -> bool:
    """Whether two of ``accounts`` already played :data:`REPEATS_RATED` matches of ``game``
    together, past their first turn or round (:func:`stopped_early`), that finished in the
    :data:`REPEAT_WINDOW` up to ``match``'s end: ``match`` is then not rated."""
    mine, theirs = aliased(_PlayedRow), aliased(_PlayedRow)
    for first, second in combinations(sorted(set(accounts)), 2):
        together = (
            select(mine.match_id)
            .join(theirs, theirs.match_id == mine.match_id)
            .where(
                mine.account_id == first,
                theirs.account_id == second,
                mine.game == game,
                mine.match_id != match.id,
                mine.finished_at > match.finished_at - REPEAT_WINDOW,
                mine.finished_at <= match.finished_at,
            )
            .order_by(mine.finished_at.desc())
        )
        match_ids = list(session.scalars(together))
        played = 0
        # The latest first, a few at a time: most pairs stop at their third.
        for start in range(0, len(match_ids) if len(match_ids) >= REPEATS_RATED else 0, 8):
            chunk = match_ids[start : start + 8]
            for row in session.scalars(select(_MatchRef).where(_MatchRef.id.in_(chunk))):
                stored = {"seats": row.seats, "actions": row.actions, "events": row.events}
                if not stopped_early(row.ruleset, stored | {"result": row.result}):
                    played += 1
            if played >= REPEATS_RATED:
                return True
    return False


@dataclass(frozen=True, slots=True)
class Rating:
    """One account's rating in one game, as shown."""

    game: str
    mu: float
    sigma: float
    matches: int
    wins: int
    draws: int
    losses: int

    @property
    def ordinal(self) -> float:
        """The one number shown: ``mu - 3 sigma`` (openskill's ordinal)."""
        return float(MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal())

    @property
    def provisional(self) -> bool:
        """Whether too few matches were rated for the number to mean much yet."""
        return self.matches < PROVISIONAL

    def to_json(self) -> dict[str, Any]:
        """``rating`` (the ordinal, two decimals), ``provisional``, the record."""
        return {
            "rating": round(self.ordinal, 2),
            "provisional": self.provisional,
            "matches": self.matches,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
        }


def _rating(row: _RatingRow) -> Rating:
    return Rating(row.game, row.mu, row.sigma, row.matches, row.wins, row.draws, row.losses)


class RatingBook:
    """The ratings of the accounts in ``storage``'s database, kept up to date as matches
    are stored (it adds itself to ``storage.on_save``)."""

    def __init__(self, storage: Storage, accounts: AccountStore) -> None:
        self._storage = storage
        self._engine = storage.engine
        self._accounts = accounts
        #: Which accounts are bot accounts (issue 72): ranked apart, labelled BOT.
        self.bots = BotBook(storage)
        storage.on_save.append(self.record)

    def record(self, session: Session, match: StoredMatch) -> None:
        """Note the match for its accounts and, once per match, rate it when two or more
        accounts played it (in the match's save transaction), unless it was stopped before
        its first turn or round was over (:func:`stopped_early`) or two of them played
        too often together lately (:func:`repeated`)."""
        held = {
            str(seat["player"]): name_key(str(seat["account"]))
            for seat in match.seats
            if seat.get("account") and seat.get("player")
        }
        if not held:
            return
        noted = session.scalar(select(_PlayedRow.match_id).where(_PlayedRow.match_id == match.id))
        if noted is not None:
            return  # stored again (a save tried twice): rated already
        # The accounts' rows locked in the order of their ids, until the save commits: a
        # match of one of them stored at once elsewhere waits, then reads our ratings.
        # ``FOR NO KEY UPDATE`` (PostgreSQL): rows that refer to them are still written.
        found = session.execute(
            select(_AccountRef.key, _AccountRef.id)
            .where(_AccountRef.key.in_(held.values()))
            .order_by(_AccountRef.id)
            .with_for_update(key_share=True)
        )
        ids = {key: account_id for key, account_id in found}
        rated = {player: ids[key] for player, key in held.items() if key in ids}
        game = game_key(match.ruleset)
        for account_id in rated.values():
            session.add(
                _PlayedRow(
                    account_id=account_id,
                    match_id=match.id,
                    game=game,
                    finished_at=match.finished_at,
                )
            )
        if len(rated) < 2 or casual(match) or stopped_early(match.ruleset, match.to_json()):
            return
        if repeated(session, game, rated.values(), match):
            return
        players = [str(seat.get("player") or seat.get("name")) for seat in match.seats]
        self._rate(session, game, rated, ranks(players, match.result))

    def _rate(
        self, session: Session, game: str, rated: dict[str, int], placed: dict[str, int]
    ) -> None:
        rows = {}
        for player, account_id in rated.items():
            row = session.get(_RatingRow, (account_id, game))
            if row is None:
                fresh = MODEL.rating()
                row = _RatingRow(
                    account_id=account_id,
                    game=game,
                    mu=fresh.mu,
                    sigma=fresh.sigma,
                    matches=0,
                    wins=0,
                    draws=0,
                    losses=0,
                )
                session.add(row)
            rows[player] = row
        order = list(rows)
        teams = [[MODEL.rating(mu=rows[p].mu, sigma=rows[p].sigma)] for p in order]
        updated = MODEL.rate(teams, ranks=[placed[p] for p in order])
        best = min(placed.values())
        firsts = sum(1 for place in placed.values() if place == best)
        for player, [new] in zip(order, updated, strict=True):
            row = rows[player]
            row.mu, row.sigma = float(new.mu), float(new.sigma)
            row.matches += 1
            if placed[player] != best:
                row.losses += 1
            elif firsts > 1:
                row.draws += 1
            else:
                row.wins += 1

    def unrated(self, match_id: str) -> str | None:
        """Why the stored match ``match_id`` between two accounts or more was not rated:
        ``"early"`` (:func:`stopped_early`) or ``"repeated"`` (:func:`repeated`); ``None``:
        rated, or not such a match, or not stored. Asked once the match is stored (a room
        tells its players why: ``rooms/lookups.py``); the matches stored since it may make
        ``"repeated"`` say more than its save saw, never less."""
        match = self._storage.get(match_id)
        if match is None:
            return None
        keys = {name_key(str(s["account"])) for s in match.seats if s.get("account")}
        with reaching(), Session(self._engine) as session:
            ids = list(session.scalars(select(_AccountRef.id).where(_AccountRef.key.in_(keys))))
            if len(ids) < 2:
                return None
            if casual(match):
                return "casual"
            if stopped_early(match.ruleset, match.to_json()):
                return "early"
            return "repeated" if repeated(session, game_key(match.ruleset), ids, match) else None

    def ratings_of(self, account: Account) -> list[Rating]:
        """The account's ratings, one per game it was rated in."""
        query = select(_RatingRow).where(_RatingRow.account_id == account.id)
        with reaching(), Session(self._engine) as session:
            return [_rating(row) for row in session.scalars(query)]

    def shown(self, key: str, game: str) -> dict[str, Any] | None:
        """The rating of the account whose name's key is ``key`` in ``game`` as a room
        shows it beside his seat (``rating``, ``provisional``), or ``None``: not rated yet.
        One indexed query (a room asks it on a thread: ``rooms/lookups.py``)."""
        query = (
            select(_RatingRow)
            .join(_AccountRef, _AccountRef.id == _RatingRow.account_id)
            .where(_AccountRef.key == key, _RatingRow.game == game)
        )
        with reaching(), Session(self._engine) as session:
            row = session.scalar(query)
        if row is None:
            return None
        rated = _rating(row).to_json()
        return {"rating": rated["rating"], "provisional": rated["provisional"]}

    def profile(self, name: str) -> dict[str, Any] | None:
        """``GET /api/players/{name}``: the account's name, since when, whether it is a
        bot account (``bot``), its ratings by game and its :data:`PROFILE_MATCHES` latest
        matches; ``None`` for no account."""
        account = self._accounts.find(name)
        if account is None:
            return None
        latest = (
            select(_PlayedRow.match_id)
            .where(_PlayedRow.account_id == account.id)
            .order_by(_PlayedRow.finished_at.desc())
            .limit(PROFILE_MATCHES)
        )
        with reaching(), Session(self._engine) as session:
            match_ids = list(session.scalars(latest))
        return {
            "name": account.name,
            "since": account.since,
            "bot": self.bots.is_bot(account.key),
            "ratings": {r.game: r.to_json() for r in self.ratings_of(account)},
            "matches": self._storage.summaries(match_ids),
        }

    def leaderboard(self, game: str, *, bots: bool = False) -> list[dict[str, Any]]:
        """The people rated in ``game`` (``bots``: the bot accounts instead: each ranked
        apart from the other), best first, the provisional ones after the others:
        ``name``, ``rating``, ``provisional``, ``matches``."""
        bot = select(BOT_ACCOUNTS.c.account_id).where(
            BOT_ACCOUNTS.c.account_id == _RatingRow.account_id
        )
        query = (
            select(_RatingRow, _AccountRef.name)
            .join(_AccountRef, _AccountRef.id == _RatingRow.account_id)
            .where(_RatingRow.game == game)
            .where(bot.exists() if bots else ~bot.exists())
        )
        with reaching(), Session(self._engine) as session:
            found = [(_rating(row), name) for row, name in session.execute(query)]
        found.sort(key=lambda pair: (pair[0].provisional, -pair[0].ordinal, pair[1].casefold()))
        return [
            {
                "name": name,
                "rating": round(r.ordinal, 2),
                "provisional": r.provisional,
                "matches": r.matches,
            }
            for r, name in found[:LEADERBOARD_LIMIT]
        ]
