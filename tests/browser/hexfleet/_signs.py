"""A hex fleet log line's text as an English page shows it: the server's `text` keeps the
cards' codes ("KS 10S", DESIGN section 6), the page writes them with their suits' signs
("K♠ 10♠"; games/hexfleet/cardnames.js)."""

from __future__ import annotations

import re

_CARD = re.compile(r"\b(10|[2-9AJQK])([SHDC])\b")
_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def with_signs(text: str) -> str:
    """``text`` with each card code ("KS") as the page shows it in English ("K♠")."""
    return _CARD.sub(lambda m: m[1] + _SIGNS[m[2]], text)
