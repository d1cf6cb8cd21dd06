"""A photo to a table file: decode the image, find the cards (:mod:`.solve`), and write
them as a DESIGN section 3 table with each card's uncertainty (``spacetable photo``)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from spacetable.i18n import N_
from spacetable.photo.detection import PlacedCard, detect_with_candidates, look_again
from spacetable.photo.markers import ASTEROID, UnknownCard, printed_deck
from spacetable.photo.solve import FoundCard, PhotoError, Solution, solve

#: The fit's standard deviations are those of independent corner noise; a photo's errors
#: also come from what all corners share (the plane's fit, the lens). The uncertainty a
#: card is given is the fit's times a factor, combined with a floor, calibrated on the
#: synthetic corpus (``spacetable bench --photo``, seeds 0 to 19) against the error that
#: matters for a shot, across a laser's ray, relative to the cards it passes (see
#: :mod:`.closecalls`): with these, that error's median is 0.69 of the predicted standard
#: deviation (a normal law's: 0.67), and of the factors and floors tried these give the
#: narrowest band that holds every error of the corpus.
SIGMA_FACTOR_MM = 1.5
SIGMA_FACTOR_DEG = 1.0
SIGMA_FLOOR_MM = 0.1
SIGMA_FLOOR_DEG = 0.01

#: Rounds of :func:`~spacetable.photo.detection.look_again` after the first fit.
LOOK_AGAIN_ROUNDS = 2


def _title(ruleset: str) -> str:
    """The title of the game whose printed cards name ``ruleset`` (else the ruleset)."""
    try:
        return printed_deck(ruleset).title
    except UnknownCard:
        return ruleset


@dataclass(frozen=True, slots=True)
class PhotoTable:
    """What a photo gives: the table file (JSON object), its cards with their uncertainty
    (in the table's card order) and the fit."""

    table: dict[str, Any]
    cards: tuple[FoundCard, ...]
    solution: Solution

    def sigma_mm(self, card: FoundCard) -> float:
        """The card centre's uncertainty (mm, one standard deviation)."""
        return math.hypot(SIGMA_FACTOR_MM * card.sigma_mm, SIGMA_FLOOR_MM)

    def sigma_deg(self, card: FoundCard) -> float:
        """The card rotation's uncertainty (degrees, one standard deviation)."""
        return math.hypot(SIGMA_FACTOR_DEG * card.sigma_deg, SIGMA_FLOOR_DEG)

    def cards_json(self) -> list[dict[str, Any]]:
        """The ``cards`` list of ``spacetable photo --json``."""
        return [
            {
                "id": card.key.card_id,
                "marker": list(card.markers),
                "sigma_mm": round(self.sigma_mm(card), 3),
                "sigma_deg": round(self.sigma_deg(card), 3),
            }
            for card in self.cards
        ]


def decode(data: bytes, name: str) -> NDArray[Any]:
    """The photo as a grayscale image. Raises :class:`PhotoError` if it is no image OpenCV
    reads (JPEG, PNG, TIFF, WebP...)."""
    # OpenCV would also log its own complaint on stderr: the error below says it in one line.
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    if image is None or image.size == 0:
        raise PhotoError(
            N_("{name}: cannot read it as an image (JPEG, PNG, TIFF or WebP)"), name=name
        )
    return image


def photo_table(gray: NDArray[Any]) -> PhotoTable:
    """Find the cards in a grayscale photo and build their table file. Raises
    :class:`PhotoError` naming the problem (no markers, a card cut off, a marker seen
    twice, cards of two rulesets, one player only)."""
    height, width = gray.shape[:2]
    markers, candidates = detect_with_candidates(gray)
    solution = solve(markers, (width, height))
    # A card found on a second look may have its other marker found on a third.
    placed = [PlacedCard(c.key, c.x, c.y, math.radians(c.rotation_deg)) for c in solution.cards]
    for _round in range(LOOK_AGAIN_ROUNDS):
        more = look_again(gray, np.array(solution.homography), placed, markers, candidates)
        if not more:
            break
        markers = sorted(markers + more, key=lambda m: m.id)
        solution = solve(markers, (width, height))
        placed = [PlacedCard(c.key, c.x, c.y, math.radians(c.rotation_deg)) for c in solution.cards]
    ships = [c for c in solution.cards if c.key.ship != ASTEROID]
    rulesets = sorted({c.key.ruleset for c in ships if c.key.ruleset is not None})
    if not ships:
        raise PhotoError(N_("the photo shows only asteroids: no ship cards found"))
    if len(rulesets) > 1:
        first, second = (_title(r) for r in rulesets[:2])
        raise PhotoError(
            N_(
                "the photo mixes {first} and {second} cards: a battle is played with one "
                "game's cards"
            ),
            first=first,
            second=second,
        )
    ruleset = rulesets[0]
    colours = printed_deck(ruleset).colours
    owners = {c.key.owner for c in ships}
    players = [colour for colour in colours if colour in owners]
    if len(players) < 2:
        raise PhotoError(
            N_("the photo shows only {colour}'s cards: a battle needs 2 to 4 players"),
            colour=players[0],
        )
    ordered = sorted(
        solution.cards,
        key=lambda c: (
            c.key.ship != ASTEROID,
            players.index(c.key.owner) if c.key.owner else 0,
            c.key.card_id,
        ),
    )
    cards: list[dict[str, Any]] = []
    for card in ordered:
        entry: dict[str, Any] = {"id": card.key.card_id}
        if card.key.ship == ASTEROID:
            entry["type"] = "asteroid"
        else:
            entry.update(owner=card.key.owner, ship=card.key.ship)
        entry.update(
            x=round(card.x, 2),
            y=round(card.y, 2),
            rotation=round((card.rotation_deg + 180.0) % 360.0 - 180.0, 2),
        )
        cards.append(entry)
    table = {"ruleset": ruleset, "players": players, "cards": cards}
    return PhotoTable(table, tuple(ordered), solution)
