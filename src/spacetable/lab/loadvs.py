"""The load benchmark side by side with another commit: ``spacetable loadtest --vs REF``.

REF is checked out in a temporary git worktree (``git worktree add --detach``, removed at
the end, also after an error or Ctrl-C), and what its server compiles as it starts is
compiled once before the runs (:func:`warm`). Runs alternate in pairs, REF then the current
code, each with a fresh server: REF's server is this interpreter with the worktree's
``src`` first on its ``PYTHONPATH`` (:attr:`~spacetable.lab.loadtest.LoadSettings.source`),
so it imports REF's code with today's installed dependencies; the load clients are the
current code in both runs (they measure the server). Every run's report names the package
its server imported, and a REF run whose server did not import the worktree's is an error.

The result gives, for each pair, the current run's server core and pose and place p99
divided by REF's, and their medians over the pairs (:func:`ratios`): below 1 the current
code is cheaper or faster. Alternating keeps the machine's drift out of the comparison
as far as it can be (docs/performance.md: compare only runs interleaved within minutes).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import spacetable
from spacetable.lab.loadtest import LoadSettings, run_loadtest, server_env

#: What :func:`ratios` compares: its name, and where a run's report holds it.
COMPARED = {
    "server_core": ("server_cpu_percent",),
    "pose_p99": ("pose_latency_ms", "p99"),
    "place_p99": ("place_latency_ms", "p99"),
}


class VsError(ValueError):
    """``--vs`` cannot run: no git repository, an unknown REF, or REF's server not
    running REF's code. The message is one line for the user."""


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=False
    )


def repository(code: Path | None = None) -> Path:
    """The top of the git worktree holding ``code`` (default: this ``spacetable``
    package, the code the current runs serve)."""
    where = code or Path(spacetable.__file__).resolve().parent
    try:
        found = _git(where, "rev-parse", "--show-toplevel")
    except FileNotFoundError as missing:
        raise VsError("--vs needs git, which is not installed") from missing
    if found.returncode != 0:
        raise VsError(f"--vs needs the spacetable source in a git repository, not {where}")
    return Path(found.stdout.strip())


def resolve_commit(repo: Path, ref: str) -> str:
    """The full hash of the commit ``ref`` names in ``repo``; :class:`VsError` naming
    ``ref`` if it names none."""
    found = _git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
    if found.returncode != 0 or not ref:
        raise VsError(f"--vs: {ref!r} names no commit in {repo}")
    return found.stdout.strip()


def dirty(repo: Path) -> bool:
    """Whether tracked files of ``repo``'s worktree differ from its HEAD (the current
    runs serve those changes too)."""
    return bool(_git(repo, "status", "--porcelain", "--untracked-files=no").stdout.strip())


def lock_differs(repo: Path, commit: str) -> bool:
    """Whether ``uv.lock`` at ``commit`` differs from the worktree's, whose dependencies
    are installed: REF's server then runs with dependencies it was not locked with."""
    return _git(repo, "diff", "--quiet", commit, "--", "uv.lock").returncode != 0


@contextlib.contextmanager
def ref_worktree(repo: Path, commit: str) -> Iterator[Path]:
    """``commit`` checked out (detached) in a temporary worktree of ``repo``, removed
    afterwards however the block ends."""
    tree = Path(tempfile.mkdtemp(prefix="spacetable-vs-"))
    try:
        added = _git(repo, "worktree", "add", "--detach", str(tree), commit)
        if added.returncode != 0:
            raise VsError(f"--vs: git worktree add failed: {added.stderr.strip()}")
        yield tree
    finally:
        # --force: the runs leave byte code and numba's cache in the tree.
        _git(repo, "worktree", "remove", "--force", str(tree))
        shutil.rmtree(tree, ignore_errors=True)
        _git(repo, "worktree", "prune")


#: What a server compiles as it starts (numba's kernels, cached in the tree), run alone.
_WARM_UP = "from spacetable.server.app import warm_up; warm_up()"


def warm(source: Path | None) -> str | None:
    """Compile (or load) what the server of ``source`` (None: this code) warms up as it
    starts, in a process of its own run to its end. A fresh worktree has no numba cache:
    its server compiles for a minute or more, and on a busy machine it can look settled
    to the readiness check (:meth:`~spacetable.lab.loadtest.ServerProcess.wait_ready`)
    while it is still compiling, and miss a whole run. None when done, else why not."""
    done = subprocess.run(
        [sys.executable, "-c", _WARM_UP],
        env=server_env(source, os.environ),
        cwd=source,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode == 0:
        return None
    said = done.stderr.strip().splitlines() or [f"status {done.returncode}"]
    return said[-1]


def _value(report: Mapping[str, Any], where: Sequence[str]) -> float | None:
    value: Any = report
    for key in where:
        value = value[key]
    return None if value is None else float(value)


def ratios(pairs: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]]) -> dict[str, Any]:
    """For each of :data:`COMPARED`, the current run's figure over REF's in every pair
    (``(ref_report, current_report)``), rounded to 0.01, and the median of those (None
    where a figure is missing or REF's is 0)."""
    found: dict[str, Any] = {}
    for name, where in COMPARED.items():
        each: list[float | None] = []
        for ref, current in pairs:
            before, after = _value(ref, where), _value(current, where)
            each.append(None if before is None or after is None or before == 0 else after / before)
        known = [ratio for ratio in each if ratio is not None]
        found[name] = {
            "median": round(statistics.median(known), 2) if known else None,
            "each": [None if ratio is None else round(ratio, 2) for ratio in each],
        }
    return found


def ratio_line(result: Mapping[str, Any]) -> str:
    """One human line: the medians of :func:`ratios`, current over REF."""
    shown = []
    for name, label in (("server_core", "server core"), ("pose_p99", "pose p99"),
                        ("place_p99", "place p99")):  # fmt: skip
        median = result["ratios"][name]["median"]
        shown.append(f"{label} {'-' if median is None else f'{median:.2f}x'}")
    return (
        f"current / {result['ref']} ({result['ref_commit'][:7]}), median of "
        f"{result['pairs']} pair{'s' if result['pairs'] > 1 else ''}: " + ", ".join(shown)
    )


def _served_by(report: Mapping[str, Any], tree: Path) -> bool:
    return Path(report["server_code"]).resolve().is_relative_to(tree.resolve())


def run_vs(
    base: LoadSettings,
    ref: str,
    pairs: int = 2,
    progress: Callable[[str, dict[str, Any]], None] | None = None,
    warn: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run ``base`` in ``pairs`` interleaved pairs, REF's code then the current, and
    report every run (labelled ``code``, with its ``commit``) and the :func:`ratios`.
    ``progress(label, report)`` is called after each run, ``warn(text)`` for each
    warning about the comparison itself (also in the result's ``warnings``)."""
    if pairs < 1:
        raise ValueError("pairs must be >= 1")
    repo = repository()
    commit = resolve_commit(repo, ref)
    head = resolve_commit(repo, "HEAD")
    changed = dirty(repo)
    ref_label = commit[:7] if commit.startswith(ref) else f"{commit[:7]} ({ref})"
    current_label = f"{head[:7]}{'+' if changed else ''} (current)"
    warnings: list[str] = []

    def note(warning: str) -> None:
        warnings.append(warning)
        if warn is not None:
            warn(warning)

    if lock_differs(repo, commit):
        note(
            f"uv.lock differs between {ref} and this tree: {ref}'s server runs with "
            "today's installed dependencies, not those it was locked with"
        )
    runs: list[dict[str, Any]] = []
    with ref_worktree(repo, commit) as tree:
        for label, source in ((ref_label, tree), (current_label, None)):
            if (failed := warm(source)) is not None:
                note(
                    f"could not warm up {label}'s server ahead ({failed}): its first run "
                    "may include its compiling"
                )
        for _ in range(pairs):
            for label, source, sha in ((ref_label, tree, commit), (current_label, None, head)):
                report = run_loadtest(dataclasses.replace(base, source=source))
                if source is not None and not _served_by(report, tree):
                    raise VsError(
                        f"--vs: {ref}'s server imported {report['server_code']}, "
                        f"not the worktree {tree}"
                    )
                report = {"code": label, "commit": sha, **report}
                runs.append(report)
                if progress is not None:
                    progress(label, report)
    return {
        "ref": ref,
        "ref_commit": commit,
        "current_commit": head,
        "current_has_changes": changed,
        "pairs": pairs,
        "ratios": ratios(list(zip(runs[0::2], runs[1::2], strict=True))),
        "warnings": warnings,
        "runs": runs,
    }
