"""Fixtures of the acceptance tests: real ``python -m server`` processes on free ports."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from server.table.config import TableConfig

from .wsclient import OPEN, Server, seed_tables

Launch = Callable[..., Server]


@pytest.fixture
def launch(tmp_path: Path) -> Iterator[Launch]:
    """``launch(name="data", tables=(TableConfig, ...), **cli_options)`` starts a server (the
    tables, if given, are written to its store first); every one is stopped at the end."""
    servers: list[Server] = []

    def start(name: str = "data", tables: tuple[TableConfig, ...] = (), **options: Any) -> Server:
        data = tmp_path / name
        if tables:
            seed_tables(data, *tables)
        server = Server(data, **options)
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()


@pytest_asyncio.fixture(autouse=True)
async def _close_clients(launch: Launch) -> AsyncIterator[None]:
    """Close every websocket a test left open, before its servers stop (they then stop at
    once instead of waiting for closing handshakes that never come)."""
    yield
    for client in list(OPEN):
        await client.close()
