"""The tournament director as pure policy: calls in, decisions out (sans I/O).

The coordinator (in-memory or Redis) owns the tables and the network; it tells the director
what happened and carries out what the director decides. Nothing here reads a clock or a
global random generator: ``now`` is passed to every call and the randomness is injected.

Call order, per table::

    ready(table_id, now)        -> Deal | Wait (+ ChipRace first when a colour-up is due)
    [hand_started(...)]         optional: the positions the table actually dealt
    [allin_showdown(...)]       hand-for-hand only: ShowdownHold | ShowdownReveal
    hand_ended(report, now)     -> Eliminated, MovePlayer, BreakTable, FinalTable, ...

and for the tournament: ``register`` / ``unregister`` / ``start`` / ``tick`` (at
``next_deadline()`` or periodically) / ``abandon`` / ``rebuy`` / ``reenter``. Decisions that
concern another table than the caller's (a Deal releasing a waiting table, a MovePlayer into a
table) are in the same returned list: route every decision by its ``table_id`` fields.

Cost per hand: ``hand_ended`` and ``ready`` touch the reporting table and a few count buckets
(tables indexed by player count), never every player; a whole-tournament pass happens only at
the start, the final table, and once at the end of late registration.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from server.engine.cards import card_name
from server.engine.setup import Blinds
from server.table.positions import Positions, first_positions, next_positions

from .chiprace import chip_race
from .clock import TournamentClock
from .config import Level, PlusBlind, TournamentConfig
from .decisions import (
    BountyAwarded,
    Break,
    BreakTable,
    Bust,
    ChipRace,
    Deal,
    Decision,
    Eliminated,
    FinalTable,
    Finished,
    HandEnded,
    HandForHand,
    LevelChange,
    MovePlayer,
    Rebought,
    RefusalReason,
    Refused,
    Registered,
    RegistrationClosed,
    RemovalReason,
    RemovePlayer,
    Result,
    SeatDraw,
    ShowdownHold,
    ShowdownReveal,
    TableAssignment,
    Unregistered,
    Wait,
    WaitReason,
)
from .errors import PhaseError, ReportError
from .lifecycle import Phase, PhaseEvent, transition
from .prizes import payout_amounts, points_by_place, share_block
from .rules import BubbleRule, HandForHandTrigger, SeatRule
from .seating import (
    Rng,
    SeatClass,
    choose_seat,
    classify,
    deal_cards,
    order_by_card,
    shuffled,
)

__all__ = ["Director"]


class _Status(Enum):
    IDLE = "idle"
    """Between hands, has not asked to deal yet."""
    WAITING = "waiting"
    DEALT = "dealt"
    CLOSED = "closed"


@dataclass(slots=True, eq=False)
class _Table:
    id: int
    max_seats: int
    initial: bool = False
    """Opened by the start (cdc 2.2: three players for its first hand)."""
    seats: dict[int, str] = field(default_factory=dict)
    reserved: dict[int, str] = field(default_factory=dict)
    """Seats of busted players who may still rebuy before the next hand (tda 26)."""
    ref: Positions | None = None
    before: Positions | None = None
    """``ref`` before the hand being played (a cancelled hand is replayed from it, cdc 5.4)."""
    button: int | None = None
    hand_no: int = 0
    status: _Status = _Status.IDLE
    wait: WaitReason | None = None
    hfh_round: int = 0
    holding: bool = False
    races: int = 0
    dealt_once: bool = False
    blinds: Blinds | None = None
    hand_total: int = 0
    arrivals: set[str] = field(default_factory=set)
    gone: set[str] = field(default_factory=set)


@dataclass(slots=True, eq=False)
class _Entry:
    player_id: str
    name: str
    entry: int
    stack: int = 0
    table: int | None = None
    seat: int | None = None
    out: bool = False
    removed: bool = False
    place: int | None = None
    prize: int = 0
    points: int = 0
    tied_with: tuple[str, ...] = ()
    start_stack: int = 0
    eliminated_by: tuple[str, ...] = ()
    abandoned: bool = False
    rebuys: int = 0
    present: bool = False
    bounty_chips: int = 0
    bounty_points: int = 0


_Block = list[_Entry]
"""Players who share one block of places (tied), best first inside the block."""


class Director:
    """One tournament's director. Deterministic given ``rng`` and the ``now`` values.

    ``rng`` needs ``randrange`` and ``shuffle`` (the server passes ``secrets.SystemRandom()``,
    tests a seeded ``random.Random``). With ``track_presence``, players never reported by
    :meth:`mark_present` are removed at the end of the profile's no-show level (fpc 2-2).
    """

    def __init__(
        self, config: TournamentConfig, rng: Rng, now: float, *, track_presence: bool = False
    ) -> None:
        self.config = config
        self.rules = config.rules
        self.phase = Phase.REGISTERING
        self.clock = TournamentClock(config.levels)
        self.clock.last = now
        self._rng = rng
        self._track_presence = track_presence
        self._tables: dict[int, _Table] = {}
        self._by_count: dict[int, dict[int, None]] = {}
        self._open = 0
        self._entries: dict[str, _Entry] = {}
        self._all: list[_Entry] = []
        self._alive = 0
        self._entry_count = 0
        self._first_entries = 0
        self._reentries = 0
        self._rebuys = 0
        self._registration_open = True
        self._late_until_index = self._index_of_level(self.rules.late_registration_until_level)
        self._no_show_index = self._index_of_level(self.rules.no_show_removed_after_level)
        self._no_show_done = not track_presence or self.rules.no_show_removed_after_level <= 0
        self._pending: list[list[_Block]] = []
        self._next_place = 0
        self._prize_pool = 0
        self._payouts: tuple[int, ...] = ()
        self._points: tuple[int, ...] = ()
        self._hfh: HandForHandTrigger | None = None
        self._round = 0
        self._round_tables: set[int] = set()
        self._round_busts: list[tuple[int, Bust]] = []
        self._final_pending = False
        self._final_formed = False
        self._breaking: dict[int, None] = {}
        """Tables to break, each as soon as it is between hands (cdc 2.4)."""
        self._order: list[int] = []
        """Predetermined breaking order, last table first (popped from the end)."""
        self._waiting: dict[int, None] = {}
        self._busy = 0
        self._dealt = 0
        self._next_table_id = 1
        self._results: tuple[Result, ...] = ()
        self._paused = False
        self._races = [
            (lv.index, lv.chip_race, config.denominations_at(lv.index)[0])
            for lv in config.levels
            if lv.chip_race is not None
        ]

    # ================================================================== queries

    @property
    def level(self) -> Level:
        return self.clock.level

    @property
    def remaining(self) -> int:
        """Players still holding chips."""
        return self._alive

    @property
    def entries(self) -> int:
        return self._entry_count

    @property
    def registration_open(self) -> bool:
        return self._registration_open

    @property
    def hand_for_hand(self) -> HandForHandTrigger | None:
        return self._hfh

    @property
    def paid_places(self) -> int:
        return len(self._payouts)

    @property
    def payouts(self) -> tuple[int, ...]:
        return self._payouts

    def table_ids(self) -> list[int]:
        return [t.id for t in self._tables.values() if t.status is not _Status.CLOSED]

    def table_counts(self) -> dict[int, int]:
        return {t.id: len(t.seats) for t in self._tables.values() if t.status is not _Status.CLOSED}

    def seating(self, table_id: int) -> dict[int, str]:
        return dict(self._table(table_id).seats)

    def stack(self, player_id: str) -> int:
        return self._entry(player_id).stack

    def where(self, player_id: str) -> tuple[int | None, int | None]:
        e = self._entry(player_id)
        return e.table, e.seat

    def break_order(self) -> list[int]:
        """cdc 2.4, fpc 3-4: the predetermined order of the tables still to break (the last
        table first, as ligue art. 3 closes 'la dernière table')."""
        return [tid for tid in reversed(self._order) if self._is_open(tid)]

    @property
    def breaking(self) -> tuple[int, ...]:
        """Tables designated to break, waiting for their hand to end."""
        return tuple(self._breaking)

    def _is_open(self, tid: int) -> bool:
        return self._tables[tid].status is not _Status.CLOSED

    def gap_tolerance(self) -> int:
        """cdc 2.3, tda 10-D: the gap that stops a short table (3 early, 2 late by profile)."""
        late = self._open <= self.rules.late_balancing_tables
        return self.rules.balance_gap_late if late else self.rules.balance_gap_early

    def results(self) -> tuple[Result, ...]:
        return self._results

    def next_deadline(self) -> float | None:
        """When :meth:`tick` should next be called (the end of the current level)."""
        return self.clock.level_ends_at()

    # ================================================================== registration

    def register(self, player_id: str, name: str, now: float) -> list[Decision]:
        """Register before the start, or late while late registration is open (cdc 1.8,
        ligue 6.22: with the penalty; seated by the profile's rule, tda 7). The first decision
        is :class:`Registered` or :class:`Refused`."""
        out = self._tick(now)
        if player_id in self._entries:
            return [Refused(player_id=player_id, reason=RefusalReason.ALREADY_REGISTERED), *out]
        refusal = self._entry_refusal(player_id)
        if refusal is not None:
            return [refusal, *out]
        entry = _Entry(player_id=player_id, name=name, entry=1)
        self._entries[player_id] = entry
        self._all.append(entry)
        self._entry_count += 1
        self._first_entries += 1
        if self.phase is Phase.REGISTERING:
            entry.stack = self.config.starting_stack
            return [
                Registered(
                    player_id=player_id,
                    name=name,
                    entry=1,
                    table_id=None,
                    seat=None,
                    stack=entry.stack,
                ),
                *out,
            ]
        penalty = self.config.penalty_at(self._level_number())
        return self._seat_newcomer(entry, self.config.starting_stack - penalty, penalty, out, now)

    def unregister(self, player_id: str, now: float) -> list[Decision]:
        out = self._tick(now)
        if player_id not in self._entries:
            return [Refused(player_id=player_id, reason=RefusalReason.NOT_REGISTERED), *out]
        if self.phase is not Phase.REGISTERING:
            return [Refused(player_id=player_id, reason=RefusalReason.STARTED), *out]
        entry = self._entries.pop(player_id)
        self._all.remove(entry)
        self._entry_count -= 1
        self._first_entries -= 1
        return [Unregistered(player_id=player_id), *out]

    def mark_present(self, player_id: str) -> None:
        """The player has shown up (fpc 2-2 no-show removal, with ``track_presence``)."""
        self._entry(player_id).present = True

    def rebuy(self, player_id: str, now: float) -> list[Decision]:
        """A busted player rebuys before his table's next hand and keeps his seat (tda 26)."""
        out = self._tick(now)
        e = self._entries.get(player_id)
        window = self.config.rebuy
        if (
            e is None
            or window is None
            or not e.out
            or e.removed
            or e.table is None
            or e.seat is None
            or e.rebuys >= window.max
            or not self._window_open(window.until_level)
            or self._tables[e.table].reserved.get(e.seat) != player_id
        ):
            return [Refused(player_id=player_id, reason=RefusalReason.NOT_ALLOWED), *out]
        t = self._tables[e.table]
        del t.reserved[e.seat]
        self._unpend(e)
        e.out = False
        e.eliminated_by = ()
        e.stack = window.stack
        e.rebuys += 1
        self._rebuys += 1
        self._alive += 1
        self._place(t, e.seat, e.player_id)
        out.append(
            Rebought(
                player_id=player_id, table_id=t.id, seat=e.seat, chips=window.stack, count=e.rebuys
            )
        )
        return out + self._settle(now)

    def reenter(self, player_id: str, now: float) -> list[Decision]:
        """A busted player enters again with a new stack, seated as a late entry (tda 7)."""
        out = self._tick(now)
        e = self._entries.get(player_id)
        window = self.config.reentry
        if (
            e is None
            or window is None
            or not e.out
            or e.removed
            or e.entry > window.max
            or not self._window_open(window.until_level)
            or self.phase is Phase.REGISTERING
        ):
            return [Refused(player_id=player_id, reason=RefusalReason.NOT_ALLOWED), *out]
        refusal = self._entry_refusal(player_id)
        if refusal is not None:
            return [refusal, *out]
        if e.table is not None and e.seat is not None:
            self._tables[e.table].reserved.pop(e.seat, None)
        new = _Entry(player_id=player_id, name=e.name, entry=e.entry + 1, present=True)
        self._entries[player_id] = new
        self._all.append(new)
        self._entry_count += 1
        self._reentries += 1
        return self._seat_newcomer(new, window.stack, 0, out, now)

    def _entry_refusal(self, player_id: str) -> Refused | None:
        if self.phase is not Phase.REGISTERING and not self._registration_open:
            return Refused(player_id=player_id, reason=RefusalReason.REGISTRATION_CLOSED)
        if self.phase is Phase.FINISHED:
            return Refused(player_id=player_id, reason=RefusalReason.REGISTRATION_CLOSED)
        if self.config.max_entries and self._entry_count >= self.config.max_entries:
            return Refused(player_id=player_id, reason=RefusalReason.FULL)
        return None

    def _seat_newcomer(
        self, entry: _Entry, stack: int, penalty: int, out: list[Decision], now: float
    ) -> list[Decision]:
        """Seat a late entry (tda 7, cdc 2.3, ligue 6.22) at the shortest table with room."""
        entry.stack = stack
        first: list[Decision] = []
        t = self._shortest_with_room(exclude=None)
        if t is None:
            t = self._new_table(self.config.table_size, initial=False)
            if self.phase in (Phase.FINAL_TABLE, Phase.RUNNING, Phase.BREAK):
                self._fire(PhaseEvent.TABLE_ADDED)
                self._final_formed = False
        seat, hold = self._arrival_seat(t, self.rules.late_seat)
        self._place(t, seat, entry.player_id)
        if t.status is _Status.DEALT:
            t.arrivals.add(entry.player_id)
        self._alive += 1
        first.append(
            Registered(
                player_id=entry.player_id,
                name=entry.name,
                entry=entry.entry,
                table_id=t.id,
                seat=seat,
                stack=stack,
                penalty=penalty,
                late=True,
                waits_for_button=hold,
            )
        )
        if len(t.seats) == 1:
            first.append(self._assignment(t))
        return first + out + self._settle(now)

    # ================================================================== start

    def start(self, now: float) -> list[Decision]:
        """Random seating (cdc 2.1, tda 6), tables as even as possible, each button drawn.
        Raises :class:`PhaseError` if already started or below ``min_players``."""
        if self.phase is not Phase.REGISTERING:
            raise PhaseError("the tournament has already started")
        players = [e.player_id for e in self._all]
        if len(players) < self.config.min_players:
            raise PhaseError(f"{len(players)} players registered, {self.config.min_players} needed")
        size = self.config.table_size
        count = math.ceil(len(players) / size)
        order = shuffled(players, self._rng)
        out: list[Decision] = []
        tables = [self._new_table(size, initial=True) for _ in range(count)]
        base, extra = divmod(len(players), count)
        pos = 0
        for i, t in enumerate(tables):
            n = base + (1 if i < extra else 0)
            seats = sorted(shuffled(range(1, size + 1), self._rng)[:n])
            for seat, pid in zip(seats, order[pos : pos + n], strict=True):
                self._place(t, seat, pid)
            pos += n
            t.button = seats[self._rng.randrange(len(seats))]
            out.append(self._assignment(t))
        self._alive = len(players)
        self.clock.start(now)
        self._fire(PhaseEvent.START if count > 1 else PhaseEvent.START_ONE_TABLE)
        self._final_formed = count == 1
        out.insert(0, self._level_change(0, now))
        if self._late_until_index < 0:
            out += self._close_registration()
        return out + self._settle(now)

    # ================================================================== per hand

    def ready(self, table_id: int, now: float) -> list[Decision]:
        """The table is between hands and wants to deal. Answer: a :class:`Deal` (after a
        :class:`ChipRace` when one is due), or a :class:`Wait` until another decision deals it
        (break, hand-for-hand barrier, short table, final table draw)."""
        out = self._tick(now)
        t = self._table(table_id)
        if t.status is _Status.CLOSED:
            return [*out, Wait(table_id=t.id, reason=WaitReason.TABLE_CLOSED)]
        if t.status is _Status.DEALT:
            raise ReportError(f"table {table_id} asked to deal during hand {t.hand_no}")
        t.reserved.clear()  # tda 26: a rebuy comes before the next hand
        if t.status is not _Status.WAITING:
            self._set_status(t, _Status.WAITING)
            t.wait = None
        out += self._settle(now, source=t)
        if t.status is _Status.WAITING and not any(
            isinstance(d, Deal) and d.table_id == t.id for d in out
        ):
            reason = self._evaluate(t) or WaitReason.HAND_FOR_HAND
            t.wait = reason
            out.append(Wait(table_id=t.id, reason=reason))
        return out

    def hand_started(self, table_id: int, hand_no: int, positions: Positions) -> None:
        """Optional: the positions the table actually dealt, if they differ from the Deal's."""
        t = self._table(table_id)
        if t.status is not _Status.DEALT or hand_no != t.hand_no:
            raise ReportError(f"table {table_id} did not deal hand {hand_no}")
        t.ref = positions

    def allin_showdown(self, table_id: int, now: float) -> list[Decision]:
        """An all-in is called and no betting remains. During hand-for-hand the hands stay face
        down until every table has finished its hand (cdc 2.7); otherwise they are shown."""
        out = self._tick(now)
        t = self._table(table_id)
        if t.status is not _Status.DEALT:
            raise ReportError(f"table {table_id} is not in a hand")
        if not t.hfh_round or t.hfh_round != self._round:
            return [*out, ShowdownReveal(table_id=t.id)]
        t.holding = True
        reveal = self._reveal_if_all_holding()
        return out + (reveal or [ShowdownHold(table_id=t.id)])

    def hand_ended(self, report: HandEnded, now: float) -> list[Decision]:
        """A hand is over at one table. Raises :class:`ReportError` if the report contradicts
        the director (wrong players or seats, chips appearing or vanishing)."""
        out = self._tick(now)
        t = self._table(report.table_id)
        if t.status is not _Status.DEALT or report.hand_no != t.hand_no:
            raise ReportError(f"table {t.id} is not playing hand {report.hand_no}")
        busts = self._apply_report(t, report)
        t.ref = t.before if report.cancelled else report.positions
        t.holding = False
        self._set_status(t, _Status.IDLE)
        if t.hfh_round and t.hfh_round == self._round:
            self._round_busts.extend((t.id, b) for b in busts)
            self._round_tables.discard(t.id)
            out += self._reveal_if_all_holding()
            if not self._round_tables:
                out += self._end_round(now)
        elif busts:
            out += self._eliminate([(t.id, b) for b in busts])
        out += self._race_if_due(t)
        return out + self._settle(now, source=t)

    def _apply_report(self, t: _Table, report: HandEnded) -> list[Bust]:
        seen: set[str] = set()
        after = 0
        for seat, (pid, stack) in report.stacks.items():
            if pid in t.gone:
                continue
            if t.seats.get(seat) != pid:
                raise ReportError(f"table {t.id}: {pid} is not in seat {seat}")
            if stack <= 0:
                raise ReportError(f"table {t.id}: {pid} has no chips but is not busted")
            seen.add(pid)
            if pid not in t.arrivals:
                after += stack
        busts = []
        for b in report.busts:
            if b.player_id in t.gone:
                continue
            if t.seats.get(b.seat) != b.player_id or b.player_id in seen:
                raise ReportError(f"table {t.id}: bad bust of {b.player_id} in seat {b.seat}")
            seen.add(b.player_id)
            busts.append(b)
        missing = [p for p in t.seats.values() if p not in seen and p not in t.arrivals]
        if missing:
            raise ReportError(f"table {t.id}: no news of {missing}")
        if not t.gone and after != t.hand_total:
            raise ReportError(f"table {t.id}: {t.hand_total} chips dealt in, {after} after")
        for pid, stack in report.stacks.values():
            if pid not in t.gone:
                self._entries[pid].stack = stack
        for b in busts:
            self._unplace(t, b.seat)
            e = self._entries[b.player_id]
            e.stack = 0
            e.out = True
            e.start_stack = b.start_stack
            e.eliminated_by = b.eliminated_by
            e.table, e.seat = t.id, b.seat
        self._alive -= len(busts)
        return busts

    # ================================================================== leaving

    def abandon(self, player_id: str, now: float) -> list[Decision]:
        """cdc 1.9, fpc 4-3, ligue 6.23: the player announces he leaves: his chips are removed
        and he is ranked at the announcement (below any player busted in a hand-for-hand hand
        still being played, whose places are settled at the end of that hand)."""
        out = self._tick(now)
        e = self._entries.get(player_id)
        if e is None or e.out or e.table is None or e.seat is None:
            return [Refused(player_id=player_id, reason=RefusalReason.NOT_REGISTERED), *out]
        t = self._tables[e.table]
        seat = e.seat
        self._unplace(t, seat)
        if t.status is _Status.DEALT:
            t.gone.add(player_id)
        e.out = True
        e.abandoned = True
        e.stack = 0
        e.table, e.seat = t.id, seat
        self._alive -= 1
        reason = RemovalReason.ABANDON
        out.append(RemovePlayer(table_id=t.id, seat=seat, player_id=player_id, reason=reason))
        out += self._rank_and_report([[e]])
        return out + self._settle(now)

    # ================================================================== director's console

    @property
    def paused(self) -> bool:
        return self._paused

    def pause(self, now: float) -> list[Decision]:
        """The director stops the tournament clock (tables go on dealing at this level)."""
        out = self._tick(now)
        self._paused = True
        out += self._clock_events(self.clock.stop(now), now)
        return out + self._settle(now)

    def resume(self, now: float) -> list[Decision]:
        self._paused = False
        if self._hfh is None and self.phase is not Phase.REGISTERING:
            self.clock.resume(now)
        return self.tick(now)

    def adjust_stack(self, player_id: str, stack: int) -> None:
        """The director corrects a stack between the player's hands (the reason is logged by
        the coordinator). Raises :class:`PhaseError` during the player's hand."""
        e = self._entry(player_id)
        if e.out or e.table is None or stack <= 0:
            raise PhaseError(f"{player_id} holds no seat with chips")
        if self._tables[e.table].status is _Status.DEALT:
            raise PhaseError(f"{player_id} is in a hand")
        e.stack = stack

    def move(self, player_id: str, to_table: int, to_seat: int) -> MovePlayer | None:
        """The director moves a player by hand (both tables between hands, the seat free).
        None when it cannot be done now."""
        e = self._entry(player_id)
        if e.out or e.table is None or e.seat is None or e.table == to_table:
            return None
        src, dst = self._tables[e.table], self._tables.get(to_table)
        if dst is None or dst.status in (_Status.DEALT, _Status.CLOSED):
            return None
        if src.status is _Status.DEALT or to_seat in dst.seats or to_seat in dst.reserved:
            return None
        if not 1 <= to_seat <= dst.max_seats:
            return None
        return self._move_player(src, e.seat, dst, to_seat, reason="director")

    def busy(self, table_id: int) -> bool:
        """True while the table plays a hand."""
        return self._table(table_id).status is _Status.DEALT

    # ================================================================== clock

    def tick(self, now: float) -> list[Decision]:
        """Let time pass: level changes, breaks, end of late registration."""
        out = self._tick(now)
        return out + self._settle(now)

    def _tick(self, now: float) -> list[Decision]:
        if self.phase in (Phase.REGISTERING, Phase.FINISHED):
            return []
        return self._clock_events(self.clock.advance(now), now)

    def _clock_events(self, entered: Iterable[int], now: float) -> list[Decision]:
        out: list[Decision] = []
        for index in entered:
            previous = self.config.levels[index - 1]
            level = self.config.levels[index]
            out.append(self._level_change(index, now))  # cdc 3.1: applies from the next hand
            if not self._no_show_done and index > self._no_show_index:
                out += self._remove_no_shows()
            if self._registration_open and index > self._late_until_index:
                out += self._close_registration()
            if previous.is_break and not level.is_break:
                out += self._end_break(index, now)
            elif level.is_break and not previous.is_break:
                out += self._begin_break(index, now)
        return out

    def _level_change(self, index: int, now: float) -> LevelChange:
        lv = self.config.levels[index]
        return LevelChange(
            index=index,
            number=lv.number,
            blinds=lv.blinds,
            minutes=lv.minutes,
            chip_race=lv.chip_race,
            at=now,
        )

    def _begin_break(self, index: int, now: float) -> list[Decision]:
        self._fire(PhaseEvent.BREAK)
        self.clock.resume(now)  # a break runs even during hand-for-hand
        return [Break(started=True, level_index=index, ends_at=self.clock.level_ends_at())]

    def _end_break(self, index: int, now: float) -> list[Decision]:
        if self._final_formed:
            self._fire(PhaseEvent.RESUME_FINAL)
        elif self._hfh is not None:
            self._fire(PhaseEvent.RESUME_HAND_FOR_HAND)
        else:
            self._fire(PhaseEvent.RESUME)
        return [Break(started=False, level_index=index, ends_at=None)]

    def _level_number(self) -> int:
        for lv in reversed(self.config.levels[: self.clock.index + 1]):
            if lv.number is not None:
                return lv.number
        return 1

    def _index_of_level(self, number: int) -> int:
        """Index of the last entry (breaks after it excluded) of level ``number``."""
        if number <= 0:
            return -1
        for lv in self.config.levels:
            if lv.number == number:
                return lv.index
        return len(self.config.levels) - 1

    def _window_open(self, until_level: int) -> bool:
        return self.phase is not Phase.REGISTERING and self.clock.index <= self._index_of_level(
            until_level
        )

    # ================================================================== registration close

    def _close_registration(self) -> list[Decision]:
        """End of late registration: the field is known, so are the prizes, the points and the
        places of the players busted so far (in the order they busted)."""
        self._registration_open = False
        cfg = self.config
        entries = self._entry_count
        pool = cfg.prize_pool or (
            cfg.buy_in * self._first_entries
            + (cfg.reentry.price if cfg.reentry and cfg.reentry.price else cfg.buy_in)
            * self._reentries
            + (cfg.rebuy.price if cfg.rebuy else 0) * self._rebuys
        )
        self._prize_pool = pool
        self._payouts = payout_amounts(pool, cfg.payout_percents(entries))
        self._points = points_by_place(cfg.points, entries, cfg.final_table_size)
        self._next_place = entries
        out: list[Decision] = [
            RegistrationClosed(entries=entries, prize_pool=pool, payouts=self._payouts)
        ]
        for group in self._pending:
            out += self._assign_places(group)
        self._pending.clear()
        for t in self._tables.values():
            t.reserved.clear()
        return out

    def _remove_no_shows(self) -> list[Decision]:
        """fpc 2-2: players still absent at the end of the level leave with their stack and
        are struck off the list of participants."""
        self._no_show_done = True
        out: list[Decision] = []
        for e in self._all:
            if e.present or e.out or e.table is None or e.seat is None:
                continue
            t = self._tables[e.table]
            seat = e.seat
            self._unplace(t, seat)
            if t.status is _Status.DEALT:
                t.gone.add(e.player_id)
            e.out = e.removed = True
            e.stack = 0
            self._alive -= 1
            self._entry_count -= 1
            self._first_entries -= 1 if e.entry == 1 else 0
            self._reentries -= 1 if e.entry > 1 else 0
            out.append(
                RemovePlayer(
                    table_id=t.id, seat=seat, player_id=e.player_id, reason=RemovalReason.NO_SHOW
                )
            )
        return out

    # ================================================================== eliminations

    def _eliminate(self, items: list[tuple[int, Bust]]) -> list[Decision]:
        """Players busted together: ranked (cdc 1.10, 2.7), bounties paid (fpc part B)."""
        entries = [self._entries[b.player_id] for _, b in items]
        blocks = self._rank(items)
        out: list[Decision] = []
        for (tid, _), e in zip(items, entries, strict=True):
            out += self._bounty(e, self._tables[tid])
        if self._registration_open:
            for tid, b in items:
                e = self._entries[b.player_id]
                if self._can_rebuy(e):
                    self._tables[tid].reserved[b.seat] = e.player_id
        return out + self._rank_and_report(blocks)

    def _rank_and_report(self, blocks: list[_Block]) -> list[Decision]:
        if not self._registration_open:
            return self._assign_places(blocks)
        self._pending.append(blocks)
        return [self._eliminated(e) for block in reversed(blocks) for e in block]

    def _rank(self, items: list[tuple[int, Bust]]) -> list[_Block]:
        """Blocks of tied players, worst first.

        Same table: the bigger start-of-hand stack ranks better; equal stacks tie (cdc 1.10,
        fpc 4-4, casino). Several tables (one hand-for-hand hand): at the bubble, by start
        stack under fpc 4-4 / casino, else tied (cdc 1.10, 2.7): the best of each table tie,
        then the second of each table, and so on.
        """
        entries = {b.player_id: self._entries[b.player_id] for _, b in items}
        tables = {tid for tid, _ in items}
        k = len(items)
        low = self._next_place - k + 1
        bubble = not self._registration_open and any(
            low <= boundary < self._next_place
            for boundary in (len(self._payouts), self.config.final_table_size)
        )
        by_stack = self.rules.bubble_across_tables is BubbleRule.START_STACK
        if len(tables) <= 1 or (bubble and by_stack):
            stacks = sorted({b.start_stack for _, b in items})
            return [[entries[b.player_id] for _, b in items if b.start_stack == s] for s in stacks]
        rank: dict[str, int] = {}
        for tid in tables:
            here = [b for t, b in items if t == tid]
            distinct = sorted({b.start_stack for b in here}, reverse=True)
            for b in here:
                rank[b.player_id] = distinct.index(b.start_stack)
        levels = sorted(set(rank.values()), reverse=True)
        return [[entries[p] for p in rank if rank[p] == r] for r in levels]

    def _assign_places(self, blocks: list[_Block]) -> list[Decision]:
        out: list[Decision] = []
        for block in blocks:
            m = len(block)
            best = self._next_place - m + 1
            shares = share_block(self._payouts, best, m)
            for e, prize in zip(block, shares, strict=True):
                e.place = best
                e.prize = prize
                e.points = self._points[best - 1] if 0 < best <= len(self._points) else 0
                e.tied_with = tuple(x.player_id for x in block if x is not e)
                out.append(self._eliminated(e))
            self._next_place -= m
        return out

    def _eliminated(self, e: _Entry) -> Eliminated:
        return Eliminated(
            player_id=e.player_id,
            entry=e.entry,
            table_id=e.table,
            seat=e.seat,
            place=e.place,
            tied_with=e.tied_with,
            prize=e.prize,
            points=e.points,
            start_stack=e.start_stack,
            eliminated_by=e.eliminated_by,
            abandoned=e.abandoned,
            can_rebuy=self._registration_open and self._can_rebuy(e),
            can_reenter=self._registration_open and self._can_reenter(e),
        )

    def _can_rebuy(self, e: _Entry) -> bool:
        w = self.config.rebuy
        return w is not None and e.rebuys < w.max and self._window_open(w.until_level)

    def _can_reenter(self, e: _Entry) -> bool:
        w = self.config.reentry
        return w is not None and e.entry <= w.max and self._window_open(w.until_level)

    def _unpend(self, e: _Entry) -> None:
        for group in self._pending:
            for block in group:
                if e in block:
                    block.remove(e)
        self._pending = [[b for b in g if b] for g in self._pending]
        self._pending = [g for g in self._pending if g]

    def _bounty(self, victim: _Entry, t: _Table) -> list[Decision]:
        """fpc part B: Bounty (10,000 + BB) and Kill the PVS (2,500 + SB), not cumulative;
        part C: points for eliminating the leader. Shared between split-pot eliminators."""
        for spec in self.config.bounties:
            if victim.player_id not in spec.players:
                continue
            winners = [
                self._entries[p]
                for p in victim.eliminated_by
                if p in self._entries and not self._entries[p].out
            ]
            if not winners:
                return []
            chips = spec.chips
            if t.blinds is not None and spec.plus_blind is PlusBlind.SB:
                chips += t.blinds.sb
            elif t.blinds is not None and spec.plus_blind is PlusBlind.BB:
                chips += t.blinds.bb
            unit = self.config.denominations_at(self.clock.index)[0]
            n = len(winners)
            each_chips = chips // n // unit * unit
            each_points = spec.points // n
            out: list[Decision] = []
            for i, w in enumerate(winners):
                c = each_chips + (chips - each_chips * n if i == 0 else 0)
                p = each_points + (spec.points - each_points * n if i == 0 else 0)
                w.stack += c
                w.bounty_chips += c
                w.bounty_points += p
                out.append(
                    BountyAwarded(
                        table_id=w.table,
                        player_id=w.player_id,
                        victim=victim.player_id,
                        kind=spec.kind,
                        chips=c,
                        points=p,
                    )
                )
            return out  # "le montant de la prime n'est pas multiplié ... ni par le cumul"
        return []

    # ================================================================== hand-for-hand

    def _hfh_wanted(self) -> HandForHandTrigger | None:
        """cdc 2.7: one elimination from the money or from the final table (per profile)."""
        if self._open < 2 or self._registration_open:
            return None
        triggers = self.rules.hand_for_hand
        paid = len(self._payouts)
        if HandForHandTrigger.MONEY in triggers and paid and self._alive == paid + 1:
            return HandForHandTrigger.MONEY
        if (
            HandForHandTrigger.FINAL_TABLE in triggers
            and self._alive == self.config.final_table_size + 1
        ):
            return HandForHandTrigger.FINAL_TABLE
        return None

    def _update_hfh(self, now: float, off: bool = False) -> list[Decision]:
        want = None if off else self._hfh_wanted()
        if want == self._hfh:
            return []
        was = self._hfh
        self._hfh = want
        if want is None:
            self._fire(PhaseEvent.HAND_FOR_HAND_OFF)
            if self.phase is not Phase.BREAK and not self._paused:
                self.clock.resume(now)  # cdc 2.7: the clock restarts normally afterwards
            return [HandForHand(on=False, reason=None, remaining=self._alive)]
        if was is None:
            self._fire(PhaseEvent.HAND_FOR_HAND_ON)
        return [HandForHand(on=True, reason=want, remaining=self._alive)]

    def _maybe_start_round(self, now: float) -> list[Decision]:
        """cdc 2.7: a new hand starts only when every table has finished the previous one."""
        if self._round_tables or self._busy > 0:
            return []
        out: list[Decision] = []
        if self.phase is not Phase.BREAK:
            # stopped from the first hand-for-hand hand
            out += self._clock_events(self.clock.stop(now), now)
        self._round += 1
        for tid in list(self._waiting):
            t = self._tables[tid]
            if self._evaluate(t, barrier=False) is None:
                self._round_tables.add(t.id)
                out += self._deal(t, hfh=True)
        if not self._round_tables:
            self._round -= 1
        return out

    def _end_round(self, now: float) -> list[Decision]:
        """All tables finished the hand-for-hand hand: rank its busts together, and advance
        the stopped clock by exactly 2 minutes (cdc 2.7)."""
        items, self._round_busts = self._round_busts, []
        out: list[Decision] = self._eliminate(items) if items else []
        entered = self.clock.add(self.config.hand_for_hand_minutes * 60.0)
        return out + self._clock_events(entered, now)

    def _reveal_if_all_holding(self) -> list[Decision]:
        holding = [self._tables[x] for x in self._round_tables]
        if not holding or not all(t.holding for t in holding):
            return []
        for t in holding:
            t.holding = False
        return [ShowdownReveal(table_id=t.id) for t in holding]

    # ================================================================== structure

    def _settle(self, now: float, source: _Table | None = None) -> list[Decision]:
        """After any change: winner, final table, hand-for-hand, breaking, balancing, and
        waiting tables that may now deal."""
        out: list[Decision] = []
        if self.phase in (Phase.FINISHED, Phase.REGISTERING):
            return out
        mid_round = bool(self._round_tables)
        if not self._registration_open and self._alive <= 1 and not mid_round:
            return self._finish()
        if (
            self._open >= 2
            and not self._registration_open
            and self._alive <= self.config.final_table_size
        ):
            if not self._final_pending:
                self._final_pending = True
                if self._hfh is not None:
                    out += self._update_hfh(now, off=True)
            if self._dealt == 0 and not mid_round:
                out += self._form_final(now)
            return out
        if not mid_round:
            out += self._update_hfh(now)
        out += self._maybe_break()
        if source is not None:
            out += self._balance(source)
        return out + self._release(now)

    def _evaluate(self, t: _Table, *, barrier: bool = True) -> WaitReason | None:
        """Why ``t`` may not deal now (None: it may)."""
        if self.phase is Phase.FINISHED:
            return WaitReason.FINISHED
        if self.phase is Phase.BREAK:
            return WaitReason.BREAK
        if self._final_pending:
            return WaitReason.FINAL_TABLE_DRAW
        n = len(t.seats)
        need = self.rules.min_players_to_start if t.initial and not t.dealt_once else 2
        # cdc 2.2 asks three players at a table to start; a tournament of fewer players (a
        # heads-up match) starts with all of them
        need = min(need, max(2, self.remaining))
        if n < need:
            return WaitReason.TOO_FEW_PLAYERS  # cdc 2.2
        if self._open > 1 and t.id not in self._breaking:
            high, _ = self._extremes(with_breaking=True)
            if high - n >= self.gap_tolerance():
                return WaitReason.SHORT_TABLE  # cdc 2.3, tda 10-D
        if barrier and self._hfh is not None:
            return WaitReason.HAND_FOR_HAND
        return None

    def _release(self, now: float) -> list[Decision]:
        if self.phase in (Phase.BREAK, Phase.FINISHED) or self._final_pending:
            return []
        if self._hfh is not None:
            return self._maybe_start_round(now)
        out: list[Decision] = []
        high, _ = self._extremes(with_breaking=True)
        tolerance = self.gap_tolerance()
        for tid in list(self._waiting):
            t = self._tables[tid]
            if t.wait is WaitReason.SHORT_TABLE and high - len(t.seats) >= tolerance:
                continue  # still short: nothing to re-evaluate
            reason = self._evaluate(t)
            if reason is None:
                out += self._deal(t)
            else:
                t.wait = reason
        return out

    def _deal(self, t: _Table, *, hfh: bool = False) -> list[Decision]:
        out = self._race_if_due(t)
        level = self.clock.level
        assert level.blinds is not None and level.number is not None
        players = sorted(t.seats)
        if t.ref is None:
            if t.button not in t.seats:
                t.button = players[self._rng.randrange(len(players))]
            assert t.button is not None
            positions = first_positions(t.button, players, t.max_seats)
        else:
            positions = next_positions(t.ref, players, t.max_seats)
        t.before = t.ref
        t.ref = positions
        t.hand_no += 1
        t.hfh_round = self._round if hfh else 0
        t.blinds = level.blinds
        t.arrivals.clear()
        t.gone.clear()
        t.hand_total = sum(self._entries[p].stack for p in t.seats.values())
        t.dealt_once = True
        t.wait = None
        self._set_status(t, _Status.DEALT)
        out.append(
            Deal(
                table_id=t.id,
                hand_no=t.hand_no,
                level_index=level.index,
                level_number=level.number,
                blinds=level.blinds,
                positions=positions,
                seats=dict(t.seats),
                hand_for_hand=hfh,
            )
        )
        return out

    def _race_if_due(self, t: _Table) -> list[Decision]:
        """cdc 3.2, tda 23: the colour-up and race of a denomination leaving play, done at the
        table between hands, before its first hand of the level (fpc 21-3)."""
        out: list[Decision] = []
        while t.races < len(self._races) and self._races[t.races][0] <= self.clock.index:
            index, removed, new = self._races[t.races]
            t.races += 1
            if not t.seats:
                continue
            lines = chip_race(
                [(s, p, self._entries[p].stack) for s, p in t.seats.items()],
                removed=removed,
                new=new,
                rounding=self.rules.chip_race_rounding,
                guard=self.rules.chip_race_guard,
                rng=self._rng,
            )
            for line in lines:
                self._entries[line.player_id].stack = line.stack_after
            out.append(
                ChipRace(
                    table_id=t.id,
                    level_index=index,
                    removed=removed,
                    next_denomination=new,
                    lines=lines,
                )
            )
        return out

    # ------------------------------------------------------------------ balancing

    def _extremes(self, *, with_breaking: bool = False) -> tuple[int, int]:
        """(most, fewest) players at an open table; the table being broken aside for balancing
        (its players are about to be drawn), counted when stopping a short table (cdc 2.3:
        'en attente de fermeture ou de rééquilibrage')."""
        keys = sorted(k for k, b in self._by_count.items() if b)
        skip = {} if with_breaking else self._breaking

        def ok(k: int) -> bool:
            return any(tid not in skip for tid in self._by_count[k])

        high = next((k for k in reversed(keys) if ok(k)), 0)
        low = next((k for k in keys if ok(k)), 0)
        return high, low

    def _balance(self, src: _Table) -> list[Decision]:
        """cdc 2.3, tda 10, ligue art. 3, fpc 3-3: when a table is short by the gap, the fullest
        table moves its next big blind(s), each to the shortest table, at the seat where he
        pays the big blind soonest and never skips it."""
        out: list[Decision] = []
        if src.status in (_Status.DEALT, _Status.CLOSED) or src.id in self._breaking:
            return out
        while self._open >= 2:
            high, low = self._extremes()
            if len(src.seats) != high or high - low < self.gap_tolerance():
                break
            dst = self._pick_table(low, exclude=src.id)
            if dst is None:
                break
            seat = self._next_big_blind(src)
            to_seat, _ = self._arrival_seat(dst, SeatRule.NEXT_BIG_BLIND)
            out.append(self._move_player(src, seat, dst, to_seat))
        return out

    def _move_player(
        self, src: _Table, seat: int, dst: _Table, to_seat: int, reason: str = "balancing"
    ) -> MovePlayer:
        """Move the player of ``src``'s ``seat`` to ``dst``'s ``to_seat`` (balancing or the
        director's console); he waits for the button if that seat is the next button or
        small blind (ligue art. 3, tda 10-A)."""
        pid = src.seats[seat]
        self._unplace(src, seat)
        hold = self._waits_for_button(dst, to_seat)
        self._place(dst, to_seat, pid)
        if dst.status is _Status.DEALT:
            dst.arrivals.add(pid)
        return MovePlayer(
            player_id=pid,
            from_table=src.id,
            from_seat=seat,
            to_table=dst.id,
            to_seat=to_seat,
            stack=self._entries[pid].stack,
            waits_for_button=hold,
            reason=reason,
        )

    def _waits_for_button(self, t: _Table, seat: int) -> bool:
        occupied = set(t.seats) | set(t.reserved)
        return classify(seat, t.ref, occupied, t.max_seats) >= SeatClass.SMALL_BLIND

    def _next_big_blind(self, t: _Table) -> int:
        players = sorted(t.seats)
        if len(players) < 2:
            return players[0]
        if t.ref is None:
            button = t.button if t.button in t.seats else players[0]
            assert button is not None
            return first_positions(button, players, t.max_seats).big_blind
        return next_positions(t.ref, players, t.max_seats).big_blind

    def _pick_table(self, count: int, exclude: int | None) -> _Table | None:
        """A table with ``count`` players and a free seat, by a predetermined procedure (cdc
        2.3, tda 10-C): the first in the order the tables reached that count."""
        for tid in self._by_count.get(count, {}):
            if tid != exclude and tid not in self._breaking and self._has_room(self._tables[tid]):
                return self._tables[tid]
        return None

    def _shortest_with_room(self, exclude: int | None) -> _Table | None:
        for count in sorted(k for k, b in self._by_count.items() if b):
            t = self._pick_table(count, exclude)
            if t is not None:
                return t
        return None

    def _has_room(self, t: _Table) -> bool:
        return len(t.seats) + len(t.reserved) < t.max_seats

    def _arrival_seat(self, t: _Table, rule: SeatRule) -> tuple[int, bool]:
        """The seat, and whether the arrival waits for the button to pass: when the only free
        seat is the next button or small blind (ligue art. 3: a moved player never takes the
        button and waits rather than be the small blind; tda 10-A: never the small blind)."""
        occupied = set(t.seats) | set(t.reserved)
        seat = choose_seat(rule, t.ref, occupied, t.max_seats, self._rng)
        if seat is None:
            raise ReportError(f"table {t.id} is full")  # callers check room first
        return seat, self._waits_for_button(t, seat)

    # ------------------------------------------------------------------ breaking

    def _maybe_break(self) -> list[Decision]:
        """cdc 2.4, tda 9: as many tables as the others can do without are designated in the
        predetermined order (a table left unable to deal goes first: cdc 2.4 lets the director
        change the order when necessary); each breaks as soon as it is between hands. The last
        two tables are merged by the final table draw instead."""
        size = self.config.table_size
        needed = max(2, -(-self._alive // size))
        surplus = self._open - needed - len(self._breaking)
        while surplus > 0:
            tid = self._next_to_break()
            if tid is None:
                break
            self._breaking[tid] = None
            surplus -= 1
        out: list[Decision] = []
        for tid in list(self._breaking):
            t = self._tables[tid]
            if t.status is not _Status.DEALT:
                out += self._break_table(t)
        return out

    def _next_to_break(self) -> int | None:
        for count in (0, 1):
            for tid in self._by_count.get(count, {}):
                if tid not in self._breaking and self._tables[tid].status is not _Status.DEALT:
                    return tid
        while self._order:
            tid = self._order[-1]
            if self._is_open(tid) and tid not in self._breaking:
                return tid
            self._order.pop()
        return None

    def _break_table(self, b: _Table) -> list[Decision]:
        out = self._race_if_due(b)
        players = sorted(b.seats.items())
        self._close(b)
        self._breaking.pop(b.id, None)
        # step 1 (tda 9 addendum): the seat cards, one per player, spread over the shortest
        # tables; seats by the profile's rule (cdc 2.4 -> 2.3; tda 9: never between SB and BTN)
        pool = self._draw_pool(2 * len(players))
        taken = {t.id: set(t.seats) | set(t.reserved) for t in pool}
        counts = {t.id: len(t.seats) for t in pool}
        cards: list[tuple[int, int]] = []
        hold: dict[tuple[int, int], bool] = {}
        for _ in players:
            d = self._draw_destination(pool, taken, counts)
            seat = choose_seat(self.rules.break_seat, d.ref, taken[d.id], d.max_seats, self._rng)
            assert seat is not None
            hold[(d.id, seat)] = (
                classify(seat, d.ref, taken[d.id], d.max_seats) >= SeatClass.SMALL_BLIND
            )
            taken[d.id].add(seat)
            counts[d.id] += 1
            cards.append((d.id, seat))
        seat_cards = shuffled(cards, self._rng)
        # step 2: one playing card per player; the highest takes the first seat card
        pids = [p for _, p in players]
        dealt = deal_cards(len(pids), self._rng)
        card_of = dict(zip(pids, dealt, strict=True))
        order = order_by_card(pids, dealt, self._rng)
        from_seat = {p: s for s, p in players}
        draws = []
        for pid, (tid, seat) in zip(order, seat_cards, strict=True):
            d = self._tables[tid]
            self._place(d, seat, pid)
            if d.status is _Status.DEALT:
                d.arrivals.add(pid)
            draws.append(
                SeatDraw(
                    player_id=pid,
                    card=_card(card_of[pid]),
                    from_table=b.id,
                    from_seat=from_seat[pid],
                    to_table=tid,
                    to_seat=seat,
                    stack=self._entries[pid].stack,
                    waits_for_button=hold[(tid, seat)],
                )
            )
        out.append(BreakTable(table_id=b.id, seat_cards=tuple(seat_cards), draws=tuple(draws)))
        return out

    def _draw_destination(
        self, pool: list[_Table], taken: dict[int, set[int]], counts: dict[int, int]
    ) -> _Table:
        """The table for the next seat card: the fewest players first (random among equals),
        preferring a table with a seat where the arrival is dealt in without skipping the big
        blind (or waits for the button, tda 7) over one whose only free seat is the small blind
        or the button (cdc 2.3)."""
        room = [t for t in pool if len(taken[t.id]) < t.max_seats]
        fewest = min(counts[t.id] for t in room)

        def good(t: _Table) -> bool:
            return any(
                classify(s, t.ref, taken[t.id], t.max_seats) <= SeatClass.WAITS
                for s in range(1, t.max_seats + 1)
                if s not in taken[t.id]
            )

        ties = [t for t in room if counts[t.id] == fewest]
        better = [t for t in ties if good(t)]
        if not better:
            slack = [t for t in room if counts[t.id] == fewest + 1 and good(t)]
            better = slack or ties
        return better[self._rng.randrange(len(better))]

    def _draw_pool(self, n: int) -> list[_Table]:
        """The ``n`` open tables with the fewest players and room (random among equals)."""
        pool: list[_Table] = []
        for count in sorted(k for k, b in self._by_count.items() if b):
            bucket = [
                self._tables[tid]
                for tid in self._by_count[count]
                if tid not in self._breaking and self._has_room(self._tables[tid])
            ]
            pool += shuffled(bucket, self._rng)[: n - len(pool)]
            if len(pool) >= n:
                break
        return pool

    # ------------------------------------------------------------------ final table

    def _form_final(self, now: float) -> list[Decision]:
        """cdc 2.1, 2.6, tda 11, ligue art. 5: all remaining players at one table, seats drawn
        at random (two steps, as tda 9), the button drawn (casino)."""
        out: list[Decision] = []
        players: list[tuple[int, int, str]] = []
        for t in list(self._tables.values()):
            if t.status is _Status.CLOSED:
                continue
            out += self._race_if_due(t)
            players += [(t.id, s, p) for s, p in sorted(t.seats.items())]
            self._close(t)
        closed = sorted({tid for tid, _, _ in players})
        size = max(self.config.table_size, self.config.final_table_size)
        final = self._new_table(size, initial=False)
        seat_cards = shuffled(range(1, size + 1), self._rng)[: len(players)]
        pids = [p for _, _, p in players]
        dealt = deal_cards(len(pids), self._rng)
        card_of = dict(zip(pids, dealt, strict=True))
        origin = {p: (tid, s) for tid, s, p in players}
        draws = []
        for pid, seat in zip(order_by_card(pids, dealt, self._rng), seat_cards, strict=True):
            self._place(final, seat, pid)
            draws.append(
                SeatDraw(
                    player_id=pid,
                    card=_card(card_of[pid]),
                    from_table=origin[pid][0],
                    from_seat=origin[pid][1],
                    to_table=final.id,
                    to_seat=seat,
                    stack=self._entries[pid].stack,
                )
            )
        seats = sorted(final.seats)
        final.button = seats[self._rng.randrange(len(seats))]
        self._final_pending = False
        self._final_formed = True
        self._breaking.clear()
        self._fire(PhaseEvent.FINAL_TABLE)
        table = self._assignment(final)
        out.append(FinalTable(table=table, closed_tables=tuple(closed), draws=tuple(draws)))
        return out + self._release(now)

    def _finish(self) -> list[Decision]:
        winner = next(e for e in self._all if not e.out)
        winner.place = 1
        winner.prize = self._payouts[0] if self._payouts else 0
        winner.points = self._points[0] if self._points else 0
        self._next_place = 0
        self._fire(PhaseEvent.WIN)
        for t in self._tables.values():
            if t.status is not _Status.CLOSED:
                self._close(t)
        ranked = sorted(
            (e for e in self._all if e.place is not None and not e.removed),
            key=lambda e: (e.place or 0, e.player_id, e.entry),
        )
        self._results = tuple(
            Result(
                place=e.place or 0,
                player_id=e.player_id,
                name=e.name,
                entry=e.entry,
                prize=e.prize,
                points=e.points + e.bounty_points,
                bounty_chips=e.bounty_chips,
                bounty_points=e.bounty_points,
                tied_with=e.tied_with,
            )
            for e in ranked
        )
        return [Finished(results=self._results)]

    # ================================================================== bookkeeping

    def _fire(self, event: PhaseEvent) -> None:
        self.phase = transition(self.phase, event)

    def _table(self, table_id: int) -> _Table:
        try:
            return self._tables[table_id]
        except KeyError:
            raise ReportError(f"no table {table_id}") from None

    def _entry(self, player_id: str) -> _Entry:
        try:
            return self._entries[player_id]
        except KeyError:
            raise ReportError(f"no player {player_id!r}") from None

    def _new_table(self, max_seats: int, *, initial: bool) -> _Table:
        t = _Table(id=self._next_table_id, max_seats=max_seats, initial=initial)
        self._next_table_id += 1
        t.races = sum(1 for index, _, _ in self._races if index <= self.clock.index)
        if self.phase is Phase.REGISTERING:
            t.races = 0
        self._tables[t.id] = t
        self._order.append(t.id)  # the last table opened breaks first
        self._by_count.setdefault(0, {})[t.id] = None
        self._open += 1
        self._busy += 1
        return t

    def _close(self, t: _Table) -> None:
        for seat in list(t.seats):
            self._unplace(t, seat)
        self._by_count[0].pop(t.id, None)
        if not self._by_count[0]:
            del self._by_count[0]
        self._set_status(t, _Status.CLOSED)
        self._open -= 1

    def _place(self, t: _Table, seat: int, pid: str) -> None:
        n = len(t.seats)
        self._by_count[n].pop(t.id, None)
        if not self._by_count[n]:
            del self._by_count[n]
        t.seats[seat] = pid
        self._by_count.setdefault(n + 1, {})[t.id] = None
        e = self._entries[pid]
        e.table, e.seat = t.id, seat

    def _unplace(self, t: _Table, seat: int) -> None:
        n = len(t.seats)
        self._by_count[n].pop(t.id, None)
        del t.seats[seat]
        self._by_count.setdefault(n - 1, {})[t.id] = None
        if not self._by_count[n]:
            del self._by_count[n]

    def _set_status(self, t: _Table, status: _Status) -> None:
        old = t.status
        if old is status:
            return
        if old in (_Status.IDLE, _Status.DEALT):
            self._busy -= 1
        if old is _Status.DEALT:
            self._dealt -= 1
        if old is _Status.WAITING:
            self._waiting.pop(t.id, None)
        t.status = status
        if status in (_Status.IDLE, _Status.DEALT):
            self._busy += 1
        if status is _Status.DEALT:
            self._dealt += 1
        if status is _Status.WAITING:
            self._waiting[t.id] = None

    def _assignment(self, t: _Table) -> TableAssignment:
        return TableAssignment(
            table_id=t.id,
            max_seats=t.max_seats,
            seats=dict(t.seats),
            stacks={p: self._entries[p].stack for p in t.seats.values()},
            button=t.button,
        )


def _card(index: int) -> str:
    return card_name(index)
