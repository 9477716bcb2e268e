"""Play a cash-table session (shared/specs/session-format.md, ``game: cash``) on the pure table.

The runner is the players' part only: the table's own cash policy
(:mod:`server.table.cash`) decides everything the books decide between hands — who is dealt
in, where the button goes (casino: no dead button), seat fees and missed blinds, absences
over rounds of blinds, the waiting list — and its book (:mod:`server.cash`) the buy-ins,
rebuys, cash-outs, the fpc capital and the ledger. The table never deals by itself here: each
``hand`` step fires its next-hand timer, so ``time`` steps only move the clock.
"""

from __future__ import annotations

from typing import Any

from protocol import messages as m
from server.cash import Move
from server.engine import Hand, Phase, card_name
from server.engine import events as ev
from server.engine.replay import ScenarioError
from server.table import commands as c
from server.table.cash import CashState, cash_of
from server.table.phases import TablePhase
from server.table.session import SessionRun, _Refused
from server.table.session_steps import DealHand, Leave, Queue, Rebuy, Refuse, Session, Sit

__all__ = ["CashSessionRun"]

_LEDGER_KINDS = {
    Move.BUY_IN: "buy_in",
    Move.REBUY: "rebuy",
    Move.TOP_UP: "top_up",
    Move.CASH_OUT: "cash_out",
    Move.REMOVED: "cash_out",
}


def _changes(session: Session) -> dict[str, Any]:
    """The session's table settings as the host's changes to the profile's cash rules."""
    changes: dict[str, Any] = {}
    if session.buy_in is not None:
        changes["min_buyin"], changes["max_buyin"] = session.buy_in
    percent, cap = session.rake
    if percent:
        changes["rake_permille"], changes["rake_cap"] = percent * 10, cap
    changes["runs"] = session.run_it
    if session.game == "draw":  # fpc « LE FIVE-CARD DRAW »: the game is part of the terms
        changes["game"] = "draw"
        if session.structure:
            changes["structure"] = session.structure
    return changes


class CashSessionRun(SessionRun):
    def __init__(self, session: Session) -> None:
        try:
            super().__init__(session, cash=_changes(session))
        except ValueError as exc:
            raise ScenarioError(f"table: {exc}") from None
        self.agreed = 1
        """How many runs the players of the hand being played agree to (its ``runs``)."""
        cash = self.cash
        cash.first_button = session.button
        if session.capital is not None and cash.book.capital is not None:
            cash.book.capital.balances.update(session.capital)

    @property
    def cash(self) -> CashState:
        return cash_of(self.table)

    # ------------------------------------------------------------------ the players' part

    def _conn(self, name: str) -> c.Conn:
        conn = self.conns.get(name)
        if conn is None:
            conn = self.conns[name] = c.Conn(f"conn-{name}", name)
            self._do(c.Watch(conn=conn))
        return conn

    def _refusal(self, conn: c.Conn, cmd: c.Command) -> None:
        """Do ``cmd``; a refusal becomes the step's stable error (``cash.x`` → ``x``, with
        the book's rule, e.g. ``fpc-cash``)."""
        errors = self.errors.setdefault(conn.cid, [])
        seen = len(errors)
        self._do(cmd)
        if len(errors) > seen:
            error: m.Error = errors[-1]
            if error.code.startswith("cash."):
                raise _Refused(error.code.removeprefix("cash."), f"{self.session.profile}-cash")
            raise _Refused(error.code)

    def _sit(self, step: Sit) -> dict[str, Any]:
        self._free_seat(step)
        assert step.buy_in is not None
        conn = self._conn(step.name)
        cmd = c.BuyIn(
            conn=conn,
            seat=step.seat,
            name=step.name,
            amount=step.buy_in,
            wait_for_bb=step.wait_for_bb,
        )
        self._refusal(conn, cmd)
        return {}

    def _rebuy(self, step: Rebuy) -> dict[str, Any]:
        self._seat_of(step.name)
        self._refusal(
            self.conns[step.name], c.AddChips(conn=self.conns[step.name], amount=step.amount)
        )
        return {}

    def _leave(self, step: Leave) -> dict[str, Any]:
        seat = self._seat_of(step.name)
        stack = self.table.seats[seat].stack
        self._do(c.Leave(conn=self.conns[step.name]))
        return {"left_with": stack}

    def _cash_only(self, step: Queue | Refuse) -> dict[str, Any]:
        conn = self._conn(step.name)
        if isinstance(step, Queue):
            self._refusal(conn, c.JoinWaitingList(conn=conn))
            return {"place": self.cash.waiting.names.index(step.name) + 1}
        self._refusal(conn, c.RefuseSeat(conn=conn))
        return {}

    # ------------------------------------------------------------------ a hand

    def _hand(self, step: DealHand) -> dict[str, Any]:
        t = self.table
        seat_of = {s.player: s.seat for s in t.seats.values()}
        unknown = sorted(set(step.hole) - set(seat_of))
        if unknown:
            raise ScenarioError(f"hand.hole names {', '.join(unknown)}, not seated")
        self.agreed = step.runs
        self.dealer.hole = {seat_of[name]: cards for name, cards in step.hole.items()}
        self.dealer.board = step.boards[0]
        self.dealer.runs = step.boards[1:]
        self.dealer.stub = step.stub
        if step.seed is not None:
            self.dealer.rng.seed(step.seed)
        hand_no = t.hand_no
        before = {s.player: s.stack for s in t.seats.values()}
        names = {s.seat: s.player for s in t.seats.values()}
        t.timers.next_hand = self.now  # the table deals now, by its own rules
        self._carry_out(t.tick(self.now))
        if t.hand_no == hand_no:
            raise _Refused("not_enough_players")
        while t.phase is TablePhase.CUT:
            self._next_deadline()
        hand = t.hand
        if hand is None or t.positions is None:
            raise _Refused("not_dealt")
        positions = t.positions
        results = [self._input(hand, names, entry) for entry in step.inputs]
        self._finish(t.hand_no)
        out = self._hand_output(hand, names, positions, results, before)
        dealt = {names[int(p)] for p in hand.names}
        seated = {s.player for s in t.seats.values()}
        out["stacks"] = {p: v for p, v in out["stacks"].items() if p in seated or p in dealt}
        out["posted"] = _posted(hand, names)
        out["rake"] = sum(e.rake for e in hand.events if isinstance(e, ev.PotAwarded))
        out["runs"] = hand.runs
        out["boards"] = [[card_name(card) for card in board] for board in hand.boards()]
        if self.session.game == "draw":  # each player's five cards at the end, the draws
            out["holes"] = {
                names[int(p)]: [card_name(x) for x in cs]
                for p, cs in zip(hand.names, hand.hole, strict=True)
            }
            out["draws"] = [
                {"player": names[int(e.player)], "count": e.count}
                for e in hand.events
                if isinstance(e, ev.Drew)
            ]
        return out

    def _next_deadline(self) -> None:
        """The two players all-in answer the offer to run the board several times with the
        hand step's ``runs`` (what they agreed); anything else waits for the clock."""
        hand = self.table.hand
        if hand is not None and hand.phase is Phase.RUNS:
            for player in hand.runs_awaited():
                state = self.table.seats[int(player)]
                conn = self.conns[state.player]
                self._do(c.RunIt(conn=conn, hand=self.table.hand_no, runs=self.agreed))
            if hand.phase is not Phase.RUNS:
                return
        super()._next_deadline()

    def _summary(self) -> dict[str, Any]:
        cash = self.cash
        names = {s.seat: s.player for s in self.table.seats.values()}
        return {
            "missed": {
                names[seat]: list(marks) for seat, marks in cash.missed().items() if seat in names
            },
            "ledger": [
                {"player": e.player, "kind": _LEDGER_KINDS[e.move], "amount": e.amount}
                for e in cash.book.ledger.entries
                if e.move in _LEDGER_KINDS
            ],
            "rake": cash.book.ledger.rake(),
            "capital": None if cash.book.capital is None else dict(cash.book.capital.balances),
        }


def _posted(hand: Hand, names: dict[int, str]) -> list[dict[str, Any]]:
    """Forced bets in the spec's words, as the engine posted them: a newcomer's live big
    blind is ``seat_fee``, a returning player's owed big blind ``missed_bb`` (live) and his
    owed small blind ``missed_sb`` (dead) (casino cash, « miss blinds »)."""
    kinds = {
        ev.PostKind.ANTE: "ante",
        ev.PostKind.SMALL_BLIND: "sb",
        ev.PostKind.BIG_BLIND: "bb",
        ev.PostKind.SEAT_FEE: "seat_fee",
        ev.PostKind.MISSED_BIG_BLIND: "missed_bb",
        ev.PostKind.DEAD_BLIND: "missed_sb",
        ev.PostKind.OPTION: "option",  # casino cash: the straddle (not a spec session step)
    }
    return [
        {"player": names[int(e.player)], "amount": e.amount, "kind": kinds[e.kind]}
        for e in hand.events
        if isinstance(e, ev.Posted) and e.amount > 0
    ]
