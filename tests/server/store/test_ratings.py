"""Ratings (issue 37 item 3): a stored match between two, three or four accounts moves
their openskill ratings exactly as openskill's own Plackett-Luce model does for those
places; once, however often the match is saved; bots and guests unrated; profiles and
leaderboards over HTTP (in process, no lifespan: no bots needed)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from spacetable.server.app import create_app
from spacetable.server.store.accounts import AccountStore, name_key, password_hasher
from spacetable.server.store.ratings import (
    PROVISIONAL,
    REPEAT_WINDOW,
    REPEATS_RATED,
    RatingBook,
    ranks,
)
from spacetable.server.store.storage import Storage, StoredMatch

MODEL = PlackettLuce()


@pytest.fixture
def book(tmp_path: Path) -> Iterator[tuple[Storage, AccountStore, RatingBook]]:
    storage = Storage(f"sqlite:///{tmp_path / 'ratings.db'}")
    accounts = AccountStore(storage, password_hasher(cheap=True))
    yield storage, accounts, RatingBook(storage, accounts)
    storage.close()


def seat(name: str, account: bool = True) -> dict[str, Any]:
    held = {"account": name_key(name)} if account else {}
    return {"kind": "human", "player": name, "name": name, "registered": account, **held}


def stored(
    match_id: str, seats: list[dict[str, Any]], result: dict[str, Any], at: float = 1.0
) -> StoredMatch:
    return StoredMatch(match_id, "r", "lightspeed", {}, seats, 1, [], [], result, at, at)


def expected(places: list[int]) -> list[tuple[float, float]]:
    teams = [[MODEL.rating()] for _ in places]
    return [
        (team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=[float(p) for p in places])
    ]


def mu_sigma(book: RatingBook, accounts: AccountStore, name: str) -> tuple[float, float]:
    account = accounts.find(name)
    assert account is not None
    [rating] = book.ratings_of(account)
    return rating.mu, rating.sigma


@pytest.mark.parametrize(
    ("scores", "places"),
    [
        ({"ann": 3, "bob": 1}, [1, 2]),
        ({"ann": 1, "bob": 4, "cyd": 2}, [3, 1, 2]),
        ({"ann": 2, "bob": 5, "cyd": 2, "dee": 0}, [2, 1, 2, 4]),
    ],
    ids=["two", "three", "four"],
)
def test_a_match_of_two_three_or_four_accounts_moves_them_as_openskill_does(
    book: tuple[Storage, AccountStore, RatingBook], scores: dict[str, int], places: list[int]
) -> None:
    storage, accounts, ratings = book
    names = list(scores)
    for name in names:
        accounts.create(name, "12345678")
    winner = names[places.index(1)]
    storage.save(stored("m", [seat(n) for n in names], {"scores": scores, "winner": winner}))
    for name, (mu, sigma) in zip(names, expected(places), strict=True):
        assert mu_sigma(ratings, accounts, name) == pytest.approx((mu, sigma), abs=1e-9)
    profile = ratings.profile(winner)
    assert profile is not None
    record = profile["ratings"]["lightspeed"]
    assert (record["matches"], record["wins"], record["losses"], record["provisional"]) == (
        1,
        1,
        0,
        True,
    )
    assert [m["id"] for m in profile["matches"]] == ["m"]


def test_a_match_is_rated_once_however_often_it_is_saved(
    book: tuple[Storage, AccountStore, RatingBook],
) -> None:
    storage, accounts, ratings = book
    for name in ("ann", "bob"):
        accounts.create(name, "12345678")
    match = stored("m", [seat("ann"), seat("bob")], {"winner": "bob"})
    storage.save(match)
    storage.save(match)
    assert mu_sigma(ratings, accounts, "bob") == pytest.approx(expected([2, 1])[1])


def test_bots_and_guests_are_not_rated_and_a_lone_account_is_not_rated(
    book: tuple[Storage, AccountStore, RatingBook],
) -> None:
    storage, accounts, ratings = book
    ann = accounts.create("ann", "12345678")
    bot = {"kind": "bot", "player": "medium bot", "name": "medium bot", "registered": False}
    storage.save(stored("m1", [seat("ann"), bot], {"winner": "ann"}))
    storage.save(stored("m2", [seat("ann"), seat("guy", account=False)], {"winner": "guy"}, 2.0))
    assert ratings.ratings_of(ann) == []
    profile = ratings.profile("ANN")
    assert profile is not None and [m["id"] for m in profile["matches"]] == ["m2", "m1"]
    # Three accounts and a guest: the accounts are rated by their places among everyone.
    for name in ("bob", "cyd"):
        accounts.create(name, "12345678")
    seats = [seat("ann"), seat("guy", account=False), seat("bob"), seat("cyd")]
    scores = {"ann": 1, "guy": 9, "bob": 3, "cyd": 0}
    storage.save(stored("m3", seats, {"scores": scores, "winner": "guy"}, 3.0))
    places = ranks(["ann", "guy", "bob", "cyd"], {"scores": scores, "winner": "guy"})
    assert places == {"guy": 1, "bob": 2, "ann": 3, "cyd": 4}
    want = expected([3, 2, 4])
    for name, (mu, sigma) in zip(("ann", "bob", "cyd"), want, strict=True):
        assert mu_sigma(ratings, accounts, name) == pytest.approx((mu, sigma))


def test_the_places_of_stopped_matches_and_draws() -> None:
    resigned = {"winner": "bob", "ending": "resigned", "ending_by": ["ann"]}
    assert ranks(["ann", "bob"], resigned) == {"bob": 1, "ann": 2}
    assert ranks(["ann", "bob"], {"winner": None, "ending": "agreed_draw"}) == {"ann": 1, "bob": 1}
    ftl = {
        "winner": None,
        "hits_scored": {"a": 2, "b": 2, "c": 1},
        "pieces_left": {"a": 1, "b": 3, "c": 5},
    }
    assert ranks(["a", "b", "c"], ftl) == {"b": 1, "a": 2, "c": 3}
    # Three or four: a player who resigned on the way is last, whatever his bot scored.
    laser = {"winner": "a", "scores": {"a": 5, "b": 1, "c": 4}, "ending_by": ["c"]}
    assert ranks(["a", "b", "c"], laser) == {"a": 1, "b": 2, "c": 3}


def test_profiles_and_leaderboards_over_http(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'api.db'}")
    app = create_app(storage, password_hasher=password_hasher(cheap=True))
    client = TestClient(app, base_url="http://127.0.0.1", client=("127.0.0.1", 50000))
    for name in ("ann", "bob", "cyd"):
        assert (
            client.post("/api/accounts", json={"name": name, "password": "12345678"}).status_code
            == 201
        )
    # Ann beats Bob five times, a day apart (no longer provisional); Cyd beats Bob once
    # (provisional).
    for number in range(PROVISIONAL):
        at = number * REPEAT_WINDOW
        storage.save(stored(f"ab{number}", [seat("ann"), seat("bob")], {"winner": "ann"}, at))
    storage.save(stored("cb", [seat("cyd"), seat("bob")], {"winner": "cyd"}, 10 * REPEAT_WINDOW))
    board = client.get("/api/leaderboard/lightspeed").json()
    assert board["game"] == "lightspeed"
    assert [(p["name"], p["provisional"]) for p in board["players"]] == [
        ("ann", False),
        ("bob", False),
        ("cyd", True),
    ]
    ann = client.get("/api/players/Ann").json()
    assert ann["name"] == "ann" and ann["ratings"]["lightspeed"]["wins"] == PROVISIONAL
    assert ann["ratings"]["lightspeed"]["rating"] == board["players"][0]["rating"]
    assert len(client.get("/api/players/bob").json()["matches"]) == PROVISIONAL + 1
    assert client.get("/api/players/nobody").status_code == 404
    assert client.get("/api/leaderboard/chess").status_code == 404
    # An account deleted leaves the leaderboard (its matches stay, anonymous).
    client.cookies.clear()
    client.post("/api/session", json={"name": "cyd", "password": "12345678"})
    assert (
        client.request("DELETE", "/api/accounts/me", json={"password": "12345678"}).status_code
        == 204
    )
    names = [p["name"] for p in client.get("/api/leaderboard/lightspeed").json()["players"]]
    assert names == ["ann", "bob"]
    storage.close()


def resigned(
    match_id: str, ruleset: str, at: float, actions: list[Any], events: list[Any]
) -> StoredMatch:
    """Bob resigned a match of Ann and Bob at ``at``, after ``actions`` and ``events``."""
    result = {"winner": "ann", "ending": "resigned", "ending_by": ["bob"]}
    seats = [seat("ann"), seat("bob")]
    return StoredMatch(match_id, "r", ruleset, {}, seats, 1, actions, events, result, at, at)


#: A card placed by each player: Light Speed's first round is over.
BOTH_PLACED = [
    {"type": "place", "player": p, "x": 0, "y": 0, "rotation": 0} for p in ("ann", "bob")
]


def test_a_match_stopped_before_its_first_turn_or_round_is_over_is_not_rated(
    book: tuple[Storage, AccountStore, RatingBook],
) -> None:
    """Issue 67 item 7: a resignation at once farmed a rating. Each game tells when its
    first turn or round is over: Light Speed's once each player placed a card, FTL's once
    its first turn resolved, the hex fleet's once its second turn began."""
    storage, accounts, ratings = book
    ann = accounts.create("ann", "12345678")
    accounts.create("bob", "12345678")
    only_ann = [{"type": "place", "player": "ann", "x": 0, "y": 0, "rotation": 0}]
    fleets = [{"type": "fleet", "player": p} for p in ("ann", "bob")]
    early = [
        resigned("l0", "lightspeed", 1.0, [], []),
        resigned("l1", "lightspeed", 2.0, only_ann, []),
        resigned("f0", "ftl", 3.0, [{"type": "plot", "player": "ann"}], [{"type": "plotted"}]),
        resigned("h0", "hexfleet", 4.0, [], [{"type": "turn", "turn": 1}]),
        # Stellar Conflict: both fleets chosen, no card down yet.
        resigned("s0", "stellar", 4.5, fleets, []),
    ]
    for match in early:
        storage.save(match)
    assert ratings.ratings_of(ann) == []  # not rated, and yet listed on his profile
    profile = ratings.profile("ann")
    assert profile is not None and len(profile["matches"]) == len(early)
    storage.save(resigned("l2", "lightspeed", 5.0, BOTH_PLACED, []))
    storage.save(resigned("f1", "ftl", 6.0, [], [{"type": "turn", "turn": 1}]))
    storage.save(resigned("h1", "hexfleet", 7.0, [], [{"type": "turn", "turn": 2}]))
    storage.save(resigned("s1", "stellar", 7.5, BOTH_PLACED, []))
    assert {r.game: (r.matches, r.wins) for r in ratings.ratings_of(ann)} == {
        "lightspeed": (1, 1),
        "ftl": (1, 1),
        "hexfleet": (1, 1),
        "stellar": (1, 1),
    }
    # A match that ended by its rules is rated however short it was.
    storage.save(stored("l3", [seat("ann"), seat("bob")], {"winner": "ann"}, 8.0))
    assert {r.game: r.matches for r in ratings.ratings_of(ann)}["lightspeed"] == 2


def test_two_accounts_matches_together_are_rated_three_times_a_day(
    book: tuple[Storage, AccountStore, RatingBook],
) -> None:
    """Issue 67 item 7: from the fourth match of a game two accounts play together within
    24 hours on, the match is not rated; the matches stopped before their first round do not
    count; a day later they are rated again; a third account is rated against either."""
    storage, accounts, ratings = book
    for name in ("ann", "bob", "cyd"):
        accounts.create(name, "12345678")

    def record(name: str) -> tuple[int, int, int]:
        account = accounts.find(name)
        assert account is not None
        [rating] = ratings.ratings_of(account)
        return rating.matches, rating.wins, rating.losses

    storage.save(resigned("early", "lightspeed", 0.5, [], []))  # not rated, not counted
    for number in range(REPEATS_RATED + 2):
        storage.save(resigned(f"ab{number}", "lightspeed", 1.0 + number, BOTH_PLACED, []))
    assert record("ann") == (REPEATS_RATED, REPEATS_RATED, 0)
    assert record("bob") == (REPEATS_RATED, 0, REPEATS_RATED)
    # Cyd is rated against Ann as usual.
    storage.save(stored("ac", [seat("ann"), seat("cyd")], {"winner": "cyd"}, 10.0))
    assert record("ann") == (REPEATS_RATED + 1, REPEATS_RATED, 1)
    # A day after the first three, Ann and Bob's next match is rated again.
    storage.save(resigned("later", "lightspeed", 3.0 + REPEAT_WINDOW, BOTH_PLACED, []))
    assert record("bob") == (REPEATS_RATED + 1, 0, REPEATS_RATED + 1)
