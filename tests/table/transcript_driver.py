"""Golden transcripts of the table layer: what every connection receives, scenario by scenario.

Two parts, on purpose:

- :class:`Recorder` is protocol-side only: named connections that decode every frame with
  :func:`protocol.decode_server`, the director's reports, and the checkpoints (``mark``). It
  never looks at the table's insides and should survive any redesign of the table layer.
- :class:`Driver` (a ``Recorder``) is the ONLY code that touches ``TableActor``: building it,
  posting commands (``actor.post(kind, client, payload)``, the ``t_*`` kinds of a tournament
  table), the fake director (the ``Directed`` protocol), crash and recovery, and the summary
  :meth:`Driver.state`. After the table redesign, only this class needs rewriting; the
  scenarios (``transcripts.py``) speak to the Driver and read what the clients received.

Everything is deterministic by injection: a :class:`FakeClock`, seeded ``random.Random``
streams for the shuffle, the deck's salts and the table's own draws (button, timed-out cut),
and a fixed Ed25519 key, whose signatures are deterministic. Nothing is normalised away.

A client's transcript is the list of messages it received, each ``{"t": TYPE, **fields}`` as
on the wire; two entries are not messages: ``{"t": "_kick", ...}`` when the table kicked the
connection, and a message delivered to a connection already gone carries ``"_closed_conn"``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from protocol import decode_server, encode, to_wire
from protocol import messages as m
from server.dealing import Signer
from server.engine import AnteFormat, Blinds
from server.store import Store
from server.table import commands as tc
from server.table.actor import TableActor
from server.table.clock import FakeClock
from server.table.config import TableConfig
from server.table.dealer import CsprngDealer
from server.table.effects import GrantSeat
from server.table.phases import TablePhase
from server.table.report import HandEnded

try:  # moved to the engine by the table redesign (the goldens were recorded before it)
    from server.engine.positions import (  # type: ignore[import-not-found,unused-ignore]
        Positions,
        first_positions,
        next_positions,
    )
except ImportError:  # pragma: no cover - the layout the goldens were recorded on
    from server.table.positions import (  # type: ignore[no-redef,unused-ignore]
        Positions,
        first_positions,
        next_positions,
    )

__all__ = [
    "Driver",
    "Positions",
    "Recorder",
    "first_positions",
    "jsonable",
    "next_positions",
]

SIGNING_KEY = bytes(range(32))
"""A fixed Ed25519 private key: Ed25519 signatures are deterministic (RFC 8032)."""
SHUFFLE_SEED = 101
SALT_SEED = 202
TABLE_SEED = 303


def jsonable(value: Any) -> Any:
    """Tuples become lists and keys strings, recursively (what a JSON round trip gives)."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def serialise(msg: m.Message) -> dict[str, Any]:
    """``{"t": TYPE, **fields}`` as on the wire (None fields dropped, as ``to_wire`` does)."""
    out: dict[str, Any] = jsonable(to_wire(msg))
    return out


# ---------------------------------------------------------------------- protocol side


class Conn:
    """One connection of a named client (the ``Client`` protocol of the table)."""

    def __init__(self, recorder: Recorder, name: str, cid: str, pid: str | None) -> None:
        self.recorder = recorder
        self.name = name
        self.cid = cid
        self.pid = pid
        self.open = True

    def deliver(self, data: bytes) -> None:
        msg = decode_server(data)
        self.recorder.messages[self.name].append(msg)
        entry = serialise(msg)
        if not self.open:
            entry["_closed_conn"] = self.cid  # delivered to a connection already gone
        self.recorder.transcript[self.name].append(entry)

    def kick(self, code: str, reason: str) -> None:
        self.recorder.transcript[self.name].append(
            {"t": "_kick", "cid": self.cid, "code": code, "reason": reason}
        )
        self.open = False


class Recorder:
    """Named clients, what they received, director reports and checkpoints."""

    def __init__(self) -> None:
        self.messages: dict[str, list[m.Message]] = {}
        """Decoded messages per client name (for the scenarios' decisions)."""
        self.transcript: dict[str, list[dict[str, Any]]] = {}
        """The same, serialised (what is compared with the golden file)."""
        self.conns: dict[str, Conn] = {}
        self.pids: dict[str, str | None] = {}
        self._connections = 0
        self.reports: list[dict[str, Any]] = []
        """Director side: ``ready``, ``allin`` and ``hand_ended`` (with the HandReport)."""
        self.steps: list[dict[str, Any]] = []

    def conn(self, name: str, pid: str | None = None) -> Conn:
        """The client's live connection, or a new one (after ``gone`` or a crash)."""
        if pid is not None:
            self.pids[name] = pid
        current = self.conns.get(name)
        if current is not None and current.open:
            if pid is not None:
                current.pid = pid
            return current
        self.messages.setdefault(name, [])
        self.transcript.setdefault(name, [])
        self._connections += 1
        current = self.conns[name] = Conn(
            self, name, f"{name}#{self._connections}", self.pids.get(name)
        )
        return current

    def drop(self, name: str) -> Conn | None:
        current = self.conns.get(name)
        if current is None or not current.open:
            return None
        current.open = False
        return current

    def drop_all(self) -> None:
        for name in list(self.conns):
            self.drop(name)

    # -- what the scenarios read (protocol only)

    def received(self, name: str) -> list[m.Message]:
        return self.messages.get(name, [])

    def last(self, name: str, cls: type[Any]) -> Any:
        return next((x for x in reversed(self.received(name)) if isinstance(x, cls)), None)

    def last_seq(self, name: str) -> int:
        """The last sequence number this client saw (events or a snapshot)."""
        for msg in reversed(self.received(name)):
            seq = getattr(msg, "seq", None)
            if isinstance(seq, int):
                return seq
        return 0

    def state(self) -> dict[str, Any]:  # pragma: no cover - the Driver's
        raise NotImplementedError

    def mark(self, label: str) -> None:
        """A checkpoint: the table's summary and how much everyone had received by now."""
        self.steps.append(
            {
                "label": label,
                "state": jsonable(self.state()),
                "received": {name: len(lst) for name, lst in self.transcript.items()},
                "reports": len(self.reports),
            }
        )

    def result(self) -> dict[str, Any]:
        return {
            "clients": self.transcript,
            "director": self.reports,
            "steps": self.steps,
        }


# ---------------------------------------------------------------------- the adapter


def _grant(client: Any, grant: GrantSeat) -> None:
    """The gateway's part once a seat is saved: a fixed token per player (deterministic)."""
    client.deliver(
        encode(m.Seated(table=grant.table, seat=grant.seat, token=f"seat-token-{grant.player}"))
    )


class _FakeDirector:
    """The ``Directed`` side of a tournament table: records what the table tells it."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder

    def ready(self, table: TableActor) -> None:
        self.recorder.reports.append({"kind": "ready", "hand": table.hand_no})

    def allin(self, table: TableActor) -> None:
        self.recorder.reports.append({"kind": "allin", "hand": table.hand_no})

    def hand_ended(self, table: TableActor, report: HandEnded) -> None:
        p = report.positions
        self.recorder.reports.append(
            {
                "kind": "hand_ended",
                "hand_no": report.hand_no,
                "positions": [p.button, p.sb_slot, p.big_blind],
                "stacks": {str(s): [pid, v] for s, (pid, v) in sorted(report.stacks.items())},
                "busts": [
                    [b.player_id, b.seat, b.start_stack, list(b.eliminated_by)]
                    for b in report.busts
                ],
                "cancelled": report.cancelled,
            }
        )


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


class Driver(Recorder):
    """Drives today's ``TableActor`` (rewrite this class for the redesigned table)."""

    def __init__(self, tmp_dir: Path | None = None) -> None:
        super().__init__()
        self.tmp_dir = tmp_dir
        self.clock = FakeClock()
        self.dealer = CsprngDealer(
            Signer(Ed25519PrivateKey.from_private_bytes(SIGNING_KEY)),
            randbelow=random.Random(SHUFFLE_SEED).randrange,
            token_bytes=random.Random(SALT_SEED).randbytes,
        )
        self.table_rng = random.Random(TABLE_SEED)
        self.config: TableConfig | None = None
        self.actor: TableActor | None = None
        self.task: asyncio.Task[None] | None = None
        self.store: Store | None = None
        self.store_path: Path | None = None
        self.stores: list[Store] = []
        self.directed = False

    @property
    def table(self) -> str:
        assert self.config is not None
        return self.config.table_id

    def _actor(self) -> TableActor:
        assert self.actor is not None, "open a table first"
        return self.actor

    # -- lifecycle

    async def open(
        self, *, persistent: bool = False, directed: bool = False, **config: Any
    ) -> None:
        """A new table (the previous one, if any, is closed; connections are dropped)."""
        await self.close()
        self.config = TableConfig(**config)
        self.directed = directed
        if persistent:
            assert self.tmp_dir is not None, "a persistent table needs a tmp dir"
            self.store_path = self.tmp_dir / f"{self.config.table_id}.sqlite"
            self.store = Store(self.store_path)
            self.stores.append(self.store)
        else:
            self.store = self.store_path = None
        self._build()
        self._actor().start()
        await _settle()

    def _build(self) -> None:
        assert self.config is not None
        self.actor = TableActor(
            self.config,
            self.clock,
            self.dealer,
            store=self.store,
            randbelow=self.table_rng.randrange,
        )
        if self.directed:
            self.actor.direct(_FakeDirector(self))
        self.actor.grant = _grant

    async def close(self) -> None:
        if self.actor is not None:
            await self.actor.stop()
            self.actor = None
        self.drop_all()
        for store in self.stores:
            store.close()
        self.stores = []

    async def crash_and_recover(self) -> None:
        """The process dies (no close path: the table's task is cancelled), then a new one
        opens the same SQLite file, recovers the table and starts it. Every connection is
        dropped: clients come back with ``watch`` or ``sit``."""
        actor = self._actor()
        assert self.store_path is not None, "only a persistent table can crash and recover"
        task = actor._task
        assert task is not None
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        self.drop_all()
        self.store = Store(self.store_path)  # the new process's connection to the file
        self.stores.append(self.store)
        self._build()
        self._actor().recover()
        self._actor().start()
        await _settle()

    # -- clients

    async def sit(self, client: str, seat: int, pid: str, name: str) -> None:
        """Take a seat (the gateway checked the seat token; a fixed token is echoed)."""
        conn = self.conn(client, pid)
        self._actor().post(tc.Sit(conn=tc.Conn(conn.cid, pid), seat=seat, name=name), conn)
        await _settle()

    async def watch(self, client: str, last_seq: int | None = None) -> None:
        """Join the table (a spectator, or a seated player's connection coming back)."""
        conn = self.conn(client)
        self._actor().post(tc.Watch(conn=tc.Conn(conn.cid, conn.pid), last_seq=last_seq), conn)
        await _settle()

    async def attach(self, client: str, pid: str, last_seq: int | None = None) -> None:
        """A tournament player's connection put on the seat he holds (the host's ``attach``)."""
        conn = self.conn(client, pid)
        self._actor().post(tc.Attach(conn=tc.Conn(conn.cid, pid), last_seq=last_seq), conn)
        await _settle()

    async def send(self, client: str, message: m.Message) -> None:
        """A protocol message from the client (``Act``, ``Chat``, ``Resync``...)."""
        conn = self.conn(client)
        self._actor().post(tc.from_message(tc.Conn(conn.cid, conn.pid), message), conn)
        await _settle()

    async def gone(self, client: str) -> None:
        conn = self.drop(client)
        if conn is not None:
            self._actor().post(tc.Gone(conn=tc.Conn(conn.cid, conn.pid)), conn)
            await _settle()

    async def advance(self, seconds: float) -> None:
        await self.clock.advance(seconds)
        await _settle()

    # -- the director (a tournament table)

    async def _direct(self, command: tc.Command) -> None:
        self._actor().post(command)
        await _settle()

    async def seat_player(self, seat: int, pid: str, name: str, stack: int, waits: bool) -> None:
        await self._direct(
            tc.SeatPlayer(seat=seat, player=pid, name=name, stack=stack, waits=waits)
        )

    async def remove_player(self, seat: int, pid: str, status: str) -> None:
        await self._direct(tc.RemovePlayer(seat=seat, player=pid, status=status))

    async def set_stack(
        self, seat: int, pid: str, amount: int, note: str = "", relative: bool = False
    ) -> None:
        await self._direct(
            tc.SetStack(seat=seat, player=pid, amount=amount, note=note, relative=relative)
        )

    async def deal(
        self,
        hand_no: int,
        blinds: tuple[int, int, int],
        positions: tuple[int, int, int],
        hand_for_hand: bool = False,
    ) -> None:
        """The director's go: ``blinds`` (sb, bb, ante), ``positions`` (button, sb slot, bb)."""
        sb, bb, ante = blinds
        button, sb_slot, big_blind = positions
        directive = tc.NextDeal(
            hand_no=hand_no,
            blinds=Blinds(
                sb=sb,
                bb=bb,
                ante=ante,
                ante_format=AnteFormat.BIG_BLIND if ante else AnteFormat.NONE,
            ),
            positions=Positions(button=button, sb_slot=sb_slot, big_blind=big_blind),
            hand_for_hand=hand_for_hand,
        )
        await self._direct(directive)

    async def wait(self, reason: str) -> None:
        await self._direct(tc.HoldDeal(reason=reason))

    async def reveal(self) -> None:
        await self._direct(tc.Reveal())

    async def note(self, text: str) -> None:
        await self._direct(tc.TableNote(text=text))

    async def penalty(self, pid: str, hands: int) -> None:
        await self._direct(tc.Penalty(player=pid, hands=hands))

    # -- the summary written at every checkpoint

    def state(self) -> dict[str, Any]:
        """``phase`` (waiting, cut, betting, showdown, between), ``hand`` (number of the hand
        being or last played), ``to_act`` (seat, in betting) and ``seats``: seat -> player's
        name and chips behind (live during a hand, as a seated player's snapshot shows)."""
        actor = self._actor()
        hand = actor.hand
        playing = actor.core.playing() and hand is not None
        seats = {}
        for s in sorted(actor.seats.values(), key=lambda s: s.seat):
            stack = s.stack
            if playing and hand is not None and str(s.seat) in hand.index:
                stack = hand.stack[hand.index[str(s.seat)]]
            seats[str(s.seat)] = {"player": s.name, "stack": stack}
        to_act = None
        if actor.phase is TablePhase.BETTING and hand is not None:
            menu = hand.menu()
            to_act = int(menu.player) if menu is not None else None
        # the phases of the old actor's names (held: betting; awaiting the director: waiting)
        if actor.phase in (TablePhase.CUT, TablePhase.BETTING, TablePhase.SHOWDOWN):
            phase = actor.phase.value
        elif actor.phase is TablePhase.HELD:
            phase = "betting"
        elif actor.phase is TablePhase.AWAITING_DIRECTOR:
            phase = "waiting"
        else:
            phase = actor.phase.value
        return {"phase": phase, "hand": actor.hand_no, "to_act": to_act, "seats": seats}
