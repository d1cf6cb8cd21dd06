"""Faster Than Light's orders, written as the rulebook writes them (DESIGN section 5).

- ``R`` and an angle, a multiple of 15 from -180 to 180 degrees: a rotation. ``+`` or no
  sign is clockwise, a minus is counter-clockwise. ``R+45``, ``R-45``, ``R75``.
- ``S`` and a distance from 1 to 8 inches in steps of half an inch: a sprint. ``S3``,
  ``S2.5``.
- ``L``: a ship launches a missile.

Orders are read as a person types them (DESIGN section 5): case does not matter, spaces
are ignored, the minus may be a hyphen, an en dash (which the rulebook prints), the minus
sign (U+2212) or any other dash, and the text is read after Unicode NFKC normalisation
(full-width digits are digits): ``r -45`` is ``R-45``, and so is ``R`` with U+2212 before
``45``; ``s`` and a full-width 3 (U+FF13) is ``S3``.
The browser reads them the same way (``web/js/games/ftl/orders.js``); both are held to one
table of texts (``tests/golden/ftl-order-texts.json``).

Orders round-trip: ``parse_order(text).text`` is the order in its plain form (``R+45``,
``S2.5``, ``L``). A text that is no order raises :class:`MalformedOrder`; an order the rules
forbid (``R+10``, ``S8.5``, a missile told to launch) raises :class:`IllegalOrder`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction

from spacetable._userinput import clipped
from spacetable.core.match import IllegalAction, MalformedAction
from spacetable.games.ftl.pieces import Piece
from spacetable.i18n.phrase import Reason, piece_said, refusal

#: Rotations are multiples of this many degrees.
ROTATION_STEP_DEG = 15
#: The largest rotation either way, in degrees.
MAX_ROTATION_DEG = 180
#: Sprint lengths: from 1 to 8 inches in steps of half an inch.
MIN_SPRINT_IN, MAX_SPRINT_IN, SPRINT_STEP_IN = Fraction(1), Fraction(8), Fraction(1, 2)
#: The longest order, in characters once its spaces are dropped (``S3`` and 40 blanks is
#: ``S3``; anything longer is malformed and shown clipped).
MAX_ORDER_CHARS = 32
#: The longest text read as an order at all, spaces and all: a longer one is malformed
#: before it is normalised (DESIGN section 5).
MAX_ORDER_TEXT_CHARS = 256

#: Read as a minus: the hyphens (U+2010, U+2011), the figure dash, the en dash the rulebook
#: prints, the em dash and the minus sign (NFKC makes the full-width and small hyphen-minus
#: plain ones).
_MINUS_SIGNS = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2212", "-"))
_SPACES = re.compile(r"\s+")
_ROTATION = re.compile(r"R([+-]?)([0-9]+)")
_SPRINT = re.compile(r"S([0-9]+(?:\.[0-9]+)?)")


class MalformedOrder(MalformedAction):
    """A text that is not an order at all (``X3``, ``S``, ``Rfast``)."""


class IllegalOrder(IllegalAction):
    """A well-formed order the rules forbid (``R+10``, ``R195``, ``S0.5``, ``S2.25``, a
    missile told to launch, a launch with no missiles left)."""


@dataclass(frozen=True, slots=True)
class Rotate:
    """Turn about the post by ``angle_deg``; positive is clockwise, as written."""

    angle_deg: int

    @property
    def text(self) -> str:
        """The order as written: ``R+45`` or ``R-45``."""
        return f"R{self.angle_deg:+d}"


@dataclass(frozen=True, slots=True)
class Sprint:
    """Jump straight ahead by ``distance_in`` inches along the heading."""

    distance_in: float

    @property
    def text(self) -> str:
        """The order as written: ``S3`` or ``S2.5``."""
        return f"S{self.distance_in:g}"


@dataclass(frozen=True, slots=True)
class Launch:
    """Put a new missile on the table just ahead of the ship."""

    @property
    def text(self) -> str:
        """The order as written: ``L``."""
        return "L"


Order = Rotate | Sprint | Launch


def as_read(text: str) -> str:
    """``text`` as the orders are read: NFKC-normalised, without spaces, every minus sign a
    hyphen, in capitals (``r -45`` and ``R`` U+2212 ``45`` are ``R-45``)."""
    folded = _SPACES.sub("", unicodedata.normalize("NFKC", text))
    return folded.translate(_MINUS_SIGNS).upper()


def parse_order(text: str) -> Order:
    """Read one order as the rulebook writes it, as forgivingly as a person types it (case,
    spaces, any minus sign, full-width digits: see :func:`as_read`). The order is at most
    :data:`MAX_ORDER_CHARS` characters once its spaces are dropped, and its text at most
    :data:`MAX_ORDER_TEXT_CHARS` with them. Raises :class:`MalformedOrder` or
    :class:`IllegalOrder` with a message that quotes the order as written (clipped)."""
    if not isinstance(text, str):
        raise MalformedOrder(refusal("{text} is not an order", text=clipped(text, MAX_ORDER_CHARS)))
    if len(text) > MAX_ORDER_TEXT_CHARS:
        raise MalformedOrder(
            refusal(
                "{text} is not an order: an order's text is at most {most} characters",
                text=clipped(text, MAX_ORDER_CHARS),
                most=MAX_ORDER_TEXT_CHARS,
            )
        )
    written = text.strip()
    upper = as_read(written)
    if len(upper) > MAX_ORDER_CHARS:
        raise MalformedOrder(
            refusal(
                "{text} is not an order: an order is at most {most} characters without its spaces",
                text=clipped(written, MAX_ORDER_CHARS),
                most=MAX_ORDER_CHARS,
            )
        )
    if upper == "L":
        return Launch()
    if match := _ROTATION.fullmatch(upper):
        sign, digits = match.groups()
        angle = int(digits)
        if angle % ROTATION_STEP_DEG or angle > MAX_ROTATION_DEG:
            raise IllegalOrder(
                refusal(
                    "'{order}': a rotation is a multiple of {step} degrees from -180 to +180",
                    order=written,
                    step=ROTATION_STEP_DEG,
                )
            )
        return Rotate(-angle if sign == "-" else angle)
    if match := _SPRINT.fullmatch(upper):
        distance = Fraction(match.group(1))
        if not MIN_SPRINT_IN <= distance <= MAX_SPRINT_IN or distance % SPRINT_STEP_IN:
            raise IllegalOrder(
                refusal(
                    "'{order}': a sprint is {least} to {most} inches in steps of half an inch",
                    order=written,
                    least=int(MIN_SPRINT_IN),
                    most=int(MAX_SPRINT_IN),
                )
            )
        return Sprint(float(distance))
    raise MalformedOrder(
        refusal("'{order}' is not an order (R and an angle, S and a distance, or L)", order=written)
    )


def order_problem(piece: Piece, order: Order) -> Reason | None:
    """Why ``piece`` may not carry out ``order`` now (in words naming both, a phrase for
    each reader's language), or ``None``."""
    if isinstance(order, Launch):
        if not piece.is_ship:
            return refusal(
                "'{piece}' cannot launch ('L'): only ships launch missiles",
                piece=piece_said(piece.id),
            )
        if piece.missiles <= 0:
            return refusal(
                "'{piece}' cannot launch ('L'): it has no missiles left", piece=piece_said(piece.id)
            )
    return None


def check_order(piece: Piece, order: Order) -> None:
    """Raise :class:`IllegalOrder` if ``piece`` may not carry out ``order``."""
    problem = order_problem(piece, order)
    if problem is not None:
        raise IllegalOrder(problem)


def orders_for(piece: Piece) -> tuple[Order, ...]:
    """Every distinct order ``piece`` may carry out now: the 24 rotations (``R+180`` for
    a half turn either way), the 15 sprints, and ``L`` for a ship with missiles left."""
    rotations = tuple(
        Rotate(angle)
        for angle in range(
            -MAX_ROTATION_DEG + ROTATION_STEP_DEG, MAX_ROTATION_DEG + 1, ROTATION_STEP_DEG
        )
    )
    steps = int((MAX_SPRINT_IN - MIN_SPRINT_IN) / SPRINT_STEP_IN) + 1
    sprints = tuple(Sprint(float(MIN_SPRINT_IN + k * SPRINT_STEP_IN)) for k in range(steps))
    launch = (Launch(),) if order_problem(piece, Launch()) is None else ()
    return rotations + sprints + launch
