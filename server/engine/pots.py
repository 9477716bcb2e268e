"""The pots of a hand from the chips put in: main pot, side pots, the uncalled bet, the
chips no live player can win, and a pot divided among its winners.

Pure functions over explicit inputs (each player's chips put in, who folded, who is all-in,
the dead money); :class:`~server.engine.hand.Hand` calls them and keeps the results. A pot is
``(amount, eligible)``, the eligible players as the hand's indices in seat order.
"""

from __future__ import annotations

from collections.abc import Sequence

from .profile import SplitRemainder

__all__ = ["Layers", "layers", "split", "uncalled"]

Layers = list[tuple[int, list[int]]]
"""Pots as ``(amount, eligible players)``, the main pot first."""


def layers(
    contrib: Sequence[int],
    *,
    folded: Sequence[bool],
    allin: Sequence[bool],
    dead_money: int,
    view: bool = False,
) -> tuple[Layers, list[int]]:
    """The pots from the contributions, and the chips no live player can win by owner.

    One layer per all-in level, merged when the eligible players are the same (cdc 10.7,
    tda 20). Button/BB antes (``dead_money``) are dead money in the main pot (cdc 4.2: any
    all-in can win the whole ante). A live player who is not all-in can win every layer
    (folded chips are dead money); a layer that no live player can win goes back to those who
    put it in (cdc 4.2 ex. 2.1: the SB's surplus over a BB all-in for less). ``view``: while
    betting goes on, a bet not called (yet) is not a pot."""
    n = len(contrib)
    live = [i for i in range(n) if not folded[i]]
    unwinnable = [0] * n
    top = max(contrib)
    if top == 0 and not dead_money:
        return [], unwinnable
    # the common case: nobody all-in for less, one pot for the live players
    if all(contrib[i] == top for i in live) and (not view or sum(1 for c in contrib if c > 0) != 1):
        return [(sum(contrib) + dead_money, live)], unwinnable
    pots: Layers = []
    if dead_money:
        # cdc 4.2, 9.7: a button or BB ante is dead money that any live hand can win,
        # even one all-in for the ante alone
        pots.append((dead_money, live))
    _add_layers(pots, contrib, live=live, allin=allin, unwinnable=unwinnable, view=view)
    return pots, unwinnable


def _add_layers(
    pots: Layers,
    contrib: Sequence[int],
    *,
    live: list[int],
    allin: Sequence[bool],
    unwinnable: list[int],
    view: bool,
) -> None:
    """One layer per all-in level, added to ``pots``; the chips of a layer no live player
    can win added to ``unwinnable`` (see :func:`layers`)."""
    levels = sorted({c for c in contrib if c > 0})
    prev = 0
    for level in levels:
        amount = 0
        parts: list[tuple[int, int]] = []
        for i, c in enumerate(contrib):
            if c > prev:
                part = min(c, level) - prev
                amount += part
                parts.append((i, part))
        eligible = [i for i in live if contrib[i] >= level or not allin[i]]
        prev = level
        if view and len(parts) == 1 and parts[0][0] in live:
            continue  # a bet not called (yet) is not a pot; folded chips are dead money
        if not eligible:
            for i, part in parts:
                unwinnable[i] += part
            continue
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        else:
            pots.append((amount, eligible))


def uncalled(committed: Sequence[int], folded: Sequence[bool]) -> tuple[int, int] | None:
    """The bet of the round nobody called, as ``(player, chips)`` to return to him, or None.
    A folded player's chips stay in: they are dead money (a live player who is not all-in
    wins them; what no live player can win goes back through :func:`layers`)."""
    top = max(committed)
    if top == 0:
        return None
    holders = [i for i, c in enumerate(committed) if c == top]
    if len(holders) != 1:
        return None
    i = holders[0]
    if folded[i]:
        return None
    second = max((c for j, c in enumerate(committed) if j != i), default=0)
    excess = top - second
    if excess <= 0:
        return None
    return i, excess


def split(amount: int, k: int, unit: int, remainder: SplitRemainder) -> list[int]:
    """Split a pot among k winners (ordered from the button's left) in whole chips of the
    smallest denomination. The odd chips go one each to the winners nearest the button's
    left (tda 19, fpc 19-12, cdc 10.8), or, under casino/egalite, the whole remainder to the
    first of them (« celui-ci sera attribué au joueur en jeu placé le plus à gauche »)."""
    units, rest = divmod(amount, unit)
    base, extra = divmod(units, k)
    if remainder is SplitRemainder.FIRST:
        shares = [base * unit] * k
        shares[0] += extra * unit
    else:
        shares = [base * unit + (unit if n < extra else 0) for n in range(k)]
    shares[0] += rest
    return shares
