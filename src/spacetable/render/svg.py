"""SVG pictures of tables and laser battles (pure: functions return SVG text); the card
faces they draw are in :mod:`spacetable.render.cards`.

Lengths are millimetres and every picture's ``viewBox`` is in mm. Table coordinates have
+y up; SVG has +y down, so table pictures flip the y axis. Elements carry CSS classes and
``data-*`` attributes (``class="laser power-2 step-1 result-damage"``, ``data-card``) so
tests and scripts can find what a player would see. The same input gives the same bytes.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass, field

from spacetable.i18n import ENGLISH, Translator
from spacetable.lasers.battle import Card, Outcome
from spacetable.lasers.events import (
    CardLeft,
    Delayed,
    Destroyed,
    GoodsTransferred,
    LaserFired,
    RocksTaken,
    RocksVaporized,
    StepBegan,
)
from spacetable.lasers.geometry import heading
from spacetable.lasers.tables import Table
from spacetable.render._drawing import (
    HIT,
    INK,
    PANEL,
    SPACE,
    Point,
    add_circle,
    add_element,
    add_line,
    add_rect,
    add_text,
    fmt_num,
    pen_attrs,
    player_colours,
    set_size,
    svg_root,
)
from spacetable.render.cards import (
    KIND_COLOUR,
    ROCK,
    SHIELD,
    asteroid_face,
    beam,
    ship_face,
)

__all__ = ["table_svg"]

_RULESET_NAMES = {"lightspeed": "Light Speed", "stellar": "Stellar Conflict"}
_PANEL_W = 120.0
#: How wide a shot is drawn on a table picture (mm), by power (as web/js/battle.js draws it).
_SHOT_WIDTH = {1: 1.3, 2: 2.6, 3: 4.2}


def _shot(
    parent: ET.Element, a: Point, b: Point, power: int, kind: str, colour: str, **attrs: str
) -> ET.Element:
    """A shot in a battle, from ``a`` to ``b``: its owner's ``colour``, as wide as its power,
    with a white core (dotted for ion, dashed for penetrating)."""
    w = _SHOT_WIDTH.get(power, _SHOT_WIDTH[3] * power / 3)
    g = add_element(parent, "g", data_colour=colour, **attrs)
    add_line(g, a, b, colour, w * 2.6, stroke_opacity="0.3")
    add_line(g, a, b, colour, w)
    dash = {"ion": (0.4, 0.9), "penetrating": (2.0, 1.0)}.get(kind)
    core = {"stroke_dasharray": f"{fmt_num(w * dash[0])} {fmt_num(w * dash[1])}"} if dash else {}
    add_line(g, a, b, "#ffffff", max(0.5, w * 0.32), **core)
    return g


@dataclass(frozen=True, slots=True)
class _Frame:
    """The drawn part of the table (table coordinates) and its mapping to SVG coordinates."""

    left: float
    bottom: float
    right: float
    top: float

    def pt(self, p: Point) -> Point:
        """A table point in SVG coordinates (y flipped)."""
        return (p[0] - self.left, self.top - p[1])

    def exit(self, origin: Point, d: Point) -> Point:
        """Where a ray from ``origin`` along unit vector ``d`` leaves the frame."""
        ts = [(lim - origin[0]) / d[0] for lim in (self.left, self.right) if d[0]]
        ts += [(lim - origin[1]) / d[1] for lim in (self.bottom, self.top) if d[1]]
        t = min((t for t in ts if t > 0), default=0.0)
        return (origin[0] + d[0] * t, origin[1] + d[1] * t)


#: The height of the notes' letters under the cards (mm, as the table's drawing).
_NOTE_MM = 5.2


def _frame(table: Table, margin: float) -> _Frame:
    xs = [x for c in table.cards for x, _ in c.rect.corners()]
    ys = [y for c in table.cards for _, y in c.rect.corners()]
    if table.table_size is not None:
        tw, th = table.table_size
        xs += [-tw / 2, tw / 2]
        ys += [-th / 2, th / 2]
    return _Frame(min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin)


@dataclass(slots=True)
class _Battle:
    """What the event log says about each card, gathered for drawing."""

    lasers: list[LaserFired] = field(default_factory=list)
    # card -> notes written under it: (text, class, data-* attributes)
    notes: dict[str, list[tuple[str, str, dict[str, str]]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    destroyed: dict[str, tuple[str | None, int]] = field(default_factory=dict)
    left: dict[str, tuple[str, int]] = field(default_factory=dict)


def _gather(outcome: Outcome, tr: Translator) -> _Battle:
    battle, step = _Battle(), 0
    for ev in outcome.events:
        if isinstance(ev, StepBegan):
            step = ev.speed
        elif isinstance(ev, LaserFired):
            battle.lasers.append(ev)
        elif isinstance(ev, RocksTaken):
            data = {"data_source": ev.source, "data_count": str(ev.count), "data_step": str(step)}
            battle.notes[ev.ship].append(
                (
                    tr.gettext(
                        "speed {step}: +{n} from {source}", step=step, n=ev.count, source=ev.source
                    ),
                    "mined",
                    data,
                )
            )
        elif isinstance(ev, RocksVaporized):
            text = tr.gettext("speed {step}: {n} vaporized ({reason})", step=step, n=ev.count,
                              reason=ev.reason)  # fmt: skip
            battle.notes[ev.card].append((text, "note", {}))
        elif isinstance(ev, Destroyed):
            battle.destroyed[ev.ship] = (ev.kill_pile, step)
            text = (
                tr.gettext("speed {step}: destroyed \u2192 {player}'s kill pile", step=step,
                           player=ev.kill_pile)
                if ev.kill_pile
                else tr.gettext("speed {step}: destroyed \u2192 vaporized", step=step)
            )  # fmt: skip
            battle.notes[ev.ship].append((text, "note", {}))
        elif isinstance(ev, Delayed):
            speeds = "/".join(str(v) for v in ev.speeds)
            text = tr.gettext("speed {step}: delayed \u2192 speed {speeds}", step=step,
                              speeds=speeds)  # fmt: skip
            battle.notes[ev.ship].append((text, "note", {}))
        elif isinstance(ev, GoodsTransferred):
            text = tr.gettext("speed {step}: +{n} stolen goods from {source}", step=step,
                              n=ev.count, source=ev.source)  # fmt: skip
            battle.notes[ev.ship].append((text, "note", {}))
        elif isinstance(ev, CardLeft):
            battle.left[ev.card] = (ev.reason, step)
            text = tr.gettext("speed {step}: left ({reason})", step=step, reason=ev.reason)
            battle.notes[ev.card].append((text, "note", {}))
    return battle


def _card_transform(frame: _Frame, card: Card) -> str:
    x, y = frame.pt((card.pose.x, card.pose.y))
    return f"translate({fmt_num(x)} {fmt_num(y)}) rotate({fmt_num(-card.pose.rotation_deg, 4)})"


def _token(parent: ET.Element, x: float, y: float, label: str, fill: str, **attrs: str) -> None:
    """A round counter with a number, lying on a card (SVG coordinates)."""
    g = add_element(parent, "g", **attrs)
    add_circle(g, x, y, 4.6, fill, **pen_attrs("#ffffff", 0.7))
    add_text(g, x, y + 2.2, label, 6, fill="#ffffff", font_weight="bold")


def _turn(v: Point, deg: float) -> Point:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return (v[0] * c - v[1] * s, v[0] * s + v[1] * c)


def _draw_laser(
    lasers: ET.Element,
    marks: ET.Element,
    frame: _Frame,
    by_id: dict[str, Card],
    ev: LaserFired,
    colour: str,
) -> None:
    """One laser trace in its owner's ``colour``, its step label and the mark where it ended."""
    card = by_id[ev.ship]
    d = card.pose.direction(card.lasers()[ev.laser].angle_deg)
    end = ev.end if ev.end is not None else frame.exit(ev.origin, d)
    a, b = frame.pt(ev.origin), frame.pt(end)
    cls = f"laser power-{ev.power} step-{ev.speed} result-{ev.result} kind-{ev.kind}"
    target = ev.target or ""
    data = {"data_ship": ev.ship, "data_laser": str(ev.laser), "data_target": target}
    g = _shot(lasers, a, b, ev.power, ev.kind, colour, cls=cls, **data)
    what = {
        "space": "into space",
        "blocked": f"blocked by {target}'s shield",
        "mine": f"mines {target}",
        "ion": f"ion hit on {target}",
        "damage": f"{ev.damage} damage to {target}",
    }.get(ev.result, ev.result)
    add_element(
        g, "title", f"speed {ev.speed}: {ev.ship} laser #{ev.laser + 1} ({ev.power}) {what}"
    )
    t = min(math.dist(ev.origin, end) * 0.3, 26.0)
    lx, ly = frame.pt((ev.origin[0] + d[0] * t, ev.origin[1] + d[1] * t))
    label = add_element(marks, "g", cls=f"step-label step-{ev.speed}", data_ship=ev.ship)
    add_circle(label, lx, ly, 4.2, "#ffffff", **pen_attrs(INK, 0.6))
    add_text(label, lx, ly + 2.1, str(ev.speed), 5.8, font_weight="bold")
    if ev.result == "blocked" and target in by_id:
        m = add_element(marks, "g", cls="blocked", data_target=target, data_ship=ev.ship)
        add_circle(m, b[0], b[1], 5.5, "#ffffff", fill_opacity=0.3)
        ex, ey = by_id[target].pose.direction(-90.0 if ev.edge in ("front", "back") else 0.0)
        p = frame.pt((end[0] - ex * 8, end[1] - ey * 8))
        q = frame.pt((end[0] + ex * 8, end[1] + ey * 8))
        add_line(m, p, q, SHIELD, 3.2)
        add_line(m, p, q, "#ffffff", 1.0)
        for deg in (-40.0, 40.0):  # sparks bouncing back toward the shooter
            sx, sy = _turn((-d[0], -d[1]), deg)
            add_line(m, b, frame.pt((end[0] + sx * 7, end[1] + sy * 7)), "#ffffff", 0.8)
    elif ev.result in ("damage", "ion"):
        hit = ev.result == "damage"
        data = {"data_target": target, "data_damage": str(ev.damage)}
        m = add_element(marks, "g", cls="hit" if hit else "ion-hit", **data)
        star = []
        for i in range(16):
            hx, hy = heading(22.5 * i)
            r = 5.5 if i % 2 == 0 else 2.6
            star.append(f"{fmt_num(b[0] + hx * r)},{fmt_num(b[1] + hy * r)}")
        fill = HIT if hit else KIND_COLOUR["ion"]
        add_element(m, "polygon", points=" ".join(star), fill=fill, **pen_attrs("#ff6b00", 0.4))
        if hit:
            add_text(m, b[0], b[1] + 1.8, str(ev.damage), 5, font_weight="bold")
    elif ev.result == "mine":
        add_circle(marks, b[0], b[1], 2.4, ROCK, cls="mine-hit", **pen_attrs("#ffffff", 0.5))


def table_svg(
    table: Table,
    outcome: Outcome | None = None,
    *,
    margin_mm: float = 40.0,
    tr: Translator = ENGLISH,
    panel: bool = True,
    note_mm: float = _NOTE_MM,
) -> str:
    """The whole table as SVG: every card at its pose (ships as small faces in their owner's
    colour, asteroids with their rocks), a legend of players and colours, and, given the
    battle's ``outcome``, its laser traces (labelled with their speed step), hits, shield
    blocks, mining, destroyed ships, final rocks, damage and delay counters and the scores.
    Lasers that hit nothing run to the edge of the drawing. ``tr`` writes the words on the
    table (the cards', the notes under them); without ``panel``, the picture is the table
    alone, without the legend, the scores and the key (for a page that tells them in its
    own words: the rules page). ``note_mm`` is the height of the notes' letters (larger
    for a picture shown small: the rules page's).
    """
    frame = _frame(table, margin_mm)
    width, height = frame.right - frame.left, frame.top - frame.bottom
    colours = player_colours(table.players)
    battle = _gather(outcome, tr) if outcome is not None else None
    root = svg_root(width, height)
    add_rect(root, 0, 0, width, height, SPACE, cls="space")
    if table.table_size is not None:
        tw, th = table.table_size
        x0, y0 = frame.pt((-tw / 2, th / 2))
        edge = pen_attrs("#55607a", 1.0)
        add_rect(root, x0, y0, tw, th, "none", cls="table-edge", stroke_dasharray="6 4", **edge)
    layer = add_element(root, "g", cls="cards")
    for card in table.cards:
        cls = "card asteroid" if card.ship is None else "card ship"
        g = add_element(
            layer, "g", cls=cls, data_card=card.id, transform=_card_transform(frame, card)
        )
        if card.ship is None:
            final = outcome.asteroids.get(card.id, card.rocks) if outcome else card.rocks
            g.append(asteroid_face(card.size, final, card.rocks if outcome else None, tr))
        else:
            g.set("data-owner", card.owner or "")
            g.set("data-ship", card.ship.key)
            g.append(ship_face(card.ship, colours.get(card.owner or ""), card.size, tr))
        if battle is not None and (card.id in battle.destroyed or card.id in battle.left):
            g.set("opacity", "0.4")
    if outcome is not None and battle is not None:
        _draw_battle(root, frame, table, outcome, battle, colours, note_mm)
    if panel:
        panel_height = _draw_panel(root, width, height, table, outcome, colours)
        set_size(root, width + _PANEL_W, max(height, panel_height))
    else:
        set_size(root, width, height)
    return ET.tostring(root, encoding="unicode") + "\n"


def _draw_battle(
    root: ET.Element,
    frame: _Frame,
    table: Table,
    outcome: Outcome,
    battle: _Battle,
    colours: dict[str, str],
    note_mm: float = _NOTE_MM,
) -> None:
    """Traces, marks, destroyed crosses, counters and per-card notes (letters ``note_mm``
    high, each note kept inside the picture)."""
    by_id = {c.id: c for c in table.cards}
    lasers, marks = add_element(root, "g", cls="lasers"), add_element(root, "g", cls="marks")
    for ev in battle.lasers:
        owner = by_id[ev.ship].owner or ""
        _draw_laser(lasers, marks, frame, by_id, ev, colours.get(owner, "#c9d3e6"))
    tokens = add_element(root, "g", cls="tokens")
    for card in table.cards:
        cx, cy = frame.pt((card.pose.x, card.pose.y))
        if card.id in battle.destroyed:
            pile, step = battle.destroyed[card.id]
            data = {"data_card": card.id, "data_kill_pile": pile or "", "data_step": str(step)}
            g = add_element(tokens, "g", cls="destroyed", **data)
            c = [frame.pt(p) for p in card.rect.corners()]
            add_line(g, c[0], c[2], "#ff3b3b", 2.5)
            add_line(g, c[1], c[3], "#ff3b3b", 2.5)
        result = outcome.ships.get(card.id)
        if result is not None:
            counters = [(p, result.damage.get(p, 0)) for p in table.players]
            counters = [(p, n) for p, n in counters if n]
            for i, (player, count) in enumerate(counters):
                x = cx + (i - (len(counters) - 1) / 2) * 10
                data = {"data_card": card.id, "data_player": player, "data_count": str(count)}
                g = add_element(tokens, "g", cls="damage", **data)
                add_rect(g, x - 4, cy + 2, 8, 8, colours[player], rx=1, **pen_attrs("#ffffff", 0.7))
                add_text(g, x, cy + 8.2, str(count), 6, fill="#ffffff", font_weight="bold")
            both = bool(result.rocks and result.alive and result.delay_tokens)
            rocks, delays = str(result.rocks), str(result.delay_tokens)
            if result.rocks and result.alive:
                data = {"cls": "rocks", "data_card": card.id, "data_count": rocks}
                _token(tokens, cx - 6 * both, cy - 8, rocks, ROCK, **data)
            if result.delay_tokens:
                data = {"cls": "delay", "data_card": card.id, "data_tokens": delays}
                _token(tokens, cx + 6 * both, cy - 8, f"D{delays}", "#c9a400", **data)
        x, y = frame.pt((card.pose.x, min(y for _, y in card.rect.corners())))
        k = note_mm / _NOTE_MM  # the note's size against the usual one
        width = frame.right - frame.left
        for i, (note, cls, data) in enumerate(battle.notes.get(card.id, [])):
            g = add_element(tokens, "g", cls=cls, data_card=card.id, **data)
            w, top = (len(note) * 3.1 + 5) * k, y + 7 + i * 8 * k
            mid = min(max(x, w / 2), width - w / 2) if w < width else width / 2
            add_rect(g, mid - w / 2, top, w, 7 * k, "#000000", rx=1.5 * k, fill_opacity=0.65)
            add_text(g, mid, top + note_mm, note, note_mm, fill="#ffffff")


def _draw_panel(
    root: ET.Element,
    x0: float,
    height: float,
    table: Table,
    outcome: Outcome | None,
    colours: dict[str, str],
) -> float:
    """The side panel right of ``x0``: players, scores and a key. Returns its height."""
    panel = add_element(root, "g", cls="panel")
    bg = add_rect(panel, x0, 0, _PANEL_W, height, PANEL)
    x, y = x0 + 8, 16.0
    title = _RULESET_NAMES.get(table.ruleset, table.ruleset)
    add_text(panel, x, y, title, 9, text_anchor="start", font_weight="bold")
    y += 14
    legend = add_element(panel, "g", cls="legend")
    for player in table.players:
        g = add_element(
            legend, "g", cls="legend-player", data_player=player, data_colour=colours[player]
        )
        add_rect(g, x, y - 6, 8, 8, colours[player], rx=1.5)
        add_text(g, x + 12, y, player, 7, text_anchor="start")
        y += 11
    if outcome is not None:
        y = _draw_scores(panel, x, y + 6, table, outcome, colours)
    y = _draw_key(panel, x, y + 10, table, outcome is not None) + 8
    bg.set("height", fmt_num(max(height, y)))
    return y


def _draw_scores(
    panel: ET.Element, x: float, y: float, table: Table, outcome: Outcome, colours: dict[str, str]
) -> float:
    """The score box: each player's score and what it is made of, then the winner."""
    by_id = {c.id: c for c in table.cards}
    box = add_element(panel, "g", cls="score-box")
    frame = add_rect(box, x - 3, y, _PANEL_W - 10, 1, "#ffffff", rx=2, **pen_attrs(INK, 0.6))
    top, y = y, y + 10
    add_text(box, x, y, "Score", 7.5, text_anchor="start", font_weight="bold")
    for player in table.players:
        y += 11
        score = outcome.scores.get(player, 0)
        add_rect(box, x, y - 6, 8, 8, colours[player], rx=1.5)
        data = {"cls": "score", "data_player": player, "data_score": str(score)}
        add_text(
            box, x + 12, y, f"{player} {score}", 7, text_anchor="start", font_weight="bold", **data
        )
        lines: list[tuple[float, str]] = []
        for cid in outcome.kill_piles.get(player, []):
            card = by_id[cid]
            assert card.ship is not None
            worth = card.ship.vp if table.ruleset == "stellar" else card.ship.health
            sign = "-" if card.owner == player else "+"
            lines.append((16, f"{card.owner} {card.ship.name} {sign}{worth}"))
        lines.insert(0, (12, "kill pile:" if lines else "kill pile: empty"))
        ships = [(cid, r) for cid, r in outcome.ships.items() if by_id[cid].owner == player]
        lines.append((12, f"rocks on ships: {sum(r.rocks for _, r in ships if r.alive)}"))
        placed = sum(r.damage.get(player, 0) for r in outcome.ships.values())
        lines.append((12, f"damage placed: {placed}"))
        for indent, line in lines:
            y += 6.5
            add_text(box, x + indent, y, line, 4.8, text_anchor="start", fill="#4a5168")
    y += 12
    verdict = f"Winner: {outcome.winner}" if outcome.winner is not None else "Draw"
    cls = "winner" if outcome.winner is not None else "draw"
    add_text(box, x, y, verdict, 7.5, text_anchor="start", font_weight="bold", cls=cls)
    frame.set("height", fmt_num(y + 6 - top))
    return y + 6


def _draw_key(panel: ET.Element, x: float, y: float, table: Table, battle: bool) -> float:
    """Samples of each laser style (and, with a battle, of the marks)."""
    key = add_element(panel, "g", cls="key")
    bg = add_rect(key, x - 3, y - 6, _PANEL_W - 10, 1, SPACE, rx=2)
    top = y - 6
    kinds = sorted({lz.kind for c in table.cards for lz in c.lasers()} - {"normal"})
    rows = [(1, "normal", "power 1: thin white"), (2, "normal", "power 2: medium red")]
    rows += [(3, "normal", "power 3: thick green")] + [(2, k, f"{k} laser") for k in kinds]
    y += 4
    white = {"text_anchor": "start", "fill": "#ffffff"}
    if battle:
        add_text(key, x, y, "lasers printed on the cards:", 5, **white)
        y += 9
    for power, kind, label in rows:
        beam(key, (x, y - 1.5), (x + 22, y - 1.5), power, kind, cls="key-beam")
        add_text(key, x + 28, y, label, 5, **white)
        y += 9
    if battle:
        add_text(key, x, y, "shots, in their owner's colour:", 5, **white)
        y += 9
        for power in (1, 2, 3):  # as wide as their power
            _shot(key, (x + 2, y - 1.5), (x + 20, y - 1.5), power, "normal", "#c9d3e6")
            add_text(key, x + 28, y, f"power {power}", 5, **white)
            y += 9
        c = (x + 11, y - 1.5)
        add_circle(key, c[0], c[1], 4.2, "#ffffff")
        add_text(key, c[0], y + 0.6, "6", 5.8, font_weight="bold")
        add_text(key, x + 28, y, "speed step of a laser", 5, **white)
        y += 10
        add_circle(key, c[0], y - 1.5, 4.5, HIT)
        add_text(key, x + 28, y, "hit (damage dealt)", 5, **white)
        y += 10
        add_line(key, (x + 4, y - 1.5), (x + 18, y - 1.5), SHIELD, 3.2)
        add_text(key, x + 28, y, "blocked by a shield", 5, **white)
        y += 10
        add_circle(key, c[0], y - 1.5, 4.6, ROCK)
        add_text(key, x + 28, y, "rocks on a ship", 5, **white)
        y += 10
        add_rect(key, x + 7, y - 5.5, 8, 8, "#888888", rx=1)
        add_text(key, x + 28, y, "damage counters", 5, **white)
        y += 10
    bg.set("height", fmt_num(y - top))
    return y
