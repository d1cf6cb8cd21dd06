"""The browser's files at addresses that name their version (server/http/assets.py): kept
for good by the browser there, asked again at their plain addresses, and a new version as
soon as a file changes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from starlette.testclient import TestClient

from spacetable.server.http.assets import IMMUTABLE, REVALIDATE, Assets
from tests.server.http._app import app_client


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with app_client(tmp_path_factory.mktemp("assets")) as client:
        yield client


def _app(client: TestClient) -> FastAPI:
    app = client.app
    assert isinstance(app, FastAPI)
    return app


def test_a_page_names_its_files_at_their_version_and_maps_the_plain_addresses_there(
    client: TestClient,
) -> None:
    prefix = _app(client).state.assets.prefix
    assert re.fullmatch(r"/static/v-[0-9a-f]{12}", prefix)
    for page in ("/", "/matches", "/referee"):
        html = client.get(page).text
        assert f'<link rel="stylesheet" href="{prefix}/css/page.css">' in html
        assert f'<script type="module" src="{prefix}/js/shell/failures.js">' in html
        importmap = f'<script type="importmap">{{"imports": {{"/static/js/": "{prefix}/js/"}}}}'
        assert importmap in html
        assert html.index("importmap") < html.index('type="module"')


def test_a_file_at_its_version_is_kept_for_good_and_at_its_plain_address_asked_again(
    client: TestClient,
) -> None:
    prefix = _app(client).state.assets.prefix
    kept = client.get(f"{prefix}/js/shell/dom.js")
    plain = client.get("/static/js/shell/dom.js")
    assert kept.status_code == plain.status_code == 200
    assert kept.content == plain.content and b"export" in kept.content
    assert kept.headers["cache-control"] == IMMUTABLE
    assert plain.headers["cache-control"] == REVALIDATE
    # An address of another version (a page of another release, during a rolling restart)
    # gets this release's file, not kept.
    other = client.get("/static/v-000000000000/js/shell/dom.js")
    assert other.content == plain.content and other.headers["cache-control"] == REVALIDATE
    # Asked again with its tag: "not modified", still kept for good.
    again = client.get(f"{prefix}/js/shell/dom.js", headers={"if-none-match": kept.headers["etag"]})
    assert again.status_code == 304 and again.headers["cache-control"] == IMMUTABLE


@pytest.mark.parametrize(
    "address",
    [
        "/static/v-000000000000/../../pyproject.toml",
        "/static/v-000000000000/%2e%2e/%2e%2e/pyproject.toml",
        "/static/js/games/nothing/index.js",
        "/static/v-000000000000",
    ],
)
def test_nothing_outside_the_files_is_served(client: TestClient, address: str) -> None:
    assert client.get(address).status_code == 404


def test_an_edited_file_makes_a_new_version(tmp_path: Path) -> None:
    web, outside = tmp_path / "web", tmp_path / "outside"
    (web / "js").mkdir(parents=True)
    outside.mkdir()
    (web / "js" / "a.js").write_text("export const a = 1;\n")
    (outside / "index.js").write_text("export const b = 1;\n")
    assets = Assets(web, {"js/games/outside": outside}, recheck=0.0)
    first = assets.prefix
    assert assets.prefix == first  # nothing changed
    # (each edit changes the file's size: two writes within one tick of the kernel's
    # coarse clock can leave its time as it was)
    (web / "js" / "a.js").write_text("export const a = 22;\n")
    second = assets.prefix
    assert second != first
    (outside / "index.js").write_text("export const b = 22;\n")
    third = assets.prefix
    assert third not in (first, second)
    (web / "js" / "new.js").write_text("")
    assert assets.prefix not in (first, second, third)
