"""A shuffled deck committed card by card, cut by a player, opened position by position.

Each deck position ``p`` gets a fresh 16-byte salt and the leaf
``SHA-256(b"brasseur-card\\x00" || bytes([p, card]) || salt)``; a Merkle tree over the 52
leaves (pairs hashed as ``SHA-256(0x01 || left || right)``, an odd last node promoted
unchanged) gives the root published before the deal. The exact construction lives in
:mod:`protocol.verify` and docs/fairness.md. Because every position is committed separately,
opening the dealt positions reveals nothing about the others (no rabbit hunting, cdc 3.6).

Life of a deck: :meth:`Deck.shuffled` -> publish :attr:`Deck.root_hex` -> :meth:`Deck.apply_cut`
(the player on the dealer's right, cdc 5.2) or :meth:`Deck.apply_random_cut` (timeout) ->
:meth:`Deck.deal` slot by slot -> :meth:`Deck.opening` of the positions that may be shown.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from protocol.verify import (
    DECK_SIZE,
    SALT_BYTES,
    Side,
    deck_position,
    leaf_hash,
    node_hash,
)
from server.engine.cards import card_name

from .shuffle import RandBelow, TokenBytes, shuffled_deck

__all__ = ["DealingError", "Deck", "Opening", "merkle_levels", "merkle_proof"]


class DealingError(RuntimeError):
    """The deck was used out of order (a server bug): cut twice, or dealt before the cut."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Opening:
    """What proves that ``card`` was committed at deck ``position`` under the root."""

    position: int
    card: int
    salt_hex: str
    proof: tuple[tuple[Side, str], ...]
    """Bottom-up ``(side of the sibling, sibling hash hex)``."""

    def to_json(self) -> dict[str, object]:
        """The record form: ``{"position", "card": "As", "salt", "proof": [[side, hex]]}``."""
        return {
            "position": self.position,
            "card": card_name(self.card),
            "salt": self.salt_hex,
            "proof": [[str(side), sibling] for side, sibling in self.proof],
        }


def merkle_levels(leaves: Sequence[bytes]) -> list[list[bytes]]:
    """Every level of the tree, leaves first, root last (odd last node promoted)."""
    if not leaves:
        raise ValueError("a tree needs at least one leaf")
    levels = [list(leaves)]
    while len(levels[-1]) > 1:
        below = levels[-1]
        level = [node_hash(below[i], below[i + 1]) for i in range(0, len(below) - 1, 2)]
        if len(below) % 2:
            level.append(below[-1])
        levels.append(level)
    return levels


def merkle_proof(levels: Sequence[Sequence[bytes]], index: int) -> list[tuple[Side, bytes]]:
    """The proof of leaf ``index``: bottom-up siblings, none where the node is promoted."""
    proof: list[tuple[Side, bytes]] = []
    for level in levels[:-1]:
        if index % 2 == 1:
            proof.append((Side.LEFT, level[index - 1]))
        elif index + 1 < len(level):
            proof.append((Side.RIGHT, level[index + 1]))
        index //= 2
    return proof


class Deck:
    """52 cards in committed order; ``order[p]`` is the card at position ``p``.

    The order and salts are secret until opened: ``repr`` shows only the root and the cut.
    """

    __slots__ = ("_cut", "_levels", "_order", "_salts")

    def __init__(self, *, order: Sequence[int], salts: Sequence[bytes]) -> None:
        """Commit to ``order`` (a permutation of 0..51) with one 16-byte salt per position.

        Raises ValueError otherwise.
        """
        if sorted(order) != list(range(DECK_SIZE)):
            raise ValueError("a deck is a permutation of the cards 0..51")
        if len(salts) != DECK_SIZE or any(len(s) != SALT_BYTES for s in salts):
            raise ValueError(f"a deck needs {DECK_SIZE} salts of {SALT_BYTES} bytes")
        self._order = tuple(order)
        self._salts = tuple(bytes(s) for s in salts)
        leaves = [leaf_hash(p, c, s) for p, (c, s) in enumerate(zip(order, salts, strict=True))]
        self._levels = merkle_levels(leaves)
        self._cut: int | None = None

    @classmethod
    def shuffled(
        cls,
        *,
        randbelow: RandBelow = secrets.randbelow,
        token_bytes: TokenBytes = secrets.token_bytes,
    ) -> Deck:
        """A freshly shuffled, freshly salted deck (CSPRNG by default; inject for tests)."""
        order = shuffled_deck(randbelow=randbelow)
        return cls(order=order, salts=[token_bytes(SALT_BYTES) for _ in range(DECK_SIZE)])

    def __repr__(self) -> str:
        return f"Deck(root={self.root_hex}, cut={self._cut})"

    @property
    def root(self) -> bytes:
        """The Merkle root: the commitment to publish before the deal."""
        return self._levels[-1][0]

    @property
    def root_hex(self) -> str:
        return self.root.hex()

    @property
    def cut(self) -> int | None:
        """The cut in 0..51 once applied, else None."""
        return self._cut

    def apply_cut(self, cut: int) -> int:
        """Cut the committed deck (cdc 5.2): slot ``k`` now deals position ``(cut + k) % 52``.

        Any integer is accepted (the cutter's choice, or a client-picked number) and reduced
        mod 52; the reduced cut is returned. Raises TypeError for a non-integer (bools too)
        and :class:`DealingError` if the deck was already cut.
        """
        if not isinstance(cut, int) or isinstance(cut, bool):
            raise TypeError(f"a cut is an integer, not {cut!r}")
        if self._cut is not None:
            raise DealingError("the deck is already cut")
        self._cut = cut % DECK_SIZE
        return self._cut

    def apply_random_cut(self, *, randbelow: RandBelow = secrets.randbelow) -> int:
        """Cut at a random point: what the server does when the cutter does not answer."""
        return self.apply_cut(randbelow(DECK_SIZE))

    def position(self, slot: int) -> int:
        """The deck position dealt at ``slot`` (0-based). Raises as :meth:`deal`."""
        if self._cut is None:
            raise DealingError("deal only after the cut")
        if not 0 <= slot < DECK_SIZE:
            raise ValueError(f"slot {slot} outside 0..51")
        return deck_position(self._cut, slot)

    def deal(self, slot: int) -> tuple[int, int]:
        """``(position, card)`` of the ``slot``-th card dealt (0-based, burns included).

        Raises :class:`DealingError` before the cut and ValueError for a slot outside 0..51.
        """
        position = self.position(slot)
        return position, self._order[position]

    def opening(self, positions: Iterable[int]) -> list[Opening]:
        """The openings of ``positions``, in the order given.

        Open only what the table has seen: board cards dealt face up, hands shown, or (in
        private, to their owner) a player's own hole cards. Never undealt, burnt or mucked
        positions (cdc 3.6). Raises ValueError for a position outside 0..51 or given twice.
        """
        wanted = list(positions)
        if len(set(wanted)) != len(wanted):
            raise ValueError("a position is given twice")
        result = []
        for p in wanted:
            if not 0 <= p < DECK_SIZE:
                raise ValueError(f"position {p} outside 0..51")
            proof = merkle_proof(self._levels, p)
            result.append(
                Opening(
                    position=p,
                    card=self._order[p],
                    salt_hex=self._salts[p].hex(),
                    proof=tuple((side, sibling.hex()) for side, sibling in proof),
                )
            )
        return result
