"""The browser's files (``web/``: scripts, stylesheets, the icon) at ``/static``, each also
at an address that names their version, which browsers may keep for good.

A page loads some forty scripts and stylesheets. Served at plain addresses with no
``Cache-Control``, a browser guessed how long to keep each from the file's age: right after
an install or an upgrade that is seconds, and every page opened asked for all forty-odd
again (a conditional request each, answered "not modified") before it could draw; later,
a browser could keep the last release's scripts beside a new one's. A page now names them
under ``/static/v-<digest>/``, the digest of every file served (:func:`files_version`): a
file at such an address never changes, so it is sent with ``Cache-Control: immutable`` for
a year, and a page opened after the first asks for none of them. A new release has other
files, so another digest and other addresses. A file edited while the server runs (a
developer's) makes a new version too, for the pages served from then on.

The page's import map (``web/head.html``) sends the scripts' plain addresses
(``/static/js/...``, as a game's ``client`` and a game from outside the package import
them) to the versioned ones, so one module is never loaded twice under two addresses.
The plain addresses still answer, with ``no-cache`` (asked again each time), and so does
an address of another version (a page from a newer or older process of a cluster, during
a rolling restart): the files this process has, kept no longer than the request.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Mapping
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

#: The first segment of a versioned address.
_VERSION = re.compile(r"v-[0-9a-f]{12}")
#: Where a request's version is noted in its scope, for :meth:`Assets.file_response`.
_SCOPE_KEY = "spacetable.files_version"
#: A versioned address's files never change: kept by the browser for a year, unasked.
IMMUTABLE = "public, max-age=31536000, immutable"
#: Plain addresses: kept, but asked again (a conditional request) before each use.
REVALIDATE = "no-cache"


def _files(folders: Mapping[str, Path]) -> list[tuple[str, Path]]:
    """Every file under ``folders``, by its address under ``/static``, in order."""
    found = [
        (f"{prefix}/{path.relative_to(folder).as_posix()}", path)
        for prefix, folder in folders.items()
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    ]
    return sorted(found)


def files_version(folders: Mapping[str, Path]) -> str:
    """``v-`` and a digest of every file under ``folders`` (each served at its key, a
    path under ``/static``): their addresses and contents, so that any change to any
    file makes a new version. Reads the files (about 1.5 MB: milliseconds)."""
    digest = hashlib.blake2b(digest_size=6)
    for address, path in _files(folders):
        digest.update(f"{address}\0".encode())
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return f"v-{digest.hexdigest()}"


def _signature(folders: Mapping[str, Path]) -> tuple[tuple[str, int, int], ...]:
    """What changes when a file is edited, added or removed: addresses, sizes, times."""
    signature = []
    for address, path in _files(folders):
        status = path.stat()
        signature.append((address, status.st_size, status.st_mtime_ns))
    return tuple(signature)


class Assets(StaticFiles):
    """``directory``'s files, and each of ``folders``' files at its key (a game from
    outside the package serves its module from its own folder, at
    ``js/games/<key>``), at plain and versioned addresses (see the module's docstring)."""

    def __init__(
        self, directory: Path, folders: Mapping[str, Path] | None = None, recheck: float = 1.0
    ) -> None:
        super().__init__(directory=str(directory))
        #: Seconds between two looks at the files for edits (:attr:`prefix`).
        self.recheck = recheck
        self.folders = {
            os.path.normpath(prefix): StaticFiles(directory=str(folder))
            for prefix, folder in (folders or {}).items()
        }
        self._served = {"": directory, **(folders or {})}
        self._signature = _signature(self._served)
        self._looked = time.monotonic()
        self.version = files_version(self._served)

    @property
    def prefix(self) -> str:
        """Where the files are now: ``/static/v-<digest>``. Files edited while the server
        runs (a developer's) make a new version, looked for every :attr:`recheck` s."""
        now = time.monotonic()
        if now - self._looked >= self.recheck:
            self._looked = now
            signature = _signature(self._served)
            if signature != self._signature:
                self._signature = signature
                self.version = files_version(self._served)
        return f"/static/{self.version}"

    def get_path(self, scope: Scope) -> str:
        """The file's path with the version taken off (noted in ``scope``)."""
        path = super().get_path(scope)
        first, sep, rest = path.partition(os.sep)
        if sep and _VERSION.fullmatch(first):
            scope[_SCOPE_KEY] = first
            return rest
        return path

    def lookup_path(self, path: str) -> tuple[str, os.stat_result | None]:
        """A file of one of :attr:`folders` from its own folder, else from the directory."""
        for prefix, folder in self.folders.items():
            if path.startswith(prefix + os.sep):
                return folder.lookup_path(path[len(prefix) + 1 :])
        return super().lookup_path(path)

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        """The file, kept for good at this version's address, asked again at any other."""
        response = super().file_response(full_path, stat_result, scope, status_code)
        current = scope.get(_SCOPE_KEY) == self.version
        response.headers["Cache-Control"] = IMMUTABLE if current else REVALIDATE
        return response
