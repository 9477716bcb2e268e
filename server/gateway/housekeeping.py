"""Which friends tables to close (pure): a table created over the wire where nobody ever sat
is dropped after ``unused_table_minutes``; one where no hand was dealt and nobody was connected
for ``idle_table_hours`` is closed and dropped from the store. Its hand records are kept (the
exports answer for them with the table's invite while it is valid), and so are its players'
private hole events and seat-token nonces (each one's own export, with his newest seat token).
Tables created by the operator (the command line's default table) and tournament tables are
never dropped here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .limits import Limits

__all__ = ["Activity", "review", "sweep_every"]


@dataclass(frozen=True)
class Activity:
    """What the sweeper last saw of a table."""

    hands: int
    active_at: float
    """Clock time of the last hand dealt or connection seen (or of the first sight)."""
    used: bool
    """Somebody sat at it (or a hand was dealt) at least once."""


def review(
    seen: Activity | None, now: float, hands: int, watched: bool, seated: bool, limits: Limits
) -> tuple[Activity, bool]:
    """The table's activity after this look, and whether it is to be dropped now."""
    used = seated or hands > 0 or (seen is not None and seen.used)
    if seen is None or watched or hands != seen.hands:
        return Activity(hands, now, used), False
    seen = Activity(hands, seen.active_at, used)
    idle = now - seen.active_at
    limit = limits.idle_table_hours * 3600.0 if used else limits.unused_table_minutes * 60.0
    return seen, limit > 0 and idle >= limit


def sweep_every(limits: Limits) -> float:
    """Seconds between two sweeps: a quarter of the shortest limit, one minute at most."""
    spans = [s for s in (limits.unused_table_minutes * 60, limits.idle_table_hours * 3600) if s]
    return max(0.05, min([60.0, *[s / 4 for s in spans]]))
