"""The catalogs and the code agree: every message the code uses (found by Babel's
extraction over the Python package, the browser's modules, the translated pages and the
games' listings) is in every catalog, translated, and no catalog keeps a message the code
no longer uses. `spacetable catalogs` brings them up to date (docs/translating.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po

from spacetable import i18n
from spacetable.cli.catalogs import catalog_path, template

OTHER_LANGUAGES = [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE]
_PLACE = re.compile(r"\{(\w+)\}")


def _texts(value: Any) -> list[str]:
    """A message's id or string as its texts (a plural one has several)."""
    if isinstance(value, tuple | list):
        return [str(v or "") for v in value]
    return [str(value or "")]


def _key(message: Message) -> str:
    return _texts(message.id)[0]


@pytest.fixture(scope="module")
def used() -> dict[str, list[str]]:
    """Every message the code uses, by its id, with its texts."""
    return {_key(m): _texts(m.id) for m in template() if m.id}


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_message_the_code_uses_is_translated_and_none_is_left_over(
    lang: str, used: dict[str, list[str]]
) -> None:
    with catalog_path(lang).open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    held = {_key(m): m for m in catalog if m.id}
    missing = sorted(set(used) - set(held))
    unused = sorted(set(held) - set(used))
    assert not missing, f"{lang} catalog lacks (run `spacetable catalogs`): {missing}"
    assert not unused, f"{lang} catalog has messages the code no longer uses: {unused}"
    untranslated = sorted(key for key, m in held.items() if m.fuzzy or not all(_texts(m.string)))
    assert not untranslated, f"{lang} catalog leaves untranslated: {untranslated}"
    for key, message in held.items():
        wanted = set(_PLACE.findall(" ".join(used[key])))
        for form in _texts(message.string):
            placed = set(_PLACE.findall(form))
            assert placed <= wanted | {"n"}, f"{lang}: {key!r} -> {form!r} names {placed - wanted}"


#: A message a page's script passes to ``t()`` or ``tn()``: its first argument, a string
#: written whole (one followed by ``+`` is built of pieces, which the extractor joins).
_SCRIPT_CALL = re.compile(r'(?<![\w.])tn?\(\s*"((?:[^"\\]|\\.)*)"(?!\s*\+)')
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)


def test_every_message_the_pages_scripts_pass_is_extracted(used: dict[str, list[str]]) -> None:
    """Babel's JavaScript extractor misses some calls, silently: a ``t()`` inside another's
    arguments, or one inside a template string whose arguments hold braces. Such a message
    is in no catalog, and a French page read it in English ("by correspondence, 24 h a
    turn" in the lobby). Every message written in a script must be in the template."""
    scripts = Path(i18n.__file__).parent.parent / "web" / "js"
    missed = {}
    for path in sorted(scripts.rglob("*.js")):
        code = _BLOCK_COMMENT.sub("", path.read_text(encoding="utf-8"))
        code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith("//"))
        for found in _SCRIPT_CALL.finditer(code):
            text = found.group(1).replace('\\"', '"')
            if text not in used:
                missed[text] = path.relative_to(scripts).as_posix()
    assert not missed, f"messages the extraction missed (write each t() on its own): {missed}"
