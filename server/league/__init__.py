"""League rules, pure and sans-I/O: event results in, points, standings, seats, brackets out.

- :mod:`.results`: an event's result (places, eliminators);
- :mod:`.points`: the points systems (fpc Tour des Potes formula, fpc Sit'n Go table, ligue
  points, generic tables and formulas);
- :mod:`.standings`: a season's standings (best N of M, leader bounty, ties, CSV/JSON);
- :mod:`.satellite`: seats from the field, the shared bubble, tickets, ligue qualification;
- :mod:`.cup`: the fpc heads-up cup bracket;
- :mod:`.seating`: fpc seating by standings and the 23:45 hard stop;
- :mod:`.late_entry`: the ligue's late entries and their chip penalties;
- :mod:`.bounty`: fpc part B Bounty and "Kill the PVS" statuses;
- :mod:`.model`: leagues, seasons, events, roles and the events' lifecycle (one transition
  table).

Nothing in those reads a clock, a random source it was not given, a file or a socket; the
one exception is :mod:`.store`, the leagues' SQLite file, which the gateway's league desk
(server.league_service.desk) uses.
"""

from .bounty import StageBounties, elimination_prize, stage_bounties
from .cup import FPC_CUP, FPC_CUP_GAME, Bracket, CupGame, CupRound, CupRules, Match, draw_cup
from .errors import BracketError, LeagueConfigError, LeagueError, ResultError, SeatingError
from .late_entry import LateEntry, ligue_late_entry
from .points import (
    FPC_SIT_AND_GO,
    FPC_SIT_AND_GO_TABLE,
    FPC_TOUR_DES_POTES,
    FieldSizeTable,
    Formula,
    LiguePoints,
    PlaceTable,
    PointsSystem,
    StepFormula,
)
from .results import Entry, EventKind, EventResult
from .satellite import (
    DEFAULT_SEATS,
    QualificationRule,
    SatelliteAward,
    SeatPlan,
    SeatRule,
    SeatsFromPool,
    SeatsPerEntries,
    Ticket,
    award_seats,
    issue_tickets,
    qualified_players,
    seat_rule,
)
from .seating import (
    FPC_HARD_STOP,
    hard_stop_reached,
    is_standings_seating_day,
    rank_at_hard_stop,
    tables_by_standings,
)
from .standings import (
    FPC_SIT_AND_GO_SEASON,
    FPC_TOUR_DES_POTES_SEASON,
    Score,
    SeasonRules,
    StandingRow,
    leaders,
    standings,
    standings_csv,
    standings_json,
)

__all__ = [
    "DEFAULT_SEATS",
    "FPC_CUP",
    "FPC_CUP_GAME",
    "FPC_HARD_STOP",
    "FPC_SIT_AND_GO",
    "FPC_SIT_AND_GO_SEASON",
    "FPC_SIT_AND_GO_TABLE",
    "FPC_TOUR_DES_POTES",
    "FPC_TOUR_DES_POTES_SEASON",
    "Bracket",
    "BracketError",
    "CupGame",
    "CupRound",
    "CupRules",
    "Entry",
    "EventKind",
    "EventResult",
    "FieldSizeTable",
    "Formula",
    "LateEntry",
    "LeagueConfigError",
    "LeagueError",
    "LiguePoints",
    "Match",
    "PlaceTable",
    "PointsSystem",
    "QualificationRule",
    "ResultError",
    "SatelliteAward",
    "Score",
    "SeasonRules",
    "SeatPlan",
    "SeatRule",
    "SeatingError",
    "SeatsFromPool",
    "SeatsPerEntries",
    "StageBounties",
    "StandingRow",
    "StepFormula",
    "Ticket",
    "award_seats",
    "draw_cup",
    "elimination_prize",
    "hard_stop_reached",
    "is_standings_seating_day",
    "issue_tickets",
    "leaders",
    "ligue_late_entry",
    "qualified_players",
    "rank_at_hard_stop",
    "seat_rule",
    "stage_bounties",
    "standings",
    "standings_csv",
    "standings_json",
    "tables_by_standings",
]
