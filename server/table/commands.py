"""What a table is told: typed, frozen commands (STYLE.md 3), one class per kind.

Three sources, one inbox:

- a **connection** (the gateway, after decoding and checking the session): every command
  carries the :class:`Conn` it came from — the connection id and the player identity the
  gateway authenticated (None for an anonymous spectator). Private events go to a player
  identity, never to a seat number (ARCHITECTURE, trust invariants);
- the **director** of a tournament (the host): seats, removals, stacks, deals, holds;
- nothing else: timers are :meth:`~server.table.table.Table.tick`, not commands.

:func:`from_message` turns a decoded client message into its command (pure).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from protocol import messages as m
from protocol.errors import ErrorCode, ProtocolError
from server.engine import Blinds, parse_card
from server.engine.positions import Positions

__all__ = [
    "AddChips",
    "AskChange",
    "Attach",
    "BuyIn",
    "CallTime",
    "Chat",
    "CloseTable",
    "Command",
    "Conn",
    "ConnCommand",
    "CutDeck",
    "Declare",
    "DirectorCommand",
    "DrawCards",
    "Gone",
    "HoldDeal",
    "HostOrder",
    "JoinWaitingList",
    "Leave",
    "MoveIn",
    "MoveOut",
    "NextDeal",
    "Penalty",
    "RefuseSeat",
    "Rejoin",
    "RemovePlayer",
    "Resync",
    "Reveal",
    "RunIt",
    "SeatPlayer",
    "SetStack",
    "ShowCards",
    "Sit",
    "SitIn",
    "SitOut",
    "SpectatorMode",
    "TableNote",
    "TakeOption",
    "UseBank",
    "Watch",
    "from_message",
    "seat_command",
]


@dataclass(frozen=True, slots=True)
class Conn:
    """A connection as the table knows it: its id, and the player it speaks for."""

    cid: str
    player: str | None = None


# ---------------------------------------------------------------- from a connection


@dataclass(frozen=True, slots=True, kw_only=True)
class Watch:
    """Watch the table; a seated player's connection also takes its seat back."""

    conn: Conn
    last_seq: int | None = None
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Sit:
    """Sit at ``seat`` (friends tables); the seat token is issued only once it is saved."""

    conn: Conn
    seat: int
    name: str
    ref: int | None = None
    approved: bool = False
    """The host approved it (a table that asks its host: server.table.hosting)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Rejoin:
    """A seat token presented at login: the seat must still be this player's."""

    conn: Conn
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Attach:
    """A registered tournament player's connection, to the seat the director gave him."""

    conn: Conn
    last_seq: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Gone:
    """The connection closed."""

    conn: Conn


@dataclass(frozen=True, slots=True, kw_only=True)
class Leave:
    conn: Conn
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Resync:
    conn: Conn
    last_seq: int
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Chat:
    conn: Conn
    text: str
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SitOut:
    conn: Conn
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SitIn:
    conn: Conn
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CutDeck:
    conn: Conn
    hand: int
    position: int
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Declare:
    """An action: a declaration, chips pushed in one motion, or both (cdc 9.4)."""

    conn: Conn
    hand: int
    verb: str | None = None
    amount: int | None = None
    form: str | None = None
    chips: tuple[int, ...] | None = None
    decision: int | None = None
    """The decision this answers (``stale_decision`` unless it is the one open for the seat);
    None: as the gesture comes, in turn or out of turn (cdc 9.3)."""
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawCards:
    """Five-card draw: discard these cards (none: stand pat) and be dealt as many."""

    conn: Conn
    hand: int
    discard: tuple[int, ...] = ()
    decision: int | None = None
    """As :attr:`Declare.decision`: the draw decision this answers."""
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CallTime:
    """Call the "Time" on the player to act (cdc 3.5, tda 27, fpc 9-1)."""

    conn: Conn
    hand: int
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class UseBank:
    conn: Conn
    hand: int
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ShowCards:
    """Show (``show=True``) or muck one's hand at showdown or after an uncontested win."""

    conn: Conn
    hand: int
    show: bool
    ref: int | None = None


# ---------------------------------------------------------------- a cash table's desk


@dataclass(frozen=True, slots=True, kw_only=True)
class BuyIn:
    """Sit at ``seat`` of a cash table with ``amount`` chips bought (server.cash.book); with
    ``wait_for_bb``, dealt in only from the big blind instead of posting a seat fee now
    (casino cash: « un joueur peut décider d'attendre la grosse blind »); with ``option``,
    dealt in only once first after the big blind, posting the option, which covers his seat
    fee (casino cash: « il est possible de rentrer sur la table directement en option »)."""

    conn: Conn
    seat: int
    name: str
    amount: int
    wait_for_bb: bool = False
    option: bool = False
    capital: int | None = None
    """What the player's season capital still allows (a league's cash season, filled in by
    the gateway); None: no season."""
    hold: str = ""
    """The season capital's reservation this buy-in spends (server.league_service.capital):
    written on its ledger line, so the capital knows once it is recorded; "" for none."""
    ref: int | None = None
    approved: bool = False
    """The host approved it (a table that asks its host: server.table.hosting)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HostOrder:
    """An order of the table's host (the gateway checked his ``host`` token): ``op`` is a
    :class:`server.table.hosting.HostOp` value; ``seat`` for approve, refuse and remove;
    ``sb``/``bb`` for blinds, ``low``/``high`` for a cash table's limits."""

    conn: Conn
    op: str
    seat: int | None = None
    sb: int | None = None
    bb: int | None = None
    low: int | None = None
    high: int | None = None
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RunIt:
    """A player's answer to the offer to run the board several times."""

    conn: Conn
    hand: int
    runs: int
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AddChips:
    """A rebuy (after a bust) or a top-up (casino: announced, within the maximum), applied
    between hands."""

    conn: Conn
    amount: int
    capital: int | None = None
    """As :attr:`BuyIn.capital`."""
    hold: str = ""
    """As :attr:`BuyIn.hold`."""
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TakeOption:
    """A seated cash player's standing choice: post the option whenever he is the first
    player after the big blind (``on``), or never (casino cash: « L'option est autorisée en
    Cash Game »). From the next deal."""

    conn: Conn
    on: bool
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinWaitingList:
    conn: Conn
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RefuseSeat:
    """Refuse the seat offered from the waiting list: to the end of the list (casino cash)."""

    conn: Conn
    ref: int | None = None


# ---------------------------------------------------------------- a cash room's moves


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveOut:
    """The gateway moves a cash player to table ``to`` of the room (server.cash.moves): his
    seat is freed (when his hand ends if he is in it), his stack leaves through the ledger
    (above ``cap``: cashed out to him), and a ``Transfer`` effect, after the write, asks the
    other table to seat him. ``conn``: who asked (refusals go to him)."""

    seat: int
    player: str
    to: str
    to_name: str
    kind: str
    cap: int | None = None
    seat_fee: bool = False
    by: str = ""
    conn: Conn | None = None
    ref: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveIn:
    """Seat a player moved from table ``source`` of the room, with ``stack``; ``conn``: his
    connection when he is online (his seat token follows the saved seat)."""

    conn: Conn | None
    player: str
    name: str
    stack: int
    source: str
    kind: str
    seat_fee: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class AskChange:
    """A seated player asks the host to change to table ``to`` (casino cash: « il devra
    obtenir l'accord du superviseur »): said to the table's watchers, the host among them."""

    conn: Conn
    to: str
    to_name: str
    ref: int | None = None


ConnCommand = (
    Watch
    | Sit
    | Rejoin
    | Attach
    | Gone
    | Leave
    | Resync
    | Chat
    | SitOut
    | SitIn
    | CutDeck
    | Declare
    | DrawCards
    | CallTime
    | UseBank
    | ShowCards
    | BuyIn
    | AddChips
    | JoinWaitingList
    | RefuseSeat
    | TakeOption
    | RunIt
    | HostOrder
    | AskChange
)

# ---------------------------------------------------------------- from the director


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatPlayer:
    seat: int
    player: str
    name: str
    stack: int
    waits: bool = False
    """Waits for the button to pass (ligue art. 3, tda 10-A)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RemovePlayer:
    """Moved, busted elsewhere, abandoned (cdc 1.9) or disqualified."""

    seat: int
    player: str
    status: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SetStack:
    """A stack change (chip race, adjustment, bounty): between hands only, so it waits for
    the hand in play to end."""

    seat: int
    player: str
    amount: int
    note: str = ""
    relative: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class NextDeal:
    """The director's go for the next hand (server.tournament.decisions.Deal)."""

    hand_no: int
    blinds: Blinds
    positions: Positions
    hand_for_hand: bool = False
    level: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class HoldDeal:
    """Do not deal until told (hand-for-hand barrier, a break, a pause)."""

    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Reveal:
    """Hand-for-hand: every table has finished; play the held all-in face up (cdc 2.7)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableNote:
    """Words of the director for the table (held while a hand is played, cdc 11.3)."""

    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Penalty:
    """Missed hands: the player's next hands are dealt dead (cdc 11.1)."""

    player: str
    hands: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SpectatorMode:
    """The director's choice for the rail: live (no hole cards, ever) or commentary (one
    hand behind, with the finished hands' hole cards)."""

    delayed: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CloseTable:
    """The table is closed (broken up, tournament over, server stopping)."""


DirectorCommand = (
    SeatPlayer
    | RemovePlayer
    | SetStack
    | NextDeal
    | HoldDeal
    | Reveal
    | TableNote
    | Penalty
    | SpectatorMode
    | MoveOut
    | MoveIn
)
Command = ConnCommand | DirectorCommand | CloseTable


def seat_command(conn: Conn, message: m.TakeSeat, name: str) -> Sit | BuyIn:
    """The table command of a ``sit``: with a ``buy_in``, a cash table's seat and chips."""
    if message.buy_in is None:
        return Sit(conn=conn, seat=message.seat, name=name, ref=message.id)
    return BuyIn(
        conn=conn,
        seat=message.seat,
        name=name,
        amount=message.buy_in,
        wait_for_bb=message.wait_for_bb,
        option=message.option,
        ref=message.id,
    )


def from_message(conn: Conn, message: m.Message) -> ConnCommand:
    """The table command for a decoded client message (raises ``internal`` for a message that
    is not for a table: the gateway routes every other message itself)."""
    build = _FROM_MESSAGE.get(type(message))
    if build is None:
        raise ProtocolError(ErrorCode.INTERNAL, f"{message.TYPE} is not a table command")
    return build(conn, message, getattr(message, "id", None))


def _cards(names: tuple[str, ...], ref: int | None) -> tuple[int, ...]:
    """The cards a ``draw`` names; ``bad_card`` for a name that is no card."""
    try:
        return tuple(parse_card(name) for name in names)
    except ValueError:
        raise ProtocolError(ErrorCode.BAD_CARD, "a card is written like Ah or Td", ref) from None


_FROM_MESSAGE: dict[type[m.Message], Callable[[Conn, Any, int | None], ConnCommand]] = {
    m.Act: lambda conn, msg, ref: Declare(
        conn=conn,
        hand=msg.hand,
        verb=msg.verb,
        amount=msg.amount,
        form=msg.form,
        chips=msg.chips,
        decision=msg.decision,
        ref=ref,
    ),
    m.Draw: lambda conn, msg, ref: DrawCards(
        conn=conn, hand=msg.hand, discard=_cards(msg.cards, ref), decision=msg.decision, ref=ref
    ),
    m.Cut: lambda conn, msg, ref: CutDeck(conn=conn, hand=msg.hand, position=msg.position, ref=ref),
    m.CallClock: lambda conn, msg, ref: CallTime(conn=conn, hand=msg.hand, ref=ref),
    m.UseTimeBank: lambda conn, msg, ref: UseBank(conn=conn, hand=msg.hand, ref=ref),
    m.Show: lambda conn, msg, ref: ShowCards(conn=conn, hand=msg.hand, show=True, ref=ref),
    m.Muck: lambda conn, msg, ref: ShowCards(conn=conn, hand=msg.hand, show=False, ref=ref),
    m.Chat: lambda conn, msg, ref: Chat(conn=conn, text=msg.text, ref=ref),
    m.SitOut: lambda conn, msg, ref: SitOut(conn=conn, ref=ref),
    m.SitIn: lambda conn, msg, ref: SitIn(conn=conn, ref=ref),
    m.Resync: lambda conn, msg, ref: Resync(conn=conn, last_seq=msg.last_seq, ref=ref),
    m.LeaveTable: lambda conn, msg, ref: Leave(conn=conn, ref=ref),
    m.AddChips: lambda conn, msg, ref: AddChips(conn=conn, amount=msg.amount, ref=ref),
    m.JoinWaitingList: lambda conn, msg, ref: JoinWaitingList(conn=conn, ref=ref),
    m.RefuseSeat: lambda conn, msg, ref: RefuseSeat(conn=conn, ref=ref),
    m.TakeOption: lambda conn, msg, ref: TakeOption(conn=conn, on=msg.on, ref=ref),
    m.RunIt: lambda conn, msg, ref: RunIt(conn=conn, hand=msg.hand, runs=msg.runs, ref=ref),
}
