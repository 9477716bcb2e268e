"""Fixtures shared by every test directory: a real Redis server for the multi-process parts."""

from __future__ import annotations

import os
from collections.abc import Iterator
from uuid import uuid4

import pytest

from .redis_server import RedisServer

# Every client of the suite's servers connects from 127.0.0.1: to the per-address limits they
# are one person (hundreds of bots registering, tables created by the dozen). The servers the
# suite starts lift those limits through the environment; tests/integration/test_limits.py
# passes the defaults explicitly and checks them.
for _name in (
    "MAX_CONNECTIONS_PER_ADDRESS",
    "MAX_TABLES_PER_ADDRESS",
    "MAX_TABLES_PER_CONNECTION",
    "MAX_REGISTRATIONS_PER_ADDRESS",
):
    os.environ.setdefault(f"BRASSEUR_{_name}", "0")


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """``$REDIS_URL`` if set, else a ``redis-server`` started for the session."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    with RedisServer() as server:
        yield server.url


@pytest.fixture
def redis_prefix() -> str:
    """A key prefix of its own for each test (tests share one server)."""
    return f"test:{uuid4().hex[:8]}"
