"""Golden scenarios of five-card draw high, through the hand replay contract
(shared/specs/scenario-format.md, "Five-card draw").

The fpc book gives five-card draw its own section (« LE FIVE-CARD DRAW ») and points to a leaflet
we do not have (« Une plaquette "Principe du jeu – Règles de base – Combinaisons" »): the game
is standard five-card draw high; what the leaflet would have said is the project's choice,
cited where a case depends on it (docs/rules-matrix.md, fpc, five-card draw rows).

Each case is a replay input and a partial expected output (matched as ``test_golden.py``
does: only the keys written, ``eligible`` and ``winners`` without order). ``holes`` are
compared as sets (the order of a hand is not significant).
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from typing import Any

import pytest

from server.engine.cards import card_name, parse_card
from server.engine.replay import ScenarioError, run_scenario
from tests.engine.test_golden import REPO, first_mismatch

PLAYERS4 = [
    {"name": "A", "seat": 1, "stack": 5000},
    {"name": "B", "seat": 2, "stack": 5000},
    {"name": "C", "seat": 3, "stack": 5000},
    {"name": "D", "seat": 4, "stack": 5000},
]


def say(player: str, verb: str, amount: int | None = None) -> dict[str, Any]:
    words: dict[str, Any] = {"verb": verb}
    if amount is not None:
        words["amount"] = amount
    return {"player": player, "say": words}


def draw(player: str, *cards: str) -> dict[str, Any]:
    return {"player": player, "draw": list(cards)}


def scenario(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "profile": "fpc",
        "game": "draw",
        "blinds": {"sb": 50, "bb": 100},
        "players": PLAYERS4,
        "button": 1,
    }
    return {**base, **fields}


def play(data: dict[str, Any], upto: int | None = None) -> dict[str, Any]:
    if upto is not None:
        data = {**data, "inputs": data["inputs"][:upto]}
    return run_scenario(data)


def check(output: dict[str, Any], expected: dict[str, Any]) -> None:
    holes = expected.pop("holes", {})
    found = first_mismatch(expected, output)
    assert found is None, (found, {k: v for k, v in output.items() if k != "events"})
    for name, cards in holes.items():
        assert sorted(output["holes"][name]) == sorted(cards), (name, output["holes"][name])


def events_of(output: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in output["events"] if e["type"] == kind]


# --------------------------------------------------------------------------- draw order

ORDER = scenario(
    hole={
        "A": ["As", "Ks", "Qs", "Js", "2d"],
        "B": ["2c", "2h", "7d", "8s", "9c"],
        "C": ["3c", "3h", "4d", "5s", "Kd"],
        "D": ["Ah", "Ad", "Ac", "6h", "6d"],
    },
    stub=["7c", "7h", "Tc", "Th", "Jc"],
    inputs=[
        say("D", "call"),  # 0: first to act left of the big blind
        say("A", "call"),
        say("B", "call"),
        say("C", "check"),
        draw("A", "2d"),  # 4: refused, B draws first (the button's left)
        draw("B", "7d", "8s", "9c"),
        draw("C", "Kd"),
        draw("D"),  # stands pat
        draw("A", "2d"),
        say("B", "check"),  # 9: the second round from the button's left
        say("C", "check"),
        say("D", "bet", 200),
        say("A", "fold"),
        say("B", "fold"),
        say("C", "call"),
        {"player": "D", "show": True},  # the called bettor shows first
        {"player": "C", "muck": True},
    ],
)


def test_draw_order_from_the_buttons_left() -> None:
    # fpc LE FIVE-CARD DRAW (standard draw): blinds, first to act left of the big blind; the
    # draw in turn from the button's left, each player's cards in one go from the stub
    start = play(ORDER, 0)
    assert start["next"]["player"] == "D"
    before_draw = play(ORDER, 4)
    assert before_draw["next"] == {"player": "B", "draw": True, "max_discard": 5}
    assert play(ORDER, 7)["next"] == {"player": "D", "draw": True, "max_discard": 5}
    after_draw = play(ORDER, 9)
    assert after_draw["next"]["player"] == "B"
    assert after_draw["next"]["call"] == 0
    assert after_draw["next"]["min_raise_to"] == 100  # the smallest bet is the big blind
    out = play(ORDER)
    check(
        out,
        {
            "results": [
                {"accepted": True, "action": "call"},
                {"accepted": True, "action": "call"},
                {"accepted": True, "action": "call"},
                {"accepted": True, "action": "check"},
                {"accepted": False, "code": "not_your_draw"},
                {"accepted": True, "action": "draw", "count": 3},
                {"accepted": True, "action": "draw", "count": 1},
                {"accepted": True, "action": "draw", "count": 0},
                {"accepted": True, "action": "draw", "count": 1},
                {"accepted": True, "action": "check"},
                {"accepted": True, "action": "check"},
                {"accepted": True, "action": "bet", "to": 200},
                {"accepted": True, "action": "fold"},
                {"accepted": True, "action": "fold"},
                {"accepted": True, "action": "call", "to": 200},
                {"accepted": True, "action": "show"},
                {"accepted": True, "action": "muck"},
            ],
            "holes": {
                "A": ["As", "Ks", "Qs", "Js", "Jc"],
                "B": ["2c", "2h", "7c", "7h", "Tc"],
                "C": ["3c", "3h", "4d", "5s", "Th"],
                "D": ["Ah", "Ad", "Ac", "6h", "6d"],
            },
            "pots": [{"amount": 800, "eligible": ["C", "D"], "winners": ["D"]}],
            "stacks": {"A": 4900, "B": 4900, "C": 4700, "D": 5500},
            "finished": True,
        },
    )
    assert "next" not in out
    assert "board" not in out
    drew = events_of(out, "Drew")
    assert [(e["player"], e["count"]) for e in drew] == [("B", 3), ("C", 1), ("D", 0), ("A", 1)]
    dealt = events_of(out, "DrawDealt")
    assert dealt[0]["discarded"] == ["7d", "8s", "9c"]
    assert dealt[0]["received"] == ["7c", "7h", "Tc"]


HEADS_UP = scenario(
    players=PLAYERS4[:2],
    hole={"A": ["Ah", "2c", "3d", "4s", "5h"], "B": ["Kc", "Kd", "Ks", "9h", "2d"]},
    inputs=[
        say("A", "call"),  # heads-up: the button posts the small blind and acts first
        say("B", "check"),
        draw("B"),  # the draw from the button's left: the big blind first
        draw("A"),
        say("B", "check"),
        say("A", "check"),
    ],
)


def test_heads_up_stand_pat_and_the_wheel() -> None:
    # fpc LE FIVE-CARD DRAW (standard draw, heads-up as in hold'em, fpc 5-15): A-2-3-4-5 is
    # a straight, it beats three kings
    assert play(HEADS_UP, 0)["next"]["player"] == "A"
    assert play(HEADS_UP, 2)["next"] == {"player": "B", "draw": True, "max_discard": 5}
    assert play(HEADS_UP, 4)["next"]["player"] == "B"
    out = play(HEADS_UP)
    check(
        out,
        {
            "results": [
                {"accepted": True},
                {"accepted": True},
                {"accepted": True, "action": "draw", "count": 0},
                {"accepted": True, "action": "draw", "count": 0},
                {"accepted": True, "action": "check"},
                {"accepted": True, "action": "check"},
            ],
            "holes": {"A": ["Ah", "2c", "3d", "4s", "5h"], "B": ["Kc", "Kd", "Ks", "9h", "2d"]},
            "pots": [{"amount": 200, "winners": ["A"]}],
            "stacks": {"A": 5100, "B": 4900},
            "finished": True,
        },
    )
    shown = {e["player"]: e["hand"] for e in events_of(out, "Shown")}
    assert shown["A"] == "Straight"


# --------------------------------------------------------------------------- the stub runs out

DECK = [card_name(c) for c in range(52)]
SIX = [{"name": n, "seat": k + 1, "stack": 5000} for k, n in enumerate("ABCDEF")]
EXHAUSTED = scenario(
    players=SIX,
    button=6,
    hole={n: DECK[5 * k : 5 * k + 5] for k, n in enumerate("ABCDEF")},
    burn=DECK[30],
    stub=DECK[31:],
    reshuffle=DECK[::-1],
    inputs=[
        say("C", "call"),
        say("D", "call"),
        say("E", "call"),
        say("F", "call"),
        say("A", "call"),
        say("B", "check"),
        *(draw(n, *DECK[5 * k : 5 * k + 5]) for k, n in enumerate("ABCDEF")),
    ],
)


def test_stub_exhausted_the_rest_the_burn_card_and_earlier_discards_form_a_new_stub() -> None:
    # project choice: stub-exhausted (PokerStars "Reshuffling the Deck", Robert's Rules: the
    # rest of the stub, the burn card and the discards of the players who drew before, never
    # the drawing player's own; the new stub's order comes from the set-up, here ``reshuffle``:
    # the deck backwards)
    out = play(EXHAUSTED)
    assert all(r["accepted"] for r in out["results"]), out["results"]
    reshuffled = events_of(out, "StubReshuffled")
    assert [e["count"] for e in reshuffled] == [22]  # 1 left + the burn card + 4 x 5 discards
    types = [e["type"] for e in out["events"]]
    e_drew = next(
        k for k, e in enumerate(out["events"]) if e.get("player") == "E" and e["type"] == "Drew"
    )
    assert types[e_drew - 1] == "StubReshuffled"
    check(
        out,
        {
            "holes": {
                "A": DECK[31:36],
                "B": DECK[36:41],
                "C": DECK[41:46],
                "D": DECK[46:51],
                # the new stub, deck backwards: the last stub card, the burn card, D's and
                # C's discards...; E never gets back his own
                "E": [DECK[51], DECK[30], DECK[19], DECK[18], DECK[17]],
                "F": DECK[12:17],
            },
            "next": {"player": "A", "call": 0},
        },
    )


# --------------------------------------------------------------------------- all-in, side pots

ALLIN = scenario(
    players=[
        {"name": "A", "seat": 1, "stack": 5000},
        {"name": "B", "seat": 2, "stack": 1000},
        {"name": "C", "seat": 3, "stack": 5000},
    ],
    hole={
        "A": ["Js", "Jh", "7d", "8c", "9d"],
        "B": ["Ah", "Ad", "Ac", "Kh", "Kd"],
        "C": ["Qs", "Qh", "Qd", "2c", "3c"],
    },
    stub=["4s", "5s", "9h", "Tc", "2d"],
    inputs=[
        say("A", "raise", 300),
        say("B", "allin"),
        say("C", "call"),
        say("A", "call"),
        draw("B"),  # all-in players draw too
        draw("C", "2c", "3c"),
        draw("A", "7d", "8c", "9d"),
        say("C", "bet", 500),  # the second round: B is all-in, C is first who can act
        say("A", "call"),
    ],
)


def test_all_in_before_the_draw_draws_and_the_side_pot_goes_to_the_best_other_hand() -> None:
    # fpc LE FIVE-CARD DRAW (standard draw): an all-in player draws in his turn; fpc 19-13
    # the side pot first; project choice: hands are not turned face up before the draw
    before = play(ALLIN, 4)
    assert before["next"] == {"player": "B", "draw": True, "max_discard": 5}
    assert not events_of(before, "FaceUp")
    assert play(ALLIN, 7)["next"]["player"] == "C"
    out = play(ALLIN)
    check(
        out,
        {
            "holes": {"C": ["Qs", "Qh", "Qd", "4s", "5s"], "A": ["Js", "Jh", "9h", "Tc", "2d"]},
            "pots": [
                {"amount": 3000, "eligible": ["A", "B", "C"], "winners": ["B"]},
                {"amount": 1000, "eligible": ["A", "C"], "winners": ["C"]},
            ],
            "stacks": {"A": 3500, "B": 3000, "C": 4500},
            "finished": True,
        },
    )


BOTH_ALLIN = scenario(
    players=[{"name": "A", "seat": 1, "stack": 2000}, {"name": "B", "seat": 2, "stack": 3000}],
    hole={"A": ["9s", "9h", "4c", "5d", "Kc"], "B": ["8s", "8h", "2c", "3d", "Qc"]},
    stub=["9d", "7c", "Ks", "Kd", "Qs"],
    inputs=[
        say("A", "allin"),
        say("B", "call"),
        draw("B", "2c", "3d", "Qc"),
        draw("A", "4c", "5d"),
    ],
)


def test_everyone_all_in_draws_then_no_second_round_and_the_hands_open() -> None:
    # fpc LE FIVE-CARD DRAW: none can bet after the draw, so no second round: the showdown
    # (fpc 19-11: the all-in hands opened, once the draw is over)
    assert play(BOTH_ALLIN, 2)["next"] == {"player": "B", "draw": True, "max_discard": 5}
    out = play(BOTH_ALLIN)
    check(
        out,
        {
            "holes": {"B": ["8s", "8h", "9d", "7c", "Ks"], "A": ["9s", "9h", "Kc", "Kd", "Qs"]},
            "pots": [{"amount": 4000, "winners": ["A"]}],
            "stacks": {"A": 4000, "B": 1000},
            "finished": True,
        },
    )
    assert "next" not in out
    types = [e["type"] for e in out["events"]]
    assert types.index("FaceUp") > max(k for k, t in enumerate(types) if t == "DrawDealt")


# --------------------------------------------------------------------------- split pots

SPLIT = scenario(
    blinds={"sb": 25, "bb": 50},
    denominations=[25, 100, 500, 1000, 5000],
    players=PLAYERS4[:3],
    hole={"A": ["2c", "3d", "4h", "5s", "6c"], "C": ["2d", "3h", "4s", "5c", "6d"]},
    inputs=[
        say("A", "call"),
        say("B", "fold"),
        say("C", "check"),
        draw("C"),
        draw("A"),
        say("C", "check"),
        say("A", "check"),
    ],
)


@pytest.mark.parametrize("profile", ["fpc", "cdc", "tda"])
def test_split_pot_odd_chip_to_the_first_winner_left_of_the_button(profile: str) -> None:
    # fpc 19-12: « les jetons indivisibles sont donnés aux premiers joueurs à gauche du
    # donneur » (cdc 10.8, tda 19 alike): 125 split, the odd 25 to C
    out = play({**SPLIT, "profile": profile})
    check(
        out,
        {
            "pots": [{"amount": 125, "eligible": ["A", "C"], "winners": ["A", "C"]}],
            "stacks": {"A": 5000, "B": 4975, "C": 5025},
            "finished": True,
        },
    )


# --------------------------------------------------------------------------- pot limit

POT_LIMIT = scenario(
    structure="pot_limit",
    players=[{"name": n, "seat": k + 1, "stack": 10000} for k, n in enumerate("ABC")],
    hole={"A": ["Ah", "Ad", "7c", "8c", "9c"], "B": ["Kh", "Kd", "Ks", "2c", "3c"]},
    stub=["Tc", "Jh", "4d"],
    inputs=[
        say("A", "raise", 400),  # 0: more than the pot: refused
        say("A", "pot"),  # to 350: 100 + (150 + 100)
        say("B", "raise", 1150),  # the most: 350 + (500 + 300)
        say("C", "fold"),
        say("A", "call"),
        draw("B"),
        draw("A", "7c", "8c", "9c"),
        say("B", "bet", 2500),  # 7: more than the pot (2400): refused
        say("B", "bet", 100),  # the smallest bet after the draw: the big blind
        say("A", "pot"),  # 100 + (2500 + 100)
        say("B", "call"),
    ],
)


def test_pot_limit_largest_raise_is_the_bet_plus_the_pot_after_the_call() -> None:
    # project choice: structure pot_limit (a table option; the fpc book does not say): the
    # largest raise-to is the current bet plus the pot after the call, capped by the stack
    assert play(POT_LIMIT, 0)["next"]["max_raise_to"] == 350
    assert play(POT_LIMIT, 2)["next"]["max_raise_to"] == 1150
    assert play(POT_LIMIT, 3)["next"]["max_raise_to"] == 3800
    after_draw = play(POT_LIMIT, 7)
    assert (after_draw["next"]["min_raise_to"], after_draw["next"]["max_raise_to"]) == (100, 2400)
    assert play(POT_LIMIT, 9)["next"]["max_raise_to"] == 2700
    out = play(POT_LIMIT)
    check(
        out,
        {
            "results": [
                {"accepted": False, "code": "over_pot_limit"},
                {"accepted": True, "action": "raise", "to": 350},
                {"accepted": True, "action": "raise", "to": 1150},
                {"accepted": True, "action": "fold"},
                {"accepted": True, "action": "call", "to": 1150},
                {"accepted": True, "action": "draw", "count": 0},
                {"accepted": True, "action": "draw", "count": 3},
                {"accepted": False, "code": "over_pot_limit"},
                {"accepted": True, "action": "bet", "to": 100},
                {"accepted": True, "action": "raise", "to": 2700},
                {"accepted": True, "action": "call", "to": 2700},
            ],
            "pots": [{"amount": 7800, "winners": ["B"]}],
            "stacks": {"A": 10000 - 3850, "B": 10000 + 3850 + 100, "C": 9900},
            "finished": True,
        },
    )


def test_no_limit_is_the_default_and_pot_is_void_under_cdc() -> None:
    # project choice: no limit by default (the fpc's other games are no-limit); cdc 9.15:
    # « pot » is no no-limit declaration
    data = {**POT_LIMIT, "structure": "no_limit", "inputs": [say("A", "raise", 400)]}
    assert play(data)["results"][0]["to"] == 400
    assert play({**data, "inputs": []})["next"]["max_raise_to"] == 10000
    del data["structure"]
    data["profile"] = "cdc"
    data["inputs"] = [say("A", "pot")]
    assert play(data)["results"][0]["code"] == "void_declaration"


# --------------------------------------------------------------------------- refusals


REFUSED = [
    (4, draw("B", "Ac")),  # a card he does not hold
    (4, draw("B", "7d", "7d")),  # the same card twice
    (4, say("B", "check")),  # betting during the draw
    (4, {"player": "B", "muck": True}),  # showing or mucking during the draw
    (0, draw("D", "Ah")),  # a draw during the betting round
    (6, draw("B", "2c")),  # his draw is over
    (17, draw("A", "Js")),  # the hand is over
]


@pytest.mark.parametrize(("at", "bad"), REFUSED)
def test_refused_inputs_change_nothing(at: int, bad: dict[str, Any]) -> None:
    # fpc LE FIVE-CARD DRAW (standard draw): out of turn rules do not apply to the draw; a
    # refused draw deals no card (the stub keeps its order: the same cards come later)
    inputs = ORDER["inputs"]
    with_bad = {**ORDER, "inputs": [*inputs[:at], bad, *inputs[at:]]}
    out = play(with_bad)
    plain = play(ORDER)
    assert out["results"][at]["accepted"] is False
    assert out["results"][at]["code"]
    for key in ("stacks", "pots", "holes", "events", "finished"):
        assert out[key] == plain[key], key


def test_the_error_codes() -> None:
    codes = {}
    for at, bad in REFUSED:
        data = {**ORDER, "inputs": [*ORDER["inputs"][:at], bad]}
        codes[json.dumps(bad)] = play(data)["results"][at]["code"]
    assert list(codes.values()) == [
        "card_not_held",
        "same_card_twice",
        "not_betting",
        "not_showdown",
        "not_drawing",
        "not_your_draw",
        "hand_over",
    ]


# --------------------------------------------------------------------------- malformed files

MALFORMED = [
    {**ORDER, "board": ["2d", "9s", "Jc", "4h", "Qs"]},
    {**ORDER, "hole": {"A": ["As", "Ks"]}},
    {**ORDER, "hole": {"A": ["As", "Ks", "Qs", "Js", "Ts", "9s"]}},
    {**ORDER, "game": "stud"},
    {**ORDER, "structure": "fixed_limit"},
    {**ORDER, "stub": ["As"]},  # also in A's hand
    {**ORDER, "inputs": [{"player": "B", "draw": "7d"}]},
    {**ORDER, "inputs": [{"player": "B", "draw": ["7d"], "say": {"verb": "call"}}]},
    {**ORDER, "inputs": [{"player": "B", "draw": ["Zz"]}]},
    {**{k: v for k, v in ORDER.items() if k != "game"}, "hole": {}, "stub": ["2c"]},
    {**{k: v for k, v in ORDER.items() if k not in ("game", "hole", "stub")}},
]


@pytest.mark.parametrize("data", MALFORMED)
def test_malformed_draw_files(data: dict[str, Any]) -> None:
    with pytest.raises(ScenarioError):
        run_scenario(data)


def test_cli_exit_2_for_a_board_in_draw() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "server.engine.replay", "-"],
        input=json.dumps(MALFORMED[0]),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() and "\n" not in proc.stderr.strip()
    ok = subprocess.run(
        [sys.executable, "-m", "server.engine.replay", "-"],
        input=json.dumps(ORDER),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["finished"] is True


def test_a_table_may_allow_fewer_discards() -> None:
    # project choice: 0 to 5 by default; HandSetup.max_discard lets a table allow fewer (the
    # "three, or four with an ace" home rule is not built in); too many: refused, no card dealt
    from server.engine import Act, Draw, Hand, Say, Verb
    from server.engine.errors import RuleError
    from server.engine.replay import build_setup

    setup = build_setup({**HEADS_UP, "stub": ["7c", "7h", "7s", "7d"]})
    hand = Hand(dataclasses.replace(setup, max_discard=3))
    hand.act(Act(player="A", say=Say(verb=Verb.CALL)))
    hand.act(Act(player="B", say=Say(verb=Verb.CHECK)))
    assert hand.draw_menu() is not None and hand.draw_menu().max_discard == 3  # type: ignore[union-attr]
    four = hand.hole[hand.index["B"]][:4]
    with pytest.raises(RuleError) as refused:
        hand.draw(Draw(player="B", discard=four))
    assert refused.value.code == "too_many_discards"
    events = hand.draw(Draw(player="B", discard=four[:3]))
    assert events[-1].received == tuple(parse_card(c) for c in ("7c", "7h", "7s"))  # type: ignore[union-attr]
