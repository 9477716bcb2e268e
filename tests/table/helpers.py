"""In-process clients for table actor tests (the real codec, no network)."""

from __future__ import annotations

import itertools
from typing import Any

from protocol import decode_server
from protocol import messages as m
from server.dealing import Signer
from server.table import commands as tc
from server.table.actor import TableActor
from server.table.clock import FakeClock
from server.table.config import TableConfig
from server.table.dealer import CsprngDealer

_ids = itertools.count(1)


class RecordingClient:
    """Decodes every frame the table sends, as a bot would."""

    def __init__(self, pid: str | None = None) -> None:
        self.cid = f"c{next(_ids)}"
        self.pid = pid
        self.received: list[m.Message] = []
        self.kicked: tuple[str, str] | None = None

    def deliver(self, data: bytes) -> None:
        self.received.append(decode_server(data))

    def kick(self, code: str, reason: str) -> None:
        self.kicked = (code, reason)

    def of(self, cls: type[Any]) -> list[Any]:
        return [msg for msg in self.received if isinstance(msg, cls)]

    def seqs(self) -> list[int]:
        return [msg.seq for msg in self.received if hasattr(msg, "seq")]


def make_table(**overrides: Any) -> tuple[TableActor, FakeClock]:
    clock = FakeClock()
    config = TableConfig(table_id=overrides.pop("table_id", "t1"), **overrides)
    actor = TableActor(config, clock, CsprngDealer(Signer.generate()))
    return actor, clock


async def settle() -> None:
    import asyncio

    for _ in range(20):
        await asyncio.sleep(0)


async def seat_players(actor: TableActor, n: int) -> list[RecordingClient]:
    """Players p1..pn sit at seats 1..n (the gateway already checked their tokens)."""
    clients = []
    for k in range(1, n + 1):
        client = RecordingClient(pid=f"p{k}")
        actor.post(tc.Sit(conn=tc.Conn(client.cid, f"p{k}"), seat=k, name=f"Player{k}"), client)
        clients.append(client)
    await settle()
    return clients


def send(actor: TableActor, client: RecordingClient, message: m.Message) -> None:
    """A client's message, as the gateway hands it to the table."""
    actor.post(tc.from_message(actor.conn(client), message), client)


def watch(actor: TableActor, client: RecordingClient, last_seq: int | None = None) -> None:
    actor.post(tc.Watch(conn=actor.conn(client), last_seq=last_seq), client)
