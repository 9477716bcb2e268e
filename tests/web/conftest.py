"""Fixtures of the browser tests: a real ``python -m server`` with fast timings, and real
headless Chromium (Debian's ``chromium``, never a downloaded browser) driven by Playwright."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from .wire import WirePlayer

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "web"
CHROMIUM = os.environ.get("BRASSEUR_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

try:
    from playwright.sync_api import Browser, ConsoleMessage, Page, sync_playwright
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # pragma: no cover - the test extras install it; the fixtures skip or fail
    sync_playwright = None  # type: ignore[assignment]
    PlaywrightError = Exception  # type: ignore[assignment,misc]
    PlaywrightTimeout = TimeoutError  # type: ignore[assignment,misc]


def _require_browser() -> None:
    """CI must run these tests: there, a missing Playwright or Chromium is a failure."""
    missing = None
    if sync_playwright is None:
        missing = "playwright is not installed (pip install -e '.[test]')"
    elif not Path(CHROMIUM).exists():
        missing = f"no chromium at {CHROMIUM} (apt-get install chromium)"
    if missing:
        if os.environ.get("CI"):
            pytest.fail(missing)
        pytest.skip(missing)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class WebServer:
    port: int
    invite_link: str
    data: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextlib.contextmanager
def serve(args: list[str], data: Path, ready: str = "Brasseur is serving on") -> Iterator[str]:
    """Run ``python -m server ARGS`` (stdout in DATA/server.out, stderr in DATA/server.log)
    until /healthz answers and its stdout shows ``ready``; yields what it printed so far.
    Stopped with SIGTERM at the end."""
    port = int(args[args.index("--port") + 1])
    out_path, log_path = data / "server.out", data / "server.log"
    with out_path.open("wb") as out, log_path.open("wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "server", *args], cwd=ROOT, stdout=out, stderr=err
        )
    try:
        deadline = time.monotonic() + 20
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the server exited: {log_path.read_text()[-2000:]}")
            printed = out_path.read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as reply:
                    healthy = reply.status == 200
            except OSError:
                healthy = False
            if healthy and ready in printed:
                break
            if time.monotonic() > deadline:
                pytest.fail(f"the server did not come up: {log_path.read_text()[-2000:]}")
            time.sleep(0.05)
        yield printed
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    _require_browser()
    data = tmp_path_factory.mktemp("web-data")
    port = _free_port()
    args = [
        "--port", str(port), "--data", str(data),
        "--cut-seconds", "5", "--next-hand-seconds", "1.5", "--showdown-seconds", "1",
        "--action-seconds", "45", "--time-bank-seconds", "10",
    ]  # fmt: skip
    with serve(args, data, ready="invite=") as printed:
        found = re.search(r"(http://\S+\?table=friends&invite=\S+)", printed)
        if not found:
            pytest.fail(f"the server printed no invite link: {printed[-2000:]}")
        link = found.group(1).replace("localhost", "127.0.0.1")
        yield WebServer(port=port, invite_link=link, data=data)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    _require_browser()
    # The client uses system fonts only (style.css), so a screenshot gains nothing from
    # waiting on ``document.fonts.ready``; on a loaded 2-core CI machine that promise stayed
    # pending past 15 s while the page re-rendered its clock every 250 ms, and the
    # screenshot timed out (CI run of 2288e29). The driver process reads this variable.
    os.environ.setdefault("PW_TEST_SCREENSHOT_NO_FONTS_READY", "1")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class Client:
    """One browser context (a person): its page and every console error it produced."""

    name: str
    page: Page
    errors: list[str] = field(default_factory=list)
    frames: list[bytes] = field(default_factory=list)

    def shot(self, label: str, full_page: bool = True) -> Path:
        """A screenshot for people to look at (the tests' assertions are on the page's
        boxes and texts, never on the picture). Chromium on a loaded 2-core machine sometimes
        cannot produce a full-page capture of a page that repaints its clocks within 15 s (CI
        runs of 2288e29 and of issue 11): then the viewport is taken, animations frozen; if
        that fails too, the reason is written beside the missing picture and warned about.
        ``full_page=False``: what the person sees without scrolling."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{label}.png"
        attempts: list[dict[str, Any]] = [
            {"full_page": full_page},
            {"full_page": False, "animations": "disabled", "caret": "initial"},
        ]
        failures = []
        for options in attempts:
            try:
                self.page.screenshot(path=str(path), timeout=15_000, **options)
                return path
            except PlaywrightTimeout as exc:
                failures.append(f"{options}: {str(exc).splitlines()[0]}")
        (ARTIFACTS / f"{label}.missing.txt").write_text("\n".join(failures) + "\n")
        warnings.warn(f"screenshot {label} not taken: {failures}", stacklevel=2)
        return path


@pytest.fixture
def open_client(browser: Browser) -> Iterator[Any]:
    """``open_client(name, locale, viewport)``: a fresh browser context with its console
    errors collected; every context is closed at the end, and any error fails the test."""
    clients: list[Client] = []
    contexts = []

    def start(
        name: str,
        locale: str = "en-US",
        viewport: tuple[int, int] = (1280, 800),
        record_frames: bool = False,
    ) -> Client:
        width, height = viewport
        context = browser.new_context(
            locale=locale,
            viewport={"width": width, "height": height},
            is_mobile=width < 600,
            has_touch=width < 600,
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        client = Client(name=name, page=page)

        def on_console(message: ConsoleMessage) -> None:
            if message.type == "error":
                client.errors.append(f"console: {message.text} at {message.location}")

        page.on("console", on_console)
        page.on("pageerror", lambda exc: client.errors.append(f"pageerror: {exc}"))
        if record_frames:

            def on_socket(ws: Any) -> None:
                ws.on(
                    "framereceived",
                    lambda payload: client.frames.append(
                        payload if isinstance(payload, bytes) else payload.encode()
                    ),
                )

            page.on("websocket", on_socket)
        clients.append(client)
        return client

    yield start
    for context in contexts:
        with contextlib.suppress(Exception):
            context.close()
    errors = [f"{c.name}: {e}" for c in clients for e in c.errors]
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)


@pytest.fixture
def wires() -> Iterator[list[WirePlayer]]:
    """Players over the wire a test starts (append them): closed at its end."""
    players: list[WirePlayer] = []
    yield players
    for player in players:
        player.close()


def wait_until(predicate: Callable[[], Any], what: str, timeout: float = 15.0) -> Any:
    """Poll ``predicate`` (a page query) until it is truthy; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
