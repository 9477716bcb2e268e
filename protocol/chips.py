"""Check that a hand record's chips add up: what its actions put in is what its pots hold.

Standalone (imports nothing from ``server/``), as :mod:`protocol.verify`, which runs it on
every record. A record whose lines do not add up would let a reader (or a tracking program)
compute other stacks than the table's: a fairness defect, even with every card verified.

For a ``brasseur-hand/1`` record:

* every chip a player put in is the ``added`` of one of his ``actions`` (antes, blinds,
  bets, calls, raises, and chips committed before the action that completes them: an
  undersized chip facing a bet, cdc 9.12, counts in that action);
* the chips put in are the pots plus the uncalled chips ``returned``;
* each pot's ``shares`` pay its ``amount`` less its ``rake`` (the house's share, casino
  cash « la taille »; absent: 0), so the final stacks plus the rake are the starting stacks;
* each player ends with his starting ``stack``, less what he put in, plus what was returned
  to him and his ``shares`` of the pots: his ``final_stacks`` entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["chip_problems"]


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _items(record: Mapping[str, object], key: str) -> list[Mapping[str, Any]]:
    value = record.get(key)
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, Mapping)]


def _seat_sums(
    items: list[Mapping[str, Any]], amount: str, problems: list[str], what: str
) -> dict[int, int]:
    sums: dict[int, int] = {}
    for item in items:
        seat, value = _int(item.get("seat")), _int(item.get(amount, 0))
        if seat is None or value is None or value < 0:
            problems.append(f"{what}: {dict(item)!r} has no seat or a bad {amount}")
            continue
        sums[seat] = sums.get(seat, 0) + value
    return sums


def _shares(pots: list[Mapping[str, Any]], problems: list[str]) -> tuple[int, dict[int, int]]:
    total, won = 0, dict[int, int]()
    for pot in pots:
        amount = _int(pot.get("amount"))
        if amount is None or amount < 0:
            problems.append(f"pot {dict(pot)!r}: bad amount")
            continue
        total += amount
        rake = _int(pot.get("rake", 0))
        if rake is None or not 0 <= rake <= amount:
            problems.append(f"pot {pot.get('index')}: bad rake {pot.get('rake')!r}")
            rake = 0
        shares = pot.get("shares")
        if not isinstance(shares, list):
            continue
        paid = 0
        for share in shares:
            seat, value = (_int(share[0]), _int(share[1])) if len(share) == 2 else (None, None)
            if seat is None or value is None:
                problems.append(f"pot {pot.get('index')}: bad share {share!r}")
                continue
            won[seat] = won.get(seat, 0) + value
            paid += value
        if paid + rake != amount:
            raked = f" (rake {rake})" if rake else ""
            problems.append(f"pot {pot.get('index')}: shares pay {paid} of {amount}{raked}")
    return total, won


def chip_problems(record: Mapping[str, object]) -> list[str]:
    """Every way the record's chips fail to add up; an empty list when they do."""
    problems: list[str] = []
    put_in = _seat_sums(_items(record, "actions"), "added", problems, "action")
    returned = _seat_sums(_items(record, "returned"), "amount", problems, "returned")
    pot_total, won = _shares(_items(record, "pots"), problems)
    if sum(put_in.values()) != pot_total + sum(returned.values()):
        problems.append(
            f"the actions put in {sum(put_in.values())} chips, the pots hold {pot_total} and"
            f" {sum(returned.values())} were returned"
        )
    final = record.get("final_stacks")
    if not isinstance(final, Mapping):
        return problems
    for player in _items(record, "players"):
        seat, stack = _int(player.get("seat")), _int(player.get("stack"))
        if seat is None or stack is None:
            problems.append(f"player {dict(player)!r}: no seat or stack")
            continue
        expected = stack - put_in.get(seat, 0) + returned.get(seat, 0) + won.get(seat, 0)
        if _int(final.get(str(seat))) != expected:
            problems.append(
                f"seat {seat}: starts with {stack}, puts in {put_in.get(seat, 0)}, gets back"
                f" {returned.get(seat, 0)} and wins {won.get(seat, 0)}: {expected}, but the"
                f" record says {final.get(str(seat))}"
            )
    return problems
