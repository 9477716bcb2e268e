"""The fpc season capital and the cash session's result sheet.

fpc cash: « Chaque adhérent se voit attribuer un capital de départ de 40 000 jetons lors de
son adhésion, qu'il lui appartient de gérer tout au long de la saison. Ses gains et ses pertes
feront évoluer son capital et ainsi donnera le classement général. L'adhérent ayant perdu la
totalité de son capital ne pourra plus participer aux sessions de Cash Game. » A buy-in moves
chips from the capital to the table, a cash-out moves the whole stack back: at any moment a
member's capital is his balance plus what he has at a table, and the standings rank the
balances (a member at a table counts what he bought in as still his until he cashes out).

The result sheet (« feuille de marque »): « Si le montant des jetons rendus est inférieur au
montant des jetons pris, la différence sera perdue. Si le montant des jetons rendus est
supérieur au montant pris, la différence sera divisée par le nombre de joueurs ayant rendu des
jetons et soustrait des montants rendus. » Read over the whole session (a counting error at a
live table): :func:`settle`. Online every chip is counted by the server, so the sheet always
balances; the rule is applied anyway and any difference is reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["Capital", "Settlement", "settle"]


@dataclass(slots=True)
class Capital:
    start: int = 40_000
    """fpc cash (Hold'em): 40,000 (the Five-Card Draw's is 50,000)."""
    balances: dict[str, int] = field(default_factory=dict)

    def balance(self, player: str) -> int:
        return self.balances.get(player, self.start)

    def available(self, player: str) -> int:
        """What ``player`` may still bring to a table (« ne peut en aucun cas engager une
        valeur de jetons supérieure à son capital »): 0 once it is lost."""
        return max(0, self.balance(player))

    def barred(self, player: str) -> bool:
        return self.available(player) == 0

    def take(self, player: str, amount: int, check: bool = True) -> None:
        """``amount`` goes to a table. ``check``: refused beyond the capital (a buy-in);
        chips moved from another table of the room were taken there already."""
        if check and amount > self.available(player):
            raise ValueError(f"{player} has {self.available(player)} of capital, not {amount}")
        self.balances[player] = self.balance(player) - amount

    def give(self, player: str, amount: int) -> None:
        self.balances[player] = self.balance(player) + amount

    def standings(self) -> list[tuple[str, int]]:
        """Members by capital, best first (the cash game's general standings)."""
        return sorted(self.balances.items(), key=lambda kv: (-kv[1], kv[0]))


@dataclass(frozen=True, slots=True, kw_only=True)
class Settlement:
    results: dict[str, int]
    """Each player's result: returned (after the sheet's correction) minus taken."""
    lost: int
    """Chips missing from what was returned: « la différence sera perdue »."""
    surplus: int
    """Chips returned beyond what was taken, taken back from those who returned chips."""


def settle(taken: Mapping[str, int], returned: Mapping[str, int]) -> Settlement:
    """The session's result sheet. ``taken``: each player's buy-ins; ``returned``: what he
    handed back (0 for a player who lost everything; a player missing from ``returned`` did
    not write his result and « sera considéré comme perdant de la totalité de sa cave de
    départ »). A surplus is divided equally among the players who returned chips and taken
    from their returns (the odd chips from the first of them in name order)."""
    back = {p: returned.get(p, 0) for p in taken}
    total_taken, total_back = sum(taken.values()), sum(back.values())
    surplus = max(0, total_back - total_taken)
    if surplus:
        givers = sorted(p for p, amount in back.items() if amount > 0)
        share, odd = divmod(surplus, len(givers))
        for k, p in enumerate(givers):
            back[p] -= share + (1 if k < odd else 0)
    return Settlement(
        results={p: back[p] - taken[p] for p in taken},
        lost=max(0, total_taken - total_back),
        surplus=surplus,
    )
