"""One interpreter of the director's decisions, shared by the live host and the simulation.

:func:`interpret` turns each decision (:data:`~server.tournament.decisions.Instruction`: the
director's, plus the console's) into calls of a :class:`TableOps`: operations on tables (seat,
move, remove, deal, wait, hold, reveal, stacks, words at the table, open, close) and a few
notifications for what is not a table's business (a registration, a refusal, an elimination,
the results, the clock). :class:`~server.tournament.host.TournamentHost` implements them on its
table actors and players' connections, :class:`~server.tournament.simulation.Simulation` on its
simulated tables. The ``match`` ends in :func:`typing.assert_never`: a decision type added to
the union and not interpreted here is a ``mypy --strict`` error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Protocol, assert_never

from .decisions import (
    Adjusted,
    BountyAwarded,
    Break,
    BreakTable,
    ChipRace,
    ChipRaceLine,
    ConsoleRefused,
    Deal,
    Eliminated,
    FinalTable,
    Finished,
    HandForHand,
    Instruction,
    LevelChange,
    MovePlayer,
    Rebought,
    Refused,
    Registered,
    RegistrationClosed,
    RemovalReason,
    RemovePlayer,
    SeatDraw,
    ShowdownHold,
    ShowdownReveal,
    SpectatorMode,
    TableAssignment,
    TableNote,
    Unregistered,
    Wait,
    WaitReason,
)

__all__ = [
    "FINAL_TABLE",
    "LATE_ENTRY",
    "REBUY",
    "SEATED",
    "TABLE_BROKEN",
    "Announcement",
    "Move",
    "TableOps",
    "colour_up_note",
    "interpret",
]

# Why a player sits where he does (the host tells him in ``moved``); a MovePlayer carries its
# own reason (``balancing``, ``director``).
SEATED: Final = "seated"
"""A table opened by the start's draw (or for late entries)."""
LATE_ENTRY: Final = "late entry"
REBUY: Final = "rebuy"
TABLE_BROKEN: Final = "table broken"
FINAL_TABLE: Final = "final table"

Announcement = Unregistered | LevelChange | Break | HandForHand | RegistrationClosed
"""Decisions that change no table (the lobby's state shows them)."""

Move = MovePlayer | SeatDraw


class TableOps(Protocol):
    """What carrying out the director's decisions takes. Table numbers are the director's."""

    # ---------------------------------------------------------------- players and lobby

    def registered(self, dec: Registered) -> None:
        """A player entered (his chips enter play). A late entry is seated next (:meth:`seat`)."""
        ...

    def refused(self, dec: Refused) -> None: ...

    def rebought(self, dec: Rebought) -> None:
        """A busted player rebought (the chips enter play); he is seated again next."""
        ...

    def eliminated(self, dec: Eliminated) -> None: ...

    def finished(self, dec: Finished) -> None:
        """The tournament is over (results); the tables still open are closed by it."""
        ...

    def announce(self, dec: Announcement) -> None: ...

    def console_refused(self, op: str, text: str) -> None:
        """Tell the director's consoles that a command could not be carried out."""
        ...

    def spectators(self, commentary: bool) -> None:
        """The director's choice for the rail of every table (and of the tables to come)."""
        ...

    def name(self, player: str) -> str:
        """The player's name, for the words said at a table."""
        ...

    # ---------------------------------------------------------------- seats

    def open_table(self, table: TableAssignment, reason: str, came_from: Mapping[str, int]) -> None:
        """Open a table with its players (``came_from``: player -> his previous table)."""
        ...

    def close_table(self, table: int, reason: str) -> None: ...

    def seat(
        self, table: int, seat: int, player: str, stack: int, waits_for_button: bool, reason: str
    ) -> None:
        """Seat a player who comes from no other table (late entry, rebuy). The table may not
        be open yet (a late entry's new table: :meth:`open_table` follows)."""
        ...

    def move(self, move: Move, reason: str) -> None:
        """The player leaves ``from_table`` with his chips and sits at ``to_table``."""
        ...

    def unseat(self, table: int, seat: int, player: str, reason: str) -> None:
        """The player leaves the table with his chips (the final table draw seats him)."""
        ...

    def remove(self, table: int, seat: int, player: str, reason: RemovalReason) -> None:
        """The player leaves the tournament: his chips are removed."""
        ...

    # ---------------------------------------------------------------- hands

    def deal(self, deal: Deal) -> None: ...

    def wait(self, table: int, reason: WaitReason) -> None: ...

    def hold(self, table: int) -> None:
        """Hand-for-hand: the table keeps its all-in hands face down (cdc 2.7)."""
        ...

    def reveal(self, table: int) -> None: ...

    # ---------------------------------------------------------------- chips and words

    def colour_up(self, race: ChipRace) -> None:
        """cdc 3.2, tda 23: the colour-up and chip race at a table between hands: every listed
        stack becomes its ``stack_after`` (:func:`colour_up_note` says it at the table)."""
        ...

    def set_stack(self, table: int, seat: int, player: str, stack: int, note: str) -> None:
        """Replace the player's stack between hands (the director's console)."""
        ...

    def add_chips(self, player: str, chips: int, note: str) -> None:
        """Add chips to the player's stack at his current seat, between hands (a bounty)."""
        ...

    def note(self, table: int, text: str) -> None: ...

    def penalty(self, table: int, player: str, hands: int) -> None:
        """The player's next ``hands`` hands are dealt dead (cdc 11.1)."""
        ...


def interpret(dec: Instruction, ops: TableOps) -> None:
    """Carry out one decision with ``ops``."""
    match dec:
        case Unregistered() | LevelChange() | Break() | HandForHand() | RegistrationClosed():
            ops.announce(dec)
        case Registered() | Refused() | Rebought() | Eliminated() | Finished() | ConsoleRefused():
            _players(dec, ops)
        case TableAssignment() | MovePlayer() | BreakTable() | FinalTable() | RemovePlayer():
            _seats(dec, ops)
        case Deal() | Wait() | ShowdownHold() | ShowdownReveal():
            _hands(dec, ops)
        case ChipRace() | BountyAwarded() | Adjusted() | TableNote():
            _chips_and_words(dec, ops)
        case SpectatorMode():
            ops.spectators(dec.commentary)
        case _:
            assert_never(dec)


def _players(
    dec: Registered | Refused | Rebought | Eliminated | Finished | ConsoleRefused, ops: TableOps
) -> None:
    match dec:
        case Registered():
            ops.registered(dec)
            if dec.table_id is not None and dec.seat is not None:
                ops.seat(
                    dec.table_id,
                    dec.seat,
                    dec.player_id,
                    dec.stack,
                    dec.waits_for_button,
                    LATE_ENTRY,
                )
        case Refused():
            ops.refused(dec)
        case Rebought():
            ops.rebought(dec)
            ops.seat(dec.table_id, dec.seat, dec.player_id, dec.chips, False, REBUY)
        case Eliminated():
            ops.eliminated(dec)
        case Finished():
            ops.finished(dec)
        case ConsoleRefused():
            ops.console_refused(dec.op, dec.text)
        case _:
            assert_never(dec)


def _seats(
    dec: TableAssignment | MovePlayer | BreakTable | FinalTable | RemovePlayer, ops: TableOps
) -> None:
    match dec:
        case TableAssignment():
            ops.open_table(dec, SEATED, {})
        case MovePlayer():
            ops.move(dec, dec.reason)
        case BreakTable():
            for draw in dec.draws:
                ops.move(draw, TABLE_BROKEN)
            ops.close_table(dec.table_id, TABLE_BROKEN)
        case FinalTable():
            for draw in dec.draws:
                ops.unseat(draw.from_table, draw.from_seat, draw.player_id, FINAL_TABLE)
            for table in dec.closed_tables:
                ops.close_table(table, FINAL_TABLE)
            came_from = {d.player_id: d.from_table for d in dec.draws}
            ops.open_table(dec.table, FINAL_TABLE, came_from)
        case RemovePlayer():
            ops.remove(dec.table_id, dec.seat, dec.player_id, dec.reason)
        case _:
            assert_never(dec)


def _hands(dec: Deal | Wait | ShowdownHold | ShowdownReveal, ops: TableOps) -> None:
    match dec:
        case Deal():
            ops.deal(dec)
        case Wait():
            ops.wait(dec.table_id, dec.reason)
        case ShowdownHold():
            ops.hold(dec.table_id)
        case ShowdownReveal():
            ops.reveal(dec.table_id)
        case _:
            assert_never(dec)


def _chips_and_words(dec: ChipRace | BountyAwarded | Adjusted | TableNote, ops: TableOps) -> None:
    match dec:
        case ChipRace():
            ops.colour_up(dec)
        case BountyAwarded():
            note = f"bounty: {ops.name(dec.player_id)} +{dec.chips}"
            ops.add_chips(dec.player_id, dec.chips, note)
        case Adjusted():
            note = f"director: {ops.name(dec.player_id)} now {dec.stack} ({dec.reason})"
            ops.set_stack(dec.table_id, dec.seat, dec.player_id, dec.stack, note)
        case TableNote():
            if dec.dead_hands:
                ops.penalty(dec.table_id, dec.player_id, dec.dead_hands)
            ops.note(dec.table_id, dec.text)
        case _:
            assert_never(dec)


def colour_up_note(race: ChipRace, line: ChipRaceLine, name: str) -> str:
    """What the director says at the table for one line of a colour-up (cdc 3.2)."""
    cards = f" (cards {' '.join(line.cards)})" if line.cards else ""
    return (
        f"colour-up of the {race.removed}s: {name} "
        f"{line.stack_before} -> {line.stack_after}{cards} (cdc 3.2)"
    )
