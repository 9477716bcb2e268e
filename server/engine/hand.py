"""One hand of No-Limit Hold'em at one table: posting, betting, showdown, pots.

Pure and deterministic (no I/O, no clock, no randomness): the cards are given in the
:class:`~server.engine.setup.HandSetup`. Commands go in through :meth:`Hand.act`,
:meth:`Hand.show`, :meth:`Hand.muck`; each returns the events it caused. A command that
breaks a rule raises :class:`~server.engine.errors.RuleError` and changes nothing: every
method first decides (reading state only, see :mod:`.interpret`), then applies.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

from . import cards as _cards
from .commands import Act, Muck, Show
from .errors import ErrorCode, RuleError
from .events import (
    Acted,
    BoardDealt,
    DeadHand,
    Event,
    FaceUp,
    HandCancelled,
    HandEnded,
    HandStarted,
    HoleDealt,
    Mucked,
    OutOfTurn,
    Pending,
    Posted,
    PostKind,
    PotAwarded,
    Returned,
    Shown,
)
from .interpret import Decision, Interpreter, Kind, OotRecord
from .profile import AllinShowdown, AntePriority, MinRaise, OpenFold
from .setup import AnteFormat, HandSetup

__all__ = ["Hand", "Menu", "Phase", "PotView", "Street"]


class Street(IntEnum):
    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3


STREET_NAMES = ("preflop", "flop", "turn", "river")


class Phase(StrEnum):
    BETTING = "betting"
    SHOWDOWN = "showdown"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True, kw_only=True)
class Menu:
    """The legal choices of the player whose turn it is (built from the ``can`` checks)."""

    player: str
    call: int
    """Additional chips to call (0: check)."""
    can_check: bool
    can_fold: bool
    can_raise: bool
    min_raise_to: int | None
    max_raise_to: int | None
    pending: str | None
    """``"amount"`` while a declared raise awaits its amount, ``"call_or_fold"`` when the
    player may only call or fold (cdc 9.4, 9.12), else None."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PotView:
    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...] = ()


class Hand(Interpreter):
    """The state of one hand. See the module docstring for the contract."""

    def __init__(self, setup: HandSetup) -> None:
        setup.validate()
        self.setup = setup
        self.profile = setup.profile
        self.bb = setup.blinds.bb
        self.open_fold_binding = self.profile.open_fold is OpenFold.BINDING
        self._commit_added = 0
        self._final_pots: list[tuple[int, list[int]]] | None = None
        self.unwinnable = [0] * len(setup.seats)
        """Chips no live player can win, by owner: returned at the end (see _layers)."""
        self.denominations = tuple(sorted(setup.denominations))
        ordered = sorted(setup.seats, key=lambda s: s.seat)
        self.n = n = len(ordered)
        self.names = [s.player for s in ordered]
        self.seat_of = [s.seat for s in ordered]
        self.index = {name: i for i, name in enumerate(self.names)}
        self.start = [s.stack for s in ordered]
        self.stack = list(self.start)
        self.committed = [0] * n
        self.contrib = [0] * n
        self.folded = [s.dead for s in ordered]
        self.dead = [s.dead for s in ordered]
        self.allin = [False] * n
        self.n_live = n - sum(self.dead)
        """Players not folded (dead hands count as folded)."""
        self.n_able = self.n_live
        """Players not folded and not all-in: those who can still bet."""
        self.acted = [False] * n
        self.reopen_at = [0] * n
        self.no_raise = [False] * n
        self.oot: dict[int, OotRecord] = {}
        self.hole = [setup.hole[name] for name in self.names]
        self.board_cards = tuple(setup.board)
        self._board_eval = _cards.eval_cards(self.board_cards)
        self.board: list[int] = []
        self.street = Street.PREFLOP
        self.phase = Phase.BETTING
        self.cb = 0
        self.last_full_inc = self.bb
        self.to_act = -1
        self.round_aggressor = -1
        self.river_bet = False
        self.pending_raise = -1
        self.last_motion = -1
        self.dead_money = 0
        self.face_up = False
        self.shown: set[int] = set()
        self.mucked: set[int] = set()
        self.awarded: list[PotView] = []
        self.events: list[Event] = []
        self._values: dict[int, int] = {}
        self.button = setup.button
        self.sb_i, self.bb_i = self._blind_positions()
        self.after_button = self._clockwise_from_seat(self.button)
        """Player indices clockwise from the first seat left of the button."""
        self._post_and_deal()

    # ------------------------------------------------------------------ positions

    def _clockwise_from_seat(self, seat: int) -> list[int]:
        """Player indices in clockwise order starting with the first seat after ``seat``."""
        start = 0
        while start < self.n and self.seat_of[start] <= seat:
            start += 1
        return [(start + k) % self.n for k in range(self.n)]

    def _blind_positions(self) -> tuple[int, int]:
        """Small and big blind indices by the dead-button rule (cdc 4.3, tda 31)."""
        setup = self.setup
        if setup.big_blind is not None:
            bb_i = self.index[next(s.player for s in setup.seats if s.seat == setup.big_blind)]
            if self.n == 2:
                return 1 - bb_i, bb_i  # heads-up: the other player is button and SB (cdc 4.4)
            between = []
            for i in self._clockwise_from_seat(self.button):
                if i == bb_i:
                    break
                between.append(i)
            if len(between) > 1:
                from .errors import SetupError

                raise SetupError("more than one player between the button and the big blind")
            return (between[0] if between else -1), bb_i
        order = self._clockwise_from_seat(self.button)
        if self.n == 2:
            button_i = self.index.get(
                next((s.player for s in setup.seats if s.seat == self.button), ""), -1
            )
            if button_i >= 0:
                return button_i, 1 - button_i  # heads-up: the button posts the SB (cdc 4.4)
        return order[0], order[1]

    # ------------------------------------------------------------------ posting

    def _move(self, i: int, amount: int) -> int:
        """Move up to ``amount`` chips from player i's stack into this round; return moved."""
        amount = min(amount, self.stack[i])
        self.stack[i] -= amount
        self.committed[i] += amount
        self.contrib[i] += amount
        if self.stack[i] == 0 and not self.allin[i]:
            self._mark_allin(i)
        return amount

    def _mark_allin(self, i: int) -> None:
        self.allin[i] = True
        if not self.folded[i]:
            self.n_able -= 1

    def _post_ante_dead(self, i: int, amount: int) -> int:
        amount = min(amount, self.stack[i])
        self.stack[i] -= amount
        self.dead_money += amount
        if self.stack[i] == 0 and not self.allin[i]:
            self._mark_allin(i)
        return amount

    def _post_and_deal(self) -> None:
        p = self.profile
        blinds = self.setup.blinds
        ev = self.events
        ev.append(
            HandStarted(
                button=self.button,
                small_blind=self.names[self.sb_i] if self.sb_i >= 0 else None,
                big_blind=self.names[self.bb_i],
                stacks=tuple(zip(self.names, self.start, strict=True)),
            )
        )
        ante, fmt = blinds.ante, blinds.ante_format
        if ante and self.n == 2 and fmt.value in p.no_heads_up_ante:
            ante = 0  # cdc 4.4: no ante heads-up outside the classic format
        ante_rule = p.cite("ante")
        if ante and fmt is AnteFormat.CLASSIC:
            # classic antes are contributions, paid before the blinds (fpc 6-1)
            for i in range(self.n):
                paid = self._move(i, ante)
                self.committed[i] -= paid  # antes are not bets of the round
                ev.append(
                    Posted(
                        player=self.names[i],
                        kind=PostKind.ANTE,
                        amount=paid,
                        allin=self.allin[i],
                        rule=ante_rule,
                    )
                )
        elif ante and fmt is AnteFormat.BUTTON:
            button_i = next((i for i in range(self.n) if self.seat_of[i] == self.button), -1)
            if button_i >= 0:  # cdc 4.3: no button ante when the button is dead
                paid = self._post_ante_dead(button_i, ante)
                ev.append(
                    Posted(
                        player=self.names[button_i],
                        kind=PostKind.ANTE,
                        amount=paid,
                        allin=self.allin[button_i],
                        rule=ante_rule,
                    )
                )
        bb_ante = ante if fmt is AnteFormat.BIG_BLIND else 0
        if bb_ante and p.bb_ante_priority is AntePriority.ANTE:
            self._post_bb_ante(bb_ante, ante_rule)  # cdc 4.2: ante before the big blind
        if self.sb_i >= 0 and blinds.sb > 0:
            i = self.sb_i
            paid = self._move(i, blinds.sb)
            ev.append(
                Posted(
                    player=self.names[i],
                    kind=PostKind.SMALL_BLIND,
                    amount=paid,
                    allin=self.allin[i],
                    rule=p.cite("dead_button"),
                )
            )
        i = self.bb_i
        paid = self._move(i, self.bb)
        ev.append(
            Posted(
                player=self.names[i],
                kind=PostKind.BIG_BLIND,
                amount=paid,
                allin=self.allin[i],
                rule=p.cite("short_bb") if paid < self.bb else "",
            )
        )
        if bb_ante and p.bb_ante_priority is AntePriority.BLIND:
            self._post_bb_ante(bb_ante, ante_rule)  # fpc 6-1: the big blind first
        # cdc 9.7: the big blind is a bet even when short; the call stays one big blind
        self.cb = self.bb
        self.last_full_inc = self.bb
        for i in range(self.n):
            if self.dead[i]:
                ev.append(DeadHand(player=self.names[i], rule=p.cite("dead_hand")))
            else:
                ev.append(HoleDealt(player=self.names[i], cards=self.hole[i]))
        self._start_round(first=self._clockwise_from_seat(self.seat_of[self.bb_i]))

    def _post_bb_ante(self, amount: int, rule: str) -> None:
        i = self.bb_i
        if self.stack[i] == 0:
            return
        paid = self._post_ante_dead(i, amount)
        self.events.append(
            Posted(
                player=self.names[i],
                kind=PostKind.ANTE,
                amount=paid,
                allin=self.allin[i],
                rule=rule,
            )
        )

    # ------------------------------------------------------------------ queries

    def min_to(self) -> int:
        """Smallest legal bet or raise-to total in the current round (before stack limits)."""
        if self.cb == 0:
            return self.bb  # cdc 9.6, ligue 6.2, fpc 18-9: a bet is at least the big blind
        if self.profile.min_raise is MinRaise.DOUBLE:
            return max(2 * self.cb, self.cb + self.bb)  # ligue 6.4, casino "fausse relance"
        return self.cb + self.last_full_inc  # tda 43, cdc 9.6, fpc 18-11

    def others_can_act(self, i: int) -> bool:
        able = self.n_able
        if not self.folded[i] and not self.allin[i]:
            able -= 1
        return able > 0

    def blocked(self, i: int) -> bool:
        """cdc 9.21, tda 44, fpc 18-15: a player who has acted may re-raise only if facing a
        full raise since (cumulative short all-ins count)."""
        return self.acted[i] and self.cb < self.reopen_at[i]

    def raise_callable(self, i: int) -> bool:
        """Some opponent could put in more than the current bet: a raise can be called."""
        cb, committed, stack, folded, allin = (
            self.cb,
            self.committed,
            self.stack,
            self.folded,
            self.allin,
        )
        return any(
            j != i and not folded[j] and not allin[j] and committed[j] + stack[j] > cb
            for j in range(self.n)
        )

    def can_raise(self, i: int) -> bool:
        return (
            self.committed[i] + self.stack[i] > self.cb
            and not self.no_raise[i]
            and not self.blocked(i)
            and self.raise_callable(i)
        )

    def live(self) -> list[int]:
        return [i for i in range(self.n) if not self.folded[i]]

    def _needs(self, i: int) -> bool:
        if self.folded[i] or self.allin[i]:
            return False
        if self.committed[i] >= self.cb:
            if self.acted[i]:
                return False
            if not self.others_can_act(i):
                return False  # nobody left to bet against, nothing to call
        return True

    def menu(self) -> Menu | None:
        """The legal choices of the player to act, or None if no betting action is awaited."""
        if self.phase is not Phase.BETTING or self.to_act < 0:
            return None
        i = self.to_act
        committed = self.committed[i]
        stack = self.stack[i]
        facing = self.cb - committed
        if facing < 0:
            facing = 0
        allin_to = committed + stack
        pending_amount = self.pending_raise == i
        can_raise = pending_amount or self.can_raise(i)
        pending = None
        if pending_amount:
            pending = "amount"
        elif self.no_raise[i]:
            pending = "call_or_fold"
        if can_raise:
            min_to = self.min_to()
            min_raise_to: int | None = min_to if min_to < allin_to else allin_to
            max_raise_to: int | None = allin_to
        else:
            min_raise_to = max_raise_to = None
        return Menu(
            player=self.names[i],
            call=facing if facing < stack else stack,
            can_check=facing == 0 and not pending_amount,
            can_fold=not pending_amount and (facing > 0 or self.open_fold_binding),
            can_raise=can_raise,
            min_raise_to=min_raise_to,
            max_raise_to=max_raise_to,
            pending=pending,
        )

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    def stacks(self) -> dict[str, int]:
        """Chips behind each player (after the pots are awarded once finished)."""
        return dict(zip(self.names, self.stack, strict=True))

    def pot_total(self) -> int:
        return sum(self.contrib) + self.dead_money

    def pots(self) -> list[PotView]:
        """Main pot first, then side pots; awarded pots carry their winners."""
        if self.awarded:
            return list(self.awarded)
        return [
            PotView(amount=a, eligible=tuple(self.names[i] for i in e))
            for a, e in self._layers(view=True)
        ]

    def _layers(self, view: bool = False) -> list[tuple[int, list[int]]]:
        """Pots from contributions: one layer per all-in level, merged when the eligible
        players are the same (cdc 10.7, tda 20). Button/BB antes are dead money in the main
        pot (cdc 4.2: any all-in can win the whole ante). A live player who is not all-in
        can win every layer (folded chips are dead money); a layer that no live player can
        win goes back to those who put it in (cdc 4.2 ex. 2.1: the SB's surplus over a BB
        all-in for less), see :attr:`unwinnable`."""
        contrib, folded, allin = self.contrib, self.folded, self.allin
        live = [i for i in range(self.n) if not folded[i]]
        self.unwinnable = [0] * self.n
        top = max(contrib)
        if top == 0 and not self.dead_money:
            return []
        # the common case: nobody all-in for less, one pot for the live players
        if all(contrib[i] == top for i in live) and (
            not view or sum(1 for c in contrib if c > 0) != 1
        ):
            return [(sum(contrib) + self.dead_money, live)]
        levels = sorted({c for c in contrib if c > 0})
        pots: list[tuple[int, list[int]]] = []
        if self.dead_money:
            # cdc 4.2, 9.7: a button or BB ante is dead money that any live hand can win,
            # even one all-in for the ante alone
            pots.append((self.dead_money, live))
        prev = 0
        for level in levels:
            amount = 0
            parts: list[tuple[int, int]] = []
            for i, c in enumerate(contrib):
                if c > prev:
                    part = min(c, level) - prev
                    amount += part
                    parts.append((i, part))
            eligible = [i for i in live if contrib[i] >= level or not allin[i]]
            prev = level
            if view and len(parts) == 1:
                continue  # a bet not called (yet) is not a pot
            if not eligible:
                for i, part in parts:
                    self.unwinnable[i] += part
                continue
            if pots and pots[-1][1] == eligible:
                pots[-1] = (pots[-1][0] + amount, eligible)
            else:
                pots.append((amount, eligible))
        return pots

    # ------------------------------------------------------------------ commands

    def act(self, command: Act) -> list[Event]:
        """Apply one gesture (declaration and/or chips). Raises RuleError, changing nothing."""
        if self.phase in (Phase.FINISHED, Phase.CANCELLED):
            raise RuleError(ErrorCode.HAND_OVER, "the hand is over")
        i = self.index.get(command.player, -1)
        if i < 0:
            raise RuleError(ErrorCode.UNKNOWN_PLAYER, f"no player {command.player!r} in this hand")
        if self.phase is not Phase.BETTING:
            raise RuleError(ErrorCode.NOT_BETTING, "no betting round in progress")
        self.check_gesture(i, command.say, command.chips)
        mark = len(self.events)
        if i != self.to_act:
            if self.pending_raise >= 0:
                raise RuleError(
                    ErrorCode.PENDING_DECLARATION,
                    f"{self.names[self.pending_raise]} announced a raise: wait for the amount",
                    self.profile.cite("pending"),
                )
            if self.last_motion == i:
                raise RuleError(
                    ErrorCode.STRING_BET,
                    "a second motion in the same turn does not count",
                    self.profile.cite("string_bet"),
                )
            if self.folded[i] or self.allin[i]:
                raise RuleError(ErrorCode.NOT_IN_HAND, "this player cannot act in this hand")
            self._record_oot(i, command)
        else:
            if self.pending_raise == i:
                decision = self.complete_pending(i, command.say, command.chips)
            else:
                decision = self.interpret(i, command.say, command.chips)
            self.last_motion = -1
            self._apply(i, decision)
        return self.events[mark:]

    def show(self, command: Show) -> list[Event]:
        i = self._showdown_player(command.player)
        if self.phase is Phase.FINISHED:
            if i in self.shown:
                return []
            if len(self.live()) != 1 or self.folded[i]:
                raise RuleError(ErrorCode.NOT_SHOWDOWN, "only the uncontested winner may show now")
            mark = len(self.events)
            self._show(i)  # cdc 10.1: a winner without a call may show
            return self.events[mark:]
        mark = len(self.events)
        self._show(i)
        self._maybe_award()
        return self.events[mark:]

    def muck(self, command: Muck) -> list[Event]:
        i = self._showdown_player(command.player)
        if self.phase is Phase.FINISHED:
            raise RuleError(ErrorCode.HAND_OVER, "the hand is over")
        if i in self.shown or self.face_up:
            raise RuleError(
                ErrorCode.MUST_SHOW, "this hand is face up (all-in)", self.profile.cite("face_up")
            )
        if self.river_bet and i == self.showdown_first:
            raise RuleError(
                ErrorCode.MUST_SHOW, "a called bettor shows first", self.profile.cite("must_show")
            )
        if sum(1 for j in self.live() if j not in self.mucked) <= 1:
            raise RuleError(ErrorCode.MUST_SHOW, "the last hand in the pot cannot be mucked")
        mark = len(self.events)
        self.mucked.add(i)
        self.events.append(Mucked(player=self.names[i]))
        self._maybe_award()
        return self.events[mark:]

    def auto_showdown(self) -> list[Event]:
        """Decide the remaining showdown in order: show a hand that can still win a pot it
        is in, muck the others (what an online table does when the showdown clock ends)."""
        if self.phase is not Phase.SHOWDOWN:
            return []
        mark = len(self.events)
        pots = [eligible for _, eligible in self._final_layers()]
        best = [max((self._value(j) for j in e if j in self.shown), default=-1) for e in pots]
        remaining = sum(1 for j in self.live() if j not in self.mucked)
        for i in self.showdown_order:
            if i in self.shown or i in self.mucked:
                continue
            value = self._value(i)
            mine = [k for k, e in enumerate(pots) if i in e]
            can_win = any(value >= best[k] for k in mine)
            must = (self.river_bet and i == self.showdown_first) or remaining == 1
            if can_win or must:
                self._show(i)
                for k in mine:
                    best[k] = max(best[k], value)
            else:
                self.mucked.add(i)
                remaining -= 1
                self.events.append(Mucked(player=self.names[i]))
        self._maybe_award()
        return self.events[mark:]

    def timeout(self, player: str, dead: bool = False) -> list[Event]:
        """The action clock of the player to act ran out. ``dead=False``: check if free, else
        fold (ONLINE_RULES: a disconnection does not fold by itself, the clock does);
        ``dead=True``: the Time called on the player expired, the hand is dead (cdc 3.5,
        tda 27) even where folding facing a check is otherwise refused."""
        i = self.index.get(player, -1)
        if self.phase is not Phase.BETTING or i < 0 or i != self.to_act:
            raise RuleError(ErrorCode.NOT_BETTING, "this player is not the one to act")
        mark = len(self.events)
        self.pending_raise = -1 if self.pending_raise == i else self.pending_raise
        self.no_raise[i] = False
        self.last_motion = -1
        if not dead and self.cb <= self.committed[i]:
            self._apply(i, Decision(Kind.CHECK, note="clock expired: check"))
        else:
            note = "Time expired: dead hand" if dead else "clock expired: fold"
            self._apply(i, Decision(Kind.FOLD, rule=self.profile.cite("dead_hand"), note=note))
        return self.events[mark:]

    def cancel(self) -> list[Event]:
        """Cancel the hand and return every chip posted or bet (cdc 5.4)."""
        if self.phase in (Phase.FINISHED, Phase.CANCELLED):
            raise RuleError(ErrorCode.HAND_OVER, "the hand is over")
        self.stack = list(self.start)
        self.committed = [0] * self.n
        self.contrib = [0] * self.n
        self.dead_money = 0
        self.phase = Phase.CANCELLED
        self.to_act = -1
        event = HandCancelled(
            stacks=tuple(zip(self.names, self.stack, strict=True)), rule=self.profile.cite("cancel")
        )
        self.events.append(event)
        return [event]

    # ------------------------------------------------------------------ applying

    def _record_oot(self, i: int, command: Act) -> None:
        p = self.profile
        say = command.say
        if say is not None and say.verb == "fold":
            if self.cb <= self.committed[i] and p.open_fold is OpenFold.REFUSED:
                raise RuleError(
                    ErrorCode.FOLD_WHEN_CHECK,
                    "folding while a check is possible",
                    p.cite("open_fold"),
                )
            # cdc 9.3, tda 40-A: a fold out of turn binds at once
            self.events.append(
                OutOfTurn(
                    player=self.names[i],
                    status="bound",
                    rule=p.cite("oot"),
                    note="fold out of turn binds",
                )
            )
            self.last_motion = -1
            self._apply(i, Decision(Kind.FOLD, rule=p.cite("oot")), advance_turn=False)
            return
        if i in self.oot:
            raise RuleError(
                ErrorCode.DECLARATION_BINDS,
                "an out-of-turn declaration is already recorded",
                p.cite("oot"),
            )
        self.oot[i] = OotRecord(say=say, chips=command.chips, cb=self.cb)
        self.last_motion = -1
        self.events.append(
            OutOfTurn(
                player=self.names[i],
                status="recorded",
                rule=p.cite("oot"),
                note="out of turn: binds if the action has not changed",
            )
        )

    def _apply(self, i: int, d: Decision, advance_turn: bool = True) -> None:
        kind = d.kind
        committed = self.committed
        added = 0
        if kind is Kind.CALL:
            added = self._move(i, self.cb - committed[i])
            action = "allin" if self.allin[i] else "call"
        elif kind is Kind.CHECK:
            action = "check"
        elif kind is Kind.RAISE:
            before = self.cb
            added = self._move(i, d.to - committed[i])
            to = committed[i]
            # increment rule: a full raise sets the new increment (tda 43); a short all-in
            # does not (cdc 9.8). Double rule: min_to() derives from the new bet alone.
            if to - before >= self.last_full_inc and self.profile.min_raise is MinRaise.INCREMENT:
                self.last_full_inc = to - before
            self.cb = to
            self.round_aggressor = i
            if self.street is Street.RIVER:
                self.river_bet = True
            action = "allin" if self.allin[i] else ("bet" if before == 0 else "raise")
        elif kind is Kind.FOLD:
            self.folded[i] = True
            self.n_live -= 1
            if not self.allin[i]:
                self.n_able -= 1
            action = "fold"
        else:
            if not self._apply_pending(i, d):
                return
            added = self._commit_added  # the chip was all the player had: all-in call
            action = "allin"
        self.events.append(
            Acted(
                player=self.names[i],
                action=action,
                to=committed[i],
                added=added,
                allin=self.allin[i],
                rule=d.rule,
                note=d.note,
            )
        )
        self.acted[i] = True
        self.no_raise[i] = False
        if self.pending_raise == i:
            self.pending_raise = -1
        self.reopen_at[i] = self.min_to()
        if advance_turn:
            self.last_motion = i
            self._advance(i)
        elif self.n_live == 1:
            self._finish_uncontested()

    def _apply_pending(self, i: int, d: Decision) -> bool:
        """Apply a pending decision. True if it turned into a complete all-in call."""
        name = self.names[i]
        if d.kind is Kind.PEND_RAISE:
            self.pending_raise = i
            self.events.append(
                Pending(player=name, reason="amount", added=0, rule=d.rule, note=d.note)
            )
            return False
        if d.kind is Kind.PEND_CHECK:
            self.no_raise[i] = True
            self.events.append(
                Pending(player=name, reason="call_or_fold", added=0, rule=d.rule, note=d.note)
            )
            return False
        # PEND_COMMIT: the undersized chip goes in (cdc 9.12)
        added = self._move(i, d.to - self.committed[i])
        self.no_raise[i] = True
        if self.allin[i]:
            self._commit_added = added
            return True
        self.events.append(
            Pending(player=name, reason="call_or_fold", added=added, rule=d.rule, note=d.note)
        )
        return False

    def _advance(self, i: int) -> None:
        if self.n_live == 1:
            self._finish_uncontested()
            return
        n = self.n
        folded, allin, committed, acted = self.folded, self.allin, self.committed, self.acted
        cb = self.cb
        for k in range(1, n + 1):
            j = (i + k) % n
            if folded[j] or allin[j]:
                continue
            if committed[j] >= cb and (acted[j] or not self.others_can_act(j)):
                continue
            self.to_act = j
            if j in self.oot:
                self._resolve_oot(j)
            return
        self._close_round()

    def _resolve_oot(self, j: int) -> None:
        record = self.oot.pop(j)
        outcome = self.resolve_oot(j, record)
        name = self.names[j]
        rule = self.profile.cite("oot")
        if outcome.decision is None:
            self.events.append(
                OutOfTurn(player=name, status=outcome.status, rule=rule, note=outcome.note)
            )
            if outcome.commit:
                self._move(j, outcome.commit)
            if outcome.no_raise:
                self.no_raise[j] = True
            return
        self.events.append(OutOfTurn(player=name, status="bound", rule=rule, note=outcome.note))
        self._apply(j, outcome.decision)

    def _return_uncalled(self) -> None:
        committed = self.committed
        top = max(committed)
        if top == 0:
            return
        holders = [i for i in range(self.n) if committed[i] == top]
        if len(holders) != 1:
            return
        i = holders[0]
        if self.folded[i]:
            # folded chips are dead money: a live player who is not all-in wins them; what no
            # live player can win goes back through the layers (Hand.unwinnable)
            return
        second = max((c for j, c in enumerate(committed) if j != i), default=0)
        excess = top - second
        if excess <= 0:
            return
        committed[i] -= excess
        self.contrib[i] -= excess
        self.stack[i] += excess
        if self.allin[i]:
            self.allin[i] = False
            self.n_able += 1
        self.events.append(Returned(player=self.names[i], amount=excess))

    def _close_round(self) -> None:
        self._return_uncalled()
        for j in list(self.oot):
            self.events.append(
                OutOfTurn(
                    player=self.names[j],
                    status="discarded",
                    rule=self.profile.cite("oot"),
                    note="the round ended before this player's turn",
                )
            )
        self.oot.clear()
        if self.n_able <= 1:
            # tda 15 ex. 1, cdc 10.4: the hands are opened now, before the next card is dealt
            self._turn_face_up()
        if self.street is Street.RIVER:
            self._start_showdown()
            return
        self.street = Street(self.street + 1)
        if self.street is Street.FLOP:
            dealt = self.board_cards[0:3]
        else:
            dealt = self.board_cards[self.street + 1 : self.street + 2]
        self.board.extend(dealt)
        self.events.append(BoardDealt(street=STREET_NAMES[self.street], cards=tuple(dealt)))
        self.committed = [0] * self.n
        self.acted = [False] * self.n
        self.no_raise = [False] * self.n
        self.cb = 0
        self.last_full_inc = self.bb
        self.round_aggressor = -1
        self.last_motion = -1
        self._start_round(first=self.after_button)

    def _start_round(self, first: list[int]) -> None:
        if self.n_live == 1:
            self._finish_uncontested()
            return
        if self.n_able <= 1:
            self._turn_face_up()
        for j in first:
            if self._needs(j):
                self.to_act = j
                return
        self.to_act = -1
        self._close_round()

    def _turn_face_up(self) -> None:
        """cdc 10.4, tda 15: all-in and no more betting possible: every live hand face up."""
        if self.face_up:
            return
        live = self.live()
        if len(live) < 2:
            return
        self.face_up = True
        self.events.append(
            FaceUp(
                hands=tuple((self.names[i], self.hole[i]) for i in live),
                rule=self.profile.cite("face_up"),
            )
        )
        self.shown.update(live)

    # ------------------------------------------------------------------ showdown

    def _showdown_player(self, player: str) -> int:
        i = self.index.get(player, -1)
        if i < 0:
            raise RuleError(ErrorCode.UNKNOWN_PLAYER, f"no player {player!r} in this hand")
        if self.phase is Phase.CANCELLED:
            raise RuleError(ErrorCode.HAND_OVER, "the hand was cancelled")
        if self.phase is Phase.BETTING:
            raise RuleError(
                ErrorCode.NOT_SHOWDOWN,
                "no showing while betting is possible",
                self.profile.cite("face_up"),
            )
        if self.folded[i] and self.phase is Phase.SHOWDOWN:
            raise RuleError(ErrorCode.NOT_IN_HAND, "a folded hand is never shown")
        return i

    def _start_showdown(self) -> None:
        self.phase = Phase.SHOWDOWN
        self.to_act = -1
        live = self.live()
        if self.round_aggressor >= 0 and not self.folded[self.round_aggressor]:
            first = self.round_aggressor  # cdc 10.5, tda 16: the last aggressor shows first
            order = [(first + k) % self.n for k in range(self.n)]
        else:
            order = self.after_button
        self.showdown_order = [i for i in order if i in live]
        self.showdown_first = self.showdown_order[0]
        if not self.face_up and any(self.allin[i] for i in live):
            mode = self.profile.allin_showdown
            if mode is AllinShowdown.ALL:
                self._turn_face_up()  # tda 15: every hand tabled, none mucked
            elif mode is AllinShowdown.ALLIN:
                for i in self.showdown_order:
                    if self.allin[i]:
                        self._show(i)  # fpc 19-11
        if self.face_up:
            for i in self.showdown_order:
                self.events.append(
                    Shown(
                        player=self.names[i],
                        cards=self.hole[i],
                        hand=_cards.hand_type(self._value(i)),
                    )
                )
        self._maybe_award()

    def _value(self, i: int) -> int:
        value = self._values.get(i)
        if value is None:
            value = self._values[i] = _cards.evaluate_with(self.hole[i], self._board_eval)
        return value

    def _show(self, i: int) -> None:
        if i in self.shown and self.phase is not Phase.FINISHED:
            return
        self.shown.add(i)
        self.mucked.discard(i)
        self.events.append(
            Shown(player=self.names[i], cards=self.hole[i], hand=_cards.hand_type(self._value(i)))
        )

    def _maybe_award(self) -> None:
        if self.phase is not Phase.SHOWDOWN:
            return
        contenders = [i for i in self.live() if i not in self.mucked]
        if len(contenders) > 1 and any(i not in self.shown for i in contenders):
            return
        self._award(contenders)

    def _finish_uncontested(self) -> None:
        self._return_uncalled()
        self.oot.clear()
        self._award(self.live())

    def _final_layers(self) -> list[tuple[int, list[int]]]:
        """The pots once betting is over (contributions no longer change): computed once."""
        if self._final_pots is None:
            self._final_pots = self._layers()
        return self._final_pots

    def _award(self, contenders: list[int]) -> None:
        pots = self._final_layers()
        for i, amount in enumerate(self.unwinnable):
            if amount:
                self.stack[i] += amount
                self.events.append(Returned(player=self.names[i], amount=amount))
        rank = {i: k for k, i in enumerate(self.after_button)}
        unit = self.denominations[0]
        views: list[PotView] = [PotView(amount=0, eligible=())] * len(pots)
        # cdc 10.7, tda 20: each pot separately, the outermost first
        for index in range(len(pots) - 1, -1, -1):
            amount, eligible = pots[index]
            field = [i for i in eligible if i in contenders] or eligible
            if len(field) == 1:
                winners = field
            else:
                best = max(self._value(i) for i in field)
                winners = [i for i in field if self._value(i) == best]
            winners.sort(key=rank.__getitem__)
            shares = _split(amount, len(winners), unit)
            for w, share in zip(winners, shares, strict=True):
                self.stack[w] += share
            views[index] = PotView(
                amount=amount,
                eligible=tuple(self.names[i] for i in eligible),
                winners=tuple(self.names[i] for i in winners),
            )
            self.events.append(
                PotAwarded(
                    index=index,
                    amount=amount,
                    eligible=views[index].eligible,
                    winners=views[index].winners,
                    shares=tuple((self.names[w], s) for w, s in zip(winners, shares, strict=True)),
                    rule=self.profile.cite("odd_chip") if len(winners) > 1 else "",
                )
            )
        self.awarded = views
        self.committed = [0] * self.n
        self.phase = Phase.FINISHED
        self.to_act = -1
        busted = sorted(
            (i for i in range(self.n) if self.stack[i] == 0), key=lambda i: -self.start[i]
        )
        self.events.append(
            HandEnded(
                stacks=tuple(zip(self.names, self.stack, strict=True)),
                busted=tuple((self.names[i], self.start[i]) for i in busted),
            )
        )


def _split(amount: int, k: int, unit: int) -> list[int]:
    """Split a pot among k winners in whole chips of the smallest denomination; the odd
    chips go one each to the winners nearest the button's left (cdc 10.8, tda 19)."""
    units, rest = divmod(amount, unit)
    base, extra = divmod(units, k)
    shares = [base * unit + (unit if n < extra else 0) for n in range(k)]
    shares[0] += rest
    return shares
