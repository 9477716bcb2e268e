"""Creating a five-card draw cash table (``create`` ``game: draw``, issue 31): the fpc's « LE
FIVE-CARD DRAW » rules from its settings, the seats and the terms checked with stable codes,
and a hold'em table's settings exactly as before."""

from __future__ import annotations

from typing import Any

import pytest

from protocol import ErrorCode, ProtocolError
from protocol import messages as m
from server.cash import cash_rules
from server.engine import Game, Structure
from server.gateway.creating import check_create


def settings(**fields: Any) -> dict[str, Any] | None:
    return check_create(m.CreateTable(name="Draw", **fields))


def test_a_draw_table_plays_the_fpc_draw_rules() -> None:
    cash = settings(game="draw", profile="fpc", max_seats=6)
    assert cash is not None and cash["game"] == "draw" and "structure" not in cash
    rules = cash_rules("fpc", sb=50, bb=100, **cash)
    assert rules.game is Game.DRAW and rules.structure is Structure.NO_LIMIT
    assert (rules.min_buyin, rules.max_buyin, rules.sb, rules.bb) == (5000, 5000, 50, 100)
    pot = settings(game="draw", profile="fpc", max_seats=6, structure="pot_limit")
    assert pot is not None and pot["structure"] == "pot_limit"


def test_a_holdem_cash_tables_settings_are_unchanged() -> None:
    cash = settings(game="cash", profile="fpc")
    assert cash is not None and "game" not in cash and "structure" not in cash


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"max_seats": 9}, ErrorCode.OUT_OF_RANGE),  # « de 2 joueurs à 6 joueurs (maximum) »
        ({"max_seats": 6, "structure": "limit"}, "cash.structure"),
    ],
)
def test_impossible_draw_settings_are_refused(fields: dict[str, Any], code: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        settings(game="draw", profile="fpc", **fields)
    assert refused.value.code == code
