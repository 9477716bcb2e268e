"""Fixtures shared by every test directory: a real Redis server for the multi-process parts."""

from __future__ import annotations

import os
from collections.abc import Iterator
from uuid import uuid4

import pytest

from .redis_server import RedisServer


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
