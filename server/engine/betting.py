"""The betting of a hand: whose turn, what may be done, and doing it.

A layer of :class:`~server.engine.hand.Hand` over the showdown (:mod:`.showdown`), state in
:class:`~server.engine.state.HandState`: the legal choices of the player to act, gestures in
turn and out of turn (what a gesture becomes is asked of an
:class:`~server.engine.interpret.Interpreter` reading the round), the chips moved into the
round, the turn passed on and the round closed: the next street dealt, the draw begun
(five-card draw, :class:`~server.engine.draw.DrawRound`), the runs of the board decided
(:class:`~server.engine.runs.BoardRuns`), or the showdown begun.
"""

from __future__ import annotations

from . import cards as _cards
from .commands import Act
from .errors import ErrorCode, RuleError
from .events import Acted, BoardDealt, Event, OutOfTurn, Pending, RunRanked, RunsChosen
from .interpret import Decision, Interpreter, Kind, OotRecord
from .profile import MinRaise, OpenFold
from .runs import RULE_MULTI_BORDES
from .showdown import Showdown
from .state import STREET_NAMES, Menu, Phase, Street

__all__ = ["Betting"]


class Betting(Showdown):
    """The betting rounds (cdc 9, tda 36-53)."""

    _commit_added: int

    # ------------------------------------------------------------------ queries

    def min_to(self) -> int:
        """Smallest legal bet or raise-to total in the current round (before stack limits)."""
        if self.cb == 0:
            return self.bb  # cdc 9.6, ligue 6.2, fpc 18-9: a bet is at least the big blind
        if self.profile.min_raise is MinRaise.DOUBLE:
            return max(2 * self.cb, self.cb + self.bb)  # ligue 6.4, casino "fausse relance"
        return self.cb + self.last_full_inc  # tda 43, cdc 9.6, fpc 18-11

    def max_to(self, i: int) -> int:
        """Largest legal bet or raise-to total of player i: his whole stack in no limit; in
        pot limit the current bet plus the pot after his call (every chip in the hand, the
        call included), at least the smallest raise, capped by his stack."""
        allin_to = self.committed[i] + self.stack[i]
        if not self.pot_limit:
            return allin_to
        pot = 2 * self.cb - self.committed[i] + sum(self.contrib) + self.dead_money
        most = max(self.min_to(), pot)
        return most if most < allin_to else allin_to

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
        if self.pending_bet == i:
            return self._short_bet_menu(i)
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
            max_raise_to: int | None = self.max_to(i) if self.pot_limit else allin_to
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

    def _short_bet_menu(self, i: int) -> Menu:
        """ligue 6 intro, no bet to face: chips below the big blind are in; the only choices
        are the bet brought up to the big blind (or all-in for less) and the fold."""
        target = Interpreter(self).short_bet(i).target
        return Menu(
            player=self.names[i],
            call=0,
            can_check=False,
            can_fold=True,
            can_raise=True,
            min_raise_to=target,
            max_raise_to=target,
            pending="call_or_fold",
        )

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
        # what a gesture becomes is asked of an interpreter reading this hand (made here: it
        # holds nothing but the hand, so a copy of the hand never reads another)
        interpreter = Interpreter(self)
        interpreter.check_gesture(i, command.say, command.chips)
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
                decision = interpreter.complete_pending(i, command.say, command.chips)
            else:
                decision = interpreter.interpret(i, command.say, command.chips)
            self.last_motion = -1
            self._apply(i, decision)
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
        short_bet = self.pending_bet == i  # ligue 6 intro: no check, his chips stay in
        if not dead and self.cb <= self.committed[i] and not short_bet:
            self._apply(i, Decision(Kind.CHECK, note="clock expired: check"))
        else:
            note = "Time expired: dead hand" if dead else "clock expired: fold"
            self._apply(i, Decision(Kind.FOLD, rule=self.profile.cite("dead_hand"), note=note))
        return self.events[mark:]

    # ------------------------------------------------------------------ chips

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
        self.oot[i] = OotRecord(say=say, chips=command.chips, cb=self.cb, pot=sum(self.contrib))
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
            added, action = self._raise(i, d.to)
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
                out_of_turn=not advance_turn,
            )
        )
        self.acted[i] = True
        self._clear_pending(i)
        self.reopen_at[i] = self.min_to()
        if advance_turn:
            self.last_motion = i
            self._advance(i)
        elif self.n_live == 1:
            self._finish_uncontested()

    def _clear_pending(self, i: int) -> None:
        """Player i has acted: nothing of his is pending any more."""
        self.no_raise[i] = False
        if self.pending_raise == i:
            self.pending_raise = -1
        if self.pending_bet == i:
            self.pending_bet = -1

    def _raise(self, i: int, to: int) -> tuple[int, str]:
        """Player i bets or raises to ``to`` (the chips he has at most): the new bet of the
        round. Returns the chips added and the action."""
        committed = self.committed
        before = self.cb
        added = self._move(i, to - committed[i])
        to = committed[i]
        # increment rule: a full raise sets the new increment (tda 43); a short all-in
        # does not (cdc 9.8). Double rule: min_to() derives from the new bet alone.
        if to - before >= self.last_full_inc and self.profile.min_raise is MinRaise.INCREMENT:
            self.last_full_inc = to - before
        self.cb = to
        self.round_aggressor = i
        if self.street is self.last_street:
            self.river_bet = True
        return added, "allin" if self.allin[i] else ("bet" if before == 0 else "raise")

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
        # PEND_COMMIT: the undersized chip goes in (cdc 9.12); PEND_BET: chips below the big
        # blind with no bet to face go in (ligue 6 intro; never all-in: that is a bet)
        added = self._move(i, d.to - self.committed[i])
        if d.kind is Kind.PEND_BET:
            self.pending_bet = i
            self.events.append(
                Pending(player=name, reason="call_or_fold", added=added, rule=d.rule, note=d.note)
            )
            return False
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
        outcome = Interpreter(self).resolve_oot(j, record)
        name = self.names[j]
        rule = self.profile.cite("oot")
        if outcome.decision is None:
            self.events.append(
                OutOfTurn(player=name, status=outcome.status, rule=rule, note=outcome.note)
            )
            if outcome.no_raise:
                self.no_raise[j] = True
            if outcome.commit:
                # casino/tour-de-parole: what was pushed or announced goes in, as an undersized
                # chip does (a Pending event with the chips, or an all-in call if it is all)
                to = self.committed[j] + outcome.commit
                note = "committed out of turn: call or fold"
                self._apply(j, Decision(Kind.PEND_COMMIT, to=to, rule=rule, note=note))
            return
        self.events.append(OutOfTurn(player=name, status="bound", rule=rule, note=outcome.note))
        self._apply(j, outcome.decision)

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
        if self._open_runs():
            return  # run it twice: the players' agreement first (.runs)
        self._deal_next()

    def _deal_next(self) -> None:
        """The round is closed: the next street (five-card draw: the draw), or the other
        runs and the showdown."""
        if self.street is self.last_street:
            if self._runs.count > 1:
                self._deal_runs()  # fpc multi-bordes: the other runs after run 1's river
            self._start_showdown()
            return
        if self.drawing is not None:
            self._begin_draw()
            return
        self.street = Street(self.street + 1)
        if self.street is Street.FLOP:
            dealt = self.board_cards[0:3]
        else:
            dealt = self.board_cards[self.street + 1 : self.street + 2]
        self.board.extend(dealt)
        self.events.append(BoardDealt(street=STREET_NAMES[self.street], cards=tuple(dealt)))
        self._next_round()

    def _begin_draw(self) -> None:
        """The first betting round of a draw hand is over: every player still in the hand,
        all-in players included, draws in turn from the first one left of the button."""
        assert self.drawing is not None
        self.phase = Phase.DRAW
        self.to_act = -1
        self.drawing.open([i for i in self.after_button if not self.folded[i]])

    def _open_runs(self) -> bool:
        """A betting round has closed (uncalled chips returned, hands face up): decide the
        runs when the condition holds. True when the hand now waits for the players."""
        if not self._runs.due(in_pot=self.n_live, able=self.n_able, street=self.street):
            return False
        runs = self._runs = self._runs.begin(self.street)
        if not runs.agreed:
            self._runs, chosen = runs.choose(runs.most, RULE_MULTI_BORDES, "")
            self.events.append(chosen)
            return False
        self.phase = Phase.RUNS
        self.to_act = -1
        self.events.append(runs.offer(tuple(self.names[i] for i in self.live())))
        return True

    def _end_wait(self, chosen: RunsChosen) -> None:
        """The players' answers (or the clock) decided the runs: the board is dealt on."""
        self.events.append(chosen)
        self.phase = Phase.BETTING
        self._deal_next()

    def _deal_runs(self) -> None:
        """Run 1's river is out: deal the other runs, street by street, then rank every run
        (the hands are face up: betting ended with an all-in, cdc 10.4)."""
        runs = self._runs
        self.events.extend(runs.dealt())
        live = self.live()
        for run in range(1, runs.count + 1):
            self.events.append(
                RunRanked(
                    run=run,
                    board=runs.board_of(run),
                    hands=tuple(
                        (self.names[i], _cards.hand_type(self._run_value(i, run))) for i in live
                    ),
                )
            )

    def _next_round(self) -> None:
        """A new betting round on :attr:`street` (after a street is dealt, or the draw)."""
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
