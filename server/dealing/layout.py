"""Which dealt slot is whose card in a hold'em hand (the count of cards dealt, burns included).

Hole cards go one at a time around the table starting left of the button, two rounds (the
button gets the last card, heads-up too); then burn, three flop cards, burn, turn, burn,
river. With ``n`` players: player ``i`` holds slots ``i`` and ``n + i``; burns are ``2n``,
``2n+4``, ``2n+6``; the board is ``2n+1..2n+3``, ``2n+5``, ``2n+7``. Slot ``k`` is dealt from
deck position ``(cut + k) % 52`` (:meth:`server.dealing.deck.Deck.position`).
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.verify import MAX_PLAYERS, board_slots, burn_slots, hole_slots

__all__ = ["MAX_PLAYERS", "DealLayout", "deal_layout"]


@dataclass(frozen=True, slots=True, kw_only=True)
class DealLayout:
    """The slots of one hold'em deal. Build it with :func:`deal_layout`."""

    players: int
    """Players dealt in."""
    hole: tuple[tuple[int, int], ...]
    """``hole[i]``: the two slots of the ``i``-th player left of the button."""
    burns: tuple[int, int, int]
    """Burn before the flop, the turn, the river. Dealt, never opened."""
    board: tuple[int, int, int, int, int]
    """Flop (three), turn, river."""

    @property
    def slots_used(self) -> int:
        """How many cards the deal takes from the deck, board and burns included."""
        return 2 * self.players + 8


def deal_layout(players: int) -> DealLayout:
    """The slots for ``players`` players dealt in (2..22).

    The construction is :mod:`protocol.verify`'s, the one every verifier applies.
    Raises ValueError for fewer than two or more than :data:`MAX_PLAYERS` players.
    """
    return DealLayout(
        players=players,
        hole=tuple(hole_slots(players)),
        burns=burn_slots(players),
        board=board_slots(players),
    )
