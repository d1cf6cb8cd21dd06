#!/bin/sh
# Set up spacetable's environment (uv, Python packages from uv.lock) and run it.
#   ./dev.sh serve         run the browser game (any `spacetable` command works the same way)
#   ./dev.sh test          lint, type-check, check the import layers and run the whole test suite
set -eu
cd "$(dirname "$0")"
# Python compiles a module once and keeps its bytecode in __pycache__; with
# PYTHONDONTWRITEBYTECODE set (some machines set it) every process compiles every module it
# imports again, which made each command and test process seconds slower.
unset PYTHONDONTWRITEBYTECODE

if command -v uv >/dev/null 2>&1; then
    UV=uv
elif python3 -m uv --version >/dev/null 2>&1; then
    UV="python3 -m uv"
else
    echo "dev.sh: installing uv with pip..." >&2
    python3 -m pip install --quiet --user uv 2>/dev/null \
        || python3 -m pip install --quiet --user --break-system-packages uv 2>/dev/null \
        || python3 -m pip install --quiet uv
    UV="python3 -m uv"
fi

if [ "${1:-}" = "test" ]; then
    # The tests also cover the optional extras (Ray for the lab's --ray, PettingZoo for
    # spacetable.envs).
    $UV sync --frozen --quiet --all-extras
else
    $UV sync --frozen --quiet
fi
if [ "${1:-}" = "test" ]; then
    shift
    # The browser tests drive Debian's Chromium; install it when we can.
    if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1; then
        echo "dev.sh: installing Debian's chromium for the browser tests..." >&2
        sudo=""
        [ "$(id -u)" = 0 ] || sudo="sudo"
        $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
    fi
    # The accessibility tests load axe-core from node_modules (package-lock.json pins it).
    if [ ! -f node_modules/axe-core/axe.min.js ] && command -v npm >/dev/null 2>&1; then
        echo "dev.sh: installing axe-core with npm ci for the accessibility tests..." >&2
        npm ci --no-audit --no-fund --silent
    fi
    # The numba kernels compile once, into their on-disk cache (about 30 CPU-seconds on one
    # core from nothing), beside the checks below and the test workers' collection. The
    # compiling process holds a lock (flock) that each test worker waits for once it has
    # collected its tests (tests/conftest.py), so that none compiles them again. Without
    # flock(1) the tests start once the kernels are compiled.
    lock=""
    if command -v flock >/dev/null 2>&1; then
        lock=$(mktemp "${TMPDIR:-/tmp}/spacetable-kernels.XXXXXX")
        trap 'rm -f "$lock"' EXIT
        exec 9>"$lock"
        flock 9  # held by the compiling process alone once this shell lets go below
    fi
    $UV run --frozen python -c "from spacetable.bots.lasers import warm_up; warm_up()" &
    compiling=$!
    [ -z "$lock" ] || exec 9>&-
    # pytest rewrites the asserts of each test module as it imports it and keeps the result
    # in __pycache__. From a fresh clone, the four workers below collected at once, and each
    # rewrote all 370 modules (and compiled the project's): 24 CPU-seconds a worker, where
    # one that finds them written takes 7. One collection here, beside the checks, writes
    # them once.
    $UV run --frozen pytest --collect-only -q -p no:randomly -p no:cacheprovider >/dev/null 2>&1 &
    collecting=$!
    $UV run --frozen ruff check src tests
    $UV run --frozen mypy
    $UV run --frozen lint-imports
    # The documentation site (mkdocs.yml, docs/) into site/: a link to a missing page or
    # anchor fails here. Not --quiet: it hides the warnings that --strict counts, and a
    # broken link passed. The variable hides Material's notice about MkDocs 2.0.
    NO_MKDOCS_2_WARNING=1 $UV run --frozen mkdocs build --strict
    # (its errors, if any, the run below reports)
    wait "$collecting" || true
    if [ -z "$lock" ]; then
        wait "$compiling"
        compiling=""
    fi
    # Two workers per core (pytest-xdist: the browser and server tests wait on pages,
    # sockets and processes half the time; on 2 cores 4 workers took 13.5 minutes where 2
    # took 18 and 6 took 14.7), a file's tests that share its servers, clusters or printed
    # sheets in one worker (--dist loadgroup and tests/conftest.py: they start once, not in
    # every worker), the slow folders first so that the run ends on short tests, in a
    # random order (pytest-randomly: a test that leans on another shows; it prints its
    # seed, and --randomly-seed=N runs that order again), and the ten slowest tests at the
    # end, so growth shows.
    cores=$(nproc 2>/dev/null || echo 2)
    status=0
    SPACETABLE_KERNELS_LOCK="$lock" $UV run --frozen pytest -n "$((cores * 2))" \
        --dist loadgroup --durations=10 "$@" || status=$?
    # The compile's own failure fails the run too (its error was printed above).
    [ -z "$compiling" ] || wait "$compiling"
    exit "$status"
fi
exec $UV run --frozen spacetable "$@"
