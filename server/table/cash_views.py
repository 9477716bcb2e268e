"""What a cash table shows and how one is created: the snapshot's ``cash`` part (limits,
ledger totals, waiting list, missed blinds, short stacks, the option) and the checks of a
client's ``create`` with ``game: cash`` (:mod:`server.table.cash` plays the table)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from protocol import messages as m
from protocol.errors import ErrorCode, ProtocolError
from server.cash import CashError, cash_rules, cash_terms
from server.table.cash import CashState, short_seats
from server.table.core import TableCore

__all__ = ["cash_settings", "cash_view"]


def cash_settings(message: m.CreateTable) -> dict[str, Any] | None:
    """The cash settings of a table a client creates (``game: cash``, or ``draw``: a cash
    table of five-card draw, fpc « LE FIVE-CARD DRAW »), checked against the profile's cash
    rules; ``None`` for a friends table. Raises ``out_of_range``, ``cash.game`` /
    ``cash.structure`` (:func:`server.cash.cash_terms`), and ``out_of_range`` for more seats
    than the game seats (fpc draw: « de 2 joueurs (minimum) à 6 joueurs (maximum) »)."""
    if message.game == "friends":
        return None
    if message.game not in ("cash", "draw"):
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, "game: friends, cash or draw")
    try:
        terms = cash_terms("draw" if message.game == "draw" else "", message.structure)
    except CashError as exc:
        raise ProtocolError(exc.code.value, exc.message) from None
    changes: dict[str, Any] = {
        "runs": message.run_it,
        "rake_permille": message.rake_permille,
        "rake_cap": message.rake_cap,
    }
    if message.hours:
        changes["hours"] = message.hours
    if message.zone:
        changes["zone"] = message.zone
    if message.min_buy_in is not None:
        changes["min_buyin"] = message.min_buy_in
    if message.max_buy_in is not None:
        changes["max_buyin"] = message.max_buy_in
    changes |= terms.changes()  # none at hold'em no-limit: its settings are as they were
    try:
        rules = cash_rules(message.profile, sb=message.sb, bb=message.bb, **changes)
    except (ValueError, TypeError) as exc:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, f"cash table: {exc}") from None
    if (refusal := rules.seats_refusal(message.max_seats)) is not None:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, f"cash table: {refusal}")
    return changes


def cash_view(t: TableCore) -> dict[str, Any] | None:
    """What everyone at a cash table sees of it (snapshots): its limits and rules, the
    ledger's totals per player (what friends settle after the night), the waiting list, the
    missed blinds owed, the rake, whether the option is offered and the seats whose players
    post it when first after the big blind (entries in option included); ``None`` at other
    tables."""
    cash = getattr(t, "cash", None)
    if not isinstance(cash, CashState):
        return None
    rules = cash.rules
    seats = {s.player: s.seat for s in t.seats.values()}
    return {
        "min_buy_in": rules.min_buyin,
        "max_buy_in": rules.max_buyin,
        "rebuy": rules.rebuy.value,
        # buy-ins and rebuys by multiples of this (casino: the small blind), and what one
        # session may buy in all (fpc: 5,000; nil: no cap): the page says the range it allows
        "unit": rules.unit,
        "session_cap": rules.session_cap,
        "rake_permille": rules.rake_permille,
        "rake_cap": rules.rake_cap,
        "run_it": rules.runs,
        "ledger": [
            {
                "player": x.name,
                "seat": seats.get(x.player),
                "bought": x.bought,
                "cashed_out": x.cashed,
            }
            for x in cash.book.ledger.totals()
        ],
        "waiting": len(cash.waiting.names),
        "missed": {str(seat): list(marks) for seat, marks in cash.missed().items()},
        "rake": cash.rake,
        "option": rules.option,
        "straddles": sorted(cash.straddles | cash.enter_option),
        "min_stack": rules.min_stack,
        "approval": bool(t.config.extra.get("approval")),
        "hours": rules.hours,
        "open": _open(t, cash),
        "zone": rules.zone,
        "short": short_seats(t.seats, cash),
    }


def _open(t: TableCore, cash: CashState) -> bool:
    """Whether the table's opening hours let it deal at this snapshot (always without)."""
    hours = cash.rules.opening()
    if hours is None:
        return True
    return hours.is_open(datetime.fromisoformat(t.wall().replace("Z", "+00:00")))
