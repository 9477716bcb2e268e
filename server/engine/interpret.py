"""The declaration / chips interpreter: what a gesture becomes under a profile's rules.

Two input channels, as at a live table: what the player *says* (:class:`Say`) and the chips
they *push* in one motion. The :class:`Interpreter` only reads the round, through
:class:`RoundView`, and returns a :class:`Decision` (or raises :class:`RuleError`);
:class:`~server.engine.hand.Hand` applies it. It owns no state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .commands import Form, Say, Verb
from .decision import Decision, Kind
from .errors import ErrorCode, RuleError
from .profile import (
    Abbreviated,
    AmountOnlyUndercall,
    MultipleChips,
    OpenFold,
    OutOfTurn,
    PlusForm,
    PotDeclaration,
    Profile,
    ShortDeclaredRaise,
    SilentUnderbet,
    SingleChipRaise,
    UndersizedChip,
)
from .raises import ShortRaise, judge_short_raise
from .shortbet import ShortBet, answer_short_bet, commit_short_bet

__all__ = ["Decision", "Interpreter", "Kind", "OotOutcome", "OotRecord", "RoundView"]

MAX_CHIPS_PER_MOTION = 200
RULE_POT_LIMIT = "pot-limit"
"""The citation of the pot-limit ceiling (a table's structure; no rulebook plays it)."""


@dataclass(frozen=True, slots=True)
class OotRecord:
    say: Say | None
    chips: tuple[int, ...] | None
    cb: int
    """The bet to match when the gesture was made: if it changed, the action changed."""
    pot: int = 0
    """The chips bet in the hand when the gesture was made: if they grew while the bet to
    match stayed, someone called (ligue 6.14: « gage un montant moindre ou égale »)."""


@dataclass(frozen=True, slots=True)
class OotOutcome:
    decision: Decision | None
    status: str = "released"
    note: str = ""
    no_raise: bool = False
    commit: int = 0


_RAISE_VERBS = (Verb.BET, Verb.RAISE, Verb.POT)


def _check_say(say: Say) -> None:
    if not isinstance(say.verb, Verb):
        raise RuleError(ErrorCode.BAD_VERB, f"unknown verb {say.verb!r}")
    if not isinstance(say.form, Form):
        raise RuleError(ErrorCode.BAD_VERB, f"unknown form {say.form!r}")
    amount = say.amount
    if amount is not None and (
        not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0
    ):
        raise RuleError(ErrorCode.BAD_AMOUNT, "an amount must be a positive integer")
    if say.verb is Verb.AMOUNT and amount is None:
        raise RuleError(ErrorCode.BAD_AMOUNT, "a bare amount needs a number")


class RoundView(Protocol):
    """What the interpreter reads of the betting round, and never changes: the profile's
    rules, the chips in play, the bet to match and the raise rules of the round.
    :class:`~server.engine.hand.Hand` is one."""

    @property
    def profile(self) -> Profile: ...

    @property
    def denominations(self) -> tuple[int, ...]: ...

    @property
    def bb(self) -> int: ...

    @property
    def pot_limit(self) -> bool: ...

    @property
    def stack(self) -> Sequence[int]:
        """Chips behind each player."""

    @property
    def committed(self) -> Sequence[int]:
        """Chips each player put in during the current betting round."""

    @property
    def contrib(self) -> Sequence[int]:
        """Chips each player put in during the whole hand."""

    @property
    def dead_money(self) -> int: ...

    @property
    def cb(self) -> int:
        """The current bet of the round."""

    @property
    def no_raise(self) -> Sequence[bool]:
        """Players who may only call or fold (cdc 9.4, 9.12)."""

    @property
    def pending_bet(self) -> int:
        """The player whose chips below the big blind await a bet or a fold, or -1."""

    def live(self) -> list[int]:
        """The players not folded."""

    def min_to(self) -> int:
        """Smallest legal bet or raise-to total of the round."""

    def max_to(self, i: int) -> int:
        """Largest legal bet or raise-to total of player i."""

    def can_raise(self, i: int) -> bool:
        """Player i may bet or raise now."""

    def raise_callable(self, i: int) -> bool:
        """Some opponent of player i could call a raise."""


class Interpreter:
    """The rules of verbal declarations and chips, over a read-only :class:`RoundView` (see
    the module docstring): it decides, :class:`~server.engine.hand.Hand` applies."""

    __slots__ = ("_view",)

    def __init__(self, view: RoundView) -> None:
        self._view = view

    # ------------------------------------------------------------------ validation

    def check_gesture(self, i: int, say: Say | None, chips: tuple[int, ...] | None) -> None:
        """Refuse malformed gestures (wrong chips, bad amounts) before any rule applies."""
        if say is None and not chips:
            raise RuleError(ErrorCode.EMPTY_GESTURE, "say something or push chips")
        if say is not None:
            _check_say(say)
        if chips:
            self._check_chips(i, chips)

    def _check_chips(self, i: int, chips: tuple[int, ...]) -> None:
        if len(chips) > MAX_CHIPS_PER_MOTION:
            raise RuleError(ErrorCode.BAD_CHIPS, "too many chips in one motion")
        denominations = self._view.denominations
        for chip in chips:
            if chip not in denominations or isinstance(chip, bool):
                raise RuleError(ErrorCode.BAD_CHIPS, f"no chip of value {chip!r} in play")
        if sum(chips) > self._view.stack[i]:
            raise RuleError(ErrorCode.BAD_CHIPS, "more chips than the player has")

    # ------------------------------------------------------------------ amounts

    def amount_to(self, i: int, say: Say) -> int:
        """The total a spoken amount stands for (cdc 9.1, tda 43-B, tda 52, fpc 18-3)."""
        amount = say.amount
        assert amount is not None
        p = self._view.profile
        if say.form is Form.PLUS:
            if p.plus_form is PlusForm.INCREMENT:
                return self._view.cb + amount  # tda 43-B: "plus 4000" = 4000 more
            return amount  # cdc 9.1, fpc 18-3: "plus 4000" = to 4000
        if say.form is Form.ABBREVIATED:
            hundreds, thousands = amount * 100, amount * 1000
            if p.abbreviated is Abbreviated.POT:
                # cdc 9.1: "5" is 5 with chips of 5 in play, else by the size of the pot
                if amount in self._view.denominations:
                    return amount
                pot = sum(self._view.contrib) + self._view.dead_money
                return thousands if pot >= thousands else hundreds
            return hundreds  # tda 52, fpc 18-3: the smallest reading
        return amount

    # ------------------------------------------------------------------ decisions

    def interpret(self, i: int, say: Say | None, chips: tuple[int, ...] | None) -> Decision:
        """What the gesture of the player in turn becomes. Reads state only."""
        decision = self._interpret(i, say, chips)
        return self._within_limit(i, say, decision) if self._view.pot_limit else decision

    def _within_limit(self, i: int, say: Say | None, decision: Decision) -> Decision:
        """Pot limit: a bet or raise above :meth:`max_to` is refused (an amount said or
        pushed); « tapis » or « pot » is a raise to the largest amount (project choice)."""
        if decision.kind is not Kind.RAISE:
            return decision
        most = self._view.max_to(i)
        if decision.to <= most:
            return decision
        if say is not None and say.verb in (Verb.ALLIN, Verb.POT):
            return Decision(
                Kind.RAISE, to=most, rule=RULE_POT_LIMIT, note=f"pot limit: raise to {most}"
            )
        raise RuleError(
            ErrorCode.OVER_POT_LIMIT,
            f"pot limit: {decision.to} is more than the pot allows ({most})",
            RULE_POT_LIMIT,
        )

    def _interpret(self, i: int, say: Say | None, chips: tuple[int, ...] | None) -> Decision:
        if self._view.pending_bet == i:
            return self._after_short_bet(i, say, chips)
        if self._view.no_raise[i]:
            return self._call_or_fold_only(i, say, chips)
        if say is not None:
            return self._declared(i, say, chips)
        assert chips
        return self._silent_chips(i, chips)

    def complete_pending(self, i: int, say: Say | None, chips: tuple[int, ...] | None) -> Decision:
        """The amount of a raise announced without one (cdc 9.4: chips are all the raise)."""
        decision = self._complete_pending(i, say, chips)
        return self._within_limit(i, say, decision) if self._view.pot_limit else decision

    def _complete_pending(self, i: int, say: Say | None, chips: tuple[int, ...] | None) -> Decision:
        p = self._view.profile
        if say is not None and say.verb in (Verb.FOLD, Verb.CHECK, Verb.CALL):
            raise RuleError(
                ErrorCode.DECLARATION_BINDS,
                "a raise was announced: it must be completed",
                p.cite("verbal"),
            )
        if say is not None and say.verb is Verb.ALLIN:
            return self._allin(i, declared=True)
        if say is not None and say.amount is not None:
            return self._declared_to(i, self.amount_to(i, say), p.cite("verbal"))
        if chips:
            return self._declared_to(i, self._declared_chips_to(i, chips), p.cite("verbal"))
        raise RuleError(
            ErrorCode.BAD_AMOUNT, "the amount of the raise is awaited", p.cite("pending")
        )

    def _after_short_bet(self, i: int, say: Say | None, chips: tuple[int, ...] | None) -> Decision:
        """ligue 6 intro, no bet to face: chips below the big blind are in; the big blind is
        now bet, or the player folds (see :mod:`.shortbet`)."""
        said_to = None
        if say is not None and say.amount is not None and say.verb is not Verb.POT:
            said_to = self.amount_to(i, say)
        rule = self._view.profile.cite("silent_underbet")
        return answer_short_bet(self.short_bet(i), say, said_to, sum(chips or ()), rule)

    def _call_or_fold_only(
        self, i: int, say: Say | None, chips: tuple[int, ...] | None
    ) -> Decision:
        p = self._view.profile
        facing = self._view.cb - self._view.committed[i]
        if say is not None:
            if say.verb is Verb.FOLD:
                return Decision(Kind.FOLD)
            if say.verb is Verb.CALL or (say.verb is Verb.ALLIN and self._view.stack[i] <= facing):
                return Decision(Kind.CALL, rule=p.cite("verbal"))
            if say.verb is Verb.CHECK and facing <= 0:
                return Decision(Kind.CHECK)
            raise RuleError(
                ErrorCode.RAISE_NOT_ALLOWED,
                "only call or fold is possible now",
                p.cite("check_facing_bet"),
            )
        # chips: whatever was pushed, the only action left is the call
        return Decision(
            Kind.CALL,
            rule=p.cite("undersized_chip"),
            note="call or fold only: chips taken as a call",
        )

    def _declared(self, i: int, say: Say, chips: tuple[int, ...] | None) -> Decision:
        verb = say.verb
        facing = self._view.cb - self._view.committed[i]
        if verb is Verb.FOLD:
            return self._declared_fold(facing)
        if verb is Verb.CHECK:
            return self._declared_check(facing)
        if verb is Verb.CALL:
            return self._declared_call(i, facing, chips)
        if verb is Verb.ALLIN:
            return self._allin(i, declared=True)
        if verb is Verb.AMOUNT:
            return self._silent_total(i, self.amount_to(i, say), amount_only=True)
        return self._declared_raise(i, say, chips)  # bet / raise / pot

    def _declared_fold(self, facing: int) -> Decision:
        p = self._view.profile
        if facing <= 0:
            if p.open_fold is OpenFold.REFUSED:
                raise RuleError(
                    ErrorCode.FOLD_WHEN_CHECK,
                    "folding is not permitted while a check is possible",
                    p.cite("open_fold"),
                )
            return Decision(
                Kind.FOLD,
                rule=p.cite("open_fold"),
                note="fold when a check was possible: binding, penalised",
            )
        return Decision(Kind.FOLD)

    def _declared_check(self, facing: int) -> Decision:
        if facing <= 0:
            return Decision(Kind.CHECK)
        return Decision(
            Kind.PEND_CHECK,
            rule=self._view.profile.cite("check_facing_bet"),
            note="check facing a bet: call or fold, no raise",
        )

    def _declared_call(self, i: int, facing: int, chips: tuple[int, ...] | None) -> Decision:
        p = self._view.profile
        if facing <= 0:
            return Decision(
                Kind.CHECK,
                rule=p.cite("call_no_bet"),
                note="call with no bet to call is a check",
            )
        note = ""
        if chips and sum(chips) != min(facing, self._view.stack[i]):
            note = "verbal call prevails over the chips pushed"
        return Decision(Kind.CALL, rule=p.cite("verbal") if note else "", note=note)

    def _declared_raise(self, i: int, say: Say, chips: tuple[int, ...] | None) -> Decision:
        """'Bet', 'raise' or 'pot' said, with an amount, with chips, or alone."""
        p = self._view.profile
        verb = say.verb
        pot_limit = self._view.pot_limit
        if verb is Verb.POT and p.pot_declaration is PotDeclaration.VOID and not pot_limit:
            raise RuleError(
                ErrorCode.VOID_DECLARATION,
                "'pot' is not a valid declaration in no-limit: restate",
                p.cite("pot"),
            )
        allin_to = self._view.committed[i] + self._view.stack[i]
        if allin_to <= self._view.cb:
            return Decision(
                Kind.CALL, rule=p.cite("verbal"), note="not enough chips to raise: all-in call"
            )
        if not self._view.raise_callable(i):
            return Decision(
                Kind.CALL, rule=p.cite("verbal"), note="no opponent can call a raise: call"
            )
        if not self._view.can_raise(i):
            raise RuleError(
                ErrorCode.RAISE_NOT_ALLOWED,
                "raise not allowed: the last raise was incomplete",
                p.cite("blocked"),
            )
        if verb is Verb.POT and pot_limit:
            most = self._view.max_to(i)
            return Decision(Kind.RAISE, to=most, rule=RULE_POT_LIMIT, note=f"pot: raise to {most}")
        if verb is not Verb.POT and say.amount is not None:
            rule = {Form.PLUS: p.cite("total"), Form.ABBREVIATED: p.cite("abbreviated")}
            return self._declared_to(i, self.amount_to(i, say), rule.get(say.form, ""))
        if chips:
            return self._declared_to(i, self._declared_chips_to(i, chips), p.cite("verbal"))
        return Decision(
            Kind.PEND_RAISE,
            rule=p.cite("pot") if verb is Verb.POT else p.cite("pending"),
            note="raise announced: amount to follow",
        )

    def _declared_chips_to(self, i: int, chips: tuple[int, ...]) -> int:
        """'Raise' said without amount, with chips: the chips are the whole bet (cdc 9.4/9.5);
        one chip: its value (cdc 9.11, tda 45) or the minimum (fpc 18-2 variant)."""
        if len(chips) == 1 and self._view.profile.single_chip_raise is SingleChipRaise.MIN_RAISE:
            return self._view.min_to()
        return self._view.committed[i] + sum(chips)

    def _allin(self, i: int, declared: bool) -> Decision:
        p = self._view.profile
        allin_to = self._view.committed[i] + self._view.stack[i]
        if allin_to <= self._view.cb:
            return Decision(Kind.CALL, rule=p.cite("allin"))
        if not self._view.raise_callable(i):
            return Decision(
                Kind.CALL, rule=p.cite("allin"), note="no opponent can call a raise: call"
            )
        if not self._view.can_raise(i):
            if declared:
                raise RuleError(
                    ErrorCode.RAISE_NOT_ALLOWED,
                    "raise not allowed: the last raise was incomplete",
                    p.cite("blocked"),
                )
            return Decision(
                Kind.CALL, rule=p.cite("blocked"), note="raise not allowed: call, change returned"
            )
        return Decision(Kind.RAISE, to=allin_to, rule=p.cite("allin"))

    def _declared_to(self, i: int, to: int, rule: str) -> Decision:
        """A declared bet or raise to ``to``. A short bet is completed (cdc 9.10, ligue 6.13);
        a short raise is completed (cdc 9.10, tda 42-C, ligue 6.13, fpc 18-16) or, under
        casino/fausse-relance, judged by the 50 % rule (``short_declared_raise``)."""
        p = self._view.profile
        allin_to = self._view.committed[i] + self._view.stack[i]
        min_to = self._view.min_to()
        if to >= allin_to:
            return Decision(Kind.RAISE, to=allin_to, rule=rule)
        if to >= min_to:
            return Decision(Kind.RAISE, to=to, rule=rule)
        if self._view.cb and p.short_declared_raise is ShortDeclaredRaise.FIFTY:
            c = self._view.committed[i]
            short = ShortRaise(to, self._view.cb, c, min_to, allin_to, declared=True)
            return judge_short_raise(short, p.cite("short_declared_raise"))
        # a short bet is completed (cdc 9.10 underbet); a short raise too, but at casino
        target = min(min_to, allin_to)
        what, cite = ("raise", "short_declared_raise") if self._view.cb else ("bet", "underbet")
        return Decision(
            Kind.RAISE,
            to=target,
            rule=p.cite(cite),
            note=f"declared {what} to {to} is short: completed to {target}",
        )

    def _silent_chips(self, i: int, chips: tuple[int, ...]) -> Decision:
        p = self._view.profile
        pushed = sum(chips)
        c = self._view.committed[i]
        facing = self._view.cb - c
        if pushed == self._view.stack[i]:
            return self._allin(i, declared=False)
        if facing <= 0:
            return self._silent_chips_unopposed(i, pushed)
        if len(chips) == 1:
            chip = chips[0]
            if chip >= facing:
                note = f"single {chip} chip facing {facing}: call"
                if chip > facing:
                    note += f", change {chip - facing} returned"
                return Decision(Kind.CALL, rule=p.cite("single_chip"), note=note)
            return self._undersized_chip(i, chip)
        if pushed < facing:
            if p.undersized_chip is UndersizedChip.COMMIT:
                # ligue art. 6: chips under the bet, silently: match it or fold, chips stay in
                return Decision(
                    Kind.PEND_COMMIT,
                    to=c + pushed,
                    rule=p.cite("undersized_chip"),
                    note=f"{pushed} in chips below the call is committed: call or fold",
                )
            return self._undercall(i, amount_only=False)
        mode = p.multiple_chips
        smallest = min(chips)
        applies = (mode is MultipleChips.IDENTICAL and len(set(chips)) == 1) or (
            mode is MultipleChips.ANY
        )
        if applies and pushed - smallest < facing:
            return Decision(
                Kind.CALL,
                rule=p.cite("multiple_chips"),
                note=f"{len(chips)} chips facing {facing}: removing one leaves "
                f"less than the call: call, change {pushed - facing} returned",
            )
        return self._silent_total(i, c + pushed)

    def short_bet(self, i: int) -> ShortBet:
        """Player i's chips below the big blind with no bet to face (ligue 6 intro)."""
        view = self._view
        committed = view.committed[i]
        return ShortBet(committed, committed + view.stack[i], view.bb)

    def _silent_chips_unopposed(self, i: int, pushed: int) -> Decision:
        """Chips pushed silently with nothing to call."""
        c = self._view.committed[i]
        if self._view.cb == 0:
            # tda 45, fpc 18-22: facing no bet, chips (even one big chip) are a bet
            to = c + pushed
            if to < self._view.bb:
                rule = self._view.profile.cite("silent_underbet")
                if self._view.profile.silent_underbet is SilentUnderbet.COMMIT:
                    # ligue 6 intro: the chips go in, then a bet of the big blind or a fold
                    return commit_short_bet(pushed, self.short_bet(i), rule)
                return Decision(
                    Kind.RAISE,
                    to=min(self._view.bb, c + self._view.stack[i]),
                    rule=rule,
                    note=f"bet below the big blind: aligned to {self._view.bb}",
                )
            return Decision(Kind.RAISE, to=to)
        return self._silent_total(i, c + pushed)

    def _undersized_chip(self, i: int, chip: int) -> Decision:
        p = self._view.profile
        mode = p.undersized_chip
        heads_up = len(self._view.live()) == 2
        if mode is UndersizedChip.COMPLETE or (
            mode is UndersizedChip.HEADS_UP_COMPLETE and heads_up
        ):
            return Decision(
                Kind.CALL,
                rule=p.cite("undersized_chip"),
                note=f"single {chip} chip below the call: a call, completed",
            )
        return Decision(
            Kind.PEND_COMMIT,
            to=self._view.committed[i] + chip,
            rule=p.cite("undersized_chip"),
            note=f"single {chip} chip below the call is committed: call or fold",
        )

    def _undercall(self, i: int, amount_only: bool) -> Decision:
        p = self._view.profile
        if amount_only and p.amount_only_undercall is AmountOnlyUndercall.VOID:
            raise RuleError(
                ErrorCode.VOID_DECLARATION,
                "an amount below the call said alone is void: restate",
                p.cite("raise_methods"),
            )
        # cdc 9.10, tda 39-B: heads-up or facing the opening bet it must be completed;
        # otherwise the director decides, and the default completes it too.
        return Decision(Kind.CALL, rule=p.cite("undercall"), note="undercall: completed to a call")

    def _silent_total(self, i: int, to: int, amount_only: bool = False) -> Decision:
        """Chips (or an amount said alone, tda 37-C) with no declared action: the 50 % rule
        (cdc 9.6, tda 43-A, ligue 6.10-c, casino "fausse relance", fpc 18-16)."""
        p = self._view.profile
        c = self._view.committed[i]
        cb = self._view.cb
        allin_to = c + self._view.stack[i]
        if cb == 0:
            if to < self._view.bb:
                if to <= c:
                    return Decision(Kind.CHECK)
                return Decision(
                    Kind.RAISE,
                    to=min(self._view.bb, allin_to),
                    rule=p.cite("underbet"),
                    note=f"bet below the big blind: aligned to {self._view.bb}",
                )
            return Decision(Kind.RAISE, to=min(to, allin_to))
        if to < cb:
            return self._undercall(i, amount_only)
        if to == cb:
            return Decision(Kind.CALL) if cb > c else Decision(Kind.CHECK)
        if to >= allin_to:
            return self._allin(i, declared=False)
        if not self._view.raise_callable(i) or not self._view.can_raise(i):
            kind = Kind.CALL if cb > c else Kind.CHECK
            return Decision(
                kind, rule=p.cite("blocked"), note="raise not allowed here: call, change returned"
            )
        min_to = self._view.min_to()
        if to >= min_to:
            return Decision(Kind.RAISE, to=to)
        return judge_short_raise(ShortRaise(to, cb, c, min_to, allin_to), p.cite("fifty"))

    # ------------------------------------------------------------------ out of turn

    def resolve_oot(self, i: int, record: OotRecord) -> OotOutcome:
        """An out-of-turn gesture when the player's turn comes (cdc 9.3, tda 40-A, fpc 18-4;
        casino and ligue 6.14 variants)."""
        p = self._view.profile
        mode = p.out_of_turn
        if mode is OutOfTurn.LIGUE:
            outcome = self._ligue_oot(i, record)
            if outcome is not None:
                return outcome
        elif self._view.cb != record.cb:
            if mode is OutOfTurn.CASINO:
                return self._casino_oot_raised(i, record)
            return OotOutcome(
                None,
                status="released",
                note="the action changed: the player gets every option back",
            )
        try:
            decision = self.interpret(i, record.say, record.chips)
        except RuleError as exc:
            return OotOutcome(None, status="discarded", note=exc.message)
        if decision.kind is Kind.PEND_RAISE or decision.kind is Kind.PEND_CHECK:
            return OotOutcome(None, status="discarded", note="incomplete declaration")
        return OotOutcome(decision, status="bound", note="the action has not changed: binding")

    def _ligue_oot(self, i: int, record: OotRecord) -> OotOutcome | None:
        """ligue 6.14 by what the players in turn did; None when the offender is bound
        (case 1: they folded; or they checked and he had announced a check)."""
        announced = self._announced_to(i, record)
        wagered = self._view.cb != record.cb or sum(self._view.contrib) > record.pot
        if not wagered:
            if announced > self._view.cb and self._view.cb <= self._view.committed[i]:
                # case 2: « passe (check), le joueur fautif ne peut que passer (check) »
                return OotOutcome(
                    Decision(Kind.CHECK, rule=self._view.profile.cite("oot")),
                    note="the player in turn checked: the offender may only check",
                )
            return None
        if self._view.cb <= announced:
            # case 2: « gage un montant moindre ou égale à l'annonce du joueur fautif, celui-ci
            # peut alors suivre (call) ou se retirer (fold) » — a call is such a wager
            return OotOutcome(
                None,
                status="released",
                no_raise=True,
                note="the player in turn wagered no more than announced: call or fold",
            )
        # case 3: « gage plus que l'annonce du joueur fautif »: call, raise or fold
        return OotOutcome(None, status="released", note="bet more than announced: every option")

    def _casino_oot_raised(self, i: int, record: OotRecord) -> OotOutcome:
        """casino/tour-de-parole: a raise came before the offender's turn: « il a le choix
        entre suivre et passer ... s'il choisit de passer il perdra toute somme engagée ou
        annoncée »: the chips pushed, or else the amount announced, up to the call, go in."""
        owed = self._view.cb - self._view.committed[i]
        lost = self._announced_to(i, record) - self._view.committed[i] if record.say else 0
        lost = max(lost, sum(record.chips or ()))
        commit = max(0, min(lost, owed, self._view.stack[i]))
        return OotOutcome(
            None,
            status="released",
            no_raise=True,
            commit=commit,
            note="a raise came before: call or fold only; what was pushed or announced is in",
        )

    def _announced_to(self, i: int, record: OotRecord) -> int:
        say = record.say
        if say is not None:
            if say.verb in (Verb.CALL, Verb.CHECK, Verb.FOLD):
                return record.cb
            if say.verb is Verb.ALLIN:
                return self._view.committed[i] + self._view.stack[i]
            if say.amount is not None:
                return self.amount_to(i, say)
        return self._view.committed[i] + sum(record.chips or ())
