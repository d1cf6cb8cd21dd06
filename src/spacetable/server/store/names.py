"""What makes an account's name (issue 37 item 1, issue 67 item 8; docs/accounts.md).

A name has 3 to 20 characters after NFKC, letters, digits, spaces, ``-`` or ``_``
(:func:`check_name`). It may not pass for a name the game gives (:func:`reserved`): a
word ``anonymous`` (what a deleted account becomes in its old matches), ``bot`` (bots sit
as ``easy bot``, ``easy bot 2``) or ``guest`` (a guest under a registered name sits as
``name (guest)``) anywhere in it; ``player`` or ``spectator`` alone or with a number (an
empty name's seat, a writing spectator); ``red``, ``blue``, ``green``, ``purple`` (the
example tables' players, whose names the pages translate); ``admin``, ``administrator``,
``moderator``, ``server``, ``system``, ``spacetable``.

Nor may it look like another account's name: names are compared by their :func:`skeleton`,
Unicode's confusables skeleton (UTS #39, computed by ICU's SpoofChecker, the reference
implementation), so ``alice`` written with a Cyrillic ``a`` (U+0430) is ``alice``. The
accounts' table keeps each account's skeleton under a unique index
(``migrations/versions/v0006_name_skeletons.py``): two look-alike sign-ups at the same
moment cannot both succeed. The reserved words are compared by skeleton too.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

from spacetable.i18n.phrase import Reason, phrase_n, refusal

#: Names: 3 to 20 characters (after NFKC), letters, digits, spaces, ``-`` or ``_``. (The
#: refusals and the sign-up page's own check, web/js/pages/account.js, say these figures.)
NAME_MIN, NAME_MAX = 3, 20
#: Words a name may not hold anywhere: the names the game gives bots, guests and deleted
#: players are made of them.
RESERVED_WORDS = ("anonymous", "bot", "guest")
#: Words a name may not be, alone or followed by a number: the names of empty seats'
#: players (``player 2``) and of spectators who write in the chat (``spectator 1``).
RESERVED_COUNTED = ("player", "spectator")
#: Whole names a name may not be.
RESERVED_NAMES = (
    "red", "blue", "green", "purple",
    "admin", "administrator", "moderator", "server", "system", "spacetable",
)  # fmt: skip
#: A name's characters besides letters and digits.
_ALLOWED = " -_"
#: What splits a name into words.
_WORD = re.compile(r"[ _-]+")


class AccountRefused(ValueError):
    """A name or password that cannot make an account; its argument says which and what
    is wrong (a sentence: the page writes it in its reader's language)."""


@functools.cache
def _checker() -> Any:
    """ICU's spoof checker (loaded at the first name checked: start-up stays cheap)."""
    import icu  # PyICU (pyicu-wheels)

    return icu.SpoofChecker()


def skeleton(name: str) -> str:
    """What look-alike names share: the UTS #39 skeleton of ``name`` (after NFKC), case
    folded, and the skeleton of that. The first skeleton maps capitals to what they look
    like (a capital ``I`` is an ``l``, a Cyrillic capital ``Ve`` a ``B``) before case
    folding loses the shape; the second maps the small letters (a Cyrillic ``a`` to a
    Latin one). Names that are one name case folded (``Alice``, ``ALICE``) are compared
    by their key as well. (ICU's data may map a few more characters in a later release:
    the skeletons stored before keep theirs.)"""
    checker = _checker()
    shown = unicodedata.normalize("NFKC", name).strip()
    return str(checker.getSkeleton(0, checker.getSkeleton(0, shown).casefold()))


@functools.cache
def _skeletons(words: tuple[str, ...]) -> frozenset[str]:
    return frozenset(skeleton(word) for word in words)


def _number(word: str) -> bool:
    """Whether ``word`` is, or looks like, a number (``2``, ``l2``, ``O``)."""
    digits = _skeletons(tuple("0123456789"))
    return all(c.isdecimal() or skeleton(c) in digits for c in word)


def reserved(name: str) -> bool:
    """Whether ``name`` (as :func:`check_name` leaves it) is, or looks like, a name the game
    gives (the module's list)."""
    words = [skeleton(word) for word in _WORD.split(name) if word]
    if any(word in _skeletons(RESERVED_WORDS) for word in words):
        return True
    if words and words[0] in _skeletons(RESERVED_COUNTED):
        rest = [w for w in _WORD.split(name) if w][1:]
        if len(rest) <= 1 and all(_number(word) for word in rest):
            return True
    return len(words) == 1 and words[0] in _skeletons(RESERVED_NAMES)


def odd_characters(shown: str) -> list[str]:
    """The characters of ``shown`` a name may not hold, each once, in order; one that
    cannot be seen (a control, a zero-width space) written ``U+200B``."""
    found: list[str] = []
    for c in shown:
        if not (c.isalnum() or c in _ALLOWED):
            said = c if c.isprintable() and not c.isspace() else f"U+{ord(c):04X}"
            if said not in found:
                found.append(said)
    return found


def check_name(name: Any) -> str:
    """The name as it will be shown (NFKC, outer spaces removed). Raises
    :class:`AccountRefused` saying what is wrong, in a sentence. (Whether it looks like
    another account's name is the accounts' store's to say.)"""
    if not isinstance(name, str) or not name.strip():
        raise AccountRefused(refusal("Type a name."))
    shown = unicodedata.normalize("NFKC", name).strip()
    if not NAME_MIN <= len(shown) <= NAME_MAX:
        # The sign-up page's own check says the same sentence (figures written in it).
        raise AccountRefused(
            Reason(
                phrase_n(
                    "A name has 3 to 20 characters: yours has {n}.",
                    "A name has 3 to 20 characters: yours has {n}.",
                    len(shown),
                )
            )
        )
    if odd := odd_characters(shown):
        raise AccountRefused(
            Reason(
                phrase_n(
                    "A name holds only letters, digits, spaces, - and _: “{chars}” is not allowed.",
                    "A name holds only letters, digits, spaces, - and _: “{chars}” are not"
                    " allowed.",
                    len(odd),
                    chars=" ".join(odd),
                )
            )
        )
    if reserved(shown):
        raise AccountRefused(
            refusal(
                "This name is kept for the names the game gives (bots, guests, empty seats,"
                " deleted accounts): choose another."
            )
        )
    return shown
