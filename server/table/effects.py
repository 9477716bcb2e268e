"""What a table asks its shell to do: typed, frozen effects, carried out in order.

The shell (:mod:`server.table.actor`) runs them one after the other. A :class:`Write` is
always before the deliveries of what it writes ("nothing is sent before it is stored"); if
it fails, the shell stops there and hands the rest back to the table
(:meth:`~server.table.table.Table.write_failed`), which halts and retries the very same
write later (same sequence numbers: no gap).
"""

from __future__ import annotations

from dataclasses import dataclass

from server.store.batch import TableWrite
from server.table.report import HandEnded

__all__ = [
    "Deliver",
    "DirectorAllIn",
    "DirectorReady",
    "Effect",
    "GrantSeat",
    "Halted",
    "HandFinished",
    "Kick",
    "ReportHand",
    "Resumed",
    "Transfer",
    "Write",
]


@dataclass(frozen=True, slots=True)
class Write:
    """One atomic store write: events, and the snapshot and hand record when they change."""

    batch: TableWrite


@dataclass(frozen=True, slots=True)
class Deliver:
    """The same encoded frame to each of these connections."""

    cids: tuple[str, ...]
    frame: bytes


@dataclass(frozen=True, slots=True)
class Kick:
    """Close a connection with a stable code (a newer login took its seat)."""

    cid: str
    code: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class GrantSeat:
    """The seat is durably saved: the gateway may now issue (rotate) the seat token and
    send ``seated``. Credentials change only after what they protect is saved."""

    cid: str
    table: str
    seat: int
    player: str
    name: str
    ref: int | None = None


@dataclass(frozen=True, slots=True)
class DirectorReady:
    """A director-driven table waits for the director's next deal."""


@dataclass(frozen=True, slots=True)
class DirectorAllIn:
    """Hand-for-hand: an all-in is held face down until every table has finished."""


@dataclass(frozen=True, slots=True)
class ReportHand:
    report: HandEnded


@dataclass(frozen=True, slots=True)
class HandFinished:
    """A hand was played to its end (metrics, waiters)."""

    hand_no: int


@dataclass(frozen=True, slots=True)
class Halted:
    """The store failed: the table is halted (health degraded) until a retry succeeds."""

    error: str


@dataclass(frozen=True, slots=True)
class Resumed:
    """The store works again; the table goes on where it stopped."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Transfer:
    """A cash player left for table ``to`` of the room with ``stack``, saved in this table's
    ledger (``moved_out``): the gateway seats him there (server.gateway.cash_room)."""

    cid: str | None
    player: str
    name: str
    stack: int
    source: str
    to: str
    kind: str
    seat_fee: bool


Effect = (
    Write
    | Deliver
    | Kick
    | GrantSeat
    | DirectorReady
    | DirectorAllIn
    | ReportHand
    | HandFinished
    | Halted
    | Resumed
    | Transfer
)
