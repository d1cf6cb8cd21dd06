"""The fiducial markers of a printed Light Speed / Stellar Conflict card: which dictionary,
where each marker sits on the card, and which marker ids name which card (pure: no I/O).

This module is the contract between the print sheets (``spacetable print`` draws the
markers) and the photo referee (``spacetable photo`` finds them). Draw and read them from
the constants and functions here, never from numbers copied elsewhere, so that both sides
move together.

**Dictionary.** OpenCV's ArUco ``DICT_6X6_1000`` (:data:`DICTIONARY`): 1000 ids, 6 x 6
data bits inside a one-cell black border, so :data:`MARKER_CELLS` = 8 cells across. Chosen
over the 4 x 4 and 5 x 5 dictionaries for its distance between codes (it corrects 4 bad
bits; ``DICT_4X4_1000`` corrects none, so one misread cell names another card) and over
``DICT_APRILTAG_36h11`` for its id count (587 ids do not cover the cards below).
:func:`marker_cells` gives a marker's cells to draw (True = black).

**Layout.** Every card carries :data:`MARKERS_PER_CARD` = 2 markers, each a black square of
side :data:`MARKER_SIDE_MM` (18 mm, so a cell is :data:`CELL_MM` = 2.25 mm) printed
*upright* (the marker's top edge toward the card's front), in the two **back** corners of
the card, where no catalog ship has a laser or its beam (the front corners hold the speed,
the health and corner lasers). Each black square lies :data:`MARKER_INSET_MM` from the back
edge and from its side edge, and is surrounded by a white quiet zone
:data:`QUIET_ZONE_MM` wide on every side (nothing else printed there; the detector needs
the contrast). On the back and side it reaches exactly the card's frame line at
:data:`FRAME_INSET_MM` (paint the dark panel around it, not under it), so the light margin
continues it and the shield bars drawn on the edges stay outside it. Slot 0 is the
back-left marker, slot 1 the back-right one (left and right as the card is read, front
up).
:func:`marker_square_from_top_left` gives each square as a drawing program wants it: its
top-left corner in mm from the card's top-left corner, y downward (the card upright, front
edge at the top, as in the print manifest); :func:`marker_corners_mm` gives its four
corners in the card frame of DESIGN section 2 (origin at the card's centre, +y toward the
front) in the order OpenCV's detector reports them. Both follow the card's size: the
markers keep their size and their inset from the back corners.

**Frame line.** The card face's dark panel starts :data:`FRAME_INSET_MM` inside the card's
edge (the light margin outside it, as ``render/svg.py`` draws a card): its straight edges
are the card's printed border.

**Ids.** A card is named by its :class:`CardKey` ``(ruleset, ship, owner, copy)`` and
carries the ids ``(2 n, 2 n + 1)`` (slot 0, slot 1) for its number ``n`` in this order:

1. each printed deck of :data:`~spacetable.lasers.printed.PRINTED_DECKS` in turn (Light
   Speed's, then Stellar Conflict's): its colours, each with room for its ``slots`` ships
   of which its ``ships`` are used, each in copies 1..its ``copies``;
2. the asteroids: copies 1..:data:`ASTEROID_COPIES` of :data:`ASTEROID` (no owner; the same
   cards serve every ruleset).

The decks' ship lists only grow at their end (a new Stellar Conflict ship takes a free
slot), so printed cards keep their ids. :func:`marker_ids` and :func:`card_for_marker` convert both
ways; :attr:`CardKey.card_id` is the card's id in a table file (``red-moth``,
``red-moth-2`` for a second copy, ``asteroid-3``).
"""

from __future__ import annotations

from dataclasses import dataclass

from spacetable.lasers.printed import PRINTED_DECKS, PrintedDeck

#: OpenCV's name of the ArUco dictionary (``cv2.aruco.DICT_6X6_1000``).
DICTIONARY = "DICT_6X6_1000"
#: How many ids the dictionary has.
DICTIONARY_IDS = 1000
#: Cells across a marker: 6 data cells and a one-cell black border on each side.
MARKER_CELLS = 8
#: Side of a marker's black square (mm).
MARKER_SIDE_MM = 18.0
#: Side of one cell (mm).
CELL_MM = MARKER_SIDE_MM / MARKER_CELLS
#: White margin around each marker's black square (mm); nothing else is printed there. It
#: reaches the frame line on the card's back and side, so that the card's light margin
#: continues it: no dark line runs close along the marker (at a steep angle a thin white
#: band between two dark ones blurs into them and moves the marker's edge).
QUIET_ZONE_MM = 2.9
#: Distance from the card's back edge, and from its side edge, to a marker's black square.
MARKER_INSET_MM = 5.5
#: Distance from the card's edge to its printed frame line (the dark panel's edge).
FRAME_INSET_MM = 2.6
#: Markers on every card: slot 0 in the back-left corner, slot 1 in the back-right one.
MARKERS_PER_CARD = 2
#: The card size the catalogs are designed on (DESIGN section 2).
CARD_SIZE_MM = (63.0, 88.0)

ASTEROID = "asteroid"
ASTEROID_COPIES = 8
#: The rulesets whose cards carry markers.
_RULESETS = tuple(deck.ruleset for deck in PRINTED_DECKS)

#: The first card number of each printed deck, and of the asteroids after them.
_FIRST: tuple[int, ...] = tuple(
    sum(deck.cards for deck in PRINTED_DECKS[:i]) for i in range(len(PRINTED_DECKS) + 1)
)
_ASTEROIDS_FIRST = _FIRST[-1]
#: How many cards have ids (each takes :data:`MARKERS_PER_CARD` of them).
CARD_NUMBERS = _ASTEROIDS_FIRST + ASTEROID_COPIES

#: A point in mm.
Point = tuple[float, float]


class UnknownCard(ValueError):
    """No marker ids name this card: an unknown ruleset, ship, colour or copy."""


@dataclass(frozen=True, slots=True)
class CardKey:
    """A printed card: its ruleset (``None`` for an asteroid, which serves both), ship key,
    owner (a colour; ``None`` for an asteroid) and copy (1 for the first)."""

    ruleset: str | None
    ship: str
    owner: str | None
    copy: int = 1

    @property
    def card_id(self) -> str:
        """The card's id in a table file: ``<owner>-<ship>``, ``-2``, ``-3`` for a second
        and third copy (``asteroid``, ``asteroid-2`` ... for the asteroids)."""
        base = self.ship if self.owner is None else f"{self.owner}-{self.ship}"
        return base if self.copy == 1 else f"{base}-{self.copy}"


def _index(items: tuple[str, ...], item: str | None, what: str) -> int:
    if item not in items:
        raise UnknownCard(f"no markers for {what} {item!r} (known: {', '.join(items)})")
    return items.index(item)


def _check_copy(copy: int, copies: int, what: str) -> None:
    if not 1 <= copy <= copies:
        raise UnknownCard(f"no markers for copy {copy} of {what} (copies 1 to {copies})")


def printed_deck(ruleset: str | None) -> PrintedDeck:
    """The printed deck of the game whose table files name ``ruleset``. Raises
    :class:`UnknownCard` for a ruleset whose cards carry no markers."""
    for deck in PRINTED_DECKS:
        if deck.ruleset == ruleset:
            return deck
    known = " or ".join(deck.ruleset for deck in PRINTED_DECKS)
    raise UnknownCard(f"no markers for ruleset {ruleset!r} ({known})")


def card_number(card: CardKey) -> int:
    """The card's number ``n`` (its markers are ``2 n`` and ``2 n + 1``). Raises
    :class:`UnknownCard` for a card that has no markers."""
    if card.ship == ASTEROID:
        if card.owner is not None:
            raise UnknownCard("an asteroid has no owner")
        if card.ruleset is not None and card.ruleset not in _RULESETS:
            raise UnknownCard(f"no markers for ruleset {card.ruleset!r}")
        _check_copy(card.copy, ASTEROID_COPIES, "the asteroid")
        return _ASTEROIDS_FIRST + card.copy - 1
    deck = printed_deck(card.ruleset)
    colour = _index(deck.colours, card.owner, f"{deck.title} colour")
    ship = _index(deck.ships, card.ship, f"{deck.title} ship")
    _check_copy(card.copy, deck.copies, card.ship)
    slot = (colour * deck.slots + ship) * deck.copies + card.copy - 1
    return _FIRST[PRINTED_DECKS.index(deck)] + slot


def marker_ids(ruleset: str | None, ship: str, owner: str | None, copy: int = 1) -> tuple[int, int]:
    """The ids of a card's markers, slot 0 (back left) then slot 1 (back right). An
    asteroid is ``ship="asteroid"`` with ``owner=None`` (any ruleset). Raises
    :class:`UnknownCard` for a card that has no markers."""
    number = card_number(CardKey(ruleset, ship, owner, copy))
    return 2 * number, 2 * number + 1


def card_for_marker(marker_id: int) -> tuple[CardKey, int] | None:
    """The card a marker id names and the marker's slot (0 back left, 1 back right), or
    ``None`` for an id no card carries (an unused slot, or outside the dictionary)."""
    if not 0 <= marker_id < 2 * CARD_NUMBERS:
        return None
    number, slot = divmod(marker_id, 2)
    for deck, first in zip(PRINTED_DECKS, _FIRST, strict=False):
        if number < first + deck.cards:
            rest, copy = divmod(number - first, deck.copies)
            colour, ship = divmod(rest, deck.slots)
            if ship >= len(deck.ships):
                return None
            return CardKey(deck.ruleset, deck.ships[ship], deck.colours[colour], copy + 1), slot
    return CardKey(None, ASTEROID, None, number - _ASTEROIDS_FIRST + 1), slot


def all_cards() -> list[CardKey]:
    """Every card that has markers, in the order of their numbers."""
    cards: list[CardKey] = []
    for number in range(CARD_NUMBERS):
        found = card_for_marker(2 * number)
        if found is not None:
            cards.append(found[0])
    return cards


def marker_square_from_top_left(
    slot: int, card_size: tuple[float, float] = CARD_SIZE_MM
) -> tuple[float, float]:
    """Where to draw marker ``slot``'s black square on an upright card (front edge at the
    top): its top-left corner in mm from the card's top-left corner, x to the right, y
    downward. The square's side is :data:`MARKER_SIDE_MM`; draw it upright (cell row 0 of
    :func:`marker_cells` at the top) with its quiet zone :data:`QUIET_ZONE_MM` around it."""
    width, length = card_size
    top = length - MARKER_INSET_MM - MARKER_SIDE_MM
    if slot == 0:
        return MARKER_INSET_MM, top
    if slot == 1:
        return width - MARKER_INSET_MM - MARKER_SIDE_MM, top
    raise ValueError(f"a card has markers in slots 0 and 1, not {slot}")


def marker_corners_mm(
    slot: int, card_size: tuple[float, float] = CARD_SIZE_MM
) -> tuple[Point, Point, Point, Point]:
    """The four corners of marker ``slot``'s black square in the card frame (mm, origin at
    the card's centre, +x to its right, +y toward its front), in the order OpenCV's
    ArUco detector reports a marker's corners: the marker's top-left, top-right,
    bottom-right, bottom-left (the marker's top toward the card's front)."""
    left, top = marker_square_from_top_left(slot, card_size)
    x0 = left - card_size[0] / 2
    y1 = card_size[1] / 2 - top
    x1, y0 = x0 + MARKER_SIDE_MM, y1 - MARKER_SIDE_MM
    return (x0, y1), (x1, y1), (x1, y0), (x0, y0)


def marker_cells(marker_id: int) -> tuple[tuple[bool, ...], ...]:
    """The marker's :data:`MARKER_CELLS` x :data:`MARKER_CELLS` cells, row 0 at the top,
    True for black (the outer ring is all black), as OpenCV's dictionary defines them.
    Raises ``ValueError`` for an id outside the dictionary."""
    if not 0 <= marker_id < DICTIONARY_IDS:
        raise ValueError(f"marker id {marker_id} is outside {DICTIONARY} (0 to 999)")
    import cv2  # the one dependency on OpenCV here, only when a marker is drawn

    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, MARKER_CELLS, borderBits=1)
    return tuple(tuple(bool(value < 128) for value in row) for row in image)
