"""A real, throwaway ``redis-server`` for the tests: a free port on 127.0.0.1, no persistence.

    with RedisServer() as server:
        client = redis.Redis.from_url(server.url)

The binary comes from the Debian package ``redis-server`` (``bash .ci/run`` installs it).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from types import TracebackType

import redis

__all__ = ["RedisServer", "free_port"]

_INSTALL_HINT = "install the Debian package redis-server (bash .ci/run does)"


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on (right now)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """A ``redis-server`` subprocess, started by the constructor, answering PING on ``url``."""

    def __init__(self, timeout: float = 10.0, binary: str = "redis-server") -> None:
        path = shutil.which(binary)
        if path is None:
            raise RuntimeError(f"{binary} not found: {_INSTALL_HINT}")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._dir = tempfile.TemporaryDirectory(prefix="redis-test-")
        self._log = open(f"{self._dir.name}/redis.log", "w+b")  # noqa: SIM115 (closed in stop)
        self.process = subprocess.Popen(
            [
                path,
                "--save",
                "",
                "--appendonly",
                "no",
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
        try:
            self._wait_ready(timeout)
        except BaseException:
            self.stop()
            raise

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
                except redis.ConnectionError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"redis-server did not answer PING on port {self.port} within "
                        f"{timeout} s:\n{self._output()}"
                    )
                time.sleep(0.02)
        finally:
            client.close()

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
        self._dir.cleanup()

    def __enter__(self) -> RedisServer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
