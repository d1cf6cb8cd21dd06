"""The laser games' printed cards that carry fiducial markers, in the order of their marker
numbers: for each game, its colours, its ships and how many copies of each are printed
(:class:`PrintedDeck`). :mod:`spacetable.photo.markers` numbers the cards of
:data:`PRINTED_DECKS` in this order, then the asteroids; the print sheets draw those
numbers and the photo referee reads them, so the lists here only grow at their end: a
card's place is part of the ids printed on it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PrintedDeck:
    """One game's printed cards: the ``ruleset`` its table files name and its ``title``;
    for each of its ``colours`` (a player's), room for ``slots`` ships of which ``ships``
    are used, each in copies 1..``copies``."""

    ruleset: str
    title: str
    colours: tuple[str, ...]
    #: Append only: a ship's place here is part of the ids printed on its cards.
    ships: tuple[str, ...]
    copies: int
    #: Ship places reserved per colour (room for new ships): at least ``len(ships)``.
    slots: int

    @property
    def cards(self) -> int:
        """How many card numbers the deck takes (free slots included)."""
        return len(self.colours) * self.slots * self.copies


_LIGHTSPEED_SHIPS: tuple[str, ...] = (
    "moth", "sidewinder", "wasp", "intruder", "viper",
    "ghost", "lancer", "avenger", "destroyer", "dreadnought",
)  # fmt: skip

#: Light Speed: each colour's ten ships, three copies of each.
LIGHTSPEED_PRINTED = PrintedDeck(
    ruleset="lightspeed",
    title="Light Speed",
    colours=("red", "blue", "green", "purple"),
    ships=_LIGHTSPEED_SHIPS,
    copies=3,
    slots=len(_LIGHTSPEED_SHIPS),
)

_STELLAR_SHIPS: tuple[str, ...] = (
    "hexai-mote", "hexai-shard", "hexai-facet", "hexai-drone", "hexai-cell",
    "hexai-prism", "hexai-sting", "hexai-weaver", "hexai-carapace", "hexai-vertex",
    "hexai-spinner", "hexai-lattice", "hexai-node", "hexai-comb", "hexai-hive",
    "hexai-pulse", "hexai-helix", "hexai-matrix", "hexai-brood", "hexai-hexarch",
    "tetrakori-seeker", "tetrakori-probe", "tetrakori-outrider", "tetrakori-skitter",
    "tetrakori-darter", "tetrakori-mite", "tetrakori-husk", "tetrakori-lash",
    "tetrakori-claw", "tetrakori-pincer", "tetrakori-swarmer", "tetrakori-chitin",
    "tetrakori-mandible", "tetrakori-stinger", "tetrakori-gnasher", "tetrakori-thorax",
    "tetrakori-ravener", "tetrakori-carapax", "tetrakori-broodguard", "tetrakori-spitter",
    "tetrakori-devourer", "tetrakori-larder", "tetrakori-hivemother",
    "vak-grub", "vak-goad", "vak-lurker", "vak-maul", "vak-bulwark",
    "vak-talon", "vak-spike", "vak-rend", "vak-smasher", "vak-ironback",
    "vak-cleaver", "vak-breaker", "vak-hulk", "vak-brute", "vak-ravager",
    "vak-hammer", "vak-gorer", "vak-warden", "vak-hoard", "vak-dominator",
    "wiss-glint", "wiss-flicker", "wiss-lancet", "wiss-needle", "wiss-skein",
    "wiss-veil", "wiss-mistral", "wiss-drift", "wiss-zephyr", "wiss-halcyon",
    "wiss-tempest", "wiss-gale", "wiss-aurora", "wiss-sylph", "wiss-cirrus",
    "wiss-stratus", "wiss-nimbus", "wiss-wisp", "wiss-caravel", "wiss-empyrean",
)  # fmt: skip

#: Stellar Conflict: a player chooses a race and a colour (as in the rulebook's setup);
#: every race's ships, one copy (a race's deck holds each of its ships once), with room for
#: 90 ships per colour.
STELLAR_PRINTED = PrintedDeck(
    ruleset="stellar",
    title="Stellar Conflict",
    colours=("red", "blue", "green", "purple"),
    ships=_STELLAR_SHIPS,
    copies=1,
    slots=90,
)

#: The decks in the order of their marker numbers (append only).
PRINTED_DECKS: tuple[PrintedDeck, ...] = (LIGHTSPEED_PRINTED, STELLAR_PRINTED)
