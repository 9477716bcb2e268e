"""The messages the server sends to clients (see :mod:`protocol.messages`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .base import BIG, NAME, TEXT, Message, _f

__all__ = [
    "Account",
    "ActionEvent",
    "BoardEvent",
    "ChatEvent",
    "ClockEvent",
    "CutPrompt",
    "DrawnEvent",
    "DrewEvent",
    "Error",
    "HandEnd",
    "HandStart",
    "HoleCards",
    "HoleProof",
    "League",
    "Leagues",
    "Moved",
    "Notice",
    "Pong",
    "PotAwarded",
    "Registered",
    "SeatEvent",
    "SeatRequest",
    "Seated",
    "ShownEvent",
    "Snapshot",
    "TableCreated",
    "TournamentState",
    "Turn",
    "Welcome",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Welcome(Message):
    TYPE: ClassVar[str] = "welcome"
    version: int = _f(1000)
    session: str = _f(128)
    server: str = _f(NAME)
    nickname: str | None = _f(NAME, None)
    member: str | None = _f(NAME, None)
    """The member whose session token ``hello`` carried (None: none, or it ended)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Account(Message):
    """Private: your member account, and a session token to send as ``hello`` ``member``
    (it survives reloads; a new password ends the older ones)."""

    TYPE: ClassVar[str] = "account"
    member: str = _f(NAME)
    login: str = _f(32)
    display: str = _f(NAME)
    lang: str = _f(8)
    token: str = _f(1024)
    ref: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class League(Message):
    """Private: a league as the member sees it, the answer to every ``league_*`` and
    ``season_create`` request. ``role``: owner, director or member (``pending``: his request
    to join waits, and nothing else is said); ``invite`` for the owner
    and directors only; ``seasons``: each ``{"id", "name", "points", "best_of", "events"}``,
    an event ``{"id", "name", "kind", "structure", "starts_at", "requires_account",
    "tournament", "status", "satellite_of", "note", "seats", "qualified_top",
    "qualified_season", "tickets"}`` (``ticket``, the member's own ticket into it, when he
    holds one; ``director``, its console token, for the owner and directors). See
    docs/leagues.md."""

    TYPE: ClassVar[str] = "league"
    league: str = _f(NAME)
    name: str = _f(NAME)
    role: str = _f(16)
    members: int = _f(BIG)
    invite: str | None = _f(NAME, None)
    seasons: tuple[dict[str, Any], ...] = _f(1000, ())
    people: tuple[dict[str, Any], ...] = _f(10_000, ())
    """For the owner and directors: every member ``{"member", "name", "role"}``, those
    waiting for approval (``pending``) first (``league_role``)."""
    approval: bool = _f(1, False)
    """Whoever joins with the invite waits for an owner's or a director's approval."""
    ref: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Leagues(Message):
    """Private: the member's leagues (the answer to ``league_list``), each ``{"league",
    "name", "role", "members"}``, oldest first."""

    TYPE: ClassVar[str] = "leagues"
    leagues: tuple[dict[str, Any], ...] = _f(1000, ())
    ref: int | None = _f(BIG, None)


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
    stub_commit: str | None = _f(128, None)
    """Five-card draw: the commitment to the order of a new stub (docs/fairness.md),
    published with ``commitment`` before the cut; absent at hold'em."""


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
    cards: tuple[str, ...] = _f(5)
    """Two at hold'em, five at five-card draw."""


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
class DrewEvent(Message):
    """Public, five-card draw: ``seat`` drew ``count`` cards (0: stood pat), as everyone sees
    at a live table. ``reshuffled``: the stub had run out and that many cards formed a new
    stub before his draw (the burn card and the earlier discards, never his)."""

    TYPE: ClassVar[str] = "drew"
    table: str = _f(NAME)
    seq: int = _f(BIG)
    hand: int = _f(BIG)
    seat: int = _f(10)
    count: int = _f(5)
    reshuffled: int | None = _f(52, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawnEvent(Message):
    """Five-card draw, right after the ``drew`` of ``seat``: the cards his player discarded,
    those he received in their place and his five cards now. The cards go to that player
    only (as a ``hole`` event's); everyone else, spectators and whoever sits there later
    included, gets this event with empty lists."""

    TYPE: ClassVar[str] = "drawn"
    table: str = _f(NAME)
    seq: int = _f(BIG)
    hand: int = _f(BIG)
    seat: int = _f(10)
    discarded: tuple[str, ...] = _f(5, ())
    received: tuple[str, ...] = _f(5, ())
    cards: tuple[str, ...] = _f(5, ())


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardEvent(Message):
    TYPE: ClassVar[str] = "board"
    table: str = _f(NAME)
    seq: int = _f(BIG)
    hand: int = _f(BIG)
    street: str = _f(8)
    cards: tuple[str, ...] = _f(5)
    pots: tuple[dict[str, Any], ...] = _f(16, ())
    """The pots once the previous round's bets are gathered, main pot first, exactly the
    engine's: ``{"amount": int, "eligible": [seats]}`` each (a side pot only if someone is
    all-in)."""
    run: int | None = _f(3, None)
    """The run of the board this street belongs to, 2 or 3, when the board is run several
    times (fpc multi-bordes, run it twice); absent for the first run."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ShownEvent(Message):
    TYPE: ClassVar[str] = "shown"
    table: str = _f(NAME)
    seq: int = _f(BIG)
    hand: int = _f(BIG)
    seat: int = _f(10)
    cards: tuple[str, ...] = _f(5)
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
    run: int | None = _f(3, None)
    """The run this part of the pot was played on, 2 or 3 (one ``pot`` per run and pot);
    absent for the first run."""
    rake: int | None = _f(BIG, None)
    """Chips of ``amount`` the house kept (casino « la taille »): ``shares`` add up to
    ``amount - rake``; absent when nothing was raked."""


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
    by: int | None = _f(10, None)
    """``time``: the seat that called the Time."""


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
    decision: int = _f(BIG, 0)
    """The id of this decision: the same when the same decision is offered again (a
    reconnection), a new, larger one for every new decision of the table."""
    draw: bool | None = _f(1, None)
    """Five-card draw: true when the decision is your draw (answer with ``draw``; the
    betting fields are then 0/false); absent otherwise."""
    max_discard: int | None = _f(5, None)
    """Five-card draw, ``draw`` true: the most cards you may discard."""
    cards: tuple[str, ...] | None = _f(5, None)
    """Five-card draw, ``draw`` true: the five cards you hold, to name those you discard."""


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
    host: str = _f(1024, "")
    """The creator's token: ``GET /api/tables/<table>/invite`` gives the invite again."""
    ref: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Seated(Message):
    """Private: you hold ``seat``; ``token`` lets you come back (it rotates at every login)."""

    TYPE: ClassVar[str] = "seated"
    table: str = _f(NAME)
    seat: int = _f(10)
    token: str = _f(1024)
    ref: int | None = _f(BIG, None)
    """The ``id`` of the ``sit`` it answers (None at a login with a seat token)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Notice(Message):
    """Private, unsequenced: an out-of-turn declaration recorded/released, a held chat..."""

    TYPE: ClassVar[str] = "notice"
    table: str = _f(NAME)
    kind: str = _f(32)
    text: str = _f(TEXT)
    rule: str = _f(NAME, "")


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatRequest(Message):
    """Private, unsequenced, to everyone watching a table that asks its host: ``player``
    asks to sit at ``seat`` (with ``buy_in`` chips at a cash table); the host answers with
    ``host`` ``approve`` or ``refuse``."""

    TYPE: ClassVar[str] = "seat_request"
    table: str = _f(NAME)
    seat: int = _f(10)
    player: str = _f(NAME)
    buy_in: int | None = _f(BIG, None)
    to: str = _f(NAME, "")
    """A seated player asks to change to table ``to`` of the room (casino: the host agrees
    with ``host`` ``move``)."""


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
    invite: str = _f(1024, "")
    """A cash room's move: an invite of ``table`` (the page opens it; ``seated`` follows)."""
