"""The bots and the journal as parts of a room, alone with a fake room: a bot's stale
turn is dropped, a stand-in keeps the player's token; the journal writes what changed in
one write, and lets the room go when another process took it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, cast

from spacetable.registry import game_for_ruleset
from spacetable.server.rooms.bots import BotMove, BotPlayers, BotTurn, bot_chance
from spacetable.server.rooms.journal import Journal
from spacetable.server.rooms.match import RoomOptions
from spacetable.server.store.live_store import LiveRoom, LiveStore, StaleWriter
from spacetable.server.store.save_queue import SaveQueue
from tests._loops import run_apart
from tests.server.rooms._fake_room import FakeMatch, FakeRoom, people


@dataclass
class BotsTable(FakeRoom):
    """A fake room that records the actions its bots apply."""

    applied: list[Any] = field(default_factory=list)
    poses: list[tuple[str, float, float, float]] = field(default_factory=list)

    def apply(self, action: Any) -> None:
        self.applied.append(action)

    def runup_left(self) -> float:
        return 0.0

    def note_pose(self, player: str, x: float, y: float, rotation: float) -> None:
        self.poses.append((player, x, y, rotation))


def kinds() -> Any:
    bots = game_for_ruleset("hexfleet").bots
    assert bots is not None
    return bots


def test_a_stand_in_keeps_the_players_token_and_a_bot_for_good_drops_it() -> None:
    room = BotsTable(people("Ann", "Bob"))
    for seat in room.seats:
        seat.token = f"token of {seat.name}"
    bots = BotPlayers(room, kinds(), room)
    bots.take_over(room.seats[0], stand_in=True)
    bots.take_over(room.seats[1], stand_in=False)
    assert [(s.kind, s.stand_in, s.token) for s in room.seats] == [
        ("bot", True, "token of Ann"),
        ("bot", False, None),
    ]
    bots.give_back(room.seats[0])
    assert (room.seats[0].kind, room.seats[0].level) == ("human", None)


def test_a_bot_turn_scheduled_before_a_newer_one_is_stale() -> None:
    async def scenario() -> None:
        room = BotsTable(people("Ann", "Bob"))
        room.match, room.match_number = cast(Any, FakeMatch(["Ann", "Bob"])), 1
        bots = BotPlayers(room, kinds(), room)
        bots.schedule(1, 2.0)
        bots.schedule(1, 3.0)
        await room.clock.advance(3.0)
        turns = [m for _, m in room.submitted]
        assert turns == [BotTurn(1, 1, 1), BotTurn(1, 1, 2)]
        bots.on_move(None, BotMove(1, 1, 1, action="stale"))  # chosen on the older turn
        assert room.applied == []

    run_apart(scenario())


@dataclass
class JournalTable(FakeRoom):
    """A fake room with what its stored row holds."""

    options: RoomOptions = field(default_factory=RoomOptions)
    seed: int | None = 7
    created: float = 0.0
    last_result: dict[str, Any] | None = None
    expired: bool = False

    def extras(self) -> dict[str, Any]:
        return {"chat_open": []}

    def expire(self) -> None:
        self.expired = True


class FakeLive:
    """A live store that keeps what it is asked to write, or refuses as a stale writer."""

    def __init__(self, stale: bool = False) -> None:
        self.writes: list[tuple[LiveRoom | None, list[Any], list[Any]]] = []
        self.stale = stale

    def write(
        self, room: LiveRoom | None, room_id: str, actions: list[Any], chat: Any = None
    ) -> None:
        if self.stale:
            raise StaleWriter(room_id)
        self.writes.append((room, actions, list(chat or [])))

    async def store(
        self, room: LiveRoom | None, room_id: str, actions: list[Any], chat: Any = None
    ) -> None:
        self.write(room, room_id, actions, chat)


def journal(room: JournalTable, live: FakeLive) -> Journal:
    return Journal(room, cast(SaveQueue, None), cast(LiveStore, live))


def test_the_journal_writes_the_chat_and_the_row_that_changed_in_one_write() -> None:
    async def scenario() -> None:
        room = JournalTable(people("Ann", "Bob"))
        live = FakeLive()
        part = journal(room, live)
        await part.write()  # a new room's row is due
        part.note_chat(0, {"text": "hello"})
        part.changed()
        await part.write()
        await part.write()  # nothing changed since: nothing written
        assert len(live.writes) == 2
        row, actions, chat = live.writes[1]
        assert row is not None and row.seed == 7 and row.extras == {"chat_open": []}
        assert (actions, [c.entry for c in chat]) == ([], [{"text": "hello"}])

    run_apart(scenario())


def test_a_room_another_process_took_is_let_go_and_its_pages_reconnect() -> None:
    async def scenario() -> None:
        room = JournalTable(people("Ann", "Bob"))
        ann = room.socket(0)
        hung_up: list[int] = []
        ann.connection._hang_up = lambda code, reason: hung_up.append(code)
        part = journal(room, FakeLive(stale=True))
        part.note_chat(0, {"text": "hello"})
        await part.write()
        assert part.moved and room.expired and hung_up == [1012]
        assert [m["notice"] for m in ann.of_type("notice")] == ["moved"]

    run_apart(scenario())


class FakeSaves:
    """A save queue that stores at once, or says it could not."""

    def __init__(self, stores: bool) -> None:
        self.stores = stores
        self.stored: list[tuple[Any, Any]] = []

    def store(self, match: Any, also: Any = None) -> asyncio.Future[bool]:
        self.stored.append((match, also))
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        future.set_result(self.stores)
        return future


def test_a_finished_match_is_stored_with_the_rooms_last_row_or_its_loss_told() -> None:
    async def scenario() -> None:
        for stores in (True, False):
            room = JournalTable(people("Ann", "Bob"))
            ann = room.socket(0)
            saves = FakeSaves(stores)
            live = FakeLive()
            live_store = cast(Any, live)
            live_store.writer = lambda row, room_id, actions, finished, chat: ("row", finished)
            part = Journal(room, cast(SaveQueue, saves), cast(LiveStore, live_store))
            part.store_result(cast(Any, "the match"))
            assert part.result_due
            await part.write()
            assert saves.stored == [("the match", ("row", room.match_number))]
            assert not part.result_due
            notices = [m["notice"] for m in ann.of_type("notice")]
            assert notices == ([] if stores else ["lost"])

    run_apart(scenario())


def test_a_bots_chance_does_not_depend_on_when_the_others_plots_were_logged() -> None:
    # FTL plots are secret and simultaneous: the bot may think before or after the
    # other's plot reaches the log. The same room seed must give the same duel.
    ann = {"type": "plot", "player": "Ann", "orders": ["Ann:S2"]}
    mine = {"type": "plot", "player": "hard bot", "orders": ["hard bot:L"]}
    before = bot_chance(11, 1, "hard bot", [ann, mine])
    after = bot_chance(11, 1, "hard bot", [ann, mine, ann])
    assert [before.random() for _ in range(3)] == [after.random() for _ in range(3)]
    # ...and its next move draws afresh.
    fresh = bot_chance(11, 1, "hard bot", [ann, mine, ann, mine])
    assert fresh.random() != bot_chance(11, 1, "hard bot", [ann, mine]).random()
