"""Start a real server for bot tests and benchmarks: ``python -m server`` in a subprocess on a
free port with a temporary data directory, waiting until ``/healthz`` answers; and a throwaway
``redis-server`` (:class:`RedisProcess`) for the benches of tournaments across processes.

Every server started here lifts the per-address limits (connections, registrations, tables:
``LOAD_TEST_ENV``), since every bot of a load test comes from 127.0.0.1, and runs with the file
descriptor limit raised to its hard limit.

The bots reach the server only through its command line and the protocol (never an import of
``server``: pyproject's import contracts). Tables made with ``create`` take the command line's
cut / showdown / next-hand pauses, and ``--max-tables`` bounds them.
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "LOAD_TEST_ENV",
    "RedisProcess",
    "ServerProcess",
    "cpu_seconds",
    "free_port",
    "raise_fd_limit",
    "rss_kib",
]

ROOT = Path(__file__).resolve().parents[1]

LOAD_TEST_ENV: Mapping[str, str] = {
    "BRASSEUR_MAX_CONNECTIONS_PER_ADDRESS": "0",
    "BRASSEUR_MAX_REGISTRATIONS_PER_ADDRESS": "0",
    "BRASSEUR_MAX_TABLES_PER_ADDRESS": "0",
}
"""The server's per-address limits, lifted (0: unlimited): every bot comes from 127.0.0.1."""


def raise_fd_limit() -> int:
    """Raise this process's open-file limit to its hard limit (inherited by the processes it
    starts); return the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    return soft


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) a process has used, from /proc/PID/stat; None if unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def rss_kib(pid: int) -> int | None:
    """Resident memory of a process in KiB (VmRSS from /proc), None if unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


class ServerProcess:
    """A server subprocess. ``options`` are command-line options (``cut_seconds=0.2`` becomes
    ``--cut-seconds 0.2``). ``env``: more environment variables (over
    ``LOAD_TEST_ENV``, which ``lift_limits=False`` leaves out)."""

    def __init__(
        self,
        data: Path,
        *,
        port: int = 0,
        log_level: str = "WARNING",
        env: Mapping[str, str] | None = None,
        lift_limits: bool = True,
        **options: Any,
    ) -> None:
        self.data = data
        self.port = port or free_port()
        self.options = options
        self.log_level = log_level
        self.env = {**(LOAD_TEST_ENV if lift_limits else {}), **(env or {})}
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
        return [sys.executable, "-m", "server", *args]

    def start(self, timeout: float = 30.0) -> ServerProcess:
        """Start the process and wait until it answers."""
        return self.launch().wait_ready(timeout)

    def launch(self) -> ServerProcess:
        """Start the process without waiting (start several, then ``wait_ready`` each)."""
        self.data.mkdir(parents=True, exist_ok=True)
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "BRASSEUR_LOG_LEVEL": self.log_level,
            **self.env,
        }
        raise_fd_limit()
        out, err = self.data / "stdout.log", self.data / "stderr.log"
        with out.open("wb") as stdout, err.open("wb") as stderr:
            self.proc = subprocess.Popen(
                self.command(), cwd=ROOT, stdout=stdout, stderr=stderr, env=env
            )
        return self

    def wait_ready(self, timeout: float = 30.0) -> ServerProcess:
        """Wait until the launched process printed its invite links and answers /healthz."""
        assert self.proc is not None, "launch first"
        out, err = self.data / "stdout.log", self.data / "stderr.log"
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

    def kill(self) -> None:
        """SIGKILL: the process dies at once, with no clean shutdown."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

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


class RedisProcess:
    """A throwaway ``redis-server`` on a free port of 127.0.0.1, its files in a temporary
    directory, with an append-only file synced every second (the server refuses a Redis without
    persistence for its tournaments)."""

    def __init__(self, binary: str = "redis-server") -> None:
        path = shutil.which(binary)
        if path is None:
            raise RuntimeError(f"{binary} not found (the Debian package redis-server)")
        self.binary = path
        self.port = free_port()
        self.dir = tempfile.TemporaryDirectory(prefix="brasseur-redis-")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self, timeout: float = 10.0) -> RedisProcess:
        log = Path(self.dir.name) / "redis.log"
        self.proc = subprocess.Popen(
            [
                *(self.binary, "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--dir", self.dir.name, "--save", "", "--protected-mode", "no"),
                *("--appendonly", "yes", "--appendfsync", "everysec", "--logfile", str(log)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server exited: {self._log()}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock,
            ):
                sock.sendall(b"PING\r\n")
                if sock.recv(64).startswith(b"+PONG"):
                    return self
            time.sleep(0.02)
        self.stop()
        raise TimeoutError(f"redis-server did not answer: {self._log()}")

    def _log(self) -> str:
        with contextlib.suppress(OSError):
            return (Path(self.dir.name) / "redis.log").read_text(errors="replace")[-2000:]
        return ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.dir.cleanup()

    def __enter__(self) -> RedisProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
