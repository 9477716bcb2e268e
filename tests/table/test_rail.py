"""The rail on the pure table: live spectators (no hole card, ever) and the commentary mode a
tournament director may choose (one hand behind, the finished hands' hole cards)."""

from __future__ import annotations

from protocol import messages as m
from server.table import commands as c
from server.table.phases import TablePhase

from .pure import Pure
from .test_table_pure import contiguous, deal, directed, seqs


def _cards_of_unfinished_hands(p: Pure, who: c.Conn) -> list[m.HoleCards]:
    """Hole cards the spectator holds of the hand in play (there must never be any)."""
    live = p.table.hand_no if p.table.in_hand() else -1
    return [h for h in p.of(who, m.HoleCards) if h.cards and h.hand == live]


def _own_cards(p: Pure, hand: int) -> dict[int, tuple[str, ...]]:
    """What each player was dealt in ``hand``, from his own hole event."""
    out = {}
    for seat in (1, 2, 3):
        mine = [h for h in p.of(f"p{seat}", m.HoleCards) if h.hand == hand and h.seat == seat]
        if mine:
            out[seat] = mine[0].cards
    return out


def test_commentary_spectators_lag_a_hand_and_see_the_finished_hands_cards() -> None:
    p, rail = directed()
    p.do(c.SpectatorMode(delayed=True))
    for hand in (1, 2, 3):
        p.advance(p.config.next_hand_seconds)
        p.do(deal(hand, (hand % 3 + 1, (hand + 1) % 3 + 1, (hand + 2) % 3 + 1)))
        p.until(TablePhase.BETTING)
        # nothing of the hand in play reaches the rail, and a snapshot shows the last one
        assert not [x for x in p.of(rail, m.HandStart) if x.hand == hand]
        late = p.watch(None)
        snap = p.last(late, m.Snapshot)
        assert snap.state["phase"] == "between" and snap.state["hand"] == hand - 1
        assert "hole" not in snap.state and "board" not in snap.state
        assert _cards_of_unfinished_hands(p, rail) == []
        assert _cards_of_unfinished_hands(p, late) == []
        p.play_out("fold")
        # the hand is over: the rail gets it, with every hole card of the players dealt in
        shown = {h.seat: h.cards for h in p.of(rail, m.HoleCards) if h.hand == hand}
        assert shown == _own_cards(p, hand) and all(len(v) == 2 for v in shown.values())
        assert len(shown) == 3
    assert contiguous(seqs(p, rail))
    # never a hole_proof (the players' own) nor a hand-for-hand notice to the rail
    assert not p.of(rail, m.HoleProof)
    assert not p.net.violations


def test_back_to_live_mid_hand_the_rail_catches_up_without_the_cards() -> None:
    p, rail = directed()
    p.do(c.SpectatorMode(delayed=True))
    p.advance(p.config.next_hand_seconds)
    p.do(deal(1, (1, 2, 3)))
    p.until(TablePhase.BETTING)
    assert not p.of(rail, m.HandStart)
    p.do(c.SpectatorMode(delayed=False))
    assert [x.hand for x in p.of(rail, m.HandStart)] == [1]
    holes = [h for h in p.of(rail, m.HoleCards) if h.hand == 1]
    assert len(holes) == 3 and all(h.cards == () for h in holes)
    p.act(p.to_act(), "fold")  # live now: the next action comes as it happens
    assert p.of(rail, m.ActionEvent)[-1] == p.of("p1", m.ActionEvent)[-1]
    p.play_out("fold")
    assert all(h.cards == () for h in p.of(rail, m.HoleCards))
    assert contiguous(seqs(p, rail))
    # and back to commentary mid-hand: the rest of the hand waits, its cards stay hidden
    p.advance(p.config.next_hand_seconds)
    p.do(deal(2, (2, 3, 1)))
    p.until(TablePhase.BETTING)
    p.do(c.SpectatorMode(delayed=True))
    before = len(p.of(rail, m.ActionEvent))
    p.act(p.to_act(), "fold")
    assert len(p.of(rail, m.ActionEvent)) == before
    p.play_out("fold")
    assert len(p.of(rail, m.ActionEvent)) > before
    assert all(h.cards == () for h in p.of(rail, m.HoleCards) if h.hand == 2)
    assert contiguous(seqs(p, rail))


def test_a_friends_rail_is_live_over_hands_seat_changes_and_busts() -> None:
    p = Pure()
    p.seat_players(3)
    rail = p.watch(None)
    for _ in range(4):
        p.start_hand()
        assert p.of(rail, m.HandStart)[-1].hand == p.table.hand_no
        p.play_out("fold")
    # a seat vacated between hands and taken again: still nothing for the rail
    p.send(p.conns["p3"], m.LeaveTable(table="t1"))
    p.sit("p4", 3)
    for _ in range(3):
        p.start_hand()
        p.play_out("fold")
    assert all(h.cards == () for h in p.of(rail, m.HoleCards))
    assert not p.of(rail, m.HoleProof)
    assert contiguous(seqs(p, rail))
    assert not p.net.violations


# ---------------------------------------------------------------------- sitting out (friends)


def test_a_friend_back_from_sitting_out_waits_for_the_button_and_never_stalls_the_table() -> None:
    """A friend sitting out is left out of the deals; the dead button moves on without him, so
    he may come back between the button and the big blind: he then waits for the button to
    pass, as a newcomer does (tda 7), instead of making a deal the engine must refuse."""
    waited = dealt_back = 0
    for away in range(2, 7):  # sitting out at different moments: every position comes up
        p = Pure(max_seats=6)
        p.seat_players(5)
        for _ in range(away):
            p.start_hand()
            p.play_out("fold")
        p.send(p.conns["p3"], m.SitOut(table="t1"))
        for _ in range(2):
            p.start_hand()
            assert "3" not in p.last("p1", m.HandStart).stacks
            p.play_out("fold")
        p.send(p.conns["p3"], m.SitIn(table="t1"))
        for k in range(3):
            p.start_hand()
            start = p.last("p1", m.HandStart)
            if "3" in start.stacks:
                dealt_back += 1
                waited += k > 0
                break
            # he waits: he sits strictly between the button and the big blind
            seats = [(start.button + j - 1) % 6 + 1 for j in range(1, 6)]
            assert 3 in seats[: seats.index(start.big_blind)], start
            p.play_out("fold")
        else:
            raise AssertionError("never dealt in again")
        assert p.table.internal_errors == []
    assert dealt_back == 5 and waited >= 1


def test_a_friend_waiting_for_the_button_still_waits_after_a_restart() -> None:
    """The wait is in the table's snapshot: a restart between his sitting in and the button's
    passing must not deal him in between the button and the big blind (tda 7), which the
    engine refuses and which stalled the table before."""
    for away in range(2, 7):
        p = Pure(max_seats=6)
        p.seat_players(5)
        for _ in range(away):
            p.start_hand()
            p.play_out("fold")
        p.send(p.conns["p3"], m.SitOut(table="t1"))
        for _ in range(2):
            p.start_hand()
            p.play_out("fold")
        p.send(p.conns["p3"], m.SitIn(table="t1"))
        p.start_hand()
        if "3" in p.last("p1", m.HandStart).stacks:
            continue  # dealt in at once: nothing to wait for in this arrangement
        p.play_out("fold")
        snapshot = next(b.snapshot for b in reversed(p.net.store) if b.snapshot is not None)
        data = snapshot[2]
        assert next(s for s in data["seats"] if s["seat"] == 3)["returning"] is True
        back = Pure(max_seats=6)
        back.table.restore(data, None)
        assert back.table.seats[3].returning
        return
    raise AssertionError("no arrangement made the friend wait for the button")
