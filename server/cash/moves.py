"""Moving a cash player to another table of the same room: a table change, balancing, a
merge (casino and fpc cash). Pure: what he brings, who moves, where he may be dealt.

The books:

- casino cash, a change asked by the player: « Si un joueur demande à changer de table, il
  devra obtenir l'accord du superviseur et avoir une raison valable. Dans ce cas, il ne pourra
  pas apporter un tapis supérieur à la cave maximum de sa nouvelle table et devra payer de
  nouveau son droit de siège. » What is above the new table's maximum is cashed out to him.
- casino cash, balancing and merging: « En revanche si une table est équilibrée ou fusionnée,
  il doit apporter son tapis complet et ce même s'il dépasse la cave maximum de la table. »
  « En cas d'équilibrage de table, on déplacera le ou les prochains joueurs après la grosse
  blind de la table comprenant le plus de joueurs. Ce même joueur ne pourra pas recevoir de
  cartes s'il se trouve placé entre la petite blind et le bouton, auquel cas il devra attendre
  que le bouton passe pour participer au jeu. »
- fpc cash: « Le joueur peut changer de table, pour cela il doit poser aussitôt ses jetons à
  sa nouvelle place. » (no agreement asked, the whole stack) and « Les règles définissant
  l'arrivée à une table sont celles du "Règlement jeux et compétitions" rubrique "Changement
  de place" » (fpc 17: the table's newcomer rules).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from server.cash.rules import CashRules, Entry
from server.engine.positions import Positions

__all__ = [
    "BALANCE_GAP",
    "MoveKind",
    "MoveTerms",
    "balance_pick",
    "move_terms",
    "next_after_big_blind",
    "waits_for_the_button",
]

BALANCE_GAP = 2
"""Tables are balanced when the fullest has this many players more than the emptiest (the
casino text does not say when; 2 is the gap the tournament books use, fpc 3, ligue)."""


class MoveKind(StrEnum):
    CHANGE = "change"
    """The player asked (casino: with the supervisor's agreement; fpc: at will)."""
    BALANCE = "balance"
    """The host balances the room's tables."""
    MERGE = "merge"
    """The host merges a table into another."""


@dataclass(frozen=True, slots=True)
class MoveTerms:
    brought: int
    """Chips he sits with at the new table."""
    returned: int
    """Chips cashed out to him (above the new table's maximum, a casino change)."""
    seat_fee: bool
    """He pays the seat fee again (a casino change)."""
    approval: bool
    """The host must agree first (a casino change)."""


def move_terms(kind: MoveKind, stack: int, target: CashRules) -> MoveTerms:
    """What a player with ``stack`` brings to a table with the ``target`` rules."""
    casino = target.entry is Entry.SEAT_FEE
    if kind is MoveKind.CHANGE and casino:
        brought = min(stack, target.max_buyin)
        return MoveTerms(brought, stack - brought, seat_fee=True, approval=True)
    # fpc change (« poser aussitôt ses jetons à sa nouvelle place »), balancing and merging
    # (« son tapis complet et ce même s'il dépasse la cave maximum »)
    return MoveTerms(stack, 0, seat_fee=False, approval=False)


def balance_pick(
    counts: Mapping[str, int], free: Mapping[str, int], gap: int = BALANCE_GAP
) -> tuple[str, str, int] | None:
    """``(from, to, players)``: the fullest table gives players to the emptiest one that has
    free seats, until they differ by less than ``gap``; ``None`` when balanced. Ties go to
    the table named first (sorted), so the plan is deterministic."""
    tables = sorted(counts)
    if len(tables) < 2:
        return None
    fullest = max(tables, key=lambda t: (counts[t], -tables.index(t)))
    open_ = [t for t in tables if t != fullest and free.get(t, 0) > 0]
    if not open_:
        return None
    emptiest = min(open_, key=lambda t: (counts[t], tables.index(t)))
    diff = counts[fullest] - counts[emptiest]
    if diff < gap:
        return None
    return fullest, emptiest, min(diff // 2, free[emptiest])


def next_after_big_blind(
    occupied: Sequence[int], big_blind: int | None, count: int, max_seats: int
) -> list[int]:
    """The ``count`` players after the big blind, clockwise (casino: « le ou les prochains
    joueurs après la grosse blind »); from seat 1 before any hand."""
    seats = set(occupied)
    start = big_blind if big_blind is not None else max_seats
    order = [s for k in range(1, max_seats + 1) if (s := (start - 1 + k) % max_seats + 1) in seats]
    order = [s for s in order if s != big_blind] + ([big_blind] if big_blind in seats else [])
    return order[:count]


def waits_for_the_button(seat: int, positions: Positions) -> bool:
    """A moved player placed between the small blind and the button is not dealt in until
    the button has passed him (casino balancing): dealt now, he would get the button or the
    small blind of a hand he owes nothing in."""
    return seat in (positions.button, positions.sb_slot)
