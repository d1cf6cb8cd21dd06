"""Each environment's actions are the documented discretisation of its game's decisions
(docs/environments.md): the laser games' grid of poses, the round's order, the freeze and
the countdown; Stellar Conflict's fleet picked a ship at a time and kept secret; FTL's
plot of a ship's order and its missiles' order; the hex fleet's refused actions."""

from __future__ import annotations

import numpy as np
from gymnasium.spaces import Discrete

from spacetable.envs import FtlEnv, Grid, HexFleetEnv, LightSpeedEnv, StellarEnv
from spacetable.envs.ftl import MISSILE_ORDERS, SHIP_ORDERS
from spacetable.envs.lasers import DISCARD, WAIT, choosable
from spacetable.games._laser_match import Phase

#: The first pose action of Light Speed: after wait and discard.
FIRST_POSE = 2


def test_the_grid_cuts_the_table_into_cells_and_headings() -> None:
    poses = Grid().poses((1200.0, 800.0))
    assert len(poses) == 12 * 8 * 8
    assert poses[:3] == ((-550.0, -350.0, 0.0), (-550.0, -350.0, 45.0), (-550.0, -350.0, 90.0))
    assert poses[8] == (-450.0, -350.0, 0.0)  # the next cell along the bottom row
    assert poses[-1] == (550.0, 350.0, 315.0)
    assert LightSpeedEnv().action_space("player_0") == Discrete(2 + 768)


def test_a_pose_action_puts_the_card_in_hand_on_that_pose() -> None:
    env = LightSpeedEnv()
    observations, _ = env.reset(seed=1)
    mask = observations["player_0"]["action_mask"]
    assert mask[FIRST_POSE + 1] == 0  # turned 45 degrees, the corner card would stick out
    assert mask[FIRST_POSE + 2] == 1
    ship = env.match.hand("player_0")
    env.step({"player_0": FIRST_POSE + 2, "player_1": WAIT})
    (card,) = [c for c in env.match.table_cards() if c.get("owner") == "player_0"]
    assert (card["ship"], card["x"], card["y"], card["rotation"]) == (ship, -550, -350, 90)
    assert env.match.hand("player_1") is not None  # waiting keeps the card in hand


def test_two_cards_on_one_pose_in_a_round_the_second_waits() -> None:
    env = LightSpeedEnv()
    env.reset(seed=1)
    held = env.match.hand("player_1")
    _, _, _, _, infos = env.step({"player_0": FIRST_POSE, "player_1": FIRST_POSE})
    assert "overlap" in infos["player_1"]["refused"]
    assert infos["player_0"] == {}
    assert env.match.hand("player_1") == held
    # The next round player_1 goes first.
    _, _, _, _, infos = env.step({"player_0": FIRST_POSE + 8, "player_1": FIRST_POSE + 8})
    assert "refused" in infos["player_0"] and infos["player_1"] == {}


def test_after_a_stop_the_cards_in_hand_are_dropped_or_discarded_in_one_round() -> None:
    env = LightSpeedEnv()
    env.reset(seed=2)
    for card in range(10):  # player_0 places his deck along the bottom rows; player_1 waits
        observations, *_ = env.step({"player_0": FIRST_POSE + 8 * card, "player_1": WAIT})
    assert env.match.phase == Phase.STOP and env.match.stopped_by == "player_0"
    mask = observations["player_1"]["action_mask"]
    assert mask[WAIT] == 0 and mask[DISCARD] == 1 and mask[FIRST_POSE + 8 * 11] == 1
    assert mask[FIRST_POSE] == 0  # player_0's first card lies there
    ship = env.match.hand("player_1")
    _, rewards, terminations, _, _ = env.step({"player_1": WAIT})
    assert [a.type_name for a in env.match.actions[-1:]] == ["timeout"]
    assert env.match.view("player_1")["players"]["player_1"]["discarded"] == ship
    outcome = env.match.result()
    assert all(terminations.values()) and outcome.winner is not None
    assert rewards[outcome.winner] == 1.0 and sum(rewards.values()) == 0


def test_a_stellar_countdown_runs_on_the_rounds_clock() -> None:
    env = StellarEnv(options={"battle_size": "dispute", "countdown": 4}, round_seconds=2.0)
    env.reset(seed=5)
    done = 2
    env.step({"player_0": done, "player_1": done})  # t=0: the fleets, the countdown to t=4
    assert env.match.deadline == 4.0 and env.match.phase == Phase.DEPLOYMENT
    observations, *_ = env.step({"player_0": WAIT, "player_1": WAIT})  # t=2: then it rings
    assert env.match.phase == Phase.STOP
    assert observations["player_0"]["observation"][2] == 1.0  # the stop phase
    env.step({"player_0": DISCARD, "player_1": WAIT})  # the round after the freeze
    kinds = [a.type_name for a in env.match.actions]
    assert kinds == ["fleet", "fleet", "timer-expired", "discard", "timeout"]
    assert env.match.is_over and not env.agents


def test_a_stellar_fleet_is_picked_a_ship_at_a_time_within_its_credits() -> None:
    env = StellarEnv(options={"battle_size": "dispute"})
    observations, _ = env.reset(seed=5)
    ships = choosable("wiss")
    tempest, aurora = ships.index("wiss-tempest"), ships.index("wiss-aurora")  # 5 credits each
    before = observations["player_1"]["observation"]
    env.step({"player_0": 3 + tempest, "player_1": WAIT})
    observations, *_ = env.step({"player_0": 3 + aurora, "player_1": WAIT})
    mask = observations["player_0"]["action_mask"]
    assert not mask[3 : 3 + len(ships)].any()  # the 10 credits are spent
    assert mask[2] == 1
    # player_1 sees nothing of a fleet still being picked.
    assert np.array_equal(observations["player_1"]["observation"], before)
    env.step({"player_0": 2, "player_1": WAIT})
    assert env.match.fleet("player_0") == ("wiss-tempest", "wiss-aurora")


def test_an_ftl_action_is_a_ship_order_and_a_missiles_order() -> None:
    env = FtlEnv()
    env.reset(seed=0)
    ship = env.match.pieces["player_0"]
    sprint = SHIP_ORDERS.index("S3") * len(MISSILE_ORDERS)
    env.step({"player_0": sprint, "player_1": 0})
    moved = env.match.pieces["player_0"]
    assert (moved.x, moved.y) == (ship.x, ship.y + 3)  # heading 0 is +y
    launch = SHIP_ORDERS.index("L") * len(MISSILE_ORDERS) + MISSILE_ORDERS.index("R+90")
    env.step({"player_0": launch, "player_1": 0})
    (missile,) = env.match.pieces_of("player_0")[1:]
    env.step({"player_0": MISSILE_ORDERS.index("S2"), "player_1": 0})
    assert env.match.pieces[missile.id].y == missile.y + 2
    assert env.match.turn == 4


def test_an_ftl_launch_needs_missiles_and_a_refused_plot_is_empty() -> None:
    env = FtlEnv(options={"missiles": 0})
    observations, _ = env.reset(seed=0)
    launch = SHIP_ORDERS.index("L") * len(MISSILE_ORDERS)
    assert observations["player_0"]["action_mask"][launch] == 0
    _, _, _, _, infos = env.step({"player_0": launch, "player_1": 0})
    assert "no missiles" in infos["player_0"]["refused"]
    assert env.match.turn == 2  # the turn resolved all the same


def test_a_hexfleet_action_the_rules_refuse_changes_nothing() -> None:
    env = HexFleetEnv()
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    refused = int(np.flatnonzero(mask == 0)[0])
    env.step(refused)
    assert env.infos[agent]["refused"]
    assert env.agent_selection == agent and env.match.actions == []
    env.step(0)  # end the activation
    assert [a.type_name for a in env.match.actions] == ["done"]


def test_the_free_poses_are_the_rules_own_answer_at_every_round() -> None:
    env = LightSpeedEnv(seats=3)
    observations, _ = env.reset(seed=11)
    draw = np.random.default_rng(11)
    while env.agents:
        holder = next((p for p in env.match.players if env.match.hand(p) is not None), None)
        assert holder is not None
        every = [env.match.check_placement(holder, *pose) is None for pose in env.poses]
        assert env.free_poses().tolist() == every
        actions = {
            agent: int(draw.choice(np.flatnonzero(observations[agent]["action_mask"])))
            for agent in env.agents
        }
        observations, *_ = env.step(actions)


def test_the_seed_deals_the_decks_and_an_idle_episode_is_truncated() -> None:
    hands = set()
    for seed in range(6):
        env = LightSpeedEnv(max_cycles=3)
        env.reset(seed=seed)
        hands.add(tuple(env.match.hand(p) for p in env.match.players))
    assert len(hands) > 1  # the seed shuffles the decks
    for _ in range(3):
        _, rewards, terminations, truncations, _ = env.step({})  # everyone waits
    assert all(truncations.values()) and not any(terminations.values())
    assert set(rewards.values()) == {0.0} and not env.agents
