"""The director's eliminations: players ranked when they bust (cdc 1.10, 2.7), places,
prizes and points once late registration closes, bounties (fpc part B), no-shows (fpc 2-2) and
the winner.

Layers of :class:`~server.tournament.director.Director` (pure policy, one module each):
``floor`` (its state and bookkeeping) <- ``placing`` (eliminations, places, prizes) and
``balancing`` (moves, table breaking, the final table draw) <- ``dealing`` (the clock, breaks,
hand-for-hand, which table deals when) <- ``director`` (the public API). The ranking of
players busted together, the prize pool and a bounty's shares are pure functions of explicit
inputs (:func:`rank_busts`, :func:`prize_pool`, :func:`bounty_shares`).
"""

from __future__ import annotations

from .config import PlusBlind, TournamentConfig
from .decisions import (
    BountyAwarded,
    Bust,
    Decision,
    Eliminated,
    Finished,
    RegistrationClosed,
    RemovalReason,
    RemovePlayer,
    Result,
)
from .floor import Floor, _Block, _Entry, _Status, _Table
from .lifecycle import PhaseEvent
from .prizes import payout_amounts, points_by_place, share_block
from .rules import BubbleRule

__all__ = ["Placing", "bounty_shares", "prize_pool", "rank_busts"]


def prize_pool(cfg: TournamentConfig, *, first_entries: int, reentries: int, rebuys: int) -> int:
    """The prize pool: the configuration's, else the buy-ins of the first entries, the
    re-entries and the rebuys (a re-entry at its own price, else a buy-in)."""
    return cfg.prize_pool or (
        cfg.buy_in * first_entries
        + (cfg.reentry.price if cfg.reentry and cfg.reentry.price else cfg.buy_in) * reentries
        + (cfg.rebuy.price if cfg.rebuy else 0) * rebuys
    )


def rank_busts(items: list[tuple[int, Bust]], *, by_start_stack: bool) -> list[list[str]]:
    """Players busted together (table, bust) in blocks of tied players, worst first.

    At one table, or ``by_start_stack`` (at the bubble under fpc 4-4 / casino): the bigger
    start-of-hand stack ranks better, equal stacks tie (cdc 1.10, fpc 4-4, casino). Several
    tables (one hand-for-hand hand) otherwise: tied (cdc 1.10, 2.7): the best of each table
    tie, then the second of each table, and so on."""
    tables = {tid for tid, _ in items}
    if len(tables) <= 1 or by_start_stack:
        stacks = sorted({b.start_stack for _, b in items})
        return [[b.player_id for _, b in items if b.start_stack == s] for s in stacks]
    rank: dict[str, int] = {}
    for tid in tables:
        here = [b for t, b in items if t == tid]
        distinct = sorted({b.start_stack for b in here}, reverse=True)
        for b in here:
            rank[b.player_id] = distinct.index(b.start_stack)
    levels = sorted(set(rank.values()), reverse=True)
    return [[p for p in rank if rank[p] == r] for r in levels]


def bounty_shares(chips: int, points: int, winners: int, unit: int) -> list[tuple[int, int]]:
    """A bounty's chips and points shared by ``winners`` split-pot eliminators, best first:
    each the same whole number of ``unit`` chips, the first one the odd chips and points."""
    each_chips = chips // winners // unit * unit
    each_points = points // winners
    return [
        (
            each_chips + (chips - each_chips * winners if i == 0 else 0),
            each_points + (points - each_points * winners if i == 0 else 0),
        )
        for i in range(winners)
    ]


class Placing(Floor):
    """Eliminations and places (a layer of the director)."""

    # ================================================================== registration close

    def _close_registration(self) -> list[Decision]:
        """End of late registration: the field is known, so are the prizes, the points and the
        places of the players busted so far (in the order they busted)."""
        self._registration_open = False
        cfg = self.config
        entries = self._entry_count
        pool = prize_pool(
            cfg,
            first_entries=self._first_entries,
            reentries=self._reentries,
            rebuys=self._rebuys,
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

    def _eliminate(self, items: list[tuple[int, Bust]], now: float) -> list[Decision]:
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
                    t = self._tables[tid]
                    t.reserved[b.seat] = e.player_id
                    wait = self.config.rebuy.wait_seconds if self.config.rebuy else 0
                    t.rebuy_until = now + wait
        return out + self._rank_and_report(blocks)

    def _rank_and_report(self, blocks: list[_Block]) -> list[Decision]:
        if not self._registration_open:
            return self._assign_places(blocks)
        self._pending.append(blocks)
        return [self._eliminated(e) for block in reversed(blocks) for e in block]

    def _rank(self, items: list[tuple[int, Bust]]) -> list[_Block]:
        """Blocks of tied players, worst first (:func:`rank_busts`; across tables by start
        stack at the bubble when the profile says so)."""
        k = len(items)
        low = self._next_place - k + 1
        bubble = not self._registration_open and any(
            low <= boundary < self._next_place
            for boundary in (len(self._payouts), self.config.final_table_size)
        )
        by_stack = self.rules.bubble_across_tables is BubbleRule.START_STACK
        blocks = rank_busts(items, by_start_stack=bubble and by_stack)
        return [[self._entries[p] for p in block] for block in blocks]

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
            shares = bounty_shares(chips, spec.points, len(winners), unit)
            out: list[Decision] = []
            for w, (c, p) in zip(winners, shares, strict=True):
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

    # ================================================================== the winner

    def _finish_at_stop(self) -> list[Decision]:
        """The hard stop, no hand in play (fpc part C: « Si les Sit'n Go ne sont pas terminés
        à 23h45, le classement sera défini par le montant des stacks des joueurs encore en
        jeu »): the players still in are placed by their chips, equal stacks sharing their
        places and prizes (cdc 1.10's tie), after those already out, who keep theirs."""
        out: list[Decision] = []
        if self._registration_open:
            out += self._close_registration()
        alive = sorted(
            (e for e in self._all if not e.out and not e.removed), key=lambda e: -e.stack
        )
        blocks: list[_Block] = []
        for e in alive:
            if blocks and blocks[-1][0].stack == e.stack:
                blocks[-1].append(e)
            else:
                blocks.append([e])
        for block in reversed(blocks):  # worst first, as busts are placed
            out += self._assign_places([block])
        for e in alive:
            e.out = True
        self._alive = 0
        return out + self._results_at_end()

    def _finish(self) -> list[Decision]:
        winner = next(e for e in self._all if not e.out)
        winner.place = 1
        winner.prize = self._payouts[0] if self._payouts else 0
        winner.points = self._points[0] if self._points else 0
        return self._results_at_end()

    def _results_at_end(self) -> list[Decision]:
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
