"""The pages' own words: the text of a page's HTML body and its ``title``, ``alt``,
``placeholder`` and ``aria-label`` attributes are messages whose id is their English text
(whitespace folded). :func:`translate_html` writes a page in another language when the
server composes it; :func:`extract` is the Babel extraction method that finds the same
messages (``spacetable.i18n.html:extract`` in the extraction's method map).

Text inside ``<script>``, ``<style>``, ``<code>`` or an element marked
``translate="no"`` (the HTML attribute for words that stay as they are) is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping
from html import escape
from html.parser import HTMLParser
from typing import IO, Any

#: Attributes a reader sees or hears.
ATTRIBUTES = frozenset({"title", "alt", "placeholder", "aria-label"})
_SKIPPED = frozenset({"script", "style", "code"})
_VOID = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }
)
_SPACE = re.compile(r"\s+")
_WORDS = re.compile(r"[^\W\d_]")


def message_of(text: str) -> str | None:
    """The message id of a text (whitespace folded), or None if it has no letters."""
    folded = _SPACE.sub(" ", text).strip()
    return folded if _WORDS.search(folded) else None


class _Walker(HTMLParser):
    """Visits every translatable text and attribute; ``on_text(id, line)`` returns what to
    write instead (or None to keep it)."""

    def __init__(self, on_text: Callable[[str, int], str | None]) -> None:
        super().__init__(convert_charrefs=True)
        self.on_text = on_text
        self.out: list[str] = []
        self.stack: list[tuple[str, bool]] = []  # open elements, whether text is skipped

    @property
    def skipping(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def _tag(self, tag: str, attrs: list[tuple[str, str | None]], close: str) -> str:
        changed = False
        written: list[str] = []
        for name, value in attrs:
            if value is None:
                written.append(f" {name}")
                continue
            if name in ATTRIBUTES and not self.skipping:
                message = message_of(value)
                if message is not None:
                    new = self.on_text(message, self.getpos()[0])
                    if new is not None:
                        value, changed = new, True
            written.append(f' {name}="{escape(value)}"')
        if not changed:
            return self.get_starttag_text() or ""
        return f"<{tag}{''.join(written)}{close}>"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.append(self._tag(tag, attrs, ""))
        if tag not in _VOID:
            skip = self.skipping or tag in _SKIPPED or dict(attrs).get("translate") == "no"
            self.stack.append((tag, skip))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.append(self._tag(tag, attrs, " /"))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        message = None if self.skipping else message_of(data)
        new = None if message is None else self.on_text(message, self.getpos()[0])
        if new is None:
            # Inside <script> and <style> the text is raw: written back as it came.
            raw = self.stack and self.stack[-1][0] in ("script", "style")
            self.out.append(data if raw else escape(data, quote=False))
            return
        lead = data[: len(data) - len(data.lstrip())]
        trail = data[len(data.rstrip()) :]
        self.out.append(lead + escape(new, quote=False) + trail)

    def handle_comment(self, data: str) -> None:
        self.out.append(f"<!--{data}-->")

    def handle_decl(self, decl: str) -> None:
        self.out.append(f"<!{decl}>")

    def handle_pi(self, data: str) -> None:
        self.out.append(f"<?{data}>")


def translate_html(html: str, messages: Mapping[str, Any]) -> str:
    """``html`` with every text and attribute that ``messages`` translates replaced by its
    translation (plain strings only; the rest stays as written)."""

    def translated(message: str, _line: int) -> str | None:
        found = messages.get(message)
        return found if isinstance(found, str) and found else None

    walker = _Walker(translated)
    walker.feed(html)
    walker.close()
    return "".join(walker.out)


def extract(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extraction method for HTML pages: every message :func:`translate_html`
    would translate, with its line."""
    found: list[tuple[int, str | None, str, list[str]]] = []

    def seen(message: str, line: int) -> None:
        found.append((line, None, message, []))

    walker = _Walker(lambda message, line: seen(message, line))
    walker.feed(fileobj.read().decode(options.get("encoding", "utf-8")))
    walker.close()
    yield from found
