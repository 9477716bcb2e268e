"""The draw of five-card draw high (fpc « LE FIVE-CARD DRAW »): who draws, the stub, the
discards, and a new stub when it runs out.

:class:`DrawRound` owns that state alone; :class:`~server.engine.hand.Hand` calls it through
:meth:`DrawRound.open` (the first betting round is over: these players draw, in this order),
:attr:`DrawRound.drawer`, :meth:`DrawRound.verify` (raises, changes nothing) and
:meth:`DrawRound.deal` (the player's new cards). Pure: the stub, the burn card and the order of
a new stub all come from the :class:`~server.engine.setup.HandSetup`.

The rules the fpc book leaves to its missing leaflet (« Une plaquette "Principe du jeu – Règles
de base – Combinaisons" »), decided by the project (docs/rules-matrix.md, fpc five-card draw):

Order
    Every player still in the hand draws, all-in players included, in turn from the first one
    left of the button; each player's replacement cards are dealt in one go, from the top of
    the stub, before the next player discards.
Discards
    0 (standing pat) to ``max_discard`` cards (5 by default, as online rooms allow), distinct
    cards that he holds.
Burn card
    One card is burnt before the draw (``HandSetup.burn``), as at a live draw table and as
    Brasseur's hold'em deals burn cards before each street; None: no burn card.
The stub running out
    When the stub holds fewer cards than the player in turn discards, what is left of it, the
    burn card and the cards discarded by the players who drew before him (never his own) are
    gathered into a new stub (PokerStars, "Reshuffling the Deck": « the remaining cards in the
    original stub and all of the cards discarded by players previously ... are shuffled
    together to make a new stub. ... the active player's discards are not used in the
    reshuffle »; the usual live rule adds the burn card). The engine draws no random
    number: the new stub is those cards in the order they take in ``HandSetup.reshuffle``
    (a permutation of the deck the dealing layer commits to). Nine players at most (52 - 45 =
    7 cards always cover a draw of five), so a draw never finds too few cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import ErrorCode, RuleError

__all__ = ["RULE_DRAW", "RULE_STUB", "DrawRound", "Drawn"]

RULE_DRAW = "fpc-five-card-draw"
"""The citation of the draw (fpc « LE FIVE-CARD DRAW »; its details are project choices)."""
RULE_STUB = "project-choice-stub-reshuffle"
"""The citation of a new stub formed when the stub runs out (a project choice)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Drawn:
    """What one player's draw did: his five cards now, the cards he received (in the place of
    those he discarded, in order) and how many cards formed a new stub first (0: none)."""

    cards: tuple[int, ...]
    received: tuple[int, ...]
    reshuffled: int


@dataclass(slots=True)
class DrawRound:
    """The draw of one hand (see the module docstring). Players are the hand's indices."""

    stub: list[int]
    """The cards still to deal, top first."""
    burn: int | None
    """The burnt card, until it goes into a new stub."""
    rank: dict[int, int]
    """Card -> its place in the committed order of a new stub."""
    max_discard: int
    order: list[int] = field(default_factory=list)
    """The players who draw, in turn."""
    drawn: int = 0
    """How many of them have drawn."""
    discards: list[int] = field(default_factory=list)
    """Cards discarded by the players who have drawn, not yet gathered into a new stub."""
    reshuffles: int = 0

    @classmethod
    def from_setup(
        cls, stub: Sequence[int], burn: int | None, reshuffle: Sequence[int], max_discard: int
    ) -> DrawRound:
        rank = {card: k for k, card in enumerate(reshuffle)} if reshuffle else {}
        return cls(stub=list(stub), burn=burn, rank=rank, max_discard=max_discard)

    # ------------------------------------------------------------------ queries

    @property
    def drawer(self) -> int:
        """The player whose turn it is to draw, or -1 (not open, or everyone has drawn)."""
        return self.order[self.drawn] if self.drawn < len(self.order) else -1

    @property
    def complete(self) -> bool:
        return bool(self.order) and self.drawn == len(self.order)

    # ------------------------------------------------------------------ commands

    def open(self, order: Sequence[int]) -> None:
        """The first betting round is over: ``order`` draws, in turn."""
        self.order = list(order)
        self.drawn = 0

    def verify(self, player: int, held: tuple[int, ...], discard: tuple[int, ...]) -> None:
        """Raise :class:`RuleError` if ``player`` may not discard ``discard`` from ``held``
        now; changes nothing."""
        if player != self.drawer:
            raise RuleError(ErrorCode.NOT_YOUR_DRAW, "not this player's turn to draw", RULE_DRAW)
        if not isinstance(discard, tuple) or any(
            not isinstance(c, int) or isinstance(c, bool) or c not in held for c in discard
        ):
            raise RuleError(
                ErrorCode.CARD_NOT_HELD, "a discarded card is not in the player's hand", RULE_DRAW
            )
        if len(set(discard)) != len(discard):
            raise RuleError(ErrorCode.SAME_CARD_TWICE, "the same card discarded twice", RULE_DRAW)
        if len(discard) > self.max_discard:
            raise RuleError(
                ErrorCode.TOO_MANY_DISCARDS,
                f"at most {self.max_discard} cards may be discarded",
                "project-choice-max-discard",
            )

    def deal(self, player: int, held: tuple[int, ...], discard: tuple[int, ...]) -> Drawn:
        """``player`` discards ``discard`` (checked by :meth:`verify`) and is dealt as many
        cards, each in the place of a discarded one."""
        count = len(discard)
        reshuffled = 0
        if count > len(self.stub):
            reshuffled = self._new_stub()
        received = tuple(self.stub[:count])
        del self.stub[:count]
        replacement = dict(zip(discard, received, strict=True))
        cards = tuple(replacement.get(c, c) for c in held)
        self.discards.extend(discard)
        self.drawn += 1
        return Drawn(cards=cards, received=received, reshuffled=reshuffled)

    def _new_stub(self) -> int:
        """What is left of the stub, the burn card and the earlier players' discards become
        the new stub, in the committed order (see the module docstring). Returns its size."""
        gathered = [*self.stub, *(() if self.burn is None else (self.burn,)), *self.discards]
        rank = self.rank
        gathered.sort(key=(lambda c: rank[c]) if rank else None)
        self.stub = gathered
        self.burn = None
        self.discards = []
        self.reshuffles += 1
        return len(gathered)
