"""The head of a PokerStars hand history (pure): the hand and tournament numbers, the date,
the game and table lines (docs/protocol.md, "Hand histories (PokerStars text)"): ``Hold'em No
Limit``, or ``5 Card Draw No Limit`` (``Pot Limit``) for five-card draw (:mod:`.psdraw`).

Tracking software needs numbers where Brasseur has names, so: the hand id is the record's
``hand_id`` if numeric, else ``crc32(table) * 10**7 + hand``; the tournament id is the
tournament's ``id`` if numeric, else its crc32. The date is written as a PokerStars client in
France writes it: Paris time (CET/CEST), then US Eastern (ET) between brackets.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from .psdraw import game_name

__all__ = ["clean", "hand_id", "header"]

_HAND_ID_FACTOR: Final = 10**7


def _roman(number: int) -> str:
    if number <= 0:
        return str(number)
    out = []
    for value, letters in (
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        count, number = divmod(number, value)
        out.append(letters * count)
    return "".join(out)


def _nth_sunday(year: int, month: int, n: int) -> int:
    """Day of the month of the n-th Sunday."""
    first = datetime(year, month, 1).weekday()  # Monday = 0
    return 1 + (6 - first) % 7 + 7 * (n - 1)


def _last_sunday(year: int, month: int) -> int:
    """Day of the month of the last Sunday (months of 31 days: March, October)."""
    return 31 - (datetime(year, month, 31).weekday() + 1) % 7


def _utc(started_at: object) -> datetime:
    """The naive UTC moment of an ISO-8601 time (1970-01-01 if unreadable)."""
    try:
        moment = datetime.fromisoformat(str(started_at).replace("Z", "+00:00"))
    except ValueError:
        moment = datetime(1970, 1, 1, tzinfo=UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(tzinfo=None)


def _eastern(utc: datetime) -> str:
    """``YYYY/MM/DD H:MM:SS ET`` (US rules since 2007: daylight time from the 2nd Sunday of
    March 2:00 EST to the 1st Sunday of November 2:00 EDT; the hour unpadded, as PokerStars
    writes it between brackets)."""
    year = utc.year
    dst_start = datetime(year, 3, _nth_sunday(year, 3, 2), 7)  # 2:00 EST = 7:00 UTC
    dst_end = datetime(year, 11, _nth_sunday(year, 11, 1), 6)  # 2:00 EDT = 6:00 UTC
    moment = utc + timedelta(hours=-4 if dst_start <= utc < dst_end else -5)
    return f"{moment:%Y/%m/%d} {moment.hour}:{moment:%M:%S} ET"


def _paris(utc: datetime) -> str:
    """``YYYY/MM/DD HH:MM:SS CET`` (or ``CEST``): the server's own time zone, France (EU
    rules: summer time from the last Sunday of March to the last Sunday of October, 1:00
    UTC both)."""
    year = utc.year
    summer = (
        datetime(year, 3, _last_sunday(year, 3), 1)
        <= utc
        < datetime(year, 10, _last_sunday(year, 10), 1)
    )
    moment = utc + timedelta(hours=2 if summer else 1)
    return f"{moment:%Y/%m/%d %H:%M:%S} {'CEST' if summer else 'CET'}"


def _when(started_at: object) -> str:
    """The header's date as a PokerStars client in France writes it: the local time, then
    the site's Eastern time between brackets (docs/protocol.md, "Hand histories")."""
    utc = _utc(started_at)
    return f"{_paris(utc)} [{_eastern(utc)}]"


def _numeric_id(value: object) -> str:
    text = str(value)
    return text if text.isdigit() else str(zlib.crc32(text.encode()))


def hand_id(record: Mapping[str, Any]) -> str:
    explicit = record.get("hand_id")
    if explicit is not None and str(explicit).isdigit():
        return str(explicit)
    table = str(record.get("table", ""))
    return str(zlib.crc32(table.encode()) * _HAND_ID_FACTOR + int(record.get("hand", 0)))


def clean(name: object) -> str:
    """A player or table name on one line (PokerStars names never span lines)."""
    return re.sub(r"[\r\n]+", " ", str(name)).strip()


def _buyin(value: object) -> str:
    """The buy-in as PokerStars writes a play-chips one, with no currency (``100+0``: the
    buy-in, then the fee, none at Brasseur), or ``Freeroll`` and the space of the currency
    it does not have."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return f"{value}+0"
    if isinstance(value, str) and value.strip() and value.strip() != "Freeroll":
        return clean(value)
    return "Freeroll "


def header(record: Mapping[str, Any], hand_id: str) -> list[str]:
    blinds = record.get("blinds") or {}
    stakes = f"({blinds.get('sb', 0)}/{blinds.get('bb', 0)})"
    when = _when(record.get("started_at"))
    button = record.get("button", 0)
    max_seats = record.get("max_seats") or 9
    tournament = record.get("tournament")
    if isinstance(tournament, Mapping):
        tid = _numeric_id(tournament.get("id", record.get("table", "")))
        game = f"{_buyin(tournament.get('buyin'))} {game_name(record)}"
        level = _roman(int(tournament.get("level") or 1))
        number = record.get("table_number")
        if number is None:
            digits = re.search(r"(\d+)$", str(record.get("table", "")))
            number = int(digits.group(1)) if digits else 1
        return [
            f"PokerStars Hand #{hand_id}: Tournament #{tid}, {game} - Level {level} {stakes}"
            f" - {when}",
            f"Table '{tid} {number}' {max_seats}-max Seat #{button} is the button",
        ]
    table = clean(record.get("table_name") or record.get("table", "")).replace("'", "")
    return [
        f"PokerStars Hand #{hand_id}:  {game_name(record)} {stakes} - {when}",
        f"Table '{table}' {max_seats}-max Seat #{button} is the button",
    ]
