"""The casino « option » (the straddle) in the pure engine.

casino cash [53]: « L'option est autorisée en Cash Game, il est possible de rentrer sur la
table directement en option. » The first live player left of the big blind posts, before the
cards, a LIVE blind of two big blinds; the action starts on his left and he speaks last
preflop (he checks his option when nobody raised, or raises). The option counts as the new
big blind: the next raise is to at least twice the option, under every ``min_raise`` rule.
Short of two big blinds he posts what he has, all-in; the bet to call stays at least the big
blind (cdc 9.7). The engine accepts an option under any profile: the table offers it.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.engine import (
    PROFILE_IDS,
    Act,
    Blinds,
    Hand,
    HandSetup,
    Phase,
    Say,
    SeatSetup,
    SetupError,
    Street,
    Verb,
    load_profile,
    parse_card,
)
from server.engine.commands import AgreeRuns
from server.engine.events import Acted, BoardDealt, Posted, PostKind, PotAwarded, Returned
from server.engine.profile import MinRaise
from server.engine.rake import Rake
from server.engine.replay import ScenarioError, run_scenario
from tests.engine.randomhands import (
    UNIT,
    ActionStream,
    RandomSetup,
    _pokerkit,
    engine_act,
    engine_view,
    pokerkit_advance,
    pokerkit_apply,
    pokerkit_menu,
    positions,
    random_setup,
)
from tests.engine.test_properties import (
    MAX_GESTURES,
    MAX_STEPS,
    RUNS_TIMEOUT,
    attempt,
    check_chips,
    check_menu_entries,
    check_runs,
    menu_options,
    random_gesture,
    setups,
)

BOARD = "2d7c9hJsQc"
SIX = {"A": 10000, "B": 10000, "C": 10000, "D": 10000, "E": 10000, "F": 10000}
"""Seats 1-6, button on seat 1: B small blind, C big blind, D the option, E first to speak."""
THREE = {"A": 10000, "B": 10000, "C": 10000}
"""Seats 1-3, button on seat 1: B small blind, C big blind, A (the button) the option."""


def _cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(text[k : k + 2]) for k in range(0, len(text), 2))


def make(
    stacks: dict[str, int],
    option: int | None,
    *,
    profile: str = "casino",
    button: int = 1,
    fees: dict[str, int] | None = None,
    dead_posts: dict[str, int] | None = None,
    dead: tuple[str, ...] = (),
    big_blind: int | None = None,
    hole: dict[str, str] | None = None,
    rake: Rake | None = None,
) -> Hand:
    """A hand at blinds 50/100; players sit at seats 1, 2, 3... in the order of ``stacks``."""
    return Hand(
        setup(
            stacks,
            option,
            profile=profile,
            button=button,
            fees=fees,
            dead_posts=dead_posts,
            dead=dead,
            big_blind=big_blind,
            hole=hole,
            rake=rake,
        )
    )


def setup(
    stacks: dict[str, int],
    option: int | None,
    *,
    profile: str = "casino",
    button: int = 1,
    fees: dict[str, int] | None = None,
    dead_posts: dict[str, int] | None = None,
    dead: tuple[str, ...] = (),
    big_blind: int | None = None,
    hole: dict[str, str] | None = None,
    rake: Rake | None = None,
) -> HandSetup:
    names = list(stacks)
    fees, dead_posts, hole = fees or {}, dead_posts or {}, hole or {}
    used = set(_cards(BOARD)) | {c for h in hole.values() for c in _cards(h)}
    spare = [c for c in range(52) if c not in used]
    holes = {
        n: (_cards(hole[n])[0], _cards(hole[n])[1]) if n in hole else (spare.pop(), spare.pop())
        for n in names
    }
    return HandSetup(
        profile=load_profile(profile),
        blinds=Blinds(sb=50, bb=100),
        seats=tuple(
            SeatSetup(
                player=n,
                seat=k + 1,
                stack=stacks[n],
                dead=n in dead,
                seat_fee=fees.get(n, 0),
                dead_post=dead_posts.get(n, 0),
            )
            for k, n in enumerate(names)
        ),
        button=button,
        hole=holes,
        board=_cards(BOARD),
        denominations=(25, 100, 500, 1000, 5000),
        big_blind=big_blind,
        rake=rake,
        option=option,
    )


def say(hand: Hand, player: str, verb: Verb, amount: int | None = None) -> Acted:
    events = hand.act(Act(player=player, say=Say(verb=verb, amount=amount)))
    return next(e for e in events if isinstance(e, Acted) and e.player == player)


def to_act(hand: Hand) -> str:
    menu = hand.menu()
    assert menu is not None
    return menu.player


def posts(hand: Hand) -> list[tuple[str, PostKind, int, bool]]:
    return [(e.player, e.kind, e.amount, e.allin) for e in hand.events if isinstance(e, Posted)]


def check_down(hand: Hand) -> None:
    while (menu := hand.menu()) is not None:
        say(hand, menu.player, Verb.CHECK if menu.can_check else Verb.CALL)
    hand.auto_showdown()
    assert hand.phase is Phase.FINISHED


def conserved(hand: Hand, total: int) -> None:
    assert sum(hand.stack) + hand.rake_taken() == total
    for pot in (e for e in hand.events if isinstance(e, PotAwarded)):
        assert sum(s for _, s in pot.shares) + pot.rake == pot.amount


# ----------------------------------------------------------------------------- posting, order


def test_six_handed_option_is_a_live_blind_of_two_big_blinds_and_speaks_last() -> None:
    # casino cash: « L'option est autorisée en Cash Game »
    hand = make(SIX, option=4)
    assert posts(hand) == [
        ("B", PostKind.SMALL_BLIND, 50, False),
        ("C", PostKind.BIG_BLIND, 100, False),
        ("D", PostKind.OPTION, 200, False),
    ]
    assert hand.option_i == hand.index["D"]
    assert hand.pot_total() == 350
    menu = hand.menu()
    assert menu is not None and menu.player == "E"  # the action starts on the option's left
    assert menu.call == 200 and menu.min_raise_to == 400  # twice the option
    order = []
    while (menu := hand.menu()) is not None and menu.call > 0:
        order.append(menu.player)
        say(hand, menu.player, Verb.CALL)
    assert order == ["E", "F", "A", "B", "C"]
    menu = hand.menu()
    assert menu is not None and menu.player == "D"  # his option: the last word
    assert menu.call == 0 and menu.can_check and menu.can_raise and menu.min_raise_to == 400
    assert say(hand, "D", Verb.RAISE, 600).action == "raise"
    menu = hand.menu()
    assert menu is not None and menu.player == "E" and menu.call == 400
    assert menu.min_raise_to == 1200  # casino « fausse relance »: the double of 600


def test_six_handed_everyone_calls_the_option_checks_and_postflop_order_is_unchanged() -> None:
    hand = make(SIX, option=4)
    for p in "EFAB":
        say(hand, p, Verb.CALL)
    assert say(hand, "C", Verb.CALL).added == 100  # the big blind completes to the option
    assert say(hand, "D", Verb.CHECK).action == "check"
    assert hand.street is Street.FLOP and hand.pot_total() == 1200
    menu = hand.menu()
    assert menu is not None and menu.player == "B"  # postflop: the button's left, as ever
    assert menu.can_check and menu.min_raise_to == 100  # a bet is one big blind again


def test_three_handed_the_button_posts_the_option_the_small_blind_speaks_first() -> None:
    hand = make(THREE, option=1)
    assert posts(hand)[-1] == ("A", PostKind.OPTION, 200, False)
    assert to_act(hand) == "B"
    assert say(hand, "B", Verb.CALL).added == 150
    assert say(hand, "C", Verb.CALL).added == 100
    menu = hand.menu()
    assert menu is not None and menu.player == "A" and menu.can_check
    say(hand, "A", Verb.CHECK)
    assert hand.street is Street.FLOP and hand.pot_total() == 600
    assert to_act(hand) == "B"


def test_three_handed_everyone_calls_and_the_option_raises() -> None:
    hand = make(THREE, option=1, profile="tda")
    say(hand, "B", Verb.CALL)
    say(hand, "C", Verb.CALL)
    assert say(hand, "A", Verb.RAISE, 400).to == 400  # exactly twice the option: a raise
    menu = hand.menu()
    assert menu is not None and menu.player == "B" and menu.call == 200
    assert menu.min_raise_to == 600  # tda 43: the raise of 200 is the increment now
    say(hand, "B", Verb.CALL)
    say(hand, "C", Verb.FOLD)
    assert hand.street is Street.FLOP and hand.pot_total() == 1000


def test_everyone_folds_to_the_option_he_wins_the_blinds() -> None:
    hand = make(SIX, option=4)
    for p in "EFABC":
        say(hand, p, Verb.FOLD)
    assert hand.phase is Phase.FINISHED
    # his uncalled 100 comes back; he wins the small and big blinds
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, Returned)] == [("D", 100)]
    assert hand.stacks() == {**SIX, "B": 9950, "C": 9900, "D": 10150}


def test_the_big_blind_raising_over_the_option_reopens_it() -> None:
    hand = make(THREE, option=1)
    say(hand, "B", Verb.FOLD)
    assert say(hand, "C", Verb.RAISE, 400).action == "raise"
    menu = hand.menu()
    assert menu is not None and menu.player == "A" and menu.call == 200 and menu.can_raise
    assert menu.min_raise_to == 800  # casino: the double of 400


# ----------------------------------------------------------------------------- minimum raise


@pytest.mark.parametrize("profile", PROFILE_IDS)
def test_a_raise_short_of_twice_the_option_never_stands_twice_is_accepted(profile: str) -> None:
    """The option is the new big blind: a raise is to 400 at least (tda 43 increment of 200,
    or the double rule of ligue 6.4 / casino « fausse relance »), whatever the profile."""
    hand = make(SIX, option=4, profile=profile)
    menu = hand.menu()
    assert menu is not None and menu.min_raise_to == 400
    short = say(make(SIX, option=4, profile=profile), "E", Verb.RAISE, 300)
    assert short.to != 300  # completed to 400 (cdc 9.10, tda 43-A, casino 50 % rule)
    assert short.to == 400 and short.action == "raise"
    small = say(make(SIX, option=4, profile=profile), "E", Verb.RAISE, 250)
    assert small.to in (200, 400)  # casino: less than half a raise is a call
    assert say(hand, "E", Verb.RAISE, 400).to == 400
    menu = hand.menu()
    assert menu is not None and menu.player == "F" and menu.call == 400
    double = load_profile(profile).min_raise is MinRaise.DOUBLE
    assert menu.min_raise_to == (800 if double else 600)


def test_casino_a_raise_below_half_the_complement_is_a_call() -> None:
    """casino « fausse relance »: 250 facing the option is under half of the raise to 400."""
    acted = say(make(SIX, option=4), "E", Verb.RAISE, 250)
    assert (acted.action, acted.to) == ("call", 200)


# ----------------------------------------------------------------------------- short option


def test_option_short_of_the_big_blind_is_all_in_the_bet_stays_one_big_blind() -> None:
    four = {"A": 10000, "B": 10000, "C": 10000, "D": 60}
    hand = make(four, option=4)
    assert posts(hand)[-1] == ("D", PostKind.OPTION, 60, True)
    menu = hand.menu()
    assert menu is not None and menu.player == "A"
    assert menu.call == 100 and menu.min_raise_to == 200
    say(hand, "A", Verb.CALL)
    say(hand, "B", Verb.CALL)
    menu = hand.menu()
    assert menu is not None and menu.player == "C" and menu.can_check  # the BB's option
    say(hand, "C", Verb.CHECK)
    assert [(p.amount, sorted(p.eligible)) for p in hand.pots()] == [
        (240, ["A", "B", "C", "D"]),
        (120, ["A", "B", "C"]),
    ]
    check_down(hand)
    conserved(hand, 30060)


@pytest.mark.parametrize(("profile", "min_to"), [("tda", 250), ("casino", 300)])
def test_option_between_one_and_two_big_blinds_is_the_bet_but_no_full_raise(
    profile: str, min_to: int
) -> None:
    """All-in for 150: the bet is 150; like a short all-in raise (cdc 9.8) it sets no new
    increment (tda: 150 + 100), the double rule doubles the bet (casino: 300)."""
    hand = make({"A": 10000, "B": 10000, "C": 10000, "D": 150}, option=4, profile=profile)
    assert posts(hand)[-1] == ("D", PostKind.OPTION, 150, True)
    menu = hand.menu()
    assert menu is not None and menu.player == "A"
    assert menu.call == 150 and menu.min_raise_to == min_to
    check_down(hand)
    conserved(hand, 30150)


def test_option_all_in_called_and_raised_side_pot_and_rake() -> None:
    hand = make(
        {"A": 10000, "B": 10000, "C": 10000, "D": 180},
        option=4,
        hole={"D": "AsAh", "A": "KdKc"},
        rake=Rake(permille=50),
    )
    say(hand, "A", Verb.RAISE, 1000)
    say(hand, "B", Verb.FOLD)
    say(hand, "C", Verb.FOLD)
    check_down(hand)
    awards = sorted((e for e in hand.events if isinstance(e, PotAwarded)), key=lambda e: e.index)
    assert awards[0].winners == ("D",) and awards[0].amount == 180 * 2 + 50 + 100
    conserved(hand, 30180)


# ----------------------------------------------------------------------------- with cash posts


def test_option_and_a_seat_fee_from_a_newcomer_elsewhere() -> None:
    """casino cash [51] « droit de siège » for F, the option for D: the blinds, the seat fee,
    then the option; F's fee is live, he calls only the rest of the option."""
    hand = make(SIX, option=4, fees={"F": 100})
    assert posts(hand) == [
        ("B", PostKind.SMALL_BLIND, 50, False),
        ("C", PostKind.BIG_BLIND, 100, False),
        ("F", PostKind.SEAT_FEE, 100, False),
        ("D", PostKind.OPTION, 200, False),
    ]
    assert to_act(hand) == "E"
    say(hand, "E", Verb.CALL)
    assert say(hand, "F", Verb.CALL).added == 100
    for p in "ABC":
        say(hand, p, Verb.CALL)
    assert to_act(hand) == "D"
    say(hand, "D", Verb.CHECK)
    assert hand.pot_total() == 1200
    check_down(hand)
    conserved(hand, 60000)


def test_a_newcomer_comes_in_directly_in_option_it_covers_his_seat_fee() -> None:
    """casino cash: « il est possible de rentrer sur la table directement en option »."""
    hand = make(SIX, option=4, fees={"D": 100})
    assert posts(hand)[2:] == [("D", PostKind.OPTION, 200, False)]
    assert hand.committed[hand.index["D"]] == 200


def test_a_returning_player_in_option_still_pays_his_dead_small_blind() -> None:
    """casino cash [74] « la petite blind sera mise directement dans le pot »: dead money, on
    top of the option, and not his bet."""
    hand = make(SIX, option=4, fees={"D": 100}, dead_posts={"D": 50})
    assert posts(hand)[2:] == [
        ("D", PostKind.DEAD_BLIND, 50, False),
        ("D", PostKind.OPTION, 200, False),
    ]
    assert hand.committed[hand.index["D"]] == 200 and hand.pot_total() == 400
    for p in "EFABC":
        say(hand, p, Verb.FOLD)
    assert hand.stacks()["D"] == 10000 + 50 + 100


def test_cancel_returns_the_option() -> None:
    hand = make(SIX, option=4)
    hand.cancel()
    assert hand.stacks() == SIX


# ----------------------------------------------------------------------------- validation


def test_the_option_seat_is_the_first_live_seat_left_of_the_big_blind() -> None:
    assert setup(SIX, None).option_seat() == 4
    assert setup(THREE, None).option_seat() == 1
    assert setup(SIX, None, dead=("D",)).option_seat() == 5  # D dealt a dead hand
    assert setup(SIX, None, button=5).option_seat() == 2  # SB seat 6, BB seat 1: wraps
    assert setup(SIX, None, big_blind=3, button=6).option_seat() == 4  # dead button: BB pinned
    assert setup({"A": 10000, "B": 10000}, None).option_seat() is None
    assert setup(THREE, None, dead=("A",)).option_seat() is None


def test_a_dead_seat_left_of_the_big_blind_the_next_live_player_has_the_option() -> None:
    hand = make(SIX, option=5, dead=("D",))
    assert posts(hand)[-1] == ("E", PostKind.OPTION, 200, False)
    assert to_act(hand) == "F"


@pytest.mark.parametrize(
    ("stacks", "option", "dead", "message"),
    [
        (SIX, 7, (), "occupied"),
        (SIX, 5, (), "first player left of the big blind"),
        (SIX, 2, (), "first player left of the big blind"),
        (SIX, 3, (), "first player left of the big blind"),
        (SIX, 4, ("D",), "dead hand"),
        ({"A": 10000, "B": 10000}, 1, (), "fewer than three"),
        ({"A": 10000, "B": 10000}, 2, (), "fewer than three"),
        (THREE, 1, ("B",), "fewer than three"),
    ],
)
def test_impossible_options_are_refused(
    stacks: dict[str, int], option: int, dead: tuple[str, ...], message: str
) -> None:
    with pytest.raises(SetupError, match=message):
        make(stacks, option=option, dead=dead)


def test_no_option_changes_nothing() -> None:
    hand = make(SIX, option=None)
    assert hand.option_i == -1 and to_act(hand) == "D"
    assert [p[1] for p in posts(hand)] == [PostKind.SMALL_BLIND, PostKind.BIG_BLIND]


# ----------------------------------------------------------------------------- replay


def test_replay_scenario_carries_the_option() -> None:
    scenario = {
        "profile": "casino",
        "blinds": {"sb": 50, "bb": 100},
        "players": [{"name": n, "seat": k + 1, "stack": 10000} for k, n in enumerate("ABCD")],
        "button": 1,
        "option": 4,
        "inputs": [{"player": "A", "say": {"verb": "raise", "amount": 300}}],
    }
    out = run_scenario(scenario, random.Random(1))
    option = [e for e in out["events"] if e["type"] == "Posted" and e["kind"] == "option"]
    assert option == [
        {
            "type": "Posted",
            "player": "D",
            "kind": "option",
            "amount": 200,
            "allin": False,
            "rule": "casino-option",
        }
    ]
    assert out["results"][0]["to"] == 400  # casino 50 % rule: completed to twice the option
    with pytest.raises(ScenarioError, match="option"):
        run_scenario({**scenario, "option": 2}, random.Random(1))


# ----------------------------------------------------------------------------- properties


@st.composite
def option_setups(draw: st.DrawFn, profile: str) -> HandSetup:
    """The random set-ups of the engine properties (seat fees, dead small blinds, dead hands,
    antes, rake, runs) with the option posted wherever three live players allow it."""
    base = draw(setups(profile), label="setup")
    seat = base.option_seat()
    if seat is None:
        return base
    return replace(base, option=seat)


@pytest.mark.parametrize("profile", PROFILE_IDS)
@settings(
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_option_hands_conserve_chips_and_terminate(profile: str, data: st.DataObject) -> None:
    """Random gestures, then the menu: chips conserved at every step, refusals change
    nothing, every menu entry works, the hand ends (as tests/engine/test_properties.py)."""
    setup_ = data.draw(option_setups(profile), label="option setup")
    hand = Hand(setup_)
    total = sum(s.stack for s in setup_.seats)
    check_chips(hand, total)
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="play seed"))
    for _ in range(data.draw(st.integers(0, MAX_GESTURES), label="gestures")):
        if hand.phase in (Phase.FINISHED, Phase.CANCELLED):
            break
        menu = hand.menu()
        if menu is not None:
            check_menu_entries(hand, menu, total, rng)
        attempt(hand, total, random_gesture(data, hand))
    _play_out(hand, total, rng)
    check_runs(hand)


def _play_out(hand: Hand, total: int, rng: random.Random) -> None:
    for _ in range(MAX_STEPS):
        menu = hand.menu()
        if menu is None and hand.phase is Phase.RUNS:
            answer = AgreeRuns(player=hand.runs_awaited()[0], runs=rng.randint(1, hand.setup.runs))
            assert attempt(hand, total, answer if rng.random() < 0.9 else RUNS_TIMEOUT)
            continue
        if menu is None:
            if hand.phase is Phase.SHOWDOWN:
                assert attempt(hand, total, None)
            break
        check_menu_entries(hand, menu, total, rng)
        options = menu_options(menu, rng)
        passive = [o for o in options if o[1] != "raise"]
        chosen = (rng.choice(passive) if passive and rng.random() < 0.75 else rng.choice(options))[
            0
        ]
        assert attempt(hand, total, Act(player=menu.player, say=chosen)), (chosen, menu)
    assert hand.phase is Phase.FINISHED, hand.phase
    assert sum(hand.stack) + hand.rake_taken() == total


@pytest.mark.parametrize("profile", PROFILE_IDS)
@settings(derandomize=True, max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_option_speaks_last_preflop_when_nobody_raised(profile: str, seed: int) -> None:
    """Menu-driven hands (random stacks, short ones too), no raise preflop: the option never
    speaks first, and if he had a say it was the last word of the round."""
    rng = random.Random(seed)
    rs = random_setup(rng, players=rng.randint(3, 9), ante_rate=0.0)
    base = rs.engine_setup(profile)
    seat = base.option_seat()
    assert seat is not None
    hand = Hand(replace(base, option=seat))
    option = hand.names[hand.option_i]
    first = hand.menu()
    assert first is None or first.player != option
    while (menu := hand.menu()) is not None and hand.street is Street.PREFLOP:
        stays = menu.call == 0 or rng.random() < 0.8
        say(hand, menu.player, Verb.CHECK if menu.call == 0 else Verb.CALL if stays else Verb.FOLD)
    preflop = []
    for e in hand.events:
        if isinstance(e, BoardDealt):
            break
        if isinstance(e, Acted):
            preflop.append(e.player)
    if option in preflop:
        assert preflop[-1] == option, preflop
    check_down(hand)
    assert sum(hand.stack) + hand.rake_taken() == sum(rs.stacks)


# ----------------------------------------------------------------------------- PokerKit


def _pokerkit_straddle_state(rs: RandomSetup) -> Any:
    """PokerKit 0.7.7 with blinds-or-straddles (sb, bb, 2 bb): its player 2, clockwise from
    the button, straddles; its minimum bet is the straddle, so the first raise is to twice it
    (PokerKit's minimum bet is one number for every street: only preflop is compared)."""
    pk = _pokerkit()  # the module, with the card table pokerkit_advance deals from
    a = pk.Automation
    order = rs.clockwise()
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
        True,
        0,
        (rs.sb, rs.bb, 2 * rs.bb),
        2 * rs.bb,
        tuple(rs.stacks[i] for i in order),
        rs.n,
    )


def test_preflop_with_the_option_agrees_with_pokerkit_straddle() -> None:
    """Our tda engine and PokerKit's straddle agree at every preflop decision (player in turn,
    call, raise allowed, min and max raise-to) and on every bet, on random 3-9 player hands
    whose stacks all cover a full raise over the option (four big blinds: no short all-in as
    the first raise, a known difference, see test_pokerkit_diff.py, ``blocked``)."""
    pytest.importorskip("pokerkit")
    rng = random.Random(2025)
    compared = 0
    for _ in range(300):
        rs = random_setup(rng, players=rng.randint(3, 9), ante_rate=0.0)
        rs = replace(rs, stacks=tuple(max(s, 4 * rs.bb + UNIT) for s in rs.stacks))
        base = rs.engine_setup("tda")
        hand = Hand(replace(base, option=base.option_seat()))
        state = _pokerkit_straddle_state(rs)
        order = rs.clockwise()
        pos = positions(rs)
        stream = ActionStream(rng.randrange(2**32))
        while hand.street is Street.PREFLOP and hand.phase is Phase.BETTING:
            pokerkit_advance(state, rs, order)
            if state.street_index != 0:
                break
            bets = {rs.names[order[k]]: int(state.bets[k]) for k in range(rs.n)}
            assert bets == dict(zip(hand.names, hand.committed, strict=True)), rs.describe()
            menu = hand.menu()
            theirs = pokerkit_menu(state)
            ours = None if menu is None else engine_view(hand, menu, pos)
            assert ours == theirs, (rs.describe(), ours, theirs)
            if menu is None or ours is None:
                break
            compared += 1
            d = stream.next(ours)
            engine_act(hand, menu, d)
            pokerkit_apply(state, d)
    assert compared > 1000
