"""A cash player left with chips but less than a big blind (casino cash: « On ne peut pas
recevoir de cartes avec une cave inférieure à la grosse blind »; « Le joueur décavé doit se
« recaver » ou quitter la table »; « A son retour, on ne lui demandera pas de droit de
siège »).

Found by the 300-hand bots test: a table where every player but one was left with 25 (under
the 50 big blind) dealt no more, and nobody was told why."""

from __future__ import annotations

from protocol import messages as m
from server.table import commands as c
from server.table.phases import TablePhase

from .pure import Pure
from .test_cash_table import balance, buy, cash, table


def leave_b_short(p: Pure) -> None:
    """Heads-up, a (seat 1, 1,000) and b (seat 2, 500): b puts 475 in preflop, then folds to
    a bet on the flop: 25 left, under the 50 big blind."""
    buy(p, "a", 1)
    buy(p, "b", 2, 500)
    p.start_hand()
    raised = False
    while p.table.phase is TablePhase.BETTING:
        seat = p.to_act()
        hand = p.table.hand
        assert hand is not None
        menu = hand.menu()
        assert menu is not None
        if not hand.board:  # preflop: a raises to 475, b calls
            if seat == 1 and not raised:
                p.act(1, "raise", amount=475)
                raised = True
            else:
                p.act(seat, "call")
        elif seat == 1:
            p.act(1, "bet", amount=100)
        else:
            p.act(2, "check" if menu.can_check else "fold")
    p.until(TablePhase.BETWEEN)
    assert p.table.seats[2].stack == 25


def test_a_stack_under_the_big_blind_is_told_and_dealt_nothing_until_chips_are_added() -> None:
    p = table()
    leave_b_short(p)
    # told: publicly (the table sees why he is not dealt in), privately what to do
    seats = [e for _, kind, e in p.net.events() if kind == "seat" and e["status"] == "short"]
    assert [(e["seat"], e["stack"]) for e in seats] == [(2, 25)]
    notices = [n for n in p.of("b", m.Notice) if n.kind == "short_stack"]
    assert len(notices) == 1 and "add chips" in notices[0].text
    assert not [n for n in p.of("a", m.Notice) if n.kind == "short_stack"]
    view = p.table.view(2)
    assert view["cash"]["short"] == [2] and view["cash"]["min_stack"] == 50
    # heads-up with b short: one player to deal to, the table waits (and says it once)
    p.advance(30)
    assert p.table.phase is TablePhase.WAITING
    assert len([e for _, k, e in p.net.events() if k == "seat" and e["status"] == "short"]) == 1
    # b adds chips (within the maximum, by multiples of the small blind): dealt in at once,
    # no seat fee (« A son retour, on ne lui demandera pas de droit de siège »)
    p.send(p.conns["b"], m.AddChips(table="t1", amount=500))
    assert p.table.seats[2].stack == 525 and balance(p) == 0
    assert p.table.view(2)["cash"]["short"] == []
    p.start_hand()
    assert sorted(p.table.dealt_in) == [1, 2]
    assert not cash(p).dues  # nothing posted besides the blinds


def test_a_short_player_who_leaves_takes_his_chips() -> None:
    p = table()
    leave_b_short(p)
    p.do(c.Leave(conn=p.conns["b"]))
    assert 2 not in p.table.seats
    out = [e for e in cash(p).book.ledger.entries if e.move.value == "cash_out"]
    assert [(e.name, e.amount) for e in out] == [("B", 25)]
    assert balance(p) == 0


def test_new_blinds_that_leave_a_stack_short_tell_it_at_the_next_deal() -> None:
    p = table()
    buy(p, "a", 1)
    buy(p, "b", 2, 500)
    buy(p, "c", 3, 600)
    p.start_hand()
    p.play_out("fold")
    p.until(TablePhase.BETWEEN)
    # the host raises the limits and the blinds: b's and c's ~500 is no big blind any more
    host = c.Conn("host-cid", "host")
    p.do(c.HostOrder(conn=host, op="limits", low=600, high=6000))
    p.do(c.HostOrder(conn=host, op="blinds", sb=300, bb=600))
    assert not p.net.errors(host.cid)
    p.advance(5)
    short = {s for s, x in p.table.seats.items() if 0 < x.stack < 600}
    told = {e["seat"] for _, k, e in p.net.events() if k == "seat" and e["status"] == "short"}
    assert short and told == short
    assert not short & set(p.table.dealt_in)
