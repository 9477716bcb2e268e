"""Benchmark: a live tournament of P bot players over websockets across K server processes.

    python bench/tournament_live.py           # the target: 2,000 players over 3 processes
    python bench/tournament_live.py --players 200 --processes 2
    python bench/tournament_live.py --players 300 --processes 3 --kill-after 20

It starts a ``redis-server`` (append-only file synced every second; ``--redis URL`` uses
another one), records the tournament in it (``python -m server tournament create --redis``),
starts K ``python -m server`` processes on it (accelerated clock, per-address limits lifted) and
runs the load tester (``python -m bots.loadtest --tournament ID --url A --url B ...``, its own
process(es)): P bots register, the tournament starts by itself once all are in and is played to
one winner. ``--kill-after S`` SIGKILLs the process holding the director's lease S seconds after
the first deal (the bots of that process reconnect to the others, which take its tables over).

Reported: wall time (load tester launched -> last bot done) and play time (first deal ->
finished), hands (``hand_end`` events in Redis), moves (the director's: balancing, table breaks,
final table draw), Redis commands per hand (``total_commands_processed`` delta, the bench's own
reads taken out; the top commands from ``INFO commandstats``), the director's decision latency
(a table's ``ready`` report -> the first decision batch naming that table, from the two Redis
streams' ids: Redis time), the CPU seconds of every process, and violations: the bots' (sequence,
invariants, cross-checked hands, stuck tables, bots lost for good) plus the audit's (results
ranking every player exactly once with one winner; chips conserved at every hand, the winner
holding P x the starting stack). Timing is put against a reference from the same run: the
in-process simulation of the same tournament (``bench/tournament.py``: the director and real
engine hands, no I/O), as seconds per hand live / in process.

The targets of this machine (2 cores) are ``TARGET``. The last line reads
``tournament_live: P players K processes W s H hands V violations``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402

from bench.live_cluster import (  # noqa: E402
    ChipAudit,
    Cluster,
    Decisions,
    ReportWatch,
    Sampler,
    audit_chips,
    check_results,
    children,
    read_decisions,
)
from bots.launch import RedisProcess, raise_fd_limit  # noqa: E402
from bots.stats import Histogram  # noqa: E402

TARGET = {"players": 2000, "processes": 3, "violations": 0, "chips_lost": 0}
"""What this bench must reach on the 2-core reference machine (issue 11)."""
TID = "live"
STACK = 3000
LEVELS = [
    (25, 50, 0),
    (50, 100, 0),
    (100, 200, 0),
    (200, 400, 50),
    (300, 600, 100),
    (500, 1000, 100),
    (1000, 2000, 200),
    (2000, 4000, 500),
    (5000, 10000, 1000),
    (10000, 20000, 2000),
    (20000, 40000, 5000),
    (50000, 100000, 10000),
    (100000, 200000, 20000),
    (200000, 400000, 50000),
    (500000, 1000000, 100000),
]


# ---------------------------------------------------------------------- the tournament


@dataclass(frozen=True)
class Settings:
    players: int = TARGET["players"]
    processes: int = TARGET["processes"]
    clock_speed: float = 30.0
    level_minutes: float = 4.0
    table_size: int = 9
    action_seconds: int = 120
    """Tournament seconds: at clock speed 30, 4 s of real time before a bot is folded."""
    strategy: str = "mix"
    loaders: int = 1
    """Load tester processes."""
    ramp: int = 200
    kill_after: float | None = None
    redis: str | None = None
    timeout: float = 1500.0
    reference: bool = True
    stall_seconds: float = 120.0
    env: Mapping[str, str] = field(default_factory=dict)


def config_text(s: Settings) -> str:
    """The tournament's TOML: short levels (accelerated clock), no chip race (chips are counted),
    three places paid (hand-for-hand on the bubble)."""
    head = f"""
name = "Live bench"
profile = "cdc"
starting_stack = {STACK}
denominations = [25, 100, 500, 1000, 5000]
table_size = {s.table_size}
final_table_size = {s.table_size}
min_players = 2
late_registration_until_level = 0
prize_pool = 1000

[[payouts]]
entrants = [3, 1000000]
percents = [50, 30, 20]
"""
    levels = []
    for sb, bb, ante in LEVELS:
        extra = f'ante = {ante}\nante_format = "big_blind"\n' if ante else ""
        levels.append(f"\n[[levels]]\nsb = {sb}\nbb = {bb}\n{extra}minutes = {s.level_minutes:g}\n")
    server = f"""
[server]
action_seconds = {s.action_seconds}
cut_seconds = 5
next_hand_seconds = 1
showdown_seconds = 1
start_when_registered = {s.players}
"""
    return head + "".join(levels) + server


# ---------------------------------------------------------------------- the run


def loader_command(s: Settings, urls: list[str], report: Path) -> list[str]:
    command = [sys.executable, "-m", "bots.loadtest"]
    for url in urls:
        command += ["--url", url]
    return [
        *command,
        *("--tournament", TID, "--players", str(s.players), "--strategy", s.strategy),
        *("--duration", str(s.timeout), "--processes", str(s.loaders), "--ramp", str(s.ramp)),
        *("--stall-seconds", str(s.stall_seconds), "--setup-timeout", "600"),
        *("--report", str(report), "--quiet"),
    ]


@dataclass
class Progress:
    """What the bench follows while the tournament runs."""

    began: float
    started: float | None = None
    """When the first table said it is ready to deal (monotonic)."""
    killed: str | None = None
    said: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)
    cpu_at: float = 0.0
    hands: int = 0
    """Hands the live processes played (their counters), at the last progress line."""
    moved_at: float = 0.0
    """When that count last changed (monotonic)."""
    stalled: bool = False


def _follow(
    loader: subprocess.Popen[bytes],
    cluster: Cluster,
    client: redis.Redis,
    s: Settings,
    watch: ReportWatch,
    sampler: Sampler,
    say: Callable[[str], None],
) -> Progress:
    """Wait for the load tester, printing progress; kill the director's process on time."""
    p = Progress(began=time.monotonic())
    p.cpu_at = p.moved_at = p.began
    while loader.poll() is None:
        now = time.monotonic()
        if now - p.began > s.timeout + 60:
            loader.terminate()
            say("timed out: the load tester is stopped")
            break
        if p.started is None and watch.ready:
            p.started = now
        if _kill_due(s, p, now):
            victim = cluster.holder(client, TID) or 0
            cluster.servers[victim].kill()
            p.killed = f"p{victim}"
            say(f"[{now - p.began:5.0f}s] SIGKILL p{victim} (the director's process)")
        if now - p.said >= 10:
            p.said = now
            say(_progress_line(cluster, sampler, p))
            if p.started is not None and now - p.moved_at > s.stall_seconds:
                p.stalled = True
                say(f"no hand for {now - p.moved_at:.0f} s: the tournament is stuck, stopping")
                _stop_loader(loader)
                break
        time.sleep(0.2)
    return p


def _kill_due(s: Settings, p: Progress, now: float) -> bool:
    if p.killed is not None or p.started is None or s.kill_after is None:
        return False
    return now - p.started >= s.kill_after


def _progress_line(cluster: Cluster, sampler: Sampler, p: Progress) -> str:
    now = time.monotonic()
    status, body = cluster.get(f"/api/tournaments/{TID}", timeout=2)
    left = json.loads(body).get("players_left", "?") if status == 200 else "?"
    dt = max(1e-3, now - p.cpu_at)
    cpu = sampler.cpu
    usage = " ".join(
        f"{name} {100 * (cpu[name] - p.cpu.get(name, 0.0)) / dt:3.0f}%" for name in sorted(cpu)
    )
    p.cpu, p.cpu_at = dict(cpu), now
    hands = cluster.metric("brasseur_hands_total")
    if hands != p.hands:
        p.hands, p.moved_at = hands, now
    return f"[{now - p.began:5.0f}s] players left {left} hands {hands} cpu: {usage}"


def _results(client: redis.Redis, tprefix: str, wait: float) -> list[dict[str, Any]] | None:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        raw = client.get(f"{tprefix}:results.json")
        if raw is not None:
            rows: list[dict[str, Any]] = json.loads(raw)["results"]
            return rows
        time.sleep(0.2)
    return None


def _commands(client: redis.Redis) -> tuple[int, dict[str, int]]:
    total = int(client.info("stats")["total_commands_processed"])
    stats = client.info("commandstats")
    return total, {k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in stats.items()}


def reference(s: Settings) -> dict[str, float] | None:
    """The same tournament in process (bench/tournament.py): seconds per hand, no I/O."""
    from bench.tournament import run as simulate

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "reference.toml"
        path.write_text(config_text(s).split("[server]")[0], encoding="utf-8")
        try:
            ref = simulate(s.players, 1, path)
        except Exception as exc:  # the reference is a yardstick, not the test
            print(f"reference: failed ({exc})", file=sys.stderr)
            return None
    return {
        "wall_s": round(ref.wall, 2),
        "hands": ref.hands,
        "ms_per_hand": round(1000 * ref.wall / max(1, ref.hands), 3),
        "director_us_per_hand": round(ref.director_us_per_hand, 1),
    }


def run(s: Settings, say: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the bench and return its report (see the module doc)."""
    raise_fd_limit()
    ref = reference(s) if s.reference else None
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tournament-live-")))
        own = None if s.redis else stack.enter_context(RedisProcess())
        url = s.redis or (own.url if own else "")
        env = {} if own else {"BRASSEUR_ALLOW_VOLATILE_REDIS": "1"}
        prefix = f"bench{secrets.token_hex(3)}"
        cluster = Cluster(tmp, url, prefix, s.processes, clock_speed=s.clock_speed, env=env)
        stack.callback(cluster.stop)
        client = redis.Redis.from_url(url)
        stack.callback(client.close)
        if not own:
            stack.callback(_drop_keys, client, prefix)
        text = config_text(s)
        cluster.create(TID, text)
        cluster.start()
        say(f"{s.players} players, {s.processes} processes on {url} (clock x{s.clock_speed:g})")
        tprefix = cluster.tournament_prefix(TID)
        watch = ReportWatch(url, f"{tprefix}:reports")
        watch.start()
        total0, stats0 = _commands(client)
        report_path = tmp / "loadtest.json"
        with (tmp / "loadtest.log").open("wb") as log:
            loader = subprocess.Popen(
                loader_command(s, cluster.urls, report_path), cwd=ROOT, stderr=log
            )
        stack.callback(_stop_loader, loader)
        sampler = Sampler(lambda: _pids(cluster, own, loader))
        sampler.start()
        progress = _follow(loader, cluster, client, s, watch, sampler, say)
        wall = time.monotonic() - progress.began
        loader.wait(60)
        total1, stats1 = _commands(client)
        watch.stop()
        sampler.stop()
        bots = json.loads(report_path.read_text()) if report_path.exists() else {}
        rows = _results(client, tprefix, 0 if progress.stalled else 30)
        audit = audit_chips(client, tprefix)
        decided = read_decisions(client, tprefix, text, watch.ready)
        own_commands = watch.commands + 4 + (1 if progress.killed else 0)
        return summarize(
            s,
            wall=wall,
            bots=bots,
            rows=rows,
            audit=audit,
            decided=decided,
            commands=(total1 - total0 - own_commands, _delta(stats0, stats1)),
            sampler=sampler,
            progress=progress,
            reference=ref,
            stderr=[srv.stderr() for srv in cluster.servers],
        )
    raise AssertionError("unreachable")  # pragma: no cover (mypy: the with block returns)


def _pids(
    cluster: Cluster, own: RedisProcess | None, loader: subprocess.Popen[bytes]
) -> dict[str, list[int]]:
    pids = {f"p{i}": [s.pid] for i, s in enumerate(cluster.servers) if s.alive()}
    if own is not None and own.proc is not None:
        pids["redis"] = [own.pid]
    if loader.poll() is None:
        pids["bots"] = children(loader.pid)
    return pids


def _stop_loader(loader: subprocess.Popen[bytes]) -> None:
    """The load tester and its worker processes, if still running (interrupted bench)."""
    if loader.poll() is not None:
        return
    for pid in reversed(children(loader.pid)):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        loader.wait(10)


def _delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {k: v - before.get(k, 0) for k, v in after.items() if v > before.get(k, 0)}


def _drop_keys(client: redis.Redis, prefix: str) -> None:
    keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
    for i in range(0, len(keys), 1000):
        client.delete(*keys[i : i + 1000])


# ---------------------------------------------------------------------- the report


def violations(
    s: Settings,
    bots: dict[str, Any],
    rows: list[dict[str, Any]] | None,
    audit: ChipAudit,
    stderr: list[str],
    stalled: bool = False,
) -> dict[str, Any]:
    """Every way the run went wrong, by kind (empty: none)."""
    found: dict[str, Any] = {k: v for k, v in bots.get("violations", {}).items() if v}
    t = bots.get("tournament", {})
    if not bots:
        found["no_report"] = 1
    elif t.get("lost"):
        found["bots_lost"] = t["lost"]
    if bots and not t.get("finished"):
        found["not_finished"] = 1
    problems = ["results: none saved"] if rows is None else check_results(rows, s.players)
    if problems:
        found["results"] = problems
    if audit.unbalanced:
        found["chips_unbalanced"] = audit.unbalanced[:10]
    lost = s.players * STACK - audit.winner_chips
    if lost:
        found["chips_lost"] = lost
    if stalled:
        found["tournament_stalled"] = 1
    tracebacks = sum(text.count("Traceback") for text in stderr)
    if tracebacks:
        found["server_tracebacks"] = tracebacks
    return found


def failovers(stderr: list[str]) -> dict[str, int]:
    """From the servers' logs: how often the director's lease changed hands, and how many
    tables were taken over from a process believed dead (without ``--kill-after``, every one
    is a live process whose heartbeat came too late: its event loop was stalled)."""
    text = "\n".join(stderr)
    return {
        "director_elections": len(re.findall(r" directs \(epoch \d+\)", text)),
        "leases_lost": text.count("lost the director's lease"),
        "tables_taken_over": text.count("(gone) taken over by"),
    }


def _ms_of(h: Histogram, p: float) -> float | None:
    v = h.percentile(p)
    return None if v is None else round(v * 1000, 1)


def summarize(
    s: Settings,
    *,
    wall: float,
    bots: dict[str, Any],
    rows: list[dict[str, Any]] | None,
    audit: ChipAudit,
    decided: Decisions,
    commands: tuple[int, dict[str, int]],
    sampler: Sampler,
    progress: Progress,
    reference: dict[str, float] | None,
    stderr: list[str],
) -> dict[str, Any]:
    hands = audit.hands
    total, by_command = commands
    top = sorted(by_command.items(), key=lambda kv: -kv[1])[:8]
    play = None
    if decided.first_deal and decided.finished:
        play = (decided.finished[0] - decided.first_deal[0]) / 1000
    found = violations(s, bots, rows, audit, stderr, progress.stalled)
    t = bots.get("tournament", {})
    report: dict[str, Any] = {
        "players": s.players,
        "processes": s.processes,
        "clock_speed": s.clock_speed,
        "wall_s": round(wall, 1),
        "play_s": None if play is None else round(play, 1),
        "hands": hands,
        "hands_bots_counted": bots.get("hands"),
        "actions": bots.get("actions"),
        "moves": decided.moves,
        "moved_messages": t.get("moves"),
        "redis_commands": total,
        "redis_commands_per_hand": round(total / max(1, hands), 1),
        "redis_top_per_hand": {k: round(v / max(1, hands), 2) for k, v in top},
        "director_latency_ms": {
            "p50": _ms_of(decided.latency, 50),
            "p90": _ms_of(decided.latency, 90),
            "p99": _ms_of(decided.latency, 99),
            "max": _ms_of(decided.latency, 100),
            "samples": decided.latency.total,
            "unanswered": decided.unanswered,
        },
        "decision_batches": decided.batches,
        "bot_latency_ms": bots.get("latency_ms"),
        "bots_received_mib": round(t.get("bytes_in", 0) / 2**20, 1),
        "lobby_states": t.get("states"),
        "lobby_state_mib": round(t.get("state_bytes", 0) / 2**20, 1),
        "reconnects": bots.get("reconnects"),
        "errors": bots.get("errors"),
        "killed": progress.killed,
        "failovers": failovers(stderr),
        "cpu_s": {k: round(v, 1) for k, v in sorted(sampler.cpu.items())},
        "peak_rss_mib": {k: v // 1024 for k, v in sorted(sampler.peak_kib.items())},
        "tables_audited": audit.tables,
        "chips_lost": s.players * STACK - audit.winner_chips,
        "violations": found,
        "violations_total": sum(v if isinstance(v, int) else len(v) for v in found.values()),
        "violation_examples": bots.get("violation_examples", [])[:10],
        "reference": reference,
    }
    if reference and hands:
        live = 1000 * (play or wall) / hands
        report["ms_per_hand_vs_reference"] = round(live / reference["ms_per_hand"], 1)
    return report


def lines(report: dict[str, Any]) -> list[str]:
    r = report
    lat = r["director_latency_ms"]
    ref = r["reference"]
    met = all(
        (
            r["players"] >= TARGET["players"],
            r["processes"] >= TARGET["processes"],
            r["violations_total"] <= TARGET["violations"],
            r["chips_lost"] == TARGET["chips_lost"],
        )
    )
    out = [
        f"wall {r['wall_s']} s (play {r['play_s']} s), hands {r['hands']} (bots counted "
        f"{r['hands_bots_counted']}), actions {r['actions']}, moves {r['moves']} "
        f"(moved messages {r['moved_messages']}), reconnects {r['reconnects']}"
        + (f", killed {r['killed']}" if r["killed"] else ""),
        f"redis: {r['redis_commands']} commands, {r['redis_commands_per_hand']} per hand; top "
        + ", ".join(f"{k} {v}" for k, v in r["redis_top_per_hand"].items()),
        f"director latency (ready -> decision): p50 {lat['p50']} ms p90 {lat['p90']} ms "
        f"p99 {lat['p99']} ms max {lat['max']} ms over {lat['samples']} "
        f"({lat['unanswered']} unanswered)",
        f"bots: act -> action latency {r['bot_latency_ms']}, errors {r['errors']}",
        f"bots received {r['bots_received_mib']} MiB, of which lobby states "
        f"{r['lobby_state_mib']} MiB ({r['lobby_states']} messages)",
        f"cpu s: {r['cpu_s']}; peak RSS MiB: {r['peak_rss_mib']}",
        f"failovers: {r['failovers']}",
        f"chips lost {r['chips_lost']} (hands audited {r['hands']} on {r['tables_audited']} "
        f"tables); violations {r['violations_total']} {r['violations'] or ''}",
        *(f"  e.g. {example}" for example in r["violation_examples"][:5]),
    ]
    if ref:
        out.append(
            f"reference (in process, no I/O): {ref['hands']} hands in {ref['wall_s']} s, "
            f"{ref['ms_per_hand']} ms per hand; live / reference per hand: "
            f"{r.get('ms_per_hand_vs_reference')}"
        )
    out.append(
        f"target {TARGET['players']} players over {TARGET['processes']} processes, "
        f"0 violations, 0 chips lost: {'met' if met else 'not met'}"
    )
    out.append(
        f"tournament_live: {r['players']} players {r['processes']} processes "
        f"{r['wall_s']:.0f} s {r['hands']} hands {r['violations_total']} violations"
    )
    return out


def parse_args(argv: list[str] | None = None) -> Settings:
    d = Settings()
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=d.players)
    p.add_argument("--processes", type=int, default=d.processes)
    p.add_argument("--clock-speed", type=float, default=d.clock_speed)
    p.add_argument("--level-minutes", type=float, default=d.level_minutes)
    p.add_argument("--table-size", type=int, default=d.table_size)
    p.add_argument("--strategy", default=d.strategy)
    p.add_argument("--loaders", type=int, default=d.loaders, help="load tester processes")
    p.add_argument("--ramp", type=int, default=d.ramp, help="connections opened at once")
    p.add_argument("--kill-after", type=float, default=None, help="SIGKILL the director then")
    p.add_argument("--redis", default=None, help="use this Redis (default: start one)")
    p.add_argument("--timeout", type=float, default=d.timeout)
    p.add_argument("--no-reference", action="store_true", help="skip the in-process run")
    p.add_argument("--json", type=Path, default=None, help="write the report here too")
    a = p.parse_args(argv)
    settings = Settings(
        players=a.players,
        processes=a.processes,
        clock_speed=a.clock_speed,
        level_minutes=a.level_minutes,
        table_size=a.table_size,
        strategy=a.strategy,
        loaders=a.loaders,
        ramp=a.ramp,
        kill_after=a.kill_after,
        redis=a.redis,
        timeout=a.timeout,
        reference=not a.no_reference,
    )
    object.__setattr__(settings, "_json", a.json)
    return settings


def main(argv: list[str] | None = None) -> int:
    settings = parse_args(argv)
    report = run(settings, lambda line: print(line, flush=True))
    target: Path | None = getattr(settings, "_json", None)
    if target is not None:
        target.write_text(json.dumps(report, indent=2) + "\n")
    for line in lines(report):
        print(line, flush=True)
    return 1 if report["violations_total"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
