"""Spread a lab batch over this machine's cores or over Ray: ``spacetable duels --jobs N``,
``duels --ray`` and ``races --ray``.

The studies are lists of independent seeded calls (:mod:`spacetable.core.batch`), so a
batch gives the same results here, in several processes or on a cluster.
:func:`process_runner` runs them in a pool of processes of this machine (no extra needed).
:func:`ray_runner` starts a Ray for the
run on this machine (one worker per core) or joins an existing cluster by its address,
sends every call as a task, tells of each as it finishes, returns the results in the
batch's order and leaves Ray as it found it. Ray is an optional extra
(``spacetable[cluster]``): without it, the error says how to install it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Annotated, Any

import typer

from spacetable._number_options import within
from spacetable.core.batch import Call, Progress, Runner, run_here

#: The commands' ``--ray`` flag.
RayFlag = Annotated[
    bool,
    typer.Option(
        "--ray",
        help="Spread the games over Ray: a local Ray on every core, started for the run "
        "(needs the 'cluster' extra). The results are the same as without it.",
    ),
]
#: The commands' ``--ray-address`` option.
RayAddress = Annotated[
    str | None,
    typer.Option(
        "--ray-address",
        help="Join the Ray cluster at this address (e.g. ray://head:10001 or auto) instead "
        "of starting one; implies --ray.",
    ),
]

#: The commands' ``--jobs`` option.
JobsOption = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        callback=within(1, 1024),
        help="Processes to spread the games over on this machine (e.g. its cores). The "
        "results are the same as with one.",
    ),
]

#: What to install when Ray is missing.
INSTALL_HINT = (
    "--ray needs Ray, the optional 'cluster' extra: `uv sync --extra cluster` in a checkout, "
    "or `pip install 'spacetable[cluster]'`"
)


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached."""


def _start(ray: Any, address: str | None, settings: dict[str, Any]) -> None:
    """Start a local Ray (``address`` ``None``) or join a cluster. A local start is tried
    twice: on a busy machine Ray's raylet gives up on its agents after a fixed wait (Ray
    issue 65983), and the second start finds their code already read from disk."""
    if address is not None:
        ray.init(address=address, **settings)
        return
    try:
        ray.init(num_cpus=os.cpu_count() or 1, **settings)
    except Exception:  # see above: a bare Exception
        ray.shutdown()
        ray.init(num_cpus=os.cpu_count() or 1, **settings)


def _make_call(call: Call[Any]) -> Any:
    """Run one call in a worker (a module-level function, so that workers import it)."""
    return call()


@contextmanager
def ray_runner(address: str | None = None) -> Iterator[Runner]:
    """A runner of batches on Ray: a local Ray started for the run (``address`` ``None``,
    one worker per core, stopped at the end) or the cluster at ``address`` (e.g.
    ``ray://head:10001`` or ``auto``), left running. Raises :class:`RayUnavailable` when
    Ray is not installed or the address does not answer."""
    if address is None:
        # The local workers run this very interpreter, whose environment has spacetable:
        # Ray's own `uv run` hook would instead rebuild the environment from the working
        # directory, which fails anywhere but the project's root.
        os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    try:
        import ray
    except ImportError as exc:
        raise RayUnavailable(INSTALL_HINT) from exc
    settings: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,
        "logging_level": "ERROR",
        "configure_logging": True,
    }
    try:
        _start(ray, address, settings)
    except Exception as exc:  # Ray raises a bare Exception when its node does not start
        where = "a local Ray" if address is None else f"the Ray cluster at {address}"
        raise RayUnavailable(f"could not start {where}: {exc}") from exc
    remote = ray.remote(num_cpus=1, max_retries=1)(_make_call)

    def run(calls: Sequence[Call[Any]], progress: Progress[Any] | None = None) -> list[Any]:
        index = {remote.remote(call): k for k, call in enumerate(calls)}
        results: list[Any] = [None] * len(calls)
        pending = list(index)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                k = index[ref]
                results[k] = ray.get(ref)
                if progress is not None:
                    progress(k, results[k])
        return results

    try:
        yield run
    finally:
        ray.shutdown()


@contextmanager
def process_runner(jobs: int) -> Iterator[Runner]:
    """A runner of batches on ``jobs`` processes of this machine, each call in one of them
    (the calls and their results are pickled); results in the batch's order, each told
    as it finishes. The pool is shut down at the end, its work cancelled on an error."""
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait  # --jobs only

    with ProcessPoolExecutor(max_workers=jobs) as pool:

        def run(calls: Sequence[Call[Any]], progress: Progress[Any] | None = None) -> list[Any]:
            index = {pool.submit(_make_call, call): k for k, call in enumerate(calls)}
            results: list[Any] = [None] * len(calls)
            pending = set(index)
            try:
                while pending:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in sorted(done, key=index.__getitem__):
                        k = index[future]
                        results[k] = future.result()
                        if progress is not None:
                            progress(k, results[k])
            finally:
                for future in pending:
                    future.cancel()
            return results

        yield run


def runner_for(use_ray: bool, address: str | None, jobs: int = 1) -> AbstractContextManager[Runner]:
    """The runner the commands' ``--ray`` / ``--ray-address`` / ``--jobs`` ask for: Ray if
    either of the first is given, else ``jobs`` processes here, else one call after
    another in this process."""
    if use_ray or address is not None:
        return ray_runner(address)
    if jobs > 1:
        return process_runner(jobs)
    return nullcontext(run_here)
