"""Players over the wire for the browser tests: a plain msgpack websocket client (what
docs/protocol.md describes, no SDK), each on its own thread, that sits at a friends table,
cuts when asked, answers its turns with a strategy, and can ask the server for its own
snapshot of the table at any time (the reference the page is compared with)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

import msgpack
from websockets.sync.client import ClientConnection, connect

Strategy = Callable[["WirePlayer", dict[str, Any]], dict[str, Any] | None]
"""(player, turn) -> the act's fields (verb, amount...), or None to let the clock run."""

FUTURE = 2**52
"""A ``last_seq`` from the future: the server answers ``resync`` with one snapshot."""


def check_or_call(_player: WirePlayer, turn: dict[str, Any]) -> dict[str, Any]:
    return {"verb": "check"} if turn.get("can_check") else {"verb": "call"}


def create_table(ws_url: str, **options: Any) -> tuple[str, str]:
    """Create a friends table over the wire: (table id, invite)."""
    with connect(ws_url, open_timeout=10) as ws:
        ws.send(msgpack.packb({"t": "hello", "version": 1, "nickname": "creator"}))
        ws.send(msgpack.packb({"t": "create", "id": 1, **options}))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            msg = msgpack.unpackb(ws.recv(timeout=10))
            if msg.get("t") == "table_created":
                return str(msg["table"]), str(msg["invite"])
            if msg.get("t") == "error":
                raise AssertionError(f"create refused: {msg}")
    raise AssertionError("no table_created")


class WirePlayer:
    """One person at a table, over a websocket, on a thread of its own."""

    def __init__(
        self,
        ws_url: str,
        table: str,
        invite: str,
        nickname: str,
        seat: int,
        strategy: Strategy = check_or_call,
        buy_in: int | None = None,
    ) -> None:
        self.table = table
        self.seat = seat
        self.strategy = strategy
        self.hand = 0
        self.board = 0
        """Board cards of the hand in play (0: preflop)."""
        self.dealt: dict[int, list[int]] = {}
        """Hand number -> the seats dealt in (from ``hand_start``)."""
        self.ended: set[int] = set()
        self.decided: set[tuple[int, int]] = set()
        self.errors: list[dict[str, Any]] = []
        self.messages: list[dict[str, Any]] = []
        self.snapshots: list[dict[str, Any]] = []
        self.seated = threading.Event()
        self.lock = threading.Condition()
        self.closed = False
        self.stack = contextlib.ExitStack()
        self.ws: ClientConnection = self.stack.enter_context(connect(ws_url, open_timeout=10))
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        self.send(t="hello", version=1, nickname=nickname, token=invite)
        self.send(t="join", table=table)
        cash = {} if buy_in is None else {"buy_in": buy_in}  # a cash table's chips
        self.send(t="sit", table=table, seat=seat, token=invite, **cash)
        if not self.seated.wait(10):
            raise AssertionError(f"{nickname} could not sit at seat {seat}: {self.errors}")

    def send(self, **message: Any) -> None:
        with contextlib.suppress(Exception):
            self.ws.send(msgpack.packb(message))

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(Exception):
            self.stack.close()
        self.thread.join(5)

    # ------------------------------------------------------------------ reading

    def _read(self) -> None:
        try:
            for frame in self.ws:
                if isinstance(frame, bytes):
                    self._take(msgpack.unpackb(frame))
        except Exception:  # the connection closed: the test is over
            return

    def _take(self, msg: dict[str, Any]) -> None:
        kind = msg.get("t")
        with self.lock:
            self.messages.append(msg)
            if kind == "snapshot":
                self.snapshots.append(msg)
            if kind == "error":
                self.errors.append(msg)
            self.lock.notify_all()
        if kind == "seated":
            self.seated.set()
        elif kind == "hand_start":
            self.hand = int(msg["hand"])
            self.board = 0
            self.dealt[self.hand] = sorted(int(s) for s in msg["stacks"])
        elif kind == "board":
            self.board += len(msg["cards"])
        elif kind == "hand_end":
            self.ended.add(int(msg["hand"]))
        elif kind == "cut_prompt" and msg.get("seat") == self.seat:
            self.send(t="cut", table=self.table, hand=msg["hand"], position=17)
        elif kind == "turn":
            self._turn(msg)

    def _turn(self, turn: dict[str, Any]) -> None:
        """Act at most once per decision (a decision offered again keeps its id). A five-card
        draw's turn (``draw`` true) is answered with ``draw``, the strategy naming the
        ``cards`` discarded."""
        key = (int(turn["hand"]), int(turn.get("decision", -len(self.messages))))
        if key in self.decided:
            return
        fields = self.strategy(self, turn)
        if fields is None:
            return
        self.decided.add(key)
        if "decision" in turn:
            fields = {**fields, "decision": turn["decision"]}
        kind = "draw" if turn.get("draw") else "act"
        self.send(t=kind, table=self.table, hand=turn["hand"], **fields)

    # ------------------------------------------------------------------ the server's view

    def snapshot(self, timeout: float = 10.0) -> dict[str, Any]:
        """The table as the server sees it now (this seat's view): a fresh snapshot, asked
        with ``resync`` (rate-limited by the server: asked again until it comes)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                seen = len(self.snapshots)
                errors = len(self.errors)
            self.send(t="resync", table=self.table, last_seq=FUTURE)
            with self.lock:
                self.lock.wait_for(
                    lambda seen=seen, errors=errors: (
                        len(self.snapshots) > seen or len(self.errors) > errors
                    ),
                    timeout=max(0.1, deadline - time.monotonic()),
                )
                if len(self.snapshots) > seen:
                    return self.snapshots[-1]
                limited = any(e.get("code") == "rate_limited" for e in self.errors[errors:])
            if limited:
                time.sleep(2.1)
        raise AssertionError("no snapshot from the server")
