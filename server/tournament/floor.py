"""The director's state: its tables, seats and entries, kept consistent (count buckets,
statuses), with the queries every part of the director asks.

Layers of :class:`~server.tournament.director.Director` (pure policy, one module each):
``floor`` (its state and bookkeeping) <- ``placing`` (eliminations, places, prizes) and
``balancing`` (moves, table breaking, the final table draw) <- ``dealing`` (the clock, breaks,
hand-for-hand, which table deals when) <- ``director`` (the public API).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from server.engine.positions import (
    MissingBlind,
    Newcomer,
    Positions,
    first_positions,
    next_positions,
)
from server.engine.profile import load_profile
from server.engine.setup import Blinds

from .chiprace import chip_race
from .clock import TournamentClock
from .config import Level, TournamentConfig
from .decisions import Bust, ChipRace, Decision, LevelChange, Result, TableAssignment, WaitReason
from .errors import ReportError
from .lifecycle import Phase, PhaseEvent, transition
from .rules import HandForHandTrigger, SeatRule
from .seating import Rng, SeatClass, choose_seat, classify

__all__ = ["Floor"]


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
    rebuy_until: float = 0.0
    """Until when the table waits for them before its next deal (``[rebuy] wait_seconds``)."""
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


@dataclass(frozen=True, slots=True)
class TableHand:
    """What the director knows of a table's hand, read only (:meth:`Floor.table_hand`): for
    the parts beside it (a table rebuilt after a crash, the tables' placing across processes)."""

    hand_no: int
    """The last hand the director dealt there."""
    positions: Positions | None
    """The button and blinds of that hand (None: never dealt)."""
    max_seats: int
    gone: frozenset[str]
    """Players who left the table during that hand (moved, removed): not in its report."""


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


class Floor:
    """The state of one tournament's director (:class:`~server.tournament.director.Director`)."""

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
        self._stopping = False
        """The hard stop was called: no hand is dealt, the tournament ends when none is in
        play (:meth:`~server.tournament.director.Director.stop`)."""
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

    @property
    def missing_blind(self) -> MissingBlind:
        """How the positions move when a blind's player busts or is moved: the profile's
        rule (cdc 4.3, tda 31: dead button; fpc 17-3, 17-4: the same dealer, no SB)."""
        return load_profile(self.config.profile).missing_blind

    def gap_tolerance(self) -> int:
        """cdc 2.3, tda 10-D: the gap that stops a short table (3 early, 2 late by profile)."""
        late = self._open <= self.rules.late_balancing_tables
        return self.rules.balance_gap_late if late else self.rules.balance_gap_early

    def results(self) -> tuple[Result, ...]:
        return self._results

    def places(self) -> dict[str, int]:
        """The places already known of busted players (their latest entry): set when
        registration closes or at the bust after it (cdc 1.10)."""
        return {pid: e.place for pid, e in self._entries.items() if e.out and e.place is not None}

    def next_deadline(self) -> float | None:
        """When :meth:`tick` should next be called (the end of the current level)."""
        return self.clock.level_ends_at()

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def rng(self) -> Rng:
        """The director's random source (its state is saved with the director's)."""
        return self._rng

    def table_hand(self, table_id: int) -> TableHand:
        """A table's hand as the director knows it (``ReportError``: no such table)."""
        t = self._table(table_id)
        return TableHand(
            hand_no=t.hand_no, positions=t.ref, max_seats=t.max_seats, gone=frozenset(t.gone)
        )

    def busy(self, table_id: int) -> bool:
        """True while the table plays a hand."""
        return self._table(table_id).status is _Status.DEALT

    # ================================================================== levels

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

    # ================================================================== colour-ups

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

    # ==================================================== seats with room (balancing, late entries)

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

    def _arrival_seat(self, t: _Table, rule: SeatRule, *, late: bool = False) -> tuple[int, bool]:
        """The seat, and whether the arrival waits for the button to pass: when the only free
        seat is the next button or small blind (ligue art. 3: a moved player never takes the
        button and waits rather than be the small blind; tda 10-A: never the small blind). A
        ``late`` entrant (registered after the start) follows the profile's newcomer rule
        (:meth:`_waits_for_button`)."""
        occupied = set(t.seats) | set(t.reserved)
        seat = choose_seat(
            rule, t.ref, occupied, t.max_seats, self._rng, missing_blind=self.missing_blind
        )
        if seat is None:
            raise ReportError(f"table {t.id} is full")  # callers check room first
        return seat, self._waits_for_button(t, seat, late=late)

    def _waits_for_button(self, t: _Table, seat: int, *, late: bool = False) -> bool:
        """Whether an arrival at ``seat`` is held until the button passes him.

        A late entrant follows the profile's newcomer rule (``Newcomer``; the table applies
        the same rule at each deal, server.engine.positions.newcomer_waits, and so does the
        session replay's ``sit``): under cdc 2.3 and tda 7, with a dead button, he plays at
        once on the button or at the small blind that was the big blind's seat (« peut jouer
        immédiatement au bouton »; « S'il entre en petite blinde, il ne peut jouer que s'il
        occupe la place de l'ancienne grosse blinde »), only the seats strictly between the
        button and the big blind waiting, which the table holds itself. Under ligue art. 3 he
        never takes the button nor the small blind (« il ne peut pas prendre la position de
        Brasseur »); under fpc 17-3/17-4 the next button depends on who busts, the worst
        outcome holds him.

        A moved player (balancing, a table broken) is held on the next button or small blind
        under every profile: « il est positionné afin de payer la grosse blinde le plus vite
        possible » (cdc 2.3, statut du joueur déplacé), tda 10-A, ligue art. 3."""
        occupied = set(t.seats) | set(t.reserved)
        rule = self.missing_blind
        if (
            late
            and rule is MissingBlind.DEAD_BUTTON
            and load_profile(self.config.profile).newcomer is Newcomer.BLINDS_ADVANCE
        ):
            return False
        return (
            classify(seat, t.ref, occupied, t.max_seats, missing_blind=rule)
            >= SeatClass.SMALL_BLIND
        )

    def _next_big_blind(self, t: _Table) -> int:
        players = sorted(t.seats)
        if len(players) < 2:
            return players[0]
        if t.ref is None:
            button = t.button if t.button in t.seats else players[0]
            assert button is not None
            return first_positions(button, players, t.max_seats).big_blind
        return next_positions(
            t.ref, players, t.max_seats, missing_blind=self.missing_blind
        ).big_blind

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
