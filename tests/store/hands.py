"""Hand records (``brasseur-hand/1``) used by the export tests."""

from __future__ import annotations

from typing import Any


def _act(
    street: str, seat: int, name: str, action: str, to: int, added: int, allin: bool = False
) -> dict[str, Any]:
    return {
        "street": street,
        "seat": seat,
        "name": name,
        "action": action,
        "to": to,
        "added": added,
        "allin": allin,
    }


def split_pot_hand() -> dict[str, Any]:
    """Blinds, a raise and a call, every street, a showdown and a split pot (two straights)."""
    return {
        "format": "brasseur-hand/1",
        "table": "t1",
        "table_name": "Friends",
        "hand": 12,
        "profile": "cdc",
        "started_at": "2026-11-22T14:03:07Z",
        "tournament": {"id": "2026001", "level": 1},
        "blinds": {"sb": 10, "bb": 20, "ante": 0, "ante_format": "none"},
        "max_seats": 6,
        "button": 6,
        "players": [
            {"seat": 1, "name": "ana", "stack": 1500},
            {"seat": 2, "name": "bob", "stack": 1500},
            {"seat": 4, "name": "cid", "stack": 1500},
            {"seat": 6, "name": "dan", "stack": 1500},
        ],
        "actions": [
            _act("preflop", 1, "ana", "post_sb", 10, 10),
            _act("preflop", 2, "bob", "post_bb", 20, 20),
            _act("preflop", 4, "cid", "raise", 60, 60),
            _act("preflop", 6, "dan", "fold", 0, 0),
            _act("preflop", 1, "ana", "call", 60, 50),
            _act("preflop", 2, "bob", "fold", 20, 0),
            _act("flop", 1, "ana", "check", 0, 0),
            _act("flop", 4, "cid", "bet", 80, 80),
            _act("flop", 1, "ana", "call", 80, 80),
            _act("turn", 1, "ana", "check", 0, 0),
            _act("turn", 4, "cid", "check", 0, 0),
            _act("river", 1, "ana", "bet", 100, 100),
            _act("river", 4, "cid", "call", 100, 100),
        ],
        "returned": [],
        "board": ["Ah", "Kd", "7c", "Qc", "Js"],
        "shown": {"1": ["Th", "2c"], "4": ["Td", "3s"]},
        "mucked": [],
        "pots": [{"amount": 500, "winners": [1, 4], "shares": [[1, 250], [4, 250]]}],
        "final_stacks": {"1": 1390, "2": 1480, "4": 1390, "6": 1500},
        "hole": {"1": ["Th", "2c"]},
    }


def side_pot_hand() -> dict[str, Any]:
    """Antes, three all-ins (a call, a raise, a call), an uncalled bet, a main and a side pot."""
    return {
        "format": "brasseur-hand/1",
        "table": "t2",
        "table_name": "Friends 2",
        "hand": 40,
        "profile": "cdc",
        "started_at": "2026-07-04T18:30:00Z",
        "tournament": {"id": "2026001", "level": 5},
        "blinds": {"sb": 50, "bb": 100, "ante": 10, "ante_format": "all"},
        "max_seats": 9,
        "button": 1,
        "players": [
            {"seat": 1, "name": "ana", "stack": 1000},
            {"seat": 2, "name": "bob", "stack": 300},
            {"seat": 3, "name": "cid", "stack": 2000},
        ],
        "actions": [
            _act("preflop", 1, "ana", "post_ante", 10, 10),
            _act("preflop", 2, "bob", "post_ante", 10, 10),
            _act("preflop", 3, "cid", "post_ante", 10, 10),
            _act("preflop", 2, "bob", "post_sb", 50, 50),
            _act("preflop", 3, "cid", "post_bb", 100, 100),
            _act("preflop", 1, "ana", "raise", 300, 300),
            _act("preflop", 2, "bob", "allin", 290, 240, allin=True),
            _act("preflop", 3, "cid", "allin", 1990, 1890, allin=True),
            _act("preflop", 1, "ana", "allin", 990, 690, allin=True),
        ],
        "returned": [{"seat": 3, "name": "cid", "amount": 1000}],
        "board": ["Kc", "8d", "4s", "2h", "9c"],
        "shown": {"1": ["Qs", "Qd"], "2": ["Ac", "Ah"], "3": ["Js", "Jh"]},
        "mucked": [],
        "pots": [
            {"amount": 900, "winners": [2], "shares": [[2, 900]]},
            {"amount": 1400, "winners": [1], "shares": [[1, 1400]]},
        ],
        "final_stacks": {"1": 1400, "2": 900, "3": 1000},
        "hole": {"1": ["Qs", "Qd"]},
    }


def preflop_win_hand() -> dict[str, Any]:
    """Cash-style table (no tournament): a raise, two folds, the raise returned."""
    return {
        "format": "brasseur-hand/1",
        "table": "cash7",
        "table_name": "Friends",
        "hand": 3,
        "profile": "casino",
        "started_at": "2026-11-22T21:00:00Z",
        "tournament": None,
        "blinds": {"sb": 10, "bb": 20, "ante": 0, "ante_format": "none"},
        "max_seats": 9,
        "button": 1,
        "players": [
            {"seat": 1, "name": "ana", "stack": 2000},
            {"seat": 2, "name": "bob", "stack": 2000},
            {"seat": 3, "name": "cid", "stack": 2000},
        ],
        "actions": [
            _act("preflop", 2, "bob", "post_sb", 10, 10),
            _act("preflop", 3, "cid", "post_bb", 20, 20),
            _act("preflop", 1, "ana", "raise", 60, 60),
            _act("preflop", 2, "bob", "fold", 10, 0),
            _act("preflop", 3, "cid", "fold", 20, 0),
        ],
        "returned": [{"seat": 1, "name": "ana", "amount": 40}],
        "board": [],
        "shown": {},
        "mucked": [],
        "pots": [{"amount": 50, "winners": [1], "shares": [[1, 50]]}],
        "final_stacks": {"1": 2030, "2": 1990, "3": 1980},
    }
