"""PokerStars text of five-card draw hands (issue 31): the draw layout (``5 Card Draw No
Limit``, ``*** DEALING HANDS ***``, ``*** FIRST DRAW ***``, ``discards 2 cards``, ``stands
pat``), golden text line by line; the hero's own cards only, nobody else's discards."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from server.dealing import draws_of
from server.engine import card_name
from server.store import export_page, to_pokerstars
from server.store.psheader import hand_id
from tests.dealing.drawplay import play, table_record

NAMES = {1: "ana", 2: "bob", 3: "cid"}


def _act(street: str, seat: int, action: str, to: int, added: int) -> dict[str, Any]:
    return {
        "street": street,
        "seat": seat,
        "name": NAMES[seat],
        "action": action,
        "to": to,
        "added": added,
        "allin": False,
    }


RECORD: dict[str, Any] = {
    "format": "brasseur-hand/1",
    "game": "draw",
    "structure": "no_limit",
    "table": "draw-1",
    "table_name": "Draw club",
    "profile": "fpc",
    "started_at": "2026-11-27T20:00:00Z",
    "tournament": None,
    "blinds": {"sb": 50, "bb": 100, "ante": 0, "ante_format": "none"},
    "max_seats": 6,
    "button": 1,
    "hand": 7,
    "players": [
        {"seat": 1, "name": "ana", "stack": 5000},
        {"seat": 2, "name": "bob", "stack": 5000},
        {"seat": 3, "name": "cid", "stack": 5000},
    ],
    "actions": [
        _act("preflop", 2, "post_sb", 50, 50),
        _act("preflop", 3, "post_bb", 100, 100),
        _act("preflop", 1, "raise", 300, 300),
        _act("preflop", 2, "call", 300, 250),
        _act("preflop", 3, "fold", 100, 0),
        _act("draw", 2, "check", 0, 0),
        _act("draw", 1, "bet", 400, 400),
        _act("draw", 2, "call", 400, 400),
    ],
    "returned": [],
    "board": [],
    "draws": [
        {"seat": "2", "discarded": [4, 10, 13], "received": [16, 17, 18]},
        {"seat": "1", "discarded": [], "received": []},
    ],
    "shown": {"1": ["8h", "9d", "Ts", "Jc", "Qd"], "2": ["Kd", "Kc", "Ks", "9c", "3h"]},
    "mucked": [],
    "pots": [{"amount": 1500, "winners": [1], "shares": [[1, 1500]], "index": 0}],
    "final_stacks": {"1": 5800, "2": 4300, "3": 4900},
}
BOB = {"hole": {"2": ["Kd", "Kc", "7h", "4s", "2d"]}}
BOB_DRAWN = {"drawn": {"2": {"discarded": ["7h", "4s", "2d"], "received": ["Ks", "9c", "3h"]}}}

GOLDEN = f"""\
PokerStars Hand #{hand_id(RECORD)}:  5 Card Draw No Limit (50/100) - 2026/11/27 21:00:00 CET [2026/11/27 15:00:00 ET]
Table 'Draw club' 6-max Seat #1 is the button
Seat 1: ana (5000 in chips)
Seat 2: bob (5000 in chips)
Seat 3: cid (5000 in chips)
bob: posts small blind 50
cid: posts big blind 100
*** DEALING HANDS ***
Dealt to bob [Kd Kc 7h 4s 2d]
ana: raises 200 to 300
bob: calls 250
cid: folds
*** FIRST DRAW ***
bob: discards 3 cards and draws [Ks 9c 3h]
Dealt to bob [Kd Kc] [Ks 9c 3h]
ana: stands pat
bob: checks
ana: bets 400
bob: calls 400
*** SHOW DOWN ***
bob: shows [Kd Kc Ks 9c 3h] (three of a kind, Kings)
ana: shows [8h 9d Ts Jc Qd] (a straight, Eight to Queen)
ana collected 1500 from pot
*** SUMMARY ***
Total pot 1500 | Rake 0
Seat 1: ana (button) showed [8h 9d Ts Jc Qd] and won (1500) with a straight, Eight to Queen
Seat 2: bob (small blind) showed [Kd Kc Ks 9c 3h] and lost with three of a kind, Kings
Seat 3: cid (big blind) folded before the Draw
"""  # noqa: E501


def test_golden_draw_hand_for_the_hero_who_drew() -> None:
    text = to_pokerstars([{**RECORD, **BOB, **BOB_DRAWN}], hero="bob")
    assert text.splitlines() == GOLDEN.splitlines()
    assert text == GOLDEN


def test_the_hero_s_draw_follows_from_his_cards_dealt_and_shown() -> None:
    """No private ``drawn``: his five dealt and his five shown say what he drew."""
    assert to_pokerstars([{**RECORD, **BOB}], hero="bob") == GOLDEN


def test_another_player_sees_how_many_cards_only() -> None:
    text = to_pokerstars([RECORD], hero="cid")
    lines = text.splitlines()
    assert "bob: discards 3 cards" in lines
    assert not any(line.startswith("Dealt to") for line in lines)
    for card in ("7h", "4s", "2d"):  # bob's discards appear nowhere
        assert card not in text
    assert text == GOLDEN.replace("Dealt to bob [Kd Kc 7h 4s 2d]\n", "").replace(
        "bob: discards 3 cards and draws [Ks 9c 3h]\nDealt to bob [Kd Kc] [Ks 9c 3h]\n",
        "bob: discards 3 cards\n",
    )


def test_one_card_pot_limit_and_a_fold_after_the_draw() -> None:
    record = copy.deepcopy(RECORD)
    record["structure"] = "pot_limit"
    record["draws"][0] = {"seat": "2", "discarded": [4], "received": [16]}
    record["actions"][-1] = {"street": "draw", "seat": 2, "name": "bob", "action": "fold"}
    record["shown"] = {}
    record["returned"] = [{"seat": 1, "name": "ana", "amount": 400}]
    record["pots"] = [{"amount": 700, "winners": [1], "shares": [[1, 700]], "index": 0}]
    lines = to_pokerstars([record]).splitlines()
    assert "5 Card Draw Pot Limit (50/100)" in lines[0]
    assert lines[lines.index("*** FIRST DRAW ***") + 1 :][:2] == [
        "bob: discards 1 card",
        "ana: stands pat",
    ]
    assert lines[-9:] == [
        "bob: folds",
        "Uncalled bet (400) returned to ana",
        "ana collected 700 from pot",
        "ana: doesn't show hand",
        "*** SUMMARY ***",
        "Total pot 700 | Rake 0",
        "Seat 1: ana (button) collected (700)",
        "Seat 2: bob (small blind) folded after the Draw",
        "Seat 3: cid (big blind) folded before the Draw",
    ]


def test_a_hand_won_before_the_draw_has_no_draw() -> None:
    record = copy.deepcopy(RECORD)
    record["actions"] = [
        *record["actions"][:3],
        {"street": "preflop", "seat": 2, "name": "bob", "action": "fold", "to": 50},
        {"street": "preflop", "seat": 3, "name": "cid", "action": "fold", "to": 100},
    ]
    record.update(draws=[], shown={}, returned=[{"seat": 1, "name": "ana", "amount": 200}])
    record["pots"] = [{"amount": 250, "winners": [1], "shares": [[1, 250]], "index": 0}]
    text = to_pokerstars([record])
    assert "*** FIRST DRAW ***" not in text
    assert "Uncalled bet (200) returned to ana\nana collected 250 from pot\n" in text
    assert "Seat 2: bob (small blind) folded before the Draw\n" in text


def test_a_tournament_draw_hand_and_hold_em_unchanged() -> None:
    record = {**RECORD, "tournament": {"id": "42", "name": "T", "buyin": 20, "level": 2}}
    first = to_pokerstars([record]).splitlines()[0]
    assert first.startswith(f"PokerStars Hand #{hand_id(RECORD)}: Tournament #42, 20+0 5 Card")
    assert " 5 Card Draw No Limit - Level II (50/100) - " in first
    holdem = {k: v for k, v in RECORD.items() if k not in ("game", "structure", "draws")}
    assert "Hold'em No Limit (50/100)" in to_pokerstars([holdem])


def test_a_player_s_own_export_page_of_a_draw_hand() -> None:
    """``mine`` gives the player's five cards dealt: his draw then follows from his showdown."""
    body, count = export_page(
        [RECORD], "txt", max_bytes=10**6, mine={7: (2, ["Kd", "Kc", "7h", "4s", "2d"])}
    )
    assert count == 1 and body.decode() == GOLDEN


# ----------------------------------------------------------- a hand the engine played


@pytest.mark.parametrize("seed", range(12))
def test_engine_hands_export_with_their_draws_and_no_other_discards(seed: int) -> None:
    played = play(seed, players=2 + seed % 5, fold_rate=0.1)
    record = table_record(played)
    hero_seat = int(played.record["deal_order"][0])
    hero = f"p{hero_seat}"
    dealt = [card_name(c) for c in played.deal.hole(hero_seat)]
    text = to_pokerstars([{**record, "hole": {str(hero_seat): dealt}}], hero=hero)
    lines = text.splitlines()
    assert "5 Card Draw No Limit (50/100)" in lines[0]
    assert lines[lines.index("*** DEALING HANDS ***") + 1] == f"Dealt to {hero} [{' '.join(dealt)}]"
    draws = record["draws"]
    if draws:
        at = lines.index("*** FIRST DRAW ***")
        written = [line for line in lines[at + 1 :] if " discards " in line or "stands pat" in line]
        assert len(written) == len(draws)
        for line, entry in zip(written, draws, strict=True):
            count = len(entry["discarded"])
            assert line.startswith(f"p{entry['seat']}: ")
            assert ("stands pat" in line) if count == 0 else (f"discards {count} card" in line)
    # no card but the hero's own and those shown: nobody else's discards, nothing mucked
    draws_made = draws_of(played.hand.events, played.seat_of)
    mine = next((d for d in draws_made if d.seat == hero_seat), None)
    allowed = {c for cards in record["shown"].values() for c in cards} | set(dealt)
    if mine is not None:
        allowed |= {card_name(c) for c in mine.received}
    body = text.split("\n", 1)[1]  # the date of the first line is between brackets too
    cards_written = {c for group in re.findall(r"\[([^\]]*)\]", body) for c in group.split()}
    assert cards_written <= allowed, (seed, cards_written - allowed)
    assert lines[lines.index("*** SUMMARY ***") + 1].startswith("Total pot ")
