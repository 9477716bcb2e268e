"""Builders for league tests: results from a finishing order."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence

from server.league import Entry, EventKind, EventResult


def day(n: int) -> datetime.date:
    """The n-th Wednesday from 2025-09-03 (the first Wednesday of the fpc season)."""
    return datetime.date(2025, 9, 3) + datetime.timedelta(weeks=n)


def finish(
    event_id: str,
    order: Sequence[str],
    *,
    when: datetime.date | None = None,
    kind: EventKind = EventKind.TOURNAMENT,
    killers: Mapping[str, str | tuple[str, ...]] | None = None,
    ties: Mapping[str, int] | None = None,
    final_table_size: int | None = None,
    sheet_error: bool = False,
) -> EventResult:
    """``order[0]`` won, ``order[-1]`` went out first. ``killers[p]`` eliminated ``p``;
    ``ties[p]`` overrides ``p``'s place (to write ex-aequo)."""
    killers = killers or {}
    ties = ties or {}
    entries = []
    for i, player in enumerate(order):
        by = killers.get(player, ())
        entries.append(
            Entry(
                player_id=player,
                place=ties.get(player, i + 1),
                eliminated_by=(by,) if isinstance(by, str) else by,
            )
        )
    return EventResult(
        event_id=event_id,
        date=when or day(0),
        kind=kind,
        entries=tuple(entries),
        final_table_size=final_table_size,
        sheet_error=sheet_error,
    )


def names(n: int, prefix: str = "p") -> list[str]:
    return [f"{prefix}{i:03d}" for i in range(1, n + 1)]
