"""The settings of a table a client creates (``create``), checked: pure, no I/O.

A refusal raises ``out_of_range`` and creates nothing (the gateway takes its rate-limit token
and counts the table only after this check).
"""

from __future__ import annotations

from typing import Any

from protocol import ErrorCode, ProtocolError
from protocol import messages as m
from server.cash.hours import FPC_HOURS
from server.engine import AnteFormat, SetupError, load_profile
from server.table.cash_views import cash_settings
from server.table.config import TableConfig

__all__ = ["check_create", "table_config"]


def check_create(message: m.CreateTable) -> dict[str, Any] | None:
    """Refuse impossible settings; the cash settings of a cash table (``None``: friends)."""
    try:
        load_profile(message.profile)
        AnteFormat(message.ante_format)
    except (SetupError, ValueError):
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, "unknown profile or ante format") from None
    if not 0 < message.bb <= message.starting_stack or message.sb > message.bb:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, "blinds must be 0 <= sb <= bb <= stack")
    if not 2 <= message.max_seats <= 10 or message.action_seconds < 1 or message.run_it < 1:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, "2-10 seats, a clock >= 1 s, run_it 1-3")
    return cash_settings(message)


def table_config(
    message: m.CreateTable,
    cash: dict[str, Any] | None,
    table_id: str,
    address: str,
    defaults: dict[str, Any],
    room: str | None = None,
    season: dict[str, Any] | None = None,
) -> TableConfig:
    """The new table's settings (``defaults``: the server's timings). A table of an fpc
    cash season opens at the book's hours unless its creator gave others (fpc cash: « Les
    tables ouvrent à partir de 20h00 et ferment à 23h30 précise »)."""
    if season and cash is not None and message.profile == "fpc" and "hours" not in cash:
        cash = {**cash, "hours": FPC_HOURS}
    return TableConfig(
        **defaults,
        table_id=table_id,
        name=message.name.strip()[:40] or "Friends",
        profile=message.profile,
        sb=message.sb,
        bb=message.bb,
        ante=message.ante,
        ante_format=message.ante_format,
        max_seats=message.max_seats,
        starting_stack=message.starting_stack,
        action_seconds=float(message.action_seconds),
        cash=cash,
        run_it=1 if cash is not None else message.run_it,  # a cash table's are in its rules
        extra={"created_by": address, "approval": message.approval}
        | ({"room": room} if room else {})
        | (season or {}),
    )
