"""A block reaches the rooms of every process (issue 69 item 4; ``meet/relations.py``):
two ``spacetable serve --redis`` processes and a real Redis. Ann reads a room held by
process 1; she blocks Bob through process 2: the room on process 1 sends her the chat
anew without Bob's line, and none of his later lines, while Cid still reads them all."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator

import pytest

from tests._accounts import session_cookie
from tests._server import Client
from tests.cluster._cluster import MISSING, Cluster, running_cluster

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


@pytest.fixture(scope="module")
def cluster(compiled_kernels: None) -> Iterator[Cluster]:
    with running_cluster(2, "--stop-seconds", "1.5") as running:
        yield running


def test_a_block_on_one_process_hides_the_chat_in_a_room_of_the_other(
    cluster: Cluster,
) -> None:
    first, second = (worker.server for worker in cluster.workers)
    ann, bob, cid = (session_cookie(first.http, name) for name in ("Ann", "Bob", "Cid"))
    room = first.create_room(ruleset="ftl")  # held by process 1
    pages = [Client(first, room, headers={"cookie": cookie}) for cookie in (ann, bob, cid)]
    try:
        ann_page, bob_page, cid_page = pages
        for page in pages:
            page.wait_type("welcome")
        bob_page.send(type="chat", text="one")
        ann_page.wait(lambda m: m["type"] == "chat" and m["text"] == "one")
        request = urllib.request.Request(
            f"{second.http}/api/blocking/Bob", method="PUT", headers={"cookie": ann}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.status == 204
        ann_page.wait(lambda m: m["type"] == "chat_history" and m["messages"] == [])
        bob_page.send(type="chat", text="two")
        cid_page.wait(lambda m: m["type"] == "chat" and m["text"] == "two")
        cid_page.send(type="chat", text="three")
        ann_page.wait(lambda m: m["type"] == "chat" and m["text"] == "three")
        said = [m["text"] for m in ann_page.received if m["type"] == "chat"]
        assert said == ["one", "three"]  # "one" before the block; "two" never came
    finally:
        for page in pages:
            page.close()
