"""The HTTP tests' shared helpers, for an app in the test's process on its test clock
(Starlette's ``TestClient``, its lifespan run): the app made (``app_on``) and served over a
storage of its own, closed after (``serving``, ``stored``); its services; a new account's
session headers (``login``) and a personal access token's (``bearer``); the server's clock
moved (``advance``); a socket's next message of a type (``until``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from spacetable.server.app import create_app
from spacetable.server.http.deps import Services
from spacetable.server.store.accounts import SESSION_COOKIE, password_hasher
from spacetable.server.store.storage import Storage
from tests.server.http._app import BASE_URL

#: The address the tests' client calls the app at (the origin its checks accept).
ORIGIN = BASE_URL
#: The password of the accounts ``login`` makes.
PASSWORD = "12345678"
#: The scopes of a token ``bearer`` makes when it is given none: a bot's.
BOT_SCOPES = ("bot:play",)


def _url(where: str | Path) -> str:
    """A database URL, or a SQLite file's ``Path`` made one."""
    return f"sqlite:///{where}" if isinstance(where, Path) else where


def stored(where: str | Path) -> Iterator[Storage]:
    """The storage at ``where`` (a database URL, or a SQLite file's ``Path``), closed
    after: for a fixture to ``yield from``."""
    with closing(Storage(_url(where))) as storage:
        yield storage


def app_on(storage: Storage, **create_app_options: Any) -> FastAPI:
    """A new app over ``storage`` on the test clock with a cheap password hash
    (``create_app`` with those and ``create_app_options``)."""
    return create_app(
        storage, test_clock=True, password_hasher=password_hasher(cheap=True), **create_app_options
    )


@contextmanager
def serving(where: str | Path, **create_app_options: Any) -> Iterator[TestClient]:
    """A client of a new app (``app_on`` with ``create_app_options``) over the storage at
    ``where`` (a database URL, or a SQLite file's ``Path``), its lifespan running; the
    storage is closed after."""
    with (
        closing(Storage(_url(where))) as storage,
        TestClient(app_on(storage, **create_app_options), base_url=ORIGIN) as running,
    ):
        yield running


def services(client: TestClient) -> Services:
    """The services of the app ``client`` calls."""
    served: Services = client.app.state.services  # type: ignore[attr-defined]
    return served


def login(client: TestClient, name: str, *, origin: str | None = None) -> dict[str, str]:
    """Headers that carry a new account ``name``'s session (the client's own jar stays
    empty), with ``origin`` as their Origin when given."""
    accounts = services(client).accounts
    session = accounts.open_session(accounts.create(name, PASSWORD))
    headers = {"cookie": f"{SESSION_COOKIE}={session}"}
    return headers if origin is None else headers | {"origin": origin}


def new_token(
    client: TestClient, who: dict[str, str], *scopes: str, description: str = "bot"
) -> dict[str, Any]:
    """The answer to ``who``'s request for a new token with ``scopes`` (made, 201)."""
    made = client.post(
        "/api/tokens", json={"description": description, "scopes": list(scopes)}, headers=who
    )
    assert made.status_code == 201, made.text
    answer: dict[str, Any] = made.json()
    return answer


def bearer(
    client: TestClient, who: dict[str, str], *scopes: str, origin: str | None = None
) -> dict[str, str]:
    """Headers that carry a new token of ``who`` with ``scopes`` (``bot:play`` when none
    is given), with ``origin`` as their Origin when given (a token needs no Origin check)."""
    made = new_token(client, who, *(scopes or BOT_SCOPES))
    headers = {"authorization": f"Bearer {made['token']}"}
    return headers if origin is None else headers | {"origin": origin}


def advance(client: TestClient, seconds: float) -> None:
    """Move the server's test clock ``seconds`` forward (a day a request at most)."""
    while seconds > 0:
        step = min(seconds, 86_400.0)
        assert client.post("/api/test/clock", json={"advance": step}).status_code == 200
        seconds -= step


def until(
    ws: WebSocketTestSession, kind: str, check: Callable[[dict[str, Any]], bool] | None = None
) -> dict[str, Any]:
    """The socket's next message of type ``kind`` that passes ``check`` (when given), the
    others skipped."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind and (check is None or check(message)):
            return message
