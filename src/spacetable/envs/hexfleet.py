"""The hex fleet as an AEC environment: one agent acts at a time, with its activated ship.

The chit drawn from the cup names the ship that acts; its owner is the agent to play
(``agent_selection``), one step of its activation at a time, until it ends the activation
(or jumps) and the next chit is drawn: PettingZoo's agent-environment cycle is the
game's own.

**Actions** (``Discrete(n)``), each one of the match's actions for the active ship:
0 end the activation; 1 raise shields; 2, 3, 4 a step of movement (``F`` ahead, ``L``
and ``R`` a turn of one side); then fire at each ship, hail each ship (the ships in the
match's order, its own included: the mask leaves out what the rules forbid); then jump,
to come back 0 (never: it leaves the battle), 1, 2 or 3 turns later; then, for a ship
back from a jump, return on each hex of the board (column by column, row by row) at each
of the six facings. Taking back a move (``undo``) is not offered. The ``action_mask``
allows what the rules allow now (:meth:`~spacetable.games.hexfleet.match.HexMatch.check`).
An action the mask forbids changes nothing; the agent is asked again (its info's
``refused`` says why).

**Observations** are the public state (everything but the order of the draw pile): the
turn as a share of the limit, the cards left in the pile, the activation (whether it is
the agent's, movement left, what the ship did), then for each ship in the match's order
its owner (the agent's own or which seat after it), where it is (column and row as a
share of the board, the facing's sine and cosine), its systems as shares of its class's
(shields, weapons, propulsion), whether its shields are up, whether it is on the table,
jumped, activated, or still in the cup.

**Rewards** at the end only, by place: the winner, then the strength each side kept
(the turn limit's measure); +1/-1/0 in a duel.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from spacetable.core.match import IllegalAction
from spacetable.envs._base import (
    MAX_CYCLES,
    RENDER_MODES,
    Observation,
    Seeds,
    agent_names,
    checked_render_mode,
    fraction,
    new_match,
    observation_space,
    observed,
    rewards_by_place,
)
from spacetable.games.hexfleet.hexes import Board, Hex
from spacetable.games.hexfleet.match import (
    EndActivation,
    Fire,
    Hail,
    HexAction,
    HexMatch,
    Jump,
    Move,
    Phase,
    RaiseShields,
    Return,
)
from spacetable.games.hexfleet.script import DECK_SIZE
from spacetable.registry import game
from spacetable.render.hexfleet_board import board_svg

END, SHIELDS = 0, 1
STEPS = ("F", "L", "R")
#: A jump's return, in turns after this one (0: the ship leaves the battle).
JUMP_BACK = (0, 1, 2, 3)
#: The most hexes of movement a ship has (a light ship's propulsion cells).
MOST_MOVEMENT = 16.0
#: Numbers an observation holds for each ship.
SHIP_FEATURES = 14


class HexFleetEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no types
    """One hex fleet battle as a PettingZoo ``AECEnv``: ``seats`` sides (2 to 4; agents
    ``player_0``...), ``options`` as :class:`~spacetable.games.hexfleet.options.HexOptions`
    reads them (the players left out: the ``duel`` scenario unless told), ``render_mode``
    ``"svg"`` or ``None``, ``max_cycles`` actions after which an unfinished episode is
    truncated. Raises :class:`~spacetable.core.match.InvalidOptions` naming a bad option."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "spacetable_hexfleet_v0",
    }

    def __init__(
        self,
        seats: int = 2,
        options: Mapping[str, Any] | None = None,
        *,
        render_mode: str | None = None,
        max_cycles: int = MAX_CYCLES,
    ) -> None:
        super().__init__()
        self.game = game("hexfleet")
        self.options = dict(options or {})
        self.render_mode = checked_render_mode(render_mode)
        self.max_cycles = max_cycles
        self.possible_agents = agent_names(seats)
        self.agents: list[str] = []
        self._seeds = Seeds()
        #: The battle being played (one made now checks the options).
        self.match: HexMatch = new_match(self.game, self.possible_agents, self.options, 0)
        self.ship_ids = tuple(self.match.ships)
        self.board: Board = self.match.board
        self.hexes = tuple(self.board)
        count = 5 + 2 * len(self.ship_ids) + len(JUMP_BACK) + 6 * len(self.hexes)
        size = 5 + 6 + SHIP_FEATURES * len(self.ship_ids) + 1
        self._observation_spaces = {a: observation_space(size, count) for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(count) for a in self.possible_agents}
        #: Actions taken in this episode.
        self.acts = 0

    # -- layout -------------------------------------------------------------------------------

    @property
    def _first_fire(self) -> int:
        return 2 + len(STEPS)

    @property
    def _first_hail(self) -> int:
        return self._first_fire + len(self.ship_ids)

    @property
    def _first_jump(self) -> int:
        return self._first_hail + len(self.ship_ids)

    @property
    def _first_return(self) -> int:
        return self._first_jump + len(JUMP_BACK)

    def action_of(self, agent: str, chosen: int, t: float) -> HexAction:
        """The match's action for ``agent``'s action ``chosen`` at ``t``. Raises
        :class:`IllegalAction` for one out of range or when no ship is activated."""
        count = self._action_spaces[agent].n
        if not 0 <= chosen < count:
            raise IllegalAction(f"no action {chosen} (0 to {count - 1})")
        activation = self.match.activation
        if activation is None:
            raise IllegalAction("no ship is activated")
        ship = activation.ship
        if chosen == END:
            return EndActivation(agent, ship, t)
        if chosen == SHIELDS:
            return RaiseShields(agent, ship, t)
        if chosen < self._first_fire:
            return Move(agent, ship, STEPS[chosen - 2], t)
        if chosen < self._first_hail:
            return Fire(agent, ship, self.ship_ids[chosen - self._first_fire], t)
        if chosen < self._first_jump:
            return Hail(agent, ship, self.ship_ids[chosen - self._first_hail], t)
        if chosen < self._first_return:
            back = JUMP_BACK[chosen - self._first_jump]
            return Jump(agent, ship, self.match.turn + back if back else 0, t)
        place, facing = divmod(chosen - self._first_return, 6)
        at = self.hexes[place]
        return Return(agent, ship, at.q, at.r, facing, t)

    def mask(self, agent: str) -> np.ndarray:
        """What ``agent`` may do now: the rules' check of every action (nothing but the
        first, which changes nothing, when it is not its ship's activation)."""
        match = self.match
        allowed = np.zeros(self._action_spaces[agent].n, np.int8)
        activation = match.activation
        if activation is None or not match.needs_action(agent):
            allowed[END] = 1
            return allowed
        first = self._first_return if activation.placing else 0
        last = len(allowed) if activation.placing else self._first_return
        t = float(self.acts)
        for index in range(first, last):
            allowed[index] = match.is_legal(self.action_of(agent, index, t))
        return allowed

    # -- PettingZoo ---------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s observations: ``observation`` and ``action_mask``."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s actions: ``Discrete(n)``, masked by ``action_mask``."""
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new battle: of ``seed`` if given (the same seed and the same actions
        give the same episode), else of the next seed drawn from the last one given.
        ``options`` is not read (the battle's options are the environment's)."""
        del options
        self.match = new_match(
            self.game, self.possible_agents, self.options, self._seeds.next(seed)
        )
        self.agents = list(self.possible_agents)
        self.acts = 0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._to_play()

    def _to_play(self) -> str:
        """The agent whose ship is activated (the first seat once the battle is over)."""
        active = self.match.active
        return self.possible_agents[0] if active is None else active.owner

    def step(self, action: Any) -> None:
        """Play ``action`` for the agent to play (``None`` for one whose episode ended)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.infos = {a: {} for a in self.agents}
        try:
            self.match.apply(self.action_of(agent, int(action), float(self.acts)))
        except IllegalAction as exc:
            self.infos[agent] = {"refused": str(exc)}
        self.acts += 1
        if self.match.is_over:
            self.rewards = rewards_by_place(self.ranks(self.match))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            if self.acts >= self.max_cycles:
                self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self._to_play()

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation of the public state, and its action mask."""
        match = self.match
        seats = self.possible_agents
        snapshot = match.snapshot()
        activation = snapshot["activation"] or {}
        done = set(activation.get("done", ()))
        features = [
            fraction(snapshot["turn"], match.options.turn_limit),
            fraction(snapshot["deck"]["pile"], DECK_SIZE),
            float(match.needs_action(agent)),
            fraction(activation.get("movement", 0), MOST_MOVEMENT),
            float(bool(activation.get("placing"))),
            *(float(thing in done) for thing in ("moved", "shields", "hail", "fire")),
            float(snapshot["phase"] == Phase.OVER),
            len(snapshot["cup"]) / (len(self.ship_ids) + 1),
        ]
        cup = set(snapshot["cup"])
        ships = {s["id"]: s for s in snapshot["ships"]}
        for ship_id in self.ship_ids:
            ship = ships[ship_id]
            after = (seats.index(ship["owner"]) - seats.index(agent)) % len(seats)
            col, row = (0, 0) if ship["at"] is None else Board.offset(Hex(*ship["at"]))
            turn = math.radians(60 * ship["facing"])
            features += [
                float(after == 0),
                after / len(seats),
                float(ship["at"] is not None) * (2 * col / max(1, self.board.width - 1) - 1),
                float(ship["at"] is not None) * (2 * row / max(1, self.board.height - 1) - 1),
                math.sin(turn),
                math.cos(turn),
                fraction(ship["shields"], ship["shields_max"]),
                fraction(ship["weapon_systems"], ship["weapon_systems_max"]),
                fraction(ship["propulsion"], ship["propulsion_max"]),
                float(ship["shields_up"]),
                float(ship["status"] == "table"),
                float(ship["status"] == "jumped"),
                float(activation.get("ship") == ship_id),
                float(ship_id in cup),
            ]
        features.append(1.0)
        return observed(features, self.mask(agent))

    def ranks(self, match: HexMatch) -> dict[str, tuple[float, ...]]:
        """The winner, then the strength each side kept, at the end of ``match``."""
        result = match.result()
        assert result is not None
        return {p: (float(result.winner == p), result.strength[p]) for p in match.players}

    def render(self) -> str | None:
        """The battle as it stands, as SVG text (:func:`~spacetable.render.hexfleet_board.
        board_svg`: the board, the ships on it, every ship's systems), in
        ``render_mode="svg"``."""
        if self.render_mode is None:
            return None
        match = self.match
        active = None if match.activation is None else match.activation.ship
        return board_svg(match.board, match.ships.values(), match.players, active=active)

    def close(self) -> None:
        """Nothing to release."""
