"""A room of cash tables on a real server: the host balances them, a casino player asks for a
table change and the host moves him (at most the new maximum), a stranger orders nothing,
and both ledgers balance to the chip, before and after a kill -9.

casino cash: « Si un joueur demande à changer de table, il devra obtenir l'accord du
superviseur … il ne pourra pas apporter un tapis supérieur à la cave maximum de sa nouvelle
table »; « En cas d'équilibrage de table, on déplacera le ou les prochains joueurs après la
grosse blind de la table comprenant le plus de joueurs »."""

from __future__ import annotations

import asyncio
import csv
import io
from typing import Any

import pytest

from protocol import messages as m

from .conftest import Launch
from .wsclient import Player, Server, WsClient, wait_hands

SIGN = {
    "buy_in": 1, "rebuy": 1, "top_up": 1, "moved_in": 1,
    "cash_out": -1, "removed": -1, "moved_out": -1, "rake": -1,
}  # fmt: skip


def ledger(server: Server, table: str, token: str) -> list[dict[str, str]]:
    status, body = server.get(f"/api/tables/{table}/ledger.csv?t={token}")
    assert status == 200, body[:200]
    return list(csv.DictReader(io.StringIO(body.decode().split("\n\n")[0])))


def follow(player: Player) -> None:
    """The player follows his moves: a ``moved`` names the table he plays at now."""
    inner = player.on_message

    async def on_message(client: WsClient, msg: m.Message) -> None:
        if isinstance(msg, m.Moved) and not msg.tournament:
            player.table = msg.table
        await inner(client, msg)

    player.client.handler = on_message


async def host_client(server: Server) -> WsClient:
    host = await WsClient.connect(server.port, "host")
    await host.send(m.Hello(version=m.PROTOCOL_VERSION, nickname="Creator"))
    await host.wait_type(m.Welcome, 5)
    return host


async def create(host: WsClient, name: str, **kw: Any) -> m.TableCreated:
    ref = host.next_id()
    await host.send(
        m.CreateTable(
            name=name, profile="casino", sb=25, bb=50, max_seats=6, action_seconds=3,
            game="cash", min_buy_in=500, max_buy_in=3000, id=ref, **kw,
        )
    )  # fmt: skip
    made = await host.wait_for(lambda x: getattr(x, "ref", None) == ref, 5)
    assert isinstance(made, m.TableCreated), made
    return made


async def sit(server: Server, made: m.TableCreated, name: str, seat: int) -> WsClient:
    client = await WsClient.connect(server.port, name)
    await client.hello(made.invite, nickname=name)
    await client.send(m.TakeSeat(table=made.table, seat=seat, token=made.invite, buy_in=1000))
    seated = await client.wait_for(lambda x: isinstance(x, (m.Seated, m.Error)), 5.0)
    assert isinstance(seated, m.Seated), seated
    return client


async def stacks(server: Server, made: m.TableCreated) -> dict[str, int]:
    watcher = await WsClient.connect(server.port, "w")
    await watcher.hello(made.invite, nickname="w")
    await watcher.send(m.JoinTable(table=made.table))
    snapshot = await watcher.wait_type(m.Snapshot, 5)
    await watcher.close()
    assert snapshot.state["phase"] in ("waiting", "between"), snapshot.state["phase"]
    return {s["player"]: int(s["stack"]) for s in snapshot.state["seats"]}


async def paused(server: Server, host: WsClient, tables: list[m.TableCreated]) -> None:
    """Pause the tables and wait for their hands to end: stacks stop moving."""
    for made in tables:
        await host.send(m.Host(table=made.table, token=made.host, op="pause"))
    await asyncio.sleep(0.5)
    for _ in range(60):
        try:
            for made in tables:
                await stacks(server, made)
            return
        except AssertionError:
            await asyncio.sleep(0.5)
    raise AssertionError("a table never stopped between hands")


def balanced(server: Server, made: m.TableCreated, on_table: dict[str, int]) -> None:
    entries = ledger(server, made.table, made.host)
    total = sum(SIGN[e["move"]] * int(e["amount"]) for e in entries)
    assert total == sum(on_table.values()), (made.table, entries, on_table)


@pytest.mark.asyncio
async def test_a_room_balances_its_tables_and_moves_a_player_who_asks(launch: Launch) -> None:
    server = launch()
    host = await host_client(server)
    one = await create(host, "Table 1")
    two = await create(host, "Table 2", room=one.host)
    plain = await create(host, "Ailleurs")  # a cash table of no room: nobody moves there
    await host.send(m.JoinTable(table=one.table))
    await host.wait_type(m.Snapshot, 5)
    room = server.get_json(f"/api/tables/{two.table}/room?t={two.invite}")
    assert room["room"] == one.table  # the room is named after its first table
    assert [t["table"] for t in room["tables"]] == sorted([one.table, two.table])
    assert server.get(f"/api/tables/{two.table}/room?t={plain.invite}")[0] == 403
    clients = {f"a{s}": await sit(server, one, f"a{s}", s) for s in range(1, 6)}
    clients["b1"] = await sit(server, two, "b1", 1)
    players = {}
    for k, (name, client) in enumerate(clients.items()):
        players[name] = Player(client, seed=k, table=one.table if name[0] == "a" else two.table)
        follow(players[name])
    await wait_hands(clients["a1"], 2, timeout=30, table=one.table)

    # a stranger's tokens order nothing; a move outside the room is refused
    stranger = clients["a5"]
    await stranger.send(m.Host(table=one.table, token=one.invite, op="balance", id=901))
    refused = await stranger.wait_for(lambda x: getattr(x, "ref", None) == 901, 5)
    assert isinstance(refused, m.Error) and refused.code == "bad_token"
    await stranger.send(m.ChangeTable(table=one.table, to=plain.table, id=902))
    refused = await stranger.wait_for(lambda x: getattr(x, "ref", None) == 902, 5)
    assert isinstance(refused, m.Error) and refused.code == "cash.room"

    # balancing: 5 against 1, two players go from table 1 to table 2 with all their chips
    await host.send(m.Host(table=one.table, token=one.host, op="balance"))
    moved: list[str] = []
    for _ in range(200):
        moved = [n for n, c in clients.items() if any(x.table == two.table for x in c.of(m.Seated))]
        if len(moved) == 3:  # b1 and the two moved
            break
        await asyncio.sleep(0.1)
    movers = sorted(n for n in moved if n != "b1")
    assert len(movers) == 2, moved
    for name in movers:
        notice = clients[name].of(m.Moved)[-1]
        assert (notice.table, notice.from_table, notice.reason) == (two.table, one.table, "balance")
        assert notice.invite  # the page opens the new table with it
    entries = ledger(server, two.table, two.host)
    assert sorted(e["name"] for e in entries if e["move"] == "moved_in") == movers
    out = ledger(server, one.table, one.host)
    assert sorted(e["name"] for e in out if e["move"] == "moved_out") == movers
    # they play there (a loaded machine: a missed turn waits out the time bank)
    await wait_hands(clients[movers[0]], 2, timeout=90, table=two.table)

    # casino: a change is asked of the host, who moves the player
    asker = movers[0]
    await host.send(m.JoinTable(table=two.table))
    await host.wait_for(lambda x: isinstance(x, m.Snapshot) and x.table == two.table, 5)
    await clients[asker].send(m.ChangeTable(table=two.table, to=one.table))
    request = await host.wait_for(
        lambda x: isinstance(x, m.SeatRequest) and x.table == two.table and x.to == one.table, 10
    )
    assert isinstance(request, m.SeatRequest) and request.player == asker
    seat = clients[asker].of(m.Seated)[-1].seat
    await host.send(m.Host(table=two.table, token=two.host, op="move", seat=seat, to=one.table))
    back = await clients[asker].wait_for(
        lambda x: isinstance(x, m.Seated) and x.table == one.table, 20
    )
    assert isinstance(back, m.Seated)

    await paused(server, host, [one, two])
    for made in (one, two):
        balanced(server, made, await stacks(server, made))
    before = {made.table: ledger(server, made.table, made.host) for made in (one, two)}
    server.kill()
    server.start()
    for made in (one, two):
        assert ledger(server, made.table, made.host) == before[made.table]
        balanced(server, made, await stacks(server, made))


@pytest.mark.asyncio
async def test_an_idle_cash_table_is_dropped_but_its_ledger_and_chips_are_kept(
    launch: Launch,
) -> None:
    # a cash table nobody plays at for ``idle_table_hours`` is dropped; the chips still on
    # it are written cashed out to their players in the archived ledger, which the same
    # tokens still open (the friends settle with it)
    server = launch(idle_table_hours=0.001)  # 3.6 s
    host = await host_client(server)
    made = await create(host, "Lundi")
    await host.close()
    ana = await sit(server, made, "ana", 2)
    await ana.close()
    for _ in range(150):  # the room route answers only while the table runs
        if server.get(f"/api/tables/{made.table}/room?t={made.invite}")[0] == 404:
            break
        await asyncio.sleep(0.2)
    else:
        raise AssertionError("the idle cash table was not dropped")
    entries = ledger(server, made.table, made.invite)
    lines = [(e["move"], e["name"], e["amount"], e["by"]) for e in entries]
    assert lines == [("buy_in", "ana", "1000", ""), ("cash_out", "ana", "1000", "closed")]
    server.stop()
    server.start()
    assert ledger(server, made.table, made.host) == entries


@pytest.mark.asyncio
async def test_a_player_merged_away_while_offline_comes_back_at_his_new_seat(
    launch: Launch,
) -> None:
    server = launch()
    host = await host_client(server)
    one = await create(host, "Table 1")
    two = await create(host, "Table 2", room=one.host)
    ana = await sit(server, two, "ana", 3)
    token = ana.seat_token
    await ana.close()  # gone: her seat stays, with her chips
    await sit(server, one, "bob", 1)
    await host.send(m.Host(table=two.table, token=two.host, op="merge", to=one.table, id=5))
    for _ in range(100):
        entries = ledger(server, one.table, one.host)
        if any(e["move"] == "moved_in" for e in entries):
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the merge did not bring ana")
    # she comes back with her old table's seat token: she is sent to her new seat
    back = await WsClient.connect(server.port, "ana-back")
    await back.hello(token)
    moved = await back.wait_type(m.Moved, 5)
    assert (moved.table, moved.from_table) == (one.table, two.table) and moved.invite
    seated = await back.wait_for(lambda x: isinstance(x, m.Seated), 5)
    assert isinstance(seated, m.Seated) and seated.table == one.table
    assert seated.seat == moved.seat
