"""The strategies shipped with the SDK: random-legal, calling station, tight-aggressive, a
five-card draw player, and the rules fuzzer.

The first four only ever send what the ``turn`` offers (at five-card draw, the first three
draw with :meth:`Strategy.draw`'s default). The fuzzer mixes declarations and chip pushes the
interpreter has to read (odd chip combinations, several motions in a turn, out-of-turn
gestures, bad amounts) and, at five-card draw, illegal draws (a card not held, the same card
twice, too many cards, a name that is no card, a bet at the draw, draws out of turn): error
replies are part of its test.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import eval7

from protocol import messages as m

from .drawing import RANKS, HandClass, discards, hand_class, pair_rank
from .mirror import TableMirror
from .strategy import Decision, Strategy, View, chips_for

__all__ = [
    "STRATEGIES",
    "CallingStation",
    "FiveCardDraw",
    "RandomLegal",
    "RulesFuzzer",
    "TightAggressive",
    "make_strategy",
]


def _amount(turn: m.Turn) -> Decision:
    """Answer a pending "raise, amount to follow"."""
    if turn.min_raise_to is not None:
        return Decision.raise_to(turn.min_raise_to)
    return Decision.allin()


def _passive(turn: m.Turn) -> Decision:
    if turn.pending == "amount":
        return _amount(turn)
    return Decision.check() if turn.can_check else Decision.call()


class CallingStation(Strategy):
    """Never folds, never raises: checks or calls."""

    name = "calling"

    def decide(self, view: View) -> Decision:
        return _passive(view.turn)


class RandomLegal(Strategy):
    """A random legal action, sized small most of the time (so tables last)."""

    name = "random"

    def __init__(self, rng: random.Random | None = None, fold: float = 0.15, raise_: float = 0.2):
        self.rng = rng or random.Random()
        self.p_fold = fold
        self.p_raise = raise_

    def decide(self, view: View) -> Decision:
        turn, rng = view.turn, self.rng
        if turn.pending == "amount":
            return _amount(turn)
        roll = rng.random()
        if roll < self.p_fold and turn.can_fold and not turn.can_check:
            return Decision.fold()
        if (
            roll > 1 - self.p_raise
            and turn.can_raise
            and turn.min_raise_to is not None
            and turn.max_raise_to is not None
            and turn.pending is None
        ):
            lo, hi = turn.min_raise_to, turn.max_raise_to
            if rng.random() < 0.05:
                return Decision.raise_to(hi)
            top = min(hi, lo + max(view.pot, view.blinds[1]))
            target = rng.randint(lo, max(lo, top))
            unit = min(view.denominations) if view.denominations else 1
            target = min(hi, max(lo, target - target % unit))
            if rng.random() < 0.3:
                # the same raise as chips in one motion (exact amount: a legal gesture)
                chips = chips_for(target - view.my_bet, view.denominations)
                if sum(chips) == target - view.my_bet:
                    return Decision(verb="raise", chips=chips)
            return Decision.raise_to(target)
        return _passive(turn)


_PREMIUM = {"AA", "KK", "QQ", "JJ", "TT", "AK", "AQ", "AJ", "KQ"}
_PLAYABLE = {"99", "88", "77", "66", "55", "AT", "KJ", "QJ", "JT", "KT", "QT", "T9", "98"}
_RANK = "23456789TJQKA"


def _preflop_class(hole: Sequence[str]) -> tuple[str, bool]:
    a, b = sorted(hole, key=lambda c: _RANK.index(c[0]), reverse=True)
    return a[0] + b[0], a[1] == b[1]


class TightAggressive(Strategy):
    """Plays few hands and bets them: a preflop chart, then the made hand's class from the
    eval7 evaluator (two pair or better bets, a pair calls a fair price, nothing gives up)."""

    name = "tag"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def decide(self, view: View) -> Decision:
        turn = view.turn
        if turn.pending == "amount":
            return _amount(turn)
        if turn.pending == "call_or_fold":
            return Decision.call() if self._strength(view) >= 1 else Decision.fold()
        strength = self._strength(view)
        bb = max(1, view.blinds[1])
        if strength >= 2 and turn.can_raise and turn.min_raise_to is not None:
            size = (3 * bb) if not view.board else max(turn.min_raise_to, view.pot * 3 // 4)
            target = max(turn.min_raise_to, view.my_bet + size)
            if turn.max_raise_to is not None:
                target = min(target, turn.max_raise_to)
            return Decision.raise_to(target)
        if turn.can_check:
            return Decision.check()
        price_ok = turn.call * 2 <= view.pot or turn.call <= bb
        if strength >= 1 and price_ok:
            return Decision.call()
        return Decision.fold() if turn.can_fold else Decision.call()

    def _strength(self, view: View) -> int:
        """0 weak, 1 playable / a pair, 2 strong (premium or two pair and better)."""
        if len(view.hole) != 2:
            return 0
        if not view.board:
            ranks, suited = _preflop_class(view.hole)
            if ranks in _PREMIUM:
                return 2
            return 1 if ranks in _PLAYABLE or (suited and ranks[0] == "A") else 0
        cards = [eval7.Card(c) for c in (*view.hole, *view.board)]
        kind = eval7.handtype(eval7.evaluate(cards))
        if kind in ("High Card",):
            return 0
        if kind == "Pair":
            return 1
        return 2


class FiveCardDraw(TightAggressive):
    """A simple five-card draw player: draws to what makes a hand (:func:`discards`: pairs,
    trips, four to a flush or a straight; stands pat on a straight or better) and bets made
    hands as :class:`TightAggressive` does. Before the draw, two pair or better is strong and
    jacks or better or a four-card draw playable; after it, two pair or better is strong and
    a pair playable."""

    name = "draw"

    def _strength(self, view: View) -> int:
        cards = view.hole
        if len(cards) != 5:
            return 0
        made = hand_class(cards)
        if made >= HandClass.TWO_PAIR:
            return 2
        if view.street == "draw":  # after the draw: what he holds is what he shows
            return 1 if made == HandClass.PAIR else 0
        pair = pair_rank(cards)
        if pair is not None:
            return 1 if pair >= RANKS.index("J") else 0
        return 1 if len(discards(cards)) == 1 else 0  # four to a flush or a straight


class RulesFuzzer(Strategy):
    """Exercises the interpreter: declarations and chip pushes mixed at random, odd chip
    combinations, several motions in one turn, out-of-turn gestures, stale hands and bad
    amounts. Error replies are expected; after a refusal it tries again (the client falls back
    to a clean legal action after a few refusals, so the table never waits for the clock)."""

    name = "fuzzer"
    expects_errors = True

    def __init__(
        self,
        rng: random.Random | None = None,
        out_of_turn: float = 0.03,
        motions: float = 0.15,
        clean: float = 0.3,
    ) -> None:
        self.rng = rng or random.Random()
        self.p_oot = out_of_turn
        self.p_motions = motions
        self.p_clean = clean
        self.gestures = 0

    # ------------------------------------------------------------------ in turn

    def decide(self, view: View) -> Decision | list[Decision]:
        rng = self.rng
        first = self._gesture(view)
        if rng.random() < self.p_motions:
            return [first, *(self._gesture(view) for _ in range(rng.randint(1, 2)))]
        return first

    def on_error(self, view: View | None, error: m.Error) -> Decision | None:
        if view is None:
            return None
        if view.drawing:
            return self._draw_gesture(view)
        return self._gesture(view)

    # ------------------------------------------------------------------ five-card draw

    def draw(self, view: View) -> Decision | list[Decision]:
        """The draw, mostly illegal: see :data:`_DRAW_GESTURES`; sometimes a second draw
        after the first (refused: the draw is over for this seat, or not his)."""
        first = self._draw_gesture(view)
        if self.rng.random() < self.p_motions:
            return [first, self._draw_gesture(view)]
        return first

    def _draw_gesture(self, view: View) -> Decision:
        self.gestures += 1
        rng = self.rng
        cards = list(view.turn.cards or view.hole)
        if rng.random() < self.p_clean or len(cards) != 5:
            if rng.random() < 0.5:
                return Decision.draw(*discards(cards))
            most = view.turn.max_discard if view.turn.max_discard is not None else 5
            return Decision.draw(*rng.sample(cards, rng.randint(0, min(most, len(cards)))))
        gesture = _DRAW_GESTURES[rng.randrange(len(_DRAW_GESTURES))]
        return gesture(rng, cards, view.turn.max_discard)

    def _gesture(self, view: View) -> Decision:
        self.gestures += 1
        rng, turn = self.rng, view.turn
        if rng.random() < self.p_clean:
            return RandomLegal(rng).decide(view)
        denoms = list(view.denominations) or [25, 100, 500, 1000]
        call = turn.call
        g = _Gesture(
            rng=rng,
            view=view,
            denoms=denoms,
            call=call,
            lo=turn.min_raise_to or (view.my_bet + call + view.blinds[1]),
            hi=turn.max_raise_to or (view.my_bet + view.my_stack),
        )
        return _GESTURES[rng.randrange(len(_GESTURES))](g)

    # ------------------------------------------------------------------ out of turn

    def on_event(self, mirror: TableMirror, event: m.Message) -> list[Decision]:
        rng = self.rng
        if rng.random() >= self.p_oot or mirror.seat not in mirror.in_hand:
            return []
        if mirror.game == "draw" and rng.random() < 0.5:
            # a draw out of turn (a betting round, another seat's draw, or after his own),
            # naming a card he does not hold: refused whenever it arrives
            if not isinstance(event, m.ActionEvent | m.DrewEvent | m.HoleCards):
                return []
            self.gestures += 1
            return [Decision.draw(_card_not_held(rng, mirror.hole))]
        if not isinstance(event, m.ActionEvent | m.BoardEvent | m.HoleCards):
            return []
        self.gestures += 1
        return [
            rng.choice(
                [
                    Decision.check(),
                    Decision.fold(),
                    Decision.call(),
                    Decision.raise_to(mirror.blinds[1] * rng.randint(2, 6)),
                    Decision.push(*chips_for(mirror.blinds[1], mirror.denominations)),
                ]
            )
        ]


@dataclass(frozen=True, slots=True, kw_only=True)
class _Gesture:
    """What a fuzzer's gesture is made of: ``lo``/``hi`` are the raise bounds (or a guess)."""

    rng: random.Random
    view: View
    denoms: list[int]
    call: int
    lo: int
    hi: int


def _exact_call(g: _Gesture) -> Decision:
    """Exact call in chips, no word."""
    return Decision.push(*chips_for(g.call, g.denoms)) if g.call else Decision.check()


def _one_big_chip(g: _Gesture) -> Decision:
    """One big chip facing a bet (single-chip rule)."""
    return Decision.push(g.rng.choice(g.denoms[-3:]))


def _handful(g: _Gesture) -> Decision:
    """A random handful of chips."""
    rng = g.rng
    return Decision.push(*(rng.choice(g.denoms) for _ in range(rng.randint(1, 7))))


def _undersized_chip(g: _Gesture) -> Decision:
    """An undersized chip (less than the call)."""
    return Decision.push(g.denoms[0])


def _call_pushing_more(g: _Gesture) -> Decision:
    """Says call, pushes more."""
    return Decision(verb="call", chips=chips_for(g.call + g.lo, g.denoms) or (g.denoms[0],))


def _raise_pushing_less(g: _Gesture) -> Decision:
    """Says raise to X, pushes fewer chips than X."""
    return Decision(verb="raise", amount=g.lo, chips=chips_for(max(1, g.lo // 2), g.denoms))


def _raise_out_of_bounds(g: _Gesture) -> Decision:
    """Raise below the minimum / above the maximum."""
    rng = g.rng
    return Decision.raise_to(rng.choice([max(0, g.lo - 1), g.hi + rng.randint(1, 1000), 0]))


def _raise_amount_to_follow(g: _Gesture) -> Decision:
    return Decision(verb="raise")


def _plus_or_abbreviated(g: _Gesture) -> Decision:
    rng, lo = g.rng, g.lo
    form = rng.choice(["plus", "abbreviated"])
    amount = rng.choice([lo, lo // 100 or 1, rng.randint(1, 50), g.view.blinds[1]])
    return Decision(verb=rng.choice(["raise", "bet"]), amount=amount, form=form)


def _check_or_bet_facing_a_bet(g: _Gesture) -> Decision:
    return Decision(verb=g.rng.choice(["check", "bet"]))


def _unknown_verb_or_form(g: _Gesture) -> Decision:
    """A valid frame the server must refuse."""
    rng = g.rng
    return Decision(verb=rng.choice(["jump", "fold", "call"]), form=rng.choice(["x", None]))


def _allin(g: _Gesture) -> Decision:
    """All-in, sometimes with the chips."""
    if g.rng.random() < 0.5:
        return Decision.allin()
    return Decision(verb="allin", chips=chips_for(g.view.my_stack, g.denoms)[:200])


def _open_fold(g: _Gesture) -> Decision:
    """Fold when check is free (open fold)."""
    return Decision.fold()


def _more_than_the_stack(g: _Gesture) -> Decision:
    return Decision.push(*chips_for(g.view.my_stack + g.denoms[-1], g.denoms)[:200])


_GESTURES: tuple[Callable[[_Gesture], Decision], ...] = (
    _exact_call,
    _one_big_chip,
    _handful,
    _undersized_chip,
    _call_pushing_more,
    _raise_pushing_less,
    _raise_out_of_bounds,
    _raise_amount_to_follow,
    _plus_or_abbreviated,
    _check_or_bet_facing_a_bet,
    _unknown_verb_or_form,
    _allin,
    _open_fold,
    _more_than_the_stack,
)
"""The fuzzer's gestures, drawn uniformly."""


_DECK = tuple(r + s for r in RANKS for s in "cdhs")


def _card_not_held(rng: random.Random, cards: Sequence[str]) -> str:
    return rng.choice([c for c in _DECK if c not in cards])


def _draw_not_held(rng: random.Random, cards: list[str], most: int | None) -> Decision:
    """A discard naming a card he does not hold: ``rule.card_not_held``."""
    return Decision.draw(*rng.sample(cards, rng.randint(0, 2)), _card_not_held(rng, cards))


def _draw_twice(rng: random.Random, cards: list[str], most: int | None) -> Decision:
    """The same card thrown twice: ``rule.same_card_twice``."""
    card = rng.choice(cards)
    return Decision.draw(card, card)


def _draw_too_many(rng: random.Random, cards: list[str], most: int | None) -> Decision:
    """More cards than allowed: ``rule.too_many_discards`` under ``max_discard``; six names,
    more than a ``draw`` may carry: ``out_of_range``."""
    if most is not None and most < len(cards):
        return Decision.draw(*cards[: most + 1])
    return Decision.draw(*cards, _card_not_held(rng, cards))


def _draw_no_card(rng: random.Random, cards: list[str], most: int | None) -> Decision:
    """A name that is no card: ``bad_card``."""
    return Decision.draw(rng.choice(["Zz", "1c", "Aq", "Ahh", ""]))


def _bet_at_the_draw(rng: random.Random, cards: list[str], most: int | None) -> Decision:
    """A betting gesture while the players draw: refused by the rules."""
    return rng.choice([Decision.check(), Decision.call(), Decision.fold(), Decision.raise_to(200)])


_DRAW_GESTURES: tuple[Callable[[random.Random, list[str], int | None], Decision], ...] = (
    _draw_not_held,
    _draw_twice,
    _draw_too_many,
    _draw_no_card,
    _bet_at_the_draw,
)
"""The fuzzer's illegal draws, drawn uniformly."""


STRATEGIES: dict[str, type[Strategy]] = {
    "random": RandomLegal,
    "calling": CallingStation,
    "tag": TightAggressive,
    "draw": FiveCardDraw,
    "fuzzer": RulesFuzzer,
}


def make_strategy(name: str, rng: random.Random | None = None) -> Strategy:
    """A strategy by name; ``mix`` picks one of random/calling/tag at random."""
    rng = rng or random.Random()
    if name == "mix":
        name = rng.choice(["random", "calling", "tag"])
    cls = STRATEGIES[name]
    if cls is CallingStation:
        return cls()
    return cls(rng)  # type: ignore[call-arg]
