"""Benchmark: a flood of account registrations from one address, against another member's
logins and a table's pings, measured in the same run (issue 26).

    python bench/accounts_flood.py [--seconds 10] [--connections 4] [--rounds 3]

A real ``python -m server`` (default limits). Each phase lasts SECONDS:

- ``idle`` (the reference): a friend on 127.0.0.1 pings the server every 20 ms, and ana, a
  member, logs in every 0.5 s from 127.0.0.3 (each login on a fresh connection);
- ``flood``: the same, while CONNECTIONS connections of one address register new accounts
  in a loop (each sends the next as soon as the last is answered, under the frame rate
  limit), from a process of their own (their client work must not delay the friend's
  pings).

The two phases alternate ROUNDS times (idle, flood, idle, flood...), each flood from a fresh
address (127.0.0.10, .11...) so that every round meets a full registration bucket: a ping's
p99 is a handful of samples, and a shared machine's noise drifts, so one pair of phases says
little. The pings' p99 is taken over every round's samples pooled (the ratio: flood / idle),
and per round.

The same runs again on a second server started with ``--max-accounts-per-address 0``: no
registration bucket, so only the hashing lanes (logins first, registrations on one worker
fewer: server.gateway.accounts) keep the logins answered, while every registration costs a
full Scrypt hash.

Printed per phase: the pings' and the logins' p50 and p99, the logins' answers, the
registrations accepted and refused, the accounts stored, the server's CPU. The last line
reads ``accounts_flood: logins p99 X ms (B busy) pings p99 Y ms = R x idle; unlimited:
logins p99 X2 ms (B2 busy) pings R2 x idle`` (ratios against the idle phases of the same
server). The acceptance (issue 26): logins all answered with p99 under 1 s, pings within
1.5x of idle.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import multiprocessing
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import websockets

from protocol import PROTOCOL_VERSION, decode_server, encode
from protocol import messages as m
from tests.integration.wsclient import Server

PASSWORD = "la bonne main 2026"
FRIEND, MEMBER = "127.0.0.1", "127.0.0.3"


def flood_address(round_: int) -> str:
    """The flooding address of a round (a fresh one each time: a full bucket)."""
    return f"127.0.0.{10 + round_}"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile in milliseconds (0 when nothing was measured)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


async def connect(port: int, source: str) -> Any:
    ws = await websockets.connect(
        f"ws://127.0.0.1:{port}/ws", local_addr=(source, 0), max_size=2**22
    )
    await ws.send(encode(m.Hello(version=PROTOCOL_VERSION)))
    while not isinstance(decode_server(await ws.recv()), m.Welcome):
        pass
    return ws


async def request(ws: Any, message: m.Message, ref: int) -> m.Message:
    await ws.send(encode(message))
    while True:
        got = decode_server(await ws.recv())
        if getattr(got, "ref", None) == ref:
            return got


async def pinger(port: int, rtts: list[float], stop: asyncio.Event) -> None:
    """The friend at a table: a ping every 20 ms, round trips kept."""
    ws = await connect(port, FRIEND)
    try:
        for n in itertools.count():
            if stop.is_set():
                return
            t0 = time.perf_counter()
            await ws.send(encode(m.Ping(nonce=n)))
            while not isinstance(decode_server(await ws.recv()), m.Pong):
                pass
            rtts.append(time.perf_counter() - t0)
            await asyncio.sleep(0.02)
    finally:
        await ws.close()


async def member(port: int, times: list[float], codes: list[str], stop: asyncio.Event) -> None:
    """Ana logs in every 0.5 s, each time on a fresh connection (the request is timed)."""
    while not stop.is_set():
        ws = await connect(port, MEMBER)
        try:
            t0 = time.perf_counter()
            got = await request(ws, m.AccountLogin(login="ana", password=PASSWORD, id=1), 1)
            times.append(time.perf_counter() - t0)
            codes.append(got.code if isinstance(got, m.Error) else got.TYPE)
        finally:
            await ws.close()
        await asyncio.sleep(0.5)


async def flooder(port: int, address: str, c: int, codes: list[str], stop: asyncio.Event) -> None:
    """One connection creating accounts in a loop (paced under the frame rate limit)."""
    ws = await connect(port, address)
    try:
        for i in itertools.count():
            if stop.is_set():
                return
            login = f"flood{address.rsplit('.', 1)[1]}c{c}x{i}"
            got = await request(ws, m.AccountRegister(login=login, password=PASSWORD, id=i), i)
            codes.append(got.code if isinstance(got, m.Error) else got.TYPE)
            await asyncio.sleep(0.025)
    finally:
        await ws.close()


def flood_process(port: int, address: str, connections: int, seconds: float, out: Any) -> None:
    """The flood, in a process of its own: its client work never delays the friend's pings
    (which would count against the server)."""

    async def run() -> list[str]:
        stop = asyncio.Event()
        flooded: list[str] = []
        tasks = [
            asyncio.create_task(flooder(port, address, c, flooded, stop))
            for c in range(connections)
        ]
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        return flooded

    out.put(asyncio.run(run()))


async def phase(
    server: Server, seconds: float, connections: int, address: str = ""
) -> dict[str, Any]:
    """One phase: its raw samples (``rtts``, ``logins``, ``answers``, ``flooded``) and the
    server's CPU."""
    assert server.proc is not None
    stop = asyncio.Event()
    rtts: list[float] = []
    logins: list[float] = []
    answers: list[str] = []
    flooded: list[str] = []
    cpu0 = cpu_seconds(server.proc.pid)
    results: Any = multiprocessing.Queue()
    flood = multiprocessing.Process(
        target=flood_process, args=(server.port, address, connections, seconds, results)
    )
    if connections:
        flood.start()
    tasks = [
        asyncio.create_task(pinger(server.port, rtts, stop)),
        asyncio.create_task(member(server.port, logins, answers, stop)),
    ]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 60)
    if connections:
        flooded = await asyncio.to_thread(results.get, True, 60)
        flood.join(10)
    cpu = cpu_seconds(server.proc.pid) - cpu0
    return {"rtts": rtts, "logins": logins, "answers": answers, "flooded": flooded, "cpu": cpu}


def summary(phases: list[dict[str, Any]]) -> dict[str, Any]:
    """The phases' samples pooled, and each phase's ping p99."""
    rtts = [x for p in phases for x in p["rtts"]]
    logins = [x for p in phases for x in p["logins"]]
    answers = [x for p in phases for x in p["answers"]]
    flooded = [x for p in phases for x in p["flooded"]]
    return {
        "ping_p50_ms": round(pct(rtts, 0.5), 2),
        "ping_p99_ms": round(pct(rtts, 0.99), 2),
        "ping_p99_ms_per_round": [round(pct(p["rtts"], 0.99), 2) for p in phases],
        "pings": len(rtts),
        "login_p50_ms": round(pct(logins, 0.5), 1),
        "login_p99_ms": round(pct(logins, 0.99), 1),
        "logins": len(logins),
        "logins_ok": answers.count("account"),
        "logins_busy": answers.count("busy"),
        "login_answers": sorted(set(answers)),
        "registrations_sent": len(flooded),
        "registrations_accepted": flooded.count("account"),
        "registrations_refused": {k: flooded.count(k) for k in sorted(set(flooded) - {"account"})},
        "server_cpu_s": round(sum(p["cpu"] for p in phases), 2),
    }


async def measure(server: Server, seconds: float, connections: int, rounds: int) -> dict[str, Any]:
    ws = await connect(server.port, FRIEND)
    made = await request(ws, m.AccountRegister(login="ana", password=PASSWORD, id=1), 1)
    await ws.close()
    assert isinstance(made, m.Account), made
    idle: list[dict[str, Any]] = []
    flood: list[dict[str, Any]] = []
    for r in range(rounds):
        idle.append(await phase(server, seconds, 0))
        flood.append(await phase(server, seconds, connections, flood_address(r)))
    return {"idle": summary(idle), "flood": summary(flood)}


def stored(data: Path) -> int:
    db = sqlite3.connect(data / "members.sqlite")
    try:
        (count,) = db.execute("SELECT COUNT(*) FROM members").fetchone()
    finally:
        db.close()
    return int(count)


def run_server(
    tmp: Path, name: str, seconds: float, connections: int, rounds: int = 1, **options: Any
) -> Any:
    server = Server(tmp / name, **options)
    server.start()
    try:
        out = asyncio.run(measure(server, seconds, connections, rounds))
    finally:
        server.stop()
    out["flood"]["accounts_stored"] = stored(server.data)
    out["log_errors"] = server.stderr().count("Traceback")
    return out


def ratio(out: dict[str, Any]) -> float:
    return float(out["flood"]["ping_p99_ms"] / max(out["idle"]["ping_p99_ms"], 1e-3))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--connections", type=int, default=4)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        limited = run_server(Path(tmp), "limited", args.seconds, args.connections, args.rounds)
        unlimited = run_server(
            Path(tmp),
            "unlimited",
            args.seconds,
            args.connections,
            args.rounds,
            max_accounts_per_address=0,
        )
    for name, out in (("default limits", limited), ("no registration bucket", unlimited)):
        for key in ("idle", "flood"):
            print(f"{name} / {key}: {out[key]}", flush=True)
        print(f"{name}: server log tracebacks {out['log_errors']}")
    flood, free = limited["flood"], unlimited["flood"]
    print(
        f"accounts_flood: logins p99 {flood['login_p99_ms']:.0f} ms ({flood['logins_busy']} busy)"
        f" pings p99 {flood['ping_p99_ms']:.2f} ms = {ratio(limited):.2f} x idle;"
        f" unlimited: logins p99 {free['login_p99_ms']:.0f} ms ({free['logins_busy']} busy)"
        f" pings {ratio(unlimited):.2f} x idle"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
