"""Satellites (seats in a target event) and the ligue's qualification of ranked players.

Seats from the field: none of the five books says how many seats a satellite gives, so the
number is the organiser's configuration, one of:

- :class:`SeatsPerEntries`: one seat per N entries (rounded down, at least ``minimum``);
- :class:`SeatsFromPool`: the prize pool (entries x buy-in + added money) buys as many
  target buy-ins as it can; the remainder is cash for the first place without a seat.

The bubble, cdc 1.10 "SORTANTS SIMULTANES": "Si deux joueurs (ou plus) sont éliminés en même
temps à la même table ou dans le cas de la bulle, celui qui possédait le plus gros tapis au
début du coup sera le mieux classé. Si les deux joueurs possédaient le même tapis ou s'ils
étaient assis à deux tables différentes et qu'il ne s'agit pas de la bulle, ils sont
définitivement ex-aequo. S'il s'agit de la bulle, voir le §2.7." and cdc 2.7: "S'ils sont
sur 2 tables différentes, ils seront classés à égalité (avec partage du prizepool du dernier
payé le cas échéant)." The result already holds the tie (the director applies 1.10); here
the tied players share the prizes of the places they occupy: when their block straddles
the last seat, nobody of the block gets a seat and each is owed ``seats_in_block / size`` of
a seat's value (a seat cannot be cut; the organiser pays that share, usually in cash).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .errors import LeagueConfigError
from .results import Entry, EventKind, EventResult
from .standings import StandingRow

__all__ = [
    "QualificationRule",
    "SatelliteAward",
    "SeatPlan",
    "SeatRule",
    "SeatsFromPool",
    "SeatsPerEntries",
    "award_seats",
    "qualified_players",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatPlan:
    seats: int
    seat_value: int | None = None
    """The target's buy-in when the rule knows it."""
    remainder: int = 0
    """Cash left once the seats are bought, for the first place without a seat."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatsPerEntries:
    """One seat per ``entries_per_seat`` entries, rounded down, at least ``minimum``."""

    entries_per_seat: int
    minimum: int = 1

    def __post_init__(self) -> None:
        if self.entries_per_seat < 1 or self.minimum < 0:
            raise LeagueConfigError(f"bad seat rule {self}")

    def plan(self, entries: int) -> SeatPlan:
        seats = max(self.minimum, entries // self.entries_per_seat)
        return SeatPlan(seats=min(seats, entries))


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatsFromPool:
    """As many target buy-ins as the pool pays for; the remainder in cash."""

    buy_in: int
    target_buy_in: int
    added: int = 0

    def __post_init__(self) -> None:
        if self.buy_in < 0 or self.target_buy_in < 1 or self.added < 0:
            raise LeagueConfigError(f"bad seat rule {self}")

    def plan(self, entries: int) -> SeatPlan:
        seats, remainder = divmod(entries * self.buy_in + self.added, self.target_buy_in)
        if seats >= entries:
            seats, remainder = entries, 0
        return SeatPlan(seats=seats, seat_value=self.target_buy_in, remainder=remainder)


SeatRule = SeatsPerEntries | SeatsFromPool


@dataclass(frozen=True, slots=True, kw_only=True)
class SatelliteAward:
    player_id: str
    entry: int
    place: int
    seat: bool
    """A whole seat (a ticket registered in the target)."""
    seat_share: Fraction = Fraction(0)
    """A tied bubble's share of a seat's value (cdc 2.7), when no whole seat."""
    cash: Fraction = Fraction(0)
    """A share of the pool's remainder."""


def _award_block(block: Sequence[Entry], plan: SeatPlan) -> list[SatelliteAward]:
    place = block[0].place
    size = len(block)
    seats = min(max(plan.seats - place + 1, 0), size)
    holds_remainder = place <= plan.seats + 1 < place + size
    cash = Fraction(plan.remainder, size) if holds_remainder else Fraction(0)
    whole = seats == size
    share = Fraction(0) if whole else Fraction(seats, size)
    return [
        SatelliteAward(
            player_id=e.player_id,
            entry=e.entry,
            place=place,
            seat=whole,
            seat_share=share,
            cash=cash,
        )
        for e in block
    ]


def award_seats(result: EventResult, plan: SeatPlan) -> tuple[SatelliteAward, ...]:
    """Every entry's award, best place first (ties in entry order of the result).

    Places ``1..plan.seats`` win a seat; a tied block straddling the last seat shares the
    value of the seats inside it (cdc 1.10, 2.7); the remainder goes to the place after the
    last seat (shared by its block).
    """
    blocks: dict[int, list[Entry]] = defaultdict(list)
    for entry in result.entries:
        blocks[entry.place].append(entry)
    awards: list[SatelliteAward] = []
    for place in sorted(blocks):
        awards.extend(_award_block(blocks[place], plan))
    return tuple(awards)


# ============================================================ ligue: ranked players


@dataclass(frozen=True, slots=True, kw_only=True)
class QualificationRule:
    """Which ranked players ("joueurs classés") play a ligue monthly or quarterly.

    The ligue text only names them ("Pour les soirs de mensuel afin de permettre aux joueurs
    classés de jouer le journalier", PRÉAVIS note 1) and leaves the "Trimestriel" to its own
    documents ("voir les spécificités dans les documents respectifs"); so the cut is the
    league's: the first ``top`` of the standings (everyone ex-aequo at the cut qualifies, a
    rank is shared), at least ``min_points``, at least ``min_played`` results; the criteria
    given all apply.
    """

    kind: EventKind
    top: int | None = None
    min_points: int | None = None
    min_played: int = 0

    def __post_init__(self) -> None:
        if self.kind not in (EventKind.MONTHLY, EventKind.QUARTERLY):
            raise LeagueConfigError(f"qualification for a {self.kind}")
        if self.top is None and self.min_points is None and self.min_played < 1:
            raise LeagueConfigError("a qualification rule needs a criterion")

    def admits(self, row: StandingRow) -> bool:
        return (
            (self.top is None or row.rank <= self.top)
            and (self.min_points is None or row.points >= self.min_points)
            and row.played >= self.min_played
        )


def qualified_players(rows: Sequence[StandingRow], rule: QualificationRule) -> tuple[str, ...]:
    """The qualified players, in standings order."""
    return tuple(r.player_id for r in rows if rule.admits(r))
