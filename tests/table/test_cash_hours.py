"""A cash table with opening hours, on the pure table (fpc cash: « Les tables ouvrent à partir
de 20h00 et ferment à 23h30 précise »): closed, nobody buys in; open, it deals; at 23:30 the
hand in play ends and no other is dealt, every stack is cashed out to its player, the
ledger balances."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from protocol import messages as m
from server.cash.hours import FPC_HOURS
from server.table.phases import TablePhase

from .pure import Pure
from .test_cash_table import balance, buy, cash

EVENING = datetime.fromisoformat("2026-11-26T19:50:00+01:00")  # Paris, 10 minutes early


def fpc_table(hours: str = FPC_HOURS) -> Pure:
    p = Pure(profile="fpc", sb=25, bb=50, max_seats=10, cash={"hours": hours}, action_seconds=5)
    start = p.now
    # the table's wall clock follows the pure clock, from 19:50 in Paris
    p.table.wall = lambda: (
        (EVENING + timedelta(seconds=p.now - start)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    )
    return p


def test_closed_nobody_buys_in_open_it_deals_and_at_23_30_it_closes() -> None:
    p = fpc_table()
    buy(p, "a", 1)
    assert p.errors("a") == ["cash.closed"] and not p.table.seats
    assert cash(p).book.ledger.entries == []
    p.advance(10 * 60)  # 20:00
    buy(p, "a", 1)
    buy(p, "b", 2)
    buy(p, "c", 3, 2000)
    assert len(p.table.seats) == 3
    p.advance(3 * 3600 + 29 * 60)  # 23:29: hands after hands (the clock acts for them)
    assert p.table.seats and p.table.hand_no >= 2
    p.advance(60)  # 23:30 « précise »
    last = p.table.hand_no
    p.advance(5 * 60)  # the hand in play ended; no other was dealt
    assert p.table.hand_no == last and p.table.phase is TablePhase.WAITING
    assert not p.table.seats  # everyone cashed out
    # returned to each player by the table (« removed », by « closed »), never lost
    out = [e for e in cash(p).book.ledger.entries if e.move.value == "removed"]
    assert {e.name for e in out} == {"A", "B", "C"} and {e.by for e in out} == {"closed"}
    assert balance(p) == 0
    said = [x.text for x in p.of("a", m.ChatEvent) if x.player == "host"]
    assert any("closed" in text for text in said)
    buy(p, "a", 1)  # closed again until tomorrow 20:00
    assert p.errors("a")[-1] == "cash.closed"


def test_a_table_waiting_for_players_closes_on_time_too() -> None:
    p = fpc_table()
    p.advance(3 * 3600 + 30 * 60)  # 23:20
    buy(p, "a", 1)
    assert p.table.seats and p.table.phase is TablePhase.WAITING
    p.advance(11 * 60)  # 23:31: nobody else came
    assert not p.table.seats
    assert [e.by for e in cash(p).book.ledger.entries if e.move.value == "removed"] == ["closed"]
    assert balance(p) == 0


def test_a_table_without_hours_never_closes() -> None:
    p = Pure(profile="fpc", sb=25, bb=50, max_seats=10, cash={}, action_seconds=5)
    buy(p, "a", 1)
    buy(p, "b", 2)
    p.until(TablePhase.BETTING)
    assert p.table.timers.closing is None
