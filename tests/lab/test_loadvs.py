"""``spacetable loadtest --vs REF``: the worktree of REF, the code its server imports, the
order of the runs and the ratios. A real comparison starts two servers and compiles REF's
kernels (most of a minute): the runs here are stand-ins, the worktree and git are real."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import spacetable
from spacetable.cli import app
from spacetable.lab import loadvs
from spacetable.lab.loadtest import LoadSettings, imported_from, server_env
from spacetable.lab.loadvs import (
    VsError,
    ratio_line,
    ratios,
    ref_worktree,
    repository,
    resolve_commit,
    run_vs,
    warm,
)


@pytest.fixture(scope="module")
def repo() -> Path:
    try:
        return repository()
    except VsError as error:
        pytest.skip(str(error))


def _worktrees(repo: Path) -> str:
    listed = subprocess.run(
        ["git", "-C", str(repo), "worktree", "list", "--porcelain"],
        capture_output=True,
        text=True,
        check=True,
    )
    return listed.stdout


def _report(server: float, pose: float | None, place: float, code: str = "") -> dict[str, Any]:
    return {
        "server_cpu_percent": server,
        "pose_latency_ms": {"p99": pose},
        "place_latency_ms": {"p99": place},
        "server_code": code,
    }


def test_the_ratios_are_current_over_ref_with_their_median_over_the_pairs() -> None:
    pairs = [
        (_report(50.0, 30.0, 20.0), _report(45.0, 30.0, 10.0)),
        (_report(40.0, 30.0, 20.0), _report(44.0, 33.0, 30.0)),
        (_report(50.0, None, 0.0), _report(40.0, 30.0, 10.0)),
    ]
    found = ratios(pairs)
    assert found["server_core"] == {"median": 0.9, "each": [0.9, 1.1, 0.8]}
    # A missing figure, or REF's 0, gives no ratio and is left out of the median.
    assert found["pose_p99"] == {"median": 1.05, "each": [1.0, 1.1, None]}
    assert found["place_p99"] == {"median": 1.0, "each": [0.5, 1.5, None]}
    line = ratio_line({"ref": "v1", "ref_commit": "0123456789", "pairs": 3, "ratios": found})
    assert line == (
        "current / v1 (0123456), median of 3 pairs: "
        "server core 0.90x, pose p99 1.05x, place p99 1.00x"
    )


def test_an_unknown_ref_is_named(repo: Path) -> None:
    with pytest.raises(VsError, match="'no-such-ref' names no commit in "):
        resolve_commit(repo, "no-such-ref")
    with pytest.raises(VsError, match="'--help' names no commit"):  # not an option to git
        resolve_commit(repo, "--help")
    assert len(resolve_commit(repo, "HEAD")) == 40


def test_the_cli_refuses_an_unknown_ref_in_one_line(repo: Path) -> None:
    refused = CliRunner().invoke(app, ["loadtest", "--rooms", "2", "--vs", "no-such-ref"])
    assert refused.exit_code == 2
    assert refused.output.strip().splitlines()[-1] == (
        f"spacetable: error: --vs: 'no-such-ref' names no commit in {repo}"
    )
    missing = CliRunner().invoke(app, ["loadtest", "--vs", "HEAD"])
    assert missing.exit_code == 2
    assert "--vs: give --rooms" in missing.output


def test_refs_server_imports_the_worktrees_code_and_the_worktree_goes(repo: Path) -> None:
    head = resolve_commit(repo, "HEAD")
    with ref_worktree(repo, head) as tree:
        assert (tree / "src" / "spacetable" / "__init__.py").is_file()
        assert str(tree) in _worktrees(repo)
        # The server's environment and directory (LoadSettings.source) import REF's code.
        assert imported_from(server_env(tree, {"PATH": "/usr/bin"}), tree) == str(
            tree / "src" / "spacetable"
        )
    assert not tree.exists()
    assert str(tree) not in _worktrees(repo)


def test_the_worktree_goes_on_ctrl_c_too(repo: Path) -> None:
    with pytest.raises(KeyboardInterrupt), ref_worktree(repo, "HEAD") as tree:
        raise KeyboardInterrupt
    assert not tree.exists()
    assert str(tree) not in _worktrees(repo)


@pytest.fixture
def stand_in_runs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Path | None]]:
    """Runs that start no server: each reports the tree it was given, REF's server
    getting slower with each run."""
    sources: list[Path | None] = []

    def run(settings: LoadSettings) -> dict[str, Any]:
        sources.append(settings.source)
        n = len(sources)
        if settings.source is None:
            return _report(40.0, 20.0, 10.0, str(Path(spacetable.__file__).parent))
        return _report(40.0 + 10 * n, 20.0, 10.0, str(settings.source / "src" / "spacetable"))

    monkeypatch.setattr(loadvs, "run_loadtest", run)
    monkeypatch.setattr(loadvs, "warm", lambda _: None)
    yield sources


def test_runs_alternate_ref_then_current(repo: Path, stand_in_runs: list[Path | None]) -> None:
    seen: list[str] = []
    result = run_vs(LoadSettings(rooms=2), "HEAD", 2, lambda label, _: seen.append(label))
    ref_tree = stand_in_runs[0]
    assert ref_tree is not None and not ref_tree.exists()  # removed at the end
    assert stand_in_runs == [ref_tree, None, ref_tree, None]
    head = resolve_commit(repo, "HEAD")
    assert seen[0] == f"{head[:7]} (HEAD)" and seen[1].startswith(head[:7])
    assert seen[1].endswith("(current)") and seen[2:] == seen[:2]
    assert [run["commit"] for run in result["runs"]] == [head] * 4
    # REF's server: 50% then 70%, the current one's 40% each time.
    assert result["ratios"]["server_core"] == {"median": 0.69, "each": [0.8, 0.57]}
    assert result["warnings"] == []  # the same uv.lock


def test_a_ref_server_that_imports_other_code_is_an_error(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loadvs, "run_loadtest", lambda _: _report(1.0, 1.0, 1.0, "/elsewhere"))
    monkeypatch.setattr(loadvs, "warm", lambda _: None)
    with pytest.raises(VsError, match="HEAD's server imported /elsewhere, not the worktree"):
        run_vs(LoadSettings(rooms=2), "HEAD", 1)


def test_a_different_lock_is_warned_of(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loadvs, "lock_differs", lambda *_: True)
    monkeypatch.setattr(loadvs, "warm", lambda _: None)
    monkeypatch.setattr(loadvs, "run_loadtest", lambda s: _report(1.0, 1.0, 1.0, str(s.source)))
    warned: list[str] = []
    result = run_vs(LoadSettings(rooms=2), "HEAD", 1, warn=warned.append)
    assert warned == result["warnings"]
    assert "uv.lock differs between HEAD and this tree" in warned[0]


def test_a_trees_server_is_warmed_up_to_its_end_before_the_runs(tmp_path: Path) -> None:
    # A stand-in tree whose server's warm-up leaves a mark.
    app = tmp_path / "src" / "spacetable" / "server" / "app.py"
    app.parent.mkdir(parents=True)
    for package in (app.parent, app.parent.parent):
        (package / "__init__.py").write_text("")
    app.write_text("def warm_up():\n    open('warmed', 'w').close()\n")
    assert warm(tmp_path) is None
    assert (tmp_path / "warmed").is_file()  # in the tree, as its server runs
    # A tree whose server has no warm-up: why, in a line.
    app.write_text("")
    assert "ImportError: cannot import name 'warm_up'" in (warm(tmp_path) or "")


def test_a_failed_warm_up_is_warned_of(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loadvs, "warm", lambda source: "no warm_up" if source else None)
    monkeypatch.setattr(loadvs, "run_loadtest", lambda s: _report(1.0, 1.0, 1.0, str(s.source)))
    result = run_vs(LoadSettings(rooms=2), "HEAD", 1)
    (warning,) = result["warnings"]
    assert (
        warning.startswith("could not warm up ") and "(HEAD)'s server ahead (no warm_up)" in warning
    )


def test_a_ref_given_as_a_hash_is_labelled_by_it_alone(
    repo: Path, stand_in_runs: list[Path | None]
) -> None:
    head = resolve_commit(repo, "HEAD")
    result = run_vs(LoadSettings(rooms=2), head[:10], 1)
    assert result["runs"][0]["code"] == head[:7]
