"""Properties of random five-card draw cash sessions (issue 31): chips are conserved, an
illegal draw changes nothing, no private card reaches anyone else (other players,
spectators, the next occupant of a seat), and every hand record verifies."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import messages as m
from server.engine import card_name
from server.table import commands as c
from server.table.phases import TablePhase

from .drawtable import (
    buy,
    conn_of,
    draw,
    draw_table,
    drawer,
    hand,
    private_leaks,
    records,
    unverified,
)
from .pure import Pure


def imbalance(p: Pure) -> int:
    """Bought in − cashed out − chips on the table: 0 between hands."""
    cash = p.table.cash
    assert cash is not None
    return cash.book.ledger.imbalance(s.stack for s in p.table.seats.values())


def illegal_draw(p: Pure, rng: random.Random, seat: int) -> None:
    """A draw that must be refused, and the proof it changed nothing."""
    h = hand(p)
    before = (len(h.events), [tuple(x) for x in h.hole], p.net.stored_seq)
    others = [s for s in p.table.seats if s != seat and str(s) in h.index]
    held = h.hole[h.index[str(seat)]]
    kind = rng.randrange(3)
    if kind == 0 and others:  # out of turn
        draw(p, rng.choice(others), (), decision=None)
    elif kind == 1:  # a card he does not hold
        card = rng.choice([x for x in range(52) if x not in held])
        draw(p, seat, (card_name(card),), decision=None)
    else:  # the same card twice
        draw(p, seat, (card_name(held[0]),) * 2, decision=None)
    assert (len(h.events), [tuple(x) for x in h.hole], p.net.stored_seq) == before


def step(p: Pure, rng: random.Random, newcomers: list[str]) -> None:
    """One random move of the hand in play."""
    seat = drawer(p)
    if seat is not None:
        if not p.table.seats[seat].connected or rng.random() < 0.1:
            p.advance(6)  # his draw clock runs out (absent or thinking): he stands pat
        elif rng.random() < 0.2:
            illegal_draw(p, rng, seat)
        else:
            held = hand(p).hole[hand(p).index[str(seat)]]
            count = rng.choice([0, 1, 2, 3, 3, 5])
            cards = tuple(card_name(x) for x in rng.sample(list(held), count))
            draw(p, seat, cards, decision=None)
            assert drawer(p) != seat
        return
    menu = hand(p).menu()
    if menu is None:
        p.advance(p.table.next_deadline() - p.now if p.table.next_deadline() else 1)
        return
    seat = int(menu.player)
    roll = rng.random()
    if roll < 0.05:
        p.do(c.Gone(conn=conn_of(p, seat)))  # absent: dealt in, his clock acts for him
    elif roll < 0.15:
        p.act(seat, "fold")
    elif roll < 0.3 and menu.can_raise and menu.min_raise_to is not None:
        top = menu.max_raise_to or menu.min_raise_to
        p.act(seat, "raise", amount=rng.choice([menu.min_raise_to, top]))
    else:
        p.act(seat, "check" if menu.can_check else "call")


def between_hands(p: Pure, rng: random.Random, newcomers: list[str]) -> None:
    """Between hands: a spectator comes, someone leaves and a newcomer takes his seat, the
    absent come back, a busted player buys a new cave."""
    p.watch()
    for state in list(p.table.seats.values()):
        if not state.connected:
            p.watch(state.player)
        if state.stack == 0:
            p.send(p.conns[state.player], m.AddChips(table="t1", amount=5000))
    if rng.random() < 0.3 and len(p.table.seats) > 2 and newcomers:
        seat = rng.choice(sorted(p.table.seats))
        p.do(c.Leave(conn=conn_of(p, seat)))
        newcomer = newcomers.pop()
        buy(p, newcomer, seat)
        p.watch(newcomer, last_seq=0)  # a resync from the first event of the table


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_random_draw_sessions(seed: int, players: int) -> None:
    rng = random.Random(seed)
    p = draw_table("abcd"[:players], seed=seed)
    newcomers = list("wxyz")
    for _ in range(4):
        p.until(TablePhase.CUT, limit=3600)
        p.until(TablePhase.BETTING)
        for _ in range(200):
            if p.table.phase is not TablePhase.BETTING:
                break
            step(p, rng, newcomers)
        p.until(TablePhase.BETWEEN, limit=3600)
        assert imbalance(p) == 0
        between_hands(p, rng, newcomers)
    assert records(p)
    assert unverified(p) == []
    assert private_leaks(p) == []
    assert p.net.violations == []
