"""Cash tables through the session replay contract (shared/specs/session-format.md, ``game:
cash``): the casino's and fpc's cash sections, played on the pure table by its cash policy."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from server.table.replay import run_session
from server.table.session_steps import parse_session

CASINO: dict[str, Any] = {
    "profile": "casino",
    "game": "cash",
    "table": {"seats": 6, "blinds": {"sb": 25, "bb": 50}, "buy_in": {"min": 500, "max": 5000}},
    "denominations": [25, 100, 500],
    "button": 1,
}
FPC: dict[str, Any] = CASINO | {"profile": "fpc", "table": CASINO["table"] | {"seats": 10}}
HAND: dict[str, Any] = {"hand": {}}


def sit(*players: tuple[str, int], buy_in: int = 1000) -> list[dict[str, Any]]:
    return [{"sit": {"name": n, "seat": s, "buy_in": buy_in}} for n, s in players]


def play(base: dict[str, Any], steps: list[dict[str, Any]]) -> dict[str, Any]:
    return run_session(parse_session(base | {"steps": steps}))


def hands(out: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in out["steps"] if "hand" in s]


def posts(hand: dict[str, Any]) -> list[tuple[str, str, int]]:
    return [(p["player"], p["kind"], p["amount"]) for p in hand["posted"]]


def refusals(out: dict[str, Any]) -> list[tuple[int, str, str]]:
    return [(s["step"], s["error"], s.get("rule", "")) for s in out["steps"] if not s["accepted"]]


def test_the_spec_example_deals_everyone_seated_before_the_first_hand() -> None:
    # players seated before the first deal are not « entrant en cours de partie »: B's
    # wait_for_bb changes nothing at the first hand (casino cash: « sauf si le bouton n'a pas
    # fini son premier tour »)
    steps = [
        *sit(("A", 1), buy_in=2000),
        {"sit": {"name": "B", "seat": 4, "buy_in": 2000, "wait_for_bb": True}},
        *sit(("C", 6), buy_in=1500),
        HAND,
    ]
    out = play(CASINO | {"table": CASINO["table"] | {"seats": 9}}, steps)
    first = hands(out)[0]
    assert first["positions"] == {"button": 1, "sb": 4, "bb": 6}
    assert posts(first) == [("B", "sb", 25), ("C", "bb", 50)]
    assert first["dealt_in"] == ["A", "B", "C"]


def test_casino_no_dead_button_the_button_moves_to_the_next_player() -> None:
    # casino cash: « La règle du bouton mort ne s'applique pas en Cash Game »: the button moves
    # to the next player dealt in, never twice to the same player, and the blinds follow it
    # (shared/specs/session-format.md, "Button movement in casino cash"). Issue 28: this test
    # said "the dealer deals twice" when a blind left, which is the dead button's outcome
    steps = [*sit(("A", 1), ("B", 2), ("C", 3), ("D", 4)), HAND, {"leave": {"name": "C"}}, HAND]
    first, second = hands(play(CASINO, steps))
    assert first["positions"] == {"button": 1, "sb": 2, "bb": 3}
    assert second["positions"] == {"button": 2, "sb": 4, "bb": 1}  # B passes over the BB
    assert posts(second) == [("D", "sb", 25), ("A", "bb", 50)]


def test_casino_the_small_blind_cashes_out_the_button_moves_on() -> None:
    # issue 28, point 3: five players, the small blind (seat 2) cashes out after hand 1. With a
    # dead button hand 2 would keep the button on seat 1 (the same player last to act twice)
    # and the old big blind would post the small blind; « La règle du bouton mort ne
    # s'applique pas en Cash Game »: the button goes to seat 3, the blinds to seats 4 and 5
    steps = [*sit(("A", 1), ("B", 2), ("C", 3), ("D", 4), ("E", 5)), HAND]
    first, second, third = hands(play(CASINO, [*steps, {"leave": {"name": "B"}}, HAND, HAND]))
    assert first["positions"] == {"button": 1, "sb": 2, "bb": 3}
    assert second["positions"] == {"button": 3, "sb": 4, "bb": 5}
    assert posts(second) == [("D", "sb", 25), ("E", "bb", 50)]
    assert second["dealt_in"] == ["A", "C", "D", "E"]
    assert third["positions"] == {"button": 4, "sb": 5, "bb": 1}
    buttons = [h["positions"]["button"] for h in (first, second, third)]
    assert all(a != b for a, b in pairwise(buttons))  # never the same dealer twice


def test_casino_heads_up_the_button_posts_the_small_blind_and_moves() -> None:
    # casino cash, moving button heads-up: the button is the small blind, and it moves to the
    # other player at each hand (session-format: « Heads-up, the button posts the small blind »)
    steps = [*sit(("A", 1), ("B", 2), ("C", 3)), HAND, {"leave": {"name": "B"}}, HAND, HAND]
    _, second, third = hands(play(CASINO, steps))
    assert second["positions"] == {"button": 3, "sb": 3, "bb": 1}
    assert third["positions"] == {"button": 1, "sb": 1, "bb": 3}


def test_casino_absence_dealt_and_blinded_then_missed_blinds_then_sit_out_then_pays_them() -> None:
    # casino cash: first round « le croupier donnera des cartes au joueur absent et prélèvera
    # ses blinds »; second « lui mettra les boutons miss blinds, ne lui distribuera pas de
    # cartes et fera avancer les blinds au joueur suivant »; third « sit out »; back « sa
    # grosse blind sera déposée devant sa case [...] la petite blind sera mise directement
    # dans le pot »
    table = [*sit(("A", 1), ("B", 2), ("C", 3), ("D", 4)), HAND, {"away": {"name": "B"}}]
    away = play(CASINO, [*table, *[HAND] * 9])
    played = hands(away)[1:]
    dead_rounds = [h["hand"] for h in played if "B" in h["dead"]]
    assert dead_rounds == [2, 3, 4, 5]  # dealt dead until his big blind (4) and small blind (5)
    assert posts(played[2])[-1] == ("B", "bb", 50) and posts(played[3])[0] == ("B", "sb", 25)
    assert all("B" not in h["dealt_in"] for h in played[4:])  # second round on: no cards
    assert away["missed"] == {"B": ["sb", "bb"]}  # his big blind passed him (hand 8)
    # the blinds move on among the others, nobody pays twice in a row
    bbs = [h["positions"]["bb"] for h in played[4:]]
    assert all(a != b for a, b in pairwise(bbs)) and 2 not in bbs
    back = play(CASINO, [*table, *[HAND] * 9, {"back": {"name": "B"}}, HAND, HAND])
    waits, returned = hands(back)[-2:]
    # back where the moving button makes him the small blind: he comes in at the next hand
    # instead (he never pays both at once)
    assert waits["positions"] == {"button": 1, "sb": 3, "bb": 4} and "B" not in waits["dealt_in"]
    assert "B" in returned["dealt_in"] and "B" not in returned["dead"]
    # issue 28, point 4: his owed big blind is ``missed_bb`` (live), not a newcomer's
    # ``seat_fee``; the owed small blind ``missed_sb`` (dead)
    assert returned["positions"] == {"button": 2, "sb": 3, "bb": 4}
    assert posts(returned)[2:] == [("B", "missed_bb", 50), ("B", "missed_sb", 25)]
    assert back["missed"] == {}


def test_casino_newcomer_pays_a_seat_fee_or_waits_for_the_big_blind() -> None:
    # casino cash: « Tout joueur entrant en cours de partie sera tenu de mettre [...] comme
    # droit de siège, le montant équivalent de la grosse blind »; « un joueur peut décider
    # d'attendre la grosse blind »
    steps = [
        *sit(("A", 1), ("C", 3), ("D", 4)),
        *[HAND] * 4,
        *sit(("B", 2)),
        {"sit": {"name": "E", "seat": 6, "buy_in": 1000, "wait_for_bb": True}},
        *[HAND] * 4,
    ]
    played = hands(play(CASINO, steps))[4:]
    assert ("B", "seat_fee", 50) in posts(played[0]) and "B" in played[0]["dealt_in"]
    waited = [h for h in played if "E" in h["dealt_in"]]
    assert all("E" not in h["dealt_in"] for h in played[: played.index(waited[0])])
    assert waited[0]["positions"]["bb"] == 6  # dealt in at his big blind, no fee
    assert not [p for p in posts(waited[0]) if p[0] == "E" and p[1] == "seat_fee"]


def test_casino_leaving_with_ones_stack_costs_a_big_blind_on_return() -> None:
    # casino cash: « Si un joueur quitte la table en retirant sa cave, il devra payer, comme
    # droit de siège, une grosse blind à son retour »
    steps = [
        *sit(("A", 1), ("B", 2), ("C", 3), ("D", 4)),
        *[HAND] * 4,
        {"leave": {"name": "B"}},
        HAND,
        *sit(("B", 2)),
        HAND,
    ]
    out = play(CASINO, steps)
    last = hands(out)[-1]
    fee = [p for p in posts(last) if p[0] == "B"]
    assert fee in ([("B", "seat_fee", 50)], [("B", "bb", 50)]) and "B" in last["dealt_in"]
    kinds = [(e["player"], e["kind"]) for e in out["ledger"]]
    assert kinds[-2:] == [("B", "cash_out"), ("B", "buy_in")]


def test_casino_buy_ins_by_multiples_of_the_small_blind_within_the_limits() -> None:
    steps = [
        {"sit": {"name": "A", "seat": 1, "buy_in": 450}},
        {"sit": {"name": "A", "seat": 1, "buy_in": 5050}},
        {"sit": {"name": "A", "seat": 1, "buy_in": 1010}},
        *sit(("A", 1), ("B", 2)),
        {"rebuy": {"name": "A", "amount": 4500}},  # 1,000 + 4,500 > the maximum
        {"rebuy": {"name": "A", "amount": 4000}},  # a top-up, announced, within it
    ]
    out = play(CASINO, steps)
    assert refusals(out) == [
        (0, "below_min", "casino-cash"),
        (1, "above_max", "casino-cash"),
        (2, "not_multiple", "casino-cash"),
        (5, "above_max", "casino-cash"),
    ]
    assert out["ledger"][-1] == {"player": "A", "kind": "top_up", "amount": 4000}


def test_casino_waiting_list_frees_an_absent_seat_after_one_round_in_order() -> None:
    # casino cash: « En cas de liste d'attente, la durée d'absence à une table ne peut être
    # supérieure à un tour de bouton »; « les places libres seront attribuées dans l'ordre
    # d'inscription. Si un joueur refuse un siège, son nom sera reporté en dernier »
    six = sit(("A", 1), ("B", 2), ("C", 3), ("D", 4), ("E", 5), ("F", 6))
    steps = [
        *six,
        HAND,
        {"queue": {"name": "W"}},
        {"queue": {"name": "X"}},
        {"away": {"name": "B"}},
        *[HAND] * 7,
        {"refuse": {"name": "W"}},
        *sit(("W", 2)),  # refused: the seat is X's now
        *sit(("X", 2)),
        HAND,
    ]
    out = play(CASINO, steps)
    freed = next(h for h in hands(out) if "B" not in h["dealt_in"])
    assert all("B" in h["dealt_in"] for h in hands(out)[: hands(out).index(freed)])
    assert {"player": "B", "kind": "cash_out", "amount": 900} in out["ledger"]
    assert [e for _, e, _ in refusals(out)] == ["waiting_list"]
    assert out["seats"]["2"] == "X"


def test_fpc_cash_buy_ins_capital_rebuys_and_the_30_minutes() -> None:
    # fpc cash: 500-5,000 a buy-in, 5,000 a session, « une recave n'est pas possible tant
    # que l'on possède des jetons devant soi », « ne peut en aucun cas engager une valeur
    # de jetons supérieure à son capital », a whole cash-out then 30 minutes
    steps = [
        {"sit": {"name": "A", "seat": 1, "buy_in": 3000}},
        {"sit": {"name": "B", "seat": 2, "buy_in": 1000}},  # his capital is 800
        {"sit": {"name": "B", "seat": 2, "buy_in": 800}},
        {"sit": {"name": "C", "seat": 3, "buy_in": 500}},
        {"rebuy": {"name": "A", "amount": 500}},  # not busted
        HAND,
        {"leave": {"name": "A"}},
        {"sit": {"name": "A", "seat": 1, "buy_in": 1000}},  # too soon
        {"time": {"minutes": 30}},
        {"sit": {"name": "A", "seat": 1, "buy_in": 2500}},  # 3,000 + 2,500 > 5,000
        {"sit": {"name": "A", "seat": 1, "buy_in": 2000}},
    ]
    out = play(FPC | {"capital": {"A": 40_000, "B": 800}}, steps)
    assert refusals(out) == [
        (1, "capital", "fpc-cash"),
        (4, "rebuy_not_allowed", "fpc-cash"),
        (7, "wait", "fpc-cash"),
        (9, "session_cap", "fpc-cash"),
    ]
    left = out["steps"][6]["left_with"]
    assert out["capital"]["A"] == 40_000 - 3000 + left - 2000
    assert out["capital"]["B"] == 0  # his 800 are at the table


def test_fpc_cash_absent_players_are_dealt_in_and_blinded() -> None:
    # fpc cash: « Le joueur absent de la table reçoit les cartes, les blinds sont prélevées »
    steps = [*sit(("A", 1), ("B", 2), ("C", 3)), {"away": {"name": "C"}}, *[HAND] * 6]
    out = play(FPC, steps)
    assert all("C" in h["dead"] for h in hands(out))
    assert ("C", "bb", 50) in [p for h in hands(out) for p in posts(h)]
    assert out["missed"] == {}


def test_every_session_ledger_balances_to_the_chip() -> None:
    steps = [
        *sit(("A", 1), ("B", 2), ("C", 3), ("D", 4)),
        *[HAND] * 3,
        {"leave": {"name": "B"}},
        {"rebuy": {"name": "C", "amount": 500}},
        *[HAND] * 3,
    ]
    out = play(CASINO, steps)
    flows = {"buy_in": 1, "rebuy": 1, "top_up": 1, "cash_out": -1}
    balance = sum(flows[e["kind"]] * e["amount"] for e in out["ledger"])
    assert balance - out["rake"] == sum(hands(out)[-1]["stacks"].values())


# ---------------------------------------------------------------- rake and runs


def test_casino_rake_on_a_tie_and_on_a_blinds_only_pot() -> None:
    # casino cash: « La taille sera retenue sur le montant du « pot principal » et celui des
    # « pots extérieurs » de chaque donne et ce même en cas d'égalité parfaite et lorsque le
    # pot ne contient que les blinds. »
    raked = CASINO | {"table": CASINO["table"] | {"rake": {"percent": 5, "cap": 100}}}
    tie = {
        "hand": {
            "hole": {"A": ["As", "Kd"], "B": ["Ac", "Kh"], "C": ["2c", "7d"]},
            "board": ["Qs", "Jh", "Td", "4c", "3s"],  # both have the straight
            "inputs": [
                {"player": "A", "say": {"verb": "raise", "amount": 200}},
                {"player": "B", "say": {"verb": "call"}},
                {"player": "C", "say": {"verb": "fold"}},
            ],
        }
    }
    blinds_only = {"hand": {"inputs": [{"player": "A", "say": {"verb": "fold"}}]}}
    out = play(raked, [*sit(("A", 1), ("B", 2), ("C", 3)), tie, blinds_only])
    first, second = hands(out)
    assert first["pots"][0]["amount"] == 450 and first["rake"] == 0
    # 5 % of 450 is 22.5: rounded down to the smallest chip (25) it is 0; a bigger pot:
    out = play(raked, [*sit(("A", 1), ("B", 2), ("C", 3)), _bigger(tie), blinds_only])
    first, second = hands(out)
    assert first["pots"][0]["amount"] == 2050 and first["rake"] == 100  # 102.5 → 100
    assert first["stacks"]["A"] == first["stacks"]["B"] == 1000 - 1000 + (2050 - 100) // 2
    # everyone folds to the blinds: still raked (75 is 3.75 → 0 chips of 25)
    assert second["pots"][0]["amount"] == 75 and second["rake"] == 0
    assert out["rake"] == 100
    flows = {"buy_in": 1, "cash_out": -1}
    assert sum(flows[e["kind"]] * e["amount"] for e in out["ledger"]) - out["rake"] == sum(
        second["stacks"].values()
    )


def _bigger(tie: dict[str, Any]) -> dict[str, Any]:
    inputs = [
        {"player": "A", "say": {"verb": "allin"}},
        {"player": "B", "say": {"verb": "call"}},
        {"player": "C", "say": {"verb": "call"}},
    ]
    hole = tie["hand"]["hole"] | {"C": ["2c", "7d"]}
    return {"hand": {**tie["hand"], "hole": hole, "inputs": inputs[:2]}}


BOARDS = [
    ["2c", "3d", "9h", "Jc", "4s"],
    ["Ks", "7d", "8c", "2d", "5h"],
    ["Qs", "Qh", "3c", "Th", "6d"],
]
AA_KK = {"A": ["As", "Ad"], "B": ["Kc", "Kd"]}


def test_fpc_multi_bordes_three_full_runs_after_a_preflop_all_in() -> None:
    # fpc « le multi-bordes »: « Si et seulement si, deux joueurs sont impliqués dans un
    # tapis pré-flop ou avant la turn, il sera fait 3 tirages. Le pot est divisé en trois,
    # le gagnant de chaque tirage remporte le tier de pot correspondant. »
    fpc = FPC | {"table": FPC["table"] | {"run_it": 3}}
    allin = [
        {"player": "A", "say": {"verb": "allin"}},
        {"player": "B", "say": {"verb": "call"}},
        {"player": "C", "say": {"verb": "fold"}},
    ]
    steps = [
        *sit(("A", 1), ("B", 2), ("C", 3)),
        {"hand": {"hole": AA_KK, "boards": BOARDS, "inputs": allin}},
    ]
    hand = hands(play(fpc, steps))[0]
    assert hand["runs"] == 3 and hand["boards"] == BOARDS
    # 2,050 in three parts of whole 25s: 700, 675, 675; AA wins runs 1 and 3, KK run 2
    assert hand["stacks"] == {"A": 700 + 675, "B": 675, "C": 950}


def test_fpc_multi_bordes_on_the_flop_keeps_the_flop() -> None:
    # « Tapis avant la turn: 3 tirages turn et rivier sont faits. Le flop reste identique »
    fpc = FPC | {"table": FPC["table"] | {"run_it": 3}}
    flop = ["2c", "3d", "9h"]
    boards = [[*flop, "Jc", "4s"], [*flop, "Ks", "5h"], [*flop, "Qs", "6d"]]
    inputs = [
        {"player": "A", "say": {"verb": "raise", "amount": 100}},
        {"player": "B", "say": {"verb": "call"}},
        {"player": "C", "say": {"verb": "fold"}},
        {"player": "B", "say": {"verb": "allin"}},
        {"player": "A", "say": {"verb": "call"}},
    ]
    steps = [
        *sit(("A", 1), ("B", 2), ("C", 3)),
        {"hand": {"hole": AA_KK, "boards": boards, "inputs": inputs}},
    ]
    hand = hands(play(fpc, steps))[0]
    assert hand["runs"] == 3 and hand["boards"] == boards
    assert hand["stacks"]["B"] == 675 and hand["stacks"]["A"] == 1375  # KK hits the K run


def test_a_third_player_all_in_for_less_means_one_run() -> None:
    # « Si et seulement si, deux joueurs sont impliqués dans un tapis »: three all-in, one run
    fpc = FPC | {"table": FPC["table"] | {"run_it": 3}}
    steps = [
        *sit(("A", 1), ("B", 2)),
        *sit(("C", 3), buy_in=500),
        {"hand": {"inputs": [
            {"player": "A", "say": {"verb": "allin"}},
            {"player": "B", "say": {"verb": "call"}},
            {"player": "C", "say": {"verb": "call"}},
        ]}},
    ]  # fmt: skip
    hand = hands(play(fpc, steps))[0]
    assert hand["runs"] == 1 and len(hand["pots"]) == 2


def test_casino_run_it_twice_only_when_both_players_agree() -> None:
    casino = CASINO | {"table": CASINO["table"] | {"run_it": 2}}
    allin = [
        {"player": "A", "say": {"verb": "allin"}},
        {"player": "B", "say": {"verb": "call"}},
        {"player": "C", "say": {"verb": "fold"}},
    ]

    def hand(runs: int) -> dict[str, Any]:
        step = {"hand": {"hole": AA_KK, "boards": BOARDS[:2], "inputs": allin, "runs": runs}}
        return hands(play(casino, [*sit(("A", 1), ("B", 2), ("C", 3)), step]))[0]

    agreed, refused = hand(2), hand(1)
    assert agreed["runs"] == 2 and agreed["stacks"]["A"] == agreed["stacks"]["B"] == 1025
    assert refused["runs"] == 1 and refused["stacks"]["A"] == 2050
