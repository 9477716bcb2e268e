"""Random hands for differential testing and benchmarking (shared by the PokerKit diff test
and ``bench/engine.py``).

Two independent random streams make a hand:

* the **set-up** (:func:`random_setup`): 2-9 players on random seats, a random button, a
  blind level, optional classic antes (ante < big blind), random stacks including short
  stacks below the big blind, and the dealt cards;
* the **action stream** (:class:`ActionStream`): a seeded :class:`random.Random` that draws
  exactly three numbers at every betting decision, whatever the engine. The decision is a
  pure function of those draws and the menu (:func:`decide`), so two engines that agree on
  every menu see identical decisions.

Every amount is a multiple of :data:`UNIT` (the smallest chip in play), so pots split in
whole chips. PokerKit plays the same hand through :func:`pokerkit_state` /
:func:`pokerkit_advance` / :func:`pokerkit_menu` / :func:`pokerkit_apply`; its player ``k``
is our ``k``-th player clockwise from the button (SB first; heads-up PokerKit's player 0 is
the big blind and player 1 the button/SB, which is the same clockwise order).
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from server.engine import (
    Act,
    AnteFormat,
    Blinds,
    Hand,
    HandSetup,
    Menu,
    Phase,
    Say,
    SeatSetup,
    Verb,
    card_name,
    load_profile,
)

__all__ = [
    "DENOMINATIONS",
    "LEVELS",
    "UNIT",
    "ActionStream",
    "Decision",
    "RandomSetup",
    "View",
    "decide",
    "engine_act",
    "engine_view",
    "play_engine",
    "play_pokerkit",
    "pokerkit_advance",
    "pokerkit_apply",
    "pokerkit_menu",
    "pokerkit_stacks",
    "pokerkit_state",
    "positions",
    "random_setup",
]

UNIT = 25
DENOMINATIONS = (25, 100, 500, 1000, 5000, 25000)
LEVELS: tuple[tuple[int, int], ...] = (
    (50, 100),
    (100, 200),
    (150, 300),
    (200, 400),
    (300, 600),
    (500, 1000),
)
"""(small blind, big blind) levels; every value is a multiple of :data:`UNIT`."""

FOLD_BELOW = 0.15
RAISE_ABOVE = 0.75


# --------------------------------------------------------------------------- set-ups


@dataclass(frozen=True, slots=True)
class RandomSetup:
    """A hand's starting point, engine-neutral. Lists are in seat order."""

    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    button: int
    sb: int
    bb: int
    ante: int
    hole: tuple[tuple[int, int], ...]
    board: tuple[int, ...]

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f"P{k}" for k in range(self.n))

    def clockwise(self) -> list[int]:
        """Player indices (seat order) clockwise from the first seat after the button:
        index k of this list is PokerKit's player k."""
        start = sum(1 for s in self.seats if s <= self.button)
        return [(start + k) % self.n for k in range(self.n)]

    def engine_setup(self, profile: str = "tda") -> HandSetup:
        names = self.names
        return HandSetup(
            profile=load_profile(profile),
            blinds=Blinds(
                sb=self.sb,
                bb=self.bb,
                ante=self.ante,
                ante_format=AnteFormat.CLASSIC if self.ante else AnteFormat.NONE,
            ),
            seats=tuple(
                SeatSetup(player=names[k], seat=self.seats[k], stack=self.stacks[k])
                for k in range(self.n)
            ),
            button=self.button,
            hole={names[k]: self.hole[k] for k in range(self.n)},
            board=self.board,
            denominations=DENOMINATIONS,
        )

    def describe(self) -> str:
        """A readable one-liner (for failure messages and the disagreement catalogue)."""
        seats = ", ".join(
            f"{name}@{seat}:{stack}[{card_name(h[0])}{card_name(h[1])}]"
            for name, seat, stack, h in zip(
                self.names, self.seats, self.stacks, self.hole, strict=True
            )
        )
        board = "".join(card_name(c) for c in self.board)
        return (
            f"blinds {self.sb}/{self.bb} ante {self.ante}, button seat {self.button}; "
            f"{seats}; board {board}"
        )


def _random_stack(rng: random.Random, bb: int) -> int:
    r = rng.random()
    if r < 0.12:  # short: below (or around) the big blind
        return UNIT * rng.randint(1, max(1, (3 * bb // 2) // UNIT))
    if r < 0.35:
        return UNIT * rng.randint(bb // UNIT, 12 * bb // UNIT)
    return UNIT * rng.randint(bb // UNIT, 150 * bb // UNIT)


def random_setup(
    rng: random.Random,
    *,
    players: int | None = None,
    ante_rate: float = 0.3,
) -> RandomSetup:
    """A random set-up: ``players`` (default 2-9, biased to short-handed and full tables),
    antes in the classic format with probability ``ante_rate``."""
    n = players if players is not None else rng.choice((2, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 9))
    seats = tuple(sorted(rng.sample(range(1, 10), n)))
    button = rng.choice(seats)
    sb, bb = rng.choice(LEVELS)
    ante = 0
    if rng.random() < ante_rate:
        ante = max(UNIT, (bb // rng.choice((4, 8, 10)) // UNIT) * UNIT)
        ante = min(ante, bb - UNIT)
    stacks = tuple(_random_stack(rng, bb) for _ in range(n))
    deck = rng.sample(range(52), 2 * n + 5)
    hole = tuple((deck[2 * k], deck[2 * k + 1]) for k in range(n))
    return RandomSetup(
        seats=seats,
        stacks=stacks,
        button=button,
        sb=sb,
        bb=bb,
        ante=ante,
        hole=hole,
        board=tuple(deck[2 * n :]),
    )


# --------------------------------------------------------------------------- decisions


@dataclass(frozen=True, slots=True)
class View:
    """The engine-neutral part of a menu that the decision depends on."""

    player: int
    """PokerKit index (position clockwise from the button)."""
    call: int
    can_raise: bool
    min_to: int | None
    max_to: int | None


@dataclass(frozen=True, slots=True)
class Decision:
    verb: str  # "fold" | "call" (check or call) | "raise"
    to: int = 0


class ActionStream:
    """Three draws per decision, always, so that the stream never desynchronises."""

    __slots__ = ("draws", "rng")

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.draws = 0

    def next(self, view: View) -> Decision:
        if view.call == 0 and not view.can_raise:
            return Decision("call")  # forced check: no draw (one engine may skip it)
        r = self.rng.random
        u, v, w = r(), r(), r()
        self.draws += 1
        return decide(view, u, v, w)


def decide(view: View, u: float, v: float, w: float) -> Decision:
    """Fold if facing a bet and ``u`` < 0.15; raise if allowed and ``u`` > 0.75 (to the minimum
    if ``w`` < 0.2, all-in if ``w`` > 0.85, else min + v * (max - min) rounded down to the
    smallest chip); otherwise check or call."""
    if view.call > 0 and u < FOLD_BELOW:
        return Decision("fold")
    if view.can_raise and u > RAISE_ABOVE:
        lo, hi = view.min_to, view.max_to
        assert lo is not None and hi is not None
        if w < 0.2:
            to = lo
        elif w > 0.85:
            to = hi
        else:
            to = lo + int(v * (hi - lo)) // UNIT * UNIT
            to = min(max(to, lo), hi)
        return Decision("raise", to)
    return Decision("call")


# --------------------------------------------------------------------------- our engine


def engine_view(hand: Hand, menu: Menu, position: dict[str, int]) -> View:
    return View(
        player=position[menu.player],
        call=menu.call,
        can_raise=menu.can_raise,
        min_to=menu.min_raise_to,
        max_to=menu.max_raise_to,
    )


_FOLD = Say(verb=Verb.FOLD)
_CHECK = Say(verb=Verb.CHECK)
_CALL = Say(verb=Verb.CALL)


def engine_act(hand: Hand, menu: Menu, d: Decision) -> None:
    if d.verb == "fold":
        say = _FOLD
    elif d.verb == "raise":
        say = Say(verb=Verb.RAISE, amount=d.to)
    else:
        say = _CALL if menu.call > 0 else _CHECK
    hand.act(Act(player=menu.player, say=say))


def positions(rs: RandomSetup) -> dict[str, int]:
    """Player name -> PokerKit index."""
    names = rs.names
    return {names[i]: k for k, i in enumerate(rs.clockwise())}


def play_engine(rs: RandomSetup, seed: int, profile: str = "tda") -> Hand:
    """Play one hand in our engine to the end, driven by ``ActionStream(seed)``."""
    hand = Hand(rs.engine_setup(profile))
    stream = ActionStream(seed)
    pos = positions(rs)
    while True:
        menu = hand.menu()
        if menu is None:
            if hand.phase is Phase.SHOWDOWN:
                hand.auto_showdown()
            break
        engine_act(hand, menu, stream.next(engine_view(hand, menu, pos)))
    return hand


# --------------------------------------------------------------------------- PokerKit

_pk: Any = None
_PK_CARDS: list[Any] = []


def _pokerkit() -> Any:
    global _pk
    if _pk is None:
        import pokerkit

        _pk = pokerkit
        _PK_CARDS.extend(next(iter(pokerkit.Card.parse(card_name(c)))) for c in range(52))
    return _pk


def remember_high_hands() -> None:
    """PokerKit ranks a player's best hand again each time it asks who can still win (about
    20 times a hand, in pure Python: most of a differential test's time). The ranking is a
    pure function of the cards: remembered, the same answers come twice as fast. For the
    differential tests only: bench/engine.py times PokerKit as it is."""
    pokerkit = _pokerkit()
    from pokerkit.hands import StandardHighHand

    rank = StandardHighHand.from_game.__func__
    clean = pokerkit.Card.clean

    @functools.lru_cache(maxsize=1 << 16)
    def remembered(cls: Any, hole: tuple[Any, ...], board: tuple[Any, ...]) -> Any:
        return rank(cls, hole, board)

    def from_game(cls: Any, hole_cards: Any, board_cards: Any = ()) -> Any:
        return remembered(cls, tuple(clean(hole_cards)), tuple(clean(board_cards)))

    StandardHighHand.from_game = classmethod(from_game)


def unit_divmod(amount: int, k: int) -> tuple[int, int]:
    """PokerKit's pot-splitting ``divmod`` in whole chips of :data:`UNIT`: the remainder
    (whole chips, plus any sub-chip rest) goes to the first winner."""
    q = amount // UNIT // k * UNIT
    return q, amount - q * k


def pokerkit_state(rs: RandomSetup) -> Any:
    """A PokerKit 0.7.7 state for the hand (antes, blinds and chips posted/pushed
    automatically; cards dealt by :func:`pokerkit_advance` to match ``rs``)."""
    pk = _pokerkit()
    order = rs.clockwise()
    a = pk.Automation
    return pk.NoLimitTexasHoldem.create_state(
        (
            a.ANTE_POSTING,
            a.BET_COLLECTION,
            a.BLIND_OR_STRADDLE_POSTING,
            a.HOLE_CARDS_SHOWING_OR_MUCKING,
            a.HAND_KILLING,
            a.CHIPS_PUSHING,
            a.CHIPS_PULLING,
        ),
        True,  # ante trimming: classic antes are contributions, layered into side pots
        rs.ante,
        (rs.sb, rs.bb),
        rs.bb,
        tuple(rs.stacks[i] for i in order),
        rs.n,
        divmod=unit_divmod,
    )


def pokerkit_advance(state: Any, rs: RandomSetup, order: list[int]) -> None:
    """Deal (hole cards, burns, board) until a player must act or the hand is over."""
    cards = _PK_CARDS
    while state.status and state.actor_index is None:
        if state.can_deal_hole():
            k = state.hole_dealee_index
            c1, c2 = rs.hole[order[k]]
            state.deal_hole((cards[c1], cards[c2]))
        elif state.can_burn_card():
            state.burn_card("??")
        elif state.can_deal_board():
            dealt = sum(len(b) for b in state.board_cards)
            count = state.board_dealing_count
            state.deal_board(tuple(cards[c] for c in rs.board[dealt : dealt + count]))
        else:  # pragma: no cover - nothing else is manual
            raise AssertionError("PokerKit is stuck")


def pokerkit_menu(state: Any) -> View | None:
    k = state.actor_index
    if k is None:
        return None
    can_raise = state.can_complete_bet_or_raise_to()
    return View(
        player=k,
        call=state.checking_or_calling_amount,
        can_raise=can_raise,
        min_to=state.min_completion_betting_or_raising_to_amount if can_raise else None,
        max_to=state.max_completion_betting_or_raising_to_amount if can_raise else None,
    )


def pokerkit_apply(state: Any, d: Decision) -> None:
    if d.verb == "fold":
        state.fold()
    elif d.verb == "raise":
        state.complete_bet_or_raise_to(d.to)
    else:
        state.check_or_call()


def pokerkit_stacks(state: Any, rs: RandomSetup, order: list[int]) -> dict[str, int]:
    names = rs.names
    return {names[order[k]]: int(state.stacks[k]) for k in range(rs.n)}


def play_pokerkit(rs: RandomSetup, seed: int) -> dict[str, int]:
    """Play one hand in PokerKit to the end, driven by ``ActionStream(seed)``; final stacks."""
    state = pokerkit_state(rs)
    order = rs.clockwise()
    stream = ActionStream(seed)
    while True:
        pokerkit_advance(state, rs, order)
        view = pokerkit_menu(state)
        if view is None:
            break
        pokerkit_apply(state, stream.next(view))
    return pokerkit_stacks(state, rs, order)
