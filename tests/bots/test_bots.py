"""The bot SDK against a real server started here (fast timings): 100 hands at a six-handed
table, 2,000 fuzzer gestures with no invariant violation, and a bot that loses its connection
mid-hand (at its turn) and resumes. Every wait is bounded."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from bots import (
    Bot,
    CallingStation,
    Decision,
    Notebook,
    RandomLegal,
    RulesFuzzer,
    Stats,
    TightAggressive,
    View,
)
from bots.launch import ServerProcess
from bots.loadtest import LoadConfig, run

FAST = {
    "action_seconds": 5,
    "cut_seconds": 0.2,
    "next_hand_seconds": 0.05,
    "showdown_seconds": 0.05,
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    data: Path = tmp_path_factory.mktemp("server")
    with ServerProcess(data, max_tables=50, **FAST) as proc:
        yield proc
    assert "Traceback" not in proc.stderr(), proc.stderr()[-3000:]


async def _table(
    url: str, strategies: list[object], stats: Stats, notebook: Notebook | None = None
) -> list[Bot]:
    bots = [
        Bot(url, s, nickname=f"b{i}", stats=stats, notebook=notebook, rebuy=True)  # type: ignore[arg-type]
        for i, s in enumerate(strategies, 1)
    ]
    bots[0].counts_table = True
    await bots[0].connect()
    created = await bots[0].create_table(name="test", action_seconds=FAST["action_seconds"])
    await bots[0].take_seat(created.table, 1, created.invite)

    async def sit(seat: int, bot: Bot) -> None:
        await bot.connect()
        await bot.take_seat(created.table, seat, created.invite)

    # all at once, so that the first hand is dealt to everyone
    await asyncio.gather(*(sit(seat, bot) for seat, bot in enumerate(bots[1:], 2)))
    return bots


async def _close(bots: list[Bot]) -> None:
    await asyncio.gather(*(b.close() for b in bots))


def test_sdk_bot_plays_100_hands_against_five(server: ServerProcess) -> None:
    async def scenario() -> tuple[Stats, Bot, Notebook]:
        stats = Stats()
        notebook = Notebook(stats.violation)
        rng = random.Random(7)
        strategies = [TightAggressive(rng), RandomLegal(rng), RandomLegal(rng), CallingStation()]
        strategies += [RandomLegal(rng), CallingStation()]
        bots = await _table(server.url, strategies, stats, notebook)
        try:
            played = await asyncio.wait_for(bots[0].play(hands=100), 90)
            assert played >= 100
        finally:
            await _close(bots)
        notebook.flush()
        return stats, bots[0], notebook

    stats, hero, notebook = asyncio.run(scenario())
    assert not stats.violations, stats.examples
    assert not stats.errors, stats.errors
    assert stats.hands >= 100
    assert hero.stats.acts > 50  # the SDK bot acted, and every act came back
    assert notebook.checked >= 100  # hole cards, shown cards and boards compared across bots


def test_fuzzer_2000_actions_without_violation(server: ServerProcess) -> None:
    async def scenario() -> tuple[Stats, list[RulesFuzzer], int]:
        stats = Stats()
        notebook = Notebook(stats.violation)
        rng = random.Random(11)
        fuzzers = [RulesFuzzer(random.Random(rng.random())) for _ in range(4)]
        strategies: list[object] = [*fuzzers, RandomLegal(rng), CallingStation()]
        bots = await _table(server.url, strategies, stats, notebook)
        try:
            for _ in range(1200):  # at most 120 s
                if sum(f.gestures for f in fuzzers) >= 2000:
                    break
                await asyncio.sleep(0.1)
        finally:
            await _close(bots)
        notebook.flush()
        return stats, fuzzers, bots[0].mirror.hands_seen if bots[0].mirror else 0

    stats, fuzzers, hands = asyncio.run(scenario())
    assert sum(f.gestures for f in fuzzers) >= 2000
    assert not stats.violations, stats.examples
    assert not stats.errors, stats.errors  # only the expected refusals
    assert sum(stats.expected_errors.values()) > 100, stats.expected_errors
    assert any(code.startswith("rule.") for code in stats.expected_errors)
    assert hands > 10
    assert server.alive()


class DropOnTurn(CallingStation):
    """Cuts its own connection the first time it is asked to act in hand 2 or later."""

    def __init__(self) -> None:
        self.bot: Bot | None = None
        self.dropped_at: int | None = None

    def decide(self, view: View) -> Decision | None:
        if self.dropped_at is None and view.hand >= 2 and self.bot is not None:
            self.dropped_at = view.hand
            self.bot.drop()
            return None
        return super().decide(view)


def test_bot_reconnecting_mid_hand_resumes(server: ServerProcess) -> None:
    async def scenario() -> tuple[Stats, Bot, DropOnTurn, int, int]:
        stats = Stats()
        dropper = DropOnTurn()
        bots = await _table(server.url, [CallingStation(), dropper, CallingStation()], stats)
        hero = bots[1]
        dropper.bot = hero
        token = hero.seat_token
        try:
            for _ in range(300):
                if dropper.dropped_at is not None:
                    break
                await asyncio.sleep(0.1)
            assert dropper.dropped_at is not None
            acts_at_drop = hero.stats.acts
            # the hand goes on with the bot back in it; then more hands
            await asyncio.wait_for(hero.play(hands=5), 60)
        finally:
            await _close(bots)
        assert hero.seat_token != token  # the seat token rotated at the new login
        return stats, hero, dropper, acts_at_drop, hero.mirror.hand if hero.mirror else 0

    stats, hero, dropper, acts_at_drop, hand = asyncio.run(scenario())
    assert stats.reconnects == 1
    assert not stats.violations, stats.examples
    assert not stats.errors, stats.errors
    assert hero.seat == 2
    assert dropper.dropped_at is not None and hand >= dropper.dropped_at + 4
    assert stats.acts > acts_at_drop  # it acted again after resuming
    timeouts = [e for e in hero.errors if e.code.startswith("rule.")]
    assert not timeouts


def test_loadtest_small_run(server: ServerProcess) -> None:
    report = run(
        LoadConfig(url=server.url, tables=3, players=6, duration=3, action_seconds=5),
        progress_out=None,
    )
    assert report["bots"] == 18
    assert report["actions"] > 0 and report["hands"] > 0
    assert report["latency_ms"]["p99"] is not None
    assert report["errors_total"] == 0, report["errors"]
    assert not report["violations"], report["violation_examples"]
