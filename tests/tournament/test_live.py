"""A whole tournament on live tables: 200 SDK bots over websockets against a real gateway, the
director driving real table actors through the in-memory coordinator, every clock 30x faster.

Checked from what really happened (the decisions and the tables' stored events): chips are
conserved in every hand and in the end, no table deals while short by the profile's gap
(cdc 2.3), no moved player skips a big blind (cdc 2.3 "règle primordiale"), hand-for-hand is
played at the bubble (cdc 2.7), and the results, prizes and points are those of the config.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bots.client import Bot
from bots.strategies import CallingStation, RandomLegal, TightAggressive
from server.dealing import Signer
from server.gateway.app import Gateway
from server.gateway.limits import Limits
from server.store import Store
from server.table.clock import AcceleratedClock
from server.tournament import Deal, FinalTable, HandForHand, MovePlayer, TableAssignment
from server.tournament.prizes import points_by_place

CONFIG = Path(__file__).parent / "configs" / "live_200.toml"
PLAYERS = 200
STACK = 3000

ONE_ADDRESS = Limits(connections_per_address=0, registrations_per_address=0, tables_per_address=0)
"""Every bot connects from 127.0.0.1: one address, lifted limits (tests/conftest.py)."""


class Audit:
    """Watches every batch of decisions as the host applies them."""

    def __init__(self, gateway: Gateway, tid: str) -> None:
        self.live = gateway.tournaments[tid]
        self.director = self.live.coordinator.loop.director
        self.tables: set[str] = set()
        self.deals = 0
        self.hfh_deals = 0
        self.hfh_on = 0
        self.gap_violations: list[str] = []
        self.moves = 0
        self.final = ""
        self.hfh_active = False
        self.barrier_broken: list[str] = []
        self.bubble_deals = 0
        """Deals with several tables open and one bust from the money or the final table."""

    def __call__(self, decisions: list[Any]) -> None:
        d = self.director
        for dec in decisions:
            if isinstance(dec, TableAssignment):
                self.tables.add(self.live.host.table_name(dec.table_id))
            elif isinstance(dec, FinalTable):
                self.final = self.live.host.table_name(dec.table.table_id)
                self.tables.add(self.final)
            elif isinstance(dec, MovePlayer):
                self.moves += 1
            elif isinstance(dec, HandForHand):
                self.hfh_on += dec.on
                self.hfh_active = dec.on
            elif isinstance(dec, Deal):
                self.deals += 1
                self.hfh_deals += dec.hand_for_hand
                if self.hfh_active and not dec.hand_for_hand:
                    self.barrier_broken.append(f"table {dec.table_id} dealt alone in hand-for-hand")
                counts = d.table_counts()
                bubbles = (len(d.payouts) + 1, d.config.final_table_size + 1)
                if len(counts) > 1 and d.remaining in bubbles:
                    self.bubble_deals += 1
                    if not dec.hand_for_hand:  # cdc 2.7
                        self.barrier_broken.append(
                            f"table {dec.table_id} dealt at the bubble ({d.remaining} left) alone"
                        )
                if len(counts) > 1:
                    gap = max(counts.values()) - len(dec.seats)
                    if gap >= d.gap_tolerance():
                        self.gap_violations.append(f"table {dec.table_id} dealt {gap} short")


def check_tables(store: Store, tables: set[str]) -> tuple[list[str], Counter[str]]:
    """Per table, from its stored events: chips conserved in every hand, and every player who
    arrived after the table's first hand is never dealt in first on the button or the small
    blind (he would play the button before paying the big blind: a skipped big blind)."""
    problems: list[str] = []
    seen: Counter[str] = Counter()
    for table in sorted(tables):
        started: dict[int, int] = {}
        arrivals: dict[int, str] = {}
        first_hand_done = False
        for _seq, kind, data in store.events_after(table, 0, limit=1_000_000):
            if kind == "seat" and data["status"] == "seated" and first_hand_done:
                arrivals[data["seat"]] = data["player"]
            elif kind == "seat" and data["status"] in ("moved", "busted", "left"):
                arrivals.pop(data["seat"], None)
            elif kind == "hand_start":
                seen["hands"] += 1
                first_hand_done = True
                stacks = {int(s): v for s, v in data["stacks"].items()}
                started[data["hand"]] = sum(stacks.values())
                for seat in [s for s in arrivals if s in stacks]:
                    arrivals.pop(seat)
                    seen["arrivals_dealt"] += 1
                    if seat == data["big_blind"]:
                        seen["arrivals_on_bb"] += 1
                    elif seat in (data["button"], data["small_blind"]):
                        problems.append(f"{table} hand {data['hand']}: seat {seat} skips the BB")
            elif kind == "hand_end" and not data["cancelled"]:
                total = sum(data["stacks"].values())
                if total != started.get(data["hand"]):
                    problems.append(
                        f"{table} hand {data['hand']}: {started.get(data['hand'])} -> {total}"
                    )
    return problems, seen


@pytest.mark.asyncio
async def test_200_bots_play_a_tournament_to_one_winner_on_live_tables(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    store = Store(tmp_path / "brasseur.sqlite")
    gateway = Gateway(store, Signer.generate(), clock=AcceleratedClock(30.0), limits=ONE_ADDRESS)
    gateway.add_tournament("live", CONFIG.read_text())
    audit = Audit(gateway, "live")
    gateway.tournaments["live"].host.observers.append(audit)
    server = await gateway.start("127.0.0.1", 0)
    url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}/ws"
    strategies = [
        lambda i: RandomLegal(random.Random(i)),
        lambda i: TightAggressive(random.Random(i)),
        lambda i: CallingStation(),
    ]
    bots = []
    try:
        for i in range(PLAYERS):
            bot = Bot(url, strategies[i % 3](i), nickname=f"bot{i:03d}", rng=random.Random(i))
            await bot.connect()
            await bot.register("live")
            bots.append(bot)
        done = await asyncio.wait_for(
            asyncio.gather(*(b.play_tournament() for b in bots)), timeout=240
        )
        assert all(done)
        host = gateway.tournaments["live"].host
        for _ in range(100):
            if host.finished:
                break
            await asyncio.sleep(0.05)
        assert host.finished
    finally:
        for bot in bots:
            await bot.close()
        await gateway.close()

    # the bots saw no invariant broken and no error but races with the end of a hand
    violations: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    for bot in bots:
        violations.update(bot.stats.violations)
        errors.update(bot.stats.errors)
    examples = [x for bot in bots for x in bot.stats.examples][:10]
    assert not violations, (violations, examples)
    assert not errors, errors
    # nothing went wrong on the server side (a refused report would be logged)
    server_side = ("brasseur.tournament", "brasseur.table", "brasseur.gateway")
    assert [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.WARNING and r.name in server_side
    ] == []

    # chips conserved in every hand; no moved player skipped his big blind (cdc 2.3)
    problems, seen = check_tables(store, audit.tables)
    assert problems == [], problems[:10]
    assert seen["hands"] > 300 and seen["arrivals_dealt"] > 20, seen
    # the table-size gap never reached the profile's tolerance at a deal (cdc 2.3, tda 10-D)
    assert audit.gap_violations == [], audit.gap_violations[:10]
    # balancing moved players (how many depends on the cards: 10 to 30 seen in CI runs)
    assert audit.moves >= 5
    # hand-for-hand at the bubble (cdc 2.7): from the moment it is on, no table deals alone, and
    # no table deals at a bubble without it. (Whether a bubble is ever dealt at depends on the
    # cards: busts at two tables in the same moment can jump over both bubbles, as one CI run
    # did; then there is nothing to play hand for hand.)
    assert audit.barrier_broken == [], audit.barrier_broken
    assert audit.hfh_on >= 1 or audit.bubble_deals == 0, (audit.hfh_on, audit.bubble_deals)

    # results: every entry placed once, the winner holds every chip, prizes and points
    results = json.loads(store.get_meta("tournament:live:results.json") or "{}")
    rows = results["results"] if isinstance(results, dict) else results
    assert len(rows) == PLAYERS
    assert len({r["player_id"] for r in rows}) == PLAYERS
    winner = [r for r in rows if r["place"] == 1]
    assert len(winner) == 1
    assert audit.final  # the final table was drawn (cdc 2.6)
    ends = [d for _, k, d in store.events_after(audit.final, 0, 1_000_000) if k == "hand_end"]
    final = ends[-1]
    assert sorted(v for v in final["stacks"].values() if v) == [PLAYERS * STACK]
    paid = [300, 200, 140, 100, 80, 60, 50, 40, 30] + [0] * PLAYERS
    assert sum(r["prize"] for r in rows) == 1000
    for r in rows:
        if not r["tied_with"]:
            assert r["prize"] == paid[r["place"] - 1], r
        else:  # cdc 1.10, 2.7: tied players share the prizes of the places they cover
            block = [r, *(x for x in rows if x["player_id"] in r["tied_with"])]
            covered = paid[r["place"] - 1 : r["place"] - 1 + len(block)]
            assert abs(sum(x["prize"] for x in block) - sum(covered)) < len(block), block
    director = gateway.tournaments["live"].coordinator.loop.director
    expected_points = points_by_place(director.config.points, PLAYERS, 6)
    for r in rows:
        if not r["tied_with"]:
            assert r["points"] == expected_points[r["place"] - 1], r
