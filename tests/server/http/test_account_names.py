"""Names that would mislead (issue 67 item 8; docs/accounts.md): a sign-up under a name the
game gives (``anonymous 2``, what a deleted account becomes in its old matches; ``Bot 1``;
``player 2``...) or under a look-alike of an account's name (a Cyrillic small a for a Latin
one, UTS #39's confusables skeleton) is refused with a sentence saying why, in English
and in French; two look-alike sign-ups at the same moment make one account, not two. And
the account pages' refusals are full sentences (issue 67 item 21), the odd-characters one
naming the characters. In process through Starlette's TestClient (the routes), and the
accounts' store on SQLite and PostgreSQL for the race."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from spacetable.i18n import translator
from spacetable.i18n.phrase import Phrase
from spacetable.server.store import migrations
from spacetable.server.store.accounts import AccountStore, NameTaken, password_hasher
from spacetable.server.store.migrations import HEAD, current_revision
from spacetable.server.store.storage import Storage
from tests._accounts import session_cookie
from tests._server import Client, Server, running_server
from tests.server.durable._restart import db
from tests.server.http.test_accounts import client_of, sign_up

__all__ = ["db"]

RESERVED = (
    "This name is kept for the names the game gives (bots, guests, empty seats, deleted"
    " accounts): choose another."
)
RESERVED_FR = (
    "Ce nom est réservé aux noms que donne le jeu (robots, invités, places libres, comptes"
    " supprimés)\u00a0: choisissez-en un autre."
)
CYRILLIC_A = "\u0430"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    storage = Storage(f"sqlite:///{tmp_path / 'names.db'}")
    yield client_of(storage)
    storage.close()


def refusal_of(answer: Any) -> tuple[str, str]:
    """A refused request's sentence in English (``detail``) and as a French page writes it
    (its phrase, ``says``)."""
    body = answer.json()
    return body["detail"], Phrase.from_json(body["says"]).text(translator("fr"))


@pytest.mark.parametrize(
    "name",
    ["anonymous", "Anonymous 2", "bot", "Bot 1", "easy bot 2", "guest star", "player 2",
     "Spectator 1", "red", "B\u041eT"],
)  # fmt: skip
def test_a_name_the_game_gives_is_refused_saying_so(client: TestClient, name: str) -> None:
    answer = client.post("/api/accounts", json={"name": name, "password": "long enough"})
    assert answer.status_code == 422, name
    assert refusal_of(answer) == (RESERVED, RESERVED_FR)
    assert client.get("/api/session").status_code == 401


@pytest.mark.parametrize("name", ["Robot", "Abbot", "Player One", "Redwood", "Botticelli"])
def test_names_that_only_hold_those_letters_are_taken(client: TestClient, name: str) -> None:
    assert sign_up(client, name) == name


def test_a_look_alike_of_an_account_s_name_is_refused_naming_it(client: TestClient) -> None:
    sign_up(client, "Alice")
    client.cookies.clear()
    # A Cyrillic small a; a capital I for the l; a Cyrillic capital A.
    for alike in (f"{CYRILLIC_A}lice", "AIice", f"{CYRILLIC_A.upper()}lice"):
        answer = client.post("/api/accounts", json={"name": alike, "password": "long enough"})
        assert answer.status_code == 409, alike
        assert refusal_of(answer) == (
            "This name looks too much like “Alice”, another player's name: choose another.",
            "Ce nom ressemble trop à «\u00a0Alice\u00a0», le nom d\u2019un autre joueur\u00a0:"
            " choisissez-en un autre.",
        )
    # The same name in another case is the same name: taken, said as a sentence.
    answer = client.post("/api/accounts", json={"name": "ALICE", "password": "long enough"})
    assert answer.status_code == 409
    assert refusal_of(answer) == (
        "That name is taken: choose another.",
        "Ce nom est déjà pris\u00a0: choisissez-en un autre.",
    )
    assert sign_up(client, "Alicia") == "Alicia"  # a name merely near is not refused


class _Together(PasswordHasher):
    """A hasher whose hashes wait for each other: two sign-ups are both past the look for
    a taken name before either writes its account."""

    def __init__(self, barrier: threading.Barrier) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self._barrier = barrier

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        self._barrier.wait(timeout=30)
        return super().hash(password, salt=salt)


def test_two_look_alike_sign_ups_at_once_make_one_account(db: str) -> None:
    storage = Storage(db)
    try:
        accounts = AccountStore(storage, _Together(threading.Barrier(2)))
        outcomes: dict[str, object] = {}

        def sign(name: str) -> None:
            try:
                outcomes[name] = accounts.create(name, "long enough").name
            except NameTaken as exc:
                outcomes[name] = exc.args[0]
            except Exception as exc:  # (what the test reports)
                outcomes[name] = repr(exc)

        names = ("Mallory", f"M{CYRILLIC_A}llory")
        threads = [threading.Thread(target=sign, args=(name,)) for name in names]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        made = [name for name in names if outcomes.get(name) == name]
        assert len(made) == 1, outcomes
        (other,) = set(names) - set(made)
        assert outcomes[other] == (
            f"This name looks too much like “{made[0]}”, another player's name: choose another."
        )
        assert accounts.find(other) is None
    finally:
        storage.close()


@pytest.mark.parametrize(
    ("name", "password", "english", "french"),
    [
        (
            "al", "long enough",
            "A name has 3 to 20 characters: yours has 2.",
            "Un nom a de 3 à 20 caractères\u00a0: le vôtre en a 2.",
        ),
        (
            "bob@home!", "long enough",
            "A name holds only letters, digits, spaces, - and _: “@ !” are not allowed.",
            "Un nom ne contient que des lettres, des chiffres, des espaces, - et _\u00a0:"
            " «\u00a0@ !\u00a0» ne sont pas permis.",
        ),
        (
            "bob\u200bby", "long enough",
            "A name holds only letters, digits, spaces, - and _: “U+200B” is not allowed.",
            "Un nom ne contient que des lettres, des chiffres, des espaces, - et _\u00a0:"
            " «\u00a0U+200B\u00a0» n\u2019est pas permis.",
        ),
        (None, "long enough", "Type a name.", "Tapez un nom."),
        (
            "bob", "short",
            "A password has at least 8 characters: yours has 5.",
            "Un mot de passe a au moins 8 caractères\u00a0: le vôtre en a 5.",
        ),
        (
            "bob", "x" * 257,
            "A password has at most 256 characters: yours has 257.",
            "Un mot de passe a au plus 256 caractères\u00a0: le vôtre en a 257.",
        ),
    ],
)  # fmt: skip
def test_a_bad_name_or_password_is_refused_in_a_sentence(
    client: TestClient, name: object, password: str, english: str, french: str
) -> None:
    answer = client.post("/api/accounts", json={"name": name, "password": password})
    assert answer.status_code == 422
    assert refusal_of(answer) == (english, french)


def test_log_in_and_delete_refusals_are_sentences(client: TestClient) -> None:
    sign_up(client, "Oscar")
    answer = client.request("DELETE", "/api/accounts/me", json={"password": "not his"})
    assert answer.status_code == 401
    assert refusal_of(answer) == (
        "Wrong password: your account is not deleted.",
        "Mot de passe incorrect\u00a0: votre compte n\u2019est pas supprimé.",
    )
    client.cookies.clear()
    answer = client.post("/api/session", json={"name": "Oscar", "password": "not his"})
    assert answer.status_code == 401
    assert refusal_of(answer) == ("Wrong name or password.", "Nom ou mot de passe incorrect.")
    answer = client.request("DELETE", "/api/accounts/me", json={"password": "correct horse"})
    assert answer.status_code == 401
    assert refusal_of(answer) == ("You are not logged in.", "Vous n\u2019êtes pas connecté.")


def test_a_database_at_revision_0005_gets_its_accounts_skeletons(db: str) -> None:
    """The release before kept no skeletons: its accounts get theirs, the oldest of two that
    already looked alike keeps it (the other keeps his name and logs in as before), and a
    new look-alike is refused."""
    engine = create_engine(db)
    hashed = password_hasher(cheap=True).hash("12345678")
    with engine.begin() as connection:  # as the release before made it
        config = Config()
        config.set_main_option("script_location", str(Path(migrations.__file__).parent))
        config.attributes["connection"] = connection
        command.upgrade(config, "0005_room_accounts")
        for name in ("Alice", "Bob", f"{CYRILLIC_A}lice"):
            connection.execute(
                text(
                    "INSERT INTO accounts (name, key, password_hash, created_at)"
                    " VALUES (:name, :key, :hash, 1.0)"
                ),
                {"name": name, "key": name.casefold(), "hash": hashed},
            )
    engine.dispose()
    storage = Storage(db)
    try:
        assert current_revision(storage.engine) == HEAD == "0016_bot_accounts"
        with storage.engine.connect() as connection:
            rows = connection.execute(text("SELECT name, skeleton FROM accounts")).all()
        kept = {str(name): shape for name, shape in rows}
        assert kept == {"Alice": "alice", "Bob": "bob", f"{CYRILLIC_A}lice": None}
        indexes = inspect(storage.engine).get_indexes("accounts")
        assert any(i["name"] == "accounts_by_skeleton" and i["unique"] for i in indexes)
        accounts = AccountStore(storage, password_hasher(cheap=True))
        assert accounts.verify(f"{CYRILLIC_A}lice", "12345678") is not None
        with pytest.raises(NameTaken) as refused:
            accounts.create("AIice", "12345678")  # a capital I for the l
        assert str(refused.value) == (
            "This name looks too much like “Alice”, another player's name: choose another."
        )
        assert accounts.create("Bobby", "12345678").name == "Bobby"
    finally:
        storage.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("db") / "names.db") as running:
        yield running


def test_a_guest_asking_for_a_look_alike_of_a_registered_name_sits_as_a_guest(
    server: Server,
) -> None:
    """At the table, a guest may call himself what he likes, but not pass for a registered
    player: a look-alike of an account's name (a Cyrillic capital A) is marked a guest's."""
    session_cookie(server.http, "Alice")
    room = server.create_room()
    guest = Client(server, room)
    guest.send(type="join", name="\u0410lice")
    welcome = guest.wait(lambda m: m["type"] == "welcome" and m["role"] == "player")
    assert welcome["player"] == "\u0410lice (guest)"
    guest.close()
