"""The table's dealer: a committed CSPRNG deck per hand, the player's cut, signed records.

A table that may run the board several times (fpc cash multi-bordes: 3 runs; a friends
table's run it twice: 2) gives the engine ``HandSetup.extra_boards=dealt.extra_boards(N)``:
the runs' slots are fixed by the number of players alone (:mod:`protocol.runs`), so any
hand can be run several times; :meth:`CsprngHand.fairness` opens the runs actually dealt."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, Protocol

from server.dealing import Deck, Signer, deal_layout, fairness_fields, hole_openings
from server.dealing.draw import DrawDeal, Drawn
from server.engine import HandSetup

__all__ = ["CsprngDealer", "CsprngHand", "Dealer", "DealtHand", "DrawHand"]


class DealtHand(Protocol):
    root: str
    """Merkle root of the deck commitments, published before the deal."""
    cutter: int
    """Seat of the player on the dealer's right, who cuts (cdc 5.2)."""

    def cut(self, position: int) -> None: ...

    def hole(self, seat: int) -> tuple[int, ...]: ...

    def board(self) -> tuple[int, ...]: ...

    def extra_boards(self, runs: int) -> tuple[tuple[int, ...], ...]: ...

    def fairness(
        self,
        board_count: int,
        shown: list[int],
        runs_dealt: int = 1,
        run_board_count: int = 0,
    ) -> dict[str, Any]: ...

    def hole_proof(self, seat: int) -> list[dict[str, Any]]: ...


class Dealer(Protocol):
    def new_hand(self, dealt_in: list[int], button: int, max_seats: int) -> DealtHand: ...

    def new_draw_hand(self, dealt_in: list[int], button: int, max_seats: int) -> DrawHand: ...

    def sign(self, record: dict[str, Any]) -> dict[str, Any]: ...


def _clockwise_after(button: int, seats: list[int], max_seats: int) -> list[int]:
    chosen = set(seats)
    return [s for k in range(1, max_seats + 1) if (s := (button - 1 + k) % max_seats + 1) in chosen]


class CsprngHand:
    def __init__(self, deck: Deck, order: list[int], cutter: int) -> None:
        self.deck = deck
        self.order = order
        """Seats dealt in, first left of the button (the button, if dealt in, is last)."""
        self.layout = deal_layout(len(order))
        self.root = deck.root_hex
        self.cutter = cutter

    def cut(self, position: int) -> None:
        self.deck.apply_cut(position)

    def hole(self, seat: int) -> tuple[int, int]:
        a, b = self.layout.hole[self.order.index(seat)]
        return self.deck.deal(a)[1], self.deck.deal(b)[1]

    def board(self) -> tuple[int, ...]:
        return tuple(self.deck.deal(slot)[1] for slot in self.layout.board)

    def extra_boards(self, runs: int) -> tuple[tuple[int, ...], ...]:
        """The five cards of each run after the first, for a hand that may be dealt in
        ``runs`` runs (``HandSetup.extra_boards``; empty for 1). Fresh cards, at the slots
        after run 1's river (fpc: « Les cartes des tirages précédents restent sur la
        table »). Raises ValueError for runs outside 1..3 or that do not fit the deck."""
        layout = deal_layout(len(self.order), runs=runs)
        return tuple(tuple(self.deck.deal(slot)[1] for slot in slots) for slots in layout.runs)

    def fairness(
        self,
        board_count: int,
        shown: list[int],
        runs_dealt: int = 1,
        run_board_count: int = 0,
    ) -> dict[str, Any]:
        """The fairness fields of the record: ``runs_dealt`` runs (``Hand.runs``) with
        ``run_board_count`` cards of each after the first (5: all-in preflop; 2: the flop
        stayed, ``Hand.runs_from`` is the turn; 0 for one run). Nothing undealt is opened
        (cdc 3.6): neither the runs not dealt nor the flops of runs from the flop."""
        layout = self.layout if runs_dealt == 1 else deal_layout(len(self.order), runs_dealt)
        return fairness_fields(
            deck=self.deck,
            layout=layout,
            order=self.order,
            board_dealt=board_count,
            shown=shown,
            runs_dealt=runs_dealt,
            run_board_dealt=run_board_count,
        )

    def hole_proof(self, seat: int) -> list[dict[str, Any]]:
        """Openings of this seat's own hole cards: for that player only."""
        openings = hole_openings(self.deck, self.layout, self.order.index(seat))
        return [o.to_json() for o in openings]


class DrawHand:
    """A five-card draw hand's committed deck as the table deals it: a
    :class:`~server.dealing.draw.DrawDeal` (the five cards each, the burn card, the stub, a
    new stub's committed order) under the table's :class:`DealtHand` life: published root
    and ``stub_commit`` before the cut, the cut, the engine's set-up, the record's fields."""

    def __init__(self, deal: DrawDeal, cutter: int) -> None:
        self.deal = deal
        self.root = deal.root_hex
        self.stub_commit = deal.stub_commit_hex
        """The commitment to a new stub's order: published with ``root``, before the cut."""
        self.cutter = cutter

    def cut(self, position: int) -> None:
        self.deal.cut(position)

    def hole(self, seat: int) -> tuple[int, ...]:
        return self.deal.hole(seat)

    def board(self) -> tuple[int, ...]:
        return ()  # five-card draw has no board

    def extra_boards(self, runs: int) -> tuple[tuple[int, ...], ...]:
        return ()  # one run: no board to run again

    def setup(self, **fields: Any) -> HandSetup:
        """The engine's set-up of the hand (``game=draw``): the table's ``fields``, the
        cards from the commitment. Players are the seats as strings, as at hold'em."""
        return self.deal.hand_setup({str(s): str(s) for s in self.deal.order}, **fields)

    def fairness(
        self,
        board_count: int,
        shown: list[int],
        runs_dealt: int = 1,
        run_board_count: int = 0,
        draws: list[Drawn] | None = None,
    ) -> dict[str, Any]:
        """The record's fairness fields (:meth:`DrawDeal.fairness`): ``draws`` in turn
        (:func:`server.dealing.draw.draws_of`), the seats shown; no board, one run."""
        return self.deal.fairness(draws or [], shown=shown)

    def hole_proof(self, seat: int) -> list[dict[str, Any]]:
        """Openings of this seat's own five cards: for that player only."""
        return self.deal.hole_proof(seat)

    def draw_proof(self, draws: list[Drawn], seat: int) -> list[dict[str, Any]]:
        """Openings of the cards ``seat`` received at the draw (none: he did not draw or
        stood pat): for that player only."""
        if not any(str(d.seat) == str(seat) and d.received for d in draws):
            return []
        return self.deal.draw_proof(draws, seat)


class CsprngDealer:
    """Fisher-Yates with ``secrets`` (injectable for tests), Ed25519-signed records."""

    def __init__(
        self,
        signer: Signer,
        randbelow: Callable[[int], int] = secrets.randbelow,
        token_bytes: Callable[[int], bytes] = secrets.token_bytes,
    ) -> None:
        self.signer = signer
        self.randbelow = randbelow
        self.token_bytes = token_bytes

    def new_hand(self, dealt_in: list[int], button: int, max_seats: int) -> CsprngHand:
        deck = Deck.shuffled(randbelow=self.randbelow, token_bytes=self.token_bytes)
        order = _clockwise_after(button, dealt_in, max_seats)
        # the player on the dealer's right: before the button, or before a dead button's seat
        cutter = order[-2] if order[-1] == button else order[-1]
        return CsprngHand(deck, order, cutter)

    def new_draw_hand(self, dealt_in: list[int], button: int, max_seats: int) -> DrawHand:
        """A five-card draw hand (fpc « LE FIVE-CARD DRAW »): a fresh deck and stub seed,
        the seats dealt in from the button's left; the same cutter as :meth:`new_hand`."""
        order = _clockwise_after(button, dealt_in, max_seats)
        deal = DrawDeal.shuffled(order, randbelow=self.randbelow, token_bytes=self.token_bytes)
        cutter = order[-2] if order[-1] == button else order[-1]
        return DrawHand(deal, cutter)

    def sign(self, record: dict[str, Any]) -> dict[str, Any]:
        return self.signer.sign_record(record)
