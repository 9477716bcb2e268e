"""The pure table, driven without an event loop: commands in, effects out, time moved by hand.

What tests/table/test_actor.py checks through the asyncio shell (views, clocks, presence,
chat, cuts, leaving, resyncs), plus what only the pure table shows: the order of the effects
(a write before what it lets out), a hand's end in one write, halting on a failed write and
resuming with the very same batch, seat grants after the write that seats, private events to
their owner only, and the director-driven table.
"""

from __future__ import annotations

import pytest

from protocol import decode_server
from protocol import messages as m
from server.engine import AnteFormat, Blinds
from server.engine.positions import Positions
from server.table import commands as c
from server.table import outbox as outbox_module
from server.table.effects import (
    Deliver,
    DirectorAllIn,
    DirectorReady,
    Effect,
    GrantSeat,
    Halted,
    HandFinished,
    Kick,
    ReportHand,
    Resumed,
    Write,
)
from server.table.phases import TablePhase
from server.table.report import HandEnded
from server.table.table import RETRY_FIRST

from .pure import Pure


def kinds(effects: list[Effect]) -> list[str]:
    return [type(e).__name__ for e in effects]


def writes(effects: list[Effect]) -> list[Write]:
    return [e for e in effects if isinstance(e, Write)]


def decoded(effects: list[Effect]) -> list[tuple[tuple[str, ...], m.Message]]:
    return [(e.cids, decode_server(e.frame)) for e in effects if isinstance(e, Deliver)]


def seqs(p: Pure, who: str | c.Conn) -> list[int]:
    cid = who.cid if isinstance(who, c.Conn) else p.conns[who].cid
    return [x.seq for x in p.net.received[cid] if hasattr(x, "seq")]


def contiguous(values: list[int]) -> bool:
    return values == list(range(values[0], values[0] + len(values))) if values else True


def other_seat(p: Pure, seat: int, n: int) -> int:
    """The next seat after ``seat`` among 1..n."""
    return seat % n + 1


# ---------------------------------------------------------------------- views


def test_players_see_only_their_own_hole_cards_and_spectators_the_live_hand_without() -> None:
    p = Pure()
    p.seat_players(3)
    spectator = p.watch(None)
    p.start_hand()
    for k in (1, 2, 3):
        holes = p.of(f"p{k}", m.HoleCards)
        mine = [h for h in holes if h.seat == k]
        others = [h for h in holes if h.seat != k]
        assert len(mine) == 1 and len(mine[0].cards) == 2
        assert len(others) == 2 and all(h.cards == () for h in others)
    # the rail is live: the hand as it is dealt, every hole event without its cards, and a
    # snapshot taken now shows the live hand (no hole, no menu)
    start = p.last("p1", m.HandStart)
    assert p.last(spectator, m.HandStart) == start
    assert len(p.of(spectator, m.HoleCards)) == 3
    assert all(h.cards == () for h in p.of(spectator, m.HoleCards))
    late = p.watch(None)
    snap = p.last(late, m.Snapshot)
    assert snap.seq == p.table.seq and snap.state["phase"] == "betting"
    assert snap.state["hand"] == start.hand and "hole" not in snap.state
    assert "menu" not in snap.state and snap.state["to_act"] == p.to_act()
    p.play_out("fold")
    assert p.of(late, m.HandEnd)
    for who in (spectator, late):
        assert all(h.cards == () for h in p.of(who, m.HoleCards))
        assert not p.of(who, m.HoleProof)
    for who in ("p1", "p2", "p3", spectator, late):
        assert contiguous(seqs(p, who)), who
    assert not p.net.violations


# ---------------------------------------------------------------------- clocks


def test_timeout_checks_or_folds_after_the_action_clock_and_the_bank() -> None:
    p = Pure(action_seconds=10, time_bank_seconds=5)
    p.seat_players(2)
    p.start_hand()
    seat = p.to_act()  # heads-up: the button/SB acts first preflop
    player = f"p{seat}"
    p.advance(10)  # action clock out: the time bank starts
    assert p.table.phase is TablePhase.BETTING and p.to_act() == seat
    banks = [x for x in p.of(player, m.ClockEvent) if x.kind == "bank"]
    assert banks and banks[-1].remaining_ms == 5000 and banks[-1].seat == seat
    p.advance(4.9)
    assert p.to_act() == seat
    p.advance(0.1)  # bank out too: facing the big blind, the small blind is folded
    assert p.table.phase is TablePhase.BETWEEN
    folds = [a for a in p.of("p1", m.ActionEvent) if a.action == "fold"]
    assert [a.seat for a in folds] == [seat]
    assert p.table.seats[seat].time_bank == 2.0  # spent, then +2 s after the hand

    # next hand: the button calls, the big blind may check: the clock checks for him
    p.start_hand()
    p.act(p.to_act(), "call")
    bb = p.to_act()
    p.advance(10 + 2)  # his clock, then what is left of his bank (2 s)
    checks = [a for a in p.of("p1", m.ActionEvent) if a.action == "check" and a.seat == bb]
    assert checks, [a.action for a in p.of("p1", m.ActionEvent)]


@pytest.mark.parametrize(
    ("profile", "total", "countdown"), [("cdc", 30, 5), ("tda", 60, 10), ("fpc", 70, 10)]
)
def test_the_time_called_counts_down_per_profile(profile: str, total: int, countdown: int) -> None:
    p = Pure(profile=profile, action_seconds=600, time_call_after=60)
    p.seat_players(3)
    p.start_hand()
    thinker = p.to_act()
    caller = p.conns[f"p{other_seat(p, thinker, 3)}"]
    hand = p.table.hand_no
    p.do(c.CallTime(conn=caller, hand=hand))
    assert p.errors(caller)[-1] == "too_early"  # cdc 3.5: never under a minute
    p.advance(60)
    p.do(c.CallTime(conn=caller, hand=hand))
    called = [x for x in p.of(caller, m.ClockEvent) if x.kind == "time"]
    assert called and called[-1].remaining_ms == total * 1000
    assert called[-1].countdown_ms == countdown * 1000
    p.do(c.CallTime(conn=caller, hand=hand))
    assert p.errors(caller)[-1] == "too_early"  # called once
    p.advance(total - 1)
    assert p.to_act() == thinker
    p.advance(1)  # zero: the hand is dead (cdc 3.5, tda 27), no bank
    folds = [a for a in p.of(caller, m.ActionEvent) if a.action == "fold"]
    assert folds and folds[-1].seat == thinker


def test_calling_the_time_never_gives_more_time() -> None:
    """cdc 3.5, tda 27: 20 s left on an 80 s clock, the Time (30 s under cdc) keeps 20 s."""
    p = Pure(profile="cdc", action_seconds=80, time_call_after=60)
    p.seat_players(3)
    p.start_hand()
    thinker = p.to_act()
    caller = p.conns[f"p{other_seat(p, thinker, 3)}"]
    deadline = p.table.next_deadline()
    p.advance(60)
    p.do(c.CallTime(conn=caller, hand=p.table.hand_no))
    called = [x for x in p.of(caller, m.ClockEvent) if x.kind == "time"]
    assert called[-1].remaining_ms == 20_000
    assert p.table.next_deadline() == deadline
    p.advance(19.9)
    assert p.to_act() == thinker
    p.advance(0.1)
    folds = [a for a in p.of(caller, m.ActionEvent) if a.action == "fold"]
    assert folds and folds[-1].seat == thinker
    assert p.table.seats[thinker].time_bank == p.config.time_bank_seconds  # bank untouched


# ---------------------------------------------------------------------- presence


def test_a_second_login_takes_over_the_seat_with_a_kick() -> None:
    p = Pure()
    p.sit("p1", 1)
    first = p.conns["p1"]
    second = p.conn("p1", new=True)
    effects = p.do(c.Watch(conn=second))
    kicks = [e for e in effects if isinstance(e, Kick)]
    assert kicks == [Kick(first.cid, "replaced", kicks[0].reason)]
    assert p.table.seats[1].cid == second.cid
    assert first.cid not in p.table.watchers and second.cid in p.table.watchers
    assert p.of(second, m.Snapshot)


def test_a_disconnected_player_is_checked_or_folded_without_burning_his_bank() -> None:
    p = Pure(action_seconds=10, time_bank_seconds=60)
    p.seat_players(3)
    p.start_hand()
    seat = p.to_act()
    effects = p.do(c.Gone(conn=p.conns[f"p{seat}"]))  # does not fold by itself
    statuses = [x.status for _, x in decoded(effects) if isinstance(x, m.SeatEvent)]
    assert statuses == ["disconnected"] and p.to_act() == seat
    p.advance(10)
    watcher = f"p{other_seat(p, seat, 3)}"
    folds = [a for a in p.of(watcher, m.ActionEvent) if a.seat == seat]
    assert folds and folds[-1].action == "fold" and "clock expired" in folds[-1].note
    assert p.table.seats[seat].time_bank == 60


def test_absent_at_the_deal_is_a_dead_hand_with_the_blinds_posted() -> None:
    # cdc 4.1, tda 29, fpc 2-3: not present when the cards are dealt -> dead hand, blinds taken.
    # At a friends table a player sitting out is not dealt in at all; one whose connection
    # dropped at the deal is (his seat is still in the game)
    p = Pure()
    p.seat_players(4)
    p.send(p.conns["p4"], m.SitOut(table="t1"))  # sitting out before the hand
    p.until(TablePhase.CUT)
    positions = p.table.positions
    assert positions is not None
    assert "4" not in p.last("p1", m.HandStart).stacks
    bb = positions.big_blind
    gone = bb
    p.do(c.Gone(conn=p.conns[f"p{gone}"]))  # gone at the deal
    p.until(TablePhase.BETTING)
    watcher = next(f"p{s}" for s in (1, 2, 3) if s != gone)
    dead = sorted(a.seat for a in p.of(watcher, m.ActionEvent) if a.action == "dead_hand")
    assert dead == [gone]
    assert not [h for h in p.of(f"p{gone}", m.HoleCards) if h.cards]
    hand = p.table.hand
    assert hand is not None and hand.folded[hand.index[str(gone)]] and "4" not in hand.index
    assert not [h for h in p.of(watcher, m.HoleCards) if h.seat == 4]
    posts = {a.seat: a.action for a in p.of(watcher, m.ActionEvent) if a.action.startswith("post")}
    assert posts[bb] == "post_bb"  # the absent player's blind is still posted
    assert 4 not in posts


def test_a_tournament_player_sitting_out_is_dealt_dead_and_blinded_but_never_cuts() -> None:
    # cdc 1.9 (blinds go round), tda 29, fpc 2-3 and 8-9: an absent tournament player is dealt
    # in, his hand dead, his blinds posted; cdc 5.2: he is not asked to cut
    p, _rail = directed(n=4)
    p.send(p.conns["p3"], m.SitOut(table="t1"))
    p.advance(p.config.next_hand_seconds)
    p.do(deal(1, (4, 1, 2)))  # p3 on the dealer's right
    assert "3" in p.last("p1", m.HandStart).stacks
    assert p.last("p1", m.CutPrompt).seat == 2  # 3 is absent: the next one to the right
    p.do(c.CutDeck(conn=p.conns["p2"], hand=1, position=9))
    assert p.table.phase is TablePhase.BETTING
    assert [a.action for a in p.of("p1", m.ActionEvent) if a.seat == 3] == ["dead_hand"]
    p.play_out("fold")
    p.until(TablePhase.AWAITING_DIRECTOR)
    mark = len(p.of("p1", m.ActionEvent))
    p.do(deal(2, (1, 2, 3)))  # p3 on the big blind
    assert p.last("p1", m.CutPrompt).seat == 4
    p.do(c.CutDeck(conn=p.conns["p4"], hand=2, position=9))
    acts = [a.action for a in p.of("p1", m.ActionEvent)[mark:] if a.seat == 3]
    assert acts[:2] == ["post_bb", "dead_hand"] or acts[:2] == ["dead_hand", "post_bb"], acts
    assert not [h for h in p.of("p3", m.HoleCards) if h.cards]


def test_the_player_on_the_dealers_right_cuts_and_one_sitting_out_is_never_asked() -> None:
    # cdc 5.2, fpc 5-9: the cut belongs to the player on the dealer's right
    p = Pure()
    p.seat_players(4)
    p.until(TablePhase.CUT)
    positions = p.table.positions
    assert positions is not None
    button = positions.button
    right = (button - 2) % 4 + 1
    prompt = p.last("p1", m.CutPrompt)
    assert prompt.seat == right
    wrong = p.conns[f"p{other_seat(p, right, 4)}"]
    before = p.state()
    effects = p.do(c.CutDeck(conn=wrong, hand=p.table.hand_no, position=7))
    assert p.errors(wrong)[-1] == "not_your_turn" and not writes(effects)
    assert p.state() == before
    p.do(c.CutDeck(conn=p.conns[f"p{right}"], hand=p.table.hand_no, position=7))
    assert p.table.phase is TablePhase.BETTING and p.table.dealt is not None
    assert p.table.dealt.deck.cut == 7  # type: ignore[attr-defined]
    p.play_out("fold")

    # next hand the button moves one seat on: the old button is on its right; he sits out,
    # so the next player to the right cuts
    p.send(p.conns[f"p{button}"], m.SitOut(table="t1"))
    p.until(TablePhase.CUT)
    positions = p.table.positions
    assert positions is not None and positions.button == other_seat(p, button, 4)
    prompt = p.last("p1", m.CutPrompt)
    assert prompt.seat == (button - 2) % 4 + 1


# ---------------------------------------------------------------------- chat


def test_chat_is_held_during_a_hand_but_heads_up_players_may_talk() -> None:
    # cdc 11.3; ligue 3.5: in a heads-up pot the two players may talk (not reveal)
    p = Pure()
    p.seat_players(3)
    spectator = p.watch(None)
    p.start_hand()
    seat = p.to_act()
    p.send(p.conns[f"p{seat}"], m.Chat(table="t1", text="before"))
    assert not any(p.of(f"p{k}", m.ChatEvent) for k in (1, 2, 3))  # three-way pot: held
    assert p.last(f"p{seat}", m.Notice).kind == "chat_held"
    p.act(seat, "fold")
    effects = p.send(p.conns[f"p{seat}"], m.Show(table="t1", hand=p.table.hand_no))
    assert p.errors(f"p{seat}")[-1] == "show_refused" and not writes(effects)
    talker = p.to_act()
    p.send(p.conns[f"p{talker}"], m.Chat(table="t1", text="I think you're bluffing"))
    heard = p.of(f"p{seat}", m.ChatEvent)
    assert [x.text for x in heard] == ["I think you're bluffing"]
    p.send(p.conns[f"p{seat}"], m.Chat(table="t1", text="folded"))  # not in the pot: held
    assert [x.text for x in p.of(f"p{talker}", m.ChatEvent)] == ["I think you're bluffing"]
    p.play_out("fold")
    texts = [x.text for x in p.of(f"p{talker}", m.ChatEvent)]
    assert texts == ["I think you're bluffing", "before", "folded"]
    assert [x.text for x in p.of(spectator, m.ChatEvent)] == texts


def test_held_chat_is_capped_per_sender_and_released_paced() -> None:
    p = Pure()
    p.seat_players(3)
    spectator = p.watch(None)
    p.until(TablePhase.CUT)
    for k in (1, 2, 3):
        for i in range(5):
            effects = p.send(p.conns[f"p{k}"], m.Chat(table="t1", text=f"p{k}-{i}"))
            assert not writes(effects)
    before = p.state()
    effects = p.send(p.conns["p1"], m.Chat(table="t1", text="one too many"))
    assert p.errors("p1")[-1] == "chat_limit" and not writes(effects) and p.state() == before
    assert not p.of(spectator, m.ChatEvent)
    p.until(TablePhase.BETTING)
    p.play_out("fold")
    released = [x.text for x in p.of(spectator, m.ChatEvent)]
    assert len(released) == 10  # at once: at most 10
    end = next(w for w in p.net.store if any(k == "hand_end" for _, k, _ in w.events))
    assert [k for _, k, _ in end.events].count("chat_event") == 10
    p.advance(0.99)
    assert len(p.of(spectator, m.ChatEvent)) == 10
    p.advance(0.01)  # the rest a second later
    released = [x.text for x in p.of(spectator, m.ChatEvent)]
    assert len(released) == 15 and "one too many" not in released
    assert sorted(released) == sorted(f"p{k}-{i}" for k in (1, 2, 3) for i in range(5))
    # a new hand: the cap starts again
    p.until(TablePhase.CUT)
    p.send(p.conns["p1"], m.Chat(table="t1", text="again"))
    assert p.last("p1", m.Notice).kind == "chat_held"


# ---------------------------------------------------------------------- commands refused


def test_acting_out_of_range_or_for_another_hand_is_refused_and_changes_nothing() -> None:
    p = Pure()
    p.seat_players(3)
    spectator = p.watch(None)
    stranger = p.conn("x1")
    p.start_hand()
    seat = p.to_act()
    me = p.conns[f"p{seat}"]
    hand = p.table.hand_no
    cases: list[tuple[c.Conn, m.Message, str]] = [
        (me, m.Act(table="t1", hand=99, verb="call"), "stale_hand"),
        (me, m.Act(table="t1", hand=hand - 1, verb="call"), "stale_hand"),
        (me, m.Act(table="t1", hand=hand, chips=(7,)), "rule.bad_chips"),
        (me, m.Act(table="t1", hand=hand, verb="bogus"), "out_of_range"),
        (me, m.Act(table="t1", hand=hand, verb="call", form="weird"), "out_of_range"),
        (me, m.Act(table="t1", hand=hand, verb="raise", amount=-5), "rule.bad_amount"),
        (me, m.Cut(table="t1", hand=hand, position=3), "not_your_turn"),
        (me, m.UseTimeBank(table="t1", hand=hand + 1), "stale_hand"),
        (spectator, m.Act(table="t1", hand=hand, verb="fold"), "not_seated"),
        (stranger, m.Act(table="t1", hand=hand, verb="fold"), "not_seated"),
        (stranger, m.SitOut(table="t1"), "not_seated"),
        (spectator, m.CallClock(table="t1", hand=hand), "not_seated"),
    ]
    for conn, message, code in cases:
        before = p.state()
        effects = p.send(conn, message)
        assert p.errors(conn)[-1] == code, (message, p.errors(conn))
        assert not writes(effects), message
        assert p.state() == before, message
    # another player's command acts for his own seat only: out of turn, recorded privately
    other = p.conns[f"p{other_seat(p, seat, 3)}"]
    effects = p.send(other, m.Act(table="t1", hand=hand, verb="raise", amount=10**12))
    assert not writes(effects) and p.to_act() == seat
    assert p.last(other, m.Notice).kind == "oot_recorded"
    turns = [(cids, x) for cids, x in decoded(effects) if isinstance(x, m.Turn)]
    assert all(cids == (me.cid,) and x.seat == seat for cids, x in turns)


# ---------------------------------------------------------------------- leaving, showing


def test_leaving_mid_hand_folds_at_its_turn_and_frees_the_seat_after() -> None:
    p = Pure()
    p.seat_players(3)
    p.start_hand()
    seat = p.to_act()
    leaver_seat = other_seat(p, seat, 3)  # not the one to act, still in the hand
    effects = p.do(c.Leave(conn=p.conns[f"p{leaver_seat}"]))
    assert [x.status for _, x in decoded(effects) if isinstance(x, m.SeatEvent)] == ["leaving"]
    assert p.table.seats[leaver_seat].leaving
    p.play_out("call")
    p.until(TablePhase.BETWEEN)
    assert leaver_seat not in p.table.seats
    statuses = [e.status for e in p.of(f"p{seat}", m.SeatEvent) if e.seat == leaver_seat]
    assert statuses[-2:] == ["leaving", "left"]
    folds = [a.seat for a in p.of(f"p{seat}", m.ActionEvent) if a.action == "fold"]
    assert folds == [leaver_seat]


def test_the_uncontested_winner_may_show_after_the_hand() -> None:
    # cdc 10.1: a winner whose last bet was not called may show; shown to one, shown to all
    p = Pure()
    p.seat_players(3)
    p.start_hand()
    p.play_out("fold")
    hand = p.table.hand
    assert hand is not None
    winner = int(next(x for i, x in enumerate(hand.names) if not hand.folded[i]))
    p.send(p.conns[f"p{winner}"], m.Show(table="t1", hand=p.table.hand_no))
    for k in (1, 2, 3):
        shown = p.of(f"p{k}", m.ShownEvent)
        assert shown and shown[-1].seat == winner and len(shown[-1].cards) == 2
        assert len(p.of(f"p{k}", m.HandEnd)) == 1
        assert len(p.of(f"p{k}", m.HoleProof)) == 1


# ---------------------------------------------------------------------- snapshots, resyncs


def test_a_newcomers_snapshot_has_his_seat_at_the_seq_of_his_seated_event() -> None:
    # he sits at the cut of a hand, in the seat of a player who left between hands
    p = Pure()
    p.seat_players(3)
    p.start_hand()
    p.play_out("fold")
    loser = next(s for s in (1, 2, 3) if p.table.seats[s].stack != p.config.starting_stack)
    p.do(c.Leave(conn=p.conns[f"p{loser}"]))
    p.until(TablePhase.CUT)
    newcomer = p.conn("new")
    p.do(c.Sit(conn=newcomer, seat=loser, name="Newcomer"))
    other = next(f"p{s}" for s in (1, 2, 3) if s != loser)
    seated = [e for e in p.of(other, m.SeatEvent) if e.seat == loser and e.status == "seated"]
    assert seated and seated[-1].stack == p.config.starting_stack
    snap = p.last(newcomer, m.Snapshot)
    mine = [s for s in snap.state["seats"] if s["seat"] == loser]
    assert mine and mine[0]["stack"] == p.config.starting_stack
    assert snap.seq == seated[-1].seq
    assert not [e for e in p.of(newcomer, m.SeatEvent) if e.seq <= snap.seq]
    assert contiguous(seqs(p, newcomer))


def test_resync_within_memory_past_it_and_rate_limited(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outbox_module, "RECENT_EVENTS", 20)
    p = Pure()
    p.seat_players(2)
    for _ in range(5):
        p.start_hand()
        p.play_out("fold")
    assert p.table.seq > 40 and p.table.out.recent[0][0] > 2  # the start is not in memory
    back = p.watch(None, 1)
    snaps = p.of(back, m.Snapshot)
    assert len(snaps) == 1 and snaps[0].seq == p.table.out.spectator_limit()
    assert not [x for x in p.net.received[back.cid] if not isinstance(x, m.Snapshot)]
    near = p.watch(None, p.table.seq - 5)  # within memory: the missed events themselves
    assert not p.of(near, m.Snapshot)
    assert seqs(p, near) == list(range(p.table.seq - 4, p.table.seq + 1))
    # resyncs: a burst of three, then refused
    me = p.conns["p1"]
    for _ in range(3):
        before = len(p.net.received[me.cid])
        p.send(me, m.Resync(table="t1", last_seq=p.table.seq - 2))
        assert seqs(p, me)[-2:] == [p.table.seq - 1, p.table.seq]
        assert len(p.net.received[me.cid]) == before + 2
    before_state = p.state()
    effects = p.send(me, m.Resync(table="t1", last_seq=p.table.seq - 2))
    assert p.errors(me)[-1] == "rate_limited" and not writes(effects)
    assert p.state() == before_state
    p.advance(2.0)  # one more every two seconds
    p.send(me, m.Resync(table="t1", last_seq=0))  # past the window: one snapshot
    assert p.last(me, m.Snapshot).seq == p.table.seq
    assert p.errors(me)[-1] == "rate_limited"  # no new error


# ---------------------------------------------------------------------- effects and writes


def test_every_write_comes_first_and_sequence_numbers_follow_each_other() -> None:
    p = Pure()
    p.seat_players(3)
    p.watch(None)
    for verb in ("fold", "call", "allin"):
        p.start_hand()
        p.play_out(verb)
        p.until(TablePhase.BETWEEN)
    for effects in p.log:
        found = [i for i, e in enumerate(effects) if isinstance(e, Write)]
        assert found in ([], [0]), kinds(effects)  # one write at most, before any delivery
    events = p.net.events()
    assert [seq for seq, _, _ in events] == list(range(1, len(events) + 1))
    assert p.net.stored_seq == p.table.seq == len(events)
    for batch in p.net.store:
        if batch.snapshot is not None and batch.events:
            assert batch.snapshot[1] == batch.events[-1][0]
    assert not p.net.violations


def test_a_hands_end_is_one_write_with_its_record_snapshot_and_seat_changes() -> None:
    p = Pure()
    p.seat_players(3)
    # hand 1: a player leaves mid-hand; his seat is freed in the hand's last write
    p.start_hand()
    seat = p.to_act()
    leaver = other_seat(p, seat, 3)
    p.do(c.Leave(conn=p.conns[f"p{leaver}"]))
    p.play_out("call")
    p.until(TablePhase.BETWEEN)
    ends = [w for w in p.net.store if any(k == "hand_end" for _, k, _ in w.events)]
    assert len(ends) == 1
    (end,) = ends
    assert [w for w in p.net.store if w.record is not None] == [end]
    assert end.record is not None and end.record[0] == 1 and end.record[1]["table"] == "t1"
    assert end.snapshot is not None and end.snapshot[0] == 1
    assert end.snapshot[2]["in_hand"] is False
    assert leaver not in {s["seat"] for s in end.snapshot[2]["seats"]}
    evs = [(k, d) for _, k, d in end.events]
    at = [k for k, _ in evs].index("hand_end")
    assert ("seat", "left", leaver) in [
        (k, d.get("status"), d.get("seat")) for k, d in evs[at:] if k == "seat"
    ]
    assert "pot" in [k for k, _ in evs[:at]]  # the pot awarded: the same write
    stacks = {int(s): v for s, v in evs[at][1]["stacks"].items()}
    assert sum(stacks.values()) == 3 * p.config.starting_stack

    # then all-in hands until somebody busts: his seat goes in the hand's last write
    for _ in range(30):
        if len(p.table.seats) < 2:
            break
        before = set(p.table.seats)
        p.start_hand()
        p.play_out("allin")
        p.until(TablePhase.BETWEEN)
        busted = before - set(p.table.seats)
        if busted:
            end = p.net.store[max(i for i, w in enumerate(p.net.store) if w.record is not None)]
            statuses = {(d["seat"], d["status"]) for _, k, d in end.events if k == "seat"}
            assert {(s, "busted") for s in busted} <= statuses
            assert end.snapshot is not None and end.snapshot[2]["in_hand"] is False
            assert any(k == "hand_end" for _, k, _ in end.events)
            break
    else:  # pragma: no cover - the seed
        raise AssertionError("nobody busted in 30 all-in hands")
    assert not p.net.violations


# ---------------------------------------------------------------------- a failed write


def _halt_on_an_action(p: Pure) -> tuple[Write, int]:
    """Three players in a hand; the next action's write fails. Returns the failed write and
    the acting seat."""
    p.seat_players(3)
    p.start_hand()
    seat = p.to_act()
    p.net.fail_writes = 1
    effects = p.act(seat, "call")
    assert isinstance(effects[0], Write)
    return effects[0], seat


def test_a_failed_write_halts_the_table_visibly_and_changes_nothing_more() -> None:
    p = Pure()
    spectator = p.watch(None)
    failed, seat = _halt_on_an_action(p)
    assert p.table.phase is TablePhase.HALTED
    halted = p.log[-1]  # what write_failed returned
    assert isinstance(halted[-1], Halted) and not writes(halted)
    for who in ("p1", "p2", "p3", spectator):
        assert p.last(who, m.Notice).kind == "table_halted"
    # nothing of the failed write went out
    assert not [a for a in p.of("p1", m.ActionEvent) if a.action == "call"]
    # gameplay refused, nothing changed
    hand = p.table.hand_no
    nxt = p.to_act()
    for who, message in [
        (p.conns[f"p{nxt}"], m.Act(table="t1", hand=hand, verb="call")),
        (p.conns["p1"], m.Chat(table="t1", text="hello?")),
        (p.conns["p2"], m.SitOut(table="t1")),
        (p.conns["p3"], m.CallClock(table="t1", hand=hand)),
    ]:
        before = p.state()
        effects = p.send(who, message)
        assert p.errors(who)[-1] == "table_halted" and not writes(effects)
        assert p.state() == before
    # a tick before the retry is due does nothing
    retry = p.table.next_deadline()
    assert retry == p.now + RETRY_FIRST
    assert p.table.tick(retry - 0.01) == []
    p.now = retry - 0.01
    # at the deadline: the same write first, then Resumed and the rest
    p.now = retry
    effects = p.tick()
    assert effects[0] == failed and effects[0].batch is failed.batch
    assert any(isinstance(e, Resumed) for e in effects)
    assert p.table.phase is TablePhase.BETTING
    calls = [a for a in p.of("p1", m.ActionEvent) if a.action == "call"]
    assert [a.seat for a in calls] == [seat]  # delivered once, after the write
    assert p.last("p1", m.Notice).kind == "table_resumed"
    events = p.net.events()
    assert [s for s, _, _ in events] == list(range(1, len(events) + 1))
    assert not p.net.violations


def test_the_action_clock_is_shifted_by_the_time_spent_halted() -> None:
    p = Pure(action_seconds=30)
    _halt_on_an_action(p)
    halted_at = p.now
    deadline = p.table.timers.action
    assert deadline == halted_at + 30
    p.advance(RETRY_FIRST)
    assert p.table.phase is TablePhase.BETTING
    assert p.table.next_deadline() == deadline + RETRY_FIRST
    thinker = p.to_act()
    p.advance(30 - 0.01)
    assert p.to_act() == thinker  # not yet: the halt was nobody's thinking time
    p.advance(0.01)
    banks = [x for x in p.of(f"p{thinker}", m.ClockEvent) if x.kind == "bank"]
    assert banks and banks[-1].seat == thinker


def test_the_action_clock_is_shifted_by_the_whole_halt_across_failed_retries() -> None:
    p = Pure(action_seconds=30)
    p.seat_players(3)
    p.start_hand()
    p.net.fail_writes = 3
    p.act(p.to_act(), "call")
    halted_at = p.now
    deadline = p.table.timers.action
    assert deadline is not None
    p.until(TablePhase.BETTING)
    assert len(p.net.failed) == 3
    assert p.table.next_deadline() == deadline + (p.now - halted_at)
    assert not p.net.violations


def test_a_stale_table_stops_and_writes_nothing() -> None:
    p = Pure()
    p.seat_players(3)
    p.start_hand()
    assert p.table.stale() == []
    assert p.table.phase is TablePhase.CLOSED and p.table.next_deadline() is None
    writes_before = len(p.net.store)
    effects = p.act(p.to_act(), "call")
    assert effects == [] and p.tick() == [] and len(p.net.store) == writes_before


def test_a_write_failing_twice_is_retried_the_same_until_it_succeeds() -> None:
    p = Pure()
    p.seat_players(3)
    p.start_hand()
    p.net.fail_writes = 2
    p.act(p.to_act(), "call")
    p.advance(RETRY_FIRST)
    assert p.table.phase is TablePhase.HALTED and len(p.net.failed) == 2
    p.advance(RETRY_MAX_WAIT)
    assert p.table.phase is TablePhase.BETTING
    assert p.net.failed[0] is p.net.failed[1]
    stored = [w for w in p.net.store if w is p.net.failed[0]]
    assert len(stored) == 1
    events = p.net.events()
    assert [s for s, _, _ in events] == list(range(1, len(events) + 1))
    assert not p.net.violations
    p.play_out("call")
    p.until(TablePhase.BETWEEN)
    assert not p.net.violations


RETRY_MAX_WAIT = 2.0


def test_after_a_second_failure_the_backoff_doubles() -> None:
    p = Pure()
    p.seat_players(3)
    spectator = p.watch(None)
    p.start_hand()
    p.net.fail_writes = 2
    p.act(p.to_act(), "call")
    first = p.now
    assert p.table.next_deadline() == first + RETRY_FIRST
    p.advance(RETRY_FIRST)  # the retry fails again
    assert p.table.phase is TablePhase.HALTED
    assert p.table.next_deadline() == p.now + 2 * RETRY_FIRST
    p.advance(2 * RETRY_FIRST)
    assert p.table.phase is TablePhase.BETTING
    # carried out (a failed write stops the rest of its list: those never went out)
    resumed = [e for e in p.net.others if isinstance(e, Resumed)]
    assert len(resumed) == 1
    notices = [x.kind for x in p.of(spectator, m.Notice)]
    assert notices == ["table_halted", "table_resumed"]


# ---------------------------------------------------------------------- seats


def test_a_seat_is_granted_after_the_write_that_seats_the_player() -> None:
    p = Pure()
    effects = p.sit("p1", 1)
    assert kinds(effects)[0] == "Write"
    grant = next(i for i, e in enumerate(effects) if isinstance(e, GrantSeat))
    write = effects[0]
    assert isinstance(write, Write)
    assert ("seat", "seated") in [(k, d["status"]) for _, k, d in write.batch.events]
    assert write.batch.snapshot is not None
    assert any(s["pid"] == "p1" for s in write.batch.snapshot[2]["seats"])
    assert grant > 0
    assert effects[grant] == GrantSeat(
        cid=p.conns["p1"].cid, table="t1", seat=1, player="p1", name="P1", ref=None
    )
    # a failed write: no grant until the seat is saved
    p.net.fail_writes = 1
    p.sit("p2", 2)
    assert [g.player for g in p.net.grants] == ["p1"]
    p.advance(RETRY_FIRST)
    assert [g.player for g in p.net.grants] == ["p1", "p2"]
    assert not p.net.violations


def test_a_refused_sit_grants_nothing_and_writes_nothing() -> None:
    p = Pure()
    p.sit("p1", 1)
    p.sit("p2", 2)
    anonymous = p.conn(None)
    cases = [
        (p.conn("p3"), 1, "seat_taken"),  # taken
        (p.conn("p3"), 0, "bad_seat"),
        (p.conn("p3"), 10, "bad_seat"),
        (p.conns["p1"], 3, "seat_taken"),  # he already sits here
        (anonymous, 3, "not_authenticated"),
    ]
    grants = len(p.net.grants)
    for conn, seat, code in cases:
        before = p.state()
        effects = p.do(c.Sit(conn=conn, seat=seat, name="X"))
        assert p.net.errors(conn.cid)[-1] == code
        assert not writes(effects) and not [e for e in effects if isinstance(e, GrantSeat)]
        assert p.state() == before
    assert len(p.net.grants) == grants


def test_hole_cards_go_only_to_their_owner_never_to_a_later_occupant_of_the_seat() -> None:
    p = Pure()
    p.seat_players(3)
    for _ in range(2):
        p.start_hand()
        p.play_out("call")
        p.until(TablePhase.BETWEEN)
    p.do(c.Leave(conn=p.conns["p2"]))
    newcomer = p.conn("p9")
    p.do(c.Sit(conn=newcomer, seat=2, name="Nine"))
    p.send(newcomer, m.Resync(table="t1", last_seq=0))
    again = p.conn("p9", new=True)
    p.do(c.Watch(conn=again, last_seq=0))  # his next login, from the start too
    for conn in (newcomer, again):
        holes = p.of(conn, m.HoleCards)
        assert len(holes) == 6 and all(h.cards == () for h in holes)
        assert not p.of(conn, m.HoleProof)
    # p1 resyncing from the start sees his own cards, and only his
    p.send(p.conns["p1"], m.Resync(table="t1", last_seq=0))
    for h in p.of("p1", m.HoleCards):
        assert bool(h.cards) == (h.seat == 1)
    # every delivery with cards, ever, went to the owner's connections only
    start_seats = {1: "p1", 2: "p2", 3: "p3"}
    for effects in p.log:
        for cids, x in decoded(effects):
            if isinstance(x, m.HoleCards) and x.cards:
                assert {p.player_of[cid] for cid in cids} == {start_seats[x.seat]}


def test_a_folded_leavers_seat_stays_the_hands_until_it_ends() -> None:
    """A player who folded and leaves: his seat is still in the hand (its cards, its proof,
    its stack), so it is freed only when the hand ends; a newcomer cannot take it before,
    and once he does he sees nothing of that hand and starts with his own stack."""
    p = Pure()
    p.seat_players(4)
    p.start_hand()
    positions = p.table.positions
    assert positions is not None
    while p.to_act() != positions.sb_slot:
        p.act(p.to_act(), "call")
    sb = positions.sb_slot
    p.act(sb, "fold")  # 50 in the pot
    p.do(c.Leave(conn=p.conns[f"p{sb}"]))
    newcomer = p.conn("p9")
    p.do(c.Sit(conn=newcomer, seat=sb, name="Nine"))
    assert p.last(newcomer, m.Error).code == "seat_taken"  # still the hand's
    p.play_out("check")
    p.until(TablePhase.BETWEEN)
    left = next(d for _, k, d in reversed(p.net.events()) if k == "seat" and d["status"] == "left")
    p.do(c.Sit(conn=newcomer, seat=sb, name="Nine"))
    snap = p.last(newcomer, m.Snapshot)
    assert "hole" not in snap.state
    assert not p.of(newcomer, m.HoleProof)
    assert p.table.seats[sb].stack == p.config.starting_stack
    total = sum(s.stack for s in p.table.seats.values()) + left["stack"]
    assert total == 5 * p.config.starting_stack


def test_sitting_out_during_a_hand_is_announced_when_it_ends() -> None:
    p = Pure()
    p.seat_players(3)
    p.start_hand()
    seat = p.to_act()
    who = other_seat(p, seat, 3)
    effects = p.send(p.conns[f"p{who}"], m.SitOut(table="t1"))
    assert not writes(effects)
    delivered = decoded(effects)
    assert [(cids, x.kind) for cids, x in delivered if isinstance(x, m.Notice)] == [
        ((p.conns[f"p{who}"].cid,), "sitting_out")
    ]
    assert len(delivered) == 1
    assert not p.table.seats[who].sitting_out
    p.play_out("fold")
    p.until(TablePhase.BETWEEN)
    end = next(w for w in reversed(p.net.store) if w.record is not None)
    evs = [(k, d) for _, k, d in end.events]
    at = [k for k, _ in evs].index("hand_end")
    assert ("seat", who, "sitting_out") in [
        (k, d.get("seat"), d.get("status")) for k, d in evs[at:]
    ]
    outs = [e for e in p.of(f"p{seat}", m.SeatEvent) if e.status == "sitting_out"]
    assert [e.seat for e in outs] == [who]
    assert p.table.seats[who].sitting_out


# ---------------------------------------------------------------------- a director's table


def directed(n: int = 3, stack: int = 3000, **config: object) -> tuple[Pure, c.Conn]:
    """A tournament table: n players seated by the director and attached, a spectator."""
    p = Pure(directed=True, max_seats=6, **config)  # type: ignore[arg-type]
    for s in range(1, n + 1):
        p.do(c.SeatPlayer(seat=s, player=f"p{s}", name=f"P{s}", stack=stack))
    rail = p.watch(None)
    for s in range(1, n + 1):
        p.do(c.Attach(conn=p.conn(f"p{s}")))
    return p, rail


def deal(
    hand_no: int,
    positions: tuple[int, int, int],
    blinds: tuple[int, int] = (25, 50),
    h4h: bool = False,
) -> c.NextDeal:
    button, sb_slot, big_blind = positions
    return c.NextDeal(
        hand_no=hand_no,
        blinds=Blinds(sb=blinds[0], bb=blinds[1], ante=0, ante_format=AnteFormat.NONE),
        positions=Positions(button=button, sb_slot=sb_slot, big_blind=big_blind),
        hand_for_hand=h4h,
    )


def others(p: Pure, cls: type) -> list[object]:
    return [e for e in p.net.others if isinstance(e, cls)]


def test_a_directed_table_asks_for_its_deals_and_deals_as_told() -> None:
    p, _rail = directed()
    assert p.table.phase is TablePhase.WAITING and not others(p, DirectorReady)
    p.advance(p.config.next_hand_seconds)
    assert p.table.phase is TablePhase.AWAITING_DIRECTOR
    assert len(others(p, DirectorReady)) == 1
    p.advance(60)  # it waits for the director, asking once
    assert p.table.phase is TablePhase.AWAITING_DIRECTOR and len(others(p, DirectorReady)) == 1
    p.do(deal(7, (2, 3, 1), (100, 200)))
    assert p.table.phase is TablePhase.CUT and p.table.hand_no == 7
    start = p.last("p1", m.HandStart)
    assert (start.hand, start.button, start.small_blind, start.big_blind) == (7, 2, 3, 1)
    assert start.blinds == (100, 200, 0)
    p.until(TablePhase.BETTING)
    posts = {a.seat: (a.action, a.added) for a in p.of("p1", m.ActionEvent)}
    assert posts == {3: ("post_sb", 100), 1: ("post_bb", 200)}
    p.play_out("fold")
    reports = others(p, ReportHand)
    assert len(reports) == 1
    report = reports[0].report  # type: ignore[attr-defined]
    assert isinstance(report, HandEnded) and report.hand_no == 7 and not report.busts
    assert report.positions == Positions(button=2, sb_slot=3, big_blind=1)
    assert sum(v for _, v in report.stacks.values()) == 9000
    assert len(others(p, HandFinished)) == 1
    p.advance(p.config.next_hand_seconds)
    assert len(others(p, DirectorReady)) == 2


def test_hand_for_hand_an_all_in_is_held_until_the_director_reveals() -> None:
    p, rail = directed()
    p.advance(p.config.next_hand_seconds)
    p.do(deal(1, (1, 2, 3), h4h=True))
    p.until(TablePhase.BETTING)
    p.act(p.to_act(), "allin")
    p.act(p.to_act(), "call")
    while p.table.phase is TablePhase.BETTING:
        p.act(p.to_act(), "fold")
    assert p.table.phase is TablePhase.HELD
    assert len(others(p, DirectorAllIn)) == 1
    for k in (1, 2, 3):
        assert p.last(f"p{k}", m.Notice).kind == "hand_for_hand_hold"
    # the rail is live: it is told too (commentary spectators, a hand late, are not)
    assert [x.kind for x in p.of(rail, m.Notice)] == ["hand_for_hand_hold"]
    assert not p.of("p1", m.ShownEvent) and not p.of("p1", m.HandEnd)
    assert p.table.next_deadline() is None  # it waits for the director, no clock
    p.advance(600)
    assert p.table.phase is TablePhase.HELD
    # a player's command meanwhile: nothing to do
    before = p.state()
    p.act(1, "fold")
    assert p.state() == before
    p.do(c.Reveal())
    assert p.table.phase is not TablePhase.HELD
    p.until(TablePhase.AWAITING_DIRECTOR)
    assert p.of("p1", m.HandEnd) and len(others(p, ReportHand)) == 1
    assert len(others(p, DirectorAllIn)) == 1


def test_a_note_during_a_hand_reaches_the_table_after_it() -> None:
    p, rail = directed()
    p.do(c.TableNote(text="welcome"))  # between hands: at once
    assert [x.text for x in p.of(rail, m.ChatEvent)] == ["welcome"]
    p.advance(p.config.next_hand_seconds)
    p.do(deal(1, (1, 2, 3)))
    p.do(c.TableNote(text="level 2 in 5 minutes"))
    p.until(TablePhase.BETTING)
    p.act(p.to_act(), "fold")
    assert [x.text for x in p.of("p1", m.ChatEvent)] == ["welcome"]
    p.play_out("fold")
    for who in ("p1", "p2", "p3", rail):
        texts = [x.text for x in p.of(who, m.ChatEvent)]
        assert texts == ["welcome", "level 2 in 5 minutes"], who
        assert p.of(who, m.ChatEvent)[-1].player == "director"


def test_private_holes_never_hold_the_hand_in_play() -> None:
    p, _rail = directed()
    for hand_no in (1, 2):
        p.until(TablePhase.AWAITING_DIRECTOR)
        p.do(deal(hand_no, (hand_no, hand_no % 3 + 1, (hand_no + 1) % 3 + 1)))
        p.until(TablePhase.BETTING)
        while p.table.phase is TablePhase.BETTING:
            assert hand_no not in [h["hand"] for h in p.table.private_holes]
            p.act(p.to_act(), "call")
            p.advance(0.1)
        while p.table.hand_no == hand_no and p.table.phase is not TablePhase.BETWEEN:
            assert hand_no not in [h["hand"] for h in p.table.private_holes]
            p.advance(0.5)
        assert [h["hand"] for h in p.table.private_holes] == list(range(1, hand_no + 1))
        holes = p.table.private_holes[-1]["holes"]
        assert set(holes) == {"P1", "P2", "P3"} and all(len(v) == 2 for v in holes.values())


def test_a_hands_report_ranks_simultaneous_busts_by_their_starting_stacks() -> None:
    # cdc 1.10: busted in the same hand, the bigger start-of-hand stack ranks better
    for seed in range(1, 60):
        p = Pure(directed=True, max_seats=6, seed=seed)
        for seat, stack in ((1, 10_000), (2, 300), (3, 500)):
            p.do(c.SeatPlayer(seat=seat, player=f"p{seat}", name=f"P{seat}", stack=stack))
            p.do(c.Attach(conn=p.conn(f"p{seat}")))
        p.until(TablePhase.AWAITING_DIRECTOR)
        p.do(deal(1, (1, 2, 3)))
        p.until(TablePhase.BETTING)
        p.play_out("allin")
        p.until(TablePhase.AWAITING_DIRECTOR)
        (report,) = [e.report for e in others(p, ReportHand)]  # type: ignore[attr-defined]
        if len(report.busts) == 2:
            break
    else:  # pragma: no cover - the seeds
        raise AssertionError("never two busts in one hand")
    assert [b.player_id for b in report.busts] == ["p3", "p2"]
    assert [b.start_stack for b in report.busts] == [500, 300]
    assert all(b.eliminated_by == ("p1",) for b in report.busts)
    assert set(report.stacks) == {1}
    assert report.stacks[1] == ("p1", 10_800)
