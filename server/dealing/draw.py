"""Fair dealing of a five-card draw hand (fpc « LE FIVE-CARD DRAW »): the five cards each, the
burn card, the replacement cards and a new stub, all from one committed, cut deck.

The construction is :mod:`protocol.draw`'s (the slots, the committed order of a new stub, the
record's fields), the one ``python -m protocol.verify`` applies. What the table layer calls,
per draw hand (the same life as hold'em's :mod:`server.dealing` deck)::

    dealt = DrawDeal.shuffled(order)        # order: the seats dealt in, first left of the button
    # hand start: publish dealt.root_hex AND dealt.stub_commit_hex (both before the cut)
    dealt.cut(n)                            # the cutter's number (or dealt.random_cut())
    setup = dealt.hand_setup(names, profile=..., blinds=..., seats=..., button=...,
                             structure=..., max_discard=...)   # a HandSetup(game=draw)
    hand = Hand(setup)                      # server.engine: it deals the draw from setup.stub
    ...                                     # private, to that seat only: dealt.hole_proof(seat)
    ...                                     # and dealt.draw_proof(draws, seat) after his draw
    fields = dealt.fairness(draws_of(hand.events, seat_of), shown=[seats shown])
    record = signer.sign_record({...the table's fields..., **fields})

The engine deals the replacement cards from ``HandSetup.stub`` (the committed order from slot
``5n + 1``) in the order the players draw, and forms a new stub in the order of
``HandSetup.reshuffle``, which :meth:`DrawDeal.hand_setup` fills from the committed seed:
:meth:`DrawDeal.fairness` checks that the engine dealt exactly the cards the commitment says
(:class:`DealingError` otherwise: a server bug) before anything is signed.

What the record opens is hold'em's policy (docs/fairness.md): only the cards shown at the
showdown (or face up at an all-in), never the discards, the burn card, the stub or a hand not
shown; the ``stub_seed`` is revealed, an order of deck positions that shows no card.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from protocol.draw import (
    DRAW_GAME,
    SEED_BYTES,
    draw_burn_slot,
    draw_hole_slots,
    draw_stub_slots,
    replacement_positions,
    stub_commitment,
    stub_ranks,
)
from protocol.verify import DECK_SIZE, RECORD_FORMAT
from server.engine import Game, HandSetup, card_name
from server.engine.events import DrawDealt, Event

from .deck import DealingError, Deck
from .shuffle import RandBelow, TokenBytes

__all__ = ["DrawDeal", "DrawLayout", "Drawn", "draw_layout", "draws_of"]


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawLayout:
    """The slots of one draw deal. Build it with :func:`draw_layout`."""

    players: int
    hole: tuple[tuple[int, ...], ...]
    """``hole[i]``: the five slots of the ``i``-th player left of the button."""
    burn: int
    """The card burnt before the draw. Dealt, never opened."""
    stub: tuple[int, ...]
    """The stub, top first: the replacement cards, in the order the players draw."""


def draw_layout(players: int) -> DrawLayout:
    """The slots of a draw deal for ``players`` (2..9) dealt in. Raises ValueError outside."""
    return DrawLayout(
        players=players,
        hole=tuple(draw_hole_slots(players)),
        burn=draw_burn_slot(players),
        stub=tuple(draw_stub_slots(players)),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Drawn:
    """One player's draw as the table hands it to :meth:`DrawDeal.fairness`: his seat, the
    cards he discarded and those the engine dealt him (``DrawDealt``), in turn."""

    seat: int | str
    discarded: tuple[int, ...]
    received: tuple[int, ...]


def draws_of(events: Iterable[Event], seat_of: Mapping[str, int | str]) -> list[Drawn]:
    """The draws of a hand, in turn, from the engine's events (``DrawDealt``, private);
    ``seat_of`` maps a player's name to his seat."""
    return [
        Drawn(seat=seat_of[e.player], discarded=e.discarded, received=e.received)
        for e in events
        if isinstance(e, DrawDealt)
    ]


class DrawDeal:
    """One draw hand's deck: the committed deck, the committed seed of a new stub's order,
    the seats dealt in. Secret until opened: ``repr`` shows only the commitments."""

    __slots__ = ("_seed", "deck", "layout", "order")

    def __init__(self, deck: Deck, order: Sequence[int | str], seed: bytes) -> None:
        """``order``: the seats dealt in, first left of the button (the button, if dealt in,
        last); ``seed``: 32 random bytes (the order of a new stub). Raises ValueError for
        a seat given twice, a number of players outside 2..9 or a seed of another size."""
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a stub seed is {SEED_BYTES} bytes")
        seats = [str(s) for s in order]
        if len(set(seats)) != len(seats):
            raise ValueError("a seat is dealt in twice")
        self.deck = deck
        self.order = list(order)
        self.layout = draw_layout(len(seats))
        self._seed = bytes(seed)

    @classmethod
    def shuffled(
        cls,
        order: Sequence[int | str],
        *,
        randbelow: RandBelow = secrets.randbelow,
        token_bytes: TokenBytes = secrets.token_bytes,
    ) -> DrawDeal:
        """A fresh deck (:meth:`Deck.shuffled`) and seed (CSPRNG by default; inject for tests)."""
        deck = Deck.shuffled(randbelow=randbelow, token_bytes=token_bytes)
        return cls(deck, order, token_bytes(SEED_BYTES))

    def __repr__(self) -> str:
        return f"DrawDeal(root={self.root_hex}, stub_commit={self.stub_commit_hex})"

    # ------------------------------------------------------------------ commitments

    @property
    def root_hex(self) -> str:
        """The deck's Merkle root: publish it at hand start, before the cut."""
        return self.deck.root_hex

    @property
    def stub_commit_hex(self) -> str:
        """The commitment to a new stub's order: publish it with the root, before the cut."""
        return stub_commitment(self._seed).hex()

    def cut(self, cut: int) -> int:
        """Cut the deck (cdc 5.2, as hold'em's :meth:`Deck.apply_cut`); the reduced cut."""
        return self.deck.apply_cut(cut)

    def random_cut(self, *, randbelow: RandBelow = secrets.randbelow) -> int:
        """Cut at a random point: when the cutter does not answer."""
        return self.deck.apply_random_cut(randbelow=randbelow)

    # ------------------------------------------------------------------ the cards

    def _index(self, seat: int | str) -> int:
        return [str(s) for s in self.order].index(str(seat))

    def hole(self, seat: int | str) -> tuple[int, ...]:
        """The five cards of ``seat``, in the order dealt. Raises ValueError for a seat not
        dealt in and :class:`DealingError` before the cut."""
        return tuple(self.deck.deal(slot)[1] for slot in self.layout.hole[self._index(seat)])

    def burn(self) -> int:
        """The card burnt before the draw."""
        return self.deck.deal(self.layout.burn)[1]

    def stub(self) -> tuple[int, ...]:
        """The stub, top first (``HandSetup.stub``)."""
        return tuple(self.deck.deal(slot)[1] for slot in self.layout.stub)

    def reshuffle(self) -> tuple[int, ...]:
        """A new stub's order as the engine takes it (``HandSetup.reshuffle``): the 52 cards
        in the committed order of their deck positions (:func:`protocol.draw.stub_ranks`)."""
        if self.deck.cut is None:
            raise DealingError("deal only after the cut")
        ranks = stub_ranks(self._seed)
        positions = sorted(range(DECK_SIZE), key=ranks.__getitem__)
        cut = self.deck.cut
        return tuple(self.deck.deal((p - cut) % DECK_SIZE)[1] for p in positions)

    def hand_setup(self, names: Mapping[int, str] | Mapping[str, str], **fields: Any) -> HandSetup:
        """The engine's :class:`HandSetup` of this draw hand: ``game=draw``, each player's
        five cards (``names``: seat -> player name, every seat dealt in), no board, the burn
        card, the stub and a new stub's order from the commitment; ``fields`` are the
        table's (``profile``, ``blinds``, ``seats``, ``button``, ``structure``,
        ``max_discard``, ``rake``...). Raises :class:`DealingError` before the cut,
        ValueError if ``fields`` sets a card field or ``names`` misses a seat."""
        if clash := {"game", "hole", "board", "stub", "burn", "reshuffle"} & set(fields):
            raise ValueError(f"the deal sets {sorted(clash)}")
        by_seat = {str(seat): name for seat, name in names.items()}
        if set(by_seat) != {str(s) for s in self.order}:
            raise ValueError("names must name every seat dealt in")
        return HandSetup(
            game=Game.DRAW,
            hole={by_seat[str(seat)]: self.hole(seat) for seat in self.order},
            board=(),
            stub=self.stub(),
            burn=self.burn(),
            reshuffle=self.reshuffle(),
            **fields,
        )

    # ------------------------------------------------------------------ openings

    def hole_proof(self, seat: int | str) -> list[dict[str, Any]]:
        """Openings of ``seat``'s own five cards: for that player only."""
        cut = self.deck.position(0)  # raises before the cut
        slots = self.layout.hole[self._index(seat)]
        return [o.to_json() for o in self.deck.opening((cut + s) % DECK_SIZE for s in slots)]

    def draw_proof(self, draws: Sequence[Drawn], seat: int | str) -> list[dict[str, Any]]:
        """Openings of the cards ``seat`` was dealt at the draw, for that player only;
        ``draws``: the draws so far, in turn (:func:`draws_of`), his included (a card of a
        new stub is opened at the position it was committed at). Raises ValueError if
        ``seat`` has not drawn, :class:`DealingError` as :meth:`fairness`."""
        k = [str(d.seat) for d in draws].index(str(seat))
        _, received = self._replacements(draws[: k + 1])
        return [o.to_json() for o in self.deck.opening(received[k])]

    def _position_of(self) -> dict[int, int]:
        cut = self.deck.position(0)
        return {self.deck.deal(k)[1]: (cut + k) % DECK_SIZE for k in range(DECK_SIZE)}

    def _replacements(self, draws: Sequence[Drawn]) -> tuple[list[list[int]], list[list[int]]]:
        """The discarded and received positions of each draw, checked against the engine's
        cards. Raises :class:`DealingError` if the engine dealt other cards (a server bug)."""
        if self.deck.cut is None:
            raise DealingError("deal only after the cut")
        position = self._position_of()
        discarded = [[position[c] for c in d.discarded] for d in draws]
        received, _ = replacement_positions(
            len(self.order), cut=self.deck.cut, seed=self._seed, discards=discarded
        )
        for d, positions in zip(draws, received, strict=True):
            dealt = tuple(self.deck.deal((p - self.deck.cut) % DECK_SIZE)[1] for p in positions)
            if dealt != tuple(d.received):
                raise DealingError(f"seat {d.seat} was dealt cards the commitment does not deal")
        return discarded, received

    def fairness(self, draws: Sequence[Drawn], shown: Iterable[int | str] = ()) -> dict[str, Any]:
        """The record's fairness fields of this draw hand (:mod:`protocol.draw`): the
        draws in turn (:func:`draws_of`), the seats whose five cards were shown (showdown,
        or face up at an all-in after the draw); opens those cards only. Raises ValueError
        for a seat not dealt in, :class:`DealingError` before the cut or if the engine's
        cards differ from the commitment's."""
        seats = [str(s) for s in self.order]
        cut = self.deck.position(0)
        discarded, received = self._replacements(draws)
        final = {
            seat: [(cut + slot) % DECK_SIZE for slot in self.layout.hole[i]]
            for i, seat in enumerate(seats)
        }
        entries = []
        for d, gone, new in zip(draws, discarded, received, strict=True):
            seat = str(d.seat)
            if seat not in final:
                raise ValueError(f"seat {seat} was not dealt in")
            for old, fresh in zip(gone, new, strict=True):
                final[seat][final[seat].index(old)] = fresh
            entries.append(
                {
                    "seat": seat,
                    "discarded": [(p - cut) % DECK_SIZE for p in gone],
                    "received": [(p - cut) % DECK_SIZE for p in new],
                }
            )
        shown_seats = sorted({str(s) for s in shown}, key=lambda s: (s not in final, s))
        if unknown := [s for s in shown_seats if s not in final]:
            raise ValueError(f"seats {unknown} were not dealt in")
        shown_seats.sort(key=seats.index)
        positions = [p for seat in shown_seats for p in final[seat]]
        openings = sorted(self.deck.opening(positions), key=lambda o: o.position)
        card_at = {o.position: o.card for o in openings}
        return {
            "format": RECORD_FORMAT,
            "game": DRAW_GAME,
            "root": self.deck.root_hex,
            "cut": cut,
            "players_dealt": len(seats),
            "deal_order": seats,
            "slots": {
                "hole": {seat: list(self.layout.hole[i]) for i, seat in enumerate(seats)},
                "burn": [self.layout.burn],
                "stub": list(self.layout.stub),
            },
            "board": [],
            "draws": entries,
            "stub_commit": self.stub_commit_hex,
            "stub_seed": self._seed.hex(),
            "shown": {seat: [card_name(card_at[p]) for p in final[seat]] for seat in shown_seats},
            "opened": [o.to_json() for o in openings],
        }
