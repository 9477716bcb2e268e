"""Which dealt slot is whose card in a hold'em hand (the count of cards dealt, burns included).

Hole cards go one at a time around the table starting left of the button, two rounds (the
button gets the last card, heads-up too); then burn, three flop cards, burn, turn, burn,
river. With ``n`` players: player ``i`` holds slots ``i`` and ``n + i``; burns are ``2n``,
``2n+4``, ``2n+6``; the board is ``2n+1..2n+3``, ``2n+5``, ``2n+7``. Slot ``k`` is dealt from
deck position ``(cut + k) % 52`` (:meth:`server.dealing.deck.Deck.position`).

A table that may run the board several times (fpc cash multi-bordes: 3; run it twice: 2)
lays out, before the deal, eight more slots per run after the first, in the same shape
(burn, flop, burn, turn, burn, river; :mod:`protocol.runs`): they are dealt only if the hand
is run several times, and only the turn and river of each when the flop stays.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.runs import MAX_RUNS, RUN_SLOTS, run_board_slots, run_burn_slots
from protocol.verify import MAX_PLAYERS, board_slots, burn_slots, hole_slots

__all__ = ["MAX_PLAYERS", "MAX_RUNS", "DealLayout", "deal_layout"]


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
    runs: tuple[tuple[int, int, int, int, int], ...] = ()
    """The board slots of each run after the first (fpc multi-bordes, run it twice)."""
    run_burns: tuple[tuple[int, int, int], ...] = ()
    """Their burn slots. Dealt, never opened."""

    @property
    def slots_used(self) -> int:
        """How many cards the deal takes from the deck, board, runs and burns included."""
        return 2 * self.players + RUN_SLOTS * (1 + len(self.runs))


def deal_layout(players: int, runs: int = 1) -> DealLayout:
    """The slots for ``players`` players dealt in (2..22), with room for ``runs`` runs of
    the board (1..3; 3 runs fit 14 players at most).

    The construction is :mod:`protocol.verify`'s, the one every verifier applies.
    Raises ValueError for fewer than two or more than :data:`MAX_PLAYERS` players, or runs
    that do not fit the deck.
    """
    if not 1 <= runs <= MAX_RUNS:
        raise ValueError(f"runs must be 1..{MAX_RUNS}, not {runs}")
    return DealLayout(
        players=players,
        hole=tuple(hole_slots(players)),
        burns=burn_slots(players),
        board=board_slots(players),
        runs=tuple(run_board_slots(players, k) for k in range(2, runs + 1)),
        run_burns=tuple(run_burn_slots(players, k) for k in range(2, runs + 1)),
    )
