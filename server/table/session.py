"""Play a table session (shared/specs/session-format.md) on the pure :class:`Table`.

No server, no asyncio, no wall clock: the runner is the table's only caller. It plays the
director's part for a tournament table (the positions of every deal by the profile's
dead-button rule or fpc's, :func:`server.engine.positions.next_positions`, as the tournament
director computes them; ``NextDeal`` carries them), the players' part (their connections,
their inputs, their absences), and carries out the table's effects as the asyncio shell
does, minus the store and the sockets. What the rules decide between hands — who is dealt
in, who is dealt a dead hand, who posts what — is the table's and the engine's own doing.

The cards are scripted (:class:`SessionDealer`): a real committed deck whose order puts the
session's cards where the deal layout reads them, the cut fixed at 0.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from protocol import decode_server
from protocol import messages as m
from protocol.draw import SEED_BYTES
from server.dealing import Deck, Signer, deal_layout
from server.dealing.draw import DrawDeal, draw_layout
from server.engine import Hand, card_name, load_profile
from server.engine import events as ev
from server.engine.positions import Positions, first_positions, next_positions
from server.engine.replay import ScenarioError, input_result
from server.table import commands as c
from server.table.config import TableConfig
from server.table.dealer import CsprngDealer, CsprngHand, DrawHand
from server.table.effects import Deliver, Effect, ReportHand
from server.table.phases import TablePhase
from server.table.session_steps import (
    Away,
    Back,
    Clock,
    DealHand,
    Input,
    Leave,
    Queue,
    Rebuy,
    Refuse,
    Session,
    Sit,
)
from server.table.table import Table

__all__ = ["SessionDealer", "SessionRun"]

WALL = "2026-01-01T00:00:00Z"
_POSTS = {ev.PostKind.ANTE: "ante", ev.PostKind.SMALL_BLIND: "sb", ev.PostKind.BIG_BLIND: "bb"}
_SETTLE = 200
_NEVER = 10.0**9
"""A cash session's table never deals by itself: the runner deals at each ``hand`` step."""
"""Deadlines at most to finish one hand once its inputs are played (a hand always ends)."""


class _ScriptedHand(CsprngHand):
    def cut(self, position: int) -> None:
        self.deck.apply_cut(0)  # the order was laid out for a cut at 0 (cards are scripted)


class _ScriptedDrawHand(DrawHand):
    def cut(self, position: int) -> None:
        self.deal.cut(0)  # the order was laid out for a cut at 0 (cards are scripted)


class SessionDealer(CsprngDealer):
    """Deals the next hand's scripted cards (``plan``), random cards elsewhere."""

    def __init__(self, rng: random.Random) -> None:
        key = Ed25519PrivateKey.from_private_bytes(bytes(rng.getrandbits(8) for _ in range(32)))
        super().__init__(Signer(key), randbelow=rng.randrange, token_bytes=rng.randbytes)
        self.rng = rng
        self.hole: dict[int, tuple[int, ...]] = {}
        self.board: tuple[int, ...] = ()
        self.runs: tuple[tuple[int, ...], ...] = ()
        """The boards of the runs after the first (the session's ``boards[1:]``)."""
        self.stub: tuple[int, ...] = ()
        """Five-card draw: the cards the draw deals from, in order (the session's ``stub``)."""

    def new_hand(self, dealt_in: list[int], button: int, max_seats: int) -> CsprngHand:
        base = super().new_hand(dealt_in, button, max_seats)
        layout = deal_layout(len(base.order), runs=1 + len(self.runs))
        slots: dict[int, int] = {}
        for i, seat in enumerate(base.order):
            for slot, card in zip(layout.hole[i], self.hole.get(seat, ()), strict=False):
                slots[slot] = card
        for slot, card in zip(layout.board, self.board, strict=False):
            slots[slot] = card
        for run_slots, run_board in zip(layout.runs, self.runs, strict=False):
            # a run shares the cards already out when the runs start (the flop of an all-in
            # on the flop): only its own cards go to its slots
            for slot, card in zip(run_slots, run_board, strict=False):
                if card not in slots.values():
                    slots[slot] = card
        rest = [card for card in range(52) if card not in set(slots.values())]
        self.rng.shuffle(rest)
        order = [slots[p] if p in slots else rest.pop() for p in range(52)]
        deck = Deck(order=order, salts=[self.rng.randbytes(16) for _ in range(52)])
        return _ScriptedHand(deck, base.order, base.cutter)

    def new_draw_hand(self, dealt_in: list[int], button: int, max_seats: int) -> DrawHand:
        """A five-card draw hand dealing the scripted five cards each and ``stub`` from a
        real committed deck (random cards elsewhere, a random stub seed), cut at 0."""
        base = super().new_draw_hand(dealt_in, button, max_seats)
        order = [int(s) for s in base.deal.order]
        layout = draw_layout(len(order))
        slots: dict[int, int] = {}
        for i, seat in enumerate(order):
            slots.update(zip(layout.hole[i], self.hole.get(seat, ()), strict=False))
        slots.update(zip(layout.stub, self.stub, strict=False))
        rest = [card for card in range(52) if card not in set(slots.values())]
        self.rng.shuffle(rest)
        deck = Deck(
            order=[slots[p] if p in slots else rest.pop() for p in range(52)],
            salts=[self.rng.randbytes(16) for _ in range(52)],
        )
        deal = DrawDeal(deck, order, self.rng.randbytes(SEED_BYTES))
        return _ScriptedDrawHand(deal, base.cutter)


class _Refused(Exception):
    def __init__(self, error: str, rule: str = "") -> None:
        super().__init__(error)
        self.error, self.rule = error, rule


class SessionRun:
    """One session, step by step. ``out`` is the spec's output document so far."""

    def __init__(self, session: Session, cash: dict[str, Any] | None = None) -> None:
        self.session = session
        self.rng = random.Random(session.seed)
        b = session.blinds
        self.config = TableConfig(
            table_id="session",
            profile=session.profile,
            sb=b.sb,
            bb=b.bb,
            ante=b.ante,
            ante_format=b.ante_format.value,
            max_seats=session.seats,
            denominations=session.denominations,
            cash=cash,
            next_hand_seconds=_NEVER if cash is not None else 3.0,
        )
        self.dealer = SessionDealer(random.Random(self.rng.random()))
        self.table = Table(
            self.config,
            self.dealer,
            random.Random(self.rng.random()).randrange,
            wall=lambda: WALL,
            directed=cash is None,
        )
        self.missing_blind = load_profile(session.profile).missing_blind
        """The profile's rule when a blind's player is gone (fpc 17-3/17-4, else cdc 4.3)."""
        self.now = 0.0
        self.conns: dict[str, c.Conn] = {}
        self.errors: dict[str, list[m.Error]] = {}
        self.reports: list[ReportHand] = []
        self.positions: Positions | None = None
        self.steps: list[dict[str, Any]] = []

    # ------------------------------------------------------------------ the table's effects

    def _carry_out(self, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Deliver):
                msg = decode_server(effect.frame)
                if isinstance(msg, m.Error):
                    for cid in effect.cids:
                        self.errors.setdefault(cid, []).append(msg)
            elif isinstance(effect, ReportHand):
                self.reports.append(effect)

    def _do(self, cmd: c.Command) -> None:
        self._carry_out(self.table.handle(cmd, self.now))

    def _advance(self, target: float) -> None:
        """Move the clock to ``target``, firing every deadline on the way in order."""
        while (deadline := self.table.next_deadline()) is not None and deadline <= target:
            self.now = max(self.now, deadline)
            self._carry_out(self.table.tick(self.now))
        self.now = max(self.now, target)

    def _next_deadline(self) -> None:
        deadline = self.table.next_deadline()
        if deadline is not None:
            self._advance(deadline)

    # ------------------------------------------------------------------ steps

    def run(self) -> dict[str, Any]:
        handlers: dict[type[Any], Callable[[Any], dict[str, Any]]] = {
            Sit: self._sit, Away: self._away, Back: self._back, Leave: self._leave,
            Rebuy: self._rebuy, Queue: self._cash_only, Refuse: self._cash_only,
            Clock: self._clock, DealHand: self._hand,
        }  # fmt: skip
        for i, step in enumerate(self.session.steps):
            try:
                done = handlers[type(step)](step)
                self.steps.append({"step": i, "accepted": True, **done})
            except _Refused as refused:
                entry: dict[str, Any] = {"step": i, "accepted": False, "error": refused.error}
                if refused.rule:
                    entry["rule"] = refused.rule
                self.steps.append(entry)
        return {
            "steps": self.steps,
            "seats": {str(s.seat): s.player for s in sorted(self.table.seats.values(),
                                                            key=lambda s: s.seat)},
            **self._summary(),
        }  # fmt: skip

    def _summary(self) -> dict[str, Any]:
        """The game's own keys of the output (a tournament has no ledger, no rake)."""
        return {"missed": {}, "ledger": [], "rake": 0}

    def _seat_of(self, name: str) -> int:
        for state in self.table.seats.values():
            if state.player == name:
                return state.seat
        raise _Refused("not_seated")

    def _free_seat(self, step: Sit) -> None:
        """The seat of a ``sit`` step exists and is free, and its player sits nowhere yet."""
        if not 1 <= step.seat <= self.session.seats:
            raise _Refused("bad_seat")
        if step.seat in self.table.seats:
            raise _Refused("seat_taken")
        if any(s.player == step.name for s in self.table.seats.values()):
            raise _Refused("already_seated")

    def _sit(self, step: Sit) -> dict[str, Any]:
        self._free_seat(step)
        assert step.stack is not None
        self._do(c.SeatPlayer(seat=step.seat, player=step.name, name=step.name, stack=step.stack))
        conn = self.conns[step.name] = c.Conn(f"conn-{step.name}", step.name)
        self._do(c.Watch(conn=conn))
        return {}

    def _away(self, step: Away) -> dict[str, Any]:
        self._seat_of(step.name)
        self._do(c.SitOut(conn=self.conns[step.name]))
        return {}

    def _back(self, step: Back) -> dict[str, Any]:
        self._seat_of(step.name)
        self._do(c.SitIn(conn=self.conns[step.name]))
        return {}

    def _leave(self, step: Leave) -> dict[str, Any]:
        seat = self._seat_of(step.name)
        stack = self.table.seats[seat].stack
        self._do(c.RemovePlayer(seat=seat, player=step.name, status="left"))
        return {"left_with": stack}

    def _rebuy(self, step: Rebuy) -> dict[str, Any]:
        # a tournament's rebuys and re-entries are the tournament's own (its [rebuy] and
        # [reentry] windows, server/tournament/config.py), never a table's
        raise _Refused("rebuy_not_allowed", "tournament")

    def _cash_only(self, step: Queue | Refuse) -> dict[str, Any]:
        raise _Refused("cash_game_only")

    def _clock(self, step: Clock) -> dict[str, Any]:
        self._advance(self.now + step.minutes * 60)
        return {}

    # ------------------------------------------------------------------ a hand

    def _positions(self, players: list[int]) -> Positions:
        n = self.session.seats
        if self.positions is not None:
            return next_positions(self.positions, players, n, missing_blind=self.missing_blind)
        button = self.session.button
        if button in players:
            return first_positions(button, players, n)
        # the first button's seat is empty (its player left before the first deal): the
        # button stays on it, dead, and the blinds are the next two players (heads-up, the
        # first player after it takes the button and the small blind, cdc 4.4)
        order = [s for k in range(1, n + 1) if (s := (button - 1 + k) % n + 1) in players]
        if len(order) == 2:
            return first_positions(order[0], players, n)
        return Positions(button=button, sb_slot=order[0], big_blind=order[1])

    def _hand(self, step: DealHand) -> dict[str, Any]:
        t = self.table
        players = sorted(s.seat for s in t.seats.values() if s.stack > 0)
        if len(players) < 2:
            raise _Refused("not_enough_players")
        seat_of = {s.player: s.seat for s in t.seats.values()}
        unknown = sorted(set(step.hole) - set(seat_of))
        if unknown:
            raise ScenarioError(f"hand.hole names {', '.join(unknown)}, not seated")
        self.dealer.hole = {seat_of[name]: cards for name, cards in step.hole.items()}
        self.dealer.board = step.boards[0]
        if step.seed is not None:
            self.dealer.rng.seed(step.seed)
        positions = self._positions(players)
        before = {s.player: s.stack for s in t.seats.values()}
        names = {s.seat: s.player for s in t.seats.values()}
        self._do(
            c.NextDeal(
                hand_no=t.hand_no + 1,
                blinds=self.session.blinds,
                positions=positions,
            )
        )
        while t.phase is TablePhase.CUT:
            self._next_deadline()
        hand = t.hand
        if hand is None:
            raise _Refused("not_dealt")
        self.positions = positions
        results = [self._input(hand, names, entry) for entry in step.inputs]
        self._finish(t.hand_no)
        return self._hand_output(hand, names, positions, results, before)

    def _input(self, hand: Hand, names: dict[int, str], entry: Input) -> dict[str, Any]:
        kind, payload = entry
        if kind == "time":
            return {"player": payload, "accepted": True, "action": "time", "to": 0, "added": 0,
                    "rule": "", "note": "clock call: ignored in replay"}  # fmt: skip
        name = payload.player
        conn = self.conns.get(name)
        state = next((s for s in self.table.seats.values() if s.player == name), None)
        if conn is None or state is None:
            return {"player": name, "accepted": False, "error": "not seated",
                    "code": "not_seated", "rule": ""}  # fmt: skip
        errors = self.errors.setdefault(conn.cid, [])
        seen, count = len(errors), len(hand.events)
        self._do(self._command(conn, kind, payload))
        if len(errors) > seen:
            error = errors[-1]
            code = error.code.removeprefix("rule.")
            return {"player": name, "accepted": False, "error": error.message, "code": code,
                    "rule": error.rule or ""}  # fmt: skip
        if kind in ("show", "muck"):
            return {"player": name, "accepted": True, "action": kind}
        if kind == "draw":  # five-card draw, as the hand format says a draw result
            return {"player": name, "accepted": True, "action": "draw",
                    "count": len(payload.discard)}  # fmt: skip
        out = input_result(hand, str(state.seat), list(hand.events[count:]))
        return {**out, "player": name}

    def _command(self, conn: c.Conn, kind: str, payload: Any) -> c.Command:
        hand_no = self.table.hand_no
        if kind in ("show", "muck"):
            return c.ShowCards(conn=conn, hand=hand_no, show=kind == "show")
        if kind == "draw":
            return c.DrawCards(conn=conn, hand=hand_no, discard=payload.discard)
        say = payload.say
        return c.Declare(
            conn=conn,
            hand=hand_no,
            verb=None if say is None else say.verb.value,
            amount=None if say is None else say.amount,
            form=None if say is None else say.form.value,
            chips=payload.chips,
        )

    def _finish(self, hand_no: int) -> None:
        """Players without inputs left check if they can, else fold; the clock does the rest
        (a pending declaration, the showdown)."""
        t = self.table
        for _ in range(_SETTLE):
            if t.hand_no != hand_no or not t.in_hand():
                return
            menu = None if t.hand is None or t.phase is not TablePhase.BETTING else t.hand.menu()
            state = None if menu is None else t.seats.get(int(menu.player))
            if menu is None or state is None or state.player not in self.conns:
                self._next_deadline()
                continue
            conn = self.conns[state.player]
            errors = self.errors.setdefault(conn.cid, [])
            seen = len(errors)
            verb = "check" if menu.can_check else "fold"
            self._do(c.Declare(conn=conn, hand=hand_no, verb=verb))
            if len(errors) > seen:
                self._next_deadline()
        raise AssertionError(f"hand {hand_no} did not end")  # pragma: no cover - a bug

    def _hand_output(
        self,
        hand: Hand,
        names: dict[int, str],
        positions: Positions,
        results: list[dict[str, Any]],
        before: dict[str, int],
    ) -> dict[str, Any]:
        def name(engine_name: str) -> str:
            return names[int(engine_name)]

        posted: list[dict[str, Any]] = [
            {"player": name(e.player), "amount": e.amount, "kind": _POSTS.get(e.kind, e.kind.value)}
            for e in hand.events
            if isinstance(e, ev.Posted) and e.amount > 0
        ]
        sb = [p for p in posted if p["kind"] == "sb"]
        seat_of = {player: seat for seat, player in names.items()}
        seated = {s.player: s.stack for s in self.table.seats.values()}
        return {
            "hand": self.table.hand_no,
            "positions": {
                "button": positions.button,
                "sb": None if not sb else seat_of[sb[0]["player"]],
                "bb": positions.big_blind,
            },
            "posted": posted,
            "dealt_in": [name(s.player) for s in hand.setup.seats],
            "dead": [name(s.player) for s in hand.setup.seats if s.dead],
            "results": results,
            "pots": [
                {
                    "amount": p.amount,
                    "eligible": [name(x) for x in p.eligible],
                    "winners": [name(x) for x in p.winners],
                }
                for p in hand.pots()
            ],
            "runs": 1,
            "rake": 0,
            "board": [card_name(card) for card in hand.board],
            "stacks": {player: seated.get(player, 0) for player in before},
        }
