"""A harness for the pure table: no event loop, no clock, no store, no sockets.

:class:`Pure` builds a :class:`~server.table.table.Table` with a seeded ``CsprngDealer`` and a
fixed signing key (everything deterministic), and a :class:`Net` that carries out the effects
the way the asyncio shell does (:mod:`server.table.actor`): a ``Write`` goes to the "store"
(a list), the ``Deliver`` frames are decoded per connection id, and a write told to fail
stops the effects there and hands the rest back to ``Table.write_failed``.

Time is a float moved forward by the test (:meth:`Pure.advance` ticks at every deadline on
the way). The net also checks what must always hold, whatever the test does: nothing is
delivered before it is stored, stored sequence numbers follow each other with no gap or
repeat, and a retried write is the very same batch.
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from typing import Any, TypeVar

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from protocol import decode_server
from protocol import messages as m
from server.dealing import Signer
from server.store.batch import TableWrite
from server.table import commands as c
from server.table.config import TableConfig
from server.table.dealer import CsprngDealer
from server.table.effects import Deliver, Effect, GrantSeat, Kick, Write
from server.table.phases import TablePhase
from server.table.table import Table

__all__ = ["Net", "Pure", "StoreFailure"]

T = TypeVar("T")

SIGNING_KEY = bytes(range(32))
WALL = "2026-01-01T00:00:00Z"


class StoreFailure(Exception):
    """What the fake store raises when told to fail."""


class Net:
    """Carries out a table's effects: the store (a list of batches), the connections (decoded
    frames per cid), kicks, seat grants, and every other effect in order."""

    def __init__(self) -> None:
        self.store: list[TableWrite] = []
        """The batches written, in order (the "store")."""
        self.stored_seq = 0
        self.received: dict[str, list[m.Message]] = defaultdict(list)
        self.kicked: dict[str, tuple[str, str]] = {}
        self.grants: list[GrantSeat] = []
        self.others: list[Effect] = []
        """Every effect that is neither a write, a delivery, a kick nor a grant."""
        self.fail_writes = 0
        """The next this many writes fail."""
        self.failed: list[TableWrite] = []
        self.emitted: dict[int, tuple[str, dict[str, Any]]] = {}
        """Every event of every write the table returned, attempted or not yet (a write
        returned again after a failure must hold the same events)."""
        self.violations: list[str] = []
        """Broken invariants: something delivered before it was stored, a sequence gap..."""

    def note(self, effects: list[Effect]) -> None:
        """Remember the events of every write of ``effects`` (before any is attempted)."""
        for effect in effects:
            if isinstance(effect, Write):
                for seq, kind, data in effect.batch.events:
                    before = self.emitted.setdefault(seq, (kind, data))
                    if before != (kind, data):
                        self.violations.append(f"seq {seq} returned twice, different events")

    def write(self, batch: TableWrite) -> None:
        if self.fail_writes > 0:
            self.fail_writes -= 1
            self.failed.append(batch)
            raise StoreFailure("disk full")
        if batch.events:
            first = batch.events[0][0]
            if first != self.stored_seq + 1:
                self.violations.append(f"write starts at seq {first} after {self.stored_seq}")
            self.stored_seq = batch.events[-1][0]
        if batch.snapshot is not None and batch.snapshot[1] != self.stored_seq:
            self.violations.append(
                f"snapshot at seq {batch.snapshot[1]}, the store is at {self.stored_seq}"
            )
        self.store.append(batch)

    def deliver(self, effect: Deliver) -> None:
        msg = decode_server(effect.frame)
        seq = getattr(msg, "seq", None)
        if isinstance(seq, int) and seq > self.stored_seq:
            self.violations.append(
                f"{msg.TYPE} seq {seq} delivered before it was stored (store at {self.stored_seq})"
            )
        for cid in effect.cids:
            self.received[cid].append(msg)

    # ------------------------------------------------------------------ reading

    def of(self, cid: str, cls: type[T]) -> list[T]:
        return [x for x in self.received[cid] if isinstance(x, cls)]

    def errors(self, cid: str) -> list[str]:
        return [e.code for e in self.of(cid, m.Error)]

    def events(self) -> list[tuple[int, str, dict[str, Any]]]:
        """Every stored event, in order."""
        return [e for batch in self.store for e in batch.events]

    def kinds(self) -> list[str]:
        return [kind for _, kind, _ in self.events()]


class Pure:
    """A pure table, its net and its time."""

    def __init__(
        self, *, directed: bool = False, seed: int = 1, start: float = 1000.0, **config: Any
    ) -> None:
        config.setdefault("table_id", "t1")
        self.config = TableConfig(**config)
        rng = random.Random(seed)
        self.dealer = CsprngDealer(
            Signer(Ed25519PrivateKey.from_private_bytes(SIGNING_KEY)),
            randbelow=random.Random(rng.random()).randrange,
            token_bytes=random.Random(rng.random()).randbytes,
        )
        self.table = Table(
            self.config,
            self.dealer,
            random.Random(rng.random()).randrange,
            wall=lambda: WALL,
            directed=directed,
        )
        self.net = Net()
        self.now = start
        self.log: list[list[Effect]] = []
        """Every effects list the table returned (handle, tick, write_failed), in order."""
        self._cids = itertools.count(1)
        self.conns: dict[str, c.Conn] = {}
        """The live connection of each player (by player id)."""
        self.player_of: dict[str, str | None] = {}
        """Every connection ever opened: its player (None: an anonymous spectator)."""

    # ------------------------------------------------------------------ effects

    def run(self, effects: list[Effect]) -> list[Effect]:
        """Carry the effects out as the shell does; returns them (the first list)."""
        self.log.append(effects)
        self.net.note(effects)
        for i, effect in enumerate(effects):
            if isinstance(effect, Write):
                try:
                    self.net.write(effect.batch)
                except StoreFailure as exc:
                    self.run(self.table.write_failed(effects[i:], self.now, str(exc)))
                    break
            elif isinstance(effect, Deliver):
                self.net.deliver(effect)
            elif isinstance(effect, Kick):
                self.net.kicked[effect.cid] = (effect.code, effect.reason)
            elif isinstance(effect, GrantSeat):
                self.net.grants.append(effect)
            else:
                self.net.others.append(effect)
        return effects

    def do(self, command: c.Command) -> list[Effect]:
        """Handle one command at the current time and carry out its effects."""
        return self.run(self.table.handle(command, self.now))

    def tick(self) -> list[Effect]:
        return self.run(self.table.tick(self.now))

    def advance(self, seconds: float) -> None:
        """Move time forward, ticking at every deadline on the way (in order)."""
        target = self.now + seconds
        for _ in range(10_000):
            deadline = self.table.next_deadline()
            if deadline is None or deadline > target:
                break
            self.now = max(self.now, deadline)
            self.tick()
            after = self.table.next_deadline()
            assert after is None or after > self.now, (
                f"a deadline at {after} is still due after a tick at {self.now} "
                f"(phase {self.table.phase}): the shell would spin"
            )
        else:  # pragma: no cover - a bug
            raise AssertionError("timers keep firing")
        self.now = target

    def until(self, phase: TablePhase, limit: float = 600.0) -> None:
        """Advance deadline by deadline until the table reaches ``phase``."""
        end = self.now + limit
        while self.table.phase is not phase:
            deadline = self.table.next_deadline()
            assert deadline is not None and deadline <= end, (
                f"never reached {phase} (phase {self.table.phase})"
            )
            self.advance(deadline - self.now)

    # ------------------------------------------------------------------ connections

    def conn(self, player: str | None = None, *, new: bool = False) -> c.Conn:
        """The player's live connection (a new one if ``new`` or none yet); spectators
        (``player=None``) get a new connection each time."""
        if player is not None and not new and player in self.conns:
            return self.conns[player]
        conn = c.Conn(f"c{next(self._cids)}", player)
        self.player_of[conn.cid] = player
        if player is not None:
            self.conns[player] = conn
        return conn

    def sit(self, player: str, seat: int, name: str | None = None) -> list[Effect]:
        return self.do(c.Sit(conn=self.conn(player), seat=seat, name=name or player.upper()))

    def seat_players(self, n: int) -> list[c.Conn]:
        """Players p1..pn at seats 1..n."""
        for k in range(1, n + 1):
            self.sit(f"p{k}", k)
        return [self.conns[f"p{k}"] for k in range(1, n + 1)]

    def watch(self, player: str | None = None, last_seq: int | None = None) -> c.Conn:
        conn = self.conn(player, new=True)
        self.do(c.Watch(conn=conn, last_seq=last_seq))
        return conn

    def send(self, conn: c.Conn, message: m.Message) -> list[Effect]:
        """A client's protocol message, as the gateway hands it to the table."""
        return self.do(c.from_message(conn, message))

    def act(self, seat: int, verb: str | None, **kw: Any) -> list[Effect]:
        state = self.table.seats[seat]
        conn = self.conns[state.player]
        return self.send(
            conn, m.Act(table=self.table.table, hand=self.table.hand_no, verb=verb, **kw)
        )

    # ------------------------------------------------------------------ the hand

    def to_act(self) -> int:
        hand = self.table.hand
        assert hand is not None
        menu = hand.menu()
        assert menu is not None
        return int(menu.player)

    def start_hand(self) -> None:
        """Wait for the next deal and let the cut time out (a random cut): betting."""
        self.until(TablePhase.CUT)
        self.until(TablePhase.BETTING)

    def play_out(self, verb: str) -> None:
        """Every player to act answers ``verb`` until the betting is over."""
        while self.table.phase is TablePhase.BETTING:
            self.act(self.to_act(), verb)

    # ------------------------------------------------------------------ reading

    def of(self, who: str | c.Conn, cls: type[T]) -> list[T]:
        cid = who.cid if isinstance(who, c.Conn) else self.conns[who].cid
        return self.net.of(cid, cls)

    def last(self, who: str | c.Conn, cls: type[T]) -> T:
        found = self.of(who, cls)
        assert found, f"{who} received no {cls.__name__}"
        return found[-1]

    def errors(self, who: str | c.Conn) -> list[str]:
        return [e.code for e in self.of(who, m.Error)]

    def state(self) -> tuple[Any, ...]:
        """What an illegal command must leave as it was."""
        t = self.table
        hand = t.hand
        return (
            t.phase,
            t.hand_no,
            t.seq,
            tuple(
                (s.seat, s.player, s.stack, s.sitting_out, s.leaving, s.wants_out)
                for s in sorted(t.seats.values(), key=lambda s: s.seat)
            ),
            None if hand is None else (len(hand.events), tuple(hand.stack), hand.to_act),
        )
