"""A cash table for friends with a host, played by SDK bots on a real server (issue 14):
six bots buy in, bust and rebuy, one leaves and comes back, one waits on the waiting list and
takes a freed seat; 300 hands, the rake on; the ledger balances to the chip (cash-outs +
stacks = buy-ins − rake), every bot's mirror agrees with the server, and a kill -9 loses no
line of the ledger."""

from __future__ import annotations

import asyncio
import csv
import io
import random
import urllib.request
from pathlib import Path

from bots import Bot, CallingStation, RandomLegal, Stats, TightAggressive
from bots.launch import ServerProcess
from protocol import messages as m

FAST = {
    "action_seconds": 5,
    "cut_seconds": 0.2,
    "next_hand_seconds": 0.05,
    "showdown_seconds": 0.05,
}
CASH = {
    "game": "cash",
    "profile": "casino",
    "sb": 25,
    "bb": 50,
    "min_buy_in": 500,
    "max_buy_in": 5000,
    "rake_permille": 50,
    "rake_cap": 100,
    "max_seats": 6,
    "action_seconds": 5,
}
BUY_IN = 1000


def ledger(server: ServerProcess, table: str, token: str) -> tuple[list[dict[str, str]], int]:
    """The ledger's lines and the chips on the table (its players' ``on_table``)."""
    url = f"http://127.0.0.1:{server.port}/api/tables/{table}/ledger.csv?t={token}"
    with urllib.request.urlopen(url, timeout=10) as response:
        lines, totals = response.read().decode().split("\n\n")
    on_table = sum(int(row["on_table"]) for row in csv.DictReader(io.StringIO(totals)))
    return list(csv.DictReader(io.StringIO(lines))), on_table


def imbalance(entries: list[dict[str, str]], on_table: int) -> int:
    sign = {"buy_in": 1, "rebuy": 1, "top_up": 1, "cash_out": -1, "removed": -1, "rake": -1}
    return sum(sign[e["move"]] * int(e["amount"]) for e in entries) - on_table


def test_300_hands_of_cash_with_rebuys_a_waiting_list_and_a_kill_9(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data", max_tables=10, **FAST).start()
    try:
        table, host, stats, kinds = asyncio.run(_play(server))
        entries, on_table = ledger(server, table, host)
        assert imbalance(entries, on_table) == 0
        moves = {e["move"] for e in entries}
        assert {"buy_in", "rebuy", "cash_out", "rake"} <= moves, moves
        assert not stats.violations, stats.examples
        assert not stats.errors, stats.errors
        assert {"seat_offered", "waiting_list"} <= kinds
        # a kill -9: what the ledger held is all there after the restart, and balances
        server.kill()
        server.start()
        after, on_table = ledger(server, table, host)
        assert after[: len(entries)] == entries
        assert imbalance(after, on_table) == 0
    finally:
        server.stop()
    assert "Traceback" not in server.stderr(), server.stderr()[-3000:]


async def _play(server: ServerProcess) -> tuple[str, str, Stats, set[str]]:
    stats = Stats()
    rng = random.Random(14)
    strategies = [TightAggressive(rng), RandomLegal(rng), CallingStation(), RandomLegal(rng)]
    strategies += [CallingStation(), RandomLegal(rng)]
    bots = [
        Bot(server.url, s, nickname=f"b{i}", stats=stats, rebuy=True)  # type: ignore[arg-type]
        for i, s in enumerate(strategies, 1)
    ]
    bots[0].counts_table = True
    await bots[0].connect()
    created = await bots[0].create_table(name="cash", **CASH)
    table, invite = created.table, created.invite

    async def sit(seat: int, bot: Bot) -> None:
        if seat > 1:
            await bot.connect()
        await bot.take_seat(table, seat, invite, buy_in=BUY_IN)

    await asyncio.gather(*(sit(seat, bot) for seat, bot in enumerate(bots, 1)))
    # a seventh friend waits for a seat
    waiting = Listening(server.url, CallingStation(), nickname="w", stats=stats, rebuy=True)
    await waiting.connect(token=invite)
    await waiting.send(m.JoinTable(table=table))
    await waiting.send(m.JoinWaitingList(table=table))
    kinds: set[str] = set()
    try:
        played = await bots[0].play(hands=100, seconds=120)
        assert played >= 100, _stuck(server, bots, played)
        # b6 leaves: his seat goes to the waiting list's friend, who buys in
        await bots[5].leave()
        kinds |= {n.kind for n in waiting.notices}
        if await _notice(waiting, "seat_offered", 30):
            kinds.add("seat_offered")
        await waiting.take_seat(table, 6, invite, buy_in=BUY_IN)
        played = await bots[0].play(hands=100, seconds=120)
        assert played >= 100, _stuck(server, bots, played)
        # b5 leaves with his chips and comes back (a big blind as a seat fee, casino)
        await bots[4].leave()
        await _cashed_out(server, table, created.host, "b5")  # at the end of his hand
        await bots[4].take_seat(table, 5, invite, buy_in=BUY_IN)
        played = await bots[0].play(hands=100, seconds=120)
        assert played >= 100, _stuck(server, bots, played)
    finally:
        await asyncio.gather(*(b.close() for b in [*bots, waiting]))
    assert stats.hands >= 300, stats.hands
    return table, created.host, stats, kinds


class Listening(Bot):
    """A bot that also keeps the notices it receives (the waiting list speaks by notices)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.notices: list[m.Notice] = []

    async def _receive(self, msg: m.Message) -> None:
        if isinstance(msg, m.Notice):
            self.notices.append(msg)
        await super()._receive(msg)


async def _cashed_out(server: ServerProcess, table: str, token: str, name: str) -> None:
    """Wait until ``name``'s cash-out is in the ledger (a leave takes effect between hands;
    a player who leaves busted, between his bust and his rebuy, leaves at once and writes
    no line)."""
    for _ in range(300):
        entries, _ = await asyncio.to_thread(ledger, server, table, token)
        if any(e["move"] == "cash_out" and e["name"] == name for e in entries):
            return
        await asyncio.sleep(0.1)


def _stuck(server: ServerProcess, bots: list[Bot], played: int) -> str:
    seats = [(b.nickname, b.seat, b.left, b.busted, b.mirror and b.mirror.hands_seen) for b in bots]
    return f"{played} hands; bots {seats}; server: {server.stderr()[-1500:]}"


async def _notice(bot: Listening, kind: str, timeout: float) -> bool:
    """Whether ``bot`` received a ``notice`` of ``kind`` within ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        if any(n.kind == kind for n in bot.notices):
            return True
        await asyncio.sleep(0.05)
    return False
