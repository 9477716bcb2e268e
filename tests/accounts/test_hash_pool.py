"""The hashing threads' lanes (issue 26: « registrations starve logins »): logins go first
and may use every worker, registrations one worker fewer, each lane with its own queue."""

from __future__ import annotations

import asyncio
import threading

import pytest

from server.gateway.accounts import HashPool, Lane


def pool() -> HashPool:
    return HashPool(
        2, queues={Lane.LOGIN: 16, Lane.REGISTER: 4}, shares={Lane.LOGIN: 2, Lane.REGISTER: 1}
    )


@pytest.mark.asyncio
async def test_registrations_keep_a_worker_free_and_logins_go_first() -> None:
    hashes = pool()
    gate = threading.Event()
    order: list[str] = []

    def work(name: str) -> str:
        gate.wait(10)
        order.append(name)
        return name

    registrations = [
        asyncio.create_task(hashes.run(Lane.REGISTER, work, f"r{k}")) for k in range(4)
    ]
    await asyncio.sleep(0.05)
    assert hashes.running[Lane.REGISTER] == 1  # one worker, whatever the flood
    # a login arriving behind four registrations starts at once on the free worker
    login = asyncio.create_task(hashes.run(Lane.LOGIN, work, "login"))
    await asyncio.sleep(0.05)
    assert hashes.running[Lane.LOGIN] == 1
    gate.set()
    assert await login == "login"
    assert [await r for r in registrations] == ["r0", "r1", "r2", "r3"]
    assert sum(hashes.running.values()) == 0


@pytest.mark.asyncio
async def test_waiting_logins_are_served_before_waiting_registrations() -> None:
    hashes = pool()
    gates = [threading.Event() for _ in range(2)]
    order: list[str] = []

    def hold(k: int) -> None:
        gates[k].wait(10)

    def work(name: str) -> None:
        order.append(name)

    busy = [asyncio.create_task(hashes.run(Lane.LOGIN, hold, k)) for k in range(2)]
    await asyncio.sleep(0.05)
    waiting = [asyncio.create_task(hashes.run(Lane.REGISTER, work, "r"))]
    waiting += [asyncio.create_task(hashes.run(Lane.LOGIN, work, f"l{k}")) for k in range(2)]
    await asyncio.sleep(0.05)
    gates[0].set()  # one worker frees: the waiting logins before the registration
    await asyncio.gather(*waiting[1:])
    gates[1].set()
    await asyncio.gather(*busy, *waiting)
    assert order.index("r") == 2 and set(order[:2]) == {"l0", "l1"}


def test_each_lane_has_its_own_queue() -> None:
    hashes = pool()
    assert all(hashes.admit(Lane.REGISTER) for _ in range(4))
    assert not hashes.admit(Lane.REGISTER)
    assert all(hashes.admit(Lane.LOGIN) for _ in range(16))  # a full register queue is apart
    assert not hashes.admit(Lane.LOGIN)
    hashes.done(Lane.REGISTER)
    assert hashes.admit(Lane.REGISTER)


@pytest.mark.asyncio
async def test_a_cancelled_wait_gives_its_place_back() -> None:
    hashes = HashPool(1, queues={Lane.LOGIN: 4, Lane.REGISTER: 4}, shares=dict.fromkeys(Lane, 1))
    gate = threading.Event()
    first = asyncio.create_task(hashes.run(Lane.LOGIN, gate.wait, 10))
    await asyncio.sleep(0.05)
    second = asyncio.create_task(hashes.run(Lane.LOGIN, lambda: "second"))
    await asyncio.sleep(0.01)
    second.cancel()
    gate.set()
    await first
    with pytest.raises(asyncio.CancelledError):
        await second
    assert await hashes.run(Lane.REGISTER, lambda: "after") == "after"
    assert sum(hashes.running.values()) == 0
