"""Swiss tournaments' arithmetic (issue 71 item 2): points, pairings, tie-breaks and the
FIDE TRF16 file, with no I/O (``meet/tournaments.py`` and ``http/tournaments.py`` read and
write the rows, ``store/tournaments.py``). It lives in ``meet/`` beside the pool and the
challenges, the other ways players meet: it imports nothing of the server.

**Entrants** are numbered from 1 (the TRF's starting numbers): in the order they joined,
then by rating when the tournament starts (``store/tournaments.py``'s ``start``: the
highest first, equal ratings by name); a late joiner is numbered next.
A **game** is one table of one round: its seats (entrant numbers, the first seat playing
"white": the colour the Dutch system balances) and, once played, each seat's **place**
(1 = first; equal places are a tie: ``[1, 1]`` is a draw of two). A **bye** is a game of
one seat: ``"bye"`` (the odd player out: a win's point, at most once per player) or
``"late"`` (a round played before the entrant joined: half a point).

**Points** at a table of ``n`` seats: the place ``p`` is worth ``(n - p) / (n - 1)``
(first 1, last 0); players tied share the mean of the places they cover (two tied first
of three: ``(1 + 1/2) / 2 = 3/4``). With two seats: a win 1, a draw 1/2, a loss 0.

**Pairing**: two seats, the FIDE Dutch system (``py4swiss``, fed :func:`trf`); three or
more, :func:`group_tables` (its rule below). Withdrawn entrants are not paired.

**Tie-breaks** (FIDE C.07, 2023, with its virtual opponent for unplayed rounds): a
round's **Buchholz** part is the final score of the opponent (at a table of more, the
mean of the opponents' scores); **Sonneborn-Berger**'s is that times the points the
player made in that game. A round the player did not play (a bye) counts as a game
against a virtual opponent whose score is the player's own final score. Each part is kept
round by round (:class:`Part`) for the page's crosstable.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from py4swiss.engines import DutchEngine
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode, TeamCode, TournamentCode, XCode
from py4swiss.trf.sections import PlayerSection, TeamSection, TournamentSection, XSection
from py4swiss.trf.trf_line import TrfLine

__all__ = [
    "ABSENT",
    "BYE",
    "LATE",
    "Entrant",
    "Game",
    "Part",
    "Standing",
    "dutch_pairs",
    "group_tables",
    "points",
    "standings",
    "table_sizes",
    "trf",
]

#: A game's source for the odd player out's bye (a win's points).
BYE = "bye"
#: A game's source for a round played before the entrant joined (half a point).
LATE = "late"
_BYE_POINTS = {BYE: 1.0, LATE: 0.5}
#: A game's source when none of its players came (an online table's room waited in vain):
#: each loses by forfeit, no points (whatever its places say).
ABSENT = "absent"


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of the tournament: his starting ``number``, ``name``, whether he withdrew
    (or was removed), and his rating in the game when he joined (the TRF's)."""

    number: int
    name: str
    withdrawn: bool = False
    rating: int = 0


@dataclass(frozen=True, slots=True)
class Game:
    """One table of a round: ``seats`` (entrant numbers, in seat order), ``places`` (each
    seat's, ``None`` while unplayed) and its ``source`` (``played``, ``forfeit``,
    ``director``, ``reported``, :data:`ABSENT` (nobody came: no points), or :data:`BYE` /
    :data:`LATE` for a one-seat bye)."""

    round: int
    table: int
    seats: tuple[int, ...]
    places: tuple[int, ...] | None = None
    source: str = "played"

    @property
    def bye(self) -> bool:
        """Whether the game is a bye (one seat, no opponent)."""
        return self.source in _BYE_POINTS

    def points(self) -> dict[int, float]:
        """Each seated entrant's points (empty while unplayed)."""
        if self.bye:
            return {self.seats[0]: _BYE_POINTS[self.source]}
        if self.places is None:
            return {}
        if self.source == ABSENT:
            return dict.fromkeys(self.seats, 0.0)
        return dict(zip(self.seats, points(self.places), strict=True))


def points(places: Sequence[int]) -> list[float]:
    """The points of each seat of a table whose seats finished at ``places`` (see the
    module: ``(n - p) / (n - 1)``, ties sharing the places they cover)."""
    n = len(places)
    if n < 2:
        raise ValueError("a table has at least two seats")
    out = []
    for place in places:
        tied = sum(1 for other in places if other == place)
        covered = range(place, place + tied)
        out.append(sum((n - q) / (n - 1) for q in covered) / tied)
    return out


@dataclass(frozen=True, slots=True)
class Part:
    """One round of a player's tie-breaks: the ``opponents`` (names; none: a bye, against
    the virtual opponent), their score counted (``opponent_score``), the ``points`` the
    player made, and what the round adds to each tie-break."""

    round: int
    opponents: tuple[str, ...]
    opponent_score: float
    points: float
    buchholz: float
    sonneborn_berger: float


@dataclass(slots=True)
class Standing:
    """A player's line of the standings: his score, tie-breaks and rank."""

    number: int
    name: str
    score: float = 0.0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    rank: int = 0
    withdrawn: bool = False
    parts: list[Part] = field(default_factory=list)

    def view(self) -> dict[str, object]:
        """The line as ``GET /api/tournaments/{id}`` shows it."""
        return {
            "number": self.number,
            "name": self.name,
            "score": self.score,
            "tiebreaks": {"buchholz": self.buchholz, "sonneborn_berger": self.sonneborn_berger},
            "rank": self.rank,
            "withdrawn": self.withdrawn,
            "parts": [
                {
                    "round": p.round,
                    "opponents": list(p.opponents),
                    "opponent_score": p.opponent_score,
                    "points": p.points,
                    "buchholz": p.buchholz,
                    "sonneborn_berger": p.sonneborn_berger,
                }
                for p in self.parts
            ],
        }


def scores(games: Iterable[Game]) -> dict[int, float]:
    """Each entrant's points so far (unplayed games count nothing)."""
    total: dict[int, float] = {}
    for game in games:
        for number, got in game.points().items():
            total[number] = total.get(number, 0.0) + got
    return total


def standings(entrants: Sequence[Entrant], games: Sequence[Game]) -> list[Standing]:
    """The standings, best first: by score, Buchholz, Sonneborn-Berger, then starting
    number; equal scores and tie-breaks share a rank."""
    score = scores(games)
    names = {e.number: e.name for e in entrants}
    lines = {
        e.number: Standing(e.number, e.name, score.get(e.number, 0.0), withdrawn=e.withdrawn)
        for e in entrants
    }
    for game in sorted(games, key=lambda g: (g.round, g.table)):
        got = game.points()
        for number in game.seats:
            if number not in got:
                continue
            line = lines[number]
            others = [s for s in game.seats if s != number]
            # a bye's virtual opponent: as many points as the player
            opp = sum(score.get(o, 0.0) for o in others) / len(others) if others else line.score
            part = Part(
                game.round,
                tuple(names[o] for o in others),
                opp,
                got[number],
                opp,
                opp * got[number],
            )
            line.parts.append(part)
            line.buchholz += part.buchholz
            line.sonneborn_berger += part.sonneborn_berger
    ordered = sorted(
        lines.values(), key=lambda s: (-s.score, -s.buchholz, -s.sonneborn_berger, s.number)
    )
    for i, line in enumerate(ordered):
        before = ordered[i - 1] if i else None
        if before and (before.score, before.buchholz, before.sonneborn_berger) == (
            line.score,
            line.buchholz,
            line.sonneborn_berger,
        ):
            line.rank = before.rank
        else:
            line.rank = i + 1
    return ordered


_TOKENS = {1.0: "1", 0.5: "=", 0.0: "0"}


def trf(name: str, rounds: int, entrants: Sequence[Entrant], games: Sequence[Game]) -> list[str]:
    """The tournament as FIDE TRF16 lines (two-seat tables only): ``012`` its name,
    ``XXR`` its rounds, one ``001`` line per entrant with his result in every round played
    or paired (an unplayed game shows no result; a round he was not in: ``0000 - Z``),
    and ``XXZ`` the withdrawn (not to be paired)."""
    standing = {s.number: s for s in standings(entrants, games)}
    by_player: dict[int, dict[int, str]] = {e.number: {} for e in entrants}
    for game in games:
        got = game.points()
        if game.bye:
            token = "U" if game.source == BYE else "H"
            by_player[game.seats[0]][game.round] = f"0000 - {token}"
            continue
        if len(game.seats) != 2:
            raise ValueError("a TRF holds two-seat games only")
        forfeit = game.source in ("forfeit", ABSENT)
        for i, number in enumerate(game.seats):
            other = game.seats[1 - i]
            colour = "w" if i == 0 else "b"
            if number not in got:
                token = " "
            elif forfeit:
                token = "+" if got[number] == 1.0 else "-"
            else:
                token = _TOKENS[got[number]]
            by_player[number][game.round] = f"{other:>4} {colour} {token}"
    last = max((g.round for g in games), default=0)
    lines = [f"012 {name[:80]}"]
    for entrant in entrants:
        line = standing[entrant.number]
        rating = f"{entrant.rating:>4}" if 0 < entrant.rating < 10000 else "    "
        text = (
            f"001 {entrant.number:>4}      {entrant.name[:33]:<33} {rating} {'':3} {'':11} "
            f"{'':10} {line.score:>4.1f} {line.rank:>4}"
        )
        played = by_player[entrant.number]
        for r in range(1, last + 1):
            text += "  " + played.get(r, "0000 - Z")
        lines.append(text.rstrip())
    lines.append(f"XXR {rounds}")
    withdrawn = [str(e.number) for e in entrants if e.withdrawn]
    if withdrawn:
        lines.append("XXZ " + " ".join(withdrawn))
    return lines


def _parse(lines: Sequence[str]) -> ParsedTrf:
    """What ``py4swiss.trf.TrfParser.parse`` makes of a file, made of lines in memory."""
    coded: dict[type, list[TrfLine]] = {PlayerCode: [], TeamCode: [], TournamentCode: [], XCode: []}
    for i, line in enumerate(lines):
        if line.strip():
            parsed = TrfLine(i, line.strip())
            coded[parsed.code_type].append(parsed)
    parsed_trf = ParsedTrf(
        player_sections=[PlayerSection.from_string(str(p)) for p in coded[PlayerCode]],
        team_sections=[TeamSection.from_string(str(t)) for t in coded[TeamCode]],
        tournament_section=TournamentSection.from_lines(coded[TournamentCode]),
        x_section=XSection.from_lines(coded[XCode]),
    )
    parsed_trf.validate_contents()
    return parsed_trf


def dutch_pairs(
    name: str, rounds: int, entrants: Sequence[Entrant], games: Sequence[Game]
) -> tuple[list[tuple[int, int]], int | None]:
    """The next round's pairs by the FIDE Dutch system (white first), best table first,
    and the entrant given the bye (``None``: an even number). Raises ``ValueError`` when
    no pairing exists (every remaining pair met already)."""
    pairing = DutchEngine.generate_pairings(_parse(trf(name, rounds, entrants, games)))
    pairs = [(p.white, p.black) for p in pairing if p.white and p.black]
    byes = [p.white or p.black for p in pairing if not (p.white and p.black)]
    return pairs, (byes[0] if byes else None)


def table_sizes(players: int, seats: int) -> tuple[list[int], int]:
    """How ``players`` sit at tables of ``seats`` (and ``seats - 1``, never fewer than 3):
    the tables' sizes, largest first, and how many are left over for byes (as few as
    can be: 7 at tables of 4 are one of 4 and one of 3; 5 are one of 4 and a bye)."""
    smallest = max(3, seats - 1)
    tables = -(-players // seats)
    while tables and tables * smallest > players:
        tables -= 1
    seated = min(players, tables * seats)
    sizes = (
        [seated // tables + (1 if i < seated % tables else 0) for i in range(tables)]
        if tables
        else []
    )
    return sorted(sizes, reverse=True), players - seated


def _repeats(table: Sequence[int], met: dict[frozenset[int], int]) -> int:
    return sum(met.get(frozenset(p), 0) for p in itertools.combinations(table, 2))


def group_tables(
    order: Sequence[int], seats: int, met: dict[frozenset[int], int]
) -> list[list[int]]:
    """Tables of three or more seats, grouped by score. ``order``: the entrants to seat,
    best standing first; ``met``: how often each pair sat together before.

    The rule: tables are filled best first (:func:`table_sizes`). A table of ``k`` takes
    the best remaining entrant and ``k - 1`` others from the next ``2k - 2`` remaining,
    the choice with the fewest repeat meetings (pairs at the table who met before, each
    counted as often as they met; when the others left make the last table, its repeats
    too), then the best standing (the smallest sum of places in ``order``). The entrants
    are seated in standing order."""
    sizes, _ = table_sizes(len(order), seats)
    left = list(order)
    rank = {n: i for i, n in enumerate(order)}
    tables = []
    for size in sizes:
        head, window = left[0], left[1 : 2 * size - 1]

        last = len(left) - size == (sizes[-1] if len(sizes) > 1 else -1)

        def cost(
            others: tuple[int, ...], head: int = head, last: bool = last, pool: list[int] = left
        ) -> tuple[int, int]:
            table = (head, *others)
            repeats = _repeats(table, met)
            if last:
                repeats += _repeats([n for n in pool if n not in table], met)
            return repeats, sum(rank[n] for n in others)

        best = min(itertools.combinations(window, size - 1), key=cost)
        table = sorted((head, *best), key=rank.__getitem__)
        tables.append(table)
        left = [n for n in left if n not in table]
    return tables
