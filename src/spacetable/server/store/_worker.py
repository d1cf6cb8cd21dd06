"""The writer threads of the store's queues (``group_commit.py``, ``save_queue.py``): a
queue starts its thread with the first job it is given, not before."""

from __future__ import annotations

import threading
from collections.abc import Callable


def worker(thread: threading.Thread | None, run: Callable[[], None], name: str) -> threading.Thread:
    """``thread`` while there is one, else a new daemon thread called ``name`` running
    ``run``, started."""
    if thread is None:
        thread = threading.Thread(target=run, name=name, daemon=True)
        thread.start()
    return thread
