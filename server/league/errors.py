"""Errors of the league rules, split by whose fault they are (STYLE.md 5).

:class:`ResultError` is the reporter's: an event result that cannot be true (places that do
not form a ranking, a player twice...). :class:`LeagueConfigError` is the organiser's: a
points system, a season or a satellite that cannot work (a field size the table does not
print, more events than the season has). :class:`BracketError` is a cup result that the
bracket refuses (a match not ready, a winner not in the match). :class:`SeatingError` is a
seating that the table limits make impossible.
"""

from __future__ import annotations

__all__ = ["BracketError", "LeagueConfigError", "LeagueError", "ResultError", "SeatingError"]


class LeagueError(Exception):
    """Base class; ``code`` is stable on the wire."""

    code = "league_error"


class ResultError(LeagueError):
    code = "bad_event_result"


class LeagueConfigError(LeagueError):
    code = "bad_league_config"


class BracketError(LeagueError):
    code = "bad_cup_result"


class SeatingError(LeagueError):
    code = "impossible_seating"
