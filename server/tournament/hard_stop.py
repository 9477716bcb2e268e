"""A tournament's hard stop at a time of day (fpc part C, « LE SIT'N GO »: « Si les Sit'n Go
ne sont pas terminés à 23h45, le classement sera défini par le montant des stacks des
joueurs encore en jeu »): the ``[server]`` table's ``hard_stop = "23:45"`` (in
``hard_stop_zone``, Europe/Paris by default).

Pure: :func:`parse_stop` and :func:`seconds_until`. The thin shell, :class:`HardStop`, is an
observer of the tournament's decisions: once the tournament starts it arms a wall-clock timer
(the calendar's time, whatever the tables' clock speed) to the next such time of day; at it,
it asks the director to stop (:meth:`~server.tournament.director.Director.stop`). Every
process running a shared tournament arms its own: the director stops once, and refuses a
second stop.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import re
from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .decisions import Finished, TableAssignment
from .errors import ConfigError

__all__ = ["HardStop", "parse_stop", "seconds_until"]

log = logging.getLogger("brasseur.tournament")

_TIME = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


def parse_stop(text: str, zone: str) -> tuple[dt.time, ZoneInfo]:
    """``"23:45"`` in ``zone``; :class:`ConfigError` for a time or zone that is none."""
    found = _TIME.match(text)
    if found is None:
        raise ConfigError(f"[server] hard_stop: HH:MM, not {text!r}")
    try:
        tz = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"[server] hard_stop_zone: no time zone {zone!r}") from None
    return dt.time(int(found[1]), int(found[2])), tz


def seconds_until(stop: dt.time, zone: ZoneInfo, now: dt.datetime) -> float:
    """Seconds from ``now`` (aware) to the next ``stop`` of the day in ``zone`` (a session
    that starts at 20:00 stops at 23:45 the same evening; one started after 23:45, the next
    evening: a tournament is never stopped before it started)."""
    local = now.astimezone(zone)
    for days in range(3):
        when = dt.datetime.combine(local.date() + dt.timedelta(days=days), stop, tzinfo=zone)
        if when > now:
            return (when - now).total_seconds()
    raise AssertionError("unreachable: the time comes every day")  # pragma: no cover


class HardStop:
    """Observer of one tournament's decisions (see the module docstring)."""

    def __init__(
        self,
        stop: dt.time,
        zone: ZoneInfo,
        submit: Callable[[str, dict[str, Any]], None],
        now: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC),
    ) -> None:
        self.stop, self.zone, self.submit, self.now = stop, zone, submit, now
        self.timer: asyncio.TimerHandle | None = None
        self.armed = False

    def observe(self, decisions: list[Any]) -> None:
        if not self.armed and any(isinstance(x, TableAssignment) for x in decisions):
            self.armed = True
            delay = seconds_until(self.stop, self.zone, self.now())
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return  # no loop (a tool): nothing runs here
            self.timer = loop.call_later(delay, self._fire)
            log.info("hard stop armed in %.0f s", delay)
        if self.timer is not None and any(isinstance(x, Finished) for x in decisions):
            self.timer.cancel()
            self.timer = None

    def _fire(self) -> None:
        self.timer = None
        log.info("hard stop: the director stops the tournament")
        self.submit("stop", {})
