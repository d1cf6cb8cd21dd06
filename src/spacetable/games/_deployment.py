"""The real-time placing round that Light Speed and Stellar Conflict share.

Light Speed calls it the fast round, Stellar Conflict the deployment phase; the mechanics
are the same. Everyone holds the top card of his own deck and puts it on the table at any
pose (:class:`Place`): wholly on the table, touching no card already there. The next card
of his deck then comes to hand. When the round is cut short ("stop!", or Stellar
Conflict's countdown), every card still in hand freezes and its owner either lets it fall
where it is (:class:`Drop`) or keeps it out of the game (:class:`Discard`); the server's
:class:`Timeout` discards every card still undecided.

:class:`Deployment` keeps the cards of that round (decks, hands, the table, the choices
made at the freeze) and answers placement questions. It knows nothing of phases: each
game's match decides which action is allowed when, and words its own refusals.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from spacetable.core.events import Event
from spacetable.core.match import Action, InvalidOptions
from spacetable.core.records import tagged
from spacetable.i18n.phrase import Phrase, Reason, Value, phrase, player_said, refusal
from spacetable.lasers.battle import Card
from spacetable.lasers.geometry import (
    Pose,
    Rect,
    beyond_reach,
    card_reach,
    rect_inside,
    rects_touch,
)
from spacetable.lasers.ships import CARD_SIZE_MM, ShipDef

#: A table of 1200 x 800 mm centred on the origin, as in table files.
DEFAULT_TABLE_MM = (1200.0, 800.0)
#: Cards whose shapes overlap by less than this (mm) only touch (for messages).
_OVERLAP_MM = 1e-6

Choice = Literal["dropped", "discarded"]


# -- actions --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _CardDown(Action):
    """The card in hand put down at ``(x, y)`` mm, turned ``rotation_deg``
    counter-clockwise, at server time ``t`` s: the fields :class:`Place` and :class:`Drop`
    share."""

    player: str
    x: float
    y: float
    rotation_deg: float
    t: float


@tagged("place")
class Place(_CardDown):
    """Put the card in hand on the table at ``(x, y)`` mm, turned ``rotation_deg``
    counter-clockwise, at server time ``t`` s."""


@tagged("drop")
class Drop(_CardDown):
    """After the freeze: let the card in hand fall at ``(x, y, rotation_deg)``, where it
    froze."""


@tagged("discard")
class Discard(Action):
    """After the freeze: keep the card in hand out of the game."""

    player: str
    t: float


@tagged("timeout")
class Timeout(Action):
    """The server's countdown after the freeze ran out: every undecided card is
    discarded."""

    t: float


# -- events ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _CardOnTable(Event):
    """``player``'s ``ship`` came onto the table as card ``card`` at ``(x, y)`` mm, turned
    ``rotation_deg``, at server time ``t`` s: the fields :class:`CardPlaced` and
    :class:`CardDropped` share."""

    player: str
    card: str
    ship: str
    x: float
    y: float
    rotation_deg: float
    t: float


@tagged("placed")
class CardPlaced(_CardOnTable):
    """``player`` put ``ship`` on the table as card ``card``."""


@tagged("stop")
class StopCalled(Event):
    """``player`` placed his last card and called stop."""

    player: str
    t: float


@tagged("dropped")
class CardDropped(_CardOnTable):
    """After the freeze, ``player`` dropped ``ship`` on the table as card ``card``."""


@tagged("discarded")
class CardDiscarded(Event):
    """After the freeze, ``player``'s ``ship`` stayed out of the game (``timed_out``: he
    had not chosen when the countdown ran out)."""

    player: str
    ship: str
    timed_out: bool
    t: float


def checked_players(players: Any, game: str, fewest: int, most: int) -> tuple[str, ...]:
    """``players`` as a tuple of ``fewest`` to ``most`` distinct, non-empty names. Raises
    :class:`~spacetable.core.match.InvalidOptions` (``game`` names the game)."""
    if not isinstance(players, list | tuple) or not all(
        isinstance(p, str) and p.strip() for p in players
    ):
        raise InvalidOptions("'players' must be a list of non-empty names")
    if not fewest <= len(players) <= most:
        raise InvalidOptions(f"{game} is for {fewest} to {most} players, got {len(players)}")
    if len(set(players)) != len(players):
        raise InvalidOptions("player names must be distinct")
    return tuple(players)


def checked_table_size(size: Any) -> tuple[float, float]:
    """``size`` as ``(width, height)`` in mm: finite, positive, and large enough for a
    ship card (a table no card fits on would leave a deployment waiting forever, as
    nobody may discard while placing). Raises
    :class:`~spacetable.core.match.InvalidOptions`."""
    if (
        not isinstance(size, list | tuple)
        or len(size) != 2
        or not all(is_number(v) and math.isfinite(v) and v > 0 for v in size)
    ):
        raise InvalidOptions(f"'table_size_mm' must be [width, height] > 0, got {size!r}")
    (short, long), (card_short, card_long) = sorted(size), sorted(CARD_SIZE_MM)
    if short < card_short or long < card_long:
        raise InvalidOptions(
            f"the {size[0]:g} x {size[1]:g} mm table is too small for a "
            f"{CARD_SIZE_MM[0]:g} x {CARD_SIZE_MM[1]:g} mm card"
        )
    return float(size[0]), float(size[1])


def is_number(value: Any) -> bool:
    """A JSON number (``bool`` is not one)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def join_names(names: Sequence[Value]) -> Value:
    """``a``, ``a and b``, ``a, b and c``: a phrase, so that "and" is in the reader's
    language (a name alone stays as it is)."""
    if len(names) == 1:
        return names[0]
    head = names[0]
    for name in names[1:-1]:
        head = phrase("{before}, {after}", before=head, after=name)
    return phrase("{first} and {second}", first=head, second=names[-1])


# -- the round's cards ----------------------------------------------------------------------


class Deployment:
    """Decks, hands and the table of one placing round.

    ``ships`` maps every ship key a deck may hold to its definition. Card ids on the table
    are ``"<player>-<ship key>"``, unique as long as no deck holds a ship twice.
    """

    def __init__(
        self,
        players: Iterable[str],
        ships: Mapping[str, ShipDef],
        table: Iterable[Card],
        table_size_mm: tuple[float, float],
    ) -> None:
        self.players = tuple(players)
        self.ships = ships
        #: The cards on the table in the order they landed (asteroids first).
        self.table: list[Card] = list(table)
        self.table_size_mm = table_size_mm
        #: Each player's deck, index 0 on top (empty until dealt).
        self.decks: dict[str, list[str]] = {p: [] for p in self.players}
        #: The ship key each player holds, or ``None``.
        self.hands: dict[str, str | None] = dict.fromkeys(self.players)
        #: What each player did with the card he held at the freeze.
        self.choices: dict[str, Choice] = {}
        #: The ship each player discarded at the freeze.
        self.discarded: dict[str, str] = {}

    def deal(self, player: str, deck: list[str]) -> None:
        """Give ``player`` his deck (index 0 on top); its top card comes to hand."""
        self.hands[player] = deck.pop(0) if deck else None
        self.decks[player] = deck

    # -- questions ----------------------------------------------------------------------------

    def player_problem(self, player: str) -> Reason | None:
        """Why ``player`` cannot act in this match at all, or ``None``."""
        if player in self.hands:
            return None
        return refusal("'{player}' is not a player in this match ({players})",
                       player=player, players=", ".join(self.players))  # fmt: skip

    def no_card(self, player: str) -> Reason:
        """Why ``player``, who holds no card, cannot play one."""
        choice = self.choices.get(player)
        if choice == "dropped":
            return refusal("you have already dropped your last card")
        if choice == "discarded":
            return refusal("you have already discarded your last card")
        if player in self.decks and not self.decks[player]:
            return refusal("you have played all your cards")
        return refusal("you hold no card")

    def holding(self) -> list[str]:
        """The players who hold a card, in seat order."""
        return [p for p in self.players if self.hands[p] is not None]

    def card_name(self, card: Card, viewer: str) -> Phrase:
        """How a refusal names ``card`` to ``viewer``: ``your Moth``, ``red's Moth``,
        ``the asteroid``, ``asteroid 2``."""
        if card.ship is None:
            if card.id == "asteroid":
                return phrase("the asteroid")
            return phrase("asteroid {n}", n=card.id.rpartition("-")[2])
        if card.owner == viewer:
            return phrase("your {ship}", ship=card.ship.name)
        return phrase("{owner}'s {ship}", owner=player_said(card.owner or ""), ship=card.ship.name)

    def check_placement(
        self, player: str, x: float, y: float, rotation_deg: float
    ) -> Reason | None:
        """Why ``player``'s card in hand may not lie at ``(x, y, rotation_deg)``, or
        ``None`` if it may: it must be wholly on the table and touch no card."""
        problem = self.player_problem(player)
        if problem is not None:
            return problem
        ship = self.hands[player]
        if ship is None:
            return self.no_card(player)
        name = self.ships[ship].name
        if not all(is_number(v) and math.isfinite(v) for v in (x, y, rotation_deg)):
            return refusal("your {ship} needs a finite position and rotation", ship=name)
        rect = Rect(Pose(x, y, rotation_deg), *CARD_SIZE_MM)
        width, height = self.table_size_mm
        if not rect_inside(rect, width, height):
            if abs(x) <= width / 2 and abs(y) <= height / 2:
                return refusal("your {ship} would lie partly off the table", ship=name)
            return refusal("your {ship} would lie off the table", ship=name)
        inner = Rect(rect.pose, rect.width - 2 * _OVERLAP_MM, rect.length - 2 * _OVERLAP_MM)
        overlaps: list[Value] = []
        touches: list[Value] = []
        reach = rect.reach
        for card in self.table:
            # Most cards lie too far to touch: known before their rectangles are built.
            if beyond_reach(rect.pose, reach, card.pose, card_reach(*card.size)):
                continue
            if rects_touch(rect, card.rect):
                names = overlaps if rects_touch(inner, card.rect) else touches
                names.append(self.card_name(card, player))
        if not overlaps and not touches:
            return None
        if overlaps and touches:
            return refusal("your {ship} would overlap {cards} and touch {others}", ship=name,
                           cards=join_names(overlaps), others=join_names(touches))  # fmt: skip
        if overlaps:
            return refusal(
                "your {ship} would overlap {cards}", ship=name, cards=join_names(overlaps)
            )
        return refusal("your {ship} would touch {cards}", ship=name, cards=join_names(touches))

    # -- changes ------------------------------------------------------------------------------

    def place(self, action: Place, rocks: int = 0) -> CardPlaced:
        """Put the card in hand down at the action's pose (``rocks`` on it); the hand is
        empty until :meth:`draw`."""
        card, ship = self._put_down(action.player, action.x, action.y, action.rotation_deg, rocks)
        pose = card.pose
        return CardPlaced(
            action.player, card.id, ship, pose.x, pose.y, pose.rotation_deg, float(action.t)
        )

    def draw(self, player: str) -> bool:
        """Bring ``player``'s next card to hand; ``False`` if his deck is empty."""
        deck = self.decks[player]
        if not deck:
            return False
        self.hands[player] = deck.pop(0)
        return True

    def drop(self, action: Drop, rocks: int = 0) -> CardDropped:
        """Let the frozen card fall at the action's pose (``rocks`` on it)."""
        card, ship = self._put_down(action.player, action.x, action.y, action.rotation_deg, rocks)
        self.choices[action.player] = "dropped"
        pose = card.pose
        return CardDropped(
            action.player, card.id, ship, pose.x, pose.y, pose.rotation_deg, float(action.t)
        )

    def discard(self, player: str, timed_out: bool, t: float) -> CardDiscarded:
        """Keep ``player``'s frozen card out of the game."""
        ship = self.hands[player]
        assert ship is not None
        self.hands[player] = None
        self.choices[player] = "discarded"
        self.discarded[player] = ship
        return CardDiscarded(player, ship, timed_out, t)

    def _put_down(
        self, player: str, x: float, y: float, rotation_deg: float, rocks: int
    ) -> tuple[Card, str]:
        ship = self.hands[player]
        assert ship is not None
        pose = Pose(float(x), float(y), float(rotation_deg))
        card = Card(f"{player}-{ship}", pose, self.ships[ship], player, rocks)
        self.table.append(card)
        self.hands[player] = None
        return card, ship
