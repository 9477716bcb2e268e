"""One event's result as the league sees it: who finished where, who eliminated whom.

Only what the points formulas and the season rules need. Places follow the competition
ranking of the rulebooks' "ex-aequo" (cdc 1.10, fpc 4-4): players who tie share the best
place of their block and the next player takes the place after the block (1, 2, 2, 4).
A player who re-entered has one :class:`Entry` per entry (``entry`` 1, 2, ...); every entry
counts in the field (the fpc formula counts "participants", the entries).
"""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

from .errors import ResultError

__all__ = ["Entry", "EventKind", "EventResult", "check_ranking"]


class EventKind(StrEnum):
    """What kind of event a result comes from."""

    TOURNAMENT = "tournament"
    """A multi-table tournament: an fpc Tour des Potes stage, a ligue "journalier"."""
    SIT_AND_GO = "sit_and_go"
    """One sit&go table (fpc part C "Sit'n Go", ligue "sit&go"); each table is its own event."""
    MONTHLY = "monthly"
    """A ligue "mensuel", for ranked players."""
    QUARTERLY = "quarterly"
    """A ligue "trimestriel", for ranked players."""
    SATELLITE = "satellite"
    """A tournament whose prizes are seats in a target event."""
    CUP = "cup"
    """A heads-up cup (fpc part C, « LA COUPE HEADS-UP »): a bracket of matches, each played
    in games of two players; its places are stored, it gives no season points."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """One entry's finish."""

    player_id: str
    place: int
    eliminated_by: tuple[str, ...] = ()
    """Who eliminated this entry (several when a split pot knocks him out); empty for the
    winner, for players still in at a hard stop, and for players who left (ligue 6.23)."""
    entry: int = 1
    """1 for the first entry, 2 for a re-entry, ..."""


def check_ranking(places: list[int]) -> None:
    """Raise :class:`ResultError` unless ``places`` is a competition ranking of ``1..len``.

    Each place must equal one plus the number of strictly better places (1, 2, 2, 4 is a
    ranking; 1, 2, 2, 3 and 1, 3 are not).
    """
    counts = Counter(places)
    better = 0
    for place in sorted(counts):
        if place != better + 1:
            raise ResultError(f"places {sorted(places)} are not a ranking (expected {better + 1})")
        better += counts[place]


@dataclass(frozen=True, slots=True, kw_only=True)
class EventResult:
    """A finished event. Construction checks it (raises :class:`ResultError`)."""

    event_id: str
    date: datetime.date
    kind: EventKind
    entries: tuple[Entry, ...]
    final_table_size: int | None = None
    """Players at the final table (fpc part B: the maximum per table, "Il détermine
    également le nombre de joueurs accédant à la table finale"); None: the points system's."""
    sheet_error: bool = False
    """fpc part C: the Sit'n Go match sheet was wrong ("une pénalité de -3 points sera
    appliquée aux deux finalistes")."""

    def __post_init__(self) -> None:
        if not self.entries:
            raise ResultError(f"event {self.event_id}: no entries")
        keys = Counter((e.player_id, e.entry) for e in self.entries)
        twice = sorted(k for k, n in keys.items() if n > 1)
        if twice:
            raise ResultError(f"event {self.event_id}: entries listed twice: {twice}")
        check_ranking([e.place for e in self.entries])
        players = self.players
        for e in self.entries:
            if e.player_id in e.eliminated_by:
                raise ResultError(f"event {self.event_id}: {e.player_id} eliminated himself")
            strangers = set(e.eliminated_by) - players
            if strangers:
                raise ResultError(
                    f"event {self.event_id}: {e.player_id} eliminated by non-players {strangers}"
                )
        if self.final_table_size is not None and self.final_table_size < 2:
            raise ResultError(f"event {self.event_id}: final table of {self.final_table_size}")

    @property
    def field_size(self) -> int:
        """The number of entries (re-entries included)."""
        return len(self.entries)

    @property
    def players(self) -> frozenset[str]:
        return frozenset(e.player_id for e in self.entries)

    def best_entries(self) -> dict[str, Entry]:
        """Each player's best entry (lowest place; the first entry on a tie)."""
        best: dict[str, Entry] = {}
        for e in sorted(self.entries, key=lambda e: (e.place, e.entry)):
            best.setdefault(e.player_id, e)
        return best

    def finalists(self) -> tuple[str, ...]:
        """Players whose best entry finished 1st or 2nd (the Sit'n Go "deux finalistes")."""
        return tuple(sorted(p for p, e in self.best_entries().items() if e.place <= 2))
