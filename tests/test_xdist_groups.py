"""The suite's scheduling: under ``./dev.sh test`` (pytest-xdist's ``--dist loadgroup``) the
tests of a file that share a fixture of the module's run in one worker, so the fixture (a
server, a cluster, printed sheets) starts once (tests/conftest.py). pytest 9.2 and xdist
3.8 together silently grouped nothing (pytest-dev/pytest-xdist#1386): this test fails if
grouping stops again."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def shared() -> str:
    """A fixture set up once for the module, as a module's server is."""
    return "once"


def test_a_test_that_shares_a_module_fixture_is_in_its_files_group(
    request: pytest.FixtureRequest, shared: str
) -> None:
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("the groups are pytest-xdist's --dist loadgroup's (./dev.sh test)")
    assert request.node.nodeid.endswith("@test_xdist_groups"), request.node.nodeid
