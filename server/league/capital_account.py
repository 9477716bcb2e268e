"""A member's season capital as an account with reservations (issue 26; pure: no I/O).

fpc cash: « Chaque adhérent se voit attribuer un capital de départ de 40 000 jetons lors de
son adhésion, qu'il lui appartient de gérer tout au long de la saison. Ses gains et ses pertes
feront évoluer son capital et ainsi donnera le classement général. L'adhérent ayant perdu la
totalité de son capital ne pourra plus participer aux sessions de Cash Game. », « Le joueur
ne peut en aucun cas engager une valeur de jetons supérieure à son capital. » and, for the
five-card draw, « Les caves sont spécifiques à chaque jeu »: one account per member and per
season, a season being one game's capital.

The account holds, per table of the season, a :class:`Stint`: what the member brought to it
and took from it in all (the table's ledger says so: the account copies those two totals, it
never adds moves up by itself, so copying them again after a crash is harmless), and his
stack there now (for the standings). And the :class:`Hold` of each buy-in, rebuy or top-up
asked for and not yet written in a table's ledger: a reservation, taken from the capital in
the same transaction that checks it, so that two tables asked at once cannot both spend it.

- what the member may still bring: ``start + Σ (taken − brought) − Σ holds``
  (:func:`available`; the chips on a table count as brought);
- his standing: ``start + Σ (taken − brought + stack)`` (:func:`standing`).

A hold ends in one of two ways, decided by :func:`settle`: **spent** once the table's ledger
has the purchase's line (the line names the hold; its amount is in ``brought`` from then on),
or **released** when the table refused or dropped the request. The stores apply a settlement
in one transaction (SQLite) or one script (Redis).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

__all__ = [
    "Hold",
    "Settlement",
    "Stint",
    "available",
    "refusal",
    "settle",
    "standing",
]


@dataclass(frozen=True, slots=True)
class Stint:
    """One member at one table of the season: chips brought and taken in all, and his stack
    there now (0 once he left)."""

    brought: int = 0
    taken: int = 0
    stack: int = 0


@dataclass(frozen=True, slots=True)
class Hold:
    """A reservation: ``amount`` of the capital set aside for a purchase at ``table``."""

    id: str
    table: str
    amount: int


def available(start: int, stints: Iterable[Stint], holds: Iterable[Hold]) -> int:
    """What the member may still bring to a table (0 or less: his capital is lost, or set
    aside for purchases waiting)."""
    return start + sum(s.taken - s.brought for s in stints) - sum(h.amount for h in holds)


def standing(start: int, stints: Iterable[Stint]) -> int:
    """The member's capital for the general standings: the chips on the tables count."""
    return start + sum(s.taken - s.brought + s.stack for s in stints)


def refusal(amount: int, free: int) -> str | None:
    """Why ``amount`` may not be reserved from ``free`` (the words of a table's refusal,
    ``cash.capital``), or None."""
    if amount <= free:
        return None
    if free <= 0:
        # fpc cash: « L'adhérent ayant perdu la totalité de son capital ne pourra plus
        # participer aux sessions de Cash Game »
        return "your capital is lost: no more cash play this season"
    return f"your capital allows {free}"


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a table's state makes of the holds asked for there."""

    spent: tuple[str, ...]
    """Holds whose purchase the ledger has written."""
    released: tuple[str, ...]
    """Holds whose request the table refused or no longer has."""


def settle(
    holds: Iterable[Hold],
    recorded: Callable[[str], bool],
    waiting: Callable[[str], bool],
) -> Settlement:
    """``recorded(hold)``: the table's ledger has the purchase; ``waiting(hold)``: its
    request is still before the table (queued, or asked of the host). A hold neither
    recorded nor waiting was refused: released."""
    spent: list[str] = []
    released: list[str] = []
    for hold in holds:
        if recorded(hold.id):
            spent.append(hold.id)
        elif not waiting(hold.id):
            released.append(hold.id)
    return Settlement(tuple(spent), tuple(released))


def stints_of(rows: Mapping[str, tuple[int, int, int]]) -> dict[str, Stint]:
    """Stints from stored ``table -> (brought, taken, stack)`` rows."""
    return {table: Stint(*values) for table, values in rows.items()}
