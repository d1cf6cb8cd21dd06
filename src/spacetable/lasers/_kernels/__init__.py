"""Compiled kernels of the fast battle path (private; see :mod:`spacetable.lasers.fast`).

Every kernel is compiled by numba with ``cache=True`` (:func:`jit` and its kin). They repeat
the arithmetic of :mod:`spacetable.lasers.geometry` and the rules of
:mod:`spacetable.lasers.battle` operation for operation, so the fast path agrees with the
reference bit for bit. Tables arrive packed in numpy arrays whose columns are the
constants of :mod:`.layout`; arrays travel in the tuples named there.

- :mod:`.layout`: the packed arrays' columns and the tuples they travel in;
- :mod:`.rays`: where a laser meets a card, and every laser's hit list;
- :mod:`.battle`: the speed steps of one battle and its event log;
- :mod:`.batch`: many candidate placements of one more card, scored chunk by chunk without
  the interpreter's lock (several threads at once).

numba's disk cache is invalidated by a change to the file that defines a function, not
to the files of the functions it calls, so a kernel could keep running a stale copy of a
helper in a sibling module. The kernels' cache is therefore stamped with all the
modules of this package together (:class:`_PackageStamp`): a change to any of them
recompiles them all.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
from numba.core import caching

_HERE = Path(__file__).resolve().parent

F = TypeVar("F", bound=Callable[..., Any])


def _package_stamp() -> str:
    """One freshness stamp for every module of this package."""
    digest = hashlib.sha256()
    for path in sorted(_HERE.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


class _PackageStamp:
    """A numba cache locator mixin for the kernels: their cache is as fresh as the whole
    package, and it locates only functions defined here."""

    def get_source_stamp(self) -> str:
        """The package's stamp, in place of the defining file's."""
        return _package_stamp()

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        """A locator for a kernel of this package (``None`` for any other function)."""
        if Path(py_file).resolve().parent != _HERE:
            return None
        return super().from_function(py_func, py_file)  # type: ignore[misc]


class _UserProvided(_PackageStamp, caching.UserProvidedCacheLocator):
    """``NUMBA_CACHE_DIR``, stamped with the package."""


class _InTree(_PackageStamp, caching.InTreeCacheLocator):
    """``__pycache__`` beside the sources, stamped with the package."""


class _UserWide(_PackageStamp, caching.UserWideCacheLocator):
    """The user's cache directory (read-only sources), stamped with the package."""


caching.CacheImpl._locator_classes[:0] = [_UserProvided, _InTree, _UserWide]


def jit(fn: F) -> F:
    """``numba.njit(cache=True)`` with the function's own signature kept for mypy."""
    return cast(F, numba.njit(cache=True)(fn))


def jit_inline(fn: F) -> F:
    """Like :func:`jit`, inlined into its callers by numba (no call or reference-count
    overhead for the array arguments of hot helpers)."""
    return cast(F, numba.njit(cache=True, inline="always")(fn))


def jit_nogil(fn: F) -> F:
    """Like :func:`jit`, running without the interpreter's lock (threads run it at once)."""
    return cast(F, numba.njit(cache=True, nogil=True)(fn))
