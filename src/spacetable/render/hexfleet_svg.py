"""An SVG picture of a hex fleet combat script (pure: :func:`script_svg` returns SVG text).

At the top, each ship with a gauge per system (shield points, weapon systems, propulsion
cells): a bar as long as the class's full count, filled to what is left, with the number,
and the shields' state. Given the result, each gauge shows the start as a pale bar under
what is left at the end ("16 → 13 / 16"), and below them every step is drawn as a row of
small card faces: the two cards of a shields or hail try (outlined when they match), a
salvo's cards with those that got through the shields outlined, then the damage cards each
marked with the system it struck. Elements carry CSS classes and ``data-*`` attributes
(``class="card hit"``, ``data-ship``) so tests can find what a reader sees. The same input
gives the same bytes.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from spacetable.games.hexfleet import events as ev
from spacetable.games.hexfleet.cards import SUIT_SYMBOLS, card_shown, parse_card
from spacetable.games.hexfleet.script import CombatScript, ScriptResult, StepResult
from spacetable.games.hexfleet.script_account import side_said
from spacetable.games.hexfleet.ships import Ship
from spacetable.i18n import ENGLISH, N_, Translator
from spacetable.i18n.phrase import Phrase
from spacetable.render._drawing import (
    FONT,
    INK,
    PANEL,
    SVG_NS,
    TEAM_HEX,
    add_element,
    add_rect,
    fmt_num,
    player_colours,
)

__all__ = ["script_svg"]

WIDTH = 920.0
MARGIN = 20.0
FAINT, RED_INK = "#8a8f9c", "#c0182b"
#: The outline of a card that got through the shields (or a matching pair), and its fill.
HIT_EDGE, CARD_FACE = "#e07b00", "#ffffff"
SYSTEM_COLOURS = {"shields": "#2b8fd6", "weapons": "#d14b3a", "propulsion": "#3f9d4a"}
DAMAGE_WORDS = {
    "shields": N_("shield"),
    "weapons": N_("weapon"),
    "propulsion": N_("cell"),
    None: N_("again"),
}
#: A class's name and a weapons' kind, as the catalogs hold them.
_CLASS_WORDS = {"light": N_("light"), "medium": N_("medium"), "heavy": N_("heavy")}
_WEAPON_WORDS = {"light": N_("light weapons"), "heavy": N_("heavy weapons")}
#: A ship's shields before (and after) the script.
_SHIELD_STATES = {
    (True, None): N_("shields up"),
    (False, None): N_("shields down"),
    (True, True): N_("shields up → up"),
    (True, False): N_("shields up → down"),
    (False, True): N_("shields down → up"),
    (False, False): N_("shields down → down"),
}
#: The suits that get through the shields, in words.
_THROUGH = {
    "S": N_("only spades get through"),
    "SH": N_("hearts, spades get through"),
    "SHD": N_("diamonds, hearts, spades get through"),
    "SHDC": N_("every card gets through"),
}
CARD_W, CARD_H, CARD_GAP = 32.0, 42.0, 7.0
LABEL_W = 250.0
SHIP_ROW_H = 92.0
GAUGE_W = 150.0


def script_svg(
    script: CombatScript, result: ScriptResult | None = None, *, tr: Translator = ENGLISH
) -> str:
    """Draw ``script``: its ships' gauges, and with ``result`` the ships after it and every
    step's cards, its words in ``tr``'s language. Returns SVG text (units: CSS px)."""
    root = ET.Element("svg", {"xmlns": SVG_NS, "font-family": FONT})
    colours = _side_colours(script)
    body = ET.SubElement(root, "g")
    y = MARGIN
    title = (
        tr.gettext("Hex fleet combat script")
        if result is None
        else tr.gettext("Hex fleet combat script, settled")
    )
    _text(body, MARGIN, y + 16, title, 18, weight="bold")
    summary = tr.gettext(
        "{ships}, {steps}, {cards}",
        ships=tr.ngettext("{n} ship", "{n} ships", len(script.ships)),
        steps=tr.ngettext("{n} step", "{n} steps", len(script.steps)),
        cards=tr.ngettext("{n} card", "{n} cards", len(script.cards)),
    )
    if result is not None:
        summary = tr.gettext("{summary} ({n} turned)", summary=summary, n=result.cards_used)
    _text(body, WIDTH - MARGIN, y + 16, summary, 12, anchor="end", fill=FAINT)
    y += 34
    for ship_id, before in script.ships.items():
        after = None if result is None else result.ships[ship_id]
        _ship_row(body, y, before, after, colours[before.owner], tr)
        y += SHIP_ROW_H
    y += 8
    if result is None:
        _text(body, MARGIN, y + 14, tr.gettext("Steps (resolve the script to see the cards):"),
              13, weight="bold")  # fmt: skip
        y += 24
        for number, step in enumerate(script.steps, 1):
            _text(body, MARGIN + 8, y + 12, f"{number}. {step}", 12)
            y += 18
    else:
        _text(body, MARGIN, y + 14, tr.gettext("Steps"), 13, weight="bold")
        _key(body, y, tr)
        y += 26
        names = {i: s.name for i, s in script.ships.items()}
        for number, settled in enumerate(result.steps, 1):
            y = _step_row(body, y, number, settled, names, tr)
    height = y + MARGIN
    root.set("width", fmt_num(WIDTH))
    root.set("height", fmt_num(height))
    root.set("viewBox", f"0 0 {fmt_num(WIDTH)} {fmt_num(height)}")
    root.insert(0, _background(height))
    return ET.tostring(root, encoding="unicode")


def _background(height: float) -> ET.Element:
    el = ET.Element("rect")
    for key, value in (("x", "0"), ("y", "0"), ("width", fmt_num(WIDTH)),
                       ("height", fmt_num(height)), ("fill", PANEL)):  # fmt: skip
        el.set(key, value)
    return el


def _side_colours(script: CombatScript) -> dict[str, str]:
    owners = list(dict.fromkeys(ship.owner for ship in script.ships.values()))
    named = {**TEAM_HEX, "black": "#2a2f3a"}
    seats = player_colours(owners)
    return {owner: named.get(owner, seats[owner]) for owner in owners}


def _text(
    parent: ET.Element,
    x: float,
    y: float,
    text: str,
    size: float,
    *,
    anchor: str = "start",
    fill: str = INK,
    weight: str = "normal",
    **attrs: str | float,
) -> ET.Element:
    return add_element(parent, "text", text, x=x, y=y, font_size=size, text_anchor=anchor,
                       fill=fill, font_weight=weight, **attrs)  # fmt: skip


# -- ships ------------------------------------------------------------------------------------


def _ship_row(
    parent: ET.Element, y: float, before: Ship, after: Ship | None, colour: str, tr: Translator
) -> None:
    now = after or before
    group = add_element(parent, "g", cls=f"ship {now.status}", data_ship=before.id)
    add_rect(group, MARGIN, y, WIDTH - 2 * MARGIN, SHIP_ROW_H - 8, "#ffffff", rx=6,
             stroke=colour, stroke_width=2)  # fmt: skip
    add_rect(group, MARGIN, y, 8, SHIP_ROW_H - 8, colour, rx=3)
    _text(group, MARGIN + 18, y + 22, before.name, 16, weight="bold")
    cls = tr.gettext(_CLASS_WORDS.get(before.cls.name, before.cls.name))
    weapons = tr.gettext(_WEAPON_WORDS.get(before.weapons.value, before.weapons.value))
    side = side_said(before.owner)
    side_words = side.text(tr) if isinstance(side, Phrase) else str(side)
    _text(group, MARGIN + 18, y + 40, f"{side_words} · {cls} · {weapons}", 11,
          fill=FAINT)  # fmt: skip
    status = {"jumped": N_("jumped out"), "wrecked": N_("wrecked"), "gone": N_("gone")}.get(
        now.status
    )
    if status:
        status = tr.gettext(status)
        _text(group, MARGIN + 18, y + 60, status, 12, fill=RED_INK, weight="bold",
              cls="status")  # fmt: skip
    else:
        jump = tr.gettext("can jump") if now.can_jump else tr.gettext("cannot jump")
        salvo = (
            tr.ngettext("salvo {n} card", "salvo {n} cards", now.salvo)
            if now.salvo
            else tr.gettext("no salvo")
        )
        _text(group, MARGIN + 18, y + 60, f"{salvo} · {jump}", 11)
    x = MARGIN + 230
    gauges = (
        ("shields", before.shields_left, None if after is None else after.shields_left,
         before.cls.shields),
        ("weapons", before.weapons_left, None if after is None else after.weapons_left,
         before.weapons_total),
        ("propulsion", before.propulsion_left,
         None if after is None else after.propulsion_left, before.cls.propulsion),
    )  # fmt: skip
    for system, start, end, full in gauges:
        _gauge(group, x, y + 14, system, start, end, full, tr)
        x += GAUGE_W + 50
    shields = tr.gettext(
        _SHIELD_STATES[before.shields_up, None if after is None else after.shields_up]
    )
    _text(group, MARGIN + 230, y + 72, shields, 11,
          cls="shields-state", fill=SYSTEM_COLOURS["shields"], weight="bold")  # fmt: skip


def _gauge(
    parent: ET.Element,
    x: float,
    y: float,
    system: str,
    start: int,
    end: int | None,
    full: int,
    tr: Translator,
) -> None:
    colour = SYSTEM_COLOURS[system]
    left = start if end is None else end
    group = add_element(parent, "g", cls=f"gauge {system}", data_before=str(start),
                        data_after=str(left), data_full=str(full))  # fmt: skip
    names = {"shields": N_("shields"), "weapons": N_("weapons"), "propulsion": N_("propulsion")}
    _text(group, x, y + 10, tr.gettext(names[system]), 11, fill=FAINT)
    numbers = f"{left}/{full}" if end is None or end == start else f"{start} → {end} / {full}"
    _text(group, x + GAUGE_W, y + 10, numbers, 12, anchor="end", weight="bold")
    bar_y = y + 16
    add_rect(group, x, bar_y, GAUGE_W, 12, "#e6e3dc", rx=3)
    if end is not None and end < start:
        add_rect(group, x, bar_y, GAUGE_W * start / full, 12, colour, rx=3, opacity=0.28,
                 cls="before")  # fmt: skip
    if left:
        add_rect(group, x, bar_y, GAUGE_W * left / full, 12, colour, rx=3, cls="left")
    # a tick per quarter: where the charts change
    for quarter in (1, 2, 3):
        tick_x = x + GAUGE_W * quarter / 4
        add_element(group, "line", x1=tick_x, y1=bar_y - 2, x2=tick_x, y2=bar_y + 14,
                    stroke=INK, stroke_width=0.8, opacity=0.45)  # fmt: skip


# -- steps ------------------------------------------------------------------------------------


def _step_row(
    parent: ET.Element,
    y: float,
    number: int,
    settled: StepResult,
    names: dict[str, str],
    tr: Translator,
) -> float:
    """Draw one step's row; return the y below it."""
    step = settled.step
    group = add_element(parent, "g", cls=f"step {step.kind}", data_step=str(number))
    who = names[step.ship]
    target = names.get(step.target or "", "")
    title = {
        "raise_shields": N_("{who} raises shields"),
        "hail": N_("{who} hails {target}"),
        "fire": N_("{who} fires at {target}"),
        "jump": N_("{who} jumps out"),
    }[step.kind]
    title = tr.gettext(title, who=who, target=target)
    _text(group, MARGIN, y + 16, f"{number}.", 13, weight="bold")
    _text(group, MARGIN + 30, y + 16, title, 13, weight="bold")
    verdict, cards = _step_cards(settled, tr)
    for line, words in enumerate(verdict.split("\n")):
        _text(group, MARGIN + 30, y + 33 + 14 * line, words, 11, fill=FAINT, cls="verdict")
    x0 = MARGIN + LABEL_W
    per_row = int((WIDTH - MARGIN - x0) // (CARD_W + CARD_GAP))
    rows = max(1, -(-len(cards) // per_row))
    for index, (text, kind, label) in enumerate(cards):
        row, col = divmod(index, per_row)
        x = x0 + col * (CARD_W + CARD_GAP)
        cy = y + 4 + row * (CARD_H + 30)
        if kind in ("shuffle", "arrow"):
            mark = "⟳" if kind == "shuffle" else "→"
            _text(group, x + CARD_W / 2, cy + CARD_H / 2 + 6, mark, 20, anchor="middle",
                  fill=FAINT, cls="reshuffle" if kind == "shuffle" else "then")  # fmt: skip
            _text(group, x + CARD_W / 2, cy + CARD_H + 12, label, 9, anchor="middle",
                  fill=FAINT)  # fmt: skip
            continue
        _card(group, x, cy, text, kind, label, tr)
    height = max(44.0, rows * (CARD_H + 30) + 2)
    add_element(parent, "line", x1=MARGIN, y1=y + height, x2=WIDTH - MARGIN, y2=y + height,
                stroke="#d8d4cb", stroke_width=1)  # fmt: skip
    return y + height + 6


def _step_cards(settled: StepResult, tr: Translator) -> tuple[str, list[tuple[str, str, str]]]:
    """The step's verdict in words and its cards: (card, kind, label under it) where kind
    is ``plain``, ``hit``, ``match`` or ``damage-<system>``."""
    cards: list[tuple[str, str, str]] = []
    verdict = ""
    for event in settled.events:
        if isinstance(event, ev.Reshuffled):
            cards.append(("", "shuffle", tr.gettext("reshuffle")))
        elif isinstance(event, ev.ShieldsRaised | ev.Hailed):
            kind = "match" if event.success else "plain"
            cards.extend((c, kind, "") for c in event.cards)
            if isinstance(event, ev.ShieldsRaised):
                verdict = (
                    tr.gettext("shields up")
                    if event.success
                    else tr.gettext("no match: shields stay down")
                )
            else:
                verdict = (
                    tr.gettext("communications open") if event.success else tr.gettext("no answer")
                )
        elif isinstance(event, ev.Fired):
            for card in event.cards:
                hit = card[-1] in event.suits
                cards.append((card, "hit" if hit else "plain", tr.gettext("hit") if hit else ""))
            through = _THROUGH.get(event.suits)
            hits = tr.ngettext("{n} hit", "{n} hits", event.hits)
            verdict = (
                tr.ngettext("{n} card: {hits}", "{n} cards: {hits}", len(event.cards), hits=hits)
                + "\n"
                + (tr.gettext(through) if through else event.suits)
            )
        elif isinstance(event, ev.DamageCard):
            system = event.system
            label = tr.gettext(DAMAGE_WORDS[system])
            if system is not None:
                label += "\n" + tr.gettext("{n} left", n=event.left)
            if not any(kind.startswith("damage-") for _, kind, _ in cards):
                cards.append(("", "arrow", tr.gettext("damage")))
            cards.append((event.card, f"damage-{system or 'club'}", label))
        elif isinstance(event, ev.Jumped):
            verdict = tr.gettext("out of the battle")
        elif isinstance(event, ev.Wrecked):
            verdict += "\n" + tr.gettext("a wreck")
    return verdict, cards


def _card(
    parent: ET.Element, x: float, y: float, text: str, kind: str, label: str, tr: Translator
) -> None:
    card = parse_card(text)
    suit = SUIT_SYMBOLS[card.suit]
    # The rank as the reader's cards print it (``R`` for a king in French), the suit below.
    rank = card_shown(text, tr).removesuffix(suit)
    classes = "card" + ("" if kind == "plain" else f" {kind}")
    group = add_element(parent, "g", cls=classes, data_card=text)
    damage = kind.startswith("damage-")
    system = kind.removeprefix("damage-")
    edge, width = ("#b9b4a8", 1.0)
    if kind in ("hit", "match"):
        edge, width = (HIT_EDGE, 3.0)
    elif damage:
        edge, width = (SYSTEM_COLOURS.get(system, FAINT), 2.5)
    add_rect(group, x, y, CARD_W, CARD_H, CARD_FACE, rx=4, stroke=edge, stroke_width=width)
    ink = RED_INK if card.red else INK
    _text(group, x + CARD_W / 2, y + 17, rank, 13, anchor="middle", fill=ink,
          weight="bold")  # fmt: skip
    _text(group, x + CARD_W / 2, y + 35, suit, 15, anchor="middle", fill=ink)
    colour = SYSTEM_COLOURS.get(system, HIT_EDGE if kind == "hit" else FAINT)
    for line, words in enumerate(label.splitlines()):
        _text(group, x + CARD_W / 2, y + CARD_H + 12 + 10 * line, words, 9, anchor="middle",
              fill=colour)  # fmt: skip


def _key(parent: ET.Element, y: float, tr: Translator) -> None:
    """The key: what the outlines mean."""
    x = WIDTH - MARGIN
    items = [
        (tr.gettext("damage: propulsion cell"), SYSTEM_COLOURS["propulsion"]),
        (tr.gettext("damage: shield point"), SYSTEM_COLOURS["shields"]),
        (tr.gettext("damage: weapon system"), SYSTEM_COLOURS["weapons"]),
        (tr.gettext("got through the shields / matched"), HIT_EDGE),
    ]
    for words, colour in items:
        width = 7.0 * len(words) + 22
        x -= width
        add_rect(parent, x, y + 4, 12, 14, "#ffffff", rx=2, stroke=colour, stroke_width=2.5)
        _text(parent, x + 17, y + 15, words, 11, fill=INK)
