"""The answer to ``sit`` in the order docs/protocol.md gives ("Sit"): a ``snapshot`` with
the seat's view, the private ``seated`` (echoing the ``id``), then the ``seat`` event
``connected`` (issue 29, item 12: the docs and the server disagreed)."""

from __future__ import annotations

import pytest

from protocol import messages as m

from .conftest import Launch
from .wsclient import WsClient


@pytest.mark.asyncio
async def test_sit_answers_snapshot_then_seated_then_connected(launch: Launch) -> None:
    server = launch()
    client = await WsClient.connect(server.port, "ana")
    await client.send(m.Hello(version=m.PROTOCOL_VERSION, nickname="ana"))
    await client.wait_type(m.Welcome, 5)
    await client.send(m.TakeSeat(table="friends", seat=3, token=server.invite, id=7))
    await client.wait_for(lambda x: isinstance(x, m.SeatEvent) and x.status == "connected", 5)
    kinds = [
        type(x).__name__
        for x in client.messages
        if isinstance(x, m.Snapshot | m.Seated | m.SeatEvent)
    ]
    assert kinds[:3] == ["Snapshot", "Seated", "SeatEvent"], kinds
    seated = next(x for x in client.messages if isinstance(x, m.Seated))
    assert seated.ref == 7 and seated.seat == 3
