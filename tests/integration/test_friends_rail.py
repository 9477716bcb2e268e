"""Acceptance, on a real ``python -m server``: the live rail of a friends table, sitting out
that really sits out, and the busted friend who buys in again or leaves.

- The rail (connections without a seat) follows the live hand: every public event as it
  happens, never a hole card (``hole`` events come with ``"cards": []``, snapshots have no
  ``hole`` nor ``menu``), over many hands, with seats vacated and taken again and players
  watching on after busting.
- A friend sitting out at the deal is not dealt in: no hole, no blind, no cut, not in the
  ``hand_start`` stacks; his seat and chips wait for him, and he is dealt in again at the first
  deal after ``sitin``. Heads-up with one of the two sitting out, no hand is dealt.
- A busted friend's connection stays on the table as a spectator: he can ``sit`` again with
  the invite (a fresh starting stack, a new seat token) without reconnecting, or ``leave``.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from protocol import messages as m

from .conftest import Launch
from .wsclient import (
    TABLE,
    Player,
    WsClient,
    always,
    hands_done,
    join,
    maniac,
    spectate,
    table_config,
    wait_hands,
)


def assert_clean(*clients: WsClient) -> None:
    for client in clients:
        assert not client.gaps, (client.name, client.gaps)
        assert not client.bad_frames, (client.name, client.bad_frames)
        assert not client.failures, (client.name, client.failures)


def cards_seen(client: WsClient, since: int = 0) -> list[str]:
    """Every hole card that reached ``client`` from message ``since`` on (events and
    snapshots), as readable problems."""
    out = [
        f"hole of seat {x.seat} in hand {x.hand}: {x.cards}"
        for x in client.of(m.HoleCards, since)
        if x.cards
    ]
    for snap in client.of(m.Snapshot, since):
        if "hole" in snap.state or "menu" in snap.state:
            out.append(f"snapshot {snap.seq}: {sorted(snap.state)}")
    return out


def arrival(client: WsClient, predicate: type[m.Message], hand: int) -> float | None:
    for k, x in enumerate(client.messages):
        if isinstance(x, predicate) and getattr(x, "hand", None) == hand:
            return client.times[k]
    return None


# ---------------------------------------------------------------------- the rail


@pytest.mark.asyncio
async def test_the_rail_follows_the_live_hand_and_never_sees_a_hole_card(launch: Launch) -> None:
    server = launch(starting_stack=1000)
    rail = await spectate(server.port, server.invite, "rail")
    rng = random.Random(13)
    names = iter(range(1, 1000))
    players: dict[int, Player] = {}
    everyone: list[WsClient] = []
    watching: list[tuple[WsClient, int, int]] = []
    """Busted players still on the rail: the index of their bust, the rail's hands then."""

    async def sit(seat: int) -> None:
        n = next(names)
        client = await join(server.port, server.invite, seat, f"p{n}")
        players[seat] = Player(client, maniac(), seed=n)
        everyone.append(client)

    for seat in (1, 4, 7):
        await sit(seat)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    vacated = 0
    while len(hands_done(rail)) < 40:
        assert loop.time() < deadline, f"only {len(hands_done(rail))} hands in 60 s"
        await asyncio.sleep(0.02)
        for seat, player in list(players.items()):
            if player.busted:  # stays connected: a spectator now
                del players[seat]
                player.client.handler = None
                watching.append((player.client, len(player.client.messages), len(rail.messages)))
        if len(hands_done(rail)) in (10, 25) and vacated < len(hands_done(rail)) // 10:
            # a seat vacated between hands (the player leaves), then taken again
            vacated += 1
            seat, gone = next(iter(players.items()))
            await gone.client.send(m.LeaveTable(table=TABLE))
            del players[seat]
            await asyncio.sleep(0.2)
            await sit(seat)
        while len(players) < 3:
            await sit(rng.choice(sorted(set(range(1, 10)) - set(players))))
    assert len(watching) >= 2, "too few busts to check the busted players' rail"
    assert vacated == 2
    # never a hole card on the rail, in any frame; nor to a busted player after his bust
    assert cards_seen(rail) == []
    for client, since, rail_then in watching:
        assert cards_seen(client, since) == [], client.name
        if rail.of(m.HandEnd, rail_then)[1:]:  # hands went on: he watched them
            assert client.of(m.HandStart, since), f"{client.name} no longer follows the table"
    # live: every hand's first action (a blind) reached the rail before the hand was over
    # for any player (a rail one hand behind gets it only after)
    late = []
    for end in hands_done(rail):
        if end.cancelled:
            continue
        acted = arrival(rail, m.ActionEvent, end.hand)
        over = [t for c in everyone if (t := arrival(c, m.HandEnd, end.hand)) is not None]
        if acted is None or acted > min(over):
            late.append(end.hand)
    assert late == [], f"the rail got hands {late} late"
    assert_clean(rail, *(p.client for p in players.values()))


# ---------------------------------------------------------------------- sitting out


@pytest.mark.asyncio
async def test_a_friend_sitting_out_is_not_dealt_in_until_he_sits_in(launch: Launch) -> None:
    server = launch(tables=(table_config(cut_seconds=0.5),))
    clients = {s: await join(server.port, server.invite, s, f"p{s}") for s in (1, 2, 3)}
    for seat in (1, 2):
        Player(clients[seat], always("call"), seed=seat)
    away = clients[3]
    await away.send(m.SitOut(table=TABLE))  # said when the hand in play (if any) is over
    said = await away.wait_type(m.SeatEvent, 10, seat=3, status="sitting_out")
    mark = len(away.messages)
    kept = said.stack
    watch = clients[1]
    await wait_hands(watch, len(hands_done(watch)) + 5, timeout=20)
    starts = [x for x in watch.of(m.HandStart) if x.seq > said.seq]
    assert len(starts) >= 4
    ends = {x.hand: x for x in watch.of(m.HandEnd)}
    for start in starts:
        assert "3" not in start.stacks, start
        assert start.small_blind != 3 and start.big_blind != 3
        prompt = next(x for x in watch.of(m.CutPrompt) if x.hand == start.hand)
        assert prompt.seat != 3
        assert not [x for x in watch.of(m.HoleCards) if x.hand == start.hand and x.seat == 3]
        assert not [x for x in watch.of(m.ActionEvent) if x.hand == start.hand and x.seat == 3]
        if start.hand in ends:  # chips conserved, his own aside
            assert sum(ends[start.hand].stacks.values()) + kept == 30_000
            assert "3" not in ends[start.hand].stacks
    assert not [x for x in away.of(m.Turn, mark)]
    # he comes back: dealt in again from the next deal
    Player(away, always("call"), seed=3)
    await away.send(m.SitIn(table=TABLE))
    back = await watch.wait_for(
        lambda x: isinstance(x, m.HandStart) and "3" in x.stacks, 10, since=len(watch.messages)
    )
    assert isinstance(back, m.HandStart) and back.stacks["3"] == kept
    mine = await away.wait_type(m.HoleCards, 5, hand=back.hand, seat=3)
    assert len(mine.cards) == 2
    assert_clean(*clients.values())


@pytest.mark.asyncio
async def test_heads_up_with_one_player_sitting_out_no_hand_is_dealt(launch: Launch) -> None:
    server = launch()
    ana = await join(server.port, server.invite, 1, "ana")
    bob = await join(server.port, server.invite, 2, "bob")
    Player(ana, always("call"), seed=1)
    Player(bob, always("call"), seed=2)
    await bob.send(m.SitOut(table=TABLE))  # said once the hand in play, if any, is over
    await bob.wait_type(m.SeatEvent, 10, seat=2, status="sitting_out")
    mark = len(ana.messages)
    await asyncio.sleep(1.0)
    assert not ana.of(m.HandStart, mark), "a hand was dealt heads-up with one player away"
    await bob.send(m.SitIn(table=TABLE))
    start = await ana.wait_type(m.HandStart, 5, since=mark)
    assert set(start.stacks) == {"1", "2"}
    assert_clean(ana, bob)


# ---------------------------------------------------------------------- busted friends


async def bust_one(players: dict[int, Player], timeout: float = 30) -> int:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        busted = [s for s, p in players.items() if p.busted]
        if busted:
            return busted[0]
        assert loop.time() < deadline, "nobody busted"
        await asyncio.sleep(0.02)


@pytest.mark.asyncio
async def test_a_busted_friend_sits_again_or_leaves_without_reconnecting(launch: Launch) -> None:
    server = launch(starting_stack=1000)
    # two players push every hand, the third folds: one bust at a time, the game goes on
    players = {
        s: Player(await join(server.port, server.invite, s, f"p{s}"), always(verb), seed=s)
        for s, verb in ((1, "allin"), (2, "allin"), (3, "fold"))
    }
    seat = await bust_one(players)
    again = players.pop(seat)
    client = again.client
    old_token = client.seat_token
    # still on the table as a spectator: the next hand reaches him, without cards
    mark = len(client.messages)
    nxt = await client.wait_type(m.HandStart, 10, since=mark)
    assert str(seat) not in nxt.stacks
    # he sits again with the invite, on the same connection: a fresh stack, a new token
    again.busted = False
    mark = len(client.messages)
    seated = await client.take_seat(seat, server.invite)
    assert isinstance(seated, m.Seated), seated
    assert seated.seat == seat and seated.token != old_token
    snap = await client.wait_type(m.Snapshot, 5, since=mark)
    mine = next(s for s in snap.state["seats"] if s["seat"] == seat)
    assert mine["stack"] == 1000 and snap.state["you"] == seat
    dealt = await client.wait_for(
        lambda x: isinstance(x, m.HandStart) and str(seat) in x.stacks, 15, since=mark
    )
    assert isinstance(dealt, m.HandStart)
    players[seat] = again
    # another bust: this one leaves the table (no error), and hears nothing more from it
    gone_seat = await bust_one(players)
    gone = players.pop(gone_seat).client
    gone.handler = None
    mark = len(gone.messages)
    await gone.send(m.LeaveTable(table=TABLE, id=99))
    await asyncio.sleep(0.3)
    settled = len(gone.messages)
    watch = next(iter(players.values())).client
    await wait_hands(watch, len(hands_done(watch)) + 2, timeout=15)
    assert not gone.of(m.Error, mark), gone.of(m.Error, mark)
    assert [x for x in gone.messages[settled:] if getattr(x, "table", None) == TABLE] == []
    assert_clean(client, gone, watch)
