"""Benchmark the table server against a NULL server, on this machine, in one run.

    python bench/server.py                       # quick: 50 tables x 6 bots, 20 s each
    python bench/server.py --tables 1000 --players 6 --duration 60

For each target (the NULL server first, then the real server) it starts the server in a
subprocess, runs the load tester (``python -m bots.loadtest``, its own process(es)) with the
same bots and settings, samples the server's resident memory (VmRSS) and CPU time from /proc,
and stops it. The NULL server (bench/null_server.py) is the same websockets + msgpack + codec
stack relaying the same shape of messages with no game logic, so the ratios say what the game
(rules engine, table actors, store, dealing) costs. Both get the same pauses (cut, showdown,
next hand; the bots cut at once). The last line reads
``server_vs_null: actions A latency_p99 L errors E``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bots.launch import ServerProcess, free_port, rss_kib  # noqa: E402


def cpu_seconds(pid: int) -> float | None:
    """utime + stime of a process, from /proc/PID/stat."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


class Sampler(threading.Thread):
    """Peak VmRSS of a process, sampled every 0.5 s."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.peak = 0
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(0.5):
            self.peak = max(self.peak, rss_kib(self.pid) or 0)


class NullProcess:
    def __init__(self, args: argparse.Namespace) -> None:
        self.port = free_port()
        self.args = args
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> NullProcess:
        a = self.args
        cmd = [
            sys.executable,
            "-m",
            "bench.null_server",
            "--port",
            str(self.port),
            "--cut-seconds",
            str(a.cut_seconds),
            "--next-hand-seconds",
            str(a.next_hand_seconds),
            "--showdown-seconds",
            str(a.showdown_seconds),
        ]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                url = f"http://127.0.0.1:{self.port}/healthz"
                with urllib.request.urlopen(url, timeout=1):
                    return self
            except OSError:
                time.sleep(0.05)
        raise TimeoutError("the null server did not come up")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)


def load(url: str, args: argparse.Namespace, report: Path) -> dict[str, Any]:
    cmd = [
        sys.executable,
        "-m",
        "bots.loadtest",
        "--url",
        url,
        "--tables",
        str(args.tables),
        "--players",
        str(args.players),
        "--duration",
        str(args.duration),
        "--strategy",
        args.strategy,
        "--processes",
        str(args.processes),
        "--action-seconds",
        str(args.action_seconds),
        "--report",
        str(report),
    ]
    if args.quiet:
        cmd.append("--quiet")
    subprocess.run(cmd, cwd=ROOT, check=False, timeout=args.duration + 1200)
    data: dict[str, Any] = json.loads(report.read_text())
    return data


def measure(name: str, pid: int, url: str, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    size = f"{args.tables} tables x {args.players} bots, {args.duration:.0f} s"
    print(f"--- {name}: {size}", flush=True)
    sampler = Sampler(pid)
    sampler.start()
    cpu0 = cpu_seconds(pid) or 0.0
    t0 = time.monotonic()
    report = load(url, args, work / f"{name}.json")
    wall = time.monotonic() - t0
    sampler.stopped.set()
    report["server_rss_peak_mib"] = round(sampler.peak / 1024, 1)
    report["server_rss_end_mib"] = round((rss_kib(pid) or 0) / 1024, 1)
    report["server_cpu_seconds"] = round((cpu_seconds(pid) or 0.0) - cpu0, 1)
    report["server_cpu_share"] = round(report["server_cpu_seconds"] / max(wall, 1e-9), 2)
    return report


def line(name: str, r: dict[str, Any]) -> str:
    lat = r["latency_ms"]
    return (
        f"{name:>6}: actions/s {r['actions_per_s']:>9.1f}  p50 {lat['p50']} ms  p99 {lat['p99']} ms"
        f"  errors {r['errors_total']}  violations {r['violations_total']}"
        f"  hands {r['hands']}  rss {r['server_rss_peak_mib']} MiB"
        f"  cpu {r['server_cpu_share']:.2f} core  late cuts {r.get('late_cuts', 0)}"
        + (f"  server tracebacks {r['server_tracebacks']}" if r.get("server_tracebacks") else "")
        + (f"\n        violations by kind: {r['violations']}" if r["violations"] else "")
    )


def ratio(a: float | None, b: float | None) -> float:
    if not a or not b:
        return float("nan")
    return a / b


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python bench/server.py", description=__doc__)
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--players", type=int, default=6)
    p.add_argument("--duration", type=float, default=20.0)
    p.add_argument("--strategy", default="mix")
    p.add_argument("--processes", type=int, default=1, help="load tester processes")
    p.add_argument("--action-seconds", type=int, default=10)
    p.add_argument("--cut-seconds", type=float, default=1.0)
    p.add_argument("--next-hand-seconds", type=float, default=0.2)
    p.add_argument("--showdown-seconds", type=float, default=0.2)
    p.add_argument("--only", choices=["null", "server"], default=None)
    p.add_argument("--json", type=Path, default=None, help="write both reports here")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="brasseur-bench-"))
    results: dict[str, dict[str, Any]] = {}

    if args.only != "server":
        null = NullProcess(args).start()
        assert null.proc is not None
        try:
            results["null"] = measure("null", null.proc.pid, null.url, args, work)
        finally:
            null.stop()
    if args.only != "null":
        server = ServerProcess(
            work / "data",
            max_tables=max(2000, args.tables + 10),
            cut_seconds=args.cut_seconds,
            next_hand_seconds=args.next_hand_seconds,
            showdown_seconds=args.showdown_seconds,
            action_seconds=args.action_seconds,
        ).start()
        try:
            results["server"] = measure("server", server.pid, server.url, args, work)
        finally:
            code = server.stop()
            results["server"]["server_exit_code"] = code
            crash = [ln for ln in server.stderr().splitlines() if "Traceback" in ln]
            results["server"]["server_tracebacks"] = len(crash)

    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    print()
    for name, r in results.items():
        print(line(name, r))
    if "null" in results and "server" in results:
        s, n = results["server"], results["null"]
        a = ratio(s["actions_per_s"], n["actions_per_s"])
        lat = ratio(s["latency_ms"]["p99"], n["latency_ms"]["p99"])
        print(f" ratio: actions {a:.2f}x  p99 latency {lat:.2f}x  (server / null)")
        print(f"server_vs_null: actions {a:.2f} latency_p99 {lat:.2f} errors {s['errors_total']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
