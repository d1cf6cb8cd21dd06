"""The hex fleet expert: the same action for the same seed, a legal one, blind to the
order of the draw pile and to the cup's next chit, its search within a counted budget and
without a player's full view, and a short seeded duel played out; the tactical bot, sped
up for the expert's playouts, plays as it did."""

from __future__ import annotations

import copy
import hashlib
import random

import pytest

from spacetable.bots.hexfleet import expert, make_bot
from spacetable.bots.hexfleet.arena import duel
from spacetable.bots.hexfleet.expert import ExpertBot
from spacetable.bots.hexfleet.tactical import TacticalBot
from spacetable.games.hexfleet import movement
from spacetable.games.hexfleet.hexes import Board, Hex
from spacetable.games.hexfleet.match import EndActivation, Fire, HexMatch, HexOptions
from tests.bots._hexfleet import battle_after


def position(seed: int) -> HexMatch:
    """A seeded skirmish played by the tactical bots until red's ship is active again
    after a few activations."""
    match = HexMatch(HexOptions(scenario="skirmish", turn_limit=6), seed)
    tactical, rng = make_bot("tactical"), random.Random(seed)
    for played in range(200):
        ship = match.active
        assert ship is not None and not match.is_over
        if ship.owner == "red" and played >= 6 and not match.activation.placing:  # type: ignore[union-attr]
            return match
        match.apply(tactical.choose(match.view(ship.owner), rng))
    raise AssertionError("red was never active")


def test_the_expert_chooses_the_same_legal_action_for_a_seed() -> None:
    for seed in (1, 2):
        match = position(seed)
        first = make_bot("expert").choose(match.view("red"), random.Random(seed))
        assert ExpertBot().choose(copy.deepcopy(match.view("red")), random.Random(seed)) == first
        assert match.check(first) is None, first


def test_the_expert_never_reads_the_draw_pile_or_the_cup_to_come() -> None:
    """Two battles alike in all the seat sees, their piles in other orders and their
    chance reseeded: the same view, the same action. (Seed 2's position: a decision of
    0.6 s of CPU; seed 3's took 3.5 s a choice since the search has 64 deals.)"""
    match = position(2)
    chosen, views = [], []
    for shuffle in (10, 11):
        other = copy.deepcopy(match)
        random.Random(shuffle).shuffle(other.deck.pile)
        other.rng.seed(shuffle)
        views.append(other.view("red"))
        chosen.append(ExpertBot().choose(other.view("red"), random.Random(5)))
    assert len(match.deck.pile) > 1  # a pile to reorder
    assert views[0] == views[1]
    assert chosen[0] == chosen[1]


def test_a_short_duel_of_the_expert_against_tactical_completes() -> None:
    result = duel(ExpertBot(rounds=(2,), activations=1), make_bot("tactical"), 4, turn_limit=2)
    assert 1 <= result.turns <= 2


def test_the_expert_searches_within_a_counted_budget_without_a_players_full_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The playouts ask the tactical bot at most its counted budget of times, on a view
    cut to what the bots read: never the full view, whose odds, moves and log in words
    made some of the old expert's decisions take 10-22 s."""
    match = position(2)
    view = match.view("red")
    calls = []
    choose = TacticalBot.choose

    def counted(self: TacticalBot, view: dict[str, object], rng: random.Random) -> object:
        calls.append(view)
        return choose(self, view, rng)

    def no_full_view(self: HexMatch, player: str | None) -> dict[str, object]:
        raise AssertionError("the expert built a player's full view")

    monkeypatch.setattr(TacticalBot, "choose", counted)
    monkeypatch.setattr(HexMatch, "view", no_full_view)
    action = ExpertBot().choose(view, random.Random(2))
    assert match.check(action) is None, action
    budget = 2 + expert.most_playouts(expert.CANDIDATES) * expert.PLAYOUT  # 2: own, tactical
    assert 1 < len(calls) <= budget
    assert all("aim" not in v and "log" not in v for v in calls[2:])


def test_the_expert_weighs_close_calls_on_more_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sequential halving: every candidate meets the first round's deals, the tactical
    choice (its own policy's) every deal, the worse half fewer; within the counted bound."""
    match = position(2)
    met: dict[object, int] = {}
    playout = ExpertBot.playout

    def counted(self: ExpertBot, sim: object, action: object, player: str, **kwargs: bool) -> float:
        met[action] = met.get(action, 0) + 1
        return playout(self, sim, action, player, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ExpertBot, "playout", counted)
    view = match.view("red")
    bot = ExpertBot()
    default = bot.own.choose(view, random.Random(0))
    bot.choose(view, random.Random(2))
    assert len(met) >= 3
    assert met[default] == sum(expert.ROUNDS)
    assert min(met.values()) == expert.ROUNDS[0]
    assert sum(met.values()) <= expert.most_playouts(len(met))


def test_the_expert_keeps_the_tactical_shot_that_a_few_lucky_deals_pass_up() -> None:
    """Red's cruiser can fire at a light ship (the tactical bot's choice). On 4 deals of
    the unseen cards the expert of before ended its activation instead (seed 0): played
    out on 32 deals, that costs 0.08 of the strength share an activation on, 0.25 three
    on. The search now judges it on more deals (and, this being turn 18, plays it out
    to the battle's end) and keeps the shot."""
    view = battle_after(105, 125).view("red")
    default = TacticalBot().choose(view, random.Random(0))
    assert default == Fire("red", "1", "5", 0.0)
    for seed in (0, 1):
        assert not isinstance(ExpertBot().choose(view, random.Random(seed)), EndActivation)


def test_in_the_last_turns_the_expert_plays_each_battle_out_to_its_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On turn 19 of 20 every playout runs to the battle's end and is scored by who won;
    on the first turn none does (an activation on, scored by the strength left)."""
    ended: list[bool] = []
    score = expert.score

    def seen(match: HexMatch, player: str) -> float:
        ended.append(match.result() is not None)
        return score(match, player)

    monkeypatch.setattr(expert, "score", seen)
    late = battle_after(105, 128)
    assert late.turn == 19
    ExpertBot().choose(late.view("red"), random.Random(1))
    assert ended and all(ended)
    ended.clear()
    early = position(2)
    assert early.turn < early.options.turn_limit - expert.ENDGAME
    ExpertBot().choose(early.view("red"), random.Random(1))
    assert ended and not any(ended)


def test_the_tactical_bot_plays_as_before_it_was_sped_up() -> None:
    """Its every action in a seeded fleet battle, as the tactical bot of before the
    expert's playouts sped it up (remembered moves and arcs) chose them."""
    tactical, rng = make_bot("tactical"), random.Random(3)
    match, log = HexMatch(HexOptions(scenario="fleet", turn_limit=5), 3), []
    while not match.is_over:
        assert match.active is not None
        action = tactical.choose(match.view(match.active.owner), rng)
        log.append(repr(action))
        match.apply(action)
    digest = hashlib.sha256("\n".join(log).encode()).hexdigest()
    assert (len(log), digest) == (
        125,
        "7998529ec0bb4b884c8df3011f0999f1148d13e5d367a15bc5b6e8c21a8bb092",
    )


def plain_reachable(
    at: Hex, facing: int, allowance: int, board: Board, blocked: set[Hex]
) -> dict[tuple[Hex, int], str]:
    """The breadth-first search ``reachable`` was before it was sped up for the playouts."""
    best = {(at, facing): ""}
    queue = [(at, facing)]
    while queue:
        here, face = queue.pop(0)
        steps = best[(here, face)]
        if len(steps) >= allowance:
            continue
        ahead = here.neighbour(face)
        options = []
        if ahead in board and ahead not in blocked:
            options.append(((ahead, face), "F"))
        options.append(((here, (face + 5) % 6), "L"))
        options.append(((here, (face + 1) % 6), "R"))
        for state, letter in options:
            if state not in best:
                best[state] = steps + letter
                queue.append(state)
    del best[(at, facing)]
    return best


def test_the_moves_a_ship_can_make_are_found_as_before_they_were_sped_up() -> None:
    """``reachable`` (numbered states, searched level by level) gives the same moves, the
    same steps, in the same order as the plain search, on seeded boards and blockers."""
    rng = random.Random(7)
    for board in (Board(22, 14), Board(9, 7)):
        hexes = list(board)
        for _ in range(60):
            at, facing, allowance = rng.choice(hexes), rng.randrange(6), rng.randrange(17)
            blocked = {rng.choice(hexes) for _ in range(rng.randrange(9))} - {at}
            found = movement.reachable(at, facing, allowance, board, blocked)
            assert list(found.items()) == list(
                plain_reachable(at, facing, allowance, board, blocked).items()
            )


def test_the_expert_is_offered_last_in_the_lobby_in_english_and_french() -> None:
    """The strongest level, last of the hex fleet's bots (it beats ``tactical`` over 200
    seeded duels, docs/lab.md), told in words in both languages."""
    from spacetable.bots.hexfleet import EXPERIMENTAL, LEVELS
    from spacetable.i18n import translator
    from spacetable.registry.hexfleet import GAME

    assert LEVELS[-1] == "expert" and "expert" not in EXPERIMENTAL
    assert GAME.bots is not None and GAME.bots.levels[-1] == "expert"
    words = GAME.bots.describe("expert")
    assert words.startswith("Expert — plays each choice out many times")
    assert translator("fr").gettext(words).startswith("Expert — joue chaque choix")
