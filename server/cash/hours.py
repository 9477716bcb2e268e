"""A cash table's opening hours (fpc cash: « Les tables ouvrent à partir de 20h00 et ferment
à 23h30 précise »). Pure: the table gives the wall time, this module says whether the tables
are open and when that changes. A window may run past midnight (22:00-02:00)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

__all__ = ["ALWAYS", "FPC_HOURS", "Hours"]

ALWAYS = "always"
"""Hours that never close (a table of an fpc season may say so: its default is the book's)."""

FPC_HOURS = "20:00-23:30"
"""fpc cash: « Les tables ouvrent à partir de 20h00 et ferment à 23h30 précise »."""

_WINDOW = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$")


@dataclass(frozen=True, slots=True)
class Hours:
    opens: time
    closes: time
    zone: ZoneInfo

    @classmethod
    def parse(cls, text: str, zone: str) -> Hours:
        """``"20:00-23:30"`` in ``zone`` (an IANA name); ValueError when it is none."""
        found = _WINDOW.match(text)
        if found is None:
            raise ValueError(f"hours: HH:MM-HH:MM, not {text!r}")
        h1, m1, h2, m2 = (int(x) for x in found.groups())
        if (h1, m1) == (h2, m2):
            raise ValueError("hours: the tables must close at another time than they open")
        try:
            tz = ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"hours: no time zone {zone!r}") from None
        return cls(time(h1, m1), time(h2, m2), tz)

    def is_open(self, at: datetime) -> bool:
        """Whether the tables are open at ``at`` (an aware datetime): from the opening time
        included to the closing time excluded (« ferment à 23h30 précise »)."""
        local = at.astimezone(self.zone).time().replace(tzinfo=None)
        if self.opens < self.closes:
            return self.opens <= local < self.closes
        return local >= self.opens or local < self.closes  # past midnight

    def next_change(self, at: datetime) -> datetime:
        """The next opening (closed at ``at``) or closing (open at ``at``), aware, after
        ``at``."""
        edge = self.closes if self.is_open(at) else self.opens
        local = at.astimezone(self.zone)
        for days in range(3):
            day = (local + timedelta(days=days)).date()
            when = datetime.combine(day, edge, tzinfo=self.zone)
            if when > at:
                return when
        raise AssertionError("unreachable: an edge comes every day")  # pragma: no cover

    def describe(self) -> str:
        return f"{self.opens:%H:%M}-{self.closes:%H:%M} ({self.zone.key})"
