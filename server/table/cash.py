"""A cash table (casino and fpc cash sections): its dealing policy and its desk.

The third :class:`~server.table.policy.DealingPolicy` beside friends and director-driven
tables. It deals by itself like a friends table, and before every deal applies the book's
cash rules (pure, :mod:`server.cash`): who is dealt in (absences over rounds of blinds,
stacks under the big blind), where the button and blinds go (casino: no dead button), who
posts a seat fee or owes missed blinds, and which seats are freed for the waiting list. The
desk (:mod:`server.table.cash_desk`: buy-ins, rebuys, the waiting list) moves chips to and
from the table through the :class:`~server.cash.CashBook`, whose ledger balances to the chip
after every hand and is saved with the stacks in every snapshot.

:class:`CashState` is the desk's own state (the table holds it as ``cash``); the functions
here take the table as a :class:`~server.table.policy.DealingTable`, what they need of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from protocol.errors import ErrorCode, ProtocolError
from server.cash import (
    Arrival,
    Away,
    Capital,
    CashBook,
    CashRules,
    Deal,
    Dues,
    Entry,
    LedgerEntry,
    Move,
    WaitingList,
    arrival_dues,
    big_blind_came,
    cash_rules,
    deal,
    small_blind_came,
)
from server.cash.moves import waits_for_the_button
from server.cash.positions import moving_positions
from server.engine import Game, Hand, HandSetup, Structure
from server.engine import events as ev
from server.engine.positions import Positions, first_positions
from server.engine.rake import Rake
from server.table.commands import AskChange
from server.table.effects import Transfer
from server.table.phases import TablePhase, Trigger
from server.table.policy import DealingTable, FriendsPolicy, apply_next_blinds, take_replay
from server.table.report import HandEnded
from server.table.seats import SeatState

__all__ = [
    "CashPolicy",
    "CashState",
    "cash_of",
    "game_terms",
    "hand_terms",
    "offer",
    "option_terms",
]

MISSED_MARKS = ("sb", "bb")
"""The « miss blinds » buttons an absent player gets when his blinds pass him (casino)."""


@dataclass(slots=True)
class CashState:
    """What a cash table knows besides its seats: the book, the waiting list, absences."""

    rules: CashRules
    book: CashBook
    waiting: WaitingList = field(default_factory=WaitingList)
    away: dict[int, Away] = field(default_factory=dict)
    """Absent players' counts, by seat (server.cash.absence)."""
    owed: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """Missed-blind marks still owed, by seat."""
    arrivals: dict[int, Arrival] = field(default_factory=dict)
    """Seats whose player arrived (or came back) and was not dealt in since."""
    wait_bb: set[int] = field(default_factory=set)
    """Arrivals who wait for the big blind instead of paying a seat fee (casino)."""
    wait_button: set[int] = field(default_factory=set)
    """Players moved here by balancing or a merge, not dealt in while on the button or the
    small blind (casino: « il devra attendre que le bouton passe »)."""
    straddles: set[int] = field(default_factory=set)
    """Seats whose player posts the option whenever he is the first player after the big
    blind (casino cash: « L'option est autorisée en Cash Game »): standing choices."""
    enter_option: set[int] = field(default_factory=set)
    """Arrivals who come in « directement en option » (casino cash): not dealt in until they
    are first after the big blind, then they post the option, which is their seat fee."""
    posting: set[int] = field(default_factory=set)
    """The seats of the hand being dealt whose player posts the option if first after the
    big blind: the choices as they stood at the deal (a choice never changes the hand in
    play), saved with the cancelled hand to deal it again the same (cdc 5.4)."""
    moving: dict[int, Any] = field(default_factory=dict)
    """Seats leaving for another table of the room (their ``MoveOut``): not saved, a crash
    before the move cancels it (nothing left the table yet)."""
    dues: dict[int, Dues] = field(default_factory=dict)
    """What each seat posts besides the blinds in the hand being dealt."""
    short: set[int] = field(default_factory=set)
    """Seats told they have chips but less than the table lets one play with (casino cash:
    « On ne peut pas recevoir de cartes avec une cave inférieure à la grosse blind »): told
    once (a public ``short`` seat event, a private notice), until chips are added. Not saved:
    after a restart they are told again."""
    first_button: int | None = None
    """Where the button starts (drawn among the players present when not given)."""
    hands: int = 0
    first_players: int = 0
    """Hands dealt, and players at the first deal: the button's first round (casino)."""
    rake: int = 0
    """Raked in all."""

    @classmethod
    def for_table(cls, profile: str, sb: int, bb: int, changes: dict[str, Any]) -> CashState:
        rules = cash_rules(profile, **{"sb": sb, "bb": bb, **changes})
        capital = None if rules.capital is None else Capital(start=rules.capital)
        return cls(rules=rules, book=CashBook(rules, capital=capital))

    @property
    def first_orbit(self) -> bool:
        """No hand dealt yet, or the button has not finished its first round: a newcomer
        is not « entrant en cours de partie » (casino: no seat fee, nothing to wait for)."""
        return self.hands == 0 or self.hands < self.first_players

    def with_blinds(self, profile: str, sb: int, bb: int, changes: dict[str, Any]) -> None:
        """New blinds (the host's): the rules that depend on them follow (casino: the unit is
        the small blind, no cards under the big blind), the limits stay; ValueError (and no
        change) when the limits no longer fit them."""
        limits = {"min_buyin": self.rules.min_buyin, "max_buyin": self.rules.max_buyin}
        rules = cash_rules(profile, **{**changes, **limits, "sb": sb, "bb": bb})
        self.rules = self.book.rules = rules

    def missed(self) -> dict[int, tuple[str, ...]]:
        return {seat: marks for seat, marks in self.owed.items() if marks}

    def to_json(self) -> dict[str, Any]:
        """Saved in the table's snapshot with every write that changes seats or hands, so
        the ledger always matches the stacks saved with it (a kill -9 loses no chip)."""
        return {
            "book": self.book.to_json(),
            "waiting": [self.waiting.names, [[s, p] for s, p in self.waiting.offered.items()]],
            "away": [[s, a.rounds, a.missed, a.big_blind] for s, a in self.away.items()],
            "owed": [[s, list(marks)] for s, marks in self.owed.items()],
            "arrivals": [[s, a.value] for s, a in self.arrivals.items()],
            "wait_bb": sorted(self.wait_bb),
            "wait_button": sorted(self.wait_button),
            "straddles": sorted(self.straddles),
            "enter_option": sorted(self.enter_option),
            "posting": sorted(self.posting),
            "dues": [[s, d.live, d.dead] for s, d in self.dues.items()],
            "first_button": self.first_button,
            "hands": self.hands,
            "first_players": self.first_players,
            "rake": self.rake,
        }

    def load(self, data: dict[str, Any]) -> None:
        self.book.load(data["book"])
        names, offered = data["waiting"]
        self.waiting = WaitingList(list(names), {int(s): str(p) for s, p in offered})
        self.away = {int(s): Away(int(r), bool(m), bool(b)) for s, r, m, b in data["away"]}
        self.owed = {int(s): tuple(marks) for s, marks in data["owed"]}
        self.arrivals = {int(s): Arrival(a) for s, a in data["arrivals"]}
        self.wait_bb = {int(s) for s in data["wait_bb"]}
        self.wait_button = {int(s) for s in data.get("wait_button", [])}
        self.straddles = {int(s) for s in data.get("straddles", [])}  # older snapshots: none
        self.enter_option = {int(s) for s in data.get("enter_option", [])}
        self.posting = {int(s) for s in data.get("posting", [])}
        self.dues = {int(s): Dues(int(live), int(dead)) for s, live, dead in data["dues"]}
        self.first_button = data["first_button"]
        self.hands = int(data["hands"])
        self.first_players = int(data["first_players"])
        self.rake = int(data["rake"])


def cash_of(t: DealingTable) -> CashState:
    cash = getattr(t, "cash", None)
    if cash is None:
        raise ProtocolError(ErrorCode.BAD_SEAT, "this is not a cash table")
    assert isinstance(cash, CashState)
    return cash


class CashPolicy(FriendsPolicy):
    """Deals like a friends table, by the book's cash rules (see the module docstring)."""

    def schedule(self, t: DealingTable, now: float) -> None:
        cash = cash_of(t)
        if open_now(t, cash, now):
            super().schedule(t, now)
        elif t.seats and t.phase is TablePhase.WAITING:
            close_for_the_night(t, cash, now)  # restored after the closing time

    def start(self, t: DealingTable, now: float) -> None:
        if t.paused:
            return  # the host paused the table
        cash = cash_of(t)
        if not open_now(t, cash, now):
            close_for_the_night(t, cash, now)
            return
        apply_next_blinds(t)  # the host's new blinds, from this hand
        tell_short(t, cash)  # new blinds may leave a stack under the big blind
        _note_absences(t, cash)
        _first_orbit_newcomers(cash)
        candidates, skipped = _candidates(t, cash, now)
        present = [s for s in candidates if t.seats[s].present]
        if len(present) < t.config.min_players or len(candidates) < 2:
            if t.phase is TablePhase.BETWEEN:
                t.goto(Trigger.NOT_ENOUGH)
            return
        replay = take_replay(t, candidates)
        if replay is not None:
            # cdc 5.4: the hand a crash cut is dealt again as that hand (its positions, its
            # players, the same seat fees saved with it: cash.dues); else a fresh hand below
            t.open_hand(now, *replay, t.hand_no + 1)
            return
        positions, dealt_in = self._cash_positions(t, cash, candidates, present)
        _count_rounds(t, cash, positions, dealt_in, skipped)
        if cash.first_players == 0:
            cash.first_players = len(dealt_in)
        cash.dues = _dues(cash, positions, dealt_in)
        cash.posting = _posting(cash, dealt_in)
        for seat in dealt_in:
            cash.arrivals.pop(seat, None)
            cash.wait_bb.discard(seat)
            cash.wait_button.discard(seat)
            cash.enter_option.discard(seat)  # in: the option is posted at this deal
            if seat in cash.dues or seat == positions.big_blind:
                cash.owed.pop(seat, None)  # paid now (a big blind pays the marks' big blind)
        cash.hands += 1
        t.open_hand(now, positions, dealt_in, t.hand_no + 1)

    def _cash_positions(
        self, t: DealingTable, cash: CashState, candidates: list[int], present: list[int]
    ) -> tuple[Positions, list[int]]:
        n = t.config.max_seats
        first = cash.first_button
        if first is None or first not in candidates:
            first = present[t.randbelow(len(present))]
            cash.first_button = first
        if cash.rules.entry is not Entry.SEAT_FEE:
            # fpc cash sends to fpc 17 « Changement de place »: the friends table's rules
            # (fpc 17-2 newcomers, fpc 17-3 and 17-4 when a blind's player is gone)
            if t.positions is None:
                return first_positions(first, candidates, n), candidates
            return self._positions(t, candidates, present)
        players = list(candidates)
        # an arrival who waits for the big blind is dealt in at it (casino cash: « un joueur
        # peut décider d'attendre la grosse blind »); one who owes a fee and sits at the
        # small blind comes in at the big blind next hand instead (he never pays both)
        for _ in range(len(candidates)):
            positions = moving_positions(t.positions, players, n, first)
            waiting = [s for s in players if _waits(t, cash, s, positions, players)]
            if not waiting or len(players) - len(waiting) < 2:
                return positions, players
            players = [s for s in players if s not in waiting]
        return moving_positions(t.positions, players, n, first), players

    def leaves_seat(self) -> bool:
        return True

    def frees_busted(self) -> bool:
        """A cash player at 0 keeps his seat until he rebuys or the book frees it."""
        return False

    def on_left(self, t: DealingTable, state: SeatState, now: float) -> None:
        """A player stood up with his stack: a cash-out in the ledger, and his seat offered
        to the waiting list."""
        cash = cash_of(t)
        order = cash.moving.pop(state.seat, None)
        if order is not None:
            depart(t, cash, state, order, now)  # to another table of the room
        else:
            by = state.removed_by
            cash.book.cash_out(state.player, state.stack, now, hand=t.hand_no, by=by)
        _forget(cash, state.seat)
        if isinstance(t.requests.get(state.seat), AskChange):
            del t.requests[state.seat]  # a change asked by who left: nothing to answer
        offer(t, cash, state.seat)

    def after_hand(self, t: DealingTable, now: float, report: HandEnded) -> None:
        tell_short(t, cash_of(t))
        super().after_hand(t, now, report)

    def report(
        self, t: DealingTable, hand: Hand, stacks: dict[int, int], cancelled: bool
    ) -> HandEnded:
        """The hand's end: its rake goes in the ledger before the hand's one write (the
        snapshot with the new stacks), never after it."""
        if not cancelled:
            raked = _raked(hand)
            if raked:
                cash = cash_of(t)
                cash.rake += raked
                cash.book.rake(raked, t.now, t.hand_no)
        return super().report(t, hand, stacks, cancelled)


def _first_orbit_newcomers(cash: CashState) -> None:
    """Before the button's first round is over, a newcomer has nothing to pay and nothing to
    wait for (casino cash: « sauf si le bouton n'a pas fini son premier tour »)."""
    if not cash.first_orbit:
        return
    for seat in [s for s, a in cash.arrivals.items() if a is Arrival.NEW]:
        del cash.arrivals[seat]
        cash.wait_bb.discard(seat)
        cash.enter_option.discard(seat)


def _waits(
    t: DealingTable, cash: CashState, seat: int, positions: Positions, players: list[int]
) -> bool:
    """An arrival not dealt in at these ``positions`` of ``players``: one who waits for the
    big blind (casino cash: « un joueur peut décider d'attendre la grosse blind ») or to be
    first after it (« il est possible de rentrer sur la table directement en option »), one
    who owes a seat fee and sits at the small blind (he comes in at the big blind next hand
    instead: he never pays both), one moved here whom the button has not passed."""
    if seat not in cash.arrivals:
        return False
    if seat in cash.enter_option:
        return seat != _option_seat(t, players, positions)
    if seat == positions.big_blind:
        return False
    return (
        seat in cash.wait_bb
        or (seat == positions.sb_slot and len(players) > 2)
        or (seat in cash.wait_button and waits_for_the_button(seat, positions))
    )


def _option_seat(t: DealingTable, players: list[int], positions: Positions) -> int | None:
    """The seat that may post the option if ``players`` are dealt in at ``positions``: the
    engine's rule (:meth:`HandSetup.option_seat`), the first live player left of the big
    blind, three live players at least; live: present and serving no penalty at the deal
    (``Play._dead_at_deal``)."""
    live = sorted(s for s in players if t.seats[s].present and not t.seats[s].dead_hands)
    if len(live) < 3:
        return None
    return next((s for s in live if s > positions.big_blind), live[0])


def _posting(cash: CashState, dealt_in: list[int]) -> set[int]:
    """The seats dealt in that post the option if first after the big blind: a standing
    choice or an entry in option, at a table that offers it (casino cash)."""
    if not cash.rules.option:
        return set()
    return {s for s in dealt_in if s in cash.straddles or s in cash.enter_option}


def _raked(hand: Hand) -> int:
    """The chips the house retained from this hand's pots (casino « la taille »)."""
    return sum(int(getattr(e, "rake", 0)) for e in hand.events if isinstance(e, ev.PotAwarded))


def open_now(t: DealingTable, cash: CashState, now: float) -> bool:
    """Whether the table's opening hours (fpc cash: « Les tables ouvrent à partir de 20h00 et
    ferment à 23h30 précise ») let it deal now; while open, its closing time is armed
    (``timers.closing``) so that a table waiting for players closes too. Always open
    without hours."""
    hours = cash.rules.opening()
    if hours is None:
        return True
    at = wall_time(t)
    if not hours.is_open(at):
        return False
    t.timers.closing = now + (hours.next_change(at) - at).total_seconds()
    return True


def wall_time(t: DealingTable) -> datetime:
    """The table's injected wall time (UTC, ISO 8601), as an aware datetime."""
    return datetime.fromisoformat(t.wall().replace("Z", "+00:00"))


def close_for_the_night(t: DealingTable, cash: CashState, now: float) -> None:
    """Between hands after the closing time: no hand is dealt, every player's stack is
    cashed out to him (``by`` closed), and the seats are freed; the players keep watching,
    and buy in again once the tables open (refused before: ``cash.closed``)."""
    t.timers.next_hand = t.timers.closing = None
    if t.seats:
        t.host_says(f"the tables are closed: {cash.rules.hours} (fpc cash)")
    for state in list(t.seats.values()):
        del t.seats[state.seat]
        for watcher in t.watchers.values():
            if watcher.seat == state.seat:
                watcher.seat = None
        state.removed_by = "closed"
        t.seat_event(state, "left")
        t.policy.on_left(t, state, now)
        t.out.save_snapshot()
    if t.phase is TablePhase.BETWEEN:
        t.goto(Trigger.NOT_ENOUGH)


def short_seats(seats: Mapping[int, SeatState], cash: CashState) -> list[int]:
    """Seats whose player has chips, but fewer than one may be dealt in with (casino cash:
    « On ne peut pas recevoir de cartes avec une cave inférieure à la grosse blind »; fpc:
    any chip plays). A busted seat (0) is told ``busted`` instead."""
    least = cash.rules.min_stack
    return sorted(s for s, x in seats.items() if 0 < x.stack < least and not x.leaving)


def tell_short(t: DealingTable, cash: CashState) -> None:
    """Tell each newly short player, publicly (a ``short`` seat event: the table sees why he
    is not dealt in) and privately (what to do): he is dealt no cards until he adds chips
    (« Le joueur décavé doit se recaver ou quitter la table »; his rebuy owes no seat fee,
    « A son retour, on ne lui demandera pas de droit de siège »). Without it a table where
    all but one are short waits for nobody knows what."""
    short = short_seats(t.seats, cash)
    cash.short &= set(short)
    for seat in short:
        if seat in cash.short:
            continue
        cash.short.add(seat)
        state = t.seats[seat]
        t.seat_event(state, "short")
        least = cash.rules.min_stack
        text = f"you have {state.stack}, under {least}: add chips to be dealt in, or leave"
        t.notice(state.cid, "short_stack", text, "casino-cash-min-stack")


def _note_absences(t: DealingTable, cash: CashState) -> None:
    """Absent players start their count; players back settle it (what they owe is kept)."""
    for seat, state in t.seats.items():
        absent = not state.present and state.stack > 0 and not state.leaving
        if absent and seat not in cash.away:
            cash.away[seat] = Away()
        elif not absent and seat in cash.away:
            away = cash.away.pop(seat)
            if away.missed:
                cash.arrivals[seat] = Arrival.BACK


def _candidates(t: DealingTable, cash: CashState, now: float) -> tuple[list[int], dict[int, Deal]]:
    """The seats that may be dealt in (present, or absent but dealt a dead hand), and the
    absent ones skipped (missed blinds, sit-out); frees the seats the book frees."""
    rules = cash.rules
    candidates: list[int] = []
    skipped: dict[int, Deal] = {}
    for seat in sorted(t.seats):
        state = t.seats[seat]
        if state.leaving or state.unclaimed or state.stack < rules.min_stack:
            continue  # casino cash: no cards with less than a big blind
        treat = deal(cash.away.get(seat), rules, bool(cash.waiting))
        if treat is Deal.FREE:
            _free(t, cash, state, now)
        elif treat in (Deal.MISSED, Deal.SIT_OUT):
            skipped[seat] = treat
        else:
            candidates.append(seat)
    return candidates, skipped


def _count_rounds(
    t: DealingTable,
    cash: CashState,
    positions: Positions,
    dealt_in: list[int],
    skipped: dict[int, Deal],
) -> None:
    """The big blind reached an absent seat: one more round of his absence; skipped, his
    blinds are marked missed (casino cash: « les boutons miss blinds »)."""
    small = positions.sb_slot if positions.small_blind else None
    for seat in dealt_in:
        away = cash.away.get(seat)
        if away is not None and seat == positions.big_blind:
            cash.away[seat] = big_blind_came(away, Deal.DEAD)
        elif away is not None and seat == small:
            cash.away[seat] = small_blind_came(away)
    if not skipped or cash.rules.entry is not Entry.SEAT_FEE:
        return
    first = cash.first_button or dealt_in[0]
    for seat, treat in skipped.items():
        virtual = moving_positions(t.positions, [*dealt_in, seat], t.config.max_seats, first)
        if virtual.big_blind == seat:
            cash.away[seat] = big_blind_came(cash.away.get(seat, Away()), treat)
            cash.owed[seat] = MISSED_MARKS


def _dues(cash: CashState, positions: Positions, dealt_in: list[int]) -> dict[int, Dues]:
    """Seat fees and missed blinds posted at this deal (casino cash)."""
    dues: dict[int, Dues] = {}
    for seat in dealt_in:
        arrival = cash.arrivals.get(seat)
        if arrival is None:
            continue
        owed = Away(rounds=2, missed=True) if cash.owed.get(seat) else None
        due = arrival_dues(cash.rules, arrival, cash.first_orbit, owed)
        if seat == positions.big_blind:
            due = Dues(dead=due.dead)  # his big blind is the seat fee
        if due.live or due.dead:
            dues[seat] = due
    return dues


def _forget(cash: CashState, seat: int) -> None:
    for book in (cash.away, cash.owed, cash.arrivals, cash.dues):
        book.pop(seat, None)
    for seats in (cash.wait_bb, cash.wait_button, cash.straddles, cash.enter_option, cash.short):
        seats.discard(seat)


def cancel_move(t: DealingTable, state: SeatState) -> None:
    """A move that cannot happen: the player busted in the hand he was to move after. He
    keeps his seat here (a busted cash player may rebuy), and the table says so."""
    cash = cash_of(t)
    order = cash.moving.pop(state.seat, None)
    state.moving = False
    if order is not None:
        t.host_says(f"{state.name} busted: he stays, no move to {order.to_name}")


def depart(t: DealingTable, cash: CashState, state: SeatState, order: Any, now: float) -> None:
    """A player left for another table of the room (``order``: its MoveOut): what he may
    bring goes out as ``moved_out``, the rest (above a casino change's new maximum) is
    cashed out to him, in this write; the ``Transfer`` follows the write, so the other table
    never seats chips this one has not saved as gone."""
    brought = state.stack if order.cap is None else min(state.stack, order.cap)
    if state.stack > brought:
        cash.book.ledger.add(
            LedgerEntry(
                at=now,
                move=Move.CASH_OUT,
                player=state.player,
                name=state.name,
                amount=state.stack - brought,
                hand=t.hand_no,
                by=order.by,
            )
        )
    cash.book.move_out(state.player, brought, order.to, now, hand=t.hand_no, by=order.by)
    t.host_says(f"{state.name} moves to {order.to_name} with {brought}")
    t.out.save_snapshot()
    t.out.effect(
        Transfer(
            cid=state.cid,
            player=state.player,
            name=state.name,
            stack=brought,
            source=t.table,
            to=order.to,
            kind=order.kind,
            seat_fee=order.seat_fee,
        )
    )


def _free(t: DealingTable, cash: CashState, state: SeatState, now: float) -> None:
    """casino cash, a waiting list: « sa place sera libérée », « on lui retirera sa cave »:
    his stack is cashed out for him and the seat offered to the first name."""
    cash.book.cash_out(state.player, state.stack, now, hand=t.hand_no, by="table")
    del t.seats[state.seat]
    for watcher in t.watchers.values():
        if watcher.seat == state.seat:
            watcher.seat = None
    t.seat_event(state, "left")
    _forget(cash, state.seat)
    offer(t, cash, state.seat)


def offer(t: DealingTable, cash: CashState, seat: int) -> None:
    """Offer the free ``seat`` to the first name on the waiting list (told privately)."""
    player = cash.waiting.offer(seat)
    if player is None:
        return
    for watcher in t.watchers.values():
        if watcher.player == player:
            t.notice(watcher.cid, "seat_offered", f"seat {seat} is yours: buy in to take it")


def game_terms(t: object) -> tuple[Game, Structure]:
    """The game a table deals and its betting structure: a cash table's rules say (fpc « LE
    FIVE-CARD DRAW »: draw); every other table deals no-limit hold'em."""
    cash = getattr(t, "cash", None)
    if not isinstance(cash, CashState):
        return Game.HOLDEM, Structure.NO_LIMIT
    return cash.rules.game, cash.rules.structure


def hand_terms(
    t: DealingTable, dealt_in: list[int], dead: dict[int, bool]
) -> tuple[dict[int, Dues], Rake | None]:
    """What a cash table adds to a hand's set-up: each seat's seat fee and dead small blind
    (none on a dead hand: it never acts), and the rake. Nothing at other tables."""
    cash = getattr(t, "cash", None)
    if not isinstance(cash, CashState):
        return {}, None
    posts = {s: d for s, d in cash.dues.items() if s in dealt_in and not dead.get(s, False)}
    rules = cash.rules
    rake = Rake(permille=rules.rake_permille, cap=rules.rake_cap) if rules.rake_permille else None
    return posts, rake


def option_terms(t: DealingTable, setup: HandSetup) -> int | None:
    """The seat posting the option in the hand ``setup`` deals (its ``option``): the
    engine's option seat, the first live player left of the big blind
    (:meth:`HandSetup.option_seat`), when his player chose at the deal to post it (his
    standing choice, or his entry « directement en option ») at a table that offers it
    (casino cash: « L'option est autorisée en Cash Game »). None otherwise, and at every
    table that is not a cash table."""
    cash = getattr(t, "cash", None)
    if not isinstance(cash, CashState) or not cash.rules.option:
        return None
    seat = setup.option_seat()
    return seat if seat in cash.posting else None
