"""The pieces of bench/tournament_live.py, also used by the failover test of the load tester
(tests/bots/test_loadtest_failover.py): K server processes on one Redis (:class:`Cluster`), the
audit of a finished tournament (results, chips), the director's decision latency read from the
Redis streams, and a CPU / memory sampler of the processes involved.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import msgpack
import redis

from bots.launch import ROOT, ServerProcess, cpu_seconds, rss_kib
from bots.stats import Histogram

__all__ = [
    "ChipAudit",
    "Cluster",
    "Decisions",
    "ReportWatch",
    "Sampler",
    "audit_chips",
    "check_results",
    "children",
    "read_decisions",
]

Entry = tuple[bytes, dict[bytes, bytes]]
"""A stream entry: id, fields."""


class Cluster:
    """K server processes on one Redis (key prefix ``prefix``), sharing its tournaments."""

    def __init__(
        self,
        root: Path,
        redis_url: str,
        prefix: str,
        processes: int,
        *,
        clock_speed: float = 30.0,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.root = root
        self.redis_url = redis_url
        self.prefix = prefix
        self.servers = [
            ServerProcess(
                root / f"p{i}",
                clock_speed=clock_speed,
                redis=redis_url,
                redis_prefix=prefix,
                process_id=f"p{i}",
                env=env,
            )
            for i in range(processes)
        ]

    @property
    def urls(self) -> list[str]:
        return [s.url for s in self.servers]

    def tournament_prefix(self, tid: str) -> str:
        return f"{self.prefix}:t:{tid}"

    def create(self, tid: str, text: str) -> str:
        """Record the tournament in Redis (the CLI); its output (with the director's link)."""
        path = self.root / f"{tid}.toml"
        self.root.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        created = subprocess.run(
            [
                *(sys.executable, "-m", "server", "tournament", "create", str(path)),
                *("--id", tid, "--redis", self.redis_url, "--redis-prefix", self.prefix),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        if created.returncode != 0:
            raise RuntimeError(f"tournament create failed: {created.stderr[-2000:]}")
        return created.stdout

    def start(self) -> Cluster:
        for server in self.servers:
            server.launch()
        for server in self.servers:
            server.wait_ready(60)
        return self

    def stop(self) -> None:
        for server in self.servers:
            server.stop()

    def live(self) -> list[ServerProcess]:
        return [s for s in self.servers if s.alive()]

    def holder(self, client: redis.Redis, tid: str) -> int | None:
        """Index of the process holding the tournament's director lease."""
        raw = client.get(f"{self.tournament_prefix(tid)}:lease")
        names = [f"p{i}" for i in range(len(self.servers))]
        name = raw.decode() if isinstance(raw, bytes) else None
        return names.index(name) if name in names else None

    def get(self, path: str, timeout: float = 5.0) -> tuple[int, bytes]:
        """GET ``path`` from the first live process."""
        for server in self.live():
            url = f"http://127.0.0.1:{server.port}{path}"
            try:
                with urllib.request.urlopen(url, timeout=timeout) as response:
                    return int(response.status), bytes(response.read())
            except urllib.error.HTTPError as exc:
                return int(exc.code), bytes(exc.read())
            except OSError:
                continue
        return 0, b""

    def metric(self, name: str, servers: list[ServerProcess] | None = None) -> int:
        """Sum of a counter (``/metrics``) over ``servers`` (default: the live processes)."""
        total = 0
        for server in self.live() if servers is None else servers:
            with contextlib.suppress(OSError, ValueError):
                url = f"http://127.0.0.1:{server.port}/metrics"
                with urllib.request.urlopen(url, timeout=2) as response:
                    for line in response.read().decode().splitlines():
                        if line.startswith(name + " "):
                            total += int(float(line.split()[1]))
        return total


# ---------------------------------------------------------------------- the audit


def check_results(rows: list[dict[str, Any]], players: int) -> list[str]:
    """Every player ranked exactly once, one winner, places consistent (players busted in one
    hand share a place, cdc 1.10)."""
    problems = []
    ids = [r["player_id"] for r in rows]
    if len(rows) != players or len(set(ids)) != players:
        problems.append(f"results: {len(rows)} rows, {len(set(ids))} players (want {players})")
    places = [int(r["place"]) for r in rows]
    if places.count(1) != 1:
        problems.append(f"results: {places.count(1)} winners")
    wrong = [p for p in places if p != 1 + sum(q < p for q in places)]
    if wrong:
        problems.append(f"results: inconsistent places {sorted(set(wrong))[:10]}")
    return problems


@dataclass
class ChipAudit:
    hands: int = 0
    """Hands played to their end (start and end both in the store)."""
    cancelled: int = 0
    """Hands cancelled with every bet returned (cut by a crash, or called off)."""
    unbalanced: list[str] = field(default_factory=list)
    winner_chips: int = 0
    """The largest stack at any hand's end (the winner's, at the last one)."""
    tables: int = 0


def audit_chips(client: redis.Redis, tprefix: str) -> ChipAudit:
    """Every hand ends with the chips it started with (a hand cut by a killed process is
    cancelled with the start-of-hand stacks), from the tables' event logs in Redis."""
    from server.tournament.redis_store import RedisTableStore

    store = RedisTableStore(client, tprefix)
    audit = ChipAudit()
    for table in store.tables():
        audit.tables += 1
        starts: dict[int, dict[str, int]] = {}
        for _seq, kind, payload in store.events_after(table, 0, limit=-1):
            if kind == "hand_start":
                starts[payload["hand"]] = payload["stacks"]
            elif kind == "hand_end" and payload["hand"] in starts:
                start, end = starts.pop(payload["hand"]), payload["stacks"]
                if payload.get("cancelled"):
                    audit.cancelled += 1  # cut by a crash (or called off): dealt again
                else:
                    audit.hands += 1
                before, after = sum(start.values()), sum(end.get(s, 0) for s in start)
                if before != after:
                    audit.unbalanced.append(f"{table} hand {payload['hand']}: {before} -> {after}")
                audit.winner_chips = max(audit.winner_chips, *end.values(), 0)
    return audit


# ---------------------------------------------------------------------- the director's latency


def _ms(stream_id: bytes | str) -> tuple[int, int]:
    text = stream_id.decode() if isinstance(stream_id, bytes) else stream_id
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)


class ReportWatch(threading.Thread):
    """Reads the tournament's report stream as it grows (the director trims it), keeping when
    each table said it is ``ready`` to deal; counts its own Redis commands."""

    def __init__(self, url: str, key: str) -> None:
        super().__init__(daemon=True, name="report-watch")
        self.client = redis.Redis.from_url(url)
        self.key = key
        self.ready: list[tuple[tuple[int, int], int]] = []
        self.kinds: Counter[str] = Counter()
        self.commands = 0
        self.stopped = threading.Event()

    def run(self) -> None:
        last: bytes | str = "0-0"
        while not self.stopped.is_set():
            try:
                answer = self.client.xread({self.key: last}, count=2000, block=300)
            except redis.RedisError:
                time.sleep(0.2)
                continue
            finally:
                self.commands += 1
            for _stream, entries in cast(list[tuple[bytes, list[Entry]]], answer or []):
                for raw_id, fields in entries:
                    last = raw_id
                    kind, data, _proc = msgpack.unpackb(fields[b"r"], raw=False)
                    self.kinds[kind] += 1
                    if kind == "ready":
                        self.ready.append((_ms(raw_id), int(data["table"])))

    def stop(self) -> None:
        self.stopped.set()
        self.join(5)


def _tables_named(decision: Any) -> set[int]:
    from server.tournament.decisions import FinalTable

    if isinstance(decision, FinalTable):
        return {decision.table.table_id, *decision.closed_tables}
    table = getattr(decision, "table_id", None)
    return {table} if isinstance(table, int) else set()


@dataclass
class Decisions:
    batches: int = 0
    moves: int = 0
    first_deal: tuple[int, int] | None = None
    finished: tuple[int, int] | None = None
    latency: Histogram = field(default_factory=Histogram)
    unanswered: int = 0
    """``ready`` reports no batch answered (the last ones of a finished tournament)."""
    undecodable: int = 0


def read_decisions(
    client: redis.Redis, tprefix: str, config: str, ready: list[tuple[tuple[int, int], int]]
) -> Decisions:
    """Walk the decisions stream: the director's moves, the first deal, the end, and for every
    ``ready`` report the delay to the first batch naming its table."""
    from server.tournament import decisions as d
    from server.tournament.live import load_tournament
    from server.tournament.redis_state import load

    tconfig = load_tournament(config)[0]
    out = Decisions()
    pending: dict[int, list[tuple[int, int]]] = {}
    readies = iter(sorted(ready))
    upcoming = next(readies, None)
    for raw_id, fields in _stream(client, f"{tprefix}:decisions"):
        at = _ms(raw_id)
        while upcoming is not None and upcoming[0] <= at:
            pending.setdefault(upcoming[1], []).append(upcoming[0])
            upcoming = next(readies, None)
        out.batches += 1
        try:
            batch = load(fields[b"b"], tconfig)
        except Exception:  # another server version's encoding: counted, not fatal
            out.undecodable += 1
            continue
        for dec in batch["decisions"]:
            if isinstance(dec, d.Deal) and out.first_deal is None:
                out.first_deal = at
            if isinstance(dec, d.Finished):
                out.finished = at
            out.moves += _moves(dec)
            for table in _tables_named(dec):
                for since in pending.pop(table, []):
                    out.latency.add((at[0] - since[0]) / 1000)
    out.unanswered = sum(len(v) for v in pending.values())
    return out


def _moves(dec: Any) -> int:
    from server.tournament import decisions as d

    if isinstance(dec, d.MovePlayer):
        return 1
    if isinstance(dec, d.BreakTable | d.FinalTable):
        return len(dec.draws)
    return 0


def _stream(client: redis.Redis, key: str) -> Iterator[Entry]:
    start = "-"
    while True:
        chunk = cast(list[Entry], client.xrange(key, min=start, count=500))
        if not chunk:
            return
        yield from chunk
        last = _ms(chunk[-1][0])
        start = f"{last[0]}-{last[1] + 1}"


# ---------------------------------------------------------------------- sampling


class Sampler(threading.Thread):
    """CPU seconds and peak resident memory of named processes, every second."""

    def __init__(self, pids: Callable[[], dict[str, list[int]]]) -> None:
        super().__init__(daemon=True, name="sampler")
        self.pids = pids
        self.cpu: dict[str, float] = {}
        self.seen: dict[int, tuple[str, float]] = {}
        self.peak_kib: dict[str, int] = {}
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(1.0):
            self.sample()

    def sample(self) -> None:
        for name, pids in self.pids().items():
            rss = 0
            for pid in pids:
                used = cpu_seconds(pid)
                if used is not None:
                    self.seen[pid] = (name, used)
                rss += rss_kib(pid) or 0
            self.peak_kib[name] = max(self.peak_kib.get(name, 0), rss)
        totals: dict[str, float] = {}
        for name, used in self.seen.values():
            totals[name] = totals.get(name, 0.0) + used
        self.cpu = totals

    def stop(self) -> None:
        self.stopped.set()
        self.join(5)
        self.sample()


def children(pid: int) -> list[int]:
    """``pid`` and its descendants (from /proc)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo += parents.get(p, [])
    return found
