"""A cash table on a real server: buy-ins through ``sit``, rebuys, a player who leaves and
comes back, the rake, the ledger as CSV, and a kill -9 that loses no chip of it."""

from __future__ import annotations

import asyncio
import csv
import io
import random

import pytest

from protocol import messages as m

from .conftest import Launch
from .wsclient import Player, Server, WsClient, always, table_config, wait_hands

CASH = "cash"
RULES = {"min_buyin": 500, "max_buyin": 5000, "rake_permille": 50, "rake_cap": 100}


def lively(player: Player, rng: random.Random) -> tuple[str, int | None]:
    """Calls a lot, folds and raises now and then, rarely moves all-in: chips move, some
    stacks bust (and their players rebuy)."""
    roll = rng.random()
    if roll < 0.03:
        return "allin", None
    if roll < 0.15:
        return "raise", 200
    if roll < 0.4:
        return "fold", None
    return "call", None


async def rebuy_when_busted(clients: dict[int, WsClient], stop: asyncio.Event) -> int:
    """Each busted player buys 1,000 again (a rebuy: he keeps his seat). The rebuys made."""
    done: dict[int, int] = {}
    while not stop.is_set():
        for seat, client in clients.items():
            busts = [
                x
                for x in client.of(m.SeatEvent)
                if x.table == CASH and x.seat == seat and x.status == "busted"
            ]
            if len(busts) > done.get(seat, 0):
                done[seat] = len(busts)
                await client.send(m.AddChips(table=CASH, amount=1000))
        await asyncio.sleep(0.05)
    return sum(done.values())


async def sit(server: Server, name: str, seat: int, buy_in: int) -> WsClient:
    client = await WsClient.connect(server.port, name)
    welcome = await client.hello(server.invites[CASH], nickname=name)
    assert isinstance(welcome, m.Welcome), welcome
    await client.send(m.TakeSeat(table=CASH, seat=seat, token=server.invites[CASH], buy_in=buy_in))
    seated = await client.wait_for(lambda x: isinstance(x, (m.Seated, m.Error)), 5.0)
    assert isinstance(seated, m.Seated), seated
    return client


def ledger(server: Server) -> tuple[list[dict[str, str]], dict[str, dict[str, str]]]:
    status, body = server.get(f"/api/tables/{CASH}/ledger.csv?t={server.invites[CASH]}")
    assert status == 200, body[:200]
    lines, totals = body.decode().split("\n\n")
    entries = list(csv.DictReader(io.StringIO(lines)))
    players = {row["player"]: row for row in csv.DictReader(io.StringIO(totals))}
    return entries, players


def imbalance(entries: list[dict[str, str]], on_table: int) -> int:
    """Bought in − cashed out − rake − the chips on the table."""
    sign = {"buy_in": 1, "rebuy": 1, "top_up": 1, "cash_out": -1, "removed": -1, "rake": -1}
    return sum(sign[e["move"]] * int(e["amount"]) for e in entries) - on_table


@pytest.mark.asyncio
async def test_a_cash_table_ledger_balances_to_the_chip_and_survives_a_kill_9(
    launch: Launch,
) -> None:
    config = table_config(CASH, profile="casino", sb=25, bb=50, max_seats=6, cash=RULES)
    server = launch(tables=(config,))
    # a buy-in outside the limits is refused with its code, and seats nobody
    stranger = await WsClient.connect(server.port, "x")
    await stranger.hello(server.invites[CASH], nickname="x")
    await stranger.send(m.TakeSeat(table=CASH, seat=5, token=server.invites[CASH], buy_in=6000))
    refused = await stranger.wait_for(lambda x: isinstance(x, (m.Seated, m.Error)), 5.0)
    assert isinstance(refused, m.Error) and refused.code == "cash.above_max"
    await stranger.send(m.TakeSeat(table=CASH, seat=5, token=server.invites[CASH]))
    plain = await stranger.wait_for(
        lambda x: isinstance(x, m.Error) and x.code != "cash.above_max", 5.0
    )
    assert isinstance(plain, m.Error) and plain.code == "cash.buy_in"
    clients = {s: await sit(server, f"p{s}", s, 1000) for s in (1, 2, 3, 4)}
    for s, client in clients.items():
        # p4 folds, never busts: his leave below is a cash-out with chips (a busted player
        # who leaves writes no line, and the rebuy task races his leave)
        Player(client, always("fold") if s == 4 else lively, seed=s, table=CASH)
    stop = asyncio.Event()
    rebuys = asyncio.create_task(rebuy_when_busted(clients, stop))
    await wait_hands(clients[1], 12, timeout=60, table=CASH)
    # p4 leaves with his stack (a cash-out), a busted player rebuys
    await clients[4].send(m.LeaveTable(table=CASH))
    for _ in range(100):  # he leaves at once, or when the hand he is in ends
        entries, players = ledger(server)
        if any(e["move"] == "cash_out" and e["name"] == "p4" for e in entries):
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("p4's cash-out is not in the ledger")
    await clients[1].send(m.AddChips(table=CASH, amount=50))  # a top-up, announced
    await wait_hands(clients[1], 30, timeout=90, table=CASH)
    stop.set()
    await rebuys
    entries, players = ledger(server)
    moves = {e["move"] for e in entries}
    assert {"buy_in", "cash_out", "rake"} <= moves and moves & {"rebuy", "top_up"}
    # kill -9 in the middle of the play; the ledger comes back with the stacks saved with it
    server.kill()
    before = entries
    server.start()
    entries, players = ledger(server)
    assert entries[: len(before)] == before  # nothing written before the crash is lost
    watcher = await WsClient.connect(server.port, "w")
    await watcher.hello(server.invites[CASH], nickname="w")
    await watcher.send(m.JoinTable(table=CASH))
    snapshot = await watcher.wait_type(m.Snapshot, 5)
    on_table = sum(int(s["stack"]) for s in snapshot.state["seats"])
    assert imbalance(entries, on_table) == 0
    cash = snapshot.state["cash"]
    assert cash["rake"] == sum(int(e["amount"]) for e in entries if e["move"] == "rake") > 0
    assert {row["name"] for row in players.values()} >= {"p1", "p2", "p3", "p4"}


@pytest.mark.asyncio
async def test_a_hosts_table_approves_players_and_only_its_host_orders_it(launch: Launch) -> None:
    server = launch()
    host = await WsClient.connect(server.port, "host")
    await host.send(m.Hello(version=m.PROTOCOL_VERSION, nickname="Creator"))
    await host.wait_type(m.Welcome, 5)
    create = m.CreateTable(
        name="Jeudi", profile="casino", sb=25, bb=50, game="cash", approval=True, id=host.next_id()
    )
    await host.send(create)
    made = await host.wait_type(m.TableCreated, 5)
    await host.send(m.JoinTable(table=made.table))
    await host.wait_type(m.Snapshot, 5)
    ana = await WsClient.connect(server.port, "ana")
    await ana.hello(made.invite, nickname="Ana")
    await ana.send(m.TakeSeat(table=made.table, seat=3, token=made.invite, buy_in=2000))
    request = await host.wait_type(m.SeatRequest, 5)
    assert (request.seat, request.player, request.buy_in) == (3, "Ana", 2000)
    # anyone else's token orders nothing: an invite, a forged one
    for token in (made.invite, made.host[:-2] + "xx"):
        await ana.send(m.Host(table=made.table, token=token, op="approve", seat=3, id=9))
        refused = await ana.wait_for(lambda x: isinstance(x, m.Error) and x.ref == 9, 5)
        assert isinstance(refused, m.Error) and refused.code == "bad_token"
    assert not ana.of(m.Seated)
    await host.send(m.Host(table=made.table, token=made.host, op="approve", seat=3))
    seated = await ana.wait_type(m.Seated, 5)
    assert seated.seat == 3
    await host.send(m.Host(table=made.table, token=made.host, op="blinds", sb=50, bb=100))
    said = await ana.wait_for(lambda x: isinstance(x, m.ChatEvent) and x.player == "host", 5)
    assert isinstance(said, m.ChatEvent)
    status, body = server.get(f"/api/tables/{made.table}/ledger.csv?t={made.host}")
    assert status == 200 and ",buy_in," in body.decode() and ",Ana,2000," in body.decode()
