"""What a French page must not show: an English word that is not an allowed name
(allowed_names.txt), a message id left raw (a ``{name}`` place), or text wider than its
box. The English words are those of the catalogs' English messages that their French
translations do not use, and the commonest English words besides."""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel.messages.pofile import read_po
from playwright.sync_api import Page

from spacetable.cli.catalogs import catalog_path

if TYPE_CHECKING:
    from tests.browser._pages import PagePool

HERE = Path(__file__).parent
_WORD = re.compile(r"[A-Za-zÀ-ÿœŒ]+(?:'[A-Za-z]+)?")

#: English words that catalogs may not happen to hold but that any English sentence has.
COMMON = frozenset(
    re.findall(
        r"\S+",
        """the and of to is are you your with for this that it its at by from not no yes
        was will be has have which who what when where why how all any each every one two
        three here there then than into onto over under after before about again until
        while seat seats room rooms player players play playing wins won draw ready
        leave watch join name chat send turn turns ship ships fire fires winner card
        cards hand speed shield shields rock rocks damage back next start step lesson
        done try show hide close open copy link share rules mute unmute sound sounds
        waiting connected connecting replay lobby""",
    )
)
#: Words that English and French share: never taken for English.
FRENCH_TOO = frozenset(
    re.findall(
        r"\S+",
        """a as an on en table match score scores minute minutes place places points type
        options option s x vs min max ok menu plan cargo cargos moment part""",
    )
)


def _texts(value: Any) -> list[str]:
    if isinstance(value, tuple | list):
        return [str(v or "") for v in value]
    return [str(value or "")]


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(re.sub(r"\{\w+\}", " ", text))}


@functools.cache
def english_words() -> frozenset[str]:
    """Lower-case words that mark English on a French page."""
    with catalog_path("fr").open("rb") as handle:
        catalog = read_po(handle, locale="fr")
    english: set[str] = set(COMMON)
    french: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        for text in _texts(message.id):
            english.update(_words(text))
        for text in _texts(message.string):
            french.update(_words(text))
    allowed = {
        line.strip().lower()
        for line in (HERE / "allowed_names.txt").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }
    return frozenset(w for w in english - french - allowed - FRENCH_TOO if len(w) > 1)


#: The page's visible words, raw places and overflowing boxes, found in the page.
_SCAN = (HERE / "scan.js").read_text(encoding="utf-8")


def french_problems(page: Page, within: str | None = None) -> list[str]:
    """Everything on ``page`` that is not French or does not fit (``within``, a CSS
    selector: only in the elements it matches, and whether the page scrolls sideways)."""
    found: dict[str, Any] = page.evaluate(_SCAN, within)
    problems: list[str] = []
    if found["lang"] != "fr":
        problems.append(f"the page is in {found['lang']!r}")
    english = english_words()
    for found_text in found["texts"]:
        text, _, where = found_text.partition("\u0000")
        place = f" ({where})" if where else ""
        if re.search(r"\{\w+\}", text):
            problems.append(f"raw message: {text!r}{place}")
        words = {w.lower() for w in _WORD.findall(text)} & english
        if words:
            problems.append(f"English {sorted(words)} in {text!r}{place}")
    problems.extend(f"overflows: {box}" for box in found["overflowing"])
    return sorted(set(problems))


def assert_french(page: Page, within: str | None = None) -> None:
    """Fail with every English word, raw message and overflowing box on ``page`` (or in
    the elements ``within`` selects)."""
    problems = french_problems(page, within)
    assert not problems, "\n".join(problems)


@contextlib.contextmanager
def french_page(
    pool: PagePool, base_url: str, device: dict[str, Any], locale: str = "fr-FR"
) -> Iterator[tuple[Page, list[str]]]:
    """A French browser's page (``locale`` fr-FR) on ``base_url`` in ``device`` (viewport,
    touch), and the list its uncaught exceptions and console errors go to. The page is a
    tab of the worker's page pool (tests/browser/_pages.py: emptied as a new context
    would be, without a new renderer's cost) and goes back to it at the end. A console
    line that ``open_page`` expects (the 400 of a refused table) is not an error."""
    # (imported here: the tests of the CLI, the server and the prints use this module's
    # checks without a browser, and importing the pool wraps Playwright's methods)
    from tests.browser._pages import borrowed_page

    with borrowed_page(pool, base_url, {"locale": locale, **device}) as (page, errors):
        page.set_default_timeout(30_000)
        yield page, errors
