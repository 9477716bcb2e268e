"""Acceptance: real ``python -m server`` processes, real websocket clients, complete hands."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from protocol import PROTOCOL_VERSION
from protocol import messages as m

from .conftest import Launch
from .wsclient import (
    ROOT,
    TABLE,
    Player,
    RawSocket,
    WsClient,
    always,
    connections,
    hands_done,
    join,
    maniac,
    spectate,
    table_config,
    unannounced_turns,
    wait_hands,
)


def assert_clean(*clients: WsClient) -> None:
    for client in clients:
        assert not client.gaps, (client.name, client.gaps)
        assert not client.bad_frames, (client.name, client.bad_frames)
        assert not client.failures, (client.name, client.failures)


# ---------------------------------------------------------------------- (a) two players


@pytest.mark.asyncio
async def test_two_players_join_by_invite_and_play_complete_hands(launch: Launch) -> None:
    server = launch()
    ana = await join(server.port, server.invite, 1, "ana")
    bob = await join(server.port, server.invite, 2, "bob")
    Player(ana, seed=1)
    Player(bob, seed=2)
    await wait_hands(ana, 4, timeout=20)
    await wait_hands(bob, 4, timeout=5)
    assert_clean(ana, bob)
    assert not ana.of(m.Error) and not bob.of(m.Error)
    for end in hands_done(ana)[:4]:
        assert not end.cancelled
        assert sum(end.stacks.values()) == 20_000
        assert end.record == f"/api/hands/{TABLE}/{end.hand}.json"
    # each player sees their own hole cards, never the other's
    for client, seat in ((ana, 1), (bob, 2)):
        holes = [h for h in client.of(m.HoleCards) if h.hand <= 4]
        assert {h.hand for h in holes if h.seat == seat and len(h.cards) == 2} == {1, 2, 3, 4}
        assert all(h.cards == () for h in holes if h.seat != seat)
    # the big blind and the button alternate heads-up; the button posts the small blind
    starts = ana.of(m.HandStart)[:4]
    for start in starts:
        assert start.small_blind == start.button and start.big_blind != start.button
    for before, after in itertools.pairwise(starts):
        assert after.big_blind != before.big_blind


@pytest.mark.asyncio
async def test_every_decision_is_announced_by_an_action_clock(launch: Launch) -> None:
    """Heads-up the big blind closes the preflop betting and speaks first on the flop: the
    server must start a new action clock for that second decision and say so, or the client
    never learns it is to act (and the clock left over from preflop runs on)."""
    server = launch()
    ana = await join(server.port, server.invite, 1, "ana")
    bob = await join(server.port, server.invite, 2, "bob")
    Player(ana, seed=1)
    Player(bob, seed=2)
    try:
        await wait_hands(ana, 2, timeout=8)
    finally:
        assert unannounced_turns(ana) == []
    flop_turns = [c for c in ana.of(m.ClockEvent) if c.kind == "action" and c.remaining_ms == 2000]
    assert flop_turns
    assert not [c for c in ana.of(m.ClockEvent) if c.kind == "bank"]  # nobody ran out of time


# ---------------------------------------------------------------------- (b) blinds


def _first_after(seat: int, seats: set[int], max_seats: int = 9) -> int:
    for k in range(1, max_seats + 1):
        s = (seat - 1 + k) % max_seats + 1
        if s in seats:
            return s
    raise AssertionError("no seat")


def check_blinds_and_chips(
    messages: list[m.Message], starting: int
) -> tuple[list[str], dict[str, int]]:
    """The rules, checked from what a spectator saw. Returns (problems, counts).

    A hand dealt to two players while a newcomer waits is counted (``newcomer_heads_up``) and
    held to the heads-up rule like any other. A hand where at
    most one player was dealt in the hand before is a fresh start (the button is drawn again,
    as at a new table), so the big blind need not follow the last one there.
    """
    rail = _Rail(starting)
    for x in messages:
        rail.see(x)
    for k, start in enumerate(rail.starts):
        # a hand still being dealt when the rail stopped (its blinds posted after the cut,
        # not seen yet) is not judged: only hands that ended
        if start.hand in rail.ended:
            rail.check_positions(k)
    return rail.problems, rail.counts


@dataclass
class _Rail:
    """What a spectator saw, message by message (see check_blinds_and_chips)."""

    starting: int
    problems: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(
            (
                "hands",
                "heads_up",
                "heads_up_starts",
                "dead_sb",
                "three_plus",
                "fresh_starts",
                "newcomer_heads_up",
            ),
            0,
        )
    )
    table: dict[int, int] = field(default_factory=dict)
    """Seat -> stack."""
    joined: int = 0
    starts: list[m.HandStart] = field(default_factory=list)
    ended: set[int] = field(default_factory=set)
    occupant: dict[int, str | None] = field(default_factory=dict)
    people: dict[int, set[tuple[int, str | None]]] = field(default_factory=dict)
    """Hand -> (seat, player) dealt in: a seat freed by a bust may be taken by a newcomer."""
    odd: set[int] = field(default_factory=set)
    """Hands not held to the position rules (fresh starts, newcomer heads-up)."""
    posts: dict[int, dict[str, int]] = field(default_factory=dict)

    def see(self, x: m.Message) -> None:
        if isinstance(x, m.SeatEvent) and x.status == "seated":
            self.joined += 1
            self.occupant[x.seat] = x.player
            self.table[x.seat] = x.stack
            if x.stack != self.starting:
                self.problems.append(f"seat {x.seat} sat with {x.stack}")
        elif isinstance(x, m.SeatEvent) and x.status == "busted":
            if self.table.pop(x.seat, None) != 0:
                self.problems.append(f"seat {x.seat} busted with chips")
        elif isinstance(x, m.ActionEvent) and x.action in ("post_sb", "post_bb"):
            self.posts.setdefault(x.hand, {})[x.action] = x.seat
        elif isinstance(x, m.HandStart):
            self._hand_start(x)
        elif isinstance(x, m.HandEnd):
            self._hand_end(x)

    def _hand_start(self, x: m.HandStart) -> None:
        table = self.table
        for s, v in x.stacks.items():
            if table.get(int(s)) != v:
                self.problems.append(f"hand {x.hand}: seat {s} starts with {v}, had {table.get(s)}")
        waiting = {s for s, v in table.items() if v > 0} - {int(s) for s in x.stacks}
        if len(x.stacks) == 2 and waiting:
            self.counts["newcomer_heads_up"] += 1  # held to the heads-up rule like the others
        self.starts.append(x)
        self.people[x.hand] = {(int(s), self.occupant.get(int(s), "")) for s in x.stacks}

    def _hand_end(self, x: m.HandEnd) -> None:
        self.ended.add(x.hand)
        if x.cancelled:
            self.problems.append(f"hand {x.hand} cancelled")
        for s, v in x.stacks.items():
            self.table[int(s)] = v
        total = sum(self.table.values())
        if total != self.starting * self.joined:
            self.problems.append(f"hand {x.hand}: {total} chips, not {self.starting * self.joined}")
        self.counts["hands"] += 1

    def check_positions(self, k: int) -> None:
        """The blinds and button of the k-th hand, alone and after the hand before."""
        h = self.starts[k]
        dealt = {int(s) for s in h.stacks}
        where = f"hand {h.hand} (button {h.button}, sb {h.small_blind}, bb {h.big_blind}, {dealt})"
        if k > 0 and len(self.people[h.hand] & self.people[self.starts[k - 1].hand]) <= 1:
            # at most one player of the last hand is still here: the game had stopped and
            # starts afresh, the button drawn again as at a new table (cdc 2.1)
            self.counts["fresh_starts"] += 1
            self.odd.add(h.hand)
        self._check_blinds_posted(h, dealt, where)
        if len(dealt) == 2:
            self.counts["heads_up"] += 1
            # cdc 4.4, tda 33: heads-up the button posts the small blind
            if h.small_blind != h.button or h.big_blind == h.button:
                self.problems.append(f"{where}: heads-up, the button must post the small blind")
        else:
            self.counts["three_plus"] += 1
        if k > 0:
            self._check_after(k, dealt, where)

    def _check_blinds_posted(self, h: m.HandStart, dealt: set[int], where: str) -> None:
        posted = self.posts.get(h.hand, {})
        if h.big_blind not in dealt:
            self.problems.append(f"{where}: the big blind is not dealt in")
        if posted.get("post_bb") != h.big_blind:
            self.problems.append(f"{where}: big blind posted by {self.posts.get(h.hand)}")
        if h.small_blind is not None and h.small_blind not in dealt:
            self.problems.append(f"{where}: the small blind is not dealt in")
        if posted.get("post_sb") != h.small_blind:
            self.problems.append(f"{where}: small blind posted by {self.posts.get(h.hand)}")

    def _check_after(self, k: int, dealt: set[int], where: str) -> None:
        """The positions of the k-th hand follow from the hands before (dead button)."""
        h, prev = self.starts[k], self.starts[k - 1]
        prev_dealt = {int(s) for s in prev.stacks}
        if h.hand != prev.hand + 1:
            self.problems.append(f"{where}: follows hand {prev.hand}")
        if h.hand in self.odd:
            return
        if h.big_blind == prev.big_blind:
            self.problems.append(f"{where}: big blind twice in a row")
        # tda 31, cdc 4.3: the big blind advances to the next seat holding a player
        if h.big_blind != _first_after(prev.big_blind, dealt):
            self.problems.append(f"{where}: the big blind should follow {prev.big_blind}")
        if len(dealt) == 2 and len(prev_dealt) > 2:
            self.counts["heads_up_starts"] += 1  # cdc 4.4: nobody pays the big blind twice
        if len(dealt) > 2 and len(prev_dealt) > 2:
            # dead small blind: the small blind slot is the last big blind's seat (cdc 4.3)
            expected_sb = prev.big_blind if prev.big_blind in dealt else None
            if expected_sb is None:
                self.counts["dead_sb"] += 1
            if h.small_blind != expected_sb:
                self.problems.append(f"{where}: small blind should be {expected_sb}")
            # dead button: the button goes to the last small blind slot, even if empty
            if k >= 2 and prev.hand not in self.odd and h.button != self.starts[k - 2].big_blind:
                self.problems.append(f"{where}: button should be {self.starts[k - 2].big_blind}")


def _between(a: int, b: int, max_seats: int = 9) -> list[int]:
    """Seats strictly between ``a`` and ``b``, clockwise."""
    out, s = [], a % max_seats + 1
    while s != b:
        out.append(s)
        s = s % max_seats + 1
    return out


async def _close(players: dict[int, Player]) -> None:
    for player in players.values():
        await player.client.close()


@pytest.mark.asyncio
async def test_newcomers_waiting_for_the_button_do_not_stall_the_table(launch: Launch) -> None:
    """Three players all-in; one takes everything while sitting on the button or the small
    blind. Two newcomers sit between that small blind and big blind, where the button has
    not passed yet (tda 7): if they had to wait, one player would be left and no hand could
    ever be dealt again, while four people sit at the table."""
    for attempt in range(10):
        server = launch(name=f"try{attempt}", starting_stack=1000, next_hand_seconds=0.5)
        players: dict[int, Player] = {}
        for seat in (1, 4, 7):
            client = await join(server.port, server.invite, seat, f"p{seat}")
            players[seat] = Player(client, always("allin"), seed=seat)
        first = players[1].client
        end = await first.wait_type(m.HandEnd, timeout=10)
        (start,) = first.of(m.HandStart)
        survivors = [int(s) for s, v in end.stacks.items() if v > 0]
        if len(survivors) == 1 and survivors[0] != start.big_blind:
            break
        await _close(players)
        server.stop()
    else:
        pytest.fail("no first hand left one survivor off the big blind in 10 tries")
    assert start.small_blind is not None
    newcomers = [s for s in _between(start.small_blind, start.big_blind) if s not in players][:2]
    assert len(newcomers) == 2
    joined = await asyncio.gather(
        *(join(server.port, server.invite, s, f"new{s}") for s in newcomers)
    )
    for seat, client in zip(newcomers, joined, strict=True):
        players[seat] = Player(client, always("call"), seed=seat)
    try:
        nxt = await joined[0].wait_type(m.HandStart, timeout=4, hand=2)
    except TimeoutError:
        pytest.fail("the table stalled: no hand dealt with three players seated")
    assert set(nxt.stacks) == {str(survivors[0]), *(str(s) for s in newcomers)}
    await wait_hands(joined[0], 1, timeout=10)
    await _close(players)


@pytest.mark.asyncio
async def test_heads_up_with_a_waiting_newcomer_the_button_posts_the_small_blind(
    launch: Launch,
) -> None:
    """Seats 1 and 4 go all-in every hand, seat 7 folds: when one of the two busts, a
    newcomer sits between the last small blind and big blind (the button has not passed:
    tda 7). If he waits, the next hand is heads-up, and heads-up the button posts the small
    blind (cdc 4.4, tda 33); if he is dealt in, the hand is three-handed."""
    server = launch(starting_stack=1000, next_hand_seconds=0.5)
    players: dict[int, Player] = {}
    for seat, verb in ((1, "allin"), (4, "allin"), (7, "fold")):
        client = await join(server.port, server.invite, seat, f"p{seat}")
        players[seat] = Player(client, always(verb), seed=seat)
    watch = players[7].client
    for _ in range(15):
        end = await watch.wait_type(m.HandEnd, timeout=10, since=len(watch.messages))
        if 0 in end.stacks.values():
            break
    else:
        pytest.fail("nobody busted in 15 hands")
    start = watch.of(m.HandStart)[-1]
    assert start.hand == end.hand and len(start.stacks) == 3 and start.small_blind is not None
    seat = next(s for s in _between(start.small_blind, start.big_blind) if s not in players)
    newcomer = await join(server.port, server.invite, seat, "newcomer")
    players[seat] = Player(newcomer, always("call"), seed=seat)
    nxt = await watch.wait_type(m.HandStart, timeout=5, hand=end.hand + 1)
    await watch.wait_type(m.HandEnd, timeout=10, hand=nxt.hand)
    posts = {
        a.action: a.seat
        for a in watch.of(m.ActionEvent)
        if a.hand == nxt.hand and a.action in ("post_sb", "post_bb")
    }
    await _close(players)
    assert posts.get("post_sb") == nxt.small_blind and posts.get("post_bb") == nxt.big_blind
    if len(nxt.stacks) == 2:
        assert nxt.small_blind == nxt.button != nxt.big_blind, nxt
    else:
        assert str(seat) in nxt.stacks


@pytest.mark.asyncio
async def test_a_busted_player_does_not_see_the_next_occupant_hole_cards(launch: Launch) -> None:
    """The connection of a player who busted stays open (as a spectator of the table): when
    a newcomer takes the same seat, that connection must not receive the newcomer's cards."""
    server = launch(starting_stack=1000, next_hand_seconds=0.3)
    players = {
        seat: Player(await join(server.port, server.invite, seat, f"p{seat}"), always("allin"))
        for seat in (1, 2)
    }
    for _ in range(15):
        end = await players[1].client.wait_type(
            m.HandEnd, timeout=10, since=len(players[1].client.messages)
        )
        if 0 in end.stacks.values():
            break
    else:
        pytest.fail("nobody busted in 15 hands")
    (gone,) = [int(s) for s, v in end.stacks.items() if v == 0]
    loser = players.pop(gone).client
    mark = len(loser.messages)
    newcomer = await join(server.port, server.invite, gone, "newcomer")
    players[gone] = Player(newcomer, always("call"))
    await wait_hands(newcomer, 1, timeout=10)
    mine = [h for h in newcomer.of(m.HoleCards) if h.seat == gone]
    assert mine and all(len(h.cards) == 2 for h in mine)
    leaked = [h for h in loser.of(m.HoleCards, since=mark) if h.cards]
    await loser.close()
    await _close(players)
    assert leaked == [], "a busted player saw the cards dealt to his old seat"


@pytest.mark.asyncio
async def test_blinds_move_by_the_dead_button_rule_over_200_hands_with_busts(
    launch: Launch,
) -> None:
    server = launch(starting_stack=1000)
    rail = await spectate(server.port, server.invite, "rail")
    rng = random.Random(20_261_122)
    players: dict[int, Player] = {}
    rejoin_at: list[int] = []
    names = iter(range(1, 10_000))
    stops_checked = 0

    async def sit(seat: int) -> None:
        n = next(names)
        client = await join(server.port, server.invite, seat, f"p{n}")
        players[seat] = Player(client, maniac(), seed=n)

    for seat in rng.sample(range(1, 10), 4):
        await sit(seat)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 120
    while len(hands_done(rail)) < 200:
        assert loop.time() < deadline, f"only {len(hands_done(rail))} hands in 120 s"
        await asyncio.sleep(0.02)
        current = max(p.hand for p in players.values()) if players else 0
        for seat, player in list(players.items()):
            if player.busted:
                del players[seat]
                assert_clean(player.client)
                await player.client.close()
                rejoin_at.append(current + rng.randint(0, 8))
        if len(players) == 1 and stops_checked < 5:
            # one player left: the play stops until someone sits
            stops_checked += 1
            (alone,) = players.values()
            mark = len(alone.client.messages)
            await asyncio.sleep(0.3)
            assert not alone.client.of(m.HandStart, since=mark)
        due = [h for h in rejoin_at if h <= current or len(players) < 2]
        for h in due:
            rejoin_at.remove(h)
            free = sorted(set(range(1, 10)) - set(players))
            await sit(rng.choice(free))
    for player in players.values():
        assert_clean(player.client)
        assert unannounced_turns(player.client) == []
        await player.client.close()
    assert_clean(rail)
    problems, counts = check_blinds_and_chips(rail.messages, 1000)
    assert problems == [], problems[:20]
    assert counts["hands"] >= 200
    # the run went through the interesting cases
    assert counts["heads_up"] > 5 and counts["heads_up_starts"] > 0, counts
    assert counts["three_plus"] > 50 and counts["dead_sb"] > 0, counts
    assert stops_checked > 0


# ---------------------------------------------------------------------- (c) reconnect


@pytest.mark.asyncio
async def test_reconnect_mid_hand_resumes_and_keeps_acting(launch: Launch) -> None:
    server = launch()
    clients = {s: await join(server.port, server.invite, s, f"p{s}") for s in (1, 2, 3)}
    lost = asyncio.Event()
    target = 2

    def then_lose_the_line(player: Player, rng: random.Random) -> tuple[str, int | None]:
        if player.hand == target:
            lost.set()  # say call, then the connection drops: the hand goes on without us
            player.acting = False
        return "call", None

    Player(clients[1], then_lose_the_line, seed=1)
    Player(clients[2], seed=2)
    Player(clients[3], seed=3)
    await asyncio.wait_for(lost.wait(), 10)
    await asyncio.sleep(0.05)  # the call goes out
    await clients[1].abort()
    last = clients[1].last_seq()
    assert last is not None
    await asyncio.sleep(0.3)  # the others act meanwhile; then the hand waits for seat 1

    again = await WsClient.connect(server.port, "p1-again", seqs=clients[1].seqs)
    player = Player(again, seed=1)
    mark = len(again.messages)
    welcome = await again.hello(clients[1].seat_token)
    assert isinstance(welcome, m.Welcome), welcome
    seated = await again.wait_type(m.Seated, 3, since=mark)
    assert seated.seat == 1 and seated.token != clients[1].seat_token  # rotated
    await again.send(m.JoinTable(table=TABLE, last_seq=last))
    first = await again.wait_for(lambda x: getattr(x, "seq", None) is not None, 3, since=mark)
    assert isinstance(first, m.Snapshot) or first.seq == last + 1, first
    if not isinstance(first, m.Snapshot):  # the missed events, the disconnection among them
        assert any(
            isinstance(x, m.SeatEvent) and x.seat == 1 and x.status == "disconnected"
            for x in again.messages
        )
    # back in the same hand, seat 1 acts by itself (not by the clock)
    acted = await again.wait_type(m.ActionEvent, 5, since=mark, hand=target, seat=1)
    while acted.action not in ("fold", "check", "call", "bet", "raise", "allin"):
        acted = await again.wait_type(
            m.ActionEvent, 5, since=again.messages.index(acted) + 1, hand=target, seat=1
        )
    assert "clock expired" not in acted.note
    await wait_hands(again, 3, timeout=15)
    assert player.actions > 0
    assert_clean(again, clients[2], clients[3])
    expired = [a for a in again.of(m.ActionEvent) if "clock expired" in a.note]
    assert expired == []
    for end in hands_done(clients[2]):
        assert sum(end.stacks.values()) == 30_000


@pytest.mark.asyncio
async def test_a_spectator_resyncs_with_the_missed_events(launch: Launch) -> None:
    server = launch()
    for s in (1, 2):
        Player(await join(server.port, server.invite, s, f"p{s}"), seed=s)
    rail = await spectate(server.port, server.invite)
    await wait_hands(rail, 2, timeout=10)
    await rail.abort()
    last = rail.last_seq()
    assert last is not None
    await asyncio.sleep(0.5)  # hands go on
    back = await WsClient.connect(server.port, "rail-again", seqs=rail.seqs)
    assert isinstance(await back.hello(server.invite), m.Welcome)
    await back.send(m.JoinTable(table=TABLE, last_seq=last))
    first = await back.wait_for(lambda x: getattr(x, "seq", None) is not None, 3)
    assert not isinstance(first, m.Snapshot) and first.seq == last + 1, first
    await wait_hands(back, 2, timeout=10)
    assert_clean(back)
    assert back.duplicates == []
    assert all(h.cards == () for h in back.of(m.HoleCards))


# ---------------------------------------------------------------------- (d) slow client


@pytest.mark.asyncio
async def test_a_client_that_never_reads_delays_nobody_and_is_dropped(launch: Launch) -> None:
    server = launch()
    clients = [await join(server.port, server.invite, s, f"p{s}") for s in (1, 2, 3)]
    for k, client in enumerate(clients):
        Player(client, seed=k)
    chatters = [await spectate(server.port, server.invite, f"chatter{k}") for k in (1, 2)]
    stop = asyncio.Event()

    async def chat() -> None:  # table chat makes the traffic that fills the slow one's queue
        n = 0
        while not stop.is_set():
            n += 1
            for chatter in chatters:
                await chatter.send(m.Chat(table=TABLE, text=f"{n} " + "bla " * 110))
            await asyncio.sleep(0.025)

    chatting = asyncio.create_task(chat())
    try:
        watch = clients[0]
        await wait_hands(watch, 3, timeout=10)
        t0, h0 = time.monotonic(), len(hands_done(watch))
        await wait_hands(watch, h0 + 15, timeout=20)
        pace = (time.monotonic() - t0) / 15
        before = connections(server)
        slow = await asyncio.to_thread(RawSocket, server.port)
        try:
            slow.send(m.Hello(version=PROTOCOL_VERSION, nickname="slow", token=server.invite))
            slow.send(m.JoinTable(table=TABLE))
            t1, h1 = time.monotonic(), len(hands_done(watch))
            deadline = t1 + 60
            while connections(server) > before:
                assert time.monotonic() < deadline, "the slow client was never dropped"
                await asyncio.sleep(0.2)
            dropped_after = time.monotonic() - t1
            hands = len(hands_done(watch)) - h1
            assert await asyncio.to_thread(slow.drained_until_closed, 10)
        finally:
            slow.close()
        # meanwhile the others kept playing at their pace
        assert hands >= 5, (hands, dropped_after)
        assert dropped_after / hands < max(3 * pace, pace + 0.1), (pace, dropped_after, hands)
        await wait_hands(watch, len(hands_done(watch)) + 3, timeout=10)
    finally:
        stop.set()
        await chatting
    assert_clean(*clients, *chatters)
    for end in hands_done(watch):
        assert sum(end.stacks.values()) == 30_000


# ---------------------------------------------------------------------- (e) the clock


@pytest.mark.asyncio
async def test_a_player_who_does_not_act_is_checked_or_folded_by_the_clock(
    launch: Launch,
) -> None:
    """Action clock 0.5 s then a time bank of 0.3 s (the table is created with these, the
    command line has no time bank option): the server checks when free, else folds."""
    server = launch(tables=(table_config(action_seconds=0.5, time_bank_seconds=0.3),))
    active = await join(server.port, server.invite, 1, "active")
    idle = await join(server.port, server.invite, 2, "idle")
    Player(active, seed=1)
    Player(idle, act=False)
    notes: set[str] = set()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 25
    while not {"clock expired: check", "clock expired: fold"} <= notes:
        assert loop.time() < deadline, notes
        found = await active.wait_for(
            lambda x: isinstance(x, m.ActionEvent) and "clock expired" in x.note,
            deadline - loop.time(),
            since=len(active.messages) if notes else 0,
        )
        assert isinstance(found, m.ActionEvent) and found.seat == 2
        notes.add(found.note)
        # the bank was offered first, and the clock ran its course
        k = active.messages.index(found)
        banks = [
            i
            for i, x in enumerate(active.messages[:k])
            if isinstance(x, m.ClockEvent) and x.kind == "bank" and x.seat == 2
        ]
        clocks = [
            i
            for i, x in enumerate(active.messages[:k])
            if isinstance(x, m.ClockEvent) and x.kind == "action" and x.seat == 2
        ]
        assert clocks and active.times[k] - active.times[clocks[-1]] >= 0.45
        if found.note.endswith("fold"):
            assert banks, "the time bank was not used before folding"
    assert_clean(active, idle)
    assert not [e for e in idle.of(m.Error)]


@pytest.mark.asyncio
async def test_a_disconnected_player_is_acted_for_without_burning_the_time_bank(
    launch: Launch,
) -> None:
    """The default table (time bank 60 s): a player who loses the connection at their turn
    is checked or folded when the action clock (2 s) runs out, not a minute later."""
    server = launch()
    active = await join(server.port, server.invite, 1, "active")
    leaver = await join(server.port, server.invite, 2, "leaver")
    Player(active, seed=1)
    turn = asyncio.Event()

    def vanish(player: Player, rng: random.Random) -> None:
        if player.hand >= 2:
            turn.set()  # our turn: and the line drops
        return None if player.hand >= 2 else ("call", None)

    Player(leaver, vanish, seed=2)  # type: ignore[arg-type]
    await asyncio.wait_for(turn.wait(), 10)
    await leaver.abort()
    t0 = time.monotonic()
    found = await active.wait_for(
        lambda x: isinstance(x, m.ActionEvent) and "clock expired" in x.note, 6
    )
    assert isinstance(found, m.ActionEvent) and found.seat == 2
    assert 1.5 <= time.monotonic() - t0 <= 4
    assert not [x for x in active.of(m.ClockEvent) if x.kind == "bank"]
    assert_clean(active)


# ---------------------------------------------------------------------- (f) hand records


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "protocol.verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )


@pytest.mark.asyncio
async def test_hand_records_verify_and_tampering_is_caught(launch: Launch, tmp_path: Path) -> None:
    server = launch()
    ana = await join(server.port, server.invite, 1, "ana")
    bob = await join(server.port, server.invite, 2, "bob")
    Player(ana, seed=1)
    Player(bob, seed=2)
    await wait_hands(ana, 3, timeout=15)
    end = hands_done(ana)[0]
    status, _ = server.get(end.record)  # no invite: refused
    assert status == 403
    record = server.get_json(f"{end.record}?t={server.invite}")
    # the record says what the table showed
    boards = [b for b in ana.of(m.BoardEvent) if b.hand == end.hand]
    assert record["board"] == [c for b in boards for c in b.cards]
    assert record["final_stacks"] == end.stacks
    start = next(h for h in ana.of(m.HandStart) if h.hand == end.hand)
    assert record["root"] == start.commitment
    shown = {str(x.seat): list(x.cards) for x in ana.of(m.ShownEvent) if x.hand == end.hand}
    assert record["shown"] == shown
    good = tmp_path / "hand.json"
    good.write_text(json.dumps(record))
    result = _verify(good)
    assert result.returncode == 0 and "OK" in result.stdout, result.stdout + result.stderr

    # change one opened card: the signature no longer holds
    opened = record["opened"]
    assert opened
    forged = json.loads(json.dumps(record))
    other = next(c for c in ("2c", "3d", "4h", "5s") if c != opened[0]["card"])
    forged["opened"][0]["card"] = other
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(forged))
    result = _verify(bad)
    assert result.returncode == 1 and "OK" not in result.stdout
    # even signed again with the server's own key, the card does not match the commitment
    from server.dealing import Signer

    signer = Signer.load_or_create(server.data / "signing-key.pem")
    bad.write_text(json.dumps(signer.sign_record(forged)))
    result = _verify(bad)
    assert result.returncode == 1 and "OK" not in result.stdout, result.stdout

    # the PokerStars export has the hands
    status, text = server.get(f"/api/tables/{TABLE}/hands.txt?t={server.invite}")
    assert status == 200
    assert text.decode().count("PokerStars Hand #") >= 3


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("profile", "total", "countdown"), [("cdc", 30, 5), ("tda", 60, 10), ("fpc", 70, 10)]
)
async def test_the_clock_call_counts_down_per_profile(
    launch: Launch, profile: str, total: int, countdown: int
) -> None:
    """The Time called on a real server (its clock 40x faster, so a minute is 1.5 s): refused
    before the thinker has had a minute (cdc 3.5), then the profile's countdown (cdc 3.5: 30 s
    with the last 5 counted; tda 27: 50 + 10; fpc: 60 + 10), then the hand is dead."""
    speed = 40.0
    server = launch(
        tables=(
            table_config(
                profile=profile, action_seconds=600, time_bank_seconds=0, time_call_after=60
            ),
        ),
        clock_speed=speed,
    )
    clients = [await join(server.port, server.invite, s, f"p{s}") for s in (1, 2, 3)]
    for client in clients:
        Player(client, act=False)
    watcher = clients[0]
    turn = await watcher.wait_type(m.ClockEvent, 15, kind="action")
    thinker = turn.seat
    caller = next(c for c in clients if c.seat != thinker)
    mark = len(caller.messages)
    await caller.send(m.CallClock(table=TABLE, hand=turn.hand))
    refused = await caller.wait_type(m.Error, 3, since=mark)
    assert refused.code == "too_early"
    started = watcher.times[watcher.messages.index(turn)]
    await asyncio.sleep(max(0.0, started + 60 / speed + 0.1 - time.monotonic()))
    mark = len(caller.messages)
    await caller.send(m.CallClock(table=TABLE, hand=turn.hand))
    called = await caller.wait_type(m.ClockEvent, 3, since=mark, kind="time")
    assert called.seat == thinker
    assert called.remaining_ms == total * 1000
    assert called.countdown_ms == countdown * 1000
    called_at = caller.times[caller.messages.index(called)]
    dead = await watcher.wait_for(
        lambda x: isinstance(x, m.ActionEvent) and x.seat == thinker,
        total / speed + 5,
        since=watcher.messages.index(turn),
    )
    assert isinstance(dead, m.ActionEvent) and dead.action == "fold", dead
    elapsed = watcher.times[watcher.messages.index(dead)] - called_at
    assert elapsed >= total / speed * 0.9, elapsed  # not before the countdown ran out
    for client in clients:
        assert not client.gaps and not client.bad_frames and not client.failures
