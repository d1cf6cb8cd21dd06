"""The playing cards: a 52-card deck (no jokers), its draw pile and its discards.

A card is its rank and suit written together: ``A 2..10 J Q K`` + ``S H D C`` (``10S``,
``KH``, DESIGN section 6). Hearts and diamonds are red, spades and clubs black. The deck
is shuffled by the match's seeded chance only; when the draw pile runs out the discards
are shuffled into a new one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from spacetable.i18n import N_, Translator

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS = frozenset({"H", "D"})
#: Each suit's symbol, as the cards print it (a reader sees ``K♥`` where files write ``KH``).
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
#: The letters of the ace and the faces as the catalogs hold them, the place being the
#: suit's symbol (web/js/games/hexfleet/cardnames.js uses the same messages): ``K♥`` in
#: English, ``R♥`` in French (roi, dame, valet).
_FACES = {"A": N_("A{suit}"), "J": N_("J{suit}"), "Q": N_("Q{suit}"), "K": N_("K{suit}")}


class Card(NamedTuple):
    """One playing card."""

    rank: str
    suit: str

    @property
    def red(self) -> bool:
        """Hearts and diamonds are red."""
        return self.suit in RED_SUITS

    def __str__(self) -> str:
        return self.rank + self.suit


def parse_card(text: object) -> Card:
    """``"10S"``, ``"kh"``... as a card. Raises ``ValueError`` naming the text."""
    if not isinstance(text, str):
        raise ValueError(f"a card must be a string like '10S' or 'KH', got {text!r}")
    name = text.strip().upper()
    rank, suit = name[:-1], name[-1:]
    if rank == "1":
        rank = "A"
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"{text[:12]!r} is not a card (rank A 2..10 J Q K, then suit S H D C)")
    return Card(rank, suit)


def card_shown(code: str, tr: Translator) -> str:
    """A card's code (``"KH"``, ``"10S"``) as a reader of ``tr``'s language reads it: its
    rank in that language and its suit's symbol (``K♥``, ``R♥`` in French; ``10♠``). Any
    other text is returned as it is."""
    try:
        card = parse_card(code)
    except ValueError:
        return code
    suit = SUIT_SYMBOLS[card.suit]
    return tr.gettext(_FACES[card.rank], suit=suit) if card.rank in _FACES else card.rank + suit


def cards_shown(codes: str, tr: Translator) -> str:
    """Codes separated by spaces (``"7H 7C"``), each as :func:`card_shown` shows it."""
    return " ".join(card_shown(code, tr) for code in codes.split(" "))


def card_places(tr: Translator) -> dict[str, Callable[[str], str]]:
    """How the places of the hex fleet's phrases that hold card codes (``{card}``,
    ``{cards}``) are shown to a reader of ``tr``'s language: the ``shown`` of
    :meth:`~spacetable.i18n.phrase.Phrase.text`."""
    return {
        "card": lambda code: card_shown(code, tr),
        "cards": lambda codes: cards_shown(codes, tr),
    }


def full_deck() -> list[Card]:
    """The 52 cards in a fixed order (suits, then ranks)."""
    return [Card(rank, suit) for suit in SUITS for rank in RANKS]


def pair_or_colour(a: Card, b: Card) -> bool:
    """Whether two cards raise shields or open a hail: same colour or same rank."""
    return a.red == b.red or a.rank == b.rank


class CardsRanOut(LookupError):
    """A combat script's cards ran out before its step was settled."""


class CardSource:
    """Where combat draws its cards from, one at a time (a shuffled deck, or the cards
    a referee typed in)."""

    def draw(self) -> Card:
        """The next card."""
        raise NotImplementedError

    def discard(self, cards: Iterable[Card]) -> None:
        """``cards`` have been settled and go to the discards."""


@dataclass(slots=True)
class Deck(CardSource):
    """One 52-card deck: the draw pile (top last), the discards, and the seeded chance
    that shuffles them. Every card is in exactly one of the pile, the discards or in
    play (turned and not yet discarded)."""

    rng: random.Random
    pile: list[Card] = field(default_factory=list)
    discards: list[Card] = field(default_factory=list)
    #: How many times the discards were shuffled into a new pile.
    reshuffles: int = 0

    @classmethod
    def shuffled(cls, rng: random.Random) -> Deck:
        """A new deck, shuffled by ``rng``."""
        pile = full_deck()
        rng.shuffle(pile)
        return cls(rng, pile)

    def draw(self) -> Card:
        """The top card; an empty pile is first remade from the shuffled discards."""
        if not self.pile:
            if not self.discards:
                raise CardsRanOut("every card is in play: there is nothing to draw")
            self.pile = self.discards
            self.discards = []
            self.rng.shuffle(self.pile)
            self.reshuffles += 1
        return self.pile.pop()

    def discard(self, cards: Iterable[Card]) -> None:
        """``cards`` go to the discards."""
        self.discards.extend(cards)


@dataclass(slots=True)
class ScriptedCards(CardSource):
    """The cards a referee turned in a physical game, in the order they came."""

    cards: list[Card]
    position: int = 0

    def draw(self) -> Card:
        """The next card typed in. Raises :class:`CardsRanOut` when there are no more."""
        if self.position >= len(self.cards):
            raise CardsRanOut(f"the script's {len(self.cards)} cards ran out")
        card = self.cards[self.position]
        self.position += 1
        return card
