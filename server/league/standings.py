"""A season's standings from many event results (pure).

fpc part B, "Classement général": "Un classement général est établi, au cumul des points
gagnés à chaque étape, il sera retenu les 9 meilleurs résultats sur 10. La non-participation
à une ou plusieurs étapes ne disqualifie pas le joueur du championnat." fpc part C, Sit'n Go:
"Le classement général de chaque joueur est défini par ses 30 meilleurs résultats." and
"Bounty : on accorde 2 points supplémentaires à celui qui élimine le premier du classement
général."

Choices where the books are silent (documented here, tested):

- A missed event is no result: it neither counts nor uses one of the best N.
- Ties in the standings: neither book says. Ordered by the retained points, then by more
  wins (1st places, all results), then by the best single result; players still equal are
  ex-aequo (same rank, competition ranking 1, 2, 2, 4) and listed by player id.
- "Le premier du classement général" for the leader bounty is whoever has rank 1 in the
  standings of the events of *earlier dates* (all sit&go tables of one Wednesday start
  together: "Tous les Sit'n Go commencent en même temps"); ex-aequo leaders are all leaders;
  before the first event nobody is. The bonus belongs to that event's result (it counts
  within the best N); a split elimination shares it like the tournament director does
  (rounded down, the remainder to the first eliminator listed).
"""

from __future__ import annotations

import csv
import datetime
import io
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import LeagueConfigError
from .points import FPC_SIT_AND_GO, FPC_TOUR_DES_POTES, PointsSystem
from .results import EventKind, EventResult

__all__ = [
    "FPC_SIT_AND_GO_SEASON",
    "FPC_TOUR_DES_POTES_SEASON",
    "Score",
    "SeasonRules",
    "StandingRow",
    "leaders",
    "season_scores",
    "standings",
    "standings_csv",
    "standings_json",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeasonRules:
    """How a season adds results up."""

    points: PointsSystem
    best_of: int | None = None
    """N of "best N of M"; None keeps every result."""
    events: int | None = None
    """M, the season's number of events when the book fixes it (refuses more)."""
    leader_bounty: int = 0
    """Points for eliminating the standings leader (fpc part C: 2)."""

    def __post_init__(self) -> None:
        if self.best_of is not None and self.best_of < 1:
            raise LeagueConfigError(f"best {self.best_of} results")
        if self.events is not None and self.best_of is not None and self.best_of > self.events:
            raise LeagueConfigError(f"best {self.best_of} of {self.events}")


FPC_TOUR_DES_POTES_SEASON = SeasonRules(points=FPC_TOUR_DES_POTES, best_of=9, events=10)
"""fpc part B: "composé des 10 étapes par saisons", "les 9 meilleurs résultats sur 10"."""

FPC_SIT_AND_GO_SEASON = SeasonRules(points=FPC_SIT_AND_GO, best_of=30, leader_bounty=2)
"""fpc part C: "ses 30 meilleurs résultats", +2 points for eliminating the leader."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Score:
    """One player's result in one event."""

    event_id: str
    date: datetime.date
    place: int
    field_size: int
    points: int
    """From the points system (the match-sheet penalty included)."""
    leader_bounty: int = 0
    counted: bool = False
    """Among the player's best N."""

    @property
    def total(self) -> int:
        return self.points + self.leader_bounty


@dataclass(frozen=True, slots=True, kw_only=True)
class StandingRow:
    rank: int
    player_id: str
    points: int
    """The sum of the retained (best N) results."""
    played: int
    wins: int
    best: int
    """The best single result."""
    dropped: int
    """The sum of the results beyond the best N."""
    scores: tuple[Score, ...]
    """Chronological."""

    @property
    def counted(self) -> int:
        return sum(1 for s in self.scores if s.counted)


def _ordered(rules: SeasonRules, events: Iterable[EventResult]) -> list[EventResult]:
    ordered = sorted(events, key=lambda e: (e.date, e.event_id))
    ids = [e.event_id for e in ordered]
    if len(set(ids)) != len(ids):
        raise LeagueConfigError(f"an event is listed twice: {sorted(ids)}")
    if rules.events is not None and len(ordered) > rules.events:
        raise LeagueConfigError(f"{len(ordered)} events in a season of {rules.events}")
    return ordered


def _bounties(result: EventResult, leading: frozenset[str], bonus: int) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    if not bonus or not leading:
        return out
    for entry in result.entries:
        if entry.player_id not in leading or not entry.eliminated_by:
            continue
        killers = entry.eliminated_by
        each = bonus // len(killers)
        for i, killer in enumerate(killers):
            out[killer] += each + (bonus - each * len(killers) if i == 0 else 0)
    return out


def _event_scores(
    result: EventResult, points: dict[str, int], bounty: dict[str, int]
) -> dict[str, Score]:
    best = result.best_entries()
    return {
        p: Score(
            event_id=result.event_id,
            date=result.date,
            place=best[p].place,
            field_size=result.field_size,
            points=pts,
            leader_bounty=bounty.get(p, 0),
        )
        for p, pts in points.items()
    }


def season_scores(rules: SeasonRules, events: Iterable[EventResult]) -> dict[str, list[Score]]:
    """Every player's scores, chronological (``counted`` not yet decided).

    Raises :class:`LeagueConfigError` (an event twice, more events than the season has, a
    field size the points system cannot score).
    """
    # fpc part C: the heads-up cup is its own competition (a bracket), with no points
    ordered = _ordered(rules, [e for e in events if e.kind is not EventKind.CUP])
    scores: dict[str, list[Score]] = defaultdict(list)
    day: datetime.date | None = None
    leading: frozenset[str] = frozenset()
    for result in ordered:
        if rules.leader_bounty and result.date != day:
            day = result.date
            leading = leaders(_rows(rules, scores))
        points = rules.points.event_points(result)
        bounty = _bounties(result, leading, rules.leader_bounty)
        for player, score in _event_scores(result, points, bounty).items():
            scores[player].append(score)
    return dict(scores)


def _retain(rules: SeasonRules, scores: Sequence[Score]) -> tuple[Score, ...]:
    """Mark the best N (equal totals: the earlier result is retained)."""
    by_value = sorted(range(len(scores)), key=lambda i: (-scores[i].total, i))
    keep = set(by_value if rules.best_of is None else by_value[: rules.best_of])
    return tuple(
        Score(
            event_id=s.event_id,
            date=s.date,
            place=s.place,
            field_size=s.field_size,
            points=s.points,
            leader_bounty=s.leader_bounty,
            counted=i in keep,
        )
        for i, s in enumerate(scores)
    )


def _key(row: StandingRow) -> tuple[int, int, int]:
    return (-row.points, -row.wins, -row.best)


def _rows(rules: SeasonRules, scores: dict[str, list[Score]]) -> tuple[StandingRow, ...]:
    unranked = []
    for player, mine in scores.items():
        marked = _retain(rules, mine)
        unranked.append(
            StandingRow(
                rank=0,
                player_id=player,
                points=sum(s.total for s in marked if s.counted),
                played=len(marked),
                wins=sum(1 for s in marked if s.place == 1),
                best=max(s.total for s in marked),
                dropped=sum(s.total for s in marked if not s.counted),
                scores=marked,
            )
        )
    unranked.sort(key=lambda r: (_key(r), r.player_id))
    rows: list[StandingRow] = []
    for i, row in enumerate(unranked):
        tied = bool(rows) and _key(rows[-1]) == _key(row)
        rank = rows[-1].rank if tied else i + 1
        rows.append(
            StandingRow(
                rank=rank,
                player_id=row.player_id,
                points=row.points,
                played=row.played,
                wins=row.wins,
                best=row.best,
                dropped=row.dropped,
                scores=row.scores,
            )
        )
    return tuple(rows)


def standings(rules: SeasonRules, events: Iterable[EventResult]) -> tuple[StandingRow, ...]:
    """The season's standings, best first (see the module docstring for ties)."""
    return _rows(rules, season_scores(rules, events))


def leaders(rows: Sequence[StandingRow]) -> frozenset[str]:
    """The players ranked first (several when ex-aequo); empty without results."""
    return frozenset(r.player_id for r in rows if r.rank == 1)


# ============================================================ export


def _score_json(s: Score) -> dict[str, Any]:
    return {
        "event_id": s.event_id,
        "date": s.date.isoformat(),
        "place": s.place,
        "field_size": s.field_size,
        "points": s.points,
        "leader_bounty": s.leader_bounty,
        "total": s.total,
        "counted": s.counted,
    }


def standings_json(rows: Iterable[StandingRow]) -> list[dict[str, Any]]:
    """JSON-able rows (plain dicts, lists, strings and ints)."""
    return [
        {
            "rank": r.rank,
            "player_id": r.player_id,
            "points": r.points,
            "played": r.played,
            "counted": r.counted,
            "wins": r.wins,
            "best": r.best,
            "dropped": r.dropped,
            "scores": [_score_json(s) for s in r.scores],
        }
        for r in rows
    ]


def standings_csv(
    rows: Sequence[StandingRow],
    event_ids: Sequence[str] = (),
    names: Mapping[str, str] | None = None,
) -> str:
    """One line per player; one column per event of ``event_ids`` holding that event's
    total, in parentheses when it is not retained, empty when missed. With ``names`` (player
    id -> display name), a ``name`` column follows the id (a person reads the sheet)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    who = ["player_id", "name"] if names is not None else ["player_id"]
    writer.writerow(["rank", *who, "points", "played", "wins", "best", *event_ids])
    for r in rows:
        ids = [r.player_id] if names is None else [r.player_id, names.get(r.player_id, "")]
        by_event = {s.event_id: s for s in r.scores}
        cells = []
        for event_id in event_ids:
            s = by_event.get(event_id)
            cells.append("" if s is None else str(s.total) if s.counted else f"({s.total})")
        writer.writerow([r.rank, *ids, r.points, r.played, r.wins, r.best, *cells])
    return buf.getvalue()
