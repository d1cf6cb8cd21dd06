"""The compiled kernels' disk cache follows the whole kernel package: editing a helper in
one module must recompile the kernels of the others that call it (numba alone would stamp
each kernel with its own file only)."""

from __future__ import annotations

from typing import Any

from spacetable.lasers._kernels import _package_stamp
from spacetable.lasers._kernels.batch import batch_chunk
from spacetable.lasers._kernels.battle import repeat_resolve, resolve_table, simulate
from spacetable.lasers._kernels.rays import all_hits, ray_hit


def test_every_kernel_is_cached_under_the_whole_package_stamp() -> None:
    stamp = _package_stamp()
    kernels: tuple[Any, ...] = (
        all_hits, ray_hit, simulate, resolve_table, repeat_resolve, batch_chunk,
    )  # fmt: skip
    for kernel in kernels:
        assert kernel._cache._cache_file._source_stamp == stamp, kernel.__name__
