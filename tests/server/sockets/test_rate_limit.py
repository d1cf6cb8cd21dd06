"""A room socket's message limits (docs/protocol.md, "Limits") on a clock moved by hand:
the burst, the one warning when messages start being dropped, the close after 200 dropped
in a row, the refill, each exactly, whatever the machine's load."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from spacetable.server.sockets.rate_limit import MessageLimits, TokenBucket, Verdict
from tests._clock import FakeClock
from tests._loops import run_apart

ALLOW, THROTTLE, DROP, FLOOD = Verdict.ALLOW, Verdict.THROTTLE, Verdict.DROP, Verdict.FLOOD

Scenario = Callable[[MessageLimits, FakeClock], Awaitable[None]]


def on_a_fake_clock(scenario: Scenario, rate: float = 60) -> None:
    """Run ``scenario`` on a socket's limits of ``rate`` messages a second, on a clock
    that stands still until the scenario moves it."""

    async def run() -> None:
        clock = FakeClock()
        await scenario(MessageLimits(rate, clock), clock)

    run_apart(run())


def poses(limits: MessageLimits, count: int) -> list[Verdict]:
    """The verdicts on ``count`` poses arriving at once."""
    return [limits.message() for _ in range(count)]


def test_a_flood_is_told_once_then_closed_after_200_dropped_in_a_row() -> None:
    async def scenario(limits: MessageLimits, clock: FakeClock) -> None:
        verdicts = poses(limits, 120 + 201)
        assert verdicts == [ALLOW] * 120 + [THROTTLE] + [DROP] * 199 + [FLOOD]
        assert limits.explain().startswith(
            "too many messages: at most 60 a second, 5 of them other than pose"
        )

    on_a_fake_clock(scenario)


def test_a_token_back_lets_one_message_in_and_the_next_run_of_drops_is_told_again() -> None:
    async def scenario(limits: MessageLimits, clock: FakeClock) -> None:
        assert poses(limits, 120 + 100) == [ALLOW] * 120 + [THROTTLE] + [DROP] * 99
        await clock.advance(1 / 60 + 1e-9)  # one token back: a stall of 17 ms
        # "The first one dropped in a row" is told: a new row, a new warning, and the
        # count towards a flood starts again.
        assert poses(limits, 202) == [ALLOW, THROTTLE] + [DROP] * 199 + [FLOOD]

    on_a_fake_clock(scenario)


def test_a_client_at_its_rate_is_never_dropped_and_a_quiet_one_gets_its_burst_back() -> None:
    async def scenario(limits: MessageLimits, clock: FakeClock) -> None:
        assert poses(limits, 120) == [ALLOW] * 120  # the burst: two seconds' worth
        for _ in range(600):  # ten seconds at 60 a second
            await clock.advance(1 / 60 + 1e-9)
            assert limits.message() is ALLOW
        await clock.advance(60)  # refilled to the burst, never more
        assert poses(limits, 121) == [ALLOW] * 120 + [THROTTLE]

    on_a_fake_clock(scenario)


def test_messages_other_than_poses_have_a_smaller_bucket_and_poses_go_on() -> None:
    async def scenario(limits: MessageLimits, clock: FakeClock) -> None:
        verdicts = [(limits.message(), limits.action()) for _ in range(22)]
        assert verdicts == [(ALLOW, ALLOW)] * 20 + [(ALLOW, THROTTLE), (ALLOW, DROP)]
        assert limits.message() is ALLOW  # a pose still goes through
        await clock.advance(0.2 + 1e-9)  # 5 a second: one back
        assert (limits.message(), limits.action()) == (ALLOW, ALLOW)
        assert (limits.message(), limits.action()) == (ALLOW, THROTTLE)

    on_a_fake_clock(scenario)


def test_the_rate_scales_the_limits() -> None:
    async def scenario(limits: MessageLimits, clock: FakeClock) -> None:
        assert poses(limits, 13) == [ALLOW] * 12 + [THROTTLE]  # bursts of 2N
        assert limits.explain().startswith("too many messages: at most 6 a second, 0.5 of")

    on_a_fake_clock(scenario, rate=6)


def test_a_token_bucket_allows_its_rate_and_bursts_and_counts_refusals() -> None:
    bucket = TokenBucket.full(rate=10, burst=3, now=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.refused == 1
    assert not bucket.take(0.05)  # half a token back
    assert bucket.refused == 2
    assert bucket.take(0.1)  # one whole token: allowed, refusals forgotten
    assert bucket.refused == 0
    assert [bucket.take(100.0) for _ in range(4)] == [True, True, True, False]  # never > burst
