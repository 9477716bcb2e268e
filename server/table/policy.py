"""Dealing policies: what differs between a friends table and a director-driven table.

A friends table deals by itself once enough players are present, draws the first button and
moves it by the profile's rule (dead button; fpc 17-3, 17-4: the same dealer when a blind's
player left); a player leaves with his chips, and one who sits out is not dealt in at all
(no cards, no blind, no cut: his seat waits for him). A director-driven (tournament) table
deals only when its director says so, with the director's positions and blinds, deals absent
players in (a dead hand, blinds and antes posted: cdc 1.8, 1.9, tda 29, fpc 2-3) and reports
every hand's end. The table itself never asks which kind it is: it asks its policy (the
third one, cash tables, is :class:`server.table.cash.CashPolicy`).

A policy owns no state of the table: it reads and changes what :class:`DealingTable` names
(the table satisfies it; this module never imports the table).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from server.engine import Blinds, Hand, Profile
from server.engine import events as ev
from server.engine.positions import (
    Newcomer,
    Positions,
    first_positions,
    newcomer_waits,
    next_positions,
    waits_as_newcomer,
)
from server.table.commands import NextDeal
from server.table.config import TableConfig
from server.table.effects import DirectorAllIn, DirectorReady, ReportHand
from server.table.outbox import Outbox
from server.table.phases import TablePhase, Trigger
from server.table.report import Bust, HandEnded
from server.table.seats import SeatState, Timers, Watcher

__all__ = [
    "DealingPolicy",
    "DealingTable",
    "DirectedPolicy",
    "FriendsPolicy",
    "apply_next_blinds",
    "take_replay",
]


class DealingTable(Protocol):
    """What a dealing policy (and a cash table's desk, :mod:`server.table.cash`) reads and
    changes of its table: the seats, the clocks, the positions, the next deal."""

    @property
    def config(self) -> TableConfig: ...
    @property
    def profile(self) -> Profile: ...
    @property
    def table(self) -> str: ...
    @property
    def seats(self) -> dict[int, SeatState]: ...
    @property
    def watchers(self) -> dict[str, Watcher]: ...
    @property
    def timers(self) -> Timers: ...
    @property
    def out(self) -> Outbox: ...
    @property
    def phase(self) -> TablePhase: ...
    @property
    def paused(self) -> bool: ...
    @property
    def hand_no(self) -> int: ...
    @property
    def positions(self) -> Positions | None: ...
    @property
    def now(self) -> float: ...
    @property
    def internal_errors(self) -> list[str]: ...
    @property
    def requests(self) -> dict[int, Any]: ...
    @property
    def policy(self) -> DealingPolicy: ...
    @property
    def randbelow(self) -> Callable[[int], int]: ...
    @property
    def wall(self) -> Callable[[], str]: ...

    replay_positions: Positions | None
    replay_dealt_in: list[int] | None
    directive: NextDeal | None
    waiting_reason: str
    blinds: Blinds
    next_blinds: Blinds | None
    level: int

    def goto(self, trigger: Trigger) -> None: ...
    def open_hand(
        self,
        now: float,
        positions: Positions,
        dealt_in: list[int],
        hand_no: int,
        hand_for_hand: bool = False,
    ) -> None: ...
    def seat_event(self, state: SeatState, status: str) -> None: ...
    def notice(self, cid: str | None, kind: str, text: str, rule: str = "") -> None: ...
    def host_says(self, text: str) -> None: ...


def apply_next_blinds(t: DealingTable) -> None:
    """The blinds the host set apply now (between hands: the next deal uses them)."""
    blinds, t.next_blinds = t.next_blinds, None
    if blinds is None:
        return
    t.blinds = blinds
    cash = getattr(t, "cash", None)
    if cash is not None:
        cash.with_blinds(t.config.profile, blinds.sb, blinds.bb, t.config.cash or {})


def take_replay(t: DealingTable, players: list[int]) -> tuple[Positions, list[int]] | None:
    """The hand a crash cut, to be dealt again as that hand (cdc 5.4): its positions and its
    players, if every one of them can be dealt in now; else None (and forgotten): a fresh
    hand is dealt by the rules to the players there now, never a mix of the two (issue 27:
    the cut hand's positions with today's players made setups the engine refuses)."""
    positions, dealt_in = t.replay_positions, t.replay_dealt_in
    t.replay_positions = t.replay_dealt_in = None
    if positions is None or not dealt_in or len(dealt_in) < 2:
        return None
    if not set(dealt_in) <= set(players) or positions.big_blind not in dealt_in:
        return None
    return positions, sorted(dealt_in)


class DealingPolicy(Protocol):
    directed: bool

    def schedule(self, t: DealingTable, now: float) -> None:
        """The table may deal: arm the next hand's timer if the policy deals now."""

    def start(self, t: DealingTable, now: float) -> None:
        """The next hand's timer fired: open a hand, or wait."""

    def called_off(self, t: DealingTable, dealt_in: list[int]) -> bool:
        """At the cut: too few players left to deal the hand (cdc 2.2)."""

    def leaves_seat(self) -> bool:
        """Leaving the table frees the seat (friends) or only stops watching (tournament:
        the seat is the director's; an abandon is announced to him, cdc 1.9)."""

    def report(
        self, t: DealingTable, hand: Hand, stacks: dict[int, int], cancelled: bool
    ) -> HandEnded:
        """What the hand's end tells the director."""

    def after_hand(self, t: DealingTable, now: float, report: HandEnded) -> None: ...

    def all_in(self, t: DealingTable) -> None: ...

    def frees_busted(self) -> bool:
        """A player left with no chips loses his seat at the hand's end (a cash player keeps
        it until he rebuys or the book frees it)."""

    def on_left(self, t: DealingTable, state: SeatState, now: float) -> None:
        """A seated player stood up (the seat is gone already)."""


class FriendsPolicy:
    directed = False

    def schedule(self, t: DealingTable, now: float) -> None:
        if t.phase is not TablePhase.WAITING or t.timers.next_hand is not None or t.paused:
            return
        present = [s for s in t.seats.values() if s.present]
        if len(present) >= t.config.min_players:
            t.timers.next_hand = now + t.config.next_hand_seconds

    def start(self, t: DealingTable, now: float) -> None:
        if t.paused:
            return  # the host paused the table
        apply_next_blinds(t)  # the host's new blinds, from this hand
        # a friend sitting out is dealt nothing (no hole, no blind, no cut): his seat is kept
        # and he is dealt in again at the first deal after his sitin. The casino's absences
        # and missed blinds belong to the cash tables (issue 14). An unclaimed seat (restored,
        # never dealt in, nobody back) is not dealt in either
        players = sorted(
            s.seat
            for s in t.seats.values()
            if s.stack > 0 and not s.unclaimed and not s.sitting_out
        )
        present = [s for s in players if t.seats[s].present]
        if len(present) < t.config.min_players or len(players) < 2:
            if t.phase is TablePhase.BETWEEN:
                t.goto(Trigger.NOT_ENOUGH)
            return
        positions, dealt_in = self._positions(t, players, present)
        for s in t.seats.values():
            # left out of this deal: back, he waits for the button like a newcomer (tda 7)
            s.returning = s.sitting_out or (s.returning and s.seat not in dealt_in)
        t.open_hand(now, positions, dealt_in, t.hand_no + 1)

    def _positions(
        self, t: DealingTable, players: list[int], present: list[int]
    ) -> tuple[Positions, list[int]]:
        max_seats = t.config.max_seats
        rule = t.profile.missing_blind  # cdc 4.3 dead button; fpc 17-3, 17-4 same dealer
        replay = take_replay(t, players)
        if replay is not None:
            return replay  # cdc 5.4: the cancelled hand is replayed, to its own players
        if t.positions is None:
            positions = first_positions(present[t.randbelow(len(present))], players, max_seats)
        else:
            positions = next_positions(t.positions, players, max_seats, missing_blind=rule)
        dealt_in = [
            s
            for s in players
            if not (
                (t.seats[s].new or t.seats[s].returning)
                and t.positions is not None
                and waits_as_newcomer(s, positions, max_seats)
            )
        ]
        veterans = [s for s in players if not t.seats[s].new]
        if len(veterans) <= 1:
            # at most one player left who played here: the game had stopped. If newcomers
            # waited for the button it would never pass and the table would stall, and the
            # last positions mean nothing to the newcomers (the small blind slot could even
            # fall after the big blind); start afresh as at a new table, with a button drawn
            # among the players present (cdc 2.1)
            button = present[t.randbelow(len(present))]
            return first_positions(button, players, max_seats), players
        if len(dealt_in) == 2 and len(players) > 2 and t.positions is not None:
            # heads-up while a newcomer waits: the heads-up rule applies to the two dealt in
            # (cdc 4.4): the big blind advances, the other player is button and small blind
            positions = next_positions(t.positions, dealt_in, max_seats, missing_blind=rule)
        return positions, dealt_in

    def called_off(self, t: DealingTable, dealt_in: list[int]) -> bool:
        present = [s for s in dealt_in if s in t.seats and t.seats[s].present]
        return len(present) < 2

    def leaves_seat(self) -> bool:
        return True

    def report(
        self, t: DealingTable, hand: Hand, stacks: dict[int, int], cancelled: bool
    ) -> HandEnded:
        return _report(t, hand, stacks, cancelled)

    def after_hand(self, t: DealingTable, now: float, report: HandEnded) -> None:
        t.timers.next_hand = now + t.config.next_hand_seconds

    def all_in(self, t: DealingTable) -> None:
        return None

    def frees_busted(self) -> bool:
        return True

    def on_left(self, t: DealingTable, state: SeatState, now: float) -> None:
        return None


class DirectedPolicy:
    directed = True

    def schedule(self, t: DealingTable, now: float) -> None:
        # a tournament deals when the director says so, present or not (cdc 1.8: absent
        # players are dealt in and blinded); told to wait, it waits for the next deal
        if t.phase not in (TablePhase.WAITING, TablePhase.BETWEEN):
            return
        if t.waiting_reason and t.directive is None:
            t.timers.next_hand = None
            t.goto(Trigger.ASK_DIRECTOR)
        elif t.timers.next_hand is None:
            t.timers.next_hand = now + t.config.next_hand_seconds

    def start(self, t: DealingTable, now: float) -> None:
        directive = t.directive
        if directive is None:
            if t.phase is not TablePhase.AWAITING_DIRECTOR:
                t.goto(Trigger.ASK_DIRECTOR)
                t.out.effect(DirectorReady())
            return
        t.directive = None
        t.waiting_reason = ""
        players = sorted(s.seat for s in t.seats.values() if s.stack > 0)
        if len(players) < 2:
            t.internal_errors.append(f"a deal with {players}")
            return
        t.blinds = directive.blinds
        t.level = directive.level
        dealt_in = self._dealt_in(t, players, directive.positions)
        for s in dealt_in:
            t.seats[s].waits_for_button = False
        t.open_hand(now, directive.positions, dealt_in, directive.hand_no, directive.hand_for_hand)

    def _dealt_in(self, t: DealingTable, players: list[int], positions: Positions) -> list[int]:
        """A newcomer (moved or late) waits where the profile's arrival rule says
        (``Profile.newcomer``: strictly between the button and the big blind, cdc 2.3, tda 7,
        fpc 17-2; also on the button and the small blind, ligue art. 3); an arrival the
        director holds (``waits``: tda 10-A) waits as under ligue art. 3. The same rule
        whoever seats him: the tournament floor or the session replay's ``sit``."""
        max_seats = t.config.max_seats
        rule = t.profile.newcomer
        out = []
        for s in players:
            state = t.seats[s]
            if state.waits_for_button and newcomer_waits(
                Newcomer.BUTTON_PASSES, s, positions, max_seats
            ):
                continue
            if (
                state.new
                and t.positions is not None
                and newcomer_waits(rule, s, positions, max_seats)
            ):
                continue
            out.append(s)
        return out if len(out) >= 2 else players

    def called_off(self, t: DealingTable, dealt_in: list[int]) -> bool:
        return len([s for s in dealt_in if s in t.seats]) < 2

    def leaves_seat(self) -> bool:
        return False

    def report(
        self, t: DealingTable, hand: Hand, stacks: dict[int, int], cancelled: bool
    ) -> HandEnded:
        return _report(t, hand, stacks, cancelled)

    def after_hand(self, t: DealingTable, now: float, report: HandEnded) -> None:
        t.out.effect(ReportHand(report))
        self.schedule(t, now)

    def all_in(self, t: DealingTable) -> None:
        t.out.effect(DirectorAllIn())

    def frees_busted(self) -> bool:
        return True

    def on_left(self, t: DealingTable, state: SeatState, now: float) -> None:
        return None


def _report(
    t: DealingTable, hand: Hand | None, stacks: dict[int, int], cancelled: bool
) -> HandEnded:
    """The hand's end as the director reads it (busts best ranked first, cdc 1.10)."""
    assert t.positions is not None
    busts: list[Bust] = []
    if hand is not None and not cancelled:
        takers: dict[str, set[str]] = {}
        for e in hand.events:
            if isinstance(e, ev.PotAwarded):
                for p in e.eligible:
                    takers.setdefault(p, set()).update(w for w in e.winners if w != p)
            if isinstance(e, ev.HandEnded):
                for player, start in e.busted:
                    seat = int(player)
                    by = tuple(sorted(t.seats[int(w)].player for w in takers.get(player, ())))
                    busts.append(
                        Bust(
                            player_id=t.seats[seat].player,
                            seat=seat,
                            start_stack=start,
                            eliminated_by=by,
                        )
                    )
    return HandEnded(
        hand_no=t.hand_no,
        positions=t.positions,
        stacks={
            s.seat: (s.player, stacks.get(s.seat, s.stack))
            for s in t.seats.values()
            if stacks.get(s.seat, s.stack) > 0
        },
        busts=tuple(busts),
        cancelled=cancelled,
    )
