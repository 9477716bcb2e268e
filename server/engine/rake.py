"""The rake of a cash game ("la taille"): the chips the house retains from each pot.

casino cash: « La taille sera retenue sur le montant du « pot principal » et celui des
« pots extérieurs » de chaque donne et ce même en cas d'égalité parfaite et lorsque le pot ne
contient que les blinds. » Every pot of the hand (main pot and side pots) is raked, before it
is split among its winners (a tie does not escape the rake) and also when it holds only the
blinds (everyone folded to the big blind). Uncalled chips returned to their owner and chips
no live player can win go back to their owner: they are not a pot, and are never raked.

Design (integers only):

- ``permille``: the share of each pot retained, in thousandths (50 = 5 %), so no float;
- ``cap``: the most retained from one HAND, all its pots together (0: no cap). A per-hand
  cap is what a card-room posts ("5 %, 15 max"), and it keeps the house's take from growing
  with the number of side pots the all-ins happen to make (with a per-pot cap, a hand with
  three all-ins could pay four caps). The pots are raked main pot first, then each side pot
  in order (:func:`pot_rakes`: as a dealer drops the rake while the pot builds, the main pot
  being the first built), each taking what the cap leaves (``already``: taken so far);
- each pot's rake is rounded DOWN to a whole number of the smallest chip in play (the house
  takes chips, it makes no change): it never exceeds ``permille`` of the pot.

A table without rake (friends tables, tournaments) gives ``HandSetup.rake = None`` or a
``Rake(permille=0)``: both retain nothing. :func:`raked` is the one computation; whoever
splits a pot (among tied winners, or among several runs of the board) calls it once per pot,
before splitting.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import SetupError

__all__ = ["Rake", "pot_rakes", "raked"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Rake:
    """The house's share of each pot (casino cash, « la taille »)."""

    permille: int
    """Thousandths of each pot retained (0..1000): 50 is 5 %."""
    cap: int = 0
    """The most retained from one hand, every pot together; 0: no cap."""

    def validate(self) -> None:
        """Raise :class:`SetupError` for a share outside 0..1000 or a negative cap."""
        if not 0 <= self.permille <= 1000:
            raise SetupError("rake permille must be between 0 and 1000")
        if self.cap < 0:
            raise SetupError("rake cap must not be negative")


def raked(amount: int, rake: Rake | None, unit: int, already: int = 0) -> int:
    """The chips retained from one pot of ``amount`` chips.

    ``permille`` of the pot, rounded down to a multiple of ``unit`` (the smallest chip in
    play, ``Hand.denominations[0]``), and no more than what the per-hand cap leaves once
    ``already`` chips were retained from this hand's other pots. 0 without a rake, for an
    empty pot, or once the cap is reached. Never more than ``amount``, never negative.
    """
    if rake is None or rake.permille <= 0 or amount <= 0 or unit <= 0:
        return 0
    take = amount * rake.permille // 1000
    if rake.cap > 0:
        take = min(take, rake.cap - already)
    if take <= 0:
        return 0
    return min(take - take % unit, amount)


def pot_rakes(amounts: list[int], rake: Rake | None, unit: int) -> list[int]:
    """The chips retained from each pot of a hand (``amounts``: main pot first, then the side
    pots in order), the main pot first under the per-hand cap. Same length as ``amounts``."""
    takes: list[int] = []
    already = 0
    for amount in amounts:
        take = raked(amount, rake, unit, already)
        already += take
        takes.append(take)
    return takes
