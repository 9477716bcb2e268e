"""Benchmark: what each flood of issue 11 costs a real server now, against the cost of the
same number of ordinary requests in the same run.

    python bench/floods.py [--count 2000]

A real ``python -m server`` (default limits, a 1,024-descriptor limit as in the report) is
flooded from 127.0.0.2 while a friend on 127.0.0.1 pings it every 20 ms:

- ``idle_sockets``: COUNT TCP connections that never send anything;
- ``mute_websockets``: websockets that never say hello (up to the address's cap);
- ``table_creates``: ``create`` from 20 connections (COUNT frames in all);
- ``registrations``: ``register`` under new nicknames from 20 connections (COUNT in all).

For each: the server's CPU seconds spent (from /proc), the descriptors it held at most, what
got through, and the friend's ping p99 during the flood. The reference is the server's CPU
for COUNT ``ping`` frames from the friend in the same run: each flood's cost is printed as a
ratio to it. The last line reads ``floods: idle X mute Y creates Z registrations W`` (ratios).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import websockets

from protocol import PROTOCOL_VERSION, decode_server, encode
from protocol import messages as m
from tests.integration.wsclient import ROOT, Server

STRANGER = "127.0.0.2"
LIMITS = {
    "max_connections_per_address": 64,
    "max_tables_per_address": 10,
    "max_tables_per_connection": 5,
    "max_registrations_per_address": 6,
}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


class Pinger:
    """The friend: a ping every 20 ms, round trips kept."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.rtts: list[float] = []
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        async with websockets.connect(f"ws://127.0.0.1:{self.port}/ws", max_size=2**22) as ws:
            await ws.send(encode(m.Hello(version=PROTOCOL_VERSION, nickname="friend")))
            await ws.recv()
            n = 0
            while True:
                n += 1
                t0 = time.perf_counter()
                await ws.send(encode(m.Ping(nonce=n)))
                while not isinstance(decode_server(await ws.recv()), m.Pong):
                    pass
                self.rtts.append(time.perf_counter() - t0)
                await asyncio.sleep(0.02)

    def window(self) -> list[float]:
        out, self.rtts = self.rtts, []
        return out


def p99(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


async def reference(port: int, count: int) -> None:
    """The same number of ordinary frames: pings from 20 connections of the friend's."""

    async def one(n: int) -> None:
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws") as ws:
            await ws.send(encode(m.Hello(version=PROTOCOL_VERSION, nickname="ref")))
            await ws.recv()
            for i in range(n):
                await ws.send(encode(m.Ping(nonce=i)))
                await ws.recv()
                if i % 40 == 39:
                    await asyncio.sleep(1.0)  # under the frame rate limit

    await asyncio.gather(*(one(count // 20) for _ in range(20)))


async def idle_sockets(port: int, count: int) -> dict[str, Any]:
    socks = []
    for _ in range(count):
        sock = socket.socket()
        sock.setblocking(False)
        sock.bind((STRANGER, 0))
        with contextlib.suppress(BlockingIOError):
            sock.connect(("127.0.0.1", port))
        socks.append(sock)
    await asyncio.sleep(3.0)
    for sock in socks:
        sock.close()
    return {"sockets": count}


async def mute_websockets(port: int, count: int) -> dict[str, Any]:
    opened, refused = 0, 0
    conns = []
    for _ in range(min(count, 200)):
        try:
            ws = await websockets.connect(
                f"ws://127.0.0.1:{port}/ws", local_addr=(STRANGER, 0), open_timeout=3
            )
        except Exception:
            refused += 1
            continue
        opened += 1
        conns.append(ws)
    await asyncio.sleep(11.0)  # past the hello deadline
    closed = sum(ws.close_code is not None for ws in conns)
    for ws in conns:
        await ws.close()
    return {"opened": opened, "refused": refused, "closed_by_deadline": closed}


async def frames(port: int, count: int, make: Any, ok: type[m.Message]) -> dict[str, Any]:
    """COUNT requests from 20 connections of the stranger at once, each under the frame rate
    limit (so that what stops them is the limit under test, not the frame bucket)."""
    got, refused = 0, 0

    async def one(c: int, n: int) -> None:
        nonlocal got, refused
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws", local_addr=(STRANGER, 0)) as ws:
            for i in range(n):
                await ws.send(encode(m.Hello(version=PROTOCOL_VERSION, nickname=f"n{c}-{i}")))
                await ws.send(encode(make(i)))
                while True:
                    msg = decode_server(await ws.recv())
                    if isinstance(msg, ok):
                        got += 1
                        break
                    if isinstance(msg, m.Error):
                        refused += 1
                        break
                if i % 20 == 19:
                    await asyncio.sleep(1.0)

    await asyncio.gather(*(one(c, count // 20) for c in range(20)))
    return {"accepted": got, "refused": refused}


async def measure(server: Server, count: int) -> dict[str, dict[str, Any]]:
    assert server.proc is not None
    pid = server.proc.pid
    pinger = Pinger(server.port)
    pinger.task = asyncio.create_task(pinger.run())
    await asyncio.sleep(1.0)
    out: dict[str, dict[str, Any]] = {}
    runs = {
        "reference_pings": lambda: reference(server.port, count),
        "idle_sockets": lambda: idle_sockets(server.port, count),
        "mute_websockets": lambda: mute_websockets(server.port, count),
        "table_creates": lambda: frames(
            server.port, count, lambda i: m.CreateTable(id=i, name="x"), m.TableCreated
        ),
        "registrations": lambda: frames(
            server.port, count, lambda i: m.Register(tournament="sng", id=i), m.Registered
        ),
    }
    for name, run in runs.items():
        pinger.window()
        cpu0 = cpu_seconds(pid)
        peak = descriptors(pid)
        task = asyncio.create_task(run())
        while not task.done():
            peak = max(peak, descriptors(pid))
            await asyncio.sleep(0.05)
        result = task.result() or {"frames": count}
        rtts = pinger.window()
        out[name] = {
            **result,
            "server_cpu_s": round(cpu_seconds(pid) - cpu0, 3),
            "peak_descriptors": peak,
            "friend_ping_p99_ms": round(p99(rtts), 2),
            "friend_ping_median_ms": round(statistics.median(rtts) * 1000, 2) if rtts else 0,
            "healthz_ok": server.healthy(),
        }
        print(name, out[name], flush=True)
    pinger.task.cancel()
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--count", type=int, default=2000)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        subprocess.run(
            [
                sys.executable,
                *("-m", "server", "tournament", "create", "docs/tournaments/ligue_sit_and_go.toml"),
                *("--id", "sng", "--data", str(data)),
            ],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        server = Server(data, **LIMITS)
        server.nofile = 1024
        server.start()
        try:
            out = asyncio.run(measure(server, args.count))
        finally:
            server.stop()
        errors = server.stderr().count("Traceback") + server.stderr().count("Too many open")
    ref = max(out["reference_pings"]["server_cpu_s"], 1e-3)
    ratios = {k: v["server_cpu_s"] / ref for k, v in out.items() if k != "reference_pings"}
    print(f"server log errors: {errors}")
    print(
        f"floods: idle {ratios['idle_sockets']:.2f} mute {ratios['mute_websockets']:.2f} "
        f"creates {ratios['table_creates']:.2f} registrations {ratios['registrations']:.2f}"
    )


if __name__ == "__main__":
    main()
