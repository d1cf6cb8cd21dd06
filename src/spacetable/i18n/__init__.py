"""Every word a reader sees, in his language: the message catalogs and how to use them.

English is the source language: the code writes its messages in English (``t("Lobby")``
in the browser, ``tr.gettext("Speed {speed}")`` in Python) and each other language has one
gettext catalog, ``locale/<lang>/LC_MESSAGES/spacetable.po``, read with Babel when first
needed. A message without a translation falls back to its English source, never to an id.

Adding a language is that one catalog file and a line in :data:`LANGUAGES`
(docs/translating.md). Plurals follow CLDR (Babel's ``Locale.plural_form`` here, the
browser's ``Intl.PluralRules`` on the client): a plural message's translations are
stored in the order of :func:`plural_categories`, which is the order of the catalog's
``Plural-Forms`` header that :func:`babel.plural.to_gettext` writes. Numbers are written
the reader's way (``2,5`` in French) with :func:`babel.numbers.format_decimal`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Babel loads when a message needs it: plurals, numbers, catalogs
    from babel import Locale

#: The languages spacetable speaks, English (the source language) first. A new language
#: is its catalog file under ``locale/`` and its code here.
LANGUAGES: tuple[str, ...] = ("en", "fr")

#: The source language: the code's own messages.
SOURCE = "en"

#: Where the catalogs lie: ``<lang>/LC_MESSAGES/spacetable.po``.
LOCALE_DIR: Traversable = resources.files("spacetable") / "locale"

DOMAIN = "spacetable"

#: CLDR's plural categories in the order gettext numbers them (babel.plural.to_gettext).
_CLDR_ORDER = ("zero", "one", "two", "few", "many", "other")

_PARAM = re.compile(r"\{(\w+)\}")


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs where it is written; it is translated where it
    is shown (a page's title, a table of names)."""
    return message


def _locale(lang: str) -> Locale:
    """``lang`` as Babel knows it (imported here: a message without plurals or numbers
    never needs Babel)."""
    from babel import Locale

    return Locale.parse(lang)


def plural_categories(lang: str) -> tuple[str, ...]:
    """The CLDR plural categories of ``lang`` in the order its catalog stores the forms."""
    tags = _locale(lang).plural_form.tags | {"other"}
    return tuple(tag for tag in _CLDR_ORDER if tag in tags)


Entry = str | tuple[str, ...]


@dataclass(frozen=True)
class Translator:
    """The messages of one language. ``gettext`` and ``ngettext`` are the names Babel's
    extraction looks for, so every message the code uses can be checked against the
    catalogs (tests/i18n/test_catalogs.py)."""

    lang: str
    #: Each translated message by its English source (a plural one by its singular).
    messages: Mapping[str, Entry] = field(default_factory=dict)

    @functools.cached_property
    def locale(self) -> Locale:
        """The language as Babel knows it (plural rules, number symbols)."""
        return _locale(self.lang)

    def gettext(self, message: str, /, **params: Any) -> str:
        """``message`` in this language, its ``{name}`` places filled from ``params``
        (numbers written the reader's way)."""
        found = self.messages.get(message)
        text = found if isinstance(found, str) and found else message
        return self._fill(text, params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The form of a counted message that suits ``n`` (``{n}`` in it is ``n``)."""
        params = {"n": n, **params}
        found = self.messages.get(singular)
        if isinstance(found, tuple):
            category = self.locale.plural_form(abs(n))
            order = plural_categories(self.lang)
            index = order.index(category) if category in order else len(order) - 1
            text = found[min(index, len(found) - 1)]
            if text:
                return self._fill(text, params)
        return self._fill(singular if n == 1 else plural, params)

    def number(self, value: float, pattern: str | None = None) -> str:
        """``value`` written the reader's way; ``pattern`` as Babel's (``"0.0"``: one decimal)."""
        from babel.numbers import format_decimal

        return format_decimal(value, format=pattern, locale=self.locale)

    def fixed(self, value: float, digits: int) -> str:
        """``value`` with ``digits`` decimals and no grouping, rounded as Python rounds
        ``f"{value:.1f}"`` (the English is exactly that), written the reader's way
        (``-2,5`` in French): for columns of measures."""
        text = f"{value:.{digits}f}"
        if self.lang == SOURCE:
            return text
        from babel.numbers import get_decimal_symbol, get_minus_sign_symbol

        point, minus = get_decimal_symbol(self.locale), get_minus_sign_symbol(self.locale)
        return text.replace("-", minus).replace(".", point)

    def _fill(self, text: str, params: Mapping[str, Any]) -> str:
        if not params:
            return text

        def value(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in params:
                return match.group(0)
            given = params[name]
            if isinstance(given, int | float) and not isinstance(given, bool):
                return self.number(given)
            return str(given)

        return _PARAM.sub(value, text)


def read_catalog(lang: str, directory: Traversable | None = None) -> dict[str, Entry]:
    """The translated messages of ``lang``'s catalog under ``directory`` (none for the
    source language or a catalog that is missing)."""
    path = (LOCALE_DIR if directory is None else directory) / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if lang == SOURCE or not path.is_file():
        return {}
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=DOMAIN)
    messages: dict[str, Entry] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple | list):
            forms = tuple(message.string or ())
            if any(forms):
                messages[str(message.id[0])] = forms
        elif message.string:
            messages[str(message.id)] = str(message.string)
    return messages


#: English, the source language: its messages are the code's own.
ENGLISH = Translator(SOURCE)


@functools.cache
def translator(lang: str) -> Translator:
    """The translator of ``lang`` (one of :data:`LANGUAGES`; any other gets English)."""
    if lang not in LANGUAGES:
        return ENGLISH
    return Translator(lang, read_catalog(lang, LOCALE_DIR))


def client_catalog(tr: Translator) -> dict[str, Any]:
    """What the browser gets at ``/i18n/<lang>.json``: the language, its plural
    categories, and each message (a plural one as ``{category: text}``)."""
    order = plural_categories(tr.lang)
    messages: dict[str, Any] = {}
    for key, entry in tr.messages.items():
        if isinstance(entry, tuple):
            messages[key] = {cat: text for cat, text in zip(order, entry, strict=False) if text}
        else:
            messages[key] = entry
    return {"lang": tr.lang, "plurals": list(order), "messages": messages}


def language_names(languages: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """Each language (default: :data:`LANGUAGES`) with its name in itself (``fr``:
    ``Français``), for the switch."""
    languages = LANGUAGES if languages is None else languages
    return [
        (lang, _capitalised(_locale(lang).get_display_name(lang) or lang)) for lang in languages
    ]


def _capitalised(name: str) -> str:
    return name[:1].upper() + name[1:]


def choose(
    asked: str | None = None,
    remembered: str | None = None,
    accept_language: str | None = None,
    languages: tuple[str, ...] | None = None,
) -> str:
    """The reader's language: the one a link asks for (``?lang=fr``), else the one he
    picked before (a cookie), else the best of his browser's ``Accept-Language``, else
    English. ``languages``: those to choose from (default: :data:`LANGUAGES`)."""
    languages = LANGUAGES if languages is None else languages
    for wanted in (asked, remembered):
        if wanted in languages:
            return wanted
    for wanted in _accepted(accept_language or ""):
        base = wanted.split("-")[0].lower()
        if base in languages:
            return base
    return SOURCE


def _accepted(header: str) -> list[str]:
    """The languages of an ``Accept-Language`` header, most wanted first."""
    weighted: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _, rest = part.strip().partition(";")
        quality = 1.0
        if rest.strip().startswith("q="):
            try:
                quality = float(rest.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and tag != "*" and quality > 0:
            weighted.append((-quality, i, tag))
    return [tag for _, _, tag in sorted(weighted)]


#: The team colours that table and turn files name their players by.
_COLOURS = {
    "red": N_("red"),
    "blue": N_("blue"),
    "green": N_("green"),
    "purple": N_("purple"),
    "yellow": N_("yellow"),
    "orange": N_("orange"),
}


def player_name(player: str, tr: Translator = ENGLISH) -> str:
    """A player as the account names him: a team colour in the reader's language, any
    other name as it is."""
    return tr.gettext(_COLOURS[player]) if player in _COLOURS else player
