"""What the Stellar Conflict match tests share: the rulebook's sizes, seats' spots, fleets
chosen by what the rules care about, and a script that plays a match to its battle."""

from __future__ import annotations

import json
from typing import Any

from spacetable.games.stellar import (
    DeploymentOver,
    Fleet,
    Phase,
    Place,
    StellarMatch,
    StellarOptions,
    TimerExpired,
    race_ships,
)
from spacetable.lasers.ships import ShipDef
from spacetable.lasers.tables import table_from_json

PLAYERS = ("red", "blue", "green", "purple")
#: The rulebook's battle sizes: credits a fleet may cost, and the countdown in seconds.
CREDITS = {"dispute": 10, "conflict": 15, "war": 20}
COUNTDOWN = {"dispute": 30.0, "conflict": 60.0, "war": 120.0}
#: Cubes on each cargo ship by number of players.
CUBES = {2: 8, 3: 5, 4: 4}

# Filler spots along the table's long edges, fronts toward the edge: clear of the centre,
# where the asteroids lie. Seats 0 and 1 use the left half in 3- and 4-player games.
SPOTS_X = (-555.0, -485.0, -415.0, -345.0, -275.0, -205.0, -135.0)
SPOTS_X_RIGHT = tuple(-x for x in SPOTS_X)


# -- helpers ----------------------------------------------------------------------------------


def new_match(players: int = 2, seed: int = 7, **options: Any) -> StellarMatch:
    return StellarMatch(StellarOptions(PLAYERS[:players], **options), seed)


def role_ship(race: str, role: str) -> str:
    """The key of ``race``'s one Cargo or Flag ship."""
    (key,) = [key for key, ship in race_ships(race).items() if ship.role == role]
    return key


def choosable(race: str) -> list[ShipDef]:
    """The ships of ``race`` a player may pick, cheapest first (catalog order on ties)."""
    ships = [s for s in race_ships(race).values() if s.role not in ("cargo", "flag")]
    return sorted(ships, key=lambda s: s.credits)


def cheap_fleet(race: str, count: int = 3) -> tuple[str, ...]:
    """The ``count`` cheapest ships of ``race`` (legal in any battle)."""
    fleet = tuple(s.key for s in choosable(race)[:count])
    assert sum(race_ships(race)[k].credits for k in fleet) <= CREDITS["dispute"]
    return fleet


def exact_fleet(race: str, credits: int) -> tuple[str, ...]:
    """Ships of ``race`` costing exactly ``credits`` together (subset sum)."""
    best: dict[int, tuple[str, ...]] = {0: ()}
    for ship in choosable(race):
        for cost, picks in sorted(best.items(), reverse=True):
            best.setdefault(cost + ship.credits, (*picks, ship.key))
    assert credits in best, f"no {race} fleet costs exactly {credits} credits"
    return best[credits]


def cost(race: str, fleet: tuple[str, ...]) -> int:
    return sum(race_ships(race)[key].credits for key in fleet)


class Script:
    """Plays a match by hand: every seat lines its cards up along its own edge."""

    def __init__(self, match: StellarMatch) -> None:
        self.match = match
        self.t = 0.0
        self.used = dict.fromkeys(match.players, 0)

    def tick(self) -> float:
        self.t += 0.5
        return self.t

    def fleets(self, fleets: dict[str, tuple[str, ...]] | None = None) -> None:
        """Every player chooses his fleet (by default :func:`cheap_fleet`)."""
        for player in self.match.players:
            race = self.match.options.race(player)
            ships = (fleets or {}).get(player, cheap_fleet(race))
            self.match.apply(Fleet(player, ships, self.tick()))

    def spot(self, player: str) -> tuple[float, float, float]:
        """The next filler spot of ``player``'s row."""
        seat = self.match.players.index(player)
        xs = SPOTS_X + SPOTS_X_RIGHT if len(self.match.players) == 2 else SPOTS_X
        xs = xs if seat < 2 else SPOTS_X_RIGHT
        x = xs[self.used[player]]
        self.used[player] += 1
        return (x, -320.0, 180.0) if seat % 2 == 0 else (x, 320.0, 0.0)

    def timer(self) -> None:
        """The countdown runs out: the server sends the timer at the deadline."""
        assert self.match.deadline is not None
        self.t = self.match.deadline
        self.match.apply(TimerExpired(self.t))

    def place(self, player: str) -> str:
        """Place ``player``'s card in hand at his next spot; return its ship key."""
        ship = self.match.hand(player)
        assert ship is not None
        self.match.apply(Place(player, *self.spot(player), self.tick()))
        return ship

    def place_all(self, player: str) -> list[str]:
        """Place ``player``'s cards until he holds none or the deployment stops."""
        order = []
        while self.match.phase == Phase.DEPLOYMENT and self.match.hand(player) is not None:
            order.append(self.place(player))
        return order


def snapshot(match: StellarMatch) -> str:
    """Everything a change would show: every view, the record and the event log."""
    views = [match.view(p) for p in (*match.players, None)]
    return json.dumps([views, match.record(), [e.to_json() for e in match.events]])


def battle_checks(match: StellarMatch) -> None:
    """The match is over and its battle is the one of the cards left on the table."""
    outcome = match.result()
    assert match.phase == Phase.OVER and outcome is not None
    exported = table_from_json(json.loads(json.dumps(match.to_table().to_json())))
    assert exported.resolve().to_json() == outcome.to_json()
    split = [type(e) for e in match.events].index(DeploymentOver)
    assert [e.to_json() for e in match.events[split + 1 :]] == outcome.to_json()["events"]
