"""Start a real server for bot tests and benchmarks: ``python -m server`` in a subprocess on a
free port with a temporary data directory, waiting until ``/healthz`` answers.

``python -m bots.launch serve [server options] [--max-tables N] [--created-timings]`` runs the
server in this process through ``server.__main__.amain``. It exists for two gaps of the server
command line (reported): ``--max-tables`` is read by ``amain`` but not declared by its parser,
and tables made with ``create`` use the default cut / showdown / next-hand pauses instead of the
command line's (``--created-timings`` applies them).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import functools
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

__all__ = ["ServerProcess", "free_port", "rss_kib", "serve"]

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_kib(pid: int) -> int | None:
    """Resident memory of a process in KiB (VmRSS from /proc), None if unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


@functools.cache
def _server_accepts(option: str) -> bool:
    out = subprocess.run(
        [sys.executable, "-m", "server", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return option in out.stdout


class ServerProcess:
    """A server subprocess. ``options`` are command-line options (``cut_seconds=0.2`` becomes
    ``--cut-seconds 0.2``). ``created_timings``: tables made with ``create`` get the command
    line's pauses too (through the ``serve`` shim)."""

    def __init__(
        self,
        data: Path,
        *,
        port: int = 0,
        created_timings: bool = False,
        log_level: str = "WARNING",
        **options: Any,
    ) -> None:
        self.data = data
        self.port = port or free_port()
        self.options = options
        self.created_timings = created_timings
        self.log_level = log_level
        self.proc: subprocess.Popen[bytes] | None = None
        self.invites: dict[str, str] = {}

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def command(self) -> list[str]:
        args = ["--port", str(self.port), "--data", str(self.data)]
        for key, value in self.options.items():
            args += [f"--{key.replace('_', '-')}", str(value)]
        shim = self.created_timings or not _server_accepts("--max-tables")
        if shim:
            extra = ["--created-timings"] if self.created_timings else []
            return [sys.executable, "-m", "bots.launch", "serve", *args, *extra]
        return [sys.executable, "-m", "server", *args]

    def start(self, timeout: float = 30.0) -> ServerProcess:
        self.data.mkdir(parents=True, exist_ok=True)
        out = self.data / "stdout.log"
        err = self.data / "stderr.log"
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "BRASSEUR_LOG_LEVEL": self.log_level}
        with out.open("wb") as stdout, err.open("wb") as stderr:
            self.proc = subprocess.Popen(
                self.command(), cwd=ROOT, stdout=stdout, stderr=stderr, env=env
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {err.read_text()[-3000:]}")
            invites = dict(re.findall(r"\?table=([\w-]+)&invite=(\S+)", out.read_text()))
            if invites and self.healthy():
                self.invites = invites
                return self
            time.sleep(0.05)
        self.stop()
        raise TimeoutError(f"server did not come up: {err.read_text()[-3000:]}")

    def healthy(self) -> bool:
        try:
            url = f"http://127.0.0.1:{self.port}/healthz"
            with urllib.request.urlopen(url, timeout=1.0) as response:
                return bool(response.status == 200)
        except OSError:
            return False

    def stderr(self) -> str:
        return (self.data / "stderr.log").read_text(errors="replace")

    def rss_kib(self) -> int | None:
        return rss_kib(self.pid)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        return self.proc.returncode

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve(argv: list[str]) -> None:
    """Run the server in this process (see the module doc)."""
    from server import __main__ as srv
    from server.gateway.app import Gateway
    from server.runtime import tune_gc

    extra = argparse.ArgumentParser(add_help=False)
    extra.add_argument("--max-tables", type=int, default=2000)
    extra.add_argument("--created-timings", action="store_true")
    known, rest = extra.parse_known_args(argv)
    args = srv.parse_args(rest)
    if not hasattr(args, "max_tables"):
        args.max_tables = known.max_tables
    if known.created_timings:
        original = Gateway.create_table

        def create_table(self: Gateway, config: Any) -> Any:
            if config.table_id != "friends":
                config = dataclasses.replace(
                    config,
                    cut_seconds=args.cut_seconds,
                    next_hand_seconds=args.next_hand_seconds,
                    showdown_seconds=args.showdown_seconds,
                )
            return original(self, config)

        Gateway.create_table = create_table  # type: ignore[method-assign]
    level = os.environ.get("BRASSEUR_LOG_LEVEL", "INFO")
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(message)s")
    tune_gc()
    asyncio.run(srv.amain(args))


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        serve(sys.argv[2:])
    else:
        sys.exit("usage: python -m bots.launch serve [server options]")
