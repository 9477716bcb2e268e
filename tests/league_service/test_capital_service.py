"""The season capital's service beside real cash tables (issue 26): a buy-in is reserved
before the table sees it, spent when the ledger writes it, released when the table refuses
it, and the holds of a table whose process died are dropped when it comes back, its totals
copied again from the ledger it restored (real TableActors on real SQLite files)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from protocol import ProtocolError
from server.dealing import Signer
from server.league.capital_store import CapitalStore
from server.league.model import League
from server.league.store import LeagueStore
from server.league_service import SeasonCapital
from server.store import Store
from server.table import commands as tc
from server.table.actor import TableActor
from server.table.clock import FakeClock
from server.table.config import TableConfig
from server.table.dealer import CsprngDealer
from tests.table.helpers import RecordingClient, settle

START = 6000
CASH: dict[str, Any] = {"min_buyin": 500, "max_buyin": 5000, "hours": "always"}


def config(table: str, profile: str = "fpc") -> TableConfig:
    extra = {"league": "L", "season": "S", "capital": START, "created_by": "127.0.0.1"}
    return TableConfig(
        table_id=table, profile=profile, sb=25, bb=50, max_seats=6, cash=CASH, extra=extra
    )


class Process:
    """One server process: its tables' store, the leagues and the capital's files."""

    def __init__(self, data: Path) -> None:
        data.mkdir(exist_ok=True)
        self.store = Store(data / "brasseur.sqlite")
        self.leagues = LeagueStore(data / "leagues.sqlite")
        if self.leagues.league("L") is None:
            owner = League(
                id="L", name="Club", owner="ana", invite="i", members=frozenset({"ana", "bob"})
            )
            self.leagues.add_league(owner)
        self.capital = SeasonCapital(self.leagues, CapitalStore(data / "capital.sqlite"))
        self.signer = Signer.generate()

    def table(self, name: str, profile: str = "fpc") -> TableActor:
        cfg = config(name, profile)
        if name not in {n for n, _ in self.store.tables()}:
            self.store.save_table(name, cfg.to_dict())
        actor = TableActor(cfg, FakeClock(), CsprngDealer(self.signer), store=self.store)
        self.capital.follow(actor)
        actor.recover()
        self.capital.restored(actor)
        actor.start()
        return actor

    def free(self, member: str) -> int:
        [account] = [a for a in self.capital.book.accounts("S") if a.member == member]
        spent = sum(s.taken - s.brought for s in account.stints.values())
        return START + spent - sum(h.amount for h in account.holds)


def buy(actor: TableActor, client: RecordingClient, seat: int, amount: int) -> tc.Command:
    command = tc.BuyIn(conn=actor.conn(client), seat=seat, name=client.pid or "", amount=amount)
    return command


@pytest.mark.asyncio
async def test_reserved_spent_released_and_dropped_after_a_crash(tmp_path: Path) -> None:
    one = Process(tmp_path / "p")
    t1, t2 = one.table("t1"), one.table("t2")
    ana = RecordingClient(pid="m.ana")
    # reserved before the table sees it: a second buy-in beyond the capital is refused at once
    first = one.capital.admit(t1, buy(t1, ana, 1, 5000))
    assert isinstance(first, tc.BuyIn) and first.hold and first.capital == 5000
    assert one.free("ana") == 1000
    with pytest.raises(ProtocolError) as refused:
        one.capital.admit(t2, buy(t2, ana, 1, 2000))
    assert refused.value.code == "cash.capital"
    assert refused.value.message == "your capital allows 1000"
    # the table writes the buy-in: the hold is spent, the stint says 5,000 brought
    t1.post(first, ana)
    await settle()
    [account] = one.capital.book.accounts("S")
    assert account.holds == () and account.stints["t1"].brought == 5000
    assert one.free("ana") == 1000
    # the table refuses a second seat for her: released at once, nothing brought
    again = one.capital.admit(t1, buy(t1, ana, 2, 1000))
    t1.post(again, ana)
    await settle()
    assert one.free("ana") == 1000
    assert one.capital.book.accounts("S")[0].holds == ()
    # a buy-in reserved at t2, then the process dies before t2 handles it
    lost = one.capital.admit(t2, buy(t2, ana, 1, 1000))
    assert isinstance(lost, tc.BuyIn) and one.free("ana") == 0
    await t1.stop()
    await t2.stop()
    # the next process: t2's hold died with its request; t1's buy-in is still counted
    two = Process(tmp_path / "p")
    r1, r2 = two.table("t1"), two.table("t2")
    assert two.free("ana") == 1000
    [account] = two.capital.book.accounts("S")
    assert account.holds == () and account.stints["t1"] == account.stints["t1"].__class__(
        5000, 0, 5000
    )
    await r1.stop()
    await r2.stop()


@pytest.mark.asyncio
async def test_a_cash_out_gives_the_capital_back(tmp_path: Path) -> None:
    one = Process(tmp_path / "p")
    t1 = one.table("t1")
    ana = RecordingClient(pid="m.ana")
    t1.post(one.capital.admit(t1, buy(t1, ana, 1, 5000)), ana)
    await settle()
    assert one.free("ana") == 1000
    t1.post(tc.Leave(conn=t1.conn(ana)), ana)
    await settle()
    assert one.free("ana") == START
    rows = one.capital.standings("S", START)
    assert [(r["member"], r["capital"]) for r in rows] == [("ana", START)]
    await t1.stop()


@pytest.mark.asyncio
async def test_a_top_up_is_reserved_like_a_buy_in(tmp_path: Path) -> None:
    """casino cash: a top-up between hands, within the maximum; at a season's table it
    draws on the capital as a buy-in does (reserved, then spent once written)."""
    one = Process(tmp_path / "p")
    t1 = one.table("t1", profile="casino")
    ana = RecordingClient(pid="m.ana")
    t1.post(one.capital.admit(t1, buy(t1, ana, 1, 1000)), ana)
    await settle()
    assert one.free("ana") == 5000
    top_up = one.capital.admit(t1, tc.AddChips(conn=t1.conn(ana), amount=2000))
    assert isinstance(top_up, tc.AddChips) and top_up.hold
    t1.post(top_up, ana)
    await settle()
    ledger = t1.ledger()
    assert ledger is not None and ledger.moves("m.ana") == (3000, 0)
    assert ledger.recorded(top_up.hold)
    assert one.free("ana") == 3000 and one.capital.book.accounts("S")[0].holds == ()
    with pytest.raises(ProtocolError) as refused:
        one.capital.admit(t1, tc.AddChips(conn=t1.conn(ana), amount=3001))
    assert refused.value.code == "cash.capital"
    await t1.stop()
