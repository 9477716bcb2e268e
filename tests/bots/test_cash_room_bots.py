"""A room of two cash tables played by SDK bots on a real server (issue 14): six bots at the
first table, one at the second; the host balances the room (casino cash: « on déplacera le
ou les prochains joueurs après la grosse blind de la table comprenant le plus de joueurs »).
The moved bots follow their ``moved`` with the SDK as it is, keep playing at the second
table with mirrors that agree with the server, and both ledgers balance to the chip."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bots import Bot, CallingStation, RandomLegal, Stats
from bots.launch import ServerProcess
from protocol import messages as m

from .test_cash_bots import CASH, FAST, ledger

SIGN = {
    "buy_in": 1, "rebuy": 1, "top_up": 1, "moved_in": 1,
    "cash_out": -1, "removed": -1, "moved_out": -1, "rake": -1,
}  # fmt: skip


def imbalance(server: ServerProcess, table: str, token: str) -> int:
    entries, on_table = ledger(server, table, token)
    return sum(SIGN[e["move"]] * int(e["amount"]) for e in entries) - on_table


def test_bots_balanced_to_another_table_of_the_room_play_on_there(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data", max_tables=10, **FAST).start()
    try:
        stats, moved = asyncio.run(_play(server))
        assert len(moved) == 2, moved  # 6 against 1: two move, whole stacks
        assert not stats.violations, stats.examples
        assert not stats.errors, stats.errors
    finally:
        server.stop()
    assert "Traceback" not in server.stderr(), server.stderr()[-3000:]


async def _play(server: ServerProcess) -> tuple[Stats, list[str]]:
    stats = Stats()
    rng = random.Random(15)
    bots = [
        Bot(
            server.url,
            RandomLegal(rng) if i % 2 else CallingStation(),
            nickname=f"b{i}",
            stats=stats,
            rebuy=True,
        )
        for i in range(1, 8)
    ]
    await bots[0].connect()
    one = await bots[0].create_table(name="one", **CASH)
    two = await bots[0].create_table(name="two", room=one.host, **CASH)

    async def sit(bot: Bot, table: m.TableCreated, seat: int) -> None:
        if bot is not bots[0]:
            await bot.connect()
        await bot.take_seat(table.table, seat, table.invite, buy_in=1000)

    await asyncio.gather(*(sit(b, one, s) for s, b in enumerate(bots[:6], 1)), sit(bots[6], two, 1))
    try:
        assert await bots[0].play(hands=20, seconds=60) >= 20
        await bots[0].send(m.Host(table=one.table, token=one.host, op="balance"))
        for _ in range(300):
            moved = [b.nickname for b in bots if b.table == two.table and b is not bots[6]]
            if len(moved) == 2:
                break
            await asyncio.sleep(0.1)
        mover = next(b for b in bots if b.table == two.table and b is not bots[6])
        # it plays at its new table (counted on its mirror there: ``Bot.play`` stops at once
        # for a bot that busted and rebought earlier, which says nothing of the move)
        assert mover.mirror is not None and mover.mirror.table == two.table
        start, loop = mover.mirror.hands_seen, asyncio.get_running_loop()
        deadline = loop.time() + 90
        while mover.mirror.hands_seen - start < 20 and loop.time() < deadline:
            await asyncio.sleep(0.1)
        assert mover.mirror.hands_seen - start >= 20, (mover.nickname, mover.busted)
        await bots[0].send(m.Host(table=one.table, token=one.host, op="pause"))
        await bots[0].send(m.Host(table=two.table, token=two.host, op="pause"))
        await asyncio.sleep(2.0)  # the hands in play end; no new one is dealt
        for table, token in ((one.table, one.host), (two.table, two.host)):
            assert await asyncio.to_thread(imbalance, server, table, token) == 0
    finally:
        await asyncio.gather(*(b.close() for b in bots))
    return stats, moved
