"""The director's moves between tables: balancing (cdc 2.3, tda 10), breaking tables (cdc
2.4, tda 9) and the final table draw (cdc 2.6, tda 11).

Layers of :class:`~server.tournament.director.Director` (pure policy, one module each):
``floor`` (its state and bookkeeping) <- ``placing`` (eliminations, places, prizes) and
``balancing`` (moves, table breaking, the final table draw) <- ``dealing`` (the clock, breaks,
hand-for-hand, which table deals when) <- ``director`` (the public API). The seat cards of
a broken table are pure functions of explicit inputs (:func:`seat_cards`,
:func:`draw_destination`: the tables, the profile's rules, the random source).
"""

from __future__ import annotations

from server.engine.cards import card_name
from server.engine.positions import MissingBlind

from .decisions import BreakTable, Decision, FinalTable, MovePlayer, SeatDraw
from .floor import Floor, _Status, _Table
from .lifecycle import PhaseEvent
from .rules import SeatRule
from .seating import Rng, SeatClass, choose_seat, classify, deal_cards, order_by_card, shuffled

__all__ = ["Balancing", "draw_destination", "seat_cards"]

SeatCard = tuple[int, int]
"""A seat card of a broken table's draw: (table, seat)."""


def seat_cards(
    pool: list[_Table], players: int, *, rule: SeatRule, missing_blind: MissingBlind, rng: Rng
) -> tuple[list[SeatCard], dict[SeatCard, bool]]:
    """Step 1 of a broken table's draw (tda 9 addendum): one seat card per player, spread
    over the ``pool`` of shortest tables (:func:`draw_destination`), each seat by the
    profile's ``rule`` (cdc 2.4 -> 2.3; tda 9: never between SB and BTN); the cards
    shuffled, and for each whether its arrival waits for the button."""
    taken = {t.id: set(t.seats) | set(t.reserved) for t in pool}
    counts = {t.id: len(t.seats) for t in pool}
    cards: list[SeatCard] = []
    hold: dict[SeatCard, bool] = {}
    for _ in range(players):
        d = draw_destination(pool, taken, counts, missing_blind=missing_blind, rng=rng)
        seat = choose_seat(rule, d.ref, taken[d.id], d.max_seats, rng, missing_blind=missing_blind)
        assert seat is not None
        hold[(d.id, seat)] = (
            classify(seat, d.ref, taken[d.id], d.max_seats, missing_blind=missing_blind)
            >= SeatClass.SMALL_BLIND
        )
        taken[d.id].add(seat)
        counts[d.id] += 1
        cards.append((d.id, seat))
    return shuffled(cards, rng), hold


def draw_destination(
    pool: list[_Table],
    taken: dict[int, set[int]],
    counts: dict[int, int],
    *,
    missing_blind: MissingBlind,
    rng: Rng,
) -> _Table:
    """The table for the next seat card: the fewest players first (random among equals),
    preferring a table with a seat where the arrival is dealt in without skipping the big
    blind (or waits for the button, tda 7) over one whose only free seat is the small blind
    or the button (cdc 2.3). ``taken``: each table's occupied seats, ``counts``: its
    players, the cards drawn so far included."""
    room = [t for t in pool if len(taken[t.id]) < t.max_seats]
    fewest = min(counts[t.id] for t in room)

    def good(t: _Table) -> bool:
        return any(
            classify(s, t.ref, taken[t.id], t.max_seats, missing_blind=missing_blind)
            <= SeatClass.WAITS
            for s in range(1, t.max_seats + 1)
            if s not in taken[t.id]
        )

    ties = [t for t in room if counts[t.id] == fewest]
    better = [t for t in ties if good(t)]
    if not better:
        slack = [t for t in room if counts[t.id] == fewest + 1 and good(t)]
        better = slack or ties
    return better[rng.randrange(len(better))]


class Balancing(Floor):
    """Moves, broken tables and the final table (a layer of the director)."""

    # ================================================================== balancing

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

    # ================================================================== breaking

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
        # step 1 (tda 9 addendum): the seat cards, one per player, over the shortest tables
        cards, hold = seat_cards(
            self._draw_pool(2 * len(players)),
            len(players),
            rule=self.rules.break_seat,
            missing_blind=self.missing_blind,
            rng=self._rng,
        )
        # step 2: one playing card per player; the highest takes the first seat card
        pids = [p for _, p in players]
        dealt = deal_cards(len(pids), self._rng)
        card_of = dict(zip(pids, dealt, strict=True))
        order = order_by_card(pids, dealt, self._rng)
        from_seat = {p: s for s, p in players}
        draws = []
        for pid, (tid, seat) in zip(order, cards, strict=True):
            d = self._tables[tid]
            self._place(d, seat, pid)
            if d.status is _Status.DEALT:
                d.arrivals.add(pid)
            draws.append(
                SeatDraw(
                    player_id=pid,
                    card=card_name(card_of[pid]),
                    from_table=b.id,
                    from_seat=from_seat[pid],
                    to_table=tid,
                    to_seat=seat,
                    stack=self._entries[pid].stack,
                    waits_for_button=hold[(tid, seat)],
                )
            )
        out.append(BreakTable(table_id=b.id, seat_cards=tuple(cards), draws=tuple(draws)))
        return out

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

    # ================================================================== final table

    def _form_final(self) -> list[Decision]:
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
                    card=card_name(card_of[pid]),
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
        return out
