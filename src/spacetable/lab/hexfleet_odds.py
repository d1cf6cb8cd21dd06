"""``spacetable odds``: the exact odds of one hex fleet salvo, printed for a referee or a
player (the maths: :mod:`spacetable.games.hexfleet.odds`, docs/odds.md).

Ships are described by options (class, weapons, systems lost, shields up) with the cards
already seen, or taken from a combat script as they stand after its steps (``--fire A
--at B``). :func:`odds_command` returns the text to print and raises ``ValueError`` naming
the bad option (the command line prints it, exit status 2).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer

from spacetable.games.hexfleet.cards import SUIT_NAMES, SUITS, Card, full_deck, parse_card
from spacetable.games.hexfleet.odds import SYSTEMS, SalvoOdds, salvo_odds, shield_odds
from spacetable.games.hexfleet.script import ScriptResult
from spacetable.games.hexfleet.ships import Ship, ship_class, weapons_for

# -- spacetable odds -----------------------------------------------------------------------


def _losses(text: str | None, option: str, ship: Ship) -> Ship:
    """``ship`` after the losses ``text`` lists ("shields=1,propulsion=2")."""
    if not text:
        return ship
    full = {"weapons": ship.weapons_total, "shields": ship.cls.shields,
            "propulsion": ship.cls.propulsion}  # fmt: skip
    lost: dict[str, int] = {}
    for part in text.split(","):
        name, eq, value = part.strip().partition("=")
        if name not in full or not eq:
            raise ValueError(
                f"{option}: {part.strip()[:30]!r} is not SYSTEM=N "
                "(systems: weapons, shields, propulsion)"
            )
        if not value.strip().isdigit():
            raise ValueError(f"{option}: {name} must be a whole number, got {value[:12]!r}")
        count = int(value)
        if count > full[name]:
            raise ValueError(
                f"{option}: a {ship.cls.name} ship has {full[name]} {name}, it cannot lose {count}"
            )
        lost[name] = count
    return replace(
        ship,
        weapons_left=ship.weapons_total - lost.get("weapons", 0),
        shields_left=ship.cls.shields - lost.get("shields", 0),
        propulsion_left=ship.cls.propulsion - lost.get("propulsion", 0),
    )


def _ship(role: str, cls_name: str, weapons: str | None, lost: str | None) -> Ship:
    try:
        cls = ship_class(cls_name)
    except ValueError as exc:
        raise ValueError(f"--{role}: {exc}") from None
    try:
        size = weapons_for(cls, weapons)
    except ValueError as exc:
        raise ValueError(f"--{role}-weapons: {exc}") from None
    return _losses(lost, f"--{role}-lost", Ship.new(role, role.capitalize(), role, cls, size))


def _seen_cards(text: str | None) -> list[Card]:
    cards: list[Card] = []
    for name in (text or "").split(","):
        if not name.strip():
            continue
        try:
            card = parse_card(name)
        except ValueError as exc:
            raise ValueError(f"--seen: {exc}") from None
        if card in cards:
            raise ValueError(f"--seen: {card} is listed twice (a deck has one of each card)")
        cards.append(card)
    return cards


def _share(p: Fraction) -> str:
    """A chance to two decimals of a percent, a possible one never shown as 0.00%."""
    if 0 < p < Fraction(1, 20_000):
        return " <0.01%"
    return f"{float(p):7.2%}"


def _table(odds: SalvoOdds, shields: Fraction, pile: int, seen: int) -> str:
    """``spacetable odds``'s readable table."""
    target = odds.target
    suits = ", ".join(SUIT_NAMES[s] for s in SUITS if s in odds.hitting)
    state = "up" if target.shields_up else "down"
    lines = [
        f"{odds.attacker.name} fires at {target.name}",
        f"Salvo: {odds.salvo} card{'s' if odds.salvo > 1 else ''} from {pile} left to draw "
        f"({seen} seen since the shuffle)",
        f"Target: {target.cls.name}, shields {state} ({target.shields_left}/"
        f"{target.cls.shields}), weapons {target.weapons_left}/{target.weapons_total}, "
        f"propulsion {target.propulsion_left}/{target.cls.propulsion}",
        f"Hitting suits: {suits}",
        "",
        "Hits   chance",
    ]
    lines += [f"{k:>4}   {_share(p)}" for k, p in enumerate(odds.hits())]
    for name, suit in SYSTEMS:
        lines += ["", f"{name.capitalize()} lost (damage cards of {SUIT_NAMES[suit]})   chance"]
        lines += [f"{k:>4}   {_share(p)}" for k, p in enumerate(odds.lost(name))]
    lines += [
        "",
        f"At least one hit:          {_share(odds.p_hit)}",
        f"Expected hits:             {float(odds.expected_hits):7.2f}",
        f"Expected systems lost:     {float(odds.expected_damage):7.2f}",
        f"Propulsion below jump:     {_share(odds.p_below_jump)}",
        f"Every weapon system lost:  {_share(odds.p_weapons_out)}",
        f"Wrecked:                   {_share(odds.p_wrecked)}",
        f"Raise shields or hail:     {_share(shields)}",
        "",
        odds.summary(),
    ]
    return "\n".join(lines)


def deck_after(result: ScriptResult) -> tuple[list[Card], list[Card]]:
    """The draw pile and the discards after a combat script's steps, as its cards show
    them: the discards are the cards turned since the last shuffle (with those in play
    when it came), the pile every other card. Raises ``ValueError`` if the script's deck
    started part-used and never reshuffled (then which cards are left is unknown)."""
    from spacetable.games.hexfleet.script import DECK_SIZE

    left, known = result.script.pile, result.script.pile == DECK_SIZE
    seen: list[Card] = []
    for step in result.steps:
        in_step: list[Card] = []
        for card in _turned(step.events):
            if left == 0:  # the pile ran out: every card not in play is shuffled
                seen, left, known = list(in_step), DECK_SIZE - len(in_step), True
            in_step.append(card)
            seen.append(card)
            left -= 1
    if not known:
        raise ValueError(
            f"the script's deck started with {result.script.pile} cards in the pile and "
            "was never reshuffled: which cards are left is unknown"
        )
    return [c for c in full_deck() if c not in seen], seen


def _turned(events: Iterable[Any]) -> list[Card]:
    """The cards ``events`` turned, in order."""
    from spacetable.games.hexfleet.events import DamageCard, Fired, Hailed, ShieldsRaised

    turned: list[Card] = []
    for event in events:
        if isinstance(event, ShieldsRaised | Hailed | Fired):
            turned += map(parse_card, event.cards)
        elif isinstance(event, DamageCard):
            turned.append(parse_card(event.card))
    return turned


def _from_script(path: Path, fire: str | None, at: str | None) -> tuple[Ship, Ship, list[Card]]:
    """The attacker, the target and the discards after the combat script at ``path``."""
    from spacetable._userinput import MAX_FILE_BYTES, parse_json, read_limited
    from spacetable.games.hexfleet.script import read

    if fire is None or at is None:
        raise ValueError("--fire and --at: with a script, name the ship that fires and its target")
    try:
        result = read(parse_json(read_limited(path, MAX_FILE_BYTES))).resolve()
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    ships = result.ships
    for option, key in (("--fire", fire), ("--at", at)):
        if key not in ships:
            raise ValueError(f"{option}: no ship {key[:40]!r} in the script ({', '.join(ships)})")
        if not ships[key].on_table:
            raise ValueError(f"{option}: {ships[key].name} is not on the table after the script")
    if fire == at:
        raise ValueError("--at: a ship cannot fire at itself")
    if ships[fire].salvo == 0:
        raise ValueError(f"--fire: {ships[fire].name} has no weapons left to fire")
    _, discards = deck_after(result)
    return ships[fire], ships[at], discards


def odds_command(
    script: Annotated[
        Path | None,
        typer.Argument(
            help="A hex fleet combat script (docs/formats.md): the odds after its steps, "
            "for the ships --fire and --at name, the cards it turned being the ones seen. "
            "Without it, describe the ships with the options below.",
            show_default=False,
        ),
    ] = None,
    fire: Annotated[
        str | None, typer.Option("--fire", help="With a script: the ship that fires (its id).")
    ] = None,
    at: Annotated[str | None, typer.Option(help="With a script: the ship it fires at.")] = None,
    attacker: Annotated[str, typer.Option(help="The firing ship's class.")] = "heavy",
    attacker_weapons: Annotated[
        str | None, typer.Option(help="Its weapons, light or heavy (medium ships).")
    ] = None,
    attacker_lost: Annotated[
        str | None, typer.Option(help="Its weapon systems lost, e.g. weapons=3.")
    ] = None,
    target: Annotated[str, typer.Option(help="The target's class.")] = "heavy",
    target_weapons: Annotated[
        str | None, typer.Option(help="Its weapons, light or heavy (medium ships).")
    ] = None,
    target_lost: Annotated[
        str | None,
        typer.Option(help="Its systems lost, e.g. shields=1,propulsion=2 (also weapons=N)."),
    ] = None,
    target_shields_up: Annotated[
        bool, typer.Option("--target-shields-up", help="The target's shields are up.")
    ] = False,
    seen: Annotated[
        str | None,
        typer.Option(
            help="Cards turned since the last shuffle, e.g. 10S,KH,2C: they are in the "
            "discards, not in the pile."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the odds as JSON.")] = False,
) -> str:
    """The exact odds of one salvo and of raising shields, from the cards left to draw.

    For an attacker and a target as they stand, and the cards seen since the last
    shuffle (or the ships and cards of a combat script after its steps): the salvo's
    size and hitting suits, the chance of each number of hits and of each system's loss,
    the headline chances, and the chance to raise shields or hail."""
    described = {
        "--attacker": attacker != "heavy",
        "--attacker-weapons": attacker_weapons is not None,
        "--attacker-lost": attacker_lost is not None,
        "--target": target != "heavy",
        "--target-weapons": target_weapons is not None,
        "--target-lost": target_lost is not None,
        "--target-shields-up": target_shields_up,
        "--seen": seen is not None,
    }
    if script is not None:
        clash = next((option for option, given in described.items() if given), None)
        if clash:
            raise ValueError(f"{clash}: not with a script (its ships and cards tell it)")
        shooter, aimed, discards = _from_script(script, fire, at)
    else:
        if fire is not None or at is not None:
            raise ValueError("--fire and --at: name ships of a combat script, given first")
        shooter = _ship("attacker", attacker, attacker_weapons, attacker_lost)
        if shooter.salvo == 0:
            raise ValueError("--attacker-lost: with every weapon system lost it cannot fire")
        aimed = _ship("target", target, target_weapons, target_lost)
        if target_shields_up and aimed.shields_left == 0:
            raise ValueError("--target-shields-up: the target has no shield points left")
        aimed = replace(aimed, shields_up=target_shields_up)
        discards = _seen_cards(seen)
    pile = [c for c in full_deck() if c not in discards]
    odds = salvo_odds(shooter, aimed, pile, discards)
    shields = shield_odds(pile, discards)
    if as_json:
        return json.dumps(
            {"attacker": shooter.to_json(), "target": aimed.to_json(), "pile": len(pile),
             "odds": odds.to_json(), "raise_shields": float(shields)},
            indent=2,
        )  # fmt: skip
    return _table(odds, shields, len(pile), len(discards))
