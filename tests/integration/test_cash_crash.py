"""Cash tables survive a crash or a store outage exactly (issue 27), on a real server: no
stack lost, no table stuck, no player locked out of his seat."""

from __future__ import annotations

from pathlib import Path

import pytest

from protocol import messages as m
from server.table.config import TableConfig

from .conftest import Launch
from .test_cash import CASH, RULES, imbalance, ledger, sit
from .test_crash_points import environ
from .test_store_full import BUDGET, pages, until
from .wsclient import OPEN, Player, Server, WsClient, always, seed_tables, table_config


def cash_config() -> TableConfig:
    return table_config(CASH, profile="casino", sb=25, bb=50, max_seats=6, cash=RULES)


async def on_table(server: Server) -> int:
    """The chips on the table now, from a spectator's snapshot."""
    watcher = await WsClient.connect(server.port, "w")
    await watcher.hello(server.invites[CASH], nickname="w")
    await watcher.send(m.JoinTable(table=CASH))
    snapshot = await watcher.wait_type(m.Snapshot, 5)
    await watcher.close()
    # in a hand, a dealt-in seat's chips are its stack at the start of the hand (its bets and
    # its share of the pots are still on the table); a seat not dealt in, its stack
    started = {int(k): int(v) for k, v in (snapshot.state.get("start_stacks") or {}).items()}
    return sum(started.get(int(s["seat"]), int(s["stack"])) for s in snapshot.state["seats"])


async def answer(client: WsClient, message: m.Message, timeout: float = 2.0) -> m.Message:
    """Send ``message`` (with an id) and wait for what answers it: an error naming it, or
    ``seated``."""
    mark = len(client.messages)
    await client.send(message)
    ref = getattr(message, "id", None)
    return await client.wait_for(
        lambda x: isinstance(x, m.Seated) or (isinstance(x, m.Error) and x.ref == ref),
        timeout,
        mark,
    )


@pytest.mark.asyncio
async def test_a_halted_cash_table_answers_every_request_at_once_and_no_token_is_lost(
    tmp_path: Path,
) -> None:
    """Issue 27, scenario 3: while the store is full, a player back with his seat token, a
    newcomer's buy-in and a leave are each answered at once (``table_halted``, nothing
    changed); once there is room again, every token opens its seat, also after a restart,
    and the ledger is exact."""
    data = tmp_path / "data"
    seed_tables(data, cash_config())
    limit_file = tmp_path / "max-pages"
    server = Server(data, next_hand_seconds=0.2)
    with environ(
        BRASSEUR_TEST_DB_MAX_PAGES=str(pages(data / "brasseur.sqlite") + BUDGET),
        BRASSEUR_TEST_DB_MAX_PAGES_FILE=str(limit_file),
    ):
        server.start()
    try:
        first, second = [await sit(server, f"p{s}", s, 1000) for s in (1, 2)]
        for seat, client in ((1, first), (2, second)):
            Player(client, always("call"), seed=seat, table=CASH)
        await second.wait_type(m.Notice, 30, kind="table_halted")
        assert first.seat_token is not None and second.seat_token is not None
        token = first.seat_token

        # p1's connection drops; he comes back with his seat token: told at once
        await first.close()
        back = await WsClient.connect(server.port, "p1-back")
        mark = len(back.messages)
        await back.send(m.Hello(version=m.PROTOCOL_VERSION, token=token))
        told = await back.wait_for(
            lambda x: isinstance(x, (m.Seated, m.Error)),
            2.0,
            mark,
        )
        assert isinstance(told, m.Error) and told.code == "table_halted", told
        await back.close()
        # a newcomer's buy-in: told at once, not seated
        newcomer = await WsClient.connect(server.port, "p3")
        await newcomer.hello(server.invites[CASH], nickname="p3")
        take = m.TakeSeat(
            table=CASH, seat=3, token=server.invites[CASH], buy_in=1000, id=newcomer.next_id()
        )
        told = await answer(newcomer, take)
        assert isinstance(told, m.Error) and told.code == "table_halted", told
        # a leave: told at once, he is still seated with his chips
        told = await answer(second, m.LeaveTable(table=CASH, id=second.next_id()))
        assert isinstance(told, m.Error) and told.code == "table_halted", told

        # room again: the table resumes by itself
        limit_file.write_text("none\n")
        await second.wait_type(m.Notice, 15, kind="table_resumed")
        await until(server.healthy, 10)

        # the token p1 held opens his seat (and the new one he gets does too)
        again = await WsClient.connect(server.port, "p1-again")
        welcome = await again.hello(token)
        assert isinstance(welcome, m.Welcome), welcome
        seated = await again.wait_type(m.Seated, 5)
        assert seated.seat == 1
        told = await answer(newcomer, take, timeout=5)
        assert isinstance(told, m.Seated) and told.seat == 3, told
        # the leave again, on the same connection (a refused leave did not take him off the
        # table): he leaves with his stack, a cash-out in the ledger
        await second.send(m.LeaveTable(table=CASH, id=second.next_id()))
        await until(
            lambda: any(e["move"] == "cash_out" and e["name"] == "p2" for e in ledger(server)[0]),
            10,
        )
        newest = again.seat_token
        assert newest is not None
        await again.close()
        server.stop()
        server.start()
        last = await WsClient.connect(server.port, "p1-last")
        welcome = await last.hello(newest)
        assert isinstance(welcome, m.Welcome), welcome
        assert (await last.wait_type(m.Seated, 5)).seat == 1
        entries, _ = ledger(server)
        assert imbalance(entries, await on_table(server)) == 0
    finally:
        for client in list(OPEN):
            await client.close()
        server.stop()


SLOW = {"action_seconds": 60.0, "next_hand_seconds": 0.3}
"""Nobody acts unless told: the first hand waits for its first action until the kill."""


async def first_hand(server: Server, seats: tuple[int, ...]) -> dict[int, WsClient]:
    """Players buy in 1,000 at ``seats`` and hand 1 is dealt to them; nobody acts."""
    clients = {s: await sit(server, f"p{s}", s, 1000) for s in seats}
    await clients[seats[0]].wait_type(m.HoleCards, 10, hand=1)
    return clients


async def back_and_play(server: Server, clients: dict[int, WsClient]) -> dict[int, WsClient]:
    """After the restart every player still seated comes back with his token and calls."""
    back: dict[int, WsClient] = {}
    for seat, old in clients.items():
        assert old.seat_token is not None
        client = await WsClient.connect(server.port, f"p{seat}-back")
        await client.hello(old.seat_token)
        answer = await client.wait_for(lambda x: isinstance(x, (m.Seated, m.Error)), 5)
        if isinstance(answer, m.Seated):
            await client.send(m.JoinTable(table=CASH))
            Player(client, always("call"), seed=seat, table=CASH)
            back[seat] = client
    return back


def moves_of(server: Server, name: str) -> list[tuple[str, int]]:
    return [(e["move"], int(e["amount"])) for e in ledger(server)[0] if e["name"] == name]


@pytest.mark.asyncio
@pytest.mark.parametrize("newcomer", [True, False])
async def test_a_player_who_leaves_during_a_hand_cut_by_a_crash_is_paid_out(
    launch: Launch, newcomer: bool
) -> None:
    """Issue 27, scenario 1: three players buy in 1,000; during hand 1 one of them leaves;
    (a newcomer buys in at a free seat); kill -9; restart: the leaver is paid out his 1,000
    (the hand was cancelled) and no longer seated; the ledger balances to the chip."""
    server = launch(tables=(cash_config(),), **SLOW)
    clients = await first_hand(server, (1, 2, 3))
    await clients[2].send(m.LeaveTable(table=CASH))
    await clients[1].wait_type(m.SeatEvent, 5, seat=2, status="leaving")
    if newcomer:
        clients[4] = await sit(server, "p4", 4, 1000)  # the seat and its ledger line saved
    server.kill()
    server.start()
    assert moves_of(server, "p2") == [("buy_in", 1000), ("cash_out", 1000)]
    entries, _ = ledger(server)
    assert imbalance(entries, await on_table(server)) == 0
    del clients[2]
    back = await back_and_play(server, clients)
    assert sorted(back) == sorted(clients)
    await back[1].wait_type(m.HandEnd, 20, cancelled=False)
    entries, _ = ledger(server)
    assert imbalance(entries, await on_table(server)) == 0


@pytest.mark.asyncio
async def test_a_hand_cut_by_a_crash_is_dealt_again_to_its_own_players(launch: Launch) -> None:
    """Issue 27, scenario 2: a newcomer sits with wait_for_bb while hand 1 is dealt without
    him; kill -9; restart: the cut hand is dealt again to its own players at its own
    positions (not to the newcomer), and the table goes on dealing."""
    server = launch(tables=(cash_config(),), **SLOW)
    clients = await first_hand(server, (1, 2, 3))
    first = await clients[1].wait_type(m.HandStart, 5, hand=1)
    newcomer = await WsClient.connect(server.port, "p5")
    await newcomer.hello(server.invites[CASH], nickname="p5")
    await newcomer.send(
        m.TakeSeat(table=CASH, seat=5, token=server.invites[CASH], buy_in=1000, wait_for_bb=True)
    )
    await newcomer.wait_type(m.Seated, 5)
    clients[5] = newcomer
    server.kill()
    server.start()
    back = await back_and_play(server, clients)
    assert sorted(back) == [1, 2, 3, 5]
    replay = await back[1].wait_type(m.HandStart, 10)
    assert (replay.button, replay.big_blind) == (first.button, first.big_blind)
    assert sorted(replay.stacks) == sorted(first.stacks)  # its players, its stacks
    assert replay.stacks == first.stacks
    # the table goes on: three hands more played to their end
    await until(lambda: len([x for x in back[1].of(m.HandEnd) if not x.cancelled]) >= 3, 30)
    entries, _ = ledger(server)
    assert imbalance(entries, await on_table(server)) == 0


async def friend(server: Server, seat: int) -> WsClient:
    client = await WsClient.connect(server.port, f"f{seat}")
    welcome = await client.hello(server.invite, nickname=f"f{seat}")
    assert isinstance(welcome, m.Welcome), welcome
    await client.send(m.TakeSeat(table="friends", seat=seat, token=server.invite))
    seated = await client.wait_for(lambda x: isinstance(x, (m.Seated, m.Error)), 5.0)
    assert isinstance(seated, m.Seated), seated
    return client


@pytest.mark.asyncio
async def test_a_friends_hand_cut_by_a_crash_after_players_sat_again_deals_on(
    launch: Launch,
) -> None:
    """Issue 27, scenario 2 at a friends table (cdc): during hand 1 a player sits out and
    comes back, and a newcomer sits; kill -9; restart: the cut hand is cancelled with every
    bet returned (cdc 5.4) or dealt again to its own players, never a mix the engine
    refuses (« big_blind must be an occupied seat »), and the table deals on: hands played
    to their end, every chip still there."""
    server = launch(**SLOW)
    clients = {s: await friend(server, s) for s in (1, 2, 3)}
    await clients[1].wait_type(m.HoleCards, 10, hand=1)
    # (in a hand, a sit-out and the sit-in that follows are answered at once: a notice)
    for message in (m.SitOut(table="friends", id=1), m.SitIn(table="friends", id=2)):
        mark = len(clients[3].messages)
        await clients[3].send(message)
        await clients[3].wait_for(
            lambda x: isinstance(x, m.Notice | m.SeatEvent | m.Error), 5, mark
        )
    clients[4] = await friend(server, 4)
    server.kill()
    server.start()
    back: dict[int, WsClient] = {}
    for seat, old in clients.items():
        assert old.seat_token is not None
        client = await WsClient.connect(server.port, f"f{seat}-back")
        await client.hello(old.seat_token)
        assert isinstance(await client.wait_type(m.Seated, 5), m.Seated)
        await client.send(m.JoinTable(table="friends"))
        Player(client, always("call"), seed=seat, table="friends")
        back[seat] = client
    await until(lambda: len([x for x in back[1].of(m.HandEnd) if not x.cancelled]) >= 2, 40)
    assert server.healthy()
    watcher = await WsClient.connect(server.port, "w")
    await watcher.hello(server.invite, nickname="w")
    await watcher.send(m.JoinTable(table="friends"))
    snapshot = await watcher.wait_type(m.Snapshot, 5)
    started = {int(k): int(v) for k, v in (snapshot.state.get("start_stacks") or {}).items()}
    chips = sum(started.get(int(s["seat"]), int(s["stack"])) for s in snapshot.state["seats"])
    assert chips == 4 * 10_000  # the friends table's starting stack, nothing created or lost
