"""The NULL server: the gateway's stack (websockets, msgpack, protocol/ codec with validation,
bounded send queues, token-bucket rate limit) relaying the same shape of messages as the real
server, with no game logic, no store and no dealing.

Per table: ``hand_start``, ``cut_prompt`` (waits for the ``cut``, or ``--cut-seconds``), one
``hole`` event per seat (cards only to their owner), then ``turn`` messages round-robin; every
``act`` from the player to act is answered with an ``action`` broadcast (always a check, so the
bots' chip checks hold) and a ``clock_event``, then the next ``turn``. A ``board`` event after
each round; after the river (and ``--showdown-seconds``) two hands shown, the pot awarded,
``hand_end`` and each player's private ``hole_proof``, as the real server sends at a showdown;
the next hand after ``--next-hand-seconds``. ``python -m bench.null_server --port P``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http
import itertools
import signal
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from protocol import PROTOCOL_VERSION, ErrorCode, ProtocolError, decode_client, encode
from protocol import messages as m
from server.gateway.fastsend import write_now
from server.runtime import freeze_startup_objects, tune_gc

SEND_QUEUE = 512
RATE = 50.0
BURST = 100.0
DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]
STREETS = (("flop", 3), ("turn", 1), ("river", 1))
SALT = "5a" * 16
HASH = "d2" * 32


class Conn:
    def __init__(self, ws: ServerConnection) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(SEND_QUEUE)
        self.tokens = BURST
        self.refilled = time.monotonic()
        self.hello = False
        self.closed = False
        self.sending = False
        self.tables: dict[str, int] = {}

    def deliver(self, data: bytes) -> None:
        if self.closed:
            return
        if not self.sending and self.queue.empty() and write_now(self.ws, data, 2**16):
            return  # the server's send path (server/gateway/fastsend.py)
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:
            self.closed = True
            self.ws.transport.abort()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.refilled) * RATE)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def writer(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                data = await self.queue.get()
                if data is None:
                    return
                self.sending = True
                try:
                    await self.ws.send(data)
                finally:
                    self.sending = False


@dataclass
class Table:
    id: str
    stack: int
    seats: dict[int, Conn | None] = field(default_factory=dict)
    stacks: dict[int, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    seq: int = 0
    hand: int = 0
    phase: str = "waiting"
    order: list[int] = field(default_factory=list)
    to_act: int = 0
    acted: int = 0
    street: int = -1
    board: list[str] = field(default_factory=list)
    pot: int = 0
    timer: asyncio.TimerHandle | None = None


class NullServer:
    def __init__(self, cut: float, next_hand: float, showdown: float) -> None:
        self.cut_s = cut
        self.next_s = next_hand
        self.showdown_s = showdown
        self.tables: dict[str, Table] = {}
        self.ids = itertools.count(1)
        self.frames = 0

    # ------------------------------------------------------------------ output

    def broadcast(self, t: Table, cls: type[m.Message], **fields: Any) -> None:
        t.seq += 1
        data = encode(cls(table=t.id, seq=t.seq, **fields))
        for conn in t.seats.values():
            if conn is not None:
                conn.deliver(data)

    def snapshot(self, t: Table, seat: int | None) -> m.Snapshot:
        state = {
            "name": t.id,
            "profile": "cdc",
            "blinds": [50, 100, 0],
            "max_seats": 10,
            "denominations": [25, 100, 500, 1000, 5000, 25000],
            "phase": "between",
            "hand": t.hand,
            "you": seat,
            "seats": [
                {"seat": s, "player": t.names[s], "stack": t.stacks[s], "connected": True}
                for s in sorted(t.seats)
            ],
        }
        return m.Snapshot(table=t.id, seq=t.seq, state=state)

    # ------------------------------------------------------------------ the hand

    def later(self, t: Table, delay: float, fn: Any) -> None:
        if t.timer is not None:
            t.timer.cancel()
        t.timer = asyncio.get_running_loop().call_later(delay, fn)

    def maybe_start(self, t: Table) -> None:
        if t.phase == "waiting" and sum(1 for c in t.seats.values() if c) >= 2:
            t.phase = "between"
            self.later(t, self.next_s, lambda: self.start_hand(t))

    def start_hand(self, t: Table) -> None:
        t.timer = None
        t.order = sorted(s for s, c in t.seats.items() if c is not None)
        if len(t.order) < 2:
            t.phase = "waiting"
            return
        t.hand += 1
        t.phase = "cut"
        t.board = []
        t.street = -1
        stacks = {str(s): t.stacks[s] for s in t.order}
        n = len(t.order)
        button = t.order[t.hand % n]
        sb, bb = t.order[(t.hand + 1) % n], t.order[(t.hand + 2) % n]
        self.broadcast(
            t,
            m.HandStart,
            hand=t.hand,
            button=button,
            small_blind=sb if n > 2 else button,
            big_blind=bb if n > 2 else sb,
            blinds=(50, 100, 0),
            stacks=stacks,
            commitment="0" * 64,
        )
        # the blinds are posted as the real server does (then everybody checks: no bet to
        # call in this null game), and the pot goes to the first hand shown
        t.pot = 0
        for seat, kind, amount in ((sb, "post_sb", 50), (bb, "post_bb", 100)):
            amount = min(amount, t.stacks[seat])
            t.stacks[seat] -= amount
            t.pot += amount
            self.broadcast(
                t,
                m.ActionEvent,
                hand=t.hand,
                seat=seat,
                action=kind,
                to=amount,
                added=amount,
                stack=t.stacks[seat],
            )
        cutter = t.order[-1]
        self.broadcast(t, m.CutPrompt, hand=t.hand, seat=cutter, deadline_ms=int(self.cut_s * 1000))
        self.later(t, self.cut_s, lambda: self.deal(t))

    def deal(self, t: Table) -> None:
        if t.phase != "cut":
            return
        if t.timer is not None:
            t.timer.cancel()
            t.timer = None
        t.phase = "betting"
        offset = (t.hand * 7) % 40
        for i, seat in enumerate(t.order):
            cards = (DECK[(offset + 2 * i) % 52], DECK[(offset + 2 * i + 1) % 52])
            t.seq += 1
            seq = t.seq
            mine = encode(m.HoleCards(table=t.id, seq=seq, hand=t.hand, seat=seat, cards=cards))
            theirs = encode(m.HoleCards(table=t.id, seq=seq, hand=t.hand, seat=seat, cards=()))
            for s, conn in t.seats.items():
                if conn is not None:
                    conn.deliver(mine if s == seat else theirs)
        t.to_act = 0
        t.acted = 0
        self.turn(t)

    def turn(self, t: Table) -> None:
        seat = t.order[t.to_act]
        conn = t.seats.get(seat)
        if conn is not None:
            conn.deliver(
                encode(
                    m.Turn(
                        table=t.id,
                        hand=t.hand,
                        seat=seat,
                        call=0,
                        can_check=True,
                        can_fold=True,
                        can_raise=True,
                        min_raise_to=100,
                        max_raise_to=t.stacks[seat],
                        remaining_ms=30_000,
                        decision=t.seq + 1,  # a new id per decision, as the server's
                    )
                )
            )
        self.broadcast(t, m.ClockEvent, hand=t.hand, seat=seat, kind="action", remaining_ms=30_000)

    def act(self, t: Table, seat: int, msg: m.Act) -> None:
        if msg.hand != t.hand:
            raise ProtocolError(ErrorCode.STALE_HAND, "not the current hand")
        if t.phase != "betting":
            conn = t.seats.get(seat)
            if conn is not None:  # what the server sends: the engine's rule code
                conn.deliver(encode(m.Error(code="rule.not_betting", message="no betting round")))
            return
        if t.order[t.to_act] != seat:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "not your turn")
        self.broadcast(
            t,
            m.ActionEvent,
            hand=t.hand,
            seat=seat,
            action="check",
            to=0,
            added=0,
            stack=t.stacks[seat],
        )
        t.acted += 1
        t.to_act = (t.to_act + 1) % len(t.order)
        if t.acted < len(t.order):
            self.turn(t)
            return
        t.acted = 0
        t.to_act = 0
        t.street += 1
        if t.street < len(STREETS):
            name, n = STREETS[t.street]
            offset = (t.hand * 7) % 40 + 2 * len(t.order) + len(t.board)
            cards = tuple(DECK[(offset + i) % 52] for i in range(n))
            t.board.extend(cards)
            pots = ({"amount": t.pot, "eligible": sorted(t.order)},)  # nobody folds here
            self.broadcast(t, m.BoardEvent, hand=t.hand, street=name, cards=cards, pots=pots)
            self.turn(t)
            return
        t.phase = "showdown"
        self.later(t, self.showdown_s, lambda: self.end_hand(t))

    def end_hand(self, t: Table) -> None:
        # what the real server sends at a showdown: two hands shown (the others muck), the
        # pot (the blinds) awarded, then each player's private hole-card proof
        offset = (t.hand * 7) % 40
        for i, seat in enumerate(t.order[:2]):
            cards = (DECK[(offset + 2 * i) % 52], DECK[(offset + 2 * i + 1) % 52])
            self.broadcast(t, m.ShownEvent, hand=t.hand, seat=seat, cards=cards, rank="pair")
        first = t.order[0]
        t.stacks[first] += t.pot
        self.broadcast(
            t,
            m.PotAwarded,
            hand=t.hand,
            index=0,
            amount=t.pot,
            winners=(first,),
            shares=(t.pot,),
        )
        t.pot = 0
        stacks = {str(s): t.stacks[s] for s in t.order}
        self.broadcast(t, m.HandEnd, hand=t.hand, stacks=stacks, record="")
        for i, seat in enumerate(t.order):
            conn = t.seats.get(seat)
            if conn is not None:
                conn.deliver(encode(self.hole_proof(t, i)))
        t.phase = "between"
        self.later(t, self.next_s, lambda: self.start_hand(t))

    def hole_proof(self, t: Table, index: int) -> m.HoleProof:
        """The shape of a real proof: per card a position, the card, a salt and a Merkle
        path of six hashes (server/dealing)."""
        offset = (t.hand * 7) % 40
        cards = [
            {
                "position": 2 * index + k,
                "card": DECK[(offset + 2 * index + k) % 52],
                "salt": SALT,
                "proof": [["L" if j % 2 else "R", HASH] for j in range(6)],
            }
            for k in range(2)
        ]
        return m.HoleProof(table=t.id, hand=t.hand, root=HASH, cut=0, openings={"cards": cards})

    # ------------------------------------------------------------------ routing

    def route(self, conn: Conn, msg: m.Message) -> None:
        if isinstance(msg, m.Ping):
            conn.deliver(encode(m.Pong(nonce=msg.nonce)))
            return
        if isinstance(msg, m.Hello):
            self.on_hello(conn, msg)
            return
        if not conn.hello:
            raise ProtocolError(ErrorCode.NOT_AUTHENTICATED, "say hello first")
        if isinstance(msg, m.CreateTable):
            tid = f"n{next(self.ids)}"
            self.tables[tid] = Table(id=tid, stack=msg.starting_stack)
            conn.deliver(encode(m.TableCreated(table=tid, invite=f"invite.{tid}", ref=msg.id)))
            return
        if isinstance(msg, m.TakeSeat):
            self.sit(conn, self.table(msg.table), msg.seat, f"p{msg.seat}")
            return
        self.at_table(conn, msg)

    def on_hello(self, conn: Conn, msg: m.Hello) -> None:
        if msg.version != PROTOCOL_VERSION:
            raise ProtocolError(ErrorCode.VERSION_MISMATCH, "protocol 1")
        conn.hello = True
        conn.deliver(encode(m.Welcome(version=1, session="null", server="null")))
        if msg.token and msg.token.startswith("seat."):
            _, table, seat = msg.token.split(".")
            self.sit(conn, self.table(table), int(seat), msg.nickname or "bot")

    def at_table(self, conn: Conn, msg: m.Message) -> None:
        """A message for a table this connection sits at."""
        table = getattr(msg, "table", None)
        if not isinstance(table, str) or table not in conn.tables:
            raise ProtocolError(ErrorCode.NOT_SEATED, "join the table first")
        t = self.table(table)
        seat = conn.tables[table]
        if isinstance(msg, m.JoinTable | m.Resync):
            conn.deliver(encode(self.snapshot(t, seat)))
        elif isinstance(msg, m.Cut):
            if t.phase == "cut" and msg.hand == t.hand:
                self.deal(t)
        elif isinstance(msg, m.Act):
            self.act(t, seat, msg)

    def table(self, tid: str) -> Table:
        t = self.tables.get(tid)
        if t is None:
            raise ProtocolError(ErrorCode.UNKNOWN_TABLE, f"no table {tid!r}")
        return t

    def sit(self, conn: Conn, t: Table, seat: int, name: str) -> None:
        new = seat not in t.seats
        t.seats[seat] = conn
        t.names.setdefault(seat, name)
        t.stacks.setdefault(seat, t.stack)
        conn.tables[t.id] = seat
        conn.deliver(encode(self.snapshot(t, seat)))
        if new:
            self.broadcast(
                t, m.SeatEvent, seat=seat, player=name, stack=t.stacks[seat], status="seated"
            )
        self.broadcast(
            t, m.SeatEvent, seat=seat, player=name, stack=t.stacks[seat], status="connected"
        )
        conn.deliver(encode(m.Seated(table=t.id, seat=seat, token=f"seat.{t.id}.{seat}")))
        self.maybe_start(t)

    def gone(self, conn: Conn) -> None:
        for tid, seat in conn.tables.items():
            t = self.tables.get(tid)
            if t is not None and t.seats.get(seat) is conn:
                t.seats[seat] = None

    async def handle(self, ws: ServerConnection) -> None:
        conn = Conn(ws)
        writer = asyncio.create_task(conn.writer())
        try:
            async for frame in ws:
                self.frames += 1
                if not conn.allow():
                    continue
                try:
                    self.route(conn, decode_client(frame))
                except ProtocolError as exc:
                    conn.deliver(encode(m.Error(code=exc.code, message=exc.message)))
        except ConnectionClosed:
            pass
        finally:
            conn.closed = True
            self.gone(conn)
            writer.cancel()


def _health(connection: ServerConnection, request: Request) -> Response | None:
    if request.path == "/ws":
        return None
    headers = Headers()
    headers["Content-Type"] = "text/plain"
    return Response(200, http.HTTPStatus(200).phrase, headers, b"ok\n")


async def amain(args: argparse.Namespace) -> None:
    null = NullServer(args.cut_seconds, args.next_hand_seconds, args.showdown_seconds)
    server = await serve(
        null.handle,
        args.host,
        args.port,
        process_request=_health,
        max_size=2**16,
        max_queue=64,
        ping_interval=20,
        ping_timeout=20,
        write_limit=2**16,
    )
    freeze_startup_objects()
    print(f"null server on ws://{args.host}:{args.port}/ws", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    server.close()
    await server.wait_closed()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.null_server", description=__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8001)
    p.add_argument("--cut-seconds", type=float, default=8.0)
    p.add_argument("--next-hand-seconds", type=float, default=3.0)
    p.add_argument("--showdown-seconds", type=float, default=2.0)
    tune_gc()  # the same process settings as the server (server/runtime.py)
    asyncio.run(amain(p.parse_args(argv)))


if __name__ == "__main__":
    main()
