"""Property tests of five-card draw under every profile (Hypothesis, derandomized).

Random draw set-ups (2-9 players, short stacks, classic antes, the odd dead hand, no limit or pot
limit, 0 to 5 discards allowed, a burn card or none, a random committed order for a new stub)
are driven by random gestures: betting gestures of every kind (``test_properties``'
generator), draws in and out of turn with cards held or not, the same card twice, too many
cards, bets during the draw and draws during the betting, shows and mucks. Then the hand is
played out from the menus (random discards at the draw). Checked:

(a) chips are conserved at every step (``test_properties.check_chips``);
(b) a refused command (RuleError) leaves the whole state unchanged, the draw's own state
    (stub, burn card, discards, who has drawn) included: no card leaves the stub;
(c) every menu entry is accepted and does what it says (on a copy of the hand);
(d) every card is dealt at most once, and a discard is dealt again only after a new stub was
    formed (the stub ran out), never to the player who discarded it; the burn card likewise;
    every hand holds five cards; a draw's public count is its number of cards;
(e) no hand is turned face up before the draw is over;
(f) the hand terminates.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.engine import (
    PROFILE_IDS,
    Act,
    AnteFormat,
    Blinds,
    Draw,
    DrawMenu,
    Game,
    Hand,
    HandSetup,
    Muck,
    Phase,
    RuleError,
    Say,
    SeatSetup,
    Show,
    Structure,
    load_profile,
)
from server.engine.events import Acted, DrawDealt, Drew, FaceUp, HoleDealt, StubReshuffled
from tests.engine.randomhands import DENOMINATIONS, random_setup
from tests.engine.test_properties import _betting_gesture, check_chips, menu_options, snapshot
from tests.engine.test_properties import clone as shallow_clone

MAX_GESTURES = 40
MAX_STEPS = 2000


@st.composite
def draw_setups(draw: st.DrawFn, profile: str) -> HandSetup:
    seed = draw(st.integers(0, 2**32 - 1), label="setup seed")
    rng = random.Random(seed)
    n = draw(st.sampled_from((2, 2, 3, 4, 5, 6, 6, 7, 8, 9)), label="players")
    rs = random_setup(rng, players=n)
    deck = rng.sample(range(52), 52)
    dead = [False] * n
    if n > 2 and draw(st.integers(0, 9), label="dead hand") == 0:
        dead[rng.randrange(n)] = True
    burn = deck[5 * n] if draw(st.booleans(), label="burn") else None
    stub = deck[5 * n + (burn is not None) :]
    names = rs.names
    return HandSetup(
        profile=load_profile(profile),
        blinds=Blinds(
            sb=rs.sb,
            bb=rs.bb,
            ante=rs.ante,
            ante_format=AnteFormat.CLASSIC if rs.ante else AnteFormat.NONE,
        ),
        seats=tuple(
            SeatSetup(player=names[k], seat=rs.seats[k], stack=rs.stacks[k], dead=dead[k])
            for k in range(n)
        ),
        button=rs.button,
        hole={names[k]: tuple(deck[5 * k : 5 * k + 5]) for k in range(n)},
        board=(),
        denominations=DENOMINATIONS,
        game=Game.DRAW,
        structure=draw(st.sampled_from(list(Structure)), label="structure"),
        stub=tuple(stub),
        burn=burn,
        reshuffle=tuple(rng.sample(range(52), 52)) if rng.random() < 0.8 else (),
        max_discard=draw(st.sampled_from((5, 5, 5, 4, 3, 0)), label="max discard"),
    )


# --------------------------------------------------------------------------- helpers


def state_of(hand: Hand) -> dict[str, Any]:
    """The whole state: ``test_properties.snapshot`` and the draw's own state."""
    return {**snapshot(hand), "drawing": copy.deepcopy(hand.drawing)}


def clone(hand: Hand) -> Hand:
    """``test_properties.clone`` with a copy of the draw's state, which a copy's play changes."""
    new = shallow_clone(hand)
    new.drawing = copy.deepcopy(hand.drawing)
    return new


def attempt(hand: Hand, total: int, command: Any) -> bool:
    """Apply a command; a refusal must change nothing. True if accepted."""
    before = state_of(hand)
    try:
        if isinstance(command, Act):
            hand.act(command)
        elif isinstance(command, Draw):
            hand.draw(command)
        elif isinstance(command, Show):
            hand.show(command)
        elif isinstance(command, Muck):
            hand.muck(command)
        else:
            hand.auto_showdown()
    except RuleError:
        after = state_of(hand)
        assert after == before, {k: (before[k], after[k]) for k in before if before[k] != after[k]}
        check_chips(hand, total)
        return False
    check_chips(hand, total)
    return True


def check_menu(hand: Hand, total: int, rng: random.Random) -> None:
    """(c) each menu entry is accepted on a copy and does what it says."""
    menu = hand.menu()
    if menu is None:
        return
    for say, action, amount in menu_options(menu, rng):
        trial = clone(hand)
        events = trial.act(Act(player=menu.player, say=say))
        check_chips(trial, total)
        acted = next(e for e in events if isinstance(e, Acted) and e.player == menu.player)
        if action == "raise":
            assert acted.action in ("bet", "raise", "allin") and acted.to == amount, (acted, menu)
        elif action == "call":
            assert acted.added == amount, (acted, menu)


def legal_discard(rng: random.Random, hand: Hand, menu: DrawMenu) -> tuple[int, ...]:
    held = hand.hole[hand.index[menu.player]]
    return tuple(rng.sample(held, rng.randint(0, menu.max_discard)))


def random_draw(data: st.DataObject, hand: Hand) -> Draw:
    """A draw, legal or not: by the player in turn or anyone, cards held or not."""
    menu = hand.draw_menu()
    names = hand.names
    if menu is not None and data.draw(st.integers(0, 3), label="drawer") > 0:
        player = menu.player
    else:
        player = data.draw(st.sampled_from([*names, "ghost"]), label="player")
    held = list(hand.hole[hand.index[player]]) if player in hand.index else []
    kind = data.draw(st.integers(0, 5), label="draw kind")
    rng = random.Random(data.draw(st.integers(0, 2**16), label="discard seed"))
    if kind <= 2 and held:
        cards = rng.sample(held, rng.randint(0, len(held)))
    elif kind == 3 and held:
        cards = [held[0], held[0]]  # the same card twice
    elif kind == 4:
        cards = [rng.randrange(52) for _ in range(rng.randint(1, 3))]  # maybe not held
    else:
        cards = [rng.randrange(-2, 60)]
    return Draw(player=player, discard=tuple(cards))


def random_gesture(data: st.DataObject, hand: Hand) -> Any:
    kind = data.draw(st.integers(0, 9), label="gesture")
    if hand.phase is Phase.DRAW and kind < 7:
        return random_draw(data, hand)
    if kind == 0:
        return random_draw(data, hand)
    if hand.phase in (Phase.SHOWDOWN, Phase.DRAW) and kind < 4:
        player = data.draw(st.sampled_from(hand.names), label="player")
        return (Show, Muck, lambda player: None)[kind % 3](player=player)
    return _betting_gesture(data, hand)


# --------------------------------------------------------------------------- invariants


def check_cards(hand: Hand) -> None:
    """(d), (e): cards dealt at most once, discards again only after a new stub."""
    setup = hand.setup
    seen: set[int] = set()
    discarded: set[int] = set()  # not yet gathered into a new stub
    gathered: set[int] = set()  # in a new stub, may be dealt again
    burn = setup.burn
    drew_last = max((k for k, e in enumerate(hand.events) if isinstance(e, DrawDealt)), default=-1)
    own: dict[str, tuple[int, ...]] = {}
    for k, e in enumerate(hand.events):
        if isinstance(e, HoleDealt):
            assert len(e.cards) == 5 and not seen & set(e.cards), e
            seen.update(e.cards)
        elif isinstance(e, StubReshuffled):
            gathered |= discarded | ({burn} if burn is not None else set())
            discarded = set()
            burn = None
        elif isinstance(e, Drew):
            draw_event = hand.events[k + 1]
            assert isinstance(draw_event, DrawDealt) and draw_event.player == e.player
            assert e.count == len(draw_event.discarded) == len(draw_event.received)
        elif isinstance(e, DrawDealt):
            own[e.player] = e.discarded
            assert len(e.cards) == 5 and set(e.discarded) <= seen
            for card in e.received:
                assert card not in e.discarded, ("his own discard back", e)
                if card in seen or card == setup.burn:
                    assert card in gathered, ("dealt twice without a new stub", card, e)
                    gathered.discard(card)
                seen.add(card)
            discarded |= set(e.discarded)
        elif isinstance(e, FaceUp):
            assert drew_last < 0 or k > drew_last or hand.drawing is None, "face up before the draw"
    for i, name in enumerate(hand.names):
        assert len(hand.hole[i]) == 5
        assert not set(hand.hole[i]) & set(own.get(name, ())), name


# --------------------------------------------------------------------------- the property


@pytest.mark.parametrize("profile", PROFILE_IDS)
@settings(
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_draw_properties(profile: str, data: st.DataObject) -> None:
    setup = data.draw(draw_setups(profile), label="setup")
    hand = Hand(setup)
    total = sum(s.stack for s in setup.seats)
    check_chips(hand, total)
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="play seed"))

    for _ in range(data.draw(st.integers(0, MAX_GESTURES), label="gestures")):
        if hand.phase in (Phase.FINISHED, Phase.CANCELLED):
            break
        check_menu(hand, total, rng)
        attempt(hand, total, random_gesture(data, hand))
        check_cards(hand)

    for _ in range(MAX_STEPS):
        drawing = hand.draw_menu()
        if drawing is not None:
            discard = legal_discard(rng, hand, drawing)
            assert attempt(hand, total, Draw(player=drawing.player, discard=discard))
            continue
        menu = hand.menu()
        if menu is None:
            if hand.phase is Phase.SHOWDOWN:
                assert attempt(hand, total, None)
            assert hand.phase is Phase.FINISHED, hand.phase
            break
        check_menu(hand, total, rng)
        options = menu_options(menu, rng)
        passive = [o for o in options if o[1] != "raise"]
        say: Say = (
            rng.choice(passive) if passive and rng.random() < 0.75 else rng.choice(options)
        )[0]
        assert attempt(hand, total, Act(player=menu.player, say=say)), (say, menu)
    assert hand.phase is Phase.FINISHED, hand.phase
    assert sum(hand.stack) + hand.rake_taken() == total
    check_cards(hand)
    # a refused command once the hand is over changes nothing either
    assert not attempt(hand, total, Draw(player=hand.names[0], discard=()))
