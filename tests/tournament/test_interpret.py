"""The one interpreter of the director's decisions (server.tournament.interpret): every decision
type is carried out (the match is exhaustive; mypy --strict checks it too), and the composite
ones become table operations in the order the tables need them."""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Any

import pytest

from server.engine.positions import Positions
from server.engine.setup import Blinds
from server.tournament.decisions import (
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
    RefusalReason,
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
from server.tournament.interpret import Announcement, Move, TableOps, interpret


class Recorder:
    """A TableOps writing down every call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def _note(self, name: str, *args: Any) -> None:
        self.calls.append((name, args))

    def registered(self, dec: Registered) -> None:
        self._note("registered", dec.player_id)

    def refused(self, dec: Refused) -> None:
        self._note("refused", dec.player_id)

    def rebought(self, dec: Rebought) -> None:
        self._note("rebought", dec.player_id)

    def eliminated(self, dec: Eliminated) -> None:
        self._note("eliminated", dec.player_id)

    def finished(self, dec: Finished) -> None:
        self._note("finished")

    def announce(self, dec: Announcement) -> None:
        self._note("announce", type(dec).__name__)

    def console_refused(self, op: str, text: str) -> None:
        self._note("console_refused", op)

    def spectators(self, commentary: bool) -> None:
        self._note("spectators", commentary)

    def name(self, player: str) -> str:
        return player.upper()

    def open_table(self, table: TableAssignment, reason: str, came_from: Mapping[str, int]) -> None:
        self._note("open_table", table.table_id, reason, dict(came_from))

    def close_table(self, table: int, reason: str) -> None:
        self._note("close_table", table, reason)

    def seat(
        self, table: int, seat: int, player: str, stack: int, waits_for_button: bool, reason: str
    ) -> None:
        self._note("seat", table, seat, player, stack, waits_for_button, reason)

    def move(self, move: Move, reason: str) -> None:
        self._note("move", move.player_id, move.from_table, move.to_table, reason)

    def unseat(self, table: int, seat: int, player: str, reason: str) -> None:
        self._note("unseat", table, seat, player, reason)

    def remove(self, table: int, seat: int, player: str, reason: RemovalReason) -> None:
        self._note("remove", table, seat, player, reason)

    def deal(self, deal: Deal) -> None:
        self._note("deal", deal.table_id)

    def wait(self, table: int, reason: WaitReason) -> None:
        self._note("wait", table, reason)

    def hold(self, table: int) -> None:
        self._note("hold", table)

    def reveal(self, table: int) -> None:
        self._note("reveal", table)

    def colour_up(self, race: ChipRace) -> None:
        self._note("colour_up", race.table_id)

    def set_stack(self, table: int, seat: int, player: str, stack: int, note: str) -> None:
        self._note("set_stack", table, seat, player, stack, note)

    def add_chips(self, player: str, chips: int, note: str) -> None:
        self._note("add_chips", player, chips, note)

    def note(self, table: int, text: str) -> None:
        self._note("note", table, text)

    def penalty(self, table: int, player: str, hands: int) -> None:
        self._note("penalty", table, player, hands)


POS = Positions(button=1, sb_slot=2, big_blind=3)
BLINDS = Blinds(sb=25, bb=50)
ASSIGN = TableAssignment(
    table_id=3, max_seats=9, seats={1: "a", 2: "b"}, stacks={"a": 100, "b": 200}, button=1
)


def _draw(pid: str, from_table: int, to_table: int) -> SeatDraw:
    return SeatDraw(
        player_id=pid,
        card="As",
        from_table=from_table,
        from_seat=1,
        to_table=to_table,
        to_seat=4,
        stack=500,
    )


LINE = ChipRaceLine(
    seat=1,
    player_id="a",
    stack_before=110,
    odd_chips=10,
    cards=(),
    won=False,
    bonus_chip=False,
    stack_after=100,
)

SAMPLES: dict[type, Instruction] = {
    Registered: Registered(
        player_id="a", name="A", entry=1, table_id=2, seat=5, stack=900, late=True
    ),
    Refused: Refused(player_id="a", reason=RefusalReason.FULL),
    Unregistered: Unregistered(player_id="a"),
    TableAssignment: ASSIGN,
    LevelChange: LevelChange(index=1, number=2, blinds=BLINDS, minutes=20, chip_race=None, at=0.0),
    Break: Break(started=True, level_index=3, ends_at=None),
    Deal: Deal(
        table_id=1,
        hand_no=4,
        level_index=0,
        level_number=1,
        blinds=BLINDS,
        positions=POS,
        seats={1: "a", 2: "b", 3: "c"},
    ),
    Wait: Wait(table_id=1, reason=WaitReason.BREAK),
    ShowdownHold: ShowdownHold(table_id=1),
    ShowdownReveal: ShowdownReveal(table_id=1),
    MovePlayer: MovePlayer(
        player_id="a", from_table=1, from_seat=2, to_table=2, to_seat=3, stack=700
    ),
    BreakTable: BreakTable(
        table_id=5, seat_cards=((1, 4), (2, 4)), draws=(_draw("a", 5, 1), _draw("b", 5, 2))
    ),
    FinalTable: FinalTable(
        table=ASSIGN, closed_tables=(1, 2), draws=(_draw("a", 1, 3), _draw("b", 2, 3))
    ),
    HandForHand: HandForHand(on=True, reason=None, remaining=10),
    ChipRace: ChipRace(table_id=2, level_index=4, removed=25, next_denomination=100, lines=(LINE,)),
    Eliminated: Eliminated(player_id="a", entry=1, table_id=1, seat=2, place=9),
    RemovePlayer: RemovePlayer(table_id=1, seat=2, player_id="a", reason=RemovalReason.NO_SHOW),
    Rebought: Rebought(player_id="a", table_id=1, seat=2, chips=5000, count=1),
    BountyAwarded: BountyAwarded(
        table_id=1, player_id="a", victim="b", kind="bounty", chips=300, points=0
    ),
    RegistrationClosed: RegistrationClosed(entries=20, prize_pool=2000, payouts=(1000, 600)),
    Finished: Finished(results=()),
    Adjusted: Adjusted(table_id=1, seat=2, player_id="a", stack=4000, reason="miscount"),
    TableNote: TableNote(table_id=1, text="penalty", player_id="a", dead_hands=2),
    ConsoleRefused: ConsoleRefused(op="move", text="no"),
    SpectatorMode: SpectatorMode(commentary=True),
}


def _members(alias: Any) -> set[type]:
    out: set[type] = set()
    for arg in typing.get_args(alias):
        out |= _members(arg) if isinstance(arg, types.UnionType) else {arg}
    return out


def test_every_decision_type_is_interpreted() -> None:
    assert _members(Instruction) == set(SAMPLES)
    for kind, dec in SAMPLES.items():
        ops = Recorder()
        interpret(dec, ops)
        assert ops.calls, kind


def test_an_unknown_decision_is_refused() -> None:
    with pytest.raises(AssertionError):
        interpret(object(), Recorder())  # type: ignore[arg-type]


def _calls(dec: Instruction) -> list[tuple[str, tuple[Any, ...]]]:
    ops: TableOps = Recorder()
    interpret(dec, ops)
    assert isinstance(ops, Recorder)
    return ops.calls


def test_a_late_entry_and_a_rebuy_are_registered_then_seated() -> None:
    assert _calls(SAMPLES[Registered]) == [
        ("registered", ("a",)),
        ("seat", (2, 5, "a", 900, False, "late entry")),
    ]
    early = Registered(player_id="a", name="A", entry=1, table_id=None, seat=None, stack=9)
    assert _calls(early) == [("registered", ("a",))]  # seated by the start's draw
    assert _calls(SAMPLES[Rebought]) == [
        ("rebought", ("a",)),
        ("seat", (1, 2, "a", 5000, False, "rebuy")),
    ]


def test_a_broken_table_moves_its_players_then_closes() -> None:
    assert _calls(SAMPLES[BreakTable]) == [
        ("move", ("a", 5, 1, "table broken")),
        ("move", ("b", 5, 2, "table broken")),
        ("close_table", (5, "table broken")),
    ]
    assert _calls(SAMPLES[MovePlayer]) == [("move", ("a", 1, 2, "balancing"))]


def test_the_final_table_unseats_closes_then_opens() -> None:
    assert _calls(SAMPLES[FinalTable]) == [
        ("unseat", (1, 1, "a", "final table")),
        ("unseat", (2, 1, "b", "final table")),
        ("close_table", (1, "final table")),
        ("close_table", (2, "final table")),
        ("open_table", (3, "final table", {"a": 1, "b": 2})),
    ]


def test_stacks_and_words_at_the_table() -> None:
    assert _calls(SAMPLES[TableNote]) == [
        ("penalty", (1, "a", 2)),
        ("note", (1, "penalty")),
    ]
    assert _calls(SAMPLES[Adjusted]) == [
        ("set_stack", (1, 2, "a", 4000, "director: A now 4000 (miscount)")),
    ]
    assert _calls(SAMPLES[BountyAwarded]) == [("add_chips", ("a", 300, "bounty: A +300"))]
    assert _calls(SAMPLES[ChipRace]) == [("colour_up", (2,))]
