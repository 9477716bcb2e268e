"""Errors of the tournament director, split by whose fault they are (STYLE.md 5).

:class:`ConfigError` is the organiser's (an impossible configuration file);
:class:`ReportError` is the coordinator's (a hand report or call that contradicts what the
director knows: a player who is not at that table, chips that appear from nowhere...);
:class:`PhaseError` is a call that the tournament's phase does not allow (e.g. dealing before
the start). A refused player action (late registration after the deadline...) is not an error:
it is a :class:`~server.tournament.decisions.Refused` decision.
"""

from __future__ import annotations

__all__ = ["ConfigError", "DirectorError", "PhaseError", "ReportError"]


class DirectorError(Exception):
    """Base class; ``code`` is stable on the wire."""

    code = "director_error"


class ConfigError(DirectorError):
    code = "bad_tournament_config"


class ReportError(DirectorError):
    code = "bad_hand_report"


class PhaseError(DirectorError):
    code = "wrong_tournament_phase"
