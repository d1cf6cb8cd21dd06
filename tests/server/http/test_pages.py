"""The browser's pages share one head (server/http/pages.py): each is composed from
web/head.html and its body; a room page names the game its room plays; a game registered
from outside the package serves its browser module from its own folder (Game.web_dir)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from spacetable import registry
from spacetable.server.app import create_app
from spacetable.server.http.pages import PAGES, TOPBAR_PLACE, TOPBARS, compose
from spacetable.server.store.storage import Storage


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_page_has_the_one_head_and_its_own_body(name: str) -> None:
    html = compose(name)
    assert html.startswith("<!doctype html>")
    assert html.count("<head>") == 1 and html.count("<body") == 1
    for sheet in ("page", "room", "learn", "touch", "chat", "endings"):
        assert html.count(f'href="/static/css/{sheet}.css"') == 1
    assert f'src="/static/js/{PAGES[name].script}"' in html
    assert html.rstrip().endswith("</html>")


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_page_has_one_top_bar_with_the_brand(name: str) -> None:
    html = compose(name, lang="fr")
    assert html.count('<header class="topbar">') == 1 and TOPBAR_PLACE not in html
    assert '<a class="brand" href="/" translate="no">spacetable</a>' in html


def test_the_common_top_bar_shows_the_page_s_heading_and_links_in_the_reader_s_language() -> None:
    assert set(TOPBARS) <= set(PAGES)
    login = compose("login", lang="fr")
    assert "<h1>Se connecter</h1>" in login
    assert '<nav><a href="/">Accueil</a> · <a href="/matches">Parties terminées</a></nav>' in login
    rules = compose("rules")
    assert "<h1>How to play</h1>" in rules
    links = '<a href="/">Lobby</a> · <a href="/tutorial">Tutorial</a> · <a href="/referee">'
    assert f"<nav>{links}Referee sandbox</a></nav>" in rules


def test_a_room_page_names_the_game_its_room_plays() -> None:
    assert '<html lang="en" data-game="ftl" data-languages=' in compose("room", game="ftl")
    assert "data-game" not in compose("replay")


def test_a_game_from_outside_the_package_serves_its_own_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ftl = registry.game("ftl")
    rules = dataclasses.replace(ftl.rules, key="outside")
    outside = dataclasses.replace(ftl, rules=rules, web_dir=tmp_path / "web")
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "index.js").write_text("export const outside = 1;\n")
    monkeypatch.setattr("spacetable.server.app.games", lambda: (*registry.games(), outside))
    storage = Storage(f"sqlite:///{tmp_path / 'matches.db'}")
    try:
        app = create_app(storage)
    finally:
        storage.close()
    assert outside.to_json()["client"] == "/static/js/games/outside/index.js"
    client = TestClient(app)
    versioned = app.state.assets.prefix + "/js/games/outside/index.js"
    for address in ("/static/js/games/outside/index.js", versioned):
        answer = client.get(address)
        assert answer.status_code == 200, address
        assert answer.text == "export const outside = 1;\n"
    # The package's own games are still served from the package.
    assert "FtlRoom" in client.get(app.state.assets.prefix + "/js/games/ftl/index.js").text
