"""``spacetable`` processes forked from one that has imported it already.

A test of what only a process shows (a ``kill -9`` and the rooms rebuilt, a cluster's
processes behind the balancer, a storage fault) starts ``spacetable serve`` processes,
about 120 a run, and the command line's tests run ``spacetable`` about 190 times. Each
process paid for its imports (a server: FastAPI, SQLAlchemy, NumPy, the games, about 1.1
of its 1.6 CPU-seconds to ready) before it did what its test is about. Here each test
worker keeps one *fork server* (:class:`ForkServer`): a process that imports the package
once, then forks a child for each command asked of it. A child is a process like any other
(its own pid, ports, files and signals; ``kill -9`` ends it; its standard output and error
are the test's pipe), running the command as ``python -m spacetable`` would from its
``main``, with the environment and working folder asked for; what it does not pay is the
imports, nor the load of the bots' compiled kernels (the fork server loads them once, from
the cache ``dev.sh`` filled; a child's own load of them is then nearly free). (Python's
``multiprocessing`` forkserver does the same for functions; this one passes the test's
pipe and gives the exit status back, as ``subprocess.Popen`` does.)

The tests of a process's start itself (its imports, ``--workers``, a database opened by
processes starting together, a game added by ``SPACETABLE_GAMES``) still exec Python.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import io
import json
import os
import select
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: (spacetable.registry's variable: the games it names are loaded once, by the fork server)
GAMES_VARIABLE = "SPACETABLE_GAMES"

#: What the fork server imports before its first fork: what ``spacetable serve`` loads.
PRELOADED = ("spacetable.cli", "spacetable.server.app")


class ForkedProcess:
    """A process the fork server started: the part of ``subprocess.Popen``'s interface
    the tests use (``pid``, ``stdout``, ``stderr``, ``poll``, ``wait``, ``terminate``,
    ``kill``, ``send_signal``, ``communicate``, ``returncode``). Its exit status comes from
    the fork server, which reaps it, over a pipe of its own."""

    def __init__(
        self, pid: int, args: list[str], stdout: int, stderr: int | None, status: int
    ) -> None:
        self.pid = pid
        self.args = args
        self.stdout: io.TextIOWrapper | None = _text(stdout)
        self.stderr: io.TextIOWrapper | None = None if stderr is None else _text(stderr)
        self.returncode: int | None = None
        self._status = status

    def poll(self) -> int | None:
        if self.returncode is None and select.select([self._status], [], [], 0)[0]:
            self._collect()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            if not select.select([self._status], [], [], timeout)[0]:
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
            self._collect()
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:  # (not a pid the system may have given another process)
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def communicate(self, timeout: float | None = None) -> tuple[str, str | None]:
        """What it writes to the end (the pipes close as it ends), then its status; with
        its errors apart, both pipes are read as they fill (``subprocess``'s way), and past
        ``timeout`` seconds it is killed and ``TimeoutExpired`` raised."""
        if self.stderr is None:
            output = ""
            if self.stdout is not None and not self.stdout.closed:
                output = self.stdout.read()
                self.stdout.close()
            self.wait(timeout)
            return output, None
        assert self.stdout is not None
        said = _read_both(self.stdout, self.stderr, timeout)
        if said is None:
            self.kill()
            self.wait()
            raise subprocess.TimeoutExpired(self.args, timeout or 0)
        self.wait()
        return said

    def _collect(self) -> None:
        said = os.read(self._status, 64)
        os.close(self._status)
        # Nothing said: the fork server itself is gone (the worker ending); as a kill.
        self.returncode = int(said) if said else -signal.SIGKILL


def _text(fd: int) -> io.TextIOWrapper:
    return open(fd, encoding="utf-8", errors="replace")  # (the caller closes it)


def _read_both(
    out: io.TextIOWrapper, err: io.TextIOWrapper, timeout: float | None
) -> tuple[str, str] | None:
    """Both pipes read to their ends and closed; None (they are closed) past ``timeout``."""
    chunks: dict[int, list[bytes]] = {out.fileno(): [], err.fileno(): []}
    deadline = None if timeout is None else time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        for fd in chunks:
            selector.register(fd, selectors.EVENT_READ)
        while selector.get_map():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            for key, _ in selector.select(left):
                chunk = os.read(key.fd, 1 << 16)
                if chunk:
                    chunks[key.fd].append(chunk)
                else:
                    selector.unregister(key.fd)
        finished = not selector.get_map()
    said = tuple(b"".join(chunks[pipe.fileno()]).decode("utf-8", "replace") for pipe in (out, err))
    out.close()
    err.close()
    return (said[0], said[1]) if finished else None


class ForkServer:
    """The worker's fork server: a ``python`` process that has imported :data:`PRELOADED`
    and forks a child for each :meth:`spawn`. It ends when the worker does (its end of the
    control socket closes)."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = {**os.environ, "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS", "1")}
        self.process = subprocess.Popen(
            [sys.executable, "-c", f"from tests._forks import serve; serve({theirs.fileno()})"],
            cwd=ROOT,
            env=env,
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
        )
        theirs.close()
        self.control = ours
        self.games = env.get(GAMES_VARIABLE)
        self.lock = threading.Lock()

    def spawn(
        self,
        args: Sequence[str],
        *,
        cwd: Path = ROOT,
        env: Mapping[str, str] | None = None,
        errors_apart: bool = False,
    ) -> ForkedProcess:
        """``spacetable ARGS`` in a child, its output on a pipe and its errors on the same
        one (as ``Popen(..., stdout=PIPE, stderr=STDOUT, text=True)``) or, with
        ``errors_apart``, on a second."""
        environment = dict(os.environ if env is None else env)
        if environment.get(GAMES_VARIABLE) != self.games:
            # (the fork server's registry has loaded its games: :func:`spawn` execs these)
            raise ValueError(f"a child of the fork server cannot change {GAMES_VARIABLE}")
        pipes = [os.pipe() for _ in range(3 if errors_apart else 2)]
        asked = {"args": list(args), "cwd": str(cwd), "env": environment}
        try:
            with self.lock:
                message = [json.dumps(asked).encode()]
                socket.send_fds(self.control, message, [write for _, write in pipes])
                answer = self.control.recv(64)
        finally:
            for _, write in pipes:
                os.close(write)
        if not answer:
            for read, _ in pipes:
                os.close(read)
            raise RuntimeError(f"the fork server ended (status {self.process.wait()})")
        out, *err, status = (read for read, _ in pipes)
        return ForkedProcess(int(answer), ["spacetable", *args], out, next(iter(err), None), status)

    def close(self) -> None:
        self.control.close()
        self.process.wait(timeout=30)


@functools.cache
def fork_server() -> ForkServer:
    """This worker's fork server, started at its first use."""
    server = ForkServer()
    atexit.register(server.close)
    return server


#: A process of the tests: forked (:class:`ForkedProcess`) or, for a game added by
#: ``SPACETABLE_GAMES``, exec'd.
Process = ForkedProcess | subprocess.Popen[str]


def spawn(
    args: Sequence[str], *, cwd: Path = ROOT, env: Mapping[str, str] | None = None
) -> Process:
    """``spacetable ARGS`` as a process forked from this worker's fork server, its output
    and errors on one pipe, ``stdout``. With a ``SPACETABLE_GAMES`` other than the fork
    server's (whose registry has loaded its games), exec'd instead."""
    environment = dict(os.environ if env is None else env)
    server = fork_server()
    if environment.get(GAMES_VARIABLE) == server.games:
        return server.spawn(args, cwd=cwd, env=environment)
    return subprocess.Popen(
        [sys.executable, "-m", "spacetable", *args],
        cwd=cwd,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def run(
    args: Sequence[str], *, cwd: Path = ROOT, env: Mapping[str, str] | None = None, timeout: float
) -> subprocess.CompletedProcess[str]:
    """``spacetable ARGS`` run to its end, as ``subprocess.run(..., capture_output=True,
    text=True, timeout=timeout)`` runs it: forked, or exec'd as :func:`spawn` says."""
    environment = dict(os.environ if env is None else env)
    server = fork_server()
    if environment.get(GAMES_VARIABLE) != server.games:
        command = [sys.executable, "-m", "spacetable", *args]
        return subprocess.run(
            command, cwd=cwd, env=environment, capture_output=True, text=True, timeout=timeout
        )
    process = server.spawn(args, cwd=cwd, env=environment, errors_apart=True)
    out, err = process.communicate(timeout)
    assert process.returncode is not None
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


# --- the fork server's side -------------------------------------------------------------


def serve(fd: int) -> None:
    """The fork server's loop (run by ``python -c``): import, then fork a child for each
    request on the control socket ``fd``; reap the children and write each one's exit
    status to its status pipe; end when the control socket closes."""
    import importlib

    for name in PRELOADED:
        importlib.import_module(name)
    # The bots' compiled kernels, loaded from their cache, for every child (each serve
    # loads them as it starts: about 0.3 CPU-s a child when the fork server had not).
    # (Their threads stopped: a fork with threads running could copy a lock one holds.)
    from spacetable.lasers.fast import stop_batch_threads
    from spacetable.server.app import warm_up

    warm_up()
    stop_batch_threads()
    control = socket.socket(fileno=fd)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    statuses: dict[int, int] = {}
    while True:
        ready = select.select([control.fileno(), wake_read], [], [])[0]
        if wake_read in ready:
            os.read(wake_read, 512)
            _reap(statuses)
        if control.fileno() in ready:
            message, fds, _, _ = socket.recv_fds(control, 1 << 20, 3)
            if not message:
                return  # the worker is gone; children still running are its tests' to end
            asked: dict[str, Any] = json.loads(message)
            *outs, status = fds
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:  # (the other children's status pipes are not this one's)
                for fd_ in (status, control.fileno(), wake_read, wake_write, *statuses.values()):
                    os.close(fd_)
                _child(asked, outs)
            for out in outs:
                os.close(out)
            statuses[pid] = status
            control.send(str(pid).encode())


def _reap(statuses: dict[int, int]) -> None:
    while statuses:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        pipe = statuses.pop(pid, None)
        if pipe is not None:
            with contextlib.suppress(OSError):  # (nobody left to read it)
                os.write(pipe, str(os.waitstatus_to_exitcode(status)).encode())
            os.close(pipe)


def _child(asked: dict[str, Any], outs: list[int]) -> None:
    """In the child: the test's pipe as stdout and stderr (or its two pipes), its folder
    and environment, then ``spacetable``'s ``main`` with its arguments; exit with its
    status."""
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(outs[0], 1)
    os.dup2(outs[-1], 2)
    os.close(null)
    for out in outs:
        os.close(out)
    os.chdir(asked["cwd"])
    os.environ.clear()
    os.environ.update(asked["env"])
    sys.argv = ["spacetable", *asked["args"]]
    code: int = 0
    try:
        from spacetable.cli import main

        main()
    except SystemExit as exit_:
        if isinstance(exit_.code, int) or exit_.code is None:
            code = exit_.code or 0
        else:
            print(exit_.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        try:
            atexit._run_exitfuncs()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)
