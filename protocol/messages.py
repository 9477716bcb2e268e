"""Every message on the wire as a typed frozen dataclass (one class per kind).

On the wire a message is a msgpack map: ``{"t": TYPE, ...fields}``. Client messages may carry
``id`` (an integer the server echoes in the ``error`` it may answer with). Field limits live in
each field's metadata (``max`` for numbers, strings and lists). See docs/protocol.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

__all__ = [
    "CLIENT_MESSAGES",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGES",
    "Abandon",
    "Act",
    "ActionEvent",
    "BoardEvent",
    "CallClock",
    "CallDirector",
    "Chat",
    "ChatEvent",
    "ClockEvent",
    "CreateTable",
    "Cut",
    "CutPrompt",
    "Direct",
    "Error",
    "FollowTournament",
    "HandEnd",
    "HandStart",
    "Hello",
    "HoleCards",
    "HoleProof",
    "JoinTable",
    "LeaveTable",
    "Message",
    "Moved",
    "Muck",
    "Notice",
    "Ping",
    "Pong",
    "PotAwarded",
    "Register",
    "Registered",
    "Resync",
    "SeatEvent",
    "Seated",
    "Show",
    "ShownEvent",
    "SitIn",
    "SitOut",
    "Snapshot",
    "TableCreated",
    "TakeSeat",
    "TournamentState",
    "Turn",
    "UseTimeBank",
    "Welcome",
]

PROTOCOL_VERSION = 1

BIG = 2**53
NAME = 64
TEXT = 500
CHIPS = 200


def _f(max_: int, default: Any = ...) -> Any:
    if default is ...:
        return field(metadata={"max": max_})
    return field(default=default, metadata={"max": max_})


@dataclass(frozen=True, slots=True, kw_only=True)
class Message:
    TYPE: ClassVar[str] = ""


# ---------------------------------------------------------------- client -> server


@dataclass(frozen=True, slots=True, kw_only=True)
class Hello(Message):
    """First frame of a connection. ``token``: a seat or invite token (friends mode);
    ``session``+``last_seq``: resume a previous connection."""

    TYPE: ClassVar[str] = "hello"
    version: int = _f(1000)
    nickname: str | None = _f(NAME, None)
    token: str | None = _f(1024, None)
    session: str | None = _f(128, None)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinTable(Message):
    """Watch a table (spectators get a delayed view), or come back to one's seat."""

    TYPE: ClassVar[str] = "join"
    table: str = _f(NAME)
    last_seq: int | None = _f(BIG, None)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaveTable(Message):
    TYPE: ClassVar[str] = "leave"
    table: str = _f(NAME)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class TakeSeat(Message):
    """Sit at ``seat`` with a seat token (bound to that table and seat)."""

    TYPE: ClassVar[str] = "sit"
    table: str = _f(NAME)
    seat: int = _f(10)
    token: str = _f(1024)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Act(Message):
    """A declaration (``verb``/``amount``/``form``), chips pushed in one motion, or both:
    the two channels of a live table (cdc 9.4)."""

    TYPE: ClassVar[str] = "act"
    table: str = _f(NAME)
    hand: int = _f(BIG)
    verb: str | None = _f(16, None)
    amount: int | None = _f(BIG, None)
    form: str | None = _f(16, None)
    chips: tuple[int, ...] | None = _f(CHIPS, None)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Cut(Message):
    """The cut, sent by the player on the dealer's right (cdc 5.2)."""

    TYPE: ClassVar[str] = "cut"
    table: str = _f(NAME)
    hand: int = _f(BIG)
    position: int = _f(51)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class CallClock(Message):
    """Call the "Time" on the player to act (cdc 3.5, tda 27)."""

    TYPE: ClassVar[str] = "clock"
    table: str = _f(NAME)
    hand: int = _f(BIG)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class UseTimeBank(Message):
    TYPE: ClassVar[str] = "timebank"
    table: str = _f(NAME)
    hand: int = _f(BIG)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class SitOut(Message):
    TYPE: ClassVar[str] = "sitout"
    table: str = _f(NAME)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class SitIn(Message):
    TYPE: ClassVar[str] = "sitin"
    table: str = _f(NAME)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Show(Message):
    TYPE: ClassVar[str] = "show"
    table: str = _f(NAME)
    hand: int = _f(BIG)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Muck(Message):
    TYPE: ClassVar[str] = "muck"
    table: str = _f(NAME)
    hand: int = _f(BIG)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Chat(Message):
    TYPE: ClassVar[str] = "chat"
    table: str = _f(NAME)
    text: str = _f(TEXT)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Ping(Message):
    TYPE: ClassVar[str] = "ping"
    nonce: int = _f(BIG)


@dataclass(frozen=True, slots=True, kw_only=True)
class Resync(Message):
    """Send me every event of ``table`` after ``last_seq`` (or a snapshot)."""

    TYPE: ClassVar[str] = "resync"
    table: str = _f(NAME)
    last_seq: int = _f(BIG)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateTable(Message):
    """Create a friends table; the answer is ``table_created`` with its invite token."""

    TYPE: ClassVar[str] = "create"
    name: str = _f(NAME)
    profile: str = _f(8, "cdc")
    sb: int = _f(BIG, 50)
    bb: int = _f(BIG, 100)
    ante: int = _f(BIG, 0)
    ante_format: str = _f(16, "none")
    max_seats: int = _f(10, 9)
    starting_stack: int = _f(BIG, 10_000)
    action_seconds: int = _f(3600, 30)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Register(Message):
    """Register for a tournament under the ``hello`` nickname; the answer is ``registered``
    with a player token (keep it: it brings you back to your seat wherever you are moved)."""

    TYPE: ClassVar[str] = "register"
    tournament: str = _f(NAME)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class FollowTournament(Message):
    """Watch a tournament (``tournament`` state events). With a player ``token``, also sit at
    your current table and seat, and follow every move (``moved``)."""

    TYPE: ClassVar[str] = "follow"
    tournament: str = _f(NAME)
    token: str | None = _f(1024, None)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Abandon(Message):
    """A player announces he leaves the tournament (cdc 1.9): his chips are removed and he is
    ranked at once. Needs the player token; cannot be undone."""

    TYPE: ClassVar[str] = "abandon"
    tournament: str = _f(NAME)
    token: str = _f(1024)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class CallDirector(Message):
    """A tournament player calls the director to his table (a dispute, a question): the call
    waits in the director's console for a ruling, which is said at the table."""

    TYPE: ClassVar[str] = "call_director"
    table: str = _f(NAME)
    hand: int | None = _f(BIG, None)
    text: str = _f(300, "")
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Direct(Message):
    """A director's command (director token): ``op`` is one of start, pause, resume, move,
    warn, penalty, disqualify, adjust, rule, folded (see docs/protocol.md)."""

    TYPE: ClassVar[str] = "direct"
    tournament: str = _f(NAME)
    token: str = _f(1024)
    op: str = _f(16)
    player: str | None = _f(NAME, None)
    table: str | None = _f(NAME, None)
    seat: int | None = _f(10, None)
    amount: int | None = _f(BIG, None)
    hands: int | None = _f(1000, None)
    text: str | None = _f(TEXT, None)
    id: int | None = _f(BIG, None)


# ---------------------------------------------------------------- server -> client


@dataclass(frozen=True, slots=True, kw_only=True)
class Welcome(Message):
    TYPE: ClassVar[str] = "welcome"
    version: int = _f(1000)
    session: str = _f(128)
    server: str = _f(NAME)
    nickname: str | None = _f(NAME, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Error(Message):
    """A refused frame or command. ``code`` is stable (protocol/errors.py, or ``rule.*``)."""

    TYPE: ClassVar[str] = "error"
    code: str = _f(64)
    message: str = _f(TEXT)
    rule: str | None = _f(NAME, None)
    ref: int | None = _f(BIG, None)
    table: str | None = _f(NAME, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Pong(Message):
    TYPE: ClassVar[str] = "pong"
    nonce: int = _f(BIG)


@dataclass(frozen=True, slots=True, kw_only=True)
class Snapshot(Message):
    """The whole visible state of a table for this recipient, at sequence ``seq``."""

    TYPE: ClassVar[str] = "snapshot"
    table: str = _f(NAME)
    seq: int = _f(BIG)
    state: dict[str, Any] = _f(4096)


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatEvent(Message):
    """A seat changed: someone sat, left, sat out, came back, connected or disconnected."""

    TYPE: ClassVar[str] = "seat"
    table: str = _f(NAME)
    seq: int = _f(BIG)
    seat: int = _f(10)
    player: str | None = _f(NAME, None)
    stack: int = _f(BIG, 0)
    status: str = _f(16, "")


@dataclass(frozen=True, slots=True, kw_only=True)
class HandStart(Message):
    TYPE: ClassVar[str] = "hand_start"
    table: str = _f(NAME)
    seq: int = _f(BIG)
    hand: int = _f(BIG)
    button: int = _f(10)
    small_blind: int | None = _f(10, None)
    big_blind: int = _f(10)
    blinds: tuple[int, ...] = _f(4)
    stacks: dict[str, Any] = _f(16)
    commitment: str = _f(128, "")
    """Merkle root of the per-position deck commitments, published before the deal."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CutPrompt(Message):
    TYPE: ClassVar[str] = "cut_prompt"
    table: str = _f(NAME)
    seq: int = _f(BIG)
    hand: int = _f(BIG)
    seat: int = _f(10)
    deadline_ms: int = _f(BIG)


@dataclass(frozen=True, slots=True, kw_only=True)
class HoleCards(Message):
    """Sent only to the seat's own connection (never to spectators or other players)."""

    TYPE: ClassVar[str] = "hole"
    table: str = _f(NAME)
    seq: int = _f(BIG)
    hand: int = _f(BIG)
    seat: int = _f(10)
    cards: tuple[str, ...] = _f(2)


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionEvent(Message):
    """A posted blind/ante or a betting action as the rules made it, with the rule and a
    note in words when the gesture was corrected ("two 1000 chips facing 1200: call")."""

    TYPE: ClassVar[str] = "action"
    table: str = _f(NAME)
    seq: int = _f(BIG)
    hand: int = _f(BIG)
    seat: int = _f(10)
    action: str = _f(16)
    to: int = _f(BIG)
    added: int = _f(BIG)
    stack: int = _f(BIG)
    allin: bool = False
    rule: str = _f(NAME, "")
    note: str = _f(TEXT, "")


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardEvent(Message):
    TYPE: ClassVar[str] = "board"
    table: str = _f(NAME)
    seq: int = _f(BIG)
    hand: int = _f(BIG)
    street: str = _f(8)
    cards: tuple[str, ...] = _f(5)


@dataclass(frozen=True, slots=True, kw_only=True)
class ShownEvent(Message):
    TYPE: ClassVar[str] = "shown"
    table: str = _f(NAME)
    seq: int = _f(BIG)
    hand: int = _f(BIG)
    seat: int = _f(10)
    cards: tuple[str, ...] = _f(2)
    rank: str = _f(NAME, "")


@dataclass(frozen=True, slots=True, kw_only=True)
class PotAwarded(Message):
    TYPE: ClassVar[str] = "pot"
    table: str = _f(NAME)
    seq: int = _f(BIG)
    hand: int = _f(BIG)
    index: int = _f(16)
    amount: int = _f(BIG)
    winners: tuple[int, ...] = _f(10)
    shares: tuple[int, ...] = _f(10)


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEnd(Message):
    TYPE: ClassVar[str] = "hand_end"
    table: str = _f(NAME)
    seq: int = _f(BIG)
    hand: int = _f(BIG)
    stacks: dict[str, Any] = _f(16)
    record: str = _f(256, "")
    """Where the signed hand record can be fetched (with the opened positions)."""
    cancelled: bool = False
    """The hand was cancelled and every bet returned (cdc 5.4, after a server crash)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockEvent(Message):
    """A clock started or changed: ``kind`` is ``action``, ``bank`` or ``time`` (called)."""

    TYPE: ClassVar[str] = "clock_event"
    table: str = _f(NAME)
    seq: int = _f(BIG)
    hand: int = _f(BIG)
    seat: int = _f(10)
    kind: str = _f(16)
    remaining_ms: int = _f(BIG)
    countdown_ms: int = _f(BIG, 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class ChatEvent(Message):
    TYPE: ClassVar[str] = "chat_event"
    table: str = _f(NAME)
    seq: int = _f(BIG)
    seat: int | None = _f(10, None)
    player: str = _f(NAME)
    text: str = _f(TEXT)


@dataclass(frozen=True, slots=True, kw_only=True)
class Turn(Message):
    """Private, unsequenced: it is your turn, with your legal options (built by the engine).
    ``call`` is the additional chips to call (0: check); raise bounds are raise-to totals."""

    TYPE: ClassVar[str] = "turn"
    table: str = _f(NAME)
    hand: int = _f(BIG)
    seat: int = _f(10)
    call: int = _f(BIG)
    can_check: bool = False
    can_fold: bool = True
    can_raise: bool = False
    min_raise_to: int | None = _f(BIG, None)
    max_raise_to: int | None = _f(BIG, None)
    pending: str | None = _f(16, None)
    """``amount`` while a declared raise awaits its amount, ``call_or_fold`` if restricted."""
    remaining_ms: int = _f(BIG, 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class HoleProof(Message):
    """Private, at hand end: the openings of your own hole cards (position, card, salt,
    Merkle proof) so you can check them against the commitment of the hand (docs/fairness.md).
    """

    TYPE: ClassVar[str] = "hole_proof"
    table: str = _f(NAME)
    hand: int = _f(BIG)
    root: str = _f(128)
    cut: int = _f(51)
    openings: dict[str, Any] = _f(4)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableCreated(Message):
    TYPE: ClassVar[str] = "table_created"
    table: str = _f(NAME)
    invite: str = _f(1024)
    ref: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Seated(Message):
    """Private: you hold ``seat``; ``token`` lets you come back (it rotates at every login)."""

    TYPE: ClassVar[str] = "seated"
    table: str = _f(NAME)
    seat: int = _f(10)
    token: str = _f(1024)


@dataclass(frozen=True, slots=True, kw_only=True)
class Notice(Message):
    """Private, unsequenced: an out-of-turn declaration recorded/released, a held chat..."""

    TYPE: ClassVar[str] = "notice"
    table: str = _f(NAME)
    kind: str = _f(32)
    text: str = _f(TEXT)
    rule: str = _f(NAME, "")


@dataclass(frozen=True, slots=True, kw_only=True)
class Registered(Message):
    """Private: you are registered as ``player``; ``token`` is your tournament token."""

    TYPE: ClassVar[str] = "registered"
    tournament: str = _f(NAME)
    player: str = _f(NAME)
    token: str = _f(1024)
    ref: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentState(Message):
    """The tournament as a lobby shows it (level, blinds, clock, players, payouts, tables,
    and for a player his table and seat). Sent on ``follow`` and at every change."""

    TYPE: ClassVar[str] = "tournament"
    tournament: str = _f(NAME)
    state: dict[str, Any] = _f(4096)


@dataclass(frozen=True, slots=True, kw_only=True)
class Moved(Message):
    """Private: the director moved you (balancing, a table broken, the final table). Your
    connection already sits at ``table``; ``url`` (if any) is the server hosting it now."""

    TYPE: ClassVar[str] = "moved"
    tournament: str = _f(NAME)
    table: str = _f(NAME)
    seat: int = _f(10)
    from_table: str = _f(NAME, "")
    reason: str = _f(32, "")
    url: str = _f(1024, "")


CLIENT_MESSAGES: dict[str, type[Message]] = {
    cls.TYPE: cls
    for cls in (
        Hello,
        JoinTable,
        LeaveTable,
        TakeSeat,
        Act,
        Cut,
        CallClock,
        UseTimeBank,
        SitOut,
        SitIn,
        Show,
        Muck,
        Chat,
        Ping,
        Resync,
        CreateTable,
        Register,
        FollowTournament,
        Direct,
        CallDirector,
        Abandon,
    )
}
SERVER_MESSAGES: dict[str, type[Message]] = {
    cls.TYPE: cls
    for cls in (
        Welcome,
        Error,
        Pong,
        Snapshot,
        SeatEvent,
        HandStart,
        CutPrompt,
        HoleCards,
        ActionEvent,
        BoardEvent,
        ShownEvent,
        PotAwarded,
        HandEnd,
        ClockEvent,
        ChatEvent,
        Seated,
        Notice,
        TableCreated,
        Turn,
        HoleProof,
        Registered,
        TournamentState,
        Moved,
    )
}
