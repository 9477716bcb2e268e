"""Run it twice at a friends table (no buy-ins): the table option the issue asks for ("Offer
run-it-twice as a table option for friends (both players agree), the way friends expect"),
built on the fpc multi-bordes (« si deux joueurs sont à tapis préflop ou avant la turn »)."""

from __future__ import annotations

from typing import Any

from protocol import messages as m
from server.table.phases import TablePhase
from server.table.views import table_view

from .pure import Pure


def friends(run_it: int, **kw: Any) -> Pure:
    p = Pure(profile="cdc", sb=50, bb=100, max_seats=6, run_it=run_it, action_seconds=5, **kw)
    p.seat_players(2)
    p.start_hand()
    return p


def all_in(p: Pure) -> None:
    p.act(p.to_act(), "allin")
    p.act(p.to_act(), "call")


def test_a_friends_table_with_run_it_twice_deals_two_runs_when_both_agree() -> None:
    p = friends(2)
    assert table_view(p.table, None)["run_it"] == 2  # the page knows what to offer
    all_in(p)
    players = [s.player for s in p.table.seats.values()]
    for player in players:
        assert [n.kind for n in p.of(player, m.Notice)].count("runs_offered") == 1
    for player in players:
        p.send(p.conns[player], m.RunIt(table="t1", hand=p.table.hand_no, runs=2))
    p.until(TablePhase.BETWEEN)
    assert {b.run for b in p.of(players[0], m.BoardEvent) if b.street == "river"} == {None, 2}
    assert sorted(x.run or 1 for x in p.of(players[0], m.PotAwarded)) == [1, 2]
    assert sum(s.stack for s in p.table.seats.values()) == 20_000  # no rake at friends tables


def test_one_refusal_is_one_run_and_a_plain_table_never_asks() -> None:
    p = friends(2)
    all_in(p)
    first = next(iter(p.table.seats.values())).player
    p.send(p.conns[first], m.RunIt(table="t1", hand=p.table.hand_no, runs=1))
    p.until(TablePhase.BETWEEN)
    assert {b.run for b in p.of(first, m.BoardEvent)} == {None}
    plain = friends(1)
    assert table_view(plain.table, None)["run_it"] == 1
    all_in(plain)
    plain.until(TablePhase.BETWEEN)
    for s in plain.table.seats.values():
        assert "runs_offered" not in [n.kind for n in plain.of(s.player, m.Notice)]


def test_a_tournament_table_deals_one_run_whatever_its_setting() -> None:
    p = Pure(directed=True, profile="fpc", run_it=3)
    assert table_view(p.table, None)["run_it"] == 1
