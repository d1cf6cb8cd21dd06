"""The README fits on a screen, starts with the two commands, and its links lead somewhere.

The documentation site checks its own links (``mkdocs build --strict`` in ``./dev.sh
test``); the README is not part of the site, so its links into ``docs/`` are checked here,
anchors included, with the anchor rule of GitHub that the site follows too (``mkdocs.yml``).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: A Markdown link or image: ``[text](target)`` / ``![alt](target)``.
LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub (and the site) makes it: lower case, punctuation
    dropped, each space a hyphen (a heading ``spacetable photo --json`` is
    ``#spacetable-photo---json``)."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def headings(page: Path) -> set[str]:
    """The anchors of a Markdown page's headings (outside code blocks)."""
    anchors = set()
    in_code = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            anchors.add(slug(line.lstrip("#").strip()))
    return anchors


def test_the_readme_fits_on_a_screen_and_starts_with_the_two_commands() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 120
    assert lines[:5] == [
        "# spacetable",
        "",
        "```sh",
        "./dev.sh serve     # set up, then run the browser game: open the URL it prints",
        "./dev.sh test      # set up, then lint, type-check and run every test",
    ]


def test_every_link_of_the_readme_leads_to_a_file_and_heading_that_exist() -> None:
    targets = LINK.findall(README.read_text(encoding="utf-8"))
    local = [t for t in targets if not re.match(r"[a-z]+:", t)]
    assert local, "the README links to the documentation"
    for target in local:
        path, _, anchor = target.partition("#")
        page = ROOT / path
        assert page.is_file(), f"README links to {path}, which is not there"
        if anchor:
            assert anchor in headings(page), f"{path} has no heading #{anchor}"
