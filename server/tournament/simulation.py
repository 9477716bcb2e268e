"""A whole tournament with fake tables and a simulated clock, to test and time the director.

:class:`FakeTable` plays plausible hands without cards (blinds, antes, a random winner, now and
then an all-in between two players): chips are conserved, players bust. :class:`Simulation`
drives a :class:`~server.tournament.director.Director` the way a coordinator would — every
decision carried out on the fake tables by the live host's interpreter
(:func:`~server.tournament.interpret.interpret`: the simulation is a
:class:`~server.tournament.interpret.TableOps`), events ordered by simulated time — and, with
``check``, verifies the invariants the rulebooks ask for at every step (see :class:`Trace`).
Pure: the randomness is a seeded ``random.Random`` and time is a number.
"""

from __future__ import annotations

import heapq
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from server.engine.positions import (
    MissingBlind,
    Positions,
    first_positions,
    next_positions,
    waits_as_newcomer,
)
from server.engine.setup import AnteFormat

from .config import TournamentConfig
from .decisions import (
    Bust,
    ChipRace,
    Deal,
    Decision,
    Eliminated,
    Finished,
    HandEnded,
    HandForHand,
    Rebought,
    Refused,
    Registered,
    RegistrationClosed,
    RemovalReason,
    TableAssignment,
    WaitReason,
)
from .director import Director
from .interpret import FINAL_TABLE, REBUY, TABLE_BROKEN, Announcement, Move, interpret
from .lifecycle import Phase

__all__ = ["FakeTable", "Simulation", "Trace"]


class SimulationError(AssertionError):
    """An invariant broke (the message says which)."""


@dataclass(slots=True, eq=False)
class FakeTable:
    table_id: int
    max_seats: int
    seats: dict[int, str] = field(default_factory=dict)
    waiting_new: set[str] = field(default_factory=set)
    """Newcomers not dealt in yet (they wait while between the button and the BB, tda 7)."""
    hold_button: set[str] = field(default_factory=set)
    """Arrivals told ``waits_for_button``: not dealt in until the button has passed them."""
    positions: Positions | None = None
    button: int | None = None
    hand_no: int = 0
    in_hand: bool = False
    closed: bool = False
    pending: HandEnded | None = None
    hfh: bool = False
    dealt_at: float = 0.0
    missing_blind: MissingBlind = MissingBlind.DEAD_BUTTON
    """The profile's rule when a blind's player is gone (cdc 4.3 / fpc 17-3, 17-4)."""

    def dealt_in(self, pos: Positions) -> list[int]:
        """Seats dealt in: a newcomer waits strictly between the button and the big blind
        (tda 7, as the table actor does); a ``waits_for_button`` arrival also on the button
        and the small blind."""
        out = []
        for s in sorted(self.seats):
            p = self.seats[s]
            if p in self.hold_button and _in_arc(s, pos.button, pos.big_blind, self.max_seats):
                continue
            if (
                p in self.waiting_new
                and self.positions is not None
                and waits_as_newcomer(s, pos, self.max_seats)
            ):
                continue
            out.append(s)
        return out

    def begin(self, deal: Deal) -> list[int]:
        """Check the director's positions against the profile's rule, record them, and
        return the seats dealt in (newcomers and button-waiters cleared once dealt)."""
        seats = self.seats
        pos = deal.positions
        if self.positions is None:
            assert self.button is None or pos.button == self.button or self.button not in seats
            expected = first_positions(pos.button, sorted(seats), self.max_seats)
        else:
            expected = next_positions(
                self.positions, sorted(seats), self.max_seats, missing_blind=self.missing_blind
            )
        if expected != pos:
            raise SimulationError(f"table {self.table_id}: positions {pos} != {expected}")
        dealt = self.dealt_in(pos)
        for s in dealt:
            self.waiting_new.discard(seats[s])
            self.hold_button.discard(seats[s])
        self.positions = pos
        self.hand_no = deal.hand_no
        return dealt

    def play(
        self, deal: Deal, stacks: dict[str, int], rng: random.Random
    ) -> tuple[HandEnded, bool]:
        """Play the dealt hand at once; returns the report and whether an all-in was called."""
        seats = self.seats
        dealt = self.begin(deal)
        start = {seats[s]: stacks[seats[s]] for s in dealt}
        put = self._forced_bets(deal, dealt, stacks)
        winner, allin = _showdown([seats[s] for s in dealt], put, stacks, deal.blinds.bb, rng)
        pot = sum(put.values())
        for p, n in put.items():
            stacks[p] -= n
        stacks[winner] += pot
        busts = tuple(
            Bust(player_id=p, seat=s, start_stack=start[p], eliminated_by=(winner,))
            for s, p in sorted(seats.items())
            if p in start and stacks[p] == 0
        )
        report = HandEnded(
            table_id=self.table_id,
            hand_no=deal.hand_no,
            positions=deal.positions,
            stacks={s: (p, stacks[p]) for s, p in seats.items() if stacks[p] > 0},
            busts=busts,
        )
        return report, allin and deal.hand_for_hand

    def _forced_bets(self, deal: Deal, dealt: list[int], stacks: dict[str, int]) -> Counter[str]:
        """Antes and blinds of the dealt seats (a short stack puts in what he has)."""
        seats = self.seats
        pos = deal.positions
        put: Counter[str] = Counter()

        def post(pid: str, amount: int) -> None:
            paid = min(amount, stacks[pid] - put[pid])
            put[pid] += paid

        b = deal.blinds
        bb = seats.get(pos.big_blind) if pos.big_blind in dealt else None
        sb = (
            seats.get(pos.sb_slot)
            if pos.small_blind and pos.sb_slot in dealt and pos.sb_slot != pos.big_blind
            else None
        )
        if b.ante and b.ante_format is AnteFormat.CLASSIC:
            for s in dealt:
                post(seats[s], b.ante)
        elif b.ante and b.ante_format is AnteFormat.BIG_BLIND and bb:
            post(bb, b.ante)
        elif b.ante and b.ante_format is AnteFormat.BUTTON and pos.button in dealt:
            post(seats[pos.button], b.ante)
        if sb:
            post(sb, b.sb)
        if bb:
            post(bb, b.bb)
        return put


def _showdown(
    players: list[str], put: Counter[str], stacks: dict[str, int], bb: int, rng: random.Random
) -> tuple[str, bool]:
    """The rest of a hand without cards: now and then an all-in between two players, else a
    bet between two, else the blinds go to one of those who put chips in. Returns the winner
    and whether it was an all-in (``put`` completed)."""
    allin = False
    roll = rng.random()
    if roll < 0.22 and len(players) >= 2:
        x, y = rng.sample(players, 2)
        amount = min(stacks[x], stacks[y])
        put[x] = max(put[x], amount)
        put[y] = max(put[y], amount)
        contenders = [x, y]
        allin = True
    elif roll < 0.6 and len(players) >= 2:
        x, y = rng.sample(players, 2)
        amount = min(stacks[x], stacks[y], bb * rng.randint(2, 8))
        put[x] = max(put[x], amount)
        put[y] = max(put[y], amount)
        contenders = [x, y]
    else:
        contenders = [p for p in players if put[p]] or players
    return rng.choice(contenders), allin


def _in_arc(seat: int, start: int, stop: int, max_seats: int) -> bool:
    """``seat`` in the clockwise arc from ``start`` (included) to ``stop`` (excluded)."""
    return (seat - start) % max_seats < (stop - start) % max_seats


@dataclass(slots=True)
class Trace:
    """What the simulation observed (checked on the fly when ``check`` is on)."""

    hands: int = 0
    reports: int = 0
    moves: int = 0
    breaks: int = 0
    chip_races: int = 0
    bounties: int = 0
    hand_for_hand_hands: int = 0
    hand_for_hand_on: list[HandForHand] = field(default_factory=list)
    holds: int = 0
    max_gap_at_deal: int = 0
    gap_violations: int = 0
    moved_skips: int = 0
    """Moved players who were button or small blind at their new table before a big blind."""
    break_skips: int = 0
    eliminated: list[Eliminated] = field(default_factory=list)
    finished: Finished | None = None
    closed: RegistrationClosed | None = None
    level_at_end: int = 0
    decision_calls: int = 0


class Simulation:
    """A tournament of ``players`` fake players run to a winner."""

    def __init__(
        self,
        config: TournamentConfig,
        players: int,
        *,
        seed: int = 1,
        check: bool = True,
        hand_seconds: tuple[float, float] = (60.0, 150.0),
    ) -> None:
        self.config = config
        self.rng = random.Random(seed)
        self.director = Director(config, random.Random(seed + 1), now=0.0)
        self.check = check
        self.hand_seconds = hand_seconds
        self.tables: dict[int, FakeTable] = {}
        self.stacks: dict[str, int] = {}
        self.trace = Trace()
        self.expected_chips = 0
        self.now = 0.0
        self._events: list[tuple[float, int, str, int]] = []
        self._seq = 0
        self._tick_at: float | None = None
        self._pending_bb: dict[str, tuple[int, str]] = {}
        """Player -> (table, how he arrived), until his first blind or button there."""
        self.players = [f"p{i:05d}" for i in range(players)]

    # ------------------------------------------------------------------ driving

    def _push(self, at: float, kind: str, table_id: int = 0) -> None:
        self._seq += 1
        heapq.heappush(self._events, (at, self._seq, kind, table_id))

    def run(self, max_events: int = 10_000_000) -> Trace:
        d = self.director
        for pid in self.players:
            self.apply(d.register(pid, pid.upper(), 0.0))
        self.apply(d.start(0.0))
        events = 0
        while self.trace.finished is None:
            if not self._events:
                raise SimulationError(f"deadlock at {self.now}: {d.phase}, {d.table_counts()}")
            events += 1
            if events > max_events:
                raise SimulationError("too many events")
            at, _, kind, tid = heapq.heappop(self._events)
            self.now = at
            self._event(kind, tid, at)
            self.trace.decision_calls += 1
            nxt = d.next_deadline()
            if nxt is not None and nxt != self._tick_at:
                self._tick_at = nxt
                self._push(nxt, "tick")
        self.trace.level_at_end = d.level.index
        return self.trace

    def _event(self, kind: str, tid: int, at: float) -> None:
        d = self.director
        if kind == "tick":
            self.apply(d.tick(at))
        elif kind == "ready":
            t = self.tables[tid]
            if not (t.closed or t.in_hand):
                self.apply(d.ready(tid, at))
        elif kind == "end":
            self._end(self.tables[tid])
        elif kind == "showdown":
            self.apply(d.allin_showdown(tid, at))

    def _end(self, t: FakeTable) -> None:
        report = t.pending
        assert report is not None
        t.pending = None
        t.in_hand = False
        for b in report.busts:
            if t.seats.get(b.seat) == b.player_id:
                del t.seats[b.seat]
        self.trace.reports += 1
        self.apply(self.director.hand_ended(report, self.now))
        if self.check:
            self._check_chips()
        if not t.closed:
            self._push(self.now + 3.0, "ready", t.table_id)

    # ------------------------------------------------------------------ decisions

    def apply(self, decisions: list[Decision]) -> None:
        for dec in decisions:
            self._apply(dec)

    def _apply(self, dec: Decision) -> None:
        interpret(dec, self)

    # TableOps (server.tournament.interpret) on the simulated tables

    def registered(self, dec: Registered) -> None:
        self.stacks[dec.player_id] = dec.stack
        self.expected_chips += dec.stack

    def refused(self, dec: Refused) -> None:
        pass

    def rebought(self, dec: Rebought) -> None:
        self.stacks[dec.player_id] = dec.chips
        self.expected_chips += dec.chips

    def eliminated(self, dec: Eliminated) -> None:
        self.trace.eliminated.append(dec)

    def finished(self, dec: Finished) -> None:
        self.trace.finished = dec

    def announce(self, dec: Announcement) -> None:
        if isinstance(dec, HandForHand) and dec.on:
            self.trace.hand_for_hand_on.append(dec)
        elif isinstance(dec, RegistrationClosed):
            self.trace.closed = dec

    def console_refused(self, op: str, text: str) -> None:
        pass

    def spectators(self, commentary: bool) -> None:
        pass  # no rail in a simulation

    def name(self, player: str) -> str:
        return player

    def open_table(self, table: TableAssignment, reason: str, came_from: Mapping[str, int]) -> None:
        if reason == FINAL_TABLE:
            self._pending_bb.clear()
        self._open(table)

    def close_table(self, table: int, reason: str) -> None:
        t = self.tables[table]
        if self.check and t.in_hand:
            raise SimulationError(f"table {table} closed during a hand ({reason})")
        t.closed = True
        if reason == TABLE_BROKEN:
            self.trace.breaks += 1
            if t.seats:
                raise SimulationError(f"players left at broken table {t.seats}")
        t.seats.clear()

    def seat(
        self, table: int, seat: int, player: str, stack: int, waits_for_button: bool, reason: str
    ) -> None:
        t = self.tables.get(table)
        if t is None:
            return  # a late entry's new table: opened next
        t.seats[seat] = player
        if reason != REBUY:
            t.waiting_new.add(player)
            if waits_for_button:
                t.hold_button.add(player)

    def move(self, move: Move, reason: str) -> None:
        src, dst = self.tables[move.from_table], self.tables[move.to_table]
        broken = reason == TABLE_BROKEN
        if self.check and src.in_hand:
            raise SimulationError(f"move out of table {src.table_id} during a hand ({reason})")
        if src.seats.pop(move.from_seat, None) != move.player_id or move.to_seat in dst.seats:
            raise SimulationError(f"bad move {move}")
        dst.seats[move.to_seat] = move.player_id
        dst.waiting_new.add(move.player_id)
        if move.waits_for_button:
            dst.hold_button.add(move.player_id)
        self._pending_bb[move.player_id] = (dst.table_id, "break" if broken else "move")
        if not broken:
            self.trace.moves += 1

    def unseat(self, table: int, seat: int, player: str, reason: str) -> None:
        self.tables[table].seats.pop(seat, None)

    def remove(self, table: int, seat: int, player: str, reason: RemovalReason) -> None:
        self.tables[table].seats.pop(seat, None)
        self.expected_chips -= self.stacks.get(player, 0)
        self.stacks[player] = 0

    def deal(self, deal: Deal) -> None:
        self._deal(deal)

    def wait(self, table: int, reason: WaitReason) -> None:
        pass

    def hold(self, table: int) -> None:
        self.trace.holds += 1

    def reveal(self, table: int) -> None:
        self._push(self.now + 1.0, "end", table)

    def colour_up(self, race: ChipRace) -> None:
        self.trace.chip_races += 1
        for line in race.lines:
            if self.stacks[line.player_id] != line.stack_before:
                raise SimulationError(f"chip race on a stale stack {line}")
            self.expected_chips += line.stack_after - line.stack_before
            self.stacks[line.player_id] = line.stack_after

    def set_stack(self, table: int, seat: int, player: str, stack: int, note: str) -> None:
        self.expected_chips += stack - self.stacks.get(player, 0)
        self.stacks[player] = stack

    def add_chips(self, player: str, chips: int, note: str) -> None:
        self.trace.bounties += 1
        self.stacks[player] += chips
        self.expected_chips += chips

    def note(self, table: int, text: str) -> None:
        pass

    def penalty(self, table: int, player: str, hands: int) -> None:
        pass

    def _open(self, a: TableAssignment) -> None:
        t = FakeTable(
            table_id=a.table_id,
            max_seats=a.max_seats,
            seats=dict(a.seats),
            missing_blind=self.director.missing_blind,
        )
        t.button = a.button
        self.tables[a.table_id] = t
        for pid, stack in a.stacks.items():
            if pid not in self.stacks:
                self.stacks[pid] = stack
                self.expected_chips += stack
        self._push(self.now + 1.0, "ready", a.table_id)

    def _deal(self, deal: Deal) -> None:
        t = self.tables[deal.table_id]
        if t.in_hand or t.closed:
            raise SimulationError(f"deal at table {t.table_id} in hand or closed")
        if dict(t.seats) != dict(deal.seats):
            raise SimulationError(f"table {t.table_id}: seats {t.seats} != {deal.seats}")
        tr = self.trace
        if self.check:
            self._check_deal(t, deal)
        report, hold = t.play(deal, self.stacks, self.rng)
        t.in_hand = True
        t.pending = report
        t.hfh = deal.hand_for_hand
        t.dealt_at = self.now
        tr.hands += 1
        tr.hand_for_hand_hands += deal.hand_for_hand
        low, high = self.hand_seconds
        duration = self.rng.uniform(low, high)
        if hold:
            self._push(self.now + duration / 2, "showdown", t.table_id)
        else:
            self._push(self.now + duration, "end", t.table_id)

    # ------------------------------------------------------------------ checks

    def _check_chips(self) -> None:
        total = sum(self.stacks.values())
        if total != self.expected_chips:
            raise SimulationError(f"chips: {total} in play, {self.expected_chips} expected")

    def _check_deal(self, t: FakeTable, deal: Deal) -> None:
        tr = self.trace
        d = self.director
        counts = [len(x.seats) for x in self.tables.values() if not x.closed]
        gap = max(counts) - len(t.seats)
        tr.max_gap_at_deal = max(tr.max_gap_at_deal, gap)
        if len(counts) > 1 and gap >= d.gap_tolerance():
            tr.gap_violations += 1  # cdc 2.3: a table that short must not deal
        if deal.blinds != d.level.blinds:
            raise SimulationError("a hand dealt on another level than the clock's")
        self._check_barrier(t, deal)
        self._check_big_blinds(t, deal)

    def _check_barrier(self, t: FakeTable, deal: Deal) -> None:
        """cdc 2.7: hand-for-hand, every table deals together."""
        if deal.hand_for_hand:
            others = [
                x.table_id
                for x in self.tables.values()
                if x.in_hand and x is not t and not (x.hfh and x.dealt_at == self.now)
            ]
            if others:
                raise SimulationError(f"hand-for-hand deal while {others} still play")
        if self.director.phase is Phase.HAND_FOR_HAND and not deal.hand_for_hand:
            raise SimulationError("a table dealt alone during hand-for-hand")

    def _check_big_blinds(self, t: FakeTable, deal: Deal) -> None:
        """cdc 2.3: a moved player pays the big blind before he is button or small blind."""
        tr = self.trace
        pos = deal.positions
        for seat in t.dealt_in(pos):
            pid = t.seats[seat]
            pending = self._pending_bb.get(pid)
            if pending is None or pending[0] != t.table_id:
                continue
            if seat == pos.big_blind:
                del self._pending_bb[pid]
            elif seat == pos.button or (seat == pos.sb_slot and pos.small_blind):
                del self._pending_bb[pid]
                if pending[1] == "move":
                    tr.moved_skips += 1
                else:
                    tr.break_skips += 1
