"""Property tests of the engine under every profile (Hypothesis, derandomized).

Random set-ups (2-9 players, short stacks, every ante format, the odd dead hand) are driven
by random gesture streams: exact declarations from the menu, silent chip pushes of random
chips, random verbs and amounts and forms, players out of turn or not in the hand, shows
and mucks at random. Then the hand is played out from the menu. Checked:

(a) chips are conserved at every step: stacks + contributions + dead money == the chips the
    hand started with; once finished, the stacks and the rake hold them all (a random rake,
    casino cash « la taille », and random cash posts: live seat fees, dead small blinds);
(b) a refused command (RuleError) leaves the whole state unchanged;
(c) every entry of the menu is accepted, and does what it says: fold, check or call (the
    call amount exactly), raise to the minimum, the maximum and a value in between;
(d) the hand always terminates when driven by menu actions and ``auto_showdown``;
(e) the runs of the board (fpc cash multi-bordes, run it twice by agreement, answered or
    timed out at random): several runs only with two players left, every card dealt once
    across the runs, each divided pot in one part per run (:func:`check_runs`).
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
    Form,
    Hand,
    HandSetup,
    Menu,
    Muck,
    Phase,
    RuleError,
    Say,
    SeatSetup,
    Show,
    Verb,
    load_profile,
)
from server.engine.commands import AgreeRuns
from server.engine.events import Acted, BoardDealt, HoleDealt, PotAwarded, RunDealt
from server.engine.rake import Rake
from server.engine.state import Street
from tests.engine.randomhands import DENOMINATIONS, UNIT, random_setup

MAX_GESTURES = 40
CHIPS = (25, 25, 25, 100, 100, 100, 500, 500, 1000, 5000, 25000)
"""Chips pushed at random: mostly small ones, so that most pushes are affordable."""
MAX_STEPS = 2000
RUN_RULES = ((1, False), (1, False), (3, False), (2, False), (2, True), (3, True))
"""(runs, runs_agreed): one run, fpc multi-bordes, run it twice by agreement."""
RUNS_TIMEOUT = "runs timeout"
"""The gesture of the table's clock ending the wait for the runs' agreement."""

# --------------------------------------------------------------------------- set-ups


@st.composite
def setups(draw: st.DrawFn, profile: str) -> HandSetup:
    seed = draw(st.integers(0, 2**32 - 1), label="setup seed")
    fmt = draw(st.sampled_from(list(AnteFormat)), label="ante format")
    rng = random.Random(seed)
    rs = random_setup(rng, ante_rate=0.0)
    ante = 0
    if fmt is AnteFormat.CLASSIC:
        ante = UNIT * rng.randint(1, max(1, rs.bb // UNIT - 1))
    elif fmt is not AnteFormat.NONE:
        ante = rs.bb if rng.random() < 0.7 else UNIT * rng.randint(1, rs.bb // UNIT)
    dead = [False] * rs.n
    if rs.n > 2 and draw(st.integers(0, 9), label="dead hand") == 0:
        dead[rng.randrange(rs.n)] = True
    names = rs.names
    # casino cash: a seat fee (live, up to the big blind) and a dead small blind, now and then
    fees = [0] * rs.n
    dead_posts = [0] * rs.n
    if draw(st.integers(0, 3), label="cash posts") == 0:
        for k in range(rs.n):
            if not dead[k] and rng.random() < 0.3:
                fees[k] = rs.bb if rng.random() < 0.8 else UNIT * rng.randint(1, rs.bb // UNIT)
                dead_posts[k] = rs.sb if rng.random() < 0.5 else 0
    # fpc cash multi-bordes (runs without asking) or run it twice (by agreement), now and then
    runs, agreed = draw(st.sampled_from(RUN_RULES), label="runs")
    spare = [c for c in range(52) if c not in {*rs.board, *(c for h in rs.hole for c in h)}]
    rng.shuffle(spare)
    return HandSetup(
        profile=load_profile(profile),
        blinds=Blinds(sb=rs.sb, bb=rs.bb, ante=ante, ante_format=fmt),
        seats=tuple(
            SeatSetup(
                player=names[k],
                seat=rs.seats[k],
                stack=rs.stacks[k],
                dead=dead[k],
                seat_fee=fees[k],
                dead_post=dead_posts[k],
            )
            for k in range(rs.n)
        ),
        button=rs.button,
        hole={names[k]: rs.hole[k] for k in range(rs.n)},
        board=rs.board,
        denominations=DENOMINATIONS,
        rake=draw(rakes(), label="rake"),
        runs=runs,
        runs_agreed=agreed,
        extra_boards=tuple(tuple(spare[5 * k : 5 * k + 5]) for k in range(runs - 1)),
    )


@st.composite
def rakes(draw: st.DrawFn) -> Rake | None:
    """No rake, a zero rake, or any share with or without a per-hand cap."""
    if draw(st.booleans(), label="raked"):
        return None
    permille = draw(st.sampled_from([0, 1, 25, 50, 100, 999, 1000]), label="permille")
    cap = draw(st.sampled_from([0, 0, 10, 25, 300, 1000]), label="cap")
    return Rake(permille=permille, cap=cap)


# --------------------------------------------------------------------------- helpers

_MUTABLE = (list, dict, set)


def snapshot(hand: Hand) -> dict[str, Any]:
    """The hand's whole state (containers copied; their items are immutable)."""
    return {
        k: copy.copy(v) if isinstance(v, _MUTABLE) else v
        for k, v in hand.__dict__.items()
        if k not in ("setup", "profile")
    }


def clone(hand: Hand) -> Hand:
    new = object.__new__(Hand)
    new.__dict__.update(
        {k: copy.copy(v) if isinstance(v, _MUTABLE) else v for k, v in hand.__dict__.items()}
    )
    return new


def check_chips(hand: Hand, total: int) -> None:
    assert all(s >= 0 for s in hand.stack), hand.stack
    assert all(c >= 0 for c in hand.contrib), hand.contrib
    if hand.phase is Phase.FINISHED:
        rake = hand.rake_taken()
        assert sum(hand.stack) + rake == total, (hand.stacks(), rake, total)
        for pot in (e for e in hand.events if isinstance(e, PotAwarded)):
            assert 0 <= pot.rake <= pot.amount and pot.rake % hand.denominations[0] == 0
            assert sum(s for _, s in pot.shares) + pot.rake == pot.amount, pot
        cap = hand.setup.rake.cap if hand.setup.rake is not None else 0
        assert not cap or rake <= cap
    else:
        in_play = sum(hand.stack) + sum(hand.contrib) + hand.dead_money
        assert in_play == total, (hand.stack, hand.contrib, hand.dead_money, total)


def attempt(hand: Hand, total: int, command: Any) -> bool:
    """Apply a command of any kind; a refusal must change nothing. True if accepted."""
    before = snapshot(hand)
    try:
        if isinstance(command, Act):
            hand.act(command)
        elif isinstance(command, Show):
            hand.show(command)
        elif isinstance(command, Muck):
            hand.muck(command)
        elif isinstance(command, AgreeRuns):
            hand.agree_runs(command)
        elif command == RUNS_TIMEOUT:
            hand.runs_timeout()
        else:
            hand.auto_showdown()
    except RuleError:
        after = snapshot(hand)
        assert after == before, {
            k: (before[k], after.get(k)) for k in before if before[k] != after.get(k)
        }
        check_chips(hand, total)
        return False
    check_chips(hand, total)
    return True


def menu_options(menu: Menu, rng: random.Random) -> list[tuple[Say, str, int]]:
    """Every menu entry as (declaration, expected action, expected amount)."""
    options: list[tuple[Say, str, int]] = []
    if menu.pending != "amount":
        if menu.can_fold:
            options.append((Say(verb=Verb.FOLD), "fold", 0))
        if menu.can_check:
            options.append((Say(verb=Verb.CHECK), "check", 0))
        elif menu.call > 0:
            options.append((Say(verb=Verb.CALL), "call", menu.call))
    if menu.can_raise:
        lo, hi = menu.min_raise_to, menu.max_raise_to
        assert lo is not None and hi is not None and 0 < lo <= hi, menu
        for to in {lo, hi, rng.randint(lo, hi)}:
            options.append((Say(verb=Verb.RAISE, amount=to), "raise", to))
        options.append((Say(verb=Verb.ALLIN), "raise", hi))
    return options


def check_menu_entries(hand: Hand, menu: Menu, total: int, rng: random.Random) -> None:
    """(c): each entry of the menu is accepted (on a copy of the hand) and does what it says."""
    assert menu.call <= hand.stack[hand.index[menu.player]]
    for say, action, amount in menu_options(menu, rng):
        trial = clone(hand)
        try:
            events = trial.act(Act(player=menu.player, say=say))
        except RuleError as exc:  # pragma: no cover - the failure message
            raise AssertionError(f"menu entry {say} refused: {exc!r}; menu {menu}") from exc
        check_chips(trial, total)
        acted = next(e for e in events if isinstance(e, Acted) and e.player == menu.player)
        if action == "fold":
            assert acted.action == "fold"
        elif action == "check":
            assert acted.action == "check"
        elif action == "call":
            assert acted.action in ("call", "allin") and acted.added == amount, (acted, menu)
        else:
            assert acted.action in ("bet", "raise", "allin") and acted.to == amount, (acted, menu)


# --------------------------------------------------------------------------- gestures


def random_gesture(data: st.DataObject, hand: Hand) -> Any:
    if hand.phase is Phase.RUNS or data.draw(st.integers(0, 19), label="runs answer") == 0:
        if data.draw(st.integers(0, 4), label="runs timeout") == 0:
            return RUNS_TIMEOUT
        player = data.draw(st.sampled_from([*hand.names, "ghost"]), label="player")
        return AgreeRuns(player=player, runs=data.draw(st.integers(0, 4), label="runs"))
    if hand.phase is Phase.SHOWDOWN:
        kind = data.draw(st.integers(0, 3), label="showdown gesture")
        player = data.draw(st.sampled_from(hand.names), label="player")
        if kind == 0:
            return Show(player=player)
        if kind == 1:
            return Muck(player=player)
        if kind == 2:
            return None  # auto_showdown
    return _betting_gesture(data, hand)


def _betting_gesture(data: st.DataObject, hand: Hand) -> Act:
    names = hand.names
    kind = data.draw(st.integers(0, 99), label="gesture kind")
    if hand.to_act >= 0 and data.draw(st.integers(0, 4), label="in turn") > 0:
        player = names[hand.to_act]
    else:
        player = data.draw(st.sampled_from([*names, "ghost"]), label="player")
    say: Say | None = None
    chips: tuple[int, ...] | None = None
    if kind < 35:
        from_menu = _menu_gesture(data, hand)
        if from_menu is not None:
            return from_menu
    if kind < 85 and (kind >= 60 or data.draw(st.booleans(), label="declare")):
        say = _random_say(data)
    if say is None or data.draw(st.integers(0, 3), label="with chips") == 0:
        chips = _random_chips(data, say)
    return Act(player=player, say=say, chips=chips)


def _menu_gesture(data: st.DataObject, hand: Hand) -> Act | None:
    """A legal choice of the player to act, said (None if there is none)."""
    menu = hand.menu()
    if menu is not None:
        rng = random.Random(data.draw(st.integers(0, 2**16), label="menu choice"))
        options = menu_options(menu, rng)
        if options:
            say = options[data.draw(st.integers(0, len(options) - 1))][0]
            return Act(player=menu.player, say=say)
    return None


def _random_say(data: st.DataObject) -> Say:
    verb = data.draw(st.sampled_from(list(Verb)), label="verb")
    amount = data.draw(
        st.one_of(
            st.none(),
            st.integers(-5, 5),
            st.integers(1, 400).map(lambda k: k * UNIT),
            st.integers(1, 20_000),
        ),
        label="amount",
    )
    form = data.draw(st.sampled_from(list(Form)), label="form")
    return Say(verb=verb, amount=amount, form=form)


def _random_chips(data: st.DataObject, say: Say | None) -> tuple[int, ...]:
    chips = tuple(
        data.draw(
            st.lists(
                st.sampled_from(CHIPS),
                min_size=0 if say is not None else 1,
                max_size=6,
            ),
            label="chips",
        )
    )
    if chips and data.draw(st.integers(0, 19), label="bad chip") == 0:
        chips = (*chips[:-1], 30)  # not a chip in play
    return chips


# --------------------------------------------------------------------------- the property


@pytest.mark.parametrize("profile", PROFILE_IDS)
@settings(
    derandomize=True,
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_engine_properties(profile: str, data: st.DataObject) -> None:
    setup = data.draw(setups(profile), label="setup")
    hand = Hand(setup)
    total = sum(s.stack for s in setup.seats)
    check_chips(hand, total)
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="play seed"))

    # random gestures: anything goes, refusals must change nothing
    count = data.draw(st.integers(0, MAX_GESTURES), label="gestures")
    for _ in range(count):
        if hand.phase in (Phase.FINISHED, Phase.CANCELLED):
            break
        menu = hand.menu()
        if menu is not None:
            check_menu_entries(hand, menu, total, rng)
        attempt(hand, total, random_gesture(data, hand))

    # (d) played out from the menu: it must terminate
    for _ in range(MAX_STEPS):
        menu = hand.menu()
        if menu is None and hand.phase is Phase.RUNS:
            answer = AgreeRuns(player=hand.runs_awaited()[0], runs=rng.randint(1, setup.runs))
            assert attempt(hand, total, answer if rng.random() < 0.9 else RUNS_TIMEOUT)
            continue
        if menu is None:
            if hand.phase is Phase.SHOWDOWN:
                assert attempt(hand, total, None)
                assert hand.phase is Phase.FINISHED, "auto_showdown did not finish the hand"
            assert hand.phase is not Phase.BETTING, "betting phase with nobody to act"
            break
        check_menu_entries(hand, menu, total, rng)
        options = menu_options(menu, rng)
        assert options, menu
        passive = [o for o in options if o[1] != "raise"]
        say = (rng.choice(passive) if passive and rng.random() < 0.75 else rng.choice(options))[0]
        assert attempt(hand, total, Act(player=menu.player, say=say)), (say, menu)
    assert hand.phase is Phase.FINISHED, hand.phase
    assert sum(hand.stack) + hand.rake_taken() == total
    check_runs(hand)


def check_runs(hand: Hand) -> None:
    """fpc multi-bordes, run it twice: several runs only with two players left in the pot;
    every card dealt once across the runs; the divided pots in one part per run, no later
    run paid more than an earlier one (odd chips to the first runs)."""
    events = hand.events
    dealt = [c for e in events if isinstance(e, HoleDealt | BoardDealt | RunDealt) for c in e.cards]
    assert len(dealt) == len(set(dealt)), dealt
    extra = [e for e in events if isinstance(e, RunDealt)]
    parts: dict[int, list[PotAwarded]] = {}
    for pot in (e for e in events if isinstance(e, PotAwarded)):
        parts.setdefault(pot.index, []).append(pot)
    if hand.runs == 1:
        assert not extra and all(len(p) == 1 for p in parts.values())
        return
    assert len(hand.live()) == 2 and hand.runs <= hand.setup.runs
    per_run = 3 if hand.runs_from is Street.FLOP else 2
    assert len(extra) == (hand.runs - 1) * per_run
    for pots in parts.values():
        assert [p.run for p in pots] in ([1], list(range(1, hand.runs + 1))), pots
        nets = [p.amount - p.rake for p in pots]
        assert nets == sorted(nets, reverse=True), pots
