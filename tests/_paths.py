"""Where the tests find the repository's files, wherever a test module lives."""

from __future__ import annotations

from pathlib import Path

#: The repository's root (its examples/, node_modules/, tests/golden/).
ROOT = Path(__file__).resolve().parent.parent
