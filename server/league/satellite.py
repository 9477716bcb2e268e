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

A league event names its rule as text (:func:`seat_rule`): ``per:<N>[,<minimum>]`` or
``pool:<buy-in>,<target buy-in>[,<added>]``; :data:`DEFAULT_SEATS` when it names none. What
each winner holds is a :class:`Ticket` (:func:`issue_tickets`): one per player, whatever his
entries.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .errors import LeagueConfigError
from .results import Entry, EventKind, EventResult
from .standings import StandingRow

__all__ = [
    "DEFAULT_SEATS",
    "QualificationRule",
    "SatelliteAward",
    "SeatPlan",
    "SeatRule",
    "SeatsFromPool",
    "SeatsPerEntries",
    "Ticket",
    "award_seats",
    "issue_tickets",
    "qualified_players",
    "seat_rule",
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

DEFAULT_SEATS = "per:10"
"""The rule of a satellite that names none. No book prints one; one seat per ten entries (at
least one) is the usual rule of thumb of live satellites, and needs no buy-in (the shipped
structures have none)."""

_MAX_NUMBER = 1_000_000_000


def _numbers(text: str, least: int, most: int) -> list[int]:
    cells = text.split(",")
    if not least <= len(cells) <= most or not all(c.strip().isdecimal() for c in cells):
        raise LeagueConfigError(f"seats: {least} to {most} whole numbers separated by commas")
    numbers = [int(c) for c in cells]
    if any(n > _MAX_NUMBER for n in numbers):
        raise LeagueConfigError(f"seats: numbers up to {_MAX_NUMBER:,}")
    return numbers


def seat_rule(spec: str) -> SeatRule:
    """A satellite's seat rule from its text: ``per:<entries per seat>[,<minimum>]``
    (:class:`SeatsPerEntries`, minimum 1 unless given) or ``pool:<buy-in>,<target
    buy-in>[,<added>]`` (:class:`SeatsFromPool`). Raises :class:`LeagueConfigError`."""
    kind, _, rest = spec.partition(":")
    if kind == "per":
        per = _numbers(rest, 1, 2)
        return SeatsPerEntries(entries_per_seat=per[0], minimum=per[1] if len(per) > 1 else 1)
    if kind == "pool":
        pool = _numbers(rest, 2, 3)
        added = pool[2] if len(pool) > 2 else 0
        return SeatsFromPool(buy_in=pool[0], target_buy_in=pool[1], added=added)
    raise LeagueConfigError("seats: per:<entries per seat>[,<minimum>] or pool:<buy-in>,<target>")


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


# ============================================================ tickets


@dataclass(frozen=True, slots=True, kw_only=True)
class Ticket:
    """What a satellite's player won into its target event.

    One per player: a player whose two entries both finished in the seats holds one ticket
    worth two seats (``seats`` 2): he enters the target once, and the league knows what the
    satellite's pool paid for him. A ticket that :attr:`enters` registers its holder in the
    target (a member's account is the person; a guest has no identity to enter with).
    """

    satellite: str
    target: str
    player_id: str
    name: str
    place: int
    """His best place in the satellite."""
    seats: Fraction
    """Seats' worth: 1 a whole seat; a share below 1 when tied at the bubble (cdc 2.7,
    "avec partage du prizepool du dernier payé"): ``seats in the block / players in it``."""
    seat_value: int | None = None
    """A seat's value (the target's buy-in) when the rule knows it."""
    cash: Fraction = Fraction(0)
    """A share of the pool's remainder (the first place without a seat)."""
    member: bool = False
    """The holder entered under his member account (results follow the person)."""
    note: str = ""
    """Why the ticket has not entered its holder (no account, the target refused him...)."""

    @property
    def shared(self) -> bool:
        """A seat shared at the bubble: the ticket is worth a part of a seat."""
        return self.seats.denominator != 1

    @property
    def enters(self) -> bool:
        """The holder is registered in the target: a member with (a share of) a seat. Online a
        seat cannot be cut, so every player of a tied bubble enters (docs/leagues.md)."""
        return self.member and self.seats > 0


def issue_tickets(
    result: EventResult,
    plan: SeatPlan,
    *,
    target: str,
    members: frozenset[str],
    names: Mapping[str, str],
) -> tuple[Ticket, ...]:
    """The tickets of a finished satellite (:func:`award_seats`, by player): every player
    with a seat, a share of one or cash, best place first. ``members``: the players who
    entered with an account."""
    seats: dict[str, Fraction] = defaultdict(Fraction)
    cash: dict[str, Fraction] = defaultdict(Fraction)
    place: dict[str, int] = {}
    for award in award_seats(result, plan):
        player = award.player_id
        seats[player] += 1 if award.seat else award.seat_share
        cash[player] += award.cash
        place.setdefault(player, award.place)
    return tuple(
        Ticket(
            satellite=result.event_id,
            target=target,
            player_id=player,
            name=names.get(player, player),
            place=place[player],
            seats=seats[player],
            seat_value=plan.seat_value,
            cash=cash[player],
            member=player in members,
            note="" if player in members else "a guest: no account to enter the target with",
        )
        for player in place
        if seats[player] or cash[player]
    )


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
