"""Ratings (issue 37 item 3): one openskill rating per game and account (Weng-Lin,
Plackett-Luce: a match of three or four ranks every seat), updated once when a match
between at least two accounts is stored, however it ended (its rules, a turn limit, a
resignation, an agreed draw, a claimed absence). Seats held by bots or guests are not
rated; they still rank the accounts' seats among them (only the accounts' order is rated).

What is shown is one number, the rating's ordinal (``mu - 3 sigma``), "provisional" for an
account's first :data:`PROVISIONAL` matches of a game. Each stored match with an account's
seat is noted in ``account_matches`` (a profile's latest matches): that note is what makes
the update happen once, whatever the number of saves of the match.

The update runs in the match's own save transaction (:attr:`Storage.on_save`): a match is
never stored without its ratings, nor rated twice. Tables: migration ``0003_ratings``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Float, ForeignKey, Integer, String, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from spacetable.registry import UnknownGame, game_for_ruleset
from spacetable.server.store.accounts import Account, AccountStore, name_key
from spacetable.server.store.storage import Storage, StoredMatch, reaching

#: Matches of a game during which a rating is shown as provisional.
PROVISIONAL = 5
#: The latest matches a profile lists.
PROFILE_MATCHES = 20
#: The most players a leaderboard lists.
LEADERBOARD_LIMIT = 100
#: The model every rating is updated with (openskill's defaults: mu 25, sigma 25/3).
MODEL = PlackettLuce()


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
        storage.on_save.append(self.record)

    def record(self, session: Session, match: StoredMatch) -> None:
        """Note the match for its accounts and, once per match, rate it when two or more
        accounts played it (in the match's save transaction)."""
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
        found = session.execute(
            select(_AccountRef.key, _AccountRef.id).where(_AccountRef.key.in_(held.values()))
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
        if len(rated) < 2:
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
        """``GET /api/players/{name}``: the account's name, since when, its ratings by
        game and its :data:`PROFILE_MATCHES` latest matches; ``None`` for no account."""
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
            "ratings": {r.game: r.to_json() for r in self.ratings_of(account)},
            "matches": self._storage.summaries(match_ids),
        }

    def leaderboard(self, game: str) -> list[dict[str, Any]]:
        """The players rated in ``game``, best first, the provisional ones after the
        others: ``name``, ``rating``, ``provisional``, ``matches``."""
        query = (
            select(_RatingRow, _AccountRef.name)
            .join(_AccountRef, _AccountRef.id == _RatingRow.account_id)
            .where(_RatingRow.game == game)
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
