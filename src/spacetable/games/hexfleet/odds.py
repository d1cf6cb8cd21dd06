"""Exact odds of one salvo, and of raising shields or hailing, from the cards left to draw.

A player knows which cards are in the draw pile (every card not yet discarded) but not
their order, and which cards are in the discards (shuffled into a new pile if the pile runs
out mid-salvo). From those two multisets and the ships as they stand, :func:`salvo_odds`
gives the exact distribution of one salvo (DESIGN section 6; the maths in words:
docs/odds.md):

- the fire cards are a uniform sample of the pile (multivariate hypergeometric by suit);
  if the pile holds fewer, all of it and the rest from the shuffled discards;
- each fire card whose suit gets through the target's shields (read before the cards) is a
  hit;
- the damage cards are the first non-club cards after the fire cards: clubs are drawn
  again, so they never change which suits strike, and the damage suits are a uniform
  sample of the non-club cards left in the pile, then (pile exhausted) of the discards'.
  Each system's loss is capped by what it has left.

Only suit counts matter for a salvo, so the work is a sum over suit compositions with exact
integers (``math.comb``), turned into :class:`~fractions.Fraction` once per outcome. Results
are cached by what they depend on, since a view asks for every target at each activation.

:func:`aim` lists what the active ship can fire at, with the odds, for the browser (the
match's view). ``spacetable odds`` prints them: :mod:`spacetable.lab.hexfleet_odds`.
"""

from __future__ import annotations

import functools
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from spacetable.games.hexfleet.actions import Fire
from spacetable.games.hexfleet.cards import (
    RANKS,
    SUITS,
    Card,
    CardsRanOut,
)
from spacetable.games.hexfleet.combat import RANGE
from spacetable.games.hexfleet.hexes import distance, in_forward_arc
from spacetable.games.hexfleet.ships import (
    Ship,
    can_jump,
)
from spacetable.i18n.phrase import Phrase, phrase, says

#: Suit counts, in the order of :data:`~.cards.SUITS` (spades, hearts, diamonds, clubs).
SuitCounts = tuple[int, int, int, int]
#: One outcome of a salvo: (hits, weapon systems lost, shield points lost, propulsion lost).
Outcome = tuple[int, int, int, int]
#: The systems a damage card strikes, with the suit of each (clubs strike none).
SYSTEMS: tuple[tuple[str, str], ...] = (
    ("weapons", "D"),
    ("shields", "H"),
    ("propulsion", "S"),
)
_S, _H, _D, _C = (SUITS.index(s) for s in "SHDC")


def suit_counts(cards: Iterable[Card]) -> SuitCounts:
    """How many spades, hearts, diamonds and clubs ``cards`` hold."""
    counts = Counter(card.suit for card in cards)
    return (counts["S"], counts["H"], counts["D"], counts["C"])


#: ``_BINOMIAL[n][k]``: the binomial coefficient, 0 for ``k > n`` (a deck has 52 cards).
_BINOMIAL = [[math.comb(n, k) for k in range(53)] for n in range(53)]


@functools.lru_cache(maxsize=256)
def _compositions(total: int, parts: int) -> tuple[tuple[int, ...], ...]:
    """Every vector of ``parts`` counts that add up to ``total``."""
    if parts == 1:
        return ((total,),)
    return tuple(
        (first, *tail)
        for first in range(total + 1)
        for tail in _compositions(total - first, parts - 1)
    )


@functools.lru_cache(maxsize=8192)
def _sample(counts: tuple[int, ...], k: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The multivariate hypergeometric law of ``k`` cards drawn from ``counts``: each
    possible composition with its weight (divide by ``comb(sum(counts), k)``)."""
    rows = [_BINOMIAL[c] for c in counts]
    found = []
    for g in _compositions(k, len(counts)):
        weight = 1
        for row, x in zip(rows, g, strict=True):
            weight *= row[x]
        if weight:
            found.append((g, weight))
    return tuple(found)


def _minus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def _plus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


@functools.lru_cache(maxsize=8192)
def _damage(
    pile: tuple[int, ...], discards: tuple[int, ...], hits: int
) -> tuple[int, tuple[tuple[tuple[int, ...], int], ...]]:
    """The damage suits (spades, hearts, diamonds struck) of ``hits`` damage cards drawn
    from ``pile`` then the shuffled ``discards``: the denominator, and each composition
    with its weight. Raises :class:`CardsRanOut` if the non-club cards could run out."""
    in_pile = pile[:3]
    left = sum(in_pile)
    if hits <= left:
        return math.comb(left, hits), _sample(in_pile, hits)
    more = hits - left
    reserve = discards[:3]
    if more > sum(reserve):
        raise CardsRanOut(f"{hits} damage cards could run out: too few cards to draw")
    shifted = tuple((_plus(in_pile, g), w) for g, w in _sample(reserve, more))
    return math.comb(sum(reserve), more), shifted


@functools.lru_cache(maxsize=1024)
def _salvo_table(
    salvo: int,
    hitting: frozenset[str],
    left: tuple[int, int, int],
    pile: SuitCounts,
    discards: SuitCounts,
) -> tuple[tuple[tuple[Outcome, int], ...], int]:
    """The exact law of one salvo of ``salvo`` cards at a target hit by the ``hitting``
    suits with ``left`` = (weapons, shields, propulsion) left, drawn from ``pile`` and,
    once it runs out, the shuffled ``discards``: each outcome's weight, and the
    denominator they share."""
    hit_index = [i for i, suit in enumerate(SUITS) if suit in hitting]
    size = sum(pile)
    from_pile = min(salvo, size)
    spill = salvo - from_pile
    if spill > sum(discards):
        raise CardsRanOut(f"a salvo of {salvo} cards would run out of cards")
    # Each way the fire cards can fall: their suits, weight, and the cards then left to
    # draw (the pile, then the discards). A salvo that empties the pile has the discards
    # shuffled into a new one, and nothing is left behind them.
    fires: list[tuple[tuple[int, ...], int, tuple[int, ...], tuple[int, ...]]] = []
    for f, weight in _sample(pile, from_pile):
        if spill:
            for e, extra in _sample(discards, spill):
                fires.append((_plus(f, e), weight * extra, _minus(discards, e), (0, 0, 0, 0)))
        else:
            fires.append((f, weight, _minus(pile, f), discards))
    damages = [_damage(rest, reserve, sum(fired[i] for i in hit_index))
               for fired, _, rest, reserve in fires]  # fmt: skip
    # One denominator for every outcome keeps the sums in integers.
    common = math.lcm(*(den for den, _ in damages))
    wl, sl, pl = left
    sums: dict[Outcome, int] = defaultdict(int)
    for (fired, weight, _, _), (den, damage) in zip(fires, damages, strict=True):
        hits = sum(fired[i] for i in hit_index)
        scale = weight * (common // den)
        for g, w in damage:
            sums[hits, min(g[_D], wl), min(g[_H], sl), min(g[_S], pl)] += scale * w
    denominator = common * math.comb(size, from_pile) * math.comb(sum(discards), spill)
    return tuple(sorted(sums.items())), denominator


@dataclass(frozen=True, slots=True)
class SalvoOdds:
    """The exact law of one salvo by ``attacker`` at ``target`` as they stand.

    ``outcomes`` gives each possible (hits, weapon systems lost, shield points lost,
    propulsion cells lost) a weight; its probability is the weight over ``denominator``.
    Losses are capped by what the target had left."""

    attacker: Ship
    target: Ship
    salvo: int
    hitting: frozenset[str]
    outcomes: tuple[tuple[Outcome, int], ...]
    denominator: int

    def law(self) -> dict[Outcome, Fraction]:
        """Each possible (hits, weapons lost, shields lost, propulsion lost) with its
        probability."""
        return {o: Fraction(w, self.denominator) for o, w in self.outcomes}

    def _law(self, index: int) -> list[Fraction]:
        size = 1 + max((o[index] for o, _ in self.outcomes), default=0)
        weights = [0] * size
        for outcome, w in self.outcomes:
            weights[outcome[index]] += w
        return [Fraction(w, self.denominator) for w in weights]

    def hits(self) -> list[Fraction]:
        """``P(hits = k)`` for k = 0, 1, ... up to the salvo's cards."""
        law = self._law(0)
        return law + [Fraction(0)] * (self.salvo + 1 - len(law))

    def lost(self, system: str) -> list[Fraction]:
        """``P(lost = k)`` for ``system`` (``weapons``, ``shields`` or ``propulsion``)."""
        names = [name for name, _ in SYSTEMS]
        return self._law(1 + names.index(system))

    def _p(self, test: Any) -> Fraction:
        return Fraction(sum(w for o, w in self.outcomes if test(o)), self.denominator)

    @property
    def p_hit(self) -> Fraction:
        """The chance of at least one hit."""
        return self._p(lambda o: o[0] > 0)

    @property
    def expected_hits(self) -> Fraction:
        """The mean number of hits."""
        return Fraction(sum(o[0] * w for o, w in self.outcomes), self.denominator)

    @property
    def expected_damage(self) -> Fraction:
        """The mean number of systems lost (weapons + shields + propulsion)."""
        return Fraction(sum((o[1] + o[2] + o[3]) * w for o, w in self.outcomes), self.denominator)

    @property
    def p_below_jump(self) -> Fraction:
        """The chance that the target's propulsion falls below half, so it can no longer
        jump (0 if it already could not)."""
        t = self.target
        if not t.can_jump:
            return Fraction(0)
        return self._p(lambda o: not can_jump(t.propulsion_left - o[3], t.cls.propulsion))

    @property
    def p_weapons_out(self) -> Fraction:
        """The chance that the target has no weapon systems left after the salvo."""
        return self._p(lambda o: o[1] == self.target.weapons_left)

    @property
    def p_wrecked(self) -> Fraction:
        """The chance that the target has neither weapons nor propulsion left: a wreck."""
        t = self.target
        return self._p(lambda o: o[1] == t.weapons_left and o[3] == t.propulsion_left)

    def summary(self) -> str:
        """The headline in words: "61% to hit at least once; expected 1.3 damage; 18% to
        knock out propulsion below jump" (the last part when it can happen; a chance to
        wreck it too when there is one)."""
        parts = [
            f"{percent(self.p_hit)} to hit at least once",
            f"expected {float(self.expected_damage):.1f} damage",
        ]
        if self.p_below_jump > 0:
            parts.append(f"{percent(self.p_below_jump)} to knock out propulsion below jump")
        if self.p_wrecked > 0:
            parts.append(f"{percent(self.p_wrecked)} to wreck it")
        return "; ".join(parts)

    def summary_phrase(self) -> Phrase:
        """:meth:`summary` for the page to write in its reader's language."""
        parts = [
            phrase("{chance} to hit at least once", chance=chance_phrase(self.p_hit)),
            phrase("expected {damage} damage", damage=round(float(self.expected_damage), 1)),
        ]
        if self.p_below_jump > 0:
            chance = chance_phrase(self.p_below_jump)
            parts.append(phrase("{chance} to knock out propulsion below jump", chance=chance))
        if self.p_wrecked > 0:
            parts.append(phrase("{chance} to wreck it", chance=chance_phrase(self.p_wrecked)))
        said = parts[0]
        for part in parts[1:]:
            said = phrase("{before}; {after}", before=said, after=part)
        return said

    def to_json(self) -> dict[str, Any]:
        """The odds as JSON, probabilities as floats: ``salvo`` (cards), ``hitting``
        suits, ``hits`` (``P(hits = k)`` by k), ``lost`` (by system, ``P(lost = k)``),
        ``p_hit``, ``expected_hits``, ``expected_damage``, ``p_below_jump``,
        ``p_weapons_out``, ``p_wrecked`` and the ``summary`` in words (English), and
        ``summary_says``, the page's to write in its reader's language."""
        return {
            "salvo": self.salvo,
            "hitting": "".join(s for s in SUITS if s in self.hitting),
            "hits": [float(p) for p in self.hits()],
            "lost": {name: [float(p) for p in self.lost(name)] for name, _ in SYSTEMS},
            "p_hit": float(self.p_hit),
            "expected_hits": float(self.expected_hits),
            "expected_damage": float(self.expected_damage),
            "p_below_jump": float(self.p_below_jump),
            "p_weapons_out": float(self.p_weapons_out),
            "p_wrecked": float(self.p_wrecked),
            "summary": self.summary(),
            "summary_says": self.summary_phrase().to_json(),
        }


def percent(p: Fraction | float) -> str:
    """A chance as a whole percentage, never rounding a possible event to 0% or 100%."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 <= p < 1:
        return ">99%"
    return f"{float(p):.0%}"


def chance_phrase(p: Fraction | float) -> Phrase:
    """:func:`percent` for the page to write the reader's way ("61 %" in French)."""
    if 0 < p < 0.005:
        return phrase("<1%")
    if 0.995 <= p < 1:
        return phrase(">99%")
    return phrase("{percent}%", percent=round(float(p) * 100))


def salvo_odds(
    attacker: Ship, target: Ship, pile: Iterable[Card], discards: Iterable[Card] = ()
) -> SalvoOdds:
    """The exact law of one salvo by ``attacker`` at ``target`` as they stand, with
    ``pile`` the cards left to draw (their order unknown) and ``discards`` the cards
    shuffled into a new pile if it runs out. Raises ``ValueError`` if ``attacker`` cannot
    fire, :class:`CardsRanOut` if the cards could run out."""
    if attacker.salvo == 0:
        raise ValueError(f"{attacker.name} has no weapons left to fire")
    hitting = target.hit_by()
    left = (target.weapons_left, target.shields_left, target.propulsion_left)
    table, denominator = _salvo_table(
        attacker.salvo, hitting, left, suit_counts(pile), suit_counts(discards)
    )
    return SalvoOdds(attacker, target, attacker.salvo, hitting, table, denominator)


def shield_odds(pile: Iterable[Card], discards: Iterable[Card] = ()) -> Fraction:
    """The chance that the next two cards are the same colour or the same rank: to raise
    shields or open a hail. Drawn from ``pile`` (order unknown), then the shuffled
    ``discards`` if the pile runs out. Raises :class:`CardsRanOut` if there are not two
    cards to draw."""
    first, then = list(pile), list(discards)
    if len(first) >= 2:
        return _pair_chance(first)
    if len(first) + len(then) < 2:
        raise CardsRanOut("there are not two cards left to draw")
    if not first:
        return _pair_chance(then)
    card = first[0]
    same = sum(c.red == card.red or c.rank == card.rank for c in then)
    return Fraction(same, len(then))


def _pair_chance(cards: list[Card]) -> Fraction:
    """The chance that two cards drawn from ``cards`` are the same colour or rank."""
    red = sum(c.red for c in cards)
    black = len(cards) - red
    by_rank = Counter((c.rank, c.red) for c in cards)
    mixed_pairs = sum(by_rank[rank, True] * by_rank[rank, False] for rank in RANKS)
    good = math.comb(red, 2) + math.comb(black, 2) + mixed_pairs
    return Fraction(good, math.comb(len(cards), 2))


# -- the match: what the active ship can aim at ------------------------------------------


def aim(
    ship: Ship | None,
    ships: Iterable[Ship],
    pile: list[Card],
    discards: list[Card],
    check: Callable[[Fire], str | None],
) -> list[dict[str, Any]]:
    """Every other ship of ``ships`` on the table as the active ``ship`` sees it (``None``:
    no ship is active, and the list is empty), the deck holding ``pile`` and ``discards``,
    ``check`` saying why a salvo is refused (the match's): ``ship`` (its id),
    ``distance`` in hexes, ``in_range``, ``in_arc``, ``problem`` (why it cannot be fired
    at now, or ``None``: range, arc, side, or the activation's one salvo spent), ``odds``
    (:meth:`SalvoOdds.to_json` for a legal target, else ``None``), ``hail`` (the chance a
    hail opens communications) and ``raise_shields`` (the active ship's chance to raise
    its shields, ``None`` if it cannot try)."""
    if ship is None or ship.at is None:
        return []
    two_cards = float(shield_odds(pile, discards))
    can_raise = not ship.shields_up and ship.shields_left > 0
    listed = []
    for other in ships:
        if other.id == ship.id or not other.on_table or other.at is None:
            continue
        hexes = distance(ship.at, other.at)
        problem = check(Fire(ship.owner, ship.id, other.id, t=0))
        odds = None if problem else salvo_odds(ship, other, pile, discards).to_json()
        listed.append(
            {
                "ship": other.id,
                "distance": hexes,
                "in_range": hexes <= RANGE,
                "in_arc": ship.cls.all_round or in_forward_arc(ship.at, ship.facing, other.at),
                "problem": problem,
                "problem_says": says(problem),
                "odds": odds,
                "hail": two_cards,
                "raise_shields": two_cards if can_raise else None,
            }
        )
    return listed
