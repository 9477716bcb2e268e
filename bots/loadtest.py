"""The load tester: ``python -m bots.loadtest --url ws://HOST:PORT/ws --tables N --players P
--duration S``, or ``--tournament ID --players P`` for a tournament.

It creates N tables (``create``), seats P bots at each, lets them play for S seconds and prints a
live progress line (hands, actions/s, p50/p99 latency from sending an ``act`` to receiving its
``action`` broadcast, errors, invariant violations) and a final JSON report (stdout, or
``--report FILE``). All bots of a process share one asyncio loop; ``--processes K`` splits the
tables across K processes. Throughput and latency are measured over the S seconds after every
table is set up; errors and violations are counted from the first connection.

Tournament mode (``--tournament ID``): P bots register for the tournament ID and play it to
the end (:mod:`bots.loadtest_tournament`; ``--duration`` is then the longest wait). ``--url``
may be given several times (or as a comma-separated list): the server processes sharing the
tournament's Redis; the bots spread over them and, when one dies, reconnect to another. With
``--director TOKEN`` the first process starts it from the director's console once everyone is
registered; otherwise it starts by itself (``start_when_registered``) or from the console.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing as mp
import queue
import random
import resource
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import loadtest_tournament as tour
from .client import Bot, BotError
from .load_config import LoadConfig
from .notebook import Notebook
from .stats import Histogram, Stats
from .strategies import make_strategy

__all__ = ["LoadConfig", "main", "run", "summarize", "ws_urls"]


def _raise_fd_limit() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# ---------------------------------------------------------------------- one process


async def _setup_table(
    cfg: LoadConfig,
    index: int,
    stats: Stats,
    notebook: Notebook,
    gate: asyncio.Semaphore,
    rng: random.Random,
) -> list[Bot]:
    bots: list[Bot] = []

    def bot(seat: int) -> Bot:
        return Bot(
            cfg.servers[index % len(cfg.servers)],
            make_strategy(cfg.strategy, random.Random(rng.random())),
            nickname=f"t{index}s{seat}",
            stats=stats,
            notebook=notebook,
            counts_table=seat == 1,
            rebuy=True,
            rng=random.Random(rng.random()),
            compression=cfg.compression,
            trace=cfg.trace,
        )

    try:
        creator = bot(1)
        bots.append(creator)
        async with gate:
            await creator.connect()
            created = await creator.create_table(
                name=f"load-{index}",
                sb=cfg.sb,
                bb=cfg.bb,
                max_seats=max(2, min(10, cfg.players)),
                starting_stack=cfg.starting_stack,
                action_seconds=cfg.action_seconds,
            )
            await creator.take_seat(created.table, 1, created.invite)
        others = [bot(seat) for seat in range(2, cfg.players + 1)]
        bots.extend(others)

        async def sit(seat: int, b: Bot) -> None:
            async with gate:
                await b.connect()
                await b.take_seat(created.table, seat, created.invite)

        # together, so that the first hand is dealt to the whole table
        await asyncio.gather(*(sit(seat, b) for seat, b in enumerate(others, 2)))
    except (BotError, OSError, TimeoutError) as exc:
        code = exc.code if isinstance(exc, BotError) else type(exc).__name__
        stats.error(f"setup:{code}")
    return bots


async def run_worker(
    cfg: LoadConfig,
    first_table: int,
    count: int,
    emit: Callable[[dict[str, Any]], None],
    started: Callable[[], bool],
    ready: Callable[[], None],
) -> None:
    """Set up ``count`` tables, say ``ready``, wait for ``started``, then every second emit the
    cumulative stats; stop after the duration."""
    _raise_fd_limit()
    gc.set_threshold(50_000, 20, 20)  # thousands of bots allocate a lot, and keep little
    stats = Stats()
    notebook = Notebook(stats.violation)
    rng = random.Random(None if cfg.seed is None else cfg.seed + first_table)
    gate = asyncio.Semaphore(cfg.ramp)
    t0 = time.monotonic()
    if cfg.tournament:
        bots = await asyncio.wait_for(
            tour.setup_entrants(cfg, first_table, count, stats, notebook, gate, rng),
            cfg.setup_timeout,
        )
    else:
        groups = await asyncio.wait_for(
            asyncio.gather(
                *(
                    _setup_table(cfg, first_table + i, stats, notebook, gate, rng)
                    for i in range(count)
                )
            ),
            cfg.setup_timeout,
        )
        bots = [b for g in groups for b in g]
    setup = time.monotonic() - t0
    gc.collect()
    gc.freeze()  # the bots live to the end: no need to scan them at every collection
    ready()
    while not started():
        await asyncio.sleep(0.02)
    if cfg.tournament and cfg.director and first_table == 0:
        await tour.start(cfg, bots)
    stats.reset_rates()
    begin = time.monotonic()
    for b in bots:
        b.last_event_at = begin  # a stuck table is silent from now on (setup may be long)
    end = begin + cfg.duration
    if cfg.tournament:
        stall = cfg.stall_seconds or float("inf")
    else:
        stall = cfg.stall_seconds or max(30.0, 3.0 * cfg.action_seconds)
    stalled: set[int] = set()
    while True:
        now = time.monotonic()
        _find_stalls(cfg, bots, stats, stalled, now - stall)
        emit({"stats": stats.to_dict(), "elapsed": now - begin, "setup": setup, "final": False})
        if now >= end or (cfg.tournament and tour.done(bots)):
            break
        if cfg.tournament and cfg.leave_busted:
            tour.release_busted(bots)
        await asyncio.sleep(min(1.0, end - now))
    elapsed = time.monotonic() - begin
    live = sum(1 for b in bots if not b.closed.is_set())
    final = stats.to_dict()
    await asyncio.wait_for(asyncio.gather(*(b.close() for b in bots), return_exceptions=True), 60)
    notebook.flush()
    # violations found by the notebook's last checks count; throughput stays as measured
    final["violations"] = dict(stats.violations)
    final["examples"] = list(stats.examples)
    emit(
        {
            "stats": final,
            "elapsed": elapsed,
            "setup": setup,
            "final": True,
            "bots": len(bots),
            "live": live,
            "checked": notebook.checked,
            **({"tournament": tour.tournament_part(bots)} if cfg.tournament else {}),
        }
    )


def _find_stalls(
    cfg: LoadConfig, bots: list[Bot], stats: Stats, stalled: set[int], since: float
) -> None:
    """A violation for each table silent since ``since`` (once per bot)."""
    for b in bots:
        watched = b.counts_table or (cfg.tournament and not (b.busted or b.tournament_over))
        if watched and id(b) not in stalled and b.last_event_at < since:
            stalled.add(id(b))
            silent = time.monotonic() - b.last_event_at
            stats.violation("table_stalled", f"table {b.table}: no event for {silent:.0f} s")


def _worker_main(cfg: LoadConfig, first: int, count: int, out: Any, ready: Any, start: Any) -> None:
    asyncio.run(
        run_worker(
            cfg,
            first,
            count,
            lambda part: out.put((first, part)),
            start.is_set,
            lambda: ready.put(first),
        )
    )


# ---------------------------------------------------------------------- aggregation


def summarize(cfg: LoadConfig, parts: list[dict[str, Any]]) -> dict[str, Any]:
    total = Stats()
    for part in parts:
        total.merge(Stats.from_dict(part["stats"]))
    elapsed = max((p["elapsed"] for p in parts), default=0.0) or 1e-9

    def ms(p: float) -> float | None:
        v = total.latency.percentile(p)
        return None if v is None else round(v * 1000, 3)

    report: dict[str, Any] = {
        "url": cfg.url,
        "urls": list(cfg.servers),
        "tables": None if cfg.tournament else cfg.tables,
        "players": cfg.players,
        "strategy": cfg.strategy,
        "processes": cfg.processes,
        "duration": round(elapsed, 2),
        "setup_seconds": round(max((p.get("setup", 0.0) for p in parts), default=0.0), 2),
        "bots": sum(p.get("bots", 0) for p in parts),
        "bots_alive_at_end": sum(p.get("live", 0) for p in parts),
        "connections": total.connections,
        "hands": total.hands,
        "hands_per_s": round(total.hands / elapsed, 2),
        "actions": total.actions,
        "actions_per_s": round(total.actions / elapsed, 2),
        "acts": total.acts,
        "latency_ms": {"p50": ms(50), "p90": ms(90), "p99": ms(99), "max": ms(100)},
        "frames_in": total.frames,
        "frames_out": total.sent,
        "errors_total": sum(total.errors.values()),
        "errors": dict(total.errors),
        "expected_errors_total": sum(total.expected_errors.values()),
        "expected_errors": dict(total.expected_errors),
        "violations_total": sum(total.violations.values()),
        "violations": dict(total.violations),
        "violation_examples": total.examples[:40],
        "violation_traces": total.traces[:10],
        "hands_cross_checked": sum(p.get("checked", 0) for p in parts),
        "reconnects": total.reconnects,
        "resyncs": total.resyncs,
        "late_cuts": total.late_cuts,
        "late_acts": total.late_acts,
    }
    if cfg.tournament:
        report["tournament"] = tour.summarize_tournament(cfg.tournament, parts)
    return report


class _Progress:
    def __init__(self, cfg: LoadConfig, out: Any) -> None:
        self.cfg = cfg
        self.out = out
        self.last: dict[int, dict[str, Any]] = {}
        self.prev_actions = 0
        self.prev_hist = Histogram()
        self.prev_t = 0.0
        self.printed = 0.0

    def update(self, worker: int, part: dict[str, Any]) -> None:
        self.last[worker] = part

    def line(self) -> str:
        total = Stats()
        for part in self.last.values():
            total.merge(Stats.from_dict(part["stats"]))
        t = max((p["elapsed"] for p in self.last.values()), default=0.0)
        dt = max(0.5, t - self.prev_t)
        rate = (total.actions - self.prev_actions) / dt
        window = Histogram()
        window.counts = total.latency.counts - self.prev_hist.counts
        window.total = sum(window.counts.values())
        p50, p99 = window.percentile(50), window.percentile(99)
        self.prev_actions, self.prev_hist, self.prev_t = total.actions, total.latency, t

        def f(v: float | None) -> str:
            return "-" if v is None else f"{v * 1000:.1f}ms"

        return (
            f"[{t:5.0f}s] hands {total.hands} actions/s {rate:.0f} p50 {f(p50)} p99 {f(p99)}"
            f" errors {sum(total.errors.values())} violations {sum(total.violations.values())}"
            f" reconnects {total.reconnects}"
        )

    def show(self) -> None:
        now = time.monotonic()
        if now - self.printed < 0.95:
            return
        self.printed = now
        if self.out is not None:
            self.out.write("\r" + self.line() + "   ")
            self.out.flush()


def _split(cfg: LoadConfig) -> list[tuple[int, int]]:
    k = max(1, min(cfg.processes, cfg.units))
    base, extra = divmod(cfg.units, k)
    parts, first = [], 0
    for i in range(k):
        n = base + (1 if i < extra else 0)
        parts.append((first, n))
        first += n
    return parts


async def _run_inprocess(cfg: LoadConfig, progress: _Progress) -> list[dict[str, Any]]:
    finals: list[dict[str, Any]] = []
    state = {"ready": False}

    def emit(part: dict[str, Any]) -> None:
        progress.update(0, part)
        if part["final"]:
            finals.append(part)
        else:
            progress.show()

    await run_worker(
        cfg, 0, cfg.units, emit, lambda: state["ready"], lambda: state.update(ready=True)
    )
    return finals


def _run_processes(cfg: LoadConfig, progress: _Progress) -> list[dict[str, Any]]:
    ctx = mp.get_context("spawn")
    out, ready = ctx.Queue(), ctx.Queue()
    start = ctx.Event()
    procs = []
    for first, count in _split(cfg):
        p = ctx.Process(target=_worker_main, args=(cfg, first, count, out, ready, start))
        p.start()
        procs.append((first, p))
    waiting = {first for first, _ in procs}
    deadline = time.monotonic() + cfg.setup_timeout + 30
    while waiting and time.monotonic() < deadline:
        with contextlib.suppress(queue.Empty):
            waiting.discard(ready.get(timeout=0.5))
        if any(p.exitcode not in (None, 0) for _, p in procs):
            break
    start.set()
    finals: dict[int, dict[str, Any]] = {}
    index = {first: i for i, (first, _) in enumerate(procs)}
    end = time.monotonic() + cfg.duration + cfg.setup_timeout + 120
    while len(finals) < len(procs) and time.monotonic() < end:
        try:
            worker, part = out.get(timeout=0.5)
        except queue.Empty:
            if all(p.exitcode is not None for _, p in procs):
                break
            continue
        progress.update(index[worker], part)
        if part["final"]:
            finals[worker] = part
        else:
            progress.show()
    for _, p in procs:
        p.join(timeout=30)
        if p.is_alive():
            p.terminate()
    return list(finals.values())


def run(cfg: LoadConfig, progress_out: Any = sys.stderr) -> dict[str, Any]:
    """Run the load test and return the report."""
    progress = _Progress(cfg, progress_out)
    if cfg.processes <= 1:
        finals = asyncio.run(_run_inprocess(cfg, progress))
    else:
        finals = _run_processes(cfg, progress)
    if progress_out is not None:
        progress_out.write("\n")
        progress_out.flush()
    report = summarize(cfg, finals)
    report["workers_reporting"] = len(finals)
    return report


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bots.loadtest", description=__doc__)
    p.add_argument(
        "--url",
        required=True,
        action="append",
        help="ws://HOST:PORT/ws; repeat it (or A,B,...) for every process of the deployment",
    )
    p.add_argument("--tables", type=int, default=10)
    p.add_argument("--players", type=int, default=6)
    p.add_argument("--duration", type=float, default=20.0, help="seconds of measured play")
    p.add_argument(
        "--strategy", default="mix", choices=["mix", "random", "calling", "tag", "fuzzer"]
    )
    p.add_argument("--processes", type=int, default=1)
    p.add_argument("--action-seconds", type=int, default=10)
    p.add_argument("--ramp", type=int, default=100, help="connections opened at once")
    p.add_argument("--setup-timeout", type=float, default=300.0)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--compression", choices=["none", "deflate"], default="none")
    p.add_argument("--trace", type=int, default=0, help="messages kept per bot for violations")
    p.add_argument("--stall-seconds", type=float, default=0.0, help="silence = a stuck table")
    p.add_argument("--report", type=Path, default=None, help="write the JSON report here")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.add_argument(
        "--tournament", default=None, help="tournament mode: --players bots register for it"
    )
    p.add_argument("--director", default=None, help="director's token: start it when all are in")
    p.add_argument(
        "--stay-busted", action="store_true", help="tournament: busted bots stay connected"
    )
    return p.parse_args(argv)


def ws_urls(given: list[str]) -> tuple[str, ...]:
    """The ``--url`` values (repeated, or comma-separated), each ending in ``/ws``."""
    urls: list[str] = []
    for item in given:
        for raw in item.split(","):
            url = raw.strip().rstrip("/")
            if url:
                url = url if url.endswith("/ws") else url + "/ws"
                if url not in urls:
                    urls.append(url)
    if not urls:
        raise SystemExit("--url: no server URL given")
    return tuple(urls)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    urls = ws_urls(args.url)
    cfg = LoadConfig(
        url=urls[0],
        urls=urls,
        tables=args.tables,
        players=args.players,
        duration=args.duration,
        strategy=args.strategy,
        processes=args.processes,
        action_seconds=args.action_seconds,
        ramp=args.ramp,
        setup_timeout=args.setup_timeout,
        seed=args.seed,
        compression=None if args.compression == "none" else "deflate",
        trace=args.trace,
        stall_seconds=args.stall_seconds,
        tournament=args.tournament,
        director=args.director,
        leave_busted=not args.stay_busted,
        run_tag=secrets.token_hex(2),
    )
    report = run(cfg, None if args.quiet else sys.stderr)
    text = json.dumps(report, indent=2)
    if args.report is not None:
        args.report.write_text(text + "\n")
    else:
        print(text)
    return 1 if report["violations_total"] else 0


if __name__ == "__main__":
    sys.exit(main())
