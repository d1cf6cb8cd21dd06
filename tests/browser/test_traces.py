"""A browser test that fails keeps a Playwright trace of its pages, and its report names the
file (issue 68 item 5): CI's log says which trace to open, and the trace shows the page as
the test left it (tests/browser/_pages.py, tests/browser/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.browser.conftest import OpenPage

#: Set for the run of :func:`test_fails_on_purpose` (a pytest in a subprocess).
ON_PURPOSE = "SPACETABLE_FAIL_ON_PURPOSE"
#: What the failing test's page says: found again in its trace's snapshots.
PAGE_TEXT = "The fleet that failed on purpose"


@pytest.mark.skipif(not os.environ.get(ON_PURPOSE), reason="run by test_a_failed_test_keeps...")
def test_fails_on_purpose(open_page: OpenPage) -> None:
    page = open_page("about:blank")
    page.set_content(f"<main><h1>{PAGE_TEXT}</h1><button>Fire</button></main>")
    page.get_by_role("button", name="Fire").click()
    raise AssertionError("failed on purpose: its trace is kept")


def test_a_failed_test_keeps_its_trace(tmp_path: Path) -> None:
    """A failed browser test (run by a pytest of its own) leaves its trace where its
    report says, with the page it failed on in it."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, ON_PURPOSE: "1", "SPACETABLE_TRACES_DIR": str(tmp_path)}
    env.pop("PYTEST_XDIST_WORKER", None)
    here = Path(__file__).relative_to(root).as_posix()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:randomly", "-p", "no:cacheprovider", "-q",
         f"{here}::test_fails_on_purpose"],
        cwd=root, env=env, capture_output=True, text=True, timeout=240, check=False,
    )  # fmt: skip
    assert run.returncode == 1, run.stdout + run.stderr
    traces = list(tmp_path.glob("*.zip"))
    assert [t.name for t in traces] == ["tests-browser-test_traces.py-test_fails_on_purpose.zip"], (
        run.stdout
    )
    trace = traces[0]
    assert "Playwright trace" in run.stdout
    assert f"uv run playwright show-trace {trace}" in run.stdout
    with zipfile.ZipFile(trace) as archive:
        recorded = "".join(
            archive.read(name).decode(errors="replace")
            for name in archive.namelist()
            if name.endswith(".trace")
        )
    # The actions up to the failure: the page as it was set, then the click on Fire.
    assert PAGE_TEXT in recorded
    assert 'internal:role=button[name=\\"Fire\\"i]' in recorded
