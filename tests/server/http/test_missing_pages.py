"""An address that leads nowhere, followed in a browser (a room that closed, a mistyped
link): a page in the reader's language that says why and leads on, not FastAPI's JSON;
scripts asking for data still get JSON."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from tests.server.http._app import app_client

#: What a browser's navigation asks for.
BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with app_client(tmp_path_factory.mktemp("missing")) as client:
        yield client


def test_a_room_link_that_leads_nowhere_says_so_and_leads_to_the_lobby(
    client: TestClient,
) -> None:
    page = client.get("/rooms/k3x9qa", headers=BROWSER)
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert "<title>Cannot open this page — spacetable</title>" in page.text
    assert (
        "There is no room &#x27;k3x9qa&#x27; here: it may have ended and closed, "
        "or its link may be mistyped." in page.text
    )
    assert '<a class="button" href="/">Go to the lobby</a>' in page.text
    # In the reader's language, whichever way he asked for it.
    for french in (
        client.get("/rooms/k3x9qa?lang=fr", headers=BROWSER),
        client.get("/rooms/k3x9qa", headers=BROWSER | {"Accept-Language": "fr-FR,fr;q=0.9"}),
    ):
        assert french.status_code == 404
        assert '<html lang="fr"' in french.text
        assert "Il n&#x27;y a pas de salle &#x27;k3x9qa&#x27; ici" in french.text
        assert "Aller à l'accueil" in french.text
        assert "There is no room" not in french.text


def test_any_address_that_is_nothing_here_gets_the_page_but_data_stays_json(
    client: TestClient,
) -> None:
    page = client.get("/leaderbord", headers=BROWSER)
    assert page.status_code == 404
    assert "There is no page at &#x27;/leaderbord&#x27;." in page.text
    # A script's request, or any address of data or files, is answered as before.
    for path, headers in (
        ("/leaderbord", {"Accept": "application/json"}),
        ("/api/nothing", BROWSER),
        ("/static/js/nothing.js", BROWSER),
        ("/i18n/xx.json", BROWSER),
    ):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 404, path
        assert answer.headers["content-type"] == "application/json", path
        assert "detail" in answer.json(), path
    assert client.post("/leaderbord", headers=BROWSER).status_code in (404, 405)


def test_the_address_is_written_as_text_not_markup(client: TestClient) -> None:
    page = client.get("/<script>alert(1)</script>", headers=BROWSER)
    assert page.status_code == 404
    assert "<script>alert" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    long = client.get("/" + "x" * 5000, headers=BROWSER)
    assert long.status_code == 404
    assert "x" * 100 not in long.text  # clipped, not echoed whole


def test_a_player_who_is_not_here_gets_a_page_that_says_so_and_leads_on(
    client: TestClient,
) -> None:
    """Issue 67 item 20: a deleted or unknown player's profile showed a raw "no player
    'Alice'" over empty tables."""
    page = client.get("/players/Alice", headers=BROWSER)
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert "<title>No player called Alice — spacetable</title>" in page.text
    assert '<h2 id="missing-title" class="missing-reason">No player called Alice</h2>' in page.text
    assert "The name may be misspelled, or the player may have deleted the account." in page.text
    assert '<a class="button" href="/leaderboard">See the leaderboards</a>' in page.text
    assert '<a href="/">Go to the lobby</a>' in page.text
    assert 'id="ratings"' not in page.text and "no player" not in page.text
    french = client.get("/players/Alice?lang=fr", headers=BROWSER)
    assert french.status_code == 404
    assert "<title>Aucun joueur nommé Alice — spacetable</title>" in french.text
    assert "Le nom est peut-être mal écrit" in french.text
    assert "Voir les classements" in french.text
    # A name is written as text, never as markup; a very long one is cut.
    hostile = client.get("/players/%3Cb%3Ebold%3C%2Fb%3E" + "x" * 300, headers=BROWSER)
    assert hostile.status_code == 404
    assert "<b>bold" not in hostile.text and "&lt;b&gt;bold" in hostile.text
    assert "x" * 100 not in hostile.text


def test_a_player_s_page_is_his_profile_until_he_deletes_his_account(
    client: TestClient,
) -> None:
    made = client.post("/api/accounts", json={"name": "Here Now", "password": "a long one"})
    assert made.status_code in (200, 201), made.text
    page = client.get("/players/Here%20Now", headers=BROWSER)
    assert page.status_code == 200
    assert 'id="ratings"' in page.text and "No player called" not in page.text
    assert client.get("/players/here%20now", headers=BROWSER).status_code == 200
    gone = client.request("DELETE", "/api/accounts/me", json={"password": "a long one"})
    assert gone.status_code in (200, 204), gone.text
    page = client.get("/players/Here%20Now", headers=BROWSER)
    assert page.status_code == 404
    assert "No player called Here Now" in page.text and 'id="ratings"' not in page.text
