"""The words of a game's listing (``GET /api/games``) in the reader's language: its title,
its bots' descriptions, and the titles, help and value names of its room options, which
the lobby's forms show. The English comes from the games' own code (their pydantic
models, their bots); :func:`listing_messages` finds the same words for the catalogs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from spacetable.i18n import Translator

_WORDS = ("title", "description")


def listing_messages(listing: dict[str, Any]) -> Iterator[str]:
    """Every message of a game's listing that :func:`translate_listing` translates."""
    yield listing["title"]
    yield from listing.get("bot_descriptions", {}).values()
    if listing.get("options"):
        yield from _schema_messages(listing["options"])


def translate_listing(listing: dict[str, Any], tr: Translator) -> dict[str, Any]:
    """A copy of a game's listing with its words in ``tr``'s language."""
    out = dict(listing)
    title: str = listing["title"]
    out["title"] = tr.gettext(title)
    out["bot_descriptions"] = {
        level: tr.gettext(text) for level, text in listing.get("bot_descriptions", {}).items()
    }
    if listing.get("options"):
        out["options"] = _translate_schema(listing["options"], tr)
    return out


def _schema_messages(schema: dict[str, Any]) -> Iterator[str]:
    for node in _fields(schema):
        for key in _WORDS:
            if isinstance(node.get(key), str):
                yield node[key]
        yield from (str(v) for v in node.get("value_titles", {}).values())
        for item in node.get("prefixItems", ()):
            if isinstance(item.get("title"), str):
                yield item["title"]


def _fields(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The option fields of a model's schema and of the models it refers to."""
    for model in (schema, *schema.get("$defs", {}).values()):
        yield from model.get("properties", {}).values()


def _translate_schema(schema: dict[str, Any], tr: Translator) -> dict[str, Any]:
    def field(node: dict[str, Any]) -> dict[str, Any]:
        node = dict(node)
        for key in _WORDS:
            if isinstance(node.get(key), str):
                node[key] = tr.gettext(node[key])
        if "value_titles" in node:
            node["value_titles"] = {k: tr.gettext(str(v)) for k, v in node["value_titles"].items()}
        if "prefixItems" in node:
            node["prefixItems"] = [_titled(item, tr) for item in node["prefixItems"]]
        return node

    def model(node: dict[str, Any]) -> dict[str, Any]:
        node = dict(node)
        if "properties" in node:
            node["properties"] = {k: field(v) for k, v in node["properties"].items()}
        return node

    out = model(schema)
    if "$defs" in out:
        out["$defs"] = {k: model(v) for k, v in out["$defs"].items()}
    return out


def _titled(item: dict[str, Any], tr: Translator) -> dict[str, Any]:
    title = item.get("title")
    return {**item, "title": tr.gettext(title)} if isinstance(title, str) else item


#: The keys of a game's resources (``GET /api/games/{key}/{name}``) whose words a page
#: shows as they are: a hex fleet scenario's ``about``.
_RESOURCE_WORDS = frozenset({"about"})


def resource_messages(resource: Any) -> Iterator[str]:
    """Every message of a game's resource that :func:`translate_resource` translates."""
    if isinstance(resource, dict):
        for key, value in resource.items():
            if key in _RESOURCE_WORDS and isinstance(value, str):
                yield value
            else:
                yield from resource_messages(value)
    elif isinstance(resource, list):
        for item in resource:
            yield from resource_messages(item)


def translate_resource(resource: Any, tr: Translator) -> Any:
    """A copy of a game's resource with its words in ``tr``'s language."""
    if isinstance(resource, dict):
        return {
            key: tr.gettext(value)
            if key in _RESOURCE_WORDS and isinstance(value, str)
            else translate_resource(value, tr)
            for key, value in resource.items()
        }
    if isinstance(resource, list):
        return [translate_resource(item, tr) for item in resource]
    return resource
