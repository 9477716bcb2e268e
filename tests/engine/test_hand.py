"""Unit tests of the engine on scripted hands, citing the rule each one checks.

Golden scenarios from the rulebooks' worked examples live in scenarios/ (test_golden.py);
these cover what the books state without a numeric example.
"""

from __future__ import annotations

import copy

import pytest

from server.engine import (
    Act,
    AnteFormat,
    Blinds,
    ErrorCode,
    Form,
    Hand,
    HandSetup,
    Muck,
    Phase,
    RuleError,
    Say,
    SeatSetup,
    Verb,
    load_profile,
    parse_card,
)
from server.engine.events import Acted, FaceUp, HandCancelled, OutOfTurn, Posted, PostKind


def make(
    profile: str = "cdc",
    stacks: dict[str, int] | None = None,
    seats: dict[str, int] | None = None,
    button: int = 1,
    sb: int = 50,
    bb: int = 100,
    ante: int = 0,
    fmt: AnteFormat = AnteFormat.NONE,
    dead: tuple[str, ...] = (),
    big_blind: int | None = None,
    hole: dict[str, str] | None = None,
    board: str = "2d9sJc4hQs",
    denominations: tuple[int, ...] = (25, 100, 500, 1000, 5000),
) -> Hand:
    stacks = stacks or {"A": 10000, "B": 10000, "C": 10000}
    names = list(stacks)
    seats = seats or {name: k + 1 for k, name in enumerate(names)}
    deck = [
        c for c in range(52) if c not in {parse_card(board[k : k + 2]) for k in (0, 2, 4, 6, 8)}
    ]
    holes: dict[str, tuple[int, int]] = {}
    for name in names:
        if hole and name in hole:
            pair = (parse_card(hole[name][:2]), parse_card(hole[name][2:]))
            deck = [c for c in deck if c not in pair]
            holes[name] = pair
    for name in names:
        if name not in holes:
            holes[name] = (deck.pop(), deck.pop())
    return Hand(
        HandSetup(
            profile=load_profile(profile),
            blinds=Blinds(sb=sb, bb=bb, ante=ante, ante_format=fmt),
            seats=tuple(
                SeatSetup(player=n, seat=seats[n], stack=stacks[n], dead=n in dead) for n in names
            ),
            button=button,
            hole=holes,
            board=tuple(parse_card(board[k : k + 2]) for k in (0, 2, 4, 6, 8)),
            denominations=denominations,
            big_blind=big_blind,
        )
    )


def say(
    hand: Hand, player: str, verb: str, amount: int | None = None, form: str = "total"
) -> Acted:
    events = hand.act(Act(player=player, say=Say(verb=Verb(verb), amount=amount, form=Form(form))))
    acted = [e for e in events if isinstance(e, Acted) and e.player == player]
    return acted[0] if acted else None  # type: ignore[return-value]


def push(hand: Hand, player: str, *chips: int) -> Acted | None:
    events = hand.act(Act(player=player, chips=tuple(chips)))
    acted = [e for e in events if isinstance(e, Acted) and e.player == player]
    return acted[0] if acted else None


def state(hand: Hand) -> dict[str, object]:
    d = {k: v for k, v in hand.__dict__.items() if k not in ("setup", "profile") and k[0] != "_"}
    return copy.deepcopy(d)


def test_positions_three_handed() -> None:
    # cdc 4.3 / tda 31: SB is the first seat left of the button, BB the next; UTG acts first
    hand = make()
    posts = [e for e in hand.events if isinstance(e, Posted)]
    assert [(e.player, e.kind) for e in posts] == [
        ("B", PostKind.SMALL_BLIND),
        ("C", PostKind.BIG_BLIND),
    ]
    assert hand.menu().player == "A"  # type: ignore[union-attr]


def test_heads_up_button_posts_small_blind_and_acts_first_preflop_last_after() -> None:
    # cdc 4.4, tda 33: heads-up the button is the small blind, first preflop, last after
    hand = make(stacks={"A": 1000, "B": 1000}, button=1)
    posts = {e.player: e.kind for e in hand.events if isinstance(e, Posted)}
    assert posts == {"A": PostKind.SMALL_BLIND, "B": PostKind.BIG_BLIND}
    assert hand.menu().player == "A"  # type: ignore[union-attr]
    say(hand, "A", "call")
    say(hand, "B", "check")
    assert hand.menu().player == "B"  # type: ignore[union-attr]


def test_dead_button_with_pinned_big_blind_has_no_small_blind() -> None:
    # cdc 4.3: the big blind busted -> the old SB has the button, the old UTG posts the BB alone
    hand = make(
        stacks={"A": 1000, "C": 1000, "D": 1000},
        seats={"A": 1, "C": 3, "D": 4},
        button=1,
        big_blind=3,
    )
    posts = [(e.player, e.kind) for e in hand.events if isinstance(e, Posted)]
    assert posts == [("C", PostKind.BIG_BLIND)]
    assert hand.menu().player == "D"  # type: ignore[union-attr]


def test_dead_button_on_empty_seat() -> None:
    # cdc 4.3: the SB busted -> dead button on the empty seat, old BB is SB, old UTG is BB
    hand = make(stacks={"A": 1000, "C": 1000, "D": 1000}, seats={"A": 1, "C": 3, "D": 4}, button=2)
    posts = [(e.player, e.kind) for e in hand.events if isinstance(e, Posted)]
    assert posts == [("C", PostKind.SMALL_BLIND), ("D", PostKind.BIG_BLIND)]
    assert hand.menu().player == "A"  # type: ignore[union-attr]


def test_dead_hand_posts_and_never_acts() -> None:
    # cdc 4.1, tda 29: absent at the deal: dead hand, blinds still posted
    hand = make(stacks={"A": 1000, "B": 1000, "C": 1000}, dead=("C",))
    assert hand.stack[hand.index["C"]] == 900
    say(hand, "A", "fold")  # B is the only live hand left: wins the dead big blind
    assert hand.finished
    assert hand.stacks() == {"A": 1000, "B": 1100, "C": 900}


def test_cancel_returns_every_bet() -> None:
    # cdc 5.4: a cancelled hand returns blinds and bets to their owners
    hand = make(ante=25, fmt=AnteFormat.CLASSIC)
    say(hand, "A", "raise", 300)
    say(hand, "B", "call")
    events = hand.cancel()
    assert isinstance(events[0], HandCancelled)
    assert hand.phase is Phase.CANCELLED
    assert hand.stacks() == {"A": 10000, "B": 10000, "C": 10000}
    with pytest.raises(RuleError) as err:
        say(hand, "C", "call")
    assert err.value.code is ErrorCode.HAND_OVER


def test_odd_chip_three_way_split() -> None:
    # 3 winners share 175 in 25s: 7 chips -> 3/2/2, the extra to the first left of the button
    hand = make(
        stacks={"A": 10000, "B": 10000, "C": 10000, "D": 10000},
        hole={"A": "2c3c", "B": "2h3h", "C": "4d5d", "D": "6d7c"},
        board="AsKsQsJsTs",
        sb=25,
        bb=50,
        denominations=(25, 100),
    )
    # A (button) folds after posting nothing; D is UTG (seat 4)
    say(hand, "D", "call")
    say(hand, "A", "fold")
    say(hand, "B", "call")
    say(hand, "C", "check")
    for _ in range(3):
        for p in ("B", "C", "D"):
            say(hand, p, "check")
    hand.auto_showdown()
    assert hand.finished
    assert sum(hand.stacks().values()) == 40000
    # pot 150 split three ways: 50 each, nobody gains or loses
    assert hand.stacks() == {"A": 10000, "B": 10000, "C": 10000, "D": 10000}


def test_split_with_odd_unit_goes_to_first_left_of_button() -> None:
    hand = make(
        stacks={"A": 10000, "B": 10000, "C": 10000},
        hole={"A": "2c3c", "B": "2h3h", "C": "4d5d"},
        board="AsKsQsJsTs",
        sb=25,
        bb=50,
        ante=25,
        fmt=AnteFormat.BUTTON,
        denominations=(25, 100),
    )
    # button ante 25 + blinds 75: A folds, B completes, C checks: pot 125 = 5 chips of 25
    say(hand, "A", "fold")
    say(hand, "B", "call")
    say(hand, "C", "check")
    for _ in range(3):
        say(hand, "B", "check")
        say(hand, "C", "check")
    hand.auto_showdown()
    assert hand.finished
    # B (first left of the button) gets 3 chips, C 2
    assert hand.stacks() == {"A": 9975, "B": 10025, "C": 10000}


def test_string_bet_second_motion_refused() -> None:
    # cdc 9.5, tda 51: only the first motion counts
    hand = make()
    push(hand, "A", 100)  # a call
    before = state(hand)
    with pytest.raises(RuleError) as err:
        push(hand, "A", 500)
    assert err.value.code is ErrorCode.STRING_BET
    assert state(hand) == before


def test_pending_raise_blocks_next_player_then_chips_define_amount() -> None:
    # cdc 9.3 note, tda 38-B: "raise" said, amount to follow; the next player must wait
    hand = make()
    hand.act(Act(player="A", say=Say(verb=Verb.RAISE)))
    menu = hand.menu()
    assert menu is not None and menu.pending == "amount"
    before = state(hand)
    with pytest.raises(RuleError) as err:
        say(hand, "B", "fold")
    assert err.value.code is ErrorCode.PENDING_DECLARATION
    assert state(hand) == before
    with pytest.raises(RuleError) as err:
        say(hand, "A", "call")
    assert err.value.code is ErrorCode.DECLARATION_BINDS
    acted = push(hand, "A", 500, 100)  # cdc 9.4: the chips are all the raise
    assert acted is not None and (acted.action, acted.to) == ("raise", 600)


def test_out_of_turn_call_binds_when_action_unchanged() -> None:
    # cdc 9.3, tda 40-A: an OOT call binds if nobody bets or raises before the turn
    hand = make(stacks={"A": 10000, "B": 10000, "C": 10000, "D": 10000})
    events = hand.act(Act(player="B", say=Say(verb=Verb.CALL)))  # D is UTG, B out of turn
    assert any(isinstance(e, OutOfTurn) and e.status == "recorded" for e in events)
    say(hand, "D", "call")
    events = hand.act(Act(player="A", say=Say(verb=Verb.CALL)))
    bound = [e for e in events if isinstance(e, Acted) and e.player == "B"]
    assert bound and bound[0].action == "call"
    assert hand.menu().player == "C"  # type: ignore[union-attr]


def test_out_of_turn_released_by_a_raise() -> None:
    hand = make(stacks={"A": 10000, "B": 10000, "C": 10000, "D": 10000})
    hand.act(Act(player="B", say=Say(verb=Verb.CALL)))
    say(hand, "D", "raise", 300)
    events = hand.act(Act(player="A", say=Say(verb=Verb.CALL)))
    assert any(isinstance(e, OutOfTurn) and e.status == "released" for e in events)
    menu = hand.menu()
    assert menu is not None and menu.player == "B" and menu.can_raise


def test_out_of_turn_fold_binds_at_once() -> None:
    hand = make(stacks={"A": 10000, "B": 10000, "C": 10000, "D": 10000})
    hand.act(Act(player="B", say=Say(verb=Verb.FOLD)))
    assert hand.folded[hand.index["B"]]


def test_casino_out_of_turn_after_a_raise_is_call_or_fold_only() -> None:
    # casino: the OOT player, after a raise before him, may call or fold, never re-raise
    hand = make("casino", stacks={"A": 10000, "B": 10000, "C": 10000, "D": 10000})
    hand.act(Act(player="B", say=Say(verb=Verb.CALL)))
    say(hand, "D", "raise", 400)
    say(hand, "A", "call")
    menu = hand.menu()
    assert menu is not None and menu.player == "B" and not menu.can_raise
    with pytest.raises(RuleError) as err:
        say(hand, "B", "raise", 2000)
    assert err.value.code is ErrorCode.RAISE_NOT_ALLOWED


def test_ligue_out_of_turn_bet_when_player_in_turn_checks_becomes_check() -> None:
    # ligue 6.14 case 2: the player in turn checks, the offender may only check
    hand = make("ligue")
    say(hand, "A", "call")
    say(hand, "B", "call")
    say(hand, "C", "check")
    # flop: B first, C out of turn bets 500
    hand.act(Act(player="C", say=Say(verb=Verb.BET, amount=500)))
    events = hand.act(Act(player="B", say=Say(verb=Verb.CHECK)))
    c_action = [e for e in events if isinstance(e, Acted) and e.player == "C"]
    assert c_action and c_action[0].action == "check"


def test_open_fold_refused_in_fpc_binding_in_tda() -> None:
    # fpc 18-26 vs tda 53
    for profile, refused in (("fpc", True), ("tda", False)):
        hand = make(profile)
        say(hand, "A", "call")
        say(hand, "B", "call")
        if refused:
            before = state(hand)
            with pytest.raises(RuleError) as err:
                say(hand, "C", "fold")
            assert err.value.code is ErrorCode.FOLD_WHEN_CHECK
            assert state(hand) == before
        else:
            assert say(hand, "C", "fold").action == "fold"


def test_check_facing_a_bet_must_call_or_fold() -> None:
    # cdc 9.4: "check" facing a bet: take back the action, no raise
    hand = make()
    say(hand, "A", "raise", 300)
    events = hand.act(Act(player="B", say=Say(verb=Verb.CHECK)))
    assert not any(isinstance(e, Acted) for e in events)
    menu = hand.menu()
    assert menu is not None and menu.player == "B" and menu.pending == "call_or_fold"
    with pytest.raises(RuleError) as err:
        say(hand, "B", "raise", 1000)
    assert err.value.code is ErrorCode.RAISE_NOT_ALLOWED
    assert say(hand, "B", "call").to == 300


def test_call_with_no_bet_is_a_check() -> None:
    hand = make()
    say(hand, "A", "call")
    say(hand, "B", "call")
    assert say(hand, "C", "call").action == "check"


def test_big_blind_ante_priority_by_profile() -> None:
    # cdc 4.2: ante first; fpc 6-1: big blind first. BB has 1400 at 500/1000 (1000 BB ante)
    for profile, ante_paid, bb_paid in (("cdc", 1000, 400), ("fpc", 400, 1000)):
        hand = make(
            profile,
            stacks={"A": 20000, "B": 20000, "C": 1400},
            sb=500,
            bb=1000,
            ante=1000,
            fmt=AnteFormat.BIG_BLIND,
        )
        posts = {e.kind: e.amount for e in hand.events if isinstance(e, Posted)}
        assert posts[PostKind.ANTE] == ante_paid and posts[PostKind.BIG_BLIND] == bb_paid


def test_no_ante_heads_up_in_cdc_big_blind_format() -> None:
    # cdc 4.4: heads-up, no ante unless the format is classic
    hand = make("cdc", stacks={"A": 5000, "B": 5000}, ante=100, fmt=AnteFormat.BIG_BLIND)
    assert not any(isinstance(e, Posted) and e.kind is PostKind.ANTE for e in hand.events)
    hand = make("tda", stacks={"A": 5000, "B": 5000}, ante=100, fmt=AnteFormat.BIG_BLIND)
    assert any(isinstance(e, Posted) and e.kind is PostKind.ANTE for e in hand.events)


def test_classic_ante_short_stack_wins_only_its_share() -> None:
    # fpc 6-1 classic: a player short of the ante is all-in and wins his stack per player
    hand = make(
        "fpc",
        stacks={"A": 60, "B": 10000, "C": 10000},
        ante=100,
        fmt=AnteFormat.CLASSIC,
        hole={"A": "AsAh", "B": "2c7d", "C": "3c8d"},
        board="AdKc9h4s5s",
    )
    say(hand, "B", "call")
    say(hand, "C", "check")
    for _ in range(3):
        say(hand, "B", "check")
        say(hand, "C", "check")
    hand.auto_showdown()
    assert hand.finished
    assert hand.stacks()["A"] == 180  # 60 from each of the three antes


def test_undersized_single_chip_cdc_multiway_commits_then_call_or_fold() -> None:
    # cdc 9.12: three or more players: the chip goes in, call or fold, no raise
    hand = make(stacks={"A": 10000, "B": 10000, "C": 10000, "D": 10000})
    say(hand, "D", "raise", 1200)
    hand.act(Act(player="A", chips=(500,)))
    menu = hand.menu()
    assert menu is not None and menu.player == "A" and menu.pending == "call_or_fold"
    assert hand.committed[hand.index["A"]] == 500
    assert say(hand, "A", "fold").action == "fold"
    assert hand.stack[hand.index["A"]] == 9500


def test_abbreviated_amounts_by_profile() -> None:
    # cdc 9.1: "5" is 500 when the pot is under 5000, 5000 otherwise; tda 52: the smallest
    for profile, expected in (("cdc", 5000), ("tda", 500), ("fpc", 500)):
        hand = make(profile)
        say(hand, "A", "raise", 3000)
        say(hand, "B", "call")
        say(hand, "C", "call")  # pot 9000
        assert say(hand, "B", "bet", 5, "abbreviated").to == expected
    hand = make("cdc")
    assert say(hand, "A", "raise", 5, "abbreviated").to == 500  # pot 150 < 5000


def test_plus_form_by_profile() -> None:
    # cdc 9.1: "plus 4000" = to 4000; tda 43-B: 4000 more
    hand = make("cdc", stacks={"A": 50000, "B": 50000, "C": 50000}, sb=500, bb=1000)
    assert say(hand, "A", "raise", 4000, "plus").to == 4000
    hand = make("tda", stacks={"A": 50000, "B": 50000, "C": 50000}, sb=500, bb=1000)
    assert say(hand, "A", "raise", 4000, "plus").to == 5000


def test_double_minimum_raise_in_ligue() -> None:
    # ligue 6.4 example 4: bet 600 (blinds 100/200) -> raise at least 1200 -> re-raise 2400
    hand = make("ligue", sb=100, bb=200)
    say(hand, "A", "call")
    say(hand, "B", "call")
    say(hand, "C", "check")
    say(hand, "B", "bet", 600)
    menu = hand.menu()
    assert menu is not None and menu.min_raise_to == 1200
    say(hand, "C", "raise", 1200)
    assert hand.menu().min_raise_to == 2400  # type: ignore[union-attr]


def test_all_in_turns_hands_face_up_and_busts_rank_by_start_stack() -> None:
    # cdc 10.4: face up when no more betting is possible; cdc 1.10: ranking by start stack
    hand = make(
        stacks={"A": 3000, "B": 2000, "C": 10000},
        hole={"A": "2c7d", "B": "3c8d", "C": "AsAh"},
        board="AdKc9h4s5s",
    )
    say(hand, "A", "allin")
    say(hand, "B", "allin")
    events = hand.act(Act(player="C", say=Say(verb=Verb.CALL)))
    assert any(isinstance(e, FaceUp) for e in events)
    assert hand.finished
    assert hand.stacks() == {"A": 0, "B": 0, "C": 15000}
    assert hand.events[-1].busted == (("A", 3000), ("B", 2000))  # type: ignore[union-attr]


def test_muck_rules_at_showdown() -> None:
    # tda 17-B / cdc 10.5: a called river bettor shows first; others may muck
    hand = make(hole={"A": "AsAh", "B": "2c7d", "C": "3c8d"}, board="AdKc9h4s5s")
    say(hand, "A", "call")
    say(hand, "B", "call")
    say(hand, "C", "check")
    for _ in range(2):
        for p in ("B", "C", "A"):
            say(hand, p, "check")
    say(hand, "B", "check")
    say(hand, "C", "bet", 500)
    say(hand, "A", "call")
    say(hand, "B", "call")
    assert hand.phase is Phase.SHOWDOWN
    with pytest.raises(RuleError) as err:
        hand.muck(Muck(player="C"))
    assert err.value.code is ErrorCode.MUST_SHOW
    hand.muck(Muck(player="B"))
    hand.auto_showdown()
    assert hand.finished and hand.stacks()["A"] == 10000 - 600 + 1800


def test_illegal_commands_change_nothing() -> None:
    hand = make()
    say(hand, "A", "raise", 300)
    before = state(hand)
    bad = [
        Act(player="Z", say=Say(verb=Verb.CALL)),
        Act(player="B", chips=(7,)),
        Act(player="B", chips=(5000, 5000, 5000)),
        Act(player="B"),
        Act(player="A", say=Say(verb=Verb.CALL)),  # string bet: A just acted
    ]
    for command in bad:
        with pytest.raises(RuleError):
            hand.act(command)
        assert state(hand) == before


def test_folded_small_blind_surplus_over_short_big_blind_is_returned() -> None:
    # cdc 4.2 example 2.1: BB all-in for 1000 ante + 400 blind gets a walk: the SB gives
    # 400 and takes back its 100 surplus (a folded player's surplus is returned, a dead
    # hand's blind is collected: see test_dead_hand_posts_and_never_acts)
    hand = make(
        stacks={"BTN": 20000, "SB": 20000, "A": 1400, "U": 20000},
        seats={"BTN": 1, "SB": 2, "A": 3, "U": 4},
        sb=500,
        bb=1000,
        ante=1000,
        fmt=AnteFormat.BIG_BLIND,
    )
    for p in ("U", "BTN", "SB"):
        say(hand, p, "fold")
    assert hand.finished
    assert hand.stacks() == {"BTN": 20000, "SB": 19600, "A": 1800, "U": 20000}


def test_all_in_for_the_big_blind_ante_alone_can_win_it() -> None:
    # cdc 4.2 example 1: 500/1000 (1000 BB ante), BB has 800: all-in on the ante, no BB in
    # play, can win only the 800. Here he wins it with the best hand; the rest goes back.
    hand = make(
        stacks={"BTN": 20000, "SB": 20000, "A": 800},
        seats={"BTN": 1, "SB": 2, "A": 3},
        sb=500,
        bb=1000,
        ante=1000,
        fmt=AnteFormat.BIG_BLIND,
        hole={"A": "AsAh", "BTN": "2c7d", "SB": "3c8d"},
        board="AdKc9h4s5s",
    )
    say(hand, "BTN", "call")  # the call is still one big blind (cdc 4.2 ex. 2.2)
    say(hand, "SB", "call")
    for _ in range(3):
        say(hand, "SB", "check")
        say(hand, "BTN", "check")
    hand.auto_showdown()
    assert hand.finished
    assert hand.stacks()["A"] == 800
    assert sum(hand.stacks().values()) == 40800
    assert [p.amount for p in hand.pots()] == [800, 2000]


def test_ligue_chips_below_the_bet_are_committed_call_or_fold() -> None:
    # ligue art. 6: chips below the bet without a declaration: match it or fold, chips stay
    hand = make("ligue", stacks={"A": 10000, "B": 10000, "C": 10000, "D": 10000})
    say(hand, "D", "raise", 1200)
    hand.act(Act(player="A", chips=(500, 100)))
    menu = hand.menu()
    assert menu is not None and menu.pending == "call_or_fold" and menu.call == 600
    say(hand, "A", "fold")
    assert hand.stack[hand.index["A"]] == 9400


def test_timeout_checks_when_free_and_dead_hand_folds() -> None:
    # ONLINE_RULES: the action clock checks if free, else folds; cdc 3.5: Time expired = dead
    hand = make("fpc")
    say(hand, "A", "call")
    say(hand, "B", "call")
    events = hand.timeout("C")
    assert [e.action for e in events if isinstance(e, Acted)] == ["check"]
    events = hand.timeout("B", dead=True)  # fpc refuses a voluntary fold here, not a dead hand
    assert [e.action for e in events if isinstance(e, Acted)] == ["fold"]
    with pytest.raises(RuleError):
        hand.timeout("A")  # not A's turn


def test_no_raise_offered_when_no_opponent_can_call_more() -> None:
    # found by the PokerKit differential test: A (300) called, B all-in 1000; C may only
    # call or fold, since nobody could call any raise (it would all come back uncalled)
    hand = make("tda", stacks={"A": 300, "B": 1000, "C": 5000}, button=1)
    say(hand, "A", "call")
    say(hand, "B", "allin")
    menu = hand.menu()
    assert menu is not None and menu.player == "C" and not menu.can_raise
    assert say(hand, "C", "allin").action == "call"


def test_pot_declaration_void_in_cdc_pending_raise_in_tda() -> None:
    # cdc 9.15: "pot" is not a valid no-limit declaration; tda 50-C: it binds to a valid bet
    hand = make("cdc")
    before = state(hand)
    with pytest.raises(RuleError) as err:
        say(hand, "A", "pot")
    assert err.value.code is ErrorCode.VOID_DECLARATION and state(hand) == before
    hand = make("tda")
    hand.act(Act(player="A", say=Say(verb=Verb.POT)))
    assert hand.menu().pending == "amount"  # type: ignore[union-attr]
    acted = push(hand, "A", 100)  # one chip with "pot": at least the minimum raise
    assert acted is not None and acted.to == 200


def test_amount_said_alone_below_the_call() -> None:
    # cdc 9.5 (exception): void, restate; tda 37-C + 39-B: chips of that amount, completed
    hand = make("cdc", sb=500, bb=1000)
    before = state(hand)
    with pytest.raises(RuleError) as err:
        say(hand, "A", "amount", 500)
    assert err.value.code is ErrorCode.VOID_DECLARATION and state(hand) == before
    hand = make("tda", sb=500, bb=1000)
    assert say(hand, "A", "amount", 500).action == "call"
    hand = make("tda", sb=500, bb=1000)
    assert say(hand, "A", "amount", 1400).action == "call"  # tda 43-A: 1400 facing 1000
    hand = make("tda", sb=500, bb=1000)
    assert say(hand, "A", "amount", 1500).to == 2000  # half a raise: completed


def test_silent_opening_bet_below_the_big_blind_is_aligned() -> None:
    # cdc 9.10 underbet, fpc 18-9: an opening bet is at least the big blind
    hand = make("cdc")
    say(hand, "A", "call")
    say(hand, "B", "call")
    say(hand, "C", "check")
    acted = push(hand, "B", 25)
    assert acted is not None and (acted.action, acted.to) == ("bet", 100)


def test_declared_amount_over_the_stack_is_all_in() -> None:
    # casino, "la parole prime": an announcement over the stack means the stack
    hand = make("casino", stacks={"A": 2000, "B": 10000, "C": 10000})
    acted = say(hand, "A", "raise", 50000)
    assert acted.action == "allin" and acted.to == 2000


def test_no_cap_on_raises_and_check_raise_allowed() -> None:
    # cdc 9.14, tda 48: no limit to the number of raises; fpc 18-7: check-raise allowed
    hand = make(stacks={"A": 10**6, "B": 10**6, "C": 10**6})
    to = 100
    for k in range(12):
        to *= 2
        say(hand, "ABC"[k % 3], "raise", to)
    assert hand.cb == 409600
    hand = make()
    say(hand, "A", "call")
    say(hand, "B", "call")
    say(hand, "C", "check")
    say(hand, "B", "check")
    say(hand, "C", "bet", 300)
    say(hand, "A", "call")
    assert say(hand, "B", "raise", 900).action == "raise"  # B checked, then raises


def test_no_button_ante_when_the_button_is_dead() -> None:
    # cdc 4.3: with a dead button there is no ante in the button-ante format
    hand = make(
        stacks={"A": 1000, "C": 1000, "D": 1000},
        seats={"A": 1, "C": 3, "D": 4},
        button=2,
        ante=25,
        fmt=AnteFormat.BUTTON,
    )
    assert not any(isinstance(e, Posted) and e.kind is PostKind.ANTE for e in hand.events)
    hand = make(ante=25, fmt=AnteFormat.BUTTON)
    antes = [e for e in hand.events if isinstance(e, Posted) and e.kind is PostKind.ANTE]
    assert [(e.player, e.amount) for e in antes] == [("A", 25)]


def test_ligue_out_of_turn_cases_one_and_three() -> None:
    # ligue 6.14 case 1: the player in turn folds -> the offender is bound
    hand = make("ligue", stacks={"A": 10000, "B": 10000, "C": 10000, "D": 10000})
    hand.act(Act(player="A", say=Say(verb=Verb.CALL)))  # D is to act; A out of turn
    events = hand.act(Act(player="D", say=Say(verb=Verb.FOLD)))
    assert [e.action for e in events if isinstance(e, Acted) and e.player == "A"] == ["call"]
    # case 3: the player in turn bets more than announced -> the offender is free
    hand = make("ligue", stacks={"A": 10000, "B": 10000, "C": 10000, "D": 10000})
    hand.act(Act(player="A", say=Say(verb=Verb.RAISE, amount=300)))
    say(hand, "D", "raise", 1000)
    menu = hand.menu()
    assert menu is not None and menu.player == "A" and menu.can_raise
    # case 2 bis: the player in turn bets no more than announced -> call or fold only
    hand = make("ligue", stacks={"A": 10000, "B": 10000, "C": 10000, "D": 10000})
    hand.act(Act(player="A", say=Say(verb=Verb.RAISE, amount=1000)))
    say(hand, "D", "raise", 400)
    menu = hand.menu()
    assert menu is not None and menu.player == "A" and not menu.can_raise


def test_folded_chips_are_dead_money_for_a_live_player_who_is_not_all_in() -> None:
    # found by the browser tests: heads-up, the BB folds out of turn before the SB acts; the
    # SB wins the whole 150 (a folded player's chips stay in the pot), nothing is "returned"
    hand = make(stacks={"A": 1000, "B": 1000}, button=1)  # A: button and SB, B: BB
    hand.act(Act(player="B", say=Say(verb=Verb.FOLD)))
    assert hand.finished
    assert hand.stacks() == {"A": 1100, "B": 900}
    assert not [e for e in hand.events if type(e).__name__ == "Returned"]


def _ligue_underbet(stacks: dict[str, int] | None = None) -> Hand:
    """ligue 6 (intro): four players, everyone limps, on the flop B (first to speak) pushes
    one 25 chip silently with no bet to face: committed, then bet the big blind or fold."""
    h = make("ligue", stacks=stacks or {n: 10000 for n in "ABCD"})
    for name, verb in (("D", "call"), ("A", "call"), ("B", "call"), ("C", "check")):
        h.act(Act(player=name, say=Say(verb=Verb(verb))))
    h.act(Act(player="B", chips=(25,)))
    return h


def test_ligue_underbet_menu_offers_the_big_blind_bet_or_the_fold() -> None:
    h = _ligue_underbet()
    menu = h.menu()
    assert menu is not None and menu.player == "B" and menu.pending == "call_or_fold"
    assert menu.can_fold and not menu.can_check and menu.can_raise
    assert menu.min_raise_to == menu.max_raise_to == 100  # the big blind, nothing else
    with pytest.raises(RuleError):
        h.act(Act(player="B", say=Say(verb=Verb.CHECK)))
    events = h.act(Act(player="B", say=Say(verb=Verb.RAISE, amount=100)))
    acted = [e for e in events if isinstance(e, Acted)]
    assert [(e.action, e.to, e.added) for e in acted] == [("bet", 100, 75)]
    after = h.menu()
    assert after is not None and after.player == "C" and after.call == 100


def test_ligue_underbet_clock_expiry_folds_and_the_chip_stays_in() -> None:
    h = _ligue_underbet()
    events = h.timeout("B")
    assert [e.action for e in events if isinstance(e, Acted)] == ["fold"]
    assert h.stacks()["B"] == 10000 - 100 - 25  # the limp and the chip
    assert sum(p.amount for p in h.pots()) == 4 * 100 + 25  # dead in the pot
