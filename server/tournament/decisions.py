"""What the director decides (decisions), and what it is told at the end of a hand.

Every :class:`~server.tournament.director.Director` method returns a list of decisions; the
coordinator routes each one to the table(s) it names (``table_id`` fields) or to the lobby, and
:func:`server.tournament.interpret.interpret` turns each into table operations. The director's
console adds its own (:data:`ConsoleDecision`). The report a table makes at the end of a hand,
:class:`HandEnded` with its :class:`Bust` list, is the table layer's (:mod:`server.table.report`)
and re-exported here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from server.engine.positions import Positions
from server.engine.setup import Blinds
from server.table.report import Bust, HandEnded

from .rules import HandForHandTrigger

__all__ = [
    "Adjusted",
    "BountyAwarded",
    "Break",
    "BreakTable",
    "Bust",
    "ChipRace",
    "ChipRaceLine",
    "ConsoleDecision",
    "ConsoleRefused",
    "Deal",
    "Decision",
    "Eliminated",
    "FinalTable",
    "Finished",
    "HandEnded",
    "HandForHand",
    "Instruction",
    "LevelChange",
    "MovePlayer",
    "Rebought",
    "RefusalReason",
    "Refused",
    "Registered",
    "RegistrationClosed",
    "RemovalReason",
    "RemovePlayer",
    "Result",
    "SeatDraw",
    "ShowdownHold",
    "ShowdownReveal",
    "SpectatorMode",
    "TableAssignment",
    "TableNote",
    "Unregistered",
    "Wait",
    "WaitReason",
]


# ---------------------------------------------------------------------- the director's


class RefusalReason(StrEnum):
    REGISTRATION_CLOSED = "registration_closed"
    """Late registration is over (cdc 1.8: end of level 2 by default)."""
    ALREADY_REGISTERED = "already_registered"
    FULL = "full"
    """The maximum number of entries is reached."""
    NOT_REGISTERED = "not_registered"
    NOT_ALLOWED = "not_allowed"
    """Rebuy / re-entry: outside the window, over the maximum, or the player is not busted."""
    STARTED = "started"
    """Unregistering after the start."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Registered:
    player_id: str
    name: str
    entry: int
    """1 for a first entry, 2+ for re-entries."""
    table_id: int | None
    """None before the start (seated by the start's draw)."""
    seat: int | None
    stack: int
    penalty: int = 0
    """Chips taken from a late entry's stack (ligue 6.22)."""
    late: bool = False
    waits_for_button: bool = False
    """The only free seat was the next button or small blind: the table deals him in only once
    the button has passed his seat (ligue art. 3, tda 10-A); see ``server.tournament.seating``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Refused:
    player_id: str
    reason: RefusalReason
    detail: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Unregistered:
    player_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TableAssignment:
    """A table to open with its players (start, late entries on a new table)."""

    table_id: int
    max_seats: int
    seats: Mapping[int, str]
    stacks: Mapping[str, int]
    button: int | None
    """Seat of the button drawn for the first hand (None: drawn when the table first deals)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LevelChange:
    """The clock reached a new level. It applies from each table's next hand (cdc 3.1, tda 22)."""

    index: int
    number: int | None
    blinds: Blinds | None
    """None: a break."""
    minutes: float
    chip_race: int | None
    at: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Break:
    """A break starts (tables finish their hand, then wait) or ends (tables deal again)."""

    started: bool
    level_index: int
    ends_at: float | None


class WaitReason(StrEnum):
    BREAK = "break"
    HAND_FOR_HAND = "hand_for_hand"
    """cdc 2.7: every table waits for the end of the hand at every other table."""
    SHORT_TABLE = "short_table"
    """cdc 2.3, tda 10-D: play stops at a table short of the fullest table by the gap."""
    TOO_FEW_PLAYERS = "too_few_players"
    """cdc 2.2: three players to start, two after a break."""
    FINAL_TABLE_DRAW = "final_table_draw"
    """The final table is drawn once every table has finished its hand (cdc 2.6)."""
    REBUY = "rebuy"
    """tda 26: a busted player of the table may still rebuy before its next hand."""
    TABLE_CLOSED = "table_closed"
    FINISHED = "finished"
    STOPPED = "stopped"
    """The tournament is stopped at its hard stop (fpc part C, 23:45): no hand is dealt any
    more; the hands in play end, then the players still in are ranked by their chips."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal:
    """The table may deal its next hand with these blinds and these players."""

    table_id: int
    hand_no: int
    level_index: int
    level_number: int
    blinds: Blinds
    positions: Positions
    """The positions the director expects (dead button, ``next_positions``)."""
    seats: Mapping[int, str]
    hand_for_hand: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Wait:
    table_id: int
    reason: WaitReason


@dataclass(frozen=True, slots=True, kw_only=True)
class ShowdownHold:
    """Hand-for-hand: the all-in hands stay face down until every table has finished (cdc 2.7)."""

    table_id: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ShowdownReveal:
    table_id: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MovePlayer:
    """Balancing (cdc 2.3, tda 10): the player leaves ``from_table`` now (between hands) with
    his chips and sits at ``to_seat``, where he pays the big blind as soon as possible."""

    player_id: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    stack: int
    waits_for_button: bool = False
    """The only free seat was the next button or small blind: the table deals him in only once
    the button has passed his seat (ligue art. 3, tda 10-A); see ``server.tournament.seating``."""
    reason: str = "balancing"
    """``balancing``, or ``director`` for a move made from the director's console."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatDraw:
    """One line of a seat draw: the player's card and the seat it won (tda 9 addendum)."""

    player_id: str
    card: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    stack: int
    waits_for_button: bool = False
    """The only free seat was the next button or small blind: the table deals him in only once
    the button has passed his seat (ligue art. 3, tda 10-A); see ``server.tournament.seating``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BreakTable:
    """The table closes (cdc 2.4, tda 9). Step 1: the seat cards shuffled face down, in the
    order they are dealt; step 2: one card per player, the highest takes the first seat card."""

    table_id: int
    seat_cards: tuple[tuple[int, int], ...]
    draws: tuple[SeatDraw, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class FinalTable:
    """The final table with a random redraw (cdc 2.1, 2.6, tda 11)."""

    table: TableAssignment
    closed_tables: tuple[int, ...]
    draws: tuple[SeatDraw, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandForHand:
    on: bool
    reason: HandForHandTrigger | None
    remaining: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ChipRaceLine:
    seat: int
    player_id: str
    stack_before: int
    odd_chips: int
    """Chips of the removed denomination left after the exact colour-up."""
    cards: tuple[str, ...]
    """One card per odd chip, dealt from seat 1 (cdc 3.2, tda 23-A); empty without a race."""
    won: bool
    bonus_chip: bool
    """cdc 3.2, tda 23-A, casino: the player lost his last chip and gets one back."""
    stack_after: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ChipRace:
    """Colour-up and chip race at a table before its first hand of the level (cdc 3.2, tda 23).
    The table replaces every listed stack by ``stack_after``."""

    table_id: int
    level_index: int
    removed: int
    next_denomination: int
    lines: tuple[ChipRaceLine, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Eliminated:
    """A player is out. ``place`` is None while late registration is open (the places of early
    busts are settled when it closes, with a second Eliminated carrying the place)."""

    player_id: str
    entry: int
    table_id: int | None
    seat: int | None
    place: int | None
    tied_with: tuple[str, ...] = ()
    prize: int = 0
    points: int = 0
    start_stack: int = 0
    eliminated_by: tuple[str, ...] = ()
    abandoned: bool = False
    """cdc 1.9: announced abandon, ranked at the announcement."""
    can_rebuy: bool = False
    can_reenter: bool = False


class RemovalReason(StrEnum):
    ABANDON = "abandon"
    """cdc 1.9, fpc 4-3, ligue 6.23: chips removed from the tournament."""
    NO_SHOW = "no_show"
    """fpc 2-2: still absent at the end of level 2: stack removed, not ranked."""
    REBUY_EXPIRED = "rebuy_expired"
    """A busted player kept his seat for a rebuy and did not take it before the next hand."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RemovePlayer:
    table_id: int
    seat: int
    player_id: str
    reason: RemovalReason


@dataclass(frozen=True, slots=True, kw_only=True)
class Rebought:
    """The table adds ``chips`` to the player's stack before its next hand (tda 26)."""

    player_id: str
    table_id: int
    seat: int
    chips: int
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BountyAwarded:
    """fpc part B: the table adds ``chips`` to the eliminator's stack before the next hand."""

    table_id: int | None
    player_id: str
    victim: str
    kind: str
    chips: int
    points: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RegistrationClosed:
    entries: int
    prize_pool: int
    payouts: tuple[int, ...]
    """Prize of places 1, 2, ..."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    place: int
    player_id: str
    name: str
    entry: int
    prize: int
    points: int
    bounty_chips: int = 0
    bounty_points: int = 0
    tied_with: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Finished:
    results: tuple[Result, ...]


Decision = (
    Registered
    | Refused
    | Unregistered
    | TableAssignment
    | LevelChange
    | Break
    | Deal
    | Wait
    | ShowdownHold
    | ShowdownReveal
    | MovePlayer
    | BreakTable
    | FinalTable
    | HandForHand
    | ChipRace
    | Eliminated
    | RemovePlayer
    | Rebought
    | BountyAwarded
    | RegistrationClosed
    | Finished
)


# ---------------------------------------------------------------------- the director's console


@dataclass(frozen=True, slots=True, kw_only=True)
class Adjusted:
    """The director's console changed a stack between hands (reason logged)."""

    table_id: int
    seat: int
    player_id: str
    stack: int
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TableNote:
    """Said at a table by the director: a warning, a penalty (``dead_hands`` missed hands,
    cdc 11.1), a player's call for the director, or a ruling on it."""

    table_id: int
    text: str
    player_id: str = ""
    dead_hands: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class ConsoleRefused:
    """A console command that could not be carried out (told to the director's consoles)."""

    op: str
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SpectatorMode:
    """The rail of every table: live (the public events as they happen, no hole card ever)
    or ``commentary`` (one hand behind, with the finished hands' hole cards)."""

    commentary: bool


ConsoleDecision = Adjusted | TableNote | ConsoleRefused | SpectatorMode
"""What :class:`~server.tournament.coordinator.DirectorLoop` adds to the director's decisions."""

Instruction = Decision | ConsoleDecision
"""Everything a host carries out (:func:`server.tournament.interpret.interpret`)."""
