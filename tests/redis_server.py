"""A real, throwaway ``redis-server`` for the tests: a free port on 127.0.0.1, persistent (AOF)
unless asked otherwise, as the server requires of the Redis it runs tournaments on
(docs/operations.md, "Redis").

    with RedisServer() as server:
        client = redis.Redis.from_url(server.url)
        server.restart(down=2.0)  # killed, back 2 s later on the same port and directory

The binary comes from the Debian package ``redis-server`` (``bash .ci/run`` installs it).
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import tempfile
import time
from types import TracebackType
from typing import IO

import redis

__all__ = ["RedisServer", "free_port"]

_INSTALL_HINT = "install the Debian package redis-server (bash .ci/run does)"


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on (right now)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """A ``redis-server`` subprocess, started by the constructor, answering PING on ``url``.

    ``appendfsync``: the AOF policy (``always``, ``everysec``, ``no``), or None for a volatile
    server (no AOF, no RDB snapshots: every key is lost when it stops).
    """

    def __init__(
        self,
        timeout: float = 10.0,
        binary: str = "redis-server",
        appendfsync: str | None = "everysec",
    ) -> None:
        path = shutil.which(binary)
        if path is None:
            raise RuntimeError(f"{binary} not found: {_INSTALL_HINT}")
        self._binary = path
        self.appendfsync = appendfsync
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._dir = tempfile.TemporaryDirectory(prefix="redis-test-")
        self._log: IO[bytes] = open(f"{self._dir.name}/redis.log", "w+b")  # noqa: SIM115
        self.process = self._spawn()
        try:
            self._wait_ready(timeout)
        except BaseException:
            self.stop()
            raise

    def _spawn(self) -> subprocess.Popen[bytes]:
        persistence = ["--appendonly", "no"]
        if self.appendfsync is not None:
            persistence = ["--appendonly", "yes", "--appendfsync", self.appendfsync]
        return subprocess.Popen(
            [
                self._binary,
                "--save",
                "",
                *persistence,
                "--dir",
                self._dir.name,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--protected-mode",
                "no",
            ],
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )

    def _output(self) -> str:
        self._log.flush()
        self._log.seek(0)
        return self._log.read().decode(errors="replace").strip()

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=1.0)
        try:
            while True:
                if self.process.poll() is not None:
                    raise RuntimeError(
                        f"redis-server exited with code {self.process.returncode} "
                        f"({_INSTALL_HINT} if it is missing):\n{self._output()}"
                    )
                try:
                    if client.ping():
                        return
                except (redis.ConnectionError, redis.exceptions.BusyLoadingError):
                    pass  # not listening yet, or still loading its AOF
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"redis-server did not answer PING on port {self.port} within "
                        f"{timeout} s:\n{self._output()}"
                    )
                time.sleep(0.02)
        finally:
            client.close()

    def kill(self) -> None:
        """``kill -9`` the server (no shutdown: only what its AOF holds survives)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def start(self, timeout: float = 10.0) -> None:
        """Start it again, on the same port and directory (it reloads its AOF, if any)."""
        assert self.process.poll() is not None, "already running"
        self.process = self._spawn()
        self._wait_ready(timeout)

    def restart(self, down: float = 0.0, timeout: float = 10.0) -> None:
        """Kill it, wait ``down`` seconds, start it again (same port, same directory)."""
        self.kill()
        time.sleep(down)
        self.start(timeout)

    def stop(self) -> None:
        """Terminate the server (killed if it does not exit within 5 s). Idempotent."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if not self._log.closed:
            self._log.close()
        for _ in range(50):  # a forked save child may still be writing its temporary file
            try:
                self._dir.cleanup()
                return
            except OSError:
                time.sleep(0.1)
        shutil.rmtree(self._dir.name, ignore_errors=True)

    def __enter__(self) -> RedisServer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
