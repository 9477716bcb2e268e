"""Tournament players over the wire for the browser tests: a plain msgpack websocket client
(what docs/protocol.md describes, no SDK), each on its own thread, that registers, follows its
seat through every ``moved``, cuts when asked and answers each decision once with a strategy,
after an optional delay (so that a hand lasts long enough to be watched). It records what it
saw with the time it saw it: the tests compare a page with it."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack
from websockets.sync.client import ClientConnection, connect

Strategy = Callable[["TourPlayer", dict[str, Any]], dict[str, Any] | None]
"""(player, turn) -> the act's fields (verb, amount...), or None to let the clock run."""


def check_or_call(_player: TourPlayer, turn: dict[str, Any]) -> dict[str, Any]:
    return {"verb": "check"} if turn.get("can_check") else {"verb": "call"}


def shove(_player: TourPlayer, turn: dict[str, Any]) -> dict[str, Any]:
    return {"verb": "allin"} if turn.get("can_raise") else check_or_call(_player, turn)


@dataclass
class HandSeen:
    """One hand of a table as a player saw it, with the times (``time.time()``)."""

    started: float
    ended: float | None = None
    board: list[str] = field(default_factory=list)
    raises: list[tuple[int, float]] = field(default_factory=list)
    """(the raise's ``to``, when) of every bet or raise of the hand."""


class TourPlayer:
    """A registered tournament player, over a websocket, on a thread of its own."""

    def __init__(
        self,
        ws_url: str,
        tournament: str,
        nickname: str,
        strategy: Strategy = check_or_call,
        delay: float = 0.0,
    ) -> None:
        self.tournament = tournament
        self.nickname = nickname
        self.strategy = strategy
        self.delay = delay
        self.table = ""
        self.seat = 0
        self.hand = 0
        self.player = ""
        self.hands: dict[tuple[str, int], HandSeen] = {}
        self.decided: set[tuple[str, int, int]] = set()
        self.errors: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.registered = threading.Event()
        self.stack = contextlib.ExitStack()
        self.ws: ClientConnection = self.stack.enter_context(connect(ws_url, open_timeout=10))
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        self.send(t="hello", version=1, nickname=nickname)
        self.send(t="register", tournament=tournament, id=1)
        if not self.registered.wait(10):
            raise AssertionError(f"{nickname} could not register: {self.errors}")

    def send(self, **message: Any) -> None:
        with contextlib.suppress(Exception):
            self.ws.send(msgpack.packb(message))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.stack.close()
        self.thread.join(5)

    def seen(self, hand: int) -> HandSeen | None:
        with self.lock:
            return self.hands.get((self.table, hand))

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
        now = time.time()
        if kind == "registered":
            self.player = str(msg["player"])
            self.registered.set()
        elif kind == "error":
            self.errors.append(msg)
        elif kind == "moved":
            self.table, self.seat = str(msg["table"]), int(msg["seat"])
        elif msg.get("table") == self.table and self.table:
            self._table_message(kind, msg, now)

    def _table_message(self, kind: Any, msg: dict[str, Any], now: float) -> None:
        with self.lock:
            if kind == "hand_start":
                self.hand = int(msg["hand"])
                self.hands[(self.table, self.hand)] = HandSeen(started=now)
            seen = self.hands.get((self.table, int(msg.get("hand", -1))))
            if seen is not None:
                if kind == "hand_end":
                    seen.ended = now
                elif kind == "board":
                    seen.board += list(msg["cards"])
                elif kind == "action" and msg.get("action") in ("bet", "raise"):
                    seen.raises.append((int(msg["to"]), now))
        if kind == "cut_prompt" and msg.get("seat") == self.seat:
            self.send(t="cut", table=self.table, hand=msg["hand"], position=23)
        elif kind == "turn":
            self._turn(msg)

    def _turn(self, turn: dict[str, Any]) -> None:
        """Answer a decision once (a decision offered again keeps its id), after the delay."""
        key = (str(turn["table"]), int(turn["hand"]), int(turn.get("decision", -1)))
        if key in self.decided:
            return
        self.decided.add(key)
        fields = self.strategy(self, turn)
        if fields is None:
            return
        message = {"t": "act", "table": turn["table"], "hand": turn["hand"], **fields}
        if "decision" in turn:
            message["decision"] = turn["decision"]
        if self.delay:
            threading.Timer(self.delay, lambda: self.send(**message)).start()
        else:
            self.send(**message)
