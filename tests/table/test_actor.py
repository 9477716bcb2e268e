"""Table actor with a fake clock and in-process clients: views, clocks, presence, chat."""

from __future__ import annotations

from pathlib import Path

import pytest

from protocol import messages as m
from server.dealing import Signer
from server.store import Store
from server.table import commands as tc
from server.table import outbox as outbox_module
from server.table.actor import TableActor, TablePhase
from server.table.clock import FakeClock
from server.table.config import TableConfig
from server.table.dealer import CsprngDealer

from .helpers import RecordingClient, make_table, seat_players, send, settle, watch


def to_act(actor: TableActor) -> int:
    assert actor.hand is not None
    menu = actor.hand.menu()
    assert menu is not None
    return int(menu.player)


async def play_out(actor: TableActor, clients: list[RecordingClient], verb: str) -> None:
    """Every player to act answers ``verb`` until the betting is over."""
    while actor.phase is TablePhase.BETTING:
        seat = to_act(actor)
        send(actor, clients[seat - 1], m.Act(table="t1", hand=actor.hand_no, verb=verb))
        await settle()


async def start_hand(actor: TableActor, clock: FakeClock) -> None:
    await clock.advance(actor.config.next_hand_seconds)
    await settle()
    assert actor.phase is TablePhase.CUT
    await clock.advance(actor.config.cut_seconds)  # nobody cuts: a random cut
    await settle()
    assert actor.phase is TablePhase.BETTING


@pytest.mark.asyncio
async def test_players_see_only_their_own_hole_cards_and_spectators_none() -> None:
    actor, clock = make_table()
    task = actor.start()
    clients = await seat_players(actor, 3)
    spectator = RecordingClient()
    watch(actor, spectator, None)
    await start_hand(actor, clock)
    for k, client in enumerate(clients, start=1):
        holes = client.of(m.HoleCards)
        mine = [h for h in holes if h.seat == k]
        others = [h for h in holes if h.seat != k]
        assert len(mine) == 1 and len(mine[0].cards) == 2
        assert others and all(h.cards == () for h in others)
    # the rail is live: the hand as it is dealt, every hole event without its cards
    assert spectator.of(m.HandStart) and len(spectator.of(m.HoleCards)) == 3
    assert all(h.cards == () for h in spectator.of(m.HoleCards))
    # play the hand out by folding to the big blind
    await play_out(actor, clients, "fold")
    assert spectator.of(m.HandEnd)
    assert all(h.cards == () for h in spectator.of(m.HoleCards))
    # every recipient's sequence numbers are contiguous
    for client in [*clients, spectator]:
        seqs = client.seqs()
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    await actor.stop()
    await task


@pytest.mark.asyncio
async def test_timeout_checks_or_folds_after_action_clock_and_bank() -> None:
    actor, clock = make_table(action_seconds=10, time_bank_seconds=5)
    task = actor.start()
    clients = await seat_players(actor, 2)
    await start_hand(actor, clock)
    seat = to_act(actor)  # heads-up: the button/SB acts first preflop
    await clock.advance(10)  # action clock out: the time bank starts
    await settle()
    assert to_act(actor) == seat
    banks = [c for c in clients[seat - 1].of(m.ClockEvent) if c.kind == "bank"]
    assert banks and banks[-1].remaining_ms == 5000
    await clock.advance(5)  # bank out too: facing the BB, the SB is folded
    await settle()
    assert actor.phase is TablePhase.BETWEEN
    folds = [a for a in clients[0].of(m.ActionEvent) if a.action == "fold"]
    assert folds and folds[0].seat == seat
    await actor.stop()
    await task


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("profile", "total", "countdown"), [("cdc", 30, 5), ("tda", 60, 10), ("fpc", 70, 10)]
)
async def test_clock_call_counts_down_per_profile(profile: str, total: int, countdown: int) -> None:
    actor, clock = make_table(profile=profile, action_seconds=600, time_call_after=60)
    task = actor.start()
    clients = await seat_players(actor, 3)
    await start_hand(actor, clock)
    thinker = to_act(actor)
    caller = clients[(thinker % 3)]
    send(actor, caller, m.CallClock(table="t1", hand=actor.hand_no))
    await settle()
    assert caller.of(m.Error)[-1].code == "too_early"  # cdc 3.5: never under a minute
    await clock.advance(60)
    send(actor, caller, m.CallClock(table="t1", hand=actor.hand_no))
    await settle()
    called = [c for c in caller.of(m.ClockEvent) if c.kind == "time"]
    assert called and called[-1].remaining_ms == total * 1000
    assert called[-1].countdown_ms == countdown * 1000
    await clock.advance(total - 1)
    await settle()
    assert to_act(actor) == thinker
    await clock.advance(1)  # zero: the hand is dead (cdc 3.5, tda 27)
    await settle()
    folds = [a for a in caller.of(m.ActionEvent) if a.action == "fold"]
    assert folds and folds[-1].seat == thinker
    await actor.stop()
    await task


@pytest.mark.asyncio
async def test_second_login_takes_over_the_seat() -> None:
    actor, _clock = make_table()
    task = actor.start()
    first = RecordingClient(pid="p1")
    actor.post(tc.Sit(conn=tc.Conn(first.cid, "p1"), seat=1, name="Ana"), first)
    await settle()
    second = RecordingClient(pid="p1")
    watch(actor, second, None)
    await settle()
    assert first.kicked is not None and first.kicked[0] == "replaced"
    assert actor.seats[1].cid == second.cid
    await actor.stop()
    await task


@pytest.mark.asyncio
async def test_chat_from_outside_the_hand_is_held_and_show_refused() -> None:
    actor, clock = make_table()
    task = actor.start()
    clients = await seat_players(actor, 3)
    await start_hand(actor, clock)
    seat = to_act(actor)
    send(actor, clients[seat - 1], m.Act(table="t1", hand=actor.hand_no, verb="fold"))
    await settle()
    send(actor, clients[seat - 1], m.Chat(table="t1", text="nice hand"))
    send(actor, clients[seat - 1], m.Show(table="t1", hand=actor.hand_no))
    await settle()
    others = [c for k, c in enumerate(clients, start=1) if k != seat]
    assert not any(c.of(m.ChatEvent) for c in others)  # held (cdc 11.3)
    assert clients[seat - 1].of(m.Error)[-1].code == "show_refused"
    await play_out(actor, clients, "fold")
    assert all(c.of(m.ChatEvent) for c in others)  # released at the end of the hand
    await actor.stop()
    await task


@pytest.mark.asyncio
async def test_acting_for_another_seat_or_out_of_range_is_refused() -> None:
    actor, clock = make_table()
    task = actor.start()
    clients = await seat_players(actor, 3)
    await start_hand(actor, clock)
    seat = to_act(actor)
    other = clients[seat % 3]
    before = actor.hand.stacks() if actor.hand else None
    # the other player's command acts for their own seat only: out of turn, recorded
    send(actor, other, m.Act(table="t1", hand=actor.hand_no, verb="raise", amount=10**12))
    send(actor, clients[seat - 1], m.Act(table="t1", hand=99, verb="call"))
    send(actor, clients[seat - 1], m.Act(table="t1", hand=actor.hand_no, chips=(7,)))
    await settle()
    assert clients[seat - 1].of(m.Error)[-2].code == "stale_hand"
    assert clients[seat - 1].of(m.Error)[-1].code == "rule.bad_chips"
    assert actor.hand is not None and actor.hand.stacks() == before
    assert to_act(actor) == seat
    await actor.stop()
    await task


@pytest.mark.asyncio
async def test_disconnected_player_is_checked_or_folded_without_burning_the_bank() -> None:
    actor, clock = make_table(action_seconds=10, time_bank_seconds=60)
    task = actor.start()
    clients = await seat_players(actor, 3)
    await start_hand(actor, clock)
    seat = to_act(actor)
    actor.post(
        tc.Gone(conn=actor.conn(clients[seat - 1])), clients[seat - 1]
    )  # disconnection does not fold by itself
    await settle()
    assert to_act(actor) == seat
    await clock.advance(10)
    await settle()
    folds = [a for a in clients[seat % 3].of(m.ActionEvent) if a.seat == seat]
    assert folds and folds[-1].action == "fold" and "clock expired" in folds[-1].note
    assert actor.seats[seat].time_bank == 60
    await actor.stop()
    await task


@pytest.mark.asyncio
async def test_heads_up_players_may_talk_during_the_hand() -> None:
    # ligue 3.5: in a heads-up pot the two players may talk (not reveal); others wait
    actor, clock = make_table()
    task = actor.start()
    clients = await seat_players(actor, 3)
    await start_hand(actor, clock)
    seat = to_act(actor)
    send(actor, clients[seat - 1], m.Chat(table="t1", text="before"))
    await settle()
    assert not any(c.of(m.ChatEvent) for c in clients)  # three-way pot: held
    send(actor, clients[seat - 1], m.Act(table="t1", hand=actor.hand_no, verb="fold"))
    await settle()
    talker = to_act(actor)
    send(actor, clients[talker - 1], m.Chat(table="t1", text="I think you're bluffing"))
    await settle()
    heard = clients[seat % 3].of(m.ChatEvent)
    assert [c.text for c in heard] == ["I think you're bluffing"]
    await actor.stop()
    await task


@pytest.mark.asyncio
async def test_each_player_can_check_their_own_hole_cards_against_the_commitment() -> None:
    from protocol.verify import check_opening

    actor, clock = make_table()
    task = actor.start()
    clients = await seat_players(actor, 3)
    await start_hand(actor, clock)
    root = clients[0].of(m.HandStart)[-1].commitment  # published before the deal
    await play_out(actor, clients, "fold")
    for k, client in enumerate(clients, start=1):
        proof = client.of(m.HoleProof)[-1]
        mine = next(h for h in client.of(m.HoleCards) if h.seat == k)
        assert proof.root == root
        cards = proof.openings["cards"]
        assert sorted(o["card"] for o in cards) == sorted(mine.cards)
        for opening in cards:
            assert check_opening(opening, root) == []
        tampered = {**cards[0], "card": "2c" if cards[0]["card"] != "2c" else "3c"}
        assert check_opening(tampered, root) != []
    await actor.stop()
    await task


@pytest.mark.asyncio
async def test_sitting_out_at_a_friends_table_is_not_being_dealt_in() -> None:
    # a friend who sits out is dealt nothing (no cards, no blind, no cut); his seat is kept
    actor, clock = make_table()
    task = actor.start()
    clients = await seat_players(actor, 3)
    send(actor, clients[2], m.SitOut(table="t1"))
    await settle()
    await start_hand(actor, clock)
    assert "3" not in clients[0].of(m.HandStart)[-1].stacks
    assert not [h for h in clients[0].of(m.HoleCards) if h.seat == 3]
    assert not [a for a in clients[0].of(m.ActionEvent) if a.seat == 3]
    assert actor.hand is not None and "3" not in actor.hand.index
    assert 3 in actor.seats and actor.seats[3].sitting_out
    await actor.stop()
    await task


@pytest.mark.asyncio
async def test_the_player_on_the_dealers_right_cuts() -> None:
    # cdc 5.2, fpc 5-9: the cut belongs to the player on the dealer's right
    actor, clock = make_table()
    task = actor.start()
    clients = await seat_players(actor, 4)
    await clock.advance(actor.config.next_hand_seconds)
    await settle()
    assert actor.core.positions is not None
    button = actor.core.positions.button
    right = max((s for s in (1, 2, 3, 4) if s < button), default=4)
    prompt = clients[0].of(m.CutPrompt)[-1]
    assert prompt.seat == right
    wrong = clients[(right % 4)]  # somebody else
    send(actor, wrong, m.Cut(table="t1", hand=actor.hand_no, position=7))
    await settle()
    assert wrong.of(m.Error)[-1].code == "not_your_turn"
    send(actor, clients[right - 1], m.Cut(table="t1", hand=actor.hand_no, position=7))
    await settle()
    assert actor.phase is TablePhase.BETTING and actor.core.dealt is not None
    assert actor.core.dealt.deck.cut == 7  # type: ignore[attr-defined]
    await actor.stop()
    await task


@pytest.mark.asyncio
async def test_leaving_mid_hand_folds_at_its_turn_and_frees_the_seat_after() -> None:
    actor, clock = make_table()
    task = actor.start()
    clients = await seat_players(actor, 3)
    await start_hand(actor, clock)
    seat = to_act(actor)
    leaver = clients[(seat % 3)]  # not the one to act
    leaver_seat = (seat % 3) + 1
    send(actor, leaver, m.LeaveTable(table="t1"))
    await settle()
    assert actor.seats[leaver_seat].leaving
    await play_out(actor, clients, "call")
    await clock.advance(actor.config.showdown_seconds)
    await settle()
    assert leaver_seat not in actor.seats
    statuses = [e.status for e in clients[seat - 1].of(m.SeatEvent) if e.seat == leaver_seat]
    assert statuses[-2:] == ["leaving", "left"]
    await actor.stop()
    await task


@pytest.mark.asyncio
async def test_uncontested_winner_may_show_after_the_hand() -> None:
    # cdc 10.1: a winner whose last bet was not called may show; shown to one, shown to all
    actor, clock = make_table()
    task = actor.start()
    clients = await seat_players(actor, 3)
    await start_hand(actor, clock)
    await play_out(actor, clients, "fold")
    hand = actor.hand
    assert hand is not None
    winner = int(next(p for i, p in enumerate(hand.names) if not hand.folded[i]))
    send(actor, clients[winner - 1], m.Show(table="t1", hand=actor.hand_no))
    await settle()
    for client in clients:
        shown = client.of(m.ShownEvent)
        assert shown and shown[-1].seat == winner and len(shown[-1].cards) == 2
        assert len(client.of(m.HandEnd)) == 1  # the hand ended once
        assert len(client.of(m.HoleProof)) == 1
    await actor.stop()
    await task


@pytest.mark.asyncio
async def test_a_player_sitting_at_the_cut_is_announced_with_his_own_stack() -> None:
    # regression (bot fuzzer): at the cut, actor.hand is still the previous hand; a newcomer
    # in a seat that played it must not be announced with that hand's stack
    actor, clock = make_table()
    task = actor.start()
    clients = await seat_players(actor, 3)
    await start_hand(actor, clock)
    await play_out(actor, clients, "fold")
    loser = next(s for s in (1, 2, 3) if actor.seats[s].stack != actor.config.starting_stack)
    send(actor, clients[loser - 1], m.LeaveTable(table="t1"))
    await settle()
    await clock.advance(actor.config.next_hand_seconds)
    await settle()
    assert actor.phase is TablePhase.CUT
    newcomer = RecordingClient(pid="new")
    actor.post(tc.Sit(conn=tc.Conn(newcomer.cid, "new"), seat=loser, name="Newcomer"), newcomer)
    await settle()
    # the others are told with the seated event; the newcomer's own seat comes in his
    # snapshot, whose seq is that of his seated event (never applied twice)
    others = [c for c in clients if c.pid != clients[loser - 1].pid]
    seated = [e for e in others[0].of(m.SeatEvent) if e.seat == loser and e.status == "seated"]
    assert seated and seated[-1].stack == actor.config.starting_stack
    snap = newcomer.of(m.Snapshot)[-1]
    mine = [s for s in snap.state["seats"] if s["seat"] == loser]
    assert mine and mine[0]["stack"] == actor.config.starting_stack
    assert snap.seq == seated[-1].seq
    assert not [e for e in newcomer.of(m.SeatEvent) if e.seq <= snap.seq]
    await actor.stop()
    await task


@pytest.mark.asyncio
async def test_a_lone_survivor_and_newcomers_start_afresh_with_consistent_blinds() -> None:
    """Three-handed at seats 6, 7, 8 (button 7, SB 8, BB 6); 7 and 8 bust in one hand, then
    newcomers sit at 2 and 5. The dead-button rule would give SB slot 6, button 8 and big
    blind 2: a small blind slot after the big blind, announced but never posted. With one
    player left the game had stopped, so the table starts afresh (cdc 2.1) and whoever the
    hand start names as small and big blind posts them (caught by the 200-hand test in CI)."""
    from server.engine.positions import Positions

    actor, clock = make_table()
    task = actor.start()
    survivor = RecordingClient(pid="p6")
    actor.post(tc.Sit(conn=tc.Conn(survivor.cid, "p6"), seat=6, name="Six"), survivor)
    await settle()
    actor.seats[6].new = False
    actor.core.positions = Positions(button=7, sb_slot=8, big_blind=6)
    actor.core.hand_no = 89
    newcomers = [RecordingClient(pid=f"p{s}") for s in (2, 5)]
    for seat, client in zip((2, 5), newcomers, strict=True):
        actor.post(tc.Sit(conn=tc.Conn(client.cid, f"p{seat}"), seat=seat, name=f"P{seat}"), client)
    await settle()
    await start_hand(actor, clock)
    (start,) = survivor.of(m.HandStart)
    assert set(start.stacks) == {"2", "5", "6"}
    posts = {a.action: a.seat for a in survivor.of(m.ActionEvent) if a.action.startswith("post")}
    assert posts == {"post_sb": start.small_blind, "post_bb": start.big_blind}
    assert start.small_blind is not None and start.button not in (None, start.big_blind)
    await actor.stop()
    await task


@pytest.mark.asyncio
async def test_a_seat_retaken_after_a_bust_shows_its_new_stack_in_every_snapshot() -> None:
    """A player busts, sits again (a rebuy at a friends table): a snapshot between hands, at
    the cut and during the next hand shows the new stack, the one the next hand starts with
    (the bot SDK once saw the busted stack there, from the finished hand)."""
    actor, clock = make_table()
    task = actor.start()
    clients = await seat_players(actor, 3)
    busted: list[int] = []
    for _ in range(30):
        await start_hand(actor, clock)
        await play_out(actor, clients, "allin")
        await clock.advance(actor.config.showdown_seconds)
        await settle()
        busted = [s for s in (1, 2, 3) if s not in actor.seats]
        if busted:
            break
    assert busted, "nobody busted in 30 all-in hands"
    seat = busted[0]
    actor.post(
        tc.Sit(conn=tc.Conn(clients[seat - 1].cid, f"p{seat}"), seat=seat, name=f"Player{seat}"),
        clients[seat - 1],
    )
    await settle()

    other = next(s for s in (1, 2, 3) if s != seat)

    async def stack_seen() -> int:
        """The seat's stack in a spectator's snapshot and in a seated player's (who logs in
        again); both must agree."""
        seen = []
        for pid in (None, f"p{other}"):
            watcher = RecordingClient(pid=pid)
            watch(actor, watcher, None)
            await settle()
            seats = watcher.of(m.Snapshot)[-1].state["seats"]
            seen.append(next(int(s["stack"]) for s in seats if s["seat"] == seat))
        if actor.phase is not TablePhase.BETTING:
            assert seen[0] == seen[1], seen
        return seen[1]

    starting = actor.config.starting_stack
    assert await stack_seen() == starting  # between hands
    await clock.advance(actor.config.next_hand_seconds)
    await settle()
    assert actor.phase is TablePhase.CUT
    assert await stack_seen() == starting  # at the cut (actor.hand is still the old hand)
    await clock.advance(actor.config.cut_seconds)
    await settle()
    assert actor.phase is TablePhase.BETTING
    assert await stack_seen() <= starting  # in the hand: the stack less any blind posted
    start = clients[0].of(m.HandStart)[-1]
    assert int(start.stacks[str(seat)]) == starting
    await actor.stop()
    await task


@pytest.mark.asyncio
async def test_a_client_command_is_handled_at_once_when_the_table_is_idle_else_in_order() -> None:
    """``submit`` (the gateway's path for client commands) handles a command without waiting
    for the table task when nothing else is queued; behind queued commands it waits its turn,
    so the table still handles them in the order they came."""
    actor, clock = make_table()
    task = actor.start()
    clients = await seat_players(actor, 2)
    await start_hand(actor, clock)
    first = to_act(actor)
    mine = clients[first - 1]
    actor.submit_message(mine, m.Act(table="t1", hand=actor.hand_no, verb="call"))
    # no settle(): handled synchronously
    assert [a.seat for a in mine.of(m.ActionEvent) if a.action == "call"] == [first]
    second = to_act(actor)
    other = clients[second - 1]
    send(actor, other, m.Chat(table="t1", text="hm"))  # queued first
    actor.submit_message(other, m.Act(table="t1", hand=actor.hand_no, verb="check"))
    assert not [a for a in other.of(m.ActionEvent) if a.action == "check"]  # waits its turn
    await settle()
    checks = [a for a in other.of(m.ActionEvent) if a.action == "check"]
    assert checks and checks[0].seat == second
    await actor.stop()
    await task


@pytest.mark.asyncio
async def test_a_resync_older_than_the_events_in_memory_gets_one_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the last RECENT_EVENTS events stay in memory; a client coming back from further
    behind gets one snapshot (bounded work: never thousands of events, never a store read on
    the event loop), then the events after it, contiguous."""
    monkeypatch.setattr(outbox_module, "RECENT_EVENTS", 20)
    store = Store(tmp_path / "events.sqlite")
    clock = FakeClock()
    actor = TableActor(
        TableConfig(table_id="t1"), clock, CsprngDealer(Signer.generate()), store=store
    )
    task = actor.start()
    clients = await seat_players(actor, 2)
    for _ in range(5):
        await start_hand(actor, clock)
        await play_out(actor, clients, "fold")
        await clock.advance(actor.config.showdown_seconds)
        await settle()
    assert actor.seq > 40 and actor.core.out.recent[0][0] > 2  # the start is not in memory
    back = RecordingClient()
    watch(actor, back, 1)
    await settle()
    snaps = back.of(m.Snapshot)
    assert len(snaps) == 1 and snaps[0].seq == actor.core.out.spectator_limit()
    near = RecordingClient()
    watch(actor, near, actor.seq - 5)  # within memory: the missed events themselves
    await settle()
    assert not near.of(m.Snapshot)
    assert near.seqs() == list(range(actor.seq - 4, actor.seq + 1))
    await actor.stop()
    await task
