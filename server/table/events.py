"""The events a table emits: typed, frozen, one class per kind (pure: no I/O).

Every event a table sequences is one of these. Each class knows its ``kind`` (the name of
the server message it becomes, ``protocol.messages.SERVER_MESSAGES[kind]``, and the kind
stored in the events table) and gives its :meth:`TableEvent.payload`: the JSON object that is
stored as it is, ``(seq, kind, payload)``, and rendered by :func:`server.table.outbox.render`.
A class is named after its kind (``hand_start`` -> :class:`HandStart`).

Only :meth:`TableEvent.payload` builds a dict: the keys, their order and the optional keys
left out are exactly those of the stored format, so that data directories written before
these classes existed and after read the same. Events read back from the store (catch-up,
resync, recovery) stay ``(seq, kind, payload)``: they are only re-rendered, never rebuilt.

The one private field is a ``hole`` event's :attr:`Hole.owner` (a player identity): stored,
so that a resync after a restart still knows whose cards they are, and never sent (the
renderer strips it; see :mod:`server.table.outbox`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

__all__ = [
    "EVENT_CLASSES",
    "Action",
    "Board",
    "ChatEvent",
    "ClockEvent",
    "ClockKind",
    "CutPrompt",
    "Drawn",
    "Drew",
    "HandEnd",
    "HandStart",
    "Hole",
    "Pot",
    "PotView",
    "Seat",
    "Shown",
    "TableEvent",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class TableEvent:
    """One sequenced event of a table (a base: never emitted itself)."""

    kind: ClassVar[str] = ""
    """The message kind on the wire and in the store."""

    def payload(self) -> dict[str, Any]:
        """The event as stored, a JSON object (a new dict on every call)."""
        raise NotImplementedError(type(self).__name__)


def _stacks(stacks: tuple[tuple[int, int], ...]) -> dict[str, int]:
    """Seat -> chips, keyed by the seat number as a string (JSON objects' keys)."""
    return {str(seat): chips for seat, chips in stacks}


class ClockKind(StrEnum):
    """Which clock a ``clock_event`` starts (its ``kind`` on the wire)."""

    ACTION = "action"
    """The action clock of the player to act (``action_seconds``)."""
    TIME = "time"
    """The Time was called on the player to act (cdc 3.5, tda 27): ``countdown_ms`` too."""
    BANK = "bank"
    """The player to act is using his time bank."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PotView:
    """A pot as a ``board`` event (and a snapshot) shows it: the chips gathered in the
    middle and the seats that may win them (see :func:`server.table.views.pot_views`)."""

    amount: int
    eligible: tuple[int, ...]

    def payload(self) -> dict[str, Any]:
        return {"amount": self.amount, "eligible": list(self.eligible)}


# ---------------------------------------------------------------------- seats and chat


@dataclass(frozen=True, slots=True, kw_only=True)
class Seat(TableEvent):
    """A seat changed: seated, left, busted, (dis)connected, sitting out or in, a new stack."""

    kind: ClassVar[str] = "seat"
    seat: int
    player: str
    """The player's name (never his identity)."""
    stack: int
    status: str

    def payload(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player": self.player,
            "stack": self.stack,
            "status": self.status,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class ChatEvent(TableEvent):
    """A line of table chat (``seat`` None: a spectator, the director or the host)."""

    kind: ClassVar[str] = "chat_event"
    seat: int | None
    player: str
    text: str

    def payload(self) -> dict[str, Any]:
        return {"seat": self.seat, "player": self.player, "text": self.text}


# ---------------------------------------------------------------------- a hand


@dataclass(frozen=True, slots=True, kw_only=True)
class HandStart(TableEvent):
    """A hand is opened: positions, blinds, the stacks dealt in and the deck's commitment."""

    kind: ClassVar[str] = "hand_start"
    hand: int
    button: int
    small_blind: int | None
    """None: a dead small blind (cdc 4.3) or nobody pays it (fpc 17-3, 17-4)."""
    big_blind: int
    blinds: tuple[int, int, int]
    """Small blind, big blind, ante."""
    stacks: tuple[tuple[int, int], ...]
    """(seat, chips) of every seat dealt in, in the order dealt in."""
    commitment: str
    stub_commit: str | None = None
    """Five-card draw: the commitment to a new stub's order (None: left out, hold'em)."""

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "hand": self.hand,
            "button": self.button,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "blinds": list(self.blinds),
            "stacks": _stacks(self.stacks),
            "commitment": self.commitment,
        }
        if self.stub_commit is not None:
            data["stub_commit"] = self.stub_commit
        return data


@dataclass(frozen=True, slots=True, kw_only=True)
class CutPrompt(TableEvent):
    """The player on the dealer's right is asked to cut (cdc 5.2)."""

    kind: ClassVar[str] = "cut_prompt"
    hand: int
    seat: int
    deadline_ms: int

    def payload(self) -> dict[str, Any]:
        return {"hand": self.hand, "seat": self.seat, "deadline_ms": self.deadline_ms}


@dataclass(frozen=True, slots=True, kw_only=True)
class Hole(TableEvent):
    """A seat's hole cards, shown only to their ``owner``; everyone else gets no cards."""

    kind: ClassVar[str] = "hole"
    hand: int
    seat: int
    cards: tuple[str, ...]
    owner: str | None = None
    """The identity of the player dealt in (private: stored, never sent). The table sets it
    (:mod:`server.table.play`); the engine's translation does not know it."""

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {"hand": self.hand, "seat": self.seat, "cards": list(self.cards)}
        if self.owner is not None:
            data["owner"] = self.owner
        return data


@dataclass(frozen=True, slots=True, kw_only=True)
class Action(TableEvent):
    """A seat's action, post, return of chips or muck, with its stack after it."""

    kind: ClassVar[str] = "action"
    hand: int
    seat: int
    action: str
    to: int
    added: int
    stack: int
    allin: bool
    rule: str
    note: str

    def payload(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "seat": self.seat,
            "action": self.action,
            "to": self.to,
            "added": self.added,
            "stack": self.stack,
            "allin": self.allin,
            "rule": self.rule,
            "note": self.note,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Board(TableEvent):
    """Board cards dealt (a street, or a run of a board run more than once)."""

    kind: ClassVar[str] = "board"
    hand: int
    street: str
    cards: tuple[str, ...]
    run: int | None = None
    """The run it belongs to (fpc multi-bordes); None: the hand's board."""
    pots: tuple[PotView, ...] | None = None
    """The pots once the round's bets are gathered (the table adds them; None: left out)."""

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {"hand": self.hand, "street": self.street, "cards": list(self.cards)}
        if self.run is not None:
            data["run"] = self.run
        if self.pots is not None:
            data["pots"] = [p.payload() for p in self.pots]
        return data


@dataclass(frozen=True, slots=True, kw_only=True)
class Drew(TableEvent):
    """Five-card draw, public: a seat drew ``count`` cards (0: stood pat)."""

    kind: ClassVar[str] = "drew"
    hand: int
    seat: int
    count: int
    reshuffled: int | None = None
    """Cards gathered into a new stub just before this draw (None: left out, none)."""

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {"hand": self.hand, "seat": self.seat, "count": self.count}
        if self.reshuffled is not None:
            data["reshuffled"] = self.reshuffled
        return data


@dataclass(frozen=True, slots=True, kw_only=True)
class Drawn(TableEvent):
    """Five-card draw: what a seat's player discarded and received, and his five cards now,
    shown only to their ``owner`` (as a :class:`Hole`); everyone else gets no cards, and the
    discards are never shown to anyone else, not even in commentary mode."""

    kind: ClassVar[str] = "drawn"
    hand: int
    seat: int
    discarded: tuple[str, ...]
    received: tuple[str, ...]
    cards: tuple[str, ...]
    owner: str | None = None
    """The identity of the player who drew (private: stored, never sent; the table sets it)."""

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "hand": self.hand,
            "seat": self.seat,
            "discarded": list(self.discarded),
            "received": list(self.received),
            "cards": list(self.cards),
        }
        if self.owner is not None:
            data["owner"] = self.owner
        return data


@dataclass(frozen=True, slots=True, kw_only=True)
class Shown(TableEvent):
    """A seat's cards shown face up, with the hand they make."""

    kind: ClassVar[str] = "shown"
    hand: int
    seat: int
    cards: tuple[str, ...]
    rank: str

    def payload(self) -> dict[str, Any]:
        return {"hand": self.hand, "seat": self.seat, "cards": list(self.cards), "rank": self.rank}


@dataclass(frozen=True, slots=True, kw_only=True)
class Pot(TableEvent):
    """A pot (or a run's part of it) awarded: ``shares`` pay the ``winners`` in order."""

    kind: ClassVar[str] = "pot"
    hand: int
    index: int
    amount: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    run: int | None = None
    """The run it was won on, from the second (fpc multi-bordes); None: the first or only."""
    rake: int | None = None
    """The house's cut (casino cash, « la taille »); None: no rake."""

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "hand": self.hand,
            "index": self.index,
            "amount": self.amount,
            "winners": list(self.winners),
            "shares": list(self.shares),
        }
        if self.run is not None:
            data["run"] = self.run
        if self.rake is not None:
            data["rake"] = self.rake
        return data


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEnd(TableEvent):
    """The hand is over (or called off, or cancelled by a restart: cdc 2.2, 5.4)."""

    kind: ClassVar[str] = "hand_end"
    hand: int
    stacks: tuple[tuple[int, int], ...]
    """(seat, chips) after the hand."""
    record: str
    """Where its hand record is served ("" when cancelled)."""
    cancelled: bool

    def payload(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "stacks": _stacks(self.stacks),
            "record": self.record,
            "cancelled": self.cancelled,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockEvent(TableEvent):
    """A clock starts on the player to act (its ``kind`` on the wire is :attr:`clock`)."""

    kind: ClassVar[str] = "clock_event"
    hand: int
    seat: int
    clock: ClockKind
    remaining_ms: int
    countdown_ms: int | None = None
    """The Time's countdown (cdc 3.5); None: left out (the action clock, the bank)."""
    by: int | None = None
    """The seat that called the Time (kind ``time``); None: left out."""

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "hand": self.hand,
            "seat": self.seat,
            "kind": self.clock.value,
            "remaining_ms": self.remaining_ms,
        }
        if self.countdown_ms is not None:
            data["countdown_ms"] = self.countdown_ms
        if self.by is not None:
            data["by"] = self.by
        return data


EVENT_CLASSES: dict[str, type[TableEvent]] = {
    cls.kind: cls
    for cls in (
        Seat,
        ChatEvent,
        HandStart,
        CutPrompt,
        Hole,
        Action,
        Board,
        Drew,
        Drawn,
        Shown,
        Pot,
        HandEnd,
        ClockEvent,
    )
}
"""Every kind a table emits -> its class."""
