"""fpc part C seating by standings and the 23:45 hard stop (pure).

fpc part C, "LE SIT'N GO": "L'attribution des places (table et siège) s'effectue par le
logiciel de gestion Tournament Director, sauf le premier mercredi du mois à partir de janvier
où les tables sont composées en fonction du classement général." The text does not say how
the standings compose the tables; read here as grouping: the best ranked fill the first
table, the next ones the second, ... (a "table of the leaders"); players without a result
this season come last in a random order; the seats at each table are drawn. Tables are as
few as the maximum allows, their sizes differing by one at most, the larger first ("Les
parties se jouent de 6 joueurs (minimum) à 10 joueurs (maximum)").

"Chaque session débute à 20h00 et se terminera à 23h45." "Si les Sit'n Go ne sont pas
terminés à 23h45, le classement sera défini par le montant des stacks des joueurs encore en
jeu." Players still in rank above every eliminated player, by stack; equal stacks are
ex-aequo (the text is silent; fpc 4-4 ranks simultaneous busts by stack and says "Si les
joueurs possédaient le même tapis, ils sont ex-æquo").
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Mapping, Sequence

from .errors import ResultError, SeatingError
from .results import Entry, check_ranking
from .standings import StandingRow

__all__ = [
    "FPC_HARD_STOP",
    "hard_stop_reached",
    "is_standings_seating_day",
    "night_tables",
    "rank_at_hard_stop",
    "tables_by_standings",
]

FPC_HARD_STOP = datetime.time(23, 45)
"""fpc part C: "se terminera à 23h45"."""

_WEDNESDAY = 2


def is_standings_seating_day(day: datetime.date) -> bool:
    """The first Wednesday of a month from January (the season ends in June: "s'achève le
    dernier ou l'avant-dernier mercredi du mois de juin")."""
    return day.weekday() == _WEDNESDAY and day.day <= 7 and 1 <= day.month <= 6


def _table_sizes(players: int, max_per_table: int, min_per_table: int) -> list[int]:
    tables = -(-players // max_per_table)
    base, extra = divmod(players, tables)
    sizes = [base + 1] * extra + [base] * (tables - extra)
    if sizes[-1] < min_per_table:
        raise SeatingError(
            f"{players} players cannot sit at tables of {min_per_table} to {max_per_table}"
        )
    return sizes


def tables_by_standings(
    present: Sequence[str],
    rows: Sequence[StandingRow],
    rng: random.Random,
    *,
    max_per_table: int = 10,
    min_per_table: int = 6,
) -> tuple[tuple[str, ...], ...]:
    """Tables composed from the standings; each table lists its players in seat order.

    Raises :class:`SeatingError` when the players cannot fill tables within the limits
    (11 players at 6 to 10 a table), or a player is listed twice.
    """
    if len(set(present)) != len(present):
        raise SeatingError("a player is listed twice")
    if not present:
        return ()
    here = set(present)
    ranked = [r.player_id for r in rows if r.player_id in here]
    unranked = sorted(here - set(ranked))
    rng.shuffle(unranked)
    order = ranked + unranked
    tables: list[tuple[str, ...]] = []
    start = 0
    for size in _table_sizes(len(order), max_per_table, min_per_table):
        table = order[start : start + size]
        rng.shuffle(table)
        tables.append(tuple(table))
        start += size
    return tuple(tables)


def night_tables(
    day: datetime.date,
    present: Sequence[str],
    rows: Sequence[StandingRow],
    rng: random.Random,
    *,
    max_per_table: int = 10,
    min_per_table: int = 6,
) -> tuple[tuple[str, ...], ...]:
    """The tables of a night of Sit'n Gos: composed by the standings on the first Wednesday
    of a month from January, at random any other night (« par le logiciel de gestion
    Tournament Director »). Raises :class:`SeatingError` as :func:`tables_by_standings`."""
    ranked = rows if is_standings_seating_day(day) else ()
    return tables_by_standings(
        present, ranked, rng, max_per_table=max_per_table, min_per_table=min_per_table
    )


def hard_stop_reached(now: datetime.time, stop: datetime.time = FPC_HARD_STOP) -> bool:
    return now >= stop


def rank_at_hard_stop(out: Sequence[Entry], stacks: Mapping[str, int]) -> tuple[Entry, ...]:
    """The full ranking of a sit&go stopped at the hard stop.

    ``out`` are the entries already eliminated, with their places; ``stacks`` the chips of
    the players still in. Those rank first by stack (equal stacks share a place); the
    eliminated keep theirs, which must follow. Raises :class:`ResultError` otherwise.
    """
    if set(stacks) & {e.player_id for e in out}:
        raise ResultError("a player is both eliminated and still in")
    if any(chips <= 0 for chips in stacks.values()):
        raise ResultError(f"a player still in without chips: {dict(stacks)}")
    ordered = sorted(stacks.items(), key=lambda item: (-item[1], item[0]))
    still_in: list[Entry] = []
    for i, (player, chips) in enumerate(ordered):
        tied = i > 0 and ordered[i - 1][1] == chips
        place = still_in[-1].place if tied else i + 1
        still_in.append(Entry(player_id=player, place=place))
    ranking = still_in + sorted(out, key=lambda e: (e.place, e.player_id))
    if any(e.place <= len(still_in) for e in out):
        raise ResultError(f"eliminated places {[e.place for e in out]} clash with players in")
    check_ranking([e.place for e in ranking])
    return tuple(ranking)
