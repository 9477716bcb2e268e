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

This module is the public API (registration, start, the tables' reports, leaving, the console);
the rest is in layers the :class:`Director` inherits, one module each: ``floor`` (its state and
bookkeeping) <- ``placing`` (eliminations, places, prizes) and ``balancing`` (moves, table
breaking, the final table draw) <- ``dealing`` (the clock, breaks, hand-for-hand, which table
deals when).
"""

from __future__ import annotations

import math

from server.engine.positions import Positions

from .config import Window
from .dealing import Dealing
from .decisions import (
    Bust,
    Deal,
    Decision,
    HandEnded,
    MovePlayer,
    Rebought,
    RefusalReason,
    Refused,
    Registered,
    RemovalReason,
    RemovePlayer,
    ShowdownHold,
    ShowdownReveal,
    Unregistered,
    Wait,
    WaitReason,
)
from .errors import PhaseError, ReportError
from .floor import _Entry, _Status, _Table
from .lifecycle import Phase, PhaseEvent
from .seating import shuffled

__all__ = ["Director", "checked_busts"]


class Director(Dealing):
    """One tournament's director. Deterministic given ``rng`` and the ``now`` values.

    ``rng`` needs ``randrange`` and ``shuffle`` (the server passes ``secrets.SystemRandom()``,
    tests a seeded ``random.Random``). With ``track_presence``, players never reported by
    :meth:`mark_present` are removed at the end of the profile's no-show level (fpc 2-2).
    """

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

    def _busted_in(self, player_id: str, window: Window | None) -> _Entry | None:
        """The player's entry if he is busted (not removed; an announced abandon or a
        disqualification is final, cdc 1.9) and ``window`` is open now."""
        e = self._entries.get(player_id)
        if e is None or window is None or not e.out or e.removed or e.abandoned:
            return None
        return e if self._window_open(window.until_level) else None

    def may_rebuy(self, player_id: str) -> bool:
        """A :meth:`rebuy` would be accepted now: busted within the window and its maximum,
        and his table has not dealt its next hand (tda 26)."""
        window = self.config.rebuy
        e = self._busted_in(player_id, window)
        return not (
            e is None
            or window is None
            or e.table is None
            or e.seat is None
            or e.rebuys >= window.max
            or self._tables[e.table].reserved.get(e.seat) != player_id
        )

    def may_reenter(self, player_id: str) -> bool:
        """A :meth:`reenter` would be accepted now: busted (an announced abandon or a
        disqualification is final, cdc 1.9), within the window, its maximum and the entries."""
        window = self.config.reentry
        e = self._busted_in(player_id, window)
        return not (
            e is None
            or window is None
            or e.entry > window.max
            or self.phase is Phase.REGISTERING
            or self._entry_refusal(player_id) is not None
        )

    def open_to_newcomers(self) -> bool:
        """A newcomer's :meth:`register` would be accepted now (before the start, or late
        registration open, cdc 1.8), the maximum of entries not reached."""
        return self._entry_refusal("") is None

    def second_chances(self) -> dict[str, tuple[bool, bool]]:
        """Busted players who may rebuy or re-enter now: player -> (rebuy, re-enter)."""
        cfg = self.config
        if not self._registration_open or (cfg.rebuy is None and cfg.reentry is None):
            return {}
        out = {}
        for e in self._all:
            if e.out and self._entries.get(e.player_id) is e:
                chances = (self.may_rebuy(e.player_id), self.may_reenter(e.player_id))
                if any(chances):
                    out[e.player_id] = chances
        return out

    def rebuy(self, player_id: str, now: float) -> list[Decision]:
        """A busted player rebuys before his table's next hand and keeps his seat (tda 26)."""
        out = self._tick(now)
        e = self._entries.get(player_id)
        window = self.config.rebuy
        refused = not self.may_rebuy(player_id)
        if refused or e is None or e.table is None or e.seat is None or window is None:
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
            or e.abandoned
            or e.entry > window.max
            or not self._window_open(window.until_level)
            or self.phase is Phase.REGISTERING
        ):
            return [Refused(player_id=player_id, reason=RefusalReason.NOT_ALLOWED), *out]
        refusal = self._entry_refusal(player_id)
        if refusal is not None:
            return [refusal, *out]  # registration closed or full: the precise reason
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
        seat, hold = self._arrival_seat(t, self.rules.late_seat, late=True)
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
        if t.status is not _Status.WAITING:
            self._set_status(t, _Status.WAITING)
            t.wait = None
        out += self._settle(now, source=t)
        if t.status is _Status.WAITING and not any(
            isinstance(d, Deal) and d.table_id == t.id for d in out
        ):
            if t.wait is WaitReason.REBUY:
                reason = WaitReason.REBUY
            else:
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
        if report.table_id is None:
            raise ReportError(f"a report of hand {report.hand_no} without its table")
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
            out += self._eliminate([(t.id, b) for b in busts], now)
        out += self._race_if_due(t)
        return out + self._settle(now, source=t)

    def _apply_report(self, t: _Table, report: HandEnded) -> list[Bust]:
        """Check the report against the director's seats and chips, then record it."""
        busts = checked_busts(t, report)
        self._record_hand(t, report, busts)
        return busts

    def _record_hand(self, t: _Table, report: HandEnded, busts: list[Bust]) -> None:
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

    def pause(self, now: float) -> list[Decision]:
        """The director stops the tournament clock (tables go on dealing at this level)."""
        out = self._tick(now)
        self._paused = True
        out += self._clock_events(self.clock.stop(now), now)
        return out + self._settle(now)

    def stop(self, now: float) -> list[Decision]:
        """The hard stop (fpc part C: « Si les Sit'n Go ne sont pas terminés à 23h45, le
        classement sera défini par le montant des stacks des joueurs encore en jeu »): no
        hand is dealt from now; once the hands in play have ended, the players still in are
        ranked by their chips and the tournament is finished. Raises :class:`PhaseError`
        before the start or after the end."""
        if self.phase in (Phase.REGISTERING, Phase.FINISHED):
            raise PhaseError("only a tournament in play can be stopped")
        out = self._tick(now)
        self._stopping = True
        return out + self._settle(now)

    def close_registration(self, now: float) -> list[Decision]:
        """The director closes late registration now, before the end of its level (cdc 1.8:
        latecomers enter « jusqu'a la fin du deuxiéme niveau » only « si aucune disposition
        en ce sens n'est prise »; fpc 2-2): the field is known, the busted players are placed,
        and a tournament with one player left is won. Raises :class:`PhaseError` before the
        start (the director starts it instead), after the end, or once it is closed."""
        if self.phase in (Phase.REGISTERING, Phase.FINISHED) or not self._registration_open:
            raise PhaseError("late registration is not open")
        out = self._tick(now)
        if self._registration_open:  # (the tick may have closed it at its level's end)
            out += self._close_registration()
        return out + self._settle(now)

    def late_registration_left(self) -> float | None:
        """Seconds of the tournament clock until late registration closes by itself (at the
        end of level ``late_registration_until_level``, cdc 1.8, fpc 2-2), counted from the
        clock's last reading (frozen while it is stopped); None when it is not open after the
        start, or the level never ends."""
        if self.phase in (Phase.REGISTERING, Phase.FINISHED) or not self._registration_open:
            return None
        clock = self.clock
        left = clock.remaining
        for index in range(clock.index + 1, self._late_until_index + 1):
            left += self.config.levels[index].minutes * 60.0
        return None if math.isinf(left) else max(0.0, left)

    @property
    def late_registration_level(self) -> int:
        """The level at whose end late registration closes (the profile's, or the TOML's)."""
        return self.rules.late_registration_until_level

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


def checked_busts(t: _Table, report: HandEnded) -> list[Bust]:
    """The busts of a table's hand report, checked against the director's view of the table
    ``t`` (its seats, the players who arrived or left during the hand, the chips dealt in).
    Raises :class:`ReportError` when the report contradicts it: a player in another seat or
    without chips and not busted, a bad bust, a player of the table not in the report, chips
    appearing or vanishing (not checked when a player left the table during the hand)."""
    seen, after = _stacks_seen(t, report)
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
    return busts


def _stacks_seen(t: _Table, report: HandEnded) -> tuple[set[str], int]:
    """The players the report says hold chips, and those chips (arrivals' aside)."""
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
    return seen, after
