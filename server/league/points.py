"""Points systems: one event's result in, points per player out (pure).

Every system answers :meth:`PointsSystem.event_points`. Players who tie (cdc 1.10, fpc 4-4:
"ils sont ex-æquo") share the best place of their block and each scores that place's
points. A player with several entries (re-entry) scores his best entry.

- :data:`FPC_TOUR_DES_POTES`: fpc part B "Attribution des points", a :class:`StepFormula`;
- :data:`FPC_SIT_AND_GO`: fpc part C "LE SIT'N GO", a :class:`FieldSizeTable` with the
  match-sheet penalty;
- :class:`LiguePoints`: the ligue's points by place and its sit&go note 5;
- :class:`PlaceTable`, :class:`FieldSizeTable`, :class:`StepFormula`, :class:`Formula`:
  the generic "points table" and "formula" systems for other leagues.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from .errors import LeagueConfigError
from .results import EventKind, EventResult

__all__ = [
    "FPC_SIT_AND_GO",
    "FPC_SIT_AND_GO_TABLE",
    "FPC_TOUR_DES_POTES",
    "FieldSizeTable",
    "Formula",
    "LiguePoints",
    "PlaceTable",
    "PointsSystem",
    "StepFormula",
]


class PointsSystem(Protocol):
    def event_points(self, result: EventResult) -> dict[str, int]:
        """Points of every player of ``result``; raises :class:`LeagueConfigError` when the
        system cannot score this event (a field size its table does not print)."""
        ...


def _by_player(result: EventResult, place_points: Callable[[int], int]) -> dict[str, int]:
    return {p: place_points(e.place) for p, e in result.best_entries().items()}


# ============================================================ fpc part B: Tour des Potes


@dataclass(frozen=True, slots=True, kw_only=True)
class StepFormula:
    """Points built upwards from the first eliminated, by steps, plus a podium bonus.

    fpc part B, "Attribution des points": "La première moitié des éliminés sera point par
    point. De la deuxième moitié jusqu'à la bulle sera de 2 en 2 points. La table finale sera
    de 3 en 3 points." and "Un bonus « Podium » sera attribué aux 3 premiers comme suit :
    3ème 1 point, 2ème 3 points, 1er 6 points". The place that eliminations reach adds its
    step to the points of the place below; the bonus is added on top and does not carry
    ("3ème 60+3+1 = 64, 2ème 63+3+3 = 69, 1er 66+3+6 = 75").

    Readings (the text is silent): "la première moitié des éliminés" is the first
    ``field // 2`` eliminated (40 entrants: 40th to 21st, the example's "1ère moitié
    atteinte"; 41 entrants: 41st to 22nd); the bubble is the place just outside the final
    table; where the first half reaches into the final table (small fields) the final
    table's step wins; the first eliminated scores his step (1 in the example).
    """

    first_half_step: int = 1
    second_half_step: int = 2
    final_table_step: int = 3
    podium_bonus: tuple[int, ...] = (6, 3, 1)
    """Bonus of the 1st, 2nd, 3rd ..."""
    final_table_size: int = 9
    """Used when the result does not say (fpc part B: "D'ordinaire ... au maximum 9")."""

    def _step(self, field_size: int, place: int, final_table: int) -> int:
        if place <= final_table:
            return self.final_table_step
        if field_size - place + 1 <= field_size // 2:
            return self.first_half_step
        return self.second_half_step

    def base_table(self, field_size: int, final_table_size: int | None = None) -> tuple[int, ...]:
        """Points of places 1..field_size before the podium bonus (the book's "a+b")."""
        if field_size < 1:
            raise LeagueConfigError(f"no points for a field of {field_size}")
        final_table = final_table_size or self.final_table_size
        points = [0] * field_size
        running = 0
        for place in range(field_size, 0, -1):
            running += self._step(field_size, place, final_table)
            points[place - 1] = running
        return tuple(points)

    def table(self, field_size: int, final_table_size: int | None = None) -> tuple[int, ...]:
        """Points of places 1..field_size, podium bonus included."""
        base = list(self.base_table(field_size, final_table_size))
        for i, bonus in enumerate(self.podium_bonus[:field_size]):
            base[i] += bonus
        return tuple(base)

    def event_points(self, result: EventResult) -> dict[str, int]:
        table = self.table(result.field_size, result.final_table_size)
        return _by_player(result, lambda place: table[place - 1])


FPC_TOUR_DES_POTES = StepFormula()
"""fpc part B, the Tour des Potes points (40 entrants: 1st 75, 2nd 69, 3rd 64, 10th 42 ...)."""


# ============================================================ tables


@dataclass(frozen=True, slots=True, kw_only=True)
class FieldSizeTable:
    """Points by place, one row per field size; a field size without a row is refused.

    ``sheet_error_penalty``: fpc part C, "En cas d'erreur, une pénalité de -3 points sera
    appliquée aux deux finalistes" (applied when the result's ``sheet_error`` is set).
    """

    tables: Mapping[int, tuple[int, ...]]
    sheet_error_penalty: int = 0

    def __post_init__(self) -> None:
        for size, row in self.tables.items():
            if len(row) != size:
                raise LeagueConfigError(f"the row for {size} players has {len(row)} places")

    def event_points(self, result: EventResult) -> dict[str, int]:
        row = self.tables.get(result.field_size)
        if row is None:
            sizes = sorted(self.tables)
            raise LeagueConfigError(
                f"event {result.event_id}: no points for {result.field_size} players "
                f"(the table prints {sizes})"
            )
        points = _by_player(result, lambda place: row[place - 1])
        if result.sheet_error:
            for player in result.finalists():
                points[player] -= self.sheet_error_penalty
        return points


# fpc part C, "LE SIT'N GO", "En fin de Sit'n Go les points marqués sont les suivants"
FPC_SIT_AND_GO_TABLE: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {
        10: (20, 16, 12, 8, 6, 5, 4, 3, 2, 1),
        9: (19, 15, 11, 7, 5, 4, 3, 2, 1),
        8: (18, 14, 10, 6, 4, 3, 2, 1),
        7: (17, 13, 9, 5, 3, 2, 1),
        6: (16, 12, 8, 4, 2, 1),
    }
)

FPC_SIT_AND_GO = FieldSizeTable(tables=FPC_SIT_AND_GO_TABLE, sheet_error_penalty=3)
"""fpc part C: the table for 6 to 10 players ("Les parties se jouent de 6 joueurs (minimum)
à 10 joueurs (maximum)"), -3 to both finalists for a wrong match sheet. The +2 points for
eliminating the leader is a season rule (:class:`~server.league.standings.SeasonRules`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceTable:
    """Points by place whatever the field size: ``points[0]`` for the 1st, ...; places
    beyond the table score ``beyond``."""

    points: tuple[int, ...]
    beyond: int = 0

    def place_points(self, place: int) -> int:
        return self.points[place - 1] if place <= len(self.points) else self.beyond

    def event_points(self, result: EventResult) -> dict[str, int]:
        return _by_player(result, self.place_points)


@dataclass(frozen=True, slots=True, kw_only=True)
class Formula:
    """Any pure formula ``points(field_size, place)``, for leagues with their own."""

    points: Callable[[int, int], int]
    name: str = "formula"

    def event_points(self, result: EventResult) -> dict[str, int]:
        n = result.field_size
        return _by_player(result, lambda place: self.points(n, place))


# ============================================================ ligue


@dataclass(frozen=True, slots=True, kw_only=True)
class LiguePoints:
    """The ligue's points by place ("le système de pointage de la Ligue").

    The ligue rulebook refers to its points system without printing it (8.1 "Noter le rang
    d'élimination de chaque joueur", 6.23 "obtiendra les points du rang de son
    élimination"), so the league director supplies ``table`` (points of the 1st, 2nd, ...).

    Sit&go, ligue "NOTES SUPPLÉMENTAIRES POUR LES SIT & GO" 5: "Le système de pointage de la
    Ligue s'applique en totalité pour les positions 5 à 10 lors des sit&go." Places 5 to 10
    of a sit&go score exactly the table; the note implies places 1 to 4 score otherwise
    without saying how, so ``sit_and_go_top`` (points of the 1st to 4th) is the director's;
    without it they score the table too.
    """

    table: tuple[int, ...]
    sit_and_go_top: tuple[int, int, int, int] | None = None
    beyond: int = 0

    def place_points(self, kind: EventKind, place: int) -> int:
        if kind is EventKind.SIT_AND_GO and self.sit_and_go_top is not None and place <= 4:
            return self.sit_and_go_top[place - 1]
        return self.table[place - 1] if place <= len(self.table) else self.beyond

    def event_points(self, result: EventResult) -> dict[str, int]:
        return _by_player(result, lambda place: self.place_points(result.kind, place))
