"""When tables deal: the tournament clock and its breaks, hand-for-hand (cdc 2.7), and which
waiting table may deal now (short tables, cdc 2.3; the final table draw).

Layers of :class:`~server.tournament.director.Director` (pure policy, one module each):
``floor`` (its state and bookkeeping) <- ``placing`` (eliminations, places, prizes) and
``balancing`` (moves, table breaking, the final table draw) <- ``dealing`` (the clock, breaks,
hand-for-hand, which table deals when) <- ``director`` (the public API). Whether
hand-for-hand is due and why a table may not deal are pure functions of explicit inputs
(:func:`hand_for_hand_wanted`, :func:`wait_reason`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

from server.engine.positions import first_positions, next_positions

from .balancing import Balancing
from .decisions import Break, Deal, Decision, HandForHand, ShowdownReveal, WaitReason
from .floor import _Status, _Table
from .lifecycle import Phase, PhaseEvent
from .placing import Placing
from .rules import HandForHandTrigger

__all__ = ["Dealing", "hand_for_hand_wanted", "wait_reason"]


def hand_for_hand_wanted(
    triggers: Collection[HandForHandTrigger],
    *,
    tables: int,
    registration_open: bool,
    alive: int,
    paid: int,
    final_table_size: int,
) -> HandForHandTrigger | None:
    """cdc 2.7: hand-for-hand one elimination from the money or from the final table (the
    profile's ``triggers``), with ``tables`` open (two at least) and the field known (late
    registration closed, ``paid`` places); None: not now."""
    if tables < 2 or registration_open:
        return None
    if HandForHandTrigger.MONEY in triggers and paid and alive == paid + 1:
        return HandForHandTrigger.MONEY
    if HandForHandTrigger.FINAL_TABLE in triggers and alive == final_table_size + 1:
        return HandForHandTrigger.FINAL_TABLE
    return None


def wait_reason(
    phase: Phase,
    *,
    stopping: bool,
    final_pending: bool,
    players: int,
    need: int,
    remaining: int,
    short: Callable[[], bool],
    barrier: bool,
) -> WaitReason | None:
    """Why a table between hands may not deal now (None: it may), first reason first: the
    tournament is over, stopped (the hard stop), on a break, or drawing its final table;
    fewer than ``need`` of its ``players`` (cdc 2.2 asks three at a table's first hand; a
    tournament of fewer, ``remaining``, starts with all of them); ``short`` by the gap
    (cdc 2.3, tda 10-D; asked last, it counts the tables); the hand-for-hand ``barrier``
    (cdc 2.7)."""
    if phase is Phase.FINISHED:
        return WaitReason.FINISHED
    if stopping:
        return WaitReason.STOPPED
    if phase is Phase.BREAK:
        return WaitReason.BREAK
    if final_pending:
        return WaitReason.FINAL_TABLE_DRAW
    if players < min(need, max(2, remaining)):
        return WaitReason.TOO_FEW_PLAYERS  # cdc 2.2
    if short():
        return WaitReason.SHORT_TABLE  # cdc 2.3, tda 10-D
    if barrier:
        return WaitReason.HAND_FOR_HAND
    return None


class Dealing(Balancing, Placing):
    """The clock, hand-for-hand and dealing (a layer of the director)."""

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

    # ================================================================== hand-for-hand

    def _hfh_wanted(self) -> HandForHandTrigger | None:
        """cdc 2.7: one elimination from the money or from the final table (per profile)."""
        return hand_for_hand_wanted(
            self.rules.hand_for_hand,
            tables=self._open,
            registration_open=self._registration_open,
            alive=self._alive,
            paid=len(self._payouts),
            final_table_size=self.config.final_table_size,
        )

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
        out: list[Decision] = self._eliminate(items, now) if items else []
        entered = self.clock.add(self.config.hand_for_hand_minutes * 60.0)
        return out + self._clock_events(entered, now)

    def _reveal_if_all_holding(self) -> list[Decision]:
        holding = [self._tables[x] for x in self._round_tables]
        if not holding or not all(t.holding for t in holding):
            return []
        for t in holding:
            t.holding = False
        return [ShowdownReveal(table_id=t.id) for t in holding]

    # ================================================================== who deals

    def _settle(self, now: float, source: _Table | None = None) -> list[Decision]:
        """After any change: winner, final table, hand-for-hand, breaking, balancing, and
        waiting tables that may now deal."""
        out: list[Decision] = []
        if self.phase in (Phase.FINISHED, Phase.REGISTERING):
            return out
        mid_round = bool(self._round_tables)
        if self._stopping:
            # the hard stop: once no hand is in play, the players still in are ranked
            return self._finish_at_stop() if self._dealt == 0 else out
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
                out += self._form_final()
                out += self._release(now)
            return out
        if not mid_round:
            out += self._update_hfh(now)
        out += self._maybe_break()
        if source is not None:
            out += self._balance(source)
        return out + self._release(now)

    def _evaluate(self, t: _Table, *, barrier: bool = True) -> WaitReason | None:
        """Why ``t`` may not deal now (None: it may): :func:`wait_reason`."""
        first = t.initial and not t.dealt_once
        return wait_reason(
            self.phase,
            stopping=self._stopping,
            final_pending=self._final_pending,
            players=len(t.seats),
            need=self.rules.min_players_to_start if first else 2,
            remaining=self.remaining,
            short=lambda: self._short(t),
            barrier=barrier and self._hfh is not None,
        )

    def _short(self, t: _Table) -> bool:
        """cdc 2.3, tda 10-D: ``t`` is short by the gap (a table being broken never is)."""
        if self._open <= 1 or t.id in self._breaking:
            return False
        high, _ = self._extremes(with_breaking=True)
        return high - len(t.seats) >= self.gap_tolerance()

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
            if self._awaits_rebuy(t, now):
                t.wait = WaitReason.REBUY
                continue
            if t.wait is WaitReason.SHORT_TABLE and high - len(t.seats) >= tolerance:
                continue  # still short: nothing to re-evaluate
            reason = self._evaluate(t)
            if reason is None:
                out += self._deal(t)
            else:
                t.wait = reason
        return out

    def _awaits_rebuy(self, t: _Table, now: float) -> bool:
        """tda 26: the table holds its next deal while a busted player of it may still rebuy
        (``[rebuy] wait_seconds``); once the wait is over his seat is free again."""
        if t.reserved and now < t.rebuy_until:
            return True
        t.reserved.clear()
        return False

    def _deal(self, t: _Table, *, hfh: bool = False) -> list[Decision]:
        t.reserved.clear()  # tda 26: a rebuy comes before the next hand
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
            positions = next_positions(
                t.ref, players, t.max_seats, missing_blind=self.missing_blind
            )
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
