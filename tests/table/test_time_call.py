"""The Time called on a tanking player is a ruling the whole table sees (issue 29, item 6):
who called it on whom, and the countdown he now has (cdc 3.5: « Le joueur qui hésite se
verra donner 30 secondes pour prendre une décision, les 5 dernières secondes étant
décomptées à haute voix »), in the ``clock_event`` every connection receives and in the
snapshot of anyone who (re)joins while it runs. Pure table, fake time."""

from __future__ import annotations

from protocol import messages as m
from server.table import commands as c

from .pure import Pure


def called_on(p: Pure, n: int = 3) -> tuple[int, int]:
    """A hand of ``n`` players where the one to act has thought 60 s and the next one calls
    the Time on him: (thinker, caller)."""
    p.seat_players(n)
    p.start_hand()
    thinker = p.to_act()
    caller = thinker % n + 1
    p.advance(60)
    p.do(c.CallTime(conn=p.conns[f"p{caller}"], hand=p.table.hand_no))
    return thinker, caller


def test_every_connection_is_told_who_called_the_time_on_whom() -> None:
    p = Pure(profile="cdc", action_seconds=600, time_call_after=60)
    rail = p.watch()  # a spectator too: the ruling is the table's
    thinker, caller = called_on(p)
    for who in [*(f"p{k}" for k in (1, 2, 3)), rail]:
        called = [x for x in p.of(who, m.ClockEvent) if x.kind == "time"]
        assert len(called) == 1, who
        assert (called[0].seat, called[0].by) == (thinker, caller)
        assert (called[0].remaining_ms, called[0].countdown_ms) == (30_000, 5_000)
    # the action clocks name nobody
    assert all(x.by is None for x in p.of("p1", m.ClockEvent) if x.kind != "time")


def test_a_snapshot_during_the_time_says_it_was_called_and_by_whom() -> None:
    p = Pure(profile="tda", action_seconds=600, time_call_after=60)
    thinker, caller = called_on(p)
    p.advance(20)
    late = p.watch()
    state = p.last(late, m.Snapshot).state
    assert state["to_act"] == thinker
    assert state["time_called"] == {"by": caller, "countdown_ms": 10_000}
    assert state["clock_remaining_ms"] == 40_000  # tda 27: 50 s + 10 s counted, 20 s gone
    # the next decision has its own clock: no Time called on it
    p.act(thinker, "fold")
    again = p.watch()
    assert "time_called" not in p.last(again, m.Snapshot).state
