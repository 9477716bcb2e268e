"""The settings of a table created from a client (``create``): checked before anything is
created; run it twice is a friends table's option too."""

from __future__ import annotations

from typing import Any

import pytest

from protocol import ErrorCode, ProtocolError
from protocol import messages as m
from server.gateway.creating import check_create, table_config


def config(**fields: Any) -> Any:
    message = m.CreateTable(name="Jeudi", **fields)
    return table_config(message, check_create(message), "t1", "10.0.0.1", {})


def test_a_friends_table_may_run_it_twice_and_a_cash_table_keeps_it_in_its_rules() -> None:
    assert config(run_it=2).run_it == 2 and config().run_it == 1
    cash = config(game="cash", profile="casino", run_it=2)
    assert cash.run_it == 1 and cash.cash is not None and cash.cash["runs"] == 2


@pytest.mark.parametrize(
    "fields",
    [
        {"run_it": 0},
        {"max_seats": 1},
        {"profile": "nope"},
        {"sb": 200, "bb": 100},
        {"game": "poker"},
        {"game": "cash", "profile": "casino", "min_buy_in": 9000, "max_buy_in": 100},
    ],
)
def test_impossible_settings_are_refused_out_of_range(fields: dict[str, Any]) -> None:
    with pytest.raises(ProtocolError) as refused:
        check_create(m.CreateTable(name="Jeudi", **fields))
    assert refused.value.code == ErrorCode.OUT_OF_RANGE
